"""The verdict: at most six ranked sentences in plain words, each with the report section that holds its evidence.

Order: fairness first (which seat is advantaged, by how many percentage points, its 95% interval, significant or
not after Holm correction), then what each variant or parameter value changes about fairness (paired with the base
of its own player count), then game length, then decisiveness and ties. Shares are in percentage points, scores in
points, p-values as `p < 0.001`, and no number a person reads is in scientific notation.

    verdict_sentences(runs, findings, sweep) -> [{"text", "href"}]      (analysis/findings.py calls it)
"""
from __future__ import annotations

import math

from analysis.compare import describe_metric
from analysis.findings import family
from analysis.seats import format_p

MAX_SENTENCES = 6
LINEUP_KINDS = ("tournament", "skill")  # reports of strategy line-ups, where seats tell little about the rules


def signed(x, digits=1):
    """'+2.3', '−0.4' (a true minus sign), '0.0' for a value that rounds to zero."""
    if not math.isfinite(x):
        return "n/a"
    text = f"{abs(x):.{digits}f}"
    if float(text) == 0:
        return text
    return ("+" if x > 0 else "−") + text


def plain(x, digits=1):
    return "n/a" if x is None or not math.isfinite(x) else f"{x:,.{digits}f}"


def _interval(lo, hi, digits=1, sign=True):
    f = signed if sign else plain
    return f"95% interval {f(lo, digits)} to {f(hi, digits)}"


def _seat_phrase(adv, compact=False):
    """(sentence body, significant) of one run's seat test, e.g. 'seat 1 is advantaged: it wins 52.3% of games
    against a fair 50.0%, +2.3 percentage points (95% interval ...), significant (exact binomial test, p < 0.001)';
    compact: 'seat 1 is advantaged by +2.3 percentage points (95% interval ..., p < 0.001)'."""
    rows = adv["seats"]
    if not rows:
        return "no games were played, so seat advantage cannot be assessed", False
    fair = 100 * adv["fair"]
    binomial = adv["test"] == "binomial"
    test = (lambda p: f"(exact binomial test, {format_p(p)})") if binomial else \
        (lambda p: f"after Holm correction over the {adv['players']} seats ({format_p(p)})")
    sig = [r for r in rows if r["significant"]]
    if sig:
        r = max(sig, key=lambda r: (r["excess_pp"] > 0, abs(r["excess_pp"])))
    else:
        r = max(rows, key=lambda r: (abs(r["excess_pp"]), r["excess_pp"] > 0))
    p = r["p_value"] if binomial else r["p_holm"]
    excess = f"{signed(r['excess_pp'])} percentage points"
    interval = _interval(r["wilson_lo_pp"], r["wilson_hi_pp"])
    if sig:
        word = "advantaged" if r["excess_pp"] > 0 else "disadvantaged"
        if compact:
            return f"seat {r['seat'] + 1} is {word} by {excess} ({interval}, {format_p(p)})", True
        return (f"seat {r['seat'] + 1} is {word}: it wins {100 * r['share']:.1f}% of games against a fair "
                f"{fair:.1f}%, {excess} ({interval}), significant {test(p)}"), True
    if compact:
        return (f"no seat is significantly advantaged (largest deviation: seat {r['seat'] + 1}, {excess}, "
                f"{interval}, {format_p(p)})"), False
    return (f"no seat is significantly advantaged: the largest deviation from the fair {fair:.1f}% is seat "
            f"{r['seat'] + 1}'s, {excess} ({interval}), not significant {test(p)}"), False


def _cap(text):
    return text[:1].upper() + text[1:]


