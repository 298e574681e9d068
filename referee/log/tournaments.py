"""A tournament's event stream in the same store as the games: tables ``tournament`` and ``tournament_event``,
append-only (the same triggers as the game log refuse UPDATE and DELETE), hash-chained like a game's log
(``events.event_hash``), with export, import and verify; and the service that reads the tables' games.

A game is finished when round 5 is resolved and every sealed objective is revealed: ``game_finished`` is the
one place that decides it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Text, UniqueConstraint, text
from sqlalchemy.exc import DatabaseError, IntegrityError
from sqlmodel import Field, SQLModel

from ..engine.model.digest import canonical_json
from ..tournament.model import Tournament, TournamentError, event_of, payload_of
from ..tournament.standings import LiveGame, Loaded, rows_from_scores
from . import Event, Fold, Store, StoreError, append_only, check_chain, new_game, verify as verify_game

PAYLOAD_VERSION = 1
GENESIS = "0" * 64  # the first event's link, as in a game's log
SCHEMA_ATTEMPTS = 5  # creating the tables, when another process is creating them at the same moment


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TournamentRow(SQLModel, table=True):
    __tablename__ = "tournament"
    id: str = Field(primary_key=True, max_length=64)
    created_at: str


class TournamentEventRow(SQLModel, table=True):
    __tablename__ = "tournament_event"
    __table_args__ = (UniqueConstraint("tournament_id", "seq", name="tournament_event_seq"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(foreign_key="tournament.id", index=True, max_length=64)
    seq: int
    type: str = Field(max_length=40)
    payload_version: int
    payload: str = Field(sa_type=Text)
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)
    recorded_at: str = Field(max_length=40)


TABLES = [
    SQLModel.metadata.tables[TournamentRow.__tablename__],
    SQLModel.metadata.tables[TournamentEventRow.__tablename__],
]
COLUMNS = ("tournament_id", "seq", "type", "payload_version", "payload", "prev_hash", "hash", "recorded_at")
SELECT = text(f"SELECT {', '.join(COLUMNS)} FROM tournament_event WHERE tournament_id = :t ORDER BY seq")
INSERT_T = text("INSERT INTO tournament (id, created_at) VALUES (:id, :created_at)")
INSERT_E = text(f"INSERT INTO tournament_event ({', '.join(COLUMNS)}) VALUES ({', '.join(':' + c for c in COLUMNS)})")

REFUSED = "the tournament log is append-only"
append_only.guard(TABLES, REFUSED, "referee_tournament_append_only")  # created with the tables, in the same transaction


class UnknownTournament(TournamentError):
    def __init__(self, tid: str):
        super().__init__(f"no tournament {tid!r} in this database", hint="`referee tournament list` lists them")


class TournamentChanged(TournamentError):
    def __init__(self, tid: str, seq: int):
        super().__init__(
            f"tournament {tid!r}: the tournament changed under you (event {seq} was recorded by someone else), re-run",
            hint="nothing of yours was recorded",
        )


def ensure_schema(store: Store) -> None:
    """Create the tournament tables and their triggers when missing (the game tables are the store's own)."""
    for attempt in range(1, SCHEMA_ATTEMPTS + 1):
        try:
            with store.engine.connect() as conn:
                have = {
                    r[0]
                    for r in conn.execute(
                        text(
                            "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')"
                            if store.is_sqlite
                            else "SELECT tablename FROM pg_tables UNION SELECT tgname FROM pg_trigger"
                        )
                    )
                }
            wanted = {t.name for t in TABLES}
            if store.is_sqlite:
                wanted |= append_only.trigger_names([t.name for t in TABLES], "sqlite")
            if wanted <= have:
                return
            SQLModel.metadata.create_all(store.engine, tables=TABLES)
            if store.is_sqlite:
                with store.engine.begin() as conn:
                    for table in TABLES:
                        for sql in append_only.sqlite_triggers(table.name, REFUSED):
                            conn.execute(text(sql))
            return
        except DatabaseError as exc:
            if attempt == SCHEMA_ATTEMPTS:
                reason = str(getattr(exc, "orig", exc)).splitlines()[0]
                raise StoreError(f"{store.where}: cannot use this database ({reason})") from None
            time.sleep(0.05 * attempt)


# --- the stream ----------------------------------------------------------------------------------------
def chain(tid: str, after: Event | None, type_: str, payload: dict[str, Any], recorded_at: str = "") -> Event:
    """The next event of a tournament, hashed as a game's events are (so ``check_chain`` checks both)."""
    unhashed = Event(
        tid,
        after.seq + 1 if after else 1,
        type_,
        PAYLOAD_VERSION,
        payload,
        after.hash if after else GENESIS,
        "",
        recorded_at,
    )
    return replace(unhashed, hash=unhashed.computed_hash())


def read_events(store: Store, tid: str) -> list[Event]:
    ensure_schema(store)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(SELECT, {"t": tid}).all()
    except DatabaseError as exc:
        raise StoreError(
            f"{store.where}: cannot use this database ({str(getattr(exc, 'orig', exc)).splitlines()[0]})"
        ) from None
    if not rows:
        raise UnknownTournament(tid)
    out = []
    for r in rows:
        try:
            payload = json.loads(r.payload)
        except (TypeError, ValueError):
            payload = {"unreadable": str(r.payload)[:80]}
        out.append(
            Event(r.tournament_id, r.seq, r.type, r.payload_version, payload, r.prev_hash, r.hash, r.recorded_at)
        )
    return out


def fold(events: Sequence[Event]) -> Tournament:
    t = Tournament()
    for e in events:
        try:
            t.apply(event_of(e.type, e.payload))
        except TournamentError as exc:
            raise TournamentError(f"tournament {e.game!r}, event {e.seq}: {exc}") from None
    return t


def _insert(store: Store, events: list[Event], new: bool) -> None:
    ensure_schema(store)
    rows = [
        {
            "tournament_id": e.game,
            "seq": e.seq,
            "type": e.type,
            "payload_version": e.payload_version,
            "payload": canonical_json(e.payload),
            "prev_hash": e.prev_hash,
            "hash": e.hash,
            "recorded_at": e.recorded_at,
        }
        for e in events
    ]
    try:
        with store.engine.begin() as conn:
            if new:
                conn.execute(INSERT_T, {"id": events[0].game, "created_at": events[0].recorded_at or _now()})
            conn.execute(INSERT_E, rows)
    except IntegrityError:
        if new:
            raise TournamentError(f"a tournament {events[0].game!r} already exists in this database") from None
        raise TournamentChanged(events[0].game, events[0].seq) from None
    except DatabaseError as exc:
        raise StoreError(
            f"{store.where}: cannot use this database ({str(getattr(exc, 'orig', exc)).splitlines()[0]})"
        ) from None


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
        trial = fold(self.events)  # the refusal leaves self.t as it was
        now = _now()
        out: list[Event] = []
        after = self.events[-1]
        for item in items:
            trial.apply(item)
            type_, payload = payload_of(item)
            after = chain(self.tid, after, type_, payload, now)
            out.append(after)
        if out:
            _insert(self.store, out, new=False)
        self.events += out
        self.t = trial
        return out


def create(store: Store, created: Any) -> Event:
    t = Tournament()
    t.apply(created)
    type_, payload = payload_of(created)
    e = chain(created.tournament, None, type_, payload, _now())
    _insert(store, [e], new=True)
    return e


def list_tournaments(store: Store) -> list[dict[str, Any]]:
    ensure_schema(store)
    with store.engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT t.id, t.created_at, COUNT(e.id) FROM tournament t LEFT JOIN tournament_event e "
                "ON e.tournament_id = t.id GROUP BY t.id, t.created_at ORDER BY t.created_at, t.id"
            )
        ).all()
    return [{"tournament": r[0], "created_at": r[1], "events": r[2]} for r in rows]


