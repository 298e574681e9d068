"""The table-event notation and the game flow: round trips (hypothesis), the three error kinds,
purity, and a complete five-round game with cards that replays to the same final honor."""

import copy
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from referee.boarddata import load_board
from referee.engine import Clan, Entry, Kind, Token, begin_round, resolve
from referee.engine.model.digest import state_digest, state_to_dict
from referee.engine.model.errors import AmbiguousName, EventRefused, NotUnderstood, UnknownName
from referee.engine.notation.card_plays import PROVINCE_CARDS
from referee.engine.notation.setup import new_state
from referee.engine.notation.table_events import format_table_event, parse_table_event
from referee.engine.notation.table_parts import (
    CardPlayed,
    DeckSet,
    DiscardEntered,
    FirstPlayerSet,
    InitiativeRevealed,
    Passed,
    SetupStep,
    StartingControlPlaced,
    Swapped,
    Target,
    TokenReturned,
    TokenTargeted,
)
from referee.engine.scoring.honor import final_score
from referee.engine.table.apply import apply_table_event
from referee.gamefile import play_game, read_game
from tests.support import manual

BOARD = load_board()
PROVINCES = sorted(BOARD.provinces)
GAME = Path(__file__).parent / "games" / "cards-game.txt"
CLANS = list(Clan)
TOKENS = (
    [Token(Kind.ARMY, s) for s in range(1, 7)]
    + [Token(Kind.NAVY, s) for s in (1, 2, 3)]
    + [Token(Kind.SHINOBI, s) for s in (1, 2, 3)]
    + [Token(Kind.BLESSING, 2), Token(Kind.BLESSING, 3), Token(Kind.RAID), Token(Kind.DIPLOMACY), Token(Kind.BLUFF)]
)
FIGHTERS = [t for t in TOKENS if t.kind in (Kind.ARMY, Kind.NAVY, Kind.SHINOBI, Kind.RAID, Kind.DIPLOMACY)]


@st.composite
def places(draw):
    p = draw(st.sampled_from(PROVINCES))
    where = draw(st.sampled_from(["centre", "border", "sea"]))
    if where == "border":
        return p, draw(st.sampled_from(sorted(BOARD.neighbours[p])))
    return p, ("sea" if where == "sea" else None)


@st.composite
def targets(draw, need_token=False):
    p, source = draw(places())
    token = draw(st.sampled_from(FIGHTERS + [Token(Kind.BLUFF)])) if need_token or draw(st.booleans()) else None
    blessings = tuple(sorted(draw(st.lists(st.sampled_from([2, 3]), max_size=2)), reverse=True))
    return Target(draw(st.sampled_from(CLANS)), token, p, source, blessings)


@st.composite
def card_plays(draw):
    clan = draw(st.sampled_from(CLANS))
    card = draw(st.sampled_from(sorted(BOARD.cards)))
    prov = st.sampled_from(PROVINCES)
    if card in PROVINCE_CARDS:
        return CardPlayed(clan, card, provinces=tuple(draw(prov) for _ in range(PROVINCE_CARDS[card])))
    if card in ("diplomatic_mission", "pirate_raids"):
        return CardPlayed(clan, card, provinces=(draw(prov),), control_at=draw(st.none() | prov))
    if card == "cultural_exchange":
        return CardPlayed(clan, card, swap=(draw(prov), draw(prov)))
    if card in ("promotion", "reinforcements"):
        returned = tuple(draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=2)))
        given = tuple(
            draw(
                st.lists(
                    st.tuples(st.sampled_from(["discard", "pool"]), st.sampled_from(TOKENS)), min_size=1, max_size=2
                )
            )
        )
        return CardPlayed(clan, card, returned=returned, given_up=given)
    if card == "spy_network":
        return CardPlayed(
            clan,
            card,
            other=draw(st.sampled_from(CLANS)),
            seen=tuple(draw(st.lists(st.sampled_from(TOKENS), max_size=6))),
        )
    if card == "inspire_fear":
        return CardPlayed(clan, card, cost=draw(prov), provinces=tuple(draw(st.lists(prov, max_size=2))))
    if card == "dark_favors":
        return CardPlayed(clan, card, cost=draw(prov), targets=(draw(targets(need_token=True)),))
    if card == "purge_the_weak":
        return CardPlayed(
            clan,
            card,
            hand_discard=draw(st.sampled_from(TOKENS)),
            targets=tuple(draw(st.lists(targets(need_token=True), max_size=2))),
        )
    p, source = draw(places())
    return CardPlayed(clan, card, cost=draw(prov), animated=Entry(clan, draw(st.sampled_from(FIGHTERS)), p, source))


