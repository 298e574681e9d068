"""Table events applied to a board in order (R-22): shared by the fold and the amendments."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.battle import Board, GameState


def apply_table_lines(state: GameState, lines: Sequence[str], board: Board) -> tuple[GameState, list[str]]:
    """Apply table events in order (R-22); the first refused one raises with its line."""
    from ...engine.battle import (
        apply_table_event,  # the cards' machinery, loaded by the games that use it
        parse_table_event,
    )

    notes = []
    for n, line in enumerate(lines, 1):
        state, note = apply_table_event(state, parse_table_event(line, board, n))
        notes.append(note)
    return state, notes
