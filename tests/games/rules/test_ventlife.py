"""Ventlife, the game around the species: choosing the species (first game, chosen, random,
draft), the hidden tiles and the draws, placing tiles on the seafloor and up on plateaus with
their rotations, the order of a turn, the end with equal turns, the tie-breaks and illegal
actions. Each species' placement, covered move and scoring are in test_ventlife_species.py.

Scenarios are set up like the rules' pictures: ``game`` deals known tiles; ``lay`` puts tiles
on the field without the placement rules (as a picture would show them); ``put`` puts
creatures on it; ``turn`` hands a seat a step of its turn. Then the test plays actions through
the public interface.

The usual picture is ``small_floor``: seven "BD" tiles flat on the table, 21 hexes around the
middle, where the terrain of (q, r) follows (q - r) mod 3: 0 a Black Smoker (the seven tile
smokers (0, 0), (1, 1), (-1, -1), (1, -2), (-1, 2), (2, -1), (-2, 1)), 1 Basalt Ridge,
2 Diffuse Vents. Six hexes are inside ((0, 0), (1, 0), (0, 1), (-1, 1), (1, -1), (1, 1)); the
other fifteen are edge hexes. ``plateau`` raises six of them to level 2 with two tiles:
(0, 0), (-1, 1), (-1, 0) and (1, 1), (0, 1), (1, 0).
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from games.rules import CHANCE, TERMINAL, IllegalAction, get_rules, hexgrid
from games.rules import ventlife as vl
from games.rules import ventlife_data as data
from games.rules.base import ranks_from_keys

FIRST_GAME = list(data.FIRST_GAME)
SMALL_FLOOR = [(0, 0), (1, 1), (-1, -1), (1, -2), (-1, 2), (2, -1), (-2, 1)]
INSIDE = {(0, 0), (1, 0), (0, 1), (-1, 1), (1, -1), (1, 1)}
PLATEAU = {(0, 0), (-1, 1), (-1, 0), (1, 1), (0, 1), (1, 0)}


# -- building pictures ---------------------------------------------------------------------------


def game(players=2, species=FIRST_GAME, hands=None):
    """A game with the species in play and each seat dealt its tile (default "BB"): seat 0 is
    to place its tile on an empty field."""
    state = vl.new_game(players, {"species": list(species)})
    for seat in range(players):
        tile = hands[seat] if hands else "BB"
        state.apply({"type": "draw", "seat": seat, "tile": tile})
    return state


def lay(state, kind, q, r, rotation=0):
    """Put a tile on the field as a picture shows it, without the placement rules (and without
    taking it from the bag)."""
    state._lay(vl._KIND[kind], q, r, rotation)
    return state


def small_floor(state, kind="BD"):
    for q, r in SMALL_FLOOR:
        lay(state, kind, q, r, 0)
    return state


def plateau(state, kind="BB"):
    """Two level-2 tiles on the small floor: six hexes at level 2 around the middle."""
    lay(state, kind, 0, 0, 2)
    lay(state, kind, 1, 1, 3)
    return state


def put(state, species, owner, *spaces):
    """Creatures from ``owner``'s supply onto ``spaces``."""
    sp = vl._SPECIES[species]
    for q, r in spaces:
        state._life[(q, r)] = state._life.get((q, r), ()) + ((sp, owner),)
        state._supply[owner][sp] -= 1
    return state


def turn(state, seat, step="tile"):
    """``seat`` at the start of ``step`` ("tile" or "creatures") of its turn."""
    state._current = state._decider = seat
    state._phase = step
    state._chosen = None
    state._placed = []
    state._new_tile = ()
    if state._hand[seat] is None:
        state._hand[seat] = vl._KIND["BB"]
    return state


def play(state, *actions):
    for action in actions:
        state.apply(dict(action))
    return state


def place_tile(q, r, rotation):
    return {"type": "place_tile", "q": q, "r": r, "rotation": rotation}


def place(species, q, r):
    return {"type": "place", "species": species, "q": q, "r": r}


