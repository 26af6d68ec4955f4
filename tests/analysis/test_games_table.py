"""Per-game rows: games.parquet of a real Straw run analysed row by row agrees with the exact aggregate."""
import pytest

from analysis.balance import balance_metrics
from analysis.games_table import analyse_games, analyse_run_games, analysis_columns, load_games


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    from sim.engine import configure
    from sim.registry import get_game
    from sim.pipeline import execute_run
    config = configure(get_game("straw"), 3, "random,safe,straw-hunter", seed=7)
    outcome = execute_run(config, 3000, out=str(tmp_path_factory.mktemp("runs") / "r"), save_games=True,
                          progress=False)
    return outcome


def test_analyse_games_matches_the_aggregate_summary(saved_run):
    df = load_games(saved_run.run_dir)
    assert len(df) == 3000 and df.attrs["length_column"] == "turns"
    res = analyse_games(df, 3)
    summary = saved_run.summary
    for mine, ref in zip(res["seats"], summary["seats"]):
        assert mine["strategy"] == ref["strategy"]
        for key in ("wins", "win_share", "win_lo", "win_hi", "score_mean", "score_se", "rank_mean"):
            assert mine[key] == pytest.approx(ref[key], rel=1e-12), key
        assert mine["score_quantiles"] == ref["score_quantiles"]
        assert mine["rank_counts"] == ref["rank_counts"]
        assert mine["score_min"] == ref["score_min"] and mine["score_max"] == ref["score_max"]
    for mine, ref in zip(res["strategies"], summary["strategies"]):
        assert mine["strategy"] == ref["strategy"] and mine["win_share"] == pytest.approx(ref["win_share"])
    for key in ("mean", "se", "q05", "q50", "q95", "min", "max"):
        assert res["length"][key] == pytest.approx(summary["length"][key]), key
    agg = saved_run.result.aggregate
    metrics = balance_metrics(agg)
    assert res["tie_rate"]["value"] == pytest.approx(metrics["tie_rate"]["value"])
    assert res["margin"]["mean"] == pytest.approx(metrics["decisiveness"]["value"])
    assert res["margin"]["se"] == pytest.approx(metrics["decisiveness"]["se"])
    assert res["score_spread_within"]["mean"] > 0
    assert res["length"]["hist"]["counts"] == agg.length_hist.counts.tolist()


def test_fast_path_reads_only_the_analysis_columns(saved_run):
    df = load_games(saved_run.run_dir, columns="analysis")
    assert set(df.columns) == set(analysis_columns(df.columns))
    assert "s1_breaks" not in df.columns and "turns" in df.columns
    assert analyse_run_games(saved_run.run_dir)["seats"][1]["wins"] == saved_run.summary["seats"][1]["wins"]


def test_missing_file_is_one_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="--save-games"):
        load_games(str(tmp_path))
