"""Crows (`kruki`) heuristics: the token step and its target, pair and destination decisions (KRUKI-39 step 3,
KRUKI-40/41; the reference's token candidates, valued as J of the board after the token).
"""
from sim.jit import kernel_njit
from sim.rng import below
from sim.games.kruki.model import add_contrib, arrivals_at, div_small, flight_plan, gain_all, score_points
from sim.games.kruki.obs import (D_PAIR, D_TARGET, D_TOKEN, GREEDY, O_AT_OPT_A, O_AT_OPT_B, O_CTX_PAIR_A,
                                 O_CTX_PAIR_B, O_CTX_TOKEN, O_DECISION, O_N_OPTIONS, O_N_TILES, O_NO_GRAVEYARDS,
                                 O_PLAYERS, O_RULES, O_SEAT, O_SHINY_OF, O_SIDE, R_SCORE_CAP, R_TOKEN_KEEP)
from sim.games.kruki.rules import GAP, GRAVESTONES, MAX_PLAYERS, NO_FLOCKING, NO_GRAVEYARDS, TWO_CROWS
from strategies.kruki_common import (KEPT_PAIRS, TOKEN_TIES, b_at, b_order, best_untouched, final_value, in_line,
                                     index_of, legal_shinies, opp_lowers_j, opp_value, planes, sent_to, stage1_value,
                                     stamp_turn, v1_grows, waiting_opponent, with_opp, work_at)


# ---- tokens (KRUKI-39 step 3, KRUKI-40/41) -----------------------------------------------------------------------
@kernel_njit()
def _token_value(obs, params, mode, work, kind, ta, tb, td):
    """J of β = the board after the token (kind < 0: pass); the own shiny is already placed (or absent)."""
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
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
    v1 = _own_v1(mode, params, K, St, ng, cap, my, arrivals_at(K, Cr, Sh, Fr, side, my) if my >= 0 else 0)
    j = final_value(mode, params, v1, obs, work, K, Cr, Sh, St, Fr, side, tiles, n_tiles, -1, ng, cap)
    if kind == GRAVESTONES:
        St[ta] -= 1
    elif kind == NO_FLOCKING:
        Fr[ta] -= 1
    elif kind == TWO_CROWS:
        Cr[ta] += 1
        Cr[tb] += 1
        Cr[td] -= 2
    return j


@kernel_njit(inline="always")
def _own_v1(mode, params, K, St, ng, cap, my, n):
    """The stage-1 value of the own shiny on my with n crows arriving there (my < 0: no shiny this round)."""
    if my >= 0:
        return stage1_value(mode, params, K[my], St[my], ng, cap, n, my, 0, False, False)[0]
    return stage1_value(mode, params, 0, 0, ng, cap, 0, -1, 0, False, False)[0]


@kernel_njit()
def _static_value(obs, params, mode, work, kind):
    """`_token_value` of a token that moves no crow (kind < 0: pass; GRAVESTONES on the own shiny; NO_GRAVEYARDS) for
    blocker and weighted, from `_moves_base`: such a token changes points only, never a flight (KRUKI-26), so the
    crows arriving at every shiny and at every new shiny are those of the board as it stands. GRAVESTONES on the own
    shiny tile changes the own points only (the tile is no legal shiny, and no other shiny is on it), so B(β) is the
    best of `b_order`; NO_GRAVEYARDS changes every points value, so B(β) is taken again over the legal shinies. The
    same functions on the same integers as the full valuation, so the same J."""
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
    layout = work_at(obs)
    w_bord, w_bval, w_arr = layout[15], layout[16], layout[17]
    me = obs[O_SEAT]
    my = obs[O_SHINY_OF + me]
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    if kind == NO_GRAVEYARDS:
        ng = 1
    elif kind == GRAVESTONES:
        St[my] += 1
    v1 = _own_v1(mode, params, K, St, ng, cap, my, work[w_arr + me])
    bval = 0
    if waiting_opponent(obs):
        if kind == NO_GRAVEYARDS:
            for k in range(work[w_bord]):
                t = work[w_bord + 1 + k]
                bval = max(bval, score_points(K[t], St[t], ng, cap, work[t]))
        elif work[w_bord] > 0:
            bval = work[w_bval]
    j = with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, work[w_arr:], bval))
    if kind == GRAVESTONES:
        St[my] -= 1
    return j


