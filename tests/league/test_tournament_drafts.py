"""The organiser's desk: a round as a draft (swap, fix a table, give or take a bye, publish or
discard), tables players always sit at, and the standings as they stood after round N.

The day these tests run: six players at tables of 2, on physical tables. The organiser pairs
round 1 as a draft, edits it, publishes it; results come in; round 2 is drafted, and an edit
that seats two players again says so."""

from __future__ import annotations

import pytest

from core.errors import RuleViolation
from games.models import Game
from inbox.models import Notice
from league import pairing
from league.models import RoundDraft, Tournament
from league.services import tournaments
from league.tournament_spec import TournamentSpec
from league.webhooks import outbox
from tests.league.tournament_steps import harbour_night, kinds, settle_round

pytestmark = pytest.mark.django_db
PLAYERS = ("ann", "ben", "cat", "dan", "eve", "fay")


@pytest.fixture
def day(make_user):
    return harbour_night(make_user, PLAYERS)


@pytest.fixture
def webhook_calls(monkeypatch):
    calls: list[int] = []
    real = outbox.round_paired
    monkeypatch.setattr(
        outbox, "round_paired", lambda t, number, *a: (calls.append(number), real(t, number, *a))
    )
    return calls


def draft(api, tournament, number=1) -> dict:
    response = api.get(f"/api/tournaments/{tournament.pk}/rounds/{number}/draft/")
    assert response.status_code == 200, response.json()
    return response.json()


def edit(api, tournament, body, number=1):
    return api.post(f"/api/tournaments/{tournament.pk}/rounds/{number}/draft/", body, format="json")


# -- the contract, and what a draft is not --------------------------------------------------------


def test_pairing_through_the_api_still_gives_tables_with_games_at_once(day, api_for):
    tournament, users = day
    response = api_for(users["org"]).post(f"/api/tournaments/{tournament.pk}/rounds/")
    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 1 and len(body["tables"]) == 3
    assert all(Game.objects.filter(pk=t["game"]).exists() for t in body["tables"])
    assert not RoundDraft.objects.exists()


