"""The rule-module interface every game implements, and the plumbing it shares.

A game is a module with a ``spec`` (:class:`GameSpec`), a ``new_game(num_players, options)``
factory and a :class:`State` subclass. The framework here owns the edge cases (terminal states,
chance nodes, validation, ranking); a game implements the ordinary case:

- ``_current_player()``: a seat, :data:`CHANCE` or :data:`TERMINAL`;
- ``_legal_actions()``: the decisions of the seat to act (never called at chance or terminal);
- ``_chance_outcomes()``: ``[(outcome, probability), ...]`` at a chance node;
- ``_match(action)``: the legal action (or chance outcome) equal to ``action``, or None, found
  by checking only the branch of the rules the action names, with the same ranges and
  predicates the listing is built from (the default looks it up in the listing);
- ``_apply(action)``: the transition, given an action already known to be legal;
- ``view(seat)``: what that seat (or a spectator, ``None``) may see;
- ``_rank_keys()`` and ``_scores()`` at the end.

Options are computed only when asked for: replay checks each logged action with ``_match``
and never lists a decision's actions, and a game's forced steps need at most two options to
tell a decision from a step with one possible action (:func:`first_two`).

Games with hidden information also implement ``resample_hidden`` (determinisation: the bots and
the conformance suite use it) and, where a chance outcome is private, ``private_to`` and
``public_form`` (the event log's redaction).

Every state has a JSON form (:meth:`State.to_json`, :func:`state_from_json`), which the store
keeps as snapshots. It is generic: a game only lists, in ``_json_known``, the objects other than
plain data its state may hold (table entries, sentinels), so a refactor of a State needs no
serialisation code, and a JSON form that no longer fits the State is refused.

Nothing here imports Django: the rule modules are pure Python.
"""

from __future__ import annotations

import copy
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, ClassVar, Final

try:  # mypyc reads the class option below when it compiles this module
    from mypy_extensions import mypyc_attr
