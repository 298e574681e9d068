"""What a card's action, trait or Event does, as the moderator enters it after its line's colon: Honor to a
player, and what happens to a Personality (dishonored, rehonored, destroyed, bowed, straightened, a Chi
that reads N, seppuku directed by the effect), or the Imperial Favor taken or discarded. The referee applies
the rules each one brings with it, in the order entered (p.44 Action Resolution: "apply the action's
effects in the order they are mentioned"):

- a player gaining Honor from an action or trait that targeted, came from or was performed by his
  dishonorable Personalities does not gain it, and they are rehonored (glossary: dishonor); losing Honor
  never rehonors, and neither does a gain of nothing;
- a Personality destroyed while dishonorable costs his controller his base Personal Honor (glossary:
  dishonor); destroying one outside battle resolution gives nobody Honor (Resolution Segment);
- a Chi that effects take to 0 or below is 0 (C-08), and a Personality at 0 Chi is destroyed at once
  (p.16 Personality: Chi);
- seppuku directed by an effect: "Rehonor the Personality, then destroy him" (glossary: seppuku);
- a player at or below -20 loses at once, and the effects after it do not happen (Winning the Game, C-01).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .court import DEAD, DISHONORABLY_DEAD, HOME, Described, Personality, find, know, put
from .errors import Refused
from .model import Match, Phase
from .outcome import Change, Report, at_once, gain_or_lose

VERBS = ("dishonor", "rehonor", "destroy", "bow", "straighten", "seppuku")


@dataclass(frozen=True, slots=True)
class HonorEffect:
    """Family Honor changed for one or more players by one effect (all before the dishonor check, C-01)."""

    changes: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Done:
    """``verb`` (one of VERBS) done to one player's Personality."""

    verb: str
    player: str
    who: Described


@dataclass(frozen=True, slots=True)
class ChiEffect:
    """His Chi now reads ``chi`` (the printed value with every modifier): 0 or below destroys him."""

    player: str
    who: Described
    chi: int


@dataclass(frozen=True, slots=True)
class SeppukuReaction:
    """Before ``player`` loses ``loss`` Honor from this action, his ``who`` commits seppuku (the players'
    Reaction, glossary: seppuku): the loss is reduced to one if it destroyed him."""

    player: str
    loss: int
    who: Described


@dataclass(frozen=True, slots=True)
class MoveEffect:
    """A unit moved (glossary: move) to a battlefield (the province's; to its controller's side there) or
    home."""

    player: str
    who: Described
    to: int | None  # a province; None: home


@dataclass(frozen=True, slots=True)
class FavorEffect:
    """The Imperial Favor taken by ``player``, or discarded (None): uncontrolled."""

    player: str | None


Effect = HonorEffect | Done | ChiEffect | FavorEffect | SeppukuReaction | MoveEffect


def person(match: Match, i: int, said: Described) -> Personality:
    """The Personality one of ``i``'s lines names, as the referee knows him with what the line says."""
    return know(match.players[i].court, said).person


def keep(match: Match, i: int, who: Personality) -> Match:
    p = match.players[i]
    return match.with_player(i, replace(p, court=put(p.court, who)))


def destroy(match: Match, report: Report, i: int, who: Personality, cause: str) -> Match:
    """Destroy ``who`` (and his unit): dead, or dishonorably dead costing his controller his base Personal
    Honor (glossary: dishonor). The dishonor check follows the loss."""
    name = match.players[i].name
    if not who.in_play:
        raise Refused(f"{who.title} is already dead: a dead Personality cannot be destroyed again", "dishonor")
    if who.dishonorable and who.honor is None:
        raise Refused(
            f"{who.title} is dishonorable and his base Personal Honor is not known: his death costs it "
            f"(give it: {who.title} (dishonorable NPH))",
            "dishonor",
        )
    where = DISHONORABLY_DEAD if who.dishonorable else DEAD
    match = keep(match, i, replace(who, where=where, bowed=False))
    report.say(
        f"{name}'s {who.title} is destroyed ({cause})" + ("; dishonorably dead" if who.dishonorable else ""),
        Change("destroyed", name, who.title, where, "dishonor" if who.dishonorable else "personality"),
    )
    if who.dishonorable and who.honor:
        loss = min(who.honor, 5) if who.honor > 0 else 0
        if loss:
            match = gain_or_lose(
                match, report, i, -loss, f"dishonorable {who.title} destroyed: his base Personal Honor", "dishonor"
            )
    return match


