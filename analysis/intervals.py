"""Confidence intervals used everywhere a rate is shown.

Wilson's score interval is written out here rather than imported from statsmodels: importing statsmodels costs
about 2.5 s, most of the 3 s start-up budget of `sim run`; tests check these numbers against
`statsmodels.stats.proportion.proportion_confint(method="wilson")`.
"""
import math

Z95 = 1.959963984540054  # the standard normal 97.5% quantile


def wilson(successes, n, z=Z95):
    """Wilson score interval (lo, hi) for a proportion; `successes` may be fractional (shared wins count 1/k)."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_se(total, total_sq, n):
    """Mean and its standard error from a sum and a sum of squares (sample variance, n - 1)."""
    if n <= 0:
        return float("nan"), float("nan")
    mean = total / n
    if n == 1:
        return mean, float("nan")
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    return mean, math.sqrt(var / n)
