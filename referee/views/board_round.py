"""A round on the board picture: every revealed token where it stood (an attack as an arrow across its border, a
navy's from the sea, a token in its province), with what became of it and each battle's outcome.
"""

from __future__ import annotations

import math
from itertools import chain

from ..engine.battle import GameState, RoundReport
from .board_marks import ARROW_STYLE, CELL, CLAN_FILL, CLAN_INITIAL, COAST, DISCARDED, RADIUS, clan_name, token_text
from .svg_geometry import (
    ANGLES,
    ET,
    Box,
    Node,
    Point,
    Space,
    around,
    label_width,
    name_at,
    num,
    points_text,
    seaward,
    text_box,
    unit,
)

BADGE_H = 14


MIN_SHAFT = 22  # an arrow's visible line, from its start to its head, outside every circle and its badge


SEA_REACH = 54  # a navy's arrow from the sea: its length


def badge_width(text: str) -> float:
    return label_width(text, 10) + 8


def _badge(parent, box: Box, text: str, clan: str, cls: str = "token", faded: bool = False, entry: str = "") -> None:
    """A token's label in its box: white, a border in the clan's colour, the clan's initial in the text."""
    attrs = {"class": cls}
    if entry:
        attrs["data-entry"] = entry
    if faded:
        attrs["opacity"] = "0.55"
    g = ET.SubElement(parent, "g", attrs)
    x0, y0, x1, _ = box
    ET.SubElement(
        g,
        "rect",
        {
            "x": num(x0),
            "y": num(y0),
            "width": num(x1 - x0),
            "height": str(BADGE_H),
            "rx": "3",
            "fill": "#fff",
            "stroke": CLAN_FILL.get(clan, "#444"),
            "stroke-width": "2",
        },
    )
    ET.SubElement(
        g,
        "text",
        {"x": num((x0 + x1) / 2), "y": num(y0 + 11), "font-size": "10", "text-anchor": "middle", "font-weight": "bold"},
    ).text = text


def _badge_text(entry, fate: str) -> str:
    return ("✕ " if fate in DISCARDED else "") + _marked(entry, fate)


class Arrow:
    """An attack's arrow: a straight line between the two circles, or a bent one (a quadratic curve) where
    the circles are too close for a line of visible length; the points it passes, for the layout."""

    def __init__(self, start: Point, tip: Point, bend: Point | None = None):
        self.start, self.tip, self.bend = start, tip, bend
        if bend is None:
            ux, uy = unit(start, tip)
        else:
            ux, uy = unit(bend, tip)
        self.head = (tip[0] - ux * 10, tip[1] - uy * 10)
        self.direction = (ux, uy)

    def points(self, n: int = 8) -> list[Point]:
        if self.bend is None:
            return [self.start, self.tip]
        (sx, sy), (cx, cy), (ex, ey) = self.start, self.bend, self.tip
        return [
            (
                (1 - t) ** 2 * sx + 2 * (1 - t) * t * cx + t * t * ex,
                (1 - t) ** 2 * sy + 2 * (1 - t) * t * cy + t * t * ey,
            )
            for t in (i / n for i in range(n + 1))
        ]

    def at(self, t: float) -> tuple[Point, Point]:
        """The point a fraction ``t`` along the arrow, and the direction there."""
        pts = self.points(16)
        i = min(int(t * (len(pts) - 1)), len(pts) - 2)
        p, q = pts[i], pts[i + 1]
        f = t * (len(pts) - 1) - i
        return (p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1])), unit(p, q)

    def length(self) -> float:
        pts = self.points(16)
        return sum(math.dist(p, q) for p, q in zip(pts, pts[1:], strict=False))


