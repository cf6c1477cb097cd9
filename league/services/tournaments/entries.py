"""Entries: adding, registering, answering, dropping, re-entering, check-in, the cap and the waitlist."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone

from accounts.bots import is_bot
from core.errors import (
    Conflict,
    InvalidInput,
    NotYourSeat,
    Refused,
    RuleViolation,
)
from games.play import steps
from league import notices
from league.models import (
    Entry,
    RatedGame,
    Tournament,
)
from league.selectors import (
    live_rounds,
)
from league.services.tournaments import absent
from league.services.tournaments.common import (
    _answer,
    _bots_out,
    _entry_named,
    _in_count,
    _log,
    _next_seed,
    _player,
    _require_organiser,
    _started,
    _whole,
)
from league.tasks import rate_finished_games


@transaction.atomic
def entry_add(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """The organisers enter a player: before round 1 up to the cap (then onto the waitlist),
    later as a late entry who plays from the next round paired."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    return _enter(tournament, _player(player, people_only=tournament.people_only), by)


@transaction.atomic
def entry_register(*, tournament: Tournament, by: AbstractUser) -> Entry:
    """A player enters themself: open entry only, until round 1 is paired; beyond the cap
    they wait in line for a place."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.entry_mode != Tournament.EntryMode.OPEN:
        raise RuleViolation("the organisers enter the players of this tournament")
    if _started(tournament):
        raise RuleViolation("entry closed when round 1 was paired: ask an organiser")
    return _enter(tournament, by, by)


def _enter(tournament: Tournament, user, by, *, guest: str = "") -> Entry:
    """Enter a member (``user``) or, with ``guest``, a walk-in by name (walk_ins.py)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    if user is not None and tournament.people_only and is_bot(user):
        raise Refused(_bots_out(user.username))
    started = _started(tournament)
    if tournament.format != Tournament.Format.SWISS and started:
        raise RuleViolation("late entry is only possible in a Swiss tournament once it runs")
    if started and tournament.top_cut and live_rounds(tournament).count() >= tournament.rounds:
        raise RuleViolation("the Swiss rounds are over: nobody can enter the top cut")
    if user is not None:
        entry = tournament.entries.filter(user=user).first()
        _refuse_a_walk_in_named(tournament, user.username)
    else:
        entry = tournament.entries.filter(user__isnull=True, guest=guest).first()
    # Entering again is for one who withdrew before round 1, or (late entry) one still in line
    # when round 1 was paired: the waitlist ends there.
    again = entry is not None and (
        (entry.dropped_after_round == 0 and not started) or (entry.waitlisted and started)
    )
    if entry is not None and not again:
        raise RuleViolation(f"{entry.name} has already entered")
    played = live_rounds(tournament).count()
    waitlisted = (
        not started and tournament.cap is not None and _in_count(tournament) >= tournament.cap
    )
    if entry is None:
        entry = Entry(tournament=tournament, user=user, guest=guest, seed=_next_seed(tournament))
    entry.entered_after_round = played
    entry.dropped_after_round = None
    entry.waitlisted = waitlisted
    # Once check-in has closed, whoever enters is entered on the day, at the venue; so is a
    # walk-in, whom an organiser enters there.
    entry.checked_in = tournament.check_in_closed_at is not None or user is None
    # A walk-in has no account to be asked with: their entry stands as the organiser made it.
    entry.answer = Entry.Answer.ACCEPTED if user is None else _answer(user, by)
    entry.save()
    kind = "EntryWaitlisted" if waitlisted else "EntryAdded"
    walk_in = {"walk_in": True} if user is None else {}
    _log(tournament, kind, by, {"player": entry.name, "after_round": played, **walk_in})
    if tournament.check_in and not entry.checked_in and not started:
        notices.check_in_open(tournament, entry.user_id)
    return entry


