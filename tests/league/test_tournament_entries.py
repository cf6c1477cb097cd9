"""The field on the day: a waitlist that fills the places check-in frees, closing check-in
before round 1, and an organiser seating a waiting player beyond the cap. Each change is an
event in the tournament's log and each promoted player is told."""

from __future__ import annotations

import pytest

from inbox.models import Notice
from league.models import Tournament
from tests.league.tournament_steps import log

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus")


def open_event(org, api_for, users, *, cap=4, names=("ann", "ben", "cat", "dan", "eve", "fay")):
    """An open Swiss with check-in and a cap: the first ``cap`` in, the rest waiting in line."""
    body = {
        "name": "Harbour open",
        "game": DSA,
        "format": "swiss",
        "table_size": 2,
        "rounds": 2,
        "mode": "table",
        "players": [],
        "entry_mode": "open",
        "cap": cap,
        "check_in": True,
    }
    tid = org.post("/api/tournaments/", body, format="json").json()["id"]
    for name in names:
        assert api_for(users[name]).post(f"/api/tournaments/{tid}/register/").status_code == 201
    return tid


def players(org, tid) -> dict[str, dict]:
    return {p["player"]: p for p in org.get(f"/api/tournaments/{tid}/").json()["players"]}


def check_in(api_for, users, tid, *names):
    for name in names:
        response = api_for(users[name]).post(f"/api/tournaments/{tid}/checkin/")
        assert response.status_code == 201, response.json()


def test_a_no_shows_place_goes_to_the_waiting_player_who_came(org, api_for, users):
    """The organiser's day: four places, six players. Dan does not come; Eve and Fay wait at
    the venue, Eve first in line. Round 1 must seat Eve in Dan's place, not leave it empty."""
    tid = open_event(org, api_for, users)
    check_in(api_for, users, tid, "ann", "ben", "cat", "eve", "fay")
    round_1 = org.post(f"/api/tournaments/{tid}/rounds/")
    assert round_1.status_code == 201, round_1.json()
    seated = {p for t in round_1.json()["tables"] for p in t["seats"]}
    assert seated == {"ann", "ben", "cat", "eve"}
    field = players(org, tid)
    assert field["dan"]["dropped"] and field["fay"]["waitlisted"]
    promoted = [data for kind, data in log(tid) if kind == "EntryPromoted"]
    assert promoted == [{"player": "eve", "reason": "a place freed at check-in"}]
    assert Notice.objects.filter(user=users["eve"], text__contains="you are in").exists()


def test_fay_still_waiting_after_round_1_can_be_entered_late(org, api_for, users):
    """The other half of the jam: a player still waiting once round 1 is paired was neither
    enterable ("already entered") nor able to register ("entry closed")."""
    tid = open_event(org, api_for, users)
    check_in(api_for, users, tid, "ann", "ben", "cat", "dan")
    org.post(f"/api/tournaments/{tid}/rounds/")
    late = org.post(f"/api/tournaments/{tid}/enter/", {"player": "fay"}, format="json")
    assert late.status_code == 201, late.json()
    fay = players(org, tid)["fay"]
    assert not fay["waitlisted"] and not fay["dropped"]
    assert log(tid)[-1] == ("EntryAdded", {"player": "fay", "after_round": 1})


def test_closing_check_in_shows_who_got_in_before_pairing(org, api_for, users):
    tid = open_event(org, api_for, users)
    check_in(api_for, users, tid, "ann", "ben", "fay")
    closed = org.post(f"/api/tournaments/{tid}/checkin/close/")
    assert closed.status_code == 200, closed.json()
    field = players(org, tid)
    assert [n for n, p in field.items() if p["dropped"]] == ["cat", "dan"]
    # Eve did not check in: she keeps her place in line; Fay, who came, takes a freed place.
    assert field["eve"]["waitlisted"] and not field["fay"]["waitlisted"]
    assert [k for k, _ in log(tid)][-4:] == [
        "EntryDropped",
        "EntryDropped",
        "EntryPromoted",
        "CheckInClosed",
    ]
    assert log(tid)[-1][1] == {"dropped": ["cat", "dan"], "promoted": ["fay"]}
    again = org.post(f"/api/tournaments/{tid}/checkin/close/")
    assert again.status_code == 422 and "already closed" in again.json()["error"]
    late = api_for(users["eve"]).post(f"/api/tournaments/{tid}/checkin/")
    assert late.status_code == 422 and "check-in is closed" in late.json()["error"]
    # An organiser may still seat her; she is there, so she is checked in.
    seat = org.post(f"/api/tournaments/{tid}/seat/", {"player": "eve"}, format="json")
    assert seat.status_code == 201, seat.json()
    assert players(org, tid)["eve"]["checked_in"]
    seated = {
        p for t in org.post(f"/api/tournaments/{tid}/rounds/").json()["tables"] for p in t["seats"]
    }
    assert seated == {"ann", "ben", "fay", "eve"}


