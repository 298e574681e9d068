"""The match as a fold over its events: ``new_match`` sets it up, ``apply`` takes one event and returns
the next match and the outcome (a value: what happened, every Honor change with its reason, every other
change as data, and the result when the match ends). Victory conditions are checked at the moments Winning
the Game names: dishonor and military at any time, enlightenment instantly, honor at the very start of a
turn (C-03); both players losing at the same moment is a draw (C-01); a battle's effects in C-02's order.
The turn's actions (Lobby, bringing Personalities in, seppuku ...) are turn.py's; ``play`` applies several
lines as one entry.

A match recorded by the first rules (``version`` 1: before the turn's actions had lines) replays by them:
its Honor changes typed as numbers stand, and its duels' focused cards are taken as a set, not checked for
their order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from .battle import (
    REMEMBERED,
    Army,
    BattleOutcome,
    Card,
    Decision,
    Destroyed,
    Step,
    Unit,
    check_army,
    resolve_battle,
)
from .court import DEAD, DISHONORABLY_DEAD, HOME, Described, find, know
from .duel import Consequence, Duelist, resolve_duel
from .effects import destroy, keep, rehonor
from .errors import CcgError, Refused
from .model import ELEMENTS, RULES, Attack, Match, Phase, Player, Result, Ring, Victory
from .outcome import (
    Change,
    HonorChange,
    Outcome,
    Report,
    at_once,
    gain_or_lose,
    honor_victory,
    military_result,
)
from .phases import advance, end_attack
from .rules import cite
from .turn import apply_turn
from .turn_events import TurnEvent


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
    consequences: tuple[Consequence, ...] = ()


@dataclass(frozen=True, slots=True)
class HonorChanged:
    changes: tuple[tuple[str, int], ...]  # (player, +/- Honor): all at once, one effect
    cause: str
    correction: bool = False  # a judge's correction of Family Honor, with its reason (CT-01)


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


Event = (
    TurnPassed
    | PhaseEntered
    | BattleFought
    | DuelFought
    | HonorChanged
    | ProvinceLost
    | RingEntered
    | RingLeft
    | TurnEvent
)


# --- setting up ---------------------------------------------------------------------------------------
def new_match(
    players: tuple[Player, Player],
    first: str | None = None,
    *,
    version: int = RULES,
    options: tuple[tuple[str, str], ...] = (),
) -> Match:
    """pp.30-40 Going first: "The player with the highest starting Family Honor takes the first turn ...
    If you are tied, choose at random": the referee takes that choice as entered (``first``). Four face-down
    provinces each; the Imperial Favor starts with the only Dragon Clan player, if there is exactly one."""
    a, b = check_players(players)
    match = Match(players=(a, b), first=0, version=version, options=options)
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
    dragons = [i for i, p in enumerate(players) if p.clan.lower() == "dragon"]
    faced = tuple(_face_down(p) for p in players)
    match = replace(
        match,
        players=(faced[0], faced[1]),
        first=start,
        active=start,
        favor=dragons[0] if len(dragons) == 1 else None,
    )
    return replace(match, result=honor_victory(match))


def check_players(players: tuple[Player, Player]) -> tuple[Player, Player]:
    a, b = players
    if not a.name.strip() or not b.name.strip() or a.name.lower() == b.name.lower():
        raise CcgError(f"two players with different names are needed (got {a.name!r} and {b.name!r})")
    return a, b  # a Province Strength or Gold entered below 0 is read as 0 where it is read (C-08)


def _face_down(p: Player) -> Player:
    return replace(p, faces=tuple((n, "") for n in p.provinces))


# --- one event ----------------------------------------------------------------------------------------
def apply(match: Match, event: Event) -> tuple[Match, Outcome]:
    """The match after ``event`` and what it did; ``Refused`` when the event is impossible now."""
    if match.result is not None:
        raise Refused(f"the match is over: {match.result.reason}", "winning")
    match event:
        case TurnPassed():
            return _turn_passed(match)
        case PhaseEntered(phase):
            return _phase(match, phase)
        case BattleFought():
            return _battle(match, event)
        case DuelFought():
            return _duel(match, event)
        case HonorChanged(changes, cause, correction):
            return _honor_changed(match, changes, cause, correction)
        case ProvinceLost(player, province, cause):
            i = match.index(player)
            _check_province(match, i, province)
            report = Report()
            now = _after_province(match, report, i, province, f"{player}'s province {province} is destroyed: {cause}")
            return now, report.outcome(now.result)
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
    return apply_turn(match, event)


def play(match: Match, events: Sequence[Event], lines: Sequence[str] = ()) -> tuple[Match, list[Outcome], int]:
    """Several events entered as one: applied in order, all or none (a refused one raises ``CcgError``
    naming its line: its number when there are several, and its text from ``lines``), except that the first
    to end the match ends the entry: the events after it are not applied (they would be refused: the match
    is over). Returns the match, each applied event's outcome, and how many were applied."""
    outcomes = []
    for n, event in enumerate(events, 1):
        try:
            match, outcome = apply(match, event)
        except CcgError as exc:
            where = f"line {n} " if len(events) > 1 else ""
            quoted = f'"{lines[n - 1]}"' if n <= len(lines) else ""
            said = f"{where}{quoted}".strip()
            raise CcgError(f"{said}: {exc}" if said else str(exc), hint=exc.hint) from None
        outcomes.append(outcome)
        if match.result is not None:
            return match, outcomes, n
    return match, outcomes, len(events)


