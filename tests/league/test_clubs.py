"""Clubs with a door: a members-only club, invite links, requests to join, the owner and the
organisers, leaving and being removed, and a tournament's own organisers, through the API."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import ClubEvent, InviteLink, JoinRequest, League, Membership
from league.selectors import league_table

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


@pytest.fixture
def people(make_user):
    return {name: make_user(name) for name in ("olga", "omar", "mia", "max", "out")}


@pytest.fixture
def as_(api_for, people):
    return lambda name: api_for(people[name])


def open_club(client, visibility="members", name="Lantern Fish"):
    response = client.post("/api/leagues/", {"name": name, "visibility": visibility}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["slug"]


def link(client, slug, **body):
    response = client.post(f"/api/leagues/{slug}/links/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def roles(slug) -> dict[str, str]:
    return dict(Membership.objects.filter(league__slug=slug).values_list("user__username", "role"))


# -- visibility -----------------------------------------------------------------------------------


def test_a_members_only_club_does_not_exist_for_an_outsider(as_):
    slug = open_club(as_("olga"))
    assert as_("olga").get(f"/api/leagues/{slug}/").json()["visibility"] == "members"
    for client in (as_("out"), APIClient()):
        for path in (f"/api/leagues/{slug}/", f"/api/leagues/{slug}/standings/"):
            response = client.get(path)
            assert response.status_code == 404 and response.json() == {
                "error": f"no league {slug!r}"
            }
        assert slug not in str(client.get("/api/leagues/").json())
    # The same answer as for a club that was never made.
    assert as_("out").get("/api/leagues/nowhere/").json() == {"error": "no league 'nowhere'"}


def test_an_organiser_makes_a_public_club_private_and_back(as_):
    slug = open_club(as_("olga"), visibility="public")
    assert as_("out").get(f"/api/leagues/{slug}/").status_code == 200
    response = as_("olga").patch(f"/api/leagues/{slug}/", {"visibility": "members"}, format="json")
    assert response.status_code == 200 and response.json()["visibility"] == "members"
    assert as_("out").get(f"/api/leagues/{slug}/").status_code == 404
    # An outsider cannot even learn it is there by trying to change it.
    assert (
        as_("out")
        .patch(f"/api/leagues/{slug}/", {"visibility": "public"}, format="json")
        .status_code
        == 404
    )
    assert ClubEvent.objects.filter(kind="visibility").count() == 1


def test_a_bad_visibility_is_refused_and_changes_nothing(as_):
    response = as_("olga").post(
        "/api/leagues/", {"name": "X", "visibility": "secret"}, format="json"
    )
    assert response.status_code == 400 and "visibility" in response.json()["fields"]
    assert not League.objects.exists()


# -- invite links ---------------------------------------------------------------------------------


def test_an_invite_link_shows_the_door_and_lets_people_in_up_to_its_limit(as_, people):
    slug = open_club(as_("olga"))
    made = link(as_("olga"), slug, days=3, max_uses=1)
    assert made["state"] == "open" and made["url"] == f"/join/{made['code']}/"
    door = as_("mia").get(f"/api/invites/{made['code']}/").json()
    assert door["name"] == "Lantern Fish" and door["state"] == "open" and not door["member"]
    assert "members" not in door  # the door shows the club, never who is in it

    joined = as_("mia").post(f"/api/invites/{made['code']}/")
    assert (
        joined.status_code == 201
        and {"player": "mia", "role": "member"} in joined.json()["members"]
    )
    again = as_("mia").post(f"/api/invites/{made['code']}/")
    assert again.status_code == 409 and "already" in again.json()["error"]

    full = as_("max").post(f"/api/invites/{made['code']}/")
    assert full.status_code == 409 and "used as many times" in full.json()["error"]
    assert "max" not in roles(slug)
    assert InviteLink.objects.get().uses == 1
    assert ClubEvent.objects.filter(kind="joined", member=people["mia"]).get().data["how"] == "link"


def test_an_expired_or_withdrawn_link_opens_nothing_and_says_why(as_):
    slug = open_club(as_("olga"))
    old, withdrawn = link(as_("olga"), slug), link(as_("olga"), slug)
    InviteLink.objects.filter(pk=old["id"]).update(
        expires_at=timezone.now() - dt.timedelta(hours=1)
    )
    revoked = as_("olga").delete(f"/api/leagues/{slug}/links/{withdrawn['id']}/")
    assert revoked.status_code == 200 and revoked.json()["state"] == "revoked"

    expired = as_("max").post(f"/api/invites/{old['code']}/")
    assert expired.status_code == 409 and "expired" in expired.json()["error"]
    gone = as_("max").post(f"/api/invites/{withdrawn['code']}/")
    assert gone.status_code == 409 and "withdrawn" in gone.json()["error"]
    unknown = as_("max").post("/api/invites/not-a-code/")
    assert unknown.status_code == 404
    assert roles(slug) == {"olga": "owner"}


def test_only_organisers_make_or_see_links(as_):
    slug = open_club(as_("olga"), visibility="public")
    made = link(as_("olga"), slug)
    as_("mia").post(f"/api/invites/{made['code']}/")
    for method in ("get", "post"):
        response = getattr(as_("mia"), method)(f"/api/leagues/{slug}/links/", {}, format="json")
        assert response.status_code == 403 and "organisers" in response.json()["error"]
    assert InviteLink.objects.count() == 1


@pytest.mark.parametrize("body", [{"days": 0}, {"days": 93}, {"max_uses": 0}, {"max_uses": "x"}])
def test_a_link_out_of_bounds_is_refused(as_, body):
    slug = open_club(as_("olga"))
    assert as_("olga").post(f"/api/leagues/{slug}/links/", body, format="json").status_code == 400
    assert not InviteLink.objects.exists()


# -- requests to join -----------------------------------------------------------------------------


def test_an_outsider_asks_an_organiser_lets_them_in(as_, people):
    slug = open_club(as_("olga"), visibility="public")
    asked = as_("max").post(
        f"/api/leagues/{slug}/requests/", {"message": "Thursdays?"}, format="json"
    )
    assert asked.status_code == 201 and asked.json()["answer"] == "waiting"
    twice = as_("max").post(f"/api/leagues/{slug}/requests/", {}, format="json")
    assert twice.status_code == 409 and "asked" in twice.json()["error"]
    waiting = as_("olga").get(f"/api/leagues/{slug}/requests/").json()
    assert [(r["player"], r["message"]) for r in waiting] == [("max", "Thursdays?")]
    assert as_("max").get(f"/api/leagues/{slug}/requests/").status_code == 403

    accepted = as_("olga").post(f"/api/leagues/{slug}/requests/max/accept/")
    assert accepted.status_code == 200 and accepted.json()["answer"] == "accepted"
    assert roles(slug)["max"] == "member"
    member = as_("max").post(f"/api/leagues/{slug}/requests/", {}, format="json")
    assert member.status_code == 409 and "member" in member.json()["error"]


def test_a_declined_request_may_not_be_asked_again_for_a_week(as_):
    slug = open_club(as_("olga"), visibility="public")
    as_("max").post(f"/api/leagues/{slug}/requests/", {}, format="json")
    assert (
        as_("olga").post(f"/api/leagues/{slug}/requests/max/decline/").json()["answer"]
        == "declined"
    )
    again = as_("max").post(f"/api/leagues/{slug}/requests/", {}, format="json")
    assert again.status_code == 409 and "ask again from" in again.json()["error"]
    JoinRequest.objects.update(answered_at=timezone.now() - dt.timedelta(days=8))
    assert as_("max").post(f"/api/leagues/{slug}/requests/", {}, format="json").status_code == 201
    assert "max" not in roles(slug)


def test_a_members_only_club_is_asked_only_through_its_link(as_):
    slug = open_club(as_("olga"))
    blind = as_("max").post(f"/api/leagues/{slug}/requests/", {}, format="json")
    assert blind.status_code == 404
    made = link(as_("olga"), slug, max_uses=1)
    InviteLink.objects.update(revoked_at=timezone.now())
    asked = as_("max").post(f"/api/leagues/{slug}/requests/", {"code": made["code"]}, format="json")
    assert asked.status_code == 201


# -- roles, hand-over, leaving, removing ----------------------------------------------------------


def members(as_, slug, *names):
    code = link(as_("olga"), slug, max_uses=50)["code"]
    for name in names:
        assert as_(name).post(f"/api/invites/{code}/").status_code == 201


def test_organisers_name_organisers_only_the_owner_takes_it_back(as_):
    slug = open_club(as_("olga"))
    members(as_, slug, "omar", "mia", "max")
    assert (
        as_("mia")
        .patch(f"/api/leagues/{slug}/members/max/", {"role": "organiser"}, format="json")
        .status_code
        == 403
    )
    assert (
        as_("olga")
        .patch(f"/api/leagues/{slug}/members/omar/", {"role": "organiser"}, format="json")
        .status_code
        == 200
    )
    assert (
        as_("omar")
        .patch(f"/api/leagues/{slug}/members/mia/", {"role": "organiser"}, format="json")
        .status_code
        == 200
    )
    demote = as_("omar").patch(
        f"/api/leagues/{slug}/members/mia/", {"role": "member"}, format="json"
    )
    assert demote.status_code == 403 and "owner" in demote.json()["error"]
    assert (
        as_("olga")
        .patch(f"/api/leagues/{slug}/members/mia/", {"role": "member"}, format="json")
        .status_code
        == 200
    )
    owner = as_("omar").patch(
        f"/api/leagues/{slug}/members/olga/", {"role": "member"}, format="json"
    )
    assert owner.status_code == 422 and "hand-over" in owner.json()["error"]
    assert roles(slug) == {"olga": "owner", "omar": "organiser", "mia": "member", "max": "member"}


def test_the_owner_hands_the_club_over_and_may_then_leave(as_):
    slug = open_club(as_("olga"))
    members(as_, slug, "omar")
    refused = as_("olga").post(f"/api/leagues/{slug}/leave/")
    assert refused.status_code == 409 and "hand it over" in refused.json()["error"]
    assert (
        as_("omar")
        .post(f"/api/leagues/{slug}/owner/", {"player": "omar"}, format="json")
        .status_code
        == 403
    )
    assert (
        as_("olga")
        .post(f"/api/leagues/{slug}/owner/", {"player": "out"}, format="json")
        .status_code
        == 404
    )
    handed = as_("olga").post(f"/api/leagues/{slug}/owner/", {"player": "omar"}, format="json")
    assert handed.status_code == 200
    assert roles(slug) == {"olga": "organiser", "omar": "owner"}
    assert as_("olga").post(f"/api/leagues/{slug}/leave/").status_code == 200
    assert roles(slug) == {"omar": "owner"}
    # Once out of a members-only club, it is gone from them too.
    assert as_("olga").get(f"/api/leagues/{slug}/").status_code == 404


def test_a_member_who_leaves_or_is_removed_keeps_their_place_in_the_standings(as_, people):
    slug = open_club(as_("olga"), visibility="public")
    members(as_, slug, "mia", "max")
    recorded = as_("mia").post(
        "/api/matches/",
        {
            "game": DSA,
            "league": slug,
            "played_at": "2026-11-20T19:00:00Z",
            "results": [
                {"player": "mia", "score": 20, "rank": 1},
                {"player": "max", "score": 9, "rank": 2},
            ],
        },
        format="json",
    )
    assert recorded.status_code == 201, recorded.json()
    as_("max").post(f"/api/matches/{recorded.json()['id']}/confirm/")
    before = [(r["player"], r["games"]) for r in league_table(League.objects.get(slug=slug))]
    assert as_("max").post(f"/api/leagues/{slug}/leave/").status_code == 200
    assert as_("mia").delete(f"/api/leagues/{slug}/members/olga/").status_code == 403
    # A name no account can have, in the address, names no one: a 404, not a 400.
    assert as_("olga").delete(f"/api/leagues/{slug}/members/mi%07a/").status_code == 404
    assert as_("olga").post(f"/api/leagues/{slug}/requests/mi%07a/accept/").status_code == 404
    removed = as_("olga").delete(f"/api/leagues/{slug}/members/mia/")
    assert removed.status_code == 200 and [m["player"] for m in removed.json()["members"]] == [
        "olga"
    ]
    after = [(r["player"], r["games"]) for r in league_table(League.objects.get(slug=slug))]
    assert after == before and ("mia", 1) in after
    assert list(
        ClubEvent.objects.filter(kind__in=["left", "removed"]).values_list(
            "kind", "member__username"
        )
    ) == [
        ("left", "max"),
        ("removed", "mia"),
    ]


# -- a tournament's organisers --------------------------------------------------------------------


def test_a_tournament_shares_its_work_with_a_club_member(as_):
    slug = open_club(as_("olga"))
    members(as_, slug, "omar", "mia", "max")
    created = as_("olga").post(
        "/api/tournaments/",
        {
            "name": "Lantern cup",
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "table",
            "league": slug,
            "players": ["mia", "max"],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    tid = created.json()["id"]
    outsider = as_("olga").post(
        f"/api/tournaments/{tid}/organisers/", {"player": "out"}, format="json"
    )
    assert outsider.status_code == 422 and "not a member" in outsider.json()["error"]
    assert (
        as_("mia")
        .post(f"/api/tournaments/{tid}/organisers/", {"player": "mia"}, format="json")
        .status_code
        == 403
    )
    added = as_("olga").post(
        f"/api/tournaments/{tid}/organisers/", {"player": "omar"}, format="json"
    )
    assert added.status_code == 201 and added.json()["organisers"] == ["olga", "omar"]
    # The co-organiser runs it: pairs round 1.
    assert as_("omar").post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    assert as_("omar").delete(f"/api/tournaments/{tid}/organisers/olga/").status_code == 200
    last = as_("omar").delete(f"/api/tournaments/{tid}/organisers/omar/")
    assert last.status_code == 422 and "needs an organiser" in last.json()["error"]


def test_a_link_or_a_role_named_oddly_is_answered_plainly(as_):
    """Found by the schema's fuzzing: link 0 is a link that does not exist (404, not a 400),
    and a PATCH of a member that names no role changes nothing (200)."""
    slug = open_club(as_("olga"))
    members(as_, slug, "mia")
    assert as_("olga").delete(f"/api/leagues/{slug}/links/0/").status_code == 404
    same = as_("olga").patch(f"/api/leagues/{slug}/members/mia/", {}, format="json")
    assert same.status_code == 200 and roles(slug)["mia"] == "member"
    assert (
        as_("mia").patch(f"/api/leagues/{slug}/members/mia/", {}, format="json").status_code == 403
    )
