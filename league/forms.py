"""Forms for the league pages: leagues, tournaments, table results and club records.

Forms check the shape of what was typed and turn it into the arguments the services take;
whether a league, tournament, result or record can be made of it is decided by the services
(``league.services.leagues``, ``league.services.tournaments``, ``games.records``) and, for a
new tournament, by ``league.tournament_spec``, whose ``InvalidInput`` messages the views show
as form errors.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone

from core import inputs
from core.errors import InvalidInput
from games.catalog import game_types
from games.pages.forms import ClockForm
from games.records.oceans import SLUG as OCEANS
from games.rules.oceans_data import CARDS
from league.models import ORGANISING, League, Membership, Season, Tournament
from league.standings import DEFAULT_TIEBREAKS
from league.tournament_spec import BOUNDS, STARTING_BID_GAMES, TournamentSpec


def _game_choices() -> list[tuple[str, str]]:
    return [
        (kind.slug, kind.name if kind.playable else f"{kind.name} (table only)")
        for kind in game_types().values()
    ]


def _date_input() -> forms.DateInput:
    # A date picker reads and writes ISO dates, whatever the site's display format.
    return forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})


def leagues_of(user, roles: tuple[str, ...] | None = None):
    """The leagues ``user`` belongs to (in one of ``roles``, if given); staff may use any."""
    if user.is_staff:
        return League.objects.order_by("name")
    memberships = Membership.objects.filter(user=user)
    if roles is not None:
        memberships = memberships.filter(role__in=roles)
    return League.objects.filter(pk__in=memberships.values("league")).order_by("name")


# -- leagues --------------------------------------------------------------------------------------


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=100)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    visibility = forms.ChoiceField(
        label="Who sees the club",
        choices=[
            (League.Visibility.PUBLIC, "Anyone"),
            (League.Visibility.MEMBERS, "Members only"),
        ],
        initial=League.Visibility.PUBLIC,
        required=False,
        widget=forms.RadioSelect,
    )

    def clean_visibility(self) -> str:
        return self.cleaned_data.get("visibility") or League.Visibility.PUBLIC


class MemberForm(forms.Form):
    player = forms.CharField(label="Username", max_length=150)
    role = forms.ChoiceField(
        choices=[(Membership.Role.MEMBER, "Member"), (Membership.Role.ORGANISER, "Organiser")],
        initial=Membership.Role.MEMBER,
    )


VISIBILITY_CHOICES = [
    (League.Visibility.PUBLIC, "Anyone: its page, games and standings are public"),
    (League.Visibility.MEMBERS, "Members only: nobody else sees any of it"),
]


class ClubSettingsForm(forms.Form):
    visibility = forms.ChoiceField(
        label="Who sees the club", choices=VISIBILITY_CHOICES, widget=forms.RadioSelect
    )


class InviteLinkForm(forms.Form):
    days = forms.IntegerField(label="Lasts (days)", min_value=1, max_value=92, initial=7)
    max_uses = forms.IntegerField(label="Lets in (people)", min_value=1, max_value=1000, initial=20)


class JoinAskForm(forms.Form):
    message = forms.CharField(
        label="A word to the organisers (optional)",
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    code = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=100)
    starts_on = forms.DateField(label="Starts on", widget=_date_input())
    ends_on = forms.DateField(label="Ends on", required=False, widget=_date_input())


class SeasonTournamentForm(forms.Form):
    """Count one of the league's tournaments in one of its seasons."""

    tournament = forms.ModelChoiceField(queryset=Tournament.objects.none())
    season = forms.ModelChoiceField(queryset=Season.objects.none())

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = league.tournaments.order_by("-created_at")
        self.fields["season"].queryset = league.seasons.all()
        self.fields["season"].label_from_instance = lambda season: season.name


