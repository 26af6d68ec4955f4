"""Seat advantage: is any seat's win share different from the fair share 1/P, by how much, and how sure is that?

- 2 players: exact two-sided binomial test (scipy.stats.binomtest's numbers: analysis.distributions) of seat 0's
  outright wins among the decided games (shared wins excluded) against 1/2. Both seats get that p-value (one
  test, so Holm changes nothing).
- P > 2 players: chi-square goodness of fit of the seats' win totals (shared wins count 1/k, so the totals add up
  to n) against n/P each, P − 1 d.o.f.; and one test per seat of its win share against 1/P, Holm-corrected over
  the P seats (`holm` below, equal to statsmodels' multipletests). The per-seat test is the exact binomial
  test of its wins out of n when no game had a shared win, else a z-test whose s.e. is the per-game standard
  deviation of the seat's win share (exact, from the aggregate's sum of squares) / sqrt(n). Sentences quote the
  Holm-adjusted p.
- For every seat: the excess over fair, share − 1/P, in percentage points, with its 95% half-width
  1.96 × s.e. (same s.e. as above), and a plain-words sentence for the report. `wilson_lo_pp`/`wilson_hi_pp`: the
  seat's Wilson 95% interval minus 1/P, which stays honest where the normal one collapses (a seat winning every
  game or none has s.e. 0); reports quote it.
"""
from __future__ import annotations

import numpy as np

from analysis.intervals import Z95, mean_se, wilson
from sim.spec import WIN_SCALE

ALPHA = 0.05


def format_p(p):
    """'p < 0.001', 'p = 0.023', 'p = 0.41'."""
    if p is None or not np.isfinite(p):
        return "p = n/a"
    if p < 0.001:
        return "p < 0.001"
    if p < 0.01:
        return f"p = {p:.3f}"
    return f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def holm(pvalues, alpha=ALPHA):
    """Holm step-down adjustment: (reject, adjusted p-values), in input order; nan p-values stay nan, unrejected.

    The same numbers as `statsmodels.stats.multitest.multipletests(method="holm")` (a test checks it), written out
    because that function calls gc.collect() on every use (a quarter of a second in a process holding numba and
    pandas) and importing statsmodels costs seconds.
    """
    pvalues = np.asarray(pvalues, float)
    reject, adjusted = np.zeros(pvalues.size, bool), np.full(pvalues.size, np.nan)
    finite = np.flatnonzero(np.isfinite(pvalues))
    if finite.size:
        p = pvalues[finite]
        order = np.argsort(p, kind="stable")
        m = p.size
        adj = np.minimum(1.0, np.maximum.accumulate(p[order] * np.arange(m, 0, -1)))
        adjusted[finite[order]] = adj
        reject[finite[order]] = adj <= alpha
    return reject, adjusted


def _win_moments(agg):
    i_win = list(agg.seat_columns).index("win60")
    wins = agg.seat_sum[:, i_win].astype(float) / WIN_SCALE
    se = np.array([mean_se(int(agg.seat_sum[s, i_win]), int(agg.seat_sumsq[s, i_win]), agg.n)[1] / WIN_SCALE
                   for s in range(agg.players)])
    return wins, se


