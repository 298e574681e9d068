"""`referee table GAME`: one interactive session for a whole game at the table.

Lines are typed as on a sheet: a table event (`crab: control @ crab_central`, `initiative: crab`), or a
revealed token (`crab: army 3 crab_central > crane_south`). An empty line (or `resolve`) shows the
round's tokens and asks to confirm the round; `undo`, `board`, `score`, `show`, `pending`, `clear`,
`help` and `quit` do what they say; `phones` shows the round the players enter on their phones (`referee
serve --entry`) and, once every clan submitted, takes their tokens as typed lines, to be edited and
resolved as any typed round. The game stays open between rounds; it is read again only when
another moderator wrote to it (``session.TableSession``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from ..core.errors import RefereeError
from ..engine.battle import NotationError
from .common import DbOpt, GameArg, open_store, write_output

if TYPE_CHECKING:  # the session is loaded by the command, not by `referee --help`
    from .session import TableSession

commands = typer.Typer()

HELP = (
    "type a revealed token a line; an empty line shows the round's tokens and asks to resolve the round.\n"
    "Table events (setup, initiative, cards: `crab: plays promotion army 3, discard navy 1`) are checked and\n"
    "recorded as typed. commands: undo | pending | clear | board [FILE.svg] | score | show | phones | help | quit"
)


@commands.command("table")
def table_session(
    game: GameArg,
    db: DbOpt = None,
) -> None:
    """Keep one game open for the whole session: setup, each round, board and score."""
    from . import render
    from .round_entry import _install_completion
    from .session import GameMoved, TableSession

    with open_store(db) as store:
        session = TableSession(store, game)
        render.console.print(f"[bold]{game}[/bold], round {min(session.round, 5)}. {HELP}")
        _install_completion(session.state)
        while True:
            try:
                line = typer.prompt(
                    f"{game} r{min(session.round, 5)}", default="", show_default=False, prompt_suffix="> "
                )
            except (EOFError, typer.Abort):  # end of input, or Ctrl-C
                render.console.print()
                if _leave(session):
                    break
                continue
            word = line.strip().lower()
            try:
                if word in ("quit", "exit"):
                    if _leave(session):
                        break
                elif word in ("", "resolve"):
                    _resolve(session, word)
                else:
                    _command(session, line, word)
            except GameMoved as moved:
                for text in moved.lines:
                    render.console.print(f"[yellow]{render.markup(text)}[/yellow]")
            except (RefereeError, NotationError) as exc:
                for text in str(exc).splitlines():
                    render.console.print(f"[red]error: {render.markup(text)}[/red]")
                if exc.hint:
                    render.console.print(f"  hint: {render.markup(exc.hint)}")


def _resolve(session: TableSession, word: str) -> None:
    """Show the round's tokens, confirm the round (R-27), record it and print the report."""
    from ..engine.battle import format_entry
    from . import render

    if not session.pending:
        if word == "resolve":
            raise RefereeError("no tokens entered for this round yet")
        return
    session.ready()
    render.entry_echo(session.round, [format_entry(e) for e in session.pending])
    try:
        confirmed = typer.confirm(f"Resolve round {session.round}?", default=True)
    except typer.Abort:
        confirmed = False
    if not confirmed:
        render.console.print(f"round {session.round} not resolved; the tokens stay typed (undo, clear, or Enter again)")
        return
    event, state, report = session.resolve_pending()
    render.round_report(report, state, seal=event.seal)


def _command(session: TableSession, line: str, word: str) -> None:
    from ..engine.battle import format_entry
    from ..games.battle.fold import game_score
    from . import render

    if word == "help":
        render.console.print(HELP)
    elif word == "undo":
        render.console.print(render.markup(session.undo()))
    elif word == "pending":
        if session.pending:
            render.entry_echo(session.round, [format_entry(e) for e in session.pending])
        else:
            render.console.print(f"pending tokens: none (round {min(session.round, 5)})")
    elif word == "clear":
        n = len(session.pending)
        session.pending = []
        render.console.print(f"pending tokens cleared: {n} (nothing had been recorded)")
    elif word.startswith("board"):
        render.board_view(session.state)
        target = line.strip()[5:].strip()
        if target:
            from pathlib import Path

            from ..views.board_svg import board_svg

            write_output(Path(target), board_svg(session.state))
            render.console.print(f"picture written to {render.markup(target)}")
    elif word == "score":
        render.final_score(game_score(session.log.fold))
    elif word == "show":
        render.game_summary(session.log.fold, session.log.events)
    elif word == "phones":
        _phones(session)
    else:
        render.console.print(render.markup(session.add(line)))


def _phones(session: TableSession) -> None:
    """The round entered on the phones: each clan's state, and once every clan submitted, their tokens
    taken as typed lines (each checked as typed), for the moderator to edit and resolve as any round."""
    from ..engine.battle import format_entry
    from ..games.battle import entry as en
    from . import render

    session.check_current()
    t = en.table_state(session.log)
    render.console.print(f"round {t.round}, entered on the phones:")
    for d, n in zip(t.drafts, t.counts, strict=True):
        count = f" ({en.count_said(n)})" if d.version else ""
        render.console.print(f"  {render.markup(d.clan):<10} {d.state}{count}")
    waiting = [d.clan for d in t.drafts if not d.submitted]
    if waiting:
        render.console.print(f"waiting for: {', '.join(waiting)} (type `phones` again once they have submitted)")
        return
    if session.pending:
        raise RefereeError(
            f"round {t.round}: {len(session.pending)} token(s) are typed here already; clear them first (clear)"
        )
    try:
        for line in t.sheet.splitlines()[1:]:
            session.add(line)
    except (RefereeError, NotationError):
        session.pending = []  # all of the phones' tokens, or none
        raise
    render.entry_echo(session.round, [format_entry(e) for e in session.pending])
    render.console.print("the phones' tokens are typed here: Enter resolves the round; undo, clear or a line edits it")


def _leave(session: TableSession) -> bool:
    """Whether the session may end: typed tokens are discarded only when the moderator says so."""
    from . import render

    if not session.pending:
        return True
    n, r = len(session.pending), session.pending_round
    try:
        discard = typer.confirm(
            f"Discard the {n} typed token(s) of round {r}? Nothing of them is recorded.", default=False
        )
    except typer.Abort:  # the input is closed: nothing more can be typed
        discard = True
    if discard:
        session.pending = []
        render.console.print(f"{n} typed token(s) discarded; nothing recorded")
    return discard
