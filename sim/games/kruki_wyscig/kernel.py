"""Kruki / Odin's Ravens rules as njit code over flat integer arrays (docs/rules/kruki-wyscig.md, ids RACE-n);
mirrors reference.py draw for draw (its module docstring lists the draw order).

The track is the linked list of field records of RACE-10/11, kept *inside the observation array* `obs`
(layout in strategies/kruki_wyscig.py): every action is a local edit of a few records and links, and the public
state a strategy sees is the kernel's own state, never rebuilt. Before a heuristic or plug-in decides, the kernel
writes the deciding seat's private part (own hand, own pile contents) into `obs`; a plug-in gets a copy. Hidden
state (both hands, pile orders, the land stack order) lives in the kernel's private int32 array `ws` (WS_SIZE):
  [WS_PRIV + 20s + i]    seat s: hand (6 flight lands, 4 action kinds), then own pile contents (6 lands, 4 kinds)
  [WS_PILES + 64r + i]   row r: flight pile of seat 0, seat 1, action pile of seat 0, seat 1; cards at
                         [WS_TOP + r, WS_END + r)
  [WS_STACK + i]         the land stack, a ring of N: top at WS_STACK_TOP, WS_STACK_N cards (RACE-4)
  [WS_SEAT + 32s + col]  per-seat output columns; [WS_GAME + col] per-game output columns (copied out at the end)
  [WS_KB + ...]          play heads and target lists (random and plug-in checks); [WS_UOBS ...] a plug-in's copy
One array instead of many keeps calls cheap: numba counts references to every array argument of a call.
One compiled kernel serves every variant: the rules arrive as the int64 vector `rp` (layout R_*, rules.PARAMS order).
"""
import numpy as np
from numba import njit, prange, types

from sim.jit import kernel_njit
from sim.kernel_util import TRACE_WIDTH, USER_FNS_TYPE, record
from sim.rng import below, stream_into
from sim.spec import GAME_BASE, SEAT_BASE
from sim.games.kruki_wyscig.rules import ERROR_ILLEGAL, GAME_COLUMNS, PARAMS, RERACE_LIMIT, SEAT_COLUMNS
from strategies.kruki_wyscig import (
    DEAD, DEC_DISCARD, DEC_MIX, DEC_PILE, DEC_PLACE, DEC_PLAY, H_FLIGHT, H_JOKER, H_OPTION, HEAD, HOME, LANE_A,
    LOC_BOX, LOC_LOOP, LOC_MAIN, LOC_STACK, LOOP, MAIN, MAX_CAND, MAX_CARDS, MAX_LANDS, N_OPTIONS,
    O_ACTIONS_LOG, O_APILE_SIZE, O_CARD_FA, O_CARD_FB, O_CARD_LAND, O_CARD_LOC, O_CARD_ROT, O_COL_CARD, O_COL_SHIFT,
    O_DECISION, O_DETOUR_CARD, O_DISC, O_DONE, O_F_CARD, O_F_COL, O_F_GAP, O_F_KIND, O_F_LAND, O_F_LANE, O_F_NEXT,
    O_F_PREV, O_F_USED, O_FINAL_TURN, O_FPILE_SIZE, O_HAND, O_HAND_SIZE, O_LOOP_CARDS, O_MIX_K, O_N_CARDS,
    O_N_COLS, O_N_FIELDS, O_OWN_APILE, O_OWN_FPILE, O_POS, O_RULES, O_SEAT, O_STACK_SIZE, O_START_PLAYER, O_TURN,
    O_TURN_FLIGHTS, O_TURN_JOKERS, O_TURN_OPTS, O_WORK, OBS_SIZE, OPT_BACK1, OPT_DETOUR, OPT_FORWARD1,
    OPT_REMOVE, OPT_ROTATE, OPT_SLIDE, OPT_SWAP, OPT_TAKE2, PILE_ACTION, PILE_FLIGHT, RANDOM, SENTINEL, SHIFT_A,
    SHIFT_B, STOP, TAIL, choose_builtin, count_placements, fin, fwd, back, insertion_point, list_targets,
    loop_len, nth_placement, option_kind, piles_available, placement, play_flight, play_joker,
    play_option, runs, rem, track_len, any_target)
from sim.games.kruki_wyscig import rules

# Rule-parameter vector layout: the order of rules.PARAMS.
(R_LANDS, R_PAIR_COPIES, R_TRACK_CARDS, R_FLIGHT_PER_LAND, R_ACTION_COPIES, R_START_HAND, R_DRAW_PER_TURN,
 R_HAND_LIMIT, R_TAKE_CARDS, R_START_PLAYER, R_MAX_TURNS, R_OSPREY, R_FIXED_MIX, R_RERACE) = range(len(PARAMS))
assert [p.name for p in PARAMS][R_RERACE] == "rerace_tie"

_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE, S_RANK, S_WIN60, S_FINAL_HAND, S_FLIGHTS, S_JOKERS, S_ACTIONS = (
    _SEAT[k] for k in ("score", "rank", "win60", "final_hand", "flights_played", "jokers", "actions_used_forward1"))
S_DRAWN, S_DISCARDED, S_RESHUFFLES, S_FORWARD, S_PUSHED = (
    _SEAT[k] for k in ("cards_drawn", "cards_discarded", "reshuffles", "fields_forward", "fields_pushed_back"))
(G_ERROR, G_START, G_TURNS, G_FIRST, G_FINAL_FINISH, G_TIEBREAK, G_SHARED, G_TRUNCATED, G_LEAD, G_LEAD_RUNS,
 G_DETOURS, G_REMOVED, G_LEN_START, G_LEN_END, G_GAPS, G_LOOPS, G_RERACES) = (
    _GAME[k] for k in GAME_BASE + GAME_COLUMNS)
assert S_ACTIONS + 7 == _SEAT["actions_used_detour"] and len(_SEAT) <= 32 and len(_GAME) <= 32

