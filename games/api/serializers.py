"""Small input and output serializers, one pair per operation."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from accounts.bots import is_bot
from core import inputs
from games.api.fields import SeatField, Text, TimeControlField
from games.models import Game
from games.play import clocks, reads
from games.records import export
from games.records import reads as record_reads
from games.rules.oceans_data import CARD_NAMES


class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField(source="index")
    user = serializers.SerializerMethodField()
    bot = serializers.SerializerMethodField()
    resigned = serializers.BooleanField()
    accepted = serializers.BooleanField(
        help_text="the person has taken the seat (accepted or "
        "moved); no clock runs until everyone has"
    )

    guest = serializers.SerializerMethodField()
    name = serializers.CharField(
        source="player_name",
        help_text='the player in people\'s words: a username, "Random bot", "Ann (guest)" or '
        '"open seat"',
    )
    is_bot = serializers.SerializerMethodField()

    def get_user(self, seat) -> str | None:
        return seat.user.username if seat.user_id and not seat.bot else None

    def get_guest(self, seat) -> str | None:
        return seat.guest or None

    def get_bot(self, seat) -> str | None:
        return seat.bot or None

    def get_is_bot(self, seat) -> bool:
        """A house bot plays the seat, or a member's bot account holds it (accounts.bots)."""
        return bool(seat.bot) or (seat.user_id is not None and is_bot(seat.user))


class ResultOut(serializers.Serializer):
    player = serializers.CharField()
    score = serializers.FloatField(allow_null=True)
    rank = serializers.IntegerField()


class DisputeOut(serializers.Serializer):
    by = serializers.CharField()
    reason = serializers.CharField(allow_blank=True, required=False)
    results = ResultOut(many=True, allow_null=True)


class PlayerSheetOut(serializers.Serializer):
    player = serializers.CharField()
    score_pile = serializers.IntegerField(help_text="the population in the score pile")
    bonus = serializers.IntegerField(help_text="the end-of-game bonus token")
    other = serializers.IntegerField(help_text="any other final points on the sheet")
    total = serializers.IntegerField(help_text="score_pile + bonus + other: the player's score")
    deep_cards = serializers.ListField(
        child=serializers.ChoiceField(choices=CARD_NAMES),
        help_text="the Deep cards the player played (The Deep promo pack 2)",
    )


class SheetOut(serializers.Serializer):
    """An Oceans score sheet (games.records.oceans)."""

    edition = serializers.CharField(
        allow_blank=True, help_text="the base rulebook's edition followed"
    )
    reef = serializers.BooleanField(help_text="the Reef variant was played")
    scenarios = serializers.ListField(
        child=serializers.CharField(), help_text="the scenario cards used"
    )
    players = PlayerSheetOut(many=True)


class RecordOut(serializers.Serializer):
    """Where a table game's result stands: reported, confirmed by whom, disputed, final."""

    status = serializers.ChoiceField(
        choices=["awaiting report", "awaiting confirmation", "disputed", "final"]
    )
    reported = ResultOut(
        many=True,
        allow_null=True,
        help_text="the result waiting for confirmation, or the final one",
    )
    final = ResultOut(many=True, allow_null=True, help_text="the result that stands (rated)")
    confirmed_by = serializers.ListField(child=serializers.CharField())
    waiting_for = serializers.ListField(
        child=serializers.CharField(), help_text="members named who have not confirmed yet"
    )
    disputes = DisputeOut(many=True)
    bid = serializers.DictField(allow_null=True)
    sheet = SheetOut(
        allow_null=True, help_text="Oceans: the score sheet of the reported result, or null"
    )
    final_sheet = SheetOut(allow_null=True, help_text="Oceans: the sheet of the final result")


class ClockSeatOut(serializers.Serializer):
    remaining = serializers.FloatField(
        help_text="seconds left: the seat to play's to its deadline, the others' banks (a move"
        " clock: the seconds a move gets)"
    )


class ClockOut(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["move", "bank"],
        help_text="move: a deadline per move; bank: a time bank per seat plus an increment",
    )
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="when the seat to play runs out; null while no clock runs (a seat not yet"
        " taken, a bot to play, the game over)",
    )
    running = serializers.IntegerField(
        allow_null=True, help_text="the seat whose time is running, or null"
    )
    seats = ClockSeatOut(many=True)
    paused = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="present while a seat's clock waits for its player, away from the board"
        " (a correspondence game): those seats; on its turn no clock runs and its remaining"
        " time is kept for when they are back",
    )


class GameTimeControlOut(serializers.Serializer):
    move_seconds = serializers.IntegerField(required=False)
    bank_seconds = serializers.IntegerField(required=False)
    increment_seconds = serializers.IntegerField(required=False)
    on_timeout = serializers.ChoiceField(choices=list(clocks.TIMEOUT_RULES))
    deadline = serializers.DateTimeField(allow_null=True)


