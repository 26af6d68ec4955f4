"""Skrzaty heuristic players (docs/rules/skrzaty.md §9), deciding from the observation of `sim.games.skrzaty.obs`.

Each shipped heuristic is an integer id (`StrategyInfo.sid` in `sim.games.skrzaty.rules`) dispatched by
`choose_builtin(sid, obs, params, rng)`; the kernel plays `random` itself from the legal options. The observation
layout, the decision kinds and the action encoding live in `sim.games.skrzaty.obs` (the plug-in contract); the
effect codes in `sim.games.skrzaty.rules`. Nothing here imports the kernel.
"""
from sim.jit import kernel_njit
from sim.games.skrzaty.obs import (
    CARD_W, F_AMOUNT, F_COLOUR, F_EFFECT, F_SPACES, F_VALUE, F_VP, KEEP, MAX_CITY, O_BEST_COLOUR, O_CARDS_AT,
    O_CITY, O_CITY_LEN, O_EMPTY, O_END_COLOUR, O_GNOMES, O_HAND, O_HAND_KEEP, O_HAND_LEN, O_KIND, O_MARKET,
    O_MARKET_LEN, O_N_KINDS, O_PLAYED_CARD, O_PLAYED_LEN, O_PLAYED_SEAT, O_PLAYERS, O_RESERVE, O_ROUND, O_ROUNDS,
    O_ROW_COLOUR, O_SEAT, O_TOKENS_AT, PICK, PLACE, PLAY, T_GNOMES, T_SUPPLY, T_VP, TOKEN, TOKEN_W, barter_action,
    card)
from sim.games.skrzaty.rules import (E_DELIVERY, E_DISGUISE, E_FINDER, E_FOREMAN, E_GUILD, STRATEGIES,
                                     WEIGHTED_DEFAULTS)

# Strategy ids (StrategyInfo.sid) and `weighted`'s parameter columns (the order of WEIGHTED_DEFAULTS).
_SID = {s.name: s.sid for s in STRATEGIES}
RANDOM, BUILDER, ENDER, HIGH_ROLLER, WEIGHTED = (_SID[n] for n in ("random", "builder", "ender", "high-roller",
                                                                  "weighted"))
W_BEST, W_VALUE, W_BEATS, W_SPACES, W_YIELD, W_HOLD, W_VP, W_FILL = (
    list(WEIGHTED_DEFAULTS).index(k) for k in ("w_best", "w_value", "w_beats", "w_spaces", "w_yield", "w_hold",
                                               "w_vp", "w_fill"))


# ---------------------------------------------------------------------------------------------------- helpers
@kernel_njit(inline="always")
def gnome_yield(obs, c):
    """Y(c): `amount` for delivery, 1 for finder, 2 for foreman, else 0 (rules §9)."""
    e = card(obs, c, F_EFFECT)
    if e == E_DELIVERY:
        return card(obs, c, F_AMOUNT)
    if e == E_FINDER:
        return 1
    if e == E_FOREMAN:
        return 2
    return 0


@kernel_njit(inline="always")
def later_best(obs, c):
    """1 if c's colour is the best colour of a round after the current one (at setup: of any round)."""
    col = card(obs, c, F_COLOUR)
    for r in range(obs[O_ROUND], obs[O_ROUNDS]):
        if obs[O_ROW_COLOUR + r] == col:
            return 1
    return 0


@kernel_njit(inline="always")
def guild_bonus(obs, seat, colour):
    """The guild bonus `seat` would get now for a played card of this printed colour (its filled guilds)."""
    ca = obs[O_CARDS_AT]
    base = seat * MAX_CITY
    total = 0
    for i in range(obs[O_CITY_LEN + seat]):
        k = ca + obs[O_CITY + base + i] * CARD_W
        if obs[k + F_EFFECT] == E_GUILD and obs[k + F_COLOUR] == colour \
                and obs[O_GNOMES + base + i] == obs[k + F_SPACES]:
            total += obs[k + F_AMOUNT]
    return total


@kernel_njit(inline="always")
def in_best_group(obs, c):
    return card(obs, c, F_COLOUR) == obs[O_BEST_COLOUR] or card(obs, c, F_EFFECT) == E_DISGUISE


@kernel_njit(inline="always")
def ranking_value(obs, seat, c):
    return card(obs, c, F_VALUE) + guild_bonus(obs, seat, card(obs, c, F_COLOUR))


@kernel_njit(inline="always")
def is_end_colour(obs, c):
    return 1 if card(obs, c, F_COLOUR) == obs[O_END_COLOUR] else 0


