"""Skrzaty rules as njit code over flat integer arrays (docs/rules/skrzaty.md); mirrors reference.py draw for draw.

One compiled kernel serves every variant and every data file: the rules arrive as the int64 parameter vector `rp`
(layout `R_*`, the order of `rules.PARAMS`) and the data tables built by `kernel_data` in `__init__.py`:
  cards(N, 7)        id colour value spaces vp effect amount, one row per City card in ascending id order; a card is
                     named by its row ("card index") everywhere in the kernel and the observation
  rcards(nR, 3)      the Reward cards for P players in ascending card number: number colour type
  spaces(T, 5, 3)    gnomes vp bonus of rank k of Reward type t for P players
  end_tile(5, 3)     gnomes vp bonus of End-tile rank k for P players
  tokens(K, 3)       count gnomes vp of each Bonus-token kind, file order
The public state lives in the observation array itself (`strategies.skrzaty` documents its layout), so strategies
read it without copies; the hidden state (deck order, hands, returned cards) lives in separate arrays and only the
deciding seat's own hand and returned cards are copied into the observation (`_load_private`).
"""
import numpy as np
from numba import njit, prange, types

from sim.jit import kernel_njit
from sim.kernel_util import TRACE_WIDTH, USER_FNS_TYPE, record, set_ranks
from sim.rng import below, shuffle, stream_into
from sim.games.skrzaty.rules import ERR_ILLEGAL, GAME_COLUMNS, PARAMS, SEAT_COLUMNS
from sim.spec import GAME_BASE, SEAT_BASE
from strategies.skrzaty import (
    BARTER, CARD_W, E_BARTER, E_CROSSROADS, E_DELIVERY, E_DISGUISE, E_FESTIVAL, E_FINDER, E_FOREMAN, E_GUILD,
    E_QUARTER, F_AMOUNT, F_COLOUR, F_EFFECT, F_ID, F_LOC, F_OWNER, F_SPACES, F_VALUE, F_VP, KEEP, LOC_CITY, LOC_DECK,
    LOC_HAND, LOC_MARKET, LOC_UNSEEN, MAX_CITY, MAX_HAND, MAX_MARKET, MAX_P, MAX_ROUNDS, MAX_ROW, O_BEST_COLOUR,
    O_CARDS_AT, O_CITY, O_CITY_LEN, O_DEAL, O_DECK_SIZE, O_EMPTY, O_END_COLOUR, O_END_MARKERS, O_END_TILE,
    O_FESTIVAL_MIN, O_FINAL_HIGHEST, O_FIRST_PLAYER, O_FIXED_FIRST, O_GNOME_POOL, O_GNOMES, O_HAND, O_HAND_KEEP,
    O_HAND_LEN, O_HAND_SIZES, O_KIND, O_MARKERS, O_MARKET, O_MARKET_EXTRA, O_MARKET_KEEP, O_MARKET_LEN,
    O_MARKET_RANKED, O_N_CARDS, O_N_KINDS, O_N_TYPES, O_ORDER, O_PLAYED_CARD, O_PLAYED_LEN, O_PLAYED_SEAT, O_PLAYERS,
    O_POOL, O_RESERVE, O_RETURNED, O_RETURNED_LEN, O_ROUND, O_ROUND_TYPE, O_ROUNDS, O_ROW_COLOUR, O_ROW_TYPE, O_SEAT,
    O_TOKENS_AT, O_TURN_POS, O_TYPES_AT, O_VP_END_TILE, O_VP_REWARDS, OBS_FIXED, PICK, PLACE, PLAY, RANDOM, SWAP_BASE,
    T_GNOMES, T_HELD, T_SUPPLY, T_VP, TOKEN, TOKEN_W, choose_builtin)
from sim.games.skrzaty import rules
from sim.spec import SpecError

# Rule-parameter vector layout: the order of rules.PARAMS.
(R_ROUNDS, R_MARKET_EXTRA, R_DEAL, R_HAND_KEEP, R_GNOME_POOL, R_FESTIVAL_MIN, R_FIRST_PLAYER, R_MARKET_RANKED,
 R_MARKET_KEEP, R_FINAL_HIGHEST, R_FIXED_FIRST) = range(len(PARAMS))
assert [p.name for p in PARAMS][R_FIXED_FIRST] == "fixed_first"
# City-card table columns.
C_ID, C_COLOUR, C_VALUE, C_SPACES, C_VP, C_EFFECT, C_AMOUNT = range(7)

