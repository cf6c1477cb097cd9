"""Corrections and consent from the pages (issue 15, item 4).

Whoever recorded a club record, or an organiser of its league, corrects it on its page: the
form opens on the result as it stands and asks why. A member named in a record waiting for them
finds it on their own player page, with the buttons to confirm or dispute it.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Event, Game
from league.models import League, Membership
from tests.games.shown import shown

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def record(api, winner="bob", loser="carol", **extra) -> int:
    response = api.post(
        "/api/matches/",
        {
            "game": DSA,
            "played_at": "2026-11-20",
            "results": [
                {"player": winner, "rank": 1, "score": 30},
                {"player": loser, "rank": 2, "score": 12},
            ],
            **extra,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()["id"]


def kinds(game_id: int) -> list[str]:
    return list(Event.objects.filter(game_id=game_id).values_list("kind", flat=True))


def correction(**rows) -> dict:
    """The correction form's fields: seat order is bob, carol."""
    return {"score_0": 12, "rank_0": 2, "score_1": 30, "rank_1": 1, **rows}


def test_the_recorder_corrects_on_the_page_and_the_history_keeps_both(
    api, client, alice, bob, carol
):
    game_id = record(api)  # alice records "bob beat carol"
    client.force_login(alice)
    page = client.get(f"/games/{game_id}/").content.decode()
    assert f'href="/matches/{game_id}/correct/"' in page

    form = client.get(f"/matches/{game_id}/correct/")
    assert form.status_code == 200
    html = form.content.decode()
    assert 'name="reason"' in html
    assert 'name="rank_0" value="1"' in html and 'name="score_1" value="12"' in html

    done = client.post(f"/matches/{game_id}/correct/", correction(reason="the scores were swapped"))
    assert done.status_code == 302 and done["Location"] == f"/games/{game_id}/"
    assert kinds(game_id)[-1] == "ResultCorrected"
    corrected = Event.objects.filter(game_id=game_id).last()
    assert shown(corrected)["reason"] == "the scores were swapped"
    assert [r["rank"] for r in corrected.data["results"]] == [2, 1]

    history = client.get(f"/games/{game_id}/").content.decode()
    assert "Corrected" in history and "the scores were swapped" in history
    assert "Result recorded" in history  # the first result stays in the log
    # The recorder's correction waits for bob and carol again.
    assert "Waiting for bob and carol to confirm" in history


@pytest.mark.parametrize(
    "fields, words",
    [
        (correction(reason=""), "This field is required"),
        (correction(reason="x", rank_0=""), "This field is required"),
        (correction(reason="x", rank_0=2, rank_1=2), "competition order"),
        (correction(reason="x", score_0=40), "scored more than"),
        (correction(reason="x", rank_0="²"), "Enter a whole number"),
        (correction(reason="\x00"), "NUL character"),
    ],
)
def test_a_bad_correction_says_why_and_changes_nothing(
    api, client, alice, bob, carol, fields, words
):
    game_id = record(api)
    client.force_login(alice)
    before = kinds(game_id)
    response = client.post(f"/matches/{game_id}/correct/", fields)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert kinds(game_id) == before


def test_only_the_recorder_or_an_organiser_may_correct(api, client, alice, bob, carol):
    game_id = record(api)
    client.force_login(bob)  # named in it, but did not record it
    assert f"/matches/{game_id}/correct/" not in client.get(f"/games/{game_id}/").content.decode()
    assert client.get(f"/matches/{game_id}/correct/").status_code == 403
    refused = client.post(f"/matches/{game_id}/correct/", correction(reason="I say so"))
    assert refused.status_code == 403
    assert kinds(game_id)[-1] == "ResultRecorded"
    client.logout()
    assert client.get(f"/matches/{game_id}/correct/").status_code == 302  # to sign in


def test_a_league_organisers_correction_stands_at_once(api, client, alice, bob, carol, make_user):
    club = League.objects.create(slug="reef", name="Reef Club")
    organiser = make_user("olga")
    Membership.objects.create(league=club, user=organiser, role=Membership.Role.ORGANISER)
    for member in (alice, bob, carol):
        Membership.objects.create(league=club, user=member)
    game_id = record(api, league="reef")
    client.force_login(organiser)
    assert f"/matches/{game_id}/correct/" in client.get(f"/games/{game_id}/").content.decode()
    client.post(f"/matches/{game_id}/correct/", correction(reason="olga saw the table"))
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    assert [r["player"] for r in sorted(game.result, key=lambda r: r["rank"])] == ["carol", "bob"]


def test_my_player_page_lists_what_waits_for_me_and_confirms_it(api, client, alice, bob, carol):
    first = record(api)
    second = record(api, winner="carol", loser="bob")
    client.force_login(carol)
    page = client.get("/players/carol/").content.decode()
    assert "Waiting for you to confirm" in page
    assert f"/matches/{first}/confirm/" in page and f"/matches/{second}/dispute/" in page

    back = client.post(f"/matches/{first}/confirm/", {"next": "/players/carol/"})
    assert back.status_code == 302 and back["Location"] == "/players/carol/"
    assert kinds(first)[-1] == "ResultConfirmed"
    page = client.get("/players/carol/").content.decode()
    assert f"/matches/{first}/confirm/" not in page and f"/matches/{second}/confirm/" in page

    disputed = client.post(
        f"/matches/{second}/dispute/", {"next": "/players/carol/", "reason": "bob won"}
    )
    assert disputed["Location"] == "/players/carol/"
    assert "Waiting for you to confirm" not in client.get("/players/carol/").content.decode()


def test_nobody_else_sees_my_list_and_a_foreign_next_is_ignored(api, client, alice, bob, carol):
    game_id = record(api)
    client.force_login(bob)
    assert "Waiting for you to confirm" not in client.get("/players/carol/").content.decode()
    assert "Waiting for you to confirm" in client.get("/players/bob/").content.decode()
    answer = client.post(f"/matches/{game_id}/confirm/", {"next": "https://evil.example/"})
    assert answer["Location"] == f"/games/{game_id}/"


def test_the_list_costs_the_same_queries_for_one_record_or_many(api, client, alice, bob, carol):
    client.force_login(carol)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/players/carol/").status_code == 200
        return len(captured)

    record(api)
    one = queries()
    for _ in range(6):
        record(api)
    assert queries() == one