# Kernel work array ws (int32).
PILE_ROW = 64
WS_PRIV = 0  # (2 x 20)
WS_PILES = 40  # (4 x PILE_ROW)
WS_TOP = WS_PILES + 4 * PILE_ROW  # (4) + pile row
WS_END = WS_TOP + 4  # (4)
WS_STACK_TOP, WS_STACK_N, WS_START, WS_SIDS = WS_END + 4, WS_END + 5, WS_END + 6, WS_END + 7  # sids (2)
WS_SEAT = WS_END + 10  # (2 x 32)
WS_GAME = WS_SEAT + 64  # (32)
WS_STACK = WS_GAME + 32  # (MAX_CARDS)
WS_KB = WS_STACK + MAX_CARDS
KB_HEADS, KB_TORD, KB_LIST = WS_KB, WS_KB + 32, WS_KB + 32 + MAX_CARDS
WS_UOBS = KB_LIST + MAX_CAND  # (OBS_SIZE)
WS_SIZE = WS_UOBS + OBS_SIZE
# Draw reasons (trace).
WHY_START, WHY_END, WHY_TAKE2 = 0, 1, 2

# Trace event kinds (docs: describe_event in __init__.py): each event is TRACE_WIDTH int32s, [kind, a, ..., g].
(EV_SETUP, EV_COLUMN, EV_DRAW, EV_RESHUFFLE, EV_TURN, EV_FLIGHT, EV_JOKER, EV_ACTION, EV_STATE, EV_DISCARD,
 EV_STOP, EV_FINISH, EV_RERACE, EV_END, EV_ERROR, EV_DETOUR_CARD, EV_MIX) = range(1, 18)


# ---- track edits (RACE-12, RACE-20..32): local changes of records and links, no legality checks ---------------------

@kernel_njit()
def _show(obs, f, c, land):
    obs[O_F_CARD + f] = c
    obs[O_F_LAND + f] = land
    obs[O_F_GAP + f] = 0


@kernel_njit()
def _gap(obs, f):
    obs[O_F_CARD + f] = -1
    obs[O_F_LAND + f] = -1
    obs[O_F_GAP + f] = 1


@kernel_njit()
def refresh(obs, c):
    """RACE-12: write the fields of card c from its orientation, shift and place."""
    r = obs[O_CARD_ROT + c]
    s0 = obs[O_CARD_LAND + 2 * c + r]
    s1 = obs[O_CARD_LAND + 2 * c + 1 - r]
    fa = obs[O_CARD_FA + c]
    fb = obs[O_CARD_FB + c]
    loc = obs[O_CARD_LOC + c]
    if loc == LOC_MAIN:
        s = obs[O_COL_SHIFT + obs[O_F_COL + fa] - 1]
        if s == HOME:
            _show(obs, fa, c, s0)
            _show(obs, fb, c, s1)
        elif s == SHIFT_A:  # side 1-r now lies in lane A; side r protrudes
            _show(obs, fa, c, s1)
            _gap(obs, fb)
        else:  # SHIFT_B: side r lies in lane B; side 1-r protrudes
            _gap(obs, fa)
            _show(obs, fb, c, s0)
    elif loc == LOC_LOOP:
        _show(obs, fa, c, s0)
        _show(obs, fb, c, s1)


@kernel_njit()
def reset_track(obs, rp, card_land):
    """RACE-11: n empty columns (every slot a gap) linked HEAD, A1..An, Bn..B1, TAIL; all cards on the land stack."""
    n = rp[R_TRACK_CARDS]
    n_cards = card_land.shape[0] >> 1
    size = 2 + 2 * n + 2 * n_cards
    obs[O_N_COLS] = n
    obs[O_N_CARDS] = n_cards
    obs[O_N_FIELDS] = size
    obs[O_F_USED] = 2 + 2 * n
    obs[O_LOOP_CARDS] = 0
    for f in range(size):
        obs[O_F_KIND + f] = DEAD
        obs[O_F_CARD + f] = -1
        obs[O_F_LAND + f] = -1
        obs[O_F_GAP + f] = 0
        obs[O_F_LANE + f] = -1
        obs[O_F_COL + f] = 0
        obs[O_F_NEXT + f] = -1
        obs[O_F_PREV + f] = -1
    obs[O_F_KIND + HEAD] = SENTINEL
    obs[O_F_KIND + TAIL] = SENTINEL
    for j in range(1, n + 1):
        for lane in range(2):
            f = 2 * j + lane
            obs[O_F_KIND + f] = MAIN
            obs[O_F_LANE + f] = lane
            obs[O_F_COL + f] = j
            obs[O_F_GAP + f] = 1
        obs[O_COL_CARD + j - 1] = -1
        obs[O_COL_SHIFT + j - 1] = HOME
    prev = HEAD
    for j in range(1, n + 1):
        obs[O_F_NEXT + prev] = 2 * j
        obs[O_F_PREV + 2 * j] = prev
        prev = 2 * j
    for j in range(n, 0, -1):
        obs[O_F_NEXT + prev] = 2 * j + 1
        obs[O_F_PREV + 2 * j + 1] = prev
        prev = 2 * j + 1
    obs[O_F_NEXT + prev] = TAIL
    obs[O_F_PREV + TAIL] = prev
    for c in range(n_cards):
        obs[O_CARD_LAND + 2 * c] = card_land[2 * c]
        obs[O_CARD_LAND + 2 * c + 1] = card_land[2 * c + 1]
        obs[O_CARD_ROT + c] = 0
        obs[O_CARD_LOC + c] = LOC_STACK
        obs[O_CARD_FA + c] = -1
        obs[O_CARD_FB + c] = -1
    obs[O_POS] = HEAD  # RACE-5
    obs[O_POS + 1] = TAIL
    obs[O_DONE] = 0
    obs[O_DONE + 1] = 0


@kernel_njit()
def place_main(obs, j, c, r):
    obs[O_COL_CARD + j - 1] = c
    obs[O_COL_SHIFT + j - 1] = HOME
    obs[O_CARD_ROT + c] = r
    obs[O_CARD_LOC + c] = LOC_MAIN
    obs[O_CARD_FA + c] = 2 * j
    obs[O_CARD_FB + c] = 2 * j + 1
    refresh(obs, c)


@kernel_njit()
def do_flight(obs, p, land):
    """RACE-20: fly the maximal run of `land` from the next real field; returns the fields moved."""
    moved = 0
    g = fwd(obs, p, obs[O_POS + p])
    while g != -1 and obs[O_F_LAND + g] == land:
        obs[O_POS + p] = g
        moved += 1
        g = fwd(obs, p, g)
    return moved


