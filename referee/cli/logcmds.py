"""Commands over the log: replay, verify, export, import, what-if, correct."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..engine.errors import RefereeError
from .app import DbOpt, GameArg, JsonOpt, app, read_input, write_output
from .games import SheetArg, open_store

RoundArg = Annotated[int, typer.Argument(min=1, max=5, help="The round.", show_default=False)]


@app.command()
def replay(
    game: GameArg,
    to: Annotated[Optional[int], typer.Option("--to", min=0, max=5, help="Stop after this round.")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Replay a logged game round by round from its events (every report recomputed)."""
    from ..log import states
    from . import render

    with open_store(db) as store:
        events = store.events(game)
    steps = [s for s in states(events) if s.report is not None and (to is None or s.report.round <= to)]
    render.replay(steps, json_out=json_out)


@app.command()
def verify(
    target: Annotated[str, typer.Argument(help="A game id in the database, or an exported file (.jsonl or game record).")],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Re-run the whole log with the engine, check the hash chain and every digest; name the first divergence."""
    from ..log import parse_records
    from ..log import verify as verify_log
    from . import render

    path = Path(target)
    lines: list[int] | None = None
    if path.is_file():
        events, lines = parse_records(read_input(path))
    else:
        with open_store(db) as store:
            events = store.events(target)
    found = verify_log(events)
    render.verified(target, events, found, lines, json_out=json_out)
    if found:
        raise typer.Exit(1)


@app.command()
def export(
    game: GameArg,
    fmt: Annotated[str, typer.Option("--format", "-f", help="jsonl (lossless), text (a readable game record) or html (one self-contained, printable page).")] = "jsonl",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of standard output.")] = None,
    db: DbOpt = None,
) -> None:
    """Export a game: JSON Lines (one event a line, chain included), a plain-text game record, or an HTML
    record (every round's board with its tokens, report and seal; the final honor)."""
    from ..log import export_jsonl, export_text

    if fmt not in ("jsonl", "text", "html"):
        raise typer.BadParameter(f"{fmt!r}: choose jsonl, text or html", param_hint="--format")
    with open_store(db) as store:
        events = store.events(game)
    if fmt == "html":
        from ..views.html import game_record

        text = game_record(events)
    else:
        text = export_jsonl(events) if fmt == "jsonl" else export_text(events)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_output(output, text)


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A JSON Lines log or a plain-text game record.", show_default=False)],
    db: DbOpt = None,
) -> None:
    """Import a game: verified first; a damaged file is refused with its line number, nothing stored."""
    from ..log import import_records
    from . import render

    text = read_input(file)
    with open_store(db) as store:
        events = import_records(store, text)
    render.console.print(f"imported {events[0].game}: {len(events)} events, verified")


@app.command("what-if")
def what_if(game: GameArg, round_no: RoundArg, sheet: SheetArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Re-run a round with a changed entry and show both outcomes side by side. Nothing is recorded."""
    from ..log import Fold
    from . import render

    with open_store(db) as store:
        fold = Fold.of(store.events(game))
    _played(fold, game, round_no)
    render.what_if(fold.what_if(round_no, read_input(sheet)), json_out=json_out)


@app.command()
def correct(
    game: GameArg,
    round_no: RoundArg,
    sheet: SheetArg,
    reason: Annotated[str, typer.Option("--reason", help="Why the round's entry is corrected (the judge's ruling).")],
    db: DbOpt = None,
) -> None:
    """Record a correction of a round's entry, with its reason. The original stays in the log."""
    from ..log import OpenGame
    from . import render

    with open_store(db) as store:
        log = OpenGame(store, game)
        _played(log.fold, game, round_no)
        event, correction = log.correct(round_no, read_input(sheet), reason)
    render.correction(correction, event.seal)


def _played(fold, game: str, round_no: int) -> None:
    last = fold.state.round - 1
    if round_no > last:
        raise RefereeError(f"game {game!r}: round {round_no} has not been played (last: {last})")
