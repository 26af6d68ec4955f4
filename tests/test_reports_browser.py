"""Smoke test in a real browser: each report kind (run, compare crossing player counts with a variant, sweep,
tournament) rendered by headless Chromium to a PNG. Skipped where the Debian package `chromium` is not installed."""
import os
import shutil
import subprocess

import pytest

from reports.html import write_report
from tests.report_shapes import shape_aggregate, shape_context, shape_entry

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium (Debian package chromium) not installed")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def screenshot(html_path, png_path):
    """Chromium's screenshot of the page; returns (exit status, stderr) for the failure message."""
    proc = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--no-first-run", f"--user-data-dir={os.path.dirname(png_path)}/profile",
                           "--window-size=1100,2400", f"--screenshot={png_path}", f"file://{html_path}"],
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stderr[-2000:]


def _contexts(tmp_path):
    import sim
    from sim.reporting import outcome_context, run_context
    out = {"run": run_context(sim.run("straw", 300, players=3, seed=5, out=str(tmp_path / "run")).outcome)}
    cmp = sim.compare("straw", 200, players="2,3", variants=["base", "deck-b"], seed=5, out=str(tmp_path / "cmp"))
    out["compare"] = outcome_context(cmp.outcome, "compare", comparison={"paired": cmp.paired_sums})
    sw = sim.sweep("straw", "break_at", [45, 50, 55], 200, players=2, seed=5, out=str(tmp_path / "sweep"))
    out["sweep"] = outcome_context(sw.outcome, "sweep", comparison={"paired": sw.paired_sums},
                                   sweep={"param": "break_at", "values": sw.values})
    t = sim.tournament("straw", "random,safe,straw-hunter", 300, players=2, seed=5, out=str(tmp_path / "t"))
    out["tournament"] = outcome_context(t.outcome, "tournament", tournament={
        "strategies": t.names, "wins": t.wins_matrix.tolist(), "games": t.games_matrix.tolist()})
    out["one-seat"] = shape_context([shape_entry("one seat wins", shape_aggregate(4, 200, "one-seat"))])
    return out


def test_each_report_kind_renders_in_headless_chromium(tmp_path):
    for kind, context in _contexts(tmp_path).items():
        page = str(tmp_path / f"{kind}.html")
        png = str(tmp_path / f"{kind}.png")
        write_report(context, page)
        status, stderr = screenshot(page, png)
        assert status == 0 and os.path.isfile(png), f"{kind}: chromium exited {status}: {stderr}"
        with open(png, "rb") as f:
            data = f.read()
        assert data.startswith(PNG_MAGIC) and len(data) > 20_000, f"{kind}: the screenshot is empty ({len(data)} B)"
