"""Abyss, card by card: a scenario for each of the 35 Lords' powers (or for their lack of one)
and each of the 20 Locations' scoring. The table and the helpers are test_abyss.py's.

``hire`` recruits a Lord with a hand dealt to pay for it exactly (``paying_hand``), so what
follows is the Lord's power alone.
"""

from __future__ import annotations

import pytest

from games.rules import CHANCE, IllegalAction
from games.rules.abyss import data
from tests.games.rules.test_abyss import (
    card,
    draw_lords,
    hand,
    legal,
    lord_names,
    play,
    player,
    recruit,
    reveal,
    table,
    types,
)

LORDS = {lord.name: lord for lord in data.LORDS}
FILLERS = ("Gardener", "Grower", "Harvester", "Herdsman")


def paying_hand(name):
    """Allies that pay exactly for ``name``: its races (the required one first), values raised
    in turn from 1 until they reach its cost."""
    lord = LORDS[name]
    first = lord.required or data.SQUID
    races = [first] + [r for r in data.RACES if r != first][: lord.races - 1]
    cards = [[race, 1] for race in races]
    i = 0
    while sum(value for _, value in cards) < lord.cost:
        if all(value == 5 for _, value in cards):
            cards.append([first, 1])
            continue
        if cards[i][1] < 5:
            cards[i][1] += 1
        i = (i + 1) % len(cards)
    return [tuple(c) for c in cards]


def court_with(name):
    """The Court: the Lord to hire and three others, so no refill follows."""
    return (name,) + tuple(f for f in FILLERS if f != name)[:3]


def hire(state, name):
    """The seat to play recruits ``name`` with its paying hand (the first lowest affiliated)."""
    seat = state._turn
    recruit(state, name, *paying_hand(name))
    if state._tasks[-1][0] == "affiliate":
        play(state, legal(state)[0])
    assert name in lord_names(state, seat)
    return state


def hiring(name, players=2, *, hands=None, pearls=None, **kwargs):
    """A table where seat 0 holds ``name``'s paying hand (plus ``hands[0]``)."""
    hands = dict(hands or {})
    hands[0] = paying_hand(name) + list(hands.get(0, []))
    pearls = {0: 0, **(pearls or {})}
    kwargs.setdefault("court", court_with(name))
    return table(players, hands=hands, pearls=pearls, **kwargs)


def test_every_lord_can_be_paid_by_its_paying_hand():
    for name in LORDS:
        state = hire(hiring(name), name)
        assert hand(state, 0) == [] or name == "Corruptor"


# -- Politicians -----------------------------------------------------------------------------


def test_corruptor_buys_a_second_lord_for_five_pearls():
    state = hire(hiring("Corruptor", pearls={0: 6}), "Corruptor")
    assert legal(state) == [
        {"type": "corrupt", "lord": name} for name in ("Gardener", "Grower", "Harvester")
    ] + [{"type": "skip"}]
    affiliated = player(state, 0)["affiliated"]
    play(state, {"type": "corrupt", "lord": "Grower"})
    me = player(state, 0)
    assert lord_names(state, 0) == ["Corruptor", "Grower"]
    assert me["affiliated"] == affiliated  # no Allies, nothing affiliated
    # 6 - 5; and two Lords left at the Court: its 2 pearls, once for the whole action.
    assert me["pearls"] == 3
    assert state.current_player == CHANCE and len(state.view(0)["court"]) == 2


def test_corruptor_without_five_pearls_does_nothing():
    state = hire(hiring("Corruptor", pearls={0: 4}), "Corruptor")
    assert lord_names(state, 0) == ["Corruptor"] and state.view(0)["turn"] == 1


def test_ruling_the_corruptors_lord_is_a_recruit_and_may_be_the_seventh():
    state = hire(
        hiring(
            "Corruptor",
            pearls={0: 5},
            lords={0: ["Keeper", "Trader", "Peddler", "Herald", "Hunter"]},
        ),
        "Corruptor",
    )
    play(state, {"type": "corrupt", "lord": "Gardener"})
    assert len(lord_names(state, 0)) == 7
    assert state.view(None)["end_triggered_by"] == 0


