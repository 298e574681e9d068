"""The turn's actions (p.41 The Turn Sequence and the phases' sections): each one a line of the notation
(notation_turn.py) whose rules the referee applies and checks: who may take it and when, the Honor it gives
or costs, the once-a-turn and once-a-Dynasty-Phase limits, the Imperial Favor's holder, who bows, who goes
home. The moderator enters what happened at the table; the referee works out what follows from it.

    RevealProvince   Events Phase: a province's card turned face up, left to right
    Lobby            Political Limited: higher Family Honor, bow a Personality with 1 PH or more: the Favor
    FavorDraw        Political Limited: discard the Favor and a card: draw a card
    FavorHome        Political Battle: discard the Favor: move an attacking enemy unit home
    Equip            Limited, any number of times: attach a card from the hand
    CardAction       a card's Limited, Open, Battle or Reaction action, or a triggered trait, and its effects
    Assign           Infantry or Cavalry Maneuvers: units to the battlefields
    Bring            Dynasty Phase: a Personality or Holding from a province; the Clan rules
    DiscardProvince  Dynasty Phase: a face-up card discarded, the province refilled
    EndPhase         draw a Fate card, discard down to eight

Seppuku is an action's effect: directed by it, or the players' Reaction before its Honor loss (effects.py).

The events themselves are turn_events.py's; the checks every action asks (the phases in order, who takes
Limited actions, once a turn, a province standing, a Personality in play) are phases.py's; the Dynasty
Phase's actions (Bring, DiscardProvince) are dynasty.py's. Battles, duels, Rings, provinces and the turn's
end are match.py's.
"""

from __future__ import annotations

from dataclasses import replace

from .court import HOME, find, know
from .dynasty import bring, discard
from .effects import apply_effects, keep
from .errors import CcgError, Refused
from .model import HAND_MAXIMUM, Match, Phase
from .outcome import Change, Outcome, Report
from .phases import advance, in_play, limited, once, standing
from .turn_events import (
    Assign,
    Bring,
    CardAction,
    DiscardProvince,
    EndPhase,
    Equip,
    FavorDraw,
    FavorHome,
    Lobby,
    RevealProvince,
    TurnEvent,
)


# --- one action ---------------------------------------------------------------------------------------
def apply_turn(match: Match, event: TurnEvent) -> tuple[Match, Outcome]:
    report = Report()
    match event:
        case RevealProvince():
            match = _reveal(match, report, event)
        case Lobby():
            match = _lobby(match, report, event)
        case FavorDraw():
            match = _favor_draw(match, report, event)
        case FavorHome():
            match = _favor_home(match, report, event)
        case Equip():
            match = _equip(match, report, event)
        case CardAction():
            match = _action(match, report, event)
        case Assign():
            match = _assign(match, report, event)
        case Bring():
            match = bring(match, report, event)
        case DiscardProvince():
            match = discard(match, report, event)
        case EndPhase():
            match = _end_phase(match, report, event)
        case _:
            raise CcgError(f"not an action of the turn: {event!r}")
    return match, report.outcome(match.result)


def _reveal(match: Match, report: Report, ev: RevealProvince) -> Match:
    """p.41 Events Phase: the active player's provinces, from the leftmost, each once."""
    i = match.active
    name = match.active_player.name
    if match.phase > Phase.EVENTS:
        raise Refused(f"turn {match.turn} is past its Events Phase ({match.phase.label} phase)", "events-phase")
    match = advance(match, report, Phase.EVENTS)
    standing(match, i, ev.province)
    if ev.province <= match.revealed:
        raise Refused(
            f"province {ev.province} comes before province {match.revealed}, already dealt with: the Events Phase "
            "deals with each province once, from the leftmost, moving left to right",
            "events-phase",
        )
    face = match.players[i].face(ev.province)
    if face:
        raise Refused(f"{name}'s province {ev.province} is face up ({face}): nothing happens there now", "events-phase")
    match = replace(match, revealed=ev.province)
    p = match.players[i]
    revealed = Change("revealed", name, ev.title, {"province": ev.province, "kind": ev.kind}, "events-phase")
    if ev.kind == "event":
        report.say(f"{name}'s province {ev.province}: the Event {ev.title} resolves", revealed)
        match = apply_effects(match, report, ev.effects, frozenset(), ev.title)
        p = match.players[i]
        report.say(
            f"{ev.title} is discarded; province {ev.province} is refilled face down",
            Change("discarded", name, ev.title, ev.province, "events-phase"),
        )
        return match.with_player(i, p.with_face(ev.province, ""))
    if ev.effects:
        raise Refused(f"{ev.title}: only an Event's effects resolve when it is revealed", "events-phase")
    if ev.kind == "region":
        regions = dict(p.regions)
        if ev.province in regions:
            report.say(
                f"{name}'s province {ev.province}: the Region {ev.title} will not attach (the province has "
                f"{regions[ev.province]}): discarded, the province refilled face down",
                revealed,
                Change("discarded", name, ev.title, ev.province, "events-phase"),
            )
        else:
            regions[ev.province] = ev.title
            report.say(
                f"{name}'s province {ev.province}: the Region {ev.title} enters play attached to it; the province "
                "is refilled face down",
                revealed,
                Change("attached", name, ev.title, ev.province, "events-phase"),
            )
            p = replace(p, regions=tuple(sorted(regions.items())))
        return match.with_player(i, p.with_face(ev.province, ""))
    report.say(f"{name}'s province {ev.province}: {ev.title} ({ev.kind}), face up: nothing happens now", revealed)
    return match.with_player(i, p.with_face(ev.province, ev.title))


