"""Terminal output: the run summary tables and `sim list` descriptions. Win shares always carry interval and n."""
from __future__ import annotations

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


def print_summary(outcome):
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
    rows = [(s["seat"], s["strategy"], f"{s['games']:,}", _pct(s["win_share"]),
             f"[{_pct(s['win_lo'])}, {_pct(s['win_hi'])}]", f"{s['score_mean']:.2f} ± {s['score_se']:.2f}",
             f"{s['rank_mean']:.2f}") for s in summary["seats"]]
    click.echo(_table(["seat", "strategy", "games", "win share", "95% interval", "mean score ± s.e.", "mean rank"],
                      rows, ["<", "<", ">", ">", ">", ">", ">"]))
    if len(summary["strategies"]) > 1:
        click.echo()
        rows = [(s["strategy"], ",".join(map(str, s["seats"])), f"{s['seat_games']:,}", _pct(s["win_share"]),
                 f"[{_pct(s['win_lo'])}, {_pct(s['win_hi'])}]", f"{s['score_mean']:.2f} ± {s['score_se']:.2f}")
                for s in summary["strategies"]]
        click.echo(_table(["strategy", "seats", "seat-games", "win share", "95% interval", "mean score ± s.e."],
                          rows, ["<", "<", ">", ">", ">", ">"]))
    length = summary["length"]
    click.echo()
    click.echo(f"game length ({length['column']}): mean {length['mean']:.2f} ± {length['se']:.2f}, "
               f"median {length.get('q50', '-')}, 5–95% {length.get('q05', '-')}–{length.get('q95', '-')}, "
               f"range {length['min']}–{length['max']}")
    shown = [(k, v) for k, v in summary["ratios"].items() if not isinstance(v, list) and v is not None]
    if shown:
        click.echo("  ".join(f"{k} {v:.3g}" for k, v in shown))


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


def _config_rows(result):
    """Rows of the configuration table from a Comparison's `rows` (analysis output)."""
    rows = []
    for _, r in result.rows.iterrows():
        players = int(r["players"])
        shares = " · ".join(_interval_pct(r[f"win_share_s{s}"], r[f"win_lo_s{s}"], r[f"win_hi_s{s}"])
                            for s in range(1, players + 1))
        rows.append([r["label"], f"{int(r['games']):,}", shares,
                     f"{r['balance']:.3f} [{r['balance_lo']:.3f}, {r['balance_hi']:.3f}]",
                     f"{r['duration']:.1f} ± {(r['duration_hi'] - r['duration_lo']) / 2:.1f}",
                     f"{100 * r['tie_rate']:.1f}%"])
    return rows


def print_multi_table(result, first_header="configuration"):
    click.echo(_table([first_header, "games", "win share per seat [95% interval]", "balance [95%]",
                       "length ± 95%", "ties"], _config_rows(result), ["<", ">", "<", ">", ">", ">"]))


def print_comparison(result):
    """A sim.Comparison: the configurations, then paired differences with verdicts."""
    cfg = result.results[0].config
    click.echo(f"{cfg.game.title} · seed {cfg.seed} · {result.n:,} games per configuration "
               f"(the same seeds in every one)")
    click.echo()
    print_multi_table(result)
    df = result.paired
    if df is not None:
        from analysis.compare import verdict
        click.echo()
        click.echo(f"paired differences vs {result.labels[0]} (Holm-corrected over all rows):")
        rows = [[r["variant"], r["metric"], f"{r['diff']:+.4g}", f"[{r['lo']:+.4g}, {r['hi']:+.4g}]",
                 f"{r['p_holm']:.2g}", "yes" if r["significant"] else "no"] for _, r in df.iterrows()]
        click.echo(_table(["variant", "metric", "difference", "95% interval", "p (Holm)", "significant"], rows,
                          ["<", "<", ">", ">", ">", "<"]))
        click.echo()
        for line in verdict(df):
            click.echo(line)
    else:
        click.echo()
        click.echo("configurations differ in seat counts, so seats are not paired; compare the balance column")


def print_sweep(result):
    """A sim.Sweep: one row per value."""
    cfg = result.results[0].config
    click.echo(f"{cfg.game.title} · {cfg.players} players · seed {cfg.seed} · sweep of {result.param} over "
               f"{len(result.values)} values · {result.n:,} games each (same seeds)")
    click.echo()
    print_multi_table(result, "value")


def print_tournament(result):
    """A sim.Tournament: strategy totals, the pairwise matrix and Bradley–Terry ratings."""
    cfg = result.results[0].config
    names, wins, games = result.names, result.wins_matrix, result.games_matrix
    click.echo(f"{cfg.game.title} · {cfg.players} players · {len(result.results)} line-ups × "
               f"{result.results[0].aggregate.n:,} games (every seat rotation, same seeds)")
    click.echo()
    rows = [[r["strategy"], f"{int(r['seat_games']):,}", f"{100 * r['win_share']:.1f}%",
             f"[{100 * r['win_lo']:.1f}%, {100 * r['win_hi']:.1f}%]", f"{r['score_mean']:.2f}"]
            for _, r in result.strategies.iterrows()]
    click.echo(_table(["strategy", "seat-games", "win share", "95% interval", "mean score"], rows,
                      ["<", ">", ">", ">", ">"]))
    click.echo()
    header = ["beats →"] + [f"{i + 1}" for i in range(len(names))]
    rows = []
    for i, name in enumerate(names):
        cells = [f"{i + 1} {name}"]
        for j in range(len(names)):
            cells.append("—" if i == j or games[i, j] == 0 else f"{100 * wins[i, j] / games[i, j]:.1f}%")
        rows.append(cells)
    click.echo("pairwise: share of common games where the row strategy ranked strictly better than the column")
    click.echo(_table(header, rows))
    click.echo()
    click.echo("Bradley–Terry ratings (log-strength, 95% interval):")
    for _, r in result.ratings.iterrows():
        click.echo(f"  {r['strategy']}: {r['rating']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}]")
