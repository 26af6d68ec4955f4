"""Crows (`kruki`) heuristics: the (cell, shiny) options of the tile and shiny steps (KRUKI-39..41 steps 1, 2; the
reference's `placements`, `value` and `pick`), valued incrementally: one arrival map of the board as it stands, and
per candidate cell only the change its tile makes; blocker's and weighted's B(β) values only the probes that can
still be the best once the own shiny is placed (`kruki_common.b_with_shiny`), so no option recomputes the whole map.
What the own shiny changes for the opponents is made once per shiny and decision (`_memo`) and reused for every cell
that leaves it untouched (`_interacts`); and since Opp >= 0, stage 2 values the cells best stage-1 value first and
skips the options whose V_me is already below the best J found.
"""
from sim.jit import kernel_njit
from sim.rng import below
from sim.games.kruki.model import (add_contrib, add_contrib_inline, extend_contrib, flight_plan, gain_all,
                                   gain_all_cached, row_of, others_cached)
from sim.games.kruki.obs import (BLOCKER, GREEDY, O_N_TILES, O_NO_GRAVEYARDS, O_PLAYERS, O_RULES, O_SEAT, O_SHINY_OF,
                                 O_SUPPLY, O_TOKEN_STACK, R_SCORE_CAP, WEIGHTED)
from sim.games.kruki.rules import GAP, JUNK, MAX_PLAYERS
from strategies.kruki_bounds import j_upper, junk_drop, sort_touched
from strategies.kruki_common import (DROP_PLANE, F_PROXY, KEPT_BOARD, KEPT_HEADER, KEPT_SHINIES, MEMO_PLANE,
                                     MEMO_RECORDS, P_SLACK, P_W5, P_W_SLACK, b_order, b_with_shiny,
                                     in_line, legal_shinies, memo_record_max, nearest_cached, opp_lowers_j, opp_value,
                                     planes, sent_to, stage1_value, stamp_turn, tiles_in_game, v1_grows,
                                     waiting_opponent, with_opp, work_at)

THIRDS_MARGIN = 1e-9  # what the draw proxy's bound on J adds for the rounding of the thirds in Opp


@kernel_njit(inline="always")
def _tile_replans(work, w_rays, a, x, k, di, shiny_arm):
    """Whether a tile on the gap c changes the flight plan of the crow group on x, which sees c at distance k in the
    direction di (0..3 = N, E, S, W): its ray toward c ends at c now and runs on past it with the tile, so the first
    shiny past c (shiny_arm: byte i = its distance along c's arm i, 0 for none) joins its nearest when it is no
    farther than those of the group's other rays (the ray cache); farther, or none, the plan stays."""
    beyond = (shiny_arm >> (8 * di)) & 255
    return beyond > 0 and k + beyond <= others_cached(work, w_rays, -work[5 * a + x] - 1, di)[0]


@kernel_njit(inline="always")
def _apply_cell(work, K, Cr, Sh, Fr, side, w_aff, w_ext, w_tl, w_rays, c, tile, spawn):
    """Put `tile` with `spawn` crows on the gap c of the planes and write into the delta plane how every new-shiny
    arrival count changes (rules §9, incrementally): only the groups that see the gap c (no shiny between) and c
    itself change, and when no shiny beyond c is as near as a group's nearest shiny (none lies beyond, or one
    farther: its flight plan stays, and any tile past that shiny is farther still) the group's ray merely grows, so
    only the grown part is added. The written cells go to the touched list; `_undo_cell` restores the planes.
    Returns (the count of the groups whose flight plan the tile changes, listed at work[w_aff + 3 * j] for j below
    it, and the arms of c with a group that sees c as bits 0..3 = N, E, S, W): what `_interacts` needs."""
    a = side * side
    delta = work[a:2 * a]
    mark = work[4 * a:5 * a]
    tl = work[w_tl:]
    tl[0] = 0
    n_seen = 0
    seen_arms = 0
    shiny_arm = 0  # byte i: how far from c a shiny ends arm i (the walk from c in direction i) before its gap, or 0
    for i in range(4):  # each arm once: its crow groups before any shiny (groups behind a shiny never see c)
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        x = c + d
        k = 1
        junk_between = 0
        while K[x] != GAP:
            if Sh[x] >= 0:
                shiny_arm |= min(k, 255) << (8 * i)
                break
            if Cr[x] > 0 and Fr[x] == 0:
                work[w_aff + 3 * n_seen] = x
                work[w_aff + 3 * n_seen + 1] = k
                work[w_aff + 3 * n_seen + 2] = i + junk_between
                n_seen += 1
                seen_arms |= 1 << i
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
        # a plan the tile changes is redone in full; where it stays, only the grown part of the ray counts (below)
        if _tile_replans(work, w_rays, a, x, work[w_aff + 3 * j + 1], (i + 2) & 3, shiny_arm):
            work[w_aff + 3 * n_full] = x  # n_full <= j: this entry has been read
            n_full += 1
            add_contrib(K, Sh, side, x, Cr[x], -1, delta, True, mark, tl)
        elif code < 4:  # no nearer shiny beyond and no Junk between: its ray toward c merely grows
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
        add_contrib_inline(K, Sh, side, c, spawn, 1, delta, True, mark, tl)
    return n_full, seen_arms


@kernel_njit(inline="always")
def _save_cell(work, a, w_tl, w_csave, w_pool, pool_len, ci, used, n_replanned, seen_arms, w_aff):
    """Keep the tile change `_apply_cell` wrote for the cell ci of a decision (its touched list and their delta, the
    arms with a group that sees c and the groups it re-plans) in the pool at w_pool, which has `used` of its pool_len
    words taken; the cell's offset goes to work[w_csave + ci] (-1 when it does not fit). Stage 2 then restores it
    (`_restore_cell`) instead of applying the tile again: the board, the shinies and the ray cache are the same in
    both stages. Returns the words taken."""
    k = work[w_tl]
    size = 3 + n_replanned + 2 * k
    if used + size > pool_len:
        work[w_csave + ci] = -1
        return used
    work[w_csave + ci] = used
    at = w_pool + used
    work[at] = k
    work[at + 1] = seen_arms
    work[at + 2] = n_replanned
    for j in range(n_replanned):
        work[at + 3 + j] = work[w_aff + 3 * j]
    at += 2 + n_replanned
    for i in range(1, k + 1):
        t = work[w_tl + i]
        work[at + 2 * i - 1] = t
        work[at + 2 * i] = work[a + t]
    return used + size


@kernel_njit(inline="always")
def _restore_cell(work, K, Cr, a, w_tl, at, c, tile, spawn, w_replanned):
    """What `_apply_cell` of the tile on c writes, from the change `_save_cell` kept at work[at:]: the tile and its
    crows on the planes, the delta and mark planes at the touched cells, and the touched list; and what it returns,
    with the re-planned groups at work[w_replanned:]."""
    k = work[at]
    seen_arms = work[at + 1]
    n_replanned = work[at + 2]
    for j in range(n_replanned):
        work[w_replanned + j] = work[at + 3 + j]
    at += 2 + n_replanned
    work[w_tl] = k
    for i in range(1, k + 1):
        t = work[at + 2 * i - 1]
        work[w_tl + i] = t
        work[a + t] = work[at + 2 * i]
        work[4 * a + t] = 1
    K[c] = tile
    Cr[c] = spawn
    return n_replanned, seen_arms


