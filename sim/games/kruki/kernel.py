"""Crows (`kruki`) rules as njit code over flat integer arrays (docs/rules/kruki.md); mirrors reference.py draw
for draw (its module docstring lists the draw order and the canonical option orders).

One compiled kernel serves every variant: the rules arrive as the int64 parameter vector `rp` (rules.PARAMS order,
`R_*` in strategies.kruki), the canonical stack kinds and the canonical token kinds. Strategies see only the
observation (strategies.kruki); the kernel keeps its own board and mirrors every change into the observation's
board planes, so a plug-in that writes to its observation cannot change the game.

Board: a square array of side 2H+1 (H = rules.board_half), cell = (y + H) * side + (x + H), five int32 planes in
`B` (kind | crows | shiny owner | GRAVESTONES | NO_FLOCKING, each side*side, GAP = -1 / no shiny = -1). `tiles` holds
the occupied cells in raster order, `front` the legal cells of KRUKI-13 (gaps with an edge neighbour, raster order),
`nadj[c]` the number of edge neighbours of c that are tiles.
"""
import numpy as np
from numba import njit, prange, types

from sim.jit import kernel_njit
from sim.games.kruki.rules import (EMPTY, GAME_COLUMNS, GAP, GRAVEYARD, JUNK, SEAT_COLUMNS, START_CELLS, board_half,
                                   total_tiles)
from sim.kernel_util import TRACE_WIDTH, USER_FNS_TYPE, record, set_ranks
from sim.rng import below, shuffle, stream_into
from sim.spec import GAME_BASE, SEAT_BASE
from strategies.kruki import (D_CELL, D_DEST, D_JUNK_MODE, D_PAIR, D_REPLACE, D_SHINY, D_SOURCE, D_SPIRAL, D_TARGET,
                              D_TOKEN, GRAVESTONES, NO_FLOCKING, NO_GRAVEYARDS, O_AT_FRONTIER, O_AT_KIND, O_AT_OPT_A,
                              O_AT_OPT_B, O_AT_TILES, O_CTX_CHOOSER, O_CTX_CROWS, O_CTX_MURDER, O_CTX_OWN,
                              O_CTX_PAIR_A, O_CTX_PAIR_B, O_CTX_REPLACED, O_CTX_SPAWN, O_CTX_TILE, O_CTX_TOKEN,
                              O_DECISION, O_FIRST_PLAYER, O_HALF, O_JUNK_UNUSED, O_MOVED, O_N_FRONTIER, O_N_OPTIONS,
                              O_N_TILES, O_NO_GRAVEYARDS, O_OWN_TOKENS, O_PLAYERS, O_POOL, O_POOL_LEN, O_ROUND,
                              O_RULES, O_SCORES, O_SEAT, O_SHINY_OF, O_SIDE, O_STACK_SIZE, O_SUPPLY, O_TOKEN_STACK,
                              O_TOKENS_HELD, O_UNSEEN, R_CROWS, R_MURDER_REMOVED, R_MURDER_THRESHOLD, R_RANDOM_JUNK,
                              R_REMOVED_2P, R_RJ_REMOVED_2P, R_SCORE_CAP, R_START_LAYOUT, R_THREE_POINTS,
                              R_TILE_DRAFT, R_TILES_EMPTY, R_TOKEN_KEEP, RANDOM, SRC_DRAW, SRC_JUNK, SRC_POOL,
                              SRC_SKIP, TWO_CROWS, choose_builtin, flight_plan, div_small, fwork_len, obs_offsets,
                              obs_size, scatter, work_len)
from sim.games.kruki import rules

_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE = _SEAT["score"]
S_GAINED = _SEAT["tokens_gained_no_graveyards"]  # 5 columns in token-kind order
S_PLAYED = _SEAT["tokens_played_no_graveyards"]  # 4 columns
(S_TOKEN_POINTS, S_JUNK_PLAYS, S_JUNK_REPLACE, S_TILE_SKIPS, S_GRAVE_POINTS, S_MAX_ROUND, S_CAP_HITS, S_ZERO,
 S_MURDERS_CHOSEN) = (_SEAT[k] for k in ("token_points", "junk_plays", "junk_replace", "tile_skips",
                                         "graveyard_points", "max_round_score", "cap_hits", "zero_rounds",
                                         "murders_chosen"))
G_ERROR, G_ROUNDS, G_MURDERS, G_REMOVED, G_SCATTERED, G_ON_BOARD, G_TIE = (
    _GAME[k] for k in ("error", "rounds", "murders", "crows_removed", "crows_scattered", "crows_on_board_end",
                       "tie_break"))
assert S_PLAYED == S_GAINED + 5 and S_TOKEN_POINTS == S_PLAYED + 4
ERROR_ILLEGAL = 1

# Game scalars g(GS_LEN).
(GS_SUPPLY, GS_POS, GS_END, GS_N_REMOVED, GS_TPOS, GS_TEND, GS_FIRST, GS_ROUND, GS_POOL_LEN, GS_NG, GS_N_TILES,
 GS_N_FRONT, GS_N_TCELLS, GS_DECISIONS, GS_STOP, GS_HALF, GS_SIDE, GS_STOPPED) = range(18)
GS_LEN = 18
# Seat state ss(5, 4): rows.
SS_SCORE, SS_SHINY, SS_MOVED, SS_JUNK, SS_KEY = range(5)

# Trace event kinds (docs/games/kruki.md): [kind, a, b, c, d, e, f, g].
(EV_START_TILE, EV_ROUND, EV_POOL, EV_TURN, EV_DECIDE, EV_SOURCE, EV_PLACE, EV_REPLACE, EV_SHINY, EV_NO_SHINY,
 EV_TOKEN, EV_TWO_CROWS, EV_FLIGHT, EV_SCORE, EV_MURDER, EV_END_ROUND, EV_END) = range(1, 18)

START_XY = np.array([[c for xy in START_CELLS[k] for c in xy] for k in (0, 1)], np.int64)  # (layout, 18): x0 y0 ..


