"""The table-event notation: card plays, setup and initiative, one line each (README).

    setup: capitals | setup: tokens                 setup steps 3 and 6 (p.4)
    initiative: <clan | neutral card>               the setup draw, or an upkeep reveal (R-23)
    <clan>: starts @ <province>                     a starting control token (setup step 10)
    <clan>: passes | <clan>: plays <card> <targets> upkeep card step (R-21); Shadowlands cards in placement
    <clan>: returns <token>                         the Dragon's extra draw goes back to its pool (R-03)
    <clan>: scout <owner> <place>                   look at an opponent's token
    <clan>: shugenja <owner> <token> <place>        reveal and discard an opponent's token
    <clan>: first_player <owner> [<token>] <place>  look at a token, return it to its owner's pool
    <clan>: peek <owner> <place>                    the Scorpion's look (R-06)
    <clan>: swap <place> with <place>               the Unicorn's swap (R-07)
    first_player: <clan> | initiative deck: <card>, ... | <clan>: discarded <token>, ... [in round <n>]
                                                    facts of a game already under way (scenarios)
    and every board fact of the setup notation (``tablenotation``).

Parsed once at the edge (tolerant: any case, prefixes, aliases), printed canonically; errors are
the round notation's three kinds: NotUnderstood, UnknownName, AmbiguousName.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from .board import Board
from .errors import NotUnderstood
from .notation import CLAN_NAMES, KIND_NAMES, Entry, _parse_blessing, _parse_place, format_entry, normalise, parse_clan, parse_entry, resolve_name, split_clan
from .tablenotation import BoardFact, format_board_fact, parse_board_line
from .tokens import Clan, Kind, Token

TABLE_FORM = (
    "initiative: <card> | <clan>: passes | <clan>: plays <card> <targets> | <clan>: returns <token> | "
    "<clan>: scout|shugenja|first_player|peek <owner> [<token>] <place> | <clan>: swap <place> with <place> | "
    "<clan>: starts @ <province> | setup: capitals|tokens"
)
Place = tuple[str, Union[str, None]]  # (province, source): as in the round notation


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
    """A territory card played, with its targets; which fields a card uses is in ``cardnotation``."""

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
    clan: Clan
    first: Place
    second: Place


TableEvent = Union[
    SetupStep, FactEntered, FirstPlayerSet, DeckSet, DiscardEntered, StartingControlPlaced, InitiativeRevealed,
    Passed, TokenReturned, CardPlayed, TokenTargeted, Swapped,
]
TARGET_VERBS = ("scout", "shugenja", "first_player", "peek")
VERBS = {
    "passes": "passes", "pass": "passes", "plays": "plays", "play": "plays", "returns": "returns", "return": "returns",
    "scout": "scout", "scouts": "scout", "shugenja": "shugenja", "first_player": "first_player", "peek": "peek",
    "peeks": "peek", "swap": "swap", "swaps": "swap", "starts": "starts", "start": "starts", "discarded": "discarded",
    "control": "control", "holds": "holds", "objective": "objective",
}
HEADS = {"initiative": "initiative", "initiative_deck": "initiative_deck", "setup": "setup", "first_player": "first_player", "board": "board"}


def parse_table_event(text: str, board: Board, lineno: int | None = None) -> TableEvent:
    """One line of the table-event notation (comments already stripped)."""
    from .cardnotation import parse_card_play  # the per-card target syntax

    text = text.strip()
    head, rest = split_clan(text, lineno, TABLE_FORM)
    key = normalise(head)
    if key in HEADS and key not in CLAN_NAMES:
        return _parse_headed(HEADS[key], rest, text, board, lineno)
    clan = parse_clan(head, text, lineno)
    word, _, args = rest.partition(" ")
    verb = resolve_name(word, VERBS, "verb", text, lineno)
    args = args.strip()
    if verb in ("control", "holds", "objective"):
        return FactEntered(parse_board_line(text, board, lineno))
    if verb == "passes" and not args:
        return Passed(clan)
    if verb == "returns" and args:
        return TokenReturned(clan, parse_token(args, text, lineno))
    if verb == "starts" and args.startswith("@"):
        return StartingControlPlaced(clan, resolve_name(args[1:], board.names, "province", text, lineno))
    if verb == "plays" and args:
        return parse_card_play(clan, args, board, text, lineno)
    if verb in TARGET_VERBS and args:
        return TokenTargeted(clan, verb, parse_target(args, board, text, lineno, need_token=verb == "shugenja"))
    if verb == "swap" and " with " in f" {args} ":
        left, _, right = args.partition(" with ")
        return Swapped(clan, parse_place(left, board, text, lineno), parse_place(right, board, text, lineno))
    if verb == "discarded" and args:
        m = re.fullmatch(r"(.*?)(?:\s+in\s+round\s+(\d+))?", args, flags=re.I)
        tokens = tuple(parse_token(t, text, lineno) for t in m.group(1).split(","))
        return DiscardEntered(clan, tokens, int(m.group(2)) if m.group(2) else None)
    raise NotUnderstood(text, "not understood", lineno=lineno, hint=f"expected: {TABLE_FORM}")


def _parse_headed(head: str, rest: str, text: str, board: Board, lineno: int | None) -> TableEvent:
    if head == "board":
        return FactEntered(parse_board_line(text, board, lineno))
    if head == "setup":
        step = resolve_name(rest, {"capitals": "capitals", "tokens": "tokens"}, "setup step", text, lineno)
        return SetupStep(step)
    if head == "first_player":
        return FirstPlayerSet(parse_clan(rest, text, lineno))
    if head == "initiative":
        return InitiativeRevealed(resolve_name(rest, _initiative_names(board), "initiative card", text, lineno))
    clans, neutrals = [], 0
    if normalise(rest) == "empty":
        return DeckSet((), 0)
    for part in rest.split(","):
        if normalise(part) == "neutral":
            neutrals += 1
        else:
            clans.append(parse_clan(part, text, lineno))
    return DeckSet(tuple(sorted(set(clans))), neutrals)


def _initiative_names(board: Board) -> dict[str, str]:
    names = dict(CLAN_NAMES)
    for card in board.neutral_initiative:
        names[card] = card
    return names


def parse_token(text_part: str, text: str, lineno: int | None) -> Token:
    m = re.fullmatch(r"\s*([A-Za-z]+)\s*(\d+)?\s*", text_part)
    if not m:
        raise NotUnderstood(text, f"expected a token ('army 3', 'bluff'), got {text_part.strip()!r}", lineno=lineno)
    kind = Kind(resolve_name(m.group(1), KIND_NAMES, "token", text, lineno))
    strength = int(m.group(2)) if m.group(2) else None
    if kind.has_strength != (strength is not None):
        need = "needs a strength" if kind.has_strength else "has no strength"
        raise NotUnderstood(text, f"{kind} {need}", lineno=lineno)
    return Token(kind, strength)


def parse_place(part: str, board: Board, text: str, lineno: int | None) -> Place:
    return _parse_place(part.strip(), board, text, lineno)


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
        raise NotUnderstood(text, "name the revealed token: <owner> <token> <place>", lineno=lineno,
                            hint=f"for example: crab: shugenja lion army 3 @ lion_capital")
    place, *blessing_parts = rest.split("+")
    blessings = tuple(sorted((_parse_blessing(b.strip(), text, lineno) for b in blessing_parts), reverse=True))
    province, source = parse_place(place, board, text, lineno)
    return Target(owner, None, province, source, blessings)


# --- canonical output -----------------------------------------------------------------------------
def format_token(token: Token) -> str:
    return str(token)


def format_place(place: Place) -> str:
    province, source = place
    return f"@ {province}" if source is None else f"{source} > {province}"


def format_target(t: Target) -> str:
    if t.token is not None:
        body = format_entry(Entry(t.owner, t.token, t.province, t.source, t.blessings)).split(": ", 1)[1]
        return f"{t.owner} {body}"
    blessings = "".join(f" + blessing {b}" for b in t.blessings)
    return f"{t.owner} {format_place(t.place)}{blessings}"


def format_table_event(event: TableEvent) -> str:
    from .cardnotation import format_card_args

    match event:
        case SetupStep(step):
            return f"setup: {step}"
        case FactEntered(fact):
            return format_board_fact(fact)
        case FirstPlayerSet(clan):
            return f"first_player: {clan}"
        case DeckSet(clans, neutrals):
            return "initiative deck: " + (", ".join([str(c) for c in clans] + ["neutral"] * neutrals) or "empty")
        case DiscardEntered(clan, tokens, round_no):
            when = f" in round {round_no}" if round_no is not None else ""
            return f"{clan}: discarded {', '.join(map(str, tokens))}{when}"
        case StartingControlPlaced(clan, province):
            return f"{clan}: starts @ {province}"
        case InitiativeRevealed(card):
            return f"initiative: {card}"
        case Passed(clan):
            return f"{clan}: passes"
        case TokenReturned(clan, token):
            return f"{clan}: returns {token}"
        case CardPlayed():
            args = format_card_args(event)
            return f"{event.clan}: plays {event.card}{' ' + args if args else ''}"
        case TokenTargeted(clan, verb, target):
            return f"{clan}: {verb} {format_target(target)}"
        case Swapped(clan, first, second):
            return f"{clan}: swap {format_place(first)} with {format_place(second)}"
    raise TypeError(f"not a table event: {event!r}")


def event_clan(event: TableEvent) -> Clan | None:
    return getattr(event, "clan", None) if not isinstance(event, (FirstPlayerSet, DeckSet)) else None


def event_input(event: TableEvent) -> str:
    """The event as quoted in messages: without its clan."""
    line = format_table_event(event)
    clan = event_clan(event)
    return line.split(": ", 1)[1] if clan is not None and line.startswith(f"{clan}: ") else line