@kernel_njit()
def do_step(obs, p):
    """RACE-21 / RACE-25: exactly one real field forward."""
    obs[O_POS + p] = fwd(obs, p, obs[O_POS + p])


@kernel_njit()
def do_rotate(obs, c):
    """RACE-27."""
    obs[O_CARD_ROT + c] ^= 1
    refresh(obs, c)


@kernel_njit()
def do_remove(obs, c):
    """RACE-28: a main card leaves gaps (its slots stay linked); a loop card's two records are unlinked."""
    fa = obs[O_CARD_FA + c]
    fb = obs[O_CARD_FB + c]
    if obs[O_CARD_LOC + c] == LOC_MAIN:
        j = obs[O_F_COL + fa]
        obs[O_COL_CARD + j - 1] = -1
        obs[O_COL_SHIFT + j - 1] = HOME
        _gap(obs, fa)
        _gap(obs, fb)
    else:
        a = obs[O_F_PREV + fa]
        b = obs[O_F_NEXT + fb]
        obs[O_F_NEXT + a] = b
        obs[O_F_PREV + b] = a
        obs[O_F_KIND + fa] = DEAD
        obs[O_F_KIND + fb] = DEAD
        obs[O_LOOP_CARDS] -= 1
    obs[O_CARD_LOC + c] = LOC_BOX


@kernel_njit()
def do_swap(obs, c1, c2):
    """RACE-29: two home main cards or two loop cards exchange places, each keeping its orientation."""
    fa1 = obs[O_CARD_FA + c1]
    fa2 = obs[O_CARD_FA + c2]
    if obs[O_CARD_LOC + c1] == LOC_MAIN:
        obs[O_COL_CARD + obs[O_F_COL + fa1] - 1] = c2
        obs[O_COL_CARD + obs[O_F_COL + fa2] - 1] = c1
    elif obs[O_F_LANE + fa1] != obs[O_F_LANE + fa2]:  # the lanes are walked in opposite directions
        obs[O_CARD_ROT + c1] ^= 1
        obs[O_CARD_ROT + c2] ^= 1
    fb1 = obs[O_CARD_FB + c1]
    obs[O_CARD_FA + c1] = fa2
    obs[O_CARD_FB + c1] = obs[O_CARD_FB + c2]
    obs[O_CARD_FA + c2] = fa1
    obs[O_CARD_FB + c2] = fb1
    refresh(obs, c1)
    refresh(obs, c2)


@kernel_njit()
def do_slide(obs, c, lane):
    """RACE-30: the home main card c slides into `lane`; the other lane's slot becomes a gap."""
    obs[O_COL_SHIFT + obs[O_F_COL + obs[O_CARD_FA + c]] - 1] = SHIFT_A if lane == LANE_A else SHIFT_B
    refresh(obs, c)


@kernel_njit()
def do_detour(obs, c, lane, j, i, r):
    """RACE-32: link card c as two loop records after insertion index i of the loop anchor (lane, j)."""
    f = insertion_point(obs, lane, j, i)
    u = np.int64(obs[O_F_USED])
    v = u + 1
    obs[O_F_USED] = u + 2
    old = obs[O_F_NEXT + f]
    for g in range(u, u + 2):
        obs[O_F_KIND + g] = LOOP
        obs[O_F_LANE + g] = lane
        obs[O_F_COL + g] = j
        obs[O_F_CARD + g] = c
    obs[O_F_NEXT + f] = u
    obs[O_F_PREV + u] = f
    obs[O_F_NEXT + u] = v
    obs[O_F_PREV + v] = u
    obs[O_F_NEXT + v] = old
    obs[O_F_PREV + old] = v
    obs[O_CARD_ROT + c] = r
    obs[O_CARD_LOC + c] = LOC_LOOP
    obs[O_CARD_FA + c] = u
    obs[O_CARD_FB + c] = v
    obs[O_LOOP_CARDS] += 1
    refresh(obs, c)


@kernel_njit()
def check_finish(obs):
    """RACE-22: a raven standing on its last real field is finished, for good."""
    for p in range(2):
        if obs[O_DONE + p] == 0 and obs[O_POS + p] == fin(obs, p):
            obs[O_DONE + p] = 1


@kernel_njit()
def field_label(obs, f):
    """A field for the trace: -1 HEAD, -2 TAIL, a main slot's id (2j + lane), 10000 + 100·lane + anchor for a loop."""
    if f == HEAD:
        return -1
    if f == TAIL:
        return -2
    if obs[O_F_KIND + f] == MAIN:
        return f
    return 10000 + 100 * obs[O_F_LANE + f] + obs[O_F_COL + f]


# ---- observation, decisions ------------------------------------------------------------------------------------------

@kernel_njit()
def fill_private(obs, ws, seat, kind):
    """The deciding seat's private part of the observation (§5): its own hand and own pile contents. The other
    seat's part of `ws` is never read; pile orders are not read."""
    obs[O_DECISION] = kind
    obs[O_SEAT] = seat
    b = WS_PRIV + 20 * seat
    for i in range(10):
        obs[O_HAND + i] = ws[b + i]
    for i in range(MAX_LANDS):
        obs[O_OWN_FPILE + i] = ws[b + 10 + i]
    for i in range(4):
        obs[O_OWN_APILE + i] = ws[b + 16 + i]
    start = obs[O_START_PLAYER]
    obs[O_FINAL_TURN] = 1 if obs[O_DONE + start] != 0 and seat != start else 0


@kernel_njit()
def _ask(kind, s, sparams, users, obs, ws, rng):
    """A heuristic's or plug-in's decision `kind` for seat s (a plug-in decides on a copy of the observation)."""
    fill_private(obs, ws, s, kind)
    sid = ws[WS_SIDS + s]
    if sid > 0:
        return choose_builtin(sid, obs, sparams[s], rng)
    for i in range(O_WORK):
        ws[WS_UOBS + i] = obs[i]
    return users[s](ws[WS_UOBS:WS_UOBS + OBS_SIZE], sparams[s], rng)


@kernel_njit()
def _hand(ws, s, i):
    return ws[WS_PRIV + 20 * s + i]


