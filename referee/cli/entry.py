"""Entering a round: from a sheet, or line by line at a prompt with completion; echo and confirm."""

from __future__ import annotations

import sys

import typer

from ..engine import EntriesRefused, Entry, GameState, NotationError
from ..engine.model.tokens import Kind
from ..engine.notation.round import format_entry, parse_entry, parse_lines
from ..engine.resolution.inventory import check_placements


class RoundInputError(NotationError):
    """A line of a round sheet that cannot be read, named with its round."""


def read_round(state: GameState, text: str) -> list[Entry]:
    """Every entry of the sheet, or the first unreadable line / every refused entry (R-08) as an error.
    How many tokens each clan places comes from the engine (``check_placements``)."""
    from ..engine import begin_round

    state = begin_round(state)
    entries = []
    for n, line in parse_lines(text):
        try:
            entries.append(parse_entry(line, state.board, n))
        except NotationError as exc:
            exc.message = f"round {state.round}: {exc.message}"
            raise
    refusals = check_placements(state, entries)
    if refusals:
        raise EntriesRefused(refusals, state.round)
    return entries


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
    from ..engine import begin_round
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
            entry = parse_entry(line, state.board)
        except NotationError as exc:
            hint = f"\n  hint: {render.markup(exc.hint)}" if exc.hint else ""
            render.console.print(f"[red]{render.markup(exc)}[/red]{hint}")
            continue
        refusals = check_placements(state, [*(parse_entry(x, state.board) for x in lines), entry], complete=False)
        if refusals:
            for r in refusals:
                render.console.print(f"[red]{render.markup(r.line(state.round))}[/red]")
            continue
        lines.append(format_entry(entry))
        render.console.print(f"  ✓ {format_entry(entry)}")


def confirm_entry(state: GameState, entries: list[Entry]) -> bool:
    """Echo the entry and ask to confirm the round it is for (R-27); end of input is a no."""
    from . import render

    render.entry_echo(state.round, [format_entry(e) for e in entries])
    try:
        return typer.confirm(f"Resolve round {state.round}?", default=True)
    except typer.Abort:
        return False
