"""The self-contained HTML report: one file, figures inline as SVG, CSS inline, no network access of any kind.

    render_report(context) -> str          write_report(context, path)

The context is built by sim/reporting.py (from a finished run or from saved run directories) and carries the
analysis (analysis.findings) computed once; this module formats and draws it and computes no statistic of its own.
The report opens with the verdict (id="verdict": at most six ranked sentences, each linking to its evidence);
everything else follows in collapsible sections: what was run, seats, scores, game length, balance metrics,
variant comparison, crossed designs (one panel per player count), sweep curves, tournament, convergence. A
tournament report leads with ratings, the pairwise matrix and the line-ups, with seat effects only as a check; a
skill report (sim skill) with the ladder, its win-share matrix, the luck-vs-skill index and dominance per variant.
"""
from __future__ import annotations

import math
import os
from datetime import datetime, timezone

from analysis.seats import format_p
from analysis.verdict import LINEUP_KINDS, signed
from reports.formatting import MAX_PANELS, metric_cell, num, pct, thin

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


# -- one run -------------------------------------------------------------------------------------------------------

class RunView:
    """One run with everything the template shows about it: the summary's rows and the analysis' seat tests and
    balance metrics, formatted."""

    def __init__(self, entry, analysed):
        self.label = entry.get("label") or "run"
        self.manifest = entry.get("manifest") or {}
        self.summary = entry.get("summary") or {}
        self.agg = entry["aggregate"]
        self.players, self.n = self.agg.players, self.agg.n
        self.unit = entry["unit"]
        self.seat_labels = entry["seat_labels"]
        self.advantage, self.metrics = analysed["advantage"], analysed["metrics"]
        self.convergence_points, self.convergence_rebuilt = analysed["convergence"]
        rows = self.summary.get("seats") or []
        if len(rows) != self.players:
            raise ValueError(f"run {self.label}: its summary has no row per seat")
        self.stats = rows

    def seat_rows(self):
        fair = 100 / self.players
        rows = []
        for s, adv in enumerate(self.advantage["seats"] or [{}] * self.players):
            r = self.stats[s]
            se = r["score_se"]
            rows.append({
                "seat": s + 1, "strategy": self.seat_labels[s], "games": f"{self.n:,}",
                "share": pct(r["win_share"]), "interval": f"[{pct(r['win_lo'])}, {pct(r['win_hi'])}]",
                "fair": f"{fair:.1f}%",
                "excess": f"{signed(adv['excess_pp'])} [{signed(adv['wilson_lo_pp'])}, {signed(adv['wilson_hi_pp'])}]"
                if adv else "–",
                "p": format_p(adv.get("p_holm")) if adv else "–",
                "significant": bool(adv.get("significant")) if adv else False,
                "score": f"{r['score_mean']:.2f} ± {se:.2f}" if se is not None and math.isfinite(se)
                else num(r["score_mean"]),
                "rank": f"{r['rank_mean']:.2f}" if self.n else "–"})
        return rows

    def shares(self):
        return ([r["win_share"] if self.n else 0.0 for r in self.stats], [r["win_lo"] for r in self.stats],
                [r["win_hi"] for r in self.stats])

    def info(self):
        m = self.manifest
        variants = m.get("variants") or []
        n_games, n_req = m.get("n_games", self.n), m.get("n_requested")
        return {"label": self.label, "game": f"{m.get('title', m.get('game', '?'))} ({m.get('game', '?')})",
                "rules_version": m.get("rules_version", "?"), "players": m.get("players", self.players),
                "variants": " + ".join(variants) if variants else "none (base rules)",
                "sets": ", ".join(f"{k}={v}" for k, v in (m.get("sets") or {}).items()) or "none",
                "strategies": " · ".join(f"{i + 1}: {s}" for i, s in enumerate(self.seat_labels)),
                "seed": m.get("seed", "?"),
                "n": f"{n_games:,}" + (f" of {n_req:,} requested" if n_req and n_req != n_games else ""),
                "status": m.get("status", "?"), "command": m.get("command", ""),
                "package": m.get("package_version", "?"),
                "speed": f"{m['games_per_second']:,.0f} games/s on {m.get('threads', '?')} threads"
                if m.get("games_per_second") else "–",
                "finished": m.get("finished", "–"), "precision": m.get("precision"),
                "data_files": ", ".join(f"{k}: {v}" for k, v in (m.get("data_files") or {}).items())}

    def length_row(self):
        q = self.summary.get("length") or {}
        d = self.metrics.get("duration")
        h = self.agg.length_hist
        return {"label": self.label, "unit": self.unit, "n": f"{self.n:,}",
                "mean": f"{d['value']:.2f} [{num(d['lo'])}, {num(d['hi'])}]" if d else "–",
                "quantiles": " · ".join(f"{k[1:]}%: {q[k]}" for k in ("q05", "q25", "q50", "q75", "q95") if k in q),
                "range": f"{q['min']}–{q['max']}" if q.get("min") is not None else
                (f"{int(h.offset)}–{int(h.offset + h.counts.size - 1)}" if h.counts.size else "–")}


