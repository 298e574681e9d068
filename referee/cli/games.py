"""Commands that play a stored game: new, games, show, setup, round, board, score, demo."""

from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from ..core.shown import plain
from .common import AsRecorded, DbOpt, GameArg, JsonOpt, SheetArg, open_store, read_input, write_output

commands = typer.Typer()


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
            if not eq or not clan.strip():
                raise typer.BadParameter(f"{item!r}: expected CLAN=NAME", param_hint="--players")
            players[clan.strip()] = name.strip()
    return players


@commands.command()
def new(
    game: GameArg,
    clans: Annotated[str, typer.Option("--clans", "-c", help="Clans in seat order (clockwise), comma-separated.")],
    players: Annotated[str | None, typer.Option(help="Player names: crab=Ann,lion=Bo.")] = None,
    event: Annotated[str, typer.Option(help="The event's name.")] = "",
    table: Annotated[str, typer.Option(help="The table.")] = "",
    date: Annotated[str, typer.Option(help="The date played (YYYY-MM-DD).")] = "",
    option: Annotated[
        list[str],
        typer.Option(
            "--option",
            "-o",
            help="A rules option NAME=VALUE, as listed with its ruling by `referee rules` (referee/data/rulings.md); "
            "repeatable.",
        ),
    ] = [],  # noqa: B006 (Typer's default for a repeatable option; never mutated)
    partial_setup: Annotated[
        bool,
        typer.Option(
            "--partial-setup", help="A game taken over mid-way: round 1 is not held to the rulebook's setup (p.4)."
        ),
    ] = False,
    db: DbOpt = None,
) -> None:
    """Start a game: clans in seat order; each capital gets its clan's first control token (p.4 step 6)."""
    from ..engine.battle import RulesOptions, parse_clan
    from . import render
    from .checks import calendar_date, new_game_id

    new_game_id(game)
    date = calendar_date(date)
    seats = [str(parse_clan(c, clans)) for c in clans.split(",") if c.strip()]
    options = parse_options(option)
    try:
        RulesOptions.from_dict(options)
    except ValueError as exc:  # checked before the database is opened, let alone made
        raise RefereeError(f"game {game!r}: {exc}") from None
    with open_store(db, create=True) as store:
        state = create_game(
            store,
            game,
            seats,
            players=parse_players(players),
            event=event,
            table=table,
            date=date,
            options=options,
            partial_setup=partial_setup,
        )
    render.game_created(game, state, store.where, partial_setup=partial_setup)


def capital_lines(seats) -> list[str]:
    """p.4 step 6: each clan's first control token, facedown in its capital (canonical setup lines)."""
    from ..engine.battle import Clan
    from ..games.battle.boarddata import load_board

    board = load_board()
    return [f"{c}: control 1 facedown @ {board.clans[Clan(c)].capital}" for c in seats]


def create_game(store, game: str, seats, **header):
    """Record a new game and populate its capitals: the one way a game is started."""
    from ..games.battle.fold import Fold
    from ..games.battle.service import new_game

    return Fold.of(new_game(store, game, seats, setup=capital_lines(seats), **header)).state