def test_an_organiser_seats_a_waiting_player_beyond_the_cap(org, api_for, users):
    tid = open_event(org, api_for, users, cap=3, names=("ann", "ben", "cat", "dan"))
    response = org.post(f"/api/tournaments/{tid}/seat/", {"player": "dan"}, format="json")
    assert response.status_code == 201, response.json()
    assert not players(org, tid)["dan"]["waitlisted"]
    assert log(tid)[-1] == ("EntrySeated", {"player": "dan", "beyond_cap": True})
    assert Notice.objects.filter(user=users["dan"], text__contains="you are in").exists()
    assert Tournament.objects.get(pk=tid).cap == 3  # the cap stays: the seat is an exception


@pytest.mark.parametrize(
    "who, body, status, message",
    [
        ("org", {"player": "ann"}, 422, "ann is not waiting for a place"),
        ("org", {"player": "zed"}, 422, "'zed' has not entered this tournament"),
        ("org", {}, 400, "player"),
        ("org", {"player": ""}, 400, "player"),
        ("ann", {"player": "eve"}, 403, "only the tournament's organisers"),
    ],
)
def test_seating_refuses_bad_requests_and_changes_nothing(
    org, api_for, users, who, body, status, message
):
    tid = open_event(org, api_for, users)
    before = log(tid)
    response = api_for(users[who]).post(f"/api/tournaments/{tid}/seat/", body, format="json")
    assert response.status_code == status, response.json()
    assert message in str(response.json())
    assert log(tid) == before


def test_seating_and_closing_check_in_end_with_round_1(org, api_for, users):
    tid = open_event(org, api_for, users)
    check_in(api_for, users, tid, "ann", "ben", "cat", "dan")
    org.post(f"/api/tournaments/{tid}/rounds/")
    before = log(tid)
    seat = org.post(f"/api/tournaments/{tid}/seat/", {"player": "eve"}, format="json")
    assert seat.status_code == 422 and "round 1 has been paired" in seat.json()["error"]
    close = org.post(f"/api/tournaments/{tid}/checkin/close/")
    assert close.status_code == 422 and "when round 1 was paired" in close.json()["error"]
    assert log(tid) == before


def test_closing_check_in_is_for_organisers_and_tournaments_with_check_in(org, api_for, users):
    tid = open_event(org, api_for, users)
    before = log(tid)
    response = api_for(users["ann"]).post(f"/api/tournaments/{tid}/checkin/close/")
    assert response.status_code == 403
    body = {
        "name": "No check-in",
        "game": DSA,
        "format": "swiss",
        "table_size": 2,
        "mode": "table",
        "players": ["ann", "ben"],
    }
    other = org.post("/api/tournaments/", body, format="json").json()["id"]
    response = org.post(f"/api/tournaments/{other}/checkin/close/")
    assert response.status_code == 422 and "no check-in" in response.json()["error"]
    assert log(tid) == before


def test_the_page_closes_check_in_and_gives_a_waiting_player_a_place(org, api_for, users, client):
    tid = open_event(org, api_for, users)
    check_in(api_for, users, tid, "ann", "ben", "cat", "fay")
    client.force_login(users["org"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Close check-in" in page and "Checked in and waiting: fay" in page
    response = client.post(f"/tournaments/{tid}/checkin/close/", follow=True)
    assert "In from the waitlist: fay" in response.content.decode()
    response = client.post(f"/tournaments/{tid}/seat/", {"player": "eve"}, follow=True)
    assert "eve has a place" in response.content.decode()
    assert [k for k, _ in log(tid)][-1] == "EntrySeated"
    before = log(tid)
    refused = client.post(f"/tournaments/{tid}/seat/", {"player": "ann"})
    assert "ann is not waiting for a place" in refused.content.decode()
    assert log(tid) == before
