"""HTTP API v1 for ratings and players."""

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import GameOut
from games.api.views import _game
from games.rules import registered
from accounts.errors import InvalidInput
from league import leagues, selectors, tournaments
from league.models import League, Tournament

User = get_user_model()


class LeaderboardEntryOut(serializers.Serializer):
    player = serializers.CharField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class LeaderboardApi(generics.ListAPIView):
    """The Elo leaderboard of one game: ``?game=SLUG``."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = LeaderboardEntryOut

    @extend_schema(parameters=[OpenApiParameter("game", str, required=True)])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        slug = self.request.query_params.get("game")
        if not slug:
            raise InvalidInput("give the game: ?game=SLUG")
        if slug not in registered():
            raise InvalidInput(f"unknown game {slug!r}")
        return selectors.leaderboard(slug)

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([selectors.rating_entry(r) for r in page])


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    is_bot = serializers.BooleanField()


class PlayerListApi(generics.ListAPIView):
    """Players (members and bots); ``?search=`` filters by name."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = PlayerOut

    def get_queryset(self):
        users = User.objects.filter(is_active=True).order_by("username")
        if self.request.query_params.get("search"):
            users = users.filter(username__icontains=self.request.query_params["search"])
        return users

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(
            [{"username": u.username, "is_bot": selectors.is_bot(u)} for u in page])


class PlayerDetailApi(APIView):
    """A player's ratings per game, each with its history, and recent games."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=dict)
    def get(self, request, username):
        user = get_object_or_404(User, username=username, is_active=True)
        return Response(selectors.player_record(user))


# -- club records ---------------------------------------------------------------------------------


class MatchIn(serializers.Serializer):
    game = serializers.CharField()
    played_at = serializers.CharField()
    results = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=8)
    league = serializers.CharField(required=False)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    bid = serializers.DictField(required=False)


def _record_out(pk) -> dict:
    return GameOut(_game(pk), context={"detail": True}).data


class MatchCreateApi(APIView):
    """Record a game played on a table. It is rated once every member it names has confirmed
    it (at once if it names only the recorder, or a league organiser recorded it)."""

    @extend_schema(request=MatchIn, responses={201: GameOut})
    def post(self, request):
        body = MatchIn(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        game = leagues.match_record(game=data["game"], played_at=data["played_at"],
                                    results=request.data["results"], league=data.get("league"),
                                    notes=data.get("notes", ""), bid=request.data.get("bid"),
                                    recorded_by=request.user)
        return Response(_record_out(game.pk), status=201)


class DisputeIn(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class MatchConfirmApi(APIView):
    """confirm/: a member named in the record agrees with it (a league organiser confirms it
    for everyone); dispute/: a named member says it is wrong, and it waits for a correction."""

    action = ""

    @extend_schema(request=DisputeIn, responses={201: GameOut})
    def post(self, request, pk):
        game = _game(pk)
        body = DisputeIn(data=request.data)
        body.is_valid(raise_exception=True)
        if self.action == "confirm":
            leagues.match_confirm(game=game, by=request.user)
        else:
            leagues.match_dispute(game=game, by=request.user,
                                  reason=body.validated_data.get("reason", ""))
        return Response(_record_out(pk), status=201)


class CorrectionIn(serializers.Serializer):
    results = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=8)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class MatchCorrectApi(APIView):
    """A correction: a new event with the new result; the ratings follow."""

    @extend_schema(request=CorrectionIn, responses={201: GameOut})
    def post(self, request, pk):
        game = _game(pk)
        body = CorrectionIn(data=request.data)
        body.is_valid(raise_exception=True)
        leagues.match_correct(game=game, results=request.data["results"], by=request.user,
                              reason=body.validated_data.get("reason", ""))
        return Response(_record_out(pk), status=201)


# -- leagues --------------------------------------------------------------------------------------


class LeagueIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(required=False, allow_blank=True)


def league_out(league: League) -> dict:
    members = league.membership_set.select_related("user").order_by("user__username")
    return {"slug": league.slug, "name": league.name, "description": league.description,
            "members": [{"player": m.user.username, "role": m.role} for m in members],
            "seasons": [{"id": s.pk, "name": s.name, "starts_on": s.starts_on,
                         "ends_on": s.ends_on} for s in league.seasons.all()],
            "tournaments": [{"id": t.pk, "name": t.name, "game": t.slug, "status": t.status}
                            for t in league.tournaments.all()],
            "standings": selectors.league_standings(league),
            "recent_games": [GameOut(g).data for g in league.games.order_by("-finished_at")
                             .prefetch_related("seats__user")[:20]]}


class LeagueListCreateApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get(self, request):
        return Response([{"slug": lg.slug, "name": lg.name, "members": lg.membership_set.count()}
                         for lg in League.objects.order_by("name")])

    @extend_schema(request=LeagueIn)
    def post(self, request):
        body = LeagueIn(data=request.data)
        body.is_valid(raise_exception=True)
        league = leagues.league_create(name=body.validated_data["name"],
                                       description=body.validated_data.get("description", ""),
                                       created_by=request.user)
        return Response(league_out(league), status=201)


class LeagueDetailApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get(self, request, slug):
        return Response(league_out(get_object_or_404(League, slug=slug)))


class MemberIn(serializers.Serializer):
    player = serializers.CharField()
    role = serializers.ChoiceField(choices=["member", "organiser"], default="member")


class LeagueMembersApi(APIView):
    @extend_schema(request=MemberIn)
    def post(self, request, slug):
        league = get_object_or_404(League, slug=slug)
        body = MemberIn(data=request.data)
        body.is_valid(raise_exception=True)
        leagues.member_add(league=league, player=body.validated_data["player"],
                           role=body.validated_data["role"], by=request.user)
        return Response(league_out(league), status=201)


class SeasonIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, allow_null=True)


class LeagueSeasonsApi(APIView):
    @extend_schema(request=SeasonIn)
    def post(self, request, slug):
        league = get_object_or_404(League, slug=slug)
        body = SeasonIn(data=request.data)
        body.is_valid(raise_exception=True)
        leagues.season_add(league=league, by=request.user, **body.validated_data)
        return Response(league_out(league), status=201)


# -- tournaments ----------------------------------------------------------------------------------


class TournamentIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    game = serializers.CharField()
    format = serializers.CharField()
    table_size = serializers.JSONField()
    rounds = serializers.JSONField(required=False, default=3)
    mode = serializers.CharField(default="online")
    players = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2000)
    options = serializers.DictField(required=False, default=dict)
    league = serializers.CharField(required=False)
    bye_points = serializers.JSONField(required=False, default=0)
    placement_points = serializers.JSONField(required=False, default=None)
    tiebreaks = serializers.JSONField(required=False, default=None)
    advance = serializers.JSONField(required=False, default=1)
    time_control = serializers.JSONField(required=False, default=None)


def tournament_out(t: Tournament) -> dict:
    return {"id": t.pk, "name": t.name, "game": t.slug, "format": t.format,
            "table_size": t.table_size, "rounds": t.rounds, "mode": t.mode,
            "options": t.options, "status": t.status, "bye_points": t.bye_points,
            "placement_points": t.placement_points, "tiebreaks": t.tiebreaks,
            "advance": t.advance, "league": t.league.slug if t.league else None,
            "time_control": t.time_control,
            "organisers": [u.username for u in t.organisers.all()],
            "players": [{"player": e.user.username, "seed": e.seed, "dropped": e.dropped}
                        for e in t.entries.select_related("user")],
            "rounds_played": [tournaments.round_out(r) for r in tournaments.live_rounds(t)]}


def _tournament(pk) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


class TournamentListCreateApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get(self, request):
        return Response([{"id": t.pk, "name": t.name, "game": t.slug, "format": t.format,
                          "mode": t.mode, "status": t.status}
                         for t in Tournament.objects.order_by("-created_at")[:200]])

    @extend_schema(request=TournamentIn)
    def post(self, request):
        body = TournamentIn(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        league = None
        if data.pop("league", None) is not None:
            league = League.objects.filter(slug=request.data["league"]).first()
            if league is None:
                raise InvalidInput(f"no league {request.data['league']!r}")
        t = tournaments.tournament_create(created_by=request.user, league=league, **data)
        return Response(tournament_out(t), status=201)


class TournamentDetailApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get(self, request, pk):
        return Response(tournament_out(_tournament(pk)))


class TournamentRoundsApi(APIView):
    """POST pairs the next round (organisers); GET lists the rounds."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    def get(self, request, pk):
        t = _tournament(pk)
        return Response([tournaments.round_out(r) for r in tournaments.live_rounds(t)])

    def post(self, request, pk):
        round_ = tournaments.round_pair(tournament=_tournament(pk), by=request.user)
        return Response(tournaments.round_out(round_), status=201)


