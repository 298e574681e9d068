"""`referee retract`: take back the last recorded event, as a new event; the log keeps both."""

from typing import Annotated

import typer

from .common import DbOpt, GameArg, open_store

commands = typer.Typer()


@commands.command()
def retract(
    game: GameArg,
    reason: Annotated[
        str, typer.Option("--reason", help="Why the event is taken back (a typing mistake, the judge's ruling).")
    ],
    db: DbOpt = None,
) -> None:
    """Take back the last recorded event of any kind (a table event, a setup fact, a round not yet followed
    by another) as a new event, and say what to change on the physical board now."""
    from ..engine.battle import board_changes
    from ..games.battle.amend import describe
    from ..games.battle.service import OpenGame
    from . import render

    with open_store(db) as store:
        log = OpenGame(store, game)
        before = log.state
        event, target = log.retract(reason)
    render.console.print(f"retracted event {target.seq}: {render.markup(describe(target))}")
    render.console.print(f"reason: {render.markup(event.data['reason'])}")
    render.board_changes(board_changes(before, log.state), event.seal)
