"""A number written in a line of notation: a strength, a count, a value or a round."""

from __future__ import annotations

from ..model.errors import NotUnderstood

MAX_DIGITS = 6  # no count, strength, value or round on the table comes near a million


def number(digits: str, text: str, lineno: int | None) -> int:
    """``digits`` (matched by ``\\d+``) as an int, refused with the line when it is too long to be a number on
    the table (Python itself refuses to read one of more than 4,300 digits) or is not ASCII digits."""
    if len(digits) > MAX_DIGITS:
        raise NotUnderstood(text, f"a number of {len(digits)} digits: too large", lineno=lineno)
    try:
        return int(digits)
    except ValueError:
        raise NotUnderstood(text, f"{digits!r} is not a number", lineno=lineno) from None
