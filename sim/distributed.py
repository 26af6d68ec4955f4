"""The Dask distributed backend: chunks (game ranges) are Dask tasks, the client merges their exact aggregates.

A task is pure — (configurations, first game, count) → aggregates — so a task lost with its worker is simply
recomputed by Dask, and the client counts each chunk exactly once (it merges one result per future). Workers rebuild
the configuration from plain data (`RunConfig.describe`) and compile (or load from their numba cache) once per
process. Per-game rows, when wanted, are written by the worker that played the chunk, one Parquet file per chunk,
atomically, under the run directory (which must then be on a path every worker can write).
"""
from __future__ import annotations

import os
import shutil
import time

from sim.aggregate import Aggregate, PairedSums
from sim.backends import DeferredInterrupt, MultiResult, RunTotals, play_chunk
from sim.engine import EngineError, rebuild, set_threads
from sim.spec import SpecError

DEFAULT_CONNECT_TIMEOUT = 10.0
ROWS_FOLDER = "games"  # per-game rows of a cluster run: ROWS_FOLDER/part-<first game>.parquet, one per chunk
_CONFIG_CACHE = {}  # per worker process: description key -> (configs, kernel inputs)


def check_address(address):
    """A scheduler address as tcp://HOST:PORT (tcp:// may be left out; tls:// and inproc:// pass as given), or one
    SpecError line at once, before any connection is tried."""
    import re
    text = address.strip()
    match = re.fullmatch(r"(?:(tcp|tls)://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})", text)
    if not match or not 1 <= int(match.group(3)) <= 65535:
        raise SpecError(f"--scheduler '{address}' is not a scheduler address; expected tcp://HOST:PORT "
                        "(e.g. tcp://scheduler-host:8786)")
    return text if match.group(1) else f"tcp://{text}"


def connect(scheduler=None, workers=None, connect_timeout=DEFAULT_CONNECT_TIMEOUT):
    """A Dask client: to an existing scheduler (`tcp://host:8786`), or to a local cluster of `workers` processes
    that it starts (one thread each). One clear SpecError when the scheduler cannot be reached in time."""
    import logging

    from dask.distributed import Client, LocalCluster
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    if scheduler:
        try:
            client = Client(scheduler, timeout=connect_timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise SpecError(f"cannot reach the Dask scheduler at {scheduler} within {connect_timeout:g} s: "
                            f"{reason}") from None
        return client, None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=logging.CRITICAL)
    return Client(cluster, set_as_default=False), cluster


def describe_backend(client, scheduler):
    info = client.scheduler_info()
    workers = info.get("workers", {})
    return {"backend": "dask", "scheduler": scheduler or info.get("address"), "workers": len(workers),
            "worker_threads": sum(w.get("nthreads", 1) for w in workers.values())}


def _configs(descriptions):
    key = repr(descriptions)
    if key not in _CONFIG_CACHE:
        configs = [rebuild(d) for d in descriptions]
        _CONFIG_CACHE[key] = (configs, [c.kernel_inputs() for c in configs])
    return _CONFIG_CACHE[key]


def chunk_task(descriptions, start, count, rows_dir=None, threads=None):
    """Runs on a worker: games start..start+count-1 of every configuration (`play_chunk`). Returns per
    configuration the aggregate as a dict and the paired metric sums against the first one (or None)."""
    if threads:
        set_threads(threads)
    configs, inputs = _configs(descriptions)
    aggregates, paired, outputs = play_chunk(configs, inputs, start, count)
    if rows_dir is not None:
        for i, (config, (seat_out, game_out)) in enumerate(zip(configs, outputs)):
            _write_rows(config, rows_dir if len(configs) == 1 else os.path.join(rows_dir, f"{i:02d}"), start,
                        seat_out, game_out)
    return {"start": start, "count": count, "aggregates": [agg.to_dict() for agg in aggregates],
            "paired": [None if p is None else {"n": p.n, "sums": p.sums} for p in paired]}


PENDING = ".pending"


def _part_name(start):
    return f"part-{start:012d}.parquet"


def _write_rows(config, folder, start, seat_out, game_out):
    """Rows of one chunk into FOLDER/.pending/; the client moves a part into FOLDER when it merges the chunk, so
    FOLDER holds exactly the run's games. No .pending folder means the run is over: nothing is written."""
    from sim.results import GameRowWriter
    pending = os.path.join(folder, PENDING)
    if not os.path.isdir(pending):
        return
    writer = GameRowWriter(os.path.join(pending, _part_name(start)), config)
    writer.write(start, seat_out, game_out)
    writer.close()


