"""Games played on a physical table: club records and tournament tables in table mode.

A recorded game is a stream like any other, in record mode: no rule module replays it; its
events are the results as they were recorded, reported, confirmed, disputed, overridden or
corrected. Nothing is edited: a correction is a new event and moves the projection.

- ``match_record``: a club record (GameCreated, ResultRecorded), final (GameFinished) once
  every member it names has confirmed it, at once if the recorder's word stands for all of
  them; an Oceans record may carry its score sheet (games.records.oceans), which corrections carry on.
- ``record_check`` / ``record_write`` / ``match_records_confirmed``: the same, split for a
  bulk writer (an import): every check first, then thousands of records confirmed for
  everyone they name written at once.
- ``table_game_create`` / ``result_report`` / ``result_confirm`` / ``result_override``: a
  tournament table whose seated players report and confirm; a conflict is disputed and left to
  the organiser, who overrides.
- ``result_correct``: a new result for a finished recorded game.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction

from accounts.bots import BOT_PREFIX
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
from games import store
from games.catalog import GameType, game_type
from games.models import Event, EventKind, Game, GameMode, GameStatus, ScoreSheet, Seat
from games.play.steps import announce
from games.records import oceans
from games.rules import deep_vents_data
from games.signals import game_finished, result_corrected
from games.store import NewEvent

User = get_user_model()
BID_GAMES = {"deep-vents"}  # games with a starting-bid variant
# A confirmation that says nothing of the bid confirms the bid reported with the result.
UNSTATED: Any = object()
GUEST_NAME_MAX = 60  # Seat.guest


# -- validating results ---------------------------------------------------------------------------


def parse_results(
    kind: GameType, results: Any, seat_names: list[str] | None = None
) -> list[dict[str, Any]]:
    """Checked ``[{"player", "score", "rank"}]``: one per player, ranks 1-based in competition
    order (tied players share a rank and the next rank skips), and a higher score never ranked
    below a lower one. With ``seat_names`` the players must be exactly those, in any order;
    the result comes back in seat order."""
    if not isinstance(results, list) or not results:
        raise InvalidInput("results must be a non-empty list")
    if seat_names is not None and len(results) != len(seat_names):
        raise Refused(
            f"the results must name exactly the players at the table: {', '.join(seat_names)}"
        )
    if not kind.min_players <= len(results) <= kind.max_players:
        raise Refused(
            f"{kind.name} takes {kind.min_players} to {kind.max_players} players,"
            f" not {len(results)}"
        )
    clean: list[dict[str, Any]] = []
    for i, entry in enumerate(results):
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("player"), str)
            or not entry["player"].strip()
        ):
            raise InvalidInput(f"result {i}: give the player's name")
        guest = entry.get("guest", False)
        if not isinstance(guest, bool):
            raise InvalidInput(f"result {i}: guest must be true or false")
        name = inputs.text(
            entry["player"], f"result {i}: the player", GUEST_NAME_MAX if guest else 150
        )
        rank = entry.get("rank")
        if isinstance(rank, str):  # a query string's digits are fine; a JSON result's are not
            raise InvalidInput(f"result {i}: rank must be a whole number, not text")
        rank = inputs.whole_number(rank, f"result {i}: rank", 1, 100)
        score = inputs.score(entry.get("score"), f"result {i}: score")
        clean.append({"player": name, "score": score, "rank": rank, "guest": guest})
    names = [c["player"] for c in clean]
    if len(set(names)) != len(names):
        raise Refused("a player appears twice in the results")
    ranks = [c["rank"] for c in clean]
    for c in clean:
        if c["rank"] != 1 + sum(1 for r in ranks if r < c["rank"]):
            raise Refused(
                f"ranks must be in competition order (1, 1, 3 or 1, 2, 2): {sorted(ranks)} is not"
            )
    _check_scores_agree_with_ranks(clean)
    if seat_names is not None:
        if sorted(names) != sorted(seat_names):
            raise Refused(
                f"the results must name exactly the players at the table: {', '.join(seat_names)}"
            )
        by_name = {c["player"]: c for c in clean}
        clean = [by_name[name] for name in seat_names]
    return clean


def _check_scores_agree_with_ranks(clean: list[dict[str, Any]]) -> None:
    for a in clean:
        for b in clean:
            if (
                a["score"] is not None
                and b["score"] is not None
                and a["score"] > b["score"]
                and a["rank"] > b["rank"]
            ):
                raise Refused(f"{a['player']} scored more than {b['player']} but is ranked below")


def parse_sheet(slug: str, sheet: Any, clean: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The checked score sheet of a result (None for none); the results' missing scores are
    taken from it."""
    if sheet is None:
        return None
    if slug != oceans.SLUG:
        raise RuleViolation(f"{game_type(slug).name} has no score sheet: only Oceans has one")
    checked = oceans.parse_sheet(sheet, clean)
    _check_scores_agree_with_ranks(clean)
    return checked


