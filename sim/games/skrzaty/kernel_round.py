"""Skrzaty's round, SKRZATY-29..36: its phases as the reference names them (start_round, play_turns, rank_round,
award_markers, market_pick), each inlined into kernel_phases.play_game's round loop. A phase that asks a plug-in
returns False when the plug-in chose an illegal action."""
from sim.jit import kernel_njit
from sim.kernel_util import record
from sim.games.skrzaty.kernel_layout import (
    C_AMOUNT, C_COLOUR, C_EFFECT, C_ID, C_SPACES, C_VALUE, EV_GAIN, EV_MARKET, EV_PICK, EV_PLAY, EV_RANK,
    EV_RECYCLE, EV_ROUND, R_MARKET_EXTRA, R_MARKET_KEEP, R_MARKET_RANKED, SRC_DELIVERY, SRC_END, SRC_FINDER,
    S_CARDS_COLOUR, S_CARDS_PLAYED, S_CITY_SPACES, S_DISGUISE_CHANGED, S_FOREMAN_GNOMES, S_GUILD_APPLIED, S_INSTANT,
    S_RANK_COUNT)
from sim.games.skrzaty.kernel_steps import (
    barter, choose_position, gain_gnomes, insert_sorted, placement, remove_at, set_loc, take_token)
from sim.games.skrzaty.obs import (
    LOC_CITY, LOC_DECK, LOC_HAND, LOC_MARKET, MAX_CITY, MAX_P, O_BEST_COLOUR, O_CITY, O_CITY_LEN, O_DECK_SIZE,
    O_EMPTY, O_END_MARKERS, O_GNOMES, O_HAND_SIZES, O_MARKERS, O_MARKET, O_MARKET_LEN, O_ORDER, O_PLAYED_CARD,
    O_PLAYED_LEN, O_PLAYED_SEAT, O_POOL, O_ROUND_TYPE, O_ROW_COLOUR, O_ROW_TYPE, O_VP_END_TILE, O_VP_REWARDS, PICK,
    PLAY, SP_BONUS, SP_GNOMES, SP_VP)
from sim.games.skrzaty.rules import E_BARTER, E_DELIVERY, E_DISGUISE, E_FINDER


# ---------------------------------------------------------------------------------------------------- a round
@kernel_njit(inline="always")
def start_round(obs, rp, cards, deck, head, tail, first, turn_pos, players, r, trace, trace_len):
    """start_round, SKRZATY-29/30/31: round r's best colour, type and turn order (clockwise from this round's
    first player); the Market (market-keep: refill only). Returns (best colour, round type, the deck's new head)."""
    best = obs[O_ROW_COLOUR + r - 1]
    rtype = obs[O_ROW_TYPE + r - 1]
    obs[O_BEST_COLOUR] = best
    obs[O_ROUND_TYPE] = rtype
    s = first
    for i in range(players):  # SKRZATY-30: turn order clockwise from this round's first player
        obs[O_ORDER + i] = s
        turn_pos[s] = i
        s += 1
        if s == players:
            s = 0
    m_len = obs[O_MARKET_LEN]
    while m_len < players + rp[R_MARKET_EXTRA]:
        c = deck[head]
        head += 1
        obs[O_MARKET + m_len] = c
        set_loc(obs, c, LOC_MARKET, -1)
        m_len += 1
    obs[O_MARKET_LEN] = m_len
    obs[O_DECK_SIZE] = tail - head
    if trace.shape[0] > 0:
        record(trace, trace_len, EV_ROUND, r, first, best, rtype, tail - head, 0, 0)
        for i in range(m_len):
            record(trace, trace_len, EV_MARKET, r, i + 1, cards[obs[O_MARKET + i], C_ID], 0, 0, 0, 0)
    return best, rtype, head