events = st.one_of(
    st.builds(SetupStep, st.sampled_from(["capitals", "tokens"])),
    st.builds(FirstPlayerSet, st.sampled_from(CLANS)),
    st.builds(
        lambda cs, n: DeckSet(tuple(sorted(set(cs))), n),
        st.lists(st.sampled_from(CLANS), max_size=4),
        st.integers(0, 3),
    ),
    st.builds(
        DiscardEntered,
        st.sampled_from(CLANS),
        st.lists(st.sampled_from(TOKENS), min_size=1, max_size=4).map(tuple),
        st.none() | st.integers(1, 5),
    ),
    st.builds(StartingControlPlaced, st.sampled_from(CLANS), st.sampled_from(PROVINCES)),
    st.builds(InitiativeRevealed, st.sampled_from([str(c) for c in CLANS] + list(BOARD.neutral_initiative))),
    st.builds(Passed, st.sampled_from(CLANS)),
    st.builds(TokenReturned, st.sampled_from(CLANS), st.sampled_from(TOKENS)),
    st.builds(
        lambda c, v, t: TokenTargeted(c, v, t),
        st.sampled_from(CLANS),
        st.sampled_from(["scout", "first_player", "peek"]),
        targets(),
    ),
    st.builds(lambda c, t: TokenTargeted(c, "shugenja", t), st.sampled_from(CLANS), targets(need_token=True)),
    st.builds(Swapped, st.sampled_from(CLANS), places(), places()),
    card_plays(),
)


@settings(max_examples=400, deadline=None)
@given(events)
def test_table_event_notation_round_trips(event):
    line = format_table_event(event)
    assert parse_table_event(line, BOARD) == event
    assert format_table_event(parse_table_event(line, BOARD)) == line


@pytest.mark.parametrize(
    "loose, canonical",
    [
        ("Crab: PLAYS Promotion army 3 ,  Discard navy 1", "crab: plays promotion army 3, discard navy 1"),
        ("crane: plays code_of @ crane_cen, crab-central", "crane: plays code_of_honor @ crane_central, crab_central"),
        (
            "unicorn: swap unicorn_cap > lion_north with @ unicorn_southe",
            "unicorn: swap unicorn_capital > lion_northwest with @ unicorn_southeast",
        ),
        ("initiative: master of governance", "initiative: master_of_governance"),
        (
            "crab: shugenja lion army 3 @ kyuden_akodo"
            if "kyuden_akodo" in BOARD.names
            else "crab: shugenja lion army 3 @ lion_cap",
            "crab: shugenja lion army 3 @ lion_capital",
        ),
        ("first player: lion", "first_player: lion"),
    ],
)
def test_tolerant_input_canonical_output(loose, canonical):
    assert format_table_event(parse_table_event(loose, BOARD)) == canonical


@pytest.mark.parametrize(
    "line, error",
    [
        ("crab plays promotion", NotUnderstood),
        ("crab: plays promotion", NotUnderstood),
        ("crab: dances", UnknownName),
        ("crab: plays promotoin army 3, discard navy 1", UnknownName),
        ("crab: plays p army 3, discard navy 1", AmbiguousName),
        ("initiative: master", AmbiguousName),
        ("crab: shugenja lion @ lion_capital", NotUnderstood),
        ("crab: scout lion @ lion_kapital", UnknownName),
    ],
)
def test_three_kinds_of_error(line, error):
    with pytest.raises(error):
        parse_table_event(line, BOARD, lineno=3)


