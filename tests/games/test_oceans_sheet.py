"""The Oceans score sheet: the checks the promo pack's rules allow, and nothing stored when one
fails; the sheet through the match API, confirmation and correction."""

from __future__ import annotations

import copy
import html

import pytest

from core.errors import InvalidInput
from games.models import Event, Game, ScoreSheet
from games.records import reads as record_reads
from games.records.oceans import card_statistics, parse_sheet
from games.rules.oceans_data import CARDS, EVENT, TRAIT, card_named


def results():
    return [
        {"player": "alice", "score": None, "rank": 1, "guest": False},
        {"player": "bob", "score": 37, "rank": 2, "guest": False},
    ]


def sheet(**overrides):
    body = {
        "edition": "second printing",
        "reef": True,
        "scenarios": ["Cruel Sea"],
        "players": [
            {
                "player": "alice",
                "score_pile": 38,
                "bonus": 2,
                "other": 1,
                "total": 41,
                "deep_cards": ["Blood Bath", "go fish"],
            },
            {"player": "bob", "score_pile": 30, "bonus": 5, "other": 2, "total": 37},
        ],
    }
    body.update(overrides)
    return body


# -- the cards ------------------------------------------------------------------------------------


def test_the_promo_pack_lists_six_cards_with_their_kind_and_migrate_cost():
    table = {c.name: (c.kind, c.migrate, c.resolution, c.copies) for c in CARDS}
    assert table == {
        "Blood Bath": (EVENT, 3, 97, 1),
        "Feeding Frenzy": (EVENT, 4, 99, 1),
        "Go Fish": (EVENT, 1, 100, 1),
        "Great Migration": (EVENT, 1, 101, 1),
        "Hibernating": (TRAIT, 3, 102, 1),
        "Proliferation": (EVENT, 1, 110, 1),
    }
    assert card_named("  great   MIGRATION ").name == "Great Migration"
    assert card_named("Overgrazing") is None  # a base-game event the sources do not list


# -- the checks -----------------------------------------------------------------------------------


def test_a_sheet_comes_back_clean_and_fills_a_missing_score_from_its_total():
    clean = results()
    checked = parse_sheet(sheet(), clean)
    assert clean[0]["score"] == 41
    assert checked["players"][0]["deep_cards"] == ["Blood Bath", "Go Fish"]
    assert checked["players"][1] == {
        "player": "bob",
        "score_pile": 30,
        "bonus": 5,
        "other": 2,
        "total": 37,
        "deep_cards": [],
    }
    assert checked["reef"] is True and checked["scenarios"] == ["Cruel Sea"]


def test_the_total_may_be_left_out_and_is_then_the_sum():
    body = sheet()
    del body["players"][0]["total"]
    assert parse_sheet(body, results())["players"][0]["total"] == 41


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda s: s["players"][0].update(total=40),
            "sheet, alice: the total 40 is not the sum of the score pile 38, the bonus 2 and"
            " other points 1 (= 41)",
        ),
        (
            lambda s: s["players"][1].update(score_pile=31, total=38),
            "sheet, bob: the score 37 is not the sheet's total 38",
        ),
        (
            lambda s: s["players"][1].update(deep_cards=["Overgrazing"]),
            "sheet, bob: unknown Deep card 'Overgrazing' (the cards of The Deep promo pack 2:",
        ),
        (
            lambda s: s["players"][1].update(deep_cards=["Blood Bath"]),
            "sheet: Blood Bath is played 2 times (alice, bob), but The Deep promo pack 2 has"
            " one copy",
        ),
        (
            lambda s: s["players"][0].update(deep_cards=["Hibernating", "hibernating"]),
            "sheet: Hibernating is played 2 times (alice)",
        ),
        (lambda s: s["players"].pop(), "sheet: players must be exactly the players in the results"),
        (lambda s: s["players"][1].update(player="carol"), "must be exactly the players"),
        (lambda s: s["players"][0].update(score_pile=-1), "sheet, alice: score_pile must be"),
        (lambda s: s["players"][0].pop("score_pile"), "sheet, alice: score_pile: give a whole"),
        (lambda s: s["players"][0].update(bonus=True), "sheet, alice: bonus must be a whole"),
        (lambda s: s.update(reef="yes"), "sheet: reef must be true or false"),
        (lambda s: s.update(scenarios="Cruel Sea"), "sheet: scenarios must be a list"),
        (lambda s: s.update(colour="blue"), "sheet: unknown field 'colour'"),
        (lambda s: s["players"][0].update(seat=1), "sheet, alice: unknown field 'seat'"),
    ],
)
def test_a_sheet_the_rules_refuse_says_which_player_and_field(change, message):
    body = sheet()
    change(body)
    with pytest.raises(InvalidInput) as refused:
        parse_sheet(body, results())
    assert message in str(refused.value)


