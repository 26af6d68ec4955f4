"""The self-contained HTML report: one file, figures inline as SVG, CSS inline, no network access of any kind.

    render_report(context) -> str          write_report(context, path)

The context (built by sim/reporting.py from a finished run or from saved run directories; this module reads no run
directory):
    {"title", "kind": "run"|"compare"|"sweep"|"tournament"|"report", "command",
     "runs": [{"label", "manifest", "summary", "aggregate", "convergence"}],
     "comparison": {"paired": {...}} | {"unpaired": {"baseline": label}} | None,
     "sweep": {"param", "values"} | None, "tournament": {"strategies", "wins", "games"} | None}
Sections, in order, each left out when its data is absent: what was run, headline verdict, seat tables, score
distributions, game length, balance metrics, variant comparison, sweep curves, tournament, convergence.
"""
from __future__ import annotations

import math
import os
from datetime import datetime, timezone
from types import SimpleNamespace

import numpy as np

from analysis.balance import balance_metrics
from analysis.compare import COLUMNS, describe_metric, paired_differences, unpaired_difference, verdict
from analysis.seats import format_p, holm, seat_advantage
from analysis.summary import _hist_quantiles
from sim.spec import WIN_SCALE

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
MAX_PANELS = 8  # runs drawn in one figure; more are thinned evenly (tables always list every run)
METRIC_ORDER = ("balance", "decisiveness", "tie_rate", "duration", "score_spread", "lead_changes")


# -- formatting -------------------------------------------------------------------------------------------------------

def _num(x, digits=2):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


def _pct(x, digits=1):
    return "–" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def _metric_cell(m, scale=1.0, digits=3):
    if m is None:
        return "–"
    return f"{m['value'] * scale:.{digits}f} [{m['lo'] * scale:.{digits}f}, {m['hi'] * scale:.{digits}f}]"


def _spec(manifest):
    try:
        from sim.registry import get_game
        return get_game(manifest.get("game", ""))
    except Exception:  # an unregistered game: the report still renders from the manifest
        return None


def _thin(items, k=MAX_PANELS):
    if len(items) <= k:
        return list(items)
    idx = sorted(set(np.linspace(0, len(items) - 1, k).round().astype(int).tolist()))
    return [items[i] for i in idx]


# -- per-run analysis ---------------------------------------------------------------------------------------------

class RunView:
    """One run with everything the template shows about it."""

    def __init__(self, entry):
        self.label = entry.get("label") or "run"
        self.manifest = entry.get("manifest") or {}
        self.summary = entry.get("summary") or {}
        self.agg = entry["aggregate"]
        self.convergence = entry.get("convergence")
        self.players = self.agg.players
        self.n = self.agg.n
        # the length column's name: summary.json has it; the game registry only when it does not
        self.unit = (self.summary.get("length") or {}).get("column")
        if not self.unit:
            spec = _spec(self.manifest)
            self.unit = spec.length_column if spec is not None else "length units"
        self.advantage = seat_advantage(self.agg)
        self.metrics = balance_metrics(self.agg, SimpleNamespace(length_column=self.unit))
        strategies = self.manifest.get("strategies") or []
        self.seat_labels = [s.get("label", "?") if isinstance(s, dict) else str(s) for s in strategies]
        if len(self.seat_labels) != self.players:
            rows = self.summary.get("seats") or []
            self.seat_labels = [r.get("strategy", "?") for r in rows] if len(rows) == self.players \
                else ["?"] * self.players
        self.stats = self._seat_stats()

    def _seat_stats(self):
        """Per seat (win share, lo, hi, score mean, score s.e., rank mean): the summary's, as analysis produced them
        (from the aggregate only for a context without one)."""
        rows = self.summary.get("seats") or []
        if len(rows) != self.players:
            from analysis.summary import seat_rows
            rows = seat_rows(self.agg, [SimpleNamespace(label=x) for x in self.seat_labels])
        return [(r["win_share"], r["win_lo"], r["win_hi"], r["score_mean"], r["score_se"], r["rank_mean"])
                for r in rows]

    def seat_rows(self):
        rows = []
        for s, adv in enumerate(self.advantage["seats"] or [{}] * self.players):
            share, lo, hi, mean, se, rank = self.stats[s]
            rows.append({
                "seat": s + 1, "strategy": self.seat_labels[s], "games": f"{self.n:,}",
                "share": _pct(share), "interval": f"[{_pct(lo)}, {_pct(hi)}]",
                "excess": f"{adv['excess_pp']:+.1f} ± {adv['half_width_pp']:.1f}" if adv else "–",
                "p": format_p(adv.get("p_holm")) if adv else "–",
                "significant": bool(adv.get("significant")) if adv else False,
                "score": f"{mean:.2f} ± {se:.2f}" if math.isfinite(se) else f"{mean:.2f}",
                "rank": f"{rank:.2f}" if self.n else "–"})
        return rows

    def shares(self):
        return ([st[0] if self.n else 0.0 for st in self.stats], [st[1] for st in self.stats],
                [st[2] for st in self.stats])

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

    def convergence_points(self):
        """The recorded convergence, else one rebuilt from the fixed batches (games ≡ b mod BATCHES): the union of
        the first k batches is an evenly spread 1/B .. B/B subsample of the run."""
        if self.convergence:
            return [(int(n), list(map(float, shares))) for n, shares in self.convergence], False
        bn = np.cumsum(self.agg.batch_n)
        bw = np.cumsum(self.agg.batch_win, axis=0) / WIN_SCALE
        keep = bn > 0
        if keep.sum() < 3:
            return [], True
        return [(int(n), (w / n).tolist()) for n, w in zip(bn[keep], bw[keep])], True


