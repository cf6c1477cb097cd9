"""Input and output serializers of the league API, one pair per operation.

Inputs check the shape of a request (types, ranges, lengths); what it means — a member who
exists, ranks in competition order, a round that may be paired — is the services' to decide.
Outputs document exactly what the views send, so the OpenAPI schema is the contract.
"""

from __future__ import annotations

import math

from django.core.validators import MaxValueValidator, MinValueValidator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers

from core.inputs import BIGINT, MAX_SCORE
from games.api.fields import Moment, Text, TimeControlField
from games.api.serializers import GameOut, RecordOut, ResultOut
from games.rules.oceans_data import CARD_NAMES
from league.standings import TIEBREAKS
from league.tournament_spec import BOUNDS

NAME = {"max_length": 150}


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field):
    """A finite JSON number, kept as given (an int stays an int), from ``low`` to ``high``
    (by default as large as core.inputs.score takes a score)."""

    default_error_messages = {"invalid": "must be a number"}

    def __init__(self, *, low: float = -MAX_SCORE, high: float = MAX_SCORE, **kwargs):
        super().__init__(**kwargs)
        self.validators += [MinValueValidator(low), MaxValueValidator(high)]

    def to_internal_value(self, data):
        if (
            isinstance(data, bool)
            or not isinstance(data, (int, float))
            or (isinstance(data, float) and not math.isfinite(data))
        ):
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return value


class ResultIn(serializers.Serializer):
    player = Text(**NAME)
    rank = serializers.IntegerField(min_value=1, max_value=100)
    score = NumberField(required=False, allow_null=True, default=None)
    guest = serializers.BooleanField(
        required=False, default=False, help_text="a player without an account (records only)"
    )


class BidIn(serializers.Serializer):
    player = Text(**NAME)
    amount = serializers.IntegerField(min_value=0, max_value=1000)


class PlayerSheetIn(serializers.Serializer):
    player = Text(**NAME, help_text="as named in the results")
    score_pile = serializers.IntegerField(
        min_value=0, max_value=10_000, help_text="the population in the score pile"
    )
    bonus = serializers.IntegerField(
        min_value=0, max_value=10_000, default=0, help_text="the end-of-game bonus token"
    )
    other = serializers.IntegerField(
        min_value=-10_000,
        max_value=10_000,
        default=0,
        help_text="any other final points the sheet has",
    )
    total = serializers.IntegerField(
        min_value=-10_000,
        max_value=10_000,
        required=False,
        help_text="must be score_pile + bonus + other, and the player's score if one is given;"
        " a result without a score takes it",
    )
    deep_cards = serializers.ListField(
        child=serializers.ChoiceField(choices=CARD_NAMES),
        max_length=12,
        default=list,
        help_text="the Deep cards the player played; each card of the pack once a game",
    )


class SheetIn(serializers.Serializer):
    """An Oceans score sheet: per player its parts and total, the scenarios, the Reef."""

    edition = Text(
        max_length=100,
        allow_blank=True,
        default="",
        help_text="the base rulebook's edition whose end-of-game rules were followed",
    )
    reef = serializers.BooleanField(default=False, help_text="the Reef variant was played")
    scenarios = serializers.ListField(
        child=Text(max_length=100),
        max_length=12,
        default=list,
        help_text="the scenario cards used",
    )
    players = PlayerSheetIn(many=True, min_length=2, max_length=4)


@extend_schema_field(SheetIn)
class SheetField(serializers.JSONField):
    """An Oceans score sheet, checked by the service (games.records.oceans), whose errors name the
    player and the field."""


def sheet_field():
    return SheetField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Oceans only: the score sheet (omit it for a result without one)",
    )


def whole_field(setting: str, **kwargs) -> serializers.IntegerField:
    """A whole-number tournament setting, within its bounds (league.tournament_spec.BOUNDS)."""
    low, high = BOUNDS[setting]
    return serializers.IntegerField(min_value=low, max_value=high, **kwargs)


def results_field(**kwargs):
    return ResultIn(many=True, min_length=1, max_length=8, **kwargs)


# -- ratings and players --------------------------------------------------------------------------


