"""Token inventory (R-08): what each clan can have in hand now, and the checks made at entry.

Every clan owns 27 combat tokens (p.3). The referee knows its discard pile (faceup, p.9), the
tokens cards moved, and a hand when one was looked at; the pool and the hidden hand are one
unknown mix. So a token is *available* when the clan owns it and it is neither discarded nor
known to be elsewhere: owned - discarded - (out for the round) - placed this round. A token sent
back to its pool this round (the Dragon's return R-03, the first player card R-21, Promotion,
Reinforcements) is out of reach until the next upkeep's draw (R-08): the round's table holds it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TypedDict

from ..model.entry import Entry
from ..model.errors import Refusal, Refuse
from ..model.state import GameState
from ..model.tokens import PLACEMENTS_PER_ROUND, Clan, Kind, Token
from ..model.tracking import BLUFF, Adjustment, Discarded, Inventory, RoundTable
from .placement import check_entries, entry_text, placed_tokens


class InventoryView(TypedDict):
    """What ``describe_inventory`` tells of one clan's tokens."""

    discard: list[str]
    hand: list[str]
    available: dict[str, int]


def tracked(state: GameState) -> bool:
    return state.inventory is not None


def inventory_of(state: GameState, clan: Clan) -> Inventory:
    return (state.inventory or {}).get(clan, Inventory())


def table_of(state: GameState) -> RoundTable:
    return state.table if state.table is not None and state.table.round == state.round else RoundTable(state.round)


def owned(state: GameState, clan: Clan) -> Counter[Token]:
    return Counter(state.board.clans[clan].counts)


def available(state: GameState, clan: Clan) -> Counter[Token]:
    """Tokens the clan can have in hand now, or have placed this round."""
    inv = inventory_of(state, clan)
    table = table_of(state)
    animated = Counter(e.token for e in table.animated if e.clan == clan)
    pooled = Counter(t for c, t, _ in table.pooled if c == clan)
    avail = owned(state, clan) - inv.discarded() - animated - pooled
    if table.bluff_ban(clan):
        avail[BLUFF] = 0
    if inv.hand_complete:
        avail = avail & Counter(inv.hand)
    return +(avail + animated)


def explain(state: GameState, clan: Clan, token: Token, avail: int) -> str:
    """Why the clan cannot have one more ``token`` than ``avail`` right now."""
    name = clan.title()
    table = table_of(state)
    inv = inventory_of(state, clan)
    if token == BLUFF and table.bluff_ban(clan):
        return f"{name} may not use its bluff this round ({table.bluff_ban(clan)})"
    gone = [d for d in inv.discard if d.token == token]
    pooled = table.pooled_by(clan, token)
    n = state.board.clans[clan].owned(token)
    if inv.hand_complete and len(gone) + len(pooled) < n:
        in_hand = Counter(inv.hand)[token]
        return f"{name}'s hand was seen this round (spy_network) and holds {in_hand} {token}"

    def how(d: Discarded) -> str:
        return f"round {d.round}" + ("" if d.why == "revealed" else f", {d.why}")

    if n == 1 and pooled:
        return f"{name}'s only {token} went back to its pool this round ({pooled[-1]})"
    if n == 1 and gone:
        return f"{name}'s only {token} was discarded in {how(gone[-1])}"
    parts = []
    if gone:
        parts.append(f"{len(gone)} discarded ({'; '.join(how(d) for d in gone)})")
    if pooled:
        parts.append(f"{len(pooled)} back in its pool this round ({'; '.join(pooled)})")
    return f"{name} has {n} {token} in all, {', '.join(parts) or '0 discarded ()'}: at most {avail} can be in hand"


def require_available(state: GameState, clan: Clan, token: Token, ruling: str, extra: int = 0) -> None:
    """A token the event says the clan has in hand (or placed): refused when it cannot."""
    n = state.board.clans[clan].owned(token)
    if n == 0:
        raise Refuse(f"{clan.title()} has no {token} token", ruling)
    if not tracked(state):
        return
    avail = available(state, clan)[token]
    if avail < 1 + extra:
        raise Refuse(explain(state, clan, token, avail), ruling)


def require_discarded(state: GameState, clan: Clan, token: Token, ruling: str, count: int = 1) -> None:
    if state.board.clans[clan].owned(token) == 0:
        raise Refuse(f"{clan.title()} has no {token} token", ruling)
    if tracked(state) and inventory_of(state, clan).discarded()[token] < count:
        have = inventory_of(state, clan).discarded()[token]
        only = "only " if state.board.clans[clan].owned(token) == 1 else ""
        what = (
            f"{clan.title()}'s {only}{token} is not in its discard pile"
            if have == 0
            else f"{clan.title()} has only {have} {token} in its discard pile"
        )
        raise Refuse(what, ruling)


