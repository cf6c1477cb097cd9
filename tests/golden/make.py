"""Makes the golden corpus: exported bundles of finished games of every game at every version of
its rules (tests/golden/corpus/<game>/v<version>/), and corpus.json, which pins each one's
fingerprint and result. tests/games/test_golden_corpus.py replays every bundle under today's
code and requires the same result, ranks, redaction and fingerprint: a change that alters any
of them fails the suite unless it comes as a new rules version (CONTRIBUTING.md says how).

A game is made in two steps, so that a version's games are played by the code of its time:

1. play: seeded games are played through a rule module (by the seeded policy a seat follows,
   or a bot), and each step is written down with what the rules said of it: who acted, the
   action, which seats alone may see it and what the others see, and the result. For an old
   version the module is the one of the commit before its ruling changed, run from a copy of
   that commit (``--rules-from``), with nothing but Python;
2. bundle: each game's log is written as the service writes it (the same event constructors,
   ids for people, one time per write, the hash chain) and exported as the service exports it.

    .venv/bin/python tests/golden/make.py           # the whole corpus, old versions included
    .venv/bin/python tests/golden/make.py --only deep-vents/2

Everything is seeded and timed by the clock of the corpus, so the same code makes the same bytes:
making the corpus again and finding a file changed is finding a change of behaviour. Add the
games of a new version; never make a pinned version's games again from changed code.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = HERE / "corpus"
MANIFEST = HERE / "corpus.json"

# The commit before each ruling that made a new version: its code plays that version.
BEFORE = {
    ("deep-vents", 1): "aa425b6^",
    ("abyss", 1): "d41738e^",
    ("deep-sea-adventure", 1): "142433d^",
}
# Per game and version: (policy, seeds) to play. "random" and "reckless" seats are people (a
# reckless one never pays its shortfall off first, so ecosystems collapse); "greedy" seats
# are the greedy bot. Where a version differs from the next only in rare games, "differs"
# says how many of its games must come out otherwise under the next version (searched for).
PLANS: dict[tuple[str, int], dict] = {
    ("deep-sea-adventure", 1): {"plays": [("random", 24), ("greedy", 4)]},
    ("deep-sea-adventure", 2): {"plays": [("random", 24), ("greedy", 4)], "logs": 3},
    ("deep-vents", 1): {"plays": [("random", 20), ("greedy", 2)], "differs": ("reckless", 4)},
    ("deep-vents", 2): {"plays": [("random", 20), ("greedy", 2), ("reckless", 4)], "logs": 2},
    ("abyss", 1): {"plays": [("random", 14), ("greedy", 2)], "differs": ("random", 4)},
    ("abyss", 2): {"plays": [("random", 16), ("greedy", 2)], "logs": 2},
    ("ventlife", 1): {"plays": [("random", 16), ("greedy", 2)], "logs": 2},
}
RECORDS = 12  # Oceans games recorded from a table, with their score sheets
PEOPLE = ("ann", "ben", "cy", "di", "eve", "flo")
START = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)


# -- 1. play (pure: runs from a copy of an old commit too) -------------------------------------


PLAY = r"""
import json, random, sys
slug, version, policy, seeds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
from games.rules import get_rules
from games.bots import get_bot
# The code of before versions had one version, its own: get_rules took the slug alone.
rules = get_rules(slug) if version == "-" else get_rules(slug, int(version))

def sample(outcomes, rng):
    r = rng.random()
    for outcome, p in outcomes:
        r -= p
        if r < 0:
            return outcome
    return outcomes[-1][0]

for seed in seeds.split(","):
    rng = random.Random(f"golden/{slug}/{policy}/{seed}")
    n = rng.randint(rules.spec.min_players, rules.spec.max_players)
    options = {}
    if slug == "deep-vents":
        options = {"starting_bid": rng.random() < 0.5}
    state = rules.new_game(n, dict(options))
    bot = get_bot("greedy") if policy == "greedy" else None
    steps = []
    while not state.is_terminal():
        seat = None if state.is_chance_node() else state.current_player
        if seat is None:
            action = sample(state.chance_outcomes(), rng)
        elif bot is not None:
            action = bot.choose(state, seat, rng)
        else:
            legal = state.legal_actions()
            if policy == "reckless":
                legal = [a for a in legal if a["type"] != "pay_shortfall"] or legal
            action = rng.choice(legal)
        private = state.private_to(action)
        steps.append({
            "seat": seat,
            "action": action,
            "private_to": sorted(private) if private is not None else None,
            "public": state.public_form(action) if private is not None else None,
        })
        state.apply(action)
    print(json.dumps({"slug": slug, "policy": policy, "seed": seed, "players": n,
                      "options": options, "steps": steps, "result": state.result()}))
