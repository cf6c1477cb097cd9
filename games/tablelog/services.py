"""Table logs: a game played on a physical table, entered move by move by one scorekeeper.

A table log is a game in mode ``log``. Its scorekeeper (a seated player, or an organiser)
enters every decision (``seat`` N, as a player would post it) and every chance outcome
(``seat`` "chance": the dice rolled, the hex, card or tile turned up), each checked by the rule
module like any move; the server never samples chance here. Nothing else moves a table log:
no bots, no clocks, no resignations.

"Undo the last entry" is an event (``EntryUndone``, naming the entry's seq), never an edit: the
store's replay skips the entries taken back (games.store.undone). Only the log's tail can be
taken back, one entry at a time, and never once the game is over (its result is rated).

While the game runs, the scorekeeper sees everything (they entered it); everyone else, seated
or not, sees the spectator view and the log redacted as for a spectator. Once over, the whole
log is public.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.db.models import Prefetch, Q
from django.http import Http404

from accounts.bots import BOT_PREFIX, bots, is_bot_account
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
from games.models import Event, EventKind, Game, GameMode, GameStatus, Seat
from games.play import reads, services, steps
from games.rules import CHANCE, IllegalAction, get_rules
from games.rules.base import State
from games.store import AppendResult, Guard, Head, VersionConflict

User = get_user_model()

CHANCE_SEAT = "chance"
ENTRIES = (EventKind.ACTION_APPLIED, EventKind.CHANCE_RESOLVED)
# How many outcomes an error lists before it says how many more there are.
LISTED = 12


# -- creating one ---------------------------------------------------------------------------------


@transaction.atomic
def log_create(
    *,
    slug: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None,
    scorekeeper: Any,
    created_by: AbstractUser,
) -> Game:
    """A new table log. Seats are people at the table, ``{"user": name}`` or ``{"guest":
    name}``; the scorekeeper is a user seated at it or the creator (an organiser). The members
    seated, other than the scorekeeper and the creator, have not agreed to it until they
    accept their seat; it is kept and finished meanwhile, and rated only once they have."""
    rules, options = services.game_setup(slug, seats, options)
    sitting = [_table_seat(i, s) for i, s in enumerate(seats)]
    keeper = _scorekeeper(scorekeeper, [u for u, _ in sitting if u is not None], created_by)
    game = Game.objects.create(
        slug=slug,
        mode=GameMode.LOG,
        rules_version=rules.spec.version,
        options=options,
        num_players=len(seats),
        created_by=created_by,
        scorekeeper=keeper,
    )
    # Whoever keeps the log or sets it up agrees to it by doing so; every other member seated
    # accepts their seat (games.play.seating.game_accept) before it may be rated.
    accepted = [user is None or user.pk in (keeper.pk, created_by.pk) for user, _ in sitting]
    new_seats = [
        Seat(game=game, index=i, user=user, guest=guest, accepted=taken)
        for i, ((user, guest), taken) in enumerate(zip(sitting, accepted))
    ]
    Seat.objects.bulk_create(new_seats)
    state = store.new_state(game)
    created = game_events.game_created(
        game=slug,
        mode=GameMode.LOG,
        rules_version=rules.spec.version,
        num_players=len(seats),
        options=options,
        seats=[{"user": u.username} if u else {"guest": g} for u, g in sitting],
        scorekeeper=keeper.username,
        accepted=[i for i, taken in enumerate(accepted) if taken],
        actor_id=created_by.pk,
        people=people.writer(seats=new_seats),
    )
    seated = Game.objects.prefetch_related(
        Prefetch("seats", Seat.objects.select_related("user"))
    ).get(pk=game.pk)
    steps.append_and_project(store.head_of(seated), 0, [created], state, game=game)
    return game


def _table_seat(index: int, seat: Any) -> tuple[AbstractUser | None, str]:
    if isinstance(seat, dict) and "bot" in seat:
        raise Refused(f"seat {index}: bots do not play at a table; seat a user or a guest")
    if seat == {"open": True}:
        raise Refused(f"seat {index}: a table log has no open seats; seat a user or a guest")
    if not isinstance(seat, dict) or len(seat) != 1 or not ({"user", "guest"} & seat.keys()):
        raise InvalidInput(f'seat {index} must be {{"user": name}} or {{"guest": name}}')
    if "guest" in seat:
        return None, inputs.text(seat["guest"], f"seat {index}: the guest's name", 60)
    name = inputs.text(seat["user"], f"seat {index}: the user", 150)
    user = User.objects.filter(username=name, is_active=True).first()
    if user is None or name.startswith(BOT_PREFIX):
        raise UnknownName(f"seat {index}: no user {name!r}")
    if is_bot_account(user):
        raise Refused(f"seat {index}: {name} is a bot account, and bots do not play at a table")
    return user, ""


def _scorekeeper(name: Any, seated: list[AbstractUser], created_by: AbstractUser) -> AbstractUser:
    if name is None:
        raise Refused("a table log needs a scorekeeper: the user who enters its moves")
    name = inputs.text(name, "scorekeeper", 150)
    for user in [*seated, created_by]:
        if user.username == name:
            return user
    raise Refused(
        f"the scorekeeper must be a user seated at the table or you (an organiser), not {name!r}"
    )


@transaction.atomic
def table_log_start(*, game: Game, by: AbstractUser, organiser: bool = False) -> Game:
    """A tournament table (an open recorded game) played as a table log instead, kept by
    ``by``: a player seated there, or an organiser (``organiser``, as the league decides).
    Its result then comes from the rules and needs no confirmation."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.mode != GameMode.RECORD or game.status != GameStatus.ACTIVE:
        raise Conflict("only a table still waiting for its result can be played as a table log")
    if game.events.exclude(kind=EventKind.GAME_CREATED).exists():
        raise Conflict("a result has been reported at this table: confirm or dispute it instead")
    if not organiser and not game.seats.filter(user=by, bot="").exists():
        raise NotYourSeat("only a player at this table or an organiser may keep its log")
    if game.seats.filter(Q(bot__gt="") | bots("user__")).exists():
        raise Conflict("a bot sits at this table, and bots do not play at a table log")
    try:
        rules = get_rules(game.slug)  # the newest: the log starts now
        rules.spec.validate(game.num_players, game.options)
    except (KeyError, ValueError) as exc:
        raise Refused(f"this game cannot be logged move by move: {exc}") from None
    head = store.load_head(game.pk)
    assert head is not None  # the row is locked and has seats
    state = rules.new_game(num_players=game.num_players, options=game.options)
    started = game_events.log_started(
        scorekeeper=by.username,
        rules_version=rules.spec.version,
        options=game.options,
        actor_id=by.pk,
        people=people.writer(game),
    )
    store.write(
        head,
        head.version,
        [started],
        projection={
            "mode": GameMode.LOG,
            "current_player": state.current_player,
            "scorekeeper_id": by.pk,  # on the head too, which redacts by it (seats_seen)
            "rules_version": rules.spec.version,
        },
    )
    game.refresh_from_db()
    return game


