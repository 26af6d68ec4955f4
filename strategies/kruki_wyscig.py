"""Kruki / Odin's Ravens heuristic players (docs/rules/kruki-wyscig.md §9): hoarder, runner, saboteur, weighted, and
`choose_builtin`, the kernel's dispatch over them (`random` is played by the kernel itself).

They decide from the observation (layout, decision kinds and action encoding: sim/games/kruki_wyscig/obs.py) with
the track model of sim/games/kruki_wyscig/model.py and plan in the observation's work area
(strategies/kruki_wyscig_analysis.py). A plug-in strategy imports the same modules (docs/games/kruki-wyscig.md).
"""
from sim.jit import kernel_njit
from sim.games.kruki_wyscig.model import fwd, list_targets, nth_placement, piles_available, seg_end, seg_start
from sim.games.kruki_wyscig.obs import (
    DEC_MIX, DEC_PILE, DEC_PLACE, DEC_PLAY, H_FLIGHT, H_JOKER, O_APILE_SIZE, O_DECISION, O_DETOUR_CARD, O_DISC,
    O_DONE, O_FINAL_TURN, O_FPILE_SIZE, O_F_LAND, O_F_NEXT, O_HAND, O_HAND_A, O_HAND_F, O_MIX_K, O_N_COLS, O_POS,
    O_RULES, O_SEAT, O_STACK_SIZE, O_TURN_OPTS, PILE_ACTION, PILE_FLIGHT, R_LANDS, R_OSPREY, R_TAKE_CARDS, STOP,
    W_CAND, W_HAND, W_L, W_LAND, W_PA, W_PB, W_TORD, discard_action, discard_flight, option_kind, placement, play_a,
    play_flight, play_head, play_joker, play_option)
from sim.games.kruki_wyscig.rules import (
    HEAD, K1, K2, K3, K4, MAX_LANDS, N_KINDS, OPT_BACK1, OPT_DETOUR, OPT_FORWARD1, OPT_REMOVE, OPT_ROTATE, OPT_SLIDE,
    OPT_SWAP, OPT_TAKE2, STRATEGIES, TAIL)
from strategies.kruki_wyscig_analysis import (
    analyze, any_pile, apply_move, at_fin, card_side, copy_hand, flight_end, free_placement_exists, own_index,
    placement_k, runner_step, runs_after_edit, runs_inserted, runs_now, runs_window, window)

# Strategy ids (StrategyInfo.sid in rules.STRATEGIES).
_SID = {info.name: info.sid for info in STRATEGIES}
RANDOM, HOARDER, RUNNER, SABOTEUR, WEIGHTED = (_SID[n] for n in ("random", "hoarder", "runner", "saboteur", "weighted"))


def _column(strategy, param):
    """The column of parameter `param` in the parameter row of `strategy` (StrategyInfo.params order)."""
    return list(STRATEGIES[_SID[strategy]].params).index(param)


P_STOP = _column("random", "stop")
P_SPRINT, P_THRESHOLD, P_H_MIN = (_column("hoarder", k) for k in ("sprint", "threshold", "min_actions"))
P_R_MIN = _column("runner", "min_actions")
P_MAX_ACTIONS, P_S_THRESHOLD, P_S_MIN = (_column("saboteur", k) for k in ("max_actions", "threshold", "min_actions"))
P_W_STOP, P_W_ADV, P_W_OWN, P_W_OPP, P_W_CARD, P_W_ACT, P_W_GAIN, P_W_MIN = (
    _column("weighted", k) for k in ("stop", "w_adv", "w_own", "w_opp", "w_card", "w_act", "w_gain", "min_actions"))
BIG = 1_000_000  # "never": fields the opponent meets before a detour that lies behind it


