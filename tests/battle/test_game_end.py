"""The end of a game through the commands: the provisional score (R-28), one scoring path for score and
what-if, the sealed end (GameEnded), and records cut anywhere refused as incomplete."""

import json

import pytest

from referee.log import GOLDEN_GAMES, Store, game_ended, golden
from tests.support.trust_games import GAME, OBJECTIVES, cli, golden_sheet, ok, play_sealed, reveal_all


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.db")


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished game (both objectives sealed at setup and revealed after round 5), and its exports."""
    folder = tmp_path_factory.mktemp("finished")
    db = str(folder / "games.db")
    codes = play_sealed(db)
    reveal_all(db, codes)
    return {
        "db": db,
        "codes": codes,
        "jsonl": ok(db, "export", GAME),
        "text": ok(db, "export", GAME, "-f", "text"),
        "folder": folder,
    }


# --- the provisional score ---------------------------------------------------------------------
def test_score_is_provisional_and_names_no_winner_while_objectives_are_sealed(db):
    """R-28: until every sealed objective is revealed, the score is provisional and names no winner."""
    codes = play_sealed(db)
    out = ok(db, "score", GAME)
    assert "provisional" in out and "2 objectives still sealed" in out
    assert "Winner:" not in out and "no winner is named" in out
    data = json.loads(ok(db, "score", GAME, "--json"))
    assert data["provisional"] is True and data["sealed"] == ["crab", "crane"] and data["winners"] == []
    ok(db, "reveal", GAME, "crab", OBJECTIVES["crab"], codes["crab"])
    data = json.loads(ok(db, "score", GAME, "--json"))
    assert data["provisional"] is True and data["sealed"] == ["crane"] and data["winners"] == []
    ok(db, "reveal", GAME, "crane", OBJECTIVES["crane"], codes["crane"])
    data = json.loads(ok(db, "score", GAME, "--json"))
    assert data["provisional"] is False and data["sealed"] == [] and data["winners"]
    out = ok(db, "score", GAME)
    assert "provisional" not in out and "Winner" in out


def test_score_before_the_fifth_round_is_provisional(db):
    """R-28 / p.10: the game ends after round 5; before that no winner is named."""
    play_sealed(db, rounds=3)
    out = ok(db, "score", GAME)
    assert "provisional" in out and "round 4 of 5 to play" in out and "Winner:" not in out


def test_every_score_shows_the_players_beside_their_clans(db):
    codes = play_sealed(db)
    reveal_all(db, codes)
    out = ok(db, "score", GAME)
    assert "crab (Hida Aiko)" in out and "crane (Doji Kenji)" in out
    data = json.loads(ok(db, "score", GAME, "--json"))
    assert {s["clan"]: s["player"] for s in data["scores"]} == {"crab": "Hida Aiko", "crane": "Doji Kenji"}


def test_an_objective_line_says_why_it_is_met_or_not(db):
    """p.10 / R-24a: Reclaiming the Lost Lands needs both Shadowlands provinces; the line names the one missing."""
    ok(db, "new", GAME, "--clans", "crab,lion")
    ok(
        db,
        "setup",
        GAME,
        "-",
        input="crab: control @ shadowlands_north\ncrab: objective reclaiming_lost_lands\n"
        "lion: objective the_rice_bowl_of_the_empire\nlion: control @ crane_south\n",
    )
    data = json.loads(ok(db, "score", GAME, "--json"))
    lines = {s["clan"]: [x["label"] for x in s["lines"] if x["label"].startswith("objective")] for s in data["scores"]}
    assert lines["crab"] == [
        "objective Reclaiming Lost Lands: not met: controls 1 of the 2 Shadowlands "
        "provinces needed: missing shadowlands_south"
    ]
    assert lines["lion"] == [
        "objective The Rice Bowl of the Empire: not met: controls 1 of the 2 crane provinces "
        "needed (crane_south) and not crane_capital"
    ]


# --- one scoring path ------------------------------------------------------------------------------
def _what_if_is_unchanged(db: str, game: str, rounds: int) -> None:
    events = json.loads(ok(db, "show", game, "--json"))
    assert events["round"] > rounds
    for n in range(1, rounds + 1):
        sheet = f"{db}.r{n}.txt"
        with open(sheet, "w") as f:
            f.write(
                ok(db, "export", game, "-f", "text")
                .split(f"== round {n} (", 1)[1]
                .split("\n", 1)[1]
                .split("\n\n", 1)[0]
                + "\n"
            )
        data = json.loads(ok(db, "what-if", game, str(n), sheet, "--json"))
        a, b = data["as_recorded"], data["what_if"]
        assert a["entries"] == b["entries"], n
        assert a["state"] == b["state"], n
        assert a["final_honor"] == b["final_honor"] and a["final_honor"], n
        text = ok(db, "what-if", game, str(n), sheet)
        assert not any(line.startswith(("  + ", "  - ")) for line in text.splitlines()), text  # no entry changed


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_what_if_with_the_unchanged_sheet_changes_nothing_in_a_bundled_game(tmp_path, name):
    db = str(tmp_path / "g.db")
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(e + "\n" for e in _jsonl(name)))
    ok(db, "import", str(path))
    _what_if_is_unchanged(db, name, 5)
    score = json.loads(ok(db, "score", name, "--json"))
    final = json.loads(ok(db, "what-if", name, "5", str(tmp_path / "g.db.r5.txt"), "--json"))["what_if"]["final_honor"]
    assert final == {s["clan"]: s["total"] for s in score["scores"]}


def test_what_if_with_the_unchanged_sheet_changes_nothing_in_the_cards_game(tmp_path):
    """The test game with cards (tests/battle/games/cards-game.txt), table events in most rounds."""
    from tests.battle.test_game_with_cards_log import _record

    db = str(tmp_path / "cards.db")
    with Store(db) as store:
        events = _record(store)
    assert game_ended(events) is events[-1]  # no objective sealed: round 5 closed the game
    _what_if_is_unchanged(db, "cards", 5)


def _jsonl(name):
    from referee.log import export_jsonl

    return export_jsonl(golden(name)).splitlines()


def test_what_if_with_the_unchanged_sheet_keeps_the_revealed_objectives(finished):
    """The issue's case: after the reveals, what-if with the unchanged sheet dropped the objectives."""
    _what_if_is_unchanged(finished["db"], GAME, 5)
    score = json.loads(ok(finished["db"], "score", GAME, "--json"))
    assert any(x["label"].startswith("objective") for s in score["scores"] for x in s["lines"])


