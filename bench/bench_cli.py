"""Benchmark the command line as a moderator feels it: start-up, one round end to end, a table session.

    python bench/bench_cli.py [--runs 15] [--games 10]

- cold start: `referee --help` in a new process (median of --runs), next to the floor every Python
  program with these libraries pays: `python -c "import typer, rich, sqlmodel"`; and `referee rules
  R-17` / `referee rules harbor` (the rulings document read and searched), run from another folder;
- one round end to end: `referee round GAME SHEET --yes` entering and resolving round 5 of a
  five-player game (23 tokens) stored in SQLite, one new process each time (on a fresh copy of the
  database), as a ratio to that import floor; and the command's peak memory (max RSS). On a shared
  machine the speed drifts from second to second, so floor and command runs alternate, and the
  ratio is the median of each pair's ratio. `referee` freezes its objects before exit, so Python's
  final garbage-collection pass (about 0.2 s with these libraries loaded) is skipped; the floor pays
  it, so the ratio is also given against a floor that skips it too (like for like);
- the casebook run: `referee casebook referee/data/casebook` (every case, one process; median of --runs);
- a table session: `referee table` keeps the game open, so a round after the first costs only its own
  work: each of rounds 2 to 5 typed line by line (every line checked as typed, after a look at the
  game's head in case another moderator wrote), resolved, recorded and its report rendered (into a
  null console), on --games five-player games (TableSession, the class the `table` command drives).

Python's compiled bytecode for the referee is written first (``compileall``), as any installed
program has it after its first run; where PYTHONDONTWRITEBYTECODE is set (as on some CI images),
every run would otherwise compile the package again.

Not a timed test: it prints figures. Lines starting with RESULT are read by bench/run.py.
"""

from __future__ import annotations

import argparse
import compileall
import io
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.games.battle.records import golden, relabel  # noqa: E402
from referee.store.storage import Store  # noqa: E402

GAME = "five-player"


def referee_command() -> list[str]:
    script = Path(sys.executable).with_name("referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "referee"]


def timed(cmd: list[str], runs: int, before=None, **kwargs) -> list[float]:
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        done = subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, **kwargs
        )
        times.append(time.perf_counter() - start)
        if done.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode()[-500:]}")
    return times


