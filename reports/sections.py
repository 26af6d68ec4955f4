"""The report's sections about several configurations, formatted from the analysis (analysis.findings) with their
figures (reports/figures_multi.py): variant comparison, crossed designs, sweep, tournament. Nothing here computes
a statistic; each function returns None when its data is absent."""
from __future__ import annotations

from analysis.compare import describe_metric
from analysis.seats import format_p
from analysis.verdict import signed
from reports import figures_multi
from reports.formatting import metric_cell, num, pct

FOREST_METRICS = ("length", "tie", "margin")  # drawn beside the seats' win shares; every metric is in the table


def _unit(metric, length_unit):
    words, scale, unit = describe_metric(metric)
    if scale == 100:
        return words, scale, "percentage points"
    if metric in ("length", "duration"):
        return words, scale, length_unit
    if metric == "balance":
        return words, scale, "balance, 0–1"
    return words, scale, unit or words.removeprefix("the ")


def _forest_rows(df, length_unit):
    rows = []
    several = df["variant"].nunique() > 1
    for _, r in df.iterrows():
        if not (r["metric"].startswith("win_s") or r["metric"] in FOREST_METRICS
                or r["method"].startswith("unpaired")):
            continue
        words, scale, unit = _unit(r["metric"], length_unit)
        words = words.removeprefix("the ")
        rows.append({"variant": r["variant"], "label": f"{r['variant']}: {words}" if several else words,
                     "unit": unit, "diff": r["diff"] * scale, "lo": r["lo"] * scale, "hi": r["hi"] * scale,
                     "significant": bool(r["significant"])})
    return rows


def _digits(scale, metric):
    return 2 if scale == 100 or metric in ("length", "duration", "margin", "decisiveness") else 3


def comparison_table(df, length_unit):
    rows = []
    for _, r in df.iterrows():
        words, scale, unit = _unit(r["metric"], length_unit)
        d = _digits(scale, r["metric"])
        rows.append({"variant": r["variant"], "baseline": r["baseline"], "metric": words.removeprefix("the "),
                     "n": f"{int(r['n']):,}" if r["n"] else "–",
                     "base": num(r["base_mean"] * scale, d), "value": num(r["variant_mean"] * scale, d),
                     "diff": signed(r["diff"] * scale, d),
                     "interval": f"[{signed(r['lo'] * scale, d)}, {signed(r['hi'] * scale, d)}]",
                     "p": format_p(r["p_holm"]), "significant": bool(r["significant"]),
                     "unit": "pp" if scale == 100 else ("" if unit in ("balance, 0–1",) else unit)})
    return rows


def comparison(found, views):
    unit = views[0].unit
    out = {}
    for key in ("paired", "unpaired"):
        df = found.get(key)
        if df is None or not len(df):
            continue
        rows = _forest_rows(df, unit)
        bases = list(dict.fromkeys(df["baseline"]))
        title = "Paired differences vs each configuration's base" if key == "paired" else \
            f"Balance metrics vs {bases[0] if len(bases) == 1 else 'the base of each player count'} (independent runs)"
        out[key] = {"baselines": bases, "rows": comparison_table(df, unit),
                    "figure": figures_multi.forest_figure(rows, title=title) if rows else None}
    return out or None


def crossed(found):
    """Small multiples (one panel per player count) and one table across counts, when a compare or sweep crosses
    player counts with variants or values."""
    rows = found.get("crossed") or []
    counts = sorted({r["players"] for r in rows})
    if len(counts) < 2:
        return None
    panels = [{"players": p, "series": [{"variant": r["family"], "diff": r["diff_pp"], "lo": r["lo_pp"],
                                         "hi": r["hi_pp"], "significant": r["significant"]}
                                        for r in rows if r["players"] == p]} for p in counts]
    table = []
    for r in rows:
        s = max(range(len(r["diff_pp"])), key=lambda i: abs(r["diff_pp"][i]))
        length = r["length"]
        table.append({"variant": r["family"], "players": r["players"], "baseline": r["baseline"],
                      "changes": "yes" if r["changes_advantage"] else "no",
                      "seats": " · ".join(f"{signed(d)}" for d in r["diff_pp"]),
                      "largest": f"seat {s + 1}: {signed(r['diff_pp'][s])} [{signed(r['lo_pp'][s])}, "
                                 f"{signed(r['hi_pp'][s])}]",
                      "p": format_p(r["min_p"]),
                      "length": f"{signed(length['diff'], 2)} [{signed(length['lo'], 2)}, {signed(length['hi'], 2)}]"
                      if length else "–"})
    return {"counts": counts, "table": table, "figure": figures_multi.crossed_figure(panels)}


