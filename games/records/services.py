"""Games played on a physical table: club records and tournament tables in table mode.

A recorded game is a stream like any other, in record mode: no rule module replays it; its
events are the results as they were recorded, reported, confirmed, disputed, overridden or
corrected. Nothing is edited: a correction is a new event and moves the projection.

- ``match_record``: a club record (GameCreated, ResultRecorded), final (GameFinished) once
  every member it names has confirmed it, at once if the recorder's word stands for all of
  them; an Oceans record may carry its score sheet (games.records.oceans), kept by corrections.
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

from accounts.bots import bots
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
from games.catalog import GameType, game_type
from games.models import EventKind, Game, GameMode, GameStatus, ScoreSheet, Seat
from games.play.steps import announce
from games.records import oceans, reads
from games.rules import deep_vents_data
from games.signals import game_finished, result_corrected
from games.store import NewEvent

User = get_user_model()
BID_GAMES = {"deep-vents"}  # games with a starting-bid variant
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


def projected(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
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

    def first_events(self, recorded_by, named: people.Writer) -> list[NewEvent]:
        """What recording it appends first: the table set, the result recorded (``named``:
        :meth:`writer`)."""
        return [
            game_events.game_created(
                game=self.slug,
                mode=GameMode.RECORD,
                num_players=len(self.results),
                seats=[_seat_json(s) for s in self.seats],
                actor_id=recorded_by.pk,
                people=named,
            ),
            game_events.result_recorded(
                results=projected(self.results),
                played_at=self.played_at.isoformat(),
                notes=self.notes,
                bid=self.bid,
                sheet=self.sheet,
                actor_id=recorded_by.pk,
                people=named,
            ),
        ]

    def writer(self, recorded_by) -> people.Writer:
        """Who the record names, by id, and the recorder's notes sealed under their key."""
        return people.writer(seats=self.seats, author=recorded_by)

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
    bid = check_bid(slug, [c["player"] for c in clean], bid)
    if members is None:
        members = members_named([c["player"] for c in clean if not c["guest"]])
    seats = [_seat_for(i, r, members) for i, r in enumerate(clean)]
    return CheckedRecord(slug, played_at, notes, clean, bid, sheet, seats)


def members_named(names: list[str]) -> dict[str, AbstractUser]:
    """The active members (not bots) among ``names``, by username, in one query."""
    users = User.objects.filter(username__in=set(names), is_active=True).exclude(bots())
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
    named = record.writer(recorded_by)
    store.append(
        game, 0, record.first_events(recorded_by, named), projection={"current_player": None}
    )
    if on_behalf_of:
        _vouch(game, recorded_by, on_behalf_of, reason="recorded")
    else:
        finish_if_confirmed(game)
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
        result = projected(record.results)
        game.status, game.result = GameStatus.FINISHED, result
        game.current_player, game.finished_at = None, record.played_at
        named = record.writer(recorded_by)
        finished = game_events.game_finished(
            result=result, reason="recorded", bid=record.bid, sheet=record.sheet, people=named
        )
        appends = [record.first_events(recorded_by, named), [finished]]
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
        if User.objects.filter(bots(), username=name, is_active=True).exists():
            raise Refused(f"{name} is a bot, and a club record is of people at a table")
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
    if sheet is None and (earlier := reads.result_state(game)["sheet"]) is not None:
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
        results=projected(clean),
        reason=reason,
        sheet=sheet,
        actor_id=by.pk,
        people=people.writer(game, author=by),
    )
    store.append(game, game.version, [corrected])
    if on_behalf_of:
        return _vouch(game, by, on_behalf_of, reason="corrected")
    return finish_if_confirmed(game)


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
            [
                game_events.result_confirmed(
                    for_everyone=True, actor_id=user.pk, people=people.writer(game)
                )
            ],
        )
        finish(game, reads.result_state(game), reason="confirmed")
        return reads.result_state(game)
    store.append(
        game,
        game.version,
        [
            game_events.result_confirmed(
                on_behalf_of=covered, actor_id=user.pk, people=people.writer(game)
            )
        ],
    )
    return finish_if_confirmed(game)


def _vouch(game: Game, by, on_behalf_of: Collection[str], *, reason: str) -> dict[str, Any]:
    """The word of whoever recorded or corrected the result waiting, for the members
    ``on_behalf_of``: final at once if it stands for everyone still waited for; else their
    confirmation, appended, and the record waits for the rest."""
    state = reads.result_state(game)
    covered = [name for name in state["waiting_for"] if name in on_behalf_of]
    if len(covered) == len(state["waiting_for"]):
        finish(game, state, reason=reason)
        return reads.result_state(game)
    if covered:
        store.append(
            game,
            game.version,
            [
                game_events.result_confirmed(
                    on_behalf_of=covered, actor_id=by.pk, people=people.writer(game)
                )
            ],
        )
    return reads.result_state(game)


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
        [
            game_events.result_disputed(
                reason=reason,
                results=None,
                actor_id=user.pk,
                people=people.writer(game, author=user),
            )
        ],
    )
    return reads.result_state(game)


def _open_record(game: Game) -> dict[str, Any]:
    if game.mode != GameMode.RECORD or _is_table(game):
        raise RuleViolation("only a club record is confirmed this way")
    state = reads.result_state(game)
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


# -- a bid, and a record that becomes final (club records and tournament tables) ---------------


def check_bid(slug: str, names: list[str], bid: Any) -> dict | None:
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


def finish_if_confirmed(game: Game) -> dict[str, Any]:
    """Finish the game once every member named has confirmed the result waiting."""
    state = reads.result_state(game)
    if state["status"] == "awaiting confirmation" and not state["waiting_for"]:
        finish(game, state, reason="confirmed")
        state = reads.result_state(game)
    return state


def finish(game: Game, state: dict[str, Any], *, reason: str) -> None:
    """The waiting result becomes the game's result; the ratings follow."""
    result = state["reported"]
    correcting = game.status == GameStatus.FINISHED
    projection: dict[str, Any] = {"status": GameStatus.FINISHED, "result": result}
    if state["played_at"]:
        projection["finished_at"] = dt.datetime.fromisoformat(state["played_at"])
    finished = game_events.game_finished(
        result=result,
        reason=reason,
        bid=state["bid"],
        sheet=state["sheet"],
        people=people.writer(game),
    )
    store.append(game, game.version, [finished], projection=projection)
    if state["sheet"]:
        ScoreSheet.objects.update_or_create(
            game=game, defaults={"slug": game.slug, "sheet": state["sheet"]}
        )
    elif correcting:
        ScoreSheet.objects.filter(game=game).delete()
    announce(result_corrected if correcting else game_finished, game)
