"""The example reports in docs/examples/ (`make examples`): one small run and one skill ladder per game, and a
compare, a sweep, a tournament and a skill ladder with a variant, all from fixed seeds (the same games and numbers
every time) and small n (quick to make).

    python -m reports.examples [FOLDER]        # default docs/examples
    python -m reports.examples --only skill-straw.html     # one multi-configuration example alone
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FOLDER = os.path.join(os.path.dirname(HERE), "docs", "examples")
SEED = 1
RUN_N = 4000
MULTI_N = 2000
GENERATED = "with make examples"  # instead of the time stamp: the examples' numbers do not depend on when

# (file name, what it shows, how it is made); every game gets its run and skill examples from example_runs() and
# skill_examples()
MULTI = [
    ("compare-straw-players-deck-b.html", "Straw: base vs deck-b at 2 and 3 players (a crossed compare)",
     "compare", dict(players=[2, 3], variants=["base", "deck-b"])),
    ("sweep-straw-break_at.html", "Straw: break_at swept from 40 to 60 at 3 players",
     "sweep", dict(param="break_at", values="40:60:5", players=3)),
    ("tournament-straw.html", "Straw: four strategies in a 2-player round robin",
     "tournament", dict(strategies="random,safe,straw-hunter,weighted", players=2)),
    ("skill-straw.html", "Straw: the skill ladder at 2 players, base against deck-b",
     "skill", dict(players=2, variants=["base", "deck-b"])),
]
SKILL_N = 4000  # games of a game's own skill ladder example, over all its line-ups


def skill_examples():
    """(file name, what it shows, game id): every game's skill ladder at its default player count."""
    from sim.registry import game_ids
    return [(f"skill-{game_id}-ladder.html", f"{game_id}: the skill ladder at the default player count", game_id)
            for game_id in game_ids()]


def example_runs():
    from sim.registry import game_ids
    return [(f"run-{game_id}.html", f"{game_id}: {RUN_N:,} games at the default player count", game_id)
            for game_id in game_ids()]


def _write(context, folder, name):
    from reports.html import write_report
    context["generated"] = GENERATED
    path = os.path.join(folder, name)
    write_report(context, path)
    print(f"  {path}")
    return path


def make(folder=DEFAULT_FOLDER):
    import sim
    os.makedirs(folder, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory(prefix="sim-examples-") as scratch:
        for name, _, game_id in example_runs():
            report = sim.run(game_id, RUN_N, seed=SEED, out=os.path.join(scratch, name), report=False)
            written.append(_write(report.context, folder, name))
        for name, _, game_id in skill_examples():
            written.append(_write(skill_example(game_id, os.path.join(scratch, name)), folder, name))
        for name, _, kind, options in MULTI:
            written.append(_write(multi_example(kind, options, os.path.join(scratch, name)), folder, name))
    return written


def skill_example(game_id, out):
    """The report context of a game's own skill ladder example."""
    import sim
    return sim.skill(game_id, SKILL_N, seed=SEED, out=out, report=False).context


def multi_example(kind, options, out):
    """The report context of a compare, sweep, tournament or skill example."""
    import sim
    options = dict(options)
    if kind == "compare":
        result = sim.compare("straw", MULTI_N, seed=SEED, out=out, report=False, **options)
    elif kind == "sweep":
        result = sim.sweep("straw", options.pop("param"), options.pop("values"), MULTI_N, seed=SEED, out=out,
                           report=False, **options)
    elif kind == "skill":
        result = sim.skill("straw", MULTI_N, seed=SEED, out=out, report=False, **options)
    else:
        result = sim.tournament("straw", n=MULTI_N, seed=SEED, out=out, report=False, **options)
    return result.context


def make_one(name, folder=DEFAULT_FOLDER):
    """One of the multi-configuration or skill examples (by file name) alone: quicker than remaking all of them."""
    with tempfile.TemporaryDirectory(prefix="sim-examples-") as scratch:
        out = os.path.join(scratch, name)
        game_id = next((game for file, _, game in skill_examples() if file == name), None)
        if game_id is not None:
            return _write(skill_example(game_id, out), folder, name)
        kind, options = next((kind, options) for file, _, kind, options in MULTI if file == name)
        return _write(multi_example(kind, options, out), folder, name)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=DEFAULT_FOLDER)
    ap.add_argument("--only", choices=[name for name, *_ in MULTI] + [name for name, *_ in skill_examples()],
                    help="remake this one example only")
    args = ap.parse_args(argv)
    print(f"writing example reports to {args.folder}:")
    if args.only:
        make_one(args.only, args.folder)
    else:
        make(args.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
