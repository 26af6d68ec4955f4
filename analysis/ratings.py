"""Bradley–Terry ratings of strategies from a pairwise win matrix, with 95% intervals.

Model: P(i beats j) = 1 / (1 + exp(−(θ_i − θ_j))), θ centred to mean 0 (log-strength; the Elo-scale rating is
400/ln 10 · θ). Fit: Hunter's (2004) MM iterations to convergence, then Newton steps on the log-likelihood. s.e.:
from the observed Fisher information I (I_ij = −n_ij p_ij (1 − p_ij), I_ii = Σ_j n_ij p_ij (1 − p_ij)); its
Moore–Penrose pseudo-inverse is the covariance of θ under the sum-to-zero constraint. 95% interval θ ± 1.96 s.e.

`wins[i, j]` counts games where i ranked strictly better than j. If `games[i, j]` (games where both played) is
given, the remaining games (neither better: shared ranks) count half a win to each side. Pairs within one
multi-player game are not independent; the Fisher intervals treat them as if they were, which is accurate for
2-player games and somewhat narrow for more. When a line-up seats copies (one game then holds several comparisons
of one pair, strongly dependent), `per_game[i, j]` (games both played) scales each pair's information by
per_game / comparisons, so that a game counts once in the intervals; the ratings themselves use every comparison.
When some strategy never wins or never loses against the rest (the win graph is not strongly connected) the
maximum-likelihood ratings are infinite; then every pair that met gets half a pseudo-win each way (a light prior)
and the table says `regularised`.

No maintained library is used: `choix` would add a dependency for ~30 lines, and it gives no standard errors.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.intervals import Z95

ELO = 400 / math.log(10)


def _strongly_connected(w):
    from scipy.sparse.csgraph import connected_components
    k, _ = connected_components(w > 0, directed=True, connection="strong")
    return k == 1


def fit_bradley_terry(w, tol=1e-10, max_iter=10000):
    """θ (mean 0) maximising the Bradley–Terry likelihood of the (possibly fractional) win matrix w."""
    k = w.shape[0]
    n = w + w.T
    wins = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(max_iter):  # MM (Hunter 2004)
        denom = (n / (p[:, None] + p[None, :] + 1e-300)).sum(axis=1)
        new = np.where(denom > 0, wins / np.maximum(denom, 1e-300), p)
        new = np.maximum(new, 1e-300)
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(p))) < 1e-8:
            p = new
            break
        p = new
    theta = np.log(p)
    for _ in range(50):  # Newton polish with the sum-to-zero constraint
        info, grad = _information(theta, n), wins - (n * _prob(theta)).sum(axis=1)
        step = np.linalg.pinv(info) @ grad
        theta = theta + step
        theta -= theta.mean()
        if np.max(np.abs(step)) < tol:
            break
    return theta


def _prob(theta):
    return 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))


def _information(theta, n):
    q = _prob(theta)
    v = n * q * (1 - q)
    np.fill_diagonal(v, 0.0)
    info = -v
    np.fill_diagonal(info, v.sum(axis=1))
    return info


def bradley_terry(wins, strategies=None, games=None, per_game=None, compared=None) -> pd.DataFrame:
    """Ratings sorted best first: columns strategy, rating (θ), se, lo, hi, elo, elo_lo, elo_hi, wins, games,
    win_rate (of its decided pairwise comparisons), regularised. per_game: games each pair played, when fewer than
    its comparisons `compared` (default games, else the decided comparisons; module docstring)."""
    w = np.asarray(wins, float).copy()
    k = w.shape[0]
    if w.shape != (k, k):
        raise ValueError(f"wins must be a square matrix, got shape {w.shape}")
    np.fill_diagonal(w, 0.0)
    if games is not None:
        g = np.asarray(games, float)
        shared = np.clip(g - w - w.T, 0.0, None)
        np.fill_diagonal(shared, 0.0)
        w = w + shared / 2
    names = list(strategies) if strategies is not None else [f"strategy {i + 1}" for i in range(k)]
    met = (w + w.T) > 0
    regularised = False
    if k > 1 and not _strongly_connected(w):
        w = w + 0.5 * met
        regularised = True
        if not _strongly_connected(w):
            alone = [names[i] for i in range(k) if not met[i].any()]
            raise ValueError("strategies that never met cannot be rated together"
                             + (f": {', '.join(alone)} played no common games" if alone else ""))
    theta = fit_bradley_terry(w) if k > 1 else np.zeros(k)
    n = w + w.T
    n_info = n
    if per_game is not None:  # a game holding several comparisons of a pair counts once in the intervals
        if compared is None:
            compared = games if games is not None else np.asarray(wins, float) + np.asarray(wins, float).T
        compared = np.asarray(compared, float)
        scale = np.divide(np.asarray(per_game, float), compared, out=np.ones((k, k)), where=compared > 0)
        n_info = n * np.clip(scale, 0.0, 1.0)
    cov = np.linalg.pinv(_information(theta, n_info)) if k > 1 else np.zeros((k, k))
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    total_w, total_n = w.sum(axis=1), n.sum(axis=1)
    df = pd.DataFrame({"strategy": names, "rating": theta, "se": se, "lo": theta - Z95 * se,
                       "hi": theta + Z95 * se, "elo": ELO * theta, "elo_lo": ELO * (theta - Z95 * se),
                       "elo_hi": ELO * (theta + Z95 * se), "wins": total_w, "games": total_n,
                       "win_rate": np.divide(total_w, total_n, out=np.full(k, np.nan), where=total_n > 0),
                       "regularised": regularised})
    return df.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)


def ranking_sentence(df):
    """'straw-hunter > safe > random (Bradley–Terry, 95% intervals do not overlap between neighbours: ...)'."""
    if len(df) == 0:
        return "no strategies were rated."
    from analysis.verdict import signed
    parts = [f"{i + 1}. {r.strategy} ({signed(r.elo, 0)} Elo [{signed(r.elo_lo, 0)}, {signed(r.elo_hi, 0)}])"
             for i, r in enumerate(df.itertuples())]
    return "ranking by Bradley–Terry rating: " + ", ".join(parts) + "."
