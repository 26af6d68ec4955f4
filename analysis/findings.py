"""Everything a report or the terminal says about a set of runs, computed once from aggregates and run metadata.

    analyse(runs, paired=None, unpaired_baseline=None, sweep=None, tournament=None, kind="run", skill=None) -> dict

runs: [{"label", "aggregate", "unit" (the length column's name), "players"}]. The result holds, per run, the seat
tests (analysis.seats) and balance metrics (analysis.balance); the paired differences of a compare or sweep
(analysis.compare, each configuration against the base of its own player count); for crossed designs (several
player counts × several variants or values) one row per (variant, player count) saying whether the variant changes
seat advantage there; unpaired differences of runs that could not be paired; a sweep's best value (per seat
count); a tournament's ratings, totals, pairwise intervals and a pooled seat check; a skill ladder's matrices, index,
dominance and variant differences (analysis/skill.py); and the verdict sentences
(analysis/verdict.py).
Reports (reports/html.py) and the terminal (sim/display.py) render this and compute nothing of their own.
"""
from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np

from analysis.balance import balance_metrics
from analysis.compare import paired_differences, unpaired_differences
from analysis.intervals import wilson
from analysis.seats import seat_advantage
from sim.spec import WIN_SCALE

PLAYERS_PREFIX = re.compile(r"^(\d+)p(?: |$)")


def family(label):
    """What a configuration changes apart from its player count: '3p random-junk' -> 'random-junk', '3p' -> 'base'."""
    rest = PLAYERS_PREFIX.sub("", label, count=1).strip()
    return rest or "base"


def convergence(aggregate, recorded=None):
    """(points [(games, [win share per seat])], rebuilt): the curve recorded chunk by chunk, else one rebuilt from
    the fixed batches (games ≡ b mod BATCHES): the union of the first k batches is an evenly spread subsample."""
    if recorded:
        return [(int(n), list(map(float, shares))) for n, shares in recorded], False
    bn = np.cumsum(aggregate.batch_n)
    bw = np.cumsum(aggregate.batch_win, axis=0) / WIN_SCALE
    keep = bn > 0
    if keep.sum() < 3:
        return [], True
    return [(int(n), (w / n).tolist()) for n, w in zip(bn[keep], bw[keep])], True


def analyse_run(aggregate, unit, recorded_convergence=None):
    return {"advantage": seat_advantage(aggregate),
            "metrics": balance_metrics(aggregate, SimpleNamespace(length_column=unit)),
            "convergence": convergence(aggregate, recorded_convergence)}


def crossed_effects(df, players_of):
    """Per (variant, player count): the paired change of every seat's win share (percentage points, with interval
    and Holm-adjusted p from the whole paired table) and whether it changes seat advantage (any seat significant).
    players_of: {label: players}. Rows in the table's order."""
    rows = []
    if df is None or not len(df):
        return rows
    for (variant, baseline), part in df.groupby(["variant", "baseline"], sort=False):
        seats = part[part["metric"].str.fullmatch(r"win_s\d+")]
        if not len(seats):
            continue
        seats = seats.assign(seat=seats["metric"].str[5:].astype(int)).sort_values("seat")
        length = part[part["metric"] == "length"]
        rows.append({"variant": variant, "family": family(variant), "baseline": baseline,
                     "players": int(players_of.get(variant, 0)),
                     "diff_pp": (100 * seats["diff"]).tolist(), "lo_pp": (100 * seats["lo"]).tolist(),
                     "hi_pp": (100 * seats["hi"]).tolist(), "p_holm": seats["p_holm"].tolist(),
                     "significant": seats["significant"].tolist(),
                     "changes_advantage": bool(seats["significant"].any()),
                     "min_p": float(np.nanmin(seats["p_holm"].to_numpy(float))) if seats["p_holm"].notna().any()
                     else float("nan"),
                     "length": length.iloc[0].to_dict() if len(length) else None})
    return rows


def _sweep_best(runs, analysed):
    """Per seat count (one entry unless the sweep is crossed with --players): the value with the highest balance,
    and how many other values' intervals reach it."""
    out = []
    for players in dict.fromkeys(r["aggregate"].players for r in runs):
        idx = [i for i, r in enumerate(runs) if r["aggregate"].players == players]
        bal = [analysed[i]["metrics"].get("balance") for i in idx]
        if not all(bal):
            continue
        k = int(np.nanargmax([m["value"] for m in bal]))
        overlapping = sum(1 for j, m in enumerate(bal) if j != k and m["hi"] >= bal[k]["lo"])
        out.append({"index": idx[k], "players": players, "label": runs[idx[k]]["label"], "balance": bal[k],
                    "overlapping": overlapping})
    return out


