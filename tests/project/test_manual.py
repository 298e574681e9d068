"""The manual: the README and the site MkDocs builds from docs/ (mkdocs.yml).

- The site builds with --strict (every link and anchor found, every page in the nav, every file and README section
  a page includes there) into a temporary folder, and loads nothing from another address.
- Every block of `referee` commands in the manual is run as printed by the test BLOCKS names, or said not runnable
  with the reason (tests/support/manual.py, one list).
- The README's one-minute examples run as printed and print what it shows; its two commands are the ones CI runs;
  it stays short and links into the manual.
- A reader on a 375-px phone and on a laptop finds the navigation and reads code that scrolls in its own box
  (chromium, the built site from file://).
"""

from __future__ import annotations

import ast
import logging
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.support import manual
from tests.support.browsing import screenshot
from tests.support.entry_point import run_in_process

ROOT = manual.ROOT
HERE = Path(__file__).resolve().parents[1]  # tests/, where BLOCKS names each test's file
OTHER_ADDRESS = re.compile(  # what a page would load from another address: a script, style, font or picture
    r"""<(?:script|link|img|iframe|source|video|audio)\b[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:)?//"""
    r"""|url\(\s*["']?(?:https?:)?//|@import\s+["']?(?:https?:)?//"""
)


def build(site: Path, config: Path = ROOT / "mkdocs.yml") -> list[str]:
    """`mkdocs build --strict` into ``site``, in this process; the warnings and the abort, if any."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    said: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())

    collect = Collect(level=logging.WARNING)
    logging.getLogger("mkdocs").addHandler(collect)
    try:
        mkdocs_build(load_config(config_file=str(config), site_dir=str(site), strict=True))
    except Abort as aborted:
        said.append(str(aborted))
    finally:
        logging.getLogger("mkdocs").removeHandler(collect)
    return said


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("manual") / "site"
    said = build(folder)
    assert said == [], said
    return folder


def test_the_site_builds_strict_and_offline(site):
    built = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    for page in manual.pages()[1:]:  # every page of docs/, each in the nav (--strict refuses one left out)
        assert page.removeprefix("docs/").removesuffix(".md") + ".html" in built, page
    for path in [*site.rglob("*.html"), *site.rglob("*.css")]:
        assert not OTHER_ADDRESS.findall(path.read_text("utf-8")), path  # nothing loaded from another address
    # what a page includes is there: the README's round report, the shipped rulings with their anchors
    moderator = (site / "battle-for-rokugan" / "moderator.html").read_text("utf-8")
    assert "advance the round track to 2" in moderator and "dragon: army 2 @ dragon_capital + blessing 3" in moderator
    assert 'id="r-12-raids-resolve-together"' in (site / "rulings.html").read_text("utf-8")
    front = re.sub(r"<[^>]+>", "", (site / "index.html").read_text("utf-8"))  # the text, without its highlighting
    assert "python3 -m venv .venv &amp;&amp; .venv/bin/pip install -e '.[test]' &amp;&amp; .venv/bin/pytest" in front


def test_a_broken_anchor_fails_the_build(tmp_path):
    """--strict is what holds the links: a copy of the manual with one ruling's anchor misspelt does not build, and
    that link is the one named."""
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "docs", copy / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    shipped = ("referee/data/rulings.md", "referee/data/champions/rulings.md", "referee/data/rulings-l5r-ccg.md")
    for name in ("mkdocs.yml", "README.md", *shipped):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, copy / name)
    page = copy / "docs" / "battle-for-rokugan" / "moderator.md"
    page.write_text(page.read_text().replace("#r-12-raids-resolve-together", "#r-12-raids", 1))
    said = build(tmp_path / "site", copy / "mkdocs.yml")
    assert len(said) == 2 and "'#r-12-raids'" in said[0] and "Aborted with 1 warnings" in said[1], said


def test_every_block_of_commands_is_run_or_said_not_runnable():
    """Every fenced block of `referee` commands in the README and docs/ is in manual.BLOCKS, once: run as printed by
    a test that exists and reads that block, or not runnable with a reason."""
    claimed: dict[tuple[str, int], tuple[str, str]] = {}
    for (page, after), who in manual.BLOCKS.items():
        block = manual.find(page, after)
        assert (page, block.line) not in claimed, f"{page}:{block.line} is listed twice: {claimed[page, block.line]}"
        claimed[page, block.line] = (page, after)
        if isinstance(who, manual.Run):
            file, name = who.test.split("::")
            source = (HERE / file).read_text("utf-8")
            tests = {n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}
            assert name in tests, f"{who.test} does not exist"
            assert page in source and after in source, f"{file} does not read the block after {after!r} in {page}"
        else:
            assert len(who.reason.split()) >= 4, (page, after)
    for page in manual.pages():
        manual.blocks(page)  # every block of every page is closed (an unclosed one runs to the page's end)
    unlisted = [
        f"{b.page}, line {b.line}: {b.commands[0]}"
        for page in manual.pages()
        for b in manual.command_blocks(page)
        if (b.page, b.line) not in claimed
    ]
    assert unlisted == [], "blocks of commands neither run by a test nor said not runnable (tests/support/manual.py)"


def run_all(commands: list[str], folder: Path) -> list[str]:
    said = []
    for command in commands:
        done = run_in_process(shlex.split(command)[1:], cwd=folder, env={**os.environ, "HOME": str(folder)})
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stdout[-2000:], done.stderr)
        said.append(done.stdout)
    return said


def test_the_readme_card_game_minute_runs_as_printed(tmp_path):
    commands = manual.commands("README.md", "### The card game: a battle")
    said = run_all(commands, tmp_path)
    battle = next(out for c, out in zip(commands, said, strict=True) if c.startswith("referee ccg battle"))
    shown = manual.shown_after("README.md", "### The card game: a battle")
    assert [line.rstrip() for line in battle.splitlines()] == shown


def test_the_readme_champions_minute_runs_as_printed(tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    commands = manual.commands("README.md", "### Champions of Rokugan: a scenario")
    said = run_all(commands, tmp_path)
    shown = manual.shown_after("README.md", "### Champions of Rokugan: a scenario")
    assert commands[-1] == 'referee champions end wc-1 --objectives met --fulfilled "Matsu Tsuko: Unbroken Line"'
    assert [line.rstrip() for line in said[-1].splitlines()][-len(shown) :] == shown


def test_the_readme_two_commands_are_the_ones_ci_runs(tmp_path):
    """The README's two commands: the second is what .ci/run runs; the first installs the package and plays the
    demo into SQLite under saves/ (its `referee demo` run here, in a fresh folder with no --db or REFEREE_DB); the
    site's front page includes them rather than copying them."""
    heading = manual.read("README.md").splitlines().index("## Two commands") + 1
    block = next(b for b in manual.blocks("README.md") if b.line > heading)
    play, test = [line for line in block.body.splitlines() if line and not line.startswith("#")]
    assert test == "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/pytest"
    assert test in (ROOT / ".ci" / "run").read_text()
    assert play == "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/referee demo"
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_DB"}
    done = run_in_process(["demo"], cwd=tmp_path, env={**env, "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "saves" / "referee.db").is_file()
    listed = run_in_process(["games"], cwd=tmp_path, env={**env, "HOME": str(tmp_path)})
    assert "database: saves/referee.db" in listed.stdout and "finished" in listed.stdout
    assert '--8<-- "README.md:two-commands"' in manual.read("docs/index.md")


def test_the_readme_is_short_and_links_into_the_manual():
    readme = manual.read("README.md")
    assert len(readme.splitlines()) <= 300
    links = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", readme)
    for link in links:
        assert (ROOT / link).is_file(), link
    guides = [p for p in manual.pages()[1:] if p not in ("docs/index.md", "docs/rulings.md")]
    assert sorted(set(guides) - set(links)) == []  # every page of the manual is one click from the README


def test_the_site_reads_on_a_phone_and_a_laptop(site, browser):
    """The built site from file://: at 375 px and 1366 px no page scrolls sideways (a wide code block or table
    scrolls in its own box), the navigation reaches another guide (on the phone through the menu), and nothing is
    asked of another address."""
    asked: list[str] = []
    page = browser.new_page()
    page.on("request", lambda request: asked.append(request.url))
    for width, height in ((375, 740), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        for name in ("battle-for-rokugan/moderator.html", "battle-for-rokugan/organiser.html", "benchmarks.html"):
            page.goto((site / name).as_uri())
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{name} at {width} px scrolls sideways by {overflow} px"
            boxes = page.evaluate(
                """() => [...document.querySelectorAll('.md-content pre > code, .md-typeset__scrollwrap')]
                  .filter(e => e.scrollWidth > e.clientWidth + 1)
                  .map(e => [e.tagName, getComputedStyle(e).overflowX])"""
            )
            assert boxes, f"{name} at {width} px: no wide code block or table to measure"
            assert all(overflow_x in ("auto", "scroll") for _, overflow_x in boxes), (name, width, boxes)
        screenshot(page, f"manual-benchmarks-{width}.png")
        page.goto((site / "battle-for-rokugan" / "moderator.html").as_uri())
        link = page.locator("nav.md-nav--primary a.md-nav__link", has_text="The organiser's guide").first
        if width < 1220:  # Material folds the navigation into a drawer below 76.25em, off the screen until opened
            box = link.bounding_box()
            assert box is None or box["x"] + box["width"] <= 0, box
            page.locator("label.md-header__button[for='__drawer']").click()
            page.wait_for_timeout(500)  # the drawer slides in
        box = link.bounding_box()
        assert box and 0 <= box["x"] and box["x"] + box["width"] <= width, (width, box)
        link.click()
        page.wait_for_url("**/battle-for-rokugan/organiser.html")
        assert page.locator("h1").first.inner_text().rstrip("¶") == "Battle for Rokugan: the organiser's guide"
    assert all(url.startswith("file://") for url in asked), [u for u in asked if not u.startswith("file://")]


def test_the_site_served_finds_a_ruling_by_a_word(site, browser):
    """Served by a plain static web server (search needs it served), the search box finds R-20 by "harbor", and
    the page asks nothing of another address."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    here = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        asked: list[str] = []
        page = browser.new_page()
        page.on("request", lambda request: asked.append(request.url))
        page.goto(f"{here}/index.html")
        page.keyboard.press("s")  # the theme's key for the search box
        page.keyboard.type("harbor")
        found = page.locator(".md-search-result__link")
        found.first.wait_for()
        assert f"{here}/rulings.html#r-20-the-harbor" in [a.get_attribute("href") for a in found.all()]
        assert all(url.startswith(here) for url in asked), [u for u in asked if not u.startswith(here)]
    finally:
        server.shutdown()
        server.server_close()