class LeaderboardEntryOut(serializers.Serializer):
    player = serializers.CharField()
    rating = serializers.FloatField(
        help_text="the rating shown: Glicko-2's rating (1500 to start, on Elo's scale)"
    )
    deviation = serializers.FloatField(
        help_text="how sure we are of the rating, on the same scale; grows while the player "
        "is away from the game"
    )
    provisional = serializers.BooleanField(help_text="the deviation is above 100")
    conservative = serializers.FloatField(
        help_text="rating minus two deviations: what the leaderboard ranks by"
    )
    games = serializers.IntegerField()
    elo = serializers.FloatField(help_text="the pairwise Elo kept beside it (K = 32), unrounded")


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    is_bot = serializers.BooleanField(help_text="a house bot, or a member's bot account")


class BotAccountOut(serializers.Serializer):
    username = serializers.CharField()
    is_bot = serializers.BooleanField()
    bot_since = serializers.DateTimeField(
        allow_null=True, help_text="when it became a bot account (null: a house bot, or a person)"
    )
    why_not = serializers.ListField(
        child=serializers.CharField(),
        help_text="a person's account: why it may not become a bot's (empty: it may)",
    )


class RatingPointOut(serializers.Serializer):
    game_id = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    rank = serializers.IntegerField()
    before = serializers.FloatField(help_text="Elo before the game")
    after = serializers.FloatField(help_text="Elo after the game")
    rating_before = serializers.FloatField(help_text="the rating shown, before the game")
    rating_after = serializers.FloatField(help_text="the rating shown, after the game")
    deviation_before = serializers.FloatField(
        help_text="its deviation as the game read it: aged by the days since the game before"
    )
    deviation_after = serializers.FloatField(
        help_text="its deviation after the game (as the game left it, not aged)"
    )


class OpenSkillOut(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class PlayerRatingOut(LeaderboardEntryOut):
    game = serializers.CharField()
    openskill = OpenSkillOut()
    history = RatingPointOut(many=True)


class RecentGameOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField()
    finished_at = serializers.DateTimeField(allow_null=True)
    result = ResultOut(many=True, allow_null=True)


class PlayerGameOut(serializers.Serializer):
    """A player's record in one game type, rated or not (Oceans included)."""

    game = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="games ranked first, a shared first included")
    win_rate = serializers.FloatField()
    average_score = serializers.FloatField(allow_null=True, help_text="over games with a score")
    average_place = serializers.FloatField()


class PlayerDetailOut(PlayerOut):
    ratings = PlayerRatingOut(many=True)
    games = PlayerGameOut(many=True)
    recent_games = RecentGameOut(many=True)


# -- club records ---------------------------------------------------------------------------------


class MatchIn(serializers.Serializer):
    game = Text(max_length=40)
    played_at = Moment(
        max_length=40, help_text="YYYY-MM-DD or an ISO date-time, from 1900 to today"
    )
    results = results_field()
    league = Text(required=False, max_length=50)
    notes = Text(required=False, allow_blank=True, max_length=2000, default="")
    bid = BidIn(required=False, allow_null=True, default=None)
    sheet = sheet_field()


class CorrectionIn(serializers.Serializer):
    results = results_field()
    reason = Text(required=False, allow_blank=True, max_length=500, default="")
    sheet = SheetField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Oceans only: the corrected score sheet; without it the record's sheet"
        " stands, and must agree with the corrected scores",
    )


class AnswerIn(serializers.Serializer):
    reason = Text(
        required=False,
        allow_blank=True,
        max_length=500,
        default="",
        help_text="why the record is wrong (dispute only)",
    )


# -- leagues --------------------------------------------------------------------------------------


class LeagueIn(serializers.Serializer):
    name = Text(
        max_length=100,
        help_text="in any script, kept as typed; the league's slug is made from it",
    )
    description = Text(required=False, allow_blank=True, max_length=5000, default="")
    visibility = serializers.ChoiceField(
        choices=["public", "members"],
        default="public",
        help_text="members: only its members see its games, records, standings, tournaments "
        "and members; to anyone else it does not exist (404)",
    )


class LeagueUpdateIn(serializers.Serializer):
    name = Text(max_length=100, required=False)
    description = Text(required=False, allow_blank=True, max_length=5000)
    visibility = serializers.ChoiceField(choices=["public", "members"], required=False)


