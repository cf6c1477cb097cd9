"""Tournaments on event day, simulated: random events of every format through the real services.

Each event enters a random field, pairs every round with ``round_pair``, settles every table
with the organiser's ``table_override`` (random finishing orders; scores 20, 5, -10, -25 down
the order, each give or take 4, so that some are negative), and between rounds drops a random player now and then (a winner
too, in an elimination) and enters a late one, with ``entry_drop`` and ``entry_add``; all on a
throwaway database (``_common.ThrowawayDatabase``). A seeded generator decides everything, so a
rerun reproduces the figures. Per format it prints:

- champions: events that ended (``TournamentFinished``) naming a champion; the goal is all;
- repeats: pairs at a table who had met before in the event, per round paired. Reference: 0,
  a lower bound, not the exact minimum (a small field's last rounds may force repeats);
- mixing: the score difference at the tables of Swiss rounds (the sum over each table's pairs
  of their gap in points), over the difference of the standings cut into tables in order
  (the least any seating can have if repeats are ignored): 1.00 means no mixing beyond it;
- byes: per player, the most and the mean, and players with a second bye before everyone in
  the round had had one;
- tie-breaks (issue 38), on every event's own results under both formula versions: share
  inversions (a player with a lower score taking a larger share at the same table), and
  Buchholz against short tables (among pairs tied on points where one sat at short tables
  more often, how often that one has the lower Buchholz);
- the time an event took, on average (the wall clock of the process that played it), and
  after the table the slowest event of each format with its field.

The formats and their settings are the table FORMATS below; a format of
``Tournament.Format`` missing from it runs at tables of 2 and 4 with its defaults, and the run
says so.

How it runs. Every event stands alone: event k of a format draws from its own generator,
seeded by the seed, the format's name and k, and its tournament is given the number (primary
key, which seeds the product's own draws: pairing ties, pools, schedules) it has in a run of
every format in turn, format i's event k being i * events + k + 1; ``--only`` keeps those
numbers. So the events are shared out among ``--jobs N`` processes (1 by default), started
afresh (spawned): each makes its own throwaway database (``bench_tournaments_<process>_<NAME>``)
and its own members, takes the next event from a queue and hands back that event's figures;
the command's own process plays none, and adds each format's figures up in event order,
whatever process played them. The same ``--seed`` gives the same figures for any N (all but
the times). Events of one process share its database, as all events shared one before: nothing
an event does reaches another's pairings (no ratings are computed, see below; the members
belong to no club).

What is not measured, as served with a broker: what a result enqueues (ratings, notices'
mail and push) waits on an in-memory broker nothing consumes, so the times are the services',
not the workers'; and the live streams publish to no Redis (``HADAL_STREAM_REDIS_URL``
empty: no stream listens, and the processes' databases number their games alike), so a
game's events are built only for a stream of the same process, of which there is none. The
services' own side work in the request (inbox notices, the webhook outbox) runs as served.

    .venv/bin/python bench/bench_tournaments.py [--events 200] [--seed 38] [--only NAME]
        [--jobs 2]
"""

from __future__ import annotations

import argparse
import itertools
import logging
import multiprocessing
import os
import queue
import random
import sys
import time
import traceback
import warnings
from collections import Counter
from dataclasses import dataclass, field

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["HADAL_STREAM_REDIS_URL"] = ""  # no stream listens: see the docstring
warnings.filterwarnings("ignore", message="No directory at")
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from core.errors import ServiceError  # noqa: E402
from games.models import Seat  # noqa: E402
from league.models import Tournament, TournamentEvent  # noqa: E402
from league.selectors import seat_names, tables_of  # noqa: E402
from league.services import tournaments  # noqa: E402
from league.standings import GameResult, standings  # noqa: E402
from league.tournament_spec import TournamentSpec  # noqa: E402

GAME = "deep-sea-adventure"  # 2 to 6 players: every table size here
POOL = 40  # members created once a database, drawn from for every event

