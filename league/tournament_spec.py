"""A new tournament's settings, typed, checked and completed once (TournamentSpec).

The shape of each setting (its type, its range, its choices) is its input's to check: the API's
serializer (league.api.serializers.TournamentIn) and the page's form
(league.forms.TournamentForm), both with the bounds below, which the schema shows. What the
settings mean together and with the game's rules is checked here, as a spec is made; the
service (league.services.tournaments.tournament_create) then looks up the players and the
league's organisers, and writes the tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import InvalidInput, Refused
from games.catalog import GameType, game_type
from games.play import services as game_services
from games.records import services as records
from games.rules import get_rules
from league import pairing
from league.models import League, Season, Tournament
from league.standings import (
    DEFAULT_PLACEMENT_POINTS,
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    fallback_placement,
)

STARTING_BID_GAMES = records.BID_GAMES

# The whole-number settings' bounds, for the serializer and the form (and so the schema).
BOUNDS = {
    "table_size": (2, 4),
    "rounds": (1, 50),
    "advance": (1, 3),
    "cap": (2, 2000),
    "top_cut": (0, 2000),
    "avoid_club_rounds": (0, 50),
    "round_minutes": (5, 600),
    "pools": (0, 64),
    "pool_advance": (0, 64),
}


@dataclass(frozen=True, kw_only=True)
class TournamentSpec:
    """A new tournament. Making one checks that its settings fit together and the game, and
    raises ``InvalidInput`` or ``Refused`` with the reason (the API's 400 or 422); a spec once
    made holds them complete: ``options`` as the rules take them (with a starting bid where
    the game has one), ``placement_points`` for every table size, ``tiebreaks`` in order,
    ``advance`` 1 unless there is an elimination stage, ``players`` a tuple.

    ``seeding`` orders the seeds, which pair round 1: the order given (``entry``), Elo in the
    game, highest first, with the unrated at the default rating and ties in the order given
    (``rating``), or a draw (``random``). ``entry_mode`` "open" lets players enter themselves
    until round 1 (a field of fewer than two is then allowed until round 1 is paired); ``cap``
    bounds the field, beyond it players wait in line. ``check_in`` drops, when round 1 is
    paired, whoever has not checked in. ``people_only`` keeps bots out (house bots and bot
    accounts alike). ``vacation_allowed`` lets a player away from the board stop the clock of
    their correspondence tables (a move or bank of a day or more). ``top_cut`` (Swiss only) sends the top N of the
    standings after ``rounds`` rounds into an elimination stage, ``advance`` of each table
    going through. ``avoid_club_rounds`` keeps players who share a league (other than the
    tournament's own) apart for that many rounds. ``round_minutes`` (table mode) is the
    default length of a round's clock. ``season`` puts its games in that season of
    ``league``. ``elimination_ties`` says how a tie across the line of who goes through a
    bracket's table is settled: played off (``playoff``), the higher seed, or the higher score
    then the higher seed.

    Format "double-elimination" is played at tables of 2 (a bracket has a winner and a loser
    at each match); ``grand_final_reset`` says whether a second final is played when the
    losers' bracket champion wins the first. Format "pools" splits the field into ``pools``
    round-robin pools, then the top ``pool_advance`` of each play a playoff: the top cut's
    path, so ``top_cut`` is completed as their number and ``rounds`` as the pools' stage."""

    name: str
    game: str  # a game type's slug
    format: str  # a Tournament.Format
    table_size: int
    rounds: int
    mode: str  # a Tournament.Mode
    players: Sequence[str]  # usernames and bot names, in the order entered
    options: dict[str, Any] = field(default_factory=dict)
    league: League | None = None
    season: Season | None = None
    bye_points: int | float = 0
    placement_points: dict[str, list[int | float]] | None = None  # by table size: "3": [5, 3, 1]
    tiebreaks: Sequence[str] | None = None  # None: the usual ones
    advance: int = 1
    time_control: dict[str, Any] | None = None
    seeding: str = Tournament.Seeding.ENTRY
    entry_mode: str = Tournament.EntryMode.ORGANISER
    cap: int | None = None
    check_in: bool = False
    people_only: bool = False
    vacation_allowed: bool = True
    top_cut: int = 0
    avoid_club_rounds: int = 0
    round_minutes: int | None = None
    elimination_ties: str = Tournament.EliminationTies.PLAYOFF
    pools: int = 0
    pool_advance: int = 0
    grand_final_reset: bool = True

    def __post_init__(self) -> None:
        kind = self._game_type()
        self._check_tables(kind)
        self._check_new_formats()
        self._complete("advance", self.advance if self.knockout else 1)
        self._complete("options", _game_options(kind.slug, self.mode, self.options))
        self._check_round_clock_and_season()
        self._check_players()
        self._complete("players", tuple(self.players))
        self._complete("placement_points", _placement(self.placement_points, self.table_size))
        self._complete("tiebreaks", _tiebreaks(self.tiebreaks))
        self._check_time_control()

    @property
    def knockout(self) -> bool:
        """Whether it has an elimination stage: it is one, or a Swiss event's top cut."""
        return self.format in (Tournament.Format.ELIMINATION, Tournament.Format.POOLS) or bool(
            self.top_cut
        )

    def _complete(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)  # once, while it is made

    def _game_type(self) -> GameType:
        try:
            return game_type(self.game)
        except (KeyError, TypeError):
            raise InvalidInput(f"unknown game {self.game!r}") from None

    def _check_tables(self, kind: GameType) -> None:
        """The game is played at tables of this size, in this mode; the stages can be held."""
        if self.mode == Tournament.Mode.ONLINE and not kind.playable:
            raise Refused(f'{kind.name} is recorded from tables only: use mode "table"')
        if not kind.min_players <= self.table_size <= kind.max_players:
            raise Refused(f"{kind.name} is played by {kind.min_players} to {kind.max_players}")
        if self.top_cut and self.format not in (Tournament.Format.SWISS, Tournament.Format.POOLS):
            raise Refused("a top cut follows Swiss rounds: use format swiss")
        if self.top_cut == 1:
            raise Refused("a top cut takes at least two players")
        if self.knockout and not 1 <= self.advance <= self.table_size - 1:  # the table's bound
            raise Refused(
                f"advance must be from 1 to {self.table_size - 1} at tables of {self.table_size}"
            )

    def _check_new_formats(self) -> None:
        """Double elimination at tables of 2; pools with their playoff (then ``top_cut`` is
        the playoff's size and ``rounds`` the pools' stage); neither setting elsewhere."""
        if self.format == Tournament.Format.DOUBLE_ELIMINATION and self.table_size != 2:
            raise Refused(
                "double elimination is played at tables of 2: each match needs one winner"
                " to go on and one loser to drop to the losers' bracket"
            )
        if self.format != Tournament.Format.POOLS:
            if self.pools or self.pool_advance:
                raise Refused("pools and pool_advance are for format pools")
            return
        if self.top_cut:
            raise Refused(
                "the playoff after pools takes the top pool_advance of each pool: leave top_cut out"
            )
        if self.pools < 2:
            raise Refused("pools: at least 2 pools")
        if self.pool_advance < 1:
            raise Refused("pool_advance: at least 1 player of each pool goes to the playoff")
        if self.pool_advance * self.pools < 2:
            raise Refused("the playoff needs at least two players")
        self._complete("top_cut", self.pool_advance * self.pools)
        self._complete("rounds", pool_stage_rounds(len(self.players), self.pools, self.table_size))

    def _check_round_clock_and_season(self) -> None:
        if self.round_minutes is not None and self.mode != Tournament.Mode.TABLE:
            raise Refused("round_minutes is for tournaments played on tables")
        if self.season is not None and (
            self.league is None or self.season.league_id != self.league.pk
        ):
            raise Refused("the season must be one of the tournament's league")

    def _check_players(self) -> None:
        """Each player once, within the cap, and a field every round can seat (with open entry
        a field may still be filling: then only the top cut's size is checked)."""
        entered = len(self.players)
        if len(set(self.players)) != entered:
            raise Refused("a player is entered twice")
        if self.cap is not None and entered > self.cap:
            raise Refused(f"the cap of {self.cap} is below the {entered} players entered")
        pools = (self.pools, self.pool_advance)
        if self.entry_mode == Tournament.EntryMode.ORGANISER or entered >= 2:
            if entered < 2:
                raise Refused("a tournament needs at least two players")
            check_field(
                self.format, entered, self.table_size, self.advance, self.top_cut, pools=pools
            )
        elif self.top_cut and self.format != Tournament.Format.POOLS:
            check_field(self.format, self.top_cut, self.table_size, self.advance, self.top_cut)

    def _check_time_control(self) -> None:
        if self.time_control is not None:
            if self.mode != Tournament.Mode.ONLINE:
                raise Refused("time_control is for online tournaments")
            game_services.parse_time_control(self.time_control)


def check_field(
    format: str,
    players: int,
    table_size: int,
    advance: int,
    top_cut: int = 0,
    *,
    pools: tuple[int, int] = (0, 0),
) -> None:
    """Refuse a field no round could seat, an elimination event (or top cut) no bracket fits
    (league.bracket plans it; league.pairing.elimination_field says why), and a top cut larger
    than the field; in format pools, ``pools`` (how many, and how many of each go through)
    that some pool could not seat or hold."""
    if format == Tournament.Format.POOLS:
        _check_pools(players, table_size, *pools)
    if top_cut > players:
        raise Refused(f"a top cut of {top_cut} is larger than the field of {players}")
    try:
        if format == Tournament.Format.ELIMINATION:
            pairing.elimination_field(players, table_size, advance)
        elif not pairing.table_sizes(players, table_size)[0]:
            raise ValueError(f"{players} players cannot fill a table of {table_size}")
        if top_cut:
            pairing.elimination_field(top_cut, table_size, advance)
    except ValueError as exc:
        raise Refused(f"{'top cut: ' if top_cut else ''}{exc}") from None


def _check_pools(players: int, table_size: int, pools: int, advance: int) -> None:
    """Every pool a table's worth at least, each able to send ``advance`` players on."""
    smallest = players // pools
    if smallest < table_size:
        raise Refused(
            f"{players} players make pools of {smallest}: each of the {pools} pools needs at"
            f" least {table_size} players (a table's worth)"
        )
    if advance >= smallest:
        raise Refused(
            f"pool_advance must be below {smallest}, the players of the smallest pool:"
            " every pool leaves someone out"
        )


def pool_stage_rounds(players: int, pools: int, table_size: int) -> int:
    """The rounds of the pools' stage: the longest pool's round robin (0 for no field yet)."""
    largest = -(-players // pools) if pools else 0
    if largest < 2:
        return 0
    return len(pairing.round_robin(list(range(largest)), table_size))


def _game_options(slug: str, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    options = dict(options)
    if slug in STARTING_BID_GAMES:
        options.setdefault("starting_bid", True)  # tournaments bid for first player
    if mode == Tournament.Mode.ONLINE:
        try:
            spec = get_rules(slug).spec
            return spec.validate(spec.min_players, options)
        except ValueError as exc:
            raise Refused(str(exc)) from None
    return options


def _placement(
    points: dict[str, list[int | float]] | None, table_size: int
) -> dict[str, list[float]]:
    """Points by place per table size: the defaults, then what the organiser gave; a smaller
    size the organiser did not give scores on the full table's scale (``fallback_placement``)."""
    table = {str(size): list(values) for size, values in DEFAULT_PLACEMENT_POINTS.items()}
    points = points or {}
    for size, values in points.items():
        if str(size) not in {"2", "3", "4"} or len(values) != int(size):
            raise Refused(f"placement_points[{size!r}] must list {size} numbers")
        table[str(size)] = values
    scaled = fallback_placement(
        {int(size): values for size, values in table.items()},
        table_size,
        given=[int(size) for size in points],
    )
    return {str(size): values for size, values in scaled.items()}


def _tiebreaks(names: Sequence[str] | None) -> list[str]:
    if names is None:
        return list(DEFAULT_TIEBREAKS)
    if len(set(names)) != len(names):
        raise InvalidInput(f"tiebreaks must be a list from: {', '.join(TIEBREAKS)}")
    return list(names)
