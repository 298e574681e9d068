"""A tournament's events and the fold over them. Pure: the fold refuses what cannot happen, with one line
naming the input, the round and the rule; it never reads a game (results come in as data).

Every event is a frozen dataclass; its payload is ``asdict`` of it (JSON), its type the class name.
"""

from __future__ import annotations

from fractions import Fraction

from .events import (
    CallRetracted,
    FinalTableSeated,
    GameCalled,
    PointsAdjusted,
    ResultAccepted,
    ResultEntered,
    RoundClosed,
    TournamentError,
)
from .roster import Roster, Table


class Tournament(Roster):
    """The fold over a tournament's events: ``apply`` refuses an event that cannot happen and leaves the
    fold as it was. Its roster and seatings are ``Roster``'s; here, the results: accepted from the games' logs,
    games called, a judge's entries, adjustments, a round's close and the final table."""

    def table_of_game(self, game: str) -> tuple[int, Table] | None:
        for r, s in self.seatings.items():
            for t in s.tables:
                if t.game == game:
                    return r, t
        if self.final and self.final.table["game"] == game:
            return 0, Table.of(self.final.table)
        return None

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