# -- entering moves -------------------------------------------------------------------------------


def takes(head: Head, seat: Any) -> bool:
    """An action for a table log, or a chance outcome (only a table log takes one: anywhere
    else it is refused here, with the reason)."""
    return head.mode == GameMode.LOG or seat == CHANCE_SEAT


def entry_append(
    game: Game | int,
    head: Head,
    state: State,
    *,
    seat: Any,
    expected_version: int,
    action: Any,
    user: AbstractUser,
    idempotency_key: str | None = None,
    guard: Guard | None = None,
) -> AppendResult:
    """One entry posted to the game's actions (games.api.play), the head already loaded;
    ``guard`` as for a move (games.play.services.move_append)."""
    appended, new = log_entry_append(
        head=head,
        state=state,
        seat=seat,
        expected_version=expected_version,
        action=action,
        user=user,
        idempotency_key=steps.client_key(idempotency_key),
        guard=guard,
    )
    steps.update_row(game, new)
    return appended


def log_entry_append(
    *,
    head: Head,
    state: State,
    seat: Any,
    expected_version: int,
    action: Any,
    user: AbstractUser,
    idempotency_key: str | None,
    guard: Guard | None = None,
) -> tuple[AppendResult, Head]:
    """One entry by the scorekeeper: a decision of ``seat`` N or a chance outcome (``seat``
    "chance"), checked by the rules; nothing is stored if anything is wrong."""
    if head.mode != GameMode.LOG:
        raise RuleViolation(
            "chance outcomes are entered only in a table log; in a game played here the "
            "server plays chance itself"
        )
    _require_scorekeeper(head, user)
    chance = seat == CHANCE_SEAT
    if not chance:
        try:
            seat = inputs.seat(seat, head.num_players)
        except (InvalidInput, RuleViolation) as exc:
            raise type(exc)(
                f'seat must be a seat from 0 to {head.num_players - 1}, or "chance" for a '
                f"chance outcome"
            ) from None
    kind = EventKind.CHANCE_RESOLVED if chance else EventKind.ACTION_APPLIED
    request = (kind, None if chance else seat, action)
    try:
        if head.version != expected_version:
            raise VersionConflict(expected_version, head.version)
        if head.status != GameStatus.ACTIVE:
            raise RuleViolation("the game is over")
        _require_due(head, state, seat)
        canonical = _checked(state, action, chance)
        data = steps.action_data(state, canonical)
        state.apply(canonical)
        event = (
            game_events.chance_resolved(**data, actor_id=user.pk)
            if chance
            else game_events.action_applied(**data, seat=seat, actor_id=user.pk)
        )
        return steps.append_and_project(
            head,
            expected_version,
            [event],
            state,
            idempotency_key=idempotency_key,
            request=request,
            guard=guard,
        )
    except (VersionConflict, RuleViolation):
        earlier = steps.earlier_result(head, idempotency_key, request)
        if earlier is None:
            raise
        earlier.head = head
        return earlier, head


