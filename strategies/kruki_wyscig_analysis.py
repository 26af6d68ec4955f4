"""Odin's Ravens heuristics' planning tools (docs/rules/kruki-wyscig.md §9): the α-order analysis that evaluates the
runs of any track edit in O(1), and the runner step and moves planned on it. Reads the observation (layout in
sim/games/kruki_wyscig/obs.py) and writes only its work area (W_*).
"""
from sim.jit import kernel_njit
from sim.games.kruki_wyscig.model import is_real, piles_available, seg_end, seg_start
from sim.games.kruki_wyscig.obs import (
    HAND_SIZE, H_FLIGHT, H_JOKER, H_OPTION, O_CARD_FA, O_CARD_FB, O_CARD_LAND, O_CARD_LOC, O_CARD_ROT, O_COL_SHIFT,
    O_DONE, O_F_COL, O_F_LAND, O_F_LANE, O_F_NEXT, O_HAND, O_N_COLS, O_POS, O_RULES, O_SEAT, R_LANDS, R_OSPREY, STOP,
    W_BND, W_HAND, W_L, W_LAND, W_MLAND, W_MPOS, W_PA, W_PB, W_RIDX, play_a, play_b, play_flight, play_head,
    play_joker, play_option)
from sim.games.kruki_wyscig.rules import (
    HEAD, HOME, K1, K4, LANE_A, LOC_MAIN, MAX_LANDS, OPT_BACK1, OPT_FORWARD1, OPT_REMOVE, OPT_ROTATE, OPT_SLIDE,
    OPT_SWAP, OPT_TAKE2, SHIFT_A, SHIFT_B, TAIL)


# ---- α-order analysis: runs of any edit in O(1) -------------------------------------------------------------------
# The real fields in α order form the *sequence* (positions 0..L-1). α at sequence index pa sees the window
# [pa+1, L-1]; β at index pb sees [0, pb-1] (HEAD is -1, TAIL is L). runs(window) = 1 + boundaries inside it, and an
# edit changes only a few positions, so the heuristics evaluate every target without touching the track.

@kernel_njit()
def analyze(obs):
    """Fill W_RIDX, W_LAND, W_BND, W_L, W_PA, W_PB from the current track."""
    cnt = 0
    b = 0
    last = -1
    obs[W_RIDX + HEAD] = 0
    f = obs[O_F_NEXT + HEAD]
    while f != -1:
        if is_real(obs, f):
            land = obs[O_F_LAND + f]
            if cnt > 0 and land != last:
                b += 1
            obs[W_LAND + cnt] = land
            obs[W_BND + cnt] = b
            last = land
            cnt += 1
        obs[W_RIDX + f] = cnt
        f = obs[O_F_NEXT + f]
    obs[W_L] = cnt
    obs[W_PA] = obs[W_RIDX + obs[O_POS]] - 1
    pb = obs[O_POS + 1]
    obs[W_PB] = cnt if pb == TAIL else obs[W_RIDX + pb] - 1


@kernel_njit()
def window(obs, p, idx):
    """(lo, hi) of the fields ahead of raven p standing at sequence index idx."""
    if p == 0:
        return idx + 1, obs[W_L] - 1
    return 0, idx - 1


@kernel_njit()
def runs_window(obs, lo, hi):
    if lo > hi:
        return 0
    return 1 + obs[W_BND + hi] - obs[W_BND + lo]


@kernel_njit()
def runs_now(obs, p):
    """runs(p) from the analysis (0 once finished)."""
    if obs[O_DONE + p]:
        return 0
    lo, hi = window(obs, p, obs[W_PA] if p == 0 else obs[W_PB])
    return runs_window(obs, lo, hi)


@kernel_njit()
def _new_land(obs, m, x):
    for i in range(m):
        if obs[W_MPOS + i] == x:
            return obs[W_MLAND + i]
    return obs[W_LAND + x]


