"""HTTP API v1 for ratings, players, club records, leagues and tournaments.

One class per operation (a path that both lists and creates has one class with both), small
input and output serializers (league/api/serializers.py): views parse, call a keyword-only
service with validated data, and serialize what it returns.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.bots import is_bot
from accounts.scopes import EVERY, ORGANISE, READ, RECORD, HasScope
from core.errors import InvalidInput, UnknownName
from games.api.serializers import GameOut
from games.catalog import game_types
from games.selectors import game_with_seats
from league import selectors, visibility
from league.api import serializers as s
from league.member_data import member_data, member_data_zip
from league.models import League, LeagueInvitation
from league.services import bot_accounts, clubs, leagues

User = get_user_model()


def _record_out(pk) -> dict:
    return GameOut(game_with_seats(pk), context={"detail": True}).data


def _league(slug, user, *, door: bool = False) -> League:
    """The league, or 404 "no league" whether there is none or ``user`` may not read it."""
    try:
        return visibility.league_or_404(slug, user, door=door)
    except Http404:
        raise UnknownName(f"no league {slug!r}") from None


# -- ratings and players --------------------------------------------------------------------------


class LeaderboardApi(generics.ListAPIView):
    """The Elo leaderboard of one game: ``?game=SLUG``."""

    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]
    serializer_class = s.LeaderboardEntryOut

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=True, enum=sorted(game_types()))]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        slug = self.request.query_params.get("game")
        if not slug:
            raise InvalidInput("give the game: ?game=SLUG")
        if slug not in game_types():
            raise InvalidInput(f"unknown game {slug!r}")
        return selectors.leaderboard(slug)

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([selectors.rating_entry(r) for r in page])


class PlayerListApi(generics.ListAPIView):
    """Players (members and bots); ``?search=`` filters by name."""

    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]
    serializer_class = s.PlayerOut

    @extend_schema(parameters=[OpenApiParameter("search", str)])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        # With their profiles, which say whether each is a bot account (accounts.bots).
        users = User.objects.filter(is_active=True).select_related("profile").order_by("username")
        if self.request.query_params.get("search"):
            users = users.filter(username__icontains=self.request.query_params["search"])
        return users

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(
            [{"username": u.username, "is_bot": is_bot(u)} for u in page]
        )


class PlayerDetailApi(APIView):
    """A player's ratings per game, each with its history, and recent games."""

    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.PlayerDetailOut)
    def get(self, request, username):
        user = get_object_or_404(User, username=username, is_active=True)
        return Response(s.PlayerDetailOut(selectors.player_record(user, viewer=request.user)).data)


class MeDataApi(APIView):
    """Your own data: your account, games (records included), the notes you wrote, ratings with
    every change, and clubs, as one JSON document."""

    scopes = {"GET": READ}

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        if not request.user.is_authenticated:
            raise NotAuthenticated("sign in to download your data")
        return Response(member_data(request.user))


class MeDataArchiveApi(APIView):
    """Your own data as a ZIP: the JSON document and a CSV per table (games, ratings, rating
    changes)."""

    scopes = {"GET": READ}

    @extend_schema(responses={(200, "application/zip"): OpenApiTypes.BINARY})
    def get(self, request):
        if not request.user.is_authenticated:
            raise NotAuthenticated("sign in to download your data")
        response = HttpResponse(member_data_zip(request.user), content_type="application/zip")
        response["Content-Disposition"] = 'attachment; filename="hadal-my-data.zip"'
        return response


class MeBotApi(APIView):
    """Your account as a bot's (league.services.bot_accounts): GET says whether it is one, or
    why it may not become one; POST makes it one, for good (409 with the reasons if it may
    not). A bot account plays only through the API with a token, is shown as a bot, and is
    kept out of leagues, club records, table logs, the lobby and tournaments for people
    only."""

    scopes = {"GET": READ, "POST": EVERY}

    @extend_schema(responses=s.BotAccountOut)
    def get(self, request):
        return Response(s.BotAccountOut(_bot_account(request.user)).data)

    @extend_schema(
        request=None,
        responses={
            201: s.BotAccountOut,
            409: OpenApiResponse(s.ErrorOut, description="it may not: the reasons, in words"),
        },
    )
    def post(self, request):
        bot_accounts.bot_account_make(user=request.user)
        return Response(
            s.BotAccountOut(_bot_account(request.user)).data, status=status.HTTP_201_CREATED
        )


