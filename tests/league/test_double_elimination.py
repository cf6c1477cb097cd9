"""Double elimination's bracket (league.double_elimination): pure, no database."""

from __future__ import annotations

import random

import pytest

from league import double_elimination as de

EIGHT = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def play(seeds, pick, *, dropped=(), reset=True, rounds=50):
    """Play the bracket round by round, ``pick(match)`` naming each winner."""
    results: dict[str, str] = {}
    for number in range(1, rounds + 1):
        bracket = de.bracket(seeds, results, dropped, reset=reset)
        if bracket.champion is not None:
            return bracket, number - 1
        ready = bracket.ready(number)
        assert ready, "the bracket stalled"
        for match in ready:
            results[match.id] = pick(match)
    raise AssertionError("no champion")


def better_seed(seeds):
    return lambda match: min(match.players, key=seeds.index)


def test_eight_players_seeded_standard_way():
    bracket = de.bracket(EIGHT, {})
    assert [m.players for m in bracket.ready(1)] == [
        ("Ada", "Hal"),
        ("Di", "Ed"),
        ("Bo", "Gus"),
        ("Cy", "Flo"),
    ]
    assert [len(r) for r in bracket.side(de.WINNERS)] == [4, 2, 1]
    assert [len(r) for r in bracket.side(de.LOSERS)] == [2, 2, 1, 1]


def test_eight_players_favourites_win_placings():
    final, rounds = play(EIGHT, better_seed(EIGHT))
    assert final.champion == "Ada"
    assert "GF2" not in {m.id for m in final.matches}  # the winners' champion won the final
    assert final.placings() == [
        ("Ada", "1st"),
        ("Bo", "2nd"),
        ("Cy", "3rd"),
        ("Di", "4th"),
        ("Ed", "5th–6th"),
        ("Flo", "5th–6th"),
        ("Hal", "7th–8th"),
        ("Gus", "7th–8th"),
    ]
    # W1, W2 + L1, W3 + L2, L3, L4, the final
    assert rounds == 6


def test_grand_final_reset_when_losers_champion_wins_the_first():
    def upset(match):
        if match.id.startswith("GF"):
            return match.players[1]  # the losers' champion wins both finals
        return min(match.players, key=EIGHT.index)

    final, _ = play(EIGHT, upset)
    assert final.match("GF1").winner == "Bo"
    assert final.match("GF1").out == ()  # Ada's first loss: not out yet
    assert final.match("GF2").players == ("Ada", "Bo")
    assert final.champion == "Bo"
    assert final.placings()[:2] == [("Bo", "1st"), ("Ada", "2nd")]


def test_without_reset_the_first_final_decides():
    def upset(match):
        return match.players[1] if match.id == "GF1" else min(match.players, key=EIGHT.index)

    final, _ = play(EIGHT, upset, reset=False)
    assert final.champion == "Bo"
    assert "GF2" not in {m.id for m in final.matches}


def test_five_players_three_byes_to_the_top_seeds_in_round_1_only():
    seeds = EIGHT[:5]
    first = de.bracket(seeds, {})
    byes = [m for m in first.matches if m.state == de.BYE]
    assert sorted(m.winner for m in byes) == ["Ada", "Bo", "Cy"]
    assert all(m.id.startswith("W1-") for m in byes)
    assert [m.players for m in first.ready(1)] == [("Di", "Ed")]  # Bo and Cy meet in round 2
    seen_byes: list[str] = []
    results: dict[str, str] = {}
    for number in range(1, 20):
        bracket = de.bracket(seeds, results)
        if bracket.champion:
            break
        for match in bracket.ready(number):
            results[match.id] = min(match.players, key=seeds.index)
    for match in bracket.matches:
        if match.state == de.BYE and match.side == de.WINNERS:
            seen_byes.append(match.winner)
    assert sorted(seen_byes) == ["Ada", "Bo", "Cy"]  # no bye in a later winners' round
    assert bracket.champion == "Ada"
    assert [place for _, place in bracket.placings()] == ["1st", "2nd", "3rd", "4th", "5th"]


