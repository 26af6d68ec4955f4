"""Report figures of one or a few runs: matplotlib (Agg) Figures, turned into inline SVG strings by `to_svg`.

Every figure has a title, labelled axes with units, and a legend where there is more than one series. Legends sit
outside the plotting area (below it, in the constrained layout, which makes room for them), so they never cover
data; long labels are wrapped, and labels too long to wrap well are abbreviated (R1, R2, ...) with a key in the
legend. Integer distributions with few distinct values (a constant game length, a score of 0..6) are drawn as bars,
wide ones as step lines. Colours are the Okabe–Ito colour-blind-safe palette, and series also differ by marker or
line style so they survive grey-scale printing. Comparison, sweep and tournament figures: reports/figures_multi.py.
"""
from __future__ import annotations

import functools
import io
import itertools
import math
import re
import textwrap

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402  (figures never enter pyplot: no global state, faster import)
from matplotlib.lines import Line2D  # noqa: E402
import numpy as np  # noqa: E402

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
LINESTYLES = ["-", "--", "-.", ":"]
HATCHES = ["", "//", "..", "xx", "\\\\", "++", "oo", "--"]
STYLE = {"font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9, "legend.fontsize": 8, "svg.fonttype": "none",
         "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3,
         "axes.prop_cycle": matplotlib.cycler(color=OKABE_ITO)}
WIDTH = 7.5  # inches: fits a laptop screen and an A4/Letter page
WRAP = 34  # characters per legend line
TITLE_WRAP = 90  # characters per title line
ABBREVIATE = 60  # labels longer than this (a whole line-up, say) become R1, R2, ... with a key
MAX_BARS = 30  # distinct integer values drawn as bars; more become a step line
LEGEND_LINE = 0.17  # inches per legend text line at legend.fontsize 8, with its spacing
_counter = itertools.count()


def colour(i):
    return OKABE_ITO[i % len(OKABE_ITO)]


def marker(i):
    return MARKERS[i % len(MARKERS)]