class InviteLinkIn(serializers.Serializer):
    days = serializers.IntegerField(
        required=False, min_value=1, max_value=92, help_text="how long it lasts (7 by default)"
    )
    max_uses = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        help_text="how many people it lets in (20 by default)",
    )


class InviteLinkOut(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    url = serializers.CharField(help_text="the page that opens the club's door")
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    max_uses = serializers.IntegerField()
    uses = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["open", "expired", "used up", "revoked"])


class DoorOut(serializers.Serializer):
    """What an invite link shows before one joins: the club, never its members or games."""

    league = serializers.CharField(help_text="the league's slug")
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    state = serializers.ChoiceField(choices=["open", "expired", "used up", "revoked"])
    reason = serializers.CharField(allow_blank=True, help_text="why it no longer opens, if so")
    expires_at = serializers.DateTimeField()
    member = serializers.BooleanField(help_text="you are a member already")


class JoinRequestIn(serializers.Serializer):
    message = Text(required=False, allow_blank=True, max_length=500, default="")
    code = Text(
        required=False,
        max_length=64,
        help_text="an invite link's code: a members-only club's door, even once it expired",
    )


class JoinRequestOut(serializers.Serializer):
    player = serializers.CharField()
    message = serializers.CharField(allow_blank=True)
    asked_at = serializers.DateTimeField()
    answer = serializers.ChoiceField(choices=["waiting", "accepted", "declined"])


class RoleIn(serializers.Serializer):
    role = serializers.ChoiceField(
        choices=["member", "organiser"], required=False, help_text="absent: nothing changes"
    )


class PlayerIn(serializers.Serializer):
    player = Text(**NAME)


class MemberIn(serializers.Serializer):
    player = Text(**NAME)
    role = serializers.ChoiceField(choices=["member", "organiser"], default="member")


class AnswerInvitationIn(serializers.Serializer):
    player = Text(
        **NAME,
        required=False,
        help_text="whose invitation: yours (the default); nobody answers another's",
    )


class SeasonIn(serializers.Serializer):
    name = Text(max_length=100)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)


class ErrorOut(serializers.Serializer):
    error = serializers.CharField()


class LeagueStandingsIn(serializers.Serializer):
    """The query of a league's standings; both optional."""

    game = Text(
        required=False, max_length=40, help_text="one game type (a slug); without it, all games"
    )
    season = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=BIGINT,
        help_text="a season's id; without it, every league game",
    )


class LeagueStandingOut(serializers.Serializer):
    player = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="games ranked first, a shared first included")
    points = serializers.FloatField(
        help_text="placement points: 2 players 1/0, 3 players 5/3/1, 4 players 5/3/2/1, "
        "ties sharing the average of the places' points"
    )
    average_place = serializers.FloatField()
    elo = serializers.FloatField(help_text="Elo over these games only, from 1500")
    rating = serializers.FloatField(
        help_text="the league's own ladder in the site's model: Glicko-2 over these games only,"
        " from 1500, unrounded"
    )
    deviation = serializers.FloatField(
        help_text="its deviation, grown by the days since the player's last game here"
    )
    provisional = serializers.BooleanField(help_text="the deviation is above 100")


class LeagueSummaryOut(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    members = serializers.IntegerField()
    visibility = serializers.ChoiceField(choices=["public", "members"])


class MemberOut(serializers.Serializer):
    player = serializers.CharField()
    role = serializers.ChoiceField(choices=["member", "organiser", "owner"])


class InvitedOut(serializers.Serializer):
    """Someone asked to join who has not answered: not a member until they accept."""

    player = serializers.CharField()
    role = serializers.ChoiceField(
        choices=["member", "organiser"], help_text="the role they would take"
    )
    invited_by = serializers.CharField(allow_null=True)
    invited_at = serializers.DateTimeField()


class SeasonOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True)


class TournamentSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()


class LeagueGameStandingsOut(serializers.Serializer):
    """The members' Elo across the whole service; the league's own standings are at
    ``standings/``."""

    game = serializers.CharField()
    ratings = LeaderboardEntryOut(many=True)