def move(q, r):
    return {"type": "move", "q": q, "r": r}


def hexes(state):
    return {(h["q"], h["r"]): h for h in state.view(None)["field"]}


def at(state, q, r):
    """The creatures on (q, r) as (species, owner) pairs."""
    return [(c["species"], c["owner"]) for c in hexes(state)[(q, r)]["creatures"]]


def supply(state, seat, species):
    return state.view(None)["players"][seat]["supply"][species]


def offered(state, kind=None):
    legal = state.legal_actions()
    return [a for a in legal if kind is None or a["type"] == kind]


def spots(state, species):
    return [
        (a["q"], a["r"])
        for a in state.legal_actions()
        if a["type"] == "place" and a["species"] == species
    ]


def tile_spots(state):
    return {(a["q"], a["r"], a["rotation"]) for a in offered(state, "place_tile")}


def all_views(state):
    return json.dumps([state.view(s) for s in [None, *range(state.num_players)]], sort_keys=True)


def refused(state, action, message):
    """``action`` raises IllegalAction matching ``message`` and changes nothing."""
    before = all_views(state)
    legal = offered(state)
    with pytest.raises(IllegalAction, match=message):
        state.apply(action)
    assert all_views(state) == before and offered(state) == legal


def scores(state):
    """Per seat, the points of each species in play as the field stands."""
    table = state._score_table()
    return [{vl._IDS[sp]: points[sp] for sp in state._species} for points in table]


