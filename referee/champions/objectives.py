"""Clan Objectives (p.10-11, p.15, p.23, p.32): the cards each Champion keeps at setup, Draw Objectives, a card
completed (for one of its two values), and what the table may see of a Hidden card (CH-04 to CH-08)."""

from __future__ import annotations

from dataclasses import replace

from .model import Champion, ChampionsError, Kind, Note, Objective, Outcome, Scenario, Setup, Timing
from .tracks import move_glory

KEPT_AT_SETUP = 3  # p.10: "Draw 3 cards ... Keep at least 1 card"


def worth(o: Objective) -> str:
    return f"{o.glory}" + (f"/{o.lower}" if o.two_valued else "")


def describe(o: Objective) -> str:
    """A card as the table sees it face up: its name, type and values."""
    return f"{o.name} ({'hidden' if o.hidden else 'revealed'}, {o.timing.value}, {worth(o)})"


def check_sheet(setup: Setup) -> None:
    """The objectives a setup sheet keeps (p.10-11): each a Champion's of the sheet, a player's (a Companion
    has none, p.15, p.17), three at most (the cards drawn), none twice, none in the More cooperation variant
    (p.32), and the card marked "Investigation only" only in an Investigation scenario (p.10)."""
    by_name = {c.name: c for c in setup.cards}
    count: dict[str, list[str]] = {}
    for name, o in setup.objectives:
        card = by_name.get(name)
        if card is None:
            raise ChampionsError(f"objective {o.name!r} for {name!r}: no such Champion on the sheet", "p.10")
        if setup.cooperation:
            raise ChampionsError("the More cooperation variant uses no Clan Objectives", "p.32")
        _check_card(setup, name, card.companion, o)
        kept = count.setdefault(name, [])
        if o.name.casefold() in kept:
            raise ChampionsError(f"{name} keeps {o.name!r} twice", "p.15")
        kept.append(o.name.casefold())
        if len(kept) > KEPT_AT_SETUP:
            raise ChampionsError(
                f"{name} keeps {len(kept)} Clan Objectives: at setup a Champion keeps 1 to 3 of the 3 cards drawn "
                "(more come only by Draw Objectives, p.23)",
                "p.10-11, CH-04",
            )


def _check_card(setup: Setup, name: str, companion: bool, o: Objective) -> None:
    if companion:
        raise ChampionsError(f"{name} is a Companion: Companions have no Clan Objectives", "p.15, p.17")
    if o.glory < 0 or o.lower < 0:
        raise ChampionsError(f"{o.name}: Glory values must be 0 or more", "p.15")
    if o.investigation and setup.kind != Kind.INVESTIGATION:
        raise ChampionsError(
            f"{o.name} is marked 'Investigation only': it is removed from the deck unless the scenario is an "
            f"Investigation scenario (this one: {setup.kind or 'not said'})",
            "p.10, p.15",
        )


def unkept(scenario: Scenario) -> list[str]:
    """The players' Champions holding no Clan Objective (p.10-11 "Keep at least 1 card", p.15 "They select at
    least one card"); none in the More cooperation variant (p.32)."""
    if scenario.setup.cooperation:
        return []
    return [c.name for c in scenario.champions if not c.card.companion and not c.objectives]


def check_kept(scenario: Scenario, when: str) -> None:
    missing = unkept(scenario)
    if missing:
        raise ChampionsError(
            f"{', '.join(missing)} {'keeps' if len(missing) == 1 else 'keep'} no Clan Objective: each player's "
            f"Champion keeps at least one of the three cards drawn at setup ({when})",
            "p.10-11, p.15, CH-04",
        )


def at_setup(champion: Champion, setup: Setup) -> Champion:
    return replace(champion, objectives=tuple(o for n, o in setup.objectives if n == champion.name))


def _find(champion: Champion, name: str) -> Objective:
    for o in champion.objectives:
        if o.name.casefold() == name.casefold():
            return o
    held = len(champion.objectives)
    raise ChampionsError(f"{champion.name} holds no Clan Objective {name!r} ({held} held)", "p.15")


def keep(scenario: Scenario, champion: Champion, o: Objective, how: str) -> Outcome:
    """A card kept (``how``: at setup, reported late; or by Draw Objectives)."""
    if scenario.setup.cooperation:
        raise ChampionsError("the More cooperation variant uses no Clan Objectives", "p.32")
    _check_card(scenario.setup, champion.name, champion.card.companion, o)
    if any(x.name.casefold() == o.name.casefold() for x in champion.objectives):
        raise ChampionsError(f"{champion.name} already holds the Clan Objective {o.name!r}", "p.15")
    new = replace(champion, objectives=(*champion.objectives, o))
    if o.hidden:
        note = Note(f"{champion.name} keeps a hidden Clan Objective {how}: face down until completed", "p.15, CH-07")
    else:
        note = Note(f"{champion.name} takes the Clan Objective {o.name} ({o.timing.value}, {worth(o)}) {how}", "p.15")
    return Outcome(scenario.with_champion(new), (note,))


