"""Straw heuristic players (docs/rules/straw.md §9).

They decide from the observation of `sim.games.straw.obs` (layout and action code documented there) and ask
`sim.games.straw.model` what a play would do; they never see the kernel.
"""

from sim.jit import kernel_njit
from sim.kernel_util import nth_set_bit
from sim.rng import below
from sim.games.straw.model import hand_total, hand_value, is_escape, resolves_as_lamp, total_after
from sim.games.straw.obs import (ACTION_BASE, O_BREAK_AT, O_LAMP_MAX, O_LAMP_MIN, O_LEGAL, O_LEGAL_CODES,
                                 O_N_LEGAL, O_T)
from sim.games.straw.rules import COPY, LAMP, STRAW, STRATEGIES

_SID = {s.name: s.sid for s in STRATEGIES}
RANDOM, DUMP_HEAVIEST, SAFE, STRAW_HUNTER, WEIGHTED = (
    _SID[name] for name in ("random", "dump-heaviest", "safe", "straw-hunter", "weighted"))
# Parameter columns (StrategyInfo.params order in sim/games/straw/rules.py).
P_ESCAPE_AT = 0
P_W_BREAK, P_W_STRAW, P_W_STRAW0, P_W_LOSS, P_W_PRESS, P_W_EXACT, P_W_ESC = 0, 1, 2, 3, 4, 5, 6


@kernel_njit(inline="always")
def choose_random(legal_set, n_legal, copy_is_lamp, lamp_min, lamp_max, rng):
    """§5: uniform over the distinct legal codes (the set bits of `legal_set`, n_legal of them, ascending), then a
    uniform Lamp value when the play resolves as a Lamp. It needs nothing else, so the kernel calls it without
    building an observation."""
    code = nth_set_bit(legal_set, below(rng, n_legal))
    v = 0
    if code == LAMP or (code == COPY and copy_is_lamp):
        v = lamp_min + below(rng, lamp_max - lamp_min + 1)
    return code * ACTION_BASE + v


@kernel_njit(inline="always")
def _lamp_range(obs, code):
    if resolves_as_lamp(obs, code):
        return obs[O_LAMP_MIN], obs[O_LAMP_MAX]
    return 0, 0


@kernel_njit(inline="always")
def _straw_rule(obs):
    """SR: a legal Straw is played when H(hand) > 0 or every other legal action breaks. Returns the action or -1."""
    if obs[O_LEGAL + STRAW] == 0:
        return -1
    if hand_total(obs) > 0:
        return STRAW * ACTION_BASE
    break_at = obs[O_BREAK_AT]
    for i in range(obs[O_N_LEGAL]):
        c = obs[O_LEGAL_CODES + i]
        if c != STRAW:
            lo, hi = _lamp_range(obs, c)
            if total_after(obs, c, lo) <= break_at:  # the smallest Lamp value is the safest
                return -1
    return STRAW * ACTION_BASE


@kernel_njit(inline="always")
def _forced_break(obs):
    """Every legal action breaks: the smallest T', then lower code, then lower v."""
    best, best_t = -1, 0
    for i in range(obs[O_N_LEGAL]):
        c = obs[O_LEGAL_CODES + i]
        if c != STRAW:
            lo, hi = _lamp_range(obs, c)
            t = total_after(obs, c, lo)
            if best < 0 or t < best_t:
                best, best_t = c * ACTION_BASE + lo, t
    return best


@kernel_njit()
def choose_dump_heaviest(obs, params, rng):
    sr = _straw_rule(obs)
    if sr >= 0:
        return sr
    break_at = obs[O_BREAK_AT]
    best, best_t, best_hv = -1, 0, 0
    for i in range(obs[O_N_LEGAL]):
        c = obs[O_LEGAL_CODES + i]
        if c != STRAW:
            v = 0
            if resolves_as_lamp(obs, c):  # the largest safe value; a smaller one is never heavier
                v = min(obs[O_LAMP_MAX], break_at - obs[O_T])
                if v < obs[O_LAMP_MIN]:
                    continue
            t = total_after(obs, c, v)
            if t > break_at:
                continue
            hv = hand_value(c)
            if best < 0 or t > best_t or (t == best_t and hv < best_hv):
                best, best_t, best_hv = c * ACTION_BASE + v, t, hv
    if best < 0:
        return _forced_break(obs)
    return best


@kernel_njit(inline="always")
def _choose_safe(obs, params):
    """§9.3 after the Straw rule. Both of its orders prefer the lower T', so a Lamp is only ever played at
    lamp_min, and each code needs one evaluation."""
    break_at = obs[O_BREAK_AT]
    low_total = obs[O_T] < params[P_ESCAPE_AT]
    has_plain = False  # a non-breaking non-escape action exists
    any_safe = False
    for i in range(obs[O_N_LEGAL]):
        c = obs[O_LEGAL_CODES + i]
        if c != STRAW:
            lo, hi = _lamp_range(obs, c)
            if total_after(obs, c, lo) <= break_at:
                any_safe = True
                if not is_escape(obs, c):
                    has_plain = True
    if not any_safe:
        return _forced_break(obs)
    best, best_a, best_b = -1, 0, 0
    for i in range(obs[O_N_LEGAL]):
        c = obs[O_LEGAL_CODES + i]
        if c != STRAW:
            if low_total and has_plain and is_escape(obs, c):
                continue
            lo, hi = _lamp_range(obs, c)
            t = total_after(obs, c, lo)
            if t > break_at:
                continue
            hv = hand_value(c)
            a, b = (hv, t) if low_total else (t, hv)  # the sort key: (lowest hv, lowest T') or the reverse
            if best < 0 or a < best_a or (a == best_a and b < best_b):
                best, best_a, best_b = c * ACTION_BASE + lo, a, b
    return best


