"""The benchmarks run: each script in bench/, at its smallest sizes, prints every figure `bench/run.py` reads
from it, as a number.

Not a timed test: no figure is compared with anything. A script that breaks (a rule a benchmark's games do not
follow yet, say) fails here, not at the next measurement. bench_cli.py is left out: it times real commands and
compiles the package's bytecode in place, which a test must not write; its figures are still required to be the
ones `bench/run.py` lists.
"""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
BENCH = ROOT / "bench"

RUNS = {  # script and its smallest arguments -> the figures it prints
    ("bench_resolve.py", "--repeat", "3"): {
        "resolve_ms",
        "resolve_mixed_ms",
        "resolve_report_ms",
        "verify_engine_ms",
    },
    ("bench_verify.py", "--games", "6", "--runs", "2"): {
        "verify_games_per_s",
        "verify_signed_games_per_s",
        "verify_peak_rss_mb",
        "verify_signed_peak_rss_mb",
        "verify_rss_growth_mb",
        "doctor_games_per_s",
        "doctor_one_process_games_per_s",
    },
    ("bench_objective.py", "--runs", "1"): {"objective_guess_ms", "objective_recovery_cpu_years"},
    ("bench_web.py", "--repeat", "1"): {
        "svg_ms",
        "game_page_ms",
        "game_page_cold_ms",
        "record_ms",
        "standings_page_ms",
        "standings_page_cold_ms",
        "seating_page_ms",
    },
    ("bench_tournament.py", "--runs", "1", "--players", "10", "--rounds", "4"): {
        "tournament_seat_ms",
        "tournament_seat_cli_ms",
        "tournament_standings_ms",
        "tournament_standings_replay_ms",
        "tournament_repeats_16",
        "tournament_repeats_25",
    },
    ("bench_games.py", "--games", "6", "--runs", "1"): {"games_list_ms"},
    ("bench_swiss.py", "--runs", "1", "--scale", "0.125"): {
        "swiss_pair_32_ms",
        "swiss_pair_64_ms",
        "swiss_pair_128_ms",
        "swiss_pair_256_ms",
        "swiss_pair_512_ms",
        "swiss_pair_first_64_ms",
        "swiss_pair_first_256_ms",
        "swiss_pages_256_ms",
        "swiss_verify_32_ms",
        "swiss_verify_64_ms",
        "swiss_verify_128_ms",
        "ccg_demo_replay_ms",
        "ccg_demo_verify_ms",
        "ccg_long_replay_ms",
        "ccg_long_verify_ms",
    },
    ("bench_entry.py", "--rounds", "1"): {
        "entry_post_median_ms",
        "entry_post_p95_ms",
        "entry_post_trip_median_ms",
        "entry_post_trip_p95_ms",
        "entry_page_median_ms",
        "entry_choices_per_token",
        "entry_taps_per_token",
    },
    ("bench_rate_limit.py", "--keys", "200", "--repeat", "40"): {
        "rate_limit_allow_us",
        "rate_limit_allow_p95_us",
        "entry_unknown_link_ms",
        "entry_unknown_link_crowded_ms",
    },
}
CLI_FIGURES = {  # bench_cli.py's, not run here
    "cold_start_ms",
    "rules_cli_ms",
    "import_floor_ms",
    "casebook_ms",
    "round_cli_ms",
    "round_cli_vs_floor",
    "round_cli_vs_frozen_floor",
    "round_cli_peak_rss_mb",
    "table_round_ms",
}
RESULT = re.compile(r"RESULT (\w+)=(\S+)$", re.MULTILINE)


def _run_py():
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_figure_of_the_summary_comes_from_a_script():
    run = _run_py()
    listed = {key for key, _, _ in run.FIGURES}
    assert listed == set().union(*RUNS.values(), CLI_FIGURES)
    assert set(run.BEFORE) <= listed  # every "before" figure and target names a figure


@pytest.mark.parametrize("command", sorted(RUNS), ids=lambda c: c[0])
def test_each_benchmark_runs_and_prints_its_figures(command, tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # their archives and databases: in this test's folder
    done = subprocess.run(
        [sys.executable, str(BENCH / command[0]), *command[1:]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    printed = dict(RESULT.findall(done.stdout))
    assert set(printed) == RUNS[command], done.stdout[-2000:]
    for key, value in printed.items():
        assert float(value) >= 0, f"{key}={value}"


def test_the_long_fuzzing_run_runs_its_properties_and_counts_their_examples(tmp_path):
    """bench/fuzz.py at a fiftieth of the suite's examples (the deep run is fifty times them): every
    hostile-input property runs, the examples are counted, no traceback is found."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, str(BENCH / "fuzz.py"), "--scale", "0.02", "--workers", "1"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    printed = {k: float(v) for k, v in RESULT.findall(done.stdout)}
    assert printed["fuzz_scale"] == 0.02 and printed["fuzz_tracebacks"] == 0, done.stdout
    assert printed["fuzz_properties"] >= 20 and printed["fuzz_examples"] >= 14  # a target at least once each
