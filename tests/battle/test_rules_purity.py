"""referee/engine is pure: stdlib only, no I/O, no clock, no randomness, no outer-layer imports.

The import contracts in pyproject.toml (lint-imports, run by tests/project/test_code_checks.py) forbid the outer
layers, the third-party packages and the standard library's I/O, clock and randomness by name. What a
contract cannot say is checked here: the engine imports only the standard library modules listed below
(an allow-list, so a new import is a decision), and calls no I/O built-in.
"""

import ast
from pathlib import Path

import grimp

ENGINE = Path(__file__).parents[2] / "referee" / "engine"
ALLOWED_MODULES = {
    "__future__", "collections", "importlib", "dataclasses", "difflib", "enum", "functools", "hashlib", "itertools",
    "json", "operator", "re", "typing",
}  # fmt: skip
FORBIDDEN_NAMES = {"open", "print", "input", "exec", "eval", "__import__"}


def imports_outside(graph: grimp.ImportGraph, package: str = "referee.engine") -> list[str]:
    """Every import by ``package`` of a module that is neither its own nor an allowed standard library module."""
    offenders = []
    for module in sorted(graph.find_descendants(package) | {package}):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            own = imported == package or imported.startswith(package + ".")
            if not own and imported.split(".")[0] not in ALLOWED_MODULES:
                offenders.append(f"{module} imports {imported}")
    return offenders


def test_engine_imports_only_listed_stdlib_modules_and_itself():
    graph = grimp.build_graph("referee", include_external_packages=True, cache_dir=None)
    assert len(graph.find_descendants("referee.engine")) >= 8
    assert imports_outside(graph) == []


def test_the_import_check_catches_an_offender():
    # guard against a check that cannot fail
    graph = grimp.ImportGraph()
    graph.add_module("referee.engine")
    graph.add_module("os", is_squashed=True)
    graph.add_import(importer="referee.engine.model.tokens", imported="referee.engine.model.board")
    graph.add_import(importer="referee.engine.model.tokens", imported="re")
    graph.add_import(importer="referee.engine.notation.round", imported="os")
    graph.add_import(importer="referee.engine.table.apply", imported="referee.log.storage")
    assert imports_outside(graph) == [
        "referee.engine.notation.round imports os",
        "referee.engine.table.apply imports referee.log.storage",
    ]


def io_calls(tree: ast.AST) -> list[tuple[int, str]]:
    """The calls of I/O (and code-running) built-ins in a module: line and name."""
    return [
        (node.lineno, node.func.id)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_NAMES
    ]


def test_engine_calls_no_io_builtins():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 8
    offenders = []
    for path in files:
        for lineno, name in io_calls(ast.parse(path.read_text())):
            offenders.append(f"{path.relative_to(ENGINE)}:{lineno} calls {name}()")
    assert offenders == []


def test_the_call_check_catches_an_offender():
    assert io_calls(ast.parse("open('x')\nlen([])\nprint(1)\n")) == [(1, "open"), (3, "print")]
