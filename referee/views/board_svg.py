"""The board as an SVG picture, drawn like the board: territory regions in their colours, provinces,
land borders and the sea, control tokens, special tokens and capitals; and, for a round, every revealed
token where it stood (attacks as arrows across their border, tokens in province centres), with what
became of it and each battle's outcome. The territory cards are listed beside the map.

One generator for the terminal's ``board --svg``, the web pages and the HTML game record. Pure: a state
and a round report in, SVG text out. Clan colour is never the only cue: every clan also has its initial.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from itertools import chain

from ..engine.battle import GameState, RoundReport

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


_NARROW = frozenset("fijlrtIJ .,:;()/-_*|'!")


def char_width(c: str) -> float:
    """A character's advance in em, a little over DejaVu Sans Bold's (the widest common sans-serif; Debian's
    default), so that a box drawn from it holds the text in the fonts readers have."""
    if c in _NARROW:
        return 0.5
    if c in "mwMW":
        return 1.1
    if ord(c) > 127:
        return 0.95
    if c.isupper():
        return 0.86
    if c in "+=<>":
        return 0.84
    return 0.72


@functools.lru_cache(maxsize=4096)
def label_width(text: str, size: float = LABEL_SIZE) -> float:
    return size * sum(char_width(c) for c in text)


def text_box(x: float, baseline: float, anchor: str, width: float, size: float = LABEL_SIZE) -> Box:
    """The box a text of ``width`` takes, written at (x, baseline) with its anchor."""
    x0 = {"middle": x - width / 2, "start": x, "end": x - width}[anchor]
    return (x0, baseline - size - 0.5, x0 + width, baseline + 0.3 * size)


def _box_disc(box: Box, x: float, y: float, r: float) -> bool:
    nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return (nx - x) ** 2 + (ny - y) ** 2 < r * r


def _box_bar(box: Box, p: Point, q: Point, half: float) -> bool:
    """Whether a thick segment (an arrow's stroke) touches a box: the segment clipped to the box grown by
    the half width (Liang-Barsky)."""
    x0, y0, x1, y1 = box[0] - half, box[1] - half, box[2] + half, box[3] + half
    dx, dy = q[0] - p[0], q[1] - p[1]
    lo, hi = 0.0, 1.0
    for num, den in ((p[0] - x0, -dx), (x1 - p[0], dx), (p[1] - y0, -dy), (y1 - p[1], dy)):
        if den == 0:
            if num < 0:
                return False
            continue
        t = num / den
        if den < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _bar_disc(p: Point, q: Point, half: float, x: float, y: float, r: float) -> bool:
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((x - p[0]) * dx + (y - p[1]) * dy) / n))
    return math.dist((p[0] + t * dx, p[1] + t * dy), (x, y)) < r + half


class Space:
    """Where a picture's labels may go: its bounds, the shapes no label may cover (the provinces' circles,
    capitals, special tokens, arrows) and the labels already placed. Each label takes the first of its
    candidate places that is clear: the same picture is always laid out the same way."""

    def __init__(self, bounds: Box):
        self.bounds = bounds
        self.discs: list[tuple[float, float, float, str]] = []  # x, y, r, province
        self.bars: list[tuple[Point, Point, float, int]] = []  # from, to, half width, the arrow's number
        self.boxes: list[Box] = []

    def clear(self, box: Box, own: int = -1) -> bool:
        """Whether ``box`` lies inside the bounds and covers no label, circle or arrow (but arrow ``own``)."""
        b = self.bounds
        inside = b[0] <= box[0] and b[1] <= box[1] and box[2] <= b[2] and box[3] <= b[3]
        return inside and not self._hits_label(box) and not self._hits_disc(box) and not self._hits_bar(box, own)

    def _hits_label(self, box: Box) -> bool:
        x0, y0, x1, y1 = box
        return any(x0 < o[2] and o[0] < x1 and y0 < o[3] and o[1] < y1 for o in self.boxes)

    def _hits_disc(self, box: Box) -> bool:
        x0, y0, x1, y1 = box
        return any(
            x + r > x0 and x - r < x1 and y + r > y0 and y - r < y1 and _box_disc(box, x, y, r)
            for x, y, r, _ in self.discs
        )

    def _hits_bar(self, box: Box, own: int) -> bool:
        x0, y0, x1, y1 = box
        for p, q, h, n in self.bars:
            if n == own:
                continue
            near = min(p[0], q[0]) - h < x1 and max(p[0], q[0]) + h > x0
            if near and min(p[1], q[1]) - h < y1 and max(p[1], q[1]) + h > y0 and _box_bar(box, p, q, h):
                return True
        return False

    def place(self, w: float, h: float, centres, own: int = -1) -> Box:
        """The first clear box of ``w`` x ``h`` centred on one of ``centres`` (each a point, or a point and
        the arrow it may lie on); taken. With none clear, the first (the test over random rounds would
        fail)."""
        first = None
        for c in centres:
            (cx, cy), mine = (c, -1) if isinstance(c[0], float | int) else c
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            first = first or box
            if self.clear(box, mine if mine >= 0 else own):
                break
        else:
            box = first or (0.0, 0.0, w, h)
        self.boxes.append(box)
        return box

    def path_clear(self, points: list[Point], half: float, skip: frozenset[str]) -> bool:
        """Whether an arrow along ``points`` keeps off every circle (but ``skip``'s), arrow and label."""
        b = self.bounds
        if any(not (b[0] <= x <= b[2] and b[1] <= y <= b[3]) for x, y in points):
            return False
        for p, q in zip(points, points[1:], strict=False):
            if any(pid not in skip and _bar_disc(p, q, half, x, y, r) for x, y, r, pid in self.discs):
                return False
            if any(_box_bar(o, p, q, half) for o in self.boxes):
                return False
            if any(_segments_cross(p, q, a, c) for a, c, _, _ in self.bars):
                return False
        return True


def _segments_cross(p: Point, q: Point, a: Point, b: Point) -> bool:
    def side(o: Point, s: Point, t: Point) -> float:
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    return side(p, q, a) * side(p, q, b) < 0 and side(a, b, p) * side(a, b, q) < 0


ANGLES = [i * math.pi / 8 for i in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8)]


