"""How a number written as text is read: one function for every number a file, a form or a command line holds.

``str.isdigit()`` is true of ``'²'`` and ``'①'``, which ``int()`` refuses; ``str.isdecimal()`` is true of ``'١'``
(Arabic-Indic one) and ``'１'`` (full width), which ``int()`` takes as 1. A record, a form or a typed line that
names a number with such a character is not one the referee wrote, nor one a player typed on purpose: it is
refused as not a number, as a letter would be. Pure: no I/O.
"""

from __future__ import annotations

MOST_DIGITS = 18  # far beyond any round, event, table or version; int() of thousands of digits is refused anyway


def whole(text: object, most: int = MOST_DIGITS) -> int | None:
    """``text`` as a whole number written in ASCII digits (``0``-``9``, at most ``most`` of them, no sign, no
    space), or None when it is not one."""
    if not isinstance(text, str) or not 0 < len(text) <= most or not text.isascii() or not text.isdecimal():
        return None
    return int(text)
