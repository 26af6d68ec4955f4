"""Engine: exact merging, reproducibility across threads and chunk sizes, partial runs, the RNG twins."""
import json

import numpy as np
import pytest

from analysis.summary import summarize
from sim.aggregate import Aggregate, IntHistogram
from sim.engine import run_games
from sim.registry import all_games, get_game
from sim.rng import PyStream, below, shuffle, stream_start
from sim.pipeline import execute_run
from tests.helpers import make_config


def _summary(config, n, **kw):
    result = run_games(config, n, **kw)
    return json.dumps(summarize(result.aggregate, config), sort_keys=True, default=str), result


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_same_seed_same_numbers_for_any_threads_and_chunks(game):
    spec = get_game(game)
    config = make_config(spec, spec.default_players, "random", seed=2024)
    base, result = _summary(config, 3000, threads=1, chunk_size=3000)
    assert result.aggregate.n == 3000
    for threads, chunk in ((2, 3000), (1, 257), (2, 1000), (2, None)):
        again, _ = _summary(config, 3000, threads=threads, chunk_size=chunk)
        assert again == base, (threads, chunk)


def test_aggregate_merge_is_exact_and_order_free():
    spec = get_game("straw")
    config = make_config(spec, 4, "random", seed=5)
    from sim.engine import run_chunk
    parts = [(start, run_chunk(config, 5, start, 500)) for start in (0, 500, 1000)]
    whole = run_chunk(config, 5, 0, 1500)
    merged = Aggregate(4, spec.all_seat_columns, spec.all_game_columns)
    for start, (seat_out, game_out) in reversed(parts):
        merged.merge(Aggregate.from_chunk(spec, 4, seat_out, game_out, start))
    direct = Aggregate.from_chunk(spec, 4, *whole)
    assert merged.to_dict() == direct.to_dict()
    assert Aggregate.from_dict(merged.to_dict()).to_dict() == merged.to_dict()
    # win shares add up to one game's worth per game; batches partition the games
    assert merged.seat_sum[:, 2].sum() == 60 * 1500
    assert merged.batch_n.sum() == 1500 and (merged.batch_win.sum(axis=0) == merged.seat_sum[:, 2]).all()
    assert merged.outright.sum() + merged.ties[0] == 1500


def test_histogram_merge():
    a, b = IntHistogram(), IntHistogram()
    a.add([-3, -3, 0, 5])
    b.add([7, -5, 0])
    a.merge(b)
    values = dict(zip(a.values().tolist(), a.counts.tolist()))
    assert {k: v for k, v in values.items() if v} == {-5: 1, -3: 2, 0: 2, 5: 1, 7: 1}


def test_interrupted_run_keeps_finished_chunks(tmp_path):
    spec = get_game("straw")
    config = make_config(spec, 3, "random", seed=9)
    calls = []

    def stop_after_two(first, seat_out, game_out, total):
        calls.append(first)
        if len(calls) == 2:
            raise KeyboardInterrupt

    result = run_games(config, 10_000, chunk_size=1000, on_chunk=stop_after_two)
    assert not result.complete and result.aggregate.n == 2000
    full = run_games(config, 2000, chunk_size=2000)
    assert full.aggregate.to_dict() == result.aggregate.to_dict()


def test_should_stop_ends_early():
    spec = get_game("straw")
    config = make_config(spec, 2, "random", seed=9)
    result = run_games(config, 100_000, chunk_size=500, should_stop=lambda agg: agg.n >= 1500)
    assert result.complete and result.aggregate.n == 1500


def test_rng_twins_agree():
    for seed, game in ((0, 0), (7, 12345), (2**62 + 5, 99)):
        state, py = stream_start(seed, game), PyStream(seed, game)
        assert [below(state, 1000) for _ in range(200)] == [py.below(1000) for _ in range(200)]
        arr = np.arange(64, dtype=np.int8)
        items = list(range(64))
        shuffle(state, arr, 64)
        py.shuffle(items)
        assert arr.tolist() == items


def test_rng_streams_are_uniform_and_distinct():
    counts = np.zeros(6, np.int64)
    firsts = set()
    for game in range(3000):
        py = PyStream(1, game)
        firsts.add(py.next_u64())
        for _ in range(10):
            counts[py.below(6)] += 1
    assert len(firsts) == 3000
    expected = 30000 / 6
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 20.5  # 5 d.o.f., p ≈ 0.001


def test_execute_run_writes_a_complete_run_directory(tmp_path):
    spec = get_game("straw")
    config = make_config(spec, 4, "random,safe,weighted,straw-hunter", seed=3)
    out = tmp_path / "run"
    outcome = execute_run(config, 2000, out=str(out), save_games=True, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["n_games"] == 2000 and manifest["seed"] == 3
    assert manifest["files"] == ["manifest.json", "summary.json", "games.parquet"]
    import pandas as pd
    rows = pd.read_parquet(out / "games.parquet")
    assert len(rows) == 2000 and rows["game"].tolist() == list(range(2000))
    assert rows[[f"s{s}_win" for s in range(1, 5)]].sum(axis=1).round(9).eq(1).all()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seats"][1]["strategy"] == "safe"
    assert abs(sum(s["win_share"] for s in summary["seats"]) - 1) < 1e-9
    assert outcome.summary["games"] == 2000
    assert np.isclose(rows["s1_score"].mean(), summary["seats"][0]["score_mean"])
