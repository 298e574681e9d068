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

Battles, duels, Rings, provinces, phases and the turn's end are match.py's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .court import HOME, Described, Personality, find, know
from .effects import Effect, apply_effects, keep
from .errors import CcgError, Refused
from .model import HAND_MAXIMUM, PROVINCES, Attack, Match, Phase
from .outcome import Change, Outcome, Report, gain_or_lose

CLAN_GOLD = 2  # Dynasty Phase: "2 less Gold", "2 more Gold than normal"


# --- the events ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RevealProvince:
    province: int
    kind: str  # event, region, holding, personality
    title: str
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Lobby:
    player: str
    who: Described


@dataclass(frozen=True, slots=True)
class FavorDraw:
    player: str


@dataclass(frozen=True, slots=True)
class FavorHome:
    player: str
    who: Described  # the attacking enemy Personality whose unit goes home
    province: int  # the battlefield's province


@dataclass(frozen=True, slots=True)
class Equip:
    player: str
    card: Described  # the attachment: its title, its kind (follower, item, spell) and Honor Requirement
    kind: str
    on: Described
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class CardAction:
    player: str
    source: str  # the card the action or trait is on
    designator: str  # "limited", "political limited", "open", "battle", "reaction", "trait" or ""
    by: Described | None = None  # the Personality performing it
    on: tuple[tuple[str, Described], ...] = ()  # its targets: (their controller, the Personality)
    effects: tuple[Effect, ...] = ()

    @property
    def kind(self) -> str:
        return self.designator.split()[-1] if self.designator else ""


@dataclass(frozen=True, slots=True)
class Assign:
    player: str
    cavalry: bool
    units: tuple[tuple[tuple[Described, ...], int], ...]  # (the unit's cards, Personality first; province)


@dataclass(frozen=True, slots=True)
class Bring:
    player: str
    who: Described
    choice: str = ""  # "", "discount", "claim", "overlay"
    province: int | None = None  # the province he is brought from
    paid: int | None = None  # the Gold paid, when entered (checked against the price)


@dataclass(frozen=True, slots=True)
class DiscardProvince:
    player: str
    province: int


@dataclass(frozen=True, slots=True)
class EndPhase:
    player: str | None = None
    hand: int | None = None  # the hand before the draw, when counted


TurnAction = (
    RevealProvince | Lobby | FavorDraw | FavorHome | Equip | CardAction | Assign | Bring | DiscardProvince | EndPhase
)
TurnEvent = TurnAction


# --- the phases ---------------------------------------------------------------------------------------
def advance(match: Match, report: Report, phase: Phase) -> Match:
    """The active player's turn moved on to ``phase`` (never back, p.41); leaving the Attack Phase sends
    every unit at a battlefield home (the attackers bowing)."""
    if phase < match.phase:
        raise Refused(
            f"turn {match.turn} is in its {match.phase.label} phase: the {phase.label} phase cannot come now "
            "(the phases go in order)",
            "turn-sequence",
        )
    if phase == match.phase:
        return match
    if match.phase <= Phase.ATTACK < phase:
        match = end_attack(match, report)
    report.say(
        f"{match.active_player.name}'s {phase.label} phase",
        Change("phase", match.active_player.name, phase.label, None, "turn-sequence"),
    )
    return replace(match, phase=phase, fought=match.fought if phase == Phase.ATTACK else frozenset())


def end_attack(match: Match, report: Report) -> Match:
    """pp.49-66 Attack Phase: "Any units still at battlefields bow if they were attacking, and return home";
    the defenders "return home only at the end of the Attack Phase"."""
    for i, p in enumerate(match.players):
        for who in p.court:
            if not who.in_play or who.where == HOME:
                continue
            attacking = who.where.startswith("attacking")
            now = replace(who, where=HOME, bowed=who.bowed or attacking)
            match = keep(match, i, now)
            said = "bows and returns home" if attacking else "returns home"
            report.say(
                f"the Attack Phase ends: {p.name}'s {who.title} {said}",
                Change("home", p.name, who.title, "bowed" if attacking else "unbowed", "attack-phase"),
            )
    return replace(match, attack=Attack())