@kernel_njit()
def runs_modified(obs, lo, hi, m):
    """runs of window [lo, hi] after the m sequence positions W_MPOS (ascending) get lands W_MLAND (-1: deleted)."""
    if lo > hi:
        return 0
    cnt = hi - lo + 1
    d = 0
    i = 0
    while i < m:
        a = obs[W_MPOS + i]
        b = a
        i += 1
        while i < m and obs[W_MPOS + i] == b + 1:
            b += 1
            i += 1
        x0 = max(a - 1, lo)
        x1 = min(b + 1, hi)
        last = -1
        for x in range(x0, x1 + 1):
            land = obs[W_LAND + x]
            if last != -1 and land != last:
                d -= 1
            last = land
        last = -1
        for x in range(x0, x1 + 1):
            land = _new_land(obs, m, x)
            if land == -1:
                cnt -= 1
                continue
            if last != -1 and land != last:
                d += 1
            last = land
    if cnt <= 0:
        return 0
    return 1 + obs[W_BND + hi] - obs[W_BND + lo] + d


@kernel_njit()
def runs_inserted(obs, lo, hi, k, x, y):
    """runs of window [lo, hi] after lands x, y are inserted between sequence positions k and k+1."""
    if k < lo - 1 or k > hi:
        return runs_window(obs, lo, hi)
    if lo > hi:
        return 1 if x == y else 2
    b = obs[W_BND + hi] - obs[W_BND + lo]
    left = obs[W_LAND + k] if k >= lo else -1
    right = obs[W_LAND + k + 1] if k + 1 <= hi else -1
    if left != -1 and right != -1 and left != right:
        b -= 1
    if left != -1 and left != x:
        b += 1
    if x != y:
        b += 1
    if right != -1 and y != right:
        b += 1
    return 1 + b


@kernel_njit()
def card_side(obs, c, side):
    return obs[O_CARD_LAND + 2 * c + side]


@kernel_njit()
def _put(obs, m, f, land):
    """Record that real field f gets `land` (-1: deleted), keeping W_MPOS ascending."""
    x = obs[W_RIDX + f] - 1
    i = m
    while i > 0 and obs[W_MPOS + i - 1] > x:
        obs[W_MPOS + i] = obs[W_MPOS + i - 1]
        obs[W_MLAND + i] = obs[W_MLAND + i - 1]
        i -= 1
    obs[W_MPOS + i] = x
    obs[W_MLAND + i] = land
    return m + 1


@kernel_njit()
def edit_mods(obs, action):
    """The sequence changes of a rotate, remove, swap or slide play (RACE-27..30) into W_MPOS/W_MLAND; returns
    their number. Needs analyze(obs)."""
    opt = play_head(action) - H_OPTION
    a = play_a(action)
    b = play_b(action)
    fa = obs[O_CARD_FA + a]
    fb = obs[O_CARD_FB + a]
    r = obs[O_CARD_ROT + a]
    m = 0
    main = obs[O_CARD_LOC + a] == LOC_MAIN
    s = obs[O_COL_SHIFT + obs[O_F_COL + fa] - 1] if main else HOME
    if opt == OPT_ROTATE:
        if s == HOME:
            m = _put(obs, m, fa, card_side(obs, a, 1 - r))
            m = _put(obs, m, fb, card_side(obs, a, r))
        elif s == SHIFT_A:
            m = _put(obs, m, fa, card_side(obs, a, r))
        else:
            m = _put(obs, m, fb, card_side(obs, a, 1 - r))
    elif opt == OPT_REMOVE:
        if s != SHIFT_B:
            m = _put(obs, m, fa, -1)
        if s != SHIFT_A:
            m = _put(obs, m, fb, -1)
    elif opt == OPT_SWAP:
        ga = obs[O_CARD_FA + b]
        gb = obs[O_CARD_FB + b]
        r2 = obs[O_CARD_ROT + b]
        if not main and obs[O_F_LANE + fa] != obs[O_F_LANE + ga]:
            r ^= 1
            r2 ^= 1
        m = _put(obs, m, fa, card_side(obs, b, r2))
        m = _put(obs, m, fb, card_side(obs, b, 1 - r2))
        m = _put(obs, m, ga, card_side(obs, a, r))
        m = _put(obs, m, gb, card_side(obs, a, 1 - r))
    elif opt == OPT_SLIDE:
        if b == LANE_A:
            m = _put(obs, m, fa, card_side(obs, a, 1 - r))
            m = _put(obs, m, fb, -1)
        else:
            m = _put(obs, m, fa, -1)
            m = _put(obs, m, fb, card_side(obs, a, r))
    return m


