"""Sen rules as njit code over flat integer arrays (docs/rules/sen.md); mirrors the reference package draw for draw.

One compiled kernel serves every variant: the rules arrive as the int64 parameter vector `rp` (layout `R_*` in
sim/games/sen/obs.py, the order of `rules.PARAMS`), the canonical deck, the ravens table and the copies per code.
Strategies see only the observation (`sim.games.sen.obs`): one int32 row per seat (see kernel_state.py); the
per-decision scalars are written just before a strategy is asked.

play_game runs the reference's phases: start_round, play_turn (kernel_turn.py) until the round ends, score_round,
game_finished, then the record. Random draws happen in the reference's order (its module docstring): below(N) for
the first player, a full Fisher–Yates shuffle of the canonical deck each round, the `random` strategy's choices,
reshuffles.
"""
import numpy as np
from numba import njit, types

from sim.jit import kernel_njit
from sim.kernel_util import BUILTIN_SIGNATURE, BUILTIN_TYPE, PLAY_TAIL, USER_FNS_TYPE, NativeCall, record, set_ranks
from sim.rng import below, shuffle, stream_into
from sim.games.sen.kernel_state import (EV_DEAL, EV_REPLACE, EV_REVEAL, EV_ROUND_START, EV_SCORE, FACEDOWN, FACEUP,
                                        G_CALLER_LOWEST, G_CAPPED, G_ERROR, G_MAX_ROUND, G_MIN_ROUND, G_PENALTIES,
                                        G_REPLACEMENTS, G_ROUND_SCORE_SUM, G_ROUNDS, G_SEAT_ROUNDS,
                                        G_SPECIALS_IN_DREAMS, G_WINNER_MARGIN, NONE, S_PENALTIES, S_ROUND_LOWS,
                                        S_SCORE, X_CALLER, X_CAPPED, X_END, X_ERROR, X_FD_N, X_FINAL_LEFT, X_FIRST,
                                        X_FU_N, X_IN_FINAL, X_ROUND_TURN, X_ROUNDS_PLAYED, X_SIZE, X_TRACING,
                                        Scratch, all_rows_add, draw, push_faceup, record_dream)
from sim.games.sen.kernel_turn import play_turn
from sim.games.sen.model import know_index
from sim.games.sen.obs import (O_CALLER, O_DECK, O_DREAM_SIZE, O_FACEUP, O_KNOW, O_OWN_TURNS, O_PLAYERS,
                               O_RAVENS, O_RULES, O_SEAT, O_TOTALS, OBS_SIZE, R_CALLER_PENALTY, R_DREAM_SIZE,
                               R_END_SCORE, R_MAX_ROUNDS, R_REPLACE_SPECIALS, R_ROUNDS)
from sim.games.sen.rules import MAX_DREAM, N_CODES, N_NUMBERS, TAKE2, UNKNOWN
from sim.spec import MAX_SEATS
from strategies.sen import choose_builtin
from sim.games.sen import rules


@kernel_njit()
def _start_round(first, rp, deck0, players, w):
    """SEN-2..4: shuffle, deal round-robin from the first player, flip one card, initial peek."""
    x, dreams, piles = w.x, w.dreams, w.piles
    ds = rp[R_DREAM_SIZE]
    n_deck = deck0.shape[0]
    x[X_FIRST] = first
    x[X_CALLER] = NONE
    x[X_ROUND_TURN] = 0
    x[X_IN_FINAL] = 0
    x[X_FINAL_LEFT] = 0
    x[X_END] = 0
    pile = piles[FACEDOWN]
    for k in range(n_deck):  # a loop: a slice copy may allocate a temporary, which needs reference counting
        pile[k] = deck0[k]
    shuffle(w.rng, pile, n_deck)  # SEN-3: the face-down pile, top = last
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
    piles[FACEUP, 0] = top
    x[X_FU_N] = 1
    x[X_FD_N] = n
    for r in range(players):
        row = w.obs2d[r]
        for c in range(N_CODES):
            row[O_FACEUP + c] = 0
        row[O_FACEUP + top] = 1
        for q in range(players):
            row[O_OWN_TURNS + q] = 0
            for s in range(ds):
                row[know_index(q, s)] = UNKNOWN  # SEN-23.1
        row[know_index(r, 0)] = dreams[r, 0]  # SEN-4 / SEN-23.2: slots 0 and ds-1, no decision
        row[know_index(r, ds - 1)] = dreams[r, ds - 1]
    if x[X_TRACING]:
        record(w.trace, w.trace_len, EV_ROUND_START, x[X_ROUNDS_PLAYED] + 1, first, n, top, 0, 0, 0)
        for q in range(players):
            record_dream(w, EV_DEAL, q, ds)


