"""Batch runner: splits n games into chunks, runs each chunk in one parallel kernel call, merges exact aggregates.

The engine knows no game by name: it reads everything from the game's `GameSpec`. Game i of a run always plays from
stream (seed, i), so results do not depend on threads, chunk sizes, workers or backend (docs/architecture.md §3, §5).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from sim.seats import strategy_arrays
from sim.spec import GameSpec, SpecError, WIN_SCALE

MIN_CHUNK, MAX_CHUNK = 256, 1 << 18
TARGET_CHUNK_SECONDS = 0.25  # keeps the progress bar lively and Ctrl-C prompt


class EngineError(RuntimeError):
    """A run that cannot go on (a plug-in broke the rules, ...): reported in one line."""


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


class IntHistogram:
    """Exact counts of integer values, mergeable: counts[i] is the number of times value offset + i was seen."""

    def __init__(self, offset=0, counts=None):
        self.offset = int(offset)
        self.counts = np.zeros(0, np.int64) if counts is None else np.asarray(counts, np.int64)

    def add(self, values):
        values = np.asarray(values, np.int64).ravel()
        if values.size:
            lo = int(values.min())
            self.merge(IntHistogram(lo, np.bincount(values - lo)))

    def merge(self, other):
        if other.counts.size == 0:
            return
        if self.counts.size == 0:
            self.offset, self.counts = other.offset, other.counts.copy()
            return
        lo = min(self.offset, other.offset)
        hi = max(self.offset + self.counts.size, other.offset + other.counts.size)
        out = np.zeros(hi - lo, np.int64)
        out[self.offset - lo:self.offset - lo + self.counts.size] += self.counts
        out[other.offset - lo:other.offset - lo + other.counts.size] += other.counts
        self.offset, self.counts = lo, out

    def values(self):
        return np.arange(self.offset, self.offset + self.counts.size)

    def to_dict(self):
        return {"offset": self.offset, "counts": self.counts.tolist()}

    @classmethod
    def from_dict(cls, d):
        return cls(d["offset"], d["counts"])


BATCHES = 32  # games are also summed per batch (game index mod BATCHES) for batch-means intervals


class Aggregate:
    """Everything a summary needs from a set of games, as exact integers; `merge` is order-independent.

    Arrays (P seats, S seat columns, G game columns, B = BATCHES):
      seat_sum/seat_sumsq/seat_min/seat_max(P, S)   game_sum/game_sumsq/game_min/game_max(G)
      rank_counts(P, P: seat, rank-1)   pair_wins(P, P: games seat i ranked strictly better than j)
      outright(P: games won alone)   ties(1: games with a shared win)   margin_sum/margin_sumsq(1: winner's score
      minus the runner-up's, absolute, 0 for a shared win)
      batch_n(B) batch_win(B, P: win60) batch_score(B, P) batch_length(B) batch_ties(B) batch_margin(B)
    Batches are fixed subsets of game indices, so batch-means intervals for any derived metric (balance, ...) are
    the same for any chunking.
    """

    _KINDS = {"seat_sum": "sum", "seat_sumsq": "sum", "seat_min": "min", "seat_max": "max", "game_sum": "sum",
              "game_sumsq": "sum", "game_min": "min", "game_max": "max", "rank_counts": "sum", "pair_wins": "sum",
              "outright": "sum", "ties": "sum", "margin_sum": "sum", "margin_sumsq": "sum", "batch_n": "sum",
              "batch_win": "sum", "batch_score": "sum", "batch_length": "sum", "batch_ties": "sum",
              "batch_margin": "sum"}

    def __init__(self, players, seat_columns, game_columns):
        self.players = players
        self.seat_columns, self.game_columns = tuple(seat_columns), tuple(game_columns)
        P, S, G, B = players, len(seat_columns), len(game_columns), BATCHES
        big = np.iinfo(np.int64)
        self.n = 0
        self.arrays = {
            "seat_sum": np.zeros((P, S), np.int64), "seat_sumsq": np.zeros((P, S), np.int64),
            "seat_min": np.full((P, S), big.max, np.int64), "seat_max": np.full((P, S), big.min, np.int64),
            "game_sum": np.zeros(G, np.int64), "game_sumsq": np.zeros(G, np.int64),
            "game_min": np.full(G, big.max, np.int64), "game_max": np.full(G, big.min, np.int64),
            "rank_counts": np.zeros((P, P), np.int64), "pair_wins": np.zeros((P, P), np.int64),
            "outright": np.zeros(P, np.int64), "ties": np.zeros(1, np.int64),
            "margin_sum": np.zeros(1, np.int64), "margin_sumsq": np.zeros(1, np.int64),
            "batch_n": np.zeros(B, np.int64), "batch_win": np.zeros((B, P), np.int64),
            "batch_score": np.zeros((B, P), np.int64), "batch_length": np.zeros(B, np.int64),
            "batch_ties": np.zeros(B, np.int64), "batch_margin": np.zeros(B, np.int64),
        }
        self.score_hist = [IntHistogram() for _ in range(P)]
        self.length_hist = IntHistogram()

    def __getattr__(self, name):
        arrays = self.__dict__.get("arrays")
        if arrays is not None and name in arrays:
            return arrays[name]
        raise AttributeError(name)

    @classmethod
    def from_chunk(cls, game, players, seat_out, game_out, start=0):
        """The aggregate of games start .. start+len(game_out)-1."""
        agg = cls(players, game.all_seat_columns, game.all_game_columns)
        seat = seat_out.astype(np.int64)
        gm = game_out.astype(np.int64)
        n = agg.n = gm.shape[0]
        if n == 0:
            return agg
        a = agg.arrays
        a["seat_sum"], a["seat_sumsq"] = seat.sum(axis=0), (seat * seat).sum(axis=0)
        a["seat_min"], a["seat_max"] = seat.min(axis=0), seat.max(axis=0)
        a["game_sum"], a["game_sumsq"] = gm.sum(axis=0), (gm * gm).sum(axis=0)
        a["game_min"], a["game_max"] = gm.min(axis=0), gm.max(axis=0)
        scores, ranks, win = seat[:, :, 0], seat[:, :, 1], seat[:, :, 2]
        length = gm[:, game.all_game_columns.index(game.length_column)]
        for s in range(players):
            a["rank_counts"][s] = np.bincount(ranks[:, s] - 1, minlength=players)[:players]
            for o in range(players):
                if o != s:
                    a["pair_wins"][s, o] = int((ranks[:, s] < ranks[:, o]).sum())
            agg.score_hist[s].add(scores[:, s])
        agg.length_hist.add(length)
        winners = (ranks == 1).sum(axis=1)
        tie = winners > 1
        a["outright"] = ((ranks == 1) & ~tie[:, None]).sum(axis=0)
        a["ties"][0] = int(tie.sum())
        margin = _winning_margin(scores, ranks, tie)
        a["margin_sum"][0], a["margin_sumsq"][0] = int(margin.sum()), int((margin * margin).sum())
        batch = (start + np.arange(n)) % BATCHES
        a["batch_n"] = np.bincount(batch, minlength=BATCHES)
        a["batch_length"] = np.bincount(batch, weights=length, minlength=BATCHES).astype(np.int64)
        a["batch_ties"] = np.bincount(batch, weights=tie, minlength=BATCHES).astype(np.int64)
        a["batch_margin"] = np.bincount(batch, weights=margin, minlength=BATCHES).astype(np.int64)
        for s in range(players):
            a["batch_win"][:, s] = np.bincount(batch, weights=win[:, s], minlength=BATCHES).astype(np.int64)
            a["batch_score"][:, s] = np.bincount(batch, weights=scores[:, s], minlength=BATCHES).astype(np.int64)
        return agg

    def win_shares_point(self):
        """(games so far, [win share per seat]): one point of a convergence curve."""
        return self.n, (self.arrays["seat_sum"][:, 2] / WIN_SCALE / self.n).tolist()

    def merge(self, other):
        if other.n == 0:
            return self
        if self.n == 0:
            self.arrays = {k: v.copy() for k, v in other.arrays.items()}
        else:
            for name, kind in self._KINDS.items():
                mine, theirs = self.arrays[name], other.arrays[name]
                if kind == "sum":
                    mine += theirs
                elif kind == "min":
                    np.minimum(mine, theirs, out=mine)
                else:
                    np.maximum(mine, theirs, out=mine)
        self.n += other.n
        for mine, theirs in zip(self.score_hist, other.score_hist):
            mine.merge(theirs)
        self.length_hist.merge(other.length_hist)
        return self

    def to_dict(self):
        d = {"n": self.n, "players": self.players, "seat_columns": list(self.seat_columns),
             "game_columns": list(self.game_columns)}
        d.update({name: arr.tolist() for name, arr in self.arrays.items()})
        d["score_hist"] = [h.to_dict() for h in self.score_hist]
        d["length_hist"] = self.length_hist.to_dict()
        return d

    @classmethod
    def from_dict(cls, d):
        agg = cls(d["players"], d["seat_columns"], d["game_columns"])
        agg.n = d["n"]
        for name in cls._KINDS:
            agg.arrays[name] = np.array(d[name], np.int64).reshape(agg.arrays[name].shape)
        agg.score_hist = [IntHistogram.from_dict(h) for h in d["score_hist"]]
        agg.length_hist = IntHistogram.from_dict(d["length_hist"])
        return agg


def _winning_margin(scores, ranks, tie):
    """|score of the winner − score of the best other seat| per game; 0 when the win is shared."""
    order = np.argsort(ranks, axis=1, kind="stable")
    first = np.take_along_axis(scores, order[:, :1], axis=1)[:, 0]
    second = np.take_along_axis(scores, order[:, 1:2], axis=1)[:, 0]
    return np.where(tie, 0, np.abs(first - second))


@dataclass
class RunResult:
    config: RunConfig
    aggregate: Aggregate
    games_requested: int
    seconds: float
    complete: bool
    chunks: int
    threads: int

    @property
    def games_per_second(self):
        return self.aggregate.n / self.seconds if self.seconds > 0 else 0.0


def run_chunk(config, seed, start, count, inputs=None):
    """Play games start .. start+count-1; returns (seat_out(count, P, S), game_out(count, G)) as int32."""
    game = config.game
    data, (sids, sparams, users) = inputs or config.kernel_inputs()
    seat_out = np.zeros((count, config.players, len(game.all_seat_columns)), np.int32)
    game_out = np.zeros((count, len(game.all_game_columns)), np.int32)
    game.chunk_kernel(*data, config.players, sids, sparams, users, seed, start, count, seat_out, game_out)
    bad = np.flatnonzero(game_out[:, 0])
    if bad.size:
        code = int(game_out[bad[0], 0])
        meaning = game.error_codes.get(code, f"error code {code}")
        raise EngineError(f"game {start + int(bad[0])} (seed {seed}) stopped: {meaning}")
    return seat_out, game_out


def set_threads(threads):
    """Use `threads` worker threads (None = all cores); returns the number in use."""
    available = numba.config.NUMBA_NUM_THREADS
    if threads is not None:
        if threads < 1:
            raise SpecError(f"--threads must be at least 1, not {threads}")
        numba.set_num_threads(min(threads, available))
    else:
        numba.set_num_threads(available)
    return numba.get_num_threads()


def plan_chunks(chunk_size, measured_rate):
    """Next chunk size: fixed if given, else sized from the measured games/s to take ~TARGET_CHUNK_SECONDS."""
    if chunk_size:
        return chunk_size
    if measured_rate is None:
        return MIN_CHUNK
    return int(min(MAX_CHUNK, max(MIN_CHUNK, measured_rate * TARGET_CHUNK_SECONDS)))


def run_games(config, n, *, threads=None, chunk_size=None, on_chunk=None, should_stop=None, start=0):
    """Run games start .. start+n-1 of `config` locally.

    on_chunk(first_game, seat_out, game_out, aggregate_so_far) is called after each chunk (progress, saving rows).
    should_stop(aggregate_so_far) -> True ends the run early (precision targets). Ctrl-C ends it after the chunk in
    flight, with `complete=False`; what finished is kept.
    """
    threads_used = set_threads(threads)
    inputs = config.kernel_inputs()
    total = Aggregate(config.players, config.game.all_seat_columns, config.game.all_game_columns)
    done, chunks, rate = 0, 0, None
    t0 = time.perf_counter()
    interrupted = False
    try:
        while done < n:
            count = min(plan_chunks(chunk_size, rate), n - done)
            t = time.perf_counter()
            seat_out, game_out = run_chunk(config, config.seed, start + done, count, inputs)
            rate = count / max(time.perf_counter() - t, 1e-6)
            total.merge(Aggregate.from_chunk(config.game, config.players, seat_out, game_out, start + done))
            if on_chunk is not None:
                on_chunk(start + done, seat_out, game_out, total)
            done += count
            chunks += 1
            if should_stop is not None and should_stop(total):
                break
    except KeyboardInterrupt:
        interrupted = True
    return RunResult(config, total, n, time.perf_counter() - t0, not interrupted, chunks, threads_used)
