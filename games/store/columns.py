"""What the two dialects' writes share (games.store.postgresql, games.store.sqlite): the
columns of an event as a write inserts them, and which row of the head a write updates."""

from __future__ import annotations

# Each with its PostgreSQL type, in the order of the values games.store.writer builds for each
# event: one more column is one more entry in each.
EVENT_COLUMNS = (
    ("game_id", "bigint"),
    ("seq", "integer"),
    ("kind", "varchar"),
    ("data", "jsonb"),
    ("seat", "smallint"),
    ("actor_id", "integer"),
    ("created_at", "timestamptz"),
    ("batch", "integer"),
    ("idempotency_key", "varchar"),
    ("hash", "varchar"),
)
EVENT_NAMES = ", ".join(name for name, _ in EVENT_COLUMNS)

# The head's columns held as JSON: encoded by the writer, cast to jsonb on PostgreSQL.
JSON_COLUMNS = ("result", "options", "banks", "paused")


def head_where(guard: str | None) -> str:
    """Which row of games_game a write updates: the game at the expected version, and where
    the write carries a guard (games.store.Guard), only while its condition holds."""
    return "id = %s AND version = %s" + ("" if guard is None else f" AND {guard}")
