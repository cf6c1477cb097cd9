"""Axial hex coordinates, pointy-top, as Deep Vents and Ventlife both lay their hexes out.

A space is ``(q, r)``. Row r grows downward and a hex's horizontal position is q + r/2, so
the neighbours of (q, r) are (q+1, r), (q-1, r), (q, r-1), (q+1, r-1), (q-1, r+1) and
(q, r+1). The board pictures in static/js/hexgrid.js use the same coordinates.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Final

Hex = tuple[int, int]

# Clockwise from east: E, SE, SW, W, NW, NE, numbered 0 to 5 (Ventlife's rotations count them).
DIRECTIONS: Final[tuple[Hex, ...]] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

# Neighbours by space, filled as spaces come up. Boards grow around the middle (a Ventlife
# field of 60 tiles spans at most 180 spaces), so this stays small.
_NEIGHBOURS: Final[dict[Hex, tuple[Hex, ...]]] = {}


def neighbours(pos: Hex) -> tuple[Hex, ...]:
    """The six spaces touching ``pos``, in the order of :data:`DIRECTIONS`."""
    found = _NEIGHBOURS.get(pos)
    if found is None:
        q, r = pos
        found = _NEIGHBOURS[pos] = tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)
    return found


def touches(pos: Hex, spaces: Container[Hex]) -> bool:
    """Whether any neighbour of ``pos`` is among ``spaces``."""
    return any(p in spaces for p in neighbours(pos))


def reading_key(pos: Hex) -> Hex:
    """Top-left to bottom-right: rows by r, then left to right (x = q + r/2, so by q)."""
    return (pos[1], pos[0])