def _styled(fn):
    """Draw the whole figure under STYLE (rcParams are read when each artist is made)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return fn(*args, **kwargs)
    return wrapper


def _figure(nrows=1, ncols=1, height=3.4, **kw):
    # A bare Figure, not pyplot: no global figure manager, and no gc.collect() on close (seconds in a big process).
    # The constrained layout keeps every label, title and outside legend inside the figure.
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, axes


def to_svg(fig):
    """The figure as an inline <svg> element."""
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": f"sim-fig-{next(_counter)}", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg, count=3)
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    return svg.replace("<svg ", '<svg class="figure" role="img" ', 1)


def wrap(label, width=WRAP):
    return "\n".join(textwrap.wrap(str(label), width, break_long_words=True)) or str(label)


def short_labels(labels, limit=ABBREVIATE):
    """(labels to draw, key entries): labels longer than `limit` become R1, R2, ... and the key says which is
    which; otherwise the labels themselves (wrapped) and no key."""
    labels = [str(x) for x in labels]
    if all(len(x) <= limit for x in labels):
        return [wrap(x) for x in labels], []
    short = [f"R{i + 1}" for i in range(len(labels))]
    return short, [wrap(f"{s} = {x}", 2 * WRAP) for s, x in zip(short, labels)]


def legend_below(fig, axes_list, key=(), ncol=None):
    """One legend for the whole figure, below every plotting area (duplicate labels merged), plus the key of
    abbreviated labels as text-only entries."""
    handles, labels = [], []
    for ax in axes_list:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels and not lab.startswith("_"):
                handles.append(h)
                labels.append(lab)
    for entry in key:
        handles.append(Line2D([], [], linestyle="none"))
        labels.append(entry)
    if not labels:
        return None
    longest = max(len(line) for lab in labels for line in lab.split("\n"))
    ncol = ncol or max(1, min(len(labels), 4, int(90 // (longest + 6))))
    legend = fig.legend(handles, labels, loc="outside lower center", ncol=ncol, frameon=False,
                        handlelength=1.8 if not key else 1.2)
    # the layout takes the legend's room from the plots: give the figure that much more height instead
    per_column = math.ceil(len(labels) / ncol)
    lines = max(sum(lab.count("\n") + 1 for lab in labels[c * per_column:(c + 1) * per_column]) for c in range(ncol))
    fig.set_figheight(fig.get_figheight() + LEGEND_LINE * lines + 0.15)
    return legend


def hide_unused(axes, used):
    nrows, ncols = axes.shape
    for p in range(used, nrows * ncols):
        axes[p // ncols, p % ncols].set_visible(False)


def grid_shape(count):
    ncols = 1 if count == 1 else 2
    return math.ceil(count / ncols), ncols


def error_bars(value, lo, hi):
    """(2, k) distances below and above each value for errorbar: never negative (a 0% or 100% share's bound equals
    its value up to rounding), 0 where a bound or the value is not finite (a rating with no finite upper bound)."""
    value, lo, hi = (np.asarray(a, float) for a in (value, lo, hi))
    err = np.vstack([value - lo, hi - value])
    return np.where(np.isfinite(err), np.clip(err, 0.0, None), 0.0)


def _hist_arrays(h):
    """(values, counts) from an IntHistogram or its to_dict()."""
    if isinstance(h, dict):
        counts = np.asarray(h["counts"], float)
        return np.arange(h["offset"], h["offset"] + counts.size), counts
    return h.values(), h.counts.astype(float)


def _rebinned(x, c, max_bins=80):
    """(centres, share of games per unit (%), bin width): integer histograms with a wide range are merged into
    at most max_bins equal bins so small runs read as a distribution rather than noise."""
    width = max(1, math.ceil(x.size / max_bins))
    if width == 1:
        return x.astype(float), 100 * c / c.sum(), 1
    pad = (-x.size) % width
    c = np.concatenate([c, np.zeros(pad)]).reshape(-1, width).sum(axis=1)
    starts = x[0] + width * np.arange(c.size)
    return starts + (width - 1) / 2, 100 * c / c.sum() / width, width


def _distribution(ax, series, xlabel, unit):
    """series: [(label, values, counts)] of integer histograms on one axes: grouped bars when the values in use
    span at most MAX_BARS integers (a constant length is one bar per series), step lines otherwise."""
    series = [(label, x, c) for label, x, c in series if c.sum() > 0]
    if not series:
        ax.text(0.5, 0.5, "no games", ha="center", va="center", transform=ax.transAxes)
        return
    used = [x[c > 0] for _, x, c in series]
    lo, hi = min(int(u.min()) for u in used), max(int(u.max()) for u in used)
    if hi - lo + 1 <= MAX_BARS:
        k = len(series)
        width = 0.8 / k
        for i, (label, x, c) in enumerate(series):
            keep = (x >= lo) & (x <= hi)
            ax.bar(x[keep] + (i - (k - 1) / 2) * width, 100 * c[keep] / c.sum(), width=width, color=colour(i),
                   hatch=HATCHES[i % len(HATCHES)], edgecolor="white", linewidth=0.5, label=label)
        ax.set_xlim(lo - 0.6, hi + 0.6)
        if hi - lo <= 12:
            ax.set_xticks(np.arange(lo, hi + 1))
        ax.set_ylabel("share of games (%)")
    else:
        widths = set()
        for i, (label, x, c) in enumerate(series):
            xs, ys, w = _rebinned(x, c)
            widths.add(w)
            ax.step(xs, ys, where="mid", color=colour(i), linestyle=LINESTYLES[i % 4], linewidth=1.2, label=label)
        ax.set_xlim(lo - 1, hi + 1)
        ax.set_ylabel(f"share of games per {unit} (%)" if widths - {1} else "share of games (%)")
    ax.set_ylim(bottom=0)
    ax.set_xlabel(xlabel)


# -- seats ------------------------------------------------------------------------------------------------------

@_styled
def win_share_figure(groups, title="Win share per seat"):
    """groups: [{"label", "shares", "lo", "hi", "fair"}] (shares 0..1), one per run; a point per seat with its
    Wilson 95% interval, runs side by side, and the fair share 1/P of each run as a dashed mark."""
    fig, axes = _figure(height=3.0 + 0.25 * max(0, len(groups) - 2))
    ax = axes[0, 0]
    k = len(groups)
    width = 0.8 / max(k, 1)
    seats = max(len(g["shares"]) for g in groups)
    names, key = short_labels([g["label"] for g in groups])
    top = 0.0
    for i, g in enumerate(groups):
        x = np.arange(len(g["shares"])) + (i - (k - 1) / 2) * width
        y = 100 * np.asarray(g["shares"], float)
        hi = 100 * np.asarray(g["hi"], float)
        err = error_bars(y, 100 * np.asarray(g["lo"], float), hi)
        top = max(top, np.nanmax(np.concatenate([y + err[1], [100 * g["fair"]]])))
        ax.hlines(np.full(len(x), 100 * g["fair"]), x - width * 0.45, x + width * 0.45, colors="0.35",
                  linestyles="--", linewidth=1, label="fair share 1/P")
        ax.errorbar(x, y, yerr=err, fmt=marker(i), color=colour(i), ecolor=colour(i), elinewidth=1.4, capsize=3,
                    markersize=5, label=names[i] if k > 1 else "win share ± 95% interval")
    ax.set_xticks(np.arange(seats), [f"seat {s + 1}" for s in range(seats)])
    ax.set_xlim(-0.6, seats - 0.4)
    ax.set_ylim(0, min(105.0, max(10.0, top * 1.12)))
    ax.set_xlabel("seat (1 = first in turn order)")
    ax.set_ylabel("win share (% of games)")
    ax.set_title(wrap(title, TITLE_WRAP))
    legend_below(fig, [ax], key)
    return fig


@_styled
def score_distribution_figure(panels, title="Final score distribution per seat"):
    """panels: [(label, [IntHistogram or dict per seat])]; one panel per run, bars or a step line per seat (share
    of games with each final score)."""
    panels = list(panels)
    nrows, ncols = grid_shape(len(panels))
    fig, axes = _figure(nrows, ncols, height=2.5 * nrows + 0.8)
    names, key = short_labels([label for label, _ in panels])
    for p, (_, hists) in enumerate(panels):
        ax = axes[p // ncols, p % ncols]
        _distribution(ax, [(f"seat {s + 1}", *_hist_arrays(h)) for s, h in enumerate(hists)],
                      "final score (points)", "point")
        ax.set_title(names[p] if len(panels) > 1 else title)
    hide_unused(axes, len(panels))
    if len(panels) > 1:
        fig.suptitle(wrap(title, TITLE_WRAP))
    legend_below(fig, [axes[0, 0]], key)
    return fig


@_styled
def length_figure(series, unit="turns", title="Game length"):
    """series: [(label, IntHistogram or dict)]; share of games at each length, bars or a step line per run."""
    fig, axes = _figure(height=3.0)
    ax = axes[0, 0]
    names, key = short_labels([label for label, _ in series])
    _distribution(ax, [(names[i], *_hist_arrays(h)) for i, (_, h) in enumerate(series)], f"game length ({unit})",
                  unit.rstrip("s") or "unit")
    ax.set_title(wrap(title, TITLE_WRAP))
    if len(series) > 1:
        legend_below(fig, [ax], key)
    return fig


# -- convergence ------------------------------------------------------------------------------------------------------

@_styled
def convergence_figure(panels, title="Convergence of win shares with games played"):
    """panels: [(label, [(n, [share per seat]), ...], fair)]; win share per seat (%) vs games played (log scale),
    with the 95% range of a fair seat's share, fair ± 1.96·sqrt(fair(1 − fair)/n), as a grey funnel."""
    panels = [p for p in panels if p[1]]
    nrows, ncols = grid_shape(len(panels))
    fig, axes = _figure(nrows, ncols, height=2.5 * nrows + 0.9)
    names, key = short_labels([p[0] for p in panels])
    for p, (_, points, fair) in enumerate(panels):
        ax = axes[p // ncols, p % ncols]
        n = np.asarray([pt[0] for pt in points], float)
        shares = 100 * np.asarray([pt[1] for pt in points], float)
        if fair is not None:
            half = 100 * 1.96 * np.sqrt(fair * (1 - fair) / n)
            ax.fill_between(n, np.maximum(100 * fair - half, 0), np.minimum(100 * fair + half, 100), color="0.85",
                            linewidth=0, label="95% range of a fair seat")
            ax.axhline(100 * fair, color="black", linestyle=":", linewidth=1, label="fair share 1/P")
        for s in range(shares.shape[1]):
            ax.plot(n, shares[:, s], color=colour(s), linestyle=LINESTYLES[s % 4], marker=marker(s) if n.size < 4
                    else None, linewidth=1.2, label=f"seat {s + 1}")
        if n.size and n.max() > 10 * max(n.min(), 1):
            ax.set_xscale("log")
        ax.set_ylim(0, 100 if shares.size and np.nanmax(shares) > 60 else None)
        ax.set_xlabel("games played")
        ax.set_ylabel("win share (%)")
        ax.set_title(names[p] if len(panels) > 1 else title)
    hide_unused(axes, len(panels))
    if len(panels) > 1:
        fig.suptitle(wrap(title, TITLE_WRAP))
    widest = max(range(len(panels)), key=lambda i: len(panels[i][1][0][1]))
    legend_below(fig, [axes[widest // ncols, widest % ncols]], key)
    return fig
