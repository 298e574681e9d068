"""The board picture's geometry: a small SVG tree written out as text, the width of a label's text, the free
space labels are placed in (nothing overlaps), the provinces' regions and where the sea lies.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from itertools import chain

from .board_marks import CELL, COAST, LABEL_SIZE, MARGIN, RADIUS

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


class Node:
    """One SVG element. The picture is built as a small tree of these and written out by ``_write``:
    xml.etree's general serializer took half the time of a picture (measured: bench/bench_web.py)."""

    __slots__ = ("tag", "attrib", "text", "children")
    tag: str
    attrib: dict[str, str]
    text: str | None
    children: list[Node]

    def __init__(self, tag: str, attrib: dict[str, str] | None = None):
        self.tag, self.attrib, self.text, self.children = tag, attrib or {}, None, []

    def set(self, key: str, value: str) -> None:
        self.attrib[key] = value

    def get(self, key: str, default=None):
        return self.attrib.get(key, default)

    def append(self, node: Node) -> None:
        self.children.append(node)

    def iter(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.iter()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _write(node: Node, out: list[str]) -> None:
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
    """The few tree operations the picture uses, on ``Node``."""

    Element = Node

    @staticmethod
    def SubElement(parent: Node, tag: str, attrib: dict[str, str] | None = None) -> Node:
        node = Node(tag, attrib)
        parent.children.append(node)
        return node

    @staticmethod
    def Comment(text: str) -> Node:
        node = Node("!--")
        node.text = text
        return node

    @staticmethod
    def tostring(node: Node, encoding: str = "unicode") -> str:
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
        placed[pid] = name_at(space, pid, x, y)
    return placed


def name_at(space: Space, pid: str, x: float, y: float, own: int = -1) -> tuple[float, float, str]:
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


def num(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def points_text(poly: list[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in poly)


def unit(a: Point, b: Point) -> Point:
    d = math.dist(a, b) or 1.0
    return (b[0] - a[0]) / d, (b[1] - a[1]) / d


def seaward(pid: str, centre: dict[str, Point], neighbours) -> Point:
    """The direction from a province out to its sea: away from its land neighbours."""
    near = [centre[n] for n in neighbours.get(pid, ()) if n in centre] or list(centre.values())
    cx, cy = sum(x for x, _ in near) / len(near), sum(y for _, y in near) / len(near)
    x, y = centre[pid]
    if math.dist((cx, cy), (x, y)) < 1:
        return (0.0, 1.0)
    return unit((cx, cy), (x, y))
