"""Placement checks (rulebook pp.7-8, p.10).

Two kinds of problem, kept apart as R-08 and R-09 ask:
- ``check_entries``: physically impossible entries (typing mistakes): refused, nothing recorded.
- ``judge``: physically possible but illegal placements: accepted, discarded at reveal (step 2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from ..model.board import SEA
from ..model.entry import Entry
from ..model.errors import Refusal
from ..model.options import HarborNavy
from ..model.state import GameState, Special
from ..model.tokens import PLACEMENTS_PER_ROUND, Clan, Kind, Token, token_code
from ..notation.round import format_entry

_KEY = attrgetter("key")
# Enum members read once: reading ``Kind.ARMY`` goes through the enum's class, a cost paid per token
ARMY, NAVY, SHINOBI, RAID, DIPLOMACY, BLESSING, BLUFF = (
    Kind.ARMY,
    Kind.NAVY,
    Kind.SHINOBI,
    Kind.RAID,
    Kind.DIPLOMACY,
    Kind.BLESSING,
    Kind.BLUFF,
)
HARBOR, SCORCHED, PEACE, SHRINE, BATTLEFIELD = (
    Special.HARBOR,
    Special.SCORCHED,
    Special.PEACE,
    Special.SHRINE,
    Special.BATTLEFIELD,
)
LION = Clan.LION


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why a token that was legal to place is discarded at reveal, and the ruling (R-09)."""

    reason: str
    ruling: str = "R-09"


def entry_text(entry: Entry) -> str:
    """The entry without its clan, as quoted in messages."""
    return format_entry(entry).split(": ", 1)[1]


def placed_tokens(entry: Entry) -> list[Token]:
    """The tokens a line puts on the board: the token and each blessing on it."""
    return [entry.token, *(Token(BLESSING, b) for b in entry.blessings)]


def check_entries(
    state: GameState,
    entries: Iterable[Entry],
    available: Mapping[Clan, Counter[Token]] | None = None,
    placements: Mapping[Clan, int] | None = None,
    count_placements: bool = True,
) -> list[Refusal]:
    """Every physically impossible entry at once (R-08). Empty when all can be on the board.

    ``available`` narrows ownership to what each clan can have in hand now (token inventory);
    without it, the clan's whole set of 27 tokens is the limit. ``placements`` gives the exact
    number of tokens each clan must have placed, when the table knows it. ``count_placements``
    False leaves the number of tokens to the caller (``inventory.check_round``).
    """
    entries = list(entries)
    if nothing_impossible(state, entries, available, placements, count_placements):
        return []
    return impossible_entries(state, entries, available, placements, count_placements)


def impossible_entries(
    state: GameState,
    entries: Iterable[Entry],
    available: Mapping[Clan, Counter[Token]] | None = None,
    placements: Mapping[Clan, int] | None = None,
    count_placements: bool = True,
) -> list[Refusal]:
    """``check_entries`` in full: every problem of every entry, in the entries' order, each explained."""
    board = state.board
    neighbours = board.neighbours
    refusals: list[Refusal] = []
    entries = sorted(entries, key=_KEY)
    # per clan, each token placed so far: [how many, the first entry placing it (for the message)]
    used: dict[Clan, dict[Token, list[Any]]] = {}
    borders: dict[tuple[str, ...], Entry] = {}
    for e in entries:
        problems: list[str] = []
        clan, source, province = e.clan, e.source, e.province
        if clan not in state.clans:
            problems.append(f"{clan} is not playing in this game")
        if source is None:
            pass
        elif source == province:
            problems.append("a token cannot point from a province into itself")
        elif source == SEA:
            if not state.is_coastal(province):
                problems.append(f"{province} has no coastal border (landlocked, p.6)")
        elif province not in neighbours.get(source, ()):
            problems.append(f"{source} and {province} share no border")
        counts = board.clans[clan].counts
        have = used.get(clan)
        if have is None:
            have = used[clan] = {}
        mine = available.get(clan) if available is not None else None
        for token in (e.token,) if not e.blessings else placed_tokens(e):
            printed = counts.get(token, 0)
            owned = mine[token] if mine is not None else printed
            seen = have.get(token)
            placed = seen[0] if seen else 0
            if printed == 0:
                problems.append(f"{clan.title()} has no {token} token")
            elif placed + 1 > owned:
                what = "in hand" if available is not None else "in all"
                already = f", already placed: {format_entry(seen[1])}" if seen else ""
                problems.append(f"{clan.title()} has only {owned} {token} {what}{already}")
            if seen:
                seen[0] += 1
            else:
                have[token] = [1, e]
        if source is not None and not problems:
            border = e.border
            assert border is not None, "an entry with a source sits on a border"
            if border in borders:
                problems.append(f"the border already holds {format_entry(borders[border])} (one token per border, p.7)")
            else:
                borders[border] = e
        if problems:
            refusals.extend(Refusal(clan, entry_text(e), p) for p in problems)
    for clan, tokens in sorted(used.items()) if count_placements else ():
        count = sum(n for n, _ in tokens.values())
        want = placements.get(clan) if placements is not None else None
        if want is not None and count != want:
            refusals.append(Refusal(clan, f"{count} tokens", f"{clan} must place exactly {want} this round (p.7)"))
        elif want is None and count > PLACEMENTS_PER_ROUND:
            refusals.append(
                Refusal(
                    clan, f"{count} tokens", f"at most {PLACEMENTS_PER_ROUND} tokens a round, blessings included (p.7)"
                )
            )
    return refusals


