"""Game services: every change to a game goes through here, atomically, as appended events.

Views parse input and map the errors below to HTTP statuses; Celery tasks fetch by id and call
these. The server plays the chance player: after every append it samples each pending chance
node and appends the outcome in the same transaction, so no client ever waits on CHANCE.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from accounts.bots import BOT_PREFIX, bot_level, bot_user
from core import inputs
from core.errors import (
    Conflict,
    InvalidInput,
    NotYourSeat,
    Refused,
    RuleViolation,
    UnknownName,
)
from games import events as game_events
from games import people, store
from games.bots import get_bot
from games.catalog import game_name, game_types
from games.models import EventKind, Game, GameStatus, Seat
from games.play import away, clocks, steps
from games.rules import IllegalAction, get_rules
from games.rules.base import State
from games.store import AppendResult, Head, VersionConflict

User = get_user_model()
log = logging.getLogger(__name__)


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
    m}``, with ``"on_timeout": "random" | "forfeit"``, or None (games.play.clocks). The people
    seated, other than the creator, are invited: each takes the seat by accepting or by
    moving, and no clock runs until everyone has. A seat ``{"open": true}`` is left for anyone
    to take (games.play.lobby). ``seated`` seats everyone at once (tournament entrants accepted by
    entering). ``rematch_of`` is the finished game this one is the rematch of (games.play.lobby)."""
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
    new_seats = [
        Seat(game=game, index=i, user=user, bot=bot, accepted=taken)
        for i, ((user, bot), taken) in enumerate(zip(seat_users, accepted))
    ]
    Seat.objects.bulk_create(new_seats)
    state = store.new_state(game)
    created = game_events.game_created(
        game=slug,
        rules_version=rules.spec.version,
        num_players=len(seats),
        options=options,
        seats=[_created_seat(user, bot) for user, bot in seat_users],
        time_control=clocks.time_control_of(game),
        accepted=[i for i, taken in enumerate(accepted) if taken],
        rematch_of=rematch_of.pk if rematch_of is not None else None,
        actor_id=getattr(created_by, "pk", None),
        people=people.writer(seats=new_seats),
    )
    events = [created, *steps.resolve_chance(state)]
    seated_game = Game.objects.prefetch_related(
        Prefetch("seats", Seat.objects.select_related("user"))
    ).get(pk=game.pk)
    # The people invited hear of it from the write itself (games.live.push: invitation_sent).
    steps.append_and_project(store.head_of(seated_game), 0, events, state, game=game)
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
    forfeit (a resignation), or, where they opted in, a day of their vacation is taken
    instead (games.play.away; None). Anything stale, or a clock not yet run out, does
    nothing."""
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
    if away.away_instead_of_timeout(head, seat):  # a day away, where the member opted in
        return None
    key = steps.server_key("timeout", seat, version)
    state = store.load_state(head)
    try:
        if head.on_timeout == "forfeit":
            return _resign(head, state, seat, actor_id=None, reason="timeout", idempotency_key=key)[
                0
            ]
        action = get_bot("random").choose(state, seat, random.Random(steps.chance_rng.random()))
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
    process, it reads nothing from the database; the write checks the version itself. A table
    log's entries go to games.tablelog instead (games.api.play sends each where it belongs)."""
    head, state = steps.load_expected(game, expected_version)
    return move_append(
        game,
        head,
        state,
        seat=seat,
        expected_version=expected_version,
        action=action,
        user=user,
        idempotency_key=idempotency_key,
    )


