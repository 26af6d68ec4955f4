"""Paired differences: interval coverage on simulated paired data with a known mean difference, identical variants
(real Straw games on common random numbers), a known biased toy case, Holm over the table, and the verdict."""
import numpy as np
import pytest

from analysis.compare import paired_differences, paired_from_samples, unpaired_difference, verdict


def _paired_reps(rng, reps, n, delta, sd_common=3.0, sd_noise=1.0):
    """reps independent paired experiments of n games each, as one `paired` dict (one 'variant' per rep)."""
    base, variants = {}, {}
    for r in range(reps):
        common = rng.normal(10, sd_common, n)  # the shared game luck that pairing cancels
        base[f"m{r}"] = common + rng.normal(0, sd_noise, n)
        variants[f"rep{r}"] = {"x": common + delta + rng.normal(0, sd_noise, n)}
    out = {"baseline": "base", "variants": {}}
    for r in range(reps):
        out["variants"][f"rep{r}"] = paired_from_samples("base", {"x": base[f"m{r}"]},
                                                         {"v": variants[f"rep{r}"]})["variants"]["v"]
    return out


@pytest.mark.parametrize("n,delta", [(200, 0.3), (12, -1.0)])  # normal, and Student t (n < 30)
def test_paired_interval_covers_known_difference_at_nominal_rate(n, delta):
    rng = np.random.default_rng(31 + n)
    reps = 2000
    df = paired_differences(_paired_reps(rng, reps, n, delta))
    assert len(df) == reps
    rate = ((df["lo"] <= delta) & (delta <= df["hi"])).mean()
    assert 0.935 <= rate <= 0.965, rate  # 95% nominal; 1.5 pp ≈ 3 binomial s.e. at 2000 reps
    assert (df["method"] == ("paired, t" if n < 30 else "paired, normal")).all()


def test_paired_win_share_coverage_on_bernoulli_data():
    # win shares: seat wins in the baseline with p = 0.25; the variant flips some outcomes, raising it to 0.28
    rng = np.random.default_rng(33)
    reps, n, delta = 1500, 2000, 0.03
    variants = {}
    for r in range(reps):
        u = rng.random(n)  # common random number per game
        b = (u < 0.25).astype(float)
        v = (u < 0.25 + delta).astype(float)
        noisy = rng.random(n) < 0.02  # a few games decided independently of the baseline
        v[noisy] = rng.random(int(noisy.sum())) < 0.5
        variants[f"rep{r}"] = paired_from_samples("base", {"win_s1": b}, {"v": {"win_s1": v}})["variants"]["v"]
    df = paired_differences({"baseline": "base", "variants": variants})
    truth = 0.98 * (0.25 + delta) + 0.02 * 0.5 - 0.25  # E[v] − E[b]
    rate = ((df["lo"] <= truth) & (truth <= df["hi"])).mean()
    assert 0.93 <= rate <= 0.97, rate


def test_identical_variants_on_common_random_numbers_give_zero():
    from sim.engine import configure
    from sim.multirun import run_together
    from sim.registry import get_game
    game = get_game("straw")
    configs = [configure(game, 3, "random", seed=5), configure(game, 3, "random", seed=5)]
    multi = run_together(configs, 1500)
    paired = {"baseline": "base", "variants": {"same": multi.paired[1].as_paired()}}
    df = paired_differences(paired)
    assert len(df) == 2 * 3 + 3
    assert (df["diff"] == 0).all() and ((df["lo"] <= 0) & (0 <= df["hi"])).all()
    assert not df["significant"].any()
    assert verdict(df) == ["no difference from base is significant at the 5% level after Holm correction "
                           "(9 comparisons)."]


def test_biased_toy_variant_is_detected_and_worded():
    rng = np.random.default_rng(34)
    n = 20_000
    u = rng.random(n)
    base_win = (u < 0.25).astype(float)
    junk_win = (u < 0.23).astype(float)  # the variant takes 2 points off seat 1
    length_b = rng.integers(40, 60, n).astype(float)
    paired = paired_from_samples("base", {"win_s1": base_win, "length": length_b},
                                 {"random-junk": {"win_s1": junk_win, "length": length_b + rng.normal(0, 1, n)}})
    df = paired_differences(paired)
    row = df[df["metric"] == "win_s1"].iloc[0]
    assert row["significant"] and row["hi"] < 0 and row["lo"] <= -0.02 <= row["hi"]
    assert not df[df["metric"] == "length"].iloc[0]["significant"]
    lines = verdict(df, "turns")
    assert lines[0].startswith("random-junk lowers seat 1's win share by 2.")
    assert "points vs base" in lines[0] and "after Holm correction" in lines[0]
    assert "not significant" in lines[-1]