def _what_was_run(views):
    infos = [v.info() for v in views]
    params = [v.manifest.get("params") or {} for v in views]
    names = list(dict.fromkeys(k for p in params for k in p))
    common = {k: params[0].get(k) for k in names if all(p.get(k, object()) == params[0].get(k) for p in params)}
    varying = [k for k in names if k not in common]
    for info, p in zip(infos, params):
        info["varying"] = ", ".join(f"{k}={p.get(k, '–')}" for k in varying) or "–"
    return {"runs": infos, "common_params": common, "varying": varying}


def _metric_rows(views):
    from analysis.compare import BALANCE_METRICS
    rows = []
    for name in [m for m in BALANCE_METRICS if any(m in v.metrics for v in views)]:
        first = next(v.metrics[name] for v in views if name in v.metrics)
        scale, digits = (100, 2) if name == "tie_rate" else (1, 3 if name == "balance" else 2)
        rows.append({"label": first["label"] + (" (%)" if name == "tie_rate" else ""), "method": first["method"],
                     "cells": [metric_cell(v.metrics.get(name), scale, digits) for v in views]})
    return rows


# -- rendering --------------------------------------------------------------------------------------------------

def _environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
    env = Environment(loader=FileSystemLoader(TEMPLATE_DIR), autoescape=select_autoescape(["html", "j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["num"] = num
    env.filters["pct"] = pct
    return env


def build_view(context):
    """Everything the template needs, from the context and its analysis (figures as SVG strings)."""
    from markupsafe import Markup

    from reports import figures, sections
    runs = context.get("runs") or []
    if not runs:
        raise ValueError("a report needs at least one run")
    found = context.get("analysis")
    if found is None:
        raise ValueError("the report context has no analysis (sim.reporting builds contexts with it)")
    views = [RunView(entry, a) for entry, a in zip(runs, found["runs"])]
    kind = context.get("kind", "run")
    shown = thin(views, MAX_PANELS)
    svg = lambda fig: Markup(figures.to_svg(fig)) if fig is not None else None  # noqa: E731
    seat_fig = None
    lineups = kind in LINEUP_KINDS  # strategy line-ups: seat tables per line-up say little
    if not lineups and (kind != "sweep" or len(views) <= MAX_PANELS):
        groups = []
        for v in shown:
            sh, lo, hi = v.shares()
            groups.append({"label": v.label, "shares": sh, "lo": lo, "hi": hi, "fair": 1 / v.players})
        seat_fig = figures.win_share_figure(groups, title="Win share per seat with 95% Wilson intervals")
    panels = shown if not lineups else shown[:1]
    score_fig = figures.score_distribution_figure([(v.label, v.agg.score_hist) for v in panels])
    units = {v.unit for v in views}
    length_fig = figures.length_figure([(v.label, v.agg.length_hist) for v in panels],
                                       unit=" / ".join(sorted(units)), title="Game length")
    conv_panels, rebuilt = [], False
    for v in thin(views, 4) if not lineups else []:
        if v.convergence_points:
            conv_panels.append((v.label, v.convergence_points, 1 / v.players))
            rebuilt = rebuilt or v.convergence_rebuilt
    conv_fig = figures.convergence_figure(conv_panels) if conv_panels else None
    comparison = sections.comparison(found, views)
    crossed = sections.crossed(found)
    sweep = sections.sweep(context.get("sweep"), found, views)
    tournament = sections.tournament(found)
    skill = sections.skill(found)
    for part in (skill or {}).get("variants", []):
        part["heatmap"] = svg(part["heatmap"])
    for part in [*(comparison or {}).values(), crossed, sweep]:
        if part:
            part["figure"] = svg(part["figure"])
    if tournament:
        tournament["heatmap"], tournament["ratings_figure"] = svg(tournament["heatmap"]), svg(
            tournament["ratings_figure"])
    total_games = sum(v.n for v in views)
    return {
        "title": context.get("title") or "Simulation report", "kind": kind,
        "command": context.get("command") or views[0].manifest.get("command", ""),
        "report_command": context.get("report_command"),
        "generated": context.get("generated") or datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "total_games": f"{total_games:,}", "run_count": len(views),
        "what": _what_was_run(views), "verdict": found["verdict"],
        "seat_tables": [] if lineups else
        [{"label": v.label, "players": v.players, "n": f"{v.n:,}", "rows": v.seat_rows(),
          "test": v.advantage["test"]} for v in views],
        "seat_figure": svg(seat_fig), "score_figure": svg(score_fig), "length_figure": svg(length_fig),
        "thinned": len(shown) < len(views), "shown": [v.label for v in shown],
        "length_rows": [v.length_row() for v in views], "metric_labels": [v.label for v in views],
        "metric_rows": _metric_rows(views),
        "comparison": comparison, "crossed": crossed, "sweep": sweep, "tournament": tournament,
        "skill": skill, "lineups": lineups,
        "convergence": {"figure": svg(conv_fig), "rebuilt": rebuilt, "labels": [p[0] for p in conv_panels]}
        if conv_fig else None,
    }


def render_report(context) -> str:
    """The report as one self-contained HTML string."""
    return _environment().get_template("report.html.j2").render(**build_view(context))


def write_report(context, path, *copies):
    """Render once and write to `path` and every copy, each atomically (a temporary file in the same folder, then
    a rename); returns the path."""
    text = render_report(context)
    for target in (path, *copies):
        folder = os.path.dirname(os.path.abspath(target))
        os.makedirs(folder, exist_ok=True)
        tmp = os.path.join(folder, f".{os.path.basename(target)}.tmp-{os.getpid()}")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
    return path
