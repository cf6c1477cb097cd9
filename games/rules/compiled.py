"""The rule modules compiled to C extensions by mypyc, from the same source, and never a stale build.

The rules are written once, in Python. ``HADAL_RULES=source python -m games.rules.compiled
build`` (``make rules``, and the Docker image) compiles the modules in :data:`MODULES` with
mypyc, which turns typed Python into C, and puts each extension beside its source, where
Python imports it first. What the rules do does not change; how fast they do it does (README,
Performance: replay and random playouts). Where no C compiler is at hand the source runs as
it is.

Which one runs is up to ``HADAL_RULES``:

- ``auto`` (the default): the extensions if they are built and no rule source is newer, else
  the source, with a warning if a build is stale (a rule module edited since ``make rules``:
  a stale build would be rules that no longer exist);
- ``compiled``: the extensions or nothing (CI and the Docker image, so neither can run the
  slow source unnoticed);
- ``source``: the source, whatever is built (to compare, or to step through the rules in a
  debugger).

A compiled module checks its annotations as it runs (an ``int`` parameter refuses a float),
which the source does not: the suite runs on the compiled modules in CI, so a wrong annotation
shows there. This module is never compiled itself, and imports neither mypyc nor setuptools
unless asked to build.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path

# Compiled together (one mypyc group, whose shared part is games/rules/_native__mypyc*.so).
# base.py too: every game's State subclasses its State, and a compiled class can build on
# another compiled one directly (its State allows classes that are not compiled, a test's toy
# game, to subclass it). Not games/rules/__init__.py, which chooses between the two forms, nor
# the data-only deep_vents_data, ventlife_data and oceans_data.
MODULES = (
    "base",
    "hexgrid",
    "deep_sea_adventure",
    "deep_vents",
    "ventlife",
    "abyss.data",
    "abyss.tables",
    "abyss.tasks",
    "abyss.table",
    "abyss.hidden",
    "abyss.powers",
    "abyss.payments",
    "abyss.view",
    "abyss.flow",
    "abyss",  # its State: a class that is not compiled cannot build on compiled ones
)
GROUP = "games.rules._native"
HERE = Path(__file__).resolve().parent
SETTING = "HADAL_RULES"
CHOICES = ("auto", "compiled", "source")


def source_of(module: str) -> Path:
    path = HERE.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def extension_of(module: str) -> Path | None:
    """The module's built extension beside its source, if there is one."""
    source = source_of(module)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        built = source.with_suffix(suffix)
        if built.is_file():
            return built
    return None


def stale() -> list[str]:
    """The rule sources newer than the oldest built extension: any of them, not only those of
    :data:`MODULES` (those import the others, and mypyc read their types to compile them)."""
    times = [path.stat().st_mtime for path in map(extension_of, MODULES) if path is not None]
    if not times:
        return []
    oldest = min(times)
    return sorted(
        path.relative_to(HERE).as_posix()
        for path in HERE.rglob("*.py")
        if path.stat().st_mtime > oldest
    )


def built() -> bool:
    """Whether every module of :data:`MODULES` has an extension."""
    return all(extension_of(module) is not None for module in MODULES)


def in_use() -> bool:
    """Whether the rule modules imported are the compiled ones."""
    module = sys.modules.get(f"{__package__}.deep_vents")
    return module is not None and not str(module.__file__).endswith(".py")


class _Source(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' sources, ahead of their extensions."""

    def __init__(self) -> None:
        self.names = {f"{__package__}.{module}": source_of(module) for module in MODULES}

    def find_spec(self, name, path=None, target=None):
        source = self.names.get(name)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(name, source)


def choose() -> str:
    """Decide, before any rule module is imported, which form runs: "compiled" or "source"."""
    setting = os.environ.get(SETTING, "auto").strip().lower() or "auto"
    if setting not in CHOICES:
        raise ImportError(f"{SETTING}={setting!r}: it is one of {', '.join(CHOICES)}")
    old, complete = stale(), built()
    if setting == "compiled" and (old or not complete):
        reason = f"{', '.join(old)} changed since they were" if old else "they are not"
        raise ImportError(
            f"{SETTING}=compiled, but the rule modules' C extensions are out of date: {reason}"
            " built. Run `make rules`."
        )
    if setting == "source" or old or not complete:
        if old and setting == "auto":
            warnings.warn(
                f"the compiled rules are older than {', '.join(old)}: running the source; "
                "`make rules` compiles them again",
                RuntimeWarning,
                stacklevel=2,
            )
        if not any(isinstance(finder, _Source) for finder in sys.meta_path):
            sys.meta_path.insert(0, _Source())
        return "source"
    return "compiled"


def build(log: str | None = None) -> None:
    """Compile :data:`MODULES` in place with mypyc (needs mypy, setuptools and a C compiler),
    saying what it does, a line a step and one for each extension built, and when it is done.
    With ``log``, mypyc's, setuptools' and the C compiler's own output go to that file (`make
    rules`, so that CI's log keeps only the steps); without, everything goes to the terminal."""
    import time

    from mypyc.build import mypycify
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    began = time.monotonic()
    terminal = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)

    def say(words: str) -> None:
        terminal.write(f"rules: {words} ({time.monotonic() - began:.0f} s)\n")

    class BuildSaying(build_ext):
        def build_extension(self, ext) -> None:
            super().build_extension(ext)
            say(f"built {ext.name}")

    root = HERE.parent.parent  # paths relative to the project, as mypyc names modules by them
    os.chdir(root)
    paths = [str(source_of(module).relative_to(root)) for module in MODULES]
    with _output_to(log):
        say(f"mypyc: checking the types of {len(MODULES)} modules and writing their C")
        extensions = mypycify(paths, group_name=GROUP, opt_level="3")
        say(f"compiling the C of {len(extensions)} extensions (the shared one takes minutes)")
        setup(
            name="hadal-rules",
            packages=[],
            script_args=["build_ext", "--inplace", "--build-temp", "build/rules"],
            ext_modules=extensions,
            cmdclass={"build_ext": BuildSaying},
        )
    # The modules' own extensions are thin: their code is in the group's shared library. One
    # whose stub did not change is copied from an earlier build with its old time, which
    # would read as stale; the whole build is as new as its shared library.
    for module in MODULES:
        extension = extension_of(module)
        if extension is not None:
            os.utime(extension)
    say("done")
    terminal.close()


class _output_to:
    """Within it, this process's and its children's output (the C compiler's) go to ``path``;
    with no path, nowhere else."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.saved: list[int] = []

    def __enter__(self) -> None:
        if self.path is None:
            return
        sys.stdout.flush()
        sys.stderr.flush()
        with open(self.path, "w") as log:
            self.saved = [os.dup(1), os.dup(2)]
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)

    def __exit__(self, *exc) -> None:
        if not self.saved:
            return
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if (
        arguments[:1] != ["build"]
        or len(arguments) not in (1, 3)
        or arguments[1:2]
        not in (
            [],
            ["--log"],
        )
    ):
        raise SystemExit(
            f"usage: {SETTING}=source python -m games.rules.compiled build [--log FILE]"
        )
    log = arguments[2] if len(arguments) == 3 else None
    try:
        build(log)
    except Exception:
        if log is None:
            raise
        import traceback

        with open(log, "a") as file:
            traceback.print_exc(file=file)
        raise SystemExit(f"rules: the build failed: see {log}") from None