@kernel_njit(inline="always")
def _replace_specials(rp, n_numbers, players, game_row, w):
    """SEN-18: each special in a dream goes face up and is replaced from the pile, the caller (or first player)
    first, clockwise, slots in order; a replacement may be a special again."""
    x, dreams = w.x, w.dreams
    ds = rp[R_DREAM_SIZE]
    q = x[X_CALLER] if x[X_CALLER] >= 0 else x[X_FIRST]
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
                push_faceup(w, players, removed)
                c = draw(rp, w, players, game_row, True)
                game_row[G_REPLACEMENTS] += 1
                if x[X_TRACING]:
                    record(w.trace, w.trace_len, EV_REPLACE, q, s, removed, c, 0, 0, 0)
                dreams[q, s] = c
        q += 1
        if q == players:
            q = 0


@kernel_njit()
def _score_round(rp, ravens, n_numbers, players, seat_row, game_row, w):
    """SEN-17..19: reveal, replace specials (replace_specials = 1), sum ravens, caller penalty, totals (SEN-20)."""
    x, dreams, totals, raw, scores = w.x, w.dreams, w.totals, w.raw, w.scores
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
            record_dream(w, EV_REVEAL, q, ds)
    caller = x[X_CALLER]
    if rp[R_REPLACE_SPECIALS] == 1 and specials > 0:
        _replace_specials(rp, n_numbers, players, game_row, w)
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
        all_rows_add(w.obs2d, players, O_TOTALS + q, scores[q])
        if scores[q] == low:
            seat_row[q, S_ROUND_LOWS] += 1
        if tracing:
            record(w.trace, w.trace_len, EV_SCORE, q, raw[q], scores[q] - raw[q], scores[q], totals[q], caller, 0)
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


@kernel_njit(inline="always")
def _start_game(rp, ravens, counts, players, seat_row, game_row, w):
    """Zero the outputs and the state; the static part of every observation row."""
    ds = rp[R_DREAM_SIZE]
    for s in range(players):
        seat_row[s, :] = 0
        w.totals[s] = 0
    game_row[:] = 0
    w.x[:] = 0
    w.x[X_TRACING] = w.trace.shape[0] > 0
    for r in range(players):
        row = w.obs2d[r]
        row[:] = 0
        row[O_SEAT] = r
        row[O_PLAYERS] = players
        row[O_DREAM_SIZE] = ds
        for k in range(rp.shape[0]):
            row[O_RULES + k] = rp[k]
        for c in range(N_CODES):
            row[O_DECK + c] = counts[c]
            row[O_RAVENS + c] = ravens[c]
        row[O_CALLER] = NONE
        for k in range(MAX_SEATS * MAX_DREAM):
            row[O_KNOW + k] = UNKNOWN


