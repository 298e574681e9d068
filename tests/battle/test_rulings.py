"""The rulings shipped with the package (referee/data/rulings.md): `referee rules` from any folder, and
the cross-check between the document, the engine, the reports, the rules options and the casebook."""

import json
import re
import shlex
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from referee import rulings
from referee.boarddata import load_board
from referee.engine import RulesOptions
from referee.scenario import build_state, load_cases, parse_entry, parse_lines, play_table, resolve
from tests.support import manual
from tests.support.entry_point import run_in_process

ROOT = Path(__file__).parents[2]
ENGINE = ROOT / "referee" / "engine"
IDS = re.compile(r"\bR-\d+[a-z]?\b")


def rules(tmp_path, *args):
    """`referee rules` as a user runs it, from a folder that is not the project's."""
    return run_in_process(["rules", *args], cwd=tmp_path)


def documented() -> set[str]:
    return {r.id for r in rulings.load()}


# --- the command ----------------------------------------------------------------------------------
def test_rules_lists_every_ruling_with_its_title(tmp_path):
    result = rules(tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(rulings.load()) >= 41
    assert "R-08    Impossible entries are refused at once" in lines
    assert lines[0].startswith("R-01 ") and lines[-1].startswith("R-28 ")


def test_rules_id_prints_the_ruling_with_its_refinements(tmp_path):
    result = rules(tmp_path, "R-17")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("R-17  Successful defense\nSources: rulebook p.10")
    assert "Option: defense_on_cancelled_attack, default true (allowed: true, false)" in out
    assert "\nR-17a  Raids and diplomacy neither attack nor defend\n" in out
    assert "\nR-17b  Attacks taken off the board by a card\n" in out
    assert "Option: defense_on_discarded_attack, default false (allowed: true, false)" in out
    assert "Territories and their cards" not in out  # R-18 is not part of R-17


NEW_2026_11_25 = {
    "R-07a": "Unicorn: one swap a round",
    "R-07b": "Unicorn: a swap that names a blessed token",
    "R-21c": "A player with no territory card only passes",
    "R-21d": "The first player card, once a round",
    "R-21e": "How many tokens a player reveals after a card took one",
    "R-25a": "The Shadowlands count as territories for the tie-break",
    "R-27a": "Five rounds, at every layer",
}


@pytest.mark.parametrize("rid", sorted(NEW_2026_11_25))
def test_rules_prints_each_ruling_of_2026_11_25(tmp_path, rid):
    """The rulings the third audit settled (the compliance statement's 2026-11-25 section) are printed."""
    result = rules(tmp_path, rid)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"{rid}  {NEW_2026_11_25[rid]}\nSources: referee ruling (2026-11-25)")
    listed = rules(tmp_path).stdout.splitlines()
    assert f"{rid:<6}  {NEW_2026_11_25[rid]}" in listed
    base = rules(tmp_path, rid[:-1]).stdout  # the ruling it refines prints it too
    assert f"\n{rid}  {NEW_2026_11_25[rid]}\n" in base


def test_rulings_md_holds_every_id_of_the_compliance_statement():
    """referee/data/rulings.md (what `referee rules` prints) rewords the project's compliance statement for
    players; it holds every ruling id of that statement, the 2026-11-25 ones included, and no other."""
    from tests.battle.test_casebook_coverage import RULING_IDS  # the statement's ids, which the casebook must cite

    listed = [r.id for r in rulings.load()]
    assert listed == sorted(listed, key=lambda i: (int(i[2:4]), i[4:]))  # in id order
    assert sorted(listed) == sorted(RULING_IDS)
    assert set(NEW_2026_11_25) <= set(listed)


def test_rules_refinement_id_prints_only_that_ruling(tmp_path):
    result = rules(tmp_path, "r-17B")  # any letter case
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("R-17b  Attacks taken off the board by a card\n")
    assert "R-17a" not in result.stdout and "Successful defense\n" not in result.stdout


