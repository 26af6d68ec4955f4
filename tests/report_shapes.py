"""Report contexts for the figure tests: synthetic outcome shapes (a seat winning every game, ties only, one game,
constant game length, 1–8 runs, 2–6 seats, long labels) and real small runs of every kind for every game; and the
layout check that draws a figure and compares the window extents of its legends, axes and texts."""
from types import SimpleNamespace

import numpy as np
from matplotlib.text import Text

from analysis.summary import length_summary, seat_rows
from sim.aggregate import Aggregate
from sim.reporting import with_analysis
from tests.analysis.toy import seat_outputs

SHAPE_GAME = SimpleNamespace(all_seat_columns=("score", "rank", "win60"), all_game_columns=("error", "rounds"),
                             length_column="rounds")


def shape_aggregate(players, n, shape, seed=0):
    """n games of `players` seats: "random" (any seat may win, lengths 20..59), "one-seat" (seat 1 wins every game,
    every game 11 rounds), "ties" (every game a shared win of every seat, 13 rounds)."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 40, size=(n, players))
    length = rng.integers(20, 60, size=n)
    if shape == "one-seat":
        scores[:, 0] = 50
        length[:] = 11
    elif shape == "ties":
        scores[:] = 7
        length[:] = 13
    seat_out = seat_outputs(scores)
    game_out = np.stack([np.zeros(n, int), length], axis=1).astype(np.int32)
    return Aggregate.from_chunk(SHAPE_GAME, players, seat_out, game_out)


def shape_entry(label, agg, seat_labels=None):
    seats = [SimpleNamespace(label=x) for x in (seat_labels or ["random"] * agg.players)]
    summary = {"games": agg.n, "seats": seat_rows(agg, seats), "length": length_summary(agg, SHAPE_GAME)}
    manifest = {"game": "shape", "title": "Shape", "players": agg.players, "seed": 1, "n_games": agg.n,
                "command": f"sim run shape --n {agg.n}", "strategies": [{"label": s.label} for s in seats]}
    return {"label": label, "manifest": manifest, "summary": summary, "aggregate": agg, "convergence": None,
            "unit": "rounds", "seat_labels": [s.label for s in seats]}


def shape_context(entries, kind="run", **sections):
    return with_analysis({"title": "shapes", "kind": kind, "command": "sim run shape", "runs": entries,
                          "comparison": sections.get("comparison"), "sweep": sections.get("sweep"),
                          "tournament": sections.get("tournament")})


def _texts(fig):
    """Every text a reader sees: titles, axis labels, tick labels in view, annotations, legends, colour bars."""
    out = list(fig.texts)
    if getattr(fig, "_suptitle", None) is not None:
        out.append(fig._suptitle)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        out += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
        for axis, (lo, hi) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            lo, hi = min(lo, hi), max(lo, hi)
            for tick in axis.get_major_ticks():
                if lo - 1e-9 <= tick.get_loc() <= hi + 1e-9:
                    out += [tick.label1, tick.label2]
    for legend in _legends(fig):
        out += legend.get_texts()
    return [t for t in out if isinstance(t, Text) and t.get_visible() and t.get_text().strip()]


def _legends(fig):
    return list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]


def layout_problems(fig, name):
    """Legends that overlap a plotting area, and texts cut at the figure's edge (window extents, 1 px slack)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    canvas = FigureCanvasAgg(fig)
    fig.draw_without_rendering()  # runs the constrained layout, as saving does, without drawing any pixel
    renderer = canvas.get_renderer()
    edge = fig.bbox
    problems = []
    areas = [ax for ax in fig.axes if ax.get_visible()]
    for legend in _legends(fig):
        box = legend.get_window_extent(renderer)
        for ax in areas:  # its own axes included: a legend inside the plotting area covers data
            area = ax.get_window_extent(renderer)
            overlap = min(box.x1, area.x1) - max(box.x0, area.x0), min(box.y1, area.y1) - max(box.y0, area.y0)
            if overlap[0] > 1 and overlap[1] > 1:
                problems.append(f"{name}: a legend overlaps the plotting area of '{ax.get_title()}'")
    for text in _texts(fig):
        box = text.get_window_extent(renderer)
        if box.x0 < edge.x0 - 1 or box.y0 < edge.y0 - 1 or box.x1 > edge.x1 + 1 or box.y1 > edge.y1 + 1:
            problems.append(f"{name}: '{text.get_text()[:40]}' is cut at the figure's edge")
    return problems
