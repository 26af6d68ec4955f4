"""Searching parameters toward balance targets with Optuna: the machinery behind `sim tune` (docs/tune.md).

How games are spent:
- Common random numbers: every trial plays games 0..n−1 of the same seed, so trials differ only by their parameters
  and are compared paired.
- The n games of a trial are played in BLOCKS equal blocks of game indices. After each block the block's loss is
  reported to Optuna's WilcoxonPruner with the block index as the instance: a trial whose paired block losses are
  significantly worse than the best trial's (one-sided Wilcoxon signed-rank, p < 0.1) stops early, so games go to
  the trials that matter. A multi-objective study is not pruned (Optuna prunes single objectives only).
- The trial's value is the loss of the target over all of its games (its interval is recorded with it).
- The winner's curse: the best `top` trials (or the Pareto set) are played again on fresh seeds (`validation_seed`)
  with `validate` games each, beside the current rules on the same fresh seeds, and `best` is chosen from those
  validated numbers alone.
- Resumable: with `storage` (an Optuna URL such as sqlite:///study.db) and `study`, a second call adds its trials to
  the same study; it must search the same game, seats, space, targets, n and seed. Ctrl-C keeps the finished trials
  and returns a result marked partial (not validated).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from sim.spec import SpecError

BLOCKS = 8
TOP = 5
MAX_PARETO = 8
VALIDATION_SEED_OFFSET = 0x5EED_5EED  # validation seed = (seed + offset) mod 2^63: fresh games, reproducibly


@dataclass
class Search:
    """A study of rule parameters: the fixed configuration, the searched space and the targets."""
    game: object  # GameSpec
    players: int
    space: list  # of ParamRange
    targets: list  # of Target
    n: int
    seed: int
    variants: tuple = ()
    sets: dict = field(default_factory=dict)  # fixed rule parameters
    strategies: object = None  # the seats' strategy specs (None = the game's default)
    strategy_sets: dict = field(default_factory=dict)  # fixed strategy parameters
    data_paths: dict = field(default_factory=dict)
    kind = "tune"

    def _configure(self, rule_sets, strategies, strategy_sets, seed):
        from sim.engine import configure
        return configure(self.game, self.players, strategies, self.variants, rule_sets, seed, strategy_sets,
                         self.data_paths)

    def parts(self, values, seed=None):
        """[(run configuration, focus seat)] that one point of the space plays (values: {param name: value});
        the focus seat is None when the targets read every seat."""
        rule_sets, strategy_sets = dict(self.sets), {k: dict(v) for k, v in self.strategy_sets.items()}
        for r in self.space:
            if r.name in values:
                if r.is_rule:
                    rule_sets[r.name] = int(values[r.name])
                else:
                    strategy_sets.setdefault(r.strategy, {})[r.param] = float(values[r.name])
        seed = self.seed if seed is None else seed
        return [(self._configure(rule_sets, self.strategies, strategy_sets, seed), None)]

    def current_value(self, r):
        if r.is_rule:
            return self.sets.get(r.name, self.game.param(r.name).default)
        fixed = self.strategy_sets.get(r.strategy, {})
        return fixed.get(r.param, self.game.strategy(r.strategy).params[r.param])

    def describe_point(self, values):
        return {}

    def identity(self):
        """What a resumed study must share with the stored one."""
        return {"kind": self.kind, "game": self.game.id, "players": self.players, "variants": list(self.variants),
                "sets": self.sets, "strategies": self.strategies, "strategy_sets": self.strategy_sets,
                "space": [r.describe() for r in self.space], "targets": [t.label for t in self.targets],
                "n": self.n, "seed": self.seed}

    @property
    def validation_seed(self):
        return (self.seed + VALIDATION_SEED_OFFSET) % 2 ** 63


@dataclass
class StrategySearch(Search):
    """A study of one strategy's parameters for its win share against a field, over every seat rotation: in
    rotation r the tuned strategy sits in seat r and the field fills the other seats, all on the same games."""
    strategy: str = ""  # the tuned strategy's name (a shipped one, or FILE.py:FUNC)
    against: object = None  # one spec for every other seat, a comma list of P−1, "self"; None = the game's default
    kind = "tune-strategy"

    def spec_of(self, values):
        """The tuned seat's strategy spec with `values` ({'NAME.param': v}), usable as is in --strategy."""
        # 4 significant digits: the spec is what every seat rotation plays, so the string reproduces it exactly
        items = "".join(f":{r.param}={float(values[r.name]):.4g}" for r in self.space if r.name in values)
        return self.strategy + items

    def field_specs(self):
        from sim.seats import split_specs
        if self.against is None:
            return [self.game.default_strategy] * (self.players - 1)
        if self.against == "self":
            return [self.strategy] * (self.players - 1)
        specs = split_specs(self.against)
        if len(specs) == 1:
            return specs * (self.players - 1)
        if len(specs) != self.players - 1:
            raise SpecError(f"--against lists {len(specs)} seats; give one spec or {self.players - 1}")
        return specs

    def parts(self, values, seed=None):
        seed = self.seed if seed is None else seed
        tuned, field_specs = self.spec_of(values), self.field_specs()
        out = []
        for r in range(self.players):
            seats = field_specs[:r] + [tuned] + field_specs[r:]
            out.append((self._configure(dict(self.sets), ",".join(seats), self.strategy_sets, seed), r))
        return out

    def current_value(self, r):
        from sim.seats import parse_seat
        return parse_seat(self.game, self.strategy, {}).params[r.param]

    def describe_point(self, values):
        return {"spec": self.spec_of(values)}

    def identity(self):
        return {**super().identity(), "strategy": self.strategy, "against": self.against}


