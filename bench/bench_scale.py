"""Every page and API listing at scale: time and queries against a raw-SQL floor, one run.

Builds a large PostgreSQL database quickly: players, games and seats by COPY, the events by one
INSERT … SELECT over generate_series on the server (1M events in seconds), then a table-mode
tournament of 80 tables, a league, and a game played through the service, through the services;
the ratings by one recompute per game. Then, for each page, the median time of several
requests through django.test.Client (full middleware, signed in, DEBUG off), the queries it
makes, and a floor: the minimal SQL returning the same rows, timed on the same connection.

It works in the database DATABASE_URL names, which it empties first (its schema is dropped
and migrated again): give it a database of its own.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal_scale \\
        .venv/bin/python bench/bench_scale.py [--events 1000000] [--repeats 7] [--reuse]
    ... bench/bench_scale.py --events 20000 --repeats 3     # a smoke run
    ... bench/bench_scale.py --reuse --only tournament        # the pages whose name has it
    ... bench/bench_scale.py --reuse --profile "admin game"   # cProfile of that page's requests
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import json
import os
import pstats
import random
import re
import statistics
import sys
import time
import warnings

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("CONN_MAX_AGE", "60")
warnings.filterwarnings("ignore", message="No directory at")  # whitenoise without collectstatic
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from games.admin import LAST_EVENTS  # noqa: E402
from games.models import Game, GameStatus, Seat  # noqa: E402
from games.play import reads, services  # noqa: E402
from league.models import League, Membership  # noqa: E402
from league.services import leagues, tournaments  # noqa: E402
from league.services.ratings import ratings_recompute, ratings_update  # noqa: E402
from league.tournament_spec import TournamentSpec  # noqa: E402

User = get_user_model()
PLAYED = ["deep-sea-adventure", "ventlife", "abyss", "deep-vents"]
DSA = "deep-sea-adventure"
EVENTS_PER_GAME = 130  # the mean; games range from 20 to 240 events
BIG_GAME_EVENTS = 331  # the game whose admin page the issue measured
TABLES = 80
LEAGUE_MEMBERS = 100
LEAGUE_GAMES = 2000


# -- building the database ------------------------------------------------------------------------


def rebuild_schema() -> None:
    with connection.cursor() as cursor:
        cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
    call_command("migrate", verbosity=0)


def copy(table: str, columns: list[str], rows) -> None:
    """COPY rows (tuples, None for NULL) into ``table`` through psycopg's copy."""
    with connection.cursor() as cursor:
        sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
        with cursor.cursor.copy(sql) as out:
            for row in rows:
                out.write_row(row)
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
        )