# --- the sealed end ------------------------------------------------------------------------------------
def test_the_last_reveal_closes_the_log_with_the_final_score(finished):
    with Store(finished["db"]) as store:
        events = store.events(GAME)
    end = game_ended(events)
    assert end is events[-1] and end.type == "GameEnded"
    score = json.loads(ok(finished["db"], "score", GAME, "--json"))
    assert end.data["scores"] == {s["clan"]: s["total"] for s in score["scores"]}
    assert end.data["winners"] == score["winners"] and len(end.data["digest"]) == 64
    assert json.loads(finished["jsonl"].splitlines()[-1])["type"] == "GameEnded"
    assert finished["text"].rstrip("\n").splitlines()[-1] == (
        "result: "
        + ", ".join(f"{s['clan']} {s['total']}" for s in score["scores"])
        + f"; winner {' and '.join(score['winners'])} ({score['tiebreak']})"
    )


def test_nothing_but_a_correction_is_recorded_after_the_end(tmp_path, finished):
    db = str(tmp_path / "copy.db")
    path = tmp_path / "g.jsonl"
    path.write_text(finished["jsonl"])
    ok(db, "import", str(path))
    for args, stdin in (
        (("event", GAME, "crab: passes"), None),
        (("round", GAME, "-", "--yes"), "crab: army 1 @ crab_capital\n"),
        (("setup", GAME, "-"), "crab: control @ crane_south\n"),
        (("retract", GAME, "--reason", "typo"), None),
    ):
        refused = cli(db, *args, input=stdin)
        assert refused.exit_code == 1 and "the game has ended" in refused.stderr, (args, refused)
    with Store(db) as store:
        before = len(store.events(GAME))
    again = cli(db, "round", GAME, "-", "--yes", input=golden_sheet(1))  # R-27: round 1's own sheet again
    assert again.exit_code == 0 and "round 1 is already recorded with this same sheet" in again.output
    with Store(db) as store:
        assert len(store.events(GAME)) == before  # nothing recorded
    sheet = tmp_path / "r5.txt"
    sheet.write_text(golden_sheet(5).replace("crab: army 1 @", "crab: army 2 @", 1))
    out = ok(db, "correct", GAME, "5", str(sheet), "--reason", "the judge's ruling")
    assert "seal" in out
    with Store(db) as store:
        events = store.events(GAME)
    assert [e.type for e in events[before:]] == ["EntryCorrected", "GameEnded"]  # closed again at once
    assert game_ended(events) is events[-1]
    assert cli(db, "verify", GAME).exit_code == 0


