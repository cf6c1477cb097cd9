"""Tournament services: create, pair rounds, report results, standings, drops and late entry.

The maths is pure (league/pairing.py, league/standings.py); these modules feed it from the
database and write what it decides. Online tables are games played in the service and report
themselves when they end; table-mode tables are recorded games whose seated players report
and confirm (games/records/services.py). Every organiser action is logged in TournamentEvent.

The rooms, each importing only those before it:

- ``common``: entrants by name, the tournament's log, who may act;
- ``creating``: a tournament from its checked spec;
- ``absent``: an absent player's part at a table ended (a forfeit, a drop);
- ``entries``: entering, registering, answering, dropping, re-entering, check-in, the cap;
- ``walk_ins``: a walk-in entered by name, without an account, and the member who claims the
  entry later with its code;
- ``formats``: double elimination's bracket rounds and ties, pools and their playoff's seeds;
- ``elimination``: the bracket of an elimination event, top cut or pools' playoff;
- ``pairings``: the next round's pairing, decided from the standings and the format;
- ``rounds``: pairing a round (and again), and the end of the tournament;
- ``drafts``: the organiser's desk: a round's draft, its edits, publishing it; fixed tables;
- ``editing``: changing the settings after creation, as far as the state allows;
- ``clock``: the round clock at a venue (start, pause, resume, extend, a table's extra time);
- ``tables``: results of tables played on a table (report, confirm, override), ties at a
  bracket's table broken by an organiser, and a table forfeited or adjudicated when a player
  is absent;
- ``exports``: standings.csv and results.csv.

Callers use the names this package exports.
"""

from league.services.tournaments.clock import (
    round_extend,
    round_pause,
    round_resume,
    round_start,
    table_extra_time,
)
from league.services.tournaments.creating import tournament_create
from league.services.tournaments.drafts import (
    draft_discard,
    draft_edit,
    draft_publish,
    entry_fix_table,
)
from league.services.tournaments.editing import tournament_edit
from league.services.tournaments.elimination import tournament_bracket
from league.services.tournaments.entries import (
    check_in_close,
    entry_accept,
    entry_add,
    entry_check_in,
    entry_decline,
    entry_drop,
    entry_reenter,
    entry_register,
    entry_seat,
    tournament_cap,
)
from league.services.tournaments.exports import results_csv, standings_csv
from league.services.tournaments.rounds import (
    round_pair,
    round_repair,
    tournament_finish,
    tournaments_end_if_over,
    why_not_finishable,
    why_not_repairable,
)
from league.services.tournaments.tables import (
    table_confirm,
    table_forfeit,
    table_get,
    table_override,
    table_report,
    table_tiebreak,
)
from league.services.tournaments.walk_ins import entry_claim, entry_walk_in

__all__ = [
    "draft_discard",
    "draft_edit",
    "draft_publish",
    "check_in_close",
    "entry_accept",
    "entry_claim",
    "entry_add",
    "entry_check_in",
    "entry_decline",
    "entry_drop",
    "entry_fix_table",
    "entry_reenter",
    "entry_register",
    "entry_seat",
    "entry_walk_in",
    "results_csv",
    "round_extend",
    "round_pair",
    "round_pause",
    "round_repair",
    "round_resume",
    "round_start",
    "standings_csv",
    "table_confirm",
    "table_extra_time",
    "table_forfeit",
    "table_get",
    "table_override",
    "table_report",
    "table_tiebreak",
    "tournament_bracket",
    "tournament_cap",
    "tournament_create",
    "tournament_edit",
    "tournament_finish",
    "tournaments_end_if_over",
    "why_not_finishable",
    "why_not_repairable",
]
