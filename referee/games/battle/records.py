"""Export and import of a game's log.

- JSON Lines: lossless, one event a line (payload as recorded, chain included).
- The game record: plain text a person can read, like PGN. Headers, then one section per event:

      [Game "friday-t3"]
      [Event "Friday tournament"]
      [Date "2026-11-20"]
      [Table "3"]
      [Clans "crab, crane"]
      [Players "crab: Aiko; crane: Kenji"]
      [Options "crab_faceup_bonus=2; defense_on_cancelled_attack=true; ..."]
      [Engine "1"]
      [Board "2026.11.1"]

      == setup (seal 1A2B-3C4D)
      crab: control 1 facedown @ crab_capital
      == round 1 (seal 5E6F-7A8B)
      crab: army 3 crab_central > neutral_mainland_inland
      == correction of round 1 (seal 9C0D-1E2F)
      reason: "the judge's ruling, as a JSON string"
      crab: army 2 crab_central > neutral_mainland_inland
      == end (seal 3A4B-5C6D)
      result: crab 52, crane 40; winner crab (most honor)

  Other sections: ``== table round N``, ``== sealed objective``, ``== objective``, ``== retraction of
  event N`` (its reason), ``== correction of round N table events`` and ``== correction of setup`` (a
  reason, then the lines). A finished game's record ends with ``== end`` and its result line, like a chess
  record's result: a record without it was cut, or the game is not over (``--allow-incomplete``).

  Importing a record re-runs it with the engine (digests are recomputed) and checks every seal it
  carries; a section without a seal is accepted as written (hand-written records), and `verify` says how
  many sections carried no seal. A record written before 80-bit seals carries 32-bit ones (``XXXX-XXXX``):
  its rounds are re-run in the order written, as they were recorded (``events.ORDERED``).

Import verifies before it stores anything: a damaged file is refused with its line number and the
reason, and the database is left unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from ...core.errors import RefereeError
from ...core.shown import CONTROL
from ...engine.battle import (
    Board,
    NotationError,
    RulesOptions,
    format_board_fact,
    format_entry,
    format_table_event,
    parse_board_line,
    parse_entry,
    parse_table_event,
    state_digest,
    strip_comment,
)
from ...records.jsonl import RecordError, export_jsonl as export_jsonl, parse_jsonl as parse_jsonl
from ...store import events as ev
from ...store.events import Event, LogError
from ...store.storage import Store
from .amend import to_retract
from .ending import check_complete, game_ended_payload, result_line
from .events import (
    EventType,
    entry_corrected,
    game_created,
    objective_revealed,
    objective_sealed,
    round_resolved,
    setup_corrected,
    setup_recorded,
    table_events_corrected,
    table_events_recorded,
)
from .fold import Fold, game_score
from .replay import ReplayError, round_outcome, verify

GOLDEN_GAMES = ("two-player", "four-player", "five-player")
# possessive: a header's text matched in memory linear in its length (a repeated group of one character
# each kept about 170 bytes a character for backtracking)
HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]++|\\.)*+)"\]\s*$')
SECTION = re.compile(
    r"^==\s*(?P<what>setup|sealed\s+objective|objective|end|table\s+round\s+(?P<table>\d+)|round\s+(?P<round>\d+)"
    r"|correction\s+of\s+round\s+(?P<corrected>\d+)(?P<tables>\s+table\s+events)?|correction\s+of\s+setup"
    r"|retraction\s+of\s+event\s+(?P<retracted>\d+))\s*"
    r"(?:\(\s*seal\s+(?P<seal>[0-9A-Za-z]{4}(?:-[0-9A-Za-z]{4}){1,3})\s*\))?\s*$",
    re.IGNORECASE,
)
REASONED = ("correction", "correction-table", "correction-setup", "retraction")
# A record's headers, each at most once: a header the referee does not read, or a second one, would show a reader
# something other than what the record's seals and signature cover
HEADERS = ("Game", "Event", "Date", "Table", "Clans", "Players", "Options", "Engine", "Board", "Setup")


# --- the plain-text game record ---------------------------------------------------------------------
def _no_breaks(text: str) -> str:
    """``text`` on one line, and with nothing a terminal or a viewer would act on: every line break (what
    str.splitlines splits on), control or bidirectional character (``shown.CONTROL``) written ``\\uXXXX``,
    read back by ``_unquote_header`` (a reason by JSON)."""
    return CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _quote(value: str) -> str:
    return _no_breaks(value.replace("\\", "\\\\").replace('"', '\\"'))


def _unquote_header(value: str) -> str:
    return re.sub(r"\\u([0-9a-f]{4})|\\(.)", lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2), value)


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _split(value: str, sep: str) -> list[str]:
    """Split on ``sep`` except where escaped with a backslash; escapes stay for ``_unquote``."""
    parts: list[str] = []
    current, chars = "", iter(value)
    for ch in chars:
        if ch == "\\":
            current += ch + next(chars, "")
        elif ch == sep:
            parts, current = parts + [current], ""
        else:
            current += ch
    return parts + [current] if value else []


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(";", "\\;")


def _option(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def export_text(events: Sequence[Event]) -> str:
    if not events or events[0].type != EventType.GAME_CREATED:
        raise RecordError("a game record starts with the game's GameCreated event")
    h = events[0].data
    headers = {
        "Game": h["game"],
        "Event": h["event"],
        "Date": h["date"],
        "Table": h["table"],
        "Clans": ", ".join(h["clans"]),
        "Players": "; ".join(f"{c}: {_escape(h['players'][c])}" for c in h["clans"] if c in h["players"]),
        "Options": "; ".join(f"{k}={_option(v)}" for k, v in sorted(h["options"].items())),
        "Engine": h["engine_version"],
        "Board": h["board_version"],
    }
    if h.get("partial_setup") is True:
        headers["Setup"] = "partial"
    out = [f'[{k} "{_quote(v)}"]' for k, v in headers.items()]
    fold = Fold() if any(e.type == EventType.GAME_ENDED for e in events) else None
    if fold is not None:
        fold.apply(events[0])
    for e in events[1:]:
        if fold is not None:
            fold.apply(e)
        result = ""
        if e.type == EventType.GAME_ENDED:
            assert fold is not None, "a log holding a GameEnded event is folded as it is written"
            result = result_line(game_score(fold))
        out += ["", *_section(e, result)]
    return "\n".join(out) + "\n"


def _reason(d: dict[str, Any]) -> str:
    return f"reason: {_no_breaks(json.dumps(d['reason'], ensure_ascii=False))}"


def _section(e: Event, result: str = "") -> list[str]:
    d = e.data
    if e.type == EventType.SETUP_RECORDED:
        return [f"== setup (seal {e.seal})", *d["lines"]]
    if e.type == EventType.ROUND_RESOLVED:
        return [f"== round {d['round']} (seal {e.seal})", *d["entries"]]
    if e.type == EventType.ENTRY_CORRECTED:
        reason = _no_breaks(json.dumps(d["reason"], ensure_ascii=False))
        return [f"== correction of round {d['round']} (seal {e.seal})", f"reason: {reason}", *d["entries"]]
    if e.type == EventType.TABLE_EVENTS_RECORDED:
        return [f"== table round {d['round']} (seal {e.seal})", *d["lines"]]
    if e.type == EventType.OBJECTIVE_SEALED:
        return [f"== sealed objective (seal {e.seal})", f"{d['clan']}: commitment {d['commitment']}"]
    if e.type == EventType.OBJECTIVE_REVEALED and not d["objective"]:
        return [f"== objective (seal {e.seal})", f"{d['clan']}: declares not met"]
    if e.type == EventType.OBJECTIVE_REVEALED:
        code = f" code {d['code']}" if d["code"] else ""
        return [f"== objective (seal {e.seal})", f"{d['clan']}: objective {d['objective']}{code}"]
    if e.type == EventType.TABLE_EVENTS_CORRECTED:
        return [f"== correction of round {d['round']} table events (seal {e.seal})", _reason(d), *d["lines"]]
    if e.type == EventType.SETUP_CORRECTED:
        return [f"== correction of setup (seal {e.seal})", _reason(d), *d["lines"]]
    if e.type == EventType.EVENT_RETRACTED:
        return [f"== retraction of event {d['seq']} (seal {e.seal})", _reason(d)]
    if e.type == EventType.GAME_ENDED:
        return [f"== end (seal {e.seal})", result]
    raise RecordError(f"event {e.seq}: a {e.type} event has no place in a game record")


@dataclass
class _Section:
    kind: str  # setup | sealed | objective | table | round | correction
    round: int
    seal: str | None
    lineno: int
    lines: list[tuple[int, str]] = field(default_factory=list)


def _read_text(text: str) -> tuple[dict[str, tuple[str, int]], list[_Section]]:
    headers: dict[str, tuple[str, int]] = {}
    sections: list[_Section] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        m = SECTION.match(line)
        if m:
            sections.append(_section_at(m, n))
        elif sections and sections[-1].kind in REASONED and line.startswith("reason:") and not sections[-1].lines:
            sections[-1].lines.append((n, line))
        elif sections and strip_comment(line):
            sections[-1].lines.append((n, strip_comment(line)))
        elif not sections and line.startswith("["):
            h = HEADER.match(line)
            if not h:
                raise RecordError(f'not a header: expected [Name "value"], got {_cut(line)}', n)
            name = h.group(1)
            if name not in HEADERS:
                shown = name if len(name) <= 40 else f"{name[:40]}..."
                raise RecordError(f"unknown header [{shown}]: a game record's are [{'], ['.join(HEADERS)}]", n)
            if name in headers:
                raise RecordError(f"a second [{name}] header: the first is on line {headers[name][1]}", n)
            headers[name] = (_unquote_header(h.group(2)), n)
        elif strip_comment(line):
            raise RecordError(f"expected a header or a section ('== setup', '== round N'), got {_cut(line)}", n)
    return headers, sections


def _section_at(m: re.Match, n: int) -> _Section:
    """The section a ``== ... ==`` line on line ``n`` opens: its kind, number and seal."""
    kind = m.group("what").split()[0].lower()
    if kind == "correction":
        kind += "-table" if m.group("tables") else "" if m.group("corrected") else "-setup"
    number = m.group("table") or m.group("round") or m.group("corrected") or m.group("retracted") or 0
    return _Section(kind, int(number), ev.typed_seal(m.group("seal")) if m.group("seal") else None, n)


def _cut(line: str, most: int = 80) -> str:
    """A line quoted in an error: its first ``most`` characters (a line may be megabytes long)."""
    return repr(line) if len(line) <= most else f"{line[:most]!r}... ({len(line)} characters)"


def _created(headers: dict[str, tuple[str, int]]) -> tuple[dict[str, Any], int]:
    missing = [k for k in ("Game", "Clans", "Engine", "Board") if k not in headers]
    if missing:
        raise RecordError(f"missing header(s) {', '.join(f'[{k}]' for k in missing)}", 1)
    get = lambda k: headers.get(k, ("", 0))[0]  # noqa: E731
    players: dict[str, str] = {}
    for i, item in enumerate(_split(get("Players"), ";")):
        item = item[1:] if i and item.startswith(" ") else item  # items are joined with "; "
        clan, sep, name = item.partition(": ")
        if not sep:  # hand-written "clan:name"
            clan, sep, name = (x.strip() for x in item.partition(":"))
        if not sep:
            raise RecordError(f"[Players]: expected 'clan: name', got {item.strip()!r}", headers["Players"][1])
        players[clan.strip()] = _unquote(name)
    try:
        raw = dict(o.strip().split("=", 1) for o in _split(get("Options"), ";"))
        typed = RulesOptions.from_dict(raw, recorded=True).to_dict()
        options = {k: typed[k] for k in raw}  # exactly the options recorded, typed
    except ValueError as exc:
        raise RecordError(f"[Options]: {exc}", headers.get("Options", ("", 1))[1]) from None
    clans = [c.strip() for c in get("Clans").split(",") if c.strip()]
    payload = game_created(
        get("Game"),
        clans,
        players,
        options,
        event=get("Event"),
        table=get("Table"),
        date=get("Date"),
        engine_version=get("Engine"),
        board_version=get("Board"),
        partial_setup=get("Setup") == "partial",
    )
    return payload, headers["Game"][1]


def parse_text(text: str, board: Board | None = None) -> tuple[list[Event], list[int]]:
    """Rebuild the log of a game record by re-running it; every seal it carries must match."""
    headers, sections = _read_text(text)
    created, n = _created(headers)
    game = ev.check_game_id(created["game"])
    fold = Fold(board)
    events: list[Event] = []
    lines: list[int] = []
    for sec, (type_, payload) in _payloads(fold, sections, created, n):
        e = ev.chain(game, events[-1] if events else None, type_, payload)
        if sec and sec.seal and not _sealed_by(e, sec.seal) and type_ in ev.ORDERED:
            # a round recorded before the canonical order (payload version 1): re-run as written
            _, old = _section_payload(fold, sec, ordered=False)
            first = e
            e = ev.chain(game, events[-1] if events else None, type_, old, version=1)
            e = e if _sealed_by(e, sec.seal) else first
        try:
            fold.apply(e)
        except ReplayError as exc:
            raise RecordError(*_in_file(exc.problem, sec, n)) from None
        if sec and sec.seal and not _sealed_by(e, sec.seal):
            raise RecordError(
                f"{sec.kind} {sec.round or ''}".rstrip() + f": the record's seal {sec.seal} is not "
                f"the re-run's {e.seal} (the record was altered, or this engine differs)",
                sec.lineno,
            )
        events.append(e)
        lines.append(sec.lineno if sec else n)
    return events, lines


_NTH_LINE = re.compile(r"line (\d+): (.*)", re.S)


def _in_file(problem: str, sec: _Section | None, n: int) -> tuple[str, int]:
    """A replay problem and the record's line it is on. A problem that names the n-th line of its event
    (``line 2: ...``, as a setup check does) names that line of the file instead: one line number, not two."""
    if sec is None:
        return problem, n
    m = _NTH_LINE.match(problem)
    body = [k for k, line in sec.lines if not line.startswith("reason:")]
    if m and 1 <= int(m.group(1)) <= len(body):
        return m.group(2), body[int(m.group(1)) - 1]
    return problem, sec.lineno


def _payloads(fold: Fold, sections: list[_Section], created: dict, n: int):
    yield None, (EventType.GAME_CREATED, created)
    for sec in sections:
        try:
            yield sec, _section_payload(fold, sec)
        except RecordError:
            raise  # it names its own line
        except NotationError as exc:
            raise RecordError(f'"{exc.text}": {exc.problem}', exc.lineno or sec.lineno) from None
        except RefereeError as exc:
            raise RecordError(str(exc), sec.lineno) from None


def _sealed_by(e: Event, seal: str) -> bool:
    """Whether a record's seal is the event's: its 80-bit seal, or the 32-bit one of records written before."""
    return seal == (ev.legacy_seal(e.hash) if ev.is_legacy_seal(seal) else e.seal)


def _section_payload(fold: Fold, sec: _Section, *, ordered: bool = True) -> tuple[str, dict[str, Any]]:
    """The event a record's section stands for, checked against the game so far (``fold``)."""
    plain = _PLAIN.get(sec.kind)
    if plain is not None:
        return plain(fold, sec, ordered)
    reason = _reason_of(sec)
    return _REASONED.get(sec.kind, _entry_correction)(fold, sec, reason, ordered)


