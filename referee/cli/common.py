"""What the command modules share: argument and option types, reading and writing the files a user
names, opening the store. Imports no command module."""

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from .checks import game_id

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


MAX_INPUT = 16 * 2**20  # bytes: a sheet, a record or a roster; a whole game's record is about 10 KiB


def _bounded(stream, where: str) -> str:
    """At most ``MAX_INPUT`` bytes of ``stream`` as UTF-8 text; a larger input is refused before it is held, and
    one that is not valid UTF-8 is refused naming its first bad line."""
    data = stream.read(MAX_INPUT + 1)
    if len(data) > MAX_INPUT:
        raise RefereeError(
            f"{where}: larger than {MAX_INPUT // 2**20} MiB, the most the referee reads; nothing was read",
            hint="a game's record is a few KiB: is this the right file?",
        )
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # newlines as text mode reads them
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RefereeError(f"{where}: line {line}: not valid UTF-8 text") from None


def read_input(path: Path) -> str:
    """A file the user named, or standard input (``-``): valid UTF-8, at most ``MAX_INPUT`` bytes, read in
    memory bounded by that size."""
    if str(path) == "-":
        if sys.stdin is None or sys.stdin.closed:
            raise RefereeError("standard input is closed: give a file, or pipe the sheet in")
        try:
            return _bounded(sys.stdin.buffer, "standard input")
        except (OSError, ValueError) as exc:
            raise RefereeError(f"standard input: cannot be read ({exc.__class__.__name__})") from None
    try:
        with Path(path).open("rb") as f:
            return _bounded(f, str(path))
    except FileNotFoundError:
        raise RefereeError(f"{path}: no such file") from None
    except (IsADirectoryError, PermissionError) as exc:
        raise RefereeError(f"{path}: cannot be read ({exc.__class__.__name__})") from None
    except OSError as exc:  # a device, a name too long, an I/O error
        raise RefereeError(f"{path}: cannot be read ({exc.strerror or exc.__class__.__name__})") from None


def write_output(
    path: Path, text: str, what: str | None = None, *, json_out: bool = False, private: bool = False
) -> None:
    """Write a file the user named (an export, a picture): a clear error when it cannot be written. With
    ``what``, say what was written where (on standard error under ``--json``, which keeps standard output
    for the JSON). ``private``: the file holds capabilities (phone links, their QR codes): its owner's alone
    (mode 600, whatever the umask, a file already there included; a link in its place is not followed)."""
    try:
        if private:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            Path(path).write_text(text, "utf-8")
    except OSError as exc:
        raise RefereeError(f"{path}: cannot be written ({exc.strerror or exc.__class__.__name__})") from None
    if what is not None:
        lines = text.count("\n")
        typer.echo(f"{what} written to {path} ({lines} line{'' if lines == 1 else 's'})", err=json_out)


def open_store(db: str | None, *, create: bool = False):
    """The database: only `new`, `demo` and `import` make one (``create``); every other command needs it there."""
    from ..store.storage import Store

    store = Store(db, create=create)
    if store.memory:  # the process ends with the command: whatever it recorded would be gone, silently
        store.close()
        raise RefereeError(
            f"{db or 'REFEREE_DB'}: an in-memory database keeps nothing after the command; nothing was recorded",
            hint="name a database file (--db games.db) or a PostgreSQL URL",
        )
    return store


AsRecorded = Annotated[
    bool,
    typer.Option(
        "--as-recorded",
        help="With --round N: the board as round N was first recorded, before any later correction.",
    ),
]
