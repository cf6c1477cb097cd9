"""Abyss's hidden information: redrawing what a seat cannot see, and the chance outcomes
only some seats may see."""

from __future__ import annotations

import random
from typing import Final

from games.rules import base
from games.rules.abyss.table import Table
from games.rules.abyss.tables import ALLIES, CARDS, MONSTER, RACE, RACES, TOKEN_VALUES
from games.rules.base import Action

_RESAMPLE_TRIES: Final = 20


class Hidden(Table):
    """Determinisation and redaction."""

    def resample_hidden(self, seat: int | None, rng: random.Random) -> base.State:
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
            if not paying or clone._options_for(top):
                break
        else:
            clone = self.clone()
            clone._redraw_cards([s for s in others if s != top[1]], rng)
        clone._redraw_tokens(others, rng)
        return clone

    def _redraw_cards(self, others: list[int], rng: random.Random) -> None:
        hands, deck, discard, council = self._hands, self._deck, self._discard, self._council
        by_race: list[list[int]] = [[] for _ in RACES]
        for c in range(ALLIES):
            copies = deck[c] + discard[c] + council[c] + sum(hands[o][c] for o in others)
            by_race[RACE[c]].extend([c] * copies)
        new_council = [0] * ALLIES
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
            hand = [0] * ALLIES
            for c in rest[at : at + size]:
                hand[c] += 1
            hands[o] = hand
            at += size
        rest = rest[at:] + [MONSTER] * (deck[MONSTER] + discard[MONSTER])
        rng.shuffle(rest)
        size = sum(discard)
        self._discard = [0] * CARDS
        self._deck = [0] * CARDS
        for c in rest[:size]:
            self._discard[c] += 1
        for c in rest[size:]:
            self._deck[c] += 1
        self._council = new_council

    def _redraw_tokens(self, others: list[int], rng: random.Random) -> None:
        unseen = [
            value
            for i, value in enumerate(TOKEN_VALUES)
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


def _token_counts(values: list[int]) -> list[int]:
    return [values.count(value) for value in TOKEN_VALUES]