def drawn(scenario: Scenario, champion: Champion, o: Objective | None) -> Outcome:
    """p.23 Draw Objectives: two cards drawn, one kept (a Revealed one face up at once); keeping none only
    with the option draw_objectives_may_decline (CH-05)."""
    if champion.card.companion:
        raise ChampionsError(f"{champion.name} is a Companion: Companions have no Clan Objectives", "p.15, p.17")
    if scenario.setup.cooperation:
        raise ChampionsError("the More cooperation variant uses no Clan Objectives", "p.32")
    if o is None:
        if scenario.setup.options["draw_objectives_may_decline"] == "no":
            raise ChampionsError(
                "Draw Objectives keeps one of the two cards drawn ('Select one'; option draw_objectives_may_decline)",
                "p.23, CH-05",
            )
        return Outcome(scenario, (Note(f"{champion.name} draws two Clan Objectives and keeps neither", "CH-05"),))
    return keep(scenario, champion, o, "(Draw Objectives)")


def complete(scenario: Scenario, champion: Champion, name: str, value: int | None) -> Outcome:
    """p.15: an Instant card's Glory at once, a Hidden one turned face up; an End card's at the end (CH-08).
    A card of two values is completed for either (CH-06): the lower is a completion, no deduction; an Instant
    card paid its lower value may later be topped up to its higher (option two_value_instant)."""
    o = _find(champion, name)
    if value is not None and value not in (o.glory, o.lower):
        raise ChampionsError(f"{o.name} is worth {worth(o)}, not {value}", "p.15, CH-06")
    if o.completed:
        return _again(scenario, champion, o, value)
    paid = o.glory if value is None else value
    done = replace(o, completed=True, paid=paid)
    new = replace(champion, objectives=tuple(done if x is o else x for x in champion.objectives))
    shown = o.name if not o.hidden else "a hidden"
    if o.timing is Timing.END:
        label = f"the End Objective {o.name}" if not o.hidden else "a hidden End Objective"
        for_ = f" for {paid}" if o.two_valued else ""
        note = Note(
            f"{champion.name} fulfils {label}{for_}: its Glory counts at the end, if its conditions still hold "
            "then (retract this report if they do not)",
            "p.15, CH-08",
        )
        return Outcome(scenario.with_champion(new), (note,))
    if champion.out:
        raise ChampionsError(
            f"{champion.name} is {champion.status.value}: only its End Objectives are resolved, at the end", "p.15"
        )
    new, notes = move_glory(new, paid, f"Instant Objective {o.name}", "p.15")
    if o.hidden:
        notes.insert(0, Note(f"{champion.name} reveals {shown} Objective: {describe(o)}", "p.15"))
    if o.two_valued and paid == o.lower:
        notes.append(Note(f"{o.name} completed for its lower value {paid}", "CH-06"))
    return Outcome(scenario.with_champion(new), tuple(notes))


def _again(scenario: Scenario, champion: Champion, o: Objective, value: int | None) -> Outcome:
    topup = o.two_valued and o.timing is Timing.INSTANT and o.paid == o.lower and value == o.glory
    if not topup:
        raise ChampionsError(f"{champion.name} has already completed {o.name}", "p.15")
    if scenario.setup.options["two_value_instant"] == "close":
        raise ChampionsError(
            f"{o.name} closed at its lower value {o.lower} (option two_value_instant = close)", "p.15, CH-06"
        )
    if champion.out:
        raise ChampionsError(f"{champion.name} is {champion.status.value}: its scores no longer change", "p.15")
    done = replace(o, paid=o.glory)
    new = replace(champion, objectives=tuple(done if x is o else x for x in champion.objectives))
    new, notes = move_glory(new, o.glory - o.lower, f"{o.name} reaches its higher value {o.glory}", "p.15, CH-06")
    return Outcome(scenario.with_champion(new), tuple(notes))


def shown(champion: Champion, ended: bool) -> list[dict[str, object]]:
    """A Champion's cards as the other players may see them (p.15, CH-07): a Hidden card face down, its name
    and values unknown, until completed (Instant) or the end of the game, when every kept card is shown with
    the settlement."""
    out: list[dict[str, object]] = []
    for o in champion.objectives:
        if o.face_up or ended:
            out.append(
                {
                    "name": o.name,
                    "hidden": o.hidden,
                    "timing": o.timing.value,
                    "glory": o.glory,
                    "lower": o.lower,
                    "completed": o.completed,
                    "for": o.paid if o.completed else None,
                    "text": _short(o),
                }
            )
        else:
            out.append({"name": None, "hidden": True, "text": "hidden (face down)"})
    return out


def _short(o: Objective) -> str:
    """A face-up card in a few words: 'Unbroken Line (end 3/1, completed for 1)'."""
    done = ""
    if o.completed:
        done = ", completed" + (f" for {o.paid}" if o.two_valued else "")
    return f"{o.name} ({o.timing.value} {worth(o)}{done})"
