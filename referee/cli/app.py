"""The `referee` command. Heavy imports are deferred so that `referee --help` starts fast.

The command modules keep real annotations (no ``from __future__ import annotations``): Typer reads
every command's signature at each start, and string annotations would all be evaluated again.
"""

import gc
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..engine.errors import RefereeError

app = typer.Typer(
    name="referee",
    help="Referee and replay tool for Battle for Rokugan: resolves rounds as the rulebook orders them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: `referee --help` need not import Rich
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]
DbOpt = Annotated[
    Optional[str],
    typer.Option("--db", envvar="REFEREE_DB", help="Database: a SQLAlchemy URL or a SQLite file path (default saves/referee.db).", show_default=False),
]
GameArg = Annotated[str, typer.Argument(help="The game's id.", show_default=False)]


def read_input(path: Path) -> str:
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        raise RefereeError(f"{path}: no such file") from None
    except (IsADirectoryError, UnicodeDecodeError, PermissionError) as exc:
        raise RefereeError(f"{path}: cannot be read ({exc.__class__.__name__})") from None
    except OSError as exc:  # a device, a name too long, an I/O error
        raise RefereeError(f"{path}: cannot be read ({exc.strerror or exc.__class__.__name__})") from None


def write_output(path: Path, text: str) -> None:
    """Write a file the user named (an export, a picture): a clear error when it cannot be written."""
    try:
        Path(path).write_text(text, "utf-8")
    except OSError as exc:
        raise RefereeError(f"{path}: cannot be written ({exc.strerror or exc.__class__.__name__})") from None


@app.command()
def adjudicate(
    sheet: Annotated[Path, typer.Argument(help="The round's revealed tokens in the round notation ('-' for stdin).")],
    board: Annotated[Path, typer.Option("--board", "-b", help="The board before the round, one fact a line (setup notation).")],
    clans: Annotated[str, typer.Option("--clans", "-c", help="Clans in seat order, comma-separated.")],
    round_no: Annotated[int, typer.Option("--round", "-r", min=1, max=5, help="The round being resolved.")] = 1,
    json_out: JsonOpt = False,
) -> None:
    """Resolve one round from a board file and a round sheet, without a stored game."""
    from ..boarddata import load_board
    from ..engine import begin_round, parse_round, resolve
    from ..engine.notation import parse_clan, parse_lines
    from ..engine.tablenotation import apply_board_fact, new_state, parse_board_line
    from . import render

    b = load_board()
    seats = tuple(parse_clan(c, clans) for c in clans.split(",") if c.strip())
    state = new_state(b, seats, round=round_no)
    for n, line in parse_lines(read_input(board)):
        state = apply_board_fact(state, parse_board_line(line, b, n))
    state = begin_round(state)
    entries = parse_round(read_input(sheet), b)
    new, report = resolve(state, entries)
    render.round_report(report, new, json_out=json_out)


@app.command()
def casebook(
    directory: Annotated[Path, typer.Argument(help="A directory of casebook TOML files.")] = Path("tests/casebook"),
    case_filter: Annotated[Optional[str], typer.Option("--case", "-k", help="Only cases whose id contains this.")] = None,
) -> None:
    """Run a conformance casebook and report each case (exit 1 when any case fails)."""
    from ..boarddata import load_board
    from ..scenario import load_cases, run_case
    from . import render

    if not directory.is_dir():
        raise RefereeError(f"{directory}: not a directory of casebook files")
    cases = [c for c in load_cases(directory) if not case_filter or case_filter in str(c.id)]
    board = load_board()
    results = [(c, _run_case(run_case, c, board)) for c in cases]
    render.casebook(results)
    if any(problems for _, problems in results):
        raise typer.Exit(1)


def _run_case(run_case, case, board) -> list[str]:
    """A case whose board or entries the notation refuses fails as a case; the others still run."""
    try:
        return run_case(case, board)
    except RefereeError as exc:
        return [f"cannot be run: {exc}"]


from . import games as _games  # noqa: E402,F401  (registers the game commands)
from . import logcmds as _logcmds  # noqa: E402,F401  (registers the log commands)
from . import table as _table  # noqa: E402,F401  (registers the table session)
from . import serve as _serve  # noqa: E402,F401  (registers `serve`; the web stack loads when it runs)
from . import tournament as _tournament  # noqa: E402
from . import venue as _venue  # noqa: E402,F401  (registers `tournament post|clock|announce|publish`)

app.add_typer(_tournament.commands)  # `referee tournament ...`


def main() -> None:
    """Entry point: one error boundary turns domain errors into one line on stderr and exit 1.

    Usage errors are Typer's own: a message and exit 2.
    """
    try:
        app()
    except RefereeError as exc:
        _fail(str(exc), exc.hint)
    finally:
        # The command is done. At exit Python would walk every object SQLAlchemy, pydantic and Rich made
        # for cyclic garbage (about 0.2 s on a small machine, more than the command's own work); frozen,
        # they are left to the process's end. Exit handlers still run.
        gc.freeze()


def _fail(message: str, hint: str | None = None) -> None:
    for line in message.splitlines() or [""]:
        print(f"error: {line}", file=sys.stderr)
    if hint:
        print(f"hint: {hint}", file=sys.stderr)
    sys.exit(1)