except ImportError:  # where it runs as source it changes nothing: no package is needed

    def mypyc_attr(*args: Any, **options: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


CHANCE: Final = -1
TERMINAL: Final = -2

Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message says why, and the state is unchanged."""


class StateFormatError(ValueError):
    """A JSON form that is not a state of this game: damaged, or written before a refactor."""


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
            raise ValueError(
                f"option {self.name!r} must name exactly {self.subset_size} of "
                f"{allowed}, not {len(value)}"
            )
        return [c for c in self.subset_of if c in value]  # one spelling per choice: table order

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
        }
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
class RulesVersion:
    """One version of a game's rules: its number, what it changed from the version before (in
    the game's words), and where its spec differs from the newest one's."""

    number: int
    change: str
    hidden_information: bool | None = None  # None: as the newest version


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows of a game before one is created, at one version of its rules."""

    slug: str
    name: str
    min_players: int
    max_players: int
    # The version of the rules this spec describes: the newest, in a module's ``spec``. A
    # change that would make any stored game replay otherwise (another result, another rank,
    # a log the rules refuse, other hidden information) is a new version, listed in
    # ``versions``; old games keep theirs (games/rules/versions.py).
    version: int
    options: tuple[OptionSpec, ...] = ()
    chance: bool = True
    hidden_information: bool = False
    description: str = ""
    # At the end every hand is shown, so a finished game's log is public in full.
    reveal_at_end: bool = True
    # Every version a game was ever created under, oldest first (empty: ``version`` alone).
    versions: tuple[RulesVersion, ...] = ()

    def known_versions(self) -> tuple[int, ...]:
        return tuple(v.number for v in self.versions) or (self.version,)

    def check_version(self, version: Any) -> int:
        """``version`` if this game has it, the newest for None; ValueError otherwise."""
        if version is None:
            return self.version
        known = self.known_versions()
        if isinstance(version, bool) or not isinstance(version, int) or version not in known:
            listed = ", ".join(map(str, known))
            raise ValueError(f"{self.name} has no rules version {version!r}; it has {listed}")
        return version

    def at(self, version: Any) -> GameSpec:
        """This spec as it was at ``version`` (ValueError for a version it never had)."""
        number = self.check_version(version)
        if number == self.version:
            return self
        found = next(v for v in self.versions if v.number == number)
        hidden = self.hidden_information
        if found.hidden_information is not None:
            hidden = found.hidden_information
        return replace(self, version=number, hidden_information=hidden)

    def validate(self, num_players: Any, options: Any) -> dict[str, Any]:
        """Checked players and options with defaults filled in; ValueError says what is wrong."""
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise ValueError("the number of players must be a whole number")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"{self.name} takes {self.min_players} to {self.max_players} players,"
                f" not {num_players}"
            )
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
        return {
            "slug": self.slug,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "version": self.version,
            "chance": self.chance,
            "hidden_information": self.hidden_information,
            "description": self.description,
            "options": [o.to_json() for o in self.options],
            "versions": [{"version": v.number, "change": v.change} for v in self.versions],
        }


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's toy game, for one
class State(ABC):
    """A game in progress. Subclasses hold plain, JSON-able data so clone stays cheap."""

    # Objects other than plain data the state may hold (data-table entries, sentinels), by a
    # name that outlives refactors, e.g. ``{f"lord:{lord.name}": lord for lord in LORDS}``.
    # The JSON form refers to them by that name, so a row can only ever pick one of them.
    _json_known: ClassVar[dict[str, Any]] = {}
    # Fields that cache what the other fields determine and are brought up to date only when
    # they are needed (Ventlife's tile placements, re-checked when next listed). Two states of
    # one game may differ in them, so :meth:`facts` leaves them out; the JSON form keeps them.
    _caches: ClassVar[frozenset[str]] = frozenset()
    # Attributes kept beside the state and no part of it (a listing built once and handed out
    # in copies, a hint of where to look first): never in :meth:`facts` nor the JSON form.
    _transient: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, num_players: int, options: dict[str, Any], rules_version: int = 1):
        self.num_players = num_players
        self.options = options
        # The version of the rules this game is played under (GameSpec.versions), from the
        # module's new_game; kept by clone and the JSON form. A ruling that changed between
        # versions switches on it.
        self.rules_version = rules_version

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

    def _match(self, action: Action) -> Action | None:
        """The legal action equal to ``action`` (by value and JSON type), or None if none is.

        This default looks ``action`` up in the listing. A game overrides it with a check of
        only the branch of its rules that ``action`` names (its decision, its type, its
        parameters), made of the same code as its listing: the same candidate ranges and the
        same predicates, never a second statement of the rules. Replay applies every logged
        action, and some decision points list hundreds. The conformance suite checks that the
        two agree at every state of every playthrough.
        """
        return find(self.legal_actions(), action)

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

    def apply(self, action: Any) -> None:  # Any: checked here, whatever came in
        """Apply a legal action; otherwise raise IllegalAction and change nothing."""
        found = None
        if type(action) is dict and type(action.get("type")) is str and not self.is_terminal():
            found = self._match(action)  # what canonical does first, without its call
        self._apply(self.canonical(action) if found is None else found)

    def canonical(self, action: Any) -> Action:
        """The legal action equal to ``action``, or IllegalAction saying why there is none.

        Matching is by value and JSON type, so 1.0 or true never stand in for 1.
        """
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction('an action is an object with a "type"')
        found = self._match(action)
        if found is not None:
            return found
        reason = self._why_illegal(action)
        if reason is None:
            kinds = sorted({a["type"] for a in self.legal_actions()})
            reason = (
                f"{_describe(action)} is not legal now; legal action types: "
                f"{', '.join(kinds) or 'none'}"
            )
        raise IllegalAction(reason)

    def result(self) -> list[dict[str, Any]]:
        """Per seat ``{"score", "rank"}``; rank is 1-based and tied seats share it."""
        if not self.is_terminal():
            raise ValueError("the game is not over")
        # As the game gave them: read as floats (their annotation), compiled code would turn
        # a whole score into 63.0 (games/rules/compiled.py).
        scores: list[Any] = self._scores()
        return [
            {"score": score, "rank": rank}
            for score, rank in zip(scores, ranks_from_keys(self._rank_keys()))
        ]

    def clone(self) -> State:
        """An independent copy. A game that writes its own copies each field onto an empty
        shell, ``State()``: its ``__init__`` called with no arguments returns at once. (Not
        ``State.__new__(State)``: where mypyc has compiled the game, games/rules/compiled.py,
        a class's ``__new__`` runs its ``__init__``.)"""
        return copy.deepcopy(self)

    def facts(self) -> dict[str, Any]:
        """The fields that make the game what it is: every attribute but the caches."""
        return {name: value for name, value in fields_of(self).items() if name not in self._caches}

    def to_json(self) -> dict[str, Any]:
        """Every attribute, in the JSON form :func:`state_from_json` rebuilds.

        Plain values stay as they are and lists stay arrays. Every JSON object is a tag of one
        key: ``{"tuple": [...]}``, ``{"set": [...]}``, ``{"dict": [[key, value], ...]}`` or
        ``{"known": name}``; so no value can pass for another, and dicts keep their keys' types
        and their order, even in PostgreSQL's jsonb, which reorders an object's keys.
        """
        names = _known_names(type(self))
        return {field: _encode(value, names) for field, value in fields_of(self).items()}


