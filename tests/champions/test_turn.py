"""Issue 38 through `referee champions ...` as a moderator types it (in process, under the command's real error
boundary): each item with the page it checks. The casebook (referee/data/casebook/champions/) holds the rules'
cases; these hold what the commands print, refuse and record."""

import json
from pathlib import Path

import pytest

from tests.support.entry_point import referee

SHEET = """scenario: The Fallen Lion
type: battle
difficulty: 0
turns: 6
favor: Matsu Tsuko
champion: Matsu Tsuko, honor 5, destiny 1, player Ann, clan Lion
champion: Asahina Takako, honor 5, destiny 1, player Ben, clan Crane
champion: Bayushi Aramoro, honor 0, destiny 1, player Cho, clan Scorpion
companion: Minor Clan Bushi 1, honor 2, destiny 0
companion: Minor Clan Bushi 2, honor 2, destiny 0
objective: Matsu Tsuko: Unbroken Line, revealed, end, 3/1
objective: Asahina Takako: Courtly Grace, revealed, instant, 4/2
objective: Bayushi Aramoro: Whispers in the Court, hidden, instant, 2
"""


@pytest.fixture
def table(tmp_path):
    (tmp_path / "sheet.txt").write_text(SHEET)
    return tmp_path


def run(home: Path, *args: str, stdin: str | None = None):
    return referee(str(home / "referee.db"), *args, home=home, columns=120, stdin=stdin)


def ok(home: Path, *args: str, stdin: str | None = None) -> str:
    done = run(home, *args, stdin=stdin)
    assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stdout[-2000:], done.stderr)
    return " ".join(done.stdout.split())


def refused(home: Path, *args: str) -> list[str]:
    """A refused report: exit 1, its lines on stderr (the last the hint), never a traceback."""
    done = run(home, *args)
    assert done.returncode == 1 and "Traceback" not in done.stderr, (args, done.stdout[-2000:], done.stderr)
    return done.stderr.strip().splitlines()


def board(home: Path, game: str = "g") -> dict:
    return json.loads(run(home, "champions", "show", game, "--json").stdout)


def champion(data: dict, name: str) -> dict:
    return next(c for c in data["champions"] if c["name"] == name)


def test_a_units_last_miniature_earns_its_glory_only_for_a_unit_of_several(table):
    """p.27: "If a Champion eliminates the last miniature of an Enemy Unit that contained several miniatures,
    they earn 1 additional Glory Point" (CH-09): the referee counts the Unit's miniatures, an Ally's kill among
    them, and pays the +1 to the Champion who eliminates the last; a Unit of one earns nothing more; the old
    `last of unit` without the size is refused with what to type."""
    ok(table, "champions", "new", "g", "sheet.txt")
    said = ok(table, "champions", "event", "g", "Matsu Tsuko: eliminates Ogre, 3 glory, unit of 1")
    assert "a Unit of one miniature: no Glory for its last miniature (p.27, CH-09)" in said
    assert champion(board(table), "Matsu Tsuko")["glory"] == 3
    ok(table, "champions", "event", "g", "ally Crab Defender: eliminates Samurai, unit of 3")
    ok(table, "champions", "event", "g", "Asahina Takako: eliminates Samurai, 1 glory, unit of 3")
    assert board(table)["units"] == [{"name": "Samurai", "miniatures": 3, "eliminated": 2}]
    said = ok(table, "champions", "event", "g", "Bayushi Aramoro: eliminates Samurai, 1 glory, unit of 3")
    assert "Bayushi Aramoro: +1 Glory (the last miniature of the Samurai Unit), Glory 1 -> 2 (p.27)" in said
    assert [champion(board(table), n)["glory"] for n in ("Asahina Takako", "Bayushi Aramoro")] == [1, 2]
    lines = refused(table, "champions", "event", "g", "Matsu Tsuko: eliminates Ogre, 3 glory, last of unit")
    assert lines == [
        "error: g, turn 1, line 1: 'Matsu Tsuko: eliminates Ogre, 3 glory, last of unit': say the Unit's size: "
        "', unit of 3' (the referee counts its miniatures and pays "
        "the last one's +1 only for a Unit of several) (p.27, CH-09)",
        "hint: nothing was recorded",
    ]
    said = ok(table, "champions", "event", "g", "Matsu Tsuko: eliminates Samurai, 1 glory, unit of 3")
    assert "the Samurai Unit: 2 of its 3 miniatures left" in said  # a Unit gone: the next of that name is another


