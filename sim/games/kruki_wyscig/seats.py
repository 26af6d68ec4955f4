"""Odin's Ravens kernel: a seat's decisions and cards (docs/rules/kruki-wyscig.md §5, RACE-16..19). Asking a
heuristic or plug-in (after writing the seat's private part into the observation), the kernel's own `random` choices
from its legal option lists, the legality checks of a plug-in's answers, drawing and the hand limit. State layout:
scratch.py.
"""
from sim.jit import kernel_njit
from sim.kernel_util import record
from sim.rng import below
from sim.games.kruki_wyscig.model import any_target, fwd, list_targets, loop_len, piles_available
from sim.games.kruki_wyscig.obs import (
    DEC_DISCARD, DEC_MIX, DEC_PILE, DEC_PLAY, DISCARD_ACTION, HAND_SIZE, H_FLIGHT, H_JOKER, H_OPTION, OBS_SIZE,
    O_APILE_SIZE, O_DECISION, O_DISC, O_DONE, O_FINAL_TURN, O_FPILE_SIZE, O_F_LAND, O_HAND, O_HAND_SIZE, O_MIX_K,
    O_N_COLS, O_OWN_APILE, O_OWN_FPILE, O_POS, O_RULES, O_SEAT, O_STACK_SIZE, O_START_PLAYER, O_WORK, PILE_ACTION,
    PILE_FLIGHT, PLACEMENT_END, PLAY_END, R_FIXED_MIX, R_HAND_LIMIT, R_LANDS, R_OSPREY, STOP, discard_action,
    discard_flight, option_kind, placement, placement_parts, play_a, play_b, play_flight, play_head, play_joker,
    play_option)
from sim.games.kruki_wyscig.rules import (
    ERROR_ILLEGAL, HEAD, JOKER_CARDS, MAX_LANDS, N_KINDS, N_OPTIONS, OPT_BACK1, OPT_DETOUR, OPT_FORWARD1, OPT_REMOVE,
    OPT_ROTATE, OPT_SLIDE, OPT_SWAP, OPT_TAKE2, STOP_SCALE, TAIL)
from sim.games.kruki_wyscig.scratch import (
    ACTION_ROW, EV_DISCARD, EV_DRAW, EV_ERROR, EV_MIX, EV_RESHUFFLE, FLIGHT_ROW, G_ERROR, PILE_ROW, PRIV_APILE,
    PRIV_FPILE, PRIV_HAND, PRIV_SIZE, STATS_ROW, S_DISCARDED, S_DRAWN, S_RESHUFFLES, WS_END, WS_GAME, WS_HEADS,
    WS_LIST, WS_PILES, WS_PRIV, WS_SEAT, WS_SIDS, WS_TOP, WS_TORD, WS_UOBS)
from strategies.kruki_wyscig import P_STOP, RANDOM


# ---- observation, decisions (§5) -------------------------------------------------------------------------------------

@kernel_njit()
def fill_private(obs, ws, seat, kind):
    """The deciding seat's private part of the observation (§5): its own hand and own pile contents. The other
    seat's part of `ws` is never read; pile orders are not read."""
    obs[O_DECISION] = kind
    obs[O_SEAT] = seat
    b = WS_PRIV + PRIV_SIZE * seat
    for i in range(HAND_SIZE):
        obs[O_HAND + i] = ws[b + PRIV_HAND + i]
    for i in range(MAX_LANDS):
        obs[O_OWN_FPILE + i] = ws[b + PRIV_FPILE + i]
    for i in range(N_KINDS):
        obs[O_OWN_APILE + i] = ws[b + PRIV_APILE + i]
    start = obs[O_START_PLAYER]
    obs[O_FINAL_TURN] = 1 if obs[O_DONE + start] != 0 and seat != start else 0


@kernel_njit()
def ask(kind, s, sparams, fns, obs, ws, rng):
    """A heuristic's or plug-in's decision `kind` for seat s (a plug-in decides on a copy of the observation);
    `fns` is (the shipped strategies' dispatch, the plug-in functions per seat)."""
    fill_private(obs, ws, s, kind)
    sid = ws[WS_SIDS + s]
    if sid > 0:
        return fns[0](sid, obs, sparams[s], rng)
    for i in range(O_WORK):
        ws[WS_UOBS + i] = obs[i]
    return fns[1][s](ws[WS_UOBS:WS_UOBS + OBS_SIZE], sparams[s], rng)


@kernel_njit()
def _hand(ws, s, i):
    return ws[WS_PRIV + PRIV_SIZE * s + i]


