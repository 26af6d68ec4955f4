"""Figures of several configurations: paired differences (forest plots and small multiples per player count),
sweep curves, and a tournament's pairwise heatmap and ratings. Same conventions as reports/figures.py: legends
below the plotting areas, long labels wrapped or keyed, Matplotlib Figures turned into SVG by figures.to_svg."""
from __future__ import annotations

import numpy as np

from reports.figures import (LINESTYLES, TITLE_WRAP, _figure, _styled, colour, error_bars, grid_shape, hide_unused,
                             legend_below, marker, short_labels, wrap)


@_styled
def forest_figure(rows, title="Differences vs baseline (95% intervals; filled = significant after Holm)"):
    """rows: [{"variant", "label" (what is measured), "unit", "diff", "lo", "hi", "significant"}] already in
    display units. One panel per unit; filled markers = significant after Holm correction, hollow = not."""
    rows = list(rows)
    units = list(dict.fromkeys(r["unit"] for r in rows))
    sizes = [sum(1 for r in rows if r["unit"] == u) for u in units]
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    names, key = short_labels(variants)
    height = 1.2 + sum(0.24 * s + 0.75 for s in sizes) + 0.18 * (len(variants) + len(key))
    fig, axes = _figure(len(units), 1, height=height, gridspec_kw={"height_ratios": [s + 2 for s in sizes]})
    for a, unit in enumerate(units):
        ax = axes[a, 0]
        mine = [r for r in rows if r["unit"] == unit]
        y = np.arange(len(mine))[::-1]
        for yi, r in zip(y, mine):
            v = variants.index(r["variant"])
            ax.plot([r["lo"], r["hi"]], [yi, yi], color=colour(v), linewidth=1.6)
            ax.plot([r["diff"]], [yi], marker=marker(v), markersize=6, color=colour(v), linestyle="none",
                    markerfacecolor=colour(v) if r["significant"] else "white", label=names[v])
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(y, [wrap(r["label"], 40) for r in mine])
        ax.set_ylim(-0.8, len(mine) - 0.2)
        ax.set_xlabel(f"difference vs baseline ({unit})")
        ax.grid(axis="y", alpha=0)
    # over the whole figure, not the axes: the wide row labels leave the axes too narrow for a long title
    fig.suptitle(wrap(title, TITLE_WRAP))
    if len(variants) > 1 or key:
        legend_below(fig, list(axes[:, 0]), key)
    return fig