class TournamentRepairApi(APIView):
    def post(self, request, pk, number):
        round_ = tournaments.round_repair(tournament=_tournament(pk), number=number,
                                          by=request.user)
        return Response(tournaments.round_out(round_), status=201)


class PlayerIn(serializers.Serializer):
    player = serializers.CharField()


class TournamentEntryApi(APIView):
    """enter/ (a late entry, organisers) and drop/ (organisers, or a player for themself)."""

    action = ""

    @extend_schema(request=PlayerIn)
    def post(self, request, pk):
        body = PlayerIn(data=request.data)
        body.is_valid(raise_exception=True)
        t = _tournament(pk)
        change = tournaments.entry_add if self.action == "enter" else tournaments.entry_drop
        change(tournament=t, player=body.validated_data["player"], by=request.user)
        return Response(tournament_out(t), status=201)


class ResultsIn(serializers.Serializer):
    results = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=8)
    bid = serializers.DictField(required=False)


class TableResultApi(APIView):
    """report/, confirm/ and override/ for a table-mode table."""

    action = ""

    @extend_schema(request=ResultsIn)
    def post(self, request, pk, table):
        t = _tournament(pk)
        body = ResultsIn(data=request.data)
        body.is_valid(raise_exception=True)
        table_ = tournaments.table_get(t, table)
        results, bid = request.data["results"], request.data.get("bid")
        if self.action == "report":
            state = tournaments.table_report(tournament=t, table=table_, user=request.user,
                                             results=results, bid=bid)
        elif self.action == "confirm":
            state = tournaments.table_confirm(tournament=t, table=table_, user=request.user,
                                              results=results)
        else:
            state = tournaments.table_override(tournament=t, table=table_, by=request.user,
                                               results=results, bid=bid)
        return Response(state, status=201)


class StandingsApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get(self, request, pk):
        return Response(tournaments.tournament_standings(_tournament(pk)))


class CsvApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    which = "standings"

    def get(self, request, pk):
        t = _tournament(pk)
        text = (tournaments.standings_csv(t) if self.which == "standings"
                else tournaments.results_csv(t))
        response = HttpResponse(text, content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="tournament-{t.pk}-{self.which}.csv"'
        return response