def finish(state):
    """The first legal action and the first chance outcome, until the game ends."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(state.legal_actions()[0])
    return state


# -- the game and its options ---------------------------------------------------------------


def test_the_game_is_registered_with_its_spec():
    rules = get_rules("ventlife")
    spec = rules.spec
    assert (spec.name, spec.min_players, spec.max_players) == ("Ventlife", 2, 4)
    assert spec.hidden_information and spec.chance
    option = spec.options[0]
    assert option.name == "species" and option.default == "first-game"
    assert option.choices == ("first-game", "random", "draft")
    assert option.subset_of == data.SPECIES_IDS and option.subset_size == 4


def test_the_first_game_species_are_the_default():
    state = vl.new_game(3)
    view = state.view(None)
    assert view["species"] == FIRST_GAME
    assert view["phase"] == "deal" and state.current_player == CHANCE
    for player in view["players"]:
        assert player["supply"] == {sid: 6 for sid in FIRST_GAME}
        assert player["holding"] is False


def test_the_table_creator_may_choose_any_four_species():
    state = vl.new_game(2, {"species": ["sponges", "octopus", "eelpout", "tube-worms"]})
    assert state.view(None)["species"] == ["tube-worms", "eelpout", "octopus", "sponges"]


@pytest.mark.parametrize(
    "species, message",
    [
        (["sponges", "octopus", "eelpout"], "exactly 4"),
        (["sponges", "octopus", "eelpout", "eelpout"], "the same item twice"),
        (["sponges", "octopus", "eelpout", "krill"], "'krill' is not one of"),
        ("all", "must be one of"),
    ],
)
def test_a_bad_choice_of_species_is_refused(species, message):
    with pytest.raises(ValueError, match=message):
        vl.new_game(2, {"species": species})


@pytest.mark.parametrize("players, message", [(1, "2 to 4 players"), (5, "2 to 4 players")])
def test_two_to_four_players(players, message):
    with pytest.raises(ValueError, match=message):
        vl.new_game(players)


def test_random_species_are_one_chance_event_over_every_set_of_four():
    state = vl.new_game(2, {"species": "random"})
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 35 and all(p == pytest.approx(1 / 35) for _, p in outcomes)
    assert {tuple(o["species"]) for o, _ in outcomes} == {
        c for c in itertools.combinations(data.SPECIES_IDS, 4)
    }
    play(state, {"type": "species", "species": ["blind-shrimp", "eelpout", "octopus", "sponges"]})
    view = state.view(None)
    assert view["species"] == ["blind-shrimp", "eelpout", "octopus", "sponges"]
    assert view["phase"] == "deal"


# -- the draft -----------------------------------------------------------------------------


def test_the_four_player_draft_picks_one_each_starting_with_the_last_player():
    state = vl.new_game(4, {"species": "draft"})
    assert state.view(None)["phase"] == "draft"
    seen = []
    for species in ("octopus", "sponges", "tube-worms", "eelpout"):
        seen.append(state.current_player)
        assert {"type": "pick", "species": species} in state.legal_actions()
        play(state, {"type": "pick", "species": species})
    assert seen == [3, 2, 1, 0]
    view = state.view(None)
    assert view["species"] == ["tube-worms", "eelpout", "octopus", "sponges"]
    assert view["draft"] == {
        "mode": "pick",
        "chosen": ["octopus", "sponges", "tube-worms", "eelpout"],
        "available": [],
    }
    assert view["phase"] == "deal" and state.current_player == CHANCE


def test_the_two_player_draft_goes_round_twice():
    state = vl.new_game(2, {"species": "draft"})
    seen = []
    for species in ("yeti-crabs", "octopus", "volcano-snails", "blind-shrimp"):
        seen.append(state.current_player)
        play(state, {"type": "pick", "species": species})
    assert seen == [1, 0, 1, 0]
    assert state.view(None)["species"] == [
        "volcano-snails",
        "blind-shrimp",
        "yeti-crabs",
        "octopus",
    ]


def test_a_picked_species_cannot_be_picked_again():
    state = play(vl.new_game(2, {"species": "draft"}), {"type": "pick", "species": "octopus"})
    assert len(state.legal_actions()) == 6
    assert {"type": "pick", "species": "octopus"} not in state.legal_actions()
    refused(state, {"type": "pick", "species": "octopus"}, "octopus has already been picked")
    refused(state, {"type": "pick", "species": "krill"}, "'krill' is not a species")


def test_with_three_players_each_leaves_one_species_out():
    state = vl.new_game(3, {"species": "draft"})
    assert state.legal_actions() == [
        {"type": "leave_out", "species": sid} for sid in data.SPECIES_IDS
    ]
    refused(
        state,
        {"type": "pick", "species": "octopus"},
        "pick is not what is decided now: "
        r"seat 2 leaves a species out",
    )
    seen = []
    for species in ("octopus", "sponges", "eelpout"):
        seen.append(state.current_player)
        assert state.view(None)["species"] == []
        play(state, {"type": "leave_out", "species": species})
    assert seen == [2, 1, 0]
    view = state.view(None)
    assert view["species"] == ["tube-worms", "volcano-snails", "blind-shrimp", "yeti-crabs"]
    assert view["draft"]["mode"] == "leave_out"
    assert view["draft"]["chosen"] == ["octopus", "sponges", "eelpout"]


# -- hidden tiles and the draws ------------------------------------------------------------


@pytest.mark.parametrize("players, tiles", [(2, 36), (3, 48), (4, 60)])
def test_the_bag_and_the_first_draw(players, tiles):
    state = vl.new_game(players)
    outcomes = state.chance_outcomes()
    share = tiles // 6
    odds = {o["tile"]: p for o, p in outcomes}
    assert odds == {
        "BB": share / tiles,
        "DD": share / tiles,
        "MM": share / tiles,
        **{k: share / 2 / tiles for k in ("BD", "DB", "BM", "MB", "DM", "MD")},
    }
    assert all(o["seat"] == 0 for o, _ in outcomes)
    assert state.view(None)["bag_size"] == tiles


def test_each_seat_draws_its_starting_tile_in_seat_order_then_seat_0_plays():
    state = vl.new_game(3)
    for seat, tile in enumerate(("BB", "BB", "DM")):
        assert {o["seat"] for o, _ in state.chance_outcomes()} == {seat}
        play(state, {"type": "draw", "seat": seat, "tile": tile})
        if seat == 0:
            odds = {o["tile"]: p for o, p in state.chance_outcomes()}
            assert odds["BB"] == pytest.approx(7 / 47) and odds["DM"] == pytest.approx(4 / 47)
    view = state.view(None)
    assert view["phase"] == "tile" and view["turn"] == 0 and state.current_player == 0
    assert view["bag_size"] == 45


def test_a_draw_is_private_to_the_seat_drawing():
    state = vl.new_game(2)
    draw = {"type": "draw", "seat": 0, "tile": "BM"}
    assert state.private_to(draw) == frozenset({0})
    assert state.public_form(draw) == {"type": "draw", "seat": 0}
    play(state, draw, {"type": "draw", "seat": 1, "tile": "DD"})
    mine, theirs = state.view(0)["players"]
    assert mine["hand"] == {
        "kind": "BM",
        "terrains": ["black-smoker", "basalt-ridge", "microbial-mat"],
    }
    assert "hand" not in theirs and theirs["holding"] is True
    assert all("hand" not in player for player in state.view(None)["players"])
    assert state.view(1)["players"][1]["hand"]["kind"] == "DD"
    assert "hand" not in state.view(1)["players"][0]


def test_a_placed_tile_is_public_and_the_next_draw_follows_the_turn():
    state = game(hands=["DM", "BB"])
    play(state, place_tile(0, 0, 0))
    assert hexes(state)[(0, 0)]["kind"] == "DM"
    assert hexes(state)[(1, 0)]["terrain"] == "diffuse-vents"
    assert hexes(state)[(0, 1)]["terrain"] == "microbial-mat"
    assert state.view(1)["players"][0]["holding"] is False
    play(state, place("blind-shrimp", 1, 0), {"type": "stop"})
    assert state.is_chance_node() and state.view(None)["phase"] == "draw"
    assert {o["seat"] for o, _ in state.chance_outcomes()} == {0}


def test_resampling_redraws_only_the_tiles_a_seat_cannot_see():
    state = game(players=3, hands=["MM", "DD", "BB"])
    rng = random.Random(7)
    seen_other_hands = set()
    for _ in range(40):
        sample = state.resample_hidden(0, rng)
        assert sample.view(0) == state.view(0)
        assert sample.view(None)["bag_size"] == 45
        assert sum(sample._bag) == 45
        seen_other_hands.add((sample._hand[1], sample._hand[2]))
        assert sample._hand[0] == vl._KIND["MM"]
    assert len(seen_other_hands) > 1
    assert state._hand == [vl._KIND[k] for k in ("MM", "DD", "BB")]


# -- placing a tile ----------------------------------------------------------------------------


def test_the_first_tile_goes_in_the_middle_in_any_rotation():
    state = game()
    assert state.legal_actions() == [place_tile(0, 0, k) for k in range(6)]
    refused(
        state,
        place_tile(3, 1, 0),
        r"the first tile goes in the middle: its Black Smoker "
        r"on \(0, 0\)",
    )


@pytest.mark.parametrize(
    "rotation, first, second, shape",
    [
        (0, (1, 0), (0, 1), "two above"),  # E, SE
        (1, (0, 1), (-1, 1), "one above"),  # SE, SW
        (2, (-1, 1), (-1, 0), "two above"),  # SW, W
        (3, (-1, 0), (0, -1), "one above"),  # W, NW
        (4, (0, -1), (1, -1), "two above"),  # NW, NE
        (5, (1, -1), (1, 0), "one above"),  # NE, E
    ],
)
def test_the_six_rotations_turn_the_tile_clockwise_about_its_smoker(rotation, first, second, shape):
    state = play(game(hands=["BD", "BB"]), place_tile(0, 0, rotation))
    field = hexes(state)
    assert set(field) == {(0, 0), first, second}
    assert field[(0, 0)]["terrain"] == "black-smoker"
    assert field[first]["terrain"] == "basalt-ridge"
    assert field[second]["terrain"] == "diffuse-vents"
    rows = sorted(r for _, r in field)
    assert (rows.count(rows[0]) == 2) == (shape == "two above")


def test_a_mirror_image_tile_has_its_terrains_the_other_way_round():
    state = play(game(hands=["DB", "BB"]), place_tile(0, 0, 0))
    assert hexes(state)[(1, 0)]["terrain"] == "diffuse-vents"
    assert hexes(state)[(0, 1)]["terrain"] == "basalt-ridge"


def test_on_the_seafloor_a_tile_must_touch_the_field_along_an_edge():
    state = turn(lay(game(), "BD", 0, 0, 0), 1)
    legal = tile_spots(state)
    assert (2, 0, 0) in legal  # (2, 0) is next to (1, 0)
    assert (0, -1, 4) in legal  # (0, -1), (0, -2), (1, -2): (0, -1) next to (0, 0)
    assert (3, 0, 0) not in legal
    for q, r, k in legal:
        new = vl._tile_hexes(q, r, k)
        assert not any(p in state._top for p in new)
        assert any(x in state._top for p in new for x in hexgrid.neighbours(p))
    refused(
        state,
        place_tile(3, 0, 0),
        r"a tile on the seafloor must touch the field along a "
        r"full edge; one on \(3, 0\), \(4, 0\), \(3, 1\) "
        "touches nothing",
    )
    refused(state, place_tile(1, -1, 1), r"partly on the field \(no overhangs\)")


def test_up_on_a_plateau_the_smoker_sits_on_a_smoker_over_two_tiles_at_one_level():
    state = turn(small_floor(game()), 0)
    ups = {(q, r, k) for q, r, k in tile_spots(state) if (q, r) in state._top}
    # Every raised tile sits on one of the seven smokers; on (0, 0) rotation 0 would lie
    # exactly on the tile below (one tile), the others cover two or three.
    assert {(q, r) for q, r, _ in ups} <= set(SMALL_FLOOR)
    assert {k for q, r, k in ups if (q, r) == (0, 0)} == {1, 2, 3, 4, 5}
    refused(state, place_tile(0, 0, 0), "must cover at least two different tiles")
    refused(
        state,
        place_tile(1, 0, 2),
        r"the Black Smoker must sit on a Black Smoker; \(1, 0\) "
        "is basalt-ridge",
    )
    # (-1, -1) rotation 3 would hang over (-2, -1) and (-1, -2), where there is no tile.
    refused(state, place_tile(-1, -1, 3), r"no overhangs")
    play(state, place_tile(0, 0, 2))
    field = hexes(state)
    assert [field[p]["level"] for p in [(0, 0), (-1, 1), (-1, 0)]] == [2, 2, 2]
    assert field[(0, 0)]["tile"] == 7 and field[(0, 0)]["kind"] == "BB"


def test_the_hexes_under_a_tile_must_be_at_one_level():
    state = turn(lay(small_floor(game()), "BB", 0, 0, 2), 1)
    # From the smoker at (-1, -1): (0, -1) is at level 1, (-1, 0) at level 2.
    refused(
        state,
        place_tile(-1, -1, 0),
        r"the three hexes under a tile must be at one level "
        r"\(no gaps\); under \(-1, -1\), \(0, -1\), \(-1, 0\) "
        "they are at levels 1, 1, 2",
    )


def test_a_third_level_goes_on_a_plateau_of_two_tiles():
    state = turn(plateau(small_floor(game())), 0)
    assert (0, 0, 0) in tile_spots(state)
    play(state, place_tile(0, 0, 0))
    assert [hexes(state)[p]["level"] for p in [(0, 0), (1, 0), (0, 1)]] == [3, 3, 3]


AROUND = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))  # E, SE, SW, W, NW, NE


def allowed_by_the_rules(field, q, r, rotation):
    """The placement rules read straight off a view's field (plan space -> topmost hex)."""
    spaces = [
        (q, r),
        (q + AROUND[rotation][0], r + AROUND[rotation][1]),
        (q + AROUND[(rotation + 1) % 6][0], r + AROUND[(rotation + 1) % 6][1]),
    ]
    below = [field.get(p) for p in spaces]
    if all(h is None for h in below):
        return any((x + dq, y + dr) in field for x, y in spaces for dq, dr in AROUND)
    return (
        all(h is not None for h in below)
        and below[0]["terrain"] == "black-smoker"
        and len({h["level"] for h in below}) == 1
        and len({h["tile"] for h in below}) >= 2
    )


