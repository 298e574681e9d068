"""The venue's pages, each written once: its address (a link kind and its arguments, which ``links`` turns into
a served path or a published file name), its template and the data it shows. `referee serve` builds the page
it is asked for with these functions; `referee tournament publish` writes every page of ``tournament_site``,
the set of pages a tournament has once its rounds are posted, or ``swiss_site``, a Swiss tournament's."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.tournament import posting
from ..games.kinds import CCG, CHAMPIONS, CHAMPIONS_CAMPAIGN, kind_of
from . import game as gv, swiss as sv, tournament as tview
from .qr import qr_svg


@dataclass(frozen=True)
class Page:
    link: tuple[str, ...]  # (kind, *args), as ``links`` names the pages
    template: str = ""  # "": the page is ``body`` as it stands (a picture)
    context: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    media_type: str = "text/html"


# --- a game ------------------------------------------------------------------------------------------------
def game(g: dict, at: dict | None = None, signed: str = "") -> Page:
    """A game's page; ``at``: its tournament table, labelled when called or entered by the judge; ``signed``:
    the organiser's signature, as `verify` states it (the HTML record's line)."""
    return Page(("game", g["game"]), "game.html", {"g": g, "at": at, "signed": signed})


def game_round(g: dict, round_no: int, svg: str) -> Page:
    return Page(
        ("round", g["game"], str(round_no)), "round.html", {"g": g, "r": {**g["rounds"][round_no - 1], "svg": svg}}
    )


def board_picture(game_id: str, svg: str) -> Page:
    return Page(("board_svg", game_id), body=svg, media_type="image/svg+xml")


def round_picture(game_id: str, round_no: int, svg: str) -> Page:
    return Page(("round_svg", game_id, str(round_no)), body=svg, media_type="image/svg+xml")


def game_site(events: Sequence, fold, at: dict | None = None) -> Iterator[Page]:
    """A game's page, its board, and each round's page and picture."""
    g = gv.game_page(events, fold=fold)
    yield game(g, at)
    yield board_picture(g["game"], g["board_svg"])
    for p in fold.rounds:
        svg = gv.round_svg(fold, p.round)
        yield round_picture(g["game"], p.round, svg)
        yield game_round(g, p.round, svg)


# --- a tournament ------------------------------------------------------------------------------------------
def standings(tp: dict) -> Page:
    return Page(("tournament", tp["id"]), "tournament.html", {"tp": tp})


def seating(tp: dict, s: dict) -> Page:
    return Page(("seating", tp["id"], str(s["round"])), "seating.html", {"tp": tp, "s": s})


def tables(loaded, tp: dict, round_no: int) -> Page:
    return Page(
        ("tables", tp["id"], str(round_no)),
        "tables.html",
        {"tp": tp, "round": round_no, "tables_status": tview.table_status(loaded, round_no)},
    )


def sheet(tp: dict, s: dict, url: str) -> Page:
    """The printable seating of a round, with the address of the venue pages and its QR code."""
    return Page(
        ("sheet", tp["id"], str(s["round"])),
        "sheet.html",
        {"tp": tp, "s": s, "url": url, "qr": qr_svg(url) if url else ""},
    )


def player(tp: dict, p: dict) -> Page:
    return Page(("player", tp["id"], p["player"]), "player.html", {"tp": tp, "p": p})


def tournament_site(loaded, venue, *, url: str, events_of: Callable[[str], Sequence]) -> Iterator[Page]:
    """Every page of a tournament as the venue may see it (``posting``: nothing of an unposted round): the
    standings, each posted round's seating, tables and printable sheet, each player's page, and each game of a
    posted round with its rounds. ``events_of``: a game's events (none: the game is not begun)."""
    from ..games.battle.fold import Fold

    tp = tview.tournament_page(loaded, venue)
    yield standings(tp)
    for n in tp["posted"]:
        s = tview.seating_page(loaded, venue, n)
        yield seating(tp, s)
        yield tables(loaded, tp, n)
        yield sheet(tp, s, url)
    for pid in loaded.tournament.players:
        yield player(tp, tview.player_page(loaded, venue, pid))
    for game_id in posting.posted_games(loaded.tournament, venue.posted):
        events = events_of(game_id)
        if events:
            yield from game_site(events, Fold.of(events), tview.game_table(loaded.tournament, venue.posted, game_id))


