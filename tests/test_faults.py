"""Bad input and faults during a run (docs/errors.md): one line, exit status 2, nothing existing overwritten, the
finished games kept."""
import json

import pytest
from click.testing import CliRunner

from sim.cli import main

SOMETIMES_CHEATS = '''
from numba import njit

@njit
def sometimes(obs, params, rng):
    """The lowest legal Straw card, but now and then the Straw whatever the total (an illegal action)."""
    if rng[0] % 3000 == 7:
        return 23 * 64
    for code in range(1, 24):
        if obs[61 + code] == 1:
            return code * 64 + (obs[11] if code == 22 or code == 21 and obs[9] == 3 else 0)
    return -1
'''


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def one_line(args, *needles):
    code, _, err = cli(*args)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, (code, err)
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_a_fault_mid_run_keeps_the_finished_games_and_names_the_game(tmp_path):
    plugin = tmp_path / "bots.py"
    plugin.write_text(SOMETIMES_CHEATS)
    out = tmp_path / "run"
    strategy = f"safe,{plugin}:sometimes"
    line = one_line(["run", "straw", "--players", "2", "--strategy", strategy, "--n", "5000", "--out", out],
                    "stopped: a strategy chose an illegal action", "games before it are kept as a partial run",
                    "seat 2's plug-in answers action 1472, which is not a legal action there")
    manifest = json.loads((out / "manifest.json").read_text())
    bad = int(line.split("game ")[1].split()[0])
    assert manifest["status"] == "partial" and manifest["n_games"] == bad > 0
    assert f"--n {bad}" in manifest["command"] and "fault" in manifest
    code, text, err = cli("trace", "straw", "--players", "2", "--strategy", strategy, "--game", bad)
    assert code == 2 and "stopped" in err and len(text.splitlines()) > 3  # the moves up to the fault


@pytest.mark.parametrize("args, needles", [
    (["run", "straw", "--set", "weighted.w_break=3"], ["reaches no seat", "no seat plays weighted"]),
    (["run", "straw", "--variant", "evertide", "--set", "evertide=0"], ["undoes variant evertide"]),
    (["run", "straw", "--scheduler", "foo"], ["not a scheduler address"]),
    (["run", "straw", "--scheduler", ""], ["not a scheduler address"]),
    (["run", "straw", "--scheduler", "tcp://"], ["not a scheduler address"]),
    (["run", "straw", "--scheduler", "tcp://localhost:70000"], ["not a scheduler address"]),
    (["trace", "straw", "--game", str(2 ** 64)], ["--game"]),
    (["trace", "straw", "--game", str(2 ** 63)], ["--game"]),
    (["run", "straw", "--n", "abc"], ["needs a whole number, not 'abc'"]),
    (["run", "kruki-wyscig", "--players", "3"], ["takes exactly 2 players"]),
    (["plan", "--precision", "0.01", "chess"], ["unknown game 'chess'"]),
])
def test_bad_input_is_one_line(args, needles, tmp_path):
    out = tmp_path / "never"
    extra = ["--out", out, "--n", "50"] if args[0] == "run" and "--n" not in args else []
    code, text, _ = cli(*args, *extra)
    one_line(args + extra, *needles)
    assert not out.exists()
    assert args[0] != "plan" or text == ""  # nothing printed before the error


def test_existing_report_files_are_never_replaced(tmp_path):
    html = tmp_path / "r.html"
    html.write_text("keep me")
    one_line(["run", "straw", "--n", "20", "--html", html, "--out", tmp_path / "a"], "already exists")
    assert html.read_text() == "keep me" and not (tmp_path / "a").exists()
    assert cli("run", "straw", "--n", "20", "--out", tmp_path / "b")[0] == 0
    one_line(["report", tmp_path / "b", "-o", html], "-o", "already exists")
    assert html.read_text() == "keep me"


@pytest.mark.parametrize("manifest, needle", [('{"kind": "run", "ga', "is not readable JSON"),
                                              ("[1, 2]", "is not a JSON object")])
def test_report_of_a_damaged_run_directory_is_one_line(tmp_path, manifest, needle):
    assert cli("run", "straw", "--n", "20", "--out", tmp_path / "b")[0] == 0
    (tmp_path / "b" / "manifest.json").write_text(manifest)
    one_line(["report", tmp_path / "b", "-o", tmp_path / "r.html"], "manifest.json", needle)
    assert not (tmp_path / "r.html").exists()


