"""The golden games: complete logged games kept as readable records and as exported logs.

    referee/data/games/<name>.txt     the game record (headers, setup, five rounds, seals)
    referee/data/games/<name>.jsonl   the exported log built from it (package data: the demo plays it)
    tests/battle/golden/<name>.txt    the replay transcript, compared by tests/battle/test_replay.py

    python tests/support/golden_build.py              rebuild every .jsonl from its record (seals must match)
    python tests/support/golden_build.py --reseal     after editing a record by hand: recompute its seals
    python tests/support/golden_build.py --show NAME  print the transcript of one record (while writing it)

Transcripts are regenerated with ``pytest --regen-golden``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from referee.boarddata import load_board  # noqa: E402
from referee.engine import final_score  # noqa: E402
from referee.engine.model.tokens import PLACEMENTS_PER_ROUND, Kind  # noqa: E402
from referee.engine.notation.round import parse_entry  # noqa: E402
from referee.engine.resolution.placement import placed_tokens  # noqa: E402
from referee.log import (  # noqa: E402
    GOLDEN_GAMES,
    Event,
    EventType,
    Fold,
    export_jsonl,
    export_text,
    game_ended,
    parse_text,
    states,
)
from referee.log.ending import game_ended_payload, game_score  # noqa: E402
from referee.log.events import chain  # noqa: E402

GAMES = ROOT / "referee" / "data" / "games"
TRANSCRIPTS = Path(__file__).resolve().parents[1] / "battle" / "golden"
SEAL = re.compile(r"\s*\(seal [0-9A-Za-z]{4}(?:-[0-9A-Za-z]{4}){1,3}\)")


def budget_problems(events: list[Event]) -> list[str]:
    """At most 5 tokens a clan a round (blessings included), and over the game no token used more
    often than the clan owns it (a bluff goes back to its owner's hand, so it may come again)."""
    board = load_board()
    used: dict[str, Counter] = {}
    problems: list[str] = []
    for e in events:
        if e.type != EventType.ROUND_RESOLVED:
            continue
        per_round: Counter = Counter()
        for line in e.data["entries"]:
            entry = parse_entry(line, board)
            for token in placed_tokens(entry):
                per_round[entry.clan] += 1
                if token.kind != Kind.BLUFF:
                    used.setdefault(entry.clan, Counter())[token] += 1
        problems += [
            f"round {e.data['round']}: {c} places {n} tokens" for c, n in per_round.items() if n > PLACEMENTS_PER_ROUND
        ]
    for clan, tokens in used.items():
        facts = board.clans[clan]
        problems += [
            f"{clan} uses {t} {n} times, owns {facts.owned(t)}" for t, n in tokens.items() if n > facts.owned(t)
        ]
    return problems


def build(name: str, reseal: bool = False) -> list[Event]:
    record = GAMES / f"{name}.txt"
    text = record.read_text("utf-8")
    events, _ = parse_text(SEAL.sub("", text) if reseal else text)
    if game_ended(events) is None:  # a record written by hand ends with its last round: close it
        fold = Fold.of(events)
        if fold.complete:
            events.append(
                chain(events[-1].game, events[-1], EventType.GAME_ENDED, game_ended_payload(game_score(fold)))
            )
    problems = budget_problems(events)
    if problems:
        raise SystemExit(f"{record.name}: " + "; ".join(problems))
    record.write_text(export_text(events), "utf-8")
    (GAMES / f"{name}.jsonl").write_text(export_jsonl(events), "utf-8")
    return events


# --- the transcript ---------------------------------------------------------------------------------
def transcript(events: list[Event]) -> str:
    out: list[str] = []
    state = None
    for step in states(events):
        e, state, report = step
        d = e.data
        if e.type == EventType.GAME_CREATED:
            players = ", ".join(f"{c} ({d['players'].get(c, '?')})" for c in d["clans"])
            out += [f"game {d['game']}: {players}", f"event {d['event']!r}, table {d['table']!r}, {d['date']}"]
        elif e.type == EventType.SETUP_RECORDED:
            out += ["", f"== setup (seal {e.seal})", *(f"  {line}" for line in d["lines"]), *_control(state)]
        elif e.type == EventType.GAME_ENDED:
            scores = ", ".join(f"{c} {n}" for c, n in d["scores"].items())
            out += ["", f"== end (seal {e.seal})", f"  {scores}; winner(s) {', '.join(d['winners'])} ({d['tiebreak']})"]
        else:
            title = f"round {d['round']}" if e.type == EventType.ROUND_RESOLVED else f"correction of round {d['round']}"
            out += [
                "",
                f"== {title} (seal {e.seal})",
                *(f"  {line}" for line in d["entries"]),
                *_report(report),
                *_control(state),
            ]
    out += ["", "== final honor", *_score(state)]
    return "\n".join(out) + "\n"


def _report(report) -> list[str]:
    out = ["tokens:"]
    out += [
        f"  {f.entry}: {f.fate} (step {f.step}) {f.reason}" + (f" [{f.ruling}]" if f.ruling else "")
        for f in report.fates
    ]
    out += [
        f"raid {r.province} by {r.clan}: {'triggered' if r.triggered else 'no effect'} ({r.why})" for r in report.raids
    ]
    out += [f"peace: {p}" for p in report.peace]
    for b in report.battles:
        attack = ", ".join(
            f"{s.clan} {s.total} [{' + '.join(f'{p.label} {p.value}' for p in s.parts)}]" for s in b.attackers
        )
        defence = " + ".join(f"{p.label} {p.value}" for p in b.defence) or "nothing"
        out.append(
            f"battle {b.province}: {b.outcome}, defender {b.defender or '-'} {b.defence_total} [{defence}]; "
            f"attack {attack}; {b.why}"
        )
    out += [f"successful defense {d.province} ({d.clan}): {d.why}" for d in report.defenses]
    out += [f"warning: {w}" for w in report.warnings]
    out += ["board:"] + [f"  {c.text}" for c in report.changes]
    return out


def _control(state) -> list[str]:
    return [
        f"control {c}: " + (", ".join(f"{p}{'*' * state.control[p].faceup}" for p in state.provinces_of(c)) or "none")
        for c in state.clans
    ]


def _score(state) -> list[str]:
    final = final_score(state)
    out = []
    for s in final.scores:
        out.append(f"{s.clan}: {s.total} honor ({s.territories} territories, {s.provinces} provinces)")
        out += [f"  {line.honor:+d} {line.label}" for line in s.lines]
    out.append(f"winner(s): {', '.join(map(str, final.winners))} ({final.tiebreak})")
    return out


def main(argv: list[str]) -> None:
    if argv[:1] == ["--show"]:
        events, _ = parse_text(SEAL.sub("", (GAMES / f"{argv[1]}.txt").read_text("utf-8")))
        print(transcript(events), end="")
        problems = budget_problems(events)
        print("\n".join(problems) or "token budget: ok")
        return
    for name in GOLDEN_GAMES:
        events = build(name, reseal="--reseal" in argv)
        print(f"{name}: {len(events)} events, last seal {events[-1].seal}")


if __name__ == "__main__":
    main(sys.argv[1:])
