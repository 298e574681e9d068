"""The game flow of pp.4-7 as checked table events: setup, upkeep (initiative, draws, territory
cards in turn), then the placement phase's cards, before the round's tokens are resolved.

    apply_table_event(state, event) -> (state, note)

Pure: the state is never changed in place. An illegal event raises ``EventRefused`` (one line:
round, clan, the quoted input, the problem and the ruling or card), and nothing is recorded.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..model.errors import EventRefused, NotationError, Refuse
from ..model.state import Control, GameState, begin_round
from ..model.tokens import ROUNDS, Clan, Kind
from ..model.tracking import Discarded, Initiative, Inventory, RoundTable, empty_inventories
from ..notation.setup import apply_board_fact
from ..notation.table_events import event_clan, event_input
from ..notation.table_parts import (
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
    format_place,
)
from ..resolution.inventory import inventory_of, require_available, table_of, tracked, with_inventory
from .cards import play_card
from .initiative import reveal, setup_draw
from .turn_cards import play_swap, play_targeted

SETUP_ONLY = (SetupStep, StartingControlPlaced)
FACTS = (FactEntered, FirstPlayerSet, DeckSet, DiscardEntered)


def apply_table_event(state: GameState, event: TableEvent) -> tuple[GameState, str]:
    try:
        return _apply(state, event)
    except Refuse as r:
        round_no = (
            state.round
            if state.table is not None or not isinstance(event, SETUP_ONLY + FACTS + (InitiativeRevealed,))
            else None
        )
        clan = event_clan(event)
        raise EventRefused(round_no, str(clan) if clan else None, event_input(event), r.problem, r.ruling) from None


def _apply(state: GameState, event: TableEvent) -> tuple[GameState, str]:
    if state.round > ROUNDS:
        raise Refuse(f"the game has five rounds (p.10) and the fifth is over: there is no round {state.round}", "R-27a")
    if isinstance(event, FACTS):
        return _fact(state, event)
    if isinstance(event, SetupStep) and event.step == "tokens" and (state.table is None or not state.table.events):
        return _setup(state, event)  # tracking may also start at a round's beginning (a game under way)
    if isinstance(event, SETUP_ONLY):
        if state.table is not None or state.round != 1:
            raise Refuse("setup is over: round 1 has begun", "p.4")
        return _setup(state, event)
    if isinstance(event, InitiativeRevealed) and state.round == 1 and state.initiative is None:
        return setup_draw(state, event.card)
    return _upkeep(begin_round(state), event)


def _upkeep(state: GameState, event: TableEvent) -> tuple[GameState, str]:
    """A table event of a round under way: the initiative card first (R-23), then the card step (R-21), then the
    placement phase's events."""
    table = table_of(state)
    if isinstance(event, InitiativeRevealed):
        if table.revealed:
            raise Refuse("the initiative card was already revealed this round", "R-23")
        if table.events:
            raise Refuse("the initiative card is revealed first in upkeep (p.7 step 1)", "R-23")
        state, text = reveal(state, event.card)
        return _counted(state, revealed=True), text
    if state.round > 1 and state.initiative is not None and state.initiative.size and not table.revealed:
        raise Refuse(
            f"reveal the initiative card first: upkeep step 1 of round {state.round} (p.7), 'initiative: <card>'",
            "R-23",
        )
    if isinstance(event, TokenReturned):
        return _dragon_return(state, event)
    if isinstance(event, Passed) or isinstance(event, CardPlayed) and not _is_shadowlands(state, event.card):
        return _card_step(state, event)
    return _placement(state, event, table)


def _placement(state: GameState, event: TableEvent, table: RoundTable) -> tuple[GameState, str]:
    """A table event of the placement phase: a Shadowlands card, a token targeted, the Unicorn's swap (R-07)."""
    if isinstance(event, Swapped) and table.swapped:
        assert table.swap is not None  # set with swapped (play_swap)
        _, a, b = table.swap
        raise Refuse(
            f"the Unicorn already swapped {format_place(a)} with {format_place(b)} this round: one swap a round (p.5)",
            "R-07a",
        )
    if table.swapped:
        raise Refuse(
            "the Unicorn swapped its tokens: the placement phase is over and the reveal comes next (R-07)", "R-07"
        )
    state = _counted(state, placement=True, card_step_over=True)
    if isinstance(event, CardPlayed):
        return play_card(state, event)
    if isinstance(event, TokenTargeted):
        return play_targeted(state, event)
    if isinstance(event, Swapped):
        return play_swap(state, event)
    raise TypeError(f"not a table event: {event!r}")  # pragma: no cover


def _counted(state: GameState, **changes: Any) -> GameState:
    t = table_of(state)
    return state.with_(table=replace(t, events=t.events + 1, **changes))


def _is_shadowlands(state: GameState, card: str) -> bool:
    return state.board.territories[state.board.cards[card].territory].is_shadowlands