def state_from_json(rules: Any, data: Any) -> State:
    """The state whose :meth:`State.to_json` gave ``data``, or StateFormatError saying why not.

    ``rules`` is one version of a game's rules (games.rules.get_rules(slug, version)); a state
    of another version is refused.

    Decoding builds only plain data and the game's ``_json_known`` objects: nothing in
    ``data`` can name a class or run code. The state comes from ``rules.new_game`` with the
    players and options ``data`` holds, and ``data`` must have exactly that new game's fields,
    each of the same type where neither is None: a snapshot written before a refactor of the
    State is refused rather than loaded half-stale. What this cannot see is a change inside a
    field that keeps its name and type (hexes as lists becoming dicts in a list): a refactor
    like that renames the field.
    """
    fresh = _new_game_for(rules, data)
    expected = fields_of(fresh)
    missing, extra = sorted(set(expected) - set(data)), sorted(set(data) - set(expected))
    if missing or extra:
        raise StateFormatError(
            f"fields missing: {', '.join(missing) or 'none'}; unknown: {', '.join(extra) or 'none'}"
        )
    known = type(fresh)._json_known
    fields = {name: _decode(data[name], known) for name in expected}
    for name, value in fields.items():
        old = expected[name]
        if value is not None and old is not None and type(value) is not type(old):
            raise StateFormatError(
                f"field {name} holds a {type(value).__name__} where a new "
                f"game holds a {type(old).__name__}"
            )
    if fields["rules_version"] != fresh.rules_version:
        raise StateFormatError(
            f"a state of rules version {fields['rules_version']!r}, where these rules are "
            f"version {fresh.rules_version}"
        )
    for name, value in fields.items():
        setattr(fresh, name, value)
    return fresh


def fields_of(state: State) -> dict[str, Any]:
    """Every attribute ``state`` holds, by name: those in its ``__dict__`` and, where mypyc has
    compiled its class (games/rules/compiled.py), those the class keeps in slots of its own,
    which mypyc lists in each class's ``__mypyc_attrs__``; an attribute never set is left out,
    as ``vars`` would leave it out, and so are the class's ``_transient`` ones."""
    fields: dict[str, Any] = {}
    for name in _compiled_attributes(type(state)):
        try:
            fields[name] = getattr(state, name)
        except AttributeError:
            pass
    fields.update(getattr(state, "__dict__", ()))
    for name in type(state)._transient:
        fields.pop(name, None)
    return fields


@functools.cache
def _compiled_attributes(cls: type[State]) -> tuple[str, ...]:
    """The attributes mypyc keeps in a compiled class's own slots, its bases' first."""
    names: dict[str, None] = {}
    for klass in reversed(cls.__mro__):
        names.update(dict.fromkeys(klass.__dict__.get("__mypyc_attrs__", ())))
    names.pop("__dict__", None)
    return tuple(names)


def _new_game_for(rules: Any, data: Any) -> State:
    """A new game with the players and options of the JSON form ``data``."""
    if type(data) is not dict or "num_players" not in data or "options" not in data:
        raise StateFormatError(
            "a state's JSON form is an object of its fields, num_players and options among them"
        )
    players, options = _decode(data["num_players"], {}), _decode(data["options"], {})
    try:
        return rules.new_game(players, options)
    except ValueError as exc:
        raise StateFormatError(f"no new game has these players and options: {exc}") from None


