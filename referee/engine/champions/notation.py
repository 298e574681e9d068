"""The line notation of Champions of Rokugan: the setup sheet and the table's reports, one a line, read into
values (``events.py``) and printed canonically (``format_event(parse_line(x))`` is what the record keeps).

Setup sheet (``#`` starts a comment; p.8-11)::

    scenario: The Fallen Lion
    difficulty: 1                      # the scenario insert's adjustment for the chosen level (p.8)
    turns: 8                           # the maximum number of turns (p.8)
    type: battle                       # optional: adventure, investigation or battle (p.8)
    solo: no                           # optional; yes: one Champion and four Companions (p.17)
    favor: Matsu Tsuko                 # optional: who won the Fire roll on a tie for the highest Honor (p.11)
    more cooperation: yes              # optional: the variant without Clan Objectives (p.32)
    same clan: allowed                 # optional: the scenario lets two players take one Clan (p.10)
    option: threshold_glory = final    # optional rules options (CR-04, CH-xx)
    champion: Matsu Tsuko, honor 5, destiny 1, player Ann, clan Lion
    companion: Minor Clan Bushi, honor 2, destiny 0
    objective: Matsu Tsuko: Unbroken Line, hidden, end, 3/1     # the cards kept (p.10-11): 1 to 3 each

The reports (a Champion's name, or any unambiguous start of it, in any case), one line each:

- the turn (p.29-31): ``activation: A, B, C, D, E`` (the Activation Track), ``enemies`` (the Enemies Phase),
  ``turn end[, group honor N]`` (the Recovery Phase), ``favor: NAME`` (a tie for the first Imperial Favor);
- a Champion's action (p.22-26), which the lines after it in the same report belong to:
  ``NAME: melee ENEMY[, outnumbered|superiority][, clan power][, deception][, wound][, insignificant]``,
  ``NAME: ranged ENEMY[, ...]``, ``NAME: investigation [PERSONA][, deception]``,
  ``NAME: complex manipulation [WHAT]``, ``NAME: simple manipulation [WHAT]``, ``NAME: healing``,
  ``NAME: concentration``, ``NAME: movement``, ``NAME: disengagement`` (-2 Honor),
  ``NAME: draw objectives, keeps OBJECTIVE, revealed|hidden, instant|end, 2[/1]``;
- an Enemy's (p.30): ``ENEMY attacks NAME[, ranged][, outnumbered|superiority][, wound]...``,
  ``NAME: intervenes`` (p.24), ``ENEMY eliminated[, unit of N]`` (by nothing a Champion did);
- an Ally's (p.30): ``ally ALLY: melee ENEMY``, ``ally ALLY: eliminates ENEMY[, unit of N]`` (no Glory);
- what they cause: ``NAME: honor +1, CAUSE`` (or the cause alone: ``NAME: wound``),
  ``NAME: eliminates ENEMY, 3 glory[, unit of N]``, ``NAME: scenario glory +2[, WHAT]``,
  ``NAME: completes OBJECTIVE[ for 1]``, ``NAME: purity -2`` / ``+1``, ``NAME: eliminated``,
  ``NAME: corrupted``.
"""

from __future__ import annotations

import re

from .events import (
    MODIFIERS,
    ActionTaken,
    AllyActs,
    AllyEliminates,
    ChampionCorrupted,
    ChampionEliminated,
    EnemiesPhase,
    EnemyAttacks,
    EnemyEliminated,
    EnemyFalls,
    Event,
    FavorTaken,
    HonorChanged,
    Intervened,
    ObjectiveCompleted,
    ObjectivesDrawn,
    ObjectiveTaken,
    PurityChanged,
    ScenarioGlory,
    TrackPlaced,
    TurnEnded,
)
from .honor import CAUSES, cause_of
from .model import ChampionCard, ChampionsError, Kind, Objective, Options, Scenario, Setup, Timing

