"""Whole runs as the commands need them: run directories, progress bar, per-game rows, manifest and summary."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from analysis.summary import summarize
from sim import results
from sim.engine import EngineError, run_games
from sim.spec import SpecError


@dataclass
class RunOutcome:
    result: object
    summary: dict
    run_dir: str
    convergence: list  # [(games so far, [win share per seat])] after each chunk


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


def save_result(run_dir, result, n_for_command, files=(), extra=None, command=None):
    """summary.json and manifest.json of one configuration's result; returns the summary."""
    config = result.config
    summary = summarize(result.aggregate, config)
    results.write_json_atomic(os.path.join(run_dir, results.SUMMARY),
                              {**summary, "aggregate": result.aggregate.to_dict()})
    files = [results.MANIFEST, results.SUMMARY, *files]
    command = command or results.reproduce_command(config, n_for_command)
    results.write_json_atomic(os.path.join(run_dir, results.MANIFEST),
                              results.manifest(result, command, run_dir, files, extra=extra))
    return summary


def execute_run(config, n, *, out=None, save_games=False, threads=None, chunk_size=None, progress=True,
                should_stop=None, extra_manifest=None, backend=None):
    run_dir = results.prepare_run_dir(out or results.default_run_dir(config.game.id))
    if backend is not None:
        return _execute_on_cluster(backend, config, n, run_dir, save_games, chunk_size, progress, should_stop,
                                   extra_manifest)
    writer = results.GameRowWriter(os.path.join(run_dir, results.GAMES), config) if save_games else None
    bar = Progress(n, progress)
    convergence = []

    def on_chunk(first, seat_out, game_out, total):
        if writer is not None:
            writer.write(first, seat_out, game_out)
        convergence.append(total.win_shares_point())
        bar.update(game_out.shape[0])

    try:
        result = run_games(config, n, threads=threads, chunk_size=chunk_size, on_chunk=on_chunk,
                           should_stop=should_stop)
    except EngineError as exc:
        if writer is not None:
            writer.abandon()
        results.remove_if_empty(run_dir)
        raise SpecError(str(exc)) from None
    finally:
        bar.close()
    files = []
    if writer is not None:
        writer.close()
        if writer.rows:
            files.append(results.GAMES)
    n_done = result.aggregate.n if should_stop is not None else n
    summary = save_result(run_dir, result, n_done, files, extra_manifest)
    return RunOutcome(result, summary, run_dir, convergence)


def _execute_on_cluster(backend, config, n, run_dir, save_games, chunk_size, progress, should_stop, extra):
    """The same run on a Dask cluster: rows (if saved) are one Parquet file per chunk under games/."""
    rows_dir = os.path.join(run_dir, "games") if save_games else None
    bar = Progress(n, progress)
    try:
        (result,), _, (convergence,) = backend.run([config], n, chunk_size=chunk_size, rows_dir=rows_dir,
                                                   on_chunk=bar.update, should_stop=should_stop)
    except SpecError:
        results.remove_if_empty(run_dir)
        raise
    finally:
        bar.close()
    files = []
    if rows_dir and os.path.isdir(rows_dir):
        files = sorted(os.path.join("games", f) for f in os.listdir(rows_dir) if f.endswith(".parquet"))
    n_done = result.aggregate.n if should_stop is not None else n
    summary = save_result(run_dir, result, n_done, files, {**backend.describe(), **(extra or {})})
    return RunOutcome(result, summary, run_dir, convergence)


def run_dir_for(out, game_id, kind):
    return results.prepare_run_dir(out or results.default_run_dir(f"{game_id}-{kind}"))


def save_multi(parent, labels, multi, n, kind, command, extra=None):
    """One sub-directory per configuration (NN-label) with its manifest and summary, and the parent's manifest
    listing them; returns [(label, sub-directory, summary)]."""
    saved = []
    for i, (label, result) in enumerate(zip(labels, multi.results)):
        sub = os.path.join(parent, f"{i:02d}-{_slug(label)}")
        os.makedirs(sub, exist_ok=True)
        saved.append((label, sub, save_result(sub, result, n, extra={"label": label, "part_of": kind})))
    first = multi.results[0]
    results.write_json_atomic(os.path.join(parent, results.MANIFEST), {
        "kind": kind, "game": first.config.game.id, "rules_version": first.config.game.version,
        "package_version": results.PACKAGE_VERSION, "seed": first.config.seed, "n_requested": n,
        "n_games": first.aggregate.n, "status": "complete" if first.complete else "partial",
        "seconds": round(first.seconds, 3), "threads": first.threads, "command": command,
        "runs": [{"label": label, "dir": os.path.basename(sub)} for label, sub, _ in saved], **(extra or {})})
    return saved


def _slug(text):
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in text)[:60] or "run"
