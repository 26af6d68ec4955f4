"""Crows (`kruki`) rules as njit code over flat integer arrays (docs/rules/kruki.md); mirrors the reference draw
for draw (sim/games/kruki/reference/__init__.py lists the draw order and the canonical option orders), phase by
phase under the reference's names: `setup`, then per round `refill_pool`, `take_turn` per seat (kernel_turn.py),
`phase_b`, `phase_c`, `end_round`, and at the end `finish`.

One compiled kernel serves every variant: the rules arrive as the int64 parameter vector `rp` (rules.PARAMS order,
`R_*` in obs.py), the canonical stack kinds and the canonical token kinds. Strategies see only the observation
(obs.py); the kernel keeps its own board (kernel_state.py) and mirrors every change into the observation's board
planes, so a plug-in that writes to its observation cannot change the game.
"""
import numpy as np
from numba import njit, types

from sim.jit import kernel_njit
from sim.kernel_util import TRACE_WIDTH, USER_FNS_TYPE, record, set_ranks
from sim.rng import shuffle, stream_into
from sim.spec import GAME_BASE, SEAT_BASE
from sim.games.kruki import rules
from sim.games.kruki.model import div_small, flight_plan, scatter, spawn_of
from sim.games.kruki.obs import (D_SPIRAL, N_PLANES, O_AT_KIND, O_AT_OPT_A, PL_CROWS, PL_FROZEN, PL_KIND, PL_SHINY,
                                 PL_STONES, R_CROWS, R_MURDER_REMOVED, R_MURDER_THRESHOLD, R_RANDOM_JUNK,
                                 R_REMOVED_2P, R_RJ_REMOVED_2P, R_SCORE_CAP, R_START_LAYOUT, R_THREE_POINTS,
                                 R_TILE_DRAFT, R_TOKEN_KEEP)
from sim.games.kruki.rules import (GAME_COLUMNS, GAP, GRAVEYARD, N_DIR, N_START, PLAYABLE_TOKEN_KINDS, SEAT_COLUMNS,
                                   START_CELLS, THREE_POINTS)
from sim.games.kruki.kernel_state import (EV_END, EV_END_ROUND, EV_FLIGHT, EV_MURDER, EV_POOL, EV_ROUND,
                                          EV_SCORE, EV_START_TILE, EV_TURN, G_MURDERS, G_ON_BOARD, G_REMOVED,
                                          G_ROUNDS, G_SCATTERED, G_TIE, GS_DECISIONS, GS_END, GS_FIRST, GS_HALF,
                                          GS_N_FRONT, GS_N_REMOVED, GS_N_TCELLS, GS_N_TILES, GS_NG, GS_POOL_LEN,
                                          GS_POS, GS_ROUND, GS_SIDE, GS_STOP, GS_STOPPED, GS_SUPPLY, GS_TEND, GS_TPOS,
                                          S_CAP_HITS, S_GRAVE_POINTS, S_MAX_ROUND, S_MURDERS_CHOSEN, S_RANK, S_SCORE,
                                          S_TOKEN_POINTS, S_ZERO, SS_JUNK, SS_KEY, SS_LEN, SS_MOVED, SS_SCORE,
                                          SS_SHINY, BUILTIN, BUILTIN_TYPE, Table, cell_x, cell_y, decide,
                                          make_scratch, place, put, wants_obs)
from sim.games.kruki.kernel_turn import take_turn

# (layout, 2 * N_START): the start cells of each layout in placing order, x0 y0 x1 y1 ...
START_XY = np.array([[c for xy in START_CELLS[k] for c in xy] for k in sorted(START_CELLS)], np.int64)


@kernel_njit()
def _clear_board(s):
    """Empty the board the previous game of this block left (only its tiles and their neighbours were touched)."""
    g, tiles, nadj = s.g, s.tiles, s.nadj
    side = g[GS_SIDE]
    a = side * side
    ob = s.obs[O_AT_KIND]
    for i in range(g[GS_N_TILES]):
        c = tiles[i]
        for p in range(N_PLANES):
            put(s, ob, p * a + c, GAP if p == PL_KIND else (-1 if p == PL_SHINY else 0))
        nadj[c] = 0
        nadj[c - side] = 0
        nadj[c + side] = 0
        nadj[c - 1] = 0
        nadj[c + 1] = 0
    g[GS_N_TILES] = 0
    g[GS_N_FRONT] = 0