SIGNED = r"([+-]\d{1,3})"
OBJECTIVE = re.compile(
    r"(?P<name>[^,]+?)\s*,\s*(?:(?P<face>revealed|hidden)\s*,\s*)?(?P<timing>instant|end)\s*,\s*(?P<a>\d{1,2})"
    r"(?:\s*/\s*(?P<b>\d{1,2}))?(?P<inv>\s*,\s*investigation only)?\s*$",
    re.I,
)
VERBS = {  # what a moderator may type for each action of p.22 (the first word of each is the canonical one)
    "complex manipulation": "complex manipulation",
    "simple manipulation": "simple manipulation",
    "melee combat": "melee",
    "ranged combat": "ranged",
    "melee": "melee",
    "ranged": "ranged",
    "investigation": "investigation",
    "investigates": "investigation",
    "healing": "healing",
    "heals": "healing",
    "concentration": "concentration",
    "movement": "movement",
    "moves": "movement",
    "disengagement": "disengagement",
    "disengages": "disengagement",
}
MOD_WORDS = {
    "outnumbered": "outnumbered",
    "superiority": "superiority",
    "numerical superiority": "superiority",
    "clan power": "clan power",
    "deception": "deception",
    "wound": "wound",
    "wounds": "wound",
    "insignificant": "insignificant",
}
ACTION = re.compile(
    r"(?P<verb>" + "|".join(sorted(VERBS, key=len, reverse=True)) + r")(?:\s+(?P<target>[^,]+?))?"
    r"(?P<mods>(?:\s*,\s*[^,]*)*)$",
    re.I,
)
FORMS: list[tuple[str, re.Pattern[str]]] = [
    ("honor", re.compile(r"honor\s+(?P<amount>[+-]?\d{1,3})(?:\s*,\s*(?P<cause>.+?))?\s*$", re.I)),
    ("purity", re.compile(rf"purity\s+{SIGNED}$", re.I)),
    (
        "enemy",
        re.compile(
            r"eliminates\s+(?P<enemy>.+?)\s*,\s*(?P<glory>\d{1,2})\s+glory"
            r"(?:\s*,\s*(?:(?P<last>last\s+of\s+unit)(?:\s+of\s+(?P<lsize>\d{1,2}))?|unit\s+of\s+(?P<size>\d{1,2})))?\s*$",
            re.I,
        ),
    ),
    ("scenario", re.compile(rf"scenario glory\s+{SIGNED}(?:\s*,\s*(.+))?$", re.I)),
    ("objective", re.compile(r"objective\s+(?P<spec>.+)$", re.I)),
    ("draw", re.compile(r"draws?\s+objectives\s*,\s*keeps?\s+(?P<kept>.+)$", re.I)),
    ("completes", re.compile(r"completes\s+(?P<name>.+?)(?:\s+for\s+(?P<value>\d{1,2}))?\s*$", re.I)),
    ("eliminated", re.compile(r"eliminated$", re.I)),
    ("corrupted", re.compile(r"corrupted$", re.I)),
    ("intervenes", re.compile(r"intervenes?$", re.I)),
]
TURN = re.compile(r"turn end(?:\s*,\s*group honor\s+(-?\d{1,3}))?$", re.I)
ENEMIES = re.compile(r"enem(?:y|ies)(?: phase)?$", re.I)
ATTACK = re.compile(r"(?P<enemy>.+?)\s+attacks\s+(?P<who>[^,]+?)(?P<mods>(?:\s*,\s*[^,]*)*)$", re.I)
FALLS = re.compile(r"(?P<enemy>.+?)\s+eliminated(?:\s*,\s*unit of\s+(?P<size>\d{1,2}))?$", re.I)
ALLY_KILL = re.compile(r"eliminates\s+(?P<enemy>[^,]+?)(?:\s*,\s*unit of\s+(?P<size>\d{1,2}))?$", re.I)
SHORT_HINT = (
    "not a report: e.g. 'Matsu Tsuko: melee Armored Oni, wound', 'Matsu Tsuko: honor +1, clan power', "
    "'Matsu Tsuko: eliminates Samurai, 1 glory, unit of 3', 'Goblin attacks Matsu Tsuko', 'turn end' "
    "(`referee champions forms` lists them all)"
)
FORMS_TABLE: list[tuple[str, str, str]] = [  # (line, what it records, the rule): `referee champions forms`
    ("activation: A, B, C, D, E", "the Preparation Phase's Activation Track", "p.29"),
    ("favor: NAME", "the first Imperial Favor, on a tie for the highest Honor", "p.11"),
    ("NAME: melee ENEMY[, outnumbered|superiority][, clan power][, deception][, wound]", "a Melee Combat", "p.24"),
    ("NAME: ranged ENEMY[, clan power][, deception][, wound]", "a Ranged Combat", "p.26"),
    ("NAME: investigation [PERSONA][, deception]", "an Investigation (not when Dishonored)", "p.20, p.23"),
    ("NAME: complex manipulation [WHAT] / simple manipulation [WHAT]", "a Manipulation", "p.22-23"),
    ("NAME: healing / concentration / movement", "the other actions (Concentration once an Activation)", "p.23"),
    ("NAME: disengagement", "leaving an area with an Enemy: -2 Honor", "p.14, p.23"),
    ("NAME: draw objectives, keeps OBJECTIVE, revealed|hidden, instant|end, 2[/1]", "Draw Objectives", "p.23"),
    ("ENEMY attacks NAME[, ranged][, outnumbered|superiority][, wound]", "an Enemy's Combat", "p.30"),
    ("NAME: intervenes", "taking the place of the Champion attacked", "p.24"),
    ("NAME: honor +1, CAUSE  (or NAME: CAUSE)", f"Honor and why: {', '.join(CAUSES)}", "p.14"),
    ("NAME: eliminates ENEMY, 3 glory[, unit of N]", "an Enemy's card Glory; +1 for a Unit's last of several", "p.27"),
    ("ally ALLY: eliminates ENEMY[, unit of N]  /  ally ALLY: melee ENEMY", "an Ally's kill or action", "p.30"),
    ("ENEMY eliminated[, unit of N]", "an Enemy eliminated by nothing a Champion did", "CH-11"),
    ("NAME: scenario glory +2[, WHAT]", "Glory the scenario awards", "p.14"),
    ("NAME: completes OBJECTIVE[ for 1]", "a Clan Objective completed (for its lower value)", "p.15"),
    ("NAME: purity -2 / purity +1", "Purity lost, or raised with Ki in the Champion's Activation", "p.16"),
    ("NAME: eliminated / NAME: corrupted", "a Champion out of the game", "p.15-16"),
    ("enemies", "the Enemies Phase begins", "p.30"),
    ("turn end[, group honor N]", "the Recovery Phase", "p.31"),
]


