"""A skill ladder (`sim skill`): rungs from random play to the strongest heuristics, played against each other in
one-vs-rest line-ups (each rung alone against copies of each other rung, every seat rotation, the same seeds).

    analyse_skill(skill, runs) -> {"rungs", "players", "reference", "variants": [...], "differences": [...]}

Per variant (a rule configuration; 'base' for none):
- the pairwise win-share matrix: share[i, j] = the share of comparisons (a seat of rung i against a seat of rung j
  in one game) where i ranked better, a shared rank counting half; a Wilson 95% interval on the games both played;
- Bradley–Terry ratings of the rungs (analysis.ratings, a game counted once in the intervals);
- the luck-vs-skill index: the strongest rung (the highest rated apart from random) plays alone against P − 1
  random seats, in every rotation; with w its win share there (shared wins count 1/k),
      index = (w − 1/P) / (1 − 1/P),
  0 when it wins no more than its fair share 1/P (luck decides), 1 when it wins every game (skill decides); the
  interval is w's Wilson 95% interval transformed the same way, value and bounds clipped to [0, 1];
- dominance: a rung dominates when its pairwise win share against every other rung is significantly above 50%:
  one-sided z tests with the largest variance a per-game share in [0, 1] can have (0.25 / n games; exact for two
  players without shared ranks, conservative otherwise), Holm-corrected over that rung's comparisons.
Between variants: the index of each variant minus that of the reference ('base' when given, else the first),
paired on the same seeds: the 32 fixed batches of game indices (sim.aggregate.BATCHES) are the same games in both,
so the interval is mean ± t(0.975, B − 1) · s.e. of the batch differences (batch means); Holm-corrected over the
variants.
"""
from __future__ import annotations

import math

import numpy as np

from analysis.distributions import norm_sf, t_ppf, t_sf
from analysis.intervals import wilson
from analysis.seats import ALPHA, holm
from sim.spec import WIN_SCALE

RANDOM = "random"  # the bottom rung: every game's uniformly random legal play


def index_of_share(share, players):
    """(w − 1/P) / (1 − 1/P), clipped to [0, 1]."""
    fair = 1 / players
    return float(min(1.0, max(0.0, (share - fair) / (1 - fair))))


def pairwise_shares(wins, games, met):
    """(share, lo, hi) matrices: ranked better, a shared rank counting half, per comparison; Wilson on the games
    both played (nan where two rungs never met)."""
    wins, games, met = (np.asarray(x, float) for x in (wins, games, met))
    shared = np.clip(games - wins - wins.T, 0.0, None)
    share = np.divide(wins + shared / 2, games, out=np.full(wins.shape, np.nan), where=games > 0)
    lo, hi = np.full(wins.shape, np.nan), np.full(wins.shape, np.nan)
    for i, j in zip(*np.nonzero(games > 0)):
        lo[i, j], hi[i, j] = wilson(share[i, j] * met[i, j], met[i, j])
    return share, lo, hi


def dominance(names, share, met, lo, hi):
    """Per rung: its one-sided tests against every other rung (Holm-corrected) and whether it dominates."""
    rows = []
    for i, name in enumerate(names):
        others = [j for j in range(len(names)) if j != i and met[i, j] > 0]
        p = [norm_sf(2 * math.sqrt(met[i, j]) * (share[i, j] - 0.5)) for j in others]
        reject, adjusted = holm(p) if p else (np.zeros(0, bool), np.zeros(0))
        against = [{"opponent": names[j], "share": float(share[i, j]), "lo": float(lo[i, j]), "hi": float(hi[i, j]),
                    "n": int(met[i, j]), "p": float(pj),
                    "p_holm": float(a), "significant": bool(r)} for j, pj, a, r in zip(others, p, adjusted, reject)]
        rows.append({"strategy": name, "against": against,
                     "dominates": bool(against) and len(others) == len(names) - 1 and bool(np.all(reject))})
    return rows


def _index_lineups(lineups, strongest):
    """(seat of the strongest rung, aggregate) of every line-up seating it alone against random seats."""
    out = []
    for labels, agg in lineups:
        if labels.count(strongest) == 1 and all(label == RANDOM for label in labels if label != strongest):
            out.append((labels.index(strongest), agg))
    return out