_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE = _SEAT["score"]
(S_VP_CARDS, S_VP_END_EFFECTS, S_VP_REWARDS, S_VP_END_TILE, S_VP_TOKENS, S_FILLED, S_UNFILLED, S_CARDS_PLAYED,
 S_CITY_SPACES) = (_SEAT[k] for k in ("vp_cards", "vp_end_effects", "vp_rewards", "vp_end_tile", "vp_tokens",
                                      "filled_cards", "unfilled_cards", "cards_played", "city_spaces"))
S_CARDS_COLOUR = _SEAT["cards_blue"]  # + colour
S_GAINED, S_PLACED, S_WASTED_POOL, S_WASTED_RESERVE = (
    _SEAT[k] for k in ("gnomes_gained", "gnomes_placed", "gnomes_wasted_pool", "gnomes_wasted_reserve"))
S_RANK_COUNT = _SEAT["rank_count_1"]  # + rank - 1
S_TOKENS_TAKEN, S_FINAL_RANK, S_END_SUM, S_END_CARDS = (
    _SEAT[k] for k in ("tokens_taken", "final_rank", "end_colour_sum", "end_colour_cards"))
S_INSTANT = _SEAT["instant_delivery"] - E_DELIVERY  # + effect code (1..4)
S_BARTER_SWAPS, S_FINDER_FALLBACKS, S_DISGUISE_CHANGED = (
    _SEAT[k] for k in ("barter_swaps", "finder_fallbacks", "disguise_changed"))
S_ONGOING_FOREMAN, S_ONGOING_GUILD, S_FOREMAN_GNOMES, S_GUILD_APPLIED = (
    _SEAT[k] for k in ("ongoing_filled_foreman", "ongoing_filled_guild", "foreman_gnomes", "guild_applied"))
S_EV_QUARTER, S_EV_CROSSROADS, S_EV_FESTIVAL = (
    _SEAT[k] for k in ("end_effect_vp_quarter", "end_effect_vp_crossroads", "end_effect_vp_festival"))
assert _SEAT["cards_purple"] == S_CARDS_COLOUR + 4 and _SEAT["rank_count_5"] == S_RANK_COUNT + 4
assert _SEAT["instant_disguise"] == S_INSTANT + E_DISGUISE
(G_ERROR, G_WINNER, G_FIRST_PLAYER, G_END_COLOUR, G_POOL_LEFT, G_TOKENS_LEFT, G_POOL_EXHAUSTED,
 G_ROUNDS_PLAYED) = (_GAME[k] for k in GAME_BASE + GAME_COLUMNS)

# Trace event kinds (docs/trace.md): each event is TRACE_WIDTH int32s, [kind, a, b, c, d, e, f, g].
EV_ROW = 1  # a=row position (1-based), b=Reward card number, c=colour, d=type
EV_KEEP = 2  # a=seat, b=card id, c=1 kept / 0 returned
EV_FIRST = 3  # a=first player
EV_ROUND = 4  # a=round, b=first seat, c=best colour, d=reward type, e=deck size after the Market
EV_MARKET = 5  # a=round, b=Market position, c=card id
EV_PLAY = 6  # a=seat, b=card id, c=colour, d=value, e=effect
EV_BARTER = 7  # a=seat, b=given hand card id (0 = declined), c=taken Market card id
EV_GAIN = 8  # a=seat, b=source (SRC_*), c=gnomes received, d=gnomes asked, e=foreman gnomes, f=vp, g=pool after
EV_TOKEN = 9  # a=seat, b=kind (-1 = none face up: 1 gnome instead), c=gnomes received
EV_PLACE = 10  # a=seat, b=card id, c=gnomes on it now, d=spaces
EV_RANK = 11  # a=round, b=rank, c=seat, d=ranking colour, e=ranking value, f=guild bonus
EV_PICK = 12  # a=seat, b=card id
EV_RECYCLE = 13  # a=card id, b=deck size after
EV_FINAL = 14  # a=final rank, b=seat, c=End-colour sum, d=End-colour cards, e=highest hand card
EV_SCORE = 15  # a=seat, b=score, c=rank, d=win60, e=filled cards, f=gnomes on cards
# Gain sources: rank k of a round = k; End-tile rank k = SRC_END + k.
SRC_DELIVERY, SRC_FINDER, SRC_END = 20, 21, 10

