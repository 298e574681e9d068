"""The targets of each territory card in the table-event notation (``<clan>: plays <card> <targets>``).

Provinces follow ``@``; tokens are written as in the round notation (``army 3``, ``bluff``); a
token on the board is ``<owner> <token> <place>``; parts are separated by commas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.board import Board
from ..model.errors import NotUnderstood
from ..model.tokens import Clan
from .round import parse_clan, parse_entry, resolve_name
from .table_parts import CardPlayed, format_target, parse_target, parse_token

PROVINCE_CARDS = {
    "feats_of_engineering": 1,
    "sacred_ground": 1,
    "bushido": 1,
    "honorable_fight": 1,
    "aid_of_the_kami": 1,
    "bless_the_lands": 1,
    "foment_rebellion": 1,
    "bountiful_harvest": 1,
    "port_of_prosperity": 1,
    "code_of_honor": 2,
    "strength_of_purpose": 2,
    "ashigaru_levies": 3,
}
CARD_FORMS = {
    **{card: "@ " + ", ".join(["<province>"] * n) for card, n in PROVINCE_CARDS.items()},
    "diplomatic_mission": "@ <province> [, control @ <province you control>]",
    "pirate_raids": "@ <province> [, control @ <another province you control>]",
    "cultural_exchange": "<province you control> <> <province an opponent controls>",
    "promotion": "<token from discard>, discard|pool <token from hand>",
    "reinforcements": "<army>, <army>, discard|pool <token>, discard|pool <token>",
    "spy_network": "<clan> [sees <token>, <token>, ...]",
    "dark_favors": "from <province>, discard <owner> <token> <place>",
    "purge_the_weak": "discard <token from hand> [, <owner> <token> <place>]...",
    "animate_the_dead": "from <province>, <token> <place>",
    "inspire_fear": "from <province> [@ <province> [, <province>]]",
}


def parse_card_play(clan: Clan, args: str, board: Board, text: str, lineno: int | None) -> CardPlayed:
    word, _, rest = args.strip().partition(" ")
    card = resolve_name(word, {c: c for c in board.cards}, "card", text, lineno)
    rest = rest.strip()
    play = _Play(clan, card, board, text, lineno, rest, [p.strip() for p in rest.split(",")] if rest else [])
    read = _FORM_OF.get(card)
    if read is None:  # pragma: no cover - every card has a form below
        raise play.bad()
    return read(play)


@dataclass(frozen=True)
class _Play:
    """A card play's line being read: its parts, and the one refusal of a form not understood."""

    clan: Clan
    card: str
    board: Board
    text: str
    lineno: int | None
    rest: str  # what follows the card's name
    parts: list[str]  # ``rest`` split at its commas

    def bad(self, problem: str = "not understood") -> NotUnderstood:
        form = f"expected: {self.clan}: plays {self.card} {CARD_FORMS[self.card]}"
        return NotUnderstood(self.text, f"{self.card}: {problem}", lineno=self.lineno, hint=form)

    def province(self, name: str) -> str:
        return resolve_name(name, self.board.names, "province", self.text, self.lineno)

    def provinces(self, part: str) -> tuple[str, ...]:
        part = part.strip()
        if not part.startswith("@"):
            raise self.bad("provinces follow '@'")
        return tuple(self.province(p) for p in part[1:].split(","))


def _province_card(p: _Play) -> CardPlayed:
    got = p.provinces(p.rest)
    if len(got) != PROVINCE_CARDS[p.card]:
        raise p.bad(f"names {PROVINCE_CARDS[p.card]} province(s), got {len(got)}")
    return CardPlayed(p.clan, p.card, provinces=got)


def _raid(p: _Play) -> CardPlayed:
    if not p.parts:
        raise p.bad("needs a province")
    got = p.provinces(p.parts[0])
    if len(got) != 1:
        raise p.bad("names one province")
    control_at = None
    if len(p.parts) == 2:
        m = re.fullmatch(r"control\s*@\s*(.+)", p.parts[1], flags=re.I)
        if not m:
            raise p.bad(f"expected 'control @ <province>', got {p.parts[1]!r}")
        control_at = p.province(m.group(1))
    elif len(p.parts) > 2:
        raise p.bad()
    return CardPlayed(p.clan, p.card, provinces=(got[0],), control_at=control_at)


def _exchange(p: _Play) -> CardPlayed:
    left, sep, right = p.rest.partition("<>")
    if not sep:
        raise p.bad("write the two provinces as '<yours> <> <theirs>'")
    return CardPlayed(p.clan, p.card, swap=(p.province(left.lstrip("@ ")), p.province(right.lstrip("@ "))))