@kernel_njit()
def choose_safe(obs, params, rng):
    sr = _straw_rule(obs)
    if sr >= 0:
        return sr
    return _choose_safe(obs, params)


@kernel_njit()
def choose_straw_hunter(obs, params, rng):
    sr = _straw_rule(obs)
    if sr >= 0:
        return sr
    break_at = obs[O_BREAK_AT]
    best, best_hv = -1, 0
    for i in range(obs[O_N_LEGAL]):
        c = obs[O_LEGAL_CODES + i]
        if c != STRAW:
            v = 0
            if resolves_as_lamp(obs, c):  # the one value that lands exactly on break_at, if it is allowed
                v = break_at - obs[O_T]
                if v < obs[O_LAMP_MIN] or v > obs[O_LAMP_MAX]:
                    continue
            if total_after(obs, c, v) == break_at:
                hv = hand_value(c)
                if best < 0 or hv < best_hv:
                    best, best_hv = c * ACTION_BASE + v, hv
    if best >= 0:
        return best
    return _choose_safe(obs, params)


@kernel_njit(inline="always")
def weighted_score(obs, params, code, t_after, brk, hv, escape, hand_sum):
    """§9.5; the reference computes the same terms in the same order, so the floats agree exactly."""
    break_at = obs[O_BREAK_AT]
    rest = hand_sum - hv
    score = params[P_W_BREAK] * (1.0 if brk else 0.0)
    if code == STRAW:
        score += params[P_W_STRAW] * rest + params[P_W_STRAW0]
    score -= params[P_W_LOSS] * hv
    if not brk and code != STRAW:
        score += params[P_W_PRESS] * (t_after / break_at)
        if t_after == break_at:
            score += params[P_W_EXACT]
        if escape:
            score -= params[P_W_ESC] * (1.0 - obs[O_T] / break_at)
    return score


@kernel_njit(inline="always")
def _lamp_candidates(obs, params):
    """The Lamp values that can win `weighted` (§9.5 scores every v): a non-breaking value scores
    w_press·T'/break_at (+ w_exact when exact), monotone in v, and every breaking value scores the same. So the best
    v is the top (w_press > 0) or bottom non-exact safe value, the exact value, or the lowest breaking value; a scan
    over these in ascending v, ties kept, picks what a scan over every v picks. Returns (count, v1, v2, v3)."""
    t, break_at = obs[O_T], obs[O_BREAK_AT]
    lo, hi = obs[O_LAMP_MIN], obs[O_LAMP_MAX]
    exact = break_at - t
    v1, v2, v3 = -1, -1, -1
    top_safe = min(hi, exact)
    if top_safe >= lo:  # some safe values exist
        non_exact_top = top_safe if top_safe != exact else top_safe - 1
        if non_exact_top >= lo:
            v1 = non_exact_top if params[P_W_PRESS] > 0 else lo
        if lo <= exact <= hi:
            v2 = exact
    first_break = max(lo, exact + 1)
    if first_break <= hi:
        v3 = first_break
    return v1, v2, v3


@kernel_njit()
def choose_weighted(obs, params, rng):
    hand_sum = hand_total(obs)
    best, best_score = -1, 0.0
    for i in range(obs[O_N_LEGAL]):
        c = obs[O_LEGAL_CODES + i]
        if resolves_as_lamp(obs, c):
            v1, v2, v3 = _lamp_candidates(obs, params)
            for v in (v1, v2, v3):
                if v >= 0:
                    best, best_score = _weighted_pick(obs, params, c, v, hand_sum, best, best_score)
        else:
            best, best_score = _weighted_pick(obs, params, c, 0, hand_sum, best, best_score)
    return best


@kernel_njit(inline="always")
def _weighted_pick(obs, params, c, v, hand_sum, best, best_score):
    """Keep (best, best_score) or take action (c, v) if it scores strictly higher (ties keep the lower (code, v))."""
    t = total_after(obs, c, v)
    s = weighted_score(obs, params, c, t, c != STRAW and t > obs[O_BREAK_AT], hand_value(c), is_escape(obs, c),
                       hand_sum)
    if best < 0 or s > best_score:
        return c * ACTION_BASE + v, s
    return best, best_score


@kernel_njit(inline="always")
def choose_builtin(sid, obs, params, rng):
    """Integer dispatch over the shipped observation-based strategies (sid = StrategyInfo.sid; `random` is
    dispatched by the kernel itself, see `choose_random`)."""
    if sid == DUMP_HEAVIEST:
        return choose_dump_heaviest(obs, params, rng)
    if sid == SAFE:
        return choose_safe(obs, params, rng)
    if sid == STRAW_HUNTER:
        return choose_straw_hunter(obs, params, rng)
    return choose_weighted(obs, params, rng)
