"""Game services: every change to a game goes through here, atomically, as appended events.

Views parse input and map the errors below to HTTP statuses; Celery tasks fetch by id and call
these. The server plays the chance player: after every append it samples each pending chance
node and appends the outcome in the same transaction, so no client ever waits on CHANCE.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models import Prefetch
from django.dispatch import Signal
from django.http import Http404
from django.utils import timezone

from accounts.bots import BOT_PREFIX, bot_level, bot_user
from accounts.errors import (
    Conflict,
    InvalidInput,
    KeyReused,
    NotYourSeat,
    Refused,
    RuleViolation,
    UnknownName,
)
from games import clocks, inputs, logs, store
from games.bots import get_bot
from games.catalog import game_name, game_types
from games.models import Event, EventKind, Game, GameMode, GameStatus, Seat
from games.rules import CHANCE, IllegalAction, get_rules
from games.rules.base import State, ranks_from_keys
from games.signals import consent_changed, game_finished
from games.store import AppendResult, Head, NewEvent, VersionConflict

User = get_user_model()
log = logging.getLogger(__name__)

# The chance player's dice. Never seeded, never stored: no seat can learn it.
chance_rng: random.Random = random.SystemRandom()


# -- seats ----------------------------------------------------------------------------------------


def seats_of(game: Game | Head, user) -> set[int]:
    """The seats ``user`` holds in ``game`` (a person may hold several at a hot-seat table)."""
    if isinstance(game, Head):
        return game.seats_of(user)
    if user is None or not user.is_authenticated:
        return set()
    return {s.index for s in game.seats.all() if s.user_id == user.pk and not s.bot}


def _head(game: Game | int, version: int | None = None) -> tuple[Head, State]:
    """The game at ``version`` if this process has it committed (no query at all), else its
    current head from the database (one query) and its state. 404 for no such game, 422 for
    a game played on a table (it has results, not moves)."""
    game_id = game if isinstance(game, int) else game.pk
    db = DEFAULT_DB_ALIAS if isinstance(game, int) else store.where(game)
    if version is not None:
        hit = store.state_cache.get(db, game_id, version)
        if hit is not None:
            return hit
    head = store.load_head(game_id, db)
    if head is None:
        raise Http404("no such game")
    _require_moves(head)
    return head, store.load_state(head)


# -- creating a game ------------------------------------------------------------------------------


@transaction.atomic
def game_create(
    *,
    slug: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None,
    created_by,
    time_control: Any = None,
    seated: bool = False,
    rematch_of: Game | None = None,
) -> Game:
    """Create a game: the GameCreated event, any opening chance, and the seats.

    ``time_control`` is ``{"move_seconds": n}`` or ``{"bank_seconds": n, "increment_seconds":
    m}``, with ``"on_timeout": "random" | "forfeit"``, or None (games.clocks). The people
    seated, other than the creator, are invited: each takes the seat by accepting or by
    moving, and no clock runs until everyone has. A seat ``{"open": true}`` is left for anyone
    to take (games.lobby). ``seated`` seats everyone at once (tournament entrants accepted by
    entering). ``rematch_of`` is the finished game this one is the rematch of (games.lobby)."""
    rules, options = game_setup(slug, seats, options)
    seat_users = [_seat_user(i, s) for i, s in enumerate(seats)]
    clock = parse_time_control(time_control)

    game = Game.objects.create(
        slug=slug,
        rules_version=rules.spec.version,
        options=options,
        num_players=len(seats),
        created_by=created_by,
        rematch_of=rematch_of,
        **clock,
    )
    accepted = [
        user is not None and (bool(bot) or seated or user.pk == getattr(created_by, "pk", None))
        for user, bot in seat_users
    ]
    Seat.objects.bulk_create(
        [
            Seat(game=game, index=i, user=user, bot=bot, accepted=taken)
            for i, ((user, bot), taken) in enumerate(zip(seat_users, accepted))
        ]
    )
    state = store.new_state(game)
    created = NewEvent(
        EventKind.GAME_CREATED,
        {
            "game": slug,
            "rules_version": rules.spec.version,
            "num_players": len(seats),
            "options": options,
            "seats": [_created_seat(user, bot) for user, bot in seat_users],
            "time_control": clocks.time_control_of(game),
            "accepted": [i for i, taken in enumerate(accepted) if taken],
            **({"rematch_of": rematch_of.pk} if rematch_of is not None else {}),
        },
        actor_id=getattr(created_by, "pk", None),
    )
    events = [created, *_resolve_chance(state)]
    seated_game = Game.objects.prefetch_related(
        Prefetch("seats", Seat.objects.select_related("user"))
    ).get(pk=game.pk)
    # The people invited hear of it from the write itself (games.push: invitation_sent).
    _append_and_project(store.head_of(seated_game), 0, events, state, game=game)
    return game


def game_setup(slug: str, seats: Any, options: dict[str, Any] | None):
    """The rule module of ``slug`` and ``options`` checked for as many players as ``seats``
    (a non-empty list), or InvalidInput saying what is wrong."""
    try:
        rules = get_rules(slug)
    except KeyError as exc:
        if slug in game_types():  # a game Hadal records but does not play (Oceans)
            raise Refused(
                f"{game_name(slug)} is recorded from tables only: POST /api/matches/"
            ) from None
        raise InvalidInput(str(exc.args[0])) from None
    if not isinstance(seats, list) or not seats:
        raise InvalidInput("seats must be a non-empty list")
    try:
        return rules, rules.spec.validate(len(seats), options)
    except ValueError as exc:  # the game's own players and options: the rules refuse
        raise Refused(str(exc)) from None


parse_time_control = clocks.parse_time_control


def _created_seat(user, bot: str) -> dict[str, Any]:
    if user is None:
        return {"user": None, "bot": None, "open": True}
    return {"user": user.username, "bot": bot or None}


def game_timeout(*, game_id: int, seat: int, version: int) -> AppendResult | None:
    """A person's clock ran out at ``version``: the random bot moves for them, or they
    forfeit (a resignation). Anything stale, or a clock not yet run out, does nothing."""
    head = store.load_head(game_id)
    if (
        head is None
        or head.deadline is None
        or head.status != GameStatus.ACTIVE
        or head.version != version
        or head.current_player != seat
        or timezone.now() < head.deadline
    ):
        return None
    if head.seats[seat].bot or head.seats[seat].resigned or not head.everyone_seated():
        return None
    key = server_key("timeout", seat, version)
    state = store.load_state(head)
    try:
        if head.on_timeout == "forfeit":
            return _resign(head, state, seat, actor_id=None, reason="timeout", idempotency_key=key)[
                0
            ]
        action = get_bot("random").choose(state, seat, random.Random(chance_rng.random()))
        return _append_decision(
            head=head,
            state=state,
            seat=seat,
            expected_version=version,
            action=action,
            actor_id=None,
            idempotency_key=key,
            timeout=True,
        )
    except VersionConflict:
        return None


def _seat_user(index: int, seat: Any):
    if seat == {"open": True}:
        return None, ""
    if isinstance(seat, dict) and set(seat) == {"guest"}:
        raise Refused(f'seat {index}: a guest sits at a table log only ("mode": "log")')
    if not isinstance(seat, dict) or len(seat) != 1 or not ({"user", "bot"} & seat.keys()):
        raise InvalidInput(
            f'seat {index} must be {{"user": name}}, {{"bot": level}} or {{"open": true}}'
        )
    if "bot" in seat:
        chosen = inputs.text(seat["bot"], f"seat {index}: the bot level", 20)
        return bot_user(chosen), chosen
    name = inputs.text(seat["user"], f"seat {index}: the user", 150)
    level = bot_level(name)
    if level is not None:  # a named bot player, e.g. a tournament entrant
        return bot_user(level, name, create=False), level
    user = User.objects.filter(username=name, is_active=True).first()
    if user is None or name.startswith(BOT_PREFIX):
        raise UnknownName(f"seat {index}: no user {name!r}")
    return user, ""


# -- acting ---------------------------------------------------------------------------------------


def game_action_append(
    *,
    game: Game | int,
    seat: int | str,
    expected_version: int,
    action: dict[str, Any],
    user: AbstractUser,
    idempotency_key: str | None = None,
) -> AppendResult:
    """A seated user's action. 403 not their seat, 409 stale version, 422 illegal action.

    The hot path of the service: with the version the client expects committed in this
    process, it reads nothing from the database; the write checks the version itself."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise InvalidInput("expected_version must be a whole number")
    head, state = _head(game, expected_version)
    if head.mode == GameMode.LOG or seat == logs.CHANCE_SEAT:
        appended, new = logs.log_entry_append(
            head=head,
            state=state,
            seat=seat,
            expected_version=expected_version,
            action=action,
            user=user,
            idempotency_key=client_key(idempotency_key),
        )
        _update_row(game, new)
        return appended
    seat = _seat_number(head, seat)
    if seat not in head.seats_of(user):
        raise NotYourSeat(f"you do not hold seat {seat} in this game")
    appended, new = _append_decision(
        head=head,
        state=state,
        seat=seat,
        expected_version=expected_version,
        action=action,
        actor_id=user.pk,
        idempotency_key=client_key(idempotency_key),
        with_head=True,
    )
    _update_row(game, new)
    return appended


