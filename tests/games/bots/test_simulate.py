"""``manage.py simulate``: the JSON shape, seat rotation, budgets and reproducibility."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.bots.arena import parse_entrant, seating, wilson_interval

ROOT = Path(__file__).resolve().parents[3]


def simulate(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_json_output_has_the_documented_shape():
    report = json.loads(
        simulate(
            "--game",
            "deep-sea-adventure",
            "--bots",
            "greedy,random",
            "--games",
            "6",
            "--seed",
            "3",
            "--json",
        )
    )
    assert set(report) == {"games", "bots", "first_seat_win_rate"}
    assert report["games"] == 6
    assert set(report["bots"]) == {"greedy", "random"}
    for row in report["bots"].values():
        assert set(row) == {"wins", "win_rate", "mean_score"}
        assert row["win_rate"] == pytest.approx(row["wins"] / 6)
    # Two seats, so one first place per game unless tied: wins add up to at least the games.
    assert sum(row["wins"] for row in report["bots"].values()) >= 6
    assert 0 <= report["first_seat_win_rate"] <= 1


def test_the_same_seed_gives_the_same_report():
    args = (
        "--game",
        "deep-vents",
        "--bots",
        "mcts:5,greedy",
        "--games",
        "2",
        "--seed",
        "9",
        "--json",
    )
    assert simulate(*args) == simulate(*args)


def test_the_text_report_gives_intervals_and_moves_per_second():
    text = simulate(
        "--game",
        "deep-sea-adventure",
        "--bots",
        "random,greedy",
        "--games",
        "4",
        "--seed",
        "1",
        "--players",
        "3",
    )
    assert "95%" in text and "moves/s" in text and "first seat win rate" in text


@pytest.mark.parametrize(
    "args",
    [
        ("--game", "chess", "--bots", "random,random"),
        ("--game", "deep-vents", "--bots", "random,oracle"),
        ("--game", "deep-vents", "--bots", "greedy:3s,random"),
        ("--game", "deep-vents", "--bots", "random,random"),
        ("--game", "deep-vents", "--bots", "random,greedy", "--players", "5"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(args):
    with pytest.raises(CommandError):
        simulate(*args)


def test_budgets_parse_as_iterations_or_seconds():
    assert parse_entrant("mcts:800").budget == {"iterations": 800}
    assert parse_entrant("mcts:0.5s").budget == {"seconds": 0.5}
    assert parse_entrant("greedy").budget == {}
    with pytest.raises(ValueError):
        parse_entrant("mcts:0.5")


def test_seats_rotate_so_each_bot_plays_each_seat_equally():
    a, b = parse_entrant("random"), parse_entrant("greedy")
    assert [seating([a, b], 2, g) for g in range(2)] == [[a, b], [b, a]]
    assert [seating([a, b], 3, g) for g in range(2)] == [[a, b, a], [b, a, b]]


def test_wilson_interval():
    low, high = wilson_interval(90, 100)
    assert low == pytest.approx(0.8256, abs=1e-3) and high == pytest.approx(0.9448, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0


def test_worker_processes_give_the_results_of_one_process():
    """Run as a user runs it, in a process of its own: a pool of workers spawned from inside a
    test runner's process (its live servers' threads and open pipes) once waited there for
    ever, in CI, for games its idle workers never got."""
    args = ("--game", "deep-vents", "--bots", "greedy,random", "--games", "4", "--seed", "3")
    one = json.loads(simulate(*args, "--json"))
    command = [sys.executable, "manage.py", "simulate", *args, "--json", "--jobs", "2"]
    run = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300, env=os.environ.copy()
    )
    assert run.returncode == 0, run.stderr[-3000:]
    two = json.loads(run.stdout)
    assert two == one
    assert one["games"] == 4


def test_jobs_must_be_at_least_one():
    with pytest.raises(CommandError):
        simulate("--game", "abyss", "--bots", "random,greedy", "--jobs", "0")
