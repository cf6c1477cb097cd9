"""Snapshots: a game's rule state every ``HADAL_SNAPSHOT_EVERY`` events, keyed by the rules'
version, so that a read replays only the events after the newest one (games.store.states).

Snapshots are a cache, the events the truth, and the app's database role may rewrite a
snapshot's row: each is sealed with the chain's hash of its event and a keyed check
(:func:`snapshot_mac`), and one that fails either is passed over and replaced.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import OuterRef, Subquery
from django.utils.crypto import constant_time_compare, salted_hmac

from games import logchain
from games.models import Event, GameMode, Snapshot
from games.rules import Rules
from games.rules.base import State, StateFormatError, state_from_json
from games.store.types import where

logger = logging.getLogger(__name__)


def newest_usable(game, rules: Rules, target: int) -> tuple[State | None, int, dict[int, str]]:
    """The state of the newest usable snapshot at or before ``target`` and its version (None
    and 0 if there is none), and those passed over on the way, each version with the hash of
    its event, for the replay to replace (:func:`replace_unusable`).

    One is used only if it was taken at the chain's hash of its event and its keyed check
    (:func:`snapshot_mac`) holds. One that fails, or that no longer fits the rules' State
    (written before a refactor), is skipped for the next older one, with a warning naming
    the game. A row written before snapshots were sealed is passed over too.
    """
    below = target + 1
    unusable: dict[int, str] = {}
    logged = Event.objects.using(where(game)).filter(
        game_id=OuterRef("game_id"), seq=OuterRef("version")
    )
    while True:
        snap = (
            Snapshot.objects.using(where(game))
            .filter(game_id=game.pk, rules_version=rules.spec.version, version__lt=below)
            .order_by("-version")
            .annotate(logged_hash=Subquery(logged.values("hash")))
            .only("version", "state", "chain_hash", "mac")
            .first()
        )
        if snap is None:
            return None, 0, unusable
        below = snap.version
        why = fault(game.pk, rules.spec.version, snap)
        if why is None:
            try:
                return state_from_json(rules, json.loads(snap.state)), snap.version, unusable
            except (json.JSONDecodeError, StateFormatError) as exc:
                why = str(exc)
        if not snap.mac:
            logger.info("game %s: snapshot at version %s unsealed, replaced", game.pk, snap.version)
        else:
            logger.warning(
                "game %s: snapshot at version %s ignored: %s",
                game.pk,
                snap.version,
                why,
            )
        if snap.logged_hash:
            unusable[snap.version] = snap.logged_hash


def snapshot_mac(
    game_id: int,
    version: int,
    rules_version: int,
    chain_hash: str,
    state_text: str,
    *,
    secret: str | None = None,
) -> str:
    """A snapshot's keyed check: HMAC-SHA256 under a key drawn from ``secret`` (SECRET_KEY
    by default) over everything its row says, the state as the text the row holds. The app's
    database role can rewrite a row, never make the check of what it wrote."""
    message = f"{game_id}:{version}:{rules_version}:{chain_hash}:{state_text}".encode()
    return salted_hmac(_SNAPSHOT_SALT, message, secret, algorithm="sha256").hexdigest()


_SNAPSHOT_SALT = "games.store.snapshot"


def fault(game_id: int, rules_version: int, snap: Snapshot) -> str | None:
    """Why a snapshot row (annotated with ``logged_hash``, its event's hash) may not be used,
    or None if it holds."""
    if not snap.mac:
        return "written before snapshots were sealed"
    if snap.chain_hash != snap.logged_hash:
        return "taken at a chain hash that is not the log's at its version"
    # A key rotated out (SECRET_KEY_FALLBACKS) still vouches for what it sealed.
    for secret in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS):
        check = snapshot_mac(
            game_id, snap.version, rules_version, snap.chain_hash, snap.state, secret=secret
        )
        if constant_time_compare(check, snap.mac):
            return None
    return "its keyed check does not match what it holds: the row was changed"


def _row(game, rules_version: int, version: int, chain_hash: str, state: State) -> Snapshot:
    # The text is what the check covers, byte for byte, so a read checks what it reads
    # without encoding the state again (that cost as much as decoding it).
    text = logchain.canonical_text(state.to_json())
    return Snapshot(
        game_id=game.pk,
        version=version,
        rules_version=rules_version,
        state=text,
        chain_hash=chain_hash,
        mac=snapshot_mac(game.pk, version, rules_version, chain_hash, text),
    )


def maybe_snapshot(game, state: State, previous_version: int) -> None:
    """Write a snapshot when the append crossed a multiple of HADAL_SNAPSHOT_EVERY, sealed
    with the chain's hash at the head (``game.fingerprint``, the hash of event
    ``game.version``)."""
    every = settings.HADAL_SNAPSHOT_EVERY
    if game.mode == GameMode.LOG:
        return  # load_state replays a table log from the start
    if every <= 0 or game.version // every == previous_version // every:
        return
    # One statement: a snapshot someone wrote first is as good as ours (ON CONFLICT DO
    # NOTHING), where get_or_create read, then wrote in a savepoint of its own. A row that
    # is not (planted ahead of the game, say) is replaced by the first read past it.
    rules_version = game.rules_version
    Snapshot.objects.using(where(game)).bulk_create(
        [_row(game, rules_version, game.version, game.fingerprint, state)],
        ignore_conflicts=True,
    )


def replace_unusable(game, rules: Rules, version: int, chain_hash: str, state: State) -> None:
    """Put the true state over a snapshot row found unusable, as the replay passes its
    version, so that it is not met again: a cache row rewritten, never an event. A read
    that cannot write (a lock, a read-only database) still answers."""
    row = _row(game, rules.spec.version, version, chain_hash, state)
    try:
        with transaction.atomic(using=where(game)):
            Snapshot.objects.using(where(game)).bulk_create(
                [row],
                update_conflicts=True,
                unique_fields=["game", "version", "rules_version"],
                update_fields=["state", "chain_hash", "mac"],
            )
    except DatabaseError:
        logger.warning(
            "game %s: could not replace the snapshot at version %s", game.pk, version, exc_info=True
        )