def test_ruling_the_corruptor_pays_five_pearls_whatever_the_treasurer_or_recruiter():
    state = hire(
        hiring("Corruptor", 3, pearls={0: 5}, lords={0: ["Treasurer"], 1: ["Recruiter"]}),
        "Corruptor",
    )
    assert "corrupt" in types(state)
    play(state, {"type": "corrupt", "lord": "Gardener"})
    assert player(state, 0)["pearls"] == 0 + 2  # 5 paid, then the Court's bonus


def test_diplomat_lets_any_races_pay_keeping_their_number():
    # The Keeper wants a Seahorse among its two races.
    cards = [("crab", 5), ("squid", 3)]
    without = table(2, court=court_with("Keeper"), hands={0: cards}, pearls={0: 0})
    assert {"type": "recruit", "lord": "Keeper"} not in legal(without)
    state = table(
        2, court=court_with("Keeper"), hands={0: cards}, pearls={0: 0}, lords={0: ["Diplomat"]}
    )
    assert {"type": "recruit", "lord": "Keeper"} in legal(state)
    recruit(state, "Keeper", *cards)
    assert "Keeper" in lord_names(state, 0)
    three_races = table(
        2,
        court=court_with("Keeper"),
        lords={0: ["Diplomat"]},
        hands={0: [("crab", 4), ("squid", 2), ("jellyfish", 2)]},
        pearls={0: 0},
    )
    assert {"type": "recruit", "lord": "Keeper"} not in legal(three_races)


def test_opportunist_replaces_a_court_lord_once_a_turn_before_the_action():
    state = table(
        2, court=("Keeper", "Elder", "Jailor", "Hunter"), lords={0: ["Opportunist"]}, pearls={0: 1}
    )
    assert {"type": "replace", "lord": "Jailor"} in legal(state)
    play(state, {"type": "replace", "lord": "Jailor"})
    draw_lords(state, "Trader")
    view = state.view(0)
    assert view["court"] == ["Keeper", "Elder", "Hunter", "Trader"]
    assert view["lords_discarded"] == ["Jailor"]
    assert "replace" not in types(state) and view["decision"]["kind"] == "start"


def test_treasurer_makes_recruits_two_cheaper():
    cards = [("seahorse", 4), ("crab", 2)]  # 6 for the Keeper's 8
    without = table(2, court=court_with("Keeper"), hands={0: cards}, pearls={0: 0})
    assert {"type": "recruit", "lord": "Keeper"} not in legal(without)
    state = table(
        2, court=court_with("Keeper"), hands={0: cards}, pearls={0: 0}, lords={0: ["Treasurer"]}
    )
    recruit(state, "Keeper", *cards)
    assert lord_names(state, 0) == ["Treasurer", "Keeper"]


def test_traitor_swaps_another_free_lord_even_an_assassinated_one_for_a_court_lord():
    state = hiring(
        "Traitor",
        lords={0: ["Keeper", ("Gardener", "assassinated")]},
        court=("Traitor", "Shopkeeper", "Grower", "Harvester"),
        locations={0: {"Parliament": ["Elder"]}},
        face_up=(),
    )
    hire(state, "Traitor")
    # The Elder is under a Location: not free, not a target; nor is the Traitor itself.
    assert legal(state) == [
        {"type": "betray", "lord": "Keeper"},
        {"type": "betray", "lord": "Gardener"},
        {"type": "skip"},
    ]
    play(state, {"type": "betray", "lord": "Gardener"})
    assert [a["lord"] for a in legal(state)] == ["Shopkeeper", "Grower", "Harvester"]
    play(state, {"type": "take_lord", "lord": "Shopkeeper"})
    me = player(state, 0)
    assert lord_names(state, 0) == ["Keeper", "Elder", "Traitor", "Shopkeeper"]
    assert state.view(0)["lords_discarded"] == ["Gardener"]
    # The newcomer's power acts at once (1 pearl); two Lords left at the Court: 2 pearls.
    assert me["pearls"] == 3
    assert state.view(0)["court"] == ["Grower", "Harvester"]


