"""The board as an SVG picture, drawn like the board: territory regions in their colours, provinces,
land borders and the sea, control tokens, special tokens and capitals; and, for a round, every revealed
token where it stood (attacks as arrows across their border, tokens in province centres), with what
became of it and each battle's outcome. The territory cards are listed beside the map.

One generator for the terminal's ``board --svg``, the web pages and the HTML game record. Pure: a state
and a round report in, SVG text out. Clan colour is never the only cue: every clan also has its initial.
"""

from __future__ import annotations

from ..engine.battle import GameState, RoundReport
from .board_marks import (
    ARROW_STYLE,
    CLAN_FILL,
    CLAN_INITIAL,
    COAST,
    KEY,
    KEY_ROW,
    KEY_SIZE,
    LABEL_HEIGHT,
    LABEL_SIZE,
    MARGIN,
    PANEL,
    RADIUS,
    SCALE,
    SEA_FILL,
    SPECIAL_MARK,
    TERRITORY_FILL,
    TERRITORY_STROKE,
)
from .board_round import draw_round
from .svg_geometry import ET, Box, Point, label_width, num, place_labels, points_text, province_space, regions


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
        draw_round(tokens, state, report, centre, space, labels)
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
                ET.SubElement(shown, "text", {"x": num(x), "y": str(height + KEY_ROW * (row + 1))}).text = text
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
                    "points": points_text(poly),
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
                    "x1": num(centre[a][0]),
                    "y1": num(centre[a][1]),
                    "x2": num(centre[b][0]),
                    "y2": num(centre[b][1]),
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
                "cx": num(x),
                "cy": num(y),
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
            "cx": num(x),
            "cy": num(y),
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
                "x": num(x - 5),
                "y": num(y - RADIUS - 6),
                "width": "10",
                "height": "8",
                "fill": "#222",
                "class": "capital",
            },
        )
    lx, ly, anchor = label
    ET.SubElement(
        g, "text", {"x": num(lx), "y": num(ly), "font-size": str(LABEL_SIZE), "text-anchor": anchor, "class": "label"}
    ).text = p.id
    colour = "#f4ecd8" if scorched else "#000"
    if control:
        ET.SubElement(
            g,
            "text",
            {
                "x": num(x),
                "y": num(y - 3),
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
        {"x": num(x), "y": num(cy), "font-size": "10", "text-anchor": "middle", "fill": colour, "class": "control"},
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
                "x": num(x + RADIUS - 2),
                "y": num(y - RADIUS + 6),
                "font-size": "13",
                "fill": "#000",
                "class": f"special {special.kind}",
            },
        ).text = mark


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
        attrs = {"x": num(x + indent), "y": num(y)}
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
        line = {"x1": num(x), "y1": num(y), "x2": num(x + 40), "y2": num(y), "stroke": "#222", "stroke-width": str(w)}
        if dash:
            line["stroke-dasharray"] = dash
        ET.SubElement(key, "line", line)
        ET.SubElement(key, "text", {"x": num(x + 46), "y": num(y + 4)}).text = f"{kind} attack"
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
