"""`sim run` and `sim trace`: one configuration, through sim.api."""
from __future__ import annotations

import json

import click

from sim.cli.group import UserError
from sim.cli.options import MAX_INDEX, Count, Number, echo_reports, game_options, given_data, run_arguments, run_options


@click.command()
@game_options
@run_options
@click.option("--save-games", is_flag=True, help="Write one row per game to games.parquet.")
@click.option("--precision", type=Number(), default=None,
              help="Play until every seat's 95% win-share half-width is at most this (e.g. 0.002).")
@click.option("--max-n", type=Count(), default=100_000_000, show_default=True,
              help="Cap on games for --precision.")
def run(game, players, variants, sets, strategy, seed, save_games, precision, max_n, **opts):
    """Play N games of GAME and print win shares (Wilson 95%), scores and game length per seat and strategy."""
    from sim import api
    from sim.display import print_summary
    report = api.run(game, opts["n"], players=players, variants=variants, strategies=strategy, sets=sets, seed=seed,
                     data=given_data(game), save_games=save_games, precision=precision, max_n=max_n,
                     **run_arguments(opts, game))
    if not opts["quiet"]:
        print_summary(report.outcome, report.context["analysis"])
    if report.precision and not report.precision["precision_reached"] and report.complete:
        click.echo(f"precision not reached: every seat's 95% half-width ≤ {precision:g} needs more than "
                   f"--max-n {max_n:,} games; stopped there")
    echo_reports(report)
    click.echo(f"run directory: {report.run_dir}" + ("" if report.complete else "  (partial: interrupted)"))
    return 0 if report.complete else 130


@click.command()
@game_options
@click.option("--game", "game_index", type=Count(0, MAX_INDEX), required=True, metavar="INDEX",
              help="Index of the game within the run (0-based, below 2^63).")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text", show_default=True)
def trace(game, players, variants, sets, strategy, seed, game_index, fmt):
    """Replay one game turn by turn: the same options as `sim run` give the same game INDEX (--game) of that run."""
    from sim import api
    replay = api.trace(game, game_index, players=players, variants=variants, strategies=strategy, sets=sets,
                       seed=seed, data=given_data(game))
    if fmt == "jsonl":
        for ev in replay.events:
            click.echo(json.dumps(ev))
        click.echo(json.dumps({"kind": "result", **replay.result}))
    else:
        for line in replay.lines():
            click.echo(line)
    if replay.fault:
        raise UserError(replay.fault)