def test_schemer_swaps_another_free_lord_for_the_top_of_the_lord_deck():
    state = hire(hiring("Schemer", lords={0: ["Keeper"]}), "Schemer")
    assert legal(state) == [{"type": "betray", "lord": "Keeper"}, {"type": "skip"}]
    play(state, {"type": "betray", "lord": "Keeper"})
    assert state.current_player == CHANCE
    state.apply({"type": "draw_lord", "name": "Peddler"})
    assert lord_names(state, 0) == ["Schemer", "Peddler"]
    assert player(state, 0)["pearls"] == 2  # the Peddler's power, at once
    assert state.view(0)["lords_discarded"] == ["Keeper"]


# -- Soldiers --------------------------------------------------------------------------------


def test_seeker_makes_each_opponent_give_back_two_pearls():
    state = hire(hiring("Seeker", 3, pearls={1: 5, 2: 1}), "Seeker")
    assert [p["pearls"] for p in state.view(None)["players"]] == [0, 3, 0]


def test_recruiter_makes_opponents_recruits_two_dearer():
    cards = [("seahorse", 5), ("crab", 3)]  # 8: the Keeper's cost, not 10
    state = table(
        2, court=court_with("Keeper"), hands={0: cards}, pearls={0: 0}, lords={1: ["Recruiter"]}
    )
    assert {"type": "recruit", "lord": "Keeper"} not in legal(state)
    state = table(
        2, court=court_with("Keeper"), hands={0: cards}, pearls={0: 2}, lords={1: ["Recruiter"]}
    )
    recruit(state, "Keeper", *cards)
    assert player(state, 0)["pearls"] == 0 and "Keeper" in lord_names(state, 0)
    # The owner's own recruits are not dearer; an assassinated Recruiter does nothing.
    own = table(
        2, court=court_with("Keeper"), hands={0: cards}, pearls={0: 0}, lords={0: ["Recruiter"]}
    )
    assert {"type": "recruit", "lord": "Keeper"} in legal(own)
    killed = table(
        2,
        court=court_with("Keeper"),
        hands={0: cards},
        pearls={0: 0},
        lords={1: [("Recruiter", "assassinated")]},
    )
    assert {"type": "recruit", "lord": "Keeper"} in legal(killed)


def test_tamer_gives_opponents_the_reward_of_the_space_below():
    state = table(2, lords={1: ["Tamer"]}, pearls={1: 0}, threat=3)
    play(state, "explore")
    reveal(state, "monster")
    play(state, "fight")
    assert state.view(0)["decision"]["space"] == 2  # not the key of space 3
    assert len(legal(state)) == 3


def test_tamer_on_the_first_space_the_reward_is_that_spaces_own():
    # The Greek glossary's "Trainer": fighting on the first space still earns its reward.
    state = table(2, lords={1: ["Tamer"]}, pearls={1: 0}, threat=1)
    play(state, "explore")
    reveal(state, "monster")
    play(state, "fight")
    assert state.view(0)["decision"] == {"kind": "reward", "seat": 0, "space": 1}
    own = table(2, lords={0: ["Tamer"]}, pearls={1: 0}, threat=3)
    play(own, "explore")
    reveal(own, "monster")
    play(own, "fight")
    assert player(own, 0)["key_tokens"] == 1  # its owner is not affected