def lines(text: str) -> list[tuple[int, str]]:
    """The numbered lines that say something: comments and blank lines dropped."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((n, line))
    return out


# --- the setup sheet --------------------------------------------------------------------------------------
SETUP_KEYS = ("scenario", "difficulty", "turns", "type", "solo", "favor", "more cooperation", "same clan")


def parse_setup(text: str) -> Setup:
    """A setup sheet; every bad line is named in one error, one line each."""
    fields: dict[str, str] = {}
    cards: list[ChampionCard] = []
    kept: list[tuple[int, str, Objective]] = []
    options: dict[str, object] = {}
    problems: list[str] = []
    rules: list[str] = []
    for n, line in lines(text):
        key, sep, rest = line.partition(":")
        key, rest = " ".join(key.lower().split()), rest.strip()
        try:
            if not sep:
                raise ChampionsError("expected 'key: value'")
            if key in ("champion", "companion"):
                cards.append(_card(rest, key == "companion"))
            elif key == "objective":
                who, sep2, spec = rest.partition(":")
                if not sep2:
                    raise ChampionsError("an objective reads 'objective: CHAMPION: NAME, hidden, end, 3/1'", "p.10")
                kept.append((n, who.strip(), objective(spec)))
            elif key == "option":
                name, eq, value = rest.partition("=")
                if not eq:
                    raise ChampionsError("an option reads 'option: NAME = VALUE'")
                options[name.strip()] = value.strip()
            elif key in SETUP_KEYS:
                if key in fields:
                    raise ChampionsError(f"{key} given twice")
                fields[key] = rest
            else:
                raise ChampionsError(
                    f"unknown key {key!r} ({', '.join(SETUP_KEYS)}, option, champion, companion, objective)"
                )
        except ChampionsError as exc:
            problems.append(f"line {n}: {line!r}: {exc.message}")
            rules.append(exc.rule)
    names = tuple(c.name for c in cards)
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
    flags = {"solo": ("yes", "no"), "more cooperation": ("yes", "no"), "same clan": ("allowed", "no")}
    for key, (yes, no) in flags.items():
        if fields.get(key, no).lower() not in (yes, no):
            problems.append(f"setup: {key} {fields[key]!r}: {yes} or {no}")
    kind = fields.get("type", "").lower()
    if kind and kind not in set(Kind):
        problems.append(f"setup: type {fields['type']!r}: adventure, investigation or battle (p.8)")
    objectives: list[tuple[str, Objective]] = []
    for n, who, o in kept:
        try:
            objectives.append((champion_name(who, names), o))
        except ChampionsError as exc:
            problems.append(f"line {n}: objective {o.name!r}: {exc.message}")
    favor = ""
    if fields.get("favor"):
        try:
            favor = champion_name(fields["favor"], names)
        except ChampionsError as exc:
            problems.append(f"setup: favor: {exc.message}")
    try:
        opts = Options.from_dict(options)
    except ChampionsError as exc:
        problems.append(f"setup: {exc}")
        rules.append(exc.rule)
        opts = Options()
    if problems:
        refused = ChampionsError("\n".join(problems))
        refused.rule = ", ".join(r for r in rules if r)
        raise refused
    return Setup(
        scenario=fields["scenario"],
        difficulty=numbers["difficulty"],
        max_turns=numbers["turns"],
        cards=tuple(cards),
        solo=fields.get("solo", "no").lower() == "yes",
        options=opts,
        kind=kind,
        objectives=tuple(objectives),
        favor=favor,
        cooperation=fields.get("more cooperation", "no").lower() == "yes",
        same_clan=fields.get("same clan", "no").lower() == "allowed",
    )


def _card(text: str, companion: bool) -> ChampionCard:
    """'NAME, honor H, destiny D[, player P][, clan C]' (p.13)."""
    form = "a Champion reads 'NAME, honor H, destiny D[, player P][, clan C]' (p.13)"
    name, *parts = [p.strip() for p in text.split(",")]
    got: dict[str, str] = {}
    for part in parts:
        key, _, value = part.partition(" ")
        key = key.lower()
        if key not in ("honor", "destiny", "player", "clan") or key in got or not value.strip():
            raise ChampionsError(form)
        got[key] = value.strip()
    if not name or "honor" not in got or "destiny" not in got:
        raise ChampionsError(form)
    if not re.fullmatch(r"-?\d{1,2}", got["honor"]) or not re.fullmatch(r"\d{1,2}", got["destiny"]):
        raise ChampionsError(form)
    if companion and "player" in got:
        raise ChampionsError(f"{name}: a Companion is nobody's own Champion", "p.17")
    return ChampionCard(
        name=name,
        honor=int(got["honor"]),
        destiny=int(got["destiny"]),
        companion=companion,
        player="" if companion else got.get("player", name),
        clan=got.get("clan", ""),
    )


def objective(spec: str) -> Objective:
    """'NAME, revealed|hidden, instant|end, G[/L][, investigation only]' (p.15): a card's two values in either
    order (the lower is the one deducted, p.32)."""
    m = OBJECTIVE.match(" ".join(spec.split()))
    if not m:
        raise ChampionsError("an objective reads 'NAME, revealed|hidden, instant|end, 2' (two values: '3/1')", "p.15")
    a = int(m["a"])
    b = int(m["b"]) if m["b"] is not None else a
    return Objective(
        name=m["name"].strip(),
        timing=Timing(m["timing"].lower()),
        glory=max(a, b),
        lower=min(a, b),
        hidden=(m["face"] or "").lower() == "hidden",
        investigation=bool(m["inv"]),
    )


def format_objective(o: Objective) -> str:
    worth = f"{o.glory}" + (f"/{o.lower}" if o.two_valued else "")
    face = "hidden" if o.hidden else "revealed"
    return f"{o.name}, {face}, {o.timing.value}, {worth}" + (", investigation only" if o.investigation else "")


def format_setup(setup: Setup) -> str:
    out = [
        f"scenario: {setup.scenario}",
        f"difficulty: {setup.difficulty}",
        f"turns: {setup.max_turns}",
        f"solo: {'yes' if setup.solo else 'no'}",
    ]
    out += [f"type: {setup.kind}"] if setup.kind else []
    out += [f"favor: {setup.favor}"] if setup.favor else []
    out += ["more cooperation: yes"] if setup.cooperation else []
    out += ["same clan: allowed"] if setup.same_clan else []
    out += [f"option: {k} = {v}" for k, v in setup.options.chosen().items()]
    for c in setup.cards:
        who = "" if c.companion else f", player {c.player}"
        clan = f", clan {c.clan}" if c.clan else ""
        kind = "companion" if c.companion else "champion"
        out.append(f"{kind}: {c.name}, honor {c.honor}, destiny {c.destiny}{who}{clan}")
    out += [f"objective: {who}: {format_objective(o)}" for who, o in setup.objectives]
    return "\n".join(out) + "\n"


# --- the reports ------------------------------------------------------------------------------------------
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
        raise ChampionsError(f"{text!r}: {exc.text}", exc.rule) from None


def _parse(text: str, names: tuple[str, ...]) -> Event:
    m = TURN.match(text)
    if m:
        return TurnEnded(int(m[1]) if m[1] is not None else None)
    if ENEMIES.match(text):
        return EnemiesPhase()
    who, sep, rest = text.partition(":")
    key = who.strip().lower()
    if sep and key == "favor":
        return FavorTaken(champion_name(rest, names))
    if sep and key == "activation":
        return TrackPlaced(tuple(champion_name(x, names) for x in rest.split(",") if x.strip()))
    if not sep:
        return _enemy_line(text, names)
    if key.startswith("ally ") and not any(n.casefold() == key for n in names):
        return _ally_line(who.strip()[5:].strip(), rest.strip())
    return _champion_line(champion_name(who, names), rest.strip())


def _enemy_line(text: str, names: tuple[str, ...]) -> Event:
    m = ATTACK.match(text) or FALLS.match(text)
    if m is None:
        raise ChampionsError(SHORT_HINT)
    enemy = m["enemy"].strip()
    if any(enemy.casefold() == n.casefold() for n in names):
        raise ChampionsError(f"{enemy} is a Champion: its report reads '{enemy}: ...' (a colon after the name)")
    if m.re is FALLS:
        return EnemyFalls(enemy, int(m["size"] or 0))
    mods = _mods(m["mods"], extra=("melee", "ranged"))
    ranged = "ranged" in mods
    return EnemyAttacks(
        enemy, champion_name(m["who"], names), ranged, tuple(x for x in mods if x not in ("melee", "ranged"))
    )


def _ally_line(ally: str, rest: str) -> Event:
    if rest.lower().startswith(("draw objectives", "draws objectives")):
        raise ChampionsError("an Ally cannot take the Draw Objectives action", "p.29-30")
    m = ALLY_KILL.match(rest)
    if m:
        return AllyEliminates(ally, m["enemy"].strip(), int(m["size"] or 0))
    a = ACTION.match(rest)
    if a and not _mods(a["mods"]):
        return AllyActs(ally, VERBS[a["verb"].lower()], (a["target"] or "").strip())
    if rest.lower().startswith(("eliminates", "honor", "scenario glory")) or (a and _mods(a["mods"])):
        raise ChampionsError("an Ally has no Honor and earns no Glory", "p.15, p.30, CH-10")
    raise ChampionsError(f"an Ally's report reads 'ally {ally}: melee ENEMY' or 'ally {ally}: eliminates ENEMY'")


def _mods(text: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The modifiers after an action (or an attack, with ``extra``), in the one order the record prints."""
    out = []
    for part in (p.strip().lower() for p in text.split(",")):
        if not part:
            continue
        word = MOD_WORDS.get(part, part if part in extra else "")
        if not word:
            raise ChampionsError(f"{part!r}: an action says {', '.join(MODIFIERS)} ('wound': you wounded the Enemy)")
        out.append(word)
    order = (*extra, "insignificant", "outnumbered", "superiority", "clan power", "deception", "wound")
    return tuple(sorted(out, key=order.index))


