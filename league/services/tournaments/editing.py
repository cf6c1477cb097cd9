"""Editing a tournament's settings after it was created, as far as its state allows.

A change is checked as creation checks it (league.tournament_spec.TournamentSpec, made from
the settings as they would be), refused with the setting named and why, and logged as one
``TournamentEdited`` event: ``{"changes": {setting: [old, new]}}``.

What may change when:

- any time before the end: the name, the tie-breaks (standings are recomputed), the clock of
  online tables and the round length at a venue (for tables paired or clocks started after);
- before round 1: the game, format, mode, table size, advance, top cut, placement points,
  entry mode, check-in (not once it has closed), the cap, clubs kept apart, vacations;
- the rounds of a Swiss: never below the rounds already paired, and not once a top cut has
  begun; of a round robin, before round 1 (its schedule is drawn for the whole event); an
  elimination has none to change (it runs to a champion);
- the bye's points: until a bye has been given (the byes given keep what they were worth
  when given, so points are never rewritten under a player).

Once the tournament is over, only its name.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction

from core.errors import InvalidInput, RuleViolation
from games.play import clocks
from league import notices
from league.models import Round, Tournament
from league.selectors import live_rounds
from league.services.tournaments.common import _in_count, _log, _require_organiser, _started
from league.services.tournaments.entries import _promote
from league.services.tournaments.rounds import end_if_over
from league.tournament_spec import TournamentSpec

# The settings an organiser may change, by their API names (TournamentSpec's and the model's,
# but the game, which the model keeps as its slug).
ANY_TIME = ("name", "tiebreaks", "time_control", "round_minutes")
BEFORE_ROUND_1 = (
    "game",
    "format",
    "mode",
    "table_size",
    "advance",
    "top_cut",
    "placement_points",
    "entry_mode",
    "check_in",
    "cap",
    "avoid_club_rounds",
    "vacation_allowed",
)
EDITABLE = (*ANY_TIME, *BEFORE_ROUND_1, "rounds", "bye_points")
_COLUMN = {"game": "slug"}


@transaction.atomic
def tournament_edit(*, tournament: Tournament, changes: dict[str, Any], by: AbstractUser):
    """Change the settings named in ``changes`` (an organiser), all or none; returns the
    tournament. A setting given its current value is not a change and is not logged."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise InvalidInput(f"{unknown[0]} cannot be changed once the tournament is created")
    if not changes:
        raise InvalidInput(f"name a setting to change: {', '.join(EDITABLE)}")
    spec = _spec(tournament, changes)
    done: dict[str, list[Any]] = {}
    # What was named, and what follows from it (the spec completes a new game's options, a
    # new size's points, a mode's clock): each logged with its old and new value.
    for name in (*EDITABLE, "options"):
        if name == "entry_mode" and name not in changes:
            continue  # made "open" for the spec once the field is set
        old, new = getattr(tournament, _COLUMN.get(name, name)), getattr(spec, name)
        if name == "tiebreaks":
            new = list(new)
        if old != new:
            done[name] = [old, new]
    if not done:
        return tournament
    _check_when(tournament, done)
    for name, (_, new) in done.items():
        setattr(tournament, _COLUMN.get(name, name), new)
    tournament.save()
    _log(tournament, "TournamentEdited", by, {"changes": done})
    _after(tournament, done, by)
    return tournament