def test_commander_on_recruit_opponents_discard_down_to_six_by_their_own_choice():
    eight = [
        ("squid", 1),
        ("squid", 2),
        ("crab", 1),
        ("crab", 2),
        ("crab", 3),
        ("seahorse", 1),
        ("seahorse", 2),
        ("jellyfish", 1),
    ]
    seven = [
        ("shellfish", 1),
        ("shellfish", 2),
        ("shellfish", 3),
        ("jellyfish", 2),
        ("jellyfish", 3),
        ("seahorse", 3),
        ("squid", 3),
    ]
    state = hire(hiring("Commander", 3, hands={1: eight, 2: seven}), "Commander")
    assert state.current_player == 1 and types(state) == ["discard"]
    play(state, {"type": "discard", **card("crab", 3)}, {"type": "discard", **card("squid", 2)})
    assert state.current_player == 2
    play(state, {"type": "discard", **card("jellyfish", 3)})
    assert [player(state, s)["hand_size"] for s in (1, 2)] == [6, 6]
    assert ("crab", 3) not in hand(state, 1) and ("jellyfish", 3) not in hand(state, 2)


def test_commander_while_free_opponents_discard_down_to_six_at_the_end_of_their_turns():
    six = [("squid", 1), ("squid", 2), ("crab", 1), ("crab", 2), ("crab", 3), ("seahorse", 1)]
    court = ("Herdsman", "Harvester", "Gardener")  # none affordable: the turn is exploring
    state = table(
        2, turn=1, lords={0: ["Commander"]}, hands={1: six}, pearls={0: 0, 1: 0}, court=court
    )
    reveal(state, "jellyfish", 4)
    play(state, "take")
    # Seven in hand at the end of its turn: seat 1 discards one of its choice.
    assert state.current_player == 1 and types(state) == ["discard"]
    play(state, {"type": "discard", **card("squid", 1)})
    assert player(state, 1)["hand_size"] == 6 and state.view(0)["turn"] == 0
    # Its owner is not limited.
    mine = table(
        2, turn=0, lords={0: ["Commander"]}, hands={0: six}, pearls={0: 0, 1: 0}, court=court
    )
    reveal(mine, "jellyfish", 4)
    play(mine, "take")
    assert player(mine, 0)["hand_size"] == 7 and mine.view(0)["turn"] == 1


def test_ruling_a_lord_is_assassinated_only_once():
    state = hire(
        hiring("Assassin", lords={1: [("Landlord", "assassinated"), "Herald"]}), "Assassin"
    )
    # Only the Herald is left to target: no decision.
    assert [lord["disabled"] for lord in player(state, 1)["lords"]] == [True, True]


def test_assassin_takes_one_free_lords_power_and_keys_from_each_opponent():
    state = hiring(
        "Assassin",
        3,
        lords={1: ["Landlord", "Herald"], 2: ["Keeper"]},
        locations={2: {"Parliament": ["Elder"]}},
        face_up=(),
    )
    hire(state, "Assassin")
    # The Assassin's owner picks, opponent by opponent in turn order.
    assert state.current_player == 0
    assert legal(state) == [
        {"type": "assassinate", "seat": 1, "lord": "Landlord"},
        {"type": "assassinate", "seat": 1, "lord": "Herald"},
    ]
    play(state, {"type": "assassinate", "seat": 1, "lord": "Herald"})
    # Seat 2's only free Lord is the Keeper (the Elder is under a Location): no decision.
    view = state.view(None)
    assert view["players"][2]["lords"][0] == {
        "name": "Keeper",
        "guild": "farmer",
        "free": True,
        "disabled": True,
    }
    assert view["players"][1]["keys"] == 0  # the Herald's key is gone
    assert view["players"][1]["lords"][1]["free"] is True  # still free, still 5 points


def test_jailor_makes_each_opponent_discard_an_ally_of_its_choice():
    state = hire(
        hiring("Jailor", 3, hands={1: [("crab", 1), ("squid", 5)], 2: [("seahorse", 2)]}), "Jailor"
    )
    assert state.current_player == 1
    play(state, {"type": "discard", **card("crab", 1)})
    # Seat 2's lone Ally goes without a decision.
    assert hand(state, 1) == [("squid", 5)] and player(state, 2)["hand_size"] == 0
    assert state.view(0)["turn"] == 1


