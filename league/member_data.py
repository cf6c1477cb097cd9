"""A member's own data, to take away (GDPR article 20): their account, their games played here and
at tables (records included, with the notes they wrote), their ratings and every change a game
made to them, their clubs, their inbox and how it reaches them, and their days away; as one
JSON document, or as a ZIP of that document and a CSV
per table."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db.models import Prefetch

from accounts import people as accounts_people
from accounts.models import Vacation
from games import people
from games.catalog import game_name
from games.models import Event, EventKind, Game, Seat
from inbox.delivery import mail_choice, push_choice
from inbox.kinds import KINDS
from inbox.models import Choices, Notice, PushDevice
from league.models import Membership, Rating, RatingChange

GAME_COLUMNS = (
    "game", "name", "mode", "status", "rules_version", "created_at", "finished_at",
    "seats", "players", "rank", "score", "fingerprint",
)  # fmt: skip
RATING_COLUMNS = (
    "game", "name", "rating", "games", "openskill_mu", "openskill_sigma",
    "glicko_rating", "glicko_deviation", "glicko_volatility",
)  # fmt: skip
CHANGE_COLUMNS = (
    "game_id", "game", "finished_at", "seat", "rank", "before", "after",
    "glicko_before", "glicko_after", "glicko_deviation_before", "glicko_deviation_after",
)  # fmt: skip


def member_data(user: AbstractUser) -> dict[str, Any]:
    """Everything the service holds of ``user`` that is theirs, as plain JSON."""
    return {
        "member": {
            "username": user.username,
            "email": user.email,
            "joined": user.date_joined.isoformat(),
            "id_in_logs": accounts_people.member_id(user),
        },
        "games": _games(user),
        "notes": _notes(user),
        "ratings": [
            {
                "game": r.slug,
                "name": game_name(r.slug),
                "rating": round(r.rating, 1),
                "games": r.games,
                "openskill_mu": round(r.openskill_mu, 3),
                "openskill_sigma": round(r.openskill_sigma, 3),
                # the rating the pages show, as the last game left it
                "glicko_rating": round(r.glicko_rating, 1),
                "glicko_deviation": round(r.glicko_deviation, 1),
                "glicko_volatility": round(r.glicko_volatility, 5),
            }
            for r in Rating.objects.filter(user=user).order_by("slug")
        ],
        "rating_changes": [
            {
                "game_id": c.game_id,
                "game": c.slug,
                "finished_at": c.finished_at.isoformat(),
                "seat": c.seat,
                "rank": c.rank,
                "before": round(c.before, 1),
                "after": round(c.after, 1),
                "glicko_before": round(c.glicko_rating_before, 1),
                "glicko_after": round(c.glicko_rating_after, 1),
                "glicko_deviation_before": round(c.glicko_deviation_before, 1),
                "glicko_deviation_after": round(c.glicko_deviation_after, 1),
            }
            for c in RatingChange.objects.filter(user=user).order_by("finished_at", "game_id")
        ],
        "clubs": [
            {"club": m.league.name, "role": m.role, "since": m.joined_at.isoformat()}
            for m in Membership.objects.filter(user=user).select_related("league").order_by("pk")
        ],
        **_reaching(user),
    }


def _iso(moment) -> str | None:
    return None if moment is None else moment.isoformat()


def _reaching(user: AbstractUser) -> dict[str, Any]:
    """Their inbox, how it reaches them, the devices they allowed (named, without the push
    service's address or keys: those are the browser's), and their days away."""
    choices = Choices.objects.filter(user=user).first()
    return {
        "notices": [
            {
                "kind": n.kind,
                "text": n.text,
                "link": n.url,
                "created": n.created_at.isoformat(),
                "read": _iso(n.read_at),
                "done": _iso(n.done_at),
                "mailed": _iso(n.mailed_at),
                "pushed": _iso(n.pushed_at),
            }
            for n in Notice.objects.filter(user=user).order_by("pk")
        ],
        "notice_choices": {
            "mail": {k.name: mail_choice(choices, k.name) for k in KINDS},
            "push": {k.name: push_choice(choices, k.name) for k in KINDS},
            "digest_hour": choices.digest_hour if choices else None,
            "timezone": choices.timezone if choices else None,
        },
        "devices": [
            {"name": d.label, "added": d.created_at.isoformat(), "last_told": _iso(d.last_sent_at)}
            for d in PushDevice.objects.filter(user=user).order_by("pk")
        ],
        "vacations": [
            {
                "from": v.starts_at.isoformat(),
                "until": _iso(v.ends_at),
                "state": v.state,
                "taken_for_a_timeout": v.auto,
            }
            for v in Vacation.objects.filter(user=user).order_by("starts_at")
        ],
    }


def _games(user: AbstractUser) -> list[dict[str, Any]]:
    games = (
        Game.objects.filter(seats__user=user)
        .distinct()
        .order_by("created_at", "pk")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("user")))
    )
    out = []
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.index)
        mine = [s.index for s in seats if s.user_id == user.pk]
        lines = game.result or []
        out.append(
            {
                "game": game.pk,
                "name": game_name(game.slug),
                "mode": game.mode,
                "status": game.status,
                "rules_version": game.rules_version,
                "created_at": game.created_at.isoformat(),
                "finished_at": game.finished_at.isoformat() if game.finished_at else None,
                "seats": mine,
                "players": [s.player_name for s in seats],
                "result": lines,
                "fingerprint": game.fingerprint,
            }
        )
    return out


def _notes(user: AbstractUser) -> list[dict[str, Any]]:
    """What the member wrote in their own words: a record's notes, a dispute's or a
    correction's reason, opened with their key."""
    kinds = (EventKind.RESULT_RECORDED, EventKind.RESULT_DISPUTED, EventKind.RESULT_CORRECTED)
    rows = list(
        Event.objects.filter(actor=user, kind__in=kinds)
        .order_by("game_id", "seq")
        .values_list("game_id", "seq", "kind", "data", "created_at")
    )
    shown = people.Shown((kind, data) for _, _, kind, data, _ in rows)
    out = []
    for game_id, seq, kind, data, created_at in rows:
        for key in ("notes", "reason"):
            text = shown(kind, data).get(key)
            if text:
                out.append(
                    {
                        "game": game_id,
                        "event": seq,
                        "written_at": created_at.isoformat(),
                        "text": text,
                    }
                )
    return out


def member_data_zip(user: AbstractUser) -> bytes:
    """The JSON document and a CSV of the games, the ratings and the rating changes."""
    data = member_data(user)
    games = [
        {
            **{k: g[k] for k in GAME_COLUMNS if k in g},
            "seats": " ".join(map(str, g["seats"])),
            "players": "; ".join(g["players"]),
            "rank": _mine(g, "rank"),
            "score": _mine(g, "score"),
        }
        for g in data["games"]
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("hadal-data.json", json.dumps(data, indent=1, ensure_ascii=False))
        archive.writestr("games.csv", _csv(GAME_COLUMNS, games))
        archive.writestr("ratings.csv", _csv(RATING_COLUMNS, data["ratings"]))
        archive.writestr("rating_changes.csv", _csv(CHANGE_COLUMNS, data["rating_changes"]))
    return buffer.getvalue()


def _mine(game: dict[str, Any], key: str) -> str:
    """The member's rank or score in a finished game (each of their seats', at a hot seat)."""
    lines = game["result"]
    return " ".join(str(lines[i].get(key)) for i in game["seats"] if i < len(lines))


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else row.get(k) for k in columns})
    return out.getvalue()
