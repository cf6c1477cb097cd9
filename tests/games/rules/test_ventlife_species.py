"""Ventlife, species by species: where each is placed, where it goes when a tile covers it, and
how it scores; then the Yeti Crabs' plateaus with first and second place and their ties, and
the order in which covered creatures move.

The pictures are those of test_ventlife.py: the small floor of seven "BD" tiles (a Black Smoker
where (q - r) mod 3 is 0, Basalt Ridge where it is 1, Diffuse Vents where it is 2), and the
plateau of two "BB" tiles at level 2 over (0, 0), (-1, 1), (-1, 0) and (1, 1), (0, 1), (1, 0).
"Raising the middle" is seat 0 placing a tile with its smoker on (0, 0) in rotation 2, which
covers (0, 0), (-1, 1) and (-1, 0) (three different floor tiles).
"""

from __future__ import annotations

from tests.games.rules.test_ventlife import (
    FIRST_GAME,
    INSIDE,
    PLATEAU,
    SMALL_FLOOR,
    at,
    game,
    hexes,
    lay,
    move,
    place,
    place_tile,
    plateau,
    play,
    put,
    refused,
    scores,
    small_floor,
    spots,
    supply,
    turn,
)

SMOKERS = sorted(SMALL_FLOOR, key=lambda p: (p[1], p[0]))
BASALT = [(1, 0), (2, 1), (0, -1), (2, -2), (0, 2), (3, -1), (-1, 1)]
DIFFUSE = [(0, 1), (1, 2), (-1, 0), (1, -1), (-1, 3), (2, 0), (-2, 2)]
OCTOPUS_GAME = ["tube-worms", "blind-shrimp", "octopus", "sponges"]
FISH_GAME = ["tube-worms", "blind-shrimp", "eelpout", "yeti-crabs"]


def reading(spaces):
    return sorted(spaces, key=lambda p: (p[1], p[0]))


def floor_game(players=2, species=FIRST_GAME, step="tile"):
    return turn(small_floor(game(players, species)), 0, step)


def moves(state):
    return [(a["q"], a["r"]) for a in state.legal_actions()]


def raise_the_middle(state):
    return play(state, place_tile(0, 0, 2))


def test_the_small_floor_is_as_the_pictures_say():
    field = hexes(floor_game())
    assert len(field) == 21
    assert reading(p for p, h in field.items() if h["terrain"] == "black-smoker") == SMOKERS
    assert {p for p, h in field.items() if h["terrain"] == "basalt-ridge"} == set(BASALT)
    assert {p for p, h in field.items() if h["terrain"] == "diffuse-vents"} == set(DIFFUSE)
    assert {p for p, h in field.items() if not h["edge"]} == INSIDE
    raised = hexes(plateau(floor_game()))
    assert {p for p, h in raised.items() if h["level"] == 2} == PLATEAU


# -- Giant Tube Worms ----------------------------------------------------------------------------


def test_tube_worms_go_only_on_empty_black_smokers():
    state = put(floor_game(step="creatures"), "blind-shrimp", 1, (1, 1))
    assert spots(state, "tube-worms") == [p for p in SMOKERS if p != (1, 1)]
    refused(state, place("tube-worms", 1, 0), "Tube Worms go only on Black Smokers")
    refused(state, place("tube-worms", 1, 1), r"\(1, 1\) is not empty")


def test_two_tube_worms_may_share_a_seafloor_smoker_placed_the_same_turn():
    state = play(floor_game(step="creatures"), place("tube-worms", 0, 0))
    assert (0, 0) in spots(state, "tube-worms")
    play(state, place("tube-worms", 0, 0))
    assert at(state, 0, 0) == [("tube-worms", 0), ("tube-worms", 0)]
    assert (0, 0) not in spots(state, "tube-worms")
    assert supply(state, 0, "tube-worms") == 4


