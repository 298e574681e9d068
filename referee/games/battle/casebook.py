"""Casebook scenarios: data-driven rule cases in TOML, each citing the ruling or page it checks.

The format is documented in ``referee/data/casebook/README.md``. ``run_case`` returns the list of
mismatches between what the case expects and what the engine decides (empty: the case passes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, ValidationError

from ...core import casebook_files
from ...core.errors import RefereeError
from ...engine.battle import (
    Board,
    Clan,
    EntriesRefused,
    EventRefused,
    GameOver,
    GameState,
    RoundReport,
    RulesOptions,
    apply_board_fact,
    apply_table_event,
    begin_round,
    describe_inventory,
    final_score,
    format_entry,
    new_state,
    objective_met,
    parse_board_line,
    parse_entry,
    parse_lines,
    parse_table_event,
    resolve,
)


class ScenarioError(RefereeError):
    """A scenario file that cannot be read: names the file, the case and the problem."""


# --- the format, checked whole at load time (referee/data/casebook/README.md) ----------------------------------
if TYPE_CHECKING:
    ClanName = str  # checked at run time against the clans below
else:
    ClanName = Literal[tuple(c.value for c in Clan)]
Texts = str | list[str]  # one substring, or several
Count = Annotated[int, Field(ge=0, le=100)]


class Expect(casebook_files.Strict):
    """What a case may expect; every key optional, each of one type."""

    refused: list[str] | None = None
    refused_says: Texts | None = None
    control: dict[str, str] | None = None
    faceup: dict[str, Count] | None = None
    facedown: dict[str, Count] | None = None
    special: dict[str, str] | None = None
    fate: dict[str, str] | None = None
    ruling: dict[str, str] | None = None
    reason_says: dict[str, Texts] | None = None
    winner: dict[str, str] | None = None
    no_battle: list[str] | None = None
    attack: dict[str, dict[str, int]] | None = None
    defence: dict[str, int] | None = None
    raids: dict[str, Literal["triggered", "no effect"]] | None = None
    peace: list[str] | None = None
    defenses: list[str] | None = None
    cards: dict[str, list[str]] | None = None
    returned: list[str] | None = None
    honor: dict[str, int] | None = None
    objective: dict[ClanName, bool] | None = None
    winners: list[str] | None = None
    ronin: list[str] | None = None
    warnings: Texts | None = None
    round: int | None = None
    # the table events (``table``): initiative, cards, token inventory
    refused_event: str | None = None
    refused_event_says: Texts | None = None
    note_says: Texts | None = None
    first_player: str | None = None
    turn_order: list[str] | None = None
    deck: list[str] | None = None
    discard: dict[ClanName, list[str]] | None = None
    hand: dict[ClanName, list[str]] | None = None
    available: dict[ClanName, dict[str, int]] | None = None
    supply: dict[ClanName, int] | None = None
    cards_played: list[str] | None = None
    scouts: dict[ClanName, int] | None = None
    shugenja: dict[ClanName, int] | None = None
    ronin_after: list[str] | None = None


class CaseFormat(casebook_files.Strict):
    id: Annotated[str, Field(min_length=1)]
    cites: Annotated[list[str], Field(min_length=1)]
    summary: str = ""
    clans: Annotated[list[ClanName], Field(min_length=1, max_length=5)]
    round: Annotated[int, Field(ge=1, le=6)] = 1  # 6: the track after the fifth round (R-27a cases)
    options: dict[str, Any] = {}
    board: str = ""
    table: str = ""
    entries: str | None = None
    expect: Expect = Expect()


CASE_KEYS = set(CaseFormat.model_fields)
EXPECT_KEYS = set(Expect.model_fields)


@dataclass
class Case:
    id: str
    file: str
    cites: list[str]
    summary: str
    clans: tuple[Clan, ...]
    round: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    board: str = ""
    entries: str | None = None
    expect: dict[str, Any] = field(default_factory=dict)
    table: str = ""


def load_cases(directory: Path) -> list[Case]:
    return casebook_files.load_folder(directory, load_file, ScenarioError)


def load_file(path: Path) -> list[Case]:
    """Read one casebook file: every field is checked for its type here, so a malformed case is a
    clear ScenarioError naming the file, the case and the field, never a crash later."""
    out = []
    for where, c in casebook_files.read_file(path, ScenarioError):
        unknown = set(c) - CASE_KEYS
        if unknown:
            raise ScenarioError(f"{where}: unknown key(s) {sorted(unknown)}")
        bad = set(c["expect"]) - EXPECT_KEYS if isinstance(c.get("expect"), dict) else set()
        if bad:
            raise ScenarioError(f"{where}: unknown expectation(s) {sorted(bad)}")
        try:
            case = CaseFormat.model_validate(c)
            RulesOptions.from_dict(case.options)
        except ValidationError as exc:
            raise ScenarioError(f"{where}: {casebook_files.problem(exc)}") from None
        except ValueError as exc:  # an unknown rules option, or a value it does not take
            raise ScenarioError(f"{where}: options: {exc}") from None
        out.append(
            Case(
                case.id,
                path.name,
                case.cites,
                case.summary,
                tuple(Clan(x) for x in case.clans),
                case.round,
                case.options,
                case.board,
                case.entries,
                case.expect.model_dump(exclude_none=True),
                case.table,
            )
        )
    return out


def build_state(case: Case, board: Board) -> GameState:
    """The board facts; without table events, the round's upkeep begins at once (ronin, R-11)."""
    state = new_state(board, case.clans, options=RulesOptions.from_dict(case.options), round=case.round)
    for n, line in parse_lines(case.board):
        state = apply_board_fact(state, parse_board_line(line, board, n))
    return state if case.table.strip() else begin_round(state)


