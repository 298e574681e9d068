"""The organiser's notices to the venue pages (post a round's seating, the round clock, announcements) and
`referee tournament publish`, the pages as a static site."""

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from ..core.shown import plain
from .common import DbOpt, open_store
from .tournament import TidArg, tapp


def _tournament(store, tid: str):
    """The tournament, of either kind: one seated at tables, or a Swiss tournament (its notices are the same)."""
    from ..engine.tournament.swiss_desk import is_swiss
    from ..tournaments.service import fold, read_events

    events = read_events(store, tid)
    if is_swiss(events[0].type):
        from ..tournaments.swiss import fold as swiss_fold

        return swiss_fold(events)
    return fold(events)


@tapp.command("post")
def post(
    tid: TidArg,
    round_no: Annotated[
        int, typer.Argument(help="The round whose seating (a Swiss tournament: pairing) the pages show.", min=0)
    ],
    db: DbOpt = None,
) -> None:
    """Post a round's seating (a Swiss round's pairing) on the venue pages, with the rounds before it; until
    then it stays hidden there; 0 hides every round."""
    from ..engine.tournament.swiss_desk import SwissTournament
    from ..tournaments import venue

    with open_store(db) as store:
        t = _tournament(store, tid)
        swiss = isinstance(t, SwissTournament)
        if round_no and round_no not in (t.rounds if swiss else t.seatings):
            raise RefereeError(
                f"tournament {tid!r}, round {round_no}: not {'paired' if swiss else 'seated'}, nothing to post",
                hint=f"referee tournament swiss pair {tid}" if swiss else f"referee tournament seat {tid} {round_no}",
            )
        venue.record(store, tid, "post", str(round_no))
    what = "pairing" if swiss else "seating"
    _say(f"{tid}: the {what} of round {round_no} is on the pages" if round_no else f"{tid}: no {what} on the pages")


@tapp.command("clock")
def clock(
    tid: TidArg,
    minutes: Annotated[
        int | None, typer.Option("--minutes", "-m", min=1, max=24 * 60, help="The round ends in this many minutes.")
    ] = None,
    ends: Annotated[
        str | None, typer.Option("--ends", help="The round ends at this local time (HH:MM, today).")
    ] = None,
    stop: Annotated[bool, typer.Option("--stop", help="Take the clock off the pages.")] = False,
    db: DbOpt = None,
) -> None:
    """Set the round clock the pages show (with the minutes left)."""
    from ..tournaments import venue

    if sum(x is not None and x is not False for x in (minutes, ends, stop or None)) != 1:
        raise typer.BadParameter(
            "give one of --minutes N, --ends HH:MM or --stop", param_hint="--minutes/--ends/--stop"
        )
    if stop:
        value = ""
    elif minutes is not None:
        value = (datetime.now(UTC) + timedelta(minutes=minutes)).isoformat(timespec="seconds")
    else:
        assert ends is not None, "exactly one of --minutes, --ends and --stop is given"
        try:
            hh, mm = (int(x) for x in ends.split(":"))
            local = datetime.now().astimezone().replace(hour=hh, minute=mm, second=0, microsecond=0)
        except ValueError:
            raise typer.BadParameter(f"{ends!r}: expected HH:MM", param_hint="--ends") from None
        value = local.astimezone(UTC).isoformat(timespec="seconds")
    with open_store(db) as store:
        _tournament(store, tid)
        venue.record(store, tid, "clock", value)
    _say(
        f"{tid}: clock stopped"
        if not value
        else f"{tid}: the round ends at {datetime.fromisoformat(value).astimezone().strftime('%H:%M')}"
    )


@tapp.command("announce")
def announce(
    tid: TidArg,
    text: Annotated[
        str | None,
        typer.Argument(help="The announcement, shown on every page of the tournament.", show_default=False),
    ] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Take every announcement off the pages.")] = False,
    db: DbOpt = None,
) -> None:
    """Show an announcement on the tournament's pages and the projector."""
    from ..tournaments import venue

    if (text is None or not text.strip()) == (not clear):
        raise typer.BadParameter("give the announcement's text, or --clear", param_hint="TEXT")
    if text and len(text) > 500:
        raise typer.BadParameter(f"{len(text)} characters: an announcement is at most 500", param_hint="TEXT")
    if text and "\x00" in text:  # no database text field holds one (PostgreSQL refuses it)
        raise typer.BadParameter("the text holds a NUL character", param_hint="TEXT")
    with open_store(db) as store:
        _tournament(store, tid)
        words = "" if clear or text is None else text.strip()  # without --clear, the text is given
        venue.record(store, tid, "clear" if clear else "announce", words)
    _say(f"{tid}: announcements cleared" if clear else f"{tid}: announced")


@tapp.command("publish")
def publish(
    tid: TidArg,
    directory: Annotated[
        Path, typer.Argument(help="The folder to write the site into (created if missing).", show_default=False)
    ],
    url: Annotated[
        str, typer.Option(help="The address the site will have (printed with its QR code on the seating sheets).")
    ] = "",
    db: DbOpt = None,
) -> None:
    """Write the tournament's pages as a static site (no server needed: any web host, or file://)."""
    from .publish import publish_site

    with open_store(db) as store:
        written = publish_site(store, tid, directory, url=url)
    _say(f"{tid}: {written} files written to {directory}" + (f" (for {url})" if url else ""))


def _say(line: str) -> None:
    """A line for the terminal: the ids, paths and addresses a user gave are shown with their control
    characters made visible (``plain``), as every other command shows them."""
    print(plain(line))
