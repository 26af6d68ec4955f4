"""Report figures never break: for every report kind × every game, and for the awkward outcome shapes (a seat
winning every game: 0% and 100% shares; ties only; one game; constant game length; 1–8 runs; 2–6 seats; long
labels), every figure renders, no legend overlaps a plotting area and no text is cut at the figure's edge."""
import html
import re

import pytest
from matplotlib.patches import Rectangle

from reports import figures
from reports.html import render_report
from sim.registry import game_ids, get_game
from tests.report_shapes import layout_problems, shape_aggregate, shape_context, shape_entry

LONG = "straw-hunter:margin=3 | dump-heaviest | weighted:w_break=2.5 | safe:escape_at=40"


class Drawn(list):
    """The figures a report drew, and the layout problems found in each (`problems`, in the same order)."""

    def __init__(self):
        super().__init__()
        self.problems = []

    def clear(self):
        super().clear()
        self.problems.clear()

    def problem_lines(self, name):
        """Every layout problem found so far, each line prefixed with `name`."""
        return [f"{name}, {p}" for found in self.problems for p in found]


@pytest.fixture
def drawn(monkeypatch):
    """The Matplotlib figures the next report draws, each checked on its way to SVG. The check lays the figure out
    (as saving does); the figure is then saved with that layout, so it is laid out once rather than twice."""
    captured = Drawn()
    real = figures.to_svg

    def capture(fig):
        captured.problems.append(layout_problems(fig, f"figure {len(captured) + 1}"))
        captured.append(fig)
        fig.set_layout_engine("none")  # keep the layout just checked
        return real(fig)
    monkeypatch.setattr(figures, "to_svg", capture)
    return captured


def render_clean(context, drawn, name):
    text = render_report(context)
    assert drawn, f"{name}: no figure was drawn"
    problems = drawn.problem_lines(name)
    drawn.clear()
    assert not problems, "\n".join(problems)
    return text