@kernel_njit()
def setup(t, s, stack0, tokens0, seed, game_index):
    """KRUKI-5..8: a fresh game on the block's scratch: shuffle the stack (draw order 1), remove, lay out the 9
    start tiles, deal own Junk, shuffle the token stack (draw order 2)."""
    g, rp, players, ss, stk = s.g, t.rp, t.players, s.ss, s.stack
    tracing = t.trace.shape[0] > 0
    side = g[GS_SIDE]
    half = g[GS_HALF]
    _clear_board(s)
    stream_into(s.rng, seed, game_index)
    for p in range(players):
        t.seat_row[p, :] = 0
        for r in range(SS_LEN):
            ss[r, p] = 0
        ss[SS_SHINY, p] = -1
        for k in range(s.hands.shape[1]):
            s.hands[p, k] = 0
    t.game_row[:] = 0
    g[GS_DECISIONS] = 0
    g[GS_STOPPED] = 0
    g[GS_SUPPLY] = rp[R_CROWS]
    g[GS_NG] = 0
    g[GS_FIRST] = 0  # KRUKI-5
    g[GS_ROUND] = 0
    g[GS_POOL_LEN] = 0
    g[GS_N_TCELLS] = 0
    ns = stack0.shape[0]  # KRUKI-6: one shuffle of the stack tiles; removals, the 9 start tiles, then the stack
    for i in range(ns):
        stk[i] = stack0[i]
    shuffle(s.rng, stk, ns)
    random_junk = rp[R_RANDOM_JUNK] == 1
    n_removed = rp[(R_RJ_REMOVED_2P if random_junk else R_REMOVED_2P) + players - 2]
    g[GS_N_REMOVED] = n_removed
    g[GS_POS] = n_removed + N_START
    g[GS_END] = ns
    for k in range(s.unseen.shape[0]):
        s.unseen[k] = 0
    for i in range(n_removed):
        s.unseen[stk[i]] += 1
    for i in range(n_removed + N_START, ns):
        s.unseen[stk[i]] += 1
    for p in range(players):
        ss[SS_JUNK, p] = 0 if random_junk else 1  # KRUKI-6 own Junk
    layout = rp[R_START_LAYOUT]
    ob = s.obs[O_AT_KIND]
    for i in range(N_START):  # KRUKI-7
        x, y = START_XY[layout, 2 * i], START_XY[layout, 2 * i + 1]
        kind = stk[n_removed + i]
        n = place(s, ob, (y + half) * side + x + half, kind, spawn_of(kind))
        if tracing:
            record(t.trace, t.trace_len, EV_START_TILE, x, y, kind, n, 0, 0, 0)
    nt0 = tokens0.shape[0]  # KRUKI-8
    for i in range(nt0):
        s.tokens[i] = tokens0[i]
    shuffle(s.rng, s.tokens, nt0)
    g[GS_TPOS] = 0
    g[GS_TEND] = nt0


@kernel_njit()
def refill_pool(t, s):
    """tile-draft (KRUKI-12): refill the face-up pool to P tiles from the stack before phase A."""
    g = s.g
    while g[GS_POOL_LEN] < t.players and g[GS_POS] < g[GS_END]:
        kind = s.stack[g[GS_POS]]
        g[GS_POS] += 1
        s.unseen[kind] -= 1
        s.pool[g[GS_POOL_LEN]] = kind
        g[GS_POOL_LEN] += 1
    if t.trace.shape[0] > 0:
        pl = g[GS_POOL_LEN]
        pool = s.pool
        record(t.trace, t.trace_len, EV_POOL, pool[0] if pl > 0 else -1, pool[1] if pl > 1 else -1,
               pool[2] if pl > 2 else -1, pool[3] if pl > 3 else -1, g[GS_END] - g[GS_POS], 0, 0)


