"""One Sen turn as njit code (docs/rules/sen.md SEN-5..16): the decisions, the drawn card and the powers, the call
and the end-of-turn checks. Mirrors reference.play_turn step for step."""
from sim.jit import kernel_njit
from sim.kernel_util import record
from sim.games.sen.kernel_state import (END_CALL, END_CAP, END_DECK_OUT, END_FINAL, EV_CALL, EV_DECIDE, EV_DISCARD,
                                        EV_DRAW, EV_ILLEGAL, EV_PEEK, EV_PLACE, EV_REJECT, EV_ROUND_END, EV_SWAP,
                                        EV_TAKE2_DRAW, EV_TAKE_FACEUP, EV_TURN, EV_USE, FACEUP,
                                        G_CALL_TURN_SUM, G_CALLS, G_CAPPED_ROUNDS, G_DRAWS, G_FACEUP_TAKES, G_TURNS,
                                        G_USED_TAKE2, NONE, S_CALLS, S_SWAPPED, S_UNKNOWN_AT_CALL, X_CALLER, X_END,
                                        X_ERROR, X_FD_N, X_FINAL_LEFT, X_FIRST, X_FU_N, X_IN_FINAL, X_ROUND_TURN,
                                        X_ROUNDS_PLAYED, X_TRACING, X_TURN_DRAWS, all_rows_add, draw, push_faceup)
from sim.games.sen.model import know_index, opt_discard, opt_use, peek_target, swap_target
from sim.games.sen.obs import (D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, O_CALLER,
                               O_FACEDOWN_N, O_FACEUP, O_FACEUP_N, O_FIRST, O_HELD, O_HELD_N, O_IN_FINAL, O_KIND,
                               O_OWN_TURNS, O_ROUND, O_ROUND_TURN, O_TOP, R_CALL_AFTER, R_DREAM_SIZE, R_EMPTY_PILE,
                               R_FACEUP_SPECIALS, R_FINAL_TURNS, R_MAX_TURNS, R_PEEK_SCOPE, R_TAKE2_MODE, SLOT_BASE,
                               SRC_DRAW, SRC_FACEUP)
from sim.games.sen.rules import ERROR_ILLEGAL, PEEK, SWAP, TAKE2, UNKNOWN
from strategies.sen import P_P_CALL, RANDOM, random_action

CALL = 1  # the D_CALL option that calls


@kernel_njit()
def _is_legal(kind, a, p, h0, players, ds, peek_scope):
    """Is action `a` one of the options of decision `kind` (sim/games/sen/obs.py docstring)?"""
    if kind == D_SOURCE or kind == D_KEEP or kind == D_CALL:
        return a == 0 or a == 1
    if kind == D_FACEUP_SLOT:
        return 0 <= a < ds
    if kind == D_DRAWN:
        return 0 <= a <= opt_discard(ds) or (a == opt_use(ds) and h0 >= TAKE2)
    if kind == D_PEEK:
        if a < 0 or a >= players * SLOT_BASE:
            return False
        q, s = peek_target(a)
        return s < ds and (peek_scope == 0 or q == p)
    if kind == D_SWAP:
        if a < 0 or a >= ds * SLOT_BASE * SLOT_BASE:
            return False
        i, q, j = swap_target(a)
        return q < players and q != p and j < ds
    return False


