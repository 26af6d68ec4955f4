"""One Skrzaty game in njit (docs/rules/skrzaty.md, SKRZATY-22..46), in the reference's phases (reference.py), and
draw for draw the reference's game.

Every phase is a function named as in the reference: setup_reward_row and setup_hands (its `setup`), then per round
start_round, play_turns, rank_round, award_markers and market_pick, and at the end final_ranking and score. They are
inlined into play_game: called as functions, the round's phases cost 17% of random play's games/s (a call hands
each of them a dozen arrays); inlined they cost nothing, and the kernel compiles as fast as before they were split
(docs/decisions.md). The steps they share (placement, tokens, barter, decisions) are in kernel_steps.

The public state lives in the observation array itself (`sim.games.skrzaty.obs` documents its layout), so
strategies read it without copies; the hidden state (deck order, hands, returned cards) lives in the scratch's own
arrays (`kernel_layout.Scratch`). A step or phase returns False when a plug-in chose an illegal action."""
from sim.jit import kernel_njit
from sim.kernel_util import record, set_ranks
from sim.rng import below, shuffle, stream_into
from sim.games.skrzaty.kernel_layout import (
    C_AMOUNT, C_COLOUR, C_EFFECT, C_ID, C_SPACES, C_VALUE, C_VP, EV_FINAL, EV_FIRST, EV_KEEP, EV_ROW, EV_SCORE,
    G_END_COLOUR, G_FIRST_PLAYER, G_POOL_LEFT, G_ROUNDS_PLAYED, G_TOKENS_LEFT, G_WINNER, RC_COLOUR, RC_NUMBER,
    RC_TYPE, R_DEAL, R_FESTIVAL_MIN, R_FINAL_HIGHEST, R_FIRST_PLAYER, R_FIXED_FIRST, R_GNOME_POOL, R_HAND_KEEP,
    R_ROUNDS, S_END_CARDS, S_END_SUM, S_EV_CROSSROADS, S_EV_FESTIVAL, S_EV_QUARTER, S_FILLED, S_FINAL_RANK,
    S_PLACED, S_RANK, S_SCORE, S_UNFILLED, S_VP_CARDS, S_VP_END_EFFECTS, S_VP_END_TILE, S_VP_REWARDS, S_VP_TOKENS,
    S_WASTED_RESERVE, S_WIN60)
from sim.games.skrzaty.kernel_steps import _reset_obs, ask, fail, insert_sorted, random_keep_mask
from sim.games.skrzaty.obs import (
    KEEP, MAX_CITY, MAX_P, O_BEST_COLOUR, O_CITY, O_CITY_LEN, O_DECK_SIZE, O_END_COLOUR, O_FIRST_PLAYER, O_GNOMES,
    O_HAND_SIZES, O_N_KINDS, O_ORDER, O_PLAYED_CARD, O_PLAYED_LEN, O_PLAYED_SEAT, O_POOL, O_RESERVE, O_ROUND,
    O_ROUND_TYPE, O_ROW_COLOUR, O_ROW_TYPE, O_TOKENS_AT, O_VP_END_TILE, O_VP_REWARDS, TOKEN_W, T_HELD, T_SUPPLY,
    T_VP)
from sim.games.skrzaty.rules import E_CROSSROADS, E_FESTIVAL, E_QUARTER, N_COLOURS
from sim.games.skrzaty.kernel_round import award_markers, market_pick, play_turns, rank_round, start_round
from strategies.skrzaty import RANDOM

SCORE_SHIFT, FILLED_SHIFT = 40, 20  # SKRZATY-46 key: score, then filled cards, then gnomes on cards


