"""The table session's moderator-facing logic: lines typed, the game kept current, nothing lost unasked.

Before each line the session checks the game's head: when another moderator wrote meanwhile, it reads
the game again, shows what changed and asks for the line again, so a rule is never checked against a
stale board. Tokens typed for a round another moderator recorded meanwhile are never recorded as the
next round (R-27). ``undo`` takes back the last typed token; ``quit`` and Ctrl-C ask before
discarding typed tokens.
"""

from __future__ import annotations

from ..core.errors import RefereeError
from ..engine.battle import EntriesRefused
from ..games.battle.round_identity import changes, same_sheet
from ..games.battle.service import RoundSheet

TOKEN_WORDS = ("army", "navy", "shinobi", "raid", "diplomacy", "bluff", "blessing")


def is_token_line(rest: str) -> bool:
    """A revealed token (`army 3 ...`), as opposed to a table event (`plays ...`, `control @ ...`)."""
    word = rest.split(" ", 1)[0].strip().lower().rstrip("0123456789")
    return len(word) >= 2 and any(t.startswith(word) for t in TOKEN_WORDS)


class GameMoved(Exception):
    """Another moderator wrote to the game: what changed, in lines for the moderator."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


class TableSession:
    """A moderator's session on one game: the store stays open, the fold stays in memory and is read
    again only when another moderator wrote."""

    def __init__(self, store, game: str):
        from ..games.battle.service import OpenGame

        self.store = store
        self.game = game
        self.log = OpenGame(store, game)
        self.pending: list = []  # the round's tokens typed so far (entries, checked together as typed)
        self._pending_round = 0  # the round they were typed for
        self._read: RoundSheet | None = None  # the pending round as the game service read it (``ready``)

    @property
    def state(self):
        return self.log.state

    @property
    def round(self) -> int:
        return self.state.round

    # --- keeping current --------------------------------------------------------------------------
    def check_current(self) -> None:
        """Raise ``GameMoved`` (having read the game again) when another moderator wrote since the
        session last read it; nothing otherwise."""
        head = self.store.head(self.game)
        if head == self.log.events[-1].hash:
            return
        known = len(self.log.events)
        self.log.reload()
        raise self._moved(self.log.events[known:])

    def _moved(self, new: list) -> GameMoved:
        from ..engine.battle import format_entry

        was = self.pending_round
        lines = [f"another moderator wrote to game {self.game!r} meanwhile:", *(f"  {c}" for c in changes(new))]
        if self.pending and self.round != was:
            mine = [format_entry(e) for e in self.pending]
            same = same_sheet(new, mine, was)
            if same is not None:
                lines.append(
                    f"round {was} is already recorded with these same tokens (seal {same.seal}); nothing recorded"
                )
            else:
                lines.append(
                    f"not recorded: your {len(mine)} typed token(s) were for round {was}, which another "
                    f"moderator recorded: {'; '.join(mine)}"
                )
            self.pending = []
        elif self.pending:
            refusals = self.check(self.pending)
            lines += [f"your typed tokens on the board as it is now: {r.line(self.round)}" for r in refusals]
        lines.append(f"the game is at {_where(self.state)}: type the line again")
        return GameMoved(lines)

    @property
    def pending_round(self) -> int:
        return self._pending_round if self.pending else self.round

    def check(self, entries, complete: bool = False):
        from ..engine.battle import begin_round, check_placements

        return check_placements(begin_round(self.state), entries, complete=complete)

    # --- lines ------------------------------------------------------------------------------------
    def add(self, line: str) -> str:
        """One typed line: a table event (recorded now) or a token (held until the round resolves)."""
        from ..engine.battle import format_entry, split_clan
        from ..games.battle.service import check_token

        self.check_current()
        _, rest = split_clan(line)
        if not is_token_line(rest):
            return self.table_event(line)
        self.log.check_round()  # the game-over guard, and round 1's tokens wait for the setup (p.4)
        entry = check_token(self.state, self.pending, line)  # the one check of a token as it is entered
        if not self.pending:
            self._pending_round = self.round
        self.pending.append(entry)
        return f"  ✓ {format_entry(entry)}"

    def table_event(self, line: str) -> str:
        """A setup fact, initiative card or card play: checked, applied and recorded at once (R-22)."""
        if self.pending:
            raise RefereeError(
                f"round {self.round}: table events come before the round's tokens; resolve, undo or "
                f"clear the {len(self.pending)} pending token(s) first"
            )
        event, _, notes = self._write(lambda: self.log.record_table_events([line]))
        return f"  ✓ {event.data['lines'][0]}  — {notes[0]}"

    def undo(self) -> str:
        from ..engine.battle import format_entry

        if not self.pending:
            return f"nothing to undo: no token typed for round {min(self.round, 5)}"
        entry = self.pending.pop()
        return f"undone: {format_entry(entry)} (nothing had been recorded)"

    def ready(self) -> None:
        """Before the round is resolved: the game must still be where the tokens were typed, and the game
        service reads the round (the game-over guard, the one placement check, the round resolved)."""
        self.check_current()
        try:
            self._read = self.log.round_of(self.pending)
        except EntriesRefused as exc:
            raise RefereeError("\n".join(r.line(self.round) for r in exc.refusals)) from None

    def resolve_pending(self):
        """Record the pending round, as the game service read it in ``ready``; return (event, state, report)."""
        read = self._read
        if read is None or read.entries != tuple(self.pending):  # tokens changed since: read them again
            read = self.log.round_of(self.pending)
        event, state, report = self._write(lambda: self.log.record_round(read))
        self.pending, self._read = [], None
        return event, state, report

    def _write(self, write):
        from ..store.families import GameChanged

        known = len(self.log.events)
        try:
            return write()
        except GameChanged:  # another moderator wrote between the check and the write: the log was read again
            raise self._moved(self.log.events[known:]) from None


def _where(state) -> str:
    return f"round {state.round}" if state.round <= 5 else "the end of round 5"
