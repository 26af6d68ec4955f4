"""Sen rules as njit code over flat integer arrays (docs/rules/sen.md); mirrors reference.py draw for draw.

One compiled kernel serves every variant: the rules arrive as the int64 parameter vector `rp` (layout `R_*` in
strategies/sen.py, the order of `rules.PARAMS`), the canonical deck and the ravens table. Strategies see only the
observation (`strategies.sen`): one int32 row per seat, whose knowledge-table section IS the kernel's knowledge
table K_p (SEN-22), and whose public counters (face-up counts, own turns, totals) the kernel updates in every row
as they change; the per-decision scalars are written just before a strategy is asked.

Random draws happen in the reference's order (its module docstring): below(N) for the first player, a full
Fisher–Yates shuffle of the canonical deck each round, the `random` strategy's choices, reshuffles.
"""
import numpy as np
from numba import njit, prange, types

from sim.jit import kernel_njit
from sim.kernel_util import TRACE_WIDTH, USER_FNS_TYPE, record, set_ranks
from sim.rng import below, shuffle, stream_into
from sim.games.sen.rules import (D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, ERROR_CHAIN,
                                 ERROR_ILLEGAL, GAME_COLUMNS, MAX_DREAM, MAX_TURN_DRAWS, N_CODES, PEEK,
                                 SEAT_COLUMNS, SWAP, TAKE2, UNKNOWN)
from sim.spec import GAME_BASE, SEAT_BASE
from strategies.sen import (MAX_SEATS, O_CALLER, O_DECK, O_DREAM_SIZE, O_FACEDOWN_N, O_FACEUP, O_FACEUP_N,
                            O_FIRST, O_HELD, O_HELD_N, O_IN_FINAL, O_KIND, O_KNOW, O_OWN_TURNS, O_PLAYERS,
                            O_RAVENS, O_ROUND, O_ROUND_TURN, O_RULES, O_SEAT, O_TOP, O_TOTALS, OBS_SIZE,
                            R_CALL_AFTER, R_CALLER_PENALTY, R_COPIES_0_8, R_COPIES_9, R_DREAM_SIZE, R_EMPTY_PILE,
                            R_END_SCORE, R_FACEUP_SPECIALS, R_FINAL_TURNS, R_MAX_ROUNDS, R_MAX_TURNS,
                            R_PEEK_SCOPE, R_REPLACE_SPECIALS, R_ROUNDS, R_TAKE2_MODE, RANDOM, SLOT_BASE, SRC_DRAW,
                            SRC_FACEUP, choose_builtin, random_action)
from sim.games.sen import rules

_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE = _SEAT["score"]
S_CALLS, S_PENALTIES, S_ROUND_LOWS, S_UNKNOWN_AT_CALL, S_SWAPPED = (_SEAT[k] for k in SEAT_COLUMNS)
(G_ERROR, G_ROUNDS, G_CAPPED_ROUNDS, G_CAPPED, G_TURNS, G_RESHUFFLES, G_CALLS, G_CALL_TURN_SUM, G_CALLER_LOWEST,
 G_PENALTIES, G_FACEUP_TAKES, G_DRAWS, G_CARDS_DRAWN, G_DRAWN_TAKE2, G_DRAWN_PEEK, G_DRAWN_SWAP, G_USED_TAKE2,
 G_USED_PEEK, G_USED_SWAP, G_SPECIALS_IN_DREAMS, G_REPLACEMENTS, G_ROUND_SCORE_SUM, G_SEAT_ROUNDS, G_MIN_ROUND,
 G_MAX_ROUND, G_WINNER_MARGIN) = (_GAME[k] for k in GAME_BASE + GAME_COLUMNS)
assert GAME_COLUMNS[-1] == "winner_margin" and SEAT_COLUMNS[-1] == "swapped_against"

# Scalar game state, int64 x(X_SIZE).
(X_FD_N, X_FU_N, X_CALLER, X_ROUND_TURN, X_IN_FINAL, X_FINAL_LEFT, X_END, X_TURN_DRAWS, X_FIRST, X_ROUNDS_PLAYED,
 X_ERROR, X_CAPPED, X_TRACING) = range(13)
X_SIZE = 13
# How a round ended (X_END; 0 = still going).
END_FINAL, END_CALL, END_DECK_OUT, END_CAP = 1, 2, 3, 4
NONE = -1  # "no card" (a draw that found nothing)

