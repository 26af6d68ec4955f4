"""Crows (`kruki`) heuristic players greedy, blocker and weighted (docs/rules/kruki.md §9, KRUKI-39..41).

The three heuristics are one algorithm with a mode (the strategy id): greedy values an option by its own points,
blocker and weighted add a second stage against the opponents, so they share every module:
- strategies/kruki_common.py: the scratch layout and the values of a hypothetical position (V_me, B, Opp);
- strategies/kruki_cells.py: the (cell, shiny) options of the tile and shiny steps;
- strategies/kruki_tokens.py: the token step and its follow-up decisions;
- here: the spiral start, the tile source, and the dispatch `choose_builtin` the kernel calls.
The observation and the plug-in contract: sim/games/kruki/obs.py; the flight and scatter rules they evaluate with:
sim/games/kruki/model.py.
"""
from sim.jit import kernel_njit
from sim.rng import below
from sim.games.kruki.model import gain_all, scatter_radius, scatter_within, score_points, spawn_of
from sim.games.kruki.obs import (BLOCKER, D_CELL, D_JUNK_MODE, D_REPLACE, D_SHINY, D_SOURCE, D_SPIRAL, GREEDY,
                                 O_AT_FRONTIER, O_AT_OPT_A, O_CTX_CHOOSER, O_CTX_MURDER, O_CTX_OWN, O_CTX_SPAWN,
                                 O_CTX_TILE, O_DECISION, O_FIRST_PLAYER, O_HALF, O_N_FRONTIER, O_N_OPTIONS,
                                 O_PLAYERS, O_POOL, O_RULES, O_SHINY_OF, R_MURDER_REMOVED, R_SCORE_CAP, RANDOM,
                                 SRC_DRAW, SRC_JUNK, SRC_POOL, SRC_SKIP, WEIGHTED)
from sim.games.kruki.rules import GAP, JUNK
from strategies.kruki_cells import keep_proxy, kept_shiny, placements
from strategies.kruki_common import (P_B_JUNK_MARGIN, P_JUNK_MARGIN, P_W5, index_of, opp_lowers_j,  # noqa: F401
                                     planes, v1_grows, work_at, work_len, fwork_len)
from strategies.kruki_tokens import token_decision


# ---- spiral start (KRUKI-39 step 4, all heuristics) --------------------------------------------------------------
@kernel_njit()
def _spread(K, side, x, n, gain):
    """gain[s] += n for every tile s on the four arms of x short of the first Junk: what a group of n crows on x
    adds to a new shiny's arrivals when no other shiny is on the board (KRUKI-26: nothing to tie with)."""
    for i in range(4):
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        c = x + d
        while K[c] != GAP and K[c] != JUNK:
            gain[c] += n
            c += d


@kernel_njit()
def _spiral_choice(obs, work):
    """B0 after each start with every shiny and token removed; max if the chooser is next round's first player,
    else min; ties N, E, S, W (no draw)."""
    layout = work_at(obs)
    a, w_log, w_save = layout[0], layout[7], layout[8]
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
    players = obs[O_PLAYERS]
    m = obs[O_CTX_MURDER]
    nxt = obs[O_FIRST_PLAYER] + 1
    if nxt == players:
        nxt = 0
    maximise = obs[O_CTX_CHOOSER] == nxt
    cap = obs[O_RULES + R_SCORE_CAP]
    # lift shinies and tokens (restored below)
    for q in range(players):
        s = obs[O_SHINY_OF + q]
        if s >= 0:
            Sh[s] = -1
    ns = 0
    for i in range(n_tiles):
        t = tiles[i]
        if St[t] != 0 or Fr[t] != 0:
            work[w_save + 3 * ns] = t
            work[w_save + 3 * ns + 1] = St[t]
            work[w_save + 3 * ns + 2] = Fr[t]
            St[t] = 0
            Fr[t] = 0
            ns += 1
    log = work[w_log:]
    gain = work[0:a]
    gain_all(K, Cr, Sh, Fr, side, tiles, n_tiles, -1, gain)  # before the murder
    best_i = 0
    best = 0
    saved_m = Cr[m]
    rad = scatter_radius(side, tiles, n_tiles, m)
    for i in range(4):
        log[0] = 0
        scatter_within(K, Cr, obs[O_HALF], side, m, i, obs[O_RULES + R_MURDER_REMOVED], log, rad)
        # With no shiny on the board a group sends all its crows to a new shiny on its rows and columns, so the
        # arrivals are linear in the crows: only the murder tile and the scattered crows change them.
        _spread(K, side, m, Cr[m] - saved_m, gain)
        for j in range(1, log[0] + 1):
            _spread(K, side, log[j], 1, gain)
        v = 0
        for j in range(n_tiles):  # B0 (KRUKI-39 step 4): the best new shiny on the scattered board
            t = tiles[j]
            if K[t] != JUNK and Cr[t] == 0:
                v = max(v, score_points(K[t], 0, 0, cap, gain[t]))
        _spread(K, side, m, saved_m - Cr[m], gain)
        for j in range(1, log[0] + 1):
            _spread(K, side, log[j], -1, gain)
            Cr[log[j]] -= 1
        Cr[m] = saved_m
        if i == 0 or (v > best if maximise else v < best):
            best_i, best = i, v
    for q in range(players):
        s = obs[O_SHINY_OF + q]
        if s >= 0:
            Sh[s] = q
    for j in range(ns):
        t = work[w_save + 3 * j]
        St[t] = work[w_save + 3 * j + 1]
        Fr[t] = work[w_save + 3 * j + 2]
    return best_i


