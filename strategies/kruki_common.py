"""Crows (`kruki`) heuristics, the parts every decision shares: the scratch layout, the board planes of the
observation, and the values of a hypothetical position β (docs/rules/kruki.md §9 common definitions; the reference's
`_Eval`): V_me (`stage1_value`), B(β) and Opp(β) (`final_value`).
"""
import numpy as np

from sim.jit import kernel_njit
from sim.games.kruki.model import (arrivals_at, div_small, gain_all, others_cached, probe_share_lost, row_of,
                                   score_points)
from sim.games.kruki.obs import (BLOCKER, GREEDY, O_AT_KIND, O_AT_OPT_A, O_AT_TILES, O_MOVED, O_N_OPTIONS,
                                 O_N_TILES, O_PLAYERS, O_ROUND, O_RULES, O_SEAT, O_SHINY_OF, O_SIDE, PL_CROWS,
                                 PL_FROZEN, PL_KIND, PL_SHINY, PL_STONES, R_CROWS, R_TILES_EMPTY, WEIGHTED)
from sim.games.kruki.rules import EMPTY, JUNK, MAX_PLAYERS, N_KINDS, STRATEGIES

# Strategy parameter columns: the order of StrategyInfo.params in rules.STRATEGIES.
_COL = {s.name: {p: i for i, p in enumerate(s.params)} for s in STRATEGIES}
P_JUNK_MARGIN = _COL["greedy"]["junk_margin"]
P_LAMBDA, P_SLACK, P_B_JUNK_MARGIN = (_COL["blocker"][p] for p in ("lambda", "slack", "junk_margin"))
P_W1, P_W2, P_W3, P_W4, P_W5, P_W_SLACK = (_COL["weighted"][p] for p in ("w1", "w2", "w3", "w4", "w5", "slack"))


# Scratch: `work` int32 (work_len) = eight side*side planes — gain0 (new-shiny arrivals on the board as it stands) |
# delta (their change after a hypothetical tile) | gainB (B(β) inside Opp, computed in full) | flag (TWO_CROWS
# shortcut) | mark (cells in the touched list) | gid (1 + stage-1 group of a legal shiny, -(1 + ray-cache index) of a
# crow group, else 0) | memo (per legal shiny s: 1 + the offset of its shiny record in the memo pool, -1 when the
# pool had no room, 0 not yet made) | drop (per gap: the board setup's mark, kept at cell 0, times 2^16 plus the
# numerator of its `kruki_bounds.junk_drop`, once computed on that board; older marks elsewhere); delta and mark are
# zero between uses, gid and memo hold the kept board's values (`kruki_cells._board_setup`) or zero —
# then per-cell tie counts, per-cell preferences, affected groups, legal shinies, legal shinies after a cell, scatter
# log, save area, extended groups, the touched list (count, then cells), per group: size, touched members,
# preference, and the sorted shinies, then the ray cache (8 per crow group), the legal shinies by their B value,
# best first (count, then cells), and those values, then three rows of
# the crows arriving at each seat's shiny (by seat): on the board as it stands, after a hypothetical change, after a
# second one (tile, then shiny), the cells in the order stage 2 values them, then the memo pool (words used, then the
# shiny records of `kruki_cells._memo`), then the legal shinies a hypothetical tile touched, by their B value with the
# tile, best first (count, then (cell, value) pairs: `kruki_bounds`), then per crow group (by its ray-cache index)
# the crows it sends to each seat's shiny on the board as it stands (`kruki_cells._base_shares`), then the tied
# best shinies of the cell a cell decision chose, kept for the shiny decision that follows (`kruki_cells.kept_shiny`),
# then per cell of a decision the offset of its saved tile change in the pool that follows (-1: not saved), and that
# pool (per cell: its touched list's count, the arms that see the cell, the count and the groups its tile re-plans,
# then (cell, delta) pairs of its touched list: `kruki_cells._save_cell`), then the token
# candidates tied at the best of the last token scan, in its order (kind, a, b, d each: `kruki_tokens._token_scan`),
# then the stamp of the board whose setup the planes and areas above hold (tag, stamp, legal shiny count, tile count,
# then its tiles: `kruki_cells._board_setup`);
# `fwork` float64 (fwork_len) = per-cell best J, the values of the 7 tile kinds (tile-draft pool), per-shiny and
# per-group stage-1 values, then per cell of a decision the best stage-1 value of its options but those whose shiny
# its tile leaves untouched (`kruki_cells.placements`, at fwork_len - F_PROXY - mc), then the draw proxy's best J and
# best stage-1 value on the board of the kept setup (`kruki_cells.keep_proxy`, at fwork_len - F_PROXY and the word
# after it: -1e300 when not valued there), then the token step's kept best TWO_CROWS value (the last word).
N_WORK_PLANES = 8  # the side*side planes at the start of work
F_PROXY = 3  # the draw proxy's best J is fwork[fwork_len - F_PROXY], its best stage-1 value the word after
MEMO_PLANE, DROP_PLANE = 6, 7
MEMO_RECORDS = 32  # shiny records the pool holds at their largest size; typical records are a tenth of that
TOKEN_TIES = 256  # the token candidates tied at the best that a token scan lists (4 ints each); more are counted only
CELL_POOL_WORDS = 16  # the pool of the cells' saved tile changes holds 16 * (n + 4) words (about eight of the largest)
KEPT_HEADER = 10  # a kept choice: its tag and stamp (8 ints), then the count and the tied shinies (or none)
KEPT_SHINIES, KEPT_PAIRS = 1, 2  # the tags: the cell decision's tied shinies, the token step's TWO_CROWS ties
KEPT_BOARD = 3  # the tag of the board's setup kept for the next `placements` of the turn (`kruki_cells._board_setup`)


