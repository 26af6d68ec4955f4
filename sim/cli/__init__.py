"""The `sim` command line: thin click commands over the Python API (sim/api.py) and shared options.

    group.py     the `sim` group: one line and exit 2 for every user error
    options.py   option decorators shared by the commands (game, run, --data) and output-path checks
    run.py       sim run, sim trace
    multi.py     sim compare, sim sweep, sim tournament, sim skill
    info.py      sim list, sim plan, sim warm, sim report
    search.py    sim tune, sim tune-strategy

Commands import what they need inside their bodies, so `sim --help` and `sim list` load no kernel, Dask, pandas or
matplotlib.
"""
from sim.cli.group import main
from sim.cli.info import list_games, plan, report, warm, warm_one
from sim.cli.multi import compare, skill, sweep, tournament
from sim.cli.run import run, trace
from sim.cli.search import tune, tune_strategy

for _command in (list_games, run, trace, compare, sweep, tournament, skill, tune, tune_strategy, plan, report,
                 warm, warm_one):
    main.add_command(_command)

__all__ = ["main"]