# -- sections --------------------------------------------------------------------------------------------------------

def _what_was_run(views):
    infos = [v.info() for v in views]
    params = [v.manifest.get("params") or {} for v in views]
    names = list(dict.fromkeys(k for p in params for k in p))
    common = {k: params[0].get(k) for k in names if all(p.get(k, object()) == params[0].get(k) for p in params)}
    varying = [k for k in names if k not in common]
    for info, p in zip(infos, params):
        info["varying"] = ", ".join(f"{k}={p.get(k, '–')}" for k in varying) or "–"
    return {"runs": infos, "common_params": common, "varying": varying}


def _forest_rows(df, units):
    rows = []
    for _, r in df.iterrows():
        words, scale, unit = describe_metric(r["metric"])
        if scale == 100:
            unit = "percentage points"
        elif r["metric"] in ("length", "duration"):
            unit = units.get(r["variant"], "length units")
        elif unit == "points":
            unit = "score points"
        elif r["metric"] == "balance":
            unit = "balance, 0–1"
        else:
            unit = unit or words.removeprefix("the ")
        words = words.removeprefix("the ")
        rows.append({"variant": r["variant"], "label": f"{r['variant']}: {words}" if df["variant"].nunique() > 1
                     else words, "unit": unit, "diff": r["diff"] * scale, "lo": r["lo"] * scale,
                     "hi": r["hi"] * scale, "significant": bool(r["significant"])})
    return rows


def _comparison_table(df, units):
    rows = []
    for _, r in df.iterrows():
        words, scale, _ = describe_metric(r["metric"])
        digits = 2 if scale == 100 else 3
        rows.append({"variant": r["variant"], "metric": words.removeprefix("the "),
                     "n": f"{int(r['n']):,}" if r["n"] else "–",
                     "base": _num(r["base_mean"] * scale, 3), "value": _num(r["variant_mean"] * scale, 3),
                     "diff": f"{r['diff'] * scale:+.{digits}f}",
                     "interval": f"[{r['lo'] * scale:+.{digits}f}, {r['hi'] * scale:+.{digits}f}]",
                     "p": format_p(r["p_holm"]), "significant": bool(r["significant"]),
                     "unit": "pp" if scale == 100 else ""})
    return rows