@kernel_njit()
def _moves_base(obs, work):
    """What blocker's and weighted's tokens are valued against (`_moves_value`, `_static_value`): the arrival map
    gain0 of the board as it stands, its legal shinies by B value (`b_order`) and the crows arriving at every seat's
    shiny (the first arrivals row)."""
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
    layout = work_at(obs)
    w_ls, w_bord, w_bval, w_arr = layout[5], layout[15], layout[16], layout[17]
    gain_all(K, Cr, Sh, Fr, side, tiles, n_tiles, -1, work[0:side * side])
    nls = legal_shinies(K, Cr, Sh, tiles, n_tiles, work[w_ls:])
    b_order(work, K, St, w_ls, nls, w_bord, w_bval, obs[O_NO_GRAVEYARDS], obs[O_RULES + R_SCORE_CAP])
    for q in range(obs[O_PLAYERS]):
        s = obs[O_SHINY_OF + q]
        if s >= 0:
            work[w_arr + q] = arrivals_at(K, Cr, Sh, Fr, side, s)


@kernel_njit(inline="always")
def _moves_b_lower(work, K, St, side, w_x, nx, w_bord, w_bval, ng, cap):
    """A lower bound on B(β) after a crow-moving token, from `b_order`: a group that keeps its flight plan and loses
    k flying crows sends each of its targets at most k fewer (n // m falls by at most k), and only a tile on its row
    or column can be one of them; so a legal shiny t, none of the changed cells, still receives its gain0 crows less
    those lost in line with it. The best such bound, legal shinies best first until no later one can raise it. The
    changed cells (work[w_x:], 5 ints each, `_moves_value`) may turn legal or not; leaving them out only lowers it."""
    lb = 0
    for k in range(work[w_bord]):
        t = work[w_bord + 1 + k]
        v = work[w_bval + k]
        if v <= lb:
            break
        lost = 0
        changed = False
        for j in range(nx):
            x = work[w_x + 5 * j]
            changed |= x == t
            lost_x = work[w_x + 5 * j + 1] - work[w_x + 5 * j + 3]  # flying crows before - after
            if lost_x > 0 and in_line(side, x, t):
                lost += lost_x
        if changed:
            continue
        if lost == 0:
            return v
        lb = max(lb, score_points(K[t], St[t], ng, cap, max(work[t] - lost, 0)))
    return lb


@kernel_njit(inline="always")
def _undo_move(Cr, Fr, kind, ta, tb, td):
    """Take a crow-moving token back off the planes (`_moves_value` put it on)."""
    if kind == TWO_CROWS:
        Cr[ta] += 1
        Cr[tb] += 1
        Cr[td] -= 2
    else:
        Fr[ta] -= 1


@kernel_njit(inline="always")
def _moves_rough_upper(obs, params, mode, work, K, St, side, w_x, nx, w_arr, b_low, ng, cap):
    """An upper bound on J after a crow-moving token, before any flight plan is looked at (where the stage-1 value
    grows with the crows and the opponents' weight lowers J): a changed cell sends each shiny on its row or column at
    most the flying crows it gained more (or fewer, at most those it lost), and a shiny tile's own crows count in
    full. So the own shiny gets at most its crows now plus those gains, each opponent's at least its crows now less
    those losses, and B(β) is at least b_low. The third arrivals row holds the bounds."""
    me = obs[O_SEAT]
    row = w_arr + 2 * MAX_PLAYERS
    for q in range(obs[O_PLAYERS]):
        s = obs[O_SHINY_OF + q]
        if s < 0:
            continue
        change = 0
        for j in range(nx):
            at = w_x + 5 * j
            x = work[at]
            fly = work[at + 3] - work[at + 1]  # flying crows after - before
            if x == s:
                fly = work[at + 4] - work[at + 2]  # a shiny tile's crows stay and count
            elif not in_line(side, x, s):
                continue
            if q == me:
                change += max(fly, 0)
            else:
                change += min(fly, 0)
        work[row + q] = max(work[w_arr + q] + change, 0)
    my = obs[O_SHINY_OF + me]
    v1, p = stage1_value(mode, params, K[my], St[my], ng, cap, work[row + me], my, 0, False, False)
    return with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, work[row:], b_low))


