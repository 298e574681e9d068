"""Canonical form and digest of a game state: what a round's seal code is computed from."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .state import GameState


def state_to_dict(state: GameState) -> dict[str, Any]:
    """Everything that decides later play, in a canonical, JSON-ready form."""
    return {
        "round": state.round,
        "clans": [str(c) for c in state.clans],
        "control": {p: [str(c.clan), c.facedown, c.faceup] for p, c in sorted(state.control.items())},
        "special": {p: [str(s.kind), s.value] for p, s in sorted(state.special.items())},
        "cards_on_board": {t: c for t, c in sorted(state.cards_on_board.items())},
        "cards_held": {str(c): [list(x) for x in v] for c, v in sorted(state.cards_held.items()) if v},
        "cards_played": sorted(state.cards_played),
        "ronin": sorted(str(c) for c in state.ronin),
        "objectives": {str(c): o for c, o in sorted(state.objectives.items())},
        "options": state.options.to_dict(),
        "board_version": state.board.version,
    }


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_digest(state: GameState) -> str:
    return hashlib.sha256(canonical_json(state_to_dict(state)).encode()).hexdigest()