@kernel_njit()
def draw_choice(obs, k):
    """§9 draw policy k: action cards while the hand holds fewer than k, else flights; the other pile if needed."""
    s = obs[O_SEAT]
    acts = 0
    for i in range(N_KINDS):
        acts += obs[O_HAND_A + i]
    if obs[O_DECISION] == DEC_MIX:
        return max(0, min(obs[O_MIX_K], int(k) - acts))
    fl, ac = piles_available(obs, s)
    want = PILE_ACTION if acts < k else PILE_FLIGHT
    if want == PILE_ACTION:
        return PILE_ACTION if ac else PILE_FLIGHT
    return PILE_FLIGHT if fl else PILE_ACTION


@kernel_njit()
def discard_choice(obs, k, d0, d1, d2, d3):
    """§9 discard policy: action cards beyond k in drop order d0..d3, then flights by surplus over the next 6
    fields (ties: more copies, then higher land), then the remaining action cards."""
    acts = 0
    flights = 0
    for i in range(N_KINDS):
        acts += obs[O_HAND_A + i]
    lands = obs[O_RULES + R_LANDS]
    for x in range(lands):
        flights += obs[O_HAND_F + x]
    if acts <= k and flights > 0:
        s = obs[O_SEAT]
        nxt0 = nxt1 = nxt2 = nxt3 = nxt4 = nxt5 = -1  # lands of the next 6 real fields
        g = obs[O_POS + s]
        for t in range(6):
            g = fwd(obs, s, g)
            if g == -1:
                break
            land = obs[O_F_LAND + g]
            if t == 0:
                nxt0 = land
            elif t == 1:
                nxt1 = land
            elif t == 2:
                nxt2 = land
            elif t == 3:
                nxt3 = land
            elif t == 4:
                nxt4 = land
            else:
                nxt5 = land
        best = -1
        best_sur = 0
        best_c = 0
        for x in range(lands):
            c = obs[O_HAND_F + x]
            if c == 0:
                continue
            occ = ((nxt0 == x) + (nxt1 == x) + (nxt2 == x) + (nxt3 == x) + (nxt4 == x) + (nxt5 == x))
            sur = c - occ
            if best < 0 or sur > best_sur or (sur == best_sur and c >= best_c):
                best, best_sur, best_c = x, sur, c
        return discard_flight(best)
    for kind in (d0, d1, d2, d3):
        if obs[O_HAND_A + kind] > 0:
            return discard_action(kind)
    return -1


@kernel_njit()
def _common(obs, k, d0, d1, d2, d3):
    """Decisions every heuristic takes the same way: piles, mix, discards."""
    dec = obs[O_DECISION]
    if dec == DEC_PILE or dec == DEC_MIX:
        return draw_choice(obs, k)
    return discard_choice(obs, k, d0, d1, d2, d3)


# ---- the shipped heuristics ------------------------------------------------------------------------------------------

@kernel_njit()
def choose_runner(obs, params, rng):
    """§9 runner: the runner step until none; never edits the track."""
    dec = obs[O_DECISION]
    if dec == DEC_PLAY:
        s = obs[O_SEAT]
        if obs[O_DONE + s]:
            return STOP
        g = fwd(obs, s, obs[O_POS + s])  # R1-R3 need only the next field; R4 the analysis
        if g == -1:
            return STOP
        m = obs[O_F_LAND + g]
        pile = any_pile(obs, s)
        if obs[O_HAND_F + m] > 0 or obs[O_HAND_A + K1] > 0 or (obs[O_HAND_A + K4] > 0 and pile):
            return play_flight(m) if obs[O_HAND_F + m] > 0 else (
                play_option(OPT_FORWARD1) if obs[O_HAND_A + K1] > 0 else play_option(OPT_TAKE2))
        analyze(obs)
        return runner_step(obs, s, own_index(obs, s), O_HAND, pile, True)
    if dec == DEC_PLACE:
        return nth_placement(obs, 0)
    return _common(obs, params[P_R_MIN], K2, K3, K4, K1)


