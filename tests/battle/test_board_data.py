"""The board data file: counts pinned, validation reports every problem at once."""

import copy

import pytest

from referee.boarddata import load_board, raw_board
from referee.engine.model.board import BoardDataError, build_board, check_board


def test_counts_match_the_printed_board():
    board = load_board()
    assert len(board.provinces) == 30
    assert len(board.territories) == 11
    assert len(board.land_borders) == 64
    assert len(board.coastal) == 12
    assert sum(p.flowers for p in board.provinces.values()) == 56
    assert sum(1 for p in board.provinces.values() if p.is_capital) == 7


def test_borders_are_symmetric_and_islands_touch_the_mainland_only_by_sea():
    board = load_board()
    for a, ns in board.neighbours.items():
        for b in ns:
            assert a in board.neighbours[b]
    islands = set(board.territories["islands"].provinces)
    for p in islands:
        assert board.neighbours[p] <= islands


def test_seven_clans_own_27_combat_tokens_and_30_control_tokens():
    board = load_board()
    assert len(board.clans) == 7
    for facts in board.clans.values():
        assert sum(n for _, n in facts.pool) == 27  # rulebook p.3
        assert facts.control_tokens == 30
        assert facts.owned(facts.special_token) >= 1


def test_shipped_data_is_clean():
    assert check_board(raw_board()) == []


def test_validation_reports_every_problem_at_once():
    raw = copy.deepcopy(raw_board())
    raw["land_borders"].append(["crab_capital", "atlantis"])  # dangling
    raw["land_borders"].append(["crab_central", "crab_capital"])  # duplicate of an existing border
    raw["provinces"][0]["territory"] = "nowhere"  # unknown territory
    raw["provinces"][1]["aliases"] = [raw["provinces"][2]["id"]]  # alias clashes with an id
    raw["provinces"].append(dict(raw["provinces"][3]))  # duplicate id
    problems = check_board(raw)
    text = "\n".join(problems)
    assert "dangling province 'atlantis'" in text
    assert "listed 2 times" in text
    assert "unknown territory 'nowhere'" in text
    assert "is used by" in text
    assert "duplicate province id" in text
    with pytest.raises(BoardDataError) as exc:
        build_board(raw)
    assert len(exc.value.problems) == len(problems) >= 5
