"""Report figures: matplotlib (Agg) drawings returned as inline SVG strings, ready to paste into HTML.

Every figure has a title, labelled axes with units and a legend where there is more than one series; colours are
the Okabe–Ito colour-blind-safe palette, and series also differ by marker or line style so they survive
grey-scale printing. The SVG is stripped of its XML prologue, DOCTYPE and namespace URLs (inline SVG in HTML
needs none), and its element ids are salted per figure so several figures can share one page.
"""
from __future__ import annotations

import functools
import io
import itertools
import math
import re

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402  (figures never enter pyplot: no global state, faster import)
import numpy as np  # noqa: E402

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
LINESTYLES = ["-", "--", "-.", ":"]
STYLE = {"font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9, "legend.fontsize": 8, "svg.fonttype": "none",
         "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3,
         "axes.prop_cycle": matplotlib.cycler(color=OKABE_ITO)}
WIDTH = 7.5  # inches: fits a laptop screen and an A4/Letter page
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
    fig = Figure(figsize=(WIDTH, height))
    axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, axes


def to_svg(fig):
    """The figure as an inline <svg> element."""
    buf = io.StringIO()
    fig.tight_layout(pad=0.6)
    with matplotlib.rc_context({"svg.hashsalt": f"sim-fig-{next(_counter)}"}):
        fig.savefig(buf, format="svg", bbox_inches="tight", pad_inches=0.05,
                    metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg, count=3)
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    return svg.replace("<svg ", '<svg class="figure" role="img" ', 1)


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


def _legend(ax, **kw):
    handles, labels = ax.get_legend_handles_labels()
    if labels:
        ax.legend(frameon=False, **kw)


# -- seats ------------------------------------------------------------------------------------------------------

@_styled
def _error_bars(value, lo, hi):
    """(2, k) distances below and above each value for errorbar: never negative (a 0% or 100% share's bound equals
    its value up to rounding), 0 where a bound is not finite (a rating with no finite upper bound)."""
    err = np.vstack([value - lo, hi - value])
    return np.where(np.isfinite(err), np.clip(err, 0.0, None), 0.0)


def win_share_figure(groups, title="Win share per seat"):
    """groups: [{"label", "shares", "lo", "hi", "fair"}] (shares 0..1), one per run; a point per seat with its
    Wilson 95% interval, runs side by side, and the fair share 1/P of each run as a dashed mark."""
    fig, axes = _figure(height=3.2)
    ax = axes[0, 0]
    k = len(groups)
    width = 0.8 / max(k, 1)
    seats = max(len(g["shares"]) for g in groups)
    for i, g in enumerate(groups):
        x = np.arange(len(g["shares"])) + (i - (k - 1) / 2) * width
        y = 100 * np.asarray(g["shares"], float)
        err = _error_bars(y, 100 * np.asarray(g["lo"], float), 100 * np.asarray(g["hi"], float))
        ax.hlines(np.full(len(x), 100 * g["fair"]), x - width * 0.45, x + width * 0.45, colors="0.35",
                  linestyles="--", linewidth=1, label="fair share 1/P" if i == 0 else None)
        ax.errorbar(x, y, yerr=err, fmt=marker(i), color=colour(i), ecolor=colour(i), elinewidth=1.4, capsize=3,
                    markersize=5, label=(g["label"] + " (95% interval)") if k > 1 else "win share ± 95% interval")
    ax.set_xticks(np.arange(seats), [f"seat {s + 1}" for s in range(seats)])
    ax.set_xlim(-0.6, seats - 0.4)
    ax.set_xlabel("seat (1 = first in turn order)")
    ax.set_ylabel("win share (% of games)")
    ax.set_title(title)
    _legend(ax, loc="best", ncol=min(3, k + 1))
    return to_svg(fig)