def _setup(fold: Fold, sec: _Section, ordered: bool) -> tuple[str, dict[str, Any]]:
    lines = [format_board_fact(parse_board_line(line, fold.board, n)) for n, line in sec.lines]
    return EventType.SETUP_RECORDED, setup_recorded(lines)


def _round(fold: Fold, sec: _Section, ordered: bool) -> tuple[str, dict[str, Any]]:
    if sec.round != fold.state.round:
        raise RecordError(f"round {sec.round} found where round {fold.state.round} comes next", sec.lineno)
    entries = [format_entry(parse_entry(line, fold.board, n)) for n, line in sec.lines]
    canonical, state, report = round_outcome(fold, entries, ordered=ordered)
    return EventType.ROUND_RESOLVED, round_resolved(report.round, canonical, state_digest(state))


def _objective(fold: Fold, sec: _Section, ordered: bool) -> tuple[str, dict[str, Any]]:
    return _objective_payload(sec)


def _table(fold: Fold, sec: _Section, ordered: bool) -> tuple[str, dict[str, Any]]:
    if sec.round != fold.state.round:
        raise RecordError(
            f"table events of round {sec.round} found where round {fold.state.round} comes next", sec.lineno
        )
    lines = [format_table_event(parse_table_event(line, fold.board, n)) for n, line in sec.lines]
    return EventType.TABLE_EVENTS_RECORDED, table_events_recorded(sec.round, lines)


