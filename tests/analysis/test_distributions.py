"""analysis.distributions gives scipy.stats' numbers (binomial test, chi-square, normal and Student t)."""
import numpy as np
import pytest
from scipy import stats

from analysis import distributions as dist


def test_binomial_test_matches_scipy():
    rng = np.random.default_rng(5)
    cases = [(0, 10, 0.5), (10, 10, 0.5), (5, 10, 0.5), (3, 7, 0.25), (0, 1, 0.5), (1, 1, 0.25), (60, 200, 0.25),
             (1020, 2000, 0.5), (4_990_123, 10_000_000, 0.5)]
    for _ in range(200):
        n = int(rng.integers(1, 5000))
        p = float(rng.choice([0.5, 1 / 3, 0.25, 0.2, 1 / 6]))
        cases.append((int(rng.binomial(n, min(0.99, p * rng.uniform(0.7, 1.3)))), n, p))
    for k, n, p in cases:
        assert dist.binom_test(k, n, p) == pytest.approx(stats.binomtest(k, n, p).pvalue, rel=1e-6, abs=1e-300), \
            (k, n, p)


def test_continuous_distributions_match_scipy():
    for x, df in ((0.0, 1), (3.2, 3), (40.0, 5), (1e-3, 2)):
        assert dist.chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-12)
    for z in (-5.0, -1.96, 0.0, 0.3, 8.0):
        assert dist.norm_sf(z) == pytest.approx(stats.norm.sf(z), rel=1e-12)
    for q in (0.001, 0.5, 0.975, 0.9999):
        assert dist.norm_ppf(q) == pytest.approx(stats.norm.ppf(q), rel=1e-12)
        for df in (1, 4, 29):
            assert dist.t_ppf(q, df) == pytest.approx(stats.t.ppf(q, df), rel=1e-10)
    for t, df in ((0.0, 3), (2.5, 10), (-1.0, 28)):
        assert dist.t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-12)