def _champion_line(name: str, rest: str) -> Event:
    cause = cause_of(rest)
    if cause and CAUSES[cause].amount and cause != "disengagement":
        return HonorChanged(name, CAUSES[cause].amount, cause)
    if cause == "clan power":
        return HonorChanged(name, 1, cause)
    for kind, form in FORMS:
        m = form.match(rest)
        if m:
            return _consequence(name, kind, m)
    a = ACTION.match(rest)
    if a:
        verb = VERBS[a["verb"].lower()]
        target = (a["target"] or "").strip()
        if verb in ("melee", "ranged") and not target:
            raise ChampionsError(f"say whom: '{name}: {verb} ENEMY'", "p.24")
        return ActionTaken(name, verb, target, _mods(a["mods"]))
    first = rest.split(" ", 1)[0].lower()
    if first in ("honor", "honour"):
        raise ChampionsError("Honor changes by a signed number, and says why: 'honor +1, wound'", "p.14")
    raise ChampionsError(SHORT_HINT)


def _consequence(name: str, kind: str, m: re.Match[str]) -> Event:
    if kind == "honor":
        return _honor(name, m["amount"], m["cause"])
    if kind == "purity":
        return PurityChanged(name, int(m[1]))
    if kind == "enemy":
        size = int(m["size"] or m["lsize"] or 0)
        return EnemyEliminated(name, m["enemy"].strip(), int(m["glory"]), bool(m["last"]), size)
    if kind == "scenario":
        return ScenarioGlory(name, int(m[1]), (m[2] or "").strip())
    if kind == "objective":
        return ObjectiveTaken(name, objective(m["spec"]))
    if kind == "draw":
        kept = m["kept"].strip()
        return ObjectivesDrawn(name, None if kept.lower() in ("none", "neither") else objective(kept))
    if kind == "completes":
        return ObjectiveCompleted(name, m["name"].strip(), int(m["value"]) if m["value"] else None)
    if kind == "eliminated":
        return ChampionEliminated(name)
    if kind == "intervenes":
        return Intervened(name)
    return ChampionCorrupted(name)