def _refuse_a_walk_in_named(tournament: Tournament, name: str) -> None:
    """A member may not enter beside a walk-in of the same name (nor a walk-in beside a
    member): at one table their seats would read alike, and a report could not tell them
    apart."""
    if tournament.entries.filter(user__isnull=True, guest__iexact=name).exists():
        raise RuleViolation(
            f"a walk-in named {name} has entered: if that is you, claim the entry with the"
            " code on your slip; if not, one of you needs another form of the name"
        )


def _own_entry(tournament: Tournament, by: AbstractUser, player: str | None) -> Entry:
    """The entry ``by`` answers for: their own, or why not."""
    if player is not None and player != by.username:
        raise NotYourSeat("only the player entered may answer for their entry: answer your own")
    entry = tournament.entries.select_related("user").filter(user=by).first()
    if entry is None:
        raise Conflict(f"you have not been entered in {tournament.name}")
    return entry


@transaction.atomic
def entry_accept(*, tournament: Tournament, by: AbstractUser, player: str | None = None) -> Entry:
    """The player an organiser entered says yes: from now on the tournament's games at which
    everyone has agreed are rated, those already played included (league.consent)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = _own_entry(tournament, by, player)
    if entry.answer == Entry.Answer.ACCEPTED:
        raise Conflict("you have accepted this entry already")
    if entry.answer == Entry.Answer.DECLINED:
        raise Conflict("you declined this entry: an organiser may enter you again")
    entry.answer = Entry.Answer.ACCEPTED
    entry.save(update_fields=["answer"])
    _log(tournament, "EntryAccepted", by, {"player": by.username})
    _rate_held_games(tournament)
    return entry


@transaction.atomic
def entry_decline(*, tournament: Tournament, by: AbstractUser, player: str | None = None) -> Entry:
    """The player an organiser entered says no: they are withdrawn (before round 1 the first
    player waiting takes the place), and none of their games at it is rated."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = _own_entry(tournament, by, player)
    if entry.answer == Entry.Answer.ACCEPTED:
        raise Conflict("you have accepted this entry: to leave the tournament, drop out")
    if entry.answer == Entry.Answer.DECLINED:
        raise Conflict("you have declined this entry already")
    held_a_place = not entry.waitlisted and not entry.dropped
    entry.answer = Entry.Answer.DECLINED
    if not entry.dropped and tournament.status != Tournament.Status.FINISHED:
        entry.dropped_after_round = live_rounds(tournament).count()
    entry.waitlisted = False
    entry.save(update_fields=["answer", "dropped_after_round", "waitlisted"])
    _log(
        tournament,
        "EntryDeclined",
        by,
        {"player": by.username, "after_round": entry.dropped_after_round},
    )
    if held_a_place and not _started(tournament):
        _promote(tournament, by)
    return entry


def _rate_held_games(tournament: Tournament) -> None:
    """Once committed, ask the ratings to look again at the tournament's games held for want of
    someone's agreement (league.services.ratings releases those everyone now agrees to)."""
    held: dict[str, list[int]] = {}
    for game_id, slug in RatedGame.objects.filter(
        consent=RatedGame.Consent.WAITING, game__table__round__tournament=tournament
    ).values_list("game_id", "slug"):
        held.setdefault(slug, []).append(game_id)
    for slug, ids in held.items():
        one = ids[0] if len(ids) == 1 else None  # several: the sweep's pass over the game type
        steps.after_commit(
            f"rate {tournament.name}'s games held for consent",
            functools.partial(rate_finished_games.delay, slug, one),
        )