class Interrupted(Exception):
    """Ctrl-C during a study: the result so far is in `result`."""

    def __init__(self, result):
        super().__init__("interrupted")
        self.result = result


def backend_player(backend):
    """play(config, start, count) -> Aggregate of games start..start+count−1 on `backend` (local threads or Dask;
    the numbers are the same)."""
    def play(config, start, count):
        result = backend.run([config], count, start=start).results[0]
        if not result.complete:
            raise KeyboardInterrupt
        return result.aggregate
    return play


def _blocks(n):
    size, extra = divmod(n, BLOCKS)
    start = 0
    for b in range(min(BLOCKS, n)):
        count = size + (1 if b < extra else 0)
        yield b, start, count
        start += count


def _metrics(targets, measured):
    """measured: [(aggregate, focus seat)] -> {target label: {"value", "lo", "hi", "loss"}}."""
    out = {}
    for t in targets:
        value, lo, hi = t.measure(measured)
        out[t.label] = {"value": float(value), "lo": float(lo), "hi": float(hi), "loss": float(t.loss(value))}
    return out


def _play_parts(parts, play, start, count):
    return [(play(config, start, count), focus) for config, focus in parts]


def _objective(search, play):
    import optuna
    single = len(search.targets) == 1

    def objective(trial):
        values = {r.name: r.suggest(trial) for r in search.space}
        for key, value in search.describe_point(values).items():
            trial.set_user_attr(key, value)
        earlier = _same_point(trial)
        if earlier is not None:  # the sampler came back to a finished point: same games, so the same answer
            trial.set_user_attr("games", 0)
            trial.set_user_attr("repeat_of", earlier.number)
            trial.set_user_attr("metrics", earlier.user_attrs.get("metrics", {}))
            return earlier.value if single else earlier.values
        parts = search.parts(values)
        total = None
        for block, start, count in _blocks(search.n):
            measured = _play_parts(parts, play, start, count)
            total = measured if total is None else [(a.merge(b), f) for (a, f), (b, _) in zip(total, measured)]
            trial.set_user_attr("games", sum(a.n for a, _ in total))
            if single:
                trial.report(search.targets[0].loss(search.targets[0].measure(measured)[0]), block)
                if trial.should_prune():
                    trial.set_user_attr("metrics", _metrics(search.targets, total))
                    raise optuna.TrialPruned()
        metrics = _metrics(search.targets, total)
        trial.set_user_attr("metrics", metrics)
        losses = [metrics[t.label]["loss"] for t in search.targets]
        return losses[0] if single else losses
    return objective


def _same_point(trial):
    """An earlier complete trial of the study at exactly this trial's parameters, or None. Every trial plays the
    same games (common random numbers), so such a trial's result is this one's: replaying it would spend games on
    a known answer (TPE returns to good points often in a small discrete space)."""
    from optuna.trial import TrialState
    for t in trial.study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        if t.params == trial.params and t.number != trial.number:
            return t
    return None


def open_study(search, storage=None, name=None):
    """A new Optuna study, or the stored one with the same name (which must search the same thing)."""
    import warnings

    import optuna
    # ERROR: Optuna warns "Trial N failed" for the trial a Ctrl-C stops; the command line says "partial" instead
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    single = len(search.targets) == 1
    sampler = optuna.samplers.TPESampler(seed=search.seed % 2 ** 32, multivariate=True)
    pruner = optuna.pruners.WilcoxonPruner(p_threshold=0.1) if single else optuna.pruners.NopPruner()
    try:
        study = optuna.create_study(storage=storage, study_name=name, sampler=sampler, pruner=pruner,
                                    directions=["minimize"] * len(search.targets), load_if_exists=True)
    except Exception as exc:  # a bad storage URL or an unreadable database: one line
        raise SpecError(f"cannot open the study storage {storage}: {str(exc).splitlines()[0]}") from None
    identity = json.loads(json.dumps(search.identity()))
    stored = study.user_attrs.get("search")
    if stored is None:
        study.set_user_attr("search", identity)
        current = {r.name: search.current_value(r) for r in search.space}
        if all(r.lo <= v <= r.hi for r, v in ((r, current[r.name]) for r in search.space)):
            study.enqueue_trial(current)  # trial 0 measures the current rules on the same games
    elif stored != identity:
        changed = sorted(k for k in identity if identity[k] != stored.get(k))
        raise SpecError(f"study '{name}' in {storage} searched something else ({', '.join(changed)} differ); "
                        "use a new --study name")
    return study