def default_chunk_size(n, client):
    """About 8 tasks per worker thread, each at least 2,000 games: enough tasks to balance load and to lose little
    when a worker dies, few enough that the scheduler's per-task overhead (docs/scaling.md) stays negligible."""
    return int(max(2000, min(1 << 20, -(-n // (_cluster_threads(client) * 8)))))


def run_on_cluster(client, configs, n, *, chunk_size=None, rows_dir=None, on_chunk=None, threads=None,
                   should_stop=None, start=0):
    """Play games start..start+n-1 of every configuration on the cluster; returns (RunResults, paired sums,
    convergence).

    A window of tasks is kept in flight; results are merged in chunk order (early finishers wait in a small
    buffer), so `should_stop` (precision targets) sees the same prefix of games whatever the workers do.
    Ctrl-C cancels the tasks still pending and returns what was merged (complete=False)."""
    from dask.distributed import as_completed

    descriptions = [c.describe() for c in configs]
    size = chunk_size or default_chunk_size(n, client)
    ranges = [(start + s, min(size, n - s)) for s in range(0, n, size)]
    cluster_threads = _cluster_threads(client)  # taken now: a Ctrl-C may stop workers before the run ends
    window = max(4, 4 * cluster_threads)
    token = f"{abs(hash(repr(descriptions))):x}-{time.time_ns()}"

    def submit(i):
        first, count = ranges[i]
        return client.submit(chunk_task, descriptions, first, count, rows_dir, threads, retries=3,
                             key=f"sim-chunk-{token}-{first}")

    if rows_dir is not None:
        if len(configs) != 1:
            raise SpecError("per-game rows are saved for single runs only")
        os.makedirs(os.path.join(rows_dir, PENDING), exist_ok=True)
    totals = RunTotals(configs)
    pending = {}  # chunk index -> result waiting for its turn
    next_merge, next_submit = 0, min(window, len(ranges))
    futures = [submit(i) for i in range(next_submit)]
    stream = as_completed(futures, loop=client.loop)
    interrupted = stopped = False
    t0 = time.perf_counter()
    try:
        with DeferredInterrupt() as ctrl_c:
            for future in stream:
                try:
                    out = future.result()
                except EngineError as exc:
                    client.cancel(futures)
                    raise SpecError(str(exc)) from None
                pending[(out["start"] - start) // size] = out
                if next_submit < len(ranges) and not stopped:
                    futures.append(submit(next_submit))
                    stream.add(futures[-1])
                    next_submit += 1
                while next_merge in pending and not stopped:
                    out = pending.pop(next_merge)
                    totals.merge([Aggregate.from_dict(d) for d in out["aggregates"]],
                                 [None if p is None else PairedSums(p["n"], p["sums"]) for p in out["paired"]])
                    if rows_dir is not None:
                        os.replace(os.path.join(rows_dir, PENDING, _part_name(out["start"])),
                                   os.path.join(rows_dir, _part_name(out["start"])))
                    next_merge += 1
                    if on_chunk is not None:
                        on_chunk(ranges[next_merge - 1][1])
                    if should_stop is not None and should_stop(totals.aggregates[0]):
                        stopped = True
                if ctrl_c.requested and next_merge < len(ranges):
                    interrupted = True
                if interrupted or stopped or next_merge == len(ranges):
                    client.cancel([f for f in futures if not f.done()])
                    break
    except KeyboardInterrupt:
        interrupted = True
        client.cancel(futures)
    finally:
        if rows_dir is not None:
            shutil.rmtree(os.path.join(rows_dir, PENDING), ignore_errors=True)
    seconds = time.perf_counter() - t0
    complete = not interrupted and (stopped or next_merge == len(ranges))
    multi = totals.result(n, seconds, complete, cluster_threads)
    return multi.results, multi.paired, multi.convergence


def _cluster_threads(client):
    return max(1, describe_backend(client, None)["worker_threads"])


class DaskBackend:
    """`with DaskBackend(scheduler, workers, timeout) as backend:` — a client for the run, closed afterwards (and
    the local cluster stopped when this started one). `run` as LocalBackend's (sim/backends.py); per-game rows are
    one Parquet file per chunk under ROWS_TO/games/."""

    def __init__(self, scheduler=None, workers=None, connect_timeout=DEFAULT_CONNECT_TIMEOUT):
        self.scheduler, self.workers, self.connect_timeout = scheduler, workers, connect_timeout
        self.client = self.cluster = self.played_on = None

    def __enter__(self):
        self.client, self.cluster = connect(self.scheduler, self.workers, self.connect_timeout)
        return self

    def __exit__(self, *exc):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        return False

    def describe(self):
        """The cluster as the last run found it when it started (a Ctrl-C may stop the local workers before the
        manifest is written), or as it is now before any run."""
        return self.played_on or describe_backend(self.client, self.scheduler)

    def run(self, configs, n, *, chunk_size=None, on_chunk=None, should_stop=None, rows_to=None, start=0):
        self.played_on = describe_backend(self.client, self.scheduler)
        rows_dir = None if rows_to is None else os.path.join(rows_to, ROWS_FOLDER)
        results, paired, convergence = run_on_cluster(self.client, configs, n, chunk_size=chunk_size,
                                                      rows_dir=rows_dir, on_chunk=on_chunk, should_stop=should_stop,
                                                      start=start)
        files = []
        if rows_dir is not None and os.path.isdir(rows_dir):
            files = sorted(f"{ROWS_FOLDER}/{f}" for f in os.listdir(rows_dir) if f.endswith(".parquet"))
        return MultiResult(results, paired, convergence, files)
