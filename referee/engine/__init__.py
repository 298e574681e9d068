"""The pure rules engine: no I/O, no clock, no randomness, no outer-layer imports.

    model       the values: tokens, board, entries, state, what is tracked, options, errors, digest
    notation    the round, setup and table-event notations, parsed and printed
    resolution  a round judged and resolved, and its report
    table       initiative, cards and the start-of-turn cards: table events applied
    scoring     honor and the secret objectives

Each sub-package imports only those above it in this list (``scoring``: only ``model``).

``resolve(state, entries) -> (state, report)`` resolves one round (rulebook p.9).
Names are re-exported lazily, so that importing one engine module does not load them all.
"""

from importlib import import_module
from typing import TYPE_CHECKING

_EXPORTS = {
    "model.board": ("Board", "BoardDataError", "build_board", "check_board"),
    "model.entry": ("Entry",),
    "model.errors": (
        "AmbiguousName",
        "EntriesRefused",
        "EventRefused",
        "NotationError",
        "NotUnderstood",
        "RefereeError",
        "Refusal",
        "UnknownName",
    ),
    "model.options": ("RulesOptions",),
    "model.state": ("Control", "GameState", "Special", "SpecialToken", "begin_round"),
    "model.tokens": ("Clan", "Kind", "Token"),
    "notation.round": ("format_entry", "format_round", "parse_entry", "parse_round"),
    "notation.table_events": ("format_table_event", "parse_table_event"),
    "notation.table_parts": ("TableEvent",),
    "resolution.placement": ("check_entries", "judge"),
    "resolution.report": ("Fate", "RoundReport"),
    "resolution.resolve": ("resolve",),
    "scoring.honor": ("FinalScore", "Score", "final_score", "score_clan"),
    "scoring.objectives": ("objective_met",),
    "table.apply": ("apply_table_event",),
}
if TYPE_CHECKING:  # the same names, seen statically by type checkers
    from .model.board import (
        Board as Board,
        BoardDataError as BoardDataError,
        build_board as build_board,
        check_board as check_board,
    )
    from .model.entry import Entry as Entry
    from .model.errors import (
        AmbiguousName as AmbiguousName,
        EntriesRefused as EntriesRefused,
        EventRefused as EventRefused,
        NotationError as NotationError,
        NotUnderstood as NotUnderstood,
        RefereeError as RefereeError,
        Refusal as Refusal,
        UnknownName as UnknownName,
    )
    from .model.options import RulesOptions as RulesOptions
    from .model.state import (
        Control as Control,
        GameState as GameState,
        Special as Special,
        SpecialToken as SpecialToken,
        begin_round as begin_round,
    )
    from .model.tokens import Clan as Clan, Kind as Kind, Token as Token
    from .notation.round import (
        format_entry as format_entry,
        format_round as format_round,
        parse_entry as parse_entry,
        parse_round as parse_round,
    )
    from .notation.table_events import format_table_event as format_table_event, parse_table_event as parse_table_event
    from .notation.table_parts import TableEvent as TableEvent
    from .resolution.placement import check_entries as check_entries, judge as judge
    from .resolution.report import Fate as Fate, RoundReport as RoundReport
    from .resolution.resolve import resolve as resolve
    from .scoring.honor import (
        FinalScore as FinalScore,
        Score as Score,
        final_score as final_score,
        score_clan as score_clan,
    )
    from .scoring.objectives import objective_met as objective_met
    from .table.apply import apply_table_event as apply_table_event

_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> object:
    if name in _WHERE:
        value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