def sizes(params):
    """(total tiles N, board half H, side) for the parameters."""
    n = total_tiles(params)
    h = board_half(params)
    return n, h, 2 * h + 1


@kernel_njit(inline="always")
def _put(B, obs, ob, i, v):
    """Set board entry i (plane * side^2 + cell) in the kernel's board and in the observation's mirror."""
    B[i] = v
    obs[ob + i] = v


@kernel_njit(_nrt=False)
def _add_tile(B, obs, ob, nadj, tiles, front, g, c, kind):
    """A tile of `kind` on gap c: the tile list, the frontier (KRUKI-13) and the neighbour counts follow."""
    side = g[GS_SIDE]
    _put(B, obs, ob, c, kind)
    n = g[GS_N_TILES]
    i = n
    while i > 0 and tiles[i - 1] > c:
        tiles[i] = tiles[i - 1]
        i -= 1
    tiles[i] = c
    g[GS_N_TILES] = n + 1
    nf = g[GS_N_FRONT]
    if nadj[c] > 0:  # c was a legal cell: it leaves the frontier
        j = 0
        while front[j] != c:
            j += 1
        for k in range(j, nf - 1):
            front[k] = front[k + 1]
        nf -= 1
    for e in range(4):
        nb = c - side if e == 0 else (c + 1 if e == 1 else (c + side if e == 2 else c - 1))
        nadj[nb] += 1
        if nadj[nb] == 1 and B[nb] == GAP:
            i = nf
            while i > 0 and front[i - 1] > nb:
                front[i] = front[i - 1]
                i -= 1
            front[i] = nb
            nf += 1
    g[GS_N_FRONT] = nf


@kernel_njit(_nrt=False)
def _place(B, obs, ob, nadj, tiles, front, g, c, kind, spawn):
    """KRUKI-13/14: the tile goes on c and receives min(spawn, supply) crows (KRUKI-2). Returns the crows."""
    _add_tile(B, obs, ob, nadj, tiles, front, g, c, kind)
    n = min(spawn, g[GS_SUPPLY])
    if n > 0:
        a = g[GS_SIDE] * g[GS_SIDE]
        _put(B, obs, ob, a + c, B[a + c] + n)
        g[GS_SUPPLY] -= n
    return n


@kernel_njit(inline="always")
def _spawn(kind):
    return kind if 1 <= kind <= 3 else 0  # TREE1..TREE3 spawn 1..3 (KRUKI-14)


