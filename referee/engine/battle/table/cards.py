"""Territory cards (p.11; R-18, R-21, R-22): the 18 upkeep cards and the 4 Shadowlands cards.

``play_card(state, event) -> (state, note)`` checks the card is held and unplayed, checks its
targets and applies its effect. A played card is gone for the game (p.11).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from ..model.entry import Entry
from ..model.errors import Refuse
from ..model.options import BluffByCard
from ..model.state import GameState, Special, SpecialToken
from ..model.tokens import Clan, Kind, Token
from ..model.tracking import BLUFF
from ..notation.table_parts import CardPlayed, Target, format_target
from ..resolution.inventory import (
    PURGE_NO_PLACEMENT,
    adjust,
    available,
    discard_tokens,
    inventory_of,
    require_available,
    require_discarded,
    table_of,
    tracked,
    with_inventory,
)
from .effects import (
    add_control,
    check_place,
    check_target,
    place_special,
    remove_special,
    require_controls,
    require_distinct,
    require_not_shadowlands,
    take_control_token,
)

SPECIAL_CARDS = {
    "feats_of_engineering": SpecialToken(Special.HARBOR),
    "sacred_ground": SpecialToken(Special.SHRINE),
    "bushido": SpecialToken(Special.BUSHIDO),
    "honorable_fight": SpecialToken(Special.BATTLEFIELD),
    "aid_of_the_kami": SpecialToken(Special.DEFENSE, 2),
    "port_of_prosperity": SpecialToken(Special.HONOR, 2),
    "code_of_honor": SpecialToken(Special.HONOR, 1),
    "ashigaru_levies": SpecialToken(Special.DEFENSE, 1),
}
NOT_SHADOWLANDS = {"code_of_honor", "bushido", "aid_of_the_kami", "ashigaru_levies", "port_of_prosperity"}

Effect = Callable[[GameState, CardPlayed, str], tuple[GameState, str]]  # a card's effect: the state after, a note


def held_card(state: GameState, clan: Clan, card: str) -> tuple[str, str | None]:
    """The (territory, card) the clan holds for this card; refused when it does not hold it."""
    territory = state.board.cards[card].territory
    if card in state.cards_played:
        raise Refuse(f"{card} was already played: a played card is gone for the game (p.11)", "R-18")
    for t, c in state.cards_held.get(clan, ()):
        if t == territory:
            if c not in (None, card):
                raise Refuse(f"{clan} holds the {territory} card {c}, not {card}", "R-18")
            return t, c
    raise Refuse(f"{clan} does not hold the {territory} territory card", "R-18")


def play_card(state: GameState, e: CardPlayed) -> tuple[GameState, str]:
    territory, c = held_card(state, e.clan, e.card)
    ruling = f"card:{e.card}"
    state, text = EFFECTS[e.card](state, e, ruling)
    held = dict(state.cards_held)
    rest = tuple(x for x in held.get(e.clan, ()) if x != (territory, c))
    if rest:
        held[e.clan] = rest
    else:
        held.pop(e.clan, None)
    return state.with_(cards_held=held, cards_played=state.cards_played | {e.card}), f"{e.clan} plays {e.card}: {text}"


# --- upkeep cards ---------------------------------------------------------------------------------
def _specials(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    require_distinct(e.provinces, ruling)
    token = SPECIAL_CARDS[e.card]
    notes = []
    for p in e.provinces:
        if e.card in NOT_SHADOWLANDS:
            require_not_shadowlands(state, p, ruling)
        state, text = place_special(state, p, token, ruling)
        notes.append(text)
    return state, "; ".join(notes)


def _faceup_in_own(n: int) -> Effect:
    def effect(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
        require_distinct(e.provinces, ruling)
        notes = []
        for p in e.provinces:
            require_controls(state, e.clan, p, ruling)
        for p in e.provinces:
            state, text = add_control(state, e.clan, p, faceup=n, ruling=ruling)
            notes.append(text)
        return state, "; ".join(notes)

    return effect


def _second_province(
    state: GameState, e: CardPlayed, due: bool, n: int, when: str, ruling: str
) -> tuple[GameState, str]:
    """Diplomatic Mission (an opponent's province) and Pirate Raids (your own): n faceup tokens elsewhere."""
    others = [p for p in state.provinces_of(e.clan) if p != e.provinces[0]]
    if not due:
        if e.control_at is not None:
            raise Refuse(f"the {n} faceup control tokens come only {when}", ruling)
        return state, ""
    if e.control_at is None:
        if others:
            raise Refuse(
                f"name the province you control that gets {n} faceup control tokens: ', control @ <province>'", ruling
            )
        return state, f"; {e.clan} controls no other province: no control tokens added"
    if e.control_at == e.provinces[0]:
        raise Refuse(f"the {n} faceup control tokens go to a different province", ruling)
    require_controls(state, e.clan, e.control_at, ruling)
    state, text = add_control(state, e.clan, e.control_at, faceup=n, ruling=ruling)
    return state, "; " + text


def _diplomatic_mission(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    p = e.provinces[0]
    owner = state.controller(p)
    state, text = place_special(state, p, SpecialToken(Special.PEACE), ruling)
    due = owner is not None and owner != e.clan
    state, more = _second_province(state, e, due, 2, "when the peace token goes in an opponent's province", ruling)
    return state, text + more


def _pirate_raids(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    p = e.provinces[0]
    mine = state.controls(e.clan, p)
    state, text = place_special(state, p, SpecialToken(Special.SCORCHED), ruling)
    state, more = _second_province(state, e, mine, 3, "when the scorched province was yours", ruling)
    return state, text + more


def _bless_the_lands(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    p = e.provinces[0]
    state, text = remove_special(state, p, Special.SCORCHED, ruling)
    state, more = add_control(state, e.clan, p, faceup=1, facedown=1, ruling=ruling)
    return state, f"{text}; {more}"


def _foment_rebellion(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    p = e.provinces[0]
    state, text = remove_special(state, p, Special.PEACE, ruling)
    if state.controls(e.clan, p):
        state, more = add_control(state, e.clan, p, faceup=2, ruling=ruling)
        return state, f"{text}; {more}"
    return state, text


def _cultural_exchange(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    assert e.swap is not None  # cultural_exchange names both provinces (card_plays)
    mine, theirs = e.swap
    require_controls(state, e.clan, mine, ruling)
    other = state.controller(theirs)
    if other is None or other == e.clan:
        raise Refuse(
            f"{theirs} must be a province an opponent controls; {'nobody' if other is None else e.clan} controls it",
            ruling,
        )
    a, b = state.control[mine], state.control[theirs]
    control = dict(state.control)
    control[mine] = replace(b)
    control[theirs] = replace(a)
    return state.with_(control=control), (
        f"the control tokens of {mine} ({e.clan}: {a.facedown} facedown, {a.faceup} faceup) and "
        f"{theirs} ({other}: {b.facedown} facedown, {b.faceup} faceup) change places"
    )


def _recall(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    """Promotion and Reinforcements: tokens from the discard pile to hand, then tokens given up."""
    if e.card == "promotion":
        if len(e.returned) != 1 or len(e.given_up) != 1:
            raise Refuse("returns one token and gives up one", ruling)
        if e.returned[0].kind not in (Kind.ARMY, Kind.NAVY, Kind.SHINOBI):
            raise Refuse("returns an army, navy or shinobi token", ruling)
    else:
        if any(t.kind != Kind.ARMY for t in e.returned):
            raise Refuse("returns army tokens only", ruling)
        if len(e.given_up) != 2:
            raise Refuse("gives up two tokens, each discarded or put back in the pool", ruling)
        _check_reinforcement_count(state, e, ruling)
    for token, n in Counter(e.returned).items():
        require_discarded(state, e.clan, token, ruling, n)
    inv = inventory_of(state, e.clan)
    for token in e.returned:
        inv = inv.without_discarded(token) if tracked(state) else inv
        inv = replace(inv, hand=inv.hand + (token,))
    state = with_inventory(state, e.clan, inv)
    notes = [f"{', '.join(map(str, e.returned))} from the discard pile to {e.clan}'s hand"]
    given: Counter[Token] = Counter()
    for _how, token in e.given_up:
        given[token] += 1
        require_available(state, e.clan, token, "R-08", extra=given[token] - 1)
    for how, token in e.given_up:
        state, text = _give_up(state, e.clan, how, token, ruling)
        notes.append(text)
    return state, "; ".join(notes)


def _check_reinforcement_count(state: GameState, e: CardPlayed, ruling: str) -> None:
    want = 2
    if state.options.reinforcements_as_many_as_possible:
        if tracked(state):
            armies = sum(n for t, n in inventory_of(state, e.clan).discarded().items() if t.kind == Kind.ARMY)
            if armies == 0:
                raise Refuse(f"{e.clan} has no army token in its discard pile", ruling)
            want = min(2, armies)
        elif len(e.returned) in (1, 2):
            return
    if len(e.returned) != want:
        raise Refuse(f"returns {want} army token(s) from the discard pile (as many as it can, up to two)", ruling)


def _give_up(state: GameState, clan: Clan, how: str, token: Token, ruling: str) -> tuple[GameState, str]:
    if token == BLUFF:
        if how == "pool":
            raise Refuse("the bluff never goes into the pool: it is kept behind the screen (p.4)", ruling)
        return _bluff_out(
            state, clan, f"discarded from hand by {ruling[5:]}"
        ), f"{clan}'s bluff is set aside faceup until the round ends (FAQ, as for Purge the Weak)"
    if how == "pool":
        inv = inventory_of(state, clan)
        hand = list(inv.hand)
        if token in hand:
            hand.remove(token)
        inv = replace(inv, hand=tuple(hand))
        state = state.with_(table=table_of(state).with_pooled(clan, token, ruling))
        return with_inventory(state, clan, inv), f"{token} back to {clan}'s pool until the next upkeep's draw (R-08)"
    return discard_tokens(state, clan, [token], ruling[5:]), f"{token} to {clan}'s discard pile"


def _bluff_out(state: GameState, clan: Clan, why: str) -> GameState:
    t = table_of(state)
    if t.bluff_ban(clan):
        return state
    return state.with_(table=replace(t, bluff_out=t.bluff_out + ((clan, why),)))


def _spy_network(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    other = e.other
    if other == e.clan or other not in state.clans:
        raise Refuse("looks at another player's hand", ruling)
    text = f"{e.clan} looks at {other}'s hand; {other} may not use its bluff this round" + (
        ", not even to defend (R-21b)" if other == Clan.LION else ""
    )
    if e.seen:
        if len(e.seen) != 6:
            raise Refuse(f"a hand holds six tokens after the draw (p.7); {len(e.seen)} named", ruling)
        avail = available(state, other)
        for token, n in Counter(e.seen).items():
            if avail[token] < n:
                require_available(state, other, token, "R-08", extra=n - 1)
        if tracked(state):
            inv = replace(inventory_of(state, other), hand=tuple(sorted(e.seen)), hand_complete=True)
            state = with_inventory(state, other, inv)
        text += f" (seen: {', '.join(map(str, sorted(e.seen)))})"
    return _bluff_out(state, other, "card: spy_network"), text


# --- Shadowlands cards (placement, start of own turn, p.11) ---------------------------------------
def discard_target(
    state: GameState, clan: Clan, target: Target, ruling: str, by: str, *, opponent: bool = False
) -> tuple[GameState, str]:
    """Reveal a targeted token and discard it (shugenja, Dark Favors, Purge the Weak)."""
    check_target(state, clan, target, ruling, opponent=opponent)
    owner, token = target.owner, target.token
    assert token is not None  # every discarding card and ability names the token (need_token in the notation)
    t = table_of(state)
    animated = tuple(
        x for x in t.animated if not (x.clan == owner and x.token == token and (x.province, x.source) == target.place)
    )
    state = state.with_(table=replace(t, animated=animated))
    if token is not None and token != BLUFF:
        taken = Entry(owner, token, target.province, target.source)
        state = state.with_(table=table_of(state).with_taken_off(taken, by))
    if token == BLUFF:
        if state.options.bluff_discarded_by_card == BluffByCard.BACK_TO_HAND:
            return (
                state,
                f"{format_target(target)} is a bluff: back behind {owner}'s screen, and it may be placed again (p.8)",
            )
        state = _bluff_out(state, owner, f"discarded by {by}")
        state = state.with_(table=adjust(table_of(state), owner, -1, f"bluff taken off by {by}"))
        return (
            state,
            f"{format_target(target)} is a bluff: set aside faceup before {owner}'s screen until the "
            f"round ends (FAQ, R-21a): it is not replaced, so {owner} reveals one fewer token this round (R-21e)",
        )
    state = discard_tokens(state, owner, [token], by)
    state = state.with_(table=adjust(table_of(state), owner, -1, f"{token} taken off by {by}"))
    return state, (
        f"reveal {format_target(target)} and discard it to {owner}'s discard pile: it is not replaced, so {owner} "
        "reveals one fewer token this round (R-21e)"
    )


def _dark_favors(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    assert e.cost is not None  # a Shadowlands card names its cost (card_plays)
    state, cost = take_control_token(state, e.clan, e.cost, ruling)
    state, text = discard_target(state, e.clan, e.targets[0], ruling, f"{e.clan}'s dark_favors")
    return state, f"{cost}; {text}"


def _purge_the_weak(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    token = e.hand_discard
    assert token is not None  # purge_the_weak names the token discarded from hand (card_plays)
    require_available(state, e.clan, token, "R-08")
    if token == BLUFF:  # FAQ: the bluff may be the token discarded; it stays out for the round
        state = _bluff_out(state, e.clan, "discarded for purge_the_weak")
        notes = [f"{e.clan} discards its bluff from hand: set aside faceup until the round ends (FAQ)"]
    else:
        state = discard_tokens(state, e.clan, [token], "purge_the_weak")
        notes = [f"{e.clan} discards {token} from hand"]
    state = state.with_(table=adjust(table_of(state), e.clan, -1, PURGE_NO_PLACEMENT))
    for target in e.targets:
        state, text = discard_target(state, e.clan, target, ruling, f"{e.clan}'s purge_the_weak")
        notes.append(text)
    return state, "; ".join(notes)


def _animate_the_dead(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    entry = e.animated
    assert entry is not None  # animate_the_dead names its token (card_plays)
    if entry.token.kind in (Kind.BLUFF, Kind.BLESSING) or entry.blessings:
        raise Refuse(
            "puts one army, navy, shinobi, raid or diplomacy token from the discard pile on the board, alone", ruling
        )
    check_place(state, entry.province, entry.source, ruling)
    require_discarded(state, e.clan, entry.token, ruling)
    assert e.cost is not None  # a Shadowlands card names its cost (card_plays)
    state, cost = take_control_token(state, e.clan, e.cost, ruling)
    if tracked(state):
        state = with_inventory(state, e.clan, inventory_of(state, e.clan).without_discarded(entry.token))
    t = adjust(table_of(state), e.clan, +1, f"{entry.token} put faceup on the board by animate_the_dead")
    state = state.with_(table=replace(t, animated=t.animated + (entry,)))
    return (
        state,
        f"{cost}; {entry} goes faceup on the board from the discard pile, judged at reveal like any "
        f"token (R-09) and counted among {e.clan}'s placements (R-21b); {e.clan} still places a token "
        "from hand this turn",
    )


def _inspire_fear(state: GameState, e: CardPlayed, ruling: str) -> tuple[GameState, str]:
    require_distinct(e.provinces, ruling)
    assert e.cost is not None  # a Shadowlands card names its cost (card_plays)
    state, cost = take_control_token(state, e.clan, e.cost, ruling)
    notes = [cost]
    for p in e.provinces:
        state, text = remove_special(state, p, None, ruling)
        notes.append(text)
    return state, "; ".join(notes)


EFFECTS: dict[str, Effect] = {
    **{card: _specials for card in SPECIAL_CARDS},
    "strength_of_purpose": _faceup_in_own(1),
    "bountiful_harvest": _faceup_in_own(2),
    "diplomatic_mission": _diplomatic_mission,
    "pirate_raids": _pirate_raids,
    "bless_the_lands": _bless_the_lands,
    "foment_rebellion": _foment_rebellion,
    "cultural_exchange": _cultural_exchange,
    "promotion": _recall,
    "reinforcements": _recall,
    "spy_network": _spy_network,
    "dark_favors": _dark_favors,
    "purge_the_weak": _purge_the_weak,
    "animate_the_dead": _animate_the_dead,
    "inspire_fear": _inspire_fear,
}
