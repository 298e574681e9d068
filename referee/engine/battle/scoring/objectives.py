"""Secret objectives (rulebook p.10; R-24a): whether each is met, and why, in words a player can check.

``objective_status(state, clan, objective) -> (met, why)``: ``met`` is ``objective_met``'s answer;
``why`` says what was counted: "controls 5 of the 6 coastal provinces
needed: lion_coast, ...". Pure: the board state in, words out.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.board import Board
from ..model.state import GameState
from ..model.tokens import Clan

# --- secret objectives ------------------------------------------------------------------------------
CLAN_OBJECTIVES = {
    "the_last_line_of_defense": "crab",
    "the_rice_bowl_of_the_empire": "crane",
    "the_great_wall_of_the_north": "dragon",
    "the_court_of_the_five_winds": "unicorn",
    "the_plains_of_battle": "lion",
    "the_great_library": "phoenix",
    "the_den_of_secrets": "scorpion",
}


def objective_met(state: GameState, clan: Clan, objective: str) -> bool:
    return objective_status(state, clan, objective)[0]


def _connected_six(board: Board, mine: set[str], terr: dict[str, str]) -> bool:
    seen: set[frozenset[str]] = set()
    frontier = [frozenset([p]) for p in mine]
    while frontier:
        group = frontier.pop()
        if group in seen:
            continue
        seen.add(group)
        if len(group) == 6:
            if len({terr[p] for p in group}) >= 3:
                return True
            continue
        for p in group:
            for n in board.neighbours[p] & mine:
                if n not in group:
                    frontier.append(group | {n})
    return False


def _names(provinces: Iterable[str]) -> str:
    return ", ".join(sorted(provinces))


def objective_status(state: GameState, clan: Clan, objective: str, mine: set[str] | None = None) -> tuple[bool, str]:
    """Whether ``clan`` meets ``objective`` on ``state``, and why, in the words of the objective: what is
    counted is counted once, and decides both. ``mine``: the clan's provinces, when already known."""

    board = state.board
    if mine is None:
        mine = set(state.provinces_of(clan))
    if objective in CLAN_OBJECTIVES:
        territory = board.territories[CLAN_OBJECTIVES[objective]]
        held = sorted(mine & set(territory.provinces))
        if territory.capital in mine:
            return True, f"controls {territory.capital}"
        if held:
            return len(held) >= 2, (
                f"controls {len(held)} of the 2 {territory.id} provinces needed ({_names(held)}) "
                f"and not {territory.capital}"
            )
        return False, f"controls no {territory.id} province: needs {territory.capital} or 2 of its provinces"
    if objective == "emerald_empire":  # R-24a
        best = _longest_chain(state, mine)
        territories = len({board.provinces[p].territory for p in best})
        if state.options.emerald_any_connected:
            kind = "connected group"
            met = _connected_six(board, mine, {p: board.provinces[p].territory for p in mine})
        else:  # the longest chain, the most territories first: a chain of six across three exists if it is one
            kind = "chain"
            met = len(best) == 6 and territories >= 3
        if met:
            return met, f"a {kind} of 6 controlled provinces across 3 or more territories"
        return met, (
            f"longest {kind} of controlled provinces: {len(best)} across {territories} territories "
            f"(6 across 3 needed, R-24a)" + (f": {' - '.join(best)}" if best else "")
        )
    if objective == "way_of_the_sail":  # R-24a: the harbor counts as coastal
        coastal = sorted(p for p in mine if state.is_coastal(p))
        return len(coastal) >= 6, f"controls {len(coastal)} of the 6 coastal provinces needed" + (
            f": {_names(coastal)}" if coastal else ""
        )
    if objective == "way_of_humility":  # R-24a
        counts = dict.fromkeys(state.clans, 0)
        for c in state.control.values():
            if c.clan in counts:
                counts[c.clan] += 1
        fewest = min(counts.values())
        tied = sorted(str(c) for c, n in counts.items() if n == fewest)
        if counts[clan] != fewest:
            return False, f"controls {counts[clan]} provinces; fewest is {fewest} ({', '.join(tied)})"
        if len(tied) > 1:
            return (
                state.options.humility_ties,
                f"controls {fewest} provinces, tied for fewest with {', '.join(t for t in tied if t != clan)} (R-24a)",
            )
        return True, f"controls {fewest} provinces, the fewest"
    if objective == "web_of_influence":
        spread = sorted({board.provinces[p].territory for p in mine})
        return len(spread) >= 7, f"controls provinces in {len(spread)} of the 7 territories needed" + (
            f": {', '.join(spread)}" if spread else ""
        )
    if objective == "reclaiming_lost_lands":
        missing = sorted({"shadowlands_north", "shadowlands_south"} - mine)
        return not missing, "controls shadowlands_north and shadowlands_south" if not missing else (
            f"controls {2 - len(missing)} of the 2 Shadowlands provinces needed: missing {_names(missing)}"
        )
    raise ValueError(f"unknown objective {objective!r}")


def _longest_chain(state: GameState, mine: set[str]) -> list[str]:
    """The longest chain (or, with ``emerald_any_connected``, the largest connected group, capped at six) of
    controlled provinces, preferring more territories at equal length: what Emerald Empire counts."""
    board = state.board
    terr = {p: board.provinces[p].territory for p in mine}
    best: list[str] = []

    def better(path: list[str]) -> bool:
        return (len(path), len({terr[p] for p in path})) > (len(best), len({terr[p] for p in best}))

    if state.options.emerald_any_connected:
        seen: set[str] = set()
        for p in sorted(mine):
            if p in seen:
                continue
            group, todo = [], [p]
            while todo:
                q = todo.pop()
                if q in seen:
                    continue
                seen.add(q)
                group.append(q)
                todo += sorted(board.neighbours[q] & mine)
            group = sorted(group)[:6] if len(group) > 6 else sorted(group)
            if better(group):
                best = group
        return best

    neighbours = {p: sorted(board.neighbours[p] & mine) for p in mine}  # each province's, in name order
    top = (0, 0)  # best's (length, territories)

    path: list[str] = []  # the chain being extended, one province at a time (depth first, in name order)

    def walk(p: str, spans: frozenset[str]) -> None:
        nonlocal best, top
        path.append(p)
        size = (len(path), len(spans))
        if size > top:
            best, top = path[:], size
        if len(path) < 6:
            for n in neighbours[p]:
                if n not in path:
                    walk(n, spans | {terr[n]})
        path.pop()

    for p in sorted(mine):
        walk(p, frozenset((terr[p],)))
    return best
