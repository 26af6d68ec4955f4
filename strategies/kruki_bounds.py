"""Crows (`kruki`) blocker and weighted: an upper bound on J of a (cell, shiny) option, so that stage 2 values in full
only the options that can still reach the best J (KRUKI-40/41; docs/decisions.md, "Crows stage 2 bounds J").

J = v1 - lambda * Opp (blocker) or v1 + w4 * Opp (weighted) falls as Opp rises whenever the opponents' weight lowers
J (`opp_lowers_j`), so a lower bound on Opp(β) bounds J from above. Opp is the mean of W_q: V_q for an opponent with a
shiny, B(β) for one still to move. Putting the own shiny on s changes the flight of the crow groups that see s, and
of no other group (KRUKI-26: a group's rays stop at the first gap or shiny), and it can only take crows away from
another shiny, real or a probe: s is nearer (all of the group goes to s), ties (the split grows, or Trinkets take
it), or stands between the group and the other shiny; and only a group that sees s no farther than its nearest
shiny changes its flight (`kruki_cells._changed_groups`). So after the own shiny on s
- the crows arriving at opponent q's shiny t are at least those arriving with the tile alone, less the crows of
  those groups on a row or column of t (only those can see t);
- a probe on a legal shiny tile t (t != s) receives at least what it receives with the tile alone, less the same
  count of those groups, so B(β) is at least the best such bound over the legal shiny tiles.
Points are monotone in the crows (doubling, the cap), so the points of these counts bound V_q and B(β) from below.
The bound never removes an option that can tie the best J: stage 2 skips an option only when its bound is strictly
below the best J found so far (or below the bar the caller needs), so the best J, its ties and the draw are those of
the full valuation. When no opponent's shiny and no probe that decides B(β) can lose a crow to s, the lower bounds
are the values themselves, and stage 2 takes the bound as J (the same sums in the same order as the full valuation).
"""
from sim.jit import kernel_njit
from sim.games.kruki.model import row_of, score_points
from sim.games.kruki.obs import O_PLAYERS, O_SEAT, O_SHINY_OF
from sim.games.kruki.rules import GAP, GRAVEYARD, JUNK, MAX_PLAYERS
from strategies.kruki_common import DROP_PLANE, nearest_cached, opp_value, waiting_opponents, with_opp


@kernel_njit(inline="always")
def sort_touched(work, K, Cr, Sh, St, a, c, ng, cap, w_tl, w_tv):
    """The legal shiny tiles that the hypothetical tile on c touched (its touched list; c < 0: none), with the points
    of a probe there on β = the board + the tile, best first, into work[w_tv:] (count, then (cell, points) pairs).
    Once per cell; `b_lower` then reads them best first beside `b_order`."""
    n = 0
    if c >= 0:
        for i in range(1, work[w_tl] + 1):
            t = work[w_tl + i]
            if K[t] == JUNK or Cr[t] != 0 or Sh[t] >= 0:
                continue
            v = score_points(K[t], St[t], ng, cap, (work[t] if t != c else 0) + work[a + t])  # gain0 + delta
            j = n
            while j > 0 and work[w_tv + 2 * j] < v:  # insertion sort, best first
                work[w_tv + 2 * j + 1] = work[w_tv + 2 * j - 1]
                work[w_tv + 2 * j + 2] = work[w_tv + 2 * j]
                j -= 1
            work[w_tv + 2 * j + 1] = t
            work[w_tv + 2 * j + 2] = v
            n += 1
    work[w_tv] = n


@kernel_njit(inline="always")
def _crows_in_line(work, side, t, n_lose, w_rc):
    """The crows of the groups that may lose crows to s (at w_rc: row, column, crows) on a row or column of t. Summed
    without a branch on which groups share a line with t: that branch follows the board and was mispredicted often
    enough to make this loop a tenth of `kruki_cells._scan_c`'s time."""
    y = row_of(side, t)
    x = t - y * side
    total = 0
    for j in range(n_lose):
        total += work[w_rc + 3 * j + 2] * ((work[w_rc + 3 * j] == y) | (work[w_rc + 3 * j + 1] == x))
    return total


