"""Pure-Python rule modules, one per game, behind one interface (see base.py).

from games.rules import get_rules, CHANCE, TERMINAL, IllegalAction
rules = get_rules("deep-sea-adventure")
"""

from games.rules import compiled

# Compiled by mypyc where built and up to date, else the source (games/rules/compiled.py).
FORM = compiled.choose()

# Each module registers itself on import.
from games.rules import abyss, deep_sea_adventure, deep_vents, ventlife  # noqa: E402, F401
from games.rules.base import (  # noqa: E402
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
