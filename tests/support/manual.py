"""The manual as the tests read it: the README and the pages of docs/ (the site MkDocs builds, mkdocs.yml), the
fenced blocks of `referee` commands in them, and BLOCKS, the one list of those blocks: each is run as printed by
the test named beside it, or said not runnable with the reason.

A test reads the commands of a block with ``commands(page, after)``: the first fenced block holding a command
that follows the words ``after`` in ``page``. A page is read as written: a line ``--8<-- "README.md:name"``
(pymdownx.snippets, which includes a section of another file when the site is built) stays one line, so a block
a page includes is counted once, in the file it is written in. tests/project/test_manual.py holds the list to account.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^(`{3,}|~{3,})")
COMMAND = re.compile(r"^\s*(?:\.venv/bin/)?referee(?:\s|$)")


@dataclass(frozen=True)
class Run:
    """A block whose every command the test runs as printed: "ROOM/FILE.py::TEST" under tests/."""

    test: str


@dataclass(frozen=True)
class NotRun:
    """A block no test can run as printed, and why."""

    reason: str


# Every fenced block of `referee` commands in the manual: (page, the words it follows) -> who runs it, or why
# nobody can. A new block in the manual needs a line here (tests/project/test_manual.py fails naming it).
BLOCKS: dict[tuple[str, str], Run | NotRun] = {
    ("README.md", "### Battle for Rokugan: one round"): Run(
        "cli/test_command_line.py::test_the_readme_worked_example_is_what_the_command_prints"
    ),
    ("README.md", "### The card game: a battle"): Run(
        "project/test_manual.py::test_the_readme_card_game_minute_runs_as_printed"
    ),
    ("README.md", "### Champions of Rokugan: a scenario"): Run(
        "project/test_manual.py::test_the_readme_champions_minute_runs_as_printed"
    ),
    ("docs/battle-for-rokugan/moderator.md", "A whole game, as the moderator types it"): Run(
        "project/test_readme_walkthrough.py::test_every_command_of_the_walkthrough_runs_as_printed"
    ),
    ("docs/battle-for-rokugan/rules.md", "At the table:"): Run(
        "battle/test_rulings.py::test_the_rules_block_runs_as_printed"
    ),
    ("docs/battle-for-rokugan/organiser.md", "with export, import and verify."): NotRun(
        "a sketch of a tournament's day: players.csv, a moderator's round1.txt and the players Bo, Cy and Di are "
        "the organiser's own; tests/tournament/test_seated_tournament_commands.py runs each of these commands"
    ),
    ("docs/battle-for-rokugan/organiser.md", "## Phones at the tables"): NotRun(
        "`referee serve` runs until stopped and needs a certificate; tests/web/test_phone_entry.py and "
        "tests/web/test_serve_tls.py run serve, links and confirm"
    ),
    ("docs/battle-for-rokugan/organiser.md", "## TLS at the venue"): NotRun(
        "certbot and mkcert need a DNS name, an authority or a trust store; tests/web/test_serve_tls.py serves over "
        "TLS with a certificate it makes"
    ),
    ("docs/battle-for-rokugan/organiser.md", "## The printed seating with each seat's phone link"): NotRun(
        "`referee serve` runs until stopped; tests/tournament/test_seating_sheets_and_links.py seats a round with "
        "--links and --sheet"
    ),
    ("docs/battle-for-rokugan/venue-pages.md", "# The venue pages"): NotRun(
        "`referee serve` runs until stopped, and the tournament `spring` is the organiser's; tests/web/test_pages.py, "
        "tests/web/test_tournament_pages.py and tests/web/test_venue_pages_browser.py serve and read the pages"
    ),
    ("docs/l5r-ccg/moderator.md", "## Commands"): NotRun(
        "a synopsis: GAME, LINE and FILE stand for the moderator's own"
    ),
    ("docs/l5r-ccg/moderator.md", "A whole match, as the moderator types it"): Run(
        "ccg/test_commands.py::test_the_manuals_whole_match_runs_as_printed"
    ),
    ("docs/l5r-ccg/moderator.md", "What the referee refuses, as the moderator meets it"): Run(
        "ccg/test_turn.py::test_the_manuals_refusals_are_refused_as_printed"
    ),
    ("docs/l5r-ccg/moderator.md", "A match can also start where the judge finds it"): Run(
        "ccg/test_turn.py::test_the_manuals_mid_game_start_runs_as_printed"
    ),
    ("docs/l5r-ccg/organiser.md", "A whole Kotei, as the organiser types it"): Run(
        "tournament/test_swiss_live.py::test_the_manuals_kotei_runs_as_printed_and_every_page_opens"
    ),
    ("docs/champions/moderator.md", "A whole campaign, as the table reports it"): Run(
        "champions/test_commands.py::test_the_manuals_campaign_runs_as_printed_and_ends_with_its_result"
    ),
    ("docs/signed-records.md", "## Signed records"): NotRun(
        "the fingerprint 1A2B-... and spring.jsonl stand for the organiser's own; tests/records/test_signing.py and "
        "tests/records/test_signed_tournament.py run each of these commands"
    ),
    ("docs/databases.md", "## A tournament: many tables, one PostgreSQL database"): NotRun(
        "createuser and createdb need a PostgreSQL server's administrator; the store tests run every command on "
        "a throwaway PostgreSQL server (tests/support/pg_server.py)"
    ),
}


@dataclass(frozen=True)
class Block:
    """A fenced block of a page: the line of its opening fence (from 1), its info string and its lines."""

    page: str
    line: int
    info: str
    body: str

    @property
    def commands(self) -> list[str]:
        """Its commands, one a line, each without its trailing comment (two spaces, then #)."""
        return [line.split("  #", 1)[0].strip() for line in self.body.splitlines() if COMMAND.match(line)]


def pages() -> list[str]:
    """Every page of the manual, by its path from the repository's top: README.md, then docs/**/*.md."""
    return ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md"))]


def read(page: str) -> str:
    return (ROOT / page).read_text("utf-8")


def blocks(page: str) -> list[Block]:
    """The page's fenced blocks, in order (a fence closes on a fence of the same character, at least as long)."""
    found, opened, info, body = [], None, "", []
    for number, line in enumerate(read(page).splitlines(), 1):
        fence = FENCE.match(line.strip())
        if opened is None:
            if fence:
                opened, info, body = (number, fence.group(1)), line.strip()[len(fence.group(1)) :].strip(), []
        elif fence and fence.group(1)[0] == opened[1][0] and len(fence.group(1)) >= len(opened[1]):
            found.append(Block(page, opened[0], info, "\n".join(body)))
            opened = None
        else:
            body.append(line)
    assert opened is None, f"{page}: the block opened on line {opened[0]} is never closed"
    return found


def command_blocks(page: str) -> list[Block]:
    return [b for b in blocks(page) if b.commands]


def find(page: str, after: str) -> Block:
    """The first block holding a command after the first occurrence of ``after`` in the page."""
    text = read(page)
    assert after in text, f"{page} no longer holds {after!r}"
    line = text[: text.index(after)].count("\n") + 1
    following = [b for b in command_blocks(page) if b.line > line]
    assert following, f"no block of commands follows {after!r} in {page}"
    return following[0]


def shown_after(page: str, after: str) -> list[str]:
    """The output a page shows after a block of commands: the lines of the next fenced block."""
    block = find(page, after)
    shown = next(b for b in blocks(page) if b.line > block.line)
    return [line.rstrip() for line in shown.body.splitlines()]


def commands(page: str, after: str) -> list[str]:
    """The commands of a block that a test runs as printed (BLOCKS names it, and the test that runs it)."""
    assert isinstance(BLOCKS.get((page, after)), Run), f"{page}, {after!r}: not in BLOCKS as a block a test runs"
    return find(page, after).commands
