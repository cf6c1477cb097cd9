"""Deep Sea Adventure, scenario by scenario, in the order the rulebook tells them.

Most scenarios are set up like a diagram in the rulebook: ``dive`` places divers, chips and air
directly on a State, then the test plays actions through the public interface.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from games.rules import CHANCE, TERMINAL, IllegalAction, get_rules
from games.rules import deep_sea_adventure as dsa
from games.rules.deep_sea_adventure import AIR

BLANK = None


@dataclass
class Diver:
    position: int = 0
    held: tuple = ()  # a level per chip, a tuple of levels per stack
    turned_back: bool = False
    back: bool = False


def dive(
    players=3,
    *,
    trail=None,
    divers=None,
    to_act=0,
    air=AIR,
    round_no=1,
    scored=None,
    version=None,
):
    """A state arranged like a diagram: ``to_act`` starts its turn with ``air`` left (its own
    items already counted down), ``scored`` maps seats to (level, value) chips already won;
    under rules ``version`` (the newest by default)."""
    state = dsa.new_game(players, version=version)
    if trail is not None:
        state._trail = list(trail)
    for seat, diver in (divers or {}).items():
        state._positions[seat] = diver.position
        state._held[seat] = list(diver.held)
        state._turned_back[seat] = diver.turned_back
        state._back[seat] = diver.back
    for seat, chips in (scored or {}).items():
        state._scored[seat] = list(chips)
        for level, value in chips:
            state._unrevealed[level].remove(value)
    state._round = round_no
    state._air = air
    state._current = state._first = to_act
    state._phase = "roll" if state._turned_back[to_act] else "decide"
    return state


def play(state, *moves):
    """Apply moves in shorthand: "continue", "turn_back", "take", "pass", (a, b) for a roll,
    ("drop", k)."""
    for move in moves:
        if isinstance(move, tuple) and move[0] == "drop":
            state.apply({"type": "drop", "chip": move[1]})
        elif isinstance(move, tuple):
            state.apply({"type": "roll", "dice": list(move)})
        else:
            state.apply({"type": move})
    return state


def public(state):
    return state.view(None)


def position(state, seat):
    return state.view(None)["divers"][seat]["position"]


def all_views(state):
    return json.dumps([state.view(s) for s in [None, *range(state.num_players)]])


def reveal(state, value):
    seat, level = state._reveals[0]
    state.apply({"type": "reveal", "seat": seat, "level": level, "value": value})


# -- setting out ---------------------------------------------------------------------------------


def test_the_trail_starts_with_eight_chips_of_each_level_from_the_shallowest():
    state = get_rules("deep-sea-adventure").new_game(4)
    view = state.view(None)
    assert [space["level"] for space in view["trail"]] == [1] * 8 + [2] * 8 + [3] * 8 + [4] * 8
    assert view["air"] == 25 and view["round"] == 1 and view["phase"] == "decide"
    assert view["current_player"] == 0 and view["first_player"] == 0
    assert [d["position"] for d in view["divers"]] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "players, options, message",
    [
        (1, {}, "2 to 6 players"),
        (7, {}, "2 to 6 players"),
        (3, {"starting_bid": 2}, "unknown option"),
        ("3", {}, "whole number"),
        (3, ["nope"], "options must be an object"),
    ],
)
def test_new_game_refuses_bad_player_counts_and_unknown_options(players, options, message):
    with pytest.raises(ValueError, match=message):
        dsa.new_game(players, options)


# -- moving --------------------------------------------------------------------------------------


def test_divers_in_the_way_are_jumped_over_without_being_counted():
    state = dive(divers={0: Diver(2), 1: Diver(3), 2: Diver(5)})
    play(state, "continue", (1, 2))
    # 3 steps: 4 (one), 5 is taken, 6 (two), 7 (three).
    assert position(state, 0) == 7


def test_divers_in_the_way_are_jumped_over_on_the_way_back_too():
    state = dive(divers={0: Diver(6, held=(1,), turned_back=True), 1: Diver(5), 2: Diver(3)})
    play(state, (2, 2))
    # 4 - 1 chip = 3 steps: 5 is taken, 4 (one), 3 is taken, 2 (two), 1 (three).
    assert position(state, 0) == 1
    assert not public(state)["divers"][0]["back"]


def test_a_diver_stops_at_the_end_of_the_trail():
    state = dive(trail=[1, 1, 2, 2, 3, 3], divers={0: Diver(4)})
    play(state, "continue", (3, 3))
    assert position(state, 0) == 6


def test_a_diver_stops_short_when_the_last_space_is_taken():
    state = dive(trail=[1, 1, 2, 2, 3, 3], divers={0: Diver(3), 1: Diver(6)})
    play(state, "continue", (2, 2))
    assert position(state, 0) == 5


def test_a_diver_stays_put_when_every_deeper_space_is_taken():
    state = dive(trail=[1, 1, 2, 2, 3, 3], divers={0: Diver(4), 1: Diver(5), 2: Diver(6)})
    play(state, "continue", (1, 1))
    assert position(state, 0) == 4
    # Not having moved, it may still take the chip it stands on.
    assert state.legal_actions() == [{"type": "take"}, {"type": "pass"}]


@pytest.mark.parametrize("dice", [(1, 2), (3, 3)])
def test_reaching_the_submarine_exactly_or_with_steps_to_spare_brings_a_diver_back(dice):
    state = dive(divers={0: Diver(2, held=(1,), turned_back=True), 1: Diver(5), 2: Diver(7)})
    play(state, dice)
    diver = public(state)["divers"][0]
    assert diver["back"] and diver["position"] == 0
    assert state.current_player == 1


def test_a_diver_back_takes_no_more_turns_and_uses_no_air():
    state = dive(
        air=20, divers={0: Diver(1, held=(1, 1), turned_back=True), 1: Diver(4), 2: Diver(8)}
    )
    play(state, (3, 3))  # seat 0 is back with two chips
    assert state.current_player == 1
    play(state, "continue", (1, 1), "pass")  # seat 1
    play(state, "continue", (1, 1), "pass")  # seat 2
    assert state.current_player == 1  # seat 0 is skipped
    assert public(state)["air"] == 20  # and its two chips cost no air


def test_air_and_movement_are_reduced_by_items_held_a_stack_counting_as_one():
    state = dive(
        players=2, air=20, divers={0: Diver(3, held=(1, (2, 3, 3))), 1: Diver(1)}, to_act=1
    )
    play(state, "continue", (1, 1))  # seat 1: 2 -> jumps seat 0 at 3, lands on 4
    assert position(state, 1) == 4
    play(state, "pass")
    assert public(state)["air"] == 18  # seat 0 holds two items (a chip and a stack)
    play(state, "continue", (2, 2))  # 4 - 2 items = 2 steps: 4 is taken, 5, 6
    assert position(state, 0) == 6


def test_movement_never_goes_below_zero():
    state = dive(divers={0: Diver(3, held=(1, 1, 2, 2, 2))})
    play(state, "continue", (1, 1))
    assert position(state, 0) == 3
    assert public(state)["last_roll"] == [1, 1]


# -- deciding --------------------------------------------------------------------------------------


def test_in_the_submarine_a_diver_can_only_continue():
    state = dive()
    assert state.legal_actions() == [{"type": "continue"}]
    with pytest.raises(IllegalAction, match="you are in the submarine: you can only continue"):
        state.apply({"type": "turn_back"})


def test_turning_back_is_offered_once_and_then_the_turn_goes_straight_to_the_roll():
    state = dive(players=2, divers={0: Diver(5), 1: Diver(9)})
    assert state.legal_actions() == [{"type": "continue"}, {"type": "turn_back"}]
    play(state, "turn_back", (1, 1), "take")  # seat 0 back to 3, takes the chip
    play(state, "continue", (1, 1), "pass")  # seat 1
    view = state.view(0)
    assert view["turn"] == 0 and view["phase"] == "roll" and state.is_chance_node()
    assert public(state)["divers"][0]["turned_back"]


def test_a_diver_that_has_turned_back_cannot_turn_back_again():
    state = dive(divers={0: Diver(5, turned_back=True)})
    play(state, (1, 1))
    assert state.legal_actions() == [{"type": "take"}, {"type": "pass"}]
    with pytest.raises(IllegalAction, match="you have already turned back"):
        state.apply({"type": "turn_back"})


# -- taking and dropping ---------------------------------------------------------------------------


def test_taking_a_chip_leaves_a_blank_and_the_chip_is_held():
    state = dive(divers={0: Diver(0)})
    play(state, "continue", (1, 2), "take")
    view = public(state)
    assert view["trail"][2] == {"blank": True}
    assert view["divers"][0]["held"] == 1 and view["divers"][0]["held_levels"] == [[1]]
    assert state.current_player == 1


def test_on_a_blank_a_diver_may_drop_any_held_item_and_it_replaces_the_blank():
    trail = [1, 1, BLANK, 2, 2]
    state = dive(trail=trail, divers={0: Diver(1, held=(4,))})
    play(state, "continue", (1, 2))  # 3 - 1 item = 2 steps: space 3, a blank
    assert state.legal_actions() == [{"type": "drop", "chip": 0}, {"type": "pass"}]
    state = dive(trail=trail, divers={0: Diver(0, held=(4, (1, 2)))})
    play(state, "continue", (2, 3))  # 5 - 2 items = 3 steps: space 3, a blank
    assert state.legal_actions() == [
        {"type": "drop", "chip": 0},
        {"type": "drop", "chip": 1},
        {"type": "pass"},
    ]
    play(state, ("drop", 1))
    view = public(state)
    assert view["trail"][2] == {"stack": 2, "levels": [1, 2]}
    assert view["divers"][0]["held_levels"] == [[4]]


def test_on_a_blank_with_nothing_held_there_is_no_decision():
    state = dive(trail=[1, BLANK, 2, 2], divers={0: Diver(0)})
    play(state, "continue", (1, 1))
    assert position(state, 0) == 2
    assert state.current_player == 1 and public(state)["phase"] == "decide"


def test_a_taken_stack_is_one_item_and_scores_all_its_values():
    state = dive(trail=[1, 1, (1, 2, 2)], divers={0: Diver(2)})
    play(state, "continue", (1, 1), "take")  # 2 steps, but the trail ends at the stack
    assert public(state)["divers"][0]["held_levels"] == [[1, 2, 2]]
    assert public(state)["divers"][0]["held"] == 1
    play(state, "continue", (1, 1), "pass")  # seat 1 to space 2
    play(state, "continue", (1, 1), "pass")  # seat 2 jumps both, stops at space 1
    assert public(state)["air"] == AIR - 1  # the stack cost one air
    play(state, "turn_back", (3, 3))  # 6 - 1 = 5 steps: home
    play(state, "turn_back", (3, 3), "turn_back", (3, 3))  # seats 1 and 2 home, empty-handed
    assert public(state)["phase"] == "reveal"
    assert public(state)["reveals_pending"] == [
        {"seat": 0, "level": 1},
        {"seat": 0, "level": 2},
        {"seat": 0, "level": 2},
    ]
    reveal(state, 3)
    reveal(state, 7)
    reveal(state, 4)
    assert state.view(0)["divers"][0]["scored"] == [3, 7, 4]
    assert state.view(0)["divers"][0]["scored_chips"] == 3


# -- the end of a round ----------------------------------------------------------------------------


def test_air_running_out_ends_the_round_only_after_the_turn_is_finished():
    state = dive(players=2, air=2, divers={0: Diver(3, held=(1, 2)), 1: Diver(6)}, to_act=1)
    play(state, "continue", (1, 1), "pass")
    view = public(state)
    assert view["air"] == 0 and view["current_player"] == 0 and view["phase"] == "decide"
    play(state, "turn_back", (3, 3))  # 6 - 2 = 4 steps: home with two chips
    view = public(state)
    assert view["divers"][0]["back"]
    assert view["phase"] == "reveal"
    assert view["reveals_pending"] == [{"seat": 0, "level": 1}, {"seat": 0, "level": 2}]


def test_air_below_zero_shows_as_zero():
    state = dive(players=2, air=1, divers={0: Diver(3, held=(1, 2)), 1: Diver(6)}, to_act=1)
    play(state, "continue", (1, 1), "pass")
    assert state._air == -1 and public(state)["air"] == 0
    assert state.current_player == 0


def test_the_round_ends_when_every_diver_is_back():
    state = dive(divers={0: Diver(1, turned_back=True), 1: Diver(back=True), 2: Diver(back=True)})
    play(state, (1, 1))
    view = public(state)
    assert view["round"] == 2 and view["air"] == AIR and view["phase"] == "decide"


@pytest.mark.parametrize(
    "level, values",
    [(1, [0, 1, 2, 3]), (2, [4, 5, 6, 7]), (3, [8, 9, 10, 11]), (4, [12, 13, 14, 15])],
)
def test_a_chip_is_worth_one_of_the_values_printed_for_its_level(level, values):
    state = dive(
        divers={
            0: Diver(1, held=(level,), turned_back=True),
            1: Diver(back=True),
            2: Diver(back=True),
        }
    )
    play(state, (1, 2))
    assert [(o["value"], p) for o, p in state.chance_outcomes()] == [(v, 2 / 8) for v in values]


def test_reveal_probabilities_follow_the_values_not_yet_revealed():
    state = dive(
        divers={
            0: Diver(1, held=(1, 1, 4), turned_back=True),
            1: Diver(back=True),
            2: Diver(back=True),
        },
        scored={1: [(1, 3), (4, 15)]},
    )
    play(state, (3, 3))
    assert state.is_chance_node()
    assert state.chance_outcomes() == [
        ({"type": "reveal", "seat": 0, "level": 1, "value": 0}, 2 / 7),
        ({"type": "reveal", "seat": 0, "level": 1, "value": 1}, 2 / 7),
        ({"type": "reveal", "seat": 0, "level": 1, "value": 2}, 2 / 7),
        ({"type": "reveal", "seat": 0, "level": 1, "value": 3}, 1 / 7),
    ]
    reveal(state, 3)  # the last 3 of level 1
    assert [(o["value"], p) for o, p in state.chance_outcomes()] == [
        (0, 2 / 6),
        (1, 2 / 6),
        (2, 2 / 6),
    ]
    reveal(state, 0)
    assert [(o["value"], p) for o, p in state.chance_outcomes()] == [
        (12, 2 / 7),
        (13, 2 / 7),
        (14, 2 / 7),
        (15, 1 / 7),
    ]
    reveal(state, 15)
    assert state.view(0)["divers"][0]["scored"] == [3, 0, 15]
    assert public(state)["round"] == 2


def test_drowned_chips_are_shuffled_into_stacks_of_three_and_added_after_the_blanks_go():
    trail = [1, BLANK, 2, BLANK, 3, 4]
    state = dive(
        trail=trail,
        air=0,
        divers={
            0: Diver(1, turned_back=True),
            1: Diver(3, held=(1, 2)),
            2: Diver(5, held=(3, (4, 4))),
        },
    )
    play(state, (1, 1))  # seat 0 home; air is out: 1 and 2 drown
    assert public(state)["phase"] == "stack"
    assert state.chance_outcomes() == [
        ({"type": "stack_draw", "level": 1}, 1 / 5),
        ({"type": "stack_draw", "level": 2}, 1 / 5),
        ({"type": "stack_draw", "level": 3}, 1 / 5),
        ({"type": "stack_draw", "level": 4}, 2 / 5),
    ]
    for level in (4, 1, 3, 4):
        state.apply({"type": "stack_draw", "level": level})
    # Only a level-2 chip is left: it goes last without a draw, and round 2 begins.
    view = public(state)
    assert view["round"] == 2
    assert view["trail"] == [
        {"level": 1},
        {"level": 2},
        {"level": 3},
        {"level": 4},
        {"stack": 3, "levels": [4, 1, 3]},
        {"stack": 2, "levels": [4, 2]},
    ]


def test_three_or_fewer_lost_chips_make_one_stack_without_a_draw():
    state = dive(
        trail=[1, BLANK, 2],
        air=0,
        divers={
            0: Diver(1, turned_back=True),
            1: Diver(3, held=(3, 1)),
            2: Diver(back=True, held=()),
        },
    )
    play(state, (1, 1))
    view = public(state)
    assert view["round"] == 2
    assert view["trail"] == [{"level": 1}, {"level": 2}, {"stack": 2, "levels": [3, 1]}]


def test_lost_chips_all_of_one_level_are_stacked_without_a_draw():
    state = dive(
        trail=[1, 2, 3],
        air=0,
        divers={0: Diver(1, turned_back=True), 1: Diver(2, held=(2, 2)), 2: Diver(3, held=(2, 2))},
    )
    play(state, (1, 1))
    view = public(state)
    assert view["round"] == 2
    assert view["trail"][3:] == [{"stack": 3, "levels": [2, 2, 2]}, {"stack": 1, "levels": [2]}]


def test_next_round_starts_with_the_drowned_diver_farthest_from_the_submarine():
    state = dive(air=0, divers={0: Diver(4, turned_back=True), 1: Diver(12), 2: Diver(9)})
    play(state, (1, 1), "pass")  # seat 0 stops at 2: all three drown
    view = public(state)
    assert view["round"] == 2 and view["first_player"] == 1 and view["current_player"] == 1
    assert [d["position"] for d in view["divers"]] == [0, 0, 0]
    assert not any(d["turned_back"] or d["back"] or d["held"] for d in view["divers"])


def test_if_all_got_back_the_last_one_back_starts_the_next_round():
    state = dive(
        players=4,
        divers={
            0: Diver(back=True),
            1: Diver(2, turned_back=True),
            2: Diver(back=True),
            3: Diver(back=True),
        },
        to_act=1,
    )
    play(state, (2, 2))
    view = public(state)
    assert view["round"] == 2 and view["first_player"] == 1 and view["current_player"] == 1


def test_the_game_ends_after_the_third_round():
    state = dive(
        round_no=3,
        divers={0: Diver(1, turned_back=True), 1: Diver(5, held=(2,)), 2: Diver(back=True)},
        air=0,
    )
    play(state, (1, 1))
    assert state.is_terminal() and state.current_player == TERMINAL
    assert public(state)["phase"] == "over" and public(state)["round"] == 3


def test_the_game_ends_when_no_chip_is_left_on_the_trail():
    state = dive(
        trail=[BLANK, BLANK],
        divers={0: Diver(1, turned_back=True), 1: Diver(back=True), 2: Diver(back=True)},
    )
    play(state, (1, 1))
    assert state.is_terminal()


# -- scoring ---------------------------------------------------------------------------------------


def _finish_round_three(scored):
    state = dive(
        round_no=3,
        scored=scored,
        divers={0: Diver(1, turned_back=True), 1: Diver(back=True), 2: Diver(back=True)},
    )
    play(state, (1, 1))
    assert state.is_terminal()
    return state


def test_ties_are_broken_by_level_four_chips_and_otherwise_shared():
    state = _finish_round_three({0: [(4, 12), (1, 3)], 1: [(3, 11), (2, 4)], 2: [(4, 13), (1, 2)]})
    assert state.result() == [
        {"score": 15, "rank": 1},
        {"score": 15, "rank": 3},
        {"score": 15, "rank": 1},
    ]
    view = public(state)
    assert view["scores"] == [15, 15, 15] and view["level4"] == [1, 0, 1]


def test_a_higher_score_beats_more_level_four_chips():
    state = _finish_round_three({0: [(4, 12)], 1: [(3, 11), (2, 4)], 2: []})
    assert [r["rank"] for r in state.result()] == [2, 1, 3]


# -- hidden information ----------------------------------------------------------------------------


def _at_first_reveal(version=None):
    state = dive(
        divers={
            0: Diver(1, held=(4,), turned_back=True),
            1: Diver(5, held=(1,)),
            2: Diver(back=True),
        },
        air=0,
        version=version,
    )
    play(state, (1, 1))
    assert public(state)["phase"] == "reveal"
    return state


def test_a_revealed_value_lies_face_up_for_everyone():
    # "Turn all your collected treasure face up ... keeping them face up."
    fifteen, twelve = _at_first_reveal(), _at_first_reveal()
    reveal(fifteen, 15)
    reveal(twelve, 12)
    for seat in (None, 0, 1, 2):
        assert fifteen.view(seat)["divers"][0]["scored"] == [15]
        assert twelve.view(seat)["divers"][0]["scored"] == [12]
        assert fifteen.view(seat)["divers"][0]["scored_chips"] == 1


# -- rules version 1: a revealed value was its diver's secret until the end -----------------------


def test_under_rules_version_1_a_revealed_value_is_seen_by_its_diver_only():
    fifteen, twelve = _at_first_reveal(version=1), _at_first_reveal(version=1)
    reveal(fifteen, 15)
    reveal(twelve, 12)
    assert fifteen.view(0)["divers"][0]["scored"] == [15]
    assert twelve.view(0)["divers"][0]["scored"] == [12]
    for seat in (None, 1, 2):
        assert fifteen.view(seat) == twelve.view(seat)
        assert fifteen.view(seat)["divers"][0]["scored"] is None
        assert fifteen.view(seat)["divers"][0]["scored_chips"] == 1


def test_under_rules_version_1_a_reveal_is_logged_for_its_diver_alone():
    state = _at_first_reveal(version=1)
    outcome = state.chance_outcomes()[0][0]
    assert state.private_to(outcome) == frozenset({0})
    assert state.public_form(outcome) == {"type": "reveal", "seat": 0, "level": 4}
    assert state.private_to({"type": "roll", "dice": [1, 1]}) is None
    assert dsa.spec.at(1).hidden_information and not dsa.spec.hidden_information


def test_under_rules_version_1_all_values_are_shown_at_the_end():
    state = dive(
        round_no=3,
        scored={0: [(4, 14)], 1: [(2, 5), (1, 0)], 2: [(3, 9)]},
        divers={0: Diver(1, turned_back=True), 1: Diver(back=True), 2: Diver(back=True)},
        version=1,
    )
    play(state, (1, 1))
    for seat in (None, 0, 1, 2):
        assert [d["scored"] for d in state.view(seat)["divers"]] == [[14], [5, 0], [9]]


def test_under_rules_version_1_resampling_keeps_what_a_seat_has_seen():
    state = dive(
        divers={0: Diver(2), 1: Diver(4), 2: Diver(6)},
        scored={0: [(1, 0), (1, 3), (4, 15)], 1: [(1, 1), (1, 2), (1, 2)], 2: [(4, 12), (4, 13)]},
        version=1,
    )
    rng = random.Random(7)
    seen_for_others = set()
    for _ in range(50):
        redrawn = state.resample_hidden(0, rng)
        assert redrawn.view(0) == state.view(0)
        assert redrawn._scored[0] == state._scored[0]
        # Seat 0 knows two level-1 values and one level-4 value: the rest stays consistent.
        level1 = sorted(
            [v for s in (1, 2) for lv, v in redrawn._scored[s] if lv == 1] + redrawn._unrevealed[1]
        )
        assert level1 == [0, 1, 1, 2, 2, 3]
        seen_for_others.add(json.dumps(redrawn.view(1)))
    assert len(seen_for_others) > 1
    assert state._scored[1] == [(1, 1), (1, 2), (1, 2)]  # the original is untouched


def test_a_chip_not_yet_revealed_is_unknown_to_everyone_alike():
    state = _at_first_reveal()  # seat 0 is back with a level-4 chip, not yet revealed
    views = [state.view(seat) for seat in (None, 0, 1, 2)]
    assert all(view == views[0] for view in views)
    assert views[0]["reveals_pending"][0] == {"seat": 0, "level": 4}
    assert views[0]["divers"][0]["scored"] == []


def test_all_values_are_shown_at_the_end():
    state = _finish_round_three({0: [(4, 14)], 1: [(2, 5), (1, 0)], 2: [(3, 9)]})
    for seat in (None, 0, 1, 2):
        assert [d["scored"] for d in state.view(seat)["divers"]] == [[14], [5, 0], [9]]


def test_reveals_are_public_and_logged_in_full():
    state = _at_first_reveal()
    outcome = state.chance_outcomes()[0][0]
    assert state.private_to(outcome) is None
    assert state.public_form(outcome) == outcome and "value" in outcome


def test_nothing_is_hidden_so_resampling_changes_no_seats_view():
    state = dive(
        divers={0: Diver(2), 1: Diver(4), 2: Diver(6)},
        scored={0: [(1, 0), (1, 3), (4, 15)], 1: [(1, 1), (1, 2), (1, 2)], 2: [(4, 12), (4, 13)]},
    )
    rng = random.Random(7)
    for seat in (None, 0, 1, 2):
        redrawn = state.resample_hidden(seat, rng)
        assert redrawn is not state
        assert all(redrawn.view(v) == state.view(v) for v in (None, 0, 1, 2))


# -- illegal actions and views ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "setup, moves, action, message",
    [
        (
            {0: Diver(4)},
            [],
            {"type": "take"},
            "it is the decision at the start of your turn: continue or turn_back",
        ),
        ({0: Diver(4)}, [], {"type": "roll", "dice": [1, 1]}, "roll is a chance event"),
        ({0: Diver(4)}, ["continue"], {"type": "pass"}, "chance player's roll is next"),
        ({0: Diver(4)}, ["continue"], {"type": "roll", "dice": [4, 1]}, "each 1, 2 or 3"),
        (
            {0: Diver(1, held=(2, 2))},
            ["continue", (2, 3)],
            {"type": "drop", "chip": 3},
            r"you hold no chip 3 \(you hold 2\)",
        ),
        (
            {0: Diver(1, held=(2, 2))},
            ["continue", (2, 3)],
            {"type": "drop", "chip": "0"},
            r"you hold no chip '0' \(you hold 2\)",
        ),
        (
            {0: Diver(1, held=(2, 2))},
            ["continue", (2, 3)],
            {"type": "continue"},
            "you have already moved this turn",
        ),
        (
            {0: Diver(4)},
            ["continue", (1, 2)],
            {"type": "drop", "chip": 0},
            "you can drop a chip only on a blank space",
        ),
    ],
)
def test_an_illegal_action_says_why_and_changes_nothing(setup, moves, action, message):
    state = dive(trail=[1, 1, 1, BLANK, 2, 2, 2, 3], divers=setup)
    play(state, *moves)
    before = all_views(state)
    with pytest.raises(IllegalAction, match=message):
        state.apply(action)
    assert all_views(state) == before


def test_there_is_no_chip_to_take_on_a_blank():
    state = dive(trail=[1, BLANK, 2], divers={0: Diver(0, held=(3,))})
    play(state, "continue", (1, 2))  # 3 - 1 = 2 steps: the blank
    before = all_views(state)
    with pytest.raises(IllegalAction, match="there is no chip here to take"):
        state.apply({"type": "take"})
    assert all_views(state) == before


def test_a_reveal_out_of_order_or_of_a_value_already_gone_is_refused():
    state = _at_first_reveal()
    with pytest.raises(IllegalAction, match="the next chip to reveal is seat 0's chip of level 4"):
        state.apply({"type": "reveal", "seat": 1, "level": 4, "value": 12})
    state._unrevealed[4].remove(12)
    state._unrevealed[4].remove(12)
    with pytest.raises(IllegalAction, match="no unrevealed chip of level 4 has the value 12"):
        state.apply({"type": "reveal", "seat": 0, "level": 4, "value": 12})


def test_views_are_json_and_refuse_unknown_seats():
    state = dsa.new_game(3)
    for seat in (None, 0, 1, 2):
        json.dumps(state.view(seat))
    for seat in (3, -1, True):
        with pytest.raises(ValueError):
            state.view(seat)


def test_a_clone_is_independent():
    state = dive(divers={0: Diver(3, held=(1,))}, scored={1: [(2, 5)]})
    clone = state.clone()
    play(clone, "continue", (1, 1), "take")
    assert public(state)["divers"][0]["held"] == 1 and public(clone)["divers"][0]["held"] == 2
    assert public(state)["trail"][3] == {"level": 1}
    assert public(clone)["trail"][3] == {"blank": True}
    assert state.current_player == 0 and clone.current_player == 1


def test_a_roll_is_one_of_nine_equally_likely_ordered_pairs():
    state = play(dsa.new_game(2), "continue")
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert sorted(tuple(o["dice"]) for o, _ in outcomes) == [
        (a, b) for a in (1, 2, 3) for b in (1, 2, 3)
    ]
    assert all(p == pytest.approx(1 / 9) for _, p in outcomes)