@kernel_njit(inline="always")
def ask(kind, p, h0, h1, rp, players, sids, sparams, users, w):
    """One decision of seat p (SEN-25): `random` from the option count alone; the others from p's observation.
    A plug-in's illegal action sets error 1 and returns -1."""
    x = w.x
    sid = sids[p]
    if sid == RANDOM:
        a = random_action(kind, p, players, rp[R_DREAM_SIZE], h0, rp[R_PEEK_SCOPE], sparams[p, P_P_CALL], w.rng)
    else:
        obs = w.obs2d[p]
        fu = x[X_FU_N]
        obs[O_KIND] = kind
        obs[O_HELD_N] = (1 if h0 >= 0 else 0) + (1 if h1 >= 0 else 0)
        obs[O_HELD] = h0
        obs[O_HELD + 1] = h1
        obs[O_TOP] = w.piles[FACEUP, fu - 1] if fu > 0 else NONE
        obs[O_FACEUP_N] = fu
        obs[O_FACEDOWN_N] = x[X_FD_N]
        obs[O_CALLER] = x[X_CALLER]
        obs[O_IN_FINAL] = x[X_IN_FINAL]
        obs[O_FIRST] = x[X_FIRST]
        obs[O_ROUND] = x[X_ROUNDS_PLAYED] + 1
        obs[O_ROUND_TURN] = x[X_ROUND_TURN]
        if sid > 0:
            a = w.builtin(sid, obs, sparams[p], w.rng)
        else:
            a = users[p](obs, sparams[p], w.rng)
            if not _is_legal(kind, a, p, h0, players, rp[R_DREAM_SIZE], rp[R_PEEK_SCOPE]):
                x[X_ERROR] = ERROR_ILLEGAL  # a plug-in broke the rules; shipped strategies are tested
                if x[X_TRACING]:
                    record(w.trace, w.trace_len, EV_ILLEGAL, p, kind, a, rp[R_DREAM_SIZE], 0, 0, 0)
                return -1
    if x[X_TRACING]:
        record(w.trace, w.trace_len, EV_DECIDE, p, kind, a, rp[R_DREAM_SIZE], 0, 0, 0)
    return a


@kernel_njit(inline="always")
def _into_slot(p, s, c, players, w):
    """Card c goes into p's slot s and the displaced card face up (SEN-12); returns the displaced card."""
    old = w.dreams[p, s]
    w.dreams[p, s] = c
    push_faceup(w, players, old)
    return old


@kernel_njit(inline="always")
def _take_faceup(p, s, players, game_row, w):
    """SEN-6 action A: the top face-up card goes into slot s, the displaced card face up; a special taken this way
    has no power (SEN-8). SEN-23.3: the card was public, everyone knows it."""
    x, obs2d = w.x, w.obs2d
    n = x[X_FU_N] - 1
    c = w.piles[FACEUP, n]
    x[X_FU_N] = n
    all_rows_add(obs2d, players, O_FACEUP + c, -1)
    old = _into_slot(p, s, c, players, w)
    k = know_index(p, s)
    for r in range(players):
        obs2d[r, k] = c
    game_row[G_FACEUP_TAKES] += 1
    if x[X_TRACING]:
        record(w.trace, w.trace_len, EV_TAKE_FACEUP, p, c, s, old, 0, 0, 0)


@kernel_njit(inline="always")
def _place_drawn(p, c, s, players, w):
    """SEN-7 B1: a drawn card goes into slot s; the displaced card goes face up (SEN-12). SEN-23.4: only p knows
    the new card."""
    obs2d = w.obs2d
    old = _into_slot(p, s, c, players, w)
    k = know_index(p, s)
    for r in range(players):
        obs2d[r, k] = UNKNOWN
    obs2d[p, k] = c
    if w.x[X_TRACING]:
        record(w.trace, w.trace_len, EV_PLACE, p, c, s, old, 0, 0, 0)


@kernel_njit(inline="always")
def _use_peek(p, rp, players, sids, sparams, users, w):
    """SEN-10 Peek 1: p learns one slot of any dream (own slots only with peek_scope = 1); SEN-23.6."""
    a = ask(D_PEEK, p, NONE, NONE, rp, players, sids, sparams, users, w)
    if w.x[X_ERROR]:
        return
    q, s = peek_target(a)
    w.obs2d[p, know_index(q, s)] = w.dreams[q, s]
    if w.x[X_TRACING]:
        record(w.trace, w.trace_len, EV_PEEK, p, q, s, w.dreams[q, s], 0, 0, 0)


@kernel_njit(inline="always")
def _use_swap(p, rp, players, sids, sparams, users, seat_row, w):
    """SEN-11 Swap 2: blind exchange of own slot i with slot j of seat q; SEN-23.7 knowledge travels with cards."""
    a = ask(D_SWAP, p, NONE, NONE, rp, players, sids, sparams, users, w)
    if w.x[X_ERROR]:
        return
    dreams, obs2d = w.dreams, w.obs2d
    i, q, j = swap_target(a)
    c = dreams[p, i]
    dreams[p, i] = dreams[q, j]
    dreams[q, j] = c
    ki, kj = know_index(p, i), know_index(q, j)
    for r in range(players):
        k = obs2d[r, ki]
        obs2d[r, ki] = obs2d[r, kj]
        obs2d[r, kj] = k
    seat_row[q, S_SWAPPED] += 1
    if w.x[X_TRACING]:
        record(w.trace, w.trace_len, EV_SWAP, p, i, q, j, 0, 0, 0)


