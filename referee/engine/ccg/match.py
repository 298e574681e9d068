"""The match as a fold over its events: ``new_match`` sets it up, ``apply`` takes one event and returns
the next match and the outcome (a value: what happened, every Honor change with its reason, and the
result when the match ends). Victory conditions are checked at the moments Winning the Game names:
dishonor and military at any time, enlightenment instantly, honor at the very start of a turn (C-03);
both players losing at the same moment is a draw (C-01); a battle's effects in C-02's order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from .battle import Army, BattleOutcome, Decision, Step, check_army, resolve_battle
from .duel import Duelist, DuelOutcome, resolve_duel
from .model import (
    DISHONOR_LOSS,
    ELEMENTS,
    HONOR_VICTORY,
    CcgError,
    Match,
    Phase,
    Player,
    Refused,
    Result,
    Ring,
    Victory,
)
from .rules import cite


# --- the events (what the moderator enters, parsed by notation.py) ------------------------------------
@dataclass(frozen=True, slots=True)
class TurnPassed:
    """The active player's End Phase is over; the other player's turn begins (p.41)."""


@dataclass(frozen=True, slots=True)
class PhaseEntered:
    phase: Phase


@dataclass(frozen=True, slots=True)
class BattleFought:
    province: int  # the defender's province where the battlefield is
    attacking: Army
    defending: Army
    strength: int | None = None  # that province's Province Strength if not the Stronghold's base


@dataclass(frozen=True, slots=True)
class DuelFought:
    challenger: Duelist
    challenged: Duelist
    stat: str = "chi"


@dataclass(frozen=True, slots=True)
class HonorChanged:
    changes: tuple[tuple[str, int], ...]  # (player, +/- Honor): all at once, one effect
    cause: str


@dataclass(frozen=True, slots=True)
class ProvinceLost:
    """A province destroyed by a card's effect, outside a battle's resolution."""

    player: str
    province: int
    cause: str


@dataclass(frozen=True, slots=True)
class RingEntered:
    player: str
    title: str
    elements: tuple[str, ...]
    own_text: bool = True


@dataclass(frozen=True, slots=True)
class RingLeft:
    player: str
    title: str


Event = TurnPassed | PhaseEntered | BattleFought | DuelFought | HonorChanged | ProvinceLost | RingEntered | RingLeft


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
class Outcome:
    """What one event did."""

    notes: tuple[str, ...] = ()
    honor: tuple[HonorChange, ...] = ()
    battle: BattleOutcome | None = None
    duel: DuelOutcome | None = None
    result: Result | None = None  # set when this event ended the match

    def to_dict(self) -> dict[str, object]:
        return {
            "notes": list(self.notes),
            "honor": [h.to_dict() for h in self.honor],
            "battle": self.battle.to_dict() if self.battle else None,
            "duel": self.duel.to_dict() if self.duel else None,
            "result": self.result.to_dict() if self.result else None,
        }


# --- setting up ---------------------------------------------------------------------------------------
def new_match(players: tuple[Player, Player], first: str | None = None) -> Match:
    """pp.30-40 Going first: "The player with the highest starting Family Honor takes the first turn ...
    If you are tied, choose at random": the referee takes that choice as entered (``first``)."""
    a, b = players
    if not a.name.strip() or not b.name.strip() or a.name.lower() == b.name.lower():
        raise CcgError(f"two players with different names are needed (got {a.name!r} and {b.name!r})")
    for p in players:
        if p.province_strength < 0 or p.gold < 0:
            raise Refused(
                f"{p.name}: Province Strength {p.province_strength}, Gold {p.gold}: no stat goes below 0", "C-08"
            )
    match = Match(players=(a, b), first=0)
    if a.honor != b.honor:
        highest = 0 if a.honor > b.honor else 1
        if first is not None and match.index(first) != highest:
            raise Refused(
                f"{players[highest].name} has the highest starting Family Honor and takes the first turn, not {first}",
                "going-first",
            )
        start = highest
    elif first is None:
        raise Refused(
            f"{a.name} and {b.name} both start on {a.honor} Family Honor: name who goes first (chosen at random)",
            "going-first",
            hint="--first NAME",
        )
    else:
        start = match.index(first)
    match = replace(match, first=start, active=start)
    return replace(match, result=_honor_victory(match))