def test_holm_runs_over_every_row():
    from statsmodels.stats.multitest import multipletests
    rng = np.random.default_rng(35)
    n = 400
    base = {"a": rng.normal(0, 1, n), "b": rng.normal(0, 1, n)}
    variants = {v: {"a": base["a"] + rng.normal(shift, 1, n), "b": base["b"] + rng.normal(0, 1, n)}
                for v, shift in (("v1", 0.0), ("v2", 0.15), ("v3", 0.3))}
    df = paired_differences(paired_from_samples("base", base, variants))
    _, adjusted, _, _ = multipletests(df["p_value"], method="holm")
    assert np.allclose(df["p_holm"], adjusted)
    assert list(df.columns[:3]) == ["baseline", "variant", "metric"]


def test_paired_difference_numbers():
    d = np.array([1.0, 2.0, 4.0, -1.0, 3.0] * 8)  # n = 40: normal interval
    paired = {"baseline": "b", "variants": {"v": {"x": {"n": d.size, "sum": d.sum(), "sumsq": (d * d).sum(),
                                                         "base_mean": 1.0, "variant_mean": 1.0 + d.mean()}}}}
    row = paired_differences(paired).iloc[0]
    se = d.std(ddof=1) / np.sqrt(d.size)
    assert row["diff"] == pytest.approx(d.mean()) and row["se"] == pytest.approx(se)
    assert row["hi"] - row["diff"] == pytest.approx(1.959963984540054 * se)


def test_unpaired_difference():
    d = unpaired_difference(0.90, 0.03, 0.95, 0.04)
    assert d["diff"] == pytest.approx(0.05) and d["se"] == pytest.approx(0.05)
    assert d["lo"] == pytest.approx(0.05 - 1.959963984540054 * 0.05)
    assert d["p_value"] == pytest.approx(0.3173, abs=1e-4)


def test_verdict_of_empty_table():
    assert verdict(paired_differences({"baseline": "b", "variants": {}})) == ["there is nothing to compare."]


def test_crossed_compare_pairs_each_configuration_with_the_base_of_its_player_count():
    from analysis.findings import crossed_effects
    from sim.backends import pairing
    from sim.engine import configure
    from sim.multirun import run_together
    from sim.registry import get_game
    game = get_game("straw")
    configs = [configure(game, p, "random", v, seed=6) for p in (2, 3) for v in ((), ("deck-b",))]
    labels = ["2p base", "2p deck-b", "3p base", "3p deck-b"]
    assert pairing(configs) == [None, 0, None, 2]
    multi = run_together(configs, 600)
    assert multi.paired[0] is None and multi.paired[2] is None  # 3p base is a base, not a variant of 2p base
    for i, j in ((1, 0), (3, 2)):  # the paired sums are exactly the difference of the two aggregates
        win = multi.results[i].aggregate.seat_sum[:, 2] - multi.results[j].aggregate.seat_sum[:, 2]
        assert [multi.paired[i].sums[f"win_s{s + 1}"][0] for s in range(configs[i].players)] == win.tolist()
    paired = {"baseline": labels[0], "variants": {labels[i]: multi.paired[i].as_paired() for i in (1, 3)},
              "baselines": {labels[i]: labels[j] for i, j in ((1, 0), (3, 2))}}
    df = paired_differences(paired)
    assert set(zip(df["variant"], df["baseline"])) == {("2p deck-b", "2p base"), ("3p deck-b", "3p base")}
    rows = crossed_effects(df, {label: c.players for label, c in zip(labels, configs)})
    assert [(r["family"], r["players"], len(r["diff_pp"])) for r in rows] == [("deck-b", 2, 2), ("deck-b", 3, 3)]
    assert abs(sum(rows[1]["diff_pp"])) < 1e-9  # win shares sum to one, so their changes sum to zero


def test_unpaired_runs_are_compared_within_their_player_count():
    from analysis.findings import unpaired_pairs
    # 2p base, 2p v, 3p base, 3p v: each variant against the base of its count, 3p base against the first run
    assert unpaired_pairs([2, 2, 3, 3]) == [(1, 0), (2, 0), (3, 2)]
    assert unpaired_pairs([2, 3, 4]) == [(1, 0), (2, 0)]  # seat counts only: each against the first
    assert unpaired_pairs([2, 2, 3, 3], skip={1, 3}) == [(2, 0)]