def test_clan_objectives_are_kept_on_the_setup_sheet_one_at_least(table):
    """p.10-11 "Keep at least 1 card", p.15 "They select at least one card" (CH-04): a player's Champion who
    keeps none is refused at setup, so is a fourth card, and a Companion's (p.15, p.17)."""
    for drop, says in (
        ("objective: Bayushi Aramoro: Whispers in the Court, hidden, instant, 2\n",
         "Bayushi Aramoro keeps no Clan Objective: each player's Champion keeps at least one of the three cards "
         "drawn at setup"),
    ):  # fmt: skip
        (table / "short.txt").write_text(SHEET.replace(drop, ""))
        lines = refused(table, "champions", "new", "short", "short.txt")
        assert says in lines[0] and lines[0].endswith("(p.10-11, p.15, CH-04)")
    extra = "".join(f"objective: Matsu Tsuko: Card {n}, revealed, end, 1\n" for n in range(3))
    (table / "four.txt").write_text(SHEET + extra)
    assert "Matsu Tsuko keeps 4 Clan Objectives" in refused(table, "champions", "new", "four", "four.txt")[0]
    (table / "companion.txt").write_text(SHEET + "objective: Minor Clan Bushi 1: Guard, revealed, instant, 1\n")
    assert "Companions have no Clan Objectives" in refused(table, "champions", "new", "c", "companion.txt")[0]
    assert run(table, "champions", "show", "short").returncode == 1  # nothing recorded
    ok(table, "champions", "new", "g", "sheet.txt")
    held = [[o["text"] for o in c["objectives"]] for c in board(table)["champions"]]
    assert held == [["Unbroken Line (end 3/1)"], ["Courtly Grace (instant 4/2)"], ["hidden (face down)"], [], []]


def test_dishonored_is_shown_and_said_when_it_changes_either_way(table):
    """p.14: below 0 at the end of an action a Champion is Dishonored (CR-11: at 0 too, from setup, CH-02),
    Honorable again above 0 at the end of an action or at step 2 of a Combat (CH-03): the board, --json and
    the notes say so each time."""
    new = ok(table, "champions", "new", "g", "sheet.txt")
    assert "Bayushi Aramoro is Dishonored from the start, at 0 Honor" in new and "active, Dishonored" in new
    assert champion(board(table), "Bayushi Aramoro")["dishonored"] is True
    up = ok(table, "champions", "event", "g", "Bayushi Aramoro: melee Goblin, wound")
    assert "Bayushi Aramoro is Honorable again at 1 Honor at the end of the Combat (p.14, CH-03)" in up
    assert champion(board(table), "Bayushi Aramoro")["standing"] == "honorable"
    down = ok(table, "champions", "event", "g", "Asahina Takako: disengagement", "Asahina Takako: disengagement",
              "Asahina Takako: disengagement")  # fmt: skip
    assert "Asahina Takako is Dishonored at -1 Honor at the end of the disengagement" in down
    assert down.count("is Dishonored") == 1 and "(p.14, CR-11)" in down
    data = board(table)
    assert (champion(data, "Asahina Takako")["standing"], champion(data, "Asahina Takako")["status"]) == (
        "dishonored",
        "active",
    )
    assert "refused" not in down
    lines = refused(table, "champions", "event", "g", "Asahina Takako: investigation Magistrate")
    assert lines[0].endswith("Asahina Takako is Dishonored: no Investigation until Honorable again (p.14, CR-11)")


