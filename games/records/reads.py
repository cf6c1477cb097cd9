"""Reading recorded games: where a record or a tournament table's report stands (reported,
confirmed by whom, disputed, final), folded from its events; the records waiting for a
person's confirmation; what The Deep's cards did over the final Oceans records.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser

from accounts.bots import BOT_PREFIX
from games import people
from games.models import Event, EventKind, Game, GameMode, GameStatus, ScoreSheet, Seat
from games.records import oceans


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
    """``result_state`` of many table games in four queries, whatever their number: a
    tournament page shows every table's. The fold reads names: the log's ids are shown as
    the names they stand for now (games.people)."""
    rows = list(
        Event.objects.filter(game_id__in=game_ids, kind__in=RESULT_KINDS)
        .order_by("game_id", "seq")
        .values_list("game_id", "kind", "data", "actor__username", "actor_id")
    )
    rows = people.current_rows(rows)
    shown = people.Shown((kind, data) for _, kind, data, _, _ in rows)
    events: dict[int, list[tuple[str, Any, str | None]]] = {pk: [] for pk in game_ids}
    for game_id, kind, data, actor, _ in rows:
        events[game_id].append((kind, shown(kind, data), actor))
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


def oceans_card_statistics() -> list[dict]:
    """Per Deep card of the promo pack: in how many final Oceans records it was played, and
    how often its player won, from the sheets of those records (one query)."""
    sheets = ScoreSheet.objects.filter(
        slug=oceans.SLUG, game__status=GameStatus.FINISHED
    ).values_list("sheet", "game__result")
    return oceans.card_statistics(list(sheets))
