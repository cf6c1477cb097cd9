"""Running a tournament from sign-up to the champion, through the API: registration with a cap
and a waitlist, check-in, drops and re-entry, a Swiss top cut, the end by itself, clubs kept
apart, league seasons and round clocks. Every change is an event in the tournament's log."""

from __future__ import annotations

from functools import partial

import pytest
from rest_framework.test import APIClient

from league import pairing
from league.models import League, Membership, Season, Tournament, TournamentEvent
from league.selectors import league_tables
from tests.league import tournament_steps
from tests.league.tournament_steps import kinds, pair, ranked

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")


# The response, not the id: some tests here look at a refusal.
create = partial(tournament_steps.set_up, name="Spring open")


def play_round(api_for, users, tid, round_body):
    """Every table: the first seat wins; reported by the first seat, confirmed by the rest."""
    for table in round_body["tables"]:
        results = ranked(*table["seats"])
        url = f"/api/tournaments/{tid}/tables/{table['id']}"
        assert (
            api_for(users[table["seats"][0]])
            .post(f"{url}/report/", {"results": results}, format="json")
            .status_code
            == 201
        )
        for name in table["seats"][1:]:
            response = api_for(users[name]).post(
                f"{url}/confirm/", {"results": results}, format="json"
            )
            assert response.status_code == 201, response.json()


# -- the end ------------------------------------------------------------------------------------


def test_a_swiss_ends_by_itself_after_its_last_round_and_names_the_champion(org, api_for, users):
    tid = create(org).json()["id"]
    play_round(api_for, users, tid, pair(org, tid))
    assert org.get(f"/api/tournaments/{tid}/").json()["status"] == "running"
    play_round(api_for, users, tid, pair(org, tid))
    body = org.get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished", "nobody had to press 'pair' once more"
    standings = APIClient().get(f"/api/tournaments/{tid}/standings/").json()
    assert body["champion"] == standings[0]["player"]
    assert kinds(tid)[-1] == "TournamentFinished"
    end = TournamentEvent.objects.filter(tournament_id=tid).last()
    assert end.actor is None and end.data == {"rounds": 2, "champion": body["champion"]}
    assert org.post(f"/api/tournaments/{tid}/rounds/").status_code == 422
    page = APIClient().get(f"/tournaments/{tid}/").content.decode()
    assert "Champion" in page and body["champion"] in page


def test_pair_again_is_not_offered_once_a_round_has_a_result(org, api_for, users, client):
    tid = create(org).json()["id"]
    round_ = pair(org, tid)
    client.force_login(users["org"])
    assert "Pair round 1 again" in client.get(f"/tournaments/{tid}/").content.decode()
    play_round(api_for, users, tid, {"tables": round_["tables"][:1]})
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Pair round 1 again" not in page


# -- drops and re-entry -------------------------------------------------------------------------


def test_dropping_out_asks_for_confirmation_first(org, users, client):
    tid = create(org).json()["id"]
    client.force_login(users["ann"])
    page = client.post(f"/tournaments/{tid}/drop/", {"player": "ann"})
    assert page.status_code == 200 and "Drop out of Spring open?" in page.content.decode()
    assert "EntryDropped" not in kinds(tid), "nothing changes before the confirmation"
    done = client.post(f"/tournaments/{tid}/drop/", {"player": "ann", "confirmed": "yes"})
    assert done.status_code == 302 and kinds(tid)[-1] == "EntryDropped"


def test_an_organiser_re_enters_a_dropped_player(org, api_for, users):
    tid = create(org, players=["ann", "ben", "cat", "dan", "eve"]).json()["id"]
    play_round(api_for, users, tid, pair(org, tid))
    assert (
        api_for(users["eve"])
        .post(f"/api/tournaments/{tid}/drop/", {"player": "eve"}, format="json")
        .status_code
        == 201
    )
    bad = org.post(f"/api/tournaments/{tid}/reenter/", {"player": "ann"}, format="json")
    assert bad.status_code == 422 and "has not dropped" in bad.content.decode()
    assert (
        api_for(users["ann"])
        .post(f"/api/tournaments/{tid}/reenter/", {"player": "eve"}, format="json")
        .status_code
        == 403
    )
    before = kinds(tid)
    ok = org.post(f"/api/tournaments/{tid}/reenter/", {"player": "eve"}, format="json")
    assert ok.status_code == 201, ok.json()
    assert kinds(tid) == [*before, "EntryReentered"]
    assert "EntryDropped" in kinds(tid), "the drop stays in the log"
    seated = {p for t in pair(org, tid)["tables"] for p in t["seats"]}
    assert "eve" in seated or "eve" in org.get(f"/api/tournaments/{tid}/rounds/").json()[-1]["byes"]


