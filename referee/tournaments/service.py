"""The tournament service: a tournament's event stream is one family of the store's streams (``TOURNAMENTS``:
tables ``tournament`` and ``tournament_event``, written, chained, read and append-only-guarded by the store as a
game's log is), folded by the pure tournament package (``engine/tournament/``); export, import and verify;
and the tables' games.

Whether a table's game is finished is the fold's answer (``Fold.complete``), its score the engine's
(``final_score``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..core.errors import RefereeError
from ..engine.tournament.events import SIGNED_EVENTS, TournamentError, event_of, payload_of
from ..engine.tournament.model import Tournament
from ..engine.tournament.standings import LiveGame, Loaded, rows_from_scores
from ..games.battle.fold import Fold
from ..games.battle.replay import verify as verify_game
from ..games.battle.service import new_game
from ..store.events import Event, chain as chain_event, check_chain
from ..store.families import Family
from ..store.storage import Store

PAYLOAD_VERSION = 1


class UnknownTournament(TournamentError):
    def __init__(self, tid: str, where: str | None = None):
        super().__init__(f"no tournament {tid!r} in this database", hint="`referee tournament list` lists them")


class TournamentExists(TournamentError):
    def __init__(self, tid: str, where: str | None = None):
        super().__init__(f"a tournament {tid!r} already exists in this database")


class TournamentChanged(TournamentError):
    def __init__(self, tid: str, seq: int):
        super().__init__(
            f"tournament {tid!r}: the tournament changed under you (event {seq} was recorded by someone else), re-run",
            hint="nothing of yours was recorded",
        )


# The tournaments' streams: the store's own tables, chain, append, reader and verify, under their own names.
TOURNAMENTS = Family(
    "tournament",
    "tournament_event",
    "tournament_id",
    "tournament_event_seq",
    "the tournament log is append-only",
    "referee_tournament_append_only",
    unknown=UnknownTournament,
    exists=TournamentExists,
    changed=TournamentChanged,
    version=lambda _: PAYLOAD_VERSION,
)
STORE_TABLES = TOURNAMENTS.tables  # the store's tables of this family (SQL), not a round's tables


# --- the stream ----------------------------------------------------------------------------------------
def chain(tid: str, after: Event | None, type_: str, payload: dict[str, Any], recorded_at: str = "") -> Event:
    """The next event of a tournament: the store's chain, at the tournament's payload version."""
    return chain_event(tid, after, type_, payload, version=PAYLOAD_VERSION, recorded_at=recorded_at)


def read_events(store: Store, tid: str) -> list[Event]:
    return store.events(tid, TOURNAMENTS)


def fold(events: Sequence[Event]) -> Tournament:
    return fold_into(Tournament(), events, event_of)


def fold_into(t: Any, events: Sequence[Event], decode: Any) -> Any:
    """Apply each stored event, decoded by ``decode(type, payload)``, to the tournament ``t`` (either kind of
    tournament desk): a refusal names the tournament and the event."""
    for e in events:
        try:
            t.apply(decode(e.type, e.payload))
        except TournamentError as exc:
            raise TournamentError(f"tournament {e.game!r}, event {e.seq}: {exc}") from None
    return t


class OpenTournament:
    """A tournament's log read and folded once; ``record`` checks new events on the fold, then stores them all in
    one transaction, or nothing."""

    def __init__(self, store: Store, tid: str):
        self.store, self.tid = store, tid
        self.events = read_events(store, tid)
        self.t = fold(self.events)

    @property
    def head(self) -> str:
        return self.events[-1].hash

    def record(self, items: Iterable[Any]) -> list[Event]:
        items = list(items)
        trial = self._trial(items)  # the refusal leaves self.t as it was
        payloads = [payload_of(item) for item in items]
        try:
            out = self.store.append(self.tid, payloads, self.events[-1], family=TOURNAMENTS) if payloads else []
        except TournamentChanged:
            # Another writer recorded first: read the log again. If the events are refused now (a judge's result
            # whose version was replaced meanwhile), that refusal says what the other writer recorded.
            self.events = read_events(self.store, self.tid)
            self.t = fold(self.events)
            self._trial(items)
            raise
        self.events += out
        self.t = trial
        if any(e.type in SIGNED_EVENTS for e in self.events):  # seated once: every later event signed (key at hand)
            from ..records.signing import sign_recorded

            sign_recorded(self.store, "tournament", self.events, out)
        return out

    def _trial(self, items: Sequence[Any]) -> Tournament:
        trial = fold(self.events)
        for item in items:
            trial.apply(item)
        return trial


def create(store: Store, created: Any) -> Event:
    t = Tournament()
    t.apply(created)
    return store.append(created.tournament, [payload_of(created)], None, family=TOURNAMENTS)[0]


def list_tournaments(store: Store) -> list[dict[str, Any]]:
    return [{"tournament": i.game, "created_at": i.created_at, "events": i.events} for i in store.games(TOURNAMENTS)]


# --- the tables' games ----------------------------------------------------------------------------------
def scores_of(state, objectives: dict[str, str] | None = None) -> dict[str, tuple[int, int, int]]:
    """Honor, territories and provinces per clan (R-24, R-25), from the one score (``final_score``);
    ``objectives``: revealed when a game is called ("" declared not met: nothing to score)."""
    from ..engine.battle import Clan, final_score

    shown = {Clan(c): o for c, o in (objectives or {}).items() if o}
    board = state.with_(objectives={**state.objectives, **shown}) if shown else state
    return {str(s.clan): (s.total, s.territories, s.provinces) for s in final_score(board).scores}


def live_game(game: str, events: Sequence[Event]) -> LiveGame:
    f = Fold.of(events)
    done = f.complete  # the one answer to "is this game finished"
    return LiveGame(game, events[-1].seq, len(f.rounds), done, len(f.sealed_left), scores_of(f.state) if done else {})


def heads(store: Store, games: Sequence[str]) -> dict[str, int]:
    return store.last_seqs(games)


def load(store: Store, tid: str, t: Tournament | None = None) -> Loaded:
    """The tournament and its games' logs as they stand. A game whose result was accepted (or called) and whose log
    has no later event is not replayed: its result is the one recorded from its verified log."""
    t = t or fold(read_events(store, tid))
    games = [tb.game for s in t.seatings.values() for tb in s.tables]
    if t.final:
        games.append(t.final.table["game"])
    head = heads(store, games)
    live: dict[str, LiveGame] = {}
    for g in games:
        if g not in head:
            continue
        acc = t.accepted.get(g)
        called = t.called.get(g)
        if called is not None:
            live[g] = LiveGame(g, head[g], called.after_round, False, 0)
        elif acc is not None and acc.head == head[g]:
            live[g] = LiveGame(g, head[g], 5, True, 0)
        else:
            live[g] = live_game(g, store.events(g))
    from ..records.signing import check_stored  # the pages, sheets and standings say who signed the record

    return Loaded(t, live, check_stored(store, "tournament", read_events(store, tid), None).status)


# --- export, import, verify -------------------------------------------------------------------------------
def parse_jsonl(text_: str) -> list[Event]:
    """The events of an exported tournament, one JSON object a line (as a game's export): a bad line is named and
    nothing is read."""
    from ..records.jsonl import RecordError, parse_jsonl as parse_lines  # loaded when needed

    try:
        events, _ = parse_lines(text_)
    except RecordError as exc:
        raise TournamentError(str(exc), hint=exc.hint) from None
    if not events:
        raise TournamentError("no events in the file")
    return events


def verify_games(store: Store, t: Tournament) -> list[str]:
    """Each table's game log that exists: its chain and a full re-run with the engine (``referee verify``)."""
    games = [tb.game for s in t.seatings.values() for tb in s.tables] + ([t.final.table["game"]] if t.final else [])
    have = heads(store, games)
    problems = []
    for g in games:
        if g in have:
            found = verify_game(store.events(g))
            if found is not None:
                problems.append(f"game {g}: {found}")
    return problems


def verify(events: Sequence[Event]) -> list[str]:
    """Problems of a tournament log: the chain, every event against the fold, every seating's constraints and its
    cost recomputed (never the seating re-derived: an algorithm change or an amendment would break that)."""
    from ..engine.tournament.events import RoundSeated, SeatingAmended
    from ..engine.tournament.rounds import recompute_cost

    found = check_chain(events)
    if found:
        return [str(found)]
    t = Tournament()
    problems = []
    for e in events:
        try:
            item = event_of(e.type, e.payload)
            t.apply(item)
            if isinstance(item, (RoundSeated, SeatingAmended)):
                cost = recompute_cost(t, item.round, t.seatings[item.round].tables)
                if cost != item.cost:
                    problems.append(
                        f"event {e.seq}: round {item.round}: the seating's recorded cost {item.cost} is not "
                        f"the recomputed {cost}"
                    )
        except TournamentError as exc:
            problems.append(f"event {e.seq}: {exc}")
            break
    return problems


def import_log(store: Store, events: Sequence[Event]) -> Tournament:
    store_verified(store, events, verify(events))
    return fold(events)


def store_verified(store: Store, events: Sequence[Event], problems: list[str]) -> None:
    """An imported tournament (either kind) stored whole once it verified (``problems`` empty), else nothing."""
    if problems:
        raise TournamentError(f"the file was refused whole, nothing was stored: {problems[0]}")
    store.import_logs([events], TOURNAMENTS)


# --- the tables' games: created, called, accepted ---------------------------------------------------------
def create_games(store: Store, t: Tournament, tables) -> int:
    """Create the tables' games not in the database yet, as `referee new` starts a game: clans in seat order, player
    names, the tournament's name as the event, the table number, the date; capitals populated (p.4 step 6)."""
    from ..engine.battle import Clan
    from ..games.battle.boarddata import load_board

    board = load_board()
    have = heads(store, [tb.game for tb in tables])
    made = 0
    for tb in tables:
        if tb.game in have:
            continue
        clans = [s.clan for s in tb.seats]
        capitals = [f"{c}: control 1 facedown @ {board.clans[Clan(c)].capital}" for c in clans]
        new_game(
            store,
            tb.game,
            clans,
            players={s.clan: t.name(s.player) for s in tb.seats},
            event=t.created.name,
            table=str(tb.number),
            date=t.created.date,
            setup=capitals,
        )
        made += 1
    return made


def started_games(store: Store, games: Sequence[str]) -> set[str]:
    """The games with anything recorded after their creation and capitals (a round, a table event, an objective)."""
    return {g for g, n in heads(store, games).items() if n > 2}


def _table_of_game(log: OpenTournament, game: str) -> tuple[int, Any]:
    found = log.t.table_of_game(game)
    if found is None:
        raise TournamentError(
            f"game {game!r} is not a game of tournament {log.tid!r}", hint=f"referee tournament status {log.tid}"
        )
    return found


def call_game(
    store: Store, log: OpenTournament, game: str, reason: str, reveals: Sequence[tuple[str, str, str]] = ()
) -> Any:
    """A game called when time ran out: scored as it stands after the last full round. ``reveals``: (clan,
    objective, reveal code) as typed, the objective "" for one declared not met (R-28); each is read as `referee
    reveal` reads it (``typed_reveal``) and checked against the game's seal by the one reveal check
    (``Fold.check_reveal``), and every objective still sealed must be revealed or declared not met. Refused
    whole, nothing recorded."""
    from ..engine.tournament.events import GameCalled
    from ..engine.tournament.scoring import Finish, winners
    from ..games.battle.commitment import canonical_code
    from ..games.battle.service import typed_reveal
    from ..store.events import ReplayError

    round_no, table = _table_of_game(log, game)
    events = store.events(game)
    f = Fold.of(events)
    where = f"game {game!r}, called after round {len(f.rounds)}"
    if f.complete:
        raise TournamentError(f"game {game!r} is finished: its result comes from its log; nothing to call")
    revealed = {str(c): o for c, o in f.revealed.items()}
    codes: dict[str, str] = {}
    for typed_clan, typed_objective, code in reveals:
        try:
            clan, objective = typed_reveal(f.board, typed_clan, typed_objective)
            if clan in codes:
                raise ReplayError(f"{clan} is named twice")
            f.check_reveal(clan, objective, code)
        except ReplayError as exc:
            raise TournamentError(f"{where}: {exc.problem}", hint="nothing was recorded") from None
        except RefereeError as exc:  # a clan or an objective not understood
            raise TournamentError(f"{where}: {exc}", hint=exc.hint) from None
        revealed[clan] = objective
        codes[clan] = canonical_code(code) if code else ""
    left = [str(c) for c in f.sealed_left if str(c) not in codes]
    if left:
        raise TournamentError(
            f"{where}: {', '.join(left)} sealed an objective: reveal it with its code "
            f"(--objective {left[0]}=OBJECTIVE:CODE) or declare it not met (--not-met {left[0]}, R-28)",
            hint="nothing was recorded",
        )
    state = f.rounds[-1].after if f.rounds else f.start
    scores = scores_of(state, revealed)
    rows = list(rows_from_scores(table, scores))
    won = [rows[i]["player"] for i in winners([Finish(*scores[s.clan]) for s in table.seats])]
    event = GameCalled(
        round_no, table.number, game, reason.strip(), len(f.rounds), revealed, rows, won, events[-1].seq, codes
    )
    log.record([event])
    return event


def retract_call(log: OpenTournament, game: str, reason: str) -> Any:
    """Take back a mistaken call, as a new event, before its round is closed: the game may be called again."""
    from ..engine.tournament.events import CallRetracted

    round_no, table = _table_of_game(log, game)
    event = CallRetracted(round_no, table.number, game, reason.strip(), log.t.result_version(round_no, table.number))
    log.record([event])
    return event


def close_round(store: Store, log: OpenTournament, round_no: int) -> int:
    """Accept every table's result (from its log, unless called or entered by the judge), then close the round.
    Refused, with nothing recorded, while a table has no result."""
    from ..engine.tournament.events import ResultAccepted, RoundClosed
    from ..engine.tournament.scoring import Finish, winners
    from ..engine.tournament.standings import table_result

    t = log.t
    seating = t.seatings.get(round_no)
    if seating is None:
        raise TournamentError(f"round {round_no} is not seated: it cannot be closed")
    loaded = load(store, log.tid, t)
    items, waiting = [], []
    for tb in seating.tables:
        res = table_result(loaded, round_no, tb)
        if res is None:
            live = loaded.live.get(tb.game)
            waiting.append(
                f"table {tb.number} ({tb.game}: "
                + (
                    f"{live.rounds_played} of 5 rounds played, {live.sealed_count} sealed objective(s) left)"
                    if live
                    else "no game)"
                )
            )
            continue
        if res.source == "log" and (tb.game not in t.accepted or res.corrected):
            found = verify_game(store.events(tb.game))
            if found is not None:
                raise TournamentError(
                    f"round {round_no}, table {tb.number}: game {tb.game} does not verify ({found}); "
                    "its result cannot be accepted",
                    hint=f"referee verify {tb.game}",
                )
            rows = [dict(r) for r in res.rows]
            won = [
                rows[i]["player"] for i in winners([Finish(r["honor"], r["territories"], r["provinces"]) for r in rows])
            ]
            items.append(ResultAccepted(round_no, tb.number, tb.game, loaded.live[tb.game].head, rows, won))
    if waiting:
        raise TournamentError(
            f"round {round_no} cannot be closed: no result yet at " + "; ".join(waiting),
            hint="call a game that ran out of time (`referee tournament call`) or enter the judge's "
            "result (`referee tournament result`)",
        )
    log.record([*items, RoundClosed(round_no)])
    return len(items)


def seat_final(
    store: Store, log: OpenTournament, size: int, picks: dict[str, str], preferences: dict[str, list[str]] | None = None
) -> Any:
    """The final table: the top ``size`` of the standings in rank order; clans as picked (``picks``), else by
    ``preferences`` in rank order (the leader chooses first), the rest given automatically (fewest repeats)."""
    import random

    from ..engine.tournament.events import FinalTableSeated
    from ..engine.tournament.roster import Table
    from ..engine.tournament.rounds import seating_history, seed_of
    from ..engine.tournament.seating import CLANS, seat_table
    from ..engine.tournament.standings import standings

    t = log.t
    st = standings(load(store, log.tid, t))
    top = [r.player for r in st.rows if not r.dropped][:size]
    if len(top) < size:
        raise TournamentError(f"the final table needs {size} players; {len(top)} are in the standings")
    chosen: dict[str, str] = {}
    for name, clan in picks.items():
        pid = t.player(name).id
        if pid not in top:
            raise TournamentError(f"final: {t.name(pid)} is not in the top {size}")
        if clan not in CLANS:
            raise TournamentError(f"final: {t.name(pid)}: unknown clan {clan!r}")
        if clan in chosen.values():
            raise TournamentError(f"final: {clan} is picked twice")
        chosen[pid] = clan
    for pid in top:  # in rank order: the leader chooses first
        if pid not in chosen:
            wish = next((c for c in (preferences or {}).get(pid, ()) if c not in chosen.values()), None)
            if wish is not None:
                chosen[pid] = wish
    rest = [c for c in CLANS if c not in chosen.values()]
    auto = seat_table(
        [p for p in top if p not in chosen],
        seating_history(t, t.created.rounds + 1),
        random.Random(seed_of(log.head)),
        clans=rest,
    )
    clan_of = {**chosen, **dict(auto)}
    game = f"{log.tid}-final"
    table = Table.of({"table": 1, "game": game, "seats": [{"player": p, "clan": clan_of[p]} for p in top]})
    event = FinalTableSeated(top, table.to_dict(), "rank order" if chosen else "auto")
    log.record([event])
    create_games(store, t, [table])
    return event
