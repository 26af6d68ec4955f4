"""The `sim` command line: thin click commands that parse, validate, call the engine and print.

Every user error (unknown game/variant/strategy/parameter, bad player count, bad --n, unwritable --out, ...) ends
as ONE line on stderr and exit status 2; nothing already written is touched.
"""
from __future__ import annotations

import sys
import warnings

import click

from sim.spec import SpecError

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


class UserError(click.ClickException):
    exit_code = 2


def _fail(message):
    raise UserError(message)


# --------------------------------------------------------------------------------------------- shared options

def parse_sets(values):
    """--set NAME=VALUE (rule parameter, integer) or STRATEGY.PARAM=VALUE (strategy parameter, number)."""
    rule_sets, strategy_sets = {}, {}
    for item in values:
        name, sep, raw = item.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name or not raw:
            raise SpecError(f"malformed --set '{item}'; expected NAME=VALUE or STRATEGY.PARAM=VALUE")
        if "." in name:
            strategy, _, param = name.rpartition(".")
            try:
                strategy_sets.setdefault(strategy, {})[param] = float(raw)
            except ValueError:
                raise SpecError(f"--set {name} needs a number, not '{raw}'") from None
        else:
            try:
                rule_sets[name] = int(raw)
            except ValueError:
                raise SpecError(f"--set {name} needs an integer, not '{raw}'") from None
    return rule_sets, strategy_sets


def game_options(f=None, *, several_players=False):
    """The options every command that plays games shares. With several_players, --players takes a comma list
    (compare); otherwise one count."""
    def decorate(f):
        if several_players:
            players = click.option("--players", "-p", default=None,
                                   help="Seat counts to compare, comma separated (2,3,4); default: the game's.")
        else:
            players = click.option("--players", "-p", type=int, default=None,
                                   help="Number of seats (default: the game's).")
        options = [
            click.argument("game"),
            players,
            click.option("--variant", "-v", "variants", multiple=True,
                         help="A rule variant; repeat or join with '+' to combine (random-junk+lots-of-crows)."),
            click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                         help="A rule parameter, or STRATEGY.PARAM=VALUE for a strategy parameter; repeatable."),
            click.option("--strategy", "-s", default=None,
                         help="One spec for all seats or a comma list per seat: name, name:param=value, "
                              "FILE.py:FUNC."),
            click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True,
                         help="Run seed; game i always plays from stream (seed, i)."),
            data_option(),
        ]
        for option in reversed(options):
            f = option(f)
        return f
    return decorate(f) if f is not None else decorate


def data_option():
    """--data TABLE=FILE: a game's editable data table (its names: `sim list GAME`) from the user's file."""
    return click.option("--data", "data", multiple=True, metavar="TABLE=FILE", expose_value=False,
                        callback=_remember_data,
                        help="Use FILE instead of the shipped data table TABLE (games with tables: sim list GAME); "
                             "repeatable.")


def _remember_data(ctx, param, value):
    ctx.meta["sim_data"] = tuple(value or ())
    return value


def with_data_options(f):
    return data_option()(f)


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


def split_variants(items):
    """--variant values -> one tuple of variant names ('a+b' and repeats combine; 'base' means none)."""
    return tuple(v.strip() for item in items for v in item.split("+") if v.strip() and v.strip() != "base")


def build_config(game_name, players, variants, sets, strategy, seed):
    from sim.engine import configure
    from sim.registry import get_game
    variant_list = split_variants(variants)
    rule_sets, strategy_sets = parse_sets(sets)
    game = get_game(game_name)
    return configure(game, players, strategy, variant_list, rule_sets, seed, strategy_sets, data_paths_given(game))


# --------------------------------------------------------------------------------------------- the group

class SimGroup(click.Group):
    """Turns every user error into one line on stderr and exit status 2."""

    def main(self, args=None, prog_name=None, **extra):
        try:
            rv = super().main(args=args, prog_name=prog_name or "sim", standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("aborted", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            click.echo(f"error: {_one_line(exc.format_message())}", err=True)
            sys.exit(2)
        except SpecError as exc:
            click.echo(f"error: {_one_line(str(exc))}", err=True)
            sys.exit(2)
        if isinstance(rv, int) and rv:
            sys.exit(rv)


def _one_line(text):
    return " ".join(str(text).split())


@click.group(cls=SimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option("0.1.0", prog_name="sim")
def main():
    """Monte Carlo balance analysis for tabletop games.

    \b
    sim list                                   games, variants, parameters, strategies
    sim run straw --n 1000000 --players 4      play games, print the summary, write a run directory
    sim trace straw --seed 7 --game 12345      replay one game of a run, turn by turn
    """


from sim import analysis_commands, commands  # noqa: E402,F401  (register the commands on `main`)
