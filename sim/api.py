"""The public Python API (docs/python.md); the `sim` command line is a thin layer over these functions.

    sim.run(game, n, ...)                 -> RunReport      one configuration
    sim.compare(game, n, variants=[...])  -> Comparison     several configurations on the same games
    sim.sweep(game, param, values, n)     -> Sweep          one parameter over a range, same games
    sim.tournament(game, strategies, n)   -> Tournament     strategies over every seat rotation
    sim.skill(game, n, players=P)         -> Skill          the ladder random -> heuristics -> tuned
    sim.trace(game, game_index, ...)      -> Trace          one game of a run, event by event

Bad input raises sim.SimError (one line, the line the CLI prints). Nothing is written unless `out=` is given; a run
directory then gets report.html too (report=False skips it), and html="file.html" writes a copy (a new path, checked
before any game).
Every function takes the game's options as the CLI does: players, variants (names; 'a+b' combines), strategies (one
spec for every seat or a comma list / list per seat), sets ({"name": value} or ["name=value", ...]; strategy
parameters as "strategy.param"), seed, data ({"table": "file.csv"}).
"""
from __future__ import annotations

from sim.api_results import Comparison, RunReport, Skill, Sweep, Tournament, Trace
from sim.spec import SpecError as SimError

DEFAULT_N = 100_000
DEFAULT_MAX_N = 100_000_000


def _set_items(sets):
    """{name: value} or ["name=value", ...] -> ["name=value", ...] (the CLI's --set form)."""
    if not sets:
        return []
    if isinstance(sets, dict):
        return [f"{k}={v}" for k, v in sets.items()]
    if isinstance(sets, str):
        return [sets]
    return list(sets)


def parse_sets(values):
    """["NAME=VALUE" (rule parameter, integer) or "STRATEGY.PARAM=VALUE" (number)] -> (rule sets, strategy sets)."""
    rule_sets, strategy_sets = {}, {}
    for item in values:
        name, sep, raw = str(item).partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name or not raw:
            raise SimError(f"malformed --set '{item}'; expected NAME=VALUE or STRATEGY.PARAM=VALUE")
        if "." in name:
            strategy, _, param = name.rpartition(".")
            try:
                strategy_sets.setdefault(strategy, {})[param] = float(raw)
            except ValueError:
                raise SimError(f"--set {name} needs a number, not '{raw}'") from None
        else:
            try:
                rule_sets[name] = int(raw)
            except ValueError:
                raise SimError(f"--set {name} needs an integer, not '{raw}'") from None
    return rule_sets, strategy_sets


def split_variants(items):
    """Variant names -> one tuple ('a+b' and repeats combine; 'base' means none)."""
    if isinstance(items, str):
        items = [items]
    return tuple(v.strip() for item in items or () for v in item.split("+") if v.strip() and v.strip() != "base")


def _strategy_text(strategies):
    if strategies is None or isinstance(strategies, str):
        return strategies
    return ",".join(strategies)


def _game(game):
    from sim.registry import get_game
    return get_game(game) if isinstance(game, str) else game


def configure(game, players=None, variants=(), strategies=None, sets=None, seed=1, data=None):
    """A checked RunConfig (sim.engine) from user-level choices; every check happens here, before any game."""
    from sim.engine import configure as engine_configure
    spec = _game(game)
    rule_sets, strategy_sets = parse_sets(_set_items(sets))
    return engine_configure(spec, players, _strategy_text(strategies), split_variants(variants), rule_sets, seed,
                            strategy_sets, dict(data or {}))


def _check_html(html):
    """A new path for the html= copy, checked before any game (sim.reporting.check_report_path)."""
    from sim.reporting import check_report_path
    check_report_path(html)


def _with_reports(result, report, html):
    """The result, with report.html written into its run directory (if report) and the html= copy."""
    from sim.reporting import write_reports
    result.report_files = write_reports(result, report, html)
    return result


def _backend(threads, scheduler, workers, connect_timeout):
    from sim.backends import backend_for
    return backend_for(scheduler, workers, connect_timeout, threads)


def _check_precision(precision):
    if not 0 < precision < 0.5:
        raise SimError(f"--precision must be between 0 and 0.5 (a half-width), not {precision}")