def test_card_statistics_count_games_and_the_wins_of_whoever_played_the_card():
    won = {"players": [{"player": "a", "deep_cards": ["Go Fish"]}, {"player": "b"}]}
    lost = {"players": [{"player": "a"}, {"player": "b", "deep_cards": ["Go Fish", "Blood Bath"]}]}
    rows = card_statistics(
        [
            (won, [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}]),
            (lost, [{"player": "a", "rank": 1}, {"player": "b", "rank": 1}]),  # a shared first
            (lost, [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}]),
        ]
    )
    by_card = {row["card"]: row for row in rows}
    assert (by_card["Go Fish"]["games"], by_card["Go Fish"]["wins"]) == (3, 2)
    assert by_card["Go Fish"]["win_rate"] == pytest.approx(2 / 3)
    assert (by_card["Blood Bath"]["games"], by_card["Blood Bath"]["win_rate"]) == (2, 0.5)
    assert by_card["Proliferation"]["games"] == 0 and by_card["Proliferation"]["win_rate"] is None


# -- through the API ------------------------------------------------------------------------------


def api_results():
    return [{"player": "alice", "rank": 1}, {"player": "bob", "score": 37, "rank": 2}]


def record(client, **body):
    return client.post(
        "/api/matches/",
        {"game": "oceans", "played_at": "2026-11-20", "results": api_results(), **body},
        format="json",
    )


@pytest.mark.django_db
def test_a_record_with_its_sheet_is_final_once_confirmed_and_keeps_the_sheet(api, api_for, bob):
    response = record(api, sheet=sheet())
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["record"]["sheet"]["players"][0]["deep_cards"] == ["Blood Bath", "Go Fish"]
    assert body["record"]["final_sheet"] is None and not ScoreSheet.objects.exists()
    done = api_for(bob).post(f"/api/matches/{body['id']}/confirm/", {}, format="json").json()
    assert done["result"][0] == {"player": "alice", "score": 41, "rank": 1}
    assert done["record"]["final_sheet"]["players"][1]["total"] == 37
    stored = ScoreSheet.objects.get(game_id=body["id"])
    assert stored.slug == "oceans" and stored.sheet["reef"] is True


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: s["players"][0].update(total=40), "sheet, alice: the total 40 is not the sum"),
        (lambda s: s["players"][0].update(deep_cards=["Sea Monster"]), "unknown Deep card"),
        (
            lambda s: s["players"][1].update(deep_cards=["Go Fish"]),
            "sheet: Go Fish is played 2 times",
        ),
        (lambda s: s["players"][0].update(score_pile="lots"), "score_pile must be a whole number"),
    ],
)
def test_a_sheet_the_rules_refuse_is_a_400_and_nothing_is_stored(api, bob, change, message):
    body = sheet()
    change(body)
    response = record(api, sheet=body)
    # a sheet of the right shape whose numbers or cards cannot be is a 422
    meant = message.startswith(("sheet, alice: the total", "sheet: Go Fish"))
    assert response.status_code == (422 if meant else 400), response.json()
    assert message in response.json()["error"]
    assert not Game.objects.exists() and not Event.objects.exists()