def _append_decision(
    *,
    head: Head,
    state: State,
    seat: int,
    expected_version: int,
    action: Any,
    actor_id: int | None,
    idempotency_key: str | None,
    timeout: bool = False,
    with_head: bool = False,
):
    """A decision by ``seat``: checked by the rules, applied, the chance that follows played,
    all appended. A keyed request that cannot go through is checked against the key's log
    first: a retry gets its first result, not an error about what happened since."""
    request = (EventKind.ACTION_APPLIED, seat, action)
    try:
        _require_play_mode(head)
        if head.version != expected_version:
            raise VersionConflict(expected_version, head.version)
        if head.status != GameStatus.ACTIVE:
            raise RuleViolation("the game is over")
        if has_open_seats(head.seats):
            raise Conflict("the game starts once every open seat is taken")
        if state.current_player != seat:
            raise RuleViolation(
                f"it is not seat {seat}'s turn; seat {state.current_player} is to act"
            )
        try:
            action = state.canonical(action)
        except IllegalAction as exc:
            raise RuleViolation(str(exc)) from None
        data = _action_data(state, action)
        if timeout:
            data["timeout"] = True  # played by the random bot when the seat's clock ran out
        state.apply(action)
        events = [
            NewEvent(EventKind.ACTION_APPLIED, data, seat=seat, actor_id=actor_id),
            *_resolve_chance(state),
        ]
        first_move = not head.seats[seat].accepted and not timeout  # a first move takes the seat
        appended, new = _append_and_project(
            head,
            expected_version,
            events,
            state,
            idempotency_key=idempotency_key,
            request=request,
            seat_changes={seat: {"accepted": True}} if first_move else None,
        )
    except (VersionConflict, RuleViolation):
        earlier = _earlier_result(head, idempotency_key, request)
        if earlier is None:
            raise
        earlier.head = head
        appended, new = earlier, head
    return (appended, new) if with_head else appended


