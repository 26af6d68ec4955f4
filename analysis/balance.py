"""Balance metrics of one aggregate, each with a 95% interval: {"value", "lo", "hi", "se", "label", "unit", "method"}.

- balance = 1 − (largest − smallest seat win share). Its interval comes from simultaneous (Bonferroni over the
  P(P−1)/2 seat pairs) normal intervals for every pairwise difference of win shares: if they all cover, the true
  largest gap lies in [max(0, max lower bound of |d|), max upper bound of |d|], so balance lies in one minus that.
  The variance of a pairwise difference uses each seat's exact per-game win-share variance (sums of squares) and
  the covariance bound Cov(w_s, w_t) ≥ −p_s p_t (win shares are ≥ 0), which is exact without shared wins and
  conservative with them. Unlike a symmetric interval around the estimate, this reaches 1 when the seats are
  indistinguishable (a fair game's estimated gap is biased upward by noise). "se" is the delete-one-batch
  jackknife s.e. over the aggregate's BATCHES fixed batches (used for unpaired comparisons of balance).
- decisiveness = mean winning margin (winner's score minus the runner-up's, 0 for a shared win): mean ± z·s.e.
  from `margin_sum` / `margin_sumsq` (Student t with n − 1 d.o.f. when n < 30).
- tie_rate = share of games with a shared win: Wilson interval.
- duration = mean game length (the game's length column, e.g. Straw's turns), exact from `length_hist`: mean ±
  z·s.e.
- score_spread = pooled standard deviation of a seat's final score from game to game, sqrt(mean over seats of each
  seat's score variance). Interval: delta method, Var(s²) ≈ (μ4 − σ⁴)/n with μ4 exact from the score histograms,
  the seats' variance estimates combined as if perfectly correlated (conservative). How far apart the seats end
  within one game needs per-game rows: `analysis.games_table.analyse_games` reports that as `score_spread_within`.
- lead_changes (only when the game records a `lead_changes` game column): mean ± z·s.e. per game.
"""
from __future__ import annotations

import math

import numpy as np

from analysis.intervals import Z95, mean_se, wilson
from sim.spec import WIN_SCALE


def mean_interval(mean, se, n, level=0.95):
    """(lo, hi) of a mean: normal, or Student t with n − 1 d.o.f. when n < 30."""
    if not (np.isfinite(mean) and np.isfinite(se)):
        return float("nan"), float("nan")
    if level == 0.95 and n >= 30:
        q = Z95
    else:
        from analysis.distributions import norm_ppf, t_ppf
        q = t_ppf(0.5 + level / 2, n - 1) if n < 30 else norm_ppf(0.5 + level / 2)
    return mean - q * se, mean + q * se


def _metric(value, lo, hi, se, label, unit, method):
    return {"value": float(value), "lo": float(lo), "hi": float(hi), "se": float(se), "label": label, "unit": unit,
            "method": method}


def _shares(agg):
    i_win = list(agg.seat_columns).index("win60")
    wins = agg.seat_sum[:, i_win].astype(float) / WIN_SCALE
    var = np.array([(float(agg.seat_sumsq[s, i_win]) / WIN_SCALE ** 2 - wins[s] ** 2 / agg.n) / max(agg.n - 1, 1)
                    for s in range(agg.players)])
    return wins / agg.n, np.maximum(var, 0.0)


def balance_interval(agg, level=0.95):
    """(balance, lo, hi) by simultaneous pairwise intervals (module docstring)."""
    from analysis.distributions import norm_ppf
    p, var = _shares(agg)
    P, n = agg.players, agg.n
    pairs = [(s, t) for s in range(P) for t in range(s + 1, P)]
    z = norm_ppf(1 - (1 - level) / (2 * len(pairs)))
    gap_lo, gap_hi = 0.0, 0.0
    for s, t in pairs:
        d = abs(p[s] - p[t])
        se = math.sqrt(max(var[s] + var[t] + 2 * p[s] * p[t], 0.0) / n)
        gap_lo = max(gap_lo, d - z * se)
        gap_hi = max(gap_hi, d + z * se)
    value = 1 - (p.max() - p.min())
    return value, max(0.0, 1 - min(gap_hi, 1.0)), min(1.0, 1 - gap_lo)


