"""What a Battle for Rokugan log is read into, line by line, on the game's board: its header, each round as it
stands (``Played``), the board after a round (``BoardAfter``), and the one way each kind of line is read back
into its canonical form: round entries (sorted, the order every round is recorded in), setup facts and table
events. A round is played one way (``play_round``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ...core.value import value
from ...engine.battle import (
    Board,
    Clan,
    Entry,
    GameState,
    RoundReport,
    RulesOptions,
    begin_round,
    every_line,
    format_board_fact,
    format_entry,
    parse_board_line,
    parse_entry,
    parse_lines,
    parse_round,
    resolve,
    strip_comment,
)
from ...store.events import Event, ReplayError


@dataclass(frozen=True, slots=True)
class Header:
    """The game's header, from its GameCreated event."""

    game: str
    clans: tuple[Clan, ...]
    players: dict[str, str]
    event: str
    table: str
    date: str
    options: RulesOptions
    engine_version: str
    board_version: str
    partial_setup: bool = False  # taken over mid-way: round 1 is not held to the rulebook's setup (p.4)


def header_of(data: dict[str, Any]) -> Header:
    """The header a GameCreated payload records."""
    return Header(
        data["game"],
        tuple(Clan(c) for c in data["clans"]),
        dict(data["players"]),
        data["event"],
        data["table"],
        data["date"],
        RulesOptions.from_dict(data["options"], recorded=True),
        data["engine_version"],
        data["board_version"],
        data.get("partial_setup") is True,
    )


@value
class Played:
    """One round as it stands in the log (after any correction)."""

    round: int
    lines: tuple[str, ...]
    before: GameState  # the board the tokens were resolved on (after the round's table events)
    after: GameState
    report: RoundReport
    table: tuple[str, ...] = ()  # the round's table events (setup, initiative, cards), in order
    start: GameState | None = None  # the board before the round's table events


def played(rounds: Sequence[Played], round_no: int) -> Played:
    """Round ``round_no`` as it stands, or ReplayError when it has not been resolved."""
    if not 1 <= round_no <= len(rounds):
        raise ReplayError(f"round {round_no} has not been resolved (resolved: {len(rounds)})")
    return rounds[round_no - 1]


class Step(NamedTuple):
    event: Event
    state: GameState
    report: RoundReport | None


@dataclass(frozen=True, slots=True)
class BoardAfter:
    """The board after round ``round`` (0: after setup): as the whole log has it (every correction in
    effect), or ``as_recorded``: as it stood when the round was first recorded."""

    round: int
    state: GameState
    played: Played | None  # the round as played then (its tokens, its report); None for round 0
    corrections: tuple[Event, ...] = ()  # the corrections in effect that changed this round or an earlier one
    as_recorded: bool = False

    def note(self) -> str:
        """What the moderator is told: the corrections behind this board, or that it is the original."""
        said = "; ".join(f"corrected in event {e.seq}, reason: {e.data.get('reason', '')}" for e in self.corrections)
        if self.as_recorded:
            return f"as first recorded; later {said}" if said else "as first recorded"
        return said


def canonical_table_lines(lines: str | Iterable[str], board: Board) -> tuple[str, ...]:
    from ...engine.battle import format_table_event, parse_table_event

    items = parse_lines(lines) if isinstance(lines, str) else enumerate(lines, 1)
    return tuple(every_line(items, lambda line, n: format_table_event(parse_table_event(line, board, n))))


def play_round(state: GameState, entries: Sequence[Entry], checked: bool = False) -> tuple[GameState, RoundReport]:
    """Resolve one round, then fix the next upkeep's ronin (R-11): the one way a round is played.
    ``checked``: the entries' placements were already checked on this state (R-08), by the game service.

    ``begin_round`` is idempotent within a round: a round whose upkeep began with table events keeps
    the ronin status fixed then; a round entered with tokens alone begins here."""
    after, report = resolve(begin_round(state), entries, checked=checked)
    return begin_round(after), report


def parsed_entries(entries: str | Iterable[str | Entry], board: Board) -> list[Entry]:
    """Round entries read from a round sheet, lines or parsed entries (those are taken as they are)."""
    if isinstance(entries, str):
        return parse_round(entries, board)
    return every_line(  # every unreadable line reported, not only the first
        ((n, e) for n, e in enumerate(entries, 1) if isinstance(e, Entry) or strip_comment(e)),
        lambda e, n: e if isinstance(e, Entry) else parse_entry(strip_comment(e), board, n),
    )


def canonical_lines(entries: str | Iterable[str | Entry], board: Board, *, ordered: bool = True) -> tuple[str, ...]:
    """Round entries as canonical notation lines, from a round sheet, lines or parsed entries: sorted, the
    order every round is recorded in (``events.ORDERED``); ``ordered=False`` keeps the order given (a record
    written before that order, re-run as it was written)."""
    lines = tuple(format_entry(e) for e in parsed_entries(entries, board))
    return tuple(sorted(lines)) if ordered else lines


def canonical_setup(lines: str | Iterable[str], board: Board) -> tuple[str, ...]:
    raw = lines.splitlines() if isinstance(lines, str) else list(lines)
    items = ((n, strip_comment(line)) for n, line in enumerate(raw, 1) if strip_comment(line))
    return tuple(every_line(items, lambda line, n: format_board_fact(parse_board_line(line, board, n))))


_PARSED: dict[str, dict[str, Entry]] = {}  # board data version -> line -> entry: logs repeat lines


def read_entries(lines: Sequence[str], board: Board) -> list[Entry]:
    """A log's recorded entry lines, parsed once per board data version (logs repeat lines)."""
    parsed = _PARSED.get(board.version)
    if parsed is None:
        parsed = _PARSED[board.version] = {}
    out = []
    for n, line in enumerate(lines, 1):
        entry = parsed.get(line)
        if entry is None:
            entry = parse_entry(line, board, n)
            if len(parsed) < 100_000:
                parsed[line] = entry
        out.append(entry)
    return out
