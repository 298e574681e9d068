"""The start of a match: what setting up puts on the table (pp.30-40 Setting Up the Game), and a match
started in the middle, from the state as it stands when the judge arrives (CT-10, CT-11).

At the start: the first player (the highest starting Family Honor, or the random choice when tied), each
player's Stronghold and Border Keep in play, unbowed (CT-02), the second player's Bamboo Harvesters in play
and bowed (the first player's out of the game), four face-down provinces and six cards in hand each, and
the Imperial Favor with the only Dragon Clan player (uncontrolled otherwise).

In the middle: the turn (the n-th turn of the match, turn 1 the first player's, CT-10), the active player,
the phase, who controls the Imperial Favor, each player's Family Honor, provinces and Rings as they stand,
the Personalities that matter (bowed, dishonorable with their base Personal Honor), and which once-a-turn
abilities were already used this turn. What cannot be a match in progress is refused: a player at or below
-20 Family Honor or with no province has lost; five Rings that give enlightenment have won.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .court import HOME, PH_MAX, Described, Personality, put
from .errors import CcgError, Refused
from .match import RingEntered, check_players, enlightened, new_match
from .model import DISHONOR_LOSS, HAND, PROVINCES, RULES, Match, Phase, Player, Ring
from .outcome import Change, Outcome, Report, honor_victory

USED = {  # the once-a-turn abilities a mid-game state names, and whose they can be
    "lobby": "active",
    "favor-draw": "active",
    "favor-home": "other",
    "claim": "active",
}


def describe_setup(match: Match) -> Outcome:
    """What setting up put on the table, said and as data."""
    report = Report()
    first, second = match.players[match.first], match.players[1 - match.first]
    if first.honor != second.honor:
        why = f"the highest starting Family Honor ({first.honor} against {second.honor})"
    else:
        why = f"chosen at random (both start on {first.honor} Family Honor)"
    report.say(f"turn 1: {first.name} goes first: {why}", Change("first", first.name, "", why, "going-first"))
    report.say(
        "each player starts with his Stronghold and a Border Keep in play, unbowed (CT-02)",
        *(Change("holding", p.name, "Border Keep", "unbowed", "CT-02") for p in match.players),
    )
    report.say(
        f"{second.name} (second) also starts with Bamboo Harvesters in play, bowed; {first.name}'s stays out of "
        "the game",
        Change("holding", second.name, "Bamboo Harvesters", "bowed", "starting-holdings"),
        Change("holding", first.name, "Bamboo Harvesters", "out of the game", "starting-holdings"),
    )
    report.say(
        f"each player: four face-down provinces (1 to 4, left to right) and {HAND} Fate cards in hand",
        *(Change("provinces", p.name, "", list(p.provinces), "provinces") for p in match.players),
        *(Change("hand", p.name, "Fate deck", HAND, "hand") for p in match.players),
    )
    for p in match.players:
        for stat, value in (("Province Strength", p.province_strength), ("Gold Production", p.gold)):
            if value < 0:
                report.say(
                    f"{p.name}'s {stat} {value} is 0 (no stat goes below 0, C-08)",
                    Change("floored", p.name, stat, {"entered": value, "now": 0}, "C-08"),
                )
    holder = match.favor_holder
    report.say(
        f"the Imperial Favor: {holder} controls it (the only Dragon Clan player)"
        if holder
        else "the Imperial Favor: uncontrolled",
        Change("favor", holder, "Imperial Favor", holder, "imperial-favor"),
    )
    return report.outcome(match.result)


@dataclass(frozen=True, slots=True)
class Midgame:
    turn: int
    active: str
    favor: str | None  # a player, or None: uncontrolled
    phase: Phase = Phase.STRAIGHTEN
    used: tuple[tuple[str, str], ...] | None = None  # (ability, player); None: not said
    rings: tuple[RingEntered, ...] = ()
    court: tuple[tuple[str, Described], ...] = ()  # (controller, Personality)


def start_midgame(
    players: tuple[Player, Player], state: Midgame, *, options: tuple[tuple[str, str], ...] = ()
) -> tuple[Match, Outcome]:
    """A match started at ``state.turn`` with the state as it stands (CT-10, CT-11)."""
    a, b = check_players(players)
    if state.turn < 1:
        raise CcgError(f"turn {state.turn}: turns are counted from 1 (the first player's first turn)")
    probe = Match(players=(a, b), first=0)
    active = probe.index(state.active)
    first = active if state.turn % 2 == 1 else 1 - active  # CT-10: turn n is the n-th turn of the match
    for p in players:
        if p.honor <= DISHONOR_LOSS:
            raise Refused(
                f"{p.name} is at {p.honor} Family Honor: at or below {DISHONOR_LOSS} a player has lost (C-01 if both): "
                "not a match in progress",
                "winning",
            )
        if not p.provinces:
            raise Refused(
                f"{p.name} has no province left: a player with none has lost, not a match in progress", "winning"
            )
        bad = [n for n in p.provinces if n not in PROVINCES]
        if bad:
            raise Refused(f"{p.name}'s provinces {bad}: provinces are numbered 1 to 4", "provinces")
    favor = None if state.favor is None else probe.index(state.favor)
    match = Match(
        players=(a, b), first=first, turn=state.turn, active=active, phase=state.phase, version=RULES, favor=favor
    )
    match = replace(match, options=options)
    match = _rings(match, state)
    report = Report()
    report.say(
        f"turn {state.turn}: {match.active_player.name}'s {state.phase.label} phase; "
        f"{match.players[first].name} went first (CT-10)",
        Change("turn", match.active_player.name, state.phase.label, state.turn, "CT-10"),
    )
    for p in match.players:
        report.say(
            f"{p.name}: {p.honor} Family Honor, provinces {', '.join(map(str, p.provinces))}"
            + (f"; Rings: {', '.join(r.title for r in p.rings)}" if p.rings else "")
        )
    holder = match.favor_holder
    report.say(
        f"the Imperial Favor: {holder or 'uncontrolled'}", Change("favor", holder, "Imperial Favor", holder, "CT-11")
    )
    match = _used(match, report, state)
    match = _court(match, report, state)
    if state.phase == Phase.STRAIGHTEN:  # the very start of the turn: the honor victory is checked first (C-03)
        won = honor_victory(match)
        if won is not None:
            report.say(f"match over: {won.reason}")
            return replace(match, result=won), report.outcome(won)
    return match, report.outcome()


def _used(match: Match, report: Report, state: Midgame) -> Match:
    """CT-11: what was used this turn must be said when the phase is one in which it could have been (the
    Action Phase: Lobby and the Favor's draw; the Attack Phase: the Favor's Battle action; the Dynasty Phase:
    the Personal Honor claim); from a phase before them, nothing was used yet."""
    if state.used is None:
        if state.phase in (Phase.ACTION, Phase.ATTACK, Phase.DYNASTY):
            raise CcgError(
                f"a match started in the {state.phase.label} phase: say which once-a-turn abilities were used this "
                "turn (lobby, favor-draw, favor-home, claim), or none (CT-11)",
                hint="--used 'lobby alice' ... or --used none",
            )
        return match
    used = set()
    for ability, player in state.used:
        if ability not in USED:
            raise CcgError(f"used {ability!r}: one of {', '.join(USED)} (CT-11)")
        i = match.index(player)
        whose = match.active if USED[ability] == "active" else match.other
        if i != whose:
            side = "the active player" if USED[ability] == "active" else "the other player"
            raise Refused(f"{ability} is {side}'s to use this turn, not {match.players[i].name}'s", "CT-11")
        used.add(f"{ability}:{i}")
        report.say(
            f"already used this turn: {ability} ({match.players[i].name})",
            Change("used", match.players[i].name, ability, None, "CT-11"),
        )
    return replace(match, used=frozenset(used))


def _rings(match: Match, state: Midgame) -> Match:
    for ring in state.rings:
        i = match.index(ring.player)
        p = match.players[i]
        match = match.with_player(i, replace(p, rings=(*p.rings, Ring(ring.title, ring.elements, ring.own_text))))
    for p in match.players:
        if enlightened(p.rings):
            raise Refused(
                f"{p.name}'s Rings give five elements, each entered by its own text: an enlightenment victory, "
                "not a match in progress",
                "winning",
            )
    return match


def _court(match: Match, report: Report, state: Midgame) -> Match:
    for player, said in state.court:
        i = match.index(player)
        name = match.players[i].name
        if said.chi is not None and said.chi <= 0:
            raise Refused(
                f"{said.title} at {said.chi} Chi cannot be in play: a Personality at 0 Chi is destroyed at once",
                "personality",
            )
        honor = said.honor
        if honor is not None and honor > PH_MAX:
            report.say(f"{said.title}'s Personal Honor {honor} is {PH_MAX}, its maximum (p.16)")
            honor = PH_MAX
        if said.force is not None and said.force < 0:
            report.say(
                f"{said.title}'s Force {said.force} is 0 (no stat goes below 0, C-08)",
                Change("floored", name, f"{said.title}'s Force", {"entered": said.force, "now": 0}, "C-08"),
            )
        who = Personality(said.title, said.keywords, honor, said.bowed, said.dishonorable, HOME, said.level, said.cost)
        p = match.players[i]
        match = match.with_player(i, replace(p, court=put(p.court, who)))
        state_words = ", ".join(w for w, on in (("bowed", who.bowed), ("dishonorable", who.dishonorable)) if on)
        report.say(
            f"{name}'s {who.title} in play"
            + (f": {state_words}" if state_words else "")
            + (f" (base Personal Honor {honor})" if who.dishonorable and honor is not None else "")
        )
    return match


__all__ = ["Midgame", "describe_setup", "new_match", "start_midgame"]
