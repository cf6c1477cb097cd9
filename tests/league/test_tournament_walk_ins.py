"""Walk-ins: a player without an account entered by name at an event played at the venue. They
sit at their tables as a guest ("Ann (guest)"), report and are reported like anyone, are never
rated, and can be dropped, forfeited and re-entered by name; later, a member claims the entry
with the code on their slip, and its standing, its past tables and its later games are theirs.
Bad requests (an online event, a clash of names, a wrong or spent code, a second entry) are
refused and change nothing; the codes reach the organisers alone."""

from __future__ import annotations

import csv
import io
import re
from functools import partial

import pytest

from accounts.models import Profile
from games.models import Event, Game, GameStatus, Seat
from league.models import Entry, RatingChange, TournamentEvent
from tests.league import tournament_steps
from tests.league.tournament_steps import forfeit, kinds, override, pair, ranked

pytestmark = pytest.mark.django_db
CODE = re.compile(r"^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$")

create = partial(tournament_steps.create, players=["ann", "ben", "cat"])


@pytest.fixture
def users(make_user):
    return {name: make_user(name) for name in ("ann", "ben", "cat", "org", "walt")}


def walk_in(client, tid, name):
    return client.post(f"/api/tournaments/{tid}/walk-ins/", {"name": name}, format="json")


def player_rows(client, tid) -> dict[str, dict]:
    return {p["player"]: p for p in client.get(f"/api/tournaments/{tid}/").json()["players"]}


def standings(client, tid) -> dict[str, float]:
    rows = client.get(f"/api/tournaments/{tid}/standings/").json()
    return {row["player"]: row["points"] for row in rows}


def table_of(round_: dict, name: str) -> dict:
    return next(t for t in round_["tables"] if name in t["seats"])


def report(client, tid, table, first, second):
    """``first`` wins the table of two: the winner 10, the other 3."""
    body = {"results": ranked(first, second, scores=(10, 3))}
    return client.post(f"/api/tournaments/{tid}/tables/{table['id']}/report/", body, format="json")


# -- entering a walk-in -------------------------------------------------------------------------


def test_an_organiser_enters_a_walk_in_by_name_with_a_code_for_their_slip(org, users):
    tid = create(org)
    response = walk_in(org, tid, "Wendy")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["player"] == "Wendy (guest)"
    assert CODE.match(body["code"]), body["code"]
    assert body["claimed_by"] is None
    row = player_rows(org, tid)["Wendy (guest)"]
    assert row["walk_in"] is True
    assert row["checked_in"] is True  # entered at the venue
    assert row["answer"] == "accepted"  # nobody to ask
    assert player_rows(org, tid)["ann"]["walk_in"] is False
    logged = TournamentEvent.objects.filter(tournament_id=tid).last()
    assert (logged.kind, logged.data) == (
        "EntryAdded",
        {"player": "Wendy (guest)", "after_round": 0, "walk_in": True},
    )
    assert org.get(f"/api/tournaments/{tid}/walk-ins/").json() == [body]


