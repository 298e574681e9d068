"""The board as an SVG picture, drawn like the board: territory regions in their colours, provinces,
land borders and the sea, control tokens, special tokens and capitals; and, for a round, every revealed
token where it stood (attacks as arrows across their border, tokens in province centres), with what
became of it and each battle's outcome. The territory cards are listed beside the map.

One generator for the terminal's ``board --svg``, the web pages and the HTML game record. Pure: a state
and a round report in, SVG text out. Clan colour is never the only cue: every clan also has its initial.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..engine import GameState, RoundReport

CLAN_FILL = {
    "crab": "#8a8f98",
    "crane": "#7ec8e3",
    "dragon": "#3f9b4b",
    "lion": "#e8c547",
    "phoenix": "#f08a24",
    "scorpion": "#c8312f",
    "unicorn": "#8e5fb5",
}
CLAN_INITIAL = {
    "crab": "Cb",
    "crane": "Cn",
    "dragon": "D",
    "lion": "L",
    "phoenix": "P",
    "scorpion": "S",
    "unicorn": "U",
}
TERRITORY_STROKE = {
    "crab": "#5b6068",
    "crane": "#4aa3c7",
    "dragon": "#2c6e35",
    "lion": "#b8952a",
    "phoenix": "#c46a14",
    "scorpion": "#8f1f1d",
    "unicorn": "#6a4190",
    "neutral_mainland": "#a08050",
    "islands": "#9a8fd0",
    "shadowlands_north": "#4a1010",
    "shadowlands_south": "#4a1010",
}
TERRITORY_FILL = {  # the printed board's regions, pale enough for black text
    "crab": "#d3d6da",
    "crane": "#d4edf6",
    "dragon": "#cfe8d0",
    "lion": "#f7ecc0",
    "phoenix": "#fbdcbc",
    "scorpion": "#efc4c3",
    "unicorn": "#e0d0ec",
    "neutral_mainland": "#e9dfc4",
    "islands": "#dcd7f2",
    "shadowlands_north": "#b9a8a4",
    "shadowlands_south": "#b9a8a4",
}
SEA_FILL = "#bcd8ea"
SPECIAL_MARK = {
    "peace": "☮",
    "scorched": "✕",
    "shrine": "⌂",
    "battlefield": "⚔",
    "harbor": "⚓",
    "honor": "✿",
    "bushido": "✿4",
    "defense": "▣",
}
KIND_LETTER = {"army": "A", "navy": "N", "shinobi": "Sh", "raid": "R", "diplomacy": "Dp", "bluff": "?"}
# one line style per attacking kind: (dash pattern, width); the kind's letter is written on it too
ARROW_STYLE = {"army": ("", 5), "navy": ("12 5", 5), "shinobi": ("3 4", 4)}
DISCARDED = {"illegal", "removed_by_raid", "removed_by_diplomacy"}
MARGIN, RADIUS, COAST = 30, 22, 26  # COAST: the blue ring around a coastal province
SCALE = 1.4  # the layout's centres are too close for a readable circle (the Phoenix trio: 38 units apart)
CELL = 64  # a province's region: its share of the land (nearest centre) within this distance
LABEL_SIZE, LABEL_HEIGHT = 9, 11
KEY_SIZE, KEY_ROW = 10, 16  # the key under the board that explains the marks: font size, row height
PANEL = 250  # the territory cards beside the map
KEY = [
    "1▼2▲ control tokens facedown, faceup",
    "2✿ flowers of an empty province",
    "■ capital",
    "blue ring: coastal",
    "☮ peace",
    "✕ scorched",
    "⌂ shrine",
    "⚔ battlefield",
    "⚓ harbor",
    "✿n honor",
    "▣ defense",
    "A army",
    "N navy",
    "Sh shinobi",
    "R raid",
    "Dp diplomacy",
    "? bluff",
    "+n blessing",
    "faded ✕: discarded",
]

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


class _Node:
    """One SVG element. The picture is built as a small tree of these and written out by ``_write``:
    xml.etree's general serializer took half the time of a picture (measured: bench/bench_web.py)."""

    __slots__ = ("tag", "attrib", "text", "children")
    tag: str
    attrib: dict[str, str]
    text: str | None
    children: list[_Node]

    def __init__(self, tag: str, attrib: dict[str, str] | None = None):
        self.tag, self.attrib, self.text, self.children = tag, attrib or {}, None, []

    def set(self, key: str, value: str) -> None:
        self.attrib[key] = value

    def get(self, key: str, default=None):
        return self.attrib.get(key, default)

    def append(self, node: _Node) -> None:
        self.children.append(node)

    def iter(self) -> Iterator[_Node]:
        yield self
        for child in self.children:
            yield from child.iter()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _write(node: _Node, out: list[str]) -> None:
    if node.tag == "!--":
        out.append(f"<!--{node.text}-->")
        return
    out.append("<" + node.tag + "".join(f' {k}="{_escape(v)}"' for k, v in node.attrib.items()))
    if node.text is None and not node.children:
        out.append(" />")
        return
    out.append(">")
    if node.text is not None:
        out.append(_escape(node.text))
    for child in node.children:
        _write(child, out)
    out.append(f"</{node.tag}>")


