"""A tournament's players, seats, tables and seatings, and the fold of its roster: registration, players kept
apart or fixed to a table, roll calls, drops, and each round's seating (``Roster``, which ``Tournament``
extends with the results).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from .events import (
    PLAYER_ID,
    STATUSES,
    FinalTableSeated,
    GameCalled,
    GameLinked,
    KeptApart,
    PlayerDropped,
    PlayerReinstated,
    PlayersRegistered,
    PointsAdjusted,
    ResultAccepted,
    ResultEntered,
    RollCalled,
    RoundSeated,
    SeatingAmended,
    TableFixed,
    TournamentCreated,
    TournamentError,
    check_created,
    slug,
)


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


class Roster(Desk):
    """The fold over a tournament's events, its state and the questions asked of it; here the roster and the
    seatings (registration, players kept apart or fixed, roll calls, drops and reinstatements, each round's
    seating and its amendments). ``apply`` refuses an event that cannot happen and leaves the fold as it was."""

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

    def dropped_in(self, pid: str, round_no: int) -> bool:
        """Whether the player had dropped (and was not yet reinstated) when ``round_no`` was seated."""
        return any(start < round_no and (end is None or round_no <= end) for start, end in self.drops.get(pid, []))

    @property
    def seq(self) -> int:
        """The event number of the event being folded in (the events are numbered from 1)."""
        return self.count + 1

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