# --- the tables' games ----------------------------------------------------------------------------------
def game_finished(fold_) -> bool:
    """A game is finished when round 5 is resolved and every sealed objective is revealed."""
    return len(fold_.rounds) >= 5 and set(fold_.seals) <= set(fold_.revealed)


def sealed_left(fold_) -> int:
    return len(set(fold_.seals) - set(fold_.revealed))


def scores_of(state, objectives: dict[str, str] | None = None) -> dict[str, tuple[int, int, int]]:
    """Honor, territories and provinces per clan (R-24, R-25); ``objectives``: revealed when a game is called."""
    from ..engine import score_clan

    out = {}
    for c in state.clans:
        objective = (objectives or {}).get(str(c))
        s = score_clan(state, c, objective) if objective else score_clan(state, c)
        out[str(c)] = (s.total, s.territories, s.provinces)
    return out


def live_game(game: str, events: Sequence[Event]) -> LiveGame:
    f = Fold.of(events)
    done = game_finished(f)
    return LiveGame(game, events[-1].seq, len(f.rounds), done, sealed_left(f), scores_of(f.state) if done else {})


def heads(store: Store, games: Sequence[str]) -> dict[str, int]:
    if not games:
        return {}
    out: dict[str, int] = {}
    with store.engine.connect() as conn:
        for i in range(0, len(games), 500):
            chunk = list(games[i : i + 500])
            marks = ", ".join(f":g{j}" for j in range(len(chunk)))
            rows = conn.execute(
                text(f"SELECT game_id, MAX(seq) FROM event WHERE game_id IN ({marks}) GROUP BY game_id"),
                {f"g{j}": g for j, g in enumerate(chunk)},
            ).all()
            out.update({g: int(n) for g, n in rows})
    return out


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
    return Loaded(t, live)