def nothing_impossible(
    state: GameState,
    entries: list[Entry],
    available: Mapping[Clan, Counter[Token]] | None,
    placements: Mapping[Clan, int] | None,
    count_placements: bool,
) -> bool:
    """True when ``impossible_entries`` finds nothing: the quick answer for the usual round, where every
    entry can be on the board. When anything is in doubt, the full check runs and explains.
    (tests/battle/test_rules_properties.py checks that the two always agree.)"""
    clans = state.clans
    board = state.board
    land = board.border_pairs
    coastal = board.coastal
    special = state.special
    limits = board.token_limits
    placed: dict[str, int] = {}  # by token_code, as limits
    per_clan = dict.fromkeys(clans, 0)
    borders = set()
    for e in entries:
        clan = e.clan
        if clan not in clans:
            return False
        border = e.border
        if border is not None:
            if e.source == SEA:
                p = e.province
                if p not in coastal and not (p in special and special[p].kind == HARBOR):
                    return False
            elif border not in land:  # never a province and itself
                return False
            if border in borders:
                return False
            borders.add(border)
        for code in e.codes:
            n = placed[code] = placed.get(code, 0) + 1
            if n > limits.get(code, 0):
                return False
        per_clan[clan] += len(e.codes)
    if available is not None:  # what each clan can have in hand now (token inventory)
        for e in entries:
            mine = available.get(e.clan)
            if mine is not None:
                for token in placed_tokens(e):
                    if placed[token_code(e.clan, token.kind, token.strength)] > mine[token]:
                        return False
    for clan, count in per_clan.items() if count_placements else ():
        if not count:
            continue  # a clan with no entry: the table counts its tokens (inventory.check_round)
        want = placements.get(clan) if placements is not None else None
        if count > PLACEMENTS_PER_ROUND if want is None else count != want:
            return False
    return True


SITE_RULES = frozenset({SCORCHED, PEACE, SHRINE})  # the special tokens that limit who may place around them


def restricted_sites(state: GameState) -> set[str]:
    """The provinces whose special token limits who may place in them or on their borders (p.10): a
    token touching none of them needs no ``judge_site``."""
    return {p for p, token in state.special.items() if token.kind in SITE_RULES}


def judge_site(state: GameState, entry: Entry) -> Illegal | None:
    """Special tokens that forbid any token in or on a border of their province (p.10)."""
    specials = state.special
    if not specials:
        return None
    for p in (entry.source, entry.province):
        if p is None:  # a token in the centre has no source province
            continue
        token = specials.get(p)
        if token is None:
            continue
        special = token.kind
        if special == SCORCHED:
            return Illegal(f"{p} is scorched earth: no token in it or on its borders (p.10)")
        if special == PEACE:
            return Illegal(f"{p} is at peace: no token in it or on its borders (p.10)")
        if special == SHRINE and state.controller(p) is None:
            return Illegal(
                f"the shrine in {p}: nobody controls {p}, so no clan may place in it or on its borders (p.10, R-19b)"
            )
        if special == SHRINE and not state.controls(entry.clan, p):
            return Illegal(f"the shrine in {p}: only its controller may place in it or on its borders (p.10)")
    return None


