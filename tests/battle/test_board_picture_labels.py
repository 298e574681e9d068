"""The board picture's labels: no text label or badge covers another, a province's circle, its
capital or special token, or an arrow (a badge may sit only on its own arrow, with the line visible either
side), and every arrow has a visible length: over every round of the bundled games and 200 seeded random
rounds, from the SVG the module writes (boxes computed here from its geometry)."""

from __future__ import annotations

import functools
import json
import math
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.engine import NotationError, parse_entry, resolve
from referee.engine.resolution.placement import check_entries
from referee.log import Fold, parse_jsonl
from referee.views.board_svg import BADGE_H, CELL, COAST, MIN_SHAFT, RADIUS, board_svg, label_width

GAMES = Path(__file__).parents[2] / "referee" / "data" / "games"
S = "{http://www.w3.org/2000/svg}"
KINDS = ["army 1", "army 2", "army 3", "navy 1", "navy 2", "shinobi 1", "raid", "diplomacy", "bluff"]


def folds() -> dict[str, Fold]:
    return {p.stem: Fold.of(parse_jsonl(p.read_text())[0]) for p in sorted(GAMES.glob("*.jsonl"))}


def random_round(state, rng: random.Random) -> list:
    """Up to five tokens a clan, of every kind, on borders, on the sea and in centres: whatever the referee
    accepts (R-08), legal or not (an illegal token is drawn too, faded)."""
    board = state.board
    provinces = sorted(board.provinces)
    entries: list = []
    for clan in state.clans:
        mine = sorted(state.provinces_of(clan)) or provinces
        for _ in range(rng.randint(2, 5)):
            kind = rng.choice(KINDS)
            src = rng.choice(mine if rng.random() < 0.8 else provinces)
            where = rng.random()
            if where < 0.55:
                targets = sorted(p for p in provinces if board.adjacent(src, p))
                place = f"{src} > {rng.choice(targets)}" if targets else f"@ {src}"
            elif where < 0.75:
                coastal = [p for p in provinces if state.is_coastal(p)]
                place = f"sea > {rng.choice(coastal)}"
            else:
                place = f"@ {src}"
            try:
                entry = parse_entry(f"{clan}: {kind} {place}", board)
            except NotationError:  # a place the notation does not allow for this kind
                continue
            if not check_entries(state, [*entries, entry]):
                entries.append(entry)
    return entries


def cases():
    """(name, state before, report) for every recorded round and 200 random ones (seeded)."""
    out = []
    for name, fold in folds().items():
        for played in fold.rounds:
            out.append((f"{name} round {played.round}", played.before, played.report))
    rng = random.Random(24)
    states = [p.before for f in folds().values() for p in f.rounds]
    while len(out) < len(states) + 200:
        state = rng.choice(states)
        entries = random_round(state, rng)
        if not entries:
            continue
        _, report = resolve(state, entries)
        out.append((f"random {len(out) - len(states)}", state, report))
    return out