def test_hunter_steals_a_random_monster_token_seen_only_by_thief_and_victim():
    state = hire(hiring("Hunter", 3, tokens={1: [4, 2]}), "Hunter")
    # Only seat 1 has tokens: it is the target without a decision; the token is drawn.
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert [(o["value"], p) for o, p in outcomes] == [(2, 0.5), (4, 0.5)]
    steal = outcomes[1][0]
    assert steal == {"type": "steal", "thief": 0, "victim": 1, "value": 4}
    assert state.private_to(steal) == frozenset({0, 1})
    assert state.public_form(steal) == {"type": "steal", "thief": 0, "victim": 1}
    state.apply(steal)
    assert player(state, 0)["monster_token_values"] == [4]
    assert player(state, 1)["monster_token_values"] == [2]
    assert "monster_token_values" not in player(state, 0, viewer=2)


def test_hunter_picks_the_opponent_when_several_have_tokens():
    state = hire(hiring("Hunter", 3, tokens={1: [3], 2: [2]}), "Hunter")
    assert legal(state) == [{"type": "hunt", "seat": 1}, {"type": "hunt", "seat": 2}]
    play(state, {"type": "hunt", "seat": 2})
    assert state.chance_outcomes() == [
        ({"type": "steal", "thief": 0, "victim": 2, "value": 2}, 1.0)
    ]


# -- Merchants -------------------------------------------------------------------------------


def test_landlord_gives_a_pearl_at_the_start_of_each_of_its_owners_turns():
    full_court = FILLERS + ("Keeper", "Elder")
    state = table(2, lords={0: ["Landlord"]}, pearls={0: 0, 1: 0}, court=full_court)
    assert player(state, 0)["pearls"] == 1
    reveal(state, "crab", 1)
    play(state, "take")
    assert player(state, 1)["pearls"] == 0  # not on the opponent's turn
    reveal(state, "crab", 2)
    play(state, "decline", "take")
    assert player(state, 0)["pearls"] == 2


def test_a_lord_under_a_location_has_lost_its_power():
    full_court = FILLERS + ("Keeper", "Elder")
    state = table(
        2,
        lords={0: ["Landlord"]},
        locations={0: {"Parliament": ["Landlord"]}},
        pearls={0: 0, 1: 0},
        court=full_court,
        face_up=(),
    )
    assert player(state, 0)["pearls"] == 0
    assert state.view(0)["decision"] == {"kind": "chance", "event": "reveal"}


def test_ship_master_pays_a_pearl_per_race_sent_to_the_council():
    state = table(2, lords={0: ["Ship Master"]}, pearls={0: 0, 1: 0})
    for race, value in (("crab", 1), ("crab", 2), ("squid", 1)):
        reveal(state, race, value)
        play(state, "continue")
    reveal(state, "jellyfish", 4)
    play(state, "take")
    assert player(state, 0)["pearls"] == 2  # crab and squid went to the Council
    assert state.view(0)["council"]["crab"] == 2


@pytest.mark.parametrize("name,pearls", [("Shopkeeper", 1), ("Peddler", 2), ("Trader", 3)])
def test_shopkeeper_peddler_and_trader_pay_pearls_once(name, pearls):
    state = hire(hiring(name), name)
    assert player(state, 0)["pearls"] == pearls
    assert state.view(0)["turn"] == 1


def test_slaver_sells_one_ally_a_turn_for_two_pearls_before_the_action():
    state = table(2, lords={0: ["Slaver"]}, hands={0: [("crab", 3), ("squid", 1)]}, pearls={0: 0})
    assert legal(state)[:2] == [
        {"type": "sell", **card("squid", 1)},
        {"type": "sell", **card("crab", 3)},
    ]
    play(state, {"type": "sell", **card("crab", 3)})
    assert player(state, 0)["pearls"] == 2 and hand(state, 0) == [("squid", 1)]
    assert state.view(0)["discard_size"] == 1
    assert "sell" not in types(state)