@pytest.mark.parametrize("fmt", ["jsonl", "text"])
def test_a_finished_game_cut_at_any_line_is_refused_by_verify_and_import(finished, fmt):
    """Issue 10: `head -n 20 g.jsonl` passed verify and import as a shorter game. Cut at every line, in
    both formats, the record is refused (exit 1) and nothing is imported."""
    whole = finished[fmt]
    lines = whole.splitlines(keepends=True)
    folder = finished["folder"]
    db = str(folder / f"cut-{fmt}.db")
    path = folder / f"cut.{fmt}"
    for n in range(len(lines)):
        path.write_text("".join(lines[:n]))
        verified = cli(db, "verify", str(path))
        assert verified.exit_code == 1, (n, verified)
        imported = cli(db, "import", str(path))
        assert imported.exit_code == 1, (n, imported)
    assert "incomplete: ends after round" in cli(db, "verify", str(_cut(folder, lines, fmt))).stderr
    assert json.loads(ok(db, "games", "--json")) == []  # nothing was imported
    path.write_text(whole)
    assert cli(db, "verify", str(path)).exit_code == 0
    assert cli(db, "import", str(path)).exit_code == 0


def _cut(folder, lines, fmt):
    """The record cut just before its last round's section: a whole, shorter game."""
    mark = '"type":"RoundResolved"' if fmt == "jsonl" else "== round 5"
    n = max(i for i, line in enumerate(lines) if mark in line)
    path = folder / f"cut-before-5.{fmt}"
    path.write_text("".join(lines[:n]))
    return path


def test_an_unfinished_game_is_imported_on_purpose(tmp_path, db):
    play_sealed(db, rounds=3)
    path = tmp_path / "g.jsonl"
    path.write_text(ok(db, "export", GAME))
    other = str(tmp_path / "other.db")
    refused = cli(other, "import", str(path))
    assert refused.exit_code == 1 and "incomplete: ends after round 3" in refused.stderr
    out = ok(other, "import", str(path), "--allow-incomplete")
    assert "incomplete: ends after round 3" in out
    assert "in progress: round 4 to play" in ok(other, "verify", GAME)
    assert cli(other, "verify", str(path), "--allow-incomplete").exit_code == 0


def test_verify_confirms_a_players_seal(finished):
    """A player who noted round 3's seal can prove that nothing after it was cut."""
    with Store(finished["db"]) as store:
        events = store.events(GAME)
    round3 = next(e for e in events if e.type == "RoundResolved" and e.data["round"] == 3)
    out = ok(finished["db"], "verify", GAME, "--seal", round3.seal.lower())
    assert f"seal {round3.seal}" in out and "round 3" in out
    refused = cli(finished["db"], "verify", GAME, "--seal", "0000-0000")
    assert refused.exit_code == 1 and "0000-0000" in refused.stderr


def test_games_shows_each_games_state(db):
    ok(db, "new", "fresh", "--clans", "crab,lion")
    codes = play_sealed(db, game="done")
    play_sealed(db, game="sealed")
    play_sealed(db, game="mid", rounds=2)
    reveal_all(db, codes, game="done")
    rows = {r["game"]: r["state"] for r in json.loads(ok(db, "games", "--json"))}
    score = json.loads(ok(db, "score", "done", "--json"))
    winner = next(f"{s['clan']} ({s['player']})" for s in score["scores"] if s["clan"] == score["winners"][0])
    assert rows == {
        "fresh": "setup",
        "mid": "round 3 of play",
        "sealed": "provisional (2 sealed)",
        "done": f"finished: {winner} wins",
    }
    out = ok(db, "games")
    assert "round 3 of play" in out and "finished:" in out


