"""The fold of a Battle for Rokugan log: every event folded in, in order, into the game as it stands (its header,
the board before round 1, every round played, the sealed and revealed objectives, the table events of the round
under way). The one answer to "finished", "sealed left", "the board after round N" and the score of a logged
game (``game_score``). A retraction rebuilds the fold from the events still in effect; a correction re-runs the
rounds after it (``amend``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...core.errors import RefereeError
from ...engine.battle import ROUNDS, Board, Clan, GameState, RoundReport, apply_board_facts, new_state
from ...store.events import Event, ReplayError
from ..kinds import CREATING, not_battle
from . import amend, objectives
from .boarddata import load_board
from .ending import GameScore, fast_score_digest, game_ended_payload
from .events import ENDED, OVER, EventType
from .lines import BoardAfter, Header, Played, header_of, play_round, played, read_entries
from .table_lines import apply_table_lines

CORRECTIONS = frozenset(
    {EventType.ENTRY_CORRECTED, EventType.TABLE_EVENTS_CORRECTED, EventType.SETUP_CORRECTED, EventType.GAME_ENDED}
)
AMENDING = frozenset({EventType.ENTRY_CORRECTED, EventType.TABLE_EVENTS_CORRECTED, EventType.SETUP_CORRECTED})


class Fold:
    """The running fold over a log: header, the board before round 1, and every round played."""

    def __init__(self, board: Board | None = None):
        self._board = board
        self.header: Header | None = None
        self.start: GameState | None = None
        self.rounds: list[Played] = []
        self.seq = 0
        self.seals: dict[Clan, str] = {}  # sealed objectives: clan -> commitment
        self.revealed: dict[Clan, str] = {}  # objectives revealed at the end of the game
        self.pending: list[str] = []  # table events of the round under way (before its tokens)
        self.pending_state: GameState | None = None
        self.notes: list[str] = []  # what the last table events did, in the moderator's words
        self.live: list[Event] = []  # the events in effect: not retracted (a retraction rebuilds from these)
        self.setup_lines: list[str] = []  # every setup fact in effect, in order
        self.ended = False  # a GameEnded closes the log; only a correction may follow (and re-close it)

    @classmethod
    def of(cls, events: Iterable[Event], board: Board | None = None) -> Fold:
        fold = cls(board)
        for e in events:
            fold.apply(e)
        return fold

    @property
    def board(self) -> Board:
        """The game's board data: given to the fold, or loaded when the GameCreated event is folded in."""
        if self._board is None:
            raise ReplayError("the log has no GameCreated event")
        return self._board

    @property
    def _created_game(self) -> tuple[Header, GameState]:
        """The header and the setup board, which every event after GameCreated needs."""
        if self.header is None or self.start is None:
            raise ReplayError("the log has no GameCreated event")
        return self.header, self.start

    @property
    def _resolved(self) -> GameState:
        """The board after the last resolved round (the setup board before round 1)."""
        return self.rounds[-1].after if self.rounds else self._created_game[1]

    @property
    def _current(self) -> GameState:
        """The board now: the resolved board with the table events of the round under way."""
        return self.pending_state or self._resolved

    @property
    def state(self) -> GameState:
        if self.start is None:
            raise ReplayError("the log has no GameCreated event")
        state = self._current
        if not self.revealed:
            return state
        # a sealed objective is the one revealed, or none: "" (declared not met, R-28) scores nothing, finally
        objectives = {c: o for c, o in state.objectives.items() if c not in self.seals}
        objectives |= {c: o for c, o in self.revealed.items() if o}
        return state.with_(objectives=objectives)

    def apply(self, event: Event, outcome: tuple | None = None, data: dict | None = None) -> RoundReport | None:
        """Fold one event in; a refused event raises and leaves the fold as it was. ``outcome``: the
        event's effect, already computed on this fold so that it is not computed twice: ``(state,
        report)`` of a round from ``round_outcome``, ``(state, notes)`` of table events. ``data``: the
        event's ``data``, when the caller has read it already (``verify`` reads it once for two uses)."""
        if event.type in CREATING:  # another kind of record: its own commands read it
            raise ReplayError(not_battle(CREATING[event.type]), seq=event.seq)
        if data is None:
            data = event.data
        try:
            if self.ended and event.type not in CORRECTIONS:
                raise ReplayError(ENDED)
            if event.type == EventType.EVENT_RETRACTED:
                self.retract(data["seq"])
                report = None  # a retraction rebuilds the fold; it resolves no round
            else:
                report = self._apply(event.type, data, outcome)
        except ReplayError as exc:
            raise ReplayError(exc.problem, seq=event.seq) from None
        except (RefereeError, ValueError) as exc:
            raise ReplayError(f"{event.type}: {exc}", seq=event.seq) from None
        if event.type != EventType.EVENT_RETRACTED:
            self.live.append(event)
        self.seq = event.seq
        return report

    @property
    def rounds_over(self) -> bool:
        """The fifth round is resolved: no round or table event may follow (p.10)."""
        return len(self.rounds) >= ROUNDS

    @property
    def sealed_left(self) -> list[Clan]:
        """The clans whose sealed objective is not revealed yet, in seat order."""
        clans = self.header.clans if self.header is not None else list(self.seals)
        return [c for c in clans if c in self.seals and c not in self.revealed]

    @property
    def complete(self) -> bool:
        """The one answer to "is this game finished": five rounds played and no objective still sealed
        (p.10, R-28); the log is then closed with GameEnded."""
        return self.rounds_over and not self.sealed_left

    def closed(self) -> str | None:
        """Why no round or table event may be recorded now (None: one may): the one game-over message."""
        if self.ended:
            return ENDED
        if self.rounds_over:
            return OVER
        return None

    def _apply(self, type_: str, data: dict, outcome: tuple | None) -> RoundReport | None:
        if type_ == EventType.GAME_CREATED:
            self._created(data)
        elif self.header is None:
            raise ReplayError(f"{type_} before the game was created")
        elif type_ == EventType.SETUP_RECORDED:
            self._setup(data["lines"])
        elif type_ == EventType.ROUND_RESOLVED:
            return self._round(data["round"], data["entries"], outcome)
        elif type_ == EventType.TABLE_EVENTS_RECORDED:
            self._table(data["round"], data["lines"], outcome)
        elif type_ == EventType.OBJECTIVE_SEALED:
            self.seals[self.sealable(data["clan"])] = data["commitment"]
        elif type_ == EventType.OBJECTIVE_REVEALED:
            self._revealed(data["clan"], data["objective"], data["code"])
        elif type_ == EventType.GAME_ENDED:
            _close(self, data)
        else:
            report = _corrected(self, type_, data)
            self.ended = False  # a correction re-opens a finished game until it is closed again
            return report
        return None

    def _table(self, round_no: int, lines: list[str], outcome: tuple[GameState, list[str]] | None) -> None:
        """Table events of the round under way (R-22): applied now, re-applied when a round is re-run."""
        objectives.unsealed_only(lines, self.seals, self.board)
        base = self._current
        track = base.round
        if track > ROUNDS:
            raise ReplayError("table events after the fifth round: the game is over")
        if round_no != track:
            raise ReplayError(f"table events for round {round_no}, but the round track is at {track}")
        state, self.notes = outcome or apply_table_lines(base, lines, self.board)
        self.pending += list(lines)
        self.pending_state = state

    def sealable(self, clan: str) -> Clan:
        """The clan's seat, if it may still seal a secret objective (ReplayError otherwise)."""
        return objectives.sealable(self._seat(clan), len(self.rounds), self.seals, self._created_game[1], self._current)

    def _revealed(self, clan: str, objective: str, code: str) -> None:
        seat = self._seat(clan)
        if len(self.rounds) < ROUNDS:
            raise ReplayError(f"{seat}: objectives are revealed at the end of the game (p.10), after round 5")
        self.revealed[self.check_reveal(clan, objective, code)] = objective

    def check_reveal(self, clan: str, objective: str, code: str) -> Clan:
        """The one check of a secret objective revealed (``objective`` with its reveal ``code``), or declared not
        met (``objective`` "", R-28): the clan's seat, or ReplayError. ``referee reveal`` (through the log) and a
        called game's reveals (``referee tournament call``) both ask it; when a reveal may happen is the
        caller's (after round 5 in the log; at the call for a called game)."""
        seat = self._seat(clan)
        header, start = self._created_game
        return objectives.check_reveal(seat, objective, code, self.seals, self.revealed, self.board, header, start)

    def _seat(self, clan: str) -> Clan:
        seat = Clan(clan)
        if seat not in self._created_game[0].clans:
            raise ReplayError(f"{seat} is not playing in this game")
        return seat

    def _created(self, data: dict) -> None:
        if self.header is not None:
            raise ReplayError("a second GameCreated event")
        self._board = self._board or load_board()
        self.header = header_of(data)
        self.start = new_state(self.board, self.header.clans, options=self.header.options)

    def _setup(self, lines: list[str]) -> None:
        if self.rounds:
            raise ReplayError("setup recorded after round 1 was resolved")
        if self.pending:
            raise ReplayError("setup facts recorded after table events: enter them as table events")
        header, state = self._created_game
        facts = amend.check_new_facts(self.setup_lines, lines, self.board)
        bad = amend.first_foreign(facts, header.clans)
        state = apply_board_facts(state, facts[:bad])  # a conflict before the foreign fact is refused first
        if bad is not None:
            raise ReplayError(
                f"line {bad + 1}: {lines[bad]!r}: {facts[bad].clan} is not playing in this game "
                f"({', '.join(map(str, header.clans))})"
            )
        self.start = state  # round 1's upkeep begins with its first table event or its tokens
        self.setup_lines += lines

    def _round(self, round_no: int, lines: list[str], outcome: tuple[GameState, RoundReport] | None) -> RoundReport:
        track = self.state.round
        if track > ROUNDS:
            raise ReplayError(f"round {round_no} recorded after the fifth round: the game is over")
        if round_no != track:
            raise ReplayError(f"records round {round_no}, but the round track is at {track}")
        start = self._resolved
        before = self.pending_state or start
        after, report = outcome or play_round(before, read_entries(lines, self.board))
        self.rounds.append(Played(round_no, tuple(lines), before, after, report, tuple(self.pending), start))
        self.pending, self.pending_state = [], None
        return report

    def board_after(self, round_no: int) -> BoardAfter:
        """The board after round ``round_no`` (0: after setup) as this fold has it, with the corrections in
        effect behind it (a correction of that round or an earlier one, or of the setup)."""
        at = self.played(round_no) if round_no else None
        state = at.after if at is not None else self._created_game[1]
        changed = tuple(
            e
            for e in self.live
            if e.type in AMENDING and (e.type == EventType.SETUP_CORRECTED or e.data["round"] <= round_no)
        )
        return BoardAfter(round_no, state, at, changed)

    def played(self, round_no: int) -> Played:
        return played(self.rounds, round_no)

    def retract(self, seq: int) -> None:
        """Take back event ``seq``, which must be the last in effect: the fold is rebuilt without it."""
        target = amend.to_retract(self.live)
        if target.seq != seq:
            raise ReplayError(f"retracts event {seq}, but the last event in effect is event {target.seq}")
        fresh = type(self)(self.board)  # a fresh fold of the same kind
        for e in self.live[:-1]:
            fresh.apply(e)
        seq_now = self.seq
        self.__dict__.update(fresh.__dict__)
        self.seq = seq_now

    def rerun(
        self,
        round_no: int,
        lines: tuple[str, ...] | None = None,
        *,
        table: tuple[str, ...] | None = None,
        start: GameState | None = None,
    ) -> list[Played]:
        """Round ``round_no`` with ``lines`` (its tokens), ``table`` (its table events) or ``start`` (the board
        before it) instead, then every later round as recorded."""
        return amend.rerun(self.rounds, self.board, round_no, lines, table=table, start=start)

    def setup_board(self, lines: Sequence[str]) -> GameState:
        """The board before round 1 with ``lines`` as the whole setup (the game's creation, then the facts)."""
        return amend.setup_board(self._created_game[0], self.board, lines)