def test_a_worm_from_an_earlier_turn_takes_no_second():
    state = put(floor_game(step="creatures"), "tube-worms", 0, (0, 0))
    assert (0, 0) not in spots(state, "tube-worms")
    refused(
        state,
        place("tube-worms", 0, 0),
        "a second Tube Worm may join only the one you placed on a seafloor smoker this turn",
    )


def test_above_the_seafloor_one_tube_worm_per_smoker():
    state = turn(plateau(small_floor(game())), 0, "creatures")
    assert {(0, 0), (1, 1)} <= set(spots(state, "tube-worms"))
    play(state, place("tube-worms", 1, 1))
    assert (1, 1) not in spots(state, "tube-worms")


def test_tube_worms_climb_a_stacked_smoker_and_others_covered_go_back_to_supply():
    # Two seafloor tiles whose smokers touch: (0, 0) with (1, 0) and (0, 1); (-1, 0) with
    # (-1, 1) and (-2, 1).
    state = lay(lay(game(), "BD", 0, 0, 0), "BD", -1, 0, 1)
    put(state, "tube-worms", 0, (0, 0), (0, 0))
    put(state, "tube-worms", 1, (-1, 0))
    turn(state, 0)
    # The new smoker goes on (0, 0); a Basalt Ridge hex covers the smoker at (-1, 0).
    raise_the_middle(state)
    assert hexes(state)[(0, 0)]["level"] == 2
    assert at(state, 0, 0) == [("tube-worms", 0), ("tube-worms", 0)]
    assert at(state, -1, 0) == []
    assert supply(state, 1, "tube-worms") == 6 and supply(state, 0, "tube-worms") == 4
    assert state.view(None)["phase"] == "creatures" and state.current_player == 0
    assert scores(state)[0]["tube-worms"] == 4


def test_each_tube_worm_scores_the_level_of_its_smoker():
    state = plateau(floor_game())
    lay(state, "BB", 0, 0, 0)  # (0, 0) at level 3
    put(state, "tube-worms", 0, (0, 0), (1, 1))
    put(state, "tube-worms", 1, (-1, -1), (2, -1), (2, -1))
    assert [s["tube-worms"] for s in scores(state)] == [3 + 2, 1 + 1 + 1]


# -- Volcano Snails ------------------------------------------------------------------------------


def test_one_to_three_volcano_snails_on_connected_basalt_ridge():
    state = turn(small_floor(game(), "BB"), 0, "creatures")
    assert len(spots(state, "volcano-snails")) == 14  # every hex but the seven smokers
    play(state, place("volcano-snails", 1, 0))
    assert spots(state, "volcano-snails") == [(1, -1), (2, 0), (0, 1)]
    refused(state, place("volcano-snails", -1, 0), "the snails of one turn must be connected")
    play(state, place("volcano-snails", 0, 1))
    assert spots(state, "volcano-snails") == [(1, -1), (2, 0), (-1, 1), (0, 2)]
    play(state, place("volcano-snails", 0, 2))
    # The third snail ends the step: the turn goes on to the draw.
    assert state.view(None)["phase"] == "draw"
    assert supply(state, 0, "volcano-snails") == 3


def test_volcano_snails_only_on_basalt_ridge():
    state = floor_game(step="creatures")
    assert spots(state, "volcano-snails") == reading(BASALT)
    refused(state, place("volcano-snails", 0, 1), "Volcano Snails go only on Basalt Ridge")


def test_connected_snails_may_be_at_different_levels():
    state = turn(lay(small_floor(game(), "BB"), "BB", 0, 0, 2), 0, "creatures")
    play(state, place("volcano-snails", 0, -1))
    assert (-1, 0) in spots(state, "volcano-snails")
    play(state, place("volcano-snails", -1, 0))
    assert hexes(state)[(-1, 0)]["level"] == 2