_PLAIN: Final = frozenset({str, int, float, bool, type(None)})


@functools.cache
def _known_names(cls: type[State]) -> dict[int, str]:
    """A State class's known objects by identity (a table entry is one object: ``is`` holds)."""
    return {id(obj): name for name, obj in cls._json_known.items()}


def _encode(value: Any, names: dict[int, str]) -> Any:
    kind = type(value)  # exact types: a subclass (an IntEnum, say) would not come back
    if kind in _PLAIN:
        return value
    if kind is list:
        return [_encode(item, names) for item in value]
    if kind is tuple:
        return {"tuple": [_encode(item, names) for item in value]}
    if kind is dict:
        return {"dict": [[_encode(k, names), _encode(v, names)] for k, v in value.items()]}
    if kind is set:
        # Sorted (members are coordinates or ids, so they compare), so that equal states have
        # equal JSON forms whatever order their sets grew in.
        return {"set": [_encode(item, names) for item in sorted(value)]}
    name = names.get(id(value))
    if name is None:
        raise TypeError(
            f"a state holds plain data, not {kind.__name__} ({value!r:.60}); "
            f"name table entries and sentinels in _json_known"
        )
    return {"known": name}


def _decode(obj: Any, known: dict[str, Any]) -> Any:
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    if kind is list:
        return [_decode(item, known) for item in obj]
    if kind is dict and len(obj) == 1:
        ((tag, body),) = obj.items()
        if tag == "known" and type(body) is str and body in known:
            return known[body]
        if type(body) is list:
            items = [_decode(item, known) for item in body]
            try:
                if tag == "tuple":
                    return tuple(items)
                if tag == "set":
                    return set(items)
                if tag == "dict" and all(type(p) is list and len(p) == 2 for p in items):
                    return dict(items)
            except TypeError:  # an unhashable key or member
                pass
    raise StateFormatError(f"not part of a state's JSON form: {obj!r:.80}")


def same(candidate: Action, action: Any) -> bool:
    """Whether ``action`` equals ``candidate`` by value and by JSON type (1.0 and true are not 1)."""
    return candidate == action and _same_types(candidate, action)


def find(candidates: Iterable[Action], action: Any) -> Action | None:
    """The first of ``candidates`` that :func:`same` matches with ``action``, or None."""
    for candidate in candidates:
        if candidate == action and _same_types(candidate, action):
            return candidate
    return None


def int_params(action: Action, *keys: str) -> tuple[int, ...] | None:
    """The values of ``keys`` if ``action`` holds exactly "type" and these keys, each a whole
    number (not a bool, not 1.0); else None."""
    if len(action) != len(keys) + 1:
        return None
    values = []
    for key in keys:
        value = action.get(key)
        if type(value) is not int:
            return None
        values.append(value)
    return tuple(values)


def first_two(options: Iterable[Action]) -> list[Action]:
    """Up to two of ``options``: enough to tell a real decision from a forced step."""
    found: list[Action] = []
    for option in options:  # a loop, not list(islice(...)): compiled, it calls no builtins
        found.append(option)
        if len(found) == 2:
            break
    return found


def _same_types(a: Any, b: Any) -> bool:
    """Whether equal values ``a`` and ``b`` also have the same JSON types all the way down."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        for key, value in a.items():
            other = b[key]
            inner = type(value)
            if inner is not type(other):
                return False
            if (inner is dict or inner is list) and not _same_types(value, other):
                return False
        return True
    if kind is list:
        return all(_same_types(x, y) for x, y in zip(a, b))
    return True


def _describe(action: Any) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in action.items() if k != "type")
    return f"{action['type']!r}" + (f" ({shown})" if shown else "")


def ranks_from_keys(keys: list[Any]) -> list[int]:
    """1-based ranks, higher key better, ties sharing the better rank."""
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


# -- the registry ---------------------------------------------------------------------------

_REGISTRY: Final[dict[str, ModuleType]] = {}


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


def module_of(slug: Any) -> ModuleType:
    """The rule module registered for ``slug`` (games.rules.get_rules gives one version of it)."""
    try:
        return _REGISTRY[slug]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {slug!r}") from None


def registered() -> dict[str, ModuleType]:
    return dict(_REGISTRY)