def _bot_account(user) -> dict:
    profile = getattr(user, "profile", None) if is_bot(user) else None
    return {
        "username": user.username,
        "is_bot": is_bot(user),
        "bot_since": getattr(profile, "bot_since", None),
        "why_not": bot_accounts.why_not_bot(user) if not is_bot(user) else [],
    }


# -- club records ---------------------------------------------------------------------------------


class MatchCreateApi(APIView):
    """Record a game played on a table. It is rated once every member it names has confirmed
    it (at once if it names only the recorder, or a league organiser recorded it)."""

    scopes = {"POST": RECORD}

    @extend_schema(request=s.MatchIn, responses={201: GameOut})
    def post(self, request):
        body = s.MatchIn(data=request.data)
        body.is_valid(raise_exception=True)
        game = leagues.match_record(recorded_by=request.user, **body.validated_data)
        return Response(_record_out(game.pk), status=status.HTTP_201_CREATED)


class MatchCorrectApi(APIView):
    """A correction: a new event with the new result. An organiser's is final at once; the
    recorder's waits for the members named to confirm it."""

    scopes = {"POST": RECORD}

    @extend_schema(request=s.CorrectionIn, responses={201: GameOut})
    def post(self, request, pk):
        body = s.CorrectionIn(data=request.data)
        body.is_valid(raise_exception=True)
        leagues.match_correct(
            game=game_with_seats(pk, seen_by=request.user), by=request.user, **body.validated_data
        )
        return Response(_record_out(pk), status=status.HTTP_201_CREATED)


class MatchAnswerApi(APIView):
    """confirm/: a member named in the record agrees with it (a league organiser confirms it
    for everyone); dispute/: a named member says it is wrong, and it waits for a correction."""

    scopes = {"POST": RECORD}

    action = ""

    @extend_schema(request=s.AnswerIn, responses={201: GameOut})
    def post(self, request, pk):
        body = s.AnswerIn(data=request.data)
        body.is_valid(raise_exception=True)
        game = game_with_seats(pk, seen_by=request.user)
        if self.action == "confirm":
            leagues.match_confirm(game=game, by=request.user)
        else:
            leagues.match_dispute(game=game, by=request.user, **body.validated_data)
        return Response(_record_out(pk), status=status.HTTP_201_CREATED)


# -- leagues --------------------------------------------------------------------------------------


def _league_out(league: League, viewer) -> dict:
    return s.LeagueOut(selectors.league_detail(league, viewer)).data


class LeagueListCreateApi(APIView):
    scopes = {"GET": READ, "POST": ORGANISE}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.LeagueSummaryOut(many=True))
    def get(self, request):
        return Response(
            s.LeagueSummaryOut(selectors.league_summaries(request.user), many=True).data
        )

    @extend_schema(request=s.LeagueIn, responses={201: s.LeagueOut})
    def post(self, request):
        body = s.LeagueIn(data=request.data)
        body.is_valid(raise_exception=True)
        league = leagues.league_create(created_by=request.user, **body.validated_data)
        return Response(_league_out(league, request.user), status=status.HTTP_201_CREATED)


class LeagueDetailApi(APIView):
    """GET: the club (404 for a members-only club you are not in); PATCH: change its name,
    description or visibility (organisers)."""

    scopes = {"GET": READ, "PATCH": ORGANISE}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.LeagueOut)
    def get(self, request, slug):
        return Response(_league_out(_league(slug, request.user), request.user))

    @extend_schema(request=s.LeagueUpdateIn, responses=s.LeagueOut)
    def patch(self, request, slug):
        league = _league(slug, request.user)
        body = s.LeagueUpdateIn(data=request.data)
        body.is_valid(raise_exception=True)
        league = clubs.league_update(league=league, by=request.user, **body.validated_data)
        return Response(_league_out(league, request.user))


