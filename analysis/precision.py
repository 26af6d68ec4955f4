"""Precision planning: how wide the win-share intervals are, and how many games a target half-width needs.

The half-width is that of the Wilson 95% interval (the interval every report shows): at observed share p and n
games it is z·sqrt(p(1−p)/n + z²/(4n²)) / (1 + z²/n), which decreases strictly in n for every p, so the smallest
sufficient n is found by bisection. p = 0.5 is the worst case (the widest interval for a given n).
"""
from __future__ import annotations

import math

from analysis.intervals import Z95, wilson
from sim.spec import WIN_SCALE


def wilson_half_width(p, n, z=Z95):
    """Half-width of the Wilson interval at share p with n games (centre-independent form)."""
    if n <= 0:
        return float("inf")
    return z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)


def largest_half_width(agg) -> float:
    """Largest Wilson 95% half-width, (hi − lo) / 2 as shown, over the seats' win shares; inf with no games."""
    if agg.n == 0:
        return float("inf")
    i_win = list(agg.seat_columns).index("win60")
    widths = []
    for s in range(agg.players):
        lo, hi = wilson(agg.seat_sum[s, i_win] / WIN_SCALE, agg.n)
        widths.append((hi - lo) / 2)
    return max(widths)


def games_needed(half_width, p=0.5) -> int:
    """Smallest n whose Wilson 95% half-width at share p is ≤ half_width (p = 0.5: the worst case)."""
    if not half_width > 0:
        raise ValueError(f"the target half-width must be positive, not {half_width}")
    if not 0 <= p <= 1:
        raise ValueError(f"p must be a share between 0 and 1, not {p}")
    if wilson_half_width(p, 1) <= half_width:
        return 1
    lo, hi = 1, 2
    while wilson_half_width(p, hi) > half_width:
        lo, hi = hi, hi * 2
    while hi - lo > 1:  # invariant: width(lo) > target >= width(hi)
        mid = (lo + hi) // 2
        if wilson_half_width(p, mid) > half_width:
            lo = mid
        else:
            hi = mid
    return hi


def games_needed_for(agg, half_width) -> int:
    """Games needed for every seat's Wilson half-width to reach half_width at the observed win shares (the worst
    case p = 0.5 when no games were played yet)."""
    if agg.n == 0:
        return games_needed(half_width, 0.5)
    i_win = list(agg.seat_columns).index("win60")
    shares = [agg.seat_sum[s, i_win] / WIN_SCALE / agg.n for s in range(agg.players)]
    return max(games_needed(half_width, p) for p in shares)


def precision_reached(agg, half_width) -> bool:
    """True once every seat's Wilson half-width is ≤ half_width (the `--precision` stopping rule)."""
    return agg.n > 0 and largest_half_width(agg) <= half_width