# ---------------------------------------------------------------------------------------------------- setup
@kernel_njit(inline="always")
def setup_reward_row(obs, row, rng, rp, rcards, trace, trace_len):
    """SKRZATY-22/23: shuffle the Reward cards for P; R1..R(rounds+1) face up; the last gives the End colour."""
    rounds = rp[R_ROUNDS]
    n_r = rcards.shape[0]
    for i in range(n_r):
        row[i] = i
    shuffle(rng, row, n_r)
    for i in range(rounds + 1):
        obs[O_ROW_COLOUR + i] = rcards[row[i], RC_COLOUR]
        obs[O_ROW_TYPE + i] = rcards[row[i], RC_TYPE]
        if trace.shape[0] > 0:
            record(trace, trace_len, EV_ROW, i + 1, rcards[row[i], RC_NUMBER], rcards[row[i], RC_COLOUR],
                   rcards[row[i], RC_TYPE], 0, 0, 0)
    end_colour = rcards[row[rounds], RC_COLOUR]
    obs[O_END_COLOUR] = end_colour
    return end_colour


@kernel_njit(inline="always")
def setup_hands(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, deck, rp, players,
                trace, trace_len):
    """SKRZATY-25: shuffle the City cards (ascending id) into the deck, top first. SKRZATY-26: deal `deal` cards to
    each seat from seat 0; D1 keep choices, all simultaneous; the returned cards to the bottom. Returns
    (ok, head, tail) of the deck queue."""
    n_cards = cards.shape[0]
    deal = rp[R_DEAL]
    keep = rp[R_HAND_KEEP]
    for c in range(n_cards):
        deck[c] = c
    shuffle(rng, deck, n_cards)
    head = 0
    tail = n_cards
    for s in range(players):
        for i in range(deal):
            insert_sorted(hands, hand_len, s, deck[head])
            head += 1
        obs[O_HAND_SIZES + s] = deal
    obs[O_DECK_SIZE] = tail - head
    for s in range(players):
        sid = sids[s]
        if deal == keep:
            mask = (1 << deal) - 1
        elif sid == RANDOM:
            mask = random_keep_mask(rng, deal, keep)
        else:
            mask = ask(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, KEEP, s)
            bits = 0
            for i in range(deal):
                bits += (mask >> i) & 1
            if mask < 0 or mask >= (1 << deal) or bits != keep:
                return False, head, tail
        # Kept cards stay in hands[s] (private, ascending); the rest are remembered as returned.
        n = 0
        for i in range(deal):
            c = hands[s, i]
            if (mask >> i) & 1:
                hands[s, n] = c
                n += 1
            else:
                returned[s, ret_len[s]] = c
                ret_len[s] += 1
            if trace.shape[0] > 0:
                record(trace, trace_len, EV_KEEP, s, cards[c, C_ID], (mask >> i) & 1, 0, 0, 0, 0)
        hand_len[s] = n
    for s in range(players):  # to the bottom, seat 0's first, each in ascending id
        for i in range(ret_len[s]):
            deck[tail] = returned[s, i]
            tail += 1
        obs[O_HAND_SIZES + s] = keep
    obs[O_DECK_SIZE] = tail - head
    return True, head, tail


# ---------------------------------------------------------------------------------------------------- the final ranking
@kernel_njit(inline="always")
def final_ranking(obs, cards, hands, hand_len, ranking, group, value, tie, top_of, rp, players, seat_row, game_row,
                  end_colour, trace, trace_len):
    """SKRZATY-43: the final ranking on the hands: End-colour holders first (by sum, or by highest card under
    final-highest; then highest End card), the others by highest hand card; the last round's turn positions break
    the remaining ties. Insertion sort into ranking."""
    final_highest = rp[R_FINAL_HIGHEST] == 1
    obs[O_BEST_COLOUR] = -1
    obs[O_ROUND_TYPE] = -1
    for pos in range(players):
        seat = obs[O_ORDER + pos]
        total, n_end, top_end, top = 0, 0, 0, 0
        for i in range(hand_len[seat]):
            c = hands[seat, i]
            v = cards[c, C_VALUE]
            if v > top:
                top = v
            if cards[c, C_COLOUR] == end_colour:
                total += v
                n_end += 1
                if v > top_end:
                    top_end = v
        seat_row[seat, S_END_SUM] = total
        seat_row[seat, S_END_CARDS] = n_end
        g = 0 if n_end > 0 else 1
        p1 = (top_end if final_highest else total) if n_end > 0 else top
        p2 = top_end  # 0 in the second group
        j = pos
        while j > 0:
            o = ranking[j - 1]
            if group[o] < g or (group[o] == g and (value[o] > p1 or (value[o] == p1 and tie[o] >= p2))):
                break
            ranking[j] = o
            j -= 1
        ranking[j] = seat
        group[seat] = g
        value[seat] = p1
        tie[seat] = p2
        top_of[seat] = top
    for k in range(players):
        seat = ranking[k]
        seat_row[seat, S_FINAL_RANK] = k + 1
        if trace.shape[0] > 0:
            record(trace, trace_len, EV_FINAL, k + 1, seat, seat_row[seat, S_END_SUM], seat_row[seat, S_END_CARDS],
                   top_of[seat], 0, 0)
    game_row[G_WINNER] = ranking[0]