def _end(fold: Fold, sec: _Section, ordered: bool) -> tuple[str, dict[str, Any]]:
    score = game_score(fold)
    if not fold.complete:
        raise RecordError(
            "the game ends here, but it is not complete (five rounds, every objective revealed)", sec.lineno
        )
    expected = result_line(score)
    if len(sec.lines) != 1:
        if not sec.lines:
            raise RecordError(f"the end holds no result line; the re-run's is {expected!r}", sec.lineno)
        n, extra = sec.lines[1]
        raise RecordError(f"the end holds one line, the game's result: {extra!r} follows it", n)
    got = sec.lines[0][1]
    if got != expected:
        raise RecordError(
            f"the end's result line is {got!r}, the re-run's is {expected!r}",
            sec.lines[0][0] if sec.lines else sec.lineno,
        )
    return EventType.GAME_ENDED, game_ended_payload(score)


def _reason_of(sec: _Section) -> str:
    """A correction's or retraction's reason: its first line, ``reason: "..."``."""
    if not sec.lines or not sec.lines[0][1].startswith("reason:"):
        raise RecordError(f'a {sec.kind.split("-")[0]} starts with its reason: reason: "..."', sec.lineno)
    n, first = sec.lines[0]
    try:
        return str(json.loads(first.partition(":")[2]))
    except ValueError:
        raise RecordError('the reason is written as a quoted string: reason: "..."', n) from None


