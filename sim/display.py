"""Terminal output: the run summary tables and `sim list` descriptions. Win shares always carry interval and n.
The tables and the verdict print the analysis a report context carries (sim/reporting.py); nothing is computed here.
Analysis modules are imported inside the functions, so `sim list` does not load pandas."""
from __future__ import annotations

import math

import click


def _pct(x):
    return f"{100 * x:5.1f}%"


def _table(headers, rows, align=None):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    align = align or ["<"] + [">"] * (len(headers) - 1)
    fmt = "  ".join(f"{{:{a}{w}}}" for a, w in zip(align, widths))
    lines = [fmt.format(*headers), fmt.format(*("-" * w for w in widths))]
    lines += [fmt.format(*(str(c) for c in r)) for r in rows]
    return "\n".join(lines)


def print_verdict(found):
    """The verdict sentences the HTML report opens with (analysis.verdict), under the tables."""
    click.echo()
    click.echo("verdict:")
    for i, sentence in enumerate(found["verdict"]):
        click.echo(f"  {i + 1}. {sentence['text']}")


LONG_LABEL = 40  # characters: a longer strategy spec is shown by its name and a letter, spelled out under the table


def _letter(i):
    return chr(ord("A") + i) if i < 26 else f"Z{i - 25}"


def _long_labels(labels):
    """The labels longer than LONG_LABEL, each once, in order of first appearance: the k-th gets _letter(k)."""
    return list(dict.fromkeys(label for label in labels if len(label) > LONG_LABEL))


def short_strategy_labels(labels):
    """{label: what a table shows}: a spec longer than LONG_LABEL becomes 'name (A)', 'name (B)', ... in order of
    first appearance; shorter ones stay as they are. key_lines(...) spells the letters out."""
    letters = {label: _letter(k) for k, label in enumerate(_long_labels(labels))}
    return {label: f"{label.split(':')[0]} ({letters[label]})" if label in letters else label for label in labels}


def key_lines(shown):
    return [f"{_letter(k)} = {label}" for k, label in enumerate(_long_labels(shown))]


def _seat_table(summary, advantage, shown):
    from analysis.seats import format_p
    from analysis.verdict import signed
    fair = 1 / len(summary["seats"])
    tests = advantage["seats"] or [None] * len(summary["seats"])
    rows = [(s["seat"] + 1, shown[s["strategy"]], f"{s['games']:,}", _pct(s["win_share"]),
             f"[{_pct(s['win_lo'])}, {_pct(s['win_hi'])}]", _pct(fair),
             f"{signed(t['excess_pp'])} [{signed(t['wilson_lo_pp'])}, {signed(t['wilson_hi_pp'])}]" if t else "–",
             format_p(t["p_holm"]) + (" *" if t["significant"] else "") if t else "–",
             f"{s['score_mean']:.2f} ± {s['score_se']:.2f}", f"{s['rank_mean']:.2f}")
            for s, t in zip(summary["seats"], tests)]
    return _table(["seat", "strategy", "games", "win share", "95% interval", "fair share", "excess (pp)", "p",
                   "mean score ± s.e.", "mean rank"], rows, ["<", "<", ">", ">", ">", ">", ">", "<", ">", ">"])


def print_summary(outcome, found):
    """One run: the seat table (with the fair share and the seat test), strategies, game length, the verdict.
    found: analysis.findings.analyse of the run (the report context's "analysis")."""
    result, summary = outcome.result, outcome.summary
    cfg = result.config
    n = summary["games"]
    variants = "+".join(cfg.variants) or "base"
    click.echo(f"{cfg.game.title} · {cfg.players} players · variant {variants} · seed {cfg.seed} · "
               f"{n:,} games in {result.seconds:.1f} s ({result.games_per_second:,.0f} games/s, "
               f"{result.threads} threads)")
    if cfg.sets:
        click.echo("rules set: " + ", ".join(f"{k}={v}" for k, v in cfg.sets.items()))
    click.echo()
    shown = short_strategy_labels([s["strategy"] for s in summary["seats"]])
    click.echo(_seat_table(summary, found["runs"][0]["advantage"], shown))
    click.echo("excess: win share − fair share in percentage points [95% interval]; p: "
               + ("exact binomial test" if cfg.players == 2 else "per seat, Holm-corrected") + "; * significant")
    for line in key_lines(shown):
        click.echo(f"strategy {line}")
    if len(summary["strategies"]) > 1:
        click.echo()
        rows = [(shown[s["strategy"]], ",".join(str(x + 1) for x in s["seats"]), f"{s['seat_games']:,}",
                 _pct(s["win_share"]), f"[{_pct(s['win_lo'])}, {_pct(s['win_hi'])}]",
                 f"{s['score_mean']:.2f} ± {s['score_se']:.2f}") for s in summary["strategies"]]
        click.echo(_table(["strategy", "seats", "seat-games", "win share", "95% interval", "mean score ± s.e."],
                          rows, ["<", "<", ">", ">", ">", ">"]))
    length = summary["length"]
    click.echo()
    click.echo(f"game length ({length['column']}): mean {length['mean']:.2f} ± {length['se']:.2f}, "
               f"median {length.get('q50', '-')}, 5–95% {length.get('q05', '-')}–{length.get('q95', '-')}, "
               f"range {length['min']}–{length['max']}")
    shown = [(k, v) for k, v in summary["ratios"].items() if not isinstance(v, list) and v is not None]
    if shown:
        click.echo("  ".join(f"{k} {_plain(v)}" for k, v in shown))
    print_verdict(found)