# Trace event kinds (decoded by describe_event in __init__.py): each event is TRACE_WIDTH int32s,
# [kind, a, b, c, d, e, f, g].
EV_ROUND_START = 1  # round, first player, face-down count, face-up top
EV_DEAL = 2  # seat, slot cards 0..5 (-1 padded)
EV_TURN = 3  # seat, turn number in the round (1-based), final turn flag
EV_DECIDE = 4  # seat, decision kind, action, dream size (to decode the action)
EV_ILLEGAL = 5  # seat, decision kind, action, dream size (a plug-in's illegal action; the game stops with error 1)
EV_TAKE_FACEUP = 6  # seat, card, slot, displaced card
EV_DRAW = 7  # seat, card (-1: nothing to draw)
EV_PLACE = 8  # seat, card, slot, displaced card
EV_DISCARD = 9  # seat, card
EV_USE = 10  # seat, card
EV_TAKE2_DRAW = 11  # seat, cards found, first card, second card
EV_REJECT = 12  # seat, rejected card, kept card
EV_PEEK = 13  # seat, target seat, slot, card seen
EV_SWAP = 14  # seat, own slot, target seat, target slot
EV_CALL = 15  # seat, turn number in the round, own unknown slots
EV_RESHUFFLE = 16  # cards reshuffled
EV_ROUND_END = 17  # reason (END_*), caller, turns in the round
EV_REVEAL = 18  # seat, slot cards 0..5 (-1 padded), before replacement
EV_REPLACE = 19  # seat, slot, removed special, drawn card
EV_SCORE = 20  # seat, raw score, penalty, round score, total, caller


@kernel_njit(inline="always")
def _all_rows_add(obs2d, players, col, delta):
    """A public counter changed: update it in every seat's observation row."""
    for r in range(players):
        obs2d[r, col] += delta


@kernel_njit(inline="always")
def _push_faceup(piles, x, obs2d, players, c):
    """A card goes face up (SEN-12); everyone sees it (SEN-23.5, SEN-24)."""
    n = x[X_FU_N]
    piles[1, n] = c
    x[X_FU_N] = n + 1
    _all_rows_add(obs2d, players, O_FACEUP + c, 1)


@kernel_njit()
def _reshuffle(piles, x, obs2d, players, rng, game_row, trace, trace_len):
    """SEN-13: every face-up card except the top is shuffled into a new face-down pile (top = last)."""
    n = x[X_FU_N] - 1
    top = piles[1, n]
    for k in range(n):
        piles[0, k] = piles[1, k]
    shuffle(rng, piles[0], n)
    piles[1, 0] = top
    x[X_FU_N] = 1
    x[X_FD_N] = n
    for r in range(players):
        for c in range(N_CODES):
            obs2d[r, O_FACEUP + c] = 0
        obs2d[r, O_FACEUP + top] = 1
    game_row[G_RESHUFFLES] += 1
    if x[X_TRACING]:
        record(trace, trace_len, EV_RESHUFFLE, n, 0, 0, 0, 0, 0, 0)


@kernel_njit(inline="always")
def _draw(rp, piles, x, obs2d, players, rng, game_row, scoring, trace, trace_len):
    """The top face-down card, or NONE (SEN-13); counts turn draws unless `scoring`. Sets error 2 past the cap."""
    if x[X_FD_N] == 0:
        if rp[R_EMPTY_PILE] == 1 and not scoring:  # SEN-13 deck-out-ends: no reshuffle during play
            return NONE
        if x[X_FU_N] <= 1:  # "Precise readings": nothing to reshuffle, the draw finds nothing
            return NONE
        _reshuffle(piles, x, obs2d, players, rng, game_row, trace, trace_len)
    n = x[X_FD_N] - 1
    c = np.int64(piles[0, n])
    x[X_FD_N] = n
    if not scoring:
        x[X_TURN_DRAWS] += 1
        if x[X_TURN_DRAWS] > MAX_TURN_DRAWS:
            x[X_ERROR] = ERROR_CHAIN
            return NONE
        game_row[G_CARDS_DRAWN] += 1
        if c >= TAKE2:  # specials_drawn_* counts every special drawn in a turn (§5)
            game_row[G_DRAWN_TAKE2 + c - TAKE2] += 1
    return c


