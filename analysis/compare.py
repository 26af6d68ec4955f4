"""Variant comparison: paired differences on common random numbers, Holm-corrected, and a verdict in words.

Input (built by sim/multirun.py, `PairedSums.as_paired`):
    {"baseline": label, "variants": {label: {metric: {"n", "sum", "sumsq", "base_mean", "variant_mean"}}},
     "baselines": {label: the label it is paired with} (optional; default: "baseline" for every variant)}
where sum and sumsq run over games i of d_i = metric(variant, game i) − metric(baseline, game i): game i of every
configuration plays from the same random stream, so d_i is a paired difference and the seat-luck both share
cancels. In a crossed design (several player counts × variants) each configuration is paired with the base of its
own player count, which "baselines" names. Difference = mean of d; s.e. = sd(d) / sqrt(n) with the sample sd
(n − 1); 95% interval and two-sided
p-value from the normal distribution, or Student t with n − 1 d.o.f. when n < 30. Holm correction runs over every
row of the table (all variants × all metrics) at once.

Metric names understood in words (others are shown as given): `win_s<n>` (seat n's win share, seat 1 first in turn
order, reported in percentage points), `score_s<n>` (seat n's mean score), `length` (game length), `tie` (tie rate,
percentage points), `margin` (winning margin), `balance`, `lead_changes`.
"""
from __future__ import annotations

import math
import re

import numpy as np

from analysis.balance import mean_interval
from analysis.seats import ALPHA, format_p, holm

BALANCE_METRICS = ("balance", "decisiveness", "tie_rate", "duration", "score_spread", "lead_changes")
COLUMNS = ["baseline", "variant", "metric", "n", "base_mean", "variant_mean", "diff", "se", "lo", "hi", "p_value",
           "p_holm", "significant", "method"]


def _p_value(diff, se, n):
    if not np.isfinite(se):
        return float("nan")
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    from analysis.distributions import norm_sf, t_sf
    t = abs(diff) / se
    return float(2 * (t_sf(t, n - 1) if n < 30 else norm_sf(t)))


def paired_differences(paired):
    """One row per (variant, metric), in input order, as a pandas DataFrame; columns COLUMNS (module docstring for
    the method). pandas is imported here, not with the module, so a single run's report does not load it."""
    import pandas as pd
    rows = []
    baselines = paired.get("baselines") or {}
    for label, metrics in paired.get("variants", {}).items():
        baseline = baselines.get(label, paired.get("baseline", "baseline"))
        for metric, m in metrics.items():
            n = int(m["n"])
            total, total_sq = float(m["sum"]), float(m["sumsq"])
            diff = total / n if n else float("nan")
            if n > 1:
                var = max(0.0, (total_sq - total * total / n) / (n - 1))
                se = math.sqrt(var / n)
            else:
                se = float("nan")
            lo, hi = mean_interval(diff, se, n) if n > 1 else (float("nan"), float("nan"))
            rows.append({"baseline": baseline, "variant": label, "metric": metric, "n": n,
                         "base_mean": float(m.get("base_mean", float("nan"))),
                         "variant_mean": float(m.get("variant_mean", float("nan"))), "diff": diff, "se": se,
                         "lo": lo, "hi": hi, "p_value": _p_value(diff, se, n),
                         "method": "paired, t" if n < 30 else "paired, normal"})
    df = pd.DataFrame(rows, columns=[c for c in COLUMNS if c not in ("p_holm", "significant")])
    reject, adjusted = holm(df["p_value"].to_numpy(float)) if len(df) else (np.zeros(0, bool), np.zeros(0))
    df["p_holm"] = adjusted
    df["significant"] = reject
    return df[COLUMNS]


def paired_from_samples(baseline, base, variants):
    """The `paired` dict from per-game samples: base = {metric: array}, variants = {label: {metric: array}}
    (game i of every array played from the same seed). For tests and for callers holding per-game rows."""
    out = {}
    for label, metrics in variants.items():
        out[label] = {}
        for metric, values in metrics.items():
            b, v = np.asarray(base[metric], float), np.asarray(values, float)
            d = v - b
            out[label][metric] = {"n": int(d.size), "sum": float(d.sum()), "sumsq": float((d * d).sum()),
                                  "base_mean": float(b.mean()), "variant_mean": float(v.mean())}
    return {"baseline": baseline, "variants": out}