@kernel_njit(inline="always")
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


@kernel_njit(inline="always")
def _next_mark(work, at, a, limit):
    """A new mark for the plane at work[at:at + a], kept at its cell 0 (a corner: always a gap): the drop plane marks
    the sums taken on the current board with it. Any older mark counts as none, so the plane is never cleared cell by
    cell, only when the marks reach `limit`."""
    mark = work[at] + 1
    if mark >= limit:
        work[at:at + a] = 0
        mark = 1
    work[at] = mark
    return mark


@kernel_njit(inline="always")
def _changed_groups(work, K, Cr, Sh, Fr, side, a, s, c, w_rays, w_seen):
    """The crow groups whose flight the own shiny on s changes (into work[w_seen:]; returns their count): those that
    see s along a row or column with no shiny between, no farther than their nearest shiny, since s changes a plan
    only as one of the nearest (KRUKI-26); and s between a group and a farther shiny or probe hides what was no
    nearest either. The ray cache of the board as it stands (w_rays) gives the nearest distance; a hypothetical tile
    on c only brings shinies nearer, and its own group on c, which the cache does not know, is kept."""
    n = 0
    for i in range(4):
        d = -side if i == 0 else (1 if i == 1 else (side if i == 2 else -1))
        x = s + d
        k = 1
        while K[x] != GAP and Sh[x] < 0:
            if Cr[x] > 0 and Fr[x] == 0 and (x == c or k <= nearest_cached(work, w_rays, a, x)):
                work[w_seen + n] = x
                n += 1
            x += d
            k += 1
    return n


@kernel_njit(inline="always")
def _in_line_with_opponents(obs, side, x):
    """Whether cell x shares a row or a column with an opponent's shiny."""
    me = obs[O_SEAT]
    for q in range(obs[O_PLAYERS]):
        t = obs[O_SHINY_OF + q]
        if q != me and t >= 0 and in_line(side, x, t):
            return True
    return False


@kernel_njit(inline="always")
def _shares_to_opponents(obs, work, K, Sh, side, x, n, sign, row):
    """Add sign * (the crows the group of n on x sends to each opponent's shiny) to the arrivals row at `row`. A
    group sends crows only along its row and column, so one that shares neither with any opponent's shiny sends
    them none, and its flight plan is not needed."""
    if not _in_line_with_opponents(obs, side, x):
        return
    me = obs[O_SEAT]
    m, d0, d1, d2, d3 = flight_plan(K, Sh, side, x)
    for q in range(obs[O_PLAYERS]):
        t = obs[O_SHINY_OF + q]
        if q != me and t >= 0:
            work[row + q] += sign * sent_to(m, d0, d1, d2, d3, n, t)


@kernel_njit()
def _base_shares(obs, work, K, Cr, Sh, side, tiles, n_tiles, w_sent, arr):
    """Per crow group (gid plane -(1 + its ray-cache index), `gain_all_cached`) the crows it sends to each
    opponent's shiny on the board as it stands, at w_sent (MAX_PLAYERS per group); and arr[q] = the crows on
    opponent q's shiny after a flight (`opponent_arrivals`), the sum of those shares and the crows already there.
    Stage 2 takes a group out of the arrivals with these shares instead of its flight plan again."""
    a = side * side
    me = obs[O_SEAT]
    players = obs[O_PLAYERS]
    for q in range(players):
        t = obs[O_SHINY_OF + q]
        arr[q] = Cr[t] if q != me and t >= 0 else 0
    for i in range(n_tiles):
        x = tiles[i]
        g = work[5 * a + x]
        if g >= 0:
            continue
        at = w_sent + MAX_PLAYERS * (-g - 1)
        for q in range(players):
            work[at + q] = 0
        if not _in_line_with_opponents(obs, side, x):
            continue
        m, d0, d1, d2, d3 = flight_plan(K, Sh, side, x)
        for q in range(players):
            t = obs[O_SHINY_OF + q]
            if q != me and t >= 0:
                n = sent_to(m, d0, d1, d2, d3, Cr[x], t)
                work[at + q] = n
                arr[q] += n


@kernel_njit(inline="always")
def _less_base_shares(work, a, w_sent, players, x, row):
    """Take the group on x with its flight on the board as it stands (`_base_shares`) out of the arrivals row."""
    at = w_sent + MAX_PLAYERS * (-work[5 * a + x] - 1)
    for q in range(players):
        work[row + q] -= work[at + q]


@kernel_njit(inline="always")
def _listed(work, at, n, x):
    """Whether x is among the n ints at work[at:]."""
    for i in range(n):
        if work[at + i] == x:
            return True
    return False


@kernel_njit(inline="always")
def _arrivals_after(obs, work, K, Cr, Sh, side, s, c, n_seen, w_seen, w_arr, w_sent, w_replanned, n_replanned):
    """The crows on each opponent's shiny after a flight once the own shiny on s (Sh[s] set) joins the board, into
    the third arrivals row: the second (the board with the tile on c alone, c < 0: none) corrected by the groups that
    see s (the n_seen at work[w_seen:]), each taken out with its plan without s and put back with its plan with s.
    Without s, a group whose plan the tile leaves as it was (all but the n_replanned at work[w_replanned:],
    `_apply_cell`'s, and c's own) flies as on the board as it stands, so its base shares (`_base_shares`) take
    it out, and its plan is not looked at."""
    row = w_arr + 2 * MAX_PLAYERS
    players = obs[O_PLAYERS]
    a = side * side
    for q in range(players):
        work[row + q] = work[w_arr + MAX_PLAYERS + q]
    for j in range(n_seen):  # none when s < 0 (no own shiny)
        x = work[w_seen + j]
        if x != c and not _listed(work, w_replanned, n_replanned, x):
            _less_base_shares(work, a, w_sent, players, x, row)
        else:
            owner = Sh[s]
            Sh[s] = -1
            _shares_to_opponents(obs, work, K, Sh, side, x, Cr[x], -1, row)
            Sh[s] = owner
        _shares_to_opponents(obs, work, K, Sh, side, x, Cr[x], 1, row)


