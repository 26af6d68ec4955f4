"""Time the analysis of 1,000,000 saved games and the rendering of an HTML report (targets: ≤ 10 s and ≤ 15 s on a
2-core machine). Not a test: it prints seconds and asserts nothing.

    python -m benchmarks.analysis_bench                    # makes build/analysis-bench/straw-1m once, then times
    python -m benchmarks.analysis_bench --dir RUN_DIR      # an existing run saved with --save-games

Timed, each in a fresh Python process (imports included, as a user runs it) and again warm in this process:
  analyse  load_games(dir, columns="analysis") + analyse_games   (the fast path, analyse_run_games)
  full     load_games(dir) of every column + analyse_games
  report   context_from_run_dirs([dir]) + render_report
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_DIR = os.path.join(ROOT, "build", "analysis-bench", "straw-1m")

SNIPPETS = {
    "analyse": "from analysis.games_table import analyse_run_games; analyse_run_games({d!r})",
    "full": "from analysis.games_table import load_games, analyse_games; analyse_games(load_games({d!r}))",
    "report": "from reports.html import render_report; from sim.reporting import context_from_run_dirs; "
              "render_report(context_from_run_dirs([{d!r}]))",
}


def ensure_run(path, n, rows=True):
    """A Straw run of n games in `path` (with its games.parquet when rows), made once and kept."""
    if os.path.isfile(os.path.join(path, "games.parquet" if rows else "summary.json")):
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    sim = os.path.join(os.path.dirname(sys.executable), "sim")
    print(f"making {n:,} {'saved ' if rows else ''}Straw games in {path} (once) ...", flush=True)
    t = time.perf_counter()
    subprocess.run([sim, "run", "straw", "--n", str(n), *(["--save-games"] if rows else []), "--out", path, "-q",
                    "--no-report"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    print(f"  {time.perf_counter() - t:.1f} s", flush=True)


def fresh_seconds(code):
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)
    return time.perf_counter() - t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=DEFAULT_DIR, help="run directory with games.parquet")
    ap.add_argument("--n", type=int, default=1_000_000, help="games to make when --dir has none")
    ap.add_argument("--repeat", type=int, default=2, help="warm repetitions (the best is printed)")
    args = ap.parse_args(argv)
    ensure_run(args.dir, args.n)

    import pyarrow.parquet as pq
    rows = pq.ParquetFile(os.path.join(args.dir, "games.parquet")).metadata.num_rows
    print(f"run: {args.dir} ({rows:,} games), {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")

    for name, code in SNIPPETS.items():
        print(f"{name:8s} fresh process (imports included): {fresh_seconds(code.format(d=args.dir)):6.2f} s",
              flush=True)

    from analysis.games_table import analyse_games, load_games
    from reports.html import render_report
    from sim.reporting import context_from_run_dirs
    warm = {"analyse": lambda: analyse_games(load_games(args.dir, columns="analysis")),
            "full": lambda: analyse_games(load_games(args.dir)),
            "report": lambda: render_report(context_from_run_dirs([args.dir]))}
    for name, fn in warm.items():
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t)
        print(f"{name:8s} warm, best of {args.repeat}:                {best:6.2f} s", flush=True)
    t = time.perf_counter()
    df = load_games(args.dir, columns="analysis")
    t_load = time.perf_counter() - t
    t = time.perf_counter()
    analyse_games(df)
    print(f"  of which: load {t_load:.2f} s, analyse_games {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
