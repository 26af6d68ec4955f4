"""Balance metrics on toy aggregates: values against direct computation, intervals against known truths."""
import math

import numpy as np
import pytest

from analysis.balance import balance_interval, balance_jackknife_se, balance_metrics
from tests.analysis.toy import TOY_GAME, toy_aggregate


def test_values_match_direct_computation():
    agg, seat_out, game_out = toy_aggregate([0.4, 0.3, 0.2, 0.1], 6_000, seed=21, tie_rate=0.08)
    m = balance_metrics(agg, TOY_GAME)
    shares = (seat_out[:, :, 2] / 60).mean(axis=0)
    assert m["balance"]["value"] == pytest.approx(1 - (shares.max() - shares.min()))
    scores, ranks = seat_out[:, :, 0], seat_out[:, :, 1]
    tie = (ranks == 1).sum(axis=1) > 1
    top2 = np.sort(scores, axis=1)[:, -2:]
    margin = np.where(tie, 0, top2[:, 1] - top2[:, 0])
    assert m["decisiveness"]["value"] == pytest.approx(margin.mean())
    assert m["decisiveness"]["se"] == pytest.approx(margin.std(ddof=1) / math.sqrt(len(margin)))
    assert m["tie_rate"]["value"] == pytest.approx(tie.mean())
    assert m["duration"]["value"] == pytest.approx(game_out[:, 1].mean())
    assert m["duration"]["unit"] == "turns"
    assert m["lead_changes"]["value"] == pytest.approx(game_out[:, 2].mean())
    spread = math.sqrt(np.mean([scores[:, s].var(ddof=1) for s in range(4)]))
    assert m["score_spread"]["value"] == pytest.approx(spread)
    for name, metric in m.items():
        assert metric["lo"] <= metric["value"] <= metric["hi"], name


def test_lead_changes_only_when_recorded():
    agg, _, _ = toy_aggregate([1, 1, 1], 500, seed=22, lead_changes=False)
    assert "lead_changes" not in balance_metrics(agg)
    assert balance_metrics(agg)["duration"]["unit"] == "length units"


def test_fair_game_balance_interval_reaches_one():
    agg, _, _ = toy_aggregate([1, 1, 1, 1], 20_000, seed=23)
    b = balance_metrics(agg)["balance"]
    assert b["value"] < 1 and b["hi"] == 1.0 and b["lo"] > 0.9


def test_balance_interval_covers_known_balance():
    probs = [0.4, 0.3, 0.2, 0.1]
    truth = 1 - (0.4 - 0.1)
    reps, covered = 300, 0
    for r in range(reps):
        agg, _, _ = toy_aggregate(probs, 2_000, seed=1000 + r)
        _, lo, hi = balance_interval(agg)
        covered += lo <= truth <= hi
    assert covered / reps >= 0.93  # simultaneous (Bonferroni) intervals: at least nominal


def test_jackknife_se_is_close_to_the_binomial_se_of_the_gap():
    # shares 0.4 / 0.1 dominate the gap; its s.e. is about sqrt(p1(1-p1) + p4(1-p4) + 2 p1 p4) / sqrt(n)
    agg, _, _ = toy_aggregate([0.4, 0.3, 0.2, 0.1], 40_000, seed=24)
    expected = math.sqrt(0.4 * 0.6 + 0.1 * 0.9 + 2 * 0.04) / math.sqrt(40_000)
    assert 0.5 * expected < balance_jackknife_se(agg) < 2 * expected


def test_no_games_gives_no_metrics():
    from sim.aggregate import Aggregate
    assert balance_metrics(Aggregate(2, ("score", "rank", "win60"), ("error", "turns"))) == {}
