"""Kruki / Odin's Ravens track model in njit code over the observation array (docs/rules/kruki-wyscig.md RACE-9..32):
path queries, the legality conditions of the track edits and the legal target lists in §5 canonical order. The kernel
plays by these functions and the strategies plan with them, so both see one rule; the edits themselves are
`track.py` (kernel only). The observation layout is `obs.py`.
"""
from sim.jit import kernel_njit
from sim.games.kruki_wyscig.obs import (
    O_APILE_SIZE, O_CARD_FA, O_CARD_LOC, O_COL_CARD, O_COL_SHIFT, O_DISC, O_DONE, O_FPILE_SIZE, O_F_CARD, O_F_COL,
    O_F_GAP, O_F_KIND, O_F_LAND, O_F_NEXT, O_F_PREV, O_LOOP_CARDS, O_N_CARDS, O_N_COLS, O_POS, O_RULES, R_LANDS,
    placement, play_option)
from sim.games.kruki_wyscig.rules import (
    HEAD, HOME, LANE_A, LANE_B, LOC_LOOP, LOC_MAIN, LOOP, MAIN, MAX_LANDS, OPT_REMOVE, OPT_ROTATE, OPT_SLIDE,
    OPT_SWAP, SHIFT_A, TAIL)

LOOP_MARK = 1024  # swap targets: a loop card's id + LOOP_MARK while pairs are listed (ids are below MAX_CARDS)

# ---- track queries (RACE-9..15) --------------------------------------------------------------------------------------

@kernel_njit()
def is_real(obs, f):
    """RACE-11: a field that shows a land."""
    k = obs[O_F_KIND + f]
    return (k == MAIN or k == LOOP) and obs[O_F_GAP + f] == 0


@kernel_njit()
def fwd(obs, p, f):
    """RACE-13: first real field after f in raven p's direction (α: f_next, β: f_prev), -1 at the far end."""
    nxt = O_F_NEXT if p == 0 else O_F_PREV
    far = TAIL if p == 0 else HEAD
    g = obs[nxt + f]
    while g != far:
        if is_real(obs, g):
            return g
        g = obs[nxt + g]
    return -1


@kernel_njit()
def back(obs, p, f):
    """RACE-13: nearest real field behind f on p's path, or p's start sentinel."""
    prv = O_F_PREV if p == 0 else O_F_NEXT
    start = HEAD if p == 0 else TAIL
    g = obs[prv + f]
    while g != start:
        if is_real(obs, g):
            return g
        g = obs[prv + g]
    return start


@kernel_njit()
def fin(obs, p):
    """RACE-13: last real field of p's path, -1 if it has none."""
    start = HEAD if p == 0 else TAIL
    f = back(obs, p, TAIL if p == 0 else HEAD)
    return -1 if f == start else f


@kernel_njit()
def rem(obs, p):
    """RACE-13: real fields after p's raven up to fin(p); 0 once finished."""
    if obs[O_DONE + p]:
        return 0
    n = 0
    g = fwd(obs, p, obs[O_POS + p])
    while g != -1:
        n += 1
        g = fwd(obs, p, g)
    return n


@kernel_njit()
def runs(obs, p):
    """RACE-13: maximal runs of equal land ahead of p (single flights that would finish it); 0 once finished."""
    if obs[O_DONE + p]:
        return 0
    n = 0
    last = -1
    g = fwd(obs, p, obs[O_POS + p])
    while g != -1:
        land = obs[O_F_LAND + g]
        if land != last:
            n += 1
            last = land
        g = fwd(obs, p, g)
    return n


@kernel_njit()
def track_len(obs):
    """Real fields on the track (= the length of both paths)."""
    n = 0
    f = obs[O_F_NEXT + HEAD]
    while f != TAIL:
        if is_real(obs, f):
            n += 1
        f = obs[O_F_NEXT + f]
    return n


@kernel_njit(inline="always")
def seg_start(lane, j):
    """RACE-14: first slot of the loop segment (lane, j) in α order (A_j, or B_{j+1})."""
    return 2 * j if lane == LANE_A else 2 * j + 3


@kernel_njit(inline="always")
def seg_end(lane, j):
    return 2 * j + 2 if lane == LANE_A else 2 * j + 1


@kernel_njit()
def loop_exists(obs, lane, j):
    """RACE-14 (anchors outside 1..n-1 never hold a loop)."""
    if j < 1 or j >= obs[O_N_COLS]:
        return False
    return obs[O_F_NEXT + seg_start(lane, j)] != seg_end(lane, j)


@kernel_njit()
def loop_len(obs, lane, j):
    """Cards in the loop at (lane, j)."""
    end = seg_end(lane, j)
    f = obs[O_F_NEXT + seg_start(lane, j)]
    k = 0
    while f != end:
        k += 1
        f = obs[O_F_NEXT + obs[O_F_NEXT + f]]
    return k


