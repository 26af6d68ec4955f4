"""Local Dask cluster against in-process runs, and the scheduler's overhead per task (docs/scaling.md).

    python -m benchmarks.cluster [--seconds 60] [--game straw] [--strategy weighted]

Prints: in-process games/s over a run of about --seconds; the same games on a local cluster of 2 workers (1 thread
each) and the ratio; then the overhead per task, from many tiny tasks. Not a test: it asserts nothing.
"""
from __future__ import annotations

import argparse
import logging
import time

from sim.distributed import chunk_task, run_on_cluster
from sim.engine import configure, run_games
from sim.registry import get_game


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--game", default="straw")
    parser.add_argument("--strategy", default="weighted")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    spec = get_game(args.game)
    config = configure(spec, spec.default_players, args.strategy, seed=3)
    run_games(config, 5000)  # compile / warm up
    probe = run_games(config, 50_000)
    n = int(probe.games_per_second * args.seconds)
    local = run_games(config, n)
    print(f"in-process: {n:,} games in {local.seconds:.1f} s = {local.games_per_second:,.0f} games/s "
          f"({local.threads} threads)")

    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1", silence_logs=logging.CRITICAL)
    client = Client(cluster, set_as_default=False)
    try:
        run_on_cluster(client, [config], 20_000, chunk_size=2_000)  # workers compile / load once
        t = time.perf_counter()
        (result,), _, _ = run_on_cluster(client, [config], n)
        seconds = time.perf_counter() - t
        rate = n / seconds
        print(f"local cluster, {args.workers} workers x 1 thread: {seconds:.1f} s = {rate:,.0f} games/s "
              f"= {100 * rate / local.games_per_second:.0f}% of in-process; identical aggregate: "
              f"{result.aggregate.to_dict() == local.aggregate.to_dict()}")

        tiny = 1_000
        descriptions = [config.describe()]
        client.gather(client.map(chunk_task, [descriptions] * 20, list(range(0, 20 * tiny, tiny)), [tiny] * 20,
                                 pure=False))
        one = run_games(config, tiny * 200, chunk_size=tiny, threads=1).seconds / 200
        tasks = 400
        t = time.perf_counter()
        client.gather(client.map(chunk_task, [descriptions] * tasks, list(range(0, tasks * tiny, tiny)),
                                 [tiny] * tasks, pure=False))
        elapsed = time.perf_counter() - t
        per_task = elapsed * args.workers / tasks - one
        print(f"tasks of {tiny:,} games: {one * 1e3:.1f} ms of play each; {tasks} tasks on {args.workers} workers "
              f"took {elapsed:.2f} s, so about {max(per_task, 0) * 1e3:.1f} ms overhead per task")
    finally:
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