def with_inventory(state: GameState, clan: Clan, inv: Inventory) -> GameState:
    if state.inventory is None:
        return state
    inventory = dict(state.inventory)
    inventory[clan] = inv
    return state.with_(inventory=inventory)


def discard_tokens(state: GameState, clan: Clan, tokens: list[Token], why: str) -> GameState:
    return with_inventory(state, clan, inventory_of(state, clan).with_discarded(tokens, state.round, why))


# --- at entry: the round's revealed tokens (R-08) -------------------------------------------------
PURGE_NO_PLACEMENT = "no token placed this turn (purge_the_weak)"  # recorded in digests: keep the words


def placement_range(state: GameState, clan: Clan) -> tuple[int, int]:
    """(at least, at most) tokens ``clan`` has on the board at reveal this round, blessings included:
    five (p.7), less each token a card took off the board, less one for Purge the Weak, plus the token
    Animate the Dead put on it; a ronin places at most that many (p.11). Untracked tokens: no minimum."""
    lo, hi = table_of(state).expected(clan, PLACEMENTS_PER_ROUND, clan in state.ronin)
    return (lo if tracked(state) else 0), hi


@dataclass(frozen=True, slots=True)
class PlacementCount:
    """How many tokens a clan has entered for the round against how many it places (p.7: five, blessings
    included; ``placement_range``): the one count every screen shows, as ``4 of 5``."""

    placed: int
    least: int
    most: int
    ronin: bool = False

    @property
    def wanted(self) -> str:
        """How many the clan places: ``exactly 5``, ``at most 5`` (a ronin, or untracked tokens), ``4 or 5``."""
        if self.ronin or self.least == 0:
            return f"at most {self.most}"
        if self.least == self.most:
            return f"exactly {self.most}"
        return f"{self.least} or {self.most}" if self.most - self.least == 1 else f"{self.least} to {self.most}"

    @property
    def missing(self) -> int:
        """Tokens still to place before the round can stand (0 when enough are entered)."""
        return max(self.least - self.placed, 0)

    @property
    def full(self) -> bool:
        """No token or blessing can be added: the most the clan places are entered."""
        return self.placed >= self.most

    def __str__(self) -> str:
        """``4 of 5``; ``4 of at most 5`` (a ronin, untracked tokens); ``4 of 4 or 5`` (a card's effect unknown)."""
        exact = self.least == self.most and not self.ronin
        return f"{self.placed} of {self.most if exact else self.wanted}"

    def tokens(self) -> str:
        """``4 of 5 tokens``, as the phone, the moderator's page, `referee confirm` and `referee table` say it."""
        return f"{self} token{'' if self.most == 1 and self.placed <= 1 else 's'}"

    def needs(self) -> str:
        """What is missing, in one sentence (empty when nothing is)."""
        if not self.missing:
            return ""
        return f"{self.missing} missing: {self.wanted} placed, blessings included (p.7)"


def placement_count(state: GameState, clan: Clan, entries: Iterable[Entry]) -> PlacementCount:
    """The tokens ``clan``'s entries place (each token and each blessing on it, p.7) against how many it
    places this round (``placement_range``); ``state``: at the start of the round (``begin_round``)."""
    placed = sum(len(placed_tokens(e)) for e in entries if e.clan == clan)
    lo, hi = placement_range(state, clan)
    return PlacementCount(placed, lo, hi, clan in state.ronin)


def check_placements(state: GameState, entries: Iterable[Entry], *, complete: bool = True) -> list[Refusal]:
    """Every reason the round's entries cannot stand (R-08): the one check of every entry path.

    ``complete`` False checks a round still being typed: too many tokens and tokens the clan cannot
    have are refused, but not too few, nor a token a card put on the board and not yet typed."""
    entries = list(entries)
    table_flow = tracked(state) or table_of(state).affects_entries
    refusals = check_entries(state, entries, count_placements=not table_flow)
    if table_flow:
        refusals += check_round(state, entries, complete=complete)
    return refusals


def check_round(state: GameState, entries: Iterable[Entry], *, complete: bool = True) -> list[Refusal]:
    """Tokens the clan cannot have right now, a wrong number of tokens for the round, and entries
    that contradict the round's table events. Empty when the entries can stand. ``complete`` False:
    a round still being typed (no minimum, nothing missing yet)."""
    entries = list(entries)
    table = table_of(state)
    refusals: list[Refusal] = []
    by_clan: dict[Clan, list[Entry]] = {}
    for e in sorted(entries, key=lambda e: e.key):
        by_clan.setdefault(e.clan, []).append(e)
    for clan in state.clans:
        mine = by_clan.get(clan, [])
        refusals += _token_refusals(state, clan, mine)  # untracked: only the round's bans apply
        count = sum(len(placed_tokens(e)) for e in mine)
        lo, hi = placement_range(state, clan)
        if not (lo if complete else 0) <= count <= hi:
            refusals.append(Refusal(clan, f"{count} tokens", _count_problem(state, clan, lo, hi)))
    if not complete:
        return refusals
    return refusals + _against_the_table(table, entries)


