"""The hex geometry Deep Vents and Ventlife share: neighbours, directions, reading order."""

from __future__ import annotations

from games.rules import hexgrid


def test_the_neighbours_are_the_six_the_rulebooks_name():
    # "the neighbours of (q, r) are (q+1, r), (q-1, r), (q, r-1), (q+1, r-1), (q-1, r+1) and
    # (q, r+1)"
    q, r = 2, -3
    expected = {(q + 1, r), (q - 1, r), (q, r - 1), (q + 1, r - 1), (q - 1, r + 1), (q, r + 1)}
    assert set(hexgrid.neighbours((q, r))) == expected
    assert len(hexgrid.neighbours((q, r))) == 6


def test_neighbours_run_clockwise_from_east():
    # Ventlife: "Clockwise from east the six directions are E (1, 0), SE (0, 1), SW (-1, 1),
    # W (-1, 0), NW (0, -1), NE (1, -1), numbered 0 to 5."
    assert hexgrid.neighbours((0, 0)) == ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    assert hexgrid.DIRECTIONS[0] == (1, 0) and hexgrid.DIRECTIONS[3] == (-1, 0)


def test_neighbourhood_is_symmetric_and_never_includes_the_hex_itself():
    for pos in [(0, 0), (3, -1), (-2, 4)]:
        assert pos not in hexgrid.neighbours(pos)
        for other in hexgrid.neighbours(pos):
            assert pos in hexgrid.neighbours(other)


def test_two_steps_away_does_not_touch():
    field = {(0, 0), (1, 0)}
    assert hexgrid.touches((2, 0), field)
    assert not hexgrid.touches((3, 0), field)
    assert not hexgrid.touches((0, 2), field)  # straight down two rows
    assert hexgrid.touches((0, 1), {(0, 0): 0})  # a dict of spaces works as well


def test_reading_order_is_top_left_to_bottom_right():
    # "rows by r ascending, then left to right, which within a row is by q": the row above
    # comes first even where its hex lies further right.
    spaces = [(0, 1), (-1, 1), (3, -1), (0, 0), (-2, 0)]
    assert sorted(spaces, key=hexgrid.reading_key) == [(3, -1), (-2, 0), (0, 0), (-1, 1), (0, 1)]
