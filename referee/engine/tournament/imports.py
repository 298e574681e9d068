"""Imports: the CSV files an organiser gives (players, a seating made by hand, clan preferences), read from
text. Pure: each takes the file's text and the name to call it by, and returns plain rows or raises a
``TournamentError`` naming the file and the row; the command line reads the file and turns the error into
its exit code. (The exports, the other way: ``referee.views.tournament_exports``.)"""

from __future__ import annotations

import csv
import io
from typing import Any

from .events import PLAYER_ID, PlayersRegistered, TournamentError, slug
from .model import Tournament
from .seating import CLANS


def registration(name: str, club: str, pid: str) -> dict[str, Any]:
    """A player's registration as typed: the id given, or made from the name."""
    name = name.strip()
    return {"id": pid.strip() or slug(name), "name": name, "club": club.strip(), "explicit_id": bool(pid.strip())}


def _rows(text: str, where: str = "the file") -> tuple[list[str], Any]:
    reader = csv.DictReader(io.StringIO(text))
    try:
        fields = [f.strip().lower() for f in (reader.fieldnames or [])]
    except csv.Error as exc:
        raise TournamentError(f"{where}: row 1: not a CSV row ({exc})") from None
    return fields, _checked(reader, where)


def _checked(reader: csv.DictReader, where: str) -> Any:
    """The rows of every CSV read here, each refused in one line when the csv module refuses it (a field over its
    128 KiB, a NUL byte) or when a field holds a line break: an unterminated quote swallows the rows after it."""
    while True:
        try:
            raw = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise TournamentError(f"{where}: row {reader.line_num}: not a CSV row ({exc})") from None
        if any(isinstance(v, str) and ("\n" in v or "\r" in v) for v in raw.values()):
            raise TournamentError(
                f'{where}: row {reader.line_num}: a field holds a line break: an unterminated quote (") swallows '
                "the rows after it"
            )
        yield raw


def _row(raw: dict) -> dict[str, str]:
    return {k.strip().lower(): (v or "").strip() for k, v in raw.items() if k is not None}


def players_csv(t: Tournament, text: str, where: str) -> list[dict[str, Any]]:
    """The players of a CSV with name[,club][,id], each checked as the tournament would register it."""
    fields, reader = _rows(text, where)
    if "name" not in fields:
        raise TournamentError(f"{where}: row 1: the header must name a 'name' column (and optionally club, id)")
    unknown = [f for f in fields if f not in ("name", "club", "id")]
    if unknown:
        raise TournamentError(f"{where}: row 1: unknown column(s) {', '.join(unknown)} (name, club, id)")
    regs = []
    trial = Tournament()
    trial.info = t.info
    trial.players = dict(t.players)
    for n, raw in enumerate(reader, 2):
        row = _row(raw)
        if None in raw:
            raise TournamentError(f"{where}: row {n}: more fields than the header has columns")
        if not row.get("name"):
            raise TournamentError(f"{where}: row {n}: no name")
        reg = registration(row["name"], row.get("club", ""), row.get("id", ""))
        if not PLAYER_ID.fullmatch(reg["id"]):
            raise TournamentError(
                f"{where}: row {n}: {reg['id']!r} is not a valid player id (lower-case letters, digits, '-')"
            )
        try:
            trial._PlayersRegistered(PlayersRegistered([reg]))
        except TournamentError as exc:
            raise TournamentError(f"{where}: row {n}: {exc}") from None
        regs.append(reg)
    if not regs:
        raise TournamentError(f"{where}: no players in the file")
    return regs


def seating_csv_rows(text: str, where: str) -> list[tuple[int, int, str, str]]:
    """A seating made by hand: table,seat,player,clan rows."""
    fields, reader = _rows(text, where)
    if not {"table", "seat", "player", "clan"} <= set(fields):
        raise TournamentError(f"{where}: row 1: the header must be table,seat,player,clan")
    rows = []
    for n, raw in enumerate(reader, 2):
        row = _row(raw)
        try:
            rows.append((int(row["table"]), int(row["seat"]), row["player"], row["clan"].lower()))
        except ValueError:
            raise TournamentError(f"{where}: row {n}: table and seat must be numbers") from None
    return rows


def preferences_csv(t: Tournament, text: str, where: str) -> dict[str, list[str]]:
    """Clan preferences: player,clans rows (clans separated by ';', the first preferred)."""
    fields, reader = _rows(text, where)
    if not {"player", "clans"} <= set(fields):
        raise TournamentError(f"{where}: row 1: the header must be player,clans")
    out = {}
    for n, raw in enumerate(reader, 2):
        row = _row(raw)
        try:
            pid = t.player(row["player"]).id
        except TournamentError as exc:
            raise TournamentError(f"{where}: row {n}: {exc}") from None
        clans = [c.strip().lower() for c in row["clans"].split(";") if c.strip()]
        bad = [c for c in clans if c not in CLANS]
        if bad:
            raise TournamentError(f"{where}: row {n}: unknown clan {bad[0]!r} (one of {', '.join(CLANS)})")
        out[pid] = clans
    return out