# --- replay shows everything --------------------------------------------------------------------------
def test_replay_shows_every_event_in_order_with_its_time(db, tmp_path):
    """Issue 10: replay hid table events and reveals, and showed a correction as a second unlabelled round."""
    import re

    codes = play_sealed(db, rounds=2)
    as_it_stood = json.loads(ok(db, "board", GAME, "--round", "2", "--json"))
    ok(db, "event", GAME, "board: peace @ lion_capital")
    ok(db, "retract", GAME, "--reason", "mistyped")
    sheet = tmp_path / "r2.txt"
    sheet.write_text(
        golden_sheet(2).replace(
            "crab: army 3 crab_northeast > crane_south + blessing 2", "crab: army 3 crab_northeast > crane_south"
        )
    )
    ok(db, "correct", GAME, "2", str(sheet), "--reason", "no blessing under the crab army")
    for n in range(3, 6):
        ok(db, "round", GAME, "-", "--yes", input=golden_sheet(n))
    reveal_all(db, codes)
    out = ok(db, "replay", GAME)
    heads = [
        line for line in out.splitlines() if " event " in line and re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", line)
    ]
    labels = [h.split(": ", 1)[1].strip(" ─") for h in heads]
    assert labels == [
        "the game's creation",
        "setup facts",
        "setup facts",
        "crab's objective sealed",
        "crane's objective sealed",
        "round 1",
        "round 2",
        "round 3's table events",
        "the retraction of event 8",
        "the correction of round 2",
        "round 3",
        "round 4",
        "round 5",
        "crab's objective revealed",
        "crane's objective revealed",
        "the end of the game",
    ]
    assert "remove the peace token from lion_capital" in out  # what the retraction changed on the board
    data = json.loads(ok(db, "replay", GAME, "--json"))
    assert [e["seq"] for e in data["events"]] == list(range(1, len(heads) + 1)) and all(
        e["recorded_at"] for e in data["events"]
    )
    stood = json.loads(ok(db, "replay", GAME, "--round", "2", "--as-recorded", "--json"))
    assert stood["board"] == as_it_stood  # --as-recorded: the board as it stood after round 2, before the correction
    assert stood["events"][-1]["label"] == "round 2"
    corrected = json.loads(ok(db, "replay", GAME, "--round", "2", "--json"))  # one answer (issue 22): as corrected
    board = json.loads(ok(db, "board", GAME, "--round", "2", "--json"))
    assert corrected["board"] == {k: v for k, v in board.items() if k != "note"} != as_it_stood
    assert corrected["board_note"] == board["note"] and board["note"].startswith("corrected in event 10, reason:")
    assert "Board after round 2" in ok(db, "replay", GAME, "--round", "2")


def test_a_sealed_objective_declared_not_met_ends_the_game(db, tmp_path):
    """R-28: every sealed objective revealed, or declared not met by its player: then the score is final."""
    codes = play_sealed(db)
    ok(db, "reveal", GAME, "crab", OBJECTIVES["crab"], codes["crab"])
    out = ok(db, "reveal", GAME, "crane", "--not-met")
    assert "declares its sealed objective not met" in out
    data = json.loads(ok(db, "score", GAME, "--json"))
    assert data["provisional"] is False and data["winners"]
    crane = next(s for s in data["scores"] if s["clan"] == "crane")
    assert not any(x["label"].startswith("objective") for x in crane["lines"])
    with Store(db) as store:
        assert game_ended(store.events(GAME)) is not None
    path = tmp_path / "g.txt"
    path.write_text(ok(db, "export", GAME, "-f", "text"))
    assert "crane: declares not met" in path.read_text()
    assert cli(db, "verify", str(path)).exit_code == 0
    assert cli(db, "reveal", GAME, "crab", "--not-met").exit_code == 1  # already revealed
    assert cli(db, "reveal", GAME, "crab").exit_code == 2  # neither an objective nor --not-met
