"""The rulings document shipped with the package (``referee/data/rulings.md``), read into values.

The document is Markdown: one ``## R-xx Title`` section per ruling, then ``- Sources: ...`` and any
``- Option: `name` default `value` (allowed: ...)`` lines, then the ruling's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

_HEADING = re.compile(r"^## (R-\d+[a-z]?) (.+)$")
_OPTION = re.compile(r"^`(\w+)` default `([^`]+)` \(allowed: (.+)\)$")


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    default: str
    allowed: str  # as written: "`true`, `false`" or "any whole number from 0"

    @property
    def values(self) -> tuple[str, ...]:
        """The allowed values when the document lists them (empty for a range written in words)."""
        return tuple(re.findall(r"`([^`]+)`", self.allowed))


@dataclass(frozen=True, slots=True)
class Ruling:
    id: str
    title: str
    sources: str
    options: tuple[Option, ...]
    text: str

    @property
    def family(self) -> str:
        """The ruling it refines: ``R-17`` for ``R-17b``, itself for ``R-17``."""
        return self.id.rstrip("abcdefghijklmnopqrstuvwxyz")

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "sources": self.sources,
            "options": [
                {"name": o.name, "default": o.default, "allowed": list(o.values) or o.allowed} for o in self.options
            ],
            "text": self.text,
        }


class RulingsFormatError(ValueError):
    """The shipped document does not follow its format (a packaging mistake, caught by the tests)."""


def document() -> str:
    return files("referee").joinpath("data", "rulings.md").read_text("utf-8")


@cache
def load() -> tuple[Ruling, ...]:
    return parse(document())


def parse(text: str) -> tuple[Ruling, ...]:
    rulings: list[Ruling] = []
    current: list[str] | None = None
    heading: tuple[str, str] | None = None
    for line in text.splitlines() + ["## end"]:
        if line.startswith("## "):
            if heading is not None and current is not None:
                rulings.append(_ruling(*heading, current))
            m = _HEADING.match(line)
            if m is None and line != "## end":
                raise RulingsFormatError(f"rulings.md: heading {line!r} is not '## R-xx Title'")
            heading, current = (m.group(1), m.group(2).strip()) if m else None, []
        elif current is not None:
            current.append(line)
    ids = [r.id for r in rulings]
    if len(set(ids)) != len(ids):
        raise RulingsFormatError(f"rulings.md: an id appears twice: {sorted(i for i in ids if ids.count(i) > 1)[0]}")
    return tuple(rulings)


def _ruling(rid: str, title: str, lines: list[str]) -> Ruling:
    sources = ""
    options: list[Option] = []
    body: list[str] = []
    for line in lines:
        if line.startswith("- Sources: "):
            sources = line.removeprefix("- Sources: ").strip()
        elif line.startswith("- Option: "):
            m = _OPTION.match(line.removeprefix("- Option: ").strip())
            if m is None:
                raise RulingsFormatError(
                    f"rulings.md, {rid}: option line {line!r} is not '`name` default `value` (allowed: ...)'"
                )
            options.append(Option(*m.groups()))
        else:
            body.append(line)
    if not sources:
        raise RulingsFormatError(f"rulings.md, {rid}: no '- Sources:' line")
    paragraphs = [" ".join(p.split()) for p in "\n".join(body).strip().split("\n\n") if p.strip()]
    return Ruling(rid, title, sources, tuple(options), "\n\n".join(paragraphs))


_ID_QUERY = re.compile(r"[Rr]-?(\d+)([A-Za-z]?)")


def as_id(query: str) -> str | None:
    """The ruling id a query names (``r-17B``, ``R17b``, ``R-1`` → ``R-17b``, ``R-01``), or None."""
    m = _ID_QUERY.fullmatch(query.strip())
    return f"R-{int(m.group(1)):02d}{m.group(2).lower()}" if m else None


def find(rid: str) -> Ruling | None:
    rid = as_id(rid) or rid
    return next((r for r in load() if r.id == rid), None)


def with_refinements(ruling: Ruling) -> tuple[Ruling, ...]:
    """A ruling and, when it is a base ruling (``R-17``), the rulings that refine it (``R-17a``, ``R-17b``)."""
    if ruling.family != ruling.id:
        return (ruling,)
    return tuple(r for r in load() if r.family == ruling.id)


def search(query: str) -> tuple[Ruling, ...]:
    """Rulings whose id, title, sources, options or text hold every word of ``query`` (any letter case)."""
    words = query.lower().split()
    found = []
    for r in load():
        hay = " ".join(
            [r.id, r.title, r.sources, *(f"{o.name} {o.default} {o.allowed}" for o in r.options), r.text]
        ).lower()
        if words and all(w in hay for w in words):
            found.append(r)
    return tuple(found)


# --- the card game's own rulings (``referee/data/rulings-l5r-ccg.md``, CT-xx) -----------------------------
_CT = re.compile(r"^- (CT-\d\d) (.+)$")
_CT_OPTION = re.compile(r"^- Option: `(\w+)`, default `([^`]+)` \(allowed: (.+)\)$")


@dataclass(frozen=True, slots=True)
class CardGameRuling:
    id: str
    title: str  # its first sentence
    text: str
    option: Option | None = None

    def to_dict(self) -> dict[str, object]:
        option = None
        if self.option is not None:
            option = {"name": self.option.name, "default": self.option.default, "allowed": list(self.option.values)}
        return {"id": self.id, "title": self.title, "text": self.text, "option": option}


def card_game_document() -> str:
    return files("referee").joinpath("data", "rulings-l5r-ccg.md").read_text("utf-8")


@cache
def card_game_rulings() -> tuple[CardGameRuling, ...]:
    return parse_card_game(card_game_document())


def parse_card_game(text: str) -> tuple[CardGameRuling, ...]:
    """``- CT-xx Text`` items, their text continued on indented lines, an ``- Option:`` line inside one."""
    found: list[tuple[str, list[str], list[str]]] = []
    for line in text.splitlines():
        if m := _CT.match(line):
            found.append((m.group(1), [m.group(2)], []))
        elif found and line.startswith("  - "):
            found[-1][2].append(line.strip())
        elif found and line.startswith("  ") and line.strip():
            found[-1][1].append(line.strip())
        elif found and line.strip() and not line.startswith("  "):
            raise RulingsFormatError(f"rulings-l5r-ccg.md: {line!r} is not inside a ruling (indent it)")
    out = []
    for rid, words, extra in found:
        body = " ".join(words)
        title = body.split(". ", 1)[0].rstrip(".") + "."
        option = None
        for item in extra:
            m = _CT_OPTION.match(item)
            if m is None:
                raise RulingsFormatError(f"rulings-l5r-ccg.md, {rid}: {item!r} is not '- Option: `name`, default ...'")
            option = Option(*m.groups())
        out.append(CardGameRuling(rid, title, body, option))
    ids = [r.id for r in out]
    if len(set(ids)) != len(ids):
        raise RulingsFormatError("rulings-l5r-ccg.md: an id appears twice")
    return tuple(out)


def find_card_game(query: str) -> tuple[CardGameRuling, ...]:
    """The ruling a query names (``CT-05``, ``ct5``), or those holding every word of it."""
    m = re.fullmatch(r"[Cc][Tt]-?(\d+)", query.strip())
    if m:
        rid = f"CT-{int(m.group(1)):02d}"
        return tuple(r for r in card_game_rulings() if r.id == rid)
    words = query.lower().split()
    return tuple(r for r in card_game_rulings() if words and all(w in f"{r.id} {r.text}".lower() for w in words))