@kernel_njit()
def _heads(obs, s, ws):
    """§5 play heads of seat s in canonical order into ws[KB_HEADS:]; returns their number."""
    if obs[O_DONE + s]:
        return 0
    g = fwd(obs, s, obs[O_POS + s])
    if g == -1:
        return 0
    m = obs[O_F_LAND + g]
    n = 0
    if _hand(ws, s, m) > 0:  # RACE-20
        ws[KB_HEADS] = play_flight(m)
        n = 1
    if obs[O_RULES + R_OSPREY] == 0 or _hand(ws, s, m) == 0:  # RACE-21 / osprey-joker
        for x in range(obs[O_RULES + R_LANDS]):
            if _hand(ws, s, x) >= 2:
                ws[KB_HEADS + n] = play_joker(x)
                n += 1
    for opt in range(N_OPTIONS):
        if _hand(ws, s, MAX_LANDS + option_kind(opt)) == 0:
            continue
        ok = True
        if opt == OPT_BACK1:  # RACE-26
            q = 1 - s
            ok = obs[O_DONE + q] == 0 and obs[O_POS + q] != (HEAD if q == 0 else TAIL)
        elif opt == OPT_TAKE2:  # RACE-31
            fl, ac = piles_available(obs, s)
            ok = fl or ac
        elif opt == OPT_DETOUR:  # RACE-32
            ok = obs[O_STACK_SIZE] > 0
        elif opt != OPT_FORWARD1:  # RACE-27..30: targets are listed only for the head that is chosen
            ok = any_target(obs, opt)
        if ok:
            ws[KB_HEADS + n] = play_option(opt)
            n += 1
    return n


@kernel_njit()
def _in_list(ws, n, action):
    for i in range(n):
        if ws[KB_LIST + i] == action:
            return True
    return False


@kernel_njit()
def _play_legal(obs, s, ws, action):
    """Is a plug-in's play (or STOP) legal for seat s (RACE-20..32)?"""
    if action == STOP:
        return True
    if action < 0 or action >= ((H_OPTION + N_OPTIONS) << 16):
        return False
    head = action >> 16
    a = action & 255
    b = (action >> 8) & 255
    if obs[O_DONE + s]:
        return False
    g = fwd(obs, s, obs[O_POS + s])
    if g == -1 or head < H_FLIGHT:
        return False
    m = obs[O_F_LAND + g]
    lands = obs[O_RULES + R_LANDS]
    if head == H_FLIGHT:
        return b == 0 and a == m and _hand(ws, s, m) > 0
    if head == H_JOKER:
        return (b == 0 and a < lands and _hand(ws, s, a) >= 2
                and (obs[O_RULES + R_OSPREY] == 0 or _hand(ws, s, m) == 0))
    opt = head - H_OPTION
    if _hand(ws, s, MAX_LANDS + option_kind(opt)) == 0:
        return False
    if opt == OPT_ROTATE or opt == OPT_REMOVE or opt == OPT_SWAP or opt == OPT_SLIDE:
        n = list_targets(obs, opt, ws, KB_LIST, KB_TORD)
        if _in_list(ws, n, action):
            return True
        return opt == OPT_SWAP and _in_list(ws, n, play_option(OPT_SWAP, b, a))
    if a != 0 or b != 0:
        return False
    if opt == OPT_BACK1:
        q = 1 - s
        return obs[O_DONE + q] == 0 and obs[O_POS + q] != (HEAD if q == 0 else TAIL)
    if opt == OPT_TAKE2:
        fl, ac = piles_available(obs, s)
        return fl or ac
    if opt == OPT_DETOUR:
        return obs[O_STACK_SIZE] > 0
    return True  # forward-1: the next field exists


@kernel_njit()
def _placement_legal(obs, action):
    if action < 0 or action >= (1 << 15):
        return False
    r = action & 1
    i = (action >> 1) & 255
    j = (action >> 9) & 31
    lane = action >> 14
    if j < 1 or j >= obs[O_N_COLS]:
        return False
    return i <= loop_len(obs, lane, j) and action == placement(lane, j, i, r)


@kernel_njit()
def _shuffle_at(rng, ws, off, n):
    """sim.rng.shuffle of ws[off:off+n] (the same draws: j = below(i + 1) for i = n-1 .. 1)."""
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = ws[off + i]
        ws[off + i] = ws[off + j]
        ws[off + j] = tmp


# ---- drawing (RACE-17, RACE-18) --------------------------------------------------------------------------------------

@kernel_njit()
def _draw_one(s, pile, why, obs, ws, rng, trace, trace_len, tracing):
    lands = obs[O_RULES + R_LANDS]
    b = WS_PRIV + 20 * s
    if pile == PILE_FLIGHT:
        if ws[WS_TOP + s] == ws[WS_END + s]:  # RACE-17: the discards, laid out by land, become the new flight pile
            row = WS_PILES + PILE_ROW * s
            m = 0
            for x in range(lands):
                d = obs[O_DISC + s * MAX_LANDS + x]
                for _ in range(d):
                    ws[row + m] = x
                    m += 1
                ws[b + 10 + x] += d
                obs[O_DISC + s * MAX_LANDS + x] = 0
            _shuffle_at(rng, ws, row, m)
            ws[WS_TOP + s] = 0
            ws[WS_END + s] = m
            obs[O_FPILE_SIZE + s] = m
            ws[WS_SEAT + 32 * s + S_RESHUFFLES] += 1
            if tracing:
                record(trace, trace_len, EV_RESHUFFLE, s, m, 0, 0, 0, 0, 0)
        card = ws[WS_PILES + PILE_ROW * s + ws[WS_TOP + s]]
        ws[WS_TOP + s] += 1
        ws[b + card] += 1
        ws[b + 10 + card] -= 1
        obs[O_FPILE_SIZE + s] -= 1
    else:
        card = ws[WS_PILES + PILE_ROW * (2 + s) + ws[WS_TOP + 2 + s]]
        ws[WS_TOP + 2 + s] += 1
        ws[b + MAX_LANDS + card] += 1
        ws[b + 16 + card] -= 1
        obs[O_APILE_SIZE + s] -= 1
    obs[O_HAND_SIZE + s] += 1
    ws[WS_SEAT + 32 * s + S_DRAWN] += 1
    if tracing:
        record(trace, trace_len, EV_DRAW, s, pile, card, why, 0, 0, 0)


