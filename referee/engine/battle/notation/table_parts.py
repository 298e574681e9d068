"""The table events as values, and the parts of the table-event notation that its lines and the card
plays (``card_plays``) share: tokens, places and targets, parsed and printed canonically."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.board import Board
from ..model.entry import Entry
from ..model.errors import NotUnderstood
from ..model.tokens import Clan, Kind, Token
from .number import number
from .round import (
    KIND_NAMES,
    _parse_blessing,
    _parse_place,
    format_entry,
    normalise,
    parse_clan,
    parse_entry,
    resolve_name,
)
from .setup import BoardFact

Place = tuple[str, str | None]  # (province, source): as in the round notation


@dataclass(frozen=True, slots=True)
class Target:
    """A combat token on the board, targeted by a card or an ability: its owner, what it is (when
    revealed or known) and where it sits, with any blessings on it (R-10: then it cannot be targeted)."""

    owner: Clan
    token: Token | None
    province: str
    source: str | None = None
    blessings: tuple[int, ...] = ()

    @property
    def place(self) -> Place:
        return (self.province, self.source)


@dataclass(frozen=True, slots=True)
class SetupStep:
    step: str  # capitals | tokens


@dataclass(frozen=True, slots=True)
class FactEntered:
    fact: BoardFact


@dataclass(frozen=True, slots=True)
class FirstPlayerSet:
    clan: Clan


@dataclass(frozen=True, slots=True)
class DeckSet:
    clans: tuple[Clan, ...]
    neutrals: int


@dataclass(frozen=True, slots=True)
class DiscardEntered:
    clan: Clan
    tokens: tuple[Token, ...]
    round: int | None = None


@dataclass(frozen=True, slots=True)
class StartingControlPlaced:
    clan: Clan
    province: str


@dataclass(frozen=True, slots=True)
class InitiativeRevealed:
    card: str  # a clan, or a neutral card id


@dataclass(frozen=True, slots=True)
class Passed:
    clan: Clan


@dataclass(frozen=True, slots=True)
class TokenReturned:
    clan: Clan
    token: Token


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A territory card played, with its targets; which fields a card uses is in ``card_plays``."""

    clan: Clan
    card: str
    provinces: tuple[str, ...] = ()
    control_at: str | None = None
    swap: tuple[str, str] | None = None
    returned: tuple[Token, ...] = ()
    given_up: tuple[tuple[str, Token], ...] = ()  # ("discard" | "pool", token)
    other: Clan | None = None
    seen: tuple[Token, ...] = ()
    cost: str | None = None  # Shadowlands: the province a control token is taken from
    targets: tuple[Target, ...] = ()
    hand_discard: Token | None = None
    animated: Entry | None = None


@dataclass(frozen=True, slots=True)
class TokenTargeted:
    """A scout, shugenja, first player card or Scorpion peek on one token."""

    clan: Clan
    verb: str  # scout | shugenja | first_player | peek
    target: Target


@dataclass(frozen=True, slots=True)
class Swapped:
    """The Unicorn's swap (R-07). ``blessings``: any blessing written on either place, so that the swap
    can be refused naming it (R-07b)."""

    clan: Clan
    first: Place
    second: Place
    blessings: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


TableEvent = (
    SetupStep
    | FactEntered
    | FirstPlayerSet
    | DeckSet
    | DiscardEntered
    | StartingControlPlaced
    | InitiativeRevealed
    | Passed
    | TokenReturned
    | CardPlayed
    | TokenTargeted
    | Swapped
)


def parse_token(text_part: str, text: str, lineno: int | None) -> Token:
    m = re.fullmatch(r"\s*([A-Za-z]+)\s*(\d+)?\s*", text_part)
    if not m:
        raise NotUnderstood(text, f"expected a token ('army 3', 'bluff'), got {text_part.strip()!r}", lineno=lineno)
    kind = Kind(resolve_name(m.group(1), KIND_NAMES, "token", text, lineno))
    strength = number(m.group(2), text, lineno) if m.group(2) else None
    if kind.has_strength != (strength is not None):
        need = "needs a strength" if kind.has_strength else "has no strength"
        raise NotUnderstood(text, f"{kind} {need}", lineno=lineno)
    return Token(kind, strength)


def parse_place(part: str, board: Board, text: str, lineno: int | None) -> Place:
    return _parse_place(part.strip(), board, text, lineno)


def parse_blessed_place(part: str, board: Board, text: str, lineno: int | None) -> tuple[Place, tuple[int, ...]]:
    """``<place> [+ blessing <n>]...``: the place, and the blessings written on it."""
    place, *blessing_parts = part.split("+")
    blessings = tuple(sorted((_parse_blessing(b.strip(), text, lineno) for b in blessing_parts), reverse=True))
    return parse_place(place, board, text, lineno), blessings


def format_blessed_place(place: Place, blessings: tuple[int, ...]) -> str:
    return format_place(place) + "".join(f" + blessing {b}" for b in blessings)


def _is_token_word(word: str) -> bool:
    key = normalise(word)
    return bool(key) and any(k.startswith(key) for k in KIND_NAMES) and "_" not in key


def parse_target(part: str, board: Board, text: str, lineno: int | None, need_token: bool = False) -> Target:
    """``<owner> [<token> [<strength>]] <place> [+ blessing <n>]...``"""
    owner_word, _, rest = part.strip().partition(" ")
    owner = parse_clan(owner_word, text, lineno)
    rest = rest.strip()
    first = re.match(r"[A-Za-z_\-]+", rest)
    if first and _is_token_word(first.group(0)):
        entry = parse_entry(f"{owner}: {rest}", board, lineno)
        return Target(owner, entry.token, entry.province, entry.source, entry.blessings)
    if need_token:
        raise NotUnderstood(
            text,
            "name the revealed token: <owner> <token> <place>",
            lineno=lineno,
            hint="for example: crab: shugenja lion army 3 @ lion_capital",
        )
    (province, source), blessings = parse_blessed_place(rest, board, text, lineno)
    return Target(owner, None, province, source, blessings)


# --- canonical output -----------------------------------------------------------------------------
def format_place(place: Place) -> str:
    province, source = place
    return f"@ {province}" if source is None else f"{source} > {province}"


def format_target(t: Target) -> str:
    if t.token is not None:
        body = format_entry(Entry(t.owner, t.token, t.province, t.source, t.blessings)).split(": ", 1)[1]
        return f"{t.owner} {body}"
    return f"{t.owner} {format_blessed_place(t.place, t.blessings)}"


_SETUP_TIME = (
    SetupStep,
    FactEntered,
    StartingControlPlaced,
    InitiativeRevealed,
    FirstPlayerSet,
    DeckSet,
    DiscardEntered,
)
_ROUND_KINDS: tuple[tuple[type, str], ...] = (
    (Passed, "a pass of the card step"),
    (CardPlayed, "a territory card played"),
    (TokenReturned, "the Dragon's return"),
    (TokenTargeted, "a card used in the placement phase"),
    (Swapped, "the Unicorn's swap"),
)


def round_kind(event: TableEvent) -> str | None:
    """None for a table event that may be entered at setup (pp.4-5); otherwise what it is, a thing that
    belongs to a round (the setup file refuses it, naming the command that takes it)."""
    if isinstance(event, _SETUP_TIME):
        return None
    return next((what for cls, what in _ROUND_KINDS if isinstance(event, cls)), "this table event")
