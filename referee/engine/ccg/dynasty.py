"""The Dynasty Phase's actions (p.67, CT-03): a Personality or Holding brought into play from a province,
its price with the Clan rules (2 less Gold, or the Personal Honor once per Dynasty Phase, or 2 more Gold),
an overlay on a Personality in play, and a face-up card discarded from a province.
"""

from __future__ import annotations

from dataclasses import replace

from .court import HOME, Described, Personality, find
from .effects import keep
from .errors import Refused
from .model import Match, Phase
from .outcome import Change, Report, gain_or_lose
from .phases import advance, standing
from .turn_events import Bring, DiscardProvince

CLAN_GOLD = 2  # Dynasty Phase: "2 less Gold", "2 more Gold than normal"


def bring(match: Match, report: Report, ev: Bring) -> Match:
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
        standing(match, i, ev.province)
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


def discard(match: Match, report: Report, ev: DiscardProvince) -> Match:
    i = match.index(ev.player)
    name = match.players[i].name
    if i != match.active:
        raise Refused(f"{name} discards face-up cards only in his or her own Dynasty Phase", "dynasty-phase")
    match = advance(match, report, Phase.DYNASTY)
    standing(match, i, ev.province)
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
