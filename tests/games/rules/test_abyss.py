"""Abyss, the turn and the game: setup, plotting, exploring and Monsters, the Council,
recruiting (the rulebook's three cases), the Court, keys and Locations, the end, scoring (the
rulebook's 91 points), tie-breaks, hidden information and illegal actions. Each Lord's power and
each Location's scoring are in test_abyss_lords.py.

Scenarios are set up like the rulebook's pictures: ``table`` lays out hands, pearls, Lords,
Locations and the Court directly on a State and starts the turn of ``turn``; the test then plays
actions, chance outcomes included, through the public interface.
"""

from __future__ import annotations

import json
import random

import pytest

from games.rules import CHANCE, TERMINAL, IllegalAction
from games.rules import abyss as ab
from games.rules.abyss import data, tables, tasks

# The rulebook's recruiting picture: three Lords at the Court.
COURT = ("Master of Magic", "Slaver", "Traitor")


def card(race, value):
    return {"race": race, "value": value}


def _card_int(race, value):
    return tables.RACE_INDEX[race] * 5 + value - 1


def table(
    players=2,
    *,
    turn=0,
    court=COURT,
    face_up=("Parliament",),
    hands=None,
    pearls=None,
    lords=None,
    locations=None,
    affiliated=None,
    tokens=None,
    key_tokens=None,
    council=None,
    discard=None,
    threat=1,
    lord_deck=None,
    location_deck=None,
    end_seat=None,
    version=None,
):
    """A game at the start of ``turn``'s turn (its turn-start steps done), under rules
    ``version`` (the newest by default).

    ``hands``, ``affiliated``, ``council`` and ``discard`` map a seat (or, for the piles, a
    race) to cards as (race, value) pairs, taken out of the Exploration deck; ``lords`` maps a
    seat to Lord names, or (name, "assassinated"); ``locations`` maps a seat to {Location: the
    names of its Lords under it}; ``tokens`` maps a seat to Monster token values.
    """
    state = ab.new_game(players, version=version)
    state._first = state._turn = turn
    state._tasks = []
    lord_of = tables.LORD_INDEX
    state._court = [lord_of[name] for name in court]
    taken = set(state._court)
    for seat, names in (lords or {}).items():
        entries = []
        for item in names:
            name, *flags = (item,) if isinstance(item, str) else item
            entries.append([lord_of[name], tables.FREE, int("assassinated" in flags)])
            taken.add(lord_of[name])
        state._lords[seat] = entries
    loc_of = tables.LOCATION_INDEX
    state._face_up = [loc_of[name] for name in face_up]
    held = set(state._face_up)
    for seat, owned in (locations or {}).items():
        for name, under in owned.items():
            state._locations[seat].append(loc_of[name])
            held.add(loc_of[name])
            for lord_name in under:
                entry = next((e for e in state._lords[seat] if e[0] == lord_of[lord_name]), None)
                if entry is None:
                    entry = [lord_of[lord_name], tables.FREE, 0]
                    state._lords[seat].append(entry)
                    taken.add(lord_of[lord_name])
                entry[1] = loc_of[name]
    state._lord_deck = (
        [lord_of[name] for name in lord_deck]
        if lord_deck is not None
        else [i for i in range(len(data.LORDS)) if i not in taken]
    )
    state._location_deck = (
        [loc_of[name] for name in location_deck]
        if location_deck is not None
        else [i for i in range(len(data.LOCATIONS)) if i not in held]
    )
    for seat, cards in (hands or {}).items():
        for race, value in cards:
            _from_deck(state, race, value)
            state._hands[seat][_card_int(race, value)] += 1
    for seat, cards in (affiliated or {}).items():
        for race, value in cards:
            _from_deck(state, race, value)
            state._affiliated[seat][_card_int(race, value)] += 1
    for race, value in council or ():
        _from_deck(state, race, value)
        state._council[_card_int(race, value)] += 1
    for race, value in discard or ():
        _from_deck(state, race, value)
        state._discard[_card_int(race, value)] += 1
    for seat, values in (tokens or {}).items():
        for value in values:
            i = tables.TOKEN_VALUES.index(value)
            state._token_pool[i] -= 1
            state._tokens[seat][i] += 1
    for seat, value in (pearls or {}).items():
        state._pearls[seat] = value
    for seat, value in (key_tokens or {}).items():
        state._key_tokens[seat] = value
    state._threat = threat
    state._end_seat = end_seat
    state._tasks = [("turn_start",)]
    state._advance()
    return state


def _from_deck(state, race, value):
    c = _card_int(race, value)
    assert state._deck[c] > 0, f"no {race} {value} left to deal"
    state._deck[c] -= 1


def play(state, *moves):
    """Apply moves: a type name ("explore", "buy", ...) or a full action dict."""
    for move in moves:
        state.apply({"type": move} if isinstance(move, str) else dict(move))
    return state


def reveal(state, race, value=None):
    """The chance player turns up an Ally (or ``reveal(state, "monster")``)."""
    shown = {"monster": True} if race == "monster" else card(race, value)
    state.apply({"type": "reveal", "card": shown})
    return state


def recruit(state, lord, *cards):
    """Recruit ``lord`` paying ``cards`` in order; a card that was the only way on has been
    paid without a decision and is skipped (the hand and affiliation checks that follow show
    what was really paid)."""
    play(state, {"type": "recruit", "lord": lord})
    for race, value in cards:
        action = {"type": "pay", **card(race, value)}
        if action in legal(state):
            play(state, action)
    return state


def draw_lords(state, *names):
    for name in names:
        state.apply({"type": "draw_lord", "name": name})
    return state


def player(state, seat, viewer=None):
    return state.view(seat if viewer is None else viewer)["players"][seat]


def hand(state, seat):
    return sorted((c["race"], c["value"]) for c in player(state, seat)["hand"])


def legal(state):
    return state.legal_actions()


def types(state):
    return sorted({a["type"] for a in state.legal_actions()})


def lord_names(state, seat):
    return [lord["name"] for lord in player(state, seat)["lords"]]


