"""What to change on the physical board to go from one board to another, in the moderator's words.

A retraction or a correction does not repeat the old round's report: the table already shows the board
as it was recorded, so the moderator needs the difference between that board and the board as it now
stands (``board_changes(before, after)``), province by province. Pure: two states in, lines out.
"""

from __future__ import annotations

from .state import Control, GameState


def _tokens(c: Control | None) -> str:
    if c is None:
        return "no control token"
    parts = [f"{c.facedown} facedown" if c.facedown else "", f"{c.faceup} faceup" if c.faceup else ""]
    return f"{c.clan} control: " + " + ".join(p for p in parts if p)


def board_changes(before: GameState, after: GameState) -> list[str]:
    """Every difference between two boards, as things to do at the table (empty: nothing to change)."""
    out: list[str] = []
    for p in sorted(set(before.control) | set(after.control)):
        a, b = before.control.get(p), after.control.get(p)
        if a == b:
            continue
        if a is not None and (b is None or b.clan != a.clan):
            out.append(f"remove {a.count} {a.clan} control token(s) from {p}")
            a = None
        if b is not None:
            if a is None:
                out.append(f"place {_tokens(b)} in {p}")
            else:
                for side, n in (("facedown", b.facedown - a.facedown), ("faceup", b.faceup - a.faceup)):
                    if n > 0:
                        out.append(f"add {n} {b.clan} control token(s) {side} in {p}")
                    elif n < 0:
                        out.append(f"remove {-n} {side} {b.clan} control token(s) from {p}")
    for p in sorted(set(before.special) | set(after.special)):
        was, now = before.special.get(p), after.special.get(p)
        if was == now:
            continue
        if was is not None:
            out.append(f"remove the {was} token from {p}")
        if now is not None:
            out.append(f"place a {now} token in {p}")
    for t in sorted(set(before.cards_on_board) | set(after.cards_on_board)):
        if (t in before.cards_on_board) != (t in after.cards_on_board):
            card = after.cards_on_board.get(t) or before.cards_on_board.get(t)
            what = f"the {t} territory card" + (f" ({card})" if card else "")
            out.append(f"put {what} back on its space" if t in after.cards_on_board else f"take {what} off its space")
    for clan in sorted(set(before.cards_held) | set(after.cards_held)):
        held, holds = set(before.cards_held.get(clan, ())), set(after.cards_held.get(clan, ()))
        for t, card in sorted(holds - held, key=str):
            out.append(f"{clan} takes the {t} territory card" + (f" ({card})" if card else ""))
        for t, card in sorted(held - holds, key=str):
            out.append(f"{clan} gives back the {t} territory card" + (f" ({card})" if card else ""))
    for card in sorted(after.cards_played - before.cards_played):
        out.append(f"the {card} card is played: out of the game")
    for card in sorted(before.cards_played - after.cards_played):
        out.append(f"the {card} card is back in play")
    if before.round != after.round:
        out.append(
            f"set the round track to {min(after.round, 5)}" + (" (the fifth round is over)" if after.round > 5 else "")
        )
    return out