def _unpaired_df(views, baseline_index=0, only=None):
    """Differences of the balance metrics of each run vs the baseline run (independent estimates), Holm-corrected
    over all rows; the same columns as analysis.compare.paired_differences."""
    base = views[baseline_index]
    rows = []
    for i, v in enumerate(views):
        if i == baseline_index or (only is not None and i not in only):
            continue
        for name in METRIC_ORDER:
            a, b = base.metrics.get(name), v.metrics.get(name)
            if a is None or b is None:
                continue
            d = unpaired_difference(a["value"], a["se"], b["value"], b["se"])
            rows.append({"baseline": base.label, "variant": v.label, "metric": name, "n": v.n,
                         "base_mean": a["value"], "variant_mean": b["value"], "diff": d["diff"], "se": d["se"],
                         "lo": d["lo"], "hi": d["hi"], "p_value": d["p_value"], "method": "unpaired, normal"})
    import pandas as pd
    df = pd.DataFrame(rows, columns=[c for c in COLUMNS if c not in ("p_holm", "significant")])
    reject, adjusted = holm(df["p_value"].to_numpy(float)) if len(df) else (np.zeros(0, bool), np.zeros(0))
    df["p_holm"], df["significant"] = adjusted, reject
    return df[COLUMNS]


def _comparison(context, views, figures):
    comp = context.get("comparison") or {}
    units = {v.label: v.unit for v in views}
    out = {}
    if comp.get("paired"):
        df = paired_differences(comp["paired"])
        baseline = comp["paired"].get("baseline")
        out["paired"] = {"baseline": baseline, "rows": _comparison_table(df, units),
                         "figure": figures.forest_figure(_forest_rows(df, units),
                                                         title=f"Paired differences vs {baseline}")
                         if len(df) else None, "verdict": verdict(df, views[0].unit), "df": df}
    paired_labels = set((comp.get("paired") or {}).get("variants", {}))
    want_unpaired = comp.get("unpaired") is not None or (context.get("kind") == "compare" and len(views) > 1)
    if want_unpaired and len(views) > 1:
        baseline = (comp.get("unpaired") or {}).get("baseline", views[0].label)
        b = next((i for i, v in enumerate(views) if v.label == baseline), 0)
        others = [i for i, v in enumerate(views) if i != b and v.label not in paired_labels]
        if others:
            df = _unpaired_df(views, b, set(others))
            if len(df):
                out["unpaired"] = {"baseline": views[b].label, "rows": _comparison_table(df, units),
                                   "figure": figures.forest_figure(
                                       _forest_rows(df, units),
                                       title=f"Balance metrics vs {views[b].label} (independent runs)"),
                                   "verdict": verdict(df, views[b].unit)}
    return out or None


def _sweep(context, views, figures):
    sweep = context.get("sweep")
    if not sweep or len(sweep.get("values", [])) != len(views):
        return None
    param, values = sweep["param"], list(sweep["values"])
    players = {v.players for v in views}
    panels = []
    if len(players) == 1:
        P = views[0].players
        series = []
        for s in range(P):
            y, lo, hi = [], [], []
            for v in views:
                share, low, high = v.shares()
                y.append(100 * share[s]), lo.append(100 * low[s]), hi.append(100 * high[s])
            series.append({"label": f"seat {s + 1}", "y": y, "lo": lo, "hi": hi})
        panels.append({"title": "Win share per seat", "ylabel": "win share (%)", "series": series,
                       "hline": 100 / P, "hline_label": "fair share 1/P"})
    for name in METRIC_ORDER:
        ms = [v.metrics.get(name) for v in views]
        if any(m is None for m in ms):
            continue
        scale = 100 if name == "tie_rate" else 1
        unit = {"tie_rate": "% of games", "duration": views[0].unit, "balance": "1 = all seats equal"}.get(
            name, ms[0]["unit"])
        panels.append({"title": ms[0]["label"].split(" (")[0].capitalize(), "ylabel": f"{name.replace('_', ' ')}"
                       f" ({unit})" if unit else name,
                       "series": [{"label": name, "y": [m["value"] * scale for m in ms],
                                   "lo": [m["lo"] * scale for m in ms], "hi": [m["hi"] * scale for m in ms]}],
                       "hline": None})
    bal = [v.metrics.get("balance") for v in views]
    best = int(np.nanargmax([m["value"] for m in bal])) if all(bal) else None
    table = [{"value": val, "n": f"{v.n:,}", "shares": " · ".join(f"{_pct(x)}" for x in v.shares()[0]),
              "balance": _metric_cell(v.metrics.get("balance")),
              "duration": _metric_cell(v.metrics.get("duration"), digits=1),
              "ties": _metric_cell(v.metrics.get("tie_rate"), 100, 2)} for val, v in zip(values, views)]
    return {"param": param, "figure": figures.sweep_figure(param, values, panels, title=f"Sweep of {param}"),
            "table": table, "best": best, "best_value": values[best] if best is not None else None}