@kernel_njit()
def _moves_value(obs, params, mode, work, kind, ta, tb, td, at_least):
    """`_token_value` of TWO_CROWS (ta, tb -> td) or NO_FLOCKING (on ta) for blocker and weighted, from `_moves_base`:
    such a token changes the crows (flying crows: not frozen, not on a shiny) of at most three cells and no flight
    plan (plans depend on the board and the shinies only, KRUKI-26), so the arrivals at each shiny change by those
    cells' shares and the new-shiny map by those cells' contributions (`add_contrib`); B(β) re-values the touched
    cells and takes the rest from `b_order`.
    at_least: only a value >= at_least matters. Where the opponents' weight lowers J, J with a lower bound on B(β)
    (`_moves_b_lower`) bounds it from above, and when that bound is below at_least it is returned without valuing
    B(β)."""
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
    a = side * side
    layout = work_at(obs)
    w_x, w_tl, w_bord, w_bval, w_arr = layout[4], layout[10], layout[15], layout[16], layout[17]
    me = obs[O_SEAT]
    my = obs[O_SHINY_OF + me]
    players = obs[O_PLAYERS]
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    nx = 0  # the changed cells: cell, flying crows before, crows before, after, after (5 ints each)
    for i in range(3 if kind == TWO_CROWS else 1):
        x = ta if i == 0 else (tb if i == 1 else td)
        if i == 1 and tb == ta:
            continue
        work[w_x + 5 * nx] = x
        work[w_x + 5 * nx + 1] = Cr[x] if Fr[x] == 0 and Sh[x] < 0 else 0
        work[w_x + 5 * nx + 2] = Cr[x]
        nx += 1
    if kind == TWO_CROWS:
        Cr[ta] -= 1
        Cr[tb] -= 1
        Cr[td] += 2
    else:
        Fr[ta] += 1
    for j in range(nx):
        x = work[w_x + 5 * j]
        work[w_x + 5 * j + 3] = Cr[x] if Fr[x] == 0 and Sh[x] < 0 else 0
        work[w_x + 5 * j + 4] = Cr[x]
    waiting = waiting_opponent(obs)
    bounded = opp_lowers_j(mode, params)
    b_low = 0
    if bounded and waiting:
        b_low = _moves_b_lower(work, K, St, side, w_x, nx, w_bord, w_bval, ng, cap)
    if bounded and v1_grows(mode, params) and my >= 0:  # a first bound, before any flight is looked at
        rough = _moves_rough_upper(obs, params, mode, work, K, St, side, w_x, nx, w_arr, b_low, ng, cap)
        if rough < at_least:
            _undo_move(Cr, Fr, kind, ta, tb, td)
            return rough
    for q in range(players):
        work[w_arr + MAX_PLAYERS + q] = work[w_arr + q]
    for j in range(nx):
        at = w_x + 5 * j
        x, f0, c0, f1, c1 = work[at], work[at + 1], work[at + 2], work[at + 3], work[at + 4]
        m, d0, d1, d2, d3 = flight_plan(K, Sh, side, x)
        for q in range(players):
            s = obs[O_SHINY_OF + q]
            if s >= 0:
                work[w_arr + MAX_PLAYERS + q] += sent_to(m, d0, d1, d2, d3, f1, s) - \
                    sent_to(m, d0, d1, d2, d3, f0, s) + (c1 - c0 if x == s else 0)
    v1 = _own_v1(mode, params, K, St, ng, cap, my, work[w_arr + MAX_PLAYERS + me])
    bval = 0
    bound = 1e300
    if bounded:
        bound = with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, work[w_arr + MAX_PLAYERS:], b_low))
    if bound >= at_least and waiting:
        delta = work[a:2 * a]
        mark = work[4 * a:5 * a]
        tl = work[w_tl:]
        for j in range(nx):
            x, f0, f1 = work[w_x + 5 * j], work[w_x + 5 * j + 1], work[w_x + 5 * j + 3]
            if f0 > 0:
                add_contrib(K, Sh, side, x, f0, -1, delta, True, mark, tl)
            if f1 > 0:
                add_contrib(K, Sh, side, x, f1, 1, delta, True, mark, tl)
        for i in range(1, tl[0] + 1):
            bval = b_at(work, K, Cr, Sh, St, a, tl[i], ng, cap, bval)
        for j in range(nx):
            bval = b_at(work, K, Cr, Sh, St, a, work[w_x + 5 * j], ng, cap, bval)
        bval = best_untouched(work, a, w_bord, w_bval, work[w_x], work[w_x + 5] if nx > 1 else -1,
                              work[w_x + 10] if nx > 2 else -1, bval)
        for i in range(1, tl[0] + 1):
            delta[tl[i]] = 0
            mark[tl[i]] = 0
        tl[0] = 0
    _undo_move(Cr, Fr, kind, ta, tb, td)
    if bound < at_least:
        return bound
    return with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, work[w_arr + MAX_PLAYERS:], bval))