# --- export, import, verify -------------------------------------------------------------------------------
def parse_jsonl(text_: str) -> list[Event]:
    """The events of an exported tournament, one JSON object a line (as a game's export): a bad line is named and
    nothing is read."""
    from .records import RecordError, parse_jsonl as parse_lines  # loaded when needed, as referee.log does

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
    from ..tournament.model import RoundSeated, SeatingAmended
    from ..tournament.rounds import recompute_cost

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
    problems = verify(events)
    if problems:
        raise TournamentError(f"the file was refused whole, nothing was stored: {problems[0]}")
    _insert(store, list(events), new=True)
    return fold(events)


# --- the tables' games: created, called, accepted ---------------------------------------------------------
def create_games(store: Store, t: Tournament, tables) -> int:
    """Create the tables' games not in the database yet, as `referee new` starts a game: clans in seat order, player
    names, the tournament's name as the event, the table number, the date; capitals populated (p.4 step 6)."""
    from ..boarddata import load_board
    from ..engine import Clan

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


def call_game(store: Store, log: OpenTournament, game: str, reason: str, objectives: dict[str, str]) -> Any:
    """A game called when time ran out: scored as it stands after the last full round, objectives revealed."""
    from ..tournament.model import GameCalled

    found = log.t.table_of_game(game)
    if found is None:
        raise TournamentError(
            f"game {game!r} is not a game of tournament {log.tid!r}", hint=f"referee tournament status {log.tid}"
        )
    round_no, table = found
    events = store.events(game)
    f = Fold.of(events)
    if game_finished(f):
        raise TournamentError(f"game {game!r} is finished: its result comes from its log; nothing to call")
    board = f.board
    revealed = {str(c): o for c, o in f.revealed.items()}
    for clan, objective in objectives.items():
        if clan not in {s.clan for s in table.seats}:
            raise TournamentError(f"game {game!r}: {clan} is not playing at this table")
        if objective not in board.objectives:
            raise TournamentError(f"game {game!r}, {clan}: unknown objective {objective!r}")
    revealed.update(objectives)
    state = f.rounds[-1].after if f.rounds else f.start
    scores = scores_of(state, revealed)
    rows = list(rows_from_scores(table, scores))
    from ..tournament.scoring import Finish, winners

    won = [rows[i]["player"] for i in winners([Finish(*scores[s.clan]) for s in table.seats])]
    event = GameCalled(round_no, table.number, game, reason.strip(), len(f.rounds), revealed, rows, won, events[-1].seq)
    log.record([event])
    return event


def close_round(store: Store, log: OpenTournament, round_no: int) -> int:
    """Accept every table's result (from its log, unless called or entered by the judge), then close the round.
    Refused, with nothing recorded, while a table has no result."""
    from ..tournament.model import ResultAccepted, RoundClosed
    from ..tournament.scoring import Finish, winners
    from ..tournament.standings import table_result

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
                    f"{live.rounds_played} of 5 rounds played, {live.sealed_left} sealed objective(s) left)"
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

    from ..tournament.model import FinalTableSeated, Table
    from ..tournament.rounds import history, seed_of
    from ..tournament.seating import CLANS, seat_table
    from ..tournament.standings import standings

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
        history(t, t.created.rounds + 1),
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