def skill_index(lineups, strongest, players):
    """The luck-vs-skill index of `strongest` (module docstring) with its share, n and per-batch sums."""
    found = _index_lineups(lineups, strongest)
    if not found:
        return None
    i_win = list(found[0][1].seat_columns).index("win60")
    wins = sum(agg.seat_sum[seat, i_win] for seat, agg in found) / WIN_SCALE
    n = int(sum(agg.n for _, agg in found))
    batch_wins = sum(agg.batch_win[:, seat].astype(float) for seat, agg in found) / WIN_SCALE
    batch_n = sum(agg.batch_n.astype(float) for _, agg in found)
    share = wins / n if n else float("nan")
    lo, hi = wilson(wins, n)
    return {"strategy": strongest, "share": share, "lo": lo, "hi": hi, "n": n, "fair": 1 / players,
            "index": index_of_share(share, players), "index_lo": index_of_share(lo, players),
            "index_hi": index_of_share(hi, players), "batch_wins": batch_wins.tolist(), "batch_n": batch_n.tolist()}


def paired_index_difference(variant, reference, players):
    """The variant's index minus the reference's (unclipped), paired on the same batches of game indices."""
    bw, bn = np.asarray(variant["batch_wins"]), np.asarray(variant["batch_n"])
    rw, rn = np.asarray(reference["batch_wins"]), np.asarray(reference["batch_n"])
    scale = 1 - 1 / players
    diff = (variant["share"] - reference["share"]) / scale
    keep = (bn > 0) & (rn > 0)
    d = (bw[keep] / bn[keep] - rw[keep] / rn[keep]) / scale
    out = {"diff": float(diff), "lo": float("nan"), "hi": float("nan"), "p": float("nan"), "batches": int(keep.sum()),
           "n": int(variant["n"])}
    if d.size >= 2:
        se = float(np.std(d, ddof=1) / math.sqrt(d.size))
        half = t_ppf(0.975, d.size - 1) * se
        out.update(lo=diff - half, hi=diff + half,
                   p=float(2 * t_sf(abs(diff) / se, d.size - 1)) if se > 0 else (1.0 if diff == 0 else 0.0))
    return out


def _variant(name, lineups, rungs, players):
    from analysis.ratings import bradley_terry
    from analysis.tournament import common_games, strategy_totals, tournament_matrix
    wins, games = tournament_matrix(lineups, rungs)
    met = common_games(lineups, rungs)
    share, lo, hi = pairwise_shares(wins, games, met)
    ratings = bradley_terry(wins, rungs, per_game=met, compared=games)
    climbers = [s for s in ratings["strategy"] if s != RANDOM]
    strongest = climbers[0] if climbers else None
    return {"variant": name, "strategies": list(rungs), "wins": wins, "games": games, "met": met, "share": share,
            "lo": lo, "hi": hi, "ratings": ratings, "totals": strategy_totals(lineups, rungs),
            "strongest": strongest, "index": skill_index(lineups, strongest, players) if strongest else None,
            "dominance": dominance(rungs, share, met, lo, hi), "per_lineup": int(lineups[0][1].n) if lineups else 0,
            "lineups": len(lineups)}


def analyse_skill(skill, runs):
    """skill: {"rungs", "players", "variants": [{"variant", "runs": [indices into runs]}]}; runs: the report
    context's runs (seat_labels, aggregate)."""
    rungs, players = list(skill["rungs"]), int(skill["players"])
    variants = [_variant(v["variant"], [(runs[i]["seat_labels"], runs[i]["aggregate"]) for i in v["runs"]], rungs,
                         players) for v in skill["variants"]]
    names = [v["variant"] for v in variants]
    reference = names.index("base") if "base" in names else 0
    differences = []
    for v in variants:
        if v is variants[reference] or v["index"] is None or variants[reference]["index"] is None:
            continue
        differences.append({"variant": v["variant"], "reference": names[reference],
                            **paired_index_difference(v["index"], variants[reference]["index"], players)})
    if differences:
        reject, adjusted = holm([d["p"] for d in differences])
        for d, r, a in zip(differences, reject, adjusted):
            d["p_holm"], d["significant"] = float(a), bool(r)
    return {"rungs": rungs, "players": players, "reference": names[reference], "variants": variants,
            "differences": differences, "alpha": ALPHA}


