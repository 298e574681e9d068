"""Export and import: JSON Lines and the plain-text game record, lossless and refused whole when damaged."""

from __future__ import annotations

from importlib import resources

import pytest

from referee.log import (
    GOLDEN_GAMES,
    GameExists,
    OpenGame,
    RecordError,
    Store,
    export_jsonl,
    export_text,
    golden,
    import_records,
    parse_jsonl,
    parse_records,
    parse_text,
    relabel,
    verify,
)
from referee.log.events import stored_seal
from tests.battle.test_replay import ROUND2_CHANGED


def _data(name: str) -> str:
    return resources.files("referee").joinpath(f"data/games/{name}").read_text("utf-8")


@pytest.fixture
def stores(tmp_path):
    with Store(str(tmp_path / "a.db")) as a, Store(str(tmp_path / "b.db")) as b:
        yield a, b


# --- lossless round trips ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", GOLDEN_GAMES)
@pytest.mark.parametrize("export", [export_jsonl, export_text], ids=["jsonl", "text"])
def test_export_import_export_gives_identical_bytes(stores, name, export):
    a, b = stores
    import_records(a, _data(f"{name}.jsonl"))
    first = export(a.events(name))
    import_records(b, first)
    second = export(b.events(name))
    assert second.encode() == first.encode()
    assert [e.hash for e in b.events(name)] == [e.hash for e in a.events(name)]


def test_a_corrected_game_round_trips_through_both_formats(stores):
    a, b = stores
    import_records(a, _data("two-player.jsonl"))
    OpenGame(a, "two-player").correct(2, ROUND2_CHANGED, 'judge "Ito": no blessing\nunder the army')
    for export in (export_jsonl, export_text):
        text = export(a.events("two-player"))
        events, _ = parse_records(text)
        assert [e.hash for e in events] == [e.hash for e in a.events("two-player")]
        assert export(events) == text
    import_records(b, export_text(a.events("two-player")))
    assert b.events("two-player")[-2].data["reason"] == 'judge "Ito": no blessing\nunder the army'


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_the_bundled_record_and_log_agree(name):
    log = golden(name)
    from_record, lines = parse_text(_data(f"{name}.txt"))
    assert [e.hash for e in from_record] == [e.hash for e in log]
    assert export_jsonl(log) == _data(f"{name}.jsonl")
    assert export_text(log) == _data(f"{name}.txt")
    assert lines[0] == 1 and lines[1] == 11  # each event points at its header or section line


def test_the_record_reads_like_pgn():
    text = _data("five-player.txt")
    for header in ("[Event ", "[Date ", "[Table ", "[Players ", "[Clans ", "[Options "):
        assert text.count(header) == 1, header
    assert "== round 3 (seal " in text and "crab: army 5 crab_central > neutral_mainland_inland + blessing 2" in text


# --- damaged files are refused whole ------------------------------------------------------------------
def _replace_line(text: str, n: int, new: str) -> str:
    lines = text.splitlines()
    lines[n - 1] = new
    return "\n".join(lines) + "\n"


def _record_line(text: str, starts: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(starts))


JSONL = _data("four-player.jsonl")
RECORD = _data("four-player.txt")
R3 = _record_line(RECORD, "== round 3")
DAMAGED = {
    "not json": (_replace_line(JSONL, 2, '{"game": "four-player", '), 2, "not a JSON object"),
    "missing field": (_replace_line(JSONL, 3, '{"game": "four-player", "seq": 3}'), 3, "field 'type' must be str"),
    "unknown format": ("hello\n", 1, "neither a JSON Lines log nor a game record"),
    "empty": ("\n\n", 1, "neither"),
    "unknown province": (_replace_line(RECORD, R3 + 2, "dragon: army 2 @ dragon_middle"), R3 + 2, "unknown province"),
    "entry changed": (
        _replace_line(RECORD, R3 + 1, "dragon: army 1 dragon_capital > phoenix_capital + blessing 2"),
        R3,
        "round 3: the record's seal",
    ),
    "seal changed": (_replace_line(RECORD, R3, "== round 3 (seal 0000-0000)"), R3, "seal 0000-0000"),
    "header changed": (RECORD.replace('[Table "2"]', '[Table "7"]'), 11, "setup: the record's seal"),
    "no game header": (RECORD.replace('[Game "four-player"]\n', ""), 1, "missing header(s) [Game]"),
    "round skipped": (RECORD.replace("== round 3", "== round 4", 1), R3, "round 4 found where round 3 comes next"),
    "not a header": (RECORD.replace('[Table "2"]', "[Table 2]"), 4, "not a header"),
    "correction without reason": (
        RECORD + "\n== correction of round 2\ndragon: army 1 @ dragon_capital\n",
        RECORD.count("\n") + 2,
        "starts with its reason",
    ),
}


@pytest.mark.parametrize("case", DAMAGED)
def test_a_damaged_file_is_refused_with_line_and_reason(tmp_path, case):
    text, line, says = DAMAGED[case]
    with Store(str(tmp_path / "import.db")) as s:
        with pytest.raises(RecordError) as info:
            import_records(s, text)
        assert info.value.lineno == line, str(info.value)
        assert says in str(info.value)
        assert str(info.value).startswith(f"line {line}: ")
        assert s.games() == [] and not s.exists("four-player")


def test_importing_a_game_that_exists_changes_nothing(stores):
    a, _ = stores
    import_records(a, JSONL)
    before = a.events("four-player")
    with pytest.raises(GameExists):
        import_records(a, RECORD)
    assert a.events("four-player") == before and len(a.games()) == 1


def test_parse_jsonl_keeps_line_numbers_across_blank_lines():
    events, lines = parse_jsonl("\n" + JSONL.replace("\n", "\n\n", 1))
    assert lines[:3] == [2, 4, 5] and len(events) == 8


# --- copies under another id --------------------------------------------------------------------------
def test_relabel_makes_a_new_verifying_chain():
    log = golden("two-player")
    copy = relabel(log, "copy-1")
    assert verify(copy) is None
    assert copy[0].data["game"] == "copy-1" and all(e.game == "copy-1" for e in copy)
    assert [e.seal for e in copy] != [e.seal for e in log]
    assert [e.payload.get("digest") for e in copy] == [e.payload.get("digest") for e in log]
    assert copy[2].payload["seal"] == stored_seal(copy[2].type, copy[2].payload_version, copy[2].hash)  # v1: 32 bits
