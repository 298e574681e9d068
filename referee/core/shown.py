"""What a terminal, a text sheet or a spreadsheet is given of a string a user typed: one function each.

A name, a reason, an event's title or a note can hold anything a keyboard, a file or a network can send:
terminal escape sequences (ESC, OSC links, C1 controls), bidirectional overrides that reorder what is
shown, line breaks that add fake lines, or a spreadsheet formula. ``plain`` makes every such character
visible as an escape (``\\x1b``, ``\\u202e``, ``\\x0a``); ``csv_cell`` keeps a spreadsheet from running a cell
as a formula. Pure: no I/O (the tournament's CSV exports and sheet use both)."""

from __future__ import annotations

import re
from typing import Any

# C0 and C1 controls (line breaks and tabs included), DEL, and the characters that reorder text or break
# lines invisibly: bidirectional marks, embeddings, overrides and isolates, line and paragraph separators
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def plain(text: Any) -> str:
    """``text`` with every control, bidirectional or line-breaking character shown as its escape."""
    text = str(text)
    return CONTROL.sub(_visible, text) if CONTROL.search(text) else text


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run: text starting with ``= + - @``, a tab or a carriage return is
    prefixed with a quote mark (the convention spreadsheets expect, OWASP's "CSV injection"). Numbers stay
    numbers, and so does a negative number written as text (``-3``: not a formula); a text starting with
    ``+`` is quoted even when it reads as a number (a player named ``+0.0`` stays that name, not a 0)."""
    if not isinstance(value, str) or not value.startswith(FORMULA_START):
        return value
    if value.startswith("-"):
        try:
            float(value)
            return value  # "-3": a number as written
        except ValueError:
            pass
    return "'" + value