def limited(match: Match, report: Report, i: int, what: str) -> Match:
    """p.44: "Limited actions are taken in the Action Phase only by the active player"."""
    if i != match.active:
        raise Refused(
            f"{what}: only the active player ({match.active_player.name}) takes Limited actions, in the Action Phase",
            "action-phase",
        )
    if match.phase > Phase.ACTION:
        raise Refused(
            f"{what}: Limited actions are taken in the Action Phase; turn {match.turn} is in its "
            f"{match.phase.label} phase",
            "action-phase",
        )
    return advance(match, report, Phase.ACTION)


def _once(match: Match, ability: str, i: int, what: str) -> Match:
    """p.44 Check Conditions: "Each separate card ability and player ability may only be used once per turn"."""
    if match.has_used(ability, i):
        raise Refused(
            f"{match.players[i].name} already used {what} this turn: each player ability may be used once per turn",
            "action-conditions",
        )
    return replace(match, used=match.used | {f"{ability}:{i}"})


def _standing(match: Match, i: int, province: int) -> None:
    p = match.players[i]
    if province not in p.provinces:
        gone = "was destroyed" if province in PROVINCES else "does not exist (provinces 1 to 4)"
        raise Refused(f"{p.name}'s province {province} {gone}", "provinces")


def _in_play(who: Personality, name: str) -> None:
    if not who.in_play:
        raise Refused(f"{name}'s {who.title} is {who.where}: no longer in play", "personality")


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
            match = _bring(match, report, event)
        case DiscardProvince():
            match = _discard(match, report, event)
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
    _standing(match, i, ev.province)
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
    match = _once(match, "lobby", i, "Lobby")
    me, other = match.players[i], match.players[1 - i]
    if me.honor <= other.honor:
        raise Refused(
            f"{name} has {me.honor} Family Honor and {other.name} {other.honor}: Lobby needs higher Family Honor "
            "than each other player",
            "lobby",
        )
    who = know(me.court, ev.who).person
    _in_play(who, name)
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
    match = _once(match, "favor-draw", i, "the Imperial Favor's draw")
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
    _standing(match, i, ev.province)
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
    _in_play(who, match.players[a].name)
    if who.where not in (HOME, f"attacking {ev.province}") or (who.where == HOME and match.attack.segment >= 1):
        raise Refused(f"{who.title} is not attacking at province {ev.province}", "imperial-favor")
    match = _once(match, "favor-home", i, "the Imperial Favor's Battle action")
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
    _in_play(who, name)
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
        _in_play(by, name)
        match = keep(match, i, by)
        involved.add((i, by.title))
    for owner, said in ev.on:
        k = match.index(owner)
        target = know(match.players[k].court, said).person
        _in_play(target, match.players[k].name)
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
        _standing(match, match.other, province)
        who = know(match.players[i].court, cards[0]).person
        _in_play(who, name)
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


def _bring(match: Match, report: Report, ev: Bring) -> Match:
    """pp.49-66 Dynasty Phase: face-up Holdings and Personalities from one's provinces, in one's own Dynasty
    Phase (CT-03); the Clan rules: 2 less Gold, or the Personal Honor claimed once per Dynasty Phase, or 2
    more Gold when the Family Honor is below the Honor Requirement (compared before the claim, C-05)."""
    i = match.index(ev.player)
    me = match.players[i]
    said = ev.who
    if i != match.active:
        raise Refused(
            f"{me.name} brings cards into play from his or her provinces only in his or her own Dynasty Phase (it is "
            f"{match.active_player.name}'s turn)",
            "CT-03",
        )
    match = advance(match, report, Phase.DYNASTY)
    if ev.province is not None:
        _standing(match, i, ev.province)
        face = me.face(ev.province)
        if face == "":
            raise Refused(
                f"{me.name}'s province {ev.province} holds a face-down card: only face-up Holdings and "
                "Personalities are brought into play (it is revealed in the Events Phase)",
                "dynasty-phase",
            )
        if face is not None and face.lower() != said.title.lower():
            raise Refused(f"{me.name}'s province {ev.province} shows {face}, not {said.title}", "dynasty-phase")
    if "holding" in said.keywords:
        if ev.choice:
            raise Refused(f"{said.title} is a Holding: the Clan rules are for Personalities", "dynasty-phase")
        price = f" for {said.cost} Gold" if said.cost is not None else ""
        report.say(
            f"{me.name} brings the Holding {said.title} into play{price}: it enters play bowed",
            Change("enters", me.name, said.title, "bowed", "dynasty-phase"),
            *(
                [Change("price", me.name, said.title, {"gold_cost": said.cost, "paid": said.cost}, "dynasty-phase")]
                if said.cost is not None
                else []
            ),
        )
    elif ev.choice == "overlay":
        match = _overlay(match, report, i, said)
    else:
        match = _personality(match, report, i, ev)
    if ev.province is not None and match.result is None:
        p = match.players[i]
        report.say(
            f"province {ev.province} is refilled face down",
            Change("refilled", p.name, "", ev.province, "provinces"),
        )
        match = match.with_player(i, p.with_face(ev.province, ""))
    return match