class LeagueOut(serializers.Serializer):
    slug = serializers.CharField(
        help_text="the name in ASCII (transliterated, or `league` where nothing is), "
        "with -2, -3... where another league has it"
    )
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    visibility = serializers.ChoiceField(choices=["public", "members"])
    members = MemberOut(many=True, help_text="those who have agreed to be in the league")
    invited = InvitedOut(many=True, help_text="asked to join, not members until they accept")
    seasons = SeasonOut(many=True)
    tournaments = TournamentSummaryOut(many=True)
    standings = LeagueGameStandingsOut(many=True)
    recent_games = GameOut(many=True)


class MemberAddedOut(serializers.Serializer):
    player = serializers.CharField()
    role = serializers.ChoiceField(choices=["member", "organiser"])
    status = serializers.ChoiceField(
        choices=["invited", "member"],
        help_text="invited: asked to join, a member once they accept; member: a member already,"
        " whose role is now this",
    )


class LeagueMemberAddedOut(LeagueOut):
    added = MemberAddedOut(help_text="what became of the person asked")


class LeagueInvitationOut(serializers.Serializer):
    league = serializers.CharField(help_text="the league's slug")
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=["member", "organiser"])
    invited_by = serializers.CharField(allow_null=True)
    invited_at = serializers.DateTimeField()
    accept = serializers.CharField(help_text="where to POST to accept")
    decline = serializers.CharField(help_text="where to POST to decline")


class EntryInvitationOut(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "running", "finished"])
    entered_by = serializers.CharField(allow_null=True, help_text="who made the tournament")
    accept = serializers.CharField(help_text="where to POST to accept")
    decline = serializers.CharField(help_text="where to POST to decline (you are withdrawn)")


class MyInvitationsOut(serializers.Serializer):
    leagues = LeagueInvitationOut(many=True)
    tournaments = EntryInvitationOut(many=True)


# -- tournaments ----------------------------------------------------------------------------------


class TournamentIn(serializers.Serializer):
    name = Text(max_length=100)
    game = Text(max_length=40)
    format = serializers.ChoiceField(
        choices=["swiss", "round-robin", "elimination", "double-elimination", "pools"],
        help_text="double-elimination: tables of 2, out after two losses; pools: round-robin"
        " pools (pools, pool_advance), then a playoff",
    )
    table_size = whole_field("table_size")
    rounds = whole_field("rounds", default=3)
    mode = serializers.ChoiceField(choices=["online", "table"], default="online")
    players = serializers.ListField(
        child=Text(**NAME),
        max_length=2000,
        default=list,
        help_text="in seed order; at least two, unless entry_mode is open",
    )
    options = serializers.DictField(required=False, default=dict)
    league = Text(required=False, max_length=50, allow_null=True, default=None)
    bye_points = NumberField(required=False, default=0, low=0)
    placement_points = serializers.DictField(
        child=serializers.ListField(child=NumberField(), min_length=2, max_length=4),
        required=False,
        allow_null=True,
        default=None,
        help_text='points by place per table size, e.g. {"3": [5, 3, 1]}. A size below'
        " table_size that is not given scores on the full table's scale by relative place:"
        " place i of n takes the full table's points at i(N-1)/(n-1), interpolated (at tables of"
        " 3 a table of 2 scores 5/1; at tables of 4 a table of 3 scores 5/2.5/1)",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS),
        required=False,
        allow_null=True,
        default=None,
        max_length=10,
    )
    advance = whole_field(
        "advance",
        default=1,
        help_text="elimination: the top k of each table go through, but never everyone at a"
        " table that fell back to fewer seats (there all but the last), so every round"
        " eliminates someone",
    )
    time_control = TimeControlField(required=False, allow_null=True, default=None)
    seeding = serializers.ChoiceField(
        choices=["entry", "rating", "random"],
        default="entry",
        help_text="how round 1 is seeded: the order of players (entry), Elo in the game, highest"
        " first (rating), or a draw (random). Swiss round 1 pits seed k against seed k + T"
        " (T tables: top half against bottom half at tables of 2); elimination deals the seeds"
        " to the tables in snake order, so the top seeds start apart",
    )
    entry_mode = serializers.ChoiceField(
        choices=["organiser", "open"],
        default="organiser",
        help_text="open: players enter themselves (register/) until round 1 is paired",
    )
    cap = whole_field(
        "cap",
        required=False,
        allow_null=True,
        default=None,
        help_text="the most players; later entries wait in line and move up as places free",
    )
    check_in = serializers.BooleanField(
        default=False, help_text="pairing round 1 drops whoever has not checked in (checkin/)"
    )
    people_only = serializers.BooleanField(
        default=False,
        help_text="no bots: neither the house's bots nor bot accounts may be entered or enter",
    )
    vacation_allowed = serializers.BooleanField(
        default=True,
        help_text="a player away from the board (/api/me/vacations/) stops the clock of their"
        " correspondence tables (a move or bank of a day or more); false: clocks keep running",
    )
    top_cut = whole_field(
        "top_cut",
        default=0,
        help_text="Swiss: after the rounds, the top N of the standings play elimination"
        " (advance per table) to a champion; 0 for none",
    )
    avoid_club_rounds = whole_field(
        "avoid_club_rounds",
        default=0,
        help_text="for this many rounds, players sharing a league (other than this"
        " tournament's) are kept apart where repeats allow",
    )
    round_minutes = whole_field(
        "round_minutes",
        required=False,
        allow_null=True,
        default=None,
        help_text="table mode: the length of a round's clock (rounds/<n>/start/)",
    )
    elimination_ties = serializers.ChoiceField(
        choices=["playoff", "seed", "score"],
        default="playoff",
        help_text="elimination and top cut: a tie across the line of who goes through is played"
        " off (the report gives the order, or an organiser records it: tables/<t>/tiebreak/),"
        " or goes to the higher seed, or to the higher score then the higher seed",
    )
    season = Text(
        required=False,
        allow_null=True,
        default=None,
        max_length=100,
        help_text="a season of the league, by id or name: the games count in its standings",
    )
    pools = whole_field(
        "pools",
        default=0,
        help_text="format pools: how many pools (at least 2), dealt by seed in snake order",
    )
    pool_advance = whole_field(
        "pool_advance",
        default=0,
        help_text="format pools: the top k of each pool go to the playoff",
    )
    grand_final_reset = serializers.BooleanField(
        default=True,
        help_text="double-elimination: a second final when the losers' bracket champion wins"
        " the first",
    )