@kernel_njit()
def _runner_finishes(obs, s):
    """Hoarder (1): does repeating the runner step (R1, R2, R4) on a copy finish this turn?"""
    copy_hand(obs)
    idx = own_index(obs, s)
    while not at_fin(obs, s, idx):
        a = runner_step(obs, s, idx, W_HAND, False, False)
        if a == STOP:
            return False
        idx, moved = apply_move(obs, s, idx, W_HAND, a)
    return True


@kernel_njit()
def choose_hoarder(obs, params, rng):
    dec = obs[O_DECISION]
    if dec == DEC_PLAY:
        s = obs[O_SEAT]
        if obs[O_DONE + s]:
            return STOP
        analyze(obs)
        idx = own_index(obs, s)
        take2 = obs[O_HAND_A + K4] > 0 and any_pile(obs, s)
        if _runner_finishes(obs, s):  # (1)
            if take2:
                return play_option(OPT_TAKE2)
            return runner_step(obs, s, idx, O_HAND, False, False)
        if obs[O_FINAL_TURN]:  # (2)
            if take2:
                return play_option(OPT_TAKE2)
            return runner_step(obs, s, idx, O_HAND, any_pile(obs, s), True)
        if runs_now(obs, s) <= params[P_SPRINT]:  # (3)
            return STOP
        a = runner_step(obs, s, idx, O_HAND, False, False)  # (4)
        if a == STOP or play_head(a) == H_JOKER:
            return STOP
        gain = 1
        if play_head(a) == H_FLIGHT:
            end = flight_end(obs, s, idx, play_a(a))
            gain = end - idx if s == 0 else idx - end
        return a if gain >= params[P_THRESHOLD] else STOP
    if dec == DEC_PLACE:
        return nth_placement(obs, 0)
    return _common(obs, params[P_H_MIN], K2, K3, K1, K4)


@kernel_njit()
def _placement_eval(obs, s, lane, j, f, r):
    """(Δ runs(opp), Δ runs(own), fields the opponent meets before the detour) for card obs[O_DETOUR_CARD] linked
    after record f with orientation r (needs analyze)."""
    c = obs[O_DETOUR_CARD]
    x = card_side(obs, c, r)
    y = card_side(obs, c, 1 - r)
    k = placement_k(obs, f)
    pa = obs[W_PA]
    pb = obs[W_PB]
    L = obs[W_L]
    ra = 0 if obs[O_DONE] else runs_inserted(obs, pa + 1, L - 1, k, x, y)
    rb = 0 if obs[O_DONE + 1] else runs_inserted(obs, 0, pb - 1, k, x, y)
    da = ra - runs_now(obs, 0)
    db = rb - runs_now(obs, 1)
    if s == 0:
        before = pb - 1 - k if k < pb else BIG
        return db, da, before
    before = k - pa if k >= pa else BIG
    return da, db, before


@kernel_njit()
def _best_placement(obs, params, s, weighted):
    """Saboteur: the highest actual Δ, ties: fewest fields ahead of the opponent; weighted: w_opp·Δopp − w_own·Δown.
    Both keep the first best in canonical order."""
    best = -1
    bk1 = 0
    bk2 = 0
    bv = 0.0
    for lane in range(2):
        for j in range(1, obs[O_N_COLS]):
            end = seg_end(lane, j)
            f = seg_start(lane, j)
            i = 0
            while True:
                for r in range(2):
                    d_opp, d_own, before = _placement_eval(obs, s, lane, j, f, r)
                    a = placement(lane, j, i, r)
                    if weighted:
                        v = params[P_W_OPP] * d_opp - params[P_W_OWN] * d_own
                        if best < 0 or v > bv:
                            best, bv = a, v
                    else:
                        k1 = d_opp - d_own
                        k2 = -before
                        if best < 0 or k1 > bk1 or (k1 == bk1 and k2 > bk2):
                            best, bk1, bk2 = a, k1, k2
                g = obs[O_F_NEXT + f]
                if g == end:
                    break
                f = obs[O_F_NEXT + g]
                i += 1
    return best


