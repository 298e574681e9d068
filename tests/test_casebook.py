"""The conformance casebook: every case in tests/casebook/*.toml, one test each."""

from pathlib import Path

import pytest

from referee.boarddata import load_board
from referee.scenario import load_cases, run_case

CASEBOOK = Path(__file__).parent / "casebook"
CASES = load_cases(CASEBOOK)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case):
    problems = run_case(case, load_board())
    assert not problems, f"{case.file} {case.id} ({', '.join(case.cites)}): " + "; ".join(problems)


def test_every_case_cites_a_ruling_or_page():
    for case in CASES:
        assert all(c.startswith(("R-", "p.", "FAQ", "card:", "objective:")) for c in case.cites), case.id


def test_casebook_is_large_enough():
    assert len(CASES) >= 120, f"the casebook holds {len(CASES)} cases"