def _plain(x):
    """A ratio without scientific notation: three significant figures, at most six decimals."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    digits = max(0, min(6, 2 - int(math.floor(math.log10(abs(x))))))
    return f"{x:,.{digits}f}"


def describe_game(spec, full=False):
    seats = (f"{spec.min_players} players" if spec.min_players == spec.max_players else
             f"{spec.min_players}–{spec.max_players} players, default {spec.default_players}")
    lines = [f"{spec.id} — {spec.title} (rules v{spec.version}), {seats}"
             + (f"; aliases: {', '.join(spec.aliases)}" if spec.aliases else "")]
    lines.append(f"  default strategy: {spec.default_strategy}")
    strategies = ", ".join(s.name + (f" ({', '.join(f'{k}={v:g}' for k, v in s.params.items())})" if s.params
                                     else "") for s in spec.strategies)
    lines.append(f"  strategies: {strategies}")
    lines.append(f"  variants: {', '.join(v.name for v in spec.variants) or 'none'}")
    if full:
        for v in spec.variants:
            lines.append(f"    {v.name}: {v.help}")
        lines.append("  parameters (--set NAME=VALUE):")
        for p in spec.params:
            lines.append(f"    {p.name} = {p.default}  [{p.lo}..{p.hi}]  {p.help}")
        for s in spec.strategies:
            lines.append(f"    strategy {s.name}: {s.help}")
    else:
        lines.append(f"  parameters: {', '.join(f'{p.name}={p.default}' for p in spec.params)}")
    if spec.docs:
        lines.append(f"  docs: {spec.docs}")
    return "\n".join(lines)


def _interval_pct(share, lo, hi):
    return f"{100 * share:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _config_rows(result, found):
    """Rows of the configuration table: the summaries' seat shares and the analysis' balance metrics."""
    rows = []
    for label, summary, a in zip(result.labels, result.summaries, found["runs"]):
        m = a["metrics"]
        shares = " · ".join(_interval_pct(s["win_share"], s["win_lo"], s["win_hi"]) for s in summary["seats"])
        bal, dur, tie = m.get("balance"), m.get("duration"), m.get("tie_rate")
        rows.append([label, f"{summary['games']:,}", shares,
                     f"{bal['value']:.3f} [{bal['lo']:.3f}, {bal['hi']:.3f}]" if bal else "–",
                     f"{dur['value']:.1f} ± {(dur['hi'] - dur['lo']) / 2:.1f}" if dur else "–",
                     f"{100 * tie['value']:.1f}%" if tie else "–"])
    return rows


def print_multi_table(result, found, first_header="configuration"):
    click.echo(_table([first_header, "games", "win share per seat [95% interval]", "balance [95%]",
                       "length ± 95%", "ties"], _config_rows(result, found), ["<", ">", "<", ">", ">", ">"]))


def _paired_rows(df, length_unit):
    from analysis.compare import describe_metric
    from analysis.seats import format_p
    from analysis.verdict import signed
    rows = []
    for _, r in df.iterrows():
        words, scale, unit = describe_metric(r["metric"])
        if r["metric"] == "length":
            unit = length_unit
        d = 2 if scale == 100 or r["metric"] in ("length", "margin") else 3
        rows.append([r["variant"], r["baseline"], words.removeprefix("the "),
                     f"{signed(r['diff'] * scale, d)} {'pp' if scale == 100 else unit}".rstrip(),
                     f"[{signed(r['lo'] * scale, d)}, {signed(r['hi'] * scale, d)}]", format_p(r["p_holm"]),
                     "yes" if r["significant"] else "no"])
    return rows


def print_crossed(found):
    """The crossed design's table: each variant against the base at its own player count."""
    from analysis.seats import format_p
    from analysis.verdict import signed
    rows = [[r["family"], r["players"], r["baseline"], " · ".join(signed(d) for d in r["diff_pp"]),
             format_p(r["min_p"]), "yes" if r["changes_advantage"] else "no"] for r in found["crossed"]]
    click.echo()
    click.echo("each variant or value vs the first configuration at the same player count (seat win-share change in "
               "percentage points):")
    click.echo(_table(["variant", "players", "paired with", "change per seat (pp)", "smallest p (Holm)",
                       "changes seat advantage"], rows, ["<", ">", "<", "<", ">", "<"]))


