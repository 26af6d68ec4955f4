"""The report of a `sim tune` study: it renders the content of tune.json (sim/search.py) and computes nothing anew."""
from __future__ import annotations

import os
from datetime import datetime, timezone

import numpy as np

from sim.search_space import TARGET_HELP, WIN_SHARE_HELP

SHARE_TARGETS = ("first-player", "ties", "win-share")  # shares: shown in %, differences in percentage points


def _base(label):
    return label.partition("=")[0]


def format_metric(label, m, length_unit="turns"):
    """'58.9 turns [58.6, 59.3]', '3.1 percentage points [2.0, 4.2]', '24.9% [24.1, 25.8]', '4.2 points [...]'."""
    if m is None:
        return "–"
    name = _base(label)
    if name == "seat-gap":
        return f"{100 * m['value']:.1f} percentage points [{100 * m['lo']:.1f}, {100 * m['hi']:.1f}]"
    if name in SHARE_TARGETS:
        return f"{100 * m['value']:.1f}% [{100 * m['lo']:.1f}, {100 * m['hi']:.1f}]"
    unit = length_unit if name == "length" else "points"
    return f"{m['value']:.2f} {unit} [{m['lo']:.2f}, {m['hi']:.2f}]"


def _params_text(params):
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in params.items()) or "–"


def _baseline(content):
    return "the default parameters" if content.get("kind") == "tune-strategy" else "the current rules"


def verdict(content, length_unit="turns"):
    """At most six plain sentences, the answer first."""
    out = []
    best, current = content.get("best"), content.get("current")
    if content.get("status") == "partial":
        out.append("The study was interrupted: the finished trials are kept, nothing was validated yet.")
    if not best:
        out.append("No trial finished, so there is no configuration to recommend.")
        return out
    games = content["validate"]
    for label, m in best["targets"].items():
        now = current[label]
        better = m["loss"] < now["loss"]
        name = best.get("spec") or _params_text(best["params"])
        out.append(f"<b>{name}</b> {'moves' if better else 'does not move'} {label} to "
                   f"{format_metric(label, m, length_unit)}, against {format_metric(label, now, length_unit)} with "
                   f"{_baseline(content)}, on the same {games:,} fresh games.")
    states = [t["state"] for t in content["trials"]]
    pruned = states.count("pruned")
    out.append(f"{states.count('complete')} trials ran all {content['n']:,} games; {pruned} stopped early as clearly "
               "worse (paired Wilcoxon test on blocks of the same games).")
    top = {label: max(v, key=v.get) for label, v in (content.get("importance") or {}).items() if v}
    if top:
        out.append("The parameter that matters most: " + "; ".join(f"{p} for {t}" for t, p in top.items()) + ".")
    return out[:6]


def _history_figure(content):
    from reports.figures import _figure, _styled, colour, to_svg

    @_styled
    def draw():
        labels = content["targets"]
        fig, axes = _figure(len(labels), 1, height=2.6 * len(labels))
        for k, label in enumerate(labels):
            ax = axes[k, 0]
            xs, ys, done = [], [], []
            for t in content["trials"]:
                m = t["targets"].get(label)
                if m is not None:
                    xs.append(t["number"])
                    ys.append(m["loss"])
                    done.append(t["state"] == "complete")
            xs, ys, done = np.array(xs), np.array(ys), np.array(done, bool)
            if xs.size:
                ax.scatter(xs[done], ys[done], color=colour(0), s=18, label="complete", zorder=3)
                ax.scatter(xs[~done], ys[~done], color=colour(1), marker="x", s=18, label="stopped early", zorder=3)
                if done.any():
                    best = np.minimum.accumulate(np.where(done, ys, np.inf))
                    ok = np.isfinite(best)
                    ax.step(xs[ok], best[ok], where="post", color=colour(2), label="best so far")
            ax.set_ylabel(f"loss: {label}")
            ax.set_xlabel("trial")
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
        return to_svg(fig)
    return draw()