# -- Mages -----------------------------------------------------------------------------------


def test_alchemist_takes_a_second_council_stack():
    state = table(
        2,
        lords={0: ["Alchemist"]},
        pearls={0: 0},
        council=[("crab", 1), ("squid", 2), ("jellyfish", 5)],
    )
    play(state, {"type": "council", "race": "crab"})
    assert legal(state) == [
        {"type": "council", "race": "squid"},
        {"type": "council", "race": "jellyfish"},
    ]
    play(state, {"type": "council", "race": "jellyfish"})
    assert hand(state, 0) == [("crab", 1), ("jellyfish", 5)]
    assert state.view(0)["council"]["squid"] == 1


def test_apprentice_takes_a_council_stack_into_hand():
    state = hire(
        hiring("Apprentice", council=[("crab", 1), ("crab", 4), ("squid", 2)]), "Apprentice"
    )
    assert legal(state) == [
        {"type": "council", "race": "squid"},
        {"type": "council", "race": "crab"},
    ]
    play(state, {"type": "council", "race": "crab"})
    assert hand(state, 0) == [("crab", 1), ("crab", 4)]


def test_illusionist_swaps_a_location_and_its_lords_for_a_face_up_one():
    state = hiring(
        "Illusionist", locations={0: {"Parliament": ["Elder"]}}, face_up=("Sanctuary", "Abyss")
    )
    hire(state, "Illusionist")
    assert legal(state) == [{"type": "swap", "location": "Parliament"}, {"type": "skip"}]
    play(state, {"type": "swap", "location": "Parliament"})
    play(state, {"type": "location", "name": "Abyss"})
    view = state.view(0)
    assert view["players"][0]["locations"] == [{"name": "Abyss", "lords": ["Elder"]}]
    assert view["locations_available"] == ["Sanctuary", "Parliament"]


def test_invoker_plays_another_whole_turn():
    state = hire(hiring("Invoker"), "Invoker")
    view = state.view(0)
    assert view["turn"] == 0 and view["decision"] == {"kind": "chance", "event": "reveal"}
    reveal(state, "crab", 1)
    play(state, "decline", "take")
    assert state.view(0)["turn"] == 1


def test_ruling_the_invokers_turn_is_played_even_in_the_last_round():
    state = hire(hiring("Invoker", end_seat=1), "Invoker")  # seat 0 plays the last turn
    assert not state.is_terminal() and state.view(0)["turn"] == 0
    reveal(state, "crab", 1)
    play(state, "decline", "take")
    assert state.is_terminal()


def test_oracle_discards_a_council_stack():
    state = hire(hiring("Oracle", council=[("crab", 1), ("crab", 4), ("squid", 2)]), "Oracle")
    discarded = state.view(0)["discard_size"]
    play(state, {"type": "discard_stack", "race": "crab"})
    view = state.view(0)
    assert view["council"]["crab"] == 0 and view["discard_size"] == discarded + 2
    assert view["players"][0]["hand_size"] == 0


JAILOR_PAID = [("crab", 5), ("squid", 2), ("shellfish", 2)]  # 9 over three races, a Crab


def affiliation_after_jailor(lords, *choice):
    state = table(
        2, court=court_with("Jailor"), hands={0: JAILOR_PAID}, pearls={0: 0}, lords={0: lords}
    )
    recruit(state, "Jailor", *JAILOR_PAID)
    offered = [a for a in legal(state) if a["type"] == "affiliate"]
    for action in choice:
        play(state, action)
    return state, offered


def test_master_of_magic_lets_later_recruits_affiliate_the_ally_of_your_choice():
    state, offered = affiliation_after_jailor(
        ["Master of Magic"], {"type": "affiliate", **card("crab", 5)}
    )
    assert sorted((a["race"], a["value"]) for a in offered) == [
        ("crab", 5),
        ("shellfish", 2),
        ("squid", 2),
    ]
    assert player(state, 0)["affiliated"] == [card("crab", 5)]
    assert "Jailor" in lord_names(state, 0)


