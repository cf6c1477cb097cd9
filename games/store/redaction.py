"""What each reader may see of an event: an action with a private part (``private_to``: a
card drawn, an offer's outcome) shows it only to those seats, and to everyone once a game
whose end reveals all is over; every other reader sees its public part."""

from __future__ import annotations

from typing import Any


def visible_data(event, seats: set[int], game_over_public: bool) -> dict[str, Any]:
    """The event's data as a reader sitting at ``seats`` may see it."""
    data = event.data
    private_to = data.get("private_to")
    if private_to is None:
        return data
    if game_over_public or seats.intersection(private_to):
        return {"action": data["action"]}
    return {"action": data["public"]}
