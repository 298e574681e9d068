"""What one event did, as a value: its notes (the report's sentences), every Honor change with its reason,
every other change as data (``Change``: what the report says in words, ``--json`` says as values), and the
result when the match ends. And the two checks every Honor change is followed by: a player at or below -20
loses at once (both at once: a draw, C-01); 40 or more wins only at the very start of one's own turn (C-03).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .model import DISHONOR_LOSS, HONOR_VICTORY, Match, Result, Victory

if TYPE_CHECKING:
    from .battle import BattleOutcome
    from .duel import DuelOutcome


@dataclass(frozen=True, slots=True)
class HonorChange:
    player: str
    delta: int
    before: int
    after: int
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"{self.player} {self.delta:+d} Honor ({self.before} -> {self.after}): {self.reason}"

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "delta": self.delta,
            "before": self.before,
            "after": self.after,
            "reason": self.reason,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class Change:
    """One thing an event changed or worked out besides Family Honor, as values. ``what`` is one of: favor
    (value: the new holder or None), bowed, straightened, home (value: "bowed" or "unbowed"), stays (value:
    the battlefield's province), destroyed (value: the unit's cards, or where he is now), dishonored,
    rehonored, seppuku (value: the loss answered), enters (value: "bowed" or "unbowed"), price (value: its
    terms and the Gold paid), claim (value: the Honor claimed), used (subject: the once-a-turn ability),
    draw, discard (value: how many), hand (value: the hand after the draw), revealed, discarded, attached,
    refilled, assigned (value: the province), action, overlay, province destroyed, floored (value:
    {"entered": N, "now": 0}), phase, turn, first, holding, provinces, warning."""

    what: str
    player: str | None = None
    subject: str = ""
    value: object = None
    rule: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "what": self.what,
            "player": self.player,
            "subject": self.subject,
            "value": self.value,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one event did."""

    notes: tuple[str, ...] = ()
    honor: tuple[HonorChange, ...] = ()
    battle: BattleOutcome | None = None
    duel: DuelOutcome | None = None
    result: Result | None = None  # set when this event ended the match
    changes: tuple[Change, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "notes": list(self.notes),
            "honor": [h.to_dict() for h in self.honor],
            "changes": [c.to_dict() for c in self.changes],
            "battle": self.battle.to_dict() if self.battle else None,
            "duel": self.duel.to_dict() if self.duel else None,
            "result": self.result.to_dict() if self.result else None,
        }


@dataclass
class Report:
    """An outcome being written: the rules functions say what happens in order, then ``outcome``."""

    notes: list[str] = field(default_factory=list)
    honor: list[HonorChange] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)

    def say(self, note: str, *changes: Change) -> None:
        if note:
            self.notes.append(note)
        self.changes.extend(changes)

    def add(self, other: Outcome) -> None:
        self.notes.extend(other.notes)
        self.honor.extend(other.honor)
        self.changes.extend(other.changes)

    def outcome(
        self, result: Result | None = None, battle: BattleOutcome | None = None, duel: DuelOutcome | None = None
    ) -> Outcome:
        return Outcome(tuple(self.notes), tuple(self.honor), battle, duel, result, tuple(self.changes))


def change_honor(match: Match, i: int, delta: int, reason: str, rule: str) -> tuple[Match, HonorChange]:
    p = match.players[i]
    change = HonorChange(p.name, delta, p.honor, p.honor + delta, reason, rule)
    return match.with_player(i, replace(p, honor=p.honor + delta)), change


def gain_or_lose(match: Match, report: Report, i: int, delta: int, reason: str, rule: str) -> Match:
    """One Honor change, said, then the dishonor check: the match ends at once when a player is at or below
    -20 (the result set on the match returned)."""
    return at_once(match, report, ((i, delta),), reason, rule)


def at_once(match: Match, report: Report, changes: tuple[tuple[int, int], ...], reason: str, rule: str) -> Match:
    """Honor changes of one effect, all made before the dishonor check (both at once: a draw, C-01); 40 or
    more said as what it is: a victory only at the very start of that player's own turn (C-03)."""
    done = []
    for i, delta in changes:
        match, change = change_honor(match, i, delta, reason, rule)
        report.honor.append(change)
        report.notes.append(str(change))
        done.append(change)
    lost = dishonor_result(match)
    if lost is not None:
        return replace(match, result=lost)
    for c in done:
        if c.after >= HONOR_VICTORY > c.before:
            report.notes.append(
                f"{c.player} has {c.after} Honor: an honor victory if still so at the start of {c.player}'s turn (C-03)"
            )
    return match


def dishonor_result(match: Match) -> Result | None:
    """Winning the Game: "Your opponent loses if his or her Family Honor is ever at or below -20"; both
    at once: a draw (C-01)."""
    low = [p for p in match.players if p.honor <= DISHONOR_LOSS]
    if len(low) == 2:
        why = f"both players are at or below {DISHONOR_LOSS} Family Honor at once ({low[0].honor}, {low[1].honor})"
        condition: tuple[tuple[str, object], ...] = (
            ("losers", [p.name for p in low]),
            ("honor", {p.name: p.honor for p in low}),
            ("at_or_below", DISHONOR_LOSS),
        )
        return Result(None, Victory.DRAW, why, "C-01", condition)
    if low:
        loser = low[0]
        winner = next(p for p in match.players if p is not loser)
        why = f"{loser.name} is at {loser.honor} Family Honor (at or below {DISHONOR_LOSS})"
        condition = (("loser", loser.name), ("honor", loser.honor), ("at_or_below", DISHONOR_LOSS))
        return Result(winner.name, Victory.DISHONOR, why, "winning", condition)
    return None


def honor_victory(match: Match) -> Result | None:
    """C-03: the active player starting the turn on 40 or more wins, before anything else of the turn."""
    p = match.active_player
    if p.honor >= HONOR_VICTORY:
        why = f"{p.name} starts turn {match.turn} on {p.honor} Family Honor ({HONOR_VICTORY} or more)"
        condition = (("player", p.name), ("honor", p.honor), ("at_least", HONOR_VICTORY), ("turn", match.turn))
        return Result(p.name, Victory.HONOR, why, "C-03", condition)
    return None


def military_result(match: Match, i: int, province: int) -> Result:
    loser = match.players[i]
    why = f"{loser.name}'s final province ({province}) is destroyed"
    condition = (("loser", loser.name), ("province", province), ("provinces_left", 0))
    return Result(match.players[1 - i].name, Victory.MILITARY, why, "winning", condition)