def _sweep_panels(views, values, counts):
    """One panel per metric along the swept values: with one seat count, a per-seat win-share panel and one line
    per metric; crossed with seat counts, one line per count in every metric panel."""
    distinct = list(dict.fromkeys(values))
    by_count = {c: [v for v in views if v.players == c] for c in counts}
    panels = []
    if len(counts) == 1:
        series = []
        for s in range(views[0].players):
            y, lo, hi = [], [], []
            for v in views:
                share, low, high = v.shares()
                y.append(100 * share[s]), lo.append(100 * low[s]), hi.append(100 * high[s])
            series.append({"label": f"seat {s + 1}", "y": y, "lo": lo, "hi": hi})
        panels.append({"title": "Win share per seat", "ylabel": "win share (%)", "series": series,
                       "hline": 100 / views[0].players, "hline_label": "fair share 1/P"})
    for name in ("balance", "duration", "tie_rate", "decisiveness"):
        if any(v.metrics.get(name) is None for v in views):
            continue
        scale = 100 if name == "tie_rate" else 1
        unit = {"tie_rate": "% of games", "duration": views[0].unit, "balance": "1 = all seats equal",
                "decisiveness": "points"}[name]
        series = [{"label": name.replace("_", " ") if len(counts) == 1 else f"{c} players",
                   "y": [v.metrics[name]["value"] * scale for v in group],
                   "lo": [v.metrics[name]["lo"] * scale for v in group],
                   "hi": [v.metrics[name]["hi"] * scale for v in group]} for c, group in by_count.items()]
        panels.append({"title": views[0].metrics[name]["label"].split(" (")[0].capitalize(),
                       "ylabel": f"{name.replace('_', ' ')} ({unit})", "series": series, "hline": None})
    return distinct, panels


def sweep(spec, found, views):
    if not spec or len(spec.get("values", [])) != len(views):
        return None
    param, values = spec["param"], list(spec["values"])
    counts = list(dict.fromkeys(v.players for v in views))
    distinct, panels = _sweep_panels(views, values, counts)
    best = {b["index"] for b in found.get("sweep_best") or []}
    table = [{"value": val, "players": v.players, "n": f"{v.n:,}",
              "shares": " · ".join(pct(x) for x in v.shares()[0]), "balance": metric_cell(v.metrics.get("balance")),
              "duration": metric_cell(v.metrics.get("duration"), digits=1),
              "ties": metric_cell(v.metrics.get("tie_rate"), 100, 2), "best": i in best}
             for i, (val, v) in enumerate(zip(values, views))]
    return {"param": param, "figure": figures_multi.sweep_figure(param, distinct, panels, title=f"Sweep of {param}"),
            "table": table, "crossed": len(counts) > 1}