# ---- tile source (KRUKI-39..41 step 1; the drawn tile is not seen) -----------------------------------------------
@kernel_njit()
def _source_choice(obs, params, mode, rng, work, fwork):
    at_a = obs[O_AT_OPT_A]
    n_opt = obs[O_N_OPTIONS]
    margin = 0.0 if mode == WEIGHTED else (params[P_JUNK_MARGIN] if mode == GREEDY else params[P_B_JUNK_MARGIN])
    has_junk = False
    has_draw = False
    n_pool = 0
    for i in range(n_opt):
        o = obs[at_a + i]
        if o == SRC_JUNK:
            has_junk = True
        elif o == SRC_DRAW:
            has_draw = True
        elif o >= SRC_POOL:
            n_pool += 1
    if mode == GREEDY and n_pool == 0 and has_junk and (margin > 0 or not has_draw):
        # Greedy's J is V_me, and a Junk tile never raises it: crows stop on the Junk, so none reaches a shiny through
        # it, and it only brings more shinies into view to compete for crows. So J_junk <= J_0 always, and neither
        # "J_junk >= J_0 + margin" (margin > 0) nor "J_junk > J_0" can hold: greedy keeps its Junk (no draw is made).
        return index_of(obs, SRC_DRAW if has_draw else SRC_SKIP)
    at_f = obs[O_AT_FRONTIER]
    n_f = obs[O_N_FRONTIER]
    if n_pool > 0:  # tile-draft: the best pool tile by its step-2 value
        kb = work_at(obs)[13]
        done = 0
        best = -1e300
        for i in range(n_opt):
            o = obs[at_a + i]
            if o < SRC_POOL:
                continue
            t = obs[O_POOL + o - SRC_POOL]
            if (done >> t) & 1 == 0:
                sp = spawn_of(t)
                fwork[kb + t] = placements(obs, params, mode, rng, work, fwork, at_f, n_f, t, sp, 0, False,
                                           -1e300, -1e300, 0.0)[0]
                done |= 1 << t
            if fwork[kb + t] > best:
                best = fwork[kb + t]
        # J_junk matters only from the bar on (placements may stop short of it below the bar)
        if has_junk and _junk_value(obs, params, mode, rng, work, fwork, best + margin, -1e300, 0.0) >= best + margin:
            return index_of(obs, SRC_JUNK)
        tied = 0
        for i in range(n_opt):
            o = obs[at_a + i]
            if o >= SRC_POOL and fwork[kb + obs[O_POOL + o - SRC_POOL]] == best:
                tied += 1
        k = below(rng, tied) if tied > 1 else 0
        for i in range(n_opt):
            o = obs[at_a + i]
            if o >= SRC_POOL and fwork[kb + obs[O_POOL + o - SRC_POOL]] == best:
                if k == 0:
                    return i
                k -= 1
        return 0
    if not has_junk:
        return 0
    j0, ci, s, v0 = placements(obs, params, mode, rng, work, fwork, 0, -1, 0, 0, 0, False, -1e300, -1e300,
                               0.0)  # the draw proxy
    if mode != GREEDY:
        keep_proxy(obs, fwork, j0, v0)
    bar = j0 + margin if has_draw else j0
    if _junk_bound(mode, params, v0) < bar:
        return index_of(obs, SRC_DRAW if has_draw else SRC_SKIP)
    j_junk = _junk_value(obs, params, mode, rng, work, fwork, bar, j0, v0)
    if has_draw:
        return index_of(obs, SRC_JUNK if j_junk >= bar else SRC_DRAW)
    return index_of(obs, SRC_JUNK if j_junk > bar else SRC_SKIP)


