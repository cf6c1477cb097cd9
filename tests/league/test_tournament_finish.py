"""Ending an event early: an organiser ends a Swiss, round robin or pools event after a complete
round (the venue closes; drops left one player), and lowering the rounds to those played ends
it too. The standings as they stand are final. A bracket, a round in play, a draft, a finished
event or a player who is not an organiser is refused, and nothing changes."""

from __future__ import annotations

from functools import partial

import pytest

from league.models import Tournament, TournamentEvent
from tests.league import tournament_steps
from tests.league.tournament_steps import kinds, override, pair, ranked

pytestmark = pytest.mark.django_db
NAMES = ("ann", "ben", "cat")
create = partial(tournament_steps.create, players=list(NAMES))


def settle(client, tid, round_) -> None:
    for table in round_["tables"]:
        response = override(client, tid, table["id"], ranked(*table["seats"]))
        assert response.status_code in (200, 201), response.json()


def finish(client, tid):
    return client.post(f"/api/tournaments/{tid}/finish/")


def test_drops_leave_one_player_and_the_organiser_ends_the_event(org):
    tid = create(org, rounds=3)
    settle(org, tid, pair(org, tid))
    for name in ("ann", "ben"):
        org.post(f"/api/tournaments/{tid}/drop/", {"player": name}, format="json")
    refused = org.post(f"/api/tournaments/{tid}/rounds/")
    assert refused.status_code == 422 and "end the tournament" in refused.json()["error"]
    response = finish(org, tid)
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "finished"
    ended = TournamentEvent.objects.filter(tournament_id=tid).last()
    assert ended.kind == "TournamentFinished"
    assert ended.data == {"rounds": 1, "champion": "cat", "early": True}


def test_the_venue_closes_after_round_one_of_three(org, client, users):
    tid = create(org, players=["ann", "ben", "cat", "org"], rounds=3)
    settle(org, tid, pair(org, tid))
    standings = org.get(f"/api/tournaments/{tid}/standings/").json()
    assert finish(org, tid).status_code == 200
    assert org.get(f"/api/tournaments/{tid}/standings/").json() == standings
    champion = TournamentEvent.objects.get(tournament_id=tid, kind="TournamentFinished")
    assert champion.data["champion"] == standings[0]["player"]
    client.force_login(users["org"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert f"org ended the tournament after round 1: {standings[0]['player']} won" in page


def test_fewer_rounds_down_to_those_played_ends_the_event(org):
    tid = create(org, players=["ann", "ben", "cat", "org"], rounds=3)
    settle(org, tid, pair(org, tid))
    response = org.patch(f"/api/tournaments/{tid}/", {"rounds": 1}, format="json")
    assert response.status_code == 200, response.json()
    assert Tournament.objects.get(pk=tid).status == "finished"
    assert kinds(tid)[-2:] == ["TournamentEdited", "TournamentFinished"]


def test_what_cannot_be_ended_is_refused_and_nothing_changes(org, api_for, users):
    tid = create(org, players=["ann", "ben", "cat", "org"], rounds=3)
    assert finish(org, tid).status_code == 422  # nothing played yet
    round_1 = pair(org, tid)
    refused = finish(org, tid)
    assert refused.status_code == 422 and "still being played" in refused.json()["error"]
    settle(org, tid, round_1)
    assert finish(api_for(users["ann"]), tid).status_code == 403
    org.post(f"/api/tournaments/{tid}/rounds/", {"draft": True}, format="json")
    assert finish(org, tid).status_code == 422  # a draft is open
    org.delete(f"/api/tournaments/{tid}/rounds/2/draft/")
    before = kinds(tid)
    assert Tournament.objects.get(pk=tid).status == "running"
    assert kinds(tid) == before

    knockout = create(org, players=["ann", "ben", "cat", "org"], format="elimination")
    settle(org, knockout, pair(org, knockout))
    refused = finish(org, knockout)
    assert refused.status_code == 422 and "bracket" in refused.json()["error"]
    assert Tournament.objects.get(pk=knockout).status == "running"

    assert finish(org, tid).status_code == 200
    again = finish(org, tid)
    assert again.status_code == 422 and "over already" in again.json()["error"]
