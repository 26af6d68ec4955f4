"""The Skrzaty kernel's small steps: the observation's upkeep, decisions (asking a strategy or drawing for
`random`), and the shared gain, token, placement and barter steps (docs/rules/skrzaty.md).

Every step is inlined into play_game (`inline="always"`): a call hands over every field of every array it is
passed, a measurable share of a game (the round's phases, called rather than inlined, cost 17%). The steps take the
scratch arrays they touch one by one, not the `Scratch` tuple, which would be copied whole. The arguments of a decision
come first, in one order everywhere (obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len);
`fns` is (the shipped strategies' dispatch, the plug-in functions per seat, the trace, its length).
Steps return False when a plug-in chose an illegal action.
"""
from sim.jit import kernel_njit
from sim.kernel_util import record
from sim.rng import below
from sim.games.skrzaty.kernel_layout import (
    C_AMOUNT, C_COLOUR, C_EFFECT, C_ID, C_SPACES, C_VALUE, C_VP, EV_BARTER, EV_CHOICE, EV_PLACE, EV_TOKEN, G_ERROR,
    G_POOL_EXHAUSTED, R_DEAL, R_FESTIVAL_MIN, R_FINAL_HIGHEST, R_FIXED_FIRST, R_GNOME_POOL, R_HAND_KEEP, R_MARKET_EXTRA,
    R_MARKET_KEEP, R_MARKET_RANKED, R_ROUNDS, S_BARTER_SWAPS, S_FINDER_FALLBACKS, S_GAINED, S_ONGOING_FOREMAN,
    S_ONGOING_GUILD, S_TOKENS_TAKEN, S_WASTED_POOL, TK_COUNT, TK_GNOMES, TK_VP)
from sim.games.skrzaty.obs import (
    BARTER, CARD_W, F_AMOUNT, F_COLOUR, F_EFFECT, F_ID, F_LOC, F_OWNER, F_SPACES, F_VALUE, F_VP, LOC_CITY, LOC_HAND,
    LOC_MARKET, LOC_UNSEEN, MAX_CITY, MAX_HAND, MAX_MARKET, MAX_P, MAX_ROUNDS, MAX_ROW, OBS_FIXED, O_BEST_COLOUR,
    O_CARDS_AT, O_CITY, O_CITY_LEN, O_DEAL, O_EMPTY, O_END_TILE, O_FESTIVAL_MIN, O_FINAL_HIGHEST, O_FIRST_PLAYER,
    O_FIXED_FIRST, O_GNOMES, O_GNOME_POOL, O_HAND, O_HAND_KEEP, O_HAND_LEN, O_HAND_SIZES, O_KIND, O_MARKERS, O_MARKET,
    O_MARKET_EXTRA, O_MARKET_KEEP, O_MARKET_LEN, O_MARKET_RANKED, O_N_CARDS, O_N_KINDS, O_N_TYPES, O_ORDER,
    O_PLAYED_LEN, O_PLAYED_SEAT, O_PLAYERS, O_POOL, O_RESERVE, O_RETURNED, O_RETURNED_LEN, O_ROUND, O_ROUNDS,
    O_ROUND_TYPE, O_ROW_COLOUR, O_SEAT, O_TOKENS_AT, O_TURN_POS, O_TYPES_AT, PLACE, PLAY, SPACE_W, SP_BONUS, SP_GNOMES,
    SP_VP, SWAP_BASE, SWAP_SHIFT, TOKEN, TOKEN_W, T_GNOMES, T_HELD, T_SUPPLY, T_VP)
from sim.games.skrzaty.rules import E_FOREMAN, E_GUILD, ERR_ILLEGAL
from strategies.skrzaty import RANDOM


