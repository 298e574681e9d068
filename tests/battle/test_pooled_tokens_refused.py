"""R-08 (amended): a token sent back to its pool this round is refused at entry through `referee round`,
the refusal naming what pooled it; exit 1, one line on stderr, nothing recorded."""

import json
from pathlib import Path

from referee.cli.app import app
from tests.support.entry_point import run_in_process, runner

ROOT = Path(__file__).parents[2]

DRAGON_ROUND = """\
dragon: army 5 @ dragon_south
dragon: army 1 @ dragon_capital
dragon: army 2 @ dragon_capital
dragon: army 3 @ dragon_south
dragon: bluff @ dragon_capital
lion: army 1 @ lion_capital
lion: army 2 @ lion_capital
lion: army 3 @ lion_capital
lion: army 4 @ lion_capital
lion: bluff @ lion_capital
"""


def invoke(db, *args, input=None):
    result = runner.invoke(app, [*args, "--db", db], input=input)
    assert result.exit_code == 0, result.output
    return result


def cli(db, *args, stdin=None):
    return run_in_process([*args, "--db", db], stdin=stdin, cwd=ROOT)


def events(db, game):
    return json.loads(invoke(db, "show", game, "--json").output)["events"]


def test_dragon_return_then_entered_is_refused_through_round(tmp_path):
    """R-03 then R-08: the Dragon's only army 5 went back to its pool at the draw."""
    db = str(tmp_path / "g.db")
    invoke(db, "new", "g", "--clans", "dragon,lion", "--partial-setup")
    invoke(db, "setup", "g", "-", input="dragon: control @ dragon_south\nlion: control @ lion_northwest\n")
    invoke(db, "event", "g", "setup: tokens")
    invoke(db, "event", "g", "dragon: returns army 5")
    before = events(db, "g")
    result = cli(db, "round", "g", "-", "--yes", stdin=DRAGON_ROUND)
    assert result.returncode == 1, result.stdout
    assert result.stderr.splitlines() == [
        'error: round 1, dragon: "army 5 @ dragon_south": '
        "Dragon's only army 5 went back to its pool this round (R-03) (R-08)"
    ]
    assert "Traceback" not in result.stderr
    assert events(db, "g") == before
    # the same round without army 5 is accepted: the refusal was about that token only
    fixed = DRAGON_ROUND.replace("dragon: army 5 @ dragon_south", "dragon: army 4 @ dragon_south")
    assert cli(db, "round", "g", "-", "--yes", stdin=fixed).returncode == 0
    assert events(db, "g") == before + 1


def test_first_player_card_then_entered_is_refused_through_round(tmp_path):
    """R-21 then R-08: the first player card returned the Lion's only army 6 to its pool."""
    db = str(tmp_path / "g.db")
    invoke(db, "new", "g", "--clans", "crab,crane,lion", "--partial-setup")
    invoke(db, "setup", "g", "-", input="lion: control @ lion_coast\n")
    invoke(db, "event", "g", "setup: tokens", "initiative: crab", "crab: first_player lion army 6 @ lion_capital")
    before = events(db, "g")
    sheet = (
        "".join(f"{c}: army {n} @ {c}_capital\n" for c in ("crab", "crane") for n in (1, 2, 3, 4))
        + "crab: bluff @ crab_capital\ncrane: bluff @ crane_capital\n"
    )
    sheet += (
        "lion: army 6 @ lion_coast\nlion: army 1 @ lion_capital\nlion: army 2 @ lion_capital\nlion: "
        "bluff @ lion_capital\n"
    )
    result = cli(db, "round", "g", "-", "--yes", stdin=sheet)
    assert result.returncode == 1, result.stdout
    assert result.stderr.splitlines() == [
        'error: round 1, lion: "army 6 @ lion_coast": Lion\'s only army 6 went back to its pool '
        "this round (crab's first player card, R-21) (R-08)"
    ]
    assert events(db, "g") == before


def test_promotion_and_reinforcements_then_entered_are_refused_through_round(tmp_path):
    """card:promotion and card:reinforcements put a token back in the pool: refused at entry (R-08), one line each."""
    db = str(tmp_path / "g.db")
    invoke(db, "new", "g", "--clans", "crab,unicorn", "--partial-setup")
    setup = (
        "crab: control @ crab_central\ncrab: control @ crab_northwest\ncrab: control @ crab_northeast\n"
        "unicorn: control @ unicorn_southwest\nunicorn: control @ unicorn_southeast\n"
        "crab: holds promotion\nunicorn: holds reinforcements\n"
    )
    invoke(db, "setup", "g", "-", input=setup)
    invoke(db, "round", "g", "-", "--yes", input="crab: army 1 @ crab_capital\nunicorn: army 1 @ unicorn_capital\n")
    invoke(
        db,
        "event",
        "g",
        "crab: discarded army 5 in round 1",
        "unicorn: discarded army 3, army 4 in round 1",
        "crab: plays promotion army 5, pool navy 3",
        "unicorn: plays reinforcements army 3, army 4, discard raid, pool army 5",
    )
    before = events(db, "g")
    sheet = (
        "crab: navy 3 @ crab_capital\n"
        + "".join(f"crab: army {n} @ crab_capital\n" for n in (1, 2, 5))
        + "crab: bluff @ crab_capital\n"
    )
    sheet += (
        "unicorn: army 5 @ unicorn_capital\n"
        + "".join(f"unicorn: army {n} @ unicorn_capital\n" for n in (1, 3, 4))
        + "unicorn: bluff @ unicorn_capital\n"
    )
    result = cli(db, "round", "g", "-", "--yes", stdin=sheet)
    assert result.returncode == 1, result.stdout
    assert result.stderr.splitlines() == [
        'error: round 2, crab: "navy 3 @ crab_capital": '
        "Crab's only navy 3 went back to its pool this round (card:promotion) (R-08)",
        'error: round 2, unicorn: "army 5 @ unicorn_capital": '
        "Unicorn's only army 5 went back to its pool this round (card:reinforcements) (R-08)",
    ]
    assert events(db, "g") == before