@kernel_njit()
def _memo(obs, work, K, Cr, Sh, Fr, side, s, c, tile, spawn, w_memo, w_sent, w_rays, rmax):
    """The shiny record of s: what the own shiny on s changes on the board as it stands (the hypothetical tile on
    c, if any, lifted meanwhile), into the memo pool — [count of the groups whose flight s changes
    (`_changed_groups`), those groups, the change of the crows arriving at each seat's shiny, B with s on the board
    as it stands and the probe that has it (`b_with_shiny`; -1 until an option values it: `_scan_c`)]; the memo
    plane at s gets 1 + the record's offset in the pool, or -1 when the pool is full.

    A tile on c changes none of it unless a group can see s anew through c or the tile changes the flight plan of
    one of those groups (`_interacts`): a group sees s anew only along s's row or column through c, so only when s
    ends an arm of c and the tile spawns crows or a group on the opposite arm sees c; a group whose plan the tile
    leaves as it was without s keeps it with s too, since the shiny past c is farther than its nearest without s and
    so than its nearest with s; and a group that s does not change keeps so with the tile, which only brings shinies
    nearer. Every option (c, s) of a decision that leaves s untouched so reuses one record instead of taking the
    groups of s out and putting them back again."""
    a = side * side
    used = work[w_memo]
    if used + rmax > MEMO_RECORDS * rmax:
        work[MEMO_PLANE * a + s] = -1
        return
    r = w_memo + 1 + used
    if c >= 0:
        K[c] = GAP
        Cr[c] = 0
    me = obs[O_SEAT]
    players = obs[O_PLAYERS]
    Sh[s] = me
    n_seen = _changed_groups(work, K, Cr, Sh, Fr, side, a, s, -1, w_rays, r + 1)
    work[r] = n_seen
    row = r + 1 + n_seen
    for q in range(players):
        work[row + q] = 0
    for j in range(n_seen):  # each group that sees s: out with its flight without s, in with its flight with s
        x = work[r + 1 + j]
        _less_base_shares(work, a, w_sent, players, x, row)
        _shares_to_opponents(obs, work, K, Sh, side, x, Cr[x], 1, row)
    Sh[s] = -1
    if c >= 0:
        K[c] = tile
        Cr[c] = spawn
    kept_b = record_b_at(work, r, players)
    work[kept_b] = -1
    work[w_memo] = used + (kept_b + 2 - r)
    work[MEMO_PLANE * a + s] = 1 + (r - w_memo)


@kernel_njit(inline="always")
def record_b_at(work, r, players):
    """Where the shiny record at r keeps B with its shiny and no tile, the probe that has it after it (`_memo`)."""
    return r + 1 + work[r] + players


@kernel_njit(inline="always")
def _interacts(work, K, side, r, s, c, spawn, seen_arms, w_replanned, n_replanned):
    """Whether the hypothetical tile on c changes the record r of s (`_memo`): some group may see s anew through c (s
    lies on an arm of c, tiles all the way, and the tile spawns crows or a group on the opposite arm sees c:
    `seen_arms`, from `_apply_cell`), or the tile re-plans a group of the record (one of the n_replanned at
    work[w_replanned:]). The arm is walked only when one of those could see s."""
    if (spawn > 0 or seen_arms != 0) and in_line(side, s, c):
        if row_of(side, s) == row_of(side, c):
            arm = 1 if s > c else 3
            d = 1 if s > c else -1
        else:
            arm = 2 if s > c else 0
            d = side if s > c else -side
        if spawn > 0 or (seen_arms >> ((arm + 2) & 3)) & 1:
            x = c + d
            while x != s and K[x] != GAP:
                x += d
            if x == s:
                return True
    for j in range(work[r] if n_replanned > 0 else 0):  # a tile seldom re-plans a group
        if _listed(work, w_replanned, n_replanned, work[r + 1 + j]):
            return True
    return False


@kernel_njit(inline="always")
def _kept_b_holds(work, a, kept_b, touched_b):
    """Whether B(β) of an option (c, s) whose shiny record holds for the tile on c is the B the record keeps, with s
    and no tile, at work[kept_b] (and the probe that has it after it): it is kept, the probe is not one the tile
    touched (the mark plane), and the touched probes have at most that many points with the tile alone (touched_b,
    `sort_touched`'s first value, -1 for none). A probe the tile leaves untouched keeps its points with s
    (docs/decisions.md, "Crows stage 2 bounds J", thirty-first session), and with s a touched one has no more."""
    return work[kept_b] >= 0 and touched_b <= work[kept_b] and (
        work[kept_b + 1] < 0 or work[4 * a + work[kept_b + 1]] == 0)


@kernel_njit(inline="always")
def _merge(v, p, count, max_v, best_v, best_p, ties):
    """Fold `count` options of stage-1 value v and preference p into (max v, best (v, p), ties at the best)."""
    if v > max_v:
        max_v = v
    if v > best_v or (v == best_v and p > best_p):
        return max_v, v, p, count
    if v == best_v and p == best_p:
        return max_v, best_v, best_p, ties + count
    return max_v, best_v, best_p, ties