def test_a_covered_snail_goes_down_to_a_neighbouring_hex_of_its_owners_choice():
    state = put(turn(plateau(small_floor(game())), 0), "volcano-snails", 1, (1, 0))
    play(state, place_tile(0, 0, 0))  # level 3 over (0, 0), (1, 0), (0, 1)
    view = state.view(None)
    assert view["phase"] == "move" and state.current_player == 1
    assert view["pending"] == [
        {"species": "volcano-snails", "owner": 1, "q": 1, "r": 0, "level": 2}
    ]
    # Lower than level 2, any terrain, a smoker too; not (1, 1), which is at level 2.
    assert moves(state) == [(1, -1), (2, -1), (2, 0)]
    play(state, move(2, -1))
    assert at(state, 2, -1) == [("volcano-snails", 1)]
    assert state.view(None)["phase"] == "creatures" and state.current_player == 0


def test_a_snail_covered_on_the_seafloor_has_nowhere_lower_and_goes_back_to_supply():
    state = put(floor_game(), "volcano-snails", 1, (-1, 0))
    assert supply(state, 1, "volcano-snails") == 5
    raise_the_middle(state)
    assert supply(state, 1, "volcano-snails") == 6
    assert all(("volcano-snails", 1) not in at(state, *p) for p in hexes(state))
    assert state.view(None)["phase"] == "creatures"


def test_a_volcano_snail_scores_each_neighbour_at_another_level():
    state = plateau(floor_game())
    # (-1, 0) at level 2: (-2, 1), (-1, -1), (0, -1) are at level 1; (-2, 0) has no tile.
    # (2, 0) at level 1: (1, 1) and (1, 0) are at level 2.
    put(state, "volcano-snails", 0, (-1, 0), (2, 0))
    put(state, "volcano-snails", 1, (1, -2))
    assert [s["volcano-snails"] for s in scores(state)] == [3 + 2, 0]


# -- Blind Vent Shrimp ---------------------------------------------------------------------------


def test_blind_vent_shrimp_go_anywhere_but_basalt_ridge():
    state = floor_game(step="creatures")
    assert spots(state, "blind-shrimp") == reading(SMOKERS + DIFFUSE)
    refused(state, place("blind-shrimp", 2, 1), "Blind Vent Shrimp never go on Basalt Ridge")


def test_a_covered_shrimp_moves_next_door_off_basalt_ridge():
    state = put(floor_game(), "blind-shrimp", 1, (-1, 0))
    raise_the_middle(state)
    # (0, -1) is Basalt Ridge; (0, 0) and (-1, 1) are the new tile; (-2, 0) has no tile.
    assert state.current_player == 1 and moves(state) == [(-1, -1), (-2, 1)]
    refused(
        state,
        move(0, -1),
        r"the Blind Vent Shrimp of seat 1 covered at \(-1, 0\) can go "
        r"to \(-1, -1\), \(-2, 1\)",
    )
    play(state, move(-2, 1))
    assert at(state, -2, 1) == [("blind-shrimp", 1)]


def test_a_covered_shrimp_with_one_empty_place_goes_there_without_a_decision():
    state = put(floor_game(), "blind-shrimp", 1, (-1, 0))
    put(state, "tube-worms", 0, (-1, -1))
    raise_the_middle(state)
    assert at(state, -2, 1) == [("blind-shrimp", 1)]
    assert state.view(None)["phase"] == "creatures" and state.current_player == 0


def test_a_shrimp_scores_two_next_to_diffuse_vents_or_microbial_mat_and_five_next_to_both():
    state = lay(floor_game(), "MM", 0, 0, 2)  # Microbial Mat up on (-1, 1) and (-1, 0)
    put(state, "blind-shrimp", 0, (-2, 1), (-1, -1))  # both; Mat only
    put(state, "blind-shrimp", 1, (1, -1), (1, 1))  # neither; Diffuse Vents only
    assert [s["blind-shrimp"] for s in scores(state)] == [5 + 2, 0 + 2]


# -- Eelpout Fish --------------------------------------------------------------------------------