def test_the_tile_placements_offered_are_exactly_those_the_rules_allow():
    rng = random.Random(5)
    state = vl.new_game(3)
    checked = ups = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
            if state.view(None)["phase"] == "tile" and state.view(None)["field"]:
                field = hexes(state)
                near = {
                    (x + dq, y + dr) for x, y in field for dq in range(-2, 3) for dr in range(-2, 3)
                }
                expected = {
                    (q, r, k)
                    for q, r in near
                    for k in range(6)
                    if allowed_by_the_rules(field, q, r, k)
                }
                assert tile_spots(state) == expected
                assert len(offered(state)) == len(expected)
                checked += 1
                ups += sum(1 for q, r, _ in expected if (q, r) in field)
        state.apply(action)
    # Every turn but the first, with placements up on plateaus among them.
    assert checked == 47 and ups > 0
    assert any(h["level"] >= 2 for h in hexes(state).values())


# -- the turn ------------------------------------------------------------------------------------


def test_a_turn_is_tile_then_creatures_then_a_draw_then_the_next_seat():
    state = game(hands=["BD", "MM"])
    view = state.view(None)
    assert (view["phase"], view["turn"], view["current_player"]) == ("tile", 0, 0)
    play(state, place_tile(0, 0, 0))
    view = state.view(None)
    assert view["phase"] == "creatures" and view["placing"] == {"species": None, "placed": []}
    # Tube Worms on the smoker, Volcano Snails on the Basalt Ridge, Shrimp off it; no crabs.
    assert offered(state) == [
        place("tube-worms", 0, 0),
        place("volcano-snails", 1, 0),
        place("blind-shrimp", 0, 0),
        place("blind-shrimp", 0, 1),
    ]
    play(state, place("blind-shrimp", 0, 1))
    assert state.view(None)["placing"] == {"species": "blind-shrimp", "placed": [{"q": 0, "r": 1}]}
    assert offered(state) == [place("blind-shrimp", 0, 0), {"type": "stop"}]
    play(state, {"type": "stop"})
    assert state.view(None)["phase"] == "draw" and state.is_chance_node()
    play(state, {"type": "draw", "seat": 0, "tile": "DD"})
    view = state.view(None)
    assert (view["phase"], view["turn"], view["current_player"]) == ("tile", 1, 1)
    assert view["bag_size"] == 33 and view["turns_left"] == 35


