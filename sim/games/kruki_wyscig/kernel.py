"""Kruki / Odin's Ravens rules as njit code over flat integer arrays (docs/rules/kruki-wyscig.md, ids RACE-n);
mirrors reference.py draw for draw (its module docstring lists the draw order) and phase for phase.

The track is the linked list of field records of RACE-10/11, kept *inside the observation array* `obs` (layout:
obs.py; queries: model.py; edits: track.py): every action is a local edit of a few records and links, and the public
state a strategy sees is the kernel's own state, never rebuilt. Before a heuristic or plug-in decides, the kernel
writes the deciding seat's private part (own hand, own pile contents) into `obs` (seats.py); a plug-in gets a copy.
Hidden state (both hands, pile orders, the land stack order) and the statistics live in the kernel's private int32
array `ws` (layout: scratch.py). One compiled kernel serves every variant: the rules arrive as the int64 vector `rp`
(layout R_* in obs.py, rules.PARAMS order).
"""
import numpy as np
from numba import njit, types

from sim.jit import kernel_njit
from sim.kernel_util import BUILTIN_SIGNATURE, BUILTIN_TYPE, PLAY_TAIL, USER_FNS_TYPE, NativeCall, record
from sim.rng import below, stream_into
from sim.games.kruki_wyscig import rules
from sim.games.kruki_wyscig.model import back, count_placements, fwd, nth_placement, rem, runs, track_len
from sim.games.kruki_wyscig.obs import (
    DEC_PLACE, DEC_PLAY, H_FLIGHT, H_JOKER, H_OPTION, O_ACTIONS_LOG, O_APILE_SIZE, O_CARD_LAND, O_CARD_LOC,
    O_COL_CARD, O_DETOUR_CARD, O_DISC, O_DONE, O_FPILE_SIZE, O_F_GAP, O_F_LAND, O_HAND_SIZE, O_MIX_K, O_N_CARDS,
    O_N_FIELDS, O_POS, O_RULES, O_STACK_SIZE, O_START_PLAYER, O_TURN, O_TURN_FLIGHTS, O_TURN_JOKERS, O_TURN_OPTS,
    R_ACTION_COPIES, R_DRAW_PER_TURN, R_FLIGHT_PER_LAND, R_LANDS, R_MAX_TURNS, R_OSPREY, R_RERACE, R_START_HAND,
    R_START_PLAYER, R_TAKE_CARDS, R_TRACK_CARDS, STOP, option_kind, placement_parts, play_a, play_b, play_head)
from sim.games.kruki_wyscig.rules import (
    JOKER_CARDS, LOC_LOOP, MAX_LANDS, N_KINDS, N_OPTIONS, OPT_BACK1, OPT_DETOUR, OPT_FORWARD1, OPT_REMOVE, OPT_ROTATE,
    OPT_SLIDE, OPT_SWAP, OPT_TAKE2, RERACE_LIMIT, START_RANDOM)
from sim.games.kruki_wyscig.scratch import (
    ACTION_ROW, EV_ACTION, EV_COLUMN, EV_DETOUR_CARD, EV_END, EV_FINISH, EV_FLIGHT, EV_JOKER, EV_RERACE, EV_SETUP,
    EV_STATE, EV_STOP, EV_TURN, FLIGHT_ROW, G_DETOURS, G_FINAL_FINISH, G_FIRST, G_GAPS, G_LEAD, G_LEAD_RUNS,
    G_LEN_END, G_LEN_START, G_LOOPS, G_REMOVED, G_RERACES, G_SHARED, G_START, G_TIEBREAK, G_TRUNCATED, G_TURNS,
    PILE_ROW, PRIV_APILE, PRIV_FPILE, PRIV_SIZE, STATS_ROW, S_ACTIONS, S_FINAL_HAND, S_FLIGHTS, S_FORWARD, S_JOKERS,
    S_PUSHED, S_RANK, S_SCORE, S_WIN60, WHY_END, WHY_START, WHY_TAKE2, WS_END, WS_GAME, WS_PILES, WS_PRIV, WS_SEAT,
    WS_SIDS, WS_STACK, WS_STACK_N, WS_STACK_TOP, WS_START, WS_TOP, new_scratch)