class ET:
    """The few tree operations the picture uses, on ``_Node``."""

    Element = _Node

    @staticmethod
    def SubElement(parent: _Node, tag: str, attrib: dict[str, str] | None = None) -> _Node:
        node = _Node(tag, attrib)
        parent.children.append(node)
        return node

    @staticmethod
    def Comment(text: str) -> _Node:
        node = _Node("!--")
        node.text = text
        return node

    @staticmethod
    def tostring(node: _Node, encoding: str = "unicode") -> str:
        out: list[str] = []
        _write(node, out)
        return "".join(out)


Point = tuple[float, float]


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def label_width(text: str, size: float = LABEL_SIZE) -> float:
    return 0.56 * size * len(text)  # sans-serif: about 0.56 em per character


_LABELS: dict[str, dict[str, tuple[float, float, str]]] = {}


def place_labels(centres: dict[str, Point], version: str | None = None) -> dict[str, tuple[float, float, str]]:
    """Where each province's name goes: under its circle if that space is free, else above, right or
    left, clear of every circle and of the names already placed. Returns (x, baseline y, anchor).
    Given the board data version, computed once for it."""
    if version is not None:
        if version not in _LABELS:
            _LABELS[version] = place_labels(centres)
        return _LABELS[version]
    circles = [(x - COAST, y - COAST, x + COAST, y + COAST) for x, y in centres.values()]
    taken: list[Box] = []
    placed = {}
    for pid, (x, y) in sorted(centres.items(), key=lambda item: (item[1][1], item[1][0])):
        w = label_width(pid)
        options = [  # (x, baseline, anchor, box)
            (
                x,
                y + COAST + LABEL_HEIGHT,
                "middle",
                (x - w / 2, y + COAST + 1, x + w / 2, y + COAST + 1 + LABEL_HEIGHT),
            ),
            (x, y - COAST - 3, "middle", (x - w / 2, y - COAST - 2 - LABEL_HEIGHT, x + w / 2, y - COAST - 2)),
            (
                x + COAST + 2,
                y + 4,
                "start",
                (x + COAST + 2, y - LABEL_HEIGHT / 2, x + COAST + 2 + w, y + LABEL_HEIGHT / 2),
            ),
            (
                x - COAST - 2,
                y + 4,
                "end",
                (x - COAST - 2 - w, y - LABEL_HEIGHT / 2, x - COAST - 2, y + LABEL_HEIGHT / 2),
            ),
        ]
        free = [o for o in options if not any(_overlaps(o[3], other) for other in circles + taken)]
        lx, ly, anchor, box = (free or options)[0]
        taken.append(box)
        placed[pid] = (lx, ly, anchor)
    return placed


