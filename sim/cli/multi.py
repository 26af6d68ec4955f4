"""`sim compare`, `sim sweep`, `sim tournament`: several configurations on the same games, through sim.api."""
from __future__ import annotations

import click

from sim.cli.group import UserError
from sim.cli.options import (Count, data_option, echo_reports, game_options, given_data, lineups_option, run_arguments,
                             run_options, seed_option, set_option, variant_option)


def _finish(result, opts, show):
    """The tables and verdict on the terminal (show(result, analysis)), the report lines, the run directory line;
    exit status 130 for an interrupted run."""
    if not opts["quiet"]:
        show(result, result.context["analysis"])
    echo_reports(result)
    click.echo(f"run directory: {result.run_dir}" + ("" if result.complete else "  (partial: interrupted)"))
    return 0 if result.complete else 130


@click.command()
@game_options(several_players=True)
@run_options
def compare(game, players, variants, sets, strategy, seed, **opts):
    """Compare variants (each --variant is one configuration: 'base', 'a', 'a+b') and/or seat counts
    (--players 2,3,4) on the same seeds; prints paired differences with Holm-corrected verdicts."""
    from sim import api
    from sim.display import print_comparison
    result = api.compare(game, opts["n"], players=players, variants=variants, strategies=strategy, sets=sets,
                         seed=seed, data=given_data(game), **run_arguments(opts, game, "compare"))
    return _finish(result, opts, print_comparison)


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
    result = api.sweep(game, name, raw, opts["n"], players=players, variants=variants, strategies=strategy,
                       sets=fixed, seed=seed, data=data, **run_arguments(opts, game, "sweep"))
    return _finish(result, opts, print_sweep)


@click.command()
@click.argument("game")
@click.option("--players", "-p", type=Count(None), default=None, help="Seats per game (default: the game's).")
@click.option("--strategies", required=True,
              help="Comma list of strategy specs, each once; every seat rotation of every line-up is played.")
@lineups_option()
@variant_option("Rule variants, as for run.")
@set_option("Rule or strategy parameters, as for run.")
@seed_option()
@data_option()
@run_options
def tournament(game, players, strategies, lineups, variants, sets, seed, **opts):
    """Round robin of strategies over every seat rotation (seat effects cancel): win shares, pairwise win matrix
    and Bradley–Terry ratings with intervals. Fewer strategies than seats: --lineups one-vs-rest (the default
    then) or all seat copies. N is the total over all line-ups."""
    from sim import api
    from sim.display import print_tournament
    result = api.tournament(game, strategies, opts["n"], players=players, lineups=lineups, variants=variants,
                            sets=sets, seed=seed, data=given_data(game), **run_arguments(opts, game, "tournament"))
    return _finish(result, opts, print_tournament)


@click.command()
@click.argument("game")
@click.option("--players", "-p", type=Count(None), default=None, help="Seats per game (default: the game's).")
@variant_option("A rule configuration whose ladder is played ('base' for none, 'a+b' combines); repeat for several: "
                "each is compared with base on the same seeds.")
@click.option("--tuned", multiple=True, metavar="SPEC|tune.json",
              help="A tuned rung above the shipped heuristics: a strategy spec (weighted:w1=0.3), or a tune.json / "
                   "`sim tune-strategy` run directory whose best.spec is used; repeatable.")
@set_option("Rule or strategy parameters, as for run.")
@seed_option()
@data_option()
@run_options
def skill(game, players, variants, tuned, sets, seed, **opts):
    """The skill ladder random -> every shipped heuristic -> tuned specs, each rung alone against copies of each
    other in every seat rotation: the win-share matrix, a luck-vs-skill index (0 = luck decides, 1 = skill does),
    whether one strategy dominates, and per variant whether it changes how much skill matters (docs/skill.md).
    N is the games of one variant, split evenly over the line-ups."""
    from sim import api
    from sim.display import print_skill
    result = api.skill(game, opts["n"], players=players, variants=variants, tuned=tuned, sets=sets, seed=seed,
                       data=given_data(game), **run_arguments(opts, game, "skill"))
    return _finish(result, opts, print_skill)