def balance_jackknife_se(agg):
    """Delete-one-batch jackknife s.e. of balance over the BATCHES fixed batches (nan with < 2 filled batches)."""
    bn = agg.batch_n.astype(float)
    bw = agg.batch_win.astype(float) / WIN_SCALE
    keep = bn > 0
    if keep.sum() < 2:
        return float("nan")
    tot_n, tot_w = bn.sum(), bw.sum(axis=0)
    loo = []
    for b in np.flatnonzero(keep):
        shares = (tot_w - bw[b]) / (tot_n - bn[b])
        loo.append(1 - (shares.max() - shares.min()))
    loo = np.array(loo)
    B = loo.size
    return float(math.sqrt((B - 1) / B * ((loo - loo.mean()) ** 2).sum()))


def _hist_moments(hist):
    """(n, mean, variance (n − 1), fourth central moment) of an IntHistogram."""
    counts = hist.counts.astype(float)
    total = counts.sum()
    if total == 0:
        return 0, float("nan"), float("nan"), float("nan")
    x = hist.values().astype(float)
    mean = (x * counts).sum() / total
    dev = x - mean
    m2 = (dev ** 2 * counts).sum() / total
    m4 = (dev ** 4 * counts).sum() / total
    var = m2 * total / (total - 1) if total > 1 else float("nan")
    return int(total), mean, var, m4


def score_spread(agg):
    """(value, lo, hi, se) of the pooled per-seat score standard deviation (module docstring)."""
    n = agg.n
    variances, var_se = [], []
    for hist in agg.score_hist:
        _, _, var, m4 = _hist_moments(hist)
        variances.append(var)
        var_se.append(math.sqrt(max(m4 - var * var, 0.0) / n))
    pooled = float(np.mean(variances))
    if not np.isfinite(pooled) or pooled <= 0:
        return max(pooled, 0.0) if np.isfinite(pooled) else float("nan"), float("nan"), float("nan"), float("nan")
    value = math.sqrt(pooled)
    se = float(np.mean(var_se)) / (2 * value)
    lo, hi = mean_interval(value, se, n)
    return value, max(0.0, lo), hi, se


def balance_metrics(agg, game=None) -> dict:
    """Balance metrics of `agg` with 95% intervals (see the module docstring for each definition and method).

    `game` (a GameSpec, optional) only names the length unit. Returns {} when no games were played.
    """
    n = agg.n
    if n == 0:
        return {}
    out = {}
    value, lo, hi = balance_interval(agg)
    out["balance"] = _metric(value, lo, hi, balance_jackknife_se(agg), "balance (1 − largest seat win-share gap)",
                             "", "simultaneous Bonferroni intervals of pairwise win-share differences")

    mean, se = mean_se(int(agg.margin_sum[0]), int(agg.margin_sumsq[0]), n)
    lo, hi = mean_interval(mean, se, n)
    out["decisiveness"] = _metric(mean, lo, hi, se, "decisiveness (mean winning margin)", "points",
                                  "mean ± 1.96 s.e." if n >= 30 else "mean ± t s.e.")

    ties = int(agg.ties[0])
    lo, hi = wilson(ties, n)
    p = ties / n
    out["tie_rate"] = _metric(p, lo, hi, math.sqrt(p * (1 - p) / n), "tie rate (games with a shared win)", "share",
                              "Wilson score interval")

    unit = game.length_column if game is not None and getattr(game, "length_column", None) else "length units"
    total, mean, var, _ = _hist_moments(agg.length_hist)
    se = math.sqrt(var / total) if total > 1 else float("nan")
    lo, hi = mean_interval(mean, se, total)
    out["duration"] = _metric(mean, lo, hi, se, f"duration (mean game length in {unit})", unit,
                              "mean ± 1.96 s.e." if total >= 30 else "mean ± t s.e.")

    value, lo, hi, se = score_spread(agg)
    out["score_spread"] = _metric(value, lo, hi, se, "score spread (pooled s.d. of a seat's final score)", "points",
                                  "delta method with exact fourth moments, seats combined conservatively")

    if "lead_changes" in agg.game_columns:
        j = list(agg.game_columns).index("lead_changes")
        mean, se = mean_se(int(agg.game_sum[j]), int(agg.game_sumsq[j]), n)
        lo, hi = mean_interval(mean, se, n)
        out["lead_changes"] = _metric(mean, lo, hi, se, "lead changes per game", "per game",
                                      "mean ± 1.96 s.e." if n >= 30 else "mean ± t s.e.")
    return out
