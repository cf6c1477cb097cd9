"""Reading a game as one person may: their seats, a seat's view, the legal actions, the log with
what they may not see redacted. A table log's seats are seen by its scorekeeper alone while it
runs (games.tablelog); every other game's by the person who holds them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser

from core.errors import NotYourSeat
from games import eventschema, people, store
from games.models import Event, EventKind, Game, GameMode, GameStatus, Seat
from games.play import steps
from games.store import Head

User = get_user_model()


def seats_of(game: Game | Head, user) -> set[int]:
    """The seats ``user`` holds in ``game`` (a person may hold several at a hot-seat table)."""
    if isinstance(game, Head):
        return game.seats_of(user)
    if user is None or not user.is_authenticated:
        return set()
    return {s.index for s in game.seats.all() if s.user_id == user.pk and not s.bot}


def game_view(
    *, game: Game, user: AbstractUser, seat: int | str | None = None, at: int | str | None = None
) -> dict[str, Any]:
    """``view(seat)`` at the head or after event ``at``; only the seat's own user may ask."""
    if seat is not None:
        seat = steps.seat_number(game, seat)
        if game.mode == GameMode.LOG:
            require_seat_view(game, user)
        elif seat not in seats_of(game, user):
            raise NotYourSeat(f"you do not hold seat {seat} in this game")
    steps.require_moves(game)
    version = steps.version_number(game, at)
    state = store.load_state(game, at=version)
    return {**state.view(seat), "version": version}


def game_legal_actions(*, game: Game, user: AbstractUser, seat: int | str) -> list[dict[str, Any]]:
    seat = steps.seat_number(game, seat)
    if seat not in seats_of(game, user):
        raise NotYourSeat(f"you do not hold seat {seat} in this game")
    if (
        game.mode != GameMode.PLAY
        or game.status != GameStatus.ACTIVE
        or game.current_player != seat
    ):
        return []
    return store.load_state(game).legal_actions()


def game_events(
    *, game: Game, user: AbstractUser, after: int | str | None = None
) -> list[dict[str, Any]]:
    """The log after version ``after`` as ``user`` may see it, up to the version of ``game``
    as read: a move committed since that read is not shown with the older head or redacted
    by the older status (a stream would send it as not yet the head and then drop the move's
    own message as sent: games.live.streams); the next read has it."""
    after = 0 if after is None else steps.version_number(game, after, allow_zero=True)
    rows = Event.objects.filter(game=game, seq__gt=after, seq__lte=game.version).order_by("seq")
    return events_as_seen(game=game, user=user, events=rows)


def events_as_seen(*, game: Game, user: AbstractUser, events) -> list[dict[str, Any]]:
    """Events as ``user`` may see them: private outcomes redacted for the other seats."""
    return events_seen_from(game=game, seats=seats_seen_by(game, user), events=events)


def seats_seen_by(game: Game | Head, user) -> set[int]:
    """The seats whose private data ``user`` sees: their own, or in a table log all of them
    for the scorekeeper and none for anyone else (games.tablelog.services)."""
    return seats_seen(game, user) if game.mode == GameMode.LOG else seats_of(game, user)


def events_seen_from(*, game: Game | Head, seats: set[int], events) -> list[dict[str, Any]]:
    """Events as a reader holding ``seats`` may see them (one redaction serves every reader
    holding the same seats: games.live.streams renders a message once for all its spectators)."""
    # Recorded games hold no private data; a played game shows all once over, if its rules say;
    # a table log too, since the table has shown everything by its end.
    public_end = game.status == GameStatus.FINISHED and (
        game.mode in (GameMode.RECORD, GameMode.LOG) or store.rules_of(game).spec.reveal_at_end
    )
    events = list(events)
    names = _actor_names(game, {e.actor_id for e in events if e.actor_id})
    # A log names people by id: a reader sees their names (and their notes), as they are now.
    old = people.Reader(game.seats if isinstance(game, Head) else game.seats.all())
    data = [
        old.current(e.kind, store.visible_data(e, seats, public_end), e.actor_id)
        if e.kind in eventschema.PEOPLE
        else store.visible_data(e, seats, public_end)
        for e in events
    ]
    shown = people.Shown((e.kind, d) for e, d in zip(events, data) if e.kind in eventschema.PEOPLE)
    return [
        {
            "seq": e.seq,
            "kind": e.kind,
            "seat": e.seat,
            "actor": names.get(e.actor_id),
            "data": shown(e.kind, d),
            "created_at": e.created_at.isoformat(),
        }
        for e, d in zip(events, data)
    ]