def pairwise_intervals(wins, games, met=None):
    """Wilson 95% interval of each pairwise share wins[i, j] / games[i, j] (nan where the two never met), on
    met[i, j] games (the games both played; default games[i, j]): the comparisons of one game, when a line-up seats
    copies, are not independent, and a share of [0, 1] outcomes per game is never more variable than a binomial."""
    wins, games = np.asarray(wins, float), np.asarray(games, float)
    met = games if met is None else np.asarray(met, float)
    lo, hi = np.full(wins.shape, np.nan), np.full(wins.shape, np.nan)
    for i, j in zip(*np.nonzero(games > 0)):
        lo[i, j], hi[i, j] = wilson(wins[i, j] / games[i, j] * met[i, j], met[i, j])
    return lo, hi


def _tournament(tournament, runs):
    from analysis.ratings import bradley_terry
    from analysis.tournament import common_games, strategy_totals
    from sim.aggregate import Aggregate
    names = list(tournament["strategies"])
    wins, games = np.asarray(tournament["wins"], float), np.asarray(tournament["games"], float)
    lineups = [(r["seat_labels"], r["aggregate"]) for r in runs]
    met = common_games(lineups, names)
    pooled = None
    if len({r["aggregate"].players for r in runs}) == 1:  # every line-up seats as many: one pooled seat check
        first = runs[0]["aggregate"]
        pooled = Aggregate(first.players, first.seat_columns, first.game_columns)
        for r in runs:
            pooled.merge(r["aggregate"])
    lo, hi = pairwise_intervals(wins, games, met)
    return {"strategies": names, "wins": wins, "games": games, "met": met, "lo": lo, "hi": hi,
            "mode": tournament.get("mode"), "copies": any(len(set(labels)) < len(labels) for labels, _ in lineups),
            "ratings": bradley_terry(wins, names, per_game=met, compared=games),
            "totals": strategy_totals(lineups, names),
            "lineups": [{"label": r["label"], "n": r["aggregate"].n} for r in runs],
            "seat_check": seat_advantage(pooled) if pooled is not None else None}


def unpaired_pairs(players, first=0, skip=()):
    """(run, baseline) index pairs for runs that cannot be paired game by game: each run against the first run with
    its player count (a variant against the base of its count), a run that opens a new player count against run
    `first` (the effect of the count). Runs in `skip` (already paired) are left out."""
    pairs, first_of = [], {}
    for i, p in enumerate(players):
        j = first_of.setdefault(p, i)
        if i in skip or i == first:
            continue
        if j != i:
            pairs.append((i, j))
        else:
            pairs.append((i, first))
    return pairs


def _unpaired(runs, analysed, labels, paired, baseline):
    """Unpaired differences of the runs in no pair (saved run directories, or other player counts)."""
    in_pairs = set((paired or {}).get("variants", {})) | set(((paired or {}).get("baselines") or {}).values())
    if paired and paired.get("variants"):
        in_pairs.add(paired.get("baseline"))
    first = labels.index(baseline) if baseline in labels else 0
    skip = {i for i, label in enumerate(labels) if label in in_pairs}
    pairs = unpaired_pairs([r["aggregate"].players for r in runs], first, skip)
    if not pairs:
        return None
    df = unpaired_differences(labels, [a["metrics"] for a in analysed], pairs, [r["aggregate"].n for r in runs])
    return df if len(df) else None


def analyse(runs, paired=None, unpaired_baseline=None, sweep=None, tournament=None, kind="run", skill=None) -> dict:
    """The analysis of a report's runs (module docstring)."""
    from analysis.verdict import verdict_sentences
    analysed = [analyse_run(r["aggregate"], r["unit"], r.get("convergence")) for r in runs]
    labels = [r["label"] for r in runs]
    players_of = {r["label"]: r["aggregate"].players for r in runs}
    out = {"runs": analysed, "paired": None, "crossed": [], "unpaired": None, "sweep_best": None,
           "tournament": None, "skill": None, "kind": kind}
    if paired and paired.get("variants"):
        out["paired"] = paired_differences(paired)
        out["crossed"] = crossed_effects(out["paired"], players_of)
    if (unpaired_baseline is not None or kind == "compare") and len(runs) > 1:
        out["unpaired"] = _unpaired(runs, analysed, labels, paired, unpaired_baseline)
    if sweep and len(sweep.get("values", [])) == len(runs):
        out["sweep_best"] = _sweep_best(runs, analysed)
    if tournament:
        out["tournament"] = _tournament(tournament, runs)
    if skill:
        from analysis.skill import analyse_skill
        out["skill"] = analyse_skill(skill, runs)
    out["verdict"] = verdict_sentences(runs, out, sweep)
    return out
