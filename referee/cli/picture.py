"""The board as an SVG picture: provinces at their layout centres, borders, coast, control by clan
colour, special tokens and the round number, so a moderator can match ids to the physical board."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..engine.model.state import GameState

CLAN_FILL = {
    "crab": "#8a8f98",
    "crane": "#7ec8e3",
    "dragon": "#3f9b4b",
    "lion": "#e8c547",
    "phoenix": "#f08a24",
    "scorpion": "#c8312f",
    "unicorn": "#8e5fb5",
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
MARGIN, RADIUS, COAST = 30, 22, 26  # COAST: the blue ring around a coastal province
SCALE = 1.4  # the layout's centres are too close for a readable circle (the Phoenix trio: 38 units apart)
LABEL_SIZE, LABEL_HEIGHT = 9, 11
KEY_SIZE, KEY_ROW = 10, 16  # the key under the board that explains the marks: font size, row height
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
]

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def label_width(text: str) -> float:
    return 0.56 * LABEL_SIZE * len(text)  # sans-serif at this size: about 0.56 em per character


def place_labels(centres: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float, str]]:
    """Where each province's name goes: under its circle if that space is free, else above, right or
    left, clear of every circle and of the names already placed. Returns (x, baseline y, anchor)."""
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


def _n(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def board_svg(state: GameState) -> str:
    board = state.board
    centre = {p.id: (p.centre[0] * SCALE, p.centre[1] * SCALE) for p in board.provinces.values()}
    width = round(board.layout[0] * SCALE)
    height = round(max(y for _, y in centre.values()) + COAST + LABEL_HEIGHT + 8)  # the board's lowest name
    key_rows = _key_rows(width)
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "width": str(width + 2 * MARGIN),
            "height": str(height + 2 * MARGIN + KEY_ROW * len(key_rows)),
            "viewBox": f"{-MARGIN} {-MARGIN} {width + 2 * MARGIN} {height + 2 * MARGIN + KEY_ROW * len(key_rows)}",
            "font-family": "sans-serif",
        },
    )
    ET.SubElement(svg, "title").text = (
        f"Battle for Rokugan: board after round {state.round - 1}"
        if state.round > 1
        else "Battle for Rokugan: board at setup"
    )
    ET.SubElement(
        svg, "rect", {"x": str(-MARGIN), "y": str(-MARGIN), "width": "100%", "height": "100%", "fill": "#cfe3ef"}
    )
    labels = place_labels(centre)
    borders = ET.SubElement(svg, "g", {"id": "borders", "stroke": "#6b5a3a", "stroke-width": "2"})
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
    provinces = ET.SubElement(svg, "g", {"id": "provinces"})
    for p in sorted(board.provinces.values(), key=lambda x: x.id):
        x, y = centre[p.id]
        control = state.control.get(p.id)
        g = ET.SubElement(provinces, "g", {"id": p.id, "data-territory": p.territory})
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
        fill = CLAN_FILL[str(control.clan)] if control else ("#3b3330" if state.is_scorched(p.id) else "#f4ecd8")
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
                {
                    "x": _n(x - 5),
                    "y": _n(y - RADIUS - 6),
                    "width": "10",
                    "height": "8",
                    "fill": "#222",
                    "class": "capital",
                },
            )
        lx, ly, anchor = labels[p.id]
        ET.SubElement(
            g, "text", {"x": _n(lx), "y": _n(ly), "font-size": str(LABEL_SIZE), "text-anchor": anchor, "class": "label"}
        ).text = p.id
        counts = f"{control.facedown}▼{control.faceup}▲" if control else f"{p.flowers}✿"
        colour = "#f4ecd8" if state.is_scorched(p.id) else "#000"
        ET.SubElement(
            g, "text", {"x": _n(x), "y": _n(y + 4), "font-size": "10", "text-anchor": "middle", "fill": colour}
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
    legend = ET.SubElement(svg, "g", {"id": "legend", "font-size": "12"})
    ET.SubElement(legend, "text", {"x": "0", "y": str(-MARGIN + 18), "font-size": "16", "font-weight": "bold"}).text = (
        f"Round track: {min(state.round, 5)}" if state.round <= 5 else "Game over"
    )
    for i, clan in enumerate(state.clans):
        y = -MARGIN + 18 + 16 * (i + 1)
        ET.SubElement(
            legend,
            "rect",
            {"x": str(width - 90), "y": str(y - 10), "width": "12", "height": "12", "fill": CLAN_FILL[str(clan)]},
        )
        ET.SubElement(legend, "text", {"x": str(width - 74), "y": str(y)}).text = str(clan)
    key = ET.SubElement(svg, "g", {"id": "key", "font-size": str(KEY_SIZE)})
    for row, entries in enumerate(key_rows):
        for x, text in entries:
            ET.SubElement(key, "text", {"x": _n(x), "y": str(height + KEY_ROW * (row + 1))}).text = text
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"
