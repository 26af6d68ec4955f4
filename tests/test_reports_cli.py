"""Reports from the command line: report.html in every run directory (--no-report skips it, --html writes a copy to
a new path only, checked before any game), the verdict and the fair-share column in the terminal for run, compare,
sweep and tournament, crossed designs paired within each player count, and reports that render the analysis
without computing it again."""
import os
import re

import pytest

from tests.test_cli import run_cli

SCIENTIFIC = re.compile(r"\d\.?\d*e[-+]\d")


def verdict_lines(out):
    lines = out.split("verdict:\n", 1)[1].splitlines()
    return [line for line in lines if re.match(r"  \d\. ", line)]


def test_a_run_with_a_seat_that_never_wins_writes_its_report_and_a_copy(tmp_path):
    copy = tmp_path / "copy.html"
    code, out, err = run_cli(["run", "kruki", "--players", "2", "--strategy", "greedy,random", "--n", "200",
                              "--seed", "2", "--out", str(tmp_path / "r"), "--html", str(copy)])
    assert code == 0, err
    report = tmp_path / "r" / "report.html"
    assert report.read_text() == copy.read_text() and 'id="verdict"' in report.read_text()
    assert f"report: {report}" in out and f"report: {copy}" in out
    header = next(line for line in out.splitlines() if line.startswith("seat "))
    assert "fair share" in header and "excess (pp)" in header
    rows = [line.split() for line in out.splitlines() if re.match(r"[12] +(greedy|random) ", line)]
    assert [r[0] for r in rows] == ["1", "2"] and all("50.0%" in r for r in rows)  # seat 1 first; fair 50%
    assert "0.0%" in out  # random never beats greedy here: a 0% share renders
    lines = verdict_lines(out)
    assert 1 <= len(lines) <= 6 and "percentage points" in lines[0] and "seat 1" in lines[0].lower()
    assert not SCIENTIFIC.search(out) and not re.search(r"p = 0(?![.\d])", out)


def test_no_report_skips_the_run_directorys_report(tmp_path):
    code, out, err = run_cli(["run", "straw", "--players", "2", "--n", "100", "--out", str(tmp_path / "r"),
                              "--no-report"])
    assert code == 0, err
    assert not (tmp_path / "r" / "report.html").exists() and "report:" not in out
    assert "verdict:" in out


def test_an_existing_html_path_is_refused_before_any_game(tmp_path):
    existing = tmp_path / "old.html"
    existing.write_text("keep me")
    code, out, err = run_cli(["compare", "straw", "--players", "2,3", "--n", "100", "--out", str(tmp_path / "c"),
                              "--html", str(existing)])
    assert code == 2 and "already exists" in err
    assert existing.read_text() == "keep me" and not (tmp_path / "c").exists()


def test_compare_crossing_player_counts_pairs_each_variant_with_its_own_base(tmp_path):
    code, out, err = run_cli(["compare", "straw", "--players", "2,3", "--variant", "base", "--variant", "deck-b",
                              "--n", "400", "--seed", "3", "--out", str(tmp_path / "c")])
    assert code == 0, err
    paired = [line.split()[:4] for line in out.splitlines() if re.match(r"[23]p deck-b +[23]p base ", line)]
    assert paired and {(p[0], p[2]) for p in paired} == {("2p", "2p"), ("3p", "3p")}  # never 3p vs 2p
    assert not re.search(r"3p base +2p base", out)
    assert "each variant or value vs the first configuration at the same player count" in out
    crossed = [line for line in out.splitlines() if re.match(r"deck-b +[23] +[23]p base", line)]
    assert len(crossed) == 2
    text = (tmp_path / "c" / "report.html").read_text()
    assert 'id="crossed"' in text and "2 players" in text and "3 players" in text
    lines = verdict_lines(out)
    assert any(line.startswith("  2. Variant deck-b") and "the base at the same player count" in line
               for line in lines)
    # rebuilt from the saved directories (no per-game pairing): still each variant against its own count's base
    from sim.reporting import context_from_run_dirs, expand_run_dirs
    context = context_from_run_dirs(expand_run_dirs([str(tmp_path / "c")]))
    pairs = set(zip(context["analysis"]["unpaired"]["variant"], context["analysis"]["unpaired"]["baseline"]))
    assert pairs == {("2p deck-b", "2p base"), ("3p base", "2p base"), ("3p deck-b", "3p base")}


