"""compare, sweep, tournament, precision, plan and report from the command line, and their bad input."""
import json
import os
from html.parser import HTMLParser

import pytest

from tests.test_cli import assert_one_line_error, run_cli


def test_compare_variants_prints_paired_differences_and_writes_html(tmp_path):
    html = tmp_path / "cmp.html"
    code, out, err = run_cli(["compare", "straw", "--variant", "base", "--variant", "evertide+deck-b",
                              "--n", "3000", "--players", "3", "--out", str(tmp_path / "c"), "--html", str(html)])
    assert code == 0, err
    assert "paired differences vs base" in out and "evertide+deck-b" in out and "95% interval" in out
    parent = json.loads((tmp_path / "c" / "manifest.json").read_text())
    assert parent["kind"] == "compare" and [r["label"] for r in parent["runs"]] == ["base", "evertide+deck-b"]
    text = html.read_text()
    HTMLParser().feed(text)
    assert "<svg" in text and "https://" not in text and "http://" not in text


def test_compare_seat_counts(tmp_path):
    code, out, err = run_cli(["compare", "straw", "--players", "2,3", "--n", "2000", "--out", str(tmp_path / "c")])
    assert code == 0, err
    assert "2p" in out and "3p" in out and "not paired" in out


def test_sweep_and_report_from_saved_runs(tmp_path):
    code, out, err = run_cli(["sweep", "straw", "--players", "3", "--set", "break_at=40:50:5", "--n", "2000",
                              "--out", str(tmp_path / "s")])
    assert code == 0, err
    assert "break_at=40" in out and "break_at=45" in out and "break_at=50" in out
    report = tmp_path / "r.html"
    code, out, err = run_cli(["report", str(tmp_path / "s"), "-o", str(report)])
    assert code == 0, err
    assert "<svg" in report.read_text()


def test_sweep_of_a_strategy_parameter(tmp_path):
    code, out, err = run_cli(["sweep", "straw", "--strategy", "safe", "--set", "safe.escape_at=30,40",
                              "--n", "1000", "--out", str(tmp_path / "s")])
    assert code == 0, err
    runs = json.loads((tmp_path / "s" / "manifest.json").read_text())["runs"]
    manifests = [json.loads((tmp_path / "s" / r["dir"] / "manifest.json").read_text()) for r in runs]
    assert [m["strategies"][0]["params"]["escape_at"] for m in manifests] == [30, 40]


def test_tournament_rotates_seats_and_rates(tmp_path):
    code, out, err = run_cli(["tournament", "straw", "--players", "2", "--strategies", "random,safe,weighted",
                              "--n", "3000", "--out", str(tmp_path / "t")])
    assert code == 0, err
    assert "Bradley–Terry" in out and "pairwise" in out
    runs = json.loads((tmp_path / "t" / "manifest.json").read_text())["runs"]
    assert len(runs) == 6  # 3 pairs x 2 seat orders


def test_precision_stops_when_reached(tmp_path):
    code, out, err = run_cli(["run", "straw", "--players", "2", "--precision", "0.02", "--out", str(tmp_path / "p")])
    assert code == 0, err
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    summary = json.loads((tmp_path / "p" / "summary.json").read_text())
    assert manifest["status"] == "complete" and manifest["n_games"] < 100_000
    assert max((s["win_hi"] - s["win_lo"]) / 2 for s in summary["seats"]) <= 0.02


def test_plan():
    from analysis.intervals import wilson
    code, out, _ = run_cli(["plan", "--precision", "0.01"])
    assert code == 0
    n = int(out.split("needs ")[1].split(" games")[0].replace(",", ""))
    lo, hi = wilson(n / 2, n)
    assert (hi - lo) / 2 <= 0.01 < (lambda lo_, hi_: (hi_ - lo_) / 2)(*wilson((n - 2) / 2, n - 2))
    code, out, _ = run_cli(["plan", "--precision", "0.002", "straw", "--players", "3"])
    assert code == 0 and "straw with 3 players" in out


@pytest.mark.parametrize("args,needle", [
    (["compare", "straw", "--variant", "base", "--variant", "turbo"], "unknown variant 'turbo'"),
    (["compare", "straw", "--variant", "base"], "at least two configurations"),
    (["compare", "straw", "--players", "2,x"], "--players takes seat counts"),
    (["compare", "straw", "--players", "2,9"], "2-6 players"),
    (["sweep", "straw", "--set", "break_at=40:30:2"], "runs backwards"),
    (["sweep", "straw", "--set", "break_at=40:60:0"], "positive step"),
    (["sweep", "straw", "--set", "break_at=40"], "exactly one --set"),
    (["sweep", "straw", "--set", "break_at=5:20:5"], "out of range"),
    (["run", "straw", "--precision", "0"], "--precision must be between 0 and 0.5"),
    (["plan", "--precision", "0"], "--precision must be between 0 and 0.5"),
    (["tournament", "straw", "--players", "3", "--strategies", "random,safe", "--lineups", "distinct"],
     "--lineups distinct at 3 players needs at least 3 strategies"),
    (["tournament", "straw", "--strategies", "random,random,safe,weighted"], "lists strategy 'random' twice"),
    (["tournament", "straw", "--strategies", "safe"], "at least two different strategies"),
    (["tournament", "straw", "--strategies", "safe,genius"], "unknown strategy 'genius'"),
    (["tournament", "straw", "--strategies", "safe,random", "--lineups", "pairs"], "unknown --lineups 'pairs'"),
    (["report", "/nonexistent/run", "-o", "/tmp/x.html"], "is not a run directory"),
])
def test_bad_analysis_input_is_one_line_and_exit_2(args, needle):
    assert_one_line_error(args, needle)


def test_report_rejects_a_directory_that_is_not_a_run(tmp_path):
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "notes.txt").write_text("hello")
    assert_one_line_error(["report", str(tmp_path / "junk"), "-o", str(tmp_path / "x.html")],
                          "is not a run directory")
    assert not os.path.exists(tmp_path / "x.html")
