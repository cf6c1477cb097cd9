"""A finished game's log as a bundle anyone can check offline (games/records/verify.py)."""

from __future__ import annotations

from typing import Any

from accounts import people as accounts_people
from games import eventschema, logchain
from games.models import EarlierFingerprint, Event, Game, GameMode, GameStatus
from games.rules import get_rules
from games.store import where


def bundle_of(game: Game) -> dict[str, Any]:
    """The bundle of a game that is over (format version 3): every event whole (after the end
    nothing is hidden) with its actor (a member's user id, or null) and its hash, the game's
    chain format, the rule module and its version, and the fingerprint. Under chain format 1
    (a game logged before actors were hashed) the actors are carried but not covered.

    ``people`` gives the name now behind each id the log names (null for a person erased): the
    log itself holds no name. ``earlier``, for a game whose log was moved to ids (migration
    0021), is the fingerprint it had before, when that happened, and the data each rewritten
    event held, from which the checker recomputes the earlier chain; null data once a person it
    names has been erased."""
    if game.status == GameStatus.ACTIVE:
        raise ValueError("only a game that is over is exported")
    try:
        module = get_rules(game.slug).__name__
    except KeyError:
        module = None
    rows = list(
        Event.objects.using(where(game))
        .filter(game_id=game.pk)
        .order_by("seq")
        .values_list("seq", "kind", "data", "seat", "actor_id", "created_at", "hash")
    )
    return {
        "format": logchain.BUNDLE_FORMAT,
        "format_version": logchain.BUNDLE_VERSION,
        "chain_version": game.chain_version,
        "rules": {"slug": game.slug, "module": module, "version": game.rules_version},
        "game": {"mode": game.mode, "status": game.status},
        "events": [
            {
                "seq": seq,
                "kind": kind,
                "data": data,
                "seat": seat,
                "actor": actor,
                "time": logchain.time_text(created_at),
                "hash": digest,
            }
            for seq, kind, data, seat, actor, created_at, digest in rows
        ],
        "fingerprint": game.fingerprint,
        "people": _people(rows),
        "earlier": _earlier(game),
    }


def _people(rows) -> dict[str, str | None]:
    ids = set()
    for _, kind, data, *_ in rows:
        ids.update(eventschema.people_in(kind, data))
        for key in eventschema.TEXTS.get(kind, ()):
            note = data.get(key)
            if isinstance(note, dict) and note.get("by"):
                ids.add(note["by"])
    known = accounts_people.names(ids, erased=None)
    return {public_id: known.get(public_id) for public_id in sorted(ids)}


def _earlier(game: Game) -> dict[str, Any] | None:
    earlier = EarlierFingerprint.objects.using(where(game)).filter(game=game).first()
    if earlier is None:
        return None
    return {
        "fingerprint": earlier.fingerprint,
        "replaced_at": logchain.time_text(earlier.replaced_at),
        "events": earlier.events,
    }


def public_fingerprint(game) -> str | None:
    """The fingerprint, or None while it could give a secret away: each hash covers what the
    events hide, so during a game with hidden information someone could try every value a
    hidden chip or card might have against it. Once the game is over nothing is hidden."""
    if not game.fingerprint:
        return None
    if game.status != GameStatus.ACTIVE or game.mode == GameMode.RECORD:
        return game.fingerprint  # over, or a result recorded: nothing hidden
    hidden = get_rules(game.slug, game.rules_version).spec.hidden_information
    return None if hidden else game.fingerprint
