"""What waits for a person in games, kept in their inbox (inbox.services): their turn, a seat
offered to them (a rematch too); a club record's are games.records.notices'. Each is opened when it begins to wait and closed when it no longer does, from the
store's writes (games.store.on_write, after commit); the inbox's changes go on to the person's
stream (/api/me/stream/, games.live.streams) from here, since games owns the streams.

Notices are keyed by the matter (``game:12:turn``, ``game:12:invite``): one open notice each, closed by key. A write that committed while this
process could not write its notice (a crash between the two) is mended when the person's
stream next opens (:func:`mend`)."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.urls import reverse

from games.catalog import game_name
from games.live import push
from games.models import Game, GameMode, GameStatus, Seat
from games.signals import invitation_sent, turn_started
from inbox import services as inbox
from inbox.signals import notices_changed

log = logging.getLogger(__name__)


def connect() -> None:
    from games import store

    turn_started.connect(on_turn_started, dispatch_uid="games.live.notices.turn")
    invitation_sent.connect(on_invitation_sent, dispatch_uid="games.live.notices.invitation")
    notices_changed.connect(on_inbox_changed, dispatch_uid="games.live.notices.stream")
    store.on_write(after_write)


# -- the person's stream --------------------------------------------------------------------------


CHANGED = {"inbox": "changed"}


def on_inbox_changed(*, user_id: int, db: str = "default", **kwargs) -> None:
    """Tell someone's stream their inbox changed. Only that: the stream reads the new notices
    and the counts itself (games.live.streams.UserFeed), so a write that passes a turn pays a
    publish, not a count, and only a person who is listening costs a read."""
    push.notify_user(user_id, CHANGED, db)


# -- turns and invitations ------------------------------------------------------------------------


def _names(game, seat: int) -> str:
    others = [s for s in game.seats if s.index != seat]
    names = [("a bot" if s.bot else s.name) for s in others]
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def on_turn_started(*, game, seat: int, user_id: int, **kwargs) -> None:
    inbox.notify(user_id, "your_turn", **turn_notice(game, seat), db=game.db)


def turn_based(game) -> bool:
    """A game played over days, not at the board: no clock, or a long one. Only its turns
    go beyond the site (mail, push): in a game with a short clock the player is at the page."""
    bank = getattr(game, "bank_seconds", None)
    if bank is not None:
        return bank >= settings.HADAL_TURN_EMAIL_MIN_CLOCK
    return game.move_seconds is None or game.move_seconds >= settings.HADAL_TURN_EMAIL_MIN_CLOCK


def turn_notice(game, seat: int) -> dict[str, Any]:
    name, against = game_name(game.slug), _names(game, seat)
    return {
        "text": f"Your turn in {name}" + (f" against {against}" if against else ""),
        "url": reverse("game-detail", args=[game.id]),
        "key": f"game:{game.id}:turn",
        "data": {"game": game.id, "seat": seat, "version": game.version, "name": name},
        "reach": turn_based(game),
    }


def on_invitation_sent(*, game, seat: int, user_id: int, **kwargs) -> None:
    rematch = Game.objects.using(game.db).filter(pk=game.id, rematch_of__isnull=False).exists()
    inbox.notify(
        user_id, "rematch" if rematch else "invitation", **invitation_notice(game, seat, rematch)
    )


def invitation_notice(game, seat: int, rematch: bool = False) -> dict[str, Any]:
    name, others = game_name(game.slug), _names(game, seat)
    text = (
        f"A rematch of {name} is offered to you" + (f" with {others}" if others else "")
        if rematch
        else f"You are invited to play {name}" + (f" with {others}" if others else "")
    )
    return {
        "text": text,
        "url": reverse("game-detail", args=[game.id]),
        "key": f"game:{game.id}:invite",
        "data": {
            "game": game.id,
            "seat": seat,
            "name": name,
            "accept": reverse("api-game-accept", args=[game.id]),
            "decline": reverse("api-game-decline", args=[game.id]),
        },
    }


def after_write(before, after, events, connection) -> None:
    """Close what a write settled: the turn of whoever just had it, the invitations answered,
    everything of a game that ended (a game played here; records: games.records.notices)."""
    db = after.db
    if after.mode != GameMode.PLAY or not before.version:
        return
    if after.status != GameStatus.ACTIVE:
        if before.status == GameStatus.ACTIVE:
            inbox.done(f"game:{after.id}:", prefix=True, db=db)
        return
    was = before.current_player
    if (
        was is not None
        and 0 <= was < len(before.seats)
        and before.seats[was].user_id
        and not before.seats[was].bot
    ):
        had_it = before.seats[was].user_id
        now = after.current_player
        holder = (
            after.seats[now].user_id if now is not None and 0 <= now < len(after.seats) else None
        )
        if holder != had_it or after.seats[was].resigned:
            inbox.done(f"game:{after.id}:turn", user_ids=[had_it], db=db)
    answered = [
        s.user_id
        for s, was_seat in zip(after.seats, before.seats)
        if s.user_id is not None and s.accepted and not was_seat.accepted
    ]
    if answered:
        inbox.done(f"game:{after.id}:invite", user_ids=answered, db=db)


def mend(user) -> None:
    """Open the turn and invitation notices a person should have and close those that no
    longer hold, from their seats (two queries, three when something is off): what a crash
    between a move and its notice would have left wrong."""
    invited = Seat.objects.filter(game=OuterRef("game"), user__isnull=False, bot="", accepted=False)
    seats = list(
        Seat.objects.filter(
            user=user,
            bot="",
            resigned=False,
            game__status=GameStatus.ACTIVE,
            game__mode=GameMode.PLAY,
        )
        .annotate(someone_invited=Exists(invited))
        .select_related("game")
        .order_by("game_id", "index")
    )
    should = {}
    for seat in seats:
        if not seat.accepted:
            should[f"game:{seat.game_id}:invite"] = seat
        # Nobody's turn begins while someone invited has not answered (games.live.push).
        if seat.game.current_player == seat.index and not seat.someone_invited:
            should[f"game:{seat.game_id}:turn"] = seat
    open_keys = set(
        user.notices.filter(
            done_at__isnull=True, kind__in=("your_turn", "invitation", "rematch")
        ).values_list("key", flat=True)
    )
    for key in open_keys - set(should):
        inbox.done(key, user_ids=[user.pk])
    missing = [key for key in should if key not in open_keys]
    if not missing:
        return
    heads = {g.id: g for g in _heads({should[k].game_id for k in missing})}
    for key in missing:
        seat = should[key]
        head = heads[seat.game_id]
        if key.endswith(":turn"):
            inbox.notify(user.pk, "your_turn", **turn_notice(head, seat.index))
        else:
            rematch = seat.game.rematch_of_id is not None
            inbox.notify(
                user.pk,
                "rematch" if rematch else "invitation",
                **invitation_notice(head, seat.index, rematch),
            )


def _heads(game_ids: set[int]):
    from games import store

    return [store.load_head(pk) for pk in sorted(game_ids)]
