"""Champions of Rokugan's rules package: its casebook (referee/data/casebook/champions, every case cited),
the notation read back as printed, the Threshold arithmetic of setup (p.11) as a property, and the package's
purity (stdlib only, no I/O built-ins)."""

import ast
import re
from pathlib import Path

import grimp
import pytest
from hypothesis import given, strategies as st

from referee.champions import (
    ChampionCard,
    ChampionsError,
    Objective,
    Setup,
    Timing,
    apply,
    end,
    format_event,
    format_setup,
    parse_line,
    parse_setup,
    set_up,
)
from referee.champions.rules import (
    ChampionCorrupted,
    ChampionEliminated,
    EnemyEliminated,
    HonorChanged,
    ObjectiveCompleted,
    ObjectiveTaken,
    PurityChanged,
    ScenarioGlory,
    TurnEnded,
)
from referee.champions_cases import load_cases, run_case
from tests.battle.test_rules_purity import imports_outside, io_calls

ROOT = Path(__file__).parents[2]
CASES = load_cases(ROOT / "referee" / "data" / "casebook" / "champions")
NAMES = ("Asahina Takako", "Togashi Mitsu", "Matsu Tsuko", "Isawa Kaede", "Bayushi Aramoro")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case):
    problems = run_case(case)
    assert not problems, f"{case.file} {case.id} ({', '.join(case.cites)}): " + "; ".join(problems)


def test_the_casebook_cites_every_ruling_and_holds_the_worked_examples():
    cited = {c for case in CASES for c in case.cites}
    assert {f"CR-{n:02d}" for n in range(1, 14)} <= cited  # every ruling of RULINGS-CHAMPIONS.md
    assert set(RULINGS) <= cited  # every ruling of the referee's own (referee/data/champions/rulings.md)
    assert {c for c in cited if c.startswith("CH-")} <= set(RULINGS)  # and none it does not hold
    ids = {c.id for c in CASES}
    assert {"threshold-worked-example", "matsu-tsuko-destiny-after-elimination"} <= ids
    assert len(CASES) >= 230


RULINGS = re.findall(r"^- (CH-\d\d) ", (ROOT / "referee" / "data" / "champions" / "rulings.md").read_text(), re.M)
# The blind casebook's cases (written from the rulebook alone, by someone who had not read the code): each is a
# case of origin "rulebook alone" under its own id (split ones keep it for their first part), but the one that
# needs what the referee does not keep (Action Points: the dashboards do, CH-01's preface).
BLIND = """
obj-setup-keep-one
obj-setup-keep-none-refused
obj-setup-keep-three
obj-setup-keep-four-refused
obj-companion-has-none
obj-investigation-only-card
obj-draw-objectives-action
obj-draw-objectives-refusals
obj-draw-objectives-not-for-companion-or-ally
obj-instant-revealed-completed
obj-instant-hidden-during-other-turn
obj-instant-completed-twice-refused
obj-end-evaluated-at-end
obj-end-condition-lost
obj-two-values-completed-lower
obj-two-values-unmet
obj-two-values-instant
obj-hidden-what-is-shown
obj-unmet-cost-eliminated-champion
obj-unselected-cards-destination
glory-enemy-kill-card-value
glory-companion-kill
glory-ally-kill-gives-none
glory-battle-last-miniature-bonus
glory-battle-unit-of-one-no-bonus
glory-battle-last-miniature-after-ally-kills
glory-battle-ally-kills-last
glory-battle-miniature-counts-for-objectives
glory-other-sources
glory-floor-and-cap-during-play
glory-simultaneous-elimination
glory-kill-corrupted-champion
glory-two-claimants-refused
glory-elimination-without-a-champion-blow
honor-matsu-example
honor-same-kind-twice-refused
honor-wound-separate-actions
honor-deception-once-per-action
honor-insignificant-no-gain
honor-superiority-dishonors-at-step-two
honor-imposing-alone-no-superiority-loss
honor-ranged-no-outnumbered
honor-disengagement-dishonors
honor-dishonored-defense-ignored
honor-exactly-zero-is-dishonored
honor-outnumbered-back-to-zero
honor-harmony-while-dishonored
honor-return-after-non-combat-action
honor-clamp-at-ten
honor-clamp-at-minus-five
honor-voluntary-cost-below-minus-five
honor-ally-has-none
honor-eliminated-champion-frozen
honor-declined-pursue
honor-investigation-then-dishonored
threshold-setup-five-players
threshold-setup-with-companions
setup-same-clan-refused
group-honor-is-live
elimination-moves-group-honor-and-threshold
elimination-with-negative-honor-raises-group-honor
corrupted-champion-moves-threshold
purity-zero-at-zero-life
corruption-ki-and-pure
purity-not-above-five
victory-at-exactly-threshold
defeat-one-short
threshold-fifteen-glory-on-track
threshold-zero-glory-companion
threshold-adjustments-net
threshold-adjustments-count-eliminated-and-corrupted
purity-at-end-honor-clamped
purity-missing-not-lost
end-immediately-on-objective
end-settlement-victory
end-settlement-defeat-still-glorifies
end-last-turn-without-objective
end-glory-cap-applied-once
end-negative-final-glory
end-glorified-tie
end-corrupted-not-glorified
end-eliminated-can-be-glorified
end-more-cooperation-variant
solo-setup
solo-victory-needs-more-glory
solo-equal-glory-is-defeat
solo-glory-which-score
solo-companions-at-zero-raise-threshold
solo-glorified-always-the-champion
campaign-log-entry
campaign-reset-between-scenarios
campaign-replay-last-play-counts
campaign-ending-choice
campaign-player-changes-champion
campaign-eliminated-player-companion
turn-phases-in-order
turn-counter-on-turn-one
imperial-favor-first-turn
companions-placed-and-played-by-favor
activation-finished-cannot-resume
action-points-carry-and-cap
once-per-activation-and-per-turn
recovery-group-honor-count
allies-activate-with-favor-holder
""".split()
NOT_ADOPTED = {"action-points-carry-and-cap": "Action Points are the dashboards', not the referee's"}


