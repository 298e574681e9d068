"""`referee table GAME`: one interactive session for a whole game at the table.

Lines are typed as on a sheet: a setup fact before round 1 (`crab: control @ crab_central`), or a
revealed token (`crab: army 3 crab_central > crane_south`). An empty line (or `resolve`) resolves the
pending round; `board`, `score`, `show`, `pending`, `clear`, `help` and `quit` do what they say.
The game stays open between rounds: nothing is reloaded.
"""

import typer

from ..engine.errors import NotationError, RefereeError
from .app import DbOpt, GameArg, app, write_output
from .games import open_store

TOKEN_WORDS = ("army", "navy", "shinobi", "raid", "diplomacy", "bluff", "blessing")


def is_token_line(rest: str) -> bool:
    """A revealed token (`army 3 ...`), as opposed to a table event (`plays ...`, `control @ ...`)."""
    word = rest.split(" ", 1)[0].strip().lower().rstrip("0123456789")
    return len(word) >= 2 and any(t.startswith(word) for t in TOKEN_WORDS)
HELP = (
    "type a revealed token a line; an empty line resolves the round. Table events (setup, initiative,\n"
    "cards: `crab: plays promotion army 3, discard navy 1`) are checked and recorded as typed.\n"
    "commands: board [FILE.svg] | score | show | pending | clear | help | quit"
)


class TableSession:
    """A moderator's session on one game: the store stays open, the fold stays in memory."""

    def __init__(self, store, game: str):
        from ..log import OpenGame

        self.game = game
        self.log = OpenGame(store, game)
        self.pending: list = []  # the round's tokens typed so far (entries, checked together as typed)

    @property
    def state(self):
        return self.log.state

    def add(self, line: str) -> str:
        """One typed line: a setup fact (recorded now) or a token (held until the round resolves)."""
        from ..engine.notation import format_entry, parse_entry, split_clan
        from ..engine.placement import check_entries

        head, rest = split_clan(line)
        if not is_token_line(rest):
            return self.table_event(line)
        if self.state.round > 5:
            raise RefereeError(f"game {self.game!r} is over: five rounds were played (p.10)")
        entry = parse_entry(line, self.state.board)
        refusals = check_entries(self.state, [*self.pending, entry])
        if refusals:
            raise RefereeError("\n".join(r.line(self.state.round) for r in refusals))
        self.pending.append(entry)
        return f"  ✓ {format_entry(entry)}"

    def table_event(self, line: str) -> str:
        """A setup fact, initiative card or card play: checked, applied and recorded at once (R-22)."""
        if self.pending:
            raise RefereeError(f"round {self.state.round}: table events come before the round's tokens; resolve or clear the {len(self.pending)} pending token(s) first")
        event, _, notes = self.log.record_table_events([line])
        return f"  ✓ {event.data['lines'][0]}  — {notes[0]}"

    def resolve_pending(self):
        """Resolve the pending round, record it, and return (event, state, report)."""
        event, state, report = self.log.record_round(self.pending)
        self.pending = []
        return event, state, report


@app.command("table")
def table_session(
    game: GameArg,
    db: DbOpt = None,
) -> None:
    """Keep one game open for the whole session: setup, each round, board and score."""
    from ..engine import final_score
    from ..engine.notation import format_entry
    from . import render
    from .entry import _install_completion

    with open_store(db) as store:
        session = TableSession(store, game)
        render.console.print(f"[bold]{game}[/bold], round {min(session.state.round, 5)}. {HELP}")
        _install_completion(session.state)
        while True:
            try:
                line = typer.prompt(f"{game} r{min(session.state.round, 5)}", default="", show_default=False, prompt_suffix="> ")
            except (EOFError, typer.Abort):
                break
            word = line.strip().lower()
            try:
                if word in ("quit", "exit"):
                    break
                if word in ("", "resolve"):
                    if not session.pending:
                        if word == "":
                            continue
                        raise RefereeError("no tokens entered for this round yet")
                    event, state, report = session.resolve_pending()
                    render.round_report(report, state, seal=event.seal)
                elif word == "help":
                    render.console.print(HELP)
                elif word == "pending":
                    render.entry_echo(session.state.round, [format_entry(e) for e in session.pending])
                elif word == "clear":
                    session.pending = []
                    render.console.print("pending tokens cleared (nothing had been recorded)")
                elif word.startswith("board"):
                    render.board_view(session.state)
                    target = line.strip()[5:].strip()
                    if target:
                        from pathlib import Path

                        from ..views.board_svg import board_svg

                        write_output(Path(target), board_svg(session.state))
                        render.console.print(f"picture written to {target}")
                elif word == "score":
                    render.final_score(final_score(session.state), provisional=session.state.round <= 5)
                elif word == "show":
                    render.game_summary(session.log.fold, session.log.events)
                else:
                    render.console.print(session.add(line))
            except (RefereeError, NotationError) as exc:
                for text in str(exc).splitlines():
                    render.console.print(f"[red]error: {text}[/red]")
                if exc.hint:
                    render.console.print(f"  hint: {exc.hint}")