@kernel_njit()
def _error(s, kind, action, ws, trace, trace_len, tracing):
    ws[WS_GAME + G_ERROR] = ERROR_ILLEGAL  # a plug-in broke the rules; shipped strategies are tested
    if tracing:
        record(trace, trace_len, EV_ERROR, s, kind, action, 0, 0, 0, 0)


@kernel_njit()
def _draw_cards(s, k, why, sparams, users, obs, ws, rng, trace, trace_len, tracing):
    """RACE-17 D(k) and its fixed-mix-draw variant. Returns False when a plug-in chose an illegal option."""
    sid = ws[WS_SIDS + s]
    if obs[O_RULES + R_FIXED_MIX]:
        fl, ac = piles_available(obs, s)
        if not (fl or ac):
            return True
        if sid == RANDOM:
            m = below(rng, k + 1)
        else:
            obs[O_MIX_K] = k
            m = _ask(DEC_MIX, s, sparams, users, obs, ws, rng)
            if sid < 0 and (m < 0 or m > k):
                _error(s, DEC_MIX, m, ws, trace, trace_len, tracing)
                return False
        if tracing:
            record(trace, trace_len, EV_MIX, s, m, k, 0, 0, 0, 0)
        for i in range(k):
            fl, ac = piles_available(obs, s)
            if not (fl or ac):
                return True
            want = PILE_ACTION if i < m else PILE_FLIGHT
            pile = want if (ac if want == PILE_ACTION else fl) else (PILE_FLIGHT if fl else PILE_ACTION)
            _draw_one(s, pile, why, obs, ws, rng, trace, trace_len, tracing)
        return True
    for _ in range(k):
        fl, ac = piles_available(obs, s)
        if not (fl or ac):  # [assumed] the remaining draws are skipped
            return True
        if sid == RANDOM:
            i = below(rng, int(fl) + int(ac))
            pile = PILE_FLIGHT if (fl and i == 0) else PILE_ACTION
        else:
            pile = _ask(DEC_PILE, s, sparams, users, obs, ws, rng)
            if sid < 0 and not ((pile == PILE_FLIGHT and fl) or (pile == PILE_ACTION and ac)):
                _error(s, DEC_PILE, pile, ws, trace, trace_len, tracing)
                return False
        _draw_one(s, pile, why, obs, ws, rng, trace, trace_len, tracing)
    return True


@kernel_njit()
def _hand_limit(s, sparams, users, obs, ws, rng, trace, trace_len, tracing):
    """RACE-18: discard down to the hand limit, one card at a time."""
    lands = obs[O_RULES + R_LANDS]
    b = WS_PRIV + 20 * s
    sid = ws[WS_SIDS + s]
    while obs[O_HAND_SIZE + s] > obs[O_RULES + R_HAND_LIMIT]:
        if sid == RANDOM:  # the hand listed as flights by land, then actions by kind
            t = below(rng, obs[O_HAND_SIZE + s])
            x = 0
            while True:
                c = ws[b + x]
                if t < c:
                    break
                t -= c
                x += 1
                if x == lands:
                    x = MAX_LANDS
            a = x if x < MAX_LANDS else 8 + x - MAX_LANDS
        else:
            a = _ask(DEC_DISCARD, s, sparams, users, obs, ws, rng)
            if sid < 0 and not ((0 <= a < lands and ws[b + a] > 0)
                                or (8 <= a < 12 and ws[b + MAX_LANDS + a - 8] > 0)):
                _error(s, DEC_DISCARD, a, ws, trace, trace_len, tracing)
                return False
        if a < 8:
            ws[b + a] -= 1
            obs[O_DISC + s * MAX_LANDS + a] += 1
        else:
            ws[b + MAX_LANDS + a - 8] -= 1  # action cards leave the game
        obs[O_HAND_SIZE + s] -= 1
        ws[WS_SEAT + 32 * s + S_DISCARDED] += 1
        if tracing:
            record(trace, trace_len, EV_DISCARD, s, 0 if a < 8 else 1, a if a < 8 else a - 8, 0, 0, 0, 0)
    return True


# ---- plays and turns (RACE-16..33) -----------------------------------------------------------------------------------

@kernel_njit()
def _choose_play(s, sparams, users, obs, ws, rng):
    """The next play of seat s or STOP (§5); -1 - action when a plug-in's play is illegal."""
    sid = ws[WS_SIDS + s]
    if sid > 0:  # heuristics stop by themselves when nothing is legal (and never draw)
        return _ask(DEC_PLAY, s, sparams, users, obs, ws, rng)
    n = _heads(obs, s, ws)
    if n == 0:  # nothing legal: stop, no decision
        return STOP
    if sid == RANDOM:
        if below(rng, 1000000) < int(sparams[s, 0] * 1000000 + 0.5):
            return STOP
        head = ws[KB_HEADS + below(rng, n)]
        opt = (head >> 16) - H_OPTION
        if opt < OPT_ROTATE or opt > OPT_SLIDE:
            return head
        cnt = list_targets(obs, opt, ws, KB_LIST, KB_TORD)
        return ws[KB_LIST + below(rng, cnt)]
    a = _ask(DEC_PLAY, s, sparams, users, obs, ws, rng)
    if not _play_legal(obs, s, ws, a):
        return -1 - a if a >= 0 else -1
    return a