def build(events: int, players: int, rng: random.Random) -> dict:
    """The database at the size asked; what the pages will be asked about."""
    started = time.perf_counter()
    rebuild_schema()
    now = timezone.now()
    copy(
        "auth_user",
        "id password is_superuser username first_name last_name email is_staff is_active"
        " date_joined".split(),
        (
            (i, "!", False, f"player{i:03d}", "", "", "", False, True, now)
            for i in range(1, players + 1)
        ),
    )
    games = max(10, events // EVENTS_PER_GAME)
    game_rows, seat_rows, seat_id = [], [], 0
    for gid in range(1, games + 1):
        size = BIG_GAME_EVENTS if gid == 1 else rng.randint(20, 240)
        slug = PLAYED[gid % len(PLAYED)] if gid % 5 else "oceans"
        mode = "record" if slug == "oceans" else "play"
        roll = rng.random()
        status = "finished" if roll < 0.85 else "active" if roll < 0.97 else "void"
        seats = rng.sample(range(1, players + 1), rng.randint(2, 4))
        created = now - dt.timedelta(days=365 * rng.random())
        updated = min(now, created + dt.timedelta(minutes=rng.randint(5, 300)))
        if status == "active":
            updated = now - dt.timedelta(hours=48 * rng.random())
        result = None
        if status == "finished":
            scores = [rng.randint(0, 60) for _ in seats]
            result = json.dumps(
                [
                    {
                        "player": f"player{u:03d}",
                        "score": s,
                        "rank": 1 + sum(1 for t in scores if t > s),
                    }
                    for u, s in zip(seats, scores)
                ]
            )
        game_rows.append(
            (
                gid,
                slug,
                mode,
                0 if mode == "record" else 1,
                "{}",
                len(seats),
                status,
                size,
                0 if status == "active" else None,
                result,
                seats[0],
                "random",
                created,
                updated,  # moved_at: the last append
                updated,
                updated if status == "finished" else None,
                "",  # fingerprint: these synthetic logs carry no chain (see the events below)
                0,  # increment_seconds
            )
        )
        for index, user in enumerate(seats):
            seat_id += 1
            seat_rows.append((seat_id, gid, index, user, "", "", False, True))
    copy(
        "games_game",
        "id slug mode rules_version options num_players status version current_player result"
        " created_by_id on_timeout created_at moved_at updated_at finished_at fingerprint"
        " increment_seconds".split(),
        game_rows,
    )
    copy(
        "games_seat",
        "id game_id index user_id guest bot resigned accepted".split(),
        seat_rows,
    )
    with connection.cursor() as cursor:
        # Every game's log on the server: its first event, moves and chance by turns, the end.
        # Each event gets a hash of a hash's size, not a chain (a page reads it, none checks it).
        cursor.execute(
            """
            INSERT INTO games_event (game_id, seq, kind, data, seat, actor_id, created_at, batch,
                                     hash)
            SELECT g.id, n.seq,
                   CASE WHEN n.seq = 1 THEN 'GameCreated'
                        WHEN n.seq = g.version AND g.status = 'finished' THEN 'GameFinished'
                        WHEN n.seq % 3 = 0 THEN 'ChanceResolved'
                        ELSE 'ActionApplied' END,
                   CASE WHEN n.seq = 1 THEN jsonb_build_object('game', g.slug)
                        ELSE jsonb_build_object('action', jsonb_build_object('type', 'move',
                                                                             'n', n.seq)) END,
                   CASE WHEN n.seq > 1 AND n.seq % 3 <> 0 THEN n.seq % g.num_players END,
                   s.user_id,
                   g.created_at + (g.updated_at - g.created_at) * n.seq / g.version,
                   n.seq,
                   encode(sha256(convert_to(g.id || ':' || n.seq, 'UTF8')), 'hex')
            FROM games_game g
            CROSS JOIN LATERAL generate_series(1, g.version) AS n(seq)
            LEFT JOIN games_seat s
                   ON s.game_id = g.id AND s.index = n.seq % g.num_players AND n.seq % 3 <> 0
            """
        )
    built = {"games": games, "players": players}
    built.update(build_through_services(rng))
    for slug in [*PLAYED, "oceans"]:
        ratings_recompute(slug=slug)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("SELECT count(*) FROM games_event")
        built["events"] = cursor.fetchone()[0]
    built["seconds"] = time.perf_counter() - started
    return built


def build_through_services(rng: random.Random) -> dict:
    """The rows whose shape only the services know: a table-mode tournament, a league, a
    game played move by move, and the staff member who reads the admin."""
    organiser = User.objects.get(username="player001")
    entrants = [f"player{i:03d}" for i in range(2, 2 + 2 * TABLES)]
    cup = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Trench Open",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=3,
            mode="table",
            players=entrants,
        ),
        created_by=organiser,
    )
    round_ = tournaments.round_pair(tournament=cup, by=organiser)
    for k, table in enumerate(round_.tables.select_related("game")):
        if k % 2:
            continue
        seats = list(table.game.seats.select_related("user").order_by("index"))
        tournaments.table_report(
            tournament=cup,
            table=table,
            user=seats[0].user,
            results=[
                {"player": seats[0].user.username, "score": 5, "rank": 1},
                {"player": seats[1].user.username, "score": 2, "rank": 2},
            ],
        )
    club = leagues.league_create(name="Harbour club", created_by=organiser)
    members = User.objects.exclude(pk=organiser.pk).order_by("pk")[:LEAGUE_MEMBERS]
    Membership.objects.bulk_create([Membership(league=club, user=u) for u in members])
    recorded = Game.objects.filter(slug="oceans", status=GameStatus.FINISHED).values_list(
        "pk", flat=True
    )[:LEAGUE_GAMES]
    through = League.games.through
    through.objects.bulk_create([through(league_id=club.pk, game_id=pk) for pk in recorded])
    game = played_game()
    User.objects.create_superuser("root", "root@example.org", "bench-pass-1")
    return {"tournament": cup.pk, "league": club.slug, "played": game.pk}