def verdict_of(text):
    block = re.search(r'<section id="verdict".*?</ol>', text, re.S).group(0)
    return [html.unescape(re.sub(r"<[^>]+>", "", li)).strip() for li in re.findall(r"<li>(.*?)</li>", block, re.S)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_seat_winning_every_game_with_a_constant_length(players, drawn):
    agg = shape_aggregate(players, 300, "one-seat")
    text = render_clean(shape_context([shape_entry("one seat wins", agg)]), drawn, f"{players} seats, one winner")
    lines = verdict_of(text)
    assert 1 <= len(lines) <= 6
    assert lines[0].startswith("Seat 1 is advantaged: it wins 100.0% of games")
    assert "Every game lasts exactly 11 rounds." in " ".join(lines)
    assert "e-0" not in text and "e+0" not in text.replace("e+00", "")  # no scientific notation


def test_constant_length_is_drawn_as_bars(drawn):
    render_report(shape_context([shape_entry("a", shape_aggregate(4, 200, "one-seat")),
                                 shape_entry("b", shape_aggregate(4, 200, "ties"))], kind="compare"))
    length = next(fig for fig in drawn if fig.axes[0].get_title() == "Game length")
    bars = [p for p in length.axes[0].patches if isinstance(p, Rectangle) and p.get_height() > 0]
    assert sorted(round(b.get_height()) for b in bars) == [100, 100]  # one full bar per run: 11 and 13 rounds
    assert not length.axes[0].lines  # no empty step line


@pytest.mark.parametrize("players", [2, 3, 6])
def test_ties_only_and_one_game(players, drawn):
    text = render_clean(shape_context([shape_entry("ties", shape_aggregate(players, 120, "ties"))]), drawn,
                        f"{players} seats, ties only")
    assert any("every game ended in a shared win" in s for s in verdict_of(text))
    text = render_clean(shape_context([shape_entry("one game", shape_aggregate(players, 1, "random"))]), drawn,
                        f"{players} seats, one game")
    assert verdict_of(text)


@pytest.mark.parametrize("runs", [1, 2, 5, 8])
def test_one_to_eight_runs_with_long_labels(runs, drawn):
    entries = [shape_entry(LONG if i % 2 else f"run {i + 1}", shape_aggregate(2 + i % 5, 200, "random", seed=i))
               for i in range(runs)]
    for i, entry in enumerate(entries):  # long labels must be unique
        entry["label"] = f"{entry['label']} #{i + 1}"
    render_clean(shape_context(entries, kind="compare" if runs > 1 else "run"), drawn, f"{runs} runs")


def test_a_tournament_with_long_names_and_a_strategy_that_never_wins(drawn):
    names = ["never-wins-at-all", "straw-hunter:margin=3", "weighted:w_break=2.5"]
    from analysis.tournament import tournament_matrix
    entries = []
    for k, (a, b) in enumerate((a, b) for a in range(3) for b in range(3) if a != b):
        # the first strategy loses every game it plays; the others share out the rest
        agg = shape_aggregate(2, 100, "one-seat" if a else "random", seed=k) if a and b else \
            shape_aggregate(2, 100, "one-seat")
        seats = [names[a], names[b]] if a else [names[b], names[a]]
        entries.append(shape_entry(" | ".join(seats), agg, seats))
    wins, games = tournament_matrix([(e["seat_labels"], e["aggregate"]) for e in entries], names)
    wins, games = wins.tolist(), games.tolist()
    context = shape_context(entries, kind="tournament", tournament={"strategies": names, "wins": wins,
                                                                    "games": games})
    text = render_clean(context, drawn, "tournament")
    assert 'id="tournament"' in text and "Line-ups played" in text and "Seat check" in text


def _real_contexts(game_id, tmp_path):
    """The four report kinds of one game from small real runs (sim.api), as the CLI builds them; the runs write no
    report.html of their own, since the test renders each context itself."""
    import sim
    from sim.reporting import outcome_context, run_context
    spec = get_game(game_id)
    counts = [spec.min_players] + ([spec.min_players + 1] if spec.max_players > spec.min_players else [])
    out = {"run": run_context(sim.run(game_id, 200, players=counts[-1], seed=3, out=str(tmp_path / "run"),
                                     report=False).outcome)}
    variants = ["base", spec.variants[0].name] if spec.variants else ["base"]
    cmp = sim.compare(game_id, 150, players=counts, variants=variants, seed=3, out=str(tmp_path / "cmp"),
                      report=False)
    out["compare"] = outcome_context(cmp.outcome, "compare", comparison={"paired": cmp.paired_sums})
    for param in (p for p in spec.params if p.hi > p.lo):  # the first parameter with a valid neighbour below
        values = [param.default - 1, param.default] if param.default > param.lo else [param.lo, param.lo + 1]
        try:
            sw = sim.sweep(game_id, param.name, values, 150, players=counts[0], seed=3,
                           out=str(tmp_path / f"sweep-{param.name}"), report=False)
            break
        except sim.SimError:
            continue
    out["sweep"] = outcome_context(sw.outcome, "sweep", comparison={"paired": sw.paired_sums},
                                   sweep={"param": param.name, "values": sw.values})
    if len(counts) > 1:  # the same sweep crossed with the seat counts: one curve per count, panels per count
        sw = sim.sweep(game_id, param.name, values, 100, players=counts, seed=3, out=str(tmp_path / "sweep-x"),
                       report=False)
        out["crossed sweep"] = outcome_context(sw.outcome, "sweep", comparison={"paired": sw.paired_sums},
                                               sweep={"param": param.name, "values": sw.values})
    names = [s.name for s in spec.strategies][:max(3, spec.min_players)]
    t = sim.tournament(game_id, names, 300, players=spec.min_players, seed=3, out=str(tmp_path / "t"),
                       report=False)
    out["tournament"] = outcome_context(t.outcome, "tournament", tournament={
        "strategies": t.names, "wins": t.wins_matrix.tolist(), "games": t.games_matrix.tolist()})
    return out


@pytest.mark.parametrize("game_id", game_ids())
def test_every_report_kind_of_every_game(game_id, tmp_path, drawn):
    for kind, context in _real_contexts(game_id, tmp_path).items():
        text = render_clean(context, drawn, f"{game_id} {kind}")
        lines = verdict_of(text)
        assert 1 <= len(lines) <= 6, (kind, lines)
        assert all('href="#' in part for part in re.findall(r"<li>.*?</li>", text.split('id="verdict"')[1]
                                                              .split("</ol>")[0], re.S))
        if kind in ("compare", "crossed sweep") and len(context["analysis"]["crossed"]) > 1:
            assert 'id="crossed"' in text  # one panel per player count


def test_the_tune_report_figures(drawn):
    import sim
    from reports.tune import render_tune
    result = sim.tune("straw", ["break_at=30:50", "hand_size=3:5"], ["seat-gap", "length=50"], trials=4, n=300,
                      validate=300, seed=4, players=3)
    text = render_tune(result.content)
    assert len(drawn) >= 2 and 'id="verdict"' in text
    problems = drawn.problem_lines("tune")
    assert not problems, "\n".join(problems)


def test_the_layout_check_finds_a_covering_legend_and_a_cut_text():
    fig, axes = figures._figure()
    ax = axes[0][0]
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(loc="center")  # inside the plotting area
    fig.text(0.98, 0.5, "a label that runs past the right edge")
    problems = layout_problems(fig, "broken")
    assert any("legend overlaps" in p for p in problems), problems
    assert any("cut at the figure's edge" in p for p in problems), problems