@kernel_njit()
def _flags(obs, work, my, set_them):
    """Greedy's TWO_CROWS shortcut: flag[x] = m for every tile x on the own shiny's rows/columns whose group sends
    n // m crows to it (KRUKI-26 plans do not depend on n); set_them = False clears them again."""
    a = obs[O_SIDE] * obs[O_SIDE]
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
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


@kernel_njit(inline="always")
def _moved_share(flag, Cr, x, change):
    m = flag[x]
    if m == 0:
        return 0
    return div_small(Cr[x] + change, m) - div_small(Cr[x], m)


@kernel_njit()
def _token_scan(obs, params, mode, work, allow, pair_a, pair_b, key, target):
    """Enumerate the token candidates (kind, then target order, as the reference) allowed by the bit mask `allow`
    (TWO_CROWS restricted to the pair (pair_a, pair_b) when pair_a >= 0). Returns (best value, ties at it, kind, a,
    b, d of the target-th candidate valued `key` when target >= 0, else of the first candidate valued the best, and
    how many TWO_CROWS candidates are valued the best). When target < 0 the candidates tied at the best are also
    listed, in this order, at the token ties list (the first TOKEN_TIES of them, `_listed_tie`)."""
    a = obs[O_SIDE] * obs[O_SIDE]
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
    me = obs[O_SEAT]
    my = obs[O_SHINY_OF + me]
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    best = -1e300
    ties = 0
    ties_two = 0
    w_tties = work_at(obs)[25]
    prepared = False
    for kind in range(4):
        if (allow >> kind) & 1 == 0:
            continue
        if (kind == NO_GRAVEYARDS or kind == NO_FLOCKING) and mode == GREEDY:
            continue
        if (kind == GRAVESTONES or kind == TWO_CROWS) and my < 0:
            continue
        if mode != GREEDY and not prepared:
            _moves_base(obs, work)
            prepared = True
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
                if Cr[ta] <= 0 or (pair_a >= 0 and ta != pair_a):
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
                            v = _moves_value(obs, params, mode, work, TWO_CROWS, ta, tb, td,
                                             key if target >= 0 else best)
                        if target >= 0:
                            if v == key:
                                if ties == target:
                                    if fast:
                                        _flags(obs, work, my, False)
                                    return v, ties, TWO_CROWS, ta, tb, td, 0
                                ties += 1
                        elif v > best:
                            best, ties, ties_two = v, 1, 1
                            _list_tie(work, w_tties, 0, TWO_CROWS, ta, tb, td)
                        elif v == best:
                            _list_tie(work, w_tties, ties, TWO_CROWS, ta, tb, td)
                            ties += 1
                            ties_two += 1
            if fast:
                _flags(obs, work, my, False)
            continue
        n_t = 1 if kind != NO_FLOCKING else n_tiles
        for i in range(n_t):
            t = my if kind == GRAVESTONES else (tiles[i] if kind == NO_FLOCKING else -1)
            if kind == NO_FLOCKING and Cr[t] <= 0:
                continue
            if kind == NO_FLOCKING:
                v = _moves_value(obs, params, mode, work, kind, t, -1, -1, key if target >= 0 else best)
            elif mode != GREEDY:
                v = _static_value(obs, params, mode, work, kind)
            else:
                v = _token_value(obs, params, mode, work, kind, t, -1, -1)
            if target >= 0:
                if v == key:
                    if ties == target:
                        return v, ties, kind, t, -1, -1, 0
                    ties += 1
            elif v > best:
                best, ties, ties_two = v, 1, 0
                _list_tie(work, w_tties, 0, kind, t, -1, -1)
            elif v == best:
                _list_tie(work, w_tties, ties, kind, t, -1, -1)
                ties += 1
    k1, a1, b1, d1 = -1, -1, -1, -1  # the first candidate valued the best: the first listed
    if target < 0:
        k1, a1, b1, d1 = _listed_tie(work, w_tties, min(ties, TOKEN_TIES), 0, False)
    return best, ties, k1, a1, b1, d1, ties_two