def print_comparison(result, found):
    """A sim.Comparison: the configurations, paired differences (each vs the base of its player count), the
    crossed table when player counts are crossed with variants, and the verdict. found: the context's analysis."""
    cfg = result.results[0].config
    click.echo(f"{cfg.game.title} · seed {cfg.seed} · {result.n:,} games per configuration "
               f"(the same seeds in every one)")
    click.echo()
    print_multi_table(result, found)
    df = found["paired"]
    if df is not None:
        click.echo()
        bases = list(dict.fromkeys(df["baseline"]))
        click.echo(f"paired differences vs {', '.join(bases)}"
                   + (" (each configuration against the base of its player count)" if len(bases) > 1 else "")
                   + ", Holm-corrected over all rows:")
        click.echo(_table(["variant", "vs", "metric", "difference", "95% interval", "p (Holm)", "significant"],
                          _paired_rows(df, cfg.game.length_column), ["<", "<", "<", ">", ">", ">", "<"]))
        if len({r["players"] for r in found["crossed"]}) > 1:
            print_crossed(found)
    else:
        click.echo()
        click.echo("configurations differ in seat counts, so seats are not paired; compare the balance column")
    print_verdict(found)


def print_sweep(result, found):
    """A sim.Sweep: one row per value, then the verdict."""
    cfg = result.results[0].config
    counts = list(dict.fromkeys(r.config.players for r in result.results))
    click.echo(f"{cfg.game.title} · {', '.join(map(str, counts))} players · seed {cfg.seed} · sweep of "
               f"{result.param} over {len(set(map(str, result.values)))} values · {result.n:,} games each "
               "(same seeds)")
    click.echo()
    print_multi_table(result, found, "value")
    if len({r["players"] for r in found["crossed"]}) > 1:
        print_crossed(found)
    print_verdict(found)


def pairwise_table(t, shown):
    """The pairwise matrix: row strategy ranked strictly better than the column one, share [95% interval];
    `shown`: short_strategy_labels of its strategies."""
    names, wins, games, lo, hi = t["strategies"], t["wins"], t["games"], t["lo"], t["hi"]
    header = ["beats →"] + [f"{i + 1}" for i in range(len(names))]
    rows = []
    for i, name in enumerate(names):
        cells = [f"{i + 1} {shown[name]}"]
        for j in range(len(names)):
            cells.append("—" if i == j or games[i, j] == 0 else
                         f"{100 * wins[i, j] / games[i, j]:.1f}% [{100 * lo[i, j]:.1f}, {100 * hi[i, j]:.1f}]")
        rows.append(cells)
    return _table(header, rows)


