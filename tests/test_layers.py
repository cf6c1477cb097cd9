"""Apps depend one way: accounts below games, games below league. A lower app announces what
happened (games.signals) and the app above subscribes; it never imports the app above it.
Like the purity test, this reads every import, function-local ones included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Each app, and the apps it must never import.
BELOW = {"accounts": {"games", "league"}, "games": {"league"}}


def imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def offences(app: str, root: Path = ROOT) -> list[str]:
    banned = BELOW[app]
    return [
        f"{path.relative_to(root)}:{line} imports {name}"
        for path in sorted((root / app).rglob("*.py"))
        for line, name in imports(path)
        if name.split(".")[0] in banned
    ]


@pytest.mark.parametrize("app", BELOW)
def test_an_app_never_imports_the_apps_above_it(app):
    assert offences(app) == []


def test_the_check_would_see_a_function_local_import(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "x.py").write_text("def f():\n    from league.tasks import t\n")
    assert offences("games", tmp_path) == ["games/x.py:2 imports league.tasks"]
