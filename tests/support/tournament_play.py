"""Legal random rounds for tournament tests and benchmarks, played through the engine (seeded).

Each clan places one to four army tokens, each on a place no other token uses: defending a province it controls
(``@ province``) or attacking a neighbour across a land border from one. What the rules then discard at reveal is
discarded (R-09); the entry itself is always one the referee accepts (R-08: tokens the clan owns, one token a
place, at most five a clan).
"""

from __future__ import annotations

import random

from referee.log import Fold, Store


def random_sheet(state, rng: random.Random) -> list[str]:
    board = state.board
    used: set = set()
    lines = []
    for clan in state.clans:
        mine = sorted(state.provinces_of(clan))
        strengths = [1, 1, 1, 2, 2, 3]
        rng.shuffle(strengths)
        for _ in range(rng.randint(1, 4)):
            if not mine:
                break
            src = rng.choice(mine)
            targets = sorted(p for p in board.provinces if p != src and board.adjacent(src, p))
            strength = strengths.pop()
            if targets and rng.random() < 0.7:
                dst = rng.choice(targets)
                place = frozenset((src, dst))
                if place not in used:
                    used.add(place)
                    lines.append(f"{clan}: army {strength} {src} > {dst}")
                    continue
            if src not in used:
                used.add(src)
                lines.append(f"{clan}: army {strength} @ {src}")
    return lines


def next_sheet(url: str, game: str, rng: random.Random) -> str:
    with Store(url) as store:
        state = Fold.of(store.events(game)).state
    return "\n".join(random_sheet(state, rng)) + "\n"


def setup_sheet(url: str, game: str, rng: random.Random) -> str:
    """The rest of the rulebook's setup (p.4 step 7, p.5 step 10) for a table's new game: each clan's set-aside
    control tokens, one a province, on provinces no one controls yet (no capital, no Shadowlands province). Empty
    when the setup is complete."""
    from referee.log.amend import setup_missing

    with Store(url) as store:
        fold = Fold.of(store.events(game))
    if fold.rounds or not setup_missing(fold):
        return ""
    state, board = fold.state, fold.board
    need = 1 + board.control_set_aside.get(len(state.clans), 0)
    free = sorted(
        p
        for p, province in board.provinces.items()
        if state.controller(p) is None
        and not province.is_capital
        and not board.territories[province.territory].is_shadowlands
    )
    rng.shuffle(free)
    lines = []
    for clan in state.clans:
        for _ in range(need - state.control_tokens_on_board(clan)):
            lines.append(f"{clan}: control @ {free.pop()}")
    return "\n".join(lines) + "\n"
