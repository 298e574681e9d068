"""Taking back and correcting what was recorded, as new events: the fold's side.

- ``EventRetracted`` takes back the last event in effect (a setup fact, table events, a round not yet
  followed by another, a seal, a correction): the fold is rebuilt from the events still in effect.
- ``TableEventsCorrected`` replaces a resolved round's table events; ``SetupCorrected`` replaces the
  setup facts; both re-run every round after them, as ``EntryCorrected`` does for a round's tokens.
- Setup facts are checked against those already recorded: the same fact twice, or a second count for a
  province that contradicts the first, is refused (running ``setup`` twice doubled every token).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.errors import RefereeError
from ...engine.battle import Board, BoardFact, Clan, GameState, apply_board_facts, new_state, parse_board_line
from ...store.events import Event, ReplayError
from .events import ENDED, EventType
from .lines import Header, Played, play_round, played, read_entries
from .table_lines import apply_table_lines

RETRACTABLE = frozenset(
    {
        EventType.SETUP_RECORDED,
        EventType.TABLE_EVENTS_RECORDED,
        EventType.ROUND_RESOLVED,
        EventType.ENTRY_CORRECTED,
        EventType.OBJECTIVE_SEALED,
        EventType.OBJECTIVE_REVEALED,
        EventType.TABLE_EVENTS_CORRECTED,
        EventType.SETUP_CORRECTED,
    }
)


def describe(e: Event) -> str:
    """An event in the moderator's words: what a retraction takes back."""
    d = e.data
    if e.type == EventType.SETUP_RECORDED:
        return f"setup facts ({'; '.join(d['lines'])})"
    if e.type == EventType.TABLE_EVENTS_RECORDED:
        return f"round {d['round']}'s table events ({'; '.join(d['lines'])})"
    if e.type == EventType.ROUND_RESOLVED:
        return f"round {d['round']} (seal {e.seal})"
    if e.type == EventType.ENTRY_CORRECTED:
        return f"the correction of round {d['round']}'s tokens"
    if e.type == EventType.TABLE_EVENTS_CORRECTED:
        return f"the correction of round {d['round']}'s table events"
    if e.type == EventType.SETUP_CORRECTED:
        return "the correction of the setup"
    if e.type == EventType.OBJECTIVE_SEALED:
        return f"{d['clan']}'s sealed objective"
    if e.type == EventType.OBJECTIVE_REVEALED:
        return f"{d['clan']}'s revealed objective"
    return e.type


def to_retract(live: Sequence[Event]) -> Event:
    """The event a retraction takes back now: the last one in effect (raises when there is none)."""

    last = live[-1] if live else None
    if last is None or last.type == EventType.GAME_CREATED:
        raise ReplayError("nothing to retract: only the game's creation is in effect")
    if last.type == EventType.GAME_ENDED:
        raise ReplayError(ENDED)
    if last.type not in RETRACTABLE:
        raise ReplayError(f"a {last.type} event cannot be retracted")
    return last


def rerun(
    rounds: Sequence[Played],
    board: Board,
    round_no: int,
    lines: tuple[str, ...] | None = None,
    *,
    table: tuple[str, ...] | None = None,
    start: GameState | None = None,
) -> list[Played]:
    """Round ``round_no`` with ``lines`` (its tokens), ``table`` (its table events) or ``start`` (the board
    before it) instead, then every later round as recorded."""
    first = played(rounds, round_no)
    state = start or (first.start if first.start is not None else first.before)
    out: list[Played] = []
    for p in rounds[round_no - 1 :]:
        use = lines if p.round == round_no and lines is not None else p.lines
        events = table if p.round == round_no and table is not None else p.table
        try:
            before, _ = apply_table_lines(state, events, board)
            after, report = play_round(before, read_entries(use, board))
        except RefereeError as exc:
            raise ReplayError(f"round {p.round} cannot be re-run after the change: {exc}") from None
        out.append(Played(p.round, use, before, after, report, events, state))
        state = after
    return out


def reapplied(pending: Sequence[str], resolved: GameState, board: Board, round_no: int) -> tuple[GameState, list[str]]:
    """After a correction: the table events of round ``round_no``, under way, on the corrected board."""
    try:
        return apply_table_lines(resolved, pending, board)
    except RefereeError as exc:
        raise ReplayError(
            f"the table events of round {round_no} cannot be re-applied after the change: {exc}"
        ) from None


# --- setup facts ---------------------------------------------------------------------------------------
def fact_key(f: BoardFact) -> tuple:
    """What one setup fact is about: a second fact about it repeats or contradicts the first."""
    if f.kind in ("control", "special"):
        return (f.kind, f.province)
    if f.kind in ("card", "holds"):
        return ("card", f.territory)
    return (f.kind, f.clan)


_FACTS: dict[str, dict[str, BoardFact]] = {}  # board data version -> line -> fact: every game repeats its setup's


def setup_fact(line: str, board: Board, lineno: int | None = None) -> BoardFact:
    """One setup line parsed: once per board data version, as ``replay._entries`` does for round entries."""
    known = _FACTS.get(board.version)
    if known is None:
        known = _FACTS[board.version] = {}
    fact = known.get(line)
    if fact is None:
        fact = parse_board_line(line, board, lineno)
        if len(known) < 100_000:
            known[line] = fact
    return fact


def check_new_facts(recorded: Sequence[str], lines: Sequence[str], board: Board) -> list[BoardFact]:
    """Refuse a setup fact already recorded, or one contradicting a recorded fact about the same thing;
    the facts of ``lines``, parsed."""

    known = {fact_key(setup_fact(line, board)): line for line in recorded}
    facts = []
    for n, line in enumerate(lines, 1):
        fact = setup_fact(line, board, n)
        key = fact_key(fact)
        if key in known:
            if known[key] == line:
                raise ReplayError(
                    f"line {n}: {line!r} is already recorded (setup facts are recorded once; "
                    "`referee retract` or `referee correct GAME 0 FILE` changes them)"
                )
            raise ReplayError(
                f"line {n}: {line!r} contradicts the recorded {known[key]!r} "
                "(`referee correct GAME 0 FILE` replaces the setup)"
            )
        known[key] = line
        facts.append(fact)
    return facts


def first_foreign(facts: Sequence[BoardFact], clans: Sequence[Clan]) -> int | None:
    """The index of the first fact about a clan not playing in the game (None: every fact is about the game's clans)."""
    return next((i for i, f in enumerate(facts) if f.clan is not None and f.clan not in clans), None)


def setup_board(h: Header, board: Board, lines: Sequence[str]) -> GameState:
    """The board before round 1 with ``lines`` as the whole setup (the game's creation, then the facts)."""

    state = new_state(board, h.clans, options=h.options)
    facts = check_new_facts((), lines, board)
    bad = first_foreign(facts, h.clans)
    state = apply_board_facts(state, facts[:bad])  # a conflict before the foreign fact is refused first
    if bad is not None:
        raise ReplayError(f"line {bad + 1}: {lines[bad]!r}: {facts[bad].clan} is not playing in this game")
    return state
