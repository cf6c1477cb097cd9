"""Bot against bot: play seeded games with rotating seats and tally wins and scores.

The engine behind ``manage.py simulate`` and the strength tests; pure Python, no database.
A game's chance outcomes and each seat's bot generator are seeded from the match seed and the
game number, so a match replays identically.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import re
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from games.bots import BOTS, get_bot
from games.bots.rewards import sample_outcome
from games.rules import Rules, get_rules

_BUDGET = re.compile(r"^(?P<level>[a-z_]+)(?::(?P<amount>\d+(?:\.\d+)?)(?P<unit>s?))?$")


@dataclass(frozen=True)
class Entrant:
    """A bot as named on the command line: ``mcts``, ``mcts:800`` (iterations), ``mcts:0.5s``."""

    name: str
    level: str
    budget: dict[str, Any]

    def make(self):
        return get_bot(self.level, **self.budget)


def parse_entrant(text: str) -> Entrant:
    match = _BUDGET.match(text.strip())
    if not match or match["level"] not in BOTS:
        raise ValueError(
            f"bad bot {text!r}: a level ({', '.join(BOTS)}) with an optional "
            "budget, e.g. mcts:800 (iterations) or mcts:0.5s (seconds)"
        )
    budget: dict[str, Any] = {}
    if match["amount"] is not None:
        if match["unit"]:
            budget["seconds"] = float(match["amount"])
        elif "." in match["amount"]:
            raise ValueError(f"bad bot {text!r}: iterations are a whole number")
        else:
            budget["iterations"] = int(match["amount"])
    entrant = Entrant(text.strip(), match["level"], budget)
    entrant.make()  # a budget the level does not take fails here, before any game
    return entrant


@dataclass
class Tally:
    wins: int = 0
    seats: int = 0
    score: float = 0.0
    decisions: int = 0
    thinking: float = 0.0


@dataclass
class MatchResult:
    games: int = 0
    first_seat_wins: int = 0
    decisions: int = 0
    seconds: float = 0.0
    tallies: dict[str, Tally] = field(default_factory=dict)
    # Each game as (the entrant's name in each seat, each seat's rank), in the order played.
    played: list[tuple[list[str], list[int]]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "bots": {
                name: {
                    "wins": t.wins,
                    "win_rate": t.wins / self.games if self.games else 0.0,
                    "mean_score": t.score / t.seats if t.seats else 0.0,
                }
                for name, t in self.tallies.items()
            },
            "first_seat_win_rate": self.first_seat_wins / self.games if self.games else 0.0,
        }


def seating(entrants: list[Entrant], players: int, game: int) -> list[Entrant]:
    """Seats filled cyclically from the list, shifted by one each game, so that over as many
    games as there are entrants each entrant sits in each seat once (when they divide evenly)."""
    return [entrants[(seat + game) % len(entrants)] for seat in range(players)]


def play_game(
    rules: Rules, seats: list[Entrant], seed: str, tallies: dict[str, Tally]
) -> tuple[list[dict[str, Any]], int]:
    """One game to the end; returns its result and the decisions made, adding time to tallies."""
    state = rules.new_game(len(seats))
    chance = random.Random(f"{seed}:chance")
    bots = [entrant.make() for entrant in seats]
    rngs = [random.Random(f"{seed}:seat{s}") for s in range(len(seats))]
    decisions = 0
    while not state.is_terminal():
        player = state.current_player
        if state.is_chance_node():
            state.apply(sample_outcome(state.chance_outcomes(), chance))
            continue
        started = time.perf_counter()
        action = bots[player].choose(state, player, rngs[player])
        tally = tallies[seats[player].name]
        tally.thinking += time.perf_counter() - started
        tally.decisions += 1
        state.apply(action)
        decisions += 1
    return state.result(), decisions


def run_match(
    rules: Rules,
    entrants: list[Entrant],
    games: int,
    seed: int,
    players: int,
    progress: Callable[[], None] | None = None,
    jobs: int = 1,
) -> MatchResult:
    """``games`` games, seats rotating. With ``jobs`` above 1 the games are played by that
    many worker processes; each game is seeded by its number alone, so the result is the one
    a single process gives (only the thinking times differ)."""
    match = MatchResult(tallies={e.name: Tally() for e in entrants})
    started = time.perf_counter()
    tasks = [(rules.spec.slug, seating(entrants, players, g), f"{seed}:{g}") for g in range(games)]
    if jobs > 1 and games > 1:
        # An executor rather than multiprocessing.Pool: a worker that dies fails the match
        # (BrokenProcessPool) where a Pool would wait for its lost game for ever.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(jobs, games), mp_context=context) as pool:
            _tally_games(match, pool.map(_play_task, tasks), progress)
    else:
        _tally_games(match, map(_play_task, tasks), progress)
    match.seconds = time.perf_counter() - started
    return match


def _play_task(
    task: tuple[str, list[Entrant], str],
) -> tuple[list[Entrant], list[dict[str, Any]], int, dict[str, Tally]]:
    slug, seats, seed = task
    tallies = {e.name: Tally() for e in seats}
    result, decisions = play_game(get_rules(slug), seats, seed, tallies)
    return seats, result, decisions, tallies


def _tally_games(match: MatchResult, played, progress: Callable[[], None] | None) -> None:
    for seats, result, decisions, thinking in played:
        for name, spent in thinking.items():
            match.tallies[name].thinking += spent.thinking
            match.tallies[name].decisions += spent.decisions
        match.games += 1
        match.decisions += decisions
        match.played.append(([e.name for e in seats], [entry["rank"] for entry in result]))
        winners = {seats[s].name for s, entry in enumerate(result) if entry["rank"] == 1}
        for s, entry in enumerate(result):
            tally = match.tallies[seats[s].name]
            tally.seats += 1
            tally.score += entry["score"]
        for name in winners:  # a shared first place is a win for each
            match.tallies[name].wins += 1
        if result[0]["rank"] == 1:
            match.first_seat_wins += 1
        if progress is not None:
            progress()


def round_robin(
    rules: Rules,
    entrants: list[Entrant],
    games: int,
    seed: int,
    progress: Callable[[], None] | None = None,
) -> dict[tuple[str, str], MatchResult]:
    """Every pair of entrants plays a 2-player match of ``games`` games (seats rotating), all
    pairs on the same seeds; the matches by pair of names."""
    return {
        (a.name, b.name): run_match(rules, [a, b], games, seed, 2, progress)
        for i, a in enumerate(entrants)
        for b in entrants[i + 1 :]
    }


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% for the default z)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
