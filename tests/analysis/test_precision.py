"""Precision planning: games_needed is the smallest n whose Wilson half-width reaches the target."""
import math

import pytest

from analysis.intervals import wilson
from analysis.precision import games_needed, games_needed_for, largest_half_width, precision_reached
from tests.analysis.toy import toy_aggregate


def _half(p, n):
    lo, hi = wilson(p * n, n)
    return (hi - lo) / 2


@pytest.mark.parametrize("h,p", [(0.01, 0.5), (0.002, 0.5), (0.005, 0.25), (0.003, 1 / 6), (0.05, 0.5), (0.3, 0.5)])
def test_games_needed_matches_wilson_half_width(h, p):
    n = games_needed(h, p)
    assert _half(p, n) <= h
    if n > 1:
        assert _half(p, n - 1) > h


def test_worst_case_is_half():
    for h in (0.01, 0.003):
        assert games_needed(h, 0.5) >= games_needed(h, 0.2) >= games_needed(h, 0.05)
    # at p = 0.5 the Wilson half-width is z / (2 sqrt(n + z²)): n = ceil(z² / (4h²) − z²) = 9,600 for ±1 point
    z = 1.959963984540054
    assert games_needed(0.01) == math.ceil(z * z / (4 * 0.01 ** 2) - z * z) == 9600


def test_bad_targets():
    with pytest.raises(ValueError):
        games_needed(0)
    with pytest.raises(ValueError):
        games_needed(0.01, 1.5)


def test_largest_half_width_and_plan_for_an_aggregate():
    agg, seat_out, _ = toy_aggregate([0.4, 0.3, 0.2, 0.1], 3_000, seed=51, tie_rate=0.05)
    shares = (seat_out[:, :, 2] / 60).sum(axis=0)
    expected = max((wilson(w, agg.n)[1] - wilson(w, agg.n)[0]) / 2 for w in shares)
    assert largest_half_width(agg) == pytest.approx(expected)
    need = games_needed_for(agg, 0.005)
    assert need == max(games_needed(0.005, w / agg.n) for w in shares)
    assert need > agg.n and not precision_reached(agg, 0.005)
    assert precision_reached(agg, largest_half_width(agg))