def play_table(case: Case, state: GameState, board: Board, problems: list[str]) -> tuple[GameState, list[str], bool]:
    """Apply the case's table events in order. Returns the state, the notes, and whether the case
    is over (a refusal, expected or not, stops it)."""
    exp = case.expect
    lines = list(parse_lines(case.table))
    notes: list[str] = []
    for i, (n, line) in enumerate(lines):
        event = parse_table_event(line, board, n)
        try:
            state, note = apply_table_event(state, event)
            notes.append(note)
        except EventRefused as refused:
            if "refused_event" not in exp:
                problems.append(f"table line {n} was refused: {refused}")
            elif i != len(lines) - 1:
                problems.append(f"expected the last table line to be refused, but line {n} was: {refused}")
            else:
                _eq(problems, "refusal ruling", refused.ruling, exp["refused_event"])
                for text in _as_list(exp.get("refused_event_says")):
                    if text not in str(refused):
                        problems.append(f"refusal message lacks {text!r}: {refused}")
            return state, notes, True
    if "refused_event" in exp:
        problems.append("expected the last table line to be refused, but it was accepted")
        return state, notes, True
    for text in _as_list(exp.get("note_says")):
        if not any(text in note for note in notes):
            problems.append(f"no note mentions {text!r}: {notes}")
    return begin_round(state), notes, False


def run_case(case: Case, board: Board) -> list[str]:
    """Mismatches between the case's expectations and the engine (empty list: pass)."""
    state = build_state(case, board)
    exp = case.expect
    entries = [parse_entry(line, board, n) for n, line in parse_lines(case.entries or "")]
    problems: list[str] = []
    if case.table.strip():
        state, _, over = play_table(case, state, board, problems)
        _check_table(problems, state, exp)
        if over:
            return problems
    if "ronin" in exp:
        _eq(problems, "ronin", sorted(state.ronin), sorted(exp["ronin"]))
    if "refused" in exp:
        try:
            resolve(state, entries)
        except (EntriesRefused, GameOver) as refused:
            rulings = sorted(
                {r.ruling for r in refused.refusals} if isinstance(refused, EntriesRefused) else {refused.ruling}
            )
            _eq(problems, "refused rulings", rulings, sorted(set(exp["refused"])))
            for text in _as_list(exp.get("refused_says")):
                if text not in str(refused):
                    problems.append(f"refusal message lacks {text!r}: {refused}")
            return problems
        return problems + ["expected the entries to be refused (R-08), but they were accepted"]
    report: RoundReport | None = None
    if case.entries is not None:
        state, report = resolve(state, entries)
    _check_board(problems, state, exp)
    _check_inventory(problems, state, exp)
    if report is not None:
        _check_report(problems, report, state.board, exp)
    _check_score(problems, state, exp)
    return problems


