"""End-of-game honor (rulebook p.10; R-24, R-24a, R-25): every line names what produced it."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.board import Board
from ..model.options import Tiebreak
from ..model.state import GameState, Special
from ..model.tokens import Clan

TERRITORY_HONOR = 5


@dataclass(frozen=True, slots=True)
class Line:
    label: str
    honor: int


@dataclass(frozen=True, slots=True)
class Score:
    clan: Clan
    lines: tuple[Line, ...]
    territories: int  # territories controlled (tie-break, R-25)
    provinces: int

    @property
    def total(self) -> int:
        return sum(line.honor for line in self.lines)


@dataclass(frozen=True, slots=True)
class FinalScore:
    scores: tuple[Score, ...]  # best first
    winners: tuple[Clan, ...]  # more than one: shared victory
    tiebreak: str  # how the winner was found


def controlled_territories(state: GameState, clan: Clan) -> list[str]:
    return [t for t in sorted(state.board.territories) if state.territory_controller(t) == clan]


def score_clan(state: GameState, clan: Clan, objective: str | None = None, met: bool | None = None) -> Score:
    board = state.board
    lines: list[Line] = []
    provinces = state.provinces_of(clan)
    for p in provinces:
        special = state.special.get(p)
        if special and special.kind == Special.BUSHIDO:
            lines.append(Line(f"{p}: 4 flowers (Bushido token replaces the printed {board.provinces[p].flowers})", 4))
        elif board.provinces[p].flowers:
            lines.append(Line(f"{p}: {board.provinces[p].flowers} flower(s)", board.provinces[p].flowers))
        if special and special.kind == Special.HONOR:
            lines.append(Line(f"{p}: honor bonus token +{special.value}", special.value))
        if special and special.kind == Special.DEFENSE:
            lines.append(Line(f"{p}: defense bonus token (+1 honor)", 1))
        faceup = state.control[p].faceup
        if faceup:
            if board.territory_of(p).is_shadowlands:
                lines.append(Line(f"{p}: {faceup} faceup control token(s), none in the Shadowlands (p.10)", 0))
            else:
                lines.append(Line(f"{p}: {faceup} faceup control token(s)", faceup))
    territories = controlled_territories(state, clan)
    for t in territories:
        if board.territories[t].scores:
            lines.append(Line(f"territory {t}", TERRITORY_HONOR))
        else:
            lines.append(Line(f"territory {t}: the Shadowlands give no honor (p.10)", 0))
    objective = objective if objective is not None else state.objectives.get(clan)
    if objective:
        facts = board.objectives[objective]
        from .objectives import objective_status

        ok, why = objective_status(state, clan, objective)
        ok = ok if met is None else met
        lines.append(Line(f"objective {facts.name}: {'met' if ok else 'not met'}: {why}", facts.honor if ok else 0))
    return Score(clan, tuple(lines), len(territories), len(provinces))


def final_score(state: GameState) -> FinalScore:
    scores = [score_clan(state, c) for c in state.clans]
    best = max(s.total for s in scores)
    tied = [s for s in scores if s.total == best]
    how = "most honor"
    if len(tied) > 1 and state.options.tiebreak == Tiebreak.TERRITORIES_THEN_PROVINCES:
        top_t = max(s.territories for s in tied)
        tied = [s for s in tied if s.territories == top_t]
        how = "tie on honor; most territories (R-25)"
        if len(tied) > 1:
            top_p = max(s.provinces for s in tied)
            tied = [s for s in tied if s.provinces == top_p]
            how = "tie on honor and territories; most provinces (R-25)"
    if len(tied) > 1:
        how = "shared victory (R-25)"
    key = {c: i for i, c in enumerate(state.clans)}
    order = sorted(scores, key=lambda s: (-s.total, -s.territories, -s.provinces, key[s.clan]))
    return FinalScore(tuple(order), tuple(s.clan for s in tied), how)


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
    board = state.board
    mine = set(state.provinces_of(clan))
    if objective in CLAN_OBJECTIVES:
        territory = board.territories[CLAN_OBJECTIVES[objective]]
        return territory.capital in mine or len(mine & set(territory.provinces)) >= 2
    if objective == "emerald_empire":
        return _emerald(state, mine)
    if objective == "way_of_the_sail":  # R-24a: the harbor counts as coastal
        return sum(1 for p in mine if state.is_coastal(p)) >= 6
    if objective == "way_of_humility":  # R-24a
        counts = {c: len(state.provinces_of(c)) for c in state.clans}
        fewest = min(counts.values())
        tied = [c for c, n in counts.items() if n == fewest]
        return counts[clan] == fewest and (len(tied) == 1 or state.options.humility_ties)
    if objective == "web_of_influence":
        return len({board.provinces[p].territory for p in mine}) >= 7
    if objective == "reclaiming_lost_lands":
        return {"shadowlands_north", "shadowlands_south"} <= mine
    raise ValueError(f"unknown objective {objective!r}")


def _emerald(state: GameState, mine: set[str]) -> bool:
    """R-24a: six distinct controlled provinces in a chain (each land-adjacent to the next) spanning
    at least three territories; option ``emerald_any_connected`` accepts any connected group of six."""
    board = state.board
    terr = {p: board.provinces[p].territory for p in mine}
    if state.options.emerald_any_connected:
        return _connected_six(board, mine, terr)

    def walk(path: list[str]) -> bool:
        if len(path) == 6:
            return len({terr[p] for p in path}) >= 3
        return any(walk(path + [n]) for n in sorted(board.neighbours[path[-1]] & mine) if n not in path)

    return any(walk([p]) for p in sorted(mine))


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