@kernel_njit()
def _junk_bound(mode, params, v0):
    """An upper bound on J_junk from v0, the best stage-1 value of the draw proxy (the shiny alone, no own Junk), or
    +inf where the parameters allow none. The Junk never raises the crows reaching a shiny (see greedy above), so
    never V_me or f1, and it adds no legal shiny tile. So J_junk <= V_me <= v0 for greedy, and for blocker when
    J <= v1 (`opp_lowers_j`); for weighted, with v1 = (w1 - w2) f1 + w2 V_me + w3 f3 + w5 f5, J_junk <= v0 + w5 when
    also w1 >= w2 >= 0."""
    if mode == GREEDY:
        return v0
    if not opp_lowers_j(mode, params):
        return 1e300
    if mode == BLOCKER:
        return v0
    if v1_grows(mode, params):
        return v0 + params[P_W5]
    return 1e300


@kernel_njit(inline="always")  # a wrapper: compiled on its own it would emit all of `placements` once more
def _junk_value(obs, params, mode, rng, work, fwork, bar, proxy_j, proxy_v1):
    """J_junk, the best J over (normal Junk cell) x (legal shiny tile after it), where it is at least `bar`; else
    some value below the bar. proxy_j, proxy_v1: the draw proxy's best J and stage-1 value (-1e300: not known)."""
    return placements(obs, params, mode, rng, work, fwork, obs[O_AT_FRONTIER], obs[O_N_FRONTIER], JUNK, 0, 1, False,
                      bar, proxy_j, proxy_v1)[0]


@kernel_njit(inline="always")  # `choose_builtin`'s body: compiled on its own it would emit every heuristic twice
def choose_heuristic(mode, obs, params, rng, work, fwork):
    """greedy / blocker / weighted (mode = sid) at any decision: returns an index into the option list."""
    dec = obs[O_DECISION]
    if dec == D_SPIRAL:
        return _spiral_choice(obs, work)
    if dec == D_JUNK_MODE or dec == D_REPLACE:  # the heuristics use Junk only in normal mode
        return 0
    if dec == D_CELL:
        own = obs[O_CTX_OWN] if obs[O_CTX_OWN] > 0 else 0
        return placements(obs, params, mode, rng, work, fwork, obs[O_AT_OPT_A], obs[O_N_OPTIONS], obs[O_CTX_TILE],
                           obs[O_CTX_SPAWN], own, True, -1e300, -1e300, 0.0)[1]
    if dec == D_SHINY:
        s = kept_shiny(obs, rng, work)
        if s >= 0:
            return index_of(obs, s)
        s = placements(obs, params, mode, rng, work, fwork, 0, -1, 0, 0, 0, True, -1e300, -1e300, 0.0)[2]
        return index_of(obs, s)
    if dec == D_SOURCE:
        return _source_choice(obs, params, mode, rng, work, fwork)
    return token_decision(obs, params, mode, rng, work, fwork)


@kernel_njit()
def choose_builtin(sid, obs, params, rng, work, fwork):
    """Integer dispatch over the shipped observation-based strategies (sid = StrategyInfo.sid). `random` is played
    by the kernel itself from the option count (it needs no observation)."""
    if sid == RANDOM:
        return below(rng, obs[O_N_OPTIONS])
    return choose_heuristic(sid, obs, params, rng, work, fwork)
