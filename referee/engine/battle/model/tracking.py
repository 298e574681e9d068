"""What the referee tracks between table events, as values: token inventory, initiative deck, the round.

Unknown facts stay unknown: the referee never knows a clan's hidden kept token or its draws unless
they were entered. What it knows is what was seen at the table: discard piles (faceup, p.9), tokens
revealed by cards, hands looked at, and what each card moved.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from ....core.value import value
from .entry import Entry
from .tokens import Clan, Kind, Token

SCOUTS_PER_CLAN = 2  # setup step 4 (p.4)
SHUGENJA_PER_CLAN = 1
INITIATIVE_DECK = 4  # setup step 9 (p.5)

BLUFF = Token(Kind.BLUFF)


@value
class Discarded:
    """One token in a discard pile: which, when, and how it got there."""

    token: Token
    round: int
    why: str = "revealed"


@value
class Inventory:
    """R-08: one clan's combat tokens. Pool and hand are one unknown mix, except what was seen."""

    discard: tuple[Discarded, ...] = ()
    hand: tuple[Token, ...] = ()  # tokens known to be in hand now (a hand known only in part is fine)
    hand_complete: bool = False  # the whole hand was seen (Spy Network)

    def discarded(self) -> Counter[Token]:
        return Counter(d.token for d in self.discard)

    def with_discarded(self, tokens: list[Token], round_no: int, why: str) -> Inventory:
        """Tokens go to the discard pile; a bluff never does (p.8: it returns to its owner)."""
        extra = tuple(Discarded(t, round_no, why) for t in tokens if t.kind != Kind.BLUFF)
        return replace(self, discard=self.discard + extra, hand=_minus(self.hand, tokens))

    def without_discarded(self, token: Token) -> Inventory:
        """The latest copy of ``token`` leaves the discard pile."""
        for i in range(len(self.discard) - 1, -1, -1):
            if self.discard[i].token == token:
                return replace(self, discard=self.discard[:i] + self.discard[i + 1 :])
        raise ValueError(f"{token} is not in the discard pile")


def _minus(tokens: tuple[Token, ...], gone: list[Token]) -> tuple[Token, ...]:
    left = list(tokens)
    for t in gone:
        if t in left:
            left.remove(t)
    return tuple(left)


@dataclass(frozen=True, slots=True)
class Initiative:
    """R-23: the initiative deck after the setup draw. Neutral cards stay unseen until revealed."""

    clans: frozenset[Clan] = frozenset()  # clan cards still in the deck
    neutrals: int = 0  # neutral cards still in the deck (identity unknown)
    revealed: tuple[str, ...] = ()  # every card revealed so far, the setup draw first

    @property
    def size(self) -> int:
        return len(self.clans) + self.neutrals


@value
class Adjustment:
    """A change to one clan's number of tokens on the board at reveal (the placements it owes)."""

    clan: Clan
    delta: int  # -1 taken off by a card, +1 put on by Animate the Dead
    why: str
    certain: bool = True  # False: a token of unknown identity went back; it may have been the bluff


@value
class RoundTable:
    """The table events of one round so far (upkeep, then placement)."""

    round: int
    events: int = 0  # round events applied (setup events are not counted)
    revealed: bool = False  # upkeep step 1 done (initiative card)
    dragon_returned: bool = False
    card_step_started: bool = False  # upkeep step 3
    card_turn: int = 0  # index into the turn order: whose turn it is in the card step
    passes_in_row: int = 0
    card_step_over: bool = False
    placement: bool = False  # the placement phase has begun
    swapped: bool = False  # the Unicorn swap closes the placement phase
    first_player_card_used: bool = False
    peeked: bool = False
    changes: tuple[Adjustment, ...] = ()
    bluff_out: tuple[tuple[Clan, str], ...] = ()  # clans whose bluff cannot be placed, and why
    animated: tuple[Entry, ...] = ()  # tokens put faceup on the board by Animate the Dead
    pooled: tuple[tuple[Clan, Token, str], ...] = ()  # sent back to the pool this round, and by what
    taken_off: tuple[tuple[Entry, str], ...] = ()  # R-17b: known tokens a card took off the board, and which card
    swap: tuple[Clan, tuple[str, str | None], tuple[str, str | None]] | None = None
    notes: tuple[str, ...] = ()

    @property
    def affects_entries(self) -> bool:
        """Whether the round's card effects change what the entries may hold (R-08)."""
        return bool(self.changes or self.swap or self.bluff_out or self.animated or self.pooled)

    def pooled_by(self, clan: Clan, token: Token) -> list[str]:
        """What sent each copy of ``token`` back to the clan's pool this round (R-08)."""
        return [why for c, t, why in self.pooled if c == clan and t == token]

    def with_pooled(self, clan: Clan, token: Token, why: str) -> RoundTable:
        """A token goes back to its pool: out of reach until the next upkeep's draw (R-08)."""
        return replace(self, pooled=self.pooled + ((clan, token, why),))

    def with_taken_off(self, entry: Entry, by: str) -> RoundTable:
        """A token a card took off the board during placement: it never reaches resolution (R-17b)."""
        return replace(self, taken_off=self.taken_off + ((entry, by),))

    def bluff_ban(self, clan: Clan) -> str | None:
        return next((why for c, why in self.bluff_out if c == clan), None)

    def expected(self, clan: Clan, base: int, ronin: bool) -> tuple[int, int]:
        """(at least, at most) tokens the clan has on the board at reveal."""
        hi = base + sum(c.delta for c in self.changes if c.clan == clan and c.certain)
        lo = hi + sum(c.delta for c in self.changes if c.clan == clan and not c.certain and c.delta < 0)
        hi += sum(c.delta for c in self.changes if c.clan == clan and not c.certain and c.delta > 0)
        return (0 if ronin else max(lo, 0)), max(hi, 0)


@dataclass(frozen=True, slots=True)
class CardsLeft:
    """Scouts and shugenja used (single use, p.11); start: 2 scouts and 1 shugenja each."""

    scouts_used: tuple[tuple[Clan, int], ...] = ()
    shugenja_used: frozenset[Clan] = frozenset()

    def scouts(self, clan: Clan) -> int:
        return SCOUTS_PER_CLAN - dict(self.scouts_used).get(clan, 0)

    def shugenja(self, clan: Clan) -> int:
        return SHUGENJA_PER_CLAN - (clan in self.shugenja_used)

    def use_scout(self, clan: Clan) -> CardsLeft:
        used = dict(self.scouts_used)
        used[clan] = used.get(clan, 0) + 1
        return replace(self, scouts_used=tuple(sorted(used.items())))

    def use_shugenja(self, clan: Clan) -> CardsLeft:
        return replace(self, shugenja_used=self.shugenja_used | {clan})


def empty_inventories(clans: tuple[Clan, ...]) -> dict[Clan, Inventory]:
    return {c: Inventory() for c in clans}
