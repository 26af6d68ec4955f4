"""The public Python API (docs/python.md): the same numbers as the CLI, one exception class, nothing written without
out=, a light `import sim`, and numba's cache kept out of the source tree whatever was imported first."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

import sim
from sim.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAVY = ("numba", "pandas", "dask", "distributed", "matplotlib", "pyarrow", "scipy")


def cli(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _python(code, env=None):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)


def test_run_gives_the_cli_numbers_and_writes_nothing_without_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = sim.run("straw", n=3000, players=4, strategies="random,safe,weighted,straw-hunter", seed=3,
                save_games=True)
    assert os.listdir(tmp_path) == []  # no run directory, no runs/ folder
    code, out, err = cli("run", "straw", "--n", "3000", "--players", "4", "--strategy",
                         "random,safe,weighted,straw-hunter", "--seed", "3", "--out", "cli", "-q")
    assert code == 0, err
    assert r.summary == json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert list(r.seats.columns[:12]) == ["seat", "strategy", "games", "wins", "win_share", "win_lo", "win_hi",
                                          "score_mean", "score_se", "score_min", "score_max", "rank_mean"]
    assert r.seats["strategy"].tolist() == ["random", "safe", "weighted", "straw-hunter"]
    assert r.seats["seat"].tolist() == [1, 2, 3, 4]  # seat 1 = the first in turn order
    assert r.strategies["seats"].tolist() == [[1], [2], [3], [4]]
    assert r.seats["win_share"].sum() == pytest.approx(1)
    assert len(r.strategies) == 4 and {"seat_games", "win_lo", "win_hi", "rank_mean"} <= set(r.strategies.columns)
    assert len(r.games) == 3000 and r.games["game"].tolist() == list(range(3000))
    assert r.games["s2_score"].mean() == pytest.approx(r.seats["score_mean"][1])
    assert r.run_dir is None and r.complete


def test_out_writes_the_run_directory_with_its_report(tmp_path):
    r = sim.run("straw", n=500, players=2, seed=2, out=str(tmp_path / "r"), html=tmp_path / "copy.html")
    assert r.run_dir == str(tmp_path / "r") and r.manifest["n_games"] == 500
    assert r.summary == json.loads((tmp_path / "r" / "summary.json").read_text())
    assert r.report_files == [str(tmp_path / "r" / "report.html"), str(tmp_path / "copy.html")]
    text = (tmp_path / "r" / "report.html").read_text()
    assert 'id="verdict"' in text and text == (tmp_path / "copy.html").read_text()
    quiet = sim.run("straw", n=500, players=2, seed=2, out=str(tmp_path / "q"), report=False)
    assert quiet.report_files == [] and "report.html" not in os.listdir(tmp_path / "q")


def test_multi_runs_write_their_report_into_the_run_directory(tmp_path):
    c = sim.compare("straw", n=300, players=2, variants=["base", "deck-b"], seed=4, out=tmp_path / "c")
    s = sim.sweep("straw", "break_at", [45, 50], n=300, players=2, seed=4, out=tmp_path / "s")
    t = sim.tournament("straw", ["random", "safe"], n=300, players=2, seed=4, out=tmp_path / "t")
    for result, section in ((c, 'id="comparison"'), (s, 'id="sweep"'), (t, 'id="tournament"')):
        assert result.report_files == [os.path.join(result.run_dir, "report.html")]
        assert section in open(result.report_files[0]).read()


def test_multi_runs_without_out_write_a_whole_report_to_html(tmp_path):
    """No run directory: the report is made from the results in memory, with every configuration in it."""
    c = sim.compare("straw", n=300, players=[2, 3], variants=["base", "deck-b"], seed=4, html=tmp_path / "c.html")
    s = sim.sweep("straw", "break_at", [45, 50], n=300, players=2, seed=4, html=tmp_path / "s.html")
    t = sim.tournament("straw", ["random", "safe"], n=300, players=2, seed=4, html=tmp_path / "t.html")
    for result, section, runs in ((c, 'id="comparison"', 4), (s, 'id="sweep"', 2), (t, 'id="tournament"', 2)):
        assert result.run_dir is None and len(result.context["runs"]) == runs
        text = open(result.report_files[0]).read()
        assert section in text and 'id="verdict"' in text
    assert sorted(os.listdir(tmp_path)) == ["c.html", "s.html", "t.html"]


def test_an_existing_html_path_is_refused_before_any_game(tmp_path):
    existing = tmp_path / "mine.html"
    existing.write_text("keep me")
    with pytest.raises(sim.SimError, match="already exists"):
        sim.run("straw", n=500, out=tmp_path / "r", html=existing)
    assert existing.read_text() == "keep me" and not (tmp_path / "r").exists()


@pytest.mark.parametrize("call, args", [
    (lambda: sim.run("chess"), ["run", "chess"]),
    (lambda: sim.run("straw", players=9), ["run", "straw", "--players", "9"]),
    (lambda: sim.run("straw", variants=["nope"]), ["run", "straw", "--variant", "nope"]),
    (lambda: sim.run("straw", sets={"break_at": "x"}), ["run", "straw", "--set", "break_at=x"]),
    (lambda: sim.run("straw", strategies="nobody"), ["run", "straw", "--strategy", "nobody"]),
    (lambda: sim.run("straw", precision=0.7), ["run", "straw", "--precision", "0.7"]),
    (lambda: sim.compare("straw", variants=["base"]), ["compare", "straw", "--variant", "base"]),
])
def test_bad_input_raises_sim_error_with_the_cli_line(call, args, tmp_path):
    with pytest.raises(sim.SimError) as info:
        call()
    code, _, err = cli(*args, "--out", str(tmp_path / "r"))
    assert code == 2 and err.strip() == f"error: {info.value}"


def test_compare_and_sweep_give_rows_and_paired_differences(tmp_path):
    c = sim.compare("straw", n=1500, players=3, variants=["base", "deck-b"], seed=4)
    assert c.rows["label"].tolist() == ["base", "deck-b"] and {"balance", "balance_lo", "tie_rate"} <= set(c.rows)
    assert set(c.paired["variant"]) == {"deck-b"} and {"diff", "lo", "hi", "p_holm"} <= set(c.paired.columns)
    assert len(c.seats) == 6 and c.seats["seat"].tolist() == [1, 2, 3] * 2
    assert {"win_share_s1", "win_lo_s3", "win_hi_s3"} <= set(c.rows) and "win_share_s0" not in c.rows
    assert {"win_s1", "win_s3", "score_s1"} <= set(c.paired["metric"]) and "win_s0" not in set(c.paired["metric"])
    code, _, err = cli("compare", "straw", "--n", "1500", "--players", "3", "--variant", "base", "--variant",
                       "deck-b", "--seed", "4", "--out", str(tmp_path / "c"), "-q")
    assert code == 0, err
    for summary, sub in zip(c.summaries, sorted(d for d in os.listdir(tmp_path / "c") if d[0] == "0")):
        assert summary == json.loads((tmp_path / "c" / sub / "summary.json").read_text())
    s = sim.sweep("straw", "break_at", [45, 50], n=800, players=2, seed=4)
    assert s.rows["value"].tolist() == [45, 50] and s.labels == ["break_at=45", "break_at=50"]
    assert s.paired is not None and len(s.rows) == 2
    assert sim.sweep("straw", "break_at", "45:50:5", n=800, players=2, seed=4).summaries == s.summaries


def test_tournament_and_trace():
    t = sim.tournament("straw", ["random", "safe", "straw-hunter"], n=600, players=2, seed=4)
    assert t.strategies["strategy"].tolist() == ["random", "safe", "straw-hunter"]
    assert t.wins.shape == (3, 3) and set(t.ratings["strategy"]) == set(t.names) and len(t.lineups) == 6
    tr = sim.trace("straw", 5, players=3, seed=7)
    code, out, err = cli("trace", "straw", "--players", "3", "--seed", "7", "--game", "5")
    assert code == 0, err
    assert out.splitlines() == tr.lines() and tr.result["score"] and tr.events
    assert [line.split(" (")[0] for line in tr.lines()[-3:]] == ["seat 1", "seat 2", "seat 3"]
    assert {e["seat"] for e in tr.events if "seat" in e} == {1, 2, 3}


def test_import_sim_stays_light_and_help_and_list_load_no_kernel():
    code = ("import sys; import sim; heavy = sorted({m.split('.')[0] for m in sys.modules} & set(%r)); "
            "from sim.cli import main; main(['list'], prog_name='sim'); main(['--help'], prog_name='sim')\n"
            "print(heavy, sorted({m.split('.')[0] for m in sys.modules} & set(%r)), "
            "[m for m in sys.modules if m.endswith('.kernel')])" % (HEAVY, HEAVY))
    proc = _python(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[] [] []"


def _modules():
    names = []
    for folder in ("sim", "sim/cli", "analysis", "reports"):
        for f in sorted(os.listdir(os.path.join(ROOT, folder))):
            if f.endswith(".py") and f != "__main__.py":
                names.append(folder.replace("/", ".") + ("" if f == "__init__.py" else "." + f[:-3]))
    return names


# One interpreter loads the third-party libraries (numba's "imported first" path is test_numba_imported_first_...)
# and forks a child per module, which imports that module before any other of the project's: the same check as a
# fresh interpreter per module, without loading numpy, numba and pandas 50 times.
_IMPORT_EACH_FIRST = """
import importlib, os, sys, traceback
for lib in %r + ("numpy", "click", "jinja2"):
    importlib.import_module(lib)
