"""A club record's (or a tournament table's) notices, kept in line with where its result
stands after every write to it (games.store.on_write, after commit): each member it waits for
is asked to confirm (``game:12:confirm``), and a dispute waits for whoever may settle it
(``game:12:dispute``: the recorder, and whom the apps above name, games.signals.record_stewards)
until it is corrected or overridden."""

from __future__ import annotations

from django.urls import reverse

from games.catalog import game_name
from games.models import EventKind, Game, GameMode, GameStatus
from games.records.reads import result_state
from games.signals import record_stewards
from inbox import services as inbox


def after_write(before, after, events, connection) -> None:
    if after.mode != GameMode.RECORD:
        return
    if before.version or after.status == GameStatus.ACTIVE:  # not a record final at once
        record_notices(after.id, after.db)


def record_notices(game_id: int, db: str = "default") -> None:
    """A club record's (or a tournament table's) notices as its result stands now: each member
    it waits for is asked to confirm, nobody else is; a dispute waits for whoever may settle it
    (league organisers, the recorder) until it is corrected or overridden."""
    game = Game.objects.using(db).filter(pk=game_id).first()
    if game is None:
        return
    state = result_state(game)
    seats = list(game.seats.select_related("user").filter(user__isnull=False))
    by_name = {s.user.username: s.user_id for s in seats}
    waiting = {by_name[n] for n in state["waiting_for"] if n in by_name}
    confirm_key, dispute_key = f"game:{game.pk}:confirm", f"game:{game.pk}:dispute"
    inbox.done(
        confirm_key,
        user_ids=[uid for uid in by_name.values() if uid not in waiting]
        if state["status"] == "awaiting confirmation"
        else None,
        db=db,
    )
    name = game_name(game.slug)
    url = reverse("game-detail", args=[game.pk])
    recorder = state["confirmed_by"][0] if state["confirmed_by"] else None
    if state["status"] == "awaiting confirmation":
        correcting = game.status == GameStatus.FINISHED or _corrected(game)
        for user_id in sorted(waiting):
            verb = "corrected the result of" if correcting else "recorded"
            text = f"{recorder or 'Someone'} {verb} a game of {name} with you: confirm it"
            inbox.notify(user_id, "record_to_confirm", text, url, key=confirm_key, db=db)
    if state["status"] == "disputed":
        who = ", ".join(d["by"] for d in state["disputes"] if d["by"])
        stewards: set[int] = set()
        for _, answer in record_stewards.send_robust(sender=None, game=game):
            if isinstance(answer, (list, set, tuple)):
                stewards.update(answer)
        if game.created_by_id:
            stewards.add(game.created_by_id)
        for user_id in sorted(stewards):
            text = f"{who or 'A player'} disputes the result of a game of {name}: settle it"
            inbox.notify(user_id, "dispute", text, url, key=dispute_key, db=db)
    else:
        inbox.done(dispute_key, db=db)


def _corrected(game) -> bool:
    return game.events.filter(kind=EventKind.RESULT_CORRECTED).exists()