def _personality(match: Match, report: Report, i: int, ev: Bring) -> Match:
    me = match.players[i]
    said = ev.who
    old = find(me.court, said.title)
    if old is not None and old.in_play and ({"unique", "singular"} & (said.keywords | old.keywords)):
        raise Refused(
            f"{me.name} already controls {said.title}: a player will not bring into play a Unique or Singular card "
            "with the title of one he controls",
            "unique",
        )
    aligned = bool(me.clan) and f"{me.clan.lower()} clan" in said.keywords
    requirement = said.requirement if said.requirement is not None and said.requirement >= 0 else None
    met = requirement is None or me.honor >= requirement  # C-05: before the Honor the claim would give
    if not met and not aligned:
        raise Refused(
            f"{me.name} has {me.honor} Family Honor, below {said.title}'s Honor Requirement {requirement}: he will "
            f"not enter play under {me.name}'s control (only a Personality of one's own Clan may, for 2 more Gold)",
            "dynasty-phase",
        )
    if ev.choice in ("discount", "claim") and not aligned:
        clan = f"the {me.clan.title()} Clan alignment" if me.clan else "a Clan alignment (the player has none)"
        raise Refused(
            f"{said.title} ({', '.join(sorted(k for k in said.keywords if k.endswith(' clan'))) or 'no Clan'}) lacks "
            f"{clan}: the 2 less Gold and the Personal Honor claim are for Personalities of one's own Clan",
            "dynasty-phase",
        )
    if ev.choice == "claim":
        if match.has_used("claim", i):
            raise Refused(
                f"{me.name} already gained a Personality's Personal Honor this Dynasty Phase: once per Dynasty Phase",
                "dynasty-phase",
            )
        if said.honor is None:
            raise Refused(
                f"{said.title}'s Personal Honor is not given: the claim gains it (give it: {said.title} (NPH))",
                "dynasty-phase",
            )
    price, why, terms = _price(said, ev.choice, met, requirement)
    if ev.paid is not None and price is not None and ev.paid != price:
        raise Refused(f"{said.title} costs {me.name} {price} Gold here ({why}), not {ev.paid}", "dynasty-phase")
    if price is None:
        price, why, terms = ev.paid, "as entered", {"paid": ev.paid}
    if ev.choice == "claim":
        assert said.honor is not None
        gain = min(max(said.honor, 0), 5)
        match = replace(match, used=match.used | {f"claim:{i}"})
        report.changes.append(Change("claim", me.name, said.title, gain, "dynasty-phase"))
        if gain:  # "just before you bring him into play"
            match = gain_or_lose(
                match, report, i, gain, f"{said.title}'s Personal Honor, claimed as he enters play", "dynasty-phase"
            )
        else:
            report.say(
                f"warning: {said.title} has 0 Personal Honor: the claim gains nothing and is spent for this Dynasty "
                "Phase (CT-07)",
                Change("warning", me.name, "claim", "a claim of 0 Personal Honor", "CT-07"),
            )
        if said.honor > 5:
            report.say(f"{said.title}'s Personal Honor {said.honor} is 5 (its maximum, p.16)")
        if match.result is not None:
            return match
    person = Personality(said.title, said.keywords, said.honor, False, False, HOME, said.level, said.cost)
    match = keep(match, i, person)
    paid = f" for {price} Gold ({why})" if price is not None else ""
    report.say(
        f"{me.name} brings {said.title} into play{paid}: he enters play unbowed, at home",
        Change("enters", me.name, said.title, "unbowed", "dynasty-phase"),
        *([Change("price", me.name, said.title, terms, "dynasty-phase")] if price is not None else []),
    )
    return match