@kernel_njit(inline="always")
def _b_lower(work, K, St, side, a, c, s, ng, cap, n_seen, w_rc, w_tv, w_bord, w_bval):
    """(A lower bound on B(β) after the own shiny on s, whether it is B(β) itself): the tiles the hypothetical tile
    touched (`sort_touched`) and the untouched legal shiny tiles of `b_order`, each best first, until no later one
    can raise it. A probe that loses no crow to s keeps its points exactly, and the own shiny never raises a probe's
    points, so the bound is exact unless a probe that may lose crows had more points with the tile alone."""
    lb = 0
    unsure = 0  # the most points with the tile alone of a probe whose points the bound does not know
    for i in range(work[w_tv]):
        t = work[w_tv + 2 * i + 1]
        v = work[w_tv + 2 * i + 2]
        if v <= lb:
            break
        if t == s:
            continue
        lost = _crows_in_line(work, side, t, n_seen, w_rc)
        if lost == 0:
            lb = v
            break
        unsure = max(unsure, v)
        n = (work[t] if t != c else 0) + work[a + t] - lost
        lb = max(lb, score_points(K[t], St[t], ng, cap, max(n, 0)))
    for k in range(work[w_bord]):
        t = work[w_bord + 1 + k]
        v = work[w_bval + k]
        if v <= lb:
            break
        if t == s or work[4 * a + t] != 0:  # touched by the tile: above
            continue
        lost = _crows_in_line(work, side, t, n_seen, w_rc)
        if lost == 0:
            lb = v
            break
        unsure = max(unsure, v)
        lb = max(lb, score_points(K[t], St[t], ng, cap, max(work[t] - lost, 0)))
    return lb, unsure <= lb


@kernel_njit(inline="always")
def _rows_cols_crows(work, Cr, side, gs, n_seen, w_rc):
    """The row, column and crows of each of the n_seen groups at work[gs:], into work[w_rc:] (3 ints each)."""
    for j in range(n_seen):
        x = work[gs + j]
        y = row_of(side, x)
        work[w_rc + 3 * j] = y
        work[w_rc + 3 * j + 1] = x - y * side
        work[w_rc + 3 * j + 2] = Cr[x]


@kernel_njit(inline="always")
def j_upper(obs, params, mode, work, K, Cr, St, side, a, c, s, v1, gs, n_seen, row, need_b, ng, cap, w_rc, w_tv,
            w_bord, w_bval, w_lb, bar):
    """(An upper bound on J of the option (tile on c, own shiny on s >= 0) with stage-1 value v1, whether it is J
    itself). The groups whose flight s changes on β are the n_seen at work[gs:] (`kruki_cells._changed_groups`), with
    their rows, columns and crows at w_rc. The crows arriving at each seat's shiny with the tile alone are at `row`.
    The lower bounds of the arrivals go to the row at w_lb, and Opp is valued on them as on any position
    (`opp_value`). Where no opponent's shiny and no probe that counts can lose a crow to s, the bounds
    are the values themselves, so the bound is J, computed as the full valuation computes it. bar: when the bound
    with B(β) at 0 (B >= 0) is already below it, that bound is returned without bounding B(β)."""
    _rows_cols_crows(work, Cr, side, gs, n_seen, w_rc)
    me = obs[O_SEAT]
    exact = True
    for q in range(obs[O_PLAYERS]):
        t = obs[O_SHINY_OF + q]
        if q != me and t >= 0:
            lost = _crows_in_line(work, side, t, n_seen, w_rc)
            exact = exact and lost == 0
            work[w_lb + q] = max(work[row + q] - lost, 0)
    b_low = 0
    if need_b:  # an opponent still to move
        ub = with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, work[w_lb:], 0))
        if ub < bar:
            return ub, False
        b_low, b_exact = _b_lower(work, K, St, side, a, c, s, ng, cap, n_seen, w_rc, w_tv, w_bord, w_bval)
        exact = exact and b_exact
    return with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, work[w_lb:], b_low)), exact