@kernel_njit()
def _bd(obs, lo, hi, x, nl, xp, npl, xn):
    """Boundary change at position x (new land nl) in window [lo, hi]: its left boundary (with the previous changed
    position xp/npl when adjacent) and its right one unless the next changed position xn is adjacent."""
    d = 0
    old = obs[W_LAND + x]
    if x - 1 >= lo and x <= hi:
        left = obs[W_LAND + x - 1]
        newleft = npl if xp == x - 1 else left
        d += int(nl != newleft) - int(old != left)
    if x >= lo and x + 1 <= hi and xn != x + 1:
        right = obs[W_LAND + x + 1]
        d += int(nl != right) - int(old != right)
    return d


@kernel_njit()
def _relabel_runs(obs, lo, hi, x0, n0, x1, n1, x2, n2, x3, n3):
    """runs of window [lo, hi] after up to four distinct positions x0 < x1 < x2 < x3 (-1: unused, at the end) get
    new lands; no field is deleted (rotate, swap)."""
    if lo > hi:
        return 0
    d = _bd(obs, lo, hi, x0, n0, -9, -1, x1)
    if x1 >= 0:
        d += _bd(obs, lo, hi, x1, n1, x0, n0, x2)
    if x2 >= 0:
        d += _bd(obs, lo, hi, x2, n2, x1, n1, x3)
    if x3 >= 0:
        d += _bd(obs, lo, hi, x3, n3, x2, n2, -9)
    return 1 + obs[W_BND + hi] - obs[W_BND + lo] + d


@kernel_njit()
def _relabel(obs, m):
    """(runs(α), runs(β)) after the land changes in W_MPOS/W_MLAND (m <= 4, no deletions)."""
    x0 = obs[W_MPOS]
    n0 = obs[W_MLAND]
    x1 = obs[W_MPOS + 1] if m > 1 else -1
    n1 = obs[W_MLAND + 1]
    x2 = obs[W_MPOS + 2] if m > 2 else -1
    n2 = obs[W_MLAND + 2]
    x3 = obs[W_MPOS + 3] if m > 3 else -1
    n3 = obs[W_MLAND + 3]
    ra = 0 if obs[O_DONE] else _relabel_runs(obs, obs[W_PA] + 1, obs[W_L] - 1, x0, n0, x1, n1, x2, n2, x3, n3)
    rb = 0 if obs[O_DONE + 1] else _relabel_runs(obs, 0, obs[W_PB] - 1, x0, n0, x1, n1, x2, n2, x3, n3)
    return ra, rb


@kernel_njit()
def runs_after_edit(obs, action):
    """(runs(α), runs(β)) after a back-1, rotate, remove, swap or slide play by seat obs[O_SEAT] (needs analyze)."""
    pa = obs[W_PA]
    pb = obs[W_PB]
    L = obs[W_L]
    if play_head(action) - H_OPTION == OPT_BACK1:  # RACE-26: the opponent's window grows by one field
        if obs[O_SEAT] == 0:
            return runs_now(obs, 0), (0 if obs[O_DONE + 1] else runs_window(obs, 0, pb))
        return (0 if obs[O_DONE] else runs_window(obs, pa, L - 1)), runs_now(obs, 1)
    m = edit_mods(obs, action)
    opt = play_head(action) - H_OPTION
    if opt == OPT_ROTATE or opt == OPT_SWAP:
        return _relabel(obs, m)
    ra = 0 if obs[O_DONE] else runs_modified(obs, pa + 1, L - 1, m)
    rb = 0 if obs[O_DONE + 1] else runs_modified(obs, 0, pb - 1, m)
    return ra, rb