def _lobby(match: Match, report: Report, ev: Lobby) -> Match:
    i = match.index(ev.player)
    name = match.players[i].name
    match = limited(match, report, i, "Lobby is a Political Limited action")
    match = once(match, "lobby", i, "Lobby")
    me, other = match.players[i], match.players[1 - i]
    if me.honor <= other.honor:
        raise Refused(
            f"{name} has {me.honor} Family Honor and {other.name} {other.honor}: Lobby needs higher Family Honor "
            "than each other player",
            "lobby",
        )
    who = know(me.court, ev.who).person
    in_play(who, name)
    if who.bowed:
        raise Refused(
            f"{who.title} is bowed: Lobby's cost bows him, and a cost must actually, fully happen", "pay-costs"
        )
    honor = who.personal_honor
    if honor is None:
        raise Refused(
            f"{who.title}'s Personal Honor is not known: Lobby bows a Personality with 1 Personal Honor or higher "
            f"(give it: {who.title} (NPH))",
            "lobby",
        )
    if honor < 1:
        why = " (dishonorable: always zero)" if who.dishonorable else ""
        raise Refused(f"{who.title} has {honor} Personal Honor{why}: Lobby needs 1 or higher", "lobby")
    held = match.favor == i
    if held and match.option("lobby_holding_favor") == "refuse":
        raise Refused(f"{name} already controls the Imperial Favor (option lobby_holding_favor=refuse)", "CT-05")
    match = keep(match, i, replace(who, bowed=True))
    was = match.favor_holder
    match = replace(match, favor=i)
    report.say(
        f"{name} Lobbies: {who.title} bows; {name} takes the Imperial Favor"
        + (f" from {was}" if was and not held else " (uncontrolled until now)" if not was else "")
        + "; no Honor changes (Lobby gives none)",
        Change("bowed", name, who.title, None, "lobby"),
        Change("favor", name, "Imperial Favor", name, "lobby"),
        Change("used", name, "lobby", None, "action-conditions"),
    )
    if held:
        report.say(
            f"warning: {name} already controlled the Imperial Favor: this Lobby only bows {who.title} and uses "
            "Lobby for the turn (CT-05)",
            Change("warning", name, "lobby", "the Favor was already held", "CT-05"),
        )
    return match


def _favor_draw(match: Match, report: Report, ev: FavorDraw) -> Match:
    i = match.index(ev.player)
    name = match.players[i].name
    what = "discarding the Imperial Favor and a card to draw is a Political Limited action"
    match = limited(match, report, i, what)
    if match.favor != i:
        held = f"{match.favor_holder} controls it" if match.favor_holder else "it is uncontrolled"
        raise Refused(f"{name} does not control the Imperial Favor ({held}): it cannot be discarded", "pay-costs")
    match = once(match, "favor-draw", i, "the Imperial Favor's draw")
    report.say(
        f"{name} discards the Imperial Favor (now uncontrolled) and a card, and draws a card",
        Change("favor", None, "Imperial Favor", None, "imperial-favor"),
        Change("discard", name, "hand", 1, "imperial-favor"),
        Change("draw", name, "Fate deck", 1, "imperial-favor"),
        Change("used", name, "favor-draw", None, "action-conditions"),
    )
    return replace(match, favor=None)