def rehonor(match: Match, report: Report, i: int, who: Personality, why: str) -> tuple[Match, Personality]:
    if not who.dishonorable:
        return match, who
    now = replace(who, dishonorable=False)
    name = match.players[i].name
    report.say(f"{name}'s {who.title} is rehonored ({why})", Change("rehonored", name, who.title, None, "dishonor"))
    return keep(match, i, now), now


def apply_effects(
    match: Match,
    report: Report,
    effects: tuple[Effect, ...],
    involved: frozenset[tuple[int, str]],
    cause: str,
) -> Match:
    """The effects in order; ``involved``: the Personalities (player index, title) the action or trait
    targeted, came from or was performed by. Stops at the end of the match."""
    for effect in effects:
        if match.result is not None:
            report.say(f"the match is over: the effects after it do not happen ({cause})")
            break
        match = _apply(match, report, effect, involved, cause)
    return match


def _apply(match: Match, report: Report, effect: Effect, involved: frozenset[tuple[int, str]], cause: str) -> Match:
    match effect:
        case HonorEffect(changes):
            kept = []
            for player, delta in changes:
                i = match.index(player)
                mine = [find(match.players[i].court, title) for k, title in sorted(involved) if k == i]
                low = [p for p in mine if p is not None and p.in_play and p.dishonorable]
                if delta > 0 and low:  # glossary: dishonor: "the Honor gain does not happen and they are rehonored"
                    names = ", ".join(p.title for p in low)
                    report.say(
                        f"{match.players[i].name} gains no Honor ({delta:+d} from {cause}): dishonorable {names} "
                        "involved, rehonored instead"
                    )
                    for p in low:
                        match, _ = rehonor(match, report, i, p, "instead of the Honor gain")
                elif delta:
                    kept.append((i, delta))
            if len({i for i, _ in kept}) != len(kept):
                raise Refused("a player is named twice in one effect's Honor changes", "action-resolution")
            return at_once(match, report, tuple(kept), cause, "action-resolution") if kept else match
        case FavorEffect(player):
            holder = None if player is None else match.index(player)
            name = None if holder is None else match.players[holder].name
            report.say(
                f"the Imperial Favor: {name} controls it ({cause})"
                if name
                else f"the Imperial Favor is discarded ({cause})",
                Change("favor", name, "Imperial Favor", name, "imperial-favor"),
            )
            return replace(match, favor=holder)
        case ChiEffect(player, said, chi):
            i = match.index(player)
            who = person(match, i, said)
            name = match.players[i].name
            if chi > 0:
                report.say(f"{name}'s {who.title} now has {chi} Chi ({cause})")
                return keep(match, i, who)
            if chi < 0:
                report.say(
                    f"{who.title}'s Chi {chi} is 0 (no stat goes below 0, C-08)",
                    Change("floored", name, f"{who.title}'s Chi", {"entered": chi, "now": 0}, "C-08"),
                )
            report.say(f"{who.title} is at 0 Chi: destroyed at once (p.16 Personality: Chi)")
            return destroy(match, report, i, who, f"0 Chi: {cause}")
        case Done(verb, player, said):
            i = match.index(player)
            who = person(match, i, said)
            return _done(match, report, i, verb, who, cause)
        case SeppukuReaction():
            return seppuku_reaction(match, report, effect, involved, cause)
        case MoveEffect(player, said, to):
            return _move(match, report, match.index(player), person(match, match.index(player), said), to, cause)
    raise TypeError(f"not an effect: {effect!r}")


