"""Where chunks of games are played: two backends with one interface.

    with LocalBackend(threads) as backend:            # the engine's threads in this process
    with DaskBackend(scheduler, workers) as backend:  # tasks on a Dask cluster (sim/distributed.py)
        multi = backend.run(configs, n, chunk_size=None, on_chunk=None, should_stop=None, rows_to=None)

Both play games 0..n-1 of every configuration chunk by chunk (`play_chunk`: every configuration on the same games,
so each configuration is paired with the first one that seats as many players: `pairing`), merge the chunks' exact
aggregates in game order (`RunTotals`) and return a MultiResult. on_chunk(count) is called after each merged chunk;
should_stop(aggregate of the first configuration) -> True ends the run early (precision targets); rows_to=FOLDER
saves one row per game of a single configuration under FOLDER. Ctrl-C ends the run after the chunk in flight with
complete=False, keeping what finished.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass, field

from sim.aggregate import Aggregate, PairedSums, game_metrics
from sim.engine import EngineError, OutputRows, RunResult, plan_chunks, run_chunk, set_threads
from sim.spec import SpecError

GAMES_FILE = "games.parquet"  # per-game rows of a local run: one file, one row group per chunk


@dataclass
class MultiResult:
    results: list  # RunResult per configuration, in order
    paired: list  # PairedSums of configuration i vs configuration paired_with[i] (None where that is None)
    convergence: list  # per configuration: [(n, [win share per seat])] after each merged chunk
    files: list = field(default_factory=list)  # per-game row files written under rows_to, relative to it
    fault: object = None  # the EngineError that stopped the run early (the games before it are kept), or None

    @property
    def paired_with(self):
        return pairing([r.config for r in self.results])


def pairing(configs):
    """For each configuration, the index of the one it is paired with: the first configuration with the same
    player count (the base of that count in a compare crossing player counts with variants); None for those."""
    first, out = {}, []
    for i, config in enumerate(configs):
        out.append(first.get(config.players))
        first.setdefault(config.players, i)
    return out


def play_chunk(configs, inputs, start, count, rows=None):
    """Games start..start+count-1 of every configuration -> (aggregates, paired sums or None, kernel outputs); with
    `rows` (an OutputRows per configuration) the outputs reuse its arrays."""
    aggregates, paired, outputs, metrics = [], [], [], []
    partners = pairing(configs)
    for i, (config, inp) in enumerate(zip(configs, inputs)):
        seat_out, game_out, aggregate = run_chunk(config, config.seed, start, count, inp, aggregate=True,
                                                  rows=rows[i] if rows else None)
        outputs.append((seat_out, game_out))
        aggregates.append(aggregate)
        sums = None
        # per-game metrics only when there is something to pair with
        metrics.append(game_metrics(config, seat_out, game_out) if len(configs) > 1 else None)
        if partners[i] is not None:
            sums = PairedSums()
            sums.add(metrics[partners[i]], metrics[i])
        paired.append(sums)
    return aggregates, paired, outputs


class RunTotals:
    """The merged aggregates, paired sums and convergence curves of a run so far."""

    def __init__(self, configs):
        if any(c.seed != configs[0].seed for c in configs):
            raise SpecError("configurations compared together must share one seed")
        self.configs = configs
        self.aggregates = [Aggregate(c.players, c.game.all_seat_columns, c.game.all_game_columns) for c in configs]
        self.paired = [None if j is None else PairedSums() for j in pairing(configs)]
        self.convergence = [[] for _ in configs]
        self.chunks = 0

    def merge(self, aggregates, paired):
        for i, agg in enumerate(aggregates):
            self.aggregates[i].merge(agg)
            self.convergence[i].append(self.aggregates[i].win_shares_point())
            if self.paired[i] is not None and paired[i] is not None:
                self.paired[i].merge(paired[i].n, paired[i].sums)
        self.chunks += 1

    def result(self, n, seconds, complete, threads, files=()):
        results = [RunResult(c, agg, n, seconds, complete, self.chunks, threads)
                   for c, agg in zip(self.configs, self.aggregates)]
        return MultiResult(results, self.paired, self.convergence, list(files))


class DeferredInterrupt:
    """`with DeferredInterrupt() as stop:` — a first Ctrl-C sets stop.requested instead of raising, so the run ends
    after the chunk in flight with every chunk merged (and its rows saved) whole or not at all; a second Ctrl-C
    interrupts at once. Only the main thread receives signals; elsewhere this changes nothing."""

    def __enter__(self):
        self.requested = False
        self._previous = None
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame):
        self.requested = True
        signal.signal(signal.SIGINT, self._previous)

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
        return False


class LocalBackend:
    """Chunks played one after another in this process, each cut into blocks played on `threads` threads."""

    def __init__(self, threads=None):
        self.threads = threads

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def describe(self):
        """What the manifest records about the backend (nothing beyond the default `local`)."""
        return {}

    def run(self, configs, n, *, chunk_size=None, on_chunk=None, should_stop=None, rows_to=None, start=0,
            on_output=None):
        """See the module docstring. Local extras: games start..start+n-1; on_output(first game, [(seat_out,
        game_out) per configuration], RunTotals) after each chunk, with the kernel's raw outputs (valid until the next
        chunk, which reuses the arrays)."""
        threads_used = set_threads(self.threads)
        totals = RunTotals(configs)
        inputs = [c.kernel_inputs() for c in configs]
        rows = [OutputRows(c) for c in configs]
        writer = _row_writer(configs, rows_to)
        done, rate, interrupted, fault = 0, None, False, None
        t0 = time.perf_counter()
        try:
            with DeferredInterrupt() as ctrl_c:
                while done < n and not ctrl_c.requested:
                    count = min(plan_chunks(chunk_size, rate), n - done)
                    t = time.perf_counter()
                    try:
                        aggregates, paired, outputs = play_chunk(configs, inputs, start + done, count, rows)
                    except EngineError as exc:  # keep the games before the fault: play them again, then stop
                        fault, count = exc, exc.game_index - (start + done)
                        if count == 0:
                            break
                        aggregates, paired, outputs = play_chunk(configs, inputs, start + done, count, rows)
                    rate = count / max(time.perf_counter() - t, 1e-6)
                    totals.merge(aggregates, paired)
                    if writer is not None:
                        writer.write(start + done, *outputs[0])
                    if on_output is not None:
                        on_output(start + done, outputs, totals)
                    done += count
                    if on_chunk is not None:
                        on_chunk(count)
                    if fault is not None or (should_stop is not None and should_stop(totals.aggregates[0])):
                        break
                interrupted = ctrl_c.requested and done < n
        except KeyboardInterrupt:
            interrupted = True
        except BaseException:
            if writer is not None:
                writer.abandon()
            raise
        files = []
        if writer is not None:
            writer.close()
            files = [GAMES_FILE] if writer.rows else []
        multi = totals.result(n, time.perf_counter() - t0, not interrupted and fault is None, threads_used, files)
        multi.fault = fault
        return multi


def _row_writer(configs, rows_to):
    if rows_to is None:
        return None
    if len(configs) != 1:
        raise SpecError("per-game rows are saved for single runs only")
    from sim.results import GameRowWriter
    return GameRowWriter(os.path.join(rows_to, GAMES_FILE), configs[0])


def backend_for(scheduler=None, workers=None, connect_timeout=None, threads=None):
    """Local threads by default; a Dask cluster with `scheduler` (an existing one) or `workers` (started here)."""
    if scheduler is not None:
        from sim.distributed import check_address
        scheduler = check_address(scheduler)
    if scheduler and workers:
        raise SpecError("give --scheduler (an existing cluster) or --workers (a local one), not both")
    if not scheduler and not workers:
        return LocalBackend(threads)
    from sim.distributed import DEFAULT_CONNECT_TIMEOUT, DaskBackend
    return DaskBackend(scheduler, workers, connect_timeout or DEFAULT_CONNECT_TIMEOUT)