def test_without_the_master_only_the_weakest_allies_are_offered():
    state, offered = affiliation_after_jailor([], {"type": "affiliate", **card("squid", 2)})
    assert sorted(a["race"] for a in offered) == ["shellfish", "squid"]
    assert {a["value"] for a in offered} == {2}
    assert player(state, 0)["affiliated"] == [card("squid", 2)]


def test_master_of_magic_changes_no_recruits_races():
    # The Jailor still needs three races with the Master free.
    cards = [("crab", 5), ("squid", 4)]
    state = table(
        2,
        court=court_with("Jailor"),
        hands={0: cards},
        pearls={0: 0},
        lords={0: ["Master of Magic"]},
    )
    assert {"type": "recruit", "lord": "Jailor"} not in legal(state)


def test_master_of_magic_does_not_choose_its_own_recruits_ally():
    # Greek glossary: its cost is paid and the weakest Ally affiliated before it comes into play.
    state = table(
        2,
        court=court_with("Master of Magic"),
        hands={0: [("jellyfish", 3), ("crab", 2), ("shellfish", 5)]},
        pearls={0: 0},
    )
    recruit(state, "Master of Magic", ("jellyfish", 3), ("crab", 2), ("shellfish", 5))
    assert "affiliate" not in types(state)
    assert player(state, 0)["affiliated"] == [card("crab", 2)]
    assert "Master of Magic" in lord_names(state, 0)


def test_under_rules_version_1_master_of_magic_later_recruits_need_one_race_fewer():
    # The Jailor: 9 over three races, a Crab among them. Two races do, with the Master.
    cards = [("crab", 5), ("squid", 4)]
    without = table(2, court=court_with("Jailor"), hands={0: cards}, pearls={0: 0}, version=1)
    assert {"type": "recruit", "lord": "Jailor"} not in legal(without)
    state = table(
        2,
        court=court_with("Jailor"),
        hands={0: cards},
        pearls={0: 0},
        lords={0: ["Master of Magic"]},
        version=1,
    )
    recruit(state, "Jailor", *cards)
    assert "Jailor" in lord_names(state, 0)
    # Never fewer than one race: the Hunter (one Crab race) still takes one.
    one = table(
        2,
        court=court_with("Hunter"),
        hands={0: [("crab", 5), ("crab", 1)]},
        pearls={0: 0},
        lords={0: ["Master of Magic"]},
        version=1,
    )
    recruit(one, "Hunter", ("crab", 5), ("crab", 1))
    assert "Hunter" in lord_names(one, 0)


def test_under_rules_version_1_master_of_magic_chooses_no_ally():
    # Two races pay for the Jailor with the Master free; the weakest Ally paid is affiliated
    # without a choice, where version 2 would offer either.
    cards = [("crab", 5), ("squid", 4)]
    state = table(
        2,
        court=court_with("Jailor"),
        hands={0: cards},
        pearls={0: 0},
        lords={0: ["Master of Magic"]},
        version=1,
    )
    recruit(state, "Jailor", *cards)
    assert "affiliate" not in types(state)
    assert player(state, 0)["affiliated"] == [card("squid", 4)]
    assert "Jailor" in lord_names(state, 0)


def test_an_assassinated_master_of_magic_chooses_nothing():
    state = table(
        2,
        court=court_with("Jailor"),
        hands={0: JAILOR_PAID},
        pearls={0: 0},
        lords={0: ["Master of Magic"]},
    )
    state._lords[0][0][2] = True  # hit by an opponent's Assassin
    recruit(state, "Jailor", *JAILOR_PAID)
    assert {a["value"] for a in legal(state) if a["type"] == "affiliate"} == {2}


# -- Farmers and Ambassadors -----------------------------------------------------------------


