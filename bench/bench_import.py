"""Importing a club's history: 10,000 plays of a CSV into a league, against a bulk floor.

Synthetic plays, seeded: each of the five games, 2 to 4 players (the game's range) drawn from
40 members and now and then a guest, scores and ranks that agree, dates over five years. Then,
in the same run, on a fresh database each:
  (a) import: league.services.plays.plays_import, as `manage.py import_plays` runs it: every
      play through the record service's checks (games.records.services.record_check) and written in
      bulk in one transaction (plays naming only members who joined the league; with
      --not-joined K, the last K of the 40 have not, and their plays are written one at a time
      as records waiting for them), then, once committed, the ratings of every game in the
      order played (Celery eager, as the embedded default runs it);
  (b) floor: the same games, seats and events written with bulk_create, with no check and no
      rating: what skipping the record service would cost.
The figure is plays/s of (a); the ratio is (a)'s time over (b)'s.

Runs in a throwaway database: SQLite in a temporary file by default (as the embedded default
keeps its database), PostgreSQL when DATABASE_URL says so (test database bench_<name>).

    .venv/bin/python bench/bench_import.py [--plays 10000] [--seed 5] [--not-joined 0]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal .venv/bin/python bench/bench_import.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import time
import warnings

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
warnings.filterwarnings("ignore", message="No directory at")
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from games.catalog import game_types  # noqa: E402
from games.models import Event, EventKind, Game, GameMode, GameStatus, Seat  # noqa: E402
from league.models import Membership, RatingChange  # noqa: E402
from league.plays import CSV_COLUMNS, read_csv  # noqa: E402
from league.services import leagues  # noqa: E402
from league.services.plays import plays_import  # noqa: E402

MEMBERS = 40


def synthetic_csv(count: int, seed: int) -> str:
    rng = random.Random(seed)
    kinds = list(game_types().values())
    start = dt.datetime(2020, 1, 1, 19, 0, tzinfo=dt.UTC)
    lines = [",".join(CSV_COLUMNS)]
    for play in range(1, count + 1):
        kind = rng.choice(kinds)
        players = rng.randint(kind.min_players, min(kind.max_players, 4))
        names = [f"member{n}" for n in rng.sample(range(MEMBERS), players)]
        guest = rng.random() < 0.1
        if guest:
            names[-1] = f"Guest {rng.randint(1, 30)}"
        scores = sorted((rng.randint(0, 120) for _ in names), reverse=True)
        ranks = [1 + sum(1 for other in scores if other > s) for s in scores]
        when = (start + dt.timedelta(minutes=rng.randint(0, 5 * 365 * 24 * 60))).isoformat()
        seating = list(range(players))
        rng.shuffle(seating)
        for seat in seating:
            is_guest = guest and seat == players - 1
            lines.append(
                f"{play},{when},{kind.slug},{names[seat]},{'yes' if is_guest else 'no'},"
                f"{scores[seat]},{ranks[seat]}"
            )
    return "\n".join(lines) + "\n"


def fresh_league(name: str, not_joined: int = 0):
    """A league of MEMBERS people; all but the last ``not_joined`` have joined it (invited and
    accepted), so the organiser's word stands for them."""
    users = get_user_model().objects
    organiser = users.create_user(f"{name}-organiser", password="bench-pass-1")
    people = [
        users.create_user(f"{name}-member{n}", password="bench-pass-1") for n in range(MEMBERS)
    ]
    club = leagues.league_create(name=name, created_by=organiser)
    joined = people[: MEMBERS - not_joined]
    Membership.objects.bulk_create([Membership(league=club, user=user) for user in joined])
    return club, organiser


def run_import(text: str, not_joined: int) -> tuple[float, int, int, int]:
    club, organiser = fresh_league("import", not_joined)
    began = time.perf_counter()
    report = plays_import(league=club, content=text, format="csv", by=organiser)
    seconds = time.perf_counter() - began  # after the commit, ratings included
    assert report.imported, report.lines()[:5]
    return seconds, len(report.plays), RatingChange.objects.count(), report.waiting_plays


def run_floor(text: str) -> float:
    """The same rows with bulk_create and nothing else (after the import, whose ratings are
    done by then: nothing rates these)."""
    club, organiser = fresh_league("floor")
    users = dict(get_user_model().objects.values_list("username", "pk"))
    plays = read_csv(text, game_types()).plays
    began = time.perf_counter()
    with transaction.atomic():
        games = Game.objects.bulk_create(
            [
                Game(
                    slug=p.game,
                    mode=GameMode.RECORD,
                    rules_version=0,
                    num_players=len(p.seats),
                    status=GameStatus.FINISHED,
                    version=3,
                    result=[
                        {"player": s.player, "score": s.score, "rank": s.rank} for s in p.seats
                    ],
                    finished_at=p.date,
                    created_by=organiser,
                )
                for p in plays
            ],
            batch_size=1000,
        )
        seats, events = [], []
        for game, p in zip(games, plays):
            for i, s in enumerate(p.seats):
                seats.append(
                    Seat(
                        game=game,
                        index=i,
                        guest=s.player if s.guest else "",
                        user_id=None if s.guest else users[f"floor-{s.player}"],
                    )
                )
            for seq, kind in enumerate(
                (EventKind.GAME_CREATED, EventKind.RESULT_RECORDED, EventKind.GAME_FINISHED), 1
            ):
                events.append(Event(game=game, seq=seq, kind=kind, data={}, batch=seq))
        Seat.objects.bulk_create(seats, batch_size=1000)
        Event.objects.bulk_create(events, batch_size=1000)
        club.games.add(*games)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--not-joined",
        type=int,
        default=0,
        help="members (of 40) who have not joined the league: their plays wait for them",
    )
    args = parser.parse_args()

    celery_app.conf.task_always_eager = True  # the embedded default: ratings in-process
    database = _common.ThrowawayDatabase()
    try:
        version = ".".join(map(str, connection.get_database_version()))
        _common.header("import plays vs bulk floor", f"{connection.vendor} {version}")
        text = synthetic_csv(args.plays, args.seed)
        rows = text.count("\n") - 1
        seconds, plays, changes, waiting = run_import(
            text.replace(",member", ",import-member"), args.not_joined
        )
        floor = run_floor(text)
        print(f"{plays} plays ({rows} CSV rows, {changes} rating changes) imported")
        if waiting:
            print(f"{waiting} of them wait for a member who has not joined, one record at a time")
        print(f"import: {seconds:.1f} s, {plays / seconds:,.0f} plays/s (ratings included)")
        print(f"bulk floor: {floor:.2f} s, {plays / floor:,.0f} plays/s (no checks, no ratings)")
        print(f"ratio import / floor: {seconds / floor:.1f}x")
    finally:
        database.drop()


if __name__ == "__main__":
    main()