def run(game, n=DEFAULT_N, *, players=None, variants=(), strategies=None, sets=None, seed=1, data=None,
        save_games=False, out=None, precision=None, max_n=DEFAULT_MAX_N, threads=None, chunk_size=None,
        scheduler=None, workers=None, connect_timeout=None, progress=False, report=True, html=None):
    """Play n games (or, with precision=h, until every seat's 95% win-share half-width is ≤ h, at most max_n).
    save_games keeps one row per game (RunReport.games; games.parquet with `out`)."""
    from sim.pipeline import execute_run
    config = configure(game, players, variants, strategies, sets, seed, data)
    _check_html(html)
    should_stop, extra = None, None
    if precision is not None:
        from analysis.precision import largest_half_width
        _check_precision(precision)
        n, extra = max_n, {"precision": precision, "precision_reached": False}

        def should_stop(agg):
            extra["precision_reached"] = bool(agg.n >= 1000 and largest_half_width(agg) <= precision)
            return extra["precision_reached"]  # read into the manifest when the run ends
    with _backend(threads, scheduler, workers, connect_timeout) as backend:
        outcome = execute_run(config, n, out=out, save_games=save_games, keep_games=save_games, threads=threads,
                              chunk_size=chunk_size, progress=progress, should_stop=should_stop,
                              extra_manifest=extra, backend=backend)
    result = RunReport(outcome)
    result.precision = None if extra is None else dict(extra)
    return _with_reports(result, report, html)


def _players_list(players, spec):
    if players is None:
        return [spec.default_players]
    if isinstance(players, int):
        return [players]
    if isinstance(players, str):
        try:
            counts = [int(x) for x in players.split(",") if x.strip()]
        except ValueError:
            counts = []
        if not counts:
            raise SimError(f"--players takes seat counts separated by commas, not '{players}'")
        return counts
    return [int(p) for p in players]


def reproduce(game_id, command, counts, variants, sets, strategy, seed, n, extra=()):
    """The `sim` command line that plays a compare/sweep/tournament again."""
    from sim.results import quote_arg
    parts = ["sim", command, game_id]
    if counts:
        parts += ["--players", ",".join(map(str, counts))]
    for v in variants:
        parts += ["--variant", v]
    for s in sets:
        parts += ["--set", s]
    if strategy:
        parts += ["--strategy", strategy]
    parts += ["--seed", str(seed), "--n", str(n), *extra]
    return " ".join(quote_arg(p) for p in parts)


def _run_multi(wrap, kind, configs, labels, n, command, out, threads, chunk_size, scheduler, workers,
               connect_timeout, progress, report, html, extra_manifest=None, lineups=1):
    """Play the configurations, wrap(outcome) into the API's result, and write its reports (lineups: see
    sim.pipeline.execute_multi)."""
    from sim.pipeline import execute_multi
    with _backend(threads, scheduler, workers, connect_timeout) as backend:
        result = wrap(execute_multi(kind, configs, labels, n, command, out=out, backend=backend, progress=progress,
                                    chunk_size=chunk_size, extra_manifest=extra_manifest, lineups=lineups))
    return _with_reports(result, report, html)


def compare(game, n=DEFAULT_N, *, players=None, variants=(), strategies=None, sets=None, seed=1, data=None,
            out=None, threads=None, chunk_size=None, scheduler=None, workers=None, connect_timeout=None,
            progress=False, report=True, html=None):
    """Every variant entry ('base', 'a', 'a+b') at every seat count (players=[2, 3, 4]) is one configuration; all
    play the same games, so configurations with the first one's seat count get paired differences."""
    from sim.engine import configure as engine_configure
    spec = _game(game)
    _check_html(html)
    counts = _players_list(players, spec)
    variants = [variants] if isinstance(variants, str) else list(variants or ())
    entries = [split_variants([v]) for v in variants] or [()]
    rule_sets, strategy_sets = parse_sets(_set_items(sets))
    configs, labels = [], []
    for p in counts:
        for entry in entries:
            configs.append(engine_configure(spec, p, _strategy_text(strategies), entry, rule_sets, seed,
                                            strategy_sets, dict(data or {})))
            name = "+".join(entry) or "base"
            labels.append(name if len(counts) == 1 else (f"{p}p" if len(entries) == 1 else f"{p}p {name}"))
    if len(configs) < 2:
        raise SimError("compare needs at least two configurations: several --variant or --players 2,3,...")
    if len(set(labels)) != len(labels):
        raise SimError(f"compare lists the same configuration twice: {', '.join(labels)}")
    command = reproduce(spec.id, "compare", counts, variants, _set_items(sets),
                        _strategy_text(strategies), seed, n)
    return _run_multi(Comparison, "compare", configs, labels, n, command, out, threads, chunk_size, scheduler,
                      workers, connect_timeout, progress, report, html)


