"""A tournament table played on a physical table: its seated players report the result and
confirm each other's report; a conflict is disputed and left to the organiser, who overrides.
A Deep Vents table with the starting-bid variant reports the winning bid with its result.

The table's game is a recorded game (games.records.services) whose result arrives by report
rather than by a club member's record: ``table_game_create``, then ``result_report``,
``result_confirm`` and, for the organiser, ``result_override``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction

from core.errors import NotYourSeat, RuleViolation
from games import events as game_events
from games import people, store
from games.catalog import game_type
from games.models import Game, GameMode, GameStatus, Seat
from games.play.steps import announce
from games.records import reads
from games.records import services as records
from games.signals import game_finished, result_corrected

# A confirmation that says nothing of the bid confirms the bid reported with the result.
UNSTATED: Any = object()


@transaction.atomic
def table_game_create(
    *, slug: str, users: list, created_by: AbstractUser, options: dict | None = None
) -> Game:
    """An open recorded game for a tournament table: seated players will report its result.
    ``users`` are the players in seat order: members, or a walk-in's name (a str) for a guest
    seated by name, as a club record seats one."""
    kind = game_type(slug)
    game = Game.objects.create(
        slug=slug,
        mode=GameMode.RECORD,
        rules_version=0,
        options=options or {},
        num_players=len(users),
        created_by=created_by,
    )
    seats = [
        Seat(game=game, index=i, guest=u)
        if isinstance(u, str)
        else Seat(game=game, index=i, user=u)
        for i, u in enumerate(users)
    ]
    Seat.objects.bulk_create(seats)
    created = game_events.game_created(
        game=kind.slug,
        mode=GameMode.RECORD,
        num_players=len(users),
        options=options or {},
        seats=[{"guest": u} if isinstance(u, str) else {"user": u.username} for u in users],
        actor_id=getattr(created_by, "pk", None),
        people=people.writer(seats=seats),
    )
    store.append(game, 0, [created], projection={"current_player": None})
    return game


@transaction.atomic
def result_report(
    *, game: Game, user: AbstractUser, results: list[dict[str, Any]], bid: dict | None = None
) -> dict[str, Any]:
    """A seated player reports the table's result (and, for a starting bid, the winning bid).
    The reporter counts as confirming it and may report again to fix a slip until someone
    confirms; another player's report of the same result confirms it, of another disputes it."""
    _check_open_table(game, user)
    state = reads.result_state(game)
    if state["status"] == "disputed":
        raise RuleViolation("the result is disputed: the organiser decides it now")
    if state["reported"] is not None and state["confirmed_by"][0] != user.username:
        # Someone else reported first: the same result confirms it, another disputes it.
        return result_confirm(game=game, user=user, results=results)
    if len(state["confirmed_by"]) > 1:
        raise RuleViolation("a confirmed result cannot be reported again; confirm or dispute it")
    clean = records.projected(
        records.parse_results(game_type(game.slug), results, records.seat_names(game))
    )
    bid = _parse_bid(game, bid)
    store.append(
        game,
        game.version,
        [
            game_events.result_reported(
                results=clean, bid=bid, actor_id=user.pk, people=people.writer(game)
            )
        ],
    )
    return records.finish_if_confirmed(game)


