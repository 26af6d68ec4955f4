"""Straw rules as njit code over flat integer arrays (docs/rules/straw.md); mirrors reference.py draw for draw.

One compiled kernel serves every variant: the rules arrive as the int64 parameter vector `rp` (layout `R_*`, the
order of `rules.PARAMS`) and the canonical deck. Strategies see only the observation (`sim.games.straw.obs`).
play_game runs the reference's phases — deal_round, then turns (legal codes, a choice, play or pass) until the round
ends, round_scores — each an inlined function, so the compiled game is one function as before. The shipped
strategies are called directly, not through a function pointer: they are small (the kernel compiles in seconds either
way) and the indirect call cost Straw's heuristics about 9% of their games/s (docs/decisions.md).
"""
import numpy as np
from numba import njit, types

from sim.jit import kernel_njit
from sim.kernel_util import PLAY_TAIL, USER_FNS_TYPE, bit_count, record, set_bits_into, set_ranks
from sim.rng import below, stream_into
from sim.games.straw.kernel_state import (EV_CHOICE, EV_DEAL, EV_DRAW, EV_PASS, EV_PLAY, EV_ROUND, EV_ROUND_END,
                                          G_BC_COPY, G_BC_ITEM, G_BC_LAMP, G_BREAK_SUM, G_CAPPED, G_CLAMP_LOSS,
                                          G_DECK_OUT,
                                          G_ERROR, G_EXACT, G_FIRST_DEALER, G_FORCED, G_LAMP_CHOICES, G_LAMP_SUM,
                                          G_LEAD_CHANGES, G_NORMAL, G_OVER_SUM, G_P_CARPET, G_P_COPY, G_P_LAMP,
                                          G_P_REV, G_PASSES, G_ROUNDS, G_STALLS, G_STRAW, G_STRAW_CHANCES,
                                          G_STRAW_DECLINED, G_TURNS, ILLEGAL, R_BREAK_AT, R_CLAMP, R_EVERTIDE,
                                          R_HAND_SIZE, R_LAMP_MAX, R_LAMP_MIN, R_MAX_ROUNDS, R_ROUNDS, R_TARGET,
                                          S_BEST, S_BREAKS, S_NEG, S_SCORE, S_STRAW_BREAKS, S_ZERO, Scratch, add_card,
                                          draw, legal_bits, next_seat, remove_card, unique_leader)
from sim.games.straw.obs import (ACTION_BASE, K_ADD, K_LAMP, K_NONE, K_REV, K_SUB, O_BREAK_AT, O_CLAMP, O_DEALER,
                                 O_DIRECTION, O_HAND, O_HAND_LEN, O_HAND_SIZES, O_LAMP_MAX, O_LAMP_MIN, O_LEGAL,
                                 O_LEGAL_CODES, O_N_LEGAL, O_PILE, O_PLAYED, O_PLAYERS, O_ROUND, O_SEAT,
                                 O_STACK_LEN, O_T, O_TOP_KIND, O_TOP_VALUE, O_TOTALS, OBS_SIZE)
from sim.games.straw.model import is_carpet
from sim.games.straw.rules import (CARPET_MAX_CODE, COPY, ERROR_ILLEGAL, ITEM_MAX_CODE, LAMP, MAX_HAND, N_CODES,
                                   NORMAL_BREAK, REVERSE, STALL, STRAW, STRAW_BREAK)
from sim.spec import MAX_SEATS
from strategies.straw import RANDOM, choose_builtin, choose_random
from sim.games.straw import rules

@kernel_njit()
def _fill_turn_obs(obs, counts, mask, n_hand, legal, n_legal, seat, T, direction, pile, stack_len, top_kind,
                   top_value):
    """The per-turn part of the observation: the seat's own hand (its counts per code, its code set and size) and
    legal codes, and the public turn state; the public rest (totals, hand sizes, played cards, rules) is kept up to
    date by play_game as it changes."""
    obs[O_T] = T
    obs[O_DIRECTION] = direction
    obs[O_SEAT] = seat
    obs[O_PILE] = pile
    obs[O_STACK_LEN] = stack_len
    obs[O_TOP_KIND] = top_kind
    obs[O_TOP_VALUE] = top_value
    obs[O_HAND_LEN] = n_hand
    i = 0
    while mask != 0:  # the hand ascending
        low = mask & -mask
        c = bit_count(low - 1)
        for _ in range(counts[c]):
            obs[O_HAND + i] = c
            i += 1
        mask ^= low
    for j in range(i, MAX_HAND):
        obs[O_HAND + j] = 0
    for c in range(N_CODES):
        obs[O_LEGAL + c] = 0
    for j in range(n_legal):
        obs[O_LEGAL + legal[j]] = 1
        obs[O_LEGAL_CODES + j] = legal[j]
    obs[O_N_LEGAL] = n_legal