# name: (format, table size, field (fewest, most), rounds, more settings of the spec)
FORMATS: dict[str, tuple[str, int, tuple[int, int], int, dict]] = {
    "swiss, tables of 2": ("swiss", 2, (8, 16), 4, {}),
    "swiss, tables of 3-4": ("swiss", 4, (9, 20), 4, {}),
    "round robin, tables of 2": ("round-robin", 2, (5, 8), 0, {}),
    "round robin, tables of 3-4": ("round-robin", 4, (7, 12), 0, {}),
    "elimination, tables of 2": ("elimination", 2, (6, 16), 1, {}),
    "elimination, tables of 3-4": ("elimination", 4, (6, 16), 1, {"advance": 2}),
    "swiss with a top cut of 4": ("swiss", 2, (8, 16), 3, {"top_cut": 4}),
    "double elimination, tables of 2": ("double-elimination", 2, (5, 16), 1, {}),
    "pools then a playoff, tables of 2": (
        "pools",
        2,
        (8, 16),
        1,
        {"pools": 2, "pool_advance": 2},
    ),
    "pools then a playoff, tables of 3-4": (
        "pools",
        4,
        (12, 24),
        1,
        {"pools": 3, "pool_advance": 2},
    ),
}
DROP_CHANCE = 0.3  # between two rounds, someone drops
LATE_CHANCE = 0.2  # between two Swiss rounds, someone enters late (the only late entry)


@dataclass
class Figures:
    events: int = 0
    champions: int = 0
    refused: Counter = field(default_factory=Counter)
    rounds: int = 0
    repeats: int = 0
    mixing: float = 0.0
    mixing_floor: float = 0.0
    most_byes: int = 0
    byes: list[int] = field(default_factory=list)
    early_second_byes: int = 0
    inversions: Counter = field(default_factory=Counter)  # version -> count
    tied_pairs: int = 0
    short_lower: Counter = field(default_factory=Counter)  # version -> count
    seconds: float = 0.0
    slowest: tuple[float, int, int] = (0.0, 0, 0)  # seconds, event, field size

    def add(self, other: Figures) -> None:
        """Count ``other``'s events in too (events added in the same order give the same
        figures, to the last bit of the floats)."""
        self.events += other.events
        self.champions += other.champions
        self.refused.update(other.refused)
        self.rounds += other.rounds
        self.repeats += other.repeats
        self.mixing += other.mixing
        self.mixing_floor += other.mixing_floor
        self.most_byes = max(self.most_byes, other.most_byes)
        self.byes += other.byes
        self.early_second_byes += other.early_second_byes
        self.inversions.update(other.inversions)
        self.tied_pairs += other.tied_pairs
        self.short_lower.update(other.short_lower)
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)


def unlisted_formats() -> list[str]:
    """Formats of ``Tournament.Format`` that FORMATS does not name."""
    listed = {row[0] for row in FORMATS.values()}
    return [value for value in Tournament.Format.values if value not in listed]


def all_formats() -> dict[str, tuple[str, int, tuple[int, int], int, dict]]:
    """FORMATS, and any format of the model it lacks, at tables of 2 and 4 with defaults."""
    formats = dict(FORMATS)
    for value in unlisted_formats():
        formats[f"{value}, tables of 2"] = (value, 2, (8, 16), 3, {})
        formats[f"{value}, tables of 3-4"] = (value, 4, (9, 20), 3, {})
    return formats


def play_event(name, row, number, seed, pk, org) -> Figures:
    """Event ``number`` of the format ``name``, as tournament ``pk``: its figures."""
    began = time.perf_counter()
    rng = random.Random(f"{seed}:{name}:{number}")
    figures = Figures(events=1)
    format_, table_size, (fewest, most), rounds, more = row
    field_size = rng.randint(fewest, most)
    members = rng.sample([f"member{i}" for i in range(POOL)], field_size + 4)
    entered, spare = members[:field_size], members[field_size:]
    spec = TournamentSpec(
        name=f"{name} {number}",
        game=GAME,
        format=format_,
        table_size=table_size,
        rounds=rounds or max(1, field_size - 1),
        mode=Tournament.Mode.TABLE,
        players=entered,
        **more,
    )
    if format_ == "round-robin":
        spec = TournamentSpec(**{**spec.__dict__, "rounds": _round_robin_rounds(spec)})
    _number_next_tournament(pk)
    tournament = tournaments.tournament_create(spec=spec, created_by=org)
    assert tournament.pk == pk, (tournament.pk, pk)
    listed: set[str] = set()  # everyone who played or sat out a round
    byes_had: Counter = Counter()
    played: list[list[str]] = []  # the tables of the rounds paired so far, in order
    last_number = 0
    while True:
        try:
            round_ = tournaments.round_pair(tournament=tournament, by=org)
        except ServiceError as refusal:
            if "over" not in str(refusal):
                figures.refused[str(refusal)[:70]] += 1
            break
        # The round's tables as the organiser's page passes them; their players in one query.
        tables = list(round_.tables.select_related("game"))
        seated = _seatings(tables)
        byes = [e.user.username for e in round_.byes.select_related("user")]
        # Every round comes from round_pair here and none is paired again, so the rounds
        # before this one are the tables of ``played`` (checked against the database's
        # earlier tables in 236 rounds of all formats when this replaced the query).
        if round_.number <= last_number:
            raise AssertionError(f"{name} {number}: round {round_.number} after {last_number}")
        last_number = round_.number
        _count_round(figures, tournament, round_, seated, byes, played, listed, byes_had)
        played += seated
        for table, players in zip(tables, seated):
            order = rng.sample(players, len(players))  # the finishing order
            results = [
                {"player": p, "score": 20 - 15 * place + rng.randint(-4, 4), "rank": place + 1}
                for place, p in enumerate(order)
            ]
            tournaments.table_override(tournament=tournament, table=table, by=org, results=results)
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
        playing = [p for t in seated for p in t] + byes
        if rng.random() < DROP_CHANCE and len(playing) > 2:
            _try(figures, tournaments.entry_drop, tournament, rng.choice(playing), org)
        if format_ == "swiss" and rng.random() < LATE_CHANCE and spare:
            _try(figures, tournaments.entry_add, tournament, spare.pop(), org)
    finished = TournamentEvent.objects.filter(tournament=tournament, kind="TournamentFinished")
    figures.champions += any(e.data.get("champion") for e in finished)
    figures.byes += [byes_had[p] for p in listed]
    figures.most_byes = max([figures.most_byes, *byes_had.values()])
    _tiebreak_figures(figures, tournament, table_size)
    figures.seconds = time.perf_counter() - began
    figures.slowest = (figures.seconds, number, field_size)
    return figures