# --- setup (pp.4-5) -------------------------------------------------------------------------------
def _setup(state: GameState, event: SetupStep | StartingControlPlaced) -> tuple[GameState, str]:
    if isinstance(event, SetupStep) and event.step == "tokens":
        if state.inventory is not None:
            raise Refuse("the combat tokens are already tracked", "p.4")
        return state.with_(inventory=empty_inventories(state.clans)), (
            "every clan's 27 combat tokens are tracked from here: bluff behind the screen, the rest "
            "in the pool (p.4 step 3; R-08)"
        )
    if isinstance(event, SetupStep):  # capitals, step 6
        if all(state.controls(c, state.board.clans[c].capital) for c in state.clans):
            return state, (
                "already done: every capital holds its clan's control token (p.4 step 6; a stored game's "
                "are placed when it is created); nothing placed"
            )
        control = dict(state.control)
        for clan in state.clans:
            capital = state.board.clans[clan].capital
            current = control.get(capital)
            if current is not None and current.clan != clan:
                raise Refuse(f"{current.clan} already controls {clan}'s capital {capital}", "p.4")
            control[capital] = current or Control(clan)
        return state.with_(control=control), "each clan places a facedown control token in its capital (p.4 step 6)"
    clan, p = event.clan, event.province
    if clan not in state.clans:
        raise Refuse(f"{clan} is not playing in this game", "p.5")
    if p in state.control:
        raise Refuse(
            f"{p} already holds a {state.control[p].clan} control token: each starting token goes in a "
            "province without one (p.5 step 10)",
            "p.5",
        )
    n = state.board.control_set_aside.get(len(state.clans), 0)
    placed = state.control_tokens_on_board(clan) - 1
    if placed >= n:
        raise Refuse(f"{clan} has placed all {n} of its set-aside control tokens (p.4 step 7)", "p.5")
    capitals = all(state.controls(c, state.board.clans[c].capital) for c in state.clans)
    if state.first_player is not None and capitals:
        order = state.turn_order()
        k = sum(state.control_tokens_on_board(c) for c in state.clans) - len(state.clans)
        due = order[k % len(order)]
        if due != clan:
            raise Refuse(
                f"it is {due}'s turn to place a starting control token (first player, then clockwise: "
                f"{', '.join(order)})",
                "p.5",
            )
    control = dict(state.control)
    control[p] = Control(clan)
    return state.with_(
        control=control
    ), f"{clan} places a starting control token facedown in {p} ({placed + 1} of {n}, p.5 step 10)"


def _fact(state: GameState, event: FactEntered | FirstPlayerSet | DeckSet | DiscardEntered) -> tuple[GameState, str]:
    if isinstance(event, FactEntered):
        try:
            return apply_board_fact(state, event.fact), "recorded"
        except NotationError as exc:  # a fact that contradicts the board (one clan per province)
            raise Refuse(exc.problem, "p.6") from None
    if isinstance(event, FirstPlayerSet):
        if event.clan not in state.clans:
            raise Refuse(f"{event.clan} is not playing in this game", "R-23")
        return state.with_(first_player=event.clan), f"{event.clan} holds the first player card"
    if isinstance(event, DeckSet):
        if any(c not in state.clans for c in event.clans):
            raise Refuse("only the clans in play have initiative cards", "R-23")
        return state.with_(initiative=Initiative(frozenset(event.clans), event.neutrals)), "initiative deck recorded"
    clan = event.clan
    inventory = dict(state.inventory) if state.inventory is not None else empty_inventories(state.clans)
    inv = inventory.get(clan, Inventory())
    round_no = event.round if event.round is not None else max(state.round - 1, 1)
    extra = tuple(Discarded(t, round_no) for t in event.tokens)
    counts = {t: 0 for t in event.tokens}
    for d in inv.discard + extra:
        if d.token in counts:
            counts[d.token] += 1
    for t, n in counts.items():
        if t.kind == Kind.BLUFF:
            raise Refuse("a discarded bluff returns to its owner's hand at once (p.8)", "p.8")
        if n > state.board.clans[clan].owned(t):
            raise Refuse(f"{clan.title()} has only {state.board.clans[clan].owned(t)} {t} in all", "R-08")
    inventory[clan] = replace(inv, discard=inv.discard + extra)
    return state.with_(inventory=inventory), f"{', '.join(map(str, event.tokens))} in {clan}'s discard pile"


