"""Editing a tournament after it was created: what may change when, each change one event in
the log, a refusal naming the setting and changing nothing; co-organisers; the log on the
page for its organisers only."""

from __future__ import annotations

from functools import partial

import pytest

from league.models import Tournament, TournamentEvent
from tests.league import tournament_steps
from tests.league.tournament_steps import log, ranked

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
NAMES = ("ann", "ben", "cat", "dan")


@pytest.fixture
def users(make_user):
    return {name: make_user(name) for name in (*NAMES, "org", "amy")}


create = partial(tournament_steps.create, players=NAMES, name="Reef cup", rounds=3)


def edit(client, tid, **changes):
    return client.patch(f"/api/tournaments/{tid}/", changes, format="json")


def play_round(api_for, users, tid, round_body):
    for table in round_body["tables"]:
        results = ranked(*table["seats"])
        url = f"/api/tournaments/{tid}/tables/{table['id']}"
        api_for(users[table["seats"][0]]).post(
            f"{url}/report/", {"results": results}, format="json"
        )
        for name in table["seats"][1:]:
            api_for(users[name]).post(f"{url}/confirm/", {"results": results}, format="json")


def test_an_organiser_edits_the_event_before_and_during_it(org, api_for, users):
    tid = create(org)
    response = edit(org, tid, name="Reef cup 2026", table_size=2, rounds=4, bye_points=1)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["name"], body["rounds"], body["bye_points"]) == ("Reef cup 2026", 4, 1)
    assert log(tid)[-1] == (
        "TournamentEdited",
        {
            "changes": {
                "name": ["Reef cup", "Reef cup 2026"],
                "rounds": [3, 4],
                "bye_points": [0, 1],
            }
        },
    )
    round_1 = org.post(f"/api/tournaments/{tid}/rounds/").json()
    play_round(api_for, users, tid, round_1)
    org.post(f"/api/tournaments/{tid}/rounds/")
    # Tie-breaks any time: the standings are recomputed with them.
    response = edit(org, tid, tiebreaks=["wins", "score"])
    assert response.status_code == 200 and response.json()["tiebreaks"] == ["wins", "score"]
    # Rounds: down to the rounds paired, not below.
    assert edit(org, tid, rounds=2).status_code == 200
    low = edit(org, tid, rounds=1)
    assert low.status_code == 422 and low.json()["error"] == "rounds: 2 have been paired already"
    late = edit(org, tid, table_size=3)
    assert late.status_code == 422
    assert late.json()["error"] == "table_size: changes only before round 1 is paired"
    kinds = [k for k, _ in log(tid)]
    assert kinds.count("TournamentEdited") == 3


def test_the_same_value_is_no_change_and_is_not_logged(org):
    tid = create(org)
    before = log(tid)
    assert edit(org, tid, name="Reef cup", rounds=3).status_code == 200
    assert log(tid) == before


def test_a_new_table_size_brings_its_points_and_is_checked_like_creation(org):
    tid = create(org)
    response = edit(org, tid, table_size=4)
    assert response.status_code == 200, response.json()
    assert Tournament.objects.get(pk=tid).table_size == 4
    changes = log(tid)[-1][1]["changes"]
    assert changes["table_size"] == [2, 4]
    before = log(tid)
    response = edit(org, tid, table_size=5)
    assert response.status_code == 400 and "table_size" in str(response.json())
    assert log(tid) == before


@pytest.mark.parametrize(
    "changes, status, message",
    [
        ({"players": ["amy"]}, 400, "players cannot be changed once the tournament is created"),
        ({"seeding": "random"}, 400, "seeding cannot be changed"),
        ({}, 400, "name a setting to change"),
        ({"rounds": 0}, 400, "rounds"),
        ({"tiebreaks": ["luck"]}, 400, "tiebreaks"),
        ({"cap": 3}, 422, "the cap of 3 is below the 4 players entered"),
        ({"time_control": {"kind": "move", "seconds": 60}}, 422, "time_control is for online"),
        ({"round_minutes": 2}, 400, "round_minutes"),
        ({"top_cut": 8}, 422, "a top cut of 8 is larger than the field of 4"),
        ({"format": "knockout"}, 400, "format"),
        ({"name": ""}, 400, "name"),
    ],
)
def test_bad_changes_are_refused_and_change_nothing(org, changes, status, message):
    tid = create(org)
    before = (log(tid), Tournament.objects.filter(pk=tid).values().get())
    response = org.patch(f"/api/tournaments/{tid}/", changes, format="json")
    assert response.status_code == status, response.json()
    assert message in str(response.json())
    assert (log(tid), Tournament.objects.filter(pk=tid).values().get()) == before


def test_only_organisers_edit(org, api_for, users):
    tid = create(org)
    response = edit(api_for(users["ann"]), tid, name="Mine now")
    assert response.status_code == 403
    assert Tournament.objects.get(pk=tid).name == "Reef cup"


def test_bye_points_stand_once_a_bye_is_given(org, api_for, users):
    tid = create(org, players=["ann", "ben", "cat"])
    org.post(f"/api/tournaments/{tid}/rounds/")
    response = edit(org, tid, bye_points=1)
    assert response.status_code == 422
    assert response.json()["error"] == "bye_points: a bye has been given at the old value"


