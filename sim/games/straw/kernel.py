"""Straw rules as njit code over flat integer arrays (docs/rules/straw.md); mirrors reference.py draw for draw.

One compiled kernel serves every variant: the rules arrive as the int64 parameter vector `rp` (layout `R_*`, the
order of `rules.PARAMS`) and the canonical deck. Strategies see only the observation (`strategies.straw`).
"""
import numpy as np
from numba import njit, prange, types

from sim.jit import kernel_njit
from sim.kernel_util import TRACE_WIDTH, USER_FNS_TYPE, record, set_ranks
from sim.rng import below, stream_into
from sim.games.straw.rules import ERROR_ILLEGAL, GAME_COLUMNS, MAX_HAND, PARAMS, SEAT_COLUMNS
from sim.spec import GAME_BASE, SEAT_BASE
from strategies.straw import (ACTION_BASE, COPY, K_ADD, K_LAMP, K_NONE, K_REV, K_SUB, LAMP, O_BREAK_AT, O_CLAMP,
                              O_DEALER, O_DIRECTION, O_HAND, O_HAND_LEN, O_HAND_SIZES, O_LAMP_MAX, O_LAMP_MIN,
                              O_LEGAL, O_LEGAL_CODES, O_N_LEGAL, O_PILE, O_PLAYED, O_PLAYERS, O_ROUND, O_SEAT,
                              O_STACK_LEN, O_T, O_TOP_KIND, O_TOP_VALUE, O_TOTALS, OBS_SIZE, RANDOM, REVERSE, STRAW,
                              choose_builtin, choose_random, hand_value)
from sim.games.straw import rules

# Rule-parameter vector layout: the order of rules.PARAMS.
(R_BREAK_AT, R_HAND_SIZE, R_ITEM_MIN, R_ITEM_MAX, R_ITEM_COPIES, R_CARPET_MIN, R_CARPET_MAX, R_CARPET_COPIES,
 R_REVERSE, R_COPY, R_LAMP, R_STRAW, R_LAMP_MIN, R_LAMP_MAX, R_CLAMP, R_ROUNDS, R_EVERTIDE, R_TARGET,
 R_MAX_ROUNDS) = range(len(PARAMS))
assert [p.name for p in PARAMS][R_MAX_ROUNDS] == "max_rounds"

_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE, S_BREAKS, S_STRAW_BREAKS, S_ZERO, S_NEG, S_BEST = (
    _SEAT[k] for k in ("score", "breaks", "straw_breaks", "zero_rounds", "negative_rounds", "best_round"))
(G_ERROR, G_FIRST_DEALER, G_ROUNDS, G_CAPPED, G_NORMAL, G_STRAW, G_STALLS, G_FORCED, G_BREAK_SUM, G_OVER_SUM,
 G_BC_ITEM, G_BC_LAMP, G_BC_COPY, G_TURNS, G_PASSES, G_EXACT, G_STRAW_CHANCES, G_STRAW_DECLINED, G_P_REV, G_P_COPY,
 G_P_LAMP, G_P_CARPET, G_LAMP_CHOICES, G_LAMP_SUM, G_CLAMP_LOSS, G_DECK_OUT, G_LEAD_CHANGES) = (
    _GAME[k] for k in GAME_BASE + GAME_COLUMNS)

# Trace event kinds (docs/trace.md): each event is TRACE_WIDTH int32s, [kind, a, b, c, d, e, f, g].
EV_ROUND, EV_DEAL, EV_PLAY, EV_PASS, EV_ROUND_END, EV_DRAW = 1, 2, 3, 4, 5, 6
# How a round ended.
ONGOING, NORMAL_BREAK, STRAW_BREAK, STALL = 0, 1, 2, 3


@kernel_njit(inline="always")
def _legal(code, T, break_at, stack_len):
    """STRAW-7."""
    if code == COPY:
        return stack_len > 0
    if code == STRAW:
        return T == break_at
    return True


