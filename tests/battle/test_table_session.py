"""The `referee table` session stays current and forgives typing: before each line it checks the
game's head, and when another moderator wrote it shows what changed and asks again (never a rules
error about stale counts, never the pending tokens recorded as the next round, R-27); `undo` takes
back the last typed token; `quit` and Ctrl-C ask before discarding typed tokens.

The other moderator is a real second process writing between two lines of a running session."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from referee.cli.app import app
from tests.support.crab_lion import begun_db, begun_on_each_backend, round_seals, shown  # noqa: F401  (fixtures)
from tests.support.entry_point import runner

ROOT = Path(__file__).parents[2]
PROMPT = "<prompt>"
ROUND1 = ["lion: army 3 lion_northwest > scorpion_north", "crab: army 2 @ crab_central"]


class Session:
    """`python -m referee table GAME` in a subprocess, typed into line by line."""

    def __init__(self, db: str, game: str = "g"):
        env = {**os.environ, "COLUMNS": "200", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "table", game, "--db", db],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.out = ""
        self.seen = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        while True:
            ch = self.proc.stdout.read(1)
            if not ch:
                return
            self.out += ch

    def wait_for(self, text: str, timeout: float = 60) -> str:
        """Wait until ``text`` (a prompt by default) appears after what was already waited for; return
        the output up to it."""
        pattern = re.compile(re.escape(text) if text != PROMPT else r"\bg r\d> ")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = self.proc.poll() is not None
            found = pattern.search(self.out, self.seen)
            if found:
                part = self.out[self.seen : found.end()]
                self.seen = found.end()
                return part
            if done:
                self._reader.join(5)
                if not pattern.search(self.out, self.seen):
                    break
            time.sleep(0.02)
        raise AssertionError(f"{text!r} never came; output:\n{self.out}")

    def interrupt(self) -> None:
        """Ctrl-C at the prompt: SIGINT once the session is blocked reading its next line. A signal that lands
        between the prompt's flush and the read is only acted on when the read returns (the interpreter runs
        its handler between instructions), so the test waits until the process sleeps in that read."""
        stat = Path(f"/proc/{self.proc.pid}/stat")
        deadline = time.monotonic() + 10
        while stat.exists() and time.monotonic() < deadline:
            if stat.read_text().rsplit(")", 1)[1].split()[0] == "S":  # sleeping: blocked in the read
                break
            time.sleep(0.01)
        time.sleep(0.05)
        self.proc.send_signal(signal.SIGINT)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def type(self, line: str, then: str = PROMPT) -> str:
        self.send(line)
        return self.wait_for(then)

    def resolve_and_quit(self, round_no: int) -> int:
        """The round's tokens typed: an empty line, yes to resolving it, then `quit`; the exit code."""
        self.type("", then=f"Resolve round {round_no}?")
        self.type("y", then=f"g r{round_no + 1}> ")
        self.send("quit")
        return self.close()

    def close(self) -> int:
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        return self.proc.wait(timeout=60)


def test_a_round_recorded_by_another_moderator_meanwhile_is_not_recorded_again(both_db):
    """R-27: session A has typed the round's tokens; B records the same sheet; A's Enter records nothing."""
    db = both_db  # SQLite and PostgreSQL
    a = Session(db)
    a.wait_for("g r1> ")
    assert "✓" in a.type(ROUND1[0]) and "✓" in a.type(ROUND1[1])
    other = runner.invoke(app, ["round", "g", "-", "--yes", "--db", db], input="\n".join(ROUND1) + "\n")
    assert other.exit_code == 0
    [seal] = round_seals(db)
    said = a.type("", then="g r2> ")  # Enter: resolve the round
    assert "another moderator wrote to game 'g'" in said and f"round 1 resolved with 2 tokens (seal {seal})" in said
    assert f"round 1 is already recorded with these same tokens (seal {seal}); nothing recorded" in said
    assert "must have" not in said and "Resolve round" not in said
    a.type("pending")
    a.send("quit")
    assert a.close() == 0
    assert round_seals(db) == [seal] and shown(db)["round"] == 2


def test_other_tokens_recorded_meanwhile_are_shown_and_the_typed_ones_kept_apart(db):
    """Another sheet recorded for round 1 meanwhile: A is told, and its typed tokens are dropped, never
    recorded as round 2 (R-27)."""
    a = Session(db)
    a.wait_for("g r1> ")
    a.type(ROUND1[0])
    other = runner.invoke(
        app,
        ["round", "g", "-", "--yes", "--db", db],
        input="lion: army 1 @ lion_northwest\ncrab: army 1 @ crab_central\n",
    )
    assert other.exit_code == 0
    said = a.type(ROUND1[1], then="g r2> ")  # the next line: the session sees the change first
    assert "another moderator wrote to game 'g'" in said and "round 1 resolved with 2 tokens" in said
    assert "not recorded: your 1 typed token(s) were for round 1" in said and ROUND1[0] in said
    assert "✓ " + ROUND1[1] not in said
    assert "pending tokens: none" in a.type("pending")
    a.type("", then="g r2> ")  # nothing pending: Enter records nothing
    a.send("quit")
    assert a.close() == 0
    assert len(round_seals(db)) == 1 and shown(db)["round"] == 2


