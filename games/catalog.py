"""Every game the service knows. Each can be recorded from a table; those with a rule module
can also be played in the service, and their names and player counts come from the module's
spec. Oceans (with The Deep promo pack 2) has no public full rules, so it is recorded only."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules import registered


@dataclass(frozen=True)
class GameType:
    slug: str
    name: str
    min_players: int
    max_players: int
    playable: bool  # False: results are recorded, the game is not played in the service


# The product's games without a rule module (DESIGN.md's table).
RECORDED_ONLY = (GameType("oceans", "Oceans (with The Deep promo pack 2)", 2, 4, playable=False),)


def game_types() -> dict[str, GameType]:
    types = {t.slug: t for t in RECORDED_ONLY}
    types.update(
        {
            slug: GameType(slug, m.spec.name, m.spec.min_players, m.spec.max_players, True)
            for slug, m in registered().items()
        }
    )
    return dict(sorted(types.items()))


def game_type(slug: str) -> GameType:
    try:
        return game_types()[slug]
    except KeyError:
        raise KeyError(f"unknown game {slug!r}; known: {', '.join(game_types())}") from None


def game_name(slug: str) -> str:
    """The game's name for people, or its slug for a game no longer known."""
    try:
        return game_type(slug).name
    except KeyError:
        return slug