# Scratch row `gs` (per block): deck head and tail, then the round's ranking.
GS_HEAD, GS_TAIL = 0, 1
DECK_EXTRA = MAX_P * MAX_HAND + MAX_ROUNDS * MAX_MARKET  # appended to the deck bottom during a game, at most


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
        for j in range(3):
            obs[O_END_TILE + 3 * k + j] = end_tile[k, j]
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
        obs[ta + k * TOKEN_W + T_GNOMES] = tokens[k, 1]
        obs[ta + k * TOKEN_W + T_VP] = tokens[k, 2]
    for t in range(n_types):
        for k in range(MAX_P):
            for j in range(3):
                obs[tya + (t * MAX_P + k) * 3 + j] = spaces[t, k, j]


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
    obs[O_PLAYED_SEAT:O_PLAYED_SEAT + 2 * MAX_P] = -1
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
        obs[t + T_SUPPLY] = tokens[k, 0]  # SKRZATY-24
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
def _set_loc(obs, c, loc, owner):
    obs[obs[O_CARDS_AT] + c * CARD_W + F_LOC] = loc
    obs[obs[O_CARDS_AT] + c * CARD_W + F_OWNER] = owner


@kernel_njit(inline="always")
def _ask(obs, uobs, kind, seat, sid, sparams, users, rng, hands, hand_len, returned, ret_len):
    """A shipped heuristic's or a plug-in's action for `seat` (the kernel plays `random` itself). Inlined, like
    every step below: a call that passes arrays costs atomic reference counts, a measurable share of a game."""
    obs[O_KIND] = kind
    obs[O_SEAT] = seat
    tp = -1
    if obs[O_ROUND] > 0:
        for i in range(MAX_P):
            if obs[O_ORDER + i] == seat:
                tp = i
    obs[O_TURN_POS] = tp
    _load_private(obs, hands, hand_len, returned, ret_len, seat)
    if sid > 0:
        return choose_builtin(sid, obs, sparams[seat], rng)
    uobs[:] = obs  # a plug-in gets a copy: whatever it writes cannot touch the game
    return users[seat](uobs, sparams[seat], rng)


# ---------------------------------------------------------------------------------------------------- small steps
@kernel_njit(inline="always")
def _insert_sorted(hands, hand_len, seat, c):
    """Hands ascend by card index (= by id), the canonical option order."""
    i = hand_len[seat]
    while i > 0 and hands[seat, i - 1] > c:
        hands[seat, i] = hands[seat, i - 1]
        i -= 1
    hands[seat, i] = c
    hand_len[seat] += 1


@kernel_njit(inline="always")
def _hand_pos(hands, hand_len, seat, c):
    for i in range(hand_len[seat]):
        if hands[seat, i] == c:
            return i
    return -1


@kernel_njit(inline="always")
def _remove_at(hands, hand_len, seat, j):
    n = hand_len[seat]
    for i in range(j, n - 1):
        hands[seat, i] = hands[seat, i + 1]
    hand_len[seat] = n - 1


@kernel_njit(inline="always")
def _market_pos(obs, c):
    for i in range(obs[O_MARKET_LEN]):
        if obs[O_MARKET + i] == c:
            return i
    return -1


@kernel_njit(inline="always")
def _gain(obs, seat_row, game_row, seat, n):
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
def _fail(seat_row, game_row, players):
    """A plug-in broke the rules: the game stops with error code 1 and no other result (as the reference)."""
    game_row[:] = 0
    seat_row[:players, :] = 0
    game_row[G_ERROR] = ERR_ILLEGAL


@kernel_njit(inline="always")
def _placement(obs, uobs, cards, seat_row, sids, sparams, users, rng, hands, hand_len, returned, ret_len, slot,
               fore, guild, seat, trace, trace_len):
    """SKRZATY-39 (D5): reserve gnomes go one at a time onto own cards with an empty space, until the reserve is
    empty or no space is; the rest wait. Returns False when a plug-in chose an illegal card."""
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
            a = _ask(obs, uobs, PLACE, seat, sid, sparams, users, rng, hands, hand_len, returned, ret_len)
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
def _take_token(obs, uobs, seat_row, game_row, sids, sparams, users, rng, hands, hand_len, returned, ret_len, seat,
                trace, trace_len):
    """SKRZATY-41 (D4): a face-up token kind (its gnomes now, its VP at the end), or 1 gnome if none is face up.
    Returns False when a plug-in chose an illegal kind."""
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
        got = _gain(obs, seat_row, game_row, seat, 1)
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
            k = _ask(obs, uobs, TOKEN, seat, sid, sparams, users, rng, hands, hand_len, returned, ret_len)
            if k < 0 or k >= n_kinds or obs[ta + k * TOKEN_W + T_SUPPLY] <= 0:
                ok = False
        if ok:
            t = ta + k * TOKEN_W
            obs[t + T_SUPPLY] -= 1
            obs[t + T_HELD + seat] += 1
            seat_row[seat, S_TOKENS_TAKEN] += 1
            got = _gain(obs, seat_row, game_row, seat, obs[t + T_GNOMES])
            if trace.shape[0] > 0:
                record(trace, trace_len, EV_TOKEN, seat, k, got, 0, 0, 0, 0)
    return ok