def _retraction(fold: Fold, sec: _Section, reason: str, ordered: bool) -> tuple[str, dict[str, Any]]:
    if len(sec.lines) > 1:
        raise RecordError("a retraction holds only its reason", sec.lines[1][0])
    target = to_retract(fold.live)
    if target.seq != sec.round:
        raise RecordError(f"retracts event {sec.round}, but the last event in effect is event {target.seq}", sec.lineno)
    return EventType.EVENT_RETRACTED, ev.event_retracted(target.seq, target.type, reason)


def _table_correction(fold: Fold, sec: _Section, reason: str, ordered: bool) -> tuple[str, dict[str, Any]]:
    table = tuple(format_table_event(parse_table_event(line, fold.board, m)) for m, line in sec.lines[1:])
    digests = {p.round: state_digest(p.after) for p in fold.rerun(sec.round, table=table)}
    return EventType.TABLE_EVENTS_CORRECTED, table_events_corrected(sec.round, table, reason, digests)


def _setup_correction(fold: Fold, sec: _Section, reason: str, ordered: bool) -> tuple[str, dict[str, Any]]:
    facts = tuple(format_board_fact(parse_board_line(line, fold.board, m)) for m, line in sec.lines[1:])
    start = fold.setup_board(facts)
    digests = {p.round: state_digest(p.after) for p in fold.rerun(1, start=start)} if fold.rounds else {}
    return EventType.SETUP_CORRECTED, setup_corrected(facts, reason, digests)