def test_rules_searches_the_text(tmp_path):
    result = rules(tmp_path, "harbor")
    assert result.returncode == 0, result.stderr
    ids = [line.split()[0] for line in result.stdout.splitlines() if line.startswith("R-")]
    assert ids == ["R-20", "R-20a", "R-24a"]
    assert "Way of the Sail counts the harbor province as coastal." in result.stdout


def test_rules_search_needs_every_word(tmp_path):
    result = rules(tmp_path, "navy", "sea_only")
    assert result.returncode == 2  # one argument: several words are quoted
    result = rules(tmp_path, "navy sea_only")
    assert [line.split()[0] for line in result.stdout.splitlines() if line.startswith("R-")] == ["R-20a"]


def test_rules_json(tmp_path):
    listed = json.loads(rules(tmp_path, "--json").stdout)
    assert {"id": "R-02a", "title": "Crane: a tie against a province nobody holds"} in listed["rulings"]
    one = json.loads(rules(tmp_path, "R-25", "--json").stdout)["rulings"]
    assert [r["id"] for r in one] == ["R-25", "R-25a"]  # R-25 with the ruling that refines it
    assert one[0]["options"] == [
        {"name": "tiebreak", "default": "territories,provinces", "allowed": ["territories,provinces", "shared"]}
    ]
    found = json.loads(rules(tmp_path, "shrine", "--json").stdout)
    assert found["query"] == "shrine" and "R-19b" in [r["id"] for r in found["rulings"]]


@pytest.mark.parametrize(
    "query, message",
    [
        ("R-99", "error: no ruling R-99: `referee rules` lists the {n} rulings, R-01 to R-28"),
        ("r-3b", "error: no ruling R-03b: `referee rules` lists the {n} rulings, R-01 to R-28"),
        ("kraken", "error: no ruling mentions 'kraken': `referee rules` lists them all"),
    ],
)
def test_rules_unknown_id_or_no_match_is_one_line_exit_1(tmp_path, query, message):
    result = rules(tmp_path, query)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [message.format(n=len(rulings.load()))]
    assert result.stdout == ""


def test_document_ships_as_package_data():
    """A plain (non-editable) install carries referee/data/rulings.md: pyproject's package-data covers it."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["referee"]
    assert any(fnmatch("data/rulings.md", pattern) for pattern in data)


# --- the cross-check ----------------------------------------------------------------------------
def test_every_id_the_engine_cites_is_documented():
    cited = {m for path in ENGINE.rglob("*.py") for m in IDS.findall(path.read_text("utf-8"))}
    assert cited, "the engine cites rulings"
    assert sorted(cited - documented()) == []


def _casebook_output() -> str:
    """Everything the referee said over the whole casebook: table-event notes, reports, refusals."""
    board = load_board()
    said = []
    for case in load_cases(ROOT / "referee" / "data" / "casebook"):
        state = build_state(case, board)
        if case.table.strip():
            state, notes, over = play_table(case, state, board, [])
            said += notes
            if over:
                continue
        if case.entries is None:
            continue
        try:
            said.append(repr(resolve(state, [parse_entry(line, board, n) for n, line in parse_lines(case.entries)])[1]))
        except Exception as exc:  # a refused round: its refusal lines are what the referee said
            said.append(str(exc))
    return "\n".join(said)


def test_every_id_a_report_cites_is_documented():
    said = _casebook_output()
    from referee.log import parse_records, states

    for game in sorted((ROOT / "referee" / "data" / "games").glob("*.jsonl")):
        events, _ = parse_records(game.read_text("utf-8"))
        said += "\n".join(repr(step.report) for step in states(events) if step.report is not None)
    cited = set(IDS.findall(said))
    assert {"R-08", "R-03", "R-11a", "R-17b", "R-02a"} <= cited  # the walk does reach the reports
    assert sorted(cited - documented()) == []


def test_every_documented_id_is_cited_by_a_casebook_case():
    cited = {c for case in load_cases(ROOT / "referee" / "data" / "casebook") for c in case.cites}
    assert sorted(documented() - cited) == []
    assert (
        sorted(c for c in cited if IDS.fullmatch(c) and c not in documented()) == []
    )  # and no case cites an unknown id


def test_every_rules_option_is_documented_with_its_default_and_values():
    options = {o.name: o for r in rulings.load() for o in r.options}
    defaults = RulesOptions().to_dict()
    assert sorted(options) == sorted(defaults)
    for name, default in defaults.items():
        want = str(default).lower() if isinstance(default, bool) else str(default)
        assert options[name].default == want, name
        RulesOptions.from_dict({name: options[name].default})  # the documented default is accepted
        for value in options[name].values:
            RulesOptions.from_dict({name: value})  # every documented value is accepted
    assert options["harbor_navy"].values == ("sea_or_land_border", "sea_only")


def test_the_manual_cites_only_documented_rulings():
    for page in manual.pages():
        assert sorted(set(IDS.findall(manual.read(page))) - documented()) == [], page


def test_every_ruling_has_sources_and_text():
    for r in rulings.load():
        assert r.sources and len(r.text) > 80, r.id


def test_a_malformed_document_is_refused():
    with pytest.raises(rulings.RulingsFormatError, match="no '- Sources:' line"):
        rulings.parse("## R-01 A title\n\nText without sources.\n")
    with pytest.raises(rulings.RulingsFormatError, match="an id appears twice: R-01"):
        rulings.parse("## R-01 A\n- Sources: p.1\n\nx\n\n## R-01 B\n- Sources: p.2\n\ny\n")
    with pytest.raises(rulings.RulingsFormatError, match="is not '## R-xx Title'"):
        rulings.parse("## Rulings\n")


def _anchor(r) -> str:
    """The anchor a Markdown renderer gives the ruling's heading (GitHub's rule)."""
    return re.sub(r"[^\w\- ]", "", f"{r.id} {r.title}".lower()).replace(" ", "-")


def test_a_rulings_anchor_is_the_same_on_github_and_on_the_site():
    """The README links the shipped document as GitHub shows it; the site (docs/rulings.md includes it) gives its
    headings their anchors with Python-Markdown's rule: one anchor must serve both."""
    from markdown.extensions.toc import slugify

    for r in rulings.load():
        assert slugify(f"{r.id} {r.title}", "-") == _anchor(r), r.id


