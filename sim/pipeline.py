"""The one run pipeline: configurations -> a backend plays them -> analysis summarises -> run directory (optional).

    execute_run(config, n, ...)            one configuration (sim run, sim.run)
    execute_multi(kind, configs, ...)      several on the same games (compare, sweep, tournament)

The backend (sim/backends.py: local threads or Dask) returns exact aggregates; the summaries come from
analysis.summary; a run directory is written only when `out` is given (docs/results.md). The engine below this
module knows nothing of analysis, and nothing here prints or exits: errors are SpecError (one line).
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field

from analysis.summary import summarize
from sim import results
from sim.backends import LocalBackend
from sim.engine import EngineError
from sim.spec import SpecError


@dataclass
class RunOutcome:
    result: object  # RunResult
    summary: dict  # what summary.json holds (without its "aggregate")
    run_dir: str | None  # None when nothing was written
    convergence: list  # [(games so far, [win share per seat])] after each chunk
    games: object = None  # per-game rows (pandas DataFrame) when asked for them
    manifest: dict = field(default_factory=dict)


@dataclass
class MultiOutcome:
    kind: str  # compare | sweep | tournament
    labels: list
    multi: object  # backends.MultiResult
    summaries: list  # per configuration
    run_dir: str | None
    command: str
    saved: list = field(default_factory=list)  # [(label, sub-directory, summary, manifest)] when written


class Progress:
    """tqdm bar on a terminal (games done, games/s, ETA); silent otherwise."""

    def __init__(self, total, enabled):
        self.bar = None
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=total, unit=" games", unit_scale=True, dynamic_ncols=True, leave=False)

    def update(self, count):
        if self.bar is not None:
            self.bar.update(count)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def execute_run(config, n, *, out=None, save_games=False, threads=None, chunk_size=None, progress=True,
                should_stop=None, extra_manifest=None, backend=None, keep_games=False):
    """Play one configuration; with `out`, write its run directory (manifest, summary, rows when save_games).
    save_games with keep_games also returns the rows as a DataFrame (without `out`, they pass through a temporary
    folder that is removed afterwards)."""
    backend = backend or LocalBackend(threads)
    run_dir = results.prepare_run_dir(out) if out else None
    scratch = tempfile.mkdtemp(prefix="sim-rows-") if save_games and run_dir is None else None
    try:
        return _run_and_save(backend, config, n, run_dir, (run_dir or scratch) if save_games else None, chunk_size,
                             progress, should_stop, extra_manifest, keep_games)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _play(backend, configs, n, run_dir, progress, **options):
    """backend.run with a progress bar over all configurations' games; a run that fails leaves no empty run_dir."""
    bar = Progress(n * len(configs), progress)
    try:
        return backend.run(configs, n, on_chunk=lambda count: bar.update(count * len(configs)), **options)
    except (EngineError, SpecError) as exc:
        if run_dir is not None:
            results.remove_if_empty(run_dir)
        raise SpecError(str(exc)) from None
    finally:
        bar.close()


def _run_and_save(backend, config, n, run_dir, rows_to, chunk_size, progress, should_stop, extra, keep_games):
    multi = _play(backend, [config], n, run_dir, progress, chunk_size=chunk_size, should_stop=should_stop,
                  rows_to=rows_to)
    result = multi.results[0]
    summary = summarize(result.aggregate, config)
    games = _read_rows(rows_to, multi.files) if keep_games and multi.files else None
    outcome = RunOutcome(result, summary, run_dir, multi.convergence[0], games)
    fault = multi.fault and fault_line([config], multi.fault)
    if fault and result.aggregate.n == 0:  # nothing finished: nothing to keep
        if run_dir is not None:
            results.remove_if_empty(run_dir)
        raise SpecError(fault)
    if run_dir is not None:
        # the command of a partial run plays exactly the games it kept
        n_done = result.aggregate.n if should_stop is not None or not result.complete else n
        info = {**backend.describe(), **(extra or {})}
        asked = getattr(backend, "threads", None)
        if asked and asked > result.threads:
            info["threads_requested"] = asked  # more than the machine runs: `threads` says what was used
        if fault:
            info["fault"] = fault
        outcome.manifest = save_result(run_dir, result, summary, n_done, multi.files, info or None)
    if fault:
        raise SpecError(fault + _kept(result.aggregate.n, run_dir))
    return outcome


