"""HTTP API v1 for ratings and players."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rules import registered
from games.services import InvalidInput
from league import selectors

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
