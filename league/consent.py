"""Who has agreed to a finished game: the one rule the ratings apply before they rate it
(league.services.ratings, and through it the sweep, league.tasks, and ``manage.py
recompute_ratings``).

A finished game is rated only once every member seated at it has agreed to it. Until then it is
held: it still counts for its tournament (standings, the next round's pairing), it rates
nobody and stays out of a league's standings (league.selectors.league_games reads the ratings'
ledger), and the moment the last of them agrees it is rated in its place in the order games
ended. A member who refused it, or can no longer agree, means it is never rated. Guests and
bots are not members: they need no agreement and are never rated.

What agreeing is, by the kind of game:

- A club record (games.records) is finished only once every member it names has confirmed it,
  or an organiser whose word stands for them (they joined the league): a finished record has
  everyone's agreement already.
- A tournament's table (played here, reported at a table or kept as a table log): the member
  entered themself, or accepted the organisers' entry (league.services.tournaments), or
  reported or confirmed the very result that stands. An entry declined (withdrawn) agrees to
  nothing; an organiser may enter them again, and their yes then counts for the tables held.
- A table log (games.tablelog.services) outside a tournament: its scorekeeper and whoever created it
  agreed by doing so; every other member seated accepts their seat, during or after the game;
  declining it refuses it.
- A game played here: every person took their seat (accepted the invitation, or moved), or
  resigned it themselves. A seat never taken cannot be taken once the game is over, so such a
  game is never rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from games.models import EventKind, Game, GameMode
from games.play import reads as game_reads
from league.models import Entry, RatedGame, Table

User = get_user_model()
CHUNK = 500  # ids per IN (...) list, well below every backend's limit on parameters
SKIPPED_MAX = 200  # RatedGame.skipped


@dataclass(frozen=True)
class Hold:
    """Why a finished game is not rated: who may still agree (``waiting``) and who refused or no
    longer can (``refused``), each as (username, what they have not done)."""

    waiting: tuple[tuple[str, str], ...] = ()
    refused: tuple[tuple[str, str], ...] = ()

    @property
    def may_agree(self) -> bool:
        """Whether it may yet be rated: nobody refused, and someone may still agree."""
        return not self.refused

    @property
    def marked(self) -> tuple[str, str]:
        """What the ratings' ledger (RatedGame) keeps of it: ``skipped`` and ``consent``."""
        return (
            self.reason,
            RatedGame.Consent.WAITING if self.may_agree else RatedGame.Consent.REFUSED,
        )

    @property
    def reason(self) -> str:
        """In people's words, for the game's page ("waiting for u76 to accept their seat")."""
        if self.refused:
            text = _listed(f"{name} {done}" for name, done in self.refused)
        else:
            text = "waiting for " + _listed(f"{name} to {done}" for name, done in self.waiting)
        return text if len(text) <= SKIPPED_MAX else text[: SKIPPED_MAX - 1] + "…"


def holds(games: Sequence[Game]) -> dict[int, Hold]:
    """The games of ``games`` (finished, their seats prefetched) that may not be rated yet, by
    id, with why; a game everyone has agreed to is not among them. A few queries per CHUNK
    games, whatever their kind: club records and games played here ask nothing more."""
    out: dict[int, Hold] = {}
    for start in range(0, len(games), CHUNK):
        out.update(_holds(list(games[start : start + CHUNK])))
    return out


def _holds(games: list[Game]) -> dict[int, Hold]:
    tournament_of = dict(
        Table.objects.filter(game_id__in=[g.pk for g in games]).values_list(
            "game_id", "round__tournament_id"
        )
    )
    waiting: dict[int, list[tuple[int, str]]] = {}  # game -> (user id, what they have not done)
    refused: dict[int, list[tuple[int, str]]] = {}
    at_tables = [g for g in games if g.pk in tournament_of]
    for game, user_id, done in _not_entered(at_tables, tournament_of):
        waiting.setdefault(game.pk, []).append((user_id, done))
    for game in games:
        if game.pk in tournament_of or game.mode == GameMode.RECORD:
            continue
        for seat in _people(game):
            # Resigning is the person's own act on their seat (a clock, which could forfeit
            # it for them, runs only once everyone has taken theirs): they chose that result.
            if seat.accepted or (seat.resigned and game.mode == GameMode.PLAY):
                continue
            if game.mode == GameMode.PLAY:
                refused.setdefault(game.pk, []).append((seat.user_id, "never took their seat"))
            else:
                waiting.setdefault(game.pk, []).append((seat.user_id, "accept their seat"))
    _refusals_of_logs([g for g in games if g.pk not in tournament_of], waiting, refused)
    if not waiting and not refused:
        return {}
    ids = {user for pairs in [*waiting.values(), *refused.values()] for user, _ in pairs}
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    return {
        game.pk: Hold(
            waiting=tuple((names[u], done) for u, done in waiting.get(game.pk, [])),
            refused=tuple((names[u], done) for u, done in refused.get(game.pk, [])),
        )
        for game in games
        if game.pk in waiting or game.pk in refused
    }