def _price(
    said: Described, choice: str, met: bool, requirement: int | None
) -> tuple[int | None, str, dict[str, int | None]]:
    """The Gold a Personality costs: his Gold Cost, 2 less with the Clan discount, 2 more when the Honor
    Requirement is not met; the sum floored at 0 (C-08). Said, and as its terms."""
    if said.cost is None:
        return None, "", {}
    parts = [f"Gold Cost {said.cost}"]
    total = said.cost
    terms: dict[str, int | None] = {"gold_cost": said.cost, "clan_discount": 0, "requirement_penalty": 0}
    if choice == "discount":
        total -= CLAN_GOLD
        terms["clan_discount"] = CLAN_GOLD
        parts.append("2 less for his Clan")
    if not met:
        total += CLAN_GOLD
        terms["requirement_penalty"] = CLAN_GOLD
        terms["honor_requirement"] = requirement
        parts.append(f"2 more: Honor Requirement {requirement} not met")
    if total < 0:
        parts.append("no cost below 0, C-08")
    terms["paid"] = max(total, 0)
    return max(total, 0), ", ".join(parts), terms


def _overlay(match: Match, report: Report, i: int, said: Described) -> Match:
    """p.80 glossary: experienced: overlaid on a Personality of the same title and lower experience level,
    without entering play: no Honor Requirement and no Clan rule (CT-06); Gold only when two or more levels
    above and more expensive (the difference)."""
    me = match.players[i]
    old = find(me.court, said.title)
    if old is None or not old.in_play:
        raise Refused(f"{me.name} controls no {said.title} to overlay", "experienced")
    if said.level <= old.level:
        raise Refused(
            f"{said.title} (experience level {said.level}) overlays only a Personality of lower experience level "
            f"(the one in play: {old.level})",
            "experienced",
        )
    price: int | None = 0
    if said.level - old.level >= 2:
        price = None if said.cost is None or old.cost is None else max(said.cost - old.cost, 0)
    stacked = replace(
        old,
        keywords=said.keywords | old.keywords,
        honor=said.honor if said.honor is not None else old.honor,
        level=said.level,
        cost=said.cost if said.cost is not None else old.cost,
    )
    match = keep(match, i, stacked)
    paid = "the difference of the Gold Costs" if price is None else f"{price} Gold"
    state = ", ".join(s for s, on in (("bowed", old.bowed), ("dishonorable", old.dishonorable)) if on) or "unbowed"
    report.say(
        f"{me.name} overlays {said.title} (experience level {said.level}) on the one in play, paying {paid}: the "
        f"stack keeps his state ({state}), attachments and tokens",
        Change("overlay", me.name, said.title, said.level, "experienced"),
        *(
            [Change("price", me.name, said.title, {"overlay": True, "paid": price}, "experienced")]
            if price is not None
            else []
        ),
    )
    return match


def _discard(match: Match, report: Report, ev: DiscardProvince) -> Match:
    i = match.index(ev.player)
    name = match.players[i].name
    if i != match.active:
        raise Refused(f"{name} discards face-up cards only in his or her own Dynasty Phase", "dynasty-phase")
    match = advance(match, report, Phase.DYNASTY)
    _standing(match, i, ev.province)
    face = match.players[i].face(ev.province)
    if face == "":
        raise Refused(
            f"{name}'s province {ev.province} is face down: only face-up cards are discarded", "dynasty-phase"
        )
    report.say(
        f"{name} discards {face or 'the face-up card'} from province {ev.province}; refilled face down",
        Change("discarded", name, face or "", ev.province, "dynasty-phase"),
    )
    return match.with_player(i, match.players[i].with_face(ev.province, ""))


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