@kernel_njit(inline="always")
def junk_drop(obs, work, K, Cr, Sh, St, Fr, side, a, c, w_sent, w_rays, ng):
    """`junk_drop_sum` of c over the opponents' count: the most the tile lowers Opp, their mean. The drop plane keeps
    each gap's sum for the board setup's mark (`kruki_cells._board_setup`): the tile-source step takes it for every
    frontier gap, the cell decision that follows on the same board for the cells it scans."""
    at = DROP_PLANE * a
    kept = work[at + c]
    if (kept >> 16) == work[at]:
        total = kept & 0xFFFF
    else:
        total = junk_drop_sum(obs, work, K, Cr, Sh, St, Fr, side, a, c, w_sent, w_rays, ng)
        if total < 1 << 16:
            work[at + c] = (work[at] << 16) | total
    return total / (obs[O_PLAYERS] - 1)


@kernel_njit(inline="always")
def junk_drop_sum(obs, work, K, Cr, Sh, St, Fr, side, a, c, w_sent, w_rays, ng):
    """An upper bound on Opp(β) - Opp(β + a Junk on the gap c), for β = the board as it stands with the own shiny on any
    legal tile (or none): the most a Junk on c can lower Opp, summed over the opponents before the mean. A Junk on a gap
    raises no shiny's or probe's crows (KRUKI-26): it only lets the rays of the groups that see c run on past it, and
    what they then send that way stops on it. So a group loses crows only if its ray past c finds a shiny there, a real
    one or the own one (the arm of c beyond it holds a shiny or a legal shiny tile before its gap), no farther than its
    nearest shiny now (the ray cache at w_rays; the own shiny only brings that nearer), so that the shiny past c is
    among its nearest. Each such group loses at most what it sent before: an opponent's shiny t at most the crows the
    group sends it on the board as it stands (`kruki_cells._base_shares`; the own shiny only takes crows away), doubled
    where t doubles; a probe at most the crows of those groups in line with it that could reach it before: on c's row or
    column only the groups on its own side of c (the gap c hid it from the others), elsewhere at most one group of c's
    row and one of its column. So B(β) falls by at most the most crows on one arm, or the largest group of each line
    together, doubled while graveyards count. Returns the sum over the opponents, before their mean."""
    players = obs[O_PLAYERS]
    beyond = 0  # byte i: how far from c arm i holds its first shiny or legal shiny tile (at most 254; 255: none)
    for i in range(4):
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        x = c + d
        k = 1
        while K[x] != GAP and not (Sh[x] >= 0 or (K[x] != JUNK and Cr[x] == 0)):
            x += d
            k += 1
        beyond |= (min(k, 254) if K[x] != GAP else 255) << (8 * i)
    shiny_loss = 0
    arm_most = 0  # the most crows on one arm of c whose groups can lose any
    row_group = 0  # the largest such group on c's row (arms E, W), and on its column (N, S)
    col_group = 0
    for i in range(4):
        far = (beyond >> (8 * ((i + 2) & 3))) & 255  # the groups on arm i look past c along the opposite arm
        if far == 255:
            continue
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        x = c + d
        k = 1
        arm = 0
        while K[x] != GAP and Sh[x] < 0:
            n = Cr[x]
            if n > 0 and Fr[x] == 0 and k + far <= nearest_cached(work, w_rays, a, x):
                arm += n
                if i & 1:
                    row_group = max(row_group, n)
                else:
                    col_group = max(col_group, n)
                at = w_sent + MAX_PLAYERS * (-work[5 * a + x] - 1)
                for q in range(players):
                    sent = work[at + q]
                    if sent > 0:
                        t = obs[O_SHINY_OF + q]
                        shiny_loss += score_points(K[t], St[t], ng, 0, sent)
            x += d
            k += 1
        arm_most = max(arm_most, arm)
    if arm_most == 0:
        return 0
    probe_loss = score_points(GRAVEYARD, 0, ng, 0, max(arm_most, row_group + col_group))
    return shiny_loss + waiting_opponents(obs) * probe_loss