def _against_the_table(table: RoundTable, entries: list[Entry]) -> list[Refusal]:
    """Entries that contradict the round's table events: a token Animate the Dead put on the board missing,
    the Unicorn's swap not entered or entered blessed (R-07)."""
    refusals: list[Refusal] = []
    for e in table.animated:
        if not any(
            x.clan == e.clan and x.token == e.token and (x.province, x.source) == (e.province, e.source)
            for x in entries
        ):
            refusals.append(
                Refusal(
                    e.clan,
                    entry_text(e),
                    "Animate the Dead put this token faceup on the board; it is missing from the entries",
                    "card:animate_the_dead",
                )
            )
    if table.swap is not None:
        clan, a, b = table.swap
        for province, source in (a, b):
            there = [x for x in entries if x.clan == clan and (x.province, x.source) == (province, source)]
            where = f"@ {province}" if source is None else f"{source} > {province}"
            if not there:
                refusals.append(
                    Refusal(
                        clan,
                        where,
                        f"the {clan} swap moved a token to {where}, but no {clan} token is entered there",
                        "R-07",
                    )
                )
            elif all(x.blessings for x in there):
                refusals.append(
                    Refusal(
                        clan,
                        where,
                        f"the token swapped to {where} is blessed: blessed tokens cannot be swapped (R-07, R-10); "
                        "the table made no such swap: correct the swap or the entry",
                        "R-07b",
                    )
                )
    return refusals


def _token_refusals(state: GameState, clan: Clan, mine: list[Entry]) -> list[Refusal]:
    avail = available(state, clan)
    used: Counter[Token] = Counter()
    out: list[Refusal] = []
    for e in mine:
        for token in placed_tokens(e):
            used[token] += 1
            n = state.board.clans[clan].owned(token)
            if used[token] > avail[token] and used[token] <= n:  # beyond n: check_entries says so
                out.append(Refusal(clan, entry_text(e), explain(state, clan, token, avail[token])))
    return out


def _count_problem(state: GameState, clan: Clan, lo: int, hi: int) -> str:
    table = table_of(state)
    want = PlacementCount(0, lo, hi, clan in state.ronin).wanted
    why = (
        "five placed, blessings included (p.7)"
        if clan not in state.ronin
        else "five at most: a ronin who cannot place is skipped (p.11)"
    )
    mine = [c for c in table.changes if c.clan == clan]
    extra = "".join(f"; {'+' if c.delta > 0 else ''}{c.delta} {c.why}" for c in mine)
    if any(c.delta < 0 and c.why != PURGE_NO_PLACEMENT for c in mine):  # a token a card took (R-21e)
        extra += (
            "; a token a card sent to the pool or discarded is not replaced (one fewer), a bluff sent back "
            "behind the screen is placed again (R-21e)"
        )
    return f"{clan} must have {want} token(s) on the board at reveal this round: {why}{extra}"


def adjust(table: RoundTable, clan: Clan, delta: int, why: str, certain: bool = True) -> RoundTable:
    return replace(table, changes=table.changes + (Adjustment(clan, delta, why, certain),))


# --- after resolution -----------------------------------------------------------------------------
def after_round(before: GameState, after: GameState, entries: Iterable[Entry]) -> GameState:
    """Every revealed token goes to its owner's discard pile; bluffs go back behind the screen (p.9;
    R-04 Lion bluffs too), and a blessing goes with its token (R-10)."""
    if before.inventory is None:
        return after
    inventory = dict(before.inventory)
    for e in sorted(entries, key=lambda e: e.key):
        tokens = [t for t in placed_tokens(e) if t.kind != Kind.BLUFF]
        inv = inventory.get(e.clan, Inventory())
        inventory[e.clan] = inv.with_discarded(tokens, before.round, "revealed")
    return after.with_(inventory=inventory)


def describe_inventory(state: GameState, clan: Clan) -> InventoryView:
    """What the referee knows of one clan's tokens: for reports and the casebook."""
    inv = inventory_of(state, clan)
    return {
        "discard": sorted(str(d.token) for d in inv.discard),
        "hand": sorted(str(t) for t in inv.hand),
        "available": {str(t): n for t, n in sorted(available(state, clan).items())},
    }
