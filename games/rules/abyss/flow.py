"""A turn of Abyss: its opening (plot, sell, replace, then the action), exploring (the offers,
the Ally or Monster on the last space, the Threat's reward) and its end; and the loop that
carries out every step without a decision.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from games.rules.abyss import data
from games.rules.abyss.payments import finishable, race_sums, requirement
from games.rules.abyss.tables import (
    ALLIES,
    CARDS,
    HAND_LIMIT,
    L_NAME,
    LORD_INDEX,
    MONSTER,
    RACE,
    RACE_INDEX,
    RACES,
    TOKEN_VALUES,
    card_in,
    card_of,
    card_view,
)
from games.rules.abyss.tasks import (
    CHANCE_TASKS,
    CHOICES,
    RESOLVERS,
    STEPS,
    choices,
    matches,
    resolves,
    step,
)
from games.rules.abyss.view import Views
from games.rules.base import Action, first_two

_SLAVER_PRICE: Final = 2


class Flow(Views):
    """The turn and exploring."""

    def _advance(self) -> None:
        """Carry out every step without a real decision, up to a decision or chance event."""
        tasks = self._tasks
        while tasks:
            top = tasks[-1]
            kind: str = top[0]
            if kind in CHANCE_TASKS:
                return
            carry_out = STEPS.get(kind)
            if carry_out is not None:
                carry_out(self, top)
                continue
            if kind == "offer":
                buyer = self._next_buyer(top[1])
                if buyer is None:
                    tasks.pop()
                    continue
                top = tasks[-1] = ("offer", buyer)
            # Two options are enough to know it is a decision: the rest wait for the listing.
            options = first_two(CHOICES[kind](self, top))
            if len(options) > 1:
                return
            if options:
                RESOLVERS[kind](self, top, options[0])
            else:
                tasks.pop()

    # -- a turn ------------------------------------------------------------------------------------

    @step("turn_start")
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

    @choices("start")
    def _start_options(self, top: tuple) -> Iterator[Action]:
        seat = top[1]
        if self._can_plot(seat):
            yield {"type": "plot"}
        hand = self._hands[seat]
        if self._can_sell(seat):
            yield from _sell_options(hand)
        if self._can_replace(seat):
            for lord in self._court:
                yield {"type": "replace", "lord": L_NAME[lord]}
        yield {"type": "explore"}  # always possible: see the rulings
        for r, race in enumerate(RACES):
            if self._stack_left(r):
                yield {"type": "council", "race": race}
        if self._court and any(hand):
            yield from self._recruit_options(seat, hand)

    def _recruit_options(self, seat: int, hand: list[int]) -> Iterator[Action]:
        """Recruit a Lord: each Lord of the Court that ``seat`` can pay for from ``hand``."""
        terms = self._recruit_terms(seat)
        sums = race_sums(hand)
        for lord in self._court:
            if self._can_recruit(seat, lord, terms, sums):
                yield {"type": "recruit", "lord": L_NAME[lord]}

    @matches("start")
    def _match_start(self, top: tuple, action: Action) -> Action | None:
        """The branch of :meth:`_start_options` that ``action`` names, with its predicates."""
        seat = top[1]
        kind = action["type"]
        size = len(action)
        if kind == "explore" or kind == "plot":
            if size == 1 and (kind == "explore" or self._can_plot(seat)):
                return {"type": kind}
            return None
        if kind == "sell":
            c = card_in({k: v for k, v in action.items() if k != "type"})
            if c is not None and c < ALLIES and self._can_sell(seat) and self._hands[seat][c]:
                return {"type": "sell", **card_view(c)}
            return None
        if kind == "council":
            r = _race_in(action)
            return (
                {"type": "council", "race": RACES[r]}
                if r is not None and self._stack_left(r)
                else None
            )
        if kind == "replace" or kind == "recruit":
            lord = _lord_in(action)
            if lord is None or lord not in self._court:
                return None
            if kind == "replace":
                ok = self._can_replace(seat)
            else:
                hand = self._hands[seat]
                ok = any(hand) and self._can_recruit(
                    seat, lord, self._recruit_terms(seat), race_sums(hand)
                )
            return {"type": kind, "lord": L_NAME[lord]} if ok else None
        return None

    def _can_plot(self, seat: int) -> bool:
        return (
            self._pearls[seat] >= data.PLOT_COST
            and len(self._court) < data.COURT_SLOTS
            and bool(self._lord_deck)
        )

    def _can_sell(self, seat: int) -> bool:
        return not self._sold and self._has(seat, "slaver")

    def _can_replace(self, seat: int) -> bool:
        return not self._replaced and bool(self._lord_deck) and self._has(seat, "opportunist")

    def _can_recruit(
        self, seat: int, lord: int, terms: tuple[int, bool, int], sums: list[int]
    ) -> bool:
        """Whether ``seat`` can pay for ``lord`` from a hand worth ``sums`` per race."""
        races, required, value = requirement(lord, terms)
        return finishable(0, 0, sums, races, required, value - self._pearls[seat])

    @resolves("start")
    def _start(self, top: tuple, action: Action) -> None:
        seat = top[1]
        kind = action["type"]
        if kind == "plot":
            self._pearls[seat] -= data.PLOT_COST
            self._push(("court_draw",))
        elif kind == "sell":
            c = card_of(action)
            self._hands[seat][c] -= 1
            self._discard[c] += 1
            self._pearls[seat] += _SLAVER_PRICE
            self._sold = True
        elif kind == "replace":
            self._court.remove(LORD_INDEX[action["lord"]])
            self._lords_discarded.append(LORD_INDEX[action["lord"]])
            self._replaced = True
            self._push(("court_draw",))
        elif kind == "explore":
            self._tasks.pop()
            self._push(("explore_end",), ("reveal",))
        elif kind == "council":
            self._tasks.pop()
            self._take_stack(seat, RACE_INDEX[action["race"]])
            if self._has(seat, "alchemist"):
                self._push(("alchemist", seat))
        else:  # recruit
            self._tasks.pop()
            lord = LORD_INDEX[action["lord"]]
            self._payment = [lord, *requirement(lord, self._recruit_terms(seat)), []]
            self._pearls_paid = 0
            self._push(("recruited", seat, lord), ("pay", seat))

    @step("turn_end")
    def _turn_end(self, top: tuple) -> None:
        seat = self._turn
        # Commander: "at the end of their turn they must discard down to 6".
        if sum(self._hands[seat]) > HAND_LIMIT and self._opponent_has(seat, "commander"):
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

    @step("game_over")
    def _game_over(self, top: tuple) -> None:
        self._tasks.pop()
        # "Each player affiliates the lowest Ally of each race still in hand; the rest are
        # discarded."
        for s in range(self.num_players):
            hand = self._hands[s]
            for r in range(len(RACES)):
                lowest = next((c for c in range(r * 5, r * 5 + 5) if hand[c]), None)
                if lowest is not None:
                    self._affiliated[s][lowest] += 1
                    hand[lowest] -= 1
            for c in range(ALLIES):
                self._discard[c] += hand[c]
            self._hands[s] = [0] * ALLIES
        self._over = True

    @resolves("first_player")
    def _first_player(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        self._turn = self._first = action["seat"]

    # -- exploring ---------------------------------------------------------------------------------

    @resolves("reveal")
    def _reveal(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if not any(self._deck):
            # "If the Exploration deck runs out, shuffle all the discards into a new deck."
            self._deck, self._discard = self._discard, [0] * CARDS
        c = card_of(action["card"])
        self._deck[c] -= 1
        self._track.append(c)
        seat = self._turn
        if c == MONSTER:
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

    @choices("offer")
    def _offer_options(self, top: tuple) -> list[Action]:
        return [{"type": "buy"}, {"type": "decline"}]

    @resolves("offer")
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

    @choices("ally")
    def _ally_options(self, top: tuple) -> list[Action]:
        # "If the track is full and nobody buys the last Ally, you must take it: gain a pearl."
        if len(self._track) == data.TRACK_SPACES:
            return [{"type": "take"}]
        return [{"type": "take"}, {"type": "continue"}]

    @resolves("ally")
    def _ally(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "continue":
            self._push(("reveal",))
            return
        seat = top[1]
        if len(self._track) == data.TRACK_SPACES:
            self._pearls[seat] += data.FULL_TRACK_PEARLS
        self._hands[seat][self._track.pop()] += 1

    @choices("monster")
    def _monster_options(self, top: tuple) -> list[Action]:
        # "A Monster revealed on the last space must be fought", for a pearl on top.
        if len(self._track) == data.TRACK_SPACES:
            return [{"type": "fight"}]
        return [{"type": "fight"}, {"type": "continue"}]

    @resolves("monster")
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

    @choices("reward")
    def _reward_options(self, top: tuple) -> list[Action]:
        left = sum(self._token_pool)
        return [
            {"type": "reward", "pearls": p, "tokens": t, "keys": k}
            for p, t, k in data.THREAT_REWARDS[top[2]]
            if t <= left
        ]

    @resolves("reward")
    def _reward(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        seat = top[1]
        self._pearls[seat] += action["pearls"]
        self._key_tokens[seat] += action["keys"]
        self._push(*[("token", seat)] * action["tokens"])

    @resolves("token")
    def _draw_token(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        i = TOKEN_VALUES.index(action["value"])
        self._token_pool[i] -= 1
        self._tokens[top[1]][i] += 1

    @step("explore_end")
    def _explore_end(self, top: tuple) -> None:
        # "Allies left on the track go to the Council by race; Monsters are discarded."
        self._tasks.pop()
        races = set()
        for c in self._track:
            if c == MONSTER:
                self._discard[c] += 1
            else:
                self._council[c] += 1
                races.add(RACE[c])
        self._track = []
        if races and self._has(self._turn, "ship_master"):
            self._pearls[self._turn] += len(races)


def _sell_options(hand: list[int]) -> Iterator[Action]:
    """The Slaver's sale: each Ally card held in ``hand``."""
    for c in range(ALLIES):
        if hand[c]:
            yield {"type": "sell", **card_view(c)}


def _race_in(action: Action) -> int | None:
    """The race an action names by exactly ``"race"``, or None."""
    race = action.get("race")
    return RACE_INDEX.get(race) if len(action) == 2 and type(race) is str else None


def _lord_in(action: Action) -> int | None:
    """The Lord an action names by exactly ``"lord"``, or None."""
    lord = action.get("lord")
    return LORD_INDEX.get(lord) if len(action) == 2 and type(lord) is str else None