def seat_advantage(agg) -> dict:
    """Seat-advantage tests of one aggregate; see the module docstring. Returns

    {"players", "n", "fair", "test": "binomial"|"chi-square", "statistic", "df", "p_value", "decided" (2 players),
     "seats": [{"seat", "share", "excess_pp", "half_width_pp", "lo_pp", "hi_pp", "se", "p_value", "p_holm",
                "significant"}], "significant_seats": [0-based seats], "sentences": [str]}
    """
    from analysis.distributions import binom_test, chi2_sf, norm_sf

    P, n = agg.players, agg.n
    fair = 1.0 / P
    out = {"players": P, "n": n, "fair": fair, "test": "binomial" if P == 2 else "chi-square",
           "statistic": float("nan"), "df": P - 1, "p_value": float("nan"), "decided": None, "seats": [],
           "significant_seats": [], "sentences": []}
    if n == 0:
        out["sentences"] = ["no games were played, so seat advantage cannot be assessed"]
        return out
    wins, se = _win_moments(agg)
    shares = wins / n
    ties = int(agg.ties[0])
    if P == 2:
        k, decided = int(agg.outright[0]), int(agg.outright[0] + agg.outright[1])
        out["decided"] = decided
        if decided:
            out["statistic"], out["p_value"] = k / decided, binom_test(k, decided, 0.5)
        seat_p = np.full(2, out["p_value"])
    else:
        expected = wins.sum() / P
        statistic = float(((wins - expected) ** 2 / expected).sum()) if expected > 0 else float("nan")
        out["statistic"], out["p_value"] = statistic, chi2_sf(statistic, P - 1)
        seat_p = np.empty(P)
        for s in range(P):
            if ties == 0:
                seat_p[s] = binom_test(int(agg.outright[s]), n, fair)
            elif se[s] > 0:
                z = (shares[s] - fair) / se[s]
                seat_p[s] = 2 * norm_sf(abs(z))
            else:
                seat_p[s] = 1.0 if shares[s] == fair else 0.0
    reject, adjusted = holm(seat_p) if P > 2 else (seat_p < ALPHA, seat_p)
    for s in range(P):
        excess = 100 * (shares[s] - fair)
        half = 100 * Z95 * se[s] if np.isfinite(se[s]) else float("nan")
        w_lo, w_hi = wilson(wins[s], n)
        out["seats"].append({"seat": s, "share": float(shares[s]), "excess_pp": float(excess),
                             "half_width_pp": float(half), "lo_pp": float(excess - half),
                             "hi_pp": float(excess + half), "wilson_lo_pp": 100 * (w_lo - fair),
                             "wilson_hi_pp": 100 * (w_hi - fair), "se": float(se[s]), "p_value": float(seat_p[s]),
                             "p_holm": float(adjusted[s]), "significant": bool(reject[s])})
    out["significant_seats"] = [r["seat"] for r in out["seats"] if r["significant"]]
    out["sentences"] = _sentences(out)
    return out


def _sentences(res):
    P, rows = res["players"], res["seats"]
    lines = []
    if P == 2:
        decided = res["decided"] or 0
        if decided:
            lines.append(f"seat 1 won {res['statistic'] * 100:.1f}% of the {decided:,} decided games "
                         f"(exact binomial test against 50%: {format_p(res['p_value'])}).")
        else:
            lines.append("every game ended in a shared win, so the binomial test has no decided games.")
        for r in rows:
            if r["significant"]:
                lines.append(_seat_sentence(r, "significant at the 5% level"))
                break  # the other seat is its mirror image
        if not res["significant_seats"]:
            lines.append(f"no seat differs from fair at the 5% level (exact binomial test); seat 1's excess is "
                         f"{rows[0]['excess_pp']:+.1f} ± {rows[0]['half_width_pp']:.1f} percentage points.")
        return lines
    verdict = "differ from fair" if res["p_value"] < ALPHA else "are consistent with fair"
    lines.append(f"across the {P} seats, win shares {verdict} (chi-square = {res['statistic']:.2f}, "
                 f"{res['df']} d.o.f., {format_p(res['p_value'])}).")
    for r in sorted(rows, key=lambda r: -abs(r["excess_pp"])):
        if r["significant"]:
            lines.append(_seat_sentence(r, "significant after Holm correction", holm_p=True))
    if not res["significant_seats"]:
        worst = max(rows, key=lambda r: abs(r["excess_pp"]))
        lines.append(f"no seat differs from fair at the 5% level after Holm correction (largest deviation: seat "
                     f"{worst['seat'] + 1}, {worst['excess_pp']:+.1f} ± {worst['half_width_pp']:.1f} percentage "
                     "points).")
    return lines


def _seat_sentence(r, note, holm_p=False):
    direction = "more" if r["excess_pp"] > 0 else "less"
    p = format_p(r["p_holm"] if holm_p else r["p_value"])
    return (f"seat {r['seat'] + 1} wins {abs(r['excess_pp']):.1f} ± {r['half_width_pp']:.1f} percentage points "
            f"{direction} often than fair ({p}, {note}).")