def _number_next_tournament(pk: int) -> None:
    """Make ``pk`` the number the next tournament created is given."""
    table = Tournament._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s, false)", [table, pk]
            )
        elif connection.vendor == "sqlite":  # AUTOINCREMENT: the next is one past the highest
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
            cursor.execute(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, pk - 1]
            )
        else:
            raise NotImplementedError(f"numbering tournaments on {connection.vendor}")


def _seatings(tables) -> list[list[str]]:
    """Each table's players in seat order (``seat_names`` of its game), in one query."""
    seats: dict[int, list[str]] = {t.game_id: [] for t in tables}
    rows = Seat.objects.filter(game_id__in=list(seats)).order_by("game_id", "index")
    for game_id, username in rows.values_list("game_id", "user__username"):
        seats[game_id].append(username)
    return [seats[t.game_id] for t in tables]


def _round_robin_rounds(spec: TournamentSpec) -> int:
    n = len(spec.players)
    if spec.table_size == 2:
        return n - 1 if n % 2 == 0 else n
    return -(-(n - 1) // (spec.table_size - 1))


def _try(figures: Figures, service, tournament, player: str, org) -> None:
    try:
        service(tournament=tournament, player=player, by=org)
    except ServiceError as refusal:
        figures.refused[str(refusal)[:70]] += 1


def _count_round(figures, tournament, round_, seated, byes, earlier, listed, byes_had) -> None:
    figures.rounds += 1
    met = {frozenset(pair) for table in earlier for pair in itertools.combinations(table, 2)}
    figures.repeats += sum(
        frozenset(pair) in met for table in seated for pair in itertools.combinations(table, 2)
    )
    everyone = [p for t in seated for p in t] + byes
    least = min((byes_had[p] for p in everyone), default=0)
    figures.early_second_byes += sum(1 for p in byes if byes_had[p] >= 1 and least == 0)
    for player in byes:
        byes_had[player] += 1
    if tournament.format == "swiss" and round_.stage == "main" and round_.number > 1:
        rows = tournaments_standings(tournament)
        figures.mixing += sum(
            abs(rows.get(a, 0) - rows.get(b, 0))
            for table in seated
            for a, b in itertools.combinations(table, 2)
        )
        ordered = sorted((p for t in seated for p in t), key=lambda p: -rows.get(p, 0))
        at = 0
        for size in sorted((len(t) for t in seated), reverse=True):
            cut = ordered[at : at + size]
            figures.mixing_floor += sum(
                abs(rows.get(a, 0) - rows.get(b, 0)) for a, b in itertools.combinations(cut, 2)
            )
            at += size
    listed.update(everyone)


def tournaments_standings(tournament) -> dict[str, float]:
    from league.selectors import tournament_standings

    return {row["player"]: row["points"] for row in tournament_standings(tournament)}


def _tiebreak_figures(figures: Figures, tournament, table_size: int) -> None:
    """Share inversions and the Buchholz of short-table players, under versions 1 and 2."""
    results, short = [], Counter()
    for table in tables_of(tournament).filter(round__stage="main"):
        if table.game.result:
            players = tuple(seat_names(table.game))
            results.append(
                GameResult(
                    players=players,
                    ranks=tuple(r["rank"] for r in table.game.result),
                    scores=tuple(r["score"] for r in table.game.result),
                )
            )
            if len(players) < table_size:
                short.update(players)
    if not results:
        return
    placement = {int(k): v for k, v in tournament.placement_points.items()}
    for version in (1, 2):
        for result in results:
            figures.inversions[version] += _inversions(result, placement, version)
        _buchholz_against_short(figures, results, short, placement, version)


def _inversions(result: GameResult, placement, version: int) -> int:
    """Pairs at the table where the lower score took the larger share."""
    one = standings(
        list(result.players),
        [result],
        placement=placement,
        tiebreaks=["share"],
        tiebreak_version=version,
    )
    share = {line.player: line.tiebreaks[0] for line in one}
    score = dict(zip(result.players, result.scores))
    return sum(
        1
        for a, b in itertools.permutations(result.players, 2)
        if score[a] < score[b] and share[a] > share[b] + 1e-9
    )


def _buchholz_against_short(figures, results, short: Counter, placement, version: int) -> None:
    """Among pairs tied on points where one sat at short tables more often, count those where
    that one has the lower Buchholz."""
    everyone = sorted({p for r in results for p in r.players})
    lines = standings(
        everyone, results, placement=placement, tiebreaks=["buchholz"], tiebreak_version=version
    )
    by_points: dict[float, list] = {}
    for line in lines:
        by_points.setdefault(round(line.points, 6), []).append(line)
    for tied in by_points.values():
        for a, b in itertools.combinations(tied, 2):
            if short[a.player] == short[b.player]:
                continue
            shorter, fuller = (a, b) if short[a.player] > short[b.player] else (b, a)
            figures.tied_pairs += version == 1
            figures.short_lower[version] += shorter.tiebreaks[0] < fuller.tiebreaks[0] - 1e-9


def report(name: str, f: Figures) -> None:
    mean_byes = sum(f.byes) / len(f.byes) if f.byes else 0.0
    mixing = f"{f.mixing / f.mixing_floor:.2f}" if f.mixing_floor else "-"
    tied = max(f.tied_pairs, 1)
    print(
        f"{name:<36} {f.champions:>4}/{f.events:<4} {f.repeats / max(f.rounds, 1):>7.2f}"
        f" {mixing:>7} {f.most_byes:>4} {mean_byes:>5.2f} {f.early_second_byes:>5}"
        f" {f.inversions[1]:>5}/{f.inversions[2]:<5}"
        f" {f.short_lower[1] / tied:>6.1%}/{f.short_lower[2] / tied:<6.1%} {f.tied_pairs:>6}"
        f" {f.seconds / max(f.events, 1):>6.2f}",
        flush=True,
    )
    for why, count in f.refused.most_common(3):
        print(f"    refused {count}x: {why}", flush=True)


def worker(slot: int, seed: int, tasks, results, stop) -> None:
    """One process: a throwaway database of its own and its members, then the events off
    ``tasks`` until a None or ``stop``; each event's figures, or what failed, to ``results``."""
    # As served with a broker: what a result enqueues (ratings, notices) waits on an
    # in-memory broker nothing consumes, so the figures time the services, not the workers.
    celery_app.conf.task_always_eager = False
    celery_app.conf.broker_url = "memory://"
    logging.disable(logging.INFO)
    database = None
    try:
        database = _common.ThrowawayDatabase(f"bench_tournaments_{slot}")
        version = ".".join(map(str, connection.get_database_version()))
        users = get_user_model()
        org = users.objects.create_user("organiser")
        for i in range(POOL):
            users.objects.create_user(f"member{i}")
        formats = all_formats()
        results.put(("ready", slot, f"{connection.vendor} {version}"))
        for pk, name, number in iter(tasks.get, None):
            if stop.is_set():
                break
            results.put(
                ("event", name, number, play_event(name, formats[name], number, seed, pk, org))
            )
    except BaseException:
        results.put(("failed", slot, traceback.format_exc()))
    finally:
        if database is not None:
            database.drop()
        results.put(("done", slot, None))


class Tally:
    """What the processes hand back: the heading once the first is ready, then each format's
    figures, added up in event order and printed as soon as all its events are in, in the order
    of the formats."""

    def __init__(self, args, names: list[str], jobs: int):
        self.args, self.jobs = args, jobs
        self.started = time.perf_counter()
        self.played: dict[str, dict[int, Figures]] = {name: {} for name in names}
        self.total = len(names) * args.events
        self.waiting = list(names)  # not printed yet
        self.slowest: list[tuple[str, tuple[float, int, int]]] = []
        self.headed, self.failed, self.said = False, False, time.monotonic()

    def take(self, kind: str, who, rest: list) -> None:
        if kind == "ready" and not self.headed:
            heading(self.args, self.jobs, rest[0])
            self.headed = True
        elif kind == "event":
            self.add(who, *rest)
        elif kind == "failed":
            print(f"process {who} failed:\n{rest[0]}", file=sys.stderr)
            self.failed = True

    def add(self, name: str, number: int, figures: Figures) -> None:
        self.played[name][number] = figures
        while self.waiting and len(self.played[self.waiting[0]]) == self.args.events:
            name = self.waiting.pop(0)
            together = Figures()
            for n in range(self.args.events):
                together.add(self.played[name][n])
            report(name, together)
            self.slowest.append((name, together.slowest))
        if time.monotonic() - self.said > 300:  # a word now and then for a long run's log
            self.said = time.monotonic()
            print(
                f"... {self.count()}/{self.total} events, {self.minutes():.0f} min", file=sys.stderr
            )

    def count(self) -> int:
        return sum(len(events) for events in self.played.values())

    def minutes(self) -> float:
        return (time.perf_counter() - self.started) / 60

    def close(self) -> None:
        if self.failed or self.waiting:
            raise SystemExit(f"stopped with {self.count()} of {self.total} events played")
        for name, (seconds, number, size) in self.slowest:
            print(f"slowest event of {name}: {seconds:.2f} s (event {number}, {size} players)")
        plural = "es" if self.jobs > 1 else ""
        print(f"wall time {self.minutes() * 60:.0f} s, {self.jobs} process{plural}")


def heading(args, jobs: int, database: str) -> None:
    _common.header("Tournaments simulated through the services", database)
    for value in unlisted_formats():
        print(f"{value}: not in FORMATS, run with its defaults at tables of 2 and 4")
    print(
        f"{args.events} events a format, seed {args.seed}, {GAME} in table mode,"
        f" {jobs} process{'es' if jobs > 1 else ''}; byes: most, mean, second before all;"
        " share inversions v1/v2; short-table player lower on Buchholz v1/v2"
    )
    print(
        f"{'format':<36} {'champion':>9} {'rep/rnd':>7} {'mixing':>7} {'byes':>4}"
        f" {'mean':>5} {'2nd':>5} {'share inv':>11} {'buchholz short':>13} {'tied':>6}"
        f" {'s/event':>6}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200, help="events per format")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--only", help="run only the formats whose name contains this")
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes playing events, each on its own database"
    )
    args = parser.parse_args()
    chosen = [
        (i, name) for i, name in enumerate(all_formats()) if not args.only or args.only in name
    ]
    jobs = max(1, min(args.jobs, len(chosen) * args.events))
    tally = Tally(args, [name for _, name in chosen], jobs)
    # Each process is a fresh interpreter (no connection or state carried over) with string
    # hashing fixed, so that no set's order differs from one process to another (none was seen
    # to matter: three events of every format gave the same figures under two hash seeds).
    os.environ["PYTHONHASHSEED"] = "0"
    context = multiprocessing.get_context("spawn")
    tasks, results, stop = context.Queue(), context.Queue(), context.Event()
    for i, name in chosen:  # in order, so that the formats are done, and printed, in turn
        for number in range(args.events):
            tasks.put((i * args.events + number + 1, name, number))
    for _ in range(jobs):
        tasks.put(None)
    processes = [
        context.Process(target=worker, args=(slot, args.seed, tasks, results, stop))
        for slot in range(jobs)
    ]
    for process in processes:
        process.start()
    running = jobs
    try:
        while running and not tally.failed:
            try:
                kind, who, *rest = results.get(timeout=10)
            except queue.Empty:
                if not any(p.is_alive() for p in processes):
                    print("the processes ended without saying so", file=sys.stderr)
                    tally.failed = True
                continue
            running -= kind == "done"
            tally.take(kind, who, rest)
    finally:
        stop.set()  # after a failure, the others stop after their event and drop their database
        tasks.cancel_join_thread()  # what is left in the queue is dropped with it
        for process in processes:
            process.join(timeout=300)
    tally.close()


if __name__ == "__main__":
    main()
