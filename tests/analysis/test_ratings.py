"""Bradley–Terry ratings recover a known ordering and cover the true strengths on simulated data."""
import math

import numpy as np
import pytest

from analysis.ratings import bradley_terry, ranking_sentence

TRUE = np.array([1.0, 0.3, -0.2, -1.1])  # log-strengths, mean 0
NAMES = ["strong", "good", "fair", "weak"]


def _simulate(rng, theta, games_per_pair):
    k = theta.size
    wins = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + math.exp(-(theta[i] - theta[j])))
            w = rng.binomial(games_per_pair, p)
            wins[i, j], wins[j, i] = w, games_per_pair - w
    return wins


def test_recovers_known_ordering_and_strengths():
    rng = np.random.default_rng(41)
    wins = _simulate(rng, TRUE, 3000)
    df = bradley_terry(wins, NAMES)
    assert list(df["strategy"]) == NAMES
    truth = dict(zip(NAMES, TRUE - TRUE.mean()))
    for r in df.itertuples():
        assert r.lo <= truth[r.strategy] <= r.hi
    assert df["rating"].sum() == pytest.approx(0, abs=1e-9)
    assert not df["regularised"].any()
    assert ranking_sentence(df).startswith("ranking by Bradley–Terry rating: 1. strong")


def test_interval_coverage():
    rng = np.random.default_rng(42)
    reps, covered, total = 200, 0, 0
    truth = TRUE - TRUE.mean()
    for _ in range(reps):
        df = bradley_terry(_simulate(rng, TRUE, 300), NAMES).set_index("strategy").loc[NAMES]
        covered += int(((df["lo"].to_numpy() <= truth) & (truth <= df["hi"].to_numpy())).sum())
        total += len(NAMES)
    assert 0.92 <= covered / total <= 0.98, covered / total


def test_two_strategies_closed_form():
    df = bradley_terry([[0, 600], [400, 0]], ["a", "b"])
    diff = df.set_index("strategy")["rating"]
    assert diff["a"] - diff["b"] == pytest.approx(math.log(600 / 400), rel=1e-8)
    # s.e. of the difference: sqrt(1 / (n p (1 − p))), split evenly between the two centred ratings
    se = math.sqrt(1 / (1000 * 0.6 * 0.4)) / 2
    assert df["se"].to_numpy() == pytest.approx([se, se], rel=1e-6)


def test_shared_ranks_count_half_when_games_are_given():
    with_ties = bradley_terry([[0, 500], [300, 0]], ["a", "b"], games=[[0, 1000], [1000, 0]])
    d = with_ties.set_index("strategy")["rating"]
    assert d["a"] - d["b"] == pytest.approx(math.log(600 / 400), rel=1e-8)


def test_a_strategy_that_never_wins_is_regularised_not_infinite():
    wins = np.array([[0, 50, 40], [30, 0, 45], [0, 0, 0]])
    df = bradley_terry(wins, ["a", "b", "never"])
    assert df["regularised"].all() and np.isfinite(df["rating"]).all()
    assert df.iloc[-1]["strategy"] == "never"