def _actor_names(game: Game | Head, actors: set[int]) -> dict[int, str]:
    """Usernames of the actors, from the seats where they sit (no query), else the users."""
    seats = game.seats if isinstance(game, Head) else game.seats.all()
    names = {
        s.user_id: s.user.username if isinstance(s, Seat) else s.name
        for s in seats
        if s.user_id in actors
    }
    missing = actors - set(names)
    if missing:
        names.update(User.objects.filter(pk__in=missing).values_list("pk", "username"))
    return names


def scorekeeper_id(game: Game | Head) -> int | None:
    return game.scorekeeper_id  # the row's, or the head's: no query either way


def is_scorekeeper(game: Game | Head, user) -> bool:
    return bool(user is not None and user.is_authenticated and scorekeeper_id(game) == user.pk)


def require_seat_view(game: Game, user) -> None:
    """A seat's own view of a running table log is the scorekeeper's alone."""
    if game.status == GameStatus.ACTIVE and not is_scorekeeper(game, user):
        raise NotYourSeat(
            "while a table log runs, only its scorekeeper sees the seats' views; "
            "everyone else watches as a spectator"
        )


def seats_seen(game: Game | Head, user) -> set[int]:
    """The seats whose private entries ``user`` sees in the log: all of them for the
    scorekeeper, who entered them; none for anyone else while the game runs."""
    if is_scorekeeper(game, user):
        return set(range(game.num_players))
    return set()


# -- for the apps above: league's tournament tables ----------------------------------------------


def games_played(*, game_ids: list[int]) -> set[int]:
    """Those of ``game_ids`` in which a player has moved or a result has been reported: one
    query."""
    return set(
        Event.objects.filter(
            game_id__in=game_ids, kind__in=(EventKind.ACTION_APPLIED, EventKind.RESULT_REPORTED)
        )
        .values_list("game_id", flat=True)
        .distinct()
    )


def starting_bids(*, games: list[Game]) -> dict[int, tuple[int | None, int, bool]]:
    """Per game of ``games`` in which someone has made a starting bid: ``(seat, amount, over)``
    of the last bid so far, ``over`` once a move other than a bid or a pass has been made or
    the game is no longer active. At most two queries for any number of games."""
    last: dict[int, tuple[int | None, int]] = {}
    for game_id, seat, data in (
        Event.objects.filter(
            game__in=games, kind=EventKind.ACTION_APPLIED, data__action__type="bid"
        )
        .order_by("game_id", "seq")
        .values_list("game_id", "seat", "data")
    ):
        last[game_id] = (seat, data["action"]["amount"])
    # Bidding opens a game (before it only the deal, which is chance), so any other move
    # means the bid is over; a game that is over is past it anyway.
    active = {g.pk for g in games if g.pk in last and g.status == GameStatus.ACTIVE}
    moved_on = set(
        Event.objects.filter(game_id__in=active, kind=EventKind.ACTION_APPLIED)
        .exclude(data__action__type__in=["bid", "pass"])
        .values_list("game_id", flat=True)
        .distinct()
    )
    return {
        pk: (seat, amount, pk in moved_on or pk not in active)
        for pk, (seat, amount) in last.items()
    }


def events_of_kinds(
    *, game_ids: list[int], kinds: tuple[str, ...]
) -> list[tuple[int, str, dict[str, Any], int | None, int | None]]:
    """The events of ``kinds`` in ``game_ids`` as ``(game_id, kind, data, seat, actor_id)``,
    by game and in the order they were appended, each data in the newest shape of its kind
    (games.people.current_rows): one query, and one more if any is of an old shape."""
    return people.current_rows(
        list(
            Event.objects.filter(game_id__in=game_ids, kind__in=kinds)
            .order_by("game_id", "seq")
            .values_list("game_id", "kind", "data", "seat", "actor_id")
        )
    )
