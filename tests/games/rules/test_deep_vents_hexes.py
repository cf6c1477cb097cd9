"""Deep Vents, hex by hex: every grow and trigger of the hex guide, decimation and its passives,
and the rulebook's grow, trigger and shell examples.

Most scenarios put the hex under test at C = (0, 0) with its neighbours above and to its left
(NW, NE, W), which the activation order has already passed; the hexes that follow it (E, SW,
SE) are chosen so that they change nothing the test looks at.
"""

from __future__ import annotations

import pytest

from games.rules import IllegalAction
from tests.games.rules.test_deep_vents import (
    Hex,
    active,
    archaea,
    play,
    player,
    table,
    take_and_place,
    turn,
)

C, NW, NE, W, E, SW, SE = (0, 0), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1)


def at(position, name, archaea=0, **kwargs):
    return Hex(name, position[0], position[1], archaea, **kwargs)


def activating(*hexes, players=2, opponents=None, **kwargs):
    """Seat 0 at its hex at C with ``hexes`` as its ecosystem; ``opponents`` maps seats to
    theirs."""
    ecosystems = {0: list(hexes), **(opponents or {})}
    return turn(table(players, ecosystems=ecosystems, **kwargs), 0, at=C)


def supply(state, seat):
    return player(state, seat)["supply"]


def shells(state, seat):
    return player(state, seat)["shells"]


def offered(state, kind):
    return [a for a in state.legal_actions() if a["type"] == kind]


# -- Anglerfish ------------------------------------------------------------------------------


