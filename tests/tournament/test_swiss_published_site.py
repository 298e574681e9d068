"""`referee tournament publish` of a Swiss tournament: the 32-player Kotei of tests/support/kotei.py, run
through the commands, written as a static site and served by `referee serve`. The site is the pages of
`site.swiss_site` and nothing else; each published page is the page served at the same address (its title,
navigation and content, every link pointing at the same page); the served pages link to no page the site lacks;
the published links all resolve, with no script and every name shown as text. (The browser test, at three
sizes: tests/web/test_card_game_pages_browser.py.)"""

import posixpath
import re
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from referee.store.storage import Store
from referee.tournaments import service as tlog
from referee.tournaments.swiss import fold
from referee.views import site as vsite
from referee.views.links import ServedLinks, StaticLinks
from referee.web import venue_app
from tests.support import databases, kotei
from tests.support.entry_point import referee
from tests.support.serving import cli


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    db = databases.kotei(tmp_path_factory.mktemp("swiss-publish") / "kotei.db")
    cli(db, "tournament", "new", "spring", "--name", "Spring Open", "--rounds", "3")  # a table-seated one beside it
    return db


@pytest.fixture(scope="module")
def client(db):
    with TestClient(venue_app(db), base_url="http://localhost") as c:
        yield c


@pytest.fixture(scope="module")
def pages(db):
    with Store(db, create=False) as store:
        return list(vsite.swiss_site(fold(tlog.read_events(store, kotei.TID)), events_of=store.events))


