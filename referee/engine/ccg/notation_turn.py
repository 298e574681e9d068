"""The match notation's lines for the turn's actions (turn.py), parsed once here and printed canonically;
``notation.py`` hands them the lines whose first word is theirs.

    reveal 1 event Famine: alice -1; bob -1          Events Phase, left to right (event, region, holding,
                                                     personality); an Event's effects after the colon
    lobby alice Hida Kisada (3PH)                    the Favor to alice; Hida Kisada bows; no Honor
    favor alice draw                                 discard the Favor and a card: draw a card
    favor bob home Hida Kisada at 2                  discard the Favor: an attacking enemy unit goes home
    equip alice Ashigaru (follower, 1HR) on Hida Kisada
    action bob Shame (limited) on alice Kakita Ryoku (samurai): alice -3
    action alice Bayushi Aramasu (limited) by Bayushi Aramasu: alice +2       (a dishonorable: rehonored)
    action alice Kyuden Hida (trait): alice +1        a triggered trait; (open), (battle), (reaction)
    assign alice Hida Kisada + Ashigaru to 2; Hida Yakamo to 3    the Attacker first, then the Defender
    assign bob none          assign cavalry alice Utaku Rider (cavalry) to 1
    bring alice Hida Kisada (crab clan, samurai, 6G, 5HR, 3PH) from 2 claim    (discount, claim, overlay;
                                                     "paid N" checks the Gold)
    bring alice Marketplace (holding, 3G) from 4      a Holding: it enters play bowed
    discard alice province 3                         a face-up card discarded, refilled face down
    end alice hand 8                                 End Phase: draw, then discard down to eight
    action alice Shame (limited) on bob Kakita Ryoku (samurai): bob -3 (seppuku Kakita Ryoku)
                                                     the Reaction before the loss: reduced to one
    action alice Kharmic Strike (limited) on bob Asahina Sekawa: seppuku bob Asahina Sekawa    (by an effect)

A Personality is his title and, in parentheses, what the line says of him: keywords (samurai, courtier,
shugenja, duelist, cavalry, unique, "crab clan" ...), ``NPH`` (his Personal Honor as printed), ``NHR`` (Honor
Requirement, ``-HR`` none), ``NG`` (Gold Cost), ``NF``, ``NC``, ``bowed``, ``dishonorable``, ``experienced N``.
Effects, separated by ";": ``alice +2`` or ``bob -3`` (Family Honor; ``alice -3, bob -3``: one effect on
both; ``bob -3 (seppuku Kakita Ryoku)``: the loss answered by his seppuku), ``dishonor|rehonor|destroy|bow|
straighten|seppuku <player> <Personality>``, ``chi <player> <Personality> N`` (his Chi now reads N),
``move <player> <Personality> to N`` (or ``home``), ``favor <player>`` or ``favor none``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .court import KEYWORDS, Described
from .effects import VERBS, ChiEffect, Done, Effect, FavorEffect, HonorEffect, MoveEffect, SeppukuReaction
from .errors import NotUnderstood
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

Bad = Callable[[str], NotUnderstood]
KINDS = ("event", "region", "holding", "personality")
ATTACHMENTS = ("follower", "item", "spell")
DESIGNATORS = ("limited", "open", "battle", "reaction", "trait")
CHOICES = ("discount", "claim", "overlay")

_DESCRIBED = re.compile(r"(?P<title>[^()]+?)\s*(?:\((?P<marks>[^()]*)\))?")
_REVEAL = re.compile(r"reveal\s+(\d+)\s+(\w+)\s+([^:]+?)(?:\s*:\s*(.*))?", re.I)
_LOBBY = re.compile(r"lobby\s+(\S+)\s+(.+)", re.I)
_FAVOR_DRAW = re.compile(r"favor\s+(\S+)\s+draw", re.I)
_FAVOR_HOME = re.compile(r"favor\s+(\S+)\s+home\s+(.+?)\s+at\s+(\d+)", re.I)
_EQUIP = re.compile(r"equip\s+(\S+)\s+(.+?\))\s+on\s+(.+?)(?:\s*:\s*(.*))?", re.I)
_ASSIGN = re.compile(r"assign\s+(?:(cavalry)\s+)?(\S+)\s+(.+)", re.I)
_BRING = re.compile(
    r"bring\s+(\S+)\s+(.+?)(?:\s+from\s+(\d+))?(?:\s+(discount|claim|overlay))?(?:\s+paid\s+(\d+))?", re.I
)
_DISCARD = re.compile(r"discard\s+(\S+)\s+province\s+(\d+)", re.I)
_END = re.compile(r"end(?:\s+(?!hand\b)(\S+))?(?:\s+hand\s+(\d+))?", re.I)
_SEPPUKU = re.compile(r"(\S+)\s+-(\d+)\s*\(\s*seppuku\s+(.+)\)", re.I)
_HONOR_EFFECT = re.compile(r"(\S+)\s+([+-]\d+)")


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and text.startswith(sep, k):
            parts.append(text[start:k])
            start = k + len(sep)
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _head_and_effects(text: str) -> tuple[str, str | None]:
    parts = split_top(text, ":")
    return parts[0], (":".join(parts[1:]) if len(parts) > 1 else None)


def parse_described(text: str, bad: Bad, *, kinds: tuple[str, ...] = ()) -> tuple[Described, str]:
    """A Personality (or a card) and his marks; the one mark of ``kinds`` found (a card's kind), if asked."""
    m = _DESCRIBED.fullmatch(text.strip())
    if not text.strip() or not m:
        raise bad(f"{text.strip()!r}: expected '<title> (<marks>)'")
    title = m["title"].strip()
    fields: dict[str, object] = {}
    keywords: set[str] = set()
    kind = ""
    for mark in (w.strip().lower() for w in (m["marks"] or "").split(",") if w.strip()):
        if mark in kinds and not kind:
            kind = mark
        elif not _read_mark(mark, fields, keywords):
            known = "NPH, NHR, -HR, NG, NF, NC, bowed, dishonorable, experienced N, " + ", ".join(sorted(KEYWORDS))
            raise bad(f"{title}: unknown mark {mark!r} (one of {known})")
    return Described(title, frozenset(keywords), **fields), kind  # type: ignore[arg-type]


def _read_mark(mark: str, fields: dict[str, object], keywords: set[str]) -> bool:
    """One of a Personality's (or a card's) marks read into ``fields`` or ``keywords``; False: not a mark."""
    if mark in KEYWORDS:
        keywords.add(mark)
    elif g := re.fullmatch(r"(\d+)\s*ph", mark):
        fields["honor"] = int(g[1])
    elif g := re.fullmatch(r"dishonorable(?:\s+(\d+)\s*(?:ph)?)?", mark):
        fields["dishonorable"] = True
        if g[1] is not None:
            fields["honor"] = int(g[1])
    elif g := re.fullmatch(r"(\d+)\s*hr|(-|no)\s*hr", mark):
        fields["requirement"] = int(g[1]) if g[1] is not None else -1
    elif g := re.fullmatch(r"(\d+)\s*g", mark):
        fields["cost"] = int(g[1])
    elif g := re.fullmatch(r"(-?\d+)\s*f", mark):
        fields["force"] = int(g[1])
    elif g := re.fullmatch(r"(-?\d+)\s*c", mark):
        fields["chi"] = int(g[1])
    elif mark == "bowed":
        fields["bowed"] = True
    elif g := re.fullmatch(r"experienced(?:\s+(\d+))?", mark):
        fields["level"] = int(g[1] or 1)
    else:
        return False
    return True


def format_described(d: Described, kind: str = "") -> str:
    marks = [kind] if kind else []
    marks += sorted(d.keywords, key=lambda k: (not k.endswith(" clan"), k))  # the Clan first
    if d.level:
        marks.append(f"experienced {d.level}")
    if d.cost is not None:
        marks.append(f"{d.cost}G")
    if d.requirement is not None:
        marks.append("-HR" if d.requirement < 0 else f"{d.requirement}HR")
    if d.honor is not None:
        marks.append(f"{d.honor}PH")
    if d.force is not None:
        marks.append(f"{d.force}F")
    if d.chi is not None:
        marks.append(f"{d.chi}C")
    if d.bowed:
        marks.append("bowed")
    if d.dishonorable:
        marks.append("dishonorable")
    return f"{d.title} ({', '.join(marks)})" if marks else d.title


def parse_effects(text: str | None, bad: Bad) -> tuple[Effect, ...]:
    if text is None:
        return ()
    return tuple(_effect(part, bad) for part in split_top(text, ";") if part)


def _effect(part: str, bad: Bad) -> Effect:
    """One effect of a line (its parts are separated by ';')."""
    words = part.split(None, 1)
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    changes = [_HONOR_EFFECT.fullmatch(c.strip()) for c in part.split(",")]
    if r := _SEPPUKU.fullmatch(part):
        return SeppukuReaction(r[1], int(r[2]), parse_described(r[3], bad)[0])
    if all(changes):
        return HonorEffect(tuple((c[1], int(c[2])) for c in changes if c))
    if verb in VERBS and len(rest.split(None, 1)) == 2:
        player, who = rest.split(None, 1)
        return Done(verb, player, parse_described(who, bad)[0])
    if verb == "chi" and (c := re.fullmatch(r"(\S+)\s+(.+?)\s+(-?\d+)", rest)):
        return ChiEffect(c[1], parse_described(c[2], bad)[0], int(c[3]))
    if verb == "move" and (mv := re.fullmatch(r"(\S+)\s+(.+?)\s+(?:to\s+(\d+)|(home))", rest, re.I)):
        return MoveEffect(mv[1], parse_described(mv[2], bad)[0], int(mv[3]) if mv[3] else None)
    if verb == "favor" and rest and len(rest.split()) == 1:
        return FavorEffect(None if rest.lower() == "none" else rest)
    raise bad(
        f"effect {part!r}: expected '<player> +N', '<player> -N', '{'|'.join(VERBS)} <player> <Personality>', "
        "'chi <player> <Personality> N', 'move <player> <Personality> to N|home' or 'favor <player>|none'"
    )


def format_effects(effects: tuple[Effect, ...]) -> str:
    parts = []
    for e in effects:
        match e:
            case HonorEffect(changes):
                parts.append(", ".join(f"{player} {delta:+d}" for player, delta in changes))
            case Done(verb, player, who):
                parts.append(f"{verb} {player} {format_described(who)}")
            case ChiEffect(player, who, chi):
                parts.append(f"chi {player} {format_described(who)} {chi}")
            case FavorEffect(player):
                parts.append(f"favor {player or 'none'}")
            case SeppukuReaction(player, loss, who):
                parts.append(f"{player} -{loss} (seppuku {format_described(who)})")
            case MoveEffect(player, who, to):
                parts.append(f"move {player} {format_described(who)} " + (f"to {to}" if to is not None else "home"))
    return "; ".join(parts)


def _tail(effects: tuple[Effect, ...]) -> str:
    return f": {format_effects(effects)}" if effects else ""


# --- one line each -------------------------------------------------------------------------------------
def _reveal(line: str, bad: Bad) -> TurnEvent:
    m = _REVEAL.fullmatch(line)
    if not m or m[2].lower() not in KINDS:
        raise bad(f"expected 'reveal <province> <{'|'.join(KINDS)}> <title>[: <effects>]'")
    return RevealProvince(int(m[1]), m[2].lower(), m[3].strip(), parse_effects(m[4], bad))


def _lobby(line: str, bad: Bad) -> TurnEvent:
    m = _LOBBY.fullmatch(line)
    if not m:
        raise bad("expected 'lobby <player> <Personality> (NPH)'")
    return Lobby(m[1], parse_described(m[2], bad)[0])


def _favor(line: str, bad: Bad) -> TurnEvent:
    if m := _FAVOR_DRAW.fullmatch(line):
        return FavorDraw(m[1])
    if m := _FAVOR_HOME.fullmatch(line):
        return FavorHome(m[1], parse_described(m[2], bad)[0], int(m[3]))
    raise bad("expected 'favor <player> draw' or 'favor <player> home <Personality> at <province>'")


def _equip(line: str, bad: Bad) -> TurnEvent:
    m = _EQUIP.fullmatch(line)
    if not m:
        raise bad("expected 'equip <player> <card> (follower|item|spell[, NHR]) on <Personality>[: <effects>]'")
    card, kind = parse_described(m[2], bad, kinds=ATTACHMENTS)
    if not kind:
        raise bad(f"{card.title}: say what it is: ({'|'.join(ATTACHMENTS)}[, NHR])")
    return Equip(m[1], card, kind, parse_described(m[3], bad)[0], parse_effects(m[4], bad))


def _action(line: str, bad: Bad) -> TurnEvent:
    form = (
        "expected 'action <player> <card> (<designator>)[ by <Personality>][ on <player> <Personality>, ...]: "
        "<effects>'"
    )
    head, effects = _head_and_effects(line)
    words = head.split(None, 2)
    if len(words) < 3:
        raise bad(form)
    player, rest = words[1], words[2]
    m = re.fullmatch(r"(?P<source>[^()]+?)\s*\((?P<designator>[^()]*)\)(?P<rest>.*)", rest)
    if m is None:  # no designator: the card's title runs to " by " or " on "
        m = re.fullmatch(r"(?P<source>.+?)(?P<designator>)(?P<rest>(?:\s+(?:by|on)\s+.*)?)", rest, re.I)
    if m is None:
        raise bad(form)
    source, designator = m["source"].strip(), " ".join(m["designator"].lower().split())
    if designator and designator.split()[-1] not in DESIGNATORS:
        raise bad(f"{source}: designator {designator!r}: one of {', '.join(DESIGNATORS)} (keywords before it)")
    tail = m["rest"].strip()
    by_text = on_text = ""
    if tail[:3].lower() == "by ":
        pieces = re.split(r"\s+on\s+", tail[3:], maxsplit=1, flags=re.I)
        by_text, on_text = pieces[0], pieces[1] if len(pieces) > 1 else ""
    elif tail[:3].lower() == "on ":
        on_text = tail[3:]
    elif tail:
        raise bad(form)
    by = parse_described(by_text, bad)[0] if by_text else None
    on = []
    for target in split_top(on_text, ",") if on_text else []:
        owner, _, who = target.partition(" ")
        if not who:
            raise bad(f"target {target!r}: expected '<player> <Personality>'")
        on.append((owner, parse_described(who, bad)[0]))
    return CardAction(player, source, designator, by, tuple(on), parse_effects(effects, bad))


def _assign(line: str, bad: Bad) -> TurnEvent:
    m = _ASSIGN.fullmatch(line)
    form = "expected 'assign [cavalry] <player> <unit> to <province>[; <unit> to <province>]' or '... none'"
    if not m:
        raise bad(form)
    if m[3].strip().lower() == "none":
        return Assign(m[2], bool(m[1]), ())
    units = []
    for part in split_top(m[3], ";"):
        u = re.fullmatch(r"(.+?)\s+to\s+(\d+)", part)
        if not u:
            raise bad(f"{part!r}: {form}")
        cards = tuple(parse_described(c, bad)[0] for c in split_top(u[1], "+"))
        units.append((cards, int(u[2])))
    return Assign(m[2], bool(m[1]), tuple(units))


def _bring(line: str, bad: Bad) -> TurnEvent:
    m = _BRING.fullmatch(line)
    if not m:
        raise bad("expected 'bring <player> <card> (<marks>)[ from N][ discount|claim|overlay][ paid N]'")
    who = parse_described(m[2], bad)[0]
    return Bring(m[1], who, (m[4] or "").lower(), int(m[3]) if m[3] else None, int(m[5]) if m[5] is not None else None)


def _discard(line: str, bad: Bad) -> TurnEvent:
    m = _DISCARD.fullmatch(line)
    if not m:
        raise bad("expected 'discard <player> province <N>'")
    return DiscardProvince(m[1], int(m[2]))


def _end(line: str, bad: Bad) -> TurnEvent:
    m = _END.fullmatch(line)
    if not m:
        raise bad("expected 'end[ <player>][ hand N]' (the hand counted before the End Phase's draw)")
    return EndPhase(m[1], int(m[2]) if m[2] is not None else None)


PARSERS: dict[str, Callable[[str, Bad], TurnEvent]] = {
    "reveal": _reveal,
    "lobby": _lobby,
    "favor": _favor,
    "favour": _favor,
    "equip": _equip,
    "action": _action,
    "assign": _assign,
    "bring": _bring,
    "discard": _discard,
    "end": _end,
}


def format_turn(event: TurnEvent) -> str:
    match event:
        case RevealProvince(province, kind, title, effects):
            return f"reveal {province} {kind} {title}{_tail(effects)}"
        case Lobby(player, who):
            return f"lobby {player} {format_described(who)}"
        case FavorDraw(player):
            return f"favor {player} draw"
        case FavorHome(player, who, province):
            return f"favor {player} home {format_described(who)} at {province}"
        case Equip(player, card, kind, on, effects):
            return f"equip {player} {format_described(card, kind)} on {format_described(on)}{_tail(effects)}"
        case CardAction():
            return _format_action(event)
        case Assign(player, cavalry, units):
            head = f"assign {'cavalry ' if cavalry else ''}{player} "
            if not units:
                return head + "none"
            return head + "; ".join(
                " + ".join(format_described(c) for c in cards) + f" to {province}" for cards, province in units
            )
        case Bring():
            return _format_bring(event)
        case DiscardProvince(player, province):
            return f"discard {player} province {province}"
        case EndPhase(player, hand):
            return "end" + (f" {player}" if player else "") + (f" hand {hand}" if hand is not None else "")
    raise TypeError(f"not an action of the turn: {event!r}")


def _format_action(event: CardAction) -> str:
    line = f"action {event.player} {event.source}" + (f" ({event.designator})" if event.designator else "")
    if event.by is not None:
        line += f" by {format_described(event.by)}"
    if event.on:
        line += " on " + ", ".join(f"{p} {format_described(w)}" for p, w in event.on)
    return line + _tail(event.effects)


def _format_bring(event: Bring) -> str:
    line = f"bring {event.player} {format_described(event.who)}"
    line += f" from {event.province}" if event.province is not None else ""
    line += f" {event.choice}" if event.choice else ""
    return line + (f" paid {event.paid}" if event.paid is not None else "")
