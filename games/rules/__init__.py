"""Pure-Python rule modules, one per game, behind one interface (see base.py), each carrying
every version of its rules (versions.py).

from games.rules import get_rules, CHANCE, TERMINAL, IllegalAction
rules = get_rules("deep-sea-adventure")     # the newest version, for a new game
rules = get_rules("deep-vents", 1)          # the version a stored game was created under
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
    RulesVersion,
    State,
    register,
    registered,
)
from games.rules.versions import Rules, get_rules  # noqa: E402

__all__ = [
    "CHANCE",
    "TERMINAL",
    "GameSpec",
    "IllegalAction",
    "OptionSpec",
    "Rules",
    "RulesVersion",
    "State",
    "get_rules",
    "register",
    "registered",
]