def _land_arrow(space: Space, a: Point, b: Point, ra: float, rb: float, skip: frozenset[str], half: float) -> Arrow:
    """From the edge of the source's circle to the edge of the target's: straight when that leaves a line
    of visible length, else bent round to one side (the side clear of other shapes, left first)."""
    u = unit(a, b)
    start = (a[0] + u[0] * (ra + 1), a[1] + u[1] * (ra + 1))
    tip = (b[0] - u[0] * (rb + 1), b[1] - u[1] * (rb + 1))
    straight = Arrow(start, tip)
    if straight.length() >= MIN_SHAFT + 10:
        return straight
    options = []
    for side in (1, -1):
        turn = side * math.radians(55)
        su = (u[0] * math.cos(turn) - u[1] * math.sin(turn), u[0] * math.sin(turn) + u[1] * math.cos(turn))
        eu = (-u[0] * math.cos(turn) - u[1] * math.sin(turn), u[0] * math.sin(turn) - u[1] * math.cos(turn))
        s = (a[0] + su[0] * (ra + 1), a[1] + su[1] * (ra + 1))
        e = (b[0] + eu[0] * (rb + 1), b[1] + eu[1] * (rb + 1))
        n = (-u[1] * side, u[0] * side)
        mid = ((s[0] + e[0]) / 2, (s[1] + e[1]) / 2)
        bend = (mid[0] + n[0] * 34, mid[1] + n[1] * 34)
        options.append(Arrow(s, e, bend))
    return next((o for o in options if space.path_clear(o.points(), half, skip)), options[0])


def _sea_arrow(space: Space, to: Point, r: float, out: Point, skip: frozenset[str], half: float) -> Arrow:
    """A navy from the sea: from open water (beyond every province's land) to the coast, pointing seaward as
    far as it can, turned away from other shapes and kept on the picture; never shortened to a stub."""
    centres = [(x, y) for x, y, _, _ in space.discs]
    options = []
    for reach in (SEA_REACH, SEA_REACH - 12, MIN_SHAFT + 14):
        for a in ANGLES[:11]:
            d = (out[0] * math.cos(a) - out[1] * math.sin(a), out[0] * math.sin(a) + out[1] * math.cos(a))
            tip = (to[0] + d[0] * (r + 1), to[1] + d[1] * (r + 1))
            start = (tip[0] + d[0] * reach, tip[1] + d[1] * reach)
            options.append(Arrow(start, tip))
    b = space.bounds
    at_sea = [
        o
        for o in options
        if b[0] <= o.start[0] <= b[2]
        and b[1] <= o.start[1] <= b[3]
        and all(math.dist(o.start, c) > CELL for c in centres)
    ] or options
    return next((o for o in at_sea if space.path_clear([o.start, o.tip], half, skip)), at_sea[0])


def _draw_arrow(parent, arrow: Arrow, entry, fate: str, number: int) -> Node:
    kind = str(entry.token.kind)
    dash, w = ARROW_STYLE[kind]
    clan = str(entry.clan)
    g = ET.SubElement(
        parent, "g", {"class": f"arrow {kind}", "data-entry": str(entry), "data-fate": fate, "data-arrow": str(number)}
    )
    if fate in DISCARDED:
        g.set("opacity", "0.5")
    (sx, sy), (hx, hy) = arrow.start, arrow.head
    if arrow.bend is None:
        d = f"M{num(sx)},{num(sy)} L{num(hx)},{num(hy)}"
    else:
        d = f"M{num(sx)},{num(sy)} Q{num(arrow.bend[0])},{num(arrow.bend[1])} {num(hx)},{num(hy)}"
    for colour, width in (("#222", w + 2), (CLAN_FILL[clan], w)):
        line = {"d": d, "fill": "none", "stroke": colour, "stroke-width": str(width)}
        if dash:
            line["stroke-dasharray"] = dash
        ET.SubElement(g, "path", line)
    ux, uy = arrow.direction
    px, py = -uy, ux
    head, end = arrow.head, arrow.tip
    tip = [
        end,
        (head[0] + px * 8 - ux * 2, head[1] + py * 8 - uy * 2),
        (head[0] - px * 8 - ux * 2, head[1] - py * 8 - uy * 2),
    ]
    ET.SubElement(
        g, "polygon", {"points": points_text(tip), "fill": CLAN_FILL[clan], "stroke": "#222", "stroke-width": "1.5"}
    )
    return g