@kernel_njit()
def phase_b(t, s):
    """KRUKI-26/27: every free group flies from the snapshot at once; then KRUKI-28 (22, 23): each shiny scores."""
    g, B, moves, ss = s.g, s.board, s.moves, s.ss
    tracing = t.trace.shape[0] > 0
    a = g[GS_SIDE] * g[GS_SIDE]
    ob = s.obs[O_AT_KIND]
    nm = 0
    for k in range(g[GS_N_TILES]):
        c = s.tiles[k]
        cr = B[PL_CROWS * a + c]
        if cr > 0 and B[PL_FROZEN * a + c] == 0 and B[PL_SHINY * a + c] < 0:
            m, d0, d1, d2, d3 = flight_plan(B, B[PL_SHINY * a:(PL_SHINY + 1) * a], g[GS_SIDE], c)
            if m == 0:
                continue
            q = div_small(cr, m)
            if q == 0:
                continue
            for e in range(m):
                moves[0, nm] = c
                moves[1, nm] = d0 if e == 0 else (d1 if e == 1 else (d2 if e == 2 else d3))
                moves[2, nm] = q
                nm += 1
    for k in range(nm):
        c, d, q = moves[0, k], moves[1, k], moves[2, k]
        put(s, ob, PL_CROWS * a + c, B[PL_CROWS * a + c] - q)
        put(s, ob, PL_CROWS * a + d, B[PL_CROWS * a + d] + q)
        if tracing:
            record(t.trace, t.trace_len, EV_FLIGHT, cell_x(g, c), cell_y(g, c), cell_x(g, d), cell_y(g, d), q, 0, 0)
    cap = t.rp[R_SCORE_CAP]
    ng = g[GS_NG]
    for p in range(t.players):
        sh = ss[SS_SHINY, p]
        if sh < 0:
            continue
        cr = B[PL_CROWS * a + sh]
        doubled = (B[PL_KIND * a + sh] == GRAVEYARD or B[PL_STONES * a + sh] > 0) and ng == 0  # KRUKI-22, 23
        pts = 2 * cr if doubled else cr
        if cap > 0 and pts > cap:
            pts = cap
            t.seat_row[p, S_CAP_HITS] += 1
        ss[SS_SCORE, p] += pts
        if doubled:
            t.seat_row[p, S_GRAVE_POINTS] += pts
        if pts == 0:
            t.seat_row[p, S_ZERO] += 1
        if pts > t.seat_row[p, S_MAX_ROUND]:
            t.seat_row[p, S_MAX_ROUND] = pts
        if tracing:
            record(t.trace, t.trace_len, EV_SCORE, p, cell_x(g, sh), cell_y(g, sh), cr, 1 if doubled else 0, pts,
                   ss[SS_SCORE, p])


@kernel_njit()
def phase_c(t, s):
    """KRUKI-29..31: murders, the list fixed at the start of the phase (shinies in turn order, then the other
    tiles in raster order); the chooser picks each spiral start. False when the game stops."""
    g, B, obs, ss, mlist = s.g, s.board, s.obs, s.ss, s.mlist
    tracing = t.trace.shape[0] > 0
    players = t.players
    side = g[GS_SIDE]
    a = side * side
    ob = obs[O_AT_KIND]
    thr = t.rp[R_MURDER_THRESHOLD]
    nt = g[GS_N_TILES]
    nl = 0
    for k in range(players):
        owner = g[GS_FIRST] + k
        if owner >= players:
            owner -= players
        sh = ss[SS_SHINY, owner]
        if sh >= 0 and B[PL_CROWS * a + sh] >= thr:
            mlist[nl] = sh
            nl += 1
    for k in range(nt):
        c = s.tiles[k]
        if B[PL_CROWS * a + c] >= thr and B[PL_SHINY * a + c] < 0:
            mlist[nl] = c
            nl += 1
    for k in range(nl):
        mc = mlist[k]
        chooser = B[PL_SHINY * a + mc] if B[PL_SHINY * a + mc] >= 0 else g[GS_FIRST]  # [assumed] ownerless: first
        crows_before = B[PL_CROWS * a + mc]
        if wants_obs(t, s, chooser, 4):
            at_a = obs[O_AT_OPT_A]
            for e in range(4):
                obs[at_a + e] = N_DIR + e  # N, E, S, W
        start = decide(t, s, chooser, D_SPIRAL, 4, -1, -1, -1, -1, -1, -1, -1, mc, crows_before, chooser)
        if start < 0:
            return False
        slog = s.slog
        slog[0] = 0
        removed, placed = scatter(B[PL_KIND * a:(PL_KIND + 1) * a], B[PL_CROWS * a:(PL_CROWS + 1) * a], g[GS_HALF],
                                  side, s.tiles, nt, mc, start, t.rp[R_MURDER_REMOVED], slog)
        obs[ob + PL_CROWS * a + mc] = B[PL_CROWS * a + mc]  # mirror what scatter changed
        for e in range(1, slog[0] + 1):
            obs[ob + PL_CROWS * a + slog[e]] = B[PL_CROWS * a + slog[e]]
        g[GS_SUPPLY] += removed
        t.game_row[G_MURDERS] += 1
        t.game_row[G_REMOVED] += removed
        t.game_row[G_SCATTERED] += placed
        t.seat_row[chooser, S_MURDERS_CHOSEN] += 1
        if tracing:
            record(t.trace, t.trace_len, EV_MURDER, chooser, cell_x(g, mc), cell_y(g, mc), crows_before, start,
                   removed, placed)
    return True


