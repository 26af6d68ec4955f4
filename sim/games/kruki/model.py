"""Crows (`kruki`) rule code shared by the kernel and the strategies, njit over flat board planes.

Flight (KRUKI-26, 27), scoring (KRUKI-28 with 22, 23) and the murder scatter (KRUKI-30, 31) on the board planes of
the observation layout (sim/games/kruki/obs.py): K (kind, GAP = -1), Cr (crows), Sh (shiny owner, -1), St (GRAVESTONES
this round), Fr (NO_FLOCKING this round), each side*side long, cell = (y + H) * side + (x + H). The board never comes
near the array's edge, so a walk along a row or column always meets a gap first.

Besides the rules as they are played (`flight_plan`, `scatter`), the arrival maps a strategy values positions with:
`arrivals_at` (crows on one tile after a flight), and `gain_all` / `add_contrib` (for every tile at once, the crows a
new shiny there would receive), the reverse of `arrivals_at`.
"""
from sim.jit import kernel_njit
from sim.games.kruki import rules
from sim.games.kruki.rules import GAP, GRAVEYARD, JUNK, TRINKETS

BIG = 1 << 30  # "no shiny / no Junk on this ray"

# KRUKI-14: crows a tile spawns when placed from the stack or the pool (the rules' own function, compiled).
spawn_of = kernel_njit(inline="always")(rules.spawn_of)


@kernel_njit(inline="always")
def div_small(n, m):
    """n // m for 1 <= m <= 4 without a division instruction in the common cases."""
    if m == 1:
        return n
    if m == 2:
        return n >> 1
    if m == 4:
        return n >> 2
    return n // 3


@kernel_njit(inline="always")
def row_of(side, x):
    """x // side for a cell x >= 0, by an integer multiplication: with M = floor(2^32 / side) + 1, x * M / 2^32 exceeds
    x / side by less than x / 2^32, which is below 1 / side (the distance from x / side up to the next integer) while
    x * side < 2^32; boards have x < side^2 and side <= 841 (7 kinds of at most 60 tiles), so the floor is exact. M
    comes from a float division, exact in its integer part for side < 2^11, which inlined in a loop is taken once. An
    integer division takes tens of cycles, and the bounds and token moves ask which cells share a line tens of
    thousands of times per game; the float reciprocal this replaced had four dependent float steps per call."""
    return (x * (int(4294967296.0 / side) + 1)) >> 32


@kernel_njit(inline="always")
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


@kernel_njit()
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


@kernel_njit()
def flight_to(K, Cr, Sh, Fr, side, t, s):
    """Crows the group on tile t sends to cell s in a flight on the board as it stands (KRUKI-26)."""
    n = Cr[t]
    if n <= 0 or Fr[t] > 0 or Sh[t] >= 0:  # KRUKI-24 frozen / a shiny tile: stays
        return 0
    m, d0, d1, d2, d3 = flight_plan(K, Sh, side, t)
    if m == 0 or not (d0 == s or d1 == s or d2 == s or d3 == s):
        return 0
    return div_small(n, m)


@kernel_njit()
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


@kernel_njit(inline="always")
def score_points(kind, stones, no_graveyards, cap, n):
    """KRUKI-28 (with KRUKI-22, 23): points of n crows on a shiny tile of `kind` with `stones` GRAVESTONES."""
    raw = n << (((kind == GRAVEYARD) | (stones > 0)) & (no_graveyards == 0))  # doubled without a branch on the tile
    if cap > 0 and raw > cap:
        return cap
    return raw


@kernel_njit(inline="always")
def _bump(gain, c, v, track, mark, tl):
    """gain[c] += v; when tracking, c is appended once to the touched list tl[1:] (count tl[0], mark[c] = 1)."""
    gain[c] += v
    if track and mark[c] == 0:
        mark[c] = 1
        tl[0] += 1
        tl[tl[0]] = c


@kernel_njit(inline="always")
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


@kernel_njit(inline="always")
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


@kernel_njit(inline="always")
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
        m, cnt, tr = _fold_ray(m, cnt, tr, work[w_rays + 8 * idx + 2 * i], work[w_rays + 8 * idx + 2 * i + 1])
    return m, cnt, tr


@kernel_njit(inline="always")
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


@kernel_njit()
def add_contrib(K, Sh, side, t, n, sign, gain, track, mark, tl):
    """For every tile s, gain[s] += sign * (crows the group of n crows on tile t sends to s if a new shiny were put
    on s): the reverse of `arrivals_at`, for all candidate shinies at once. Written cells are tracked as in
    `_bump`."""
    e0, c0, r0, j0 = _ray(K, Sh, t, -side)
    e1, c1, r1, j1 = _ray(K, Sh, t, 1)
    e2, c2, r2, j2 = _ray(K, Sh, t, side)
    e3, c3, r3, j3 = _ray(K, Sh, t, -1)
    _contrib_rays(K, side, t, n, sign, gain, track, mark, tl, e0, r0, j0, e1, r1, j1, e2, r2, j2, e3, r3, j3)


# The same, copied into its caller: `_apply_cell` adds the crows a tile spawns once per cell valued, and a call
# passes each of the five arrays as seven words.
add_contrib_inline = kernel_njit(inline="always")(add_contrib.py_func)


@kernel_njit(inline="always")
def _line_step(side, t, p):
    """(step, distance) from the cell t toward the cell p along their row or column; (0, 0) when they share neither."""
    rows = row_of(side, p) - row_of(side, t)
    if rows == 0:
        return (1 if p > t else -1), (p - t if p > t else t - p)
    if p - t == rows * side:
        return (side if p > t else -side), (rows if rows > 0 else -rows)
    return 0, 0