@kernel_njit()
def _delta(obs, s, action, own0, opp0):
    """§9 net gain Δ = (runs(opp)' − runs(opp)) − (runs(own)' − runs(own)) of an edit."""
    ra, rb = runs_after_edit(obs, action)
    if s == 0:
        return (rb - opp0) - (ra - own0)
    return (ra - opp0) - (rb - own0)


@kernel_njit()
def choose_saboteur(obs, params, rng):
    dec = obs[O_DECISION]
    s = obs[O_SEAT]
    if dec == DEC_PLAY:
        if obs[O_DONE + s]:
            return STOP
        analyze(obs)
        sab = (obs[O_TURN_OPTS + OPT_BACK1] + obs[O_TURN_OPTS + OPT_ROTATE] + obs[O_TURN_OPTS + OPT_REMOVE]
               + obs[O_TURN_OPTS + OPT_SWAP] + obs[O_TURN_OPTS + OPT_SLIDE] + obs[O_TURN_OPTS + OPT_DETOUR])
        if sab < params[P_MAX_ACTIONS]:
            q = 1 - s
            own0 = runs_now(obs, s)
            opp0 = runs_now(obs, q)
            best = -1
            best_d = 0
            if obs[O_HAND_A + K1] > 0 and not obs[O_DONE + q] and obs[O_POS + q] != (HEAD if q == 0 else TAIL):
                best = play_option(OPT_BACK1)
                best_d = _delta(obs, s, best, own0, opp0)
            for opt in (OPT_ROTATE, OPT_REMOVE, OPT_SWAP, OPT_SLIDE):
                if obs[O_HAND_A + option_kind(opt)] == 0:
                    continue
                n = list_targets(obs, opt, obs, W_CAND, W_TORD)
                for t in range(n):
                    a = obs[W_CAND + t]
                    d = _delta(obs, s, a, own0, opp0)
                    if best < 0 or d > best_d:
                        best, best_d = a, d
            if obs[O_HAND_A + K4] > 0 and obs[O_STACK_SIZE] > 0 and free_placement_exists(obs, s):
                if best < 0 or 2 > best_d:
                    best, best_d = play_option(OPT_DETOUR), 2
            if best >= 0 and best_d >= params[P_S_THRESHOLD]:
                return best
        return runner_step(obs, s, own_index(obs, s), O_HAND, False, False)
    if dec == DEC_PLACE:
        analyze(obs)
        return _best_placement(obs, params, s, False)
    return _common(obs, params[P_S_MIN], K3, K2, K1, K4)


@kernel_njit()
def _wscore(params, moved, d_own, d_opp, cards, action, drawn, done):
    """§9 weighted score, in the reference's operation order (so the floats agree exactly)."""
    return (params[P_W_ADV] * moved + params[P_W_OWN] * d_own + params[P_W_OPP] * d_opp
            - params[P_W_CARD] * cards - params[P_W_ACT] * action + params[P_W_GAIN] * drawn + 1000.0 * done)


@kernel_njit()
def _wmove(obs, params, s, idx, action, cards, is_action, own0):
    copy_hand(obs)
    new, moved = apply_move(obs, s, idx, W_HAND, action)
    done = at_fin(obs, s, new)
    own1 = 0
    if not done:
        lo, hi = window(obs, s, new)
        own1 = runs_window(obs, lo, hi)
    return _wscore(params, float(moved), float(own0 - own1), 0.0, float(cards), is_action, 0.0, 1.0 if done else 0.0)


