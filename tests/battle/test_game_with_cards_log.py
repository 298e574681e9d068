"""A complete five-round game with cards, initiative and token inventory, recorded in the log and
replayed from it to the same final honor (every card, every phase; R-22)."""

import json
from pathlib import Path

from referee.boarddata import load_board
from referee.cli.app import app
from referee.engine import final_score
from referee.engine.notation.round import format_entry
from referee.engine.notation.table_events import format_table_event
from referee.gamefile import play_game, read_game
from referee.log import (
    OpenGame,
    Store,
    export_jsonl,
    export_text,
    import_records,
    new_game,
    replay,
    verify,
)
from tests.support.entry_point import runner

GAME = Path(__file__).parent / "games" / "cards-game.txt"
BOARD = load_board()
RECORD = read_game(GAME.read_text(), BOARD)


def _record(store, game="cards"):
    new_game(store, game, [str(c) for c in RECORD.clans], options=RECORD.options.to_dict())
    OpenGame(store, game).record_table_events([format_table_event(e) for e in RECORD.setup])
    for r in RECORD.rounds:
        if r.table:
            OpenGame(store, game).record_table_events([format_table_event(e) for e in r.table])
        OpenGame(store, game).record_round([format_entry(e) for e in r.entries])
    return store.events(game)


def test_the_cards_game_replays_from_its_log_to_the_same_final_honor(tmp_path):
    with Store(str(tmp_path / "cards.db")) as store:
        events = _record(store)
    assert verify(events) is None
    replayed = {str(s.clan): s.total for s in final_score(replay(events)).scores}
    direct = {str(s.clan): s.total for s in final_score(play_game(RECORD, BOARD).state).scores}
    assert replayed == direct == {str(c): n for c, n in RECORD.final_honor.items()}
    assert sum(e.type == "TableEventsRecorded" for e in events) >= 5


def test_the_cards_game_survives_export_and_import_in_both_formats(tmp_path):
    with Store(str(tmp_path / "a.db")) as store:
        events = _record(store)
    for text in (export_jsonl(events), export_text(events)):
        with Store(str(tmp_path / f"b{len(text)}.db")) as other:
            imported = import_records(other, text)
            assert [e.hash for e in imported] == [e.hash for e in events]  # same chain, same seals


def test_a_refused_card_play_is_one_line_and_records_nothing(tmp_path):
    db = str(tmp_path / "c.db")
    assert runner.invoke(app, ["new", "g", "--clans", "crab,lion", "--partial-setup", "--db", db]).exit_code == 0
    ok = runner.invoke(app, ["event", "g", "setup: tokens", "initiative: crab", "--db", db])
    assert ok.exit_code == 0, ok.output
    before = json.loads(runner.invoke(app, ["show", "g", "--json", "--db", db]).output)["events"]
    refused = runner.invoke(app, ["event", "g", "crab: plays promotion army 5, discard navy 1", "--db", db])
    assert refused.exit_code != 0
    assert json.loads(runner.invoke(app, ["show", "g", "--json", "--db", db]).output)["events"] == before


def test_table_session_takes_table_events_and_tokens(tmp_path):
    db = str(tmp_path / "d.db")
    assert runner.invoke(app, ["new", "g", "--clans", "crab,lion", "--partial-setup", "--db", db]).exit_code == 0
    typed = "\n".join(
        [
            "initiative: lion",
            *[f"{c}: starts @ {p}" for c, p in [("lion", "lion_northwest"), ("crab", "crab_central")]],
            "crab: starts @ crab_northwest",  # out of turn: refused, asked again
            "lion: army 3 lion_northwest > scorpion_north",
            "crab: army 2 @ crab_central",
            "",
            "y",
            "show",
            "quit",
            "",
        ]
    )
    result = runner.invoke(app, ["table", "g", "--db", db], input=typed, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "it is lion's turn to place a starting control token" in result.output
    assert "rounds played: 1 of 5" in result.output
