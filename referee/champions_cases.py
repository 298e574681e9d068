"""The Champions of Rokugan casebook (``referee/data/casebook/champions/*.toml``): each case a setup
sheet, the table's reports and, if it ends the game, whether the scenario objectives were met; or a
campaign of such plays. ``referee casebook`` runs it with the Battle for Rokugan casebook.

```toml
[[case]]
id = "threshold-worked-example"        # unique, kebab-case
cites = ["p.11"]                       # rulebook pages ("p.N"), rulings ("CR-xx") and the referee's ("CH-xx")
origin = "rulebook alone"              # optional: written from the rulebook alone, by someone who had not
                                       #   read the code (the blind casebook's cases)
as_recorded = true                     # optional: the reports read as a stored record replays them (the forms
                                       #   of older records accepted); otherwise checked as the table enters them
summary = "..."
setup = \"\"\"...\"\"\"                        # a setup sheet (referee/champions/notation.py)
reports = \"\"\"...\"\"\"                      # the table's reports, one a line (optional); or a list of such
                                       #   texts, one report each (each ends the action under way)
end = "met"                            # optional: the game ends, objectives "met" or "missed"
fulfilled = ["Matsu Tsuko: Unbroken Line for 1"]   # optional: the End Objectives `end --fulfilled` names
after_end = \"\"\"...\"\"\"                    # optional: a report after the end (End Objectives only, CH-08)
[case.expect]                          # every key optional; names are the Champions'
threshold = 24                         # the Threshold (after the end, when the case ends the game)
group_honor = 18
turn = 2
favor = "Matsu Tsuko"                  # who holds the Imperial Favor
honor = { "Matsu Tsuko" = 5 }          # on the gauge (after the end: after its Purity adjustment)
glory = { "Matsu Tsuko" = 3 }          # on the track
purity = { "Matsu Tsuko" = 4 }
status = { "Matsu Tsuko" = "eliminated" }
dishonored = { "Bayushi Aramoro" = true }   # the standing (p.14, CR-11)
bonuses = { "Matsu Tsuko" = [3] }      # the Glory track's bonus tokens earned
objectives_shown = { "Togashi Mitsu" = ["Dragon-1 (instant 2)", "hidden (face down)"] }  # as the table sees them
notes_say = ["substring"]              # each found in what the referee said about the reports
refused = "p.16"                       # the LAST report line (or the setup, the end, the report after it) is
refused_says = ["substring"]           #   refused, citing this rule and saying these
final_glory = { "Matsu Tsuko" = -1 }   # end-of-game Glory
victory = false
reasons_say = ["substring"]            # each found in the reasons for a defeat
glorified = ["Matsu Tsuko"]
difference = -2                        # Group Honor minus Threshold (CR-13)
lines_say = ["Matsu Tsuko | glory | -1 Glory per Destiny Point (1) | -1 | p.15, p.32"]   # end-of-game lines
```

A campaign case has ``players`` and ``[[case.play]]`` tables (each a ``setup``, ``reports``, ``end``,
``fulfilled`` and an optional ``game`` id), with ``campaign_end = true`` to end it; it expects ``totals``,
``choosers``, ``logged`` (each play's ``"scenario: victory|defeat, difference D, glory P=G ...,
glorified P, intermission P"``), ``refused``/``refused_says`` (the last play refused).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import casebook_files
from .champions import (
    ChampionsError,
    Ending,
    Scenario,
    add_play,
    apply,
    check_after_end,
    check_can_end,
    check_new_setup,
    check_reported,
    end,
    end_campaign,
    end_of_report,
    log_line,
    new_campaign,
    parse_line,
    parse_setup,
    set_up,
    shown_objectives,
)
from .champions.campaign import Campaign, CampaignResult, Play
from .champions.model import Champion
from .champions.notation import lines
from .engine import RefereeError

CASE_KEYS = {
    "id",
    "cites",
    "summary",
    "origin",
    "as_recorded",
    "setup",
    "reports",
    "end",
    "fulfilled",
    "after_end",
    "expect",
    "players",
    "play",
    "campaign_end",
}
ORIGINS = ("rulebook alone",)  # a case written from the rulebook alone, by someone who had not read the code
EXPECT_KEYS = {
    "threshold",
    "group_honor",
    "turn",
    "honor",
    "glory",
    "purity",
    "status",
    "bonuses",
    "dishonored",
    "favor",
    "objectives_shown",
    "notes_say",
    "refused",
    "refused_says",
    "final_glory",
    "victory",
    "reasons_say",
    "glorified",
    "difference",
    "lines_say",
    "totals",
    "choosers",
    "logged",
}
PLAY_KEYS = {"setup", "reports", "end", "fulfilled", "game"}


class CaseError(RefereeError):
    pass


@dataclass(frozen=True)
class Case:
    id: str
    cites: tuple[str, ...]
    file: str
    data: dict[str, Any]


def load_cases(directory: Path) -> list[Case]:
    cases: list[Case] = []
    seen: set[str] = set()
    for path in casebook_files.files(directory):
        for where, raw in casebook_files.read_file(path, CaseError):
            cid = str(raw.get("id", "?"))
            _check_case(where, raw)
            if cid in seen:
                raise CaseError(f"{where}: the id is used twice")
            seen.add(cid)
            cases.append(Case(cid, tuple(raw["cites"]), str(path), raw))
    return cases


def _check_case(where: str, raw: dict[str, Any]) -> None:
    """A case's keys, its citations, its setup sheet or its plays' (CaseError naming the case otherwise)."""
    unknown = set(raw) - CASE_KEYS
    if unknown:
        raise CaseError(f"{where}: unknown key(s) {sorted(unknown)}")
    if not raw.get("cites") or not all(str(c).startswith(("p.", "CR-", "CH-")) for c in raw["cites"]):
        raise CaseError(f"{where}: cites: pages 'p.N' or rulings 'CR-xx' or 'CH-xx', at least one")
    if "origin" in raw and raw["origin"] not in ORIGINS:
        raise CaseError(f"{where}: origin: {' or '.join(repr(o) for o in ORIGINS)}")
    reports = raw.get("reports", "")
    if not isinstance(reports, str) and not (isinstance(reports, list) and all(isinstance(r, str) for r in reports)):
        raise CaseError(f"{where}: reports: a string (one report) or a list of strings (one report each)")
    if "players" not in raw and not isinstance(raw.get("setup"), str):
        raise CaseError(f"{where}: setup: a setup sheet (a string) is required")
    if "players" in raw and not all(isinstance(p.get("setup"), str) for p in raw.get("play", [])):
        raise CaseError(f"{where}: play: each play needs a setup sheet (a string)")
    bad = set(raw.get("expect", {})) - EXPECT_KEYS
    if bad:
        raise CaseError(f"{where}: expect: unknown key(s) {sorted(bad)}")
    for play in raw.get("play", []):
        if set(play) - PLAY_KEYS:
            raise CaseError(f"{where}: play: unknown key(s) {sorted(set(play) - PLAY_KEYS)}")


def play_scenario(
    setup_text: str,
    reports: str | list[str],
    end_as: str | None,
    *,
    entered: bool = True,
    fulfilled: list[str] | None = None,
    after_end: str = "",
) -> tuple[Scenario, list[str], Ending | None]:
    """Set up, apply every report, end if asked: what the command line does, without a store. ``reports``: one
    report, or a list of them (each ends the action under way, as an ``event`` command does); ``entered``:
    checked as the table enters them (``False``: read as a stored record replays, its older forms accepted);
    ``fulfilled``: the End Objectives `end --fulfilled` reports (``"NAME: OBJECTIVE[ for N]"``); ``after_end``: a
    report after the end (End Objectives only, the settlement made again: CH-08)."""
    scenario = set_up(parse_setup(setup_text))
    if entered:
        check_new_setup(scenario)
    names = tuple(c.name for c in scenario.champions)
    notes: list[str] = []
    for report in [reports] if isinstance(reports, str) else reports:
        for n, line in lines(report):
            try:
                event = parse_line(line, names)
                if entered:
                    check_reported(scenario, event)
                out = apply(scenario, event)
            except ChampionsError as exc:
                refused = ChampionsError(f"report line {n}: {exc.message}")
                refused.rule, refused.line = exc.rule, n  # type: ignore[attr-defined]
                raise refused from None
            scenario = out.scenario
            notes += [str(x) for x in out.notes]
        closed = end_of_report(scenario)
        scenario = closed.scenario
        notes += [str(x) for x in closed.notes]
    ending = None
    if end_as is not None:
        if end_as not in ("met", "missed"):
            raise ChampionsError(f"end {end_as!r}: 'met' or 'missed'")
        for said in fulfilled or []:
            who, _, what = said.partition(":")
            out = apply(scenario, parse_line(f"{who}: completes {what.strip()}", names))
            scenario = out.scenario
            notes += [str(x) for x in out.notes]
        if entered:
            check_can_end(scenario)
        ending = end(scenario, end_as == "met")
        for n, line in lines(after_end):
            try:
                event = parse_line(line, names)
                check_after_end(scenario, event)
                out = apply(scenario, event)
            except ChampionsError as exc:
                refused = ChampionsError(f"after the end, line {n}: {exc.message}")
                refused.rule = exc.rule  # type: ignore[attr-defined]
                raise refused from None
            scenario = out.scenario
            notes += [str(x) for x in out.notes]
            ending = end(scenario, end_as == "met")
        scenario = ending.scenario
    return scenario, notes, ending


def line_text(line: Any) -> str:
    return f"{line.who} | {line.what} | {line.label} | {line.amount:+d} | {line.rule}"


def play_text(p: Play) -> str:
    glory = " ".join(f"{who}={g}" for who, g in p.glory)
    out = f"{p.scenario}: {'victory' if p.victory else 'defeat'}, difference {p.difference}, glory {glory}"
    if p.glorified:
        out += f", glorified {' '.join(p.glorified)}"
    if p.intermission:
        out += f", intermission {' '.join(p.intermission)}"
    return out


def run_case(case: Case) -> list[str]:
    exp = case.data.get("expect", {})
    if "players" in case.data:
        return _run_campaign(case, exp)
    try:
        scenario, notes, ending = play_scenario(
            case.data["setup"],
            case.data.get("reports", ""),
            case.data.get("end"),
            entered=not case.data.get("as_recorded", False),
            fulfilled=case.data.get("fulfilled"),
            after_end=case.data.get("after_end", ""),
        )
    except ChampionsError as exc:
        if "refused" not in exp:
            return [f"refused: {exc.message}"]
        return _scenario_refusal(case, exc, exp)
    if "refused" in exp:
        return [f"expected a refusal citing {exp['refused']}, nothing was refused"]
    problems: list[str] = []
    _check_scenario(problems, scenario, notes, exp)
    if ENDING_KEYS & set(exp) and ending is None:
        return [*problems, "the case expects an ending but has no 'end'"]
    if ending is not None:
        _check_ending(problems, ending, exp)
    return problems


# what a case may expect of its Champions, and how each is read
CHAMPION_KEYS: tuple[tuple[str, Callable[[Champion], object]], ...] = (
    ("honor", lambda c: c.honor),
    ("glory", lambda c: c.glory),
    ("purity", lambda c: c.purity),
    ("status", lambda c: c.status.value),
    ("bonuses", lambda c: list(c.bonuses)),
    ("dishonored", lambda c: c.dishonored),
)
ENDING_KEYS = {"final_glory", "victory", "reasons_say", "glorified", "difference", "lines_say"}


def _scenario_refusal(case: Case, exc: ChampionsError, exp: dict[str, Any]) -> list[str]:
    """An expected refusal of a scenario case: the rule and the words, and that the last report line (or
    the end) was the one refused."""
    problems = _refusal(exc, exp)
    reports = case.data.get("reports", "")
    numbered = lines(reports if isinstance(reports, str) else reports[-1])
    at = getattr(exc, "line", None)
    if at is not None and "end" not in case.data and at != numbered[-1][0]:
        problems.append(f"refused at report line {at}, not at the last line ({numbered[-1][0]})")
    return problems


def _check_scenario(problems: list[str], scenario: Scenario, notes: list[str], exp: dict[str, Any]) -> None:
    """The scenario after the reports (and the end): its values, each Champion's, and the notes."""
    _eq(problems, "threshold", scenario.threshold, exp.get("threshold"))
    _eq(problems, "group_honor", scenario.group_honor, exp.get("group_honor"))
    _eq(problems, "turn", scenario.turn, exp.get("turn"))
    _eq(problems, "favor", scenario.favor, exp.get("favor"))
    by = {c.name: c for c in scenario.champions}
    for key, get in CHAMPION_KEYS:
        for name, want in exp.get(key, {}).items():
            if name not in by:
                problems.append(f"{key}: no Champion {name!r}")
            else:
                _eq(problems, f"{key} of {name}", get(by[name]), want)
    for name, want in exp.get("objectives_shown", {}).items():
        if name in by:
            shown = [str(o["text"]) for o in shown_objectives(by[name], scenario.ended)]
            _eq(problems, f"objectives shown of {name}", shown, want)
    for s in exp.get("notes_say", []):
        if not any(s in n for n in notes):
            problems.append(f"no note says {s!r}; notes: {notes}")