def test_refusal_is_one_line_with_round_clan_input_and_card():
    state = new_state(BOARD, (Clan.CRAB, Clan.LION), round=3)
    for line in ("setup: tokens", "crab: control @ crab_capital", "crab: holds promotion"):
        state, _ = apply_table_event(state, parse_table_event(line, BOARD))
    with pytest.raises(EventRefused) as refused:
        apply_table_event(state, parse_table_event("crab: plays promotion army 5, discard navy 1", BOARD))
    assert str(refused.value) == (
        'round 3, crab: "plays promotion army 5, discard navy 1": '
        "Crab's only army 5 is not in its discard pile (card:promotion)"
    )
    assert refused.value.round == 3 and refused.value.clan == "crab" and refused.value.ruling == "card:promotion"


def test_applying_an_event_never_mutates_the_state():
    record = read_game(GAME.read_text(), BOARD)
    state = new_state(BOARD, record.clans)

    def apply(state, event):
        before = copy.deepcopy(state)
        new, note = apply_table_event(state, event)
        assert state == before and note
        return new

    for event in record.setup:
        state = apply(state, event)
    for r in record.rounds:
        state = begin_round(state)
        for event in r.table:
            state = apply(state, event)
        before = copy.deepcopy(state)
        state = begin_round(resolve(state, r.entries)[0])
        assert before.round == r.number


def test_a_game_without_table_events_keeps_its_digest_keys():
    # the rules options and board data version are sealed in the game's first event, not in each digest
    state = new_state(BOARD, (Clan.CRAB, Clan.LION))
    assert set(state_to_dict(state)) == {
        "round",
        "clans",
        "control",
        "special",
        "cards_on_board",
        "cards_held",
        "cards_played",
        "ronin",
        "objectives",
    }


def _final(record):
    played = play_game(record, BOARD)
    return {str(s.clan): s.total for s in final_score(played.state).scores}, state_digest(played.state), played


def test_the_cards_game_replays_to_its_final_honor_twice():
    record = read_game(GAME.read_text(), BOARD)
    first, digest, played = _final(record)
    again, digest_again, _ = _final(read_game(GAME.read_text(), BOARD))
    assert first == {str(c): n for c, n in record.final_honor.items()}
    assert (first, digest) == (again, digest_again)
    assert len(played.reports) == 5 and played.state.round == 6
    assert len(played.state.cards_played) >= 10


def test_the_cards_game_does_not_depend_on_entry_order():
    record = read_game(GAME.read_text(), BOARD)
    want, digest, _ = _final(record)
    rnd = random.Random(7)
    for _ in range(3):
        for r in record.rounds:
            rnd.shuffle(r.entries)
        assert _final(record)[:2] == (want, digest)


def test_every_table_event_example_of_the_manual_parses():
    """docs/notation/table-events.md: every line of its example of each phase's events."""
    block = next(b.body for b in manual.blocks("docs/notation/table-events.md") if "# setup (pp.4-5)" in b.body)
    lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    parsed = [parse_table_event(line, BOARD) for line in lines if line]
    assert len(parsed) >= 14


def test_a_neutral_card_is_revealed_once_and_the_deck_runs_out():
    """R-23: three players hold two neutral cards; each is in the deck once; four reveals empty it."""
    state = new_state(BOARD, (Clan.CRAB, Clan.LION, Clan.UNICORN))
    for line in ("setup: capitals", "initiative: crab"):
        state, _ = apply_table_event(state, parse_table_event(line, BOARD))
    assert state.initiative.neutrals == 2 and state.initiative.clans == {Clan.LION, Clan.UNICORN}
    state = resolve(begin_round(state), [])[0]  # round 1: no reveal
    reveals = ["master_of_tactics", "master_of_tactics", "lion", "rise_of_an_empire", "unicorn"]
    seen = []
    for card in reveals:
        state = begin_round(state)
        try:
            state, _ = apply_table_event(state, parse_table_event(f"initiative: {card}", BOARD))
            seen.append(card)
        except EventRefused as refused:
            assert "already revealed" in refused.problem and card == "master_of_tactics"
            continue
        state = begin_round(resolve(state, [])[0])
    assert seen == ["master_of_tactics", "lion", "rise_of_an_empire", "unicorn"]
    assert state.initiative.size == 0 and state.round == 6
