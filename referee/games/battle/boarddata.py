"""Loading the board data file shipped with the package (the outer layer's I/O)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from ...engine.battle import Board, build_board


def raw_board() -> dict:
    return json.loads(resources.files("referee").joinpath("data/board.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def load_board() -> Board:
    """The validated board; a damaged data file raises BoardDataError listing every problem."""
    return build_board(raw_board())
