"""A tournament's events and the fold over them. Pure: the fold refuses what cannot happen, with one line
naming the input, the round and the rule; it never reads a game (results come in as data).

Every event is a frozen dataclass; its payload is ``asdict`` of it (JSON), its type the class name.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields
from fractions import Fraction
from typing import Any, Self

from ...core.errors import RefereeError

TOURNAMENT_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
PLAYER_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
STATUSES = ("present", "absent", "standby", "late")
TIEBREAKS = ("points", "honor", "wins", "aop", "h2h")
DEFAULT_TIEBREAKS = ("points", "honor", "wins", "aop", "h2h")
SYSTEMS = ("placement", "share", "squares", "honor")
AGGREGATES = ("sum", "best", "average")
DEFAULT_PLACEMENT = {"5": [10, 6, 3, 1, 0], "4": [10, 5, 2, 0], "3": [10, 4, 0]}


class TournamentError(RefereeError):
    """A refused tournament command or event: nothing was recorded."""


def check_tournament_id(tid: str) -> str:
    if not TOURNAMENT_ID.fullmatch(tid or ""):
        raise TournamentError(
            f"{tid!r} is not a valid tournament id: lower-case letters, digits and '-', "
            "starting with a letter or digit, at most 40"
        )
    return tid


def slug(name: str) -> str:
    """A player's default id: the name in lower case, runs of other characters as '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")[:64] or "player"


def table_game_id(tid: str, round_no: int, table: int, amendment: int = 0) -> str:
    """A table's game: ``<tournament>-r<round>-t<table>``, ``-a<k>`` for the k-th re-seating of that table."""
    return f"{tid}-r{round_no}-t{table}" + (f"-a{amendment}" if amendment else "")


# --- the events -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TournamentCreated:
    tournament: str
    name: str
    date: str = ""
    scoring: str = "placement"  # placement | share | squares | honor
    points: dict = field(default_factory=lambda: dict(DEFAULT_PLACEMENT))  # placement: size -> points by place
    aggregate: str = "sum"  # sum | best | average
    best: int = 0  # best N games (aggregate "best")
    tiebreaks: list = field(default_factory=lambda: list(DEFAULT_TIEBREAKS))
    rounds: int = 3
    sizes: list = field(default_factory=lambda: [5, 4, 3])  # table sizes allowed, the largest preferred
    copies: int = 0  # game copies on hand (0: no cap)
    group_by_standings: bool = False


@dataclass(frozen=True)
class PlayersRegistered:
    players: list  # [{"id", "name", "club"}]


@dataclass(frozen=True)
class KeptApart:
    players: list  # two or more player ids that never share a table if it can be helped (club, family)
    reason: str = ""


@dataclass(frozen=True)
class TableFixed:
    player: str
    table: int  # the table number this player always sits at (accessibility)
    reason: str = ""


@dataclass(frozen=True)
class RollCalled:
    round: int
    statuses: dict  # player id -> present | absent | standby | late


@dataclass(frozen=True)
class PlayerDropped:
    player: str
    reason: str = ""


@dataclass(frozen=True)
class PlayerReinstated:
    player: str
    reason: str = ""


@dataclass(frozen=True)
class RoundSeated:
    round: int
    tables: list  # [{"table": n, "game": id, "seats": [{"player": id, "clan": clan}, ...]}] in seat order
    algorithm: str
    version: int
    cost: int
    seed: int
    sat_out: list = field(default_factory=list)  # present or standby players left out (table sizes)
    clans: str = "auto"  # auto | preference | manual


@dataclass(frozen=True)
class SeatingAmended:
    round: int
    kind: str  # swap | replace | reseat
    players: list
    reason: str
    tables: list  # the amended tables, whole, as in RoundSeated
    cost: int


@dataclass(frozen=True)
class GameLinked:
    round: int
    table: int
    game: str
    reason: str = ""


@dataclass(frozen=True)
class ResultAccepted:
    round: int
    table: int
    game: str
    head: int  # the game log's last event when accepted: a later event is a correction
    rows: list  # [{"player", "clan", "honor", "territories", "provinces"}] in seat order
    winners: list