@kernel_njit()
def _binom(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@kernel_njit()
def _random_keep_mask(rng, deal, keep):
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
def _barter(obs, uobs, cards, seat_row, sids, sparams, users, rng, hands, hand_len, returned, ret_len, seat, trace,
            trace_len):
    """SKRZATY-10 (D3): decline, or swap a hand card with a Market card (the hand card takes its position).
    Returns False when a plug-in chose an illegal swap."""
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
        a = _ask(obs, uobs, BARTER, seat, sid, sparams, users, rng, hands, hand_len, returned, ret_len)
        if a != 0:
            h = (a >> 16) - 1
            m = a & (SWAP_BASE - 1)
            if a < SWAP_BASE or h >= cards.shape[0]:
                ok = False
            else:
                h_pos = _hand_pos(hands, hand_len, seat, h)
                m_pos = _market_pos(obs, m)
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
        _remove_at(hands, hand_len, seat, h_pos)
        _insert_sorted(hands, hand_len, seat, m)
        obs[O_MARKET + m_pos] = h
        _set_loc(obs, h, LOC_MARKET, -1)
        _set_loc(obs, m, LOC_HAND, seat)
        seat_row[seat, S_BARTER_SWAPS] += 1
        if trace.shape[0] > 0:
            record(trace, trace_len, EV_BARTER, seat, cards[h, C_ID], cards[m, C_ID], 0, 0, 0, 0)
    return True


# ---------------------------------------------------------------------------------------------------- one game
@kernel_njit()
def play_game(rp, cards, rcards, spaces, end_tile, tokens, players, sids, sparams, users, seed, game_index,
              seat_row, game_row, obs, uobs, deck, hands, hand_len, returned, ret_len, slot, fore, guild, row,
              turn_pos, ranking, gs, rng, trace, trace_len):
    """One game, SKRZATY-22..46. Writes seat_row(players, seat columns) and game_row(game columns). Scratch (per
    block): obs/uobs(obs size; obs's static part set by init_static_obs) deck(N + DECK_EXTRA: a queue) hands(5,
    MAX_HAND+2) hand_len(5) returned(5, MAX_HAND) ret_len(5) slot(N: city position of a card) fore(5: filled
    foreman amounts) guild(5, 5: filled guild amounts by colour) row(nR) turn_pos(5) ranking(5) gs(2+4*5: ranking
    keys, then score keys) rng(1); `sparams` is the block's own copy; `trace` has 0 rows unless a trace
    is wanted."""
    stream_into(rng, seed, game_index)
    tracing = trace.shape[0] > 0
    n_cards = cards.shape[0]
    rounds = rp[R_ROUNDS]
    deal = rp[R_DEAL]
    keep = rp[R_HAND_KEEP]
    market_size = players + rp[R_MARKET_EXTRA]
    market_keep = rp[R_MARKET_KEEP] == 1
    final_highest = rp[R_FINAL_HIGHEST] == 1
    seat_row[:players, :] = 0
    game_row[:] = 0
    _reset_obs(obs, rp, tokens, rp[R_GNOME_POOL])
    for s in range(players):
        hand_len[s] = 0
        ret_len[s] = 0
        fore[s] = 0
        for col in range(5):
            guild[s, col] = 0

    # SKRZATY-22/23: shuffle the Reward cards for P; R1..R(rounds+1) face up; the last gives the End colour.
    n_r = rcards.shape[0]
    for i in range(n_r):
        row[i] = i
    shuffle(rng, row, n_r)
    for i in range(rounds + 1):
        obs[O_ROW_COLOUR + i] = rcards[row[i], 1]
        obs[O_ROW_TYPE + i] = rcards[row[i], 2]
        if tracing:
            record(trace, trace_len, EV_ROW, i + 1, rcards[row[i], 0], rcards[row[i], 1], rcards[row[i], 2], 0, 0, 0)
    end_colour = rcards[row[rounds], 1]
    obs[O_END_COLOUR] = end_colour

    # SKRZATY-25: shuffle the City cards (ascending id) into the deck, top first.
    for c in range(n_cards):
        deck[c] = c
    shuffle(rng, deck, n_cards)
    head = 0
    tail = n_cards

    # SKRZATY-26: deal `deal` cards to each seat from seat 0; D1 keep choices, all simultaneous.
    for s in range(players):
        for i in range(deal):
            _insert_sorted(hands, hand_len, s, deck[head])
            head += 1
        obs[O_HAND_SIZES + s] = deal
    obs[O_DECK_SIZE] = tail - head
    for s in range(players):
        sid = sids[s]
        if deal == keep:
            mask = (1 << deal) - 1
        elif sid == RANDOM:
            mask = _random_keep_mask(rng, deal, keep)
        else:
            mask = _ask(obs, uobs, KEEP, s, sid, sparams, users, rng, hands, hand_len, returned, ret_len)
            bits = 0
            for i in range(deal):
                bits += (mask >> i) & 1
            if mask < 0 or mask >= (1 << deal) or bits != keep:
                _fail(seat_row, game_row, players)
                return
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
            if tracing:
                record(trace, trace_len, EV_KEEP, s, cards[c, C_ID], (mask >> i) & 1, 0, 0, 0, 0)
        hand_len[s] = n
    for s in range(players):  # to the bottom, seat 0's first, each in ascending id
        for i in range(ret_len[s]):
            deck[tail] = returned[s, i]
            tail += 1
        obs[O_HAND_SIZES + s] = keep
    obs[O_DECK_SIZE] = tail - head

    # SKRZATY-28: the first player.
    first = below(rng, players) if rp[R_FIRST_PLAYER] < 0 else rp[R_FIRST_PLAYER]
    game_row[G_FIRST_PLAYER] = first
    obs[O_FIRST_PLAYER] = first
    if tracing:
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
            # SKRZATY-31: the Market (market-keep: refill only).
            m_len = obs[O_MARKET_LEN]
            while m_len < market_size:
                c = deck[head]
                head += 1
                obs[O_MARKET + m_len] = c
                _set_loc(obs, c, LOC_MARKET, -1)
                m_len += 1
            obs[O_MARKET_LEN] = m_len
            obs[O_DECK_SIZE] = tail - head
            if tracing:
                record(trace, trace_len, EV_ROUND, r, first, best, rtype, tail - head, 0, 0)
                for i in range(m_len):
                    record(trace, trace_len, EV_MARKET, r, i + 1, cards[obs[O_MARKET + i], C_ID], 0, 0, 0, 0)

            # SKRZATY-32: each seat plays one card in turn order; Instant effects; then a placement.
            for pos in range(players):
                seat = obs[O_ORDER + pos]
                sid = sids[seat]
                hl = hand_len[seat]
                if hl == 1:
                    j = 0
                elif sid == RANDOM:
                    j = below(rng, hl)
                else:
                    a = _ask(obs, uobs, PLAY, seat, sid, sparams, users, rng, hands, hand_len, returned, ret_len)
                    j = _hand_pos(hands, hand_len, seat, a) if 0 <= a < n_cards else -1
                    if j < 0:
                        _fail(seat_row, game_row, players)
                        return
                c = hands[seat, j]
                _remove_at(hands, hand_len, seat, j)
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
                _set_loc(obs, c, LOC_CITY, seat)
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
                        got = _gain(obs, seat_row, game_row, seat, gn)
                        if tracing:
                            record(trace, trace_len, EV_GAIN, seat, SRC_DELIVERY if e == E_DELIVERY else SRC_FINDER,
                                   got, gn, 0, 0, obs[O_POOL])
                        if e == E_FINDER:  # `amount` tokens one at a time
                            for _ in range(amount):
                                if ok:
                                    ok = _take_token(obs, uobs, seat_row, game_row, sids, sparams, users, rng,
                                                     hands, hand_len, returned, ret_len, seat, trace, trace_len)
                    elif e == E_BARTER:  # SKRZATY-10
                        ok = _barter(obs, uobs, cards, seat_row, sids, sparams, users, rng, hands, hand_len,
                                     returned, ret_len, seat, trace, trace_len)
                    elif best != colour:  # SKRZATY-11: disguise, applied in the ranking
                        seat_row[seat, S_DISGUISE_CHANGED] += 1
                # SKRZATY-39: a placement window after every play.
                if ok:
                    ok = _placement(obs, uobs, cards, seat_row, sids, sparams, users, rng, hands, hand_len,
                                    returned, ret_len, slot, fore, guild, seat, trace, trace_len)
                if not ok:
                    _fail(seat_row, game_row, players)
                    return

            # SKRZATY-33: rank by (0 if best colour else 1, −ranking value, turn position); insertion sort.
            for pos in range(players):
                seat = obs[O_PLAYED_SEAT + pos]
                c = obs[O_PLAYED_CARD + pos]
                bonus = guild[seat, cards[c, C_COLOUR]]  # SKRZATY-13: by the printed colour
                if bonus > 0:
                    seat_row[seat, S_GUILD_APPLIED] += 1
                g = 0 if (cards[c, C_EFFECT] == E_DISGUISE or cards[c, C_COLOUR] == best) else 1  # SKRZATY-11
                v = cards[c, C_VALUE] + bonus
                gs[2 + seat] = g
                gs[7 + seat] = v
                j = pos
                while j > 0:
                    o = ranking[j - 1]
                    if gs[2 + o] < g or (gs[2 + o] == g and gs[7 + o] >= v):  # earlier turn stays ahead on ties
                        break
                    ranking[j] = o
                    j -= 1
                ranking[j] = seat
            if tracing:
                for k in range(players):
                    seat = ranking[k]
                    c = obs[O_PLAYED_CARD + turn_pos[seat]]
                    rc = best if cards[c, C_EFFECT] == E_DISGUISE else cards[c, C_COLOUR]
                    record(trace, trace_len, EV_RANK, r, k + 1, seat, rc, gs[7 + seat], gs[7 + seat] -
                           cards[c, C_VALUE], 0)
        else:
            # SKRZATY-43: the final ranking on the hands; the last round's turn positions break ties.
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
                    if gs[2 + o] < g or (gs[2 + o] == g and (gs[7 + o] > p1 or (gs[7 + o] == p1
                                                                                 and gs[12 + o] >= p2))):
                        break
                    ranking[j] = o
                    j -= 1
                ranking[j] = seat
                gs[2 + seat] = g
                gs[7 + seat] = p1
                gs[12 + seat] = p2
                gs[17 + seat] = top
            for k in range(players):
                seat = ranking[k]
                seat_row[seat, S_FINAL_RANK] = k + 1
                if tracing:
                    record(trace, trace_len, EV_FINAL, k + 1, seat, seat_row[seat, S_END_SUM],
                           seat_row[seat, S_END_CARDS], gs[17 + seat], 0, 0)
            game_row[G_WINNER] = ranking[0]

        # SKRZATY-34/40 (rounds) and SKRZATY-44 (End tile, no foreman extras): markers top to bottom and their
        # rewards. A gain event: (1) gnomes, (2) foreman extras counted when the marker is placed, (3) VP,
        # (4) Bonus tokens one at a time, (5) one placement.
        for k in range(players):
            seat = ranking[k]
            if final:
                obs[O_END_MARKERS + k] = seat
                gn, vp, bonus, foreman, src = end_tile[k, 0], end_tile[k, 1], end_tile[k, 2], 0, SRC_END + k + 1
            else:
                obs[O_MARKERS + (r - 1) * MAX_P + k] = seat
                seat_row[seat, S_RANK_COUNT + k] += 1
                gn, vp, bonus, foreman, src = spaces[rtype, k, 0], spaces[rtype, k, 1], spaces[rtype, k, 2], \
                    fore[seat], k + 1
            got = _gain(obs, seat_row, game_row, seat, gn)
            fgot = 0
            if foreman > 0:
                fgot = _gain(obs, seat_row, game_row, seat, foreman)
                seat_row[seat, S_FOREMAN_GNOMES] += fgot
            if final:
                obs[O_VP_END_TILE + seat] += vp
            else:
                obs[O_VP_REWARDS + seat] += vp
            if tracing:
                record(trace, trace_len, EV_GAIN, seat, src, got, gn, fgot, vp, obs[O_POOL])
            ok = True
            for _ in range(bonus):
                if ok:
                    ok = _take_token(obs, uobs, seat_row, game_row, sids, sparams, users, rng, hands, hand_len,
                                     returned, ret_len, seat, trace, trace_len)
            if ok:
                ok = _placement(obs, uobs, cards, seat_row, sids, sparams, users, rng, hands, hand_len, returned,
                                ret_len, slot, fore, guild, seat, trace, trace_len)
            if not ok:
                _fail(seat_row, game_row, players)
                return
        if final:
            break

        # SKRZATY-35/36 (D6): one Market card each, last place first (market-ranked: first place first).
        for k in range(players):
            seat = ranking[k] if rp[R_MARKET_RANKED] == 1 else ranking[players - 1 - k]
            sid = sids[seat]
            m_len = obs[O_MARKET_LEN]
            if m_len == 1:
                j = 0
            elif sid == RANDOM:
                j = below(rng, m_len)
            else:
                a = _ask(obs, uobs, PICK, seat, sid, sparams, users, rng, hands, hand_len, returned, ret_len)
                j = _market_pos(obs, a) if 0 <= a < n_cards else -1
                if j < 0:
                    _fail(seat_row, game_row, players)
                    return
            c = obs[O_MARKET + j]
            for i in range(j, m_len - 1):
                obs[O_MARKET + i] = obs[O_MARKET + i + 1]
            obs[O_MARKET + m_len - 1] = -1
            obs[O_MARKET_LEN] = m_len - 1
            _insert_sorted(hands, hand_len, seat, c)
            obs[O_HAND_SIZES + seat] += 1
            _set_loc(obs, c, LOC_HAND, seat)
            if tracing:
                record(trace, trace_len, EV_PICK, seat, cards[c, C_ID], 0, 0, 0, 0, 0)
        if not market_keep:  # SKRZATY-35: the leftovers to the bottom in Market-position order
            for i in range(obs[O_MARKET_LEN]):
                c = obs[O_MARKET + i]
                deck[tail] = c
                tail += 1
                _set_loc(obs, c, LOC_DECK, -1)
                obs[O_MARKET + i] = -1
                if tracing:
                    record(trace, trace_len, EV_RECYCLE, cards[c, C_ID], tail - head, 0, 0, 0, 0, 0)
            obs[O_MARKET_LEN] = 0
            obs[O_DECK_SIZE] = tail - head
        if rp[R_FIXED_FIRST] == 0:  # SKRZATY-30: the first player passes clockwise
            first += 1
            if first == players:
                first = 0

    # SKRZATY-45/46: scores and ranks.
    ta = obs[O_TOKENS_AT]
    n_kinds = obs[O_N_KINDS]
    festival_min = rp[R_FESTIVAL_MIN]
    for seat in range(players):
        base = seat * MAX_CITY
        n_city = obs[O_CITY_LEN + seat]
        for col in range(5):
            guild[seat, col] = 0  # reused as the count of filled cards by colour: the game is over
        filled, vp_cards, on_cards = 0, 0, 0
        for i in range(n_city):
            c = obs[O_CITY + base + i]
            gn = obs[O_GNOMES + base + i]
            on_cards += gn
            if gn == cards[c, C_SPACES]:
                filled += 1
                vp_cards += cards[c, C_VP]
                guild[seat, cards[c, C_COLOUR]] += 1
        distinct = 0
        for col in range(5):
            if guild[seat, col] > 0:
                distinct += 1
        q, x, f = 0, 0, 0
        for i in range(n_city):
            c = obs[O_CITY + base + i]
            if obs[O_GNOMES + base + i] == cards[c, C_SPACES]:
                e = cards[c, C_EFFECT]
                if e == E_QUARTER:  # SKRZATY-14
                    q += cards[c, C_AMOUNT] * guild[seat, cards[c, C_COLOUR]]
                elif e == E_CROSSROADS:  # SKRZATY-15
                    x += cards[c, C_AMOUNT] * distinct
                elif e == E_FESTIVAL and guild[seat, cards[c, C_COLOUR]] >= festival_min:  # SKRZATY-16
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
        score = vp_cards + q + x + f + obs[O_VP_REWARDS + seat] + obs[O_VP_END_TILE + seat] + vp_tokens
        seat_row[seat, S_SCORE] = score
        gs[2 + seat] = (score << 40) + (filled << 20) + on_cards  # SKRZATY-46: score, filled cards, gnomes
    set_ranks(seat_row, players, gs[2:2 + MAX_P])
    tokens_left = 0
    for k in range(n_kinds):
        tokens_left += obs[ta + k * TOKEN_W + T_SUPPLY]
    game_row[G_END_COLOUR] = end_colour
    game_row[G_POOL_LEFT] = obs[O_POOL]
    game_row[G_TOKENS_LEFT] = tokens_left
    game_row[G_ROUNDS_PLAYED] = rounds
    if tracing:
        for seat in range(players):
            record(trace, trace_len, EV_SCORE, seat, seat_row[seat, S_SCORE], seat_row[seat, 1], seat_row[seat, 2],
                   seat_row[seat, S_FILLED], seat_row[seat, S_PLACED], 0)


@kernel_njit()
def _scratch(rp, cards, rcards, spaces, end_tile, tokens, players, sids, sparams):
    """Per-thread working arrays for play_game (see its docstring), then the block's own copies of `cards`, `sids`
    and `sparams`: the hot loops touch their reference counts, and a count shared by two threads is a contended
    cache line."""
    n_cards, n_kinds, n_types = cards.shape[0], tokens.shape[0], spaces.shape[0]
    size = OBS_FIXED + n_cards * CARD_W + n_kinds * TOKEN_W + n_types * MAX_P * 3
    obs = np.zeros(size, np.int32)
    init_static_obs(obs, rp, cards, spaces, end_tile, tokens, players)
    return (obs, np.zeros(size, np.int32), np.zeros(n_cards + DECK_EXTRA, np.int64),
            np.zeros((MAX_P, MAX_HAND + 2), np.int64), np.zeros(MAX_P, np.int64),
            np.zeros((MAX_P, MAX_HAND), np.int64),
            np.zeros(MAX_P, np.int64), np.zeros(n_cards, np.int64), np.zeros(MAX_P, np.int64),
            np.zeros((MAX_P, 5), np.int64), np.zeros(max(rcards.shape[0], 1), np.int64), np.zeros(MAX_P, np.int64),
            np.zeros(MAX_P, np.int64), np.zeros(2 + 4 * MAX_P, np.int64), np.zeros(1, np.uint64),
            cards.copy(), sids.copy(), sparams.copy())


_CHUNK_SIGNATURE = types.void(
    types.int64[::1], types.int64[:, ::1], types.int64[:, ::1], types.int64[:, :, ::1], types.int64[:, ::1],
    types.int64[:, ::1], types.int64, types.int64[::1], types.float64[:, ::1], USER_FNS_TYPE, types.int64,
    types.int64, types.int64, types.int32[:, :, ::1], types.int32[:, ::1])


@njit(_CHUNK_SIGNATURE, cache=True, parallel=True)
def run_chunk(rp, cards, rcards, spaces, end_tile, tokens, players, sids, sparams, users, seed, start, count,
              seat_out, game_out):
    """Games start .. start+count−1 into seat_out(count, players, seat columns) and game_out(count, game columns).
    Blocks of games share scratch arrays; every game draws from its own stream, so blocking never changes results."""
    blocks = min(count, 256)
    for b in prange(blocks):
        (obs, uobs, deck, hands, hand_len, returned, ret_len, slot, fore, guild, row, turn_pos, ranking, gs,
         rng, cd, sd, sp) = _scratch(rp, cards, rcards, spaces, end_tile, tokens, players, sids, sparams)
        no_trace = np.zeros((0, TRACE_WIDTH), np.int32)
        trace_len = np.zeros(1, np.int64)
        for i in range(count * b // blocks, count * (b + 1) // blocks):
            play_game(rp, cd, rcards, spaces, end_tile, tokens, players, sd, sp, users, seed, start + i,
                      seat_out[i], game_out[i], obs, uobs, deck, hands, hand_len, returned, ret_len, slot, fore, guild,
                      row, turn_pos, ranking, gs, rng, no_trace, trace_len)


@kernel_njit()
def trace_one(rp, cards, rcards, spaces, end_tile, tokens, players, sids, sparams, users, seed, game_index, seat_row,
              game_row, trace, trace_len):
    """One game with its event log (for `sim trace`)."""
    (obs, uobs, deck, hands, hand_len, returned, ret_len, slot, fore, guild, row, turn_pos, ranking, gs,
     rng, cd, sd, sp) = _scratch(rp, cards, rcards, spaces, end_tile, tokens, players, sids, sparams)
    play_game(rp, cd, rcards, spaces, end_tile, tokens, players, sd, sp, users, seed, game_index, seat_row,
              game_row, obs, uobs, deck, hands, hand_len, returned, ret_len, slot, fore, guild, row, turn_pos,
              ranking, gs, rng, trace, trace_len)


def kernel_data(params, players, data=None):
    """The kernel's typed arrays: (rp, cards, rcards, spaces, end_tile, tokens), see kernel.py's docstring.

    `data` is what `rules.load_data(paths)` returns (a `rules.SkrzatyData`), a dict of data-file paths for it, or
    None for the shipped default tables. The configuration is validated against the tables (SKRZATY-27 etc.)."""
    if data is None:
        data = rules.default_data()
    elif isinstance(data, dict):
        data = rules.load_data(data)
    full = dict(rules.DEFAULT_PARAMS)
    full.update(params)
    rules.validate(full, players, data)
    c = data.cards
    if len(c.ids) >= SWAP_BASE:
        raise SpecError(f"{c.path}: {len(c.ids)} City cards; the kernel accepts at most {SWAP_BASE - 1}")
    rp = np.array([full[p.name] for p in rules.PARAMS], np.int64)
    cards = np.array(list(zip(c.ids, c.colour, c.value, c.spaces, c.vp, c.effect, c.amount)),
                     np.int64).reshape(-1, 7)
    rcards = np.array(rules.reward_cards_for(data, players), np.int64).reshape(-1, 3)
    spaces = np.zeros((max(len(data.reward_spaces.types), 1), MAX_P, 3), np.int64)
    for t, rows in rules.reward_spaces_for(data, players).items():
        spaces[t, :players] = rows
    end_tile = np.zeros((MAX_P, 3), np.int64)
    end_tile[:players] = rules.end_tile_for(data, players)
    tk = data.tokens
    tokens = np.array(list(zip(tk.count, tk.gnomes, tk.vp)), np.int64).reshape(-1, 3)
    return rp, cards, rcards, spaces, end_tile, tokens

