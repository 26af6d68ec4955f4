"""Generated command lines, mostly bad, through the whole CLI in-process (docs/errors.md): every one ends with exit
status 0 or 2, a few lines on stderr at most, never a traceback, and changes no file outside the new outputs it
names (--out, --html, -o).

Command lines are built from a vocabulary of commands, games, options and values, good and bad. Every command that
plays games is given --n (tiny, or a bad value) and --out, so nothing is ever written to the default runs/ folder;
only Straw is played (its kernels are in the warm cache) and nothing that waits for a cluster or starts one.
"""
import contextlib
import hashlib
import os
import shutil
import tempfile

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from sim.cli import main

NEW_OUT, NEW_HTML = "fresh-out", "fresh.html"
UNWRITABLE = "/proc/sim-no-such-folder"  # no file can be made there, not even by root

PLAYING = ("run", "compare", "sweep", "tournament")
GAMES = ("straw",) * 6 + ("chess", "", "STRAW")  # sampled_from draws evenly: repeats weigh the good value
GAME_OPTIONS = {
    "--players": ("2", "3", "7", "1", "-1", "x", "", "2,3"),
    "--variant": ("evertide", "base", "turbo", "evertide+deck-b", "+", ""),
    "--set": ("break_at=45", "break_at=5", "break_at", "break_at=lots", "gravity=3", "=", "weighted.w_break=3",
              "evertide=0", "safe.escape_at=2", "break_at=40:44:2", "break_at=60:40", "break_at=40:44:0",
              "lamp_min=9"),
    "--strategy": ("random", "safe", "genius", "random,safe", "safe:courage=3", "safe:escape_at=high",
                   "./nope.py:f", "./syntax.py:f", "./existing.txt:f", ":", ","),
    "--seed": ("0", "7", "-1", "x", str(2 ** 64)),
    "--data": ("x=y", "cards=missing.csv", "=", "nodata"),
}
RUN_OPTIONS = {
    "--threads": ("1", "0", "64", "x"),
    "--chunk-size": ("0", "7", "x"),
    "--scheduler": ("foo", "", "tcp://", "tcp://localhost:70000"),
    "--workers": ("0", "x"),
    "--connect-timeout": ("0", "x"),
    "--html": (NEW_HTML, f"{NEW_OUT}/r.html", "existing.txt", f"{UNWRITABLE}/r.html", "old-run",
               "existing.txt/r.html"),
    "-q": None,
}
OUTS = (NEW_OUT, NEW_OUT, "old-run", "existing.txt", f"{UNWRITABLE}/out", "existing.txt/sub")
COUNTS = ("3", "3", "20", "0", "-5", "abc", "", "1_0")
OWN_OPTIONS = {
    "run": {**GAME_OPTIONS, **RUN_OPTIONS, "--save-games": None, "--precision": ("0", "2", "x", "0.3"),
            "--max-n": ("0", "x", "10")},
    "compare": {**GAME_OPTIONS, **RUN_OPTIONS},
    "sweep": {**GAME_OPTIONS, **RUN_OPTIONS},
    "tournament": {**GAME_OPTIONS, **RUN_OPTIONS,
                   "--strategies": ("safe,random", "genius,safe", "safe,safe", "random", "")},
    "trace": {**GAME_OPTIONS, "--game": ("0", "3", "-1", "abc", str(2 ** 64)), "--format": ("jsonl", "text", "xml")},
    "plan": {"--precision": ("0.01", "0", "0.7", "x"), "--players": ("2", "9", "x")},
    "report": {"-o": (NEW_HTML, "existing.txt", f"{UNWRITABLE}/r.html", "old-run")},
    "list": {},
}
FOREIGN = {"--bogus": None, "--game": ("1",), "--strategies": ("safe,random",), "--out": (NEW_OUT,)}
REPORT_SOURCES = ("old-run", "old-run", "nothing-here", "existing.txt", "broken-run", "")
REQUIRED = {  # what a command cannot run without, given nine times in ten
    "sweep": ("--set", ("break_at=40:44:2",) * 3 + ("break_at=60:40", "break_at=40:44:0", "gravity=1:3", "=1,2")),
    "tournament": ("--strategies", ("safe,random",) * 3 + ("genius,safe", "safe,safe", "random", "")),
    "trace": ("--game", ("0", "3", "-1", "abc", str(2 ** 64))),
    "plan": ("--precision", ("0.01", "0.01", "0", "0.7", "x")),
    "report": ("-o", (NEW_HTML, NEW_HTML, "existing.txt", f"{UNWRITABLE}/r.html", "old-run")),
}


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(sorted(OWN_OPTIONS) + ["warm-up", ""]))
    args = [command] if command else []
    own = OWN_OPTIONS.get(command, {})
    if command == "report":
        args += draw(st.lists(st.sampled_from(REPORT_SOURCES), max_size=2))
    elif command in ("plan", "list"):
        args += draw(st.lists(st.sampled_from(GAMES), max_size=1))
    elif command:
        args.append(draw(st.sampled_from(GAMES)))
    for name in draw(st.lists(st.sampled_from(sorted(own)), max_size=3, unique=True)) if own else []:
        args += _option(draw, name, own[name])
    if command in REQUIRED and draw(st.sampled_from([True] * 9 + [False])):
        args += _option(draw, *REQUIRED[command])
    if command == "compare" and draw(st.sampled_from([True] * 9 + [False])):
        args += ["--variant", "base", "--variant", draw(st.sampled_from(GAME_OPTIONS["--variant"]))]
    if draw(st.sampled_from([False] * 9 + [True])):  # now and then an option the command does not have
        name = draw(st.sampled_from(sorted(FOREIGN)))
        args += _option(draw, name, FOREIGN[name])
    if command in PLAYING:
        args += ["--n", draw(st.sampled_from(COUNTS)), "--out", draw(st.sampled_from(OUTS))]
        if "--html" not in args and draw(st.sampled_from([False, False, True])):  # the other output path
            args += _option(draw, "--html", RUN_OPTIONS["--html"])
    return args