@kernel_njit()
def play_heads(obs, s, ws):
    """§5 play heads of seat s in canonical order into ws[WS_HEADS:]; returns their number."""
    if obs[O_DONE + s]:
        return 0
    g = fwd(obs, s, obs[O_POS + s])
    if g == -1:
        return 0
    m = obs[O_F_LAND + g]
    n = 0
    if _hand(ws, s, m) > 0:  # RACE-20
        ws[WS_HEADS] = play_flight(m)
        n = 1
    if obs[O_RULES + R_OSPREY] == 0 or _hand(ws, s, m) == 0:  # RACE-21 / osprey-joker
        for x in range(obs[O_RULES + R_LANDS]):
            if _hand(ws, s, x) >= JOKER_CARDS:
                ws[WS_HEADS + n] = play_joker(x)
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
            ws[WS_HEADS + n] = play_option(opt)
            n += 1
    return n


@kernel_njit()
def _in_list(ws, n, action):
    for i in range(n):
        if ws[WS_LIST + i] == action:
            return True
    return False


@kernel_njit()
def play_legal(obs, s, ws, action):
    """Is a plug-in's play (or STOP) legal for seat s (RACE-20..32)?"""
    if action == STOP:
        return True
    if action < 0 or action >= (PLAY_END):
        return False
    head = play_head(action)
    a = play_a(action)
    b = play_b(action)
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
        return (b == 0 and a < lands and _hand(ws, s, a) >= JOKER_CARDS
                and (obs[O_RULES + R_OSPREY] == 0 or _hand(ws, s, m) == 0))
    opt = head - H_OPTION
    if _hand(ws, s, MAX_LANDS + option_kind(opt)) == 0:
        return False
    if opt == OPT_ROTATE or opt == OPT_REMOVE or opt == OPT_SWAP or opt == OPT_SLIDE:
        n = list_targets(obs, opt, ws, WS_LIST, WS_TORD)
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
def placement_legal(obs, action):
    if action < 0 or action >= PLACEMENT_END:
        return False
    lane, j, i, r = placement_parts(action)
    if j < 1 or j >= obs[O_N_COLS]:
        return False
    return i <= loop_len(obs, lane, j) and action == placement(lane, j, i, r)


@kernel_njit()
def shuffle_at(rng, ws, off, n):
    """sim.rng.shuffle of ws[off:off+n] (the same draws: j = below(i + 1) for i = n-1 .. 1)."""
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = ws[off + i]
        ws[off + i] = ws[off + j]
        ws[off + j] = tmp


# ---- drawing (RACE-17, RACE-18) --------------------------------------------------------------------------------------

@kernel_njit()
def draw_one(s, pile, why, obs, ws, rng, trace, trace_len, tracing):
    lands = obs[O_RULES + R_LANDS]
    b = WS_PRIV + PRIV_SIZE * s
    if pile == PILE_FLIGHT:
        if ws[WS_TOP + FLIGHT_ROW + s] == ws[WS_END + FLIGHT_ROW + s]:
            # RACE-17: the discards, laid out by land, become the new flight pile
            row = WS_PILES + PILE_ROW * (FLIGHT_ROW + s)
            m = 0
            for x in range(lands):
                d = obs[O_DISC + s * MAX_LANDS + x]
                for _ in range(d):
                    ws[row + m] = x
                    m += 1
                ws[b + PRIV_FPILE + x] += d
                obs[O_DISC + s * MAX_LANDS + x] = 0
            shuffle_at(rng, ws, row, m)
            ws[WS_TOP + FLIGHT_ROW + s] = 0
            ws[WS_END + FLIGHT_ROW + s] = m
            obs[O_FPILE_SIZE + s] = m
            ws[WS_SEAT + STATS_ROW * s + S_RESHUFFLES] += 1
            if tracing:
                record(trace, trace_len, EV_RESHUFFLE, s, m, 0, 0, 0, 0, 0)
        card = ws[WS_PILES + PILE_ROW * (FLIGHT_ROW + s) + ws[WS_TOP + FLIGHT_ROW + s]]
        ws[WS_TOP + FLIGHT_ROW + s] += 1
        ws[b + card] += 1
        ws[b + PRIV_FPILE + card] -= 1
        obs[O_FPILE_SIZE + s] -= 1
    else:
        card = ws[WS_PILES + PILE_ROW * (ACTION_ROW + s) + ws[WS_TOP + ACTION_ROW + s]]
        ws[WS_TOP + ACTION_ROW + s] += 1
        ws[b + MAX_LANDS + card] += 1
        ws[b + PRIV_APILE + card] -= 1
        obs[O_APILE_SIZE + s] -= 1
    obs[O_HAND_SIZE + s] += 1
    ws[WS_SEAT + STATS_ROW * s + S_DRAWN] += 1
    if tracing:
        record(trace, trace_len, EV_DRAW, s, pile, card, why, 0, 0, 0)