@pytest.mark.django_db
def test_only_oceans_has_a_sheet(api, bob):
    response = api.post(
        "/api/matches/",
        {
            "game": "abyss",
            "played_at": "2026-11-20",
            "results": [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}],
            "sheet": sheet(),
        },
        format="json",
    )
    assert response.status_code == 422
    assert response.json()["error"] == "Abyss has no score sheet: only Oceans has one"


@pytest.mark.django_db
def test_an_oceans_record_without_a_sheet_is_recorded_as_before(api, bob):
    response = api.post(
        "/api/matches/",
        {
            "game": "oceans",
            "played_at": "2026-11-20",
            "results": [{"player": "alice", "score": 3, "rank": 1}, {"player": "bob", "rank": 2}],
        },
        format="json",
    )
    assert response.status_code == 201 and response.json()["record"]["sheet"] is None


@pytest.mark.django_db
def test_a_correction_carries_the_sheet(api, api_for, bob):
    game = record(api, sheet=sheet()).json()["id"]
    api_for(bob).post(f"/api/matches/{game}/confirm/", {}, format="json")
    corrected = copy.deepcopy(sheet())
    corrected["players"][1].update(score_pile=40, total=47, deep_cards=["Proliferation"])
    swapped = [{"player": "alice", "rank": 2}, {"player": "bob", "rank": 1}]
    response = api.post(
        f"/api/matches/{game}/correct/",
        {"results": swapped, "reason": "bob's pile was miscounted", "sheet": corrected},
        format="json",
    )
    assert response.status_code == 201, response.json()
    record_ = response.json()["record"]
    assert record_["sheet"]["players"][1]["deep_cards"] == ["Proliferation"]
    # The recorder's correction waits for bob; until then the final sheet is the first one.
    assert record_["final_sheet"]["players"][1]["total"] == 37
    done = api_for(bob).post(f"/api/matches/{game}/confirm/", {}, format="json").json()
    assert [r["score"] for r in done["result"]] == [41, 47]
    assert ScoreSheet.objects.get(game_id=game).sheet["players"][1]["total"] == 47
    kinds = Event.objects.filter(game_id=game, kind="ResultCorrected").values_list("data", flat=1)
    assert kinds[0]["sheet"]["players"][1]["score_pile"] == 40


