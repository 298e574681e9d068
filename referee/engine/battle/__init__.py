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
    "model.board": (
        "Board",
        "BoardDataError",
        "build_board",
        "check_board",
    ),
    "model.board_changes": ("board_changes",),
    "model.digest": (
        "digest_parts",
        "state_digest",
        "state_to_dict",
    ),
    "model.entry": ("Entry",),
    "model.errors": (
        "AmbiguousName",
        "EntriesRefused",
        "EventRefused",
        "every_line",
        "GameOver",
        "in_round",
        "NotationError",
        "NotUnderstood",
        "Refusal",
        "SheetErrors",
        "UnknownName",
    ),
    "model.options": ("RulesOptions",),
    "model.state": (
        "begin_round",
        "Control",
        "GameState",
        "Special",
        "SpecialToken",
    ),
    "model.tokens": (
        "Clan",
        "Kind",
        "ROUNDS",
        "Token",
    ),
    "notation.round": (
        "format_entry",
        "format_round",
        "named_round",
        "parse_clan",
        "parse_entry",
        "parse_lines",
        "parse_round",
        "nearest",
        "resolve_name",
        "sheet_for",
        "split_clan",
        "split_round_header",
        "strip_comment",
    ),
    "notation.setup": (
        "apply_board_fact",
        "apply_board_facts",
        "BoardFact",
        "format_board_fact",
        "new_state",
        "parse_board_line",
    ),
    "notation.table_events": (
        "format_table_event",
        "parse_table_event",
    ),
    "notation.table_parts": ("round_kind", "TableEvent"),
    "resolution.inventory": (
        "check_placements",
        "describe_inventory",
        "placement_count",
        "PlacementCount",
    ),
    "resolution.placement": (
        "check_entries",
        "judge",
    ),
    "resolution.report": (
        "Fate",
        "RoundReport",
    ),
    "resolution.resolve": ("resolve",),
    "scoring.honor": (
        "final_score",
        "FinalScore",
        "Score",
        "score_clan",
    ),
    "scoring.objectives": ("objective_met",),
    "table.apply": (
        "apply_table_event",
        "FACTS",
        "SETUP_ONLY",
    ),
}
if TYPE_CHECKING:  # the same names, seen statically by type checkers
    from .model.board import (
        Board as Board,
        BoardDataError as BoardDataError,
        build_board as build_board,
        check_board as check_board,
    )
    from .model.board_changes import board_changes as board_changes
    from .model.digest import (
        digest_parts as digest_parts,
        state_digest as state_digest,
        state_to_dict as state_to_dict,
    )
    from .model.entry import Entry as Entry
    from .model.errors import (
        AmbiguousName as AmbiguousName,
        EntriesRefused as EntriesRefused,
        EventRefused as EventRefused,
        GameOver as GameOver,
        NotationError as NotationError,
        NotUnderstood as NotUnderstood,
        Refusal as Refusal,
        SheetErrors as SheetErrors,
        UnknownName as UnknownName,
        every_line as every_line,
        in_round as in_round,
    )
    from .model.options import RulesOptions as RulesOptions
    from .model.state import (
        Control as Control,
        GameState as GameState,
        Special as Special,
        SpecialToken as SpecialToken,
        begin_round as begin_round,
    )
    from .model.tokens import ROUNDS as ROUNDS, Clan as Clan, Kind as Kind, Token as Token
    from .notation.round import (
        format_entry as format_entry,
        format_round as format_round,
        named_round as named_round,
        nearest as nearest,
        parse_clan as parse_clan,
        parse_entry as parse_entry,
        parse_lines as parse_lines,
        parse_round as parse_round,
        resolve_name as resolve_name,
        sheet_for as sheet_for,
        split_clan as split_clan,
        split_round_header as split_round_header,
        strip_comment as strip_comment,
    )
    from .notation.setup import (
        BoardFact as BoardFact,
        apply_board_fact as apply_board_fact,
        apply_board_facts as apply_board_facts,
        format_board_fact as format_board_fact,
        new_state as new_state,
        parse_board_line as parse_board_line,
    )
    from .notation.table_events import format_table_event as format_table_event, parse_table_event as parse_table_event
    from .notation.table_parts import TableEvent as TableEvent, round_kind as round_kind
    from .resolution.inventory import (
        PlacementCount as PlacementCount,
        check_placements as check_placements,
        describe_inventory as describe_inventory,
        placement_count as placement_count,
    )
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
    from .table.apply import FACTS as FACTS, SETUP_ONLY as SETUP_ONLY, apply_table_event as apply_table_event

_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> object:
    if name in _WHERE:
        value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
