"""A bundle loaded into the database as the game it records: its people (by their ids), its row
projected from its events, its seats and its events as logged, times, actors and hashes
included. What a restore brings back; the tests read, show and export it again."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model

from accounts.models import Person
from games.models import Event, Game, Seat


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def load(bundle: dict[str, Any]) -> Game:
    model = get_user_model()
    users = {}
    actors = {e["actor"] for e in bundle["events"] if e["actor"] is not None}
    for pk in actors - set(model.objects.filter(pk__in=actors).values_list("pk", flat=True)):
        # A bundle gives each event's actor as a user id and no more: whoever it was.
        model.objects.create(pk=pk, username=f"actor-{pk}")
    for public_id, name in bundle["people"].items():
        user, _ = model.objects.get_or_create(username=name)
        Person.objects.get_or_create(public_id=public_id, defaults={"user": user})
        users[public_id] = user
    events = bundle["events"]
    created = events[0]["data"]
    finished = next(e for e in reversed(events) if e["kind"] == "GameFinished")
    result = [
        {**line, "player": bundle["people"].get(line["player"], line["player"])}
        for line in finished["data"]["result"]
    ]
    game = Game.objects.create(
        slug=bundle["rules"]["slug"],
        mode=bundle["game"]["mode"],
        rules_version=bundle["rules"]["version"],
        options=created.get("options", {}),
        num_players=created["num_players"],
        status=bundle["game"]["status"],
        version=len(events),
        current_player=None,
        result=result,
        moved_at=_time(events[-1]["time"]),
        finished_at=_time(finished["time"]),
        fingerprint=bundle["fingerprint"],
        chain_version=bundle["chain_version"],
    )
    Seat.objects.bulk_create(
        [
            Seat(game=game, index=i, user=users.get(seat.get("user")), bot=seat.get("bot") or "")
            for i, seat in enumerate(created["seats"])
        ]
    )
    batch = 1
    rows = []
    for e in events:
        if rows and e["time"] != events[e["seq"] - 2]["time"]:
            batch = e["seq"]  # one write, one time: a new time starts a new batch
        rows.append(
            Event(
                game=game,
                seq=e["seq"],
                kind=e["kind"],
                data=e["data"],
                seat=e["seat"],
                actor_id=e["actor"],
                created_at=_time(e["time"]),
                batch=batch,
                hash=e["hash"],
            )
        )
    Event.objects.bulk_create(rows)
    return game