def _check_board(problems: list[str], state: GameState, exp: dict) -> None:
    for p, want in exp.get("control", {}).items():
        _eq(problems, f"control of {p}", str(state.controller(p) or "none"), want)
    for p, want in exp.get("faceup", {}).items():
        c = state.control.get(p)
        _eq(problems, f"faceup control tokens in {p}", c.faceup if c else 0, want)
    for p, want in exp.get("facedown", {}).items():
        c = state.control.get(p)
        _eq(problems, f"facedown control tokens in {p}", c.facedown if c else 0, want)
    for p, want in exp.get("special", {}).items():
        s = state.special.get(p)
        _eq(problems, f"special token in {p}", str(s) if s else "none", want)
    if "cards" in exp:
        held = {str(c): sorted(t for t, _ in v) for c, v in state.cards_held.items() if v}
        want = {c: sorted(v) for c, v in exp["cards"].items() if v}
        _eq(problems, "territory cards held", held, want)
    if "round" in exp:
        _eq(problems, "round track", state.round, exp["round"])
    if "ronin_after" in exp:  # status fixed at the start of the next upkeep
        _eq(
            problems, "ronin at the next upkeep", sorted(map(str, begin_round(state).ronin)), sorted(exp["ronin_after"])
        )


def _check_table(problems: list[str], state: GameState, exp: dict) -> None:
    """Expectations on the table's state after the table events (before any entries are resolved)."""
    if "first_player" in exp:
        _eq(problems, "first player", str(state.first_player), exp["first_player"])
    if "turn_order" in exp:
        _eq(problems, "turn order", [str(c) for c in state.turn_order()], exp["turn_order"])
    if "deck" in exp:
        deck = state.initiative
        got = sorted(list(map(str, deck.clans)) + ["neutral"] * deck.neutrals) if deck else "not recorded"
        _eq(problems, "initiative deck", got, sorted(exp["deck"]))
    if "cards_played" in exp:
        _eq(problems, "cards played", sorted(state.cards_played), sorted(exp["cards_played"]))
    for clan, want in exp.get("scouts", {}).items():
        _eq(problems, f"{clan} scout cards left", state.cards_left.scouts(Clan(clan)), want)
    for clan, want in exp.get("shugenja", {}).items():
        _eq(problems, f"{clan} shugenja cards left", state.cards_left.shugenja(Clan(clan)), want)


def _check_inventory(problems: list[str], state: GameState, exp: dict) -> None:
    """Token inventory after everything (R-08) and the control-token supply (R-26)."""
    for key in ("discard", "hand"):
        for clan, want in exp.get(key, {}).items():
            _eq(problems, f"{clan} {key}", describe_inventory(state, Clan(clan))[key], sorted(want))
    for clan, tokens in exp.get("available", {}).items():
        got = describe_inventory(state, Clan(clan))["available"]
        for token, want in tokens.items():
            _eq(problems, f"{clan} {token} available", got.get(token, 0), want)
    for clan, want in exp.get("supply", {}).items():
        _eq(problems, f"{clan} control-token supply", state.control_supply(Clan(clan)), want)


def _check_report(problems: list[str], report: RoundReport, board: Board, exp: dict) -> None:
    """Expectations on the round's report: the entries' fates, the battles, what followed, the warnings."""
    _check_fates(problems, report, board, exp)
    _check_battles(problems, report, exp)
    _check_aftermath(problems, report, exp)
    _check_warnings(problems, report, exp)


