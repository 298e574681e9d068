"""No change of speed changes an outcome: every casebook case, every golden game and 200 seeded random
five-player rounds give byte for byte the reports and state digests recorded in tests/battle/outcomes.txt.

``pytest --regen-golden`` rewrites the fixture from the current engine (review the diff: a rules
change shows there, line by line)."""

from referee.engine import resolve
from tests.support.outcomes_build import FIXTURE, RANDOM_ROUNDS, build, random_round, sections


def test_every_outcome_is_the_recorded_one(request):
    got = build()
    if request.config.getoption("--regen-golden"):
        FIXTURE.write_text(got, "utf-8")
    assert FIXTURE.exists(), f"{FIXTURE} missing: run pytest --regen-golden"
    want = FIXTURE.read_text("utf-8")
    if got != want:
        recorded = dict(s.split("\n", 1) for s in want.split("== ")[1:])
        differ = [title for title, body in sections() if recorded.get(title) != body + "\n"]
        raise AssertionError(
            f"{len(differ)} outcome(s) differ from {FIXTURE.name}, first: {differ[:5]}; "
            "if a rules change is meant, review with pytest --regen-golden + git diff"
        )


def test_random_rounds_are_seeded_full_and_mostly_accepted():
    """The 200 rounds are the same every run, five players of up to five tokens, and resolve (R-08)."""
    assert random_round(7) == random_round(7)
    sizes = []
    for seed in range(0, RANDOM_ROUNDS, 10):
        state, entries = random_round(seed)
        assert len(state.clans) == 5
        sizes.append(len(entries) + sum(len(e.blessings) for e in entries))
        resolve(state, entries)  # never refused: physically impossible entries are left out
    assert max(sizes) == 25 and min(sizes) >= 20, sizes
