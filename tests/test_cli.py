"""The command line: help everywhere, runs and traces, and one clear line with exit status 2 for bad input."""
import json
import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from sim.cli import main
from tests.helpers import printed, running, wait_until

GOOD_PLUGIN = '''
from numba import njit

# Straw observation fields (sim/games/straw/obs.py): O_LEGAL = 61, O_LAMP_MIN = 11
PARAMS = {"cautious": {"lamp_pick": 0.0}}

@njit
def cautious(obs, params, rng):
    """Play the lowest legal card code; a Lamp at its smallest value."""
    for code in range(1, 24):
        if obs[61 + code] == 1:
            return code * 64 + (obs[11] if code == 22 or code == 21 and obs[9] == 3 else 0)
    return -1
'''

ILLEGAL_PLUGIN = '''
from numba import njit

@njit
def cheat(obs, params, rng):
    return 23 * 64  # the Straw, whatever the total
'''

BROKEN_PLUGIN = '''
from numba import njit

@njit
def broken(obs, params, rng):
    return "not a number" + obs
'''

WRONG_SIGNATURE = '''
def lonely(obs):
    return 1
'''


def invoke(*args):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False, standalone_mode=True)
    return result


def run_cli(args):
    """Run the CLI in-process the way the console script does; returns (exit code, stdout, stderr)."""
    runner = CliRunner()
    result = runner.invoke(main, args)
    code = result.exit_code
    return code, result.stdout, result.stderr


def assert_one_line_error(args, *needles):
    code, out, err = run_cli(args)
    assert code == 2, (code, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def test_every_command_has_help():
    code, out, _ = run_cli(["--help"])
    assert code == 0
    commands = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()]
    assert {"list", "run", "trace", "warm"} <= set(commands)
    for command in commands:
        code, text, _ = run_cli([command, "--help"])
        assert code == 0 and "Usage:" in text and len(text.splitlines()) > 3, command


def test_warm_knows_every_game_by_its_compile_time():
    """`sim warm` starts the longest compiles first; its order names every registered game and no other."""
    from sim.cli.info import _COMPILE_ORDER
    from sim.registry import game_ids
    assert sorted(_COMPILE_ORDER) == sorted(game_ids())


def test_an_unknown_command_suggests_only_commands_a_person_may_use():
    code, _, err = run_cli(["warm-on"])
    assert code == 2 and err.strip() == "error: No such command 'warm-on'. Did you mean 'warm'?"
    code, _, err = run_cli(["zzz"])
    assert code == 2 and err.strip() == "error: No such command 'zzz'."


def test_a_bare_sim_prints_its_help():
    code, out, err = run_cli([])
    assert code == 0 and out.startswith("Usage: ") and "Commands:" in out and not err


def test_list_names_games_and_defaults():
    code, out, _ = run_cli(["list"])
    assert code == 0 and "straw" in out and "default strategy: safe" in out
    code, out, _ = run_cli(["list", "straw"])
    assert "break_at = 50  [10..200]" in out and "evertide" in out


def test_run_prints_intervals_and_writes_the_run_directory(tmp_path):
    out_dir = tmp_path / "r"
    code, out, err = run_cli(["run", "straw", "--n", "3000", "--players", "3", "--seed", "7", "--variant", "evertide",
                              "--set", "break_at=45", "--strategy", "dump-heaviest,random,safe", "--out", str(out_dir),
                              "--save-games", "--threads", "2"])
    assert code == 0, err
    assert "95% interval" in out and "3,000" in out and "dump-heaviest" in out and "game length" in out
    manifest = json.loads((out_dir / "manifest.json").read_text())
    assert manifest["params"]["break_at"] == 45 and manifest["params"]["evertide"] == 1
    assert [s["label"] for s in manifest["strategies"]] == ["dump-heaviest", "random", "safe"]
    assert manifest["status"] == "complete" and (out_dir / "games.parquet").exists()
    assert manifest["command"].startswith("sim run straw")


def test_trace_replays_game_i_of_the_run(tmp_path):
    out_dir = tmp_path / "r"
    code, _, _ = run_cli(["run", "straw", "--n", "50", "--players", "3", "--seed", "7", "--out", str(out_dir),
                          "--save-games", "-q"])
    assert code == 0
    import pandas as pd
    rows = pd.read_parquet(out_dir / "games.parquet")
    code, out, _ = run_cli(["trace", "straw", "--players", "3", "--seed", "7", "--game", "42", "--format", "jsonl"])
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    result = events[-1]
    assert result["kind"] == "result"
    assert result["score"] == [int(rows.loc[42, f"s{s + 1}_score"]) for s in range(3)]
    assert result["game"]["turns"] == int(rows.loc[42, "turns"])
    code, text, _ = run_cli(["trace", "straw", "--players", "3", "--seed", "7", "--game", "42"])
    assert "Round 1: seat" in text and "plays" in text