class PlaysImportForm(forms.Form):
    """A file of plays to import into a league (league.services.plays)."""

    file = forms.FileField(
        label="Plays file",
        help_text="CSV with the columns play, date, game, player, guest, score, rank (games by "
        "name, as the site shows them), or a BoardGameGeek or BG Stats play log saved as CSV; "
        "or a BG Stats export (JSON).",
    )
    format = forms.ChoiceField(
        choices=[("csv", "CSV"), ("bgstats", "BG Stats export")], initial="csv"
    )
    dry_run = forms.BooleanField(
        label="Dry run: check and report, import nothing", required=False, initial=True
    )
    skip_refused = forms.BooleanField(
        label="Skip the refused rows and import the rest", required=False
    )
    import_duplicates = forms.BooleanField(
        label="Import plays already in the league too (the same date, game and players)",
        required=False,
    )


# -- tournaments ----------------------------------------------------------------------------------


def _whole_field(setting: str, **kwargs: Any) -> forms.IntegerField:
    """A whole-number tournament setting within its bounds (league.tournament_spec.BOUNDS),
    refused with a message naming the setting and its bounds."""
    low, high = BOUNDS[setting]
    refused = f"{setting} must be a whole number from {low} to {high}"
    return forms.IntegerField(
        min_value=low,
        max_value=high,
        error_messages={"min_value": refused, "max_value": refused},
        **kwargs,
    )


# The clock an online event is offered: 20 minutes each and 10 seconds a turn keeps a game of
# 2-4 players within about an hour and a half, a round of a day's event.
LIVE_BANK_MINUTES = 20
LIVE_INCREMENT_SECONDS = 10