# --- upkeep (p.7) ---------------------------------------------------------------------------------
def _dragon_return(state: GameState, event: TokenReturned) -> tuple[GameState, str]:
    """R-03: the Dragon draws one extra token, then returns one non-bluff token from hand to its pool."""
    t = table_of(state)
    if event.clan != Clan.DRAGON:
        raise Refuse("only the Dragon draws an extra token and returns one (R-03)", "R-03")
    if t.dragon_returned:
        raise Refuse("the Dragon returns one token per upkeep", "R-03")
    if t.card_step_started or t.placement:
        raise Refuse(
            "the Dragon returns its extra token while drawing, before territory cards are played (p.7 step 2)", "R-03"
        )
    if event.token.kind == Kind.BLUFF:
        raise Refuse("the returned token cannot be the bluff", "R-03")
    require_available(state, event.clan, event.token, "R-08")
    if tracked(state):
        inv = inventory_of(state, event.clan)
        hand = list(inv.hand)
        if event.token in hand:
            hand.remove(event.token)
        state = with_inventory(state, event.clan, replace(inv, hand=tuple(hand)))
    state = state.with_(table=table_of(state).with_pooled(event.clan, event.token, "R-03"))
    return (
        _counted(state, dragon_returned=True),
        f"the Dragon returns {event.token} from its hand to its pool, not the discard pile; out of "
        "reach until the next upkeep's draw (R-03, R-08)",
    )


def has_upkeep_card(state: GameState, clan: Clan) -> bool:
    return any(
        not state.board.territories[t].is_shadowlands and c not in state.cards_played
        for t, c in state.cards_held.get(clan, ())
    )


def _card_step(state: GameState, event: Passed | CardPlayed) -> tuple[GameState, str]:
    """R-21, p.7 step 3: from the first player clockwise, play one card or pass; a player who passed
    may play later, until every player has passed in a row. A player with no upkeep card passes."""
    t = table_of(state)
    if state.round == 1:
        raise Refuse("no territory cards are played in the first round (p.7 step 3)", "R-21")
    if isinstance(event, CardPlayed) and _is_shadowlands(state, event.card):
        raise Refuse("Shadowlands cards are played at the start of your turn in the placement phase (p.11)", "R-21")
    if t.placement:
        raise Refuse("the card step is over: the placement phase has begun (p.7 step 3)", "R-21")
    playing = isinstance(event, CardPlayed)
    clan = event.clan
    if clan not in state.clans:
        raise Refuse(f"{clan} is not playing in this game", "R-21")
    if t.card_step_over:
        if not playing:
            return state, _idle_pass(clan, True)
        raise Refuse("the card step is over: every player passed in a row (p.7 step 3)", "R-21")
    turn, passes = t.card_turn, t.passes_in_row
    if state.first_player is not None:
        taken = _card_turn(state, clan, playing, turn, passes)
        if isinstance(taken, str):
            return state, taken
        turn, passes = taken
    passes = 0 if playing else passes + 1
    state = _counted(state, card_step_started=True, card_turn=turn, passes_in_row=passes)
    if isinstance(event, CardPlayed):
        return play_card(state, event)
    over = _step_over(state)
    return state.with_(table=replace(table_of(state), card_step_over=over)), f"{clan} passes" + (
        "; every player has passed in a row: the upkeep ends (R-21)" if over else ""
    )


def _card_turn(state: GameState, clan: Clan, playing: bool, turn: int, passes: int) -> tuple[int, int] | str:
    """The clan's turn in the card step, clockwise from the first player (the players with nothing to play
    passing): the next turn and the passes in a row; or what an idle pass says (R-21c)."""
    order = state.turn_order()
    n = len(order)
    while passes < n and order[turn % n] != clan and not has_upkeep_card(state, order[turn % n]):
        passes, turn = passes + 1, turn + 1  # nothing to play: that player passes
    if not playing and (passes >= n or order[turn % n] != clan and not has_upkeep_card(state, clan)):
        return _idle_pass(clan, passes >= n)  # R-21c: out of turn, or after the end
    if passes >= n:
        raise Refuse("the card step is over: every player passed in a row (p.7 step 3)", "R-21")
    if order[turn % n] != clan:
        raise Refuse(
            f"it is {order[turn % n]}'s turn to play a territory card or pass (clockwise from the "
            f"first player: {', '.join(order)})",
            "R-21",
        )
    return (turn + 1) % n, passes


def _idle_pass(clan: Clan, over: bool) -> str:
    """R-21c: a pass that changes nothing. A player holding no territory card can only pass, so its
    pass may be written anywhere in the card step or left out; and a pass is never refused because
    the others have already passed."""
    why = (
        "every player holding a card has already passed in a row"
        if over
        else f"{clan} holds no territory card to play, so its pass may be written anywhere in the step or left out"
    )
    return f"{clan} passes: {why}; the pass changes nothing (R-21c)"


def _step_over(state: GameState) -> bool:
    t = table_of(state)
    if state.first_player is None:
        return False
    order = state.turn_order()
    turn, passes = t.card_turn, t.passes_in_row
    while passes < len(order) and not has_upkeep_card(state, order[turn % len(order)]):
        passes, turn = passes + 1, turn + 1
    return passes >= len(order)