@kernel_njit()
def _is_legal(kind, a, p, h0, players, ds, peek_scope):
    """Is action `a` one of the options of decision `kind` (strategies/sen.py docstring)?"""
    if kind == D_SOURCE or kind == D_KEEP or kind == D_CALL:
        return a == 0 or a == 1
    if kind == D_FACEUP_SLOT:
        return 0 <= a < ds
    if kind == D_DRAWN:
        return 0 <= a <= ds or (a == ds + 1 and h0 >= TAKE2)
    if kind == D_PEEK:
        if a < 0 or a >= players * SLOT_BASE:
            return False
        q, s = a // SLOT_BASE, a % SLOT_BASE
        return s < ds and (peek_scope == 0 or q == p)
    if kind == D_SWAP:
        if a < 0 or a >= ds * SLOT_BASE * SLOT_BASE:
            return False
        q, j = (a // SLOT_BASE) % SLOT_BASE, a % SLOT_BASE
        return q < players and q != p and j < ds
    return False


@kernel_njit(inline="always")
def _ask(kind, p, h0, h1, rp, players, sids, sparams, users, obs2d, piles, x, rng, trace, trace_len):
    """One decision of seat p (SEN-25): `random` from the option count alone; the others from p's observation.
    A plug-in's illegal action sets error 1 and returns -1."""
    sid = sids[p]
    if sid == RANDOM:
        a = random_action(kind, p, players, rp[R_DREAM_SIZE], h0, rp[R_PEEK_SCOPE], sparams[p, 0], rng)
    else:
        obs = obs2d[p]
        fu = x[X_FU_N]
        obs[O_KIND] = kind
        obs[O_HELD_N] = (1 if h0 >= 0 else 0) + (1 if h1 >= 0 else 0)
        obs[O_HELD] = h0
        obs[O_HELD + 1] = h1
        obs[O_TOP] = piles[1, fu - 1] if fu > 0 else -1
        obs[O_FACEUP_N] = fu
        obs[O_FACEDOWN_N] = x[X_FD_N]
        obs[O_CALLER] = x[X_CALLER]
        obs[O_IN_FINAL] = x[X_IN_FINAL]
        obs[O_FIRST] = x[X_FIRST]
        obs[O_ROUND] = x[X_ROUNDS_PLAYED] + 1
        obs[O_ROUND_TURN] = x[X_ROUND_TURN]
        if sid > 0:
            a = choose_builtin(sid, obs, sparams[p], rng)
        else:
            a = users[p](obs, sparams[p], rng)
            if not _is_legal(kind, a, p, h0, players, rp[R_DREAM_SIZE], rp[R_PEEK_SCOPE]):
                x[X_ERROR] = ERROR_ILLEGAL  # a plug-in broke the rules; shipped strategies are tested
                if x[X_TRACING]:
                    record(trace, trace_len, EV_ILLEGAL, p, kind, a, rp[R_DREAM_SIZE], 0, 0, 0)
                return -1
    if x[X_TRACING]:
        record(trace, trace_len, EV_DECIDE, p, kind, a, rp[R_DREAM_SIZE], 0, 0, 0)
    return a


@kernel_njit(inline="always")
def _place_drawn(p, c, s, players, dreams, piles, x, obs2d, trace, trace_len):
    """SEN-7 B1: a drawn card goes into slot s; the displaced card goes face up (SEN-12). SEN-23.4: only p knows
    the new card."""
    old = dreams[p, s]
    dreams[p, s] = c
    _push_faceup(piles, x, obs2d, players, old)
    k = O_KNOW + p * MAX_DREAM + s
    for r in range(players):
        obs2d[r, k] = UNKNOWN
    obs2d[p, k] = c
    if x[X_TRACING]:
        record(trace, trace_len, EV_PLACE, p, c, s, old, 0, 0, 0)


@kernel_njit(inline="always")
def _use_peek(p, rp, players, sids, sparams, users, obs2d, dreams, piles, x, rng, trace, trace_len):
    """SEN-10 Peek 1: p learns one slot of any dream (own slots only with peek_scope = 1); SEN-23.6."""
    a = _ask(D_PEEK, p, NONE, NONE, rp, players, sids, sparams, users, obs2d, piles, x, rng, trace, trace_len)
    if x[X_ERROR]:
        return
    q, s = a // SLOT_BASE, a % SLOT_BASE
    obs2d[p, O_KNOW + q * MAX_DREAM + s] = dreams[q, s]
    if x[X_TRACING]:
        record(trace, trace_len, EV_PEEK, p, q, s, dreams[q, s], 0, 0, 0)


@kernel_njit(inline="always")
def _use_swap(p, rp, players, sids, sparams, users, obs2d, dreams, piles, x, rng, seat_row, trace, trace_len):
    """SEN-11 Swap 2: blind exchange of own slot i with slot j of seat q; SEN-23.7 knowledge travels with cards."""
    a = _ask(D_SWAP, p, NONE, NONE, rp, players, sids, sparams, users, obs2d, piles, x, rng, trace, trace_len)
    if x[X_ERROR]:
        return
    i, q, j = a // (SLOT_BASE * SLOT_BASE), (a // SLOT_BASE) % SLOT_BASE, a % SLOT_BASE
    c = dreams[p, i]
    dreams[p, i] = dreams[q, j]
    dreams[q, j] = c
    ki, kj = O_KNOW + p * MAX_DREAM + i, O_KNOW + q * MAX_DREAM + j
    for r in range(players):
        k = obs2d[r, ki]
        obs2d[r, ki] = obs2d[r, kj]
        obs2d[r, kj] = k
    seat_row[q, S_SWAPPED] += 1
    if x[X_TRACING]:
        record(trace, trace_len, EV_SWAP, p, i, q, j, 0, 0, 0)


@kernel_njit(inline="always")
def _use_take2(p, rp, players, sids, sparams, users, obs2d, piles, x, rng, game_row, trace, trace_len):
    """SEN-9 Take 2 (the Take 2 card is already face up): (card to resolve next or NONE, whether a B2 of that card
    brings a second card)."""
    tracing = x[X_TRACING]
    if rp[R_TAKE2_MODE] == 0:  # Sen: draw two, look at both, reject one face up, resolve the other
        c0 = _draw(rp, piles, x, obs2d, players, rng, game_row, False, trace, trace_len)
        if x[X_ERROR]:
            return NONE, False
        c1 = NONE
        if c0 != NONE:
            c1 = _draw(rp, piles, x, obs2d, players, rng, game_row, False, trace, trace_len)
            if x[X_ERROR]:
                return NONE, False
        if tracing:
            record(trace, trace_len, EV_TAKE2_DRAW, p, (c0 != NONE) + (c1 != NONE), c0, c1, 0, 0, 0)
        if c1 == NONE:  # "Precise readings": none found does nothing, one found is kept
            return c0, False
        k = _ask(D_KEEP, p, c0, c1, rp, players, sids, sparams, users, obs2d, piles, x, rng, trace, trace_len)
        if x[X_ERROR]:
            return NONE, False
        kept, rejected = (c0, c1) if k == 0 else (c1, c0)
        _push_faceup(piles, x, obs2d, players, rejected)  # face up before the kept card resolves (SEN-12)
        if tracing:
            record(trace, trace_len, EV_REJECT, p, rejected, kept, 0, 0, 0, 0)
        return kept, False
    # rat-a-tat-cat: one card; only after a B2 a second card (SEN-9; B3 inside allowed [assumed]).
    c = _draw(rp, piles, x, obs2d, players, rng, game_row, False, trace, trace_len)
    if x[X_ERROR]:
        return NONE, False
    if tracing:
        record(trace, trace_len, EV_TAKE2_DRAW, p, 1 if c != NONE else 0, c, NONE, 0, 0, 0)
    return c, c != NONE


@kernel_njit(inline="always")
def _resolve_drawn(p, c, rp, players, sids, sparams, users, obs2d, dreams, piles, x, rng, seat_row, game_row,
                   trace, trace_len):
    """D3 for a drawn card (SEN-7 B1/B2/B3) and every card a Take 2 chain brings after it (SEN-8, SEN-9), as a loop
    like the reference."""
    ds = rp[R_DREAM_SIZE]
    tracing = x[X_TRACING]
    second_pending = False
    while True:
        a = _ask(D_DRAWN, p, c, NONE, rp, players, sids, sparams, users, obs2d, piles, x, rng, trace, trace_len)
        if x[X_ERROR]:
            return
        if a < ds:  # B1
            _place_drawn(p, c, a, players, dreams, piles, x, obs2d, trace, trace_len)
            return
        _push_faceup(piles, x, obs2d, players, c)  # B2 and B3 put the card face up first (SEN-7, SEN-12)
        if a == ds:  # B2
            if tracing:
                record(trace, trace_len, EV_DISCARD, p, c, 0, 0, 0, 0, 0)
            if not second_pending:
                return
            c = _draw(rp, piles, x, obs2d, players, rng, game_row, False, trace, trace_len)
            if x[X_ERROR]:
                return
            if tracing:
                record(trace, trace_len, EV_TAKE2_DRAW, p, 1 if c != NONE else 0, c, NONE, 0, 0, 0)
            if c == NONE:
                return
            second_pending = False
            continue
        game_row[G_USED_TAKE2 + c - TAKE2] += 1  # B3
        if tracing:
            record(trace, trace_len, EV_USE, p, c, 0, 0, 0, 0, 0)
        if c == PEEK:
            _use_peek(p, rp, players, sids, sparams, users, obs2d, dreams, piles, x, rng, trace, trace_len)
            return
        if c == SWAP:
            _use_swap(p, rp, players, sids, sparams, users, obs2d, dreams, piles, x, rng, seat_row, trace,
                      trace_len)
            return
        c, second_pending = _use_take2(p, rp, players, sids, sparams, users, obs2d, piles, x, rng, game_row, trace,
                                       trace_len)
        if c == NONE:
            return


@kernel_njit(inline="always")
def _end_round(x, reason, trace, trace_len):
    x[X_END] = reason
    if x[X_TRACING]:
        record(trace, trace_len, EV_ROUND_END, reason, x[X_CALLER], x[X_ROUND_TURN], 0, 0, 0, 0)


@kernel_njit(inline="always")
def _play_turn(p, rp, players, sids, sparams, users, obs2d, dreams, piles, x, rng, seat_row, game_row, trace,
               trace_len):
    """One turn of seat p (SEN-5..13), then its call decision and what follows (SEN-13..16). Returns the next
    seat to move (meaningless once the round ended)."""
    x[X_TURN_DRAWS] = 0
    if x[X_TRACING]:
        record(trace, trace_len, EV_TURN, p, x[X_ROUND_TURN] + 1, x[X_IN_FINAL], 0, 0, 0, 0)
    fu = x[X_FU_N]
    a_legal = fu > 0 and (rp[R_FACEUP_SPECIALS] == 1 or piles[1, fu - 1] < TAKE2)  # SEN-6
    src = SRC_DRAW
    if a_legal:
        src = _ask(D_SOURCE, p, NONE, NONE, rp, players, sids, sparams, users, obs2d, piles, x, rng, trace,
                   trace_len)
        if x[X_ERROR]:
            return p
    if src == SRC_FACEUP:  # SEN-6: a special taken this way has no power (SEN-8)
        s = _ask(D_FACEUP_SLOT, p, NONE, NONE, rp, players, sids, sparams, users, obs2d, piles, x, rng, trace,
                 trace_len)
        if x[X_ERROR]:
            return p
        n = x[X_FU_N] - 1
        c = piles[1, n]
        x[X_FU_N] = n
        _all_rows_add(obs2d, players, O_FACEUP + c, -1)
        old = dreams[p, s]
        dreams[p, s] = c
        _push_faceup(piles, x, obs2d, players, old)
        k = O_KNOW + p * MAX_DREAM + s
        for r in range(players):  # SEN-23.3: the card was public
            obs2d[r, k] = c
        game_row[G_FACEUP_TAKES] += 1
        if x[X_TRACING]:
            record(trace, trace_len, EV_TAKE_FACEUP, p, c, s, old, 0, 0, 0)
    else:  # SEN-7
        game_row[G_DRAWS] += 1
        c = _draw(rp, piles, x, obs2d, players, rng, game_row, False, trace, trace_len)
        if x[X_ERROR]:
            return p
        if x[X_TRACING]:
            record(trace, trace_len, EV_DRAW, p, c, 0, 0, 0, 0, 0)
        if c != NONE:
            _resolve_drawn(p, c, rp, players, sids, sparams, users, obs2d, dreams, piles, x, rng, seat_row,
                           game_row, trace, trace_len)
            if x[X_ERROR]:
                return p
    x[X_ROUND_TURN] += 1
    _all_rows_add(obs2d, players, O_OWN_TURNS + p, 1)
    game_row[G_TURNS] += 1
    nxt = p + 1
    if nxt == players:
        nxt = 0
    # End of turn: SEN-13 (deck-out-ends), SEN-14 call, SEN-15 final turns, SEN-16 cap, in that order.
    deck_out = rp[R_EMPTY_PILE] == 1 and x[X_FD_N] == 0  # the pile emptied during this turn
    if x[X_IN_FINAL]:  # SEN-15: no calls in final turns
        x[X_FINAL_LEFT] -= 1
        if x[X_FINAL_LEFT] == 0:
            _end_round(x, END_FINAL, trace, trace_len)
        elif deck_out:  # "a final turn that empties the pile ends the round"
            _end_round(x, END_DECK_OUT, trace, trace_len)
        return nxt
    if x[X_CALLER] < 0 and obs2d[p, O_OWN_TURNS + p] >= rp[R_CALL_AFTER]:  # SEN-14
        a = _ask(D_CALL, p, NONE, NONE, rp, players, sids, sparams, users, obs2d, piles, x, rng, trace, trace_len)
        if x[X_ERROR]:
            return p
        if a == 1:
            x[X_CALLER] = p
            unknown = 0
            for s in range(rp[R_DREAM_SIZE]):
                if obs2d[p, O_KNOW + p * MAX_DREAM + s] == UNKNOWN:
                    unknown += 1
            game_row[G_CALLS] += 1
            game_row[G_CALL_TURN_SUM] += x[X_ROUND_TURN]  # 1-based index of this turn in the round
            seat_row[p, S_CALLS] += 1
            seat_row[p, S_UNKNOWN_AT_CALL] += unknown
            if x[X_TRACING]:
                record(trace, trace_len, EV_CALL, p, x[X_ROUND_TURN], unknown, 0, 0, 0, 0)
    if x[X_CALLER] >= 0:
        if deck_out:  # the call counts for SEN-19, but no final turns follow
            _end_round(x, END_DECK_OUT, trace, trace_len)
        elif rp[R_FINAL_TURNS] == 1:  # SEN-15
            x[X_IN_FINAL] = 1
            x[X_FINAL_LEFT] = players - 1
        else:
            _end_round(x, END_CALL, trace, trace_len)
        return nxt
    if deck_out:  # SEN-13 deck-out-ends
        _end_round(x, END_DECK_OUT, trace, trace_len)
    elif x[X_ROUND_TURN] >= rp[R_MAX_TURNS]:  # SEN-16, checked after the call decision
        game_row[G_CAPPED_ROUNDS] += 1
        _end_round(x, END_CAP, trace, trace_len)
    return nxt


@kernel_njit()
def _start_round(first, rp, deck0, players, obs2d, dreams, piles, x, rng, trace, trace_len):
    """SEN-2..4: shuffle, deal round-robin from the first player, flip one card, initial peek."""
    ds = rp[R_DREAM_SIZE]
    n_deck = deck0.shape[0]
    x[X_FIRST] = first
    x[X_CALLER] = -1
    x[X_ROUND_TURN] = 0
    x[X_IN_FINAL] = 0
    x[X_FINAL_LEFT] = 0
    x[X_END] = 0
    pile = piles[0]
    pile[:n_deck] = deck0
    shuffle(rng, pile, n_deck)  # SEN-3: the face-down pile, top = last
    n = n_deck
    for s in range(ds):
        q = first
        for _ in range(players):
            n -= 1
            dreams[q, s] = pile[n]
            q += 1
            if q == players:
                q = 0
    n -= 1
    top = pile[n]
    piles[1, 0] = top
    x[X_FU_N] = 1
    x[X_FD_N] = n
    for r in range(players):
        row = obs2d[r]
        for c in range(N_CODES):
            row[O_FACEUP + c] = 0
        row[O_FACEUP + top] = 1
        for q in range(players):
            row[O_OWN_TURNS + q] = 0
            for s in range(ds):
                row[O_KNOW + q * MAX_DREAM + s] = UNKNOWN  # SEN-23.1
        row[O_KNOW + r * MAX_DREAM] = dreams[r, 0]  # SEN-4 / SEN-23.2: slots 0 and ds-1, no decision
        row[O_KNOW + r * MAX_DREAM + ds - 1] = dreams[r, ds - 1]
    if x[X_TRACING]:
        record(trace, trace_len, EV_ROUND_START, x[X_ROUNDS_PLAYED] + 1, first, n, top, 0, 0, 0)
        for q in range(players):
            _record_dream(trace, trace_len, EV_DEAL, q, dreams, ds)


@kernel_njit()
def _record_dream(trace, trace_len, kind, q, dreams, ds):
    v = np.full(MAX_DREAM, -1, np.int64)
    for s in range(ds):
        v[s] = dreams[q, s]
    record(trace, trace_len, kind, q, v[0], v[1], v[2], v[3], v[4], v[5])


@kernel_njit()
def _score_round(rp, ravens, n_numbers, players, obs2d, dreams, piles, x, rng, totals, raw, scores, seat_row,
                 game_row, trace, trace_len):
    """SEN-17..19: reveal, replace specials (replace_specials = 1), sum ravens, caller penalty, totals (SEN-20)."""
    ds = rp[R_DREAM_SIZE]
    tracing = x[X_TRACING]
    specials = 0
    for q in range(players):
        for s in range(ds):
            if dreams[q, s] >= TAKE2:
                specials += 1
    game_row[G_SPECIALS_IN_DREAMS] += specials
    if tracing:
        for q in range(players):
            _record_dream(trace, trace_len, EV_REVEAL, q, dreams, ds)
    caller = x[X_CALLER]
    if rp[R_REPLACE_SPECIALS] == 1 and specials > 0:  # SEN-18: caller (or first player) first, slots in order
        q = caller if caller >= 0 else x[X_FIRST]
        for _ in range(players):
            for s in range(ds):
                while dreams[q, s] >= TAKE2:
                    in_dreams = 0  # "Precise readings" guard: a number card must lie in one of the piles
                    for q2 in range(players):
                        for s2 in range(ds):
                            if dreams[q2, s2] < TAKE2:
                                in_dreams += 1
                    if in_dreams == n_numbers:
                        break
                    removed = dreams[q, s]
                    _push_faceup(piles, x, obs2d, players, removed)
                    c = _draw(rp, piles, x, obs2d, players, rng, game_row, True, trace, trace_len)
                    game_row[G_REPLACEMENTS] += 1
                    if tracing:
                        record(trace, trace_len, EV_REPLACE, q, s, removed, c, 0, 0, 0)
                    dreams[q, s] = c
            q += 1
            if q == players:
                q = 0
    for q in range(players):  # SEN-17 (specials left: printed ravens)
        h = 0
        for s in range(ds):
            h += ravens[dreams[q, s]]
        raw[q] = h
        scores[q] = h
    if caller >= 0:
        low_other = -1
        for q in range(players):
            if q != caller and (low_other < 0 or raw[q] < low_other):
                low_other = raw[q]
        if raw[caller] <= low_other:
            game_row[G_CALLER_LOWEST] += 1
        if low_other < raw[caller] and rp[R_CALLER_PENALTY] > 0:  # SEN-19, compared before the penalty
            scores[caller] += rp[R_CALLER_PENALTY]
            game_row[G_PENALTIES] += 1
            seat_row[caller, S_PENALTIES] += 1
    low = scores[0]
    high = scores[0]
    total = 0
    for q in range(players):
        low = min(low, scores[q])
        high = max(high, scores[q])
        total += scores[q]
    for q in range(players):
        totals[q] += scores[q]  # SEN-20
        _all_rows_add(obs2d, players, O_TOTALS + q, scores[q])
        if scores[q] == low:
            seat_row[q, S_ROUND_LOWS] += 1
        if tracing:
            record(trace, trace_len, EV_SCORE, q, raw[q], scores[q] - raw[q], scores[q], totals[q], caller, 0)
    if x[X_ROUNDS_PLAYED] == 0:
        game_row[G_MIN_ROUND] = low
        game_row[G_MAX_ROUND] = high
    else:
        game_row[G_MIN_ROUND] = min(game_row[G_MIN_ROUND], low)
        game_row[G_MAX_ROUND] = max(game_row[G_MAX_ROUND], high)
    game_row[G_ROUND_SCORE_SUM] += total
    game_row[G_SEAT_ROUNDS] += players
    x[X_ROUNDS_PLAYED] += 1


@kernel_njit()
def _game_finished(rp, players, totals, x):
    """SEN-20: end_score (rounds = 0) or a fixed number of rounds; max_rounds caps (flag `capped`)."""
    if rp[R_ROUNDS] > 0:
        if x[X_ROUNDS_PLAYED] >= rp[R_ROUNDS]:
            return True
    else:
        top = totals[0]
        for q in range(1, players):
            top = max(top, totals[q])
        if top >= rp[R_END_SCORE]:
            return True
    if x[X_ROUNDS_PLAYED] >= rp[R_MAX_ROUNDS]:
        x[X_CAPPED] = 1
        return True
    return False


@kernel_njit()
def play_game(rp, deck0, ravens, counts, players, sids, sparams, users, seed, game_index, seat_row, game_row,
              obs2d, dreams, piles, x, totals, raw, scores, rng, trace, trace_len):
    """One game, SEN-2..21. Writes seat_row(players, seat columns) and game_row(game columns). Scratch:
    obs2d(MAX_SEATS, OBS_SIZE) dreams(MAX_SEATS, MAX_DREAM) piles(2, deck size: face-down, face-up) x(X_SIZE)
    totals/raw/scores(MAX_SEATS) rng(1); `trace` has 0 rows unless a trace is wanted."""
    stream_into(rng, seed, game_index)
    ds = rp[R_DREAM_SIZE]
    for s in range(players):
        seat_row[s, :] = 0
        totals[s] = 0
    game_row[:] = 0
    x[:] = 0
    x[X_TRACING] = trace.shape[0] > 0
    n_numbers = 9 * rp[R_COPIES_0_8] + rp[R_COPIES_9]
    for r in range(players):  # the static part of every observation row
        row = obs2d[r]
        row[:] = 0
        row[O_SEAT] = r
        row[O_PLAYERS] = players
        row[O_DREAM_SIZE] = ds
        for k in range(rp.shape[0]):
            row[O_RULES + k] = rp[k]
        for c in range(N_CODES):
            row[O_DECK + c] = counts[c]
            row[O_RAVENS + c] = ravens[c]
        row[O_CALLER] = -1
        for k in range(MAX_SEATS * MAX_DREAM):
            row[O_KNOW + k] = UNKNOWN
    first = below(rng, players)  # SEN-2
    while True:
        _start_round(first, rp, deck0, players, obs2d, dreams, piles, x, rng, trace, trace_len)
        p = first
        while x[X_END] == 0:
            p = _play_turn(p, rp, players, sids, sparams, users, obs2d, dreams, piles, x, rng, seat_row, game_row,
                           trace, trace_len)
            if x[X_ERROR]:
                break
        if x[X_ERROR]:
            break
        _score_round(rp, ravens, n_numbers, players, obs2d, dreams, piles, x, rng, totals, raw, scores, seat_row,
                     game_row, trace, trace_len)
        if _game_finished(rp, players, totals, x):
            break
        first += 1  # SEN-2
        if first == players:
            first = 0
    # The record (also after an error, like the reference): SEN-21 fewest ravens wins, ties share.
    game_row[G_ERROR] = x[X_ERROR]
    game_row[G_ROUNDS] = x[X_ROUNDS_PLAYED]
    game_row[G_CAPPED] = x[X_CAPPED]
    lo_seat = 0
    for q in range(players):
        seat_row[q, S_SCORE] = totals[q]
        raw[q] = -totals[q]  # set_ranks: a larger key is better
        if totals[q] < totals[lo_seat]:
            lo_seat = q
    lo, lo2 = totals[lo_seat], -1
    for q in range(players):  # winner_margin: second-lowest total − lowest total
        if q != lo_seat and (lo2 < 0 or totals[q] < lo2):
            lo2 = totals[q]
    game_row[G_WINNER_MARGIN] = lo2 - lo
    set_ranks(seat_row, players, raw)


@kernel_njit()
def _scratch(n_deck):
    """Per-thread working arrays for play_game: obs2d, dreams, piles, x, totals, raw, scores, rng."""
    return (np.zeros((MAX_SEATS, OBS_SIZE), np.int32), np.zeros((MAX_SEATS, MAX_DREAM), np.int8),
            np.zeros((2, n_deck), np.int8), np.zeros(X_SIZE, np.int64), np.zeros(MAX_SEATS, np.int64),
            np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.int64), np.zeros(1, np.uint64))