def _pct(x):
    return f"{100 * x:.1f}%"


def index_phrase(v, players):
    """'luck-vs-skill index 0.62 (95% interval 0.58 to 0.66): weighted, the strongest rung, wins 71.5% (...) of
    2,000 games alone against 1 random seat, against a fair share of 50.0%'."""
    x = v["index"]
    seats = f"{players - 1} random seat" + ("s" if players > 2 else "")
    return (f"luck-vs-skill index {x['index']:.2f} (95% interval {x['index_lo']:.2f} to {x['index_hi']:.2f}): "
            f"{x['strategy']}, the strongest rung, wins {_pct(x['share'])} (95% interval {_pct(x['lo'])} to "
            f"{_pct(x['hi'])}) of {x['n']:,} games alone against {seats}, against a fair share of {_pct(x['fair'])}")


def dominance_phrase(v):
    """Which rung beats every other head to head, or the nearest candidate and where it falls short."""
    from analysis.seats import format_p
    from analysis.verdict import signed
    top = next((r for r in v["dominance"] if r["dominates"]), None)
    if top is not None:
        parts = [f"{a['opponent']} {_pct(a['share'])} [{_pct(a['lo'])}, {_pct(a['hi'])}] ({format_p(a['p_holm'])}, "
                 f"n = {a['n']:,})"
                 for a in top["against"]]
        return (f"the rung {top['strategy']} dominates: it beats every other rung head to head, its pairwise win share "
                f"significantly above 50% against each (one-sided tests, Holm-corrected): " + ", ".join(parts))
    if v["strongest"] is None:
        return "no rung beats every other"
    best = next(r for r in v["dominance"] if r["strategy"] == v["strongest"])
    short = [a for a in best["against"] if not a["significant"]]
    worst = min(short, key=lambda a: a["share"]) if short else None
    if worst is None:
        return "no rung beats every other"
    return (f"no rung beats every other: {best['strategy']}, the strongest, is not significantly above 50% against "
            f"{worst['opponent']} ({_pct(worst['share'])}, 95% interval {_pct(worst['lo'])} to {_pct(worst['hi'])}, "
            f"{signed(100 * (worst['share'] - 0.5))} percentage points from even, {format_p(worst['p_holm'])} after "
            f"Holm, n = {worst['n']:,} games)")


def difference_phrase(d):
    from analysis.seats import format_p
    from analysis.verdict import signed
    return (f"{d['variant']} {'changes' if d['significant'] else 'does not measurably change'} how much skill "
            f"matters: its index minus {d['reference']}'s is {signed(d['diff'], 2)} (95% interval "
            f"{signed(d['lo'], 2)} to {signed(d['hi'], 2)}; paired on the same {d['n']:,} games in "
            f"{d['batches']} batches, {format_p(d['p_holm'])} after Holm over the variants)")


def skill_sentences(skill):
    """The verdict of a skill ladder: the index, dominance, and each variant's change (at most six sentences)."""
    if not skill:
        return []
    players, variants = skill["players"], skill["variants"]
    several = len(variants) > 1
    lines = []
    for v in variants:
        where = f"With {v['variant']}, " if several else ""
        if v["index"] is None:
            lines.append(f"{where}no rung other than random played, so there is no luck-vs-skill index.")
            continue
        text = index_phrase(v, players)
        lines.append(where + (text[:1].upper() + text[1:] if not where else text) + ".")
        if not several or v["variant"] == skill["reference"]:
            text = dominance_phrase(v)
            lines.append(where + (text[:1].upper() + text[1:] if not where else text) + ".")
    for d in skill["differences"]:
        text = difference_phrase(d)
        lines.append(text[:1].upper() + text[1:] + ".")
    return lines
