"""What card effects do to the board, each with the check a judge would make first.

Control tokens (p.6, p.11, R-26), special tokens (p.10, R-19, R-20) and targeted combat tokens
(R-10, R-22). Every check raises ``Refuse(problem, ruling)``; the caller names the event.
"""

from __future__ import annotations

from dataclasses import replace

from ..model.board import SEA
from ..model.errors import Refuse
from ..model.state import Control, GameState, Special, SpecialToken
from ..model.tokens import Clan
from ..notation.table_parts import Target, format_target
from ..resolution.inventory import require_available, table_of

UNIQUE_SPECIALS = (Special.SHRINE, Special.HARBOR, Special.BATTLEFIELD, Special.BUSHIDO)


def require_controls(state: GameState, clan: Clan, province: str, ruling: str, what: str = "") -> None:
    if not state.controls(clan, province):
        owner = state.controller(province)
        held = f"{owner} controls it" if owner else "nobody controls it"
        raise Refuse(f"{what or province} must be a province {clan} controls; {held}", ruling)


def require_not_shadowlands(state: GameState, province: str, ruling: str) -> None:
    if state.board.territory_of(province).is_shadowlands:
        raise Refuse(f"{province} is in the Shadowlands: the card names a non-Shadowlands province", ruling)


def require_distinct(provinces: tuple[str, ...], ruling: str) -> None:
    if len(set(provinces)) != len(provinces):
        raise Refuse(f"the provinces must be different: {', '.join(provinces)}", ruling)


def add_control(
    state: GameState, clan: Clan, province: str, *, faceup: int = 0, facedown: int = 0, ruling: str
) -> tuple[GameState, str]:
    """Add control tokens to a province (nobody else's, never scorched). R-26: the supply."""
    if state.is_scorched(province):
        raise Refuse(f"{province} is scorched earth: it cannot be controlled (p.10)", ruling)
    current = state.control.get(province)
    if current is not None and current.clan != clan:
        raise Refuse(f"{current.clan} controls {province}: one clan controls a province (p.6)", ruling)
    n = faceup + facedown
    supply = state.control_supply(clan)
    warning = ""
    if n > supply:
        if state.options.control_supply_limit:
            keep = max(supply, 0)
            faceup, facedown = min(faceup, keep), min(facedown, max(keep - faceup, 0))
            warning = (
                f"; {clan} has {keep} control token(s) left: only {faceup + facedown} added "
                "(R-26, control_supply_limit on)"
            )
        else:
            warning = f"; {clan} has {max(supply, 0)} control token(s) left: use substitute markers (R-26)"
    base = current or Control(clan, 0, 0)
    control = dict(state.control)
    if base.count + faceup + facedown:
        control[province] = Control(clan, base.facedown + facedown, base.faceup + faceup)
    sides = ", ".join(
        x for x in (f"{faceup} faceup" if faceup else "", f"{facedown} facedown" if facedown else "") if x
    )
    return state.with_(control=control), f"add {sides or 'no'} {clan} control token(s) in {province}{warning}"


def take_control_token(state: GameState, clan: Clan, province: str, ruling: str) -> tuple[GameState, str]:
    """The Shadowlands cost: one of the clan's control tokens off a non-Shadowlands province,
    faceup before facedown (p.6, p.11); it returns to the clan's supply."""
    require_not_shadowlands(state, province, ruling)
    require_controls(state, clan, province, ruling, f"the cost province {province}")
    c = state.control[province]
    control = dict(state.control)
    c = replace(c, faceup=c.faceup - 1) if c.faceup else replace(c, facedown=c.facedown - 1)
    side = "faceup" if state.control[province].faceup else "facedown"
    if c.count:
        control[province] = c
        left = ""
    else:
        del control[province]
        left = f"; {clan} no longer controls {province}"
    return state.with_(control=control), f"{clan} takes a {side} control token off {province}{left}"


def place_special(state: GameState, province: str, token: SpecialToken, ruling: str) -> tuple[GameState, str]:
    """R-19: one special token per province; peace and scorched earth are never replaced (not even
    by each other) but replace any other; R-20: the harbor only in a printed landlocked province."""
    current = state.special.get(province)
    if current is not None and current.kind.permanent:
        raise Refuse(f"{province} holds a {current} token: peace and scorched earth are never replaced (R-19)", ruling)
    if token.kind == Special.HARBOR and province in state.board.coastal:
        raise Refuse(
            f"{province} is coastal: the harbor goes only in a landlocked province (p.10)",
            ruling if ruling.startswith("card:") else "R-20",
        )
    special = dict(state.special)
    control = dict(state.control)
    notes = [f"place the {token} token in {province}"]
    if current is not None:
        notes.append(f"it replaces the {current} token (R-19)")
    if token.kind in UNIQUE_SPECIALS:
        for p, s in state.special.items():
            if s.kind == token.kind and p != province:
                del special[p]
                notes.append(f"the only {token.kind} token is taken from {p}")
    special[province] = token
    if token.kind == Special.SCORCHED and province in control:
        gone = control.pop(province)
        notes.append(f"{gone.count} {gone.clan} control token(s) there return to {gone.clan}'s supply")
    return state.with_(special=special, control=control), "; ".join(notes)


def remove_special(state: GameState, province: str, kind: Special | None, ruling: str) -> tuple[GameState, str]:
    current = state.special.get(province)
    if current is None or (kind is not None and current.kind != kind):
        what = f"a {kind} token" if kind else "a special token"
        has = f"it holds {current}" if current else "it holds none"
        raise Refuse(f"{province} must hold {what}; {has}", ruling)
    special = dict(state.special)
    del special[province]
    why = (
        " (peace and scorched earth are special tokens too, R-19a)"
        if current.kind in (Special.PEACE, Special.SCORCHED)
        else ""
    )
    return state.with_(special=special), f"take the {current} token off {province} (back to the pile){why}"


def check_target(state: GameState, clan: Clan, target: Target, ruling: str, *, opponent: bool) -> None:
    """A combat token on the board named by a card or an ability (R-22): its owner plays, is an
    opponent where the card says so, it is not blessed (R-10), its place exists, and a token named
    is one its owner can have (R-08)."""
    if target.owner not in state.clans:
        raise Refuse(f"{target.owner} is not playing in this game", ruling)
    if opponent and target.owner == clan:
        raise Refuse(f"the card targets an opponent's token, not {clan}'s own", ruling)
    if target.blessings:
        raise Refuse(
            f"{format_target(target)} is blessed: a blessed token and its blessings cannot be targeted "
            "by card effects or clan abilities (p.8)",
            "R-10",
        )
    check_place(state, target.province, target.source, ruling)
    if target.token is not None:
        require_available(state, target.owner, target.token, "R-08")


def check_place(state: GameState, province: str, source: str | None, ruling: str) -> None:
    if source == province:
        raise Refuse("a token cannot point from a province into itself", "R-08")
    if source == SEA and not state.is_coastal(province):
        raise Refuse(f"{province} has no coastal border (landlocked, p.6)", "R-08")
    if source not in (None, SEA) and not state.board.adjacent(source, province):
        raise Refuse(f"{source} and {province} share no border", "R-08")


def note(state: GameState, text: str) -> GameState:
    t = table_of(state)
    return state.with_(table=replace(t, notes=t.notes + (text,)))