def test_every_ruling_the_manual_names_links_to_the_ruling():
    """Every page of the manual (the README, docs/): each R-xx is a link to its ruling's heading, in the shipped
    document (the README: referee/data/rulings.md) or in the site's page that includes it (docs/rulings.md); every
    other mention is code (the tool's own output)."""
    anchors = {r.id: _anchor(r) for r in rulings.load()}
    linked = 0
    for page in manual.pages():
        text = manual.read(page)
        for rid, link in re.findall(r"\[(R-\d+[a-z]?)\]\(([^)]*)\)", text):
            target, _, anchor = link.partition("#")
            document = (ROOT / page).parent / target
            want = ROOT / ("referee/data/rulings.md" if page == "README.md" else "docs/rulings.md")
            assert document.resolve() == want, (page, rid, target)
            assert anchors[rid] == anchor, (page, rid)
            linked += 1
        prose = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks show the tool's own output
        prose = re.sub(r"`[^`]*`|\[[^\]]*\]\([^)]*\)", "", prose)  # inline code, and the links themselves
        assert IDS.findall(prose) == [], page  # every other mention is a link
    assert linked >= 46
    assert (ROOT / "referee" / "data" / "rulings.md").is_file()
    assert manual.read("docs/rulings.md").strip() == '--8<-- "referee/data/rulings.md"'


def test_the_rules_block_runs_as_printed(tmp_path):
    """docs/battle-for-rokugan/rules.md: `referee rules` at the table, every command of its block as printed."""
    said = {}
    for command in manual.commands("docs/battle-for-rokugan/rules.md", "At the table:"):
        done = run_in_process(shlex.split(command)[1:], cwd=tmp_path)
        assert done.returncode == 0 and done.stdout.strip() and not done.stderr, (command, done.stderr)
        said[command] = done.stdout
    assert len(said) == 4
    assert "R-17a" in said["referee rules R-17"] and "R-17b" in said["referee rules R-17"]
    assert "R-20" in said["referee rules harbor"]
    assert json.loads(said["referee rules R-08 --json"])
