"""Commands that need no stored game: adjudicate (one round from files) and casebook (the conformance cases)."""

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from ..games import kinds
from .common import JsonOpt, read_input

commands = typer.Typer()


class Game(StrEnum):  # the games whose casebooks run, by their kinds' names
    ALL = "all"
    BFR = kinds.BATTLE.name
    CCG = kinds.CCG.name
    CHAMPIONS = kinds.CHAMPIONS.name


CASEBOOK = Path(__file__).parent.parent / "data" / "casebook"  # the project's own casebook, shipped as package data
# The other games' casebooks: a folder of the casebook each, run by its module's load_cases(folder) and
# run_case(case) (-> the problems found). Battle for Rokugan's cases are the casebook's top-level files.
GAME_CASEBOOKS = {Game.CCG: "referee.games.ccg.casebook", Game.CHAMPIONS: "referee.games.champions.casebook"}


@commands.command()
def adjudicate(
    sheet: Annotated[Path, typer.Argument(help="The round's revealed tokens in the round notation ('-' for stdin).")],
    board: Annotated[
        Path, typer.Option("--board", "-b", help="The board before the round, one fact a line (setup notation).")
    ],
    clans: Annotated[str, typer.Option("--clans", "-c", help="Clans in seat order, comma-separated.")],
    round_no: Annotated[
        int | None,
        typer.Option(
            "--round", "-r", min=1, max=5, help="The round being resolved (default: the sheet's 'round: N', or 1)."
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Resolve one round from a board file and a round sheet, without a stored game."""
    from ..engine.battle import (
        apply_board_fact,
        begin_round,
        every_line,
        named_round,
        new_state,
        parse_board_line,
        parse_clan,
        parse_lines,
        parse_round,
        resolve,
        split_round_header,
    )
    from ..games.battle.boarddata import load_board
    from . import render

    header, text = split_round_header(read_input(sheet))
    round_no = named_round(round_no, header, str(sheet)) or 1
    b = load_board()
    seats = tuple(parse_clan(c, clans) for c in clans.split(",") if c.strip())
    state = new_state(b, seats, round=round_no)
    for fact in every_line(parse_lines(read_input(board)), lambda line, n: parse_board_line(line, b, n)):
        state = apply_board_fact(state, fact)
    state = begin_round(state)
    entries = parse_round(text, b)
    new, report = resolve(state, entries)
    render.round_report(report, new, json_out=json_out)


@commands.command()
def casebook(
    directory: Annotated[
        Path,
        typer.Argument(help="A directory of casebook TOML files.", show_default="the project's own, shipped with it"),
    ] = CASEBOOK,
    case_filter: Annotated[str | None, typer.Option("--case", "-k", help="Only cases whose id contains this.")] = None,
    game: Annotated[
        Game,
        typer.Option(
            "--game",
            help="Which game's cases: Battle for Rokugan's (the directory's *.toml), the card game's (its "
            "l5r-ccg/ folder), Champions of Rokugan's (its champions/ folder), or all.",
        ),
    ] = Game.ALL,
    json_out: JsonOpt = False,
) -> None:
    """Run a conformance casebook and report each case (exit 1 when any case fails, or none is selected)."""
    from . import render

    if not directory.is_dir():
        raise RefereeError(f"{directory}: not a directory of casebook files")
    import importlib

    runs: list = []  # (case, how to run it)
    if directory.name in {g.value for g in GAME_CASEBOOKS}:
        folders = {Game(directory.name): directory}  # one game's own folder, named directly
    else:
        folders = {g: directory / g.value for g in GAME_CASEBOOKS if game in (Game.ALL, g)}
        if game in (Game.ALL, Game.BFR):
            from ..games.battle.boarddata import load_board
            from ..games.battle.casebook import load_cases, run_case

            board = None
            for case in load_cases(directory):
                if board is None:
                    board = load_board()
                runs.append((case, lambda c, b=board: run_case(c, b)))
    for g, folder in folders.items():
        if folder.is_dir():
            module = importlib.import_module(GAME_CASEBOOKS[g])
            runs.extend((case, module.run_case) for case in module.load_cases(folder))
    everything = len(runs)
    runs = [(c, run) for c, run in runs if not case_filter or case_filter in str(c.id)]
    if not runs:
        which = f"no case id contains {case_filter!r}" if case_filter else "no case"
        raise RefereeError(
            f"{directory}: {which} (of {everything} cases)",
            hint="-k selects the cases whose id contains the text; it is case-sensitive",
        )
    results = [(c, _run_case(run, c)) for c, run in runs]
    render.casebook(results, json_out=json_out)
    if any(problems for _, problems in results):
        raise typer.Exit(1)


def _run_case(run_case, case) -> list[str]:
    """A case whose board or entries the notation refuses fails as a case; the others still run."""
    try:
        return run_case(case)
    except RefereeError as exc:
        return [f"cannot be run: {exc}"]