@kernel_njit()
def illegal(s, kind, action, ws, trace, trace_len, tracing):
    ws[WS_GAME + G_ERROR] = ERROR_ILLEGAL  # a plug-in broke the rules; shipped strategies are tested
    if tracing:
        record(trace, trace_len, EV_ERROR, s, kind, action, 0, 0, 0, 0)


@kernel_njit()
def draw_cards(s, k, why, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
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
            m = ask(DEC_MIX, s, sparams, fns, obs, ws, rng)
            if sid < 0 and (m < 0 or m > k):
                illegal(s, DEC_MIX, m, ws, trace, trace_len, tracing)
                return False
        if tracing:
            record(trace, trace_len, EV_MIX, s, m, k, 0, 0, 0, 0)
        for i in range(k):
            fl, ac = piles_available(obs, s)
            if not (fl or ac):
                return True
            want = PILE_ACTION if i < m else PILE_FLIGHT
            pile = want if (ac if want == PILE_ACTION else fl) else (PILE_FLIGHT if fl else PILE_ACTION)
            draw_one(s, pile, why, obs, ws, rng, trace, trace_len, tracing)
        return True
    for _ in range(k):
        fl, ac = piles_available(obs, s)
        if not (fl or ac):  # [assumed] the remaining draws are skipped
            return True
        if sid == RANDOM:
            i = below(rng, int(fl) + int(ac))
            pile = PILE_FLIGHT if (fl and i == 0) else PILE_ACTION
        else:
            pile = ask(DEC_PILE, s, sparams, fns, obs, ws, rng)
            if sid < 0 and not ((pile == PILE_FLIGHT and fl) or (pile == PILE_ACTION and ac)):
                illegal(s, DEC_PILE, pile, ws, trace, trace_len, tracing)
                return False
        draw_one(s, pile, why, obs, ws, rng, trace, trace_len, tracing)
    return True


@kernel_njit()
def hand_limit(s, sparams, fns, obs, ws, rng, trace, trace_len, tracing):
    """RACE-18: discard down to the hand limit, one card at a time."""
    lands = obs[O_RULES + R_LANDS]
    b = WS_PRIV + PRIV_SIZE * s
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
            a = discard_flight(x) if x < MAX_LANDS else discard_action(x - MAX_LANDS)
        else:
            a = ask(DEC_DISCARD, s, sparams, fns, obs, ws, rng)
            if sid < 0 and not ((0 <= a < lands and ws[b + a] > 0)
                                or (DISCARD_ACTION <= a < DISCARD_ACTION + N_KINDS
                                    and ws[b + MAX_LANDS + a - DISCARD_ACTION] > 0)):
                illegal(s, DEC_DISCARD, a, ws, trace, trace_len, tracing)
                return False
        if a < DISCARD_ACTION:
            ws[b + a] -= 1
            obs[O_DISC + s * MAX_LANDS + a] += 1
        else:
            ws[b + MAX_LANDS + a - DISCARD_ACTION] -= 1  # action cards leave the game
        obs[O_HAND_SIZE + s] -= 1
        ws[WS_SEAT + STATS_ROW * s + S_DISCARDED] += 1
        if tracing:
            flight = a < DISCARD_ACTION
            record(trace, trace_len, EV_DISCARD, s, 0 if flight else 1, a if flight else a - DISCARD_ACTION, 0, 0, 0,
                   0)
    return True


@kernel_njit()
def choose_play(s, sparams, fns, obs, ws, rng):
    """The next play of seat s or STOP (§5); -1 - action when a plug-in's play is illegal."""
    sid = ws[WS_SIDS + s]
    if sid > 0:  # heuristics stop by themselves when nothing is legal (and never draw)
        return ask(DEC_PLAY, s, sparams, fns, obs, ws, rng)
    n = play_heads(obs, s, ws)
    if n == 0:  # nothing legal: stop, no decision
        return STOP
    if sid == RANDOM:
        if below(rng, STOP_SCALE) < int(sparams[s, P_STOP] * STOP_SCALE + 0.5):
            return STOP
        head = ws[WS_HEADS + below(rng, n)]
        opt = play_head(head) - H_OPTION
        if opt < OPT_ROTATE or opt > OPT_SLIDE:
            return head
        cnt = list_targets(obs, opt, ws, WS_LIST, WS_TORD)
        return ws[WS_LIST + below(rng, cnt)]
    a = ask(DEC_PLAY, s, sparams, fns, obs, ws, rng)
    if not play_legal(obs, s, ws, a):
        return -1 - a if a >= 0 else -1
    return a