@kernel_njit(inline="always")
def memo_record_max(n):
    """The largest shiny record for n tiles in the game: count and groups that see s, the arrivals change per seat,
    and B with s and no tile and its probe (`kruki_cells._memo`)."""
    return 3 + n + MAX_PLAYERS


@kernel_njit(inline="always")
def work_layout(side, n, crows):
    """Offsets into work and fwork for n tiles in the game (see above); the last two are their lengths."""
    a = side * side
    mc = 4 * n + 10
    w_cnt = N_WORK_PLANES * a
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
    w_bord = w_rays + 8 * (n + 2)
    w_bval = w_bord + n + 3
    w_arr = w_bval + n + 2
    w_ord = w_arr + 3 * MAX_PLAYERS
    w_memo = w_ord + mc
    f_kind = mc
    f_grp = f_kind + 8  # per-shiny values | per-group values, n + 2 each
    w_tv = w_memo + 1 + MEMO_RECORDS * memo_record_max(n)
    w_sent = w_tv + 1 + 2 * (n + 4)
    w_kept = w_sent + MAX_PLAYERS * (n + 2)
    w_csave = w_kept + KEPT_HEADER + n + 2
    w_pool = w_csave + mc
    w_tties = w_pool + CELL_POOL_WORDS * (n + 4)
    w_board = w_tties + 4 * TOKEN_TIES
    return (a, mc, w_cnt, w_pref, w_aff, w_ls, w_ls2, w_log, w_save, w_ext, w_tl, w_grp, w_rays, f_kind, f_grp,
            w_bord, w_bval, w_arr, w_ord, w_memo, w_tv, w_sent, w_kept, w_csave, w_pool, w_tties, w_board,
            w_board + KEPT_HEADER + n,
            f_grp + 2 * (n + 2) + mc + 3)