def test_honor_names_its_cause_and_its_action_and_once_per_action_is_refused(table):
    """p.14: +1 "when they wound an Enemy (limited to once per action)", -2 for Deception "limited to once per
    action" (CH-01): an Honor report names its cause; the causes of an action need the action; the second
    wound of one action is refused, the wound of the next action is taken."""
    ok(table, "champions", "new", "g", "sheet.txt")
    lines = refused(table, "champions", "event", "g", "Matsu Tsuko: melee Goblin, wound", "Matsu Tsuko: wound")
    assert lines[0] == (
        "error: g, turn 1, line 2: 'Matsu Tsuko: wound': wounded an Enemy: +1 Honor once per action, and Matsu "
        "Tsuko has it in this one (p.14)"
    )
    said = ok(table, "champions", "event", "g", "Matsu Tsuko: melee Goblin, wound", "Matsu Tsuko: melee Oni, wound")
    assert said.count("+1 Honor (wounded") == 2 and champion(board(table), "Matsu Tsuko")["honor"] == 7
    lines = refused(table, "champions", "event", "g", "Asahina Takako: deception")
    assert "Deception happens in an action: report Asahina Takako's action first" in lines[0]
    assert lines[0].endswith("(CH-01)")
    lines = refused(table, "champions", "event", "g", "Asahina Takako: ranged Archer, outnumbered")
    assert lines[0].endswith("there is never Numerical Superiority or Outnumbered in Ranged Combat (p.26)")
    said = ok(table, "champions", "event", "g", "Asahina Takako: honor +2, scenario")
    assert "Asahina Takako: +2 Honor (the scenario), Honor 5 -> 7 (p.5)" in said


def test_honor_without_a_sign_is_one_short_line_unless_its_cause_fixes_it(table):
    """p.14: `honor 1` could be a value or a change: without a cause it is refused in one short line; with a
    cause that fixes the sign (a wound is +1) it is taken (CH-01)."""
    ok(table, "champions", "new", "g", "sheet.txt")
    lines = refused(table, "champions", "event", "g", "Matsu Tsuko: honor 1")
    assert lines == [
        "error: g, turn 1, line 1: 'Matsu Tsuko: honor 1': 'honor 1': a change is signed and says why: "
        "'honor +1, wound' or 'honor -1, scenario' (p.14, CH-01)",
        "hint: nothing was recorded",
    ]
    assert "Matsu Tsuko: +1 Honor (Clan Power)" in ok(
        table, "champions", "event", "g", "Matsu Tsuko: honor 1, clan power"
    )
    lines = refused(table, "champions", "event", "g", "Matsu Tsuko: honor +1")
    assert "an Honor change says why: 'honor +1, CAUSE'" in lines[0]


def test_end_asks_for_the_end_objectives_and_takes_one_after(table):
    """p.15, p.32, CH-08: an End Objective counts at the end if fulfilled: `end` asks about each one not
    reported, and one reported after the end makes the settlement again (its digest recorded)."""
    ok(table, "champions", "new", "g", "sheet.txt")
    asked = run(table, "champions", "end", "g", "--objectives", "met", stdin="3\n")
    assert asked.returncode == 0, asked.stderr
    assert "Matsu Tsuko's End Objective Unbroken Line (3/1): are its conditions fulfilled? 3, 1 or n" in asked.stdout
    assert json.loads(run(table, "champions", "show", "g", "--json").stdout)["final_glory"]["Matsu Tsuko"] == 2
    ok(table, "champions", "new", "h", "sheet.txt")
    ended = json.loads(run(table, "champions", "end", "h", "--objectives", "met", "--yes", "--json").stdout)
    assert ended["final_glory"]["Matsu Tsuko"] == -2  # Unbroken Line not fulfilled: -1, Destiny -1
    after = ok(table, "champions", "event", "h", "Matsu Tsuko: completes Unbroken Line for 1")
    assert "the end of the game made again with it (p.32, CH-08)" in after
    again = board(table, "h")
    assert again["final_glory"]["Matsu Tsuko"] == 0  # +1 (its lower value), -1 Destiny: nothing deducted
    assert "verified" in ok(table, "champions", "verify", "h")
    lines = refused(table, "champions", "event", "h", "Matsu Tsuko: honor +1, scenario")
    assert "after it, a report holds End Objectives fulfilled only (p.31)" in lines[0]
    unanswered = run(table, "champions", "end", "g2", "--objectives", "met")
    assert unanswered.returncode == 1
    ok(table, "champions", "new", "g2", "sheet.txt")
    closed = run(table, "champions", "end", "g2", "--objectives", "met", stdin="")
    assert closed.returncode == 1 and "the End Objectives were not answered: nothing was recorded" in closed.stderr
    assert board(table, "g2")["ended"] is False


