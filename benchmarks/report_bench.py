"""Time the HTML reports: a 1,000,000-game run (target ≤ 15 s) and a compare of 12 configurations (≤ 20 s).
Not a test: it prints seconds and asserts nothing.

    python -m benchmarks.report_bench              # plays what it needs once (under build/report-bench), then times

Timed, each in a fresh Python process, after the games are played, from the first import of the report code
(matplotlib, jinja2, the figure modules) to the written file:
  run       the report context of a saved 1,000,000-game Straw run and its report (what `sim report DIR` does;
            `sim run` builds the same context from memory)
  compare   sim.compare of 12 configurations (Straw, 2–5 players × base, evertide, deck-b; 20,000 games each,
            paired within each player count) and its report, as `sim compare` writes it
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

from benchmarks.analysis_bench import ensure_run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FOLDER = os.path.join(ROOT, "build", "report-bench")
RUN_N = 1_000_000
COMPARE_N = 20_000
TARGETS = {"run": 15.0, "compare": 20.0}

# Each snippet plays (untimed) what is not saved yet, then prints the seconds the report took.
RUN_SNIPPET = """
import time
t = time.perf_counter()
from reports.html import write_report
from sim.reporting import context_from_run_dirs
write_report(context_from_run_dirs([{run_dir!r}]), {out!r})
print(time.perf_counter() - t)
"""
COMPARE_SNIPPET = """
import time, tempfile, sim
result = sim.compare("straw", {n}, players=[2, 3, 4, 5], variants=["base", "evertide", "deck-b"], seed=7,
                     out=tempfile.mkdtemp(prefix="report-bench-"))
assert len(result.labels) == 12
t = time.perf_counter()
from reports.html import write_report
from sim.reporting import outcome_context
write_report(outcome_context(result.outcome, "12 configurations", comparison={{"paired": result.paired_sums}}),
             {out!r})
print(time.perf_counter() - t)
"""


def timed(code):
    out = subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def measure(repeat=1):
    """{"run": seconds, "compare": seconds}, the best of `repeat` fresh processes each."""
    run_dir = os.path.join(FOLDER, "straw-1m")
    ensure_run(run_dir, RUN_N, rows=False)
    out = os.path.join(FOLDER, "out")
    os.makedirs(out, exist_ok=True)
    snippets = {"run": RUN_SNIPPET.format(run_dir=run_dir, out=os.path.join(out, "run.html")),
                "compare": COMPARE_SNIPPET.format(n=COMPARE_N, out=os.path.join(out, "compare.html"))}
    return {name: min(timed(code) for _ in range(repeat)) for name, code in snippets.items()}


def result_lines(seconds):
    """Lines for benchmarks/RESULTS.md."""
    return ["### Reports", "",
            f"- report of a {RUN_N:,}-game run (context from its run directory + render): {seconds['run']:.2f} s "
            f"(target ≤ {TARGETS['run']:g} s)",
            f"- report of a compare of 12 configurations ({COMPARE_N:,} games each, paired): "
            f"{seconds['compare']:.2f} s (target ≤ {TARGETS['compare']:g} s)", ""]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1, help="fresh processes per measurement (the best is printed)")
    args = ap.parse_args(argv)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print("\n".join(result_lines(measure(args.repeat))))


if __name__ == "__main__":
    main()
