"""A club's door and its people on the pages: the invite link's page, asking to join, the
organisers' tools, leaving, and a tournament's organisers."""

from __future__ import annotations

import pytest

from league.models import InviteLink, JoinRequest, League, Membership
from league.services import clubs, leagues

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user):
    olga = make_user("olga")
    league = leagues.league_create(
        name="Lantern Fish",
        description="Thursdays at the harbour",
        created_by=olga,
        visibility="members",
    )
    return league, olga


def test_the_link_page_shows_the_door_and_joins_after_sign_in(club, make_user, client):
    league, olga = club
    link = clubs.link_create(league=league, by=olga, max_uses=2)
    mia = make_user("mia")
    page = client.get(f"/join/{link.code}/")
    text = page.content.decode()
    assert page.status_code == 200 and "Lantern Fish" in text and "Thursdays at the harbour" in text
    assert "olga" not in text  # the door shows the club, not its members
    assert f"/accounts/login/?next=/join/{link.code}/" in text
    assert client.post(f"/join/{link.code}/").url.startswith("/accounts/login/")
    client.force_login(mia)
    joined = client.post(f"/join/{link.code}/")
    assert joined.status_code == 302 and joined.url == f"/leagues/{league.slug}/"
    assert Membership.objects.filter(league=league, user=mia, role="member").exists()
    assert "You are a member already" in client.get(f"/join/{link.code}/").content.decode()


def test_a_closed_link_says_why_and_offers_to_ask(club, make_user, client):
    league, olga = club
    link = clubs.link_create(league=league, by=olga)
    clubs.link_revoke(league=league, link_id=link.pk, by=olga)
    client.force_login(make_user("max"))
    text = client.get(f"/join/{link.code}/").content.decode()
    assert "withdrawn" in text and 'id="ask-to-join"' in text
    client.post(
        f"/leagues/{league.slug}/ask/", {"message": "Room for one more?", "code": link.code}
    )
    assert JoinRequest.objects.get().message == "Room for one more?"
    assert "You have asked to join" in client.get(f"/join/{link.code}/").content.decode()
    assert client.get("/join/nothing-like-it/").status_code == 404


def test_the_organisers_let_people_in_and_run_the_club_from_its_page(club, make_user, client):
    league, olga = club
    max_ = make_user("max")
    clubs.join_ask(league=league, by=max_, message="Hello")
    client.force_login(olga)
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert 'id="join-requests"' in page and "Hello" in page and 'id="invite-links"' in page
    client.post(f"/leagues/{league.slug}/requests/max/accept/")
    assert Membership.objects.filter(league=league, user=max_).exists()
    client.post(f"/leagues/{league.slug}/links/", {"days": 3, "max_uses": 5})
    link = InviteLink.objects.get()
    assert (
        link.max_uses == 5
        and f"/join/{link.code}/" in client.get(f"/leagues/{league.slug}/").content.decode()
    )
    client.post(f"/leagues/{league.slug}/settings/", {"visibility": "public"})
    assert League.objects.get().visibility == "public"
    client.post(f"/leagues/{league.slug}/members/max/owner/")
    assert dict(Membership.objects.values_list("user__username", "role")) == {
        "olga": "organiser",
        "max": "owner",
    }
    left = client.post(f"/leagues/{league.slug}/leave/")
    assert left.status_code == 302 and not Membership.objects.filter(user=olga).exists()


def test_the_owner_cannot_leave_while_others_remain(club, make_user, client):
    league, olga = club
    mia = make_user("mia")
    clubs.link_join(code=clubs.link_create(league=league, by=olga).code, by=mia)
    client.force_login(olga)
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert 'id="leave-refusal"' in page and 'id="leave-club"' not in page
    client.post(f"/leagues/{league.slug}/leave/")
    assert Membership.objects.filter(user=olga, role="owner").exists()


def test_an_invitation_by_name_shows_a_members_only_club_its_door(club, make_user, client):
    league, olga = club
    mia = make_user("mia")
    leagues.member_invite(league=league, player="mia", by=olga)
    client.force_login(mia)
    page = client.get(f"/leagues/{league.slug}/")
    text = page.content.decode()
    assert page.status_code == 200 and "olga asks you to join" in text and "Standings" not in text
    client.post(f"/leagues/{league.slug}/accept/")
    assert "Standings" in client.get(f"/leagues/{league.slug}/").content.decode()
