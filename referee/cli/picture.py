"""The board as an SVG picture: provinces at their layout centres, borders, coast, control by clan
colour, special tokens and the round number, so a moderator can match ids to the physical board."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..engine.state import GameState

CLAN_FILL = {
    "crab": "#8a8f98", "crane": "#7ec8e3", "dragon": "#3f9b4b", "lion": "#e8c547",
    "phoenix": "#f08a24", "scorpion": "#c8312f", "unicorn": "#8e5fb5",
}
TERRITORY_STROKE = {
    "crab": "#5b6068", "crane": "#4aa3c7", "dragon": "#2c6e35", "lion": "#b8952a", "phoenix": "#c46a14",
    "scorpion": "#8f1f1d", "unicorn": "#6a4190", "neutral_mainland": "#a08050", "islands": "#9a8fd0",
    "shadowlands_north": "#4a1010", "shadowlands_south": "#4a1010",
}
SPECIAL_MARK = {
    "peace": "☮", "scorched": "✕", "shrine": "⛩", "battlefield": "⚔", "harbor": "⚓",
    "honor": "✿", "bushido": "✿4", "defense": "⛨",
}
MARGIN, RADIUS = 30, 22


def board_svg(state: GameState) -> str:
    board = state.board
    width, height = board.layout
    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
        "width": str(width + 2 * MARGIN), "height": str(height + 2 * MARGIN),
        "viewBox": f"{-MARGIN} {-MARGIN} {width + 2 * MARGIN} {height + 2 * MARGIN}",
        "font-family": "sans-serif",
    })
    ET.SubElement(svg, "title").text = f"Battle for Rokugan: board after round {state.round - 1}" if state.round > 1 else "Battle for Rokugan: board at setup"
    ET.SubElement(svg, "rect", {"x": str(-MARGIN), "y": str(-MARGIN), "width": "100%", "height": "100%", "fill": "#cfe3ef"})
    centre = {p.id: p.centre for p in board.provinces.values()}
    borders = ET.SubElement(svg, "g", {"id": "borders", "stroke": "#6b5a3a", "stroke-width": "2"})
    for pair in sorted(board.land_borders, key=sorted):
        a, b = sorted(pair)
        ET.SubElement(borders, "line", {"x1": str(centre[a][0]), "y1": str(centre[a][1]), "x2": str(centre[b][0]), "y2": str(centre[b][1]), "data-border": f"{a}|{b}"})
    provinces = ET.SubElement(svg, "g", {"id": "provinces"})
    for p in sorted(board.provinces.values(), key=lambda x: x.id):
        x, y = p.centre
        control = state.control.get(p.id)
        g = ET.SubElement(provinces, "g", {"id": p.id, "data-territory": p.territory})
        if state.is_coastal(p.id):
            ET.SubElement(g, "circle", {"cx": str(x), "cy": str(y), "r": str(RADIUS + 4), "fill": "none", "stroke": "#2a6fb0", "stroke-width": "3", "class": "coast"})
        fill = CLAN_FILL[str(control.clan)] if control else ("#3b3330" if state.is_scorched(p.id) else "#f4ecd8")
        ET.SubElement(g, "circle", {"cx": str(x), "cy": str(y), "r": str(RADIUS), "fill": fill, "stroke": TERRITORY_STROKE.get(p.territory, "#555"), "stroke-width": "3"})
        if p.is_capital:
            ET.SubElement(g, "rect", {"x": str(x - 5), "y": str(y - RADIUS - 6), "width": "10", "height": "8", "fill": "#222"})
        crowded = any(q != p.id and abs(cx - x) < 70 and 0 < cy - y < 40 for q, (cx, cy) in centre.items())
        label_y = y - RADIUS - 10 if crowded else y + RADIUS + 12
        ET.SubElement(g, "text", {"x": str(x), "y": str(label_y), "font-size": "9", "text-anchor": "middle"}).text = p.id
        counts = f"{control.facedown}▼{control.faceup}▲" if control else f"{p.flowers}✿"
        colour = "#f4ecd8" if state.is_scorched(p.id) else "#000"
        ET.SubElement(g, "text", {"x": str(x), "y": str(y + 4), "font-size": "10", "text-anchor": "middle", "fill": colour}).text = counts
        special = state.special.get(p.id)
        if special:
            mark = SPECIAL_MARK[str(special.kind)] + (str(special.value) if special.value and str(special.kind) != "bushido" else "")
            ET.SubElement(g, "text", {"x": str(x + RADIUS - 2), "y": str(y - RADIUS + 6), "font-size": "13", "fill": "#000", "class": f"special {special.kind}"}).text = mark
    legend = ET.SubElement(svg, "g", {"id": "legend", "font-size": "12"})
    ET.SubElement(legend, "text", {"x": "0", "y": str(-MARGIN + 18), "font-size": "16", "font-weight": "bold"}).text = (
        f"Round track: {min(state.round, 5)}" if state.round <= 5 else "Game over"
    )
    for i, clan in enumerate(state.clans):
        y = str(-MARGIN + 18 + 16 * (i + 1))
        ET.SubElement(legend, "rect", {"x": str(width - 90), "y": str(int(y) - 10), "width": "12", "height": "12", "fill": CLAN_FILL[str(clan)]})
        ET.SubElement(legend, "text", {"x": str(width - 74), "y": y}).text = str(clan)
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"