def with_objectives(fold: Fold, state: GameState) -> GameState:
    """``state`` with the objectives revealed at the end of the game (setup objectives are on it already)."""
    shown = {c: o for c, o in fold.revealed.items() if o}  # "": declared not met
    return state.with_(objectives={**state.objectives, **shown}) if shown else state


def game_score(fold: Fold, state: GameState | None = None) -> GameScore:
    """Honor of the logged game on its current board, or on ``state`` (a what-if's final board): the
    one scoring path of every command."""
    from ...engine.battle import final_score

    board = fold.state if state is None else with_objectives(fold, state)
    header = fold._created_game[0]
    sealed = tuple(map(str, fold.sealed_left))
    return GameScore(final_score(board), len(fold.rounds), sealed, dict(header.players), header.partial_setup)


def setup_missing(fold: Fold) -> list[str]:
    """What the rulebook's setup still lacks (p.4 steps 6-7, p.5 step 10): every clan's capital token and its
    set-aside control tokens for this number of players, counted on the setup board (setup facts and the
    setup's table events; a card played in round 1 does not count against it)."""
    from ...engine.battle import FACTS, SETUP_ONLY, parse_table_event

    header, state = fold._created_game
    board, clans = fold.board, header.clans
    setup = [line for line in fold.pending if isinstance(parse_table_event(line, board), SETUP_ONLY + FACTS)]
    if setup:
        state, _ = apply_table_lines(state, setup, board)
    need = 1 + board.control_set_aside.get(len(clans), 0)
    out = []
    for c in clans:
        have = state.control_tokens_on_board(c)
        if have < need:
            out.append(f"{c} has {have} of its {need} starting control tokens on the board ({need - have} to place)")
    return out


