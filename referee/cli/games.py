"""Commands that play a stored game: new, games, show, setup, round, board, score, demo."""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..engine.errors import RefereeError
from .app import DbOpt, GameArg, JsonOpt, app, read_input, write_output

SheetArg = Annotated[Path, typer.Argument(help="A file in the notation, or '-' for standard input.", show_default=False)]


def open_store(db: str | None):
    from ..log import Store

    return Store(db)


def parse_options(values: list[str]) -> dict[str, str]:
    options = {}
    for item in values:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise typer.BadParameter(f"{item!r}: expected NAME=VALUE", param_hint="--option")
        options[name.strip()] = value.strip()
    return options


def parse_players(text: str | None) -> dict[str, str]:
    players = {}
    for item in (text or "").split(","):
        if item.strip():
            clan, eq, name = item.partition("=")
            if not eq:
                raise typer.BadParameter(f"{item!r}: expected CLAN=NAME", param_hint="--players")
            players[clan.strip()] = name.strip()
    return players


@app.command()
def new(
    game: GameArg,
    clans: Annotated[str, typer.Option("--clans", "-c", help="Clans in seat order (clockwise), comma-separated.")],
    players: Annotated[Optional[str], typer.Option(help="Player names: crab=Ann,lion=Bo.")] = None,
    event: Annotated[str, typer.Option(help="The event's name.")] = "",
    table: Annotated[str, typer.Option(help="The table.")] = "",
    date: Annotated[str, typer.Option(help="The date played (YYYY-MM-DD).")] = "",
    option: Annotated[list[str], typer.Option("--option", "-o", help="A rules option NAME=VALUE (RULINGS.md); repeatable.")] = [],
    db: DbOpt = None,
) -> None:
    """Start a game: clans in seat order; each capital gets its clan's first control token (p.4 step 6)."""
    from ..engine.notation import parse_clan
    from . import render

    seats = [str(parse_clan(c, clans)) for c in clans.split(",") if c.strip()]
    with open_store(db) as store:
        state = create_game(store, game, seats, players=parse_players(players), event=event, table=table, date=date,
                            options=parse_options(option))
    render.game_created(game, state, store.where)


def capital_lines(seats) -> list[str]:
    """p.4 step 6: each clan's first control token, facedown in its capital (canonical setup lines)."""
    from ..boarddata import load_board
    from ..engine import Clan

    board = load_board()
    return [f"{c}: control 1 facedown @ {board.clans[Clan(c)].capital}" for c in seats]


def create_game(store, game: str, seats, **header):
    """Record a new game and populate its capitals: the one way a game is started."""
    from ..log import Fold, new_game

    return Fold.of(new_game(store, game, seats, setup=capital_lines(seats), **header)).state