def test_the_blind_casebook_is_in_the_casebook():
    blind = {c.id for c in CASES if c.data.get("origin") == "rulebook alone"}
    assert len(BLIND) == 104 and len(blind) >= 160
    assert [i for i in BLIND if i not in blind and i not in NOT_ADOPTED] == []
    assert set(NOT_ADOPTED) <= set(BLIND) and not set(NOT_ADOPTED) & blind


def test_every_ruling_the_code_cites_is_written():
    """Every CH-xx a message, a docstring or a test names is in referee/data/champions/rulings.md, with its ids in
    order and each once."""
    assert RULINGS == [f"CH-{n:02d}" for n in range(1, len(RULINGS) + 1)]
    sources = [
        *(ROOT / "referee").rglob("*.py"),
        *(ROOT / "tests" / "champions").glob("test_*.py"),
        *(ROOT / "tests" / "web").glob("test_champions*.py"),
        *(ROOT / "docs").rglob("*.md"),
    ]
    named = {m for p in sources for m in re.findall(r"CH-\d\d", p.read_text())}
    assert named <= set(RULINGS), sorted(named - set(RULINGS))


def test_a_case_that_expects_wrongly_fails():
    """The runner can fail: the worked example with a wrong Threshold is reported."""
    case = next(c for c in CASES if c.id == "threshold-worked-example")
    wrong = type(case)(case.id, case.cites, case.file, {**case.data, "expect": {"threshold": 25}})
    assert run_case(wrong) == ["threshold: got 24, expected 25"]


# --- the notation: every event printed reads back as itself ---------------------------------------------------
names = st.sampled_from(NAMES)
words = st.text(alphabet="abcdefghij ", min_size=1, max_size=12).map(lambda s: " ".join(s.split())).filter(bool)
events = st.one_of(
    st.builds(HonorChanged, names, st.integers(-15, 15).filter(bool)),
    st.builds(PurityChanged, names, st.integers(-5, 5).filter(bool)),
    st.builds(EnemyEliminated, names, words, st.integers(0, 25), st.booleans()),
    st.builds(ScenarioGlory, names, st.integers(-30, 30).filter(bool), st.just("")),
    st.builds(ObjectiveCompleted, names, words),
    st.builds(ChampionEliminated, names),
    st.builds(ChampionCorrupted, names),
    st.builds(TurnEnded, st.one_of(st.none(), st.integers(-30, 60))),
)


@given(events)
def test_an_event_reads_back_as_printed(event):
    assert parse_line(format_event(event), NAMES) == event


def test_objective_lines_read_back():
    line = "Matsu Tsuko: objective Unbroken Line, revealed, end, 3/1"
    event = parse_line("matsu: objective Unbroken Line , END , 1 / 3", NAMES)  # the two values in either order
    assert isinstance(event, ObjectiveTaken) and format_event(event) == line


def test_an_ambiguous_or_unknown_name_is_refused():
    with pytest.raises(ChampionsError, match="is no Champion"):
        parse_line("Hida Kisada: honor +1", NAMES)
    with pytest.raises(ChampionsError, match="could be Asahina Takako or Ashigaru"):
        parse_line("As: honor +1", ("Asahina Takako", "Ashigaru", "Togashi Mitsu"))


# --- setup (p.11): the Threshold is Honor + Destiny + difficulty, whatever the Champions -------------------------
cards = st.lists(st.tuples(st.integers(-5, 10), st.integers(0, 3), st.booleans()), min_size=5, max_size=5).filter(
    lambda cs: not all(c[2] for c in cs)
)