@kernel_njit()
def occupied(obs, c):
    """RACE-15: a raven stands on one of c's fields (a finished raven keeps its card occupied)."""
    p0 = obs[O_POS]
    p1 = obs[O_POS + 1]
    return (p0 > TAIL and obs[O_F_CARD + p0] == c) or (p1 > TAIL and obs[O_F_CARD + p1] == c)


@kernel_njit()
def covered(obs, c):
    """RACE-15: a slid main card whose protruding field lies under a loop in its lane."""
    if obs[O_CARD_LOC + c] != LOC_MAIN:
        return False
    j = obs[O_F_COL + obs[O_CARD_FA + c]]
    s = obs[O_COL_SHIFT + j - 1]
    if s == HOME:
        return False
    lane = LANE_A if s == SHIFT_A else LANE_B
    return loop_exists(obs, lane, j - 1) or loop_exists(obs, lane, j)


@kernel_njit()
def track_order(obs, out, off):
    """§5 canonical card order into out[off:]: main cards by column, then loop cards by lane (A, B), anchor and α
    order. Returns the number of cards."""
    n = obs[O_N_COLS]
    m = 0
    for j in range(n):
        c = obs[O_COL_CARD + j]
        if c != -1:
            out[off + m] = c
            m += 1
    if obs[O_LOOP_CARDS] > 0:
        for lane in range(2):
            for j in range(1, n):
                end = seg_end(lane, j)
                f = obs[O_F_NEXT + seg_start(lane, j)]
                while f != end:
                    out[off + m] = obs[O_F_CARD + f]
                    m += 1
                    f = obs[O_F_NEXT + obs[O_F_NEXT + f]]
    return m


@kernel_njit()
def piles_available(obs, s):
    """RACE-17: (flight pile available, action pile available) for seat s."""
    fl = obs[O_FPILE_SIZE + s] > 0
    if not fl:
        for x in range(obs[O_RULES + R_LANDS]):
            if obs[O_DISC + s * MAX_LANDS + x] > 0:
                fl = True
                break
    return fl, obs[O_APILE_SIZE + s] > 0


@kernel_njit()
def ahead3(obs, p):
    """The first three real fields ahead of raven p (-1 where none); enough to decide RACE-24 for any one card."""
    g1 = fwd(obs, p, obs[O_POS + p])
    g2 = -1 if g1 == -1 else fwd(obs, p, g1)
    g3 = -1 if g2 == -1 else fwd(obs, p, g2)
    return g1, g2, g3


@kernel_njit()
def _strands_remove(obs, c, done, g1, g2, g3):
    """RACE-24 for removing card c: an unfinished raven whose fields ahead all lie on c."""
    if done:
        return False
    if g1 == -1:
        return True
    if obs[O_F_CARD + g1] != c:
        return False
    return g2 == -1 or (obs[O_F_CARD + g2] == c and g3 == -1)


@kernel_njit(inline="always")
def _strands_gap(done, g1, g2, gap):
    """RACE-24 for a slide that turns slot `gap` into a gap."""
    if done:
        return False
    return g1 == -1 or (g1 == gap and g2 == -1)


@kernel_njit(inline="always")
def _slide_allowed(obs, j, lane, d0, a1, a2, d1, b1, b2):
    """RACE-30: may column j's card slide in `lane` — no loop beside it, and no runner stranded by the gap?"""
    if loop_exists(obs, lane, j - 1) or loop_exists(obs, lane, j):
        return False
    gap = 2 * j + 1 if lane == LANE_A else 2 * j
    return not (_strands_gap(d0, a1, a2, gap) or _strands_gap(d1, b1, b2, gap))


# ---- legal targets (RACE-23..32), each in §5 canonical order --------------------------------------------------------