# ---------------------------------------------------------------------------------------------------- observation
@kernel_njit()
def init_static_obs(obs, rp, cards, spaces, end_tile, tokens, players):
    """The parts of the observation that no game changes: sizes, rules, the card, token and type tables."""
    n_cards, n_kinds, n_types = cards.shape[0], tokens.shape[0], spaces.shape[0]
    obs[:] = 0
    obs[O_PLAYERS] = players
    obs[O_ROUNDS] = rp[R_ROUNDS]
    obs[O_N_CARDS] = n_cards
    obs[O_N_KINDS] = n_kinds
    obs[O_N_TYPES] = n_types
    ca = OBS_FIXED
    ta = ca + n_cards * CARD_W
    tya = ta + n_kinds * TOKEN_W
    obs[O_CARDS_AT] = ca
    obs[O_TOKENS_AT] = ta
    obs[O_TYPES_AT] = tya
    obs[O_HAND_KEEP] = rp[R_HAND_KEEP]
    obs[O_DEAL] = rp[R_DEAL]
    obs[O_MARKET_EXTRA] = rp[R_MARKET_EXTRA]
    obs[O_FESTIVAL_MIN] = rp[R_FESTIVAL_MIN]
    obs[O_GNOME_POOL] = rp[R_GNOME_POOL]
    obs[O_MARKET_RANKED] = rp[R_MARKET_RANKED]
    obs[O_MARKET_KEEP] = rp[R_MARKET_KEEP]
    obs[O_FINAL_HIGHEST] = rp[R_FINAL_HIGHEST]
    obs[O_FIXED_FIRST] = rp[R_FIXED_FIRST]
    for k in range(players):
        for j in range(SPACE_W):
            obs[O_END_TILE + SPACE_W * k + j] = end_tile[k, j]
    for c in range(n_cards):
        base = ca + c * CARD_W
        obs[base + F_ID] = cards[c, C_ID]
        obs[base + F_COLOUR] = cards[c, C_COLOUR]
        obs[base + F_VALUE] = cards[c, C_VALUE]
        obs[base + F_SPACES] = cards[c, C_SPACES]
        obs[base + F_VP] = cards[c, C_VP]
        obs[base + F_EFFECT] = cards[c, C_EFFECT]
        obs[base + F_AMOUNT] = cards[c, C_AMOUNT]
    for k in range(n_kinds):
        obs[ta + k * TOKEN_W + T_GNOMES] = tokens[k, TK_GNOMES]
        obs[ta + k * TOKEN_W + T_VP] = tokens[k, TK_VP]
    for t in range(n_types):
        for k in range(MAX_P):
            for j in (SP_GNOMES, SP_VP, SP_BONUS):
                obs[tya + (t * MAX_P + k) * SPACE_W + j] = spaces[t, k, j]


@kernel_njit()
def _reset_obs(obs, rp, tokens, gnome_pool):
    """Every part a game changes, back to the start of a game (nothing stale from the previous game stays)."""
    obs[O_KIND] = 0
    obs[O_SEAT] = -1
    obs[O_ROUND] = 0
    obs[O_BEST_COLOUR] = -1
    obs[O_ROUND_TYPE] = -1
    obs[O_FIRST_PLAYER] = -1
    obs[O_TURN_POS] = -1
    obs[O_POOL] = gnome_pool
    obs[O_ROW_COLOUR:O_ROW_COLOUR + 2 * MAX_ROW] = -1  # row colours and types
    obs[O_ORDER:O_ORDER + MAX_P] = -1
    obs[O_MARKERS:O_MARKERS + MAX_ROUNDS * MAX_P + MAX_P] = -1  # round and End-tile markers
    obs[O_MARKET_LEN] = 0
    obs[O_MARKET:O_MARKET + MAX_MARKET] = -1
    obs[O_PLAYED_LEN] = 0
    obs[O_PLAYED_SEAT:O_PLAYED_SEAT + 2 * MAX_P] = -1  # played seats and cards
    obs[O_HAND_SIZES:O_HAND_SIZES + 6 * MAX_P] = 0  # hand sizes, reserves, VP, End-tile VP, empty, city lengths
    obs[O_CITY:O_CITY + MAX_P * MAX_CITY] = -1
    obs[O_GNOMES:O_GNOMES + MAX_P * MAX_CITY] = 0
    obs[O_HAND_LEN] = 0
    obs[O_HAND:O_HAND + MAX_HAND] = -1
    obs[O_RETURNED_LEN] = 0
    obs[O_RETURNED:O_RETURNED + MAX_HAND] = -1
    ca = obs[O_CARDS_AT]
    for c in range(obs[O_N_CARDS]):
        obs[ca + c * CARD_W + F_LOC] = LOC_UNSEEN
        obs[ca + c * CARD_W + F_OWNER] = -1
    ta = obs[O_TOKENS_AT]
    for k in range(obs[O_N_KINDS]):
        t = ta + k * TOKEN_W
        obs[t + T_SUPPLY] = tokens[k, TK_COUNT]  # SKRZATY-24
        obs[t + T_HELD:t + T_HELD + MAX_P] = 0