# --- one event ----------------------------------------------------------------------------------------
def apply(match: Match, event: Event) -> tuple[Match, Outcome]:
    """The match after ``event`` and what it did; ``Refused`` when the event is impossible now."""
    if match.result is not None:
        raise Refused(f"the match is over: {match.result.reason}", "winning")
    match event:
        case TurnPassed():
            return _turn_passed(match)
        case PhaseEntered(phase):
            return _phase(match, phase), Outcome((f"{match.active_player.name}'s {phase.label} phase",))
        case BattleFought():
            return _battle(match, event)
        case DuelFought(challenger, challenged, stat):
            for d in (challenger, challenged):
                match.index(d.player)
            duel = resolve_duel(challenger, challenged, stat=stat)
            said = f"{duel.winner} wins the duel" if duel.winner else "the duel is a tie: both players lose"
            return match, Outcome((said,), duel=duel)
        case HonorChanged(changes, cause):
            return _honor_changed(match, changes, cause)
        case ProvinceLost(player, province, cause):
            i = match.index(player)
            _check_province(match, i, province)
            return _after_province(match, i, province, f"{player}'s province {province} is destroyed: {cause}")
        case RingEntered():
            return _ring_entered(match, event)
        case RingLeft(player, title):
            i = match.index(player)
            rings = match.players[i].rings
            kept = tuple(r for r in rings if r.title.lower() != title.lower())
            if len(kept) == len(rings):
                raise Refused(f"{player} controls no Ring titled {title!r}", "winning")
            gone = match.with_player(i, replace(match.players[i], rings=kept))
            return gone, Outcome((f"{player}'s {title} leaves play",))
    raise CcgError(f"not an event: {event!r}")


def _turn_passed(match: Match) -> tuple[Match, Outcome]:
    """p.41: "Once he or she has completed a turn, the player to his or her left takes a turn"; the honor
    victory is checked at the very start of that turn, before any start-of-turn effect (C-03)."""
    nxt = replace(match, turn=match.turn + 1, active=match.other, phase=Phase.STRAIGHTEN, fought=frozenset())
    won = _honor_victory(nxt)
    note = f"turn {nxt.turn}: {nxt.active_player.name}'s turn ({nxt.active_player.honor} Honor)"
    return replace(nxt, result=won), Outcome((note,), result=won)


def _honor_victory(match: Match) -> Result | None:
    p = match.active_player
    if p.honor >= HONOR_VICTORY:
        why = f"{p.name} starts turn {match.turn} on {p.honor} Family Honor ({HONOR_VICTORY} or more)"
        return Result(p.name, Victory.HONOR, why, "C-03")
    return None


def _phase(match: Match, phase: Phase) -> Match:
    if phase <= match.phase:
        raise Refused(
            f"turn {match.turn} is in its {match.phase.label} phase: the {phase.label} phase cannot come now "
            "(the phases go in order)",
            "turn-sequence",
        )
    return replace(match, phase=phase, fought=match.fought if phase == Phase.ATTACK else frozenset())


def _check_province(match: Match, i: int, province: int) -> None:
    p = match.players[i]
    if province not in p.provinces:
        gone = "was destroyed" if 1 <= province <= 4 else "does not exist (provinces 1 to 4)"
        raise Refused(f"{p.name}'s province {province} {gone}", "provinces")


def _battle(match: Match, event: BattleFought) -> tuple[Match, Outcome]:
    """pp.49-66 Attack Phase: the active player is the Attacker; exactly one battle at each battlefield."""
    if match.phase > Phase.ATTACK:
        raise Refused(f"turn {match.turn} is past its attack phase ({match.phase.label} phase)", "attack-phase")
    d = match.other
    _check_province(match, d, event.province)
    if event.province in match.fought:
        raise Refused(
            f"a battle was already fought at {match.players[d].name}'s province {event.province} in this Attack Phase",
            "attack-phase",
        )
    check_army(event.attacking, "attacker")
    check_army(event.defending, "defender")
    strength = match.players[d].province_strength if event.strength is None else event.strength
    battle = resolve_battle(event.attacking, event.defending, province=event.province, strength=strength)
    now = replace(match, phase=Phase.ATTACK, fought=match.fought | {event.province})
    side = {"attacker": match.active, "defender": d}
    words = {
        Decision.ATTACKER: f"{match.active_player.name} (attacker) wins",
        Decision.DEFENDER: f"{match.players[d].name} (defender) wins",
        Decision.TIE: "the battle is a tie",
        Decision.NONE: "the battle has no outcome (tied on zero Force with an empty side)",
    }[battle.decision]
    notes = [
        f"battle at {match.players[d].name}'s province {event.province}: "
        f"{battle.attacker_force}F against {battle.defender_force}F + strength {strength}: {words}"
    ]
    changes: list[HonorChange] = []
    for effect in battle.effects:  # C-02: in order; a victory met by one effect ends the match before the next
        i = side[effect.side]
        if effect.step is Step.PROVINCE_DESTROYED:
            now, more = _after_province(now, i, event.province, effect.reason)
            notes.extend(more.notes)
            if now.result is not None:
                return now, Outcome(tuple(notes), tuple(changes), battle, result=now.result)
            continue
        if not effect.honor:
            notes.append(effect.reason)
            continue
        now, change = _change(now, i, effect.honor, effect.reason, effect.rule)
        changes.append(change)
        notes.append(str(change))
        lost = _dishonor(now)
        if lost is not None:
            return replace(now, result=lost), Outcome(tuple(notes), tuple(changes), battle, result=lost)
    return now, Outcome(tuple(notes), tuple(changes), battle)


