"""Which rules a game is played, replayed, checked and analysed under: its own version, for ever.

A rule module carries every version of its rules that a game was ever played under. Where a
ruling changed, the module switches on ``state.rules_version`` (the Deep Vents ranking of
eliminated seats, the Abyss Master of Magic, Deep Sea Adventure's hidden chips), so one source
holds them all and the compiled build compiles it once; the golden corpus (tests/golden/)
holds finished games of every version, and a change that alters any of them fails the suite
unless it comes as a new version. docs/architecture.md says why switches rather than a frozen
copy of the module per version.

``get_rules(slug)`` is the newest version, for new games; ``get_rules(slug, version)`` the
version a stored game was created under (``Game.rules_version``, and its first event):

    rules = get_rules("deep-vents", 1)
    rules.spec.version        # 1
    state = rules.new_game(3) # a game of version 1: state.rules_version == 1

Nothing here imports Django.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from games.rules.base import GameSpec, State, module_of


class Rules:
    """One version of one game's rules: the module, with its spec and its new games at that
    version. Anything else is the module's (``rules.State``, a module's own helpers)."""

    def __init__(self, module: ModuleType, version: int):
        self.module = module
        self.spec: GameSpec = module.spec.at(version)
        self.__name__ = module.__name__  # the bundle names the module (games.records.export)

    def new_game(self, num_players: Any = 2, options: Any = None) -> State:
        """A new game of this version; ValueError for bad players or options."""
        return self.module.new_game(num_players, options, version=self.spec.version)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)

    def __repr__(self) -> str:
        return f"<rules of {self.spec.slug}, version {self.spec.version}>"


_BY_VERSION: dict[tuple[str, int], Rules] = {}


def get_rules(slug: Any, version: Any = None) -> Rules:
    """The rules of ``slug`` at ``version``, the newest when None: KeyError for a game this
    service does not know, ValueError for a version the game never had."""
    module = module_of(slug)
    number = module.spec.check_version(version)
    rules = _BY_VERSION.get((slug, number))
    if rules is None or rules.module is not module:  # a module registered again (a test's)
        rules = _BY_VERSION[(slug, number)] = Rules(module, number)
    return rules