@dataclass(frozen=True)
class GameCalled:
    round: int
    table: int
    game: str
    reason: str
    after_round: int  # the last full round played
    objectives: dict  # clan -> objective revealed when the game was called ("": declared not met, R-28)
    rows: list
    winners: list
    head: int
    codes: dict = field(default_factory=dict)  # clan -> the reveal code given for its sealed objective


@dataclass(frozen=True)
class CallRetracted:
    """A mistaken call taken back before its round is closed: the table's result is its log's again, and the
    game may be called again."""

    round: int
    table: int
    game: str
    reason: str
    call: int  # the event number of the call taken back


@dataclass(frozen=True)
class ResultEntered:
    round: int
    table: int
    reason: str
    rows: list  # [{"player", "clan", "honor", "territories", "provinces"}]
    # The version of the table's result this entry replaces: the event number of the table's last result event
    # (a judge's entry, a call or its retraction, the acceptance at close), 0 for none. None: recorded before
    # results carried a version (not checked).
    replaces: int | None = None


@dataclass(frozen=True)
class PointsAdjusted:
    player: str
    points: str  # an exact fraction, "-3/2"
    reason: str
    round: int = 0


@dataclass(frozen=True)
class RoundClosed:
    round: int


@dataclass(frozen=True)
class FinalTableSeated:
    players: list  # in standings order
    table: dict  # as in RoundSeated
    clans_by: str  # rank | auto


EVENT_CLASSES = {
    c.__name__: c
    for c in (
        TournamentCreated,
        PlayersRegistered,
        KeptApart,
        TableFixed,
        RollCalled,
        PlayerDropped,
        PlayerReinstated,
        RoundSeated,
        SeatingAmended,
        GameLinked,
        ResultAccepted,
        GameCalled,
        CallRetracted,
        ResultEntered,
        PointsAdjusted,
        RoundClosed,
        FinalTableSeated,
    )
}


# Where the organiser's signatures of a tournament's record start (referee/records/signing.py): its first seating (of a
# round, or of the final table); that event and every one after it (results, adjustments, amendments, closes: all
# that feeds the standings) are signed.
SIGNED_EVENTS = frozenset({"RoundSeated", "SeatingAmended", "RoundClosed", "FinalTableSeated"})


def payload_of(event: Any) -> tuple[str, dict[str, Any]]:
    return type(event).__name__, asdict(event)


def event_of(type_: str, payload: dict[str, Any]) -> Any:
    cls = EVENT_CLASSES.get(type_)
    if cls is None and type_ == "SwissCreated":  # a stream of the other format (swiss_desk.py)
        raise TournamentError("a Swiss tournament, not one seated at tables", hint="referee tournament swiss --help")
    if cls is None:
        raise TournamentError(f"unknown tournament event type {type_!r}")
    return decode(cls, payload)


def decode(cls: type, payload: dict[str, Any]) -> Any:
    """The event of class ``cls`` a stored payload holds (either tournament desk's): a field unknown or
    missing is named."""
    extra = set(payload) - {f.name for f in fields(cls)}
    if extra:
        raise TournamentError(f"{cls.__name__}: unknown field(s) {', '.join(sorted(extra))}")
    try:
        return cls(**payload)
    except TypeError as exc:
        raise TournamentError(f"{cls.__name__}: {exc}") from None


# --- the fold -------------------------------------------------------------------------------------------
@dataclass
class Player:
    id: str
    name: str
    club: str = ""
    since_round: int = 1  # the first round this player could play (a late entry: later)
    dropped: bool = False


@dataclass
class Seat:
    player: str
    clan: str


@dataclass
class Table:
    number: int
    game: str
    seats: list[Seat]

    @property
    def players(self) -> list[str]:
        return [s.player for s in self.seats]

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.number,
            "game": self.game,
            "seats": [{"player": s.player, "clan": s.clan} for s in self.seats],
        }

    @classmethod
    def of(cls, raw: dict[str, Any]) -> Table:
        return cls(int(raw["table"]), str(raw["game"]), [Seat(str(s["player"]), str(s["clan"])) for s in raw["seats"]])