def _tournament(context, views, figures):
    t = context.get("tournament")
    if not t:
        return None
    from analysis.ratings import bradley_terry, ranking_sentence
    names = list(t["strategies"])
    wins, games = np.asarray(t["wins"], float), np.asarray(t["games"], float)
    ratings = bradley_terry(wins, names)
    from analysis.tournament import strategy_totals
    totals = strategy_totals([(v.seat_labels, v.agg) for v in views], names)
    standings = [{"strategy": r.strategy, "n": f"{r.seat_games:,}", "share": _pct(r.win_share),
                  "interval": f"[{_pct(r.win_lo)}, {_pct(r.win_hi)}]"} for r in totals.itertuples()]
    rating_rows = [{"rank": i + 1, "strategy": r.strategy, "elo": f"{r.elo:+.0f}",
                    "interval": f"[{r.elo_lo:+.0f}, {r.elo_hi:+.0f}]", "theta": f"{r.rating:+.3f} ± {1.96 * r.se:.3f}",
                    "win_rate": _pct(r.win_rate)} for i, r in enumerate(ratings.itertuples())]
    return {"heatmap": figures.heatmap_figure(names, wins, games,
                                              title="Pairwise results: row ranked better than column"),
            "ratings_figure": figures.ratings_figure(ratings), "ratings": rating_rows, "standings": standings,
            "sentence": ranking_sentence(ratings), "regularised": bool(ratings["regularised"].any())}


def _headline(context, views, comparison, sweep, tournament):
    kind = context.get("kind", "run")
    lines = []
    if comparison:
        for key in ("paired", "unpaired"):
            if key in comparison:
                lines += comparison[key]["verdict"]
    if sweep and sweep["best"] is not None:
        v = views[sweep["best"]]
        bal = v.metrics["balance"]
        overlapping = sum(1 for i, o in enumerate(views) if i != sweep["best"]
                          and o.metrics["balance"]["hi"] >= bal["lo"])
        lines.append(f"balance is highest at {sweep['param']} = {sweep['best_value']}: {bal['value']:.3f} "
                     f"[{bal['lo']:.3f}, {bal['hi']:.3f}]"
                     + (f"; the intervals of {overlapping} other value{'s' if overlapping != 1 else ''} overlap it."
                        if overlapping else "; no other value's interval reaches it."))
    if tournament:
        lines.append(tournament["sentence"])
    if kind != "tournament":
        for v in views if len(views) <= MAX_PANELS else views[:1]:
            prefix = f"{v.label}: " if len(views) > 1 else ""
            lines += [prefix + s for s in v.advantage["sentences"]]
    return lines


# -- rendering --------------------------------------------------------------------------------------------------

