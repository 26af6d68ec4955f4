"""Report contexts (reports/html.py) from finished runs, and reading saved run directories back."""
from __future__ import annotations

import os

from sim import results
from sim.engine import Aggregate
from sim.spec import SpecError


def _manifest(path):
    return results.read_json(os.path.join(path, results.MANIFEST))


def run_entry(label, run_dir, aggregate, convergence=None):
    summary = results.read_json(os.path.join(run_dir, results.SUMMARY))
    summary.pop("aggregate", None)
    return {"label": label, "manifest": _manifest(run_dir), "summary": summary, "aggregate": aggregate,
            "convergence": convergence}


def run_context(outcome):
    entry = run_entry(outcome.result.config.game.title, outcome.run_dir, outcome.result.aggregate,
                      outcome.convergence)
    return {"title": f"{outcome.result.config.game.title}: {outcome.result.aggregate.n:,} games", "kind": "run",
            "command": entry["manifest"]["command"], "runs": [entry], "comparison": None, "sweep": None,
            "tournament": None}


def multi_context(kind, title, command, saved, multi, comparison=None, sweep=None, tournament=None):
    runs = [run_entry(label, sub, result.aggregate, conv)
            for (label, sub, _), result, conv in zip(saved, multi.results, multi.convergence)]
    return {"title": title, "kind": kind, "command": command, "runs": runs, "comparison": comparison,
            "sweep": sweep, "tournament": tournament}


def load_run_dir(path):
    """A saved run directory -> (manifest, summary, Aggregate); one clear error when it is not one."""
    if not os.path.isdir(path):
        raise SpecError(f"{path} is not a run directory (no such directory)")
    for name in (results.MANIFEST, results.SUMMARY):
        if not os.path.isfile(os.path.join(path, name)):
            raise SpecError(f"{path} is not a run directory: {name} is missing")
    try:
        manifest = _manifest(path)
        summary = results.read_json(os.path.join(path, results.SUMMARY))
        aggregate = Aggregate.from_dict(summary.pop("aggregate"))
    except (ValueError, KeyError, TypeError) as exc:
        raise SpecError(f"{path} is not a valid run directory: {type(exc).__name__}: {exc}") from None
    return manifest, summary, aggregate


def expand_run_dirs(paths):
    """Run directories, with a compare/sweep/tournament directory standing for its sub-runs."""
    out = []
    for path in paths:
        manifest_path = os.path.join(path, results.MANIFEST)
        if os.path.isfile(manifest_path):
            manifest = results.read_json(manifest_path)
            if "runs" in manifest:
                out += [os.path.join(path, r["dir"]) for r in manifest["runs"]]
                continue
        out.append(path)
    return out
