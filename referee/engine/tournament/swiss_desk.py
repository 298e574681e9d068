"""A Swiss tournament's events and the fold over them (one-against-one games: the card game's Kotei). Pure:
the fold refuses what cannot happen with one line; results come in as data (a judge's entry, or a verified
match log's result read by the log layer).

    SwissCreated          name, rounds, the cut (0, or a power of two), whether time called may be a draw
    SwissPlayersRegistered  before round 1; or late, before a later Swiss round, with a loss or a bye for each
                          round missed (``missed``)
    SwissPlayerDropped    from the next pairing on; a second drop of a player corrects the first's reason
    SwissPlayerReinstated a dropped player back, before the cut; a loss or a bye for each round missed meanwhile
    SwissRoundPaired      a round's pairs and bye, with the algorithm, seed and cost that found them, or given by
                          hand (``algorithm`` "given", with its reason: a round paired on paper)
    SwissPairingWithdrawn the last round's pairing taken back before any result (with a reason): paired again
    SwissPlayersSwapped   two players of the last round exchanged by hand before their tables' results (a
                          judge's call, with a reason)
    SwissResultRecorded   a table's result: the winner (none: a draw) and how; a later one for the same
                          table corrects it (with a reason)
    SwissCutPaired        an elimination round of the cut (1: the top N seeded by the standings)

Nothing recorded changes: a withdrawn pairing and a swap stay in the stream, and `swiss verify` names each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import PLAYER_ID, TournamentError, check_tournament_id, decode, slug
from .roster import Desk
from .swiss import (
    BYE,
    DRAWS,
    MISSED,
    MISSED_AS,
    Pairing,
    Placing,
    Result,
    Standing,
    SwissError,
    check_cut,
    cut,
    next_elimination,
    placings,
    standings,
)


@dataclass(frozen=True)
class SwissCreated:
    tournament: str
    name: str
    date: str = ""
    rounds: int = 5
    cut: int = 8  # 0: no cut; else a power of two
    draws: bool = True  # time called may end a match as a draw (C-10); C-01's draw always counts
    format: str = "swiss"


def check_swiss_created(event: SwissCreated) -> None:
    """A new Swiss tournament's settings, the first one wrong named: checked before anything is written (a
    refused `tournament swiss new` makes no database file)."""
    check_tournament_id(event.tournament)
    if not event.name.strip():
        raise TournamentError(f"tournament {event.tournament!r}: a name is needed")
    try:
        check_cut(event.cut)
    except SwissError as exc:
        raise TournamentError(str(exc)) from None
    if not 1 <= event.rounds <= 15:
        raise TournamentError(f"{event.rounds} Swiss rounds: 1 to 15")


@dataclass(frozen=True)
class SwissPlayersRegistered:
    players: list  # [{"id", "name"}]
    missed: str = ""  # registered after round 1 was paired: "loss" or "bye" for each round missed


@dataclass(frozen=True)
class SwissPlayerDropped:
    player: str
    reason: str = ""


@dataclass(frozen=True)
class SwissPlayerReinstated:
    player: str
    reason: str
    missed: str = ""  # "loss" or "bye" for each Swiss round paired while the player was dropped


@dataclass(frozen=True)
class SwissRoundPaired:
    round: int
    pairs: list  # [[a, b], ...], table 1 first
    bye: str | None
    algorithm: str
    version: int
    cost: dict
    seed: int | None = None  # the seed that ordered the players (round 1's, drawn at random and recorded)
    reason: str = ""  # why the pairing was given by hand


@dataclass(frozen=True)
class SwissPairingWithdrawn:
    round: int
    reason: str


@dataclass(frozen=True)
class SwissPlayersSwapped:
    round: int
    players: list  # [a, b]: each takes the other's place (a table's seat or the bye)
    reason: str


@dataclass(frozen=True)
class SwissResultRecorded:
    round: int  # a Swiss round; the cut's rounds are numbered after them
    table: int
    winner: str | None
    victory: str
    game: str = ""  # the match log the result was read from ("": entered by the judge)
    reason: str = ""


@dataclass(frozen=True)
class SwissCutPaired:
    round: int
    pairs: list


EVENTS = {
    c.__name__: c
    for c in (
        SwissCreated,
        SwissPlayersRegistered,
        SwissPlayerDropped,
        SwissPlayerReinstated,
        SwissRoundPaired,
        SwissPairingWithdrawn,
        SwissPlayersSwapped,
        SwissResultRecorded,
        SwissCutPaired,
    )
}


def event_of(type_: str, payload: dict[str, Any]) -> Any:
    cls = EVENTS.get(type_)
    if cls is None:
        raise TournamentError(f"not an event of a Swiss tournament: {type_!r}")
    return decode(cls, payload)


def is_swiss(first_type: str) -> bool:
    return first_type == SwissCreated.__name__


@dataclass
class Round:
    pairs: list[tuple[str, str]]
    bye: str | None = None
    results: dict[int, SwissResultRecorded] = field(default_factory=dict)  # table -> latest
    pairing: SwissRoundPaired | None = None
    swaps: list[SwissPlayersSwapped] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.pairs)

    @property
    def left(self) -> list[int]:
        """The tables without a result yet."""
        return [i for i in range(1, len(self.pairs) + 1) if i not in self.results]

    def seat_of(self, player: str) -> int | None:
        """The player's table (0: the bye; None: not in this round)."""
        if player == self.bye:
            return 0
        return next((i for i, pair in enumerate(self.pairs, 1) if player in pair), None)