@kernel_njit()
def placement_k(obs, f):
    """Sequence position after which a detour linked after record f lies."""
    return obs[W_RIDX + f] - 1


@kernel_njit()
def free_placement_exists(obs, s):
    """§9: a placement behind seat s's raven and ahead of the opponent's (needs analyze)."""
    pa = obs[W_PA]
    pb = obs[W_PB]
    for lane in range(2):
        for j in range(1, obs[O_N_COLS]):
            end = seg_end(lane, j)
            f = seg_start(lane, j)
            while True:
                k = placement_k(obs, f)
                a0 = obs[O_DONE] == 0 and k >= pa
                a1 = obs[O_DONE + 1] == 0 and k < pb
                if (a1 and not a0) if s == 0 else (a0 and not a1):
                    return True
                g = obs[O_F_NEXT + f]
                if g == end:
                    break
                f = obs[O_F_NEXT + g]
    return False


# ---- shared heuristic pieces (§9) ------------------------------------------------------------------------------------

@kernel_njit()
def at_fin(obs, p, idx):
    return idx == obs[W_L] - 1 if p == 0 else idx == 0


@kernel_njit()
def flight_end(obs, p, idx, land):
    """Sequence index after a flight of `land` (RACE-20) from idx (the run may be empty)."""
    if p == 0:
        L = obs[W_L]
        k = idx + 1
        while k < L and obs[W_LAND + k] == land:
            k += 1
        return k - 1
    k = idx - 1
    while k >= 0 and obs[W_LAND + k] == land:
        k -= 1
    return k + 1


@kernel_njit()
def runner_step(obs, s, idx, hand, pile_avail, r3):
    """§9 runner step for seat s at sequence index idx with the hand at obs[hand:hand+10]: R1 flight, R2 forward-1,
    R3 take-2 (if r3 and a pile is available), R4 joker. Returns the encoded play or STOP (needs analyze)."""
    L = obs[W_L]
    nk = idx + 1 if s == 0 else idx - 1
    if nk < 0 or nk >= L:
        return STOP
    m = obs[W_LAND + nk]
    if obs[hand + m] > 0:
        return play_flight(m)
    if obs[hand + MAX_LANDS + K1] > 0:
        return play_option(OPT_FORWARD1)
    if r3 and obs[hand + MAX_LANDS + K4] > 0 and pile_avail:
        return play_option(OPT_TAKE2)
    best = -1
    best_c = 0
    best_first = 0
    n_ahead = L - 1 - idx if s == 0 else idx
    for x in range(obs[O_RULES + R_LANDS]):
        c = obs[hand + x]
        if c < 2:
            continue
        first = n_ahead
        for t in range(n_ahead):
            if obs[W_LAND + (idx + 1 + t if s == 0 else idx - 1 - t)] == x:
                first = t
                break
        if best < 0 or c > best_c or (c == best_c and first > best_first):
            best, best_c, best_first = x, c, first
    return STOP if best < 0 else play_joker(best)


@kernel_njit()
def apply_move(obs, s, idx, hand, action):
    """Plan a flight, joker or forward-1 on the sequence and the hand copy at `hand`; returns (new index, moved)."""
    head = play_head(action)
    x = play_a(action)
    nk = idx + 1 if s == 0 else idx - 1
    if head == H_FLIGHT:
        obs[hand + x] -= 1
        new = flight_end(obs, s, idx, x)
    elif head == H_JOKER:
        obs[hand + x] -= 2
        if obs[O_RULES + R_OSPREY]:
            new = flight_end(obs, s, idx, obs[W_LAND + nk])
        else:
            new = nk
    else:
        obs[hand + MAX_LANDS + K1] -= 1
        new = nk
    return new, (new - idx if s == 0 else idx - new)


@kernel_njit()
def copy_hand(obs):
    for i in range(HAND_SIZE):
        obs[W_HAND + i] = obs[O_HAND + i]


@kernel_njit()
def own_index(obs, s):
    return obs[W_PA] if s == 0 else obs[W_PB]


@kernel_njit()
def any_pile(obs, s):
    fl, ac = piles_available(obs, s)
    return fl or ac