def _require_due(head: Head, state: State, seat: int | str) -> None:
    """The entry is of the kind due now: a chance outcome at a chance node, else the decision
    of the seat to act."""
    to_act = state.current_player
    if to_act == CHANCE and seat != CHANCE_SEAT:
        raise RuleViolation(
            f"a chance outcome is due ({_outcome_kinds(state)}), not a decision: enter it "
            f'with "seat": "chance"'
        )
    if to_act != CHANCE and seat == CHANCE_SEAT:
        raise RuleViolation(
            f"no chance outcome is due: {_seat_words(head, to_act)} is to decide; enter it "
            f'with "seat": {to_act}'
        )
    if to_act != CHANCE and seat != to_act:
        raise RuleViolation(
            f"it is not seat {seat}'s turn: {_seat_words(head, to_act)} is to decide"
        )


def _checked(state: State, action: Any, chance: bool) -> dict[str, Any]:
    if not chance:
        try:
            return state.canonical(action)
        except IllegalAction as exc:
            raise RuleViolation(str(exc)) from None
    try:
        return state.canonical(action)
    except IllegalAction:
        outcomes = [outcome for outcome, _ in state.chance_outcomes()]
        shown = ", ".join(_compact(o) for o in outcomes[:LISTED])
        more = len(outcomes) - LISTED
        raise RuleViolation(
            f"{_compact(action)} is not among the chance outcomes possible now; expected one "
            f"of: {shown}" + (f" (and {more} more)" if more > 0 else "")
        ) from None


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False)


def _outcome_kinds(state: State) -> str:
    kinds = sorted({outcome["type"] for outcome, _ in state.chance_outcomes()})
    return ", ".join(f'"type": "{k}"' for k in kinds)


def _seat_words(head: Head, seat: int) -> str:
    return f"seat {seat} ({head.seats[seat].name})"


# -- undo -----------------------------------------------------------------------------------------


def log_undo(*, game: Game | int, expected_version: Any, user: AbstractUser) -> AppendResult:
    """Take back the last entry still standing, as an EntryUndone event. 409 on a stale
    version, when nothing is left to undo, or once the game is over."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise InvalidInput("expected_version must be a whole number")
    game_id = game if isinstance(game, int) else game.pk
    head = store.load_head(game_id)
    if head is None:
        raise Http404("no such game")
    if head.mode != GameMode.LOG:
        raise RuleViolation("only a table log has entries to take back")
    _require_scorekeeper(head, user)
    if head.version != expected_version:
        raise VersionConflict(expected_version, head.version)
    if head.status != GameStatus.ACTIVE:
        raise Conflict("the game is over: its result stands and its log can no longer change")
    rows = _entry_rows(head)
    skipped = store.undone(rows)
    standing = [(seq, kind) for seq, kind, _ in rows if kind in ENTRIES and seq not in skipped]
    if not standing:
        raise Conflict("nothing to undo: no move or chance outcome has been entered yet")
    last, kind = standing[-1]
    state = store.new_state(head)
    for seq, row_kind, data in rows:
        if seq not in skipped and seq != last:
            store.apply_event(state, row_kind, data)
    event = game_events.entry_undone(undoes=last, kind=kind, actor_id=user.pk)
    projection = {}
    if state.current_player != head.current_player:
        projection["current_player"] = state.current_player
    with transaction.atomic():
        appended, new = store.write(head, expected_version, [event], projection=projection)
        store.remember_on_commit(new, state)
    if isinstance(game, Game):
        steps.update_row(game, new)
    return appended


def _entry_rows(game: Game | Head) -> list[tuple[int, str, dict[str, Any]]]:
    return list(
        Event.objects.filter(game_id=game.pk, kind__in=(*ENTRIES, EventKind.ENTRY_UNDONE))
        .order_by("seq")
        .values_list("seq", "kind", "data")
    )


def last_standing_entry(game: Game | Head) -> int | None:
    """The seq of the entry an undo would take back now, or None."""
    rows = _entry_rows(game)
    skipped = store.undone(rows)
    standing = [seq for seq, kind, _ in rows if kind in ENTRIES and seq not in skipped]
    return standing[-1] if standing else None


# -- who sees what --------------------------------------------------------------------------------


def _require_scorekeeper(game: Game | Head, user) -> None:
    if not reads.is_scorekeeper(game, user):
        keeper = User.objects.filter(pk=reads.scorekeeper_id(game)).values_list(
            "username", flat=True
        )
        raise NotYourSeat(
            f"only this table log's scorekeeper ({keeper.first()}) enters its moves and "
            f"chance outcomes"
        )
