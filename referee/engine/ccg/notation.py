"""The match notation: one line per event, parsed once here and printed canonically (the manual:
docs/notation/match.md); the turn's actions are notation_turn.py's lines.

    alice: honor 6, strength 6, gold 5, stronghold Kyuden Hida, clan crab   (a player, at ``new``)
    phase action                                   the active player's next phase (p.41), optional
    battle 2: Hida Kisada (4F) + Ashigaru (2F); Hida Yakamo (3F, bowed) vs Doji Hoturi (3F, dishonorable 2PH)
    battle 3 strength 8: Hida Kisada (4F) + Cursed Katana (item, -3F) vs -   ("-": no units; strength if
                                                   not the base; an Item's signed Force modifier)
    duel: bob Bayushi Kachiko (3C) focus 1 vs alice Kakita Toshimoko (4C, duelist) focus 3, hand 2
    duel force: alice Hida Kisada (5F, 2C) vs bob Matsu Tsuko (4F) focus 2: loser -3C
    honor alice +2 (correction): the Honor of turn 4 was miscounted   (a judge's correction, CT-01)
    province bob 3 destroyed: Rain of Fire
    ring alice Ring of Air (air)      ring alice Ring of Stone (earth or void, by effect)
    ring alice Ring of Air left play
    pass                                           the turn passes to the other player

A battle is fought by the active player (the Attacker) at the other player's province; the units of
each side are separated by ";", the cards of a unit by "+", the Personality first. A duel names the
challenger first; each side's focused Focus Values in the order focused, ``hand`` before the one focused
from the hand; after a colon, the duel's consequences: ``loser destroyed``, ``loser dishonored``, ``loser
bowed``, ``loser -3C``, ``loser -2 honor``, ``winner +2 honor`` (a tie: both take the loser's).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .battle import REMEMBERED, Army, Card, Unit
from .court import Described
from .duel import Consequence, Duelist
from .match import (
    BattleFought,
    DuelFought,
    Event,
    HonorChanged,
    PhaseEntered,
    ProvinceLost,
    RingEntered,
    RingLeft,
    TurnPassed,
)
from .model import ELEMENTS, PROVINCES, NotUnderstood, Phase, Player
from .notation_turn import PARSERS, format_described, format_turn, parse_described, split_top

FORMS = (
    "pass | phase <name> | reveal <province> <kind> <title>[: <effects>] | lobby <player> <Personality> | "
    "favor <player> draw | favor <player> home <Personality> at <province> | equip <player> <card> (<kind>) on "
    "<Personality> | action <player> <card> (<designator>)[ by ...][ on ...]: <effects> | assign [cavalry] <player> "
    "<unit> to <province>; ... | battle <province> [strength N]: <units> vs <units> | duel [stat]: <player> "
    "<personality> (N) [focus N, ...] vs <player> <personality> (N) [focus ...][: <consequences>] | bring <player> "
    "<card> (<marks>)[ from N][ discount|claim|overlay] | discard <player> province N | end[ <player>][ hand N] | "
    "honor <player> +N (correction): <reason> | "
    "province <player> <N> destroyed: <cause> | ring <player> <title> (<element>[ or <element>][, by effect]) | "
    "ring <player> <title> left play"
)
STATS = {"chi": "C", "force": "F", "personal honor": "PH", "gold cost": "G"}

_BATTLE = re.compile(r"battle\s+(\d+)(?:\s+strength\s+(-?\d+))?\s*:\s*(.*?)\s+vs\s+(.*)", re.I)
_CARD = re.compile(r"(?P<title>[^()]+?)\s*(?:\((?P<attrs>[^()]*)\))?")
_DUEL = re.compile(
    r"duel(?:\s+(?P<stat>[a-z ]+?))?\s*:\s*(?P<a>.+?)\s+vs\s+(?P<b>[^:]+?)(?:\s*:\s*(?P<then>.*))?", re.I
)
_DUELIST = re.compile(
    r"(?P<player>\S+)\s+(?P<title>[^()]+?)\s*\((?P<stat>-?\d+)\s*(?P<abbr>[a-z]*)(?P<marks>(?:\s*,[^()]*)?)\)"
    r"(?:\s*focus\s+(?P<focus>[-\d,\sa-z]*))?",
    re.I,
)
_CONSEQUENCE = re.compile(r"(loser|winner)\s+(?:(destroyed|dishonored|bowed)|(-\d+)\s*c|([+-]\d+)\s*honor)", re.I)
_HONOR = re.compile(r"honor\s+(.+?)(\s*\(correction\))?\s*:\s*(.*)", re.I)
_CHANGE = re.compile(r"(\S+)\s+([+-]\d+)")
_PROVINCE = re.compile(r"province\s+(\S+)\s+(\d+)\s+destroyed\s*:\s*(.*)", re.I)
_RING_LEFT = re.compile(r"ring\s+(\S+)\s+(.+?)\s+left play", re.I)
_RING = re.compile(r"ring\s+(\S+)\s+(.+?)\s*\(([^()]*)\)", re.I)
Bad = Callable[[str], NotUnderstood]
_PLAYER = re.compile(r"(?P<name>[^:\s]+)\s*:\s*(?P<rest>.*)")


def parse_event(text: str, *, lineno: int | None = None) -> Event:
    line = " ".join(text.split())
    low = line.lower()
    first = re.match(r"[a-z]+", low)
    word = first[0] if first else ""

    def bad(problem: str) -> NotUnderstood:
        return NotUnderstood(line, problem, lineno=lineno, hint=f"the forms: {FORMS}")

    if low in ("pass", "turn passed"):
        return TurnPassed()
    parse = _EVENT_PARSERS.get(word) or PARSERS.get(word)
    if parse is None:
        raise bad("not an event of the match notation")
    return parse(line, bad)


def _phase(line: str, bad: Bad) -> Event:
    name = line.lower()[len("phase") :].strip()
    for p in Phase:
        if p.label == name:
            return PhaseEntered(p)
    raise bad(f"unknown phase {name!r} (one of {', '.join(p.label for p in Phase)})")


def _battle(line: str, bad: Bad) -> Event:
    m = _BATTLE.fullmatch(line)
    if not m:
        raise bad("expected 'battle <province> [strength N]: <units> vs <units>'")
    strength = int(m[2]) if m[2] is not None else None
    return BattleFought(int(m[1]), _army(m[3], bad), _army(m[4], bad), strength)


def _duel(line: str, bad: Bad) -> Event:
    m = _DUEL.fullmatch(line)
    if not m:
        raise bad("expected 'duel [stat]: <player> <personality> (N) [focus N, ...] vs <player> ...'")
    stat = (m["stat"] or "chi").lower()
    if stat not in STATS:
        raise bad(f"unknown duel stat {stat!r} (one of {', '.join(STATS)})")
    then = []
    for part in (p.strip() for p in re.split(r"[;,]", m["then"] or "") if p.strip()):
        c = _CONSEQUENCE.fullmatch(part)
        if not c:
            raise bad(
                f"consequence {part!r}: expected 'loser destroyed', 'loser dishonored', 'loser bowed', 'loser -3C', "
                "'loser -2 honor' or 'winner +2 honor'"
            )
        who = c[1].lower()
        if c[2]:
            then.append(Consequence(who, c[2].lower()))
        elif c[3]:
            then.append(Consequence(who, "chi", int(c[3])))
        else:
            then.append(Consequence(who, "honor", int(c[4])))
    return DuelFought(_duelist(m["a"], stat, bad), _duelist(m["b"], stat, bad), stat, tuple(then))


def _honor(line: str, bad: Bad) -> Event:
    m = _HONOR.fullmatch(line)
    if not m or not m[3].strip():
        raise bad("expected 'honor <player> +N[, <player> -N] (correction): <reason>' (the reason is required)")
    changes = []
    for part in m[1].split(","):
        c = _CHANGE.fullmatch(part.strip())
        if not c:
            raise bad(f"{part.strip()!r}: expected '<player> +N' or '<player> -N'")
        changes.append((c[1], int(c[2])))
    return HonorChanged(tuple(changes), m[3].strip(), bool(m[2]))


def _province(line: str, bad: Bad) -> Event:
    m = _PROVINCE.fullmatch(line)
    if not m or not m[3].strip():
        raise bad("expected 'province <player> <N> destroyed: <cause>'")
    return ProvinceLost(m[1], int(m[2]), m[3].strip())


def _ring(line: str, bad: Bad) -> Event:
    m = _RING_LEFT.fullmatch(line)
    if m:
        return RingLeft(m[1], m[2])
    m = _RING.fullmatch(line)
    if not m:
        raise bad("expected 'ring <player> <title> (<element>[ or <element>][, by effect])'")
    elements, own = _ring_elements(m[3], bad)
    return RingEntered(m[1], m[2], elements, own)


def _ring_elements(text: str, bad: Bad) -> tuple[tuple[str, ...], bool]:
    """A ring's parenthesis: its element keyword(s), and whether the ring is the player's own (not brought
    into play by an effect)."""
    parts = [p.strip().lower() for p in text.split(",")]
    own = True
    if len(parts) == 2 and parts[1] == "by effect":
        own = False
    elif len(parts) != 1:
        raise bad("expected '(<element>)', '(<element> or <element>)' or '(<element>, by effect)'")
    elements = tuple(e.strip() for e in parts[0].split(" or "))
    unknown = [e for e in elements if e not in ELEMENTS]
    if unknown or len(set(elements)) != len(elements):
        raise bad(f"element keyword(s) {', '.join(elements)}: each one of {', '.join(ELEMENTS)}, once")
    return elements, own


# the first word of a line -> its parser ("pass" has no more to read)
_EVENT_PARSERS: dict[str, Callable[[str, Bad], Event]] = {
    "phase": _phase,
    "battle": _battle,
    "duel": _duel,
    "honor": _honor,
    "honour": _honor,
    "province": _province,
    "ring": _ring,
}


def _army(text: str, bad: Bad) -> Army:
    text = text.strip()
    if text in ("-", ""):
        return Army(())
    units = []
    for unit_text in split_top(text, ";"):
        cards = tuple(_card(c.strip(), bad) for c in split_top(unit_text, "+"))
        units.append(Unit(cards))
    return Army(tuple(units))


def _card(text: str, bad: Bad) -> Card:
    m = _CARD.fullmatch(text)
    if not text or not m:
        raise bad(f"{text!r}: expected a card as '<title> (NF[, item][, bowed][, dishonorable NPH])'")
    force: int | None = None
    bowed = item = False
    dishonorable: int | None = None
    for attr in (a.strip().lower() for a in (m["attrs"] or "").split(",") if a.strip()):
        if f := re.fullmatch(r"([-+]?\d+)\s*f", attr):
            force = int(f[1])
        elif attr == "bowed":
            bowed = True
        elif attr == "item":
            item = True
        elif d := re.fullmatch(r"dishonorable(?:\s+(\d+)\s*(?:ph)?)?", attr):
            dishonorable = int(d[1]) if d[1] is not None else REMEMBERED
        else:
            raise bad(f"{text!r}: unknown mark {attr!r} (NF, item, bowed, dishonorable [NPH])")
    return Card(m["title"].strip(), force, bowed, dishonorable, item)


def _duelist(text: str, stat: str, bad: Bad) -> Duelist:
    m = _DUELIST.fullmatch(text.strip())
    if not m:
        raise bad(f"{text.strip()!r}: expected '<player> <personality> (N) [focus N, ...]'")
    abbr = m["abbr"].upper()
    if abbr and abbr != STATS[stat]:
        raise bad(f"{text.strip()!r}: a {stat} duel compares {STATS[stat]}, not {abbr}")
    duelist, dishonorable, chi = False, None, None
    for mark in (w.strip().lower() for w in m["marks"].split(",") if w.strip()):
        if mark == "duelist":
            duelist = True
        elif d := re.fullmatch(r"dishonorable(?:\s+(\d+)\s*(?:ph)?)?", mark):
            dishonorable = int(d[1]) if d[1] is not None else REMEMBERED
        elif (c := re.fullmatch(r"(-?\d+)\s*c", mark)) and stat != "chi":
            chi = int(c[1])
        else:
            raise bad(f"{text.strip()!r}: unknown mark {mark!r} (duelist, dishonorable [NPH], NC)")
    focus: list[int] = []
    hand = None
    for v in (v.strip().lower() for v in (m["focus"] or "").split(",") if v.strip()):
        f = re.fullmatch(r"(hand\s+)?(-?\d+)", v)
        if not f:
            raise bad(f"{text.strip()!r}: focus {v!r}: a Focus Value, 'hand N' for the card from the hand")
        if f[1]:
            if hand is not None:
                raise bad(f"{text.strip()!r}: one card per duel from the hand (glossary: duel, step 2)")
            hand = len(focus)
        focus.append(int(f[2]))
    return Duelist(m["player"], m["title"].strip(), int(m["stat"]), tuple(focus), hand, duelist, dishonorable, chi)


def format_event(event: Event) -> str:
    """The canonical line of an event: ``parse_event(format_event(e)) == e``."""
    match event:
        case TurnPassed():
            return "pass"
        case PhaseEntered(phase):
            return f"phase {phase.label}"
        case BattleFought(province, attacking, defending, strength):
            at = f" strength {strength}" if strength is not None else ""
            return f"battle {province}{at}: {format_army(attacking)} vs {format_army(defending)}"
        case DuelFought(a, b, stat, then):
            head = "duel:" if stat == "chi" else f"duel {stat}:"
            tail = f": {', '.join(_format_consequence(c) for c in then)}" if then else ""
            return f"{head} {_format_duelist(a, stat)} vs {_format_duelist(b, stat)}{tail}"
        case HonorChanged(changes, cause, correction):
            marked = " (correction)" if correction else ""
            return "honor " + ", ".join(f"{p} {d:+d}" for p, d in changes) + f"{marked}: {cause}"
        case ProvinceLost(player, province, cause):
            return f"province {player} {province} destroyed: {cause}"
        case RingEntered(player, title, elements, own):
            return f"ring {player} {title} ({' or '.join(elements)}{'' if own else ', by effect'})"
        case RingLeft(player, title):
            return f"ring {player} {title} left play"
    return format_turn(event)


def _format_consequence(c: Consequence) -> str:
    if c.what == "chi":
        return f"{c.who} {c.amount}C"
    if c.what == "honor":
        return f"{c.who} {c.amount:+d} honor"
    return f"{c.who} {c.what}"


def format_army(army: Army) -> str:
    if army.empty:
        return "-"
    return "; ".join(" + ".join(_format_card(c) for c in u.cards) for u in army.units)


def _format_card(card: Card) -> str:
    attrs = []
    if card.force is not None:
        attrs.append(f"{card.force:+d}F" if card.item else f"{card.force}F")
    if card.item:
        attrs.insert(0, "item")
    if card.bowed:
        attrs.append("bowed")
    if card.dishonorable == REMEMBERED:
        attrs.append("dishonorable")
    elif card.dishonorable is not None:
        attrs.append(f"dishonorable {card.dishonorable}PH")
    return f"{card.title} ({', '.join(attrs)})" if attrs else card.title


def _format_duelist(d: Duelist, stat: str) -> str:
    values = [f"hand {v}" if k == d.hand else str(v) for k, v in enumerate(d.focus)]
    focus = f" focus {', '.join(values)}" if d.focus else ""
    marks = [f"{d.stat}{STATS[stat]}"]
    if d.chi is not None:
        marks.append(f"{d.chi}C")
    if d.duelist:
        marks.append("duelist")
    if d.dishonorable == REMEMBERED:
        marks.append("dishonorable")
    elif d.dishonorable is not None:
        marks.append(f"dishonorable {d.dishonorable}PH")
    return f"{d.player} {d.title} ({', '.join(marks)}){focus}"


def parse_player(text: str) -> Player:
    """``<name>: honor N, strength N, gold N[, stronghold <title>][, clan <clan>][, provinces N N ...]``: the
    Stronghold's starting Family Honor, Province Strength and Gold Production as entered (The Cards:
    Stronghold); a match started mid-game gives the Family Honor and the provinces as they stand."""
    line = " ".join(text.split())
    m = _PLAYER.fullmatch(line)
    form = "'<name>: honor N, strength N, gold N[, stronghold <title>][, clan <clan>][, provinces N N ...]'"
    if not m:
        raise NotUnderstood(line, f"expected {form}")
    fields: dict[str, str] = {}
    for part in (p.strip() for p in m["rest"].split(",") if p.strip()):
        key, _, val = part.partition(" ")
        key = key.lower()
        if (
            key not in ("honor", "strength", "gold", "stronghold", "clan", "provinces")
            or key in fields
            or not val.strip()
        ):
            raise NotUnderstood(line, f"{part!r}: expected {form}, each once")
        fields[key] = val.strip()
    numbers = {}
    for key in ("honor", "strength", "gold"):
        if key not in fields or not re.fullmatch(r"-?\d+", fields[key]):
            raise NotUnderstood(line, f"{key} N is required (a whole number): {form}")
        numbers[key] = int(fields[key])
    provinces: tuple[int, ...] = PROVINCES
    if "provinces" in fields:
        given = fields["provinces"].split()
        if fields["provinces"].lower() == "none":
            provinces = ()
        elif not all(re.fullmatch(r"\d+", v) for v in given) or len(set(given)) != len(given):
            raise NotUnderstood(line, f"provinces: the numbers of the provinces standing, each once: {form}")
        else:
            provinces = tuple(sorted(int(v) for v in given))
    return Player(
        m["name"],
        numbers["honor"],
        numbers["strength"],
        numbers["gold"],
        fields.get("stronghold", ""),
        fields.get("clan", ""),
        provinces,
    )


def format_player(p: Player) -> str:
    extra = (f", stronghold {p.stronghold}" if p.stronghold else "") + (f", clan {p.clan}" if p.clan else "")
    if p.provinces != PROVINCES:
        extra += f", provinces {' '.join(map(str, p.provinces)) or 'none'}"
    return f"{p.name}: honor {p.honor}, strength {p.province_strength}, gold {p.gold}{extra}"


def parse_personality(text: str) -> Described:
    """A Personality as a line names him, ``<title> (<marks>)`` (notation_turn.py's marks)."""
    line = " ".join(text.split())

    def bad(problem: str) -> NotUnderstood:
        return NotUnderstood(line, problem)

    return parse_described(line, bad)[0]


def format_personality(who: Described) -> str:
    return format_described(who)
