"""The game service: a new game recorded, and an open game's commands (setup, rounds, table events,
corrections, objectives). Each reads the game, decides with the engine and appends one event to the store.

A round is the service's: ``OpenGame.read_round(text, round)`` reads a sheet once (its ``round: N`` header
and ``--round`` agreeing, R-27), recognises a sheet already recorded, refuses a sheet for another round, a
game over and an incomplete setup, checks the placements once (R-08) and resolves the round on the fold;
``record_round`` records what was read; ``enter_round`` does both. `referee round`, the table session and
any other entry ask it; they only prompt, confirm and print.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ... import ENGINE_VERSION
from ...engine.battle import (
    ROUNDS,
    Clan,
    EntriesRefused,
    Entry,
    GameState,
    NotationError,
    RoundReport,
    RulesOptions,
    begin_round,
    check_placements,
    format_entry,
    in_round,
    parse_clan,
    parse_entry,
    parse_round,
    resolve_name,
    sheet_for,
    split_round_header,
    state_digest,
)
from ...store import events as ev
from ...store.events import Event, LogError, ReplayError
from ...store.families import GameChanged
from ...store.storage import Store
from . import replay
from .amend import to_retract
from .boarddata import load_board
from .commitment import canonical_code, commit
from .ending import game_ended_payload
from .events import (
    ENDED,
    EventType,
    entry_corrected,
    game_created,
    objective_revealed,
    objective_sealed,
    round_resolved,
    setup_corrected,
    setup_recorded,
    table_events_corrected,
    table_events_recorded,
)
from .fold import Fold, game_score, setup_missing
from .lines import canonical_lines, canonical_setup, canonical_table_lines
from .replay import Correction
from .round_identity import Recorded, changes, last_seal, named_round, same_sheet
from .table_lines import apply_table_lines

HEADER = ("players", "event", "table", "date", "options")  # new_game's keywords that a GameCreated payload records


def recorded_header(created: dict[str, Any]) -> dict[str, Any]:
    """The header of a recorded game (its GameCreated payload), as ``new_game`` takes it: a copy of the game
    is ``new_game(store, other, created["clans"], **recorded_header(created))``."""
    return {key: created[key] for key in HEADER}


def new_game(
    store: Store,
    game: str,
    clans: Sequence[str | Clan],
    *,
    players: dict[str, str] | None = None,
    event: str = "",
    table: str = "",
    date: str = "",
    options: dict[str, Any] | None = None,
    setup: str | Iterable[str] = (),
    partial_setup: bool = False,
) -> list[Event]:
    """Record a new game, and its first setup facts (``setup``) in the same transaction: both or neither."""
    ev.check_game_id(game)
    try:
        seats = [Clan(str(c).strip().lower()) for c in clans]
        rules = RulesOptions.from_dict(options or {}).to_dict()
        names = {str(Clan(k.lower())): v for k, v in (players or {}).items()}  # a player's clan is a clan
    except ValueError as exc:
        raise LogError(f"game {game!r}: {exc}") from None
    if not 2 <= len(seats) <= 5 or len(set(seats)) != len(seats):
        raise LogError(f"game {game!r}: 2 to 5 different clans play, got {', '.join(map(str, seats)) or 'none'}")
    strangers = sorted(set(names) - set(map(str, seats)))
    if strangers:
        raise LogError(f"game {game!r}: players named for clans not playing: {', '.join(strangers)}")
    board = load_board()
    items = [
        (
            EventType.GAME_CREATED,
            game_created(
                game,
                seats,
                names,
                rules,
                event=event,
                table=table,
                date=date,
                engine_version=ENGINE_VERSION,
                board_version=board.version,
                partial_setup=partial_setup,
            ),
        )
    ]
    lines = canonical_setup(setup, board)
    if lines:
        items.append((EventType.SETUP_RECORDED, setup_recorded(lines)))
        Fold.of(ev.chain_all(game, [(t, p, None) for t, p in items]), board)  # refused before anything is stored
    return store.append(game, items, None)


def check_token(state: GameState, lines: Sequence[str | Entry], line: str) -> Entry:
    """One token added to a round being entered (``lines``: those entered so far): parsed, and the round so far
    checked as a round still being typed (R-08, no minimum yet). The one check of a token as it is entered
    (`referee round` typed, the table session, a seat's phone): the entry, or ``NotationError`` /
    ``EntriesRefused`` with the one-line reasons."""
    start = begin_round(state)
    entry = parse_entry(line, start.board)
    before = [x if isinstance(x, Entry) else parse_entry(x, start.board) for x in lines]
    refusals = check_placements(start, [*before, entry], complete=False)
    if refusals:
        raise EntriesRefused(refusals, state.round)
    return entry


def typed_reveal(board, clan: str, objective: str) -> tuple[str, str]:
    """A reveal as a moderator types it (`referee reveal`, `referee tournament call`): the clan's seat and the
    objective's id (an alias or a unique prefix works); an empty objective declares it not met (R-28)."""
    seat = str(parse_clan(clan, clan))
    return seat, resolve_name(objective, {o: o for o in board.objectives}, "objective", objective) if objective else ""


@dataclass(frozen=True, slots=True)
class RoundSheet:
    """A round read by the game service: parsed once, its round identified (R-27), its placements checked
    (R-08) and the round resolved on the fold as it stood (``seq``); not recorded yet."""

    round: int
    lines: tuple[str, ...]  # canonical notation, in the sheet's order
    entries: tuple[Entry, ...]
    outcome: tuple[GameState, RoundReport] | None  # None: the same sheet is already recorded
    recorded: Recorded | None = None  # that recorded round (R-27: nothing new to record)
    seq: int = 0  # the last event folded when the sheet was read


@dataclass(frozen=True, slots=True)
class RoundEntered:
    """What entering a round did: ``event`` None when the same sheet was already recorded (``seal`` is then
    the recorded round's); ``moved``: what another moderator recorded meanwhile, in the moderator's words."""

    round: int
    event: Event | None
    state: GameState
    report: RoundReport | None
    seal: str
    moved: tuple[str, ...] = ()


class RoundMoved(LogError):
    """Another moderator recorded meanwhile and the sheet is not what they recorded: nothing recorded."""

    def __init__(self, message: str, moved: Sequence[str], hint: str | None = None):
        super().__init__(message, hint=hint)
        self.moved = tuple(moved)


class OpenGame:
    """One game's log, read and folded once. Each command checks with the engine, appends one event and
    moves the fold on, so a session that keeps the game open never reads or replays the log again."""

    def __init__(self, store: Store, game: str):
        self.store, self.game = store, game
        self.reload()

    def reload(self) -> None:
        self.events = self.store.events(self.game)
        self.fold = Fold.of(self.events)

    @property
    def state(self) -> GameState:
        return self.fold.state

    def _append(self, type_: str, payload: dict[str, Any], outcome=None) -> Event:
        """Fold the event in, then store it. The fold refuses what the engine refuses, and a refusal leaves
        it as it was; ``outcome`` is the event's effect, already computed on this fold."""
        items = [(type_, payload)]
        try:
            event = ev.chain(self.game, self.events[-1], type_, payload)
            self.fold.apply(event, outcome)
            if self.fold.complete and not self.fold.ended:  # round 5 or the last reveal: the log is closed
                items.append((EventType.GAME_ENDED, game_ended_payload(game_score(self.fold))))
                self.fold.apply(ev.chain(self.game, event, *items[-1]))
        except ReplayError as exc:  # a new event: the moderator knows it by its game and round, not its number
            if len(items) > 1:  # the event was folded in, its closing was not: read the game again
                self.reload()
            raise self._refused(exc) from None
        known = len(self.events)
        try:
            recorded = self.store.append(self.game, items, self.events[-1])
        except GameChanged as exc:  # another moderator wrote first: read the game again, say what they wrote
            self.reload()
            exc.recorded = self.events[known:]
            raise
        except LogError:  # the database failed: the fold ran ahead
            self.reload()
            raise
        self.events += recorded
        if self.fold.ended or any(e.type == EventType.GAME_ENDED for e in self.events):
            from ...records.signing import sign_recorded  # a game closed once: its closing and every later event signed

            sign_recorded(self.store, "game", self.events, recorded)
        return recorded[0]

    def _refused(self, exc: ReplayError) -> LogError:
        """What the engine refused, named by the game and the round it is in (or after round 5)."""
        track = self.state.round
        return LogError(f"game {self.game!r}, {f'round {track}' if track <= 5 else 'after round 5'}: {exc.problem}")

    @property
    def ended(self) -> Event | None:
        """The GameEnded event closing the log, if the game is finished."""
        return self.events[-1] if self.fold.ended else None

    def retract(self, reason: str, seq: int | None = None) -> tuple[Event, Event]:
        """Take back the last event in effect (``seq``, when given, names it), as a new event; returns (the
        retraction, the event taken back)."""
        if not reason.strip():
            raise LogError(f"game {self.game!r}: a retraction needs a reason (--reason)")
        try:
            if self.fold.ended:
                raise ReplayError(ENDED)
            target = to_retract(self.fold.live)
            if seq is not None and seq != target.seq:
                raise ReplayError(
                    f"event {seq} is not the last event in effect (event {target.seq}): only it is taken back"
                )
        except ReplayError as exc:
            raise LogError(f"game {self.game!r}: {exc.problem}") from None
        event = self._append(EventType.EVENT_RETRACTED, ev.event_retracted(target.seq, target.type, reason.strip()))
        return event, target

    def correct_table(self, round_no: int, lines: str | Iterable[str], reason: str) -> Event:
        """Replace a resolved round's table events; the round and every later one are re-run."""
        if not reason.strip():
            raise LogError(f"game {self.game!r}: a correction needs a reason")
        canonical = canonical_table_lines(lines, self.fold.board)
        digests = {p.round: state_digest(p.after) for p in self.fold.rerun(round_no, table=canonical)}
        payload = table_events_corrected(round_no, canonical, reason.strip(), digests)
        return self._append(EventType.TABLE_EVENTS_CORRECTED, payload)

    def correct_setup(self, lines: str | Iterable[str], reason: str) -> Event:
        """Replace the whole setup (every setup fact); every round played is re-run on it."""
        if not reason.strip():
            raise LogError(f"game {self.game!r}: a correction needs a reason")
        canonical = canonical_setup(lines, self.fold.board)
        start = self.fold.setup_board(canonical)
        rerun = self.fold.rerun(1, start=start) if self.fold.rounds else []
        digests = {p.round: state_digest(p.after) for p in rerun}
        return self._append(EventType.SETUP_CORRECTED, setup_corrected(canonical, reason.strip(), digests))

    def record_setup(self, lines: str | Iterable[str]) -> tuple[Event, GameState]:
        payload = setup_recorded(canonical_setup(lines, self.fold.board))
        if not payload["lines"]:  # an empty file or a closed input records nothing (as an empty round sheet)
            raise LogError(f"game {self.game!r}: the setup file holds no facts; nothing recorded")
        return self._append(EventType.SETUP_RECORDED, payload), self.state

    def check_setup(self) -> None:
        """Round 1 is refused while the rulebook's setup is incomplete (p.4), unless the game was taken over
        mid-way (``partial_setup``)."""
        fold = self.fold
        if fold.rounds or fold._created_game[0].partial_setup:
            return
        missing = setup_missing(fold)
        if missing:
            raise LogError(
                f"game {self.game!r}, round 1: the setup is incomplete (p.4 step 7, p.5 step 10): "
                + "; ".join(missing),
                hint=f"`referee setup {self.game} FILE` places them; a game taken over mid-way is started with "
                "`referee new GAME --partial-setup ...`",
            )

    # --- a round: the service owns it -----------------------------------------------------------------
    def where_now(self) -> str:
        return f"round {self.state.round}" if self.state.round <= ROUNDS else "the end of round 5"

    def check_open(self) -> None:
        """The one game-over guard: nothing but a correction after the end (p.10)."""
        why = self.fold.closed()
        if why is not None:
            g = self.game
            message = f"game {g!r}: {why}" if why == ENDED else f"game {g!r} is over: {why}"
            raise LogError(message, hint=f"referee score {g}")

    def check_round(self, round: int | None = None) -> None:
        """Before a round's tokens are typed or read: the round named (if any) is the game's next one (R-27),
        the game is not over, and round 1 waits for the setup (p.4)."""
        if round is not None and round != self.state.round:
            raise LogError(
                f"game {self.game!r}: the sheet is for round {round}, but game {self.game!r} is at "
                f"{self.where_now()}; nothing recorded (R-27)"
            )
        self.check_open()
        self.check_setup()

    def read_round(self, text: str, round: int | None = None) -> RoundSheet:
        """A round sheet (``round: N`` header allowed, agreeing with ``round``) read once and judged on the fold:
        the same sheet as a recorded round is that round (``recorded``); another sheet for a recorded round,
        or a sheet for a round after the next one, is refused naming the rounds (R-27)."""
        header, body = split_round_header(text)
        want = named_round(round, header, f"game {self.game!r}")
        try:
            entries = tuple(parse_round(body, self.fold.board))
        except NotationError as exc:  # every unreadable line, each named with its round
            raise in_round(exc, min(want or self.state.round, ROUNDS)) from None
        return self.read_entries(entries, want)

    def read_entries(self, entries: Sequence[Entry], want: int | None = None) -> RoundSheet:
        """A round's entries read already (the phones' tokens, each read once), judged as ``read_round`` judges
        the sheet they make: a recorded round's sheet is that round; R-27's refusals; else ``round_of``."""
        lines = tuple(map(format_entry, entries))
        found = same_sheet(self.events, lines, want)
        if found is not None:
            return RoundSheet(found.round, lines, tuple(entries), None, found, self.fold.seq)
        current = self.state.round
        if want is not None and want < current:
            raise LogError(
                f"game {self.game!r}: round {want} is already recorded (seal {last_seal(self.events, want)}) "
                f"with another sheet, and the game is at {self.where_now()}; nothing recorded (R-27)",
                hint=f"to change a recorded round: referee correct {self.game} {want} FILE --reason '...'",
            )
        return self.round_of(entries, want)

    def round_of(self, entries: Sequence[Entry], round: int | None = None) -> RoundSheet:
        """The next round with these entries: the game open, the setup complete, the placements checked once
        (R-08: every refused entry at once) and the round resolved on the fold; nothing recorded."""
        self.check_round(round)
        entries = sorted(entries, key=format_entry)  # the canonical order every round is recorded in (ORDERED)
        state = self.state
        refusals = check_placements(begin_round(state), entries)
        if refusals:
            raise EntriesRefused(refusals, state.round)
        outcome = replay.play_round(state, entries, True)  # checked above: the engine does not check again
        return RoundSheet(state.round, tuple(map(format_entry, entries)), tuple(entries), outcome, None, self.fold.seq)

    def record_round(self, round: RoundSheet | str | Iterable[str | Entry]) -> tuple[Event, GameState, RoundReport]:
        """Record a round read by ``read_round``/``round_of`` (or entries, read here): one event."""
        sheet = round if isinstance(round, RoundSheet) else self._sheet(round)
        if sheet.outcome is None or sheet.seq != self.fold.seq:  # recorded already, or read on another fold
            sheet = self.round_of(sheet.entries)
        assert sheet.outcome is not None
        state, report = sheet.outcome
        payload = round_resolved(report.round, sheet.lines, state_digest(state))
        return self._append(EventType.ROUND_RESOLVED, payload, sheet.outcome), state, report

    def _sheet(self, entries: str | Iterable[str | Entry]) -> RoundSheet:
        if isinstance(entries, str):
            return self.read_round(entries) if entries.strip() else self.round_of([])
        items = list(entries)
        parsed = [e for e in items if isinstance(e, Entry)]
        if len(parsed) == len(items):
            return self.round_of(parsed)
        return self.read_round("\n".join(e if isinstance(e, str) else format_entry(e) for e in items))

    def enter_round(self, text: str, round: int | None = None) -> RoundEntered:
        """Read and record a round sheet (no confirmation: the caller asks first with ``read_round``)."""
        return self.record_sheet(self.read_round(text, round))

    def record_sheet(self, sheet: RoundSheet) -> RoundEntered:
        """Record a sheet read by ``read_round``. The same sheet recorded already records nothing; a write
        refused because another moderator wrote first is never repeated: the game is read again and what
        they recorded is told (``RoundMoved``, or the same sheet found recorded by them)."""
        if sheet.recorded is not None:
            return RoundEntered(sheet.recorded.round, None, self.state, None, sheet.recorded.seal)
        known = len(self.events)
        try:
            event, state, report = self.record_round(sheet)
        except GameChanged:  # the log was read again: what the other moderator did, never recorded by itself
            new = self.events[known:]
            moved = [f"another moderator wrote to game {self.game!r} first:", *(f"  {c}" for c in changes(new))]
            found = same_sheet(new, sheet.lines, sheet.round)
            if found is not None:
                return RoundEntered(found.round, None, self.state, None, found.seal, tuple(moved))
            raise RoundMoved(
                f"game {self.game!r}, round {sheet.round}: another moderator wrote to the game first; nothing of "
                f"yours was recorded; the game is now at {self.where_now()}",
                moved,
                hint=f"check the board (referee board {self.game}) before entering a sheet again",
            ) from None
        return RoundEntered(sheet.round, event, state, report, event.seal)

    def record_table_events(self, lines: str | Iterable[str]) -> tuple[Event, GameState, list[str]]:
        """Table events of the round under way (setup, initiative, cards), checked and applied (R-22)."""
        fold = self.fold
        canonical = canonical_table_lines(lines, fold.board)
        if not canonical:
            raise LogError(f"game {self.game!r}: no table event given")
        self.check_open()
        applied = apply_table_lines(fold.state, canonical, fold.board)  # the engine's own refusal, one clear line
        event = self._append(
            EventType.TABLE_EVENTS_RECORDED, table_events_recorded(fold.state.round, canonical), applied
        )
        return event, fold.state, fold.notes

    def correct(self, round_no: int, entries: str | Iterable[str | Entry], reason: str) -> tuple[Event, Correction]:
        """Record a ruling: round ``round_no`` is replayed with ``entries`` from now on. Nothing is overwritten."""
        if not reason.strip():
            raise LogError(f"game {self.game!r}: a correction needs a reason")
        original = self.fold.played(round_no)
        if isinstance(entries, str):  # a sheet: read as `referee round` reads it, its header naming this round
            entries = sheet_for(entries, round_no, f"game {self.game!r}, round {round_no}")
        lines = canonical_lines(entries, self.fold.board)
        rerun = self.fold.rerun(round_no, lines)
        digests = {p.round: state_digest(p.after) for p in rerun}
        payload = entry_corrected(round_no, lines, reason.strip(), digests)
        recorded = self._append(EventType.ENTRY_CORRECTED, payload)
        return recorded, Correction(recorded.seq, round_no, reason.strip(), original, rerun[0])

    def seal_objective(self, clan: str, objective: str, code: str) -> Event:
        """Log a commitment to ``clan``'s secret objective; ``code`` stays with the player until the end."""
        if objective not in self.fold.board.objectives:
            raise LogError(f"game {self.game!r}, {clan}: unknown objective {objective!r}")
        payload = objective_sealed(clan, commit(self.game, clan, objective, code))
        return self._append(EventType.OBJECTIVE_SEALED, payload)

    def check_seal(self, clan: str) -> None:
        """Refuse now, before the player types anything, a seal the log would refuse."""
        try:
            self.fold.sealable(clan)
        except ReplayError as exc:
            raise self._refused(exc) from None

    def reveal_objective(self, clan: str, objective: str, code: str = "") -> Event:
        """Log a secret objective revealed at the end of the game, checked against its seal if sealed. The code
        is kept as the player's sheet prints it (``XXXXX-XXXXX``), however it was typed."""
        payload = objective_revealed(clan, objective, canonical_code(code) if code else "")
        return self._append(EventType.OBJECTIVE_REVEALED, payload)