# -- registration and check-in ------------------------------------------------------------------


def test_open_entry_with_a_cap_a_waitlist_and_moving_up(org, api_for, users):
    tid = create(org, players=[], entry_mode="open", cap=3).json()["id"]
    for name in ("ann", "ben", "cat", "dan", "eve"):
        assert api_for(users[name]).post(f"/api/tournaments/{tid}/register/").status_code == 201
    players = {p["player"]: p for p in org.get(f"/api/tournaments/{tid}/").json()["players"]}
    assert [n for n, p in players.items() if p["waitlisted"]] == ["dan", "eve"]
    again = api_for(users["ann"]).post(f"/api/tournaments/{tid}/register/")
    assert again.status_code == 422 and "already entered" in again.content.decode()
    low = org.post(f"/api/tournaments/{tid}/cap/", {"cap": 2}, format="json")
    assert low.status_code == 400 and "below the 3 players" in low.content.decode()
    api_for(users["ben"]).post(f"/api/tournaments/{tid}/drop/", {"player": "ben"}, format="json")
    players = {p["player"]: p for p in org.get(f"/api/tournaments/{tid}/").json()["players"]}
    assert not players["dan"]["waitlisted"] and players["eve"]["waitlisted"]
    assert kinds(tid)[-2:] == ["EntryDropped", "EntryPromoted"]
    raised = org.post(f"/api/tournaments/{tid}/cap/", {"cap": 4}, format="json").json()
    assert raised["cap"] == 4  # the answer is the tournament as it is now
    players = {p["player"]: p for p in raised["players"]}
    assert not players["eve"]["waitlisted"]
    seated = {p for t in pair(org, tid)["tables"] for p in t["seats"]}
    assert seated == {"ann", "cat", "dan", "eve"}
    late = api_for(users["fay"]).post(f"/api/tournaments/{tid}/register/")
    assert late.status_code == 422 and "entry closed" in late.content.decode()


def test_organiser_only_entry_refuses_self_entry(org, api_for, users):
    tid = create(org).json()["id"]
    response = api_for(users["eve"]).post(f"/api/tournaments/{tid}/register/")
    assert response.status_code == 422 and "organisers enter" in response.content.decode()


def test_check_in_drops_who_has_not_checked_in_when_round_one_is_paired(org, api_for, users):
    tid = create(org, check_in=True, players=["ann", "ben", "cat", "dan", "eve"]).json()["id"]
    for name in ("ann", "ben", "cat"):
        assert api_for(users[name]).post(f"/api/tournaments/{tid}/checkin/").status_code == 201
    assert (
        org.post(f"/api/tournaments/{tid}/checkin/", {"player": "dan"}, format="json").status_code
        == 201
    )
    twice = api_for(users["ann"]).post(f"/api/tournaments/{tid}/checkin/")
    assert twice.status_code == 422 and "already checked in" in twice.content.decode()
    seated = {p for t in pair(org, tid)["tables"] for p in t["seats"]}
    assert seated == {"ann", "ben", "cat", "dan"}
    drop = TournamentEvent.objects.filter(tournament_id=tid, kind="EntryDropped").get()
    assert drop.data == {"player": "eve", "after_round": 0, "reason": "not checked in"}
    late = api_for(users["eve"]).post(f"/api/tournaments/{tid}/checkin/")
    assert late.status_code == 422 and "check-in closed" in late.content.decode()
    standings = APIClient().get(f"/api/tournaments/{tid}/standings/").json()
    assert {row["player"] for row in standings} == seated


def test_too_few_checked_in_refuses_round_one_and_changes_nothing(org, api_for, users):
    tid = create(org, check_in=True).json()["id"]
    api_for(users["ann"]).post(f"/api/tournaments/{tid}/checkin/")
    before = kinds(tid)
    response = org.post(f"/api/tournaments/{tid}/rounds/")
    assert (
        response.status_code == 422
        and "at least two players checked in" in response.content.decode()
    )
    assert kinds(tid) == before


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"cap": 3}, "the cap of 3 is below the 4 players entered"),
        ({"top_cut": 8}, "a top cut of 8 is larger than the field of 4"),
        ({"top_cut": 2, "format": "round-robin"}, "a top cut follows Swiss rounds"),
        ({"round_minutes": 50, "mode": "online"}, "round_minutes is for tournaments played"),
        ({"season": "Spring"}, "a season belongs to a league"),
        ({"players": ["ann"]}, "at least two players"),
    ],
)
def test_bad_settings_are_refused(org, overrides, message):
    response = create(org, **overrides)
    assert response.status_code == 422, response.json()  # well-formed, but not together
    assert message in str(response.json())


