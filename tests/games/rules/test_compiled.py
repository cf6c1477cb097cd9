"""The rule modules compiled by mypyc and their source are one set of rules: the same games
from the same seeds, and never a stale build (games/rules/compiled.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import games.rules
from games.rules import compiled, registered

ROOT = Path(__file__).resolve().parents[3]

# One seeded random game of each, as JSON: every action, and at the end every seat's view,
# the result and the state's JSON form. Run here, and in a process on the source.
PLAY = """
import json, random, sys
from games.rules import CHANCE, get_rules

def play(slug, seed):
    rules = get_rules(slug)
    rng = random.Random(seed)
    state = rules.new_game(rules.spec.max_players)
    actions = []
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply(action)
    views = [state.view(seat) for seat in [None, *range(state.num_players)]]
    return {"actions": actions, "views": views, "result": state.result(), "json": state.to_json()}
"""


def play_here(slug: str, seed: int) -> dict:
    scope: dict = {}
    exec(PLAY, scope)  # the same text the other process runs
    return json.loads(json.dumps(scope["play"](slug, seed)))


def test_ci_runs_the_compiled_rules():
    if os.environ.get(compiled.SETTING) != "compiled":
        pytest.skip("HADAL_RULES=compiled is set where they must be compiled (.ci/run, the image)")
    assert games.rules.FORM == "compiled"
    assert compiled.in_use()
    assert compiled.built() and not compiled.stale()


@pytest.mark.parametrize("slug", sorted(registered()))
def test_the_source_plays_the_same_games_as_the_form_in_use(slug):
    seeds = [1, 2]
    script = PLAY + f"\nprint(json.dumps([play({slug!r}, s) for s in {seeds!r}]))\n"
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, compiled.SETTING: "source", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    source = json.loads(out.stdout)
    assert source == [play_here(slug, seed) for seed in seeds]
    assert len(source[0]["actions"]) > 20  # whole games, not a step or two


def test_a_stale_build_runs_the_source_and_says_so(monkeypatch):
    monkeypatch.setenv(compiled.SETTING, "auto")
    monkeypatch.setattr(compiled, "stale", lambda: ["deep_vents"])
    before = list(sys.meta_path)
    try:
        with pytest.warns(RuntimeWarning, match="older than deep_vents.*make rules"):
            assert compiled.choose() == "source"
        finder = sys.meta_path[0]
        spec = finder.find_spec("games.rules.deep_vents")
        assert spec.origin == str(compiled.HERE / "deep_vents.py")
        package = finder.find_spec("games.rules.abyss")
        assert package.origin == str(compiled.HERE / "abyss" / "__init__.py")
        assert package.submodule_search_locations == [str(compiled.HERE / "abyss")]
        base = finder.find_spec("games.rules.base")
        assert base.origin == str(compiled.HERE / "base.py")
        assert finder.find_spec("games.rules.ventlife_data") is None  # never compiled: left alone
    finally:
        sys.meta_path[:] = before


def test_compiled_rules_required_but_stale_or_missing_refuse_to_load(monkeypatch):
    monkeypatch.setenv(compiled.SETTING, "compiled")
    monkeypatch.setattr(compiled, "stale", lambda: ["ventlife"])
    with pytest.raises(ImportError, match="ventlife changed since they were built.*make rules"):
        compiled.choose()
    monkeypatch.setattr(compiled, "stale", lambda: [])
    monkeypatch.setattr(compiled, "built", lambda: False)
    with pytest.raises(ImportError, match="they are not built"):
        compiled.choose()


def test_the_source_is_chosen_when_asked_and_an_unknown_setting_is_refused(monkeypatch):
    before = list(sys.meta_path)
    try:
        monkeypatch.setenv(compiled.SETTING, "source")
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # asked for: no warning
            assert compiled.choose() == "source"
        monkeypatch.setenv(compiled.SETTING, "fast")
        with pytest.raises(ImportError, match="one of auto, compiled, source"):
            compiled.choose()
    finally:
        sys.meta_path[:] = before


def test_a_build_is_stale_once_any_rule_source_is_newer(tmp_path, monkeypatch):
    here = tmp_path / "rules"
    (here / "abyss").mkdir(parents=True)
    monkeypatch.setattr(compiled, "HERE", here)
    monkeypatch.setattr(compiled, "MODULES", ("hexgrid", "abyss"))
    suffix = compiled.importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in ("hexgrid.py", "abyss/__init__.py", "base.py"):  # base.py is never compiled
        (here / name).write_text("")
        os.utime(here / name, (1_000, 1_000))
    for name in (f"hexgrid{suffix}", f"abyss/__init__{suffix}"):
        (here / name).write_bytes(b"")
        os.utime(here / name, (2_000, 2_000))
    assert compiled.built() and compiled.stale() == []
    os.utime(here / "abyss" / "__init__.py", (3_000, 3_000))
    assert compiled.stale() == ["abyss/__init__.py"]
    os.utime(here / "base.py", (3_000, 3_000))  # the compiled modules build on it
    assert compiled.stale() == ["abyss/__init__.py", "base.py"]
    (here / f"hexgrid{suffix}").unlink()
    assert not compiled.built()


def test_every_constant_of_a_compiled_module_is_final():
    # Compiled, a module constant that is not Final is looked up in the module's dictionary
    # each time it is read (nearly a fifth of Abyss's replay instructions): CONTRIBUTING.md.
    import ast

    loose = []
    for module in compiled.MODULES:
        path = compiled.source_of(module)
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign):
                names = [t for t in node.targets if isinstance(t, ast.Name | ast.Tuple)]
                flat = [n for t in names for n in (t.elts if isinstance(t, ast.Tuple) else [t])]
                loose += [f"{module}.{n.id}" for n in flat if _constant(n)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                final = "Final" in ast.unparse(node.annotation)
                if _constant(node.target) and not final:
                    loose.append(f"{module}.{node.target.id}")
    assert loose == []


def _constant(name) -> bool:
    text = getattr(name, "id", "").lstrip("_")
    return text.isupper()
