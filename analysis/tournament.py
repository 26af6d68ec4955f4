"""A tournament's tables from its line-ups' aggregates: pairwise outcomes and per-strategy totals.

Each line-up is (strategy label per seat, Aggregate), or a run result (its seats' labels and its aggregate); the same
strategy in several seats and line-ups is summed. A line-up may seat copies of one strategy (sim.multirun
one-vs-rest / all): the pairwise tables then count one comparison per pair of seats of two different strategies, and
a strategy against a copy of itself counts nowhere (it says nothing about either).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.intervals import wilson
from sim.spec import WIN_SCALE


def _lineups(items):
    return [item if isinstance(item, tuple) else ([s.label for s in item.config.seats], item.aggregate)
            for item in items]


def strategy_names(lineups):
    """Strategy labels in order of first appearance."""
    return list(dict.fromkeys(label for labels, _ in _lineups(lineups) for label in labels))


def tournament_matrix(lineups, names):
    """wins[i, j] = comparisons (a seat of strategy i against a seat of j, in one game) where i ranked strictly
    better; games[i, j] = all such comparisons. With one seat per strategy a comparison is a game where both played;
    a line-up seating i once and j three times gives three per game. Self-comparisons are left out."""
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)), np.int64)
    games = np.zeros((len(names), len(names)), np.int64)
    for labels, agg in _lineups(lineups):
        for a, la in enumerate(labels):
            for b, lb in enumerate(labels):
                if la != lb:
                    wins[index[la], index[lb]] += agg.pair_wins[a, b]
                    games[index[la], index[lb]] += agg.n
    return wins, games


def common_games(lineups, names):
    """met[i, j] = games in which strategies i and j (i ≠ j) both had a seat: the n of a pairwise share's interval
    (the comparisons of one game are not independent, so they count as one game)."""
    index = {name: i for i, name in enumerate(names)}
    met = np.zeros((len(names), len(names)), np.int64)
    for labels, agg in _lineups(lineups):
        present = sorted({index[label] for label in labels})
        for i in present:
            for j in present:
                if i != j:
                    met[i, j] += agg.n
    return met


def strategy_totals(lineups, names):
    """One row per strategy: seat_games, wins, win_share with its Wilson 95% interval, score_mean."""
    totals = {name: [0, 0.0, 0] for name in names}
    for labels, agg in _lineups(lineups):
        i_win, i_score = list(agg.seat_columns).index("win60"), list(agg.seat_columns).index("score")
        for s, label in enumerate(labels):
            t = totals.setdefault(label, [0, 0.0, 0])
            t[0] += agg.n
            t[1] += agg.seat_sum[s, i_win] / WIN_SCALE
            t[2] += int(agg.seat_sum[s, i_score])
    rows = []
    for name in names:
        n, w, score = totals[name]
        lo, hi = wilson(w, n)
        rows.append({"strategy": name, "seat_games": n, "wins": w, "win_share": w / n if n else float("nan"),
                     "win_lo": lo, "win_hi": hi, "score_mean": score / n if n else float("nan")})
    return pd.DataFrame(rows, columns=["strategy", "seat_games", "wins", "win_share", "win_lo", "win_hi",
                                       "score_mean"])