@pytest.mark.django_db
def test_a_correction_without_a_sheet_keeps_the_sheet_only_if_it_still_fits(api, api_for, bob):
    game = record(api, sheet=sheet()).json()["id"]
    # The same scores, ranks as they were: the sheet stands and is carried by the correction.
    same = [{"player": "alice", "rank": 1}, {"player": "bob", "score": 37, "rank": 2}]
    response = api.post(f"/api/matches/{game}/correct/", {"results": same}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["record"]["sheet"]["players"][0]["total"] == 41
    other = [{"player": "alice", "score": 50, "rank": 1}, {"player": "bob", "rank": 2}]
    refused = api.post(f"/api/matches/{game}/correct/", {"results": other}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"].startswith(
        "the record's score sheet no longer fits (sheet, alice: the score 50 is not the"
        " sheet's total 41): send the corrected sheet"
    )
    assert Event.objects.filter(game_id=game, kind="ResultCorrected").count() == 1


# -- from the pages (issue 39, item 1) ------------------------------------------------------------


def typed_record(**fields):
    """The record form for Oceans: alice 41, the guest Mina 20, as typed."""
    return {
        "game": "oceans",
        "played_at": "2026-11-20",
        "player_0": "alice",
        "rank_0": 1,
        "player_1": "Mina",
        "guest_1": "on",
        "rank_1": 2,
        "score_1": 20,
        **fields,
    }


def text_of(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.django_db
def test_a_sheet_begun_needs_every_players_pile_and_says_so_in_words(client, alice):
    client.force_login(alice)
    page = text_of(client.get("/matches/new/"))
    assert "(every player’s, or none)" in page and "(optional)" not in page
    refused = client.post("/matches/new/", typed_record(pile_0=38, bonus_0=2, other_0=1))
    assert refused.status_code == 200  # the record form shows what it refuses, as it stands
    page = text_of(refused)
    assert "Give Mina's score pile: the sheet has every player's, or leave the whole sheet" in page
    assert "score_pile" not in page
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_guest_and_no_sheet_at_all_is_recorded(client, alice):
    client.force_login(alice)
    done = client.post("/matches/new/", typed_record(score_0=41))
    assert done.status_code == 302, text_of(done)
    assert record_reads.result_state(Game.objects.get())["sheet"] is None


@pytest.mark.django_db
def test_a_guests_row_filled_in_is_recorded_with_the_sheet(client, alice):
    client.force_login(alice)
    done = client.post("/matches/new/", typed_record(pile_0=38, bonus_0=3, pile_1=20))
    assert done.status_code == 302, text_of(done)
    sheet = record_reads.result_state(Game.objects.get())["sheet"]
    assert [(p["player"], p["total"]) for p in sheet["players"]] == [("alice", 41), ("Mina", 20)]


def correction_of(game_id: int, **fields):
    """The correction form as it opens on the sheet() record: alice 41 (38+2+1, Blood Bath and
    Go Fish), bob 37 (30+5+2); Cruel Sea, the Reef, the second printing."""
    return {
        "rank_0": 1,
        "score_0": 41,
        "rank_1": 2,
        "score_1": 37,
        "pile_0": 38,
        "bonus_0": 2,
        "other_0": 1,
        "cards_0": ["Blood Bath", "Go Fish"],
        "pile_1": 30,
        "bonus_1": 5,
        "other_1": 2,
        "scenarios": "Cruel Sea",
        "reef": "on",
        "edition": "second printing",
        "reason": "bob's pile was miscounted",
        **fields,
    }


@pytest.mark.django_db
def test_the_correction_page_opens_on_the_sheet_and_corrects_it(api, client, alice, bob):
    game_id = record(api, sheet=sheet()).json()["id"]
    client.force_login(alice)
    page = client.get(f"/matches/{game_id}/correct/").content.decode()
    assert 'id="oceans-sheet"' in page
    assert 'name="pile_1" value="30"' in page and 'name="edition" value="second printing"' in page
    assert 'value="Go Fish"' in page and "checked" in page
    # bob's pile was 40: the sheet corrected, his score left as it was, the ranks swapped.
    done = client.post(
        f"/matches/{game_id}/correct/", correction_of(game_id, pile_1=40, rank_0=2, rank_1=1)
    )
    assert done.status_code == 302, text_of(done)
    corrected = record_reads.result_state(Game.objects.get())
    assert [(r["player"], r["score"]) for r in corrected["reported"]] == [
        ("alice", 41),
        ("bob", 47),
    ]
    assert corrected["sheet"]["players"][1]["score_pile"] == 40
    assert corrected["sheet"]["players"][0]["deep_cards"] == ["Blood Bath", "Go Fish"]


@pytest.mark.django_db
def test_a_changed_score_that_is_not_the_sheets_total_is_refused_on_its_row(
    api, client, alice, bob
):
    game_id = record(api, sheet=sheet()).json()["id"]
    client.force_login(alice)
    refused = client.post(f"/matches/{game_id}/correct/", correction_of(game_id, score_1=47))
    assert refused.status_code == 400
    assert "bob's score 47 is not the total of their sheet, 37" in text_of(refused)
    assert not Event.objects.filter(game_id=game_id, kind="ResultCorrected").exists()


@pytest.mark.django_db
def test_a_record_of_another_game_is_corrected_without_a_sheet(api, client, alice, bob):
    response = api.post(
        "/api/matches/",
        {
            "game": "abyss",
            "played_at": "2026-11-20",
            "results": [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}],
        },
        format="json",
    )
    client.force_login(alice)
    page = client.get(f"/matches/{response.json()['id']}/correct/").content.decode()
    assert 'id="oceans-sheet"' not in page and 'name="pile_0"' not in page