@kernel_njit(inline="always")
def play_turns(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, slot, fore, guild,
               seat_row, game_row, players, best, trace, trace_len):
    """play_turns, SKRZATY-32: each seat plays one card (D2) in turn order; Instant effects (SKRZATY-8..11, 42);
    then a placement window (SKRZATY-39). False when a plug-in chose an illegal action."""
    tracing = trace.shape[0] > 0
    for pos in range(players):
        seat = obs[O_ORDER + pos]
        j = choose_position(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len,
                            cards.shape[0], PLAY, seat, hand_len[seat])
        if j < 0:
            return False
        c = hands[seat, j]
        remove_at(hands, hand_len, seat, j)
        obs[O_HAND_SIZES + seat] -= 1
        base = seat * MAX_CITY
        n_city = obs[O_CITY_LEN + seat]
        obs[O_CITY + base + n_city] = c
        obs[O_GNOMES + base + n_city] = 0
        obs[O_CITY_LEN + seat] = n_city + 1
        slot[c] = n_city
        colour = cards[c, C_COLOUR]
        sp = cards[c, C_SPACES]
        obs[O_EMPTY + seat] += sp
        set_loc(obs, c, LOC_CITY, seat)
        obs[O_PLAYED_SEAT + pos] = seat
        obs[O_PLAYED_CARD + pos] = c
        obs[O_PLAYED_LEN] = pos + 1
        seat_row[seat, S_CARDS_COLOUR + colour] += 1
        seat_row[seat, S_CARDS_PLAYED] += 1
        seat_row[seat, S_CITY_SPACES] += sp
        e = cards[c, C_EFFECT]
        if tracing:
            record(trace, trace_len, EV_PLAY, seat, cards[c, C_ID], colour, cards[c, C_VALUE], e, 0, 0)
        ok = True
        if E_DELIVERY <= e <= E_DISGUISE:  # SKRZATY-42: Instant effects resolve whatever the gnomes
            seat_row[seat, S_INSTANT + e] += 1
            if e == E_DELIVERY or e == E_FINDER:  # SKRZATY-8/9/40: one gain event, placement below
                amount = cards[c, C_AMOUNT]
                gn = amount if e == E_DELIVERY else 0
                got = gain_gnomes(obs, seat_row, game_row, seat, gn)
                if tracing:
                    record(trace, trace_len, EV_GAIN, seat, SRC_DELIVERY if e == E_DELIVERY else SRC_FINDER,
                           got, gn, 0, 0, obs[O_POOL])
                if e == E_FINDER:  # `amount` tokens one at a time
                    for _ in range(amount):
                        if ok:
                            ok = take_token(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned,
                                            ret_len, seat_row, game_row, seat, trace, trace_len)
            elif e == E_BARTER:  # SKRZATY-10
                ok = barter(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards,
                            seat_row, seat, trace, trace_len)
            elif best != colour:  # SKRZATY-11: disguise, applied in the ranking
                seat_row[seat, S_DISGUISE_CHANGED] += 1
        if ok:
            ok = placement(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards,
                           slot, fore, guild, seat_row, seat, trace, trace_len)
        if not ok:
            return False
    return True


@kernel_njit(inline="always")
def rank_round(obs, cards, guild, ranking, rank_group, rank_value, turn_pos, seat_row, players, best, r, trace,
               trace_len):
    """rank_round, SKRZATY-33: rank by (0 if best colour else 1, −ranking value, turn position); insertion sort
    into `ranking`."""
    for pos in range(players):
        seat = obs[O_PLAYED_SEAT + pos]
        c = obs[O_PLAYED_CARD + pos]
        bonus = guild[seat, cards[c, C_COLOUR]]  # SKRZATY-13: by the printed colour
        if bonus > 0:
            seat_row[seat, S_GUILD_APPLIED] += 1
        g = 0 if (cards[c, C_EFFECT] == E_DISGUISE or cards[c, C_COLOUR] == best) else 1  # SKRZATY-11
        v = cards[c, C_VALUE] + bonus
        rank_group[seat] = g
        rank_value[seat] = v
        j = pos
        while j > 0:
            o = ranking[j - 1]
            # an earlier turn stays ahead on ties
            if rank_group[o] < g or (rank_group[o] == g and rank_value[o] >= v):
                break
            ranking[j] = o
            j -= 1
        ranking[j] = seat
    if trace.shape[0] > 0:
        for k in range(players):
            seat = ranking[k]
            c = obs[O_PLAYED_CARD + turn_pos[seat]]
            rc = best if cards[c, C_EFFECT] == E_DISGUISE else cards[c, C_COLOUR]
            record(trace, trace_len, EV_RANK, r, k + 1, seat, rc, rank_value[seat], rank_value[seat] - cards[c,
                   C_VALUE], 0)