@kernel_njit(inline="always")
def _load_private(obs, hands, hand_len, returned, ret_len, seat):
    """The deciding seat's private information (SKRZATY-47): its own hand and its own returned cards. Nothing
    else hidden is ever written into the observation: the deck order and the other hands stay in their arrays."""
    n = hand_len[seat]
    obs[O_HAND_LEN] = n
    for i in range(MAX_HAND):
        obs[O_HAND + i] = hands[seat, i] if i < n else -1
    n = ret_len[seat]
    obs[O_RETURNED_LEN] = n
    for i in range(MAX_HAND):
        obs[O_RETURNED + i] = returned[seat, i] if i < n else -1


@kernel_njit(inline="always")
def set_loc(obs, c, loc, owner):
    """What the table knows of card c (LOC_*) and its owner seat (or -1)."""
    obs[obs[O_CARDS_AT] + c * CARD_W + F_LOC] = loc
    obs[obs[O_CARDS_AT] + c * CARD_W + F_OWNER] = owner


@kernel_njit(inline="always")
def ask(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, kind, seat):
    """A shipped heuristic's or a plug-in's action for `seat` (the kernel plays `random` itself)."""
    obs[O_KIND] = kind
    obs[O_SEAT] = seat
    tp = -1
    if obs[O_ROUND] > 0:
        for i in range(MAX_P):
            if obs[O_ORDER + i] == seat:
                tp = i
    obs[O_TURN_POS] = tp
    _load_private(obs, hands, hand_len, returned, ret_len, seat)
    sid = sids[seat]
    if sid > 0:
        return fns[0](sid, obs, sparams[seat], rng)
    for i in range(obs.shape[0]):  # a plug-in gets a copy: whatever it writes cannot touch the game (a loop, since
        uobs[i] = obs[i]           # a slice copy may allocate, and the game's code runs without numba's runtime)
    action = fns[1][seat](uobs, sparams[seat], rng)
    if fns[2].shape[0] > 0:
        record(fns[2], fns[3], EV_CHOICE, seat, kind, action, 0, 0, 0, 0)
    return action


@kernel_njit(inline="always")
def fail(seat_row, game_row, players):
    """A plug-in broke the rules: the game stops with error code 1 and no other result (as the reference)."""
    game_row[:] = 0
    seat_row[:players, :] = 0
    game_row[G_ERROR] = ERR_ILLEGAL


# ---------------------------------------------------------------------------------------------------- hands, Market
@kernel_njit(inline="always")
def insert_sorted(hands, hand_len, seat, c):
    """Hands ascend by card index (= by id), the canonical option order."""
    i = hand_len[seat]
    while i > 0 and hands[seat, i - 1] > c:
        hands[seat, i] = hands[seat, i - 1]
        i -= 1
    hands[seat, i] = c
    hand_len[seat] += 1


@kernel_njit(inline="always")
def hand_pos(hands, hand_len, seat, c):
    for i in range(hand_len[seat]):
        if hands[seat, i] == c:
            return i
    return -1


@kernel_njit(inline="always")
def remove_at(hands, hand_len, seat, j):
    n = hand_len[seat]
    for i in range(j, n - 1):
        hands[seat, i] = hands[seat, i + 1]
    hand_len[seat] = n - 1


@kernel_njit(inline="always")
def market_pos(obs, c):
    for i in range(obs[O_MARKET_LEN]):
        if obs[O_MARKET + i] == c:
            return i
    return -1


