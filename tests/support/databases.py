"""Databases a test starts from, built once a process and copied: the bundled games (``referee demo``), a played
Kotei (with the card game's demo match or without), and whatever else a test names.

``copy_of(name, to, build)`` runs ``build(path)`` the first time ``name`` is asked for in this process, into a
file of the session's temporary folder, and then copies that database to ``to`` with SQLite's backup API (a
consistent copy, a few milliseconds), rather than playing the games again for every test. A copy is the test's
own: whatever it writes there reaches neither the original nor another test's copy.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

_BUILT: dict[str, Path] = {}


def copy_of(name: str, to: str | Path, build: Callable[[str], object]) -> str:
    """A copy, at ``to``, of the database ``build`` makes (built once a process); its path."""
    if name not in _BUILT:
        folder = Path(tempfile.mkdtemp(prefix=f"built-{name}-"))
        original = folder / "original.db"
        build(str(original))
        _BUILT[name] = original
    with sqlite3.connect(_BUILT[name]) as source, sqlite3.connect(to) as copy:
        source.backup(copy)
    source.close()
    copy.close()
    return str(to)


def demo(to: str | Path) -> str:
    """The bundled games, as `referee demo` plays them, at ``to``."""
    from tests.support.serving import cli

    return copy_of("demo", to, lambda db: cli(db, "demo"))


def kotei(to: str | Path, demo_match: bool = False) -> str:
    """A 32-player Kotei with its top-8 cut (tests/support/kotei.py), after the card game's demo match if
    ``demo_match``, at ``to``."""
    from tests.support import kotei as played
    from tests.support.serving import cli

    def build(db: str) -> None:
        if demo_match:
            cli(db, "ccg", "demo")
        played.play(db)

    return copy_of("kotei+demo" if demo_match else "kotei", to, build)