@kernel_njit()
def _is_legal_action(action, code, v, lamp, legal, n_legal, lamp_min, lamp_max):
    if action < 0 or (lamp and (v < lamp_min or v > lamp_max)):
        return False
    for i in range(n_legal):
        if legal[i] == code:
            return True
    return False


@kernel_njit()
def _forced(legal, n_legal, T, break_at, top_kind, top_value, lamp_min):
    """True when every legal action breaks (STRAW-15 statistics; a Lamp is safest at its smallest value)."""
    for i in range(n_legal):
        c = legal[i]
        if c == STRAW or c == REVERSE or is_carpet(c):
            return False  # the Straw never breaks; escapes never raise T
        add = c if c <= ITEM_MAX_CODE else lamp_min
        if c == COPY:
            if top_kind == K_ADD:
                add = top_value
            elif top_kind != K_LAMP:
                return False  # a Copy of SUB or REV never raises T
        if T + add <= break_at:
            return False
    return True


@kernel_njit(inline="always")
def _start_game(rp, players, seat_row, game_row, w):
    """Zero the outputs and totals; the observation's rule fields, which never change in a game."""
    for s in range(players):
        for j in range(seat_row.shape[1]):
            seat_row[s, j] = 0
        w.totals[s] = 0
    for j in range(game_row.shape[0]):
        game_row[j] = 0
    obs = w.obs
    for j in range(obs.shape[0]):
        obs[j] = 0
    obs[O_PLAYERS] = players
    obs[O_BREAK_AT] = rp[R_BREAK_AT]
    obs[O_LAMP_MIN] = rp[R_LAMP_MIN]
    obs[O_LAMP_MAX] = rp[R_LAMP_MAX]
    obs[O_CLAMP] = rp[R_CLAMP]


@kernel_njit(inline="always")
def _deal_round(rnd, dealer, hand_size, deck0, players, tracing, w):
    """STRAW-3/4: gather and shuffle, deal one card at a time from the seat left of the dealer. The shuffle is lazy:
    each draw takes a uniform card from the rest of the pile (forward Fisher–Yates one step at a time), so cards
    never drawn cost no random numbers. Returns the number of cards taken from the pile."""
    deck, obs = w.deck, w.obs
    n_deck = deck0.shape[0]
    for j in range(n_deck):
        deck[j] = deck0[j]
    pos = 0
    for s in range(players):
        w.hand_len[s] = 0
        w.hand_sum[s] = 0
        w.masks[s] = 0
        for c in range(N_CODES):
            w.counts[s, c] = 0
    for _ in range(hand_size):
        s = dealer
        for i in range(players):
            s = next_seat(s, 1, players)
            add_card(w, s, draw(w.rng, deck, pos, n_deck))
            pos += 1
    for s in range(players):
        obs[O_HAND_SIZES + s] = w.hand_len[s]
    obs[O_ROUND] = rnd
    obs[O_DEALER] = dealer
    for c in range(N_CODES):
        obs[O_PLAYED + c] = 0
    if tracing:
        record(w.trace, w.trace_len, EV_ROUND, rnd, dealer, n_deck - pos, 0, 0, 0, 0)
        for s in range(players):
            for c in range(N_CODES):
                for _ in range(w.counts[s, c]):
                    record(w.trace, w.trace_len, EV_DEAL, s, c, 0, 0, 0, 0, 0)
    return pos