def _people(game: Game) -> list[Any]:
    """The seats of members: not guests, not bots."""
    return [s for s in game.seats.all() if s.user_id is not None and not s.bot]


def _not_entered(
    games: list[Game], tournament_of: dict[int, int]
) -> Iterable[tuple[Game, int, str]]:
    """(game, user, what) for each member at a tournament table who has not agreed to it: not
    entered by themself nor accepting their entry, nor agreeing to the result that stands."""
    if not games:
        return
    seated = {s.user_id for g in games for s in _people(g)}
    answers = {
        (tournament, user): answer
        for tournament, user, answer in Entry.objects.filter(
            tournament_id__in=set(tournament_of.values()), user_id__in=seated
        ).values_list("tournament_id", "user_id", "answer")
    }
    missing = {
        game.pk: [
            s.user_id
            for s in _people(game)
            if answers.get((tournament_of[game.pk], s.user_id)) != Entry.Answer.ACCEPTED
        ]
        for game in games
    }
    agreed = _agreed_to_the_result([pk for pk, users in missing.items() if users])
    for game in games:
        for user_id in missing[game.pk]:
            if user_id in agreed.get(game.pk, ()):
                continue
            declined = answers.get((tournament_of[game.pk], user_id)) == Entry.Answer.DECLINED
            yield game, user_id, "be entered again and accept" if declined else "accept their entry"


# The events of a table's result (games.records.services): who said which result.
_RESULT_EVENTS = (
    EventKind.RESULT_REPORTED,
    EventKind.RESULT_CONFIRMED,
    EventKind.RESULT_DISPUTED,
    EventKind.RESULT_OVERRIDDEN,
    EventKind.RESULT_CORRECTED,
    EventKind.GAME_FINISHED,
)


def _agreed_to_the_result(game_ids: list[int]) -> dict[int, set[int]]:
    """Per table game, the members who reported, confirmed or (disputing) claimed the result
    that stands: the result as it finally stands, not one overridden or corrected since."""
    said: dict[int, dict[int | None, Any]] = {}  # game -> user -> the result they said
    current: dict[int, Any] = {}
    final: dict[int, Any] = {}
    rows = game_reads.events_of_kinds(game_ids=game_ids, kinds=_RESULT_EVENTS)
    for game_id, kind, data, _, actor in rows:
        mine = said.setdefault(game_id, {})
        if kind == EventKind.RESULT_REPORTED:
            current[game_id] = mine[actor] = data["results"]
        elif kind == EventKind.RESULT_CONFIRMED:
            mine[actor] = current.get(game_id)
        elif kind == EventKind.RESULT_DISPUTED:
            if data.get("results") is not None:
                mine[actor] = data["results"]
        elif kind in (EventKind.RESULT_OVERRIDDEN, EventKind.RESULT_CORRECTED):
            current[game_id] = data["results"]
        else:
            final[game_id] = data["result"]
    return {
        game_id: {
            user for user, result in by.items() if user is not None and result == final.get(game_id)
        }
        for game_id, by in said.items()
    }


def _refusals_of_logs(
    games: list[Game],
    waiting: dict[int, list[tuple[int, str]]],
    refused: dict[int, list[tuple[int, str]]],
) -> None:
    """A seat of a table log (not a tournament's) declined: it refuses the log, which is then
    never rated."""
    logs = {g.pk: g for g in games if g.mode == GameMode.LOG and g.pk in waiting}
    if not logs:
        return
    declined = {
        (game_id, seat)
        for game_id, _, _, seat, _ in game_reads.events_of_kinds(
            game_ids=list(logs), kinds=(EventKind.SEAT_DECLINED,)
        )
    }
    for game_id, game in logs.items():
        for seat in _people(game):
            if (game_id, seat.index) in declined:
                waiting[game_id] = [w for w in waiting[game_id] if w[0] != seat.user_id]
                refused.setdefault(game_id, []).append((seat.user_id, "declined their seat"))
        if not waiting[game_id]:
            del waiting[game_id]


def _listed(parts: Iterable[str]) -> str:
    items = list(parts)
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)