def _trial_rows(study):
    rows = []
    for t in study.trials:
        rows.append({"number": t.number, "params": dict(t.params), **({"spec": t.user_attrs["spec"]}
                                                                        if "spec" in t.user_attrs else {}),
                     "state": t.state.name.lower(),
                     "games": int(t.user_attrs.get("games", 0)), "targets": t.user_attrs.get("metrics", {}),
                     **({"repeat_of": t.user_attrs["repeat_of"]} if "repeat_of" in t.user_attrs else {})})
    return rows


def _candidates(study, single):
    from optuna.trial import TrialState
    done = [t for t in study.trials if t.state == TrialState.COMPLETE]
    if not done:
        return []
    if single:
        ranked = sorted(done, key=lambda t: t.value)
    else:
        ranked = study.best_trials
    distinct, seen = [], set()
    for t in ranked:  # a point the sampler visited twice is validated once
        key = tuple(sorted(t.params.items()))
        if key not in seen:
            seen.add(key)
            distinct.append(t)
    return distinct[:TOP if single else MAX_PARETO]


def _validate(search, play, candidates, games):
    """Each candidate and the current rules on `games` fresh games: metrics with intervals."""
    seed = search.validation_seed
    current = _metrics(search.targets, _play_parts(search.parts({}, seed), play, 0, games))
    checked = []
    for t in candidates:
        measured = _play_parts(search.parts(t.params, seed), play, 0, games)
        checked.append({"trial": t.number, "params": dict(t.params), **search.describe_point(t.params),
                        "targets": _metrics(search.targets, measured)})
    return current, checked


def _pick_best(targets, checked):
    """The validated candidate with the lowest loss (several targets: the lowest mean rank over the targets)."""
    if len(targets) == 1:
        return min(checked, key=lambda c: c["targets"][targets[0].label]["loss"])
    ranks = {id(c): 0.0 for c in checked}
    for t in targets:
        for r, c in enumerate(sorted(checked, key=lambda c: c["targets"][t.label]["loss"])):
            ranks[id(c)] += r
    return min(checked, key=lambda c: ranks[id(c)])


def run_study(search, trials, *, validate=None, storage=None, name=None, play=None, on_trial=None, command=""):
    """Run `trials` more trials of the study, validate the best and return the tune.json content (a dict).

    Raises Interrupted (with the partial content) on Ctrl-C."""
    if trials < 1:
        raise SpecError(f"--trials must be at least 1, not {trials}")
    if play is None:
        from sim.backends import LocalBackend
        play = backend_player(LocalBackend())
    study = open_study(search, storage, name)
    single = len(search.targets) == 1
    callbacks = [lambda s, t: on_trial(t)] if on_trial else []
    interrupted = False
    try:
        study.optimize(_objective(search, play), n_trials=trials, callbacks=callbacks, catch=())
    except KeyboardInterrupt:
        interrupted = True
    content = {"game": search.game.id, "players": search.players, **search.identity(),
               "rules_version": search.game.version, "validation_seed": search.validation_seed,
               "validate": validate or search.n, "study": name, "storage": storage, "command": command,
               "status": "partial" if interrupted else "complete", "trials": _trial_rows(study)}
    candidates = _candidates(study, single)
    if interrupted or not candidates:
        content.update(best=None, current=None, validated=[], pareto=[])
        if interrupted:
            raise Interrupted(content)
        return content
    try:
        current, checked = _validate(search, play, candidates, validate or search.n)
    except KeyboardInterrupt:
        content.update(status="partial", best=None, current=None, validated=[], pareto=[])
        raise Interrupted(content) from None
    best = _pick_best(search.targets, checked)
    content.update(current=current, validated=checked, best=best, pareto=checked if not single else [],
                   importance=_importance(study, search))
    return content


def _importance(study, search):
    """{target: {param: importance}}: how much each parameter matters for reaching a low loss, normalised to sum 1,
    over the complete trials (Optuna's default evaluator, PED-ANOVA)."""
    import warnings

    import optuna
    out = {}
    for i, t in enumerate(search.targets):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # its reminder that it rewards low values: ours are losses
                out[t.label] = optuna.importance.get_param_importances(
                    study, target=lambda tr, i=i: tr.values[i], normalize=True)
        except (RuntimeError, ValueError):  # fewer than two complete trials, or a parameter never varied
            out[t.label] = {}
    return out


def write_tune_json(out_dir, content):
    from sim.results import write_json_atomic
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "tune.json")
    write_json_atomic(path, content)
    return path
