"""`referee tournament publish`: the venue pages written as a static site, for a web host or a USB stick
when the venue's Wi-Fi isolates devices. The same templates as `referee serve`, with relative links; no
script; every printed seating sheet carries the site's address and its QR code (segno)."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import RefereeError


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    except OSError as exc:
        raise RefereeError(f"{path}: cannot be written ({exc.strerror or exc.__class__.__name__})") from None


def publish_site(store, tid: str, directory: Path, *, url: str = "") -> int:
    """Every page of the tournament's site (``site.tournament_site``, or ``site.swiss_site`` for a Swiss
    tournament) written under ``directory``, each at its published file name; the number of files."""
    from ..views.html import render
    from ..views.links import StaticLinks

    names = StaticLinks(0)
    written = 0
    for page in site_pages(store, tid, url=url):
        name = names(*page.link)
        text = (
            page.body
            if not page.template
            else render(page.template, web=True, u=StaticLinks(name.count("/")), **page.context)
        )
        _write(Path(directory) / name, text)
        written += 1
    return written


def site_pages(store, tid: str, *, url: str = ""):
    """The pages of the tournament ``tid`` as the venue may see them, of either kind of tournament."""
    from ..engine.tournament.swiss_desk import is_swiss
    from ..tournaments import service as tlog, venue as venue_log
    from ..views import site

    events = tlog.read_events(store, tid)
    if is_swiss(events[0].type):
        from ..tournaments.swiss import fold

        return site.swiss_site(
            fold(events), venue_log.read(store, tid), events_of=lambda game: _match_events(store, game)
        )
    loaded = tlog.load(store, tid)
    return site.tournament_site(loaded, venue_log.read(store, tid), url=url, events_of=store.events)


def _match_events(store, game: str) -> list:
    """A match's events, none when the database does not hold it (a tournament imported without its matches)."""
    from ..store.families import UnknownGame

    try:
        return store.events(game)
    except UnknownGame:
        return []


def publish_champions(store, game: str, directory: Path) -> int:
    """A Champions of Rokugan scenario's page, or a campaign's and each logged scenario's it holds
    (``site.champions_site``), written under ``directory`` as a static site, the record's own page also as the
    site's ``index.html``; the number of files."""
    from ..store.families import UnknownGame
    from ..views import site
    from ..views.html import render
    from ..views.links import StaticLinks

    def held(other: str) -> list:
        try:
            return store.events(other) if store.exists(other) else []
        except UnknownGame:
            return []

    names = StaticLinks(0)
    written = 0
    for n, page in enumerate(site.champions_site(store.events(game), events_of=held)):
        name = names(*page.link)
        _write(Path(directory) / name, render(page.template, web=True, u=StaticLinks(name.count("/")), **page.context))
        written += 1
        if n == 0:
            _write(Path(directory) / "index.html", render(page.template, web=True, u=StaticLinks(0), **page.context))
            written += 1
    return written