def _link_out(link) -> dict:
    return {
        "id": link.pk,
        "code": link.code,
        "url": clubs.link_url(link),
        "created_by": link.created_by.username if link.created_by else None,
        "created_at": link.created_at,
        "expires_at": link.expires_at,
        "max_uses": link.max_uses,
        "uses": link.uses,
        "state": clubs.link_state(link),
    }


class InviteLinksApi(APIView):
    """A club's invite links (organisers): GET lists them, POST makes one (``days`` it lasts,
    ``max_uses`` people it lets in)."""

    scopes = {"GET": READ, "POST": ORGANISE}

    @extend_schema(responses=s.InviteLinkOut(many=True))
    def get(self, request, slug):
        league = _league(slug, request.user)
        clubs.require_organiser(league, request.user, "see its invite links")
        links = league.invite_links.select_related("created_by")
        return Response(s.InviteLinkOut([_link_out(link) for link in links], many=True).data)

    @extend_schema(request=s.InviteLinkIn, responses={201: s.InviteLinkOut})
    def post(self, request, slug):
        league = _league(slug, request.user)
        body = s.InviteLinkIn(data=request.data)
        body.is_valid(raise_exception=True)
        link = clubs.link_create(league=league, by=request.user, **body.validated_data)
        return Response(s.InviteLinkOut(_link_out(link)).data, status=status.HTTP_201_CREATED)


class InviteLinkApi(APIView):
    """DELETE: revoke an invite link (organisers); it opens nothing from then on."""

    scopes = {"DELETE": ORGANISE}

    @extend_schema(request=None, responses={200: s.InviteLinkOut})
    def delete(self, request, slug, pk):
        league = _league(slug, request.user)
        link = clubs.link_revoke(league=league, link_id=pk, by=request.user)
        return Response(s.InviteLinkOut(_link_out(link)).data)


class InviteApi(APIView):
    """An invite link's door: GET shows the club it opens (name and description, never its
    members or games) and whether it still opens; POST joins the club through it."""

    scopes = {"GET": READ, "POST": ORGANISE}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    def _link(self, code):
        link = clubs.link_named(code)
        if link is None:
            raise UnknownName("no invite link has this code: check the link you were given")
        return link

    @extend_schema(responses=s.DoorOut)
    def get(self, request, code):
        link = self._link(code)
        league = link.league
        out = {
            "league": league.slug,
            "name": league.name,
            "description": league.description,
            "state": clubs.link_state(link),
            "reason": clubs.why_link_closed(link),
            "expires_at": link.expires_at,
            "member": selectors.is_league_member(league, request.user),
        }
        return Response(s.DoorOut(out).data)

    @extend_schema(request=None, responses={201: s.LeagueOut})
    def post(self, request, code):
        membership = clubs.link_join(code=code, by=request.user)
        return Response(
            _league_out(membership.league, request.user), status=status.HTTP_201_CREATED
        )


def _request_out(asked) -> dict:
    return {
        "player": asked.user.username,
        "message": asked.message,
        "asked_at": asked.created_at,
        "answer": asked.answer,
    }


class JoinRequestsApi(APIView):
    """POST: ask to join the club (a members-only one through an invite link's ``code``, even
    one that expired); GET: the requests waiting (organisers)."""

    scopes = {"GET": READ, "POST": ORGANISE}

    @extend_schema(responses=s.JoinRequestOut(many=True))
    def get(self, request, slug):
        league = _league(slug, request.user)
        clubs.require_organiser(league, request.user, "see its requests to join")
        waiting = [_request_out(r) for r in clubs.join_requests(league)]
        return Response(s.JoinRequestOut(waiting, many=True).data)

    @extend_schema(request=s.JoinRequestIn, responses={201: s.JoinRequestOut})
    def post(self, request, slug):
        body = s.JoinRequestIn(data=request.data)
        body.is_valid(raise_exception=True)
        link = clubs.link_named(body.validated_data.get("code"))
        if link is not None and link.league.slug == slug:
            league = link.league
        else:
            league = _league(slug, request.user, door=True)
        asked = clubs.join_ask(
            league=league, by=request.user, message=body.validated_data["message"]
        )
        return Response(s.JoinRequestOut(_request_out(asked)).data, status=status.HTTP_201_CREATED)