def all_views(state):
    return json.dumps([state.view(s) for s in [None, *range(state.num_players)]], sort_keys=True)


# -- the cards -------------------------------------------------------------------------------


def test_the_exploration_deck_is_71_cards_65_allies_and_6_monsters():
    state = ab.new_game(2)
    assert sum(state._deck) == 71 and state._deck[tables.MONSTER] == 6
    for r in range(5):
        assert [state._deck[r * 5 + v - 1] for v in range(1, 6)] == [4, 3, 3, 2, 1]
    assert sum(state._token_pool) == 20
    assert dict(zip(tables.TOKEN_VALUES, state._token_pool)) == {2: 9, 3: 9, 4: 2}


def test_the_table_has_35_lords_and_20_locations_with_unique_names_and_known_sources():
    assert len(data.LORDS) == 35 and len({lord.name for lord in data.LORDS}) == 35
    assert len(data.LOCATIONS) == 20 and len({loc.name for loc in data.LOCATIONS}) == 20
    fields = {"cost", "races", "required", "ip", "keys"}
    for lord in data.LORDS:
        assert lord.source in ("rules", "public list", "project")
        assert set(lord.chosen) <= fields
        assert lord.guild in data.GUILDS
        assert 6 <= lord.cost <= 12 and 1 <= lord.races <= 4 and 3 <= lord.ip <= 10
        assert lord.required is None or lord.required in data.RACES
        assert (lord.power is None) == (lord.timing is None) == (lord.text == "")
        if lord.power is not None:
            assert lord.power in data.POWERS
    for location in data.LOCATIONS:
        assert location.source in ("rules", "project")
        assert location.item in data.LOCATION_ITEMS


def test_the_guilds_follow_the_printed_pattern():
    by_guild = {g: [lord for lord in data.LORDS if lord.guild == g] for g in data.GUILDS}
    assert all(lord.power is None and lord.keys == 0 for lord in by_guild[data.FARMER])
    assert all(lord.keys >= 1 and lord.power is None for lord in by_guild[data.AMBASSADOR])
    assert all(lord.required is None for lord in by_guild[data.AMBASSADOR])
    farmers_ip = [lord.ip for lord in by_guild[data.FARMER] if lord.source == "project"]
    assert min(farmers_ip) > max(
        lord.ip for lord in by_guild[data.SOLDIER] if lord.name != "Jailor"
    )
    colours = {
        data.POLITICIAN: "squid",
        data.SOLDIER: "crab",
        data.MERCHANT: "shellfish",
        data.MAGE: "jellyfish",
        data.FARMER: "seahorse",
    }
    for guild, race in colours.items():
        assert {lord.required for lord in by_guild[guild]} == {race}


def test_the_values_the_rules_give_are_in_the_table():
    lords = {lord.name: lord for lord in data.LORDS}
    mom = lords["Master of Magic"]
    assert (mom.cost, mom.races, mom.required, mom.ip) == (10, 3, "jellyfish", 6)
    slaver = lords["Slaver"]
    assert (slaver.cost, slaver.races, slaver.required, slaver.ip) == (8, 1, "shellfish", 5)
    assert lords["Traitor"].required == "squid"
    ips = {
        "Keeper": 6,
        "Slaver": 5,
        "Master of Magic": 6,
        "Elder": 3,
        "Jailor": 7,
        "Traitor": 6,
        "Corruptor": 6,
    }
    assert {name: lords[name].ip for name in ips} == ips
    assert all(lords[name].source == "rules" for name in ips)
    locations = {loc.name: loc for loc in data.LOCATIONS}
    assert (locations["Parliament"].base, locations["Parliament"].per) == (6, 2)
    assert (locations["Sanctuary"].base, locations["Sanctuary"].per) == (4, 3)
    assert (locations["Abyss"].base, locations["Abyss"].per) == (0, 2)


# -- setup -----------------------------------------------------------------------------------


def test_two_to_four_players():
    assert (ab.spec.min_players, ab.spec.max_players) == (2, 4)
    assert ab.spec.hidden_information and ab.spec.chance
    for wrong in (1, 5):
        with pytest.raises(ValueError):
            ab.new_game(wrong)


def test_setup_draws_the_first_player_six_court_lords_and_one_face_up_location():
    state = ab.new_game(3)
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [
        ({"type": "first_player", "seat": s}, 1 / 3) for s in range(3)
    ]
    state.apply({"type": "first_player", "seat": 2})
    odds = state.chance_outcomes()
    assert len(odds) == 35 and all(p == pytest.approx(1 / 35) for _, p in odds)
    draw_lords(state, "Keeper", "Slaver", "Traitor", "Elder", "Jailor", "Hunter")
    odds = state.chance_outcomes()
    assert len(odds) == 20 and odds[0][0]["type"] == "draw_location"
    state.apply({"type": "draw_location", "name": "Sanctuary"})
    view = state.view(None)
    assert view["court"] == ["Keeper", "Slaver", "Traitor", "Elder", "Jailor", "Hunter"]
    assert view["locations_available"] == ["Sanctuary"]
    assert view["first_player"] == 2 and view["turn"] == 2
    assert [p["pearls"] for p in view["players"]] == [1, 1, 1]
    assert view["lord_deck_size"] == 29 and view["location_deck_size"] == 19
    # With a full Court, no hand and an empty Council, exploring is the only thing to do.
    assert view["decision"] == {"kind": "chance", "event": "reveal"}


# -- plotting at court -----------------------------------------------------------------------


def test_plotting_pays_a_pearl_per_lord_brought_to_an_empty_court_slot():
    state = table(court=("Keeper", "Slaver", "Traitor", "Elder"), pearls={0: 3})
    assert "plot" in types(state)
    play(state, "plot")
    assert state.current_player == CHANCE
    draw_lords(state, "Jailor")
    assert player(state, 0)["pearls"] == 2
    play(state, "plot")
    draw_lords(state, "Hunter")
    view = state.view(0)
    assert view["court"][-2:] == ["Jailor", "Hunter"] and len(view["court"]) == 6
    assert view["players"][0]["pearls"] == 1
    assert "plot" not in types(state)  # no empty slot left