def _after_province(match: Match, i: int, province: int, note: str) -> tuple[Match, Outcome]:
    p = match.players[i]
    left = tuple(n for n in p.provinces if n != province)
    now = match.with_player(i, replace(p, provinces=left))
    if left:
        return now, Outcome((note,))
    winner = match.players[1 - i]
    why = f"{p.name}'s final province ({province}) is destroyed"
    result = Result(winner.name, Victory.MILITARY, why, "winning")
    return replace(now, result=result), Outcome((note,), result=result)


def _change(match: Match, i: int, delta: int, reason: str, rule: str) -> tuple[Match, HonorChange]:
    p = match.players[i]
    change = HonorChange(p.name, delta, p.honor, p.honor + delta, reason, rule)
    return match.with_player(i, replace(p, honor=p.honor + delta)), change


def _dishonor(match: Match) -> Result | None:
    """Winning the Game: "Your opponent loses if his or her Family Honor is ever at or below -20"; both
    at once: a draw (C-01)."""
    low = [p for p in match.players if p.honor <= DISHONOR_LOSS]
    if len(low) == 2:
        why = f"both players are at or below {DISHONOR_LOSS} Family Honor at once ({low[0].honor}, {low[1].honor})"
        return Result(None, Victory.DRAW, why, "C-01")
    if low:
        loser = low[0]
        winner = next(p for p in match.players if p is not loser)
        why = f"{loser.name} is at {loser.honor} Family Honor (at or below {DISHONOR_LOSS})"
        return Result(winner.name, Victory.DISHONOR, why, "winning")
    return None


def _honor_changed(match: Match, changes: tuple[tuple[str, int], ...], cause: str) -> tuple[Match, Outcome]:
    if not cause.strip():
        raise CcgError("an Honor change needs its cause")
    seen: set[int] = set()
    done: list[HonorChange] = []
    now = match
    for name, delta in changes:
        i = match.index(name)
        if i in seen:
            raise CcgError(f"{match.players[i].name} is named twice in one Honor change")
        seen.add(i)
        now, change = _change(now, i, delta, cause, "winning")
        done.append(change)
    lost = _dishonor(now)  # one effect: both players' changes at once, then the check (C-01)
    notes = tuple(str(c) for c in done)
    if lost is not None:
        return replace(now, result=lost), Outcome(notes, tuple(done), result=lost)
    reached = [c for c in done if c.after >= HONOR_VICTORY]
    if reached:  # C-03: not a victory now; checked at the start of that player's turn
        notes += tuple(
            f"{c.player} has {c.after} Honor: an honor victory if still so at the start of {c.player}'s turn (C-03)"
            for c in reached
        )
    return now, Outcome(notes, tuple(done))


def _ring_entered(match: Match, event: RingEntered) -> tuple[Match, Outcome]:
    i = match.index(event.player)
    bad = [e for e in event.elements if e not in ELEMENTS]
    if bad or not event.elements:
        raise CcgError(f"{event.title}: element keyword(s) {', '.join(bad) or 'missing'}: one of {', '.join(ELEMENTS)}")
    p = match.players[i]
    ring = Ring(event.title, event.elements, event.own_text)
    now = match.with_player(i, replace(p, rings=(*p.rings, ring)))
    how = "by its own text" if event.own_text else "by another effect (does not count for enlightenment)"
    note = f"{p.name}'s {event.title} ({'/'.join(event.elements)}) enters play {how}"
    if enlightened(now.players[i].rings):
        why = f"{p.name} controls five Rings of five different elements, each entered by its own text"
        result = Result(p.name, Victory.ENLIGHTENMENT, why, "winning")
        return replace(now, result=result), Outcome((note,), result=result)
    return now, Outcome((note,))


def enlightened(rings: tuple[Ring, ...]) -> bool:
    """Winning the Game: five Rings with five different element keywords, each of which last entered play
    by its own text; a Ring with two elements counts for one of them, never both (C-06)."""
    counted = [r for r in rings if r.own_text]
    if len(counted) < len(ELEMENTS):
        return False
    for chosen in combinations(counted, len(ELEMENTS)):
        if _assign(chosen, 0, frozenset()):
            return True
    return False


def _assign(rings: tuple[Ring, ...], k: int, used: frozenset[str]) -> bool:
    if k == len(rings):
        return True
    return any(_assign(rings, k + 1, used | {e}) for e in rings[k].elements if e not in used)


__all__ = ["apply", "new_match", "cite"]
