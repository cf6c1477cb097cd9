"""Small input and output serializers, one pair per operation."""

from datetime import timedelta

from rest_framework import serializers

from games.models import Game


class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField(source="index")
    user = serializers.SerializerMethodField()
    bot = serializers.SerializerMethodField()
    resigned = serializers.BooleanField()

    guest = serializers.SerializerMethodField()

    def get_user(self, seat) -> str | None:
        return seat.user.username if seat.user_id and not seat.bot else None

    def get_guest(self, seat) -> str | None:
        return seat.guest or None

    def get_bot(self, seat) -> str | None:
        return seat.bot or None


class ResultOut(serializers.Serializer):
    player = serializers.CharField()
    score = serializers.FloatField(allow_null=True)
    rank = serializers.IntegerField()


class GameOut(serializers.ModelSerializer):
    game = serializers.CharField(source="slug")
    seats = SeatOut(many=True)
    result = ResultOut(many=True, allow_null=True)
    time_control = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = ["id", "game", "mode", "status", "version", "seats", "current_player", "result",
                  "options", "time_control", "created_at", "updated_at", "finished_at"]

    def get_time_control(self, game) -> dict | None:
        """The clock, and when the move now due runs out (null once the game is over)."""
        if game.move_seconds is None:
            return None
        deadline = None
        if game.status == "active" and game.current_player is not None:
            deadline = (game.updated_at + timedelta(seconds=game.move_seconds)).isoformat()
        return {"move_seconds": game.move_seconds, "on_timeout": game.on_timeout,
                "deadline": deadline}


class SeatIn(serializers.Serializer):
    user = serializers.CharField(required=False)
    bot = serializers.CharField(required=False)


class GameCreateIn(serializers.Serializer):
    game = serializers.CharField()
    seats = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=12)
    options = serializers.DictField(required=False, default=dict)
    time_control = serializers.JSONField(required=False, default=None)


MAX_VERSION = 2**31 - 1


class ActionIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=11)
    expected_version = serializers.IntegerField(min_value=0, max_value=MAX_VERSION)
    action = serializers.DictField()
    idempotency_key = serializers.CharField(required=False, max_length=100, allow_blank=False)


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    actor = serializers.CharField(allow_null=True)
    data = serializers.DictField()
    created_at = serializers.CharField()


class AppendOut(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventOut(many=True)


class ResignIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=11)
    idempotency_key = serializers.CharField(required=False, max_length=100, allow_blank=False)


class GameTypeOut(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    version = serializers.IntegerField()
    chance = serializers.BooleanField()
    hidden_information = serializers.BooleanField()
    description = serializers.CharField()
    options = serializers.ListField(child=serializers.DictField())
