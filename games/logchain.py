"""The hash chain over a game's events, and the bundle that carries a finished game's log.

Pure Python (the standard library only), so that ``games/records/verify.py`` can check a bundle on
a machine with nothing but Python and this repository's ``games/rules``.

Each event's hash is SHA-256 over the canonical JSON of what it says and the hash of the event
before it (the empty string before the first), so the last hash, the game's fingerprint, stands
for the whole log: change any event, or drop or reorder one, and every hash from there on
changes. What an event's hash covers is the game's chain format (``Game.chain_version``):

- format 1 (the games logged before the actor was hashed): seq, kind, data, seat and time;
- format 2: those and the actor, who made the event, as the member's user id (null for the
  server: chance, a clock, a bot's seat without a member). An id, never a name: a member erased
  later loses their name, not their id, so their games still verify.

A stored game keeps the format it was logged under for ever: its events are never rewritten.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

GENESIS = ""  # the "previous hash" of a game's first event
CHAIN_VERSIONS = (1, 2)
CHAIN_VERSION = 2  # a new game's
BUNDLE_FORMAT = "hadal-game-log"
# 1: events without their actor, of chain format 1 only; 2: each event's actor, and the
# bundle's chain_version; 3: the names behind the ids the log names people by ("people"), and
# the fingerprint from before the log was moved to ids, with what it covered ("earlier").
# games/records/verify.py reads all three.
BUNDLE_VERSIONS = (1, 2, 3)
BUNDLE_VERSION = 3  # what the export writes


_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)
_CANONICAL: Callable[[Any], str] = _ENCODER.encode
if json.encoder.c_make_encoder is not None:  # type: ignore[attr-defined]
    # The C encoder that JSONEncoder.encode builds afresh on every call, built once: it was a
    # third of an event's hash, on every append and in check_history (bench_history.py). The
    # same arguments as encode's, so the same text; but no circular-reference markers (event
    # data is parsed JSON, never circular), so that it keeps no state and threads may share it.
    _C_ENCODER = json.encoder.c_make_encoder(  # type: ignore[attr-defined]
        None,
        _ENCODER.default,
        json.encoder.encode_basestring,
        None,
        _ENCODER.key_separator,
        _ENCODER.item_separator,
        True,  # sort_keys
        False,  # skipkeys
        False,  # allow_nan
    )

    def _CANONICAL(value: Any) -> str:
        return "".join(_C_ENCODER(value, 0))


def canonical_text(value: Any) -> str:
    """One text per JSON value: keys sorted, no spaces, no NaN (UTF-8 makes it bytes)."""
    return _CANONICAL(value)


def canonical(value: Any) -> bytes:
    """One byte string per JSON value: keys sorted, no spaces, UTF-8, no NaN."""
    return _CANONICAL(value).encode("utf-8")


def time_text(moment: datetime) -> str:
    """An event's time as the chain hashes it: UTC, to the microsecond, ISO 8601 with a Z."""
    if moment.tzinfo is None:
        raise ValueError("event times must be aware datetimes")
    # isoformat, a third of strftime's cost on every append; the same text for years 1000-9999
    return moment.astimezone(UTC).isoformat(timespec="microseconds")[:-6] + "Z"


def event_hash(
    previous: str,
    seq: int,
    kind: str,
    data: Any,
    seat: int | None,
    time: str,
    *,
    actor: int | None = None,
    chain: int,
) -> str:
    """The hash of one event, chained to ``previous``: SHA-256 of the canonical form of
    ``{"seq", "kind", "data", "seat", "time", "prev"}`` in chain format 1, and with
    ``"actor"`` besides in format 2 (format 1 leaves the actor out)."""
    return event_hash_of_text(previous, seq, kind, _CANONICAL(data), seat, time, actor, chain)


def event_hash_of_text(
    previous: str,
    seq: int,
    kind: str,
    data_text: str,
    seat: int | None,
    time: str,
    actor: int | None,
    chain: int,
) -> str:
    """:func:`event_hash` for data already in its canonical text (the store writes that text
    to the log too, so a move encodes its data once). The body is put together in the
    canonical form's own order, keys sorted: (actor,) data, kind, prev, seat, seq, time."""
    if (
        type(seq) is not int
        or not (seat is None or type(seat) is int)
        or not (actor is None or type(actor) is int)
    ):
        raise TypeError("seq, seat and actor must be whole numbers")  # bool would print as true
    if chain == 2:
        head = f'{{"actor":{"null" if actor is None else actor},"data":'
    elif chain == 1:
        head = '{"data":'
    else:
        raise ValueError(f"chain format {chain!r}: the formats are {CHAIN_VERSIONS}")
    body = (
        f'{head}{data_text},"kind":{_CANONICAL(kind)},"prev":{_CANONICAL(previous)},'
        f'"seat":{"null" if seat is None else seat},"seq":{seq},"time":{_CANONICAL(time)}}}'
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def chain(
    previous: str,
    events: list[tuple[int, str, str, int | None, int | None, str]],
    *,
    version: int,
) -> list[str]:
    """The hashes of ``events`` ((seq, kind, data as canonical text, seat, actor, time) each)
    following ``previous``, in chain format ``version``."""
    hashes = []
    for seq, kind, data_text, seat, actor, time in events:
        previous = event_hash_of_text(previous, seq, kind, data_text, seat, time, actor, version)
        hashes.append(previous)
    return hashes


UNDO_KIND = "EntryUndone"  # games.models.EventKind.ENTRY_UNDONE: a table log's entry taken back


def undone(rows) -> set[int]:
    """The seqs of the entries a table log's scorekeeper took back, from ``(seq, kind, data)``
    rows: replay skips them (the store, the analysis and the offline check alike)."""
    return {data["undoes"] for _, kind, data in rows if kind == UNDO_KIND}


def short(fingerprint: str) -> str:
    """The form players copy onto a score slip: the first 12 hex digits in groups of four."""
    head = fingerprint[:12]
    return " ".join(head[i : i + 4] for i in range(0, len(head), 4))


def dump_bundle(bundle: dict[str, Any]) -> bytes:
    """A bundle's only byte form: sorted keys, one space of indent, UTF-8, a final newline.
    Being the only form is what lets a verifier say where a changed byte is."""
    return (
        json.dumps(bundle, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    ).encode("utf-8")
