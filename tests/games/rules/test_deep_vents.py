"""Deep Vents, the turn and the game: market, placement, activation, attacks, shortfall,
elimination, the end, scoring and the starting bid. The hexes one by one, and the rulebook's
grow and trigger examples, are in test_deep_vents_hexes.py.

Scenarios are set up like the rulebook's pictures: ``table`` deals a known row and lays out
ecosystems, supplies and shells directly on a State; ``turn`` puts a seat in step 3 with the
activation at a given hex; then the test plays actions through the public interface.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass

import pytest

from games.rules import CHANCE, TERMINAL, IllegalAction
from games.rules import deep_vents as dv

# The rulebook's market example: "the player chooses the black smoker and must add 1 archaeon
# from their supply to the undersea volcano and vampire squid".
ROW = (
    "Undersea Volcano",
    "Vampire Squid",
    "Black Smoker",
    "Porous Rock",
    "Yeti Crab",
    "White Smoker",
)


@dataclass
class Hex:
    name: str
    q: int
    r: int
    archaea: int = 0
    decimated: bool = False
    track: int | None = None  # the number the track's marker is on


def table(
    players=2,
    *,
    row=ROW,
    starting_bid=False,
    ecosystems=None,
    supply=None,
    shells=None,
    shortfall=None,
    round_no=1,
    version=None,
):
    """A game with ``row`` dealt; ``ecosystems`` maps a seat to its hexes (replacing its lone
    Deep Vent), ``supply``/``shells``/``shortfall`` map seats to counts; under rules
    ``version`` (the newest by default)."""
    state = dv.new_game(players, {"starting_bid": starting_bid}, version=version)
    for name in row:
        state.apply({"type": "draw", "hex": name})
    for seat, hexes in (ecosystems or {}).items():
        lay(state, seat, *hexes)
    for seat, value in (supply or {}).items():
        state._supply[seat] = value
    for seat, value in (shells or {}).items():
        state._shells[seat] = value
    for seat, value in (shortfall or {}).items():
        state._tokens[seat] = value
    state._round = round_no
    return state


def lay(state, seat, *hexes):
    board = []
    for h in hexes:
        track = dv._TRACK[dv._KIND[h.name]]
        position = track.index(h.track) if h.track is not None else 0
        board.append(
            {
                "kind": dv._KIND[h.name],
                "q": h.q,
                "r": h.r,
                "archaea": h.archaea,
                "decimated": h.decimated,
                "track": position,
            }
        )
    state._ecosystems[seat] = board
    state._reindex(seat)


def turn(state, seat, at=None):
    """``seat`` in step 3 of its turn, every hex before the one at ``at`` already activated."""
    state._current = state._decider = seat
    state._begin_activation()
    if at is not None:
        board = state._ecosystems[seat]
        state._cursor = next(
            i for i, index in enumerate(state._act) if (board[index]["q"], board[index]["r"]) == at
        )
    return state


def play(state, *moves):
    """Apply moves: a type name ("grow", "shell", ...) or a full action dict."""
    for move in moves:
        state.apply({"type": move} if isinstance(move, str) else dict(move))
    return state


def player(state, seat):
    return state.view(None)["players"][seat]


def archaea(state, seat, q, r):
    return next(h["archaea"] for h in player(state, seat)["hexes"] if (h["q"], h["r"]) == (q, r))


def active(state):
    h = state.view(None).get("active_hex")
    return (h["q"], h["r"]) if h else None


def all_views(state):
    return json.dumps([state.view(s) for s in [None, *range(state.num_players)]], sort_keys=True)


def to_move(state, seat):
    """Make it ``seat``'s turn, at step 1."""
    state._current = state._decider = seat
    return state


def take_and_place(state, slot=0, at=(0, 1)):
    return play(state, {"type": "take", "slot": slot}, {"type": "place", "q": at[0], "r": at[1]})


def draw(state, name):
    state.apply({"type": "draw", "hex": name})