def fault_line(configs, fault, labels=None):
    """The fault of a run in one line: the game, the configuration that broke (when several play), and the seat,
    decision and value from that configuration's own trace of the game."""
    from sim.tracing import trace_game
    for i, config in enumerate(configs):
        events, _ = trace_game(config, fault.game_index)
        if events and events[-1]["kind"] == "fault":
            break
    before = events[-2] if len(events) > 1 else None  # the kernel's last event before the fault
    if before is None:
        where = ""
    elif before["kind"] in ("illegal", "error"):  # the game records the illegal choice itself: seat, decision, value
        where = f" — {' '.join(before['text'].split())}"
    elif before["kind"] == "choice":  # a plug-in's answer, checked at once: the one that broke the rules
        where = f" — {' '.join(before['text'].split())}, which is not a legal action there"
    else:  # it records legal moves only: the last one tells where the game stood, not who broke the rules
        where = f" — the last recorded event before it: {' '.join(before['text'].split())}"
    which = f" in configuration {labels[i]}" if labels and len(configs) > 1 else ""
    return (f"{fault}{which}{where} (replay it: sim trace {config.game.id} --game {fault.game_index} with "
            f"{'that configuration' if which else 'the run'}'s options)")


def _kept(n_games, run_dir):
    return f"; the {n_games:,} games before it are kept" + (f" as a partial run in {run_dir}" if run_dir else "")


def _read_rows(folder, files):
    import pandas as pd
    frames = [pd.read_parquet(os.path.join(folder, f)) for f in files]
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def save_result(run_dir, result, summary, n_for_command, files=(), extra=None, command=None):
    """summary.json and manifest.json of one configuration's result; returns the manifest."""
    config = result.config
    results.write_json_atomic(os.path.join(run_dir, results.SUMMARY),
                              {**summary, "aggregate": result.aggregate.to_dict()})
    files = [results.MANIFEST, results.SUMMARY, *files]
    command = command or results.reproduce_command(config, n_for_command)
    manifest = results.manifest(result, command, run_dir, files, extra=extra)
    results.write_json_atomic(os.path.join(run_dir, results.MANIFEST), manifest)
    return manifest


def execute_multi(kind, configs, labels, n, command, *, out=None, backend=None, progress=True, chunk_size=None,
                  extra_manifest=None, lineups=1):
    """Play the configurations together on the same games; with `out`, one sub-directory per configuration and
    the parent's manifest listing them (plus extra_manifest's entries: how a report reads the run back). The
    command's --n counts the games of `lineups` configurations together (a tournament's or a skill ladder's
    line-ups; 1 for compare and sweep)."""
    backend = backend or LocalBackend()
    parent = results.prepare_run_dir(out) if out else None
    multi = _play(backend, configs, n, parent, progress, chunk_size=chunk_size)
    fault = multi.fault and fault_line(configs, multi.fault, labels)
    n_done = multi.results[0].aggregate.n
    if fault and n_done == 0:  # nothing finished: nothing to keep
        if parent is not None:
            results.remove_if_empty(parent)
        raise SpecError(fault)
    summaries = [summarize(r.aggregate, r.config) for r in multi.results]
    outcome = MultiOutcome(kind, list(labels), multi, summaries, parent, command)
    if parent is not None:
        info = {**backend.describe(), **(extra_manifest or {}), **({"fault": fault} if fault else {})}
        outcome.saved = save_multi(parent, labels, multi, n, kind, command, info or None, summaries, lineups)
    if fault:  # the games before it are a valid partial run, as for one configuration
        raise SpecError(fault + _kept(n_done, parent))
    return outcome


def save_multi(parent, labels, multi, n, kind, command, extra=None, summaries=None, lineups=1):
    """One sub-directory per configuration (NN-label) with its manifest and summary, and the parent's manifest
    listing them; returns [(label, sub-directory, summary, manifest)]."""
    summaries = summaries or [summarize(r.aggregate, r.config) for r in multi.results]
    saved = []
    for i, (label, result, summary) in enumerate(zip(labels, multi.results, summaries)):
        sub = os.path.join(parent, f"{i:02d}-{_slug(label)}")
        os.makedirs(sub, exist_ok=True)
        manifest = save_result(sub, result, summary, n if result.complete else result.aggregate.n,
                               extra={"label": label, "part_of": kind})
        saved.append((label, sub, summary, manifest))
    first = multi.results[0]
    if not first.complete:  # the command of a partial run plays exactly the games it kept
        command = re.sub(r"--n \d+", f"--n {first.aggregate.n * lineups}", command)
    results.write_json_atomic(os.path.join(parent, results.MANIFEST), {
        "kind": kind, "game": first.config.game.id, "rules_version": first.config.game.version,
        "package_version": results.PACKAGE_VERSION, "seed": first.config.seed, "n_requested": n,
        "n_games": first.aggregate.n, "status": "complete" if first.complete else "partial",
        "seconds": round(first.seconds, 3), "threads": first.threads, "command": command,
        "runs": [{"label": label, "dir": os.path.basename(sub)} for label, sub, _, _ in saved], **(extra or {})})
    return saved


def _slug(text):
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in text)[:60] or "run"