@kernel_njit(inline="always")
def choose_position(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, n_cards, kind, seat, n):
    """A D2 (PLAY: a hand card) or D6 (PICK: a Market card) choice as a position 0..n-1 in the hand or the Market:
    one option needs no draw, `random` draws it uniformly, anyone else names a card that must be there; -1 when
    it is not."""
    if n == 1:
        return 0
    if sids[seat] == RANDOM:
        return below(rng, n)
    a = ask(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, kind, seat)
    if a < 0 or a >= n_cards:
        return -1
    if kind == PLAY:
        return hand_pos(hands, hand_len, seat, a)
    return market_pos(obs, a)


# ---------------------------------------------------------------------------------------------------- gnomes
@kernel_njit(inline="always")
def gain_gnomes(obs, seat_row, game_row, seat, n):
    """SKRZATY-38: min(n, pool) gnomes move to the reserve; the shortfall is lost. Returns the number received."""
    pool = obs[O_POOL]
    got = n if n <= pool else pool
    obs[O_POOL] = pool - got
    obs[O_RESERVE + seat] += got
    seat_row[seat, S_GAINED] += got
    seat_row[seat, S_WASTED_POOL] += n - got
    if got > 0 and got == pool and game_row[G_POOL_EXHAUSTED] == 0:
        game_row[G_POOL_EXHAUSTED] = obs[O_ROUND]  # rounds+1 during the final ranking
    return got


@kernel_njit(inline="always")
def placement(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, slot, fore, guild,
              seat_row, seat, trace, trace_len):
    """SKRZATY-39 (D5): reserve gnomes go one at a time onto own cards with an empty space, until the reserve is
    empty or no space is; the rest wait."""
    base = seat * MAX_CITY
    sid = sids[seat]
    ok = True
    while obs[O_RESERVE + seat] > 0 and obs[O_EMPTY + seat] > 0:
        n_city = obs[O_CITY_LEN + seat]
        count = 0
        last = -1
        for i in range(n_city):
            if obs[O_GNOMES + base + i] < cards[obs[O_CITY + base + i], C_SPACES]:
                count += 1
                last = i
        if count == 1:
            i = last
        elif sid == RANDOM:  # rules §5 D5: uniform over own cards with an empty space, in city order
            j = below(rng, count)
            i = 0
            while True:
                if obs[O_GNOMES + base + i] < cards[obs[O_CITY + base + i], C_SPACES]:
                    if j == 0:
                        break
                    j -= 1
                i += 1
        else:
            a = ask(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, PLACE, seat)
            if a < 0 or a >= cards.shape[0] or obs[obs[O_CARDS_AT] + a * CARD_W + F_LOC] != LOC_CITY \
                    or obs[obs[O_CARDS_AT] + a * CARD_W + F_OWNER] != seat \
                    or obs[O_GNOMES + base + slot[a]] >= cards[a, C_SPACES]:
                ok = False
                break
            i = slot[a]
        c = obs[O_CITY + base + i]
        g = obs[O_GNOMES + base + i] + 1
        obs[O_GNOMES + base + i] = g
        obs[O_RESERVE + seat] -= 1
        obs[O_EMPTY + seat] -= 1
        if trace.shape[0] > 0:
            record(trace, trace_len, EV_PLACE, seat, cards[c, C_ID], g, cards[c, C_SPACES], 0, 0, 0)
        if g == cards[c, C_SPACES]:  # filled: SKRZATY-42, an Ongoing effect works from now on
            e = cards[c, C_EFFECT]
            if e == E_FOREMAN:
                fore[seat] += cards[c, C_AMOUNT]
                seat_row[seat, S_ONGOING_FOREMAN] += 1
            elif e == E_GUILD:
                guild[seat, cards[c, C_COLOUR]] += cards[c, C_AMOUNT]
                seat_row[seat, S_ONGOING_GUILD] += 1
    return ok