@kernel_njit()
def stamp_turn(obs, rng, work, at, n_tiles, tag):
    """Write (the stream state in four 16-bit parts, seat, round, n_tiles tiles on the board) at work[at + 1:at + 8],
    and return whether the same stamp was there under the tag work[at] == tag. A decision that keeps what the next
    decision of its turn would compute again stamps it (the cell decision its tied shinies, with the tiles there
    will be once its tile lies; the token step its TWO_CROWS ties), and the next decision compares. No draw happens
    between the two decisions of one turn, and every game has its own stream, so the state names the turn: what was
    kept in any other turn, this game's or an earlier game's in the same scratch, cannot match."""
    same = work[at] == tag
    for k in range(4):
        part = np.int64((rng[0] >> np.uint64(16 * k)) & np.uint64(0xFFFF))
        same = same and work[at + 1 + k] == part
        work[at + 1 + k] = part
    same = same and work[at + 5] == obs[O_SEAT] and work[at + 6] == obs[O_ROUND] and work[at + 7] == n_tiles
    work[at + 5] = obs[O_SEAT]
    work[at + 6] = obs[O_ROUND]
    work[at + 7] = n_tiles
    return same


@kernel_njit(inline="always")
def tiles_in_game(obs):
    """Tiles in the game (the rule vector's tile counts)."""
    n = 0
    for k in range(N_KINDS):
        n += obs[O_RULES + R_TILES_EMPTY + k]
    return n


@kernel_njit(inline="always")
def work_at(obs):
    return work_layout(obs[O_SIDE], tiles_in_game(obs), obs[O_RULES + R_CROWS])


@kernel_njit()
def work_len(n_total, side, crows):
    return work_layout(side, n_total, crows)[-2]


@kernel_njit()
def fwork_len(n_total, side, crows):
    return work_layout(side, n_total, crows)[-1]


@kernel_njit(inline="always")
def planes(obs):
    """(side, the five board planes K, Cr, Sh, St, Fr as views into the observation, the tile list, its length)."""
    side = obs[O_SIDE]
    a = side * side
    k0 = obs[O_AT_KIND]
    t0 = obs[O_AT_TILES]
    return (side, obs[k0 + PL_KIND * a:k0 + (PL_KIND + 1) * a], obs[k0 + PL_CROWS * a:k0 + (PL_CROWS + 1) * a],
            obs[k0 + PL_SHINY * a:k0 + (PL_SHINY + 1) * a], obs[k0 + PL_STONES * a:k0 + (PL_STONES + 1) * a],
            obs[k0 + PL_FROZEN * a:k0 + (PL_FROZEN + 1) * a], obs[t0:t0 + obs[O_N_TILES]], obs[O_N_TILES])


@kernel_njit()
def legal_shinies(K, Cr, Sh, tiles, n_tiles, out):
    """KRUKI-19 legal shiny tiles, raster order, into out; returns the count."""
    n = 0
    for i in range(n_tiles):
        t = tiles[i]
        if K[t] != JUNK and Cr[t] == 0 and Sh[t] < 0:
            out[n] = t
            n += 1
    return n


@kernel_njit()
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


@kernel_njit()
def b_order(work, K, St, w_ls, nls, w_bord, w_bval, ng, cap):
    """The legal shinies of the board as it stands by their B value (the points of a new shiny there, gain0 crows),
    best first: a hypothetical position then re-values only the cells it touched and takes the best of the others
    from here (`best_untouched`)."""
    gain0 = work[0:K.shape[0]]
    for i in range(nls):  # insertion sort, best first
        t = work[w_ls + i]
        v = score_points(K[t], St[t], ng, cap, gain0[t])
        j = i
        while j > 0 and work[w_bval + j - 1] < v:
            work[w_bord + 1 + j] = work[w_bord + j]
            work[w_bval + j] = work[w_bval + j - 1]
            j -= 1
        work[w_bord + 1 + j] = t
        work[w_bval + j] = v
    work[w_bord] = nls


@kernel_njit(inline="always")
def b_at(work, K, Cr, Sh, St, a, t, ng, cap, best):
    """max(best, the points of a new shiny on t in β) when t is a legal shiny tile of β: gain0 + delta crows there."""
    if K[t] != JUNK and Cr[t] == 0 and Sh[t] < 0:
        n = work[t] + work[a + t]
        v = score_points(K[t], St[t], ng, cap, n)
        if v > best:
            return v
    return best


