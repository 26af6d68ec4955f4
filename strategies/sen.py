"""Sen heuristic players (docs/rules/sen.md §9).

They decide from the observation of `sim.games.sen.obs` (decisions, option codes and layout documented there) with
the shared njit helpers of `sim.games.sen.model`; they never see the kernel.
"""
from sim.jit import kernel_njit
from sim.games.sen.model import know, know_index, next_seat, opt_discard, opt_use, peek_action, swap_action
from sim.games.sen.obs import (D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, O_DECK,
                               O_DREAM_SIZE, O_FACEUP, O_HELD, O_HELD_N, O_KIND, O_PLAYERS, O_RAVENS,
                               O_RULES, O_SEAT, O_TOP, R_CALLER_PENALTY, R_PEEK_SCOPE, R_REPLACE_SPECIALS,
                               SRC_DRAW, SRC_FACEUP)
from sim.games.sen.rules import N_CODES, N_NUMBERS, P_CALL_SCALE, PEEK, STRATEGIES, SWAP, TAKE2, UNKNOWN
from sim.rng import below

_SID = {s.name: s.sid for s in STRATEGIES}
RANDOM, THRESHOLD, MEMORY = _SID["random"], _SID["threshold"], _SID["memory"]
# Parameter columns (StrategyInfo.params order in sim/games/sen/rules.py).
P_P_CALL = 0
P_KEEP_MAX, P_SWAP_AT, P_T_CALL_AT = 0, 1, 2
P_TAKE_GAIN, P_SWAP_GAIN, P_M_CALL_AT, P_OPP_UNKNOWN = 0, 1, 2, 3


@kernel_njit(inline="always")
def mu0(obs):
    """μ0 (§9): whole-deck mean ravens under the active scoring, one division of integer sums (= rules.mu0)."""
    n_codes = N_NUMBERS if obs[O_RULES + R_REPLACE_SPECIALS] == 1 else N_CODES
    for _ in range(2):
        n = 0
        tot = 0
        for c in range(n_codes):
            n += obs[O_DECK + c]
            tot += obs[O_DECK + c] * obs[O_RAVENS + c]
        if n > 0:
            return tot / n
        n_codes = N_CODES  # no number card: fall back to the whole deck
    return 0.0


@kernel_njit(inline="always")
def mu_p(obs):
    """μ_p (§9): mean ravens of the unseen multiset (SEN-24: deck − face-up pile − cards known in K_p − held);
    number cards only with replace_specials = 1; μ0 when it is empty."""
    players, ds = obs[O_PLAYERS], obs[O_DREAM_SIZE]
    n_codes = N_NUMBERS if obs[O_RULES + R_REPLACE_SPECIALS] == 1 else N_CODES
    n = 0
    tot = 0
    for c in range(n_codes):
        k = obs[O_DECK + c] - obs[O_FACEUP + c]
        n += k
        tot += k * obs[O_RAVENS + c]
    for q in range(players):
        base = know_index(q, 0)
        for s in range(ds):
            c = obs[base + s]
            if 0 <= c < n_codes:
                n -= 1
                tot -= obs[O_RAVENS + c]
    for h in range(obs[O_HELD_N]):
        c = obs[O_HELD + h]
        if c < n_codes:
            n -= 1
            tot -= obs[O_RAVENS + c]
    if n > 0:
        return tot / n
    return mu0(obs)


@kernel_njit(inline="always")
def believed(obs, c, mu):
    """b(c): ravens of a known card; μ for UNKNOWN, and for a special when replace_specials = 1 (§9)."""
    if c == UNKNOWN or (c >= TAKE2 and obs[O_RULES + R_REPLACE_SPECIALS] == 1):
        return mu
    return float(obs[O_RAVENS + c])


@kernel_njit(inline="always")
def own_star(obs, mu):
    """s* = own slot with the highest b (lowest index on ties) and its b."""
    p, ds = obs[O_SEAT], obs[O_DREAM_SIZE]
    star, bstar = 0, believed(obs, know(obs, p, 0), mu)
    for s in range(1, ds):
        v = believed(obs, know(obs, p, s), mu)
        if v > bstar:
            star, bstar = s, v
    return star, bstar


@kernel_njit(inline="always")
def own_total(obs, mu):
    """Ê: sum of b over own slots, in slot order."""
    p, ds = obs[O_SEAT], obs[O_DREAM_SIZE]
    e = 0.0
    for s in range(ds):
        e += believed(obs, know(obs, p, s), mu)
    return e


