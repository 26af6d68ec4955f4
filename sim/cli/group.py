"""The `sim` command group: every user error ends as ONE line on stderr and exit status 2; Ctrl-C exits 130.

Commands raise SpecError (sim.SimError) or UserError; only this group turns them into exit statuses, so nothing below
the command line calls sys.exit.
"""
from __future__ import annotations

import sys
import warnings

import click

from sim.spec import SpecError

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


_NO_ARGS = getattr(click.exceptions, "NoArgsIsHelpError", ())  # click >= 8.2; older click prints the help itself


class UserError(click.ClickException):
    exit_code = 2


class SimGroup(click.Group):
    """Turns every user error into one line on stderr and exit status 2."""

    def resolve_command(self, ctx, args):
        """An unknown command is one line that suggests only commands a person may use: hidden ones (the compile
        worker) still run, but no "did you mean" names them."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None and not ctx.resilient_parsing:
            import difflib
            close = difflib.get_close_matches(name, [n for n, c in self.commands.items() if not c.hidden])
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise click.UsageError(f"No such command {name!r}.{hint}", ctx)
        return super().resolve_command(ctx, args)

    def main(self, args=None, prog_name=None, **extra):
        try:
            rv = super().main(args=args, prog_name=prog_name or "sim", standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("aborted", err=True)
            sys.exit(130)
        except _NO_ARGS as exc:  # a bare `sim`: the help as it reads, not an error
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.ClickException as exc:
            click.echo(f"error: {one_line(exc.format_message())}", err=True)
            sys.exit(2)
        except SpecError as exc:
            click.echo(f"error: {one_line(str(exc))}", err=True)
            sys.exit(2)
        if isinstance(rv, int) and rv:
            sys.exit(rv)


def one_line(text):
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