assert not {m.split(".")[0] for m in sys.modules} & {"sim", "strategies", "analysis", "reports"}
for module in %r:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(module)
            message = b"ok"
        except BaseException:
            message = traceback.format_exc().encode()
        os.write(write, message)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        answer = f.read().decode()
    os.waitpid(pid, 0)
    print(module, "ok" if answer == "ok" else answer.replace(chr(10), " | "))
"""


def test_every_module_imports_first_in_a_fresh_interpreter():
    modules = _modules()
    proc = _python(_IMPORT_EACH_FIRST % (HEAVY, modules))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines() == [f"{m} ok" for m in modules]  # a failure shows its traceback


def test_numba_imported_first_still_uses_the_keyed_cache(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["SIM_CACHE_DIR"] = str(tmp_path / "cache")
    code = ("import numba, numpy as np\nimport sim\nfrom sim.rng import stream_start\nstream_start(1, 2)\n"
            "print(numba.config.CACHE_DIR)")
    before = _cache_files(ROOT)
    proc = _python(code, env)
    assert proc.returncode == 0, proc.stderr
    folder = proc.stdout.strip().splitlines()[-1]
    assert folder.startswith(str(tmp_path / "cache")) and folder == _python(
        "import os, sim; print(os.environ['NUMBA_CACHE_DIR'])", env).stdout.strip()
    assert any(f.endswith(".nbi") for _, _, files in os.walk(tmp_path / "cache") for f in files)
    assert _cache_files(ROOT) == before  # nothing compiled was written into the source tree


def _cache_files(root):
    return sorted(os.path.join(d, f) for top in ("sim", "strategies", "tests")
                  for d, _, files in os.walk(os.path.join(root, top)) for f in files if f.endswith((".nbi", ".nbc")))


def test_the_engine_imports_no_analysis_or_reports():
    engine = ["sim.engine", "sim.aggregate", "sim.backends", "sim.distributed", "sim.multirun", "sim.results",
              "sim.tracing", "sim.seats"]
    proc = _python(f"import sys\nfor m in {engine!r}: __import__(m)\n"
                   "print(sorted({m.split('.')[0] for m in sys.modules} & {'analysis', 'reports'}))")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