def _option(draw, name, values):
    return [name] if values is None else [name, draw(st.sampled_from(values))]


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    """A small complete run directory, copied into every example's folder as 'old-run'."""
    folder = tmp_path_factory.mktemp("saved") / "old-run"
    result = CliRunner().invoke(main, ["run", "straw", "--n", "20", "--players", "2", "--out", str(folder), "-q"])
    assert result.exit_code == 0, result.output
    return folder


@contextlib.contextmanager
def example_folder(saved_run):
    """A fresh working folder holding an existing file, a saved run, a damaged run and a plug-in file that does not
    import; the CLI runs inside it."""
    previous = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="sim-bad-input-") as folder:
        shutil.copytree(saved_run, os.path.join(folder, "old-run"))
        shutil.copytree(saved_run, os.path.join(folder, "broken-run"))
        with open(os.path.join(folder, "broken-run", "manifest.json"), "w") as f:
            f.write('{"kind": "run", "ga')
        with open(os.path.join(folder, "existing.txt"), "w") as f:
            f.write("keep me\n")
        with open(os.path.join(folder, "syntax.py"), "w") as f:
            f.write("def (:\n")
        os.chdir(folder)
        try:
            yield folder
        finally:
            os.chdir(previous)


def snapshot(folder):
    """{relative path: content hash, or None for a folder} of everything under folder."""
    seen = {}
    for root, dirs, files in os.walk(folder):
        for d in dirs:
            seen[os.path.relpath(os.path.join(root, d), folder)] = None
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                seen[os.path.relpath(path, folder)] = hashlib.sha1(f.read()).hexdigest()
    return seen


def new_outputs(args, before):
    """The output paths the command line names that did not exist before: the only places it may write."""
    named = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--out", "--html", "-o")]
    return [os.path.normpath(p) for p in named if os.path.normpath(p) not in before]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(args=command_lines())
def test_bad_command_lines_end_cleanly_and_change_nothing(saved_run, args):
    with example_folder(saved_run) as folder:
        before = snapshot(folder)
        result = CliRunner().invoke(main, args)
        after = snapshot(folder)
    err = result.stderr
    assert result.exit_code in (0, 2), (args, result.exit_code, result.output, err, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in err and "Traceback" not in result.stdout, (args, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) <= 3, (args, err)
    if result.exit_code == 2:
        assert lines and lines[-1].startswith("error: "), (args, err)
    allowed = new_outputs(args, before)
    for path, digest in before.items():
        assert after.get(path, "gone") == digest, (args, path, "changed or removed")
    for path in set(after) - set(before):
        assert any(path == out or path.startswith(out + os.sep) for out in allowed), (args, path, "written")
