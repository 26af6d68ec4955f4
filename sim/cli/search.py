"""`sim tune` and `sim tune-strategy`: Optuna searches over rule or strategy parameters (docs/tune.md), through
sim.api_search."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import sys

import click

from sim.cli.options import (Count, Number, check_html_path, data_option, given_data, seed_option, set_option,
                             variant_option)
from sim.search_space import TARGET_HELP

_TARGETS_HELP = "; ".join(
    f"{name}{'=VALUE' if required else ('[=VALUE]' if takes else '')}: {text}"
    for name, (text, takes, required) in TARGET_HELP.items())


def _search_options(f):
    for option in reversed([
        click.argument("game"),
        click.option("--players", "-p", type=Count(None), default=None, help="Number of seats (default: the game's)."),
        variant_option("Rule variants held fixed during the search; repeat or join with '+'."),
        set_option("Rule parameters held fixed (NAME=VALUE); repeatable."),
        seed_option("Seed of the search games (every trial plays games 0..n-1 of it); validation uses fresh ones."),
        data_option(),
        click.option("--trials", type=Count(None), default=40, show_default=True, help="Trials to add to the study."),
        click.option("--n", "n", type=Count(), default=10_000, show_default=True,
                     help="Games per trial (per seat rotation for tune-strategy)."),
        click.option("--validate", type=Count(None), default=None,
                     help="Games per validated configuration on fresh seeds (default: --n)."),
        click.option("--storage", default=None, metavar="URL",
                     help="Optuna storage (sqlite:///study.db) to keep and resume the study; needs --study."),
        click.option("--study", default=None, metavar="NAME", help="Study name inside --storage."),
        click.option("--out", "-o", default=None, help="Folder for tune.json and report.html (new or empty)."),
        click.option("--html", default=None, help="Also write the HTML report to this file."),
        click.option("--threads", type=Count(), default=None, help="Worker threads (default: all)."),
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                     help="Play each trial's games on an existing Dask cluster."),
        click.option("--workers", type=Count(), default=None,
                     help="Start a local Dask cluster with this many worker processes."),
        click.option("--connect-timeout", type=Number(0.1), default=10.0, show_default=True),
        click.option("--quiet", "-q", is_flag=True, help="Print only the output folder."),
    ]):
        f = option(f)
    return f


def _out_dir(out, game, kind):
    from sim.registry import canonical_id
    from sim.results import default_run_dir
    return out or default_run_dir(f"{canonical_id(game)}-{kind}")


def _progress(quiet, trials):
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    bar = tqdm(total=trials, unit=" trials", leave=False, dynamic_ncols=True)
    return bar


def _finish(result, html, quiet, length_unit):
    from reports.tune import format_metric, verdict
    content = result.content
    if html:  # a copy of the report the API wrote into the study's folder (the command line always gives one)
        shutil.copyfile(os.path.join(result.out_dir, "report.html"), html)
        click.echo(f"report: {html}")
    if not quiet:
        labels = content["targets"]
        rows = [("default parameters" if content.get("kind") == "tune-strategy" else "current rules",
                 content.get("current"))]
        rows += [(c.get("spec") or ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                                           for k, v in c["params"].items()), c["targets"])
                 for c in content.get("validated", [])]
        if content.get("current"):
            click.echo(f"validated on {content['validate']:,} fresh games each (seed {content['validation_seed']}):")
            width = max(len(name) for name, _ in rows)
            for name, targets in rows:
                cells = "   ".join(f"{label} {format_metric(label, targets[label], length_unit)}" for label in labels)
                mark = "*" if content.get("best") and targets is content["best"]["targets"] else " "
                click.echo(f" {mark} {name:<{width}}   {cells}")
        for sentence in verdict(content, length_unit):
            click.echo(re.sub(r"</?b>", "", sentence))
    click.echo(f"tune directory: {result.out_dir}" + ("" if result.complete else "  (partial: interrupted)"))
    return 0 if result.complete else 130


_FLAGS = (("players", "--players"), ("strategy", "--strategy"), ("strategies", "--strategy"),
          ("against", "--against"), ("variants", "--variant"), ("sets", "--set"), ("params", "--param"),
          ("targets", "--target"), ("n", "--n"), ("seed", "--seed"), ("validate", "--validate"),
          ("storage", "--storage"), ("study", "--study"))


def _command(kind, game, trials, kw):
    """The command that runs this study again (games and trials are the same; with --storage it continues it)."""
    parts = ["sim", kind, game]
    for key, flag in _FLAGS:
        value = kw.get(key)
        for item in (value if isinstance(value, (list, tuple)) else [value]):
            if item is not None:
                parts += [flag, str(item)]
    parts += ["--trials", str(trials)]
    return " ".join(shlex.quote(p) for p in parts)


def _run(api_call, game, kind, quiet, html, out, trials, **kw):
    from sim.registry import get_game
    html = check_html_path(html)
    bar = _progress(quiet, trials)
    command = _command(kind, game, trials, kw)
    try:
        result = api_call(game, out=_out_dir(out, game, kind), trials=trials, data=given_data(game),
                          command=command, on_trial=(lambda t: bar.update(1)) if bar else None, **kw)
    finally:
        if bar is not None:
            bar.close()
    return _finish(result, html, quiet, get_game(game).length_column)


@click.command(help="Search rule parameters toward balance targets with Optuna: paired trials on the same games, "
                    "early stopping of clearly worse trials, the best validated on fresh games beside the current "
                    f"rules (docs/tune.md). Targets — {_TARGETS_HELP}.")
@_search_options
@click.option("--param", "params", multiple=True, required=True, metavar="NAME=LO:HI[:STEP]",
              help="A rule parameter (integers within its range) or STRATEGY.PARAM of a seat's strategy; repeatable.")
@click.option("--target", "targets", multiple=True, required=True, metavar="TARGET",
              help="What to aim at (see above); several give a multi-objective search and its Pareto set.")
@click.option("--strategy", "-s", default=None, help="The seats' strategies, as for run (default: the game's).")
def tune(game, players, variants, sets, seed, params, targets, strategy, trials, n, validate, storage, study, out,
         html, threads, scheduler, workers, connect_timeout, quiet):
    from sim.api_search import tune as api_tune
    return _run(api_tune, game, "tune", quiet, html, out, trials, params=list(params), targets=list(targets),
                n=n, players=players, variants=variants, strategies=strategy, sets=list(sets), seed=seed,
                validate=validate, storage=storage, study=study, threads=threads, scheduler=scheduler,
                workers=workers, connect_timeout=connect_timeout)


@click.command("tune-strategy",
               help="Search one strategy's parameters for its win share against a field, over every seat rotation "
                    "and on the same games (Optuna TPE); the best is validated on fresh games beside the default "
                    "parameters, and printed as a spec usable in --strategy.")
@_search_options
@click.option("--strategy", "-s", "strategy", required=True, help="The strategy to tune (a name or FILE.py:FUNC).")
@click.option("--against", default=None, metavar="SPEC|self",
              help="The other seats: one spec, a comma list of P-1, or 'self' (the strategy at its defaults); "
                   "default: the game's default strategy.")
@click.option("--param", "params", multiple=True, metavar="PARAM=LO:HI[:STEP]",
              help="A searched range; other parameters search default ± max(1, |default|).")
def tune_strategy(game, players, variants, sets, seed, strategy, against, params, trials, n, validate, storage,
                  study, out, html, threads, scheduler, workers, connect_timeout, quiet):
    from sim.api_search import tune_strategy as api_tune_strategy
    return _run(api_tune_strategy, game, "tune-strategy", quiet, html, out, trials, strategy=strategy,
                against=against, params=list(params), n=n, players=players, variants=variants, sets=list(sets),
                seed=seed, validate=validate, storage=storage, study=study, threads=threads, scheduler=scheduler,
                workers=workers, connect_timeout=connect_timeout)
