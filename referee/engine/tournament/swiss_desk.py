"""A Swiss tournament's events and the fold over them (one-against-one games: the card game's Kotei). Pure:
the fold refuses what cannot happen with one line; results come in as data (a judge's entry, or a verified
match log's result read by the log layer).

    SwissCreated          name, rounds, the cut (0, 8 or 16), whether time called may be a draw (C-10)
    SwissPlayersRegistered
    SwissPlayerDropped    from the next pairing on
    SwissRoundPaired      a round's pairs and bye, with the algorithm and cost that found them
    SwissResultRecorded   a table's result: the winner (none: a draw) and how; a later one for the same
                          table corrects it (with a reason)
    SwissCutPaired        an elimination round of the cut (1: the top 8 or 16 seeded by the standings)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import PLAYER_ID, TournamentError, check_tournament_id, decode, slug
from .roster import Desk
from .swiss import CUTS, DRAWS, Pairing, Result, Standing, SwissError, bracket_order, next_elimination, standings


@dataclass(frozen=True)
class SwissCreated:
    tournament: str
    name: str
    date: str = ""
    rounds: int = 5
    cut: int = 8  # 0: no cut
    draws: bool = True  # time called may end a match as a draw (C-10); C-01's draw always counts
    format: str = "swiss"


def check_swiss_created(event: SwissCreated) -> None:
    """A new Swiss tournament's settings, the first one wrong named: checked before anything is written (a
    refused `tournament swiss new` makes no database file)."""
    check_tournament_id(event.tournament)
    if not event.name.strip():
        raise TournamentError(f"tournament {event.tournament!r}: a name is needed")
    if event.cut not in (0, *CUTS):
        raise TournamentError(f"a cut to the top {event.cut}: 0 (none), 8 or 16")
    if not 1 <= event.rounds <= 15:
        raise TournamentError(f"{event.rounds} Swiss rounds: 1 to 15")


@dataclass(frozen=True)
class SwissPlayersRegistered:
    players: list  # [{"id", "name"}]


@dataclass(frozen=True)
class SwissPlayerDropped:
    player: str
    reason: str = ""


@dataclass(frozen=True)
class SwissRoundPaired:
    round: int
    pairs: list  # [[a, b], ...], table 1 first
    bye: str | None
    algorithm: str
    version: int
    cost: dict


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
        SwissRoundPaired,
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

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.pairs)


class SwissTournament(Desk):
    """The fold; ``apply`` refuses an event that cannot happen and leaves the fold as it was."""

    def __init__(self) -> None:
        self.info: SwissCreated | None = None
        self.players: dict[str, str] = {}  # id -> name, in registration order
        self.dropped: dict[str, int] = {}  # player -> rounds paired when dropped
        self.rounds: dict[int, Round] = {}  # Swiss rounds and then the cut's, numbered on
        self.count = 0

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

    def results(self) -> list[Result]:
        """Every Swiss result, byes included, as the pure standings take them."""
        out = []
        for n in self.swiss_rounds:
            rnd = self.rounds[n]
            if rnd.bye and rnd.complete:  # counted with its round's results
                out.append(Result(n, rnd.bye, None, rnd.bye, "bye"))
            for table, e in sorted(rnd.results.items()):
                a, b = rnd.pairs[table - 1]
                out.append(Result(n, a, b, e.winner, e.victory))
        return out

    def standings(self) -> list[Standing]:
        return standings(list(self.players), self.results())

    def player(self, key: str) -> str:
        if key in self.players:
            return key
        found = [pid for pid, name in self.players.items() if name.casefold() == key.strip().casefold()]
        if len(found) == 1:
            return found[0]
        raise TournamentError(f"no player {key!r} in tournament {self.created.tournament!r}")

    def table_number(self, round_no: int, player: str) -> int:
        rnd = self._round(round_no)
        for i, pair in enumerate(rnd.pairs, 1):
            if player in pair:
                return i
        raise TournamentError(f"round {round_no}: {self.players.get(player, player)} has no table")

    def _round(self, round_no: int) -> Round:
        if round_no not in self.rounds:
            raise TournamentError(f"round {round_no} has not been paired")
        return self.rounds[round_no]

    @property
    def next_round(self) -> int:
        return max(self.rounds, default=0) + 1

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

    def _SwissPlayersRegistered(self, e: SwissPlayersRegistered) -> None:
        if self.rounds:
            raise TournamentError("players are registered before round 1 is paired")
        new = {}
        for p in e.players:
            pid, name = p["id"], p["name"].strip()
            if not PLAYER_ID.fullmatch(pid) or not name:
                raise TournamentError(f"player {name!r}: an id of lower-case letters, digits and '-' and a name")
            if pid in self.players or pid in new:
                raise TournamentError(f"player id {pid!r} is already registered")
            new[pid] = name
        self.players.update(new)

    def _SwissPlayerDropped(self, e: SwissPlayerDropped) -> None:
        pid = self.player(e.player)
        if pid in self.dropped:
            raise TournamentError(f"{self.players[pid]} has already dropped")
        self.dropped[pid] = len(self.swiss_rounds)

    def _SwissRoundPaired(self, e: SwissRoundPaired) -> None:
        if e.round != self.next_round or e.round > self.created.rounds:
            raise TournamentError(f"round {e.round}: the next Swiss round is {self.next_round}")
        if self.rounds and not self.rounds[max(self.rounds)].complete:
            raise TournamentError(f"round {max(self.rounds)} still has tables without a result")
        pairs = [(a, b) for a, b in e.pairs]
        seated = [p for pair in pairs for p in pair] + ([e.bye] if e.bye else [])
        active = sorted(p for p in self.players if p not in self.dropped)
        if sorted(seated) != active:
            raise TournamentError(f"round {e.round}: the pairing does not seat every player still in exactly once")
        self.rounds[e.round] = Round(pairs, e.bye, pairing=e)

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
            raise TournamentError("time called is not a draw in this tournament: enter the winner the judge decided")
        if e.winner is None and e.victory not in DRAWS:
            raise TournamentError(f"a draw is {' or '.join(DRAWS)}")
        Result(e.round, a, b, e.winner, e.victory)  # the result's own checks
        later = [r for r in self.rounds if r > e.round]
        if later:
            raise TournamentError(f"round {max(later)} was paired after round {e.round}: its results are settled")
        rnd.results[e.table] = e

    def _SwissCutPaired(self, e: SwissCutPaired) -> None:
        size = self.created.cut
        if not size:
            raise TournamentError("this tournament has no cut")
        if len(self.swiss_rounds) < self.created.rounds or not self.rounds[self.created.rounds].complete:
            raise TournamentError(f"the cut comes after the {self.created.rounds} Swiss rounds, all played")
        if e.round != self.next_round:
            raise TournamentError(f"round {e.round}: the next round is {self.next_round}")
        pairs = [tuple(p) for p in e.pairs]
        expected = self.cut_pairs()
        if pairs != [tuple(p) for p in expected]:
            raise TournamentError(f"round {e.round}: the cut's pairs are {expected}, by the standings and the bracket")
        self.rounds[e.round] = Round([(a, b) for a, b in pairs])

    def cut_pairs(self) -> list[tuple[str, str]]:
        """The next elimination round's pairs: from the standings (the first), else the last one's winners."""
        last = self.cut_rounds
        if not last:
            table = [s for s in self.standings() if s.player not in self.dropped]
            size = self.created.cut
            if len(table) < size:
                raise TournamentError(f"a cut to the top {size} needs {size} players still in; {len(table)} are")
            seeds = bracket_order(size)
            top = [s.player for s in table[:size]]
            return [(top[seeds[i] - 1], top[seeds[i + 1] - 1]) for i in range(0, size, 2)]
        rnd = self.rounds[last[-1]]
        if not rnd.complete:
            raise TournamentError(f"round {last[-1]} still has tables without a result")
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


def pairing_event(p: Pairing) -> SwissRoundPaired:
    return SwissRoundPaired(p.round, [list(x) for x in p.pairs], p.bye, p.algorithm, p.version, dict(p.cost))


def new_player(name: str, taken: set[str]) -> dict[str, str]:
    base = slug(name)
    pid, n = base, 2
    while pid in taken:
        pid, n = f"{base}-{n}", n + 1
    return {"id": pid, "name": name.strip()}