@kernel_njit(inline="always")
def b_with_shiny(work, K, Cr, Sh, St, side, a, c, s, ng, cap, gs, n_changed, w_tv, w_bord, w_bval):
    """B(β) for β = the board as it stands + the hypothetical tile on c (c < 0: none; its change in the delta plane,
    its touched legal shinies best first at w_tv, `kruki_bounds.sort_touched`) + the own shiny on s (s < 0: none;
    Sh[s] set), whose flight changes are those of the n_changed groups at work[gs:]. The own shiny only takes crows
    away from a probe, and only through those groups on its row or column, so a probe's points with the tile alone
    bound its points on β from above: the probes are visited best bound first (the touched ones and the untouched ones
    of `b_order`, merged), each valued exactly (its arrivals with the tile, less what each of those groups sends it
    without s and no longer with s, `probe_share_lost`), until no bound left can beat the best value found.
    Returns (B, the first probe found with that value, or -1 when no probe has more than 0)."""
    best = 0
    best_t = -1
    i = 0
    k = 0
    n_tv = work[w_tv]
    n_b = work[w_bord]
    while True:
        while k < n_b and (work[w_bord + 1 + k] == s or work[4 * a + work[w_bord + 1 + k]] != 0):
            k += 1  # s is no probe; a touched one comes from the touched list
        while i < n_tv and work[w_tv + 2 * i + 1] == s:
            i += 1
        if i < n_tv and (k >= n_b or work[w_tv + 2 * i + 2] >= work[w_bval + k]):
            t = work[w_tv + 2 * i + 1]
            v = work[w_tv + 2 * i + 2]
            i += 1
        elif k < n_b:
            t = work[w_bord + 1 + k]
            v = work[w_bval + k]
            k += 1
        else:
            break
        if v <= best:
            break
        lost = 0
        for j in range(n_changed):
            x = work[gs + j]
            if in_line(side, x, t):
                lost += probe_share_lost(K, Sh, side, x, Cr[x], t, s)
        if lost != 0:
            v = score_points(K[t], St[t], ng, cap, (work[t] if t != c else 0) + work[a + t] - lost)
        if v > best:
            best = v
            best_t = t
    return best, best_t


@kernel_njit(inline="always")
def sent_to(m, d0, d1, d2, d3, n, target):
    """Crows a group of n with flight plan (m, d0..d3) sends to target (KRUKI-26)."""
    if m > 0 and (d0 == target or d1 == target or d2 == target or d3 == target):
        return div_small(n, m)
    return 0


@kernel_njit(inline="always")
def best_untouched(work, a, w_bord, w_bval, skip_a, skip_b, skip_c, best):
    """max(best, the B value of the best legal shiny of `b_order` that the change did not touch (the mark plane) and
    that is none of skip_a, skip_b, skip_c, the cells whose legality the change decides)."""
    for k in range(work[w_bord]):
        t = work[w_bord + 1 + k]
        if t != skip_a and t != skip_b and t != skip_c and work[4 * a + t] == 0:
            return max(best, work[w_bval + k])
    return best


@kernel_njit(inline="always")
def waiting_opponents(obs):
    """The opponents with no shiny that have not moved yet: W_q = B(β) for each of them."""
    me = obs[O_SEAT]
    n = 0
    for q in range(obs[O_PLAYERS]):
        if q != me and obs[O_SHINY_OF + q] < 0 and obs[O_MOVED + q] == 0:
            n += 1
    return n


@kernel_njit(inline="always")
def waiting_opponent(obs):
    """Whether an opponent has no shiny and has not moved yet: only then does Opp(β) need B(β)."""
    return waiting_opponents(obs) > 0


