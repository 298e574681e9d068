"""A Swiss tournament's stream in the tournament tables (tournaments/service.py: the same append-only, hash-chained
rows), its fold, the pairing of the next round (round 1's seed drawn here, at random, and recorded with it: the
pure rules take it), a round given by hand, its verification (the chain, and every pairing found again by the
algorithm and seed it names; a pairing or a swap made by hand named as such), and the reading of a result from
a verified card game match log."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.tournament.events import TournamentError, payload_of
from ..engine.tournament.swiss import ALGORITHM, COSTS, GIVEN, SwissError, pair_cost, pair_round, stage
from ..engine.tournament.swiss_desk import (
    SwissCreated,
    SwissCutPaired,
    SwissPairingWithdrawn,
    SwissPlayersSwapped,
    SwissResultRecorded,
    SwissRoundPaired,
    SwissTournament,
    event_of,
    is_swiss,
    pairing_event,
)
from ..games.ccg import service as ccg_log
from ..store.events import Event, check_chain
from ..store.storage import Store
from .service import TOURNAMENTS, fold_into, read_events, store_verified

SEEDS = 10**12  # round 1's seed: drawn from 0 to 10^12 - 1 (about 40 bits), or given by the organiser


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


def draw_seed() -> int:
    """Round 1's seed, drawn at random (the operating system's generator) and recorded with the pairing."""
    return secrets.randbelow(SEEDS)


def next_pairing(t: SwissTournament, seed: int | None = None) -> SwissRoundPaired | SwissCutPaired:
    """The next round's pairing, refused (naming the tables) while the last round has a table without a result:
    a Swiss round by swiss-blossom, round 1 in the order of a seed (``seed``, else one drawn at random); after
    the Swiss rounds, the cut's next elimination round by the bracket."""
    n = t.next_round
    t.check_finished()
    if seed is not None and n != 1:
        raise TournamentError(f"round {n}: a seed orders round 1 only; later rounds are paired by the standings")
    if seed is not None and not 0 <= seed < SEEDS:
        raise TournamentError(f"seed {seed}: a seed is a whole number from 0 to {SEEDS - 1}")
    if n > t.created.rounds:
        return SwissCutPaired(n, [list(p) for p in t.cut_pairs()])
    if n == 1 and seed is None:
        seed = draw_seed()
    try:
        return pairing_event(pair_round(n, list(t.players), t.results(), t.dropped, seed=seed))
    except SwissError as exc:
        raise TournamentError(str(exc)) from None


def given_pairing(
    t: SwissTournament, round_no: int, pairs: Sequence[tuple[str, str]], bye: str | None, reason: str
) -> SwissRoundPaired:
    """A Swiss round paired by hand (on paper, or by the judge), recorded as given with its reason and with the
    cost swiss-blossom counts (rematches first), so that a reader sees what the hand chose. The fold checks
    that it seats every player still in exactly once."""
    if not reason.strip():
        raise TournamentError(f"round {round_no}: a pairing given by hand needs a reason (--reason)")
    if round_no > t.created.rounds:
        raise TournamentError(f"round {round_no} is a round of the cut: its pairs follow the bracket")
    table = {s.player: s for s in t.standings()}
    met = {frozenset((r.a, r.b)) for r in t.results() if r.b is not None}
    costs = [pair_cost(table[a], table[b], met) for a, b in pairs if a in table and b in table]
    cost = {name: sum(c[k] for c in costs) for k, name in enumerate(COSTS)}
    return SwissRoundPaired(round_no, [list(p) for p in pairs], bye, GIVEN, 1, cost, None, reason.strip())


# --- verification ----------------------------------------------------------------------------------------------
@dataclass
class Audit:
    """What `swiss verify` found: the problems (none: verified), and each round's pairings, how each was checked."""

    events: int
    problems: list[str] = field(default_factory=list)
    rounds: dict[int, list[str]] = field(default_factory=dict)  # round -> what was found of it, in order
    found: int = 0  # pairings recomputed and found again (the cut's rounds included)
    given: int = 0  # pairings given by hand: recorded, not recomputed
    swaps: int = 0  # players swapped by hand in a pairing found again

    def summary(self) -> str:
        """One sentence: never "every pairing found again" when one was given by hand."""
        found = f"{self.found} pairing{'s' if self.found != 1 else ''}"
        said = (
            f"{found} found again, {self.given} given by hand" if self.given else f"every pairing found again ({found})"
        )
        if self.swaps:
            said += f", then {self.swaps} swap{'s' if self.swaps != 1 else ''} by hand"
        return said + (" (named below, not recomputed)" if self.given or self.swaps else "")


def _quoted(reason: str) -> str:
    return f' ("{reason}")' if reason.strip() else " (no reason recorded)"


def audit(events: Sequence[Event]) -> Audit:
    """Every problem, one line each (the chain, a refused event, a pairing its algorithm and seed do not give), and
    for each round how its pairing was checked: found again, or given or changed by hand (with the reason)."""
    out = Audit(len(events))
    broken = check_chain(events)
    if broken is not None:
        out.problems.append(str(broken))
        return out
    t = SwissTournament()
    for e in events:
        try:
            event = event_of(e.type, e.payload)
            if isinstance(event, SwissRoundPaired):
                _check_pairing(t, e.seq, event, out)
            t.apply(event)
            if isinstance(event, SwissCutPaired):  # the fold takes only the bracket's pairs: found again
                name = stage(len(event.pairs)).lower()
                out.rounds.setdefault(event.round, []).append(f"the cut's {name}, by the bracket: found again")
                out.found += 1
            elif isinstance(event, SwissPairingWithdrawn):
                out.rounds.setdefault(event.round, []).append(f"withdrawn before any result{_quoted(event.reason)}")
            elif isinstance(event, SwissPlayersSwapped):
                a, b = (t.name(t.player(p)) for p in event.players)
                out.rounds.setdefault(event.round, []).append(f"{a} and {b} swapped by hand{_quoted(event.reason)}")
                out.swaps += 1
        except (TournamentError, SwissError) as exc:
            out.problems.append(f"event {e.seq}: {exc}")
            break
    return out


def _check_pairing(t: SwissTournament, seq: int, event: SwissRoundPaired, out: Audit) -> None:
    said = out.rounds.setdefault(event.round, [])
    if event.algorithm == GIVEN:
        said.append(f"given by hand{_quoted(event.reason)}")
        out.given += 1
        return
    if event.algorithm != ALGORITHM:
        known = f"{ALGORITHM}, or {GIVEN} by hand"
        out.problems.append(f"event {seq}: round {event.round} was paired by {event.algorithm!r}, not by {known}")
        return
    again = pair_round(event.round, list(t.players), t.results(), t.dropped, version=event.version, seed=event.seed)
    if [list(p) for p in again.pairs] != event.pairs or again.bye != event.bye:
        out.problems.append(f"event {seq}: round {event.round}'s pairing is not what {ALGORITHM} gives")
        return
    seeded = f" from its seed {event.seed}" if event.seed is not None else ""
    said.append(f"{ALGORITHM} v{event.version}{seeded}: found again")
    out.found += 1


def verify(events: Sequence[Event]) -> list[str]:
    """Every problem, one line each: the chain, a refused event, a pairing the algorithm does not give."""
    return audit(events).problems


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