def _projected(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"player": r["player"], "score": r["score"], "rank": r["rank"]} for r in results]


# -- club records ---------------------------------------------------------------------------------


@dataclass
class CheckedRecord:
    """A club record that has passed every check :func:`match_record` makes, not yet written."""

    slug: str
    played_at: dt.datetime
    notes: str
    results: list[dict[str, Any]]  # clean, in seat order
    bid: dict | None
    sheet: dict | None
    seats: list[Seat]  # unsaved, each member's user found

    def first_events(self, recorded_by) -> list[NewEvent]:
        """What recording it appends first: the table set, the result recorded."""
        return [
            game_events.game_created(
                game=self.slug,
                mode=GameMode.RECORD,
                num_players=len(self.results),
                seats=[_seat_json(s) for s in self.seats],
                actor_id=recorded_by.pk,
            ),
            game_events.result_recorded(
                results=_projected(self.results),
                played_at=self.played_at.isoformat(),
                notes=self.notes,
                bid=self.bid,
                sheet=self.sheet,
                actor_id=recorded_by.pk,
            ),
        ]

    def new_game(self, recorded_by) -> Game:
        return Game(
            slug=self.slug,
            mode=GameMode.RECORD,
            rules_version=0,
            options={},
            num_players=len(self.results),
            created_by=recorded_by,
        )


def record_check(
    *,
    slug: str,
    played_at: Any,
    results: Any,
    notes: str = "",
    bid: dict | None = None,
    sheet: dict | None = None,
    members: dict[str, AbstractUser] | None = None,
) -> CheckedRecord:
    """Every check of a club record, before anything is written; InvalidInput if one fails.
    ``members``, from :func:`members_named`, saves looking each member up again."""
    try:
        kind = game_type(slug)
    except KeyError as exc:
        raise InvalidInput(str(exc.args[0])) from None
    played_at = inputs.past_moment(played_at, "played_at")
    notes = inputs.text(notes or "", "notes", 2000, blank=True)
    clean = parse_results(kind, results)
    sheet = parse_sheet(slug, sheet, clean)
    bid = _check_bid(slug, [c["player"] for c in clean], bid)
    if members is None:
        members = members_named([c["player"] for c in clean if not c["guest"]])
    seats = [_seat_for(i, r, members) for i, r in enumerate(clean)]
    return CheckedRecord(slug, played_at, notes, clean, bid, sheet, seats)


def members_named(names: list[str]) -> dict[str, AbstractUser]:
    """The active members (not bots) among ``names``, by username, in one query."""
    users = User.objects.filter(username__in=set(names), is_active=True).exclude(
        username__startswith=BOT_PREFIX
    )
    return {user.username: user for user in users}


@transaction.atomic
def match_record(
    *,
    slug: str,
    played_at: Any,
    results: Any,
    recorded_by,
    notes: str = "",
    bid: dict | None = None,
    sheet: dict | None = None,
    on_behalf_of: Collection[str] = (),
) -> Game:
    """Record a game played on a table: :func:`record_check`, then :func:`record_write`."""
    record = record_check(
        slug=slug, played_at=played_at, results=results, notes=notes, bid=bid, sheet=sheet
    )
    return record_write(record=record, recorded_by=recorded_by, on_behalf_of=on_behalf_of)