def _turn_passed(match: Match) -> tuple[Match, Outcome]:
    """p.41: "Once he or she has completed a turn, the player to his or her left takes a turn"; the honor
    victory is checked at the very start of that turn, before any start-of-turn effect (C-03); then the new
    active player's Straighten Phase straightens all his bowed cards."""
    report = Report()
    if match.phase <= Phase.ATTACK:
        match = end_attack(match, report)
    nxt = replace(
        match,
        turn=match.turn + 1,
        active=match.other,
        phase=Phase.STRAIGHTEN,
        fought=frozenset(),
        used=frozenset(),
        attack=Attack(),
        revealed=0,
    )
    won = honor_victory(nxt)
    report.say(f"turn {nxt.turn}: {nxt.active_player.name}'s turn ({nxt.active_player.honor} Honor)")
    if won is not None:
        return replace(nxt, result=won), report.outcome(won)
    p = nxt.active_player
    bowed = [who for who in p.court if who.in_play and who.bowed]
    for who in bowed:
        nxt = keep(nxt, nxt.active, replace(who, bowed=False))
    if bowed:
        report.say(
            f"{p.name}'s Straighten Phase: "
            + ", ".join(w.title for w in bowed)
            + (" straightens" if len(bowed) == 1 else " straighten"),
            *(Change("straightened", p.name, w.title, None, "straighten-phase") for w in bowed),
        )
    return nxt, report.outcome()


def _phase(match: Match, phase: Phase) -> tuple[Match, Outcome]:
    report = Report()
    if phase == match.phase:
        raise Refused(
            f"turn {match.turn} is in its {match.phase.label} phase already: the phases go in order",
            "turn-sequence",
        )
    match = advance(match, report, phase)
    if phase == Phase.ATTACK:  # p.41 Attack Phase: "The active player may now optionally create an Attack Phase"
        match = replace(match, attack=replace(match.attack, declared=True))
    return match, report.outcome()


def _check_province(match: Match, i: int, province: int) -> None:
    p = match.players[i]
    if province not in p.provinces:
        gone = "was destroyed" if 1 <= province <= 4 else "does not exist (provinces 1 to 4)"
        raise Refused(f"{p.name}'s province {province} {gone}", "provinces")


