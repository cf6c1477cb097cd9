"""Oceans on the pages: the record form offers the sheet and refuses what the API refuses; the
record's page shows the sheet; the Oceans page counts each Deep card's games and wins."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, ScoreSheet
from games.records import services as records

pytestmark = pytest.mark.django_db


def form_post(**overrides):
    data = {"game": "oceans", "played_at": "2026-02-05", "notes": "", "league": ""}
    for i in range(6):
        data.update({f"player_{i}": "", f"score_{i}": "", f"rank_{i}": ""})
    data.update(
        {
            "player_0": "alice",
            "rank_0": "1",
            "pile_0": "38",
            "bonus_0": "2",
            "other_0": "1",
            "cards_0": ["Blood Bath", "Go Fish"],
            "player_1": "Zoe",
            "guest_1": "on",
            "score_1": "37",
            "rank_1": "2",
            "pile_1": "30",
            "bonus_1": "5",
            "other_1": "2",
            "scenarios": "Cruel Sea, Rising Tide",
            "reef": "on",
            "edition": "second printing",
        }
    )
    data.update(overrides)
    return data


def test_the_record_form_offers_the_sheet_with_the_six_cards(client, alice):
    client.force_login(alice)
    page = client.get(reverse("match-new"), {"game": "oceans"})
    body = page.content.decode()
    assert page.context["form"]["game"].value() == "oceans"
    assert 'id="oceans-sheet"' in body and 'name="pile_0"' in body
    assert body.count('name="cards_0"') == 6 and 'value="Hibernating"' in body
    assert 'name="reef"' in body and 'name="scenarios"' in body


def test_the_form_records_the_sheet_and_the_page_shows_it(client, alice):
    client.force_login(alice)
    response = client.post(reverse("match-new"), form_post())
    assert response.status_code == 302, response.context["form"].errors
    game = Game.objects.get()
    assert game.result == [
        {"player": "alice", "score": 41, "rank": 1},
        {"player": "Zoe", "score": 37, "rank": 2},
    ]
    sheet = ScoreSheet.objects.get(game=game).sheet
    assert sheet["scenarios"] == ["Cruel Sea", "Rising Tide"] and sheet["reef"] is True
    assert sheet["players"][0]["deep_cards"] == ["Blood Bath", "Go Fish"]
    page = client.get(response.url).content.decode()
    assert "Score sheet" in page and "Blood Bath, Go Fish" in page
    assert "Reef variant: played" in page and "Edition: second printing" in page


@pytest.mark.parametrize(
    "overrides, message",
    [
        # Said on the row (the page escapes the apostrophe of "Zoe's").
        ({"score_1": "36"}, "score 36 is not the total of their sheet"),
        ({"cards_1": ["Go Fish"]}, "sheet: Go Fish is played 2 times (alice, Zoe)"),
        ({"pile_1": ""}, "score pile: the sheet has every player"),
    ],
)
def test_a_sheet_the_rules_refuse_is_a_form_error_and_nothing_is_stored(
    client, alice, overrides, message
):
    client.force_login(alice)
    response = client.post(reverse("match-new"), form_post(**overrides))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_an_unknown_card_from_the_form_is_refused_by_the_form(client, alice):
    client.force_login(alice)
    response = client.post(reverse("match-new"), form_post(cards_0=["Overgrazing"]))
    assert "cards_0" in response.context["form"].errors and not Game.objects.exists()


def test_another_game_ignores_the_sheet_fields_left_empty(client, alice, bob):
    client.force_login(alice)
    data = form_post(game="abyss", player_1="bob", guest_1="", score_0="41")
    for i in range(2):
        data.update({f"pile_{i}": "", f"bonus_{i}": "", f"other_{i}": "", f"cards_{i}": []})
    data.update(reef="", scenarios="", edition="")
    response = client.post(reverse("match-new"), data)
    assert response.status_code == 302 and not ScoreSheet.objects.exists()


def test_the_oceans_page_counts_games_and_wins_per_card(client, alice, bob):
    def play(winner_cards, loser_cards, winner="alice", loser="bob"):
        records.match_record(
            slug="oceans",
            played_at="2026-03-01",
            results=[{"player": winner, "rank": 1}, {"player": loser, "rank": 2}],
            recorded_by=alice,
            on_behalf_of={"bob"},
            sheet={
                "players": [
                    {"player": winner, "score_pile": 40, "deep_cards": winner_cards},
                    {"player": loser, "score_pile": 30, "deep_cards": loser_cards},
                ]
            },
        )

    play(["Go Fish"], ["Blood Bath"])
    play(["Blood Bath"], ["Go Fish"], winner="bob", loser="alice")
    play(["Go Fish"], [])
    page = client.get(reverse("oceans"))
    cards = {row["card"]: row for row in page.context["cards"]}
    assert (cards["Go Fish"]["games"], cards["Go Fish"]["wins"]) == (3, 2)
    assert (cards["Blood Bath"]["games"], cards["Blood Bath"]["wins"]) == (2, 1)
    assert cards["Hibernating"]["games"] == 0
    body = page.content.decode()
    assert '67% <span class="muted">(2)</span>' in body and "3 final Oceans records" in body
    api = client.get("/api/oceans/cards/").json()
    assert [row["card"] for row in api][:2] == ["Blood Bath", "Feeding Frenzy"]
    assert api[0]["win_rate"] == 0.5 and api[0]["kind"] == "event" and api[0]["migrate"] == 3