def test_no_plotting_without_a_pearl_or_with_an_empty_lord_deck():
    state = table(
        court=("Keeper",), pearls={0: 0}, hands={0: [("crab", 1)]}, council=[("squid", 2)]
    )
    assert "plot" not in types(state)
    state = table(court=("Keeper",), pearls={0: 4}, lord_deck=(), council=[("squid", 2)])
    assert "plot" not in types(state)


# -- exploring -------------------------------------------------------------------------------


def test_the_rulebook_exploration_example():
    # Four players; the explorer (seat 0) has nothing else to do, so the exploration starts.
    state = table(4, court=COURT + ("Keeper", "Elder", "Jailor"), pearls={0: 1, 1: 3, 2: 1, 3: 1})
    # 1st card: offered to each opponent in turn; nobody buys; the explorer explores on.
    reveal(state, "squid", 1)
    for seat in (1, 2, 3):
        assert state.current_player == seat
        assert state.view(seat)["decision"]["price"] == 1
        play(state, "decline")
    assert state.current_player == 0 and types(state) == ["continue", "take"]
    play(state, "continue")
    # 2nd card: the next two decline, the third pays the explorer 1 pearl for it.
    reveal(state, "crab", 2)
    play(state, "decline", "decline", "buy")
    assert player(state, 3)["pearls"] == 0 and player(state, 0)["pearls"] == 2
    assert hand(state, 3) == [("crab", 2)]
    # 3rd card, a Monster, lands on the 2nd space: the explorer goes on; the Threat rises.
    reveal(state, "monster")
    assert state.view(None)["track"] == [card("squid", 1), {"monster": True}]
    assert types(state) == ["continue", "fight"]
    play(state, "continue")
    assert state.view(None)["threat"] == 2
    # 4th card: the first opponent buys it for 2 pearls, the second Ally bought this turn.
    reveal(state, "jellyfish", 3)
    assert state.current_player == 1 and state.view(1)["decision"]["price"] == 2
    play(state, "buy")
    assert player(state, 1)["pearls"] == 1 and player(state, 0)["pearls"] == 4
    # Three more cards nobody buys or can buy (3 pearls now; seats 1 and 3 have bought).
    reveal(state, "seahorse", 1)
    assert state.current_player == 0
    play(state, "continue")
    reveal(state, "shellfish", 2)
    play(state, "continue")
    # The 7th card lands on the last space: the explorer must take it, and gains a pearl.
    reveal(state, "squid", 4)
    assert hand(state, 0) == [("squid", 4)]
    assert player(state, 0)["pearls"] == 5
    # The end of exploring: Allies left to the Council by race, the Monster discarded.
    view = state.view(None)
    assert view["track"] == []
    assert view["council"] == {"squid": 1, "shellfish": 1, "crab": 0, "seahorse": 1, "jellyfish": 0}
    assert view["discard_size"] == 1
    assert view["threat"] == 2  # nobody fought: the Threat token stays
    assert view["turn"] == 1


def test_an_opponent_who_cannot_pay_or_has_bought_is_not_asked():
    state = table(3, pearls={0: 0, 1: 0, 2: 5})
    reveal(state, "crab", 3)
    assert state.current_player == 2  # seat 1 has no pearl
    play(state, "buy")
    reveal(state, "crab", 4)
    assert state.current_player == 0  # seat 2 has bought this turn
    assert types(state) == ["continue", "take"]


def test_prices_rise_by_purchase_whoever_buys():
    state = table(4, pearls={0: 0, 1: 9, 2: 9, 3: 9})
    reveal(state, "crab", 1)
    play(state, "decline", "buy")  # seat 2 buys the 1st for 1
    reveal(state, "crab", 2)
    assert state.view(None)["decision"] == {
        "kind": "offer",
        "seat": 1,
        "card": card("crab", 2),
        "price": 2,
    }
    play(state, "decline")  # seat 2 is not asked again
    assert state.current_player == 3
    play(state, "buy")  # seat 3 buys the 2nd for 2
    reveal(state, "crab", 3)
    assert state.current_player == 1
    play(state, "buy")  # seat 1 buys the 3rd for 3
    assert [p["pearls"] for p in state.view(None)["players"]] == [6, 6, 8, 7]
    reveal(state, "crab", 4)
    assert state.current_player == 0  # everybody has bought


def test_taking_an_ally_for_free_ends_the_exploration_and_the_track_goes_to_the_council():
    state = table(2, pearls={1: 0})
    play(state, "explore")
    reveal(state, "seahorse", 2)
    play(state, "continue")
    reveal(state, "monster")
    play(state, "continue")
    reveal(state, "jellyfish", 5)
    play(state, "take")
    view = state.view(0)
    assert hand(state, 0) == [("jellyfish", 5)]
    assert view["council"]["seahorse"] == 1 and view["discard_size"] == 1
    assert view["turn"] == 1 and view["players"][0]["pearls"] == 1


def test_fighting_a_monster_takes_the_threat_reward_and_resets_the_threat():
    state = table(2, pearls={1: 0})
    play(state, "explore")
    reveal(state, "monster")
    play(state, "continue")
    reveal(state, "monster")
    assert state.view(None)["threat"] == 2
    play(state, "fight")
    assert state.view(0)["decision"] == {"kind": "reward", "seat": 0, "space": 2}
    assert legal(state) == [
        {"type": "reward", "pearls": 2, "tokens": 0, "keys": 0},
        {"type": "reward", "pearls": 1, "tokens": 1, "keys": 0},
        {"type": "reward", "pearls": 0, "tokens": 2, "keys": 0},
    ]
    play(state, {"type": "reward", "pearls": 1, "tokens": 1, "keys": 0})
    outcomes = dict((o["value"], p) for o, p in state.chance_outcomes())
    assert outcomes == {
        2: pytest.approx(9 / 20),
        3: pytest.approx(9 / 20),
        4: pytest.approx(2 / 20),
    }
    state.apply({"type": "draw_token", "seat": 0, "value": 4})
    view = state.view(0)
    assert view["threat"] == 1
    assert view["players"][0]["pearls"] == 2
    assert view["players"][0]["monster_token_values"] == [4]
    assert view["discard_size"] == 2  # both Monsters: fought, and left on the track


