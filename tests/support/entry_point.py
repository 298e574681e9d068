"""The `referee` command as a test runs it: in this process by default, in a process of its own where the
test is about the process.

``run_in_process(args)`` runs ``referee ARGS`` through ``referee.cli.app.run``, the installed command's own
error boundary (``main`` is ``run`` with the process's arguments), with standard input, output and error of
its own and the environment and working folder the test gives; a domain error is exit 1 and its ``error:``
line on standard error, a usage error exit 2, and anything else (a traceback) is raised into the test. The
streams are made as Python makes a process's own under a UTF-8 locale (standard input and output
``surrogateescape``, standard error ``backslashreplace``, no newline translation), the console is made
afresh (its width from the run's ``COLUMNS``, as a new process's), and what was written is read back as
``subprocess.run(..., text=True)`` reads a child's pipes (strict UTF-8, universal newlines), so a test sees
the same text either way. What it returns reads as ``subprocess.run``'s answer (``returncode``, ``stdout``,
``stderr``) and as Typer's test runner's (``exit_code``, ``output``: both streams as they interleaved).

- ``referee(db, *args)``: ``referee ARGS --db DB`` at a terminal ``columns`` wide.
- ``runner.invoke(app, args, input=, env=)``: the same, called as Typer's ``CliRunner`` is.
- ``referee_process(db, *args)``: the same command as its own ``python -m referee`` process, for the tests
  of the process itself: the entry point, exit codes seen by a shell, signals, ``HOME``, terminals.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class Ran(subprocess.CompletedProcess):
    """A finished command: ``returncode``/``stdout``/``stderr``; ``exit_code`` and ``output`` (both streams,
    interleaved) as Typer's test runner names them."""

    def __init__(self, args: Any, returncode: int, stdout: Any, stderr: Any, output: Any = None) -> None:
        super().__init__(args, returncode, stdout, stderr)
        self.output = stdout if output is None else output

    @property
    def exit_code(self) -> int:
        return self.returncode

    def __repr__(self) -> str:
        return f"Ran({self.args!r}, {self.returncode}, out={self.stdout[-600:]!r}, err={self.stderr[-600:]!r})"


class _Pipe(io.BytesIO):
    """One stream's bytes, each write also added to the interleaved record of both."""

    def __init__(self, both: bytearray) -> None:
        super().__init__()
        self.both = both

    def write(self, data: Any) -> int:
        self.both.extend(data)
        return super().write(data)


def _read_back(data: bytes) -> str:
    """Bytes written to a pipe, as ``subprocess.run(text=True)`` decodes them."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline=None).read()


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None, cwd: Path | str | None) -> Iterator[None]:
    """``env`` as the whole environment (as ``subprocess.run(env=...)`` gives it) and ``cwd`` as the working
    folder, both put back afterwards."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


@contextlib.contextmanager
def _hidden_prompts() -> Iterator[None]:
    """A hidden prompt (a passphrase, a secret objective) reads the next line of standard input, as getpass
    does where there is no terminal, without its warning; in click and in Typer's own copy of click."""
    modules = []
    for name in ("click.termui", "typer._click.termui"):
        with contextlib.suppress(ImportError):
            modules.append(importlib.import_module(name))
    saved = [m.hidden_prompt_func for m in modules]
    for m in modules:
        m.hidden_prompt_func = _hidden_prompt
    try:
        yield
    finally:
        for m, func in zip(modules, saved, strict=True):
            m.hidden_prompt_func = func


def _hidden_prompt(prompt: str) -> str:
    sys.stderr.write(prompt)
    sys.stderr.flush()
    return sys.stdin.readline().rstrip("\r\n")


def _bytes(stdin: str | bytes | None) -> bytes:
    if isinstance(stdin, bytes):
        return stdin
    return (stdin or "").encode("utf-8", "surrogateescape")


def run_in_process(
    args: Sequence[str | bytes],
    *,
    stdin: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | str | None = None,
    text: bool = True,
) -> Ran:
    """``referee ARGS`` in this process, as ``referee_process`` would run it in its own. An argument given as
    bytes reaches the command as a process's argument would (``os.fsdecode``); standard input may be bytes;
    ``text=False``: what was written, as bytes."""
    from referee.cli import app

    both = bytearray()
    out, err = _Pipe(both), _Pipe(both)
    streams = (
        io.TextIOWrapper(io.BytesIO(_bytes(stdin)), "utf-8", "surrogateescape", "\n"),
        io.TextIOWrapper(out, "utf-8", "surrogateescape", "\n", write_through=True),
        io.TextIOWrapper(err, "utf-8", "backslashreplace", "\n", write_through=True),
    )
    saved = sys.stdin, sys.stdout, sys.stderr
    with _environment(env, cwd), _hidden_prompts():
        sys.stdin, sys.stdout, sys.stderr = streams
        render = importlib.import_module("referee.cli.render")
        render.console = render.new_console()  # sized by this run's COLUMNS, as a new process's console
        try:
            code = app.run([os.fsdecode(a) for a in args])
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved
    if not text:
        return Ran(list(args), code, out.getvalue(), err.getvalue(), bytes(both))
    return Ran(list(args), code, _read_back(out.getvalue()), _read_back(err.getvalue()), _read_back(bytes(both)))


class InProcessRunner:
    """Typer's ``CliRunner.invoke``, through the command's real error boundary: ``env`` is added to this
    process's environment (a None value removes a name), as Typer's runner does."""

    def invoke(
        self,
        _app: Any,
        args: Sequence[str | bytes],
        input: str | bytes | None = None,  # noqa: A002 (Typer's name)
        env: Mapping[str, str | None] | None = None,
    ) -> Ran:
        environ = dict(os.environ)
        for name, value in (env or {}).items():
            if value is None:
                environ.pop(name, None)
            else:
                environ[name] = value
        return run_in_process(args, stdin=input, env=environ)


runner = InProcessRunner()


def _env(columns: int, home: Path | None) -> dict[str, str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    if home is not None:
        env["HOME"] = str(home)
    return env


def referee(db: str, *args: str, stdin: str | None = None, columns: int = 200, home: Path | None = None) -> Ran:
    """``referee ARGS --db DB`` at a terminal ``columns`` wide, in this process; ``home``: run there, as its
    HOME too."""
    return run_in_process([*args, "--db", db], stdin=stdin, env=_env(columns, home), cwd=home or ROOT)


def referee_process(
    db: str, *args: str, stdin: str | None = None, columns: int = 200, home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``referee ARGS --db DB`` as its own ``python -m referee`` process, otherwise as ``referee``."""
    return subprocess.run(
        [sys.executable, "-m", "referee", *args, "--db", db],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=home or ROOT,
        env=_env(columns, home),
    )