@kernel_njit(inline="always")
def _record(players, seat_row, game_row, w):
    """The record (also after an error, like the reference): SEN-21 fewest ravens wins, ties share."""
    x, totals, keys = w.x, w.totals, w.raw
    game_row[G_ERROR] = x[X_ERROR]
    game_row[G_ROUNDS] = x[X_ROUNDS_PLAYED]
    game_row[G_CAPPED] = x[X_CAPPED]
    lo_seat = 0
    for q in range(players):
        seat_row[q, S_SCORE] = totals[q]
        keys[q] = -totals[q]  # set_ranks: a larger key is better
        if totals[q] < totals[lo_seat]:
            lo_seat = q
    lo, lo2 = totals[lo_seat], -1
    for q in range(players):  # winner_margin: second-lowest total − lowest total
        if q != lo_seat and (lo2 < 0 or totals[q] < lo2):
            lo2 = totals[q]
    game_row[G_WINNER_MARGIN] = lo2 - lo
    set_ranks(seat_row, players, keys)


@kernel_njit()
def play_game(rp, deck0, ravens, counts, players, sids, sparams, users, seed, game_index, seat_row, game_row, w):
    """One game, SEN-2..21. Writes seat_row(players, seat columns) and game_row(game columns); `w` is the
    Scratch."""
    stream_into(w.rng, seed, game_index)
    _start_game(rp, ravens, counts, players, seat_row, game_row, w)
    n_numbers = 0  # number cards in the deck
    for c in range(N_NUMBERS):
        n_numbers += counts[c]
    first = below(w.rng, players)  # SEN-2
    while True:
        _start_round(first, rp, deck0, players, w)
        p = first
        while w.x[X_END] == 0:
            p = play_turn(p, rp, players, sids, sparams, users, seat_row, game_row, w)
            if w.x[X_ERROR]:
                break
        if w.x[X_ERROR]:
            break
        _score_round(rp, ravens, n_numbers, players, seat_row, game_row, w)
        if _game_finished(rp, players, w.totals, w.x):
            break
        first += 1  # SEN-2
        if first == players:
            first = 0
    _record(players, seat_row, game_row, w)


@kernel_njit(nrt=True)
def _scratch(n_deck, builtin, trace, trace_len):
    return Scratch(np.zeros((MAX_SEATS, OBS_SIZE), np.int32), np.zeros((MAX_SEATS, MAX_DREAM), np.int8),
                   np.zeros((2, n_deck), np.int8), np.zeros(X_SIZE, np.int64), np.zeros(MAX_SEATS, np.int64),
                   np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.int64), np.zeros(1, np.uint64), builtin,
                   trace, trace_len)


BUILTIN = NativeCall(choose_builtin, BUILTIN_SIGNATURE)
_PLAY_SIGNATURE = types.void(types.int64[::1], types.int8[::1], types.int64[::1], types.int64[::1], BUILTIN_TYPE,
                             types.int64, types.int64[::1], types.float64[:, ::1], USER_FNS_TYPE, *PLAY_TAIL)


@njit(_PLAY_SIGNATURE, cache=True, nogil=True)
def play_games(rp, deck0, ravens, counts, builtin, players, sids, sparams, users, seed, start, count, seat_out,
               game_out, trace, trace_len):
    """Games start .. start+count−1 into seat_out(count, players, seat columns) and game_out(count, game columns),
    one block on one scratch (every game draws from its own stream, so blocks never change results); `trace`
    (0 rows unless wanted) logs events. The engine runs blocks on its threads (sim.engine.run_chunk)."""
    w = _scratch(deck0.shape[0], builtin, trace, trace_len)
    seat_row = np.zeros((players, seat_out.shape[2]), np.int32)  # block-local rows, copied out per game
    game_row = np.zeros(game_out.shape[1], np.int32)
    for i in range(count):
        play_game(rp, deck0, ravens, counts, players, sids, sparams, users, seed, start + i, seat_row, game_row, w)
        seat_out[i] = seat_row
        game_out[i] = game_row


def kernel_data(params, players, data=None):
    """The kernel's inputs: rule vector (rules.PARAMS order), canonical deck, ravens and copies per card code, the
    strategies' dispatch."""
    rp = np.array([params[p.name] for p in rules.PARAMS], np.int64)
    return (rp, np.array(rules.build_deck(params), np.int8), np.array(rules.ravens_table(params), np.int64),
            np.array(rules.card_counts(params), np.int64), BUILTIN)