@kernel_njit(inline="always")
def _use_take2(p, rp, players, sids, sparams, users, game_row, w):
    """SEN-9 Take 2 (the Take 2 card is already face up): (card to resolve next or NONE, whether a B2 of that card
    brings a second card)."""
    x = w.x
    tracing = x[X_TRACING]
    if rp[R_TAKE2_MODE] == 0:  # Sen: draw two, look at both, reject one face up, resolve the other
        c0 = draw(rp, w, players, game_row, False)
        if x[X_ERROR]:
            return NONE, False
        c1 = NONE
        if c0 != NONE:
            c1 = draw(rp, w, players, game_row, False)
            if x[X_ERROR]:
                return NONE, False
        if tracing:
            record(w.trace, w.trace_len, EV_TAKE2_DRAW, p, (c0 != NONE) + (c1 != NONE), c0, c1, 0, 0, 0)
        if c1 == NONE:  # "Precise readings": none found does nothing, one found is kept
            return c0, False
        k = ask(D_KEEP, p, c0, c1, rp, players, sids, sparams, users, w)
        if x[X_ERROR]:
            return NONE, False
        kept, rejected = (c0, c1) if k == 0 else (c1, c0)
        push_faceup(w, players, rejected)  # face up before the kept card resolves (SEN-12)
        if tracing:
            record(w.trace, w.trace_len, EV_REJECT, p, rejected, kept, 0, 0, 0, 0)
        return kept, False
    # rat-a-tat-cat: one card; only after a B2 a second card (SEN-9; B3 inside allowed [assumed]).
    c = draw(rp, w, players, game_row, False)
    if x[X_ERROR]:
        return NONE, False
    if tracing:
        record(w.trace, w.trace_len, EV_TAKE2_DRAW, p, 1 if c != NONE else 0, c, NONE, 0, 0, 0)
    return c, c != NONE


@kernel_njit(inline="always")
def _resolve_drawn(p, c, rp, players, sids, sparams, users, seat_row, game_row, w):
    """D3 for a drawn card (SEN-7 B1/B2/B3) and every card a Take 2 chain brings after it (SEN-8, SEN-9), as a loop
    like the reference."""
    x = w.x
    ds = rp[R_DREAM_SIZE]
    tracing = x[X_TRACING]
    second_pending = False
    while True:
        a = ask(D_DRAWN, p, c, NONE, rp, players, sids, sparams, users, w)
        if x[X_ERROR]:
            return
        if a < ds:  # B1
            _place_drawn(p, c, a, players, w)
            return
        push_faceup(w, players, c)  # B2 and B3 put the card face up first (SEN-7, SEN-12)
        if a == opt_discard(ds):  # B2
            if tracing:
                record(w.trace, w.trace_len, EV_DISCARD, p, c, 0, 0, 0, 0, 0)
            if not second_pending:
                return
            c = draw(rp, w, players, game_row, False)
            if x[X_ERROR]:
                return
            if tracing:
                record(w.trace, w.trace_len, EV_TAKE2_DRAW, p, 1 if c != NONE else 0, c, NONE, 0, 0, 0)
            if c == NONE:
                return
            second_pending = False
            continue
        game_row[G_USED_TAKE2 + c - TAKE2] += 1  # B3
        if tracing:
            record(w.trace, w.trace_len, EV_USE, p, c, 0, 0, 0, 0, 0)
        if c == PEEK:
            _use_peek(p, rp, players, sids, sparams, users, w)
            return
        if c == SWAP:
            _use_swap(p, rp, players, sids, sparams, users, seat_row, w)
            return
        c, second_pending = _use_take2(p, rp, players, sids, sparams, users, game_row, w)
        if c == NONE:
            return


@kernel_njit(inline="always")
def _end_round(w, reason):
    w.x[X_END] = reason
    if w.x[X_TRACING]:
        record(w.trace, w.trace_len, EV_ROUND_END, reason, w.x[X_CALLER], w.x[X_ROUND_TURN], 0, 0, 0, 0)


