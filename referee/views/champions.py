"""Champions of Rokugan's venue pages as plain data: a scenario (the tracking board, each Champion's Honor,
standing, Glory, Purity and status, the Clan Objectives as the table may see them, the Glory and the Group
Honor turn by turn, at the end the settlement line by line, every event with what it did) and a campaign (its
Campaign Log, each player's Glory play by play, who chooses the ending). The same numbers as `referee
champions show --json`; every text a player typed is shown as text by the templates and the charts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..champions import public_line, shown_objectives
from ..log import champions as log
from ..log.events import Event
from .charts import Series, line_chart, short

STEP_NAMES = {log.CREATED: "setup", log.REPORTED: "reports", log.ENDED: "end", log.CORRECTED: "correction"}


def scenario_page(events: Sequence[Event]) -> dict[str, Any]:
    fold = log.fold_scenario(events)
    s = fold.scenario
    favor = s.champion(s.favor) if s.favor else None
    page: dict[str, Any] = {
        "game": fold.game,
        "scenario": s.setup.scenario,
        "type": s.setup.kind,
        "turn": s.turn,
        "max_turns": s.setup.max_turns,
        "group_honor": s.group_honor,
        "threshold": s.threshold,
        "favor": f"{favor.name} ({favor.card.player})" if favor else "",
        "ended": fold.ended,
        "champions": [
            {
                "name": c.name,
                "player": "" if c.card.companion else c.card.player,
                "companion": c.card.companion,
                "honor": c.honor,
                "glory": c.glory,
                "purity": c.purity,
                "destiny": c.card.destiny,
                "status": c.status.value,
                "standing": c.standing,
                "bonuses": ", ".join(map(str, c.bonuses)) or "none",
                "objectives": [str(o["text"]) for o in shown_objectives(c, s.ended)],
            }
            for c in s.champions
        ],
        "units": [f"the {u.name} Unit: {u.size - u.eliminated} of its {u.size} miniatures left" for u in s.units],
        "ending": _ending(fold),
        "events": [
            {
                "seq": step.seq,
                "what": STEP_NAMES.get(step.type, "retraction"),
                "lines": [public_line(line, s) for line in step.lines],
                "notes": [str(n) for n in step.notes],
                "taken_back": step.taken_back,
            }
            for step in fold.steps
        ],
    }
    page.update(_race(fold))
    return page


def _ending(fold: log.ScenarioFold) -> dict[str, Any] | None:
    e = fold.ending
    if e is None:
        return None
    return {
        "result": "Victory" if e.victory else "Defeat",
        "reasons": list(e.reasons),
        "objectives_met": e.objectives_met,
        "group_honor": e.group_honor,
        "threshold": e.threshold,
        "difference": f"{e.difference:+d}",
        "glory": [{"name": n, "glory": g} for n, g in e.glory],
        "glorified": ", ".join(e.glorified) or "nobody",
        "lines": [
            {"who": x.who, "on": x.what, "adjustment": x.label, "change": f"{x.amount:+d}", "rule": x.rule}
            for x in e.lines
        ],
    }


def race(fold: log.ScenarioFold) -> dict[str, Any]:
    """The Glory of each Champion and the Group Honor against the Threshold at setup, after each turn, and now
    (or, once the game has ended, after the settlement: the dashed last step)."""
    points = list(fold.history)
    columns = ["setup" if t == 0 else f"T{t}" for t, _ in points]
    boards = [b for _, b in points]
    if fold.ending is None:
        if fold.scenario is not boards[-1]:
            columns.append(f"T{fold.scenario.turn} now")
            boards.append(fold.scenario)
        glory = [[b.champion(c.name).glory for b in boards] for c in fold.scenario.champions]
        honor = [b.group_honor for b in boards]
        threshold = [b.threshold for b in boards]
    else:
        before = fold.before_end or fold.scenario
        if before is not boards[-1]:
            columns.append(f"T{before.turn}")
            boards.append(before)
        columns.append("end")
        final = dict(fold.ending.glory)
        glory = [[*(b.champion(c.name).glory for b in boards), final[c.name]] for c in fold.scenario.champions]
        honor = [*(b.group_honor for b in boards), fold.ending.group_honor]
        threshold = [*(b.threshold for b in boards), fold.ending.threshold]
    names = [c.name for c in fold.scenario.champions]
    return {
        "game": fold.game,
        "columns": columns,
        "end_column": fold.ending is not None,
        "glory": [{"name": n, "values": v} for n, v in zip(names, glory, strict=True)],
        "group_honor": honor,
        "threshold": threshold,
    }


def _race(fold: log.ScenarioFold) -> dict[str, Any]:
    r = race(fold)
    dashed = r["end_column"]
    glory_svg = line_chart(
        [
            Series(f"c{i}", f"{short(g['name'], 18)} {g['values'][-1]}", g["values"], dashed_last=dashed)
            for i, g in enumerate(r["glory"])
        ],
        r["columns"],
        title=f"{r['game']}: each Champion's Glory, turn by turn",
        desc="Each Champion's Glory on the track at setup and after each turn"
        + ("; the last, dashed step is the end-of-game Glory." if dashed else "."),
        ids="glory-",
        label_width=200,
    )
    honor_svg = line_chart(
        [
            Series("gh", f"Group Honor {r['group_honor'][-1]}", r["group_honor"], "#1f4e79", dashed),
            Series("th", f"Threshold {r['threshold'][-1]}", r["threshold"], "#9c2a1f", dashed),
        ],
        r["columns"],
        title=f"{r['game']}: the Group Honor and the Threshold, turn by turn",
        desc="The Group Honor against the Honorable Victory Threshold at setup and after each turn"
        + ("; the last, dashed step is after the end-of-game adjustments." if dashed else "."),
        ids="honor-",
        label_width=150,
    )
    return {
        "race": r,
        "glory_svg": glory_svg,
        "honor_svg": honor_svg,
        "glory_rows": [{"label": g["name"], "cells": g["values"]} for g in r["glory"]],
        "honor_rows": [
            {"label": "Group Honor", "cells": r["group_honor"]},
            {"label": "Threshold", "cells": r["threshold"]},
        ],
    }


def campaign_page(events: Sequence[Event], scenario_exists: Callable[[str], bool]) -> dict[str, Any]:
    """A campaign's page; ``scenario_exists``: whether the database holds a logged scenario's record (its
    page is linked)."""
    fold = log.fold_campaign(events)
    c = fold.campaign
    counted = c.counted()
    plays = [
        {
            "play": n,
            "seq": seq,
            "game": game,
            "linked": scenario_exists(game),
            "scenario": play.scenario,
            "counts": play in counted,
            "result": "success" if play.victory else "failure",
            "difference": f"{play.difference:+d}",
            "glory": [dict(play.glory).get(p, "-") for p in c.players],
            "glorified": ", ".join(play.glorified) or "-",
            "defeat_glorified": bool(play.glorified) and not play.victory,
            "intermission": ", ".join(play.intermission) or "-",
        }
        for n, (seq, play, game, _) in enumerate(fold.logged, 1)
    ]
    totals = dict(c.totals())
    running = {p: 0 for p in c.players}
    columns, series = ["start"], {p: [0] for p in c.players}
    for row, (_, play, _, _) in zip(plays, fold.logged, strict=True):
        if row["counts"]:
            for p, g in play.glory:
                running[p] += g
        columns.append(f"P{row['play']}")
        for p in c.players:
            series[p].append(running[p])
    chart = line_chart(
        [Series(f"p{i}", f"{short(p, 18)} {series[p][-1]}", series[p]) for i, p in enumerate(c.players)],
        columns,
        title=f"{c.name}: each player's Glory across the campaign",
        desc="Each player's Glory accumulated after each play logged (a replayed scenario's earlier play "
        "does not count, CR-12).",
        ids="campaign-",
        label_width=200,
    )
    return {
        "campaign": c.name,
        "players": list(c.players),
        "plays": plays,
        "totals": [{"player": p, "glory": totals[p]} for p in c.players],
        "ended": c.ended,
        "choosers": list(fold.result.choosers) if fold.result else [],
        "race": {"columns": columns, "players": [{"player": p, "values": series[p]} for p in c.players]},
        "race_rows": [{"label": p, "cells": series[p]} for p in c.players],
        "race_svg": chart,
    }
