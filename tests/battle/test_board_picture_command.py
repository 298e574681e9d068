"""The board picture with a round's tokens, through `referee board --svg --tokens`."""

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.cli.app import app
from tests.support import databases
from tests.support.entry_point import runner

NS = {"s": "http://www.w3.org/2000/svg"}
GAMES = Path(__file__).parents[2] / "referee" / "data" / "games"
ATTACK = re.compile(r"^\w+: (army|navy|shinobi) \d+ \S+ > \S+")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return databases.demo(tmp_path_factory.mktemp("svg") / "games.db")


def recorded_rounds() -> dict[int, list[str]]:
    rounds = {}
    for line in (GAMES / "five-player.jsonl").read_text().splitlines():
        event = json.loads(line)
        if event["type"] == "RoundResolved":
            rounds[event["payload"]["round"]] = event["payload"]["entries"]
    return rounds


@pytest.mark.parametrize("round_no", [1, 2, 3, 4, 5])
def test_one_arrow_per_attacking_token_with_its_strength(demo, tmp_path, round_no):
    target = tmp_path / "round.svg"
    result = runner.invoke(
        app, ["board", "demo-five-player-1", "--round", str(round_no), "--svg", str(target), "--tokens", "--db", demo]
    )
    assert result.exit_code == 0, result.output
    root = ET.parse(target).getroot()
    lines = recorded_rounds()[round_no]
    attacks = [line for line in lines if ATTACK.match(line)]
    arrows = root.findall(".//s:g[@id='tokens']/s:g", NS)
    drawn = [g for g in arrows if g.get("class", "").startswith("arrow ")]
    assert sorted(g.get("data-entry") for g in drawn) == sorted(attacks)
    for g in drawn:  # the kind's line style and the strength written on it
        kind = g.get("class").split()[1]
        strength = re.search(rf"{kind} (\d+)", g.get("data-entry")).group(1)
        assert f"{kind[0].upper()}" in "".join(g.itertext()) and strength in "".join(g.itertext())
    others = [g for g in arrows if not g.get("class", "").startswith("arrow ")]
    assert len(drawn) + len(others) == len(lines)  # every revealed token is drawn, once


def test_round_picture_has_title_desc_outcomes_and_initials(demo, tmp_path):
    target = tmp_path / "round.svg"
    assert (
        runner.invoke(
            app, ["board", "demo-five-player-1", "-r", "2", "--svg", str(target), "--tokens", "--db", demo]
        ).exit_code
        == 0
    )
    root = ET.parse(target).getroot()
    assert "round 2" in root.find("s:title", NS).text
    assert "attack(s) drawn as arrows" in root.find("s:desc", NS).text
    outcomes = root.findall(".//s:g[@id='outcomes']/s:g", NS)
    assert any("captured by" in "".join(g.itertext()) for g in outcomes)
    legend = "".join(root.find("s:g[@id='legend']", NS).itertext())
    for clan, initial in (("crab", "Cb"), ("crane", "Cn"), ("lion", "L"), ("scorpion", "S"), ("unicorn", "U")):
        assert f"{initial} {clan}" in legend  # colour is never the only cue
    assert root.find("s:g[@id='cards']", NS) is not None
    assert len(root.findall("s:g[@id='regions']/s:polygon", NS)) == 30


def test_tokens_needs_a_played_round(demo, tmp_path):
    result = runner.invoke(
        app, ["board", "demo-five-player-1", "--svg", str(tmp_path / "x.svg"), "--tokens", "--db", demo]
    )
    assert result.exit_code == 2 and "--tokens" in result.output
