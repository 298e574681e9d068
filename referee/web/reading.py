"""What the pages read, and the one cache in front of it: the store and the cache reach each request as
FastAPI dependencies (``reader``). Every id in a URL is checked against its grammar before the database is
asked anything; an unknown or malformed id is ``NotFound``. Nothing here writes: a database without the
tournament tables simply has no tournament (the tables are made by the commands that record, never by a page)."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import partial
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlalchemy import inspect

from ..games.battle.fold import Fold
from ..store.families import UnknownGame
from ..store.storage import Store
from ..views import game as gv, tournament as tview

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # the log's game id grammar
ROUND_NO = re.compile(r"[1-5]")


class NotFound(Exception):
    def __init__(self, message: str):
        self.message = message


def check_game(game: str) -> str:
    if not GAME_ID.fullmatch(game or ""):
        raise NotFound("No such game: a game id is letters, digits, '-', '_' or '.'.")
    return game


class Cache:
    """Folds and page data by (game, events, last hash): a log only grows, so that key names its content."""

    def __init__(self, size: int = 512):
        self.size, self.lock = size, threading.Lock()
        self.items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


def etag_of(value: Any) -> str:
    return '"' + hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:20] + '"'


def has_tournaments(store: Store) -> bool:
    """Whether the tournament tables exist: asked before any tournament read, which would otherwise make them."""
    return inspect(store.engine).has_table("tournament_event")


class Reader:
    """One request's reads: games and tournaments as the venue may see them, folded once per state (``cache``)."""

    def __init__(self, store: Store, cache: Cache):
        self.store, self.cache = store, cache

    # --- games ------------------------------------------------------------------------------------------
    def hidden_games(self) -> frozenset[str]:
        """The games of tournament rounds whose seating is not posted (``tournament.posting``)."""
        from ..engine.tournament import posting
        from ..engine.tournament.swiss_desk import is_swiss
        from ..tournaments import service as tlog, venue as venue_log

        listed = self.tournaments()
        if not listed:
            return frozenset()
        key = ("hidden", tuple((t["tournament"], t["events"]) for t in listed), venue_log.total(self.store))

        def compute() -> frozenset[str]:
            out: set[str] = set()
            for t in listed:
                events = tlog.read_events(self.store, t["tournament"])
                if is_swiss(events[0].type):  # a Swiss tournament creates no game: nothing to hide
                    continue
                tour = tlog.fold(events)
                out |= posting.unposted_games(tour, venue_log.read(self.store, t["tournament"]).posted)
            return frozenset(out)

        return self.cache.get(key, compute)

    def shown_games(self) -> list:
        hidden = self.hidden_games()
        return [g for g in self.store.games() if g.game not in hidden]

    def events_of(self, game: str):
        check_game(game)
        if game in self.hidden_games():
            raise NotFound(f"No game {game!r} in this database.")
        try:
            events = self.store.events(game)
        except UnknownGame:
            raise NotFound(f"No game {game!r} in this database.") from None
        if not events:
            raise NotFound(f"No game {game!r} in this database.")
        return events

    def battle_events_of(self, game: str):
        """A Battle for Rokugan game's events; a record of another kind has no board, rounds, score or replay
        of that game's (``NotFound`` naming what reads it: its page is ``/games/ID``)."""
        from ..games.registry import foreign

        events = self.events_of(game)
        why = foreign(events)
        if why is not None:
            raise NotFound(f"{game!r} is {why}; its page is /games/{game}.")
        return events

    def fold_of(self, game: str):
        events = self.battle_events_of(game)
        key = (game, len(events), events[-1].hash)
        return events, self.cache.get(("fold",) + key, lambda: Fold.of(events)), key

    def signature(self, events) -> str:
        """The game's organiser's signature as ``verify`` states it (``signing.check_stored``'s status: who
        signed, refused and why, or unsigned). Cached by the game's head and its signatures: a game signed
        later (``referee key sign``) is read again, though its events are the same."""
        from ..records import signing

        sigs = signing.signatures(self.store, "game", events[0].game)
        key = ("signed", events[0].game, len(events), events[-1].hash, tuple(s.value for s in sigs))
        return self.cache.get(key, lambda: signing.check_stored(self.store, "game", events, None, sigs).status)

    def game_page(self, game: str, pictures: str = "last"):
        events, fold, key = self.fold_of(game)
        g = self.cache.get((pictures,) + key, lambda: gv.game_page(events, fold=fold, pictures=pictures))
        return events, fold, key, g

    def round_svg(self, fold, key, n: int) -> str:
        return self.cache.get(("svg", n) + key, lambda: gv.round_svg(fold, n))

    def held(self, game: str) -> list:
        """Another record's events, none when the database does not hold it (a campaign's logged scenarios)."""
        try:
            return self.store.events(game) if GAME_ID.fullmatch(game) and self.store.exists(game) else []
        except UnknownGame:
            return []

    def record_page(self, events):
        """The page of a record whose game draws its own (``site.record_site``: a card game match, a Champions
        scenario or campaign), folded once per state (a campaign's with the logged scenarios it links, folded
        each time: they may move); None for a Battle for Rokugan game."""
        from ..views import site

        own = site.record_site(events)
        if own is None:
            return None
        build = lambda: next(own.pages(events, events_of=self.held))  # noqa: E731 - asked by the cache
        if not own.own_head:
            return build()
        return self.cache.get(("record", events[0].game, len(events), events[-1].hash), build)

    @staticmethod
    def head(events) -> str:
        return etag_of([events[0].game, len(events), events[-1].hash])

    @staticmethod
    def round_of(fold, game: str, round_no: str) -> int:
        if not ROUND_NO.fullmatch(round_no) or int(round_no) > len(fold.rounds):
            raise NotFound(f"Game {game!r} has no round {round_no!r}: {len(fold.rounds)} played.")
        return int(round_no)

    # --- tournaments ------------------------------------------------------------------------------------
    def tournaments(self) -> list[dict[str, Any]]:
        from ..tournaments import service as tlog

        return tlog.list_tournaments(self.store) if has_tournaments(self.store) else []

    def swiss_of(self, tid: str) -> tuple[Any, Any, str] | None:
        """A Swiss tournament's fold, the organiser's notices and the tag of both (None: the id is not a Swiss
        tournament here)."""
        from ..engine.tournament.events import TOURNAMENT_ID
        from ..engine.tournament.swiss_desk import is_swiss
        from ..tournaments import service as tlog, venue as venue_log

        if not TOURNAMENT_ID.fullmatch(tid or "") or not has_tournaments(self.store):
            return None
        try:
            events = tlog.read_events(self.store, tid)
        except tlog.UnknownTournament:
            return None
        if not is_swiss(events[0].type):
            return None
        from ..tournaments.swiss import fold as swiss_fold

        key = ("swiss", tid, len(events), events[-1].hash)
        venue = venue_log.read(self.store, tid)
        tag = etag_of([tid, len(events), events[-1].hash, venue.count])
        return self.cache.get(key, lambda: swiss_fold(events)), venue, tag

    def tournament_of(self, tid: str):
        from ..engine.tournament.events import TOURNAMENT_ID
        from ..engine.tournament.swiss_desk import is_swiss
        from ..tournaments import service as tlog, venue as venue_log

        if not TOURNAMENT_ID.fullmatch(tid or ""):
            raise NotFound("No such tournament: a tournament id is lower-case letters, digits and '-'.")
        if not has_tournaments(self.store):
            raise NotFound(f"No tournament {tid!r} in this database.")
        try:
            events = tlog.read_events(self.store, tid)
        except tlog.UnknownTournament:
            raise NotFound(f"No tournament {tid!r} in this database.") from None
        if is_swiss(events[0].type):  # a Swiss tournament's pages are its own (web/swiss.py)
            raise NotFound(f"Tournament {tid!r} is a Swiss tournament: it has no seating at tables.")
        t = self.cache.get(("tournament", tid, len(events), events[-1].hash), lambda: tlog.fold(events))
        loaded = tlog.load(self.store, tid, t)
        venue = venue_log.read(self.store, tid)
        tag = etag_of(
            [tid, len(events), events[-1].hash, venue.count, sorted((g, v.head) for g, v in loaded.live.items())]
        )
        return loaded, venue, tag

    def tournament_page(self, loaded, venue, tag: str) -> dict:
        """The tournament page's data, computed once per state of the tournament, its games and notices (the
        tag names it); the clock's minutes left are counted at each request."""
        tp = self.cache.get(("tp", loaded.tournament.id, tag), lambda: tview.tournament_page(loaded, venue))
        return {**tp, "clock": tview.clock_view(venue.clock)}

    def game_table(self, game: str) -> dict | None:
        """The posted tournament table a game is played at, and whether it was called or entered by the judge."""
        from ..tournaments import service as tlog, venue as venue_log

        for t in self.tournaments():
            tid = t["tournament"]
            events = tlog.read_events(self.store, tid)
            tour = self.cache.get(("tournament", tid, len(events), events[-1].hash), partial(tlog.fold, events))
            found = tview.game_table(tour, venue_log.read(self.store, tid).posted, game)
            if found:
                return found
        return None

    @staticmethod
    def posted_round(loaded, venue, tid: str, round_no: str) -> int:
        if not re.fullmatch(r"[0-9]{1,2}", round_no or "") or not tview.visible(loaded, venue, int(round_no)):
            raise NotFound(f"Tournament {tid!r}: the seating of round {round_no!r} is not posted.")
        return int(round_no)

    @staticmethod
    def player_of(loaded, tid: str, player: str) -> str:
        from ..engine.tournament.events import PLAYER_ID

        if not PLAYER_ID.fullmatch(player or "") or player not in loaded.tournament.players:
            raise NotFound(f"Tournament {tid!r} has no player {player!r}.")
        return player


def get_store(request: Request) -> Store:
    return request.app.state.store


def get_cache(request: Request) -> Cache:
    return request.app.state.cache


def get_reader(store: Annotated[Store, Depends(get_store)], cache: Annotated[Cache, Depends(get_cache)]) -> Reader:
    return Reader(store, cache)


Read = Annotated[Reader, Depends(get_reader)]
