"""`referee round`: a sheet, standard input or the prompt (one token a line, with completion), echoed and
confirmed. The game service (``OpenGame.read_round``/``record_sheet``) reads, identifies (R-27), checks and
records the round; this module only prompts, confirms and prints."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

from ..core.errors import RefereeError
from ..engine.battle import EntriesRefused, GameState, Kind, NotationError, check_placements, format_entry, parse_entry
from ..games.battle.service import RoundMoved as RoundMovedError, check_token


def play(store, game: str, sheet, round_opt: int | None, yes: bool, json_out: bool, no_tokens: bool = False) -> None:
    """Enter a round (``sheet``: a file, or the sheet's text itself): read by the game service (one parse, R-27,
    one placement check, the game-over guard), confirmed when asked, recorded by the service; what it did printed."""
    from ..games.battle.service import OpenGame
    from .common import read_input

    log = OpenGame(store, game)
    if sheet is not None and not isinstance(sheet, str):
        sheet = read_input(sheet)  # a file, or '-' for standard input: its text
    if sheet is not None:
        read = log.read_round(sheet, round_opt)
    else:
        log.check_round(round_opt)  # before the tokens are typed: the round, the game open, the setup (p.4)
        read = log.read_round(enter_round(log.state), round_opt)
    settle(log, read, from_sheet=sheet is not None, yes=yes, json_out=json_out, no_tokens=no_tokens)


def settle(log, read, *, from_sheet: bool, yes: bool, json_out: bool, no_tokens: bool = False) -> None:
    """A round read by the game service (``read``, on ``log``'s fold): confirmed when asked, recorded as it was
    read (never read or resolved again), and what it did printed. ``from_sheet``: read from a sheet (a file,
    standard input or the phones'), not typed at the prompt."""
    from . import render

    game = log.game
    if read.recorded is None:
        no_tokens_on_purpose(read.lines, no_tokens, f"game {game!r}, round {read.round}")
    if read.recorded is None and from_sheet and not yes and not sys.stdin.isatty():
        raise RefereeError(  # a pipe cannot answer the confirmation
            f"game {game!r}, round {read.round}: standard input is not a terminal, so nobody can confirm the "
            "round; nothing recorded",
            hint="pass --yes to record the sheet without asking",
        )
    ask = not from_sheet or (not yes and not json_out)
    if read.recorded is None and ask and not confirm_entry(log.state, read.lines):
        raise RefereeError(f"game {game!r}, round {read.round}: not confirmed; nothing recorded")
    try:
        done = log.record_sheet(read)
    except RoundMovedError as exc:
        for line in exc.moved:
            render.console.print(render.markup(line))
        raise
    for line in done.moved:
        render.console.print(render.markup(line))
    if done.event is None:
        if json_out:
            render.print_json({"round": done.round, "seal": done.seal, "recorded": False})
        else:
            render.console.print(
                f"round {done.round} is already recorded with this same sheet (seal {done.seal}); nothing recorded"
            )
        return
    assert done.report is not None  # a round recorded has its report
    render.round_report(done.report, done.state, json_out=json_out, seal=done.seal)


def no_tokens_on_purpose(entries, no_tokens: bool, where: str) -> None:
    """An empty sheet records a round only when the moderator says it had no tokens on purpose (--no-tokens):
    a file left empty, the wrong file or /dev/null is refused; tokens with --no-tokens are a usage error."""
    if entries and no_tokens:
        raise typer.BadParameter(f"{where}: the sheet holds {len(entries)} token(s)", param_hint="--no-tokens")
    if not entries and not no_tokens:
        raise RefereeError(
            f"{where}: the sheet holds no tokens; nothing recorded",
            hint="if the round had no tokens on purpose, enter it again with --no-tokens",
        )


def completions(state: GameState) -> list[str]:
    """Words a moderator types: clans, token kinds, province ids and the place marks."""
    words = [f"{c}:" for c in state.clans] + [str(k) for k in Kind if k != Kind.BLESSING]
    return words + sorted(state.board.provinces) + ["sea", "blessing", "@", ">", "+"]


def _install_completion(state: GameState) -> None:
    try:
        import readline
    except ImportError:  # pragma: no cover - not every platform has readline
        return
    words = completions(state)

    def complete(text: str, index: int):
        matches = [w for w in words if w.startswith(text.lower())]
        return matches[index] if index < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" ")
    readline.parse_and_bind("tab: complete")


def enter_round(state: GameState) -> str:
    """Prompt for one token a line until an empty line; each line is checked as it is typed, with the
    engine's count of the tokens each clan may place (a round still being typed: no minimum yet)."""
    from ..engine.battle import begin_round
    from . import render

    state = begin_round(state)
    if sys.stdin.isatty():
        _install_completion(state)
    render.console.print(f"Round {state.round}: one revealed token a line (Tab completes), an empty line to finish.")
    lines: list[str] = []
    shown_missing = False
    while True:
        line = typer.prompt(f"round {state.round}", default="", show_default=False, prompt_suffix="> ")
        if not line.strip():
            refusals = check_placements(state, [parse_entry(x, state.board) for x in lines]) if lines else []
            if refusals and not shown_missing:  # e.g. a clan one token short: say so once, let it be typed
                for r in refusals:
                    render.console.print(f"[red]{render.markup(r.line(state.round))}[/red]")
                render.console.print("type the missing token(s), or an empty line again to stop here")
                shown_missing = True
                continue
            return "\n".join(lines)
        shown_missing = False
        try:
            entry = check_token(state, lines, line)  # the one check of a token as it is entered
        except NotationError as exc:
            hint = f"\n  hint: {render.markup(exc.hint)}" if exc.hint else ""
            render.console.print(f"[red]{render.markup(exc)}[/red]{hint}")
            continue
        except EntriesRefused as exc:
            for r in exc.refusals:
                render.console.print(f"[red]{render.markup(r.line(state.round))}[/red]")
            continue
        lines.append(format_entry(entry))
        render.console.print(f"  ✓ {format_entry(entry)}")


def confirm_entry(state: GameState, lines: Sequence[str]) -> bool:
    """Echo the entry and ask to confirm the round it is for (R-27); end of input is a no."""
    from . import render

    render.entry_echo(state.round, list(lines))
    try:
        return typer.confirm(f"Resolve round {state.round}?", default=True)
    except typer.Abort:
        return False
