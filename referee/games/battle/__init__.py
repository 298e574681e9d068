"""The game log: one append-only, hash-chained stream of events per game (SQLModel storage), from
which state, reports and scores are always recomputed with the engine.

    events   event types, payload versions and upcasters, the hash chain, seal codes
    replay   the fold: replay, states, verify, what_if, corrections
    storage  the SQLModel tables (append-only, enforced by triggers): Store
    game     the game service: new_game, and OpenGame's commands (the one way to record)
    records  export and import: JSON Lines and the plain-text game record
"""

from ...store.events import Divergence, Event, EventFormatError, EventType, LogError, Problem, check_chain, format_seal
from ...store.storage import (
    DEFAULT_DB,
    ENV_DB,
    GameChanged,
    GameExists,
    GameInfo,
    Store,
    StoreError,
    UnknownGame,
    database_url,
)
from .ending import GameScore, game_ended, game_score
from .replay import (
    BoardAfter,
    Correction,
    Fold,
    ReplayError,
    Step,
    WhatIf,
    board_after,
    corrections,
    score,
    state_after_round,
    states,
    verify,
    what_if,
)
from .service import OpenGame, new_game, recorded_header

__all__ = [
    "BoardAfter",
    "Correction",
    "DEFAULT_DB",
    "Divergence",
    "ENV_DB",
    "Event",
    "EventFormatError",
    "EventType",
    "Fold",
    "GOLDEN_GAMES",
    "GameChanged",
    "GameScore",
    "GameExists",
    "GameInfo",
    "LogError",
    "OpenGame",
    "Problem",
    "RecordError",
    "ReplayError",
    "Step",
    "Store",
    "StoreError",
    "UnknownGame",
    "WhatIf",
    "board_after",
    "check_chain",
    "corrections",
    "database_url",
    "export_jsonl",
    "export_text",
    "format_seal",
    "game_ended",
    "game_score",
    "golden",
    "import_records",
    "new_game",
    "parse_jsonl",
    "parse_records",
    "parse_text",
    "recorded_header",
    "relabel",
    "score",
    "state_after_round",
    "states",
    "verify",
    "what_if",
]

_RECORDS = (
    "GOLDEN_GAMES",
    "RecordError",
    "export_jsonl",
    "export_text",
    "golden",
    "import_records",
    "parse_jsonl",
    "parse_records",
    "parse_text",
    "relabel",
)


def __getattr__(name: str):
    """Export and import load on first use: a command that only plays a round does not need them."""
    if name in _RECORDS:
        from . import records

        return getattr(records, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