def test_rounds_stand_once_the_top_cut_has_begun(org, api_for, users):
    tid = create(org, rounds=1, top_cut=2)
    play_round(api_for, users, tid, org.post(f"/api/tournaments/{tid}/rounds/").json())
    org.post(f"/api/tournaments/{tid}/rounds/")
    response = edit(org, tid, rounds=2)
    assert (
        response.status_code == 422 and response.json()["error"] == "rounds: the top cut has begun"
    )


def test_an_elimination_has_no_rounds_to_change(org):
    tid = create(org, format="elimination")
    response = edit(org, tid, rounds=5)
    assert response.status_code == 422
    assert "an elimination runs until it has a champion" in response.json()["error"]


def test_a_higher_cap_moves_the_waitlist_up_and_check_in_can_be_turned_on(org, api_for, users):
    tid = create(org, players=[], entry_mode="open", cap=2)
    for name in ("ann", "ben", "cat"):
        api_for(users[name]).post(f"/api/tournaments/{tid}/register/")
    assert edit(org, tid, cap=3, check_in=True).status_code == 200
    kinds = [k for k, _ in log(tid)]
    assert kinds[-2:] == ["TournamentEdited", "EntryPromoted"]
    assert log(tid)[-2][1] == {"changes": {"check_in": [False, True], "cap": [2, 3]}}


def test_organisers_are_added_and_removed_on_the_page_and_logged(org, users, client):
    tid = create(org)
    client.force_login(users["org"])
    client.post(f"/tournaments/{tid}/organisers/add/", {"player": "amy"})
    assert log(tid)[-1] == ("OrganiserAdded", {"player": "amy"})
    client.post(f"/tournaments/{tid}/organisers/remove/", {"player": "amy"})
    assert log(tid)[-1] == ("OrganiserRemoved", {"player": "amy"})


def test_the_page_edits_rounds_and_tie_breaks_and_shows_the_log(org, api_for, users, client):
    tid = create(org)
    org.post(f"/api/tournaments/{tid}/rounds/")
    client.force_login(users["org"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Edit the tournament" in page and 'id="log"' in page
    assert "org created the tournament with 4 players" in page and "Round 1 paired" in page
    form = {
        "edit-name": "Reef cup",
        "edit-rounds": "5",
        "edit-bye_points": "0",
        "edit-tiebreaks": ["wins", "score"],
    }
    response = client.post(f"/tournaments/{tid}/edit/", form, follow=True)
    page = response.content.decode()
    assert "The tournament&#x27;s settings are saved." in page
    assert "org changed rounds from 3 to 5; tie-breaks from" in page
    assert "to Score, Wins" in page
    assert Tournament.objects.get(pk=tid).tiebreaks == ["score", "wins"]
    # A refusal comes back on the form, naming the setting; nothing changes.
    before = log(tid)
    response = client.post(f"/tournaments/{tid}/edit/", {**form, "edit-rounds": "0"})
    assert "rounds must be a whole number from 1 to 50" in response.content.decode()
    assert log(tid) == before
    # Nobody else sees the log or the form.
    client.force_login(users["ann"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert 'id="log"' not in page and "Edit the tournament" not in page
    assert "TournamentEdited" not in page


def test_clocks_change_while_the_event_runs(org, api_for, users):
    """The round length at a venue and the online clock: for what is paired or started after."""
    venue = create(org, round_minutes=40)
    org.post(f"/api/tournaments/{venue}/rounds/")
    response = edit(org, venue, round_minutes=50)
    assert response.status_code == 200 and response.json()["round_minutes"] == 50
    clock = {
        "move_seconds": 60,
        "on_timeout": "random",
    }  # creation answers 500 without on_timeout (left to defect 1)
    online = create(org, mode="online", time_control=clock)
    org.post(f"/api/tournaments/{online}/rounds/")
    clock = {"bank_seconds": 600, "increment_seconds": 5}
    response = edit(org, online, time_control=clock)
    assert response.status_code == 200, response.json()
    assert Tournament.objects.get(pk=online).time_control["bank_seconds"] == 600
    wrong = edit(org, online, round_minutes=30)
    assert (
        wrong.status_code == 422
        and "round_minutes is for tournaments played on tables" in (wrong.json()["error"])
    )


def test_nothing_but_the_name_changes_once_it_is_over(org, api_for, users):
    tid = create(org, rounds=1, players=["ann", "ben"])
    play_round(api_for, users, tid, org.post(f"/api/tournaments/{tid}/rounds/").json())
    assert Tournament.objects.get(pk=tid).status == "finished"
    refused = edit(org, tid, tiebreaks=["wins"])
    assert refused.status_code == 422
    assert refused.json()["error"] == "tiebreaks: the tournament is over; only its name may change"
    assert edit(org, tid, name="Reef cup, final").status_code == 200


def test_the_log_says_a_fact_it_has_no_words_for_in_words(org, users, client):
    """Another part of the service may log a new kind of fact: the page still says it, and
    shows no kind."""
    tid = create(org, players=[], entry_mode="open")
    TournamentEvent.objects.create(
        tournament_id=tid, kind="TableForfeited", actor=users["org"], data={"player": "ann"}
    )
    client.force_login(users["org"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Table forfeited: ann" in page and "TableForfeited" not in page
    assert "org created the tournament<" in page.replace("\n", "")
