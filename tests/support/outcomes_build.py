"""Every outcome the engine gives, as text: the fixture that proves a change of speed changed no result.

    tests/battle/outcomes.txt   the recorded outcomes, compared byte for byte by
                                tests/battle/test_recorded_outcomes.py

Three sources, each item a section headed ``== <id>``:

- every casebook case (referee/data/casebook/*.toml, as tests/battle/test_casebook.py runs them): the table events'
  notes, the refusal, or the round report, and the state digest after it;
- every golden game, event by event: the round report and the state digest after every event;
- 200 seeded random five-player rounds (``random_round(seed)``, up to 25 tokens, blessings included,
  possibly illegal tokens; never physically impossible ones, R-08): the report and the state digest.

A round report appears twice: as the moderator reads it (``referee.cli.render.round_report``, plain
text, 100 columns) in full, and as ``--json`` prints it (its SHA-256: the JSON is long). Regenerate
with ``pytest --regen-golden`` (review the diff), or ``python tests/support/outcomes_build.py``.
"""

from __future__ import annotations

import hashlib
import io
import random
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from referee.boarddata import load_board  # noqa: E402
from referee.engine import (  # noqa: E402
    Clan,
    Control,
    EntriesRefused,
    Entry,
    EventRefused,
    GameOver,
    Kind,
    Token,
    begin_round,
    resolve as engine_resolve,  # noqa: E402
)
from referee.engine.model.board import SEA  # noqa: E402
from referee.engine.model.digest import state_digest  # noqa: E402
from referee.engine.model.state import GameState  # noqa: E402
from referee.engine.notation.round import parse_entry, parse_lines  # noqa: E402
from referee.engine.notation.setup import new_state  # noqa: E402
from referee.engine.notation.table_events import parse_table_event  # noqa: E402
from referee.engine.resolution.placement import check_entries  # noqa: E402
from referee.engine.resolution.report import RoundReport  # noqa: E402
from referee.engine.table.apply import apply_table_event  # noqa: E402
from referee.log import GOLDEN_GAMES, golden, states  # noqa: E402
from referee.scenario import build_state, load_cases  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "battle" / "outcomes.txt"
CASEBOOK = Path(__file__).resolve().parents[2] / "referee" / "data" / "casebook"
RANDOM_ROUNDS = 200
CLANS_PER_ROUND = 5
TOKENS_PER_CLAN = 5  # p.7: five placements a round (blessings count)


# --- seeded random rounds -----------------------------------------------------------------------------
def random_round(seed: int) -> tuple[GameState, list[Entry]]:
    """A five-player round on a random board: up to five tokens a clan (25 in all), blessings
    included, illegal placements allowed (they are judged, step 2), physically impossible ones
    (R-08: more tokens than owned, two on one border) left out. Same seed, same round."""
    rnd = random.Random(seed)
    board = load_board()
    provinces = sorted(board.provinces)
    clans = tuple(rnd.sample(sorted(Clan), CLANS_PER_ROUND))
    control = {}
    for p in rnd.sample(provinces, rnd.randint(10, 30)):
        control[p] = Control(rnd.choice(clans), rnd.randint(0, 2) or 1, rnd.choice((0, 0, 0, 1, 2)))
    state = begin_round(new_state(board, clans, control=control))
    kinds = [Kind.ARMY] * 5 + [Kind.NAVY, Kind.SHINOBI, Kind.RAID, Kind.DIPLOMACY, Kind.BLUFF]
    keep: list[Entry] = []
    for clan in clans:
        own = sorted(state.provinces_of(clan))
        placed = 0
        for _ in range(40):
            if placed >= TOKENS_PER_CLAN:
                break
            # mostly near the clan's own provinces, so that battles, raids and defenses happen
            p = rnd.choice(provinces) if not own or rnd.random() < 0.4 else rnd.choice(own)
            if rnd.random() < 0.5:
                near = sorted(board.neighbours[p])
                if near:
                    p = rnd.choice(near)
            kind = rnd.choice(kinds)
            strength = rnd.randint(1, 4 if kind == Kind.ARMY else 3) if kind.has_strength else None
            where = rnd.choice(("centre", "centre", "border", "border", "sea"))
            source = None
            if where == "border" and board.neighbours[p]:
                source = rnd.choice(sorted(board.neighbours[p]))
            elif where == "sea" and p in board.coastal:
                source = SEA
            blessings: tuple[int, ...] = ()
            if placed < TOKENS_PER_CLAN - 1 and rnd.random() < 0.15:
                blessings = (rnd.randint(1, 3),)
            entry = Entry(clan, Token(kind, strength), p, source, blessings)
            cost = 1 + len(blessings)
            if placed + cost > TOKENS_PER_CLAN or check_entries(state, [*keep, entry]):
                continue
            keep.append(entry)
            placed += cost
    return state, keep


# --- rendering -----------------------------------------------------------------------------------------
def rendered(report: RoundReport, state: GameState) -> str:
    """The report as the moderator reads it (plain text) and as ``--json`` prints it."""
    from contextlib import redirect_stdout

    from rich.console import Console

    from referee.cli import render

    saved = render.console
    render.console = Console(file=io.StringIO(), width=100, highlight=False, emoji=False, color_system=None)
    try:
        render.round_report(report, state)
        text = render.console.file.getvalue()
    finally:
        render.console = saved
    out = io.StringIO()
    with redirect_stdout(out):
        render.round_report(report, state, json_out=True)
    return text + f"json sha256 {hashlib.sha256(out.getvalue().encode()).hexdigest()}\n"


def _resolved(state: GameState, entries: list[Entry]) -> str:
    try:
        after, report = engine_resolve(state, entries)
    except (EntriesRefused, GameOver) as refused:  # GameOver: a sixth round (R-27a)
        return f"refused: {refused}\n"
    return rendered(report, after) + f"digest {state_digest(after)}\n"


def case_outcome(case, board) -> str:
    out = []
    state = build_state(case, board)
    if case.table.strip():
        for n, line in parse_lines(case.table):
            try:
                state, note = apply_table_event(state, parse_table_event(line, board, n))
                out.append(f"note: {note}\n")
            except EventRefused as refused:
                out.append(f"event refused: {refused}\n")
                return "".join(out) + f"digest {state_digest(state)}\n"
        state = begin_round(state)
    out.append(f"before: digest {state_digest(state)}\n")
    if case.entries is not None:
        entries = [parse_entry(line, board, n) for n, line in parse_lines(case.entries)]
        out.append(_resolved(state, entries))
    return "".join(out)


def sections() -> Iterator[tuple[str, str]]:
    board = load_board()
    for case in load_cases(CASEBOOK):
        yield f"case {case.file} {case.id}", case_outcome(case, board)
    for name in GOLDEN_GAMES:
        for n, (event, state, report) in enumerate(states(golden(name))):
            text = rendered(report, state) if report is not None else ""
            yield f"golden {name} event {n} ({event.type})", text + f"digest {state_digest(state)}\n"
    for seed in range(RANDOM_ROUNDS):
        state, entries = random_round(seed)
        tokens = len(entries) + sum(len(e.blessings) for e in entries)
        head = "".join(f"  {e}\n" for e in entries)
        yield f"random round {seed} ({tokens} tokens)", head + _resolved(state, entries)


def build() -> str:
    return "".join(f"== {title}\n{body}\n" for title, body in sections())


if __name__ == "__main__":
    FIXTURE.write_text(build(), "utf-8")
    print(f"wrote {FIXTURE}")