def _favor_home(match: Match, report: Report, ev: FavorHome) -> Match:
    i = match.index(ev.player)
    name = match.players[i].name
    if match.phase != Phase.ATTACK:
        raise Refused(
            f"discarding the Imperial Favor to move a unit home is a Battle action, taken only during a battle's "
            f"Combat Segment (turn {match.turn} is in its {match.phase.label} phase)",
            "action-phase",
        )
    if i == match.active:
        raise Refused(
            f"{name} is the Attacker: the Favor's Battle action moves an attacking enemy unit home, and the "
            "Attacker's enemies are defending",
            "imperial-favor",
        )
    if match.favor != i:
        raise Refused(f"{name} does not control the Imperial Favor: it cannot be discarded", "pay-costs")
    standing(match, i, ev.province)
    if ev.province in match.fought:
        raise Refused(f"the battle at {name}'s province {ev.province} is over", "attack-phase")
    if match.attack.segment >= 2 and not any(p.where == f"defending {ev.province}" for p in match.players[i].court):
        raise Refused(
            f"{name} controls no unit at the battlefield of province {ev.province}: to take a Battle action you "
            "must control one or more units at the current battlefield",
            "combat",
        )
    a = match.active
    who = know(match.players[a].court, ev.who).person
    in_play(who, match.players[a].name)
    if who.where not in (HOME, f"attacking {ev.province}") or (who.where == HOME and match.attack.segment >= 1):
        raise Refused(f"{who.title} is not attacking at province {ev.province}", "imperial-favor")
    match = once(match, "favor-home", i, "the Imperial Favor's Battle action")
    match = keep(match, a, replace(who, where=HOME))
    match = replace(match, favor=None, attack=replace(match.attack, sent_home=match.attack.sent_home | {who.title}))
    report.say(
        f"{name} discards the Imperial Favor (now uncontrolled): {match.players[a].name}'s {who.title} and his unit "
        "move home (not bowed: they are not at the battlefield when its attackers bow)",
        Change("favor", None, "Imperial Favor", None, "imperial-favor"),
        Change("home", match.players[a].name, who.title, "unbowed", "imperial-favor"),
        Change("used", name, "favor-home", None, "action-conditions"),
    )
    return match


def _equip(match: Match, report: Report, ev: Equip) -> Match:
    i = match.index(ev.player)
    name = match.players[i].name
    match = limited(match, report, i, "Equip is a Limited action")
    who = know(match.players[i].court, ev.on).person
    in_play(who, name)
    if ev.kind == "spell" and not who.has("shugenja"):
        raise Refused(
            f"{ev.card.title} is a Spell: Spells only attach to a Shugenja, and {who.title} is not known as one "
            f"(mark him: {who.title} (shugenja))",
            "attachments",
        )
    need = ev.card.requirement
    if ev.kind == "follower" and need is not None and need > 0:
        honor = who.personal_honor
        if honor is None:
            raise Refused(
                f"{ev.card.title} has an Honor Requirement of {need}: {who.title}'s Personal Honor is not known "
                f"(give it: {who.title} (NPH))",
                "attachments",
            )
        if honor < need:
            why = " (dishonorable: always zero)" if who.dishonorable else ""
            raise Refused(
                f"{ev.card.title} needs a Personality with {need} Personal Honor or more to attach; {who.title} has "
                f"{honor}{why}",
                "attachments",
            )
    match = keep(match, i, who)
    report.say(
        f"{name} equips {who.title} with {ev.card.title} ({ev.kind})",
        Change("attached", name, ev.card.title, who.title, "equip"),
    )
    return apply_effects(match, report, ev.effects, frozenset({(i, who.title)}), f"{ev.card.title} attached")


def _action(match: Match, report: Report, ev: CardAction) -> Match:
    i = match.index(ev.player)
    name = match.players[i].name
    what = f"{ev.source} ({ev.designator})"
    kind = ev.kind
    if kind == "limited":
        match = limited(match, report, i, what)
    elif kind == "open":
        if match.phase > Phase.ACTION:
            raise Refused(
                f"{what}: Open actions are taken in the Action Phase; turn {match.turn} is in its "
                f"{match.phase.label} phase",
                "action-phase",
            )
        match = advance(match, report, Phase.ACTION)
    elif kind == "battle" and match.phase != Phase.ATTACK:
        raise Refused(
            f"{what}: Battle actions can only be taken during a battle's Combat Segment (turn {match.turn} is in "
            f"its {match.phase.label} phase)",
            "action-phase",
        )
    involved: set[tuple[int, str]] = set()
    source = find(match.players[i].court, ev.source)
    if source is not None and source.in_play:
        if source.bowed and kind not in ("trait", "reaction", ""):
            raise Refused(f"{ev.source} is bowed: abilities on bowed cards may not be used", "action-conditions")
        involved.add((i, source.title))
    if ev.by is not None:
        by = know(match.players[i].court, ev.by).person
        in_play(by, name)
        match = keep(match, i, by)
        involved.add((i, by.title))
    for owner, said in ev.on:
        k = match.index(owner)
        target = know(match.players[k].court, said).person
        in_play(target, match.players[k].name)
        match = keep(match, k, target)
        involved.add((k, target.title))
    designated = f" ({ev.designator})" if ev.designator else ""
    report.say(
        f"{name}: {ev.source}{designated}",
        Change("action", name, ev.source, ev.designator, "traits" if kind == "trait" else "action-phase"),
    )
    return apply_effects(match, report, ev.effects, frozenset(involved), ev.source)