@pytest.mark.parametrize(
    "space,rewards",
    [
        (1, [(1, 0, 0), (0, 1, 0)]),
        (2, [(2, 0, 0), (1, 1, 0), (0, 2, 0)]),
        (3, [(0, 0, 1)]),
        (4, [(1, 0, 1), (0, 1, 1)]),
        (5, [(2, 0, 1), (1, 1, 1), (0, 2, 1)]),
        (6, [(0, 0, 2)]),
    ],
)
def test_the_threat_tracks_rewards_space_by_space(space, rewards):
    state = table(2, pearls={1: 0}, threat=space)
    play(state, "explore")
    reveal(state, "monster")
    play(state, "fight")
    if len(rewards) == 1:  # a lone reward is taken without a decision
        pearls, _, keys = rewards[0]
        assert player(state, 0)["key_tokens"] == keys
        assert player(state, 0)["pearls"] == 1 + pearls
    else:
        assert [(a["pearls"], a["tokens"], a["keys"]) for a in legal(state)] == rewards


def test_a_monster_on_the_last_space_must_be_fought_for_a_bonus_pearl():
    state = table(2, pearls={1: 0})
    play(state, "explore")
    for race, value in (("crab", 1), ("crab", 2), ("crab", 3), ("crab", 4)):
        reveal(state, race, value)
        play(state, "continue")
    reveal(state, "monster")
    # No choice: the fight is forced and the reward of space 1 is a decision.
    assert state.view(0)["decision"] == {"kind": "reward", "seat": 0, "space": 1}
    assert player(state, 0)["pearls"] == 2
    play(state, {"type": "reward", "pearls": 1, "tokens": 0, "keys": 0})
    assert player(state, 0)["pearls"] == 3
    assert state.view(None)["council"]["crab"] == 4


def test_ruling_exploring_on_with_the_threat_on_its_last_space_leaves_it_there():
    state = table(2, pearls={1: 0}, threat=6)
    play(state, "explore")
    reveal(state, "monster")
    play(state, "continue")
    assert state.view(None)["threat"] == 6


def test_ruling_a_reward_naming_more_monster_tokens_than_are_left_is_not_offered():
    state = table(2, pearls={1: 0}, threat=2)
    play(state, "explore")
    state._token_pool = [1, 0, 0]
    reveal(state, "monster")
    play(state, "fight")
    assert [(a["pearls"], a["tokens"]) for a in legal(state)] == [(2, 0), (1, 1)]


def test_ruling_an_ally_on_the_last_space_is_forced_even_past_monsters():
    state = table(2, pearls={1: 0})
    play(state, "explore")
    reveal(state, "monster")
    play(state, "continue")
    reveal(state, "monster")
    play(state, "continue")
    reveal(state, "squid", 1)
    play(state, "continue")
    reveal(state, "squid", 2)
    play(state, "continue")
    reveal(state, "squid", 3)
    assert hand(state, 0) == [("squid", 3)] and player(state, 0)["pearls"] == 2
    assert state.view(None)["threat"] == 3


def test_an_empty_exploration_deck_is_refilled_from_the_discard():
    state = table(2, pearls={1: 0})
    play(state, "explore")
    state._discard = state._deck[:]
    state._deck = [0] * tables.CARDS
    state._discard[0] = 0  # no squid 1 left anywhere
    odds = dict((json.dumps(o["card"], sort_keys=True), p) for o, p in state.chance_outcomes())
    left = sum(state._discard)
    assert odds[json.dumps({"monster": True})] == pytest.approx(6 / left)
    assert json.dumps(card("squid", 1), sort_keys=True) not in odds
    reveal(state, "crab", 5)
    assert state.view(None)["discard_size"] == 0
    assert state.view(None)["exploration_deck_size"] == left - 1


def test_ruling_the_six_monsters_always_come_back_so_exploring_is_always_possible():
    rng = random.Random(7)
    for _ in range(30):
        state = ab.new_game(rng.randint(2, 4))
        while not state.is_terminal():
            top = state._tasks[-1]
            if top[0] == "start":
                assert {"type": "explore"} in legal(state)
                assert state._deck[tables.MONSTER] + state._discard[tables.MONSTER] == 6
            if state.current_player == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(
                    rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
                )
            else:
                state.apply(rng.choice(legal(state)))


# -- the Council ----------------------------------------------------------------------------


def test_requesting_support_takes_a_whole_council_stack_unseen():
    state = table(2, council=[("crab", 1), ("crab", 5), ("squid", 2)])
    assert state.view(1)["council"] == {
        "squid": 1,
        "shellfish": 0,
        "crab": 2,
        "seahorse": 0,
        "jellyfish": 0,
    }
    assert {"type": "council", "race": "crab"} in legal(state)
    assert {"type": "council", "race": "seahorse"} not in legal(state)
    play(state, {"type": "council", "race": "crab"})
    assert hand(state, 0) == [("crab", 1), ("crab", 5)]
    assert "hand" not in player(state, 0, viewer=1)
    assert player(state, 0, viewer=1)["hand_size"] == 2
    assert state.view(1)["council"]["crab"] == 0


# -- recruiting -----------------------------------------------------------------------------

RULEBOOK_HAND = [("jellyfish", 3), ("crab", 2), ("shellfish", 5), ("shellfish", 1)]


