"""`sim list`, `sim plan`, `sim report`, `sim warm`: describing games, planning runs, reports of saved runs,
compiling kernels."""
from __future__ import annotations

import sys

import click

from sim.cli.group import UserError
from sim.cli.options import Count, Number, check_html_path, write_html


@click.command("list")
@click.argument("game", required=False)
def list_games(game):
    """Games with their player counts, variants, parameters and strategies (all, or one GAME)."""
    from sim.display import describe_game
    from sim.registry import all_games, get_game
    games = [get_game(game)] if game else all_games()
    for i, spec in enumerate(games):
        if i:
            click.echo()
        click.echo(describe_game(spec, full=bool(game)))


@click.command()
@click.option("--precision", type=Number(), required=True,
              help="Target 95% half-width of a win share (0.002 = ±0.2 pp).")
@click.argument("game", required=False)
@click.option("--players", "-p", type=Count(None), default=None,
              help="Seats (uses the fair share 1/P as the expected p).")
def plan(precision, game, players):
    """How many games a claimed precision needs: the worst case (p = 0.5) and, for a game, at the fair share."""
    from analysis.precision import games_needed
    if not 0 < precision < 0.5:
        raise UserError(f"--precision must be between 0 and 0.5 (a half-width), not {precision}")
    spec = None
    if game:  # every check before the first line is printed
        from sim.registry import get_game
        spec = get_game(game)
        p = players if players is not None else spec.default_players
        if not spec.min_players <= p <= spec.max_players:
            raise UserError(f"{spec.id} takes {spec.players_text}, not {p}")
    worst = games_needed(precision, 0.5)
    click.echo(f"±{precision:g} (95% Wilson half-width) needs {worst:,} games in the worst case (p = 0.5)")
    if spec is not None:
        fair = games_needed(precision, 1 / p)
        click.echo(f"{spec.id} with {p} players: {fair:,} games when every seat wins about 1/{p}; "
                   f"`sim run {spec.id} --players {p} --precision {precision:g}` stops as soon as it is reached")


@click.command()
@click.argument("run_dirs", nargs=-1, required=True)
@click.option("--output", "-o", required=True, help="The HTML file to write.")
def report(run_dirs, output):
    """Build the HTML report from saved run directories (run, compare, sweep or tournament) without re-running."""
    from sim.reporting import context_from_run_dirs, expand_run_dirs, load_run_dir
    path = check_html_path(output, option="-o")
    paths = expand_run_dirs(run_dirs)
    for run_dir in paths:
        load_run_dir(run_dir)  # one clear error for anything that is not a run directory
    write_html(path, context_from_run_dirs(paths))


# The games by cold-compile time, longest first (the AMD 2-core machine, twenty-third session, one job each:
# kruki 110 s, skrzaty 48 s, sen 44 s, kruki-wyscig 43 s, straw 20 s).
_COMPILE_ORDER = ("kruki", "skrzaty", "sen", "kruki-wyscig", "straw")


@click.command()
@click.argument("games", nargs=-1)
@click.option("--jobs", "-j", type=Count(), default=1, show_default=True,
              help="Compile this many games at once, each in its own process.")
def warm(games, jobs):
    """Compile every game's kernels (batch and trace) into the cache, so later runs and tests start at once."""
    import subprocess
    import time
    from concurrent.futures import ThreadPoolExecutor

    from sim.registry import canonical_id, game_ids
    ids = [canonical_id(g) for g in games] or game_ids()
    # Longest compiles first, so that parallel jobs end together: in the order given they left one job idle for
    # the last 36 s of a fresh clone's `sim warm --jobs 2` (142 s against 124 s).
    ids.sort(key=lambda g: _COMPILE_ORDER.index(g) if g in _COMPILE_ORDER else len(_COMPILE_ORDER))

    def compile_one(gid):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "sim", "warm-one", gid], capture_output=True, text=True)
        return gid, proc.returncode, time.perf_counter() - t, proc.stderr.strip().splitlines()[-1:] or [""]

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for gid, code, seconds, err in pool.map(compile_one, ids):
            if code:
                raise UserError(f"{gid}: compilation failed: {err[0]}")
            click.echo(f"{gid}: ready in {seconds:.1f} s")


@click.command("warm-one", hidden=True)
@click.argument("game")
def warm_one(game):
    """Compile one game's batch and trace kernels (used by `sim warm`)."""
    from sim import api
    from sim.registry import get_game
    spec = get_game(game)
    api.run(spec.id, 4, players=spec.default_players, strategies="random")
    api.trace(spec.id, 0, players=spec.default_players, strategies="random")
