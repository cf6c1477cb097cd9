"""Imports run one way. Between the apps: core below accounts, accounts below the inbox, the
inbox below games, games below league, config above them all. Inside games, room by room (games/play/__init__.py and its
neighbours say what each holds): the store below play, play below live, tablelog and records,
api and pages on top, and games.tasks reached by signal only. A lower room announces what
happened (a signal, the store's write hook) and the room above subscribes; it never imports the
room above it. And no module imports itself back through others: the graph has no circles.

Like the purity test, this reads every import, function-local ones included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "accounts", "inbox", "games", "league", "config")

# Each room (a package or a module, by dotted name), and what it must never import.
ROOMS_ABOVE_PLAY = {"games.live", "games.tablelog", "games.records", "games.api", "games.pages"}
NEVER = {
    "core": {"accounts", "inbox", "games", "league", "config"},
    "accounts": {"inbox", "games", "league", "config"},
    "inbox": {"games", "league", "config"},
    "games": {"league", "config"},
    "league": {"config"},
    "games.rules": {"games.store", "games.play", "games.models", *ROOMS_ABOVE_PLAY},
    "games.bots": {"games.store", "games.play", "games.models", *ROOMS_ABOVE_PLAY},
    "games.store": {"games.play", "games.events", *ROOMS_ABOVE_PLAY},
    "games.events": {"games.play", *ROOMS_ABOVE_PLAY},
    # The check of the stored history reads as the store does, beside it (league's command).
    "games.history": {"games.play", "games.events", *ROOMS_ABOVE_PLAY},
    "games.play": ROOMS_ABOVE_PLAY,
    "games.live": ROOMS_ABOVE_PLAY - {"games.live"},
    "games.tablelog": ROOMS_ABOVE_PLAY - {"games.tablelog"},
    "games.records": ROOMS_ABOVE_PLAY - {"games.records"},
    "games.api": {"games.pages"},
}
# games.tasks answers play's signals; only the app's start-up connects it.
TASKS = "games.tasks"
MAY_IMPORT_TASKS = {"games.apps"}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, module) of each import: ``from games import store`` names games.store, a module;
    ``from games.store import Head`` names games.store, where Head is defined."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                module = f"{node.module}.{alias.name}"
                folder = root / module.replace(".", "/")
                is_module = (
                    folder.with_suffix(".py").is_file() or (folder / "__init__.py").is_file()
                )
                found.append((node.lineno, module if is_module else node.module))
    return sorted(set(found))


def sources(root: Path) -> dict[str, Path]:
    return {
        module_name(path, root): path
        for package in PACKAGES
        if (root / package).is_dir()
        for path in sorted((root / package).rglob("*.py"))
        if "migrations" not in path.parts
    }


def within(name: str, room: str) -> bool:
    return name == room or name.startswith(room + ".")


def offences(root: Path = ROOT) -> list[str]:
    found = []
    for module, path in sources(root).items():
        for line, name in imports(path, root):
            where = f"{path.relative_to(root)}:{line} imports {name}"
            for room, banned in NEVER.items():
                if within(module, room) and any(within(name, b) for b in banned):
                    found.append(f"{where} ({room} may not import it)")
                    break
            else:
                if within(name, TASKS) and module not in MAY_IMPORT_TASKS | {TASKS}:
                    found.append(f"{where} (reach the tasks by signal)")
    return found


def circles(root: Path = ROOT) -> list[list[str]]:
    """Every import loop between the project's modules (one per strongly connected set)."""
    modules = sources(root)
    graph = {
        module: {name for _, name in imports(path, root) if name in modules and name != module}
        for module, path in modules.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                loops.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return loops


def test_no_room_imports_a_room_above_it():
    assert offences() == []


def test_no_module_imports_itself_back_through_others():
    assert circles() == []


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.mark.parametrize(
    ("name", "source", "offence"),
    [
        (
            "games/x.py",
            "def f():\n    from league.tasks import t\n",
            "games/x.py:2 imports league.tasks",
        ),
        (
            "games/store/x.py",
            "from games.live import push\n",
            "games/store/x.py:1 imports games.live",
        ),
        (
            "games/play/x.py",
            "def f():\n    import games.records\n",
            "games/play/x.py:2 imports games.records",
        ),
        ("games/play/y.py", "import games.tasks\n", "games/play/y.py:1 imports games.tasks"),
        ("core/x.py", "from accounts.bots import is_bot\n", "core/x.py:1 imports accounts.bots"),
    ],
)
def test_the_check_sees_an_import_that_runs_back_up(tmp_path, name, source, offence):
    write(tmp_path, {name: source})
    assert [o.split(" (")[0] for o in offences(tmp_path)] == [offence]


def test_the_check_sees_a_circle(tmp_path):
    write(
        tmp_path,
        {
            "games/a.py": "from games import b\n",
            "games/b.py": "def f():\n    from games.c import g\n",
            "games/c.py": "import games.a\n",
            "games/d.py": "from games import a\n",
        },
    )
    assert circles(tmp_path) == [["games.a", "games.b", "games.c"]]
