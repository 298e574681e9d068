"""The round notation (PRODUCT.md): parsed once at the edge, printed canonically.

<clan>: <token> [<strength>] <place> [+ blessing <strength>]...
<place> := @ <province> | <from> > <to> | sea > <to>
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

from ....core.errors import RefereeError
from ..model.board import SEA, Board
from ..model.entry import Entry
from ..model.errors import AmbiguousName, NotUnderstood, UnknownName, every_line
from ..model.tokens import ROUNDS, Clan, Kind, Token
from .number import number

ENTRY_FORM = "<clan>: <token> [<strength>] (@ <province> | <from> > <to> | sea > <to>) [+ blessing <strength>]..."
CLAN_NAMES: dict[str, str] = {c.value: c.value for c in Clan}
KIND_NAMES: dict[str, str] = {k.value: k.value for k in Kind}


def normalise(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def resolve_name(name: str, names: Mapping[str, str], what: str, text: str, lineno: int | None = None) -> str:
    """Exact id or alias first, then a unique prefix; otherwise UnknownName or AmbiguousName."""
    found = names.get(name) or names.get(name.strip())
    if found is not None:  # already canonical: the common case when replaying a log
        return found
    key = normalise(name)
    if not key:
        raise NotUnderstood(text, f"missing {what}", lineno=lineno, hint=f"expected: {ENTRY_FORM}")
    if key in names:
        return names[key]
    targets = sorted({target for alias, target in names.items() if alias.startswith(key)})
    if len(targets) == 1:
        return targets[0]
    if len(targets) > 1:
        raise AmbiguousName(text, what, name.strip(), targets, lineno=lineno)
    raise UnknownName(text, what, name.strip(), nearest(key, names), lineno=lineno)


def nearest(key: str, names: Mapping[str, str]) -> list[str]:
    """The names nearest an unknown one (at most three, each once): what "did you mean" suggests, for a
    province, a token, a clan, and a tournament's player."""
    close = difflib.get_close_matches(key, list(names), n=3, cutoff=0.5)
    return list(dict.fromkeys(names[c] for c in close))


def parse_clan(name: str, text: str, lineno: int | None = None) -> Clan:
    return Clan(resolve_name(name, CLAN_NAMES, "clan", text, lineno))


def split_clan(text: str, lineno: int | None = None, form: str = ENTRY_FORM) -> tuple[str, str]:
    head, colon, rest = text.partition(":")
    if not colon or not head.strip() or not rest.strip():
        raise NotUnderstood(text, "not understood", lineno=lineno, hint=f"expected: {form}")
    return head.strip(), rest.strip()


def parse_entry(text: str, board: Board, lineno: int | None = None) -> Entry:
    """One line of round notation (comments already stripped)."""
    text = text.strip()
    head, rest = split_clan(text, lineno)
    clan = parse_clan(head, text, lineno)
    parts = [p.strip() for p in rest.split("+")]
    token_and_place, blessing_parts = parts[0], parts[1:]
    blessings = tuple(sorted((_parse_blessing(b, text, lineno) for b in blessing_parts), reverse=True))
    m = re.match(r"^([A-Za-z]+)\s*(\d+)?\s*(.*)$", token_and_place)
    if not m:
        raise NotUnderstood(text, "not understood", lineno=lineno, hint=f"expected: {ENTRY_FORM}")
    kind = Kind(resolve_name(m.group(1), KIND_NAMES, "token", text, lineno))
    strength = number(m.group(2), text, lineno) if m.group(2) else None
    if kind.has_strength and strength is None:
        raise NotUnderstood(
            text, f"{kind} needs a strength", lineno=lineno, hint=f"for example: {clan}: {kind} 2 @ <province>"
        )
    if not kind.has_strength and strength is not None:
        raise NotUnderstood(
            text, f"{kind} has no strength", lineno=lineno, hint=f"for example: {clan}: {kind} @ <province>"
        )
    if kind == Kind.BLESSING:
        raise NotUnderstood(
            text,
            "a blessing is written on the token it sits on",
            lineno=lineno,
            hint=f"for example: {clan}: army 3 @ <province> + blessing {strength}",
        )
    province, source = _parse_place(m.group(3), board, text, lineno)
    return Entry(clan, Token(kind, strength), province, source, blessings)


