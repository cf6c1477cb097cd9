"""An event's data as a reader is shown it: the log names people by id and seals members' notes
(games/eventschema.py); tests that check what a service wrote read it back in names."""

from __future__ import annotations

from typing import Any

from accounts import people as accounts_people
from games import people
from games.models import Event


def shown(event: Event) -> dict[str, Any]:
    return people.Shown([(event.kind, event.data)])(event.kind, event.data)


def person_id(user) -> str:
    return accounts_people.member_id(user)