def test_a_summary_without_aggregate_is_named(tmp_path):
    assert cli("run", "straw", "--n", "20", "--out", tmp_path / "b")[0] == 0
    (tmp_path / "b" / "summary.json").write_text('{"seats": []}')
    one_line(["report", tmp_path / "b", "-o", tmp_path / "r.html"], "summary.json", "has no 'aggregate'")


def test_precision_not_reached_is_said(tmp_path):
    code, text, _ = cli("run", "straw", "--precision", "0.001", "--max-n", "2000", "--out", tmp_path / "p")
    assert code == 0 and "precision not reached" in text
    assert json.loads((tmp_path / "p" / "manifest.json").read_text())["precision_reached"] is False


def test_more_threads_than_cores_is_said_and_recorded(tmp_path):
    code, _, err = cli("run", "straw", "--n", "100", "--threads", "512", "--out", tmp_path / "t", "-q")
    manifest = json.loads((tmp_path / "t" / "manifest.json").read_text())
    assert code == 0 and "--threads 512 asked" in err
    assert manifest["threads_requested"] == 512 and manifest["threads"] < 512


@pytest.mark.parametrize("source, needle", [
    ('PARAMS = [1]\n', "PARAMS in"),
    ('PARAMS = {"go": {"margin": "x"}}\n', "must map a name to a number"),
    ('PARAMS = {"margin": 3}\n', "PARAMS['margin']"),
])
def test_plugin_params_of_the_wrong_shape(tmp_path, source, needle):
    path = tmp_path / "p.py"
    path.write_text("from numba import njit\n" + source + "@njit\ndef go(obs, params, rng):\n    return -1\n")
    one_line(["run", "straw", "--strategy", f"{path}:go", "--n", "10", "--out", tmp_path / "o"], needle)
    assert not (tmp_path / "o").exists()


def test_a_plugin_that_raises_is_one_line(tmp_path):
    path = tmp_path / "p.py"
    path.write_text("from numba import njit\n@njit\ndef go(obs, params, rng):\n    raise ValueError('boom')\n")
    one_line(["run", "straw", "--strategy", f"{path}:go", "--n", "10", "--out", tmp_path / "o"],
             "cannot be called from the kernel", "never raise")
    assert not (tmp_path / "o").exists()


def test_a_fault_in_a_compare_keeps_the_finished_games_of_every_configuration(tmp_path):
    plugin = tmp_path / "bots.py"
    plugin.write_text(SOMETIMES_CHEATS)
    out = tmp_path / "cmp"
    line = one_line(["compare", "straw", "--players", "2", "--strategy", f"safe,{plugin}:sometimes", "--variant",
                     "base", "--variant", "evertide", "--n", "5000", "--out", out],
                    "stopped: a strategy chose an illegal action", "in configuration base",
                    "games before it are kept as a partial run")
    bad = int(line.split("game ")[1].split()[0])
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "partial" and manifest["n_games"] == bad > 0 and "fault" in manifest
    assert f"--n {bad}" in manifest["command"]
    for run in manifest["runs"]:
        part = json.loads((out / run["dir"] / "manifest.json").read_text())
        assert part["status"] == "partial" and part["n_games"] == bad


UNWRITABLE = "/proc/sim-no-such-folder/r.html"  # no file can be made there, not even by root


@pytest.mark.parametrize("args", [
    ["run", "straw"],
    ["compare", "straw", "--variant", "base", "--variant", "evertide"],
    ["sweep", "straw", "--set", "break_at=40:44:2"],
    ["tournament", "straw", "--players", "2", "--strategies", "safe,random"],
    ["tune", "straw", "--param", "break_at=40:60", "--target", "balance", "--trials", "2"],
], ids=["run", "compare", "sweep", "tournament", "tune"])
def test_an_unwritable_report_path_is_refused_before_any_game(tmp_path, args):
    out = tmp_path / "never"
    one_line([*args, "--n", "50", "--out", out, "--html", UNWRITABLE], "cannot write --html")
    assert not out.exists()


def test_report_to_an_unwritable_path_is_one_line(tmp_path):
    assert cli("run", "straw", "--n", "20", "--out", tmp_path / "b")[0] == 0
    one_line(["report", tmp_path / "b", "-o", UNWRITABLE], "cannot write -o")
    one_line(["report", tmp_path / "b", "-o", tmp_path / "b" / "manifest.json" / "r.html"], "is not a folder")
