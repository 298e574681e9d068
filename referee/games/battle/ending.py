"""The score of a logged game and its sealed end.

- ``game_score(fold, state=None)`` (in ``fold``) is the one way honor is computed for a logged game:
  ``score``, ``what-if``, ``replay``, the table session and the export all call it; it builds a
  ``GameScore``. The objectives revealed at the end count on any board it is given (a what-if's board
  included), and the score is provisional (R-28: no winner named) until five rounds are played and no
  objective is still sealed.
- ``GameEnded`` closes the log when the game is complete: it holds the final score and its digest, so
  a record cut anywhere lacks it and is known to be incomplete. ``game_ended(events)`` says whether a
  log is closed (the one question "is this game finished?").
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from ...core.canonical import canonical_json
from ...engine.battle import ROUNDS
from ...store.events import Event, LogError
from .events import EventType

if TYPE_CHECKING:
    from ...engine.battle import FinalScore


@dataclass(frozen=True, slots=True)
class GameScore:
    """Honor on one board of a logged game, with what is still unknown (R-28)."""

    final: FinalScore
    rounds: int  # rounds resolved
    sealed: tuple[str, ...]  # clans whose objective is still sealed
    players: dict[str, str]
    partial_setup: bool = False  # a game taken over mid-way (the score says so)

    @property
    def provisional(self) -> bool:
        return self.rounds < ROUNDS or bool(self.sealed)

    @property
    def winners(self) -> tuple[str, ...]:
        """Nobody before the game is complete (R-28)."""
        return () if self.provisional else tuple(map(str, self.final.winners))

    def totals(self) -> dict[str, int]:
        return {str(s.clan): s.total for s in self.final.scores}

    def who(self, clan: object) -> str:
        """A clan with its player's name, as every score shows it: ``crab (Ann)``."""
        name = self.players.get(str(clan))
        return f"{clan} ({name})" if name else str(clan)

    def status(self) -> str:
        """provisional, with what is missing, or final with the winner."""
        if self.rounds < ROUNDS:
            return f"provisional: round {self.rounds + 1} of 5 to play"
        if self.sealed:
            n = len(self.sealed)
            return f"provisional: {n} objective{'s' if n > 1 else ''} still sealed ({', '.join(self.sealed)}) (R-28)"
        names = " and ".join(self.who(c) for c in self.final.winners)
        return f"final: winner {names} ({self.final.tiebreak})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "provisional": self.provisional,
            "partial_setup": self.partial_setup,
            "status": self.status(),
            "rounds": self.rounds,
            "sealed": list(self.sealed),
            "winners": list(self.winners),
            "tiebreak": None if self.provisional else self.final.tiebreak,
            "scores": [
                {
                    "clan": str(s.clan),
                    "player": self.players.get(str(s.clan), ""),
                    "total": s.total,
                    "territories": s.territories,
                    "provinces": s.provinces,
                    "lines": [{"label": line.label, "honor": line.honor} for line in s.lines],
                }
                for s in self.final.scores
            ],
        }


def game_status(events: Sequence[Event]) -> str:
    """Where a game stands, in a few words: setup, round N of play, provisional, finished with its winner.

    Read from the events alone (no engine run), so that listing a tournament's games stays fast; the events
    taken back by a retraction do not count."""
    live: list[Event] = []
    for e in events:
        if e.type == EventType.EVENT_RETRACTED:
            if len(live) > 1:
                live.pop()
        else:
            live.append(e)
    end = game_ended(live)
    if end is not None:
        players = live[0].data.get("players", {}) if live else {}
        winners = [f"{c} ({players[c]})" if players.get(c) else c for c in end.data["winners"]]
        return f"finished: {winners[0]} wins" if len(winners) == 1 else f"finished: {' and '.join(winners)} share it"
    played = len({e.data["round"] for e in live if e.type == EventType.ROUND_RESOLVED})
    if played == 0:
        return "setup"
    if played < ROUNDS:
        return f"round {played + 1} of play"
    sealed = {e.data["clan"] for e in live if e.type == EventType.OBJECTIVE_SEALED}
    sealed -= {e.data["clan"] for e in live if e.type == EventType.OBJECTIVE_REVEALED}
    return f"provisional ({len(sealed)} sealed)"


def score_digest(score: GameScore) -> str:
    """The digest of a final score: every clan's lines and total, the winners and the tie-break."""
    return hashlib.sha256(canonical_json(_digest_body(score)).encode()).hexdigest()


def fast_score_digest(score: GameScore) -> str:
    """``score_digest`` on orjson's encoding of the same body (the same JSON value as the canonical JSON, so
    a digest recorded from canonical JSON that matches it is the score's): for checking a recorded digest
    first, the canonical one deciding when they differ."""
    return hashlib.sha256(orjson.dumps(_digest_body(score), option=orjson.OPT_SORT_KEYS)).hexdigest()


def _digest_body(score: GameScore) -> dict[str, Any]:
    return {
        "scores": [
            {"clan": str(s.clan), "lines": [[line.label, line.honor] for line in s.lines]} for s in score.final.scores
        ],
        "winners": [str(c) for c in score.final.winners],
        "tiebreak": score.final.tiebreak,
    }


def result_line(score: GameScore) -> str:
    """The record's last line, like a chess record's result: every total, then the winner(s)."""
    totals = ", ".join(f"{s.clan} {s.total}" for s in score.final.scores)
    winners = " and ".join(map(str, score.final.winners))
    return f"result: {totals}; winner {winners} ({score.final.tiebreak})"


def game_ended_payload(score: GameScore, digest: Callable[[GameScore], str] = score_digest) -> dict[str, Any]:
    return {
        "scores": score.totals(),
        "winners": [str(c) for c in score.final.winners],
        "tiebreak": score.final.tiebreak,
        "digest": digest(score),
    }


def game_ended(events: Iterable[Event]) -> Event | None:
    """The ``GameEnded`` event that closes the log, or None when the game is not finished (no such
    event, or a correction after it not yet closed again). The one test of "is this game finished"."""
    last = None
    for e in events:
        if e.type == EventType.GAME_ENDED:
            last = e
        elif last is not None:
            last = None  # only a correction may follow; the game is closed again right after it
    return last


class IncompleteRecord(LogError):
    """A record of a game that does not end with its GameEnded event: cut, or not finished."""


def check_complete(events: Sequence[Event]) -> None:
    """A record must end with the game's closing event: anything else was cut (or is not finished)."""
    if game_ended(events) is None:
        raise IncompleteRecord(
            f"incomplete: ends after round {rounds_in(events)}"
            + (f" (game {events[0].game!r})" if events else "")
            + ": a finished game's record ends with its result",
            hint="--allow-incomplete takes an unfinished game on purpose",
        )


def rounds_in(events: Sequence[Event]) -> int:
    """The number of the last round a log reaches (for "incomplete: ends after round N")."""
    played = [e.data["round"] for e in events if e.type == EventType.ROUND_RESOLVED]
    return max(played, default=0)