def _entry_correction(fold: Fold, sec: _Section, reason: str, ordered: bool) -> tuple[str, dict[str, Any]]:
    corrected = tuple(format_entry(parse_entry(line, fold.board, m)) for m, line in sec.lines[1:])
    corrected = tuple(sorted(corrected)) if ordered else corrected
    digests = {p.round: state_digest(p.after) for p in fold.rerun(sec.round, corrected)}
    return EventType.ENTRY_CORRECTED, entry_corrected(sec.round, corrected, reason, digests)


_PLAIN = {"setup": _setup, "round": _round, "sealed": _objective, "objective": _objective, "table": _table, "end": _end}
_REASONED = {
    "retraction": _retraction,
    "correction-table": _table_correction,
    "correction-setup": _setup_correction,
}


def unsealed_sections(text: str) -> tuple[int, int]:
    """How many of a game record's sections carry no seal, of how many: what `verify` says it could not check
    ((0, 0) for a JSON Lines log: each of its events carries its hash)."""
    first = next((line.strip() for line in text.splitlines() if strip_comment(line)), "")
    if first.startswith("{"):
        return 0, 0
    _, sections = _read_text(text)
    return sum(sec.seal is None for sec in sections), len(sections)


OBJECTIVE_LINE = re.compile(
    r"^(\w+):\s*(?:commitment\s+([0-9a-f]{64}|scrypt\$\S+)|objective\s+(\w+)(?:\s+code\s+(\S+))?|(declares\s+not\s+met))$"
)