@kernel_njit()
def _scan_c(obs, params, mode, work, fwork, layout, K, Cr, Sh, St, Fr, side, c, tile, spawn, own, nls, stage, floor,
            bar, w_ties, saved, untouched_base):
    """Every option (c, s) of one cell c (c < 0: the shiny alone), s over the legal shiny tiles after c (the single
    option s = -1 if there is none), one by one: for the shiny alone in raster order; for a cell those the tile
    touched, then the untouched ones best stage-1 value first, down to the floor and the best J found.
    stage 1: J = v1; stage 2: only options with v1 >= floor, J = the full objective, the opponents' arrivals from
    the first arrivals row (the board as it stands) corrected by the groups whose flight plan the tile changes and by
    c's own group. Where the opponents' weight lowers J, an option without a shiny record that holds for c whose
    bound on J (`kruki_bounds.j_upper`) is below `bar` or below the best J of this cell so far can neither win nor
    tie, and is not valued in full.
    Returns (max v1, best J, best pref, ties at the best); the tied best shinies are also listed in the order valued at
    work[w_ties:] unless w_ties < 0 (for the shiny alone, raster order, at the second legal-shiny list w_ls2, which
    otherwise holds a cell's options). saved: the offset of the cell's tile change in the pool (`_save_cell`), or -1
    to apply the tile again. untouched_base: the draw proxy's bound on J of the options of c whose shiny the tile
    leaves untouched before the tile's drop (`_proxy_base`; 1e300: none). Once it is below the bar or the best J of
    this cell so far, stage 2 takes the drop (`_cell_upper`), and ends the list where the untouched options start if
    their bound is still below it. layout: `work_at`."""
    (a, mc, w_cnt, w_pref, w_aff, w_ls, w_ls2, w_log, w_save, w_ext, w_tl, w_grp, w_rays, f_kind, f_grp, w_bord,
     w_bval, w_arr, w_ord, w_memo, w_tv, w_sent, w_kept, w_csave, w_pool, w_tties, w_board, wl, fl) = layout
    gain0 = work[0:a]
    delta = work[a:2 * a]
    me = obs[O_SEAT]
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    tokens_left = obs[O_TOKEN_STACK] > 0
    need_b = stage == 2 and waiting_opponent(obs)
    players = obs[O_PLAYERS]
    ls = w_ls
    ns = nls
    row = w_arr + MAX_PLAYERS
    row3 = w_arr + 2 * MAX_PLAYERS
    memo = MEMO_PLANE * a
    rmax = 0
    bounded = stage == 2 and opp_lowers_j(mode, params)
    if stage == 2:
        rmax = memo_record_max(tiles_in_game(obs))
        for q in range(players):
            work[row + q] = work[w_arr + q]
    n_touched = nls + 2  # the options before the best-first part of the list (all of them for the shiny alone)
    n_replanned = 0  # the groups whose flight plan the tile on c changes, at work[w_save:] (stage 2)
    seen_arms = 0
    if c >= 0:
        if saved >= 0:
            n_replanned, seen_arms = _restore_cell(work, K, Cr, a, w_tl, w_pool + saved, c, tile, spawn, w_save)
        else:
            n_replanned, seen_arms = _apply_cell(work, K, Cr, Sh, Fr, side, w_aff, w_ext, w_tl, w_rays, c, tile,
                                                 spawn)
            for j in range(n_replanned):
                work[w_save + j] = work[w_aff + 3 * j]
        if stage == 2:  # the opponents' arrivals with the tile: the re-planned groups anew, and c's own
            for j in range(n_replanned):
                _less_base_shares(work, a, w_sent, players, work[w_save + j], row)
                _shares_to_opponents(obs, work, K, Sh, side, work[w_save + j], Cr[work[w_save + j]], 1, row)
            if spawn > 0:
                _shares_to_opponents(obs, work, K, Sh, side, c, spawn, 1, row)
        # The options worth valuing, into the second legal-shiny list: the legal shinies the tile touched and its
        # own cell (when the new tile is itself a legal shiny tile) with their stage-1 values changed, then the
        # untouched ones, whose values are `_groups`' own, best first down to the floor (and the bar).
        ls = w_ls2
        ns = 0
        for i in range(1, work[w_tl] + 1):
            t = work[w_tl + i]
            if work[5 * a + t] > 0:  # gid: a legal shiny of the board as it stands
                work[w_ls2 + ns] = t
                ns += 1
        if tile != JUNK and spawn == 0:
            work[w_ls2 + ns] = c
            ns += 1
        n_touched = ns
        lowest = max(floor, bar) if bounded else floor
        w_by = w_grp + 3 * (tiles_in_game(obs) + 2)
        for u in range(nls):
            if fwork[f_grp + u] < lowest:
                break
            t = work[w_by + u]
            if work[4 * a + t] == 0:  # untouched (the mark plane)
                work[w_ls2 + ns] = t
                ns += 1
    if need_b:
        sort_touched(work, K, Cr, Sh, St, a, c, ng, cap, w_tl, w_tv)
    # The best probe the tile touched has at most this many points with any own shiny (`sort_touched`; -1: none)
    touched_b = work[w_tv + 2] if need_b and work[w_tv] > 0 else -1
    max_v1 = -1e300
    best_j = -1e300
    best_p = -1
    ties = 0
    untouched_upper = untouched_base + THIRDS_MARGIN  # at most the bound: its drop is taken when the bound could tell
    dropped = False
    # no legal shiny tile at all: the single option without a shiny (a cell's list may also be empty when every
    # shiny is below the floor, and then it has no option to value)
    n_opts = 1 if nls == 0 and (c < 0 or n_touched == 0) else ns
    for k in range(n_opts):
        s = work[ls + k] if ns > 0 else -1
        n = 0
        ks = 0
        ss = 0
        if s >= 0:
            n = (gain0[s] if s != c else 0) + delta[s] + Cr[s]  # gain0 is stale off the tiles of β0
            ks = K[s]
            ss = St[s]
        v1, pref = stage1_value(mode, params, ks, ss, ng, cap, n, s, own, True, tokens_left)
        if v1 > max_v1:
            max_v1 = v1
        if stage == 1:
            j = v1
        else:
            if v1 < floor:
                continue
            jbar = max(bar, best_j)
            if k >= n_touched and untouched_upper < jbar:  # the untouched options: can any of them tie it?
                if not dropped:
                    untouched_upper = _cell_upper(obs, params, mode, work, K, Cr, Sh, St, Fr, side, a, c, w_sent,
                                                  w_rays, ng, untouched_base)
                    dropped = True
                if untouched_upper < jbar:
                    break
            if bounded and v1 < jbar:  # J <= v1
                if k >= n_touched:  # the untouched options come best first: none of the rest can reach it either
                    break
                continue
            r = -1  # the shiny record of s, made when first needed (it makes V_q exact in the bound, and the other
            # cells reuse it), where it holds for this c
            if s >= 0 and s != c:
                if work[memo + s] == 0:
                    _memo(obs, work, K, Cr, Sh, Fr, side, s, c, tile, spawn, w_memo, w_sent, w_rays, rmax)
                if work[memo + s] > 0:
                    r = w_memo + work[memo + s] - 1
                    if c >= 0 and _interacts(work, K, side, r, s, c, spawn, seen_arms, w_save, n_replanned):
                        r = -1
            exact = False
            ub = 0.0
            n_seen = -1  # the groups s changes, in work[w_aff:], once listed
            kept_b = -1  # where the record keeps B with s and no tile (`_memo`)
            if r >= 0:  # the opponents' arrivals: the tile's change and the record's; B kept with it where it holds
                darr = r + 1 + work[r]
                kept_b = record_b_at(work, r, players)
                for q in range(players):
                    work[row3 + q] = work[row + q] + work[darr + q]
                if not need_b or _kept_b_holds(work, a, kept_b, touched_b):
                    exact = True
                    ub = with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, work[row3:],
                                                              work[kept_b] if need_b else 0))
            elif bounded and s >= 0:  # no record: the bound first (with one, valuing in full costs less than it)
                n_seen = _changed_groups(work, K, Cr, Sh, Fr, side, a, s, c, w_rays, w_aff)
                ub, exact = j_upper(obs, params, mode, work, K, Cr, St, side, a, c, s, v1, w_aff, n_seen, row, need_b,
                                    ng, cap, w_ext, w_tv, w_bord, w_bval, row3, jbar)
                if ub < jbar:
                    continue
            if exact:  # the bound is J itself (or the record's): no change of the position needs valuing
                j = ub
            else:
                if s >= 0:
                    Sh[s] = me
                gs = w_aff  # the groups s changes: n_changed at work[gs:]
                n_changed = 0
                if r >= 0:
                    gs = r + 1
                    n_changed = work[r]
                else:
                    if s >= 0:
                        if n_seen < 0:
                            n_seen = _changed_groups(work, K, Cr, Sh, Fr, side, a, s, c, w_rays, w_aff)
                        n_changed = n_seen
                    _arrivals_after(obs, work, K, Cr, Sh, side, s, c, n_changed, w_aff, w_arr, w_sent, w_save,
                                    n_replanned)
                bval = 0
                if need_b:
                    bval, best_t = b_with_shiny(work, K, Cr, Sh, St, side, a, c, s, ng, cap, gs, n_changed, w_tv,
                                                w_bord, w_bval)
                    if kept_b >= 0 and touched_b < 0:  # no probe touched: B is that of s with no tile
                        work[kept_b] = bval
                        work[kept_b + 1] = best_t
                j = with_opp(mode, params, v1, opp_value(obs, K, St, ng, cap, work[row3:], bval))
                if s >= 0:
                    Sh[s] = -1
        if j > best_j or (j == best_j and pref > best_p):
            best_j = j
            best_p = pref
            ties = 0
        elif j != best_j or pref != best_p:
            continue
        if w_ties >= 0:
            work[w_ties + ties] = s
        ties += 1
    if c >= 0:
        _undo_cell(work, K, Cr, side, w_tl, c)
    return max_v1, best_j, best_p, ties