@_styled
def score_distribution_figure(panels, title="Final score distribution per seat"):
    """panels: [(label, [IntHistogram or dict per seat])]; one panel per run, one step line per seat (share of
    games with each final score)."""
    panels = list(panels)
    ncols = 1 if len(panels) == 1 else 2
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = _figure(nrows, ncols, height=2.8 * nrows + 0.4)
    arrays = [[_hist_arrays(h) for h in hists] for _, hists in panels]
    lo = min((x[0] for panel in arrays for x, c in panel if c.sum()), default=0)
    hi = max((x[-1] for panel in arrays for x, c in panel if c.sum()), default=1)
    for p, (label, _) in enumerate(panels):
        ax = axes[p // ncols, p % ncols]
        widths = set()
        for s, (x, c) in enumerate(arrays[p]):
            if c.sum() == 0:
                continue
            xs, ys, w = _rebinned(x, c)
            widths.add(w)
            ax.step(xs, ys, where="mid", color=colour(s), linestyle=LINESTYLES[s % 4], linewidth=1.1,
                    label=f"seat {s + 1}")
        ax.set_xlim(lo - 1, hi + 1)
        ax.set_title(label if len(panels) > 1 else title)
        ax.set_xlabel("final score (points)")
        ax.set_ylabel("share of games per point (%)" if widths - {1} else "share of games (%)")
        _legend(ax, ncol=2)
    for p in range(len(panels), nrows * ncols):
        axes[p // ncols, p % ncols].set_visible(False)
    if len(panels) > 1:
        fig.suptitle(title)
    return to_svg(fig)


@_styled
def length_figure(series, unit="turns", title="Game length"):
    """series: [(label, IntHistogram or dict)]; share of games at each length, one step line per run."""
    fig, axes = _figure(height=3.0)
    ax = axes[0, 0]
    widths = set()
    for i, (label, h) in enumerate(series):
        x, c = _hist_arrays(h)
        if c.sum() == 0:
            continue
        xs, ys, w = _rebinned(x, c)
        widths.add(w)
        ax.step(xs, ys, where="mid", color=colour(i), linestyle=LINESTYLES[i % 4], linewidth=1.2, label=label)
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel(f"share of games per {unit.rstrip('s') or 'unit'} (%)" if widths - {1} else "share of games (%)")
    ax.set_title(title)
    if len(series) > 1:
        _legend(ax, ncol=2)
    return to_svg(fig)


# -- comparison ---------------------------------------------------------------------------------------------------

@_styled
def forest_figure(rows, title="Differences vs baseline (95% intervals; filled = significant after Holm)"):
    """rows: [{"variant", "label" (what is measured), "unit", "diff", "lo", "hi", "significant"}] already in
    display units. One panel per unit; filled markers = significant after Holm correction, hollow = not."""
    rows = list(rows)
    units = list(dict.fromkeys(r["unit"] for r in rows))
    sizes = [sum(1 for r in rows if r["unit"] == u) for u in units]
    height = 0.9 + sum(0.26 * s + 0.7 for s in sizes)
    fig, axes = _figure(len(units), 1, height=height, gridspec_kw={"height_ratios": [s + 2 for s in sizes]})
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    for a, unit in enumerate(units):
        ax = axes[a, 0]
        mine = [r for r in rows if r["unit"] == unit]
        y = np.arange(len(mine))[::-1]
        seen = set()
        for yi, r in zip(y, mine):
            v = variants.index(r["variant"])
            ax.plot([r["lo"], r["hi"]], [yi, yi], color=colour(v), linewidth=1.6)
            label = None
            if r["variant"] not in seen:
                label, _ = r["variant"], seen.add(r["variant"])
            ax.plot([r["diff"]], [yi], marker=marker(v), markersize=6, color=colour(v), linestyle="none",
                    markerfacecolor=colour(v) if r["significant"] else "white", label=label)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(y, [r["label"] for r in mine])
        ax.set_ylim(-0.8, len(mine) - 0.2)
        ax.set_xlabel(f"difference vs baseline ({unit})")
        ax.grid(axis="y", alpha=0)
        if a == 0:
            ax.set_title(title)
        if len(variants) > 1 and a == 0:
            _legend(ax, loc="best")
    return to_svg(fig)


# -- sweeps -------------------------------------------------------------------------------------------------------

def _positions(values):
    try:
        return np.asarray([float(v) for v in values]), None
    except (TypeError, ValueError):
        return np.arange(len(values), dtype=float), [str(v) for v in values]


@_styled
def sweep_figure(param, values, panels, title=None):
    """panels: [{"title", "ylabel", "series": [{"label", "y", "lo", "hi"}], "hline": value or None}]; one panel
    per metric, x = the swept parameter, a line per series with its 95% interval as a band."""
    x, ticks = _positions(values)
    ncols = 1 if len(panels) == 1 else 2
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = _figure(nrows, ncols, height=2.7 * nrows + 0.5)
    for p, panel in enumerate(panels):
        ax = axes[p // ncols, p % ncols]
        for i, s in enumerate(panel["series"]):
            y, lo, hi = (np.asarray(s[k], float) for k in ("y", "lo", "hi"))
            ax.fill_between(x, lo, hi, color=colour(i), alpha=0.18, linewidth=0)
            ax.plot(x, y, color=colour(i), marker=marker(i), markersize=4, linestyle=LINESTYLES[i % 4],
                    linewidth=1.2, label=s["label"])
        if panel.get("hline") is not None:
            ax.axhline(panel["hline"], color="black", linestyle=":", linewidth=1, label=panel.get("hline_label"))
        if ticks is not None:
            ax.set_xticks(x, ticks, rotation=30 if max(len(t) for t in ticks) > 6 else 0)
        ax.set_xlabel(param)
        ax.set_ylabel(panel["ylabel"])
        ax.set_title(panel["title"])
        if len(panel["series"]) > 1 or panel.get("hline_label"):
            _legend(ax, ncol=2)
    for p in range(len(panels), nrows * ncols):
        axes[p // ncols, p % ncols].set_visible(False)
    if title:
        fig.suptitle(title + " (bands: 95% intervals)")
    return to_svg(fig)


# -- tournaments ----------------------------------------------------------------------------------------------------

@_styled
def heatmap_figure(strategies, wins, games, title="Pairwise results"):
    """Share of common games where the row strategy ranked strictly better than the column one."""
    wins, games = np.asarray(wins, float), np.asarray(games, float)
    rate = np.divide(100 * wins, games, out=np.full(wins.shape, np.nan), where=games > 0)
    np.fill_diagonal(rate, np.nan)
    k = len(strategies)
    fig, axes = _figure(height=max(2.8, 0.45 * k + 1.6))
    ax = axes[0, 0]
    ax.grid(False)
    im = ax.pcolormesh(np.arange(k + 1) - 0.5, np.arange(k + 1) - 0.5, np.ma.masked_invalid(rate), cmap="PuOr",
                       vmin=0, vmax=100, edgecolors="white", linewidth=1)  # vector cells, crisp in print
    ax.set_aspect("equal")
    ax.invert_yaxis()
    for i in range(k):
        for j in range(k):
            text = "—" if i == j or not np.isfinite(rate[i, j]) else f"{rate[i, j]:.1f}"
            dark = np.isfinite(rate[i, j]) and abs(rate[i, j] - 50) > 30
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(k), strategies, rotation=30, ha="right")
    ax.set_yticks(range(k), strategies)
    ax.set_xlabel("column strategy (opponent)")
    ax.set_ylabel("row strategy")
    ax.set_title(title)
    bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label("row ranked better than column (% of common games)")
    return to_svg(fig)


@_styled
def ratings_figure(df, title="Bradley–Terry ratings (95% intervals)"):
    """df from analysis.ratings.bradley_terry: Elo-scale rating with its interval, best at the top."""
    k = len(df)
    fig, axes = _figure(height=max(2.2, 0.35 * k + 1.2))
    ax = axes[0, 0]
    y = np.arange(k)[::-1]
    elo, lo, hi = (df[c].to_numpy(float) for c in ("elo", "elo_lo", "elo_hi"))
    ax.errorbar(elo, y, xerr=_error_bars(elo, lo, hi), fmt="o", color=colour(0), ecolor=colour(0),
                capsize=3, label="rating ± 95% interval")
    ax.axvline(0, color="black", linewidth=0.8, linestyle=":", label="average strategy")
    ax.set_yticks(y, list(df["strategy"]))
    ax.set_xlabel("rating (Elo points; 0 = average of the strategies)")
    ax.set_title(title)
    _legend(ax, loc="best")
    return to_svg(fig)


# -- convergence ------------------------------------------------------------------------------------------------------

@_styled
def convergence_figure(panels, title="Convergence of win shares with games played"):
    """panels: [(label, [(n, [share per seat]), ...], fair)]; win share per seat (%) vs games played (log scale),
    with the 95% range of a fair seat's share, fair ± 1.96·sqrt(fair(1 − fair)/n), as a grey funnel."""
    panels = [p for p in panels if p[1]]
    ncols = 1 if len(panels) == 1 else 2
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = _figure(nrows, ncols, height=2.8 * nrows + 0.5)
    for p, (label, points, fair) in enumerate(panels):
        ax = axes[p // ncols, p % ncols]
        n = np.asarray([pt[0] for pt in points], float)
        shares = 100 * np.asarray([pt[1] for pt in points], float)
        if fair is not None:
            half = 100 * 1.96 * np.sqrt(fair * (1 - fair) / n)
            ax.fill_between(n, 100 * fair - half, 100 * fair + half, color="0.85", linewidth=0,
                            label="95% range of a fair seat")
            ax.axhline(100 * fair, color="black", linestyle=":", linewidth=1, label="fair share 1/P")
        for s in range(shares.shape[1]):
            ax.plot(n, shares[:, s], color=colour(s), linestyle=LINESTYLES[s % 4], linewidth=1.2,
                    label=f"seat {s + 1}")
        if n.size and n.max() > 10 * max(n.min(), 1):
            ax.set_xscale("log")
        ax.set_xlabel("games played")
        ax.set_ylabel("win share (%)")
        ax.set_title(label if len(panels) > 1 else title)
        _legend(ax, ncol=2)
    for p in range(len(panels), nrows * ncols):
        axes[p // ncols, p % ncols].set_visible(False)
    if len(panels) > 1:
        fig.suptitle(title)
    return to_svg(fig)