@kernel_njit()
def _execute(s, action, sparams, users, obs, ws, rng, trace, trace_len, tracing):
    """Carry out one legal play (RACE-20..32) and check finishes (RACE-22). False when a plug-in erred."""
    q = 1 - s
    head = action >> 16
    x = action & 255
    b = (action >> 8) & 255
    hb = WS_PRIV + 20 * s
    sr = WS_SEAT + 32 * s
    before = obs[O_POS + s]
    if head == H_FLIGHT:  # RACE-20
        ws[hb + x] -= 1
        obs[O_DISC + s * MAX_LANDS + x] += 1
        obs[O_HAND_SIZE + s] -= 1
        moved = do_flight(obs, s, x)
        ws[sr + S_FLIGHTS] += 1
        obs[O_TURN_FLIGHTS] += 1
        ws[sr + S_FORWARD] += moved
        if tracing:
            record(trace, trace_len, EV_FLIGHT, s, x, field_label(obs, before), field_label(obs, obs[O_POS + s]),
                   moved, 0, 0)
    elif head == H_JOKER:  # RACE-21
        ws[hb + x] -= 2
        obs[O_DISC + s * MAX_LANDS + x] += 2
        obs[O_HAND_SIZE + s] -= 2
        if obs[O_RULES + R_OSPREY]:  # osprey-joker: a flight of the next field's land
            moved = do_flight(obs, s, obs[O_F_LAND + fwd(obs, s, before)])
        else:
            do_step(obs, s)
            moved = 1
        ws[sr + S_JOKERS] += 1
        obs[O_TURN_JOKERS] += 1
        ws[sr + S_FORWARD] += moved
        if tracing:
            record(trace, trace_len, EV_JOKER, s, x, field_label(obs, before), field_label(obs, obs[O_POS + s]),
                   moved, 0, 0)
    else:  # RACE-23: the card leaves the hand before its effect
        opt = head - H_OPTION
        ws[hb + MAX_LANDS + option_kind(opt)] -= 1
        obs[O_HAND_SIZE + s] -= 1
        ws[sr + S_ACTIONS + opt] += 1
        obs[O_TURN_OPTS + opt] += 1
        obs[O_ACTIONS_LOG + s * N_OPTIONS + opt] += 1
        e1 = x
        e2 = b
        if opt == OPT_FORWARD1:  # RACE-25
            do_step(obs, s)
            ws[sr + S_FORWARD] += 1
            e1 = field_label(obs, before)
            e2 = field_label(obs, obs[O_POS + s])
        elif opt == OPT_BACK1:  # RACE-26
            was = obs[O_POS + q]
            obs[O_POS + q] = back(obs, q, was)
            ws[WS_SEAT + 32 * q + S_PUSHED] += 1
            e1 = field_label(obs, was)
            e2 = field_label(obs, obs[O_POS + q])
        elif opt == OPT_ROTATE:  # RACE-27
            do_rotate(obs, x)
        elif opt == OPT_REMOVE:  # RACE-28
            do_remove(obs, x)
            ws[WS_GAME + G_REMOVED] += 1
        elif opt == OPT_SWAP:  # RACE-29
            do_swap(obs, x, b)
        elif opt == OPT_SLIDE:  # RACE-30
            do_slide(obs, x, b)
        elif opt == OPT_TAKE2:  # RACE-31
            if tracing:
                record(trace, trace_len, EV_ACTION, s, opt, 0, 0, 0, 0, 0)
            if not _draw_cards(s, obs[O_RULES + R_TAKE_CARDS], WHY_TAKE2, sparams, users, obs, ws, rng, trace,
                               trace_len, tracing):
                return False
        else:  # RACE-32: the top land card, now public, then the placement
            c = ws[WS_STACK + ws[WS_STACK_TOP]]
            ws[WS_STACK_TOP] += 1
            if ws[WS_STACK_TOP] == obs[O_N_CARDS]:
                ws[WS_STACK_TOP] = 0
            ws[WS_STACK_N] -= 1
            obs[O_STACK_SIZE] -= 1
            if tracing:
                record(trace, trace_len, EV_DETOUR_CARD, s, c, obs[O_CARD_LAND + 2 * c], obs[O_CARD_LAND + 2 * c + 1],
                       0, 0, 0)
            if ws[WS_SIDS + s] == RANDOM:
                pl = nth_placement(obs, below(rng, count_placements(obs)))
            else:
                obs[O_DETOUR_CARD] = c
                pl = _ask(DEC_PLACE, s, sparams, users, obs, ws, rng)
                obs[O_DETOUR_CARD] = -1
                if ws[WS_SIDS + s] < 0 and not _placement_legal(obs, pl):
                    _error(s, DEC_PLACE, pl, ws, trace, trace_len, tracing)
                    return False
            lane = pl >> 14
            j = (pl >> 9) & 31
            i = (pl >> 1) & 255
            r = pl & 1
            do_detour(obs, c, lane, j, i, r)
            ws[WS_GAME + G_DETOURS] += 1
            if tracing:
                record(trace, trace_len, EV_ACTION, s, opt, c, lane, j, i, r)
        if tracing and opt != OPT_TAKE2 and opt != OPT_DETOUR:
            record(trace, trace_len, EV_ACTION, s, opt, e1, e2, 0, 0, 0)
    check_finish(obs)  # RACE-22
    if tracing:
        record(trace, trace_len, EV_STATE, field_label(obs, obs[O_POS]), field_label(obs, obs[O_POS + 1]),
               rem(obs, 0), rem(obs, 1), runs(obs, 0), runs(obs, 1), track_len(obs))
    return True


@kernel_njit()
def _play_turn(s, sparams, users, obs, ws, rng, trace, trace_len, tracing):
    """RACE-16: plays until the player stops or finishes; then (unless finished) draw and hand limit."""
    for o in range(N_OPTIONS):
        obs[O_TURN_OPTS + o] = 0
    obs[O_TURN_FLIGHTS] = 0
    obs[O_TURN_JOKERS] = 0
    if tracing:
        record(trace, trace_len, EV_TURN, s, obs[O_TURN] + 1, obs[O_HAND_SIZE + s],
               1 if obs[O_DONE + obs[O_START_PLAYER]] else 0, 0, 0, 0)
    while True:
        a = _choose_play(s, sparams, users, obs, ws, rng)
        if a < 0:
            _error(s, DEC_PLAY, -1 - a, ws, trace, trace_len, tracing)
            return False
        if a == STOP:
            break
        if not _execute(s, a, sparams, users, obs, ws, rng, trace, trace_len, tracing):
            return False
        if obs[O_DONE + s]:  # the turn ends at once, no draw
            if tracing:
                record(trace, trace_len, EV_FINISH, s, obs[O_HAND_SIZE + s], 0, 0, 0, 0, 0)
            return True
    if tracing:
        record(trace, trace_len, EV_STOP, s, 0, 0, 0, 0, 0, 0)
    if not _draw_cards(s, obs[O_RULES + R_DRAW_PER_TURN], WHY_END, sparams, users, obs, ws, rng, trace, trace_len,
                       tracing):
        return False
    return _hand_limit(s, sparams, users, obs, ws, rng, trace, trace_len, tracing)


# ---- setup and the game ----------------------------------------------------------------------------------------------