# -- top cut ------------------------------------------------------------------------------------


def test_swiss_then_a_top_cut_of_four_to_a_champion(org, api_for, users):
    tid = create(org, players=list(NAMES), top_cut=4).json()["id"]
    for _ in range(2):
        play_round(api_for, users, tid, pair(org, tid))
    swiss = [row["player"] for row in APIClient().get(f"/api/tournaments/{tid}/standings/").json()]
    semi = pair(org, tid)
    assert semi["stage"] == "cut" and len(semi["tables"]) == 2
    assert {p for t in semi["tables"] for p in t["seats"]} == set(swiss[:4])
    # the top two seeds start at different tables
    assert not any({swiss[0], swiss[1]} <= set(t["seats"]) for t in semi["tables"])
    stage = TournamentEvent.objects.get(tournament_id=tid, kind="StageStarted")
    assert stage.data == {"stage": "top cut", "round": 3, "players": swiss[:4]}
    play_round(api_for, users, tid, semi)
    final = pair(org, tid)
    assert final["stage"] == "cut" and len(final["tables"]) == 1
    play_round(api_for, users, tid, final)
    body = org.get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished" and body["champion"] == final["tables"][0]["seats"][0]
    after = [row["player"] for row in APIClient().get(f"/api/tournaments/{tid}/standings/").json()]
    assert after == swiss, "the cut's games leave the Swiss standings as they were"


# -- clubs, seasons, clocks ---------------------------------------------------------------------


def test_club_mates_are_kept_apart_in_the_first_rounds(org, api_for, users):
    reds, blues = (
        League.objects.create(name="Reds", slug="reds"),
        League.objects.create(name="Blues", slug="blues"),
    )
    for name, club in zip(("ann", "ben", "cat", "dan"), (reds, blues, reds, blues)):
        Membership.objects.create(league=club, user=users[name])
    # seeds ann ben | cat dan: round 1 would be ann-cat and ben-dan, both club mates
    plain = create(org).json()["id"]
    clubs = [["ann", "cat"], ["ben", "dan"]]
    assert pairing.repeats([t["seats"] for t in pair(org, plain)["tables"]], clubs) == 2
    apart = create(org, avoid_club_rounds=1).json()["id"]
    assert pairing.repeats([t["seats"] for t in pair(org, apart)["tables"]], clubs) == 0


def test_a_tournament_in_a_season_counts_in_its_standings(org, api_for, users):
    import datetime as dt

    league = League.objects.create(name="Club", slug="club")
    Membership.objects.create(league=league, user=users["org"], role="organiser")
    for name in ("ann", "ben", "cat", "dan"):
        Membership.objects.create(league=league, user=users[name])
    season = Season.objects.create(league=league, name="Spring", starts_on=dt.date(2020, 1, 1))
    Season.objects.create(
        league=league, name="Old", starts_on=dt.date(2010, 1, 1), ends_on=dt.date(2010, 12, 31)
    )
    wrong = create(org, league="club", season="Autumn")
    assert wrong.status_code == 404 and "no season 'Autumn'" in str(wrong.json())
    body = create(org, league="club", season="Old", rounds=1).json()
    assert body["season"] == "Old"
    play_round(api_for, users, body["id"], pair(org, body["id"]))
    old = Season.objects.get(name="Old")
    rows = league_tables(league, season=old)["overall"]
    assert sum(row["games"] for row in rows) == 4, "the games count in the tournament's season"
    assert sum(row["games"] for row in league_tables(league, season=season)["overall"]) == 0


def test_a_rounds_clock_starts_once_and_is_logged(org):
    tid = create(org, round_minutes=50).json()["id"]
    pair(org, tid)
    started = org.post(f"/api/tournaments/{tid}/rounds/1/start/", {}, format="json")
    assert started.status_code == 201 and started.json()["minutes"] == 50
    assert started.json()["started_at"]
    again = org.post(f"/api/tournaments/{tid}/rounds/1/start/", {}, format="json")
    assert again.status_code == 422 and "already running" in again.content.decode()
    assert kinds(tid)[-1] == "RoundStarted"


def test_a_top_cut_larger_than_the_field_at_round_one_changes_nothing(org, api_for, users):
    tid = create(org, players=[], entry_mode="open", top_cut=4).json()["id"]
    for name in ("ann", "ben", "cat"):
        api_for(users[name]).post(f"/api/tournaments/{tid}/register/")
    before = kinds(tid)
    response = org.post(f"/api/tournaments/{tid}/rounds/")
    assert response.status_code == 422  # the field as it stands
    assert "a top cut of 4 is larger than the field of 3" in response.content.decode()
    assert kinds(tid) == before and org.get(f"/api/tournaments/{tid}/").json()["status"] == "open"


