"""Round identity (R-27): which round a sheet is for, a sheet entered twice, and what another moderator
recorded meanwhile.

A sheet may start with ``round: N``; ``referee round --round N`` says the same. The same sheet entered
again for a round already recorded is that round: nothing new is recorded and its seal is shown. A
sheet for another round than the game's next one is refused with the game's current round. A write
refused because another moderator wrote first is never repeated by itself: the game is read again
and what changed is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine.model.errors import RefereeError
from ..engine.model.tokens import ROUNDS
from ..engine.notation.round import split_round_header


def named_round(option: int | None, header: int | None, where: str) -> int | None:
    """The round the moderator named, by ``--round`` or the sheet's header; both must agree."""
    if option is not None and header is not None and option != header:
        raise RefereeError(f"{where}: --round {option}, but the sheet says 'round: {header}'; nothing recorded (R-27)")
    return option if option is not None else header


@dataclass(frozen=True, slots=True)
class Recorded:
    """One round's entries as the log holds them: the round itself, or a correction of it."""

    round: int
    lines: tuple[str, ...]
    seal: str
    seq: int
    corrected: bool = False


def recorded_rounds(events: Iterable) -> list[Recorded]:
    """The rounds recorded and still in effect: a round taken back by ``retract`` is not a recorded round."""
    from ..log import EventType

    events = list(events)
    retracted = {e.data["seq"] for e in events if e.type == EventType.EVENT_RETRACTED}
    out = []
    for e in events:
        if e.type in (EventType.ROUND_RESOLVED, EventType.ENTRY_CORRECTED) and e.seq not in retracted:
            data = e.data
            out.append(
                Recorded(
                    data["round"], tuple(sorted(data["entries"])), e.seal, e.seq, e.type == EventType.ENTRY_CORRECTED
                )
            )
    return out


def same_sheet(events: Iterable, lines: Sequence[str], round_no: int | None = None) -> Recorded | None:
    """The recorded round whose entries are exactly ``lines`` (canonical, in any order), if any; with
    ``round_no``, only that round. A correction counts: its sheet is that round's too."""
    key = tuple(sorted(lines))
    if not key:
        return None
    for r in recorded_rounds(events):
        if r.lines == key and (round_no is None or r.round == round_no):
            return r
    return None


def last_seal(events: Iterable, round_no: int) -> str | None:
    seals = [r.seal for r in recorded_rounds(events) if r.round == round_no]
    return seals[-1] if seals else None


def changes(events: Sequence) -> list[str]:
    """What the given events did, one line each, in the moderator's words."""
    from ..log import EventType

    out = []
    for e in events:
        try:
            data = e.data
        except RefereeError:
            data = {}
        when = f" at {e.recorded_at[11:19]}" if len(e.recorded_at) >= 19 else ""
        seal = f" (seal {e.seal})"
        if e.type == EventType.ROUND_RESOLVED:
            what = f"round {data.get('round')} resolved with {len(data.get('entries', []))} tokens{seal}"
        elif e.type == EventType.TABLE_EVENTS_RECORDED:
            what = f"round {data.get('round')}: table events: {'; '.join(data.get('lines', []))}{seal}"
        elif e.type == EventType.SETUP_RECORDED:
            what = f"setup: {'; '.join(data.get('lines', []))}{seal}"
        elif e.type == EventType.ENTRY_CORRECTED:
            what = f"round {data.get('round')} corrected ({data.get('reason', '')}){seal}"
        elif e.type == EventType.OBJECTIVE_SEALED:
            what = f"{data.get('clan')}'s secret objective sealed{seal}"
        elif e.type == EventType.OBJECTIVE_REVEALED:
            what = f"{data.get('clan')} revealed {data.get('objective')}{seal}"
        else:
            what = f"{e.type}{seal}"
        out.append(f"event {e.seq}{when}: {what}")
    return out


def where(state) -> str:
    return f"round {state.round}" if state.round <= ROUNDS else "over (five rounds played)"