def test_rulebook_recruit_master_of_magic_paid_with_jellyfish_3_crab_2_shellfish_5():
    state = table(2, hands={0: RULEBOOK_HAND}, pearls={0: 2})
    assert {"type": "recruit", "lord": "Master of Magic"} in legal(state)
    play(
        state,
        {"type": "recruit", "lord": "Master of Magic"},
        {"type": "pay", **card("jellyfish", 3)},
        {"type": "pay", **card("crab", 2)},
    )
    assert state.view(0)["recruiting"]["paid"] == [card("jellyfish", 3), card("crab", 2)]
    play(state, {"type": "pay", **card("shellfish", 5)})
    # 10 over three races with a Jellyfish: done. The Crab 2, the lowest, is affiliated.
    view = state.view(0)
    assert view["players"][0]["affiliated"] == [card("crab", 2)]
    assert hand(state, 0) == [("shellfish", 1)]
    assert view["discard_size"] == 2
    assert lord_names(state, 0) == ["Master of Magic"]
    # Only two Lords left at the Court: two pearls, and the Court is refilled.
    assert view["players"][0]["pearls"] == 4
    assert view["court"] == ["Slaver", "Traitor"]
    assert state.current_player == CHANCE
    draw_lords(state, "Keeper", "Elder", "Jailor", "Hunter")
    assert state.view(0)["court"] == ["Slaver", "Traitor", "Keeper", "Elder", "Jailor", "Hunter"]
    assert state.view(0)["turn"] == 1


def test_rulebook_recruit_slaver_with_two_shellfish_worth_6_and_2_pearls():
    state = table(2, hands={0: RULEBOOK_HAND}, pearls={0: 2})
    play(state, {"type": "recruit", "lord": "Slaver"})
    # Only Shellfish may pay (one race); pearls only once that race is paid.
    assert legal(state) == [
        {"type": "pay", **card("shellfish", 1)},
        {"type": "pay", **card("shellfish", 5)},
    ]
    play(state, {"type": "pay", **card("shellfish", 5)})
    # The Shellfish 1 and the 2 missing pearls are the only way on: paid without a decision.
    view = state.view(0)
    assert view["players"][0]["affiliated"] == [card("shellfish", 1)]
    assert hand(state, 0) == [("crab", 2), ("jellyfish", 3)]
    assert view["players"][0]["pearls"] == 2  # 2 paid, then the Court's 2
    assert lord_names(state, 0) == ["Slaver"]


def test_everyone_sees_what_a_recruit_cost_even_the_part_paid_without_a_decision():
    state = table(2, hands={0: RULEBOOK_HAND}, pearls={0: 2})
    assert "last_recruit" not in state.view(1)
    play(state, {"type": "recruit", "lord": "Slaver"}, {"type": "pay", **card("shellfish", 5)})
    # The Shellfish 1 and the pearls were paid by themselves, so no action names them.
    expected = {
        "seat": 0,
        "lord": "Slaver",
        "pearls": 2,
        "affiliated": card("shellfish", 1),
        "paid": [card("shellfish", 1), card("shellfish", 5)],
    }
    for seat in (None, 0, 1):
        assert state.view(seat)["last_recruit"] == expected
    clone = state.clone()
    assert clone.view(None)["last_recruit"] == expected


def test_rulebook_the_traitor_needs_a_squid():
    state = table(2, hands={0: RULEBOOK_HAND}, pearls={0: 2})
    assert {"type": "recruit", "lord": "Traitor"} not in legal(state)
    before = all_views(state)
    with pytest.raises(IllegalAction, match="including a squid"):
        state.apply({"type": "recruit", "lord": "Traitor"})
    assert all_views(state) == before


def test_a_payment_offers_only_allies_from_which_the_recruit_can_be_finished():
    # The Keeper: 8 over exactly two races, one a Seahorse.
    state = table(
        2,
        court=("Keeper", "Elder", "Jailor"),
        hands={0: [("seahorse", 2), ("squid", 1), ("crab", 5), ("crab", 1)]},
        pearls={0: 0},
    )
    play(state, {"type": "recruit", "lord": "Keeper"})
    # The Squid 1 would need the Seahorse as the second race: 3 of 8, no pearls: a dead end.
    assert {"type": "pay", **card("squid", 1)} not in legal(state)
    play(state, {"type": "pay", **card("crab", 1)})
    # Now the races are Crab and Seahorse: only those may follow.
    assert legal(state) == [
        {"type": "pay", **card("crab", 5)},
        {"type": "pay", **card("seahorse", 2)},
    ]
    play(state, {"type": "pay", **card("seahorse", 2)})
    # 3 of 8 paid: the Crab 5 is the only way on, paid without a decision.
    assert hand(state, 0) == [("squid", 1)]
    assert player(state, 0)["affiliated"] == [card("crab", 1)]


def test_pearls_make_up_missing_points_only_once_every_race_is_paid():
    state = table(
        2,
        court=("Keeper", "Elder", "Jailor"),
        hands={0: [("seahorse", 2), ("crab", 1), ("crab", 2)]},
        pearls={0: 9},
    )
    play(state, {"type": "recruit", "lord": "Keeper"}, {"type": "pay", **card("crab", 2)})
    assert "pay_pearls" not in types(state)  # no Seahorse paid yet
    play(state, {"type": "pay", **card("seahorse", 2)})
    assert {"type": "pay_pearls", "amount": 4} in legal(state)
    play(state, {"type": "pay_pearls", "amount": 4}, {"type": "affiliate", **card("seahorse", 2)})
    assert player(state, 0)["pearls"] == 5 + 2  # 9 - 4, then the Court's bonus
    assert hand(state, 0) == [("crab", 1)]


def test_with_several_lowest_allies_the_recruiter_chooses_which_to_affiliate():
    state = table(
        2,
        court=("Keeper", "Elder", "Jailor"),
        hands={0: [("seahorse", 1), ("crab", 1), ("crab", 5), ("seahorse", 2)]},
        pearls={0: 0},
    )
    play(state, {"type": "recruit", "lord": "Keeper"})
    play(
        state,
        {"type": "pay", **card("seahorse", 1)},
        {"type": "pay", **card("crab", 1)},
        {"type": "pay", **card("crab", 5)},
    )  # 7 of 8: the Seahorse 2 follows by itself
    assert legal(state) == [
        {"type": "affiliate", **card("crab", 1)},
        {"type": "affiliate", **card("seahorse", 1)},
    ]
    play(state, {"type": "affiliate", **card("seahorse", 1)})
    assert player(state, 0)["affiliated"] == [card("seahorse", 1)]
    assert state.view(0)["discard_size"] == 3