def played_game() -> Game:
    """Ventlife between two players, the first legal move each time, to near its end."""
    a, b = User.objects.get(username="player001"), User.objects.get(username="player002")
    game = services.game_create(
        slug="ventlife",
        seats=[{"user": a.username}, {"user": b.username}],
        options={},
        created_by=a,
    )
    users = {0: a, 1: b}
    while game.version < 100:
        seat = game.current_player
        action = reads.game_legal_actions(game=game, user=users[seat], seat=seat)[0]
        services.game_action_append(
            game=game, seat=seat, expected_version=game.version, action=action, user=users[seat]
        )
        game.refresh_from_db()
    return game


# -- measuring ------------------------------------------------------------------------------------

SEATS = """(SELECT string_agg(coalesce(u.username, s.guest), ',' ORDER BY s.index)
            FROM games_seat s LEFT JOIN auth_user u ON u.id = s.user_id
            WHERE s.game_id = g.id) AS seats"""
MINE = "g.id IN (SELECT game_id FROM games_seat WHERE user_id = %(me)s)"
NEWEST = "ORDER BY g.updated_at DESC, g.id DESC"


def games_floor(where: str = "TRUE", limit: int = 50) -> list[str]:
    return [f"SELECT g.*, {SEATS} FROM games_game g WHERE {where} {NEWEST} LIMIT {limit}"]