@transaction.atomic
def record_write(*, record: CheckedRecord, recorded_by, on_behalf_of: Collection[str] = ()) -> Game:
    """Write a checked club record. It is final, and rated, once every member it names has
    confirmed it: at once when it names no member but the recorder. ``on_behalf_of`` are the
    members the recorder's word stands for (when an organiser records a league's game, the
    league's members: the league decides): it is final at once if they are all the others
    named, and else waits for the rest. An Oceans record may carry its score sheet
    (games.records.oceans)."""
    game = record.new_game(recorded_by)
    game.save()
    for seat in record.seats:
        seat.game = game
    Seat.objects.bulk_create(record.seats)
    _remember_seats(game, record.seats)
    store.append(game, 0, record.first_events(recorded_by), projection={"current_player": None})
    if on_behalf_of:
        _vouch(game, recorded_by, on_behalf_of, reason="recorded")
    else:
        _finish_if_confirmed(game)
    return game


@transaction.atomic
def match_records_confirmed(*, records: list[CheckedRecord], recorded_by) -> list[Game]:
    """Many records at once, each checked by :func:`record_check` and confirmed for every
    member it names (an organiser's import of plays naming only the league's members): the
    same events, projection and announcement as :func:`record_write` gives a record
    confirmed on behalf of everyone it names, written in bulk (store.create_streams)."""
    streams = []
    for record in records:
        game = record.new_game(recorded_by)
        result = _projected(record.results)
        game.status, game.result = GameStatus.FINISHED, result
        game.current_player, game.finished_at = None, record.played_at
        finished = game_events.game_finished(
            result=result, reason="recorded", bid=record.bid, sheet=record.sheet
        )
        appends = [record.first_events(recorded_by), [finished]]
        streams.append((game, record.seats, appends))
    store.create_streams(streams)
    ScoreSheet.objects.bulk_create(
        [
            ScoreSheet(game=game, slug=game.slug, sheet=record.sheet)
            for (game, _, _), record in zip(streams, records)
            if record.sheet
        ]
    )
    games = [game for game, _, _ in streams]
    for game in games:
        announce(game_finished, game)
    return games


def _remember_seats(game: Game, seats: list[Seat]) -> None:
    """The seats just written, as if prefetched: the store's head reads them (and their
    users) without asking the database again."""
    cached = Seat.objects.filter(game=game)
    cached._result_cache = list(seats)
    cached._prefetch_done = True
    game._prefetched_objects_cache = {"seats": cached}


def _seat_for(index: int, result: dict[str, Any], members: dict[str, AbstractUser]) -> Seat:
    name = result["player"]
    if result["guest"]:
        return Seat(index=index, guest=name)
    user = members.get(name)
    if user is None:
        raise UnknownName(f'no member {name!r} (mark a guest with "guest": true)')
    return Seat(index=index, user=user)


def _seat_json(seat: Seat) -> dict[str, Any]:
    if seat.user_id:
        return {"user": seat.user.username}
    return {"guest": seat.guest}


@transaction.atomic
def result_correct(
    *,
    game: Game,
    results: Any,
    by,
    reason: str = "",
    sheet: dict | None = None,
    on_behalf_of: Collection[str] = (),
) -> dict[str, Any]:
    """A new result for a club record: an event. It waits, like the first result, for every
    member named to confirm it, and until then the last confirmed result stands; an
    organiser's correction stands for the members ``on_behalf_of`` (as for
    :func:`match_record`), and is final at once if they are all the others named.

    The correction carries the score sheet: the one given, or else the record's sheet as it
    was, which must then still agree with the corrected scores."""
    if game.mode != GameMode.RECORD or game.status == GameStatus.VOID or _is_table(game):
        raise RuleViolation("only a club record can be corrected")
    reason = inputs.text(reason or "", "reason", 500, blank=True)
    clean = parse_results(game_type(game.slug), results, seat_names(game))
    if sheet is None and (earlier := result_state(game)["sheet"]) is not None:
        try:
            sheet = parse_sheet(game.slug, earlier, clean)
        except InvalidInput as exc:
            raise InvalidInput(
                f"the record's score sheet no longer fits ({exc}): send the corrected sheet"
                " with the correction"
            ) from None
    else:
        sheet = parse_sheet(game.slug, sheet, clean)
    corrected = game_events.result_corrected(
        results=_projected(clean), reason=reason, sheet=sheet, actor_id=by.pk
    )
    store.append(game, game.version, [corrected])
    if on_behalf_of:
        return _vouch(game, by, on_behalf_of, reason="corrected")
    return _finish_if_confirmed(game)


