"""Deck legality (p.67 Deck Construction, Celestial 40/40): a decklist that names each card's deck, type
and uniqueness, checked whole; every problem is one line, all of them at once.

A decklist line: ``<copies> <title> (<type>[, unique][, experienced [N]])``, for example

    1 Kyuden Hida (stronghold)
    3 Hida Kisada (personality, unique)
    1 Hida Kisada (personality, unique, experienced 2)
    3 Ashigaru (follower)

The deck follows from the type: Holdings, Personalities, Events and Regions are Dynasty cards; Strategies,
Rings, Followers, Items and Spells are Fate cards (The Cards, pp.16-29). Blank lines and lines starting
with ``#`` are skipped. Whether a card is Celestial Edition legal needs the card's printing: not checked.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .model import NotUnderstood

DYNASTY = frozenset({"holding", "personality", "event", "region"})
FATE = frozenset({"strategy", "ring", "follower", "item", "spell"})
STRONGHOLD = "stronghold"
STARTING_HOLDINGS = ("border keep", "bamboo harvesters")  # Setting Up: Starting Holdings
MINIMUM = 40
COPIES = 3

_LINE = re.compile(r"(?P<n>\d+)\s*x?\s+(?P<title>[^()]+?)\s*\((?P<what>[^()]*)\)\s*")


@dataclass(frozen=True, slots=True)
class Entry:
    copies: int
    title: str
    type: str
    unique: bool = False
    experienced: int = 0  # experience level (glossary: experienced); 0: not Experienced
    lineno: int = 0

    @property
    def deck(self) -> str:
        return "dynasty" if self.type in DYNASTY else "fate" if self.type in FATE else self.type

    @property
    def name(self) -> str:
        """The title the copy limits count by: each experience level its own (C-04)."""
        return f"{self.title} (experienced {self.experienced})" if self.experienced else self.title


@dataclass(frozen=True, slots=True)
class DeckProblem:
    """One problem of a decklist: its code, the card (or deck) it is about, the copies counted, the decklist
    line when it is one line's, and the sentence.

    Codes: ``strongholds`` (copies: Strongholds listed), ``starting-holding`` (a Border Keep or Bamboo
    Harvesters in the decks), ``deck-size`` (title: the deck, copies: its cards), ``copies`` (more than three
    of a title), ``event-copies`` and ``unique-copies`` (more than one of an Event or a Unique card)."""

    code: str
    title: str
    copies: int
    message: str
    line: int | None = None

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "title": self.title,
            "copies": self.copies,
            "line": self.line,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class DeckReport:
    dynasty: int
    fate: int
    problems: tuple[DeckProblem, ...]

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, object]:
        return {
            "dynasty": self.dynasty,
            "fate": self.fate,
            "legal": self.legal,
            "problems": [p.to_dict() for p in self.problems],
        }


def parse_decklist(text: str) -> tuple[Entry, ...]:
    """Every line read; the first line that cannot be read is refused, naming its number."""
    entries = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.fullmatch(line)
        if not m:
            raise NotUnderstood(line, "expected '<copies> <title> (<type>[, unique][, experienced N])'", lineno=n)
        words = [w.strip().lower() for w in m["what"].split(",") if w.strip()]
        if not words:
            raise NotUnderstood(line, "the card's type is missing", lineno=n)
        kind, unique, level = words[0], False, 0
        if kind not in DYNASTY | FATE | {STRONGHOLD}:
            known = ", ".join(sorted(DYNASTY | FATE | {STRONGHOLD}))
            raise NotUnderstood(line, f"unknown card type {kind!r} (one of {known})", lineno=n)
        for w in words[1:]:
            exp = re.fullmatch(r"experienced(?:\s+(\d+))?", w)
            if w == "unique":
                unique = True
            elif exp:
                level = int(exp[1] or 1)  # "Experienced and no number has experience level of one"
            else:
                raise NotUnderstood(line, f"unknown mark {w!r} (unique, experienced N)", lineno=n)
        copies = int(m["n"])
        if copies < 1:
            raise NotUnderstood(line, "a card listed at least once", lineno=n)
        entries.append(Entry(copies, m["title"].strip(), kind, unique, level, n))
    return tuple(entries)


def check_deck(entries: tuple[Entry, ...]) -> DeckReport:
    """p.67 Deck Construction, with C-04 (experience levels) and C-07 (one Stronghold; no Border Keep or
    Bamboo Harvesters in the decks). Returns every problem, one line each."""
    decked = [e for e in entries if e.type != STRONGHOLD and e.title.lower() not in STARTING_HOLDINGS]
    dynasty = sum(e.copies for e in decked if e.deck == "dynasty")
    fate = sum(e.copies for e in decked if e.deck == "fate")
    problems = [
        *_stronghold_problems(entries),
        *_starting_holding_problems(entries),
        *_deck_size_problems(dynasty, fate),
        *_copy_problems(decked),
    ]
    return DeckReport(dynasty, fate, tuple(problems))


def _stronghold_problems(entries: tuple[Entry, ...]) -> list[DeckProblem]:
    """C-07: exactly one Stronghold, outside the decks."""
    strongholds = [e for e in entries if e.type == STRONGHOLD]
    held = sum(e.copies for e in strongholds)
    if held != 1:
        title = ", ".join(e.title for e in strongholds)
        message = f"{held} Strongholds: a deck has exactly one Stronghold, outside the decks (C-07)"
        return [DeckProblem("strongholds", title, held, message)]
    return []


def _starting_holding_problems(entries: tuple[Entry, ...]) -> list[DeckProblem]:
    """p.67, C-07: the starting Holdings are not in the decks."""
    return [
        DeckProblem(
            "starting-holding",
            e.title,
            e.copies,
            f"line {e.lineno}: {e.title}: a starting Holding; copies of it may not be in the decks (p.67, C-07)",
            e.lineno,
        )
        for e in entries
        if e.title.lower() in STARTING_HOLDINGS
    ]


def _deck_size_problems(dynasty: int, fate: int) -> list[DeckProblem]:
    """p.67: at least forty cards in each deck."""
    return [
        DeckProblem("deck-size", deck, n, f"the {deck} deck has {n} cards: at least {MINIMUM} (p.67)")
        for deck, n in (("Dynasty", dynasty), ("Fate", fate))
        if n < MINIMUM
    ]


def _copy_problems(decked: list[Entry]) -> list[DeckProblem]:
    """p.67: at most three copies of a title, one of an Event or a Unique card; each experience level its
    own title (C-04)."""
    by_title: Counter[str] = Counter()
    first: dict[str, Entry] = {}
    event: set[str] = set()
    unique: set[str] = set()
    for e in decked:
        key = e.name.lower()
        by_title[key] += e.copies
        first.setdefault(key, e)
        if e.type == "event":
            event.add(key)
        if e.unique:
            unique.add(key)
    problems = []
    for key, n in by_title.items():
        e = first[key]
        what = "Event" if key in event else "Unique card" if key in unique else ""
        if what and n > 1:
            code = "event-copies" if what == "Event" else "unique-copies"
            message = f"{e.name}: {n} copies of an {what}: at most one by title (p.67)"
            problems.append(DeckProblem(code, e.name, n, message))
        elif n > COPIES:
            message = f"{e.name}: {n} copies: at most {COPIES} of any card by title (p.67)"
            problems.append(DeckProblem("copies", e.name, n, message))
    return problems
