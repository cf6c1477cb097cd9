"""A round on the tournament's pages: the organiser's draft and its forms, the player's own
table first, the standings after round N, and "find your table" in print and on the
projector."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import RoundDraft, TournamentEvent
from league.services import tournaments
from tests.league.tournament_steps import harbour_night, settle_round

pytestmark = pytest.mark.django_db
PLAYERS = ("Zoe", "ann", "ben", "cat", "dan")


@pytest.fixture
def day(make_user):
    return harbour_night(make_user, PLAYERS)


def page(client, tournament, query: str = "") -> str:
    return client.get(f"/tournaments/{tournament.pk}/{query}").content.decode()


def test_the_page_drafts_by_default_and_publishes_at_once_when_asked(client, day):
    tournament, users = day
    client.force_login(users["org"])
    assert 'id="pair-next"' in page(client, tournament)
    client.post(reverse("tournament-pair", args=[tournament.pk]), {"draft": "yes"})
    assert RoundDraft.objects.exists() and not tournament.round_set.exists()
    html = page(client, tournament)
    assert "Draft — not published" in html and 'id="pair-next"' not in html
    assert "Round 1 is a draft" in html

    client.post(reverse("tournament-draft-discard", args=[tournament.pk, 1]))
    assert not RoundDraft.objects.exists()
    client.post(reverse("tournament-pair", args=[tournament.pk]))
    assert tournament.round_set.count() == 1 and not RoundDraft.objects.exists()


def test_the_draft_forms_swap_fix_give_and_publish(client, day):
    tournament, users = day
    org = users["org"]
    client.force_login(org)
    client.post(reverse("tournament-pair", args=[tournament.pk]), {"draft": "yes"})
    edit = reverse("tournament-draft-edit", args=[tournament.pk, 1])
    tables = RoundDraft.objects.get().tables
    a, b = tables[0][0], tables[1][1]
    response = client.post(edit, {"action": "swap", "player": a, "other": b}, follow=True)
    assert "Swapped." in response.content.decode()
    assert RoundDraft.objects.get().tables[1][1] == a

    response = client.post(edit, {"action": "fix", "player": "Zoe", "table": "2"}, follow=True)
    assert "Moved." in response.content.decode()
    assert "Zoe" in RoundDraft.objects.get().tables[1]

    bye = RoundDraft.objects.get().byes[0]
    response = client.post(edit, {"action": "seat", "player": bye})
    assert "every table is full" in response.content.decode()  # at tables of 2

    log = TournamentEvent.objects.count()
    for bad in (
        {"action": "fix", "player": "Zoe", "table": "7"},
        {"action": "swap", "player": "Zoe", "other": "Zoe"},
        {"action": "give", "player": "nobody"},
        {"action": "dance"},
    ):
        # a refused action comes back on the page, with the error above it (league.views)
        response = client.post(edit, bad)
        assert 'id="action-error"' in response.content.decode(), bad
    assert TournamentEvent.objects.count() == log

    client.force_login(users["ann"])
    assert client.post(edit, {"action": "give", "player": "ann"}).status_code == 403
    client.force_login(org)
    response = client.post(
        reverse("tournament-draft-publish", args=[tournament.pk, 1]), follow=True
    )
    assert "Round 1 is published" in response.content.decode()
    assert tournament.round_set.count() == 1


def test_the_player_sees_their_own_table_first(client, day):
    tournament, users = day
    round_ = tournaments.round_pair(tournament=tournament, by=users["org"])
    table = round_.tables.get(number=1)
    seats = [s.user.username for s in sorted(table.game.seats.all(), key=lambda s: s.index)]
    client.force_login(users[seats[1]])
    html = page(client, tournament)
    card = html.index('id="your-table"')
    assert card < html.index('class="facts"'), "the card comes before everything else"
    mine = html[card : html.index("</section>", card)]
    assert re.search(r'your-table-number">1<', mine)
    assert f"Against {seats[0]}" in mine and "You sit second" in mine
    assert "report the result here" in mine

    (bye,) = round_.byes.all()
    client.force_login(bye.user)
    assert "you have a bye" in page(client, tournament)
    client.force_login(users["org"])
    assert 'id="your-table"' not in page(client, tournament)


def test_the_standings_as_they_stood_after_a_round(client, day):
    tournament, users = day
    org = users["org"]
    settle_round(tournament, org, tournaments.round_pair(tournament=tournament, by=org))
    settle_round(tournament, org, tournaments.round_pair(tournament=tournament, by=org))
    html = page(client, tournament, "?round=1")
    assert "Standings after round 1" in html and 'id="standings-round"' in html
    response = client.get(f"/tournaments/{tournament.pk}/?round=9")
    assert response.status_code == 400
    assert "round must be a round played so far, 1 to 2" in response.content.decode()


def test_an_organiser_fixes_a_player_to_a_table_from_the_page(client, day):
    tournament, users = day
    client.force_login(users["org"])
    url = reverse("tournament-fixed-table", args=[tournament.pk])
    response = client.post(url, {"player": "Zoe", "table": "1"}, follow=True)
    assert "Zoe sits at table 1" in response.content.decode()
    assert "Zoe at table 1" in page(client, tournament)
    refused = client.post(url, {"player": "Zoe", "table": "none"}).content.decode()
    assert "the table must be a whole number" in refused
    assert tournament.entries.get(user__username="Zoe").fixed_table == 1
    round_ = tournaments.round_pair(tournament=tournament, by=users["org"])
    assert "Zoe" in round_.tables.get(number=1).game.seats.values_list("user__username", flat=True)


def test_find_your_table_in_print_and_on_the_projector(client, day):
    tournament, users = day
    round_ = tournaments.round_pair(tournament=tournament, by=users["org"])
    html = client.get(f"/tournaments/{tournament.pk}/rounds/1/print/").content.decode()
    az = html[html.index('id="find-your-table"') : html.index('id="slips"')]
    names = re.findall(r"<tr><td>(\w+)</td>", az)
    assert names == sorted(PLAYERS, key=str.casefold), "A to Z, whatever the case"
    (bye,) = round_.byes.all()
    assert f'<tr><td>{bye.user.username}</td><td colspan="2">bye</td>' in az
    assert "plays first" in az and "second" in az

    projector = client.get(f"/tournaments/{tournament.pk}/projector/").content.decode()
    listed = re.findall(r'<span class="az-name">(\w+)</span>', projector)
    assert listed == sorted(PLAYERS, key=str.casefold)
    assert "az_pages.js" in projector