def test_anglerfish_grows_one_per_adjacent_bioluminescence():
    state = activating(
        at(NW, "Glowing Medusa"), at(NE, "Anglerfish"), at(W, "Giant Squid"), at(C, "Anglerfish", 3)
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 5


def test_anglerfish_attacks_each_opponent_for_its_total_bioluminescence():
    state = activating(
        at(C, "Anglerfish", 4),
        opponents={
            1: [
                at(C, "Deep Vent"),
                at(E, "Lanternfish"),
                at(SE, "Anglerfish"),
                at(W, "Vampire Squid"),
            ]
        },
    )
    play(state, "trigger")
    assert archaea(state, 0, *C) == 1 and supply(state, 1) == 11 - 3


def test_anglerfish_cannot_trigger_against_opponents_without_bioluminescence():
    state = activating(at(C, "Anglerfish", 4))
    assert state.legal_actions() == [{"type": "grow"}]
    with pytest.raises(
        IllegalAction, match="triggering the Anglerfish now would have no effect, so it must grow"
    ):
        state.apply({"type": "trigger"})


# -- Black Smoker ----------------------------------------------------------------------------


def test_black_smoker_grows_three():
    state = play(activating(at(C, "Black Smoker", 2)), "grow")
    assert archaea(state, 0, *C) == 5


def test_black_smoker_spends_two_banks_the_rest_and_feeds_each_neighbour():
    state = activating(
        at(NW, "Porous Rock", 1),
        at(NE, "White Smoker", 0, decimated=True),
        at(W, "Deep Vent", 10),
        at(C, "Black Smoker", 6),
    )
    play(state, "trigger")
    assert supply(state, 0) == 10 + 4 and archaea(state, 0, *C) == 0
    # A decimated neighbour still collects; one at 10 does not go over.
    assert [archaea(state, 0, *p) for p in (NW, NE, W)] == [2, 1, 10]


def test_black_smoker_with_two_and_every_neighbour_at_ten_must_grow():
    state = activating(at(W, "Deep Vent", 10), at(C, "Black Smoker", 2))
    assert state.legal_actions() == [{"type": "grow"}]


# -- Bull Cachalot ---------------------------------------------------------------------------


def test_bull_cachalot_grows_one_per_adjacent_predation():
    state = activating(
        at(NW, "Goblin Shark"), at(NE, "Anglerfish"), at(W, "Porous Rock"), at(C, "Bull Cachalot")
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 2


def test_bull_cachalot_makes_each_opponent_decimate_a_squid_of_its_choice_or_take_damage():
    state = activating(
        at(C, "Bull Cachalot", 5),
        players=3,
        opponents={
            1: [at(C, "Deep Vent"), at(E, "Colossal Squid", 3), at(SE, "Giant Squid", 2)],
            2: [at(C, "Deep Vent"), at(E, "Goblin Shark"), at(SE, "Anglerfish")],
        },
    )
    play(state, "trigger")
    assert state.current_player == 1
    assert state.legal_actions() == [
        {"type": "decimate", "q": 1, "r": 0},
        {"type": "decimate", "q": 0, "r": 1},
    ]
    with pytest.raises(IllegalAction, match="decimate names a face-up squid of yours"):
        state.apply({"type": "decimate", "q": 0, "r": 0})
    play(state, {"type": "decimate", "q": 0, "r": 1})
    squid = player(state, 1)["hexes"][2]
    assert squid["decimated"] and squid["archaea"] == 0
    assert supply(state, 1) == 16 + 1  # half of 2, rounded up
    # Seat 2 has no squid: 2 x its predation (Goblin Shark 1, Anglerfish 1) = 4.
    assert supply(state, 2) == 17 - 4


def test_bull_cachalot_a_lone_squid_goes_without_a_decision_and_a_decimated_one_is_no_squid():
    state = activating(
        at(C, "Bull Cachalot", 5),
        players=3,
        opponents={
            1: [at(C, "Deep Vent"), at(E, "Giant Squid", 5)],
            2: [at(C, "Deep Vent"), at(E, "Giant Squid", 0, decimated=True), at(SE, "Gulper Eel")],
        },
    )
    play(state, "trigger")
    assert player(state, 1)["hexes"][1]["decimated"] and supply(state, 1) == 16 + 3
    assert supply(state, 2) == 17 - 2
    # Nobody was asked: seat 0's turn is over and seat 1's has begun.
    view = state.view(None)
    assert view["turn"] == 1 and view["phase"] == "take" and "pending" not in view


def test_bull_cachalot_has_no_effect_on_opponents_without_squids_or_predation():
    state = activating(at(C, "Bull Cachalot", 5))
    assert state.legal_actions() == [{"type": "grow"}]


# -- Colossal Squid --------------------------------------------------------------------------


def test_colossal_squid_does_not_grow():
    state = activating(at(NW, "White Smoker", 4), at(C, "Colossal Squid", 2))
    assert offered(state, "trigger")  # so grow is a decision, not automatic
    play(state, "grow")
    assert archaea(state, 0, *C) == 2 and archaea(state, 0, *NW) == 4


def colossal_squid_against_five_heat(opponent_shells=2):
    """Seat 1 shows 5 heat: its Deep Vent, a White Smoker and a Volcano holding 3."""
    return activating(
        at(NW, "White Smoker", 6),
        at(NE, "Deep Vent", 3),
        at(W, "Porous Rock", 4, decimated=True),
        at(C, "Colossal Squid", 1),
        opponents={1: [at(C, "Deep Vent"), at(E, "White Smoker"), at(SE, "Undersea Volcano", 3)]},
        shells={1: opponent_shells},
    )


def test_colossal_squid_spends_all_of_itself_or_a_neighbour_holding_four_or_more():
    state = colossal_squid_against_five_heat()
    assert offered(state, "trigger") == [
        {"type": "trigger", "q": 0, "r": -1},
        {"type": "trigger", "q": -1, "r": 0},
    ]
    play(state, {"type": "trigger", "q": 0, "r": -1})
    assert archaea(state, 0, *NW) == 0 and archaea(state, 0, *C) == 1
    assert state.view(None)["pending"] == [
        {"kind": "attack", "seat": 1, "damage": 5, "hex": "Colossal Squid"}
    ]


def test_the_rulebooks_shell_example_five_heat_one_shell_two_lost():
    state = play(colossal_squid_against_five_heat(), {"type": "trigger", "q": 0, "r": -1})
    play(state, "shell")
    assert supply(state, 1) == 11 - 2 and shells(state, 1) == 1
    # "You may not use the other shell unless your opponent triggers a subsequent attack."
    assert state.current_player == 0
    play(state, {"type": "trigger", "q": -1, "r": 0})
    assert state.current_player == 1
    play(state, "shell")
    assert supply(state, 1) == 11 - 4 and shells(state, 1) == 0


def test_colossal_squid_without_four_anywhere_cannot_trigger():
    state = activating(
        at(NW, "White Smoker", 3), at(C, "Colossal Squid", 3), opponents={1: [at(C, "Deep Vent")]}
    )
    assert state.legal_actions() == [{"type": "grow"}]
    with pytest.raises(IllegalAction, match="needs itself or an adjacent hex holding 4"):
        state.apply({"type": "trigger", "q": 0, "r": 0})


# -- Deep Vent and White Smoker ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["Deep Vent", "White Smoker"])
def test_deep_vent_and_white_smoker_grow_two_and_bank_everything(name):
    state = play(activating(at(C, name, 3)), "grow")
    assert archaea(state, 0, *C) == 5
    state = play(activating(at(C, name, 3)), "trigger")
    assert archaea(state, 0, *C) == 0 and supply(state, 0) == 13


@pytest.mark.parametrize("name", ["Deep Vent", "White Smoker", "Towering Smoker"])
def test_an_empty_hex_has_nothing_to_bank(name):
    assert activating(at(C, name)).legal_actions() == [{"type": "grow"}]


# -- Giant Oarfish ---------------------------------------------------------------------------


def test_giant_oarfish_grows_one_per_adjacent_hex_holding_two_or_more():
    state = activating(
        at(NW, "Porous Rock", 2),
        at(NE, "Porous Rock", 1),
        at(W, "Porous Rock", 5, decimated=True),
        at(C, "Giant Oarfish"),
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 2


def test_giant_oarfish_deals_one_per_opponents_hex_holding_three_or_more():
    state = activating(
        at(C, "Giant Oarfish", 3),
        opponents={1: [at(C, "Deep Vent", 3), at(E, "White Smoker", 5), at(SE, "Porous Rock", 2)]},
    )
    play(state, "trigger")
    assert supply(state, 1) == 11 - 2


# -- Giant Squid -----------------------------------------------------------------------------


def test_giant_squid_drains_one_from_each_adjacent_bioluminescent_hex():
    state = activating(
        at(NW, "Lanternfish", 2),
        at(NE, "Glowing Medusa"),
        at(W, "Anglerfish", 1),
        at(C, "Giant Squid"),
        at(E, "Glowing Medusa", 2, decimated=True),
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 2
    assert [archaea(state, 0, *p) for p in (NW, NE, W, E)] == [1, 0, 0, 2]


def test_giant_squid_at_ten_drains_all_the_same_and_the_excess_is_lost():
    state = activating(at(NW, "Lanternfish", 2), at(C, "Giant Squid", 10))
    play(state, "grow")
    assert archaea(state, 0, *C) == 10 and archaea(state, 0, *NW) == 1


def test_giant_squid_deals_four():
    state = play(activating(at(C, "Giant Squid", 3)), "trigger")
    assert supply(state, 1) == 11 - 4 and archaea(state, 0, *C) == 0


# -- Giant Tube Worms, Yeti Crab, Scaly-Foot Snail: heat and rock --------------------------


@pytest.mark.parametrize("name", ["Giant Tube Worms", "Yeti Crab", "Scaly-Foot Snail"])
def test_heat_and_rock_grow_one_per_symbol_around(name):
    state = activating(
        at(NW, "Deep Vent"), at(NE, "Black Smoker"), at(W, "Porous Rock"), at(C, name)
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 4  # Deep Vent 2, Black Smoker 1, Porous Rock 1


def test_an_undersea_volcanos_heat_is_the_archaea_on_it_and_a_decimated_hex_shows_one_heat():
    state = activating(
        at(NW, "Undersea Volcano", 4), at(NE, "Goblin Shark", decimated=True), at(C, "Yeti Crab")
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 5
    state = activating(at(NW, "Undersea Volcano", 4, decimated=True), at(C, "Yeti Crab"))
    play(state, "grow")
    assert archaea(state, 0, *C) == 1


def test_giant_tube_worms_feed_each_neighbour_then_gain_a_shell():
    state = activating(
        at(NW, "Porous Rock", 1), at(W, "Deep Vent", 10), at(C, "Giant Tube Worms", 6)
    )
    play(state, "trigger")
    assert archaea(state, 0, *C) == 1 and shells(state, 0) == 1
    assert archaea(state, 0, *NW) == 2 and archaea(state, 0, *W) == 10


def test_yeti_crab_gains_a_shell_and_deals_one():
    state = play(activating(at(C, "Yeti Crab", 3)), "trigger")
    assert archaea(state, 0, *C) == 0 and shells(state, 0) == 1 and supply(state, 1) == 10


def test_scaly_foot_snail_gains_the_tracks_shells_then_moves_it_up_to_three():
    state = activating(at(C, "Scaly-Foot Snail", 10), at(E, "Porous Rock", 1))
    play(state, "trigger", "trigger")
    assert shells(state, 0) == 1 + 2 and archaea(state, 0, *C) == 2
    assert player(state, 0)["hexes"][0]["track"] == 3
    state = activating(at(C, "Scaly-Foot Snail", 8, track=3))
    play(state, "trigger", "trigger")
    assert shells(state, 0) == 3 + 3 and player(state, 0)["hexes"][0]["track"] == 3


@pytest.mark.parametrize("name", ["Scaly-Foot Snail", "Towering Smoker"])
def test_a_placed_track_hex_starts_on_its_first_space(name):
    state = table(
        row=(
            name,
            *[
                n
                for n in (
                    "Porous Rock",
                    "Yeti Crab",
                    "White Smoker",
                    "Black Smoker",
                    "Vampire Squid",
                )
            ],
        )
    )
    take_and_place(state, 0, at=(1, 0))
    assert player(state, 0)["hexes"][1]["track"] == 1


# -- Glowing Medusa --------------------------------------------------------------------------


def test_glowing_medusa_grows_one_per_opponents_hex_holding_as_many_as_there_are_players():
    state = activating(
        at(NW, "Deep Vent", 7),
        at(C, "Glowing Medusa"),
        players=3,
        opponents={
            1: [at(C, "Deep Vent", 3), at(E, "White Smoker", 2)],
            2: [
                at(C, "Deep Vent", 5),
                at(E, "Porous Rock", 4),
                at(SE, "Yeti Crab", 3, decimated=True),
            ],
        },
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 4


def test_glowing_medusa_counts_the_seats_of_the_game_even_after_an_elimination():
    state = activating(
        at(C, "Glowing Medusa"),
        players=3,
        opponents={1: [at(C, "Deep Vent", 3), at(E, "White Smoker", 2)]},
    )
    state._out[2] = True
    play(state, "grow")
    assert archaea(state, 0, *C) == 1


def test_glowing_medusa_pays_two_and_banks_the_rest_and_with_two_must_grow():
    state = play(activating(at(C, "Glowing Medusa", 5)), "trigger")
    assert supply(state, 0) == 13 and archaea(state, 0, *C) == 0
    assert activating(at(C, "Glowing Medusa", 2)).legal_actions() == [{"type": "grow"}]


# -- Goblin Shark ----------------------------------------------------------------------------


def test_goblin_shark_grows_one_per_adjacent_rock():
    state = activating(
        at(NW, "Deep Vent"), at(NE, "Yeti Crab"), at(W, "White Smoker"), at(C, "Goblin Shark")
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 2


def test_goblin_shark_strips_a_shell_then_attacks_for_one():
    state = play(activating(at(C, "Goblin Shark", 3), shells={1: 2}), "trigger")
    assert shells(state, 1) == 1 and state.current_player == 1
    play(state, "shell")  # a shell blocks 1, rounded up: nothing lost
    assert shells(state, 1) == 0 and supply(state, 1) == 11
    state = play(activating(at(C, "Goblin Shark", 3), shells={1: 1}), "trigger")
    assert shells(state, 1) == 0 and supply(state, 1) == 10


# -- Gulper Eel ------------------------------------------------------------------------------


def test_gulper_eel_swallows_all_the_archaea_of_one_adjacent_hex_of_your_choice():
    state = activating(
        at(NW, "Deep Vent", 4),
        at(NE, "Porous Rock"),
        at(W, "White Smoker", 7),
        at(C, "Gulper Eel", 5),
    )
    assert offered(state, "grow") == [
        {"type": "grow", "q": 0, "r": -1},
        {"type": "grow", "q": -1, "r": 0},
    ]
    with pytest.raises(IllegalAction, match="name it by q and r"):
        state.apply({"type": "grow"})
    play(state, {"type": "grow", "q": -1, "r": 0})
    assert archaea(state, 0, *C) == 10 and archaea(state, 0, *W) == 0  # 12, capped at 10
    assert archaea(state, 0, *NW) == 4


def test_gulper_eel_may_swallow_a_decimated_neighbours_archaea():
    state = activating(at(NW, "Deep Vent", 3, decimated=True), at(C, "Gulper Eel"))
    assert state.legal_actions() == [{"type": "grow", "q": 0, "r": -1}]
    play(state, {"type": "grow", "q": 0, "r": -1})
    assert archaea(state, 0, *C) == 3


def test_gulper_eel_with_nothing_to_swallow_grows_plainly():
    assert activating(at(NW, "Deep Vent"), at(C, "Gulper Eel")).legal_actions() == [
        {"type": "grow"}
    ]


def test_gulper_eel_deals_two():
    state = play(activating(at(C, "Gulper Eel", 3)), "trigger")
    assert supply(state, 1) == 9


# -- Isopod Swarm ------------------------------------------------------------------------------


def test_isopod_swarm_grows_nothing_and_triggers_for_a_shell_and_the_rest():
    state = play(activating(at(C, "Isopod Swarm", 4)), "grow")
    assert archaea(state, 0, *C) == 4
    state = play(activating(at(C, "Isopod Swarm", 4)), "trigger")
    assert shells(state, 0) == 1 and supply(state, 0) == 13 and archaea(state, 0, *C) == 0


# -- Lanternfish -----------------------------------------------------------------------------


def test_lanternfish_grows_one_per_adjacent_predation():
    state = activating(
        at(NW, "Goblin Shark"), at(NE, "Anglerfish"), at(W, "Porous Rock"), at(C, "Lanternfish")
    )
    play(state, "grow")
    assert archaea(state, 0, *C) == 2


def test_lanternfish_pays_one_per_neighbour_and_feeds_each():
    state = activating(
        at(NW, "Porous Rock", 1), at(W, "Deep Vent", 3, decimated=True), at(C, "Lanternfish", 5)
    )
    play(state, "trigger")
    assert archaea(state, 0, *C) == 3
    assert archaea(state, 0, *NW) == 2 and archaea(state, 0, *W) == 4


def test_lanternfish_with_every_neighbour_at_ten_must_grow():
    state = activating(at(NW, "Porous Rock", 10), at(C, "Lanternfish", 5))
    assert state.legal_actions() == [{"type": "grow"}]


# -- Porous Rock -----------------------------------------------------------------------------


def test_porous_rock_grows_one_and_buys_a_shell_for_one():
    state = play(activating(at(C, "Porous Rock", 2)), "grow")
    assert archaea(state, 0, *C) == 3
    state = play(activating(at(C, "Porous Rock", 2)), "trigger")
    assert archaea(state, 0, *C) == 1 and shells(state, 0) == 1


# -- Towering Smoker ---------------------------------------------------------------------------


def test_towering_smoker_grows_by_its_track_and_banks_then_moves_the_track_up():
    state = play(activating(at(C, "Towering Smoker", 8, track=3)), "grow")
    assert archaea(state, 0, *C) == 10  # 11, capped at 10
    state = play(activating(at(C, "Towering Smoker", 4, track=3)), "trigger")
    assert supply(state, 0) == 14 and player(state, 0)["hexes"][0]["track"] == 4
    state = play(activating(at(C, "Towering Smoker", 4, track=5)), "trigger")
    assert player(state, 0)["hexes"][0]["track"] == 5


# -- Undersea Volcano and decimation -----------------------------------------------------------


def test_undersea_volcano_grows_one_and_below_five_cannot_trigger():
    state = activating(at(C, "Undersea Volcano", 4))
    assert state.legal_actions() == [{"type": "grow"}]
    play(state, "grow")
    assert archaea(state, 0, *C) == 5 and not player(state, 0)["hexes"][0]["decimated"]


def test_undersea_volcano_at_five_erupts_by_itself_and_isopod_swarms_feed_on_decimation():
    state = table(
        3,
        ecosystems={
            0: [at(NW, "Porous Rock", 1), at(NE, "Isopod Swarm"), at(C, "Undersea Volcano", 7)],
            1: [at(C, "Deep Vent", 4), at(E, "Isopod Swarm", 3)],
            2: [at(C, "Deep Vent", decimated=True), at(E, "Isopod Swarm", 7)],
        },
    )
    turn(state, 0)
    play(state, "grow")  # the Porous Rock; the Isopod Swarm cannot trigger, so it grew
    # The volcano erupted without a decision: decimated, half of 7 rounded up kept.
    volcano = player(state, 0)["hexes"][2]
    assert volcano["decimated"] and volcano["archaea"] == 0 and supply(state, 0) == 15 + 4
    # Seat 0 decimating its own volcano fed its opponents' Isopod Swarms (seat 2's to the cap).
    assert archaea(state, 1, *E) == 8 and archaea(state, 2, *E) == 10
    assert state.current_player == 1
    assert state.legal_actions() == [
        {"type": "decimate", "q": 0, "r": 0},
        {"type": "decimate", "q": 1, "r": 0},
    ]
    play(state, {"type": "decimate", "q": 0, "r": 0})
    assert supply(state, 1) == 16 + 2
    # Seat 2's only face-up hex is its Isopod Swarm: decimated without a decision (10 -> 5).
    assert player(state, 2)["hexes"][1]["decimated"] and supply(state, 2) == 17 + 5
    # Each of those decimations fed the other seats' Isopod Swarms.
    assert archaea(state, 0, *NE) == 10 and archaea(state, 1, *E) == 10


def test_a_decimated_hex_cannot_be_decimated_again():
    state = activating(
        at(NW, "Porous Rock", 1),
        at(C, "Undersea Volcano", 5),
        opponents={1: [at(C, "Deep Vent", 5, decimated=True), at(E, "White Smoker", 5)]},
    )
    play(state, "trigger")
    assert player(state, 1)["hexes"][1]["decimated"] and supply(state, 1) == 11 + 3


# -- Vampire Squid -------------------------------------------------------------------------------


def test_vampire_squid_deals_one_and_gains_one():
    state = play(activating(at(C, "Vampire Squid", 4)), "trigger")
    assert supply(state, 1) == 10 and supply(state, 0) == 11 and archaea(state, 0, *C) == 2
    assert state.legal_actions() == [{"type": "done"}, {"type": "trigger"}]
    state = play(activating(at(C, "Vampire Squid", 4)), "grow")
    assert archaea(state, 0, *C) == 4


def test_vampire_squid_gains_one_each_time_you_trigger_an_adjacent_hex():
    state = activating(
        at(NW, "Vampire Squid"),
        at(NE, "Vampire Squid", decimated=True),
        at(W, "Vampire Squid", 10),
        at(C, "Porous Rock", 3),
        at(SE, "Vampire Squid"),
    )
    play(state, "trigger", "trigger", "done")
    assert archaea(state, 0, *NW) == 2 and archaea(state, 0, *SE) == 2
    assert archaea(state, 0, *NE) == 0 and archaea(state, 0, *W) == 10


def test_a_passive_set_off_is_not_an_effect_of_the_trigger():
    # Triggering the empty Deep Vent would only feed the Vampire Squid next to it.
    state = activating(at(NW, "Vampire Squid"), at(C, "Deep Vent"))
    assert state.legal_actions() == [{"type": "grow"}]


def test_vampire_squid_gains_after_the_trigger_it_answers():
    # The Colossal Squid empties the Vampire Squid; the archaeon for the trigger comes after.
    state = activating(at(NW, "Vampire Squid", 5), at(C, "Colossal Squid"))
    play(state, {"type": "trigger", "q": 0, "r": -1})
    assert archaea(state, 0, *NW) == 1


def test_vampire_squid_answers_an_eruption_too():
    state = activating(at(NW, "Vampire Squid"), at(C, "Undersea Volcano", 5))
    play(state, "trigger")
    assert archaea(state, 0, *NW) == 1


# -- the rulebook's examples ---------------------------------------------------------------


def test_the_rulebooks_grow_example():
    # An ecosystem matching the example's words: the Yeti Crab touches 3 heat and 2 rock, the
    # Goblin Shark 2 rock, the Lanternfish 1 predation, the Scaly-Foot Snail 2 heat and 1 rock.
    state = table(
        ecosystems={
            0: [
                at(C, "Deep Vent"),
                at((1, 0), "Yeti Crab"),
                at((1, -1), "Goblin Shark"),
                at((2, -1), "White Smoker"),
                at((1, 1), "Porous Rock", decimated=True),
                at((0, -1), "Lanternfish"),
                at((2, 0), "Scaly-Foot Snail"),
            ]
        }
    )
    turn(state, 0)
    play(state, "grow")  # nothing here can trigger yet, so growing one grows them all
    grown = {h["name"]: h["archaea"] for h in player(state, 0)["hexes"]}
    assert grown == {
        "Deep Vent": 2,
        "Yeti Crab": 5,
        "Goblin Shark": 2,
        "White Smoker": 2,
        "Porous Rock": 0,
        "Lanternfish": 1,
        "Scaly-Foot Snail": 3,
    }


# The trigger example's ecosystem, numbered as the rulebook numbers it (reading order).
TRIGGER_EXAMPLE = [
    ("Deep Vent", (0, 0)),
    ("Yeti Crab", (1, 0)),
    ("Goblin Shark", (2, 0)),
    ("White Smoker", (3, 0)),
    ("Porous Rock", (0, 1)),
    ("Lanternfish", (2, 1)),
    ("Scaly-Foot Snail", (3, 1)),
]


def trigger_example(**kwargs):
    hexes = [at(p, name, 5, decimated=(name == "Porous Rock")) for name, p in TRIGGER_EXAMPLE]
    return table(ecosystems={0: hexes}, **kwargs)


@pytest.mark.parametrize(
    "number, expected",
    [
        (1, {"left": 0, "supply": 15}),
        (2, {"left": 2, "shells": 1, "damage": 1}),
        (3, {"left": 2, "opponent_shells": 1, "damage": 1}),
        (4, {"left": 0, "supply": 15}),
        (6, {"left": 2, "fed": ["Goblin Shark", "White Smoker", "Scaly-Foot Snail"]}),
        (7, {"left": 1, "shells": 1, "track": 2}),
    ],
)
def test_the_rulebooks_trigger_examples_each_from_five_archaea(number, expected):
    state = turn(trigger_example(shells={1: 2}), 0, at=TRIGGER_EXAMPLE[number - 1][1])
    play(state, "trigger")
    if state.view(None).get("pending"):
        play(state, "no_shell")
    mine = {h["name"]: h for h in player(state, 0)["hexes"]}
    name = TRIGGER_EXAMPLE[number - 1][0]
    assert mine[name]["archaea"] == expected["left"]
    assert supply(state, 0) == expected.get("supply", 10)
    assert shells(state, 0) == expected.get("shells", 0)
    assert shells(state, 1) == expected.get("opponent_shells", 2)
    assert supply(state, 1) == 11 - expected.get("damage", 0)
    for fed in expected.get("fed", []):
        assert mine[fed]["archaea"] == 6
    if "track" in expected:
        assert mine[name]["track"] == expected["track"]


def test_the_rulebooks_trigger_example_5_a_decimated_hex_cannot_be_triggered():
    state = turn(trigger_example(), 0, at=(3, 0))
    play(state, "trigger")  # the White Smoker, 4th
    # The activation passes over the decimated 5th: the Lanternfish is up.
    assert active(state) == (2, 1)
    assert archaea(state, 0, 0, 1) == 5


def test_the_rulebooks_trigger_example_played_through_in_order():
    state = turn(trigger_example(), 0)
    seen = []
    while state.current_player == 0 and active(state):
        seen.append(active(state))
        play(state, "trigger")
    assert seen == [p for name, p in TRIGGER_EXAMPLE if name != "Porous Rock"]
    left = {h["name"]: h["archaea"] for h in player(state, 0)["hexes"]}
    # Played in order, the Lanternfish feeds the White Smoker after it banked, and the Snail
    # before it triggers: so the Snail keeps 2, not the 1 it keeps from 5.
    assert left == {
        "Deep Vent": 0,
        "Yeti Crab": 2,
        "Goblin Shark": 3,
        "White Smoker": 1,
        "Porous Rock": 5,
        "Lanternfish": 2,
        "Scaly-Foot Snail": 2,
    }
    assert supply(state, 0) == 20 and shells(state, 0) == 2
    assert supply(state, 1) == 9
