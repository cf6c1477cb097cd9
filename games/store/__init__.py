"""The event store: one writer, replay, snapshots, the head cache and per-seat redaction.

The store knows streams and versions, not game rules beyond the registry: services decide
what to append, the store makes the append atomic, ordered and idempotent. It knows no
listener either: whoever wants to hear of a write subscribes (:func:`on_write`), as the live
streams do (games.live.push), and the store imports nothing of the rooms above it.

Callers use this package's names (``from games import store; store.write(...)``); each lives
in the module a reader would look in:

- ``types``: what goes in and comes out (NewEvent, LoggedEvent, AppendResult, Head, SeatInfo,
  Guard, VersionConflict) and ``where``, the database a game lives in.
- ``writer``: ``write``, ``append``, ``create_streams``, the hooks ``on_write`` and
  ``within_write``; the statements of each backend in ``postgresql`` and ``sqlite`` (one
  round trip where the database allows it, straight to the driver through core.direct), what
  both share in ``columns``.
- ``heads``: a game's head read from its row, the cache of committed heads and states, and
  ``sharing``, the same cache between the app's processes.
- ``states``: replay and ``load_state``, from the cache, else the newest snapshot that holds
  (``snapshots``: written, sealed and checked) and the events after it.
- ``chain``: the check of a stored log against its hash chain (games.logchain).
- ``redaction``: an event as a reader at given seats may see it.
- ``guards``: the database's own refusal to change an event, on SQLite.
"""

from games.store.chain import ChainBroken, verify_chain
from games.store.heads import HeadCache, head_of, load_head, remember_on_commit, state_cache
from games.store.redaction import visible_data
from games.store.snapshots import maybe_snapshot, snapshot_mac
from games.store.states import apply_event, load_state, new_state, replay, rules_of, undone
from games.store.types import (
    AppendResult,
    Guard,
    Head,
    LoggedEvent,
    NewEvent,
    SeatInfo,
    VersionConflict,
    where,
)
from games.store.writer import (
    ACTIVITY_GRAIN,
    PROJECTED,
    append,
    batch_for_key,
    create_streams,
    current_version,
    on_write,
    within_write,
    write,
)

__all__ = [
    "ACTIVITY_GRAIN",
    "PROJECTED",
    "AppendResult",
    "ChainBroken",
    "Guard",
    "Head",
    "HeadCache",
    "LoggedEvent",
    "NewEvent",
    "SeatInfo",
    "VersionConflict",
    "append",
    "apply_event",
    "batch_for_key",
    "create_streams",
    "current_version",
    "head_of",
    "load_head",
    "load_state",
    "maybe_snapshot",
    "new_state",
    "rules_of",
    "on_write",
    "remember_on_commit",
    "replay",
    "snapshot_mac",
    "state_cache",
    "undone",
    "verify_chain",
    "visible_data",
    "where",
    "within_write",
    "write",
]
