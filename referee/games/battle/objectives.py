"""Secret objectives in a Battle for Rokugan log: who may still seal one, the one check of a reveal (or of an
objective declared not met, R-28), and the refusal of a line that would set a sealed objective otherwise. The
fold asks these with what it holds; ``commitment`` keeps the codes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...engine.battle import Board, BoardFact, Clan, GameState, parse_board_line
from ...store.events import ReplayError
from .commitment import matches as opens_commitment
from .lines import Header


def sealable(seat: Clan, rounds_played: int, seals: Mapping[Clan, str], start: GameState, now: GameState) -> Clan:
    """The clan's seat, if it may still seal a secret objective (ReplayError otherwise)."""
    if rounds_played:
        raise ReplayError(f"{seat}: objectives are sealed at setup, before round 1")
    if seat in seals or seat in start.objectives or seat in now.objectives:
        raise ReplayError(f"{seat} already has its objective")
    return seat


def check_reveal(
    seat: Clan,
    objective: str,
    code: str,
    seals: Mapping[Clan, str],
    revealed: Mapping[Clan, str],
    board: Board,
    header: Header,
    start: GameState,
) -> Clan:
    """A secret objective revealed (``objective`` with its reveal ``code``), or declared not met (``objective``
    "", R-28), checked against what the log sealed and revealed: the clan's seat, or ReplayError."""
    if not objective:  # the player declares its sealed objective not met, without revealing it
        if seat not in seals or seat in revealed:
            raise ReplayError(f"{seat}: only an objective still sealed is declared not met (R-28)")
        return seat
    if objective not in board.objectives:
        raise ReplayError(f"{seat}: unknown objective {objective!r}")
    if seat in revealed or seat in start.objectives:
        raise ReplayError(f"{seat} has already revealed its objective")
    if seat in seals:
        if not code:
            raise ReplayError(f"{seat}: its objective is sealed: the reveal code given at sealing is needed")
        if not opens_commitment(seals[seat], header.game, str(seat), objective, code):
            raise ReplayError(f"{seat}: {objective} with code {code!r} does not match the objective sealed at setup")
    return seat


def unsealed_only(lines: Iterable[str], seals: Mapping[Clan, str], board: Board, *, setup: bool = False) -> None:
    """Refuse a table event or setup fact that sets the objective of a clan whose objective is sealed: a
    sealed objective is set only by its reveal, and a declared "not met" is final (R-28)."""
    from ...engine.battle import parse_table_event

    if not seals:
        return
    for n, line in enumerate(lines, 1):
        fact: BoardFact | None
        if setup:
            fact = parse_board_line(line, board, n)
        else:
            event = parse_table_event(line, board, n)
            found = getattr(event, "fact", None)  # a fact entered as a table event
            fact = found if isinstance(found, BoardFact) else None
        if fact is not None and fact.kind == "objective" and fact.clan in seals:
            raise ReplayError(
                f"line {n}: {line!r}: {fact.clan}'s objective is sealed: it is set only by its reveal "
                f"(`referee reveal`), and a declared not met is final (R-28)"
            )