SEAFLOOR_NOT_SMOKERS = [
    (0, -1),
    (2, -2),
    (1, -1),
    (0, 2),
    (-1, 3),
    (3, -1),
    (2, 0),
    (2, 1),
    (1, 2),
    (-2, 2),
]


def test_eelpout_go_on_the_seafloor_or_next_to_their_own_fish_and_a_shoal_grows_as_placed():
    state = turn(plateau(small_floor(game(species=FISH_GAME))), 0, "creatures")
    put(state, "eelpout", 1, (-2, 2))  # next to (-1, 1) up on the plateau: not seat 0's fish
    assert spots(state, "eelpout") == reading(p for p in SEAFLOOR_NOT_SMOKERS if p != (-2, 2))
    play(state, place("eelpout", 1, -1))
    assert (1, 0) in spots(state, "eelpout")  # up on the plateau, next to (1, -1)
    assert (0, 0) not in spots(state, "eelpout")  # a smoker, though next to it
    play(state, place("eelpout", 1, 0))
    assert (0, 1) in spots(state, "eelpout")  # next to the fish just placed
    refused(
        state,
        place("eelpout", -1, 0),
        "Eelpout Fish go on the seafloor or next to one of your Fish",
    )
    refused(state, place("eelpout", 2, -1), "Eelpout Fish never go on a smoker")


def test_a_covered_eelpout_may_not_go_up_nor_onto_a_smoker():
    state = lay(small_floor(game(species=FISH_GAME)), "BB", 1, 1, 3)  # (0, 1) at level 2
    put(state, "eelpout", 1, (-1, 1))
    raise_the_middle(turn(state, 0))
    # (0, 1) is higher, (-1, 2) and (-2, 1) are smokers: (-2, 2) is the one place.
    assert at(state, -2, 2) == [("eelpout", 1)]


def test_a_covered_eelpout_goes_to_the_same_or_a_lower_level():
    state = put(turn(plateau(small_floor(game(species=FISH_GAME))), 0), "eelpout", 1, (1, 0))
    play(state, place_tile(0, 0, 0))
    # From level 2: (1, -1) and (2, 0) below; (1, 1) and (2, -1) are smokers.
    assert state.current_player == 1 and moves(state) == [(1, -1), (2, 0)]
    state = put(turn(small_floor(game(species=FISH_GAME)), 0), "eelpout", 1, (-1, 0))
    raise_the_middle(state)
    assert at(state, 0, -1) == [("eelpout", 1)]  # the same level, Basalt Ridge


def test_each_shoal_scores_by_its_size_and_a_lone_fish_scores_nothing():
    state = plateau(small_floor(game(species=FISH_GAME)))
    # Seat 0: three connected across levels ((1, -1) on the floor, (1, 0) and (0, 1) up),
    # and a lone fish at (-1, 3). Seat 1: two at (2, 1) and (1, 2), not joined to seat 0's.
    put(state, "eelpout", 0, (1, -1), (1, 0), (0, 1), (-1, 3))
    put(state, "eelpout", 1, (2, 1), (1, 2))
    assert [s["eelpout"] for s in scores(state)] == [10, 5]
    put(state, "eelpout", 0, (2, 0))
    assert scores(state)[0]["eelpout"] == 15  # a shoal of four
    put(state, "eelpout", 0, (0, 2))  # joins the lone fish: six in one shoal
    assert scores(state)[0]["eelpout"] == 25


# -- Yeti Crabs ----------------------------------------------------------------------------------


def test_yeti_crabs_go_only_above_the_seafloor_smokers_included():
    state = turn(plateau(small_floor(game())), 0, "creatures")
    assert spots(state, "yeti-crabs") == reading(PLATEAU)
    refused(state, place("yeti-crabs", 2, 0), "Yeti Crabs go only above the seafloor")