# --- geometry: the regions ----------------------------------------------------------------------------
def _clip(poly: list[Point], mid: Point, normal: Point) -> list[Point]:
    """The part of a convex polygon on the near side of a line (Sutherland-Hodgman, one edge)."""

    def side(p: Point) -> float:
        return (p[0] - mid[0]) * normal[0] + (p[1] - mid[1]) * normal[1]

    out: list[Point] = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append(p)
        if (sp < 0 < sq) or (sq < 0 < sp):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


_REGIONS: dict[str, dict[str, list[Point]]] = {}


def regions(centre: dict[str, Point], version: str) -> dict[str, list[Point]]:
    """Each province's region: the land nearer its centre than any other (a Voronoi cell) within CELL
    of it, so that the sea shows between the coasts. Computed once per board data version."""
    if version not in _REGIONS:
        out = {}
        for pid, (x, y) in centre.items():
            poly = [(x + CELL * math.cos(a * math.pi / 12), y + CELL * math.sin(a * math.pi / 12)) for a in range(24)]
            for other, (ox, oy) in centre.items():
                if other != pid and math.dist((x, y), (ox, oy)) < 2 * CELL:
                    poly = _clip(poly, ((x + ox) / 2, (y + oy) / 2), (ox - x, oy - y))
            out[pid] = poly
        _REGIONS[version] = out
    return _REGIONS[version]


def _n(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _points(poly: list[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in poly)


def _unit(a: Point, b: Point) -> Point:
    d = math.dist(a, b) or 1.0
    return (b[0] - a[0]) / d, (b[1] - a[1]) / d


def _seaward(pid: str, centre: dict[str, Point], neighbours) -> Point:
    """The direction from a province out to its sea: away from its land neighbours."""
    near = [centre[n] for n in neighbours.get(pid, ()) if n in centre] or list(centre.values())
    cx, cy = sum(x for x, _ in near) / len(near), sum(y for _, y in near) / len(near)
    x, y = centre[pid]
    if math.dist((cx, cy), (x, y)) < 1:
        return (0.0, 1.0)
    return _unit((cx, cy), (x, y))


def clan_name(clan: str) -> str:
    return str(clan).capitalize()


def token_text(entry) -> str:
    """A revealed token written short: clan initial, kind letter, strength, blessings (``P A3+2``)."""
    tok = entry.token
    text = f"{CLAN_INITIAL[str(entry.clan)]} {KIND_LETTER.get(str(tok.kind), str(tok.kind))}"
    if tok.strength is not None:
        text += str(tok.strength)
    return text + "".join(f"+{b}" for b in entry.blessings)


# --- the picture --------------------------------------------------------------------------------------
def board_svg(
    state: GameState, report: RoundReport | None = None, *, title: str | None = None, cards: bool = True, ids: str = ""
) -> str:
    """The board ``state``; with ``report``, the round's revealed tokens drawn on it (``state`` is then
    the board they were placed on) and what the round decided. ``ids`` prefixes every element id, so
    that several pictures can share one page."""
    board = state.board
    centre = {p.id: (p.centre[0] * SCALE, p.centre[1] * SCALE) for p in board.provinces.values()}
    width = round(board.layout[0] * SCALE)
    height = round(max(y for _, y in centre.values()) + COAST + LABEL_HEIGHT + 8)  # the board's lowest name
    key_rows = _key_rows(width)
    total_w = width + 2 * MARGIN + (PANEL if cards else 0)
    total_h = height + 2 * MARGIN + KEY_ROW * (len(key_rows) + 2)
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "role": "img",
            "width": str(total_w),
            "height": str(total_h),
            "viewBox": f"{-MARGIN} {-MARGIN} {total_w} {total_h}",
            "font-family": "sans-serif",
            "class": "board",
        },
    )
    if title is None:
        if report is not None:
            title = f"Battle for Rokugan: round {report.round}, the revealed tokens on the board"
        elif state.round > 1:
            title = f"Battle for Rokugan: board after round {state.round - 1}"
        else:
            title = "Battle for Rokugan: board at setup"
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "desc").text = describe(state, report)
    ET.SubElement(
        svg,
        "rect",
        {
            "x": str(-MARGIN),
            "y": str(-MARGIN),
            "width": str(width + 2 * MARGIN),
            "height": str(height + 2 * MARGIN),
            "fill": SEA_FILL,
            "class": "sea",
        },
    )
    svg.append(ET.Comment(STATIC))  # the land and its borders: the same for every picture of this board
    labels = place_labels(centre, board.version)
    provinces = ET.SubElement(svg, "g", {"id": "provinces"})
    for p in sorted(board.provinces.values(), key=lambda x: x.id):
        _province(provinces, state, p, centre[p.id], labels[p.id])
    if report is not None:
        _round(svg, state, report, centre, (-MARGIN + 6, -MARGIN + 6, width + MARGIN - 6, height + MARGIN - 6))
    _legend(svg, state, width, report)
    if cards:
        _cards(svg, state, width + 20)
    key = ET.SubElement(svg, "g", {"id": "key", "font-size": str(KEY_SIZE)})
    for row, entries in enumerate(key_rows):
        for x, text in entries:
            ET.SubElement(key, "text", {"x": _n(x), "y": str(height + KEY_ROW * (row + 1))}).text = text
    _style_samples(key, height + KEY_ROW * (len(key_rows) + 1) + 6)
    if ids:
        for el in svg.iter():
            if "id" in el.attrib:
                el.set("id", ids + el.get("id"))
    text = ET.tostring(svg, encoding="unicode")
    return text.replace(f"<!--{STATIC}-->", _land(board, centre, ids)) + "\n"