@transaction.atomic
def entry_drop(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """A drop: no further pairings; the games already played stand, and a game in progress is
    forfeited (league.services.tournaments.absent). A player may drop
    themself; the organisers may drop anyone. Before round 1 it is a withdrawal, and the
    first player waiting takes the place."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = _entry_named(tournament, player)
    player = entry.name
    if by.pk != entry.user_id:
        _require_organiser(tournament, by)
    if entry.dropped:
        raise RuleViolation(f"{player} has already dropped")
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    held_a_place = not entry.waitlisted
    entry.dropped_after_round = live_rounds(tournament).count()
    entry.waitlisted = False
    entry.save(update_fields=["dropped_after_round", "waitlisted"])
    _log(
        tournament, "EntryDropped", by, {"player": player, "after_round": entry.dropped_after_round}
    )
    if held_a_place and not _started(tournament):
        _promote(tournament, by)
    table = absent.table_in_play(tournament, entry)
    if table is not None:
        # Their game in progress is forfeited, so that the round can finish without them.
        absent.seat_forfeit(table, player, by=by, reason="dropped")
        where = {"round": table.round.number, "table": table.number}
        _log(tournament, "TableForfeited", by, {**where, "player": player, "reason": "dropped"})
    return entry


def _promote(tournament: Tournament, by, reason: str = "") -> list[str]:
    """Move waiting players up, first come first served, while the cap leaves room; once
    check-in has closed, only those who checked in (they are at the venue). Returns their
    names."""
    room = None if tournament.cap is None else tournament.cap - _in_count(tournament)
    waiting = tournament.entries.select_related("user").filter(waitlisted=True).order_by("seed")
    if tournament.check_in_closed_at is not None:
        waiting = waiting.filter(checked_in=True)
    promoted = []
    for entry in waiting if room is None else waiting[: max(room, 0)]:
        entry.waitlisted = False
        entry.save(update_fields=["waitlisted"])
        name = entry.name
        _log(
            tournament,
            "EntryPromoted",
            by,
            {"player": name, **({"reason": reason} if reason else {})},
        )
        _tell_in(tournament, entry, "A place came free")
        promoted.append(name)
    return promoted


def _tell_in(tournament: Tournament, entry: Entry, why: str) -> None:
    """Tell a player who was waiting that they are in (and to check in, if they must)."""
    notices.tell(
        [entry.user_id],
        "tournament",
        f"{why} in {tournament.name}: you are in",
        notices.tournament_url(tournament),
    )
    if tournament.check_in and not entry.checked_in:
        notices.check_in_open(tournament, entry.user_id)


@transaction.atomic
def entry_seat(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """An organiser seats a waiting player before round 1, beyond the cap if it is full (the
    cap stays: this is one exception, logged). Once check-in has closed they are checked in,
    as the organiser has them at the venue."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    entry = _entry_named(tournament, player)
    player = entry.name
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    if _started(tournament):
        raise RuleViolation("round 1 has been paired: enter a waiting player as a late entry")
    if not entry.waitlisted:
        raise RuleViolation(f"{player} is not waiting for a place")
    beyond_cap = tournament.cap is not None and _in_count(tournament) >= tournament.cap
    entry.waitlisted = False
    entry.checked_in = entry.checked_in or tournament.check_in_closed_at is not None
    entry.save(update_fields=["waitlisted", "checked_in"])
    _log(tournament, "EntrySeated", by, {"player": player, "beyond_cap": beyond_cap})
    _tell_in(tournament, entry, "An organiser gave you a place")
    return entry


@transaction.atomic
def check_in_close(*, tournament: Tournament, by: AbstractUser) -> list[str]:
    """An organiser closes check-in before pairing round 1, to see who is in: the players
    who have not checked in are dropped, and their places go to waiting players who have,
    in waitlist order. Returns the names promoted."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if not tournament.check_in:
        raise RuleViolation("this tournament has no check-in")
    if _started(tournament):
        raise RuleViolation("check-in closed when round 1 was paired")
    if tournament.check_in_closed_at is not None:
        raise RuleViolation("check-in is already closed")
    return _close_check_in(tournament, by)


def _close_check_in(tournament: Tournament, by) -> list[str]:
    """Drop the no-shows, fill their places from the waitlist (those who came, in order),
    and log it: by an organiser, or as round 1 is paired."""
    dropped = []
    for entry in tournament.entries.select_related("user").filter(
        waitlisted=False, dropped_after_round__isnull=True, checked_in=False
    ):
        entry.dropped_after_round = 0
        entry.save(update_fields=["dropped_after_round"])
        name = entry.name
        _log(
            tournament,
            "EntryDropped",
            by,
            {"player": name, "after_round": 0, "reason": "not checked in"},
        )
        dropped.append(name)
    tournament.check_in_closed_at = timezone.now()
    tournament.save(update_fields=["check_in_closed_at"])
    promoted = _promote(tournament, by, "a place freed at check-in")
    _log(tournament, "CheckInClosed", by, {"dropped": dropped, "promoted": promoted})
    notices.check_in_closed(tournament)
    return promoted


@transaction.atomic
def entry_reenter(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """An organiser puts a dropped player back in: they play from the next round paired (in
    Swiss and round robin; not once an elimination stage runs). The drop stays in the log."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    entry = _entry_named(tournament, player)
    player = entry.name
    if not entry.dropped:
        raise RuleViolation(f"{player} has not dropped: there is nothing to re-enter")
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    played = live_rounds(tournament).count()
    if played and (
        tournament.format in (Tournament.Format.ELIMINATION, Tournament.Format.DOUBLE_ELIMINATION)
        or (tournament.top_cut and played >= tournament.rounds)
    ):
        raise RuleViolation("a dropped player cannot re-enter once elimination has begun")
    if not played:
        return _enter(tournament, entry.user, by, guest="" if entry.user_id else entry.guest)
    entry.dropped_after_round = None
    entry.entered_after_round = played
    if entry.answer == Entry.Answer.DECLINED:
        # They said no: putting them back in asks them again (an answer they agreed to before
        # stands for the games played since, as a drop does not take it back).
        entry.answer = _answer(entry.user, by)
    entry.save(update_fields=["dropped_after_round", "entered_after_round", "answer"])
    _log(tournament, "EntryReentered", by, {"player": player, "after_round": played})
    return entry


@transaction.atomic
def entry_check_in(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """A player checks in (or an organiser checks them in) before round 1. Checking in
    yourself accepts the organisers' entry too."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = _entry_named(tournament, player)
    player = entry.name
    if by.pk != entry.user_id:
        _require_organiser(tournament, by)
    if not tournament.check_in:
        raise RuleViolation("this tournament has no check-in")
    if _started(tournament):
        raise RuleViolation("check-in closed when round 1 was paired")
    if tournament.check_in_closed_at is not None:
        raise RuleViolation("check-in is closed: an organiser may still give you a place")
    # A waiting player checks in too: at the venue, they take a place a no-show leaves.
    if entry.dropped:
        raise RuleViolation(f"{player} has withdrawn")
    if entry.checked_in:
        raise RuleViolation(f"{player} has already checked in")
    entry.checked_in = True
    entry.save(update_fields=["checked_in"])
    _log(tournament, "CheckedIn", by, {"player": player})
    notices.checked_in(tournament, entry.user_id)
    if by.pk == entry.user_id and entry.answer == Entry.Answer.INVITED:
        # Checking in yourself is saying yes: you are there to play.
        entry.answer = Entry.Answer.ACCEPTED
        entry.save(update_fields=["answer"])
        _log(tournament, "EntryAccepted", by, {"player": player})
    return entry


@transaction.atomic
def tournament_cap(*, tournament: Tournament, cap: Any, by: AbstractUser) -> Tournament:
    """Change the cap before round 1 (None: no cap); a higher one moves waiting players up.
    A cap below the players already in is refused."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if _started(tournament):
        raise RuleViolation("the field is set once round 1 is paired")
    cap = None if cap is None else _whole(cap, "cap", 2, 2000)
    holding = _in_count(tournament)
    if cap is not None and cap < holding:
        raise InvalidInput(f"the cap of {cap} is below the {holding} players already in")
    tournament.cap = cap
    tournament.save(update_fields=["cap"])
    _log(tournament, "CapChanged", by, {"cap": cap})
    _promote(tournament, by)
    return tournament
