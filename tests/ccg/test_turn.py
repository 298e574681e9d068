"""The card game's turn through `referee ccg ...` (in process, under the command's real error boundary, a
temporary HOME and database): each action a line of `referee ccg event` whose rules the referee applies, a
refused one named with its line and rule (exit 1, one line, nothing recorded), the report's values in
`--json`, a match started mid-game, an entry that ends the match, a judge's correction of Honor, the
referee's own rulings, the manual's blocks (docs/l5r-ccg/moderator.md), and matches recorded by the first
rules still verifying and replaying. Each rule test cites the rulebook's lines (l5r-ccg-rulebook.txt) or the
ruling it checks."""

import json
import re
import shlex

import pytest

from tests.support import manual
from tests.support.entry_point import ROOT, referee, run_in_process

ALICE = "alice: honor 10, strength 5, gold 5, clan crab"
BOB = "bob: honor 9, strength 5, gold 5, clan crane"
OLD = ROOT / "tests" / "ccg" / "games"


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    return str(tmp_path / "t.db")


def ok(db, *args):
    result = referee(db, *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result


def refused(db, *args, code=1):
    result = referee(db, *args)
    assert result.returncode == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    if code == 1:
        assert len([ln for ln in result.stderr.splitlines() if ln.startswith("error:")]) == 1, result.stderr
    return result


def state(db, game="m"):
    return json.loads(ok(db, "ccg", "score", game, "--json").stdout)


def new(db, *players, game="m", extra=()):
    return ok(db, "ccg", "new", game, *[a for p in players or (ALICE, BOB) for a in ("--player", p)], *extra)


def test_setup_says_who_goes_first_and_what_is_on_the_table(db):
    """pp.30-40 Going first (lines 489-493), Starting Holdings (494-504), The Hand (575-581), Imperial Favor
    (848-855), CT-02: said, and the same as data."""
    out = new(db, "alice: honor 6, strength 5, gold 5, clan dragon", "bob: honor 7, strength 5, gold 5, clan crab")
    assert "turn 1: bob goes first: the highest starting Family Honor (7 against 6)" in out.stdout
    assert "alice (second) also starts with Bamboo Harvesters in play, bowed" in out.stdout
    shown = json.loads(
        ok(
            db,
            "ccg",
            "new",
            "m2",
            "--player",
            "alice: honor 6, strength 5, gold 5, clan dragon",
            "--player",
            "bob: honor 7, strength 5, gold 5, clan crab",
            "--json",
        ).stdout
    )
    changes = {(c["what"], c["player"], c["subject"]): c["value"] for c in shown["setup"]["changes"]}
    assert changes[("first", "bob", "")].startswith("the highest starting Family Honor")
    assert changes[("holding", "alice", "Border Keep")] == changes[("holding", "bob", "Border Keep")] == "unbowed"
    assert changes[("holding", "alice", "Bamboo Harvesters")] == "bowed"
    assert changes[("holding", "bob", "Bamboo Harvesters")] == "out of the game"
    assert changes[("hand", "alice", "Fate deck")] == changes[("hand", "bob", "Fate deck")] == 6
    assert changes[("favor", "alice", "Imperial Favor")] == "alice" and shown["match"]["favor"] == "alice"


def test_lobby_takes_the_favor_gives_no_honor_and_is_once_a_turn(db):
    """pp.49-66 Lobby (lines 841-847), p.44 Check Conditions (693-695), CT-01: the README's old example
    `honor alice +2: Lobby` was wrong; Lobby's only effect is the Favor."""
    new(db)
    out = json.loads(ok(db, "ccg", "event", "m", "lobby alice Hida Kenji (crab clan, samurai, 2PH)", "--json").stdout)
    line = out["lines"][0]
    assert line["honor"] == [] and out["match"]["favor"] == "alice"
    assert {"what": "favor", "player": "alice", "subject": "Imperial Favor", "value": "alice", "rule": "lobby"} in line[
        "changes"
    ]
    assert {"what": "bowed", "player": "alice", "subject": "Hida Kenji", "value": None, "rule": "lobby"} in line[
        "changes"
    ]
    before = ok(db, "ccg", "replay", "m", "--json").stdout
    bad = refused(
        db, "ccg", "event", "m", "equip alice Katana (item) on Hida Kenji", "lobby alice Hida Ruri (crab clan, 3PH)"
    )
    assert bad.stderr.startswith(
        "error: match 'm', turn 1: line 2 \"lobby alice Hida Ruri (crab clan, 3PH)\": alice already used Lobby "
        "this turn"
    )
    assert "(p.44 When Can I Take an Action?: Check Conditions)" in bad.stderr
    assert ok(db, "ccg", "replay", "m", "--json").stdout == before  # nothing recorded
    typed = refused(db, "ccg", "event", "m", "honor alice +2: Lobby")
    assert "Family Honor is worked out from the actions" in typed.stderr and "(CT-01)" in typed.stderr


def test_the_personal_honor_claim_once_in_ones_own_dynasty_phase(db):
    """pp.49-66 Dynasty Phase (lines 1022-1064), C-05, CT-03: a second claim in one Dynasty Phase, and one in
    the opponent's phase, were accepted before; both refused now."""
    new(db)
    out = json.loads(
        ok(db, "ccg", "event", "m", "bring alice Hida Kenji (crab clan, samurai, 6G, 4HR, 2PH) claim", "--json").stdout
    )
    line = out["lines"][0]
    assert [h["delta"] for h in line["honor"]] == [2] and out["match"]["players"][0]["honor"] == 12
    price = next(c["value"] for c in line["changes"] if c["what"] == "price")
    assert price == {"gold_cost": 6, "clan_discount": 0, "requirement_penalty": 0, "paid": 6}
    assert out["match"]["used"] == [{"ability": "claim", "player": "alice"}]
    second = refused(db, "ccg", "event", "m", "bring alice Hida Ruri (crab clan, 5G, 3PH) claim")
    assert "once per Dynasty Phase (pp.49-66 Dynasty Phase)" in second.stderr
    ok(db, "ccg", "pass", "m")
    theirs = refused(db, "ccg", "event", "m", "phase dynasty", "bring alice Hida Ruri (crab clan, 5G, 3PH) claim")
    assert '"bring alice Hida Ruri (crab clan, 5G, 3PH) claim": alice brings cards into play from his or her' in (
        theirs.stderr
    )
    assert theirs.stderr.rstrip().endswith("(CT-03)")


def test_the_duels_order_is_checked_and_said(db):
    """glossary: duel (lines 1305-1360) and duelist (1362-1369): the issue's impossible record is refused;
    the order, the Duelist's first chance and the card from the hand are said and given as data."""
    new(db)
    bad = refused(db, "ccg", "duel", "m", "alice Kakita Toshimoko (3C) focus 1, 2 vs bob Hida Kisada (2C)")
    assert "bob (the challenged) has the first option to focus or strike" in bad.stderr
    assert "(glossary: duel)" in bad.stderr
    line = "alice Kakita Ryoku (2C, duelist) focus 2, hand 1 vs bob Hida Kisada (3C, dishonorable 3PH) focus 1"
    out = ok(db, "ccg", "duel", "m", f"{line}: loser destroyed")
    assert (
        "alice (the Duelist challenger) has the first option to focus or strike: alice focuses 2; bob focuses 1;"
        in (out.stdout)
    )
    shown = json.loads(ok(db, "ccg", "replay", "m", "--json").stdout)[-1]["lines"][0]
    duel = shown["duel"]
    assert duel["first"] == "alice" and duel["first_because"] == "the Duelist challenger" and duel["struck"] == "bob"
    assert [(s["player"], s["act"]) for s in duel["order"]] == [
        ("alice", "focuses"),
        ("bob", "focuses"),
        ("alice", "focuses from the hand"),
        ("bob", "strikes"),
    ]
    # the dishonorable loser destroyed: his base Personal Honor lost (glossary: dishonor, lines 1263-1266)
    assert [(h["player"], h["delta"]) for h in shown["honor"]] == [("bob", -3)]


def test_a_battle_says_who_bows_and_stays_and_gives_its_destroyed_units_as_data(db):
    """pp.49-66 Resolution Segment (lines 970-1020): destroyed units and their cards, who bows and returns
    home, who stays; C-08: a Force below 0 is 0 (the issue's Hida Kisada (-2F) + Cursed Katana)."""
    new(db)
    out = ok(db, "ccg", "battle", "m", "2: Hida Kisada (-2F) + Cursed Katana + Ashigaru (3F); Hida Yakamo (2F) vs -")
    assert "Hida Kisada's Force: -2 is 0 (no stat goes below 0, C-08)" in out.stdout
    assert "after the battle, the attackers bow and return home: Hida Kisada, Hida Yakamo" in out.stdout
    ok(db, "ccg", "pass", "m")
    out = ok(db, "ccg", "battle", "m", "1: Doji Hoturi (2F) + Ashigaru (1F) vs Hida Sukune (4F)", "--json")
    battle = json.loads(out.stdout)["lines"][0]["battle"]
    assert battle["destroyed"] == {"attacker": [{"personality": "Doji Hoturi", "cards": 2, "dishonorable": None}]}
    assert battle["cards_destroyed"] == {"attacker": 2, "defender": 0}
    assert battle["stay_at_battlefield"] == ["Hida Sukune"] and battle["bow_and_return_home"] == []
    court = {w["title"]: w for w in state(db)["players"][0]["court"]}
    assert court["Hida Sukune"]["where"] == "defending 1" and court["Hida Kisada"]["bowed"] is True


def test_a_dishonorable_attacker_is_rehonored_only_by_a_gain(db):
    """glossary: dishonor (lines 1269-1292): the issue's lone dishonorable attacker who destroys nothing
    stays dishonorable; his later death costs his base Personal Honor."""
    new(db)
    out = ok(db, "ccg", "battle", "m", "2: Hida Kisada (6F, dishonorable 3PH) vs -")
    assert "rehonored" not in out.stdout and "no Honor to gain: Hida Kisada stays dishonorable" in out.stdout
    assert {w["title"]: w for w in state(db)["players"][0]["court"]}["Hida Kisada"]["dishonorable"] is True
    ok(db, "ccg", "pass", "m")
    ok(db, "ccg", "battle", "m", "1: Doji Hoturi (5F) vs Hida Kisada (1F)")
    assert state(db)["players"][0]["honor"] == 7  # 10 - 3


def test_an_entry_that_ends_the_match_records_up_to_its_end(db):
    """CT-13, C-03 (lines 1092-1095): the first pass that wins ends the entry; the later lines are not
    recorded, each refused with the reason; the entry itself is taken (exit 0)."""
    new(db, "alice: honor 10, strength 5, gold 5", "bob: honor 12, strength 5, gold 5", game="m")
    ok(db, "ccg", "event", "m", "action bob Imperial Edict (limited): bob +28")
    out = ok(db, "ccg", "event", "m", "pass", "pass", "pass", "battle 1: A (1F) vs -")
    assert "match over: bob wins: honor victory" in out.stdout
    assert out.stdout.count("not recorded:") == 2 and 'not recorded: "battle 1: A (1F) vs -": the match is over' in (
        out.stdout
    )
    steps = json.loads(ok(db, "ccg", "replay", "m", "--json").stdout)
    assert steps[-1]["data"]["lines"] == ["pass", "pass"]
    assert "verified" in ok(db, "ccg", "verify", "m").stdout
    late = json.loads(ok(db, "ccg", "new", "m2", "--player", ALICE, "--player", BOB, "--json").stdout)
    assert late["match"]["result"] is None
    # the same through --json: the lines not recorded as data
    rich = ALICE.replace("10", "40")
    ok(db, "ccg", "new", "m3", "--turn", "2", "--active", "bob", "--favor", "none", "--player", rich, "--player", BOB)
    shown = json.loads(ok(db, "ccg", "event", "m3", "pass", "pass", "--json").stdout)
    assert shown["not_recorded"] == [{"line": "pass", "reason": shown["not_recorded"][0]["reason"]}]
    assert shown["match"]["result"]["condition"] == {"player": "alice", "honor": 40, "at_least": 40, "turn": 3}


def test_a_draws_condition_is_data(db):
    """C-01, Winning the Game (lines 1088-1090): both players at or below -20 by one effect: a draw, its
    condition given as values."""
    new(db, "alice: honor -18, strength 5, gold 5", "bob: honor -19, strength 5, gold 5")
    ok(db, "ccg", "event", "m", "reveal 1 event Famine: alice -2, bob -2")
    result = state(db)["result"]
    assert result["victory"] == "draw" and result["winner"] is None
    assert result["condition"] == {"losers": ["alice", "bob"], "honor": {"alice": -20, "bob": -21}, "at_or_below": -20}


def test_a_match_started_mid_game(db):
    """CT-10, CT-11: the state as it stands; what is missing is a usage error (exit 2), what cannot be a
    match in progress is refused (exit 1); the once-a-turn uses already made are kept."""
    players = ["--player", "alice: honor 18, strength 5, gold 5, clan crab, provinces 1 3 4", "--player", BOB]
    refused(db, "ccg", "new", "m", "--turn", "6", *players, code=2)  # no --active
    refused(db, "ccg", "new", "m", "--turn", "6", "--active", "alice", *players, code=2)  # no --favor
    refused(db, "ccg", "new", "m", "--active", "alice", *players, code=2)  # mid-game options without --turn
    asked = refused(db, "ccg", "new", "m", "--turn", "6", "--active", "alice", "--favor", "bob", "--phase", "action",
                    *players)  # fmt: skip
    assert "say which once-a-turn abilities were used this turn" in asked.stderr and "--used none" in asked.stderr
    lost = refused(db, "ccg", "new", "m", "--turn", "6", "--active", "alice", "--favor", "none", "--player",
                   "alice: honor -20, strength 5, gold 5", "--player", BOB)  # fmt: skip
    assert "at or below -20 a player has lost" in lost.stderr
    out = ok(db, "ccg", "new", "m", "--turn", "6", "--active", "alice", "--favor", "bob", "--phase", "dynasty",
             "--used", "lobby alice", "--used", "claim alice", "--ring", "alice Ring of Air (air)", "--personality",
             "bob Doji Hayao (crane clan, courtier, 3PH, dishonorable)", *players)  # fmt: skip
    assert "turn 6: alice's dynasty phase; bob went first (CT-10)" in out.stdout
    shown = state(db)
    assert shown["turn"] == 6 and shown["active"] == "alice" and shown["first"] == "bob" and shown["favor"] == "bob"
    assert shown["players"][0]["provinces"] == [1, 3, 4] and shown["players"][0]["rings"][0]["title"] == "Ring of Air"
    assert sorted((u["ability"], u["player"]) for u in shown["used"]) == [("claim", "alice"), ("lobby", "alice")]
    again = refused(db, "ccg", "event", "m", "bring alice Hida Ruri (crab clan, 5G, 3PH) claim")
    assert "once per Dynasty Phase" in again.stderr
    ok(db, "ccg", "event", "m", "action alice Kharmic Strike (reaction) on bob Doji Hayao: destroy bob Doji Hayao")
    assert state(db)["players"][1]["honor"] == 6  # his base 3PH (glossary: dishonor, lines 1263-1266)
    assert "verified" in ok(db, "ccg", "verify", "m").stdout


def test_honor_typed_alone_is_a_correction_with_its_reason(db):
    """CT-01: `referee ccg honor` is a judge's correction: its reason required (exit 2 without), recorded
    marked; typed as a bare line it is refused."""
    new(db)
    refused(db, "ccg", "honor", "m", "alice +2", code=2)
    out = ok(db, "ccg", "honor", "m", "alice +2", "--reason", "a card's effect of turn 1 was not entered")
    assert "honor alice +2 (correction): a card's effect of turn 1 was not entered" in out.stdout
    assert state(db)["players"][0]["honor"] == 12
    assert "unknown player 'carol'" in refused(db, "ccg", "honor", "m", "carol +1", "--reason", "x").stderr


def test_the_referees_own_rulings_and_options(db, tmp_path):
    """CT-xx: `referee ccg rules` prints them; a match records the options it chose (CT-05's)."""

    def rules(*args):
        return run_in_process(["ccg", "rules", *args], env={"HOME": str(tmp_path), "COLUMNS": "200"}, cwd=tmp_path)

    listed = rules().stdout
    assert len(re.findall(r"^CT-\d\d ", listed, re.M)) == 15
    one = rules("ct5").stdout
    assert one.startswith("CT-05 Lobby by the Favor's holder.")
    assert "option lobby_holding_favor: default warn (allowed: warn, refuse)" in one
    assert [r["id"] for r in json.loads(rules("seppuku", "--json").stdout)] == ["CT-01", "CT-08"]
    missing = rules("no-such-words-anywhere")
    assert missing.returncode == 1 and missing.stderr.startswith("error: no card game ruling matches")
    assert "lobby_holding_favor" in refused(db, "ccg", "new", "m", "-p", ALICE, "-p", BOB, "-o", "nope=1").stderr
    new(db, "alice: honor 9, strength 5, gold 5, clan dragon", "bob: honor 7, strength 5, gold 5",
        extra=("-o", "lobby_holding_favor=refuse"))  # fmt: skip
    assert state(db)["options"] == {"lobby_holding_favor": "refuse"}
    bad = refused(db, "ccg", "event", "m", "lobby alice Mirumoto Kei (2PH)")
    assert "alice already controls the Imperial Favor" in bad.stderr and "(CT-05)" in bad.stderr


@pytest.mark.parametrize("name", ["ccg-rules-1-demo", "ccg-rules-1-match"])
def test_matches_recorded_by_the_first_rules_verify_and_replay(db, name):
    """Old records stay readable: a match recorded before the turn's actions had lines verifies (its digests
    over the values they had), imports and replays by its rules (its typed Honor and unordered duel stand),
    and takes new lines."""
    path = OLD / f"{name}.jsonl"
    assert "verified" in ok(db, "ccg", "verify", str(path)).stdout
    game = json.loads(path.read_text().splitlines()[0])["game"]
    ok(db, "ccg", "import", str(path))
    shown = state(db, game)
    assert shown["rules_version"] == 1
    replayed = ok(db, "ccg", "replay", game).stdout
    assert "event 1" in replayed and "Traceback" not in replayed
    if name == "ccg-rules-1-match":
        assert "alice wins the duel" in replayed  # a duel its order would refuse today, recorded before
        assert shown["players"][0]["honor"] == 8 and shown["players"][1]["honor"] == 0
        ok(db, "ccg", "event", game, "honor bob +1: an effect typed as a number, as this match's rules allow")
        assert "verified" in ok(db, "ccg", "verify", game).stdout


def test_every_number_the_report_shows_is_in_its_json(db):
    """Each number a line's report says (its notes) is a value of that line's JSON (or the turn and the Family
    Honor of the match after it, or one the moderator typed in the line): the demo match, every line."""
    ok(db, "ccg", "demo")
    steps = json.loads(ok(db, "ccg", "replay", "ccg-demo-1", "--json").stdout)
    missing = []
    for step in steps:
        values = {step["match"]["turn"], *(p["honor"] for p in step["match"]["players"])}
        for line in step["lines"]:
            typed = {int(n) for n in re.findall(r"-?\d+", line["line"])}
            known = values | typed | _numbers({k: v for k, v in line.items() if k not in ("notes", "line")})
            for note in line["notes"]:
                for n in re.findall(r"(?<![\w-])-?\d+(?![\w])", note):
                    if int(n) not in known:
                        missing.append((line["line"], note, n))
    assert not missing, missing[:10]


def _numbers(value) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_numbers(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_numbers(v) for v in value)) if value else set()
    return set()


def test_the_manuals_refusals_are_refused_as_printed(db):
    """The manual's refused lines (docs/l5r-ccg/moderator.md), each exit 1 with one line naming its rule,
    nothing recorded."""
    commands = manual.commands("docs/l5r-ccg/moderator.md", "What the referee refuses, as the moderator meets it")
    assert len(commands) == 6
    ok(db, *shlex.split(commands[0])[1:])
    for command in commands[1:]:
        out = refused(db, *shlex.split(command)[1:])
        assert re.search(r"\((p\.|pp\.|glossary|C-|CT-)[^)]*\)$", out.stderr.strip()), out.stderr
    assert len(json.loads(ok(db, "ccg", "replay", "refusals", "--json").stdout)) == 1


def test_the_manuals_mid_game_start_runs_as_printed(db):
    commands = manual.commands("docs/l5r-ccg/moderator.md", "A match can also start where the judge finds it")
    outs = [ok(db, *shlex.split(c)[1:]).stdout for c in commands]
    assert "bob: 22 Family Honor" in outs[-1]