STATIC = "land"
_LAND: dict[tuple[str, str], str] = {}


def _land(board, centre: dict[str, Point], ids: str) -> str:
    """The regions in their territory colours and the land borders, drawn once per board data version."""
    key = (board.version, ids)
    if key not in _LAND:
        land = ET.Element("g", {"id": ids + "regions", "stroke-linejoin": "round"})
        for pid, poly in sorted(regions(centre, board.version).items()):
            terr = board.provinces[pid].territory
            ET.SubElement(
                land,
                "polygon",
                {
                    "points": _points(poly),
                    "fill": TERRITORY_FILL.get(terr, "#e9dfc4"),
                    "stroke": TERRITORY_STROKE.get(terr, "#555"),
                    "stroke-width": "1.5",
                    "data-province": pid,
                },
            )
        borders = ET.Element(
            "g", {"id": ids + "borders", "stroke": "#6b5a3a", "stroke-width": "2", "stroke-opacity": "0.6"}
        )
        for pair in sorted(board.land_borders, key=sorted):
            a, b = sorted(pair)
            ET.SubElement(
                borders,
                "line",
                {
                    "x1": _n(centre[a][0]),
                    "y1": _n(centre[a][1]),
                    "x2": _n(centre[b][0]),
                    "y2": _n(centre[b][1]),
                    "data-border": f"{a}|{b}",
                },
            )
        _LAND[key] = ET.tostring(land, encoding="unicode") + ET.tostring(borders, encoding="unicode")
    return _LAND[key]


