"""The searching part of the public API: sim.tune (rule parameters toward balance targets) and sim.tune_strategy
(a strategy's parameters for its win share against a field). Both run on sim/search.py's one machinery."""
from __future__ import annotations

import os

from sim.api import _backend, _game, _set_items, _strategy_text, parse_sets, split_variants
from sim.spec import SpecError as SimError


class TuneResult:
    """A finished (or interrupted) study: `content` is exactly tune.json; `trials` a DataFrame, one row a trial."""

    def __init__(self, content, out_dir=None):
        self.content = content
        self.out_dir = out_dir

    @property
    def best(self):
        return self.content.get("best")

    @property
    def current(self):
        return self.content.get("current")

    @property
    def pareto(self):
        return self.content.get("pareto") or []

    @property
    def complete(self):
        return self.content["status"] == "complete"

    @property
    def trials(self):
        """number, state, games, one column per parameter, and per target its value, lo, hi and loss."""
        import pandas as pd
        rows = []
        for t in self.content["trials"]:
            row = {"number": t["number"], "state": t["state"], "games": t["games"], **t["params"]}
            if "spec" in t:
                row["spec"] = t["spec"]
            for label, m in t["targets"].items():
                row.update({f"{label}": m["value"], f"{label}_lo": m["lo"], f"{label}_hi": m["hi"],
                            f"{label}_loss": m["loss"]})
            rows.append(row)
        return pd.DataFrame(rows)

    def __repr__(self):
        best = self.best
        what = f"best {best.get('spec') or best['params']}" if best else "no validated best"
        return f"<TuneResult {self.content['game']} {len(self.content['trials'])} trials, {what}>"


def _check_out(out):
    """A study's output folder: new, or empty (as run directories)."""
    if out is None:
        return None
    from sim.results import prepare_run_dir
    return prepare_run_dir(out)


def _study(search, trials, validate, storage, study, out, threads, scheduler, workers, connect_timeout,
           command, on_trial):
    from sim.search import Interrupted, backend_player, run_study, write_tune_json
    if validate is not None and validate < 1:
        raise SimError(f"--validate must be at least 1, not {validate}")
    if storage and not study:
        raise SimError("--storage needs --study NAME (the study to create or continue)")
    out_dir = _check_out(out)
    with _backend(threads, scheduler, workers, connect_timeout) as backend:
        try:
            content = run_study(search, trials, validate=validate, storage=storage, name=study,
                                play=backend_player(backend), on_trial=on_trial, command=command)
        except Interrupted as stop:
            content = stop.result
        content.update(backend.describe())
    if out_dir is not None:
        write_tune_json(out_dir, content)
        from reports.tune import render_tune
        with open(os.path.join(out_dir, "report.html"), "w", encoding="utf-8") as f:
            f.write(render_tune(content, length_unit=search.game.length_column))
    return TuneResult(content, out_dir)


def tune(game, params, targets, *, trials=40, n=10_000, players=None, variants=(), strategies=None, sets=None,
         seed=1, data=None, validate=None, storage=None, study=None, out=None, threads=None, scheduler=None,
         workers=None, connect_timeout=None, command="", on_trial=None):
    """Search rule (or strategy) parameters toward balance targets (docs/tune.md).

    params: ["NAME=LO:HI[:STEP]", ...]; targets: ["seat-gap", "length=60", ...]. Every trial plays games 0..n−1
    of `seed`; the best are validated on `validate` fresh games (default n) beside the current rules."""
    from sim.engine import configure
    from sim.search import Search
    from sim.search_space import parse_param, parse_target
    spec = _game(game)
    rule_sets, strategy_sets = parse_sets(_set_items(sets))
    strategy_text = _strategy_text(strategies)
    base = configure(spec, players, strategy_text, split_variants(variants), rule_sets, seed, strategy_sets,
                     dict(data or {}))  # checks every fixed choice before the search starts
    seat_strategies = tuple(dict.fromkeys(s.name for s in base.seats))
    space = [parse_param(spec, p, seat_strategies) for p in ([params] if isinstance(params, str) else params)]
    if not space:
        raise SimError("tune needs at least one --param NAME=LO:HI[:STEP]")
    names = [r.name for r in space]
    if len(set(names)) != len(names):
        raise SimError(f"--param names a parameter twice: {', '.join(names)}")
    targets = [parse_target(t, base.players) for t in ([targets] if isinstance(targets, str) else targets)]
    if not targets:
        raise SimError("tune needs at least one --target")
    if trials < 1:
        raise SimError(f"--trials must be at least 1, not {trials}")
    search = Search(spec, base.players, space, targets, n, seed, base.variants, rule_sets, strategy_text,
                    strategy_sets, dict(data or {}))
    return _study(search, trials, validate, storage, study, out, threads, scheduler, workers, connect_timeout,
                  command, on_trial)


def tune_strategy(game, strategy, *, against=None, params=(), trials=40, n=10_000, players=None, variants=(),
                  sets=None, seed=1, data=None, validate=None, storage=None, study=None, out=None, threads=None,
                  scheduler=None, workers=None, connect_timeout=None, command="", on_trial=None):
    """Search the parameters of `strategy` for its win share against a field, over every seat rotation.

    against: one spec for every other seat, a comma list of P−1, "self" (the strategy at its default parameters),
    or None (the game's default strategy). params: optional ["P=LO:HI[:STEP]"] ranges; every other parameter with
    default d is searched over d ± max(1, |d|). `best["spec"]` is usable as is in --strategy."""
    from sim.engine import configure
    from sim.search import StrategySearch
    from sim.search_space import WIN_SHARE, strategy_space
    spec = _game(game)
    rule_sets, strategy_sets = parse_sets(_set_items(sets))
    if strategy_sets:
        raise SimError("tune-strategy takes rule parameters in --set; the field's strategy parameters go into "
                       "--against specs (name:param=value)")
    if ":" in strategy.replace(".py:", "") or "," in strategy:
        raise SimError(f"--strategy {strategy}: give the strategy's name only; its parameters are what is searched")
    space = strategy_space(spec, strategy, [params] if isinstance(params, str) else params)
    search = StrategySearch(spec, 0, space, [WIN_SHARE], n, seed, split_variants(variants), rule_sets, None, {},
                            dict(data or {}), strategy=strategy, against=against)
    search.players = configure(spec, players, strategy, search.variants, rule_sets, seed, None,
                               search.data_paths).players
    if search.players < 2:
        raise SimError("tune-strategy needs at least two seats")
    for config, _ in search.parts({}):  # checks the field's specs before any game
        config.kernel_inputs()
    if trials < 1:
        raise SimError(f"--trials must be at least 1, not {trials}")
    return _study(search, trials, validate, storage, study, out, threads, scheduler, workers, connect_timeout,
                  command, on_trial)
