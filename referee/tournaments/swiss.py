"""A Swiss tournament's stream in the tournament tables (log/tournaments.py: the same append-only, hash-chained
rows), its fold, its verification (the chain, and every pairing found again by the algorithm it names), and
the reading of a result from a verified card game match log."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..engine.tournament.events import TournamentError, payload_of
from ..engine.tournament.swiss import ALGORITHM, SwissError, pair_round
from ..engine.tournament.swiss_desk import SwissCreated, SwissResultRecorded, SwissTournament, event_of, is_swiss
from ..games.ccg import service as ccg_log
from ..store.events import Event, check_chain
from ..store.storage import Store
from .service import TOURNAMENTS, fold_into, read_events, store_verified


def fold(events: Sequence[Event]) -> SwissTournament:
    return fold_into(SwissTournament(), events, event_of)


class OpenSwiss:
    """A Swiss tournament read and folded once; ``record`` checks new events on a copy, then stores them all."""

    def __init__(self, store: Store, tid: str):
        self.store, self.tid = store, tid
        self.events = read_events(store, tid)
        if not is_swiss(self.events[0].type):
            raise TournamentError(
                f"tournament {tid!r} is seated at tables (Battle for Rokugan), not a Swiss tournament",
                hint=f"its commands are `referee tournament ... {tid}`",
            )
        self.t = fold(self.events)

    def record(self, items: Iterable[Any]) -> list[Event]:
        trial = fold(self.events)  # a refusal leaves self.t as it was
        payloads = []
        for item in items:
            trial.apply(item)
            payloads.append(payload_of(item))
        out = self.store.append(self.tid, payloads, self.events[-1], family=TOURNAMENTS) if payloads else []
        self.events += out
        self.t = trial
        return out


def create(store: Store, created: SwissCreated) -> Event:
    SwissTournament().apply(created)
    return store.append(created.tournament, [payload_of(created)], None, family=TOURNAMENTS)[0]


def verify(events: Sequence[Event]) -> list[str]:
    """Every problem, one line each: the chain, a refused event, a pairing the algorithm does not give."""
    broken = check_chain(events)
    if broken is not None:
        return [str(broken)]
    problems: list[str] = []
    t = SwissTournament()
    for e in events:
        try:
            event = event_of(e.type, e.payload)
            if e.type == "SwissRoundPaired" and e.payload.get("algorithm") == ALGORITHM:
                again = pair_round(event.round, list(t.players), t.results(), t.dropped, version=event.version)
                if [list(p) for p in again.pairs] != event.pairs or again.bye != event.bye:
                    problems.append(f"event {e.seq}: round {event.round}'s pairing is not what {ALGORITHM} gives")
            t.apply(event)
        except (TournamentError, SwissError) as exc:
            problems.append(f"event {e.seq}: {exc}")
            break
    return problems


def result_from_match(store: Store, t: SwissTournament, round_no: int, game: str, reason: str) -> SwissResultRecorded:
    """A table's result read from a card game match log: verified, finished, and between that table's players
    (the match's players named by their tournament ids)."""
    events = store.events(game)
    found = ccg_log.verify(events)
    if found is not None:
        raise TournamentError(f"match {game!r} does not verify: {found}")
    match = ccg_log.MatchFold.of(events).match
    assert match is not None
    if match.result is None:
        raise TournamentError(f"match {game!r} is not finished (turn {match.turn})")
    names = {p.name for p in match.players}
    table = t.table_number(round_no, next(iter(names)) if names else "")
    pair = set(t.rounds[round_no].pairs[table - 1])
    if names != pair:
        raise TournamentError(
            f"match {game!r} is between {' and '.join(sorted(names))}; round {round_no}, table {table} is "
            f"{' against '.join(sorted(pair))}"
        )
    r = match.result
    return SwissResultRecorded(round_no, table, r.winner, str(r.victory), game, reason)


def import_log(store: Store, events: Sequence[Event]) -> SwissTournament:
    """Verified first (the chain, every event, every pairing found again); then stored whole, or nothing."""
    if not events or not is_swiss(events[0].type):
        raise TournamentError("not a Swiss tournament's export (its first event is not SwissCreated)")
    store_verified(store, events, verify(events))
    return fold(events)
