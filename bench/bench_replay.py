"""Replaying a stored log of a finished game, against decoding the same log alone.

For each registered game (or --game), one game at its largest table is played with a fixed seed and its events are serialised one JSON document per
event, as an Event row's kind and JSON data columns hold them:
{"kind": "ActionApplied" | "ChanceResolved" | ..., "data": {"action": {...}, ...}}.
Then, in the same run:
  (a) decode: json.loads of every event's text;
  (b) replay: json.loads of every event and games.store.apply_event on a fresh new_game.
The ratio replay / decode says what the rules add on top of reading the log.

With --baseline DIR (a checkout of an older commit, e.g. ``git worktree add /tmp/before
main``), the same log is also replayed through that checkout's rule modules, loaded beside
these, interleaved with the others, so that the before and after ratios come from one run.

apply_event is the store's own function, not a copy: the script calls django.setup() (no
database is touched) so that games.store, which imports the models, can be imported.

    .venv/bin/python bench/bench_replay.py [--game SLUG] [--replays 300] [--repeats 3] [--seed 6]
        [--baseline DIR] [--cpu]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django  # noqa: E402

django.setup()

from games.models import EventKind  # noqa: E402
from games.rules import CHANCE, get_rules, registered  # noqa: E402
from games.store import apply_event  # noqa: E402


def event_data(state, action) -> dict:
    """Shaped like services' event data: a private outcome also carries its public form."""
    private = state.private_to(action)
    if private is None:
        return {"action": action}
    return {"action": action, "private_to": sorted(private), "public": state.public_form(action)}


def recorded_game(rules, players: int, seed: int) -> tuple[list[str], list[dict]]:
    """A finished game's log as one JSON text per event, and its result."""
    rng = random.Random(seed)
    state = rules.new_game(num_players=players)
    log = [
        {
            "kind": EventKind.GAME_CREATED.value,
            "data": {"game": rules.spec.slug, "num_players": players, "options": {}},
        }
    ]
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
            kind = EventKind.CHANCE_RESOLVED.value
        else:
            action = rng.choice(state.legal_actions())
            kind = EventKind.ACTION_APPLIED.value
        log.append({"kind": kind, "data": event_data(state, action)})
        state.apply(action)
    log.append({"kind": EventKind.GAME_FINISHED.value, "data": {"result": state.result()}})
    return [json.dumps(event) for event in log], state.result()


def decode(texts: list[str]) -> None:
    for text in texts:
        json.loads(text)


def replay(rules, players: int, texts: list[str]):
    state = rules.new_game(num_players=players)
    for text in texts:
        event = json.loads(text)
        apply_event(state, event["kind"], event["data"])
    return state


def rate(fn, texts: list[str], times: int, now=time.perf_counter) -> float:
    """Calls of fn(texts) per second, by the clock ``now``."""
    start = now()
    for _ in range(times):
        fn(texts)
    return times / (now() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(registered()), help="one game (default: all)")
    parser.add_argument("--replays", type=int, default=300, help="replays per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--baseline", metavar="DIR", help="also replay with this checkout's rules")
    _common.add_clock_option(parser)
    args = parser.parse_args()
    before = _common.baseline_rules(args.baseline) if args.baseline else {}
    _common.header("Replay vs decoding the log")
    for slug in [args.game] if args.game else sorted(registered()):
        compare(get_rules(slug), args, before.get(slug))


def compare(rules, args, old_rules=None) -> None:
    players = rules.spec.max_players
    texts, result = recorded_game(rules, players, args.seed)
    assert replay(rules, players, texts).result() == result, "the replay must reach the result"
    decodes = args.replays * 4  # decoding is cheaper: more rounds for a comparable span

    print(
        f"\n{rules.spec.name}: one {players}-player game (seed {args.seed}): {len(texts)} events,"
        f" {sum(map(len, texts)):,} bytes of JSON; {args.repeats} repeats, best / median"
        + ("; CPU time" if args.cpu else "")
    )
    # Interleaved, so a noisy neighbour slows both sides rather than one.
    if old_rules is not None:
        assert replay(old_rules, players, texts).result() == result, "the baseline differs"
    replay_rates, decode_rates, old_rates = [], [], []
    for _ in range(args.repeats):
        now = _common.clock(args)
        replay_rates.append(rate(lambda t: replay(rules, players, t), texts, args.replays, now))
        decode_rates.append(rate(decode, texts, decodes, now))
        if old_rules is not None:
            old_rates.append(
                rate(lambda t: replay(old_rules, players, t), texts, args.replays, now)
            )
    r_best, r_median = _common.best_and_median(replay_rates)
    d_best, d_median = _common.best_and_median(decode_rates)
    print(
        f"replay (decode + apply_event): {r_best:>10,.1f} replays/s best {r_median:>10,.1f}"
        f" median  = {r_best * len(texts):>10,.0f} events/s best"
    )
    print(
        f"decode only (json.loads):      {d_best:>10,.1f} decodes/s best {d_median:>10,.1f}"
        f" median  = {d_best * len(texts):>10,.0f} events/s best"
    )
    print(
        f"ratio replay / decode time: {d_best / r_best:.1f}x best-to-best,"
        f" {d_median / r_median:.1f}x median-to-median"
    )
    if old_rates:
        o_best, o_median = _common.best_and_median(old_rates)
        print(
            f"before (--baseline):           {o_best:>10,.1f} replays/s best {o_median:>10,.1f}"
            f" median; ratio to decode {d_best / o_best:.1f}x best-to-best,"
            f" {d_median / o_median:.1f}x median-to-median; now {r_median / o_median:.1f}x as fast"
        )


if __name__ == "__main__":
    main()