def test_a_drop_gives_a_walkover_and_nobody_comes_back():
    results = {"W1-1": "Ada", "W1-2": "Di", "W1-3": "Bo", "W1-4": "Cy"}
    bracket = de.bracket(EIGHT, results, dropped={"Di": 1})
    walkover = bracket.match("W2-1")
    assert (walkover.state, walkover.winner, walkover.loser) == (de.WALKOVER, "Ada", "Di")
    # Di, who beat Ed, drops: Ed stays out of the winners' bracket, and Di's place in the
    # losers' bracket is a walkover for whoever meets it.
    assert "Ed" not in {p for m in bracket.side(de.WINNERS)[1] for p in m.players}
    results.update({"L1-1": "Ed", "L1-2": "Flo", "W2-2": "Bo"})
    later = de.bracket(EIGHT, results, dropped={"Di": 1})
    dropped_in = [m for m in later.side(de.LOSERS)[1] if "Di" in m.players]
    assert dropped_in[0].state == de.WALKOVER and dropped_in[0].out == ("Di",)


def test_a_result_played_stands_after_a_drop():
    bracket = de.bracket(EIGHT, {"W1-1": "Hal"}, dropped={"Hal": 1})
    assert bracket.match("W1-1").state == de.PLAYED
    assert bracket.match("W1-1").winner == "Hal"


def test_a_result_for_someone_not_at_the_match_is_refused():
    with pytest.raises(ValueError, match="did not play W1-1"):
        de.bracket(EIGHT, {"W1-1": "Bo"})


def test_no_immediate_rematch_in_the_losers_bracket_from_8_to_32():
    """The losers of winners' round 2 never meet, on dropping in, a player they met in the
    winners' bracket (in brackets of 8 and more). Later drop-in rounds cannot always avoid
    it (the newcomer's half holds players the bracket already mixed); their order
    alternates so the same part of the bracket does not meet again round after round."""
    for size in (8, 16, 32):
        seeds = [f"p{i}" for i in range(1, size + 1)]
        for seed in range(10):
            rng = random.Random(seed)
            met: dict[str, set[str]] = {p: set() for p in seeds}
            results: dict[str, str] = {}
            for number in range(1, 4 * size):
                bracket = de.bracket(seeds, results)
                if bracket.champion:
                    break
                for match in bracket.ready(number):
                    a, b = match.players
                    assert a is not None and b is not None
                    if match.side == de.LOSERS and match.round == 2:
                        assert b not in met[a], (size, match.id)
                    met[a].add(b)
                    met[b].add(a)
                    results[match.id] = rng.choice(match.players)


@pytest.mark.parametrize("players", [2, 3, 5, 6, 8, 11, 16, 23])
def test_always_a_champion_with_random_drops(players):
    """Many seeded runs: random winners, random drops between rounds (never the last player
    still in), byes and walkovers: every event ends with a champion, every player placed."""
    for run in range(40):
        rng = random.Random(f"{players}:{run}")
        seeds = [f"p{i}" for i in range(1, players + 1)]
        results: dict[str, str] = {}
        dropped: dict[str, int] = {}
        reset = rng.random() < 0.5
        for number in range(1, 8 * players + 8):
            bracket = de.bracket(seeds, results, dropped, reset=reset)
            if bracket.champion is not None:
                break
            ready = bracket.ready(number)
            assert ready, f"stalled in round {number}"
            for match in ready:
                results[match.id] = rng.choice(match.players)
            if de.bracket(seeds, results, dropped, reset=reset).champion:
                continue  # the event is over
            alive = [
                p
                for p in seeds
                if p not in dropped and not any(p in m.out for m in bracket.matches)
            ]
            if len(alive) > 1 and rng.random() < 0.3:
                dropped[rng.choice(alive)] = number
        assert bracket.champion is not None and bracket.champion not in dropped
        placed = [p for p, _ in bracket.placings()]
        assert sorted(placed) == sorted(seeds)
        assert placed[0] == bracket.champion


def test_one_player_left_by_drops_is_champion():
    bracket = de.bracket(EIGHT, {}, dropped=set(EIGHT) - {"Gus"})
    assert bracket.champion == "Gus"