def test_a_draft_makes_no_game_tells_nobody_and_only_organisers_see_it(
    day, api_for, client, webhook_calls
):
    tournament, users = day
    org = api_for(users["org"])
    games, notices = Game.objects.count(), Notice.objects.count()
    response = org.post(f"/api/tournaments/{tournament.pk}/rounds/", {"draft": True}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 1 and len(body["tables"]) == 3 and body["repeats"] == []
    assert Game.objects.count() == games and Notice.objects.count() == notices
    assert webhook_calls == []
    assert "RoundDrafted" in kinds(tournament.pk) and "RoundPaired" not in kinds(tournament.pk)

    ann = api_for(users["ann"])
    assert ann.get(f"/api/tournaments/{tournament.pk}/rounds/").json() == []
    assert ann.get(f"/api/tournaments/{tournament.pk}/rounds/1/draft/").status_code == 403
    assert edit(ann, tournament, {"swap": ["ann", "ben"]}).status_code == 403
    assert ann.post(f"/api/tournaments/{tournament.pk}/rounds/1/publish/").status_code == 403

    client.force_login(users["ann"])
    assert (
        "Draft — not published" not in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    )
    client.force_login(users["org"])
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Draft — not published" in page


def test_the_organiser_edits_the_draft_and_publishes_it(day, api_for, webhook_calls):
    tournament, users = day
    org = api_for(users["org"])
    org.post(f"/api/tournaments/{tournament.pk}/rounds/", {"draft": True}, format="json")
    tables = [t["seats"] for t in draft(org, tournament)["tables"]]
    a, b = tables[0][0], tables[1][0]

    swapped = edit(org, tournament, {"swap": [a, b]})
    assert swapped.status_code == 200, swapped.json()
    after = [t["seats"] for t in swapped.json()["tables"]]
    assert after[0][0] == b and after[1][0] == a
    assert swapped.json()["costs"] == [], "round 1: nobody has met"

    # fay must sit at table 1: her whole table moves there, her opponent stays
    fay_table = next(t for t in after if "fay" in t)
    fixed = edit(org, tournament, {"fix": {"player": "fay", "table": 1}})
    assert fixed.status_code == 200, fixed.json()
    assert fixed.json()["tables"][0]["seats"] == fay_table

    # a bye cannot leave a table of one; swap the table into a bye by seating a bye instead
    lone = fixed.json()["tables"][2]["seats"][0]
    refused = edit(org, tournament, {"bye": {"player": lone, "give": True}})
    assert refused.status_code == 422
    assert "left with one player" in refused.json()["error"]

    publish = org.post(f"/api/tournaments/{tournament.pk}/rounds/1/publish/")
    assert publish.status_code == 201, publish.json()
    published = publish.json()
    assert [t["seats"] for t in published["tables"]] == [t["seats"] for t in fixed.json()["tables"]]
    assert all(Game.objects.filter(pk=t["game"]).exists() for t in published["tables"])
    assert webhook_calls == [1]
    assert Notice.objects.filter(user=users["fay"]).exists(), "players are told at publishing"
    assert not RoundDraft.objects.exists()
    log = kinds(tournament.pk)
    assert log.count("DraftEdited") == 2 and log[-1] == "RoundPaired"
    assert Tournament.objects.get().status == Tournament.Status.RUNNING


def test_an_edit_says_what_it_costs_and_a_bye_goes_and_comes_back(make_user, api_for):
    users = {name: make_user(name) for name in ("org", "ann", "ben", "cat", "dan", "eve")}
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Quay cup",
            game="deep-sea-adventure",
            format="swiss",
            table_size=3,
            rounds=3,
            mode="table",
            players=["ann", "ben", "cat", "dan", "eve"],
        ),
        created_by=users["org"],
    )
    org = api_for(users["org"])
    settle_round(
        tournament, users["org"], tournaments.round_pair(tournament=tournament, by=users["org"])
    )
    first = [list(t) for t in tournament.log.get(kind="RoundPaired").data["tables"]]
    org.post(f"/api/tournaments/{tournament.pk}/rounds/", {"draft": True}, format="json")
    now = draft(org, tournament, 2)
    had = {tuple(sorted(r["players"])) for r in now["repeats"]}

    # put two who met in round 1 together: the edit says so, and the draft shows it
    table_of = {p: t["number"] for t in now["tables"] for p in t["seats"]}
    x, y = next(
        (x, y)
        for t in first
        for x in t
        for y in t
        if x != y and x in table_of and y in table_of and table_of[x] != table_of[y]
    )
    partner = next(p for p in now["tables"][table_of[y] - 1]["seats"] if p != y)
    swapped = edit(org, tournament, {"swap": [x, partner]}, 2)
    assert swapped.status_code == 200, swapped.json()
    assert any(
        f"{a} and {b} have met before" in cost
        for cost in swapped.json()["costs"]
        for a, b in ((x, y), (y, x))
    ), swapped.json()["costs"]
    repeats = {tuple(sorted(r["players"])) for r in draft(org, tournament, 2)["repeats"]}
    assert tuple(sorted((x, y))) in repeats - had

    # a table of 3 may give a bye (2 stay), and take it back
    three = next(t for t in draft(org, tournament, 2)["tables"] if len(t["seats"]) == 3)
    player = three["seats"][-1]
    gave = edit(org, tournament, {"bye": {"player": player, "give": True}}, 2)
    assert gave.status_code == 200, gave.json()
    assert player in gave.json()["byes"]
    back = edit(org, tournament, {"bye": {"player": player, "give": False}}, 2)
    assert back.status_code == 200, back.json()
    assert player not in back.json()["byes"]
    assert any(player in t["seats"] for t in back.json()["tables"])


BAD_EDITS = [
    ({"swap": ["ann", "ann"]}, 400, "seat ann twice"),
    ({"swap": ["ann", "zed"]}, 400, "zed is not in round 1"),
    ({"swap": ["ann"]}, 400, "two players"),
    ({"fix": {"player": "ann", "table": 4}}, 400, "there is no table 4"),
    ({"fix": {"player": "ann", "table": "1"}}, 400, "must be a whole number"),
    ({"fix": {"player": "ann"}}, 400, '"fix" takes'),
    ({"bye": {"player": "zed", "give": True}}, 400, "zed is not in round 1"),
    ({"bye": {"player": "ann", "give": False}}, 400, "ann has no bye"),
    ({"bye": {"player": "ann", "give": "yes"}}, 400, '"give" is true'),
    ({"bye": {"player": "ann", "give": True}}, 422, "left with one player"),
    ({"swap": ["ann", "ben"], "bye": {"player": "ann"}}, 400, "one edit"),
    ({"kick": "ann"}, 400, "no edit 'kick'"),
    ([], 400, "one edit"),
]


@pytest.mark.parametrize(("body", "status", "words"), BAD_EDITS)
def test_a_bad_edit_is_refused_in_words_and_changes_nothing(day, api_for, body, status, words):
    tournament, users = day
    org = api_for(users["org"])
    org.post(f"/api/tournaments/{tournament.pk}/rounds/", {"draft": True}, format="json")
    before, log = draft(org, tournament), kinds(tournament.pk)
    response = edit(org, tournament, body)
    assert response.status_code == status, response.json()
    assert words in response.json()["error"]
    assert draft(org, tournament) == before and kinds(tournament.pk) == log