@given(cards, st.integers(-2, 4))
def test_setup_threshold_is_honor_plus_destiny_plus_difficulty(cs, difficulty):
    setup = Setup(
        "s",
        difficulty,
        6,
        tuple(
            ChampionCard(f"C{i}", h, d, companion=comp, player="" if comp else f"P{i}")
            for i, (h, d, comp) in enumerate(cs)
        ),
    )
    s = set_up(setup)
    assert s.threshold == sum(h for h, _, _ in cs) + sum(d for _, d, _ in cs) + difficulty
    assert s.group_honor == sum(h for h, _, _ in cs) == s.live_honor()
    assert parse_setup(format_setup(setup)) == setup


@given(st.lists(st.tuples(names, st.integers(-6, 6).filter(bool)), max_size=25))
def test_group_honor_stays_the_live_honor(changes):
    """CR-01: after any Honor changes, the Group Honor is the Honor of the Champions not Eliminated."""
    s = set_up(parse_setup(EXAMPLE))
    for who, amount in changes:
        s = apply(s, HonorChanged(who, amount)).scenario
        assert s.group_honor == s.live_honor()
        assert all(-5 <= c.honor <= 10 for c in s.champions)
    s = apply(s, ChampionEliminated("Matsu Tsuko")).scenario
    assert s.group_honor == s.live_honor()
    ending = end(s, True)
    assert ending.group_honor == ending.scenario.live_honor()


EXAMPLE = """
scenario: The Fallen Lion
difficulty: 0
turns: 8
champion: Asahina Takako, honor 5, destiny 1, player Ann
champion: Togashi Mitsu, honor 3, destiny 1, player Ben
champion: Matsu Tsuko, honor 5, destiny 1, player Cho
champion: Isawa Kaede, honor 5, destiny 2, player Dai
champion: Bayushi Aramoro, honor 0, destiny 1, player Eri
"""


def test_every_bad_line_of_a_setup_sheet_is_named():
    with pytest.raises(ChampionsError) as refused:
        parse_setup("scenario: x\ndifficulty: hard\nchampion: Matsu, honor five\ncolour: red\n")
    text = str(refused.value)
    assert "line 3" in text and "line 4" in text and "difficulty 'hard'" in text and "no 'turns:' line" in text


# --- purity -------------------------------------------------------------------------------------------------------
ALLOWED = {"__future__", "dataclasses", "enum", "re"}


def test_the_package_imports_only_listed_stdlib_modules_and_itself():
    graph = grimp.build_graph("referee", include_external_packages=True, cache_dir=None)
    assert len(graph.find_descendants("referee.champions")) >= 4
    assert [o for o in imports_outside(graph, "referee.champions") if o.split(" imports ")[1] not in ALLOWED] == []


def test_the_package_calls_no_io_builtins():
    files = sorted((ROOT / "referee" / "champions").glob("*.py"))
    assert len(files) >= 4
    assert [(p.name, call) for p in files for call in io_calls(ast.parse(p.read_text()))] == []


any_event = st.one_of(
    events,
    st.builds(
        ObjectiveTaken,
        names,
        st.builds(
            lambda n, t, g, lo: Objective(n, t, g, min(lo, g)),
            words,
            st.sampled_from(list(Timing)),
            st.integers(0, 5),
            st.integers(0, 5),
        ),
    ),
)


@given(st.lists(any_event, max_size=40), st.booleans())
def test_any_game_keeps_the_invariants(reports, objectives_met):
    """Whatever the table reports (refused reports skipped): the Group Honor is live (CR-01), the gauges stay
    on their tracks (p.14, p.16), bonus tokens are earned once each (CR-07); at the end the Threshold moves by
    at most 5 for Glory (CR-05), no Glory is above 25 (CR-08) and victory is exactly p.31's conditions."""
    s = set_up(parse_setup(EXAMPLE))
    peak = {c.name: 0 for c in s.champions}
    for event in reports:
        try:
            s = apply(s, event).scenario
        except ChampionsError:
            continue
        assert s.group_honor == s.live_honor()
        for c in s.champions:
            peak[c.name] = max(peak[c.name], c.glory)
            assert -5 <= c.honor <= 10 and 0 <= c.glory <= 25 and 0 <= c.purity <= 5
            assert len(set(c.bonuses)) == len(c.bonuses) and all(b <= peak[c.name] for b in c.bonuses)
    if any(not c.out and c.purity == 0 for c in s.champions):
        with pytest.raises(ChampionsError, match="neither Corrupted nor Eliminated"):
            end(s, objectives_met)
        return
    ending = end(s, objectives_met)
    assert abs(ending.threshold - s.threshold) <= 5
    assert all(g <= 25 for _, g in ending.glory)
    assert ending.victory == (objectives_met and ending.group_honor >= ending.threshold)
    assert ending.difference == ending.group_honor - ending.threshold
    assert all(not ending.scenario.champion(n).card.companion for n in ending.glorified)