# ---------------------------------------------------------------------------------------------------- shared policies
@kernel_njit()
def place_policy(obs):
    """D5: the own card with the fewest empty spaces (>= 1); ties: Ongoing effect, then higher vp, then lower id."""
    seat = obs[O_SEAT]
    base = seat * MAX_CITY
    best, be, bo, bv = -1, 0, 0, 0
    for i in range(obs[O_CITY_LEN + seat]):
        c = obs[O_CITY + base + i]
        e = card(obs, c, F_SPACES) - obs[O_GNOMES + base + i]
        if e <= 0:
            continue
        eff = card(obs, c, F_EFFECT)
        o = 0 if (eff == E_FOREMAN or eff == E_GUILD) else 1
        v = card(obs, c, F_VP)
        if best < 0 or e < be or (e == be and (o < bo or (o == bo and (v > bv or (v == bv and c < best))))):
            best, be, bo, bv = c, e, o, v
    return best


@kernel_njit()
def token_policy(obs):
    """D4: maximise vp + 2*min(gnomes, own empty spaces); ties: higher vp, then file order."""
    empty = obs[O_EMPTY + obs[O_SEAT]]
    ta = obs[O_TOKENS_AT]
    best, bs, bv = -1, 0, 0
    for k in range(obs[O_N_KINDS]):
        t = ta + k * TOKEN_W
        if obs[t + T_SUPPLY] <= 0:
            continue
        g = obs[t + T_GNOMES]
        v = obs[t + T_VP]
        s = v + 2 * (g if g < empty else empty)
        if best < 0 or s > bs or (s == bs and v > bv):
            best, bs, bv = k, s, v
    return best


@kernel_njit(inline="always")
def desirability(sid, obs, params, c):
    """K(c) of each named heuristic (rules §9), in the reference's operation order."""
    value = card(obs, c, F_VALUE)
    if sid == BUILDER:
        return 10 * card(obs, c, F_VP) / card(obs, c, F_SPACES) + 5 * gnome_yield(obs, c) + value / 10
    if sid == ENDER:
        return float(value + 30 * is_end_colour(obs, c))
    if sid == HIGH_ROLLER:
        return float(value + 10 * later_best(obs, c))
    return (params[W_BEST] * later_best(obs, c) + params[W_VALUE] * value / 20
            + params[W_SPACES] * card(obs, c, F_SPACES) + params[W_YIELD] * gnome_yield(obs, c)
            + params[W_HOLD] * is_end_colour(obs, c) + params[W_VP] * card(obs, c, F_VP) / 5)


@kernel_njit()
def keep_policy(sid, obs, params):
    """D1: keep the hand_keep highest-K dealt cards (ties: lower id). Returns the position bitmask."""
    n = obs[O_HAND_LEN]
    mask = 0
    for _ in range(obs[O_HAND_KEEP]):
        best, bk = -1, 0.0
        for i in range(n):  # positions ascend with the card index, so the first maximum has the lower id
            if (mask >> i) & 1 == 0:
                k = desirability(sid, obs, params, obs[O_HAND + i])
                if best < 0 or k > bk:
                    best, bk = i, k
        mask |= 1 << best
    return mask


@kernel_njit()
def pick_policy(sid, obs, params):
    """D6: the highest-K Market card; ties: lower id."""
    best, bk = -1, 0.0
    for i in range(obs[O_MARKET_LEN]):
        c = obs[O_MARKET + i]
        k = desirability(sid, obs, params, c)
        if best < 0 or k > bk or (k == bk and c < best):
            best, bk = c, k
    return best


@kernel_njit()
def barter_policy(sid, obs, params):
    """D3: swap the lowest-K hand card for the highest-K Market card if that K is strictly higher, else decline."""
    worst, wk = -1, 0.0
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        k = desirability(sid, obs, params, c)
        if worst < 0 or k < wk:  # ascending hand: the first minimum has the lower id
            worst, wk = c, k
    if worst < 0 or obs[O_MARKET_LEN] == 0:
        return 0
    top = pick_policy(sid, obs, params)
    if desirability(sid, obs, params, top) > wk:
        return barter_action(worst, top)
    return 0


