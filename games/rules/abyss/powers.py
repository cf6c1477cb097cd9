"""The Lords' powers that act once, when the Lord is placed (or comes in as a newcomer), and
the decisions they ask for. Turn-long powers are read where they apply, through ``_has``.
"""

from __future__ import annotations

from typing import Final

from games.rules.abyss.hidden import Hidden
from games.rules.abyss.tables import (
    ALLIES,
    FREE,
    HAND_LIMIT,
    L_NAME,
    L_POWER,
    LOCATION_INDEX,
    LOCATIONS,
    LORD_INDEX,
    RACE_INDEX,
    TOKEN_VALUES,
    card_of,
    card_view,
)
from games.rules.abyss.tasks import choices, resolves, step
from games.rules.base import Action

_CORRUPTOR_PRICE: Final = 5
_SEEKER_TOLL: Final = 2
_MERCHANT_PEARLS: Final = {"shopkeeper": 1, "peddler": 2, "trader": 3}


class Powers(Hidden):
    """The once-powers."""

    @step("power")
    def _power(self, top: tuple) -> None:
        """A Lord's once-power, right after it is placed (its arrow)."""
        self._tasks.pop()
        seat, lord = top[1], top[2]
        power = L_POWER[lord]
        opponents = self._opponents(seat)
        later_first = opponents[::-1]  # pushed so that the first in turn order is on top
        if power == "seeker":
            self._seeker_toll(opponents)
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

    def _seeker_toll(self, opponents: list[int]) -> None:
        """Seeker: each opponent returns 2 pearls to the Treasury (those it has, if fewer)."""
        for o in opponents:
            self._pearls[o] -= min(_SEEKER_TOLL, self._pearls[o])

    @choices("apprentice", "alchemist")
    def _council_options(self, top: tuple) -> list[Action]:
        return self._stack_options("council")

    @resolves("apprentice", "alchemist")
    def _council_take(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        self._take_stack(top[1], RACE_INDEX[action["race"]])

    @choices("discard_down", "discard_one")
    def _discard_options(self, top: tuple) -> list[Action]:
        hand = self._hands[top[1]]
        if top[0] == "discard_down" and sum(hand) <= HAND_LIMIT:
            return []
        return [{"type": "discard", **card_view(c)} for c in range(ALLIES) if hand[c]]

    @resolves("discard_down", "discard_one")
    def _discard_card(self, top: tuple, action: Action) -> None:
        c = card_of(action)
        self._hands[top[1]][c] -= 1
        self._discard[c] += 1
        if top[0] == "discard_one":
            self._tasks.pop()

    @choices("assassin")
    def _assassin_options(self, top: tuple) -> list[Action]:
        victim = top[2]
        return [
            {"type": "assassinate", "seat": victim, "lord": L_NAME[lord]}
            for lord, where, disabled in self._lords[victim]
            if where == FREE and not disabled
        ]

    @resolves("assassin")
    def _assassinate(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        lord = LORD_INDEX[action["lord"]]
        next(e for e in self._lords[top[2]] if e[0] == lord)[2] = 1

    @choices("hunter")
    def _hunter_options(self, top: tuple) -> list[Action]:
        return [
            {"type": "hunt", "seat": o} for o in self._opponents(top[1]) if any(self._tokens[o])
        ]

    @resolves("hunter")
    def _hunt(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        self._push(("steal", top[1], action["seat"]))

    @resolves("steal")
    def _steal(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        i = TOKEN_VALUES.index(action["value"])
        self._tokens[top[2]][i] -= 1
        self._tokens[top[1]][i] += 1

    @choices("traitor", "schemer")
    def _betray_options(self, top: tuple) -> list[Action]:
        seat, itself = top[1], top[2]
        source = self._court if top[0] == "traitor" else self._lord_deck
        if not source:
            return []
        options: list[Action] = [
            {"type": "betray", "lord": L_NAME[lord]}
            for lord, where, _ in self._lords[seat]
            if where == FREE and lord != itself
        ]
        return options + [{"type": "skip"}] if options else []

    @resolves("traitor", "schemer")
    def _betray(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "skip":
            return
        seat = top[1]
        lord = LORD_INDEX[action["lord"]]
        self._lords[seat] = [e for e in self._lords[seat] if e[0] != lord]
        self._lords_discarded.append(lord)
        if top[0] == "traitor":
            self._push(("traitor_take", seat))
        else:
            self._push(("scheme_draw", seat))

    @choices("traitor_take")
    def _traitor_take_options(self, top: tuple) -> list[Action]:
        return [{"type": "take_lord", "lord": L_NAME[lord]} for lord in self._court]

    @resolves("traitor_take")
    def _traitor_take(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        lord = LORD_INDEX[action["lord"]]
        self._court.remove(lord)
        self._court_left = True
        self._newcomer(top[1], lord)

    @resolves("scheme_draw")
    def _scheme_draw(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        lord = LORD_INDEX[action["name"]]
        self._lord_deck.remove(lord)
        self._newcomer(top[1], lord)

    def _newcomer(self, seat: int, lord: int) -> None:
        # "The new Lord came in as a replacement: its power may be used at once."
        self._lords[seat].append([lord, FREE, 0])
        self._push(("power", seat, lord))

    @choices("corruptor")
    def _corruptor_options(self, top: tuple) -> list[Action]:
        if self._pearls[top[1]] < _CORRUPTOR_PRICE or not self._court:
            return []
        return [{"type": "corrupt", "lord": L_NAME[lord]} for lord in self._court] + [
            {"type": "skip"}
        ]

    @resolves("corruptor")
    def _corrupt(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "skip":
            return
        seat = top[1]
        self._pearls[seat] -= _CORRUPTOR_PRICE
        self._push(("place_lord", seat, LORD_INDEX[action["lord"]]))

    @choices("oracle")
    def _oracle_options(self, top: tuple) -> list[Action]:
        return self._stack_options("discard_stack")

    @resolves("oracle")
    def _oracle(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        r = RACE_INDEX[action["race"]]
        for c in range(r * 5, r * 5 + 5):
            self._discard[c] += self._council[c]
            self._council[c] = 0

    @choices("illusionist")
    def _illusionist_options(self, top: tuple) -> list[Action]:
        mine = self._locations[top[1]]
        if not mine or not self._face_up:
            return []
        return [{"type": "swap", "location": LOCATIONS[loc].name} for loc in mine] + [
            {"type": "skip"}
        ]

    @resolves("illusionist")
    def _illusionist(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        if action["type"] == "swap":
            self._push(("illusionist_take", top[1], LOCATION_INDEX[action["location"]]))

    @choices("illusionist_take")
    def _illusionist_take_options(self, top: tuple) -> list[Action]:
        return [{"type": "location", "name": LOCATIONS[loc].name} for loc in self._face_up]

    @resolves("illusionist_take")
    def _illusionist_take(self, top: tuple, action: Action) -> None:
        self._tasks.pop()
        seat, old = top[1], top[2]
        new = LOCATION_INDEX[action["name"]]
        mine = self._locations[seat]
        mine[mine.index(old)] = new
        self._face_up.remove(new)
        self._face_up.append(old)
        for entry in self._lords[seat]:
            if entry[1] == old:
                entry[1] = new