def _returned(p: _Play) -> CardPlayed:
    returned, given = [], []
    for part in p.parts:
        m = re.fullmatch(r"(discard|pool)\s+(.+)", part, flags=re.I)
        if m:
            given.append((m.group(1).lower(), parse_token(m.group(2), p.text, p.lineno)))
        elif given:
            raise p.bad("tokens returned from the discard pile come first")
        else:
            returned.append(parse_token(part, p.text, p.lineno))
    if not returned or not given:
        raise p.bad("name the token(s) returned to hand, then what is given up")
    return CardPlayed(p.clan, p.card, returned=tuple(returned), given_up=tuple(given))


def _spy(p: _Play) -> CardPlayed:
    m = re.fullmatch(r"(\S+)(?:\s+sees\s+(.+))?", p.rest, flags=re.I | re.S)
    if not m:
        raise p.bad("name the player whose hand is looked at")
    other = parse_clan(m.group(1), p.text, p.lineno)
    seen = tuple(parse_token(t, p.text, p.lineno) for t in m.group(2).split(",")) if m.group(2) else ()
    return CardPlayed(p.clan, p.card, other=other, seen=seen)


def _shadowlands(p: _Play) -> CardPlayed:
    """The Shadowlands' cards: a control token of the player's as their cost, then their targets."""
    m = re.fullmatch(r"from\s+([^,@]+?)\s*(?:,\s*(.*)|(@.*))?", p.rest, flags=re.I | re.S)
    if not m:
        raise p.bad("the cost comes first: 'from <province>' (one of your control tokens)")
    cost = p.province(m.group(1))
    tail = (m.group(2) or m.group(3) or "").strip()
    if p.card == "inspire_fear":
        got = p.provinces(tail) if tail else ()
        if len(got) > 2:
            raise p.bad("takes up to two special tokens")
        return CardPlayed(p.clan, p.card, cost=cost, provinces=got)
    if p.card == "dark_favors":
        d = re.fullmatch(r"discard\s+(.+)", tail, flags=re.I)
        if not d:
            raise p.bad("expected 'discard <owner> <token> <place>'")
        target = parse_target(d.group(1), p.board, p.text, p.lineno, need_token=True)
        return CardPlayed(p.clan, p.card, cost=cost, targets=(target,))
    if not tail:
        raise p.bad("name the token put on the board from the discard pile")
    return CardPlayed(p.clan, p.card, cost=cost, animated=parse_entry(f"{p.clan}: {tail}", p.board, p.lineno))


def _purge(p: _Play) -> CardPlayed:
    if not p.parts or not re.match(r"discard\s", p.parts[0], flags=re.I):
        raise p.bad("the token discarded from hand comes first: 'discard <token>'")
    hand = parse_token(p.parts[0].split(None, 1)[1], p.text, p.lineno)
    targets = tuple(parse_target(x, p.board, p.text, p.lineno, need_token=True) for x in p.parts[1:])
    if len(targets) > 2:
        raise p.bad("discards two tokens on the board")
    return CardPlayed(p.clan, p.card, hand_discard=hand, targets=targets)


_FORM_OF = {  # every card's form (CARD_FORMS), read by one function
    **dict.fromkeys(PROVINCE_CARDS, _province_card),
    "diplomatic_mission": _raid,
    "pirate_raids": _raid,
    "cultural_exchange": _exchange,
    "promotion": _returned,
    "reinforcements": _returned,
    "spy_network": _spy,
    "dark_favors": _shadowlands,
    "animate_the_dead": _shadowlands,
    "inspire_fear": _shadowlands,
    "purge_the_weak": _purge,
}


def format_card_args(e: CardPlayed) -> str:
    card = e.card
    if card in PROVINCE_CARDS:
        return "@ " + ", ".join(e.provinces)
    if card in ("diplomatic_mission", "pirate_raids"):
        return f"@ {e.provinces[0]}" + (f", control @ {e.control_at}" if e.control_at else "")
    if card == "cultural_exchange":
        assert e.swap is not None  # parse_card_play sets it for this card
        return f"{e.swap[0]} <> {e.swap[1]}"
    if card in ("promotion", "reinforcements"):
        return ", ".join([str(t) for t in e.returned] + [f"{how} {t}" for how, t in e.given_up])
    if card == "spy_network":
        return f"{e.other}" + (f" sees {', '.join(map(str, e.seen))}" if e.seen else "")
    if card == "inspire_fear":
        return f"from {e.cost}" + (f" @ {', '.join(e.provinces)}" if e.provinces else "")
    if card == "dark_favors":
        return f"from {e.cost}, discard {format_target(e.targets[0])}"
    if card == "animate_the_dead":
        return f"from {e.cost}, {str(e.animated).split(': ', 1)[1]}"
    if card == "purge_the_weak":
        return ", ".join([f"discard {e.hand_discard}"] + [format_target(t) for t in e.targets])
    return ""