class JoinAnswerApi(APIView):
    """accept/: the player becomes a member; decline/: they are told no (organisers)."""

    scopes = {"POST": ORGANISE}

    action = ""

    @extend_schema(request=None, responses=s.JoinRequestOut)
    def post(self, request, slug, player):
        league = _league(slug, request.user)
        asked = clubs.join_answer(
            league=league, player=player, accept=self.action == "accept", by=request.user
        )
        return Response(s.JoinRequestOut(_request_out(asked)).data)


class LeagueMemberApi(APIView):
    """PATCH: a member's role (organisers name organisers; the owner takes the role back);
    DELETE: remove a member (organisers; the owner also an organiser). Their games stay in
    the standings."""

    scopes = {"PATCH": ORGANISE, "DELETE": ORGANISE}

    @extend_schema(request=s.RoleIn, responses=s.LeagueOut)
    def patch(self, request, slug, player):
        league = _league(slug, request.user)
        body = s.RoleIn(data=request.data)
        body.is_valid(raise_exception=True)
        if "role" in body.validated_data:
            clubs.role_set(league=league, player=player, by=request.user, **body.validated_data)
        else:  # a PATCH that names nothing changes nothing, but is asked as any other
            clubs.require_organiser(league, request.user, "change roles")
        return Response(_league_out(league, request.user))

    @extend_schema(request=None, responses={200: s.LeagueOut})
    def delete(self, request, slug, player):
        league = _league(slug, request.user)
        clubs.member_remove(league=league, player=player, by=request.user)
        return Response(_league_out(league, request.user))


class LeagueLeaveApi(APIView):
    """Leave the club (its owner hands it over first, while others remain)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=None, responses={200: s.LeagueSummaryOut})
    def post(self, request, slug):
        league = _league(slug, request.user)
        clubs.member_leave(league=league, by=request.user)
        out = {
            "slug": league.slug,
            "name": league.name,
            "members": league.membership_set.count(),
            "visibility": league.visibility,
        }
        return Response(s.LeagueSummaryOut(out).data)


class LeagueOwnerApi(APIView):
    """The owner hands the club over to another member; they stay on as an organiser."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.PlayerIn, responses=s.LeagueOut)
    def post(self, request, slug):
        league = _league(slug, request.user)
        body = s.PlayerIn(data=request.data)
        body.is_valid(raise_exception=True)
        clubs.hand_over(league=league, by=request.user, **body.validated_data)
        return Response(_league_out(league, request.user))


class LeagueStandingsApi(APIView):
    """The league's own standings: from its games only (those recorded for it and its
    tournaments'), of one game type (``?game=``) or all, over one season (``?season=``) or
    every league game; in standing order (points, then wins, then average place, then Elo)."""

    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[s.LeagueStandingsIn],
        responses={
            200: s.LeagueStandingOut(many=True),
            400: OpenApiResponse(s.ErrorOut, description="an unknown game or season"),
            404: OpenApiResponse(s.ErrorOut, description="no such league"),
        },
    )
    def get(self, request, slug):
        league = _league(slug, request.user)
        query = s.LeagueStandingsIn(data=request.query_params.dict())  # ?game= is blank
        query.is_valid(raise_exception=True)
        rows = selectors.league_table(
            league,
            season=selectors.season_named(league, query.validated_data.get("season")),
            slug=selectors.game_named(query.validated_data.get("game")),
        )
        return Response(s.LeagueStandingOut(rows, many=True).data)