@kernel_njit()
def _setup(rp, card_land, obs, ws, rng, trace, trace_len, tracing):
    """RACE-3..7 and the public counters; start hands follow (RACE-8)."""
    n = rp[R_TRACK_CARDS]
    lands = rp[R_LANDS]
    n_cards = card_land.shape[0] >> 1
    for i in range(WS_SEAT, WS_STACK):
        ws[i] = 0
    for i in range(len(rp)):
        obs[O_RULES + i] = rp[i]
    reset_track(obs, rp, card_land)
    for i in range(2 * MAX_LANDS):
        obs[O_DISC + i] = 0
    for i in range(2 * N_OPTIONS):
        obs[O_ACTIONS_LOG + i] = 0
    for i in range(N_OPTIONS):
        obs[O_TURN_OPTS + i] = 0
    obs[O_TURN_FLIGHTS] = 0
    obs[O_TURN_JOKERS] = 0
    obs[O_TURN] = 0
    obs[O_DETOUR_CARD] = -1
    obs[O_MIX_K] = 0
    # RACE-3: shuffle the land cards; lay n columns, turning a card that repeats a lane's previous land.
    for c in range(n_cards):
        ws[WS_STACK + c] = c
    _shuffle_at(rng, ws, WS_STACK, n_cards)
    top = 0
    size = n_cards
    prev_a = -1
    prev_b = -1
    for j in range(1, n + 1):
        tries = 0
        while True:
            c = ws[WS_STACK + top]
            top += 1
            if top == n_cards:
                top = 0
            size -= 1
            r = below(rng, 2)  # [assumed] uniformly random first orientation
            if card_land[2 * c + r] == prev_a or card_land[2 * c + 1 - r] == prev_b:
                r ^= 1
            if (card_land[2 * c + r] == prev_a or card_land[2 * c + 1 - r] == prev_b) and tries <= size:
                t = top + size  # still conflicting (only with edited card data): bottom of the stack
                if t >= n_cards:
                    t -= n_cards
                ws[WS_STACK + t] = c
                size += 1
                tries += 1
                continue
            break
        place_main(obs, j, c, r)
        prev_a = card_land[2 * c + r]
        prev_b = card_land[2 * c + 1 - r]
    ws[WS_STACK_TOP] = top
    ws[WS_STACK_N] = size
    obs[O_STACK_SIZE] = size  # RACE-4
    # RACE-6: seat 0's flight pile, seat 0's action pile, seat 1's flight pile, seat 1's action pile.
    fpl = rp[R_FLIGHT_PER_LAND]
    acp = rp[R_ACTION_COPIES]
    for s in range(2):
        row = WS_PILES + PILE_ROW * s
        m = 0
        for x in range(lands):
            for _ in range(fpl):
                ws[row + m] = x
                m += 1
        _shuffle_at(rng, ws, row, m)
        ws[WS_TOP + s] = 0
        ws[WS_END + s] = m
        obs[O_FPILE_SIZE + s] = m
        row = WS_PILES + PILE_ROW * (2 + s)
        m = 0
        for k in range(4):
            for _ in range(acp):
                ws[row + m] = k
                m += 1
        _shuffle_at(rng, ws, row, m)
        ws[WS_TOP + 2 + s] = 0
        ws[WS_END + 2 + s] = m
        obs[O_APILE_SIZE + s] = m
        b = WS_PRIV + 20 * s
        for i in range(20):
            ws[b + i] = 0
        for x in range(lands):
            ws[b + 10 + x] = fpl
        for k in range(4):
            ws[b + 16 + k] = acp
        obs[O_HAND_SIZE + s] = 0
    start = below(rng, 2) if rp[R_START_PLAYER] == -1 else rp[R_START_PLAYER]  # RACE-7
    ws[WS_START] = start
    obs[O_START_PLAYER] = start
    ws[WS_GAME + G_START] = start
    ws[WS_GAME + G_LEN_START] = track_len(obs)
    if tracing:
        record(trace, trace_len, EV_SETUP, start, n, size, ws[WS_GAME + G_LEN_START], 0, 0, 0)
        for j in range(1, n + 1):
            record(trace, trace_len, EV_COLUMN, j, obs[O_COL_CARD + j - 1], obs[O_F_LAND + 2 * j],
                   obs[O_F_LAND + 2 * j + 1], 0, 0, 0)