@transaction.atomic
def record_confirm(
    *, game: Game, user: AbstractUser, on_behalf_of: Collection[str] | None = None
) -> dict[str, Any]:
    """A member named in a club record confirms it as recorded (or corrected). An organiser's
    confirmation (``on_behalf_of`` given, as the league decides: its members named) stands for
    those members too, and the record is final once nobody else is waited for. It stands for
    nobody who has not agreed, so a record naming such a member waits for them."""
    state = _open_record(game)
    waiting = state["waiting_for"]
    mine = user.username in waiting
    covered = [name for name in waiting if name in (on_behalf_of or ()) and name != user.username]
    if not mine and not covered:
        if on_behalf_of is not None:
            raise Conflict(
                f"your confirmation stands only for the league's members, and {_names(waiting)}"
                f" {'has' if len(waiting) == 1 else 'have'} not agreed to be one: the record"
                " waits for their own confirmation"
            )
        _require_named(game, user)
        raise Conflict("you have already confirmed this result")
    if covered and set(waiting) <= {*covered, user.username}:
        # Everyone waited for is covered: final at once, as an organiser's confirmation was.
        store.append(
            game,
            game.version,
            [game_events.result_confirmed(for_everyone=True, actor_id=user.pk)],
        )
        _finish(game, result_state(game), reason="confirmed")
        return result_state(game)
    store.append(
        game,
        game.version,
        [game_events.result_confirmed(on_behalf_of=covered, actor_id=user.pk)],
    )
    return _finish_if_confirmed(game)


def _vouch(game: Game, by, on_behalf_of: Collection[str], *, reason: str) -> dict[str, Any]:
    """The word of whoever recorded or corrected the result waiting, for the members
    ``on_behalf_of``: final at once if it stands for everyone still waited for; else their
    confirmation, appended, and the record waits for the rest."""
    state = result_state(game)
    covered = [name for name in state["waiting_for"] if name in on_behalf_of]
    if len(covered) == len(state["waiting_for"]):
        _finish(game, state, reason=reason)
        return result_state(game)
    if covered:
        store.append(
            game,
            game.version,
            [game_events.result_confirmed(on_behalf_of=covered, actor_id=by.pk)],
        )
    return result_state(game)


def _names(names: list[str]) -> str:
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


@transaction.atomic
def record_dispute(*, game: Game, user: AbstractUser, reason: str = "") -> dict[str, Any]:
    """A member named in a club record says it is wrong: it waits, unrated, for a correction."""
    state = _open_record(game)
    _require_named(game, user)
    if user.username in state["confirmed_by"]:
        raise Conflict("you have confirmed this result; ask an organiser to correct it")
    if any(d["by"] == user.username for d in state["disputes"]):
        raise Conflict("you have already disputed this result")
    reason = inputs.text(reason or "", "reason", 500, blank=True)
    store.append(
        game,
        game.version,
        [game_events.result_disputed(reason=reason, results=None, actor_id=user.pk)],
    )
    return result_state(game)


def _open_record(game: Game) -> dict[str, Any]:
    if game.mode != GameMode.RECORD or _is_table(game):
        raise RuleViolation("only a club record is confirmed this way")
    state = result_state(game)
    if state["status"] == "final":
        raise Conflict("the result is final: there is nothing to confirm")
    if state["status"] == "disputed":
        raise Conflict("the result is disputed: it waits for a correction")
    return state


def _require_named(game: Game, user) -> None:
    if not user.is_authenticated or not game.seats.filter(user=user).exists():
        raise NotYourSeat("only a member named in this record may confirm or dispute it")


def _is_table(game: Game) -> bool:
    """A tournament table's game: its result is reported and confirmed at the table."""
    return not game.events.filter(kind=EventKind.RESULT_RECORDED).exists()