def test_a_covered_crab_moves_at_its_level_by_itself_when_there_is_one_place():
    state = put(turn(plateau(small_floor(game())), 0), "yeti-crabs", 1, (1, 0))
    play(state, place_tile(0, 0, 0))
    # (1, 1) is the only level-2 hex next to (1, 0) outside the new tile.
    assert at(state, 1, 1) == [("yeti-crabs", 1)]
    assert state.view(None)["phase"] == "creatures" and state.current_player == 0


def test_a_covered_crab_with_no_empty_hex_at_its_level_goes_back_to_supply():
    state = put(turn(plateau(small_floor(game())), 0), "yeti-crabs", 1, (0, 1))
    put(state, "yeti-crabs", 0, (1, 1), (-1, 1))
    play(state, place_tile(0, 0, 0))
    assert supply(state, 1, "yeti-crabs") == 6
    assert state.view(None)["phase"] == "creatures"


# -- plateaus --------------------------------------------------------------------------------


def crabs_on_the_plateau(players, crabs):
    """The Yeti Crab scores with ``crabs`` (seat -> spaces) on the two-tile plateau."""
    state = plateau(small_floor(game(players)))
    for seat, spaces in crabs.items():
        put(state, "yeti-crabs", seat, *spaces)
    return [s["yeti-crabs"] for s in scores(state)]


def test_most_crabs_score_the_plateau_and_second_most_half():
    assert crabs_on_the_plateau(3, {0: [(0, 0), (1, 0)], 1: [(-1, 0)]}) == [6, 3, 0]


def test_a_tie_for_first_scores_in_full_and_awards_no_second_place():
    assert crabs_on_the_plateau(3, {0: [(0, 0), (1, 0)], 1: [(1, 1), (0, 1)], 2: [(-1, 0)]}) == [
        6,
        6,
        0,
    ]


def test_a_tie_for_second_scores_half_each():
    assert crabs_on_the_plateau(3, {0: [(0, 0), (1, 0)], 1: [(-1, 0)], 2: [(0, 1)]}) == [6, 3, 3]


def test_a_lone_crab_scores_the_plateau_and_half_is_rounded_down():
    assert crabs_on_the_plateau(2, {0: [(0, 0)]}) == [6, 0]
    state = lay(small_floor(game()), "BB", 0, 0, 2)  # one tile up: a plateau of 3
    put(state, "yeti-crabs", 0, (0, 0), (-1, 0))
    put(state, "yeti-crabs", 1, (-1, 1))
    assert [s["yeti-crabs"] for s in scores(state)] == [3, 1]


def test_each_level_makes_its_own_plateaus():
    state = lay(plateau(small_floor(game())), "BB", 0, 0, 0)
    # Level 3: (0, 0), (1, 0), (0, 1). Level 2 is left in two parts: (-1, 1) with (-1, 0),
    # and (1, 1) alone.
    put(state, "yeti-crabs", 0, (0, 0))
    put(state, "yeti-crabs", 1, (-1, 0), (1, 1))
    assert [s["yeti-crabs"] for s in scores(state)] == [3, 2 + 1]


# -- Deep-Sea Octopus ----------------------------------------------------------------------------


def test_an_octopus_goes_on_an_edge_hex():
    state = floor_game(species=OCTOPUS_GAME, step="creatures")
    assert spots(state, "octopus") == reading(set(hexes(state)) - INSIDE)
    refused(
        state,
        place("octopus", 1, 0),
        r"an Octopus goes only on an edge hex \(next to a "
        r"space with no tile\)",
    )


def test_a_covered_octopus_swims_straight_to_the_edge_in_a_direction_its_owner_chooses():
    state = put(floor_game(species=OCTOPUS_GAME), "octopus", 1, (0, 0))
    raise_the_middle(state)
    # E to (2, 0), SE to (0, 2), SW across the new tile to (-2, 2), NW to (0, -1), NE to
    # (2, -2); W stops at once on (-1, 0), which is the new tile.
    assert state.current_player == 1
    assert moves(state) == [(2, -2), (0, -1), (2, 0), (-2, 2), (0, 2)]
    play(state, move(-2, 2))
    assert at(state, -2, 2) == [("octopus", 1)]