@kernel_njit()
def play_game(rp, card_land, sids, sparams, users, seed, game_index, seat_row, game_row, obs, ws, rng, trace,
              trace_len):
    """One game, RACE-3..36 (rerace-tie included). Writes seat_row(2, seat columns) and game_row(game columns).
    Scratch: obs(OBS_SIZE) ws(WS_SIZE) rng(1); `trace` has 0 rows unless a trace is wanted."""
    stream_into(rng, seed, game_index)
    tracing = trace.shape[0] > 0
    ws[WS_SIDS] = sids[0]
    ws[WS_SIDS + 1] = sids[1]
    reraces = 0
    G = WS_GAME
    while True:
        _setup(rp, card_land, obs, ws, rng, trace, trace_len, tracing)
        S = ws[WS_START]
        O = 1 - S  # noqa: E741 (S and O are the rules' names)
        ok = _draw_cards(S, rp[R_START_HAND], WHY_START, sparams, users, obs, ws, rng, trace, trace_len, tracing)
        if ok:  # RACE-8: start player first
            ok = _draw_cards(O, rp[R_START_HAND], WHY_START, sparams, users, obs, ws, rng, trace, trace_len, tracing)
        turns = 0
        first = -1
        s = S
        while ok:  # RACE-16, RACE-33, RACE-35
            final = obs[O_DONE + S] != 0  # this turn is O's final turn
            if not final and turns >= rp[R_MAX_TURNS]:
                ws[G + G_TRUNCATED] = 1
                break
            ok = _play_turn(s, sparams, users, obs, ws, rng, trace, trace_len, tracing)
            if not ok:
                break
            turns += 1
            obs[O_TURN] = turns
            if obs[O_DONE + s] and first == -1:
                first = s
            if (s == O and obs[O_DONE + O]) or final:
                break
            s = 1 - s
        ws[G + G_TURNS] = turns
        ws[G + G_FIRST] = first
        ws[G + G_RERACES] = reraces
        if not ok:  # an illegal plug-in choice: the game is void
            _record(obs, ws, seat_row, game_row)
            return
        # RACE-33..36
        equal = False
        if ws[G + G_TRUNCATED]:  # RACE-35: the smaller rem wins
            k0 = -rem(obs, 0)
            k1 = -rem(obs, 1)
        elif obs[O_DONE + S] and obs[O_DONE + O]:  # RACE-34: hand sizes
            ws[G + G_TIEBREAK] = 1
            ws[G + G_FINAL_FINISH] = 1
            k0 = obs[O_HAND_SIZE]
            k1 = obs[O_HAND_SIZE + 1]
            equal = k0 == k1
        else:
            k0 = obs[O_DONE]
            k1 = obs[O_DONE + 1]
        if equal and rp[R_RERACE] and reraces < RERACE_LIMIT:  # variant rerace-tie
            reraces += 1
            if tracing:
                record(trace, trace_len, EV_RERACE, reraces, k0, k1, 0, 0, 0, 0)
            continue
        # RACE-36: rank 1 for a win or shared win; win share in sixtieths; score in halves (2 win, 1 shared, 0 loss)
        w0 = 60 if k0 > k1 else (30 if k0 == k1 else 0)
        ws[WS_SEAT + S_WIN60] = w0
        ws[WS_SEAT + 32 + S_WIN60] = 60 - w0
        ws[WS_SEAT + S_RANK] = 2 if k1 > k0 else 1
        ws[WS_SEAT + 32 + S_RANK] = 2 if k0 > k1 else 1
        ws[WS_SEAT + S_SCORE] = 2 if w0 == 60 else (1 if w0 == 30 else 0)
        ws[WS_SEAT + 32 + S_SCORE] = 2 - ws[WS_SEAT + S_SCORE]
        if w0 == 30:
            ws[G + G_SHARED] = 1
        elif not (obs[O_DONE] and obs[O_DONE + 1]):
            w = 0 if w0 == 60 else 1
            ws[G + G_LEAD] = rem(obs, 1 - w) - rem(obs, w)
            ws[G + G_LEAD_RUNS] = runs(obs, 1 - w) - runs(obs, w)
        _record(obs, ws, seat_row, game_row)
        if tracing:
            record(trace, trace_len, EV_END, ws[WS_SEAT + S_WIN60], ws[WS_SEAT + 32 + S_WIN60], turns,
                   ws[G + G_TRUNCATED], ws[G + G_TIEBREAK], obs[O_HAND_SIZE], obs[O_HAND_SIZE + 1])
        return


@kernel_njit()
def _record(obs, ws, seat_row, game_row):
    """End-of-game statistics (§8), then the rows out of ws."""
    for p in range(2):
        ws[WS_SEAT + 32 * p + S_FINAL_HAND] = obs[O_HAND_SIZE + p]
    ws[WS_GAME + G_LEN_END] = track_len(obs)
    gaps = 0
    for f in range(obs[O_N_FIELDS]):
        gaps += obs[O_F_GAP + f]
    ws[WS_GAME + G_GAPS] = gaps
    loops = 0
    for c in range(obs[O_N_CARDS]):
        if obs[O_CARD_LOC + c] == LOC_LOOP:
            loops += 1
    ws[WS_GAME + G_LOOPS] = loops
    for p in range(2):
        for j in range(seat_row.shape[1]):
            seat_row[p, j] = ws[WS_SEAT + 32 * p + j]
    for j in range(game_row.shape[0]):
        game_row[j] = ws[WS_GAME + j]


@kernel_njit()
def _scratch():
    """Per-thread working arrays for play_game: obs, ws, rng."""
    return np.zeros(OBS_SIZE, np.int32), np.zeros(WS_SIZE, np.int32), np.zeros(1, np.uint64)


_CHUNK_SIGNATURE = types.void(
    types.int64[::1], types.int32[::1], types.int64, types.int64[::1], types.float64[:, ::1], USER_FNS_TYPE,
    types.int64, types.int64, types.int64, types.int32[:, :, ::1], types.int32[:, ::1])


@njit(_CHUNK_SIGNATURE, cache=True, parallel=True)
def run_chunk(rp, card_land, players, sids, sparams, users, seed, start, count, seat_out, game_out):
    """Games start .. start+count−1 into seat_out(count, 2, seat columns) and game_out(count, game columns).
    Blocks of games share scratch arrays; every game draws from its own stream, so blocking never changes results."""
    blocks = min(count, 256)
    for blk in prange(blocks):
        obs, ws, rng = _scratch()
        no_trace = np.zeros((0, TRACE_WIDTH), np.int32)
        trace_len = np.zeros(1, np.int64)
        # Block-local copies of the shared inputs and rows for the outputs: numba counts references to an array on
        # every call that takes it, and threads doing that on one shared array fight over its cache line.
        my_rp, my_cards, my_sids, my_sparams = rp.copy(), card_land.copy(), sids.copy(), sparams.copy()
        seat_row = np.zeros((2, seat_out.shape[2]), np.int32)
        game_row = np.zeros(game_out.shape[1], np.int32)
        for i in range(count * blk // blocks, count * (blk + 1) // blocks):
            play_game(my_rp, my_cards, my_sids, my_sparams, users, seed, start + i, seat_row, game_row, obs, ws, rng,
                      no_trace, trace_len)
            for s in range(2):
                for j in range(seat_row.shape[1]):
                    seat_out[i, s, j] = seat_row[s, j]
            for j in range(game_row.shape[0]):
                game_out[i, j] = game_row[j]


@kernel_njit()
def trace_one(rp, card_land, players, sids, sparams, users, seed, game_index, seat_row, game_row, trace, trace_len):
    """One game with its event log (for `sim trace`)."""
    obs, ws, rng = _scratch()
    play_game(rp, card_land, sids, sparams, users, seed, game_index, seat_row, game_row, obs, ws, rng, trace,
              trace_len)


def kernel_data(params, players, data=None):
    """(rule vector in rules.PARAMS order, printed lands of every land card flattened as [2c + side])."""
    rp = np.array([params[p.name] for p in rules.PARAMS], np.int64)
    cards = np.array(rules.build_land_cards(params), np.int32).reshape(-1)
    return rp, cards