def test_a_two_valued_objective_is_completed_for_its_lower_value(table):
    """p.15 "If this Objective has 2 potential values", p.32 (CH-06): `completes NAME for 2` pays the lower
    value, the card completed (nothing deducted); the higher later tops it up (option two_value_instant)."""
    ok(table, "champions", "new", "g", "sheet.txt")
    said = ok(table, "champions", "event", "g", "Asahina Takako: completes Courtly Grace for 2")
    assert "+2 Glory (Instant Objective Courtly Grace)" in said and "completed for its lower value 2 (CH-06)" in said
    said = ok(table, "champions", "event", "g", "Asahina Takako: completes Courtly Grace for 4")
    assert "+2 Glory (Courtly Grace reaches its higher value 4)" in said
    assert champion(board(table), "Asahina Takako")["glory"] == 4
    lines = refused(table, "champions", "event", "g", "Asahina Takako: completes Courtly Grace for 3")
    assert lines[0].endswith("Courtly Grace is worth 4/2, not 3 (p.15, CH-06)")


def test_a_hidden_objective_is_not_named_until_completed(table):
    """p.15: a Hidden card "remains face down until the precise moment when you fulfill the conditions for its
    completion" (CH-07): its name is on no board, --json, note or replay line until then."""
    ok(table, "champions", "new", "g", "sheet.txt")
    for args in (("show", "g"), ("show", "g", "--json"), ("replay", "g")):
        assert "Whispers in the Court" not in ok(table, "champions", *args), args
    said = ok(table, "champions", "event", "g", "Bayushi Aramoro: completes Whispers in the Court")
    assert "Bayushi Aramoro reveals a hidden Objective: Whispers in the Court (hidden, instant, 2) (p.15)" in said
    assert champion(board(table), "Bayushi Aramoro")["objectives"][0]["name"] == "Whispers in the Court"


def test_an_allys_kill_is_an_input_and_earns_no_glory(table):
    """p.15 "the Champion who eliminated them earns the Glory", p.30 Allies "have no Honor" (CH-10): an Ally's
    kill is recorded, nobody's Glory moves; an Ally's Honor or Glory is refused."""
    ok(table, "champions", "new", "g", "sheet.txt")
    before = [c["glory"] for c in board(table)["champions"]]
    said = ok(table, "champions", "event", "g", "ally Crab Defender: eliminates Goblin")
    assert "ally Crab Defender eliminates Goblin: no Glory to anyone (Allies earn none) (p.15, CH-10)" in said
    assert [c["glory"] for c in board(table)["champions"]] == before
    lines = refused(table, "champions", "event", "g", "ally Crab Defender: eliminates Goblin, 1 glory")
    assert lines[0].endswith("an Ally has no Honor and earns no Glory (p.15, p.30, CH-10)")


def test_the_campaign_log_numbers_its_plays_first(table):
    """p.32 "note in the Campaign Log whether the scenario was successful...": the first column is the play's
    number in the campaign; the record's event (for `retract`) is the last."""
    ok(table, "champions", "campaign", "new", "c", "--players", "Ann,Ben,Cho")
    for game in ("a", "b"):
        ok(table, "champions", "new", game, "sheet.txt")
        ok(table, "champions", "end", game, "--objectives", "missed", "--yes")
        shown = run(table, "champions", "campaign", "log", "c", game).stdout
    header, *rows = [line for line in shown.splitlines() if line.startswith("┃") or line[2:3].isdigit()]
    assert header.split("┃")[1].strip() == "play" and header.split("┃")[-2].strip() == "event"
    assert [r.split("│")[1].strip() for r in rows] == ["1", "2"] and [r.split("│")[-2].strip() for r in rows] == [
        "2",
        "3",
    ]