@kernel_njit()
def end_round(t, s):
    """KRUKI-33: shinies and tokens leave the board, the first player passes on. Returns True when the game is
    over (KRUKI-34: the stack is empty)."""
    g, ss = s.g, s.ss
    a = g[GS_SIDE] * g[GS_SIDE]
    ob = s.obs[O_AT_KIND]
    for p in range(t.players):
        sh = ss[SS_SHINY, p]
        if sh >= 0:
            put(s, ob, PL_SHINY * a + sh, -1)
        ss[SS_SHINY, p] = -1
        ss[SS_MOVED, p] = 0
    for k in range(g[GS_N_TCELLS]):
        c = s.tcells[k]
        put(s, ob, PL_STONES * a + c, 0)
        put(s, ob, PL_FROZEN * a + c, 0)
    g[GS_N_TCELLS] = 0
    g[GS_NG] = 0
    g[GS_ROUND] += 1
    t.game_row[G_ROUNDS] = g[GS_ROUND]
    g[GS_FIRST] += 1
    if g[GS_FIRST] == t.players:
        g[GS_FIRST] = 0
    if t.trace.shape[0] > 0:
        record(t.trace, t.trace_len, EV_END_ROUND, g[GS_ROUND], g[GS_END] - g[GS_POS],
               1 if g[GS_END] == g[GS_POS] else 0, 0, 0, 0, 0)
    return g[GS_END] == g[GS_POS]


@kernel_njit()
def play_round(t, s, draft):
    """KRUKI-10: one round: [pool], phase A (a turn per seat from the first player), phase B, phase C, its end.
    Returns 1 when the game is over, 0 to play on, -1 when the game stops."""
    g = s.g
    tracing = t.trace.shape[0] > 0
    if draft:
        refill_pool(t, s)
    if tracing:
        record(t.trace, t.trace_len, EV_ROUND, g[GS_ROUND] + 1, g[GS_FIRST], g[GS_END] - g[GS_POS], g[GS_POOL_LEN],
               0, 0, 0)
    for turn in range(t.players):  # phase A, KRUKI-11
        seat = g[GS_FIRST] + turn
        if seat >= t.players:
            seat -= t.players
        if tracing:
            record(t.trace, t.trace_len, EV_TURN, seat, g[GS_END] - g[GS_POS], 0, 0, 0, 0, 0)
        if not take_turn(t, s, seat, draft):
            return -1
    phase_b(t, s)
    if not phase_c(t, s):
        return -1
    return 1 if end_round(t, s) else 0


