"""Coverage of the conformance casebook: enough cases, every ruling cited, and every
territory card, secret objective and clan ability checked from both sides.

The card and objective ids come from the shipped board data; the ruling ids are those of RULINGS.md,
listed below (the casebook may cite no id outside it). Cases under referee/data/casebook/disputed/ are not
loaded by the casebook test and do not count here.
"""

import tomllib
from collections import defaultdict
from pathlib import Path

import pytest

from referee.boarddata import raw_board
from referee.scenario import load_cases

CASEBOOK = Path(__file__).parents[2] / "referee" / "data" / "casebook"
CASES = load_cases(CASEBOOK)

# Every ruling id of RULINGS.md (the compliance statement), in its order.
RULING_IDS = [
    "R-01",
    "R-02",
    "R-03",
    "R-04",
    "R-05",
    "R-06",
    "R-07",
    "R-08",
    "R-09",
    "R-10",
    "R-11",
    "R-12",
    "R-13",
    "R-14",
    "R-15",
    "R-16",
    "R-17",
    "R-17a",
    "R-18",
    "R-19",
    "R-20",
    "R-21",
    "R-22",
    "R-23",
    "R-24",
    "R-24a",
    "R-25",
    "R-26",
    "R-17b",
    "R-20a",
    "R-02a",
    "R-18a",
    "R-19a",
    "R-19b",
    "R-11a",
    "R-21a",
    "R-21b",
    "R-06a",
    "R-23a",
    "R-27",
    "R-28",
    "R-07a",
    "R-07b",
    "R-21c",
    "R-21d",
    "R-21e",
    "R-25a",
    "R-27a",
]
CLAN_ABILITIES = {
    "crab": "R-01",
    "crane": "R-02",
    "dragon": "R-03",
    "lion": "R-04",
    "phoenix": "R-05",
    "scorpion": "R-06",
    "unicorn": "R-07",
}
MIN_CASES = 450


def _cited_by() -> dict[str, list]:
    by = defaultdict(list)
    for case in CASES:
        for cite in set(case.cites):
            by[cite].append(case)
    return by


CITED_BY = _cited_by()


def test_the_casebook_holds_at_least_450_cases():
    assert len(CASES) >= MIN_CASES, f"the casebook holds {len(CASES)} cases, fewer than {MIN_CASES}"


def test_disputed_cases_are_not_loaded():
    """referee/data/casebook/disputed/ holds cases the engine does not pass yet: the casebook must not run them."""
    disputed = {
        case["id"]
        for path in (CASEBOOK / "disputed").glob("*.toml")
        for case in tomllib.loads(path.read_text("utf-8")).get("case", [])
    }
    assert disputed, "referee/data/casebook/disputed/ holds no case"
    loaded = disputed & {case.id for case in CASES}
    assert not loaded, f"disputed cases loaded by the casebook: {sorted(loaded)}"


@pytest.mark.parametrize("ruling", RULING_IDS)
def test_every_ruling_is_cited_by_a_case(ruling):
    assert CITED_BY.get(ruling), f"no casebook case cites {ruling}"


def test_every_cited_ruling_is_in_rulings_md():
    cited = {c for case in CASES for c in case.cites if c.startswith("R-")}
    unknown = sorted(cited - set(RULING_IDS))
    assert not unknown, f"cases cite ruling ids RULINGS.md lacks: {unknown}"


def test_every_card_and_objective_cite_names_a_shipped_id():
    known = {f"card:{c}" for c in _card_ids()} | {f"objective:{o}" for o in _objective_ids()}
    cited = {c for case in CASES for c in case.cites if c.startswith(("card:", "objective:"))}
    assert not cited - known, f"unknown card/objective ids cited: {sorted(cited - known)}"


def _card_ids():
    return sorted(card["id"] for card in raw_board()["territory_cards"])


def _objective_ids():
    return sorted(objective["id"] for objective in raw_board()["objectives"])


@pytest.mark.parametrize("card", _card_ids())
def test_every_territory_card_has_a_positive_and_another_case(card):
    cases = CITED_BY.get(f"card:{card}", [])
    assert len(cases) >= 2, f"card:{card} is cited by {len(cases)} case(s)"
    played = [c for c in cases if not (c.expect or {}).get("refused_event")]
    assert played, f"card:{card}: no case where the card's effect is carried out"


@pytest.mark.parametrize("objective", _objective_ids())
def test_every_objective_is_met_in_one_case_and_not_met_in_another(objective):
    cases = CITED_BY.get(f"objective:{objective}", [])
    assert len(cases) >= 2, f"objective:{objective} is cited by {len(cases)} case(s)"
    outcomes = {v for c in cases for v in ((c.expect or {}).get("objective") or {}).values()}
    assert outcomes == {True, False}, f"objective:{objective}: met/not met outcomes checked: {sorted(outcomes)}"


@pytest.mark.parametrize("clan, ruling", sorted(CLAN_ABILITIES.items()))
def test_every_clan_ability_has_two_cases(clan, ruling):
    cases = CITED_BY.get(ruling, [])
    assert len(cases) >= 2, f"{clan}'s ability {ruling} is cited by {len(cases)} case(s)"


@pytest.mark.parametrize("ruling", ["r02a", "r17b", "r18a", "r20a", "r21b"])
def test_a_judge_runs_the_cases_of_a_new_ruling_from_the_command_line(ruling):
    """`referee casebook referee/data/casebook -k r17b`: every case of that ruling runs and passes."""
    from referee.cli.app import app
    from tests.support.entry_point import runner

    expected = sum(ruling in case.id for case in CASES)
    assert expected >= 2, f"fewer than two cases named {ruling}"
    result = runner.invoke(app, ["casebook", str(CASEBOOK), "-k", ruling])
    assert result.exit_code == 0, result.output
    assert f"{expected} passed, 0 failed" in result.output