def sweep(game, param, values, n=DEFAULT_N, *, players=None, variants=(), strategies=None, sets=None, seed=1,
          data=None, out=None, threads=None, chunk_size=None, scheduler=None, workers=None, connect_timeout=None,
          progress=False, report=True, html=None):
    """One rule parameter (or 'strategy.param') over values ([40, 45, 50] or '40:60:2' or '1,3,7'); every value
    plays the same games. players=[2, 3, 4] (or '2,3,4') crosses the values with seat counts: each value is then
    paired with the first value at the same seat count."""
    from sim.engine import configure as engine_configure
    from sim.multirun import parse_range
    spec = _game(game)
    _check_html(html)
    raw = values if isinstance(values, str) else ",".join(map(str, values))
    values = parse_range(raw) if isinstance(values, str) else list(values)
    counts = _players_list(players, spec) if players is not None else [None]
    fixed = _set_items(sets)
    configs, labels = [], []
    for count in counts:
        for value in values:
            rule_sets, strategy_sets = parse_sets(fixed + [f"{param}={value}"])
            configs.append(engine_configure(spec, count, _strategy_text(strategies), split_variants(variants),
                                            rule_sets, seed, strategy_sets, dict(data or {})))
            labels.append(f"{param}={value}" if len(counts) == 1 else f"{count}p {param}={value}")
    command = reproduce(spec.id, "sweep", counts if players is not None else [], list(variants or ()),
                        fixed + [f"{param}={raw}"], _strategy_text(strategies), seed, n)
    return _run_multi(lambda outcome: Sweep(outcome, param, values * len(counts)), "sweep", configs, labels, n,
                      command, out, threads, chunk_size, scheduler, workers, connect_timeout, progress, report, html)