@_styled
def crossed_figure(panels, title="Change in each seat's win share, per player count"):
    """Small multiples: panels [{"players", "series": [{"variant", "diff", "lo", "hi", "significant"} per seat
    lists]}], one panel per player count; x = seat, y = paired change of its win share (percentage points)."""
    nrows, ncols = grid_shape(len(panels))
    fig, axes = _figure(nrows, ncols, height=2.5 * nrows + 1.0, sharey=True)
    variants = list(dict.fromkeys(s["variant"] for p in panels for s in p["series"]))
    names, key = short_labels(variants)
    for p, panel in enumerate(panels):
        ax = axes[p // ncols, p % ncols]
        k = len(panel["series"])
        width = 0.7 / max(k, 1)
        seats = max((len(s["diff"]) for s in panel["series"]), default=0)
        for i, s in enumerate(panel["series"]):
            v = variants.index(s["variant"])
            x = np.arange(len(s["diff"])) + (i - (k - 1) / 2) * width
            d = np.asarray(s["diff"], float)
            err = error_bars(d, s["lo"], s["hi"])
            ax.errorbar(x, d, yerr=err, fmt="none", ecolor=colour(v), elinewidth=1.4, capsize=3)
            for xi, di, sig in zip(x, d, s["significant"]):
                ax.plot([xi], [di], marker=marker(v), color=colour(v), markersize=5, linestyle="none",
                        markerfacecolor=colour(v) if sig else "white", label=names[v])
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(np.arange(seats), [f"seat {s + 1}" for s in range(seats)])
        ax.set_xlim(-0.6, seats - 0.4)
        ax.set_title(f"{panel['players']} players")
        ax.set_ylabel("change (percentage points)")
    hide_unused(axes, len(panels))
    fig.suptitle(wrap(title + " (95% intervals; filled = significant after Holm)", TITLE_WRAP))
    legend_below(fig, [axes[i // ncols, i % ncols] for i in range(len(panels))], key)
    return fig


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
    nrows, ncols = grid_shape(len(panels))
    fig, axes = _figure(nrows, ncols, height=2.5 * nrows + 1.0)
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
            ax.set_xticks(x, [wrap(t, 12) for t in ticks])
        ax.set_xlabel(param)
        ax.set_ylabel(wrap(panel["ylabel"], 30))
        ax.set_title(panel["title"])
    hide_unused(axes, len(panels))
    if title:
        fig.suptitle(wrap(title + " (bands: 95% intervals)", TITLE_WRAP))
    legend_below(fig, [axes[0, 0]])
    return fig


@_styled
def heatmap_figure(strategies, wins, games, lo=None, hi=None, title="Pairwise results",
                   value_label="row ranked better than column (% of common games)"):
    """Share of common games where the row strategy ranked strictly better than the column one (or what `wins`
    counts, named by value_label), the value (and, with lo/hi, its 95% interval) written in each cell."""
    wins, games = np.asarray(wins, float), np.asarray(games, float)
    rate = np.divide(100 * wins, games, out=np.full(wins.shape, np.nan), where=games > 0)
    np.fill_diagonal(rate, np.nan)
    k = len(strategies)
    names, key = short_labels(strategies, limit=18)
    fig, axes = _figure(height=max(3.0, 0.55 * k + 1.8 + 0.18 * len(key)))
    ax = axes[0, 0]
    ax.grid(False)
    im = ax.pcolormesh(np.arange(k + 1) - 0.5, np.arange(k + 1) - 0.5, np.ma.masked_invalid(rate), cmap="PuOr",
                       vmin=0, vmax=100, edgecolors="white", linewidth=1)  # vector cells, crisp in print
    ax.set_xlim(-0.5, k - 0.5)
    ax.set_ylim(k - 0.5, -0.5)
    small = 7 if k <= 5 else 6
    for i in range(k):
        for j in range(k):
            if i == j or not np.isfinite(rate[i, j]):
                text = "—"
            else:
                text = f"{rate[i, j]:.1f}%"
                if lo is not None and hi is not None:
                    text += f"\n[{100 * lo[i][j]:.0f}, {100 * hi[i][j]:.0f}]"
            dark = np.isfinite(rate[i, j]) and abs(rate[i, j] - 50) > 30
            ax.text(j, i, text, ha="center", va="center", fontsize=small if "\n" in text else 8,
                    color="white" if dark else "black")
    ax.set_xticks(range(k), names, rotation=30 if max(len(n) for n in names) > 6 else 0,
                  ha="right" if max(len(n) for n in names) > 6 else "center")
    ax.set_yticks(range(k), names)
    ax.set_xlabel("column strategy (opponent)")
    ax.set_ylabel("row strategy")
    ax.set_title(wrap(title, TITLE_WRAP))
    bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label(wrap(value_label, 30))
    if key:
        legend_below(fig, [], key)
    return fig


@_styled
def ratings_figure(df, title="Bradley–Terry ratings (95% intervals)"):
    """df from analysis.ratings.bradley_terry: Elo-scale rating with its interval, best at the top, labelled
    directly by strategy on the y axis."""
    k = len(df)
    fig, axes = _figure(height=max(2.2, 0.35 * k + 1.4))
    ax = axes[0, 0]
    y = np.arange(k)[::-1]
    elo, lo, hi = (df[c].to_numpy(float) for c in ("elo", "elo_lo", "elo_hi"))
    ax.errorbar(elo, y, xerr=error_bars(elo, lo, hi), fmt="o", color=colour(0), ecolor=colour(0), capsize=3)
    ax.axvline(0, color="black", linewidth=0.8, linestyle=":")
    ax.set_yticks(y, [wrap(s, 24) for s in df["strategy"]])
    ax.set_ylim(-0.7, k - 0.3)
    ax.set_xlabel("rating (Elo points; 0 = the strategies' average, dotted)")
    ax.set_title(wrap(title, TITLE_WRAP))
    return fig