@pytest.mark.parametrize("name", [lord.name for lord in data.LORDS if lord.guild == data.FARMER])
def test_farmers_have_no_power_only_points(name):
    state = hire(hiring(name, pearls={0: 3, 1: 4}), name)
    view = state.view(0)
    assert view["players"][0]["pearls"] == 3 and view["players"][1]["pearls"] == 4
    assert view["players"][0]["keys"] == 0 and view["turn"] == 1
    state._tasks = [("game_over",)]
    state._advance()
    assert state.view(None)["scores"][0]["lords"] == LORDS[name].ip


@pytest.mark.parametrize(
    "name", [lord.name for lord in data.LORDS if lord.guild == data.AMBASSADOR]
)
def test_ambassadors_bring_keys(name):
    state = hire(hiring(name), name)
    keys = LORDS[name].keys
    if keys >= 3:
        # Three keys on one Lord: it goes under a Location at once.
        assert state.view(0)["decision"]["kind"] == "choose_location"
        play(state, {"type": "location", "name": "Parliament"})
        assert player(state, 0)["locations"] == [{"name": "Parliament", "lords": [name]}]
    else:
        assert player(state, 0)["keys"] == keys and state.view(0)["turn"] == 1


# -- Locations -------------------------------------------------------------------------------

# The rulebook's player: its seven Lords (the Elder under the Location), its affiliated Allies
# (Jellyfish 3 and 1, Squid 3, Crab 2, Seahorse 1, Shellfish 5), tokens 2 and 4, 5 pearls and
# 2 key tokens, controlling only the Location scored.
LOCATION_POINTS = {
    "Parliament": 6 + 2 * 2,
    "Sanctuary": 4 + 3 * 2,
    "Abyss": 2 * 6,
    "Ink Caverns": 4 + 3,
    "Pearl Beds": 4 + 3,
    "Claw Reef": 4 + 3,
    "Kelp Stables": 4 + 3,
    "Barracks": 6 + 2,
    "Market Hall": 6 + 2,
    "Arcane Grotto": 6 + 2,
    "Sargasso Fields": 5 + 2,
    "Embassy": 6 + 2,
    "Sunken Gate": 2 + 3 * 2,
    "Lighthouse": 6 + 2,
    "Monster Lair": 2 + 2 * 2,
    "Bone Field": 6 + 2,
    "Treasure Grotto": 2 + 5,
    "Oyster Vault": 6 + 5 // 2,
    "Citadel": 2 + 2,
    "Watchtower": 5 + 1,
}


def test_every_location_is_scored():
    assert set(LOCATION_POINTS) == {loc.name for loc in data.LOCATIONS}


@pytest.mark.parametrize("name", sorted(LOCATION_POINTS))
def test_location_scoring(name):
    state = table(
        2,
        face_up=(),
        pearls={0: 5},
        key_tokens={0: 2},
        lords={
            0: ["Keeper", "Slaver", "Master of Magic", "Elder", "Jailor", "Traitor", "Corruptor"]
        },
        locations={0: {name: ["Elder"]}},
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
    assert state.view(None)["scores"][0]["locations"] == LOCATION_POINTS[name]


def test_ruling_an_assassinated_lord_still_counts_for_its_guild():
    state = table(
        2,
        face_up=(),
        lords={0: [("Traitor", "assassinated"), "Corruptor"]},
        locations={0: {"Parliament": []}},
    )
    state._tasks = [("game_over",)]
    state._advance()
    assert state.view(None)["scores"][0]["locations"] == 6 + 2 * 2


def test_a_lord_under_a_location_is_no_target_and_keeps_its_points():
    state = hiring(
        "Assassin", lords={1: ["Keeper"]}, locations={1: {"Parliament": ["Keeper"]}}, face_up=()
    )
    hire(state, "Assassin")
    assert player(state, 1)["lords"][0]["disabled"] is False
    with pytest.raises(IllegalAction):
        state.apply({"type": "assassinate", "seat": 1, "lord": "Keeper"})
