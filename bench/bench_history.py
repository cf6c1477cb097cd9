"""``manage.py check_history`` over many finished games, against reading the same events alone.

Fills a throwaway database with --games finished games played here: the four rule games in
turn, 2 to 4 players, each rules version of each game in turn, every move a random legal one
and every chance outcome drawn as the server draws it, each event built by games.events and
written with its hash chain by the store's bulk writer (store.create_streams, as an import
writes); then the ratings of them all (league.services.ratings.ratings_recompute). A pool of
--pool logs is played per game, number of players and version and stored over and over, each
time as a game of its own with its own members: the check's work does not depend on whether
two logs are alike, and the fill stays short.

Then, in the same run, --repeats times each, alternated:
  (a) check: league.history.history_check, what ``manage.py check_history`` runs (every hash,
      every replay, every head, every rating), in one process;
  (b) the same check in --jobs processes, as the command runs it by default (one a core);
  (c) floor: the same batches read as the check reads them (the heads, and every event of a
      batch in one query, its JSON decoded), and nothing else, in one process.
The figures are games a minute of each, best and median; the ratio is (a)'s time over (c)'s,
one process each, and (b)'s speed over (a)'s.

Runs in a throwaway database: SQLite in a temporary file by default, PostgreSQL when
DATABASE_URL says so (test database bench_<name>).

    .venv/bin/python bench/bench_history.py [--games 10000] [--pool 6] [--repeats 3] [--jobs 2]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal_hist .venv/bin/python bench/bench_history.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import random
import statistics
import time
import warnings

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
warnings.filterwarnings("ignore", message="No directory at")
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import events as game_events  # noqa: E402
from games import history, store  # noqa: E402
from games.models import Event, Game, GameMode, GameStatus, Seat  # noqa: E402
from games.play import steps  # noqa: E402
from games.rules import CHANCE, get_rules, registered  # noqa: E402
from league.history import history_check  # noqa: E402
from league.services.ratings import ratings_recompute  # noqa: E402

MEMBERS = 40
WRITE_BATCH = 500  # games a bulk write

# A played log as the pool keeps it: (kind, data, seat) of each event after the first, by
# append, and the rules' result.
Log = tuple[list[list[tuple[str, dict, int | None]]], list[dict]]


def played_log(slug: str, version: int, players: int, rng: random.Random) -> Log:
    """One game played to its end by random legal moves, chance drawn by its probabilities;
    its events as the services append them: the opening chance with the set-up, then each
    decision with the chance that follows it."""
    state = get_rules(slug, version).new_game(num_players=players)
    appends: list[list[tuple[str, dict, int | None]]] = [[]]
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            appends[-1].append(("chance", steps.action_data(state, action), None))
        else:
            seat = state.current_player
            action = rng.choice(state.legal_actions())
            appends.append([("decision", steps.action_data(state, action), seat)])
        state.apply(action)
    return appends, state.result()


def pool_of_logs(size: int, seed: int) -> list[tuple[str, int, int, Log]]:
    """``size`` logs of each (game, rules version, players), in the order they are stored."""
    rng = random.Random(seed)
    pool = []
    for slug, module in sorted(registered().items()):
        spec = module.spec
        for version in spec.known_versions():
            for players in range(spec.min_players, min(spec.max_players, 4) + 1):
                pool += [
                    (slug, version, players, played_log(slug, version, players, rng))
                    for _ in range(size)
                ]
    rng.shuffle(pool)
    return pool


def stream(slug: str, version: int, log: Log, members: list, finished_at: dt.datetime):
    """One stored game of ``log``, seated by ``members``: its row, seats and appends."""
    appends, result = log
    players = len(result)
    ids = [member.pk for member in members]
    names = [member.username for member in members]
    outcome = [
        {"player": name, "score": r["score"], "rank": r["rank"]} for name, r in zip(names, result)
    ]
    created = game_events.game_created(
        game=slug,
        rules_version=version,
        num_players=players,
        options={},
        seats=[{"user": name, "bot": None} for name in names],
        time_control=None,
        accepted=list(range(players)),
        actor_id=ids[0],
    )
    batches = []
    for number, append in enumerate(appends):
        batch = [] if number else [created]
        for kind, data, seat in append:
            if kind == "decision":
                assert seat is not None
                batch.append(game_events.action_applied(**data, seat=seat, actor_id=ids[seat]))
            else:
                batch.append(game_events.chance_resolved(**data))
        batches.append(batch)
    batches[-1].append(game_events.game_finished(result=outcome, reason="rules"))
    game = Game(
        slug=slug,
        mode=GameMode.PLAY,
        rules_version=version,
        options={},
        num_players=players,
        status=GameStatus.FINISHED,
        current_player=None,
        result=outcome,
        finished_at=finished_at,
        created_by_id=ids[0],
    )
    seats = [Seat(index=i, user_id=user) for i, user in enumerate(ids)]
    return game, seats, batches


def fill(count: int, pool: list, seed: int) -> None:
    User = get_user_model()
    members = User.objects.bulk_create(
        [User(username=f"member{n}", password="!") for n in range(MEMBERS)]
    )
    rng = random.Random(seed)
    start = timezone.now() - dt.timedelta(days=365)
    logs = itertools.cycle(pool)
    made = 0
    while made < count:
        streams = []
        for _ in range(min(WRITE_BATCH, count - made)):
            slug, version, players, log = next(logs)
            seated = rng.sample(members, players)
            streams.append(stream(slug, version, log, seated, start + dt.timedelta(minutes=made)))
            made += 1
        with transaction.atomic():
            store.create_streams(streams)
    for slug in registered():
        ratings_recompute(slug=slug)


def floor() -> int:
    """Read every game as the check does, decode its events, and nothing else."""
    games = Game.objects.order_by("id")
    after, read = 0, 0
    while heads := list(games.filter(id__gt=after).values_list(*history.HEAD_COLUMNS)[:500]):
        read += sum(
            map(len, history.events_of(using="default", ids=[h[0] for h in heads]).values())
        )
        after = heads[-1][0]
    return read


def checked(games: int, events: int, *, jobs: int) -> float:
    """Seconds for the whole check, which must find every game and no difference."""
    report = history_check(using="default", jobs=jobs)
    assert not report.differences, report.differences[:5]
    assert report.checked == games and report.events == events and report.jobs == jobs
    return report.seconds


def line(what: str, games: int, seconds: list[float], note: str) -> None:
    best, median = _common.best_and_median([games * 60 / s for s in seconds])
    print(
        f"{what + ':':<22} {best:>9,.0f} games a minute best, {median:>9,.0f} median "
        f"({min(seconds):.1f} s; {note})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pool", type=int, default=6, help="logs per game, players, version")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="for (b)")
    args = parser.parse_args()

    database = _common.ThrowawayDatabase()
    try:
        version = ".".join(map(str, connection.get_database_version()))
        _common.header("check_history vs reading the events", f"{connection.vendor} {version}")
        began = time.perf_counter()
        pool = pool_of_logs(args.pool, args.seed)
        fill(args.games, pool, args.seed)
        events = Event.objects.count()
        print(
            f"{args.games:,} finished games ({events:,} events, {len(pool)} logs played) "
            f"stored and rated in {time.perf_counter() - began:.0f} s"
        )
        alone, together, floors = [], [], []
        for _ in range(args.repeats):
            alone.append(checked(args.games, events, jobs=1))
            together.append(checked(args.games, events, jobs=args.jobs))
            began = time.perf_counter()
            assert floor() == events
            floors.append(time.perf_counter() - began)
        line("check, 1 process", args.games, alone, f"{events / min(alone):,.0f} events/s")
        line(f"check, {args.jobs} processes", args.games, together, "manage.py's default")
        line("floor, 1 process", args.games, floors, "the reads and JSON decoding alone")
        print(
            f"ratio check / floor time, 1 process each: {min(alone) / min(floors):.1f}x "
            f"best-to-best, {statistics.median(alone) / statistics.median(floors):.1f}x "
            f"median-to-median; {args.jobs} processes {min(alone) / min(together):.2f}x as "
            "fast as 1"
        )
    finally:
        database.drop()


if __name__ == "__main__":
    main()
