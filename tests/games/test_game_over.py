"""The end of a game on its page: places, final scores with their parts, each player's rating
change (league's, asked for through games.signals.game_over_panels), the replay and the
rematch."""

from __future__ import annotations

import random
import re

import pytest

from games.models import Game
from games.play import endgame, reads, seating, services
from games.rules import CHANCE, get_rules
from league.models import RatingChange

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


def play_out(game, players, rng) -> Game:
    """Everyone plays random legal moves until the game is over."""
    for _ in range(2000):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active":
            return game
        seat = game.current_player
        user = players[seat]
        actions = reads.game_legal_actions(game=game, user=user, seat=seat)
        services.game_action_append(
            game=game.pk,
            seat=seat,
            expected_version=game.version,
            action=rng.choice(actions),
            user=user,
        )
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(alice, bob, django_capture_on_commit_callbacks):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    seating.game_accept(game=game, seat=1, user=bob)
    with django_capture_on_commit_callbacks(execute=True):  # league rates it on commit
        return play_out(game, [alice, bob], random.Random(7))


def cells(page: str, row_class: str = "") -> list[list[str]]:
    table = page[page.index('class="result final-scores"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    return [
        [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)
        ]
        for r in rows
    ]


def test_the_end_shows_places_scores_with_their_parts_and_rating_changes(client, finished, alice):
    client.force_login(alice)
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert "Game over" in page
    head, *lines = cells(page)
    assert head == ["Place", "Player", "Treasure", "Deepest chips (breaks ties)", "Score"]
    by_player = {line[1].split(" ")[0]: line for line in lines}
    for entry in finished.result:
        line = by_player[entry["player"]]
        assert line[0] == {1: "1st", 2: "2nd"}[entry["rank"]]
        assert float(line[2]) == entry["score"] and float(line[-1]) == entry["score"]
    ratings = page[page.index('id="rating-changes"') :]
    ratings = ratings[: ratings.index("</div>")]
    winner = next(e["player"] for e in finished.result if e["rank"] == 1)
    # the rating shown (Glicko-2), its margin after the game, and the change
    change = RatingChange.objects.get(game=finished, user__username=winner)
    after, margin = round(change.glicko_rating_after), round(change.glicko_deviation_after)
    gain = after - 1500
    assert gain > 0 and margin < 350
    assert f'{winner}: 1500 → {after} ± {margin} <strong class="gain">+{gain}</strong>' in ratings
    assert "How ratings work" in ratings
    assert f'action="/games/{finished.pk}/rematch/"' in page and 'href="#replay-bar"' in page
    assert "seat 0" not in page[page.index('id="game-over"') : page.index("rating-changes")]


def test_a_spectator_sees_the_end_but_is_not_offered_a_rematch(client, finished, make_user):
    client.force_login(make_user("carol"))
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert "Game over" in page and 'id="rating-changes"' in page
    assert "/rematch/" not in page


def test_once_a_rematch_is_offered_the_end_links_to_it(client, finished, alice, bob):
    client.force_login(alice)
    client.post(f"/games/{finished.pk}/rematch/")
    rematch = Game.objects.get(rematch_of=finished)
    client.force_login(bob)
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert f'href="/games/{rematch.pk}/" id="rematch-link"' in page
    assert f'action="/games/{finished.pk}/rematch/"' not in page


def test_a_game_won_by_forfeit_says_so_and_shows_no_parts(client, alice, bob):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    seating.game_accept(game=game, seat=1, user=bob)
    services.game_resign(game=game.pk, seat=0, user=alice)
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    head, *lines = cells(page)
    assert "by forfeit" in page and head == ["Place", "Player", "Score"]
    assert lines[0][:2] == ["1st", "bob you"]


@pytest.mark.parametrize("slug", ["deep-vents", "ventlife", "abyss", "deep-sea-adventure"])
def test_every_game_s_final_view_gives_parts_that_add_up(slug):
    rules = get_rules(slug)
    state = rules.new_game(num_players=2, options={})
    rng = random.Random(3)
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    columns, parts = endgame.score_parts(state.view(None), 2)
    assert columns and all("_" not in c for c in columns)
    for seat, result in enumerate(state.result()):
        counted = parts[seat] if slug != "deep-sea-adventure" else parts[seat][:1]
        assert sum(counted) == result["score"]
