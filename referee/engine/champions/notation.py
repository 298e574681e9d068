"""The line notation of Champions of Rokugan: the setup sheet and the table's reports, one a line.

Setup sheet (``#`` starts a comment)::

    scenario: The Fallen Lion
    difficulty: 1                      # the scenario insert's adjustment for the chosen level (p.8)
    turns: 8                           # the maximum number of turns (p.8)
    solo: no                           # optional; yes: one Champion and four Companions (p.17)
    option: threshold_glory = final    # optional rules option (CR-04)
    champion: Matsu Tsuko, honor 5, destiny 1, player Ann
    companion: Minor Clan Bushi, honor 2, destiny 0

Reports (a Champion's name, or any unambiguous start of it, in any case)::

    Matsu Tsuko: honor +1                       Matsu Tsuko: purity -2      (or +1: Ki spent, p.16)
    Matsu Tsuko: eliminates Armored Oni, 3 glory
    Matsu Tsuko: eliminates Samurai, 1 glory, last of unit
    Matsu Tsuko: scenario glory +2, lit the beacon
    Matsu Tsuko: objective Unbroken Line, instant, 2      (end, 3/1: two values, the lower one deducted)
    Matsu Tsuko: completes Unbroken Line
    Matsu Tsuko: eliminated                     Matsu Tsuko: corrupted
    turn end                                    turn end, group honor 17
"""

from __future__ import annotations

import re

from .model import ChampionCard, ChampionsError, Objective, Options, Setup, Timing
from .rules import (
    ChampionCorrupted,
    ChampionEliminated,
    EnemyEliminated,
    Event,
    HonorChanged,
    ObjectiveCompleted,
    ObjectiveTaken,
    PurityChanged,
    ScenarioGlory,
    TurnEnded,
)

SIGNED = r"([+-]\d{1,3})"
CARD = re.compile(r"(?P<name>[^,]+?)\s*,\s*honor\s+(?P<honor>-?\d{1,2})\s*,\s*destiny\s+(?P<destiny>\d{1,2})"
                  r"(?:\s*,\s*player\s+(?P<player>.+?))?\s*$", re.I)  # fmt: skip
FORMS: list[tuple[str, re.Pattern[str]]] = [
    ("honor", re.compile(rf"honor\s+{SIGNED}$", re.I)),
    ("purity", re.compile(rf"purity\s+{SIGNED}$", re.I)),
    ("enemy", re.compile(r"eliminates\s+(.+?)\s*,\s*(\d{1,2})\s+glory(\s*,\s*last of unit)?$", re.I)),
    ("scenario", re.compile(rf"scenario glory\s+{SIGNED}(?:\s*,\s*(.+))?$", re.I)),
    ("objective", re.compile(r"objective\s+(.+?)\s*,\s*(instant|end)\s*,\s*(\d{1,2})(?:\s*/\s*(\d{1,2}))?$", re.I)),
    ("completes", re.compile(r"completes\s+(.+?)$", re.I)),
    ("eliminated", re.compile(r"eliminated$", re.I)),
    ("corrupted", re.compile(r"corrupted$", re.I)),
]
TURN = re.compile(r"turn end(?:\s*,\s*group honor\s+(-?\d{1,3}))?$", re.I)
FORMS_HINT = (
    "a report reads 'NAME: honor +1', 'NAME: eliminates ENEMY, 3 glory[, last of unit]', 'NAME: scenario glory +2', "
    "'NAME: objective NAME, instant|end, 2[/1]', 'NAME: completes OBJECTIVE', 'NAME: purity -1', "
    "'NAME: eliminated', 'NAME: corrupted' or 'turn end[, group honor N]'"
)


