"""The pure rules engine: no I/O, no clock, no randomness, no outer-layer imports.

``resolve(state, entries) -> (state, report)`` resolves one round (rulebook p.9).
"""

from .board import Board, BoardDataError, build_board, check_board
from .errors import AmbiguousName, EntriesRefused, NotationError, NotUnderstood, RefereeError, Refusal, UnknownName
from .honor import FinalScore, Score, final_score, objective_met, score_clan
from .notation import Entry, format_entry, format_round, parse_entry, parse_round
from .options import RulesOptions
from .placement import check_entries, judge
from .report import Fate, RoundReport
from .resolve import resolve
from .state import Control, GameState, Special, SpecialToken, begin_round
from .tokens import Clan, Kind, Token

__all__ = [
    "AmbiguousName", "Board", "BoardDataError", "Clan", "Control", "Entry", "EntriesRefused", "Fate",
    "FinalScore", "GameState", "Kind", "NotUnderstood", "NotationError", "RefereeError", "Refusal",
    "RoundReport", "RulesOptions", "Score", "Special", "SpecialToken", "Token", "UnknownName",
    "begin_round", "build_board", "check_board", "check_entries", "final_score", "format_entry",
    "format_round", "judge", "objective_met", "parse_entry", "parse_round", "resolve", "score_clan",
]
