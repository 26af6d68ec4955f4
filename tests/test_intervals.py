"""Intervals: Wilson against statsmodels, and coverage at the nominal rate on simulated data with known p."""
import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis.intervals import mean_se, wilson


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (12.5, 40), (250_000, 1_000_000), (1, 3)])
def test_wilson_matches_statsmodels(k, n):
    lo, hi = wilson(k, n)
    ref_lo, ref_hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert lo == pytest.approx(ref_lo, abs=1e-12) and hi == pytest.approx(ref_hi, abs=1e-12)


@pytest.mark.parametrize("p,n", [(0.5, 200), (0.25, 1000), (0.05, 400)])
def test_wilson_covers_at_nominal_rate(p, n):
    rng = np.random.default_rng(42)
    reps = 4000
    ks = rng.binomial(n, p, size=reps)
    covered = sum(lo <= p <= hi for lo, hi in (wilson(k, n) for k in ks))
    rate = covered / reps
    assert 0.93 <= rate <= 0.97, rate  # 95% nominal; ±2 pp is > 5 binomial s.e. at 4000 reps


def test_mean_se():
    x = np.array([3, 5, 9, 1, 4], dtype=float)
    mean, se = mean_se(x.sum(), (x * x).sum(), len(x))
    assert mean == pytest.approx(x.mean()) and se == pytest.approx(x.std(ddof=1) / np.sqrt(len(x)))
