"""A database holding a game of every kind, made through the services as the site makes them,
for the tests of ``manage.py check_history`` and of backup and restore: games played here of
every game and every rules version, one ended by the rules after a resignation, one forfeited,
one called off, one still running; a table log with an entry taken back; club records, an
Oceans record with its score sheet and a corrected record; a tournament's tables, reported and
confirmed; and the ratings of everything finished."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from games import store
from games.models import Game
from games.play import seating, services, steps
from games.rules import CHANCE, get_rules, registered
from games.tablelog import services as tablelog
from league.services import leagues, tournaments
from league.services.ratings import ratings_update
from league.tournament_spec import TournamentSpec
from tests.league.members import join

DSA = "deep-sea-adventure"


@dataclass
class World:
    """The games made, by what they are, for a test to pick one and plant a difference."""

    played: dict[tuple[str, int], Game] = field(default_factory=dict)  # (slug, rules version)
    resigned: Game | None = None  # ended by the rules, a resigned seat ranked last
    forfeited: Game | None = None
    void: Game | None = None
    active: Game | None = None
    table_log: Game | None = None
    records: list[Game] = field(default_factory=list)  # the Oceans one with its sheet first
    corrected: Game | None = None
    tables: list[Game] = field(default_factory=list)

    def games(self) -> list[Game]:
        single = [self.resigned, self.forfeited, self.void, self.active, self.table_log]
        return [
            *self.played.values(),
            *[g for g in single if g is not None],
            *self.records,
            *([self.corrected] if self.corrected else []),
            *self.tables,
        ]


def build_world() -> World:
    User = get_user_model()
    org, ann, ben, cat = (
        User.objects.create_user(username=name, password="pw-for-tests-only")
        for name in ("org", "ann", "ben", "cat")
    )
    world = World()
    rng = random.Random(35)
    for slug, module in sorted(registered().items()):
        for version in module.spec.known_versions():
            with rules_at(slug, version):
                game = new_game(slug, [ann, ben])
            world.played[slug, version] = play(game, [ann, ben], rng)
    world.resigned = resigned_then_played_on([ann, ben, cat], rng)
    world.forfeited = new_game(DSA, [ann, ben])
    services.game_resign(game=world.forfeited, seat=1, user=ben)
    world.void = services.game_create(
        slug=DSA, seats=[{"user": "ann"}, {"user": "ben"}], options={}, created_by=ann
    )
    seating.game_decline(game=world.void, seat=1, user=ben)
    world.active = play(new_game(DSA, [ann, ben]), [ann, ben], rng, moves=6)
    world.table_log = table_log_with_an_undo(ann, ben, rng)
    world.records, world.corrected = club_records(org, ann, ben, cat)
    world.tables = tournament_tables(org, ann, ben, cat)
    for slug in {game.slug for game in world.games()}:
        ratings_update(slug=slug)
    for game in world.games():
        game.refresh_from_db()
    return world


@contextmanager
def rules_at(slug: str, version: int) -> Iterator[None]:
    """New games of ``slug`` made as they were while ``version`` was the newest."""
    module = registered()[slug]
    newest = module.spec
    module.spec = newest.at(version)
    try:
        yield
    finally:
        module.spec = newest


def new_game(slug: str, users: list) -> Game:
    return services.game_create(
        slug=slug,
        seats=[{"user": u.username} for u in users],
        options={},
        created_by=users[0],
        seated=True,
    )


def play(game: Game, users: list, rng: random.Random, moves: int = 20_000) -> Game:
    """Random legal moves by the seats' users (a resigned seat's by its bot) for ``moves``,
    each through the service as the API sends it, with the game loaded once (in a test's
    transaction nothing is cached on commit, and every load would replay)."""
    head, state = steps.load(game)
    for _ in range(moves):
        if head.status != "active":
            break
        seat = head.current_player
        if head.seats[seat].resigned:
            services.game_bot_move(game_id=game.pk, seat=seat, version=head.version)
            head, state = steps.load(game)
            continue
        appended = services.move_append(
            game,
            head,
            state,
            seat=seat,
            expected_version=head.version,
            action=rng.choice(state.legal_actions()),
            user=users[seat],
        )
        head = appended.head
    game.refresh_from_db()
    return game


def resigned_then_played_on(users: list, rng: random.Random) -> Game:
    """Three divers; the third resigns at once, its bot plays on for it, and the rules end the
    game: a game where it outscored another diver and is ranked last all the same (the chance
    is the server's, so as many games are played as it takes; the others stay in the world)."""
    for _ in range(50):
        game = new_game(DSA, users)
        services.game_resign(game=game, seat=2, user=users[2])
        play(game, users, rng)
        scores = [entry["score"] for entry in game.result]
        if scores[2] > min(scores[:2]):
            return game
    raise AssertionError("in 50 games the resigned diver never outscored another")


def table_log_with_an_undo(keeper, other, rng: random.Random) -> Game:
    """Deep Sea Adventure at a table, its moves and dice entered by ann; her fourth entry is
    taken back and entered again; ben agrees to the log once it is over."""
    game = tablelog.log_create(
        slug=DSA,
        seats=[{"user": keeper.username}, {"user": other.username}, {"guest": "Carol"}],
        options={},
        scorekeeper=keeper.username,
        created_by=keeper,
    )
    state = get_rules(DSA, game.rules_version).new_game(num_players=3)
    entries = 0
    while not state.is_terminal():
        if entries == 4:
            tablelog.log_undo(game=game, expected_version=game.version, user=keeper)
            game.refresh_from_db()
            state = store.replay(game, game.events.order_by("seq"))
        chance = state.current_player == CHANCE
        if chance:
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        head, loaded = steps.load(game)
        tablelog.entry_append(
            game,
            head,
            loaded,
            seat="chance" if chance else state.current_player,
            expected_version=game.version,
            action=action,
            user=keeper,
        )
        state.apply(action)
        entries += 1
        game.refresh_from_db()
    seating.game_accept(game=game, seat=1, user=other)
    game.refresh_from_db()
    return game


OCEANS_SHEET = {
    "edition": "second printing",
    "reef": True,
    "scenarios": ["Cruel Sea"],
    "players": [
        {"player": "ann", "score_pile": 38, "bonus": 2, "other": 1, "total": 41},
        {"player": "ben", "score_pile": 30, "bonus": 5, "other": 2, "total": 37},
    ],
}


def club_records(org, ann, ben, cat) -> tuple[list[Game], Game]:
    """A club's records, the organiser's word standing for its members: Oceans with its sheet,
    one of every other game, a guest at one; and a record corrected afterwards."""
    club = leagues.league_create(name="Harbour club", created_by=org)
    for name in ("ann", "ben", "cat"):
        join(club, name, by=org)
    records = [
        leagues.match_record(
            game="oceans",
            played_at="2026-10-01",
            league=club.slug,
            results=[
                {"player": "ann", "score": None, "rank": 1},
                {"player": "ben", "score": 37, "rank": 2},
            ],
            sheet=OCEANS_SHEET,
            recorded_by=org,
        )
    ]
    for day, slug in enumerate(sorted(registered()), start=2):
        records.append(
            leagues.match_record(
                game=slug,
                played_at=f"2026-10-{day:02d}",
                league=club.slug,
                results=[
                    {"player": "ben", "score": 30, "rank": 1},
                    {"player": "cat", "score": 20, "rank": 2},
                    {"player": "Zoe", "guest": True, "score": 10, "rank": 3},
                ],
                recorded_by=org,
            )
        )
    corrected = leagues.match_record(
        game=DSA,
        played_at="2026-10-20",
        league=club.slug,
        results=[
            {"player": "ann", "score": 9, "rank": 1},
            {"player": "cat", "score": 4, "rank": 2},
        ],
        recorded_by=org,
    )
    leagues.match_correct(
        game=corrected,
        results=[
            {"player": "ann", "score": 4, "rank": 2},
            {"player": "cat", "score": 9, "rank": 1},
        ],
        by=org,
        reason="scores swapped on the slip",
    )
    return records, corrected


def tournament_tables(org, ann, ben, cat) -> list[Game]:
    """A Deep Sea Adventure cup at tables of two, played on physical tables: the first table
    reported and confirmed, the second reported and overridden by the organiser."""
    cup = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Trench cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["ann", "ben", "cat", "org"],
        ),
        created_by=org,
    )
    for user in (ann, ben, cat):
        tournaments.entry_accept(tournament=cup, by=user)
    round_ = tournaments.round_pair(tournament=cup, by=org)
    tables = list(round_.tables.select_related("game").order_by("number"))
    for number, table in enumerate(tables):
        seated = list(table.game.seats.select_related("user").order_by("index"))
        results = [
            {"player": seated[0].user.username, "score": 7, "rank": 1},
            {"player": seated[1].user.username, "score": 3, "rank": 2},
        ]
        tournaments.table_report(tournament=cup, table=table, user=seated[0].user, results=results)
        if number == 0:
            tournaments.table_confirm(
                tournament=cup, table=table, user=seated[1].user, results=results
            )
        else:
            swapped = [
                {"player": seated[0].user.username, "score": 3, "rank": 2},
                {"player": seated[1].user.username, "score": 7, "rank": 1},
            ]
            tournaments.table_override(tournament=cup, table=table, by=org, results=swapped)
    return [table.game for table in tables]