def _remembered(match: Match, i: int, army: Army) -> Army:
    """An army's dishonorable Personalities as the match knows them (rules 2): a Personality dishonored by
    an earlier line is dishonorable in his battle without the mark; "dishonorable" with no Personal Honor
    takes the base Personal Honor the match knows."""
    court = match.players[i].court
    units = []
    for unit in army.units:
        p = unit.personality
        known = find(court, p.title)
        base = p.dishonorable
        if known is not None and known.in_play and known.dishonorable and base is None:
            base = REMEMBERED
        if base == REMEMBERED:
            if known is None or known.honor is None:
                raise Refused(
                    f"{p.title} is dishonorable and his base Personal Honor is not known: give it "
                    f"({p.title} (dishonorable NPH))",
                    "dishonor",
                )
            base = known.honor
        units.append(Unit((replace(p, dishonorable=base), *unit.cards[1:])))
    return Army(tuple(units))


def _battle(match: Match, event: BattleFought) -> tuple[Match, Outcome]:
    """pp.49-66 Attack Phase: the active player is the Attacker; exactly one battle at each battlefield."""
    if match.phase > Phase.ATTACK:
        raise Refused(f"turn {match.turn} is past its attack phase ({match.phase.label} phase)", "attack-phase")
    d, a = match.other, match.active
    _check_province(match, d, event.province)
    if event.province in match.fought:
        raise Refused(
            f"a battle was already fought at {match.players[d].name}'s province {event.province} in this Attack Phase",
            "attack-phase",
        )
    check_army(event.attacking, "attacker")
    check_army(event.defending, "defender")
    attacking, defending = event.attacking, event.defending
    if match.version >= 2:
        for unit in attacking.units:
            title = unit.personality.title
            if title in match.attack.attacked:
                raise Refused(
                    f"{title} was already in an attacking army at a battle's resolution in this Attack Phase: he "
                    "will not move to another battlefield",
                    "combat",
                )
            if title in match.attack.sent_home:
                raise Refused(f"{title} was moved home before his battle: he is not at the battlefield", "combat")
        attacking, defending = _remembered(match, a, attacking), _remembered(match, d, defending)
    strength = match.players[d].province_strength if event.strength is None else event.strength
    battle = resolve_battle(attacking, defending, province=event.province, strength=strength)
    report = Report()
    now = advance(match, report, Phase.ATTACK)
    now = replace(
        now,
        fought=now.fought | {event.province},
        attack=replace(now.attack, declared=True, attacked=now.attack.attacked | _titles(attacking)),
    )
    side = {"attacker": a, "defender": d}
    words = {
        Decision.ATTACKER: f"{match.active_player.name} (attacker) wins",
        Decision.DEFENDER: f"{match.players[d].name} (defender) wins",
        Decision.TIE: "the battle is a tie",
        Decision.NONE: "the battle has no outcome (tied on zero Force with an empty side)",
    }[battle.decision]
    report.say(
        f"battle at {match.players[d].name}'s province {event.province}: "
        f"{battle.attacker_force}F against {battle.defender_force}F + strength {battle.strength}: {words}"
    )
    for what, value in battle.floored:
        report.say(
            f"{what}: {value} is 0 (no stat goes below 0, C-08)",
            Change("floored", None, what, {"entered": value, "now": 0}, "C-08"),
        )
    for effect in battle.effects:  # C-02: in order; a victory met by one effect ends the match before the next
        i = side[effect.side]
        if effect.step is Step.ARMY_DESTROYED:
            now = _units_destroyed(now, report, i, battle.destroyed, effect.side)
        if effect.step is Step.PROVINCE_DESTROYED:
            now = _after_province(now, report, i, event.province, effect.reason)
            if now.result is not None:
                return now, report.outcome(now.result, battle)
            continue
        if not effect.honor:
            report.say(effect.reason)
            continue
        now = gain_or_lose(now, report, i, effect.honor, effect.reason, effect.rule)
        if now.result is not None:
            return now, report.outcome(now.result, battle)
    now = _after_battle(now, report, event.province, battle, attacking, defending)
    return now, report.outcome(None, battle)