def move_append(
    game: Game | int,
    head: Head,
    state: State,
    *,
    seat: int | str,
    expected_version: int,
    action: dict[str, Any],
    user: AbstractUser,
    idempotency_key: str | None = None,
    guard: store.Guard | None = None,
) -> AppendResult:
    """:func:`game_action_append` for a game already loaded (:func:`games.play.steps.load`)."""
    seat = steps.seat_number(head, seat)
    if seat not in head.seats_of(user):
        raise NotYourSeat(f"you do not hold seat {seat} in this game")
    appended, new = _append_decision(
        head=head,
        state=state,
        seat=seat,
        expected_version=expected_version,
        action=action,
        actor_id=user.pk,
        idempotency_key=steps.client_key(idempotency_key),
        with_head=True,
        guard=guard,
    )
    steps.update_row(game, new)
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
    guard: store.Guard | None = None,
):
    """A decision by ``seat``: checked by the rules, applied, the chance that follows played,
    all appended. A keyed request that cannot go through is checked against the key's log
    first: a retry gets its first result, not an error about what happened since."""
    request = (EventKind.ACTION_APPLIED, seat, action)
    try:
        steps.require_play_mode(head)
        if head.version != expected_version:
            raise VersionConflict(expected_version, head.version)
        if head.status != GameStatus.ACTIVE:
            raise RuleViolation("the game is over")
        if steps.has_open_seats(head.seats):
            raise Conflict("the game starts once every open seat is taken")
        if state.current_player != seat:
            raise RuleViolation(
                f"it is not seat {seat}'s turn; seat {state.current_player} is to act"
            )
        try:
            action = state.canonical(action)
        except IllegalAction as exc:
            raise RuleViolation(str(exc)) from None
        data = steps.action_data(state, action)
        state.apply(action)
        events = [
            game_events.action_applied(**data, seat=seat, actor_id=actor_id, timeout=timeout),
            *steps.resolve_chance(state),
        ]
        first_move = not head.seats[seat].accepted and not timeout  # a first move takes the seat
        appended, new = steps.append_and_project(
            head,
            expected_version,
            events,
            state,
            idempotency_key=idempotency_key,
            request=request,
            seat_changes={seat: {"accepted": True}} if first_move else None,
            guard=guard,
        )
    except (VersionConflict, RuleViolation):
        earlier = steps.earlier_result(head, idempotency_key, request)
        if earlier is None:
            raise
        earlier.head = head
        appended, new = earlier, head
    return (appended, new) if with_head else appended


def game_resign(
    *, game: Game | int, seat: int | str, user: AbstractUser, idempotency_key: str | None = None
) -> AppendResult:
    """A seat resigns. Its turns go to the random bot; if one seat is left it wins by forfeit."""
    head, state = steps.load(game)
    seat = steps.seat_number(head, seat)
    if seat not in head.seats_of(user):
        raise NotYourSeat(f"you do not hold seat {seat} in this game")
    appended, new = _resign(
        head,
        state,
        seat,
        actor_id=user.pk,
        reason="resigned",
        idempotency_key=steps.client_key(idempotency_key),
    )
    steps.update_row(game, new)
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
        steps.require_play_mode(head)
        if head.status != GameStatus.ACTIVE:
            raise RuleViolation("the game is over")
        if head.seats[seat].resigned:
            raise RuleViolation(f"seat {seat} has already resigned")
        events = [game_events.seat_resigned(seat=seat, reason=reason, actor_id=actor_id)]
        return steps.append_and_project(
            head,
            head.version,
            events,
            state,
            idempotency_key=idempotency_key,
            request=request,
            seat_changes={seat: {"resigned": True}},
        )
    except (VersionConflict, RuleViolation):
        earlier = steps.earlier_result(head, idempotency_key, request)
        if earlier is None:
            raise
        return earlier, head


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
    if not (seat_row.bot or seat_row.resigned) or steps.has_open_seats(head.seats):
        return None
    state = store.load_state(head)
    level = seat_row.bot if seat_row.bot and not seat_row.resigned else "random"
    bot = get_bot(level, **settings.HADAL_BOT_BUDGETS.get(level, {}))
    action = bot.choose(state.clone(), seat, random.Random(steps.chance_rng.random()))
    try:
        return _append_decision(
            head=head,
            state=state,
            seat=seat,
            expected_version=version,
            action=action,
            actor_id=seat_row.user_id,
            idempotency_key=steps.server_key("bot", seat, version),
        )
    except VersionConflict:
        return None


# -- for the apps above: league's tournament tables ----------------------------------------------


@transaction.atomic
def game_seat_forfeit(*, game: Game, seat: int, by: AbstractUser, reason: str) -> AppendResult:
    """An organiser ends an absent player's part: ``seat`` resigns (SeatResigned, its actor
    ``by``, for ``reason``). As at any resignation, the last seat standing wins by forfeit,
    and at a larger table the resigned seat's turns go to the random bot. The caller (a
    tournament) has checked that ``by`` may."""
    head, state = steps.load(game)
    appended, new = _resign(head, state, seat, actor_id=by.pk, reason=reason, idempotency_key=None)
    steps.update_row(game, new)
    return appended


@transaction.atomic
def game_void(*, game: Game, by: AbstractUser, reason: str) -> None:
    """Call ``game`` off (GameVoided, by ``by`` for ``reason``): it ends with no result and
    nobody moves again. A tournament calls off the tables of a round it pairs again."""
    store.append(
        game,
        game.version,
        [game_events.game_voided(reason=reason, actor_id=by.pk)],
        projection={"status": GameStatus.VOID, "current_player": None},
    )