@kernel_njit()
def list_targets(obs, opt, out, off, tord):
    """Legal targets of rotate, remove, swap or slide as encoded plays into out[off:]; returns their number.
    `tord` is an offset in `out` with room for MAX_CARDS (the track order is written there first)."""
    m = track_order(obs, out, tord)
    k = 0
    if opt == OPT_ROTATE or opt == OPT_REMOVE:  # RACE-27, RACE-28
        a1, a2, a3 = ahead3(obs, 0)
        b1, b2, b3 = ahead3(obs, 1)
        d0 = obs[O_DONE] != 0
        d1 = obs[O_DONE + 1] != 0
        for i in range(m):
            c = out[tord + i]
            if occupied(obs, c) or covered(obs, c):
                continue
            if opt == OPT_REMOVE and (_strands_remove(obs, c, d0, a1, a2, a3)
                                      or _strands_remove(obs, c, d1, b1, b2, b3)):
                continue
            out[off + k] = play_option(opt, c, 0)
            k += 1
    elif opt == OPT_SWAP:  # RACE-29: unordered pairs in track order, both home main or both loop
        e = 0  # eligible cards, compacted in place (track order kept); loop cards are marked by +LOOP_MARK
        for i in range(m):
            a = out[tord + i]
            if occupied(obs, a):
                continue
            if obs[O_CARD_LOC + a] == LOC_MAIN:
                if obs[O_COL_SHIFT + obs[O_F_COL + obs[O_CARD_FA + a]] - 1] != HOME:
                    continue
                out[tord + e] = a
            else:
                out[tord + e] = a + LOOP_MARK
            e += 1
        for i in range(e):
            a = out[tord + i]
            for i2 in range(i + 1, e):
                b = out[tord + i2]
                if (a >= LOOP_MARK) == (b >= LOOP_MARK):
                    out[off + k] = play_option(OPT_SWAP, a & (LOOP_MARK - 1), b & (LOOP_MARK - 1))
                    k += 1
    elif opt == OPT_SLIDE:  # RACE-30: by column, lane A before B
        a1, a2, a3 = ahead3(obs, 0)
        b1, b2, b3 = ahead3(obs, 1)
        d0 = obs[O_DONE] != 0
        d1 = obs[O_DONE + 1] != 0
        for j in range(1, obs[O_N_COLS] + 1):
            c = obs[O_COL_CARD + j - 1]
            if c == -1 or obs[O_COL_SHIFT + j - 1] != HOME or occupied(obs, c):
                continue
            for lane in range(2):
                if _slide_allowed(obs, j, lane, d0, a1, a2, d1, b1, b2):
                    out[off + k] = play_option(OPT_SLIDE, c, lane)
                    k += 1
    return k


@kernel_njit()
def any_target(obs, opt):
    """Does rotate, remove, swap or slide have at least one legal target (RACE-27..30)? Early exit, any order."""
    n_cards = obs[O_N_CARDS]
    if opt == OPT_SLIDE:
        a1, a2, a3 = ahead3(obs, 0)
        b1, b2, b3 = ahead3(obs, 1)
        d0 = obs[O_DONE] != 0
        d1 = obs[O_DONE + 1] != 0
        for j in range(1, obs[O_N_COLS] + 1):
            c = obs[O_COL_CARD + j - 1]
            if c == -1 or obs[O_COL_SHIFT + j - 1] != HOME or occupied(obs, c):
                continue
            for lane in range(2):
                if _slide_allowed(obs, j, lane, d0, a1, a2, d1, b1, b2):
                    return True
        return False
    if opt == OPT_SWAP:
        mains = 0
        loops = 0
        for c in range(n_cards):
            loc = obs[O_CARD_LOC + c]
            if loc == LOC_MAIN:
                if obs[O_COL_SHIFT + obs[O_F_COL + obs[O_CARD_FA + c]] - 1] == HOME and not occupied(obs, c):
                    mains += 1
                    if mains == 2:
                        return True
            elif loc == LOC_LOOP and not occupied(obs, c):
                loops += 1
                if loops == 2:
                    return True
        return False
    check = opt == OPT_REMOVE
    if check:
        a1, a2, a3 = ahead3(obs, 0)
        b1, b2, b3 = ahead3(obs, 1)
    else:
        a1 = a2 = a3 = b1 = b2 = b3 = -1
    d0 = obs[O_DONE] != 0
    d1 = obs[O_DONE + 1] != 0
    for c in range(n_cards):
        loc = obs[O_CARD_LOC + c]
        if (loc != LOC_MAIN and loc != LOC_LOOP) or occupied(obs, c) or covered(obs, c):
            continue
        if check and (_strands_remove(obs, c, d0, a1, a2, a3) or _strands_remove(obs, c, d1, b1, b2, b3)):
            continue
        return True
    return False


@kernel_njit()
def insertion_point(obs, lane, j, i):
    """RACE-32: the record after which a detour at (lane, j, index i) is linked."""
    f = seg_start(lane, j)
    for _ in range(i):
        f = obs[O_F_NEXT + obs[O_F_NEXT + f]]
    return f


@kernel_njit()
def count_placements(obs):
    """RACE-32: (lane, anchor, index, orientation) tuples."""
    k = 0
    for lane in range(2):
        for j in range(1, obs[O_N_COLS]):
            k += 2 * (loop_len(obs, lane, j) + 1)
    return k


@kernel_njit()
def nth_placement(obs, t):
    """The t-th placement in canonical order (lane, anchor, index, orientation 0 before 1)."""
    for lane in range(2):
        for j in range(1, obs[O_N_COLS]):
            n = 2 * (loop_len(obs, lane, j) + 1)
            if t < n:
                return placement(lane, j, t >> 1, t & 1)
            t -= n
    return -1
