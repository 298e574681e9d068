"""The card game's errors: one line each, naming the input and the rule."""

from __future__ import annotations

from ...core.errors import RefereeError
from .rules import cite


class CcgError(RefereeError):
    """Base of the card game's errors: one clear line (and an optional hint)."""


class NotUnderstood(CcgError):
    """A line that is not of any form the notation knows (invalid)."""

    def __init__(self, text: str, problem: str, *, lineno: int | None = None, hint: str | None = None):
        self.text = text
        where = f"line {lineno}: " if lineno is not None else ""
        super().__init__(f'{where}"{text}": {problem}', hint=hint)


class Refused(CcgError):
    """An event that is understood but impossible at this point of the match (illegal), with its rule."""

    def __init__(self, problem: str, rule: str, *, text: str = "", hint: str | None = None):
        self.problem = problem
        self.rule = rule
        quoted = f'"{text}": ' if text else ""
        super().__init__(f"{quoted}{problem} ({cite(rule)})", hint=hint)
