"""A cold read of a long game: full replay against a JSON snapshot plus the tail of the log.

For each registered game (or --game), the longest of --candidates 4-player games played with
random legal moves is recorded as bench_replay.py records one (one JSON text per event, as an
Event row's columns hold it). The snapshot is the state after the last multiple of 50 events
(HADAL_SNAPSHOT_EVERY's default) in its JSON form, as a Snapshot row's column holds it. Then,
in the same run:
  (a) floor: json.loads of every event's text, what any read of the log pays;
  (b) replay: (a) plus games.store.apply_event on a fresh new_game, the read without snapshots;
  (c) snapshot read: json.loads of the snapshot, state_from_json, then (b) for the tail only;
  (d) encode: json.dumps(state.to_json()), paid once per snapshot written;
  (e) decode: state_from_json(json.loads(snapshot)), the snapshot's share of (c);
  (f) checked read: (c) with the store's check of the row (its chain hash, and the HMAC over
      the row's text, the state's canonical JSON), what a cold read from a snapshot costs
      since snapshots are sealed;
  (g) check: that check alone, and (h) seal: the canonical text and HMAC a snapshot written
      pays.
A cold read is what the in-process head cache does not serve: another worker process, a
restart, a game evicted from the cache, or a view at an earlier version (``?at=V``). The
database's own round trips are not measured; they are the same for (b) and (c) but for one
query more in (c).

    .venv/bin/python bench/bench_snapshots.py [--game SLUG] [--reads 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from types import SimpleNamespace

import _common
from bench_replay import decode, recorded_game, replay  # django.setup() happens there

from games import logchain, store
from games.rules import get_rules, registered
from games.rules.base import state_from_json
from games.store import apply_event, snapshots

PLAYERS = 4
EVERY = 50


def longest_game(rules, candidates: int) -> tuple[list[str], list[dict], int]:
    """The longest of ``candidates`` seeded games: its log, its result and its seed."""
    games = [(recorded_game(rules, PLAYERS, seed), seed) for seed in range(candidates)]
    (texts, result), seed = max(games, key=lambda game: len(game[0][0]))
    return texts, result, seed


def snapshot_read(rules, snapshot: str, tail: list[str]):
    state = state_from_json(rules, json.loads(snapshot))
    for text in tail:
        event = json.loads(text)
        apply_event(state, event["kind"], event["data"])
    return state


def checked_read(rules, row: SimpleNamespace, tail: list[str]):
    """(c) as the store reads a row: its text checked, then decoded and rebuilt."""
    if snapshots.fault(GAME_ID, rules.spec.version, row) is not None:
        raise AssertionError("the bench's own snapshot must pass its check")
    state = state_from_json(rules, json.loads(row.state))
    for text in tail:
        event = json.loads(text)
        apply_event(state, event["kind"], event["data"])
    return state


GAME_ID = 1
CHAIN_HASH = "c" * 64  # as the row and the log's event at its version both say


def seconds_per_call(fn, times: int) -> float:
    start = time.perf_counter()
    for _ in range(times):
        fn()
    return (time.perf_counter() - start) / times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(registered()), help="one game (default: all)")
    parser.add_argument("--reads", type=int, default=100, help="calls of each per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--candidates", type=int, default=10, help="games to pick the longest of")
    args = parser.parse_args()
    _common.header("Cold reads: full replay vs a JSON snapshot and the tail")
    for slug in [args.game] if args.game else sorted(registered()):
        compare(get_rules(slug), args)


def compare(rules, args) -> None:
    texts, result, seed = longest_game(rules, args.candidates)
    at = len(texts) // EVERY * EVERY
    state = replay(rules, PLAYERS, texts[:at])
    snapshot = json.dumps(state.to_json())
    tail = texts[at:]
    assert snapshot_read(rules, snapshot, tail).result() == result, "the read must reach the end"

    def sealed() -> str:
        text = logchain.canonical_text(state.to_json())
        return store.snapshot_mac(GAME_ID, at, rules.spec.version, CHAIN_HASH, text)

    row = SimpleNamespace(
        version=at,
        state=logchain.canonical_text(state.to_json()),  # as the row holds it
        chain_hash=CHAIN_HASH,
        logged_hash=CHAIN_HASH,
        mac=sealed(),
    )
    assert checked_read(rules, row, tail).result() == result

    cases = {
        "floor: json.loads of the events": lambda: decode(texts),
        "full replay": lambda: replay(rules, PLAYERS, texts),
        "snapshot read (snapshot + tail)": lambda: snapshot_read(rules, snapshot, tail),
        "encode: dumps(to_json())": lambda: json.dumps(state.to_json()),
        "decode: state_from_json(loads())": lambda: state_from_json(rules, json.loads(snapshot)),
        "checked read (snapshot + tail)": lambda: checked_read(rules, row, tail),
        "check: chain hash, HMAC": lambda: snapshots.fault(GAME_ID, rules.spec.version, row),
        "seal: canonical text, HMAC": sealed,
    }
    print(
        f"\n{rules.spec.name}: the longest of {args.candidates} {PLAYERS}-player games "
        f"(seed {seed}): {len(texts)} events, {sum(map(len, texts)):,} bytes of JSON; snapshot "
        f"at {at}: {len(snapshot):,} bytes, tail {len(tail)} events; {args.repeats} repeats"
    )
    # Interleaved, so a noisy neighbour slows every case rather than one.
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeats):
        for name, fn in cases.items():
            times[name].append(seconds_per_call(fn, args.reads))
    best = {name: min(values) for name, values in times.items()}
    for name, values in times.items():
        median = statistics.median(values)
        print(
            f"  {name:<34} {best[name] * 1e3:>8.3f} ms best {median * 1e3:>8.3f} ms median"
            f"  {best[name] / best['floor: json.loads of the events']:>6.1f}x the floor"
        )
    replayed, read = best["full replay"], best["snapshot read (snapshot + tail)"]
    per_event = (replayed - best["floor: json.loads of the events"]) / (len(texts) - 1)
    print(
        f"  a cold read from the snapshot takes {read / replayed:.0%} of a full replay "
        f"({replayed / read:.1f}x faster); writing one costs as much as applying "
        f"{best['encode: dumps(to_json())'] / per_event:.0f} events"
    )
    checked = best["checked read (snapshot + tail)"]
    print(
        f"  the row's check makes the cold read {checked / read:.2f}x as long "
        f"(+{(checked - read) * 1e3:.3f} ms; the check alone "
        f"{best['check: chain hash, HMAC'] * 1e3:.3f} ms), still "
        f"{replayed / checked:.1f}x faster than a full replay"
    )


if __name__ == "__main__":
    main()