def around(x: float, y: float, r: float, w: float, h: float, prefer: float = 0.0, gaps=(2, 6, 12, 20, 30, 44, 60, 80)):
    """Places for a w x h box around a circle: beside it in the preferred direction first, then turning
    either way, then farther out."""
    for gap in gaps:
        for a in ANGLES:
            dx, dy = math.cos(prefer + a), math.sin(prefer + a)
            # the box's centre, far enough along the direction for the box to clear the circle by ``gap``
            reach = r + gap + abs(dx) * w / 2 + abs(dy) * h / 2
            yield (x + dx * reach, y + dy * reach)


_LABELS: dict[str, dict[str, tuple[float, float, str]]] = {}


def province_space(centre: dict[str, Point], bounds: Box) -> Space:
    """The provinces' circles, capitals and special tokens' places, as shapes no label may cover."""
    space = Space(bounds)
    for pid, (x, y) in sorted(centre.items()):
        space.discs.append((x, y, COAST, pid))
        space.boxes.append(special_box(x, y))
        space.boxes.append(capital_box(x, y))
    return space


def special_box(x: float, y: float) -> Box:
    """Where a province's special token is written (at its circle's upper right): kept free of labels."""
    return (x + RADIUS - 3, y - RADIUS - 9, x + RADIUS - 1 + label_width("✿44", 13), y - RADIUS + 10)


def capital_box(x: float, y: float) -> Box:
    """Where a capital's mark is drawn (on its circle's top): kept free of labels on every province."""
    return (x - 6, y - RADIUS - 7, x + 6, y - RADIUS + 3)


def place_labels(centres: dict[str, Point], version: str | None = None) -> dict[str, tuple[float, float, str]]:
    """Where each province's name goes: under its circle if that space is free, else above, right, left or
    farther out, clear of every circle, special token and name already placed. Returns (x, baseline y,
    anchor). Given the board data version, computed once for it."""
    if version is not None:
        if version not in _LABELS:
            _LABELS[version] = place_labels(centres)
        return _LABELS[version]
    space = province_space(centres, (-MARGIN + 2, -MARGIN + 2, 1e9, 1e9))
    placed: dict[str, tuple[float, float, str]] = {}
    for pid, (x, y) in sorted(centres.items(), key=lambda item: (item[1][1], item[1][0])):
        placed[pid] = _name_at(space, pid, x, y)
    return placed


