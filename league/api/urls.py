from django.urls import path

from accounts.scopes import ORGANISE
from league import table_log_views
from league.api import tournaments, views, webhooks

urlpatterns = [
    path("me/data/", views.MeDataApi.as_view(), name="api-me-data"),
    path("me/data/archive/", views.MeDataArchiveApi.as_view(), name="api-me-data-archive"),
    path("me/bot/", views.MeBotApi.as_view(), name="api-me-bot"),
    path("ratings/", views.LeaderboardApi.as_view(), name="api-ratings"),
    path("players/", views.PlayerListApi.as_view(), name="api-players"),
    path("players/<str:username>/", views.PlayerDetailApi.as_view(), name="api-player"),
    path("matches/", views.MatchCreateApi.as_view(), name="api-matches"),
    path("matches/<id:pk>/correct/", views.MatchCorrectApi.as_view(), name="api-match-correct"),
    path(
        "matches/<id:pk>/confirm/",
        views.MatchAnswerApi.as_view(action="confirm"),
        name="api-match-confirm",
    ),
    path(
        "matches/<id:pk>/dispute/",
        views.MatchAnswerApi.as_view(action="dispute"),
        name="api-match-dispute",
    ),
    path("leagues/", views.LeagueListCreateApi.as_view(), name="api-leagues"),
    path("leagues/<slug:slug>/", views.LeagueDetailApi.as_view(), name="api-league"),
    path(
        "leagues/<slug:slug>/standings/",
        views.LeagueStandingsApi.as_view(),
        name="api-league-standings",
    ),
    path(
        "leagues/<slug:slug>/members/", views.LeagueMembersApi.as_view(), name="api-league-members"
    ),
    path(
        "leagues/<slug:slug>/members/<str:player>/",
        views.LeagueMemberApi.as_view(),
        name="api-league-member",
    ),
    path(
        "leagues/<slug:slug>/webhooks/",
        webhooks.WebhooksApi.as_view(),
        name="api-league-webhooks",
    ),
    path(
        "leagues/<slug:slug>/webhooks/<id:pk>/",
        webhooks.WebhookApi.as_view(),
        name="api-league-webhook",
    ),
    path(
        "leagues/<slug:slug>/webhooks/<id:pk>/test/",
        webhooks.WebhookTestApi.as_view(),
        name="api-league-webhook-test",
    ),
    path(
        "leagues/<slug:slug>/webhooks/<id:pk>/resume/",
        webhooks.WebhookResumeApi.as_view(),
        name="api-league-webhook-resume",
    ),
    path(
        "leagues/<slug:slug>/webhooks/<id:pk>/deliveries/",
        webhooks.WebhookDeliveriesApi.as_view(),
        name="api-league-webhook-deliveries",
    ),
    path("leagues/<slug:slug>/leave/", views.LeagueLeaveApi.as_view(), name="api-league-leave"),
    path("leagues/<slug:slug>/owner/", views.LeagueOwnerApi.as_view(), name="api-league-owner"),
    path("leagues/<slug:slug>/links/", views.InviteLinksApi.as_view(), name="api-league-links"),
    path(
        "leagues/<slug:slug>/links/<id:pk>/",
        views.InviteLinkApi.as_view(),
        name="api-league-link",
    ),
    path(
        "leagues/<slug:slug>/requests/",
        views.JoinRequestsApi.as_view(),
        name="api-league-requests",
    ),
    path(
        "leagues/<slug:slug>/requests/<str:player>/accept/",
        views.JoinAnswerApi.as_view(action="accept"),
        name="api-league-request-accept",
    ),
    path(
        "leagues/<slug:slug>/requests/<str:player>/decline/",
        views.JoinAnswerApi.as_view(action="decline"),
        name="api-league-request-decline",
    ),
    path("invites/<str:code>/", views.InviteApi.as_view(), name="api-invite"),
    path(
        "leagues/<slug:slug>/accept/",
        views.LeagueInvitationAnswerApi.as_view(action="accept"),
        name="api-league-accept",
    ),
    path(
        "leagues/<slug:slug>/decline/",
        views.LeagueInvitationAnswerApi.as_view(action="decline"),
        name="api-league-decline",
    ),
    path("me/invitations/", views.MyInvitationsApi.as_view(), name="api-me-invitations"),
    path(
        "leagues/<slug:slug>/seasons/", views.LeagueSeasonsApi.as_view(), name="api-league-seasons"
    ),
    path("tournaments/", tournaments.TournamentListCreateApi.as_view(), name="api-tournaments"),
    path("tournaments/<id:pk>/", tournaments.TournamentDetailApi.as_view(), name="api-tournament"),
    path(
        "tournaments/<id:pk>/rounds/",
        tournaments.TournamentRoundsApi.as_view(),
        name="api-tournament-rounds",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/repair/",
        tournaments.TournamentRepairApi.as_view(),
        name="api-tournament-repair",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/draft/",
        tournaments.TournamentDraftApi.as_view(),
        name="api-tournament-draft",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/publish/",
        tournaments.TournamentPublishApi.as_view(),
        name="api-tournament-publish",
    ),
    path(
        "tournaments/<id:pk>/fixed-table/",
        tournaments.TournamentFixedTableApi.as_view(),
        name="api-tournament-fixed-table",
    ),
    path(
        "tournaments/<id:pk>/enter/",
        tournaments.TournamentEntryApi.as_view(action="enter"),
        name="api-tournament-enter",
    ),
    path(
        "tournaments/<id:pk>/drop/",
        tournaments.TournamentEntryApi.as_view(action="drop"),
        name="api-tournament-drop",
    ),
    path(
        "tournaments/<id:pk>/accept/",
        tournaments.TournamentEntryAnswerApi.as_view(action="accept"),
        name="api-tournament-accept",
    ),
    path(
        "tournaments/<id:pk>/decline/",
        tournaments.TournamentEntryAnswerApi.as_view(action="decline"),
        name="api-tournament-decline",
    ),
    path(
        "tournaments/<id:pk>/organisers/",
        tournaments.TournamentOrganisersApi.as_view(),
        name="api-tournament-organisers",
    ),
    path(
        "tournaments/<id:pk>/organisers/<str:player>/",
        tournaments.TournamentOrganiserApi.as_view(),
        name="api-tournament-organiser",
    ),
    path(
        "tournaments/<id:pk>/reenter/",
        tournaments.TournamentReenterApi.as_view(),
        name="api-tournament-reenter",
    ),
    path(
        "tournaments/<id:pk>/register/",
        tournaments.TournamentRegisterApi.as_view(),
        name="api-tournament-register",
    ),
    path(
        "tournaments/<id:pk>/finish/",
        tournaments.TournamentFinishApi.as_view(),
        name="api-tournament-finish",
    ),
    path(
        "tournaments/<id:pk>/walk-ins/",
        tournaments.TournamentWalkInsApi.as_view(),
        name="api-tournament-walk-ins",
    ),
    path(
        "tournaments/<id:pk>/claim/",
        tournaments.TournamentClaimApi.as_view(),
        name="api-tournament-claim",
    ),
    path(
        "tournaments/<id:pk>/checkin/",
        tournaments.TournamentCheckInApi.as_view(),
        name="api-tournament-checkin",
    ),
    path(
        "tournaments/<id:pk>/checkin/close/",
        tournaments.TournamentCheckInCloseApi.as_view(),
        name="api-tournament-checkin-close",
    ),
    path(
        "tournaments/<id:pk>/seat/",
        tournaments.TournamentSeatApi.as_view(),
        name="api-tournament-seat",
    ),
    path(
        "tournaments/<id:pk>/cap/",
        tournaments.TournamentCapApi.as_view(),
        name="api-tournament-cap",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/start/",
        tournaments.TournamentRoundStartApi.as_view(),
        name="api-tournament-round-start",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/report/",
        tournaments.TableResultApi.as_view(action="report"),
        name="api-table-report",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/confirm/",
        tournaments.TableResultApi.as_view(action="confirm"),
        name="api-table-confirm",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/override/",
        tournaments.TableResultApi.as_view(action="override", scopes={"POST": ORGANISE}),
        name="api-table-override",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/log/",
        table_log_views.TableLogApi.as_view(),
        name="api-table-log",
    ),
    *[
        path(
            f"tournaments/<id:pk>/rounds/<id:number>/{action}/",
            tournaments.TournamentRoundPauseApi.as_view(action=action),
            name=f"api-tournament-round-{action}",
        )
        for action in ("pause", "resume")
    ],
    path(
        "tournaments/<id:pk>/rounds/<id:number>/extend/",
        tournaments.TournamentRoundExtendApi.as_view(),
        name="api-tournament-round-extend",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/extra-time/",
        tournaments.TableExtraTimeApi.as_view(),
        name="api-tournament-table-extra-time",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/forfeit/",
        tournaments.TableForfeitApi.as_view(),
        name="api-tournament-table-forfeit",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:table>/tiebreak/",
        tournaments.TableTiebreakApi.as_view(),
        name="api-table-tiebreak",
    ),
    path(
        "tournaments/<id:pk>/bracket/",
        tournaments.BracketApi.as_view(),
        name="api-tournament-bracket",
    ),
    path(
        "tournaments/<id:pk>/standings/",
        tournaments.StandingsApi.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<id:pk>/standings.csv",
        tournaments.CsvApi.as_view(which="standings"),
        name="api-tournament-standings-csv",
    ),
    path(
        "tournaments/<id:pk>/results.csv",
        tournaments.CsvApi.as_view(which="results"),
        name="api-tournament-results-csv",
    ),
]