@kernel_njit(inline="always")
def award_markers(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, slot, fore, guild,
                  spaces, end_tile, ranking, seat_row, game_row, players, r, rtype, final, trace, trace_len):
    """award_markers, SKRZATY-34/40 (rounds) and SKRZATY-44 (End tile, no foreman extras): markers top to bottom
    in ranking order and their rewards. A gain event: (1) gnomes, (2) foreman extras counted when the marker is
    placed, (3) VP, (4) Bonus tokens one at a time, (5) one placement. False when a plug-in chose an illegal
    action."""
    for k in range(players):
        seat = ranking[k]
        if final:
            obs[O_END_MARKERS + k] = seat
            gn, vp, bonus = end_tile[k, SP_GNOMES], end_tile[k, SP_VP], end_tile[k, SP_BONUS]
            foreman, src = 0, SRC_END + k + 1
        else:
            obs[O_MARKERS + (r - 1) * MAX_P + k] = seat
            seat_row[seat, S_RANK_COUNT + k] += 1
            gn, vp, bonus = spaces[rtype, k, SP_GNOMES], spaces[rtype, k, SP_VP], spaces[rtype, k, SP_BONUS]
            foreman, src = fore[seat], k + 1
        got = gain_gnomes(obs, seat_row, game_row, seat, gn)
        fgot = 0
        if foreman > 0:
            fgot = gain_gnomes(obs, seat_row, game_row, seat, foreman)
            seat_row[seat, S_FOREMAN_GNOMES] += fgot
        if final:
            obs[O_VP_END_TILE + seat] += vp
        else:
            obs[O_VP_REWARDS + seat] += vp
        if trace.shape[0] > 0:
            record(trace, trace_len, EV_GAIN, seat, src, got, gn, fgot, vp, obs[O_POOL])
        ok = True
        for _ in range(bonus):
            if ok:
                ok = take_token(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, seat_row,
                                game_row, seat, trace, trace_len)
        if ok:
            ok = placement(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, slot,
                           fore, guild, seat_row, seat, trace, trace_len)
        if not ok:
            return False
    return True


@kernel_njit(inline="always")
def market_pick(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, deck, ranking, rp,
                players, head, tail, trace, trace_len):
    """market_pick, SKRZATY-35/36 (D6): one Market card each, last place first (market-ranked: first place
    first); the leftovers to the deck bottom in Market-position order (market-keep: they stay). Returns (False
    when a plug-in chose an illegal action, the deck's new tail)."""
    tracing = trace.shape[0] > 0
    for k in range(players):
        seat = ranking[k] if rp[R_MARKET_RANKED] == 1 else ranking[players - 1 - k]
        m_len = obs[O_MARKET_LEN]
        j = choose_position(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len,
                            cards.shape[0], PICK, seat, m_len)
        if j < 0:
            return False, tail
        c = obs[O_MARKET + j]
        for i in range(j, m_len - 1):
            obs[O_MARKET + i] = obs[O_MARKET + i + 1]
        obs[O_MARKET + m_len - 1] = -1
        obs[O_MARKET_LEN] = m_len - 1
        insert_sorted(hands, hand_len, seat, c)
        obs[O_HAND_SIZES + seat] += 1
        set_loc(obs, c, LOC_HAND, seat)
        if tracing:
            record(trace, trace_len, EV_PICK, seat, cards[c, C_ID], 0, 0, 0, 0, 0)
    if rp[R_MARKET_KEEP] != 1:
        for i in range(obs[O_MARKET_LEN]):
            c = obs[O_MARKET + i]
            deck[tail] = c
            tail += 1
            set_loc(obs, c, LOC_DECK, -1)
            obs[O_MARKET + i] = -1
            if tracing:
                record(trace, trace_len, EV_RECYCLE, cards[c, C_ID], tail - head, 0, 0, 0, 0, 0)
        obs[O_MARKET_LEN] = 0
        obs[O_DECK_SIZE] = tail - head
    return True, tail