@kernel_njit(inline="always")
def _effect(code, v, top_kind, top_value):
    """STRAW-8..13: the resolved effect (kind, value) of a played card; a Copy takes the effect beneath it, with a
    new value for a Lamp."""
    if code <= ITEM_MAX_CODE:
        return K_ADD, code
    if code <= CARPET_MAX_CODE:
        return K_SUB, code - ITEM_MAX_CODE
    if code == REVERSE:
        return K_REV, 0
    if code == LAMP:
        return K_LAMP, v
    if top_kind == K_LAMP:  # COPY
        return top_kind, v
    return top_kind, top_value


@kernel_njit(inline="always")
def _count_play(code, top_kind, top_value, game_row):
    """The per-card statistics of a resolved play (§8)."""
    if ITEM_MAX_CODE < code <= CARPET_MAX_CODE:
        game_row[G_P_CARPET] += 1
    elif code == REVERSE:
        game_row[G_P_REV] += 1
    elif code == LAMP:
        game_row[G_P_LAMP] += 1
    elif code == COPY:
        game_row[G_P_COPY] += 1
    if top_kind == K_LAMP:
        game_row[G_LAMP_CHOICES] += 1
        game_row[G_LAMP_SUM] += top_value


@kernel_njit(inline="always")
def _count_break(code, T, break_at, game_row):
    """STRAW-15 statistics of a normal break (the forced flag is counted by the caller)."""
    game_row[G_BREAK_SUM] += T
    game_row[G_OVER_SUM] += T - break_at
    if code <= ITEM_MAX_CODE:
        game_row[G_BC_ITEM] += 1
    elif code == LAMP:
        game_row[G_BC_LAMP] += 1
    else:
        game_row[G_BC_COPY] += 1


@kernel_njit(inline="always")
def _choose(seat, sid, T, direction, pile, stack_len, top_kind, top_value, legal_set, n_legal, lamp_min, lamp_max,
            sparams, users, w):
    """The seat's action: `random` from the legal code set alone, the others from the observation (the legal codes
    listed in w.legal)."""
    if sid == RANDOM:
        return choose_random(legal_set, n_legal, top_kind == K_LAMP, lamp_min, lamp_max, w.rng)
    set_bits_into(legal_set, w.legal)
    _fill_turn_obs(w.obs, w.counts[seat], w.masks[seat], w.hand_len[seat], w.legal, n_legal, seat, T, direction, pile,
                   stack_len, top_kind, top_value)
    if sid > 0:
        return choose_builtin(sid, w.obs, sparams[seat], w.rng)
    action = users[seat](w.obs, sparams[seat], w.rng)
    if w.trace.shape[0] > 0:
        record(w.trace, w.trace_len, EV_CHOICE, seat, action, 0, 0, 0, 0, 0)
    return action


