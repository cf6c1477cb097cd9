"""HTTP API v1 for games: one class per operation; views parse, services act."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import CheckedByWrite, TokenAuthentication
from accounts.scopes import PLAY, PLAY_OR_TABLE_LOG, READ, RECORD, HasScope, require
from core import inputs
from core.errors import InvalidInput, ServiceError, TooMany
from games import audience, store
from games.api import serializers as s
from games.api import tablelog as log_api
from games.catalog import game_types
from games.models import Game, Seat
from games.play import lobby, reads, seating, services, steps
from games.records import reads as record_reads
from games.rules import registered
from games.selectors import game_with_seats
from games.tablelog import services as tablelog

SEAT = {"type": "integer", "minimum": 0, "maximum": inputs.MAX_SEAT}
VERSION = {"type": "integer", "minimum": 1, "maximum": inputs.MAX_VERSION}
LEGAL_ACTIONS = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["type"],
        "additionalProperties": True,
        "properties": {"type": {"type": "string"}},
    },
}


class OutsidersSeeNothing(APIView):
    """For an operation on one game (``pk``): whatever it refuses to someone the game is closed
    to (games.audience: a members-only club's game, to an outsider) is the 404 of a game that
    does not exist, not the 403 or 409 that would tell them it does. Asked on the refusal's
    path only, so an allowed request pays nothing."""

    ABOUT_THE_GAME = (
        ServiceError,
        store.VersionConflict,
        PermissionDenied,
        exceptions.APIException,
    )

    def handle_exception(self, exc):
        pk = getattr(self, "kwargs", {}).get("pk")
        if (
            pk is not None
            and isinstance(exc, self.ABOUT_THE_GAME)
            and not isinstance(exc, (TooMany, exceptions.NotAuthenticated, exceptions.Throttled))
            and not isinstance(exc, exceptions.ValidationError)
            and audience.hidden(pk, self.request.user)
        ):
            exc = Http404("No Game matches the given query.")
        return super().handle_exception(exc)


class GameTypesApi(APIView):
    scopes = {"GET": READ}
    permission_classes = [HasScope, AllowAny]

    @extend_schema(responses=s.GameTypeOut(many=True))
    def get(self, request):
        return Response([m.spec.to_json() for _, m in sorted(registered().items())])


class GameListCreateApi(generics.ListAPIView):
    """Games you sit at (``?scope=all`` for every game), filtered by ``?status=`` and
    ``?game=``; POST creates one."""

    scopes = {"GET": READ, "POST": PLAY_OR_TABLE_LOG}

    serializer_class = s.GameOut

    @extend_schema(parameters=[s.GameListIn])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        query = s.GameListIn(data=self.request.query_params.dict())  # ?status= is blank
        query.is_valid(raise_exception=True)
        params = query.validated_data
        games = Game.objects.all()
        if params["scope"] != "all":
            # A semi-join, not a join and DISTINCT: the order stays the index's.
            games = games.filter(pk__in=Seat.objects.filter(user=self.request.user).values("game"))
        else:
            games = audience.visible(games, self.request.user)
        if "status" in params:
            games = games.filter(status=params["status"])
        if "game" in params:
            if params["game"] not in game_types():
                raise InvalidInput(f"unknown game {params['game']!r}")
            games = games.filter(slug=params["game"])
        return games.prefetch_related(
            Prefetch("seats", Seat.objects.select_related("user__profile"))  # profile: a bot?
        )

    @extend_schema(request=s.GameCreateIn, responses={201: s.GameOut})
    def post(self, request):
        body = s.GameCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        if body.validated_data["mode"] == "log" or body.validated_data["scorekeeper"]:
            require(request, RECORD)
            game = log_api.log_create(request, body.validated_data)
        else:
            require(request, PLAY)
            game = services.game_create(
                slug=body.validated_data["game"],
                seats=body.validated_data["seats"],
                options=body.validated_data["options"],
                time_control=body.validated_data["time_control"],
                created_by=request.user,
            )
        return Response(
            s.GameOut(game_with_seats(game.pk), context={"detail": True}).data,
            status=status.HTTP_201_CREATED,
        )


class GameDetailApi(OutsidersSeeNothing):
    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]  # spectators may watch

    @extend_schema(responses=s.GameOut)
    def get(self, request, pk):
        return Response(
            s.GameOut(game_with_seats(pk, seen_by=request.user), context={"detail": True}).data
        )


class GameStateApi(OutsidersSeeNothing):
    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]  # spectators may watch

    @extend_schema(
        parameters=[
            OpenApiParameter("seat", SEAT, description="your seat; none for the spectator's view"),
            OpenApiParameter(
                "at", VERSION, description="the view after this event (default: the head)"
            ),
        ],
        responses=dict,
    )
    def get(self, request, pk):
        game = game_with_seats(pk, seen_by=request.user)
        view = reads.game_view(
            game=game,
            user=request.user,
            seat=request.query_params.get("seat"),
            at=request.query_params.get("at"),
        )
        return Response(view)


class GameActionsApi(OutsidersSeeNothing):
    scopes = {"GET": READ, "POST": PLAY_OR_TABLE_LOG}
    guarded_for: str | None = None  # the scope a move's write checked its token for

    @extend_schema(
        parameters=[OpenApiParameter("seat", SEAT, required=True)], responses={200: LEGAL_ACTIONS}
    )
    def get(self, request, pk):
        game = game_with_seats(pk, seen_by=request.user)
        seat = request.query_params.get("seat")
        if seat is None:
            raise InvalidInput("give the seat: ?seat=N")
        actions = reads.game_legal_actions(game=game, user=request.user, seat=seat)
        return Response(actions, headers={"X-Game-Version": str(game.version)})

    def get_authenticators(self):
        # A move's token, if this process has seen it valid, is checked by the move's own
        # write, not by a statement of its own (accounts.authentication); the session and
        # every other request as everywhere.
        request = getattr(self, "request", None)
        moving = getattr(request, "method", None) == "POST"
        return [TokenAuthentication(checked_by_write=moving), SessionAuthentication()]

    @extend_schema(request=s.ActionIn, responses={201: s.AppendOut})
    def post(self, request, pk):
        checked_by_write = request.auth if isinstance(request.auth, CheckedByWrite) else None
        if checked_by_write is None:
            return s.appended_response(request, self._move(request, pk))
        try:
            appended = self._move(request, pk, checked_by_write)
        except Exception:
            checked_by_write.confirm(self.guarded_for)  # a 401 (or 403) before any other answer
            raise
        if appended.replayed:
            # The write that checked the token was not ours.
            checked_by_write.confirm(self.guarded_for)
        return s.appended_response(request, appended)

    def _move(self, request, pk, checked_by_write: CheckedByWrite | None = None):
        body = s.ActionIn.validated(request.data)
        # The game is read from this process's cache of committed versions when the client's
        # expected version is there, so a move need not read it at all; a table log's entries
        # (and chance outcomes) are the scorekeeper's, taken by games.tablelog.
        head, state = steps.load_expected(pk, body["expected_version"])
        logged = tablelog.takes(head, body["seat"])
        scope = RECORD if logged else PLAY
        require(request, scope)
        guard = None
        if checked_by_write is not None:
            self.guarded_for = scope
            condition, params = checked_by_write.condition(scope)
            guard = store.Guard(condition, tuple(params))  # the write checks the token
        append = tablelog.entry_append if logged else services.move_append
        return append(pk, head, state, user=request.user, guard=guard, **body)


class GameEventsApi(OutsidersSeeNothing):
    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]  # spectators may watch

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0, "maximum": inputs.MAX_VERSION},
                description="only events after this version",
            )
        ],
        responses=s.EventOut(many=True),
    )
    def get(self, request, pk):
        game = game_with_seats(pk, seen_by=request.user)
        return Response(
            reads.game_events(game=game, user=request.user, after=request.query_params.get("after"))
        )


class GameResignApi(OutsidersSeeNothing):
    scopes = {"POST": PLAY}

    @extend_schema(request=s.ResignIn, responses={201: s.AppendOut})
    def post(self, request, pk):
        body = s.ResignIn(data=request.data)
        body.is_valid(raise_exception=True)
        appended = services.game_resign(game=pk, user=request.user, **body.validated_data)
        return s.appended_response(request, appended)


class GameSeatApi(OutsidersSeeNothing):
    """accept/ takes an invited seat (the clock starts once every person has); decline/ refuses
    it and calls the game off."""

    scopes = {"POST": PLAY}

    action = ""

    @extend_schema(request=s.SeatChoiceIn, responses={201: s.AppendOut})
    def post(self, request, pk):
        body = s.SeatChoiceIn(data=request.data)
        body.is_valid(raise_exception=True)
        act = seating.game_accept if self.action == "accept" else seating.game_decline
        appended = act(game=pk, seat=body.validated_data["seat"], user=request.user)
        return s.appended_response(request, appended)


class GameJoinApi(OutsidersSeeNothing):
    """Take a seat left open for anyone: 409 if it is taken, or you already sit at the game."""

    scopes = {"POST": PLAY}

    @extend_schema(request=s.SeatChoiceIn, responses={201: s.AppendOut})
    def post(self, request, pk):
        body = s.SeatChoiceIn(data=request.data)
        body.is_valid(raise_exception=True)
        if audience.hidden(pk, request.user):  # an open seat of a club's game is its members'
            raise Http404("No Game matches the given query.")
        appended = lobby.game_join(game=pk, seat=body.validated_data["seat"], user=request.user)
        return s.appended_response(request, appended)


class GameRematchApi(OutsidersSeeNothing):
    """A finished game's players ask for a rematch: a new game of the same game, options and
    clock, its seats rotated by one; the asker is seated, the others invited. 409 before the
    end, or once a rematch was offered."""

    scopes = {"POST": PLAY}

    @extend_schema(request=None, responses={201: s.GameOut})
    def post(self, request, pk):
        game = lobby.game_rematch(game=pk, user=request.user)
        return Response(
            s.GameOut(game_with_seats(game.pk), context={"detail": True}).data,
            status=status.HTTP_201_CREATED,
        )


class GameCancelApi(OutsidersSeeNothing):
    """Whoever created the game calls it off while an invitation or open seat is waiting: the
    game is voided, nothing rated, and answering the invitation afterwards is a 409."""

    scopes = {"POST": PLAY}

    @extend_schema(request=None, responses={201: s.AppendOut})
    def post(self, request, pk):
        return s.appended_response(request, lobby.game_cancel(game=pk, user=request.user))


class InvitationsApi(generics.ListAPIView):
    """Games you are invited to and have not answered (accept/ or decline/ with your seat):
    games to play here, and table logs you are seated at (mode "log", under way or over),
    which are rated only once everyone seated has accepted."""

    scopes = {"GET": READ}

    serializer_class = s.GameOut

    def get_queryset(self):
        invited = [seat.game_id for seat in lobby.invitations_for(self.request.user)]
        invited += [seat.game_id for seat in seating.log_seats_waiting(self.request.user)]
        return lobby.with_seats(Game.objects.filter(pk__in=invited).order_by("-created_at", "-id"))


class OpenGamesApi(generics.ListAPIView):
    """Games under way with a seat anyone signed in may take (the lobby)."""

    scopes = {"GET": READ}

    serializer_class = s.GameOut

    def get_queryset(self):
        return lobby.open_games(self.request.user)


class OceansCardsApi(APIView):
    """The Deep cards of The Deep promo pack 2 with their statistics over final Oceans
    records: games played in, and the win rate of the player who played them."""

    scopes = {"GET": READ}
    permission_classes = [HasScope, AllowAny]

    @extend_schema(responses=s.DeepCardOut(many=True))
    def get(self, request):
        return Response(s.DeepCardOut(record_reads.oceans_card_statistics(), many=True).data)
