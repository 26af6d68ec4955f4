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
    lines = [f"{spec.id} — {spec.title} (rules v{spec.version}), {spec.min_players}–{spec.max_players} players, "
             f"default {spec.default_players}" + (f"; aliases: {', '.join(spec.aliases)}" if spec.aliases else "")]
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