def seat_names(game: Game) -> list[str]:
    return [
        s.user.username if s.user_id else s.guest
        for s in game.seats.select_related("user").order_by("index")
    ]


# -- tournament tables in table mode --------------------------------------------------------------


@transaction.atomic
def table_game_create(
    *, slug: str, users: list, created_by: AbstractUser, options: dict | None = None
) -> Game:
    """An open recorded game for a tournament table: seated players will report its result."""
    kind = game_type(slug)
    game = Game.objects.create(
        slug=slug,
        mode=GameMode.RECORD,
        rules_version=0,
        options=options or {},
        num_players=len(users),
        created_by=created_by,
    )
    Seat.objects.bulk_create([Seat(game=game, index=i, user=u) for i, u in enumerate(users)])
    created = game_events.game_created(
        game=kind.slug,
        mode=GameMode.RECORD,
        num_players=len(users),
        options=options or {},
        seats=[{"user": u.username} for u in users],
        actor_id=getattr(created_by, "pk", None),
    )
    store.append(game, 0, [created], projection={"current_player": None})
    return game


def result_state(game: Game) -> dict[str, Any]:
    """Where a table game's result stands, folded from its events.

    ``status`` is "awaiting report", "awaiting confirmation", "disputed" or "final";
    ``reported`` is the result waiting for confirmation (or the last one), ``final`` the result
    that stands, ``confirmed_by`` who has confirmed ``reported`` (its reporter first),
    ``waiting_for`` the members named who have not, ``disputes`` who said otherwise, and
    ``club_record`` whether it was recorded as a club record (not reported at a tournament table).
    """
    return result_states([game.pk])[game.pk]


def result_states(game_ids: list[int]) -> dict[int, dict[str, Any]]:
    """``result_state`` of many table games in two queries, whatever their number: a
    tournament page shows every table's."""
    events: dict[int, list[tuple[str, Any, str | None]]] = {pk: [] for pk in game_ids}
    rows = (
        Event.objects.filter(game_id__in=game_ids, kind__in=RESULT_KINDS)
        .order_by("game_id", "seq")
        .values_list("game_id", "kind", "data", "actor__username")
    )
    for game_id, kind, data, actor in rows:
        events[game_id].append((kind, data, actor))
    named: dict[int, list[str]] = {pk: [] for pk in game_ids}
    seats = (
        Seat.objects.filter(game_id__in=game_ids, user__isnull=False)
        .order_by("game_id", "index")
        .values_list("game_id", "user__username")
    )
    for game_id, username in seats:
        if not username.startswith(BOT_PREFIX):
            named[game_id].append(username)
    return {pk: _folded(events[pk], named[pk]) for pk in game_ids}


def records_waiting_for(user: AbstractUser, limit: int = 50) -> list[tuple[Game, dict[str, Any]]]:
    """The club records naming ``user`` that wait for their confirmation, newest first, with
    where each stands: in three queries however many games they have played."""
    if not user.is_authenticated:
        return []
    open_records = list(
        Game.objects.filter(
            mode=GameMode.RECORD, status=GameStatus.ACTIVE, seats__user=user
        ).order_by("-created_at")[:limit]
    )
    states = result_states([g.pk for g in open_records])
    return [
        (game, states[game.pk])
        for game in open_records
        if states[game.pk]["club_record"]
        and states[game.pk]["status"] == "awaiting confirmation"
        and user.username in states[game.pk]["waiting_for"]
    ]


# The events a table game's result is folded from (a recorded game has no others but its first).
RESULT_KINDS = (
    EventKind.RESULT_RECORDED,
    EventKind.RESULT_REPORTED,
    EventKind.RESULT_CONFIRMED,
    EventKind.RESULT_DISPUTED,
    EventKind.RESULT_OVERRIDDEN,
    EventKind.RESULT_CORRECTED,
    EventKind.GAME_FINISHED,
)


