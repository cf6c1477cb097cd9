"""The organisers running the event from its page: its settings, pairing a round and pairing it
again, the draft (its edits, publishing or discarding it), the tables players always sit at,
and the round clock (start, pause, resume, extend)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.views.decorators.http import require_POST

from core import inputs
from core.errors import InvalidInput, RuleViolation
from league import selectors, visibility
from league.forms import TournamentEditForm
from league.models import Tournament
from league.services import tournaments
from league.tournament_pages.actions import attempt, simple_post


@login_required
@require_POST
def tournament_edit(request, pk: int):
    """The organisers' "Edit" form: the settings changed, as far as the state allows."""
    tournament = visibility.tournament_or_404(pk, request.user)
    started = selectors.live_rounds(tournament).exists()
    form = TournamentEditForm(request.POST, tournament=tournament, started=started)

    def edit() -> str:
        changes = form.changes()
        if not changes:
            return "Nothing was changed."
        tournaments.tournament_edit(tournament=tournament, changes=changes, by=request.user)
        return "The tournament's settings are saved."

    return attempt(request, tournament, edit, form=form, key="edit", anchor="#edit")


def _pair(tournament, request) -> str:
    draft = request.POST.get("draft") == "yes"  # the page's "Pair round N" drafts
    try:
        round_ = tournaments.round_pair(tournament=tournament, by=request.user, draft=draft)
    except RuleViolation:
        # Pairing after the last round closes the tournament, and says so by refusing.
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.FINISHED:
            raise
        return "Every round has been played: the tournament is over."
    if draft:
        return f"Round {round_.number} is drafted: nobody sees it until you publish it."
    return f"Round {round_.number} is paired."


def _repair(tournament, request, number: int) -> str:
    tournaments.round_repair(tournament=tournament, number=number, by=request.user)
    return f"Round {number} is paired again."


def _draft_edit(tournament, request, number: int) -> str:
    """One edit of the draft from its forms: swap, fix, give (a bye) or seat (take it back)."""
    post = request.POST
    action = post.get("action", "")
    edit: dict[str, Any]
    if action == "swap":
        edit = {"swap": [post.get("player", ""), post.get("other", "")]}
    elif action == "fix":
        table = inputs.whole_number_or_none(post.get("table", ""), 1, 999)
        edit = {"fix": {"player": post.get("player", ""), "table": table or post.get("table")}}
    elif action in ("give", "seat"):
        edit = {"bye": {"player": post.get("player", ""), "give": action == "give"}}
    else:
        raise InvalidInput("choose an edit: swap, fix to a table, or a bye")
    _, costs = tournaments.draft_edit(
        tournament=tournament, number=number, by=request.user, edit=edit
    )
    done = {
        "swap": "Swapped.",
        "fix": "Moved.",
        "give": "Bye given.",
        "seat": "Bye taken back.",
    }[action]
    return " ".join([done, *(f"{cost[0].upper()}{cost[1:]}." for cost in costs)])


def _draft_publish(tournament, request, number: int) -> str:
    tournaments.draft_publish(tournament=tournament, number=number, by=request.user)
    return f"Round {number} is published: its players have been told."


def _draft_discard(tournament, request, number: int) -> str:
    tournaments.draft_discard(tournament=tournament, number=number, by=request.user)
    return f"The draft of round {number} is discarded."


def _fixed_table(tournament, request) -> str:
    raw = request.POST.get("table", "").strip()
    table = inputs.whole_number_or_none(raw, 1, 999) if raw else None
    if raw and table is None:
        raise InvalidInput("the table must be a whole number from 1 to 999, or empty for none")
    entry = tournaments.entry_fix_table(
        tournament=tournament, player=request.POST.get("player", ""), table=table, by=request.user
    )
    if table is None:
        return f"{entry.name} may sit at any table."
    return f"{entry.name} sits at table {table} in every round paired from now on."


def _round_start(tournament, request, number: int) -> str:
    round_ = tournaments.round_start(
        tournament=tournament,
        number=number,
        by=request.user,
        minutes=request.POST.get("minutes"),
    )
    return f"Round {number}'s clock is running: {round_.minutes} minutes."


def _round_clock(tournament, request, number: int, action: str) -> str:
    """Pause, resume or extend a round's clock, from the buttons under the round."""
    if action == "extend":
        round_ = tournaments.round_extend(
            tournament=tournament,
            number=number,
            by=request.user,
            minutes=request.POST.get("minutes"),
        )
        return f"Round {number} now lasts {round_.minutes} minutes."
    if action == "pause":
        tournaments.round_pause(tournament=tournament, number=number, by=request.user)
        return f"Round {number}'s clock is paused."
    tournaments.round_resume(tournament=tournament, number=number, by=request.user)
    return f"Round {number}'s clock is running again."


def _finish(tournament, request) -> str:
    tournament = tournaments.tournament_finish(tournament=tournament, by=request.user)
    champion = selectors.tournament_champion(tournament)
    return "The tournament is over" + (f": {champion} won." if champion else ".")


tournament_pair = simple_post(_pair, anchor="#rounds")
tournament_finish = simple_post(_finish, anchor="#champion")
tournament_repair = simple_post(_repair, anchor="#rounds")
tournament_draft_edit = simple_post(_draft_edit, anchor="#draft")
tournament_draft_publish = simple_post(_draft_publish, anchor="#rounds")
tournament_draft_discard = simple_post(_draft_discard, anchor="#organiser")
tournament_fixed_table = simple_post(_fixed_table, anchor="#organiser")
tournament_round_start = simple_post(_round_start, anchor="#rounds")
tournament_round_clock = simple_post(_round_clock, anchor="#rounds")