@kernel_njit(inline="always")
def _list_tie(work, w_tties, i, kind, ta, tb, td):
    """Write the token candidate (kind, a, b, d) as the i-th tied at the best of a scan, if the list has room."""
    if i < TOKEN_TIES:
        at = w_tties + 4 * i
        work[at], work[at + 1], work[at + 2], work[at + 3] = kind, ta, tb, td


@kernel_njit()
def _listed_tie(work, w_tties, n_listed, i, two_crows_only):
    """(kind, a, b, d) of the i-th candidate among the first n_listed of the token ties list (`_token_scan`), or of
    its i-th TWO_CROWS one; kind -1 when that one is not among them."""
    for j in range(n_listed):
        at = w_tties + 4 * j
        if not two_crows_only or work[at] == TWO_CROWS:
            if i == 0:
                return work[at], work[at + 1], work[at + 2], work[at + 3]
            i -= 1
    return -1, -1, -1, -1


@kernel_njit()
def _token_pick(obs, params, mode, rng, work, fwork, allow, pair_a, pair_b):
    """The reference's `pick` over the token candidates: (value, kind, a, b, d, TWO_CROWS candidates valued the
    best, how many of the tied candidates the token ties list holds), kind -1 when there is none. The drawn candidate
    comes from the ties list when it is there. The TWO_CROWS pair step takes the best value, its ties and their list
    from the token step of its turn when that kept them (`_kept_pairs`), else greedy's counts its candidates
    (`_greedy_two_crows`, no list); a drawn candidate not listed is found by listing candidates again up to it."""
    my = obs[O_SHINY_OF + obs[O_SEAT]]
    w_tties = work_at(obs)[25]
    pair_step = allow == 1 << TWO_CROWS and pair_a < 0 and my >= 0
    best, ties, n_listed = _kept_pairs(obs, rng, work, fwork) if pair_step else (0.0, 0, 0)
    counted = ties > 0 or (mode == GREEDY and pair_step)
    k, ta, tb, td, ties_two = TWO_CROWS, -1, -1, -1, 0
    if ties == 0:
        if counted:
            best, ties = _greedy_two_crows(obs, work, my)
        else:
            best, ties, k, ta, tb, td, ties_two = _token_scan(obs, params, mode, work, allow, pair_a, pair_b, 0.0, -1)
            n_listed = min(ties, TOKEN_TIES)
    if ties == 0:
        return 0.0, -1, -1, -1, -1, 0, 0
    i = below(rng, ties) if ties > 1 else 0
    if i > 0 or counted:  # the drawn candidate is not the first of the tied best found
        k, ta, tb, td = _listed_tie(work, w_tties, n_listed, i, counted)  # the token step's list, when kept
        if k < 0:  # not listed: list the candidates again up to it
            k, ta, tb, td = _token_scan(obs, params, mode, work, allow, pair_a, pair_b, best, i)[2:6]
    return best, k, ta, tb, td, ties_two, n_listed


