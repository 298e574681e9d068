"""What the command line takes in, checked where it enters: arguments, game ids, text read, dates.

- Every argument must be valid UTF-8: a name of bytes that are not (``referee show $'\\xff'``) is a
  usage error naming the argument, shown with its bytes escaped, never a traceback later on.
- A new game's id is ``[a-z0-9][a-z0-9-]*``, at most 64 characters: it is typed at every table, goes
  into file names and URLs, and reads the same everywhere. Games recorded before this rule (ids with
  capitals, ``_`` or ``.``) can still be named.
- Text read from a file or standard input must be valid UTF-8 (``common.read_input``, as it is read).
- A date is a real calendar date, ``YYYY-MM-DD``.
"""

from __future__ import annotations

import re
from datetime import date

import typer
from typer.core import TyperGroup

from ..core.errors import RefereeError

GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
GAME_ID_MAX = 64
GAME_ID_FORM = "lower-case letters, digits and '-', starting with a letter or digit, at most 64 characters"
RECORDED_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # what games recorded before the rule may be named


def shown(text: str) -> str:
    """``text`` quoted as typed, on one line: bytes that are not UTF-8 (and lone surrogates) as ``\\xNN``,
    control characters as their escapes."""
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that is not an undecodable byte
        raw = text.encode("utf-8", "surrogatepass")
    printable = raw.decode("utf-8", "backslashreplace")
    return "'" + "".join(c if c.isprintable() else repr(c)[1:-1] for c in printable) + "'"


def is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def new_game_id(game: str) -> str:
    """A new game's id, or a clear error naming it and the rule."""
    if not is_utf8(game) or not GAME_ID.fullmatch(game) or len(game) > GAME_ID_MAX:
        raise RefereeError(f"{shown(game)} is not a valid game id: use {GAME_ID_FORM}", hint="for example friday-t3")
    return game


def game_id(game: str) -> str:
    """The id of a game to open: a new-style id, or one recorded before the rule."""
    if not is_utf8(game) or not (GAME_ID.fullmatch(game) or RECORDED_ID.fullmatch(game)) or len(game) > GAME_ID_MAX:
        raise RefereeError(
            f"{shown(game)} is not a valid game id: use {GAME_ID_FORM}", hint="`referee games` lists the games"
        )
    return game


def calendar_date(text: str) -> str:
    """A date played: empty, or a real calendar date written YYYY-MM-DD."""
    if not text.strip():
        return ""
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
            raise ValueError
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise typer.BadParameter(
            f"{shown(text)} is not a calendar date: expected YYYY-MM-DD, for example 2026-11-23", param_hint="'--date'"
        ) from None


class CheckedGroup(TyperGroup):
    """The `referee` command group: every argument is valid UTF-8 before any command sees it."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        for n, arg in enumerate(args, start=1):
            if not is_utf8(arg):
                raise typer.BadParameter(f"{shown(arg)} is not valid UTF-8 text", ctx, param_hint=f"argument {n}")
        return super().parse_args(ctx, args)