class PlayerNameIn(serializers.Serializer):
    player = Text(**NAME)


class WalkInIn(serializers.Serializer):
    name = Text(max_length=60, help_text="the walk-in's name, as they want it on the standings")


class WalkInOut(serializers.Serializer):
    player = serializers.CharField(help_text='the name the tournament gives them: "Ann (guest)"')
    code = serializers.CharField(
        allow_blank=True,
        help_text="the code the walk-in claims the entry with once they have an account"
        ' ("" once claimed)',
    )
    claimed_by = serializers.CharField(
        allow_null=True, help_text="the member who has claimed the entry, if any"
    )


class ClaimIn(serializers.Serializer):
    code = Text(max_length=40, help_text="the code on the walk-in's slip, e.g. K7PA-4QXB")


class CheckInIn(serializers.Serializer):
    player = Text(
        **NAME, required=False, help_text="an organiser checks a player in; else yourself"
    )


class CapIn(serializers.Serializer):
    cap = whole_field("cap", allow_null=True, help_text="null: no cap")


class RoundStartIn(serializers.Serializer):
    minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=5,
        max_value=600,
        help_text="default: round_minutes",
    )


class MinutesIn(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=120, help_text="minutes to add")


class TableResultIn(serializers.Serializer):
    results = results_field()
    bid = BidIn(required=False, allow_null=True, default=None)


class TableForfeitIn(serializers.Serializer):
    """A forfeit names the absent player; an adjudication gives the results instead."""

    player = Text(
        **NAME,
        required=False,
        default=None,
        help_text="the player who forfeits (a no-show, a walk-out); or give results instead",
    )
    results = results_field(
        required=False, default=None, help_text="without a player: the result the organiser sets"
    )
    reason = Text(max_length=200, help_text="why, kept with the result (e.g. no-show)")