def _update_row(game: Game | int, head: Head) -> None:
    """A caller holding the Game row sees it at the new head, as after any write."""
    if isinstance(game, Game) and head.version >= game.version:
        for name in store.PROJECTED:
            setattr(game, name, getattr(head, name))


def game_resign(
    *, game: Game | int, seat: int | str, user: AbstractUser, idempotency_key: str | None = None
) -> AppendResult:
    """A seat resigns. Its turns go to the random bot; if one seat is left it wins by forfeit."""
    head, state = _head(game)
    seat = _seat_number(head, seat)
    if seat not in head.seats_of(user):
        raise NotYourSeat(f"you do not hold seat {seat} in this game")
    appended, new = _resign(
        head,
        state,
        seat,
        actor_id=user.pk,
        reason="resigned",
        idempotency_key=client_key(idempotency_key),
    )
    _update_row(game, new)
    return appended


def _resign(
    head: Head,
    state: State,
    seat: int,
    *,
    actor_id: int | None,
    reason: str,
    idempotency_key: str | None,
) -> tuple[AppendResult, Head]:
    request = (EventKind.SEAT_RESIGNED, seat, None)
    try:
        _require_play_mode(head)
        if head.status != GameStatus.ACTIVE:
            raise RuleViolation("the game is over")
        if head.seats[seat].resigned:
            raise RuleViolation(f"seat {seat} has already resigned")
        events = [
            NewEvent(EventKind.SEAT_RESIGNED, {"reason": reason}, seat=seat, actor_id=actor_id)
        ]
        return _append_and_project(
            head,
            head.version,
            events,
            state,
            idempotency_key=idempotency_key,
            request=request,
            seat_changes={seat: {"resigned": True}},
        )
    except (VersionConflict, RuleViolation):
        earlier = _earlier_result(head, idempotency_key, request)
        if earlier is None:
            raise
        return earlier, head


