"""The summary of a run: per seat, per strategy and per game statistics with intervals, from an exact Aggregate.

Every win share comes with its Wilson 95% interval and its n (games); every mean with its standard error.
"""
from __future__ import annotations

import numpy as np

from analysis.intervals import mean_se, wilson
from sim.spec import WIN_SCALE


def _hist_quantiles(hist, qs=(0.05, 0.25, 0.5, 0.75, 0.95)):
    total = int(hist.counts.sum())
    if total == 0:
        return {}
    cum = np.cumsum(hist.counts)
    out = {}
    for q in qs:
        idx = int(np.searchsorted(cum, q * total, side="left"))
        out[f"q{int(round(q * 100)):02d}"] = int(hist.offset + min(idx, hist.counts.size - 1))
    return out


def seat_rows(agg, seats):
    cols = list(agg.seat_columns)
    i_score, i_win, i_rank = cols.index("score"), cols.index("win60"), cols.index("rank")
    rows = []
    for s in range(agg.players):
        wins = agg.seat_sum[s, i_win] / WIN_SCALE
        lo, hi = wilson(wins, agg.n)
        mean, se = mean_se(int(agg.seat_sum[s, i_score]), int(agg.seat_sumsq[s, i_score]), agg.n)
        rows.append({
            "seat": s, "strategy": seats[s].label, "games": agg.n,
            "wins": wins, "win_share": wins / agg.n if agg.n else float("nan"), "win_lo": lo, "win_hi": hi,
            "score_mean": mean, "score_se": se,
            "score_min": int(agg.seat_min[s, i_score]) if agg.n else None,
            "score_max": int(agg.seat_max[s, i_score]) if agg.n else None,
            "rank_mean": agg.seat_sum[s, i_rank] / agg.n if agg.n else float("nan"),
            "rank_counts": agg.rank_counts[s].tolist(),
            "score_quantiles": _hist_quantiles(agg.score_hist[s]),
            "stats": {c: agg.seat_sum[s, j] / agg.n for j, c in enumerate(cols) if c not in ("score", "rank", "win60")
                      and agg.n},
        })
    return rows


def strategy_rows(agg, seats):
    """Seats grouped by strategy label: seat-games, win share over them, mean score and rank."""
    cols = list(agg.seat_columns)
    i_score, i_win, i_rank = cols.index("score"), cols.index("win60"), cols.index("rank")
    groups = {}
    for s, seat in enumerate(seats):
        groups.setdefault(seat.label, []).append(s)
    rows = []
    for label, members in groups.items():
        n = agg.n * len(members)
        wins = sum(agg.seat_sum[s, i_win] for s in members) / WIN_SCALE
        lo, hi = wilson(wins, n)
        total = sum(int(agg.seat_sum[s, i_score]) for s in members)
        total_sq = sum(int(agg.seat_sumsq[s, i_score]) for s in members)
        mean, se = mean_se(total, total_sq, n)
        ranks = sum(int(agg.seat_sum[s, i_rank]) for s in members)
        rows.append({"strategy": label, "seats": members, "seat_games": n, "wins": wins,
                     "win_share": wins / n if n else float("nan"), "win_lo": lo, "win_hi": hi,
                     "score_mean": mean, "score_se": se, "rank_mean": ranks / n if n else float("nan")})
    return rows


def _per_seat_sums(agg, name):
    """Per-seat sums of a seat column, or a game column's sum for every seat."""
    if name in agg.seat_columns:
        return agg.seat_sum[:, agg.seat_columns.index(name)]
    return np.full(agg.players, agg.game_sum[agg.game_columns.index(name)])


def game_stats(agg, game):
    """Mean ± s.e. of every per-game column, plus the game's declared ratios."""
    out = {}
    for j, c in enumerate(agg.game_columns):
        if c == "error":
            continue
        mean, se = mean_se(int(agg.game_sum[j]), int(agg.game_sumsq[j]), agg.n)
        out[c] = {"mean": mean, "se": se, "min": int(agg.game_min[j]) if agg.n else None,
                  "max": int(agg.game_max[j]) if agg.n else None}
    ratios = {}
    for r in game.ratios:
        if r.per_seat:
            num, den = _per_seat_sums(agg, r.numerator), _per_seat_sums(agg, r.denominator)
            ratios[r.name] = [float(a) / float(b) if b else None for a, b in zip(num, den)]
        else:
            num = agg.game_sum[agg.game_columns.index(r.numerator)]
            den = agg.game_sum[agg.game_columns.index(r.denominator)]
            ratios[r.name] = float(num) / float(den) if den else None
    return out, ratios


def length_summary(agg, game):
    j = list(agg.game_columns).index(game.length_column)
    mean, se = mean_se(int(agg.game_sum[j]), int(agg.game_sumsq[j]), agg.n)
    return {"column": game.length_column, "mean": mean, "se": se, **_hist_quantiles(agg.length_hist),
            "min": int(agg.game_min[j]) if agg.n else None, "max": int(agg.game_max[j]) if agg.n else None}


def summarize(agg, config):
    game = config.game
    stats, ratios = game_stats(agg, game)
    return {
        "games": agg.n,
        "seats": seat_rows(agg, config.seats),
        "strategies": strategy_rows(agg, config.seats),
        "length": length_summary(agg, game),
        "game_stats": stats,
        "ratios": ratios,
    }