def _along(arrow: Arrow, w: float, number: int, half: float):
    """Places for an arrow's badge: on its middle when the line stays visible either side, else beside it,
    nearest the middle first."""
    if arrow.length() - 10 >= w + 2 * MIN_SHAFT:
        yield (arrow.at(0.5)[0], number)
    for gap in (2, 8, 16, 28, 44):
        for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8):
            (x, y), (ux, uy) = arrow.at(t)
            nx, ny = -uy, ux
            for side in (1, -1):
                reach = half + gap + abs(nx) * w / 2 + abs(ny) * BADGE_H / 2
                yield (x + side * nx * reach, y + side * ny * reach)
    (x, y), _ = arrow.at(0.5)
    yield from around(x, y, half, w, BADGE_H, 0.0, gaps=(64, 90, 120, 160))


def _inside(p: Point, bounds: Box) -> bool:
    return bounds[0] <= p[0] <= bounds[2] and bounds[1] <= p[1] <= bounds[3]


def draw_round(svg, state: GameState, report: RoundReport, centre: dict[str, Point], space: Space, names) -> None:
    """The revealed tokens and the outcomes, laid out in ``space``: the arrows first (each from circle to
    circle, or from the sea), then the provinces' names moved off any arrow, then every badge where it is
    clear of circles, arrows, names and the badges before it."""
    tokens = ET.SubElement(svg, "g", {"id": "tokens", "data-round": str(report.round)})
    radius = {pid: COAST if state.is_coastal(pid) else RADIUS for pid in centre}
    fates = sorted(report.fates, key=lambda f: f.entry.key)
    arrows = _arrows(tokens, state, fates, centre, radius, space)
    _move_names(names, centre, space)
    for i, (arrow, g) in arrows.items():
        e, fate = fates[i].entry, str(fates[i].fate)
        text = ("✕ " if fate in DISCARDED else "") + token_text(e)
        w = badge_width(text)
        half = ARROW_STYLE[str(e.token.kind)][1] / 2 + 2
        box = space.place(w, BADGE_H, _along(arrow, w, i, half))
        _badge(g, box, text, str(e.clan), faded=fate in DISCARDED, cls="strength")
    stacks: dict[str, int] = {}
    for i, tf in enumerate(fates):
        if i not in arrows:
            _token_badge(tokens, state, tf, centre, radius, space, stacks)
    _outcomes(svg, report, centre, radius, space)


def _arrows(tokens, state: GameState, fates, centre, radius, space: Space) -> dict[int, tuple[Arrow, Node]]:
    """The arrows of the tokens that cross a border: the land's, then the sea's (which turn away from the
    others), each marked in ``space``."""
    arrows: dict[int, tuple[Arrow, Node]] = {}
    order = sorted(
        (i for i, tf in enumerate(fates) if tf.entry.source is not None and str(tf.entry.token.kind) in ARROW_STYLE),
        key=lambda i: (fates[i].entry.on_sea, fates[i].entry.key),
    )
    for i in order:
        e, fate = fates[i].entry, str(fates[i].fate)
        half = ARROW_STYLE[str(e.token.kind)][1] / 2 + 2
        if e.on_sea:
            out = seaward(e.province, centre, state.board.neighbours)
            arrow = _sea_arrow(space, centre[e.province], radius[e.province], out, frozenset({e.province}), half)
        else:
            assert e.source is not None  # an arrow crosses a border
            skip = frozenset({e.source, e.province})
            a, b = centre[e.source], centre[e.province]
            arrow = _land_arrow(space, a, b, radius[e.source], radius[e.province], skip, half)
        pts = arrow.points()
        for p, q in zip(pts, pts[1:], strict=False):
            space.bars.append((p, q, half, i))
        space.bars.append((arrow.head, arrow.tip, 9.0, i))
        arrows[i] = (arrow, _draw_arrow(tokens, arrow, e, fate, i))
    return arrows


def _move_names(names, centre, space: Space) -> None:
    """The provinces' names kept where they are when clear, moved where an arrow crosses them."""
    for pid in sorted(names):
        x, baseline, anchor = names[pid]
        box = text_box(x, baseline, anchor, label_width(pid))
        if space.clear(box):
            space.boxes.append(box)
        else:
            names[pid] = name_at(space, pid, *centre[pid])