def has_open_seats(seats) -> bool:
    """Some seat is left for anyone to take (games.lobby): the game waits for it."""
    return any(s.user_id is None and not s.guest for s in seats)


def everyone_seated(seats) -> bool:
    """Every person has taken their seat: only then does a clock run."""
    return all(s.accepted or s.bot for s in seats)


def game_accept(*, game: Game | int, seat: int | str, user: AbstractUser) -> AppendResult:
    """The person invited to ``seat`` takes it; once everyone has, the clock starts. At a table
    log, the person seated agrees to it, while it is kept or after: its result may then be
    rated (games.logs)."""
    head, state, seat = _invited_seat(game, seat, user)
    events = [NewEvent(EventKind.SEAT_ACCEPTED, {}, seat=seat, actor_id=user.pk)]
    if head.mode == GameMode.LOG:
        return _log_seat_answered(game, head, events, accepted=True)
    appended, new = _append_and_project(
        head, head.version, events, state, seat_changes={seat: {"accepted": True}}
    )
    _update_row(game, new)
    return appended


def game_decline(*, game: Game | int, seat: int | str, user: AbstractUser) -> AppendResult:
    """The person invited to ``seat`` refuses it: the game is called off, nothing is rated. At
    a table log, the person seated refuses it: the log goes on (its scorekeeper keeps it), and
    it is never rated."""
    head, _, seat = _invited_seat(game, seat, user)
    if head.mode == GameMode.LOG:
        declined = [NewEvent(EventKind.SEAT_DECLINED, {}, seat=seat, actor_id=user.pk)]
        return _log_seat_answered(game, head, declined, accepted=False)
    appended, new = store.write(
        head,
        head.version,
        [
            NewEvent(EventKind.SEAT_DECLINED, {}, seat=seat, actor_id=user.pk),
            NewEvent(EventKind.GAME_VOIDED, {"reason": "declined"}),
        ],
        projection={"status": GameStatus.VOID, "current_player": None, "deadline": None},
    )
    _update_row(game, new)
    return appended


def _log_seat_answered(
    game: Game | int, head: Head, events: list[NewEvent], *, accepted: bool
) -> AppendResult:
    """A table log's seat accepted or declined: the event and, for a yes, the seat taken; the
    log itself is untouched (no state, no projection: it may be over already)."""
    seat = events[0].seat
    assert seat is not None
    appended, new = store.write(
        head,
        head.version,
        events,
        seat_changes={seat: {"accepted": True}} if accepted else None,
    )
    _update_row(game, new)
    if new.status == GameStatus.FINISHED:
        announce(consent_changed, new)  # the ratings may take it in now, or never
    return appended


def _invited_seat(game: Game | int, seat: Any, user) -> tuple[Head, State, int]:
    head, state = _head(game)
    seat = _seat_number(head, seat)
    if seat not in head.seats_of(user):
        raise NotYourSeat(f"you do not hold seat {seat} in this game")
    if head.mode == GameMode.LOG:
        logs.require_unanswered(head, seat)
        return head, state, seat
    _require_play_mode(head)
    if head.status != GameStatus.ACTIVE:
        raise Conflict(
            "the game is over" if head.status == GameStatus.FINISHED else "the game was called off"
        )
    if head.seats[seat].accepted:
        raise Conflict("you have already taken this seat; to leave the game, resign")
    return head, state, seat


def game_bot_move(*, game_id: int, seat: int, version: int) -> AppendResult | None:
    """Play a bot's (or a resigned seat's) move at ``version``; anything stale does nothing."""
    head = store.load_head(game_id)
    if (
        head is None
        or head.status != GameStatus.ACTIVE
        or head.version != version
        or head.current_player != seat
    ):
        return None
    seat_row = head.seats[seat]
    if not (seat_row.bot or seat_row.resigned) or has_open_seats(head.seats):
        return None
    state = store.load_state(head)
    level = seat_row.bot if seat_row.bot and not seat_row.resigned else "random"
    bot = get_bot(level, **settings.HADAL_BOT_BUDGETS.get(level, {}))
    action = bot.choose(state.clone(), seat, random.Random(chance_rng.random()))
    try:
        return _append_decision(
            head=head,
            state=state,
            seat=seat,
            expected_version=version,
            action=action,
            actor_id=seat_row.user_id,
            idempotency_key=server_key("bot", seat, version),
        )
    except VersionConflict:
        return None


