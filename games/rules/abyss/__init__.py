"""Abyss: 2 to 4 players court the Lords of the deep with Allies, pearls and keys.

Kind of game: 2 to 4 players taking turns clockwise; chance (the first player, every card or
tile drawn from a deck, every Monster token drawn, the Hunter's steal); hidden information
(each hand, the Council's face-down stacks and each seat's Monster tokens). The decks' order
does not exist until a card is drawn: each draw is one chance node, probability = copies left
/ cards left. The Lords and Locations are one table each in :mod:`games.rules.abyss.data`.

The package, by what each module holds: ``data`` (the rulebook's tables), ``tables`` (the
same indexed as the state holds them, and the cards as ints), ``tasks`` (the task stack's
registry), ``table`` (the state's fields and the helpers every part uses), ``flow`` (a turn:
its opening, exploring, its end), ``payments`` (recruiting Lords with Allies and pearls,
spending keys on Locations), ``powers`` (the Lords' powers), ``view`` (what each seat sees,
the score, why an action is illegal) and ``hidden`` (redrawing what a seat cannot see). Each
step of the game registers, next to its definition, for the kind of task it serves.

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
  missing, once every race is paid), ``affiliate`` race value (among several lowest, or any
  Ally paid with a Master of Magic);
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
- A recruit's cost: the exact number of different races, the required race (Diplomat: none),
  the value (Treasurer: 2 less; an opponent's free Recruiter: 2 more). Only Allies that still leave the recruit completable are offered, so
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
- Master of Magic: while free, its owner affiliates the paid Ally of their choice on each later
  recruit, not only the weakest. The printed wording is not in our sources; the Greek glossary
  says only that the Lord comes into play after its own recruit's weakest Ally has been
  affiliated, so that its power acts from the next recruit on. That explanation is needed
  only if the power is about which Ally is affiliated — a power about the races a recruit
  needs would be settled before any affiliation — so this is the reading a judge would take.
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

import sys
from typing import Any

from games.rules import base
from games.rules.abyss import data
from games.rules.abyss.flow import Flow
from games.rules.abyss.tables import (
    CARD_VIEWS,
    L_NAME,
    LOCATION_INDEX,
    LOCATION_NAME,
    LOCATIONS,
    LORD_INDEX,
    TOKEN_VALUES,
    card_in,
)
from games.rules.abyss.tasks import CHANCE_TASKS, CHOICES, MATCHERS, RESOLVERS
from games.rules.base import CHANCE, TERMINAL, Action, GameSpec, RulesVersion, register

spec = GameSpec(
    slug="abyss",
    name="Abyss",
    min_players=2,
    max_players=4,
    version=2,
    versions=(
        RulesVersion(1, "The Master of Magic's later recruits need one race fewer."),
        RulesVersion(
            2,
            "The Master of Magic's owner affiliates the paid Ally of their choice on later "
            "recruits, not only the weakest.",
        ),
    ),
    options=(),
    chance=True,
    hidden_information=True,
    description=(
        "Explore the depths for Allies, sell them to your rivals, and spend them to "
        "recruit the Lords of the Abyss and take control of its Locations."
    ),
)


def new_game(num_players: Any = 2, options: Any = None, version: Any = None) -> State:
    """A game about to draw its first player and Court (chance), under rules ``version`` (the
    newest when None); ValueError for bad input."""
    return State(num_players, spec.validate(num_players, options), spec.check_version(version))


class State(Flow):
    """Abyss in progress: the fields of :class:`~games.rules.abyss.table.Table`, and each part's
    steps, the parts stacked one on the next (Table, Hidden, Powers, Payments, Views, Flow)
    rather than mixed in side by side: no two parts name the same method, and a single line
    of classes is what mypyc can compile (games/rules/compiled.py)."""

    def __init__(
        self, num_players: int = 0, options: dict[str, Any] | None = None, rules_version: int = 1
    ):
        if options is None:
            return  # an empty shell, which clone fills (base.State.clone)
        super().__init__(num_players, options, rules_version)
        self._advance()

    def is_terminal(self) -> bool:
        return self._over

    def _current_player(self) -> int:
        if self._over:
            return TERMINAL
        top = self._tasks[-1]
        if top[0] in CHANCE_TASKS:
            return CHANCE
        return top[1]

    def _legal_actions(self) -> list[Action]:
        return self._options_for(self._tasks[-1])

    def _match(self, action: Action) -> Action | None:
        """The branch of the options (or of the chance outcomes) that ``action`` names."""
        top = self._tasks[-1]
        kind: str = top[0]
        if kind in CHANCE_TASKS:
            return self._match_chance(top, action)
        matcher = MATCHERS.get(kind)
        if matcher is not None:
            return matcher(self, top, action)
        return base.find(CHOICES[kind](self, top), action)

    def _match_chance(self, top: tuple, action: Action) -> Action | None:
        """The chance outcome ``action`` names if it has a probability above 0: the counts the
        outcomes are listed from, read for this one."""
        kind = top[0]
        if action["type"] != CHANCE_TASKS[kind]:
            return None
        if kind == "reveal":
            return self._match_reveal(action)
        if kind in ("court_draw", "scheme_draw", "setup_location", "location_draw"):
            return self._match_deck_draw(kind, action)
        if kind == "token":
            return self._match_token(top, action)
        if kind == "steal":
            return self._match_steal(top, action)
        return base.find((outcome for outcome, _ in self._chance_outcomes()), action)

    def _match_reveal(self, action: Action) -> Action | None:
        """Exploring: the card revealed, if the deck (or, empty, the discard) holds one."""
        card = action.get("card")
        c = card_in(card) if len(action) == 2 and type(card) is dict else None
        pile = self._deck if any(self._deck) else self._discard
        return (
            {"type": "reveal", "card": dict(CARD_VIEWS[c])} if c is not None and pile[c] else None
        )

    def _match_deck_draw(self, kind: str, action: Action) -> Action | None:
        """A Lord or a Location drawn: every card left in the deck is equally likely, so the
        deck, read for this one."""
        name = action.get("name")
        if kind == "court_draw" or kind == "scheme_draw":
            index, deck, names = LORD_INDEX, self._lord_deck, L_NAME
        else:
            index, deck, names = LOCATION_INDEX, self._location_deck, LOCATION_NAME
        card = index.get(name) if type(name) is str else None
        if len(action) == 2 and card is not None and card in deck:
            return {"type": action["type"], "name": names[card]}
        return None

    def _match_token(self, top: tuple, action: Action) -> Action | None:
        """A Monster token drawn by the seat of ``top``, of a value still in the pool."""
        found = base.int_params(action, "seat", "value")
        if found and found[0] == top[1] and found[1] in TOKEN_VALUES:
            if self._token_pool[TOKEN_VALUES.index(found[1])]:
                return {"type": "draw_token", "seat": found[0], "value": found[1]}
        return None

    def _match_steal(self, top: tuple, action: Action) -> Action | None:
        """The Hunter's steal: a token of a value its victim holds."""
        found = base.int_params(action, "thief", "victim", "value")
        if found and found[:2] == top[1:3] and found[2] in TOKEN_VALUES:
            if self._tokens[top[2]][TOKEN_VALUES.index(found[2])]:
                return {"type": "steal", "thief": top[1], "victim": top[2], "value": found[2]}
        return None

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        top = self._tasks[-1]
        kind = top[0]
        if kind == "first_player":
            n = self.num_players
            return [({"type": "first_player", "seat": s}, 1 / n) for s in range(n)]
        if kind in ("court_draw", "scheme_draw"):
            deck = self._lord_deck
            return [
                ({"type": "draw_lord", "name": L_NAME[lord]}, 1 / len(deck))
                for lord in sorted(deck)
            ]
        if kind in ("setup_location", "location_draw"):
            deck = self._location_deck
            return [
                ({"type": "draw_location", "name": LOCATIONS[loc].name}, 1 / len(deck))
                for loc in sorted(deck)
            ]
        if kind == "reveal":
            pile = self._deck if any(self._deck) else self._discard
            left = sum(pile)
            return [
                ({"type": "reveal", "card": dict(CARD_VIEWS[c])}, count / left)
                for c, count in enumerate(pile)
                if count
            ]
        if kind == "token":
            pool = self._token_pool
            left = sum(pool)
            return [
                ({"type": "draw_token", "seat": top[1], "value": value}, pool[i] / left)
                for i, value in enumerate(TOKEN_VALUES)
                if pool[i]
            ]
        thief, victim = top[1], top[2]
        held = self._tokens[victim]
        left = sum(held)
        return [
            ({"type": "steal", "thief": thief, "victim": victim, "value": value}, held[i] / left)
            for i, value in enumerate(TOKEN_VALUES)
            if held[i]
        ]

    def _apply(self, action: Action) -> None:
        top = self._tasks[-1]
        RESOLVERS[top[0]](self, top, action)
        self._advance()


__all__ = ["State", "data", "new_game", "spec"]

register(sys.modules[__name__])
