"""Pictures of how a game or a tournament went, as inline SVG: the honor race of a game (each clan's honor had
the game ended after each round, then the objectives' effect at the end) and the points race of a tournament's
leading players. Each is one line chart: a line per series, the series' label at its end, the end labels moved
apart so that none covers another, every text escaped (ElementTree). The pages put a table of the same numbers
beside each picture, for screen readers and for anyone who would rather read."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from .board_marks import CLAN_INITIAL, TERRITORY_STROKE

FONT = 16  # the labels' size in the picture's units (the picture is WIDTH wide, scaled down to a narrower page)
GAP = FONT + 3  # the least distance between two end labels' baselines
WIDTH = 480
TOP, BOTTOM, LEFT = 24, 40, 44
PAD = 28
INK, GRID, MUTED = "#1b1b1b", "#d9d2c3", "#4a4a4a"
PALETTE = [  # for series without a colour of their own: dark enough on white, told apart by the end labels
    "#1f4e79", "#9c2a1f", "#2e6b30", "#6a3d8f", "#8a5a00", "#0f6e6e", "#7a1f5c", "#4d4d4d",
]  # fmt: skip


@dataclass(frozen=True)
class Series:
    key: str  # an id part: letters, digits, '-'
    label: str  # at the line's end
    values: Sequence[float | None]  # one per column (None: no value there)
    colour: str = ""
    dashed_last: bool = False  # the last step is of another kind (the objectives, at the end of a game)


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def spread(wanted: list[float], low: float, high: float, gap: float = GAP) -> list[float]:
    """Positions as near ``wanted`` as can be with at least ``gap`` between neighbours, inside [low, high]
    (labels at a line's end, moved apart: the order of ``wanted`` is kept)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [min(max(wanted[i], low), high) for i in order]
    for i in range(1, len(placed)):  # downwards: push each below its neighbour
        placed[i] = max(placed[i], placed[i - 1] + gap)
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:  # the lowest past the bottom: push everything up, then keep the top inside
        placed[-1] = high
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
        if placed[0] < low:
            placed = [low + i * (high - low) / max(len(placed) - 1, 1) for i in range(len(placed))]
    out = [0.0] * len(wanted)
    for slot, i in enumerate(order):
        out[i] = placed[slot]
    return out


def line_chart(
    series: Sequence[Series], columns: Sequence[str], *, title: str, desc: str, ids: str, label_width: int = 120
) -> str:
    """A line chart as an SVG element: ``columns`` along the bottom, a value axis from 0 (or the least value)."""
    values = [v for s in series for v in s.values if v is not None]
    lo, hi = min([0.0, *values]), max([1.0, *values])
    step = nice_step((hi - lo) / 5)
    hi = step * -(-hi // step)
    lo = step * (lo // step)
    height = max(300, TOP + BOTTOM + GAP * (len(series) + 1))
    plot_w = WIDTH - LEFT - label_width - 16
    plot_h = height - TOP - BOTTOM
    inner = plot_w - 2 * PAD  # the columns stand PAD inside the grid: their labels clear the value axis's

    def x(i: int) -> float:
        return LEFT + PAD + (inner * i / (len(columns) - 1) if len(columns) > 1 else inner / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (hi - v) / (hi - lo)

    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {WIDTH} {height}",
            "width": str(WIDTH),
            "height": str(height),
            "role": "img",
            "aria-labelledby": f"{ids}title {ids}desc",
            "font-family": "sans-serif",
            "font-size": str(FONT),
            "class": "chart",
        },
    )
    ET.SubElement(svg, "title", {"id": f"{ids}title"}).text = title
    ET.SubElement(svg, "desc", {"id": f"{ids}desc"}).text = desc
    ET.SubElement(svg, "rect", {"width": str(WIDTH), "height": str(height), "fill": "#fff"})
    axis = ET.SubElement(svg, "g", {"class": "axis", "fill": MUTED})
    v = lo
    while v <= hi + 1e-9:
        ET.SubElement(
            axis,
            "line",
            {"x1": _n(LEFT), "x2": _n(LEFT + plot_w), "y1": _n(y(v)), "y2": _n(y(v)), "stroke": GRID},
        )
        ET.SubElement(axis, "text", {"x": _n(LEFT - 6), "y": _n(y(v) + 5), "text-anchor": "end"}).text = _n(v)
        v += step
    for i, c in enumerate(columns):
        ET.SubElement(axis, "text", {"x": _n(x(i)), "y": _n(height - BOTTOM + 22), "text-anchor": "middle"}).text = c
    lines = ET.SubElement(svg, "g", {"class": "lines", "fill": "none", "stroke-width": "3"})
    ends: list[tuple[Series, str, float, float]] = []
    for k, s in enumerate(series):
        colour = s.colour or PALETTE[k % len(PALETTE)]
        points = [(x(i), y(v)) for i, v in enumerate(s.values) if v is not None]
        if not points:
            continue
        solid = points[:-1] if s.dashed_last and len(points) > 1 else points
        g = ET.SubElement(lines, "g", {"stroke": colour, "id": f"{ids}{s.key}"})
        ET.SubElement(g, "polyline", {"points": " ".join(f"{_n(a)},{_n(b)}" for a, b in solid)})
        if solid is not points:
            (x0, y0), (x1, y1) = points[-2], points[-1]
            ET.SubElement(
                g,
                "line",
                {"x1": _n(x0), "y1": _n(y0), "x2": _n(x1), "y2": _n(y1), "stroke-dasharray": "6 4", "class": "last"},
            )
        for a, b in points:
            ET.SubElement(g, "circle", {"cx": _n(a), "cy": _n(b), "r": "3.5", "fill": colour, "stroke": "none"})
        ends.append((s, colour, points[-1][0], points[-1][1]))
    labels = ET.SubElement(svg, "g", {"class": "end-labels", "fill": INK})
    placed = spread([b for *_, b in ends], TOP + FONT / 2, height - BOTTOM - 4)
    for (s, colour, a, b), at in zip(ends, placed, strict=True):
        lx = LEFT + plot_w + 10
        ET.SubElement(
            labels,
            "line",
            {"x1": _n(a + 4), "y1": _n(b), "x2": _n(lx - 2), "y2": _n(at), "stroke": colour, "stroke-width": "2"},
        )
        ET.SubElement(labels, "text", {"x": _n(lx), "y": _n(at + FONT * 0.35), "class": "end-label"}).text = s.label
    return ET.tostring(svg, encoding="unicode")


def nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least ``raw``: the value axis's step."""
    if raw <= 0:
        return 1.0
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 0.1
    while power > raw:
        power /= 10
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power


def honor_race_svg(race: dict) -> str:
    """A game's honor race (``game.honor_race``): a line per clan in its colour, its initial and honor at the end."""
    series = [
        Series(
            c["clan"],
            f"{CLAN_INITIAL.get(c['clan'], c['clan'][:2])} {c['honor'][-1]}",
            c["honor"],
            TERRITORY_STROKE.get(c["clan"], ""),
            dashed_last=race["objectives_column"],
        )
        for c in race["clans"]
    ]
    end = (
        " The last step, dashed, is the objectives' honor at the end of the game." if race["objectives_column"] else ""
    )
    return line_chart(
        series,
        race["columns"],
        title=f"{race['game']}: the honor race",
        desc="Each clan's honor had the game ended after each round." + end,
        ids="race-",
        label_width=70,
    )


def short(label: str, most: int = 22) -> str:
    """A label of at most ``most`` characters: a longer one cut with an ellipsis (the table beside has it whole)."""
    return label if len(label) <= most else label[: most - 1].rstrip() + "…"


def points_race_svg(race: dict) -> str:
    """A tournament's points race (``views.tournament.points_race``): a line per leading player, name at the end."""
    series = [Series(f"p{i}", short(f"{p['rank']}. {p['name']}"), p["points"]) for i, p in enumerate(race["players"])]
    return line_chart(
        series,
        [f"R{r}" for r in race["rounds"]],
        title=f"{race['name']}: points after each round",
        desc=f"The points of the {len(series)} leading players after each round, as the standings count them.",
        ids="points-",
        label_width=190,
    )