def test_overpaying_is_allowed_but_gives_no_change():
    state = table(
        2,
        court=("Keeper", "Elder", "Jailor"),
        hands={0: [("seahorse", 4), ("crab", 5)]},
        pearls={0: 0},
    )
    recruit(state, "Keeper", ("seahorse", 4), ("crab", 5))
    assert hand(state, 0) == []
    assert player(state, 0)["pearls"] == 2  # only the Court's bonus: no change for 9 of 8
    assert player(state, 0)["affiliated"] == [card("seahorse", 4)]


def test_the_court_is_not_refilled_while_three_lords_or_more_remain():
    state = table(
        2,
        court=("Keeper", "Elder", "Jailor", "Hunter"),
        hands={0: [("seahorse", 4), ("crab", 5)]},
        pearls={0: 0},
    )
    recruit(state, "Keeper", ("seahorse", 4), ("crab", 5))
    view = state.view(0)
    assert view["court"] == ["Elder", "Jailor", "Hunter"]
    assert view["players"][0]["pearls"] == 0 and view["turn"] == 1


# -- keys and Locations ----------------------------------------------------------------------

ELDER_HAND = [("squid", 3), ("crab", 3), ("seahorse", 1), ("jellyfish", 3)]  # 10, 4 races


def test_three_keys_force_taking_a_location_face_up_or_drawing_one_to_four():
    state = table(
        2, court=("Elder", "Keeper", "Jailor", "Hunter"), hands={0: ELDER_HAND}, pearls={0: 0}
    )
    recruit(state, "Elder", *ELDER_HAND)
    # The Elder's three keys are the only ones: spent without a decision.
    assert state.view(0)["decision"]["kind"] == "choose_location"
    assert legal(state) == [{"type": "location", "name": "Parliament"}] + [
        {"type": "draw_locations", "count": k} for k in (1, 2, 3, 4)
    ]
    play(state, {"type": "location", "name": "Parliament"})
    me = player(state, 0)
    assert me["locations"] == [{"name": "Parliament", "lords": ["Elder"]}]
    assert me["lords"] == [
        {"name": "Elder", "guild": "ambassador", "free": False, "disabled": False}
    ]
    assert me["keys"] == 0
    assert state.view(0)["locations_available"] == []


def test_drawing_locations_keeps_one_and_leaves_the_others_face_up_for_everyone():
    state = table(
        2, court=("Elder", "Keeper", "Jailor", "Hunter"), hands={0: ELDER_HAND}, pearls={0: 0}
    )
    recruit(state, "Elder", *ELDER_HAND)
    play(state, {"type": "draw_locations", "count": 3})
    for name in ("Abyss", "Sanctuary", "Citadel"):
        assert all(
            p == pytest.approx(1 / len(state._location_deck)) for _, p in state.chance_outcomes()
        )
        state.apply({"type": "draw_location", "name": name})
    assert state.view(1)["locations_drawn"] == ["Abyss", "Sanctuary", "Citadel"]
    # Only those drawn may be kept, not the one face up before.
    assert legal(state) == [
        {"type": "location", "name": n} for n in ("Abyss", "Sanctuary", "Citadel")
    ]
    play(state, {"type": "location", "name": "Sanctuary"})
    view = state.view(1)
    assert view["players"][0]["locations"][0]["name"] == "Sanctuary"
    assert view["locations_available"] == ["Parliament", "Abyss", "Citadel"]
    assert view["location_deck_size"] == 16


def test_with_more_than_three_keys_the_player_chooses_which_to_give():
    # Two key tokens and a free Herald (1 key); the Envoy (2 keys) makes 5.
    state = table(
        2,
        court=("Envoy", "Keeper", "Jailor", "Hunter"),
        hands={0: [("squid", 3), ("crab", 3), ("seahorse", 2)]},
        pearls={0: 0},
        lords={0: ["Herald"]},
        key_tokens={0: 2},
    )
    recruit(state, "Envoy", ("squid", 3), ("crab", 3), ("seahorse", 2))
    assert state.view(0)["decision"] == {"kind": "spend_keys", "seat": 0, "keys_due": 3}
    assert legal(state) == [
        {"type": "use_lord", "lord": "Herald"},
        {"type": "use_lord", "lord": "Envoy"},
        {"type": "use_token"},
    ]
    play(
        state,
        {"type": "use_token"},
        {"type": "use_lord", "lord": "Envoy"},
        {"type": "location", "name": "Parliament"},
    )
    me = player(state, 0)
    assert me["key_tokens"] == 1 and me["keys"] == 2  # a token and the Herald left
    assert me["locations"] == [{"name": "Parliament", "lords": ["Envoy"]}]


def test_ruling_a_lord_with_more_keys_than_still_needed_wastes_the_rest():
    state = table(
        2,
        court=("Elder", "Keeper", "Jailor", "Hunter"),
        hands={0: ELDER_HAND},
        pearls={0: 0},
        key_tokens={0: 2},
    )
    recruit(state, "Elder", *ELDER_HAND)
    play(state, {"type": "use_token"})
    assert legal(state) == [{"type": "use_lord", "lord": "Elder"}, {"type": "use_token"}]
    play(state, {"type": "use_lord", "lord": "Elder"}, {"type": "location", "name": "Parliament"})
    # 1 + 3 keys given for a Location: one of the Elder's is lost; one token is left.
    assert player(state, 0)["keys"] == 1
    assert player(state, 0)["locations"] == [{"name": "Parliament", "lords": ["Elder"]}]


def test_key_tokens_from_a_fight_make_three_keys_and_go_back_to_the_pile():
    state = table(2, pearls={1: 0}, key_tokens={0: 2}, threat=3)
    play(state, "explore")
    reveal(state, "monster")
    play(state, "fight")
    # Three tokens are the only keys: spent without a decision; the Location is a choice.
    assert state.view(0)["decision"]["kind"] == "choose_location"
    play(state, {"type": "location", "name": "Parliament"})
    assert player(state, 0)["key_tokens"] == 0
    assert player(state, 0)["locations"] == [{"name": "Parliament", "lords": []}]


