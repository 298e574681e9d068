"""Notation for the board's standing facts and table events, one line each, in the round notation's spirit.

<clan>: control [<n>] [faceup|facedown] @ <province>   control tokens (facedown unless said)
board: <special> [<value>] @ <province>                 peace, scorched, shrine, battlefield, harbor,
                                                        honor 1|2, bushido, defense 1|2
board: card <card|unknown> @ <territory>                the card lying on a territory's space
board: card played @ <territory>                        the territory's card is gone for the game
<clan>: holds <card|unknown> [@ <territory>]            a claimed, unplayed territory card
<clan>: objective <objective>                           the clan's secret objective
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..model.board import Board
from ..model.errors import NotUnderstood
from ..model.state import Control, GameState, Special, SpecialToken
from ..model.tokens import Clan
from .number import number
from .round import normalise, parse_clan, resolve_name, split_clan

BOARD_FORM = (
    "<clan>: control [<n>] [faceup|facedown] @ <province> | board: <special> [<value>] @ <province> | "
    "board: card <card|unknown|played> @ <territory> | <clan>: holds <card> | <clan>: objective <objective>"
)
SPECIAL_VALUES = {Special.HONOR: (1, 2), Special.DEFENSE: (1, 2)}


@dataclass(frozen=True, slots=True)
class BoardFact:
    """One setup fact (the setup notation): control tokens, a special token, a card, an objective."""

    kind: str  # control | special | card | holds | objective
    clan: Clan | None = None
    province: str | None = None
    facedown: int = 0
    faceup: int = 0
    special: SpecialToken | None = None
    territory: str | None = None
    card: str | None = None  # None: unknown
    played: bool = False
    objective: str | None = None


def parse_board_line(text: str, board: Board, lineno: int | None = None) -> BoardFact:
    text = text.strip()
    head, rest = split_clan(text, lineno, BOARD_FORM)
    words = rest.split("@", 1)
    body, where = words[0].strip(), (words[1].strip() if len(words) == 2 else None)
    if normalise(head) == "board":
        return _board_fact(text, body, where, board, lineno)
    clan = parse_clan(head, text, lineno)
    verb, _, args = body.partition(" ")
    verb = normalise(verb)
    if verb == "control" and where:
        m = re.fullmatch(r"(\d+)?\s*(faceup|facedown)?", args.strip().lower())
        if not m:
            raise NotUnderstood(
                text,
                "not understood",
                lineno=lineno,
                hint=f"expected: {clan}: control [<n>] [faceup|facedown] @ <province>",
            )
        n = number(m.group(1), text, lineno) if m.group(1) else 1
        province = resolve_name(where, board.names, "province", text, lineno)
        up = m.group(2) == "faceup"
        return BoardFact("control", clan, province, facedown=0 if up else n, faceup=n if up else 0)
    if verb == "holds" and args:
        card, territory = _card(args, where, board, text, lineno)
        return BoardFact("holds", clan, territory=territory, card=card)
    if verb == "objective" and args and not where:
        objective = resolve_name(args, {o: o for o in board.objectives}, "objective", text, lineno)
        return BoardFact("objective", clan, objective=objective)
    raise NotUnderstood(text, "not understood", lineno=lineno, hint=f"expected: {BOARD_FORM}")


def _card(name: str, where: str | None, board: Board, text: str, lineno: int | None) -> tuple[str | None, str]:
    if normalise(name) == "unknown":
        if not where:
            raise NotUnderstood(text, "an unknown card needs its territory: '@ <territory>'", lineno=lineno)
        return None, resolve_name(where, {t: t for t in board.territories}, "territory", text, lineno)
    card = resolve_name(name, {c: c for c in board.cards}, "card", text, lineno)
    territory = board.cards[card].territory
    if where:
        named = resolve_name(where, {t: t for t in board.territories}, "territory", text, lineno)
        if named != territory:
            raise NotUnderstood(text, f"{card} belongs to the {territory} territory, not {named}", lineno=lineno)
    return card, territory


def _board_fact(text: str, body: str, where: str | None, board: Board, lineno: int | None) -> BoardFact:
    if not where:
        raise NotUnderstood(text, "missing '@ <province>'", lineno=lineno, hint=f"expected: {BOARD_FORM}")
    word, _, arg = body.partition(" ")
    if normalise(word) == "card":
        if normalise(arg) == "played":
            territory = resolve_name(where, {t: t for t in board.territories}, "territory", text, lineno)
            return BoardFact("card", territory=territory, played=True)
        card, territory = _card(arg, where, board, text, lineno)
        return BoardFact("card", territory=territory, card=card)
    names = {s.value: s.value for s in Special} | {"scorched_earth": "scorched"}
    kind = Special(resolve_name(word, names, "special token", text, lineno))
    value = 0
    if kind in SPECIAL_VALUES:
        if not re.fullmatch("[0-9]{1,3}", arg.strip()) or int(arg) not in SPECIAL_VALUES[kind]:
            raise NotUnderstood(
                text, f"a {kind} token has value {' or '.join(map(str, SPECIAL_VALUES[kind]))}", lineno=lineno
            )
        value = int(arg)
    elif arg.strip():
        raise NotUnderstood(text, f"a {kind} token takes no value", lineno=lineno)
    province = resolve_name(where, board.names, "province", text, lineno)
    return BoardFact("special", province=province, special=SpecialToken(kind, value))


def format_board_fact(f: BoardFact) -> str:
    if f.kind == "control":
        n, side = (f.faceup, "faceup") if f.faceup else (f.facedown, "facedown")
        return f"{f.clan}: control {n} {side} @ {f.province}"
    if f.kind == "special":
        return f"board: {f.special} @ {f.province}"
    if f.kind == "card":
        return f"board: card {'played' if f.played else (f.card or 'unknown')} @ {f.territory}"
    if f.kind == "holds":
        return f"{f.clan}: holds {f.card or 'unknown'} @ {f.territory}"
    return f"{f.clan}: objective {f.objective}"


def apply_board_fact(state: GameState, f: BoardFact) -> GameState:
    """Lay one fact on the board. Control tokens of another clan in that province are a conflict."""
    return apply_board_facts(state, (f,))


def apply_board_facts(state: GameState, facts: Iterable[BoardFact]) -> GameState:
    """Lay facts on the board one after another (a setup's facts: one copy of the state, not one per fact).
    Control tokens of another clan in a province are a conflict, refused at the fact that brings them."""
    new: dict[str, Any] = {}  # the state's fields that change, copied on first change

    def copy(name: str) -> dict[Any, Any]:
        if name not in new:
            new[name] = dict(getattr(state, name))
        copied: dict[Any, Any] = new[name]
        return copied

    for f in facts:
        if f.kind == "control":
            assert f.clan is not None and f.province is not None  # a control fact names both (parse_board_line)
            control = copy("control")
            current = control.get(f.province)
            if current is None:
                control[f.province] = Control(f.clan, f.facedown, f.faceup)
            elif current.clan != f.clan:
                raise NotUnderstood(
                    format_board_fact(f),
                    f"{f.province} is already controlled by {current.clan}: one clan controls a province (p.6)",
                )
            else:
                control[f.province] = Control(f.clan, current.facedown + f.facedown, current.faceup + f.faceup)
        elif f.kind == "special":
            assert f.province is not None and f.special is not None
            copy("special")[f.province] = f.special
            control = copy("control")
            if f.special.kind == Special.SCORCHED:
                control.pop(f.province, None)
        elif f.kind == "card":
            assert f.territory is not None
            on_board = copy("cards_on_board")
            if f.played:
                on_board.pop(f.territory, None)
                new["cards_played"] = new.get("cards_played", state.cards_played) | ({f.card} if f.card else set())
            else:
                on_board[f.territory] = f.card
        elif f.kind == "holds":
            assert f.clan is not None and f.territory is not None
            copy("cards_on_board").pop(f.territory, None)
            held = copy("cards_held")
            held[f.clan] = held.get(f.clan, ()) + ((f.territory, f.card),)
        else:
            assert f.clan is not None and f.objective is not None  # an objective fact
            copy("objectives")[f.clan] = f.objective
    return state.with_(**new) if new else state


def new_state(board: Board, clans: tuple[Clan, ...], **kwargs: Any) -> GameState:
    """An empty board with every territory's card face down on its space (identity unknown)."""
    return GameState(board, clans, cards_on_board={t: None for t in board.territories}, **kwargs)
