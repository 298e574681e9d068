"""The game service owns a round: one `referee round` reads its sheet once, checks the placements once and
resolves the round once, and so does `referee confirm` with the phones' round; the table session asks the same
service; "is the game finished", "the board after round N" and "the score" are each answered in one place (the
code is searched for a second one)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from referee.cli.app import app
from tests.support.crab_lion import begun_db, shown  # noqa: F401  (the fixture `db`: a begun crab-lion game)
from tests.support.entry_point import runner

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "referee"
ROUND1 = "lion: army 3 lion_northwest > scorpion_north\ncrab: army 2 @ crab_central\n"


def _count(monkeypatch, module_name: str, name: str) -> list[int]:
    """Count every call of ``module_name.name``, wherever a module of the package holds it by name."""
    import importlib

    real = getattr(importlib.import_module(module_name), name)
    calls: list[int] = []

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    for mod in list(sys.modules.values()):
        if (getattr(mod, "__name__", "") or "").startswith("referee") and getattr(mod, name, None) is real:
            monkeypatch.setattr(mod, name, counted)
    return calls


def test_one_round_is_parsed_checked_and_resolved_exactly_once(db, tmp_path, monkeypatch):
    import referee.cli.round_entry  # noqa: F401  (loaded, so that its names are counted too)
    import referee.games.battle.service  # noqa: F401

    sheet = tmp_path / "round1.txt"
    sheet.write_text("round: 1\n" + ROUND1)
    sheets = _count(monkeypatch, "referee.engine.battle.notation.round", "parse_round")
    lines = _count(monkeypatch, "referee.engine.battle.notation.round", "parse_entry")
    checks = _count(monkeypatch, "referee.engine.battle.resolution.inventory", "check_placements")
    resolved = _count(monkeypatch, "referee.engine.battle.resolution.resolve", "resolve")
    result = runner.invoke(app, ["round", "g", str(sheet), "--yes", "--db", db])
    assert result.exit_code == 0, result.output
    assert len(sheets) == 1  # the sheet read once
    assert len(lines) == 2  # each of its two lines parsed once
    assert len(checks) == 1  # the placements checked once, not again by the engine
    assert len(resolved) == 1  # the round resolved once, before the record
    assert shown(db)["round"] == 2


def test_confirm_reads_checks_and_resolves_the_phones_round_once(db, monkeypatch):
    """`referee confirm`: the round the phones entered is read from the seats' drafts (each token made an entry
    once, for the seats' counts and the round alike), its placements checked and resolved once, on the one
    fold the command opened, and recorded as it was read."""
    from referee.games.battle import entry as en
    from referee.games.battle.service import OpenGame
    from referee.store.storage import Store

    with Store(db) as store:
        for line in ROUND1.splitlines():
            clan = line.split(":")[0]
            en.write_draft(store, en.draft_of(store, "g", 1, clan), [line], True, 0, "phone")
    opened: list[int] = []
    real_init = OpenGame.__init__
    monkeypatch.setattr(OpenGame, "__init__", lambda self, *a: opened.append(1) or real_init(self, *a))
    tokens = _count(monkeypatch, "referee.engine.battle.notation.round", "parse_entry")
    checks = _count(monkeypatch, "referee.engine.battle.resolution.inventory", "check_placements")
    resolved = _count(monkeypatch, "referee.engine.battle.resolution.resolve", "resolve")
    result = runner.invoke(app, ["confirm", "g", "--yes", "--db", db])
    assert result.exit_code == 0, result.output
    assert "lion" in result.output and "1 of" in result.output  # each seat's count, from the same entries
    assert len(opened) == 1  # the log read and folded once
    assert len(tokens) == 2  # each phone's token became an entry once: counted, checked and resolved as one
    assert len(checks) == 1  # its placements checked once
    assert len(resolved) == 1  # the round resolved once, before the record
    assert shown(db)["round"] == 2


def test_the_table_session_records_through_the_same_service(db, monkeypatch):
    """`referee table`: the round typed line by line is recorded by ``OpenGame.record_round`` on the sheet
    the service read (``round_of``), as `referee round` records it."""
    from referee.games.battle.service import OpenGame

    used = []
    real = OpenGame.round_of
    monkeypatch.setattr(OpenGame, "round_of", lambda self, *a: used.append(1) or real(self, *a))
    result = runner.invoke(app, ["table", "g", "--db", db], input=ROUND1 + "\ny\nquit\n")
    assert result.exit_code == 0, result.output
    assert shown(db)["round"] == 2 and used


def _functions(path: Path):
    """Module functions and class methods, by name (``Fold.complete``)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    yield f"{node.name}.{item.name}", item
        elif isinstance(node, ast.FunctionDef):
            yield node.name, node


def _attributes(node) -> set[str]:
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def test_finished_the_board_after_round_n_and_the_score_are_each_written_once():
    """A function outside the fold that reads both a fold's seals and its revealed objectives works out "what
    is still sealed" (and so "finished") again; one that compares a count of rounds with the five rounds
    decides "over" again; one that takes a played round's ``after`` board works out "the board after round
    N" again; one that calls ``score_clan`` clan by clan scores a game again."""
    found = []
    # The web app is another room's work in progress: its JSON board after a round is to ask Fold.board_after.
    pending = {"web/api.py:board"}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("engine/"):
            continue  # the engine's own scoring and round track
        for name, fn in _functions(path):
            attrs = _attributes(fn)
            where = f"{rel}:{name}"
            if {"seals", "revealed"} <= attrs and not (rel == "games/battle/fold.py" and name.startswith("Fold.")):
                found.append(f"{where}: works out the sealed objectives left (Fold.sealed_left)")
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Compare)
                    and isinstance(node.left, ast.Call)
                    and getattr(node.left.func, "id", "") == "len"
                    and node.left.args
                    and isinstance(node.left.args[0], ast.Attribute)
                    and node.left.args[0].attr == "rounds"
                    and any(
                        isinstance(c, ast.Constant) and c.value == 5 or getattr(c, "id", "") == "ROUNDS"
                        for c in node.comparators
                    )
                    and not (rel == "games/battle/fold.py" and name.startswith("Fold."))
                ):
                    found.append(f"{where}: decides 'five rounds played' (Fold.rounds_over)")
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == "after"
                    and isinstance(node.value, ast.Call)
                    and getattr(node.value.func, "attr", "") == "played"
                ):
                    found.append(f"{where}: the board after a round from played(N).after (Fold.board_after)")
                if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == (
                    "score_clan"
                ):
                    found.append(f"{where}: scores clan by clan (final_score / game_score)")
    found = [f for f in found if f.split(": ", 1)[0] not in pending]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("message", ["the game has ended (p.10)", "five rounds were played (p.10)"])
def test_each_game_over_message_is_written_once(message):
    """The game-over refusals come from one place (``events.ENDED``/``OVER``, asked through ``Fold.closed``)."""
    holders = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if message in path.read_text(encoding="utf-8")
    ]
    assert holders == ["games/battle/events.py"]