def peak_rss_mb(cmd: list[str], **kwargs) -> float:
    """The max RSS of one run of ``cmd`` (measured by a fresh parent that runs nothing else)."""
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
        "stdin=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True, check=True, **kwargs)
    return int(out.stdout.strip()) / 1024


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1e3:.0f} ms (min {min(values) * 1e3:.0f}, max {max(values) * 1e3:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (median reported; >= 10)")
    parser.add_argument("--games", type=int, default=10, help="games played through a table session")
    args = parser.parse_args()
    referee = referee_command()
    print(f"{sys.implementation.name} {sys.version.split()[0]}; referee at {' '.join(referee)}")
    compileall.compile_dir(ROOT / "referee", quiet=1)

    # the floor: a Python process importing the three libraries the CLI is built on
    importing = [sys.executable, "-c", "import typer, rich, sqlmodel"]
    timed(importing, 2)  # warm the file cache
    floor = timed(importing, args.runs)
    print(f"python -c 'import typer, rich, sqlmodel': {ms(floor)}")
    print(f"RESULT import_floor_ms={statistics.median(floor) * 1e3:.0f}")

    help_times = timed([*referee, "--help"], args.runs)
    print(
        f"referee --help (cold start, {args.runs} runs): {ms(help_times)}; "
        f"{statistics.median(help_times) / statistics.median(floor):.2f}x the import floor"
    )
    print(f"RESULT cold_start_ms={statistics.median(help_times) * 1e3:.0f}")

    # the rulings at the table: one ruling with its refinements, and a search (cold, from another folder)
    with tempfile.TemporaryDirectory() as elsewhere:
        rules_times = timed([*referee, "rules", "R-17"], args.runs, cwd=elsewhere)
        search_times = timed([*referee, "rules", "harbor"], args.runs, cwd=elsewhere)
    print(
        f"referee rules R-17 (cold start, {args.runs} runs): {ms(rules_times)}; referee rules harbor: "
        f"{ms(search_times)}"
    )
    print(f"RESULT rules_cli_ms={statistics.median(rules_times) * 1e3:.0f}")
    casebook = timed([*referee, "casebook", str(ROOT / "referee" / "data" / "casebook")], args.runs)
    print(f"referee casebook referee/data/casebook (every case, {args.runs} runs): {ms(casebook)}")
    print(f"RESULT casebook_ms={statistics.median(casebook) * 1e3:.0f}")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        template, db = tmp / "template.db", tmp / "run.db"
        with Store(str(template)) as store:
            store.import_logs([golden(GAME)[:6]])  # created, setup, rounds 1-4: round 5 comes next
        sheet = tmp / "round5.txt"
        sheet.write_text("\n".join(golden(GAME)[6].data["entries"]) + "\n")
        command = [*referee, "round", GAME, str(sheet), "--yes", "--db", str(db)]
        fresh = lambda: shutil.copyfile(template, db)  # noqa: E731
        pairs = [(timed(importing, 1)[0], timed(command, 1, before=fresh, cwd=tmp)[0]) for _ in range(args.runs)]
        round_times = [r for _, r in pairs]
        fresh()
        rss = peak_rss_mb(command, cwd=tmp)
        ratio = statistics.median(r / f for f, r in pairs)
        print(
            f"referee round (round 5 of a five-player game, 23 tokens, SQLite; entered, resolved, recorded, "
            f"reported; {args.runs} runs, each after an import-floor run): {ms(round_times)}; {ratio:.2f}x the "
            f"import floor (median of the pairs' ratios; floor in these pairs: median "
            f"{statistics.median(f for f, _ in pairs) * 1e3:.0f} ms); peak memory {rss:.0f} MB max RSS"
        )
        # like for like: a floor that also skips Python's final garbage-collection pass, as `referee` does
        frozen_floor = [sys.executable, "-c", "import gc, typer, rich, sqlmodel; gc.freeze()"]
        frozen_pairs = [
            (timed(frozen_floor, 1)[0], timed(command, 1, before=fresh, cwd=tmp)[0]) for _ in range(args.runs)
        ]
        like = statistics.median(r / f for f, r in frozen_pairs)
        print(
            f"  like for like, against `import gc, typer, rich, sqlmodel; gc.freeze()` (a floor that skips "
            f"the final collection too; floor median {statistics.median(f for f, _ in frozen_pairs) * 1e3:.0f} ms): "
            f"{like:.2f}x"
        )
        print(f"RESULT round_cli_ms={statistics.median(round_times) * 1e3:.0f}")
        print(f"RESULT round_cli_vs_frozen_floor={like:.2f}")
        print(f"RESULT round_cli_vs_floor={ratio:.2f}")
        print(f"RESULT round_cli_peak_rss_mb={rss:.0f}")

        per_round = table_session(tmp / "table.db", args.games)
        print(
            f"referee table, a round after the first (rounds 2-5 of {args.games} five-player games, "
            f"{len(per_round)} rounds: every line checked as typed, resolved, recorded, rendered): {ms(per_round)}"
        )
        print(f"RESULT table_round_ms={statistics.median(per_round) * 1e3:.1f}")


def table_session(db: Path, games: int) -> list[float]:
    from rich.console import Console

    from referee.cli import render
    from referee.cli.session import TableSession

    render.console = Console(file=io.StringIO(), width=100, highlight=False)  # rendering, not the terminal
    log = golden(GAME)
    rounds = [e.data["entries"] for e in log if e.type == "RoundResolved"]
    times = []
    with Store(str(db)) as store:
        for g in range(games):
            game = f"table-{g}"
            store.import_logs([relabel(log[:2], game)])  # created and set up, as `new` and `setup` leave it
            session = TableSession(store, game)
            for r, lines in enumerate(rounds, 1):
                start = time.perf_counter()
                for line in lines:
                    session.add(line)  # each line first checks the game's head (another moderator?)
                session.ready()  # as the command does before asking to resolve: the head, the whole round
                event, state, report = session.resolve_pending()
                render.round_report(report, state, seal=event.seal)
                if r > 1:  # the first round of a session also pays for warming up
                    times.append(time.perf_counter() - start)
                assert event.data["digest"] == log[1 + r].data["digest"], "the session diverged from the golden game"
            render.console.file.seek(0)
            render.console.file.truncate()
    return times


if __name__ == "__main__":
    main()
