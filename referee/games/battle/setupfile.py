"""The file given to `referee setup`: every setup-time line, in the order the table did them.

Board facts (the setup notation: control tokens, special tokens, cards, objectives) are recorded as
setup facts; the setup-time table events (`setup: tokens`, `setup: capitals`, `initiative: <clan>`,
`<clan>: starts @ <province>`, and the facts of a game under way: `first_player: <clan>`,
`initiative deck: ...`, `<clan>: discarded ...`) are recorded after them as table events, in order, as
`referee event` records them. A fact written after the first table event is a table event too (the log
takes no setup fact after a table event). A line that belongs to a round (a card played, a pass, a scout,
the Dragon's return...) is refused with the command that takes it. Every unreadable or misplaced line is
reported, one line each with its line number.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.battle import (
    Board,
    NotationError,
    NotUnderstood,
    every_line,
    format_board_fact,
    format_table_event,
    parse_board_line,
    parse_lines,
    parse_table_event,
    round_kind,
)


@dataclass(frozen=True)
class SetupFile:
    facts: tuple[str, ...]  # canonical board facts: recorded as setup facts, first
    events: tuple[str, ...]  # canonical table events: recorded after them, in the file's order


def read_setup_file(text: str, board: Board, *, facts_first: bool = True) -> SetupFile:
    """The file's lines, sorted into setup facts and setup-time table events. ``facts_first`` False: the
    game already has table events, so every fact is recorded as a table event."""
    facts: list[str] = []
    events: list[str] = []

    def one(line: str, n: int) -> None:
        fact = _fact(line, board, n)
        if fact is not None and facts_first and not events:
            facts.append(fact)
            return
        event = parse_table_event(line, board, n) if fact is None else None
        kind = round_kind(event) if event is not None else None
        if event is not None and kind is not None:
            raise NotUnderstood(
                line,
                f"{kind} belongs to a round, not to the setup: record it with "
                f"`referee event GAME {format_table_event(event)!r}` in its round",
                lineno=n,
            )
        events.append(fact if fact is not None else format_table_event(event))  # type: ignore[arg-type]

    every_line(parse_lines(text), one)
    return SetupFile(tuple(facts), tuple(events))


def _fact(line: str, board: Board, n: int) -> str | None:
    try:
        return format_board_fact(parse_board_line(line, board, n))
    except NotationError:
        return None  # not a board fact: read as a table event, whose error is the one reported