def _fairness(runs, findings):
    """One sentence: the single run's seat test, or the base configuration's at every player count."""
    analysed = findings["runs"]
    crossed = findings["crossed"]
    if findings["kind"] in LINEUP_KINDS:
        return []
    if len(runs) == 1:
        return [_cap(_seat_phrase(analysed[0]["advantage"])[0]) + "."]
    bases = {}
    paired_variants = {row["variant"] for row in crossed}
    for r, a in zip(runs, analysed):
        if r["label"] not in paired_variants:
            bases.setdefault(r["aggregate"].players, (r, a))
    if findings["kind"] == "sweep" and len(bases) == 1:
        sig = [r["label"] for r, a in zip(runs, analysed) if a["advantage"]["significant_seats"]]
        first = _seat_phrase(analysed[0]["advantage"])[0]
        rest = (f"; some seat's share differs significantly from fair at {len(sig)} of {len(runs)} values "
                f"({', '.join(sig[:4])}{f' and {len(sig) - 4} more' if len(sig) > 4 else ''})" if sig else
                f"; at none of the {len(runs)} values does a seat's share differ significantly from fair")
        return [f"At {runs[0]['label']}, {first}{rest}."]
    if len(bases) == 1:
        (players, (r, a)), = bases.items()
        return [f"At {players} players ({r['label']}), {_seat_phrase(a['advantage'])[0]}."]
    parts = [f"at {players} players, {_seat_phrase(a['advantage'], compact=True)[0]}"
             for players, (r, a) in sorted(bases.items())]
    named = " and ".join(dict.fromkeys(family(r["label"]) for r, _ in bases.values()))
    sig = sum(1 for a in analysed if a["advantage"]["significant_seats"])
    tail = (f"; some seat's share differs significantly from fair in {sig} of {len(runs)} configurations"
            if findings["kind"] == "sweep" else "")
    return [f"Under {named if len(named) <= 40 else 'the first configuration of each count'}: "
            + "; ".join(parts[:4]) + (f"; {len(parts) - 4} more player counts in the seat tables"
                                      if len(parts) > 4 else "") + tail + "."]


def _largest_change(r):
    """(seat, text) of a crossed row's most telling seat: significant first, then the largest change."""
    s = max(range(len(r["diff_pp"])), key=lambda i: (r["significant"][i], abs(r["diff_pp"][i])))
    return s, (f"seat {s + 1}'s win share {signed(r['diff_pp'][s])} percentage points "
               f"({_interval(r['lo_pp'][s], r['hi_pp'][s])}, {format_p(r['p_holm'][s])})")


def _named(name):
    """A configuration's name at the start of a sentence: 'Variant random-junk', 'Setting break_at=50'."""
    return f"Setting {name}" if "=" in name else f"Variant {name}"


def _family_sentence(name, rows):
    counts = len({r["players"] for r in rows}) > 1
    against = "the base at the same player count" if counts else rows[0]["baseline"]
    changed = [r for r in rows if r["changes_advantage"]]
    if not changed:
        best = min(rows, key=lambda r: r["min_p"] if math.isfinite(r["min_p"]) else 2.0)
        where = f" at any of {', '.join(str(r['players']) for r in rows)} players" if counts else ""
        return (f"{_named(name)} does not change seat advantage significantly{where} (paired with {against}; "
                f"smallest Holm-adjusted {format_p(best['min_p'])}).")
    bits = [(f"at {r['players']} players: " if counts else "") + _largest_change(r)[1] for r in changed]
    unchanged = [str(r["players"]) for r in rows if not r["changes_advantage"]]
    tail = f"; not significantly at {', '.join(unchanged)} players" if unchanged and counts else ""
    return f"{_named(name)} changes seat advantage vs {against} ({'; '.join(bits)}){tail}."


