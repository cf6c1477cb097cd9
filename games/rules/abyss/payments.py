"""Paying in Abyss: recruiting a Lord with Allies (and pearls for the missing points),
affiliating, placing the Lord and closing up the Court; spending keys on a Location.

A payment offers only Allies that leave the recruit completable (:func:`finishable`), so every
payment can be finished.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.rules.abyss import data
from games.rules.abyss.powers import Powers
from games.rules.abyss.tables import (
    ALLIES,
    COMMITTED,
    FREE,
    L_COST,
    L_KEYS,
    L_NAME,
    L_RACES,
    L_REQUIRED,
    LOCATION_INDEX,
    LOCATIONS,
    LORD_INDEX,
    POPCOUNT,
    RACE,
    RACES,
    VALUE,
    card_in,
    card_of,
    card_view,
)
from games.rules.abyss.tasks import choices, matches, resolves, step
from games.rules.base import Action


class Payments(Powers):
    """Recruiting and Locations."""

    # -- recruiting --------------------------------------------------------------------------------

    @choices("pay")
    def _pay_options(self, top: tuple) -> Iterator[Action]:
        seat = top[1]
        hand = self._hands[seat]
        sums = race_sums(hand)
        so_far = self._paid_so_far(seat)
        for c in range(ALLIES):
            if hand[c] and self._pay_keeps_finishable(so_far, sums, c):
                yield {"type": "pay", **card_view(c)}
        missing = self._pearls_due(seat)
        if missing is not None:
            yield {"type": "pay_pearls", "amount": missing}

    @matches("pay")
    def _match_pay(self, top: tuple, action: Action) -> Action | None:
        """The branch of :meth:`_pay_options` that ``action`` names, with its predicates."""
        seat = top[1]
        if action["type"] == "pay_pearls":
            amount = action.get("amount")
            if len(action) == 2 and type(amount) is int and amount == self._pearls_due(seat):
                return {"type": "pay_pearls", "amount": amount}
            return None
        if action["type"] != "pay":
            return None
        c = card_in({k: v for k, v in action.items() if k != "type"})
        hand = self._hands[seat]
        if c is None or c >= ALLIES or not hand[c]:
            return None
        if not self._pay_keeps_finishable(self._paid_so_far(seat), race_sums(hand), c):
            return None
        return {"type": "pay", **card_view(c)}

    def _paid_so_far(self, seat: int) -> tuple[int, int, int, int, int]:
        """The payment under way as :meth:`_pay_keeps_finishable` reads it: the races paid
        (a mask), the value paid, the races and the race required, and the value needed less
        the seat's pearls."""
        _, races, required, value, paid = self._paying
        paid_sum = 0
        for card in paid:
            paid_sum += VALUE[card]
        return _races_of(paid), paid_sum, races, required, value - self._pearls[seat]

    @staticmethod
    def _pay_keeps_finishable(
        so_far: tuple[int, int, int, int, int], sums: list[int], c: int
    ) -> bool:
        """Whether paying card ``c`` (held) still leaves the recruit completable, the payment
        being ``so_far`` (:meth:`_paid_so_far`); ``sums`` are the hand's values per race
        (restored before returning)."""
        mask, paid_sum, races, required, short = so_far
        r = RACE[c]
        value = VALUE[c]
        sums[r] -= value
        ok = finishable(mask | 1 << r, paid_sum + value, sums, races, required, short)
        sums[r] += value
        return ok

    def _pearls_due(self, seat: int) -> int | None:
        """The pearls that would finish the payment, if pearls may be paid now: "You may spend
        a pearl for each missing point, after one Ally of each race"."""
        _, races, required, value, paid = self._paying
        missing = value - sum(VALUE[c] for c in paid)
        if _races_met(_races_of(paid), races, required) and 0 < missing <= self._pearls[seat]:
            return missing
        return None

    @resolves("pay")
    def _pay(self, top: tuple, action: Action) -> None:
        seat = top[1]
        if action["type"] == "pay_pearls":
            self._pearls[seat] -= action["amount"]
            self._pearls_paid = action["amount"]
            self._tasks.pop()
            return
        c = card_of(action)
        self._hands[seat][c] -= 1
        _, races, required, value, paid = self._paying
        paid.append(c)
        if (
            _races_met(_races_of(paid), races, required)
            and sum(VALUE[card] for card in paid) >= value
        ):
            self._tasks.pop()

    @step("recruited")
    def _recruited(self, top: tuple) -> None:
        self._tasks.pop()
        seat, lord = top[1], top[2]
        # The Lord is placed after the affiliation: a Master of Magic being recruited does not
        # choose its own recruit's Ally (the Greek glossary).
        self._push(("place_lord", seat, lord))
        candidates = self._affiliable(seat)
        if len(candidates) > 1:
            self._push(("affiliate", seat))
        else:
            self._affiliate(seat, candidates[0])

    def _affiliable(self, seat: int) -> list[int]:
        """The paid Allies ``seat`` may affiliate: the lowest, or, with a free Master of Magic,
        any of them."""
        paid = self._paying[4]
        if self.rules_version >= 2 and self._has(seat, "master_of_magic"):
            return sorted(set(paid))
        lowest = min(VALUE[c] for c in paid)
        return sorted({c for c in paid if VALUE[c] == lowest})

    @choices("affiliate")
    def _affiliate_options(self, top: tuple) -> list[Action]:
        return [{"type": "affiliate", **card_view(c)} for c in self._affiliable(top[1])]

    @resolves("affiliate")
    def _affiliate_choice(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        self._affiliate(top[1], card_of(action))

    def _affiliate(self, seat: int, c: int) -> None:
        # "All Allies paid go to the discard except the one of lowest value: it is affiliated"
        # (with a Master of Magic, the one chosen).
        paid = self._paying[4]
        self._last_recruit = (seat, self._paying[0], tuple(sorted(paid)), self._pearls_paid, c)
        paid.remove(c)
        self._affiliated[seat][c] += 1
        for card in paid:
            self._discard[card] += 1
        self._payment = None

    @step("place_lord")
    def _place_lord(self, top: tuple) -> None:
        self._tasks.pop()
        seat, lord = top[1], top[2]
        self._court.remove(lord)
        self._court_left = True
        self._lords[seat].append([lord, FREE, 0])
        if len(self._lords[seat]) >= data.LORDS_TO_END:
            self._trigger_end()
        # The power acts first (on top), then the Court is closed up and maybe refilled.
        self._push(("court_check",), ("power", seat, lord))

    @step("court_check")
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

    @resolves("court_draw")
    def _court_draw(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        lord = LORD_INDEX[action["name"]]
        self._lord_deck.remove(lord)
        self._court.append(lord)

    def _trigger_end(self) -> None:
        if self._end_seat is None:
            self._end_seat = self._turn

    # -- keys and Locations ------------------------------------------------------------------------

    @step("keys_check")
    def _keys_check(self, top: tuple) -> None:
        seat = self._turn
        if self._keys(seat) >= data.KEYS_FOR_LOCATION and (self._face_up or self._location_deck):
            self._keys_due = data.KEYS_FOR_LOCATION
            self._push(("spend_keys", seat))  # this check stays below: 3 keys again, again
            return
        self._tasks.pop()

    @choices("spend_keys")
    def _spend_keys_options(self, top: tuple) -> list[Action]:
        seat = top[1]
        options: list[Action] = [
            {"type": "use_lord", "lord": L_NAME[lord]}
            for lord, where, disabled in self._lords[seat]
            if where == FREE and not disabled and L_KEYS[lord]
        ]
        if self._key_tokens[seat]:
            options.append({"type": "use_token"})
        return options

    @resolves("spend_keys")
    def _spend_keys(self, top: tuple, action: Action) -> None:
        seat = top[1]
        if action["type"] == "use_token":
            self._key_tokens[seat] -= 1
            self._keys_due -= 1
        else:
            lord = LORD_INDEX[action["lord"]]
            entry = next(e for e in self._lords[seat] if e[0] == lord)
            entry[1] = COMMITTED
            self._keys_due -= L_KEYS[lord]
        if self._keys_due <= 0:
            self._tasks.pop()
            self._push(("choose_location", seat))

    @choices("choose_location")
    def _choose_location_options(self, top: tuple) -> list[Action]:
        options: list[Action] = [
            {"type": "location", "name": LOCATIONS[loc].name} for loc in self._face_up
        ]
        most = min(data.MAX_LOCATION_DRAW, len(self._location_deck))
        options += [{"type": "draw_locations", "count": k} for k in range(1, most + 1)]
        return options

    @resolves("choose_location")
    def _choose_location(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        seat = top[1]
        if action["type"] == "location":
            loc = LOCATION_INDEX[action["name"]]
            self._face_up.remove(loc)
            self._control(seat, loc)
            return
        self._push(("keep_location", seat), *[("location_draw",)] * action["count"])

    @resolves("setup_location", "location_draw")
    def _location_drawn(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        loc = LOCATION_INDEX[action["name"]]
        self._location_deck.remove(loc)
        if top[0] == "setup_location":
            self._face_up.append(loc)
        else:
            self._drawn.append(loc)

    @choices("keep_location")
    def _keep_location_options(self, top: tuple) -> list[Action]:
        return [{"type": "location", "name": LOCATIONS[loc].name} for loc in self._drawn]

    @resolves("keep_location")
    def _keep_location(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        loc = LOCATION_INDEX[action["name"]]
        self._drawn.remove(loc)
        # "Place the others face up beside the board: they are available from now on."
        self._face_up.extend(self._drawn)
        self._drawn = []
        self._control(top[1], loc)

    def _control(self, seat: int, loc: int) -> None:
        self._locations[seat].append(loc)
        for entry in self._lords[seat]:
            if entry[1] == COMMITTED:
                entry[1] = loc


def requirement(lord: int, terms: tuple[int, bool, int]) -> tuple[int, int, int]:
    """(races, required race or -1, value) to pay for ``lord`` under ``terms``
    (Table._recruit_terms): never fewer than one race."""
    fewer, any_races, shift = terms
    races = max(1, L_RACES[lord] - fewer)
    return races, -1 if any_races else L_REQUIRED[lord], L_COST[lord] + shift


def _races_of(cards: list[int]) -> int:
    """The races among ``cards`` as a bit mask."""
    mask = 0
    for c in cards:
        mask |= 1 << RACE[c]
    return mask


def _races_met(mask: int, races: int, required: int) -> bool:
    """Whether races ``mask`` are exactly ``races`` of them, ``required`` (if any) among them."""
    return POPCOUNT[mask] == races and (required < 0 or bool(mask >> required & 1))


def finishable(
    mask: int, paid_sum: int, sums: list[int], races: int, required: int, short: int
) -> bool:
    """Whether a payment of races ``mask`` worth ``paid_sum`` can be completed from a hand whose
    values total ``sums`` per race, with ``short`` = the value needed less the seat's pearls."""
    forced = mask
    if required >= 0 and not mask >> required & 1:
        if not sums[required]:
            return False
        forced |= 1 << required
    fixed = POPCOUNT[forced]
    if fixed > races:
        return False
    total = paid_sum
    extras = []
    for r in range(len(RACES)):
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


def race_sums(hand: list[int]) -> list[int]:
    sums = [0] * len(RACES)
    for c in range(ALLIES):
        if hand[c]:
            sums[RACE[c]] += hand[c] * VALUE[c]
    return sums
