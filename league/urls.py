"""Pages for ratings and players, leagues, tournaments and club records."""

from django.urls import path

from league import account, club_views, table_log_views, views, webhook_views
from league.tournament_pages import (
    actions_entries,
    actions_rounds,
    actions_tables,
    index,
    page,
    printouts,
)

urlpatterns = [
    path("accounts/delete/", account.account_erase, name="account-erase"),
    path("accounts/data/", account.account_data, name="account-data"),
    path("accounts/bot/", account.account_bot, name="account-bot"),
    path("ratings/", views.ratings_index, name="ratings"),
    path("ratings/how/", views.ratings_how, name="ratings_how"),
    path("ratings/<slug:slug>/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.player, name="player"),
    path("leagues/", views.league_list, name="leagues"),
    path("leagues/<slug:slug>/", views.league_detail, name="league-detail"),
    path(
        "leagues/<slug:slug>/standings.csv",
        views.league_standings_csv,
        name="league-standings-csv",
    ),
    path("leagues/<slug:slug>/members/", views.league_member_add, name="league-member-add"),
    path("join/<str:code>/", club_views.club_join, name="club-join"),
    path("leagues/<slug:slug>/ask/", club_views.club_ask, name="club-ask"),
    path("leagues/<slug:slug>/settings/", club_views.club_settings, name="club-settings"),
    path("leagues/<slug:slug>/links/", club_views.club_link_new, name="club-link-new"),
    path("leagues/<slug:slug>/webhooks/", webhook_views.webhook_new, name="club-webhook-new"),
    path(
        "leagues/<slug:slug>/webhooks/<id:pk>/<str:action>/",
        webhook_views.webhook_action,
        name="club-webhook",
    ),
    path(
        "leagues/<slug:slug>/links/<id:pk>/revoke/",
        club_views.club_link_revoke,
        name="club-link-revoke",
    ),
    path(
        "leagues/<slug:slug>/requests/<str:player>/<str:answer>/",
        club_views.club_request_answer,
        name="club-request-answer",
    ),
    path(
        "leagues/<slug:slug>/members/<str:player>/<str:action>/",
        club_views.club_member,
        name="club-member",
    ),
    path("leagues/<slug:slug>/leave/", club_views.club_leave, name="club-leave"),
    path(
        "tournaments/<id:pk>/organisers/<str:action>/",
        club_views.tournament_organiser,
        name="tournament-organiser",
    ),
    path(
        "leagues/<slug:slug>/accept/",
        views.league_invitation_answer,
        {"answer": "accept"},
        name="league-accept",
    ),
    path(
        "leagues/<slug:slug>/decline/",
        views.league_invitation_answer,
        {"answer": "decline"},
        name="league-decline",
    ),
    path("leagues/<slug:slug>/seasons/", views.league_season_add, name="league-season-add"),
    path(
        "leagues/<slug:slug>/seasons/tournament/",
        views.league_season_tournament,
        name="league-season-tournament",
    ),
    path("leagues/<slug:slug>/import/", views.league_plays_import, name="league-plays-import"),
    path("leagues/<slug:slug>/export/", views.league_plays_export, name="league-plays-export"),
    path("matches/new/", views.match_new, name="match-new"),
    path("matches/<id:pk>/correct/", views.match_correct, name="match-correct"),
    path(
        "matches/<id:pk>/confirm/", views.match_answer, {"answer": "confirm"}, name="match-confirm"
    ),
    path(
        "matches/<id:pk>/dispute/", views.match_answer, {"answer": "dispute"}, name="match-dispute"
    ),
    path("tournaments/", index.tournament_list, name="tournaments"),
    path("tournaments/new/", index.tournament_new, name="tournament-new"),
    path("tournaments/<id:pk>/", page.tournament_detail, name="tournament-detail"),
    path("tournaments/<id:pk>/pair/", actions_rounds.tournament_pair, name="tournament-pair"),
    path(
        "tournaments/<id:pk>/finish/",
        actions_rounds.tournament_finish,
        name="tournament-finish",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/repair/",
        actions_rounds.tournament_repair,
        name="tournament-repair",
    ),
    path("tournaments/<id:pk>/enter/", actions_entries.tournament_enter, name="tournament-enter"),
    path("tournaments/<id:pk>/drop/", actions_entries.tournament_drop, name="tournament-drop"),
    path(
        "tournaments/<id:pk>/walk-in/",
        actions_entries.tournament_walk_in,
        name="tournament-walk-in",
    ),
    path("tournaments/<id:pk>/claim/", actions_entries.tournament_claim, name="tournament-claim"),
    path(
        "tournaments/<id:pk>/reenter/",
        actions_entries.tournament_reenter,
        name="tournament-reenter",
    ),
    path(
        "tournaments/<id:pk>/accept/",
        actions_entries.tournament_entry_answer,
        {"answer": "accept"},
        name="tournament-accept",
    ),
    path(
        "tournaments/<id:pk>/decline/",
        actions_entries.tournament_entry_answer,
        {"answer": "decline"},
        name="tournament-decline",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/draft/",
        actions_rounds.tournament_draft_edit,
        name="tournament-draft-edit",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/publish/",
        actions_rounds.tournament_draft_publish,
        name="tournament-draft-publish",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/discard/",
        actions_rounds.tournament_draft_discard,
        name="tournament-draft-discard",
    ),
    path(
        "tournaments/<id:pk>/fixed-table/",
        actions_rounds.tournament_fixed_table,
        name="tournament-fixed-table",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/print/",
        printouts.tournament_print,
        name="tournament-print",
    ),
    path(
        "tournaments/<id:pk>/projector/",
        printouts.tournament_projector,
        name="tournament-projector",
    ),
    path(
        "tournaments/<id:pk>/register/",
        actions_entries.tournament_register,
        name="tournament-register",
    ),
    path(
        "tournaments/<id:pk>/checkin/",
        actions_entries.tournament_check_in,
        name="tournament-checkin",
    ),
    path(
        "tournaments/<id:pk>/checkin/close/",
        actions_entries.tournament_check_in_close,
        name="tournament-checkin-close",
    ),
    path("tournaments/<id:pk>/seat/", actions_entries.tournament_seat, name="tournament-seat"),
    path("tournaments/<id:pk>/edit/", actions_rounds.tournament_edit, name="tournament-edit"),
    path(
        "tournaments/<id:pk>/tables/<id:table>/tiebreak/",
        actions_tables.tournament_tiebreak,
        name="tournament-tiebreak",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/start/",
        actions_rounds.tournament_round_start,
        name="tournament-round-start",
    ),
    *[
        path(
            f"tournaments/<id:pk>/rounds/<id:number>/{action}/",
            actions_rounds.tournament_round_clock,
            {"action": action},
            name=f"tournament-round-{action}",
        )
        for action in ("pause", "resume", "extend")
    ],
    path(
        "tournaments/<id:pk>/tables/<id:table>/forfeit/",
        actions_tables.tournament_table_forfeit,
        name="table-forfeit",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/extra-time/",
        actions_tables.tournament_table_extra_time,
        name="table-extra-time",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/report/",
        actions_tables.table_result,
        {"action": "report"},
        name="table-report",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/confirm/",
        actions_tables.table_result,
        {"action": "confirm"},
        name="table-confirm",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/override/",
        actions_tables.table_result,
        {"action": "override"},
        name="table-override",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/log/",
        table_log_views.table_log,
        name="table-log",
    ),
]