# ---------------------------------------------------------------------------------------------------- D2 play rules
@kernel_njit()
def builder_play(obs, params):
    """t = reserve − empty spaces + 2; the card whose spaces − Y is closest to t; ties: higher vp, higher value."""
    seat = obs[O_SEAT]
    t = obs[O_RESERVE + seat] - obs[O_EMPTY + seat] + 2
    best, bd, bv, bval = -1, 0, 0, 0
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        d = abs(card(obs, c, F_SPACES) - gnome_yield(obs, c) - t)
        v = card(obs, c, F_VP)
        val = card(obs, c, F_VALUE)
        if best < 0 or d < bd or (d == bd and (v > bv or (v == bv and val > bval))):
            best, bd, bv, bval = c, d, v, val
    return best


@kernel_njit()
def ender_play(obs, params):
    """Never an End-colour card while holding another; the best-ranking non-End card if one reaches the best
    group, else the lowest-value one; with only End-colour cards, the lowest of them."""
    seat = obs[O_SEAT]
    low_any, low_any_v = -1, 0  # lowest of all (used when only End-colour cards are held)
    low, low_v = -1, 0  # lowest non-End
    top, top_rv = -1, 0  # best-ranking non-End in the best group
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        v = card(obs, c, F_VALUE)
        if low_any < 0 or v < low_any_v:
            low_any, low_any_v = c, v
        if is_end_colour(obs, c):
            continue
        if low < 0 or v < low_v:
            low, low_v = c, v
        if in_best_group(obs, c):
            rv = ranking_value(obs, seat, c)
            if top < 0 or rv > top_rv:
                top, top_rv = c, rv
    if low < 0:
        return low_any
    if top >= 0:
        return top
    return low


@kernel_njit()
def high_roller_play(obs, params):
    """The best ranking key if played now: best group (disguise counts), then ranking value (guild included)."""
    seat = obs[O_SEAT]
    best, bg, brv = -1, 0, 0
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        g = 0 if in_best_group(obs, c) else 1
        rv = ranking_value(obs, seat, c)
        if best < 0 or g < bg or (g == bg and rv > brv):
            best, bg, brv = c, g, rv
    return best


@kernel_njit()
def weighted_play(obs, params):
    """Maximise w_best*f_best + w_value*f_value + w_beats*f_beats + w_spaces*spaces + w_yield*Y − w_hold*f_end
    + w_vp*vp/5 + w_fill*f_fill (rules §9.5); ties: lower id. Same operation order as the reference."""
    seat = obs[O_SEAT]
    players = obs[O_PLAYERS]
    reserve = obs[O_RESERVE + seat]
    n_played = obs[O_PLAYED_LEN]
    best, bs = -1, 0.0
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        g = 0 if in_best_group(obs, c) else 1
        rv = ranking_value(obs, seat, c)
        beats = 0
        for j in range(n_played):  # (g, −rv) strictly smaller; an equal key leaves the earlier player ahead
            s = obs[O_PLAYED_SEAT + j]
            if s != seat:
                p = obs[O_PLAYED_CARD + j]
                pg = 0 if in_best_group(obs, p) else 1
                if g < pg or (g == pg and rv > ranking_value(obs, s, p)):
                    beats += 1
        f_best = 1 if g == 0 else 0
        f_value = rv / 20
        f_beats = beats / (players - 1)
        spaces = card(obs, c, F_SPACES)
        f_fill = 1 if reserve >= spaces else 0
        sc = (params[W_BEST] * f_best + params[W_VALUE] * f_value + params[W_BEATS] * f_beats
              + params[W_SPACES] * spaces + params[W_YIELD] * gnome_yield(obs, c)
              - params[W_HOLD] * is_end_colour(obs, c) + params[W_VP] * card(obs, c, F_VP) / 5
              + params[W_FILL] * f_fill)
        if best < 0 or sc > bs:  # strict: ties keep the lower id (the hand ascends)
            best, bs = c, sc
    return best


# ---------------------------------------------------------------------------------------------------- dispatch
@kernel_njit()
def choose_builtin(sid, obs, params, rng):
    """Integer dispatch over the shipped heuristics (sid = StrategyInfo.sid; `random` is played by the kernel
    itself from the legal options, without an observation)."""
    kind = obs[O_KIND]
    if kind == PLAY:
        if sid == BUILDER:
            return builder_play(obs, params)
        if sid == ENDER:
            return ender_play(obs, params)
        if sid == HIGH_ROLLER:
            return high_roller_play(obs, params)
        return weighted_play(obs, params)
    if kind == PLACE:
        return place_policy(obs)
    if kind == TOKEN:
        return token_policy(obs)
    if kind == KEEP:
        return keep_policy(sid, obs, params)
    if kind == PICK:
        return pick_policy(sid, obs, params)
    return barter_policy(sid, obs, params)