def tournament(found):
    from sim.multirun import LINEUP_MODES
    t = found.get("tournament")
    if not t:
        return None
    ratings = [{"rank": i + 1, "strategy": r.strategy, "elo": signed(r.elo, 0),
                "interval": f"[{signed(r.elo_lo, 0)}, {signed(r.elo_hi, 0)}]",
                "theta": f"{signed(r.rating, 3)} ± {1.96 * r.se:.3f}", "win_rate": pct(r.win_rate)}
               for i, r in enumerate(t["ratings"].itertuples())]
    standings = [{"strategy": r.strategy, "n": f"{r.seat_games:,}", "share": pct(r.win_share),
                  "interval": f"[{pct(r.win_lo)}, {pct(r.win_hi)}]"} for r in t["totals"].itertuples()]
    check = t.get("seat_check")
    seat_check = None
    if check and check["seats"]:
        seat_check = {"players": check["players"], "n": f"{check['n']:,}", "test": check["test"],
                      "p": format_p(check["p_value"]),
                      "rows": [{"seat": r["seat"] + 1, "share": pct(r["share"]),
                                "excess": f"{signed(r['excess_pp'])} [{signed(r['wilson_lo_pp'])}, "
                                          f"{signed(r['wilson_hi_pp'])}]",
                                "p": format_p(r["p_holm"]), "significant": r["significant"]} for r in check["seats"]]}
    return {"heatmap": figures_multi.heatmap_figure(t["strategies"], t["wins"], t["games"], t["lo"], t["hi"],
                                                    title="Pairwise results: row ranked better than column"),
            "ratings_figure": figures_multi.ratings_figure(t["ratings"]), "ratings": ratings,
            "standings": standings, "lineups": [{"label": x["label"], "n": f"{x['n']:,}"} for x in t["lineups"]],
            "seat_check": seat_check, "regularised": bool(t["ratings"]["regularised"].any()),
            "mode": t.get("mode"), "mode_words": LINEUP_MODES.get(t.get("mode")), "copies": bool(t.get("copies")),
            "per_lineup": f"{t['lineups'][0]['n']:,}" if t["lineups"] else "0"}


def skill(found):
    """The skill ladder (analysis/skill.py): per variant the index, dominance, ratings and a win-share heatmap;
    the paired differences of the index between variants."""
    k = found.get("skill")
    if not k:
        return None
    variants = []
    for v in k["variants"]:
        x, totals = v["index"], v["totals"].set_index("strategy")
        dominant = [r["strategy"] for r in v["dominance"] if r["dominates"]]
        variants.append({
            "variant": v["variant"], "strongest": v["strongest"] or "–",
            "share": f"{pct(x['share'])} [{pct(x['lo'])}, {pct(x['hi'])}]" if x else "–",
            "n": f"{x['n']:,}" if x else "–",
            "index": f"{x['index']:.2f} [{x['index_lo']:.2f}, {x['index_hi']:.2f}]" if x else "–",
            "dominant": ", ".join(dominant) or "none",
            "met": f"{int(v['met'][0, 1]):,}" if len(v["strategies"]) > 1 else "0",
            "ratings": [{"rank": i + 1, "strategy": r.strategy,
                         "elo": f"{signed(r.elo, 0)} [{signed(r.elo_lo, 0)}, {signed(r.elo_hi, 0)}]",
                         "share": f"{pct(totals.loc[r.strategy, 'win_share'])} [{pct(totals.loc[r.strategy, 'win_lo'])}"
                                  f", {pct(totals.loc[r.strategy, 'win_hi'])}]",
                         "n": f"{int(totals.loc[r.strategy, 'seat_games']):,}"}
                        for i, r in enumerate(v["ratings"].itertuples())],
            "dominance": [{"strategy": r["strategy"], "dominates": r["dominates"],
                           "verdict": "yes" if r["dominates"] else "no",
                           "against": "; ".join(f"{a['opponent']} {pct(a['share'])} [{pct(a['lo'])}, {pct(a['hi'])}] "
                                                f"({format_p(a['p_holm'])}, n = {a['n']:,})" for a in r["against"])}
                          for r in v["dominance"]],
            "heatmap": figures_multi.heatmap_figure(v["strategies"], v["share"] * v["games"], v["games"], v["lo"],
                                                    v["hi"], title=f"{v['variant']}: win share, row rung against "
                                                                   "column rung",
                                                    value_label="row's win share against column (%; shared "
                                                                "ranks half)")})
    differences = [{"variant": d["variant"], "reference": d["reference"], "diff": signed(d["diff"], 2),
                    "interval": f"[{signed(d['lo'], 2)}, {signed(d['hi'], 2)}]", "p": format_p(d["p_holm"]),
                    "significant": d["significant"], "changes": "yes" if d["significant"] else "no",
                    "batches": d["batches"]} for d in k["differences"]]
    first = k["variants"][0]
    return {"rungs": k["rungs"], "players": k["players"], "fair": pct(1 / k["players"]), "variants": variants,
            "differences": differences, "lineups": first["lineups"], "per_lineup": f"{first['per_lineup']:,}"}