@kernel_njit(inline="always")
def take_token(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, seat_row, game_row, seat,
               trace, trace_len):
    """SKRZATY-41 (D4): a face-up token kind (its gnomes now, its VP at the end), or 1 gnome if none is face up."""
    ta = obs[O_TOKENS_AT]
    n_kinds = obs[O_N_KINDS]
    sid = sids[seat]
    count = 0
    last = -1
    for k in range(n_kinds):
        if obs[ta + k * TOKEN_W + T_SUPPLY] > 0:
            count += 1
            last = k
    ok = True
    if count == 0:
        seat_row[seat, S_FINDER_FALLBACKS] += 1
        got = gain_gnomes(obs, seat_row, game_row, seat, 1)
        if trace.shape[0] > 0:
            record(trace, trace_len, EV_TOKEN, seat, -1, got, 0, 0, 0, 0)
    else:
        if count == 1:
            k = last
        elif sid == RANDOM:  # rules §5 D4: uniform over the kinds face up, file order
            j = below(rng, count)
            k = 0
            while True:
                if obs[ta + k * TOKEN_W + T_SUPPLY] > 0:
                    if j == 0:
                        break
                    j -= 1
                k += 1
        else:
            k = ask(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, TOKEN, seat)
            if k < 0 or k >= n_kinds or obs[ta + k * TOKEN_W + T_SUPPLY] <= 0:
                ok = False
        if ok:
            t = ta + k * TOKEN_W
            obs[t + T_SUPPLY] -= 1
            obs[t + T_HELD + seat] += 1
            seat_row[seat, S_TOKENS_TAKEN] += 1
            got = gain_gnomes(obs, seat_row, game_row, seat, obs[t + T_GNOMES])
            if trace.shape[0] > 0:
                record(trace, trace_len, EV_TOKEN, seat, k, got, 0, 0, 0, 0)
    return ok


# ---------------------------------------------------------------------------------------------------- decisions
@kernel_njit()
def _binom(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@kernel_njit()
def random_keep_mask(rng, deal, keep):
    """Rules §5 D1: below(C(deal, keep)) indexes the keep-subsets in itertools.combinations order."""
    x = below(rng, _binom(deal, keep))
    mask = 0
    pos = 0
    for i in range(keep):
        while True:
            cnt = _binom(deal - pos - 1, keep - i - 1)
            if x < cnt:
                mask |= 1 << pos
                pos += 1
                break
            x -= cnt
            pos += 1
    return mask


@kernel_njit(inline="always")
def barter(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, cards, seat_row, seat, trace,
           trace_len):
    """SKRZATY-10 (D3): decline, or swap a hand card with a Market card (the hand card takes its position)."""
    sid = sids[seat]
    hl = hand_len[seat]
    m_len = obs[O_MARKET_LEN]
    n = 1 + hl * m_len
    h_pos, m_pos = -1, -1
    ok = True
    if n == 1:
        pass
    elif sid == RANDOM:  # decline first, then (hand card, Market card), hand card outer
        i = below(rng, n)
        if i > 0:
            i -= 1
            h_pos = 0
            while i >= m_len:
                i -= m_len
                h_pos += 1
            m_pos = i
    else:
        a = ask(obs, uobs, sids, sparams, fns, rng, hands, hand_len, returned, ret_len, BARTER, seat)
        if a != 0:
            h = (a >> SWAP_SHIFT) - 1
            m = a & (SWAP_BASE - 1)
            if a < SWAP_BASE or h >= cards.shape[0]:
                ok = False
            else:
                h_pos = hand_pos(hands, hand_len, seat, h)
                m_pos = market_pos(obs, m)
                if h_pos < 0 or m_pos < 0:
                    ok = False
                    h_pos = -1
    if not ok:
        return False
    if h_pos < 0:
        if trace.shape[0] > 0:
            record(trace, trace_len, EV_BARTER, seat, 0, 0, 0, 0, 0, 0)
    else:
        h = hands[seat, h_pos]
        m = obs[O_MARKET + m_pos]
        remove_at(hands, hand_len, seat, h_pos)
        insert_sorted(hands, hand_len, seat, m)
        obs[O_MARKET + m_pos] = h
        set_loc(obs, h, LOC_MARKET, -1)
        set_loc(obs, m, LOC_HAND, seat)
        seat_row[seat, S_BARTER_SWAPS] += 1
        if trace.shape[0] > 0:
            record(trace, trace_len, EV_BARTER, seat, cards[h, C_ID], cards[m, C_ID], 0, 0, 0, 0)
    return True