SEGMENTS = ("the Attacker's Infantry Maneuvers", "the Defender's", "the Attacker's Cavalry Maneuvers", "the Defender's")


def _out_of_order(match: Match, name: str, segment: int) -> Refused:
    """An assignment in another segment than the next one (pp.49-66: the Attacker first, then the Defender;
    Infantry, then Cavalry)."""
    if match.attack.segment >= segment:
        return Refused(f"{name} already assigned units in {SEGMENTS[segment - 1]}", "maneuvers")
    expected = SEGMENTS[match.attack.segment]
    due = match.active_player.name if match.attack.segment % 2 == 0 else match.players[match.other].name
    return Refused(
        f"{expected} come first: {due} assigns before {name} (the Attacker first, then the Defender; "
        f"Infantry, then Cavalry). Enter 'assign {'cavalry ' if match.attack.segment >= 2 else ''}{due} none' "
        "if nobody was assigned",
        "maneuvers",
    )


def _assign(match: Match, report: Report, ev: Assign) -> Match:
    """pp.49-66 Attack Phase: the Attacker assigns first, all at once, then the Defender; then each their
    Cavalry units. A unit led by a bowed Personality may not be assigned."""
    i = match.index(ev.player)
    name = match.players[i].name
    attacker = i == match.active
    segment = (3 if ev.cavalry else 1) + (0 if attacker else 1)  # the segment this assignment makes
    if match.phase > Phase.ATTACK:
        raise Refused(f"turn {match.turn} is past its Attack Phase ({match.phase.label} phase)", "attack-phase")
    if match.fought:
        raise Refused("the battles have begun: units are assigned before the first battle", "maneuvers")
    if match.attack.segment != segment - 1:
        raise _out_of_order(match, name, segment)
    match = advance(match, report, Phase.ATTACK)
    side = "attacking" if attacker else "defending"
    assigned = []
    for cards, province in ev.units:
        standing(match, match.other, province)
        who = know(match.players[i].court, cards[0]).person
        in_play(who, name)
        if who.bowed:
            raise Refused(f"{who.title} is bowed: a unit led by a bowed Personality may not be assigned", "maneuvers")
        if who.where != HOME:
            raise Refused(f"{who.title} is not at home ({who.where}): units are assigned from home", "maneuvers")
        if ev.cavalry:
            slow = [c.title for c in cards if "cavalry" not in c.keywords] if who.has("cavalry") else [who.title]
            if slow:
                raise Refused(
                    f"{who.title}'s unit is not Cavalry ({', '.join(slow)} without the Cavalry keyword): a unit is "
                    "Cavalry if its Personality and all its Followers have the Cavalry keyword",
                    "maneuvers",
                )
        match = keep(match, i, replace(who, where=f"{side} {province}"))
        assigned.append(f"{who.title} to {province}")
        report.changes.append(Change("assigned", name, who.title, province, "maneuvers"))
    what = "Cavalry Maneuvers" if ev.cavalry else "Infantry Maneuvers"
    report.say(
        f"{what}: {name} ({'Attacker' if attacker else 'Defender'}) assigns " + (", ".join(assigned) or "nobody")
    )
    return replace(match, attack=replace(match.attack, declared=True, segment=segment))


def _end_phase(match: Match, report: Report, ev: EndPhase) -> Match:
    """pp.49-66 End Phase: the active player draws a Fate card, then discards down to eight."""
    name = match.active_player.name
    if ev.player is not None and match.index(ev.player) != match.active:
        raise Refused(f"the End Phase is the active player's ({name}): {ev.player} draws nothing in it", "end-phase")
    match = advance(match, report, Phase.END)
    draw = Change("draw", name, "Fate deck", 1, "end-phase")
    if ev.hand is None:
        report.say(f"{name} draws a Fate card, then discards down to {HAND_MAXIMUM} if above", draw)
        return match
    held = ev.hand + 1
    over = max(held - HAND_MAXIMUM, 0)
    report.say(
        f"{name} draws a Fate card ({held} in hand)"
        + (f" and discards {over} down to {HAND_MAXIMUM}" if over else f": no discard ({HAND_MAXIMUM} at most)"),
        draw,
        Change("hand", name, "hand", {"after_draw": held, "maximum": HAND_MAXIMUM}, "end-phase"),
        Change("discard", name, "hand", over, "end-phase"),
    )
    return match
