"""Throughput, compile time, start-up time and peak memory of every registered game (`make bench`), and Straw
against its C yardstick (benchmarks/c/straw_random.c, built with the system compiler when there is one).

Measures, per game: games/s with random play at every player count, and with each shipped heuristic at the
game's default player count, at 1 thread and at all threads; cold-compile time (empty numba cache) and cached
start of `sim run GAME --n 1000`; peak memory for 1M and 10M games without saved rows (flat in n); and the time to
render the HTML reports of a 1,000,000-game run and of a 12-configuration compare (benchmarks/report_bench.py).
Writes its tables into benchmarks/RESULTS.md between two markers and keeps the rest of the file (the notes
of earlier sessions). Not a test: nothing here asserts a speed.

    python -m benchmarks.run                 # everything
    python -m benchmarks.run --games straw   # one game
    python -m benchmarks.run --quick         # shorter timings, no memory runs, no report timings
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date

import numba

from sim.engine import configure, run_games
from sim.registry import game_ids, get_game

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def games_per_second(spec, players, strategy, threads, seconds):
    config = configure(spec, players, strategy, seed=12345)
    run_games(config, 50, threads=threads)  # compile / load and warm up
    probe_n = 200
    while True:  # a probe long enough that its rate is not the start-up's (fast games run 200 in a millisecond)
        probe = run_games(config, probe_n, threads=threads)
        if probe.seconds >= 0.25 or probe_n >= 10_000_000:
            break
        probe_n *= 8
    n = max(200, int(probe.games_per_second * seconds))
    return run_games(config, n, threads=threads, start=10_000).games_per_second


def _python(code, env=None, cwd=ROOT):
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd, check=True)
    return time.perf_counter() - t, out.stdout


def cold_compile_seconds(game_id):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        code = (f"from sim.registry import get_game; from sim.engine import configure, run_games; "
                f"g = get_game({game_id!r}); run_games(configure(g, g.default_players, 'random'), 10)")
        seconds, _ = _python(code, env)
    return seconds


def cached_start_seconds(game_id):
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        subprocess.run([os.path.join(os.path.dirname(sys.executable), "sim"), "run", game_id, "--n", "1000", "-q",
                        "--out", os.path.join(out, "r")], capture_output=True, check=True, cwd=ROOT)
        return time.perf_counter() - t


def peak_memory_mib(game_id, n):
    code = (f"import resource; from sim.cli import main; import sys, tempfile; d = tempfile.mkdtemp(); "
            f"sys.argv = ['sim', 'run', {game_id!r}, '--n', '{n}', '-q', '--strategy', 'random', '--out', d + '/r'];\n"
            f"try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    seconds, out = _python(code)
    return int(out.strip().splitlines()[-1]) / 1024, seconds


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def c_games_per_second(players, games=3_000_000):
    """Games/s of benchmarks/c/straw_random.c (Straw, random play, one thread), built with the system compiler;
    None when there is none."""
    import shutil
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        exe = os.path.join(folder, "straw_random")
        subprocess.run([compiler, "-O3", "-march=native", "-o", exe, os.path.join(HERE, "c", "straw_random.c")],
                       check=True)
        out = subprocess.run([exe, str(games), str(players), "12345"], check=True, capture_output=True, text=True)
    return float(out.stdout.split()[2])


def c_yardstick_lines(spec, seconds, players=4):
    """The kernel against the C yardstick, side by side in this run (issue: Straw random at >= 0.7x C per core)."""
    c = c_games_per_second(players)
    if c is None:
        return ["- C yardstick: no C compiler here, not measured", ""]
    kernel = games_per_second(spec, players, "random", 1, seconds)
    print(f"straw {players}p random: kernel {kernel:,.0f} vs C {c:,.0f} games/s on one thread", flush=True)
    return [f"- {players}p random on one thread: kernel {kernel:,.0f} games/s, C yardstick "
            f"(benchmarks/c/straw_random.c, cc -O3) {c:,.0f} games/s: {kernel / c:.2f}x C", ""]


def bench_game(game_id, seconds, memory, cold):
    spec = get_game(game_id)
    all_threads = numba.config.NUMBA_NUM_THREADS
    lines = [f"### {spec.title} (`{spec.id}`)", "",
             "| players | strategy | games/s, 1 thread | games/s, " f"{all_threads} threads |", "|---|---|---|---|"]
    rows = [(p, "random") for p in range(spec.min_players, spec.max_players + 1)]
    rows += [(spec.default_players, s.name) for s in spec.strategies if s.name != "random"]
    for players, strategy in rows:
        one = games_per_second(spec, players, strategy, 1, seconds)
        many = games_per_second(spec, players, strategy, all_threads, seconds)
        lines.append(f"| {players} | {strategy} | {one:,.0f} | {many:,.0f} |")
        print(f"{spec.id} {players}p {strategy}: {one:,.0f} / {many:,.0f} games/s", flush=True)
    lines.append("")
    if game_id == "straw":
        lines += c_yardstick_lines(spec, seconds)
    if cold:
        lines.append(f"- cold compile (empty cache, import + first games): {cold_compile_seconds(game_id):.1f} s")
    lines.append(f"- cached start of `sim run {game_id} --n 1000`: {cached_start_seconds(game_id):.2f} s")
    if memory:
        for n in (1_000_000, 10_000_000):
            mib, secs = peak_memory_mib(game_id, n)
            lines.append(f"- peak memory, `sim run {game_id} --n {n:,}` (random, rows not saved): {mib:,.0f} MiB "
                         f"({secs:.0f} s)")
    lines.append("")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_ids()))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cold", default="straw", help="games whose cold compile is timed (comma list; '' none)")
    parser.add_argument("--memory", default="straw", help="games whose peak memory is measured (comma list)")
    parser.add_argument("--out", default=os.path.join(HERE, "RESULTS.md"))
    args = parser.parse_args()
    seconds = 0.5 if args.quick else 3.0
    header = [
        "# Benchmark results", "",
        f"Measured {date.today().isoformat()} with `make bench` on {cpu_name()}, {os.cpu_count()} cores, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}, numba {numba.__version__}.",
        "Games/s are after compilation, over runs of about "
        f"{seconds:g} s; seeds fixed, so every figure is the same games each time.", "",
    ]
    body = []
    for game_id in args.games.split(","):
        gid = game_id.strip()
        body += bench_game(gid, seconds, memory=not args.quick and gid in args.memory.split(","),
                           cold=gid in args.cold.split(","))
    if not args.quick:
        from benchmarks import report_bench
        body += report_bench.result_lines(report_bench.measure())
    write_results(args.out, header, body)
    print(f"wrote {args.out}")


GENERATED_BEGIN = "<!-- make bench: the measured tables below are rewritten by each run -->"
GENERATED_END = "<!-- make bench: end of the measured tables; what follows is kept -->"


def write_results(path, header, body):
    """Write the measured header and tables between the GENERATED markers of `path` and keep every other line:
    the notes of earlier sessions, written by hand, survive a new `make bench`. A file without the markers keeps
    its whole old text after them."""
    old = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
    if GENERATED_BEGIN in old and GENERATED_END in old:
        before, rest = old.split(GENERATED_BEGIN, 1)
        after = rest.split(GENERATED_END, 1)[1]
    else:
        before, after = "", ("\n" + old if old else "")
    text = before + "\n".join([GENERATED_BEGIN] + header + body + [GENERATED_END]) + after
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