@dataclass(frozen=True)
class Absence:
    """Swiss rounds ``first`` to ``last`` a player missed: registered late, or dropped and then reinstated;
    each counts as ``missed_as`` (a loss or a bye), as the organiser chose."""

    player: str
    first: int
    last: int
    missed_as: str
    why: str  # "late" | "dropped"

    def result(self, round_no: int) -> Result:
        if self.missed_as == "bye":
            return Result(round_no, self.player, None, self.player, BYE)
        return Result(round_no, self.player, None, None, MISSED)


class SwissRoster(Desk):
    """The fold's state and its players: registration (late ones with the rounds they missed), drops and
    reinstatements; ``apply`` refuses an event that cannot happen and leaves the fold as it was. The rounds,
    their results and the cut are ``SwissTournament``'s."""

    def __init__(self) -> None:
        self.info: SwissCreated | None = None
        self.players: dict[str, str] = {}  # id -> name, in registration order
        self.dropped: dict[str, int] = {}  # player -> Swiss rounds paired when dropped (those still dropped)
        self.drop_reasons: dict[str, list[str]] = {}  # player -> the reason of each drop and correction
        self.reinstated: dict[str, list[SwissPlayerReinstated]] = {}
        self.absences: list[Absence] = []
        self.rounds: dict[int, Round] = {}  # Swiss rounds and then the cut's, numbered on
        self.withdrawn: list[tuple[SwissRoundPaired | SwissCutPaired, SwissPairingWithdrawn]] = []
        self.count = 0
        self._memo: dict[str, tuple[int, Any]] = {}  # what was worked out, by the count of events it is for

    @property
    def created(self) -> SwissCreated:
        if self.info is None:
            raise TournamentError("the tournament was not created")
        return self.info

    @property
    def swiss_rounds(self) -> list[int]:
        return [r for r in sorted(self.rounds) if r <= self.created.rounds]

    @property
    def cut_rounds(self) -> list[int]:
        return [r for r in sorted(self.rounds) if r > self.created.rounds]

    def absence(self, player: str, round_no: int) -> Absence | None:
        return next((a for a in self.absences if a.player == player and a.first <= round_no <= a.last), None)

    def player(self, key: str) -> str:
        """A player by id, or by name (any letter case) when that name is unique."""
        if key in self.players:
            return key
        want = key.strip().casefold()
        found = [pid for pid, name in self.players.items() if name.casefold() == want]
        found = found or ([slug(key)] if slug(key) in self.players else [])
        if len(found) == 1:
            return found[0]
        if found:
            raise TournamentError(f"player {key!r} is ambiguous: ids {', '.join(found)}; use the id")
        raise TournamentError(f"no player {key!r} in tournament {self.created.tournament!r}")

    def name(self, player: str | None) -> str:
        return self.players.get(player or "", player or "")

    # --- the fold ---------------------------------------------------------------------------------------
    def apply(self, event: Any) -> None:
        try:
            if isinstance(event, SwissCreated):
                if self.info is not None:
                    raise TournamentError("a second SwissCreated event")
                check_swiss_created(event)
                self.info = event
            else:
                self._after_created(event)
        except SwissError as exc:
            raise TournamentError(str(exc)) from None
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
            raise TournamentError(f"{type(event).__name__}: a field has the wrong form ({exc})") from None
        self.count += 1

    def _missed(self, missed: str, first: int, last: int, who: str, why: str) -> str:
        """What a player gets for Swiss rounds ``first`` to ``last`` missed: the organiser's choice, checked."""
        if missed not in MISSED_AS:
            rounds = f"round {first}" if first == last else f"rounds {first} to {last}"
            raise TournamentError(
                f"{who} {why} after round {last} was paired: say what {who} gets for {rounds} missed, "
                "a loss or a bye (--missed loss, --missed bye)"
            )
        return missed

    def _SwissPlayersRegistered(self, e: SwissPlayersRegistered) -> None:
        paired = len(self.swiss_rounds)
        if self.cut_rounds or (paired and paired >= self.created.rounds):
            raise TournamentError(
                f"the {self.created.rounds} Swiss rounds are paired: a late player registers before the last one is"
            )
        new = {}
        for p in e.players:
            pid, name = p["id"], p["name"].strip()
            if not PLAYER_ID.fullmatch(pid) or not name:
                raise TournamentError(f"player {name!r}: an id of lower-case letters, digits and '-' and a name")
            if pid in self.players or pid in new:
                raise TournamentError(f"player id {pid!r} is already registered")
            new[pid] = name
        if paired:
            who = next(iter(new.values())) if len(new) == 1 else f"{len(new)} players"
            how = self._missed(e.missed, 1, paired, who, "registers" if len(new) == 1 else "register")
            self.absences += [Absence(pid, 1, paired, how, "late") for pid in new]
        self.players.update(new)

    def _SwissPlayerDropped(self, e: SwissPlayerDropped) -> None:
        pid = self.player(e.player)
        if pid in self.dropped:
            if not e.reason.strip():
                raise TournamentError(
                    f"{self.players[pid]} has already dropped (after round {self.dropped[pid]}): a second drop "
                    "corrects the first one's reason and needs --reason"
                )
            self.drop_reasons[pid].append(e.reason)
            return
        self.dropped[pid] = len(self.swiss_rounds)
        self.drop_reasons[pid] = [e.reason]

    def _SwissPlayerReinstated(self, e: SwissPlayerReinstated) -> None:
        pid = self.player(e.player)
        if pid not in self.dropped:
            raise TournamentError(f"{self.players[pid]} has not dropped: nothing to reinstate")
        if self.cut_rounds:
            raise TournamentError(f"the cut has begun: {self.players[pid]} cannot be reinstated")
        if not e.reason.strip():
            raise TournamentError(f"reinstating {self.players[pid]} needs a reason (--reason)")
        since, now = self.dropped[pid], len(self.swiss_rounds)
        if now > since:
            how = self._missed(e.missed, since + 1, now, self.players[pid], "is reinstated")
            self.absences.append(Absence(pid, since + 1, now, how, "dropped"))
        del self.dropped[pid]
        self.reinstated.setdefault(pid, []).append(e)


