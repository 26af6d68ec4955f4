"""Instructions per game of a game's compiled code, counted by valgrind: the yardstick for kernel changes that
wall-clock timings on a noisy machine cannot settle (`make bench` does not run this; RESULTS.md quotes it).

Each count plays `warm_up` games and then N games on one thread, in one chunk, under valgrind's cachegrind without
its cache simulation, and subtracts the same process with no games after the warm-up: what remains is the N games.
What makes the count the same in every run:
- numba compiles for a generic x86-64 CPU (`NUMBA_CPU_NAME=generic`), into a cache folder of its own, warmed
  outside valgrind first: valgrind cannot run code built for the host's newest instructions, and compiling under it
  would take an hour;
- OpenBLAS and OpenMP get one thread: numpy's idle BLAS threads spin, and their spinning was up to 100 million
  instructions a process, more than the change a count is meant to show;
- the games are one chunk (`chunk_size`), so the engine's time-based chunking plays no part, and
  `PYTHONHASHSEED=0` fixes the interpreter's own work.

    python -m benchmarks.instructions kruki weighted --games 60 [--players 4] [--variant random-junk]

Two builds are compared by running this in each checkout (each keeps its own cache, under its build/ folder).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, "build", "numba-generic")
WARM_UP = 20
FIRST_GAME = 1000  # the counted games: none of them is a warm-up game


def _environment():
    env = dict(os.environ, NUMBA_CPU_NAME="generic", SIM_CACHE_DIR=CACHE, OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1", PYTHONHASHSEED="0", PYTHONPATH=ROOT)
    env.setdefault("PYTHONWARNINGS", "ignore::UserWarning:numba.core.utils")
    return env


def play(game, strategy, players, variants, n):
    """The child process: the warm-up games, then n counted games (none when n = 0), one thread, one chunk each."""
    from sim.engine import configure, run_games
    from sim.registry import get_game
    config = configure(get_game(game), players, strategy, variants=variants, seed=1)
    run_games(config, WARM_UP, threads=1, chunk_size=WARM_UP)
    if n:
        run_games(config, n, threads=1, start=FIRST_GAME, chunk_size=n)


def _child_command(args, n):
    command = [sys.executable, "-m", "benchmarks.instructions", args.game, args.strategy, "--games", str(n),
               "--child"]
    if args.players:
        command += ["--players", str(args.players)]
    for variant in args.variant:
        command += ["--variant", variant]
    return command


def _counted(command):
    """Instructions valgrind counted for the command (cachegrind's "I refs")."""
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          *command], env=_environment(), cwd=ROOT, capture_output=True, text=True, check=True)
    match = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if match is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{out.stderr[-2000:]}")
    return int(match.group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("strategy")
    parser.add_argument("--games", type=int, default=60, help="counted games (default 60)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--variant", action="append", default=[], help="a rule variant (repeatable)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        play(args.game, args.strategy, args.players, tuple(args.variant), args.games)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    subprocess.run(_child_command(args, 0), env=_environment(), cwd=ROOT, check=True)  # compile outside valgrind
    base = _counted(_child_command(args, 0))
    total = _counted(_child_command(args, args.games))
    print(f"{args.game} {args.strategy} {args.players or 'default'} players{''.join(' + ' + v for v in args.variant)}"
          f": {(total - base) / args.games / 1e6:.3f} million instructions per game "
          f"({args.games} games; {total:,} - {base:,})")


if __name__ == "__main__":
    main()