def pages(built: dict) -> list[tuple[str, str, str, list[str]]]:
    """(name, who, path, floor statements) for every page and listing."""
    t, league, played = built["tournament"], built["league"], built["played"]
    table_games = f"""g.id IN (SELECT game_id FROM league_table tb
                      JOIN league_round r ON r.id = tb.round_id
                      WHERE r.tournament_id = {t} AND NOT r.void)"""
    return [
        (
            "home page",
            "player",
            "/",
            [
                f"SELECT g.*, {SEATS} FROM games_game g WHERE {MINE}"
                f" ORDER BY g.status <> 'active', g.updated_at DESC, g.id DESC LIMIT 50",
                f"SELECT g.*, {SEATS} FROM games_game g WHERE NOT {MINE} AND g.status = 'active'"
                f" {NEWEST} LIMIT 20",
            ],
        ),
        ("API games, mine", "player", "/api/games/", games_floor(MINE)),
        ("API games, all", "player", "/api/games/?scope=all", games_floor()),
        (
            "API games, all active",
            "player",
            "/api/games/?scope=all&status=active",
            games_floor("g.status = 'active'"),
        ),
        (
            "API games, mine finished",
            "player",
            "/api/games/?status=finished",
            games_floor(f"{MINE} AND g.status = 'finished'"),
        ),
        (
            "API games, one game type",
            "player",
            f"/api/games/?scope=all&game={DSA}",
            games_floor(f"g.slug = '{DSA}'"),
        ),
        (
            "API games, type and status",
            "player",
            f"/api/games/?scope=all&status=finished&game={DSA}",
            games_floor(f"g.slug = '{DSA}' AND g.status = 'finished'"),
        ),
        (
            "game page (100 events)",
            "player",
            f"/games/{played}/",
            [
                f"SELECT g.*, {SEATS} FROM games_game g WHERE g.id = {played}",
                "SELECT e.*, u.username FROM games_event e LEFT JOIN auth_user u"
                f" ON u.id = e.actor_id WHERE e.game_id = {played} ORDER BY e.seq",
            ],
        ),
        (
            "player page",
            "player",
            "/players/player001/",
            [
                "SELECT * FROM league_rating WHERE user_id = %(me)s",
                "SELECT * FROM league_ratingchange WHERE user_id = %(me)s"
                " ORDER BY finished_at, game_id",
                *games_floor(MINE, 20),
            ],
        ),
        (
            "API player",
            "player",
            "/api/players/player001/",
            [
                "SELECT * FROM league_rating WHERE user_id = %(me)s",
                "SELECT * FROM league_ratingchange WHERE user_id = %(me)s"
                " ORDER BY finished_at, game_id",
                *games_floor(MINE, 20),
            ],
        ),
        (
            "leaderboard page",
            "player",
            f"/ratings/{DSA}/",
            [
                "SELECT r.*, u.username FROM league_rating r JOIN auth_user u ON u.id = r.user_id"
                f" WHERE r.slug = '{DSA}' ORDER BY r.rating DESC, u.username LIMIT 200"
            ],
        ),
        (
            "API ratings",
            "player",
            f"/api/ratings/?game={DSA}",
            [
                "SELECT r.*, u.username FROM league_rating r JOIN auth_user u ON u.id = r.user_id"
                f" WHERE r.slug = '{DSA}' ORDER BY r.rating DESC, u.username LIMIT 50"
            ],
        ),
        (
            "league page",
            "player",
            f"/leagues/{league}/",
            [
                "SELECT m.*, u.username FROM league_membership m JOIN auth_user u"
                " ON u.id = m.user_id JOIN league_league l ON l.id = m.league_id"
                f" WHERE l.slug = '{league}' ORDER BY m.role DESC, u.username",
                "SELECT r.slug, u.username, r.rating, r.games FROM league_rating r"
                " JOIN auth_user u ON u.id = r.user_id WHERE r.user_id IN (SELECT user_id"
                " FROM league_membership m JOIN league_league l ON l.id = m.league_id"
                f" WHERE l.slug = '{league}') ORDER BY r.slug, r.rating DESC, u.username",
                f"SELECT g.*, {SEATS} FROM games_game g WHERE g.id IN (SELECT game_id FROM"
                " league_league_games lg JOIN league_league l ON l.id = lg.league_id"
                f" WHERE l.slug = '{league}') AND g.status <> 'void'"
                " ORDER BY g.finished_at DESC, g.id DESC LIMIT 20",
            ],
        ),
        (
            f"tournament page ({TABLES} tables)",
            "player",
            f"/tournaments/{t}/",
            [
                f"SELECT g.*, {SEATS} FROM games_game g WHERE {table_games}",
                "SELECT e.game_id, e.kind, e.data, u.username FROM games_event e"
                " LEFT JOIN auth_user u ON u.id = e.actor_id"
                f" WHERE e.game_id IN (SELECT id FROM games_game g WHERE {table_games})"
                " ORDER BY e.game_id, e.seq",
                "SELECT en.*, u.username FROM league_entry en JOIN auth_user u"
                f" ON u.id = en.user_id WHERE en.tournament_id = {t} ORDER BY en.seed",
            ],
        ),
        (
            "API tournament",
            "player",
            f"/api/tournaments/{t}/",
            [
                f"SELECT g.*, {SEATS} FROM games_game g WHERE {table_games}",
                "SELECT e.game_id, e.kind, e.data, u.username FROM games_event e"
                " LEFT JOIN auth_user u ON u.id = e.actor_id"
                f" WHERE e.game_id IN (SELECT id FROM games_game g WHERE {table_games})"
                " ORDER BY e.game_id, e.seq",
                "SELECT en.*, u.username FROM league_entry en JOIN auth_user u"
                f" ON u.id = en.user_id WHERE en.tournament_id = {t} ORDER BY en.seed",
            ],
        ),
        (
            "admin event list",
            "staff",
            "/admin/games/event/",
            [
                "SELECT e.*, g.slug, u.username FROM games_event e"
                " JOIN games_game g ON g.id = e.game_id LEFT JOIN auth_user u"
                " ON u.id = e.actor_id ORDER BY e.id DESC LIMIT 100"
            ],
        ),
        (
            "admin game list",
            "staff",
            "/admin/games/game/",
            ["SELECT g.* FROM games_game g ORDER BY g.updated_at DESC, g.id DESC LIMIT 100"],
        ),
        (
            f"admin game page ({BIG_GAME_EVENTS} events)",
            "staff",
            "/admin/games/game/1/change/",
            [
                f"SELECT g.*, {SEATS} FROM games_game g WHERE g.id = 1",
                "SELECT e.*, u.username FROM games_event e LEFT JOIN auth_user u"
                " ON u.id = e.actor_id WHERE e.game_id = 1 ORDER BY e.seq DESC"
                f" LIMIT {LAST_EVENTS}",
            ],
        ),
    ]


