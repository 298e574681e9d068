"""Cards and abilities at the start of a placement turn (p.11; R-06, R-07, R-10, R-21): scouts,
shugenja, the first player card, the Scorpion's look and the Unicorn's swap. Any number together
(FAQ); scouts and shugenja are single use; none may target a blessed token (R-10)."""

from __future__ import annotations

from dataclasses import replace

from ..model.entry import Entry
from ..model.errors import Refuse
from ..model.state import GameState
from ..model.tokens import Clan
from ..model.tracking import BLUFF
from ..notation.table_parts import Swapped, TokenTargeted, format_blessed_place, format_place, format_target
from ..resolution.inventory import adjust, table_of
from .cards import discard_target
from .effects import check_place, check_target


def play_targeted(state: GameState, e: TokenTargeted) -> tuple[GameState, str]:
    return {"scout": _scout, "shugenja": _shugenja, "first_player": _first_player, "peek": _peek}[e.verb](state, e)


def _scout(state: GameState, e: TokenTargeted) -> tuple[GameState, str]:
    left = state.cards_left.scouts(e.clan)
    if left < 1:
        raise Refuse(f"{e.clan} has used both its scout cards: single use (p.11)", "p.11")
    check_target(state, e.clan, e.target, "p.11", opponent=True)
    state = state.with_(cards_left=state.cards_left.use_scout(e.clan))
    return (
        state,
        f"{e.clan} scouts {format_target(e.target)}: looks at it without revealing it; {left - 1} scout card(s) left",
    )


def _shugenja(state: GameState, e: TokenTargeted) -> tuple[GameState, str]:
    if state.cards_left.shugenja(e.clan) < 1:
        raise Refuse(f"{e.clan} has used its shugenja card: single use (p.11)", "p.11")
    state, text = discard_target(state, e.clan, e.target, "R-21", f"{e.clan}'s shugenja", opponent=True)
    return state.with_(cards_left=state.cards_left.use_shugenja(e.clan)), f"{e.clan}'s shugenja: {text}"


def _first_player(state: GameState, e: TokenTargeted) -> tuple[GameState, str]:
    if len(state.clans) == 2:
        raise Refuse("two players: the first player card is not used (p.7)", "R-23")
    if state.first_player is not None and state.first_player != e.clan:
        raise Refuse(f"{state.first_player} is the first player and holds the first player card", "R-23")
    t = table_of(state)
    if t.first_player_card_used:
        raise Refuse(
            "the first player card was already used this round: once a round, at the start of one of the first "
            "player's placement turns (p.7)",
            "R-21d",
        )
    check_target(state, e.clan, e.target, "R-21", opponent=False)
    owner, token = e.target.owner, e.target.token
    if token == BLUFF:
        text = (
            f"{format_target(e.target)} is a bluff: it goes back behind {owner}'s screen, not into the "
            f"pool, and may be placed again (R-21a): {owner} still reveals as many tokens as without the card (R-21e)"
        )
    elif token is None:
        t = adjust(
            t,
            owner,
            -1,
            f"a token returned to the pool by {e.clan}'s first player card (a bluff would be placed again)",
            certain=False,
        )
        text = (
            f"{e.clan} looks at {format_target(e.target)} and returns it to {owner}'s pool (R-21): a token is not "
            f"replaced, so {owner} reveals one fewer; a bluff is placed again, so {owner} reveals as many (R-21e)"
        )
    else:
        t = adjust(t, owner, -1, f"{token} returned to the pool by {e.clan}'s first player card")
        t = t.with_pooled(owner, token, f"{e.clan}'s first player card, R-21")
        t = t.with_taken_off(Entry(owner, token, e.target.province, e.target.source), f"{e.clan}'s first player card")
        text = (
            f"{e.clan} looks at {format_target(e.target)} and returns it to {owner}'s pool until the next "
            f"upkeep's draw (R-21, R-08): it is not replaced, so {owner} reveals one fewer token this round (R-21e)"
        )
    return state.with_(table=replace(t, first_player_card_used=True)), text


def _peek(state: GameState, e: TokenTargeted) -> tuple[GameState, str]:
    if e.clan != Clan.SCORPION:
        raise Refuse("only the Scorpion looks at a token after placing one (R-06)", "R-06")
    t = table_of(state)
    if t.peeked:
        raise Refuse("the Scorpion looks once per round", "R-06")
    check_target(state, e.clan, e.target, "R-06", opponent=False)
    return (
        state.with_(table=replace(t, peeked=True)),
        f"the Scorpion looks at {format_target(e.target)} (recorded for audit; no effect on the "
        "board; its timing is the table's word, R-06a)",
    )


def play_swap(state: GameState, e: Swapped) -> tuple[GameState, str]:
    """R-07: immediately before resolution step 1, two of the Unicorn's own facedown, unblessed tokens
    change places; the revealed positions are what is resolved."""
    if e.clan != Clan.UNICORN:
        raise Refuse("only the Unicorn swaps two of its tokens before the reveal (R-07)", "R-07")
    if e.first == e.second:
        raise Refuse("the swap needs two different places", "R-07")
    for place, blessings in zip((e.first, e.second), e.blessings, strict=True):
        if blessings:
            raise Refuse(
                f"the token at {format_blessed_place(place, blessings)} is blessed: a blessed stack cannot be "
                "targeted (R-07, R-10), so the table made no such swap; nothing is recorded",
                "R-07b",
            )
        check_place(state, *place, "R-07")
    t = table_of(state)
    if t.swapped:
        raise Refuse("the Unicorn swaps at most once a round (p.5)", "R-07a")
    return state.with_(table=replace(t, swapped=True, swap=(e.clan, e.first, e.second))), (
        f"the Unicorn swaps its tokens at {format_place(e.first)} and {format_place(e.second)}; the entries give the "
        "positions after the swap, and neither token may be blessed (R-07, R-10; recorded as the "
        "table reports it, R-06a)"
    )
