"""`sim skill` and sim.skill: the ladder random -> shipped heuristics -> tuned specs in one-vs-rest line-ups, the
win-share matrix, the luck-vs-skill index with its interval, dominance after Holm correction, the paired index change
of a variant, the report, and bad input (analysis/skill.py has the definitions)."""
from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

import sim
from analysis.skill import dominance, index_of_share, paired_index_difference, pairwise_shares
from sim.registry import get_game
from tests.test_cli import assert_one_line_error, run_cli

SEN_DEFAULT = get_game("sen").default_strategy  # a tuned memory
STRAW_RUNGS = ["random", "dump-heaviest", "safe", "straw-hunter", "weighted", "safe:escape_at=8"]  # + the default


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill") / "s"
    code, text, err = run_cli(["skill", "straw", "--players", "2", "--n", "3000", "--seed", "3", "--variant", "base",
                               "--variant", "deck-b", "--out", str(out)])
    assert code == 0, err
    return out, text


def test_cli_end_to_end_writes_the_report_with_index_dominance_and_variant_change(cli_run):
    out, text = cli_run
    assert "ladder random → dump-heaviest → safe → straw-hunter → weighted → safe:escape_at=8" in text
    assert "30 line-ups" in text and "× 100 games per line-up" in text
    m = re.search(r"luck-vs-skill index (\d\.\d\d) \(95% interval (\d\.\d\d) to (\d\.\d\d)\)", text)
    assert m and 0 <= float(m[2]) <= float(m[1]) <= float(m[3]) <= 1
    assert "no rung beats every other" in text or "dominates: it beats every other rung" in text
    assert "deck-b" in text and "changes how much skill matters" in text
    report = (out / "report.html").read_text()
    assert 'id="skill"' in report and "Luck-vs-skill index" in report and "beats every other?" in report
    assert "Does the variant change how much skill matters?" in report
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "skill" and len(manifest["runs"]) == 60
    assert manifest["skill"]["rungs"] == STRAW_RUNGS
    assert manifest["command"].startswith("sim skill straw --players 2 --variant base --variant deck-b --seed 3")


def test_api_gives_the_cli_numbers(cli_run):
    out, text = cli_run
    k = sim.skill("straw", 3000, players=2, variants=["base", "deck-b"], seed=3)
    assert k.rungs == STRAW_RUNGS and k.variants == ["base", "deck-b"] and k.per_lineup == 100
    base = k.index.set_index("variant").loc["base"]
    assert f"luck-vs-skill index {base['index']:.2f} (95% interval {base['index_lo']:.2f} to " \
           f"{base['index_hi']:.2f}): {base['strategy']}, the strongest rung, wins" in text
    assert base["n"] == 200 and base["lo"] < base["share"] < base["hi"]  # alone vs random, both seat orders
    assert base["strategy"] == k.ratings.query("variant == 'base' and strategy != 'random'")["strategy"].iloc[0]
    pairwise = k.pairwise
    assert len(pairwise) == 2 * 6 * 5 and (pairwise["strategy"] != pairwise["opponent"]).all()
    assert (pairwise["n"] == 200).all()
    assert len(k.differences) == 1 and k.differences.iloc[0]["reference"] == "base"
    assert set(k.dominance["variant"]) == {"base", "deck-b"}


def test_sim_report_rebuilds_a_saved_skill_directory(cli_run, tmp_path):
    out, _ = cli_run
    code, _, err = run_cli(["report", str(out), "-o", str(tmp_path / "r.html")])
    assert code == 0, err
    assert 'id="skill"' in (tmp_path / "r.html").read_text()


def test_index_definition():
    assert index_of_share(0.25, 4) == 0.0 and index_of_share(1.0, 4) == 1.0
    assert index_of_share(0.625, 4) == pytest.approx(0.5)
    assert index_of_share(0.1, 4) == 0.0  # below the fair share: clipped


def test_pairwise_shares_count_shared_ranks_half_and_use_games_for_the_interval():
    wins, games, met = np.array([[0, 60], [30, 0]]), np.array([[0, 100], [100, 0]]), np.array([[0, 50], [50, 0]])
    share, lo, hi = pairwise_shares(wins, games, met)
    assert share[0, 1] == pytest.approx(0.65) and share[1, 0] == pytest.approx(0.35)
    from analysis.intervals import wilson
    assert (lo[0, 1], hi[0, 1]) == pytest.approx(wilson(32.5, 50))
    assert math.isnan(share[0, 0])


def test_dominance_needs_every_comparison_significant_after_holm():
    names = ["a", "b", "c"]
    met = np.full((3, 3), 400)
    share = np.array([[np.nan, 0.6, 0.62], [0.4, np.nan, 0.5], [0.38, 0.5, np.nan]])
    rows = dominance(names, share, met, share - 0.05, share + 0.05)
    assert [r["dominates"] for r in rows] == [True, False, False]
    share[0, 2], share[2, 0] = 0.52, 0.48  # z = 0.8: not significant
    assert not dominance(names, share, met, share, share)[0]["dominates"]


def test_paired_difference_of_identical_runs_is_zero():
    x = {"share": 0.7, "n": 320, "batch_wins": [7.0] * 32, "batch_n": [10.0] * 32}
    d = paired_index_difference(x, x, 2)
    assert d["diff"] == 0 and d["p"] == 1.0 and d["batches"] == 32


def test_tuned_rungs_from_a_spec_and_from_a_tune_json(tmp_path):
    (tmp_path / "tune.json").write_text(json.dumps({"best": {"spec": "memory:call_at=14"}}))
    k = sim.skill("sen", 600, players=2, tuned=["threshold:call_at=12", str(tmp_path)], seed=2)
    assert k.rungs == ["random", "threshold", "memory", SEN_DEFAULT, "threshold:call_at=12", "memory:call_at=14"]
    assert len(k.pairwise) == 6 * 5 and "--tuned threshold:call_at=12 --tuned memory:call_at=14" in k.command


@pytest.mark.parametrize("args,needle", [
    (["skill", "straw", "--players", "2", "--tuned", "safe"], "plays as safe, already a rung"),
    (["skill", "straw", "--players", "2", "--tuned", "genius"], "unknown strategy 'genius'"),
    (["skill", "straw", "--variant", "base", "--variant", "base"], "the same variant twice"),
    (["skill", "straw", "--variant", "turbo"], "unknown variant 'turbo'"),
    (["skill", "straw", "--players", "9"], "2-6 players"),
    (["skill", "straw", "--tuned", "/nonexistent/tune.json"], "cannot read a tune-strategy result"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle):
    assert_one_line_error(args, needle)


def test_help():
    code, out, _ = run_cli(["skill", "--help"])
    assert code == 0 and "luck-vs-skill index" in out and "--tuned" in out