def _fairness_changes(findings):
    """What each variant (or parameter value) changes about fairness, paired with the base of its own player
    count and Holm-corrected over the table: one sentence per variant, or one for them all when there are many."""
    by_family = {}
    for row in findings["crossed"]:
        by_family.setdefault(row["family"], []).append(row)
    if findings["kind"] != "sweep" and len(by_family) <= 3:
        return [_family_sentence(name, rows) for name, rows in by_family.items()]
    if not by_family:
        return []
    changed = [name for name, rows in by_family.items() if any(r["changes_advantage"] for r in rows)]
    several = len({r["players"] for r in findings["crossed"]}) > 1
    base = "the first value at the same player count" if several else findings["crossed"][0]["baseline"]
    if not changed:
        return [f"None of the {len(by_family)} {'values' if findings['kind'] == 'sweep' else 'variants'} changes "
                f"seat advantage significantly against {base} (paired, Holm-corrected)."]
    bits = []
    for name in changed[:3]:
        r = next(r for r in by_family[name] if r["changes_advantage"])
        bits.append(f"{name}{' at ' + str(r['players']) + ' players' if len(by_family[name]) > 1 else ''}: "
                    + _largest_change(r)[1])
    more = f", and {len(changed) - 3} more" if len(changed) > 3 else ""
    return [f"{len(changed)} of {len(by_family)} {'values' if findings['kind'] == 'sweep' else 'variants'} change "
            f"seat advantage significantly against "
            f"{'the first value at the same player count' if findings['kind'] == 'sweep' else 'their base'} "
            f"({'; '.join(bits)}{more})."]


def _sweep_sentence(findings, sweep):
    bests = findings.get("sweep_best") or []
    parts = []
    for best in bests:
        bal, others = best["balance"], best["overlapping"]
        where = f" at {best['players']} players" if len(bests) > 1 else ""
        value = best["label"].split(" ", 1)[-1] if len(bests) > 1 else best["label"]
        parts.append(f"{value.replace('=', ' = ')}{where}: {bal['value']:.3f} "
                     f"({_interval(bal['lo'], bal['hi'], 3, sign=False)}"
                     + (f"; {others} other value{'s' if others != 1 else ''} overlap it)" if others
                        else "; no other value's interval reaches it)"))
    if not parts:
        return []
    return ["Balance is highest at " + "; ".join(parts[:3]) + " (balance 1 = every seat equal)."]


def _length(runs, findings):
    analysed = findings["runs"]
    unit = runs[0]["unit"]
    df = findings["paired"]
    if df is not None and len(runs) > 1:
        rows = df[(df["metric"] == "length") & df["significant"]]
        if len(rows):
            bits = [f"{abs(r['diff']):.2f} {unit} {'longer' if r['diff'] > 0 else 'shorter'} with {r['variant']} than "
                    f"with {r['baseline']} ({_interval(r['lo'], r['hi'], 2)}, {format_p(r['p_holm'])})"
                    for _, r in rows.head(3).iterrows()]
            more = len(rows) - 3
            return ["Games are " + "; ".join(bits) + (f"; {more} more in the comparison table" if more > 0 else "")
                    + "."]
        return [f"No configuration changes game length significantly against its base "
                f"({len(df[df['metric'] == 'length'])} paired comparisons, Holm-corrected)."]
    means = [(r, a["metrics"].get("duration")) for r, a in zip(runs, analysed) if a["metrics"].get("duration")]
    if not means:
        return []
    if len(means) == 1:
        r, d = means[0]
        h = r["aggregate"].length_hist
        used = [int(h.offset + i) for i, c in enumerate(h.counts) if c]
        if len(used) == 1:
            return [f"Every game lasts exactly {used[0]} {unit}."]
        return [f"Games last {d['value']:.1f} {unit} on average ({_interval(d['lo'], d['hi'], 1, sign=False)}), "
                f"from {used[0]} to {used[-1]}."]
    lo = min(means, key=lambda m: m[1]["value"])
    hi = max(means, key=lambda m: m[1]["value"])
    return [f"Mean game length runs from {lo[1]['value']:.1f} {unit} ({lo[0]['label']}) to {hi[1]['value']:.1f} "
            f"{unit} ({hi[0]['label']})."]