@kernel_njit()
def _fill_turn_obs(obs, hands, hand_len, legal, n_legal, seat, T, direction, pile, stack_len, top_kind, top_value):
    """The per-turn part of the observation; the public rest (totals, hand sizes, played cards, rules) is kept up
    to date by play_game as it changes."""
    obs[O_T] = T
    obs[O_DIRECTION] = direction
    obs[O_SEAT] = seat
    obs[O_PILE] = pile
    obs[O_STACK_LEN] = stack_len
    obs[O_TOP_KIND] = top_kind
    obs[O_TOP_VALUE] = top_value
    n = hand_len[seat]
    obs[O_HAND_LEN] = n
    for i in range(MAX_HAND):
        obs[O_HAND + i] = hands[seat, i] if i < n else 0
    for c in range(24):
        obs[O_LEGAL + c] = 0
    for i in range(n_legal):
        obs[O_LEGAL + legal[i]] = 1
        obs[O_LEGAL_CODES + i] = legal[i]
    obs[O_N_LEGAL] = n_legal


@kernel_njit(inline="always")
def _draw(rng, deck, pos, n_deck):
    """The top card of the pile deck[pos:n_deck], shuffled lazily: a uniform card of the rest is swapped to pos."""
    j = pos + below(rng, n_deck - pos)
    card = deck[j]
    deck[j] = deck[pos]
    deck[pos] = card
    return card


@kernel_njit(inline="always")
def _next_seat(seat, direction, players):
    """STRAW-16 without an integer division (a division per turn is a measurable share of a game)."""
    seat += direction
    if seat >= players:
        return seat - players
    if seat < 0:
        return seat + players
    return seat


@kernel_njit(inline="always")
def _insert_sorted(hands, hand_len, seat, code):
    """Hands are kept ascending so the legal codes come out in the canonical order."""
    i = hand_len[seat]
    while i > 0 and hands[seat, i - 1] > code:
        hands[seat, i] = hands[seat, i - 1]
        i -= 1
    hands[seat, i] = code
    hand_len[seat] += 1


@kernel_njit(inline="always")
def _remove(hands, hand_len, seat, code):
    n = hand_len[seat]
    j = 0
    while hands[seat, j] != code:
        j += 1
    for i in range(j, n - 1):
        hands[seat, i] = hands[seat, i + 1]
    hand_len[seat] = n - 1


@kernel_njit()
def _unique_leader(totals, players):
    """The seat with the strictly highest total, or -1 on a tie."""
    best, who = totals[0], 0
    for s in range(1, players):
        if totals[s] > best:
            best, who = totals[s], s
        elif totals[s] == best:
            who = -1
    return who


@kernel_njit()
def _is_legal_action(action, code, v, lamp, legal, n_legal, lamp_min, lamp_max):
    if action < 0 or (lamp and (v < lamp_min or v > lamp_max)):
        return False
    for i in range(n_legal):
        if legal[i] == code:
            return True
    return False


@kernel_njit()
def _forced(legal, n_legal, T, break_at, top_kind, top_value, clamp, lamp_min):
    """True when every legal action breaks (STRAW-15 statistics; a Lamp is safest at its smallest value)."""
    for i in range(n_legal):
        c = legal[i]
        if c == STRAW or c == REVERSE or 11 <= c <= 19:
            return False  # the Straw never breaks; escapes never raise T
        add = c if c <= 10 else lamp_min
        if c == COPY:
            if top_kind == K_ADD:
                add = top_value
            elif top_kind != K_LAMP:
                return False  # a Copy of SUB or REV never raises T
        if T + add <= break_at:
            return False
    return True