# ---------------------------------------------------------------------------------------------------- the end
@kernel_njit(inline="always")
def score(obs, cards, by_colour, score_key, rp, players, seat_row, game_row, end_colour, trace, trace_len):
    """SKRZATY-45/46: each seat's VP breakdown (only filled cards count), its score, the ranks; the game columns."""
    ta = obs[O_TOKENS_AT]
    n_kinds = obs[O_N_KINDS]
    festival_min = rp[R_FESTIVAL_MIN]
    for seat in range(players):
        base = seat * MAX_CITY
        n_city = obs[O_CITY_LEN + seat]
        for col in range(N_COLOURS):
            by_colour[seat, col] = 0
        filled, vp_cards, on_cards = 0, 0, 0
        for i in range(n_city):
            c = obs[O_CITY + base + i]
            gn = obs[O_GNOMES + base + i]
            on_cards += gn
            if gn == cards[c, C_SPACES]:
                filled += 1
                vp_cards += cards[c, C_VP]
                by_colour[seat, cards[c, C_COLOUR]] += 1
        distinct = 0
        for col in range(N_COLOURS):
            if by_colour[seat, col] > 0:
                distinct += 1
        q, x, f = 0, 0, 0
        for i in range(n_city):
            c = obs[O_CITY + base + i]
            if obs[O_GNOMES + base + i] == cards[c, C_SPACES]:
                e = cards[c, C_EFFECT]
                if e == E_QUARTER:  # SKRZATY-14
                    q += cards[c, C_AMOUNT] * by_colour[seat, cards[c, C_COLOUR]]
                elif e == E_CROSSROADS:  # SKRZATY-15
                    x += cards[c, C_AMOUNT] * distinct
                elif e == E_FESTIVAL and by_colour[seat, cards[c, C_COLOUR]] >= festival_min:  # SKRZATY-16
                    f += cards[c, C_AMOUNT]
        vp_tokens = 0
        for k in range(n_kinds):
            vp_tokens += obs[ta + k * TOKEN_W + T_HELD + seat] * obs[ta + k * TOKEN_W + T_VP]
        seat_row[seat, S_VP_CARDS] = vp_cards
        seat_row[seat, S_VP_END_EFFECTS] = q + x + f
        seat_row[seat, S_VP_REWARDS] = obs[O_VP_REWARDS + seat]
        seat_row[seat, S_VP_END_TILE] = obs[O_VP_END_TILE + seat]
        seat_row[seat, S_VP_TOKENS] = vp_tokens
        seat_row[seat, S_EV_QUARTER] = q
        seat_row[seat, S_EV_CROSSROADS] = x
        seat_row[seat, S_EV_FESTIVAL] = f
        seat_row[seat, S_FILLED] = filled
        seat_row[seat, S_UNFILLED] = n_city - filled
        seat_row[seat, S_PLACED] = on_cards
        seat_row[seat, S_WASTED_RESERVE] = obs[O_RESERVE + seat]
        total = vp_cards + q + x + f + obs[O_VP_REWARDS + seat] + obs[O_VP_END_TILE + seat] + vp_tokens
        seat_row[seat, S_SCORE] = total
        score_key[seat] = (total << SCORE_SHIFT) + (filled << FILLED_SHIFT) + on_cards
    set_ranks(seat_row, players, score_key)
    tokens_left = 0
    for k in range(n_kinds):
        tokens_left += obs[ta + k * TOKEN_W + T_SUPPLY]
    game_row[G_END_COLOUR] = end_colour
    game_row[G_POOL_LEFT] = obs[O_POOL]
    game_row[G_TOKENS_LEFT] = tokens_left
    game_row[G_ROUNDS_PLAYED] = rp[R_ROUNDS]
    if trace.shape[0] > 0:
        for seat in range(players):
            record(trace, trace_len, EV_SCORE, seat, seat_row[seat, S_SCORE], seat_row[seat, S_RANK],
                   seat_row[seat, S_WIN60], seat_row[seat, S_FILLED], seat_row[seat, S_PLACED], 0)


