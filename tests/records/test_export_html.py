"""`referee export G --format html`: one self-contained, printable game record."""

import json
import re
from html.parser import HTMLParser

import pytest

from referee.cli.app import app
from tests.support import databases
from tests.support.entry_point import runner

EVIL = "<script>alert(1)</script>"


def invoke(db, *args, input=None):
    result = runner.invoke(app, [*args, "--db", db], input=input)
    assert result.exit_code == 0, result.output
    return result


class Refs(HTMLParser):
    """Every address the page would load or link to, and every script."""

    def __init__(self):
        super().__init__()
        self.urls, self.scripts, self.sections = [], 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("src", "href", "action", "data", "poster", "srcset", "xlink:href"):
            if attrs.get(name):
                self.urls.append(attrs[name])
        if tag == "script":
            self.scripts += 1
        if tag == "section":
            self.sections.append(attrs.get("aria-labelledby"))


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return databases.demo(tmp_path_factory.mktemp("html") / "games.db")


def test_the_record_is_self_contained_and_shows_every_round(demo, tmp_path):
    target = tmp_path / "game.html"
    invoke(demo, "export", "demo-five-player-1", "--format", "html", "-o", str(target))
    page = target.read_text("utf-8")
    refs = Refs()
    refs.feed(page)
    assert refs.scripts == 0  # nothing to run
    assert all(u.startswith("#") for u in refs.urls), refs.urls  # only links inside the page
    without_namespace = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not re.search(r"(https?:)?//[a-z0-9]", without_namespace, re.I)  # no other address, anywhere
    assert "url(" not in page and "@import" not in page
    assert refs.sections == ["round-1", "round-2", "round-3", "round-4", "round-5", "honor", "race"]
    assert page.count("<svg") == 7  # every round's board with its tokens, the board at the end, the honor race
    seals = [s["seal"] for s in json.loads(invoke(demo, "show", "demo-five-player-1", "--json").output)["seals"]]
    assert len(seals) == 5 and all(s in page for s in seals)
    final = json.loads(invoke(demo, "score", "demo-five-player-1", "--json").output)
    assert f"Winner: {' and '.join(final['winners'])}" in page
    for s in final["scores"]:
        assert f"<strong>{s['total']}</strong> honor" in page
    assert "break-before: page" in page and "size: A4" in page  # one round a page when printed


def test_player_names_are_escaped_and_objectives_hidden_until_revealed(tmp_path):
    """Objectives are secret until the end of the game (p.10): a record made mid-game never shows one."""
    db = str(tmp_path / "games.db")
    invoke(db, "new", "g1", "--clans", "crab,lion", "--players", f"crab={EVIL},lion=Bo", "--partial-setup")
    invoke(db, "setup", "g1", "-", input="crab: objective the_last_line_of_defense\n")
    invoke(db, "seal", "g1", "lion", input="the_plains_of_battle\n")
    invoke(db, "round", "g1", "-", "--yes", input="crab: army 2 @ crab_capital\n")
    target = tmp_path / "g1.html"
    invoke(db, "export", "g1", "--format", "html", "-o", str(target))
    page = target.read_text("utf-8")
    assert EVIL not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for secret in ("last_line", "Last Line", "plains_of_battle", "Plains of Battle", "objective "):
        assert secret not in page, secret
    assert "provisional" in page and "objectives still sealed: lion" in page


def test_unknown_format_is_a_usage_error(demo, tmp_path):
    result = runner.invoke(app, ["export", "demo-five-player-1", "--format", "pdf", "--db", demo])
    assert result.exit_code == 2 and "choose jsonl, text or html" in result.output