# No reference counting in the per-game function: it allocates nothing (scratch comes from the block), and numba's
# increments/decrements around every helper taking an array cost more than a third of a heuristic game.
@kernel_njit(_nrt=False)
def play_game(rp, deck0, players, sids, sparams, users, seed, game_index, seat_row, game_row, deck, hands,
              hand_len, totals, legal, obs, rng, trace, trace_len):
    """One game, STRAW-2..21. Writes seat_row(players, seat columns) and game_row(game columns). Scratch:
    deck(deck size) hands(6, MAX_HAND+1) hand_len(6) totals(6) legal(24) obs(OBS_SIZE) rng(1); `trace` has 0 rows
    unless a trace is wanted."""
    stream_into(rng, seed, game_index)
    tracing = trace.shape[0] > 0
    break_at = rp[R_BREAK_AT]
    hand_size = rp[R_HAND_SIZE]
    n_deck = deck0.shape[0]
    clamp = rp[R_CLAMP]
    lamp_min = rp[R_LAMP_MIN]
    lamp_max = rp[R_LAMP_MAX]
    for s in range(players):
        for j in range(seat_row.shape[1]):
            seat_row[s, j] = 0
        totals[s] = 0
    for j in range(game_row.shape[0]):
        game_row[j] = 0
    for j in range(obs.shape[0]):
        obs[j] = 0
    obs[O_PLAYERS] = players
    obs[O_BREAK_AT] = break_at
    obs[O_LAMP_MIN] = lamp_min
    obs[O_LAMP_MAX] = lamp_max
    obs[O_CLAMP] = clamp
    first_dealer = below(rng, players)  # STRAW-2
    game_row[G_FIRST_DEALER] = first_dealer
    rounds = rp[R_ROUNDS] if rp[R_ROUNDS] > 0 else players  # STRAW-20
    leader = -1  # the last round-end leader with a unique highest total (for lead_changes)
    rnd = 0
    while True:
        rnd += 1
        dealer = (first_dealer + rnd - 1) % players
        # STRAW-3: gather and shuffle. The shuffle is lazy: each draw takes a uniform card from the rest of the
        # pile (forward Fisher–Yates one step at a time), so cards never drawn cost no random numbers.
        for j in range(n_deck):
            deck[j] = deck0[j]
        pos = 0
        for s in range(players):
            hand_len[s] = 0
        for _ in range(hand_size):  # STRAW-4: one card at a time from the seat left of the dealer
            s = dealer
            for i in range(players):
                s = _next_seat(s, 1, players)
                _insert_sorted(hands, hand_len, s, _draw(rng, deck, pos, n_deck))
                pos += 1
        for s in range(players):
            obs[O_HAND_SIZES + s] = hand_len[s]
        obs[O_ROUND] = rnd
        obs[O_DEALER] = dealer
        for c in range(24):
            obs[O_PLAYED + c] = 0
        if tracing:
            record(trace, trace_len, EV_ROUND, rnd, dealer, n_deck - pos, 0, 0, 0, 0)
            for s in range(players):
                for i in range(hand_len[s]):
                    record(trace, trace_len, EV_DEAL, s, hands[s, i], 0, 0, 0, 0, 0)
        T = 0
        direction = 1
        stack_len = 0
        top_kind = K_NONE
        top_value = 0
        seat = _next_seat(dealer, 1, players)  # STRAW-5
        passes_in_row = 0
        ended = ONGOING
        ender = -1
        while ended == ONGOING:
            # STRAW-7: the distinct legal codes, ascending (hands are kept sorted).
            n_legal = 0
            prev = -1
            for i in range(hand_len[seat]):
                c = hands[seat, i]
                if c != prev and _legal(c, T, break_at, stack_len):
                    legal[n_legal] = c
                    n_legal += 1
                prev = c
            if n_legal == 0:  # STRAW-17: pass; N passes in a row stall the round
                game_row[G_PASSES] += 1
                passes_in_row += 1
                if tracing:
                    record(trace, trace_len, EV_PASS, seat, T, 0, 0, 0, 0, 0)
                if passes_in_row == players:
                    ended = STALL
                else:
                    seat = _next_seat(seat, direction, players)
                continue
            passes_in_row = 0
            sid = sids[seat]
            if sid == RANDOM:
                action = choose_random(legal, n_legal, top_kind == K_LAMP, lamp_min, lamp_max, rng)
            else:
                _fill_turn_obs(obs, hands, hand_len, legal, n_legal, seat, T, direction, n_deck - pos, stack_len,
                               top_kind, top_value)
                if sid > 0:
                    action = choose_builtin(sid, obs, sparams[seat], rng)
                else:
                    action = users[seat](obs, sparams[seat], rng)
            code = action // ACTION_BASE
            v = action % ACTION_BASE
            lamp = code == LAMP or (code == COPY and top_kind == K_LAMP)
            if sid < 0 and not _is_legal_action(action, code, v, lamp, legal, n_legal, lamp_min, lamp_max):
                game_row[G_ERROR] = ERROR_ILLEGAL  # a plug-in broke the rules; shipped strategies are tested
                return
            if not lamp:
                v = 0
            if T == break_at and legal[n_legal - 1] == STRAW:
                game_row[G_STRAW_CHANCES] += 1
                if code != STRAW:
                    game_row[G_STRAW_DECLINED] += 1
            T_before = T
            _remove(hands, hand_len, seat, code)
            obs[O_HAND_SIZES + seat] -= 1
            obs[O_PLAYED + code] += 1
            game_row[G_TURNS] += 1
            stack_len += 1
            if code == STRAW:  # STRAW-14: straw break, no draw
                ended = STRAW_BREAK
                ender = seat
                if tracing:
                    record(trace, trace_len, EV_PLAY, seat, code, 0, K_NONE, 0, T, direction)
                break
            # Resolve (STRAW-8..13); a Copy takes the effect beneath it, a new value for a Lamp.
            kind_before, value_before = top_kind, top_value
            if code <= 10:
                top_kind, top_value = K_ADD, code
            elif code <= 19:
                top_kind, top_value = K_SUB, code - 10
                game_row[G_P_CARPET] += 1
            elif code == REVERSE:
                top_kind, top_value = K_REV, 0
                game_row[G_P_REV] += 1
            elif code == LAMP:
                top_kind, top_value = K_LAMP, v
                game_row[G_P_LAMP] += 1
            else:  # COPY
                game_row[G_P_COPY] += 1
                if top_kind == K_LAMP:
                    top_value = v
            if top_kind == K_LAMP:
                game_row[G_LAMP_CHOICES] += 1
                game_row[G_LAMP_SUM] += top_value
            if top_kind == K_ADD or top_kind == K_LAMP:
                T += top_value
            elif top_kind == K_SUB:
                T -= top_value
                if clamp == 1 and T < 0:  # STRAW-10
                    game_row[G_CLAMP_LOSS] += -T
                    T = 0
            else:  # STRAW-11
                direction = -direction
            if tracing:
                record(trace, trace_len, EV_PLAY, seat, code, v, top_kind, top_value, T, direction)
            if T > break_at:  # STRAW-15: normal break, no draw
                ended = NORMAL_BREAK
                ender = seat
                game_row[G_FORCED] += _forced(legal, n_legal, T_before, break_at, kind_before, value_before, clamp,
                                              lamp_min)
                game_row[G_BREAK_SUM] += T
                game_row[G_OVER_SUM] += T - break_at
                if code <= 10:
                    game_row[G_BC_ITEM] += 1
                elif code == LAMP:
                    game_row[G_BC_LAMP] += 1
                else:
                    game_row[G_BC_COPY] += 1
                break
            if T == break_at:
                game_row[G_EXACT] += 1
            if pos < n_deck:  # STRAW-6: draw if the pile holds a card
                card = _draw(rng, deck, pos, n_deck)
                _insert_sorted(hands, hand_len, seat, card)
                obs[O_HAND_SIZES + seat] += 1
                pos += 1
                if tracing:
                    record(trace, trace_len, EV_DRAW, seat, card, n_deck - pos, 0, 0, 0, 0)
            seat = _next_seat(seat, direction, players)  # STRAW-16
        # STRAW-18: round scores.
        if ended == NORMAL_BREAK:
            game_row[G_NORMAL] += 1
            seat_row[ender, S_BREAKS] += 1
        elif ended == STRAW_BREAK:
            game_row[G_STRAW] += 1
            seat_row[ender, S_STRAW_BREAKS] += 1
        else:
            game_row[G_STALLS] += 1
        if pos == n_deck:
            game_row[G_DECK_OUT] += 1
        for s in range(players):
            h = 0
            for i in range(hand_len[s]):
                h += hand_value(hands[s, i])
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
                record(trace, trace_len, EV_ROUND_END, rnd, ended, ender, T, s, h, totals[s])
        new_leader = _unique_leader(totals, players)
        if new_leader >= 0:
            if leader >= 0 and new_leader != leader:
                game_row[G_LEAD_CHANGES] += 1
            leader = new_leader
        if rp[R_EVERTIDE] == 1:  # variant evertide replaces STRAW-20
            top = totals[0]
            for s in range(1, players):
                top = max(top, totals[s])
            if top >= rp[R_TARGET]:
                break
            if rnd >= rp[R_MAX_ROUNDS]:
                game_row[G_CAPPED] = 1
                break
        elif rnd >= rounds:
            break
    game_row[G_ROUNDS] = rnd
    for s in range(players):
        seat_row[s, S_SCORE] = totals[s]
    set_ranks(seat_row, players, totals)  # STRAW-21