def _honor(name: str, amount: str, cause_text: str | None) -> HonorChanged:
    """'honor +1, wound': a signed change and its cause; the sign may be left out when the cause fixes it
    (CH-01). A change without a cause is an older record's (``entry.check_reported`` refuses it now)."""
    signed = amount[0] in "+-"
    value = int(amount)
    if cause_text is None:
        if not signed:
            raise ChampionsError(
                f"'honor {amount}': a change is signed and says why: 'honor +{amount}, wound' or 'honor -{amount}, "
                "scenario'",
                "p.14, CH-01",
            )
        return HonorChanged(name, value)
    cause = cause_of(cause_text)
    if not cause:
        raise ChampionsError(f"{cause_text.strip()!r} is no cause of Honor: {', '.join(CAUSES)}", "p.14")
    if cause == "disengagement":
        raise ChampionsError(f"Disengagement is an action: '{name}: disengagement' (it costs the 2 Honor)", "p.23")
    fixed = CAUSES[cause].amount or (1 if cause == "clan power" else 0)
    if not signed:
        if not fixed:
            raise ChampionsError(f"Honor from {CAUSES[cause].label} is signed: '+{value}' or '-{value}'", "p.14")
        value = value if fixed > 0 else -value
    return HonorChanged(name, value, cause)


