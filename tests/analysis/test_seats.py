"""Seat-advantage tests on toy aggregates with known win probabilities (fair and biased, 2 and 4 players)."""
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from analysis.seats import format_p, holm, seat_advantage
from tests.analysis.toy import toy_aggregate


def test_holm_matches_statsmodels(monkeypatch):
    import gc
    monkeypatch.setattr(gc, "collect", lambda *a: 0)  # multipletests collects garbage on every call: seconds here
    rng = np.random.default_rng(3)
    for _ in range(50):
        p = rng.random(rng.integers(1, 12)) ** 3
        reject, adjusted = holm(p)
        ref_reject, ref_adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
        assert np.array_equal(reject, ref_reject)
        assert np.allclose(adjusted, ref_adjusted, rtol=0, atol=1e-15)


def test_holm_keeps_nan_out():
    reject, adjusted = holm([0.01, float("nan"), 0.02])
    assert np.isnan(adjusted[1]) and not reject[1]
    assert adjusted[0] == pytest.approx(0.02) and adjusted[2] == pytest.approx(0.02)


def test_fair_four_players_finds_nothing():
    agg, _, _ = toy_aggregate([1, 1, 1, 1], 20_000, seed=11)
    res = seat_advantage(agg)
    assert res["test"] == "chi-square" and res["df"] == 3
    assert res["significant_seats"] == []
    assert any("no seat differs from fair at the 5% level after Holm correction" in s for s in res["sentences"])
    for r in res["seats"]:  # the true excess (0) lies inside every seat's interval here
        assert r["lo_pp"] <= 0 <= r["hi_pp"]


def test_biased_four_players_names_the_seat():
    agg, seat_out, _ = toy_aggregate([0.31, 0.23, 0.23, 0.23], 20_000, seed=12)
    res = seat_advantage(agg)
    assert res["p_value"] < 1e-6
    assert 0 in res["significant_seats"]
    seat0 = res["seats"][0]
    assert seat0["lo_pp"] <= 6.0 <= seat0["hi_pp"]  # true excess: 31% − 25% = 6 points
    # no shared wins: the per-seat test is the exact binomial test, Holm-corrected
    raw = stats.binomtest(int(agg.outright[0]), agg.n, 0.25).pvalue
    assert seat0["p_value"] == pytest.approx(raw)
    sentence = next(s for s in res["sentences"] if s.startswith("seat 1 wins"))
    assert "more often than fair" in sentence and "significant after Holm correction" in sentence
    assert f"{seat0['excess_pp']:.1f} ± {seat0['half_width_pp']:.1f} percentage points" in sentence


def test_half_width_is_the_per_game_standard_error():
    agg, seat_out, _ = toy_aggregate([0.4, 0.3, 0.2, 0.1], 5_000, seed=13, tie_rate=0.1)
    res = seat_advantage(agg)
    shares = seat_out[:, :, 2] / 60
    for s, r in enumerate(res["seats"]):
        se = shares[:, s].std(ddof=1) / np.sqrt(agg.n)
        assert r["half_width_pp"] == pytest.approx(100 * 1.959963984540054 * se)
        assert r["excess_pp"] == pytest.approx(100 * (shares[:, s].mean() - 0.25))


def test_two_players_exact_binomial_on_decided_games():
    agg, _, _ = toy_aggregate([0.55, 0.45], 4_000, seed=14, tie_rate=0.05)
    res = seat_advantage(agg)
    decided = int(agg.outright.sum())
    assert res["test"] == "binomial" and res["decided"] == decided < agg.n
    assert res["p_value"] == pytest.approx(stats.binomtest(int(agg.outright[0]), decided, 0.5).pvalue)
    assert res["significant_seats"] == [0, 1]
    assert any(s.startswith("seat 1 wins") and "more often than fair" in s for s in res["sentences"])


def test_two_players_fair():
    agg, _, _ = toy_aggregate([0.5, 0.5], 4_000, seed=15)
    res = seat_advantage(agg)
    assert res["significant_seats"] == []
    assert any("no seat differs from fair" in s for s in res["sentences"])


def test_no_games():
    from sim.aggregate import Aggregate
    res = seat_advantage(Aggregate(3, ("score", "rank", "win60"), ("error", "turns")))
    assert res["seats"] == [] and "no games" in res["sentences"][0]


def test_format_p():
    assert format_p(0.0001) == "p < 0.001"
    assert format_p(0.0042) == "p = 0.004"
    assert format_p(0.23) == "p = 0.23"
