"""The code checks, run with the test suite and so by CI: ruff (lint and format), lint-imports (the
contracts in pyproject.toml: the layers, the engine's own layers and purity, no import circles between
packages) and mypy (the engine strict, the rest with the defaults). A failing tool's own output is shown.

Beside them, what the contracts do not say in one line: no module imports a module that imports it back.
"""

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
CHECKS = {
    "ruff check": [PYTHON, "-m", "ruff", "check", "referee", "tests", "bench", "docs"],
    "ruff format": [PYTHON, "-m", "ruff", "format", "--check", "referee", "tests", "bench", "docs"],
    "lint-imports": [PYTHON, "-c", LINT_IMPORTS, "--no-cache"],
    "mypy": [PYTHON, "-m", "mypy"],  # files and settings: [tool.mypy] in pyproject.toml
}


@pytest.mark.parametrize("name", CHECKS)
def test_the_code_check_passes(name):
    done = subprocess.run(CHECKS[name], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{name} failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"


def import_circles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Every direct import a -> b where b also leads back to a, directly or through other modules."""
    return sorted(
        (a, b)
        for a in graph.modules
        for b in graph.find_modules_directly_imported_by(a)
        if graph.find_shortest_chain(importer=b, imported=a)
    )


def test_no_module_imports_a_module_that_imports_it_back():
    # every import that runs, in functions too; a name imported only for the type checker runs nothing
    graph = grimp.build_graph("referee", cache_dir=None, exclude_type_checking_imports=True)
    assert len(graph.modules) > 40
    assert import_circles(graph) == []


def test_the_circle_finder_finds_direct_and_longer_circles():
    graph = grimp.ImportGraph()
    for importer, imported in [
        ("p.a", "p.b"),
        ("p.b", "p.a"),
        ("p.c", "p.d"),
        ("p.d", "p.e"),
        ("p.e", "p.c"),
        ("p.f", "p.a"),
    ]:
        graph.add_import(importer=importer, imported=imported)
    assert import_circles(graph) == [("p.a", "p.b"), ("p.b", "p.a"), ("p.c", "p.d"), ("p.d", "p.e"), ("p.e", "p.c")]


def past_the_front_door(graph: grimp.ImportGraph, package: str = "referee.engine") -> list[tuple[str, str]]:
    """Every direct import into ``package``'s inner modules from a module outside it: outside code enters the
    engine by its front door (``referee.engine``) only."""
    return sorted(
        (importer, imported)
        for imported in graph.find_children(package) | graph.find_descendants(package)
        for importer in graph.find_modules_that_directly_import(imported)
        if not (importer == package or importer.startswith(package + "."))
    )


def test_outside_code_enters_the_engine_by_its_front_door_only():
    """Issue 21: the engine's public names are re-exported by ``referee.engine``; nothing outside imports an
    engine module directly (a name missing from the front door is added to ``_EXPORTS`` there)."""
    graph = grimp.build_graph("referee", cache_dir=None, exclude_type_checking_imports=True)
    assert graph.find_children("referee.engine")  # the engine's rooms are there to be checked
    assert past_the_front_door(graph) == []


def test_the_front_door_check_finds_a_side_door():
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.engine", "pkg.engine.model", "pkg.engine.model.tokens", "pkg.cli"):
        graph.add_module(module)
    graph.add_import(importer="pkg.cli", imported="pkg.engine")
    graph.add_import(importer="pkg.engine", imported="pkg.engine.model.tokens")
    assert past_the_front_door(graph, "pkg.engine") == []
    graph.add_import(importer="pkg.cli", imported="pkg.engine.model.tokens")
    assert past_the_front_door(graph, "pkg.engine") == [("pkg.cli", "pkg.engine.model.tokens")]


# Issue 21: the store and the tournament code say each thing once.
ONCE = ["referee/log/storage.py", "referee/log/tournaments.py", "referee/log/swiss.py", "referee/tournament"]


def repeated_blocks(texts: dict[str, str], size: int = 6) -> list[tuple[str, int]]:
    """Where a run of ``size`` lines appears twice or more, in one file or across files: each copy's (file,
    first line). Lines compared with their whitespace stripped; blank lines and comment lines skipped."""
    lines = {
        name: [(i, s) for i, raw in enumerate(text.splitlines(), 1) if (s := raw.strip()) and not s.startswith("#")]
        for name, text in texts.items()
    }
    seen: dict[tuple[str, ...], list[tuple[str, int]]] = {}
    for name, rows in lines.items():
        for k in range(len(rows) - size + 1):
            window = tuple(s for _, s in rows[k : k + size])
            if any(len(s) > 3 for s in window):  # not a run of closing brackets
                seen.setdefault(window, []).append((name, rows[k][0]))
    position = {(name, i): k for name, rows in lines.items() for k, (i, _) in enumerate(rows)}
    starts = sorted({where for copies in seen.values() if len(copies) > 1 for where in copies})
    blocks: list[tuple[str, int]] = []
    last: tuple[str, int] | None = None
    for name, line in starts:  # overlapping windows are one longer block: named by its first line
        if last is None or last[0] != name or position[(name, line)] - position[last] != 1:
            blocks.append((name, line))
        last = (name, line)
    return blocks


def test_no_block_of_six_lines_is_repeated_in_the_store_or_the_tournament_code():
    files = [p for entry in ONCE for p in ((ROOT / entry).rglob("*.py") if (ROOT / entry).is_dir() else [ROOT / entry])]
    assert len(files) > 5
    texts = {str(p.relative_to(ROOT)): p.read_text("utf-8") for p in files}
    assert repeated_blocks(texts) == []


def test_the_repeat_finder_finds_a_repeated_block():
    block = "".join(f"    total += values[{i}]  # step {i}\n" for i in range(6))
    one = f"def a(values):\n    total = 0\n{block}    return total\n"
    two = f"def b(values):\n\n    total = 1\n{block.replace('    total', '        total')}    return -total\n"
    assert repeated_blocks({"one.py": one, "two.py": two}) == [("one.py", 3), ("two.py", 4)]
    assert repeated_blocks({"one.py": one, "two.py": two.replace("values[5]", "values[6]")}) == []
    assert repeated_blocks({"one.py": one + "\n" + one.replace("def a", "def c")}) == [("one.py", 2), ("one.py", 12)]