def test_you_must_place_if_you_can_so_stop_comes_after_the_first_creature():
    state = play(game(hands=["BD", "MM"]), place_tile(0, 0, 0))
    assert {"type": "stop"} not in offered(state)
    refused(state, {"type": "stop"}, "you must place if you can: place at least one creature")


def test_one_species_per_turn():
    state = play(game(hands=["BD", "MM"]), place_tile(0, 0, 0), place("blind-shrimp", 0, 1))
    refused(
        state,
        place("tube-worms", 0, 0),
        "you are placing Blind Vent Shrimp this turn: one species per turn",
    )


def test_a_turn_with_nothing_to_place_skips_the_creatures():
    state = game(hands=["BD", "MM"])
    for sid in FIRST_GAME:
        state._supply[0][vl._SPECIES[sid]] = 0
    play(state, place_tile(0, 0, 0))
    assert state.view(None)["phase"] == "draw"


def test_only_yeti_crabs_left_and_no_plateau_skips_the_creatures():
    state = game(hands=["BD", "MM"])
    for sid in ("tube-worms", "volcano-snails", "blind-shrimp"):
        state._supply[0][vl._SPECIES[sid]] = 0
    play(state, place_tile(0, 0, 0))
    assert state.view(None)["phase"] == "draw"


def test_the_creature_step_ends_by_itself_when_the_supply_runs_out():
    state = turn(small_floor(game()), 0, "creatures")
    state._supply[0][vl._SPECIES["blind-shrimp"]] = 1
    play(state, place("blind-shrimp", 0, 1))
    assert state.view(None)["phase"] == "draw"
    assert supply(state, 0, "blind-shrimp") == 0


