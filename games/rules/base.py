"""The rule-module interface every game implements, and the plumbing it shares.

A game is a module with a ``spec`` (:class:`GameSpec`), a ``new_game(num_players, options)``
factory and a :class:`State` subclass. The framework here owns the edge cases (terminal states,
chance nodes, validation, ranking); a game implements the ordinary case:

- ``_current_player()``: a seat, :data:`CHANCE` or :data:`TERMINAL`;
- ``_legal_actions()``: the decisions of the seat to act (never called at chance or terminal);
- ``_chance_outcomes()``: ``[(outcome, probability), ...]`` at a chance node;
- ``_apply(action)``: the transition, given an action already known to be legal;
- ``view(seat)``: what that seat (or a spectator, ``None``) may see;
- ``_rank_keys()`` and ``_scores()`` at the end.

Games with hidden information also implement ``resample_hidden`` (determinisation: the bots and
the conformance suite use it) and, where a chance outcome is private, ``private_to`` and
``public_form`` (the event log's redaction).

Nothing here imports Django: the rule modules are pure Python.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import ModuleType
from typing import Any

CHANCE = -1
TERMINAL = -2

Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message says why, and the state is unchanged."""


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts at creation, e.g. Deep Vents' ``starting_bid``."""

    name: str
    kind: str  # "bool", "int" or "choice"
    default: Any
    help: str = ""
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    # A "choice" may also accept a list of exactly ``subset_size`` distinct items of
    # ``subset_of`` (Ventlife's species: "first-game", "random", "draft" or four named).
    subset_of: tuple[Any, ...] = ()
    subset_size: int | None = None

    def validate(self, value: Any) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"option {self.name!r} must be true or false")
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {self.name!r} must be a whole number")
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"option {self.name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"option {self.name!r} must be at most {self.maximum}")
        elif self.kind == "choice" and self.subset_of and isinstance(value, list):
            return self._validate_subset(value)
        elif self.kind == "choice":
            if not any(value == c and type(value) is type(c) for c in self.choices):
                allowed = ", ".join(map(repr, self.choices))
                raise ValueError(f"option {self.name!r} must be one of {allowed}")
        return value

    def _validate_subset(self, value: list[Any]) -> list[Any]:
        allowed = ", ".join(map(repr, self.subset_of))
        for item in value:
            if not any(item == c and type(item) is type(c) for c in self.subset_of):
                raise ValueError(f"option {self.name!r}: {item!r} is not one of {allowed}")
        if len(set(value)) != len(value):
            raise ValueError(f"option {self.name!r} names the same item twice")
        if self.subset_size is not None and len(value) != self.subset_size:
            raise ValueError(f"option {self.name!r} must name exactly {self.subset_size} of "
                             f"{allowed}, not {len(value)}")
        return [c for c in self.subset_of if c in value]  # one spelling per choice: table order

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": self.default,
                               "help": self.help}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.subset_of:
            out["subset_of"] = list(self.subset_of)
            out["subset_size"] = self.subset_size
        return out


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows of a game before one is created."""

    slug: str
    name: str
    min_players: int
    max_players: int
    version: int  # bump when a change alters replay; it invalidates snapshots, never events
    options: tuple[OptionSpec, ...] = ()
    chance: bool = True
    hidden_information: bool = False
    description: str = ""
    # At the end every hand is shown, so a finished game's log is public in full.
    reveal_at_end: bool = True

    def validate(self, num_players: Any, options: Any) -> dict[str, Any]:
        """Checked players and options with defaults filled in; ValueError says what is wrong."""
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise ValueError("the number of players must be a whole number")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} takes {self.min_players} to {self.max_players} players,"
                             f" not {num_players}")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"unknown option(s) for {self.name}: {', '.join(unknown)}")
        return {name: o.validate(options.get(name, o.default)) for name, o in known.items()}

    def to_json(self) -> dict[str, Any]:
        return {"slug": self.slug, "name": self.name, "min_players": self.min_players,
                "max_players": self.max_players, "version": self.version,
                "chance": self.chance, "hidden_information": self.hidden_information,
                "description": self.description,
                "options": [o.to_json() for o in self.options]}


class State(ABC):
    """A game in progress. Subclasses hold plain, JSON-able data so clone stays cheap."""

    def __init__(self, num_players: int, options: dict[str, Any]):
        self.num_players = num_players
        self.options = options

    # -- what a game implements ------------------------------------------------------------

    @abstractmethod
    def _current_player(self) -> int: ...

    @abstractmethod
    def _legal_actions(self) -> list[Action]: ...

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        raise NotImplementedError

    @abstractmethod
    def _apply(self, action: Action) -> None: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def _scores(self) -> list[float]: ...

    def _rank_keys(self) -> list[Any]:
        """Per seat, a comparable key where higher is better; by default the score alone."""
        return list(self._scores())

    def _canonical_quick(self, action: Action) -> Action | None:
        """Optionally, the legal action equal to ``action`` found without listing them all
        (replay applies every logged action, and some decision points have hundreds); None
        falls back to the list. It must never accept an action the list would not hold."""
        return None

    def _why_illegal(self, action: Action) -> str | None:
        """A specific reason an action is illegal, where the game can say better than the default."""
        return None

    # -- hidden information -----------------------------------------------------------------

    def resample_hidden(self, seat: int | None, rng: random.Random) -> State:
        """A clone in which whatever ``seat`` cannot see is redrawn consistently with its view.

        ``view(seat)`` of the result equals ``view(seat)`` of this state. Games of perfect
        information have nothing to redraw.
        """
        return self.clone()

    def private_to(self, action: Action) -> frozenset[int] | None:
        """Before applying ``action``: the seats that may see it in full, or None if public."""
        return None

    def public_form(self, action: Action) -> Action:
        """``action`` as the seats outside ``private_to`` may see it."""
        return action

    # -- the framework ----------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return self._current_player()

    def is_terminal(self) -> bool:
        return self._current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self._current_player() == CHANCE

    def legal_actions(self) -> list[Action]:
        player = self._current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [outcome for outcome, _ in self._chance_outcomes()]
        return self._legal_actions()

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self._current_player() != CHANCE:
            raise ValueError("not a chance node")
        return self._chance_outcomes()

    def apply(self, action: Action) -> None:
        """Apply a legal action; otherwise raise IllegalAction and change nothing."""
        self._apply(self.canonical(action))

    def canonical(self, action: Action) -> Action:
        """The legal action equal to ``action``, or IllegalAction saying why there is none.

        Matching is by value and JSON type, so 1.0 or true never stand in for 1.
        """
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction('an action is an object with a "type"')
        quick = self._canonical_quick(action)
        if quick is not None:
            return quick
        legal = self.legal_actions()
        for candidate in legal:
            if candidate == action and _same_types(candidate, action):
                return candidate
        reason = self._why_illegal(action)
        if reason is None:
            kinds = sorted({a["type"] for a in legal})
            reason = (f"{_describe(action)} is not legal now; legal action types: "
                      f"{', '.join(kinds) or 'none'}")
        raise IllegalAction(reason)

    def result(self) -> list[dict[str, Any]]:
        """Per seat ``{"score", "rank"}``; rank is 1-based and tied seats share it."""
        if not self.is_terminal():
            raise ValueError("the game is not over")
        return [{"score": score, "rank": rank}
                for score, rank in zip(self._scores(), ranks_from_keys(self._rank_keys()))]

    def clone(self) -> State:
        return copy.deepcopy(self)


def _same_types(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_same_types(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return all(_same_types(x, y) for x, y in zip(a, b))
    return True


def _describe(action: Action) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in action.items() if k != "type")
    return f"{action['type']!r}" + (f" ({shown})" if shown else "")


def ranks_from_keys(keys: list[Any]) -> list[int]:
    """1-based ranks, higher key better, ties sharing the better rank."""
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


# -- the registry ---------------------------------------------------------------------------

_REGISTRY: dict[str, ModuleType] = {}


def register(module: ModuleType) -> ModuleType:
    """Called by each game module at its end: ``register(sys.modules[__name__])``."""
    for name in ("spec", "new_game", "State"):
        if not hasattr(module, name):
            raise TypeError(f"{module.__name__} lacks {name}")
    slug = module.spec.slug
    if slug in _REGISTRY and _REGISTRY[slug] is not module:
        raise ValueError(f"game {slug!r} registered twice")
    _REGISTRY[slug] = module
    return module


def get_rules(slug: str) -> ModuleType:
    try:
        return _REGISTRY[slug]
    except KeyError:
        raise KeyError(f"unknown game {slug!r}") from None


def registered() -> dict[str, ModuleType]:
    return dict(_REGISTRY)