def _token_badge(tokens, state: GameState, tf, centre, radius, space: Space, stacks: dict[str, int]) -> None:
    """The badge of a token without an arrow: a raid, diplomacy or bluff on a border is marked on the
    border; a token in a province beside its circle, stacked at its left."""
    e, fate = tf.entry, str(tf.fate)
    text = _badge_text(e, fate)
    w = badge_width(text)
    kind = str(e.token.kind)
    if e.source is not None:
        if e.on_sea:
            to = centre[e.province]
            out = seaward(e.province, centre, state.board.neighbours)
            at = (to[0] + out[0] * (COAST + 14), to[1] + out[1] * (COAST + 14))
        else:
            a, b = centre[e.source], centre[e.province]
            at = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        box = space.place(
            w, BADGE_H, around(at[0], at[1], 0, w, BADGE_H, math.pi / 2, gaps=(0, 4, 10, 18, 30, 46, 64, 90, 120))
        )
        cls = f"border-token {kind}"
    else:
        x, y = centre[e.province]
        n = stacks.get(e.province, 0)
        stacks[e.province] = n + 1
        r = radius[e.province]
        stack = [(x - r - 3 - w / 2, y - 3 + 16 * k) for k in (n, -n, n + 1, -n - 1, n + 2)]
        box = space.place(w, BADGE_H, chain(stack, around(x, y, r, w, BADGE_H, math.pi)))
        cls = f"centre-token {kind}"
    _badge(tokens, box, text, str(e.clan), cls=cls, faded=fate in DISCARDED, entry=str(e))


def _outcome_marks(report: RoundReport) -> dict[str, list[tuple[str, str]]]:
    """Each province's outcome marks (text, class): battles, triggered raids, peace, defenses."""
    marks: dict[str, list[tuple[str, str]]] = {}
    for battle in report.battles:
        if battle.outcome == "captured" and battle.winner:
            text = f"captured by {CLAN_INITIAL[str(battle.winner)]} ({clan_name(battle.winner)})"
        elif battle.defender:
            text = f"{battle.outcome} by {CLAN_INITIAL[str(battle.defender)]}"
        else:
            text = battle.outcome
        marks.setdefault(battle.province, []).append((text, "battle " + battle.outcome))
    for raid in report.raids:
        if raid.triggered:
            marks.setdefault(raid.province, []).append(("raided: scorched", "raid"))
    for pid in report.peace:
        marks.setdefault(pid, []).append(("☮ peace made", "peace"))
    for d in report.defenses:
        marks.setdefault(d.province, []).append(("defended: +1▲", "defense"))
    return marks


def _outcomes(svg, report: RoundReport, centre, radius, space: Space) -> None:
    outcomes = ET.SubElement(svg, "g", {"id": "outcomes"})
    for pid, items in sorted(_outcome_marks(report).items()):
        x, y = centre[pid]
        r = radius[pid]
        for k, (text, cls) in enumerate(items):
            w = badge_width(text)
            stack = [(x + r + 3 + w / 2, y - 13 + 16 * j) for j in (k, k + 1, -k - 1, k + 2)]
            x0, y0, x1, y1 = space.place(w, BADGE_H, chain(stack, around(x, y, r, w, BADGE_H, 0.0)))
            g = ET.SubElement(outcomes, "g", {"class": f"outcome {cls}", "data-province": pid})
            ET.SubElement(
                g,
                "rect",
                {"x": num(x0), "y": num(y0), "width": num(x1 - x0), "height": str(BADGE_H), "rx": "7", "fill": "#222"},
            )
            ET.SubElement(
                g,
                "text",
                {
                    "x": num((x0 + x1) / 2),
                    "y": num(y0 + 11),
                    "font-size": "10",
                    "text-anchor": "middle",
                    "fill": "#fff",
                },
            ).text = text


def _marked(entry, fate: str) -> str:
    text = token_text(entry)
    if fate == "raid_triggered":
        return text + " ✓"
    if fate == "peace":
        return text + " ☮"
    if fate in ("bluff", "lion_bluff"):
        return text + " (bluff)"
    return text