@kernel_njit()
def finish(t, s):
    """KRUKI-35: points for unused tokens; KRUKI-36: ranking by score, then unused own Junk; the tie-break code."""
    g, ss, hands, seat_row = s.g, s.ss, s.hands, t.seat_row
    a = g[GS_SIDE] * g[GS_SIDE]
    keep = t.rp[R_TOKEN_KEEP]
    tp = t.rp[R_THREE_POINTS]
    on_board = 0
    for k in range(g[GS_N_TILES]):
        on_board += s.board[PL_CROWS * a + s.tiles[k]]
    t.game_row[G_ON_BOARD] = on_board
    top = -1
    for p in range(t.players):
        held = 0
        for k in range(PLAYABLE_TOKEN_KINDS):
            held += hands[p, k]
        pts = keep * held + tp * hands[p, THREE_POINTS]
        seat_row[p, S_TOKEN_POINTS] = pts
        ss[SS_SCORE, p] += pts
        seat_row[p, S_SCORE] = ss[SS_SCORE, p]
        ss[SS_KEY, p] = 2 * ss[SS_SCORE, p] + ss[SS_JUNK, p]
        top = max(top, ss[SS_SCORE, p])
        if t.trace.shape[0] > 0:
            record(t.trace, t.trace_len, EV_END, p, pts, ss[SS_SCORE, p], 0, 0, 0, 0)
    set_ranks(seat_row, t.players, ss[SS_KEY])
    n_top = 0
    n_first = 0
    for p in range(t.players):
        if ss[SS_SCORE, p] == top:
            n_top += 1
        if seat_row[p, S_RANK] == 1:
            n_first += 1
    t.game_row[G_TIE] = 0 if n_top == 1 else (1 if n_first == 1 else 2)


@kernel_njit()
def play_game(t, s, stack0, tokens0, seed, game_index):
    """One game, KRUKI-5..36, on the block's Scratch `s`; writes t.seat_row(players, seat columns) and
    t.game_row(game columns). s.g[GS_STOP] >= 0 stops at that decision with its observation filled (tests)."""
    setup(t, s, stack0, tokens0, seed, game_index)
    draft = t.rp[R_TILE_DRAFT] == 1
    while True:
        over = play_round(t, s, draft)
        if over < 0:
            return
        if over == 1:
            break
    finish(t, s)


_PLAY_SIGNATURE = types.void(
    types.int64[::1], types.int8[::1], types.int8[::1], BUILTIN_TYPE, types.int64, types.int64[::1],
    types.float64[:, ::1], USER_FNS_TYPE, types.int64, types.int64, types.int64, types.int32[:, :, ::1],
    types.int32[:, ::1], types.int32[:, ::1], types.int64[::1])


@njit(_PLAY_SIGNATURE, cache=True, nogil=True)
def play_games(rp, stack0, tokens0, builtin, players, sids, sparams, users, seed, start, count, seat_out, game_out,
               trace, trace_len):
    """Games start .. start+count−1 into seat_out(count, players, seat columns) and game_out(count, game columns),
    on one block's scratch (a game draws from its own stream, so blocks never change results); `trace` (0 rows
    unless wanted) logs events. The engine runs blocks on its threads (sim.engine.run_chunk)."""
    s = make_scratch(rp, stack0.shape[0], tokens0.shape[0], players)
    for i in range(count):
        t = Table(rp, players, sids, sparams, users, builtin, seat_out[i], game_out[i], trace, trace_len)
        play_game(t, s, stack0, tokens0, seed, start + i)


@kernel_njit(nrt=True)
def play_until(rp, stack0, tokens0, builtin, players, sids, sparams, users, seed, game_index, stop_at, s):
    """Tests: play game `game_index` up to its decision number `stop_at` (0-based, counting asked decisions) and
    leave the state in the Scratch `s` (from make_scratch) with that decision's observation filled in."""
    s.g[GS_STOP] = stop_at
    seat_row = np.zeros((players, len(SEAT_BASE) + len(SEAT_COLUMNS)), np.int32)
    game_row = np.zeros(len(GAME_BASE) + len(GAME_COLUMNS), np.int32)
    no_trace = np.zeros((0, TRACE_WIDTH), np.int32)
    trace_len = np.zeros(1, np.int64)
    t = Table(rp, players, sids, sparams, users, builtin, seat_row, game_row, no_trace, trace_len)
    play_game(t, s, stack0, tokens0, seed, game_index)
    return s.g[GS_STOPPED] == 1


def kernel_data(params, players, data=None):
    """(rule vector in rules.PARAMS order, canonical stack kinds, canonical token kinds, the strategies' dispatch)."""
    rp = np.array([params[p.name] for p in rules.PARAMS], np.int64)
    return (rp, np.array(rules.stack_kinds(params), np.int8).reshape(-1),
            np.array(rules.token_kinds(params), np.int8).reshape(-1), BUILTIN)