@commands.command("games")
def list_games(db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """List the games in the database."""
    from ..views.data import games_status
    from . import render

    with open_store(db) as store:
        infos = store.games()
        status = games_status(store.stream())
    render.games(infos, status, json_out=json_out, where=store.where)


@commands.command()
def show(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """A game's header, rounds played and seal codes; whether the organiser signed its record."""
    from ..games.battle.fold import Fold
    from ..records.signing import check_stored
    from . import render

    with open_store(db) as store:
        events = store.events(game)
        signed = check_stored(store, "game", events, None).status
    render.game_summary(Fold.of(events), events, json_out=json_out)
    if not json_out:
        typer.echo(plain(f"organiser's signature: {signed}"))  # a lost key's reason: the organiser's text


@commands.command()
def setup(game: GameArg, sheet: SheetArg, db: DbOpt = None) -> None:
    """Record the setup, one line each in the order it was done: board facts (control tokens, cards,
    objectives) and the setup steps (`setup: tokens`, `initiative: <clan>`, `<clan>: starts @ <province>`)."""
    from ..games.battle.setupfile import read_setup_file
    from ..games.battle.table_lines import apply_table_lines
    from . import render

    text = read_input(sheet)
    with open_store(db) as store:
        log = _open_game(store, game)
        if log.state.round > 1:
            raise RefereeError(
                f"game {game!r}: setup is over, round {log.state.round - 1} was played; record a correction instead"
            )
        fold = log.fold
        lines = read_setup_file(text, fold.board, facts_first=not fold.pending)
        if lines.facts and lines.events:  # the table events checked on the board the facts make, before either
            apply_table_lines(fold.setup_board([*fold.setup_lines, *lines.facts]), lines.events, fold.board)
        state = log.state
        if lines.facts or not lines.events:
            _, state = log.record_setup(lines.facts)
        if lines.events:
            recorded, state, notes = log.record_table_events(lines.events)
            render.table_notes(state.round, recorded.data["lines"], notes, recorded.seal)
    render.board_view(state)


@commands.command("round")
def round_command(
    game: GameArg,
    sheet: Annotated[
        Path | None,
        typer.Argument(
            help="The round sheet, or '-' for standard input; omit to type the tokens one by one.", show_default=False
        ),
    ] = None,
    round_no: Annotated[
        int | None,
        typer.Option(
            "--round",
            "-r",
            min=1,
            max=5,
            help="The round the sheet is for (R-27); a sheet may also start with 'round: N'.",
            show_default=False,
        ),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Resolve without asking to confirm the entry.")] = False,
    no_tokens: Annotated[
        bool,
        typer.Option(
            "--no-tokens",
            help="The round had no tokens on purpose: record it with an empty sheet (refused without this).",
        ),
    ] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Enter a round's revealed tokens, confirm them, resolve the round and print the report.

    The same sheet entered again for a recorded round records nothing and shows its seal (R-27). A sheet
    with no token is refused unless --no-tokens says the round had none on purpose."""
    from .round_entry import play

    with open_store(db) as store:
        play(store, game, sheet, round_no, yes, json_out, no_tokens)


def _open_game(store, game: str):
    from ..games.battle.service import OpenGame

    log = OpenGame(store, game)
    log.check_open()  # the one game-over guard
    return log


@commands.command()
def board(
    game: GameArg,
    round_no: Annotated[
        int | None, typer.Option("--round", "-r", min=0, max=5, help="The board after this round (0: after setup).")
    ] = None,
    svg: Annotated[Path | None, typer.Option(help="Also write the board as an SVG picture to this file.")] = None,
    as_recorded: AsRecorded = False,
    tokens: Annotated[
        bool,
        typer.Option(
            "--tokens",
            help="With --round N and --svg: draw round N's revealed tokens on the board they were placed on.",
        ),
    ] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The board by territory (control, faceup tokens, special tokens, cards), and as a picture. With --round N:
    the board after round N as corrected (the corrections named), or --as-recorded as first recorded."""
    from ..games.battle.fold import Fold
    from ..games.battle.replay import board_after
    from ..views.board_svg import board_svg
    from . import render

    with open_store(db) as store:
        events = store.events(game)
    fold = Fold.of(events)
    last = fold.state.round - 1
    if round_no is not None and round_no > last:
        raise RefereeError(f"game {game!r}: round {round_no} has not been played (last: {last})")
    if as_recorded and round_no is None:
        raise typer.BadParameter("--as-recorded shows a played round: give --round N", param_hint="--as-recorded")
    after = None if round_no is None else board_after(events, round_no, as_recorded=as_recorded)
    state = fold.state if after is None else after.state
    if tokens and (round_no is None or round_no < 1 or svg is None):
        raise typer.BadParameter(
            "--tokens draws a played round: give --round N (1-5) and --svg FILE", param_hint="--tokens"
        )
    if svg is not None:
        played = after.played if tokens and after is not None else None  # --tokens needs --round
        write_output(svg, board_svg(played.before, played.report) if played else board_svg(state))
    render.board_view(state, json_out=json_out, note=after.note() if after is not None else "")
    if svg is not None and not json_out:
        render.console.print(f"picture written to {render.markup(svg)}")


@commands.command()
def score(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Honor per player, line by line, each objective with why it is met or not; the winner and the tie-break
    (R-24, R-25) once the game is complete, until then a provisional score with no winner (R-28)."""
    from ..games.battle.fold import Fold, game_score
    from . import render

    with open_store(db) as store:
        fold = Fold.of(store.events(game))
    render.final_score(game_score(fold), json_out=json_out)


@commands.command()
def demo(
    db: DbOpt = None,
    name: Annotated[
        str, typer.Option(help="Which bundled game: two-player, four-player or five-player.")
    ] = "five-player",
) -> None:
    """Play a bundled, complete game round by round into the database and print the final honor."""
    from ..games.battle.events import EventType
    from ..games.battle.fold import game_score
    from ..games.battle.records import golden
    from ..games.battle.service import OpenGame, recorded_header
    from . import render

    events = golden(name)
    header = events[0].data
    with open_store(db, create=True) as store:
        game = _free_id(store, f"demo-{name}")
        create_game(store, game, header["clans"], **recorded_header(header))
        capitals = set(capital_lines(header["clans"]))
        render.console.print(
            f"[bold]{game}[/bold]: {', '.join(header['clans'])} — recorded in {render.markup(store.where)}"
        )
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
    render.final_score(game_score(log.fold))
    render.console.print(f"replay it with: referee replay {game}    check it with: referee verify {game}")


def _free_id(store, base: str) -> str:
    n = 1
    while store.exists(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


SEAL_TRIES = 3


@commands.command()
def seal(
    game: GameArg,
    clan: Annotated[str, typer.Argument(help="The clan whose player seals a secret objective.", show_default=False)],
    db: DbOpt = None,
) -> None:
    """At setup: the player types its secret objective unseen; the log keeps only a commitment, and the
    player keeps the reveal code. Nobody, the moderator included, can change the objective later."""
    from ..engine.battle import NotationError, parse_clan, resolve_name
    from ..games.battle.commitment import new_code
    from ..games.battle.service import OpenGame
    from . import render

    seat = str(parse_clan(clan, clan))
    with open_store(db) as store:
        log = OpenGame(store, game)
        log.check_seal(seat)  # before the player types anything
        names = {o: o for o in log.fold.board.objectives}
        for _ in range(SEAL_TRIES):  # the screen is public: what was typed is never shown, nor any name suggested
            typed = typer.prompt(f"{seat}: your secret objective (not shown)", hide_input=True)
            try:
                objective = resolve_name(typed, names, "objective", typed)
                break
            except NotationError:
                render.console.print("not one of the objectives (nothing typed is shown); type it again")
        else:
            raise RefereeError(f"game {game!r}, {seat}: no objective sealed after {SEAL_TRIES} tries; nothing recorded")
        code = new_code()
        log.seal_objective(seat, objective, code)
    render.reveal_code(seat, code)


@commands.command()
def reveal(
    game: GameArg,
    clan: Annotated[str, typer.Argument(help="The clan revealing its objective.", show_default=False)],
    objective: Annotated[str, typer.Argument(help="The objective's id (prefixes work).", show_default=False)] = "",
    code: Annotated[str, typer.Argument(help="The reveal code given at sealing; omit if it was never sealed.")] = "",
    not_met: Annotated[
        bool, typer.Option("--not-met", help="The player declares its sealed objective not met, without revealing it.")
    ] = False,
    db: DbOpt = None,
) -> None:
    """At the end of the game: reveal a clan's secret objective (checked against its seal) for scoring, or
    declare it not met (--not-met, R-28)."""
    from ..engine.battle import parse_clan
    from ..games.battle.service import OpenGame, typed_reveal
    from . import render

    seat = str(parse_clan(clan, clan))
    if not_met == bool(objective):
        raise typer.BadParameter("name the objective revealed, or declare it --not-met (not both)")
    with open_store(db) as store:
        log = OpenGame(store, game)
        board = log.fold.board
        if not_met:
            log.reveal_objective(seat, "", "")
            render.console.print(f"{seat} declares its sealed objective not met (R-28): it scores nothing")
        else:
            seat, name = typed_reveal(board, clan, objective)
            log.reveal_objective(seat, name, code)
            facts = board.objectives[name]
            render.console.print(f"{seat} reveals {facts.name} ({facts.honor} honor if met)")
        _print_result_if_closed(log, game)


def _print_result_if_closed(log, game: str) -> None:
    """The step that completes the game closes its log (GameEnded): say so, with the record's result line."""
    from ..games.battle.ending import result_line
    from ..games.battle.fold import game_score

    if log.ended is not None:
        typer.echo(f"game {game!r} is finished: {result_line(game_score(log.fold))}")


@commands.command()
def event(
    game: GameArg,
    lines: Annotated[
        list[str] | None,
        typer.Argument(
            help="Table events, one an argument (omit to read them from standard input).", show_default=False
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Record table events of the round under way: setup steps, initiative, upkeep and placement cards.

    Each is checked against the rules and applied (R-22); one refused event refuses them all."""
    from ..games.battle.service import OpenGame
    from . import render

    text = "\n".join(lines) if lines else read_input(Path("-"))
    with open_store(db) as store:
        recorded, state, notes = OpenGame(store, game).record_table_events(text)
    render.table_notes(state.round, recorded.data["lines"], notes, recorded.seal)
