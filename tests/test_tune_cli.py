"""`sim tune` and `sim tune-strategy` on the command line: outputs, the same numbers as the Python API, and bad input
as one line with exit status 2 before any game."""
import json
import os

import pytest
from click.testing import CliRunner

import sim
from sim.cli import main


def run_cli(args):
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result.exit_code, result.output


def test_tune_writes_tune_json_and_report_and_matches_the_api(tmp_path):
    out = tmp_path / "t"
    args = ["tune", "straw", "--players", "3", "--param", "break_at=30:50", "--param", "weighted.w_loss=0:2",
            "--strategy", "weighted,safe,weighted", "--target", "seat-gap", "--trials", "4", "--n", "300",
            "--validate", "300", "--seed", "4", "--out", str(out), "--html", str(tmp_path / "copy.html")]
    code, text = run_cli(args)
    assert code == 0, text
    assert "validated on 300 fresh games each" in text and "percentage points" in text
    content = json.loads((out / "tune.json").read_text())
    assert content["status"] == "complete" and len(content["trials"]) == 4
    assert set(content["best"]["params"]) == {"break_at", "weighted.w_loss"}
    for key in ("value", "lo", "hi", "loss"):
        assert key in content["best"]["targets"]["seat-gap"]
    assert content["command"].startswith("sim tune straw")
    html = (out / "report.html").read_text()
    assert 'id="verdict"' in html and "Optimisation history" in html and "<svg" in html
    assert (tmp_path / "copy.html").read_text() == html
    api = sim.tune("straw", ["break_at=30:50", "weighted.w_loss=0:2"], ["seat-gap"], trials=4, n=300, validate=300,
                   seed=4, players=3, strategies="weighted,safe,weighted")
    assert api.content["trials"] == content["trials"] and api.best == content["best"]
    assert list(api.trials["number"]) == [0, 1, 2, 3] and "seat-gap_lo" in api.trials.columns


def test_tune_strategy_prints_a_spec_usable_in_strategy(tmp_path):
    code, text = run_cli(["tune-strategy", "straw", "--strategy", "safe", "--against", "random", "--players", "2",
                          "--trials", "3", "--n", "200", "--validate", "200", "--out", str(tmp_path / "s")])
    assert code == 0, text
    spec = json.loads((tmp_path / "s" / "tune.json").read_text())["best"]["spec"]
    assert spec.startswith("safe:escape_at=")
    code, text = run_cli(["run", "straw", "--players", "2", "--strategy", f"{spec},random", "--n", "50",
                          "--out", str(tmp_path / "r")])
    assert code == 0, text


def test_a_study_in_storage_continues(tmp_path):
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    base = ["tune", "straw", "--param", "break_at=40:60", "--target", "length=70", "--n", "200", "--trials", "2",
            "--storage", storage, "--study", "s", "-q"]
    assert run_cli(base + ["--out", str(tmp_path / "a")])[0] == 0
    assert run_cli(base + ["--out", str(tmp_path / "b")])[0] == 0
    assert len(json.loads((tmp_path / "b" / "tune.json").read_text())["trials"]) == 4


@pytest.mark.parametrize("extra, message", [
    (["--param", "nope=1:2"], "unknown parameter 'nope'"),
    (["--param", "break_at=1:2"], "outside the parameter's range"),
    (["--param", "break_at=60:40"], "above HI"),
    (["--param", "break_at=40:60:0"], "step must be above 0"),
    (["--param", "break_at=40:60", "--param", "break_at=41:50"], "names a parameter twice"),
    (["--param", "weighted.w_loss=0:1"], "no seat plays weighted"),
    (["--target", "fair"], "unknown --target 'fair'"),
    (["--target", "length"], "needs a value"),
    (["--trials", "0"], "--trials must be at least 1"),
    (["--validate", "0"], "--validate must be at least 1"),
    (["--storage", "sqlite:///x.db"], "--storage needs --study"),
    (["--players", "9"], "straw takes 2-6 players"),
])
def test_bad_tune_input_is_one_line_exit_2_and_writes_nothing(tmp_path, extra, message):
    out = tmp_path / "never"
    args = ["tune", "straw", "--n", "100", "--out", str(out)]
    if "--param" not in extra:
        args += ["--param", "break_at=40:60"]
    if "--target" not in extra:
        args += ["--target", "seat-gap"]
    code, text = run_cli(args + extra)
    lines = [line for line in text.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and message in lines[0], text
    assert not out.exists() and not os.path.exists("x.db")


def test_missing_param_or_target_is_exit_2():
    assert run_cli(["tune", "straw", "--target", "seat-gap"])[0] == 2
    assert run_cli(["tune", "straw", "--param", "break_at=40:60"])[0] == 2
