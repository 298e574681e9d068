"""Battle for Rokugan's errors, kinds of the referee's one error base (``referee.core.errors``). Each carries
fields (round, clan, line) and renders one clear line."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from ....core.errors import RefereeError

S = TypeVar("S")
T = TypeVar("T")


class NotationError(RefereeError):
    """A line of notation that cannot be read."""

    def __init__(self, text: str, problem: str, *, lineno: int | None = None, hint: str | None = None):
        self.text = text
        self.problem = problem
        self.lineno = lineno
        where = f"line {lineno}: " if lineno is not None else ""
        shown = text if len(text) <= 160 else f"{text[:120]}... ({len(text)} characters)"  # a line may be huge
        super().__init__(f'{where}"{shown}": {problem}', hint=hint)


class SheetErrors(NotationError):
    """Several unreadable lines of one sheet, reported together: one line each, with its line number, the
    first ``SHOWN`` of them and how many more. Carries the first error's fields (text, problem, line)."""

    SHOWN = 20

    def __init__(self, errors: list[NotationError], prefix: str = ""):
        self.errors = errors
        first = errors[0]
        shown = [f"{prefix}{e.message}" for e in errors[: self.SHOWN]]
        more = len(errors) - self.SHOWN
        if more > 0:
            shown.append(f"{prefix}... and {more} more unreadable line(s) ({len(errors)} in all)")
        hint = next((e.hint for e in errors if e.hint), None)
        RefereeError.__init__(self, "\n".join(shown), hint=hint)
        self.text, self.problem, self.lineno = first.text, first.problem, first.lineno


def in_round(exc: NotationError, round_no: int) -> NotationError:
    """The error named with the round its sheet is for: every line of it (``round 3: line 2: ...``)."""
    if isinstance(exc, SheetErrors):
        return SheetErrors(exc.errors, prefix=f"round {round_no}: ")
    exc.message = f"round {round_no}: {exc.message}"
    return exc


def every_line(items: Iterable[tuple[int, S]], parse: Callable[[S, int], T]) -> list[T]:
    """``parse(line, lineno)`` of every numbered line; every unreadable one is reported, not only the
    first: one error is raised as it is, several together as ``SheetErrors``."""
    out: list[T] = []
    errors: list[NotationError] = []
    for n, line in items:
        try:
            out.append(parse(line, n))
        except SheetErrors as exc:
            errors += exc.errors
        except NotationError as exc:
            errors.append(exc)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise SheetErrors(errors)
    return out


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


class GameOver(RefereeError):
    """A round asked of a game whose five rounds are played (p.10, R-27a): refused at every layer."""

    ruling = "R-27a"

    def __init__(self, round_no: int):
        self.round = round_no
        super().__init__(
            f"round {round_no}: the game has five rounds (p.10) and the fifth is over: no round {round_no} "
            f"is played ({self.ruling})"
        )


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