@kernel_njit()
def _groups(mode, params, work, fwork, K, St, side, w_ls, nls, w_grp, f_grp, n, own, ng, cap, tokens_left, w_tmp):
    """Stage-1 values of the legal shinies on the board as it stands (n crows = gain0), sorted best first by (value,
    preference) into groups of equal keys: gid plane = 1 + group; sizes, preferences and values per group; the
    shinies best first (raster order within a group) with their values. Returns the group count. A cell then
    re-values only the shinies its tile touches (`_scan_sparse`).

    The keys take few distinct values, so the shinies are counted per key and placed by the keys' ranks, not sorted
    one by one. work[w_tmp:] (2 * (n + 2) ints) and fwork[0:n + 2] are scratch here: the per-cell results, written
    after this."""
    a = side * side
    gain0 = work[0:a]
    gid = work[5 * a:6 * a]
    w_size, w_touch, w_gp, w_by = w_grp, w_grp + n + 2, w_grp + 2 * (n + 2), w_grp + 3 * (n + 2)
    f_val, f_gv = f_grp, f_grp + n + 2
    w_rank, w_next = w_tmp, w_tmp + n + 2
    n_keys = 0  # the distinct keys in order of appearance, in the per-group arrays for now
    for i in range(nls):
        s = work[w_ls + i]
        v, p = stage1_value(mode, params, K[s], St[s], ng, cap, gain0[s], s, own, True, tokens_left)
        j = 0
        while j < n_keys and (fwork[f_gv + j] != v or work[w_gp + j] != p):
            j += 1
        if j == n_keys:
            fwork[f_gv + j] = v
            work[w_gp + j] = p
            work[w_size + j] = 0
            n_keys += 1
        work[w_size + j] += 1
        gid[s] = j  # the key's index until the ranks are known
    for j in range(n_keys):  # the keys best first (higher value, then higher preference), by insertion: w_next
        v = fwork[f_gv + j]
        p = work[w_gp + j]
        r = j
        while r > 0:
            k = work[w_next + r - 1]
            vk = fwork[f_gv + k]
            if vk > v or (vk == v and work[w_gp + k] > p):
                break
            work[w_next + r] = k
            r -= 1
        work[w_next + r] = j
    for r in range(n_keys):  # rank of key j = its place in that order
        j = work[w_next + r]
        work[w_rank + j] = r
        fwork[r] = fwork[f_gv + j]  # the keys in rank order, moved back below
        work[w_touch + r] = work[w_gp + j]
        work[w_next + r] = work[w_size + j]
    at = 0
    for r in range(n_keys):  # the first position of each group; sizes in rank order
        size = work[w_next + r]
        work[w_size + r] = size
        work[w_next + r] = at
        at += size
    for i in range(nls):  # the shinies by group, raster order within a group
        s = work[w_ls + i]
        r = work[w_rank + gid[s]]
        pos = work[w_next + r]
        work[w_next + r] = pos + 1
        work[w_by + pos] = s
        fwork[f_val + pos] = fwork[r]
        gid[s] = r + 1
    for r in range(n_keys):
        fwork[f_gv + r] = fwork[r]
        work[w_gp + r] = work[w_touch + r]
        work[w_touch + r] = 0
    return n_keys


@kernel_njit(inline="always")
def _scan_sparse(mode, params, work, fwork, K, St, side, w_tl, w_grp, f_grp, n, n_groups, c, legal_c, own, ng, cap,
                 tokens_left):
    """Stage 1 of every option (c, s) after `_apply_cell(c)` without visiting every shiny: the shinies the tile
    touched are re-valued, the others keep their group from `_groups`, so the best untouched option is the first
    group with an untouched member. Returns (max v1, best v1, best pref, ties at the best), as `_scan_c` stage 1, and
    the best v1 of the options other than the untouched ones (the touched shinies, c itself, or no shiny at all)."""
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
        v, p = stage1_value(mode, params, K[t], St[t], ng, cap, gain0[t] + delta[t], t, own, True, tokens_left)
        max_v, best_v, best_p, ties = _merge(v, p, 1, max_v, best_v, best_p, ties)
    if legal_c:  # the new tile is itself a legal shiny tile
        v, p = stage1_value(mode, params, K[c], St[c], ng, cap, delta[c], c, own, True, tokens_left)
        max_v, best_v, best_p, ties = _merge(v, p, 1, max_v, best_v, best_p, ties)
    touched_v = max_v
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
        v, p = stage1_value(mode, params, 0, 0, ng, cap, 0, -1, own, True, tokens_left)
        max_v, best_v, best_p, ties = _merge(v, p, 1, max_v, best_v, best_p, ties)
        touched_v = max(touched_v, v)
    return max_v, best_v, best_p, ties, touched_v


@kernel_njit()
def _keep_tied(obs, params, mode, rng, work, K, Cr, Sh, St, Fr, side, layout, nls, c, tile, spawn, own, best_v,
               best_p):
    """Greedy's cell decision chose c: list, in the order the shiny decision that follows lists them (the tiles in
    raster order, c among them), the legal shinies of c whose stage-1 value and preference are the best, and stamp
    the list for that decision (`kept_shiny`). Greedy's J is the stage-1 value, so the values are the ones the shiny
    decision computes on the board with the tile. The board's legal shinies are at w_ls (nls of them)."""
    (a, mc, w_cnt, w_pref, w_aff, w_ls, w_ls2, w_log, w_save, w_ext, w_tl, w_grp, w_rays, f_kind, f_grp, w_bord,
     w_bval, w_arr, w_ord, w_memo, w_tv, w_sent, w_kept, w_csave, w_pool, w_tties, w_board, wl, fl) = layout
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    tokens_left = obs[O_TOKEN_STACK] > 0
    _apply_cell(work, K, Cr, Sh, Fr, side, w_aff, w_ext, w_tl, w_rays, c, tile, spawn)
    c_legal = tile != JUNK and spawn == 0
    count = 0
    out = w_kept + KEPT_HEADER
    for i in range(nls + (1 if c_legal else 0)):
        t = work[w_ls + i] if i < nls else -1
        if c_legal and (t < 0 or t > c):  # c in its raster place, once
            v, p = stage1_value(mode, params, tile, 0, ng, cap, work[a + c], c, own, True, tokens_left)
            if v == best_v and p == best_p:
                work[out + count] = c
                count += 1
            c_legal = False
        if t >= 0:
            v, p = stage1_value(mode, params, K[t], St[t], ng, cap, work[t] + work[a + t], t, own, True,
                                tokens_left)
            if v == best_v and p == best_p:
                work[out + count] = t
                count += 1
    _undo_cell(work, K, Cr, side, w_tl, c)
    stamp_turn(obs, rng, work, w_kept, obs[O_N_TILES] + 1, KEPT_SHINIES)  # + the tile that goes on c
    work[w_kept] = KEPT_SHINIES
    work[w_kept + 8] = count


