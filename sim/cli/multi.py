"""`sim compare`, `sim sweep`, `sim tournament`: several configurations on the same games, through sim.api."""
from __future__ import annotations

import click

from sim.cli.group import UserError
from sim.cli.options import (Count, check_html_path, data_option, game_options, given_data, needs_context,
                             run_arguments, run_options, seed_option, set_option, variant_option, write_reports)


def _finish(result, opts, html_path, title, show, **sections):
    """The tables and verdict on the terminal (show(result, analysis)), report.html in the run directory and the
    --html copy, from one report context; the run directory line; exit status 130 for an interrupted run."""
    outcome = result.outcome
    if needs_context(opts, html_path):
        from sim.reporting import outcome_context
        context = outcome_context(outcome, title, **sections)
        if not opts["quiet"]:
            show(result, context["analysis"])
        write_reports(context, outcome.run_dir, html_path, opts["no_report"])
    complete = all(r.complete for r in outcome.multi.results)
    click.echo(f"run directory: {outcome.run_dir}" + ("" if complete else "  (partial: interrupted)"))
    return 0 if complete else 130


@click.command()
@game_options(several_players=True)
@run_options
def compare(game, players, variants, sets, strategy, seed, **opts):
    """Compare variants (each --variant is one configuration: 'base', 'a', 'a+b') and/or seat counts
    (--players 2,3,4) on the same seeds; prints paired differences with Holm-corrected verdicts."""
    from sim import api
    from sim.display import print_comparison
    data = given_data(game)
    html_path = check_html_path(opts["html"])
    result = api.compare(game, opts["n"], players=players, variants=variants, strategies=strategy, sets=sets,
                         seed=seed, data=data, **run_arguments(opts, game, "compare"))
    spec = result.results[0].config.game
    return _finish(result, opts, html_path, f"{spec.title}: {' vs '.join(result.labels)}", print_comparison,
                   comparison={"paired": result.paired_sums} if result.paired_sums else None)


def _swept(sets):
    """The one --set NAME=START:STOP:STEP (or NAME=a,b,c) of a sweep -> (name, range text, the other sets)."""
    swept = [s for s in sets if "=" in s and (":" in s.split("=", 1)[1] or "," in s.split("=", 1)[1])]
    if len(swept) != 1:
        raise UserError("sweep needs exactly one --set NAME=START:STOP:STEP (or NAME=a,b,c); "
                        f"got {len(swept)}")
    name, _, raw = swept[0].partition("=")
    return name, raw, [s for s in sets if s != swept[0]]


@click.command()
@game_options(several_players=True)
@run_options
def sweep(game, players, variants, sets, strategy, seed, **opts):
    """Sweep one parameter over a range (--set break_at=40:60:2, or memory.call_at=4:16:2 for a strategy
    parameter, or a list a,b,c); every value plays the same seeds. --players 2,3,4 crosses the values with seat
    counts, each value paired with the first value at the same count."""
    from sim import api
    from sim.display import print_sweep
    data = given_data(game)
    name, raw, fixed = _swept(sets)
    html_path = check_html_path(opts["html"])
    result = api.sweep(game, name, raw, opts["n"], players=players, variants=variants, strategies=strategy,
                       sets=fixed, seed=seed, data=data, **run_arguments(opts, game, "sweep"))
    spec = result.results[0].config.game
    return _finish(result, opts, html_path, f"{spec.title}: sweep of {name}", print_sweep,
                   comparison={"paired": result.paired_sums} if result.paired_sums else None,
                   sweep={"param": name, "values": result.values})


@click.command()
@click.argument("game")
@click.option("--players", "-p", type=Count(None), default=None, help="Seats per game (default: the game's).")
@click.option("--strategies", required=True,
              help="Comma list of strategy specs; every seat rotation of every line-up is played.")
@variant_option("Rule variants, as for run.")
@set_option("Rule or strategy parameters, as for run.")
@seed_option()
@data_option()
@run_options
def tournament(game, players, strategies, variants, sets, seed, **opts):
    """Round robin of strategies over every seat rotation (seat effects cancel): win shares, pairwise win matrix
    and Bradley–Terry ratings with intervals. N is the total over all line-ups."""
    from sim import api
    from sim.display import print_tournament
    data = given_data(game)
    html_path = check_html_path(opts["html"])
    result = api.tournament(game, strategies, opts["n"], players=players, variants=variants, sets=sets, seed=seed,
                            data=data, **run_arguments(opts, game, "tournament"))
    spec = result.results[0].config.game
    return _finish(result, opts, html_path, f"{spec.title}: tournament of {len(result.names)} strategies",
                   print_tournament, tournament={"strategies": result.names, "wins": result.wins_matrix.tolist(),
                                                 "games": result.games_matrix.tolist()})
