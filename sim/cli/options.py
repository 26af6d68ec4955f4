"""Options shared by the commands: the game's (players, variants, --set, strategies, seed, --data), a run's (n,
out, threads, backend, ...), and the checks of output paths made before any game is played."""
from __future__ import annotations

import click

from sim.cli.group import UserError
from sim.spec import SpecError


def _apply(f, options):
    for option in reversed(options):
        f = option(f)
    return f


def game_options(f=None, *, several_players=False):
    """The options every command that plays games shares. With several_players, --players takes a comma list
    (compare); otherwise one count."""
    def decorate(f):
        if several_players:
            players = click.option("--players", "-p", default=None,
                                   help="Seat counts to compare, comma separated (2,3,4); default: the game's.")
        else:
            players = click.option("--players", "-p", type=Count(None), default=None,
                                   help="Number of seats (default: the game's).")
        return _apply(f, [
            click.argument("game"),
            players,
            variant_option(),
            set_option("A rule parameter, or STRATEGY.PARAM=VALUE for a strategy parameter; repeatable."),
            click.option("--strategy", "-s", default=None,
                         help="One spec for all seats or a comma list per seat: name, name:param=value, "
                              "FILE.py:FUNC."),
            seed_option("Run seed; game i always plays from stream (seed, i)."),
            data_option(),
        ])
    return decorate(f) if f is not None else decorate


def variant_option(help="A rule variant; repeat or join with '+' to combine (random-junk+lots-of-crows)."):
    return click.option("--variant", "-v", "variants", multiple=True, help=help)


def lineups_option():
    """--lineups distinct|one-vs-rest|all (sim.multirun.tournament_lineups); checked there, after the strategies."""
    return click.option("--lineups", default=None, metavar="distinct|one-vs-rest|all",
                        help="How line-ups are formed: distinct (combinations of different strategies), one-vs-rest "
                             "(each strategy alone against copies of each other one), all (every mix of at least "
                             "two strategies); default distinct when there are at least as many strategies as "
                             "seats, else one-vs-rest.")


def set_option(help):
    return click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=help)


def seed_option(help=None):
    return click.option("--seed", type=Count(0, MAX_INDEX), default=1, show_default=True, help=help)


def data_option():
    """--data TABLE=FILE: a game's editable data table (its names: `sim list GAME`) from the user's file."""
    return click.option("--data", "data", multiple=True, metavar="TABLE=FILE", expose_value=False,
                        callback=_remember_data,
                        help="Use FILE instead of the shipped data table TABLE (games with tables: sim list GAME); "
                             "repeatable.")


def _remember_data(ctx, param, value):
    ctx.meta["sim_data"] = tuple(value or ())
    return value


def data_paths_given(game):
    """--data TABLE=FILE values of the current command -> {table: file}, checked against the game's tables."""
    out = {}
    for item in click.get_current_context().meta.get("sim_data", ()):
        table, sep, path = item.partition("=")
        table, path = table.strip(), path.strip()
        if not sep or not table or not path:
            raise SpecError(f"malformed --data '{item}'; expected TABLE=FILE")
        if table not in game.data_tables:
            accepted = ", ".join(game.data_tables) or "none"
            raise SpecError(f"{game.id} has no data table '{table}'; its tables: {accepted}")
        out[table] = path
    return out


def given_data(game_name):
    """The current command's --data tables for GAME (looked up in the registry, which loads no kernel)."""
    from sim.registry import get_game
    return data_paths_given(get_game(game_name))


MAX_INDEX = 2**63 - 1  # seeds and game indices are signed 64-bit in the kernels


class Count(click.ParamType):
    """A whole number from `minimum` to `maximum` (games, trials, threads, seeds, indices; None: no bound), with a
    plain message for anything else."""
    name = "integer"

    def __init__(self, minimum=1, maximum=None):
        self.minimum, self.maximum = minimum, maximum

    def convert(self, value, param, ctx):
        try:
            number = int(str(value).replace("_", ""))
        except ValueError:
            self.fail(f"needs a whole number, not '{value}'", param, ctx)
        if self.minimum is not None and number < self.minimum:
            self.fail(f"must be at least {self.minimum}, not {number}", param, ctx)
        if self.maximum is not None and number > self.maximum:
            self.fail(f"must be at most {self.maximum:,} (2^63 − 1), not {number:,}" if self.maximum == MAX_INDEX
                      else f"must be at most {self.maximum:,}, not {number:,}", param, ctx)
        return number


class Number(click.ParamType):
    """A number of at least `minimum` (seconds, precisions), with a plain message for anything else."""
    name = "number"

    def __init__(self, minimum=None):
        self.minimum = minimum

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"needs a number, not '{value}'", param, ctx)
        if number != number:  # NaN
            self.fail(f"needs a number, not '{value}'", param, ctx)
        if self.minimum is not None and number < self.minimum:
            self.fail(f"must be at least {self.minimum:g}, not {number:g}", param, ctx)
        return number


def run_options(f):
    """Options of every command that runs many games (run, compare, sweep, tournament)."""
    return _apply(f, [
        click.option("--n", "n", type=Count(), default=100_000, show_default=True,
                     help="Games to play (per configuration for compare and sweep)."),
        click.option("--out", "-o", default=None,
                     help="Run directory (default runs/<time>-<game>); must be new or empty."),
        click.option("--threads", type=Count(), default=None,
                     help="Worker threads (default: all cores)."),
        click.option("--chunk-size", type=Count(), default=None,
                     help="Games per kernel call (default: adaptive, ~0.25 s each); never changes results."),
        click.option("--html", default=None,
                     help="Also write a copy of the HTML report to this file (a new path)."),
        click.option("--no-report", "no_report", is_flag=True,
                     help="Do not write report.html into the run directory."),
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                     help="Run the chunks on an existing Dask distributed cluster."),
        click.option("--workers", type=Count(), default=None,
                     help="Start a local Dask cluster with this many worker processes and run on it."),
        click.option("--connect-timeout", type=Number(0.1), default=10.0, show_default=True,
                     help="Seconds to wait for --scheduler before giving up."),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar and no tables; only the run directory."),
    ])


def run_arguments(opts, game_id, kind=None):
    """The API keyword arguments of run_options' values; the run directory defaults to runs/<time>-<game>."""
    from sim.registry import canonical_id
    from sim.results import default_run_dir
    if opts["scheduler"] and opts["workers"]:
        raise UserError("give --scheduler (an existing cluster) or --workers (a local one), not both")
    game_id = canonical_id(game_id)
    if opts["threads"]:
        from sim.engine import available_threads
        if opts["threads"] > available_threads():
            click.echo(f"note: --threads {opts['threads']} asked; this machine runs {available_threads()} (its "
                       "cores), and the manifest says so", err=True)
    return {"out": opts["out"] or default_run_dir(game_id if kind is None else f"{game_id}-{kind}"),
            "threads": opts["threads"], "chunk_size": opts["chunk_size"], "scheduler": opts["scheduler"],
            "workers": opts["workers"], "connect_timeout": opts["connect_timeout"], "progress": not opts["quiet"],
            "report": not opts["no_report"], "html": check_html_path(opts["html"])}


def check_html_path(path, option="--html"):
    """sim.reporting.check_report_path with the option's name in its message."""
    from sim.reporting import check_report_path
    return check_report_path(path, option)


def write_html(path, context):
    from sim.reporting import write_context
    write_context(context, [path])
    click.echo(f"report: {path}")


def echo_reports(result):
    """A line per HTML report the API wrote."""
    for path in result.report_files:
        click.echo(f"report: {path}")