def timed(call, repeats: int) -> float:
    """The median seconds of ``repeats`` calls, after one unmeasured."""
    call()
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def cold(call):
    """``call`` with the cache emptied first (the kept league standings among what it holds)."""

    def run():
        cache.clear()
        call()

    return run


def row(name: str, call, repeats: int, floor: list[str], me: int) -> None:
    seconds = timed(call, repeats)
    floor_s = timed(floor_call(floor, me), repeats)
    count, _ = queries_of(call)
    print(
        f"{name:<34} {seconds * 1000:8.2f} {count:8d} {floor_s * 1000:9.2f} {seconds / floor_s:6.1f}x"
    )


def floor_call(statements: list[str], me: int):
    def run():
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql, {"me": me})
                cursor.fetchall()

    return run


def page_call(client: Client, path: str):
    def run():
        response = client.get(path)
        if response.status_code != 200:
            sys.exit(f"GET {path} -> {response.status_code}")

    return run


def queries_of(call) -> tuple[int, str]:
    """The queries a request makes, and how PostgreSQL reads its listing: the plan's first
    scan of the first query that pages through games or events (LIMIT), as planned here."""
    with CaptureQueriesContext(connection) as captured:
        call()
    listing = next(
        (
            q["sql"]
            for q in captured.captured_queries
            if q["sql"].startswith("SELECT")
            and "LIMIT" in q["sql"]
            and re.search(r'FROM "games_(game|event)"', q["sql"])
            and "COUNT(" not in q["sql"]
            and "pg_class" not in q["sql"]  # the admin's estimated count
            and " = 1 LIMIT" not in q["sql"].replace("LIMIT 21", "= 1 LIMIT")
        ),
        None,
    )
    if listing is None:
        return len(captured), ""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + listing)
        plan = [row[0] for row in cursor.fetchall()]
    scan = next((line.strip() for line in plan if "Scan" in line), "")
    scan = re.sub(r"\s+\(cost=.*", "", scan.replace("->", "")).strip()
    return len(captured), ("sort + " if any("Sort" in line for line in plan) else "") + scan


def a_game_just_finished() -> Game:
    """A finished Deep Sea Adventure game between two players, ended now: the one to rate."""
    a, b = random.sample(list(User.objects.filter(username__startswith="player")[:400]), 2)
    now = timezone.now()
    game = Game.objects.create(
        slug=DSA,
        rules_version=1,
        num_players=2,
        status=GameStatus.FINISHED,
        version=2,
        finished_at=now,
        result=[
            {"player": a.username, "score": 3, "rank": 1},
            {"player": b.username, "score": 1, "rank": 2},
        ],
    )
    Seat.objects.bulk_create([Seat(game=game, index=0, user=a), Seat(game=game, index=1, user=b)])
    return game


def rating_rows(repeats: int) -> list[tuple[str, float, int, float]]:
    """Rating the game that just ended, by the task (it names the game) and by the sweep."""
    rows = []
    for name, named in (("rate one game (task)", True), ("rate one game (sweep)", False)):
        runs, counts = [], []
        for _ in range(repeats + 1):
            game = a_game_just_finished()
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                ratings_update(slug=DSA, game_id=game.pk if named else None)
                runs.append(time.perf_counter() - start)
            counts.append(len(captured))
        floor_game = a_game_just_finished()
        floor = timed(
            floor_call(
                [
                    f"SELECT g.*, {SEATS} FROM games_game g WHERE g.id = {floor_game.pk}",
                    "SELECT * FROM league_rating WHERE slug = 'deep-sea-adventure' AND user_id IN"
                    f" (SELECT user_id FROM games_seat WHERE game_id = {floor_game.pk})",
                ],
                0,
            ),
            repeats,
        )
        ratings_update(slug=DSA, game_id=floor_game.pk)
        rows.append((name, statistics.median(runs[1:]), counts[-1], floor))
    return rows