@kernel_njit()
def choose_weighted(obs, params, rng):
    dec = obs[O_DECISION]
    s = obs[O_SEAT]
    if dec == DEC_PLAY:
        if obs[O_DONE + s]:
            return STOP
        analyze(obs)
        q = 1 - s
        own0 = runs_now(obs, s)
        opp0 = runs_now(obs, q)
        idx = own_index(obs, s)
        L = obs[W_L]
        nk = idx + 1 if s == 0 else idx - 1
        if nk < 0 or nk >= L:
            return STOP
        m = obs[W_LAND + nk]
        best = -1
        bv = 0.0
        if obs[O_HAND_F + m] > 0:  # flight
            a = play_flight(m)
            v = _wmove(obs, params, s, idx, a, 1, 0.0, own0)
            if best < 0 or v > bv:
                best, bv = a, v
        if not obs[O_RULES + R_OSPREY] or obs[O_HAND_F + m] == 0:  # jokers
            for x in range(obs[O_RULES + R_LANDS]):
                if obs[O_HAND_F + x] >= 2:
                    a = play_joker(x)
                    v = _wmove(obs, params, s, idx, a, 2, 0.0, own0)
                    if best < 0 or v > bv:
                        best, bv = a, v
        if obs[O_HAND_A + K1] > 0:
            a = play_option(OPT_FORWARD1)
            v = _wmove(obs, params, s, idx, a, 1, 1.0, own0)
            if best < 0 or v > bv:
                best, bv = a, v
            if not obs[O_DONE + q] and obs[O_POS + q] != (HEAD if q == 0 else TAIL):
                a = play_option(OPT_BACK1)
                ra, rb = runs_after_edit(obs, a)
                own1, opp1 = (ra, rb) if s == 0 else (rb, ra)
                v = _wscore(params, 0.0, float(own0 - own1), float(opp1 - opp0), 1.0, 1.0, 0.0, 0.0)
                if best < 0 or v > bv:
                    best, bv = a, v
        for opt in (OPT_ROTATE, OPT_REMOVE, OPT_SWAP, OPT_SLIDE):
            if obs[O_HAND_A + option_kind(opt)] == 0:
                continue
            n = list_targets(obs, opt, obs, W_CAND, W_TORD)
            for t in range(n):
                a = obs[W_CAND + t]
                ra, rb = runs_after_edit(obs, a)
                own1, opp1 = (ra, rb) if s == 0 else (rb, ra)
                v = _wscore(params, 0.0, float(own0 - own1), float(opp1 - opp0), 1.0, 1.0, 0.0, 0.0)
                if best < 0 or v > bv:
                    best, bv = a, v
        if obs[O_HAND_A + K4] > 0:
            if any_pile(obs, s):  # take-2
                drawable = obs[O_FPILE_SIZE + s] + obs[O_APILE_SIZE + s]
                for x in range(obs[O_RULES + R_LANDS]):
                    drawable += obs[O_DISC + s * MAX_LANDS + x]
                drawn = min(obs[O_RULES + R_TAKE_CARDS], drawable)
                v = _wscore(params, 0.0, 0.0, 0.0, 1.0, 1.0, float(drawn), 0.0)
                if best < 0 or v > bv:
                    best, bv = play_option(OPT_TAKE2), v
            if obs[O_STACK_SIZE] > 0 and free_placement_exists(obs, s):  # detour
                v = params[P_W_OPP] * 2 - params[P_W_CARD] - params[P_W_ACT]
                if best < 0 or v > bv:
                    best, bv = play_option(OPT_DETOUR), v
        if best >= 0 and bv > params[P_W_STOP]:
            return best
        return STOP
    if dec == DEC_PLACE:
        analyze(obs)
        return _best_placement(obs, params, s, True)
    return _common(obs, params[P_W_MIN], K3, K2, K1, K4)


@kernel_njit()
def choose_builtin(sid, obs, params, rng):
    """Integer dispatch over the shipped observation-based strategies (sid = StrategyInfo.sid; `random` is played
    by the kernel itself from its legal option lists, without an observation)."""
    if sid == HOARDER:
        return choose_hoarder(obs, params, rng)
    if sid == RUNNER:
        return choose_runner(obs, params, rng)
    if sid == SABOTEUR:
        return choose_saboteur(obs, params, rng)
    return choose_weighted(obs, params, rng)
