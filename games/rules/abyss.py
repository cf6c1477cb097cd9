"""Abyss: 2 to 4 players court the Lords of the deep with Allies, pearls and keys.

Kind of game: 2 to 4 players taking turns clockwise; chance (the first player, every card or
tile drawn from a deck, every Monster token drawn, the Hunter's steal); hidden information
(each hand, the Council's face-down stacks and each seat's Monster tokens). The decks' order
does not exist until a card is drawn: each draw is one chance node, probability = copies left
/ cards left. The Lords and Locations are one table each in :mod:`games.rules.abyss_data`.

The source is the Greek rulebook (../shared/rules/abyss.el.txt); where the English digest
differs, the Greek wins (see the last rulings).

Actions
-------
Chance: ``{"type": "first_player", "seat": s}`` (uniform); ``{"type": "draw_lord", "name"}``
(to the Court, or the Schemer's replacement); ``{"type": "draw_location", "name"}``;
``{"type": "reveal", "card": {"race", "value"} or {"monster": true}}`` (exploration);
``{"type": "draw_token", "seat", "value"}`` (private to ``seat``: others see no value);
``{"type": "steal", "thief", "victim", "value"}`` (the Hunter's; private to both seats).

Decisions, by the seat each belongs to (cards are named by race and value, Lords and
Locations by name):

- the turn's opening, the active seat: ``plot`` (1 pearl: a Lord from the deck to the Court),
  ``sell`` race value (Slaver), ``replace`` lord (Opportunist), and the action: ``explore``,
  ``council`` race (request support), ``recruit`` lord;
- exploring: each opponent in turn offered the Ally just revealed: ``buy`` / ``decline``; the
  explorer: ``take`` / ``continue`` on an Ally nobody bought, ``fight`` / ``continue`` on a
  Monster; the reward of the Threat space: ``reward`` pearls tokens keys;
- recruiting: ``pay`` race value (one Ally at a time), ``pay_pearls`` amount (the points still
  missing, once every race is paid), ``affiliate`` race value (among several lowest);
- keys: ``use_lord`` lord / ``use_token`` until 3 keys are spent; then ``location`` name (face
  up) or ``draw_locations`` count (1-4), then ``location`` name among those drawn;
- powers: ``discard`` race value (the Jailor's or Commander's victim, its own choice),
  ``assassinate`` seat lord, ``hunt`` seat, ``betray`` lord / ``skip`` (Traitor, Schemer),
  ``take_lord`` lord (Traitor), ``corrupt`` lord / ``skip`` (Corruptor), ``council`` race
  (Apprentice, Alchemist), ``discard_stack`` race (Oracle), ``swap`` location / ``skip`` then
  ``location`` name (Illusionist).

A step with a single possible action happens without a decision point (the forced take or
fight on the last space, a lone reward, spending keys that are all tokens, ...).

Rulings
-------
- Setup, in this order of chance events: the first player, six Lords to the Court, one
  Location face up. Every seat starts with 1 pearl; seats play in order 0, 1, ... clockwise.
- Plotting (pay 1 pearl: the top Lord of the deck to an empty Court slot) and the turn-long
  powers used "before the action" (the Slaver's sale, the Opportunist's swap, each once a
  turn) are all offered at the turn's opening, in any order, until the seat picks its action.
- Explore is always possible: the six Monsters are always in the deck or the discard at the
  start of a turn, so a card can always be revealed and the track (5 spaces) fills before the
  cards run out. An empty deck is refilled from the whole discard when a card must be drawn.
- Offers go to the opponents clockwise from the explorer; an opponent is asked only if it can
  pay the price and has not bought in this turn. Prices are 1, 2, 3 by purchases this turn. A
  bought Ally leaves the track and the explorer reveals the next card.
- The last space: an Ally revealed there that nobody buys is taken with 1 pearl, even if the
  track holds Monsters the explorer went past; a Monster revealed there is fought, with 1
  pearl on top of the reward. Exploring on past a Monster with the Threat token on its last
  space leaves it there.
- Threat rewards are drawn as the reward names them; a choice naming more Monster tokens than
  are left in the pool is not offered (each space has a choice without tokens or with keys).
- Tamer (the Greek glossary's "Trainer"): an opponent of its owner who fights takes the
  reward of the space below the token; on the first space it takes that space's reward.
- A recruit's cost: the exact number of different races (Master of Magic: one fewer, at least
  one), the required race (Diplomat: none), the value (Treasurer: 2 less; an opponent's free
  Recruiter: 2 more). Only Allies that still leave the recruit completable are offered, so
  every payment can be finished. The payment ends as soon as it is complete; pearls are
  offered only once every race is paid, and pay exactly the missing points.
- The Lord is placed and its once-power acts before the Court is closed up; then, if a Lord
  left the Court during the action and 2 or fewer remain, the recruiter gains 2 pearls and
  the empty slots are refilled one draw at a time. If the deck cannot fill them, the end is
  triggered (by the recruiter). One check closes a whole action (a Corruptor's or Traitor's
  Lord included), so the bonus is paid at most once per action.
- Keys are key tokens plus the keys of free, not assassinated Lords. At 3 or more, once the
  action and the powers it set off have resolved, the seat takes a Location: it spends keys
  one source at a time (a Lord's keys all at once) until 3 or more are spent, so a Lord with
  more keys than still needed wastes the rest, by its owner's choice. Spent Lords go under the
  Location. This repeats while it holds 3 keys. With no Location face up and none in the
  stack, nothing happens and the keys stay. Key tokens are not limited.
- Drawing Locations: the seat keeps one of those it drew (not one face up before); the others
  stay face up for everyone.
- Powers with targets: the Assassin's owner picks the victim's free Lord, not the victim
  (Greek: "the Lord the Assassin targets"); a Lord can be assassinated once, and it still
  counts as a Lord of its guild for Locations. The Jailor's and Commander's discards are the
  victim's own choice, one card at a time, in turn order. The Traitor and Schemer (may) discard
  any other free Lord of their owner, assassinated ones included; the Lord discarded leaves the
  game; the newcomer is free and its once-power acts at once. The Traitor's Lord from the Court
  counts as leaving the Court. The Corruptor buys its Lord for exactly 5 pearls (Treasurer and
  Recruiter do not change that), without Allies or affiliation; it is a recruit (7th Lord,
  Court check). The Illusionist's Lords under the Location given back move under the new one,
  which goes to its owner; the old one is face up for everyone. The Hunter's owner picks an
  opponent with tokens; the token is drawn at random among that opponent's. The Opportunist's
  Court Lord leaves the game; the Slaver's Ally goes to the discard.
- Turn-long powers work only while their Lord is free and not assassinated: Landlord (1 pearl
  at the start of each of its owner's turns), Ship Master (1 pearl per different race its
  owner's exploration sends to the Council), Alchemist (a second Council stack, chosen after
  the first, taken whenever one is left), Commander (at the end of each opponent's turn that
  opponent discards down to 6), Recruiter, Treasurer, Diplomat, Master of Magic, Tamer, Slaver,
  Opportunist.
- Invoker: its owner plays another whole turn after this one, even in the last round.
- The end: the 7th Lord (recruited or bought by the Corruptor) or a Court refill the deck
  cannot complete triggers it; that turn is finished, then every other seat plays one more
  turn (the trigger seat does not play again, except an Invoker's turn). Then each seat
  affiliates the lowest Ally of each race left in hand and discards the rest.
- Score: Locations + Lords' Influence Points + the highest affiliated Ally of each race +
  Monster tokens. Ties: most pearls, then the highest Influence Points of one Lord (the
  Greek's "highest-valued Lord"); seats still tied share the rank.
- Hidden information: a seat sees its own hand and token values, and of others only counts;
  the Council's stacks show their counts; the deck and discard show their sizes. Cards paid,
  sold or discarded by a decision are named in the action and so are public.
- Greek over digest: the Greek gives no player count (its Threat example has three
  opponents); 2-4 as in the project's design. The Greek names no number of key tokens (the
  digest's 10): none is enforced. The digest's "spend exactly 3 keys" is the Greek's "choose
  which keys to give" (see the keys ruling). The digest's "Tamer ('Trainer')" is the Greek
  glossary's Trainer.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from games.rules import abyss_data as data
from games.rules import base
from games.rules.base import CHANCE, TERMINAL, Action, GameSpec, register

_RACES = data.RACES
_RACE_INDEX = {race: i for i, race in enumerate(_RACES)}
# An Exploration card is an int: race * 5 + value - 1 for an Ally (0..24), 25 for a Monster.
_ALLIES = 25
_MONSTER = 25
_CARDS = 26
_RACE = tuple(c // 5 for c in range(_ALLIES))
_VALUE = tuple(c % 5 + 1 for c in range(_ALLIES))
_FULL_DECK = tuple([data.ALLY_COPIES[v] for _ in _RACES for v in range(1, 6)] + [data.MONSTERS])
_TOKEN_VALUES = tuple(sorted(data.MONSTER_TOKENS))
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(32))

_LORDS = data.LORDS
_LORD_INDEX = {lord.name: i for i, lord in enumerate(_LORDS)}
_L_NAME = tuple(lord.name for lord in _LORDS)
_L_GUILD = tuple(lord.guild for lord in _LORDS)
_L_COST = tuple(lord.cost for lord in _LORDS)
_L_RACES = tuple(lord.races for lord in _LORDS)
_L_REQUIRED = tuple(-1 if lord.required is None else _RACE_INDEX[lord.required] for lord in _LORDS)
_L_IP = tuple(lord.ip for lord in _LORDS)
_L_KEYS = tuple(lord.keys for lord in _LORDS)
_L_POWER = tuple(lord.power for lord in _LORDS)
_LOCATIONS = data.LOCATIONS
_LOCATION_INDEX = {location.name: i for i, location in enumerate(_LOCATIONS)}

# A Lord in front of a seat: [lord, where, assassinated]; where is a Location index, _FREE, or
# _COMMITTED while its keys are being spent and the Location is not yet chosen.
_FREE = -1
_COMMITTED = -2

_CORRUPTOR_PRICE = 5
_SLAVER_PRICE = 2
_HAND_LIMIT = 6  # Commander
_SEEKER_TOLL = 2
_COST_SHIFT = 2  # Treasurer, Recruiter
_MERCHANT_PEARLS = {"shopkeeper": 1, "peddler": 2, "trader": 3}
_RESAMPLE_TRIES = 20

# Tasks wait on a stack, the next on top: a chance event, a seat's decision (the task's second
# item is the deciding seat) or a step carried out without a decision.
_CHANCE_TASKS = {
    "first_player": "first_player",
    "court_draw": "draw_lord",
    "scheme_draw": "draw_lord",
    "setup_location": "draw_location",
    "location_draw": "draw_location",
    "reveal": "reveal",
    "token": "draw_token",
    "steal": "steal",
}
_CHANCE_TYPES = frozenset(_CHANCE_TASKS.values())
_SEAT_TYPES = frozenset(
    (
        "plot",
        "sell",
        "replace",
        "explore",
        "council",
        "recruit",
        "buy",
        "decline",
        "take",
        "continue",
        "fight",
        "reward",
        "pay",
        "pay_pearls",
        "affiliate",
        "use_lord",
        "use_token",
        "location",
        "draw_locations",
        "discard",
        "assassinate",
        "hunt",
        "betray",
        "skip",
        "take_lord",
        "corrupt",
        "discard_stack",
        "swap",
    )
)

spec = GameSpec(
    slug="abyss",
    name="Abyss",
    min_players=2,
    max_players=4,
    version=1,
    options=(),
    chance=True,
    hidden_information=True,
    description=(
        "Explore the depths for Allies, sell them to your rivals, and spend them to "
        "recruit the Lords of the Abyss and take control of its Locations."
    ),
)


def new_game(num_players: int = 2, options: dict | None = None) -> State:
    """A game about to draw its first player and Court (chance); ValueError for bad input."""
    return State(num_players, spec.validate(num_players, options))


class State(base.State):
    """Abyss in progress; plain lists, ints and tuples only."""

    def __init__(self, num_players: int, options: dict[str, Any]):
        super().__init__(num_players, options)
        n = num_players
        self._turn = 0
        self._first: int | None = None
        self._over = False
        self._pearls = [data.STARTING_PEARLS] * n
        self._key_tokens = [0] * n
        self._hands = [[0] * _ALLIES for _ in range(n)]  # copies per card
        self._affiliated = [[0] * _ALLIES for _ in range(n)]
        self._tokens = [[0] * len(_TOKEN_VALUES) for _ in range(n)]  # per token value
        self._lords: list[list[list[int]]] = [[] for _ in range(n)]
        self._locations: list[list[int]] = [[] for _ in range(n)]
        self._court: list[int] = []
        self._lord_deck = list(range(len(_LORDS)))
        self._lords_discarded: list[int] = []
        self._location_deck = list(range(len(_LOCATIONS)))
        self._face_up: list[int] = []
        self._drawn: list[int] = []
        self._deck = list(_FULL_DECK)
        self._discard = [0] * _CARDS
        self._council = [0] * _ALLIES
        self._track: list[int] = []
        self._threat = 1
        self._token_pool = [data.MONSTER_TOKENS[v] for v in _TOKEN_VALUES]
        self._buys = 0
        self._bought = [False] * n
        self._sold = False
        self._replaced = False
        self._extra_turn = False
        self._court_left = False
        self._end_seat: int | None = None
        self._payment: list[Any] | None = None  # [lord, races, required, value, paid cards]
        self._pearls_paid = 0
        # The last recruit paid with Allies, public (forced payments log no action of their
        # own): (seat, lord, cards paid, pearls paid, card affiliated).
        self._last_recruit: tuple | None = None
        self._keys_due = 0
        self._tasks: list[tuple] = (
            [("turn_start",), ("setup_location",)]
            + [("court_draw",)] * data.COURT_SLOTS
            + [("first_player",)]
        )
        self._options: list[Action] = []
        self._advance()

    # -- the interface ------------------------------------------------------------------------

    def _current_player(self) -> int:
        if self._over:
            return TERMINAL
        top = self._tasks[-1]
        if top[0] in _CHANCE_TASKS:
            return CHANCE
        return top[1]

    def _legal_actions(self) -> list[Action]:
        return [dict(action) for action in self._options]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        top = self._tasks[-1]
        kind = top[0]
        if kind == "first_player":
            n = self.num_players
            return [({"type": "first_player", "seat": s}, 1 / n) for s in range(n)]
        if kind in ("court_draw", "scheme_draw"):
            deck = self._lord_deck
            return [
                ({"type": "draw_lord", "name": _L_NAME[lord]}, 1 / len(deck))
                for lord in sorted(deck)
            ]
        if kind in ("setup_location", "location_draw"):
            deck = self._location_deck
            return [
                ({"type": "draw_location", "name": _LOCATIONS[loc].name}, 1 / len(deck))
                for loc in sorted(deck)
            ]
        if kind == "reveal":
            pile = self._deck if any(self._deck) else self._discard
            left = sum(pile)
            return [
                ({"type": "reveal", "card": dict(_CARD_VIEWS[c])}, count / left)
                for c, count in enumerate(pile)
                if count
            ]
        if kind == "token":
            pool = self._token_pool
            left = sum(pool)
            return [
                ({"type": "draw_token", "seat": top[1], "value": value}, pool[i] / left)
                for i, value in enumerate(_TOKEN_VALUES)
                if pool[i]
            ]
        thief, victim = top[1], top[2]
        held = self._tokens[victim]
        left = sum(held)
        return [
            ({"type": "steal", "thief": thief, "victim": victim, "value": value}, held[i] / left)
            for i, value in enumerate(_TOKEN_VALUES)
            if held[i]
        ]

    def _apply(self, action: Action) -> None:
        top = self._tasks[-1]
        _HANDLERS[top[0]](self, top, action)
        self._advance()

    # -- views and results --------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        over = self._over
        out: dict[str, Any] = {
            "current_player": self._current_player(),
            "turn": self._turn,
            "first_player": self._first,
            "players": [self._player_view(s, s == seat or over) for s in range(self.num_players)],
            "court": [_L_NAME[lord] for lord in self._court],
            "council": {
                race: sum(self._council[r * 5 : r * 5 + 5]) for r, race in enumerate(_RACES)
            },
            "track": [_card_view(c) for c in self._track],
            "threat": self._threat,
            "locations_available": [_LOCATIONS[loc].name for loc in self._face_up],
            "locations_drawn": [_LOCATIONS[loc].name for loc in self._drawn],
            "lord_deck_size": len(self._lord_deck),
            "location_deck_size": len(self._location_deck),
            "exploration_deck_size": sum(self._deck),
            "discard_size": sum(self._discard),
            "monster_token_pool": sum(self._token_pool),
            "lords_discarded": [_L_NAME[lord] for lord in self._lords_discarded],
            "allies_bought_this_turn": self._buys,
            "end_triggered_by": self._end_seat,
            "decision": self._decision_view(),
        }
        if self._payment is not None:
            lord, races, required, value, paid = self._payment
            out["recruiting"] = {
                "lord": _L_NAME[lord],
                "races": races,
                "required": None if required < 0 else _RACES[required],
                "value": value,
                "paid": [_card_view(c) for c in paid],
            }
        if self._last_recruit is not None:
            who, lord, paid, pearls, kept = self._last_recruit
            out["last_recruit"] = {
                "seat": who,
                "lord": _L_NAME[lord],
                "paid": [_card_view(c) for c in paid],
                "pearls": pearls,
                "affiliated": _card_view(kept),
            }
        if over:
            out["scores"] = [self._score_parts(s) for s in range(self.num_players)]
        return out

    def _player_view(self, s: int, full: bool) -> dict[str, Any]:
        tokens = self._tokens[s]
        entry: dict[str, Any] = {
            "pearls": self._pearls[s],
            "keys": self._keys(s),
            "key_tokens": self._key_tokens[s],
            "lords": [
                {
                    "name": _L_NAME[lord],
                    "guild": _L_GUILD[lord],
                    "free": where == _FREE,
                    "disabled": bool(disabled),
                }
                for lord, where, disabled in self._lords[s]
            ],
            "locations": [
                {
                    "name": _LOCATIONS[loc].name,
                    "lords": [_L_NAME[lord] for lord, where, _ in self._lords[s] if where == loc],
                }
                for loc in self._locations[s]
            ],
            "affiliated": _cards_view(self._affiliated[s]),
            "hand_size": sum(self._hands[s]),
            "monster_tokens": sum(tokens),
        }
        if full:
            entry["hand"] = _cards_view(self._hands[s])
            entry["monster_token_values"] = [
                value for i, value in enumerate(_TOKEN_VALUES) for _ in range(tokens[i])
            ]
        return entry

    def _decision_view(self) -> dict[str, Any] | None:
        if self._over:
            return None
        top = self._tasks[-1]
        kind = top[0]
        if kind in _CHANCE_TASKS:
            return {"kind": "chance", "event": _CHANCE_TASKS[kind]}
        out: dict[str, Any] = {"kind": kind, "seat": top[1]}
        if kind == "offer":
            out["card"] = _card_view(self._track[-1])
            out["price"] = data.ALLY_PRICES[self._buys]
        elif kind == "reward":
            out["space"] = top[2]
        elif kind == "assassin":
            out["victim"] = top[2]
        elif kind == "spend_keys":
            out["keys_due"] = self._keys_due
        elif kind == "illusionist_take":
            out["giving_back"] = _LOCATIONS[top[2]].name
        return out

    def _score_parts(self, s: int) -> dict[str, int]:
        parts = {
            "locations": sum(self._location_points(s, loc) for loc in self._locations[s]),
            "lords": sum(_L_IP[lord] for lord, _, _ in self._lords[s]),
            "allies": self._best_allies(s),
            "monsters": sum(value * self._tokens[s][i] for i, value in enumerate(_TOKEN_VALUES)),
        }
        parts["total"] = sum(parts.values())
        return parts

    def _scores(self) -> list[float]:
        return [self._score_parts(s)["total"] for s in range(self.num_players)]

    def _rank_keys(self) -> list[Any]:
        # "If tied, the tied player with the most Pearls wins; then the highest-valued Lord."
        return [
            (
                self._score_parts(s)["total"],
                self._pearls[s],
                max((_L_IP[lord] for lord, _, _ in self._lords[s]), default=0),
            )
            for s in range(self.num_players)
        ]

    def _location_points(self, s: int, loc: int) -> int:
        location = _LOCATIONS[loc]
        item = location.item
        if item == "race":
            r = _RACE_INDEX[location.subject]
            count = sum(self._affiliated[s][r * 5 : r * 5 + 5])
        elif item == "guild":
            count = sum(1 for lord, _, _ in self._lords[s] if _L_GUILD[lord] == location.subject)
        elif item == "guilds":
            count = len({_L_GUILD[lord] for lord, _, _ in self._lords[s]})
        elif item == "keys":
            count = self._keys(s)
        elif item == "monsters":
            count = sum(self._tokens[s])
        elif item == "pearls":
            count = self._pearls[s]
        else:  # locations
            count = len(self._locations[s])
        return location.base + location.per * (count // location.every)

    def _best_allies(self, s: int) -> int:
        affiliated = self._affiliated[s]
        best = 0
        for r in range(len(_RACES)):
            for c in range(r * 5 + 4, r * 5 - 1, -1):
                if affiliated[c]:
                    best += _VALUE[c]
                    break
        return best

    # -- hidden information -------------------------------------------------------------------

    def resample_hidden(self, seat: int | None, rng: random.Random) -> State:
        """Redraw what ``seat`` cannot see: other hands, the Council's stacks' values, the deck
        and discard contents, others' Monster tokens and the token pool; counts stay.

        A seat in the middle of paying for a Lord is dealt a hand that can still finish the
        payment (a few tries, else its true hand), so the redrawn state plays on.
        """
        self._check_seat(seat)
        clone = self.clone()
        if self._over:
            return clone
        others = [s for s in range(self.num_players) if s != seat]
        top = self._tasks[-1]
        paying = top[0] == "pay" and top[1] != seat
        for _ in range(_RESAMPLE_TRIES):
            clone._redraw_cards(others, rng)
            if not paying or clone._pay_options(top):
                break
        else:
            clone = self.clone()
            clone._redraw_cards([s for s in others if s != top[1]], rng)
        clone._redraw_tokens(others, rng)
        if top[0] not in _CHANCE_TASKS:
            clone._options = clone._options_for(top)
        return clone

    def _redraw_cards(self, others: list[int], rng: random.Random) -> None:
        hands, deck, discard, council = self._hands, self._deck, self._discard, self._council
        by_race: list[list[int]] = [[] for _ in _RACES]
        for c in range(_ALLIES):
            copies = deck[c] + discard[c] + council[c] + sum(hands[o][c] for o in others)
            by_race[_RACE[c]].extend([c] * copies)
        new_council = [0] * _ALLIES
        rest: list[int] = []
        for r, cards in enumerate(by_race):
            rng.shuffle(cards)
            size = sum(council[r * 5 : r * 5 + 5])
            for c in cards[:size]:
                new_council[c] += 1
            rest.extend(cards[size:])
        rng.shuffle(rest)
        at = 0
        for o in others:
            size = sum(hands[o])
            hand = [0] * _ALLIES
            for c in rest[at : at + size]:
                hand[c] += 1
            hands[o] = hand
            at += size
        rest = rest[at:] + [_MONSTER] * (deck[_MONSTER] + discard[_MONSTER])
        rng.shuffle(rest)
        size = sum(discard)
        self._discard = [0] * _CARDS
        self._deck = [0] * _CARDS
        for c in rest[:size]:
            self._discard[c] += 1
        for c in rest[size:]:
            self._deck[c] += 1
        self._council = new_council

    def _redraw_tokens(self, others: list[int], rng: random.Random) -> None:
        unseen = [
            value
            for i, value in enumerate(_TOKEN_VALUES)
            for _ in range(self._token_pool[i] + sum(self._tokens[o][i] for o in others))
        ]
        rng.shuffle(unseen)
        at = 0
        for o in others:
            size = sum(self._tokens[o])
            self._tokens[o] = _token_counts(unseen[at : at + size])
            at += size
        self._token_pool = _token_counts(unseen[at:])

    def private_to(self, action: Action) -> frozenset[int] | None:
        kind = action.get("type")
        if kind == "draw_token":
            return frozenset({action["seat"]})
        if kind == "steal":
            return frozenset({action["thief"], action["victim"]})
        return None

    def public_form(self, action: Action) -> Action:
        if action.get("type") in ("draw_token", "steal"):
            return {k: v for k, v in action.items() if k != "value"}
        return action

    def clone(self) -> State:
        other = State.__new__(State)
        other.num_players = self.num_players
        other.options = dict(self.options)
        other._turn = self._turn
        other._first = self._first
        other._over = self._over
        other._pearls = self._pearls[:]
        other._key_tokens = self._key_tokens[:]
        other._hands = [hand[:] for hand in self._hands]
        other._affiliated = [cards[:] for cards in self._affiliated]
        other._tokens = [tokens[:] for tokens in self._tokens]
        other._lords = [[entry[:] for entry in lords] for lords in self._lords]
        other._locations = [locations[:] for locations in self._locations]
        other._court = self._court[:]
        other._lord_deck = self._lord_deck[:]
        other._lords_discarded = self._lords_discarded[:]
        other._location_deck = self._location_deck[:]
        other._face_up = self._face_up[:]
        other._drawn = self._drawn[:]
        other._deck = self._deck[:]
        other._discard = self._discard[:]
        other._council = self._council[:]
        other._track = self._track[:]
        other._threat = self._threat
        other._token_pool = self._token_pool[:]
        other._buys = self._buys
        other._bought = self._bought[:]
        other._sold = self._sold
        other._replaced = self._replaced
        other._extra_turn = self._extra_turn
        other._court_left = self._court_left
        other._end_seat = self._end_seat
        payment = self._payment
        other._payment = None if payment is None else payment[:4] + [payment[4][:]]
        other._pearls_paid = self._pearls_paid
        other._last_recruit = self._last_recruit
        other._keys_due = self._keys_due
        other._tasks = self._tasks[:]
        other._options = self._options  # replaced, never mutated
        return other

    def _check_seat(self, seat: Any) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players
        ):
            raise ValueError(f"seat must be None or 0 to {self.num_players - 1}, not {seat!r}")

    # -- moving on through forced steps --------------------------------------------------------

    def _advance(self) -> None:
        """Carry out every step without a real decision, up to a decision or chance event."""
        tasks = self._tasks
        while tasks:
            top = tasks[-1]
            kind = top[0]
            if kind in _CHANCE_TASKS:
                return
            step = _STEPS.get(kind)
            if step is not None:
                step(self, top)
                continue
            if kind == "offer":
                buyer = self._next_buyer(top[1])
                if buyer is None:
                    tasks.pop()
                    continue
                top = tasks[-1] = ("offer", buyer)
            options = self._options_for(top)
            if len(options) > 1:
                self._options = options
                return
            if options:
                _HANDLERS[kind](self, top, options[0])
            else:
                tasks.pop()
        self._options = []

    def _options_for(self, top: tuple) -> list[Action]:
        return _OPTIONS[top[0]](self, top)

    def _push(self, *tasks: tuple) -> None:
        self._tasks.extend(tasks)

    # -- a turn -------------------------------------------------------------------------------

    def _turn_start(self, top: tuple) -> None:
        self._tasks.pop()
        seat = self._turn
        self._buys = 0
        self._bought = [False] * self.num_players
        self._sold = self._replaced = False
        if self._has(seat, "landlord"):
            self._pearls[seat] += 1
        # The action first, then a Location if the seat holds 3 keys, then the turn's end.
        self._push(("turn_end",), ("keys_check",), ("start", seat))

    def _start_options(self, top: tuple) -> list[Action]:
        seat = top[1]
        options: list[Action] = []
        if (
            self._pearls[seat] >= data.PLOT_COST
            and len(self._court) < data.COURT_SLOTS
            and self._lord_deck
        ):
            options.append({"type": "plot"})
        hand = self._hands[seat]
        if not self._sold and self._has(seat, "slaver"):
            options += [{"type": "sell", **_card_view(c)} for c in range(_ALLIES) if hand[c]]
        if not self._replaced and self._lord_deck and self._has(seat, "opportunist"):
            options += [{"type": "replace", "lord": _L_NAME[lord]} for lord in self._court]
        options.append({"type": "explore"})  # always possible: see the rulings
        council = self._council
        options += [
            {"type": "council", "race": race}
            for r, race in enumerate(_RACES)
            if any(council[r * 5 : r * 5 + 5])
        ]
        if self._court and any(hand):
            terms = self._recruit_terms(seat)
            sums = _race_sums(hand)
            pearls = self._pearls[seat]
            for lord in self._court:
                races, required, value = _requirement(lord, terms)
                if _finishable(0, 0, sums, races, required, value - pearls):
                    options.append({"type": "recruit", "lord": _L_NAME[lord]})
        return options

    def _start(self, top: tuple, action: Action) -> None:
        seat = top[1]
        kind = action["type"]
        if kind == "plot":
            self._pearls[seat] -= data.PLOT_COST
            self._push(("court_draw",))
        elif kind == "sell":
            c = _card_of(action)
            self._hands[seat][c] -= 1
            self._discard[c] += 1
            self._pearls[seat] += _SLAVER_PRICE
            self._sold = True
        elif kind == "replace":
            self._court.remove(_LORD_INDEX[action["lord"]])
            self._lords_discarded.append(_LORD_INDEX[action["lord"]])
            self._replaced = True
            self._push(("court_draw",))
        elif kind == "explore":
            self._tasks.pop()
            self._push(("explore_end",), ("reveal",))
        elif kind == "council":
            self._tasks.pop()
            self._take_stack(seat, _RACE_INDEX[action["race"]])
            if self._has(seat, "alchemist"):
                self._push(("alchemist", seat))
        else:  # recruit
            self._tasks.pop()
            lord = _LORD_INDEX[action["lord"]]
            self._payment = [lord, *_requirement(lord, self._recruit_terms(seat)), []]
            self._pearls_paid = 0
            self._push(("recruited", seat, lord), ("pay", seat))

    def _turn_end(self, top: tuple) -> None:
        seat = self._turn
        # Commander: "at the end of their turn they must discard down to 6".
        if sum(self._hands[seat]) > _HAND_LIMIT and self._opponent_has(seat, "commander"):
            self._push(("discard_down", seat))
            return
        self._tasks.pop()
        if self._extra_turn:
            self._extra_turn = False
            self._push(("turn_start",))
            return
        following = (seat + 1) % self.num_players
        if following == self._end_seat:
            self._push(("game_over",))
            return
        self._turn = following
        self._push(("turn_start",))

    def _game_over(self, top: tuple) -> None:
        self._tasks.pop()
        # "Each player affiliates the lowest Ally of each race still in hand; the rest are
        # discarded."
        for s in range(self.num_players):
            hand = self._hands[s]
            for r in range(len(_RACES)):
                lowest = next((c for c in range(r * 5, r * 5 + 5) if hand[c]), None)
                if lowest is not None:
                    self._affiliated[s][lowest] += 1
                    hand[lowest] -= 1
            for c in range(_ALLIES):
                self._discard[c] += hand[c]
            self._hands[s] = [0] * _ALLIES
        self._over = True

    def _first_player(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        self._turn = self._first = action["seat"]

    # -- exploring ----------------------------------------------------------------------------

    def _reveal(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if not any(self._deck):
            # "If the Exploration deck runs out, shuffle all the discards into a new deck."
            self._deck, self._discard = self._discard, [0] * _CARDS
        c = _card_of(action["card"])
        self._deck[c] -= 1
        self._track.append(c)
        seat = self._turn
        if c == _MONSTER:
            self._push(("monster", seat))
        else:
            self._push(("ally", seat), ("offer", (seat + 1) % self.num_players))

    def _next_buyer(self, seat: int) -> int | None:
        """The first opponent from ``seat`` on, clockwise, who is asked to buy: one who can pay
        the price and has not bought this turn; None when the offer is back at the explorer."""
        if self._buys >= len(data.ALLY_PRICES):
            return None
        price = data.ALLY_PRICES[self._buys]
        while seat != self._turn:
            if not self._bought[seat] and self._pearls[seat] >= price:
                return seat
            seat = (seat + 1) % self.num_players
        return None

    def _offer_options(self, top: tuple) -> list[Action]:
        return [{"type": "buy"}, {"type": "decline"}]

    def _offer(self, top: tuple, action: Action) -> None:
        seat = top[1]
        if action["type"] == "decline":
            self._tasks[-1] = ("offer", (seat + 1) % self.num_players)
            return
        # "The first Ally bought costs 1 pearl, the second 2, the third 3, whoever buys",
        # paid to the explorer; "each opponent may buy only one Ally in your turn".
        price = data.ALLY_PRICES[self._buys]
        self._pearls[seat] -= price
        self._pearls[self._turn] += price
        self._hands[seat][self._track.pop()] += 1
        self._buys += 1
        self._bought[seat] = True
        self._tasks.pop()  # the offer
        self._tasks.pop()  # the explorer's choice on this Ally
        self._push(("reveal",))

    def _ally_options(self, top: tuple) -> list[Action]:
        # "If the track is full and nobody buys the last Ally, you must take it: gain a pearl."
        if len(self._track) == data.TRACK_SPACES:
            return [{"type": "take"}]
        return [{"type": "take"}, {"type": "continue"}]

    def _ally(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "continue":
            self._push(("reveal",))
            return
        seat = top[1]
        if len(self._track) == data.TRACK_SPACES:
            self._pearls[seat] += data.FULL_TRACK_PEARLS
        self._hands[seat][self._track.pop()] += 1

    def _monster_options(self, top: tuple) -> list[Action]:
        # "A Monster revealed on the last space must be fought", for a pearl on top.
        if len(self._track) == data.TRACK_SPACES:
            return [{"type": "fight"}]
        return [{"type": "fight"}, {"type": "continue"}]

    def _monster(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "continue":
            self._threat = min(data.THREAT_SPACES, self._threat + 1)
            self._push(("reveal",))
            return
        seat = top[1]
        if len(self._track) == data.TRACK_SPACES:
            self._pearls[seat] += data.FULL_TRACK_PEARLS
        self._discard[self._track.pop()] += 1
        space = self._threat
        if space > 1 and self._opponent_has(seat, "tamer"):
            space -= 1
        self._threat = 1
        self._push(("reward", seat, space))

    def _reward_options(self, top: tuple) -> list[Action]:
        left = sum(self._token_pool)
        return [
            {"type": "reward", "pearls": p, "tokens": t, "keys": k}
            for p, t, k in data.THREAT_REWARDS[top[2]]
            if t <= left
        ]

    def _reward(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        seat = top[1]
        self._pearls[seat] += action["pearls"]
        self._key_tokens[seat] += action["keys"]
        self._push(*[("token", seat)] * action["tokens"])

    def _draw_token(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        i = _TOKEN_VALUES.index(action["value"])
        self._token_pool[i] -= 1
        self._tokens[top[1]][i] += 1

    def _explore_end(self, top: tuple) -> None:
        # "Allies left on the track go to the Council by race; Monsters are discarded."
        self._tasks.pop()
        races = set()
        for c in self._track:
            if c == _MONSTER:
                self._discard[c] += 1
            else:
                self._council[c] += 1
                races.add(_RACE[c])
        self._track = []
        if races and self._has(self._turn, "ship_master"):
            self._pearls[self._turn] += len(races)

    # -- the Council ----------------------------------------------------------------------------

    def _take_stack(self, seat: int, r: int) -> None:
        hand = self._hands[seat]
        for c in range(r * 5, r * 5 + 5):
            hand[c] += self._council[c]
            self._council[c] = 0

    def _stack_options(self, kind: str) -> list[Action]:
        council = self._council
        return [
            {"type": kind, "race": race}
            for r, race in enumerate(_RACES)
            if any(council[r * 5 : r * 5 + 5])
        ]

    def _council_options(self, top: tuple) -> list[Action]:
        return self._stack_options("council")

    def _council_take(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        self._take_stack(top[1], _RACE_INDEX[action["race"]])

    # -- recruiting ---------------------------------------------------------------------------

    def _recruit_terms(self, seat: int) -> tuple[bool, bool, int]:
        """What ``seat``'s and its opponents' free Lords change in its recruits: one race
        fewer (Master of Magic), any races (Diplomat), and the shift of the value (Treasurer
        -2, an opponent's Recruiter +2)."""
        shift = 0
        if self._has(seat, "treasurer"):
            shift -= _COST_SHIFT
        if self._opponent_has(seat, "recruiter"):
            shift += _COST_SHIFT
        return self._has(seat, "master_of_magic"), self._has(seat, "diplomat"), shift

    def _pay_options(self, top: tuple) -> list[Action]:
        seat = top[1]
        _, races, required, value, paid = self._payment
        hand = self._hands[seat]
        mask = _races_of(paid)
        paid_sum = sum(_VALUE[c] for c in paid)
        sums = _race_sums(hand)
        short = value - self._pearls[seat]
        options: list[Action] = []
        for c in range(_ALLIES):
            if hand[c]:
                r = _RACE[c]
                sums[r] -= _VALUE[c]
                if _finishable(mask | 1 << r, paid_sum + _VALUE[c], sums, races, required, short):
                    options.append({"type": "pay", **_card_view(c)})
                sums[r] += _VALUE[c]
        missing = value - paid_sum
        if _races_met(mask, races, required) and 0 < missing <= self._pearls[seat]:
            # "You may spend a pearl for each missing point, after one Ally of each race."
            options.append({"type": "pay_pearls", "amount": missing})
        return options

    def _pay(self, top: tuple, action: Action) -> None:
        seat = top[1]
        if action["type"] == "pay_pearls":
            self._pearls[seat] -= action["amount"]
            self._pearls_paid = action["amount"]
            self._tasks.pop()
            return
        c = _card_of(action)
        self._hands[seat][c] -= 1
        _, races, required, value, paid = self._payment
        paid.append(c)
        if (
            _races_met(_races_of(paid), races, required)
            and sum(_VALUE[card] for card in paid) >= value
        ):
            self._tasks.pop()

    def _recruited(self, top: tuple) -> None:
        self._tasks.pop()
        seat, lord = top[1], top[2]
        paid = self._payment[4]
        lowest = min(_VALUE[c] for c in paid)
        self._push(("place_lord", seat, lord))
        candidates = sorted({c for c in paid if _VALUE[c] == lowest})
        if len(candidates) > 1:
            self._push(("affiliate", seat))
        else:
            self._affiliate(seat, candidates[0])

    def _affiliate_options(self, top: tuple) -> list[Action]:
        paid = self._payment[4]
        lowest = min(_VALUE[c] for c in paid)
        return [
            {"type": "affiliate", **_card_view(c)}
            for c in sorted({c for c in paid if _VALUE[c] == lowest})
        ]

    def _affiliate_choice(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        self._affiliate(top[1], _card_of(action))

    def _affiliate(self, seat: int, c: int) -> None:
        # "All Allies paid go to the discard except the one of lowest value: it is affiliated."
        paid = self._payment[4]
        self._last_recruit = (seat, self._payment[0], tuple(sorted(paid)), self._pearls_paid, c)
        paid.remove(c)
        self._affiliated[seat][c] += 1
        for card in paid:
            self._discard[card] += 1
        self._payment = None

    def _place_lord(self, top: tuple) -> None:
        self._tasks.pop()
        seat, lord = top[1], top[2]
        self._court.remove(lord)
        self._court_left = True
        self._lords[seat].append([lord, _FREE, 0])
        if len(self._lords[seat]) >= data.LORDS_TO_END:
            self._trigger_end()
        # The power acts first (on top), then the Court is closed up and maybe refilled.
        self._push(("court_check",), ("power", seat, lord))

    def _court_check(self, top: tuple) -> None:
        self._tasks.pop()
        if not self._court_left:
            return
        self._court_left = False
        court = self._court
        if len(court) > data.COURT_REFILL_AT:
            return
        self._pearls[self._turn] += data.COURT_REFILL_PEARLS
        empty = data.COURT_SLOTS - len(court)
        if len(self._lord_deck) < empty:
            self._trigger_end()
        self._push(*[("court_draw",)] * min(empty, len(self._lord_deck)))

    def _court_draw(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        lord = _LORD_INDEX[action["name"]]
        self._lord_deck.remove(lord)
        self._court.append(lord)

    def _trigger_end(self) -> None:
        if self._end_seat is None:
            self._end_seat = self._turn

    # -- keys and Locations ---------------------------------------------------------------------

    def _keys_check(self, top: tuple) -> None:
        seat = self._turn
        if self._keys(seat) >= data.KEYS_FOR_LOCATION and (self._face_up or self._location_deck):
            self._keys_due = data.KEYS_FOR_LOCATION
            self._push(("spend_keys", seat))  # this check stays below: 3 keys again, again
            return
        self._tasks.pop()

    def _spend_keys_options(self, top: tuple) -> list[Action]:
        seat = top[1]
        options: list[Action] = [
            {"type": "use_lord", "lord": _L_NAME[lord]}
            for lord, where, disabled in self._lords[seat]
            if where == _FREE and not disabled and _L_KEYS[lord]
        ]
        if self._key_tokens[seat]:
            options.append({"type": "use_token"})
        return options

    def _spend_keys(self, top: tuple, action: Action) -> None:
        seat = top[1]
        if action["type"] == "use_token":
            self._key_tokens[seat] -= 1
            self._keys_due -= 1
        else:
            lord = _LORD_INDEX[action["lord"]]
            entry = next(e for e in self._lords[seat] if e[0] == lord)
            entry[1] = _COMMITTED
            self._keys_due -= _L_KEYS[lord]
        if self._keys_due <= 0:
            self._tasks.pop()
            self._push(("choose_location", seat))

    def _choose_location_options(self, top: tuple) -> list[Action]:
        options: list[Action] = [
            {"type": "location", "name": _LOCATIONS[loc].name} for loc in self._face_up
        ]
        most = min(data.MAX_LOCATION_DRAW, len(self._location_deck))
        options += [{"type": "draw_locations", "count": k} for k in range(1, most + 1)]
        return options

    def _choose_location(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        seat = top[1]
        if action["type"] == "location":
            loc = _LOCATION_INDEX[action["name"]]
            self._face_up.remove(loc)
            self._control(seat, loc)
            return
        self._push(("keep_location", seat), *[("location_draw",)] * action["count"])

    def _location_drawn(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        loc = _LOCATION_INDEX[action["name"]]
        self._location_deck.remove(loc)
        if top[0] == "setup_location":
            self._face_up.append(loc)
        else:
            self._drawn.append(loc)

    def _keep_location_options(self, top: tuple) -> list[Action]:
        return [{"type": "location", "name": _LOCATIONS[loc].name} for loc in self._drawn]

    def _keep_location(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        loc = _LOCATION_INDEX[action["name"]]
        self._drawn.remove(loc)
        # "Place the others face up beside the board: they are available from now on."
        self._face_up.extend(self._drawn)
        self._drawn = []
        self._control(top[1], loc)

    def _control(self, seat: int, loc: int) -> None:
        self._locations[seat].append(loc)
        for entry in self._lords[seat]:
            if entry[1] == _COMMITTED:
                entry[1] = loc

    # -- Lords' powers --------------------------------------------------------------------------

    def _power(self, top: tuple) -> None:
        """A Lord's once-power, right after it is placed (its arrow)."""
        self._tasks.pop()
        seat, lord = top[1], top[2]
        power = _L_POWER[lord]
        opponents = self._opponents(seat)
        later_first = opponents[::-1]  # pushed so that the first in turn order is on top
        if power == "seeker":
            for o in opponents:
                self._pearls[o] -= min(_SEEKER_TOLL, self._pearls[o])
        elif power == "jailor":
            self._push(*[("discard_one", o) for o in later_first])
        elif power == "commander":
            self._push(*[("discard_down", o) for o in later_first])
        elif power == "assassin":
            self._push(*[("assassin", seat, o) for o in later_first])
        elif power == "hunter":
            self._push(("hunter", seat))
        elif power in ("traitor", "schemer"):
            self._push((power, seat, lord))
        elif power in ("corruptor", "apprentice", "oracle", "illusionist"):
            self._push((power, seat))
        elif power in _MERCHANT_PEARLS:
            self._pearls[seat] += _MERCHANT_PEARLS[power]
        elif power == "invoker":
            self._extra_turn = True

    def _discard_options(self, top: tuple) -> list[Action]:
        hand = self._hands[top[1]]
        if top[0] == "discard_down" and sum(hand) <= _HAND_LIMIT:
            return []
        return [{"type": "discard", **_card_view(c)} for c in range(_ALLIES) if hand[c]]

    def _discard_card(self, top: tuple, action: Action) -> None:
        c = _card_of(action)
        self._hands[top[1]][c] -= 1
        self._discard[c] += 1
        if top[0] == "discard_one":
            self._tasks.pop()

    def _assassin_options(self, top: tuple) -> list[Action]:
        victim = top[2]
        return [
            {"type": "assassinate", "seat": victim, "lord": _L_NAME[lord]}
            for lord, where, disabled in self._lords[victim]
            if where == _FREE and not disabled
        ]

    def _assassinate(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        lord = _LORD_INDEX[action["lord"]]
        next(e for e in self._lords[top[2]] if e[0] == lord)[2] = 1

    def _hunter_options(self, top: tuple) -> list[Action]:
        return [
            {"type": "hunt", "seat": o} for o in self._opponents(top[1]) if any(self._tokens[o])
        ]

    def _hunt(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        self._push(("steal", top[1], action["seat"]))

    def _steal(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        i = _TOKEN_VALUES.index(action["value"])
        self._tokens[top[2]][i] -= 1
        self._tokens[top[1]][i] += 1

    def _betray_options(self, top: tuple) -> list[Action]:
        seat, itself = top[1], top[2]
        source = self._court if top[0] == "traitor" else self._lord_deck
        if not source:
            return []
        options: list[Action] = [
            {"type": "betray", "lord": _L_NAME[lord]}
            for lord, where, _ in self._lords[seat]
            if where == _FREE and lord != itself
        ]
        return options + [{"type": "skip"}] if options else []

    def _betray(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "skip":
            return
        seat = top[1]
        lord = _LORD_INDEX[action["lord"]]
        self._lords[seat] = [e for e in self._lords[seat] if e[0] != lord]
        self._lords_discarded.append(lord)
        if top[0] == "traitor":
            self._push(("traitor_take", seat))
        else:
            self._push(("scheme_draw", seat))

    def _traitor_take_options(self, top: tuple) -> list[Action]:
        return [{"type": "take_lord", "lord": _L_NAME[lord]} for lord in self._court]

    def _traitor_take(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        lord = _LORD_INDEX[action["lord"]]
        self._court.remove(lord)
        self._court_left = True
        self._newcomer(top[1], lord)

    def _scheme_draw(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        lord = _LORD_INDEX[action["name"]]
        self._lord_deck.remove(lord)
        self._newcomer(top[1], lord)

    def _newcomer(self, seat: int, lord: int) -> None:
        # "The new Lord came in as a replacement: its power may be used at once."
        self._lords[seat].append([lord, _FREE, 0])
        self._push(("power", seat, lord))

    def _corruptor_options(self, top: tuple) -> list[Action]:
        if self._pearls[top[1]] < _CORRUPTOR_PRICE or not self._court:
            return []
        return [{"type": "corrupt", "lord": _L_NAME[lord]} for lord in self._court] + [
            {"type": "skip"}
        ]

    def _corrupt(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "skip":
            return
        seat = top[1]
        self._pearls[seat] -= _CORRUPTOR_PRICE
        self._push(("place_lord", seat, _LORD_INDEX[action["lord"]]))

    def _oracle_options(self, top: tuple) -> list[Action]:
        return self._stack_options("discard_stack")

    def _oracle(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        r = _RACE_INDEX[action["race"]]
        for c in range(r * 5, r * 5 + 5):
            self._discard[c] += self._council[c]
            self._council[c] = 0

    def _illusionist_options(self, top: tuple) -> list[Action]:
        mine = self._locations[top[1]]
        if not mine or not self._face_up:
            return []
        return [{"type": "swap", "location": _LOCATIONS[loc].name} for loc in mine] + [
            {"type": "skip"}
        ]

    def _illusionist(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "swap":
            self._push(("illusionist_take", top[1], _LOCATION_INDEX[action["location"]]))

    def _illusionist_take_options(self, top: tuple) -> list[Action]:
        return [{"type": "location", "name": _LOCATIONS[loc].name} for loc in self._face_up]

    def _illusionist_take(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        seat, old = top[1], top[2]
        new = _LOCATION_INDEX[action["name"]]
        mine = self._locations[seat]
        mine[mine.index(old)] = new
        self._face_up.remove(new)
        self._face_up.append(old)
        for entry in self._lords[seat]:
            if entry[1] == old:
                entry[1] = new

    # -- helpers ------------------------------------------------------------------------------

    def _has(self, seat: int, power: str) -> bool:
        """Whether ``seat`` has a free, not assassinated Lord with ``power``."""
        for lord, where, disabled in self._lords[seat]:
            if where == _FREE and not disabled and _L_POWER[lord] == power:
                return True
        return False

    def _opponent_has(self, seat: int, power: str) -> bool:
        return any(self._has(o, power) for o in range(self.num_players) if o != seat)

    def _keys(self, seat: int) -> int:
        return self._key_tokens[seat] + sum(
            _L_KEYS[lord]
            for lord, where, disabled in self._lords[seat]
            if where == _FREE and not disabled
        )

    def _opponents(self, seat: int) -> list[int]:
        """The other seats, clockwise from ``seat``."""
        n = self.num_players
        return [(seat + i) % n for i in range(1, n)]

    # -- illegal actions ------------------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str | None:
        kind = action["type"]
        top = self._tasks[-1]
        if top[0] in _CHANCE_TASKS:
            expected = _CHANCE_TASKS[top[0]]
            if kind in _SEAT_TYPES:
                return f"no seat decides now: the chance player's {expected} is next"
            if kind == expected:
                return f"{base._describe(action)} is not a possible {expected} now"
            if kind in _CHANCE_TYPES:
                return f"the next chance event is a {expected}, not a {kind}"
            return None
        if kind in _CHANCE_TYPES:
            return f"{kind} is a chance event, not a seat's decision"
        if kind not in _SEAT_TYPES:
            return None
        same = [a for a in self._options if a["type"] == kind]
        if not same:
            return f"{kind} is not a choice now: {self._what_now()}"
        if set(action) != set(same[0]):
            keys = ", ".join(k for k in same[0] if k != "type")
            return f"{kind} takes {keys}" if keys else f"{kind} takes no parameters"
        return self._why_detail(top, action) or (
            f"{base._describe(action)} is not one of the choices now: {self._what_now()}"
        )

    def _why_detail(self, top: tuple, action: Action) -> str | None:
        kind = action["type"]
        seat = top[1]
        if kind == "recruit":
            lord = _LORD_INDEX.get(action["lord"]) if isinstance(action["lord"], str) else None
            if lord is None or lord not in self._court:
                return f"there is no Lord {action['lord']!r} at the Court"
            races, required, value = _requirement(lord, self._recruit_terms(seat))
            need = f" including a {_RACES[required]}" if required >= 0 else ""
            return (
                f"you cannot pay for the {_L_NAME[lord]}: it takes Allies of exactly "
                f"{races} races{need}, worth {value} (pearls may make up missing points)"
            )
        if kind in ("pay", "sell", "discard"):
            c = _card_or_none(action)
            if c is None or not self._hands[seat][c]:
                return f"you hold no {action.get('race')!r} Ally of value {action.get('value')!r}"
            if kind == "pay":
                return (
                    f"paying the {_RACES[_RACE[c]]} {_VALUE[c]} would leave the "
                    f"{_L_NAME[self._payment[0]]} impossible to pay for"
                )
        if kind == "pay_pearls":
            return f"the pearls due are {self._options[-1]['amount']}"
        if kind in ("council", "discard_stack"):
            return f"the Council has no {action['race']!r} stack to take"
        if kind == "draw_locations":
            most = min(data.MAX_LOCATION_DRAW, len(self._location_deck))
            return f"you may draw 1 to {most} Locations"
        return None

    def _what_now(self) -> str:
        top = self._tasks[-1]
        kind, seat = top[0], top[1]
        what = {
            "start": "plots at court or picks its action (explore, council, recruit)",
            "offer": "buys the Ally just revealed or declines (buy, decline)",
            "ally": "takes the Ally or explores on (take, continue)",
            "monster": "fights the Monster or explores on (fight, continue)",
            "reward": "picks a reward of the Threat track (reward)",
            "pay": "pays for its Lord: an Ally (pay) or the missing points (pay_pearls)",
            "affiliate": "picks which of its lowest Allies to affiliate (affiliate)",
            "spend_keys": "picks the keys to spend on a Location (use_lord, use_token)",
            "choose_location": "takes a face-up Location or draws some (location, draw_locations)",
            "keep_location": "keeps one of the Locations drawn (location)",
            "discard_down": "discards down to 6 Allies (discard)",
            "discard_one": "discards an Ally for the Jailor (discard)",
            "assassin": "picks the Lord to assassinate (assassinate)",
            "hunter": "picks whom to steal a Monster token from (hunt)",
            "traitor": "picks a Lord to discard for the Traitor, or skips (betray, skip)",
            "schemer": "picks a Lord to discard for the Schemer, or skips (betray, skip)",
            "traitor_take": "takes a Lord from the Court (take_lord)",
            "corruptor": "buys a Lord for 5 pearls or skips (corrupt, skip)",
            "apprentice": "takes a Council stack (council)",
            "alchemist": "takes a second Council stack (council)",
            "oracle": "discards a Council stack (discard_stack)",
            "illusionist": "gives back a Location or skips (swap, skip)",
            "illusionist_take": "takes a face-up Location instead (location)",
        }[kind]
        return f"seat {seat} {what}"


def _requirement(lord: int, terms: tuple[bool, bool, int]) -> tuple[int, int, int]:
    """(races, required race or -1, value) to pay for ``lord`` under ``terms``."""
    fewer, any_races, shift = terms
    races = max(1, _L_RACES[lord] - 1) if fewer else _L_RACES[lord]
    return races, -1 if any_races else _L_REQUIRED[lord], _L_COST[lord] + shift


def _races_of(cards: list[int]) -> int:
    """The races among ``cards`` as a bit mask."""
    mask = 0
    for c in cards:
        mask |= 1 << _RACE[c]
    return mask


def _races_met(mask: int, races: int, required: int) -> bool:
    """Whether races ``mask`` are exactly ``races`` of them, ``required`` (if any) among them."""
    return _POPCOUNT[mask] == races and (required < 0 or bool(mask >> required & 1))


def _finishable(
    mask: int, paid_sum: int, sums: list[int], races: int, required: int, short: int
) -> bool:
    """Whether a payment of races ``mask`` worth ``paid_sum`` can be completed from a hand whose
    values total ``sums`` per race, with ``short`` = the value needed less the seat's pearls."""
    forced = mask
    if required >= 0 and not mask >> required & 1:
        if not sums[required]:
            return False
        forced |= 1 << required
    fixed = _POPCOUNT[forced]
    if fixed > races:
        return False
    total = paid_sum
    extras = []
    for r in range(len(_RACES)):
        if forced >> r & 1:
            total += sums[r]
        elif sums[r]:
            extras.append(sums[r])
    missing = races - fixed
    if len(extras) < missing:
        return False
    if missing:
        extras.sort(reverse=True)
        total += sum(extras[:missing])
    return total >= short


def _race_sums(hand: list[int]) -> list[int]:
    sums = [0] * len(_RACES)
    for c in range(_ALLIES):
        if hand[c]:
            sums[_RACE[c]] += hand[c] * _VALUE[c]
    return sums


def _card_view(c: int) -> dict[str, Any]:
    if c == _MONSTER:
        return {"monster": True}
    return {"race": _RACES[_RACE[c]], "value": _VALUE[c]}


_CARD_VIEWS = tuple(_card_view(c) for c in range(_CARDS))


def _cards_view(counts: list[int]) -> list[dict[str, Any]]:
    return [_card_view(c) for c in range(_ALLIES) for _ in range(counts[c])]


def _card_of(card: dict[str, Any]) -> int:
    """The card a legal action or outcome names (by race and value, or a Monster)."""
    if "monster" in card:
        return _MONSTER
    return _RACE_INDEX[card["race"]] * 5 + card["value"] - 1


def _card_or_none(action: Action) -> int | None:
    race, value = action.get("race"), action.get("value")
    if race not in _RACE_INDEX or type(value) is not int or not 1 <= value <= 5:
        return None
    return _RACE_INDEX[race] * 5 + value - 1


def _token_counts(values: list[int]) -> list[int]:
    return [values.count(value) for value in _TOKEN_VALUES]


# Steps carried out without a decision.
_STEPS = {
    "turn_start": State._turn_start,
    "turn_end": State._turn_end,
    "game_over": State._game_over,
    "explore_end": State._explore_end,
    "recruited": State._recruited,
    "place_lord": State._place_lord,
    "court_check": State._court_check,
    "keys_check": State._keys_check,
    "power": State._power,
}

# Decisions: their options ("offer" once _advance has found the opponent to ask) ...
_OPTIONS = {
    "start": State._start_options,
    "offer": State._offer_options,
    "ally": State._ally_options,
    "monster": State._monster_options,
    "reward": State._reward_options,
    "pay": State._pay_options,
    "affiliate": State._affiliate_options,
    "spend_keys": State._spend_keys_options,
    "choose_location": State._choose_location_options,
    "keep_location": State._keep_location_options,
    "discard_down": State._discard_options,
    "discard_one": State._discard_options,
    "assassin": State._assassin_options,
    "hunter": State._hunter_options,
    "traitor": State._betray_options,
    "schemer": State._betray_options,
    "traitor_take": State._traitor_take_options,
    "corruptor": State._corruptor_options,
    "apprentice": State._council_options,
    "alchemist": State._council_options,
    "oracle": State._oracle_options,
    "illusionist": State._illusionist_options,
    "illusionist_take": State._illusionist_take_options,
}

# ... and what a decision or chance outcome does, by the task on top.
_HANDLERS = {
    "first_player": State._first_player,
    "court_draw": State._court_draw,
    "scheme_draw": State._scheme_draw,
    "setup_location": State._location_drawn,
    "location_draw": State._location_drawn,
    "reveal": State._reveal,
    "token": State._draw_token,
    "steal": State._steal,
    "start": State._start,
    "offer": State._offer,
    "ally": State._ally,
    "monster": State._monster,
    "reward": State._reward,
    "pay": State._pay,
    "affiliate": State._affiliate_choice,
    "spend_keys": State._spend_keys,
    "choose_location": State._choose_location,
    "keep_location": State._keep_location,
    "discard_down": State._discard_card,
    "discard_one": State._discard_card,
    "assassin": State._assassinate,
    "hunter": State._hunt,
    "traitor": State._betray,
    "schemer": State._betray,
    "traitor_take": State._traitor_take,
    "corruptor": State._corrupt,
    "apprentice": State._council_take,
    "alchemist": State._council_take,
    "oracle": State._oracle,
    "illusionist": State._illusionist,
    "illusionist_take": State._illusionist_take,
}


register(sys.modules[__name__])
