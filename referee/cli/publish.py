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
    from ..log import Fold, tournaments as tlog, venue as venue_log
    from ..tournament import views as tv
    from ..views import game as gv, tournament as tview
    from ..views.html import render
    from ..views.links import StaticLinks
    from ..views.qr import qr_svg

    t = tlog.fold(tlog.read_events(store, tid))
    loaded = tlog.load(store, tid, t)
    venue = venue_log.read(store, tid)
    tp = tview.tournament_page(loaded, venue)
    out = Path(directory)
    top, sub = StaticLinks(0), StaticLinks(1)
    files = {"index.html": render("tournament.html", web=True, u=top, tp=tp)}
    games: list[str] = []
    for n in tp["posted"]:
        s = tview.seating_page(loaded, venue, n)
        files[f"seating-{n}.html"] = render("seating.html", web=True, u=top, tp=tp, s=s)
        files[f"tables-{n}.html"] = render(
            "tables.html", web=True, u=top, tp=tp, round=n, tables_status=tv.table_status(loaded, n)
        )
        files[f"sheets/seating-{n}.html"] = render(
            "sheet.html", web=True, u=sub, tp=tp, s=s, url=url, qr=qr_svg(url) if url else ""
        )
        games += [tb["game"] for tb in s["tables"] if tb["game"]]
    for pid in t.players:
        files[f"players/{pid}.html"] = render(
            "player.html", web=True, u=sub, tp=tp, p=tview.player_page(loaded, venue, pid)
        )
    for game in games:
        events = store.events(game)
        if not events:
            continue
        fold = Fold.of(events)
        g = gv.game_page(events, fold=fold)
        files[f"games/{game}.html"] = render("game.html", web=True, u=sub, g=g)
        files[f"games/{game}-board.svg"] = g["board_svg"]
        for p in fold.rounds:
            svg = gv.round_svg(fold, p.round)
            files[f"games/{game}-round-{p.round}.svg"] = svg
            files[f"games/{game}-round-{p.round}.html"] = render(
                "round.html", web=True, u=sub, g=g, r={**g["rounds"][p.round - 1], "svg": svg}
            )
    for name, text in files.items():
        _write(out / name, text)
    return len(files)