def format_event(event: Event) -> str:
    """The canonical line of an event (what the log stores): ``parse_line(format_event(e)) == e``."""
    if isinstance(event, TurnEnded):
        return "turn end" + (f", group honor {event.board}" if event.board is not None else "")
    if isinstance(event, EnemiesPhase):
        return "enemies"
    if isinstance(event, FavorTaken):
        return f"favor: {event.champion}"
    if isinstance(event, TrackPlaced):
        return f"activation: {', '.join(event.champions)}"
    if isinstance(event, EnemyAttacks):
        mods = (("ranged",) if event.ranged else ()) + event.modifiers
        return f"{event.enemy} attacks {event.champion}" + "".join(f", {m}" for m in mods)
    if isinstance(event, EnemyFalls):
        return f"{event.enemy} eliminated" + (f", unit of {event.unit}" if event.unit else "")
    if isinstance(event, AllyEliminates):
        return f"ally {event.ally}: eliminates {event.enemy}" + (f", unit of {event.unit}" if event.unit else "")
    if isinstance(event, AllyActs):
        return f"ally {event.ally}: {event.kind}" + (f" {event.target}" if event.target else "")
    return f"{event.champion}: {_champion_text(event)}"


def _champion_text(event: Event) -> str:
    if isinstance(event, ActionTaken):
        return (
            f"{event.kind}" + (f" {event.target}" if event.target else "") + "".join(f", {m}" for m in event.modifiers)
        )
    if isinstance(event, HonorChanged):
        return f"honor {event.amount:+d}" + (f", {event.cause}" if event.cause else "")
    if isinstance(event, PurityChanged):
        return f"purity {event.amount:+d}"
    if isinstance(event, EnemyEliminated):
        return _eliminated_text(event)
    if isinstance(event, ScenarioGlory):
        return f"scenario glory {event.amount:+d}" + (f", {event.action}" if event.action else "")
    if isinstance(event, ObjectiveTaken):
        return f"objective {format_objective(event.objective)}"
    if isinstance(event, ObjectivesDrawn):
        return "draw objectives, keeps " + (format_objective(event.kept) if event.kept else "none")
    if isinstance(event, ObjectiveCompleted):
        return f"completes {event.objective}" + (f" for {event.value}" if event.value is not None else "")
    if isinstance(event, ChampionEliminated):
        return "eliminated"
    if isinstance(event, Intervened):
        return "intervenes"
    if isinstance(event, ChampionCorrupted):
        return "corrupted"
    raise TypeError(f"not a Champions of Rokugan event: {event!r}")