@kernel_njit(inline="always")
def _stage2_floor(mode, params, best_v1):
    """Blocker's and weighted's stage 2 keeps the options whose stage-1 value is at least this (KRUKI-40/41: within
    `slack` of the best); one home, since the cell decision's kept shiny list must use the shiny decision's floor."""
    return best_v1 - (params[P_SLACK] if mode == BLOCKER else params[P_W_SLACK])


@kernel_njit()
def _keep_tied_valued(obs, params, mode, rng, work, fwork, layout, K, Cr, Sh, St, Fr, side, nls, c, tile, spawn, own,
                      floor, max_v1, best_j, saved, untouched_base):
    """Blocker's or weighted's cell decision chose c with the best J `best_j`: list, in raster order, the shinies
    of c's options that tie the best J of the shiny decision that follows, and stamp the list for it (`kept_shiny`).
    That decision values the options (c, s) again on the board with the tile: the same positions β, so the same J,
    and never for the own Junk (f5 is the cell decision's only; the list is cleared). Its floor is the best stage-1
    value of c's options less the slack. When c has the cell decision's best stage-1 value, that is the cell
    decision's floor, and the scan again with the best J as the bar values only the options that can tie it. The
    scan finds c's best stage-1 value mv either way (it lists the touched options all and the untouched ones best
    first, down to the floor and the bar, which c's best option clears): when mv is lower, the shiny decision values
    options below the cell decision's floor too, whose J may beat best_j, so c is scanned once more with its own
    floor and no bar.
    The board's legal shinies are at w_ls (nls of them); saved: the cell's saved tile change (`_save_cell`);
    untouched_base: as for `_scan_c` (`_proxy_base`), which holds within the cell decision's floor only."""
    w_kept = layout[22]
    out = w_kept + KEPT_HEADER
    work[w_kept] = 0
    if own != 0:
        return
    mv, bj, bp, count = _scan_c(obs, params, mode, work, fwork, layout, K, Cr, Sh, St, Fr, side, c, tile, spawn, own,
                                nls, 2, floor, best_j, out, saved, untouched_base)
    if mv != max_v1:
        mv, bj, bp, count = _scan_c(obs, params, mode, work, fwork, layout, K, Cr, Sh, St, Fr, side, c, tile, spawn,
                                    own, nls, 2, _stage2_floor(mode, params, mv), -1e300, out, saved, 1e300)
    for i in range(1, count):  # insertion sort into raster order
        s = work[out + i]
        j = i
        while j > 0 and work[out + j - 1] > s:
            work[out + j] = work[out + j - 1]
            j -= 1
        work[out + j] = s
    if count == 0 or work[out] < 0:  # no shiny to place: the shiny decision has nothing to draw
        return
    stamp_turn(obs, rng, work, w_kept, obs[O_N_TILES] + 1, KEPT_SHINIES)  # + the tile that goes on c
    work[w_kept] = KEPT_SHINIES
    work[w_kept + 8] = count


@kernel_njit()
def kept_shiny(obs, rng, work):
    """The shiny decision from the list the cell decision kept in this turn (`_keep_tied`, `_keep_tied_valued`): the
    draw among the tied best shinies, as `placements` of the shiny alone makes it; -1 when no list was kept for this
    turn."""
    w_kept = work_at(obs)[22]
    if not stamp_turn(obs, rng, work, w_kept, obs[O_N_TILES], KEPT_SHINIES):
        work[w_kept] = 0
        return -1
    work[w_kept] = 0
    count = work[w_kept + 8]
    i = below(rng, count) if count > 1 else 0
    return work[w_kept + KEPT_HEADER + i]


@kernel_njit(inline="always")
def _junk_shift(mode, params, own):
    """What spending the own Junk adds to the stage-1 value: w5 for weighted (f5 = own), nothing for blocker."""
    return params[P_W5] * own if mode == WEIGHTED else 0.0


@kernel_njit()
def _proxy_bounds(mode, params, own, max_v1, proxy_v1):
    """Whether the draw proxy's best J bounds the J of the options (c, s) that stage 2 keeps, as `_cell_upper` uses
    it: every option of a Junk, and the options of any other tile whose shiny s the tile leaves untouched. Those have
    v1(c, s) <= v1_0(s) + shift (the same s in the proxy; a Junk raises no shiny's crows, and the stage-1 value grows
    with the crows). When the cell decision's best stage-1 value is at least the proxy's best plus the shift (a cell
    leaves the best shiny untouched: nearly always), its floor is at least the proxy's floor plus the shift, so such a
    kept option's s was at or above the proxy's floor, where J_0(s) <= proxy_j."""
    return v1_grows(mode, params) and max_v1 >= proxy_v1 + _junk_shift(mode, params, own)


@kernel_njit(inline="always")
def _proxy_base(mode, params, own, proxy_j):
    """proxy_j + shift: the bound of `_cell_upper` before the drop."""
    return proxy_j + _junk_shift(mode, params, own)


@kernel_njit(inline="always")
def _cell_upper(obs, params, mode, work, K, Cr, Sh, St, Fr, side, a, c, w_sent, w_rays, ng, base):
    """An upper bound on J of the options (c, s) of `_proxy_bounds`, from base = proxy_j + shift (`_proxy_base`): v1
    at most v1_0(s) + shift and Opp at least Opp_0(s) less the drop `junk_drop`, so J(c, s) <= J_0(s) + shift + (the
    opponents' weight) x drop <= base + that, plus THIRDS_MARGIN for the rounding of the thirds in Opp (an option is
    skipped only when it can neither beat nor tie the best J), so never below base + THIRDS_MARGIN. The drop bounds
    any tile, not only a Junk: a tile on the gap c lowers a shiny's or a probe's crows only by letting the rays of the
    groups that see c run on past it, and whatever else it does (its crows fly, crows reach a shiny past c, c becomes
    a legal shiny tile) only adds crows or probes."""
    drop = junk_drop(obs, work, K, Cr, Sh, St, Fr, side, a, c, w_sent, w_rays, ng)
    return with_opp(mode, params, base, -drop) + THIRDS_MARGIN


