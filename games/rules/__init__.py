"""Pure-Python rule modules, one per game, behind one interface (see base.py).

from games.rules import get_rules, CHANCE, TERMINAL, IllegalAction
rules = get_rules("deep-sea-adventure")
"""

# Each module registers itself on import.
from games.rules import abyss, deep_sea_adventure, deep_vents, ventlife  # noqa: F401
from games.rules.base import (
    CHANCE,
    TERMINAL,
    GameSpec,
    IllegalAction,
    OptionSpec,
    State,
    get_rules,
    register,
    registered,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "GameSpec",
    "IllegalAction",
    "OptionSpec",
    "State",
    "get_rules",
    "register",
    "registered",
]