def test_no_draft_to_edit_publish_or_discard(day, api_for):
    tournament, users = day
    org = api_for(users["org"])
    url = f"/api/tournaments/{tournament.pk}/rounds/1"
    assert edit(org, tournament, {"swap": ["ann", "ben"]}).status_code == 404
    assert org.post(f"{url}/publish/").status_code == 404
    assert org.delete(f"{url}/draft/").status_code == 404
    org.post(f"/api/tournaments/{tournament.pk}/rounds/", {"draft": True}, format="json")
    assert org.post(f"/api/tournaments/{tournament.pk}/rounds/2/publish/").status_code == 404
    bad = org.post(f"/api/tournaments/{tournament.pk}/rounds/", {"draft": "maybe"}, format="json")
    assert bad.status_code == 400


def test_nothing_is_paired_while_a_draft_is_open_and_discarding_frees_it(day, api_for):
    tournament, users = day
    org = api_for(users["org"])
    org.post(f"/api/tournaments/{tournament.pk}/rounds/", {"draft": True}, format="json")
    again = org.post(f"/api/tournaments/{tournament.pk}/rounds/")
    assert again.status_code == 422 and "round 1 is a draft" in again.json()["error"]
    assert org.delete(f"/api/tournaments/{tournament.pk}/rounds/1/draft/").status_code == 204
    assert kinds(tournament.pk)[-1] == "DraftDiscarded" and not RoundDraft.objects.exists()
    assert org.post(f"/api/tournaments/{tournament.pk}/rounds/").status_code == 201


def test_the_tournament_does_not_end_while_its_next_round_is_a_draft(make_user):
    org, *_ = (make_user(n) for n in ("org", "ann", "ben"))
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Two",
            game="deep-sea-adventure",
            format="swiss",
            table_size=2,
            rounds=2,
            mode="table",
            players=["ann", "ben"],
        ),
        created_by=org,
    )
    settle_round(tournament, org, tournaments.round_pair(tournament=tournament, by=org))
    tournaments.round_pair(tournament=tournament, by=org, draft=True)
    with pytest.raises(Exception, match="round 2 is a draft"):
        tournaments.round_pair(tournament=tournament, by=org)
    round_2 = tournaments.draft_publish(tournament=tournament, number=2, by=org)
    settle_round(tournament, org, round_2)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_publishing_is_refused_when_the_field_changed_since_the_draft(day, api_for):
    tournament, users = day
    org = api_for(users["org"])
    org.post(f"/api/tournaments/{tournament.pk}/rounds/", {"draft": True}, format="json")
    tournaments.entry_drop(tournament=tournament, player="ann", by=users["org"])
    response = org.post(f"/api/tournaments/{tournament.pk}/rounds/1/publish/")
    assert response.status_code == 422
    assert "ann" in response.json()["error"] and "pair the round again" in response.json()["error"]
    assert RoundDraft.objects.exists() and not tournament.round_set.exists()


# -- fixed tables --------------------------------------------------------------------------------


def test_a_player_fixed_to_table_1_sits_there_every_round(day, api_for):
    tournament, users = day
    org = api_for(users["org"])
    url = f"/api/tournaments/{tournament.pk}/fixed-table/"
    assert org.post(url, {"player": "fay", "table": 1}, format="json").status_code == 200
    assert tournament.log.filter(kind="TableFixed").get().data == {"player": "fay", "table": 1}
    for _ in range(3):
        round_ = tournaments.round_pair(tournament=tournament, by=users["org"])
        table_1 = round_.tables.get(number=1).game.seats.values_list("user__username", flat=True)
        assert "fay" in table_1
        settle_round(tournament, users["org"], round_)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"player": "fay", "table": 0}, 400),
        ({"player": "fay", "table": "one"}, 400),
        ({"player": "zed", "table": 1}, 404),
        ({"table": 1}, 400),
    ],
)
def test_a_bad_fixed_table_is_refused(day, api_for, body, status):
    tournament, users = day
    response = api_for(users["org"]).post(
        f"/api/tournaments/{tournament.pk}/fixed-table/", body, format="json"
    )
    assert response.status_code == status
    assert "error" in response.json()
    assert not tournament.entries.filter(fixed_table__isnull=False).exists()
    ann = api_for(users["ann"]).post(
        f"/api/tournaments/{tournament.pk}/fixed-table/",
        {"player": "ann", "table": 1},
        format="json",
    )
    assert ann.status_code == 403