# -- reading --------------------------------------------------------------------------------------


def game_view(
    *, game: Game, user: AbstractUser, seat: int | str | None = None, at: int | str | None = None
) -> dict[str, Any]:
    """``view(seat)`` at the head or after event ``at``; only the seat's own user may ask."""
    if seat is not None:
        seat = _seat_number(game, seat)
        if game.mode == GameMode.LOG:
            logs.require_seat_view(game, user)
        elif seat not in seats_of(game, user):
            raise NotYourSeat(f"you do not hold seat {seat} in this game")
    _require_moves(game)
    version = _version_number(game, at)
    state = store.load_state(game, at=version)
    return {**state.view(seat), "version": version}


def game_legal_actions(*, game: Game, user: AbstractUser, seat: int | str) -> list[dict[str, Any]]:
    seat = _seat_number(game, seat)
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
    own message as sent: games.streams); the next read has it."""
    after = 0 if after is None else _version_number(game, after, allow_zero=True)
    rows = Event.objects.filter(game=game, seq__gt=after, seq__lte=game.version).order_by("seq")
    return events_as_seen(game=game, user=user, events=rows)


def events_as_seen(*, game: Game, user: AbstractUser, events) -> list[dict[str, Any]]:
    """Events as ``user`` may see them: private outcomes redacted for the other seats."""
    return events_seen_from(game=game, seats=seats_seen_by(game, user), events=events)


def seats_seen_by(game: Game | Head, user) -> set[int]:
    """The seats whose private data ``user`` sees: their own, or in a table log all of them
    for the scorekeeper and none for anyone else (games.logs)."""
    return logs.seats_seen(game, user) if game.mode == GameMode.LOG else seats_of(game, user)


def events_seen_from(*, game: Game | Head, seats: set[int], events) -> list[dict[str, Any]]:
    """Events as a reader holding ``seats`` may see them (one redaction serves every reader
    holding the same seats: games.streams renders a message once for all its spectators)."""
    # Recorded games hold no private data; a played game shows all once over, if its rules say;
    # a table log too, since the table has shown everything by its end.
    public_end = game.status == GameStatus.FINISHED and (
        game.mode in (GameMode.RECORD, GameMode.LOG) or get_rules(game.slug).spec.reveal_at_end
    )
    events = list(events)
    names = _actor_names(game, {e.actor_id for e in events if e.actor_id})
    return [
        {
            "seq": e.seq,
            "kind": e.kind,
            "seat": e.seat,
            "actor": names.get(e.actor_id),
            "data": store.visible_data(e, seats, public_end),
            "created_at": e.created_at.isoformat(),
        }
        for e in events
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


# -- helpers --------------------------------------------------------------------------------------


def _require_play_mode(game: Game | Head) -> None:
    """Only a game played here takes a seat's own moves, resignations, acceptances."""
    if game.mode == GameMode.LOG:
        raise RuleViolation("this game is a table log: its scorekeeper enters every move")
    _require_moves(game)


def _require_moves(game: Game | Head) -> None:
    """A game with a rule state: played here, or logged move by move at a table."""
    if game.mode not in (GameMode.PLAY, GameMode.LOG):
        raise RuleViolation("this game was played on a table: it has results, not moves")


# Idempotency keys. A client's key is stored as "client:<key>", the server's own (a bot's move,
# a clock running out) as "<what>:<seat>:<version>", so no client can take a key the server
# will use. A key names one request: reused for another, it is refused.
CLIENT_KEY_PREFIX = "client:"
Request = tuple[str, int | None, Any]  # (event kind, seat or None for chance, action or None)


def client_key(key: Any) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not 0 < len(key) <= 100:
        raise InvalidInput("idempotency_key must be a string of 1 to 100 characters")
    return CLIENT_KEY_PREFIX + key


def server_key(what: str, seat: int, version: int) -> str:
    return f"{what}:{seat}:{version}"


def _earlier_result(
    game: Game | Head, idempotency_key: str | None, request: Request
) -> AppendResult | None:
    """A key seen before short-cuts to its first result: a retry must get that result, not a
    conflict with the version the game has moved on to."""
    if idempotency_key is None:
        return None
    earlier = store.batch_for_key(game, idempotency_key)
    return None if earlier is None else _same_request(earlier, request)


