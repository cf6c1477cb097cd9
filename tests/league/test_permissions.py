"""Who may report, confirm, log or settle a tournament table's result (league.permissions), as
the rulebook of a table: for each way a table can stand and each person looking at it, what they
may do; then the same on a real table, where the page offers exactly that and the API accepts
exactly that, refusing the rest in the permissions' own words."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import GameStatus
from league import selectors
from league.models import Table
from league.permissions import (
    TableAt,
    Viewer,
    may_confirm,
    may_log,
    may_override,
    may_report,
    why_not_confirm,
    why_not_log,
    why_not_override,
    why_not_report,
)
from league.services import table_logs, tournaments
from league.tournament_spec import TournamentSpec

DSA = "deep-sea-adventure"
ASKS = {"report": may_report, "confirm": may_confirm, "log": may_log, "override": may_override}
WHY_NOT = {
    "report": why_not_report,
    "confirm": why_not_confirm,
    "log": why_not_log,
    "override": why_not_override,
}
NOTHING: set[str] = set()
ROLES = ("reporter", "opponent", "organiser", "member", "anonymous")
# Ann and Ben sit at the table; Ann reports first. The organiser does not play; Cat plays at
# another table.
MAY = {
    "awaiting report": {
        "reporter": {"report", "log"},
        "opponent": {"report", "log"},
        "organiser": {"log", "override"},
        "member": NOTHING,
        "anonymous": NOTHING,
    },
    # Ann may still correct her report; Ben confirms it, or disputes it with another result.
    "awaiting confirmation": {
        "reporter": {"report"},
        "opponent": {"confirm"},
        "organiser": {"override"},
        "member": NOTHING,
        "anonymous": NOTHING,
    },
    # The players disagree: the organiser decides.
    "disputed": {
        "reporter": NOTHING,
        "opponent": NOTHING,
        "organiser": {"override"},
        "member": NOTHING,
        "anonymous": NOTHING,
    },
    # Final: only the organiser's correction changes it.
    "final": {
        "reporter": NOTHING,
        "opponent": NOTHING,
        "organiser": {"override"},
        "member": NOTHING,
        "anonymous": NOTHING,
    },
    # A game played here, or a table kept move by move: the game gives the result.
    "played here": dict.fromkeys(ROLES, NOTHING),
    "kept as a table log": dict.fromkeys(ROLES, NOTHING),
}

SEATS = ("ann", "ben")
AT = {
    "awaiting report": TableAt(
        seats=SEATS, game=GameStatus.ACTIVE, report=Table.Report.AWAITING_REPORT
    ),
    "awaiting confirmation": TableAt(
        seats=SEATS,
        game=GameStatus.ACTIVE,
        report=Table.Report.AWAITING_CONFIRMATION,
        confirmed_by=("ann",),
    ),
    "disputed": TableAt(
        seats=SEATS, game=GameStatus.ACTIVE, report=Table.Report.DISPUTED, confirmed_by=("ann",)
    ),
    "final": TableAt(
        seats=SEATS,
        game=GameStatus.FINISHED,
        report=Table.Report.FINAL,
        confirmed_by=("ann", "ben"),
    ),
    "played here": TableAt(seats=SEATS, game=GameStatus.ACTIVE),
    "kept as a table log": TableAt(seats=SEATS, game=GameStatus.ACTIVE),
}
VIEWERS = {
    "reporter": Viewer(name="ann", organiser=False),
    "opponent": Viewer(name="ben", organiser=False),
    "organiser": Viewer(name="org", organiser=True),
    "member": Viewer(name="cat", organiser=False),
    "anonymous": Viewer(name=None, organiser=False),
}


def allowed(viewer: Viewer, table: TableAt) -> set[str]:
    return {what for what, may in ASKS.items() if may(viewer, table)}


@pytest.mark.parametrize("status", MAY)
def test_who_may_do_what_at_a_table(status):
    for role, viewer in VIEWERS.items():
        assert allowed(viewer, AT[status]) == MAY[status][role], role


def test_a_report_of_a_result_another_reported_is_taken_but_not_offered():
    # It confirms that result, or disputes it with another (games.records.table_results.result_report).
    opponent, reported = VIEWERS["opponent"], AT["awaiting confirmation"]
    assert why_not_report(opponent, reported) is None and not may_report(opponent, reported)
    refusal = why_not_report(VIEWERS["reporter"], AT["disputed"])
    assert (
        refusal is not None
        and str(refusal) == "the result is disputed: the organiser decides it now"
    )


def test_an_organiser_at_the_table_plays_as_a_player_and_settles_as_an_organiser():
    playing = Viewer(name="ann", organiser=True)
    assert allowed(playing, AT["awaiting report"]) == {"report", "log", "override"}
    assert allowed(playing, AT["awaiting confirmation"]) == {"report", "override"}


def test_a_refusal_says_why_and_with_which_status():
    refusal = why_not_report(VIEWERS["member"], AT["awaiting report"])
    assert refusal is not None and refusal.status == 403
    refusal = why_not_confirm(VIEWERS["reporter"], AT["awaiting confirmation"])
    assert refusal is not None and str(refusal) == "you have already confirmed this result"


# -- on a real table: the page and the API ---------------------------------------------------------


def _result(seats, winner: int) -> list[dict]:
    return [
        {"player": name, "rank": 1 if i == winner else 2, "score": 10 if i == winner else 5}
        for i, name in enumerate(seats)
    ]


@pytest.fixture
def standing(request, make_user):
    """A table of round 1 standing as ``status`` says, with who looks at it."""
    status = request.param
    organiser = make_user("org")
    users = {name: make_user(name) for name in ("ann", "ben", "cat", "dan")}
    cup = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Spring open",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="online" if status == "played here" else "table",
            players=list(users),
        ),
        created_by=organiser,
    )
    table = tournaments.round_pair(tournament=cup, by=organiser).tables.order_by("number")[0]
    seats = selectors.table_out(table)["seats"]
    first, second = (users[name] for name in seats)
    if status in ("awaiting confirmation", "disputed", "final"):
        tournaments.table_report(tournament=cup, table=table, user=first, results=_result(seats, 0))
    if status in ("disputed", "final"):
        tournaments.table_confirm(
            tournament=cup,
            table=tournaments.table_get(cup, table.pk),
            user=second,
            results=_result(seats, 1 if status == "disputed" else 0),
        )
    if status == "kept as a table log":
        table_logs.table_log_start(tournament=cup, table=table, by=organiser)
    elsewhere = next(user for name, user in users.items() if name not in seats)
    people = {"reporter": first, "opponent": second, "organiser": organiser, "member": elsewhere}
    return status, cup, tournaments.table_get(cup, table.pk), seats, people


def _panel(client, cup, table):
    page = client.get(reverse("tournament-detail", args=[cup.pk]))
    assert page.status_code == 200
    return next(p for r in page.context["rounds"] for p in r["tables"] if p.id == table.pk)


def _offered(panel) -> set[str]:
    offered = {
        "report": panel.report_form is not None,
        "confirm": panel.confirm_version is not None and panel.dispute_form is not None,
        "log": panel.may_log,
        "override": panel.may_override,
    }
    return {what for what, shown in offered.items() if shown}


def _send(client, cup, table, seats, what: str):
    """The API's answer to ``what``, undone once answered (the next question asks of the table
    as it stood)."""
    body = None if what == "log" else {"results": _result(seats, 0)}
    with transaction.atomic():
        response = client.post(
            f"/api/tournaments/{cup.pk}/tables/{table.pk}/{what}/", body, format="json"
        )
        transaction.set_rollback(True)
    return response


@pytest.mark.django_db
@pytest.mark.parametrize("standing", list(MAY), indirect=True)
@pytest.mark.parametrize("role", ROLES)
def test_the_page_offers_and_the_api_takes_what_the_permissions_allow(
    client, api_for, standing, role
):
    status, cup, table, seats, people = standing
    user = people.get(role)
    viewer = Viewer.of(cup, user) if user else Viewer(name=None, organiser=False)
    at = TableAt.of(selectors.table_out(table))
    assert allowed(viewer, at) == MAY[status][role]

    if user is not None:
        client.force_login(user)
    assert _offered(_panel(client, cup, table)) == MAY[status][role]

    api = api_for(user) if user else APIClient()
    for what in ASKS:
        response = _send(api, cup, table, seats, what)
        # A report of a result another player reported confirms it (or disputes it).
        takes = {"report", "confirm"} if what == "report" else {what}
        if takes & MAY[status][role]:
            assert response.status_code == 201, (what, response.json())
            continue
        assert response.status_code in (400, 401, 403, 409, 422), (what, response.json())
        refusal = WHY_NOT[what](viewer, at)
        online_log = status == "played here" and what == "log"  # refused before: not on tables
        if user is not None and not online_log:
            assert refusal is not None, what
            assert (response.status_code, response.json()["error"]) == (
                refusal.status,
                str(refusal),
            ), what