class TournamentForm(ClockForm):
    """A new tournament. ``players`` is one username per line, in seed order. The form checks
    what was typed; what it means is checked as :meth:`spec` makes the tournament of it."""

    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=_game_choices, initial="deep-sea-adventure")
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial=Tournament.Format.SWISS)
    mode = forms.ChoiceField(
        choices=[
            (Tournament.Mode.TABLE, "Table: played on physical tables, players report"),
            (Tournament.Mode.ONLINE, "Online: played here"),
        ],
        initial=Tournament.Mode.TABLE,
        help_text="Only games not marked “table only” can be played online.",
    )
    table_size = _whole_field("table_size", label="Players per table", initial=2)
    rounds = _whole_field(
        "rounds",
        initial=3,
        help_text="Elimination runs until one player is left; pools play each pool's round robin.",
    )
    advance = forms.IntegerField(
        label="Advance per table",
        initial=1,
        help_text="Elimination: how many of each table go through; a table short of seats"
        " always sends its last player home.",
    )
    players = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "alice\nbob\nbot-random-1"}),
        help_text="One username per line. Bots are bot-random, bot-random-1, … With open entry"
        " you may leave it empty.",
    )
    entry_mode = forms.ChoiceField(
        label="Entry",
        required=False,
        initial=Tournament.EntryMode.ORGANISER,
        choices=[
            (Tournament.EntryMode.ORGANISER, "the organisers enter the players"),
            (Tournament.EntryMode.OPEN, "players enter themselves until round 1"),
        ],
    )
    cap = _whole_field(
        "cap",
        label="Most players",
        required=False,
        help_text="Leave empty for no limit; later entries wait in line for a place.",
    )
    check_in = forms.BooleanField(
        label="Players check in before round 1",
        required=False,
        help_text="Whoever has not checked in when round 1 is paired is dropped.",
    )
    people_only = forms.BooleanField(
        label="People only",
        required=False,
        help_text="No bots: neither the house's bots nor members' bot accounts may enter.",
    )
    vacation_allowed = forms.BooleanField(
        label="Players may be away from the board",
        required=False,
        initial=True,
        help_text="With a clock of a day or more a move, a player on vacation stops the clock"
        " of their table until they are back.",
    )
    top_cut = _whole_field(
        "top_cut",
        label="Top cut",
        required=False,
        help_text="Swiss: after the rounds, this many of the top play elimination to a"
        " champion. Leave empty for none.",
    )
    pools = _whole_field(
        "pools",
        label="Pools",
        required=False,
        help_text="Pools, then a playoff: how many pools. The seeds are dealt to them in turn,"
        " so each pool has a top seed.",
    )
    pool_advance = _whole_field(
        "pool_advance",
        label="Through from each pool",
        required=False,
        help_text="How many of each pool go on to the playoff.",
    )
    grand_final_reset = forms.BooleanField(
        label="A second grand final if the losers' bracket champion wins the first",
        required=False,
        initial=True,
        help_text="Double elimination: then both players have lost once, and a second game"
        " decides.",
    )
    avoid_club_rounds = _whole_field(
        "avoid_club_rounds",
        label="Keep club mates apart for",
        required=False,
        help_text="Rounds in which players who share a league are not paired together where"
        " it can be helped.",
    )
    tiebreaks = forms.MultipleChoiceField(
        label="Tie-breaks",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        initial=list(DEFAULT_TIEBREAKS),
        choices=[
            ("buchholz", "Buchholz: the opponents' points"),
            ("median_buchholz", "Median Buchholz: without the best and worst game"),
            ("opponents_share", "Opponents' share: how well the opponents did, with a floor"),
            ("score", "Score: the game scores"),
            ("share", "Share: each score as a part of its table's"),
            ("wins", "Wins"),
            ("head_to_head", "Head to head among the tied players"),
        ],
        help_text="Applied in the order listed; none ticked means the usual ones.",
    )
    round_minutes = _whole_field(
        "round_minutes",
        label="Minutes per round",
        required=False,
        help_text="On tables: the round's clock, started from the tournament page.",
    )
    elimination_ties = forms.ChoiceField(
        label="A tie for a place that goes through",
        required=False,
        initial=Tournament.EliminationTies.PLAYOFF,
        choices=[
            (Tournament.EliminationTies.PLAYOFF, "is played off"),
            (Tournament.EliminationTies.SEED, "goes to the higher seed"),
            (Tournament.EliminationTies.SCORE, "goes to the higher score, then the higher seed"),
        ],
        help_text="Elimination and top cut: who goes through when players tie at the line.",
    )
    seeding = forms.ChoiceField(
        label="Seeds",
        required=False,
        initial=Tournament.Seeding.ENTRY,
        choices=[
            (Tournament.Seeding.ENTRY, "in the order entered above"),
            (Tournament.Seeding.RATING, "by rating in the game, highest first"),
            (Tournament.Seeding.RANDOM, "drawn at random"),
        ],
        help_text="Round 1 follows the seeds: Swiss pits the top half against the bottom half;"
        " elimination snakes them, so the top seeds start at different tables.",
    )
    bye_points = forms.FloatField(
        label="Points for a bye",
        initial=0,
        min_value=0,
        max_value=inputs.MAX_SCORE,
        error_messages={
            "min_value": f"bye_points must be a number from 0 to {inputs.MAX_SCORE:,}",
            "max_value": f"bye_points must be a number from 0 to {inputs.MAX_SCORE:,}",
        },
    )
    starting_bid = forms.BooleanField(
        label="Bid for first player",
        required=False,
        initial=True,
        help_text="Deep Vents: players bid archaea for the first turn.",
    )
    league = forms.ModelChoiceField(
        queryset=League.objects.none(),
        required=False,
        empty_label="No league",
        help_text="Leagues you organise.",
    )
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(),
        required=False,
        empty_label="No season",
        help_text="Its games count in this season of the league's standings.",
    )

    def __init__(self, *args: Any, user, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # An event played live: a bank each, so that no table waits on one player for ever,
        # and a forfeit at 0:00, so that the round finishes (docs/tournaments.md).
        self.fields["bank_minutes"].initial = LIVE_BANK_MINUTES
        self.fields["increment_seconds"].initial = LIVE_INCREMENT_SECONDS
        self.fields["on_timeout"].initial = "forfeit"
        self.fields["on_timeout"].help_text = (
            "Online: a player who forfeits loses that game; at a table of 3 or 4 the others"
            " play on. Leave both clocks empty to play without one."
        )
        organised = leagues_of(user, ORGANISING)
        self.fields["league"].queryset = organised
        self.fields["season"].queryset = Season.objects.filter(league__in=organised).select_related(
            "league"
        )
        self.fields["season"].label_from_instance = lambda season: (
            f"{season.league.name}: {season.name}"
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        season, league = data.get("season"), data.get("league")
        if season is not None and (league is None or season.league_id != league.pk):
            self.add_error("season", "Choose a season of the tournament's league.")
        return data

    def clean_name(self) -> str:
        try:  # no control characters, as the API's Text refuses them
            return inputs.text(self.cleaned_data["name"], "name", 100)
        except InvalidInput as exc:
            raise forms.ValidationError(str(exc)) from None

    @property
    def bid_games(self) -> list[str]:
        return sorted(STARTING_BID_GAMES)

    def clean_tiebreaks(self) -> list[str] | None:
        chosen = set(self.cleaned_data["tiebreaks"])
        order = [name for name, _ in self.fields["tiebreaks"].choices if name in chosen]
        return order or None

    def clean_entry_mode(self) -> str:
        return self.cleaned_data["entry_mode"] or Tournament.EntryMode.ORGANISER

    def clean_seeding(self) -> str:
        return self.cleaned_data["seeding"] or Tournament.Seeding.ENTRY

    def clean_elimination_ties(self) -> str:
        return self.cleaned_data["elimination_ties"] or Tournament.EliminationTies.PLAYOFF

    def time_control(self) -> dict[str, Any] | None:
        """The clock of an online event; a table-mode event has the round clock instead."""
        if self.cleaned_data["mode"] != Tournament.Mode.ONLINE:
            return None
        return super().time_control()

    def players_list(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["players"].splitlines() if line.strip()]

    def options(self) -> dict[str, Any]:
        if self.cleaned_data["game"] in STARTING_BID_GAMES:
            return {"starting_bid": self.cleaned_data["starting_bid"]}
        return {}

    def clean_bye_points(self) -> int | float:
        points = self.cleaned_data["bye_points"]
        return int(points) if points.is_integer() else points

    def spec(self) -> TournamentSpec:
        """The tournament the form describes; raises the service's errors (InvalidInput,
        Refused) where its settings do not fit together or the game."""
        data = self.cleaned_data
        return TournamentSpec(
            name=data["name"],
            game=data["game"],
            format=data["format"],
            table_size=data["table_size"],
            rounds=data["rounds"],
            mode=data["mode"],
            players=self.players_list(),
            options=self.options(),
            league=data["league"],
            season=data["season"],
            bye_points=data["bye_points"],
            tiebreaks=data["tiebreaks"],
            advance=data["advance"],
            time_control=self.time_control(),
            seeding=data["seeding"],
            entry_mode=data["entry_mode"],
            cap=data["cap"],
            check_in=data["check_in"],
            people_only=data["people_only"],
            vacation_allowed=data["vacation_allowed"],
            top_cut=data["top_cut"] or 0,
            avoid_club_rounds=data["avoid_club_rounds"] or 0,
            round_minutes=data["round_minutes"],
            elimination_ties=data["elimination_ties"],
            pools=data["pools"] or 0,
            pool_advance=data["pool_advance"] or 0,
            grand_final_reset=data["grand_final_reset"],
        )


class PlayerForm(forms.Form):
    """A username: a late entry, a tournament's organiser, a club's new owner."""

    player = forms.CharField(label="Username", max_length=150)


class WalkInForm(forms.Form):
    """A walk-in without an account, entered by name."""

    name = forms.CharField(label="Name", max_length=60)


class ClaimForm(forms.Form):
    """The code on a walk-in's slip, to claim their entry."""

    code = forms.CharField(label="Code from your slip", max_length=20)


class DropForm(forms.Form):
    player = forms.ChoiceField(label="Player")

    def __init__(self, *args: Any, players: list[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(p, p) for p in players]


class TableResultForm(forms.Form):
    """A rank and score per seat of one table, and for a starting bid the winning bid."""

    def __init__(self, *args: Any, seats: list[str], bid: bool, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.has_bid = bid
        for i, name in enumerate(seats):
            self.fields[f"rank_{i}"] = forms.IntegerField(
                label=f"{name}: rank", min_value=1, max_value=len(seats)
            )
            self.fields[f"score_{i}"] = forms.IntegerField(label=f"{name}: score", required=False)
        if bid:
            self.fields["bid_player"] = forms.ChoiceField(
                label="Winning bid by",
                required=False,
                choices=[("", "—")] + [(name, name) for name in seats],
            )
            self.fields["bid_amount"] = forms.IntegerField(label="Bid", required=False, min_value=0)

    @staticmethod
    def initial_from(results: list[dict] | None, bid: dict | None = None) -> dict[str, Any]:
        """Initial values from a result in seat order (``[{"player", "rank", "score"}]``)."""
        initial: dict[str, Any] = {}
        for i, line in enumerate(results or []):
            initial[f"rank_{i}"] = line["rank"]
            initial[f"score_{i}"] = line["score"]
        if bid:
            initial.update(bid_player=bid["player"], bid_amount=bid["amount"])
        return initial

    def clean(self):
        data = super().clean()
        if self.has_bid and bool(data.get("bid_player")) != (data.get("bid_amount") is not None):
            raise forms.ValidationError("Give both who won the bid and how much, or neither.")
        return data

    def rows(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        return [(name, self[f"rank_{i}"], self[f"score_{i}"]) for i, name in enumerate(self.seats)]

    def results(self) -> list[dict[str, Any]]:
        return [
            {
                "player": name,
                "rank": self.cleaned_data[f"rank_{i}"],
                "score": self.cleaned_data[f"score_{i}"],
            }
            for i, name in enumerate(self.seats)
        ]

    def bid(self) -> dict[str, Any] | None:
        if not self.has_bid or not self.cleaned_data.get("bid_player"):
            return None
        return {
            "player": self.cleaned_data["bid_player"],
            "amount": self.cleaned_data["bid_amount"],
        }


# -- the Oceans score sheet -----------------------------------------------------------------------

SHEET_PARTS = ("pile", "bonus", "other")


class OceansSheetForm(forms.Form):
    """The Oceans score sheet on a page's form (games.records.oceans checks it): per player the
    score pile, bonus token, other points and the Deep cards played; for the game the scenario
    cards, the Reef variant and the rulebook edition.

    The sheet is optional as a whole, not player by player: each player's score is the sum of
    their sheet (rules/oceans-data.md), so a sheet once begun has every player's score pile.
    A form built on this adds the fields (:meth:`add_sheet_fields`) and says which rows are in
    play (:meth:`sheet_players`) and what score each row gives (:meth:`sheet_score`)."""

    sheet_count = 0

    def add_sheet_fields(self, count: int) -> None:
        self.sheet_count = count
        for i in range(count):
            self.fields[f"pile_{i}"] = forms.IntegerField(
                label="Score pile", required=False, min_value=0
            )
            self.fields[f"bonus_{i}"] = forms.IntegerField(
                label="Bonus token", required=False, min_value=0
            )
            self.fields[f"other_{i}"] = forms.IntegerField(label="Other points", required=False)
            self.fields[f"cards_{i}"] = forms.MultipleChoiceField(
                label="Deep cards played",
                required=False,
                choices=[(c.name, c.name) for c in CARDS],
                widget=forms.CheckboxSelectMultiple,
            )
        self.fields["scenarios"] = forms.CharField(
            label="Scenario cards used",
            required=False,
            max_length=1200,
            help_text="One per line, or separated by commas.",
            widget=forms.Textarea(attrs={"rows": 2}),
        )
        self.fields["reef"] = forms.BooleanField(
            label="The Reef variant was played", required=False
        )
        self.fields["edition"] = forms.CharField(
            label="Rulebook edition",
            required=False,
            max_length=100,
            help_text="Whose end-of-game rules you followed (free text).",
        )

    @staticmethod
    def initial_sheet(sheet: dict[str, Any] | None, players: list[str]) -> dict[str, Any]:
        """Initial values from a stored sheet, its rows put in the order of ``players``."""
        if not sheet:
            return {}
        initial: dict[str, Any] = {
            "scenarios": "\n".join(sheet.get("scenarios", [])),
            "reef": sheet.get("reef", False),
            "edition": sheet.get("edition", ""),
        }
        rows = {row["player"]: row for row in sheet.get("players", [])}
        for i, name in enumerate(players):
            if row := rows.get(name):
                initial.update(
                    {
                        f"pile_{i}": row["score_pile"],
                        f"bonus_{i}": row["bonus"],
                        f"other_{i}": row["other"],
                        f"cards_{i}": row["deep_cards"],
                    }
                )
        return initial

    def sheet_players(self) -> list[tuple[int, str]]:
        """The rows the sheet is for, from the cleaned data: (row, the player's name)."""
        raise NotImplementedError

    def sheet_score(self, i: int) -> int | None:
        """The score row ``i``'s result gives beside a sheet (None: the sheet's total)."""
        raise NotImplementedError

    def sheet_row_name(self, i: int) -> str:
        return f"Player {i + 1}"

    def sheet_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "index": i,
                "name": self.sheet_row_name(i),
                "parts": [self[f"{part}_{i}"] for part in SHEET_PARTS],
                "cards": self[f"cards_{i}"],
                "errors": [
                    error
                    for part in (*SHEET_PARTS, "cards")
                    for error in self[f"{part}_{i}"].errors
                ],
            }
            for i in range(self.sheet_count)
        ]

    def sheet_used(self) -> bool:
        """Whether any of the sheet was filled in (for the rows in play)."""
        data = self.cleaned_data
        rows = [i for i, _ in self.sheet_players()]
        if not rows:
            return False
        return bool(
            data.get("reef")
            or (data.get("scenarios") or "").strip()
            or (data.get("edition") or "").strip()
            or any(data.get(f"{part}_{i}") is not None for part in SHEET_PARTS for i in rows)
            or any(data.get(f"cards_{i}") for i in rows)
        )

    def check_sheet(self) -> None:
        """For ``clean``: a sheet begun has every player's score pile, and a score given beside
        it is that player's total, each said on the player's own row."""
        if not self.sheet_used():
            return
        data = self.cleaned_data
        for i, name in self.sheet_players():
            pile = data.get(f"pile_{i}")
            if pile is None:
                if f"pile_{i}" not in self.errors:
                    self.add_error(
                        f"pile_{i}",
                        f"Give {name}'s score pile: the sheet has every player's, or leave the"
                        " whole sheet empty.",
                    )
                continue
            total = pile + (data.get(f"bonus_{i}") or 0) + (data.get(f"other_{i}") or 0)
            score = self.sheet_score(i)
            if score is not None and score != total and f"score_{i}" not in self.errors:
                self.add_error(
                    f"score_{i}",
                    f"{name}'s score {score} is not the total of their sheet, {total} (score pile"
                    " + bonus token + other points): leave the score empty and it is the total.",
                )

    def sheet(self) -> dict[str, Any] | None:
        """The Oceans score sheet as typed, or None when none of it was filled in."""
        if not self.sheet_used():
            return None
        data = self.cleaned_data
        players = []
        for i, name in self.sheet_players():
            row: dict[str, Any] = {
                "player": name,
                "score_pile": data[f"pile_{i}"],
                "bonus": data[f"bonus_{i}"] or 0,
                "other": data[f"other_{i}"] or 0,
                "deep_cards": data[f"cards_{i}"],
            }
            if (score := self.sheet_score(i)) is not None:
                row["total"] = score
            players.append(row)
        return {
            "edition": data["edition"].strip(),
            "reef": data["reef"],
            "scenarios": [
                line.strip()
                for line in data["scenarios"].replace(",", "\n").splitlines()
                if line.strip()
            ],
            "players": players,
        }


# -- club records ---------------------------------------------------------------------------------


class MatchForm(OceansSheetForm):
    """A game played on a table: one row per player (a member's username or a guest's name),
    with a score and a rank. Rows left empty are ignored; the service checks the count.

    For Oceans, the score sheet too: per row the score pile, bonus token, other points and the
    Deep cards played, and for the game the scenarios and the Reef variant. The row's score is
    the sheet's total (left empty, the sum); the service checks the sheet (games.records.oceans)."""

    game = forms.ChoiceField(choices=lambda: [(k.slug, k.name) for k in game_types().values()])
    played_at = forms.DateField(
        label="Played on", initial=lambda: timezone.localdate(), widget=_date_input()
    )
    notes = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )
    league = forms.ModelChoiceField(
        queryset=League.objects.none(),
        required=False,
        empty_label="No league",
        help_text="A league you belong to: the game counts there.",
    )

    def __init__(self, *args: Any, user, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = leagues_of(user)
        self.max_rows = max(kind.max_players for kind in game_types().values())
        for i in range(self.max_rows):
            self.fields[f"player_{i}"] = forms.CharField(
                label=f"Player {i + 1}",
                required=False,
                max_length=150,
                widget=forms.TextInput(attrs={"placeholder": "Player"}),
            )
            self.fields[f"guest_{i}"] = forms.BooleanField(label="Guest", required=False)
            self.fields[f"score_{i}"] = forms.IntegerField(
                label="Score",
                required=False,
                widget=forms.NumberInput(attrs={"placeholder": "Score"}),
            )
            self.fields[f"rank_{i}"] = forms.IntegerField(
                label="Rank",
                required=False,
                min_value=1,
                widget=forms.NumberInput(attrs={"placeholder": "Rank"}),
            )
        self.add_sheet_fields(self.max_rows)

    def clean(self):
        data = super().clean()
        for i in range(self.max_rows):
            named = bool(data.get(f"player_{i}", "").strip())
            if named and data.get(f"rank_{i}") is None and f"rank_{i}" not in self.errors:
                self.add_error(f"rank_{i}", "Give the player's rank.")
            if not named and (
                data.get(f"rank_{i}") is not None or data.get(f"score_{i}") is not None
            ):
                self.add_error(f"player_{i}", "Give the player's name, or clear the row.")
        if not any(data.get(f"player_{i}", "").strip() for i in range(self.max_rows)):
            raise forms.ValidationError("Give each player's name and rank, and their score.")
        self.check_sheet()
        return data

    def rows(
        self,
    ) -> list[tuple[int, forms.BoundField, forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (i, self[f"player_{i}"], self[f"guest_{i}"], self[f"score_{i}"], self[f"rank_{i}"])
            for i in range(self.max_rows)
        ]

    def results(self) -> list[dict[str, Any]]:
        data = self.cleaned_data
        return [
            {
                "player": data[f"player_{i}"].strip(),
                "guest": data[f"guest_{i}"],
                "score": data[f"score_{i}"],
                "rank": data[f"rank_{i}"],
            }
            for i in range(self.max_rows)
            if data[f"player_{i}"].strip()
        ]

    def sheet_players(self) -> list[tuple[int, str]]:
        data = self.cleaned_data
        if data.get("game") != OCEANS:
            return []
        rows = range(self.max_rows)
        return [(i, name) for i in rows if (name := (data.get(f"player_{i}") or "").strip())]

    def sheet_score(self, i: int) -> int | None:
        return self.cleaned_data.get(f"score_{i}")

    def sheet_row_name(self, i: int) -> str:
        return (self[f"player_{i}"].value() or "").strip() or super().sheet_row_name(i)

    def player_ranges(self) -> dict[str, dict[str, int]]:
        """Per game, its player range, for the page's script to show only the rows it needs."""
        return {k.slug: {"min": k.min_players, "max": k.max_players} for k in game_types().values()}


class CorrectionForm(TableResultForm, OceansSheetForm):
    """A new result for a club record: the same players, each with a rank and a score, and why
    it changes. It opens on the result as it stands; for Oceans, with its score sheet.

    Beside a sheet, a score left as it stood is taken to be the sheet's total, so correcting
    the sheet corrects the score; a score changed must agree with the sheet."""

    reason = forms.CharField(
        max_length=500,
        help_text="What was wrong, for the players and the history (e.g. the scores were swapped).",
    )

    def __init__(
        self,
        *args: Any,
        players: list[str],
        current: list[dict] | None,
        oceans: bool = False,
        sheet: dict[str, Any] | None = None,
        **kwargs: Any,
    ):
        initial = self.initial_from(current)
        if oceans:
            initial.update(self.initial_sheet(sheet, players))
        super().__init__(*args, seats=players, bid=False, initial=initial, **kwargs)
        self.oceans = oceans
        if oceans:
            self.add_sheet_fields(len(players))

    def clean(self):
        data = super().clean()
        self.check_sheet()
        return data

    def sheet_players(self) -> list[tuple[int, str]]:
        return list(enumerate(self.seats)) if self.oceans else []

    def sheet_score(self, i: int) -> int | None:
        score = self.cleaned_data.get(f"score_{i}")
        return None if score == self.initial.get(f"score_{i}") else score

    def sheet_row_name(self, i: int) -> str:
        return self.seats[i]

    def results(self) -> list[dict[str, Any]]:
        results = super().results()
        if self.sheet_used():
            for i, line in enumerate(results):
                line["score"] = self.sheet_score(i)
        return results


class WebhookForm(forms.Form):
    """A club's webhook (league.webhooks): where, and in which words."""

    url = forms.CharField(
        label="Address (https://…)",
        max_length=500,
        widget=forms.URLInput(attrs={"placeholder": "https://discord.com/api/webhooks/…"}),
    )
    format = forms.ChoiceField(
        label="Sent as",
        choices=[
            ("discord", "a Discord message"),
            ("slack", "a Slack message"),
            ("plain", "signed JSON, for a program"),
        ],
    )


class TournamentEditForm(ClockForm):
    """The settings an organiser changes on the tournament's page, as they are now. Only the
    fields changed are sent (:meth:`changes`); the service decides whether the state allows
    them (league.services.tournaments.editing)."""

    name = forms.CharField(max_length=100)
    rounds = TournamentForm.base_fields["rounds"]
    bye_points = TournamentForm.base_fields["bye_points"]
    tiebreaks = TournamentForm.base_fields["tiebreaks"]
    round_minutes = TournamentForm.base_fields["round_minutes"]
    cap = TournamentForm.base_fields["cap"]
    check_in = TournamentForm.base_fields["check_in"]

    def __init__(self, *args: Any, tournament: Tournament, started: bool, **kwargs: Any):
        clock = tournament.time_control or {}
        bank = clock.get("bank_seconds")
        initial = {
            "name": tournament.name,
            "rounds": tournament.rounds,
            "bye_points": tournament.bye_points,
            "tiebreaks": list(tournament.tiebreaks),
            "round_minutes": tournament.round_minutes,
            "cap": tournament.cap,
            "check_in": tournament.check_in,
            "move_seconds": clock.get("move_seconds"),
            "bank_minutes": bank // 60 if bank else None,
            "increment_seconds": clock.get("increment_seconds") if bank else None,
            "on_timeout": clock.get("on_timeout", "random"),
        }
        super().__init__(*args, initial=initial, prefix="edit", **kwargs)
        self.tournament = tournament
        self.fields["tiebreaks"].initial = None  # the tournament's own, from ``initial``
        self.fields["rounds"].help_text = "Never below the rounds already paired."
        unused = []
        if tournament.format == Tournament.Format.ELIMINATION:
            unused.append("rounds")  # it runs to a champion
        if tournament.mode == Tournament.Mode.ONLINE:
            unused.append("round_minutes")
        else:
            unused += list(ClockForm.base_fields)
        if started:
            unused.append("cap")  # the field is set
        if started or tournament.check_in_closed_at is not None:
            unused.append("check_in")
        for name in unused:
            del self.fields[name]

    clean_name = TournamentForm.clean_name
    clean_bye_points = TournamentForm.clean_bye_points
    clean_tiebreaks = TournamentForm.clean_tiebreaks

    def shown_clock_fields(self) -> list[forms.BoundField]:
        """The clock's fields, for an online tournament (none at a venue)."""
        return [self[name] for name in ClockForm.base_fields if name in self.fields]

    def changes(self) -> dict[str, Any]:
        """The settings changed, by their API names: the tie-breaks in the form's order
        (none ticked: the usual ones, as ``clean_tiebreaks`` gives them), the clock as one
        setting."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        for name in self.changed_data:
            if name in ClockForm.base_fields:
                out["time_control"] = self.time_control()
            else:
                out[name] = data[name]
        return out
