"""Crows (`kruki`) kernel, phase A: one seat's turn (KRUKI-11..25), step by step as the reference's `take_turn`:
the tile (`tile_step`, with `play_junk`), the shiny (`shiny_step`), one optional token (`token_step`).

Every step returns False when the game stops (a plug-in broke the rules, or a test's stop decision was reached).
Option lists are built in the reference's canonical order (sim/games/kruki/obs.py); the observation's list only
for a seat that reads it (`wants_obs`).
"""
from sim.jit import kernel_njit
from sim.kernel_util import record
from sim.games.kruki.model import spawn_of
from sim.games.kruki.obs import (D_CELL, D_DEST, D_JUNK_MODE, D_PAIR, D_REPLACE, D_SHINY, D_SOURCE, D_TARGET,
                                 D_TOKEN, JUNK_NORMAL, JUNK_REPLACE, O_AT_KIND, O_AT_OPT_A, O_AT_OPT_B, PL_CROWS,
                                 PL_FROZEN, PL_KIND, PL_SHINY, PL_STONES, SRC_DRAW, SRC_JUNK, SRC_POOL, SRC_SKIP,
                                 TOKEN_PASS)
from sim.games.kruki.rules import (EMPTY, GRAVESTONES, JUNK, NO_FLOCKING, NO_GRAVEYARDS, PLAYABLE_TOKEN_KINDS,
                                   TWO_CROWS)
from sim.games.kruki.kernel_state import (EV_NO_SHINY, EV_PLACE, EV_REPLACE, EV_SHINY, EV_SOURCE, EV_TOKEN,
                                          EV_TWO_CROWS, GS_END, GS_N_FRONT, GS_N_TCELLS, GS_N_TILES, GS_NG,
                                          GS_POOL_LEN, GS_POS, GS_SIDE, GS_TEND, GS_TPOS, S_GAINED, S_JUNK_PLAYS,
                                          S_JUNK_REPLACE, S_PLAYED, S_TILE_SKIPS, SS_JUNK, SS_MOVED, SS_SHINY, cell_x,
                                          cell_y, decide, offer, place, put, wants_obs)


@kernel_njit(inline="always")
def _choose_cell(t, s, seat, kind, spawn, own, replaced):
    """D_CELL: a legal cell (the frontier, KRUKI-13) for the tile in hand; -1 to stop."""
    n = s.g[GS_N_FRONT]
    offer(t, s, seat, s.front, n)
    i = decide(t, s, seat, D_CELL, n, kind, spawn, own, replaced, -1, -1, -1, -1, -1, -1)
    return s.front[i] if i >= 0 else -1


@kernel_njit()
def play_junk(t, s, seat, own):
    """KRUKI-15/16: a Junk tile (own, or drawn under random-junk) placed normally or replacing a tile."""
    g, B, obs = s.g, s.board, s.obs
    tracing = t.trace.shape[0] > 0
    a = g[GS_SIDE] * g[GS_SIDE]
    ob = obs[O_AT_KIND]
    at_a = obs[O_AT_OPT_A]
    t.seat_row[seat, S_JUNK_PLAYS] += 1
    nrep = 0  # D_REPLACE options: tiles without crows and without a shiny
    for k in range(g[GS_N_TILES]):
        c = s.tiles[k]
        if B[PL_CROWS * a + c] == 0 and B[PL_SHINY * a + c] < 0:
            nrep += 1
    n = 2 if nrep > 0 else 1
    if wants_obs(t, s, seat, n):
        obs[at_a] = JUNK_NORMAL
        obs[at_a + 1] = JUNK_REPLACE
    mode = decide(t, s, seat, D_JUNK_MODE, n, -1, -1, own, -1, -1, -1, -1, -1, -1, -1)
    if mode < 0:
        return False
    if mode == JUNK_NORMAL:  # KRUKI-15(a)
        c = _choose_cell(t, s, seat, JUNK, 0, own, 0)
        if c < 0:
            return False
        place(s, ob, c, JUNK, 0)
        if tracing:
            record(t.trace, t.trace_len, EV_PLACE, seat, cell_x(g, c), cell_y(g, c), JUNK, 0, 0, 0)
        return True
    t.seat_row[seat, S_JUNK_REPLACE] += 1  # KRUKI-15(b)
    if wants_obs(t, s, seat, nrep):
        m = 0
        for k in range(g[GS_N_TILES]):
            c = s.tiles[k]
            if B[PL_CROWS * a + c] == 0 and B[PL_SHINY * a + c] < 0:
                obs[at_a + m] = c
                m += 1
    i = decide(t, s, seat, D_REPLACE, nrep, -1, -1, own, -1, -1, -1, -1, -1, -1, -1)
    if i < 0:
        return False
    r = -1
    for k in range(g[GS_N_TILES]):
        c = s.tiles[k]
        if B[PL_CROWS * a + c] == 0 and B[PL_SHINY * a + c] < 0:
            if i == 0:
                r = c
                break
            i -= 1
    lifted = B[PL_KIND * a + r]
    put(s, ob, PL_KIND * a + r, JUNK)  # the Junk takes R's cell
    if tracing:
        record(t.trace, t.trace_len, EV_REPLACE, seat, cell_x(g, r), cell_y(g, r), lifted, 0, 0, 0)
    c = _choose_cell(t, s, seat, lifted, 0, own, 1)
    if c < 0:
        return False
    place(s, ob, c, lifted, 0)  # R spawns nothing (KRUKI-14)
    if B[PL_STONES * a + r] != 0 or B[PL_FROZEN * a + r] != 0:  # tokens on R move with R [assumed]
        put(s, ob, PL_STONES * a + c, B[PL_STONES * a + r])
        put(s, ob, PL_FROZEN * a + c, B[PL_FROZEN * a + r])
        put(s, ob, PL_STONES * a + r, 0)
        put(s, ob, PL_FROZEN * a + r, 0)
        s.tcells[g[GS_N_TCELLS]] = c
        g[GS_N_TCELLS] += 1
    if tracing:
        record(t.trace, t.trace_len, EV_PLACE, seat, cell_x(g, c), cell_y(g, c), lifted, 0, 0, 0)
    return True