def test_ruling_with_no_location_left_the_keys_stay_and_key_tokens_are_not_limited():
    state = table(2, pearls={1: 0}, key_tokens={0: 9}, threat=6, face_up=(), location_deck=())
    play(state, "explore")
    reveal(state, "monster")
    play(state, "fight")
    assert player(state, 0)["key_tokens"] == 11
    assert state.view(0)["turn"] == 1


def test_ruling_a_location_is_taken_again_while_three_keys_remain():
    state = table(
        2,
        court=("Elder", "Keeper", "Jailor", "Hunter"),
        hands={0: ELDER_HAND},
        pearls={0: 0},
        key_tokens={0: 3},
    )
    recruit(state, "Elder", *ELDER_HAND)
    play(state, {"type": "use_lord", "lord": "Elder"}, {"type": "location", "name": "Parliament"})
    # Three key tokens are left: a second Location, drawn since none is face up.
    assert legal(state) == [{"type": "draw_locations", "count": k} for k in (1, 2, 3, 4)]
    play(state, {"type": "draw_locations", "count": 1})
    state.apply({"type": "draw_location", "name": "Abyss"})
    me = player(state, 0)
    assert [loc["name"] for loc in me["locations"]] == ["Parliament", "Abyss"]
    assert me["keys"] == 0 and state.view(0)["turn"] == 1


# -- the end ---------------------------------------------------------------------------------

SIX_LORDS = ["Keeper", "Gardener", "Grower", "Harvester", "Herdsman", "Trader"]


def test_the_seventh_lord_triggers_the_end_and_every_other_seat_plays_one_last_turn():
    state = table(
        3,
        turn=1,
        court=("Peddler", "Elder", "Envoy", "Consul"),
        lords={1: SIX_LORDS},
        hands={1: [("shellfish", 3), ("crab", 4)]},
        pearls={1: 0, 2: 0, 0: 0},
    )
    recruit(state, "Peddler", ("shellfish", 3), ("crab", 4))
    assert len(lord_names(state, 1)) == 7
    assert state.view(None)["end_triggered_by"] == 1
    assert state.view(None)["turn"] == 2  # seat 1 finished its turn
    reveal(state, "crab", 1)
    play(state, "decline", "take")  # seat 1 has the Peddler's 2 pearls
    assert state.view(None)["turn"] == 0  # the last seat's last turn
    reveal(state, "crab", 2)
    play(state, "decline", "take")
    assert state.is_terminal() and state.current_player == TERMINAL


def test_a_court_refill_the_lord_deck_cannot_complete_triggers_the_end():
    state = table(
        2,
        court=("Keeper", "Elder", "Jailor"),
        hands={0: [("seahorse", 4), ("crab", 5)]},
        pearls={0: 0},
        lord_deck=("Hunter", "Tamer"),
    )
    recruit(state, "Keeper", ("seahorse", 4), ("crab", 5))
    assert state.view(None)["end_triggered_by"] == 0
    draw_lords(state, "Tamer", "Hunter")
    view = state.view(None)
    assert view["court"] == ["Elder", "Jailor", "Tamer", "Hunter"]
    assert view["players"][0]["pearls"] == 2  # the bonus is paid all the same
    assert view["turn"] == 1
    reveal(state, "crab", 1)
    play(state, "decline", "take")
    assert state.is_terminal()


def test_the_final_affiliation_keeps_the_lowest_ally_of_each_race_in_hand():
    state = table(
        2,
        hands={0: [("crab", 4), ("crab", 2), ("squid", 4), ("squid", 4)]},
        affiliated={0: [("crab", 3)]},
    )
    state._tasks = [("game_over",)]
    state._advance()
    assert state.is_terminal()
    me = player(state, 0)
    assert me["affiliated"] == [card("squid", 4), card("crab", 2), card("crab", 3)]
    assert me["hand_size"] == 0
    # Only the strongest affiliated Ally of each race scores: Squid 4 + Crab 3.
    assert state.view(None)["scores"][0]["allies"] == 7


# -- scoring ---------------------------------------------------------------------------------


def test_rulebook_scoring_example_is_91():
    state = table(
        2,
        face_up=(),
        lords={
            0: ["Keeper", "Slaver", "Master of Magic", "Elder", "Jailor", "Traitor", "Corruptor"]
        },
        locations={0: {"Parliament": ["Elder"], "Sanctuary": [], "Abyss": []}},
        affiliated={
            0: [
                ("jellyfish", 3),
                ("jellyfish", 1),
                ("squid", 3),
                ("crab", 2),
                ("seahorse", 1),
                ("shellfish", 5),
            ]
        },
        tokens={0: [2, 4]},
    )
    state._tasks = [("game_over",)]
    state._advance()
    scores = state.view(None)["scores"][0]
    # Parliament 6 + 2 x 2 Politicians = 10; Sanctuary 4 + 3 x 2 Jellyfish = 10; Abyss 2 x 6
    # guilds = 12.
    assert scores == {"locations": 32, "lords": 39, "allies": 14, "monsters": 6, "total": 91}
    assert state.result()[0] == {"score": 91, "rank": 1}


def _ended(state):
    state._tasks = [("game_over",)]
    state._advance()
    return state


def test_a_tie_goes_to_the_most_pearls():
    state = _ended(
        table(
            2,
            lords={0: ["Keeper"], 1: ["Gardener"]},
            pearls={0: 3, 1: 2},
            affiliated={1: [("crab", 1)]},
        )
    )
    assert [r["score"] for r in state.result()] == [6, 8]
    state = _ended(table(2, lords={0: ["Keeper"], 1: ["Treasurer"]}, pearls={0: 3, 1: 2}))
    assert [r["score"] for r in state.result()] == [6, 6]
    assert [r["rank"] for r in state.result()] == [1, 2]


def test_then_to_the_highest_valued_lord_and_then_the_rank_is_shared():
    # 10 points each, 2 pearls each: one Lord of 10 beats two of 5 and 5.
    state = _ended(
        table(
            3,
            lords={0: ["Herdsman"], 1: ["Herald", "Emissary"], 2: ["Landlord", "Shopkeeper"]},
            pearls={0: 2, 1: 2, 2: 2},
        )
    )
    assert [r["score"] for r in state.result()] == [10, 10, 10]
    assert [r["rank"] for r in state.result()] == [1, 2, 2]


