"""Events and seats as the admin shows them, formatted once per page in plain Python: the
event list's rows, and a game's seats and last events as tables on its page.

The admin's own way (a cell at a time through ``display_for_field``, a formset of read-only
forms per inline) took nine tenths of those pages' time for rows that nobody edits."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.formats import localize
from django.utils.html import format_html, format_html_join

from games.models import Event, EventKind, Seat
from games.pages.links import Link

EMPTY = "-"  # the admin's empty_value_display
_KINDS = dict(EventKind.choices)


def _shown(value: Any) -> str:
    return EMPTY if value is None else str(value)


def event_rows(events: Iterable[Event], *, data: bool = False) -> list[dict[str, Any]]:
    """Each event (its game and actor with it) as the list's cells, with its admin link;
    with ``data``, its data as JSON too (a game's page shows it, the list does not)."""
    url = Link("admin:games_event_change", None)
    return [
        {
            "url": url(event.pk),
            "game": str(event.game),
            "seq": event.seq,
            "kind": _KINDS.get(event.kind, event.kind),
            "seat": _shown(event.seat),
            "actor": event.actor.username if event.actor_id else EMPTY,
            "data": json.dumps(event.data, ensure_ascii=False) if data else "",
            "created_at": localize(timezone.template_localtime(event.created_at)),
        }
        for event in events
    ]


def events_table(rows: list[dict[str, Any]]) -> str:
    """A game's events (``event_rows``) as a table, each linked to its own page."""
    if not rows:
        return EMPTY
    body = format_html_join(
        "",
        '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td>'
        "<td><code>{}</code></td><td>{}</td></tr>",
        (
            (r["url"], r["seq"], r["kind"], r["seat"], r["actor"], r["data"], r["created_at"])
            for r in rows
        ),
    )
    return format_html(
        '<table class="admin-rows"><thead><tr><th>Seq</th><th>Kind</th><th>Seat</th>'
        "<th>Actor</th><th>Data</th><th>Created at</th></tr></thead><tbody>{}</tbody></table>",
        body,
    )


def seats_table(seats: Iterable[Seat]) -> str:
    """A game's seats (their users with them) as a table."""
    body = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        (
            (seat.index, seat.name, seat.bot or EMPTY, "yes" if seat.resigned else "no")
            for seat in seats
        ),
    )
    return format_html(
        '<table class="admin-rows"><thead><tr><th>Index</th><th>Player</th><th>Bot</th>'
        "<th>Resigned</th></tr></thead><tbody>{}</tbody></table>",
        body,
    )