"""


def play(slug: str, version: int, policy: str, seeds: list[int], code: Path) -> list[dict]:
    """Seeded games of ``slug`` at ``version``, played by the rule module in ``code``."""
    if not seeds:
        return []
    current = code == REPO
    found = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            f"import sys; sys.path.insert(0, {str(code)!r})\n" + PLAY,
            slug,
            str(version) if current else "-",
            policy,
            ",".join(map(str, seeds)),
        ],
        capture_output=True,
        text=True,
        cwd=code,
        env={"HADAL_RULES": "source", "PATH": os.environ.get("PATH", "")},
        check=True,
    )
    return [json.loads(line) for line in found.stdout.splitlines()]


# -- 2. bundle (this checkout's event constructors and export) -----------------------------------


def public_id(name: str) -> str:
    digest = hashlib.sha256(f"golden/{name}".encode()).digest()
    return "m-" + base64.b32encode(digest).decode("ascii").lower()[:10]


class Table:
    """The corpus's people, by fixed ids (eventschema.Resolver): nobody seals a note here."""

    def person(self, name: str, *, guest: bool) -> str:
        return public_id(name)

    def note(self, text: str):
        raise ValueError("the corpus's games carry no notes")


ACTORS = {name: 100 + i for i, name in enumerate(PEOPLE)} | {"bot-greedy": 99}


def bundle(game: dict, version: int, *, logged_by: str | None = None) -> dict:
    """The export of ``game`` played here, or, with ``logged_by``, entered at a table log by
    that scorekeeper, one entry a write, the one entry taken back and entered again."""
    from games import events

    n, people = game["players"], Table()
    if game["policy"] == "greedy":
        names = ["bot-greedy"] * n
        seats = [{"user": "bot-greedy", "bot": "greedy"} for _ in range(n)]
    elif logged_by:
        names = list(PEOPLE[:n])
        seats = [{"user": name} for name in names]
    else:
        names = list(PEOPLE[:n])
        seats = [{"user": name, "bot": None} for name in names]
    keeper = ACTORS[logged_by] if logged_by else None
    created = events.game_created(
        game=game["slug"],
        mode="log" if logged_by else None,
        rules_version=version,
        num_players=n,
        options=game["options"],
        seats=seats,
        scorekeeper=logged_by,
        time_control=events.UNSET if logged_by else None,
        accepted=list(range(n)),
        actor_id=keeper,
        people=people,
    )
    writes: list[list] = [[created]]
    for i, step in enumerate(game["steps"]):
        data = {"action": step["action"]}
        if step["private_to"] is not None:
            data |= {"private_to": step["private_to"], "public": step["public"]}
        if step["seat"] is None:
            entry = events.chance_resolved(**data, actor_id=keeper)
            if logged_by:
                writes.append([entry])
            else:
                writes[-1].append(entry)
            continue
        actor = keeper or ACTORS[names[step["seat"]]]
        writes.append([events.action_applied(**data, seat=step["seat"], actor_id=actor)])
        if logged_by and i == len(game["steps"]) // 2:  # a slip: taken back, entered again
            seq = sum(map(len, writes))
            writes.append([events.entry_undone(undoes=seq, kind="ActionApplied", actor_id=keeper)])
            writes.append([events.action_applied(**data, seat=step["seat"], actor_id=actor)])
    result = [
        {"player": names[i], "score": line["score"], "rank": line["rank"]}
        for i, line in enumerate(game["result"])
    ]
    writes[-1].append(events.game_finished(result=result, reason="rules", people=people))
    from games.rules import get_rules

    mode = "log" if logged_by else "play"
    rules = {"slug": game["slug"], "module": get_rules(game["slug"]).__name__, "version": version}
    return exported(writes, rules, mode, names)


def record(number: int) -> dict:
    """An Oceans game recorded from a table by its first player, with its score sheet, and
    confirmed by the others."""
    from games import events
    from games.records import oceans
    from games.rules.oceans_data import CARDS

    rng = random.Random(f"golden/oceans/{number}")
    n, people = rng.randint(2, 4), Table()
    names = list(PEOPLE[:n])
    piles = [rng.randint(20, 70) for _ in names]
    cards = rng.sample([c.name for c in CARDS], len(CARDS))  # each card played once at most
    rows = [
        {"player": name, "score_pile": pile, "bonus": rng.choice((0, 3, 5)), "other": 0,
         "deep_cards": [c for j, c in enumerate(cards) if j % n == i and rng.random() < 0.6]}
        for i, (name, pile) in enumerate(zip(names, piles))
    ]  # fmt: skip
    totals = [row["score_pile"] + row["bonus"] for row in rows]
    results = [
        {"player": name, "score": total, "rank": 1 + sum(t > total for t in totals)}
        for name, total in zip(names, totals)
    ]
    sheet = oceans.parse_sheet({"edition": "", "reef": False, "players": rows}, results)
    by = ACTORS[names[0]]
    played_at = (START - timedelta(days=30 - number)).isoformat()
    writes: list[list] = [
        [
            events.game_created(
                game="oceans",
                mode="record",
                num_players=n,
                seats=[{"user": name} for name in names],
                actor_id=by,
                people=people,
            ),
            events.result_recorded(
                results=results,
                played_at=played_at,
                notes="",
                bid=None,
                sheet=sheet,
                actor_id=by,
                people=people,
            ),
        ]
    ]
    writes += [
        [events.result_confirmed(actor_id=ACTORS[name], people=people)] for name in names[1:]
    ]
    writes[-1].append(
        events.game_finished(
            result=results, reason="confirmed", bid=None, sheet=sheet, people=people
        )
    )
    return exported(writes, {"slug": "oceans", "module": None, "version": 0}, "record", names)