@kernel_njit(inline="always")
def first_unknown(obs, q):
    """The lowest slot of seat q this player does not know, or -1."""
    for s in range(obs[O_DREAM_SIZE]):
        if know(obs, q, s) == UNKNOWN:
            return s
    return -1


@kernel_njit(inline="always")
def land(obs, c, mu):
    """Land handling (§9): B1 into s* if b(s*) > b(c), else B2."""
    star, bstar = own_star(obs, mu)
    if bstar > believed(obs, c, mu):
        return star
    return opt_discard(obs[O_DREAM_SIZE])


@kernel_njit(inline="always")
def keep_lower(obs, mu):
    """D4: keep the card with the lower b (tie → the first drawn)."""
    return 0 if believed(obs, obs[O_HELD], mu) <= believed(obs, obs[O_HELD + 1], mu) else 1


# ---------------------------------------------------------------- random (§5 table)

@kernel_njit(inline="always")
def random_action(kind, seat, players, ds, held, peek_scope, p_call, rng):
    """`random`: uniform over the options of the decision, in the reference's option order (its module docstring),
    so the same draws give the same choices. Needs no observation; the kernel calls it directly.
    One draw per decision, from the option count of its kind: the kernel inlines this at each of its seven
    decisions, so a single `below` keeps seven copies of the draw out of its compile."""
    if kind == D_CALL:
        n = P_CALL_SCALE
    elif kind == D_SOURCE or kind == D_KEEP:
        n = 2
    elif kind == D_FACEUP_SLOT:
        n = ds
    elif kind == D_DRAWN:
        n = opt_use(ds) + 1 if held >= TAKE2 else opt_discard(ds) + 1
    elif kind == D_PEEK:
        n = ds if peek_scope == 1 else players * ds
    else:  # D_SWAP
        n = ds * (players - 1) * ds
    k = below(rng, n)
    if kind == D_CALL:
        return 1 if k < p_call * P_CALL_SCALE else 0
    if kind != D_PEEK and kind != D_SWAP:
        return k
    if kind == D_PEEK:
        if peek_scope == 1:
            return peek_action(seat, k)
        q = 0
        while k >= ds:
            k -= ds
            q += 1
        return peek_action(q, k)
    # D_SWAP: (own slot i, other seat q ascending, slot j), i outermost
    per_i = (players - 1) * ds
    i = 0
    while k >= per_i:
        k -= per_i
        i += 1
    q = 0
    while k >= ds:
        k -= ds
        q += 1
    if q >= seat:
        q += 1
    return swap_action(i, q, k)


# ---------------------------------------------------------------- threshold (§9.2)

@kernel_njit(inline="always")
def _threshold_swap_slot(obs, mu, swap_at):
    """Own slot of the highest KNOWN card if its b >= swap_at (tie → lowest index), else -1."""
    p, ds = obs[O_SEAT], obs[O_DREAM_SIZE]
    best, bbest = -1, 0.0
    for s in range(ds):
        c = know(obs, p, s)
        if c != UNKNOWN:
            v = believed(obs, c, mu)
            if best < 0 or v > bbest:
                best, bbest = s, v
    return best if best >= 0 and bbest >= swap_at else -1


@kernel_njit(inline="always")
def choose_threshold(obs, params, rng):
    """§9.2: own slots and μ0 only."""
    mu = mu0(obs)
    kind = obs[O_KIND]
    p, ds = obs[O_SEAT], obs[O_DREAM_SIZE]
    if kind == D_SOURCE:
        top = believed(obs, obs[O_TOP], mu)
        star, bstar = own_star(obs, mu)
        return SRC_FACEUP if top <= params[P_KEEP_MAX] and bstar > top else SRC_DRAW
    if kind == D_FACEUP_SLOT:
        return own_star(obs, mu)[0]
    if kind == D_DRAWN:
        c = obs[O_HELD]
        if c == TAKE2:
            return opt_use(ds)
        if c == PEEK and first_unknown(obs, p) >= 0:
            return opt_use(ds)
        if c == SWAP and _threshold_swap_slot(obs, mu, params[P_SWAP_AT]) >= 0:
            return opt_use(ds)
        return land(obs, c, mu)
    if kind == D_KEEP:
        return keep_lower(obs, mu)
    if kind == D_PEEK:
        return peek_action(p, first_unknown(obs, p))
    if kind == D_SWAP:
        return swap_action(_threshold_swap_slot(obs, mu, params[P_SWAP_AT]), next_seat(p, obs[O_PLAYERS]), 0)
    # D_CALL
    return 1 if own_total(obs, mu) <= params[P_T_CALL_AT] else 0