def unpaired_difference(mean_a, se_a, mean_b, se_b) -> dict:
    """b − a for two independent estimates (different seeds or player counts): {"diff", "se", "lo", "hi",
    "p_value"}, normal approximation, se = sqrt(se_a² + se_b²)."""
    diff = float(mean_b) - float(mean_a)
    se = math.sqrt(float(se_a) ** 2 + float(se_b) ** 2)
    from analysis.intervals import Z95
    if not np.isfinite(se):
        return {"diff": diff, "se": se, "lo": float("nan"), "hi": float("nan"), "p_value": float("nan")}
    p = _p_value(diff, se, 10 ** 9)
    return {"diff": diff, "se": se, "lo": diff - Z95 * se, "hi": diff + Z95 * se, "p_value": p}


def unpaired_differences(labels, metrics, pairs, n, names=BALANCE_METRICS):
    """Differences of the balance metrics (analysis.balance, one dict per run) of run i vs run j for every (i, j) in
    `pairs`, as independent estimates, Holm-corrected over all rows; the columns of paired_differences."""
    import pandas as pd
    rows = []
    for i, j in pairs:
        for name in names:
            a, b = metrics[j].get(name), metrics[i].get(name)
            if a is None or b is None:
                continue
            d = unpaired_difference(a["value"], a["se"], b["value"], b["se"])
            rows.append({"baseline": labels[j], "variant": labels[i], "metric": name, "n": n[i],
                         "base_mean": a["value"], "variant_mean": b["value"], "diff": d["diff"], "se": d["se"],
                         "lo": d["lo"], "hi": d["hi"], "p_value": d["p_value"], "method": "unpaired, normal"})
    df = pd.DataFrame(rows, columns=[c for c in COLUMNS if c not in ("p_holm", "significant")])
    reject, adjusted = holm(df["p_value"].to_numpy(float)) if len(df) else (np.zeros(0, bool), np.zeros(0))
    df["p_holm"], df["significant"] = adjusted, reject
    return df[COLUMNS]


def describe_metric(metric):
    """(words, scale, unit) for a metric name: win shares and tie rates are shown ×100 in percentage points."""
    m = re.fullmatch(r"win_s(\d+)", metric)
    if m:
        return f"seat {int(m.group(1))}'s win share", 100.0, "percentage points"
    m = re.fullmatch(r"score_s(\d+)", metric)
    if m:
        return f"seat {int(m.group(1))}'s mean score", 1.0, "points"
    known = {"length": ("game length", 1.0, ""), "tie": ("the tie rate", 100.0, "percentage points"),
             "tie_rate": ("the tie rate", 100.0, "percentage points"), "margin": ("the winning margin", 1.0, "points"),
             "decisiveness": ("the winning margin", 1.0, "points"), "duration": ("game length", 1.0, ""),
             "balance": ("balance", 1.0, ""), "lead_changes": ("lead changes per game", 1.0, ""),
             "score_spread": ("the score spread", 1.0, "points")}
    return known.get(metric, (metric, 1.0, ""))


def _digits(half, scale):
    """Decimals that show the half-width to about one significant figure (at least one decimal, at most 3)."""
    h = abs(half) * scale
    if not math.isfinite(h) or h <= 0:
        return 2
    return int(min(3, max(1, -math.floor(math.log10(h)))))


def verdict(df, length_unit=None) -> list:
    """Sentences: every difference significant after Holm correction, with its direction and size (strongest
    evidence first, by |difference| / s.e.), or that none is. length_unit names the unit of `length` ("turns")."""
    if df is None or len(df) == 0:
        return ["there is nothing to compare."]
    lines = []
    sig = df[df["significant"]]
    baseline = df["baseline"].iloc[0] if df["baseline"].nunique() == 1 else "its base"
    strength = (sig["diff"].abs() / sig["se"].where(sig["se"] > 0, np.nan)).fillna(np.inf)
    for _, r in sig.loc[strength.sort_values(ascending=False, kind="stable").index].iterrows():
        words, scale, unit = describe_metric(r["metric"])
        if r["metric"] in ("length", "duration") and length_unit:
            unit = length_unit
        direction = "raises" if r["diff"] > 0 else "lowers"
        half = (r["hi"] - r["lo"]) / 2
        d = _digits(half, scale)
        lines.append(f"{r['variant']} {direction} {words} by {abs(r['diff']) * scale:.{d}f} ± {half * scale:.{d}f}"
                     f"{' ' + unit if unit else ''} vs {r['baseline']} ({format_p(r['p_holm'])} after Holm "
                     "correction).")
    k = len(df)
    if not lines:
        lines.append(f"no difference from {baseline} is significant at the 5% level after Holm correction "
                     f"({k} comparison{'s' if k != 1 else ''}).")
    else:
        rest = k - len(sig)
        if rest:
            lines.append(f"the other {rest} of {k} differences are not significant at the 5% level after Holm "
                         f"correction.")
    return lines


__all__ = ["paired_differences", "paired_from_samples", "unpaired_difference", "unpaired_differences", "verdict",
           "describe_metric",
           "ALPHA"]