_CHUNK_SIGNATURE = types.void(
    types.int64[::1], types.int8[::1], types.int64[::1], types.int64[::1], types.int64, types.int64[::1],
    types.float64[:, ::1], USER_FNS_TYPE, types.int64, types.int64, types.int64, types.int32[:, :, ::1],
    types.int32[:, ::1])


@njit(_CHUNK_SIGNATURE, cache=True, parallel=True)
def run_chunk(rp, deck0, ravens, counts, players, sids, sparams, users, seed, start, count, seat_out, game_out):
    """Games start .. start+count−1 into seat_out(count, players, seat columns) and game_out(count, game columns).
    Blocks of games share scratch arrays; every game draws from its own stream, so blocking never changes results."""
    blocks = min(count, 256)
    for b in prange(blocks):
        obs2d, dreams, piles, x, totals, raw, scores, rng = _scratch(deck0.shape[0])
        no_trace = np.zeros((0, TRACE_WIDTH), np.int32)
        trace_len = np.zeros(1, np.int64)
        # Thread-local copies of the shared inputs: reference counting on arrays shared between threads makes
        # their cache lines bounce between cores at every call that takes them.
        rp_l, deck_l, ravens_l, counts_l = rp.copy(), deck0.copy(), ravens.copy(), counts.copy()
        sids_l, sparams_l = sids.copy(), sparams.copy()
        seat_row = np.zeros((players, seat_out.shape[2]), np.int32)  # the output rows too, copied out per game
        game_row = np.zeros(game_out.shape[1], np.int32)
        for i in range(count * b // blocks, count * (b + 1) // blocks):
            play_game(rp_l, deck_l, ravens_l, counts_l, players, sids_l, sparams_l, users, seed, start + i,
                      seat_row, game_row, obs2d, dreams, piles, x, totals, raw, scores, rng, no_trace, trace_len)
            seat_out[i] = seat_row
            game_out[i] = game_row


@kernel_njit()
def trace_one(rp, deck0, ravens, counts, players, sids, sparams, users, seed, game_index, seat_row, game_row, trace,
              trace_len):
    """One game with its event log (for `sim trace`)."""
    obs2d, dreams, piles, x, totals, raw, scores, rng = _scratch(deck0.shape[0])
    play_game(rp, deck0, ravens, counts, players, sids, sparams, users, seed, game_index, seat_row, game_row,
              obs2d, dreams, piles, x, totals, raw, scores, rng, trace, trace_len)


def kernel_data(params, players, data=None):
    """The kernel's inputs: rule vector (rules.PARAMS order), canonical deck, ravens and copies per card code."""
    rp = np.array([params[p.name] for p in rules.PARAMS], np.int64)
    return (rp, np.array(rules.build_deck(params), np.int8), np.array(rules.ravens_table(params), np.int64),
            np.array(rules.card_counts(params), np.int64))

