"""The pure rules engine: no I/O, no clock, no randomness, no outer-layer imports.

``resolve(state, entries) -> (state, report)`` resolves one round (rulebook p.9).
Names are re-exported lazily, so that importing one engine module does not load them all.
"""

from importlib import import_module

_EXPORTS = {
    "board": ("Board", "BoardDataError", "build_board", "check_board"),
    "errors": ("AmbiguousName", "EntriesRefused", "EventRefused", "NotationError", "NotUnderstood", "RefereeError", "Refusal", "UnknownName"),
    "honor": ("FinalScore", "Score", "final_score", "objective_met", "score_clan"),
    "notation": ("Entry", "format_entry", "format_round", "parse_entry", "parse_round"),
    "options": ("RulesOptions",),
    "placement": ("check_entries", "judge"),
    "report": ("Fate", "RoundReport"),
    "resolve": ("resolve",),
    "state": ("Control", "GameState", "Special", "SpecialToken", "begin_round"),
    "tokens": ("Clan", "Kind", "Token"),
    "flow": ("apply_table_event",),
    "table": ("TableEvent", "format_table_event", "parse_table_event"),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