def seppuku_reaction(
    match: Match, report: Report, effect: SeppukuReaction, involved: frozenset[tuple[int, str]], cause: str
) -> Match:
    """glossary: seppuku: "Reaction: Any number of times per turn, before you lose Honor from an action that
    targeted or was performed by one of your Courtier or Samurai Personalities: He commits seppuku. If the
    seppuku destroyed him, reduce the Honor loss to one." He must be in play to be destroyed (CT-08)."""
    i = match.index(effect.player)
    name = match.players[i].name
    other = match.players[1 - i]
    title = effect.who.title
    if find(match.players[i].court, title) is None and find(other.court, title) is not None:
        raise Refused(
            f"{title} is {other.name}'s: seppuku is his controller's Reaction, before his own Honor loss", "seppuku"
        )
    who = person(match, i, effect.who)
    if not who.in_play:
        raise Refused(
            f"{title} is already {who.where}: seppuku destroys him, and a Personality out of play cannot commit it "
            "(CT-08)",
            "CT-08",
        )
    if (i, who.title) not in involved:
        raise Refused(
            f"{cause} neither targeted nor was performed by {title}: seppuku answers a loss from an action that "
            "targeted or was performed by the Personality",
            "seppuku",
        )
    if not (who.has("courtier") or who.has("samurai")):
        raise Refused(
            f"{title} is not known as a Courtier or Samurai (mark him: {title} (samurai)): only they commit seppuku "
            "by the players' Reaction",
            "seppuku",
        )
    if effect.loss < 1:
        raise Refused("seppuku answers a loss of one or more points of Honor", "seppuku")
    report.say(
        f"{name}'s {title} commits seppuku before {name} loses {effect.loss} Honor ({cause})",
        Change("seppuku", name, title, effect.loss, "seppuku"),
    )
    match, who = rehonor(match, report, i, who, "seppuku: rehonored, then destroyed")
    match = destroy(match, report, i, who, "seppuku")
    if match.result is not None:
        return match
    return gain_or_lose(
        match, report, i, -1, f"{cause}: the loss of {effect.loss} reduced to one by seppuku", "seppuku"
    )


def _done(match: Match, report: Report, i: int, verb: str, who: Personality, cause: str) -> Match:
    name = match.players[i].name
    if verb == "destroy":
        return destroy(match, report, i, who, cause)
    if not who.in_play:
        raise Refused(f"{name}'s {who.title} is dead: an effect no longer {verb}s him", "dishonor")
    if verb == "seppuku":  # glossary: seppuku: "Rehonor the Personality, then destroy him"
        match, who = rehonor(match, report, i, who, "seppuku")
        return destroy(match, report, i, who, f"seppuku: {cause}")
    if verb == "rehonor":
        if not who.dishonorable:
            report.say(f"{who.title} is not dishonorable: nothing to rehonor ({cause})")
            return keep(match, i, who)
        match, _ = rehonor(match, report, i, who, cause)
        return match
    if verb == "dishonor":
        if who.dishonorable:
            report.say(f"{who.title} is already dishonorable ({cause})")
            return keep(match, i, who)
        report.say(
            f"{name}'s {who.title} is dishonored ({cause}): his Personal Honor is 0; destroyed while so, he costs "
            f"{name} his base Personal Honor" + (f" ({who.honor})" if who.honor is not None else ""),
            Change("dishonored", name, who.title, who.honor, "dishonor"),
        )
        return keep(match, i, replace(who, dishonorable=True))
    bowed = verb == "bow"
    report.say(
        f"{name}'s {who.title} {'bows' if bowed else 'straightens'} ({cause})",
        Change("bowed" if bowed else "straightened", name, who.title, None, "straighten-phase"),
    )
    return keep(match, i, replace(who, bowed=bowed))


def _move(match: Match, report: Report, i: int, who: Personality, to: int | None, cause: str) -> Match:
    """glossary: move: "Effects that move a unit to a battlefield always move it into its controller's side
    there"; one who was in an attacking army at a battle's resolution this Attack Phase "will not move to a
    battlefield" (the effect fails, the action stands: CT-12)."""
    name = match.players[i].name
    if not who.in_play:
        raise Refused(f"{name}'s {who.title} is {who.where}: no longer in play", "personality")
    if to is None:
        report.say(f"{name}'s {who.title} moves home ({cause})", Change("home", name, who.title, "moved", "move"))
        return keep(match, i, replace(who, where=HOME))
    if match.phase != Phase.ATTACK:
        raise Refused(
            f"{who.title} cannot move to a battlefield: battlefields exist in the Attack Phase", "attack-phase"
        )
    if to not in match.players[match.other].provinces:
        raise Refused(f"{match.players[match.other].name}'s province {to} is not a battlefield", "attack-phase")
    if i == match.active and who.title in match.attack.attacked:
        report.say(
            f"{who.title} was in an attacking army at a battle's resolution this Attack Phase: he will not move "
            f"({cause}; CT-12)",
            Change("warning", name, who.title, "will not move", "CT-12"),
        )
        return keep(match, i, who)
    side = "attacking" if i == match.active else "defending"
    report.say(
        f"{name}'s {who.title} moves to province {to}'s battlefield ({cause})",
        Change("assigned", name, who.title, to, "move"),
    )
    return keep(match, i, replace(who, where=f"{side} {to}"))