def _spec(tournament: Tournament, changes: dict[str, Any]) -> TournamentSpec:
    """The tournament's settings with ``changes``, checked as a new one's would be. Once
    round 1 is paired the field is not checked again (it was then, and drops since are the
    pairing's to absorb): the spec is made with no players, as an open entry's may be."""
    settings: dict[str, Any] = {
        "name": tournament.name,
        "game": tournament.slug,
        "format": tournament.format,
        "table_size": tournament.table_size,
        "rounds": tournament.rounds,
        "mode": tournament.mode,
        "options": tournament.options,
        "bye_points": tournament.bye_points,
        "placement_points": tournament.placement_points,
        "tiebreaks": tournament.tiebreaks,
        "advance": tournament.advance,
        "time_control": tournament.time_control,
        "seeding": tournament.seeding,
        "entry_mode": tournament.entry_mode,
        "cap": tournament.cap,
        "check_in": tournament.check_in,
        "people_only": tournament.people_only,
        "vacation_allowed": tournament.vacation_allowed,
        "top_cut": tournament.top_cut,
        "avoid_club_rounds": tournament.avoid_club_rounds,
        "round_minutes": tournament.round_minutes,
        "league": tournament.league,
        "season": tournament.season,
    }
    if "game" in changes:
        settings["options"] = {}  # another game's options are not this one's
    if "mode" in changes:  # each mode's clock belongs to it
        settings["time_control"] = None
        settings["round_minutes"] = None
    settings.update(changes)
    if changes.get("time_control") is not None:
        settings["time_control"] = _clock(changes["time_control"])
    if "table_size" in changes and "placement_points" not in changes:
        settings["placement_points"] = None  # the defaults for the new size
    if _started(tournament):
        settings.update(players=(), entry_mode=Tournament.EntryMode.OPEN)
    else:
        settings["players"] = [
            e.name
            for e in tournament.entries.select_related("user").filter(
                waitlisted=False, dropped_after_round__isnull=True
            )
        ]
    return TournamentSpec(**settings)


def _clock(value: Any) -> Any:
    """A clock as the tournament keeps one, every part spelt out (a timeout rule as given, or
    the default); a shape the clocks refuse is left for the spec to refuse."""
    try:
        return clocks.time_control_of(SimpleNamespace(**clocks.parse_time_control(value)))
    except InvalidInput:
        return value


def _check_when(tournament: Tournament, done: dict[str, list[Any]]) -> None:
    """Refuse a change the tournament's state no longer allows, naming the setting."""
    rounds = list(live_rounds(tournament))
    if tournament.status == Tournament.Status.FINISHED:
        late = [name for name in done if name != "name"]
        if late:
            raise RuleViolation(f"{late[0]}: the tournament is over; only its name may change")
    for name in done:
        if name in BEFORE_ROUND_1 and rounds:
            raise RuleViolation(f"{name}: changes only before round 1 is paired")
    if (
        done.get("mode", [None, None])[1] == Tournament.Mode.ONLINE
        and tournament.entries.exclude(guest="").filter(dropped_after_round__isnull=True).exists()
    ):
        raise RuleViolation(
            "mode: walk-ins are entered, and they play at a table at the venue; withdraw them first"
        )
    if "check_in" in done and tournament.check_in_closed_at is not None:
        raise RuleViolation("check_in: check-in has closed")
    if "rounds" in done:
        _check_rounds(tournament, rounds, done["rounds"][1])
    if (
        "bye_points" in done
        and Round.byes.through.objects.filter(
            round__tournament=tournament, round__void=False
        ).exists()
    ):
        raise RuleViolation("bye_points: a bye has been given at the old value")


def _check_rounds(tournament: Tournament, rounds: list[Round], new: int) -> None:
    if tournament.format == Tournament.Format.ELIMINATION:
        raise RuleViolation("rounds: an elimination runs until it has a champion")
    if tournament.format == Tournament.Format.ROUND_ROBIN and rounds:
        raise RuleViolation("rounds: a round robin's schedule is set when round 1 is paired")
    if any(r.stage == "cut" for r in rounds):
        raise RuleViolation("rounds: the top cut has begun")
    paired = sum(1 for r in rounds if r.stage == "main")
    if new < paired:
        raise RuleViolation(f"rounds: {paired} have been paired already")


def _after(tournament: Tournament, done: dict[str, list[Any]], by) -> None:
    """What a change sets going: a higher cap moves waiting players up; check-in turned on
    asks the players with a place to check in."""
    if "cap" in done and (done["cap"][1] is None or done["cap"][1] > _in_count(tournament)):
        _promote(tournament, by)
    if "rounds" in done:
        end_if_over(tournament, by)  # down to the rounds played: the last was the last
    if "check_in" in done and tournament.check_in:
        for user_id in tournament.entries.filter(
            waitlisted=False, dropped_after_round__isnull=True, checked_in=False
        ).values_list("user_id", flat=True):
            notices.check_in_open(tournament, user_id)