@kernel_njit()
def _junk_below_bar(obs, params, mode, work, fwork, layout, K, Cr, Sh, St, Fr, side, cells_at, n_cells, nls, own,
                    proxy_j, proxy_v1, at_least):
    """Whether every Junk option (c, s) of the tile-source step has J below at_least, shown from the draw proxy on the
    same board before any Junk cell is valued (then the step draws, whatever the Junk's exact value).
    J(c, s) <= J_0(s) + gain(c) for every option, kept or not, where gain(c) is `_cell_upper` of c over a
    J_0 of 0 (shift + (the opponents' weight) x drop(c), with its margin); so it suffices that J_0(s) stays below
    top = at_least - (the largest gain) for every legal shiny s: at or above the proxy's floor J_0(s) <= proxy_j
    (its stage 2 valued or bounded them all); below it J_0(s) <= v1_0(s) < the floor. When the floor is above top,
    the shinies between top and the floor are valued as the proxy values its options (`_scan_c` with top as floor
    and bar), and must all stay below top.
    Needs J <= v1 (`opp_lowers_j`) and a stage-1 value that grows with the crows (`v1_grows`)."""
    if not (opp_lowers_j(mode, params) and v1_grows(mode, params)):
        return False
    a, w_rays, w_sent = layout[0], layout[12], layout[21]
    ng = obs[O_NO_GRAVEYARDS]
    gain = -1e300
    for ci in range(n_cells):
        gain = max(gain, _cell_upper(obs, params, mode, work, K, Cr, Sh, St, Fr, side, a, obs[cells_at + ci],
                                     w_sent, w_rays, ng, _proxy_base(mode, params, own, 0.0)))
    top = at_least - gain
    if proxy_j >= top:
        return False
    floor = _stage2_floor(mode, params, proxy_v1)
    if floor <= top:
        return True
    return _scan_c(obs, params, mode, work, fwork, layout, K, Cr, Sh, St, Fr, side, -1, 0, 0, 0, nls, 2, top, top, -1,
                   -1, 1e300)[1] < top


@kernel_njit()
def _board_dropped(work, a, w_board):
    """Clear the gid and memo planes on the tiles of a board kept by `_board_setup` (and drop it): a decision that
    does not reuse it expects them clear."""
    if work[w_board] == KEPT_BOARD:
        for i in range(work[w_board + 9]):
            t = work[w_board + KEPT_HEADER + i]
            work[5 * a + t] = 0
            work[MEMO_PLANE * a + t] = 0
        work[w_board] = 0


@kernel_njit()
def board_stamp(obs):
    """What names the board of a turn in its stamp beside the stream state, seat and round: the tiles and the shinies
    on it (a turn adds a tile, then a shiny)."""
    shinies = 0
    for q in range(obs[O_PLAYERS]):
        if obs[O_SHINY_OF + q] >= 0:
            shinies += 1
    return obs[O_N_TILES] + 1024 * shinies


@kernel_njit()
def _board_setup(obs, rng, work, fwork, layout, K, Cr, Sh, St, Fr, side, tiles, n_tiles):
    """Blocker's and weighted's setup of the board as it stands, kept for the later `placements` of the same turn on
    the same board: the legal shinies (w_ls; returns their count), the arrivals of a new shiny with the ray cache
    and the crow groups' indices (`gain_all_cached`), the probes by value (`b_order`), the crows each group sends to
    each opponent (`_base_shares`) and the memo pool of shiny records. A turn values its tile source on the board as
    it stands (the draw proxy, the own Junk, the pool tiles), then the drawn tile's cells on that same board, or after
    a skip its shiny: the stamp (`stamp_turn`: stream state, seat, round, tiles and shinies on the board) names that
    board, since nothing draws and nothing changes the board between those decisions. The tile-specific parts (the
    stage-1 groups, the cells' changes) are each decision's own. Anything kept for another stamp is dropped first, the
    draw proxy's values (`keep_proxy`) with it."""
    (a, mc, w_cnt, w_pref, w_aff, w_ls, w_ls2, w_log, w_save, w_ext, w_tl, w_grp, w_rays, f_kind, f_grp, w_bord,
     w_bval, w_arr, w_ord, w_memo, w_tv, w_sent, w_kept, w_csave, w_pool, w_tties, w_board, wl, fl) = layout
    if stamp_turn(obs, rng, work, w_board, board_stamp(obs), KEPT_BOARD):
        return work[w_board + 8]
    _board_dropped(work, a, w_board)
    fwork[fl - F_PROXY] = -1e300  # no draw proxy valued on this board yet
    _next_mark(work, DROP_PLANE * a, a, 1 << 15)  # a mark times 2^16 fits the int32 plane
    nls = legal_shinies(K, Cr, Sh, tiles, n_tiles, work[w_ls:])
    gain_all_cached(K, Cr, Sh, Fr, side, tiles, n_tiles, work[0:a], work, w_rays, work[5 * a:6 * a])
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    b_order(work, K, St, w_ls, nls, w_bord, w_bval, ng, cap)
    work[w_memo] = 0  # an empty memo pool: shiny records hold for this board only
    _base_shares(obs, work, K, Cr, Sh, side, tiles, n_tiles, w_sent, work[w_arr:])
    work[w_board] = KEPT_BOARD
    work[w_board + 8] = nls
    work[w_board + 9] = n_tiles
    for i in range(n_tiles):  # where the planes are to be cleared
        work[w_board + KEPT_HEADER + i] = tiles[i]
    return nls


@kernel_njit()
def keep_proxy(obs, fwork, proxy_j, proxy_v1):
    """Keep the draw proxy's best J and best stage-1 value, valued by blocker's or weighted's tile-source step on the
    board of the kept setup (`_board_setup`), for the cell decision that follows on that board (`placements`)."""
    fl = work_at(obs)[-1]
    fwork[fl - F_PROXY] = proxy_j
    fwork[fl - F_PROXY + 1] = proxy_v1