def _num(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 0.01 and b[0] < a[2] - 0.01 and a[1] < b[3] - 0.01 and b[1] < a[3] - 0.01


def _box_disc(box, x, y, r) -> bool:
    nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return (nx - x) ** 2 + (ny - y) ** 2 < r * r - 0.01


def _box_segment(box, p, q, half) -> bool:
    """A thick segment and a box, sampled every half pixel (none sampled when the segment's own box, widened
    by its half width, misses the box: no sample could touch it)."""
    if (
        max(p[0], q[0]) + half <= box[0]
        or min(p[0], q[0]) - half >= box[2]
        or max(p[1], q[1]) + half <= box[1]
        or min(p[1], q[1]) - half >= box[3]
    ):
        return False
    n = max(2, int(math.dist(p, q) * 2))
    for i in range(n + 1):
        t = i / n
        x, y = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
        if _box_disc(box, x, y, half):
            return True
    return False


def _curve(d: str) -> list[tuple[float, float]]:
    """The points of an arrow's path (M x,y L x,y or M x,y Q cx,cy x,y)."""
    n = _num(d)
    if "Q" not in d:
        return [(n[0], n[1]), (n[2], n[3])]
    (sx, sy), (cx, cy), (ex, ey) = (n[0], n[1]), (n[2], n[3]), (n[4], n[5])
    return [
        ((1 - t) ** 2 * sx + 2 * (1 - t) * t * cx + t * t * ex, (1 - t) ** 2 * sy + 2 * (1 - t) * t * cy + t * t * ey)
        for t in (i / 16 for i in range(17))
    ]


def shapes(svg: str):
    """From the picture: the labels (names and badges, each with the arrow it belongs to), the tokens (circles,
    capitals, special tokens) and the arrows (their paths, width and head)."""
    root = ET.fromstring(svg)
    labels, discs, boxes, arrows = [], [], [], {}
    for g in root.iter(f"{S}g"):
        if g.get("data-territory") is None:
            continue
        for c in g.findall(f"{S}circle"):
            discs.append((g.get("id"), float(c.get("cx")), float(c.get("cy")), float(c.get("r"))))
        for r in g.findall(f"{S}rect"):
            x, y = float(r.get("x")), float(r.get("y"))
            boxes.append((f"capital of {g.get('id')}", (x, y, x + float(r.get("width")), y + float(r.get("height")))))
        for t in g.findall(f"{S}text"):
            x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
            w = label_width(t.text, size)
            x0 = {"middle": x - w / 2, "start": x, "end": x - w}[t.get("text-anchor", "start")]
            box = (x0, y - size - 0.5, x0 + w, y + 0.3 * size)
            if t.get("class") == "label":
                labels.append((f"name {t.text}", box, None))
            elif t.get("class", "").startswith("special"):
                boxes.append((f"special token of {g.get('id')}", box))
    for g in root.iter(f"{S}g"):
        cls = g.get("class", "")
        if cls.startswith("arrow "):
            paths = g.findall(f"{S}path")
            head = _num(g.find(f"{S}polygon").get("points"))
            arrows[g.get("data-arrow")] = (
                g.get("data-entry"),
                _curve(paths[0].get("d")),
                float(paths[0].get("stroke-width")) / 2,
                [(head[i], head[i + 1]) for i in range(0, 6, 2)],
            )
            owner = g.get("data-arrow")
        else:
            owner = None
        for child in g.findall(f"{S}g"):
            rect = child.find(f"{S}rect")
            if rect is None or not any(k in child.get("class", "") for k in ("strength", "token", "outcome")):
                continue
            x, y = float(rect.get("x")), float(rect.get("y"))
            box = (x, y, x + float(rect.get("width")), y + float(rect.get("height")))
            text = "".join(child.itertext())
            w = label_width(text, 10) + 8
            assert box[2] - box[0] >= w - 0.1 and abs(box[3] - box[1] - BADGE_H) < 0.01, (
                f"badge {text!r} smaller than its text"
            )
            labels.append((f"badge {text} ({child.get('data-entry') or child.get('data-province') or ''})", box, owner))
    return labels, discs, boxes, arrows


CASES = cases()


@functools.cache
def case_shapes(case: int):
    name, state, report = CASES[case]
    svg = board_svg(state, report)
    return name, svg, shapes(svg)


@pytest.mark.parametrize("case", range(len(CASES)), ids=[c[0] for c in CASES])
def test_no_label_covers_another_a_token_or_an_arrow(case):
    name, svg, (labels, discs, boxes, arrows) = case_shapes(case)
    assert len(arrows) == sum(1 for g in re.findall(r'class="arrow ', svg))
    for i, (a, box, owner) in enumerate(labels):
        for b, other, _ in labels[i + 1 :]:
            assert not _overlap(box, other), f"{name}: {a} overlaps {b}"
        for pid, x, y, r in discs:
            assert not _box_disc(box, x, y, r), f"{name}: {a} covers the circle of {pid}"
        for what, other in boxes:
            assert not _overlap(box, other), f"{name}: {a} covers the {what}"
        for number, (entry, points, half, head) in arrows.items():
            if number == owner:
                continue  # a strength badge on its own arrow: its visible length is checked below
            xs, ys = [p[0] for p in head], [p[1] for p in head]
            assert not _overlap(box, (min(xs), min(ys), max(xs), max(ys))), f"{name}: {a} covers the head of {entry}"
            for p, q in zip(points, points[1:], strict=False):
                assert not _box_segment(box, p, q, half), f"{name}: {a} covers the arrow {entry}"


@pytest.mark.parametrize("case", range(len(CASES)), ids=[c[0] for c in CASES])
def test_every_arrow_has_a_visible_length(case):
    """The line from an arrow's start to its head, outside every province's circle and its own badge, is at
    least MIN_SHAFT long (the issue's stub arrow: a navy from the sea under an outcome badge)."""
    name, _, (labels, discs, _, arrows) = case_shapes(case)
    for number, (entry, points, _, _) in arrows.items():
        badge = [box for _, box, owner in labels if owner == number]
        visible = 0.0
        for p, q in zip(points, points[1:], strict=False):
            n = max(2, int(math.dist(p, q)))
            for i in range(n):
                t = (i + 0.5) / n
                x, y = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
                covered = any(math.dist((x, y), (cx, cy)) < r for _, cx, cy, r in discs) or any(
                    b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in badge
                )
                visible += 0 if covered else math.dist(p, q) / n
        assert visible >= MIN_SHAFT - 0.5, f"{name}: the arrow {entry} shows {visible:.0f} px of line"


def test_the_issue_example_navy_under_an_outcome_badge():
    """Issue 24: `navy 1 sea > neutral_mainland_northeast` sat under the "held by Cb" badge and its arrow was a
    stub. Drawn again, and every navy from the sea of the cases: a long arrow from open water, no badge on it."""
    five = folds()["five-player"].played(5).before
    assert str(five.controller("neutral_mainland_northeast")) == "crab"
    entries = [
        parse_entry(line, five.board)
        for line in ("crane: navy 1 sea > neutral_mainland_northeast", "crab: army 2 @ neutral_mainland_northeast")
    ]
    _, issue = resolve(five, entries)
    assert "held by Cb" in board_svg(five, issue)
    found = 0
    for name, state, report in [("the issue's round", five, issue), *CASES]:
        labels, discs, _, arrows = shapes(board_svg(state, report))
        for number, (entry, points, half, _) in arrows.items():
            if " sea > " not in entry:
                continue
            found += 1
            assert math.dist(points[0], points[-1]) >= MIN_SHAFT + 10, f"{name}: {entry} is a stub"
            assert all(math.dist(points[0], (x, y)) > CELL for _, x, y, _ in discs), f"{name}: {entry} not from the sea"
            for label, box, owner in labels:
                assert owner == number or not _box_segment(box, points[0], points[-1], half), (name, label, entry)
    assert found >= 10


def test_the_bundled_games_are_all_covered():
    recorded = sum(json.loads(line)["type"] == "RoundResolved" for p in GAMES.glob("*.jsonl") for line in p.open())
    assert recorded == sum(1 for c in CASES if not c[0].startswith("random")) and len(CASES) == recorded + 200
    assert COAST > RADIUS