@kernel_njit(inline="always")
def nearest_cached(work, w_rays, a, x):
    """The distance of the nearest shiny of the crow group on x over its four rays, from the ray cache of the board as
    it stands (`gain_all_cached`; its index in the gid plane), or BIG when it sees none."""
    return others_cached(work, w_rays, -work[5 * a + x] - 1, -1)[0]


@kernel_njit()
def opponent_arrivals(obs, K, Cr, Sh, Fr, side, arr):
    """arr[q] = the crows on opponent q's shiny after a flight on the board as it stands (q with a shiny)."""
    me = obs[O_SEAT]
    for q in range(obs[O_PLAYERS]):
        s = obs[O_SHINY_OF + q]
        if q != me and s >= 0:
            arr[q] = arrivals_at(K, Cr, Sh, Fr, side, s)


@kernel_njit(inline="always")
def opp_value(obs, K, St, ng, cap, arr, bval):
    """Opp(β): the mean over the opponents q of W_q = V_q (q has a shiny, arr[q] crows arrive there), B(β) = bval (q
    has not moved yet) or 0."""
    me = obs[O_SEAT]
    players = obs[O_PLAYERS]
    total = 0
    for q in range(players):
        if q == me:
            continue
        s = obs[O_SHINY_OF + q]
        if s >= 0:
            total += score_points(K[s], St[s], ng, cap, arr[q])
        elif obs[O_MOVED + q] == 0:
            total += bval
    return total / (players - 1)


@kernel_njit(inline="always")
def stage1_value(mode, params, kind_s, stones_s, ng, cap, n, s, own, f3_ok, tokens_left):
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


@kernel_njit(inline="always")
def opp_lowers_j(mode, params):
    """Whether J <= v1 for every option of blocker or weighted: Opp >= 0 (points are never negative), so when its
    weight is -lambda <= 0 or w4 <= 0."""
    return params[P_LAMBDA] >= 0 if mode == BLOCKER else params[P_W4] <= 0


@kernel_njit(inline="always")
def in_line(side, x, t):
    """Whether cells x and t share a row or a column (both tests taken, `|`: one branch where the caller tests it, not
    a second one on the board that predicts badly)."""
    rx = row_of(side, x)
    rt = row_of(side, t)
    return (rx == rt) | ((x - t) == side * (rx - rt))


@kernel_njit(inline="always")
def v1_grows(mode, params):
    """Whether the stage-1 value never falls as the own shiny's crows rise: greedy's and blocker's V_me always;
    weighted's (w1 - w2) f1 + w2 V_me + w3 f3 + w5 f5 when w1 >= w2 >= 0 (f3 and f5 do not depend on the crows)."""
    return mode != WEIGHTED or params[P_W1] >= params[P_W2] >= 0


@kernel_njit(inline="always")
def with_opp(mode, params, v1, o):
    """J of blocker (v1 - lambda * Opp) and weighted (v1 + w4 * Opp)."""
    if mode == BLOCKER:
        return v1 - params[P_LAMBDA] * o
    return v1 + params[P_W4] * o


@kernel_njit()
def final_value(mode, params, v1, obs, work, K, Cr, Sh, St, Fr, side, tiles, n_tiles, extra, ng, cap):
    """J: greedy v1; blocker v1 - lambda * Opp; weighted v1 + w4 * Opp, with Opp(β) computed in full (the gainB
    plane and the first arrivals row of work)."""
    if mode == GREEDY:
        return v1
    a = side * side
    arr = work[work_at(obs)[17]:]  # w_arr
    opponent_arrivals(obs, K, Cr, Sh, Fr, side, arr)
    bval = _best_new_shiny(K, Cr, Sh, St, Fr, side, tiles, n_tiles, extra, work[2 * a:3 * a], ng, cap) \
        if waiting_opponent(obs) else 0
    return with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, arr, bval))


@kernel_njit()
def index_of(obs, value):
    at = obs[O_AT_OPT_A]
    for i in range(obs[O_N_OPTIONS]):
        if obs[at + i] == value:
            return i
    return 0