class LeagueMembersApi(APIView):
    """Invite a member or an organiser (organisers only): they are a member once they accept
    (``accept/``). Naming a member already changes their role."""

    scopes = {"POST": ORGANISE}

    @extend_schema(
        request=s.MemberIn,
        responses={
            201: s.LeagueMemberAddedOut,
            403: OpenApiResponse(s.ErrorOut, description="not an organiser of the league"),
            404: OpenApiResponse(s.ErrorOut, description="no such league"),
        },
    )
    def post(self, request, slug):
        league = _league(slug, request.user)
        body = s.MemberIn(data=request.data)
        body.is_valid(raise_exception=True)
        added = leagues.member_invite(league=league, by=request.user, **body.validated_data)
        out = {
            "player": added.user.username,
            "role": added.role,
            "status": "invited" if isinstance(added, LeagueInvitation) else "member",
        }
        return Response(
            {**_league_out(league, request.user), "added": out}, status=status.HTTP_201_CREATED
        )


class LeagueInvitationAnswerApi(APIView):
    """accept/: the person invited joins the league, in the role asked; decline/: they say no,
    and the invitation is gone (the organisers may ask again). Only your own invitation."""

    scopes = {"POST": ORGANISE}

    action = ""

    @extend_schema(
        request=s.AnswerInvitationIn,
        responses={
            200: s.LeagueOut,
            201: s.LeagueOut,
            403: OpenApiResponse(s.ErrorOut, description="another person's invitation"),
            404: OpenApiResponse(s.ErrorOut, description="no such league"),
            409: OpenApiResponse(
                s.ErrorOut, description="no invitation waiting (declined, never sent) or a member"
            ),
        },
    )
    def post(self, request, slug):
        league = _league(slug, request.user, door=True)
        body = s.AnswerInvitationIn(data=request.data)
        body.is_valid(raise_exception=True)
        player = body.validated_data.get("player")
        if self.action == "accept":
            leagues.invitation_accept(league=league, by=request.user, player=player)
            return Response(_league_out(league, request.user), status=status.HTTP_201_CREATED)
        leagues.invitation_decline(league=league, by=request.user, player=player)
        return Response(_league_out(league, request.user))


class MyInvitationsApi(APIView):
    """What you have been asked to agree to and have not answered, newest first: leagues to
    join and tournament entries (games you are invited to are at ``/api/games/invited/``)."""

    scopes = {"GET": READ}

    @extend_schema(responses=s.MyInvitationsOut)
    def get(self, request):
        leagues_ = [
            {
                "league": i.league.slug,
                "name": i.league.name,
                "role": i.role,
                "invited_by": i.invited_by.username if i.invited_by else None,
                "invited_at": i.created_at,
                "accept": reverse("api-league-accept", args=[i.league.slug]),
                "decline": reverse("api-league-decline", args=[i.league.slug]),
            }
            for i in selectors.league_invitations_of(request.user)
        ]
        tournaments_ = [
            {
                "tournament": e.tournament_id,
                "name": e.tournament.name,
                "game": e.tournament.slug,
                "status": e.tournament.status,
                "entered_by": e.tournament.created_by.username if e.tournament.created_by else None,
                "accept": reverse("api-tournament-accept", args=[e.tournament_id]),
                "decline": reverse("api-tournament-decline", args=[e.tournament_id]),
            }
            for e in selectors.entries_asking(request.user)
        ]
        return Response(s.MyInvitationsOut({"leagues": leagues_, "tournaments": tournaments_}).data)


class LeagueSeasonsApi(APIView):
    """Add a season (organisers only)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.SeasonIn, responses={201: s.LeagueOut})
    def post(self, request, slug):
        league = _league(slug, request.user)
        body = s.SeasonIn(data=request.data)
        body.is_valid(raise_exception=True)
        leagues.season_add(league=league, by=request.user, **body.validated_data)
        return Response(_league_out(league, request.user), status=status.HTTP_201_CREATED)


# -- tournaments ----------------------------------------------------------------------------------
