"""At the venue: printable pairings and score slips per round, the projector page with its
countdown and the QR code to the public standings, and round clocks on the tournament page."""

from __future__ import annotations

import re

import pytest
import segno
from django.conf import settings

from league.models import Tournament
from league.services import tournaments
from league.tournament_spec import TournamentSpec
from league.venue import qr_svg

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_user):
    org = make_user("org")
    for name in ("ann", "ben", "cat", "dan", "eve"):
        make_user(name)
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Harbour night",
            game="deep-sea-adventure",
            format="swiss",
            table_size=2,
            rounds=3,
            mode="table",
            players=["ann", "ben", "cat", "dan", "eve"],
            round_minutes=45,
        ),
        created_by=org,
    )
    tournaments.round_pair(tournament=tournament, by=org)
    return tournament, org


def test_the_printable_round_has_the_pairings_then_a_slip_per_table(client, running):
    tournament, _ = running
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1/print/")
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count('class="slip"') == 2 and html.count('class="sheet') == 3  # + find your table
    assert "Bye:" in html and "Place" in html and "Signature" in html
    text = (settings.BASE_DIR / "static" / "css" / "venue.css").read_text()
    assert "@media print" in text and "break-after: page" in text
    assert client.get(f"/tournaments/{tournament.pk}/rounds/9/print/").status_code == 404


def test_the_projector_shows_the_tables_a_countdown_and_a_qr_code(client, running):
    tournament, org = running
    html = client.get(f"/tournaments/{tournament.pk}/projector/").content.decode()
    assert html.count('class="big-number"') == 2
    assert 'id="timer"' not in html, "no clock before the organiser starts it"
    assert "<svg" in html and f"/tournaments/{tournament.pk}/#standings" in html
    tournaments.round_start(tournament=tournament, number=1, by=org)
    html = client.get(f"/tournaments/{tournament.pk}/projector/").content.decode()
    ends = re.search(r'id="timer" data-ends="(\d+)" data-minutes="(\d+)"', html)
    assert ends and ends.group(2) == "45"
    assert "round_timer.js" in html


def test_the_qr_code_is_the_standings_address():
    url = "http://testserver/tournaments/7/#standings"
    svg = qr_svg(url)
    assert svg.startswith("<svg") and "<path" in svg
    # segno draws the same code for the same text: the page's is the address's
    expected = segno.make(url, error="m").matrix
    assert len(expected) == int(re.search(r'viewBox="0 0 (\d+)', svg).group(1)) - 4


def test_a_round_clock_on_the_tournament_page(client, running):
    tournament, org = running
    client.force_login(org)
    html = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Start the clock" in html and 'value="45"' in html
    response = client.post(f"/tournaments/{tournament.pk}/rounds/1/start/", {"minutes": "30"})
    assert response.status_code == 302
    html = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "30 minutes" in html and "Start the clock" not in html
    again = client.post(f"/tournaments/{tournament.pk}/rounds/1/start/", {"minutes": "30"})
    assert again.status_code == 200 and "already running" in again.content.decode()
    bad = Tournament.objects.get(pk=tournament.pk).round_set.get().minutes
    assert bad == 30


def test_round_clocks_are_for_tables_and_need_a_length(make_user):
    org = make_user("org")
    for name in ("ann", "ben"):
        make_user(name)
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="No length",
            game="deep-sea-adventure",
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["ann", "ben"],
        ),
        created_by=org,
    )
    tournaments.round_pair(tournament=tournament, by=org)
    with pytest.raises(Exception, match="say how many minutes"):
        tournaments.round_start(tournament=tournament, number=1, by=org)
    with pytest.raises(Exception, match="minutes must be a whole number from 5"):
        tournaments.round_start(tournament=tournament, number=1, by=org, minutes=2)
    assert tournament.log.filter(kind="RoundStarted").count() == 0