@app.command("games")
def list_games(db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """List the games in the database."""
    from . import render

    with open_store(db) as store:
        render.games(store.games(), json_out=json_out)


@app.command()
def show(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """A game's header, rounds played and seal codes."""
    from ..log import Fold
    from . import render

    with open_store(db) as store:
        events = store.events(game)
    render.game_summary(Fold.of(events), events, json_out=json_out)


@app.command()
def setup(game: GameArg, sheet: SheetArg, db: DbOpt = None) -> None:
    """Record setup facts (starting control tokens, territory cards, objectives), one a line."""
    from ..log import OpenGame
    from . import render

    text = read_input(sheet)
    with open_store(db) as store:
        log = OpenGame(store, game)
        if log.state.round > 1:
            raise RefereeError(f"game {game!r}: setup is over, round {log.state.round - 1} was played; record a correction instead")
        _, state = log.record_setup(text)
    render.board_view(state)


@app.command("round")
def play_round(
    game: GameArg,
    sheet: Annotated[Optional[Path], typer.Argument(help="The round sheet, or '-' for standard input; omit to type the tokens one by one.", show_default=False)] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Resolve without asking to confirm the entry.")] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Enter a round's revealed tokens, confirm them, resolve the round and print the report."""
    from . import render
    from .entry import confirm_entry, enter_round, read_round

    with open_store(db) as store:
        log = _open_game(store, game)
        text = read_input(sheet) if sheet is not None else enter_round(log.state)
        entries = read_round(log.state, text)
        if not yes and not json_out and sys.stdin.isatty() and not confirm_entry(log.state, entries):
            raise RefereeError(f"game {game!r}, round {log.state.round}: not confirmed; nothing recorded")
        event, state, report = log.record_round(entries)
    render.round_report(report, state, json_out=json_out, seal=event.seal)


def _open_game(store, game: str):
    from ..log import OpenGame

    log = OpenGame(store, game)
    if log.state.round > 5:
        raise RefereeError(f"game {game!r} is over: five rounds were played (p.10)", hint=f"referee score {game}")
    return log


@app.command()
def board(
    game: GameArg,
    round_no: Annotated[Optional[int], typer.Option("--round", "-r", min=0, max=5, help="The board after this round (0: after setup).")] = None,
    svg: Annotated[Optional[Path], typer.Option(help="Also write the board as an SVG picture to this file.")] = None,
    tokens: Annotated[bool, typer.Option("--tokens", help="With --round N and --svg: draw round N's revealed tokens on the board they were placed on.")] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The board by territory (control, faceup tokens, special tokens, cards), and as a picture."""
    from ..log import state_after_round
    from . import render
    from ..views.board_svg import board_svg

    with open_store(db) as store:
        events = store.events(game)
    from ..log import Fold

    fold = Fold.of(events)
    last = fold.state.round - 1
    if round_no is not None and round_no > last:
        raise RefereeError(f"game {game!r}: round {round_no} has not been played (last: {last})")
    state = fold.state if round_no is None else state_after_round(events, round_no)
    if tokens and (round_no is None or round_no < 1 or svg is None):
        raise typer.BadParameter("--tokens draws a played round: give --round N (1-5) and --svg FILE", param_hint="--tokens")
    if svg is not None:
        played = fold.played(round_no) if tokens else None
        write_output(svg, board_svg(played.before, played.report) if played else board_svg(state))
    render.board_view(state, json_out=json_out)
    if svg is not None and not json_out:
        render.console.print(f"picture written to {svg}")


@app.command()
def score(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Final honor per player, line by line, the winner and the tie-break (R-24, R-25)."""
    from ..engine import final_score
    from ..log import Fold
    from . import render

    with open_store(db) as store:
        fold = Fold.of(store.events(game))
    render.final_score(final_score(fold.state), json_out=json_out, provisional=fold.state.round <= 5)


@app.command()
def demo(
    db: DbOpt = None,
    name: Annotated[str, typer.Option(help="Which bundled game: two-player, four-player or five-player.")] = "five-player",
) -> None:
    """Play a bundled, complete game round by round into the database and print the final honor."""
    from ..engine import final_score
    from ..log import EventType, OpenGame, golden
    from . import render

    events = golden(name)
    header = events[0].data
    with open_store(db) as store:
        game = _free_id(store, f"demo-{name}")
        create_game(store, game, header["clans"], players=header["players"], event=header["event"], table=header["table"],
                    date=header["date"], options=header["options"])
        capitals = set(capital_lines(header["clans"]))
        render.console.print(f"[bold]{game}[/bold]: {', '.join(header['clans'])} — recorded in {store.where}")
        log = OpenGame(store, game)
        for e in events[1:]:
            data = e.data
            if e.type == EventType.SETUP_RECORDED:
                lines = [line for line in data["lines"] if line not in capitals]
                if lines:
                    log.record_setup(lines)
            elif e.type == EventType.ROUND_RESOLVED:
                render.entry_echo(data["round"], data["entries"])
                event, state, report = log.record_round(data["entries"])
                render.round_report(report, state, seal=event.seal)
    render.final_score(final_score(log.state))
    render.console.print(f"replay it with: referee replay {game}    check it with: referee verify {game}")


def _free_id(store, base: str) -> str:
    n = 1
    while store.exists(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


@app.command()
def seal(
    game: GameArg,
    clan: Annotated[str, typer.Argument(help="The clan whose player seals a secret objective.", show_default=False)],
    db: DbOpt = None,
) -> None:
    """At setup: the player types its secret objective unseen; the log keeps only a commitment, and the
    player keeps the reveal code. Nobody, the moderator included, can change the objective later."""
    import secrets

    from ..engine.notation import parse_clan, resolve_name
    from ..log import OpenGame
    from . import render

    seat = str(parse_clan(clan, clan))
    with open_store(db) as store:
        log = OpenGame(store, game)
        board = log.fold.board
        typed = typer.prompt(f"{seat}: your secret objective (not shown)", hide_input=True)
        objective = resolve_name(typed, {o: o for o in board.objectives}, "objective", typed)
        code = "-".join(secrets.token_hex(2).upper() for _ in range(2))
        log.seal_objective(seat, objective, code)
    render.console.print(f"{seat}'s objective is sealed. Reveal code: [bold]{code}[/bold] (the player keeps it; it is not stored)")


@app.command()
def reveal(
    game: GameArg,
    clan: Annotated[str, typer.Argument(help="The clan revealing its objective.", show_default=False)],
    objective: Annotated[str, typer.Argument(help="The objective's id (prefixes work).", show_default=False)],
    code: Annotated[str, typer.Argument(help="The reveal code given at sealing; omit if it was never sealed.")] = "",
    db: DbOpt = None,
) -> None:
    """At the end of the game: reveal a clan's secret objective (checked against its seal) for scoring."""
    from ..engine.notation import parse_clan, resolve_name
    from ..log import OpenGame
    from . import render

    seat = str(parse_clan(clan, clan))
    with open_store(db) as store:
        log = OpenGame(store, game)
        board = log.fold.board
        name = resolve_name(objective, {o: o for o in board.objectives}, "objective", objective)
        log.reveal_objective(seat, name, code.strip().upper())
    render.console.print(f"{seat} reveals {board.objectives[name].name} ({board.objectives[name].honor} honor if met)")


@app.command()
def event(
    game: GameArg,
    lines: Annotated[Optional[list[str]], typer.Argument(help="Table events, one an argument (omit to read them from standard input).", show_default=False)] = None,
    db: DbOpt = None,
) -> None:
    """Record table events of the round under way: setup steps, initiative, upkeep and placement cards.

    Each is checked against the rules and applied (R-22); one refused event refuses them all."""
    from ..log import record_table_events
    from . import render

    text = "\n".join(lines) if lines else read_input(Path("-"))
    with open_store(db) as store:
        recorded, state, notes = record_table_events(store, game, text)
    render.table_notes(state.round, recorded.data["lines"], notes, recorded.seal)
