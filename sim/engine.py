"""The engine: run configurations, a chunk of games at a time on the engine's threads, and their results.

Backends (sim/backends.py) split runs into chunks and merge the chunks' exact aggregates (sim/aggregate.py).
The engine knows no game by name: it reads everything from the game's `GameSpec`. Game i of a run always plays from
stream (seed, i), so results do not depend on threads, chunk sizes, workers or backend (docs/architecture.md §3, §5).
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numba
import numpy as np

from sim.kernel_util import TRACE_WIDTH
from sim.seats import strategy_arrays
from sim.spec import GameSpec, SpecError

MIN_CHUNK, MAX_CHUNK = 256, 1 << 18
TARGET_CHUNK_SECONDS = 0.25  # keeps the progress bar lively and Ctrl-C prompt


class EngineError(RuntimeError):
    """A run that cannot go on (a plug-in broke the rules, ...): reported in one line. `game_index` is the first
    game that failed; every game before it finished."""

    def __init__(self, message, game_index=None):
        super().__init__(message)
        self.game_index = game_index


@dataclass
class RunConfig:
    game: GameSpec
    players: int
    params: dict  # resolved rule parameters
    seats: list  # SeatStrategy per seat
    seed: int
    variants: tuple = ()
    sets: dict = field(default_factory=dict)  # rule parameters given with --set
    data_paths: dict = field(default_factory=dict)  # data tables given by the user: key -> absolute path
    data: object = None  # the loaded tables (games with data files), else None

    def kernel_inputs(self):
        data = self.game.kernel_data(self.params, self.players, self.data)
        return data, strategy_arrays(self.seats)

    def data_files(self):
        """Every data table the run uses: the user's, else the shipped default (for manifests and reports)."""
        return {**self.game.data_tables, **self.data_paths}

    def describe(self):
        """Plain data that rebuilds this configuration in another process (`rebuild`)."""
        return {"game": self.game.id, "players": self.players, "variants": list(self.variants),
                "sets": dict(self.sets), "seats": [s.spec for s in self.seats], "seed": self.seed,
                "data": dict(self.data_paths)}


def rebuild(description):
    from sim.registry import get_game
    d = description
    return configure(get_game(d["game"]), d["players"], d["seats"], d["variants"], d["sets"], d["seed"],
                     data_paths=d.get("data"))


def configure(game, players=None, strategies=None, variants=(), sets=None, seed=1, strategy_sets=None,
              data_paths=None):
    """A RunConfig from user-level choices: rule defaults, then variants, then `sets`; seats from strategy specs;
    data tables from `data_paths` (key -> file) over the shipped ones. Everything is checked here, before a game
    is played: the kernel's inputs are built once, so a bad combination fails with one clear line."""
    from sim.seats import parse_strategies
    players = players if players is not None else game.default_players
    variants = tuple(variants)
    params = game.resolve_params(players, variants, sets or {})
    data_paths = {k: os.path.abspath(v) for k, v in (data_paths or {}).items()}
    unknown = [k for k in data_paths if k not in game.data_tables]
    if unknown:
        accepted = ", ".join(game.data_tables) or "none"
        raise SpecError(f"{game.id} has no data table '{unknown[0]}'; its tables: {accepted}")
    data = game.load_data(data_paths) if game.load_data is not None else None
    seats = parse_strategies(game, strategies, players, strategy_sets)
    config = RunConfig(game, players, params, seats, seed, variants, dict(sets or {}), data_paths, data)
    config.kernel_inputs()
    return config


@dataclass
class RunResult:
    config: RunConfig
    aggregate: object  # sim.aggregate.Aggregate
    games_requested: int
    seconds: float
    complete: bool
    chunks: int
    threads: int

    @property
    def games_per_second(self):
        return self.aggregate.n / self.seconds if self.seconds > 0 else 0.0


class OutputRows:
    """The output arrays of one configuration's chunks, kept from chunk to chunk of a run (grown when a chunk
    outgrows them): fresh memory for every chunk costs a page fault per page on first write, and the worker threads
    take those one at a time (about 7% of Straw's random games/s on two threads)."""

    def __init__(self, config):
        self.players, self.seat_columns = config.players, len(config.game.all_seat_columns)
        self.game_columns = len(config.game.all_game_columns)
        self.seat_out = self.game_out = None

    def take(self, count):
        if self.seat_out is None or self.seat_out.shape[0] < count:
            rows = max(count, min(MAX_CHUNK, int(count * 1.25)))  # room for the chunk sizes' jitter
            self.seat_out = np.zeros((rows, self.players, self.seat_columns), np.int32)
            self.game_out = np.zeros((rows, self.game_columns), np.int32)
        return self.seat_out[:count], self.game_out[:count]


