"""The pure core never imports Django: rules, bots and the league's maths stay plain Python."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PURE = [
    "games/rules",
    "games/bots",
    "league/ratings.py",
    "league/pairing.py",
    "league/bracket.py",
    "league/standings.py",
    "league/double_elimination.py",
    "league/pools.py",
    "league/charts.py",
    "league/rating_scale.py",
    "games/logchain.py",  # the offline log checker needs only Python
    "games/records/verify.py",
    "games/verify_log.py",
    "games/eventschema.py",
]


def pure_files() -> list[Path]:
    files = []
    for entry in PURE:
        path = ROOT / entry
        if path.is_dir():
            files += sorted(path.rglob("*.py"))
        elif path.is_file():
            files.append(path)
    return files


def django_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every absolute import of django or a django submodule."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [
            (node.lineno, name) for name in names if name == "django" or name.startswith("django.")
        ]
    return found


def test_the_pure_core_exists():
    assert (ROOT / "games/rules/base.py") in pure_files()


def test_no_pure_module_imports_django():
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in pure_files()
        for line, name in django_imports(path.read_text(encoding="utf-8"))
    ]
    assert offences == []


def test_the_check_sees_both_forms_of_import():
    source = (
        "import os\nimport django.db as db\nfrom django.conf import settings\n"
        "from djangorestframework_like import x\nfrom . import django\n"
        "def f():\n    import django\n"
    )
    assert django_imports(source) == [(2, "django.db"), (3, "django.conf"), (7, "django")]


def pure_modules() -> list[str]:
    """Every pure module by its dotted name, packages by their __init__."""
    names = []
    for path in pure_files():
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_importing_the_pure_core_loads_no_django():
    """Through any chain of imports: games.bots once named players through accounts.people,
    which loads Django's models, so that a worker process of ``simulate --jobs`` died on
    unpickling its first game (and a test waited on it until CI's time ran out)."""
    code = (
        f"import importlib, sys\nfor name in {pure_modules()!r}: importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not loaded, loaded"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