@kernel_njit(inline="always")
def _path_open(K, Sh, t, d, k):
    """Whether no gap, shiny or JUNK lies strictly between t and the cell k steps d away."""
    c = t + d
    for _ in range(1, k):
        if K[c] == GAP or K[c] == JUNK or Sh[c] >= 0:
            return False
        c += d
    return True


@kernel_njit(inline="always")
def _fold_ray(m, cnt, tr, e, r):
    """(nearest shiny distance, rays at it, those of them on TRINKETS) with one more ray (its shiny at e, r = on
    TRINKETS) folded in; no shiny (BIG) counts for nothing."""
    if e < m:
        return e, 1, r
    if e == m and e < BIG:
        return m, cnt + 1, tr + r
    return m, cnt, tr


@kernel_njit(inline="always")
def _nearest_beside(K, Sh, side, t, skip_a, skip_b):
    """`_fold_ray` over the rays of the tile t except those in the steps skip_a and skip_b."""
    m, cnt, tr = BIG, 0, 0
    for i in range(4):
        di = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        if di != skip_a and di != skip_b:
            e, cell, r, j = _ray(K, Sh, t, di)
            m, cnt, tr = _fold_ray(m, cnt, tr, e, r)
    return m, cnt, tr


@kernel_njit(inline="always")
def _share_within(K, p, k, m_other, eqcnt, eqtr, n):
    """`_share` to a new shiny on p at distance k, or nothing when a shiny in another direction is nearer."""
    if k > m_other:
        return 0
    return _share(K, p, k, m_other, eqcnt, eqtr, n)


@kernel_njit()
def probe_share(K, Sh, side, t, n, s):
    """Crows the group of n crows on tile t sends to a new shiny put on the tile s, a tile on its row or column (no
    shiny there): `add_contrib`'s term for s alone. Nothing if a gap, a shiny or a JUNK lies strictly between them,
    or if a shiny in another direction is nearer; a split on a tie (KRUKI-26)."""
    d, k = _line_step(side, t, s)
    if d == 0 or not _path_open(K, Sh, t, d, k):
        return 0
    m_other, eqcnt, eqtr = _nearest_beside(K, Sh, side, t, d, d)
    return _share_within(K, s, k, m_other, eqcnt, eqtr, n)


@kernel_njit()
def probe_share_lost(K, Sh, side, t, n, p, s):
    """`probe_share`(t -> p) with the shiny on s lifted less it with that shiny (Sh[s] >= 0 on entry and on return):
    the crows a probe on p loses to s from the group of n on t, p != s on t's row or column. Only the walks that
    pass s differ, so the path to p and the rays that cannot meet s are walked once: none of it when s lies past p
    on the same ray, the path alone (s then blocks it) when s lies between."""
    d, k = _line_step(side, t, p)
    ds, ks = _line_step(side, t, s)  # ds = 0: s is on neither t's row nor its column
    if ds == 0 or (ds == d and ks > k):
        return 0
    owner = Sh[s]
    if ds == d:  # s between t and p: the path to p meets it, so the group sends p nothing with it
        Sh[s] = -1
        lost = probe_share(K, Sh, side, t, n, p)
        Sh[s] = owner
        return lost
    if not _path_open(K, Sh, t, d, k):
        return 0
    m_other, eqcnt, eqtr = _nearest_beside(K, Sh, side, t, d, ds)  # the rays that never meet s
    e_with, cell, r_with, j = _ray(K, Sh, t, ds)
    Sh[s] = -1
    e_without, cell, r_without, j = _ray(K, Sh, t, ds)
    Sh[s] = owner
    m0, c0, tr0 = _fold_ray(m_other, eqcnt, eqtr, e_without, r_without)
    m1, c1, tr1 = _fold_ray(m_other, eqcnt, eqtr, e_with, r_with)
    return _share_within(K, p, k, m0, c0, tr0, n) - _share_within(K, p, k, m1, c1, tr1, n)


@kernel_njit(inline="always")
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


@kernel_njit()
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


@kernel_njit()
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


@kernel_njit(inline="always")
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


@kernel_njit()
def scatter_radius(side, tiles, n_tiles, m):
    """KRUKI-31: how far the spiral around m may reach, the largest row or column distance from m to a tile."""
    my = m // side
    mx = m - my * side
    rad = 0
    for i in range(n_tiles):
        t = tiles[i]
        ty = t // side
        tx = t - ty * side
        rad = max(rad, max(abs(tx - mx), abs(ty - my)))
    return rad


@kernel_njit()
def scatter(K, Cr, half, side, tiles, n_tiles, m, start, removed_max, log):
    """KRUKI-30/31: resolve the murder on m with spiral start 0..3 (N, E, S, W). Cells that received a crow are
    appended to log[1:] (log[0] = count). Returns (crows removed, crows placed)."""
    return scatter_within(K, Cr, half, side, m, start, removed_max, log, scatter_radius(side, tiles, n_tiles, m))


@kernel_njit()
def scatter_within(K, Cr, half, side, m, start, removed_max, log, rad):
    """`scatter` with the spiral's reach `rad` (`scatter_radius`) given: the spiral-start choice tries four starts
    around one murder."""
    r = min(removed_max, Cr[m] - 1)
    Cr[m] -= r
    my = m // side
    mx = m - my * side
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

