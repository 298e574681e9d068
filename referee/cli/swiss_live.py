"""`referee tournament swiss unpair|swap|reinstate|slips`: the moves of a Swiss event run live. A pairing taken
back before any result (and paired again), two players swapped by hand, a dropped player reinstated: each is an
event with its reason, nothing recorded is changed, and `swiss verify` names each. The match slips: one a
table, printed at A4."""

from pathlib import Path
from typing import Annotated

import typer

from .common import DbOpt, open_store, write_output
from .swiss import MissedOpt, RoundArg, TidArg, _echo, _open, commands, missed_as, rematches, show_round

NeedReasonOpt = Annotated[str, typer.Option("--reason", help="Why (recorded with it; needed).", show_default=False)]


@commands.command()
def unpair(tid: TidArg, round_no: RoundArg, reason: NeedReasonOpt = "", db: DbOpt = None) -> None:
    """Take back the last round's pairing before any result (a player arrived, dropped or was paired wrongly);
    `swiss pair` then pairs it again. The withdrawn pairing stays in the record with its reason."""
    from ..engine.tournament.swiss_desk import SwissPairingWithdrawn

    with open_store(db) as store:
        log = _open(store, tid)
        log.record([SwissPairingWithdrawn(round_no, reason)])
    _echo(f"{tid}: round {round_no}'s pairing withdrawn ({reason.strip()})")
    _echo(f"  pair it again: referee tournament swiss pair {tid}")


@commands.command()
def swap(
    tid: TidArg,
    round_no: RoundArg,
    first: Annotated[str, typer.Argument(help="A player of the round.", show_default=False)],
    second: Annotated[str, typer.Argument(help="Another player of the round (or the bye).", show_default=False)],
    reason: NeedReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Swap two players of the last round by hand, before their tables' results (a judge's call: family members
    paired, a player who must sit at an accessible table): each takes the other's table, or bye."""
    from ..engine.tournament.swiss_desk import SwissPlayersSwapped

    with open_store(db) as store:
        log = _open(store, tid)
        a, b = log.t.player(first), log.t.player(second)
        log.record([SwissPlayersSwapped(round_no, [a, b], reason)])
    t = log.t
    _echo(f"{tid}: round {round_no}: {t.players[a]} and {t.players[b]} swapped by hand ({reason.strip()})")
    show_round(t, round_no, False)
    for line in rematches(t, round_no):
        typer.echo(f"note: {line}", err=True)


@commands.command()
def reinstate(
    tid: TidArg,
    player: Annotated[str, typer.Argument(help="The dropped player.", show_default=False)],
    reason: NeedReasonOpt = "",
    missed: MissedOpt = None,
    db: DbOpt = None,
) -> None:
    """Bring a dropped player back, from the next pairing on (before the cut); the Swiss rounds paired while they
    were out count as a loss or a bye each (--missed, the organiser's choice)."""
    from ..engine.tournament.swiss_desk import SwissPlayerReinstated

    with open_store(db) as store:
        log = _open(store, tid)
        pid = log.t.player(player)
        log.record([SwissPlayerReinstated(pid, reason, missed_as(missed))])
    t = log.t
    gone = [a for a in t.absences if a.player == pid and a.why == "dropped"]
    said = ""
    if gone and gone[-1] is t.absences[-1]:
        a = gone[-1]
        rounds = f"round {a.first}" if a.first == a.last else f"rounds {a.first} to {a.last}"
        said = f"; {rounds} missed, each counted as a {a.missed_as}"
    _echo(f"{tid}: {t.players[pid]} reinstated, from round {len(t.swiss_rounds) + 1}'s pairing on{said}")


@commands.command()
def slips(
    tid: TidArg,
    round_no: Annotated[int | None, typer.Argument(min=1, help="The round (default: the last).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.", show_default=False)] = Path(
        "slips.html"
    ),
    db: DbOpt = None,
) -> None:
    """The round's match slips as a printable page: one slip a table, each on its own A4 page (the players, the
    table, a box for the result and both players' signatures). Print it from a browser."""
    from ..core.errors import RefereeError
    from ..views import site
    from ..views.html import render
    from ..views.links import StaticLinks
    from ..views.swiss import header, slips_page

    with open_store(db) as store:
        t = _open(store, tid).t
    n = round_no or max(t.rounds, default=0)
    if n not in t.rounds:
        raise RefereeError(f"tournament {tid!r}: round {n} has not been paired")
    page = site.swiss_slips(header(t), slips_page(t, n))
    text = render(page.template, web=False, u=StaticLinks(0), **page.context)
    count = len(t.rounds[n].pairs)
    write_output(output, text, f"round {n}'s match slips ({count} slip{'s' if count != 1 else ''}, one an A4 page)")
