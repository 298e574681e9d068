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
    "scoring.honor": ("FinalScore", "Score", "final_score", "objective_met", "score_clan"),
    "table.apply": ("apply_table_event",),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
