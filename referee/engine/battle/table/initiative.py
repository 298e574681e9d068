"""Initiative and first player (rulebook pp.4-5 setup steps 8-9, p.7 upkeep step 1; R-23).

    initiative: <clan>                 the setup draw (clan cards only), or an upkeep reveal
    initiative: <neutral card>         an upkeep reveal from round 2 (never at setup)

The deck is recorded as it happened: the referee never shuffles or draws. It checks that the
revealed card can be in the deck, and computes the new first player.
"""

from __future__ import annotations

from ..model.errors import Refuse
from ..model.state import GameState
from ..model.tokens import ROUNDS, Clan
from ..model.tracking import INITIATIVE_DECK, Initiative

NEUTRAL_WHAT = {
    "master_of_governance": "most provinces controlled",
    "master_of_tactics": "most control tokens on the board, faceup and facedown",
    "rise_of_an_empire": "most territory cards held",
}


def neutral_cards(state: GameState) -> tuple[str, ...]:
    return state.board.neutral_initiative or tuple(NEUTRAL_WHAT)


def deck_after_setup_draw(state: GameState, first: Clan) -> Initiative:
    """Setup step 9 (p.5): the other clans' cards, then neutral cards until the deck holds four
    (none with five players). The neutral cards' identities stay unknown until revealed."""
    others = frozenset(c for c in state.clans if c != first)
    neutrals = max(0, INITIATIVE_DECK - len(others))
    return Initiative(clans=others, neutrals=min(neutrals, len(neutral_cards(state))), revealed=(str(first),))


def setup_draw(state: GameState, card: str) -> tuple[GameState, str]:
    """Setup step 8 (p.5): the first player is drawn from the clan cards of the clans in play."""
    if state.initiative is not None or state.first_player is not None:
        raise Refuse("the first player was already drawn at setup", "R-23")
    if card in neutral_cards(state):
        raise Refuse(
            "the setup draw is made from the clan cards of the clans in play only; neutral cards join "
            "the deck after it (p.5 steps 8-9)",
            "R-23",
        )
    clan = Clan(card)
    if clan not in state.clans:
        raise Refuse(
            f"{clan} is not playing: only the clans in play have initiative cards in the setup draw (p.5)", "R-23"
        )
    deck = deck_after_setup_draw(state, clan)
    fp = "" if len(state.clans) > 2 else "; two players: the first player card is not used (p.7)"
    note = (
        f"{clan} is the first player for round 1 and takes the first player card{fp}; the initiative deck holds "
        f"{len(deck.clans)} clan card(s) and {deck.neutrals} neutral card(s) (p.5)"
    )
    return state.with_(first_player=clan, initiative=deck), note


def reveal(state: GameState, card: str) -> tuple[GameState, str]:
    """Upkeep step 1 (p.7), rounds 2 to 5: reveal the top card; its clan, or the neutral card's
    leader (ties: R-23), is the new first player."""
    if state.round < 2 or state.round > ROUNDS:
        raise Refuse(f"the initiative deck is revealed in the upkeep of rounds 2 to {ROUNDS} only (p.7)", "R-23")
    deck = state.initiative
    if deck is not None and deck.size == 0:
        raise Refuse("the initiative deck is empty", "R-23")
    if card in neutral_cards(state):
        if deck is not None and (deck.neutrals == 0 or card in deck.revealed):
            seen = " (already revealed)" if card in deck.revealed else ""
            raise Refuse(f"{card} is not in the initiative deck{seen}: it holds {describe(deck)}", "R-23")
        clan, why = neutral_leader(state, card)
        if deck is not None:
            deck = Initiative(deck.clans, deck.neutrals - 1, deck.revealed + (card,))
    else:
        clan = Clan(card)
        if clan not in state.clans:
            raise Refuse(f"{clan} is not playing: its initiative card is not in the deck", "R-23")
        if deck is not None and clan not in deck.clans:
            where = (
                "was drawn at setup and went back to the box" if deck.revealed[:1] == (card,) else "is not in the deck"
            )
            raise Refuse(f"the {clan} initiative card {where}: the deck holds {describe(deck)}", "R-23")
        why = f"the {clan} card names {clan}"
        if deck is not None:
            deck = Initiative(deck.clans - {clan}, deck.neutrals, deck.revealed + (card,))
    fp = "" if len(state.clans) > 2 else " (two players: no first player card, p.7)"
    order = ", ".join(map(str, state.with_(first_player=clan).turn_order()))
    note = f"{clan} is the first player for round {state.round}{fp}: {why}; turn order {order} (R-23)"
    return state.with_(first_player=clan, initiative=deck), note


def describe(deck: Initiative) -> str:
    parts = sorted(map(str, deck.clans)) + (
        ["a neutral card"] if deck.neutrals == 1 else [f"{deck.neutrals} neutral cards"] if deck.neutrals else []
    )
    return ", ".join(parts) if parts else "nothing"


def neutral_counts(state: GameState, card: str) -> dict[Clan, int]:
    if card == "master_of_governance":
        return {c: len(state.provinces_of(c)) for c in state.clans}
    if card == "master_of_tactics":
        return {c: state.control_tokens_on_board(c) for c in state.clans}
    if card == "rise_of_an_empire":
        return {c: len(state.cards_held.get(c, ())) for c in state.clans}
    raise ValueError(card)


def neutral_leader(state: GameState, card: str) -> tuple[Clan, str]:
    """The clan a neutral card names; a tie goes to the tied player closest to the right of the
    current first player, searching counter-clockwise (R-23). The current first player, if tied,
    comes last (default) or first (option ``initiative_tie_current_first``)."""
    counts = neutral_counts(state, card)
    best = max(counts.values())
    tied = [c for c in state.clans if counts[c] == best]
    what = NEUTRAL_WHAT[card]
    if len(tied) == 1:
        return tied[0], f"{card}: {tied[0]} has the {what} ({best})"
    current = state.first_player
    if current is None:
        raise Refuse(
            f"{card}: {', '.join(map(str, tied))} tie with {best}, and the current first player is not "
            "recorded (enter the setup draw)",
            "R-23",
        )
    n = len(state.clans)
    i = state.clans.index(current)
    search = [state.clans[(i - k) % n] for k in range(1, n + 1)]  # to the right: counter-clockwise
    if state.options.initiative_tie_current_first:
        search = [current] + search[:-1]
    winner = next(c for c in search if c in tied)
    rule = ""
    if current in tied:
        rule = (
            " (a tied current first player keeps it, option initiative_tie_current_first, R-23a)"
            if state.options.initiative_tie_current_first
            else " (the search starts to its right, so a tied current first player comes last, R-23a)"
        )
    return winner, (
        f"{card}: {', '.join(map(str, tied))} tie with the {what} ({best}); {winner} is the tied player "
        f"closest to the right of the current first player {current}{rule}"
    )