def _check_ending(problems: list[str], ending: Ending, exp: dict[str, Any]) -> None:
    """The end of the game: the final Glory, the result and its reasons, the Glorified, the lines."""
    for name, want in exp.get("final_glory", {}).items():
        _eq(problems, f"final glory of {name}", dict(ending.glory).get(name), want)
    _eq(problems, "victory", ending.victory, exp.get("victory"))
    _eq(problems, "glorified", sorted(ending.glorified), sorted(exp["glorified"]) if "glorified" in exp else None)
    _eq(problems, "difference", ending.difference, exp.get("difference"))
    for s in exp.get("reasons_say", []):
        if not any(s in r for r in ending.reasons):
            problems.append(f"no reason says {s!r}; reasons: {list(ending.reasons)}")
    texts = [line_text(x) for x in ending.lines]
    for s in exp.get("lines_say", []):
        if not any(s in t for t in texts):
            problems.append(f"no end-of-game line says {s!r}; lines: {texts}")


def _run_campaign(case: Case, exp: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    campaign: Campaign = new_campaign(case.id, tuple(case.data["players"]))
    result: CampaignResult | None = None
    plays = case.data.get("play", [])
    try:
        for i, play in enumerate(plays, 1):
            _, _, ending = play_scenario(
                play["setup"],
                play.get("reports", ""),
                play.get("end", "met"),
                entered=not case.data.get("as_recorded", False),
                fulfilled=play.get("fulfilled"),
            )
            assert ending is not None
            campaign = add_play(campaign, log_line(play.get("game", f"{case.id}-{i}"), ending))
        if case.data.get("campaign_end"):
            campaign, result = end_campaign(campaign)
    except ChampionsError as exc:
        if "refused" not in exp:
            return [f"refused: {exc.message}"]
        return _refusal(exc, exp)
    if "refused" in exp:
        return [f"expected a refusal citing {exp['refused']}, nothing was refused"]
    _eq(problems, "totals", dict(campaign.totals()), exp.get("totals"))
    _eq(problems, "logged", [play_text(p) for p in campaign.plays], exp.get("logged"))
    if "choosers" in exp:
        _eq(problems, "choosers", sorted(result.choosers) if result else None, sorted(exp["choosers"]))
    return problems


def _refusal(exc: ChampionsError, exp: dict[str, Any]) -> list[str]:
    """An expected refusal: it cites the rule and says every substring asked."""
    problems = []
    if exp["refused"] not in exc.rule.split(", "):
        problems.append(f"refused citing {exc.rule!r}, expected {exp['refused']!r}: {exc.message}")
    problems += [
        f"refusal does not say {s!r}: {exc.message}" for s in exp.get("refused_says", []) if s not in exc.message
    ]
    return problems


def _eq(problems: list[str], what: str, got: Any, want: Any) -> None:
    if want is not None and got != want:
        problems.append(f"{what}: got {got!r}, expected {want!r}")
