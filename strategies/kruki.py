"""Crows (`kruki`) heuristic players (docs/rules/kruki.md §9), the observation they decide from, and the flight
primitives (KRUKI-26, 28, 30) that the kernel and every strategy share.

The plug-in contract
--------------------
A strategy is called as `choose(obs, params, rng) -> action` (docs/plugins.md) only at a decision with two or more
options, where
- `obs` is the int32 observation below: the public state plus the deciding seat's own token kinds (KRUKI-37),
  nothing hidden. It is read-only: the kernel keeps its board planes up to date between calls;
- `params` is the seat's float64 parameter row; `rng` the game's stream (`sim.rng.below`), for strategies that
  randomise;
- the action is an index into the decision's option list `obs[obs[O_AT_OPT_A] + i]` (i < obs[O_N_OPTIONS]); for a
  TWO_CROWS source pair the second cell is `obs[obs[O_AT_OPT_B] + i]`. An index out of range stops the game with
  error code 1.

Cells are flat indices into the square board of side `obs[O_SIDE]` = 2*H+1 (H = `obs[O_HALF]`):
`cell = (y + H) * side + (x + H)`, so ascending cells are raster order (y, then x). The neighbours of a cell are
cell - side (N), + 1 (E), + side (S), - 1 (W); the board never comes near the array's edge, so a walk along a row or
a column always meets a gap first.

Observation layout, int32[obs_size(...)] (fixed header, then sections whose start is stored in the header):
  0 decision (D_*)   1 seat   2 players   3 round (0-based)   4 first_player   5 stack_size   6 token_stack_size
  7 supply   8 no_graveyards (NO_GRAVEYARDS played this round)   9 half   10 side   11 n_tiles   12 n_frontier
  13 n_options   14 pool_len
  context (-1 where it does not apply):
  15 ctx_tile (kind in hand, D_CELL)   16 ctx_spawn (crows its kind spawns, before the supply limit)   17 ctx_own
  (1 = own Junk)   18 ctx_replaced (1 = re-placing a lifted tile)   19 ctx_token (D_TARGET / D_PAIR / D_DEST)
  20 ctx_pair_a   21 ctx_pair_b (D_DEST)   22 ctx_murder (cell, D_SPIRAL)   23 ctx_crows   24 ctx_chooser
  section starts: 25 tiles (n_tiles cells, raster)   26 frontier (legal cells KRUKI-13, raster)   27 kind plane
  (GAP = -1, else rules kind id)   28 crows plane   29 shiny plane (owner seat, -1)   30 stones plane (GRAVESTONES
  on the tile this round)   31 frozen plane (NO_FLOCKING on the tile this round)   32 option list A
  33 option list B (second cell of a TWO_CROWS pair)
  per seat (4 slots each): 34 moved   38 shiny_of (cell, -1)   42 scores   46 tokens_held (count)   50 junk_unused
  54 pool (4, kinds, face up, in the order they entered)   58 unseen (7: stack + removed tiles per kind)
  65 own_tokens (5: held tokens of the deciding seat per kind)   70 rules (the int64 rule vector, rules.PARAMS order)
Each plane is side*side int32 long.

Decisions and their options, in canonical order (the reference's table, sim/games/kruki/reference.py):
  D_SOURCE 0   SRC_DRAW 0 · SRC_JUNK 1 · SRC_POOL+i = 3+i (tile-draft) · SRC_SKIP 2 (the source is empty)
  D_JUNK_MODE 1  0 normal · 1 replace
  D_REPLACE 2  cells of tiles without crows and without a shiny
  D_CELL 3     legal cells (the frontier) for the tile in hand
  D_SHINY 4    legal shiny tiles (not JUNK, no crows, no shiny)
  D_TOKEN 5    -1 pass · each held playable kind with a legal target, kind-id order
  D_TARGET 6   GRAVESTONES: every tile; NO_FLOCKING: every tile with crows
  D_PAIR 7     TWO_CROWS source pairs (a, b), a <= b (a == b needs 2 crows), only pairs with a destination
  D_DEST 8     tiles without a shiny that are not a source
  D_SPIRAL 9   0..3 = N, E, S, W
Cell and tile lists are in raster order.
"""
from sim.jit import kernel_njit
from sim.rng import below
from sim.games.kruki.rules import (EMPTY, GAP, GRAVEYARD, JUNK, PARAMS, TRINKETS)

# ---- decisions and option codes (as reference.py) ----------------------------------------------------------------
D_SOURCE, D_JUNK_MODE, D_REPLACE, D_CELL, D_SHINY, D_TOKEN, D_TARGET, D_PAIR, D_DEST, D_SPIRAL = range(10)
SRC_DRAW, SRC_JUNK, SRC_SKIP, SRC_POOL = 0, 1, 2, 3
TOKEN_PASS = -1
NO_GRAVEYARDS, GRAVESTONES, NO_FLOCKING, TWO_CROWS, THREE_POINTS = range(5)
RANDOM, GREEDY, BLOCKER, WEIGHTED = 0, 1, 2, 3
PROBE = 9  # owner code of a hypothetical shiny (B(β))
BIG = 1 << 30

# ---- observation layout ------------------------------------------------------------------------------------------
(O_DECISION, O_SEAT, O_PLAYERS, O_ROUND, O_FIRST_PLAYER, O_STACK_SIZE, O_TOKEN_STACK, O_SUPPLY, O_NO_GRAVEYARDS,
 O_HALF, O_SIDE, O_N_TILES, O_N_FRONTIER, O_N_OPTIONS, O_POOL_LEN) = range(15)
(O_CTX_TILE, O_CTX_SPAWN, O_CTX_OWN, O_CTX_REPLACED, O_CTX_TOKEN, O_CTX_PAIR_A, O_CTX_PAIR_B, O_CTX_MURDER,
 O_CTX_CROWS, O_CTX_CHOOSER) = range(15, 25)
(O_AT_TILES, O_AT_FRONTIER, O_AT_KIND, O_AT_CROWS, O_AT_SHINY, O_AT_STONES, O_AT_FROZEN, O_AT_OPT_A,
 O_AT_OPT_B) = range(25, 34)
O_MOVED, O_SHINY_OF, O_SCORES, O_TOKENS_HELD, O_JUNK_UNUSED = 34, 38, 42, 46, 50
O_POOL, O_UNSEEN, O_OWN_TOKENS, O_RULES = 54, 58, 65, 70
OBS_HEADER = O_RULES + len(PARAMS)
# Board planes, in this order from obs[O_AT_KIND], each side*side long (the kernel's board uses the same order).
PL_KIND, PL_CROWS, PL_SHINY, PL_STONES, PL_FROZEN = range(5)

_RI = {p.name: i for i, p in enumerate(PARAMS)}
R_START_LAYOUT, R_TILE_DRAFT, R_RANDOM_JUNK = _RI["start_layout"], _RI["tile_draft"], _RI["random_junk"]
R_MURDER_THRESHOLD, R_MURDER_REMOVED, R_SCORE_CAP = _RI["murder_threshold"], _RI["murder_removed"], _RI["score_cap"]
R_TOKEN_KEEP, R_THREE_POINTS = _RI["token_keep_points"], _RI["three_points_value"]
R_TILES_EMPTY, R_TILES_JUNK, R_CROWS = _RI["tiles_empty"], _RI["tiles_junk"], _RI["crows"]
R_REMOVED_2P, R_RJ_REMOVED_2P = _RI["removed_2p"], _RI["rj_removed_2p"]