# --- a Swiss tournament (one against one: the card game's Kotei) -------------------------------------------
def match(m: dict) -> Page:
    """A card game match's page: its players, where it stands, every event with what it did."""
    return Page(("game", m["game"]), "match.html", {"m": m})


def swiss_standings(s: dict) -> Page:
    return Page(("tournament", s["id"]), "swiss.html", {"s": s})


def swiss_round(s: dict, r: dict) -> Page:
    return Page(("swiss_round", s["id"], str(r["round"])), "swiss_round.html", {"s": s, "r": r})


def swiss_player(s: dict, p: dict) -> Page:
    return Page(("player", s["id"], p["id"]), "swiss_player.html", {"s": s, "p": p})


def swiss_slips(s: dict, r: dict) -> Page:
    """A round's printable match slips: one a table, each on its own A4 page."""
    return Page(("swiss_slips", s["id"], str(r["round"])), "swiss_slips.html", {"s": s, "r": r})


def swiss_site(t, venue=None, *, events_of: Callable[[str], Sequence]) -> Iterator[Page]:
    """Every page of a Swiss tournament as the venue may see it (``posting``: nothing of a round held back): the
    standings with the cut's bracket, each round's pairing and results and its match slips, each player's page,
    and each match whose result was taken from its log (``events_of``: a match's events)."""
    s = sv.header(t, venue)
    yield swiss_standings(sv.standings_page(t, venue))
    for n in sv.shown_rounds(t, venue):
        yield swiss_round(s, sv.round_page(t, n))
        yield swiss_slips(s, sv.slips_page(t, n))
    for pid in t.players:
        yield swiss_player(s, sv.player_page(t, pid, venue))
    for game_id in sv.match_logs(t, venue):
        events = events_of(game_id)
        own = record_site(events) if events else None
        if own is not None:
            yield next(own.pages(events, events_of=events_of))


# --- Champions of Rokugan -----------------------------------------------------------------------------------
def champions_scenario(p: dict) -> Page:
    """A Champions scenario's page: the tracking board, the Champions, Glory and Group Honor turn by turn."""
    return Page(("game", p["game"]), "champions.html", {"p": p})


def champions_campaign(c: dict) -> Page:
    """A Champions campaign's page: its Campaign Log and each player's Glory play by play."""
    return Page(("game", c["campaign"]), "champions_campaign.html", {"c": c})


def champions_site(events: Sequence, *, events_of: Callable[[str], Sequence]) -> Iterator[Page]:
    """A Champions record's pages: a scenario's, or a campaign's and each logged scenario's the database holds
    (``events_of``: a record's events, none when it is not held)."""
    from ..games.champions.events import is_scenario
    from .champions import campaign_page, scenario_page

    if is_scenario(events):
        yield champions_scenario(scenario_page(events))
        return
    held = {}

    def exists(game: str) -> bool:
        if game not in held:
            held[game] = list(events_of(game))
        return bool(held[game]) and is_scenario(held[game])

    c = campaign_page(events, exists)
    yield champions_campaign(c)
    for play in c["plays"]:
        if play["linked"]:
            yield champions_scenario(scenario_page(held[play["game"]]))


# --- a record whose game draws its own pages (not a Battle for Rokugan game's) ---------------------------------
def _match_site(events: Sequence, *, events_of: Callable[[str], Sequence]) -> Iterator[Page]:
    from .ccg import match_page

    yield match(match_page(events))


@dataclass(frozen=True)
class RecordSite:
    pages: Callable[..., Iterator[Page]]  # the record's pages, its own first (``events_of``: another record's)
    own_head: bool  # its pages are its own events' alone: the same while its head is (a campaign reads others)


RECORD_SITES = {  # by the record's kind; a Battle for Rokugan game's pages are the game pages above
    CCG.name: RecordSite(_match_site, True),
    CHAMPIONS.name: RecordSite(champions_site, True),
    CHAMPIONS_CAMPAIGN.name: RecordSite(champions_site, False),
}


def record_site(events: Sequence) -> RecordSite | None:
    """The pages of a record whose game draws its own, by its kind; None for a Battle for Rokugan game."""
    return RECORD_SITES.get(kind_of(events))