# ---------------------------------------------------------------- memory (§9.3)

@kernel_njit(inline="always")
def _memory_peek_target(obs):
    """The lowest UNKNOWN own slot; else (peek_scope 0) the lowest UNKNOWN slot of the first opponent clockwise
    that has one; else -1."""
    p, players = obs[O_SEAT], obs[O_PLAYERS]
    s = first_unknown(obs, p)
    if s >= 0:
        return peek_action(p, s)
    if obs[O_RULES + R_PEEK_SCOPE] == 0:
        q = p
        for _ in range(1, players):
            q = next_seat(q, players)
            s = first_unknown(obs, q)
            if s >= 0:
                return peek_action(q, s)
    return -1


@kernel_njit(inline="always")
def _memory_best_swap(obs, mu):
    """(best gain, its swap action); ties → known target, nearest opponent clockwise, lower j, lower i."""
    p, players, ds = obs[O_SEAT], obs[O_PLAYERS], obs[O_DREAM_SIZE]
    best, best_gain, best_known = -1, 0.0, False
    q = p
    for _ in range(1, players):
        q = next_seat(q, players)
        for j in range(ds):
            c = know(obs, q, j)
            known = c != UNKNOWN
            bt = believed(obs, c, mu)
            for i in range(ds):
                gain = believed(obs, know(obs, p, i), mu) - bt
                if best < 0 or gain > best_gain or (gain == best_gain and known and not best_known):
                    best, best_gain, best_known = swap_action(i, q, j), gain, known
    return best_gain, best


@kernel_njit(inline="always")
def _memory_call(obs, params, mu):
    """D7: call iff Ê <= call_at and, with a caller penalty, Ê <= Ê_q for every opponent q."""
    e = own_total(obs, mu)
    if e > params[P_M_CALL_AT]:
        return 0
    if obs[O_RULES + R_CALLER_PENALTY] > 0:
        p, players, ds = obs[O_SEAT], obs[O_PLAYERS], obs[O_DREAM_SIZE]
        q = p
        for _ in range(1, players):
            q = next_seat(q, players)
            eq = 0.0
            unknown = 0
            for s in range(ds):
                c = know(obs, q, s)
                if c == UNKNOWN:
                    unknown += 1
                else:
                    eq += believed(obs, c, mu)
            eq += params[P_OPP_UNKNOWN] * unknown
            if e > eq:
                return 0
    return 1


@kernel_njit(inline="always")
def choose_memory(obs, params, rng):
    """§9.3: the whole of K_p, the public record and μ_p."""
    mu = mu_p(obs)
    kind = obs[O_KIND]
    ds = obs[O_DREAM_SIZE]
    if kind == D_SOURCE:
        star, bstar = own_star(obs, mu)
        return SRC_FACEUP if bstar - believed(obs, obs[O_TOP], mu) >= params[P_TAKE_GAIN] else SRC_DRAW
    if kind == D_FACEUP_SLOT:
        return own_star(obs, mu)[0]
    if kind == D_DRAWN:
        c = obs[O_HELD]
        if c == TAKE2:
            return opt_use(ds)
        if c == PEEK and _memory_peek_target(obs) >= 0:
            return opt_use(ds)
        if c == SWAP and _memory_best_swap(obs, mu)[0] >= params[P_SWAP_GAIN]:
            return opt_use(ds)
        return land(obs, c, mu)
    if kind == D_KEEP:
        return keep_lower(obs, mu)
    if kind == D_PEEK:
        return _memory_peek_target(obs)
    if kind == D_SWAP:
        return _memory_best_swap(obs, mu)[1]
    return _memory_call(obs, params, mu)


@kernel_njit()
def choose_builtin(sid, obs, params, rng):
    """Integer dispatch over the shipped observation-based strategies (sid = StrategyInfo.sid; `random` is
    dispatched by the kernel itself, see `random_action`)."""
    if sid == THRESHOLD:
        return choose_threshold(obs, params, rng)
    return choose_memory(obs, params, rng)