@kernel_njit(inline="always")
def _call(p, rp, players, sids, sparams, users, seat_row, game_row, w):
    """SEN-14: p may call "Pobudka!" once it has had call_after turns and nobody has called."""
    x, obs2d = w.x, w.obs2d
    if ask(D_CALL, p, NONE, NONE, rp, players, sids, sparams, users, w) != CALL:
        return
    x[X_CALLER] = p
    unknown = 0
    for s in range(rp[R_DREAM_SIZE]):
        if obs2d[p, know_index(p, s)] == UNKNOWN:
            unknown += 1
    game_row[G_CALLS] += 1
    game_row[G_CALL_TURN_SUM] += x[X_ROUND_TURN]  # 1-based index of this turn in the round
    seat_row[p, S_CALLS] += 1
    seat_row[p, S_UNKNOWN_AT_CALL] += unknown
    if x[X_TRACING]:
        record(w.trace, w.trace_len, EV_CALL, p, x[X_ROUND_TURN], unknown, 0, 0, 0, 0)


@kernel_njit(inline="always")
def play_turn(p, rp, players, sids, sparams, users, seat_row, game_row, w):
    """One turn of seat p (SEN-5..13), then its call decision and what follows (SEN-13..16). Returns the next
    seat to move (meaningless once the round ended or on an error)."""
    x, piles = w.x, w.piles
    x[X_TURN_DRAWS] = 0
    if x[X_TRACING]:
        record(w.trace, w.trace_len, EV_TURN, p, x[X_ROUND_TURN] + 1, x[X_IN_FINAL], 0, 0, 0, 0)
    fu = x[X_FU_N]
    a_legal = fu > 0 and (rp[R_FACEUP_SPECIALS] == 1 or piles[FACEUP, fu - 1] < TAKE2)  # SEN-6
    src = SRC_DRAW
    if a_legal:
        src = ask(D_SOURCE, p, NONE, NONE, rp, players, sids, sparams, users, w)
        if x[X_ERROR]:
            return p
    if src == SRC_FACEUP:  # SEN-6
        s = ask(D_FACEUP_SLOT, p, NONE, NONE, rp, players, sids, sparams, users, w)
        if x[X_ERROR]:
            return p
        _take_faceup(p, s, players, game_row, w)
    else:  # SEN-7
        game_row[G_DRAWS] += 1
        c = draw(rp, w, players, game_row, False)
        if x[X_ERROR]:
            return p
        if x[X_TRACING]:
            record(w.trace, w.trace_len, EV_DRAW, p, c, 0, 0, 0, 0, 0)
        if c != NONE:
            _resolve_drawn(p, c, rp, players, sids, sparams, users, seat_row, game_row, w)
            if x[X_ERROR]:
                return p
    x[X_ROUND_TURN] += 1
    all_rows_add(w.obs2d, players, O_OWN_TURNS + p, 1)
    game_row[G_TURNS] += 1
    nxt = p + 1
    if nxt == players:
        nxt = 0
    # End of turn: SEN-13 (deck-out-ends), SEN-14 call, SEN-15 final turns, SEN-16 cap, in that order.
    deck_out = rp[R_EMPTY_PILE] == 1 and x[X_FD_N] == 0  # the pile emptied during this turn
    if x[X_IN_FINAL]:  # SEN-15: no calls in final turns
        x[X_FINAL_LEFT] -= 1
        if x[X_FINAL_LEFT] == 0:
            _end_round(w, END_FINAL)
        elif deck_out:  # "a final turn that empties the pile ends the round"
            _end_round(w, END_DECK_OUT)
        return nxt
    if x[X_CALLER] < 0 and w.obs2d[p, O_OWN_TURNS + p] >= rp[R_CALL_AFTER]:  # SEN-14
        _call(p, rp, players, sids, sparams, users, seat_row, game_row, w)
        if x[X_ERROR]:
            return p
    if x[X_CALLER] >= 0:
        if deck_out:  # the call counts for SEN-19, but no final turns follow
            _end_round(w, END_DECK_OUT)
        elif rp[R_FINAL_TURNS] == 1:  # SEN-15
            x[X_IN_FINAL] = 1
            x[X_FINAL_LEFT] = players - 1
        else:
            _end_round(w, END_CALL)
        return nxt
    if deck_out:  # SEN-13 deck-out-ends
        _end_round(w, END_DECK_OUT)
    elif x[X_ROUND_TURN] >= rp[R_MAX_TURNS]:  # SEN-16, checked after the call decision
        game_row[G_CAPPED_ROUNDS] += 1
        _end_round(w, END_CAP)
    return nxt
