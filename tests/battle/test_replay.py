"""The fold: replay, states, golden transcripts, what-if, corrections, upcasting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from referee.engine import final_score
from referee.engine.model.digest import state_digest
from referee.log import (
    GOLDEN_GAMES,
    EventType,
    Fold,
    LogError,
    OpenGame,
    ReplayError,
    Store,
    corrections,
    events as ev,
    golden,
    new_game,
    recorded_header,
    replay,
    state_after_round,
    states,
    verify,
    what_if,
)
from referee.log.events import EventFormatError, Problem, upcast
from referee.log.records import export_text, parse_text
from referee.log.replay import round_outcome
from tests.support.golden_build import TRANSCRIPTS, transcript


@pytest.fixture
def store(tmp_path):
    with Store(str(tmp_path / "replay.db")) as s:
        yield s


def _replay_live(store: Store, name: str) -> tuple[list, list]:
    """Play a golden game through the store's commands; the live state after every event."""
    events = golden(name)
    h = events[0].data
    game = f"live-{name}"
    live = [None]
    new_game(store, game, h["clans"], **recorded_header(h))
    for e in events[1:]:
        if e.type == EventType.SETUP_RECORDED:
            live.append(OpenGame(store, game).record_setup(e.data["lines"])[1])
        elif e.type == EventType.ROUND_RESOLVED:
            live.append(OpenGame(store, game).record_round(e.data["entries"])[1])
        else:  # GameEnded: recorded by the store with round 5, the game being complete
            live.append(replay(store.events(game)))
    return store.events(game), live


