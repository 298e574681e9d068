"""A stored game as plain data for pages (the web app, the HTML record) and their JSON twins.

Everything here is public: a secret objective appears only once it is revealed (a sealed one by its
player's code, one recorded at setup once the fifth round is over, p.10); until then the score is
marked provisional and carries no objective line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.battle import ROUNDS, GameState, RoundReport, final_score, format_entry
from ..games.battle.events import EventType
from ..games.battle.fold import Fold, game_score
from ..games.battle.replay import states
from ..store.events import Event
from . import data
from .board_marks import CLAN_INITIAL
from .board_svg import board_svg


def public_state(fold: Fold, state: GameState | None = None) -> GameState:
    """``state`` (default: the board now) with every objective not yet public taken out."""
    state = fold.state if state is None else state
    if not state.objectives:
        return state
    if fold.rounds_over:
        left = set(fold.sealed_left)
        shown = {c: o for c, o in state.objectives.items() if c not in left}
    else:
        shown = {}
    return state.with_(objectives=shown)


def sealed_left(fold: Fold) -> list[str]:
    """Clans whose sealed objective is not revealed yet (the fold's answer, as page text)."""
    return [str(c) for c in fold.sealed_left]


@dataclass(frozen=True, slots=True)
class RoundSeal:
    seal: str
    corrected: bool
    reason: str = ""
    seq: int = 0
    retraction: bool = False


def round_seals(events: Sequence[Event]) -> dict[int, RoundSeal]:
    """Each round's seal as it stands: the last event that resolved or corrected it."""
    out: dict[int, RoundSeal] = {}
    for e in events:
        if e.type == EventType.ROUND_RESOLVED:
            out[e.data["round"]] = RoundSeal(e.seal, False, seq=e.seq)
        elif e.type == EventType.ENTRY_CORRECTED:
            out[e.data["round"]] = RoundSeal(e.seal, True, e.data.get("reason", ""), e.seq, not e.data["entries"])
    return out


def corrections_of(events: Sequence[Event]) -> list[dict]:
    """Every correction (a retraction: one that leaves the round with no tokens), labelled, in log order."""
    return [
        {
            "seq": e.seq,
            "round": e.data["round"],
            "reason": e.data.get("reason", ""),
            "seal": e.seal,
            "kind": "retraction" if not e.data["entries"] else "correction",
            "entries": list(e.data["entries"]),
        }
        for e in events
        if e.type == EventType.ENTRY_CORRECTED
    ]


def public_header(fold: Fold, events: Sequence[Event]) -> dict:
    """As `referee show --json` prints it (nothing in it is secret)."""
    return data.show_data(fold, events)


def public_board(fold: Fold, state: GameState | None = None) -> dict:
    """As `referee board --json` prints it, without the objectives not yet public."""
    return data.board_data(public_state(fold, state))


def public_score(fold: Fold) -> dict:
    """As `referee score --json` prints it (``game_score``, the one scoring path), on the public board, plus
    why it is provisional."""
    left = sealed_left(fold)
    why = []
    if not fold.rounds_over:
        why.append(f"the game is not over: {fold.state.round - 1} of {ROUNDS} rounds played")
    if left:
        why.append("objectives still sealed: " + ", ".join(left))
    return {**data.score_data(game_score(fold, public_state(fold))), "why_provisional": why}


def honor_race(fold: Fold) -> dict:
    """Each clan's honor had the game ended at setup and after each round (the engine's ``final_score`` on the
    public board of that moment, objectives aside: they count at the end only), then, once the game is over,
    the honor as it stands with its public objectives (``public_score``: the one scoring path), whose step from
    the last round is the objectives' effect."""
    h = fold.header
    assert h is not None, "a stored game's log begins with its GameCreated event"
    moments = [("setup", fold.start)] + [(f"R{p.round}", p.after) for p in fold.rounds]
    honor: dict[str, list[int]] = {str(c): [] for c in h.clans}
    for _, state in moments:
        for sc in final_score(public_state(fold, state).with_(objectives={})).scores:
            honor[str(sc.clan)].append(sc.total)
    columns = [label for label, _ in moments]
    over = fold.complete
    objectives: dict[str, int] = {c: 0 for c in honor}
    if over:
        columns.append("end")
        for sc in public_score(fold)["scores"]:
            honor[sc["clan"]].append(sc["total"])
            objectives[sc["clan"]] = sum(
                line["honor"] for line in sc["lines"] if line["label"].startswith("objective ")
            )
    return {
        "game": h.game,
        "columns": columns,
        "objectives_column": over,
        "clans": [
            {"clan": c, "name": h.players.get(c, ""), "honor": honor[c], "objective": objectives[c]} for c in honor
        ],
    }


def public_round(fold: Fold, round_no: int, seals: dict[int, RoundSeal] | None = None) -> dict:
    """As `referee round --json` prints it (report, board after it, seal), with whether it was corrected, its
    entries and its table events."""
    after = fold.board_after(round_no)  # the one answer: the board after round N, as corrected
    played = after.played
    assert played is not None, "a page shows a played round"
    seal = (seals or {}).get(round_no)
    return {
        **data.round_data(played.report, public_board(fold, after.state), seal.seal if seal else None),
        "corrected": bool(seal and seal.corrected),
        **({"board_note": after.note()} if after.corrections else {}),
        "entries": list(played.lines),
        "table_events": list(played.table),
    }


SETUP_OBJECTIVE = re.compile(r"(\w+): objective .*")  # a setup fact naming a clan's secret objective


def public_replay(fold: Fold, events: Sequence[Event]) -> dict:
    """As `referee replay --json` prints it, without the objectives recorded at setup until they are public."""
    out = data.replay_data(data.replay_rows(list(states(events))))
    hidden = set(sealed_left(fold)) if fold.rounds_over else None  # None: every clan's is hidden

    def secret(line: str) -> bool:
        m = SETUP_OBJECTIVE.fullmatch(line)
        return m is not None and (hidden is None or m.group(1) in hidden)

    for e in out["events"]:
        if e["type"] in ("SetupRecorded", "SetupCorrected"):
            e["lines"] = [line for line in e["lines"] if not secret(line)]
    return out


def report_view(report: RoundReport) -> dict:
    """A round report laid out for a page: tokens with fates, raids, battles with their arithmetic, changes."""

    def side(parts) -> str:
        return " + ".join(f"{p.label} {p.value}" for p in parts) or "0"

    return {
        "tokens": [
            {
                "entry": format_entry(f.entry),
                "clan": str(f.entry.clan),
                "fate": str(f.fate).replace("_", " "),
                "reason": f.reason,
                "ruling": f.ruling or "",
            }
            for f in sorted(report.fates, key=lambda f: f.entry.key)
        ],
        "raids": [
            {"province": r.province, "clan": str(r.clan), "triggered": r.triggered, "why": r.why} for r in report.raids
        ],
        "peace": list(report.peace),
        "battles": [
            {
                "province": b.province,
                "defender": str(b.defender) if b.defender else "",
                "defence": side(b.defence),
                "defence_total": b.defence_total,
                "attackers": [{"clan": str(s.clan), "parts": side(s.parts), "total": s.total} for s in b.attackers],
                "outcome": b.outcome,
                "winner": str(b.winner) if b.winner else "",
                "why": b.why,
                "rulings": ", ".join(b.rulings),
            }
            for b in report.battles
        ],
        "defenses": [{"province": d.province, "clan": str(d.clan), "why": d.why} for d in report.defenses],
        "claims": [
            {"clan": str(c.clan), "territory": c.territory, "card": c.card or "", "action": c.action}
            for c in report.claims
        ],
        "changes": [c.text for c in report.changes],
        "warnings": list(report.warnings),
    }


def game_page(events: Sequence[Event], *, fold: Fold | None = None, pictures: str = "last") -> dict:
    """Everything a game's page shows. ``pictures``: "last" draws the board now and the last round's
    tokens; "all" draws every round (the HTML record); "none" draws nothing."""
    fold = fold or Fold.of(events)
    h = fold.header
    assert h is not None, "a stored game's log begins with its GameCreated event"
    seals = round_seals(events)
    rounds = []
    for p in fold.rounds:
        draw = pictures == "all" or (pictures == "last" and p.round == len(fold.rounds))
        s = seals.get(p.round)
        rounds.append(
            {
                "round": p.round,
                "entries": list(p.lines),
                "table_events": list(p.table),
                "report": report_view(p.report),
                "seal": s.seal if s else "",
                "corrected": bool(s and s.corrected),
                "correction_reason": s.reason if s else "",
                "retraction": bool(s and s.retraction),
                "svg": round_svg(fold, p.round) if draw else "",
            }
        )
    return {
        "game": h.game,
        "event": h.event,
        "table": h.table,
        "date": h.date,
        "players": [
            {"clan": str(c), "initial": CLAN_INITIAL[str(c)], "name": h.players.get(str(c), "")} for c in h.clans
        ],
        "options": h.options.to_dict(),
        "engine_version": h.engine_version,
        "board_version": h.board_version,
        "played": len(fold.rounds),
        "over": fold.rounds_over,
        "events": len(events),
        "rounds": rounds,
        "corrections": corrections_of(events),
        "score": public_score(fold),
        "sealed_left": sealed_left(fold),
        "board_svg": board_svg(public_state(fold), title=f"{h.game}: the board now", ids="now-")
        if pictures != "none"
        else "",
        **(_race(fold) if pictures != "none" else {"race": None, "race_svg": ""}),
    }


def _race(fold: Fold) -> dict:
    from .charts import honor_race_svg

    race = honor_race(fold)
    return {"race": race, "race_svg": honor_race_svg(race)}


def round_svg(fold: Fold, round_no: int) -> str:
    """One round's revealed tokens drawn on the board they were placed on."""
    p = fold.board_after(round_no).played
    assert p is not None, "a page shows a played round"
    h = fold.header
    assert h is not None, "a stored game's log begins with its GameCreated event"
    return board_svg(
        public_state(fold, p.before),
        p.report,
        title=f"{h.game}, round {p.round}: the revealed tokens on the board",
        ids=f"r{p.round}-",
    )