def _titles(army: Army) -> frozenset[str]:
    return frozenset(u.personality.title for u in army.units)


def _units_destroyed(
    match: Match, report: Report, i: int, destroyed: tuple[tuple[str, tuple[Destroyed, ...]], ...], side: str
) -> Match:
    """The destroyed units' Personalities leave the court: dead, or dishonorably dead (their Honor loss is
    the battle's effect, C-02)."""
    name = match.players[i].name
    for unit in dict(destroyed).get(side, ()):
        known = know(match.players[i].court, Described(unit.personality)).person
        where = DISHONORABLY_DEAD if unit.dishonorable is not None else DEAD
        dishonorable = unit.dishonorable is not None
        match = keep(match, i, replace(known, where=where, dishonorable=dishonorable, bowed=False))
        report.changes.append(Change("destroyed", name, unit.personality, unit.cards, "resolution"))
    return match


def _after_battle(
    match: Match, report: Report, province: int, battle: BattleOutcome, attacking: Army, defending: Army
) -> Match:
    """Resolution Segment: the surviving Personalities remembered as the battle showed them (a dishonorable
    one with his base Personal Honor); the winners' dishonorable Personalities rehonored (when their leader
    would have gained Honor); "all attacking units at that battlefield bow, then return home"; "Defending
    units stay at that battlefield ... They do not bow"."""
    a, d = match.active, match.other
    for i, army in ((a, attacking), (d, defending)):
        for unit in army.units:
            p = unit.personality
            if p.title in battle.bow_and_return + battle.stay and p.dishonorable is not None:
                said = Described(p.title, honor=p.dishonorable, dishonorable=True)
                match = keep(match, i, know(match.players[i].court, said).person)
    for title in battle.rehonored:
        for i in (a, d):
            known = find(match.players[i].court, title)
            if known is not None and known.in_play and known.dishonorable:
                match, _ = rehonor(match, report, i, known, "battle resolution")
    if battle.bow_and_return:
        names = ", ".join(battle.bow_and_return)
        report.say(f"after the battle, the attackers bow and return home: {names}")
        for title in battle.bow_and_return:
            known = know(match.players[a].court, Described(title)).person
            match = keep(match, a, replace(known, bowed=True, where=HOME))
            report.changes.append(Change("home", match.players[a].name, title, "bowed", "resolution"))
    if battle.stay:
        names = ", ".join(battle.stay)
        report.say(f"the defenders stay at the battlefield, unbowed, until the Attack Phase ends: {names}")
        for title in battle.stay:
            known = know(match.players[d].court, Described(title)).person
            match = keep(match, d, replace(known, where=f"defending {province}"))
            report.changes.append(Change("stays", match.players[d].name, title, province, "resolution"))
    return match


def _duel(match: Match, event: DuelFought) -> tuple[Match, Outcome]:
    """glossary: duel and duelist: the order checked (rules 2), the totals, then the duel's consequences for
    its loser (both losers in a tie) or winner: a Personality at 0 Chi is destroyed (p.16), a dishonorable
    one destroyed costs his base Personal Honor."""
    players = [match.index(d.player) for d in (event.challenger, event.challenged)]
    duel = resolve_duel(event.challenger, event.challenged, stat=event.stat, ordered=match.version >= 2)
    report = Report()
    if duel.first:
        order = "; ".join(str(s) for s in duel.steps)
        report.say(f"{duel.first} ({duel.why_first}) has the first option to focus or strike: {order}")
    for what, value in duel.floored:
        report.say(
            f"{what}: {value} is 0 (no stat goes below 0, C-08)",
            Change("floored", None, what, {"entered": value, "now": 0}, "C-08"),
        )
    totals = f"{duel.challenger.total} against {duel.challenged.total}"
    report.say(f"{duel.winner} wins the duel ({totals})" if duel.winner else f"the duel is a tie ({totals}): both lose")
    now = match
    for c in event.consequences:
        targets = duel.losing() if c.who == "loser" else tuple(d for d in (duel.winning(),) if d is not None)
        for d in targets:
            i = players[0] if d is duel.challenger else players[1]
            now = _consequence(now, report, i, d, c, event.stat)
            if now.result is not None:
                return now, report.outcome(now.result, duel=duel)
    return now, report.outcome(None, duel=duel)


