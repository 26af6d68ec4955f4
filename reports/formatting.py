"""How the report writes numbers: thousands separators, percentages, value [interval] cells; and which runs a
figure shows when there are more than it can hold."""
from __future__ import annotations

import math

import numpy as np

MAX_PANELS = 8  # runs drawn in one figure; more are thinned evenly (tables always list every run)


def num(x, digits=2):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


def pct(x, digits=1):
    return "–" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def metric_cell(m, scale=1.0, digits=3):
    if m is None:
        return "–"
    return f"{num(m['value'] * scale, digits)} [{num(m['lo'] * scale, digits)}, {num(m['hi'] * scale, digits)}]"


def thin(items, k=MAX_PANELS):
    if len(items) <= k:
        return list(items)
    idx = sorted(set(np.linspace(0, len(items) - 1, k).round().astype(int).tolist()))
    return [items[i] for i in idx]