def run_chunk(config, seed, start, count, inputs=None, aggregate=False, rows=None):
    """Play games start .. start+count-1; returns (seat_out(count, P, S), game_out(count, G)) as int32, and with
    aggregate=True their Aggregate too. With `rows` (OutputRows) the outputs are views into its arrays, valid until
    the next chunk; else they are new arrays.

    The chunk is cut into blocks that the engine's threads play at once, each by one call of the game's kernel
    (`play_games`, compiled without the GIL), each zeroing and writing its own rows of the outputs; each block's sums
    (sim/block_sums.py, also without the GIL) are taken on the same thread right after its games."""
    from sim.aggregate import BATCHES, Aggregate
    from sim.block_sums import block_sums
    game = config.game
    data, (sids, sparams, users) = inputs or config.kernel_inputs()
    seat_out, game_out = (rows or OutputRows(config)).take(count)
    play = game.play_kernel
    length_col = game.all_game_columns.index(game.length_column)

    def block(bounds):
        lo, hi = bounds
        seat_out[lo:hi] = 0
        game_out[lo:hi] = 0
        play(*data, config.players, sids, sparams, users, seed, start + lo, hi - lo, seat_out[lo:hi],
             game_out[lo:hi], _NO_TRACE, np.zeros(1, np.int64))
        if aggregate and not game_out[lo:hi, 0].any():  # a stopped game is reported below, not summed
            return hi - lo, block_sums(seat_out[lo:hi], game_out[lo:hi], start + lo, length_col, BATCHES)
        return hi - lo, None

    try:
        blocks = _blocks(count, _pool.threads)
        if len(blocks) == 1:
            done = [block(blocks[0])]
        else:
            done = list(_pool.executor().map(block, blocks))
    except TypeError as exc:  # numba cannot pass a plug-in that may raise as a first-class function
        plugins = [s.label for s in config.seats if s.fn is not None]
        if not plugins or "No matching definition" not in str(exc):
            raise
        raise SpecError(f"plug-in strategy {plugins[0]} cannot be called from the kernel: a plug-in must return "
                        "an action and never raise (numba first-class functions have no exceptions)") from None
    bad = np.flatnonzero(game_out[:, 0])
    if bad.size:
        code = int(game_out[bad[0], 0])
        meaning = game.error_codes.get(code, f"error code {code}")
        raise EngineError(f"game {start + int(bad[0])} (seed {seed}) stopped: {meaning}", start + int(bad[0]))
    if not aggregate:
        return seat_out, game_out
    total = Aggregate(config.players, game.all_seat_columns, game.all_game_columns)
    for n, sums in done:
        total.merge(Aggregate.from_sums(game, config.players, n, sums))
    return seat_out, game_out, total


_NO_TRACE = np.zeros((0, TRACE_WIDTH), np.int32)  # the kernels' event log when none is wanted
BLOCKS_PER_THREAD = 4  # a few blocks per thread even out games of unequal length
MIN_BLOCK = 16  # games; a block builds its scratch once


def _blocks(count, threads):
    """[(lo, hi)] rows of a chunk of `count` games for `threads` threads."""
    n = 1 if threads == 1 else max(1, min(threads * BLOCKS_PER_THREAD, count // MIN_BLOCK))
    return [(count * b // n, count * (b + 1) // n) for b in range(n)]


class _ThreadPool:
    """The engine's worker threads: `threads` of them, started on first use and kept for the process."""

    def __init__(self):
        self.threads = available_threads()
        self._executor = None

    def resize(self, threads):
        if threads != self.threads and self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self.threads = threads

    def executor(self):
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="sim-block")
        return self._executor


def available_threads():
    """The most worker threads this process runs: the machine's cores, or NUMBA_NUM_THREADS when set."""
    return numba.config.NUMBA_NUM_THREADS


def set_threads(threads):
    """Use `threads` worker threads (None = all cores); returns the number in use."""
    available = available_threads()
    if threads is not None and threads < 1:
        raise SpecError(f"--threads must be at least 1, not {threads}")
    _pool.resize(available if threads is None else min(threads, available))
    return _pool.threads


_pool = _ThreadPool()


def plan_chunks(chunk_size, measured_rate):
    """Next chunk size: fixed if given, else sized from the measured games/s to take ~TARGET_CHUNK_SECONDS."""
    if chunk_size:
        return chunk_size
    if measured_rate is None:
        return MIN_CHUNK
    return int(min(MAX_CHUNK, max(MIN_CHUNK, measured_rate * TARGET_CHUNK_SECONDS)))


def run_games(config, n, *, threads=None, chunk_size=None, on_chunk=None, should_stop=None, start=0):
    """Run games start .. start+n-1 of one configuration on local threads (LocalBackend); returns its RunResult.

    on_chunk(first_game, seat_out, game_out, aggregate_so_far) is called after each chunk (the next chunk reuses the
    arrays: copy what you keep). should_stop(aggregate so
    far) -> True ends the run early. Ctrl-C ends it after the chunk in flight, with `complete=False`.
    """
    from sim.backends import LocalBackend  # the backend is built on this module's chunk runner
    on_output = None if on_chunk is None else (
        lambda first, outputs, totals: on_chunk(first, *outputs[0], totals.aggregates[0]))
    multi = LocalBackend(threads).run([config], n, chunk_size=chunk_size, should_stop=should_stop, start=start,
                                      on_output=on_output)
    return multi.results[0]
