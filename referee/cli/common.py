"""What the command modules share: argument and option types, reading and writing the files a user
names, opening the store. Imports no command module."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..engine import RefereeError
from .checks import game_id, utf8_text

# `referee tournament`'s help: its group's, and its line in `referee --help` before the group is built
# (app.RefereeGroup builds it only when it is named)
TOURNAMENT_HELP = "Tournaments: players, roll call, seating, results from the game logs, standings."
CCG_HELP = "The Legend of the Five Rings card game: matches (battles, duels, Honor, victories), decklists."

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]
DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="REFEREE_DB",
        help="Database: a SQLAlchemy URL or a SQLite file path (default saves/referee.db).",
        show_default=False,
    ),
]
GameArg = Annotated[str, typer.Argument(help="The game's id.", show_default=False, callback=game_id)]
SheetArg = Annotated[
    Path, typer.Argument(help="A file in the notation, or '-' for standard input.", show_default=False)
]


def read_input(path: Path) -> str:
    if str(path) == "-":
        try:
            return utf8_text(sys.stdin.read(), "standard input")
        except UnicodeDecodeError:
            raise RefereeError("standard input: not valid UTF-8 text") from None
    try:
        return utf8_text(path.read_text("utf-8"), str(path))
    except FileNotFoundError:
        raise RefereeError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise RefereeError(f"{path}: line {line}: not valid UTF-8 text") from None
    except (IsADirectoryError, PermissionError) as exc:
        raise RefereeError(f"{path}: cannot be read ({exc.__class__.__name__})") from None
    except OSError as exc:  # a device, a name too long, an I/O error
        raise RefereeError(f"{path}: cannot be read ({exc.strerror or exc.__class__.__name__})") from None


def write_output(path: Path, text: str, what: str | None = None, *, json_out: bool = False) -> None:
    """Write a file the user named (an export, a picture): a clear error when it cannot be written. With
    ``what``, say what was written where (on standard error under ``--json``, which keeps standard output
    for the JSON)."""
    try:
        Path(path).write_text(text, "utf-8")
    except OSError as exc:
        raise RefereeError(f"{path}: cannot be written ({exc.strerror or exc.__class__.__name__})") from None
    if what is not None:
        lines = text.count("\n")
        typer.echo(f"{what} written to {path} ({lines} line{'' if lines == 1 else 's'})", err=json_out)


def open_store(db: str | None, *, create: bool = False):
    """The database: only `new`, `demo` and `import` make one (``create``); every other command needs it there."""
    from ..log import Store

    return Store(db, create=create)


AsRecorded = Annotated[
    bool,
    typer.Option(
        "--as-recorded",
        help="With --round N: the board as round N was first recorded, before any later correction.",
    ),
]
