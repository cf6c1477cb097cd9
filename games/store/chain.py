"""The check of a stored log against its hash chain (games.logchain): every event's hash is
that of what it holds and of the hash before it, and the game's fingerprint is the last."""

from __future__ import annotations

from games import logchain
from games.models import Event
from games.store.types import where


class ChainBroken(Exception):
    """A stored log does not hash to its chain: the message names the first event that fails."""


def verify_chain(game) -> str:
    """Check every stored event's hash under the game's chain format (logchain), in order from
    the first, and the game's fingerprint; return the fingerprint, or raise ChainBroken naming
    the first event whose hash is not that of what it holds."""
    previous = logchain.GENESIS
    rows = (
        Event.objects.using(where(game))
        .filter(game_id=game.pk)
        .order_by("seq")
        .values_list("seq", "kind", "data", "seat", "actor_id", "created_at", "hash")
    )
    for number, (seq, kind, data, seat, actor, created_at, digest) in enumerate(rows, start=1):
        if seq != number:
            raise ChainBroken(f"event {number} is missing")
        try:
            computed = logchain.event_hash(
                previous,
                seq,
                kind,
                data,
                seat,
                logchain.time_text(created_at),
                actor=actor,
                chain=game.chain_version,
            )
        except ValueError as exc:
            raise ChainBroken(f"event {seq} ({kind}): cannot be hashed ({exc})") from None
        if computed != digest:
            raise ChainBroken(
                f"event {seq} ({kind}): its hash does not match what it holds (chain format "
                f"{game.chain_version}), so the event or its hash was changed"
            )
        previous = digest
    if previous != game.fingerprint:
        raise ChainBroken("the game's fingerprint is not the hash of its last event")
    return previous