def _consequence(match: Match, report: Report, i: int, d: Duelist, c: Consequence, stat: str) -> Match:
    said = Described(d.title, dishonorable=d.dishonorable is not None, honor=_base(d))
    who = know(match.players[i].court, said).person
    cause = f"the duel's {c.who}"
    if c.what == "destroyed":
        return destroy(match, report, i, who, cause)
    if c.what == "dishonored":
        report.say(f"{d.title} is dishonored ({cause})", Change("dishonored", d.player, d.title, who.honor, "dishonor"))
        return keep(match, i, replace(who, dishonorable=True))
    if c.what == "bowed":
        report.say(f"{d.title} bows ({cause})", Change("bowed", d.player, d.title, None, "duel"))
        return keep(match, i, replace(who, bowed=True))
    if c.what == "honor":
        if c.amount > 0 and who.dishonorable:
            report.say(f"{d.player} gains no Honor: dishonorable {d.title} is rehonored instead (glossary: dishonor)")
            match, _ = rehonor(match, report, i, who, "instead of the Honor gain")
            return match
        return gain_or_lose(match, report, i, c.amount, cause, "action-resolution")
    chi = d.stat if stat == "chi" else d.chi
    if chi is None:
        raise Refused(f"{d.title}'s Chi is not known: give it ({d.title} (NF, 3C))", "personality")
    now = max(chi, 0) + c.amount
    report.say(f"{d.title} gets {c.amount}C ({cause}): Chi {max(now, 0)}" + (" (not below 0, C-08)" if now < 0 else ""))
    if now > 0:
        return keep(match, i, who)
    report.say(f"{d.title} is at 0 Chi: destroyed at once (p.16 Personality: Chi)")
    return destroy(match, report, i, who, "0 Chi")


def _base(d: Duelist) -> int | None:
    return None if d.dishonorable in (None, REMEMBERED) else d.dishonorable


def _after_province(match: Match, report: Report, i: int, province: int, note: str) -> Match:
    p = match.players[i]
    left = tuple(n for n in p.provinces if n != province)
    now = match.with_player(i, replace(p, provinces=left))
    report.say(note, Change("province destroyed", p.name, "", province, "resolution"))
    if left:
        return now
    return replace(now, result=military_result(match, i, province))


def _honor_changed(
    match: Match, changes: tuple[tuple[str, int], ...], cause: str, correction: bool
) -> tuple[Match, Outcome]:
    if not cause.strip():
        raise CcgError("an Honor change needs its cause")
    if match.version >= 2 and not correction:
        raise Refused(
            "Family Honor is worked out from the actions (lobby, bring ... claim, battles, a card's action with its "
            "effects ...: alice +2); a number typed alone only as a judge's correction: 'honor alice +2 "
            "(correction): <reason>'",
            "CT-01",
        )
    seen: set[int] = set()
    for name, _ in changes:
        i = match.index(name)
        if i in seen:
            raise CcgError(f"{match.players[i].name} is named twice in one Honor change")
        seen.add(i)
    report = Report()
    indexed = tuple((match.index(name), delta) for name, delta in changes)
    now = at_once(match, report, indexed, cause, "CT-01" if correction else "winning")
    return now, report.outcome(now.result)


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
        rings = [r.title for r in now.players[i].rings if r.own_text]
        result = Result(p.name, Victory.ENLIGHTENMENT, why, "winning", (("player", p.name), ("rings", rings)))
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


__all__ = ["apply", "new_match", "play", "cite", "Card", "HonorChange", "Outcome"]