@pytest.fixture(scope="module")
def published(db, tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "kotei"
    said = cli(db, "tournament", "publish", kotei.TID, str(out))
    assert said.startswith(f"{kotei.TID}: 50 files written to ")
    return out


def test_the_published_files_are_the_pages_of_the_swiss_site(published, pages):
    written = sorted(p.relative_to(published).as_posix() for p in published.rglob("*") if p.is_file())
    assert written == sorted(StaticLinks(0)(*p.link) for p in pages)
    kinds = sorted({p.link[0] for p in pages})
    assert kinds == ["game", "player", "swiss_round", "swiss_slips", "tournament"]
    assert [p.link for p in pages if p.link[0] == "game"] == [("game", kotei.MATCH)]  # the match read from its log
    assert len([p for p in pages if p.link[0] == "swiss_round"]) == 5 + 3  # five Swiss rounds, the cut's three
    assert len([p for p in pages if p.link[0] == "swiss_slips"]) == 5 + 3  # each round's match slips


def canonical(html: str, resolve) -> str:
    """A page's title, site navigation and content, each link replaced by the published file it points at."""
    parts = [
        re.search(r"<title>.*?</title>", html, re.S).group(0),
        re.search(r'<nav aria-label="site">.*?</nav>', html, re.S).group(0),
        re.search(r'<main id="main">.*?</main>', html, re.S).group(0),
    ]

    def link(m: re.Match) -> str:
        target, _, fragment = m.group(2).partition("#")
        return f'{m.group(1)}="{resolve(target) if target else ""}{"#" + fragment if fragment else ""}"'

    return re.sub(r'\b(href|src)="([^"]*)"', link, "\n".join(parts))


def test_each_published_page_is_the_page_served_at_its_address(published, pages, client):
    """The same template and data at both addresses: once the links are resolved to the pages they name, the
    published file and the served page are one text."""
    to_file = {ServedLinks()(*p.link): StaticLinks(0)(*p.link) for p in pages} | {"/": "index.html"}
    for p in pages:
        name = StaticLinks(0)(*p.link)
        served = client.get(ServedLinks()(*p.link))
        assert served.status_code == 200 and served.headers["content-type"].startswith(p.media_type), p.link
        text = (published / name).read_text("utf-8")
        here = posixpath.dirname(name)
        mine = canonical(text, lambda href, here=here: posixpath.normpath(posixpath.join(here, href)))
        screen = f'<li><a href="/tournaments/{kotei.TID}/projector">Projector</a></li>'  # the venue's screen: served
        assert (screen in served.text) == (p.link[0] in ("tournament", "swiss_round", "player")), p.link
        theirs = canonical(
            served.text.replace(screen, ""), lambda href: to_file[href]
        )  # a link the site lacks: KeyError
        assert mine == theirs and len(mine) > 600, name
        assert 'id="fresh"' in served.text and "<script" not in text  # served pages poll; published ones cannot


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.scripts = [], 0

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def test_the_served_pages_link_to_no_page_the_site_lacks(client, pages):
    """From the standings, every tournament page and match page `referee serve` links to is a page of the site,
    and every page of the site is reached: serve and publish show one set of pages (the projector aside: the
    venue's screen, served only)."""
    site_paths = {ServedLinks()(*p.link) for p in pages}
    seen, todo = set(), [f"/tournaments/{kotei.TID}"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        parser = Links()
        parser.feed(client.get(path).text)
        todo += [
            href.split("#")[0]
            for href in parser.links
            if href.startswith((f"/tournaments/{kotei.TID}", "/games/")) and not href.endswith("/projector")
        ]
    assert seen == site_paths


def test_the_published_links_resolve_and_names_are_text(published):
    for page in sorted(published.rglob("*.html")):
        text = page.read_text("utf-8")
        parser = Links()
        parser.feed(text)
        assert parser.scripts == 0 and "Kotei <Oslo>" not in text and "Kotei &lt;Oslo&gt;" in text, page
        for link in parser.links:
            assert not re.match(r"^[a-z]+:", link), (page, link)  # relative: works from file:// and any host
            target = link.split("#")[0]
            if target:
                assert (page.parent / target).resolve().exists(), (page, link)
    index = (published / "index.html").read_text("utf-8")
    assert "wins the tournament" in index and 'class="bracket"' in index
    match = (published / "games" / f"{kotei.MATCH}.html").read_text("utf-8")
    assert "wins: honor victory" in match


def test_the_round_and_player_pages_show_what_the_commands_say(db, client):
    import json

    paired = json.loads(cli(db, "tournament", "swiss", "pairings", kotei.TID, "2", "--json"))
    page = client.get(f"/tournaments/{kotei.TID}/rounds/2").text
    assert "corrected" in page and "swiss-blossom v2" in page  # the judge's correction, the pairing's algorithm
    for t in paired["tables"]:
        a, b = t["players"]
        assert re.search(
            rf'<td class="num" data-label="table">{t["table"]}</td><td><a href="/tournaments/kotei/players/{a}">', page
        )
    explained = cli(db, "tournament", "swiss", "standings", kotei.TID, "--explain").splitlines()
    dropped = client.get(f"/tournaments/{kotei.TID}/players/{kotei.DROPPED}").text
    line = re.sub(r"<[^>]+>", "", re.search(r'<p class="prose explain"><code>(.*?)</code>', dropped).group(1))
    assert f"  {line}" in explained and "dropped" in dropped
    listed = cli(db, "tournament", "swiss", "standings", kotei.TID).splitlines()  # the text marks the drop too
    assert [ln for ln in listed if "Player 32" in ln][0].split(".", 1)[1].strip().startswith("Player 32 (dropped)")
    assert f'href="/games/{kotei.MATCH}"' in client.get(f"/tournaments/{kotei.TID}/rounds/1").text


@pytest.mark.parametrize(
    "path",
    [
        f"/tournaments/{kotei.TID}/rounds/9",  # not paired
        f"/tournaments/{kotei.TID}/rounds/x",
        f"/tournaments/{kotei.TID}/rounds/" + "1" * 40,
        f"/tournaments/{kotei.TID}/rounds/9/slips",  # a round not paired has no slips
        f"/tournaments/{kotei.TID}/rounds/x/slips",
        "/tournaments/spring/rounds/1/slips",  # nor a table-seated tournament
        "/tournaments/nope/projector",
        f"/tournaments/{kotei.TID}/players/nobody",
        f"/tournaments/{kotei.TID}/players/Bad%20Id",
        f"/tournaments/{kotei.TID}/seating/1",  # a Swiss tournament has no seating at tables
        "/tournaments/spring/rounds/1",  # a table-seated tournament has no Swiss round
        "/tournaments/nope/rounds/1",
        "/tournaments/Bad!/rounds/1",
    ],
)
def test_an_unknown_round_or_player_is_a_404_page(client, path):
    page = client.get(path)
    assert page.status_code == 404 and 'href="/"' in page.text


def test_publishing_an_unknown_tournament_is_one_line(db, tmp_path):
    result = referee(db, "tournament", "publish", "nope", str(tmp_path / "out"), home=tmp_path)
    assert result.returncode == 1 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0] == "error: no tournament 'nope' in this database"
    assert not (tmp_path / "out").exists()