def test_plugin_strategy_runs_and_bad_plugins_fail_cleanly(tmp_path):
    good = tmp_path / "my_bots.py"
    good.write_text(GOOD_PLUGIN)
    code, out, err = run_cli(["run", "straw", "--n", "500", "--players", "3", "--strategy",
                              f"{good}:cautious,random,{good}:cautious:lamp_pick=1", "--out", str(tmp_path / "ok")])
    assert code == 0, err
    assert "my_bots.py:cautious" in out
    bad = tmp_path / "cheat.py"
    bad.write_text(ILLEGAL_PLUGIN)
    assert_one_line_error(["run", "straw", "--n", "200", "--strategy", f"{bad}:cheat", "--out",
                           str(tmp_path / "x")], "illegal action")
    assert not (tmp_path / "x").exists()
    broken = tmp_path / "broken.py"
    broken.write_text(BROKEN_PLUGIN)
    assert_one_line_error(["run", "straw", "--n", "10", "--strategy", f"{broken}:broken"], "does not compile")
    lonely = tmp_path / "lonely.py"
    lonely.write_text(WRONG_SIGNATURE)
    assert_one_line_error(["run", "straw", "--n", "10", "--strategy", f"{lonely}:lonely"], "does not compile")
    assert_one_line_error(["run", "straw", "--n", "10", "--strategy", f"{good}:missing"], "no function 'missing'")
    assert_one_line_error(["run", "straw", "--n", "10", "--strategy", f"{tmp_path}/nope.py:f"], "does not exist")
    syntax = tmp_path / "syntax.py"
    syntax.write_text("def (:\n")
    assert_one_line_error(["run", "straw", "--n", "10", "--strategy", f"{syntax}:f"], "failed to import")


@pytest.mark.parametrize("args,needles", [
    (["run", "chess"], ["unknown game 'chess'", "straw"]),
    (["run", "straw", "--variant", "turbo"], ["unknown variant 'turbo'", "evertide", "deck-b"]),
    (["run", "straw", "--strategy", "genius"], ["unknown strategy 'genius'", "straw-hunter"]),
    (["run", "straw", "--strategy", "random,safe"], ["2 seats", "4 players"]),
    (["run", "straw", "--strategy", "safe:courage=3"], ["no parameter 'courage'", "escape_at"]),
    (["run", "straw", "--strategy", "safe:escape_at=high"], ["must be a number"]),
    (["run", "straw", "--set", "gravity=3"], ["unknown parameter 'gravity'", "break_at"]),
    (["run", "straw", "--set", "break_at=5"], ["out of range", "10..200"]),
    (["run", "straw", "--set", "break_at"], ["malformed --set"]),
    (["run", "straw", "--set", "break_at=lots"], ["needs an integer"]),
    (["run", "straw", "--set", "genius.x=1"], ["unknown strategy 'genius'"]),
    (["run", "straw", "--set", "lamp_min=9", "--set", "lamp_max=3"], ["lamp_min <= lamp_max"]),
    (["run", "straw", "--players", "7"], ["2-6 players", "not 7"]),
    (["run", "straw", "--players", "1"], ["2-6 players"]),
    (["run", "straw", "--n", "0"], ["--n"]),
    (["run", "straw", "--n", "-5"], ["--n"]),
    (["run", "straw", "--threads", "0"], ["--threads"]),
    (["run", "straw", "--bogus"], ["No such option"]),
    (["trace", "straw"], ["--game"]),
    (["run", "straw", "--threads", "x"], ["--threads", "needs a whole number, not 'x'"]),
    (["run", "straw", "--chunk-size", "0"], ["--chunk-size", "must be at least 1, not 0"]),
    (["run", "straw", "--connect-timeout", "soon"], ["--connect-timeout", "needs a number, not 'soon'"]),
    (["run", "straw", "--precision", "nan"], ["--precision", "needs a number"]),
    (["trace", "straw", "--game", "-1"], ["--game", "must be at least 0, not -1"]),
])
def test_bad_input_is_one_line_and_exit_2(args, needles):
    assert_one_line_error(args, *needles)


def test_out_directory_is_never_overwritten(tmp_path):
    existing = tmp_path / "old"
    existing.mkdir()
    (existing / "manifest.json").write_text("precious")
    assert_one_line_error(["run", "straw", "--n", "10", "--out", str(existing)], "already holds files")
    assert (existing / "manifest.json").read_text() == "precious"
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert_one_line_error(["run", "straw", "--n", "10", "--out", str(blocker)], "not a directory")
    assert_one_line_error(["run", "straw", "--n", "10", "--out", str(blocker / "sub")], "cannot write")
    if os.geteuid() != 0:  # root can write anywhere; the other cases above still hold
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert_one_line_error(["run", "straw", "--n", "10", "--out", str(locked / "run")], "cannot write")


