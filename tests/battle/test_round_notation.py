"""The round notation: canonical output, tolerant input, three distinct errors (PRODUCT.md)."""

import pytest
from hypothesis import given, strategies as st

from referee.boarddata import load_board
from referee.engine import AmbiguousName, Clan, Entry, Kind, NotUnderstood, Token, UnknownName
from referee.engine.notation.round import format_entry, parse_entry, parse_round

BOARD = load_board()

EXAMPLES = [
    "crab: army 3 crab_central > neutral_mainland_inland",
    "crab: navy 3 sea > crane_south",
    "crab: army 2 @ crab_capital + blessing 2",
    "scorpion: shinobi 3 @ lion_capital",
    "scorpion: raid @ lion_capital",
    "crane: diplomacy @ crane_central",
    "lion: bluff @ lion_capital",
    "unicorn: bluff unicorn_southeast > lion_northwest",
]


@pytest.mark.parametrize("line", EXAMPLES)
def test_product_examples_print_back_canonically(line):
    assert format_entry(parse_entry(line, BOARD)) == line


def test_tolerant_input():
    e = parse_entry("  CRAB : Army 2 @ Crab-Capital + Blessing 2 + bless 3 ", BOARD)
    assert e == Entry(Clan.CRAB, Token(Kind.ARMY, 2), "crab_capital", None, (3, 2))
    assert parse_entry("crab: army 3 crab central > neutral mainland inland", BOARD).source == "crab_central"
    assert parse_entry("scor: shin 3 @ lion_cap", BOARD).province == "lion_capital"
    assert parse_entry("crab: army 1 @ crab_3", BOARD).province == "crab_capital"  # alias


def test_not_understood_shows_the_expected_form():
    with pytest.raises(NotUnderstood) as exc:
        parse_entry("crab army 3", BOARD)
    assert "<clan>: <token>" in exc.value.hint


def test_unknown_name_lists_nearest_ids():
    with pytest.raises(UnknownName) as exc:
        parse_entry("crab: army 3 @ crab_centrl", BOARD)
    assert exc.value.suggestions[0] == "crab_central"


def test_ambiguous_name_lists_candidates():
    with pytest.raises(AmbiguousName) as exc:
        parse_entry("crab: army 3 @ crab_c", BOARD)
    assert exc.value.candidates == ["crab_capital", "crab_central"]
    with pytest.raises(AmbiguousName):
        parse_entry("cr: raid @ lion_capital", BOARD)


def test_round_sheet_reports_the_line_number():
    with pytest.raises(UnknownName) as exc:
        parse_round("# round 2\ncrab: army 1 @ crab_capital\n\ncrab: army 1 @ nowhere\n", BOARD)
    assert exc.value.lineno == 4
    assert str(exc.value).startswith("line 4:")


provinces = st.sampled_from(sorted(BOARD.provinces))
tokens = st.one_of(
    st.builds(Token, st.sampled_from([Kind.ARMY, Kind.NAVY, Kind.SHINOBI]), st.integers(1, 6)),
    st.builds(Token, st.sampled_from([Kind.RAID, Kind.DIPLOMACY, Kind.BLUFF])),
)
entries = st.builds(
    Entry,
    st.sampled_from(list(Clan)),
    tokens,
    provinces,
    st.one_of(st.none(), st.just("sea"), provinces),
    st.lists(st.sampled_from([2, 3]), max_size=3).map(lambda b: tuple(sorted(b, reverse=True))),
)


@given(entries)
def test_parse_of_format_is_identity(entry):
    assert parse_entry(format_entry(entry), BOARD) == entry