def _objective_payload(sec: _Section) -> tuple[str, dict[str, Any]]:
    m = OBJECTIVE_LINE.match(sec.lines[0][1]) if len(sec.lines) == 1 else None
    sealed = sec.kind == "sealed"
    if not m or bool(m.group(2)) != sealed:
        form = (
            "<clan>: commitment scrypt$n=...$<salt>$<key> (or 64 hex digits)"
            if sealed
            else "<clan>: objective <objective> [code <code>]"
        )
        raise RecordError(f"expected one line: {form}", sec.lines[0][0] if sec.lines else sec.lineno)
    if sealed:
        return EventType.OBJECTIVE_SEALED, objective_sealed(m.group(1), m.group(2))
    if m.group(5):  # declared not met, the objective never shown
        return EventType.OBJECTIVE_REVEALED, objective_revealed(m.group(1), "", "")
    return EventType.OBJECTIVE_REVEALED, objective_revealed(m.group(1), m.group(3), m.group(4) or "")


# --- import -----------------------------------------------------------------------------------------
def parse_records(text: str, board: Board | None = None) -> tuple[list[Event], list[int]]:
    """Either format, told apart by its first line: ``{`` JSON Lines, ``[`` or ``==`` a game record."""
    first = next((line.strip() for line in text.splitlines() if strip_comment(line)), "")
    if first.startswith("{"):
        return parse_jsonl(text)
    if first.startswith(("[", "==")):
        return parse_text(text, board)
    raise RecordError("neither a JSON Lines log nor a game record (empty, or an unknown format)", 1)


def import_records(
    store: Store, text: str, board: Board | None = None, *, allow_incomplete: bool = True
) -> list[Event]:
    """Parse, verify, and only then store: the whole file or nothing. Without ``allow_incomplete`` a record
    must end with the game's closing event (a record cut anywhere is refused)."""
    events, lines = parse_records(text, board)
    if not events:
        raise RecordError("the file holds no events")
    found = verify(events, board)
    if found:
        raise RecordError(str(found), lines[found.index])
    if not allow_incomplete:
        check_complete(events)
    store.import_logs([events])
    return events


# --- copies -----------------------------------------------------------------------------------------
def relabel(events: Sequence[Event], game: str) -> list[Event]:
    """The same game under another id: payloads kept, the chain and seals computed anew."""
    ev.check_game_id(game)
    items = [
        (e.type, {**e.payload, "game": game} if e.type == EventType.GAME_CREATED else e.payload, e.payload_version)
        for e in events
    ]
    return [
        replace(new, recorded_at=old.recorded_at) for new, old in zip(ev.chain_all(game, items), events, strict=True)
    ]


def golden(name: str) -> list[Event]:
    """One of the bundled complete games (``GOLDEN_GAMES``), as recorded."""
    if name not in GOLDEN_GAMES:
        raise LogError(f"no bundled game {name!r} (bundled: {', '.join(GOLDEN_GAMES)})")
    text = resources.files("referee").joinpath(f"data/games/{name}.jsonl").read_text("utf-8")
    return parse_jsonl(text)[0]
