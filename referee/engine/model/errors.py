"""Domain errors. Each carries fields (round, clan, line) and renders one clear line."""

from __future__ import annotations

from dataclasses import dataclass


class RefereeError(Exception):
    """Base of every error the referee reports to a user (never a traceback)."""

    hint: str | None = None

    def __init__(self, message: str, *, hint: str | None = None):
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint

    def __str__(self) -> str:
        return self.message


class NotationError(RefereeError):
    """A line of notation that cannot be read."""

    def __init__(self, text: str, problem: str, *, lineno: int | None = None, hint: str | None = None):
        self.text = text
        self.problem = problem
        self.lineno = lineno
        where = f"line {lineno}: " if lineno is not None else ""
        shown = text if len(text) <= 160 else f"{text[:120]}... ({len(text)} characters)"  # a line may be huge
        super().__init__(f'{where}"{shown}": {problem}', hint=hint)


class NotUnderstood(NotationError):
    """The line does not have the expected form."""


class UnknownName(NotationError):
    def __init__(self, text: str, what: str, name: str, suggestions: list[str], *, lineno: int | None = None):
        self.what = what
        self.name = name
        self.suggestions = suggestions
        did = f" (did you mean {', '.join(repr(s) for s in suggestions)}?)" if suggestions else ""
        super().__init__(text, f"unknown {what} {name!r}{did}", lineno=lineno)


class AmbiguousName(NotationError):
    def __init__(self, text: str, what: str, name: str, candidates: list[str], *, lineno: int | None = None):
        self.what = what
        self.name = name
        self.candidates = candidates
        super().__init__(
            text, f"ambiguous {what} {name!r}: could be {', '.join(repr(c) for c in candidates)}", lineno=lineno
        )


@dataclass(frozen=True, slots=True)
class Refusal:
    """One physically impossible entry (R-08): a typing mistake, refused and never recorded."""

    clan: str
    text: str
    problem: str
    ruling: str = "R-08"

    def line(self, round_no: int | None = None) -> str:
        where = f"round {round_no}, " if round_no is not None else ""
        return f'{where}{self.clan}: "{self.text}": {self.problem} ({self.ruling})'


class EntriesRefused(RefereeError):
    """Some entries of a round are physically impossible; nothing was recorded."""

    def __init__(self, refusals: list[Refusal], round_no: int | None = None):
        self.refusals = refusals
        self.round = round_no
        super().__init__("\n".join(r.line(round_no) for r in refusals))


class EventRefused(RefereeError):
    """A table event whose targets are illegal (R-22): refused, and the state is unchanged.

    One line: ``round 3, crab: "plays promotion army 5": <problem> (<ruling>)``.
    """

    def __init__(
        self, round_no: int | None, clan: str | None, text: str, problem: str, ruling: str, *, hint: str | None = None
    ):
        self.round = round_no
        self.clan = clan
        self.input = text
        self.problem = problem
        self.ruling = ruling
        where = f"round {round_no}, " if round_no is not None else "setup, "
        who = f"{clan}: " if clan else ""
        super().__init__(f'{where}{who}"{text}": {problem} ({ruling})', hint=hint)


class Refuse(Exception):
    """Raised inside the engine by a table event's checks; ``apply_table_event`` turns it into
    ``EventRefused`` with the round, the clan and the quoted input."""

    def __init__(self, problem: str, ruling: str):
        super().__init__(problem)
        self.problem = problem
        self.ruling = ruling