# Strategy parameter columns (StrategyInfo.params order in rules.py).
P_JUNK_MARGIN = 0  # greedy
P_LAMBDA, P_SLACK, P_B_JUNK_MARGIN = 0, 1, 2  # blocker
P_W1, P_W2, P_W3, P_W4, P_W5, P_W_SLACK = 0, 1, 2, 3, 4, 5  # weighted


@kernel_njit(_nrt=False)
def max_options(n_total):
    """The longest option list of any decision with n_total tiles in the game (TWO_CROWS pairs dominate)."""
    return max(4 * n_total + 8, n_total * (n_total + 1) // 2 + 1, 8)


@kernel_njit(_nrt=False)
def obs_size(n_total, side):
    return OBS_HEADER + (n_total + 1) + (4 * n_total + 8) + 5 * side * side + 2 * max_options(n_total)


@kernel_njit(_nrt=False)
def obs_offsets(n_total, side):
    """Section starts: tiles, frontier, planes (kind first), option list A, option list B."""
    at_tiles = OBS_HEADER
    at_front = at_tiles + n_total + 1
    at_kind = at_front + 4 * n_total + 8
    at_opt_a = at_kind + 5 * side * side
    return at_tiles, at_front, at_kind, at_opt_a, at_opt_a + max_options(n_total)


# ======================================================================================================================
# Flight and scoring primitives (KRUKI-26, 28), on board planes K (kind), Cr (crows), Sh (shiny owner), Fr (frozen)
# ======================================================================================================================
@kernel_njit(inline="always", _nrt=False)
def div_small(n, m):
    """n // m for 1 <= m <= 4 without a division instruction in the common cases."""
    if m == 1:
        return n
    if m == 2:
        return n >> 1
    if m == 4:
        return n >> 2
    return n // 3


@kernel_njit(inline="always", _nrt=False)
def _ray(K, Sh, t, d):
    """Walk from tile t in step d until a gap: (distance of the nearest shiny or BIG, its cell, 1 if it is on
    TRINKETS, distance of the first JUNK before it or BIG)."""
    c = t + d
    k = 1
    jd = BIG
    while K[c] != GAP:
        if Sh[c] >= 0:
            return k, c, 1 if K[c] == TRINKETS else 0, jd
        if jd == BIG and K[c] == JUNK:
            jd = k
        c += d
        k += 1
    return BIG, -1, 0, jd


@kernel_njit(_nrt=False)
def flight_plan(K, Sh, side, t):
    """KRUKI-26 for the group on tile t, independent of its size: (m, d0, d1, d2, d3) — the m destinations (after
    the Trinkets tie-break and the Junk stop), N/E/S/W order, -1 padded; the group sends n // m crows to each."""
    e0, c0, r0, j0 = _ray(K, Sh, t, -side)
    e1, c1, r1, j1 = _ray(K, Sh, t, 1)
    e2, c2, r2, j2 = _ray(K, Sh, t, side)
    e3, c3, r3, j3 = _ray(K, Sh, t, -1)
    dmin = min(min(e0, e1), min(e2, e3))
    if dmin == BIG:
        return 0, -1, -1, -1, -1
    in0, in1, in2, in3 = e0 == dmin, e1 == dmin, e2 == dmin, e3 == dmin
    cnt = int(in0) + int(in1) + int(in2) + int(in3)
    if cnt > 1 and ((in0 and r0) or (in1 and r1) or (in2 and r2) or (in3 and r3)):  # Trinkets break ties
        in0, in1, in2, in3 = in0 and r0 == 1, in1 and r1 == 1, in2 and r2 == 1, in3 and r3 == 1
        cnt = int(in0) + int(in1) + int(in2) + int(in3)
    out0 = out1 = out2 = out3 = -1
    m = 0
    if in0:
        out0 = c0 if j0 >= dmin else t - j0 * side  # stop on the first Junk strictly between
        m += 1
    if in1:
        d = c1 if j1 >= dmin else t + j1
        if m == 0:
            out0 = d
        else:
            out1 = d
        m += 1
    if in2:
        d = c2 if j2 >= dmin else t + j2 * side
        if m == 0:
            out0 = d
        elif m == 1:
            out1 = d
        else:
            out2 = d
        m += 1
    if in3:
        d = c3 if j3 >= dmin else t - j3
        if m == 0:
            out0 = d
        elif m == 1:
            out1 = d
        elif m == 2:
            out2 = d
        else:
            out3 = d
        m += 1
    return m, out0, out1, out2, out3


@kernel_njit(_nrt=False)
def flight_to(K, Cr, Sh, Fr, side, t, s):
    """Crows the group on tile t sends to cell s in a flight on the board as it stands (KRUKI-26)."""
    n = Cr[t]
    if n <= 0 or Fr[t] > 0 or Sh[t] >= 0:  # KRUKI-24 frozen / a shiny tile: stays
        return 0
    m, d0, d1, d2, d3 = flight_plan(K, Sh, side, t)
    if m == 0 or not (d0 == s or d1 == s or d2 == s or d3 == s):
        return 0
    return div_small(n, m)


@kernel_njit(_nrt=False)
def arrivals_at(K, Cr, Sh, Fr, side, s):
    """Crows on tile s after a flight on the board as it stands: only crow tiles that see s along a row or column can
    reach it, so only their groups are resolved (the reference's `arrivals_at`)."""
    total = Cr[s]
    for i in range(4):
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        c = s + d
        while K[c] != GAP:
            if Cr[c] > 0:
                total += flight_to(K, Cr, Sh, Fr, side, c, s)
            c += d
    return total


@kernel_njit(inline="always", _nrt=False)
def score_points(kind, stones, no_graveyards, cap, n):
    """KRUKI-28 (with KRUKI-22, 23): points of n crows on a shiny tile of `kind` with `stones` GRAVESTONES."""
    raw = n
    if (kind == GRAVEYARD or stones > 0) and no_graveyards == 0:
        raw = 2 * n
    if cap > 0 and raw > cap:
        return cap
    return raw


@kernel_njit(inline="always", _nrt=False)
def _bump(gain, c, v, track, mark, tl):
    """gain[c] += v; when tracking, c is appended once to the touched list tl[1:] (count tl[0], mark[c] = 1)."""
    gain[c] += v
    if track and mark[c] == 0:
        mark[c] = 1
        tl[0] += 1
        tl[tl[0]] = c


@kernel_njit(inline="always", _nrt=False)
def _share(K, c, k, m_other, eqcnt, eqtr, n):
    """Crows a group of n sends to a new shiny on c at distance k, when its nearest shiny in the other directions is
    at m_other (eqcnt of them there, eqtr of those on TRINKETS): all of them if c is nearer, a split on a tie
    (TRINKETS first), none beyond (KRUKI-26)."""
    if k < m_other:
        return n
    tr = eqtr + (1 if K[c] == TRINKETS else 0)
    if tr > 0:
        return div_small(n, tr) if K[c] == TRINKETS else 0
    return div_small(n, 1 + eqcnt)


@kernel_njit(inline="always", _nrt=False)
def _contrib_dir(K, gain, t, d, limit, m_other, eqcnt, eqtr, n, sign, track, mark, tl):
    """Add to gain[s] the crows the group on t (n crows) would send to a new shiny at s, for every s on its ray d."""
    c = t + d
    k = 1
    while k < limit and k <= m_other and K[c] != GAP:
        q = _share(K, c, k, m_other, eqcnt, eqtr, n)
        if q > 0:
            _bump(gain, c, sign * q, track, mark, tl)
        c += d
        k += 1


@kernel_njit(_nrt=False)
def others_cached(work, w_rays, idx, di):
    """For the group with ray-cache index idx (`gain_all_cached`) and its direction di (0..3 = N, E, S, W): (nearest
    shiny distance over the other three directions or BIG, how many of them are at that distance, how many of those
    are on TRINKETS)."""
    m = BIG
    cnt = 0
    tr = 0
    for i in range(4):
        if i == di:
            continue
        e = work[w_rays + 8 * idx + 2 * i]
        r = work[w_rays + 8 * idx + 2 * i + 1]
        if e < m:
            m, cnt, tr = e, 1, r
        elif e == m and e < BIG:
            cnt += 1
            tr += r
    return m, cnt, tr


@kernel_njit(_nrt=False)
def extend_contrib(K, gain, x0, d, k0, m_other, eqcnt, eqtr, n, sign, track, mark, tl):
    """The part of a group's contribution along its ray d from cell x0 (at distance k0) on, up to the first JUNK or
    gap, for a ray with no shiny (used when a new tile extends the ray)."""
    c = x0
    k = k0
    while k <= m_other and K[c] != GAP and K[c] != JUNK:
        q = _share(K, c, k, m_other, eqcnt, eqtr, n)
        if q > 0:
            _bump(gain, c, sign * q, track, mark, tl)
        c += d
        k += 1


@kernel_njit(_nrt=False)
def add_contrib(K, Sh, side, t, n, sign, gain, track, mark, tl):
    """For every tile s, gain[s] += sign * (crows the group of n crows on tile t sends to s if a new shiny were put
    on s): the reverse of `arrivals_at`, for all candidate shinies at once. Written cells are tracked as in
    `_bump`."""
    e0, c0, r0, j0 = _ray(K, Sh, t, -side)
    e1, c1, r1, j1 = _ray(K, Sh, t, 1)
    e2, c2, r2, j2 = _ray(K, Sh, t, side)
    e3, c3, r3, j3 = _ray(K, Sh, t, -1)
    _contrib_rays(K, side, t, n, sign, gain, track, mark, tl, e0, r0, j0, e1, r1, j1, e2, r2, j2, e3, r3, j3)


@kernel_njit(inline="always", _nrt=False)
def _contrib_rays(K, side, t, n, sign, gain, track, mark, tl, e0, r0, j0, e1, r1, j1, e2, r2, j2, e3, r3, j3):
    """`add_contrib` given the group's four rays (nearest shiny distance, TRINKETS flag, first JUNK distance)."""
    for i in range(4):
        if i == 0:
            d, em, jm, a, ra, b, rb, cc, rc = -side, e0, j0, e1, r1, e2, r2, e3, r3
        elif i == 1:
            d, em, jm, a, ra, b, rb, cc, rc = 1, e1, j1, e0, r0, e2, r2, e3, r3
        elif i == 2:
            d, em, jm, a, ra, b, rb, cc, rc = side, e2, j2, e0, r0, e1, r1, e3, r3
        else:
            d, em, jm, a, ra, b, rb, cc, rc = -1, e3, j3, e0, r0, e1, r1, e2, r2
        m_other = min(a, min(b, cc))
        eqcnt = eqtr = 0
        if m_other < BIG:
            if a == m_other:
                eqcnt += 1
                eqtr += ra
            if b == m_other:
                eqcnt += 1
                eqtr += rb
            if cc == m_other:
                eqcnt += 1
                eqtr += rc
        _contrib_dir(K, gain, t, d, min(em, jm), m_other, eqcnt, eqtr, n, sign, track, mark, tl)


@kernel_njit(_nrt=False)
def gain_all(K, Cr, Sh, Fr, side, tiles, n_tiles, extra, gain):
    """gain[s] = crows a new shiny on tile s would receive, for every tile s of tiles[:n_tiles] and `extra` (a
    hypothetical tile not yet in the list, or -1); zeroed first, written at tiles only."""
    for i in range(n_tiles):
        gain[tiles[i]] = 0
    if extra >= 0:
        gain[extra] = 0
    for i in range(n_tiles + (1 if extra >= 0 else 0)):
        t = tiles[i] if i < n_tiles else extra
        if Cr[t] > 0 and Fr[t] == 0 and Sh[t] < 0:
            add_contrib(K, Sh, side, t, Cr[t], 1, gain, False, gain, gain)


@kernel_njit(_nrt=False)
def gain_all_cached(K, Cr, Sh, Fr, side, tiles, n_tiles, gain, work, w_rays, gid):
    """`gain_all` on the board as it stands that also keeps every group's four rays (nearest shiny distance and
    TRINKETS flag per direction, 8 ints at w_rays + 8 * index) and marks its tile gid[t] = -(1 + index). A tile put
    on a gap in one direction of a group leaves the group's other three rays as they are (`others_cached`)."""
    for i in range(n_tiles):
        gain[tiles[i]] = 0
    m = 0
    for i in range(n_tiles):
        t = tiles[i]
        if Cr[t] > 0 and Fr[t] == 0 and Sh[t] < 0:
            e0, c0, r0, j0 = _ray(K, Sh, t, -side)
            e1, c1, r1, j1 = _ray(K, Sh, t, 1)
            e2, c2, r2, j2 = _ray(K, Sh, t, side)
            e3, c3, r3, j3 = _ray(K, Sh, t, -1)
            at = w_rays + 8 * m
            work[at], work[at + 1], work[at + 2], work[at + 3] = e0, r0, e1, r1
            work[at + 4], work[at + 5], work[at + 6], work[at + 7] = e2, r2, e3, r3
            gid[t] = -(1 + m)
            m += 1
            _contrib_rays(K, side, t, Cr[t], 1, gain, False, gain, gain, e0, r0, j0, e1, r1, j1, e2, r2, j2, e3, r3,
                          j3)


@kernel_njit(inline="always", _nrt=False)
def spiral_step(x, y, d, run, left, second):
    """One step of the clockwise square spiral from N (KRUKI-31): runs 1, 1, 2, 2, 3, 3, ..."""
    if d == 0:
        y -= 1
    elif d == 1:
        x += 1
    elif d == 2:
        y += 1
    else:
        x -= 1
    left -= 1
    if left == 0:
        d = (d + 1) & 3
        if second:
            run += 1
        second = not second
        left = run
    return x, y, d, run, left, second


@kernel_njit(_nrt=False)
def scatter(K, Cr, half, side, tiles, n_tiles, m, start, removed_max, log):
    """KRUKI-30/31: resolve the murder on m with spiral start 0..3 (N, E, S, W). Cells that received a crow are
    appended to log[1:] (log[0] = count). Returns (crows removed, crows placed)."""
    r = min(removed_max, Cr[m] - 1)
    Cr[m] -= r
    my = m // side
    mx = m - my * side
    rad = 0
    for i in range(n_tiles):
        t = tiles[i]
        ty = t // side
        tx = t - ty * side
        rad = max(rad, max(abs(tx - mx), abs(ty - my)))
    total = (2 * rad + 1) * (2 * rad + 1) - 1
    mx -= half
    my -= half
    placed_total = 0
    while Cr[m] > 1:
        placed = 0
        x = y = 0
        d = run = left = 0
        run = left = 1
        second = False
        for _ in range(total):
            x, y, d, run, left, second = spiral_step(x, y, d, run, left, second)
            if start == 0:
                ox, oy = x, y
            elif start == 1:
                ox, oy = -y, x
            elif start == 2:
                ox, oy = -x, -y
            else:
                ox, oy = y, -x
            cx = mx + ox
            cy = my + oy
            if -half <= cx <= half and -half <= cy <= half:
                c = (cy + half) * side + cx + half
                if K[c] != GAP:  # gaps are skipped and cost nothing
                    Cr[c] += 1
                    Cr[m] -= 1
                    placed += 1
                    log[0] += 1
                    log[log[0]] = c
                    if Cr[m] == 1:
                        break
        placed_total += placed
        if placed == 0:
            break
    return r, placed_total


# ======================================================================================================================
# Heuristics (KRUKI-39..41): the reference's `_Eval` / `_heuristic`, computed from the observation alone
# ======================================================================================================================
# Scratch: `work` int32 (work_len) = six side*side planes — gain0 (new-shiny arrivals on the board as it stands) |
# delta (their change after a hypothetical tile) | gainB (B(β) inside Opp) | flag (TWO_CROWS shortcut) | mark (cells
# in the touched list) | gid (1 + stage-1 group of a legal shiny, -(1 + ray-cache index) of a crow group, else 0) —
# then per-cell tie counts, per-cell preferences, affected groups, legal shinies, legal shinies after a cell, scatter
# log, save area, extended groups, the touched list (count, then cells), per group: size, touched members,
# preference, and the sorted shinies, then the ray cache (8 per crow group);
# `fwork` float64 (fwork_len) = per-cell best J, the values of the 7 tile kinds (tile-draft pool), per-shiny and
# per-group stage-1 values.
@kernel_njit(_nrt=False)
def _layout(side, n, crows):
    """Offsets into work and fwork for n tiles in the game (see above); the last two are their lengths."""
    a = side * side
    mc = 4 * n + 10
    w_cnt = 6 * a
    w_pref = w_cnt + mc
    w_aff = w_pref + mc
    w_ls = w_aff + mc
    w_ls2 = w_ls + n + 2
    w_log = w_ls2 + n + 2
    w_save = w_log + crows + 16
    w_ext = w_save + 3 * (n + 2)
    w_tl = w_ext + 3 * (n + 2)
    w_grp = w_tl + n + 4  # group sizes | touched members | preferences | shinies by value, n + 2 each
    w_rays = w_grp + 4 * (n + 2)
    f_kind = mc
    f_grp = f_kind + 8  # per-shiny values | per-group values, n + 2 each
    return (a, mc, w_cnt, w_pref, w_aff, w_ls, w_ls2, w_log, w_save, w_ext, w_tl, w_grp, w_rays, f_kind, f_grp,
            w_rays + 8 * (n + 2), f_grp + 2 * (n + 2))


@kernel_njit(_nrt=False)
def _n_total(obs):
    """Tiles in the game (the rule vector's tile counts)."""
    n = 0
    for k in range(7):
        n += obs[O_RULES + R_TILES_EMPTY + k]
    return n


@kernel_njit(_nrt=False)
def _work_at(obs):
    return _layout(obs[O_SIDE], _n_total(obs), obs[O_RULES + R_CROWS])


@kernel_njit(_nrt=False)
def work_len(n_total, side, crows):
    return _layout(side, n_total, crows)[-2]


@kernel_njit(_nrt=False)
def fwork_len(n_total, side, crows):
    return _layout(side, n_total, crows)[-1]


@kernel_njit(_nrt=False)
def _planes(obs):
    side = obs[O_SIDE]
    a = side * side
    k0 = obs[O_AT_KIND]
    t0 = obs[O_AT_TILES]
    return (side, obs[k0:k0 + a], obs[k0 + a:k0 + 2 * a], obs[k0 + 2 * a:k0 + 3 * a], obs[k0 + 3 * a:k0 + 4 * a],
            obs[k0 + 4 * a:k0 + 5 * a], obs[t0:t0 + obs[O_N_TILES]], obs[O_N_TILES])


@kernel_njit(_nrt=False)
def _legal_shinies(K, Cr, Sh, tiles, n_tiles, out):
    """KRUKI-19 legal shiny tiles, raster order, into out; returns the count."""
    n = 0
    for i in range(n_tiles):
        t = tiles[i]
        if K[t] != JUNK and Cr[t] == 0 and Sh[t] < 0:
            out[n] = t
            n += 1
    return n


@kernel_njit(_nrt=False)
def _best_new_shiny(K, Cr, Sh, St, Fr, side, tiles, n_tiles, extra, gain, ng, cap):
    """B(β): the best points of a new shiny over the legal shiny tiles of β (tiles + extra), 0 if none."""
    gain_all(K, Cr, Sh, Fr, side, tiles, n_tiles, extra, gain)
    best = 0
    for i in range(n_tiles + (1 if extra >= 0 else 0)):
        t = tiles[i] if i < n_tiles else extra
        if K[t] != JUNK and Cr[t] == 0 and Sh[t] < 0:
            p = score_points(K[t], St[t], ng, cap, gain[t])
            if p > best:
                best = p
    return best


@kernel_njit(_nrt=False)
def _opp(obs, K, Cr, Sh, St, Fr, side, tiles, n_tiles, extra, gain, ng, cap):
    """Opp(β): the mean over the opponents q of W_q = V_q (q has a shiny), B(β) (q has not moved yet) or 0."""
    me = obs[O_SEAT]
    players = obs[O_PLAYERS]
    total = 0
    bval = -1
    for q in range(players):
        if q == me:
            continue
        s = obs[O_SHINY_OF + q]
        if s >= 0:
            total += score_points(K[s], St[s], ng, cap, arrivals_at(K, Cr, Sh, Fr, side, s))
        elif obs[O_MOVED + q] == 0:
            if bval < 0:
                bval = _best_new_shiny(K, Cr, Sh, St, Fr, side, tiles, n_tiles, extra, gain, ng, cap)
            total += bval
    return total / (players - 1)


@kernel_njit(inline="always", _nrt=False)
def _stage1(mode, params, kind_s, stones_s, ng, cap, n, s, own, f3_ok, tokens_left):
    """(v1, pref) of an option whose own shiny (on s, none when s < 0) receives n crows: greedy/blocker V_me and the
    EMPTY preference; weighted w1 f1 + w2 f2 + w3 f3 + w5 f5 (this order, as the reference)."""
    pts = 0
    if s >= 0:
        pts = score_points(kind_s, stones_s, ng, cap, n)
    else:
        n = 0
    pref = 1 if (s >= 0 and f3_ok and kind_s == EMPTY and tokens_left) else 0
    if mode == WEIGHTED:
        v = params[P_W1] * n + params[P_W2] * (pts - n) + params[P_W3] * pref + params[P_W5] * own
        return v, 0
    return float(pts), pref


@kernel_njit(_nrt=False)
def _final(mode, params, v1, obs, K, Cr, Sh, St, Fr, side, tiles, n_tiles, extra, gain, ng, cap):
    """J: greedy v1; blocker v1 - lambda * Opp; weighted v1 + w4 * Opp."""
    if mode == GREEDY:
        return v1
    o = _opp(obs, K, Cr, Sh, St, Fr, side, tiles, n_tiles, extra, gain, ng, cap)
    if mode == BLOCKER:
        return v1 - params[P_LAMBDA] * o
    return v1 + params[P_W4] * o


@kernel_njit(_nrt=False)
def _apply_cell(work, K, Cr, Sh, Fr, side, w_aff, w_ext, w_tl, w_rays, c, tile, spawn):
    """Put `tile` with `spawn` crows on the gap c of the planes and write into the delta plane how every new-shiny
    arrival count changes (rules §9, incrementally): only the groups that see the gap c (no shiny between) and c
    itself change, and when no shiny lies beyond c their ray merely grows, so only the grown part is added. The
    written cells go to the touched list; `_undo_cell` restores the planes."""
    a = side * side
    delta = work[a:2 * a]
    mark = work[4 * a:5 * a]
    tl = work[w_tl:]
    tl[0] = 0
    n_seen = 0
    shiny_arm = 0  # bit i: a shiny ends arm i of c (the walk from c in direction i) before its gap
    for i in range(4):  # each arm once: its crow groups before any shiny (groups behind a shiny never see c)
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        x = c + d
        k = 1
        junk_between = 0
        while K[x] != GAP:
            if Sh[x] >= 0:
                shiny_arm |= 1 << i
                break
            if Cr[x] > 0 and Fr[x] == 0:
                work[w_aff + 3 * n_seen] = x
                work[w_aff + 3 * n_seen + 1] = k
                work[w_aff + 3 * n_seen + 2] = i + junk_between
                n_seen += 1
            if K[x] == JUNK:
                junk_between = 4
            x += d
            k += 1
    n_full = 0
    n_ext = 0
    for j in range(n_seen):  # a group on arm i looks toward c in direction i + 2, past c along arm i + 2
        x = work[w_aff + 3 * j]
        code = work[w_aff + 3 * j + 2]
        i = code & 3
        if (shiny_arm >> ((i + 2) & 3)) & 1:  # a shiny beyond c: its plan changes, redo it in full
            work[w_aff + 3 * n_full] = x  # n_full <= j: this entry has been read
            n_full += 1
            add_contrib(K, Sh, side, x, Cr[x], -1, delta, True, mark, tl)
        elif code < 4:  # no shiny beyond and no Junk between: its ray toward c merely grows
            work[w_ext + 3 * n_ext] = x
            work[w_ext + 1 + 3 * n_ext] = work[w_aff + 3 * j + 1]
            work[w_ext + 2 + 3 * n_ext] = i
            n_ext += 1
    K[c] = tile
    Cr[c] = spawn
    for i in range(n_full):
        x = work[w_aff + 3 * i]
        add_contrib(K, Sh, side, x, Cr[x], 1, delta, True, mark, tl)
    for j in range(n_ext):
        x = work[w_ext + 3 * j]
        k = work[w_ext + 1 + 3 * j]
        i = work[w_ext + 2 + 3 * j]
        di = (i + 2) & 3  # the group's direction toward c
        d = -side if di == 0 else (1 if di == 1 else (side if di == 2 else -1))
        m_other, eqcnt, eqtr = others_cached(work, w_rays, -work[5 * a + x] - 1, di)
        extend_contrib(K, delta, c, d, k, m_other, eqcnt, eqtr, Cr[x], 1, True, mark, tl)
    if spawn > 0:
        add_contrib(K, Sh, side, c, spawn, 1, delta, True, mark, tl)


@kernel_njit(_nrt=False)
def _undo_cell(work, K, Cr, side, w_tl, c):
    """Lift the hypothetical tile on c again and clear the delta and mark planes at the touched cells."""
    a = side * side
    for i in range(1, work[w_tl] + 1):
        t = work[w_tl + i]
        work[a + t] = 0
        work[4 * a + t] = 0
    work[w_tl] = 0
    K[c] = GAP
    Cr[c] = 0


@kernel_njit(inline="always", _nrt=False)
def _merge(v, p, count, max_v, best_v, best_p, ties):
    """Fold `count` options of stage-1 value v and preference p into (max v, best (v, p), ties at the best)."""
    if v > max_v:
        max_v = v
    if v > best_v or (v == best_v and p > best_p):
        return max_v, v, p, count
    if v == best_v and p == best_p:
        return max_v, best_v, best_p, ties + count
    return max_v, best_v, best_p, ties


@kernel_njit(_nrt=False)
def _scan_c(obs, params, mode, work, K, Cr, Sh, St, Fr, side, tiles, n_tiles, w_aff, w_ls, w_ls2, w_ext, w_tl, w_rays,
            c, tile, spawn, own, nls, stage, floor, key_j, key_p, target):
    """Every option (c, s) of one cell c (c < 0: the shiny alone), s over the legal shiny tiles after c (raster; the
    single option s = -1 if there is none), one by one.
    stage 1: J = v1; stage 2: only options with v1 >= floor, J = the full objective.
    Returns (max v1, best J, best pref, ties at the best, s of the target-th option keyed (key_j, key_p) or -2)."""
    a = side * side
    gain0 = work[0:a]
    delta = work[a:2 * a]
    gainb = work[2 * a:3 * a]
    me = obs[O_SEAT]
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    tokens_left = obs[O_TOKEN_STACK] > 0
    ls = w_ls
    ns = nls
    if c >= 0:
        _apply_cell(work, K, Cr, Sh, Fr, side, w_aff, w_ext, w_tl, w_rays, c, tile, spawn)
        if tile != JUNK and spawn == 0:  # the new tile is itself a legal shiny tile: merge it in raster order
            ls = w_ls2
            j = 0
            for i in range(nls):
                t = work[w_ls + i]
                if j == i and t > c:
                    work[w_ls2 + j] = c
                    j += 1
                work[w_ls2 + j] = t
                j += 1
            if j == nls:
                work[w_ls2 + j] = c
                j += 1
            ns = j
    max_v1 = -1e300
    best_j = -1e300
    best_p = -1
    ties = 0
    found = -2
    n_opts = ns if ns > 0 else 1
    for k in range(n_opts):
        s = work[ls + k] if ns > 0 else -1
        n = 0
        ks = 0
        ss = 0
        if s >= 0:
            n = (gain0[s] if s != c else 0) + delta[s] + Cr[s]  # gain0 is stale off the tiles of β0
            ks = K[s]
            ss = St[s]
        v1, pref = _stage1(mode, params, ks, ss, ng, cap, n, s, own, True, tokens_left)
        if v1 > max_v1:
            max_v1 = v1
        if stage == 1:
            j = v1
        else:
            if v1 < floor:
                continue
            if s >= 0:
                Sh[s] = me
            j = _final(mode, params, v1, obs, K, Cr, Sh, St, Fr, side, tiles, n_tiles, c, gainb, ng, cap)
            if s >= 0:
                Sh[s] = -1
        if target >= 0:
            if j == key_j and pref == key_p:
                if ties == target:
                    found = s
                    break
                ties += 1
            continue
        if j > best_j or (j == best_j and pref > best_p):
            best_j = j
            best_p = pref
            ties = 1
        elif j == best_j and pref == best_p:
            ties += 1
    if c >= 0:
        _undo_cell(work, K, Cr, side, w_tl, c)
    return max_v1, best_j, best_p, ties, found


@kernel_njit(_nrt=False)
def _groups(mode, params, work, fwork, K, St, side, w_ls, nls, w_grp, f_grp, n, own, ng, cap, tokens_left):
    """Stage-1 values of the legal shinies on the board as it stands (n crows = gain0), sorted best first by (value,
    preference) into groups of equal keys: gid plane = 1 + group; sizes, preferences and values per group. Returns
    the group count. A cell then re-values only the shinies its tile touches (`_scan_sparse`)."""
    a = side * side
    gain0 = work[0:a]
    gid = work[5 * a:6 * a]
    w_size, w_touch, w_gp, w_by = w_grp, w_grp + n + 2, w_grp + 2 * (n + 2), w_grp + 3 * (n + 2)
    f_val, f_gv = f_grp, f_grp + n + 2
    for i in range(nls):  # insertion sort, best first; the preferences of the sorted shinies sit in w_touch
        s = work[w_ls + i]
        v, p = _stage1(mode, params, K[s], St[s], ng, cap, gain0[s], s, own, True, tokens_left)
        j = i
        while j > 0 and (fwork[f_val + j - 1] < v or (fwork[f_val + j - 1] == v and work[w_touch + j - 1] < p)):
            fwork[f_val + j] = fwork[f_val + j - 1]
            work[w_touch + j] = work[w_touch + j - 1]
            work[w_by + j] = work[w_by + j - 1]
            j -= 1
        fwork[f_val + j] = v
        work[w_touch + j] = p
        work[w_by + j] = s
    g = -1
    for k in range(nls):
        v = fwork[f_val + k]
        p = work[w_touch + k]
        if g < 0 or v != fwork[f_gv + g] or p != work[w_gp + g]:
            g += 1
            fwork[f_gv + g] = v
            work[w_gp + g] = p
            work[w_size + g] = 0
        work[w_size + g] += 1
        gid[work[w_by + k]] = g + 1
    for k in range(g + 1):
        work[w_touch + k] = 0
    return g + 1


@kernel_njit(_nrt=False)
def _scan_sparse(mode, params, work, fwork, K, St, side, w_tl, w_grp, f_grp, n, n_groups, c, legal_c, own, ng, cap,
                 tokens_left):
    """Stage 1 of every option (c, s) after `_apply_cell(c)` without visiting every shiny: the shinies the tile
    touched are re-valued, the others keep their group from `_groups`, so the best untouched option is the first
    group with an untouched member. Returns (max v1, best v1, best pref, ties at the best), as `_scan_c` stage 1."""
    a = side * side
    gain0 = work[0:a]
    delta = work[a:2 * a]
    gid = work[5 * a:6 * a]
    w_size, w_touch, w_gp = w_grp, w_grp + n + 2, w_grp + 2 * (n + 2)
    f_gv = f_grp + n + 2
    max_v = -1e300
    best_v = -1e300
    best_p = -1
    ties = 0
    n_touched = work[w_tl]
    for i in range(1, n_touched + 1):
        t = work[w_tl + i]
        g = gid[t] - 1
        if g < 0:  # not a legal shiny (a crow tile, a shiny, Junk, or c itself)
            continue
        work[w_touch + g] += 1
        v, p = _stage1(mode, params, K[t], St[t], ng, cap, gain0[t] + delta[t], t, own, True, tokens_left)
        max_v, best_v, best_p, ties = _merge(v, p, 1, max_v, best_v, best_p, ties)
    if legal_c:  # the new tile is itself a legal shiny tile
        v, p = _stage1(mode, params, K[c], St[c], ng, cap, delta[c], c, own, True, tokens_left)
        max_v, best_v, best_p, ties = _merge(v, p, 1, max_v, best_v, best_p, ties)
    for g in range(n_groups):
        left = work[w_size + g] - work[w_touch + g]
        if left > 0:
            max_v, best_v, best_p, ties = _merge(fwork[f_gv + g], work[w_gp + g], left, max_v, best_v, best_p, ties)
            break
    for i in range(1, n_touched + 1):
        g = gid[work[w_tl + i]] - 1
        if g >= 0:
            work[w_touch + g] = 0
    if n_groups == 0 and not legal_c:  # no legal shiny tile: the single option without a shiny
        v, p = _stage1(mode, params, 0, 0, ng, cap, 0, -1, own, True, tokens_left)
        max_v, best_v, best_p, ties = _merge(v, p, 1, max_v, best_v, best_p, ties)
    return max_v, best_v, best_p, ties


@kernel_njit(_nrt=False)
def _placements(obs, params, mode, rng, work, fwork, cells_at, n_cells, tile, spawn, own, pick):
    """The reference's `placements` + `value` / `pick`: every (cell, shiny) option (n_cells < 0: shiny only).
    Returns (best J, index of the chosen cell, chosen shiny); with pick = False only the value (no draw)."""
    (a, mc, w_cnt, w_pref, w_aff, w_ls, w_ls2, w_log, w_save, w_ext, w_tl, w_grp, w_rays, f_kind, f_grp, wl,
     fl) = _work_at(obs)
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = _planes(obs)
    nls = _legal_shinies(K, Cr, Sh, tiles, n_tiles, work[w_ls:])
    sp = min(spawn, obs[O_SUPPLY])  # KRUKI-2: a short supply places what it holds
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    tokens_left = obs[O_TOKEN_STACK] > 0
    n = _n_total(obs)
    nc = n_cells if n_cells >= 0 else 1
    max_v1 = -1e300
    if n_cells >= 0:
        gain_all_cached(K, Cr, Sh, Fr, side, tiles, n_tiles, work[0:a], work, w_rays, work[5 * a:6 * a])
        n_groups = _groups(mode, params, work, fwork, K, St, side, w_ls, nls, w_grp, f_grp, n, own, ng, cap,
                           tokens_left)
        legal_c = tile != JUNK and sp == 0
        for ci in range(nc):
            c = obs[cells_at + ci]
            _apply_cell(work, K, Cr, Sh, Fr, side, w_aff, w_ext, w_tl, w_rays, c, tile, sp)
            mv, bj, bp, t = _scan_sparse(mode, params, work, fwork, K, St, side, w_tl, w_grp, f_grp, n, n_groups, c,
                                         legal_c, own, ng, cap, tokens_left)
            _undo_cell(work, K, Cr, side, w_tl, c)
            if mv > max_v1:
                max_v1 = mv
            fwork[ci] = bj
            work[w_pref + ci] = bp
            work[w_cnt + ci] = t
    else:
        gain_all(K, Cr, Sh, Fr, side, tiles, n_tiles, -1, work[0:a])
        mv, bj, bp, t, f = _scan_c(obs, params, mode, work, K, Cr, Sh, St, Fr, side, tiles, n_tiles, w_aff, w_ls,
                                   w_ls2, w_ext, w_tl, w_rays, -1, tile, sp, own, nls, 1, 0.0, 0.0, 0, -1)
        max_v1 = mv
        fwork[0] = bj
        work[w_pref] = bp
        work[w_cnt] = t
    stage = 1
    floor = 0.0
    if mode != GREEDY:
        stage = 2
        floor = max_v1 - (params[P_SLACK] if mode == BLOCKER else params[P_W_SLACK])
        for ci in range(nc):
            c = obs[cells_at + ci] if n_cells >= 0 else -1
            mv, bj, bp, t, f = _scan_c(obs, params, mode, work, K, Cr, Sh, St, Fr, side, tiles, n_tiles, w_aff,
                                       w_ls, w_ls2, w_ext, w_tl, w_rays, c, tile, sp, own, nls, 2, floor, 0.0, 0, -1)
            fwork[ci] = bj
            work[w_pref + ci] = bp
            work[w_cnt + ci] = t
    best_j = -1e300
    best_p = -1
    total = 0
    for ci in range(nc):
        j = fwork[ci]
        p = work[w_pref + ci]
        if j > best_j or (j == best_j and p > best_p):
            best_j, best_p, total = j, p, work[w_cnt + ci]
        elif j == best_j and p == best_p:
            total += work[w_cnt + ci]
    chosen_ci = 0
    chosen_s = -1
    if pick:
        i = below(rng, total) if total > 1 else 0
        for ci in range(nc):
            if fwork[ci] == best_j and work[w_pref + ci] == best_p:
                if i < work[w_cnt + ci]:
                    c = obs[cells_at + ci] if n_cells >= 0 else -1
                    chosen_ci = ci
                    chosen_s = _scan_c(obs, params, mode, work, K, Cr, Sh, St, Fr, side, tiles, n_tiles, w_aff, w_ls,
                                       w_ls2, w_ext, w_tl, w_rays, c, tile, sp, own, nls, stage, floor, best_j, best_p,
                                       i)[4]
                    break
                i -= work[w_cnt + ci]
    for i in range(n_tiles):  # clear the gid plane (shiny groups, ray-cache indices)
        work[5 * a + tiles[i]] = 0
    return best_j, chosen_ci, chosen_s


@kernel_njit(_nrt=False)
def _index_of(obs, value):
    at = obs[O_AT_OPT_A]
    for i in range(obs[O_N_OPTIONS]):
        if obs[at + i] == value:
            return i
    return 0


# ---- tokens (KRUKI-39 step 3, KRUKI-40/41) -----------------------------------------------------------------------
@kernel_njit(_nrt=False)
def _token_value(obs, params, mode, work, kind, ta, tb, td):
    """J of β = the board after the token (kind < 0: pass); the own shiny is already placed (or absent)."""
    a = obs[O_SIDE] * obs[O_SIDE]
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = _planes(obs)
    me = obs[O_SEAT]
    my = obs[O_SHINY_OF + me]
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    if kind == NO_GRAVEYARDS:
        ng = 1
    elif kind == GRAVESTONES:
        St[ta] += 1
    elif kind == NO_FLOCKING:
        Fr[ta] += 1
    elif kind == TWO_CROWS:
        Cr[ta] -= 1
        Cr[tb] -= 1
        Cr[td] += 2
    if my >= 0:
        n = arrivals_at(K, Cr, Sh, Fr, side, my)
        v1, p = _stage1(mode, params, K[my], St[my], ng, cap, n, my, 0, False, False)
    else:
        v1, p = _stage1(mode, params, 0, 0, ng, cap, 0, -1, 0, False, False)
    j = _final(mode, params, v1, obs, K, Cr, Sh, St, Fr, side, tiles, n_tiles, -1, work[2 * a:3 * a], ng, cap)
    if kind == GRAVESTONES:
        St[ta] -= 1
    elif kind == NO_FLOCKING:
        Fr[ta] -= 1
    elif kind == TWO_CROWS:
        Cr[ta] += 1
        Cr[tb] += 1
        Cr[td] -= 2
    return j


@kernel_njit(_nrt=False)
def _flags(obs, work, my, set_them):
    """Greedy's TWO_CROWS shortcut: flag[x] = m for every tile x on the own shiny's rows/columns whose group sends
    n // m crows to it (KRUKI-26 plans do not depend on n); set_them = False clears them again."""
    a = obs[O_SIDE] * obs[O_SIDE]
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = _planes(obs)
    flag = work[3 * a:4 * a]
    for i in range(4):
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        x = my + d
        while K[x] != GAP:
            flag[x] = 0
            if set_them and Fr[x] == 0 and Sh[x] < 0:
                m, d0, d1, d2, d3 = flight_plan(K, Sh, side, x)
                if m > 0 and (d0 == my or d1 == my or d2 == my or d3 == my):
                    flag[x] = m
            x += d


@kernel_njit(inline="always", _nrt=False)
def _moved_share(flag, Cr, x, change):
    m = flag[x]
    if m == 0:
        return 0
    return div_small(Cr[x] + change, m) - div_small(Cr[x], m)


@kernel_njit(_nrt=False)
def _token_scan(obs, params, mode, work, allow, pair_a, pair_b, key, target):
    """Enumerate the token candidates (kind, then target order, as the reference) allowed by the bit mask `allow`
    (TWO_CROWS restricted to the pair (pair_a, pair_b) when pair_a >= 0). Returns (best value, ties at it, kind, a,
    b, d of the target-th candidate valued `key` when target >= 0)."""
    a = obs[O_SIDE] * obs[O_SIDE]
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = _planes(obs)
    me = obs[O_SEAT]
    my = obs[O_SHINY_OF + me]
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    best = -1e300
    ties = 0
    for kind in range(4):
        if (allow >> kind) & 1 == 0:
            continue
        if (kind == NO_GRAVEYARDS or kind == NO_FLOCKING) and mode == GREEDY:
            continue
        if (kind == GRAVESTONES or kind == TWO_CROWS) and my < 0:
            continue
        if kind == TWO_CROWS:
            fast = mode == GREEDY
            base = 0
            if fast:
                _flags(obs, work, my, True)
                base = arrivals_at(K, Cr, Sh, Fr, side, my)
            flag = work[3 * a:4 * a]
            n_free = 0
            for i in range(n_tiles):
                if Sh[tiles[i]] < 0:
                    n_free += 1
            for i in range(n_tiles):
                ta = tiles[i]
                if Cr[ta] <= 0:
                    continue
                for j in range(i, n_tiles):
                    tb = tiles[j]
                    if Cr[tb] <= 0 or (ta == tb and Cr[ta] < 2):
                        continue
                    if pair_a >= 0 and (ta != pair_a or tb != pair_b):
                        continue
                    free = n_free - (1 if Sh[ta] < 0 else 0) - (1 if (tb != ta and Sh[tb] < 0) else 0)
                    if free <= 0:
                        continue
                    for e in range(4):  # destinations next to the own shiny, raster order: N, W, E, S
                        td = my - side if e == 0 else (my - 1 if e == 1 else (my + 1 if e == 2 else my + side))
                        if K[td] == GAP or Sh[td] >= 0 or td == ta or td == tb:
                            continue
                        if fast:
                            n = base + _moved_share(flag, Cr, td, 2)
                            if ta == tb:
                                n += _moved_share(flag, Cr, ta, -2)
                            else:
                                n += _moved_share(flag, Cr, ta, -1) + _moved_share(flag, Cr, tb, -1)
                            v = float(score_points(K[my], St[my], ng, cap, n))
                        else:
                            v = _token_value(obs, params, mode, work, TWO_CROWS, ta, tb, td)
                        if target >= 0:
                            if v == key:
                                if ties == target:
                                    if fast:
                                        _flags(obs, work, my, False)
                                    return v, ties, TWO_CROWS, ta, tb, td
                                ties += 1
                        elif v > best:
                            best, ties = v, 1
                        elif v == best:
                            ties += 1
            if fast:
                _flags(obs, work, my, False)
            continue
        n_t = 1 if kind != NO_FLOCKING else n_tiles
        for i in range(n_t):
            t = my if kind == GRAVESTONES else (tiles[i] if kind == NO_FLOCKING else -1)
            if kind == NO_FLOCKING and Cr[t] <= 0:
                continue
            v = _token_value(obs, params, mode, work, kind, t, -1, -1)
            if target >= 0:
                if v == key:
                    if ties == target:
                        return v, ties, kind, t, -1, -1
                    ties += 1
            elif v > best:
                best, ties = v, 1
            elif v == best:
                ties += 1
    return best, ties, -1, -1, -1, -1


@kernel_njit(_nrt=False)
def _token_pick(obs, params, mode, rng, work, allow, pair_a, pair_b):
    """The reference's `pick` over the token candidates: (value, kind, a, b, d), kind -1 when there is none."""
    best, ties, k, ta, tb, td = _token_scan(obs, params, mode, work, allow, pair_a, pair_b, 0.0, -1)
    if ties == 0:
        return 0.0, -1, -1, -1, -1
    i = below(rng, ties) if ties > 1 else 0
    v, t2, k, ta, tb, td = _token_scan(obs, params, mode, work, allow, pair_a, pair_b, best, i)
    return best, k, ta, tb, td


@kernel_njit(_nrt=False)
def _token_decision(obs, params, mode, rng, work):
    dec = obs[O_DECISION]
    at_a = obs[O_AT_OPT_A]
    if dec == D_TOKEN:
        allow = 0
        for i in range(obs[O_N_OPTIONS]):
            if obs[at_a + i] >= 0:
                allow |= 1 << obs[at_a + i]
        best, k, ta, tb, td = _token_pick(obs, params, mode, rng, work, allow, -1, -1)
        if k < 0:
            return 0
        gain = best - _token_value(obs, params, mode, work, -1, -1, -1, -1)
        return _index_of(obs, k) if gain > obs[O_RULES + R_TOKEN_KEEP] else 0
    token = obs[O_CTX_TOKEN]
    if dec == D_TARGET:
        best, k, ta, tb, td = _token_pick(obs, params, mode, rng, work, 1 << token, -1, -1)
        return _index_of(obs, ta) if k >= 0 else 0
    if dec == D_PAIR:
        best, k, ta, tb, td = _token_pick(obs, params, mode, rng, work, 1 << token, -1, -1)
        if k < 0:
            return 0
        at_b = obs[O_AT_OPT_B]
        for i in range(obs[O_N_OPTIONS]):
            if obs[at_a + i] == ta and obs[at_b + i] == tb:
                return i
        return 0
    best, k, ta, tb, td = _token_pick(obs, params, mode, rng, work, 1 << token, obs[O_CTX_PAIR_A],
                                      obs[O_CTX_PAIR_B])
    return _index_of(obs, td) if k >= 0 else 0


# ---- spiral start (KRUKI-39 step 4, all heuristics) --------------------------------------------------------------
@kernel_njit(_nrt=False)
def _spread(K, side, x, n, gain):
    """gain[s] += n for every tile s on the four arms of x short of the first Junk: what a group of n crows on x
    adds to a new shiny's arrivals when no other shiny is on the board (KRUKI-26: nothing to tie with)."""
    for i in range(4):
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        c = x + d
        while K[c] != GAP and K[c] != JUNK:
            gain[c] += n
            c += d


@kernel_njit(_nrt=False)
def _spiral_choice(obs, work):
    """B0 after each start with every shiny and token removed; max if the chooser is next round's first player,
    else min; ties N, E, S, W (no draw)."""
    layout = _work_at(obs)
    a, w_log, w_save = layout[0], layout[7], layout[8]
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = _planes(obs)
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
    for i in range(4):
        log[0] = 0
        scatter(K, Cr, obs[O_HALF], side, tiles, n_tiles, m, i, obs[O_RULES + R_MURDER_REMOVED], log)
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
@kernel_njit(_nrt=False)
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
        return _index_of(obs, SRC_DRAW if has_draw else SRC_SKIP)
    at_f = obs[O_AT_FRONTIER]
    n_f = obs[O_N_FRONTIER]
    j_junk = 0.0
    if has_junk:
        j_junk = _placements(obs, params, mode, rng, work, fwork, at_f, n_f, JUNK, 0, 1, False)[0]
    if n_pool > 0:  # tile-draft: the best pool tile by its step-2 value
        kb = _work_at(obs)[13]
        done = 0
        best = -1e300
        for i in range(n_opt):
            o = obs[at_a + i]
            if o < SRC_POOL:
                continue
            t = obs[O_POOL + o - SRC_POOL]
            if (done >> t) & 1 == 0:
                sp = t if 1 <= t <= 3 else 0  # rules.spawn_of
                fwork[kb + t] = _placements(obs, params, mode, rng, work, fwork, at_f, n_f, t, sp, 0, False)[0]
                done |= 1 << t
            if fwork[kb + t] > best:
                best = fwork[kb + t]
        if has_junk and j_junk >= best + margin:
            return _index_of(obs, SRC_JUNK)
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
    j0 = _placements(obs, params, mode, rng, work, fwork, 0, -1, 0, 0, 0, False)[0]  # the draw proxy
    if has_draw:
        return _index_of(obs, SRC_JUNK if j_junk >= j0 + margin else SRC_DRAW)
    return _index_of(obs, SRC_JUNK if j_junk > j0 else SRC_SKIP)


@kernel_njit(_nrt=False)
def choose_heuristic(mode, obs, params, rng, work, fwork):
    """greedy / blocker / weighted (mode = sid) at any decision: returns an index into the option list."""
    dec = obs[O_DECISION]
    if dec == D_SPIRAL:
        return _spiral_choice(obs, work)
    if dec == D_JUNK_MODE or dec == D_REPLACE:  # the heuristics use Junk only in normal mode
        return 0
    if dec == D_CELL:
        own = obs[O_CTX_OWN] if obs[O_CTX_OWN] > 0 else 0
        return _placements(obs, params, mode, rng, work, fwork, obs[O_AT_OPT_A], obs[O_N_OPTIONS], obs[O_CTX_TILE],
                           obs[O_CTX_SPAWN], own, True)[1]
    if dec == D_SHINY:
        s = _placements(obs, params, mode, rng, work, fwork, 0, -1, 0, 0, 0, True)[2]
        return _index_of(obs, s)
    if dec == D_SOURCE:
        return _source_choice(obs, params, mode, rng, work, fwork)
    return _token_decision(obs, params, mode, rng, work)


@kernel_njit(_nrt=False)
def choose_builtin(sid, obs, params, rng, work, fwork):
    """Integer dispatch over the shipped observation-based strategies (sid = StrategyInfo.sid). `random` is played
    by the kernel itself from the option count (it needs no observation)."""
    if sid == RANDOM:
        return below(rng, obs[O_N_OPTIONS])
    return choose_heuristic(sid, obs, params, rng, work, fwork)