def _decisiveness_and_ties(runs, findings):
    analysed = findings["runs"]
    df = findings["paired"]
    if df is not None and len(runs) > 1:
        rows = df[df["metric"].isin(["margin", "tie"]) & df["significant"]]
        if not len(rows):
            return ["No configuration changes the winning margin or the tie rate significantly against its base."]
        bits = []
        for _, r in rows.head(3).iterrows():
            words, scale, unit = describe_metric(r["metric"])
            bits.append(f"{words} {'rises' if r['diff'] > 0 else 'falls'} by {abs(r['diff']) * scale:.2f} {unit} "
                        f"with {r['variant']} vs {r['baseline']} ({format_p(r['p_holm'])})")
        return [_cap("; ".join(bits)) + "."]
    if len(runs) != 1:
        return []
    m = analysed[0]["metrics"]
    lines = []
    dec, tie = m.get("decisiveness"), m.get("tie_rate")
    n = runs[0]["aggregate"].n
    if dec and tie:
        ties = int(round(tie["value"] * n))
        if ties == n:
            tie_text = "every game ended in a shared win"
        elif ties == 0:
            tie_text = f"no game ended in a shared win (95% interval up to {100 * tie['hi']:.1f}%)"
        else:
            tie_text = (f"{100 * tie['value']:.1f}% of games ended in a shared win "
                        f"(95% interval {100 * tie['lo']:.1f}% to {100 * tie['hi']:.1f}%)")
        margin = (f"the winner ends {dec['value']:.2f} points ahead of the runner-up on average "
                  f"({_interval(dec['lo'], dec['hi'], 2, sign=False)})") if math.isfinite(dec["lo"]) else \
            f"the winner ends {dec['value']:.2f} points ahead of the runner-up on average"
        lines.append(_cap(margin) + "; " + tie_text + ".")
    return lines


def _neighbours(t):
    """Whether each strategy beats the next one in the ranking head to head (the pairwise share's interval)."""
    names = list(t["strategies"])
    order = [names.index(name) for name in t["ratings"]["strategy"]]
    close = []
    for a, b in zip(order, order[1:]):
        games = t["games"][a][b]
        if games and t["lo"][a][b] <= 0.5:
            close.append(f"{names[a]} over {names[b]} {100 * t['wins'][a][b] / games:.1f}% "
                         f"(95% interval {100 * t['lo'][a][b]:.1f}% to {100 * t['hi'][a][b]:.1f}%)")
    if not close:
        return ("Head to head, every strategy ranks above the next one in the ranking in more than half of their "
                "common games (every 95% interval above 50%).")
    return ("Head to head, the pairwise results cannot separate these neighbours in the ranking (95% interval "
            "reaching 50%): " + "; ".join(close) + ".")


def _tournament(findings):
    t = findings.get("tournament")
    if not t:
        return []
    from analysis.ratings import ranking_sentence
    lines = [_cap(ranking_sentence(t["ratings"])), _neighbours(t)]
    check = t.get("seat_check")
    if check:
        phrase, _ = _seat_phrase(check)
        lines.append(f"Seat check over every line-up pooled (strategies rotate, so this measures the seat alone): "
                     f"{phrase}.")
    return lines


def verdict_sentences(runs, findings, sweep=None):
    """[{"text", "href"}], at most MAX_SENTENCES, ranked (module docstring)."""
    ranked = [(s, "#seats") for s in _fairness(runs, findings)]
    ranked += [(s, "#tournament") for s in _tournament(findings)]
    if findings.get("skill"):
        from analysis.skill import skill_sentences
        ranked += [(s, "#skill") for s in skill_sentences(findings["skill"])]
    ranked += [(s, "#crossed" if len({r["players"] for r in findings["crossed"]}) > 1 else "#comparison")
               for s in _fairness_changes(findings)]
    ranked += [(s, "#sweep") for s in _sweep_sentence(findings, sweep or {})]
    if findings["kind"] not in LINEUP_KINDS:  # line-ups of different strategies: their lengths say little of rules
        ranked += [(s, "#length") for s in _length(runs, findings)]
        ranked += [(s, "#balance") for s in _decisiveness_and_ties(runs, findings)]
    return [{"text": text, "href": href} for text, href in ranked[:MAX_SENTENCES]]