# --- golden games -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_golden_transcript_matches_replay(name, request):
    path = TRANSCRIPTS / f"{name}.txt"
    got = transcript(golden(name))
    if request.config.getoption("--regen-golden"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(got, "utf-8")
    assert path.exists(), f"{path} missing: run pytest --regen-golden"
    assert got == path.read_text("utf-8"), (
        f"{name}: the replay differs from {path.name}; review with --regen-golden + git diff"
    )


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_golden_game_is_complete_and_verifies(name):
    events = golden(name)
    rounds = [e.data["round"] for e in events if e.type == EventType.ROUND_RESOLVED]
    assert rounds == [1, 2, 3, 4, 5]
    assert verify(events) is None
    assert replay(events).round == 6
    assert {2: "two", 4: "four", 5: "five"}[len(events[0].data["clans"])] in name


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_replay_equals_live_state_after_every_event(store, name):
    recorded, live = _replay_live(store, name)
    steps = list(states(recorded))
    assert len(steps) == len(live) == 8  # created, setup, five rounds, the closing GameEnded
    for k, (step, state) in enumerate(zip(steps, live, strict=True)):
        if state is not None:
            assert step.state == state, f"event {k + 1}"
            assert replay(recorded[: k + 1]) == state

    def unsealed(log):  # ids differ; a round recorded now holds its entries in the canonical (sorted) order
        payloads = [ev.hashed_payload(e.type, e.payload) for e in log[1:]]
        return [{**p, "entries": sorted(p["entries"])} if "entries" in p else p for p in payloads]

    assert unsealed(recorded) == unsealed(golden(name))


def test_states_gives_reports_for_rounds_only():
    steps = list(states(golden("four-player")))
    assert [s.report is not None for s in steps] == [False, False, True, True, True, True, True, False]
    assert [s.report.round for s in steps if s.report] == [1, 2, 3, 4, 5]
    assert steps[1].state.round == 1 and steps[2].state.round == 2


def test_state_after_round():
    events = golden("two-player")
    steps = list(states(events))
    assert state_after_round(events, 0) == steps[1].state
    for n in range(1, 6):
        assert state_after_round(events, n) == steps[n + 1].state
    with pytest.raises(ReplayError, match="round 6 has not been resolved"):
        state_after_round(events, 6)


def test_replay_stops_after_the_fifth_round(store):
    events = golden("two-player")
    h = events[0].data
    new_game(store, "over", h["clans"])
    OpenGame(store, "over").record_setup(events[1].data["lines"])
    for e in events[2:7]:
        OpenGame(store, "over").record_round(e.data["entries"])
    with pytest.raises(LogError, match=r"game 'over': the game has ended \(p\.10\)"):  # the one game-over message
        OpenGame(store, "over").record_round(["crab: bluff @ crab_capital"])
    assert [e.type for e in store.events("over")][-2:] == ["RoundResolved", "GameEnded"]  # closed with round 5


def test_a_round_recorded_out_of_turn_is_an_engine_divergence():
    events = golden("two-player")
    bad = ev.chain_all(
        "two-player",
        [(e.type, {**e.payload, "round": 4} if e.seq == 4 else e.payload, e.payload_version) for e in events],
    )
    found = verify(bad)
    assert found.seq == 4 and found.problem == Problem.ENGINE
    assert "round track is at 2" in found.detail


# --- what-if and corrections --------------------------------------------------------------------------
ROUND2_CHANGED = [
    "crab: army 4 unicorn_southwest > unicorn_southeast",
    "crab: army 3 crab_northeast > crane_south",  # the disputed blessing was never there
    "crab: navy 3 sea > islands_north",
    "crab: army 2 @ unicorn_capital",
    "crane: army 4 @ crane_south",
    "crane: army 2 lion_northwest > unicorn_capital",
    "crane: diplomacy @ unicorn_southeast",
    "crane: navy 1 @ islands_north",
    "crane: army 1 dragon_capital > dragon_northwest",
]


def test_what_if_gives_both_outcomes_and_records_nothing():
    events = golden("two-player")
    result = what_if(events, 2, ROUND2_CHANGED)
    assert result.original.lines == tuple(events[3].data["entries"])
    assert result.original.report.battle_at("crane_south").winner == "crab"
    assert result.changed.report.battle_at("crane_south").winner is None  # 3 against 4: the crane holds
    assert state_digest(result.original.state) == events[3].data["digest"]
    assert result.changed.state.controller("crane_south") == "crane"
    assert result.original.final == replay(events)
    assert result.changed.final is not None and result.changed.final != result.original.final
    assert verify(events) is None and len(events) == 8


def test_correction_is_appended_and_replay_uses_it(store):
    events = golden("two-player")
    store.import_logs([events])
    before = replay(events)
    recorded, correction = OpenGame(store, "two-player").correct(
        2, ROUND2_CHANGED, "judge: no blessing under the crab army"
    )
    log = store.events("two-player")
    assert [e.type for e in log][-2:] == [EventType.ENTRY_CORRECTED, EventType.GAME_ENDED] and recorded.seq == 9
    assert log[:8] == events  # nothing overwritten; the corrected game is closed again
    assert sorted(int(r) for r in recorded.data["digests"]) == [2, 3, 4, 5]
    assert verify(log) is None
    after = replay(log)
    assert after != before
    assert state_after_round(log, 2).controller("crane_south") == "crane"
    assert state_after_round(log, 1) == state_after_round(events, 1)
    found = corrections(log)
    assert len(found) == 1 and found[0].reason == "judge: no blessing under the crab army"
    assert found[0].original.report.battle_at("crane_south").winner == "crab"
    assert found[0].corrected.report.battle_at("crane_south").winner is None
    assert correction.corrected.lines == found[0].corrected.lines


def test_rounds_after_a_correction_build_on_it(store):
    events = golden("two-player")
    store.import_logs([events[:4]])  # created, setup, rounds 1-2
    OpenGame(store, "two-player").correct(2, ROUND2_CHANGED, "ruling")
    _, state, report = OpenGame(store, "two-player").record_round(events[4].data["entries"])
    assert report.round == 3
    log = store.events("two-player")
    assert verify(log) is None and replay(log) == state


def test_a_correction_needs_a_reason_and_a_resolved_round(store):
    store.import_logs([golden("two-player")[:3]])
    with pytest.raises(Exception, match="needs a reason"):
        OpenGame(store, "two-player").correct(1, ROUND2_CHANGED, "  ")
    with pytest.raises(ReplayError, match="round 2 has not been resolved"):
        OpenGame(store, "two-player").correct(2, ROUND2_CHANGED, "why")
    assert len(store.events("two-player")) == 3


def test_an_edited_correction_digest_is_caught(store):
    events = golden("two-player")
    store.import_logs([events])
    OpenGame(store, "two-player").correct(2, ROUND2_CHANGED, "ruling")
    log = store.events("two-player")
    payload = {**log[-2].payload, "digests": {**log[-2].payload["digests"], "4": "0" * 64}}
    forged = log[:-2] + [ev.chain("two-player", log[-3], EventType.ENTRY_CORRECTED, payload)]
    found = verify(forged)
    assert found.seq == 9 and found.problem == Problem.ENGINE and "round 4" in found.detail


# --- upcasting ------------------------------------------------------------------------------------------
V0_CREATED = {
    "game": "old-game",
    "clans": ["crab", "crane"],
    "players": [["crab", "Aiko"], ["crane", "Kenji"]],
    "rules": {"crab_faceup_bonus": 1},
    "engine": 0,
    "table": 7,
}


def test_v0_game_created_is_upcast_on_read():
    data = upcast("GameCreated", 0, V0_CREATED)
    assert data["players"] == {"crab": "Aiko", "crane": "Kenji"}
    assert data["options"] == {"crab_faceup_bonus": 1}
    assert data["engine_version"] == "0" and data["table"] == "7" and data["event"] == ""
    assert V0_CREATED["players"] == [["crab", "Aiko"], ["crane", "Kenji"]]  # input untouched


def test_a_log_with_a_v0_header_replays_and_verifies():
    recorded = golden("two-player")
    first = ev.chain("old-game", None, "GameCreated", V0_CREATED, version=0)
    second = ev.chain("old-game", first, EventType.SETUP_RECORDED, recorded[1].payload)
    fold = Fold.of([first, second])
    assert fold.state.options.crab_faceup_bonus == 1
    lines, state, _ = round_outcome(fold, recorded[2].data["entries"])
    third = ev.chain("old-game", second, EventType.ROUND_RESOLVED, ev.round_resolved(1, lines, state_digest(state)))
    log = [first, second, third]
    assert first.payload_version == 0 and first.payload == V0_CREATED and first.computed_hash() == first.hash
    assert verify(log) is None
    assert replay(log) == state
    edited = [ev.chain("old-game", None, "GameCreated", {**V0_CREATED, "rules": {}}, version=0), second, third]
    assert verify(edited).problem == Problem.BROKEN_CHAIN  # the hash covers the v0 payload as stored


def test_upcasting_refuses_what_it_cannot_read():
    with pytest.raises(EventFormatError, match="newer than this referee"):
        upcast("GameCreated", 2, {})
    with pytest.raises(EventFormatError, match="no upcaster for RoundResolved payload version 0"):
        upcast("RoundResolved", 0, {})
    with pytest.raises(EventFormatError, match="cannot be upcast"):
        upcast("GameCreated", 0, {"clans": []})
    with pytest.raises(EventFormatError, match="field 'round' must be int"):
        upcast("RoundResolved", 1, {"round": "1", "entries": [], "digest": "", "seal": ""})


# --- properties -----------------------------------------------------------------------------------------
NAMES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


@settings(max_examples=40, deadline=None)
@given(event=NAMES, table=NAMES, date=NAMES, crab=NAMES, crane=NAMES, reason=NAMES.filter(str.strip))
def test_game_record_round_trips_any_header(event, table, date, crab, crane, reason):
    events = golden("two-player")[:3]
    created = {
        **events[0].payload,
        "event": event,
        "table": table,
        "date": date,
        "players": {"crab": crab, "crane": crane},
    }
    log = ev.chain_all(
        "two-player", [(EventType.GAME_CREATED, created, 1)] + [(e.type, e.payload, 1) for e in events[1:]]
    )
    fold = Fold.of(log)
    rerun = fold.rerun(1, tuple(sorted(events[2].data["entries"][:2])))  # the canonical order (v2)
    log.append(
        ev.chain(
            "two-player",
            log[-1],
            EventType.ENTRY_CORRECTED,
            ev.entry_corrected(1, rerun[0].lines, reason, {1: state_digest(rerun[0].after)}),
        )
    )
    text = export_text(log)
    back, _ = parse_text(text)
    assert [e.hash for e in back] == [e.hash for e in log]
    assert export_text(back) == text


def test_final_score_of_the_golden_games_is_stable():
    winners = {name: final_score(replay(golden(name))).winners for name in GOLDEN_GAMES}
    assert winners == {"two-player": ("crane",), "four-player": ("scorpion",), "five-player": ("unicorn",)}
