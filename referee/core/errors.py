"""The base of every error the referee reports to a user: one clear line, and an optional hint. Each game's
errors (Battle for Rokugan's, the card game's, Champions of Rokugan's) and each service's are kinds of it, so the
commands and the pages catch one class."""

from __future__ import annotations


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