def test_a_sweep_crossed_with_player_counts_pairs_within_each_count(tmp_path):
    code, out, err = run_cli(["sweep", "straw", "--players", "2,3", "--set", "break_at=45,50", "--n", "300",
                              "--out", str(tmp_path / "s")])
    assert code == 0, err
    crossed = [line.split()[:3] for line in out.splitlines() if re.match(r"break_at=50 +[23] ", line)]
    assert crossed == [["break_at=50", "2", "2p"], ["break_at=50", "3", "3p"]]
    text = (tmp_path / "s" / "report.html").read_text()
    assert 'id="crossed"' in text and 'id="sweep"' in text and "3p break_at=50" in text
    assert "Balance is highest at break_at = " in out and "at 3 players" in out


def test_sweep_and_tournament_print_their_verdict_and_write_reports(tmp_path):
    code, out, err = run_cli(["sweep", "straw", "--players", "2", "--set", "break_at=45:55:5", "--n", "300",
                              "--out", str(tmp_path / "s")])
    assert code == 0, err
    assert 1 <= len(verdict_lines(out)) <= 6 and "Balance is highest at break_at" in out
    assert 'id="sweep"' in (tmp_path / "s" / "report.html").read_text()
    code, out, err = run_cli(["tournament", "straw", "--players", "2", "--strategies", "random,safe,straw-hunter",
                              "--n", "600", "--out", str(tmp_path / "t")])
    assert code == 0, err
    lines = verdict_lines(out)
    assert lines[0].startswith("  1. Ranking by Bradley–Terry rating") and "Seat check" in out
    text = (tmp_path / "t" / "report.html").read_text()
    assert 'id="tournament"' in text and "Line-ups played" in text
    assert text.index('id="tournament"') < text.index('id="length"')  # ratings and matrix lead


def test_reports_render_the_analysis_without_computing_it(tmp_path, monkeypatch):
    """The context carries the analysis; rendering it must call no statistic again."""
    import analysis.balance
    import analysis.compare
    import analysis.findings
    import analysis.ratings
    import analysis.seats
    import sim
    from reports.html import render_report
    from sim.reporting import outcome_context
    cmp = sim.compare("straw", 300, players="2,3", variants=["base", "deck-b"], seed=4, out=str(tmp_path / "c"))
    context = outcome_context(cmp.outcome, "compare", comparison={"paired": cmp.paired_sums})

    def forbidden(*args, **kwargs):
        raise AssertionError("the report computed a statistic")
    for module, names in ((analysis.seats, ["seat_advantage"]), (analysis.balance, ["balance_metrics"]),
                          (analysis.compare, ["paired_differences", "unpaired_differences"]),
                          (analysis.ratings, ["bradley_terry"]),
                          (analysis.findings, ["analyse", "analyse_run", "crossed_effects"])):
        for name in names:
            monkeypatch.setattr(module, name, forbidden)
    text = render_report(context)
    assert 'id="crossed"' in text and 'id="comparison"' in text
    with pytest.raises(ValueError, match="no analysis"):
        render_report({k: v for k, v in context.items() if k != "analysis"})
    assert os.path.isfile(tmp_path / "c" / "manifest.json")


def test_a_summary_without_a_row_per_seat_is_one_line(tmp_path):
    import json
    code, out, err = run_cli(["run", "straw", "--players", "2", "--n", "50", "--out", str(tmp_path / "r"),
                              "--no-report", "-q"])
    assert code == 0, err
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    summary["seats"] = summary["seats"][:1]
    (tmp_path / "r" / "summary.json").write_text(json.dumps(summary))
    code, out, err = run_cli(["report", str(tmp_path / "r"), "-o", str(tmp_path / "x.html")])
    assert code == 2 and "has no row per seat" in err and "Traceback" not in err
    assert not (tmp_path / "x.html").exists()