from sim.games.kruki_wyscig.seats import ask, choose_play, draw_cards, hand_limit, illegal, placement_legal, shuffle_at
from sim.games.kruki_wyscig.track import (
    check_finish, do_detour, do_flight, do_remove, do_rotate, do_slide, do_step, do_swap, field_label, place_main,
    reset_track)
from strategies.kruki_wyscig import RANDOM, choose_builtin

WIN60 = 60  # a whole win in sixtieths (RACE-36); a shared win is half


# ---- plays and turns (RACE-16..33) -----------------------------------------------------------------------------------

@kernel_njit()
def execute_play(s, action, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
    """Carry out one legal play (RACE-20..32) and check finishes (RACE-22). False when a plug-in erred."""
    q = 1 - s
    head = play_head(action)
    x = play_a(action)
    b = play_b(action)
    hb = WS_PRIV + PRIV_SIZE * s
    sr = WS_SEAT + STATS_ROW * s
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
        ws[hb + x] -= JOKER_CARDS
        obs[O_DISC + s * MAX_LANDS + x] += JOKER_CARDS
        obs[O_HAND_SIZE + s] -= JOKER_CARDS
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
            ws[WS_SEAT + STATS_ROW * q + S_PUSHED] += 1
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
            if not draw_cards(s, obs[O_RULES + R_TAKE_CARDS], WHY_TAKE2, sparams, fns, obs, ws, rng, trace,
                               trace_len, tracing):
                return False
        elif not play_detour(s, sparams, fns, obs, ws, rng, trace, trace_len, tracing):  # RACE-32
            return False
        if tracing and opt != OPT_TAKE2 and opt != OPT_DETOUR:
            record(trace, trace_len, EV_ACTION, s, opt, e1, e2, 0, 0, 0)
    check_finish(obs)  # RACE-22
    if tracing:
        record(trace, trace_len, EV_STATE, field_label(obs, obs[O_POS]), field_label(obs, obs[O_POS + 1]),
               rem(obs, 0), rem(obs, 1), runs(obs, 0), runs(obs, 1), track_len(obs))
    return True


@kernel_njit()
def play_detour(s, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
    """RACE-32: the top land card of the stack, now public, then its placement. False when a plug-in erred."""
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
        pl = ask(DEC_PLACE, s, sparams, fns, obs, ws, rng)
        obs[O_DETOUR_CARD] = -1
        if ws[WS_SIDS + s] < 0 and not placement_legal(obs, pl):
            illegal(s, DEC_PLACE, pl, ws, trace, trace_len, tracing)
            return False
    lane, j, i, r = placement_parts(pl)
    do_detour(obs, c, lane, j, i, r)
    ws[WS_GAME + G_DETOURS] += 1
    if tracing:
        record(trace, trace_len, EV_ACTION, s, OPT_DETOUR, c, lane, j, i, r)
    return True


@kernel_njit()
def play_turn(s, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
    """RACE-16: plays until the player stops or finishes; then (unless finished) draw and hand limit."""
    for o in range(N_OPTIONS):
        obs[O_TURN_OPTS + o] = 0
    obs[O_TURN_FLIGHTS] = 0
    obs[O_TURN_JOKERS] = 0
    if tracing:
        record(trace, trace_len, EV_TURN, s, obs[O_TURN] + 1, obs[O_HAND_SIZE + s],
               1 if obs[O_DONE + obs[O_START_PLAYER]] else 0, 0, 0, 0)
    while True:
        a = choose_play(s, sparams, fns, obs, ws, rng)
        if a < 0:
            illegal(s, DEC_PLAY, -1 - a, ws, trace, trace_len, tracing)
            return False
        if a == STOP:
            break
        if not execute_play(s, a, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
            return False
        if obs[O_DONE + s]:  # the turn ends at once, no draw
            if tracing:
                record(trace, trace_len, EV_FINISH, s, obs[O_HAND_SIZE + s], 0, 0, 0, 0, 0)
            return True
    if tracing:
        record(trace, trace_len, EV_STOP, s, 0, 0, 0, 0, 0, 0)
    if not draw_cards(s, obs[O_RULES + R_DRAW_PER_TURN], WHY_END, sparams, fns, obs, ws, rng, trace, trace_len,
                       tracing):
        return False
    return hand_limit(s, sparams, fns, obs, ws, rng, trace, trace_len, tracing)


# ---- the game, phase by phase as reference.py: setup_game, deal_start_hands, run_race, adjudicate, record ---------

@kernel_njit()
def lay_track(rp, card_land, obs, ws, rng):
    """RACE-3/4: shuffle the land cards; lay n columns, turning a card that repeats a lane's previous land; the rest
    is the land stack."""
    n = rp[R_TRACK_CARDS]
    n_cards = card_land.shape[0] >> 1
    for c in range(n_cards):
        ws[WS_STACK + c] = c
    shuffle_at(rng, ws, WS_STACK, n_cards)
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


@kernel_njit()
def build_piles(rp, obs, ws, rng):
    """RACE-6: seat 0's flight pile, seat 0's action pile, seat 1's flight pile, seat 1's action pile, each shuffled;
    empty hands."""
    lands = rp[R_LANDS]
    fpl = rp[R_FLIGHT_PER_LAND]
    acp = rp[R_ACTION_COPIES]
    for s in range(2):
        row = WS_PILES + PILE_ROW * (FLIGHT_ROW + s)
        m = 0
        for x in range(lands):
            for _ in range(fpl):
                ws[row + m] = x
                m += 1
        shuffle_at(rng, ws, row, m)
        ws[WS_TOP + FLIGHT_ROW + s] = 0
        ws[WS_END + FLIGHT_ROW + s] = m
        obs[O_FPILE_SIZE + s] = m
        row = WS_PILES + PILE_ROW * (ACTION_ROW + s)
        m = 0
        for k in range(N_KINDS):
            for _ in range(acp):
                ws[row + m] = k
                m += 1
        shuffle_at(rng, ws, row, m)
        ws[WS_TOP + ACTION_ROW + s] = 0
        ws[WS_END + ACTION_ROW + s] = m
        obs[O_APILE_SIZE + s] = m
        b = WS_PRIV + PRIV_SIZE * s
        for i in range(PRIV_SIZE):
            ws[b + i] = 0
        for x in range(lands):
            ws[b + PRIV_FPILE + x] = fpl
        for k in range(N_KINDS):
            ws[b + PRIV_APILE + k] = acp
        obs[O_HAND_SIZE + s] = 0


@kernel_njit()
def setup_game(rp, card_land, obs, ws, rng, trace, trace_len, tracing):
    """RACE-3..7 and the public counters; start hands follow (RACE-8)."""
    for i in range(WS_SEAT, WS_STACK):
        ws[i] = 0
    ws[WS_GAME + G_FIRST] = -1
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
    lay_track(rp, card_land, obs, ws, rng)
    build_piles(rp, obs, ws, rng)
    start = below(rng, 2) if rp[R_START_PLAYER] == START_RANDOM else rp[R_START_PLAYER]  # RACE-7
    ws[WS_START] = start
    obs[O_START_PLAYER] = start
    ws[WS_GAME + G_START] = start
    ws[WS_GAME + G_LEN_START] = track_len(obs)
    if tracing:
        n = rp[R_TRACK_CARDS]
        record(trace, trace_len, EV_SETUP, start, n, obs[O_STACK_SIZE], ws[WS_GAME + G_LEN_START], 0, 0, 0)
        for j in range(1, n + 1):
            record(trace, trace_len, EV_COLUMN, j, obs[O_COL_CARD + j - 1], obs[O_F_LAND + 2 * j],
                   obs[O_F_LAND + 2 * j + 1], 0, 0, 0)


@kernel_njit()
def deal_start_hands(rp, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
    """RACE-8: start player first, each draws the start hand with the draw procedure. False when a plug-in erred."""
    S = ws[WS_START]
    return (draw_cards(S, rp[R_START_HAND], WHY_START, sparams, fns, obs, ws, rng, trace, trace_len, tracing)
            and draw_cards(1 - S, rp[R_START_HAND], WHY_START, sparams, fns, obs, ws, rng, trace, trace_len,
                           tracing))


@kernel_njit()
def run_race(rp, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
    """RACE-16, RACE-33, RACE-35: turns alternate from S until the end condition (or the cap). False when a plug-in
    erred."""
    S = ws[WS_START]
    O = 1 - S  # noqa: E741 (S and O are the rules' names)
    s = S
    while True:
        final = obs[O_DONE + S] != 0  # this turn is O's final turn
        if not final and obs[O_TURN] >= rp[R_MAX_TURNS]:  # RACE-35
            ws[WS_GAME + G_TRUNCATED] = 1
            return True
        if not play_turn(s, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
            return False
        obs[O_TURN] += 1
        ws[WS_GAME + G_TURNS] = obs[O_TURN]
        if obs[O_DONE + s] and ws[WS_GAME + G_FIRST] == -1:
            ws[WS_GAME + G_FIRST] = s
        if (s == O and obs[O_DONE + O]) or final:  # RACE-33
            return True
        s = 1 - s


@kernel_njit()
def adjudicate(obs, ws):
    """RACE-33..36: each seat's key (the higher key wins) and whether the hand sizes are equal (rerace-tie)."""
    S = ws[WS_START]
    if ws[WS_GAME + G_TRUNCATED]:  # RACE-35: the smaller rem wins
        return -rem(obs, 0), -rem(obs, 1), False
    if obs[O_DONE + S] and obs[O_DONE + 1 - S]:  # RACE-34: hand sizes
        ws[WS_GAME + G_TIEBREAK] = 1
        ws[WS_GAME + G_FINAL_FINISH] = 1
        return obs[O_HAND_SIZE], obs[O_HAND_SIZE + 1], obs[O_HAND_SIZE] == obs[O_HAND_SIZE + 1]
    return obs[O_DONE], obs[O_DONE + 1], False


@kernel_njit()
def settle(k0, k1, obs, ws):
    """RACE-36: rank 1 for a win or shared win; win share in sixtieths; score in halves (2 win, 1 shared, 0 loss);
    the winner's lead when only one raven finished."""
    s0 = WS_SEAT
    s1 = WS_SEAT + STATS_ROW
    w0 = WIN60 if k0 > k1 else (WIN60 // 2 if k0 == k1 else 0)
    ws[s0 + S_WIN60] = w0
    ws[s1 + S_WIN60] = WIN60 - w0
    ws[s0 + S_RANK] = 2 if k1 > k0 else 1
    ws[s1 + S_RANK] = 2 if k0 > k1 else 1
    ws[s0 + S_SCORE] = 2 if w0 == WIN60 else (1 if w0 == WIN60 // 2 else 0)
    ws[s1 + S_SCORE] = 2 - ws[s0 + S_SCORE]
    if w0 == WIN60 // 2:
        ws[WS_GAME + G_SHARED] = 1
    elif not (obs[O_DONE] and obs[O_DONE + 1]):
        w = 0 if w0 == WIN60 else 1
        ws[WS_GAME + G_LEAD] = rem(obs, 1 - w) - rem(obs, w)
        ws[WS_GAME + G_LEAD_RUNS] = runs(obs, 1 - w) - runs(obs, w)


@kernel_njit()
def record_game(obs, ws, seat_row, game_row):
    """End-of-game statistics (§8), then the rows out of ws."""
    for p in range(2):
        ws[WS_SEAT + STATS_ROW * p + S_FINAL_HAND] = obs[O_HAND_SIZE + p]
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
            seat_row[p, j] = ws[WS_SEAT + STATS_ROW * p + j]
    for j in range(game_row.shape[0]):
        game_row[j] = ws[WS_GAME + j]


@kernel_njit()
def play_game(rp, card_land, sids, sparams, fns, seed, game_index, seat_row, game_row, scratch, trace, trace_len):
    """One game, RACE-3..36 (rerace-tie included). Writes seat_row(2, seat columns) and game_row(game columns).
    `scratch` is the thread's Scratch; `trace` has 0 rows unless a trace is wanted."""
    obs, ws, rng = scratch.obs, scratch.ws, scratch.rng
    stream_into(rng, seed, game_index)
    tracing = trace.shape[0] > 0
    ws[WS_SIDS] = sids[0]
    ws[WS_SIDS + 1] = sids[1]
    reraces = 0
    while True:
        setup_game(rp, card_land, obs, ws, rng, trace, trace_len, tracing)
        ok = (deal_start_hands(rp, sparams, fns, obs, ws, rng, trace, trace_len, tracing)
              and run_race(rp, sparams, fns, obs, ws, rng, trace, trace_len, tracing))
        ws[WS_GAME + G_RERACES] = reraces
        if not ok:  # an illegal plug-in choice: the game is void
            record_game(obs, ws, seat_row, game_row)
            return
        k0, k1, equal = adjudicate(obs, ws)
        if equal and rp[R_RERACE] and reraces < RERACE_LIMIT:  # variant rerace-tie
            reraces += 1
            if tracing:
                record(trace, trace_len, EV_RERACE, reraces, k0, k1, 0, 0, 0, 0)
            continue
        settle(k0, k1, obs, ws)
        record_game(obs, ws, seat_row, game_row)
        if tracing:
            record(trace, trace_len, EV_END, ws[WS_SEAT + S_WIN60], ws[WS_SEAT + STATS_ROW + S_WIN60], obs[O_TURN],
                   ws[WS_GAME + G_TRUNCATED], ws[WS_GAME + G_TIEBREAK], obs[O_HAND_SIZE], obs[O_HAND_SIZE + 1])
        return


BUILTIN = NativeCall(choose_builtin, BUILTIN_SIGNATURE)
_PLAY_SIGNATURE = types.void(types.int64[::1], types.int32[::1], BUILTIN_TYPE, types.int64, types.int64[::1],
                             types.float64[:, ::1], USER_FNS_TYPE, *PLAY_TAIL)


@njit(_PLAY_SIGNATURE, cache=True, nogil=True)
def play_games(rp, card_land, builtin, players, sids, sparams, users, seed, start, count, seat_out, game_out, trace,
               trace_len):
    """Games start .. start+count−1 into seat_out(count, 2, seat columns) and game_out(count, game columns), one
    block on one scratch (every game draws from its own stream, so blocks never change results); `trace` (0 rows
    unless wanted) logs events. The engine runs blocks on its threads (sim.engine.run_chunk)."""
    scratch = new_scratch()
    fns = (builtin, users)
    # A game writes into block-local rows first: the output rows of neighbouring blocks share cache lines.
    seat_row = np.zeros((2, seat_out.shape[2]), np.int32)
    game_row = np.zeros(game_out.shape[1], np.int32)
    for i in range(count):
        play_game(rp, card_land, sids, sparams, fns, seed, start + i, seat_row, game_row, scratch, trace, trace_len)
        for s in range(2):
            for j in range(seat_row.shape[1]):
                seat_out[i, s, j] = seat_row[s, j]
        for j in range(game_row.shape[0]):
            game_out[i, j] = game_row[j]


def kernel_data(params, players, data=None):
    """(rule vector in rules.PARAMS order, printed lands of every land card flattened as [2c + side], the
    strategies' dispatch)."""
    rp = np.array([params[p.name] for p in rules.PARAMS], np.int64)
    cards = np.array(rules.build_land_cards(params), np.int32).reshape(-1)
    return rp, cards, BUILTIN
