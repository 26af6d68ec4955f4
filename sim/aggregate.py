"""Exact, mergeable aggregates of finished games: what every summary, comparison and report is computed from.

An Aggregate holds integer sums, extremes, histograms and batch sums of a set of games; merging two is exact and
order-independent, so results do not depend on threads, chunk sizes, workers or backend. PairedSums holds the
per-game differences of one configuration against a baseline that played the same games (common random numbers).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.spec import WIN_SCALE


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
        from sim.block_sums import block_sums
        return cls.from_sums(game, players, len(game_out), block_sums(
            seat_out, game_out, start, game.all_game_columns.index(game.length_column), BATCHES))

    @classmethod
    def from_sums(cls, game, players, n, sums):
        """The aggregate of n games from what sim.block_sums.block_sums returned for them."""
        agg = cls(players, game.all_seat_columns, game.all_game_columns)
        if n == 0:
            return agg
        agg.n = n
        (seat_sum, seat_sumsq, seat_min, seat_max, game_sum, game_sumsq, game_min, game_max, rank_counts,
         pair_wins, outright, totals, batch_n, batch_length, batch_ties, batch_margin, batch_win, batch_score,
         score_lo, score_counts, length_lo, length_counts) = sums
        agg.arrays.update(seat_sum=seat_sum, seat_sumsq=seat_sumsq, seat_min=seat_min, seat_max=seat_max,
                          game_sum=game_sum, game_sumsq=game_sumsq, game_min=game_min, game_max=game_max,
                          rank_counts=rank_counts, pair_wins=pair_wins, outright=outright, ties=totals[0:1],
                          margin_sum=totals[1:2], margin_sumsq=totals[2:3], batch_n=batch_n, batch_win=batch_win,
                          batch_score=batch_score, batch_length=batch_length, batch_ties=batch_ties,
                          batch_margin=batch_margin)
        for s in range(players):
            width = int(seat_max[s, 0] - score_lo[s]) + 1
            agg.score_hist[s] = IntHistogram(score_lo[s], score_counts[s, :width])
        agg.length_hist = IntHistogram(length_lo[0], length_counts)
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


def winning_margin(scores, ranks, tie):
    """|score of the winner − score of the best other seat| per game; 0 when the win is shared."""
    order = np.argsort(ranks, axis=1, kind="stable")
    first = np.take_along_axis(scores, order[:, :1], axis=1)[:, 0]
    second = np.take_along_axis(scores, order[:, 1:2], axis=1)[:, 0]
    return np.where(tie, 0, np.abs(first - second))


def game_metrics(config, seat_out, game_out):
    """Per-game integer metrics: {name: int64 array(count)}; seat metrics are named win_s<n> and score_s<n> by the
    seat number a person reads (win_s1 is the first seat's, array index 0)."""
    game = config.game
    ranks = seat_out[:, :, 1]
    tie = (ranks == 1).sum(axis=1) > 1
    out = {}
    for s in range(config.players):
        out[f"win_s{s + 1}"] = seat_out[:, s, 2].astype(np.int64)
        out[f"score_s{s + 1}"] = seat_out[:, s, 0].astype(np.int64)
    out["length"] = game_out[:, game.all_game_columns.index(game.length_column)].astype(np.int64)
    out["tie"] = tie.astype(np.int64)
    out["margin"] = winning_margin(seat_out[:, :, 0].astype(np.int64), ranks, tie)
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