def _eliminated_text(event: EnemyEliminated) -> str:
    unit = ""
    if event.unit:
        unit = f", {'last of ' if event.last_of_unit else ''}unit of {event.unit}"
    elif event.last_of_unit:
        unit = ", last of unit"
    return f"eliminates {event.enemy}, {event.glory} glory{unit}"


def public_line(line: str, scenario: Scenario) -> str:
    """A recorded line as the other players may read it (p.15, CH-07): a Hidden card's name and values left
    out until it is face up (an Instant card completed) or the game has ended. ``scenario``: as it stands."""
    names = tuple(c.name for c in scenario.champions)
    key, sep, rest = line.partition(":")
    try:
        if key.strip().lower() == "objective" and sep:
            who, _, spec = rest.partition(":")
            name, o = champion_name(who, names), objective(spec)
            return f"objective: {name}: a hidden Clan Objective" if _face_down(scenario, name, o.name) else line
        event = parse_line(line, names)
    except ChampionsError:
        return line
    if isinstance(event, ObjectiveTaken) and _face_down(scenario, event.champion, event.objective.name):
        return f"{event.champion}: objective (a hidden Clan Objective)"
    if isinstance(event, ObjectivesDrawn) and event.kept and _face_down(scenario, event.champion, event.kept.name):
        return f"{event.champion}: draw objectives, keeps a hidden Clan Objective"
    if isinstance(event, ObjectiveCompleted) and _face_down(scenario, event.champion, event.objective):
        return f"{event.champion}: fulfils a hidden Clan Objective"
    return line


def _face_down(scenario: Scenario, champion: str, name: str) -> bool:
    if scenario.ended:
        return False
    held = next((o for o in scenario.champion(champion).objectives if o.name.casefold() == name.casefold()), None)
    return held is not None and not held.face_up
