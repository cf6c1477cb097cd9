"""A finished game's log as a bundle anyone can check offline (games/records/verify.py)."""

from __future__ import annotations

from typing import Any

from games import logchain
from games.models import Event, Game, GameMode, GameStatus
from games.rules import get_rules
from games.store import where


def bundle_of(game: Game) -> dict[str, Any]:
    """The bundle of a game that is over (format version 2): every event whole (after the end
    nothing is hidden) with its actor (a member's user id, or null) and its hash, the game's
    chain format, the rule module and its version, and the fingerprint. Under chain format 1
    (a game logged before actors were hashed) the actors are carried but not covered."""
    if game.status == GameStatus.ACTIVE:
        raise ValueError("only a game that is over is exported")
    try:
        module = get_rules(game.slug).__name__
    except KeyError:
        module = None
    events = (
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
            for seq, kind, data, seat, actor, created_at, digest in events
        ],
        "fingerprint": game.fingerprint,
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
