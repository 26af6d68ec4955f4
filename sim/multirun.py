"""Several configurations played on the same games: compare (paired differences), sweep and tournament.

Every configuration plays games 0..n-1 of the same seed, chunk by chunk in lock-step, so game i of every
configuration starts from the same random stream (common random numbers, docs/architecture.md §3) and differences per game are
paired. Paired sums are integers (win shares × 60), so they merge exactly like every aggregate.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np

from sim.engine import Aggregate, RunResult, plan_chunks, run_chunk, set_threads
from sim.spec import SpecError, WIN_SCALE

PAIRED_METRICS = ("win", "score")  # per seat; plus the game-level ones below
GAME_METRICS = ("length", "tie", "margin")


def game_metrics(config, seat_out, game_out):
    """Per-game integer metrics: {name: int64 array(count)}; seat metrics are named win_s<i> and score_s<i>."""
    game = config.game
    ranks = seat_out[:, :, 1]
    tie = (ranks == 1).sum(axis=1) > 1
    out = {}
    for s in range(config.players):
        out[f"win_s{s}"] = seat_out[:, s, 2].astype(np.int64)
        out[f"score_s{s}"] = seat_out[:, s, 0].astype(np.int64)
    out["length"] = game_out[:, game.all_game_columns.index(game.length_column)].astype(np.int64)
    out["tie"] = tie.astype(np.int64)
    from sim.engine import _winning_margin
    out["margin"] = _winning_margin(seat_out[:, :, 0].astype(np.int64), ranks, tie)
    return out


# How a metric's integer values scale to the reported unit.
def _scale(metric):
    return WIN_SCALE if metric.startswith("win_") else 1


@dataclass
class PairedSums:
    """Sums over games of d = metric(variant) − metric(baseline), and of both sides, per shared metric."""
    n: int = 0
    sums: dict = field(default_factory=dict)  # metric -> [sum d, sum d², sum baseline, sum variant]

    def add(self, base, other):
        for name in base:
            if name not in other:
                continue
            d = other[name] - base[name]
            acc = self.sums.setdefault(name, [0, 0, 0, 0])
            acc[0] += int(d.sum())
            acc[1] += int((d * d).sum())
            acc[2] += int(base[name].sum())
            acc[3] += int(other[name].sum())
        self.n += len(next(iter(base.values())))

    def merge(self, n, sums):
        """Add another chunk's sums (as chunk_task returns them)."""
        self.n += n
        for name, acc in sums.items():
            mine = self.sums.setdefault(name, [0, 0, 0, 0])
            for k in range(4):
                mine[k] += acc[k]

    def as_paired(self):
        """The metric dict analysis.compare.paired_differences expects, in reported units."""
        out = {}
        for name, (s, s2, b, v) in self.sums.items():
            k = _scale(name)
            out[name] = {"n": self.n, "sum": s / k, "sumsq": s2 / (k * k), "base_mean": b / k / self.n,
                         "variant_mean": v / k / self.n}
        return out


@dataclass
class MultiResult:
    results: list  # RunResult per configuration, in order
    paired: list  # PairedSums of configuration i vs configuration 0 (None for 0 and for unpaired ones)
    convergence: list  # per configuration: [(n, [win share per seat])]


def run_together(configs, n, *, threads=None, chunk_size=None, on_chunk=None):
    """Play games 0..n-1 of every configuration in lock-step chunks; pairs configurations with the first one when
    they have the same player count. Ctrl-C ends after the chunk in flight, keeping what finished."""
    threads_used = set_threads(threads)
    seed = configs[0].seed
    if any(c.seed != seed for c in configs):
        raise SpecError("configurations compared together must share one seed")
    inputs = [c.kernel_inputs() for c in configs]
    totals = [Aggregate(c.players, c.game.all_seat_columns, c.game.all_game_columns) for c in configs]
    paired = [None] + [PairedSums() if c.players == configs[0].players else None for c in configs[1:]]
    convergence = [[] for _ in configs]
    done, chunks, rate, interrupted = 0, 0, None, False
    t0 = time.perf_counter()
    try:
        while done < n:
            count = min(plan_chunks(chunk_size, rate), n - done)
            t = time.perf_counter()
            outputs = [run_chunk(c, seed, done, count, inp) for c, inp in zip(configs, inputs)]
            rate = count / max(time.perf_counter() - t, 1e-6)
            base_metrics = None
            for i, (config, (seat_out, game_out)) in enumerate(zip(configs, outputs)):
                totals[i].merge(Aggregate.from_chunk(config.game, config.players, seat_out, game_out, done))
                metrics = game_metrics(config, seat_out, game_out)
                if i == 0:
                    base_metrics = metrics
                elif paired[i] is not None:
                    paired[i].add(base_metrics, metrics)
                convergence[i].append(totals[i].win_shares_point())
            done += count
            chunks += 1
            if on_chunk is not None:
                on_chunk(count)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - t0
    results = [RunResult(c, agg, n, seconds, not interrupted, chunks, threads_used) for c, agg in zip(configs, totals)]
    return MultiResult(results, paired, convergence)


def parse_range(text):
    """'40:60:2' -> [40, 42, ..., 60] (inclusive); '1,3,7' -> [1, 3, 7]; numbers may be floats."""
    def number(raw):
        try:
            value = float(raw)
        except ValueError:
            raise SpecError(f"sweep value '{raw}' is not a number") from None
        return int(value) if value.is_integer() else value

    if ":" in text:
        parts = text.split(":")
        if len(parts) not in (2, 3):
            raise SpecError(f"malformed sweep range '{text}'; expected START:STOP:STEP")
        start, stop = number(parts[0]), number(parts[1])
        step = number(parts[2]) if len(parts) == 3 else 1
        if step <= 0:
            raise SpecError(f"sweep range '{text}' needs a positive step")
        if stop < start:
            raise SpecError(f"sweep range '{text}' runs backwards: {start} > {stop}")
        values, k = [], 0
        while start + k * step <= stop + 1e-9:
            v = start + k * step
            values.append(int(round(v)) if float(v).is_integer() else round(v, 10))
            k += 1
        return values
    values = [number(v) for v in text.split(",") if v.strip()]
    if not values:
        raise SpecError(f"malformed sweep values '{text}'")
    return values


def tournament_lineups(strategies, players):
    """Seat line-ups so that seat effects cancel: with one strategy per seat, every cyclic rotation; with more
    strategies than seats, every combination of `players` of them, each in every rotation."""
    if len(strategies) < players:
        raise SpecError(f"a {players}-player tournament needs at least {players} strategies, got {len(strategies)}")
    if len(set(strategies)) != len(strategies):
        raise SpecError("tournament strategies must be distinct")
    lineups = []
    for group in itertools.combinations(strategies, players):
        for r in range(players):
            lineups.append(list(group[r:] + group[:r]))
    return lineups


def tournament_matrix(results, names):
    """Pairwise outcomes between strategies summed over line-ups: wins[i, j] = games where i ranked strictly
    better than j; games[i, j] = games where both played."""
    k = len(names)
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((k, k), np.int64)
    games = np.zeros((k, k), np.int64)
    for result in results:
        labels = [s.label for s in result.config.seats]
        agg = result.aggregate
        for a, la in enumerate(labels):
            for b, lb in enumerate(labels):
                if a != b:
                    wins[index[la], index[lb]] += agg.pair_wins[a, b]
                    games[index[la], index[lb]] += agg.n
    return wins, games
