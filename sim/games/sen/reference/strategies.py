"""Sen reference: the shipped strategies (§9) as agents `agent(kind, obs, options, rng) -> option`."""
from __future__ import annotations

from sim.games.sen import rules as R
from sim.games.sen.obs import D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, OPT_DISCARD, \
    OPT_USE, SRC_DRAW, SRC_FACEUP
from sim.games.sen.reference.state import is_special
from sim.games.sen.rules import P_CALL_SCALE, PEEK, SWAP, TAKE2, UNKNOWN


def _b(obs, c, mu):
    """b(c): ravens of a known card; μ for UNKNOWN, and for a special when replace_specials = 1 (§9)."""
    if c == UNKNOWN or (is_special(c) and obs.params["replace_specials"]):
        return mu
    return float(obs.ravens[c])


def unseen_counts(obs):
    """p's unseen multiset (SEN-24): deck − face-up pile − cards known in slots (K_p) − cards held."""
    counts = list(obs.deck_counts)
    for c in obs.faceup:
        counts[c] -= 1
    for row in obs.know:
        for c in row:
            if c != UNKNOWN:
                counts[c] -= 1
    for c in obs.held:
        counts[c] -= 1
    return counts


def mu_p(obs):
    """μ_p (§9): mean ravens of the unseen multiset (number cards only with replace_specials = 1); μ0 if empty."""
    counts = unseen_counts(obs)
    codes = range(10) if obs.params["replace_specials"] else range(R.N_CODES)
    n = sum(counts[c] for c in codes)
    if n > 0:
        return sum(counts[c] * obs.ravens[c] for c in codes) / n
    return R.mu0(obs.params)


def _own(obs, mu):
    """(b per own slot, s* = highest b with the lowest index, Ê)."""
    bs = [_b(obs, c, mu) for c in obs.know[obs.seat]]
    star = 0
    for s in range(1, len(bs)):
        if bs[s] > bs[star]:
            star = s
    e = 0.0
    for v in bs:
        e += v
    return bs, star, e


def _land(obs, c, mu, bs, star):
    """Land handling: B1 into s* if b(s*) > b(c), else B2."""
    return star if bs[star] > _b(obs, c, mu) else OPT_DISCARD(obs.dream_size)


def _threshold_swap_slot(obs, bs, swap_at):
    """Own slot of the highest KNOWN card if its b ≥ swap_at (tie → lowest index), else -1."""
    best = -1
    for s, c in enumerate(obs.know[obs.seat]):
        if c != UNKNOWN and (best < 0 or bs[s] > bs[best]):
            best = s
    return best if best >= 0 and bs[best] >= swap_at else -1


def threshold_strategy(kind, obs, options, rng, prm):
    """§9.2 `threshold`: own slots and μ0 only."""
    mu = R.mu0(obs.params)
    p, ds = obs.seat, obs.dream_size
    bs, star, e = _own(obs, mu)
    if kind == D_SOURCE:
        top = _b(obs, obs.faceup[-1], mu)
        return SRC_FACEUP if top <= prm["keep_max"] and bs[star] > top else SRC_DRAW
    if kind == D_FACEUP_SLOT:
        return star
    if kind == D_DRAWN:
        c = obs.held[0]
        if c == TAKE2:
            return OPT_USE(ds)
        if c == PEEK and UNKNOWN in obs.know[p]:
            return OPT_USE(ds)
        if c == SWAP and _threshold_swap_slot(obs, bs, prm["swap_at"]) >= 0:
            return OPT_USE(ds)
        return _land(obs, c, mu, bs, star)
    if kind == D_KEEP:
        return 0 if _b(obs, obs.held[0], mu) <= _b(obs, obs.held[1], mu) else 1
    if kind == D_PEEK:
        return (p, obs.know[p].index(UNKNOWN))
    if kind == D_SWAP:
        return (_threshold_swap_slot(obs, bs, prm["swap_at"]), (p + 1) % obs.players, 0)
    if kind == D_CALL:
        return 1 if e <= prm["call_at"] else 0
    raise ValueError(kind)


