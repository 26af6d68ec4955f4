"""`sim compare`, `sim sweep`, `sim tournament`, `sim plan`, `sim report`: many configurations, one analysis."""
from __future__ import annotations

import click

from sim.cli import (UserError, data_paths_given, game_options, main, parse_sets, split_variants,
                     with_data_options)
from sim.commands import _check_html_path, _write_html, backend_for, run_options
from sim.spec import SpecError


def _parse_players(text, game):
    if text is None:
        return [game.default_players]
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise SpecError(f"--players takes seat counts separated by commas, not '{text}'") from None
    if not counts:
        raise SpecError(f"--players takes seat counts separated by commas, not '{text}'")
    return counts


def _run_multi(kind, configs, labels, n, opts, command):
    """Run the configurations together (in-process or on a cluster) and save them under one directory."""
    from sim.engine import EngineError
    from sim.multirun import MultiResult, run_together
    from sim.results import remove_if_empty
    from sim.runner import Progress, run_dir_for, save_multi
    parent = run_dir_for(opts["out"], configs[0].game.id, kind)
    bar = Progress(n * len(configs), not opts["quiet"])
    on_chunk = lambda count: bar.update(count * len(configs))  # noqa: E731
    extra = None
    try:
        with backend_for(opts["scheduler"], opts["workers"], opts["connect_timeout"]) as backend:
            if backend is None:
                multi = run_together(configs, n, threads=opts["threads"], chunk_size=opts["chunk_size"],
                                     on_chunk=on_chunk)
            else:
                multi = MultiResult(*backend.run(configs, n, chunk_size=opts["chunk_size"], on_chunk=on_chunk))
                extra = backend.describe()
    except (EngineError, SpecError) as exc:
        remove_if_empty(parent)
        raise SpecError(str(exc)) from None
    finally:
        bar.close()
    saved = save_multi(parent, labels, multi, n, kind, command, extra)
    return parent, multi, saved


@main.command()
@game_options(several_players=True)
@run_options
def compare(game, players, variants, sets, strategy, seed, **opts):
    """Compare variants (each --variant is one configuration: 'base', 'a', 'a+b') and/or seat counts
    (--players 2,3,4) on the same seeds; prints paired differences with Holm-corrected verdicts."""
    n, html, quiet = opts["n"], opts["html"], opts["quiet"]
    from sim.display import print_comparison
    from sim.engine import configure
    from sim.registry import get_game
    spec = get_game(game)
    counts = _parse_players(players, spec)
    entries = [split_variants([v]) for v in variants] or [()]
    rule_sets, strategy_sets = parse_sets(sets)
    configs, labels = [], []
    for p in counts:
        for entry in entries:
            configs.append(configure(spec, p, strategy, entry, rule_sets, seed, strategy_sets,
                                     data_paths_given(spec)))
            name = "+".join(entry) or "base"
            labels.append(name if len(counts) == 1 else (f"{p}p" if len(entries) == 1 else f"{p}p {name}"))
    if len(configs) < 2:
        raise UserError("compare needs at least two configurations: several --variant or --players 2,3,...")
    if len(set(labels)) != len(labels):
        raise UserError(f"compare lists the same configuration twice: {', '.join(labels)}")
    html_path = _check_html_path(html)
    command = _reproduce(spec.id, "compare", counts, variants, sets, strategy, seed, n)
    parent, multi, saved = _run_multi("compare", configs, labels, n, opts, command)
    paired = _paired_dict(labels, multi)
    if not quiet:
        print_comparison(labels, multi, paired)
    if html_path:
        from sim.reporting import multi_context
        _write_html(html_path, multi_context("compare", f"{spec.title}: {' vs '.join(labels)}", command, saved,
                                             multi, comparison={"paired": paired} if paired else None))
    click.echo(f"run directory: {parent}")


def _paired_dict(labels, multi):
    variants = {label: sums.as_paired() for label, sums in zip(labels, multi.paired) if sums is not None}
    return {"baseline": labels[0], "variants": variants} if variants else None


def _reproduce(game_id, command, counts, variants, sets, strategy, seed, n, extra=()):
    from sim.results import _quote
    parts = ["sim", command, game_id]
    if counts:
        parts += ["--players", ",".join(map(str, counts))]
    for v in variants:
        parts += ["--variant", v]
    for s in sets:
        parts += ["--set", s]
    if strategy:
        parts += ["--strategy", strategy]
    parts += ["--seed", str(seed), "--n", str(n), *extra]
    return " ".join(_quote(p) for p in parts)


