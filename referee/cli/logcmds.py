"""Commands over the log: replay, verify, export, import, what-if, correct."""

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from ..core.errors import RefereeError
from .common import AsRecorded, DbOpt, GameArg, JsonOpt, SheetArg, open_store, read_input, write_output

commands = typer.Typer()
RoundArg = Annotated[int, typer.Argument(min=1, max=5, help="The round.", show_default=False)]
KeyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--key",
        help="Require the organiser's signature by this key: its fingerprint, or a key file (FILE.pub).",
        show_default=False,
    ),
]


@commands.command()
def replay(
    game: GameArg,
    to: Annotated[int | None, typer.Option("--to", min=0, max=5, help="Stop after this round.")] = None,
    round_no: Annotated[
        int | None,
        typer.Option(
            "--round", "-r", min=0, max=5, help="Stop after this round and show the board after it (as corrected)."
        ),
    ] = None,
    as_recorded: AsRecorded = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Replay a logged game event by event: table events, rounds (every report recomputed), reveals,
    retractions and corrections, in order, each labelled with the time it was recorded. With --round N,
    the board after round N is the one `referee board --round N` shows (corrected, the corrections named;
    --as-recorded: as first recorded)."""
    from ..games.battle.replay import board_after, states
    from . import render

    with open_store(db) as store:
        events = store.events(game)
    stop = round_no if round_no is not None else to
    steps = []
    for step in states(events):
        if stop == 0 and step.event.type == "RoundResolved":
            break
        steps.append(step)
        if stop and step.state.round > stop:  # round ``stop`` was just resolved: the board as it stood then
            break
    if round_no is not None and steps[-1].state.round <= round_no and round_no > 0:
        played = steps[-1].state.round - 1
        raise RefereeError(f"game {game!r}: round {round_no} has not been played (last: {played})")
    if as_recorded and round_no is None:
        raise typer.BadParameter("--as-recorded shows a played round: give --round N", param_hint="--as-recorded")
    after = board_after(events, round_no, as_recorded=as_recorded) if round_no is not None else None
    render.replay(steps, json_out=json_out, board_after=after)


AllowIncomplete = Annotated[
    bool,
    typer.Option("--allow-incomplete", help="Accept a record of a game not finished (no closing result) on purpose."),
]


@commands.command()
def verify(
    target: Annotated[
        str, typer.Argument(help="A game id in the database, or an exported file (.jsonl or game record).")
    ],
    seal: Annotated[
        str | None,
        typer.Option(
            "--seal",
            help="Confirm that the event with this seal (XXXX-XXXX-XXXX-XXXX, as noted at the table) is in the log.",
        ),
    ] = None,
    allow_incomplete: AllowIncomplete = False,
    key: KeyOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Re-run the whole log with the engine, check the hash chain and every digest; name the first divergence.
    A record (a file) must end with the game's result: one cut anywhere is incomplete. Every organiser's
    signature is checked against the key it names; with --key, the record must be signed by that key."""
    from ..games.battle.ending import check_complete
    from ..games.battle.events import NO_SEAL_CHECKED
    from ..games.battle.replay import superseded_by, verify as verify_log
    from ..records.signing import read_keys, refusal
    from ..views.data import verify_status
    from . import render

    keys = read_keys(key) if key else None
    code = _seal_code(seal)
    path = Path(target)
    read = _read_file(path, keys) if path.is_file() else _read_stored_or_file(target, keys, db)
    events, checked, notes = read.events, read.checked, read.notes
    found = verify_log(events)
    if found is None and checked.problem:
        raise refusal(target, checked, read.sig_lines)
    sealed = None
    if code is not None and not found:
        sealed = _sealed(target, events, code, notes)
    elif code is None and not found:
        notes.append(NO_SEAL_CHECKED)
    later = superseded_by(events, sealed) if sealed is not None else None
    status = verify_status(events, checked.status)
    render.verified(
        target,
        events,
        found,
        read.lines,
        json_out=json_out,
        status=status,
        sealed=sealed,
        superseded=later,
        notes=notes,
    )
    if found:
        raise typer.Exit(1)
    if read.lines is not None and not allow_incomplete:
        check_complete(events)


@dataclass
class _Read:
    """A record read for ``verify``: its events, its signatures checked, the lines they stood on (a file's),
    and what ``verify`` notes beside its answer."""

    events: list
    checked: Any
    lines: list[int] | None = None  # each event's line in the file
    sig_lines: list[int] | None = None  # each signature's line in the file
    notes: list[str] = field(default_factory=list)


def _seal_code(seal: str | None) -> str | None:
    """``--seal`` as typed, normalised; a usage error when it is not a seal's shape."""
    from ..store.events import SEAL_BITS, typed_seal

    code = typed_seal(seal) if seal is not None else None
    if code is not None and len(code) not in (9, SEAL_BITS // 5 + 3):
        raise typer.BadParameter(
            f"{seal!r} is not a seal: 16 characters in four groups (XXXX-XXXX-XXXX-XXXX), or 8 hex digits "
            "(XXXX-XXXX) for a round recorded before 80-bit seals",
            param_hint="--seal",
        )
    return code


def _read_file(path: Path, keys: list[str] | None) -> _Read:
    """An exported record: its signature and key lines read apart, its sections' seals counted."""
    from ..games.battle.records import parse_records, unsealed_sections
    from ..records.jsonl import RecordError
    from ..records.signing import check, split_record

    unsigned, attached = split_record(read_input(path))
    try:
        events, lines = parse_records(unsigned)
    except RecordError as exc:  # the refusal alone: `import`'s hint (nothing was stored) is not verify's
        raise RefereeError(exc.message) from None
    checked = check("game", events, attached.signatures, key=keys, key_changes=attached.key_changes)
    read = _Read(events, checked, lines, attached.lines)
    unsealed, sections = unsealed_sections(unsigned)
    if unsealed:
        read.notes.append(
            f"{unsealed} of {sections} sections carry no seal: they were re-run as written, and nothing ties "
            "them to what was recorded at the table"
        )
    return read


def _read_stored_or_file(target: str, keys: list[str] | None, db: str | None) -> _Read:
    """A game in the database; a target that names a file (a path, a record's suffix) and is neither a file here
    nor a stored game is refused as the missing file it was meant to be."""
    from ..store.families import UnknownGame

    try:
        return _read_stored(target, keys, db)
    except UnknownGame as exc:
        path = Path(target)
        if path.is_dir():
            raise RefereeError(f"{target}: a folder, not a record file (or a game id)") from None
        if "/" in target or os.sep in target or path.suffix.lower() in (".txt", ".jsonl", ".json", ".html"):
            raise RefereeError(f"{target}: no such file, and no game of that id ({exc.message})") from None
        raise


def _read_stored(game: str, keys: list[str] | None, db: str | None) -> _Read:
    """A game in the database, with its stored signatures."""
    from ..records.signing import check_stored

    with open_store(db) as store:
        events = store.events(game)
        return _Read(events, check_stored(store, "game", events, keys))


def _sealed(target: str, events, code: str, notes: list[str]):
    """The event whose seal is ``code`` (refused when there is none); a 32-bit seal noted as weak."""
    from ..store.events import is_legacy_seal, legacy_seal

    legacy = is_legacy_seal(code)
    sealed = next((e for e in events if (legacy_seal(e.hash) if legacy else e.seal) == code), None)
    if sealed is None:
        raise RefereeError(f"{target}: no event with seal {code} in this log ({len(events)} events, verified)")
    if legacy:
        notes.append(
            f"{code} is a 32-bit seal (recorded before 80-bit seals): a forged log can be searched to match "
            f"one in hours; this log's 80-bit seal for it is {sealed.seal}"
        )
    return sealed


@commands.command()
def export(
    game: GameArg,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="jsonl (lossless), text (a readable game record) or html (one self-contained, printable page).",
        ),
    ] = "jsonl",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file instead of standard output.")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Export a game: JSON Lines (one event a line, chain included), a plain-text game record, or an HTML
    record (every round's board with its tokens, report and seal; the final honor)."""
    from ..games.battle.records import export_text
    from ..records.jsonl import export_jsonl

    if fmt not in ("jsonl", "text", "html"):
        raise typer.BadParameter(f"{fmt!r}: choose jsonl, text or html", param_hint="--format")
    with open_store(db) as store:
        events = store.events(game)
    if fmt == "html":
        from ..views.html import game_record

        text = game_record(events, signed=_signed(db, events))
    else:
        from ..records.signing import with_signatures

        text = export_jsonl(events) if fmt == "jsonl" else export_text(events)
        with open_store(db) as store:
            text = with_signatures(store, "game", events, text, fmt)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_output(output, text, f"game {game!r} ({fmt})")


def _signed(db, events) -> str:
    """What the HTML record says of its signature: who signed, or that it is unsigned."""
    from ..records.signing import check_stored

    with open_store(db) as store:
        return check_stored(store, "game", events, None).status


@commands.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A JSON Lines log or a plain-text game record.", show_default=False)],
    allow_incomplete: AllowIncomplete = False,
    db: DbOpt = None,
) -> None:
    """Import a game: verified first; a damaged file is refused with its line number, nothing stored. A
    record cut anywhere (without the game's result) is refused unless --allow-incomplete."""
    from ..games.battle.ending import game_ended, rounds_in
    from ..games.battle.records import import_records
    from ..records.signing import check, refusal, split_record, store_attached
    from . import render

    text, attached = split_record(read_input(file))
    with open_store(db, create=True) as store:
        if attached.signatures or attached.key_changes:  # checked before anything is stored: a forged
            # signature or key change refuses the whole file
            from ..games.battle.records import parse_records

            checked = check("game", parse_records(text)[0], attached.signatures, key_changes=attached.key_changes)
            if checked.problem:
                raise refusal(str(file), checked, attached.lines)
        events = import_records(store, text, allow_incomplete=allow_incomplete)
        store_attached(store, attached)  # its signatures and key changes, checked above
    note = "" if game_ended(events) else f"; incomplete: ends after round {rounds_in(events)} (imported on purpose)"
    render.console.print(f"imported {events[0].game}: {len(events)} events, verified{render.markup(note)}")


@commands.command("what-if")
def what_if(game: GameArg, round_no: RoundArg, sheet: SheetArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Re-run a round with a changed entry and show both outcomes side by side. Nothing is recorded."""
    from ..games.battle.fold import Fold
    from ..games.battle.replay import round_what_if
    from . import render

    with open_store(db) as store:
        fold = Fold.of(store.events(game))
    _played(fold, game, round_no)
    render.what_if(round_what_if(fold, round_no, read_input(sheet)), json_out=json_out)


@commands.command()
def correct(
    game: GameArg,
    round_no: Annotated[int, typer.Argument(min=0, max=5, help="The round (0: the setup facts).", show_default=False)],
    sheet: SheetArg,
    reason: Annotated[str, typer.Option("--reason", help="Why the entry is corrected (the judge's ruling).")],
    table: Annotated[
        bool, typer.Option("--table", help="The file holds the round's table events, not its tokens.")
    ] = False,
    db: DbOpt = None,
) -> None:
    """Record a correction, with its reason: a round's tokens, a round's table events (--table), or the
    whole setup (round 0). Every later round is re-run; the original stays in the log. Prints what to
    change on the physical board now and the new seals."""
    from ..engine.battle import board_changes
    from ..games.battle.service import OpenGame
    from . import render

    text = read_input(sheet)
    with open_store(db) as store:
        log = OpenGame(store, game)
        before, fold = log.state, log.fold
        if round_no == 0:
            if table:
                raise typer.BadParameter("round 0 is the setup: its facts are corrected without --table")
            old = list(fold.setup_lines)
            event = log.correct_setup(text, reason)
            title, new = "Correction of the setup", list(log.fold.setup_lines)
        else:
            _played(fold, game, round_no)
            if table:
                old = list(fold.played(round_no).table)
                event = log.correct_table(round_no, text, reason)
                title, new = f"Correction of round {round_no}'s table events", list(log.fold.played(round_no).table)
            else:
                old = list(fold.played(round_no).lines)
                event, _ = log.correct(round_no, text, reason)
                title, new = f"Correction of round {round_no}", list(log.fold.played(round_no).lines)
        seals = [e.seal for e in log.events[log.events.index(event) :]]
    render.correction(
        f"{title} (event {event.seq})", event.data["reason"], old, new, board_changes(before, log.state), seals
    )


def _played(fold, game: str, round_no: int) -> None:
    last = fold.state.round - 1
    if round_no > last:
        raise RefereeError(f"game {game!r}: round {round_no} has not been played (last: {last})")


@commands.command()
def doctor(
    db: DbOpt = None,
    json_out: JsonOpt = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            metavar="N",
            help="Processes that verify the games side by side (default: one per processor; 1: in this process).",
        ),
    ] = None,
    key: Annotated[
        list[str] | None,
        typer.Option(
            "--key",
            help="Require every closed game signed by this organiser's key: its fingerprint, or a key file.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Check a whole database without writing to it: SQLite's integrity check (PostgreSQL: the referee's
    tables and append-only triggers), then every game verified, its signatures checked (each by a key the
    database declared or received with an imported record; with --key, by that key); exit 1 when anything is
    wrong."""
    from ..doctor import diagnose
    from ..records.signing import read_keys
    from . import render

    found = diagnose(db, jobs=jobs, key=read_keys(key) if key else None)
    render.diagnosis(found, json_out=json_out)
    if not found.ok:
        raise typer.Exit(1)