def test_the_codes_reach_the_organisers_alone(org, users, api_for, client):
    tid = create(org)
    code = walk_in(org, tid, "Wendy").json()["code"]
    ann = api_for(users["ann"])
    assert ann.get(f"/api/tournaments/{tid}/walk-ins/").status_code == 403
    assert walk_in(ann, tid, "Wilma").status_code == 403
    assert code not in ann.get(f"/api/tournaments/{tid}/").content.decode()
    client.force_login(users["ann"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Wendy (guest)" in page
    assert code not in page and code.replace("-", "") not in page
    client.force_login(users["org"])
    assert code in client.get(f"/tournaments/{tid}/").content.decode()
    assert Entry.objects.filter(tournament_id=tid).count() == 4


def test_an_online_event_refuses_a_walk_in(org):
    tid = create(org, mode="online")
    before = kinds(tid)
    response = walk_in(org, tid, "Wendy")
    assert response.status_code == 422
    assert "online" in response.json()["error"]
    assert kinds(tid) == before
    assert not Entry.objects.filter(tournament_id=tid, guest="Wendy").exists()


@pytest.mark.parametrize(
    "name, why",
    [
        ("ANN", "member entered here"),  # a member's username, in another case
        ("Wendy", "already entered"),  # the same walk-in twice
        ("wendy", "walk-in named Wendy"),  # another walk-in's name, in another case
        ("   ", "blank"),
    ],
)
def test_names_that_would_read_alike_at_a_table_are_refused(org, name, why):
    tid = create(org)
    assert walk_in(org, tid, "Wendy").status_code == 201
    count = Entry.objects.filter(tournament_id=tid).count()
    response = walk_in(org, tid, name)
    assert response.status_code in (400, 422), response.json()
    assert why.lower() in str(response.json()).lower() or why == "blank"
    assert Entry.objects.filter(tournament_id=tid).count() == count


def test_a_member_named_as_a_walk_in_is_not_entered_beside_them(org, make_user):
    make_user("wendy")
    tid = create(org)
    walk_in(org, tid, "Wendy")
    response = org.post(f"/api/tournaments/{tid}/enter/", {"player": "wendy"}, format="json")
    assert response.status_code == 422
    assert "claim the entry" in response.json()["error"]
    assert "wendy" not in player_rows(org, tid)


# -- playing as a guest ---------------------------------------------------------------------------


def test_a_walk_in_plays_as_a_guest_and_nobody_is_rated_for_it(
    org, users, api_for, django_capture_on_commit_callbacks
):
    tid = create(org)
    walk_in(org, tid, "Wendy")
    round_1 = pair(org, tid)
    table = table_of(round_1, "Wendy (guest)")
    members = next(t for t in round_1["tables"] if t is not table)
    # The members' table, reported and confirmed (their agreement): rated, as a control.
    a, b = members["seats"]
    with django_capture_on_commit_callbacks(execute=True):
        assert report(api_for(users[a]), tid, members, a, b).status_code == 201
        confirmed = api_for(users[b]).post(
            f"/api/tournaments/{tid}/tables/{members['id']}/confirm/",
            {"results": ranked(a, b, scores=(10, 3))},
            format="json",
        )
        assert confirmed.status_code == 201, confirmed.json()
    assert RatingChange.objects.filter(game_id=members["game"]).count() == 2
    member = next(name for name in table["seats"] if name != "Wendy (guest)")
    seats = Seat.objects.filter(game_id=table["game"]).order_by("index")
    assert {s.guest for s in seats} == {"Wendy", ""}
    created = Event.objects.get(game_id=table["game"], kind="GameCreated")
    assert "Wendy" not in str(created.data)  # the log names the guest by id alone

    # The member reports, naming the walk-in as the tournament does; with no other member to
    # confirm it, the result is final, as a club record with a guest is.
    with django_capture_on_commit_callbacks(execute=True):
        response = report(api_for(users[member]), tid, table, "Wendy (guest)", member)
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=table["game"])
    assert game.status == GameStatus.FINISHED
    assert {k: v for k, v in standings(org, tid).items() if k in table["seats"]} == {
        "Wendy (guest)": 1.0,
        member: 0.0,
    }
    shown = table_of(org.get(f"/api/tournaments/{tid}/rounds/").json()[0], "Wendy (guest)")
    assert {r["player"] for r in shown["result"]} == {"Wendy (guest)", member}
    assert {r["player"] for r in shown["report"]["final"]} == {"Wendy (guest)", member}
    assert not RatingChange.objects.filter(game_id=game.pk).exists()
    rows = list(
        csv.reader(io.StringIO(org.get(f"/api/tournaments/{tid}/results.csv").content.decode()))
    )
    assert "Wendy (guest)" in {row[4] for row in rows[1:]}


def test_an_organiser_drops_forfeits_and_re_enters_a_walk_in_by_name(org):
    tid = create(org, players=["ann", "ben", "cat"])
    walk_in(org, tid, "Wendy")
    round_1 = pair(org, tid)
    table = table_of(round_1, "Wendy (guest)")
    other = next(n for n in table["seats"] if n != "Wendy (guest)")
    response = forfeit(org, tid, table["id"], player="Wendy (guest)", reason="left early")
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=table["game"])
    assert [r["rank"] for r in sorted(game.result, key=lambda r: r["player"] == "Wendy")] == [1, 2]
    response = org.post(f"/api/tournaments/{tid}/drop/", {"player": "Wendy (guest)"}, format="json")
    assert response.status_code == 201, response.json()
    assert player_rows(org, tid)["Wendy (guest)"]["dropped"] is True
    response = org.post(
        f"/api/tournaments/{tid}/reenter/", {"player": "Wendy (guest)"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert player_rows(org, tid)["Wendy (guest)"]["dropped"] is False
    assert standings(org, tid)[other] == 1.0


def test_a_late_walk_in_plays_from_the_next_round(org, api_for, users):
    tid = create(org, players=["ann", "ben", "cat", "org"], rounds=3)
    round_1 = pair(org, tid)
    for table in round_1["tables"]:
        a, b = table["seats"]
        settled = override(org, tid, table["id"], ranked(a, b, scores=(5, 1)))
        assert settled.status_code in (200, 201)
    assert walk_in(org, tid, "Wendy").status_code == 201
    assert player_rows(org, tid)["Wendy (guest)"]["checked_in"] is True
    round_2 = pair(org, tid)
    seated = {n for t in round_2["tables"] for n in t["seats"]} | set(round_2["byes"])
    assert "Wendy (guest)" in seated


# -- claiming the entry later ---------------------------------------------------------------------


def played_round_one(org, api_for, users) -> tuple[int, str, str]:
    """ann and ben, cat and the walk-in Wendy; round 1 played, the walk-in winning. Returns
    the tournament, the code and the walk-in's opponent."""
    tid = create(org, players=["ann", "ben", "cat"])
    code = walk_in(org, tid, "Wendy").json()["code"]
    round_1 = pair(org, tid)
    for table in round_1["tables"]:
        a, b = sorted(table["seats"], key=lambda n: n != "Wendy (guest)")
        settled = override(org, tid, table["id"], ranked(a, b, scores=(9, 2)))
        assert settled.status_code in (200, 201)
    opponent = next(n for n in table_of(round_1, "Wendy (guest)")["seats"] if n != "Wendy (guest)")
    return tid, code, opponent


def test_a_member_claims_the_walk_ins_entry_and_its_results_become_theirs(org, api_for, users):
    tid, code, opponent = played_round_one(org, api_for, users)
    before = standings(org, tid)
    walt = api_for(users["walt"])
    typed = code.lower().replace("-", " ")  # read off a slip, as a person types it
    response = walt.post(f"/api/tournaments/{tid}/claim/", {"code": typed}, format="json")
    assert response.status_code == 200, response.json()
    players = {p["player"]: p for p in response.json()["players"]}
    assert "Wendy (guest)" not in players
    assert players["walt"]["walk_in"] is True
    assert players["walt"]["answer"] == "accepted"
    after = standings(org, tid)
    assert after["walt"] == before["Wendy (guest)"] == 1.0
    assert "Wendy (guest)" not in after
    past = org.get(f"/api/tournaments/{tid}/rounds/").json()[0]
    assert "walt" in table_of(past, "walt")["seats"]
    logged = TournamentEvent.objects.filter(tournament_id=tid).last()
    assert (logged.kind, logged.data, logged.actor_id) == (
        "EntryClaimed",
        {"walk_in": "Wendy (guest)", "player": "walt"},
        users["walt"].pk,
    )
    assert org.get(f"/api/tournaments/{tid}/walk-ins/").json() == [
        {"player": "Wendy (guest)", "code": "", "claimed_by": "walt"}
    ]
    # The game played before the claim keeps its guest: its log is never edited.
    first = Game.objects.get(pk=table_of(past, "walt")["game"])
    assert first.seats.filter(guest="Wendy", user__isnull=True).exists()

    # Round 2 seats the member, and avoids the opponent met as a guest.
    round_2 = pair(org, tid)
    table = table_of(round_2, "walt")
    assert opponent not in table["seats"]
    assert Seat.objects.filter(game_id=table["game"], user=users["walt"]).exists()


def test_claims_that_cannot_be_made_are_refused_and_change_nothing(org, api_for, users, make_user):
    tid, code, _ = played_round_one(org, api_for, users)
    ann = api_for(users["ann"])  # entered already
    walt = api_for(users["walt"])
    bot = make_user("botty")
    Profile.objects.create(user=bot, bot_since=bot.date_joined)
    cases = [
        (walt, "ABCD-EFGH", 422, "check it with an organiser"),
        (walt, "", 400, None),
        (ann, code, 409, "one entry"),
        (api_for(bot), code, 422, "bot"),
    ]
    for client, given, status, words in cases:
        response = client.post(f"/api/tournaments/{tid}/claim/", {"code": given}, format="json")
        assert response.status_code == status, (given, response.json())
        if words:
            assert words in response.json()["error"]
    assert Entry.objects.get(tournament_id=tid, guest="Wendy").user_id is None
    assert "EntryClaimed" not in kinds(tid)

    assert (
        walt.post(f"/api/tournaments/{tid}/claim/", {"code": code}, format="json").status_code
        == 200
    )
    other = api_for(make_user("otto"))
    response = other.post(f"/api/tournaments/{tid}/claim/", {"code": code}, format="json")
    assert response.status_code == 422  # spent
    assert Entry.objects.get(tournament_id=tid, guest="Wendy").user_id == users["walt"].pk


def test_a_finished_event_can_still_be_claimed(org, api_for, users):
    tid, code, _ = played_round_one(org, api_for, users)
    round_2 = pair(org, tid)
    for table in round_2["tables"]:
        a, b = table["seats"]
        override(org, tid, table["id"], ranked(a, b, scores=(4, 1)))
    assert org.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"
    walt = api_for(users["walt"])
    response = walt.post(f"/api/tournaments/{tid}/claim/", {"code": code}, format="json")
    assert response.status_code == 200, response.json()
    assert "walt" in standings(org, tid)


# -- the settings, and erasing a walk-in's name ---------------------------------------------------


def test_the_event_is_edited_with_walk_ins_but_not_moved_online(org):
    tid = create(org)
    walk_in(org, tid, "Wendy")
    response = org.patch(f"/api/tournaments/{tid}/", {"rounds": 3}, format="json")
    assert response.status_code == 200, response.json()
    before = kinds(tid)
    response = org.patch(f"/api/tournaments/{tid}/", {"mode": "online"}, format="json")
    assert response.status_code == 422
    assert "walk-ins" in response.json()["error"]
    assert org.get(f"/api/tournaments/{tid}/").json()["mode"] == "table"
    assert kinds(tid) == before
    org.post(f"/api/tournaments/{tid}/drop/", {"player": "Wendy (guest)"}, format="json")
    response = org.patch(f"/api/tournaments/{tid}/", {"mode": "online"}, format="json")
    assert response.status_code == 200, response.json()


def test_erasing_a_walk_ins_name_erases_it_from_the_tournament_too(org):
    from league.services.erasure import guest_erase

    tid = create(org, rounds=3)
    walk_in(org, tid, "Wendy")
    for table in pair(org, tid)["tables"]:
        a, b = table["seats"]
        override(org, tid, table["id"], ranked(a, b, scores=(4, 1)))
    org.post(f"/api/tournaments/{tid}/rounds/", {"draft": True}, format="json")
    assert "Wendy (guest)" in str(org.get(f"/api/tournaments/{tid}/rounds/2/draft/").json())
    guest_erase(name="Wendy")
    assert "Wendy" not in str(org.get(f"/api/tournaments/{tid}/rounds/2/draft/").json())
    assert not Entry.objects.filter(guest="Wendy").exists()
    assert "Wendy" not in org.get(f"/api/tournaments/{tid}/").content.decode()
    assert "Wendy" not in org.get(f"/api/tournaments/{tid}/rounds/").content.decode()
    log = TournamentEvent.objects.filter(tournament_id=tid).values_list("data", flat=True)
    assert "Wendy" not in str(list(log))
    assert "a former guest (guest)" in standings(org, tid)