class TableBidOut(serializers.Serializer):
    player = serializers.CharField(allow_null=True)
    amount = serializers.IntegerField()
    settled = serializers.BooleanField(
        required=False, help_text="online: false while the players are still bidding"
    )


class TableOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField())
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["active", "finished", "void"])
    result = ResultOut(many=True, allow_null=True)
    report = RecordOut(required=False, help_text="table mode: where the reported result stands")
    extra_minutes = serializers.IntegerField(
        help_text="table mode: minutes this table plays beyond the round's clock"
    )
    bid = TableBidOut(
        required=False,
        allow_null=True,
        help_text="the starting bid (Deep Vents' variant): reported at a table in table mode,"
        " the highest so far (settled once play starts) at a game played here",
    )
    bracket = serializers.CharField(
        required=False,
        help_text='double elimination: where in the bracket, e.g. "Losers\' bracket round 2"',
    )


class RoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(
        choices=["main", "cut"],
        help_text="cut: a round of a Swiss event's top cut, or of the playoff after pools",
    )
    started_at = serializers.DateTimeField(
        allow_null=True, help_text="table mode: when the round's clock started"
    )
    minutes = serializers.IntegerField(
        allow_null=True, help_text="the round's length, extensions included"
    )
    paused_at = serializers.DateTimeField(
        allow_null=True, help_text="while the round's clock is paused: when it stopped"
    )
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="when the round's clock reaches 0:00 (pauses taken off)"
    )
    tables = TableOut(many=True)
    byes = serializers.ListField(child=serializers.CharField())


class EntryOut(serializers.Serializer):
    player = serializers.CharField(
        help_text='a username, or a walk-in not yet claimed: "Ann (guest)"'
    )
    walk_in = serializers.BooleanField(
        help_text="entered by name, without an account: plays as a guest, never rated (claimed"
        " by a member since, if player is a username)"
    )
    seed = serializers.IntegerField(help_text="1 is the top seed, by the tournament's seeding")
    dropped = serializers.BooleanField()
    waitlisted = serializers.BooleanField(help_text="waiting for a place (beyond the cap)")
    checked_in = serializers.BooleanField()
    answer = serializers.ChoiceField(
        choices=["invited", "accepted", "declined"],
        help_text="invited: entered by an organiser, not yet answered (paired and playing, but"
        " no game of theirs is rated until they accept); accepted (or entered themself);"
        " declined: withdrawn",
    )


class TimeControlOut(serializers.Serializer):
    move_seconds = serializers.IntegerField(required=False)
    bank_seconds = serializers.IntegerField(required=False)
    increment_seconds = serializers.IntegerField(required=False)
    on_timeout = serializers.CharField()


class TournamentOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    format = serializers.CharField()
    table_size = serializers.IntegerField()
    rounds = serializers.IntegerField()
    mode = serializers.CharField()
    options = serializers.DictField()
    status = serializers.ChoiceField(choices=["open", "running", "finished"])
    bye_points = serializers.FloatField()
    placement_points = serializers.DictField(
        child=serializers.ListField(child=serializers.FloatField()),
        help_text="points by place per table size, the short tables' on the full table's scale",
    )
    tiebreaks = serializers.ListField(child=serializers.CharField())
    advance = serializers.IntegerField()
    seeding = serializers.ChoiceField(choices=["entry", "rating", "random"])
    league = serializers.CharField(allow_null=True)
    time_control = TimeControlOut(allow_null=True)
    organisers = serializers.ListField(child=serializers.CharField())
    players = EntryOut(many=True)
    rounds_played = RoundOut(many=True)
    entry_mode = serializers.ChoiceField(choices=["organiser", "open"])
    cap = serializers.IntegerField(allow_null=True)
    check_in = serializers.BooleanField()
    people_only = serializers.BooleanField(help_text="no bots may enter")
    vacation_allowed = serializers.BooleanField(
        help_text="a player away from the board stops the clock of their correspondence tables"
    )
    top_cut = serializers.IntegerField()
    avoid_club_rounds = serializers.IntegerField()
    round_minutes = serializers.IntegerField(allow_null=True)
    elimination_ties = serializers.ChoiceField(choices=["playoff", "seed", "score"])
    season = serializers.CharField(allow_null=True)
    pools = serializers.IntegerField(help_text="format pools: how many pools; else 0")
    pool_advance = serializers.IntegerField(help_text="format pools: the top k of each pool")
    grand_final_reset = serializers.BooleanField()
    champion = serializers.CharField(
        allow_null=True, help_text="once finished: the final's winner, or the top standing"
    )


