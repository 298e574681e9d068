"""The conformance casebook: every case in referee/data/casebook/*.toml, one test each."""

from pathlib import Path

import pytest

from referee.boarddata import load_board
from referee.scenario import load_cases, run_case

CASEBOOK = Path(__file__).parents[2] / "referee" / "data" / "casebook"
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


# --- the reader: a malformed case is refused at load time, naming the file, the case and the field ------
BASE = '[[case]]\nid = "x"\ncites = ["p.9"]\nclans = ["crab", "lion"]\n'


@pytest.mark.parametrize(
    "text, says",
    [
        (
            '[[case]]\nid = "x"\ncites = ["p.9"]\nclans = true\n',
            "case x: clans: input should be a valid list (found True)",
        ),
        (BASE + 'round = "x"\n', "case x: round: input should be a valid integer (found 'x')"),
        (BASE + "round = 9\n", "case x: round: input should be less than or equal to 6 (found 9)"),
        (
            BASE + "[case.expect]\ncontrol = true\n",
            "case x: expect.control: input should be a valid dictionary (found True)",
        ),
        (
            BASE + "[case.expect]\nsupply = { nobody = 3 }\n",
            "case x: expect.supply.nobody.[key]: input should be 'crab', ",
        ),
        ("case = 5\n", "cases.toml: case: input should be a valid list (found 5); cases are [[case]] tables"),
        (BASE + "options = { rab_faceup_bonus = 2 }\n", "case x: options: unknown rules option 'rab_faceup_bonus'"),
        (BASE + 'colour = "red"\n', "case x: unknown key(s) ['colour']"),
    ],
)
def test_a_malformed_case_is_a_clear_error(tmp_path, text, says):
    from referee.scenario import ScenarioError, load_file

    path = tmp_path / "cases.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as refused:
        load_file(path)
    assert str(refused.value).startswith("cases.toml") and says in str(refused.value)
