"""`referee tournament publish`: the venue pages written as a static site, for a web host or a USB stick
when the venue's Wi-Fi isolates devices. The same templates as `referee serve`, with relative links; no
script; every printed seating sheet carries the site's address and its QR code (segno)."""

from __future__ import annotations

from pathlib import Path

from ..engine import RefereeError


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    except OSError as exc:
        raise RefereeError(f"{path}: cannot be written ({exc.strerror or exc.__class__.__name__})") from None


def publish_site(store, tid: str, directory: Path, *, url: str = "") -> int:
    """Every page of ``site.tournament_site`` written under ``directory``, each at its published file name; the
    number of files."""
    from ..log import tournaments as tlog, venue as venue_log
    from ..views import site
    from ..views.html import render
    from ..views.links import StaticLinks

    loaded = tlog.load(store, tid)
    venue = venue_log.read(store, tid)
    names = StaticLinks(0)
    written = 0
    for page in site.tournament_site(loaded, venue, url=url, events_of=store.events):
        name = names(*page.link)
        text = (
            page.body
            if not page.template
            else render(page.template, web=True, u=StaticLinks(name.count("/")), **page.context)
        )
        _write(Path(directory) / name, text)
        written += 1
    return written