def lines(text: str) -> list[tuple[int, str]]:
    """The numbered lines that say something: comments and blank lines dropped."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((n, line))
    return out


def parse_setup(text: str) -> Setup:
    """A setup sheet; every bad line is named in one error, one line each."""
    fields: dict[str, str] = {}
    cards: list[ChampionCard] = []
    options: dict[str, object] = {}
    problems: list[str] = []
    rules: list[str] = []
    for n, line in lines(text):
        key, sep, rest = line.partition(":")
        key, rest = key.strip().lower(), rest.strip()
        if not sep:
            problems.append(f"line {n}: {line!r}: expected 'key: value'")
        elif key in ("champion", "companion"):
            m = CARD.match(rest)
            if not m:
                problems.append(f"line {n}: {line!r}: a Champion reads 'NAME, honor H, destiny D[, player P]' (p.13)")
                continue
            cards.append(
                ChampionCard(
                    name=m["name"].strip(),
                    honor=int(m["honor"]),
                    destiny=int(m["destiny"]),
                    companion=key == "companion",
                    player=(m["player"] or "").strip() or ("" if key == "companion" else m["name"].strip()),
                )
            )
        elif key == "option":
            name, eq, value = rest.partition("=")
            if not eq:
                problems.append(f"line {n}: {line!r}: an option reads 'option: NAME = VALUE'")
            options[name.strip()] = value.strip()
        elif key in ("scenario", "difficulty", "turns", "solo"):
            if key in fields:
                problems.append(f"line {n}: {line!r}: {key} given twice")
            fields[key] = rest
        else:
            problems.append(f"line {n}: {line!r}: unknown key {key!r} (scenario, difficulty, turns, solo, option, "
                            "champion, companion)")  # fmt: skip
    for key in ("scenario", "difficulty", "turns"):
        if key not in fields:
            problems.append(f"setup: no '{key}:' line")
    numbers: dict[str, int] = {}
    for key in ("difficulty", "turns"):
        if key in fields:
            try:
                numbers[key] = int(fields[key])
            except ValueError:
                problems.append(f"setup: {key} {fields[key]!r} is not a whole number")
    solo = fields.get("solo", "no").lower()
    if solo not in ("yes", "no"):
        problems.append(f"setup: solo {fields['solo']!r}: yes or no")
    try:
        opts = Options.from_dict(options)
    except ChampionsError as exc:
        problems.append(f"setup: {exc}")
        rules.append(exc.rule)
        opts = Options()
    if problems:
        refused = ChampionsError("\n".join(problems))
        refused.rule = ", ".join(rules)
        raise refused
    return Setup(
        scenario=fields["scenario"],
        difficulty=numbers["difficulty"],
        max_turns=numbers["turns"],
        cards=tuple(cards),
        solo=solo == "yes",
        options=opts,
    )


def format_setup(setup: Setup) -> str:
    out = [
        f"scenario: {setup.scenario}",
        f"difficulty: {setup.difficulty}",
        f"turns: {setup.max_turns}",
        f"solo: {'yes' if setup.solo else 'no'}",
    ]
    out += [f"option: {k} = {v}" for k, v in setup.options.to_dict().items()]
    for c in setup.cards:
        who = "" if c.companion else f", player {c.player}"
        out.append(f"{'companion' if c.companion else 'champion'}: {c.name}, honor {c.honor}, destiny {c.destiny}{who}")
    return "\n".join(out) + "\n"


def champion_name(text: str, names: tuple[str, ...]) -> str:
    """A Champion named in full or by an unambiguous start, in any case."""
    want = text.strip().casefold()
    exact = [n for n in names if n.casefold() == want]
    if exact:
        return exact[0]
    found = [n for n in names if n.casefold().startswith(want)] if want else []
    if len(found) == 1:
        return found[0]
    if found:
        raise ChampionsError(f"{text.strip()!r} could be {' or '.join(found)}")
    raise ChampionsError(f"{text.strip()!r} is no Champion of this scenario ({', '.join(names)})", "p.10")


def parse_line(line: str, names: tuple[str, ...]) -> Event:
    """One report of the table, as an event (raises ChampionsError naming the line)."""
    text = " ".join(line.split())
    try:
        return _parse(text, names)
    except ChampionsError as exc:
        raise ChampionsError(f"{text!r}: {exc.message}") from None


def _parse(text: str, names: tuple[str, ...]) -> Event:
    m = TURN.match(text)
    if m:
        return TurnEnded(int(m[1]) if m[1] is not None else None)
    who, sep, rest = text.partition(":")
    if not sep:
        raise ChampionsError(f"not a report: {FORMS_HINT}")
    name = champion_name(who, names)
    rest = rest.strip()
    for kind, form in FORMS:
        m = form.match(rest)
        if not m:
            continue
        if kind == "honor":
            return HonorChanged(name, int(m[1]))
        if kind == "purity":
            return PurityChanged(name, int(m[1]))
        if kind == "enemy":
            return EnemyEliminated(name, m[1], int(m[2]), bool(m[3]))
        if kind == "scenario":
            return ScenarioGlory(name, int(m[1]), (m[2] or "").strip())
        if kind == "objective":
            glory = int(m[3])
            lower = int(m[4]) if m[4] is not None else glory
            return ObjectiveTaken(name, Objective(m[1], Timing(m[2].lower()), glory, lower))
        if kind == "completes":
            return ObjectiveCompleted(name, m[1])
        if kind == "eliminated":
            return ChampionEliminated(name)
        return ChampionCorrupted(name)
    raise ChampionsError(f"not a report: {FORMS_HINT}")


def format_event(event: Event) -> str:
    """The canonical line of an event (what the log stores): ``parse_line(format_event(e)) == e``."""
    if isinstance(event, TurnEnded):
        return "turn end" + (f", group honor {event.board}" if event.board is not None else "")
    who = event.champion
    if isinstance(event, HonorChanged):
        return f"{who}: honor {event.amount:+d}"
    if isinstance(event, PurityChanged):
        return f"{who}: purity {event.amount:+d}"
    if isinstance(event, EnemyEliminated):
        return f"{who}: eliminates {event.enemy}, {event.glory} glory" + (
            ", last of unit" if event.last_of_unit else ""
        )
    if isinstance(event, ScenarioGlory):
        return f"{who}: scenario glory {event.amount:+d}" + (f", {event.action}" if event.action else "")
    if isinstance(event, ObjectiveTaken):
        o = event.objective
        worth = f"{o.glory}" + (f"/{o.lower}" if o.lower != o.glory else "")
        return f"{who}: objective {o.name}, {o.timing.value}, {worth}"
    if isinstance(event, ObjectiveCompleted):
        return f"{who}: completes {event.objective}"
    if isinstance(event, ChampionEliminated):
        return f"{who}: eliminated"
    return f"{who}: corrupted"
