"""`sim list`, `sim run`, `sim trace`, `sim warm`: thin commands over the engine, results and analysis."""
from __future__ import annotations

import json
import os
import sys

import click

from sim.cli import UserError, build_config, game_options, main


@main.command("list")
@click.argument("game", required=False)
def list_games(game):
    """Games with their player counts, variants, parameters and strategies (all, or one GAME)."""
    from sim.registry import all_games, get_game
    from sim.display import describe_game
    games = [get_game(game)] if game else all_games()
    for i, spec in enumerate(games):
        if i:
            click.echo()
        click.echo(describe_game(spec, full=bool(game)))


def run_options(f):
    """Options of every command that runs many games (run, compare, sweep, tournament)."""
    options = [
        click.option("--n", "n", type=click.IntRange(min=1), default=100_000, show_default=True,
                     help="Games to play (per configuration for compare and sweep)."),
        click.option("--out", "-o", default=None,
                     help="Run directory (default runs/<time>-<game>); must be new or empty."),
        click.option("--threads", type=click.IntRange(min=1), default=None,
                     help="Worker threads (default: all cores)."),
        click.option("--chunk-size", type=click.IntRange(min=1), default=None,
                     help="Games per kernel call (default: adaptive, ~0.25 s each); never changes results."),
        click.option("--html", default=None, help="Also write a self-contained HTML report to this file."),
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                     help="Run the chunks on an existing Dask distributed cluster."),
        click.option("--workers", type=click.IntRange(min=1), default=None,
                     help="Start a local Dask cluster with this many worker processes and run on it."),
        click.option("--connect-timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
                     help="Seconds to wait for --scheduler before giving up."),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar and no tables; only the run directory."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


@main.command()
@game_options
@run_options
@click.option("--save-games", is_flag=True, help="Write one row per game to games.parquet.")
@click.option("--precision", type=float, default=None,
              help="Play until every seat's 95% win-share half-width is at most this (e.g. 0.002).")
@click.option("--max-n", type=click.IntRange(min=1), default=100_000_000, show_default=True,
              help="Cap on games for --precision.")
def run(game, players, variants, sets, strategy, seed, n, out, threads, chunk_size, html, scheduler, workers,
        connect_timeout, quiet, save_games, precision, max_n):
    """Play N games of GAME and print win shares (Wilson 95%), scores and game length per seat and strategy."""
    from sim.display import print_summary
    from sim.runner import execute_run
    config = build_config(game, players, variants, sets, strategy, seed)
    should_stop = None
    if precision is not None:
        from analysis.precision import largest_half_width
        if not 0 < precision < 0.5:
            raise UserError(f"--precision must be between 0 and 0.5 (a half-width), not {precision}")
        n = max_n
        should_stop = lambda agg: agg.n >= 1000 and largest_half_width(agg) <= precision  # noqa: E731
    html_path = _check_html_path(html)
    with backend_for(scheduler, workers, connect_timeout) as backend:
        outcome = execute_run(config, n, out=out, save_games=save_games, threads=threads, chunk_size=chunk_size,
                              progress=not quiet, should_stop=should_stop, backend=backend,
                              extra_manifest={"precision": precision} if precision is not None else None)
    if not quiet:
        print_summary(outcome)
    if html_path:
        from sim.reporting import run_context
        _write_html(html_path, run_context(outcome))
    click.echo(f"run directory: {outcome.run_dir}" + ("" if outcome.result.complete else "  (partial: interrupted)"))
    return 0 if outcome.result.complete else 130


class _NoBackend:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def backend_for(scheduler, workers, connect_timeout):
    """In-process by default; a Dask cluster with --scheduler (existing) or --workers (started here)."""
    if scheduler and workers:
        raise UserError("give --scheduler (an existing cluster) or --workers (a local one), not both")
    if not scheduler and not workers:
        return _NoBackend()
    from sim.distributed import ClusterBackend
    return ClusterBackend(scheduler, workers, connect_timeout)


def _check_html_path(path):
    """Fail before running when the report could not be written."""
    if path is None:
        return None
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UserError(f"--html {path} is a directory; give a file name")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot write --html {path}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"cannot write --html {path}: the folder is not writable")
    return path


def _write_html(path, context):
    from reports.html import write_report
    write_report(context, path)
    click.echo(f"report: {path}")


@main.command()
@game_options
@click.option("--game", "game_index", type=click.IntRange(min=0), required=True,
              help="Index of the game within the run (0-based).")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text", show_default=True)
def trace(game, players, variants, sets, strategy, seed, game_index, fmt):
    """Replay one game turn by turn: the same options as `sim run` give the same game GAME_INDEX of that run."""
    from sim.tracing import trace_game
    config = build_config(game, players, variants, sets, strategy, seed)
    events, record = trace_game(config, game_index)
    if fmt == "jsonl":
        for ev in events:
            click.echo(json.dumps(ev))
        click.echo(json.dumps({"kind": "result", **record}))
    else:
        click.echo(f"{config.game.title}: game {game_index} of seed {seed}, {config.players} players")
        for ev in events:
            click.echo(ev["text"])
        for s in range(config.players):
            click.echo(f"seat {s} ({config.seats[s].label}): score {record['score'][s]}, rank {record['rank'][s]}, "
                       f"win share {record['win'][s]:g}")


@main.command()
@click.argument("games", nargs=-1)
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Compile this many games at once, each in its own process.")
def warm(games, jobs):
    """Compile every game's kernels (batch and trace) into the cache, so later runs and tests start at once."""
    import subprocess
    import time
    from concurrent.futures import ThreadPoolExecutor
    from sim.registry import canonical_id, game_ids
    ids = [canonical_id(g) for g in games] or game_ids()

    def compile_one(gid):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "sim", "warm-one", gid], capture_output=True, text=True)
        return gid, proc.returncode, time.perf_counter() - t, proc.stderr.strip().splitlines()[-1:] or [""]

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for gid, code, seconds, err in pool.map(compile_one, ids):
            if code:
                raise UserError(f"{gid}: compilation failed: {err[0]}")
            click.echo(f"{gid}: ready in {seconds:.1f} s")


@main.command("warm-one", hidden=True)
@click.argument("game")
def warm_one(game):
    """Compile one game's batch and trace kernels (used by `sim warm`)."""
    from sim.engine import configure, run_games
    from sim.registry import get_game
    from sim.tracing import trace_game
    spec = get_game(game)
    config = configure(spec, spec.default_players, "random")
    run_games(config, 4)
    trace_game(config, 0)