def test_the_form_puts_a_tournament_in_a_season_of_its_league(client, users):
    import datetime as dt

    league = League.objects.create(name="Club", slug="club")
    other = League.objects.create(name="Other", slug="other")
    for each in (league, other):
        Membership.objects.create(league=each, user=users["org"], role="organiser")
    season = Season.objects.create(league=league, name="Spring", starts_on=dt.date(2020, 1, 1))
    elsewhere = Season.objects.create(league=other, name="Winter", starts_on=dt.date(2020, 1, 1))
    client.force_login(users["org"])
    post = {
        "name": "Club Swiss",
        "game": DSA,
        "format": "swiss",
        "mode": "table",
        "table_size": "2",
        "rounds": "2",
        "advance": "1",
        "players": "ann\nben\ncat\ndan",
        "bye_points": "0",
        "on_timeout": "random",
        "league": str(league.pk),
        "season": str(elsewhere.pk),
    }
    wrong = client.post("/tournaments/new/", post)
    assert (
        wrong.status_code == 200 and "Choose a season of the tournament" in wrong.content.decode()
    )
    response = client.post("/tournaments/new/", {**post, "season": str(season.pk)})
    assert response.status_code == 302
    body = APIClient().get(f"/api/tournaments/{response.url.split('/')[-2]}/").json()
    assert body["league"] == "club" and body["season"] == "Spring"


def test_each_tie_break_is_explained_in_one_line_on_the_standings(org, client):
    tiebreaks = ["median_buchholz", "opponents_share", "buchholz"]
    tid = create(org, tiebreaks=tiebreaks, table_size=3, players=list(NAMES[:3])).json()["id"]
    html = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Ties are broken by median buchholz, then opponents&#x27; share, then buchholz" in html
    assert "Buchholz without your best and worst game" in html
    assert "counting anyone below 1/4 as 1/4" in html  # tables of 3: the floor is 1/4


def test_the_standings_explain_the_tie_breaks_of_the_events_version(org, client):
    """Issue 38: Buchholz is an average per game and the share starts at a negative score; an
    event finished under the old formulas keeps them, and its page says them."""
    tiebreaks = ["buchholz", "share", "median_buchholz"]
    tid = create(org, tiebreaks=tiebreaks, players=list(NAMES[:4])).json()["id"]
    html = client.get(f"/tournaments/{tid}/").content.decode()
    assert "the average, over your games, of your opponents&#x27; average points" in html
    assert "a negative score counts from the table&#x27;s lowest" in html
    Tournament.objects.filter(pk=tid).update(tiebreak_version=1)
    html = client.get(f"/tournaments/{tid}/").content.decode()
    assert "the points of everyone you played against, added up" in html
    assert "a negative score" not in html


def test_the_form_chooses_the_tie_breaks_in_the_order_listed(client, users):
    client.force_login(users["org"])
    post = {
        "name": "Picked",
        "game": DSA,
        "format": "swiss",
        "mode": "table",
        "table_size": "2",
        "rounds": "2",
        "advance": "1",
        "players": "ann\nben",
        "bye_points": "0",
        "on_timeout": "random",
        "tiebreaks": ["wins", "opponents_share", "median_buchholz"],
    }
    response = client.post("/tournaments/new/", post)
    assert response.status_code == 302
    body = APIClient().get(f"/api/tournaments/{response.url.split('/')[-2]}/").json()
    assert body["tiebreaks"] == ["median_buchholz", "opponents_share", "wins"]
    bad = client.post("/tournaments/new/", {**post, "tiebreaks": ["luck"]})
    assert (
        bad.status_code == 200
        and "luck is not one of the available choices" in bad.content.decode()
    )


def test_a_top_cut_left_with_one_player_by_drops_ends_on_the_swiss_standings(org, api_for, users):
    tid = create(org, rounds=1, top_cut=2).json()["id"]
    play_round(api_for, users, tid, pair(org, tid))
    winners = [
        row["player"] for row in APIClient().get(f"/api/tournaments/{tid}/standings/").json()
    ]
    org.post(f"/api/tournaments/{tid}/drop/", {"player": winners[1]}, format="json")
    for name in winners[2:]:
        org.post(f"/api/tournaments/{tid}/drop/", {"player": name}, format="json")
    assert org.post(f"/api/tournaments/{tid}/rounds/").status_code == 422  # over, not paired
    body = org.get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished" and body["champion"] == winners[0]
    assert len(body["rounds_played"]) == 1