def judge(state: GameState, entry: Entry) -> Illegal | None:
    """Why a revealed non-bluff token is illegally placed (R-09), or None when it stands: the special
    tokens around it (``judge_site``), then the token's own rules (``judge_placement``)."""
    specials = state.special
    if specials and (entry.province in specials or entry.source in specials):
        site = judge_site(state, entry)
        if site:
            return site
    return judge_placement(state, entry)


def judge_placement(state: GameState, entry: Entry) -> Illegal | None:
    """The token's own rules (p.8, p.10-11, R-09, R-11, R-20): where an army, navy, shinobi, raid or
    diplomacy token may go. ``judge`` checks the special tokens around it first."""
    kind, clan, p, source = entry.token.kind, entry.clan, entry.province, entry.source
    here = state.control.get(p)
    owns = here is not None and here.clan == clan
    if kind is ARMY:
        if source is None:
            return (
                None
                if owns
                else Illegal(f"an army defends only a province {clan} controls; {clan} does not control {p} (p.8)")
            )
        if source == SEA:
            return Illegal("an army cannot be placed on a coastal border (p.8)")
        if owns:
            return Illegal(f"{clan} controls {p}: you cannot attack your own province (FAQ)")
        if clan in state.ronin:
            return None  # a ronin may attack across any land border
        there = state.control.get(source)
        if there is None or there.clan != clan:
            return Illegal(
                f"an army attacks only from a province its clan controls; {clan} does not control {source} (p.8)"
            )
        return None
    if kind is NAVY:
        if source is None:
            if not owns:
                return Illegal(f"a navy defends only a province {clan} controls; {clan} does not control {p} (p.8)")
            if not state.is_coastal(p):
                return Illegal(f"a navy cannot defend landlocked {p} (p.8)", "R-09")
            return None
        if owns:
            return Illegal(f"{clan} controls {p}: you cannot attack your own province (FAQ)")
        if source == SEA:
            return None
        if state.special_at(p) == HARBOR and state.options.harbor_navy == HarborNavy.SEA_OR_LAND_BORDER:
            return None  # R-20, R-20a: from any land border of a harbor province, whoever holds the other side (p.10)
        if state.special_at(p) == HARBOR:
            return Illegal(
                f"harbor_navy is sea_only: a navy attacks harbor province {p} from its sea border alone", "R-20a"
            )
        return Illegal("a navy cannot be placed on a land border (p.8)")
    if kind is SHINOBI:
        return None if source is None else Illegal("a shinobi goes only in the centre of a province (FAQ)")
    if kind is RAID or kind is DIPLOMACY:
        if source is not None:
            return Illegal(f"a {kind} token goes in the centre of a province (p.8)")
        if clan in state.ronin:
            return Illegal(f"{clan} is ronin this round and cannot place {kind} tokens (p.11)", "R-11")
        if state.special_at(p) == BATTLEFIELD:
            return Illegal(f"{p} holds the battlefield: no raid or diplomacy there (p.10)")
        if kind is RAID and owns:
            return Illegal(f"a raid goes in a province its clan does not control; {clan} controls {p} (p.8)")
        if kind is DIPLOMACY and not owns:
            return Illegal(f"diplomacy goes in a province its clan controls; {clan} does not control {p} (p.8)")
        return None
    raise ValueError(f"judge() takes no {kind}")  # bluffs are handled by the resolution step


def is_kept_lion_bluff(state: GameState, entry: Entry) -> bool:
    """R-04: a Lion bluff in the centre of a province the Lion controls stays and defends (+2)."""
    return (
        entry.clan == LION
        and entry.token.kind == BLUFF
        and entry.in_centre
        and state.controls(LION, entry.province)
        and judge_site(state, entry) is None
    )
