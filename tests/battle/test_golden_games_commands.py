"""The golden games played end to end through the commands, as a moderator would type them."""

import json

import pytest

from referee.cli.app import app
from referee.cli.games import capital_lines
from referee.log import GOLDEN_GAMES, EventType, golden, score
from tests.support.entry_point import runner


def run(db, *args, input=None):
    result = runner.invoke(app, [*args, "--db", db], input=input)
    assert result.exit_code == 0, f"{args}: {result.output}"
    return result.output


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_golden_game_through_the_commands_scores_as_recorded(name, tmp_path):
    db = str(tmp_path / "t.db")
    events = golden(name)
    header = events[0].data
    options = [x for k, v in header["options"].items() for x in ("--option", f"{k}={v}")]
    players = ",".join(f"{c}={n}" for c, n in header["players"].items())
    run(
        db, "new", "g", "--clans", ",".join(header["clans"]), "--players", players, "--event", header["event"], *options
    )
    capitals = set(capital_lines(header["clans"]))
    rounds = 0
    for e in events[1:]:
        if e.type == EventType.SETUP_RECORDED:
            lines = [x for x in e.data["lines"] if x not in capitals]
            if lines:
                run(db, "setup", "g", "-", input="\n".join(lines) + "\n")
        elif e.type == EventType.ROUND_RESOLVED:
            out = run(db, "round", "g", "-", "--yes", input="\n".join(e.data["entries"]) + "\n")
            assert f"Round {e.data['round']}" in out
            rounds += 1
    assert rounds == 5
    got = json.loads(run(db, "score", "g", "--json"))
    want = score(events)
    assert {s["clan"]: s["total"] for s in got["scores"]} == {str(s.clan): s.total for s in want.scores}
    assert got["winners"] == [str(c) for c in want.winners]
    assert "verified" in run(db, "verify", "g")


def test_demo_plays_a_bundled_game_into_the_database(tmp_path):
    db = str(tmp_path / "demo.db")
    out = run(db, "demo")
    assert out.count("seal ") == 5 and "Final honor" in out and "Winner:" in out
    listed = json.loads(run(db, "games", "--json"))
    assert [g["game"] for g in listed] == ["demo-five-player-1"]
    run(db, "demo")
    assert len(json.loads(run(db, "games", "--json"))) == 2  # a second demo is a new game; nothing overwritten
