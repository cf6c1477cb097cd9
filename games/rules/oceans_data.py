"""Oceans: the Deep cards the project knows, as one table apart from the code that reads it.

Only The Deep promo pack 2 rulebook is in the sources (../shared/rules/oceans-the-deep-promo-2.txt,
summed up in oceans-data.md); the base game's full card texts are not public, so Oceans is
recorded in Hadal, not played, and these six cards are the only Deep cards a record may name.
Correct a card here and nowhere else.

Each row says what a card is: its name as printed, its kind (an event: "a one-time effect ...
then removed from the game"; or a Deep trait), its migrate number (what playing it costs, moved
from the score pile to the Reef or one Ocean zone), its resolution number, and how many copies
the pack has.
"""

from __future__ import annotations

from dataclasses import dataclass

EVENT = "event"
TRAIT = "trait"
PACK = "The Deep promo pack 2"


@dataclass(frozen=True)
class DeepCard:
    name: str
    kind: str  # EVENT or TRAIT
    migrate: int
    resolution: int
    copies: int = 1
    note: str = ""


CARDS: tuple[DeepCard, ...] = (
    DeepCard("Blood Bath", EVENT, 3, 97, note="instead of the usual feeding turn"),
    DeepCard("Feeding Frenzy", EVENT, 4, 99, note="instead of the usual feeding turn"),
    DeepCard("Go Fish", EVENT, 1, 100, note="names a Surface trait"),
    DeepCard("Great Migration", EVENT, 1, 101, note="migrates 1 to 10 population"),
    DeepCard("Hibernating", TRAIT, 3, 102, note="defensive only upside down"),
    DeepCard("Proliferation", EVENT, 1, 110, note="1 to 10 population from the score pile"),
)

CARD_NAMES: tuple[str, ...] = tuple(card.name for card in CARDS)

# Names are matched without regard to case or surrounding spaces ("go fish" is Go Fish).
BY_KEY: dict[str, DeepCard] = {card.name.casefold(): card for card in CARDS}


def card_named(name: str) -> DeepCard | None:
    return BY_KEY.get(" ".join(name.split()).casefold())
