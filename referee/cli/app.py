"""The `referee` command, assembled from the command modules. Heavy imports are deferred so that
`referee --help` starts fast.

    common      argument and option types, files in and out, the store: imported by every command module
    standalone  adjudicate, casebook: no stored game
    games       new, games, show, setup, round, board, score, demo, seal, reveal, event
    logcmds     replay, verify, export, import, what-if, correct
    retract     retract
    table_session  `referee table`: the interactive table session (its logic: session.py)
    champions   `referee champions ...`: Champions of Rokugan's scenario tracker and campaign log
    entry       `referee links`, `referee confirm`: the seats' phone links, the moderator's confirmation
    tournament  `referee tournament ...`: roll call, seating, results, standings
    ccg         `referee ccg ...`: the card game's matches and decklists
    rules       `referee rules`: the shipped rulings document, listed, printed, searched
    venue       `referee tournament post|clock|announce|publish`: the venue pages' notices and static site
    serve       `referee serve`: the read-only venue web pages (the web stack loads only when it runs)

The command modules keep real annotations (no ``from __future__ import annotations``): Typer reads
every command's signature at each start, and string annotations would all be evaluated again.
"""

import functools
import gc
import os
import sys
from collections.abc import Sequence
from typing import cast

import typer
from typer.core import TyperCommand
from typer.main import get_command

from ..engine import RefereeError
from ..shown import plain
from . import champions, entry, games, keys, logcmds, retract, rules, serve, standalone, table_session
from .checks import CheckedGroup
from .common import CCG_HELP, TOURNAMENT_HELP

# `referee tournament ...`, with the venue's commands, is built when it is named: Typer reads every command's
# signature each time it builds the command group, and the tournament's 33 commands cost every other command,
# and `referee --help`, about 8 ms (tests/cli/test_command_line.py).


class RefereeGroup(CheckedGroup):
    """The `referee` command group, its `tournament` group built on first use: until then a command holding
    its place (in `--help`'s order, after the table session) and its help line."""

    _listing = False  # while the command list of `referee --help` is written

    def __init__(self, **attrs) -> None:
        super().__init__(**attrs)
        self._unbuilt = {
            "tournament": TyperCommand("tournament", help=TOURNAMENT_HELP),
            "ccg": TyperCommand("ccg", help=CCG_HELP),  # the card game's group: built when named, too
        }
        order = list(self.commands.items())
        at = next((i for i, (name, _) in enumerate(order) if name == "rules"), len(order))
        self.commands = dict(
            [*order[:at], ("tournament", self._unbuilt["tournament"]), *order[at:], ("ccg", self._unbuilt["ccg"])]
        )

    def get_command(self, ctx, cmd_name: str):
        command = super().get_command(ctx, cmd_name)
        if command is not None and command is self._unbuilt.get(cmd_name) and not self._listing:
            command = self.commands[cmd_name] = _tournament_group() if cmd_name == "tournament" else _ccg_group()
        return command

    def format_commands(self, ctx, formatter) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False


def _ccg_group():
    from . import ccg

    return get_command(ccg.commands)


def _tournament_group():
    from . import tournament, venue  # noqa: F401  (venue adds `tournament post|clock|announce|publish`)

    return get_command(tournament.tapp)


app = typer.Typer(
    cls=RefereeGroup,  # every argument valid UTF-8 before a command sees it; `tournament` built when named
    name="referee",
    help="Referee and replay tool for three Rokugan games: Battle for Rokugan (rounds resolved as the rulebook "
    "orders them, the game log, phone entry, tournaments), the Legend of the Five Rings card game (`referee ccg`, "
    "Swiss events: `referee tournament swiss`) and Champions of Rokugan (`referee champions`).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: `referee --help` need not import Rich
)
MODULES = (
    standalone,
    games,
    logcmds,
    retract,
    keys,
    table_session,
    rules,
    champions,
    serve,
    entry,
)  # `--help` order (and `tournament`, placed before `rules`)
for module in MODULES:
    app.add_typer(module.commands)


@functools.cache
def command() -> RefereeGroup:
    """The command group, built from the command modules once per process (Typer reads every command's
    signature to build it: what ``app()`` does at each call)."""
    return cast(RefereeGroup, get_command(app))


def main() -> None:
    """Entry point of the ``referee`` command: ``run`` with the process's arguments, its code as the exit status."""
    try:
        code = run()
    finally:
        # The command is done. At exit Python would walk every object SQLAlchemy, pydantic and Rich made
        # for cyclic garbage (about 0.2 s on a small machine, more than the command's own work); frozen,
        # they are left to the process's end. Exit handlers still run.
        gc.freeze()
    sys.exit(code)


def run(args: Sequence[str] | None = None) -> int:
    """One command (``args``; the process's own when None) under the one error boundary: a domain error, and
    an input nested too deeply for any reader (``RecursionError``), become one line on stderr and exit 1;
    usage errors are Typer's own (a message and exit 2). The exit code is returned, so that the command runs
    the same in this process (the tests) as in its own."""
    if sys.stdin is None:  # started with standard input closed (`<&-`): it reads as empty, never as a crash
        sys.stdin = open(os.devnull)  # noqa: SIM115 (the process's own standard input, open until it ends)
    try:
        if args is None:
            command()()
        else:
            command()(args=list(args), prog_name="referee")
    except SystemExit as exc:
        return _exit_code(exc.code)
    except RefereeError as exc:
        _show_recorded(exc)
        _fail(str(exc), exc.hint)
        return 1
    except RecursionError:  # an input nested deeper than any reader of it expects (JSON, a notation): one line
        _fail("the input is nested too deeply to be read")
        return 1
    return 0


def _exit_code(code: object) -> int:
    """``sys.exit``'s argument as the process would end with it: None is 0, a message is printed and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _show_recorded(exc: RefereeError) -> None:
    """A write refused because another moderator wrote first: what they recorded, read again (R-27)."""
    recorded = getattr(exc, "recorded", None)
    if recorded:
        from ..log.round_identity import changes

        print(f"another moderator wrote to game {recorded[0].game!r} first:")
        for line in changes(recorded):
            print(f"  {plain(line)}")


def _fail(message: str, hint: str | None = None) -> None:
    for line in message.splitlines() or [""]:  # a message's own lines; a user's text in it shown by ``plain``
        line = plain(line)
        if len(line) > 400:  # an input quoted whole can be megabytes: its start names it
            line = f"{line[:300]}... ({len(line)} characters)"
        print(f"error: {line}", file=sys.stderr)
    if hint:
        print(f"hint: {plain(hint)}", file=sys.stderr)