def grow_on(state):
    """Play the first legal action (take slot 0, the first space, grow, done, no shell) and
    draw the first hex left, until the game ends."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(state.legal_actions()[0])
    return state


# -- setting up ------------------------------------------------------------------------------


def test_the_row_and_the_stack_top_are_six_draws_from_the_thirty_eight_other_hexes():
    state = dv.new_game(4)
    outcomes = state.chance_outcomes()
    assert state.current_player == CHANCE
    assert len(outcomes) == 19 and "Deep Vent" not in {o["hex"] for o, _ in outcomes}
    assert all(p == pytest.approx(2 / 38) for _, p in outcomes)
    draw(state, "Anglerfish")
    odds = {o["hex"]: p for o, p in state.chance_outcomes()}
    assert odds["Anglerfish"] == pytest.approx(1 / 37)
    assert odds["Yeti Crab"] == pytest.approx(2 / 37)
    draw(state, "Anglerfish")
    assert "Anglerfish" not in {o["hex"] for o, _ in state.chance_outcomes()}
    for name in ROW[:4]:
        draw(state, name)
    view = state.view(None)
    assert [slot["name"] for slot in view["market"]] == ["Anglerfish", "Anglerfish", *ROW[:4]]
    assert [slot["cost"] for slot in view["market"]] == [0, 1, 2, 3, 4, 5]
    assert view["stack"] == 32
    assert state.current_player == 0 and view["phase"] == "take"


@pytest.mark.parametrize(
    "players, supplies", [(2, [10, 11]), (3, [15, 16, 17]), (4, [20, 21, 22, 23])]
)
def test_starting_archaea_follow_turn_order(players, supplies):
    view = table(players).view(None)
    assert [p["supply"] for p in view["players"]] == supplies
    assert view["turn_order"] == list(range(players)) and view["first_player"] == 0
    for p in view["players"]:
        assert p["hexes"] == [
            {"name": "Deep Vent", "q": 0, "r": 0, "archaea": 0, "decimated": False}
        ]
        assert p["shells"] == 0 and p["shortfall"] == 0 and not p["eliminated"]


@pytest.mark.parametrize(
    "players, options, message",
    [
        (1, {}, "2 to 4 players"),
        (5, {}, "2 to 4 players"),
        (3, {"starting_bid": 1}, "true or false"),
        (3, {"bid": True}, "unknown option"),
    ],
)
def test_new_game_refuses_bad_player_counts_and_options(players, options, message):
    with pytest.raises(ValueError, match=message):
        dv.new_game(players, options)


# -- step 1: the market ----------------------------------------------------------------------


def test_the_rulebooks_market_example_pays_one_archaeon_to_each_skipped_hex():
    state = table()
    play(state, {"type": "take", "slot": 2})
    view = state.view(None)
    assert view["held"] == {"name": "Black Smoker", "archaea": 0}
    assert view["players"][0]["supply"] == 8
    assert [(s["name"], s["archaea"]) for s in view["market"]] == [
        ("Undersea Volcano", 1),
        ("Vampire Squid", 1),
        ("Porous Rock", 0),
        ("Yeti Crab", 0),
        ("White Smoker", 0),
    ]


def test_the_row_slides_and_refills_from_the_stack_at_the_end_of_the_turn():
    state = table()
    play(state, {"type": "take", "slot": 2}, {"type": "place", "q": 1, "r": 0})
    # The Deep Vent and the Black Smoker cannot trigger yet, so both grew by themselves.
    assert archaea(state, 0, 0, 0) == 2 and archaea(state, 0, 1, 0) == 3
    assert state.is_chance_node() and state.view(None)["phase"] == "refill"
    draw(state, "Giant Squid")
    view = state.view(None)
    assert [s["name"] for s in view["market"]] == [*ROW[:2], *ROW[3:], "Giant Squid"]
    assert view["current_player"] == 1 and view["turn"] == 1 and view["stack"] == 31


def test_archaea_lying_on_a_taken_hex_stay_on_it():
    state = table()
    state._market[0]["archaea"] = 3
    play(state, {"type": "take", "slot": 0})
    assert state.view(None)["held"] == {"name": "Undersea Volcano", "archaea": 3}
    play(state, {"type": "place", "q": 0, "r": 1})
    assert archaea(state, 0, 0, 1) == 4  # and it grew 1 (it holds fewer than 5)


def test_the_stack_top_is_the_sixth_choice_and_costs_five():
    state = table()
    play(state, {"type": "take", "slot": 5})
    view = state.view(None)
    assert view["held"]["name"] == "White Smoker"
    assert view["players"][0]["supply"] == 5
    assert [s["archaea"] for s in view["market"]] == [1, 1, 1, 1, 1]


def test_an_empty_stack_leaves_the_row_short():
    state = table()
    state._stack = [0] * len(state._stack)
    take_and_place(state, 0, at=(0, 1))
    view = state.view(None)
    assert view["phase"] == "take" and view["turn"] == 1 and view["stack"] == 0
    assert len(view["market"]) == 5
    assert state.legal_actions() == [{"type": "take", "slot": k} for k in range(5)]


def test_a_slot_you_cannot_pay_for_is_not_offered():
    state = table(supply={0: 2})
    assert state.legal_actions() == [{"type": "take", "slot": k} for k in (0, 1, 2)]
    with pytest.raises(
        IllegalAction, match="slot 3 costs 3 archaea, one on each hex skipped; you have 2"
    ):
        state.apply({"type": "take", "slot": 3})


def test_a_skip_payment_onto_a_hex_at_ten_is_paid_and_lost():
    state = table()
    state._market[0]["archaea"] = 10
    play(state, {"type": "take", "slot": 1})
    assert state.view(None)["players"][0]["supply"] == 9
    assert state.view(None)["market"][0]["archaea"] == 10


def test_a_shortfall_token_forces_the_left_most_hex():
    state = table(supply={0: 9}, shortfall={0: 1})
    # Without 10 archaea to pay the token off, slot 0 is the only choice.
    assert state.legal_actions() == [{"type": "take", "slot": 0}]
    with pytest.raises(
        IllegalAction,
        match="you hold a shortfall token: you must take the "
        r"left-most hex \(slot 0\)",
    ):
        state.apply({"type": "take", "slot": 1})


def test_paying_the_token_off_first_frees_the_choice():
    state = table(supply={0: 12}, shortfall={0: 1})
    assert state.legal_actions() == [{"type": "take", "slot": 0}, {"type": "pay_shortfall"}]
    play(state, "pay_shortfall")
    view = player(state, 0)
    assert view["supply"] == 2 and view["shortfall"] == 0
    assert state.legal_actions() == [{"type": "take", "slot": k} for k in (0, 1, 2)]


# -- step 2: placement -----------------------------------------------------------------------


def test_a_new_hex_goes_on_a_space_touching_one_of_yours_listed_top_left_first():
    state = play(table(), {"type": "take", "slot": 0})
    assert state.legal_actions() == [
        {"type": "place", "q": q, "r": r}
        for q, r in [(0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1)]
    ]
    before = all_views(state)
    with pytest.raises(IllegalAction, match=r"\(2, 0\) does not touch any of your hexes"):
        state.apply({"type": "place", "q": 2, "r": 0})
    with pytest.raises(IllegalAction, match=r"\(0, 0\) already holds one of your hexes"):
        state.apply({"type": "place", "q": 0, "r": 0})
    assert all_views(state) == before


def test_a_decimated_hex_counts_for_touching():
    state = table(
        ecosystems={0: [Hex("Deep Vent", 0, 0), Hex("White Smoker", 1, 0, decimated=True)]}
    )
    play(state, {"type": "take", "slot": 0})
    assert {"type": "place", "q": 2, "r": 0} in state.legal_actions()


# -- step 3: activation ----------------------------------------------------------------------

# Seven Porous Rocks holding 1 archaeon each (so each may grow or trigger), on the Deep Vent
# and the six spaces around it.
RING = [(0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)]


def test_activation_runs_top_left_to_bottom_right():
    hexes = [Hex("Porous Rock", q, r, 1) for q, r in RING if (q, r) != (0, 0)]
    state = turn(table(ecosystems={0: [Hex("Deep Vent", 0, 0, 1), *hexes]}), 0)
    seen = []
    while active(state):
        seen.append(active(state))
        play(state, "grow")
    # Row r = -1 first (its hexes sit half a hex right of row 0's), then row 0, then row 1.
    assert seen == RING
    assert [archaea(state, 0, q, r) for q, r in RING] == [2, 2, 2, 3, 2, 2, 2]


def test_the_placed_hex_is_activated_in_its_place_in_the_order():
    state = table(
        supply={0: 10}, ecosystems={0: [Hex("Deep Vent", 0, 0, 1), Hex("Porous Rock", 1, 0, 1)]}
    )
    state._market[3]["archaea"] = 2
    take_and_place(state, 3, at=(0, -1))
    assert active(state) == (0, -1)  # the new Porous Rock, above the Deep Vent
    assert state.legal_actions() == [{"type": "grow"}, {"type": "trigger"}]


def test_a_hex_that_cannot_trigger_grows_without_a_decision():
    state = table(ecosystems={0: [Hex("Deep Vent", 0, 0, 0), Hex("Porous Rock", 1, 0, 1)]})
    take_and_place(state, 0, at=(0, 1))
    # The empty Deep Vent has nothing to collect: it grew by itself; the Porous Rock decides.
    assert archaea(state, 0, 0, 0) == 2
    assert active(state) == (1, 0) and state.legal_actions() == [
        {"type": "grow"},
        {"type": "trigger"},
    ]
    play(state, "grow")
    # The Undersea Volcano just placed (below, so last) holds 0: it grew by itself too.
    assert archaea(state, 0, 1, 0) == 2 and archaea(state, 0, 0, 1) == 1
    assert state.view(None)["phase"] == "refill"


def test_a_hex_may_trigger_as_often_as_it_can_pay_and_then_not_grow():
    state = turn(
        table(ecosystems={0: [Hex("Porous Rock", 0, 0, 3), Hex("Porous Rock", 1, 0, 1)]}), 0
    )
    play(state, "trigger")
    assert state.legal_actions() == [{"type": "done"}, {"type": "trigger"}]
    with pytest.raises(IllegalAction, match="has triggered this turn: it cannot grow too"):
        state.apply({"type": "grow"})
    play(state, "trigger", "trigger")
    # The third trigger spent the last archaeon: the next hex is up without a decision.
    assert player(state, 0)["shells"] == 3 and archaea(state, 0, 0, 0) == 0
    assert active(state) == (1, 0)


def test_done_moves_on_after_a_trigger():
    state = turn(
        table(ecosystems={0: [Hex("Porous Rock", 0, 0, 3), Hex("Porous Rock", 1, 0, 1)]}), 0
    )
    play(state, "trigger", "done")
    assert archaea(state, 0, 0, 0) == 2 and active(state) == (1, 0)
    assert player(state, 0)["shells"] == 1


def test_done_is_not_a_choice_before_a_trigger():
    state = turn(table(ecosystems={0: [Hex("Porous Rock", 0, 0, 3)]}), 0)
    with pytest.raises(IllegalAction, match="grow or trigger the Porous Rock first"):
        state.apply({"type": "done"})


def test_a_hex_at_ten_may_still_grow_and_the_excess_is_lost():
    state = turn(
        table(ecosystems={0: [Hex("White Smoker", 0, 0, 10), Hex("Deep Vent", 1, 0, 9)]}), 0
    )
    play(state, "grow", "grow")
    assert archaea(state, 0, 0, 0) == 10 and archaea(state, 0, 1, 0) == 10


def test_decimated_hexes_are_skipped():
    state = turn(
        table(
            ecosystems={
                0: [
                    Hex("Porous Rock", 0, 0, 1),
                    Hex("Porous Rock", 1, 0, 4, decimated=True),
                    Hex("Porous Rock", 2, 0, 1),
                ]
            }
        ),
        0,
    )
    play(state, "grow")
    assert active(state) == (2, 0) and archaea(state, 0, 1, 0) == 4


# -- attacks and shells --------------------------------------------------------------------


def giant_squid_attack(players=2, **kwargs):
    """Seat 0 about to trigger a Giant Squid holding 6 (4 damage to each opponent)."""
    state = table(players, ecosystems={0: [Hex("Giant Squid", 0, 0, 6)]}, **kwargs)
    return turn(state, 0)


def test_a_basic_attack_costs_each_opponent_archaea_from_the_supply():
    state = play(giant_squid_attack(3, supply={1: 9, 2: 5}), "trigger")
    assert player(state, 1)["supply"] == 5 and player(state, 2)["supply"] == 1
    assert archaea(state, 0, 0, 0) == 3 and player(state, 0)["supply"] == 15


def test_a_defender_with_a_shell_decides_in_turn_order_and_a_shell_blocks_half_rounded_up():
    state = play(giant_squid_attack(4, supply={1: 9, 2: 9, 3: 9}, shells={1: 1, 3: 2}), "trigger")
    view = state.view(None)
    assert state.current_player == 1
    assert view["pending"] == [
        {"kind": "attack", "seat": s, "damage": 4, "hex": "Giant Squid"} for s in (1, 2, 3)
    ]
    assert state.legal_actions() == [{"type": "shell"}, {"type": "no_shell"}]
    play(state, "shell")
    assert player(state, 1)["supply"] == 7 and player(state, 1)["shells"] == 0
    # Seat 2 has no shell: it takes the damage without a decision, and seat 3 decides.
    assert player(state, 2)["supply"] == 5
    assert state.current_player == 3
    play(state, "no_shell")
    assert player(state, 3)["supply"] == 5 and player(state, 3)["shells"] == 2
    # Seat 0 decides again: the Squid could trigger once more.
    assert state.current_player == 0 and state.legal_actions() == [
        {"type": "done"},
        {"type": "trigger"},
    ]


def test_each_repeated_trigger_is_a_separate_attack_with_its_own_shell():
    state = play(giant_squid_attack(shells={1: 2}, supply={1: 20}), "trigger", "shell")
    play(state, "trigger", "shell")
    assert player(state, 1)["supply"] == 16 and player(state, 1)["shells"] == 0


def test_no_shell_decision_without_damage():
    # A Giant Oarfish's attack counts the defender's hexes holding 3+: seat 2 has none.
    state = table(
        3,
        ecosystems={0: [Hex("Giant Oarfish", 0, 0, 3)], 1: [Hex("Deep Vent", 0, 0, 3)]},
        shells={1: 1, 2: 1},
    )
    play(turn(state, 0), "trigger")
    assert state.view(None)["pending"] == [
        {"kind": "attack", "seat": 1, "damage": 1, "hex": "Giant Oarfish"}
    ]
    play(state, "no_shell")
    assert player(state, 2)["supply"] == 17 and player(state, 2)["shells"] == 1
    assert state.current_player != 2


def test_the_defender_sees_the_pending_attack_and_may_pay_off_a_token_before_deciding():
    state = play(giant_squid_attack(shells={1: 1}, supply={1: 12}, shortfall={1: 1}), "trigger")
    assert state.legal_actions() == [
        {"type": "shell"},
        {"type": "no_shell"},
        {"type": "pay_shortfall"},
    ]
    play(state, "pay_shortfall", "shell")
    assert player(state, 1)["supply"] == 0 and player(state, 1)["shortfall"] == 0


# -- shortfall ---------------------------------------------------------------------------------


def test_damage_beyond_the_supply_takes_a_shortfall_token_and_ten_archaea():
    state = play(giant_squid_attack(supply={1: 3}), "trigger")
    assert player(state, 1)["supply"] == 9 and player(state, 1)["shortfall"] == 1


def test_damage_equal_to_the_supply_takes_no_token():
    state = play(giant_squid_attack(supply={1: 4}), "trigger")
    assert player(state, 1)["supply"] == 0 and player(state, 1)["shortfall"] == 0


def test_damage_beyond_ten_more_takes_as_many_tokens_as_it_needs():
    # A Colossal Squid against 10 heat (the Deep Vent, a Volcano holding 9) and 0 in supply.
    state = table(
        ecosystems={
            0: [Hex("Colossal Squid", 0, 0, 4)],
            1: [Hex("Deep Vent", 0, 0), Hex("Undersea Volcano", 1, 0, 9)],
        },
        supply={1: 0},
    )
    play(turn(state, 0), {"type": "trigger", "q": 0, "r": 0})
    assert player(state, 1)["supply"] == 0 and player(state, 1)["shortfall"] == 1
    state = table(
        ecosystems={
            0: [Hex("Colossal Squid", 0, 0, 4)],
            1: [
                Hex("Deep Vent", 0, 0),
                Hex("Undersea Volcano", 1, 0, 9),
                Hex("White Smoker", 2, 0),
            ],
        },
        supply={1: 0},
    )
    play(turn(state, 0), {"type": "trigger", "q": 0, "r": 0})
    assert player(state, 1)["supply"] == 9 and player(state, 1)["shortfall"] == 2


def test_paying_off_a_token_is_offered_only_with_ten_archaea():
    state = table(ecosystems={0: [Hex("Porous Rock", 0, 0, 1)]}, supply={0: 9}, shortfall={0: 1})
    turn(state, 0)
    assert {"type": "pay_shortfall"} not in state.legal_actions()
    with pytest.raises(IllegalAction, match="costs 10 archaea; you have 9"):
        state.apply({"type": "pay_shortfall"})
    state._supply[0] = 10
    assert state.legal_actions()[-1] == {"type": "pay_shortfall"}


# -- elimination ----------------------------------------------------------------------------


def test_ending_your_turn_with_two_tokens_eliminates_you_and_the_ecosystem_collapses():
    state = table(
        3,
        ecosystems={0: [Hex("Deep Vent", 0, 0, 5), Hex("White Smoker", 1, 0, 4)]},
        supply={0: 6},
        shells={0: 3},
        shortfall={0: 2},
    )
    play(take_and_place(state), "grow", "grow")
    view = state.view(None)
    me = view["players"][0]
    assert me["eliminated"] and me["shortfall"] == 2
    assert me["supply"] == 0 and me["shells"] == 0
    assert [h["archaea"] for h in me["hexes"]] == [0, 0, 0]
    assert len(me["hexes"]) == 3  # the hexes stay
    assert view["phase"] == "refill"
    draw(state, "Anglerfish")
    assert state.current_player == 1


def test_one_token_at_the_end_of_a_turn_is_no_elimination():
    state = table(ecosystems={0: [Hex("Deep Vent", 0, 0, 5)]}, shortfall={0: 1}, supply={0: 3})
    play(take_and_place(state), "grow")
    assert not player(state, 0)["eliminated"]


def test_a_seat_facing_elimination_that_can_pay_decides_at_the_end_of_its_turn():
    state = table(3, ecosystems={0: [Hex("Deep Vent", 0, 0, 5)]}, supply={0: 21}, shortfall={0: 3})
    play(take_and_place(state), "grow")
    assert state.legal_actions() == [{"type": "end_turn"}, {"type": "pay_shortfall"}]
    play(state, "pay_shortfall")
    assert state.legal_actions() == [{"type": "end_turn"}, {"type": "pay_shortfall"}]
    play(state, "pay_shortfall")
    # One token left, 1 archaeon: the turn ends by itself, and seat 0 is still in.
    assert state.view(None)["phase"] == "refill"
    assert player(state, 0)["shortfall"] == 1 and not player(state, 0)["eliminated"]


def test_choosing_to_end_the_turn_with_two_tokens_eliminates():
    state = table(3, ecosystems={0: [Hex("Deep Vent", 0, 0, 5)]}, supply={0: 10}, shortfall={0: 2})
    play(take_and_place(state), "grow", "end_turn")
    assert player(state, 0)["eliminated"]


def test_tokens_taken_on_other_turns_count_only_at_the_end_of_your_own():
    state = play(giant_squid_attack(3, supply={1: 0}, shortfall={1: 1}), "trigger")
    assert player(state, 1)["shortfall"] == 2 and not player(state, 1)["eliminated"]


def eliminated_seat_one(players=3):
    state = table(players)
    state._out[1] = True
    state._eliminated.append(1)
    state._tokens[1] = 2
    state._supply[1] = 0
    return state


def test_an_eliminated_seat_takes_no_turns_and_is_not_attacked():
    state = eliminated_seat_one()
    lay(state, 0, Hex("Giant Squid", 0, 0, 3))
    play(turn(state, 0), "trigger")
    assert player(state, 1)["supply"] == 0 and player(state, 1)["shortfall"] == 2
    assert player(state, 2)["supply"] == 13
    # (No hex was taken in this staged turn, so the row is full and nothing is drawn.)
    assert state.current_player == 2 and state.view(None)["round"] == 1


def test_the_game_ends_when_one_seat_is_left():
    state = table(2, ecosystems={0: [Hex("Deep Vent", 0, 0, 5)]}, supply={0: 3}, shortfall={0: 2})
    play(take_and_place(state), "grow")
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.view(None)["phase"] == "over"
    assert [r["rank"] for r in state.result()] == [2, 1]
    assert state.result()[0]["score"] == -20


# -- the end and scoring ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ends_after_eight_rounds_with_nine_hexes_each(players):
    state = grow_on(table(players))
    view = state.view(None)
    assert view["round"] == 8
    assert all(len(p["hexes"]) == 9 for p in view["players"])
    # No refill follows the last turn: six dealt, then one draw after each other turn.
    assert view["stack"] == 38 - 6 - (8 * players - 1)
    assert len(view["market"]) == 5


def test_the_last_turn_is_the_eighth_of_the_last_seat_in_turn_order():
    state = take_and_place(to_move(table(3, round_no=8), 2))
    assert state.is_terminal()
    state = take_and_place(to_move(table(3, round_no=8), 1))
    assert not state.is_terminal() and state.view(None)["phase"] == "refill"


def test_scoring_counts_supply_half_the_shells_and_half_the_archaea_on_hexes_rounded_up():
    state = table(
        2,
        round_no=8,
        supply={0: 7, 1: 30},
        shells={0: 3, 1: 4},
        shortfall={0: 1},
        ecosystems={
            0: [
                Hex("Porous Rock", 0, 0, 2),
                Hex("Colossal Squid", 1, 0, 3),
                Hex("Goblin Shark", 0, 1, 2, decimated=True),
            ],
            1: [Hex("Deep Vent", 0, 0, 9)],
        },
    )
    take_and_place(to_move(state, 1))
    play(state, "grow")
    # Seat 1's last turn: its Deep Vent grew to 10, the Undersea Volcano it placed to 1.
    assert state.is_terminal()
    assert state.view(None)["scores"] == [
        {"supply": 7, "shells": 2, "hex_archaea": 4, "shortfall": -10, "total": 3},
        {"supply": 30, "shells": 2, "hex_archaea": 6, "shortfall": 0, "total": 38},
    ]
    assert state.result() == [{"score": 3, "rank": 2}, {"score": 38, "rank": 1}]


def finished(players, totals, first=0, version=None):
    """A finished game whose seats score ``totals`` (supply alone), ``first`` having started."""
    state = table(players, version=version)
    n = players
    state._order = [(first + i) % n for i in range(n)]
    for seat, total in enumerate(totals):
        state._supply[seat] = total
    state._phase = "over"
    return state


def test_a_tie_goes_to_the_tied_seat_earliest_in_turn_order():
    assert [r["rank"] for r in finished(4, [20, 25, 20, 25]).result()] == [3, 1, 4, 2]
    assert [r["rank"] for r in finished(4, [20, 25, 20, 25], first=3).result()] == [3, 2, 4, 1]


def eliminate(state, *seats):
    """Seats eliminated in this order, as at the end of their turns."""
    for seat in seats:
        state._tokens[seat] = max(state._tokens[seat], 2)
        state._eliminate(seat)
    return state


def test_at_equal_points_a_seat_still_in_beats_an_eliminated_one():
    # Seat 1 took its two tokens after its last turn; seat 0 was eliminated with two.
    state = eliminate(finished(3, [0, 0, 5], first=0), 0)
    state._tokens[1] = 2
    assert [r["rank"] for r in state.result()] == [3, 2, 1]


def test_a_seat_still_in_ranks_above_an_eliminated_one_whatever_the_scores():
    # Seat 2 is still in but took three tokens on others' turns: -30 against the eliminated
    # seat 0's -20. Having survived, it still ranks above it.
    state = eliminate(finished(3, [0, 12, 0], first=0), 0)
    state._tokens[2] = 3
    result = state.result()
    assert [r["score"] for r in result] == [-20, 12, -30]
    assert [r["rank"] for r in result] == [3, 1, 2]


def test_in_a_two_player_game_the_survivor_wins_even_on_fewer_points():
    state = eliminate(finished(2, [0, 0], first=0), 1)
    state._tokens[0] = 3  # -30 for the survivor, -20 for the eliminated seat
    assert [r["rank"] for r in state.result()] == [1, 2]


def test_under_rules_version_1_an_eliminated_seat_ranks_by_its_points():
    # The games played before version 2 keep the ranking they were rated with: seat 0, out at
    # -20, ranks above seat 2, still in at -30.
    state = eliminate(finished(3, [0, 12, 0], first=0, version=1), 0)
    state._tokens[2] = 3
    result = state.result()
    assert [r["score"] for r in result] == [-20, 12, -30]
    assert [r["rank"] for r in result] == [2, 1, 3]


def test_under_rules_version_1_a_tie_goes_to_the_seat_still_in():
    state = eliminate(finished(3, [0, 0, 5], first=0, version=1), 0)
    state._tokens[1] = 2
    assert [r["rank"] for r in state.result()] == [3, 2, 1]
    # and where the eliminated seat scored more, it ranks above the survivor
    state = eliminate(finished(2, [0, 0], first=0, version=1), 1)
    state._tokens[0] = 3  # -30 for the survivor, -20 for the eliminated seat
    assert [r["rank"] for r in state.result()] == [2, 1]


def test_eliminated_seats_rank_by_when_they_fell_the_later_the_better():
    # Seat 3 fell first (despite its points), then seat 0, then seat 1; seat 2 is left.
    state = finished(4, [30, 0, 5, 40], first=0)
    eliminate(state, 3, 0, 1)
    assert [r["rank"] for r in state.result()] == [3, 2, 1, 4]


# -- the starting bid ---------------------------------------------------------------------


def bidding(players=3):
    state = table(players, starting_bid=True)
    assert state.current_player == CHANCE
    return state


def test_a_random_seat_opens_the_bid_after_the_row_is_dealt():
    state = bidding(4)
    view = state.view(None)
    assert view["phase"] == "opener" and len(view["market"]) == 6
    assert [p["supply"] for p in view["players"]] == [20, 20, 20, 20]
    assert view["turn_order"] == [] and view["first_player"] is None
    assert state.chance_outcomes() == [({"type": "opener", "seat": s}, 0.25) for s in range(4)]


def test_two_player_bid_the_winner_pays_and_the_other_gains_one():
    state = play(
        bidding(2),
        {"type": "opener", "seat": 0},
        {"type": "bid", "amount": 3},
        {"type": "bid", "amount": 4},
        "pass",
    )
    view = state.view(None)
    assert view["turn_order"] == [1, 0] and view["current_player"] == 1
    assert [p["supply"] for p in view["players"]] == [11, 6]


def test_the_opener_bids_anything_from_zero_and_may_not_pass():
    state = play(bidding(2), {"type": "opener", "seat": 1})
    assert state.current_player == 1
    assert state.legal_actions() == [{"type": "bid", "amount": n} for n in range(11)]
    with pytest.raises(IllegalAction, match=r"the opener must bid \(0 is a bid\)"):
        state.apply({"type": "pass"})


def test_raises_go_clockwise_a_pass_is_final_and_the_last_bidder_pays_and_starts():
    state = play(bidding(3), {"type": "opener", "seat": 1}, {"type": "bid", "amount": 2})
    assert state.current_player == 2
    assert state.legal_actions()[0] == {"type": "bid", "amount": 3}
    assert state.legal_actions()[-1] == {"type": "pass"}
    with pytest.raises(IllegalAction, match="a bid must be from 3 to 15 archaea"):
        state.apply({"type": "bid", "amount": 2})
    play(state, {"type": "bid", "amount": 4})
    assert state.current_player == 0 and state.view(None)["bid"] == {
        "opener": 1,
        "high": 4,
        "leader": 2,
        "passed": [],
    }
    play(state, "pass")
    assert state.current_player == 1
    play(state, {"type": "bid", "amount": 5})
    # Seat 0 has passed for good: seat 2 is next.
    assert state.current_player == 2
    play(state, "pass")
    view = state.view(None)
    assert view["phase"] == "take" and view["current_player"] == 1
    assert view["turn_order"] == [1, 2, 0] and view["first_player"] == 1
    # The winner pays 5; the second and third in turn order gain 1 and 2.
    assert [p["supply"] for p in view["players"]] == [17, 10, 16]
    assert view["bid"] == {"opener": 1, "high": 5, "leader": 1, "passed": [0, 2]}


def test_four_player_bonuses_go_by_turn_order_from_the_winner():
    state = play(
        bidding(4),
        {"type": "opener", "seat": 2},
        {"type": "bid", "amount": 0},
        "pass",
        "pass",
        "pass",
    )
    view = state.view(None)
    assert view["turn_order"] == [2, 3, 0, 1]
    assert [p["supply"] for p in view["players"]] == [22, 23, 20, 21]


def test_a_seat_that_cannot_raise_passes_without_a_decision():
    state = play(bidding(3), {"type": "opener", "seat": 0}, {"type": "bid", "amount": 15})
    view = state.view(None)
    assert view["first_player"] == 0 and view["bid"]["passed"] == [1, 2]
    assert [p["supply"] for p in view["players"]] == [0, 16, 17]
    # With nothing left to pay for skips, seat 0 took the left-most hex without a decision too.
    assert view["phase"] == "place" and view["held"]["name"] == "Undersea Volcano"


def test_the_game_with_the_bid_ends_after_the_eighth_turn_of_the_seat_before_the_winner():
    state = play(
        bidding(3), {"type": "opener", "seat": 1}, {"type": "bid", "amount": 1}, "pass", "pass"
    )
    grow_on(state)
    view = state.view(None)
    assert view["round"] == 8 and all(len(p["hexes"]) == 9 for p in view["players"])
    assert view["turn_order"] == [1, 2, 0] and view["turn"] == 0


def test_in_the_bid_variant_ties_go_to_the_winner_first():
    state = finished(3, [12, 12, 12], first=2)
    assert [r["rank"] for r in state.result()] == [2, 3, 1]


# -- views, clones, illegal actions --------------------------------------------------------


def test_the_spec():
    spec = dv.spec
    assert (spec.slug, spec.name, spec.min_players, spec.max_players) == (
        "deep-vents",
        "Deep Vents",
        2,
        4,
    )
    assert spec.chance and not spec.hidden_information
    assert [(o.name, o.kind, o.default) for o in spec.options] == [("starting_bid", "bool", False)]
    assert dv.new_game(3).options == {"starting_bid": False}


def test_views_are_json_the_same_for_every_seat_and_refuse_unknown_seats():
    state = table(3, ecosystems={0: [Hex("Scaly-Foot Snail", 0, 0, 4, track=2)]})
    views = [state.view(s) for s in (None, 0, 1, 2)]
    assert all(json.loads(json.dumps(v)) == v for v in views)
    assert all(v == views[0] for v in views)
    assert views[0]["players"][0]["hexes"] == [
        {"name": "Scaly-Foot Snail", "q": 0, "r": 0, "archaea": 4, "decimated": False, "track": 2}
    ]
    for seat in (3, -1, True, "0"):
        with pytest.raises(ValueError):
            state.view(seat)


def test_a_clone_is_independent():
    state = turn(table(ecosystems={0: [Hex("Porous Rock", 0, 0, 3)]}), 0)
    clone = state.clone()
    play(clone, "trigger")
    assert archaea(state, 0, 0, 0) == 3 and archaea(clone, 0, 0, 0) == 2
    assert player(state, 0)["shells"] == 0 and player(clone, 0)["shells"] == 1


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "draw", "hex": "Anglerfish"}, "draw is a chance event"),
        ({"type": "place", "q": 1, "r": 0}, "seat 0 takes a hex from the row"),
        ({"type": "take", "slot": 6}, "the row's slots are 0 to 5"),
        ({"type": "take", "slot": "1"}, "the row's slots are 0 to 5"),
        ({"type": "shell"}, "is not what is decided now"),
        ({"type": "pay_shortfall"}, "you hold no shortfall token"),
    ],
)
def test_an_illegal_action_says_why_and_changes_nothing(action, message):
    state = table()
    before = all_views(state)
    with pytest.raises(IllegalAction, match=message):
        state.apply(action)
    assert all_views(state) == before


def test_seat_actions_are_refused_at_a_chance_node():
    state = dv.new_game(2)
    with pytest.raises(IllegalAction, match="the chance player's draw is next"):
        state.apply({"type": "take", "slot": 0})
    with pytest.raises(IllegalAction, match="no 'Deep Vent' is left in the stack"):
        state.apply({"type": "draw", "hex": "Deep Vent"})


def test_a_random_four_player_game_is_fast():
    rng = random.Random(3)
    state = dv.new_game(4, {"starting_bid": True})
    start = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert time.perf_counter() - start < 0.25