def _importance_figure(content):
    from reports.figures import _figure, _styled, colour, to_svg
    importance = {k: v for k, v in (content.get("importance") or {}).items() if v}
    if not importance:
        return ""

    @_styled
    def draw():
        params = sorted({p for v in importance.values() for p in v})
        fig, axes = _figure(1, 1, height=0.5 + 0.45 * len(params) * len(importance))
        ax = axes[0, 0]
        height = 0.8 / len(importance)
        for k, (label, values) in enumerate(importance.items()):
            y = np.arange(len(params)) + k * height
            ax.barh(y, [values.get(p, 0.0) for p in params], height=height, color=colour(k), label=label)
        ax.set_yticks(np.arange(len(params)) + height * (len(importance) - 1) / 2, params)
        ax.set_xlim(0, 1)
        ax.set_xlabel("importance")
        if len(importance) > 1:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
        return to_svg(fig)
    return draw()


def _pareto_figure(content):
    from reports.figures import _figure, _styled, colour, to_svg
    labels = content["targets"]
    if len(labels) != 2:
        return ""
    front = {c["trial"] for c in content.get("pareto", [])}

    @_styled
    def draw():
        fig, axes = _figure(1, 1, height=3.4)
        ax = axes[0, 0]
        for t in content["trials"]:
            if t["state"] != "complete":
                continue
            x, y = (t["targets"][label]["loss"] for label in labels)
            on = t["number"] in front
            ax.scatter([x], [y], color=colour(1 if on else 0), s=28 if on else 14, zorder=3 if on else 2)
        ax.set_xlabel(f"loss: {labels[0]}")
        ax.set_ylabel(f"loss: {labels[1]}")
        return to_svg(fig)
    return draw()


def render_tune(content, length_unit="turns", title=None):
    """The self-contained HTML report of one study's tune.json content."""
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(os.path.dirname(__file__), "templates")),
                             autoescape=jinja2.select_autoescape(["html", "j2"]))
    labels = content["targets"]
    best, current = content.get("best"), content.get("current")

    def cells(targets):
        return [format_metric(label, targets.get(label), length_unit) for label in labels]
    best_rows = [] if not best else [
        {"label": label, "definition": TARGET_HELP.get(_base(label), (WIN_SHARE_HELP,))[0],
         "current": format_metric(label, current[label], length_unit),
         "best": format_metric(label, best["targets"][label], length_unit)} for label in labels]
    if content.get("kind") == "tune-strategy":
        best_command = f"sim run {content['game']} --players {content['players']} --strategy {(best or {}).get('spec')}"
    else:
        sets = " ".join(f"--set {k}={v}" for k, v in (best or {}).get("params", {}).items() if "." not in k)
        strategy_sets = " ".join(f"--set {k}={v:g}" for k, v in (best or {}).get("params", {}).items() if "." in k)
        best_command = f"sim run {content['game']} --players {content['players']} {sets} {strategy_sets}".strip()
    facts = [("game", f"{content['game']} (rules v{content['rules_version']})"), ("players", content["players"]),
             ("variants", ", ".join(content["variants"]) or "base"), ("searched", ", ".join(
                 f"{r['name']} {r['lo']:g}..{r['hi']:g}" + (f" step {r['step']:g}" if r["step"] else "")
                 for r in content["space"])),
             ("games per trial", f"{content['n']:,} (seed {content['seed']}, the same for every trial)"),
             ("study", f"{content['study']} in {content['storage']}" if content.get("storage") else "in memory")]
    return env.get_template("tune.html.j2").render(
        title=title or f"{content['game']}: tuning toward {', '.join(labels)}", status=content["status"],
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        trials=[{**t, "params": _params_text(t["params"]), "cells": cells(t["targets"])} for t in content["trials"]],
        total_games=f"{sum(t['games'] for t in content['trials']):,}", validate=f"{content['validate']:,}",
        validation_seed=content["validation_seed"], verdict=verdict(content, length_unit), best=best,
        best_params=_params_text(best["params"]) if best else "", best_rows=best_rows, best_command=best_command,
        validated=[{"trial": c["trial"], "params": _params_text(c["params"]), "cells": cells(c["targets"])}
                   for c in content.get("validated", [])],
        target_labels=labels, pareto=content.get("pareto"), history_svg=_history_figure(content),
        importance_svg=_importance_figure(content), pareto_svg=_pareto_figure(content),
        command=content.get("command") or "", facts=facts, baseline=_baseline(content))
