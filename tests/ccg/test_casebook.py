"""The card game's casebook: every case of referee/data/casebook/l5r-ccg/*.toml, one test each, and its
coverage: the rules of the battles, duels and victories and of the turn's actions each cited by a case; the
cases written from the rulebook alone (`blind`) cover that casebook but for the steps the referee leaves to
the table (CT-15); every ruling cited is one, and every one of the referee's own rulings (CT-xx) is cited."""

from pathlib import Path

import pytest

from referee.engine.ccg import OWN_RULINGS
from referee.engine.ccg.rules import RULINGS
from referee.games.ccg.casebook import CcgCaseError, load_cases, load_file, run_case

CASEBOOK = Path(__file__).parents[2] / "referee" / "data" / "casebook" / "l5r-ccg"
CASES = load_cases(CASEBOOK)


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
    """A case cites the rulings of RULINGS-L5R-CCG.md (C-01 to C-10, the ids the engine accepts) or the referee's
    own, each of those printed by `referee ccg rules` and cited by a case."""
    from referee.games.battle.rulings import card_game_rulings

    known = set(RULINGS)
    own = {r.id for r in card_game_rulings()}
    assert own == set(OWN_RULINGS)  # the ids the code knows are the document's
    for case in CASES:
        for cite in case.cites:
            if cite.startswith("C-"):
                assert cite in known, (case.id, cite)
            if cite.startswith("CT-"):
                assert cite in own, (case.id, cite)
    cited = {cite for case in CASES for cite in case.cites}
    assert own <= cited, f"rulings no case cites: {sorted(own - cited)}"


# the cases of the casebook written from the rulebook alone that have no case here: what they check is the
# table's to watch, the referee having no line for it (CT-15), or impossible to enter in the notation
NOT_ADOPTED = {
    16: "which copy of a card used its ability this turn (CT-15)",
    50: "the Gold each source produced and paid (CT-15)",
    76: "seppuku against a battle's Honor loss: the notation attaches seppuku to an action's loss only",
    96: "a refused challenge: no duel happens, so there is no duel line to enter",
    110: "the Combat Segment's order of Battle actions: the action round's passes are not entered (CT-15)",
    111: "presence for a card's Battle action: where units are is checked for the Favor's only (CT-15)",
    124: "the end of effects' durations (CT-15)",
}


def test_the_cases_written_from_the_rulebook_alone():
    """Each case of that casebook has one here or more, but for the steps the referee leaves to the table;
    each cites the rulebook's lines (the loader requires it)."""
    numbers = {c.blind for c in CASES if c.blind is not None}
    assert numbers | set(NOT_ADOPTED) == set(range(1, 153)) and not numbers & set(NOT_ADOPTED)
    assert sum(c.blind is not None for c in CASES) >= 170


@pytest.mark.parametrize(
    "cite, words",
    [  # the turn's actions, each with cases (the rulebook's lines or the referee's ruling)
        ("pp.49-66 Lobby, lines", ["lobby-takes-the-favor", "favor-wins-nothing"]),
        ("pp.49-66 Dynasty Phase, lines", ["second-claim", "no-claim-when"]),
        ("CT-03", ["opponents-dynasty-phase"]),
        ("glossary: seppuku, lines", ["samurai-commits-seppuku"]),
        ("glossary: duelist, lines", ["lower-chi-focuses-first", "must-focus"]),
        ("CT-01", ["honor-typed-alone", "correction"]),
        ("C-08", ["negative-force-is-zero", "below-zero"]),
        ("CT-11", ["mid-game", "uses-already-made"]),
        ("CT-13", ["ends-with-the-match", "several-passes"]),
    ],
)
def test_every_action_of_the_turn_has_a_case(cite, words):
    for word in words:
        assert any(any(x.startswith(cite) for x in c.cites) and word in c.id for c in CASES), (cite, word)


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
    path.write_text('[[case]]\nid = "x"\nblind = 3\ncites = ["p.67 Deck Construction"]\ndeck = ""\n')
    with pytest.raises(CcgCaseError, match="cites the rulebook's lines"):
        load_file(path)
    path.write_text('[[case]]\nid = "x"\ncites = ["CT-99"]\ndeck = ""\n')
    with pytest.raises(CcgCaseError, match="no such ruling"):
        load_file(path)