class GameOut(serializers.ModelSerializer):
    game = serializers.CharField(source="slug")
    seats = SeatOut(many=True)
    result = ResultOut(many=True, allow_null=True)
    time_control = serializers.SerializerMethodField()
    clock = serializers.SerializerMethodField()
    record = serializers.SerializerMethodField()
    scorekeeper = serializers.SerializerMethodField()
    # The last append, to the microsecond (the row's own updated_at is the lists' coarse order).
    updated_at = serializers.DateTimeField(source="moved_at", read_only=True)
    fingerprint = serializers.SerializerMethodField(
        help_text="SHA-256 (hex) of the last event, chained over every event before it; null "
        "while a game with hidden information is being played"
    )
    rules_version = serializers.IntegerField(
        read_only=True,
        help_text="the version of its rules the game is played and replayed under, for ever "
        "(GET /api/games/types/ lists each game's versions); 0 for a result recorded from a table",
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "game",
            "mode",
            "status",
            "version",
            "rules_version",
            "seats",
            "current_player",
            "result",
            "options",
            "time_control",
            "clock",
            "record",
            "scorekeeper",
            "created_at",
            "updated_at",
            "finished_at",
            "fingerprint",
        ]

    def get_fingerprint(self, game) -> str | None:
        return export.public_fingerprint(game)

    @extend_schema_field(RecordOut(allow_null=True))
    def get_record(self, game) -> dict | None:
        """For a game played on a table, one game at a time: where its result stands."""
        if game.mode != "record" or not self.context.get("detail"):
            return None
        return RecordOut(record_reads.result_state(game)).data

    def get_scorekeeper(self, game) -> str | None:
        """A table log's scorekeeper, who enters its every move; null for other games."""
        return game.scorekeeper.username if game.scorekeeper_id else None

    @extend_schema_field(GameTimeControlOut(allow_null=True))
    def get_time_control(self, game) -> dict | None:
        """The time control, and when the move now due runs out (null once the game is over)."""
        control = clocks.time_control_of(game)
        if control is None:
            return None
        deadline = game.deadline if game.status == "active" else None
        return {**control, "deadline": deadline.isoformat() if deadline else None}

    @extend_schema_field(ClockOut(allow_null=True))
    def get_clock(self, game) -> dict | None:
        """The clock as it stands now: null for a game without one."""
        return clocks.clock_out(game, timezone.now())


class GameListIn(serializers.Serializer):
    """The query of the games list; each optional."""

    scope = serializers.ChoiceField(
        choices=["mine", "all"], default="mine", help_text="mine: the games you sit at"
    )
    status = serializers.ChoiceField(choices=["active", "finished", "void"], required=False)
    game = Text(required=False, max_length=40, help_text="one game type (a slug)")


class GameCreateIn(serializers.Serializer):
    game = Text()
    seats = serializers.ListField(child=SeatField(), min_length=1, max_length=12)
    options = serializers.DictField(required=False, default=dict)
    time_control = TimeControlField(required=False, allow_null=True, default=None)
    mode = serializers.ChoiceField(
        choices=["play", "log"],
        default="play",
        help_text="play: played here; log: a table log, a game on a physical table whose "
        "scorekeeper enters every move and chance outcome",
    )
    scorekeeper = Text(
        required=False,
        default=None,
        help_text="log only: the user who enters the moves (seated, or you as organiser)",
    )


MAX_VERSION = inputs.MAX_VERSION


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": inputs.MAX_SEAT},
            {"type": "string", "enum": ["chance"]},
        ],
        "description": 'the seat acting; "chance" for a chance outcome entered in a table log',
    }
)
class SeatOrChanceField(serializers.Field):
    def to_internal_value(self, data):
        if data == "chance":
            return data
        return serializers.IntegerField(min_value=0, max_value=inputs.MAX_SEAT).run_validation(data)

    def to_representation(self, value):
        return value


class ActionIn(serializers.Serializer):
    seat = SeatOrChanceField()
    expected_version = serializers.IntegerField(min_value=0, max_value=MAX_VERSION)
    action = serializers.DictField()
    idempotency_key = Text(required=False, max_length=100, allow_blank=False)

    @classmethod
    def validated(cls, data: object) -> dict:
        """The serializer's validated data, for the hottest request of all: a body it would
        take as it is (whole numbers in range, a JSON object, a trimmed key) is taken without
        building the serializer's fields; anything else goes through it, errors and all."""
        if isinstance(data, dict):
            seat, version = data.get("seat"), data.get("expected_version")
            action, key = data.get("action"), data.get("idempotency_key", _ABSENT)
            if (
                type(seat) is int
                and 0 <= seat <= 11
                and type(version) is int
                and 0 <= version <= MAX_VERSION
                and type(action) is dict
                and (key is _ABSENT or _plain_key(key))
            ):
                clean = {"seat": seat, "expected_version": version, "action": dict(action)}
                if key is not _ABSENT:
                    clean["idempotency_key"] = key
                return clean
        body = cls(data=data)
        body.is_valid(raise_exception=True)
        return dict(body.validated_data)


_ABSENT = object()


def _plain_key(key: object) -> bool:
    """A key CharField(max_length=100, allow_blank=False) returns unchanged."""
    return type(key) is str and 0 < len(key) <= 100 and key == key.strip() and "\x00" not in key


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


def appended_response(request, appended) -> Response:
    """The append's result; a repeated idempotency key gets the first result again."""
    events = reads.events_as_seen(game=appended.head, user=request.user, events=appended.events)
    headers = {"Idempotent-Replayed": "true"} if appended.replayed else {}
    return Response(
        {"version": appended.version, "events": events},
        status=status.HTTP_201_CREATED,
        headers=headers,
    )


class ResignIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=inputs.MAX_SEAT)
    idempotency_key = Text(required=False, max_length=100, allow_blank=False)


class SeatChoiceIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=inputs.MAX_SEAT)


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


class DeepCardOut(serializers.Serializer):
    card = serializers.ChoiceField(choices=CARD_NAMES)
    kind = serializers.ChoiceField(choices=["event", "trait"])
    migrate = serializers.IntegerField(help_text="its cost, moved from the score pile")
    resolution = serializers.IntegerField()
    note = serializers.CharField()
    games = serializers.IntegerField(help_text="final records in which it was played")
    wins = serializers.IntegerField(help_text="of those, the games its player won (ranked 1)")
    win_rate = serializers.FloatField(allow_null=True)