def _province(parent, state: GameState, p, at: Point, label) -> None:
    x, y = at
    control = state.control.get(p.id)
    scorched = state.is_scorched(p.id)
    g = ET.SubElement(parent, "g", {"id": p.id, "data-territory": p.territory})
    if state.is_coastal(p.id):
        ET.SubElement(
            g,
            "circle",
            {
                "cx": _n(x),
                "cy": _n(y),
                "r": str(COAST),
                "fill": "none",
                "stroke": "#2a6fb0",
                "stroke-width": "3",
                "class": "coast",
            },
        )
    fill = CLAN_FILL[str(control.clan)] if control else ("#3b3330" if scorched else "#f4ecd8")
    ET.SubElement(
        g,
        "circle",
        {
            "cx": _n(x),
            "cy": _n(y),
            "r": str(RADIUS),
            "fill": fill,
            "stroke": TERRITORY_STROKE.get(p.territory, "#555"),
            "stroke-width": "3",
        },
    )
    if p.is_capital:
        ET.SubElement(
            g,
            "rect",
            {"x": _n(x - 5), "y": _n(y - RADIUS - 6), "width": "10", "height": "8", "fill": "#222", "class": "capital"},
        )
    lx, ly, anchor = label
    ET.SubElement(
        g, "text", {"x": _n(lx), "y": _n(ly), "font-size": str(LABEL_SIZE), "text-anchor": anchor, "class": "label"}
    ).text = p.id
    colour = "#f4ecd8" if scorched else "#000"
    if control:
        ET.SubElement(
            g,
            "text",
            {
                "x": _n(x),
                "y": _n(y - 3),
                "font-size": "10",
                "font-weight": "bold",
                "text-anchor": "middle",
                "class": "owner",
            },
        ).text = CLAN_INITIAL[str(control.clan)]
        counts, cy = f"{control.facedown}▼{control.faceup}▲", y + 10
    else:
        counts, cy = f"{p.flowers}✿", y + 4
    ET.SubElement(
        g,
        "text",
        {"x": _n(x), "y": _n(cy), "font-size": "10", "text-anchor": "middle", "fill": colour, "class": "control"},
    ).text = counts
    special = state.special.get(p.id)
    if special:
        mark = SPECIAL_MARK[str(special.kind)] + (
            str(special.value) if special.value and str(special.kind) != "bushido" else ""
        )
        ET.SubElement(
            g,
            "text",
            {
                "x": _n(x + RADIUS - 2),
                "y": _n(y - RADIUS + 6),
                "font-size": "13",
                "fill": "#000",
                "class": f"special {special.kind}",
            },
        ).text = mark


def _badge(
    parent,
    x: float,
    y: float,
    text: str,
    clan: str,
    anchor: str = "middle",
    cls: str = "token",
    faded: bool = False,
    entry: str = "",
) -> None:
    """A token's label: white box, a border in the clan's colour, the clan's initial in the text."""
    w = label_width(text, 10) + 8
    x0 = {"middle": x - w / 2, "start": x, "end": x - w}[anchor]
    attrs = {"class": cls}
    if entry:
        attrs["data-entry"] = entry
    if faded:
        attrs["opacity"] = "0.55"
    g = ET.SubElement(parent, "g", attrs)
    ET.SubElement(
        g,
        "rect",
        {
            "x": _n(x0),
            "y": _n(y - 8),
            "width": _n(w),
            "height": "14",
            "rx": "3",
            "fill": "#fff",
            "stroke": CLAN_FILL.get(clan, "#444"),
            "stroke-width": "2",
        },
    )
    ET.SubElement(
        g,
        "text",
        {"x": _n(x0 + w / 2), "y": _n(y + 3), "font-size": "10", "text-anchor": "middle", "font-weight": "bold"},
    ).text = ("✕ " if faded else "") + text


def _arrow(parent, start: Point, end: Point, entry, fate: str) -> None:
    kind = str(entry.token.kind)
    dash, w = ARROW_STYLE[kind]
    clan = str(entry.clan)
    faded = fate in DISCARDED
    g = ET.SubElement(parent, "g", {"class": f"arrow {kind}", "data-entry": str(entry), "data-fate": fate})
    if faded:
        g.set("opacity", "0.5")
    ux, uy = _unit(start, end)
    head = (end[0] - ux * 10, end[1] - uy * 10)
    for colour, width in (("#222", w + 2), (CLAN_FILL[clan], w)):
        line = {
            "x1": _n(start[0]),
            "y1": _n(start[1]),
            "x2": _n(head[0]),
            "y2": _n(head[1]),
            "stroke": colour,
            "stroke-width": str(width),
        }
        if dash:
            line["stroke-dasharray"] = dash
        ET.SubElement(g, "line", line)
    px, py = -uy, ux
    tip = [
        end,
        (head[0] + px * 8 - ux * 2, head[1] + py * 8 - uy * 2),
        (head[0] - px * 8 - ux * 2, head[1] - py * 8 - uy * 2),
    ]
    ET.SubElement(
        g, "polygon", {"points": _points(tip), "fill": CLAN_FILL[clan], "stroke": "#222", "stroke-width": "1.5"}
    )
    mid = ((start[0] + head[0]) / 2, (start[1] + head[1]) / 2)
    _badge(g, mid[0], mid[1], token_text(entry), clan, faded=faded, cls="strength")