@kernel_njit()
def _scratch(n_deck):
    """Per-thread working arrays for play_game: deck, hands, hand_len, totals, legal, obs, rng."""
    return (np.empty(n_deck, np.int8), np.zeros((6, MAX_HAND + 1), np.int8), np.zeros(6, np.int64),
            np.zeros(6, np.int64), np.zeros(24, np.int64), np.zeros(OBS_SIZE, np.int32), np.zeros(1, np.uint64))


_CHUNK_SIGNATURE = types.void(
    types.int64[::1], types.int8[::1], types.int64, types.int64[::1], types.float64[:, ::1], USER_FNS_TYPE,
    types.int64, types.int64, types.int64, types.int32[:, :, ::1], types.int32[:, ::1])


@njit(_CHUNK_SIGNATURE, cache=True, parallel=True)
def run_chunk(rp, deck0, players, sids, sparams, users, seed, start, count, seat_out, game_out):
    """Games start .. start+count−1 into seat_out(count, players, seat columns) and game_out(count, game columns).
    Blocks of games share scratch arrays; every game draws from its own stream, so blocking never changes results."""
    blocks = min(count, 256)
    for b in prange(blocks):
        deck, hands, hand_len, totals, legal, obs, rng = _scratch(deck0.shape[0])
        no_trace = np.zeros((0, TRACE_WIDTH), np.int32)
        trace_len = np.zeros(1, np.int64)
        # Each block reads its own copies of the shared inputs: numba counts references to an array on every call
        # that takes it, and threads doing that on one shared array fight over its cache line.
        # The same goes for views of the shared outputs, so a game writes into block-local rows first.
        my_rp, my_deck0, my_sids, my_sparams = rp.copy(), deck0.copy(), sids.copy(), sparams.copy()
        seat_row = np.zeros((players, seat_out.shape[2]), np.int32)
        game_row = np.zeros(game_out.shape[1], np.int32)
        for i in range(count * b // blocks, count * (b + 1) // blocks):
            play_game(my_rp, my_deck0, players, my_sids, my_sparams, users, seed, start + i, seat_row, game_row,
                      deck, hands, hand_len, totals, legal, obs, rng, no_trace, trace_len)
            for s in range(players):
                for j in range(seat_row.shape[1]):
                    seat_out[i, s, j] = seat_row[s, j]
            for j in range(game_row.shape[0]):
                game_out[i, j] = game_row[j]


@kernel_njit()
def trace_one(rp, deck0, players, sids, sparams, users, seed, game_index, seat_row, game_row, trace, trace_len):
    """One game with its event log (for `sim trace`)."""
    deck, hands, hand_len, totals, legal, obs, rng = _scratch(deck0.shape[0])
    play_game(rp, deck0, players, sids, sparams, users, seed, game_index, seat_row, game_row, deck, hands,
              hand_len, totals, legal, obs, rng, trace, trace_len)


def kernel_data(params, players, data=None):
    rp = np.array([params[p.name] for p in rules.PARAMS], np.int64)
    return rp, np.array(rules.build_deck(params), np.int8)