@kernel_njit()
def _keep_pairs(obs, rng, work, fwork, best, ties_two, n_listed):
    """The token step chose TWO_CROWS: keep its best value and how many TWO_CROWS candidates reach it for the pair
    decision that follows (`_kept_pairs`), and how many of its tied candidates its scan listed (the token ties list,
    which no scan overwrites before that decision). Nothing changes between the two (the board, the shinies, the
    hands until the token is played), so that decision would value the same candidates the same: its best is this
    best, its ties these, in the same order."""
    layout = work_at(obs)
    w_kept = layout[22]
    stamp_turn(obs, rng, work, w_kept, obs[O_N_TILES], KEPT_PAIRS)
    work[w_kept] = KEPT_PAIRS
    work[w_kept + 8] = ties_two
    work[w_kept + 9] = n_listed
    fwork[layout[-1] - 1] = best


@kernel_njit()
def _kept_pairs(obs, rng, work, fwork):
    """(best value, ties, tied candidates listed) kept by this turn's token step for its pair decision
    (`_keep_pairs`); ties 0 when none."""
    layout = work_at(obs)
    w_kept = layout[22]
    if not stamp_turn(obs, rng, work, w_kept, obs[O_N_TILES], KEPT_PAIRS):
        work[w_kept] = 0
        return 0.0, 0, 0
    work[w_kept] = 0
    return fwork[layout[-1] - 1], work[w_kept + 8], work[w_kept + 9]


@kernel_njit(inline="always")
def _pairs_at(n0, n1, self0, self1, self2, loss):
    """Source pairs whose moved crows cost the own shiny `loss` crows (0, 1 or 2): n0 / n1 crow tiles lose 0 / 1
    when one crow leaves them, self0..self2 tiles with two crows or more lose 0..2 when two leave (the pair of a tile
    with itself)."""
    if loss == 0:
        return n0 * (n0 - 1) // 2 + self0
    if loss == 1:
        return n0 * n1 + self1
    return n1 * (n1 - 1) // 2 + self2


@kernel_njit(inline="always")
def _tally_source(flag, Cr, x, step, n0, n1, s0, s1, s2):
    """The source classes of `_greedy_two_crows` with the crow tile x counted in (step 1) or out (step -1): n0 / n1
    by the crows one crow leaving x costs the own shiny (0 / 1), s0..s2 by what two leaving cost (x with two or
    more)."""
    if _moved_share(flag, Cr, x, -1) == 0:
        n0 += step
    else:
        n1 += step
    if Cr[x] >= 2:
        lost = -_moved_share(flag, Cr, x, -2)
        s0 += step * int(lost == 0)
        s1 += step * int(lost == 1)
        s2 += step * int(lost == 2)
    return n0, n1, s0, s1, s2


@kernel_njit()
def _greedy_two_crows(obs, work, my):
    """Greedy's TWO_CROWS candidates counted instead of listed: (their best value, how many reach it; -1e300, 0 when
    there is none). A candidate's crows at the own shiny are its arrivals less what each source's group no longer
    sends it plus what the destination's group sends it more (`_token_scan`'s fast path), and each of those depends
    on one tile only, so the candidates fall into classes: per destination, the sources' loss is 0, 1 or 2 crows,
    and the pairs of each loss are counted from how many crow tiles lose 0 or 1 crow."""
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
    a = side * side
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    flag = work[3 * a:4 * a]
    _flags(obs, work, my, True)
    base = arrivals_at(K, Cr, Sh, Fr, side, my)
    n0 = n1 = s0 = s1 = s2 = 0  # crow tiles by the crows one leaving costs; those with two or more, by two leaving
    for i in range(n_tiles):
        if Cr[tiles[i]] > 0:
            n0, n1, s0, s1, s2 = _tally_source(flag, Cr, tiles[i], 1, n0, n1, s0, s1, s2)
    best = -1e300
    ties = 0
    for e in range(4):
        td = my - side if e == 0 else (my - 1 if e == 1 else (my + 1 if e == 2 else my + side))
        if K[td] == GAP or Sh[td] >= 0:
            continue
        m0, m1, t0, t1, t2 = n0, n1, s0, s1, s2  # the sources other than td
        if Cr[td] > 0:
            m0, m1, t0, t1, t2 = _tally_source(flag, Cr, td, -1, m0, m1, t0, t1, t2)
        gain = _moved_share(flag, Cr, td, 2)
        for loss in range(3):
            count = _pairs_at(m0, m1, t0, t1, t2, loss)
            if count == 0:
                continue
            v = float(score_points(K[my], St[my], ng, cap, base + gain - loss))
            if v > best:
                best, ties = v, count
            elif v == best:
                ties += count
    _flags(obs, work, my, False)
    return best, ties