def _memory_peek_target(obs):
    p, n = obs.seat, obs.players
    if UNKNOWN in obs.know[p]:
        return (p, obs.know[p].index(UNKNOWN))
    if obs.params["peek_scope"] == 0:
        for d in range(1, n):
            q = (p + d) % n
            if UNKNOWN in obs.know[q]:
                return (q, obs.know[q].index(UNKNOWN))
    return None


def _memory_best_swap(obs, mu, bs):
    """Best (gain, (i, q, j)); ties → known target, nearest opponent clockwise, lower j, lower i."""
    p, n, ds = obs.seat, obs.players, obs.dream_size
    best, best_gain, best_known = None, 0.0, False
    for d in range(1, n):
        q = (p + d) % n
        for j in range(ds):
            c = obs.know[q][j]
            known = c != UNKNOWN
            bt = _b(obs, c, mu)
            for i in range(ds):
                gain = bs[i] - bt
                if best is None or gain > best_gain or (gain == best_gain and known and not best_known):
                    best, best_gain, best_known = (i, q, j), gain, known
    return best_gain, best


def memory_strategy(kind, obs, options, rng, prm):
    """§9.3 `memory`: the whole of K_p, the public record and μ_p."""
    mu = mu_p(obs)
    p, n, ds = obs.seat, obs.players, obs.dream_size
    bs, star, e = _own(obs, mu)
    if kind == D_SOURCE:
        return SRC_FACEUP if bs[star] - _b(obs, obs.faceup[-1], mu) >= prm["take_gain"] else SRC_DRAW
    if kind == D_FACEUP_SLOT:
        return star
    if kind == D_DRAWN:
        c = obs.held[0]
        if c == TAKE2:
            return OPT_USE(ds)
        if c == PEEK and _memory_peek_target(obs) is not None:
            return OPT_USE(ds)
        if c == SWAP and _memory_best_swap(obs, mu, bs)[0] >= prm["swap_gain"]:
            return OPT_USE(ds)
        return _land(obs, c, mu, bs, star)
    if kind == D_KEEP:
        return 0 if _b(obs, obs.held[0], mu) <= _b(obs, obs.held[1], mu) else 1
    if kind == D_PEEK:
        return _memory_peek_target(obs)
    if kind == D_SWAP:
        return _memory_best_swap(obs, mu, bs)[1]
    if kind == D_CALL:
        if e > prm["call_at"]:
            return 0
        if obs.params["caller_penalty"] > 0:
            for d in range(1, n):
                q = (p + d) % n
                eq = 0.0
                unknown = 0
                for c in obs.know[q]:
                    if c == UNKNOWN:
                        unknown += 1
                    else:
                        eq += _b(obs, c, mu)
                eq += prm["opp_unknown"] * unknown
                if e > eq:
                    return 0
        return 1
    raise ValueError(kind)


def random_strategy(kind, obs, options, rng, prm):
    """§5 table: uniform over the offered options; D7 calls with probability p_call."""
    if kind == D_CALL:
        return 1 if rng.below(P_CALL_SCALE) < prm["p_call"] * P_CALL_SCALE else 0
    return options[rng.below(len(options))]


STRATEGY_FUNCS = {"random": random_strategy, "threshold": threshold_strategy, "memory": memory_strategy}


def make_agent(name, sparams=None):
    """An agent from a strategy name and its parameters (defaults filled in); a callable is used as is."""
    if callable(name):
        return name
    info = next((s for s in R.STRATEGIES if s.name == name), None)
    if info is None:
        raise ValueError(f"unknown sen strategy '{name}'; accepted: {', '.join(STRATEGY_FUNCS)}")
    prm = {**info.params, **(sparams or {})}
    fn = STRATEGY_FUNCS[name]
    return lambda kind, obs, options, rng: fn(kind, obs, options, rng, prm)
