"""Rebuilding every rating from the finished games (issue 40): the service against its ladders.

Builds --games finished games in PostgreSQL by COPY (players, games and seats; the tables of
bench_ratings.py's synthetic model: 2-4 players of a pool with hidden strengths, ranked by
strength plus noise), spread over every registered game type and a day apart in turn. Then,
in the same run:
  (a) the rebuild: league.services.ratings.ratings_rebuild over every game type, one
      transaction, as ``manage.py recompute_ratings`` runs it (read the games and seats, ask
      who agreed, rate, write the ledger, the rating changes and the ratings, commit);
  (b) the floor: the same tables in the same order through the pure ladders the rebuild runs
      (league.ratings EloLadder, OpenSkillLadder, Glicko2Ladder with each game's day), each
      timed alone, and their sum, the least any rebuild computing all three can take.
It prints games/s for each and the rebuild's time over the floor's.

It works in the database DATABASE_URL names, which it empties first (its schema is dropped
and migrated again): give it a database of its own.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal_rebuild \\
        .venv/bin/python bench/bench_rebuild.py [--games 100000] [--players 2000] [--seed 11]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
import warnings

import _common
from bench_ratings import synthetic_games

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
warnings.filterwarnings("ignore", message="No directory at")  # whitenoise without collectstatic
import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.rules import registered  # noqa: E402
from league.models import RatingChange  # noqa: E402
from league.ratings import EloLadder, Glicko2Ladder, OpenSkillLadder, day_number  # noqa: E402
from league.services.ratings import elo_k, ratings_rebuild  # noqa: E402

START = timezone.make_aware(dt.datetime(2020, 1, 1, 20, 0))


def copy(table: str, columns: list[str], rows) -> None:
    """COPY rows into ``table`` through psycopg's copy, then move its id sequence past them."""
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as out:
            for row in rows:
                out.write_row(row)
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
        )


def build(tables, players: int, slugs: list[str]) -> dict[str, list]:
    """The games in the database, played here with every seat taken (so every one is rated);
    the tables of each game type in the order they ended, with each game's day."""
    with connection.cursor() as cursor:
        cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
    call_command("migrate", verbosity=0)
    now = timezone.now()
    copy(
        "auth_user",
        "id password is_superuser username first_name last_name email is_staff is_active"
        " date_joined".split(),
        (
            (i + 1, "!", False, f"player{i:04d}", "", "", "", False, True, now)
            for i in range(players)
        ),
    )
    games, seats, by_slug = [], [], {slug: [] for slug in slugs}
    for gid, (table, ranks) in enumerate(tables, start=1):
        slug = slugs[gid % len(slugs)]
        finished = START + dt.timedelta(minutes=37 * gid)  # about a game a day a game type
        users = [player + 1 for player in table]
        result = json.dumps(
            [{"player": f"player{p:04d}", "score": 10 - r, "rank": r} for p, r in zip(table, ranks)]
        )
        games.append(
            (gid, slug, "play", 1, "{}", len(users), "finished", 40, None, result, users[0])
            + ("random", finished, finished, finished, finished, "", 0)
        )
        base = len(seats)
        seats.extend(
            (base + i + 1, gid, i, user, "", "", False, True) for i, user in enumerate(users)
        )
        by_slug[slug].append((users, ranks, day_number(finished)))
    copy(
        "games_game",
        "id slug mode rules_version options num_players status version current_player result"
        " created_by_id on_timeout created_at moved_at updated_at finished_at fingerprint"
        " increment_seconds".split(),
        games,
    )
    copy("games_seat", "id game_id index user_id guest bot resigned accepted".split(), seats)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return by_slug


def ladders_alone(by_slug: dict[str, list]) -> dict[str, float]:
    """Seconds for each ladder alone over every game type's tables, from scratch."""
    seconds = {}
    for name, make in (
        ("Elo", lambda: EloLadder(k=elo_k())),
        ("OpenSkill", OpenSkillLadder),
        ("Glicko-2", Glicko2Ladder),
    ):
        start = time.perf_counter()
        for tables in by_slug.values():
            ladder = make()
            rate = ladder.rate
            if name == "Glicko-2":
                for users, ranks, day in tables:
                    rate(users, ranks, when=day)
            else:
                for users, ranks, _ in tables:
                    rate(users, ranks)
        seconds[name] = time.perf_counter() - start
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("needs PostgreSQL: DATABASE_URL=postgres://…/a_database_of_its_own")
    _common.header("rebuilding every rating", connection.settings_dict["NAME"])
    slugs = sorted(registered())
    started = time.perf_counter()
    tables, _ = synthetic_games(args.games, args.players, args.seed)
    by_slug = build(tables, args.players, slugs)
    print(
        f"built {args.games:,} finished games of {len(slugs)} game types, {args.players:,}"
        f" players, in {time.perf_counter() - started:.1f} s"
    )

    start = time.perf_counter()
    results = ratings_rebuild(slugs=slugs)
    rebuild = time.perf_counter() - start
    rated = sum(r.games for r in results.values())
    assert rated == args.games, (rated, args.games)
    changes = RatingChange.objects.count()
    floor = ladders_alone(by_slug)
    total = sum(floor.values())

    print(f"{'':<32}{'seconds':>9}{'games/s':>10}")
    print(f"{'the rebuild (one transaction)':<32}{rebuild:>9.2f}{args.games / rebuild:>10,.0f}")
    for name, seconds in floor.items():
        print(f"{name + ' ladder alone':<32}{seconds:>9.2f}{args.games / seconds:>10,.0f}")
    print(f"{'the three ladders (the floor)':<32}{total:>9.2f}{args.games / total:>10,.0f}")
    print(
        f"the rebuild: {rebuild / total:.2f}x the floor ({rebuild / floor['Elo']:.1f}x Elo alone,"
        f" {rebuild / floor['OpenSkill']:.1f}x OpenSkill, {rebuild / floor['Glicko-2']:.1f}x"
        f" Glicko-2); {changes:,} rating changes written"
    )


if __name__ == "__main__":
    main()