def test_table_events_recorded_meanwhile_are_shown_and_the_line_asked_again(both_db):
    """The issue's stale session: B records a table event (a setup fact) while A types tokens; A is shown
    the change, its typed tokens are checked again on the new board, and its line is asked again."""
    db = both_db  # SQLite and PostgreSQL
    a = Session(db)
    a.wait_for("g r1> ")
    a.type("crab: army 2 @ crab_central")
    other = runner.invoke(app, ["event", "g", "crab: control @ crab_northwest", "--db", db])
    assert other.exit_code == 0, other.output
    said = a.type("crab: army 3 crab_northwest > crab_northeast")
    assert "another moderator wrote to game 'g'" in said
    assert "table events: crab: control 1 facedown @ crab_northwest" in said
    assert "type the line again" in said and "✓ crab: army 3" not in said and "error" not in said
    assert "✓ crab: army 3 crab_northwest > crab_northeast" in a.type("crab: army 3 crab_northwest > crab_northeast")
    a.type("lion: army 1 @ lion_northwest")
    assert a.resolve_and_quit(1) == 0
    board = json.loads(runner.invoke(app, ["board", "g", "--json", "--db", db]).output)
    assert board["control"]["crab_northeast"][0] == "crab"  # the attack from the new province stood


def test_undo_takes_back_the_last_typed_token(db):
    typed = [
        "crab: army 2 @ crab_central",
        "crab: army 3 crab_central > crab_northeast",
        "undo",
        "pending",
        "undo",
        "undo",
        "lion: army 1 @ lion_northwest",
        "crab: army 1 @ crab_central",
        "",
        "y",
        "quit",
    ]
    result = runner.invoke(
        app, ["table", "g", "--db", db], input="".join(t + "\n" for t in typed), env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "undone: crab: army 3 crab_central > crab_northeast (nothing had been recorded)" in result.output
    assert "undone: crab: army 2 @ crab_central" in result.output
    assert "nothing to undo" in result.output
    pending = result.output.split("Round 1 as entered:")[1].split("undone")[0]
    assert "crab: army 2 @ crab_central" in pending and "crab_northeast" not in pending
    board = json.loads(runner.invoke(app, ["board", "g", "--json", "--db", db]).output)
    assert "crab_northeast" not in board["control"] and shown(db)["round"] == 2


def test_quit_with_typed_tokens_asks_before_discarding_them(db):
    typed = ["crab: army 2 @ crab_central", "quit", "n", "pending", "quit", "y"]
    result = runner.invoke(
        app, ["table", "g", "--db", db], input="".join(t + "\n" for t in typed), env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("Discard the 1 typed token(s) of round 1? Nothing of them is recorded.") == 2
    assert "Round 1 as entered:" in result.output.split("Discard the 1")[1]  # still there after "n"
    assert "1 typed token(s) discarded" in result.output
    assert shown(db)["round"] == 1


def test_ctrl_c_with_typed_tokens_asks_before_discarding_them(db):
    a = Session(db)
    a.wait_for("g r1> ")
    a.type("crab: army 2 @ crab_central")
    a.interrupt()
    a.wait_for("Discard the 1 typed token(s) of round 1?")
    a.type("n")
    assert "crab: army 2 @ crab_central" in a.type("pending")
    a.type("lion: army 1 @ lion_northwest")
    assert a.resolve_and_quit(1) == 0
    assert shown(db)["round"] == 2


def test_a_round_recorded_between_the_check_and_the_write_is_not_recorded_twice(db, monkeypatch):
    """The narrow race: the head was current when checked, and another moderator recorded the same round
    just before the session's write. The store refuses the write (GameChanged); the session reads the game
    again, says the round is already recorded with its seal, and records nothing (R-27)."""
    from referee.games.battle.service import OpenGame
    from referee.store.storage import Store

    real = Store.append
    raced = []

    def another_moderator_first(self, game, items, after):
        if not raced and items[0][0] == "RoundResolved":
            raced.append(True)
            with Store(db) as other:
                OpenGame(other, "g").record_round(ROUND1)
        return real(self, game, items, after)

    monkeypatch.setattr(Store, "append", another_moderator_first)
    typed = [*ROUND1, "", "y", "pending", "quit"]
    result = runner.invoke(
        app, ["table", "g", "--db", db], input="".join(t + "\n" for t in typed), env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    [seal] = round_seals(db)
    assert f"round 1 resolved with 2 tokens (seal {seal})" in result.output
    assert f"round 1 is already recorded with these same tokens (seal {seal}); nothing recorded" in result.output
    assert "pending tokens: none (round 2)" in result.output
    assert shown(db)["round"] == 2