@dataclass
class Seating:
    round: int
    tables: list[Table]
    algorithm: str
    version: int
    cost: int
    seed: int
    sat_out: list[str]
    amendments: list[SeatingAmended] = field(default_factory=list)

    def table_of(self, player: str) -> Table | None:
        return next((t for t in self.tables if player in t.players), None)

    def table(self, number: int) -> Table | None:
        return next((t for t in self.tables if t.number == number), None)


class Desk:
    """What the folds of both kinds of tournament (seated at tables here, Swiss in ``swiss_desk``) share: the
    fold of a list of events, and each event after the one that creates the tournament handed to the method
    named for its type (``_<EventType>``)."""

    info: Any

    def apply(self, event: Any) -> None:
        raise NotImplementedError

    @classmethod
    def of(cls, events: Any) -> Self:
        t = cls()
        for e in events:
            t.apply(e)
        return t

    def _after_created(self, event: Any) -> None:
        if self.info is None:
            raise TournamentError(f"{type(event).__name__} before the tournament was created")
        getattr(self, "_" + type(event).__name__)(event)


class Tournament(Desk):
    """The fold over a tournament's events: ``apply`` refuses an event that cannot happen and leaves the
    fold as it was."""

    def __init__(self) -> None:
        self.info: TournamentCreated | None = None
        self.players: dict[str, Player] = {}
        self.apart: list[KeptApart] = []
        self.fixed: dict[str, int] = {}
        self.rollcalls: dict[int, dict[str, str]] = {}
        self.seatings: dict[int, Seating] = {}
        self.accepted: dict[str, ResultAccepted] = {}  # game id -> acceptance (the latest)
        self.called: dict[str, GameCalled] = {}  # game id -> the call in effect (a retracted call is not)
        self.entered: dict[tuple[int, int], ResultEntered] = {}  # (round, table) -> the judge's latest entry
        # (round, table) -> the table's last result event (a judge's entry, a call or its retraction, the acceptance
        # at close) and its event number: the version a judge's entry replaces
        self.result_events: dict[tuple[int, int], tuple[int, Any]] = {}
        self.corrections: set[tuple[int, int]] = set()  # tables whose judge's entry came after their round closed
        self.adjustments: list[PointsAdjusted] = []
        self.closed: set[int] = set()
        self.final: FinalTableSeated | None = None
        self.drops: dict[str, list[list]] = {}  # player -> [last round seated at the drop, at the reinstatement]
        self.count = 0

    # --- questions --------------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.info.tournament if self.info else ""

    @property
    def created(self) -> TournamentCreated:
        """The TournamentCreated event; every other event needs it, so a fold with any event has it."""
        if self.info is None:
            raise TournamentError("the tournament was not created")
        return self.info

    @property
    def last_round(self) -> int:
        """The last round seated (0: none yet)."""
        return max(self.seatings, default=0)

    def player(self, key: str) -> Player:
        """A player by id, or by name (any letter case) when that name is unique."""
        if key in self.players:
            return self.players[key]
        want = key.strip().casefold()
        found = [p for p in self.players.values() if p.name.casefold() == want or p.id == slug(key)]
        if len(found) == 1:
            return found[0]
        if found:
            ids = ", ".join(p.id for p in found)
            raise TournamentError(
                f"player {key!r} is ambiguous: several players have that name (ids {ids}); use the id"
            )
        raise TournamentError(
            f"no player {key!r} in tournament {self.id!r}{self._did_you_mean(want)}",
            hint=f"referee tournament players list {self.id}",
        )

    def _did_you_mean(self, want: str) -> str:
        """The nearest players' names, found as an unknown province's are (``nearest``)."""
        from ..battle import nearest

        names = {p.name.casefold(): p.name for p in self.players.values()}
        names.update({p.id: p.name for p in self.players.values()})
        near = nearest(want, names)
        return f" (did you mean {', '.join(repr(n) for n in near)}?)" if near else ""

    def name(self, pid: str) -> str:
        """The player's name as shown: with the id when another player has the same name."""
        p = self.players.get(pid)
        if p is None:
            return pid
        twins = sum(1 for o in self.players.values() if o.name.casefold() == p.name.casefold())
        return f"{p.name} ({p.id})" if twins > 1 else p.name

    def statuses(self, round_no: int) -> dict[str, str]:
        """Every registered player's status for a round: roll call, else present; dropped players are 'dropped'."""
        called = self.rollcalls.get(round_no, {})
        out = {}
        for pid, p in self.players.items():
            if p.dropped:
                out[pid] = "dropped"
            elif p.since_round > round_no:
                out[pid] = "not registered"
            else:
                out[pid] = called.get(pid, "present")
        return out

    def table_of_game(self, game: str) -> tuple[int, Table] | None:
        for r, s in self.seatings.items():
            for t in s.tables:
                if t.game == game:
                    return r, t
        if self.final and self.final.table["game"] == game:
            return 0, Table.of(self.final.table)
        return None

    def dropped_in(self, pid: str, round_no: int) -> bool:
        """Whether the player had dropped (and was not yet reinstated) when ``round_no`` was seated."""
        return any(start < round_no and (end is None or round_no <= end) for start, end in self.drops.get(pid, []))

    @property
    def seq(self) -> int:
        """The event number of the event being folded in (the events are numbered from 1)."""
        return self.count + 1

    def result_version(self, round_no: int, table: int) -> int:
        """The version of a table's result: the event number of its last result event (0: none)."""
        return self.result_events.get((round_no, table), (0, None))[0]

    def describe_result_event(self, round_no: int, table: int) -> str:
        """What the table's last result event recorded (its event number, what, the honors), for the judge about
        to replace it."""
        seq, e = self.result_events.get((round_no, table), (0, None))
        if e is None:
            return "no result recorded"
        what = (
            f"the judge's result (reason {e.reason!r})"
            if isinstance(e, ResultEntered)
            else f"game {e.game} called after round {e.after_round} (reason {e.reason!r})"
            if isinstance(e, GameCalled)
            else f"the call of game {e.game} retracted (reason {e.reason!r}): the result is its log's"
            if isinstance(e, CallRetracted)
            else f"the result accepted from game {e.game}'s log"
        )
        honors = (
            ""
            if isinstance(e, CallRetracted)
            else ": " + ", ".join(f"{self.name(r['player'])} {r['honor']}" for r in e.rows)
        )
        return f"event {seq}, {what}{honors}"

    def adjustment_total(self, pid: str) -> Fraction:
        return sum((Fraction(a.points) for a in self.adjustments if a.player == pid), Fraction(0))

    # --- the fold -----------------------------------------------------------------------------------------
    def apply(self, event: Any) -> None:
        try:
            if isinstance(event, TournamentCreated):
                if self.info is not None:
                    raise TournamentError("a second TournamentCreated event")
                check_created(event)
                self.info = event
            else:
                self._after_created(event)
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:  # a payload of the wrong shape
            raise TournamentError(
                f"{type(event).__name__}: a field has the wrong form ({exc.__class__.__name__}: {exc})"
            ) from None
        self.count += 1

    def _round(self, round_no: int) -> None:
        if not 1 <= round_no <= self.created.rounds:
            raise TournamentError(f"round {round_no}: tournament {self.id!r} has rounds 1 to {self.created.rounds}")

    def _PlayersRegistered(self, e: PlayersRegistered) -> None:
        new: dict[str, Player] = {}
        since = self.last_round + 1
        for raw in e.players:
            pid, name, club = raw.get("id", ""), str(raw.get("name", "")).strip(), str(raw.get("club", "")).strip()
            if not name:
                raise TournamentError("a player needs a name")
            if not PLAYER_ID.fullmatch(pid):
                raise TournamentError(
                    f"player {name!r}: {pid!r} is not a valid player id (lower-case letters, digits, '-')"
                )
            same = [p for p in [*self.players.values(), *new.values()] if p.name.casefold() == name.casefold()]
            if same and not raw.get("explicit_id"):
                raise TournamentError(
                    f"player {name!r} is already registered (id {same[0].id}); two players of one "
                    "name need an id each (--id)"
                )
            if pid in self.players or pid in new:
                raise TournamentError(f"player {name!r}: the id {pid!r} is already registered")
            new[pid] = Player(pid, name, club, since)
        self.players.update(new)

    def _KeptApart(self, e: KeptApart) -> None:
        for pid in e.players:
            if pid not in self.players:
                raise TournamentError(f"keep apart: no player {pid!r}")
        if len(set(e.players)) < 2:
            raise TournamentError("keep apart: name two players or more")
        self.apart.append(e)

    def _TableFixed(self, e: TableFixed) -> None:
        if e.player not in self.players:
            raise TournamentError(f"fixed table: no player {e.player!r}")
        if e.table < 1:
            raise TournamentError(f"fixed table: {e.table} is not a table number")
        self.fixed[e.player] = e.table

    def _RollCalled(self, e: RollCalled) -> None:
        self._round(e.round)
        if e.round in self.closed:
            raise TournamentError(f"round {e.round} is closed: its roll call cannot change")
        for pid, status in e.statuses.items():
            if pid not in self.players:
                raise TournamentError(f"round {e.round}: roll call of an unknown player {pid!r}")
            if status not in STATUSES:
                raise TournamentError(
                    f"round {e.round}: {self.name(pid)}: unknown status {status!r} (one of {', '.join(STATUSES)})"
                )
        self.rollcalls.setdefault(e.round, {}).update(e.statuses)

    def _PlayerDropped(self, e: PlayerDropped) -> None:
        p = self.players.get(e.player)
        if p is None:
            raise TournamentError(f"drop: no player {e.player!r}")
        if p.dropped:
            raise TournamentError(f"{p.name} has already dropped")
        p.dropped = True
        self.drops.setdefault(p.id, []).append([self.last_round, None])

    def _PlayerReinstated(self, e: PlayerReinstated) -> None:
        p = self.players.get(e.player)
        if p is None:
            raise TournamentError(f"reinstate: no player {e.player!r}")
        if not p.dropped:
            raise TournamentError(f"{p.name} has not dropped: nothing to reinstate")
        p.dropped = False
        self.drops[p.id][-1][1] = self.last_round

    def _RoundSeated(self, e: RoundSeated) -> None:
        self._round(e.round)
        if e.round in self.seatings:
            raise TournamentError(
                f"round {e.round} is already seated", hint="`referee tournament amend` changes a table"
            )
        if e.round > 1 and e.round - 1 not in self.seatings:
            raise TournamentError(f"round {e.round}: round {e.round - 1} is not seated yet")
        tables = [Table.of(t) for t in e.tables]
        self._check_tables(e.round, tables, e.sat_out)
        self.seatings[e.round] = Seating(e.round, tables, e.algorithm, e.version, e.cost, e.seed, list(e.sat_out))

    def _check_tables(self, round_no: int, tables: list[Table], sat_out: list[str]) -> None:
        """Everyone seated once, registered and not dropped; sizes allowed; clans different at a table."""
        seen: set[str] = set()
        numbers = [t.number for t in tables]
        if len(set(numbers)) != len(numbers):
            raise TournamentError(f"round {round_no}: a table number appears twice")
        sizes = self.created.sizes
        for t in tables:
            if len(t.seats) not in sizes:
                raise TournamentError(
                    f"round {round_no}, table {t.number}: {len(t.seats)} players; tables seat "
                    f"{', '.join(map(str, sorted(sizes)))}"
                )
            clans = [s.clan for s in t.seats]
            if len(set(clans)) != len(clans):
                raise TournamentError(f"round {round_no}, table {t.number}: a clan is played twice")
            for s in t.seats:
                p = self.players.get(s.player)
                if p is None:
                    raise TournamentError(f"round {round_no}, table {t.number}: no player {s.player!r}")
                if p.dropped:
                    raise TournamentError(f"round {round_no}, table {t.number}: {p.name} has dropped")
                if s.player in seen:
                    raise TournamentError(f"round {round_no}: {p.name} is seated twice")
                seen.add(s.player)
        if self.created.copies and len(tables) > self.created.copies:
            raise TournamentError(f"round {round_no}: {len(tables)} tables, but only {self.created.copies} game copies")

    def _SeatingAmended(self, e: SeatingAmended) -> None:
        seating = self.seatings.get(e.round)
        if seating is None:
            raise TournamentError(f"round {e.round} is not seated: nothing to amend")
        if e.round in self.closed:
            raise TournamentError(f"round {e.round} is closed: its seating cannot change")
        if not e.reason.strip():
            raise TournamentError(f"round {e.round}: an amendment needs a reason")
        new = {t.number: t for t in map(Table.of, e.tables)}
        tables = [new.pop(t.number, t) for t in seating.tables]
        if new:
            raise TournamentError(f"round {e.round}: no table {', '.join(map(str, new))} to amend")
        seated = {p for t in tables for p in t.players}
        self._check_tables(e.round, tables, [])
        seating.tables = tables
        seating.sat_out = list(dict.fromkeys(p for p in [*seating.sat_out, *e.players] if p not in seated))
        seating.cost = e.cost
        seating.amendments.append(e)

    def _GameLinked(self, e: GameLinked) -> None:
        seating = self.seatings.get(e.round)
        table = seating.table(e.table) if seating else None
        if table is None:
            raise TournamentError(f"round {e.round}: no table {e.table}")
        table.game = e.game

    def _find_table(self, round_no: int, number: int, what: str) -> Table:
        if round_no == 0 and self.final:
            return Table.of(self.final.table)
        seating = self.seatings.get(round_no)
        table = seating.table(number) if seating else None
        if table is None:
            raise TournamentError(f"{what}: round {round_no} has no table {number}")
        return table

    def _check_rows(self, round_no: int, table: Table, rows: list, what: str) -> None:
        got = sorted(r["player"] for r in rows)
        if got != sorted(table.players):
            raise TournamentError(
                f"{what}: round {round_no}, table {table.number} seats "
                f"{', '.join(self.name(p) for p in table.players)}, the result names "
                f"{', '.join(self.name(p) for p in got) or 'nobody'}"
            )

    def _ResultAccepted(self, e: ResultAccepted) -> None:
        table = self._find_table(e.round, e.table, f"game {e.game}")
        self._check_rows(e.round, table, e.rows, f"game {e.game}")
        self.accepted[e.game] = e
        self.result_events[(e.round, e.table)] = (self.seq, e)

    def _GameCalled(self, e: GameCalled) -> None:
        table = self._find_table(e.round, e.table, f"game {e.game}")
        if table.game != e.game:
            raise TournamentError(f"game {e.game!r} is not the game of round {e.round}, table {e.table}")
        if e.game in self.called:
            seq = self.result_version(e.round, e.table)
            raise TournamentError(
                f"game {e.game!r} was already called (event {seq})",
                hint=f"a mistaken call is retracted first: referee tournament retract-call {self.id} {e.game} "
                "--reason ...",
            )
        if e.round in self.closed:
            raise TournamentError(
                f"game {e.game!r}: round {e.round} is closed: a game is called before its round is closed",
                hint="a judge's result corrects a closed round (referee tournament result ... --reason ...)",
            )
        if (e.round, e.table) in self.entered:
            raise TournamentError(
                f"game {e.game!r}: round {e.round}, table {e.table} has the judge's result "
                f"({self.describe_result_event(e.round, e.table)}): a call does not replace it"
            )
        if not e.reason.strip():
            raise TournamentError(f"game {e.game!r}: calling a game needs a reason")
        self._check_rows(e.round, table, e.rows, f"game {e.game}")
        self.called[e.game] = e
        self.result_events[(e.round, e.table)] = (self.seq, e)

    def _CallRetracted(self, e: CallRetracted) -> None:
        called = self.called.get(e.game)
        if called is None or (called.round, called.table) != (e.round, e.table):
            raise TournamentError(f"game {e.game!r} is not called: no call to retract")
        if e.round in self.closed:
            raise TournamentError(
                f"game {e.game!r}: round {e.round} is closed: its call can no longer be retracted",
                hint="a judge's result corrects a closed round (referee tournament result ... --reason ...)",
            )
        if not e.reason.strip():
            raise TournamentError(f"game {e.game!r}: retracting a call needs a reason")
        seq = self.result_version(e.round, e.table)
        if e.call != seq:
            raise TournamentError(f"game {e.game!r}: the call in effect is event {seq}, not event {e.call}")
        del self.called[e.game]
        self.result_events[(e.round, e.table)] = (self.seq, e)

    def _ResultEntered(self, e: ResultEntered) -> None:
        table = self._find_table(e.round, e.table, "result")
        if not e.reason.strip():
            raise TournamentError(f"round {e.round}, table {e.table}: a judge's result needs a reason")
        self._check_rows(e.round, table, e.rows, "result")
        for r in e.rows:
            if not isinstance(r.get("honor"), int) or r["honor"] < 0:
                raise TournamentError(
                    f"round {e.round}, table {e.table}: {self.name(r['player'])}: honor must be a "
                    f"whole number, 0 or more, got {r.get('honor')!r}"
                )
        key = (e.round, e.table)
        current = self.result_version(*key)
        if e.replaces is not None and e.replaces != current:
            where = f"round {e.round}, table {e.table}"
            now = self.describe_result_event(*key)
            if not current:
                raise TournamentError(
                    f"{where}: --replaces {e.replaces}, but the table has no result recorded to replace",
                    hint="enter the result without --replaces",
                )
            raise TournamentError(
                f"{where} already has a result ({now})"
                if not e.replaces
                else f"{where}: the result of event {e.replaces} was replaced ({now})",
                hint=f"nothing was recorded; to replace that result, enter yours again with --replaces {current}",
            )
        self.entered[key] = e
        if e.round in self.closed:
            self.corrections.add(key)  # a result after the round closed: a correction, marked as one from a log is
        self.result_events[key] = (self.seq, e)

    def _PointsAdjusted(self, e: PointsAdjusted) -> None:
        if e.player not in self.players:
            raise TournamentError(f"adjustment: no player {e.player!r}")
        if not e.reason.strip():
            raise TournamentError(f"adjustment for {self.name(e.player)}: a reason is needed")
        try:
            Fraction(e.points)
        except (ValueError, ZeroDivisionError):
            raise TournamentError(f"adjustment for {self.name(e.player)}: {e.points!r} is not a number") from None
        self.adjustments.append(e)

    def _RoundClosed(self, e: RoundClosed) -> None:
        if e.round not in self.seatings:
            raise TournamentError(f"round {e.round} is not seated: it cannot be closed")
        if e.round in self.closed:
            raise TournamentError(f"round {e.round} is already closed")
        self.closed.add(e.round)

    def _FinalTableSeated(self, e: FinalTableSeated) -> None:
        if self.final is not None:
            raise TournamentError("the final table is already seated")
        self.final = e


