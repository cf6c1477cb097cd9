"""What each seat of Abyss sees, the score, and why an action is not legal."""

from __future__ import annotations

from typing import Any

from games.rules import base
from games.rules.abyss import data
from games.rules.abyss.payments import Payments, requirement
from games.rules.abyss.tables import (
    FREE,
    L_GUILD,
    L_IP,
    L_NAME,
    LOCATIONS,
    LORD_INDEX,
    RACE,
    RACE_INDEX,
    RACES,
    TOKEN_VALUES,
    VALUE,
    card_view,
    cards_view,
)
from games.rules.abyss.tasks import CHANCE_TASKS, CHANCE_TYPES, SEAT_TYPES
from games.rules.base import Action


class Views(Payments):
    """Views, scores and reasons."""

    # -- views and results -------------------------------------------------------------------------

    def view(self, seat: Any) -> dict[str, Any]:  # checked here: a bad seat is a ValueError
        self._check_seat(seat)
        over = self._over
        out: dict[str, Any] = {
            "current_player": self._current_player(),
            "turn": self._turn,
            "first_player": self._first,
            "players": [self._player_view(s, s == seat or over) for s in range(self.num_players)],
            "court": [L_NAME[lord] for lord in self._court],
            "council": {
                race: sum(self._council[r * 5 : r * 5 + 5]) for r, race in enumerate(RACES)
            },
            "track": [card_view(c) for c in self._track],
            "threat": self._threat,
            "locations_available": [LOCATIONS[loc].name for loc in self._face_up],
            "locations_drawn": [LOCATIONS[loc].name for loc in self._drawn],
            "lord_deck_size": len(self._lord_deck),
            "location_deck_size": len(self._location_deck),
            "exploration_deck_size": sum(self._deck),
            "discard_size": sum(self._discard),
            "monster_token_pool": sum(self._token_pool),
            "lords_discarded": [L_NAME[lord] for lord in self._lords_discarded],
            "allies_bought_this_turn": self._buys,
            "end_triggered_by": self._end_seat,
            "decision": self._decision_view(),
        }
        if self._payment is not None:
            lord, races, required, value, paid = self._payment
            out["recruiting"] = {
                "lord": L_NAME[lord],
                "races": races,
                "required": None if required < 0 else RACES[required],
                "value": value,
                "paid": [card_view(c) for c in paid],
            }
        if self._last_recruit is not None:
            who, lord, paid, pearls, kept = self._last_recruit
            out["last_recruit"] = {
                "seat": who,
                "lord": L_NAME[lord],
                "paid": [card_view(c) for c in paid],
                "pearls": pearls,
                "affiliated": card_view(kept),
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
                    "name": L_NAME[lord],
                    "guild": L_GUILD[lord],
                    "free": where == FREE,
                    "disabled": bool(disabled),
                }
                for lord, where, disabled in self._lords[s]
            ],
            "locations": [
                {
                    "name": LOCATIONS[loc].name,
                    "lords": [L_NAME[lord] for lord, where, _ in self._lords[s] if where == loc],
                }
                for loc in self._locations[s]
            ],
            "affiliated": cards_view(self._affiliated[s]),
            "hand_size": sum(self._hands[s]),
            "monster_tokens": sum(tokens),
        }
        if full:
            entry["hand"] = cards_view(self._hands[s])
            entry["monster_token_values"] = [
                value for i, value in enumerate(TOKEN_VALUES) for _ in range(tokens[i])
            ]
        return entry

    def _decision_view(self) -> dict[str, Any] | None:
        if self._over:
            return None
        top = self._tasks[-1]
        kind = top[0]
        if kind in CHANCE_TASKS:
            return {"kind": "chance", "event": CHANCE_TASKS[kind]}
        out: dict[str, Any] = {"kind": kind, "seat": top[1]}
        if kind == "offer":
            out["card"] = card_view(self._track[-1])
            out["price"] = data.ALLY_PRICES[self._buys]
        elif kind == "reward":
            out["space"] = top[2]
        elif kind == "assassin":
            out["victim"] = top[2]
        elif kind == "spend_keys":
            out["keys_due"] = self._keys_due
        elif kind == "illusionist_take":
            out["giving_back"] = LOCATIONS[top[2]].name
        return out

    def _score_parts(self, s: int) -> dict[str, int]:
        parts = {
            "locations": sum(self._location_points(s, loc) for loc in self._locations[s]),
            "lords": sum(L_IP[lord] for lord, _, _ in self._lords[s]),
            "allies": self._best_allies(s),
            "monsters": sum(value * self._tokens[s][i] for i, value in enumerate(TOKEN_VALUES)),
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
                max((L_IP[lord] for lord, _, _ in self._lords[s]), default=0),
            )
            for s in range(self.num_players)
        ]

    def _location_points(self, s: int, loc: int) -> int:
        location = LOCATIONS[loc]
        item = location.item
        if item == "race":
            assert location.subject is not None, "a race Location names its race"
            r = RACE_INDEX[location.subject]
            count = sum(self._affiliated[s][r * 5 : r * 5 + 5])
        elif item == "guild":
            count = sum(1 for lord, _, _ in self._lords[s] if L_GUILD[lord] == location.subject)
        elif item == "guilds":
            count = len({L_GUILD[lord] for lord, _, _ in self._lords[s]})
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
        for r in range(len(RACES)):
            for c in range(r * 5 + 4, r * 5 - 1, -1):
                if affiliated[c]:
                    best += VALUE[c]
                    break
        return best

    # -- illegal actions ---------------------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str | None:
        kind = action["type"]
        top = self._tasks[-1]
        if top[0] in CHANCE_TASKS:
            expected = CHANCE_TASKS[top[0]]
            if kind in SEAT_TYPES:
                return f"no seat decides now: the chance player's {expected} is next"
            if kind == expected:
                return f"{base._describe(action)} is not a possible {expected} now"
            if kind in CHANCE_TYPES:
                return f"the next chance event is a {expected}, not a {kind}"
            return None
        if kind in CHANCE_TYPES:
            return f"{kind} is a chance event, not a seat's decision"
        if kind not in SEAT_TYPES:
            return None
        same = [a for a in self._options_for(top) if a["type"] == kind]
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
            lord = LORD_INDEX.get(action["lord"]) if isinstance(action["lord"], str) else None
            if lord is None or lord not in self._court:
                return f"there is no Lord {action['lord']!r} at the Court"
            races, required, value = requirement(lord, self._recruit_terms(seat))
            need = f" including a {RACES[required]}" if required >= 0 else ""
            return (
                f"you cannot pay for the {L_NAME[lord]}: it takes Allies of exactly "
                f"{races} races{need}, worth {value} (pearls may make up missing points)"
            )
        if kind in ("pay", "sell", "discard"):
            c = _card_or_none(action)
            if c is None or not self._hands[seat][c]:
                return f"you hold no {action.get('race')!r} Ally of value {action.get('value')!r}"
            if kind == "pay":
                return (
                    f"paying the {RACES[RACE[c]]} {VALUE[c]} would leave the "
                    f"{L_NAME[self._paying[0]]} impossible to pay for"
                )
        if kind == "pay_pearls":
            return f"the pearls due are {self._options_for(top)[-1]['amount']}"
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
            "affiliate": "picks which of its lowest Allies to affiliate (affiliate)"
            if self.rules_version == 1
            else "picks which Ally it paid to affiliate (affiliate)",
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


def _card_or_none(action: Action) -> int | None:
    race, value = action.get("race"), action.get("value")
    if race not in RACE_INDEX or type(value) is not int or not 1 <= value <= 5:
        return None
    return RACE_INDEX[race] * 5 + value - 1