# ---------------------------------------------------------------------------------------------------- one game
@kernel_njit()
def play_game(rp, rcards, spaces, end_tile, tokens, players, fns, seed, game_index, seat_row, game_row, obs, uobs,
              deck, hands, hand_len, returned, ret_len, slot, fore, guild, row, turn_pos, ranking, rank_group,
              rank_value, rank_tie, hand_top, filled_by_colour, score_key, rng, cards, sids, sparams, trace,
              trace_len):
    """One game, SKRZATY-22..46, into seat_row(players, seat columns) and game_row(game columns). `obs` .. `sparams`
    are the block's `Scratch` (kernel_layout), in its field order, passed one by one (a tuple passed on is copied
    whole). `trace` has 0 rows unless a trace is wanted."""
    stream_into(rng, seed, game_index)
    rounds = rp[R_ROUNDS]
    seat_row[:players, :] = 0
    game_row[:] = 0
    _reset_obs(obs, rp, tokens, rp[R_GNOME_POOL])
    for s in range(players):
        hand_len[s] = 0
        ret_len[s] = 0
        fore[s] = 0
        for col in range(N_COLOURS):
            guild[s, col] = 0

    end_colour = setup_reward_row(obs, row, rng, rp, rcards, trace, trace_len)
    ok, head, tail = setup_hands(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, deck,
                                 rp, players, trace, trace_len)
    if not ok:
        fail(seat_row, game_row, players)
        return
    first = below(rng, players) if rp[R_FIRST_PLAYER] < 0 else rp[R_FIRST_PLAYER]  # SKRZATY-28
    game_row[G_FIRST_PLAYER] = first
    obs[O_FIRST_PLAYER] = first
    if trace.shape[0] > 0:
        record(trace, trace_len, EV_FIRST, first, 0, 0, 0, 0, 0, 0)

    rtype = 0
    for r in range(1, rounds + 2):  # SKRZATY-29: the rounds; r = rounds+1 is the final ranking and the End tile
        final = r > rounds
        obs[O_ROUND] = r
        obs[O_PLAYED_LEN] = 0
        for i in range(MAX_P):
            obs[O_PLAYED_SEAT + i] = -1
            obs[O_PLAYED_CARD + i] = -1
        if not final:
            best, rtype, head = start_round(obs, rp, cards, deck, head, tail, first, turn_pos, players, r, trace,
                                            trace_len)
            if not play_turns(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, slot,
                              fore, guild, seat_row, game_row, players, best, trace, trace_len):
                fail(seat_row, game_row, players)
                return
            rank_round(obs, cards, guild, ranking, rank_group, rank_value, turn_pos, seat_row, players, best, r,
                       trace, trace_len)
        else:
            final_ranking(obs, cards, hands, hand_len, ranking, rank_group, rank_value, rank_tie, hand_top, rp, players,
                          seat_row, game_row, end_colour, trace, trace_len)
        if not award_markers(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards,
                             slot, fore, guild, spaces, end_tile, ranking, seat_row, game_row, players, r,
                             rtype, final, trace, trace_len):
            fail(seat_row, game_row, players)
            return
        if final:
            break

        ok, tail = market_pick(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards,
                               deck, ranking, rp, players, head, tail, trace, trace_len)
        if not ok:
            fail(seat_row, game_row, players)
            return
        if rp[R_FIXED_FIRST] == 0:  # SKRZATY-30: the first player passes clockwise
            first += 1
            if first == players:
                first = 0
    score(obs, cards, filled_by_colour, score_key, rp, players, seat_row, game_row, end_colour, trace, trace_len)