# --- a correction, and the closing: what the fold does with them -------------------------------------------
def _corrected(fold: Fold, type_: str, data: dict) -> RoundReport | None:
    """A correction of the setup, of a round's table events or of its tokens: every round after it re-run."""
    if type_ == EventType.SETUP_CORRECTED:
        return _setup_corrected(fold, tuple(data["lines"]))
    table = type_ == EventType.TABLE_EVENTS_CORRECTED
    if table:
        objectives.unsealed_only(data["lines"], fold.seals, fold.board)
    rounds = (
        fold.rerun(data["round"], table=tuple(data["lines"]))
        if table
        else fold.rerun(data["round"], tuple(data["entries"]))
    )
    old = fold.rounds[:]
    fold.rounds[data["round"] - 1 :] = rounds
    try:
        _reapply_pending(fold)
    except ReplayError:
        fold.rounds[:] = old
        raise
    return rounds[0].report


def _setup_corrected(fold: Fold, lines: tuple[str, ...]) -> RoundReport | None:
    objectives.unsealed_only(lines, fold.seals, fold.board, setup=True)
    start = fold.setup_board(lines)
    rounds = fold.rerun(1, start=start) if fold.rounds else []
    if fold.pending:  # checked before anything changes: a refused correction leaves the fold as it was
        amend.reapplied(fold.pending, rounds[-1].after if rounds else start, fold.board, len(fold.rounds) + 1)
    fold.rounds[:] = rounds
    fold.start, fold.setup_lines = start, list(lines)
    _reapply_pending(fold)
    return fold.rounds[0].report if fold.rounds else None


def _reapply_pending(fold: Fold) -> None:
    """After a correction: the table events of the round under way, on the corrected board."""
    if fold.pending:
        fold.pending_state, fold.notes = amend.reapplied(fold.pending, fold._resolved, fold.board, len(fold.rounds) + 1)


def _close(fold: Fold, data: dict) -> None:
    if fold.ended:
        raise ReplayError("the game is closed already")
    if not fold.complete:
        left = "objectives are still sealed" if fold.rounds_over else f"round {len(fold.rounds) + 1} is to play"
        raise ReplayError(f"the game is closed, but {left}")
    score = game_score(fold)
    if data == game_ended_payload(score, fast_score_digest):  # the everyday case, at orjson's speed
        fold.ended = True
        return
    computed = game_ended_payload(score)  # the engine's canonical digest decides
    if data != computed:
        raise ReplayError(
            f"the recorded final score {data['scores']} (digest {data['digest'][:12]}...) is not the "
            f"engine's {computed['scores']} (digest {computed['digest'][:12]}...)"
        )
    fold.ended = True
