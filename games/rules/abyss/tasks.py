"""The task stack: what the task on top does, registered next to each step's definition.

Tasks wait on a stack, the next on top: a tuple whose first item is its kind. It is a chance
event (its kind in :data:`CHANCE_TASKS`), a seat's decision (the second item is the deciding
seat) or a step carried out without a decision. A method of the State serves a kind by its
decorator:

- ``@step(kind)``: a step carried out without a decision, ``(state, task)``;
- ``@choices(kind)``: a decision's options, ``(state, task) -> iterable of actions``, in
  their listed order (a generator where telling a decision from a forced step should not
  have to list them all);
- ``@matches(kind)``: optionally, the check of one action against the branch of those options
  it names, ``(state, task, action) -> the legal action or None``, made of the same pieces as
  the options; without one, an action is looked for among the options;
- ``@resolves(kind)``: what a decision's action or a chance outcome does,
  ``(state, task, action)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, TypeVar

from games.rules.base import Action

Function = TypeVar("Function", bound=Callable[..., Any])

# By kind of task; the functions are the State's methods, called with the state first.
STEPS: Final[dict[str, Callable[..., None]]] = {}
CHOICES: Final[dict[str, Callable[..., Iterable[Action]]]] = {}
MATCHERS: Final[dict[str, Callable[..., Action | None]]] = {}
RESOLVERS: Final[dict[str, Callable[..., None]]] = {}


# The chance tasks and the type of the outcome each waits for.
CHANCE_TASKS: Final = {
    "first_player": "first_player",
    "court_draw": "draw_lord",
    "scheme_draw": "draw_lord",
    "setup_location": "draw_location",
    "location_draw": "draw_location",
    "reveal": "reveal",
    "token": "draw_token",
    "steal": "steal",
}
CHANCE_TYPES: Final = frozenset(CHANCE_TASKS.values())
SEAT_TYPES: Final = frozenset(
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


def step(*kinds: str) -> Callable[[Function], Function]:
    """Register a step carried out without a decision for tasks of ``kinds``."""
    return _register(STEPS, kinds)


def choices(*kinds: str) -> Callable[[Function], Function]:
    """Register the options of the decision that tasks of ``kinds`` ask for."""
    return _register(CHOICES, kinds)


def matches(*kinds: str) -> Callable[[Function], Function]:
    """Register the direct check of an action for the decision that tasks of ``kinds`` ask for."""
    return _register(MATCHERS, kinds)


def resolves(*kinds: str) -> Callable[[Function], Function]:
    """Register what the action chosen (or the chance outcome drawn) for ``kinds`` does."""
    return _register(RESOLVERS, kinds)


def _register(table: dict[str, Any], kinds: tuple[str, ...]) -> Callable[[Function], Function]:
    def register(function: Function) -> Function:
        for kind in kinds:
            if kind in table:
                raise ValueError(f"task {kind!r} is served twice")
            table[kind] = function
        return function

    return register