# -- the end -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_after_the_last_draw_everyone_plays_out_the_tile_in_hand_for_equal_turns(players):
    state = vl.new_game(players)
    turns = [0] * players
    last_draw_at = None
    placed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.chance_outcomes()[0][0]
            if state.view(None)["bag_size"] == 1:
                last_draw_at = placed
        else:
            action = state.legal_actions()[0]
            if action["type"] == "place_tile":
                turns[state.current_player] += 1
                placed += 1
        state.apply(action)
    total = {2: 36, 3: 48, 4: 60}[players]
    assert turns == [total // players] * players
    # The last tile was drawn at the end of a turn; then each seat played one more.
    assert placed - last_draw_at == players
    view = state.view(None)
    assert view["phase"] == "over" and view["bag_size"] == 0 and view["turns_left"] == 0
    assert all(not p["holding"] for p in view["players"])
    assert state.current_player == TERMINAL and state.legal_actions() == []


def test_the_final_view_scores_each_species_and_a_total():
    state = finish(game(players=2))
    view = state.view(None)
    for seat, parts in enumerate(view["scores"]):
        assert list(parts) == [*FIRST_GAME, "total"]
        assert parts["total"] == sum(parts[sid] for sid in FIRST_GAME)
        assert state.result()[seat]["score"] == parts["total"]


def ranks(table):
    """The places of seats with per-seat points of the seven species given by ``table``."""
    return ranks_from_keys(vl.rank_keys(table))


def test_ties_go_to_the_highest_single_species_score():
    # Both 12 in all; seat 1's best species scores 8, seat 0's 6.
    assert ranks([[6, 0, 6, 0, 0, 0, 0], [2, 2, 8, 0, 0, 0, 0]]) == [2, 1]


def test_then_to_the_highest_tube_worm_score():
    # 12 in all and a best of 6 each; seat 0's Tube Worms score 6, seat 1's 3.
    assert ranks([[6, 0, 6, 0, 0, 0, 0], [3, 3, 6, 0, 0, 0, 0]]) == [1, 2]


def test_players_still_tied_share_the_victory():
    assert ranks([[6, 0, 6, 0, 0, 0, 0], [6, 6, 0, 0, 0, 0, 0], [4, 0, 4, 0, 0, 0, 0]]) == [1, 1, 3]


def test_a_finished_game_is_ranked_by_those_keys_from_its_own_points():
    rng = random.Random(3)
    state = vl.new_game(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    table = state._score_table()
    assert state.result() == [
        {"score": sum(points), "rank": rank} for points, rank in zip(table, ranks(table))
    ]
    assert len({sum(points) for points in table}) > 1  # a game that ranks someone above another


# -- illegal actions -----------------------------------------------------------------------------


def test_illegal_actions_say_why_and_change_nothing():
    state = game(hands=["BD", "MM"])
    refused(
        state,
        {"type": "draw", "seat": 0, "tile": "BB"},
        "draw is a chance event, not a seat's decision",
    )
    refused(state, {"type": "stop"}, r"stop is not what is decided now: seat 0 places its tile")
    refused(state, place_tile(0, 0, 6), "rotation is a whole number from 0 to 5")
    refused(state, {"type": "place_tile", "q": 0, "r": 0}, "rotation is a whole number")
    refused(state, {**place_tile(0, 0, 0), "q": 0.0}, "whole numbers q and r")
    play(state, place_tile(0, 0, 0))
    refused(state, place("krill", 0, 0), "'krill' is not a species")
    refused(state, place("octopus", 0, 0), "Deep-Sea Octopus are not in play this game")
    refused(state, place("tube-worms", 5, 5), r"\(5, 5\) has no tile")
    play(state, {"type": "place", "species": "blind-shrimp", "q": 0, "r": 1}, {"type": "stop"})
    refused(state, {"type": "stop"}, "no seat decides now: the chance player's draw is next")
    refused(state, {"type": "draw", "seat": 1, "tile": "BB"}, "the next tile goes to seat 0")
    refused(state, {"type": "draw", "seat": 0, "tile": "XX"}, "no tile 'XX' is left in the bag")


def test_the_view_is_json_and_lists_what_a_renderer_needs():
    state = turn(plateau(small_floor(game())), 0, "creatures")
    put(state, "yeti-crabs", 1, (1, 0))
    view = state.view(0)
    assert json.loads(json.dumps(view)) == view
    assert {
        "phase",
        "current_player",
        "turn",
        "first_player",
        "species",
        "field",
        "last_tile",
        "players",
        "bag_size",
        "tiles_total",
        "turns_left",
    } <= set(view)
    cell = next(h for h in view["field"] if (h["q"], h["r"]) == (1, 0))
    assert cell == {
        "q": 1,
        "r": 0,
        "level": 2,
        "terrain": "basalt-ridge",
        "tile": 8,
        "kind": "BB",
        "edge": False,
        "creatures": [{"species": "yeti-crabs", "owner": 1}],
    }
    assert next(h for h in view["field"] if (h["q"], h["r"]) == (-1, 0))["edge"] is True
    assert len(view["field"]) == 21 and view["last_tile"] == 8
    assert [(h["r"], h["q"]) for h in view["field"]] == sorted(
        (h["r"], h["q"]) for h in view["field"]
    )


def test_a_placement_checked_directly_is_exactly_one_of_the_listed_ones():
    # Replay checks a logged placement with the test the list is filtered with; over a whole
    # random game, every placement near the field is accepted that way only if it is listed.
    rng = random.Random(8)
    state = vl.new_game(3, {})
    looked_up = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        legal = state.legal_actions()
        if legal[0]["type"] == "place_tile" and state._top:
            listed = {(a["q"], a["r"], a["rotation"]) for a in legal}
            qs = [q for q, _ in state._top]
            rs = [r for _, r in state._top]
            for q in range(min(qs) - 3, max(qs) + 4):
                for r in range(min(rs) - 3, max(rs) + 4):
                    for k in range(6):
                        action = {"type": "place_tile", "q": q, "r": r, "rotation": k}
                        quick = state._match(action)
                        assert (quick == action) == ((q, r, k) in listed), action
                        looked_up += quick is not None
            assert state._match({"type": "place_tile", "q": True, "r": 0, "rotation": 0}) is None
        state.apply(rng.choice(legal))
    assert looked_up > 1000


def test_the_raised_spaces_kept_for_yeti_crabs_are_exactly_those_above_the_seafloor():
    # Yeti Crabs are looked for only on the spaces kept as raised; the listing and the direct
    # check both read that list, so it is held here to the field itself, all game long.
    rng = random.Random(11)
    state = vl.new_game(4, {})  # the first-game species: Yeti Crabs among them
    highest = 0
    while not state.is_terminal():
        raised = [p for p, (level, _, _) in state._top.items() if level > data.SEAFLOOR]
        assert sorted(state._raised) == sorted(raised)
        assert len(set(state._raised)) == len(state._raised)
        highest = max([highest] + [level for level, _, _ in state._top.values()])
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            ups = [a for a in legal if a["type"] == "place_tile" and (a["q"], a["r"]) in state._top]
            state.apply(rng.choice(ups or legal))  # going up wherever it can
    assert highest >= data.SEAFLOOR + 2  # a tile went up on raised hexes too
