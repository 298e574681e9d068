"""End-of-game honor (rulebook p.10; R-24, R-24a, R-25): every line names what produced it."""

from __future__ import annotations

from ....core.value import value
from ..model.options import Tiebreak
from ..model.state import GameState, Special, territory_controller
from ..model.tokens import Clan
from .objectives import objective_status

TERRITORY_HONOR = 5
# read once: an enum member read through its class costs a lookup each time, and a game's score reads
# them for every province
BUSHIDO, HONOR, DEFENSE = Special.BUSHIDO, Special.HONOR, Special.DEFENSE


@value
class Line:
    label: str
    honor: int


@value
class Score:
    clan: Clan
    lines: tuple[Line, ...]
    territories: int  # territories controlled (tie-break, R-25), the Shadowlands included (R-25a)
    provinces: int

    @property
    def total(self) -> int:
        return sum(line.honor for line in self.lines)


@value
class FinalScore:
    scores: tuple[Score, ...]  # best first
    winners: tuple[Clan, ...]  # more than one: shared victory
    tiebreak: str  # how the winner was found


def territory_controllers(state: GameState) -> dict[str, Clan | None]:
    """Every territory's controller (R-18; None: nobody), in territory order: found once for every clan's score."""
    provinces, control, special = state.board.territory_provinces, state.control, state.special
    return {t: territory_controller(provinces[t], control, special) for t in state.board.territory_order}


def controlled_territories(
    state: GameState, clan: Clan, controllers: dict[str, Clan | None] | None = None
) -> list[str]:
    """The territories ``clan`` controls; ``controllers``: ``territory_controllers(state)``, when already known."""
    if controllers is None:
        controllers = territory_controllers(state)
    return [t for t, c in controllers.items() if c == clan]


def score_clan(
    state: GameState,
    clan: Clan,
    objective: str | None = None,
    met: bool | None = None,
    *,
    controllers: dict[str, Clan | None] | None = None,
    provinces: list[str] | None = None,
) -> Score:
    """``clan``'s honor on ``state``, line by line; ``controllers``: ``territory_controllers(state)``, and
    ``provinces``: the clan's provinces by name (``state.provinces_of``), when known."""
    board = state.board
    lines: list[Line] = []
    if provinces is None:
        provinces = state.provinces_of(clan)
    specials, control = state.special, state.control
    for p in provinces:
        flowers = board.provinces[p].flowers
        special = specials.get(p)
        kind = special.kind if special else None
        if kind is BUSHIDO:
            lines.append(Line(f"{p}: 4 flowers (Bushido token replaces the printed {flowers})", 4))
        elif flowers:
            lines.append(Line(f"{p}: {flowers} flower(s)", flowers))
        if special and kind is HONOR:
            lines.append(Line(f"{p}: honor bonus token +{special.value}", special.value))
        if kind is DEFENSE:
            lines.append(Line(f"{p}: defense bonus token (+1 honor)", 1))
        faceup = control[p].faceup
        if faceup:
            if p in board.shadowlands:
                lines.append(Line(f"{p}: {faceup} faceup control token(s), none in the Shadowlands (p.10)", 0))
            else:
                lines.append(Line(f"{p}: {faceup} faceup control token(s)", faceup))
    territories = controlled_territories(state, clan, controllers)
    for t in territories:
        if board.territories[t].scores:
            lines.append(Line(f"territory {t}", TERRITORY_HONOR))
        else:
            # still a territory controlled for the tie-break (R-25a); the label is part of every finished
            # game's recorded score digest, so it keeps its words
            lines.append(Line(f"territory {t}: the Shadowlands give no honor (p.10)", 0))
    objective = objective if objective is not None else state.objectives.get(clan)
    if objective:
        facts = board.objectives[objective]

        ok, why = objective_status(state, clan, objective, set(provinces))
        ok = ok if met is None else met
        lines.append(Line(f"objective {facts.name}: {'met' if ok else 'not met'}: {why}", facts.honor if ok else 0))
    return Score(clan, tuple(lines), len(territories), len(provinces))


def final_score(state: GameState) -> FinalScore:
    controllers = territory_controllers(state)
    provinces: dict[Clan, list[str]] = {c: [] for c in state.clans}  # each clan's, by name: one pass
    for p, control in sorted(state.control.items()):
        provinces.setdefault(control.clan, []).append(p)
    scores = [score_clan(state, c, controllers=controllers, provinces=provinces[c]) for c in state.clans]
    total = {s.clan: s.total for s in scores}  # each clan's sum, added once
    best = max(total.values())
    tied = [s for s in scores if total[s.clan] == best]
    how = "most honor"
    if len(tied) > 1 and state.options.tiebreak == Tiebreak.TERRITORIES_THEN_PROVINCES:
        # R-25a: each Shadowlands province is a single-province territory and counts here, though it
        # scores no honor
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
    order = sorted(scores, key=lambda s: (-total[s.clan], -s.territories, -s.provinces, key[s.clan]))
    return FinalScore(tuple(order), tuple(s.clan for s in tied), how)