@main.command()
@game_options
@run_options
def sweep(game, players, variants, sets, strategy, seed, **opts):
    """Sweep one parameter over a range (--set break_at=40:60:2, or memory.call_at=4:16:2 for a strategy
    parameter, or a list a,b,c); every value plays the same seeds."""
    n, html, quiet = opts["n"], opts["html"], opts["quiet"]
    from sim.display import print_sweep
    from sim.engine import configure
    from sim.multirun import parse_range
    from sim.registry import get_game
    spec = get_game(game)
    swept = [s for s in sets if "=" in s and (":" in s.split("=", 1)[1] or "," in s.split("=", 1)[1])]
    if len(swept) != 1:
        raise UserError("sweep needs exactly one --set NAME=START:STOP:STEP (or NAME=a,b,c); "
                        f"got {len(swept)}")
    name, _, raw = swept[0].partition("=")
    values = parse_range(raw)
    fixed = [s for s in sets if s != swept[0]]
    configs, labels = [], []
    for value in values:
        rule_sets, strategy_sets = parse_sets(fixed + [f"{name}={value}"])
        configs.append(configure(spec, players, strategy, split_variants(variants), rule_sets, seed, strategy_sets,
                                 data_paths_given(spec)))
        labels.append(f"{name}={value}")
    html_path = _check_html_path(html)
    command = _reproduce(spec.id, "sweep", [players] if players else [], variants, sets, strategy, seed, n)
    parent, multi, saved = _run_multi("sweep", configs, labels, n, opts, command)
    if not quiet:
        print_sweep(name, values, multi)
    if html_path:
        from sim.reporting import multi_context
        _write_html(html_path, multi_context("sweep", f"{spec.title}: sweep of {name}", command, saved, multi,
                                             sweep={"param": name, "values": values}))
    click.echo(f"run directory: {parent}")


@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, default=None, help="Seats per game (default: the game's).")
@click.option("--strategies", required=True,
              help="Comma list of strategy specs; every seat rotation of every line-up is played.")
@click.option("--variant", "-v", "variants", multiple=True, help="Rule variants, as for run.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Rule or strategy parameters, as for run.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@with_data_options
@run_options
def tournament(game, players, strategies, variants, sets, seed, **opts):
    """Round robin of strategies over every seat rotation (seat effects cancel): win shares, pairwise win matrix
    and Bradley–Terry ratings with intervals. N is the total over all line-ups."""
    n, html, quiet = opts["n"], opts["html"], opts["quiet"]
    from sim.display import print_tournament
    from sim.engine import configure
    from sim.multirun import tournament_lineups, tournament_matrix
    from sim.registry import get_game
    from sim.seats import split_specs
    spec = get_game(game)
    players = players if players is not None else spec.default_players
    rule_sets, strategy_sets = parse_sets(sets)
    names = split_specs(strategies)
    lineups = tournament_lineups(names, players)
    per_lineup = max(1, n // len(lineups))
    configs = [configure(spec, players, ",".join(lineup), split_variants(variants), rule_sets, seed, strategy_sets,
                         data_paths_given(spec))
               for lineup in lineups]
    labels = [" | ".join(s.label for s in c.seats) for c in configs]
    canonical = []
    for c in configs:
        for s in c.seats:
            if s.label not in canonical:
                canonical.append(s.label)
    html_path = _check_html_path(html)
    command = _reproduce(spec.id, "tournament", [players], variants, sets, None, seed, n,
                         ["--strategies", strategies])
    parent, multi, saved = _run_multi("tournament", configs, labels, per_lineup, opts, command)
    wins, games = tournament_matrix(multi.results, canonical)
    if not quiet:
        print_tournament(canonical, multi, wins, games)
    if html_path:
        from sim.reporting import multi_context
        _write_html(html_path, multi_context(
            "tournament", f"{spec.title}: tournament of {len(canonical)} strategies", command, saved, multi,
            tournament={"strategies": canonical, "wins": wins.tolist(), "games": games.tolist()}))
    click.echo(f"run directory: {parent}")


@main.command()
@click.option("--precision", type=float, required=True, help="Target 95% half-width of a win share (0.002 = ±0.2 pp).")
@click.argument("game", required=False)
@click.option("--players", "-p", type=int, default=None, help="Seats (uses the fair share 1/P as the expected p).")
def plan(precision, game, players):
    """How many games a claimed precision needs: the worst case (p = 0.5) and, for a game, at the fair share."""
    from analysis.precision import games_needed
    if not 0 < precision < 0.5:
        raise UserError(f"--precision must be between 0 and 0.5 (a half-width), not {precision}")
    worst = games_needed(precision, 0.5)
    click.echo(f"±{precision:g} (95% Wilson half-width) needs {worst:,} games in the worst case (p = 0.5)")
    if game:
        from sim.registry import get_game
        spec = get_game(game)
        p = players if players is not None else spec.default_players
        if not spec.min_players <= p <= spec.max_players:
            raise UserError(f"{spec.id} takes {spec.min_players}-{spec.max_players} players, not {p}")
        fair = games_needed(precision, 1 / p)
        click.echo(f"{spec.id} with {p} players: {fair:,} games when every seat wins about 1/{p}; "
                   f"`sim run {spec.id} --players {p} --precision {precision:g}` stops as soon as it is reached")


@main.command()
@click.argument("run_dirs", nargs=-1, required=True)
@click.option("--output", "-o", required=True, help="The HTML file to write.")
def report(run_dirs, output):
    """Build the HTML report from saved run directories (run, compare, sweep or tournament) without re-running."""
    from reports.html import context_from_run_dirs
    from sim.reporting import expand_run_dirs, load_run_dir
    paths = expand_run_dirs(run_dirs)
    for path in paths:
        load_run_dir(path)  # one clear error for anything that is not a run directory
    path = _check_html_path(output)
    _write_html(path, context_from_run_dirs(paths))