def print_tournament(result, found):
    """A sim.Tournament: strategy totals, the pairwise matrix, Bradley–Terry ratings (from the analysis), verdict."""
    from analysis.verdict import signed
    from sim.multirun import LINEUP_MODES
    cfg = result.results[0].config
    t = found["tournament"]
    mode = t.get("mode")
    click.echo(f"{cfg.game.title} · {cfg.players} players · {len(result.results)} line-ups"
               + (f" ({mode}: {LINEUP_MODES[mode]})" if mode in LINEUP_MODES else "")
               + f" × {result.results[0].aggregate.n:,} games per line-up (every seat rotation, same seeds)")
    click.echo()
    shown = short_strategy_labels(t["strategies"])
    rows = [[shown[r["strategy"]], f"{int(r['seat_games']):,}", f"{100 * r['win_share']:.1f}%",
             f"[{100 * r['win_lo']:.1f}%, {100 * r['win_hi']:.1f}%]", f"{r['score_mean']:.2f}"]
            for _, r in t["totals"].iterrows()]
    click.echo(_table(["strategy", "seat-games", "win share", "95% interval", "mean score"], rows,
                      ["<", ">", ">", ">", ">"]))
    for line in key_lines(shown):
        click.echo(f"strategy {line}")
    click.echo()
    met = t["met"]
    pairs = [met[i, j] for i in range(len(t["strategies"])) for j in range(len(t["strategies"])) if i != j]
    click.echo("pairwise: share of comparisons where the row strategy ranked strictly better than the column [95% "
               f"Wilson interval on the {min(pairs):,}" + (f"–{max(pairs):,}" if max(pairs) != min(pairs) else "")
               + " games both played]" + ("; a copy against a copy of itself is not counted" if t.get("copies")
                                          else ""))
    click.echo(pairwise_table(t, shown))
    click.echo()
    click.echo("Bradley–Terry ratings (Elo scale, 95% interval):")
    for _, r in t["ratings"].iterrows():
        click.echo(f"  {shown[r['strategy']]}: {signed(r['elo'], 0)} "
                   f"[{signed(r['elo_lo'], 0)}, {signed(r['elo_hi'], 0)}]")
    print_verdict(found)


def _share_cell(share, lo, hi):
    return f"{100 * share:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def print_skill(result, found):
    """A sim.Skill: per variant the ladder (ratings, win shares), the pairwise win-share matrix, the index and
    dominance; the paired index differences; the verdict. found: the context's analysis (its "skill")."""
    from analysis.skill import dominance_phrase, index_phrase
    from analysis.verdict import signed
    k = found["skill"]
    cfg = result.results[0].config
    shown = short_strategy_labels(k["rungs"])
    click.echo(f"{cfg.game.title} · {k['players']} players · ladder {' → '.join(shown[r] for r in k['rungs'])} · "
               f"{k['variants'][0]['lineups']} line-ups (each rung alone against copies of each other, every seat "
               f"rotation) × {k['variants'][0]['per_lineup']:,} games per line-up, same seeds")
    for line in key_lines(shown):
        click.echo(f"rung {line}")
    for v in k["variants"]:
        click.echo()
        click.echo(f"variant {v['variant']}:")
        totals = v["totals"].set_index("strategy")
        rows = [[shown[r.strategy], f"{signed(r.elo, 0)} [{signed(r.elo_lo, 0)}, {signed(r.elo_hi, 0)}]",
                 _share_cell(totals.loc[r.strategy, "win_share"], totals.loc[r.strategy, "win_lo"],
                             totals.loc[r.strategy, "win_hi"]), f"{int(totals.loc[r.strategy, 'seat_games']):,}"]
                for r in v["ratings"].itertuples()]
        click.echo(_table(["rung", "rating (Elo) [95%]", "win share [95%]", "seat-games"], rows,
                          ["<", ">", ">", ">"]))
        names = v["strategies"]
        rows = [[f"{i + 1} {shown[a]}"]
                + ["—" if i == j else _share_cell(v["share"][i, j], v["lo"][i, j], v["hi"][i, j])
                   for j in range(len(names))] for i, a in enumerate(names)]
        click.echo(f"pairwise win share of the row rung against the column rung (shared ranks half) [95% Wilson "
                   f"interval on the {int(v['met'][0, 1]):,} games each pair played]:")
        click.echo(_table(["vs →"] + [str(i + 1) for i in range(len(names))], rows))
        if v["index"]:
            click.echo(index_phrase(v, k["players"]) + ".")
        click.echo(dominance_phrase(v) + ".")
    if k["differences"]:
        from analysis.seats import format_p
        click.echo()
        click.echo(f"change of the index vs {k['reference']} (paired on the same seeds, batch means, Holm over the "
                   "variants):")
        rows = [[d["variant"], f"{signed(d['diff'], 2)}", f"[{signed(d['lo'], 2)}, {signed(d['hi'], 2)}]",
                 format_p(d["p_holm"]), "yes" if d["significant"] else "no"] for d in k["differences"]]
        click.echo(_table(["variant", "index change", "95% interval", "p (Holm)", "changes how much skill matters"],
                          rows, ["<", ">", ">", ">", "<"]))
    click.echo("luck-vs-skill index: the strongest rung's win share alone against P − 1 random seats, minus the fair "
               "share 1/P, divided by 1 − 1/P (0 = luck decides, 1 = skill decides; docs/skill.md)")
    print_verdict(found)