# -- hidden information ---------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_tokens_and_only_counts_of_others():
    state = table(
        3,
        hands={0: [("crab", 3)], 1: [("squid", 1), ("squid", 2)]},
        tokens={0: [4], 1: [2, 3]},
        council=[("crab", 5)],
        pearls={0: 0},
    )
    view = state.view(1)
    mine, theirs = view["players"][1], view["players"][0]
    assert mine["hand"] == [card("squid", 1), card("squid", 2)]
    assert mine["monster_token_values"] == [2, 3]
    assert "hand" not in theirs and "monster_token_values" not in theirs
    assert theirs["hand_size"] == 1 and theirs["monster_tokens"] == 1
    spectator = state.view(None)
    assert all("hand" not in p and "monster_token_values" not in p for p in spectator["players"])
    assert spectator["council"]["crab"] == 1
    text = json.dumps(state.view(2))
    assert '"value": 5' not in text and '"value": 4' not in text


def test_a_monster_token_draw_is_private_to_its_owner():
    state = table(2, pearls={1: 0})
    play(state, "explore")
    reveal(state, "monster")
    play(state, "fight", {"type": "reward", "pearls": 0, "tokens": 1, "keys": 0})
    outcome = {"type": "draw_token", "seat": 0, "value": 3}
    assert state.private_to(outcome) == frozenset({0})
    assert state.public_form(outcome) == {"type": "draw_token", "seat": 0}
    assert state.private_to({"type": "reveal", "card": card("crab", 1)}) is None


def test_resampling_keeps_the_seats_own_view_and_redraws_what_it_cannot_see():
    state = table(
        3,
        hands={
            0: [("crab", 3), ("crab", 4)],
            1: [("squid", 1), ("squid", 2)],
            2: [("jellyfish", 5)],
        },
        tokens={0: [4], 1: [2, 3], 2: [3]},
        council=[("crab", 5), ("crab", 1), ("seahorse", 2)],
        pearls={0: 0},
    )
    rng = random.Random(3)
    changed = 0
    for _ in range(30):
        world = state.resample_hidden(0, rng)
        assert world.view(0) == state.view(0)
        assert sum(world._council[10:15]) == 2  # two crabs, still crabs
        assert sum(world._council[15:20]) == 1
        assert sum(map(sum, world._hands)) == 5
        assert sum(world._deck) == sum(state._deck)
        assert (
            sum(world._deck)
            + sum(world._discard)
            + sum(map(sum, world._hands))
            + sum(world._council)
            == 71
        )
        changed += world.view(1) != state.view(1)
    assert changed > 20


def test_a_resampled_world_lets_a_seat_in_the_middle_of_a_payment_finish_it():
    state = table(2, hands={0: RULEBOOK_HAND}, pearls={0: 2})
    play(
        state,
        {"type": "recruit", "lord": "Master of Magic"},
        {"type": "pay", **card("jellyfish", 3)},
    )
    rng = random.Random(1)
    for _ in range(20):
        world = state.resample_hidden(1, rng)
        assert world.view(1) == state.view(1)
        assert world.legal_actions()
        while world.current_player == 0 and world._tasks[-1][0] in ("pay", "affiliate"):
            world.apply(rng.choice(world.legal_actions()))
        assert "Master of Magic" in lord_names(world, 0)


# -- illegal actions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action,reason",
    [
        ({"type": "recruit", "lord": "Nobody"}, "no Lord 'Nobody' at the Court"),
        ({"type": "recruit", "lord": "Traitor"}, "cannot pay for the Traitor"),
        ({"type": "council", "race": "crab"}, "no 'crab' stack"),
        ({"type": "buy"}, "not a choice now"),
        ({"type": "reveal", "card": card("crab", 1)}, "chance event"),
        ({"type": "explore", "now": True}, "explore takes no parameters"),
        ({"type": "recruit"}, "recruit takes lord"),
    ],
)
def test_an_illegal_action_is_refused_with_its_reason_and_changes_nothing(action, reason):
    state = table(2, hands={0: RULEBOOK_HAND}, pearls={0: 2}, council=[("squid", 1)])
    before = all_views(state)
    legal_before = legal(state)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)
    assert all_views(state) == before and legal(state) == legal_before


def test_illegal_payments_say_why():
    state = table(2, hands={0: RULEBOOK_HAND}, pearls={0: 2})
    play(state, {"type": "recruit", "lord": "Master of Magic"})
    with pytest.raises(IllegalAction, match="you hold no 'squid' Ally of value 5"):
        state.apply({"type": "pay", **card("squid", 5)})
    play(state, {"type": "pay", **card("jellyfish", 3)}, {"type": "pay", **card("crab", 2)})
    before = all_views(state)
    with pytest.raises(IllegalAction, match="draw_lord is a chance event"):
        state.apply({"type": "draw_lord", "name": "Keeper"})
    assert all_views(state) == before


def test_a_chance_node_refuses_decisions_and_impossible_outcomes():
    state = table(2, pearls={1: 0})
    play(state, "explore")
    with pytest.raises(IllegalAction, match="chance player's reveal is next"):
        state.apply({"type": "explore"})
    state._deck[_card_int("crab", 5)] = 0
    with pytest.raises(IllegalAction, match="not a possible reveal"):
        state.apply({"type": "reveal", "card": card("crab", 5)})


# -- the task registry ---------------------------------------------------------------------


def test_every_task_is_served_a_decision_by_its_choices_and_what_resolves_them():
    decisions, chance = set(tasks.CHOICES), set(tasks.CHANCE_TASKS)
    assert set(tasks.RESOLVERS) == decisions | chance
    assert not decisions & chance
    assert not set(tasks.STEPS) & set(tasks.RESOLVERS)


def test_a_task_served_twice_is_refused():
    with pytest.raises(ValueError, match="'pay' is served twice"):
        tasks.resolves("pay")(lambda state, top, action: None)