def profile(clients: dict, listed: list, page: str, repeats: int) -> None:
    """cProfile over ``repeats`` requests of the first page whose name has ``page`` (after one
    unprofiled): the functions by their own time, then by the time under them."""
    name, who, path, _ = next(p for p in listed if page in p[0])
    call = page_call(clients[who], path)
    call()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeats):
        call()
    profiler.disable()
    print(f"{name}: {path}, {repeats} requests")
    stats = pstats.Stats(profiler).strip_dirs()
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(70)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="events to build")
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=7, help="timed requests per page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--reuse", action="store_true", help="measure the database as the last run built it"
    )
    parser.add_argument("--only", default="", help="measure only the pages whose name has this")
    parser.add_argument(
        "--profile",
        default="",
        metavar="PAGE",
        help="profile the requests of the first page whose name has this (cProfile), no table",
    )
    args = parser.parse_args()
    if args.players < 2 * TABLES + 2:
        sys.exit(
            f"the tournament seats {2 * TABLES} players: give --players {2 * TABLES + 2} or more"
        )
    if connection.vendor != "postgresql":
        sys.exit("bench_scale needs PostgreSQL: set DATABASE_URL=postgres://.../a_database")
    celery_app.conf.task_always_eager = False  # as served: a finished game only enqueues
    celery_app.conf.broker_url = "memory://"
    rng = random.Random(args.seed)
    random.seed(args.seed)
    state_file = f"/tmp/bench_scale_{connection.settings_dict['NAME']}.json"
    if args.reuse and os.path.exists(state_file):
        with open(state_file) as f:
            built = json.load(f)
    else:
        built = build(args.events, args.players, rng)
        with open(state_file, "w") as f:
            json.dump(built, f)
    setup_test_environment(debug=False)
    version = ".".join(map(str, connection.get_database_version()))
    _common.header(
        "Pages at scale vs a raw-SQL floor",
        f"postgresql {version} ({connection.settings_dict['NAME']})",
    )
    print(
        f"{built['events']:,} events, {built['games']:,} games, {built['players']} players,"
        f" a table-mode tournament of {TABLES} tables, a league of {LEAGUE_MEMBERS} members"
        f" and {LEAGUE_GAMES} games; built in {built.get('seconds', 0):.0f} s;"
        f" median of {args.repeats} requests each"
    )
    me = User.objects.get(username="player001")
    clients = {"player": Client(), "staff": Client()}
    clients["player"].force_login(me)
    clients["staff"].force_login(User.objects.get(username="root"))
    if args.profile:
        profile(clients, pages(built), args.profile, args.repeats)
        return
    print(f"{'page':<34} {'ms':>8} {'queries':>8} {'floor ms':>9} {'ratio':>7}  listing read by")
    for name, who, path, floor in pages(built):
        if args.only not in name:
            continue
        call = page_call(clients[who], path)
        if name == "league page":
            # The first view after a game already counted has changed (a correction): the
            # kept standings (league.selectors.kept_tables) are computed again from every game.
            row(f"{name}, recomputed", cold(call), args.repeats, floor, me.pk)
        seconds = timed(call, args.repeats)
        floor_s = timed(floor_call(floor, me.pk), args.repeats)
        count, scan = queries_of(call)
        print(
            f"{name:<34} {seconds * 1000:8.2f} {count:8d}"
            f" {floor_s * 1000:9.2f} {seconds / floor_s:6.1f}x  {scan}"
        )
    if args.only not in "rate one game":
        return
    for name, seconds, count, floor_s in rating_rows(args.repeats):
        print(
            f"{name:<34} {seconds * 1000:8.2f} {count:8d}"
            f" {floor_s * 1000:9.2f} {seconds / floor_s:6.1f}x"
        )


if __name__ == "__main__":
    main()
