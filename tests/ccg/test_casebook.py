"""The card game's casebook: every case of referee/data/casebook/l5r-ccg/*.toml, one test each, and its
coverage of the rules (each rule cited by a case)."""

from pathlib import Path

import pytest

from referee.ccg_casebook import CcgCaseError, load_cases, load_file, run_case

CASEBOOK = Path(__file__).parents[2] / "referee" / "data" / "casebook" / "l5r-ccg"
CASES = load_cases(CASEBOOK)
RULINGS = Path(__file__).parents[4] / "shared" / "rules" / "RULINGS-L5R-CCG.md"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case):
    problems = run_case(case)
    assert not problems, f"{case.file} {case.id} ({', '.join(case.cites)}): " + "; ".join(problems)


@pytest.mark.parametrize(
    "cite, words",
    [  # the "Done when" of the issue: every rule cited, by rulebook page or glossary entry
        ("pp.49-66 Resolution Segment", ["attacker-wins", "province-destroyed", "exactly-equal", "tie", "empty-side"]),
        ("glossary: duel", ["higher-total-wins", "tie-both-lose"]),
        (
            "pp.49-66 Winning the Game",
            ["military", "dishonor-victory-at-any-time", "honor-victory-at-the-start", "enlightenment"],
        ),
        ("C-03", ["start-of-turn"]),
        ("C-01", ["both-at-once-is-a-draw"]),
        ("p.67 Deck Construction", ["deck-legal", "every-problem"]),
    ],
)
def test_every_rule_of_the_issue_has_a_case_citing_its_page(cite, words):
    for word in words:
        assert any(cite in c.cites and word in c.id for c in CASES), (cite, word)


def test_every_ruling_cited_is_a_ruling():
    import re

    known = {f"C-{n:02d}" for n in range(1, 11)}
    if RULINGS.exists():  # the project's rules folder, beside the repository
        known = set(re.findall(r"^- (C-\d\d)", RULINGS.read_text(), re.M))
    for case in CASES:
        for cite in case.cites:
            if cite.startswith("C-"):
                assert cite in known, (case.id, cite)


def test_a_malformed_case_is_a_clear_error(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('[[case]]\nid = "x"\ncites = ["p.67"]\nplayers = ["a: honor 1, strength 1, gold 1"]\n')
    with pytest.raises(CcgCaseError) as refused:
        load_file(path)
    assert "x.toml, case x: players: list should have at least 2 items" in str(refused.value)
    path.write_text('[[case]]\nid = "x"\ncites = ["page 3"]\ndeck = ""\n')
    with pytest.raises(CcgCaseError, match="a rulebook page"):
        load_file(path)
    path.write_text('[[case]]\nid = "x"\ncites = ["p.67"]\ndeck = ""\ncolour = 1\n')
    with pytest.raises(CcgCaseError, match="colour"):
        load_file(path)
