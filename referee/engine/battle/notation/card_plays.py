"""The targets of each territory card in the table-event notation (``<clan>: plays <card> <targets>``).

Provinces follow ``@``; tokens are written as in the round notation (``army 3``, ``bluff``); a
token on the board is ``<owner> <token> <place>``; parts are separated by commas.
"""

from __future__ import annotations

import re

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
    form = f"expected: {clan}: plays {card} {CARD_FORMS[card]}"

    def bad(problem: str = "not understood") -> NotUnderstood:
        return NotUnderstood(text, f"{card}: {problem}", lineno=lineno, hint=form)

    def provinces(part: str) -> tuple[str, ...]:
        part = part.strip()
        if not part.startswith("@"):
            raise bad("provinces follow '@'")
        return tuple(resolve_name(p, board.names, "province", text, lineno) for p in part[1:].split(","))

    parts = [p.strip() for p in rest.split(",")] if rest else []
    if card in PROVINCE_CARDS:
        got = provinces(rest)
        if len(got) != PROVINCE_CARDS[card]:
            raise bad(f"names {PROVINCE_CARDS[card]} province(s), got {len(got)}")
        return CardPlayed(clan, card, provinces=got)
    if card in ("diplomatic_mission", "pirate_raids"):
        if not parts:
            raise bad("needs a province")
        got = provinces(parts[0])
        if len(got) != 1:
            raise bad("names one province")
        where = got[0]
        control_at = None
        if len(parts) == 2:
            m = re.fullmatch(r"control\s*@\s*(.+)", parts[1], flags=re.I)
            if not m:
                raise bad(f"expected 'control @ <province>', got {parts[1]!r}")
            control_at = resolve_name(m.group(1), board.names, "province", text, lineno)
        elif len(parts) > 2:
            raise bad()
        return CardPlayed(clan, card, provinces=(where,), control_at=control_at)
    if card == "cultural_exchange":
        left, sep, right = rest.partition("<>")
        if not sep:
            raise bad("write the two provinces as '<yours> <> <theirs>'")
        a = resolve_name(left.lstrip("@ "), board.names, "province", text, lineno)
        b = resolve_name(right.lstrip("@ "), board.names, "province", text, lineno)
        return CardPlayed(clan, card, swap=(a, b))
    if card in ("promotion", "reinforcements"):
        returned, given = [], []
        for part in parts:
            m = re.fullmatch(r"(discard|pool)\s+(.+)", part, flags=re.I)
            if m:
                given.append((m.group(1).lower(), parse_token(m.group(2), text, lineno)))
            elif given:
                raise bad("tokens returned from the discard pile come first")
            else:
                returned.append(parse_token(part, text, lineno))
        if not returned or not given:
            raise bad("name the token(s) returned to hand, then what is given up")
        return CardPlayed(clan, card, returned=tuple(returned), given_up=tuple(given))
    if card == "spy_network":
        m = re.fullmatch(r"(\S+)(?:\s+sees\s+(.+))?", rest, flags=re.I | re.S)
        if not m:
            raise bad("name the player whose hand is looked at")
        other = parse_clan(m.group(1), text, lineno)
        seen = tuple(parse_token(t, text, lineno) for t in m.group(2).split(",")) if m.group(2) else ()
        return CardPlayed(clan, card, other=other, seen=seen)
    if card in ("dark_favors", "animate_the_dead", "inspire_fear"):
        m = re.fullmatch(r"from\s+([^,@]+?)\s*(?:,\s*(.*)|(@.*))?", rest, flags=re.I | re.S)
        if not m:
            raise bad("the cost comes first: 'from <province>' (one of your control tokens)")
        cost = resolve_name(m.group(1), board.names, "province", text, lineno)
        tail = (m.group(2) or m.group(3) or "").strip()
        if card == "inspire_fear":
            got = provinces(tail) if tail else ()
            if len(got) > 2:
                raise bad("takes up to two special tokens")
            return CardPlayed(clan, card, cost=cost, provinces=got)
        if card == "dark_favors":
            d = re.fullmatch(r"discard\s+(.+)", tail, flags=re.I)
            if not d:
                raise bad("expected 'discard <owner> <token> <place>'")
            return CardPlayed(
                clan, card, cost=cost, targets=(parse_target(d.group(1), board, text, lineno, need_token=True),)
            )
        if not tail:
            raise bad("name the token put on the board from the discard pile")
        return CardPlayed(clan, card, cost=cost, animated=parse_entry(f"{clan}: {tail}", board, lineno))
    if card == "purge_the_weak":
        if not parts or not re.match(r"discard\s", parts[0], flags=re.I):
            raise bad("the token discarded from hand comes first: 'discard <token>'")
        hand = parse_token(parts[0].split(None, 1)[1], text, lineno)
        targets = tuple(parse_target(p, board, text, lineno, need_token=True) for p in parts[1:])
        if len(targets) > 2:
            raise bad("discards two tokens on the board")
        return CardPlayed(clan, card, hand_discard=hand, targets=targets)
    raise bad()  # pragma: no cover - every card has a form above


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
