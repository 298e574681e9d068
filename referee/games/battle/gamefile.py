"""A whole game as one readable text file: setup, then each round's table events and tokens.

    # comments anywhere
    game: cards-game
    clans: crab, dragon, scorpion, unicorn        seat order, clockwise
    options: control_supply_limit=false, ...      optional rules options
    final honor: crab 31, dragon 27, ...          optional: what the game is known to end with

    == setup ==                                   setup events and board facts (table-event notation)
    == round 1 ==                                 the round's table events (upkeep, then placement)
    -- tokens --                                  the round's revealed tokens (round notation)

``read_game`` parses the text (every line through the engine's notations, with its line number);
``play_game`` replays it with the engine: setup events, then per round ``begin_round``, the table
events, ``resolve`` and the next upkeep. Reading a file is the caller's job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import RefereeError
from ...engine.battle import (
    ROUNDS,
    Board,
    Clan,
    Entry,
    GameState,
    NotUnderstood,
    RoundReport,
    RulesOptions,
    TableEvent,
    apply_table_event,
    begin_round,
    new_state,
    parse_clan,
    parse_entry,
    parse_table_event,
    resolve,
    strip_comment,
)


@dataclass
class RoundRecord:
    number: int
    table: list[TableEvent] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)


@dataclass
class GameRecord:
    name: str
    clans: tuple[Clan, ...]
    options: RulesOptions
    setup: list[TableEvent]
    rounds: list[RoundRecord]
    final_honor: dict[Clan, int] | None = None


@dataclass
class PlayedGame:
    state: GameState
    reports: list[RoundReport]
    notes: list[tuple[int, str]]  # (round, note); round 0: setup


def read_game(text: str, board: Board) -> GameRecord:
    headers, raw = _sections(text)
    if "clans" not in headers:
        raise NotUnderstood("", "the game file names its clans: 'clans: crab, lion, ...'")
    n, value = headers["clans"]
    clans = tuple(parse_clan(c, value, n) for c in value.split(","))
    options = _options(headers.get("options"))
    setup = [parse_table_event(line, board, n) for n, line in raw.get(("setup", 0), [])]
    numbers = sorted({k[1] for k in raw if k[0] in ("table", "tokens")})
    if numbers != list(range(1, len(numbers) + 1)) or len(numbers) > ROUNDS:
        raise NotUnderstood("", f"rounds must run 1, 2, ... up to {ROUNDS}; found {numbers}")
    rounds = [
        RoundRecord(
            r,
            [parse_table_event(line, board, n) for n, line in raw.get(("table", r), [])],
            [parse_entry(line, board, n) for n, line in raw.get(("tokens", r), [])],
        )
        for r in numbers
    ]
    final = _final_honor(headers["final honor"]) if "final honor" in headers else None
    return GameRecord(headers.get("game", (0, "game"))[1], clans, options, setup, rounds, final)


Sections = dict[tuple[str, int], list[tuple[int, str]]]


def _sections(text: str) -> tuple[dict[str, tuple[int, str]], Sections]:
    """The file's headers (name: (line, value)) and its numbered lines by section: ("setup", 0), and
    ("table", N) and ("tokens", N) for round N."""
    headers: dict[str, tuple[int, str]] = {}
    section: tuple[str, int] | None = None
    raw: Sections = {}
    for n, line in enumerate(text.splitlines(), start=1):
        line = strip_comment(line)
        if not line:
            continue
        m = re.fullmatch(r"==\s*(setup|round\s+(\d+))\s*==", line, flags=re.I)
        if m:
            section = ("setup", 0) if m.group(2) is None else ("table", int(m.group(2)))
            raw.setdefault(section, [])
        elif re.fullmatch(r"--\s*tokens\s*--", line, flags=re.I):
            if section is None or section[0] != "table":
                raise NotUnderstood(line, "'-- tokens --' belongs inside a '== round N ==' section", lineno=n)
            section = ("tokens", section[1])
            raw.setdefault(section, [])
        elif section is None:
            key, colon, value = line.partition(":")
            if not colon:
                raise NotUnderstood(line, "expected a header 'name: value' or a '== setup ==' section", lineno=n)
            headers[key.strip().lower()] = (n, value.strip())
        else:
            raw[section].append((n, line))
    return headers, raw


def _final_honor(header: tuple[int, str]) -> dict:
    n, value = header
    final = {}
    for part in value.split(","):
        m = re.fullmatch(r"(\S+)\s+(-?\d{1,4})", part.strip())
        if not m:
            raise NotUnderstood(value, f"final honor: expected '<clan> <honor>, ...', got {part.strip()!r}", lineno=n)
        final[parse_clan(m.group(1), value, n)] = int(m.group(2))
    return final


def _options(header: tuple[int, str] | None) -> RulesOptions:
    if header is None:
        return RulesOptions()
    n, value = header
    pairs = {}
    for part in filter(None, (x.strip() for x in value.split(","))):
        name, equals, setting = part.partition("=")
        if not equals:
            raise NotUnderstood(value, f"options: expected 'name=value, ...', got {part!r}", lineno=n)
        pairs[name.strip()] = setting.strip()
    try:
        return RulesOptions.from_dict(pairs)
    except ValueError as exc:
        raise NotUnderstood(value, str(exc), lineno=n) from None


def play_game(record: GameRecord, board: Board) -> PlayedGame:
    """Replay the whole game; a refused event or entry raises with its round."""
    state = new_state(board, record.clans, options=record.options)
    notes: list[tuple[int, str]] = []
    for event in record.setup:
        state, note = apply_table_event(state, event)
        notes.append((0, note))
    reports: list[RoundReport] = []
    for r in record.rounds:
        if state.round != r.number:  # pragma: no cover - read_game numbers the rounds
            raise RefereeError(f"round {r.number} follows round {state.round - 1}")
        state = begin_round(state)
        for event in r.table:
            state, note = apply_table_event(state, event)
            notes.append((r.number, note))
        state, report = resolve(state, r.entries)
        reports.append(report)
        state = begin_round(state)
    return PlayedGame(state, reports, notes)