def _same_request(earlier: AppendResult, request: Request) -> AppendResult:
    kind, seat, action = request
    first = earlier.events[0]
    if (
        first.kind != kind
        or first.seat != seat
        or (action is not None and first.data.get("action") != action)
    ):
        raise KeyReused("this idempotency_key was used for a different request")
    return earlier


def _seat_number(game: Game | Head, seat: Any) -> int:
    return inputs.seat(seat, game.num_players)


def _version_number(game: Game, at: Any, *, allow_zero: bool = False) -> int:
    if at is None:
        return game.version
    return inputs.version(at, game.version, 0 if allow_zero else 1)


def _action_data(state: State, action: Any) -> dict[str, Any]:
    """An event's data: the action, and its public form if only some seats may see it."""
    private = state.private_to(action)
    if private is None:
        return {"action": action}
    return {"action": action, "private_to": sorted(private), "public": state.public_form(action)}


def _resolve_chance(state: State) -> list[NewEvent]:
    events = []
    while state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        outcome = chance_rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        data = _action_data(state, outcome)
        state.apply(outcome)
        events.append(NewEvent(EventKind.CHANCE_RESOLVED, data))
    return events


def _final_result(state: State, seats) -> list[dict[str, Any]]:
    """The rules' result, with resigned seats ranked below everyone who played on."""
    result = state.result()
    keys = [(not s.resigned, -r["rank"]) for s, r in zip(seats, result)]
    return [
        {"player": s.username or s.guest, "score": r["score"], "rank": rank}
        for s, r, rank in zip(seats, result, ranks_from_keys(keys))
    ]


def _forfeit_result(seats) -> list[dict[str, Any]]:
    return [{"player": s.username, "score": None, "rank": 2 if s.resigned else 1} for s in seats]


def _append_and_project(
    head: Head,
    expected_version: int,
    events: list[NewEvent],
    state: State,
    *,
    idempotency_key: str | None = None,
    request: Request | None = None,
    seat_changes: dict[int, dict[str, Any]] | None = None,
    game: Game | None = None,
) -> tuple[AppendResult, Head]:
    """Append, finishing the game if the rules or resignations end it, project the head, and
    queue what follows once it has committed: the next bot's move, the clock, the news that
    the game is over. ``game``, the row of a game being created, is brought to the new head."""
    changes = seat_changes or {}
    seats = [replace(s, **changes[s.index]) if s.index in changes else s for s in head.seats]
    standing = [s for s in seats if not s.resigned]
    projection: dict[str, Any]
    if state.is_terminal():
        result = _final_result(state, seats)
        reason = "rules"
    elif len(standing) <= 1 and len(seats) > 1:
        result = _forfeit_result(seats)
        reason = "forfeit"
    else:
        result = None
    if result is not None:
        events = [*events, NewEvent(EventKind.GAME_FINISHED, {"result": result, "reason": reason})]
        projection = {"status": GameStatus.FINISHED, "current_player": None, "result": result}
    elif state.current_player != head.current_player:
        projection = {"current_player": state.current_player}
    else:
        projection = {}
    now = timezone.now()
    decision = events[0].seat if events[0].kind == EventKind.ACTION_APPLIED else None
    projection |= clocks.after_append(
        head,
        now=now,
        seats=seats,
        to_play=state.current_player,
        acted=decision,
        over=result is not None,
    )
    appended, new = store.write(
        head,
        expected_version,
        events,
        idempotency_key=idempotency_key,
        projection=projection,
        seat_changes=seat_changes,
        now=now,
    )
    if appended.replayed:
        # A request with the same key committed first: ours was never logged, so neither its
        # state (dice nobody rolled) nor its side effects may go anywhere.
        return (_same_request(appended, request) if request else appended), head
    if game is not None:
        _update_row(game, new)
    store.maybe_snapshot(new, state, head.version)
    store.remember_on_commit(new, state)
    if result is not None:
        announce(game_finished, new)
    else:
        schedule_next(new)
    return appended, new


