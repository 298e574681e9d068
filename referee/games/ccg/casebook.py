"""The card game's casebook: the cases in referee/data/casebook/l5r-ccg/*.toml, each checked whole when
read (a pydantic schema, as the Battle for Rokugan casebook is) and run against ``referee.engine.ccg``.

The format is documented in ``referee/data/casebook/l5r-ccg/README.md``. ``run_case`` returns the
mismatches between what the case expects and what the rules package decides (empty: the case passes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from ...core import casebook_files
from ...core.errors import RefereeError
from ...engine import ccg
from ...engine.ccg import CcgError, Refused
from ...engine.ccg.court import find
from ..kinds import CCG

GAME = CCG.name
FOLDER = GAME  # the card game's cases: this folder of a casebook directory
CITES = ("p.", "pp.", "glossary:", "C-", "CT-")
BLIND = 152  # the cases written from the rulebook alone are numbered 1 to 152 (``blind``)


class CcgCaseError(RefereeError):
    """A casebook file that cannot be read: names the file, the case and the problem."""


class BattleExpect(casebook_files.Strict):
    decision: Literal["attacker", "defender", "tie", "no outcome"] | None = None
    attacker_force: int | None = None
    defender_force: int | None = None
    province_destroyed: bool | None = None
    bow_and_return: list[str] | None = None  # the attacking Personalities who bow and return home
    stay: list[str] | None = None  # the defending Personalities who stay at the battlefield
    cards_destroyed: dict[str, int] | None = None  # "attacker"/"defender": that army's cards destroyed
    rehonored: list[str] | None = None


class DuelExpect(casebook_files.Strict):
    winner: str | None = None  # a player, or "none" for a tie
    losers: list[str] | None = None
    challenger_total: int | None = None
    challenged_total: int | None = None
    first: str | None = None  # who had the first option to focus or strike
    struck: str | None = None  # who called the strike
    order: list[str] | None = None  # the turns, as the referee says them ("bob focuses 2", "alice strikes")


class PersonalityExpect(casebook_files.Strict):
    bowed: bool | None = None
    dishonorable: bool | None = None
    where: str | None = None  # "home", "attacking 2", "defending 2", "dead", "dishonorably dead"


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
    deck_codes: list[str] | None = None  # each problem's code, in order
    favor: str | None = None  # who controls the Imperial Favor, or "none"
    phase: str | None = None
    used: list[str] | None = None  # the once-a-turn abilities used this turn: "lobby alice", "claim bob"
    personalities: dict[str, PersonalityExpect] | None = None  # "alice Hida Kisada" -> what is known of him
    setup_says: list[str] | None = None  # substrings of what the setup (or the mid-game start) said
    not_played: int | None = None  # lines after the end of the match, not applied (CT-13)


class MidgameFormat(casebook_files.Strict):
    """A match started mid-game (CT-10, CT-11): as ``referee ccg new --turn ...`` takes it."""

    turn: int
    active: str
    favor: str
    phase: str = "straighten"
    used: list[str] | None = None  # "lobby alice", ..., or ["none"]
    rings: list[str] = []
    personalities: list[str] = []


class Refusal(casebook_files.Strict):
    line: str
    says: list[str] = []
    rule: str | None = None


class CaseFormat(casebook_files.Strict):
    id: Annotated[str, Field(min_length=1)]
    cites: Annotated[list[str], Field(min_length=1)]
    summary: str = ""
    blind: Annotated[int, Field(ge=1, le=BLIND)] | None = None  # written from the rulebook alone: its number
    players: Annotated[list[str], Field(min_length=2, max_length=2)] | None = None
    first: str | None = None
    options: list[str] = []
    midgame: MidgameFormat | None = None
    events: str = ""
    deck: str | None = None
    expect: Expect = Expect()
    also_refused: list[Refusal] = []  # lines each refused after the events (the match left as it was)


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
    blind: int | None = None
    options: list[str] = field(default_factory=list)
    midgame: dict[str, Any] | None = None
    also_refused: list[dict[str, Any]] = field(default_factory=list)


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
            raise CcgCaseError(
                f"{where}: cites {odd}: a rulebook page (p./pp.), a glossary entry or a ruling (C-xx, CT-xx)"
            )
        unknown = [x for x in case.cites if x.startswith(("C-", "CT-")) and x not in ccg.RULINGS + ccg.OWN_RULINGS]
        if unknown:
            raise CcgCaseError(f"{where}: cites {unknown}: no such ruling")
        if case.blind is not None and not any(re.search(r"\blines? \d+", x) for x in case.cites):
            raise CcgCaseError(f"{where}: a case written from the rulebook alone cites the rulebook's lines")
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
                case.blind,
                case.options,
                case.midgame.model_dump() if case.midgame else None,
                [r.model_dump() for r in case.also_refused],
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
        return _check_refusal(played.refused, exp) + _check_setup(played, exp)
    if played.refused is not None and not played.not_played or played.match is None:
        return [f"refused: {played.refused}"]
    problems: list[str] = []
    for check in _MATCH_CHECKS:
        check(problems, played, exp)
    for tried in case.also_refused:
        problems.extend(_also_refused(played.match, tried))
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
    setup: list[str] = field(default_factory=list)  # what the setup (or the mid-game start) said
    stopped: str = ""  # why the case stopped before its last event
    not_played: int = 0  # lines after the end of the match (CT-13)


def _start(case: Case) -> tuple[ccg.Match, ccg.Outcome]:
    assert case.players is not None
    players = (ccg.parse_player(case.players[0]), ccg.parse_player(case.players[1]))
    options = ccg.parse_options(case.options)
    if case.midgame is None:
        match = ccg.new_match(players, case.first, options=options)
        return match, ccg.describe_setup(match)
    m = case.midgame
    used = None
    if m["used"] is not None:
        used = tuple(tuple(u.split(None, 1)) for u in m["used"] if u.strip().lower() != "none")
    phase = next((p for p in ccg.Phase if p.label == m["phase"]), None)
    if phase is None:
        raise CcgError(f"phase {m['phase']!r}: one of {', '.join(p.label for p in ccg.Phase)}")
    rings = tuple(e for e in (ccg.parse_event(f"ring {r}") for r in m["rings"]) if isinstance(e, ccg.RingEntered))
    court = tuple((p, ccg.parse_personality(who)) for p, _, who in (x.partition(" ") for x in m["personalities"]))
    state = ccg.Midgame(m["turn"], m["active"], None if m["favor"] == "none" else m["favor"], phase, used, rings, court)  # type: ignore[arg-type]
    return ccg.start_midgame(players, state, options=options)


def _play(case: Case) -> _Played:
    lines = [ln for ln in case.events.splitlines() if ln.strip()]
    played = _Played()
    try:
        played.match, said = _start(case)
        played.setup.extend(said.notes)
        for n, line in enumerate(lines, 1):
            if played.match.result is not None:  # CT-13: the lines after the end are not applied
                played.not_played = len(lines) - n + 1
                played.refused = ccg.Refused(f"the match is over: {played.match.result.reason}", "winning")
                return played
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


def _also_refused(match: ccg.Match, tried: dict[str, Any]) -> list[str]:
    try:
        ccg.apply(match, ccg.parse_event(tried["line"]))
    except CcgError as exc:
        problems = [
            f"{tried['line']!r}: refusal {str(exc)!r} does not say {s!r}" for s in tried["says"] if s not in str(exc)
        ]
        if tried["rule"] is not None:
            rule = exc.rule if isinstance(exc, Refused) else None
            _eq(problems, f"{tried['line']!r}: refusal rule", rule, tried["rule"])
        return problems
    return [f"{tried['line']!r}: expected to be refused; it was taken"]


def _check_setup(played: _Played, exp: dict[str, Any]) -> list[str]:
    return [
        f"the setup does not say {s!r} (it says: {played.setup})"
        for s in exp.get("setup_says", [])
        if not any(s in n for n in played.setup)
    ]


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
    if "phase" in exp:
        _eq(problems, "phase", match.phase.label, exp["phase"])
    if "favor" in exp:
        _eq(problems, "the Imperial Favor", match.favor_holder or "none", exp["favor"])
    if "used" in exp:
        used = sorted(f"{a} {match.players[int(i)].name}" for a, i in (u.rsplit(":", 1) for u in match.used))
        _eq(problems, "used this turn", used, sorted(exp["used"]))
    if "not_played" in exp:
        _eq(problems, "lines not played after the end", played.not_played, exp["not_played"])
    problems.extend(_check_setup(played, exp))


def _check_personalities(problems: list[str], played: _Played, exp: dict[str, Any]) -> None:
    assert played.match is not None
    for key, want in exp.get("personalities", {}).items():
        player, _, title = key.partition(" ")
        who = find(played.match.player(player).court, title)
        if who is None:
            problems.append(f"{key}: the referee knows no such Personality")
            continue
        for k, v in want.items():
            _eq(problems, f"{key} {k}", getattr(who, k), v)


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
    got: dict[str, Any] = {
        "decision": str(battle.decision),
        "attacker_force": battle.attacker_force,
        "defender_force": battle.defender_force,
        "province_destroyed": battle.province_destroyed,
        "bow_and_return": list(battle.bow_and_return),
        "stay": list(battle.stay),
        "cards_destroyed": {side: battle.cards_destroyed(side) for side in ("attacker", "defender")},
        "rehonored": list(battle.rehonored),
    }
    for k, want in exp["battle"].items():
        if k == "cards_destroyed":  # the sides named
            for side, n in want.items():
                _eq(problems, f"battle cards destroyed of the {side}", got[k].get(side), n)
        else:
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
        "first": duel.first,
        "struck": duel.struck,
        "order": [str(s) for s in duel.steps],
    }
    for k, want in exp["duel"].items():
        _eq(problems, f"duel {k}", got[k], want)


def _check_notes(problems: list[str], played: _Played, exp: dict[str, Any]) -> None:
    for s in exp.get("notes_say", []):
        if not any(s in note for note in played.notes):
            problems.append(f"no note says {s!r} (notes: {played.notes})")


# the expectations on a match that was played to its end, in the order their problems are listed
_MATCH_CHECKS = (
    _check_players,
    _check_turn,
    _check_result,
    _check_battle,
    _check_duel,
    _check_notes,
    _check_personalities,
)


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
    if "deck_codes" in exp:
        _eq(problems, "problem codes", [p.code for p in report.problems], exp["deck_codes"])
    return problems


def _eq(problems: list[str], what: str, got: Any, want: Any) -> None:
    if got != want:
        problems.append(f"{what}: expected {want!r}, got {got!r}")
