"""The few distribution functions the tests need, from scipy.special rather than scipy.stats: importing scipy.stats
costs over a second, paid by every `sim run` that prints its verdict; scipy.special a third of that. Each function
gives the numbers of its scipy.stats counterpart (tests/analysis/test_distributions.py checks them).

    binom_test(k, n, p)    == scipy.stats.binomtest(k, n, p).pvalue (two-sided, "minlike" as scipy)
    chi2_sf(x, df)         == scipy.stats.chi2.sf(x, df)
    norm_sf(z), norm_ppf(q), t_sf(t, df), t_ppf(q, df)
"""
from __future__ import annotations

import math

from scipy import special

_RELATIVE = 1 + 1e-7  # outcomes this close to the observed one's probability count as "as likely" (as scipy)


def _pmf(x, n, p):
    x = int(x)
    if x < 0 or x > n:
        return 0.0
    return math.exp(special.gammaln(n + 1) - special.gammaln(x + 1) - special.gammaln(n - x + 1)
                    + special.xlogy(x, p) + special.xlog1py(n - x, -p))


def _cdf(x, n, p):
    return 0.0 if x < 0 else float(special.bdtr(int(x), n, p))


def _sf(x, n, p):
    return 1.0 if x < 0 else float(special.bdtrc(int(x), n, p))


def _search(f, d, lo, hi):
    """The largest x in [lo, hi] with f(x) <= d for f increasing on it (scipy's _binary_search_for_binom_tst)."""
    while lo < hi:
        mid = lo + (hi - lo) // 2
        value = f(mid)
        if value < d:
            lo = mid + 1
        elif value > d:
            hi = mid - 1
        else:
            return mid
    return lo if f(lo) <= d else lo - 1


def binom_test(k, n, p=0.5):
    """Two-sided exact binomial test of k successes in n trials: the probability of every outcome at most as
    likely as k."""
    k, n = int(k), int(n)
    d = _pmf(k, n, p)
    if k == p * n:
        return 1.0
    if k < p * n:
        ix = _search(lambda x: -_pmf(x, n, p), -d * _RELATIVE, math.ceil(p * n), n)
        y = n - ix + int(d * _RELATIVE == _pmf(ix, n, p))
        value = _cdf(k, n, p) + _sf(n - y, n, p)
    else:
        ix = _search(lambda x: _pmf(x, n, p), d * _RELATIVE, 0, math.floor(p * n))
        value = _cdf(ix, n, p) + _sf(k - 1, n, p)
    return min(1.0, float(value))


def chi2_sf(x, df):
    return float(special.chdtrc(df, x))


def norm_sf(z):
    return float(special.ndtr(-z))


def norm_ppf(q):
    return float(special.ndtri(q))


def t_sf(t, df):
    return float(special.stdtr(df, -t))


def t_ppf(q, df):
    return float(special.stdtrit(df, q))