def _folded(events: list[tuple[str, Any, str | None]], named: list[str]) -> dict[str, Any]:
    state: dict[str, Any] = {
        "status": "awaiting report",
        "reported": None,
        "final": None,
        "bid": None,
        "sheet": None,
        "final_sheet": None,
        "played_at": None,
        "confirmed_by": [],
        "disputes": [],
        "club_record": False,
    }
    for kind, data, actor in events:
        if kind in (
            EventKind.RESULT_REPORTED,
            EventKind.RESULT_RECORDED,
            EventKind.RESULT_CORRECTED,
        ):
            state.update(
                status="awaiting confirmation",
                reported=data["results"],
                confirmed_by=[actor],
                disputes=[],
            )
            state["bid"] = data.get("bid", state["bid"])
            state["sheet"] = data.get("sheet")
            state["played_at"] = data.get("played_at", state["played_at"])
            if kind == EventKind.RESULT_RECORDED:
                state["club_record"] = True
        elif kind == EventKind.RESULT_CONFIRMED:
            # An organiser's confirmation may stand for members of the league (on_behalf_of).
            for name in [actor, *data.get("on_behalf_of", ())]:
                if name not in state["confirmed_by"]:
                    state["confirmed_by"].append(name)
        elif kind == EventKind.RESULT_DISPUTED:
            state["status"] = "disputed"
            state["disputes"].append(
                {"by": actor, "results": data.get("results"), "reason": data.get("reason", "")}
            )
        elif kind == EventKind.RESULT_OVERRIDDEN:
            state.update(reported=data["results"], bid=data.get("bid"))
        elif kind == EventKind.GAME_FINISHED:
            state.update(status="final", final=data["result"], reported=data["result"])
            state.update(sheet=data.get("sheet"), final_sheet=data.get("sheet"))
    state["waiting_for"] = (
        []
        if state["status"] in ("final", "awaiting report")
        else [n for n in named if n not in state["confirmed_by"]]
    )
    return state


@transaction.atomic
def result_report(
    *, game: Game, user: AbstractUser, results: list[dict[str, Any]], bid: dict | None = None
) -> dict[str, Any]:
    """A seated player reports the table's result (and, for a starting bid, the winning bid).
    The reporter counts as confirming it and may report again to fix a slip until someone
    confirms; another player's report of the same result confirms it, of another disputes it."""
    _check_open_table(game, user)
    state = result_state(game)
    if state["status"] == "disputed":
        raise RuleViolation("the result is disputed: the organiser decides it now")
    if state["reported"] is not None and state["confirmed_by"][0] != user.username:
        # Someone else reported first: the same result confirms it, another disputes it.
        return result_confirm(game=game, user=user, results=results)
    if len(state["confirmed_by"]) > 1:
        raise RuleViolation("a confirmed result cannot be reported again; confirm or dispute it")
    clean = _projected(parse_results(game_type(game.slug), results, seat_names(game)))
    bid = _parse_bid(game, bid)
    store.append(
        game,
        game.version,
        [game_events.result_reported(results=clean, bid=bid, actor_id=user.pk)],
    )
    return _finish_if_confirmed(game)


@transaction.atomic
def result_confirm(
    *, game: Game, user: AbstractUser, results: list[dict[str, Any]], bid: Any = UNSTATED
) -> dict[str, Any]:
    """Another seated player confirms the reported result; a different result disputes it, and
    so does a different winning bid, when the confirmer states one."""
    _check_open_table(game, user)
    state = result_state(game)
    if state["reported"] is None:
        raise RuleViolation("nothing has been reported yet: report the result instead")
    if state["status"] == "disputed":
        raise RuleViolation("the result is disputed: the organiser decides it now")
    if user.username in state["confirmed_by"]:
        raise RuleViolation("you have already confirmed this result")
    clean = _projected(parse_results(game_type(game.slug), results, seat_names(game)))
    stated = bid is not UNSTATED
    bid = _parse_bid(game, bid) if stated else state["bid"]
    if clean != state["reported"] or bid != state["bid"]:
        disputed = game_events.result_disputed(
            results=clean, bid=bid if stated else game_events.UNSET, actor_id=user.pk
        )
        store.append(game, game.version, [disputed])
        return result_state(game)
    store.append(game, game.version, [game_events.result_confirmed(actor_id=user.pk)])
    return _finish_if_confirmed(game)