def test_fixing_tables_moves_whole_tables_so_nobody_changes_opponents():
    round_ = pairing.Pairing(tables=[["a", "b"], ["c", "d"], ["e", "f"]], byes=["g"])
    moved = pairing.fix_tables(round_, {"e": 1, "g": 2})
    assert moved.tables == [["e", "f"], ["c", "d"], ["a", "b"]] and moved.byes == ["g"]
    # two fixed players at one table who want different tables: the first has it
    clash = pairing.fix_tables(round_, {"e": 1, "f": 3, "d": 1})
    assert clash.tables[0][:1] == ["e"] and "d" in clash.tables[0]
    assert sorted(p for t in clash.tables for p in t) == list("abcdef")
    assert pairing.fix_tables(round_, {"a": 9}).tables[-1] == ["a", "b"]


# -- the standings as they stood ------------------------------------------------------------------


def test_the_standings_after_round_n(day, api_for):
    tournament, users = day
    ann = api_for(users["ann"])
    url = f"/api/tournaments/{tournament.pk}/standings/"
    assert ann.get(url, {"round": 1}).status_code == 400
    settle_round(
        tournament, users["org"], tournaments.round_pair(tournament=tournament, by=users["org"])
    )
    after_1 = ann.get(url, {"round": 1}).json()
    settle_round(
        tournament, users["org"], tournaments.round_pair(tournament=tournament, by=users["org"])
    )
    now = ann.get(url).json()
    assert ann.get(url, {"round": 2}).json() == now
    assert ann.get(url, {"round": 1}).json() == after_1
    assert max(r["games"] for r in after_1) == 1 and max(r["games"] for r in now) == 2
    for bad in ("0", "3", "x", "-1", "1.5"):
        response = ann.get(url, {"round": bad})
        assert response.status_code == 400, bad
        assert "round" in response.json()["error"]


def test_a_swap_that_mixes_score_groups_says_so(make_user):
    org, *_ = (make_user(n) for n in ("org", "ann", "ben", "cat", "dan"))
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Four",
            game="deep-sea-adventure",
            format="swiss",
            table_size=2,
            rounds=3,
            mode="table",
            players=["ann", "ben", "cat", "dan"],
        ),
        created_by=org,
    )
    settle_round(tournament, org, tournaments.round_pair(tournament=tournament, by=org))
    drafted = tournaments.round_pair(tournament=tournament, by=org, draft=True)
    # winners meet winners: no gap in points at any table
    first_round = tournament.log.get(kind="RoundPaired").data["tables"]
    winners = {t[0] for t in first_round}
    assert all(set(t) <= winners or not set(t) & winners for t in drafted.tables)
    # Swap a winner with the loser who lost to the winner they sit with: the loser then meets
    # that winner again.
    winner, other = next(t for t in drafted.tables if set(t) <= winners)
    loser = next(p for t in first_round if other in t for p in t if p != other)
    _, costs = tournaments.draft_edit(
        tournament=tournament, number=2, by=org, edit={"swap": [winner, loser]}
    )
    assert "the score difference at tables rises from 0 to 2 points" in costs
    assert any("have met before" in cost for cost in costs)


def test_a_brackets_draft_takes_no_swap_or_bye_but_may_renumber_a_table(make_user):
    """A bracket fixes who meets whom when it is drawn: a draft of an elimination round may
    not swap players or give a bye (the bracket would no longer be the one drawn), but a
    table may still take another number (a player who must sit at table 1)."""
    org, *_ = (make_user(n) for n in ("org", "ann", "ben", "cat", "dan"))
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Cup",
            game="deep-sea-adventure",
            format="elimination",
            table_size=2,
            rounds=1,
            mode="table",
            players=["ann", "ben", "cat", "dan"],
        ),
        created_by=org,
    )
    draft = tournaments.round_pair(tournament=tournament, by=org, draft=True)
    first, second = draft.tables
    for edit in ({"swap": [first[0], second[0]]}, {"bye": {"player": first[0], "give": True}}):
        with pytest.raises(RuleViolation, match="bracket"):
            tournaments.draft_edit(tournament=tournament, number=1, by=org, edit=edit)
    draft.refresh_from_db()
    assert draft.tables == [first, second]
    assert not tournament.log.filter(kind="DraftEdited").exists()

    draft, _ = tournaments.draft_edit(
        tournament=tournament, number=1, by=org, edit={"fix": {"player": second[0], "table": 1}}
    )
    assert draft.tables == [second, first]