# --- `referee round`: a sheet, standard input or the prompt ---------------------------------------------
def play(store, game: str, sheet, round_opt: int | None, yes: bool, json_out: bool, no_tokens: bool = False) -> None:
    """Enter a round: the round named or confirmed (R-27), the same sheet twice recorded once, the
    tokens checked with the engine's count, and a write refused because another moderator wrote first
    shown, never repeated."""
    import sys

    from ..engine.notation.round import format_entry
    from ..log import GameChanged, OpenGame
    from . import render
    from .checks import no_tokens_on_purpose
    from .common import read_input
    from .entry import confirm_entry, enter_round, read_round

    log = OpenGame(store, game)
    header, text = split_round_header(read_input(sheet)) if sheet is not None else (None, None)
    want = named_round(round_opt, header, f"game {game!r}")
    current = log.state.round
    if text is not None and _already_recorded(log, game, _lines(text, log, want or current), want, json_out):
        return
    if want is not None and want != current:
        raise RefereeError(
            f"game {game!r}: the sheet is for round {want}, but game {game!r} is at {_where_now(log)}; "
            "nothing recorded (R-27)"
        )
    if log.fold.ended:
        raise RefereeError(
            f"game {game!r}: the game has ended (p.10): only a correction may follow", hint=f"referee score {game}"
        )
    if current > ROUNDS:
        raise RefereeError(f"game {game!r} is over: five rounds were played (p.10)", hint=f"referee score {game}")
    log.check_setup()  # before the tokens are typed: round 1 waits for a complete setup (p.4)
    if text is None:
        text = enter_round(log.state)
        if _already_recorded(log, game, _lines(text, log, current), None, json_out):
            return
    entries = read_round(log.state, text)
    no_tokens_on_purpose(entries, no_tokens, f"game {game!r}, round {current}")
    ask = sheet is None or (not yes and not json_out and sys.stdin.isatty())
    if ask and not confirm_entry(log.state, entries):
        raise RefereeError(f"game {game!r}, round {current}: not confirmed; nothing recorded")
    known = len(log.events)
    try:
        event, state, report = log.record_round(entries)
    except GameChanged:  # the log was read again: show what the other moderator did, never record by itself
        new = log.events[known:]
        for line in [f"another moderator wrote to game {game!r} first:", *(f"  {c}" for c in changes(new))]:
            render.console.print(render.markup(line))
        if same_sheet(new, [format_entry(e) for e in entries], current) is not None:
            _already_recorded(log, game, [format_entry(e) for e in entries], current, json_out)
            return
        raise RefereeError(
            f"game {game!r}, round {current}: another moderator wrote to the game first; nothing of "
            f"yours was recorded; the game is now at {_where_now(log)}",
            hint=f"check the board (referee board {game}) before entering a sheet again",
        ) from None
    render.round_report(report, state, json_out=json_out, seal=event.seal)


def _where_now(log) -> str:
    return f"round {log.state.round}" if log.state.round <= ROUNDS else "the end of round 5"


def _lines(text: str, log, round_no: int) -> list[str]:
    from ..engine.model.errors import NotationError
    from ..log.replay import canonical_lines

    try:
        return list(canonical_lines(text, log.fold.board))
    except NotationError as exc:
        exc.message = f"round {min(round_no, ROUNDS)}: {exc.message}"
        raise


def _already_recorded(log, game: str, lines: list[str], want: int | None, json_out: bool) -> bool:
    """R-27: the same sheet for a recorded round records nothing and shows that round's seal (True);
    another sheet for a recorded round is refused; otherwise False (a new round)."""
    from . import render

    found = same_sheet(log.events, lines, want)
    if found is not None:
        if json_out:
            render.print_json({"round": found.round, "seal": found.seal, "recorded": False})
        else:
            render.console.print(
                f"round {found.round} is already recorded with this same sheet (seal {found.seal}); nothing recorded"
            )
        return True
    if want is not None and want < log.state.round:
        raise RefereeError(
            f"game {game!r}: round {want} is already recorded (seal {last_seal(log.events, want)}) "
            f"with another sheet, and the game is at {_where_now(log)}; nothing recorded (R-27)",
            hint=f"to change a recorded round: referee correct {game} {want} FILE --reason '...'",
        )
    return False