@kernel_njit(inline="always")
def _play_round(rp, dealer, pos, players, sids, sparams, users, game_row, tracing, w):
    """Turns from the seat left of the dealer (STRAW-5) until the round ends: each seat plays a legal card, resolves
    it and draws (STRAW-6..16), or passes (STRAW-17). Returns (ending, ender, T, cards taken from the pile); the
    ending is ILLEGAL when a plug-in broke the rules (game error set)."""
    deck, legal, obs = w.deck, w.legal, w.obs
    n_deck = deck.shape[0]
    break_at = rp[R_BREAK_AT]
    clamp = rp[R_CLAMP]
    lamp_min = rp[R_LAMP_MIN]
    lamp_max = rp[R_LAMP_MAX]
    T = 0
    direction = 1
    stack_len = 0
    top_kind = K_NONE
    top_value = 0
    seat = next_seat(dealer, 1, players)  # STRAW-5
    passes_in_row = 0
    while True:
        legal_set = legal_bits(w.masks[seat], T, break_at, stack_len)  # STRAW-7
        n_legal = bit_count(legal_set)
        if n_legal == 0:  # STRAW-17: pass; N passes in a row stall the round
            game_row[G_PASSES] += 1
            passes_in_row += 1
            if tracing:
                record(w.trace, w.trace_len, EV_PASS, seat, T, 0, 0, 0, 0, 0)
            if passes_in_row == players:
                return STALL, -1, T, pos
            seat = next_seat(seat, direction, players)
            continue
        passes_in_row = 0
        sid = sids[seat]
        action = _choose(seat, sid, T, direction, n_deck - pos, stack_len, top_kind, top_value, legal_set, n_legal,
                         lamp_min, lamp_max, sparams, users, w)
        code = action // ACTION_BASE
        v = action % ACTION_BASE
        lamp = code == LAMP or (code == COPY and top_kind == K_LAMP)
        if sid < 0 and not _is_legal_action(action, code, v, lamp, legal, n_legal, lamp_min, lamp_max):
            game_row[G_ERROR] = ERROR_ILLEGAL  # a plug-in broke the rules; shipped strategies are tested
            return ILLEGAL, -1, T, pos
        if not lamp:
            v = 0
        if (legal_set >> STRAW) & 1:  # the Straw is legal only at T = break_at
            game_row[G_STRAW_CHANCES] += 1
            if code != STRAW:
                game_row[G_STRAW_DECLINED] += 1
        remove_card(w, seat, code)
        obs[O_HAND_SIZES + seat] -= 1
        obs[O_PLAYED + code] += 1
        game_row[G_TURNS] += 1
        stack_len += 1
        if code == STRAW:  # STRAW-14: straw break, no draw
            if tracing:
                record(w.trace, w.trace_len, EV_PLAY, seat, code, 0, K_NONE, 0, T, direction)
            return STRAW_BREAK, seat, T, pos
        T_before, kind_before, value_before = T, top_kind, top_value
        top_kind, top_value = _effect(code, v, top_kind, top_value)
        _count_play(code, top_kind, top_value, game_row)
        if top_kind == K_ADD or top_kind == K_LAMP:  # STRAW-8, STRAW-9
            T += top_value
        elif top_kind == K_SUB:
            T -= top_value
            if clamp == 1 and T < 0:  # STRAW-10
                game_row[G_CLAMP_LOSS] += -T
                T = 0
        else:  # STRAW-11
            direction = -direction
        if tracing:
            record(w.trace, w.trace_len, EV_PLAY, seat, code, v, top_kind, top_value, T, direction)
        if T > break_at:  # STRAW-15: normal break, no draw
            set_bits_into(legal_set, legal)
            game_row[G_FORCED] += _forced(legal, n_legal, T_before, break_at, kind_before, value_before, lamp_min)
            _count_break(code, T, break_at, game_row)
            return NORMAL_BREAK, seat, T, pos
        if T == break_at:
            game_row[G_EXACT] += 1
        if pos < n_deck:  # STRAW-6: draw if the pile holds a card
            card = draw(w.rng, deck, pos, n_deck)
            add_card(w, seat, card)
            obs[O_HAND_SIZES + seat] += 1
            pos += 1
            if tracing:
                record(w.trace, w.trace_len, EV_DRAW, seat, card, n_deck - pos, 0, 0, 0, 0)
        seat = next_seat(seat, direction, players)  # STRAW-16


@kernel_njit(inline="always")
def _round_scores(rnd, ended, ender, T, pos, players, seat_row, game_row, tracing, w):
    """STRAW-18 round scores into the totals (STRAW-19), and the round's statistics."""
    totals, obs = w.totals, w.obs
    if ended == NORMAL_BREAK:
        game_row[G_NORMAL] += 1
        seat_row[ender, S_BREAKS] += 1
    elif ended == STRAW_BREAK:
        game_row[G_STRAW] += 1
        seat_row[ender, S_STRAW_BREAKS] += 1
    else:
        game_row[G_STALLS] += 1
    if pos == w.deck.shape[0]:
        game_row[G_DECK_OUT] += 1
    for s in range(players):
        h = w.hand_sum[s]
        if ended == NORMAL_BREAK and s == ender:
            h = 0
        elif ended == STRAW_BREAK and s != ender:
            h = 0
        totals[s] += h  # STRAW-19
        obs[O_TOTALS + s] = totals[s]
        if h == 0:
            seat_row[s, S_ZERO] += 1
        elif h < 0:
            seat_row[s, S_NEG] += 1
        if rnd == 1 or h > seat_row[s, S_BEST]:
            seat_row[s, S_BEST] = h
        if tracing:
            record(w.trace, w.trace_len, EV_ROUND_END, rnd, ended, ender, T, s, h, totals[s])