@kernel_njit()
def _greedy_token_kind(obs, params, rng, work, allow):
    """Greedy's token step (D_TOKEN) without listing its candidates: (best value, kind of the drawn candidate, the
    TWO_CROWS candidates valued the best; kind -1 when there is none). The step needs only the best value, the
    number of candidates at it (the draw) and the kind of the drawn one, and greedy's candidates are the GRAVESTONES
    on its shiny (kind 1) and the TWO_CROWS moves (kind 3, counted by `_greedy_two_crows`), in that order; the same
    draw, value and kind as `_token_pick` over `_token_scan`'s list."""
    me = obs[O_SEAT]
    my = obs[O_SHINY_OF + me]
    if my < 0:
        return 0.0, -1, 0
    v_stones, n_stones = -1e300, 0
    if (allow >> GRAVESTONES) & 1:
        v_stones, n_stones = _token_value(obs, params, GREEDY, work, GRAVESTONES, my, -1, -1), 1
    v_two, n_two = -1e300, 0
    if (allow >> TWO_CROWS) & 1:
        v_two, n_two = _greedy_two_crows(obs, work, my)
    best = max(v_stones, v_two)
    first = n_stones if v_stones == best else 0  # the GRAVESTONES candidate comes first
    ties_two = n_two if v_two == best else 0
    if first + ties_two == 0:
        return 0.0, -1, 0
    i = below(rng, first + ties_two) if first + ties_two > 1 else 0
    return best, GRAVESTONES if i < first else TWO_CROWS, ties_two


@kernel_njit()
def token_decision(obs, params, mode, rng, work, fwork):
    dec = obs[O_DECISION]
    at_a = obs[O_AT_OPT_A]
    if dec == D_TOKEN:
        allow = 0
        for i in range(obs[O_N_OPTIONS]):
            if obs[at_a + i] >= 0:
                allow |= 1 << obs[at_a + i]
        if mode == GREEDY:
            best, k, ties_two = _greedy_token_kind(obs, params, rng, work, allow)
            n_listed = 0  # greedy counts its TWO_CROWS candidates
        else:
            best, k, ta, tb, td, ties_two, n_listed = _token_pick(obs, params, mode, rng, work, fwork, allow, -1, -1)
        if k < 0:
            return 0
        # a candidate was valued, so blocker's and weighted's base is in place (`_token_scan`)
        j_pass = _token_value(obs, params, mode, work, -1, -1, -1, -1) if mode == GREEDY else \
            _static_value(obs, params, mode, work, -1)
        gain = best - j_pass
        if gain <= obs[O_RULES + R_TOKEN_KEEP]:
            return 0
        if k == TWO_CROWS:  # the pair decision follows and would find the same best and ties again
            _keep_pairs(obs, rng, work, fwork, best, ties_two, n_listed)
        return index_of(obs, k)
    token = obs[O_CTX_TOKEN]
    if dec == D_TARGET:
        best, k, ta, tb, td, ties_two, n_listed = _token_pick(obs, params, mode, rng, work, fwork, 1 << token, -1, -1)
        return index_of(obs, ta) if k >= 0 else 0
    if dec == D_PAIR:
        best, k, ta, tb, td, ties_two, n_listed = _token_pick(obs, params, mode, rng, work, fwork, 1 << token, -1, -1)
        if k < 0:
            return 0
        at_b = obs[O_AT_OPT_B]
        for i in range(obs[O_N_OPTIONS]):
            if obs[at_a + i] == ta and obs[at_b + i] == tb:
                return i
        return 0
    best, k, ta, tb, td, ties_two, n_listed = _token_pick(obs, params, mode, rng, work, fwork, 1 << token,
                                                        obs[O_CTX_PAIR_A], obs[O_CTX_PAIR_B])
    return index_of(obs, td) if k >= 0 else 0