class SwissTournament(SwissRoster):
    """The fold; ``apply`` refuses an event that cannot happen and leaves the fold as it was: here the rounds
    paired, withdrawn and swapped, their results, the standings and the cut."""

    def results(self) -> list[Result]:
        """Every Swiss result, byes and rounds missed included, as the pure standings take them (a round's bye
        and rounds missed count once the round is complete, with its tables' results)."""
        out = []
        for n in self.swiss_rounds:
            rnd = self.rounds[n]
            if rnd.complete:
                if rnd.bye:
                    out.append(Result(n, rnd.bye, None, rnd.bye, BYE))
                out += [a.result(n) for a in self.absences if a.first <= n <= a.last]
            for table, e in sorted(rnd.results.items()):
                a, b = rnd.pairs[table - 1]
                out.append(Result(n, a, b, e.winner, e.victory))
        return out

    def _once(self, what: str, make: Any) -> Any:
        """``make()``, worked out once for the fold as it stands (every page of a player asks the standings)."""
        if what not in self._memo or self._memo[what][0] != self.count:
            self._memo[what] = (self.count, make())
        return self._memo[what][1]

    def standings(self) -> list[Standing]:
        return list(self._once("standings", lambda: standings(list(self.players), self.results())))

    def placings(self) -> list[Placing]:
        """The standings with the cut placed by how far each player went, then the Swiss order (``placings``)."""
        rounds = []
        for n in self.cut_rounds:
            rnd = self.rounds[n]
            rounds.append(
                [(a, b, rnd.results[i].winner if i in rnd.results else None) for i, (a, b) in enumerate(rnd.pairs, 1)]
            )
        return list(self._once("placings", lambda: placings(self.standings(), rounds)))

    def table_number(self, round_no: int, player: str) -> int:
        seat = self._round(round_no).seat_of(player)
        if not seat:
            raise TournamentError(f"round {round_no}: {self.name(player)} has no table")
        return seat

    def _round(self, round_no: int) -> Round:
        if round_no not in self.rounds:
            raise TournamentError(f"round {round_no} has not been paired")
        return self.rounds[round_no]

    @property
    def next_round(self) -> int:
        return max(self.rounds, default=0) + 1

    def check_finished(self) -> None:
        """The last round paired has every table's result: else refused, naming the tables still playing."""
        if self.rounds:
            last = max(self.rounds)
            left = self.rounds[last].left
            if left:
                tables = ", ".join(map(str, left))
                raise TournamentError(
                    f"round {last} still has tables without a result: table{'s' if len(left) > 1 else ''} {tables}"
                )

    def _check_seats(self, round_no: int, seated: list[str]) -> None:
        """A round's pairing seats every player still in exactly once, and no one else: the first difference named."""
        active = [p for p in self.players if p not in self.dropped]
        twice = sorted({p for p in seated if seated.count(p) > 1})
        missing = [p for p in active if p not in seated]
        extra = sorted(set(seated) - set(active))
        for problem, who in (("seats twice", twice), ("leaves out", missing), ("seats players not in", extra)):
            if who:
                names = ", ".join(self.name(p) for p in who)
                raise TournamentError(
                    f"round {round_no}: the pairing {problem}: {names} (every player still in, exactly once)"
                )

    def _SwissRoundPaired(self, e: SwissRoundPaired) -> None:
        if e.round != self.next_round or e.round > self.created.rounds:
            raise TournamentError(f"round {e.round}: the next Swiss round is {self.next_round}")
        self.check_finished()
        pairs = [(a, b) for a, b in e.pairs]
        self._check_seats(e.round, [p for pair in pairs for p in pair] + ([e.bye] if e.bye else []))
        if any(a == b for a, b in pairs):
            raise TournamentError(f"round {e.round}: a player cannot play against themselves")
        self.rounds[e.round] = Round(pairs, e.bye, pairing=e)

    def _last(self, round_no: int, what: str) -> Round:
        """The last round paired, with no result at any table yet: the one a pairing is withdrawn from or swapped in."""
        rnd = self._round(round_no)
        if round_no != max(self.rounds):
            raise TournamentError(f"round {round_no}: {what} only the last round paired ({max(self.rounds)})")
        return rnd

    def _SwissPairingWithdrawn(self, e: SwissPairingWithdrawn) -> None:
        rnd = self._last(e.round, "a pairing is withdrawn from")
        if rnd.results:
            tables = ", ".join(map(str, sorted(rnd.results)))
            raise TournamentError(f"round {e.round} has results (tables {tables}): a pairing is withdrawn before any")
        if not e.reason.strip():
            raise TournamentError(f"withdrawing round {e.round}'s pairing needs a reason (--reason)")
        paired = rnd.pairing or SwissCutPaired(e.round, [list(p) for p in rnd.pairs])
        del self.rounds[e.round]
        if e.round <= self.created.rounds:  # who missed the round, or dropped after it was paired, meets it again
            self.absences = [
                a if a.last < e.round else Absence(a.player, a.first, e.round - 1, a.missed_as, a.why)
                for a in self.absences
                if a.first < e.round
            ]
            self.dropped = {p: min(k, e.round - 1) for p, k in self.dropped.items()}
        self.withdrawn.append((paired, e))

    def _SwissPlayersSwapped(self, e: SwissPlayersSwapped) -> None:
        rnd = self._last(e.round, "players are swapped in")
        if e.round > self.created.rounds:
            raise TournamentError(f"round {e.round} is a round of the cut: its pairs follow the bracket")
        a, b = (self.player(p) for p in e.players)
        seats = {p: rnd.seat_of(p) for p in (a, b)}
        for p, seat in seats.items():
            if seat is None:
                raise TournamentError(f"round {e.round}: {self.players[p]} is not in this round's pairing")
            if seat and seat in rnd.results:
                raise TournamentError(f"round {e.round}, table {seat} has a result: its players stay where they are")
        if a == b or seats[a] == seats[b]:
            raise TournamentError(f"round {e.round}: {self.players[a]} and {self.players[b]} already play each other")
        if not e.reason.strip():
            raise TournamentError("a swap by hand needs a reason (--reason)")
        swap = {a: b, b: a}
        rnd.pairs = [(swap.get(x, x), swap.get(y, y)) for x, y in rnd.pairs]
        rnd.bye = swap.get(rnd.bye, rnd.bye) if rnd.bye else None
        rnd.swaps.append(e)

    def _SwissResultRecorded(self, e: SwissResultRecorded) -> None:
        rnd = self._round(e.round)
        if not 1 <= e.table <= len(rnd.pairs):
            raise TournamentError(f"round {e.round} has tables 1 to {len(rnd.pairs)}, not {e.table}")
        a, b = rnd.pairs[e.table - 1]
        if e.table in rnd.results and not e.reason.strip():
            raise TournamentError(f"round {e.round}, table {e.table} has a result: a correction needs a reason")
        if e.round > self.created.rounds and e.winner is None:
            raise TournamentError(f"round {e.round} is an elimination round of the cut: a match there has a winner")
        if e.winner is None and e.victory == "time" and not self.created.draws:
            raise TournamentError(
                f'time called is not a draw in this tournament: enter the winner the judge decided ("{e.table}: '
                f'WINNER time")'
            )
        if e.winner is None and e.victory not in DRAWS:
            raise TournamentError(f"a draw is {' or '.join(DRAWS)}")
        Result(e.round, a, b, e.winner, e.victory)  # the result's own checks
        later = [r for r in self.rounds if r > e.round]
        if later:
            raise TournamentError(f"round {max(later)} was paired after round {e.round}: its results are settled")
        rnd.results[e.table] = e

    def _SwissCutPaired(self, e: SwissCutPaired) -> None:
        if not self.created.cut:
            raise TournamentError("this tournament has no cut")
        if e.round != self.next_round:
            raise TournamentError(f"round {e.round}: the next round is {self.next_round}")
        pairs = [tuple(p) for p in e.pairs]
        expected = self.cut_pairs()
        if pairs != [tuple(p) for p in expected]:
            raise TournamentError(f"round {e.round}: the cut's pairs are {expected}, by the standings and the bracket")
        self.rounds[e.round] = Round([(a, b) for a, b in pairs])

    def cut_pairs(self) -> list[tuple[str, str]]:
        """The next elimination round's pairs: from the standings of the players still in (the first), else the
        last one's winners; refused while a table of the last round has no result, naming it."""
        if len(self.swiss_rounds) < self.created.rounds:
            raise TournamentError(f"the cut comes after the {self.created.rounds} Swiss rounds, all played")
        self.check_finished()
        last = self.cut_rounds
        if not last:
            try:
                return list(cut([s for s in self.standings() if s.player not in self.dropped], self.created.cut))
            except SwissError as exc:
                raise TournamentError(str(exc)) from None
        rnd = self.rounds[last[-1]]
        winners = [rnd.results[t].winner or "" for t in range(1, len(rnd.pairs) + 1)]
        pairs = list(next_elimination(rnd.pairs, winners))
        if not pairs:
            raise TournamentError(f"the cut is over: {self.players[winners[0]]} won the tournament")
        return pairs

    @property
    def champion(self) -> str | None:
        last = self.cut_rounds
        if not last:
            return None
        rnd = self.rounds[last[-1]]
        if len(rnd.pairs) == 1 and rnd.complete:
            return rnd.results[1].winner
        return None


def pairing_event(p: Pairing, reason: str = "") -> SwissRoundPaired:
    return SwissRoundPaired(
        p.round, [list(x) for x in p.pairs], p.bye, p.algorithm, p.version, dict(p.cost), p.seed, reason
    )


def new_player(name: str, taken: set[str]) -> dict[str, str]:
    base = slug(name)
    pid, n = base, 2
    while pid in taken:
        pid, n = f"{base}-{n}", n + 1
    return {"id": pid, "name": name.strip()}
