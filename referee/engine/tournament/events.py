"""A tournament's events: each a frozen dataclass, its payload ``asdict`` of it (JSON), its type the class name; the
ids they carry, and the check of a tournament's creation (its rounds, scoring and tie-breaks).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields
from fractions import Fraction
from typing import Any

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