@kernel_njit()
def placements(obs, params, mode, rng, work, fwork, cells_at, n_cells, tile, spawn, own, pick, at_least, proxy_j,
               proxy_v1):
    """The reference's `placements` + `value` / `pick`: every (cell, shiny) option (n_cells < 0: shiny only).
    Returns (best J, index of the chosen cell, chosen shiny, best stage-1 value): one draw picks among the tied best
    options, which gives the cell of a cell decision and the shiny of a shiny decision (n_cells < 0); with pick =
    False only the values (no draw).
    at_least: only a best J >= at_least matters (a lower one may come back as any value below at_least).
    proxy_j, proxy_v1: the draw proxy's best J and best stage-1 value on the same board, or -1e300 for the ones kept
    for this board by the tile-source step (`keep_proxy`), if any. They bound each cell's J (`_cell_upper`): a Junk
    cell's in whole, another tile's on the options whose shiny it leaves untouched; and for the Junk options of the
    tile-source step (at_least above -1e300) they may rule out every Junk option at once (`_junk_below_bar`: then no
    cell is valued)."""
    layout = work_at(obs)
    (a, mc, w_cnt, w_pref, w_aff, w_ls, w_ls2, w_log, w_save, w_ext, w_tl, w_grp, w_rays, f_kind, f_grp, w_bord,
     w_bval, w_arr, w_ord, w_memo, w_tv, w_sent, w_kept, w_csave, w_pool, w_tties, w_board, wl, fl) = layout
    side, K, Cr, Sh, St, Fr, tiles, n_tiles = planes(obs)
    f_touched = fl - F_PROXY - mc  # per cell: its options' best stage-1 value but for the untouched shinies'
    if mode == GREEDY:
        _board_dropped(work, a, w_board)
        nls = legal_shinies(K, Cr, Sh, tiles, n_tiles, work[w_ls:])
    else:
        nls = _board_setup(obs, rng, work, fwork, layout, K, Cr, Sh, St, Fr, side, tiles, n_tiles)
        if proxy_j == -1e300:
            proxy_j, proxy_v1 = fwork[fl - F_PROXY], fwork[fl - F_PROXY + 1]
    sp = min(spawn, obs[O_SUPPLY])  # KRUKI-2: a short supply places what it holds
    ng = obs[O_NO_GRAVEYARDS]
    cap = obs[O_RULES + R_SCORE_CAP]
    tokens_left = obs[O_TOKEN_STACK] > 0
    n = tiles_in_game(obs)
    if tile == JUNK and n_cells >= 0 and mode != GREEDY and proxy_j > -1e300 and at_least > -1e300 and _junk_below_bar(
            obs, params, mode, work, fwork, layout, K, Cr, Sh, St, Fr, side, cells_at, n_cells, nls, own, proxy_j,
            proxy_v1, at_least):
        return -1e300, 0, -1, -1e300
    nc = n_cells if n_cells >= 0 else 1
    max_v1 = -1e300
    if n_cells >= 0:
        if mode == GREEDY:
            gain_all_cached(K, Cr, Sh, Fr, side, tiles, n_tiles, work[0:a], work, w_rays, work[5 * a:6 * a])
        n_groups = _groups(mode, params, work, fwork, K, St, side, w_ls, nls, w_grp, f_grp, n, own, ng, cap,
                           tokens_left, w_cnt)
        legal_c = tile != JUNK and sp == 0
        used = 0
        for ci in range(nc):
            c = obs[cells_at + ci]
            n_replanned, seen_arms = _apply_cell(work, K, Cr, Sh, Fr, side, w_aff, w_ext, w_tl, w_rays, c, tile, sp)
            mv, bj, bp, t, tv = _scan_sparse(mode, params, work, fwork, K, St, side, w_tl, w_grp, f_grp, n,
                                             n_groups, c, legal_c, own, ng, cap, tokens_left)
            if mode != GREEDY:  # stage 2 restores it, and may skip the cell by tv
                fwork[f_touched + ci] = tv
                used = _save_cell(work, a, w_tl, w_csave, w_pool, w_tties - w_pool, ci, used, n_replanned, seen_arms,
                                  w_aff)
            _undo_cell(work, K, Cr, side, w_tl, c)
            if mv > max_v1:
                max_v1 = mv
            fwork[ci] = bj
            work[w_pref + ci] = bp
            work[w_cnt + ci] = t
    else:
        if mode == GREEDY:
            gain_all(K, Cr, Sh, Fr, side, tiles, n_tiles, -1, work[0:a])
        mv, bj, bp, t = _scan_c(obs, params, mode, work, fwork, layout, K, Cr, Sh, St, Fr, side, -1, tile, sp, own, nls,
                                1, 0.0, 0.0, w_ls2, -1, 1e300)
        max_v1 = mv
        fwork[0] = bj
        work[w_pref] = bp
        work[w_cnt] = t
    best_so_far = -1e300
    if mode != GREEDY:
        floor = _stage2_floor(mode, params, max_v1)
        # Opp >= 0, so J <= v1 whenever the opponents' weight lowers J: an option whose v1 is below the best J found
        # so far (or below at_least) can neither win nor tie, and the cells go best stage-1 value first.
        bounded = opp_lowers_j(mode, params)
        best_so_far = at_least if bounded else -1e300
        for ci in range(nc):  # insertion sort of the cells by stage-1 value, best first
            v = fwork[ci]
            j = ci
            while j > 0 and fwork[work[w_ord + j - 1]] < v:
                work[w_ord + j] = work[w_ord + j - 1]
                j -= 1
            work[w_ord + j] = ci
        base = 1e300  # the draw proxy's bound on the J of cells' untouched options before their drop (1e300: none)
        if bounded and n_cells >= 0 and proxy_j > -1e300 and _proxy_bounds(mode, params, own, max_v1, proxy_v1):
            base = _proxy_base(mode, params, own, proxy_j)
        for k in range(nc):
            ci = work[w_ord + k]
            c = obs[cells_at + ci] if n_cells >= 0 else -1
            # fwork[ci] = the cell's best v1: no option is kept; a Junk leaves no option's shiny better off, so all
            # its options are bounded as the untouched ones; another tile's untouched options are, and when its other
            # options' v1 is below the floor or the best J, `_scan_c` would value none of them
            if fwork[ci] < floor or fwork[ci] < best_so_far or (
                    base + THIRDS_MARGIN < best_so_far
                    and (tile == JUNK or fwork[f_touched + ci] < floor or fwork[f_touched + ci] < best_so_far)
                    and _cell_upper(obs, params, mode, work, K, Cr, Sh, St, Fr, side, a, c, w_sent, w_rays, ng,
                                    base) < best_so_far):
                fwork[ci] = -1e300
                work[w_pref + ci] = -1
                work[w_cnt + ci] = 0
                continue
            mv, bj, bp, t = _scan_c(obs, params, mode, work, fwork, layout, K, Cr, Sh, St, Fr, side, c, tile, sp, own,
                                    nls, 2, floor, best_so_far, w_ls2 if c < 0 else -1,
                                    work[w_csave + ci] if c >= 0 else -1, base)
            fwork[ci] = bj
            work[w_pref + ci] = bp
            work[w_cnt + ci] = t
            if bounded and bj > best_so_far:
                best_so_far = bj
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
    if pick:  # the i-th tied best option (c, s), cell by cell and s in raster order within a cell
        i = below(rng, total) if total > 1 else 0
        if n_cells < 0:  # the shiny alone: its single scan listed the tied shinies
            chosen_s = work[w_ls2 + i]
        else:  # a cell decision needs only the cell (the shiny is decided again once the tile lies)
            for ci in range(nc):
                if fwork[ci] == best_j and work[w_pref + ci] == best_p:
                    if i < work[w_cnt + ci]:
                        chosen_ci = ci
                        break
                    i -= work[w_cnt + ci]
            # the shiny decision that follows values the chosen cell's options again: keep their ties
            if mode == GREEDY:
                _keep_tied(obs, params, mode, rng, work, K, Cr, Sh, St, Fr, side, layout, nls,
                           obs[cells_at + chosen_ci], tile, sp, own, best_j, best_p)
            else:
                _keep_tied_valued(obs, params, mode, rng, work, fwork, layout, K, Cr, Sh, St, Fr, side, nls,
                                  obs[cells_at + chosen_ci], tile, sp, own, floor, max_v1, best_j,
                                  work[w_csave + chosen_ci], base)
    if mode == GREEDY:
        for i in range(n_tiles):  # clear the gid plane (shiny groups, ray-cache indices) and the memo plane
            work[5 * a + tiles[i]] = 0
            work[MEMO_PLANE * a + tiles[i]] = 0
    return best_j, chosen_ci, chosen_s, max_v1
