"""Two rulings through the commands a moderator types: R-17b's option recorded with the
game by `referee new -o` and applied by `referee round`; R-11a's note in the round report."""

import json

from referee.cli.app import app
from tests.support.entry_point import run_in_process, runner


def invoke(db, *args, input=None, code=0):
    result = runner.invoke(app, [*args, "--db", db], input=input)
    assert result.exit_code == code, result.output
    return result


def play_discarded_attack(db, game, *options):
    """R-17b: the Crab's shugenja takes the only attack on crab_northeast off the board during placement."""
    invoke(db, "new", game, "--clans", "crab,crane", "--partial-setup", *options)
    invoke(db, "setup", game, "-", input="crab: control @ crab_northeast\ncrane: control @ crane_south\n")
    invoke(db, "event", game, "crab: shugenja crane army 3 crane_south > crab_northeast")
    return invoke(db, "round", game, "-", "--yes", "--json", input="crab: army 1 @ crab_capital\n")


def test_r17b_default_no_defense_for_an_attack_a_card_discarded(tmp_path):
    db = str(tmp_path / "g.db")
    report = json.loads(play_discarded_attack(db, "plain").output)["report"]
    header = json.loads(invoke(db, "show", "plain", "--json").output)
    assert header["options"]["defense_on_discarded_attack"] is False  # recorded with the game
    assert "crab_northeast" not in json.dumps(report["defenses"])


def test_r17b_option_recorded_and_counts_the_discarded_attack(tmp_path):
    db = str(tmp_path / "g.db")
    report = json.loads(play_discarded_attack(db, "opt", "-o", "defense_on_discarded_attack=true").output)["report"]
    header = json.loads(invoke(db, "show", "opt", "--json").output)
    assert header["options"]["defense_on_discarded_attack"] is True
    assert [d["province"] for d in report["defenses"] if d["province"] == "crab_northeast"] == ["crab_northeast"]
    assert "R-17b" in json.dumps(report["defenses"])
    board = json.loads(invoke(db, "board", "opt", "--json").output)
    assert board["control"]["crab_northeast"] == ["crab", 1, 1]


def test_r17b_option_bad_value_refused(tmp_path):
    db = str(tmp_path / "g.db")
    result = run_in_process(
        ["new", "g", "--clans", "crab,crane", "-o", "defense_on_discarded_attack=maybe", "--db", db], cwd=tmp_path
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "error: game 'g': rules option defense_on_discarded_attack: 'maybe' is not a valid value: true or false"
    ]


def test_r11a_round_report_says_a_ronin_placed_fewer(tmp_path):
    db = str(tmp_path / "g.db")
    invoke(db, "new", "g", "--clans", "crab,unicorn", "--partial-setup")
    invoke(db, "setup", "g", "-", input="crab: control @ crab_northeast\ncrab: control @ lion_northwest\n")
    # round 1: the Crab takes the Unicorn's capital, its only province: the Unicorn is ronin in round 2
    first = invoke(db, "round", "g", "-", "--yes", input="crab: army 5 lion_northwest > unicorn_capital\n")
    assert "R-11a" not in first.output  # nobody is ronin in round 1
    result = invoke(
        db,
        "round",
        "g",
        "-",
        "--yes",
        input="unicorn: army 3 scorpion_west > crab_northeast\ncrab: army 1 @ crab_capital\n",
    )
    assert (
        "unicorn is ronin and placed 1 token(s), fewer than 5: accepted; the referee cannot tell "
        "whether it could have placed more (R-11a)" in result.output
    )


def test_r11_the_report_says_a_ronin_attacked_across_a_border_it_does_not_hold(tmp_path):
    """Issue 33: an army of a ronin attacking across a land border whose other side it does not hold is legal
    only because the clan is ronin (R-11, rulebook p.11: any land border); the report says so beside the attack,
    as the moderator reads it and in --json, and says nothing of the kind for any other clan's attack."""
    from tests.support.entry_point import referee

    db = str(tmp_path / "g.db")
    for args, stdin in (
        (("new", "g", "--clans", "crab,unicorn", "--partial-setup"), None),
        (("setup", "g", "-"), "crab: control @ crab_northeast\ncrab: control @ lion_northwest\n"),
        (("round", "g", "-", "--yes"), "crab: army 5 lion_northwest > unicorn_capital\n"),  # the Unicorn's only one
    ):
        done = referee(db, *args, stdin=stdin)
        assert done.returncode == 0, done.stderr
        assert "is ronin (R-11)" not in done.stdout  # round 1: nobody is ronin
    sheet = "unicorn: army 3 scorpion_west > crab_northeast\ncrab: army 2 crab_northeast > crab_central\n"
    result = referee(db, "round", "g", "-", "--yes", stdin=sheet)
    assert result.returncode == 0, result.stderr
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if " attacked " in line}
    ronin = "attacked crab_northeast; unicorn is ronin (R-11): any land border  R-14"
    assert lines["unicorn:"].endswith(ronin), lines
    assert lines["crab:"].endswith("attacked crab_central  R-14"), lines
    shown = json.loads(referee(db, "replay", "g", "--json").stdout)
    report = [e["report"] for e in shown["events"] if e["report"] and e["report"]["round"] == 2]
    reasons = [f["reason"] for r in report for f in r["fates"]]
    assert reasons.count("attacked crab_northeast; unicorn is ronin (R-11): any land border") == 1
    assert "attacked crab_central" in reasons
