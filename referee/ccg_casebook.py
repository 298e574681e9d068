"""The card game's casebook: the cases in referee/data/casebook/l5r-ccg/*.toml, each checked whole when
read (a pydantic schema, as the Battle for Rokugan casebook is) and run against ``referee.ccg``.

The format is documented in ``referee/data/casebook/l5r-ccg/README.md``. ``run_case`` returns the
mismatches between what the case expects and what the rules package decides (empty: the case passes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from . import casebook_files, ccg
from .ccg.model import CcgError, Refused
from .engine import RefereeError

GAME = "l5r-ccg"
FOLDER = GAME  # the card game's cases: this folder of a casebook directory
CITES = ("p.", "pp.", "glossary:", "C-")


class CcgCaseError(RefereeError):
    """A casebook file that cannot be read: names the file, the case and the problem."""


class BattleExpect(casebook_files.Strict):
    decision: Literal["attacker", "defender", "tie", "no outcome"] | None = None
    attacker_force: int | None = None
    defender_force: int | None = None
    province_destroyed: bool | None = None


class DuelExpect(casebook_files.Strict):
    winner: str | None = None  # a player, or "none" for a tie
    losers: list[str] | None = None
    challenger_total: int | None = None
    challenged_total: int | None = None


class Expect(casebook_files.Strict):
    honor: dict[str, int] | None = None
    provinces: dict[str, list[int]] | None = None
    active: str | None = None
    turn: int | None = None
    over: bool | None = None
    winner: str | None = None
    victory: Literal["military", "dishonor", "honor", "enlightenment", "draw"] | None = None
    battle: BattleExpect | None = None
    duel: DuelExpect | None = None
    notes_say: list[str] | None = None
    refused_says: list[str] | None = None
    refused_rule: str | None = None
    deck_legal: bool | None = None
    deck_dynasty: int | None = None
    deck_fate: int | None = None
    deck_problems: list[str] | None = None


class CaseFormat(casebook_files.Strict):
    id: Annotated[str, Field(min_length=1)]
    cites: Annotated[list[str], Field(min_length=1)]
    summary: str = ""
    players: Annotated[list[str], Field(min_length=2, max_length=2)] | None = None
    first: str | None = None
    events: str = ""
    deck: str | None = None
    expect: Expect = Expect()


@dataclass
class Case:
    id: str
    file: str
    cites: list[str]
    summary: str
    players: list[str] | None
    first: str | None
    events: str
    deck: str | None
    expect: dict[str, Any] = field(default_factory=dict)


def load_cases(directory: Path) -> list[Case]:
    return casebook_files.load_folder(directory, load_file, CcgCaseError)


def load_file(path: Path) -> list[Case]:
    out = []
    for where, c in casebook_files.read_file(path, CcgCaseError):
        try:
            case = CaseFormat.model_validate(c)
        except ValidationError as exc:
            raise CcgCaseError(f"{where}: {casebook_files.problem(exc)}") from None
        odd = [x for x in case.cites if not x.startswith(CITES)]
        if odd:
            raise CcgCaseError(f"{where}: cites {odd}: a rulebook page (p./pp.), a glossary entry or a ruling (C-xx)")
        if (case.deck is None) == (case.players is None):
            raise CcgCaseError(f"{where}: a case has either players (a match) or a deck (a decklist)")
        out.append(
            Case(
                case.id,
                path.name,
                case.cites,
                case.summary,
                case.players,
                case.first,
                case.events,
                case.deck,
                case.expect.model_dump(exclude_none=True),
            )
        )
    return out


def run_case(case: Case) -> list[str]:
    try:
        return _run(case)
    except CcgError as exc:  # an expectation naming no player of the match, say
        return [f"cannot be run: {exc}"]


def _run(case: Case) -> list[str]:
    if case.deck is not None:
        return _run_deck(case, case.expect)
    played = _play(case)
    if played.stopped:
        return [played.stopped]
    exp = case.expect
    if "refused_says" in exp or "refused_rule" in exp:
        return _check_refusal(played.refused, exp)
    if played.refused is not None or played.match is None:
        return [f"refused: {played.refused}"]
    problems: list[str] = []
    for check in _MATCH_CHECKS:
        check(problems, played, exp)
    return problems


@dataclass
class _Played:
    """A case's match as its events left it: the last battle and duel fought, every note, and the
    refusal of its last event (a refusal of an earlier one stops the case)."""

    match: ccg.Match | None = None
    refused: CcgError | None = None
    battle: ccg.BattleOutcome | None = None
    duel: ccg.DuelOutcome | None = None
    notes: list[str] = field(default_factory=list)
    stopped: str = ""  # why the case stopped before its last event


def _play(case: Case) -> _Played:
    assert case.players is not None
    lines = [ln for ln in case.events.splitlines() if ln.strip()]
    played = _Played()
    try:
        played.match = ccg.new_match((ccg.parse_player(case.players[0]), ccg.parse_player(case.players[1])), case.first)
        for n, line in enumerate(lines, 1):
            try:
                played.match, outcome = ccg.apply(played.match, ccg.parse_event(line, lineno=n))
            except CcgError as exc:
                if n != len(lines):
                    played.stopped = f"line {n} refused before the last: {exc}"
                    return played
                raise
            played.battle = outcome.battle or played.battle
            played.duel = outcome.duel or played.duel
            played.notes.extend(outcome.notes)
    except CcgError as exc:
        played.refused = exc
    return played


def _check_refusal(refused: CcgError | None, exp: dict[str, Any]) -> list[str]:
    """The last event expected refused: what its refusal says, and the rule it cites."""
    if refused is None:
        return ["expected the last event to be refused; it was taken"]
    problems = [
        f"refusal {str(refused)!r} does not say {s!r}" for s in exp.get("refused_says", []) if s not in str(refused)
    ]
    if "refused_rule" in exp:
        rule = getattr(refused, "rule", None) if isinstance(refused, Refused) else None
        _eq(problems, "refusal rule", rule, exp["refused_rule"])
    return problems


def _check_players(problems: list[str], played: _Played, exp: dict[str, Any]) -> None:
    assert played.match is not None
    match = played.match
    for name, want in exp.get("honor", {}).items():
        _eq(problems, f"honor of {name}", match.player(name).honor, want)
    for name, want in exp.get("provinces", {}).items():
        _eq(problems, f"provinces of {name}", list(match.player(name).provinces), want)


def _check_turn(problems: list[str], played: _Played, exp: dict[str, Any]) -> None:
    assert played.match is not None
    match = played.match
    if "active" in exp:
        _eq(problems, "active player", match.active_player.name, exp["active"])
    if "turn" in exp:
        _eq(problems, "turn", match.turn, exp["turn"])
    if "over" in exp:
        _eq(problems, "over", match.over, exp["over"])


def _check_result(problems: list[str], played: _Played, exp: dict[str, Any]) -> None:
    assert played.match is not None
    result = played.match.result
    if "winner" in exp:
        _eq(problems, "winner", (result.winner or "none") if result else None, exp["winner"])
    if "victory" in exp:
        _eq(problems, "victory", str(result.victory) if result else None, exp["victory"])


def _check_battle(problems: list[str], played: _Played, exp: dict[str, Any]) -> None:
    if "battle" not in exp:
        return
    battle = played.battle
    if battle is None:
        problems.append("no battle was fought")
        return
    got = {
        "decision": str(battle.decision),
        "attacker_force": battle.attacker_force,
        "defender_force": battle.defender_force,
        "province_destroyed": battle.province_destroyed,
    }
    for k, want in exp["battle"].items():
        _eq(problems, f"battle {k}", got[k], want)


def _check_duel(problems: list[str], played: _Played, exp: dict[str, Any]) -> None:
    if "duel" not in exp:
        return
    duel = played.duel
    if duel is None:
        problems.append("no duel was fought")
        return
    got = {
        "winner": duel.winner or "none",
        "losers": list(duel.losers),
        "challenger_total": duel.challenger.total,
        "challenged_total": duel.challenged.total,
    }
    for k, want in exp["duel"].items():
        _eq(problems, f"duel {k}", got[k], want)


def _check_notes(problems: list[str], played: _Played, exp: dict[str, Any]) -> None:
    for s in exp.get("notes_say", []):
        if not any(s in note for note in played.notes):
            problems.append(f"no note says {s!r} (notes: {played.notes})")


# the expectations on a match that was played to its end, in the order their problems are listed
_MATCH_CHECKS = (_check_players, _check_turn, _check_result, _check_battle, _check_duel, _check_notes)


def _run_deck(case: Case, exp: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    try:
        report = ccg.check_deck(ccg.parse_decklist(case.deck or ""))
    except CcgError as exc:
        if "refused_says" not in exp:
            return [f"refused: {exc}"]
        return [f"refusal {str(exc)!r} does not say {s!r}" for s in exp["refused_says"] if s not in str(exc)]
    if "refused_says" in exp:
        return ["expected the decklist to be refused; it was read"]
    if "deck_legal" in exp:
        _eq(problems, "legal", report.legal, exp["deck_legal"])
    if "deck_dynasty" in exp:
        _eq(problems, "Dynasty cards", report.dynasty, exp["deck_dynasty"])
    if "deck_fate" in exp:
        _eq(problems, "Fate cards", report.fate, exp["deck_fate"])
    if "deck_problems" in exp:
        want = exp["deck_problems"]
        for s in want:
            if not any(s in p.message for p in report.problems):
                problems.append(f"no problem says {s!r} (problems: {list(report.problems)})")
        _eq(problems, "number of problems", len(report.problems), len(want))
    return problems


def _eq(problems: list[str], what: str, got: Any, want: Any) -> None:
    if got != want:
        problems.append(f"{what}: expected {want!r}, got {got!r}")