def test_ctrl_c_leaves_a_valid_partial_run(tmp_path):
    out_dir = tmp_path / "partial"
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    with running([sys.executable, "-m", "sim", "run", "straw", "--n", "500000000", "--players", "4", "--strategy",
                  "weighted", "--out", str(out_dir), "--save-games", "--chunk-size", "2000", "-q"],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as proc:
        # the rows file appears once the first chunk is saved: the run is in its chunk loop
        wait_until(proc, lambda: any(f.startswith("games.parquet.tmp") for f in _ls(out_dir)), "the rows file")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, printed(out, err)
    manifest = json.loads((out_dir / "manifest.json").read_text())
    assert manifest["status"] == "partial" and 0 < manifest["n_games"] < 500000000
    import pandas as pd
    rows = pd.read_parquet(out_dir / "games.parquet")
    assert len(rows) == manifest["n_games"]
    assert not [f for f in _ls(out_dir) if ".tmp" in f]


def _ls(path):
    return os.listdir(path) if os.path.isdir(path) else []


@pytest.mark.parametrize("command", [
    ["compare", "straw", "--variant", "base", "--variant", "evertide"],
    ["sweep", "straw", "--set", "break_at=40:50:5"],
    ["tournament", "straw", "--players", "3", "--strategies", "safe,random,weighted"],
], ids=["compare", "sweep", "tournament"])
def test_ctrl_c_ends_a_multi_run_with_a_valid_partial_run_and_exit_130(tmp_path, command):
    import fcntl
    import pty
    import re
    import struct
    import termios
    out_dir = tmp_path / "partial"
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    bar, terminal = pty.openpty()  # the progress bar draws on a terminal only: its rate is the sign of play
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a bar needs a width
    seen = bytearray()

    def games_played():
        import select
        while select.select([bar], [], [], 0)[0]:
            seen.extend(os.read(bar, 65536))
        return re.search(rb"[1-9][\d.]*k? games/s", bytes(seen)) is not None  # a chunk has finished

    try:
        with running([sys.executable, "-m", "sim", *command, "--n", "500000000", "--chunk-size", "2000",
                      "--out", str(out_dir)], stdout=subprocess.PIPE, stderr=terminal, env=env) as proc:
            wait_until(proc, games_played, "the progress bar's rate")
            proc.send_signal(signal.SIGINT)
            out, _ = proc.communicate(timeout=120)
    finally:
        os.close(terminal)
        os.close(bar)
    assert proc.returncode == 130, printed(out, bytes(seen))
    assert "(partial: interrupted)" in out.decode()
    manifest = json.loads((out_dir / "manifest.json").read_text())
    assert manifest["status"] == "partial" and 0 < manifest["n_games"] < 500000000
    lineups = len(manifest["runs"]) if command[0] == "tournament" else 1  # a tournament's --n is its total
    assert f"--n {manifest['n_games'] * lineups}" in manifest["command"]
    for run in manifest["runs"]:
        part = json.loads((out_dir / run["dir"] / "manifest.json").read_text())
        assert part["status"] == "partial" and part["n_games"] == manifest["n_games"]


def test_the_documented_plugin_example_runs(tmp_path):
    import re
    text = open(os.path.join(os.path.dirname(__file__), "..", "docs", "plugins.md")).read()
    code = re.search(r"```python\n# my_bots.py\n(.*?)```", text, re.S).group(1)
    (tmp_path / "my_bots.py").write_text(code)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code_, out, err = run_cli(["run", "straw", "--players", "4", "--n", "2000", "--strategy",
                                   "./my_bots.py:cautious,straw-hunter,straw-hunter,straw-hunter", "--out", "r"])
    finally:
        os.chdir(cwd)
    assert code_ == 0, err
    assert "./my_bots.py:cautious" in out


def test_a_long_strategy_spec_is_lettered_in_the_tables_and_spelled_out_under_them(tmp_path):
    """Sen's default is a tuned spec of 62 characters: the tables show 'memory (A)' and a key line gives the spec,
    so a seat table stays as wide as with a plain name."""
    from sim.registry import get_game
    spec = get_game("sen").default_strategy
    code, out, err = run_cli(["run", "sen", "--n", "40", "--players", "3", "--strategy", f"{spec},threshold,{spec}",
                              "--out", str(tmp_path / "r")])
    assert code == 0, err
    seat_rows = [line for line in out.splitlines() if line[:1] in "123" and "%" in line]
    assert len(seat_rows) == 3 and "memory (A)" in seat_rows[0] and "threshold" in seat_rows[1]
    assert spec not in "".join(seat_rows) and max(len(line) for line in seat_rows) < 160
    assert f"strategy A = {spec}" in out.splitlines()
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert [s["label"] for s in manifest["strategies"]] == [spec, "threshold", spec]  # files keep the whole spec
