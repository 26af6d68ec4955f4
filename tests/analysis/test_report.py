"""The HTML report: parses, embeds every figure as inline SVG, holds no external URL, states n, seed and command;
for a real small Straw run, a paired compare, a sweep, a tournament, and saved run directories."""
import html
import os
import re
from html.parser import HTMLParser

import pytest

from reports.html import render_report, write_report
from sim.reporting import context_from_run_dirs


class _Check(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.svgs, self.figures, self.figures_with_svg, self.links, self.sections = [], 0, 0, 0, [], []
        self.text = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg":
            self.svgs += 1
            if "figure" in self.stack and not any(t == "svg" for t in self.stack):
                self.figures_with_svg += 1
        if tag == "figure":
            self.figures += 1
        if tag in ("section", "details") and attrs.get("id"):
            self.sections.append(attrs.get("id"))
        for key in ("src", "href", "xlink:href", "action", "data"):
            if attrs.get(key):
                self.links.append(attrs[key])
        if tag not in ("meta", "br", "img", "input", "link", "path", "use", "rect", "circle", "line", "stop"):
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        for key in ("src", "href", "xlink:href"):
            value = dict(attrs).get(key)
            if value:
                self.links.append(value)

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if "svg" not in self.stack and "style" not in self.stack:
            self.text.append(data)


def check_report(text, n_text, seed, command):
    parser = _Check()
    parser.feed(text)
    parser.close()
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert parser.figures > 0 and parser.figures_with_svg == parser.figures == text.count("<svg")
    assert parser.svgs == parser.figures
    for link in parser.links:  # only in-page anchors, the SVGs' own references and embedded data
        assert link.startswith(("#", "data:")), link
    assert not re.search(r"(https?:)?//[\w.-]+\.\w", text.replace("tcp://", "")), "an external URL"
    assert "http://" not in text and "https://" not in text
    words = html.unescape(" ".join(parser.text))
    assert n_text in words and f"seed {seed}" in words and command in words
    return parser


@pytest.fixture(scope="module")
def straw_run(tmp_path_factory):
    from sim.engine import configure
    from sim.registry import get_game
    from sim.pipeline import execute_run
    config = configure(get_game("straw"), 4, "random", seed=9)
    return execute_run(config, 2000, out=str(tmp_path_factory.mktemp("runs") / "straw"), progress=False)


def test_report_of_a_real_straw_run(straw_run, tmp_path):
    from sim.reporting import run_context
    context = run_context(straw_run)
    path = write_report(context, str(tmp_path / "out" / "report.html"))
    assert os.listdir(tmp_path / "out") == ["report.html"]  # written atomically, no temporary left behind
    text = open(path, encoding="utf-8").read()
    command = "sim run straw --players 4 --seed 9 --strategy random --n 2000"
    assert context["command"] == command
    parser = check_report(text, "n = 2,000", 9, command)
    assert parser.sections == ["verdict", "seats", "length", "scores", "balance", "convergence", "run"]
    assert parser.figures == 4  # seats, scores, length, convergence
    words = html.unescape(text)
    for word in ("Verdict", "balance (1 − largest seat win-share gap)", "break_at", "fair share"):
        assert word in words


def test_report_from_a_saved_run_directory(straw_run):
    context = context_from_run_dirs([straw_run.run_dir])
    assert context["kind"] == "report" and context["runs"][0]["aggregate"].n == 2000
    assert context["command"] == "sim run straw --players 4 --seed 9 --strategy random --n 2000"
    text = render_report(context)
    check_report(text, "n = 2,000", 9, "sim run straw --players 4 --seed 9 --strategy random --n 2000")


def _multi(tmp_path, kind, configs, labels, n):
    from sim.multirun import run_together
    from sim.pipeline import save_multi
    multi = run_together(configs, n)
    parent = str(tmp_path / kind)
    os.makedirs(parent)
    saved = save_multi(parent, labels, multi, n, kind, f"sim {kind} straw --seed 4 --n {n}")
    return multi, saved, parent


def test_compare_report_with_paired_differences(tmp_path):
    from sim.engine import configure
    from sim.registry import get_game
    from sim.reporting import multi_context
    game = get_game("straw")
    labels = ["base", "deck-b"]
    configs = [configure(game, 3, "random", (), seed=4), configure(game, 3, "random", ("deck-b",), seed=4)]
    multi, saved, parent = _multi(tmp_path, "compare", configs, labels, 1500)
    paired = {"baseline": "base", "variants": {"deck-b": multi.paired[1].as_paired()}}
    context = multi_context("compare", "Straw: base vs deck-b", "sim compare straw --seed 4 --n 1500", saved, multi,
                            comparison={"paired": paired})
    text = render_report(context)
    parser = check_report(text, "n = 1,500", 4, "sim compare straw --seed 4 --n 1500")
    assert "comparison" in parser.sections
    assert "Paired differences (same seeds" in text and "Forest plot" in text
    # saved directories cannot be paired again: side by side with unpaired balance-metric differences
    context = context_from_run_dirs([os.path.join(parent, d) for d in sorted(os.listdir(parent)) if d[0] == "0"])
    assert context["kind"] == "compare" and context["command"] == "sim compare straw --seed 4 --n 1500"
    text = render_report(context)
    check_report(text, "n = 1,500", 4, "sim compare straw --seed 4 --n 1500")
    assert "Unpaired differences of the balance metrics vs base" in text


def test_sweep_and_tournament_reports(tmp_path):
    from analysis.tournament import tournament_matrix
    from sim.engine import configure
    from sim.multirun import tournament_lineups
    from sim.registry import get_game
    from sim.reporting import multi_context
    game = get_game("straw")
    values = [45, 50, 55]
    configs = [configure(game, 2, "random", (), {"break_at": v}, seed=4) for v in values]
    multi, saved, parent = _multi(tmp_path, "sweep", configs, [f"break_at={v}" for v in values], 800)
    context = multi_context("sweep", "sweep", "sim sweep straw --set break_at=45:55:5", saved, multi,
                            sweep={"param": "break_at", "values": values})
    text = render_report(context)
    parser = check_report(text, "n = 800", 4, "sim sweep straw --set break_at=45:55:5")
    assert "sweep" in parser.sections and "balance is highest at break_at" in html.unescape(text).lower()
    rebuilt = context_from_run_dirs([os.path.join(parent, d) for d in sorted(os.listdir(parent)) if d[0] == "0"])
    assert rebuilt["sweep"] == {"param": "break_at", "values": values}

    names = ["random", "safe", "straw-hunter"]
    lineups = tournament_lineups(names, 2)
    configs = [configure(game, 2, ",".join(lineup), seed=4) for lineup in lineups]
    multi, saved, parent = _multi(tmp_path, "tournament", configs, [" | ".join(x) for x in lineups], 300)
    wins, games = tournament_matrix(multi.results, names)
    context = multi_context("tournament", "tournament", "sim tournament straw --strategies random,safe,straw-hunter",
                            saved, multi, tournament={"strategies": names, "wins": wins.tolist(),
                                                      "games": games.tolist()})
    text = render_report(context)
    parser = check_report(text, "n = 300", 4, "sim tournament straw --strategies random,safe,straw-hunter")
    assert "tournament" in parser.sections and "ranking by bradley–terry rating" in html.unescape(text).lower()
    rebuilt = context_from_run_dirs([os.path.join(parent, d) for d in sorted(os.listdir(parent)) if d[0] == "0"])
    assert rebuilt["tournament"]["wins"] == wins.tolist()


def test_report_needs_a_run():
    with pytest.raises(ValueError):
        render_report({"title": "x", "kind": "run", "command": "", "runs": []})
