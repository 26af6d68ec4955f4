"""Time a rules search (issue 15's target: Crows, 4 players, greedy, two parameters, seat-gap, 40 trials of 10,000
games in at most 10 minutes on the 2-core machine). Not a test: it prints seconds and the answer, asserts nothing.

    python -m benchmarks.tune_bench                       # the Crows search above, validated on 20,000 fresh games
    python -m benchmarks.tune_bench --trials 10 --n 2000  # a quicker look

The search is exactly `sim tune kruki --players 4 --strategy greedy --param token_keep_points=0:6
--param three_points_value=0:8 --target seat-gap --trials 40 --n 10000 --seed 1 --validate 20000`; the numbers it
prints go into benchmarks/RESULTS.md and the worked example of docs/tune.md.
"""
from __future__ import annotations

import argparse
import json
import time

import sim


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--validate", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="a new folder for tune.json (default: none written)")
    args = parser.parse_args()
    sim.run("kruki", 20, players=4, strategies="greedy", seed=args.seed)  # compile / load the kernel first
    t = time.perf_counter()
    result = sim.tune("kruki", players=4, strategies="greedy",
                      params=["token_keep_points=0:6", "three_points_value=0:8"], targets=["seat-gap"],
                      trials=args.trials, n=args.n, seed=args.seed, validate=args.validate, out=args.out)
    seconds = time.perf_counter() - t
    played = int(result.trials["games"].sum())
    print(f"{args.trials} trials of {args.n:,} games (+ validation {args.validate:,} per finalist): {seconds:.1f} s, "
          f"{played:,} trial games played ({played / (args.trials * args.n):.0%} of the budget after pruning)")
    print("best:", json.dumps(result.best))
    print("current rules:", json.dumps(result.current))


if __name__ == "__main__":
    main()