class BracketMatchOut(serializers.Serializer):
    match = serializers.CharField(help_text='the bracket match: "W1-1", "L2-1", "GF1", "GF2"')
    table = serializers.IntegerField(allow_null=True, help_text="its table, once paired")
    round = serializers.IntegerField(allow_null=True, help_text="the event round it was paired in")
    players = serializers.ListField(child=serializers.CharField(allow_null=True))
    through = serializers.CharField(allow_null=True, help_text="who went through")
    state = serializers.ChoiceField(
        choices=["waiting", "ready", "played", "walkover", "bye", "empty"]
    )


class BracketRoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    tables = BracketMatchOut(many=True)


class BracketSideOut(serializers.Serializer):
    name = serializers.CharField()
    rounds = BracketRoundOut(many=True)


class PlacingOut(serializers.Serializer):
    player = serializers.CharField()
    place = serializers.CharField()


class BracketOut(serializers.Serializer):
    format = serializers.CharField()
    sides = BracketSideOut(many=True)
    champion = serializers.CharField(allow_null=True)
    placings = PlacingOut(many=True)


class TournamentListOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField(source="slug")
    format = serializers.CharField()
    mode = serializers.CharField()
    status = serializers.CharField()


class PairIn(serializers.Serializer):
    draft = serializers.BooleanField(
        default=False,
        help_text="true: keep the pairing as a draft for the organisers to edit and publish"
        " (no games, no notices); false (the default): publish it at once",
    )


class DraftTableOut(serializers.Serializer):
    number = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField(), help_text="in seat order")


class DraftRepeatOut(serializers.Serializer):
    table = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    times = serializers.IntegerField(help_text="how often the two have met before")


class DraftOut(serializers.Serializer):
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=["main", "cut"])
    tables = DraftTableOut(many=True)
    byes = serializers.ListField(child=serializers.CharField())
    repeats = DraftRepeatOut(many=True)


class DraftEditOut(DraftOut):
    costs = serializers.ListField(
        child=serializers.CharField(), help_text="what the edit costs, in words"
    )


class DraftFixIn(serializers.Serializer):
    player = Text(**NAME)
    table = serializers.IntegerField(min_value=1)


class DraftByeIn(serializers.Serializer):
    player = Text(**NAME)
    give = serializers.BooleanField(default=True, help_text="false: take the bye back")


class DraftEditIn(serializers.Serializer):
    """One of the three."""

    swap = serializers.ListField(child=Text(**NAME), min_length=2, max_length=2, required=False)
    fix = DraftFixIn(required=False)
    bye = DraftByeIn(required=False)


class FixedTableIn(serializers.Serializer):
    player = Text(**NAME)
    table = serializers.IntegerField(
        min_value=1, max_value=999, allow_null=True, help_text="null: no fixed table"
    )


STANDINGS_ROUND = OpenApiParameter(
    "round", int, description="the standings as they stood after this round (1 to the latest)"
)


class StandingOut(serializers.Serializer):
    player = serializers.CharField()
    points = serializers.FloatField()
    tiebreaks = serializers.ListField(child=serializers.FloatField())
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    byes = serializers.IntegerField()
    dropped = serializers.BooleanField()
    place = serializers.IntegerField(
        allow_null=True,
        help_text="after an elimination event or a top cut: the final placing (1 the champion),"
        " shared up to place_to by those who went out together; else null",
    )
    place_to = serializers.IntegerField(allow_null=True)
    pool = serializers.CharField(required=False, help_text="format pools only: the pool, A, B, ...")


class TiebreakIn(serializers.Serializer):
    order = serializers.ListField(
        child=Text(**NAME),
        min_length=2,
        max_length=4,
        help_text="the table's players, best first: the play-off's result or the organiser's"
        " decision; it keeps the game's ranks, changing only the order of tied players",
    )


class TiebreakOut(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    order = serializers.ListField(child=serializers.CharField())