def schedule_next(head: Head) -> None:
    """Once committed, what the game at ``head`` waits for: a bot's move, or the clock of the
    person to play checked when it runs out. Nothing while a seat is open (games.lobby)."""
    if head.status != GameStatus.ACTIVE or head.current_player is None:
        return
    if has_open_seats(head.seats):
        return
    game_id, seat, version = head.id, head.current_player, head.version
    actor = head.seats[seat]
    if actor.bot or actor.resigned:
        after_commit("move for the bot", lambda: enqueue_bot_move(game_id, seat, version))
    elif head.deadline is not None:
        seconds = (head.deadline - timezone.now()).total_seconds()
        after_commit("start the clock", lambda: enqueue_timeout(game_id, seat, version, seconds))


def after_commit(what: str, call: Callable[[], None]) -> None:
    """Run ``call`` once the transaction commits; if it fails (the broker is down, an eager
    task raises) log it and go on. The append has committed and the client must hear so; the
    beat sweeps (games.tasks, league.tasks) find what was left undone."""

    def run() -> None:
        try:
            call()
        except Exception:
            log.exception("after a commit, could not %s; the periodic sweep will catch up", what)

    transaction.on_commit(run)


def announce(signal: Signal, game: Game | Head) -> None:
    """Send ``signal`` for ``game`` once the transaction commits (games.signals); inside
    :func:`announcements_batched`, once for the whole batch."""
    game_id, slug = game.pk, game.slug
    batch = getattr(_announcing, "batch", None)
    if batch is not None:
        # Kept only if this game's own transaction (a savepoint, say) commits.
        transaction.on_commit(lambda: batch.setdefault((signal, slug), []).append(game_id))
        return
    after_commit(
        f"announce game {game_id}'s result",
        lambda: signal.send(sender=Game, game_id=game_id, slug=slug),
    )


_announcing = threading.local()


@contextmanager
def announcements_batched() -> Iterator[None]:
    """For a bulk writer (an import of thousands of records): once committed, each signal is
    sent once per game type rather than once per game, ``game_id`` the last game and
    ``game_ids`` all of them, so that a receiver acting per game type (the ratings) runs once.
    Use it inside the writer's transaction."""
    if getattr(_announcing, "batch", None) is not None:
        yield
        return
    batch: dict[tuple[Signal, str], list[int]] = {}
    _announcing.batch = batch
    try:
        yield
    finally:
        _announcing.batch = None

    def send() -> None:
        for (signal, slug), ids in batch.items():
            signal.send(sender=Game, game_id=ids[-1], slug=slug, game_ids=ids)

    after_commit("announce a batch of results", send)


def enqueue_timeout(game_id: int, seat: int, version: int, seconds: float) -> None:
    """Check the clock when it runs out. In eager mode there is no waiting: the sweep catches
    expired clocks instead, run by the beat or, with no beat, by games.sweeper's thread."""
    from games.tasks import move_timeout

    if not move_timeout.app.conf.task_always_eager:
        move_timeout.apply_async((game_id, seat, version), countdown=max(0.0, seconds) + 1)


# -- scheduling bots ------------------------------------------------------------------------------

_eager = threading.local()


def enqueue_bot_move(game_id: int, seat: int, version: int) -> None:
    """Enqueue a bot move. In eager mode, run bot moves one after another, not nested."""
    from games.tasks import bot_move  # tasks import services

    if not bot_move.app.conf.task_always_eager:
        bot_move.delay(game_id, seat, version)
        return
    queue = getattr(_eager, "queue", None)
    if queue is not None:
        queue.append((game_id, seat, version))
        return
    _eager.queue = [(game_id, seat, version)]
    try:
        while _eager.queue:
            bot_move.apply(args=_eager.queue.pop(0))
    finally:
        _eager.queue = None


# -- for the apps above: league's tournament tables ----------------------------------------------


@transaction.atomic
def game_void(*, game: Game, by: AbstractUser, reason: str) -> None:
    """Call ``game`` off (GameVoided, by ``by`` for ``reason``): it ends with no result and
    nobody moves again. A tournament calls off the tables of a round it pairs again."""
    store.append(
        game,
        game.version,
        [NewEvent(EventKind.GAME_VOIDED, {"reason": reason}, actor_id=by.pk)],
        projection={"status": GameStatus.VOID, "current_player": None},
    )


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
    by game and in the order they were appended: one query."""
    return list(
        Event.objects.filter(game_id__in=game_ids, kind__in=kinds)
        .order_by("game_id", "seq")
        .values_list("game_id", "kind", "data", "seat", "actor_id")
    )
