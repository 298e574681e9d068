"""The complete cards game (tests/battle/games/cards-game.txt) played through the commands a moderator types:
`new`, `event`, `seal`, `round` by file, by standard input and at the prompt, the `table` session,
`reveal` and `score`; it ends with the same honor as played through the engine and the log API.

Round 3 holds Animate the Dead (crab places six tokens, the card's one faceup on the board) and
round 2 Dark Favors (unicorn places four): every entry path asks the engine how many tokens each
clan must place (p.7, card:animate_the_dead, card:dark_favors), so each path takes them.
"""

import json
import re
from pathlib import Path

import pytest

from referee.boarddata import load_board
from referee.cli.app import app
from referee.engine import final_score
from referee.engine.notation.round import format_entry
from referee.engine.notation.table_events import format_table_event
from referee.gamefile import play_game, read_game
from tests.support.entry_point import runner

GAME = Path(__file__).parent / "games" / "cards-game.txt"
BOARD = load_board()
RECORD = read_game(GAME.read_text(), BOARD)
PATHS = ("file", "stdin", "prompt", "table")


def run(db, *args, input=None):
    result = runner.invoke(app, [*args, "--db", db], input=input, env={"COLUMNS": "200"})
    assert result.exit_code == 0, f"referee {' '.join(args)}:\n{result.output}"
    return result.output


def objectives() -> dict[str, str]:
    found = {}
    for e in RECORD.setup:
        m = re.fullmatch(r"(\w+): objective (\w+)", format_table_event(e))
        if m:
            found[m.group(1)] = m.group(2)
    return found


def enter_round(db, tmp_path, game, number, path, table, tokens):
    """One round's table events and tokens, the tokens by the given entry path."""
    if table and path != "table":
        run(db, "event", game, *table)  # table events as arguments, one each
    if path == "file":
        sheet = tmp_path / f"round{number}.txt"
        sheet.write_text(f"round: {number}\n" + "".join(t + "\n" for t in tokens))
        out = run(db, "round", game, str(sheet), "--yes")
    elif path == "stdin":
        out = run(db, "round", game, "-", "--round", str(number), "--yes", input="".join(t + "\n" for t in tokens))
    elif path == "prompt":
        out = run(db, "round", game, input="".join(t + "\n" for t in tokens) + "\ny\n")
        assert f"Resolve round {number}?" in out
    else:
        typed = [*table, *tokens, "", "y", "quit"]
        out = run(db, "table", game, input="".join(t + "\n" for t in typed))
        assert f"Resolve round {number}?" in out
    assert re.search(r"seal [0-9A-Z]{4}(-[0-9A-Z]{4}){3}", out), out
    return out


@pytest.mark.parametrize("animate_path", PATHS)
def test_the_cards_game_through_the_commands_ends_with_the_api_honor(tmp_path, animate_path):
    db = str(tmp_path / "cards.db")
    game = "cards"
    run(db, "new", game, "--clans", ",".join(map(str, RECORD.clans)))
    hidden = objectives()
    setup = [format_table_event(e) for e in RECORD.setup]
    run(db, "event", game, input="".join(line + "\n" for line in setup if ": objective " not in line))
    codes = {}
    for clan, objective in hidden.items():  # each player seals its objective unseen (no objective in the log)
        out = run(db, "seal", game, clan, input=objective + "\n")
        codes[clan] = re.search(r"Reveal code: ([0-9A-Z]{5}-[0-9A-Z]{5})", out).group(1)
    # every path plays some round; round 3 (Animate the Dead) takes the parametrized one
    rest = [p for p in PATHS if p != animate_path]
    order = {1: rest[0], 2: rest[1], 3: animate_path, 4: rest[2], 5: "file"}
    for r in RECORD.rounds:
        enter_round(
            db,
            tmp_path,
            game,
            r.number,
            order[r.number],
            [format_table_event(e) for e in r.table],
            [format_entry(e) for e in r.entries],
        )
    shown = json.loads(run(db, "show", game, "--json"))
    assert shown["round"] == 6 and len([s for s in shown["seals"] if s.get("round")]) == 5
    for clan, objective in hidden.items():
        run(db, "reveal", game, clan, objective, codes[clan])
    scored = json.loads(run(db, "score", game, "--json"))
    through_commands = {s["clan"]: s["total"] for s in scored["scores"]}
    through_api = {str(s.clan): s.total for s in final_score(play_game(RECORD, BOARD).state).scores}
    assert through_commands == through_api == {str(c): n for c, n in RECORD.final_honor.items()}
    assert run(db, "verify", game)


def test_animate_the_dead_asks_for_six_crab_tokens(tmp_path):
    """card:animate_the_dead: the card's token is on the board, so the crab places six; five are refused
    with the engine's count by file; at the prompt the missing one is named at the end and then typed."""
    db = str(tmp_path / "six.db")
    game = "six"
    run(db, "new", game, "--clans", ",".join(map(str, RECORD.clans)))
    run(db, "event", game, input="".join(format_table_event(e) + "\n" for e in RECORD.setup))
    for r in RECORD.rounds[:2]:
        enter_round(
            db,
            tmp_path,
            game,
            r.number,
            "file",
            [format_table_event(e) for e in r.table],
            [format_entry(e) for e in r.entries],
        )
    third = RECORD.rounds[2]
    run(db, "event", game, *[format_table_event(e) for e in third.table])
    tokens = [format_entry(e) for e in third.entries]
    five = [t for t in tokens if t != "crab: army 1 @ shadowlands_north"]
    sheet = tmp_path / "five.txt"
    sheet.write_text("".join(t + "\n" for t in five))
    refused = runner.invoke(app, ["round", game, str(sheet), "--yes", "--db", db])
    assert refused.exit_code == 1
    said = refused.stderr
    assert "crab must have exactly 6 token(s) on the board at reveal this round" in said and "animate_the_dead" in said
    assert "at most 5 tokens a round" not in said
    assert json.loads(run(db, "show", game, "--json"))["round"] == 3  # nothing recorded
    typed = [*five, "", "crab: army 1 @ shadowlands_north", "", "y"]  # one short: said at the end, then typed
    result = runner.invoke(
        app, ["round", game, "--db", db], input="".join(t + "\n" for t in typed), env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "crab must have exactly 6 token(s)" in result.output and "type the missing token(s)" in result.output
    assert "✓ crab: army 1 @ shadowlands_north" in result.output and "at most 5" not in result.output
    assert json.loads(run(db, "show", game, "--json"))["round"] == 4
