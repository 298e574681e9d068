"""The table-event notation: card plays, setup and initiative, one line each (docs/notation/table-events.md).

    setup: capitals | setup: tokens                 setup steps 3 and 6 (p.4)
    initiative: <clan | neutral card>               the setup draw, or an upkeep reveal (R-23)
    <clan>: starts @ <province>                     a starting control token (setup step 10)
    <clan>: passes | <clan>: plays <card> <targets> upkeep card step (R-21); Shadowlands cards in placement
    <clan>: returns <token>                         the Dragon's extra draw goes back to its pool (R-03)
    <clan>: scout <owner> <place>                   look at an opponent's token
    <clan>: shugenja <owner> <token> <place>        reveal and discard an opponent's token
    <clan>: first_player <owner> [<token>] <place>  look at a token, return it to its owner's pool
    <clan>: peek <owner> <place>                    the Scorpion's look (R-06)
    <clan>: swap <place> with <place>               the Unicorn's swap (R-07, once a round R-07a)
    first_player: <clan> | initiative deck: <card>, ... | <clan>: discarded <token>, ... [in round <n>]
                                                    facts of a game already under way (scenarios)
    and every board fact of the setup notation (``setup``).

Parsed once at the edge (tolerant: any case, prefixes, aliases), printed canonically; errors are
the round notation's three kinds: NotUnderstood, UnknownName, AmbiguousName.
"""

from __future__ import annotations

import re

from ..model.board import Board
from ..model.errors import NotUnderstood
from ..model.tokens import Clan
from .card_plays import format_card_args, parse_card_play
from .number import number
from .round import CLAN_NAMES, normalise, parse_clan, resolve_name, split_clan
from .setup import format_board_fact, parse_board_line
from .table_parts import (
    CardPlayed,
    DeckSet,
    DiscardEntered,
    FactEntered,
    FirstPlayerSet,
    InitiativeRevealed,
    Passed,
    SetupStep,
    StartingControlPlaced,
    Swapped,
    TableEvent,
    TokenReturned,
    TokenTargeted,
    format_blessed_place,
    format_target,
    parse_blessed_place,
    parse_target,
    parse_token,
)

TABLE_FORM = (
    "initiative: <card> | <clan>: passes | <clan>: plays <card> <targets> | <clan>: returns <token> | "
    "<clan>: scout|shugenja|first_player|peek <owner> [<token>] <place> | <clan>: swap <place> with <place> | "
    "<clan>: starts @ <province> | setup: capitals|tokens"
)
TARGET_VERBS = ("scout", "shugenja", "first_player", "peek")
VERBS = {
    "passes": "passes",
    "pass": "passes",
    "plays": "plays",
    "play": "plays",
    "returns": "returns",
    "return": "returns",
    "scout": "scout",
    "scouts": "scout",
    "shugenja": "shugenja",
    "first_player": "first_player",
    "peek": "peek",
    "peeks": "peek",
    "swap": "swap",
    "swaps": "swap",
    "starts": "starts",
    "start": "starts",
    "discarded": "discarded",
    "control": "control",
    "holds": "holds",
    "objective": "objective",
}
HEADS = {
    "initiative": "initiative",
    "initiative_deck": "initiative_deck",
    "setup": "setup",
    "first_player": "first_player",
    "board": "board",
}


def parse_table_event(text: str, board: Board, lineno: int | None = None) -> TableEvent:
    """One line of the table-event notation (comments already stripped)."""
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
        (first, first_blessings), (second, second_blessings) = (
            parse_blessed_place(side, board, text, lineno) for side in (left, right)
        )
        return Swapped(clan, first, second, (first_blessings, second_blessings))
    if verb == "discarded" and args:
        m = re.fullmatch(r"(.*?)(?:\s+in\s+round\s+(\d+))?", args, flags=re.I)
        assert m is not None  # the pattern matches any text
        tokens = tuple(parse_token(t, text, lineno) for t in m.group(1).split(","))
        return DiscardEntered(clan, tokens, number(m.group(2), text, lineno) if m.group(2) else None)
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


def format_table_event(event: TableEvent) -> str:
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
        case Swapped(clan, first, second, (first_blessings, second_blessings)):
            return (
                f"{clan}: swap {format_blessed_place(first, first_blessings)} with "
                f"{format_blessed_place(second, second_blessings)}"
            )
    raise TypeError(f"not a table event: {event!r}")


def event_clan(event: TableEvent) -> Clan | None:
    return getattr(event, "clan", None) if not isinstance(event, (FirstPlayerSet, DeckSet)) else None


def event_input(event: TableEvent) -> str:
    """The event as quoted in messages: without its clan."""
    line = format_table_event(event)
    clan = event_clan(event)
    return line.split(": ", 1)[1] if clan is not None and line.startswith(f"{clan}: ") else line
