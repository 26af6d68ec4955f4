"""Report contexts (the input of reports/html.py) from finished runs and from saved run directories.

This is the one place that reads run directories back. Every context carries the summaries and the analysis
(analysis.findings.analyse: seat tests, balance metrics, paired differences, crossed effects, ratings, verdict),
computed here once; the reports and the terminal only render them. The context:
    {"title", "kind": "run"|"compare"|"sweep"|"tournament"|"skill"|"report", "command",
     "runs": [{"label", "manifest", "summary", "aggregate", "convergence", "unit", "seat_labels"}],
     "comparison": {"paired": {...}} | {"unpaired": {"baseline": label}} | None,
     "sweep": {"param", "values"} | None, "tournament": {"strategies", "wins", "games", "mode"} | None,
     "skill": {"rungs", "players", "variants": [{"variant", "runs": [run indices]}]} | None,
     "analysis": what analysis.findings.analyse returns}
"""
from __future__ import annotations

import os
import re
import tempfile

from sim import results
from sim.aggregate import Aggregate
from sim.spec import SpecError


REPORT_FILE = "report.html"  # the report every run directory gets (unless --no-report)


def check_report_path(path, option="html"):
    """Fail before running when the report could not be written: a new file, in a folder where a file can be made
    (tried, since permission bits do not tell: root passes os.access under /proc). Creates nothing."""
    if path is None:
        return None
    path = os.fspath(path)
    if os.path.isdir(path):
        raise SpecError(f"{option} {path} is a directory; give a file name")
    if os.path.lexists(path):  # the rule of --out: new paths only, so nothing written before is ever replaced
        raise SpecError(f"{option} {path} already exists; give a new file name (nothing was changed)")
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.lexists(folder):  # the report writer creates the missing folders; try where it would start
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        raise SpecError(f"cannot write {option} {path}: {folder} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".sim-write-test-"):
            pass
    except OSError as exc:
        raise SpecError(f"cannot write {option} {path}: {exc.strerror or exc}") from None
    return path


def write_reports(result, report, html):
    """report.html into the run directory of an API result (when it has one and `report`) and a copy at `html`,
    rendered once from result.context; returns the paths written."""
    paths = ([os.path.join(result.run_dir, REPORT_FILE)] if report and result.run_dir else []) + \
        ([os.fspath(html)] if html else [])
    if paths:
        write_context(result.context, paths)
    return paths


def write_context(context, paths):
    """The HTML report of `context`, rendered once, at every path; one clear error when a path cannot be written."""
    from reports.html import write_report
    try:
        write_report(context, *paths)
    except OSError as exc:  # the folder changed since check_report_path; the run directory is already written
        raise SpecError(f"cannot write the report {exc.filename or paths[-1]}: {exc.strerror or exc}") from None


def _unit(manifest, summary):
    """The length column's name: summary.json has it; the game registry only when it does not."""
    unit = (summary.get("length") or {}).get("column")
    if unit:
        return unit
    try:
        from sim.registry import get_game
        return get_game(manifest.get("game", "")).length_column
    except Exception:  # an unregistered game: the report still renders from the manifest
        return "length units"


def _seat_labels(manifest, summary, players):
    strategies = manifest.get("strategies") or []
    labels = [s.get("label", "?") if isinstance(s, dict) else str(s) for s in strategies]
    if len(labels) != players:
        rows = summary.get("seats") or []
        labels = [r.get("strategy", "?") for r in rows] if len(rows) == players else ["?"] * players
    return labels


def _entry(label, manifest, summary, aggregate, convergence=None):
    return {"label": label, "manifest": manifest, "summary": summary, "aggregate": aggregate,
            "convergence": convergence, "unit": _unit(manifest, summary),
            "seat_labels": _seat_labels(manifest, summary, aggregate.players)}


def with_analysis(context):
    """The context with its "analysis" (analysis.findings.analyse), computed once from its runs."""
    from analysis.findings import analyse
    comparison = context.get("comparison") or {}
    context["analysis"] = analyse(context["runs"], paired=comparison.get("paired"),
                                  unpaired_baseline=(comparison.get("unpaired") or {}).get("baseline"),
                                  sweep=context.get("sweep"), tournament=context.get("tournament"),
                                  kind=context.get("kind", "run"), skill=context.get("skill"))
    return context


def run_context(outcome):
    """The context of one finished run (a sim.pipeline.RunOutcome with its run directory written)."""
    title = outcome.result.config.game.title
    entry = _entry(title, outcome.manifest, outcome.summary, outcome.result.aggregate, outcome.convergence)
    command = outcome.manifest.get("command") or results.reproduce_command(outcome.result.config,
                                                                          outcome.result.aggregate.n)
    return with_analysis({"title": f"{title}: {outcome.result.aggregate.n:,} games", "kind": "run",
                          "command": command, "runs": [entry], "comparison": None, "sweep": None,
                          "tournament": None})


def multi_context(kind, title, command, saved, multi, comparison=None, sweep=None, tournament=None, skill=None):
    """The context of a compare, sweep, tournament or skill ladder: `saved` as sim.pipeline.save_multi returns it."""
    runs = [_entry(label, manifest, summary, result.aggregate, conv)
            for (label, _, summary, manifest), result, conv in zip(saved, multi.results, multi.convergence)]
    return with_analysis({"title": title, "kind": kind, "command": command, "runs": runs,
                          "comparison": comparison, "sweep": sweep, "tournament": tournament, "skill": skill})


def outcome_context(outcome, title, **sections):
    """multi_context of a sim.pipeline.MultiOutcome, written to a run directory or not (then each configuration's
    entry has its label and summary, and no manifest, as a single run without `out` has)."""
    saved = outcome.saved or [(label, None, summary, {}) for label, summary in zip(outcome.labels, outcome.summaries)]
    return multi_context(outcome.kind, title, outcome.command, saved, outcome.multi, **sections)


def load_run_dir(path):
    """A saved run directory -> (manifest, summary, Aggregate); one clear error when it is not one."""
    if not os.path.isdir(path):
        raise SpecError(f"{path} is not a run directory (no such directory)")
    for name in (results.MANIFEST, results.SUMMARY):
        if not os.path.isfile(os.path.join(path, name)):
            raise SpecError(f"{path} is not a run directory: {name} is missing")
    manifest = read_object(os.path.join(path, results.MANIFEST))
    summary = read_object(os.path.join(path, results.SUMMARY))
    if "aggregate" not in summary:
        raise SpecError(f"{os.path.join(path, results.SUMMARY)} is not a run summary: it has no 'aggregate'")
    try:
        aggregate = Aggregate.from_dict(summary.pop("aggregate"))
    except (ValueError, KeyError, TypeError) as exc:
        raise SpecError(f"{os.path.join(path, results.SUMMARY)} holds a damaged aggregate: "
                        f"{type(exc).__name__}: {exc}") from None
    rows = summary.get("seats")
    if not isinstance(rows, list) or len(rows) != aggregate.players or not all(isinstance(r, dict) for r in rows):
        raise SpecError(f"{os.path.join(path, results.SUMMARY)} is not a run summary: it has no row per seat")
    return manifest, summary, aggregate


def read_object(path):
    """A JSON file that must hold an object; one line naming the file when it does not."""
    try:
        data = results.read_json(path)
    except (OSError, ValueError) as exc:
        raise SpecError(f"{path} is not readable JSON: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise SpecError(f"{path} is not a JSON object (it holds a {type(data).__name__})")
    return data


def expand_run_dirs(paths):
    """Run directories, with a compare/sweep/tournament directory standing for its sub-runs."""
    out = []
    for path in paths:
        manifest_path = os.path.join(path, results.MANIFEST)
        if os.path.isfile(manifest_path):
            manifest = read_object(manifest_path)
            if "runs" in manifest:
                out += [os.path.join(path, r["dir"]) for r in manifest["runs"]]
                continue
        out.append(path)
    return out


def _tournament(manifests, aggregates):
    from analysis.tournament import strategy_names, tournament_matrix
    lineups = [([s["label"] for s in m.get("strategies") or []], agg) for m, agg in zip(manifests, aggregates)]
    names = strategy_names(lineups)
    wins, games = tournament_matrix(lineups, names)
    return {"strategies": names, "wins": wins.tolist(), "games": games.tolist()}


def _saved_skill(paths, one_parent):
    """The "skill" entry a `sim skill` run directory's manifest keeps, when `paths` are all of its sub-runs."""
    if not one_parent:
        return None
    parent = os.path.join(os.path.dirname(os.path.normpath(os.path.abspath(paths[0]))), results.MANIFEST)
    manifest = read_object(parent) if os.path.isfile(parent) else {}
    section = manifest.get("skill")
    if not section or len(manifest.get("runs") or []) != len(paths):
        return None
    return section


def _labels(manifests, paths):
    """Short labels: the saved label, else what differs between the runs (variants, players, sets, seats)."""
    if all(m.get("label") for m in manifests) and len({m["label"] for m in manifests}) == len(manifests):
        return [m["label"] for m in manifests]
    parts = []
    for m in manifests:
        parts.append({"variants": "+".join(m.get("variants") or []) or "base", "players": f"{m.get('players')}p",
                      "sets": ",".join(f"{k}={v}" for k, v in (m.get("sets") or {}).items()),
                      "seats": ",".join(s.get("label", "?") for s in m.get("strategies") or []),
                      "seed": f"seed {m.get('seed')}"})
    keys = [k for k in ("variants", "players", "sets", "seats", "seed") if len({p[k] for p in parts}) > 1]
    labels = [" ".join(p[k] for k in keys) if keys else os.path.basename(os.path.normpath(path))
              for p, path in zip(parts, paths)] if len(manifests) > 1 else [parts[0]["variants"]]
    if len(set(labels)) != len(labels):
        labels = [os.path.basename(os.path.normpath(p)) for p in paths]
    return labels


def context_from_run_dirs(paths, output=None) -> dict:
    """A report context from saved run directories (manifest.json + summary.json with its "aggregate").

    Sub-runs of one `sim compare`/`sweep`/`tournament` are recognised by their manifests ("part_of", "label") and
    the parent's manifest supplies the command. Per-game pairing is not saved, so runs that differ in variants (or
    anything else) are shown side by side with unpaired differences of their balance metrics; a saved sweep gets
    its curves back, a saved tournament its pairwise matrix and ratings.
    """
    paths = list(paths)
    if not paths:
        raise ValueError("no run directories given")
    manifests, summaries, aggregates = [], [], []
    for path in paths:
        manifest, summary, aggregate = load_run_dir(path)
        manifests.append(manifest)
        summaries.append(summary)
        aggregates.append(aggregate)
    labels = _labels(manifests, paths)
    runs = [_entry(label, m, s, a, s.get("convergence") or m.get("convergence"))
            for label, m, s, a in zip(labels, manifests, summaries, aggregates)]
    parts = {m.get("part_of") for m in manifests}
    kind = parts.pop() if len(parts) == 1 and None not in parts else "report"
    parents = {os.path.dirname(os.path.normpath(os.path.abspath(p))) for p in paths}
    one_parent = len(parents) == 1
    command = manifests[0].get("command", "") if len(paths) == 1 else ""
    if kind != "report" and len(parents) == 1:
        parent_manifest = os.path.join(parents.pop(), "manifest.json")
        if os.path.isfile(parent_manifest):
            command = results.read_json(parent_manifest).get("command", command)
    context = {"title": "", "kind": kind, "command": command, "runs": runs, "comparison": None, "sweep": None,
               "tournament": None,
               "report_command": "sim report " + " ".join(paths) + (f" -o {output}" if output else "")}
    game = manifests[0].get("title") or manifests[0].get("game", "?")
    if kind == "sweep" and all("=" in label for label in labels) and len({lb.split("=")[0] for lb in labels}) == 1:
        values = []
        for label in labels:
            raw = label.split("=", 1)[1]
            try:
                values.append(int(raw) if raw.lstrip("-").isdigit() else float(raw))
            except ValueError:
                values.append(raw)
        context["sweep"] = {"param": labels[0].split("=")[0], "values": values}
        context["title"] = f"{game}: sweep of {context['sweep']['param']}"
    elif kind == "skill" and (skill := _saved_skill(paths, one_parent)):
        context["skill"] = skill
        context["title"] = f"{game}: skill ladder at {context['skill']['players']} players"
    elif kind == "tournament":
        context["tournament"] = _tournament(manifests, aggregates)
        mode = re.search(r"--lineups (\S+)", command or "")
        context["tournament"]["mode"] = mode.group(1) if mode else None
        context["title"] = f"{game}: tournament of {len(context['tournament']['strategies'])} strategies"
    elif len(runs) > 1 and len({m.get("game") for m in manifests}) == 1:
        context["comparison"] = {"unpaired": {"baseline": labels[0]}}
        context["title"] = f"{game}: {' vs '.join(labels)}" if len(labels) <= 6 else f"{game}: {len(labels)} runs"
    else:
        context["title"] = f"{game}: {aggregates[0].n:,} games" if len(runs) == 1 else f"{len(runs)} runs"
    if not command:
        context["command"] = " ; ".join(m.get("command", "") for m in manifests if m.get("command"))
    return with_analysis(context)
