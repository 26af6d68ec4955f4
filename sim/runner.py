"""A whole `sim run`: the run directory, progress bar, per-game rows, the engine, then manifest and summary."""
from __future__ import annotations

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
                should_stop=None, extra_manifest=None):
    run_dir = results.prepare_run_dir(out or results.default_run_dir(config.game.id))
    writer = results.GameRowWriter(f"{run_dir}/{results.GAMES}", config) if save_games else None
    bar = Progress(n, progress)

    def on_chunk(first, seat_out, game_out, _total):
        if writer is not None:
            writer.write(first, seat_out, game_out)
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
    files = [results.MANIFEST, results.SUMMARY]
    if writer is not None:
        writer.close()
        if writer.rows:
            files.append(results.GAMES)
    summary = summarize(result.aggregate, config)
    results.write_json_atomic(f"{run_dir}/{results.SUMMARY}",
                              {**summary, "aggregate": result.aggregate.to_dict()})
    results.write_json_atomic(f"{run_dir}/{results.MANIFEST}",
                              results.manifest(result, results.reproduce_command(config, n), run_dir, files,
                                                               extra=extra_manifest))
    return RunOutcome(result, summary, run_dir)