def _environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
    env = Environment(loader=FileSystemLoader(TEMPLATE_DIR), autoescape=select_autoescape(["html", "j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["num"] = _num
    env.filters["pct"] = _pct
    return env


def build_view(context):
    """Everything the template needs, computed from the context (figures as SVG strings)."""
    from markupsafe import Markup

    from reports import figures
    views = [RunView(entry) for entry in context.get("runs") or []]
    if not views:
        raise ValueError("a report needs at least one run")
    shown = _thin(views)
    svg = lambda s: Markup(s) if s else None  # noqa: E731
    seat_fig = None
    if context.get("kind") != "sweep" or len(views) <= MAX_PANELS:
        groups = []
        for v in shown:
            sh, lo, hi = v.shares()
            groups.append({"label": v.label, "shares": sh, "lo": lo, "hi": hi, "fair": 1 / v.players})
        seat_fig = figures.win_share_figure(groups, title="Win share per seat with 95% Wilson intervals")
    score_fig = figures.score_distribution_figure([(v.label, v.agg.score_hist) for v in shown])
    units = {v.unit for v in views}
    length_fig = figures.length_figure([(v.label, v.agg.length_hist) for v in shown],
                                       unit=" / ".join(sorted(units)), title="Game length")
    length_rows = []
    for v in views:
        q = v.summary.get("length") or _hist_quantiles(v.agg.length_hist)
        d = v.metrics.get("duration")
        length_rows.append({"label": v.label, "unit": v.unit, "n": f"{v.n:,}",
                            "mean": f"{d['value']:.2f} [{d['lo']:.2f}, {d['hi']:.2f}]" if d else "–",
                            "quantiles": " · ".join(f"{k[1:]}%: {q[k]}" for k in ("q05", "q25", "q50", "q75", "q95")
                                                    if k in q),
                            "range": f"{int(v.agg.length_hist.offset)}–"
                                     f"{int(v.agg.length_hist.offset + v.agg.length_hist.counts.size - 1)}"
                            if v.agg.length_hist.counts.size else "–"})
    metric_names = [m for m in METRIC_ORDER if any(m in v.metrics for v in views)]
    metric_rows = []
    for name in metric_names:
        first = next(v.metrics[name] for v in views if name in v.metrics)
        scale, digits = (100, 2) if name == "tie_rate" else (1, 3 if name == "balance" else 2)
        metric_rows.append({"label": first["label"] + (" (%)" if name == "tie_rate" else ""),
                            "method": first["method"],
                            "cells": [_metric_cell(v.metrics.get(name), scale, digits) for v in views]})
    comparison = _comparison(context, views, figures)
    sweep = _sweep(context, views, figures)
    tournament = _tournament(context, views, figures)
    conv_panels, rebuilt = [], False
    for v in _thin(views, 4):
        points, from_batches = v.convergence_points()
        if points:
            conv_panels.append((v.label, points, 1 / v.players))
            rebuilt = rebuilt or from_batches
    conv_fig = figures.convergence_figure(conv_panels) if conv_panels else None
    if comparison:
        for part in comparison.values():
            part["figure"] = svg(part["figure"])
            part.pop("df", None)
    if sweep:
        sweep["figure"] = svg(sweep["figure"])
    if tournament:
        tournament["heatmap"], tournament["ratings_figure"] = svg(tournament["heatmap"]), svg(
            tournament["ratings_figure"])
    total_games = sum(v.n for v in views)
    return {
        "title": context.get("title") or "Simulation report", "kind": context.get("kind", "run"),
        "command": context.get("command") or views[0].manifest.get("command", ""),
        "report_command": context.get("report_command"),
        "generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "total_games": f"{total_games:,}", "run_count": len(views),
        "what": _what_was_run(views), "headline": _headline(context, views, comparison, sweep, tournament),
        "seat_tables": [{"label": v.label, "players": v.players, "n": f"{v.n:,}", "rows": v.seat_rows(),
                         "test": v.advantage["test"]} for v in views],
        "seat_figure": svg(seat_fig), "score_figure": svg(score_fig), "length_figure": svg(length_fig),
        "thinned": len(shown) < len(views), "shown": [v.label for v in shown],
        "length_rows": length_rows, "metric_labels": [v.label for v in views], "metric_rows": metric_rows,
        "comparison": comparison, "sweep": sweep, "tournament": tournament,
        "convergence": {"figure": svg(conv_fig), "rebuilt": rebuilt, "labels": [p[0] for p in conv_panels]}
        if conv_fig else None,
    }


def render_report(context) -> str:
    """The report as one self-contained HTML string."""
    return _environment().get_template("report.html.j2").render(**build_view(context))


def write_report(context, path):
    """Render and write atomically (temporary file in the same folder, then rename); returns the path."""
    text = render_report(context)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return path