@transaction.atomic
def result_override(
    *, game: Game, by: AbstractUser, results: list[dict[str, Any]], bid: dict | None = None
) -> dict[str, Any]:
    """The organiser settles a table's result; on a finished table it is a correction."""
    if game.mode != GameMode.RECORD:
        raise RuleViolation("only a table game's result can be overridden")
    clean = _projected(parse_results(game_type(game.slug), results, seat_names(game)))
    bid = _parse_bid(game, bid)
    correcting = game.status == GameStatus.FINISHED
    settled = game_events.result_corrected if correcting else game_events.result_overridden
    store.append(
        game,
        game.version,
        [
            settled(results=clean, bid=bid, actor_id=by.pk),
            game_events.game_finished(result=clean, reason="organiser"),
        ],
        projection={"status": GameStatus.FINISHED, "result": clean},
    )
    announce(result_corrected if correcting else game_finished, game)
    return result_state(game)


def _check_open_table(game: Game, user) -> None:
    if game.mode != GameMode.RECORD:
        raise RuleViolation("this game is played in the service: it reports its own result")
    if not game.seats.filter(user=user).exists():
        raise NotYourSeat("only a player at this table may report or confirm its result")
    if game.status != GameStatus.ACTIVE:
        raise RuleViolation("the result is final; the organiser may correct it")


def _parse_bid(game: Game, bid: Any) -> dict | None:
    return _check_bid(game.slug, seat_names(game), bid)


def _check_bid(slug: str, names: list[str], bid: Any) -> dict | None:
    """The winning bid of a starting-bid game: ``{"player", "amount"}``, or None."""
    if bid is None:
        return None
    if slug not in BID_GAMES:
        raise RuleViolation(f"{game_type(slug).name} has no starting bid")
    if (
        not isinstance(bid, dict)
        or bid.get("player") not in names
        or isinstance(bid.get("amount"), bool)
        or not isinstance(bid.get("amount"), int)
        or bid["amount"] < 0
    ):
        raise InvalidInput(f'bid must be {{"player": one of {", ".join(names)}, "amount": n >= 0}}')
    most = deep_vents_data.STARTING_ARCHAEA.get(len(names))
    if most is not None and bid["amount"] > most:
        # "Bid 0 up to your archaea": everyone starts a bidding game with this many.
        raise InvalidInput(
            f"bid amount must be at most {most}, the archaea each of {len(names)} players"
            " starts with"
        )
    return {"player": bid["player"], "amount": bid["amount"]}


def _finish_if_confirmed(game: Game) -> dict[str, Any]:
    """Finish the game once every member named has confirmed the result waiting."""
    state = result_state(game)
    if state["status"] == "awaiting confirmation" and not state["waiting_for"]:
        _finish(game, state, reason="confirmed")
        state = result_state(game)
    return state


def _finish(game: Game, state: dict[str, Any], *, reason: str) -> None:
    """The waiting result becomes the game's result; the ratings follow."""
    result = state["reported"]
    correcting = game.status == GameStatus.FINISHED
    projection: dict[str, Any] = {"status": GameStatus.FINISHED, "result": result}
    if state["played_at"]:
        projection["finished_at"] = dt.datetime.fromisoformat(state["played_at"])
    finished = game_events.game_finished(
        result=result, reason=reason, bid=state["bid"], sheet=state["sheet"]
    )
    store.append(game, game.version, [finished], projection=projection)
    if state["sheet"]:
        ScoreSheet.objects.update_or_create(
            game=game, defaults={"slug": game.slug, "sheet": state["sheet"]}
        )
    elif correcting:
        ScoreSheet.objects.filter(game=game).delete()
    announce(result_corrected if correcting else game_finished, game)


def oceans_card_statistics() -> list[dict]:
    """Per Deep card of the promo pack: in how many final Oceans records it was played, and
    how often its player won, from the sheets of those records (one query)."""
    sheets = ScoreSheet.objects.filter(
        slug=oceans.SLUG, game__status=GameStatus.FINISHED
    ).values_list("sheet", "game__result")
    return oceans.card_statistics(list(sheets))