@kernel_njit(inline="always")
def tile_step(t, s, seat, draft):
    """Step 1, KRUKI-12..18: the tile source (draw / own Junk / pool tile / skip), then its placement."""
    g, obs, optbuf = s.g, s.obs, s.optbuf
    tracing = t.trace.shape[0] > 0
    n = 0
    if draft:
        if s.ss[SS_JUNK, seat] == 1:
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
        if s.ss[SS_JUNK, seat] == 1:
            optbuf[n] = SRC_JUNK
            n += 1
        if g[GS_END] == g[GS_POS]:
            optbuf[n] = SRC_SKIP
            n += 1
    offer(t, s, seat, optbuf, n)
    i = decide(t, s, seat, D_SOURCE, n, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
    if i < 0:
        return False
    src = optbuf[i]
    kind = -1
    own = 0
    if src == SRC_SKIP:  # KRUKI-18
        t.seat_row[seat, S_TILE_SKIPS] += 1
    elif src == SRC_JUNK:  # KRUKI-17
        s.ss[SS_JUNK, seat] = 0
        kind = JUNK
        own = 1
    elif src == SRC_DRAW:
        kind = s.stack[g[GS_POS]]
        g[GS_POS] += 1
        s.unseen[kind] -= 1
    else:
        j = src - SRC_POOL
        kind = s.pool[j]
        for k in range(j, g[GS_POOL_LEN] - 1):
            s.pool[k] = s.pool[k + 1]
        g[GS_POOL_LEN] -= 1
    if tracing:
        record(t.trace, t.trace_len, EV_SOURCE, seat, src, kind, 0, 0, 0, 0)
    if kind == JUNK:  # own Junk, or a drawn Junk (random-junk)
        return play_junk(t, s, seat, own)
    if kind >= 0:  # KRUKI-13/14
        sp = spawn_of(kind)
        c = _choose_cell(t, s, seat, kind, sp, 0, 0)
        if c < 0:
            return False
        got = place(s, obs[O_AT_KIND], c, kind, sp)
        if tracing:
            record(t.trace, t.trace_len, EV_PLACE, seat, cell_x(g, c), cell_y(g, c), kind, got, 0, 0)
    return True


@kernel_njit(inline="always")
def _legal_shiny(B, a, c):
    """KRUKI-19: a tile that is not JUNK, without crows and without a shiny."""
    return B[PL_KIND * a + c] != JUNK and B[PL_CROWS * a + c] == 0 and B[PL_SHINY * a + c] < 0


@kernel_njit(inline="always")
def shiny_step(t, s, seat):
    """Step 2, KRUKI-19/20: the shiny on a legal tile; on EMPTY it takes the top token."""
    g, B, obs = s.g, s.board, s.obs
    tracing = t.trace.shape[0] > 0
    a = g[GS_SIDE] * g[GS_SIDE]
    nt = g[GS_N_TILES]
    n = 0
    for k in range(nt):
        if _legal_shiny(B, a, s.tiles[k]):
            n += 1
    if n == 0:  # KRUKI-19 [assumed]: no legal tile, no shiny this round
        if tracing:
            record(t.trace, t.trace_len, EV_NO_SHINY, seat, 0, 0, 0, 0, 0, 0)
        return True
    if wants_obs(t, s, seat, n):
        at_a = obs[O_AT_OPT_A]
        m = 0
        for k in range(nt):
            c = s.tiles[k]
            if _legal_shiny(B, a, c):
                obs[at_a + m] = c
                m += 1
    i = decide(t, s, seat, D_SHINY, n, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
    if i < 0:
        return False
    sh = -1
    for k in range(nt):
        c = s.tiles[k]
        if _legal_shiny(B, a, c):
            if i == 0:
                sh = c
                break
            i -= 1
    put(s, obs[O_AT_KIND], PL_SHINY * a + sh, seat)
    s.ss[SS_SHINY, seat] = sh
    gained = -1
    if B[PL_KIND * a + sh] == EMPTY and g[GS_TPOS] < g[GS_TEND]:  # KRUKI-20
        gained = s.tokens[g[GS_TPOS]]
        g[GS_TPOS] += 1
        s.hands[seat, gained] += 1
        t.seat_row[seat, S_GAINED + gained] += 1
    if tracing:
        record(t.trace, t.trace_len, EV_SHINY, seat, cell_x(g, sh), cell_y(g, sh), B[PL_KIND * a + sh], gained, 0, 0)
    return True


@kernel_njit()
def _legal_pair_exists(B, a, tiles, nt):
    """KRUKI-25: some source pair has a destination (a tile without a shiny that is not a source)."""
    free = 0
    for i in range(nt):
        if B[PL_SHINY * a + tiles[i]] < 0:
            free += 1
    for i in range(nt):
        ta = tiles[i]
        if B[PL_CROWS * a + ta] <= 0:
            continue
        for j in range(i, nt):
            tb = tiles[j]
            if B[PL_CROWS * a + tb] <= 0 or (ta == tb and B[PL_CROWS * a + ta] < 2):
                continue
            f = free - (1 if B[PL_SHINY * a + ta] < 0 else 0) - (1 if (tb != ta and B[PL_SHINY * a + tb] < 0) else 0)
            if f > 0:
                return True
    return False


@kernel_njit()
def _pairs(B, a, tiles, nt, k, obs, at_a, at_b, crow_tiles):
    """KRUKI-25 source pairs in canonical order. k >= 0: return the k-th pair; k < 0: write them all to the option
    lists (when at_a >= 0) and return the count. crow_tiles: scratch for the tiles with crows, raster order (only
    those can be sources)."""
    free = 0
    m = 0
    for i in range(nt):
        if B[PL_SHINY * a + tiles[i]] < 0:
            free += 1
        if B[PL_CROWS * a + tiles[i]] > 0:
            crow_tiles[m] = tiles[i]
            m += 1
    n = 0
    for i in range(m):
        ta = crow_tiles[i]
        for j in range(i, m):
            tb = crow_tiles[j]
            if ta == tb and B[PL_CROWS * a + ta] < 2:
                continue
            f = free - (1 if B[PL_SHINY * a + ta] < 0 else 0) - (1 if (tb != ta and B[PL_SHINY * a + tb] < 0) else 0)
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


@kernel_njit()
def _token_target(t, s, seat, kind):
    """KRUKI-23/24 target (D_TARGET): GRAVESTONES any tile, NO_FLOCKING a tile with crows; -1 to stop."""
    B, obs = s.board, s.obs
    a = s.g[GS_SIDE] * s.g[GS_SIDE]
    nt = s.g[GS_N_TILES]
    at_a = obs[O_AT_OPT_A]
    n = 0
    for k in range(nt):
        c = s.tiles[k]
        if kind == GRAVESTONES or B[PL_CROWS * a + c] > 0:
            if wants_obs(t, s, seat, 2):
                obs[at_a + n] = c
            n += 1
    i = decide(t, s, seat, D_TARGET, n, -1, -1, -1, -1, kind, -1, -1, -1, -1, -1)
    if i < 0:
        return -1
    for k in range(nt):
        c = s.tiles[k]
        if kind == GRAVESTONES or B[PL_CROWS * a + c] > 0:
            if i == 0:
                return c
            i -= 1
    return -1


@kernel_njit()
def _two_crows(t, s, seat):
    """KRUKI-25: the source pair (D_PAIR), then the destination (D_DEST); (a, b, d), a < 0 to stop."""
    B, obs = s.board, s.obs
    a = s.g[GS_SIDE] * s.g[GS_SIDE]
    nt = s.g[GS_N_TILES]
    at_a = obs[O_AT_OPT_A]
    w = wants_obs(t, s, seat, 2)
    n = _pairs(B, a, s.tiles, nt, -1, obs, at_a if w else -1, obs[O_AT_OPT_B], s.mlist)[0]
    i = decide(t, s, seat, D_PAIR, n, -1, -1, -1, -1, TWO_CROWS, -1, -1, -1, -1, -1)
    if i < 0:
        return -1, -1, -1
    ta, tb = _pairs(B, a, s.tiles, nt, i, obs, -1, -1, s.mlist)
    n = 0
    for k in range(nt):
        c = s.tiles[k]
        if B[PL_SHINY * a + c] < 0 and c != ta and c != tb:
            if wants_obs(t, s, seat, 2):
                obs[at_a + n] = c
            n += 1
    i = decide(t, s, seat, D_DEST, n, -1, -1, -1, -1, TWO_CROWS, ta, tb, -1, -1, -1)
    if i < 0:
        return -1, -1, -1
    for k in range(nt):
        c = s.tiles[k]
        if B[PL_SHINY * a + c] < 0 and c != ta and c != tb:
            if i == 0:
                return ta, tb, c
            i -= 1
    return ta, tb, -1


@kernel_njit(inline="always")
def token_step(t, s, seat):
    """Step 3, KRUKI-21..25: pass, or play one held playable token that has a legal target."""
    g, B, obs, optbuf = s.g, s.board, s.obs, s.optbuf
    tracing = t.trace.shape[0] > 0
    a = g[GS_SIDE] * g[GS_SIDE]
    ob = obs[O_AT_KIND]
    nt = g[GS_N_TILES]
    n = 1
    optbuf[0] = TOKEN_PASS
    for k in range(PLAYABLE_TOKEN_KINDS):
        if s.hands[seat, k] <= 0:
            continue
        if k == NO_FLOCKING:
            ok = False
            for j in range(nt):
                if B[PL_CROWS * a + s.tiles[j]] > 0:
                    ok = True
                    break
        elif k == TWO_CROWS:
            ok = _legal_pair_exists(B, a, s.tiles, nt)
        else:
            ok = nt > 0 or k == NO_GRAVEYARDS
        if ok:
            optbuf[n] = k
            n += 1
    offer(t, s, seat, optbuf, n)
    i = decide(t, s, seat, D_TOKEN, n, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
    if i < 0:
        return False
    kind = optbuf[i]
    if kind == TOKEN_PASS:
        return True
    ta = tb = td = -1
    if kind == GRAVESTONES or kind == NO_FLOCKING:
        ta = _token_target(t, s, seat, kind)
        if ta < 0:
            return False
        p = PL_STONES if kind == GRAVESTONES else PL_FROZEN  # KRUKI-23 / KRUKI-24
        put(s, ob, p * a + ta, B[p * a + ta] + 1)
        s.tcells[g[GS_N_TCELLS]] = ta
        g[GS_N_TCELLS] += 1
    elif kind == TWO_CROWS:  # KRUKI-25
        ta, tb, td = _two_crows(t, s, seat)
        if ta < 0:
            return False
        put(s, ob, PL_CROWS * a + ta, B[PL_CROWS * a + ta] - 1)
        put(s, ob, PL_CROWS * a + tb, B[PL_CROWS * a + tb] - 1)
        put(s, ob, PL_CROWS * a + td, B[PL_CROWS * a + td] + 2)
    else:  # KRUKI-22
        g[GS_NG] = 1
    s.hands[seat, kind] -= 1
    t.seat_row[seat, S_PLAYED + kind] += 1
    if tracing:
        if kind == TWO_CROWS:
            record(t.trace, t.trace_len, EV_TWO_CROWS, seat, cell_x(g, ta), cell_y(g, ta), cell_x(g, tb),
                   cell_y(g, tb), cell_x(g, td), cell_y(g, td))
        elif kind == NO_GRAVEYARDS:
            record(t.trace, t.trace_len, EV_TOKEN, seat, kind, 0, 0, 0, 0, 0)
        else:
            record(t.trace, t.trace_len, EV_TOKEN, seat, kind, 1, cell_x(g, ta), cell_y(g, ta), 0, 0)
    return True


@kernel_njit(inline="always")
def take_turn(t, s, seat, draft):
    """KRUKI-11: one seat's turn, steps 1..3; False when the game stops."""
    if not tile_step(t, s, seat, draft):
        return False
    if not shiny_step(t, s, seat):
        return False
    if not token_step(t, s, seat):
        return False
    s.ss[SS_MOVED, seat] = 1
    return True