@transaction.atomic
def result_confirm(
    *, game: Game, user: AbstractUser, results: list[dict[str, Any]], bid: Any = UNSTATED
) -> dict[str, Any]:
    """Another seated player confirms the reported result; a different result disputes it, and
    so does a different winning bid, when the confirmer states one."""
    _check_open_table(game, user)
    state = reads.result_state(game)
    if state["reported"] is None:
        raise RuleViolation("nothing has been reported yet: report the result instead")
    if state["status"] == "disputed":
        raise RuleViolation("the result is disputed: the organiser decides it now")
    if user.username in state["confirmed_by"]:
        raise RuleViolation("you have already confirmed this result")
    clean = records.projected(
        records.parse_results(game_type(game.slug), results, records.seat_names(game))
    )
    stated = bid is not UNSTATED
    bid = _parse_bid(game, bid) if stated else state["bid"]
    if clean != state["reported"] or bid != state["bid"]:
        disputed = game_events.result_disputed(
            results=clean,
            bid=bid if stated else game_events.UNSET,
            actor_id=user.pk,
            people=people.writer(game, author=user),
        )
        store.append(game, game.version, [disputed])
        return reads.result_state(game)
    confirmed = game_events.result_confirmed(actor_id=user.pk, people=people.writer(game))
    store.append(game, game.version, [confirmed])
    return records.finish_if_confirmed(game)


@transaction.atomic
def result_override(
    *,
    game: Game,
    by: AbstractUser,
    results: list[dict[str, Any]],
    bid: Any = UNSTATED,
    reason: str | None = None,
) -> dict[str, Any]:
    """The organiser settles a table's result; on a finished table it is a correction. An
    override that states no bid keeps the bid reported (one stating a bid replaces it); a
    ``reason`` (a forfeit's) is kept with it."""
    if game.mode != GameMode.RECORD:
        raise RuleViolation("only a table game's result can be overridden")
    clean = records.projected(
        records.parse_results(game_type(game.slug), results, records.seat_names(game))
    )
    bid = reads.result_state(game)["bid"] if bid is UNSTATED else _parse_bid(game, bid)
    correcting = game.status == GameStatus.FINISHED
    named = people.writer(game, author=by)
    if correcting:
        settled = game_events.result_corrected(
            results=clean, bid=bid, actor_id=by.pk, people=named, reason=reason
        )
    else:
        settled = game_events.result_overridden(
            results=clean, bid=bid, actor_id=by.pk, people=named, reason=reason
        )
    store.append(
        game,
        game.version,
        [
            settled,
            game_events.game_finished(
                result=clean, reason="forfeit" if reason else "organiser", people=named
            ),
        ],
        projection={"status": GameStatus.FINISHED, "result": clean},
    )
    announce(result_corrected if correcting else game_finished, game)
    return reads.result_state(game)


@transaction.atomic
def result_adjudicate(
    *, game: Game, by: AbstractUser, results: list[dict[str, Any]], reason: str
) -> dict[str, Any]:
    """The organiser ends a game played here (or logged move by move at a table) with a result
    they set (ResultAdjudicated, then GameFinished for reason "adjudicated"): a table that
    cannot finish otherwise. Its moves
    stand as played; replay and the offline check take the logged result as its end."""
    if game.mode == GameMode.RECORD:
        raise RuleViolation("a table's reported result is overridden, not adjudicated")
    if game.status != GameStatus.ACTIVE:
        raise RuleViolation("the game has finished")
    clean = records.projected(
        records.parse_results(game_type(game.slug), results, records.seat_names(game))
    )
    named = people.writer(game, author=by)
    store.append(
        game,
        game.version,
        [
            game_events.result_adjudicated(
                results=clean, reason=reason, actor_id=by.pk, people=named
            ),
            game_events.game_finished(result=clean, reason="adjudicated", people=named),
        ],
        projection={
            "status": GameStatus.FINISHED,
            "current_player": None,
            "result": clean,
            "deadline": None,
        },
    )
    announce(game_finished, game)
    return {"status": "final", "final": clean, "reason": reason}


def _check_open_table(game: Game, user) -> None:
    if game.mode != GameMode.RECORD:
        raise RuleViolation("this game is played in the service: it reports its own result")
    if not game.seats.filter(user=user).exists():
        raise NotYourSeat("only a player at this table may report or confirm its result")
    if game.status != GameStatus.ACTIVE:
        raise RuleViolation("the result is final; the organiser may correct it")


def _parse_bid(game: Game, bid: Any) -> dict | None:
    return records.check_bid(game.slug, records.seat_names(game), bid)