def _inside(p: Point, bounds: Box) -> bool:
    return bounds[0] <= p[0] <= bounds[2] and bounds[1] <= p[1] <= bounds[3]


def _round(svg, state: GameState, report: RoundReport, centre: dict[str, Point], bounds: Box) -> None:
    board = state.board
    tokens = ET.SubElement(svg, "g", {"id": "tokens", "data-round": str(report.round)})
    stacks: dict[str, int] = {}
    for tf in sorted(report.fates, key=lambda f: f.entry.key):
        e, fate = tf.entry, str(tf.fate)
        kind = str(e.token.kind)
        if e.source is not None and kind in ARROW_STYLE:
            if e.on_sea:
                to = centre[e.province]
                out = _seaward(e.province, centre, board.neighbours)
                reach = COAST + 52
                while reach > COAST + 20 and not _inside((to[0] + out[0] * reach, to[1] + out[1] * reach), bounds):
                    reach -= 4  # the arrow comes from the sea but stays on the picture
                start = (to[0] + out[0] * reach, to[1] + out[1] * reach)
                end = (to[0] + out[0] * (COAST + 1), to[1] + out[1] * (COAST + 1))
            else:
                a, b = centre[e.source], centre[e.province]
                u = _unit(a, b)
                start = (a[0] + u[0] * 8, a[1] + u[1] * 8)
                end = (b[0] - u[0] * (RADIUS + 1), b[1] - u[1] * (RADIUS + 1))
            _arrow(tokens, start, end, e, fate)
        elif e.source is not None:  # a raid, diplomacy or bluff on a border: marked on the border
            if e.on_sea:
                to = centre[e.province]
                out = _seaward(e.province, centre, board.neighbours)
                at = (to[0] + out[0] * (COAST + 14), to[1] + out[1] * (COAST + 14))
            else:
                a, b = centre[e.source], centre[e.province]
                at = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            _badge(
                tokens,
                at[0],
                at[1],
                _marked(e, fate),
                str(e.clan),
                faded=fate in DISCARDED,
                cls=f"border-token {kind}",
                entry=str(e),
            )
        else:  # in the province's centre: stacked at its left
            x, y = centre[e.province]
            i = stacks.get(e.province, 0)
            stacks[e.province] = i + 1
            _badge(
                tokens,
                x - RADIUS - 3,
                y - 10 + 15 * i,
                _marked(e, fate),
                str(e.clan),
                anchor="end",
                faded=fate in DISCARDED,
                cls=f"centre-token {kind}",
                entry=str(e),
            )
    outcomes = ET.SubElement(svg, "g", {"id": "outcomes"})
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
    for pid, items in sorted(marks.items()):
        x, y = centre[pid]
        for i, (text, cls) in enumerate(items):
            w = label_width(text, 10) + 8
            g = ET.SubElement(outcomes, "g", {"class": f"outcome {cls}", "data-province": pid})
            ET.SubElement(
                g,
                "rect",
                {
                    "x": _n(x + RADIUS + 3),
                    "y": _n(y - 20 + 15 * i),
                    "width": _n(w),
                    "height": "14",
                    "rx": "7",
                    "fill": "#222",
                },
            )
            ET.SubElement(
                g,
                "text",
                {
                    "x": _n(x + RADIUS + 3 + w / 2),
                    "y": _n(y - 9 + 15 * i),
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


def _legend(svg, state: GameState, width: float, report: RoundReport | None) -> None:
    legend = ET.SubElement(svg, "g", {"id": "legend", "font-size": "12"})
    heading = f"Round track: {min(state.round, 5)}" if state.round <= 5 else "Game over"
    if report is not None:
        heading = f"Round {report.round}: tokens as revealed"
    ET.SubElement(
        legend, "text", {"x": "0", "y": str(-MARGIN + 18), "font-size": "16", "font-weight": "bold"}
    ).text = heading
    for i, clan in enumerate(state.clans):
        y = -MARGIN + 18 + 16 * (i + 1)
        ET.SubElement(
            legend,
            "rect",
            {
                "x": str(width - 110),
                "y": str(y - 10),
                "width": "12",
                "height": "12",
                "fill": CLAN_FILL[str(clan)],
                "stroke": "#222",
            },
        )
        ET.SubElement(legend, "text", {"x": str(width - 94), "y": str(y)}).text = f"{CLAN_INITIAL[str(clan)]} {clan}"


def _cards(svg, state: GameState, x: float) -> None:
    board = state.board
    g = ET.SubElement(svg, "g", {"id": "cards", "font-size": "11"})
    y = 0.0

    def line(text: str, bold: bool = False, indent: float = 0) -> None:
        nonlocal y
        y += 15
        attrs = {"x": _n(x + indent), "y": _n(y)}
        if bold:
            attrs["font-weight"] = "bold"
        ET.SubElement(g, "text", attrs).text = text

    def name(card: str | None) -> str:
        return board.cards[card].name if card in board.cards else "card not recorded"

    line("Territory cards", bold=True)
    for clan in state.clans:
        held = state.cards_held.get(clan, ())
        line(f"{CLAN_INITIAL[str(clan)]} {clan}: {len(held)} held", bold=True)
        for territory, card in held:
            line(f"{name(card)} ({territory})", indent=10)
    y += 6
    line("On the board", bold=True)
    for territory, card in sorted(state.cards_on_board.items()):
        line(f"{territory}: {name(card)}", indent=10)
    if state.cards_played:
        line("Played", bold=True)
        for territory in sorted(state.cards_played):
            line(territory, indent=10)


def _style_samples(key, y: float) -> None:
    """The three attack styles drawn, each named."""
    x = 0.0
    for kind, (dash, w) in ARROW_STYLE.items():
        line = {"x1": _n(x), "y1": _n(y), "x2": _n(x + 40), "y2": _n(y), "stroke": "#222", "stroke-width": str(w)}
        if dash:
            line["stroke-dasharray"] = dash
        ET.SubElement(key, "line", line)
        ET.SubElement(key, "text", {"x": _n(x + 46), "y": _n(y + 4)}).text = f"{kind} attack"
        x += 140


def _key_rows(width: float) -> list[list[tuple[float, str]]]:
    """The key's entries flowed into rows no wider than the board."""
    rows: list[list[tuple[float, str]]] = [[]]
    x = 0.0
    for text in KEY:
        w = 0.6 * KEY_SIZE * len(text)
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append((x, text))
        x += w + 2 * KEY_SIZE
    return rows


def describe(state: GameState, report: RoundReport | None = None) -> str:
    """The picture in words (the SVG's ``desc``), for readers who cannot see it."""
    parts = []
    for clan in state.clans:
        owned = state.provinces_of(clan)
        parts.append(f"{clan} ({CLAN_INITIAL[str(clan)]}) controls {len(owned)} province(s)")
    text = "; ".join(parts) + "."
    if report is not None:
        attacks = sum(
            1
            for f in report.fates
            if f.entry.source is not None and str(f.entry.token.kind) in ARROW_STYLE and str(f.fate) != "bluff"
        )
        text += f" Round {report.round}: {len(report.fates)} revealed token(s), {attacks} attack(s) drawn as arrows."
        for b in report.battles:
            text += f" {b.province}: {b.outcome}" + (f" by {b.winner}" if b.winner else "") + "."
    return text