def tournament(game, strategies, n=DEFAULT_N, *, players=None, lineups=None, variants=(), sets=None, seed=1,
               data=None, out=None, threads=None, chunk_size=None, scheduler=None, workers=None,
               connect_timeout=None, progress=False, report=True, html=None):
    """Round robin of strategies (a list or a comma list) over every seat rotation of every line-up; n is the total
    over all line-ups (n // line-ups each). lineups: "distinct" (combinations of different strategies), "one-vs-rest"
    (each strategy alone against copies of each other one), "all" (every mix of at least two strategies); default
    distinct when there are at least `players` strategies, else one-vs-rest (sim.multirun.tournament_lineups)."""
    from sim.multirun import lineup_mode, tournament_lineups
    from sim.seats import split_specs
    spec = _game(game)
    _check_html(html)
    players = players if players is not None else spec.default_players
    text = _strategy_text(strategies)
    names = split_specs(text or "")
    seatings = tournament_lineups(names, players, lineups)
    mode = lineup_mode(len(names), players, lineups)
    configs = lineup_configs(spec, players, seatings, variants, sets, seed, data)
    labels = [" | ".join(s.label for s in c.seats) for c in configs]
    command = reproduce(spec.id, "tournament", [players], list(variants or ()), _set_items(sets), None, seed, n,
                        ["--strategies", text, "--lineups", mode])
    return _run_multi(lambda outcome: Tournament(outcome, mode), "tournament", configs, labels,
                      max(1, n // len(seatings)), command, out, threads, chunk_size, scheduler, workers,
                      connect_timeout, progress, report, html, lineups=len(seatings))


def lineup_configs(spec, players, seatings, variants, sets, seed, data):
    """One checked RunConfig per seating (a list of strategy specs, one per seat); every check before any game."""
    from sim.engine import configure as engine_configure
    rule_sets, strategy_sets = parse_sets(_set_items(sets))
    return [engine_configure(spec, players, ",".join(seating), split_variants(variants), rule_sets, seed,
                             strategy_sets, dict(data or {})) for seating in seatings]


def skill(game, n=DEFAULT_N, *, players=None, variants=(), tuned=(), sets=None, seed=1, data=None, out=None,
          threads=None, chunk_size=None, scheduler=None, workers=None, connect_timeout=None, progress=False,
          report=True, html=None):
    """The skill ladder: random, every shipped heuristic of the game, then the `tuned` specs (strategy spec strings,
    or tune.json files / `sim tune-strategy` run directories whose best.spec is read), each alone against copies of
    each other rung in every seat rotation (one-vs-rest line-ups, the same seeds). Every variant entry ('base',
    'a', 'a+b') plays the whole ladder; n is the games of one variant, split evenly over the line-ups. Returns a
    Skill: pairwise win shares, ratings, the luck-vs-skill index, dominance, each variant's change of the index
    (analysis/skill.py has the definitions)."""
    from sim.multirun import tournament_lineups
    spec = _game(game)
    _check_html(html)
    players = players if players is not None else spec.default_players
    rungs = skill_rungs(spec, tuned, sets)
    seatings = tournament_lineups(rungs, players, "one-vs-rest")
    entries = [variants] if isinstance(variants, str) else list(variants or ()) or ["base"]
    names = ["+".join(split_variants([v])) or "base" for v in entries]
    if len(set(names)) != len(names):
        raise SimError(f"skill lists the same variant twice: {', '.join(names)}")
    configs, labels, groups = [], [], []
    for name, entry in zip(names, entries):
        mine = lineup_configs(spec, players, seatings, [entry], sets, seed, data)
        groups.append({"variant": name, "runs": list(range(len(configs), len(configs) + len(mine)))})
        labels += [(f"{name}: " if len(names) > 1 else "") + " | ".join(s.label for s in c.seats) for c in mine]
        configs += mine
    section = {"rungs": rungs, "players": players, "variants": groups}
    tuned_rungs = rungs[len(rungs) - len(_tuned_items(tuned)):]  # skill_rungs appends one rung per --tuned, last
    command = reproduce(spec.id, "skill", [players], entries if variants else [], _set_items(sets), None, seed, n,
                        [part for label in tuned_rungs for part in ("--tuned", label)])
    return _run_multi(lambda outcome: Skill(outcome, section), "skill", configs, labels,
                      max(1, n // len(seatings)), command, out, threads, chunk_size, scheduler, workers,
                      connect_timeout, progress, report, html, extra_manifest={"skill": section},
                      lineups=len(seatings))


def _tuned_items(tuned):
    return [tuned] if isinstance(tuned, str) else list(tuned or ())


def tuned_spec(item):
    """A --tuned value -> a strategy spec: the spec itself, or best.spec of a tune.json (or of the run directory
    of `sim tune-strategy` holding one)."""
    import json
    import os
    path = os.path.join(item, "tune.json") if os.path.isdir(item) else item
    if not (path.endswith(".json") or os.path.isdir(item)):
        return item
    try:
        with open(path, encoding="utf-8") as f:
            best = (json.load(f).get("best") or {}).get("spec")
    except (OSError, ValueError, AttributeError) as exc:
        raise SimError(f"--tuned {item}: cannot read a tune-strategy result ({exc})") from None
    if not best:
        raise SimError(f"--tuned {item}: {path} holds no best.spec (a `sim tune-strategy` result has one)")
    return best


def skill_rungs(spec, tuned=(), sets=None):
    """random, the game's other shipped strategies in their order, the game's default strategy when it is a tuned
    spec of one of them, then each tuned spec as its seat label (the canonical spec that reproduces it); a tuned
    spec that plays as an existing rung is refused."""
    from sim.seats import parse_seat
    shipped = [s.name for s in spec.strategies]
    rungs = [name for name in shipped if name == "random"] + [name for name in shipped if name != "random"]
    _, strategy_sets = parse_sets(_set_items(sets))
    default = parse_seat(spec, spec.default_strategy, strategy_sets).label
    if default not in rungs:
        rungs.append(default)
    for item in _tuned_items(tuned):
        label = parse_seat(spec, tuned_spec(item), strategy_sets).label
        if label in rungs:
            raise SimError(f"--tuned {item} plays as {label}, already a rung of the ladder: {', '.join(rungs)}")
        rungs.append(label)
    return rungs


def trace(game, game_index, *, players=None, variants=(), strategies=None, sets=None, seed=1, data=None):
    """Game `game_index` of the run with these options, event by event (the same game as in sim.run)."""
    from sim.tracing import trace_game
    config = configure(game, players, variants, strategies, sets, seed, data)
    events, record = trace_game(config, game_index)
    return Trace(config, game_index, events, record)


__all__ = ["SimError", "configure", "run", "compare", "sweep", "tournament", "skill", "trace", "RunReport",
           "Comparison", "Sweep", "Tournament", "Skill", "Trace"]