def check_created(e: TournamentCreated) -> None:
    """A new tournament's settings, each checked in turn: the first one wrong is named."""
    check_tournament_id(e.tournament)
    if not e.name.strip():
        raise TournamentError(f"tournament {e.tournament!r}: a name is needed")
    _check_scoring(e)
    bad = [t for t in e.tiebreaks if t not in TIEBREAKS]
    if bad or len(set(e.tiebreaks)) != len(e.tiebreaks):
        raise TournamentError(f"tie-breaks {', '.join(e.tiebreaks)}: each once, from {', '.join(TIEBREAKS)}")
    if not 1 <= e.rounds <= 12:
        raise TournamentError(f"{e.rounds} rounds: 1 to 12")
    if not e.sizes or any(s not in (3, 4, 5) for s in e.sizes):
        raise TournamentError(f"table sizes {e.sizes}: 3, 4 or 5 players a table")
    if e.copies < 0:
        raise TournamentError("game copies: 0 (no cap) or more")
    for size, pts in e.points.items():
        _check_placement_points(size, pts)


def _check_scoring(e: TournamentCreated) -> None:
    if e.scoring not in SYSTEMS:
        raise TournamentError(f"scoring {e.scoring!r}: one of {', '.join(SYSTEMS)}")
    if e.aggregate not in AGGREGATES:
        raise TournamentError(f"aggregate {e.aggregate!r}: one of {', '.join(AGGREGATES)}")
    if e.aggregate == "best" and not 1 <= e.best:
        raise TournamentError("best N games: N must be 1 or more")


def _check_placement_points(size: str, pts: Any) -> None:
    if size not in ("3", "4", "5") or not isinstance(pts, list) or len(pts) < int(size):
        raise TournamentError(f"placement points for {size}: a table of {size} needs {size} numbers")
    try:
        [Fraction(str(p)) for p in pts]
    except (ValueError, ZeroDivisionError):
        raise TournamentError(f"placement points for {size}: {pts} are not numbers") from None