def exported(writes: list[list], rules: dict, mode: str, names: list[str]) -> dict:
    """The bundle the service exports of a log appended in ``writes`` (one time each)."""
    from games import logchain

    logged, previous, seq = [], logchain.GENESIS, 0
    for i, write in enumerate(writes):
        time = logchain.time_text(START + timedelta(seconds=7 * i))
        for event in write:
            seq += 1
            previous = logchain.event_hash(
                previous,
                seq,
                str(event.kind),
                event.data,
                event.seat,
                time,
                actor=event.actor_id,
                chain=logchain.CHAIN_VERSION,
            )
            logged.append(
                {
                    "seq": seq,
                    "kind": str(event.kind),
                    "data": event.data,
                    "seat": event.seat,
                    "actor": event.actor_id,
                    "time": time,
                    "hash": previous,
                }
            )
    return {
        "format": logchain.BUNDLE_FORMAT,
        "format_version": logchain.BUNDLE_VERSION,
        "chain_version": logchain.CHAIN_VERSION,
        "rules": rules,
        "game": {"mode": mode, "status": "finished"},
        "events": logged,
        "fingerprint": previous,
        "people": {public_id(name): name for name in sorted(set(names))},
        "earlier": None,
    }


def differs_under_next(game: dict, version: int) -> bool:
    """Whether this log, replayed under the next version, ends otherwise (or is refused)."""
    from games.rules import IllegalAction, get_rules

    state = get_rules(game["slug"], version + 1).new_game(game["players"], dict(game["options"]))
    try:
        for step in game["steps"]:
            state.apply(step["action"])
    except IllegalAction:
        return True
    return not state.is_terminal() or state.result() != game["result"]


# -- the whole corpus ---------------------------------------------------------------------------------


def checkout(commit: str) -> Path:
    """A copy of the repository at ``commit``, in a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="hadal-golden-"))
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit, "games"],
        capture_output=True,
        check=True,
    )
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def games_of(slug: str, version: int) -> list[dict]:
    plan = PLANS[(slug, version)]
    code = checkout(BEFORE[(slug, version)]) if (slug, version) in BEFORE else REPO
    made = []
    for policy, count in plan["plays"]:
        made += play(slug, version, policy, list(range(count)), code)
    if "differs" in plan:
        policy, wanted = plan["differs"]
        found, start = [], 1000
        while len(found) < wanted:
            batch = play(slug, version, policy, list(range(start, start + 50)), code)
            found += [g for g in batch if differs_under_next(g, version)]
            start += 50
            if start > 5000:
                raise SystemExit(f"{slug} {version}: too few games that the next version changes")
        made += found[:wanted]
    return made


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", help="game/version, e.g. deep-vents/2")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    from games import logchain

    wanted = [tuple(o.split("/")) for o in args.only] if args.only else None
    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}

    def keep(name: str, made: dict) -> None:
        (CORPUS / name).parent.mkdir(parents=True, exist_ok=True)
        (CORPUS / name).write_bytes(logchain.dump_bundle(made))
        finished = made["events"][-1]["data"]["result"]
        manifest[name] = {
            "fingerprint": made["fingerprint"],
            "result": [[line["score"], line["rank"]] for line in finished],
        }

    for slug, version in PLANS:
        if wanted and (slug, str(version)) not in wanted:
            continue
        made = games_of(slug, version)
        for game in made:
            keep(f"{slug}/v{version}/{game['policy']}-{game['seed']}.json", bundle(game, version))
        logs = PLANS[(slug, version)].get("logs", 0)
        for game in play(slug, version, "random", list(range(500, 500 + logs)), REPO):
            made.append(game)
            name = f"{slug}/v{version}/table-log-{game['seed']}.json"
            keep(name, bundle(game, version, logged_by="ann"))
        print(f"{slug} version {version}: {len(made)} games")
    if not wanted or ("oceans", "0") in wanted:
        for number in range(RECORDS):
            keep(f"oceans/v0/record-{number}.json", record(number))
        print(f"oceans (recorded): {RECORDS} games")
    MANIFEST.write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")


if __name__ == "__main__":
    main()
