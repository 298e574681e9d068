"""Pages as HTML: the Jinja2 templates shipped with the package (autoescaped: everything a player typed
is shown as text), shared by the web app and the HTML game record."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

HYPHENATED = re.compile(r"(\S*\w-\w\S*)")  # a record 3-1-0, a ruling C-10, a date 2026-12-05, a name Jean-Luc


def whole(text: object) -> Markup:
    """Prose that wraps between words but never inside a word joined by hyphens (a record ``(3-1-0)`` broken as
    ``(3-`` / ``1-0)`` reads as two numbers): each such word held on one line, the rest escaped as usual."""
    parts = HYPHENATED.split(str(text))
    return Markup("").join(
        Markup('<span class="nowrap">%s</span>') % part if i % 2 else escape(part) for i, part in enumerate(parts)
    )


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("referee.views", "templates"),
        autoescape=select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["svg"] = lambda text: Markup(text)  # produced by board_svg, which escapes every text it writes
    env.filters["whole"] = whole
    from .board_marks import CLAN_INITIAL

    env.filters["initial"] = lambda clan: CLAN_INITIAL.get(str(clan), str(clan)[:1].upper())  # Cb crab, Cn crane
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


def game_record(events: Sequence, signed: str = "") -> str:
    """The whole game as one self-contained HTML file: no script, no request to any other address, every
    round's board with its tokens, its report and seal, the final honor and the result line; printable
    on A4, one round a page. ``signed``: the organiser's signature, as `verify` states it."""
    from .game import game_page

    return render("record.html", g=game_page(events, pictures="all"), web=False, signed=signed)


def links_sheet(page: dict) -> str:
    """The printed seating of a round by table (``views.tournament.links_sheet``), with each seat's phone link
    and QR code when they were issued: one self-contained file, printable on A4, one slip a table."""
    return render("links_sheet.html", p=page, tp=page, web=False)