def _parse_blessing(part: str, text: str, lineno: int | None) -> int:
    m = re.fullmatch(r"([A-Za-z]+)\s*(\d+)", part)
    if not m or not "blessing".startswith(m.group(1).lower()) or len(m.group(1)) < 2:
        raise NotUnderstood(
            text,
            f"after '+' expected 'blessing <strength>', got {part!r}",
            lineno=lineno,
            hint=f"expected: {ENTRY_FORM}",
        )
    return number(m.group(2), text, lineno)


def _parse_place(place: str, board: Board, text: str, lineno: int | None) -> tuple[str, str | None]:
    place = place.strip()
    if place.startswith("@"):
        return resolve_name(place[1:], board.names, "province", text, lineno), None
    if ">" in place:
        left, _, right = place.partition(">")
        to = resolve_name(right, board.names, "province", text, lineno)
        if normalise(left) == SEA:
            return to, SEA
        return to, resolve_name(left, board.names, "province", text, lineno)
    raise NotUnderstood(
        text, "missing place ('@ <province>' or '<from> > <to>')", lineno=lineno, hint=f"expected: {ENTRY_FORM}"
    )


def format_entry(entry: Entry) -> str:
    return str(entry)


def strip_comment(line: str) -> str:
    return line.split("#", 1)[0].strip()


def parse_lines(text: str) -> Iterable[tuple[int, str]]:
    """Numbered, comment-free, non-blank lines."""
    for n, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw)
        if line:
            yield n, line


def split_round_header(text: str, rounds: int = ROUNDS) -> tuple[int | None, str]:
    """The round a sheet names in its first line (``round: N``, R-27), and the sheet with that line
    blanked (line numbers stay those of the file). ``None`` when the sheet names no round."""
    lines = text.splitlines()
    for i, raw in enumerate(lines):
        line = strip_comment(raw)
        if not line:
            continue
        head, colon, value = line.partition(":")
        if head.strip().lower() != "round":
            return None, text
        value = value.strip()
        if not colon or not re.fullmatch("[0-9]{1,2}", value) or not 1 <= int(value) <= rounds:
            raise NotUnderstood(
                line, f"a round sheet's header names one of the {rounds} rounds: 'round: N' (R-27)", lineno=i + 1
            )
        lines[i] = ""
        return int(value), "\n".join(lines) + "\n"
    return None, text


def named_round(option: int | None, header: int | None, where: str) -> int | None:
    """The round the moderator named, by ``--round`` or the sheet's header (R-27); both must agree."""
    if option is not None and header is not None and option != header:
        raise RefereeError(f"{where}: --round {option}, but the sheet says 'round: {header}'; nothing recorded (R-27)")
    return option if option is not None else header


def sheet_for(text: str, round_no: int, where: str) -> str:
    """A round sheet given for round ``round_no`` (``what-if``, ``correct``): its ``round: N`` header, if any,
    must name that round (R-27); the sheet without the header (line numbers kept)."""
    header, body = split_round_header(text)
    if header is not None and header != round_no:
        raise RefereeError(f"{where}: the sheet says 'round: {header}', not round {round_no}; nothing done (R-27)")
    return body


def parse_round(text: str, board: Board) -> list[Entry]:
    """Every entry of a round sheet; unreadable lines raise, every one of them with its line number."""
    return every_line(parse_lines(text), lambda line, n: parse_entry(line, board, lineno=n))


def format_round(entries: Iterable[Entry]) -> str:
    return "".join(format_entry(e) + "\n" for e in entries)