def _check_fates(problems: list[str], report: RoundReport, board: Board, exp: dict) -> None:
    """Each entry named (loosely, through the parser): its fate, its ruling, its reason."""
    by_line = {format_entry(f.entry): f for f in report.fates}
    for line, want in exp.get("fate", {}).items():
        f = by_line.get(_canon(line, board))
        _eq(problems, f"fate of {line!r}", str(f.fate) if f else "missing", want)
    for line, want in exp.get("ruling", {}).items():
        f = by_line.get(_canon(line, board))
        _eq(problems, f"ruling for {line!r}", f.ruling if f else "missing", want)
    for line, texts in exp.get("reason_says", {}).items():
        f = by_line.get(_canon(line, board))
        for text in _as_list(texts):
            if not f or text not in f.reason:
                problems.append(f"reason for {line!r} lacks {text!r}: {f.reason if f else 'missing'}")


def _check_battles(problems: list[str], report: RoundReport, exp: dict) -> None:
    """Each province's battle: its winner, none, the attackers' and the defence's totals."""
    for p, want in exp.get("winner", {}).items():
        b = report.battle_at(p)
        _eq(problems, f"battle winner in {p}", (str(b.winner) if b.winner else "none") if b else "no battle", want)
    for p in exp.get("no_battle", []):
        b = report.battle_at(p)
        if b:
            problems.append(f"expected no battle in {p}, got one: {b.why}")
    for p, sides in exp.get("attack", {}).items():
        b = report.battle_at(p)
        got = {str(s.clan): s.total for s in b.attackers} if b else "no battle"
        _eq(problems, f"attack totals in {p}", got, sides)
    for p, want in exp.get("defence", {}).items():
        b = report.battle_at(p)
        _eq(problems, f"defence total in {p}", b.defence_total if b else "no battle", want)


def _raids(report: RoundReport) -> dict[str, str]:
    """Each raided province: "triggered" if any raid there was, else "no effect"."""
    raids: dict[str, str] = {}
    for r in report.raids:
        raids[r.province] = "triggered" if r.triggered or raids.get(r.province) == "triggered" else "no effect"
    return raids


def _check_aftermath(problems: list[str], report: RoundReport, exp: dict) -> None:
    """What the round left: raids, peace, successful defenses, territory cards returned."""
    if "raids" in exp:
        _eq(problems, "raids", _raids(report), exp["raids"])
    if "peace" in exp:
        _eq(problems, "provinces made peaceful", sorted(report.peace), sorted(exp["peace"]))
    if "defenses" in exp:
        _eq(problems, "successful defenses", sorted(d.province for d in report.defenses), sorted(exp["defenses"]))
    if "returned" in exp:
        _eq(
            problems,
            "territory cards returned",
            sorted(c.territory for c in report.claims if c.action == "returned"),
            sorted(exp["returned"]),
        )


def _check_warnings(problems: list[str], report: RoundReport, exp: dict) -> None:
    if "warnings" in exp and not _as_list(exp["warnings"]):  # `warnings = []`: the report has none
        _eq(problems, "warnings", list(report.warnings), [])
    for text in _as_list(exp.get("warnings")):
        if not any(text in w for w in report.warnings):
            problems.append(f"no warning mentions {text!r}: {list(report.warnings)}")


def _check_score(problems: list[str], state: GameState, exp: dict) -> None:
    if "honor" in exp or "winners" in exp:
        final = final_score(state)
        totals = {str(s.clan): s.total for s in final.scores}
        for clan, want in exp.get("honor", {}).items():
            _eq(problems, f"honor of {clan}", totals.get(clan), want)
        if "winners" in exp:
            _eq(problems, "winners", sorted(map(str, final.winners)), sorted(exp["winners"]))
    for clan, want in exp.get("objective", {}).items():
        objective = state.objectives.get(Clan(clan))
        if objective is None:
            problems.append(f"{clan} has no objective on the board (add '{clan}: objective <id>')")
        else:
            _eq(problems, f"{clan} objective {objective} met", objective_met(state, Clan(clan), objective), want)


def _canon(line: str, board: Board) -> str:
    """Expectation keys may be written loosely (prefixes, case); match them through the parser."""
    try:
        return format_entry(parse_entry(line, board))
    except RefereeError:
        return line


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _eq(problems: list[str], what: str, got: Any, want: Any) -> None:
    if got != want:
        problems.append(f"{what}: expected {want!r}, got {got!r}")