def _name_at(space: Space, pid: str, x: float, y: float, own: int = -1) -> tuple[float, float, str]:
    w, h = label_width(pid), LABEL_SIZE * 1.3 + 0.5
    below = (x, y + COAST + 1 + h / 2)
    above = (x, y - COAST - 1 - h / 2)
    box = space.place(w, h, chain((below, above), around(x, y, COAST, w, h, math.pi / 2)), own)
    return ((box[0] + box[2]) / 2, box[3] - 0.3 * LABEL_SIZE, "middle")


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
    state: GameState,
    report: RoundReport | None = None,
    *,
    title: str | None = None,
    cards: bool = True,
    ids: str = "",
    key: bool = True,
) -> str:
    """The board ``state``; with ``report``, the round's revealed tokens drawn on it (``state`` is then
    the board they were placed on) and what the round decided. ``ids`` prefixes every element id, so
    that several pictures can share one page. Without ``key`` (a projector's grid of small boards), the key
    under the map is left out."""
    board = state.board
    centre = {p.id: (p.centre[0] * SCALE, p.centre[1] * SCALE) for p in board.provinces.values()}
    width = round(board.layout[0] * SCALE)
    height = round(max(y for _, y in centre.values()) + COAST + LABEL_HEIGHT + 8)  # the board's lowest name
    key_rows = _key_rows(width) if key else []
    total_w = width + 2 * MARGIN + (PANEL if cards else 0)
    total_h = height + 2 * MARGIN + (KEY_ROW * (len(key_rows) + 2) if key else 0)
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
    labels = dict(place_labels(centre, board.version))
    provinces = ET.SubElement(svg, "g", {"id": "provinces"})
    tokens = None
    if report is not None:  # laid out before the provinces are written: an arrow may move a name
        space = province_space(centre, (-MARGIN + 4, -MARGIN + 4, width + MARGIN - 4, height - 2))
        space.boxes.extend(_legend_boxes(state, width))
        tokens = ET.Element("g")
        _round(tokens, state, report, centre, space, labels)
    for p in sorted(board.provinces.values(), key=lambda x: x.id):
        _province(provinces, state, p, centre[p.id], labels[p.id])
    if tokens is not None:
        svg.children.extend(tokens.children)
    _legend(svg, state, width, report)
    if cards:
        _cards(svg, state, width + 20)
    if key:
        shown = ET.SubElement(svg, "g", {"id": "key", "font-size": str(KEY_SIZE)})
        for row, entries in enumerate(key_rows):
            for x, text in entries:
                ET.SubElement(shown, "text", {"x": _n(x), "y": str(height + KEY_ROW * (row + 1))}).text = text
        _style_samples(shown, height + KEY_ROW * (len(key_rows) + 1) + 6)
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
            "x": _n(x0),
            "y": _n(y0),
            "width": _n(x1 - x0),
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
        {"x": _n((x0 + x1) / 2), "y": _n(y0 + 11), "font-size": "10", "text-anchor": "middle", "font-weight": "bold"},
    ).text = text


def _badge_text(entry, fate: str) -> str:
    return ("✕ " if fate in DISCARDED else "") + _marked(entry, fate)


class Arrow:
    """An attack's arrow: a straight line between the two circles, or a bent one (a quadratic curve) where
    the circles are too close for a line of visible length; the points it passes, for the layout."""

    def __init__(self, start: Point, tip: Point, bend: Point | None = None):
        self.start, self.tip, self.bend = start, tip, bend
        if bend is None:
            ux, uy = _unit(start, tip)
        else:
            ux, uy = _unit(bend, tip)
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
        return (p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1])), _unit(p, q)

    def length(self) -> float:
        pts = self.points(16)
        return sum(math.dist(p, q) for p, q in zip(pts, pts[1:], strict=False))


def _land_arrow(space: Space, a: Point, b: Point, ra: float, rb: float, skip: frozenset[str], half: float) -> Arrow:
    """From the edge of the source's circle to the edge of the target's: straight when that leaves a line
    of visible length, else bent round to one side (the side clear of other shapes, left first)."""
    u = _unit(a, b)
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


def _draw_arrow(parent, arrow: Arrow, entry, fate: str, number: int) -> _Node:
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
        d = f"M{_n(sx)},{_n(sy)} L{_n(hx)},{_n(hy)}"
    else:
        d = f"M{_n(sx)},{_n(sy)} Q{_n(arrow.bend[0])},{_n(arrow.bend[1])} {_n(hx)},{_n(hy)}"
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
        g, "polygon", {"points": _points(tip), "fill": CLAN_FILL[clan], "stroke": "#222", "stroke-width": "1.5"}
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


def _round(svg, state: GameState, report: RoundReport, centre: dict[str, Point], space: Space, names) -> None:
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


def _arrows(tokens, state: GameState, fates, centre, radius, space: Space) -> dict[int, tuple[Arrow, _Node]]:
    """The arrows of the tokens that cross a border: the land's, then the sea's (which turn away from the
    others), each marked in ``space``."""
    arrows: dict[int, tuple[Arrow, _Node]] = {}
    order = sorted(
        (i for i, tf in enumerate(fates) if tf.entry.source is not None and str(tf.entry.token.kind) in ARROW_STYLE),
        key=lambda i: (fates[i].entry.on_sea, fates[i].entry.key),
    )
    for i in order:
        e, fate = fates[i].entry, str(fates[i].fate)
        half = ARROW_STYLE[str(e.token.kind)][1] / 2 + 2
        if e.on_sea:
            out = _seaward(e.province, centre, state.board.neighbours)
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
            names[pid] = _name_at(space, pid, *centre[pid])


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
            out = _seaward(e.province, centre, state.board.neighbours)
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
                {"x": _n(x0), "y": _n(y0), "width": _n(x1 - x0), "height": str(BADGE_H), "rx": "7", "fill": "#222"},
            )
            ET.SubElement(
                g,
                "text",
                {
                    "x": _n((x0 + x1) / 2),
                    "y": _n(y0 + 11),
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


def _legend_boxes(state: GameState, width: float) -> list[Box]:
    """The places of the legend's heading and clan names at the top of the map: kept free of badges."""
    head = (-MARGIN + 2, -MARGIN + 2, -MARGIN + 4 + label_width("Round 5: tokens as revealed", 16), -MARGIN + 24)
    rows = (width - 112, -MARGIN + 22, width + MARGIN - 4, -MARGIN + 24 + 16 * len(state.clans))
    return [head, rows]


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