@kernel_njit(inline="always")
def _game_over(rp, rnd, rounds, totals, players, game_row):
    """STRAW-20 (a round per player, or `rounds`), or the evertide variant's target with its round cap."""
    if rp[R_EVERTIDE] == 1:  # variant evertide replaces STRAW-20
        top = totals[0]
        for s in range(1, players):
            top = max(top, totals[s])
        if top >= rp[R_TARGET]:
            return True
        if rnd >= rp[R_MAX_ROUNDS]:
            game_row[G_CAPPED] = 1
            return True
        return False
    return rnd >= rounds


@kernel_njit()
def play_game(rp, deck0, players, sids, sparams, users, seed, game_index, seat_row, game_row, w):
    """One game, STRAW-2..21. Writes seat_row(players, seat columns) and game_row(game columns); `w` is the
    Scratch."""
    stream_into(w.rng, seed, game_index)
    tracing = w.trace.shape[0] > 0
    _start_game(rp, players, seat_row, game_row, w)
    first_dealer = below(w.rng, players)  # STRAW-2
    game_row[G_FIRST_DEALER] = first_dealer
    rounds = rp[R_ROUNDS] if rp[R_ROUNDS] > 0 else players  # STRAW-20
    leader = -1  # the last round-end leader with a unique highest total (for lead_changes)
    rnd = 0
    while True:
        rnd += 1
        dealer = (first_dealer + rnd - 1) % players
        pos = _deal_round(rnd, dealer, rp[R_HAND_SIZE], deck0, players, tracing, w)
        ended, ender, T, pos = _play_round(rp, dealer, pos, players, sids, sparams, users, game_row, tracing, w)
        if ended == ILLEGAL:
            return
        _round_scores(rnd, ended, ender, T, pos, players, seat_row, game_row, tracing, w)
        new_leader = unique_leader(w.totals, players)
        if new_leader >= 0:
            if leader >= 0 and new_leader != leader:
                game_row[G_LEAD_CHANGES] += 1
            leader = new_leader
        if _game_over(rp, rnd, rounds, w.totals, players, game_row):
            break
    game_row[G_ROUNDS] = rnd
    for s in range(players):
        seat_row[s, S_SCORE] = w.totals[s]
    set_ranks(seat_row, players, w.totals)  # STRAW-21


@kernel_njit(nrt=True)
def _scratch(n_deck, trace, trace_len):
    return Scratch(np.empty(n_deck, np.int8), np.zeros((MAX_SEATS, N_CODES), np.int8), np.zeros(MAX_SEATS, np.int64),
                   np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.int64),
                   np.zeros(N_CODES, np.int64),
                   np.zeros(OBS_SIZE, np.int32), np.zeros(1, np.uint64), trace, trace_len)


_PLAY_SIGNATURE = types.void(types.int64[::1], types.int8[::1], types.int64, types.int64[::1],
                             types.float64[:, ::1], USER_FNS_TYPE, *PLAY_TAIL)


@njit(_PLAY_SIGNATURE, cache=True, nogil=True)
def play_games(rp, deck0, players, sids, sparams, users, seed, start, count, seat_out, game_out, trace,
               trace_len):
    """Games start .. start+count−1 into seat_out(count, players, seat columns) and game_out(count, game columns),
    one block on one scratch (every game draws from its own stream, so blocks never change results); `trace`
    (0 rows unless wanted) logs events. The engine runs blocks on its threads (sim.engine.run_chunk)."""
    w = _scratch(deck0.shape[0], trace, trace_len)
    # A game writes into block-local rows first: the output rows of neighbouring blocks share cache lines.
    seat_row = np.zeros((players, seat_out.shape[2]), np.int32)
    game_row = np.zeros(game_out.shape[1], np.int32)
    for i in range(count):
        play_game(rp, deck0, players, sids, sparams, users, seed, start + i, seat_row, game_row, w)
        for s in range(players):
            for j in range(seat_row.shape[1]):
                seat_out[i, s, j] = seat_row[s, j]
        for j in range(game_row.shape[0]):
            game_out[i, j] = game_row[j]


def kernel_data(params, players, data=None):
    """The kernel's inputs: rule vector (rules.PARAMS order) and the canonical deck."""
    rp = np.array([params[p.name] for p in rules.PARAMS], np.int64)
    return rp, np.array(rules.build_deck(params), np.int8)