@kernel_njit(inline="always")
def _x(g, c):
    side = g[GS_SIDE]
    return c - (c // side) * side - g[GS_HALF]


@kernel_njit(inline="always")
def _y(g, c):
    return c // g[GS_SIDE] - g[GS_HALF]


@kernel_njit(_nrt=False)
def fill_obs(obs, g, ss, hands, tiles, front, pool, unseen, players, seat, decision, n_opt, c_tile, c_spawn, c_own,
             c_replaced, c_token, c_pa, c_pb, c_murder, c_crows, c_chooser):
    """The per-decision part of the observation (KRUKI-37): public state, the seat's own token kinds and the
    decision's context. The board planes are mirrored as they change; the option list is written by the caller."""
    obs[O_DECISION] = decision
    obs[O_SEAT] = seat
    obs[O_PLAYERS] = players
    obs[O_ROUND] = g[GS_ROUND]
    obs[O_FIRST_PLAYER] = g[GS_FIRST]
    obs[O_STACK_SIZE] = g[GS_END] - g[GS_POS]
    obs[O_TOKEN_STACK] = g[GS_TEND] - g[GS_TPOS]
    obs[O_SUPPLY] = g[GS_SUPPLY]
    obs[O_NO_GRAVEYARDS] = g[GS_NG]
    obs[O_N_OPTIONS] = n_opt
    nt = g[GS_N_TILES]
    obs[O_N_TILES] = nt
    at = obs[O_AT_TILES]
    for i in range(nt):
        obs[at + i] = tiles[i]
    nf = g[GS_N_FRONT]
    obs[O_N_FRONTIER] = nf
    at = obs[O_AT_FRONTIER]
    for i in range(nf):
        obs[at + i] = front[i]
    obs[O_POOL_LEN] = g[GS_POOL_LEN]
    for i in range(4):
        obs[O_POOL + i] = pool[i] if i < g[GS_POOL_LEN] else -1
    for p in range(4):
        if p < players:
            obs[O_MOVED + p] = ss[SS_MOVED, p]
            obs[O_SHINY_OF + p] = ss[SS_SHINY, p]
            obs[O_SCORES + p] = ss[SS_SCORE, p]
            obs[O_TOKENS_HELD + p] = hands[p, 0] + hands[p, 1] + hands[p, 2] + hands[p, 3] + hands[p, 4]
            obs[O_JUNK_UNUSED + p] = ss[SS_JUNK, p]
        else:
            obs[O_MOVED + p] = obs[O_SHINY_OF + p] = obs[O_SCORES + p] = -1
            obs[O_TOKENS_HELD + p] = obs[O_JUNK_UNUSED + p] = -1
    for k in range(7):
        obs[O_UNSEEN + k] = unseen[k]
    for k in range(5):
        obs[O_OWN_TOKENS + k] = hands[seat, k]
    obs[O_CTX_TILE] = c_tile
    obs[O_CTX_SPAWN] = c_spawn
    obs[O_CTX_OWN] = c_own
    obs[O_CTX_REPLACED] = c_replaced
    obs[O_CTX_TOKEN] = c_token
    obs[O_CTX_PAIR_A] = c_pa
    obs[O_CTX_PAIR_B] = c_pb
    obs[O_CTX_MURDER] = c_murder
    obs[O_CTX_CROWS] = c_crows
    obs[O_CTX_CHOOSER] = c_chooser


@kernel_njit(inline="always")
def _wants_obs(sids, seat, g, n):
    """The option list and observation are built only for a seat that reads them (not `random`)."""
    return n >= 2 and (sids[seat] != RANDOM or g[GS_DECISIONS] == g[GS_STOP])


@kernel_njit(inline="always")
def _fast(sids, seat, n, g, rng, tracing):
    """The common decisions without a call: one option (no draw), or a `random` seat (below(n), KRUKI-38).
    Returns -3 when the full `_ask` is needed."""
    if n < 2:
        return 0
    if sids[seat] == RANDOM and not tracing and g[GS_DECISIONS] != g[GS_STOP]:
        g[GS_DECISIONS] += 1
        return below(rng, n)
    return -3


@kernel_njit(_nrt=False)
def _ask(sids, sparams, users, seat, decision, n, obs, g, ss, hands, tiles, front, pool, unseen, players, rng, work,
         fwork, game_row, trace, trace_len, c_tile, c_spawn, c_own, c_replaced, c_token, c_pa, c_pb, c_murder,
         c_crows, c_chooser):
    """One decision (the reference's `ask`): a single option is taken without asking and draws nothing; `random`
    draws below(n); other seats get the observation (the caller wrote the option list). Returns the index, -1 when
    a plug-in broke the rules (error code 1), -2 when a test asked to stop here."""
    if n < 2:
        return 0
    sid = sids[seat]
    if sid != RANDOM or g[GS_DECISIONS] == g[GS_STOP]:
        fill_obs(obs, g, ss, hands, tiles, front, pool, unseen, players, seat, decision, n, c_tile, c_spawn, c_own,
                 c_replaced, c_token, c_pa, c_pb, c_murder, c_crows, c_chooser)
        if g[GS_DECISIONS] == g[GS_STOP]:
            g[GS_STOPPED] = 1
            return -2
    g[GS_DECISIONS] += 1
    if sid == RANDOM:
        i = below(rng, n)  # KRUKI-38
    elif sid > 0:
        i = choose_builtin(sid, obs, sparams[seat], rng, work, fwork)
    else:
        i = users[seat](obs, sparams[seat], rng)
        if i < 0 or i >= n:
            game_row[G_ERROR] = ERROR_ILLEGAL  # a plug-in broke the rules; shipped strategies are tested
            return -1
    if trace.shape[0] > 0:
        record(trace, trace_len, EV_DECIDE, seat, decision, n, i, 0, 0, 0)
    return i


@kernel_njit(_nrt=False)
def _legal_pair_exists(B, a, tiles, nt):
    """KRUKI-25: some source pair has a destination (a tile without a shiny that is not a source)."""
    free = 0
    for i in range(nt):
        if B[2 * a + tiles[i]] < 0:
            free += 1
    for i in range(nt):
        ta = tiles[i]
        if B[a + ta] <= 0:
            continue
        for j in range(i, nt):
            tb = tiles[j]
            if B[a + tb] <= 0 or (ta == tb and B[a + ta] < 2):
                continue
            f = free - (1 if B[2 * a + ta] < 0 else 0) - (1 if (tb != ta and B[2 * a + tb] < 0) else 0)
            if f > 0:
                return True
    return False


@kernel_njit(_nrt=False)
def _pairs(B, a, tiles, nt, k, obs, at_a, at_b):
    """KRUKI-25 source pairs in canonical order. k >= 0: return the k-th pair; k < 0: write them all to the option
    lists (when at_a >= 0) and return the count."""
    free = 0
    for i in range(nt):
        if B[2 * a + tiles[i]] < 0:
            free += 1
    n = 0
    for i in range(nt):
        ta = tiles[i]
        if B[a + ta] <= 0:
            continue
        for j in range(i, nt):
            tb = tiles[j]
            if B[a + tb] <= 0 or (ta == tb and B[a + ta] < 2):
                continue
            f = free - (1 if B[2 * a + ta] < 0 else 0) - (1 if (tb != ta and B[2 * a + tb] < 0) else 0)
            if f <= 0:
                continue
            if k >= 0:
                if n == k:
                    return ta, tb
            elif at_a >= 0:
                obs[at_a + n] = ta
                obs[at_b + n] = tb
            n += 1
    return n, -1


@kernel_njit(_nrt=False)
def play_game(rp, stack0, tokens0, players, sids, sparams, users, seed, game_index, seat_row, game_row, B, nadj,
              tiles, front, stk, tok, hands, g, ss, pool, unseen, tcells, moves, mlist, slog, optbuf, obs, work, fwork,
              rng, trace, trace_len):
    """One game, KRUKI-5..36. Writes seat_row(players, seat columns) and game_row(game columns). Scratch (per block):
    B(5 side^2) nadj(side^2) tiles(N+1) front(4N+8) stk(stack) tok(tokens) hands(4, 5) g(GS_LEN) ss(5, 4) pool(4)
    unseen(7) tcells(32) moves(3, 4N+4) mlist(N+1) slog(crows+16) optbuf(8) obs work fwork rng(1); `trace` has 0
    rows unless a trace is wanted. g[GS_STOP] >= 0 stops at that decision with its observation filled (tests)."""
    tracing = trace.shape[0] > 0
    side = g[GS_SIDE]
    half = g[GS_HALF]
    a = side * side
    ob = obs[O_AT_KIND]
    # reset the board left by the previous game of this block
    for i in range(g[GS_N_TILES]):
        t = tiles[i]
        for p in range(5):
            _put(B, obs, ob, p * a + t, -1 if (p == 0 or p == 2) else 0)
        nadj[t] = 0
        nadj[t - side] = 0
        nadj[t + side] = 0
        nadj[t - 1] = 0
        nadj[t + 1] = 0
    g[GS_N_TILES] = 0
    g[GS_N_FRONT] = 0
    stream_into(rng, seed, game_index)
    for s in range(players):
        seat_row[s, :] = 0
        for r in range(5):
            ss[r, s] = 0
        ss[SS_SHINY, s] = -1
        for k in range(5):
            hands[s, k] = 0
    game_row[:] = 0
    g[GS_DECISIONS] = 0
    g[GS_STOPPED] = 0
    g[GS_SUPPLY] = rp[R_CROWS]
    g[GS_NG] = 0
    g[GS_FIRST] = 0  # KRUKI-5
    g[GS_ROUND] = 0
    g[GS_POOL_LEN] = 0
    g[GS_N_TCELLS] = 0
    # KRUKI-6: one shuffle of the stack tiles (draw order 1); removals, the 9 start tiles, then the stack
    ns = stack0.shape[0]
    for i in range(ns):
        stk[i] = stack0[i]
    shuffle(rng, stk, ns)
    random_junk = rp[R_RANDOM_JUNK] == 1
    n_removed = rp[(R_RJ_REMOVED_2P if random_junk else R_REMOVED_2P) + players - 2]
    g[GS_N_REMOVED] = n_removed
    g[GS_POS] = n_removed + 9
    g[GS_END] = ns
    for k in range(7):
        unseen[k] = 0
    for i in range(n_removed):
        unseen[stk[i]] += 1
    for i in range(n_removed + 9, ns):
        unseen[stk[i]] += 1
    for s in range(players):
        ss[SS_JUNK, s] = 0 if random_junk else 1  # KRUKI-6 own Junk
    layout = rp[R_START_LAYOUT]
    for i in range(9):  # KRUKI-7
        c = (START_XY[layout, 2 * i + 1] + half) * side + START_XY[layout, 2 * i] + half
        kind = stk[n_removed + i]
        n = _place(B, obs, ob, nadj, tiles, front, g, c, kind, _spawn(kind))
        if tracing:
            record(trace, trace_len, EV_START_TILE, START_XY[layout, 2 * i], START_XY[layout, 2 * i + 1], kind, n,
                   0, 0, 0)
    nt0 = tokens0.shape[0]  # KRUKI-8: one shuffle of the token stack (draw order 2)
    for i in range(nt0):
        tok[i] = tokens0[i]
    shuffle(rng, tok, nt0)
    g[GS_TPOS] = 0
    g[GS_TEND] = nt0
    draft = rp[R_TILE_DRAFT] == 1
    thr = rp[R_MURDER_THRESHOLD]
    cap = rp[R_SCORE_CAP]
    at_a = obs[O_AT_OPT_A]
    at_b = obs[O_AT_OPT_B]
    while True:  # KRUKI-10: rounds
        if draft:  # tile-draft: refill the face-up pool before phase A
            while g[GS_POOL_LEN] < players and g[GS_POS] < g[GS_END]:
                kind = stk[g[GS_POS]]
                g[GS_POS] += 1
                unseen[kind] -= 1
                pool[g[GS_POOL_LEN]] = kind
                g[GS_POOL_LEN] += 1
            if tracing:
                pl = g[GS_POOL_LEN]
                record(trace, trace_len, EV_POOL, pool[0] if pl > 0 else -1, pool[1] if pl > 1 else -1,
                       pool[2] if pl > 2 else -1, pool[3] if pl > 3 else -1, g[GS_END] - g[GS_POS], 0, 0)
        if tracing:
            record(trace, trace_len, EV_ROUND, g[GS_ROUND] + 1, g[GS_FIRST], g[GS_END] - g[GS_POS], g[GS_POOL_LEN],
                   0, 0, 0)
        for turn in range(players):  # phase A, KRUKI-11
            seat = g[GS_FIRST] + turn
            if seat >= players:
                seat -= players
            if tracing:
                record(trace, trace_len, EV_TURN, seat, g[GS_END] - g[GS_POS], 0, 0, 0, 0, 0)
            # ---- step 1: the tile (KRUKI-12..18)
            n = 0
            if draft:
                if ss[SS_JUNK, seat] == 1:
                    optbuf[n] = SRC_JUNK
                    n += 1
                for i in range(g[GS_POOL_LEN]):
                    optbuf[n] = SRC_POOL + i
                    n += 1
                if g[GS_POOL_LEN] == 0:
                    optbuf[n] = SRC_SKIP
                    n += 1
            else:
                if g[GS_END] > g[GS_POS]:
                    optbuf[n] = SRC_DRAW
                    n += 1
                if ss[SS_JUNK, seat] == 1:
                    optbuf[n] = SRC_JUNK
                    n += 1
                if g[GS_END] == g[GS_POS]:
                    optbuf[n] = SRC_SKIP
                    n += 1
            if _wants_obs(sids, seat, g, n):
                for i in range(n):
                    obs[at_a + i] = optbuf[i]
            i = _fast(sids, seat, n, g, rng, tracing)
            if i == -3:
                i = _ask(sids, sparams, users, seat, D_SOURCE, n, obs, g, ss, hands, tiles, front, pool, unseen,
                         players, rng, work, fwork, game_row, trace, trace_len, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
            if i < 0:
                return
            src = optbuf[i]
            kind = -1
            own = 0
            if src == SRC_SKIP:  # KRUKI-18
                seat_row[seat, S_TILE_SKIPS] += 1
            elif src == SRC_JUNK:  # KRUKI-17
                ss[SS_JUNK, seat] = 0
                kind = JUNK
                own = 1
            elif src == SRC_DRAW:
                kind = stk[g[GS_POS]]
                g[GS_POS] += 1
                unseen[kind] -= 1
            else:
                j = src - SRC_POOL
                kind = pool[j]
                for k in range(j, g[GS_POOL_LEN] - 1):
                    pool[k] = pool[k + 1]
                g[GS_POOL_LEN] -= 1
            if tracing:
                record(trace, trace_len, EV_SOURCE, seat, src, kind, 0, 0, 0, 0)
            if kind == JUNK:  # KRUKI-15/16: own Junk, or a drawn Junk (random-junk)
                seat_row[seat, S_JUNK_PLAYS] += 1
                nrep = 0
                for k in range(g[GS_N_TILES]):
                    t = tiles[k]
                    if B[a + t] == 0 and B[2 * a + t] < 0:
                        nrep += 1
                n = 2 if nrep > 0 else 1
                if _wants_obs(sids, seat, g, n):
                    obs[at_a] = 0
                    obs[at_a + 1] = 1
                mode = _fast(sids, seat, n, g, rng, tracing)
                if mode == -3:
                    mode = _ask(sids, sparams, users, seat, D_JUNK_MODE, n, obs, g, ss, hands, tiles, front, pool,
                                unseen, players, rng, work, fwork, game_row, trace, trace_len, -1, -1, own, -1, -1, -1,
                                -1, -1, -1, -1)
                if mode < 0:
                    return
                if mode == 0:  # KRUKI-15(a) normal
                    n = g[GS_N_FRONT]
                    if _wants_obs(sids, seat, g, n):
                        for k in range(n):
                            obs[at_a + k] = front[k]
                    i = _fast(sids, seat, n, g, rng, tracing)
                    if i == -3:
                        i = _ask(sids, sparams, users, seat, D_CELL, n, obs, g, ss, hands, tiles, front, pool, unseen,
                                 players, rng, work, fwork, game_row, trace, trace_len, JUNK, 0, own, 0, -1, -1, -1, -1,
                                 -1, -1)
                    if i < 0:
                        return
                    c = front[i]
                    _place(B, obs, ob, nadj, tiles, front, g, c, JUNK, 0)
                    if tracing:
                        record(trace, trace_len, EV_PLACE, seat, _x(g, c), _y(g, c), JUNK, 0, 0, 0)
                else:  # KRUKI-15(b) replace
                    seat_row[seat, S_JUNK_REPLACE] += 1
                    if _wants_obs(sids, seat, g, nrep):
                        m = 0
                        for k in range(g[GS_N_TILES]):
                            t = tiles[k]
                            if B[a + t] == 0 and B[2 * a + t] < 0:
                                obs[at_a + m] = t
                                m += 1
                    i = _fast(sids, seat, nrep, g, rng, tracing)
                    if i == -3:
                        i = _ask(sids, sparams, users, seat, D_REPLACE, nrep, obs, g, ss, hands, tiles, front, pool,
                                 unseen, players, rng, work, fwork, game_row, trace, trace_len, -1, -1, own, -1, -1, -1,
                                 -1, -1, -1, -1)
                    if i < 0:
                        return
                    r = -1
                    for k in range(g[GS_N_TILES]):
                        t = tiles[k]
                        if B[a + t] == 0 and B[2 * a + t] < 0:
                            if i == 0:
                                r = t
                                break
                            i -= 1
                    lifted = B[r]
                    _put(B, obs, ob, r, JUNK)  # the Junk takes R's cell
                    if tracing:
                        record(trace, trace_len, EV_REPLACE, seat, _x(g, r), _y(g, r), lifted, 0, 0, 0)
                    n = g[GS_N_FRONT]
                    if _wants_obs(sids, seat, g, n):
                        for k in range(n):
                            obs[at_a + k] = front[k]
                    i = _fast(sids, seat, n, g, rng, tracing)
                    if i == -3:
                        i = _ask(sids, sparams, users, seat, D_CELL, n, obs, g, ss, hands, tiles, front, pool, unseen,
                                 players, rng, work, fwork, game_row, trace, trace_len, lifted, 0, own, 1, -1, -1, -1,
                                 -1, -1, -1)
                    if i < 0:
                        return
                    c = front[i]
                    _place(B, obs, ob, nadj, tiles, front, g, c, lifted, 0)  # R spawns nothing (KRUKI-14)
                    if B[3 * a + r] != 0 or B[4 * a + r] != 0:  # tokens on R move with R [assumed]
                        _put(B, obs, ob, 3 * a + c, B[3 * a + r])
                        _put(B, obs, ob, 4 * a + c, B[4 * a + r])
                        _put(B, obs, ob, 3 * a + r, 0)
                        _put(B, obs, ob, 4 * a + r, 0)
                        tcells[g[GS_N_TCELLS]] = c
                        g[GS_N_TCELLS] += 1
                    if tracing:
                        record(trace, trace_len, EV_PLACE, seat, _x(g, c), _y(g, c), lifted, 0, 0, 0)
            elif kind >= 0:  # KRUKI-13/14
                n = g[GS_N_FRONT]
                sp = _spawn(kind)
                if _wants_obs(sids, seat, g, n):
                    for k in range(n):
                        obs[at_a + k] = front[k]
                i = _fast(sids, seat, n, g, rng, tracing)
                if i == -3:
                    i = _ask(sids, sparams, users, seat, D_CELL, n, obs, g, ss, hands, tiles, front, pool, unseen,
                             players, rng, work, fwork, game_row, trace, trace_len, kind, sp, 0, 0, -1, -1, -1, -1, -1,
                             -1)
                if i < 0:
                    return
                c = front[i]
                got = _place(B, obs, ob, nadj, tiles, front, g, c, kind, sp)
                if tracing:
                    record(trace, trace_len, EV_PLACE, seat, _x(g, c), _y(g, c), kind, got, 0, 0)
            # ---- step 2: the shiny (KRUKI-19, 20)
            nt = g[GS_N_TILES]
            n = 0
            for k in range(nt):
                t = tiles[k]
                if B[t] != JUNK and B[a + t] == 0 and B[2 * a + t] < 0:
                    n += 1
            if n == 0:  # KRUKI-19 [assumed]: no legal tile, no shiny this round
                if tracing:
                    record(trace, trace_len, EV_NO_SHINY, seat, 0, 0, 0, 0, 0, 0)
            else:
                if _wants_obs(sids, seat, g, n):
                    m = 0
                    for k in range(nt):
                        t = tiles[k]
                        if B[t] != JUNK and B[a + t] == 0 and B[2 * a + t] < 0:
                            obs[at_a + m] = t
                            m += 1
                i = _fast(sids, seat, n, g, rng, tracing)
                if i == -3:
                    i = _ask(sids, sparams, users, seat, D_SHINY, n, obs, g, ss, hands, tiles, front, pool, unseen,
                             players, rng, work, fwork, game_row, trace, trace_len, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                             -1)
                if i < 0:
                    return
                s = -1
                for k in range(nt):
                    t = tiles[k]
                    if B[t] != JUNK and B[a + t] == 0 and B[2 * a + t] < 0:
                        if i == 0:
                            s = t
                            break
                        i -= 1
                _put(B, obs, ob, 2 * a + s, seat)
                ss[SS_SHINY, seat] = s
                gained = -1
                if B[s] == EMPTY and g[GS_TPOS] < g[GS_TEND]:  # KRUKI-20
                    gained = tok[g[GS_TPOS]]
                    g[GS_TPOS] += 1
                    hands[seat, gained] += 1
                    seat_row[seat, S_GAINED + gained] += 1
                if tracing:
                    record(trace, trace_len, EV_SHINY, seat, _x(g, s), _y(g, s), B[s], gained, 0, 0)
            # ---- step 3: one token, optionally (KRUKI-21..25)
            n = 1
            optbuf[0] = -1
            for k in range(4):
                if hands[seat, k] <= 0:
                    continue
                if k == NO_FLOCKING:
                    ok = False
                    for j in range(nt):
                        if B[a + tiles[j]] > 0:
                            ok = True
                            break
                elif k == TWO_CROWS:
                    ok = _legal_pair_exists(B, a, tiles, nt)
                else:
                    ok = nt > 0 or k == NO_GRAVEYARDS
                if ok:
                    optbuf[n] = k
                    n += 1
            if _wants_obs(sids, seat, g, n):
                for k in range(n):
                    obs[at_a + k] = optbuf[k]
            i = _fast(sids, seat, n, g, rng, tracing)
            if i == -3:
                i = _ask(sids, sparams, users, seat, D_TOKEN, n, obs, g, ss, hands, tiles, front, pool, unseen, players,
                         rng, work, fwork, game_row, trace, trace_len, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
            if i < 0:
                return
            kind = optbuf[i]
            if kind >= 0:
                ta = tb = td = -1
                if kind == GRAVESTONES or kind == NO_FLOCKING:
                    n = 0
                    for k in range(nt):
                        t = tiles[k]
                        if kind == GRAVESTONES or B[a + t] > 0:
                            if _wants_obs(sids, seat, g, 2):
                                obs[at_a + n] = t
                            n += 1
                    i = _fast(sids, seat, n, g, rng, tracing)
                    if i == -3:
                        i = _ask(sids, sparams, users, seat, D_TARGET, n, obs, g, ss, hands, tiles, front, pool, unseen,
                                 players, rng, work, fwork, game_row, trace, trace_len, -1, -1, -1, -1, kind, -1, -1,
                                 -1, -1, -1)
                    if i < 0:
                        return
                    for k in range(nt):
                        t = tiles[k]
                        if kind == GRAVESTONES or B[a + t] > 0:
                            if i == 0:
                                ta = t
                                break
                            i -= 1
                    p = 3 if kind == GRAVESTONES else 4  # KRUKI-23 / KRUKI-24
                    _put(B, obs, ob, p * a + ta, B[p * a + ta] + 1)
                    tcells[g[GS_N_TCELLS]] = ta
                    g[GS_N_TCELLS] += 1
                elif kind == TWO_CROWS:  # KRUKI-25
                    w = _wants_obs(sids, seat, g, 2)
                    n = _pairs(B, a, tiles, nt, -1, obs, at_a if w else -1, at_b)[0]
                    i = _fast(sids, seat, n, g, rng, tracing)
                    if i == -3:
                        i = _ask(sids, sparams, users, seat, D_PAIR, n, obs, g, ss, hands, tiles, front, pool, unseen,
                                 players, rng, work, fwork, game_row, trace, trace_len, -1, -1, -1, -1, kind, -1, -1,
                                 -1, -1, -1)
                    if i < 0:
                        return
                    ta, tb = _pairs(B, a, tiles, nt, i, obs, -1, -1)
                    n = 0
                    for k in range(nt):
                        t = tiles[k]
                        if B[2 * a + t] < 0 and t != ta and t != tb:
                            if _wants_obs(sids, seat, g, 2):
                                obs[at_a + n] = t
                            n += 1
                    i = _fast(sids, seat, n, g, rng, tracing)
                    if i == -3:
                        i = _ask(sids, sparams, users, seat, D_DEST, n, obs, g, ss, hands, tiles, front, pool, unseen,
                                 players, rng, work, fwork, game_row, trace, trace_len, -1, -1, -1, -1, kind, ta, tb,
                                 -1, -1, -1)
                    if i < 0:
                        return
                    for k in range(nt):
                        t = tiles[k]
                        if B[2 * a + t] < 0 and t != ta and t != tb:
                            if i == 0:
                                td = t
                                break
                            i -= 1
                    _put(B, obs, ob, a + ta, B[a + ta] - 1)
                    _put(B, obs, ob, a + tb, B[a + tb] - 1)
                    _put(B, obs, ob, a + td, B[a + td] + 2)
                else:  # KRUKI-22
                    g[GS_NG] = 1
                hands[seat, kind] -= 1
                seat_row[seat, S_PLAYED + kind] += 1
                if tracing:
                    if kind == TWO_CROWS:
                        record(trace, trace_len, EV_TWO_CROWS, seat, _x(g, ta), _y(g, ta), _x(g, tb), _y(g, tb),
                               _x(g, td), _y(g, td))
                    elif kind == NO_GRAVEYARDS:
                        record(trace, trace_len, EV_TOKEN, seat, kind, 0, 0, 0, 0, 0)
                    else:
                        record(trace, trace_len, EV_TOKEN, seat, kind, 1, _x(g, ta), _y(g, ta), 0, 0)
            ss[SS_MOVED, seat] = 1
        # ---- phase B: flight (KRUKI-26/27) from the snapshot, then scoring (KRUKI-28)
        nt = g[GS_N_TILES]
        nm = 0
        for k in range(nt):
            t = tiles[k]
            cr = B[a + t]
            if cr > 0 and B[4 * a + t] == 0 and B[2 * a + t] < 0:
                m, d0, d1, d2, d3 = flight_plan(B, B[2 * a:3 * a], side, t)
                if m == 0:
                    continue
                q = div_small(cr, m)
                if q == 0:
                    continue
                for e in range(m):
                    moves[0, nm] = t
                    moves[1, nm] = d0 if e == 0 else (d1 if e == 1 else (d2 if e == 2 else d3))
                    moves[2, nm] = q
                    nm += 1
        for k in range(nm):
            t, d, q = moves[0, k], moves[1, k], moves[2, k]
            _put(B, obs, ob, a + t, B[a + t] - q)
            _put(B, obs, ob, a + d, B[a + d] + q)
            if tracing:
                record(trace, trace_len, EV_FLIGHT, _x(g, t), _y(g, t), _x(g, d), _y(g, d), q, 0, 0)
        ng = g[GS_NG]
        for p in range(players):
            s = ss[SS_SHINY, p]
            if s < 0:
                continue
            cr = B[a + s]
            doubled = (B[s] == GRAVEYARD or B[3 * a + s] > 0) and ng == 0  # KRUKI-22, 23
            pts = 2 * cr if doubled else cr
            if cap > 0 and pts > cap:
                pts = cap
                seat_row[p, S_CAP_HITS] += 1
            ss[SS_SCORE, p] += pts
            if doubled:
                seat_row[p, S_GRAVE_POINTS] += pts
            if pts == 0:
                seat_row[p, S_ZERO] += 1
            if pts > seat_row[p, S_MAX_ROUND]:
                seat_row[p, S_MAX_ROUND] = pts
            if tracing:
                record(trace, trace_len, EV_SCORE, p, _x(g, s), _y(g, s), cr, 1 if doubled else 0, pts,
                       ss[SS_SCORE, p])
        # ---- phase C: murders (KRUKI-29/30), the list fixed at the start of the phase
        nl = 0
        for k in range(players):
            owner = g[GS_FIRST] + k
            if owner >= players:
                owner -= players
            s = ss[SS_SHINY, owner]
            if s >= 0 and B[a + s] >= thr:
                mlist[nl] = s
                nl += 1
        for k in range(nt):
            t = tiles[k]
            if B[a + t] >= thr and B[2 * a + t] < 0:
                mlist[nl] = t
                nl += 1
        for k in range(nl):
            mc = mlist[k]
            chooser = B[2 * a + mc] if B[2 * a + mc] >= 0 else g[GS_FIRST]  # [assumed] ownerless: first player
            crows_before = B[a + mc]
            if _wants_obs(sids, chooser, g, 4):
                for e in range(4):
                    obs[at_a + e] = e
            start = _fast(sids, chooser, 4, g, rng, tracing)
            if start == -3:
                start = _ask(sids, sparams, users, chooser, D_SPIRAL, 4, obs, g, ss, hands, tiles, front, pool, unseen,
                             players, rng, work, fwork, game_row, trace, trace_len, -1, -1, -1, -1, -1, -1, -1, mc,
                             crows_before, chooser)
            if start < 0:
                return
            slog[0] = 0
            removed, placed = scatter(B[0:a], B[a:2 * a], half, side, tiles, nt, mc, start, rp[R_MURDER_REMOVED],
                                      slog)
            obs[ob + a + mc] = B[a + mc]
            for e in range(1, slog[0] + 1):
                obs[ob + a + slog[e]] = B[a + slog[e]]
            g[GS_SUPPLY] += removed
            game_row[G_MURDERS] += 1
            game_row[G_REMOVED] += removed
            game_row[G_SCATTERED] += placed
            seat_row[chooser, S_MURDERS_CHOSEN] += 1
            if tracing:
                record(trace, trace_len, EV_MURDER, chooser, _x(g, mc), _y(g, mc), crows_before, start, removed,
                       placed)
        # ---- end of round (KRUKI-33)
        for p in range(players):
            s = ss[SS_SHINY, p]
            if s >= 0:
                _put(B, obs, ob, 2 * a + s, -1)
            ss[SS_SHINY, p] = -1
            ss[SS_MOVED, p] = 0
        for k in range(g[GS_N_TCELLS]):
            t = tcells[k]
            _put(B, obs, ob, 3 * a + t, 0)
            _put(B, obs, ob, 4 * a + t, 0)
        g[GS_N_TCELLS] = 0
        g[GS_NG] = 0
        g[GS_ROUND] += 1
        game_row[G_ROUNDS] = g[GS_ROUND]
        g[GS_FIRST] += 1
        if g[GS_FIRST] == players:
            g[GS_FIRST] = 0
        if tracing:
            record(trace, trace_len, EV_END_ROUND, g[GS_ROUND], g[GS_END] - g[GS_POS],
                   1 if g[GS_END] == g[GS_POS] else 0, 0, 0, 0, 0)
        if g[GS_END] == g[GS_POS]:  # KRUKI-34
            break
    # KRUKI-35: unused tokens; KRUKI-36: ranking
    keep = rp[R_TOKEN_KEEP]
    tp = rp[R_THREE_POINTS]
    on_board = 0
    for k in range(g[GS_N_TILES]):
        on_board += B[a + tiles[k]]
    game_row[G_ON_BOARD] = on_board
    top = -1
    for p in range(players):
        pts = keep * (hands[p, 0] + hands[p, 1] + hands[p, 2] + hands[p, 3]) + tp * hands[p, 4]
        seat_row[p, S_TOKEN_POINTS] = pts
        ss[SS_SCORE, p] += pts
        seat_row[p, S_SCORE] = ss[SS_SCORE, p]
        ss[SS_KEY, p] = 2 * ss[SS_SCORE, p] + ss[SS_JUNK, p]
        top = max(top, ss[SS_SCORE, p])
        if tracing:
            record(trace, trace_len, EV_END, p, pts, ss[SS_SCORE, p], 0, 0, 0, 0)
    set_ranks(seat_row, players, ss[SS_KEY])
    n_top = 0
    n_first = 0
    for p in range(players):
        if ss[SS_SCORE, p] == top:
            n_top += 1
        if seat_row[p, 1] == 1:
            n_first += 1
    game_row[G_TIE] = 0 if n_top == 1 else (1 if n_first == 1 else 2)


@kernel_njit()
def make_scratch(rp, n_stack, n_tokens, players):
    """Per-block working arrays for play_game (and the observation), sized from the rule vector."""
    n = 0
    for k in range(7):
        n += rp[R_TILES_EMPTY + k]
    half = max(n, 12)
    side = 2 * half + 1
    a = side * side
    B = np.zeros(5 * a, np.int32)
    B[0:a] = -1
    B[2 * a:3 * a] = -1
    obs = np.zeros(obs_size(n, side), np.int32)
    at_tiles, at_front, at_kind, at_opt_a, at_opt_b = obs_offsets(n, side)
    obs[at_kind:at_kind + 5 * a] = B
    obs[O_AT_TILES] = at_tiles
    obs[O_AT_FRONTIER] = at_front
    obs[O_AT_KIND] = at_kind
    obs[O_AT_KIND + 1] = at_kind + a
    obs[O_AT_KIND + 2] = at_kind + 2 * a
    obs[O_AT_KIND + 3] = at_kind + 3 * a
    obs[O_AT_KIND + 4] = at_kind + 4 * a
    obs[O_AT_OPT_A] = at_opt_a
    obs[O_AT_OPT_B] = at_opt_b
    obs[O_PLAYERS] = players
    obs[O_HALF] = half
    obs[O_SIDE] = side
    for i in range(rp.shape[0]):
        obs[O_RULES + i] = rp[i]
    g = np.zeros(18, np.int64)
    g[GS_HALF] = half
    g[GS_SIDE] = side
    g[GS_STOP] = -1
    return (B, np.zeros(a, np.int8), np.zeros(n + 1, np.int32), np.zeros(4 * n + 8, np.int32),
            np.zeros(max(n_stack, 1), np.int8), np.zeros(max(n_tokens, 1), np.int8), np.zeros((4, 5), np.int64), g,
            np.zeros((5, 4), np.int64), np.zeros(4, np.int32), np.zeros(7, np.int64), np.zeros(32, np.int32),
            np.zeros((3, 4 * n + 8), np.int32), np.zeros(n + 1, np.int32),
            np.zeros(rp[R_CROWS] + 16, np.int32), np.zeros(8, np.int32), obs,
            np.zeros(work_len(n, side, rp[R_CROWS]), np.int32), np.zeros(fwork_len(n, side, rp[R_CROWS]), np.float64),
            np.zeros(1, np.uint64))


_CHUNK_SIGNATURE = types.void(
    types.int64[::1], types.int8[::1], types.int8[::1], types.int64, types.int64[::1], types.float64[:, ::1],
    USER_FNS_TYPE, types.int64, types.int64, types.int64, types.int32[:, :, ::1], types.int32[:, ::1])


@njit(_CHUNK_SIGNATURE, cache=True, parallel=True)
def run_chunk(rp, stack0, tokens0, players, sids, sparams, users, seed, start, count, seat_out, game_out):
    """Games start .. start+count−1 into seat_out(count, players, seat columns) and game_out(count, game columns).
    Blocks of games share scratch arrays; every game draws from its own stream, so blocking never changes results.
    A block's scratch is about 1 MB (the board planes), so a block plays at least 32 games and there are at most 64."""
    blocks = min(count, 64, max(1, (count + 31) // 32))
    for b in prange(blocks):
        (B, nadj, tiles, front, stk, tok, hands, g, ss, pool, unseen, tcells, moves, mlist, slog, optbuf, obs, work,
         fwork, rng) = make_scratch(rp, stack0.shape[0], tokens0.shape[0], players)
        no_trace = np.zeros((0, TRACE_WIDTH), np.int32)
        trace_len = np.zeros(1, np.int64)
        for i in range(count * b // blocks, count * (b + 1) // blocks):
            play_game(rp, stack0, tokens0, players, sids, sparams, users, seed, start + i, seat_out[i], game_out[i],
                      B, nadj, tiles, front, stk, tok, hands, g, ss, pool, unseen, tcells, moves, mlist, slog, optbuf,
                      obs, work, fwork, rng, no_trace, trace_len)


@kernel_njit()
def trace_one(rp, stack0, tokens0, players, sids, sparams, users, seed, game_index, seat_row, game_row, trace,
              trace_len):
    """One game with its event log (for `sim trace`)."""
    (B, nadj, tiles, front, stk, tok, hands, g, ss, pool, unseen, tcells, moves, mlist, slog, optbuf, obs, work,
     fwork, rng) = make_scratch(rp, stack0.shape[0], tokens0.shape[0], players)
    play_game(rp, stack0, tokens0, players, sids, sparams, users, seed, game_index, seat_row, game_row, B, nadj,
              tiles, front, stk, tok, hands, g, ss, pool, unseen, tcells, moves, mlist, slog, optbuf, obs, work, fwork,
              rng, trace, trace_len)


@kernel_njit()
def play_until(rp, stack0, tokens0, players, sids, sparams, users, seed, game_index, stop_at, scratch):
    """Tests: play game `game_index` up to its decision number `stop_at` (0-based, counting asked decisions) and
    leave the state in `scratch` (a make_scratch tuple) with that decision's observation filled in."""
    (B, nadj, tiles, front, stk, tok, hands, g, ss, pool, unseen, tcells, moves, mlist, slog, optbuf, obs, work,
     fwork, rng) = scratch
    g[GS_STOP] = stop_at
    seat_row = np.zeros((players, len(SEAT_BASE) + len(SEAT_COLUMNS)), np.int32)
    game_row = np.zeros(len(GAME_BASE) + len(GAME_COLUMNS), np.int32)
    no_trace = np.zeros((0, TRACE_WIDTH), np.int32)
    trace_len = np.zeros(1, np.int64)
    play_game(rp, stack0, tokens0, players, sids, sparams, users, seed, game_index, seat_row, game_row, B, nadj,
              tiles, front, stk, tok, hands, g, ss, pool, unseen, tcells, moves, mlist, slog, optbuf, obs, work,
              fwork, rng, no_trace, trace_len)
    return g[GS_STOPPED] == 1


def kernel_data(params, players, data=None):
    """(rule vector in rules.PARAMS order, canonical stack kinds, canonical token kinds)."""
    rp = np.array([params[p.name] for p in rules.PARAMS], np.int64)
    return (rp, np.array(rules.stack_kinds(params), np.int8).reshape(-1),
            np.array(rules.token_kinds(params), np.int8).reshape(-1))