def test_a_covered_octopus_may_not_end_on_an_occupied_hex():
    state = put(floor_game(species=OCTOPUS_GAME), "octopus", 1, (0, 0))
    put(state, "sponges", 0, (0, -1), (2, 0))
    raise_the_middle(state)
    assert moves(state) == [(2, -2), (-2, 2), (0, 2)]


def test_an_octopus_scores_two_for_each_other_species_around_it():
    state = floor_game(species=OCTOPUS_GAME)
    put(state, "octopus", 0, (0, 0))
    put(state, "blind-shrimp", 1, (0, 1))
    put(state, "blind-shrimp", 0, (1, -1))
    put(state, "sponges", 1, (-1, 0))
    put(state, "octopus", 1, (0, -1))
    put(state, "tube-worms", 0, (-1, -1))
    # (0, 0): shrimp and sponges (the octopus beside it does not count).
    # (0, -1): shrimp, sponges and Tube Worms.
    assert [s["octopus"] for s in scores(state)] == [4, 6]


# -- Vent Sponges --------------------------------------------------------------------------------


def test_sponges_go_on_any_empty_hex():
    state = put(floor_game(species=OCTOPUS_GAME, step="creatures"), "octopus", 1, (-1, 0))
    assert spots(state, "sponges") == reading(p for p in hexes(state) if p != (-1, 0))


def test_covered_sponges_always_go_back_to_supply():
    state = put(floor_game(species=OCTOPUS_GAME), "sponges", 1, (-1, 0))
    raise_the_middle(state)
    assert supply(state, 1, "sponges") == 6
    assert state.view(None)["phase"] == "creatures" and state.current_player == 0


def test_a_sponge_scores_two_for_each_different_terrain_around_it():
    state = lay(floor_game(species=OCTOPUS_GAME), "MM", 0, 0, 2)
    put(state, "sponges", 0, (0, -1))  # Diffuse Vents, Black Smokers, Microbial Mat
    put(state, "sponges", 1, (1, 0))  # Diffuse Vents and Black Smokers only
    assert [s["sponges"] for s in scores(state)] == [6, 4]


# -- the order of covered creatures ----------------------------------------------------------


def test_covered_creatures_move_the_current_players_first_then_in_turn_order():
    state = small_floor(game(3, FISH_GAME))
    put(state, "blind-shrimp", 0, (-1, 0))
    put(state, "blind-shrimp", 1, (0, 0))
    put(state, "eelpout", 2, (-1, 1))
    raise_the_middle(turn(state, 1))
    assert [(c["owner"], c["species"]) for c in state.view(None)["pending"]] == [
        (1, "blind-shrimp"),
        (2, "eelpout"),
        (0, "blind-shrimp"),
    ]
    assert state.current_player == 1 and moves(state) == [(1, -1), (0, 1)]
    play(state, move(0, 1))
    # Seat 2's fish could have gone to (0, 1) too; now (-2, 2) is its one place.
    assert at(state, -2, 2) == [("eelpout", 2)]
    assert state.current_player == 0 and moves(state) == [(-1, -1), (-2, 1)]
    play(state, move(-1, -1))
    assert state.view(None)["phase"] == "creatures" and state.current_player == 1


def test_one_seats_covered_creatures_move_smoker_first_then_clockwise_round_the_tile():
    state = small_floor(game(2, FISH_GAME))
    # The new tile's hexes in order: its smoker (0, 0), then (-1, 1), then (-1, 0).
    put(state, "blind-shrimp", 1, (-1, 0), (0, 0))
    put(state, "eelpout", 1, (-1, 1))
    raise_the_middle(turn(state, 0))
    assert [(c["q"], c["r"]) for c in state.view(None)["pending"]] == [(0, 0), (-1, 1), (-1, 0)]
    assert state.current_player == 1 and moves(state) == [(1, -1), (0, 1)]
