"""Skrzaty heuristic players (docs/rules/skrzaty.md §9) and the observation they decide from.

This module is the plug-in contract for Skrzaty: a strategy is called as `choose(obs, params, rng) -> action` where
- `obs` is the int32 observation laid out below: public state plus the deciding player's own hand and returned
  cards, nothing hidden (SKRZATY-47); treat it as read-only;
- `params` is the seat's float64 parameter row (`StrategyInfo.params` order; plug-ins get their own `PARAMS`);
- `rng` is the game's stream (`sim.rng.below(rng, n)`), for strategies that randomise;
- the returned int64 `action` answers the decision named by `obs[O_KIND]` (encoding below). The kernel checks a
  plug-in's action and stops the game with error code 1 when it is illegal. A decision with exactly one legal
  option is taken without asking anyone.

Cards are named by their **card index** c = 0 .. n_cards−1: the row of the City-card table, which is in ascending
`id` order (the printed id is `card(obs, c, F_ID)`). Colours are 0..4 (blue, red, green, yellow, purple), effects
0..9 as in rules §1.1 (none, delivery, finder, barter, disguise, foreman, guild, quarter, crossroads, festival).
Seats are 0..P−1; "−1" pads unused slots.

Decision kinds (`obs[O_KIND]`) and actions:
  KEEP   1  D1, setup: keep `hand_keep` of the dealt cards (in O_HAND, ascending). Action: bitmask over positions of
            O_HAND (bit i = keep O_HAND[i]) with exactly `hand_keep` bits set.
  PLAY   2  D2: play a hand card. Action: its card index.
  BARTER 3  D3, after playing a `barter` card (it is already out of the hand): 0 = decline, or
            barter_action(h, m) = (h + 1) * SWAP_BASE + m to swap hand card h for Market card m.
  TOKEN  4  D4: take a Bonus token. Action: a token kind (0-based, file order) with supply > 0.
  PLACE  5  D5: place one reserve gnome. Action: the card index of an own city card with an empty space.
  PICK   6  D6, step 3: take a Market card. Action: its card index.

Observation layout, int32[OBS_FIXED + n_cards*CARD_W + n_kinds*TOKEN_W + n_types*MAX_P*3]:
  header: kind seat players round(0 = setup, 1..rounds, rounds+1 = end) rounds best_colour(−1 outside rounds)
          end_colour round_type(−1 outside rounds) first_player(−1 at setup) turn_pos(own; −1 at setup) pool
          deck_size n_cards n_kinds n_types cards_at tokens_at types_at
  rules:  hand_keep deal market_extra festival_min gnome_pool market_ranked market_keep final_highest fixed_first
  row_colour(MAX_ROW) row_type(MAX_ROW)   the Reward row R1..R(rounds+1); the last card gives the End colour
  end_tile(MAX_P × 3)                     gnomes, vp, bonus of End-tile ranks 1..P
  order(MAX_P)                            this round's turn order (seats)
  markers(MAX_ROUNDS × MAX_P)             seat on rank k of round r at O_MARKERS + (r−1)*MAX_P + (k−1); −1 free
  end_markers(MAX_P)                      seat on End-tile rank k; −1 free
  market_len market(MAX_MARKET)           Market cards by position
  played_len played_seat(MAX_P) played_card(MAX_P)   this round's plays, in play order
  hand_sizes(MAX_P) reserve(MAX_P) vp_rewards(MAX_P) vp_end_tile(MAX_P) empty(MAX_P: empty spaces per city)
  city_len(MAX_P) city(MAX_P × MAX_CITY) gnomes(MAX_P × MAX_CITY)   seat s's i-th card (play order) at
                                          O_CITY + s*MAX_CITY + i, its gnomes at O_GNOMES + s*MAX_CITY + i
  hand_len hand(MAX_HAND)                 own hand, ascending (KEEP: own dealt cards)   [private]
  returned_len returned(MAX_HAND)         own cards returned at setup, ascending      [private]
  cards (n_cards × CARD_W) at obs[O_CARDS_AT]: id colour value spaces vp effect amount loc owner, where loc is
          what the table knows: LOC_UNSEEN (deck or a hand, unseen), LOC_MARKET, LOC_CITY (owner's city),
          LOC_HAND (taken from the Market into owner's hand, publicly), LOC_DECK (went from the Market to the deck
          bottom and not seen since); owner is a seat or −1
  tokens (n_kinds × TOKEN_W) at obs[O_TOKENS_AT]: supply gnomes vp held(MAX_P)
  types (n_types × MAX_P × 3) at obs[O_TYPES_AT]: gnomes, vp, bonus of rank k of Reward type t for this P
"""
from sim.jit import kernel_njit

MAX_P, MAX_ROUNDS, MAX_HAND, MAX_MARKET = 5, 30, 10, 8
MAX_ROW, MAX_CITY = MAX_ROUNDS + 1, MAX_ROUNDS
KEEP, PLAY, BARTER, TOKEN, PLACE, PICK = 1, 2, 3, 4, 5, 6
SWAP_BASE = 1 << 16
LOC_UNSEEN, LOC_MARKET, LOC_CITY, LOC_HAND, LOC_DECK = 0, 1, 2, 3, 4
# Card-table fields; token-table fields.
F_ID, F_COLOUR, F_VALUE, F_SPACES, F_VP, F_EFFECT, F_AMOUNT, F_LOC, F_OWNER = range(9)
CARD_W = 9
T_SUPPLY, T_GNOMES, T_VP, T_HELD = 0, 1, 2, 3
TOKEN_W = T_HELD + MAX_P
# Effects (rules §1.1).
(E_NONE, E_DELIVERY, E_FINDER, E_BARTER, E_DISGUISE, E_FOREMAN, E_GUILD, E_QUARTER, E_CROSSROADS,
 E_FESTIVAL) = range(10)


def _layout():
    fields = [("KIND", 1), ("SEAT", 1), ("PLAYERS", 1), ("ROUND", 1), ("ROUNDS", 1), ("BEST_COLOUR", 1),
              ("END_COLOUR", 1), ("ROUND_TYPE", 1), ("FIRST_PLAYER", 1), ("TURN_POS", 1), ("POOL", 1),
              ("DECK_SIZE", 1), ("N_CARDS", 1), ("N_KINDS", 1), ("N_TYPES", 1), ("CARDS_AT", 1), ("TOKENS_AT", 1),
              ("TYPES_AT", 1), ("HAND_KEEP", 1), ("DEAL", 1), ("MARKET_EXTRA", 1), ("FESTIVAL_MIN", 1),
              ("GNOME_POOL", 1), ("MARKET_RANKED", 1), ("MARKET_KEEP", 1), ("FINAL_HIGHEST", 1), ("FIXED_FIRST", 1),
              ("ROW_COLOUR", MAX_ROW), ("ROW_TYPE", MAX_ROW), ("END_TILE", MAX_P * 3), ("ORDER", MAX_P),
              ("MARKERS", MAX_ROUNDS * MAX_P), ("END_MARKERS", MAX_P), ("MARKET_LEN", 1), ("MARKET", MAX_MARKET),
              ("PLAYED_LEN", 1), ("PLAYED_SEAT", MAX_P), ("PLAYED_CARD", MAX_P), ("HAND_SIZES", MAX_P),
              ("RESERVE", MAX_P), ("VP_REWARDS", MAX_P), ("VP_END_TILE", MAX_P), ("EMPTY", MAX_P),
              ("CITY_LEN", MAX_P), ("CITY", MAX_P * MAX_CITY), ("GNOMES", MAX_P * MAX_CITY), ("HAND_LEN", 1),
              ("HAND", MAX_HAND), ("RETURNED_LEN", 1), ("RETURNED", MAX_HAND)]
    out, at = {}, 0
    for name, size in fields:
        out[name] = at
        at += size
    out["FIXED"] = at
    return out


_L = _layout()
(O_KIND, O_SEAT, O_PLAYERS, O_ROUND, O_ROUNDS, O_BEST_COLOUR, O_END_COLOUR, O_ROUND_TYPE, O_FIRST_PLAYER, O_TURN_POS,
 O_POOL, O_DECK_SIZE, O_N_CARDS, O_N_KINDS, O_N_TYPES, O_CARDS_AT, O_TOKENS_AT, O_TYPES_AT, O_HAND_KEEP, O_DEAL,
 O_MARKET_EXTRA, O_FESTIVAL_MIN, O_GNOME_POOL, O_MARKET_RANKED, O_MARKET_KEEP, O_FINAL_HIGHEST, O_FIXED_FIRST,
 O_ROW_COLOUR, O_ROW_TYPE, O_END_TILE, O_ORDER, O_MARKERS, O_END_MARKERS, O_MARKET_LEN, O_MARKET, O_PLAYED_LEN,
 O_PLAYED_SEAT, O_PLAYED_CARD, O_HAND_SIZES, O_RESERVE, O_VP_REWARDS, O_VP_END_TILE, O_EMPTY, O_CITY_LEN, O_CITY,
 O_GNOMES, O_HAND_LEN, O_HAND, O_RETURNED_LEN, O_RETURNED, OBS_FIXED) = _L.values()


def obs_size(n_cards, n_kinds, n_types):
    return OBS_FIXED + n_cards * CARD_W + n_kinds * TOKEN_W + n_types * MAX_P * 3


# Strategy ids (StrategyInfo.sid in sim/games/skrzaty/rules.py) and `weighted`'s parameter columns.
RANDOM, BUILDER, ENDER, HIGH_ROLLER, WEIGHTED = 0, 1, 2, 3, 4
W_BEST, W_VALUE, W_BEATS, W_SPACES, W_YIELD, W_HOLD, W_VP, W_FILL = range(8)


# ---------------------------------------------------------------------------------------------------- helpers
@kernel_njit(inline="always")
def card(obs, c, f):
    """Field f (F_*) of card index c."""
    return obs[obs[O_CARDS_AT] + c * CARD_W + f]


@kernel_njit(inline="always")
def barter_action(h, m):
    """D3 action: swap own hand card h for Market card m."""
    return (h + 1) * SWAP_BASE + m


@kernel_njit(inline="always")
def gnome_yield(obs, c):
    """Y(c): `amount` for delivery, 1 for finder, 2 for foreman, else 0 (rules §9)."""
    e = card(obs, c, F_EFFECT)
    if e == E_DELIVERY:
        return card(obs, c, F_AMOUNT)
    if e == E_FINDER:
        return 1
    if e == E_FOREMAN:
        return 2
    return 0


@kernel_njit(inline="always")
def later_best(obs, c):
    """1 if c's colour is the best colour of a round after the current one (at setup: of any round)."""
    col = card(obs, c, F_COLOUR)
    for r in range(obs[O_ROUND], obs[O_ROUNDS]):
        if obs[O_ROW_COLOUR + r] == col:
            return 1
    return 0


@kernel_njit(inline="always")
def guild_bonus(obs, seat, colour):
    """The guild bonus `seat` would get now for a played card of this printed colour (its filled guilds)."""
    ca = obs[O_CARDS_AT]
    base = seat * MAX_CITY
    total = 0
    for i in range(obs[O_CITY_LEN + seat]):
        k = ca + obs[O_CITY + base + i] * CARD_W
        if obs[k + F_EFFECT] == E_GUILD and obs[k + F_COLOUR] == colour \
                and obs[O_GNOMES + base + i] == obs[k + F_SPACES]:
            total += obs[k + F_AMOUNT]
    return total


@kernel_njit(inline="always")
def in_best_group(obs, c):
    return card(obs, c, F_COLOUR) == obs[O_BEST_COLOUR] or card(obs, c, F_EFFECT) == E_DISGUISE


@kernel_njit(inline="always")
def ranking_value(obs, seat, c):
    return card(obs, c, F_VALUE) + guild_bonus(obs, seat, card(obs, c, F_COLOUR))


@kernel_njit(inline="always")
def is_end_colour(obs, c):
    return 1 if card(obs, c, F_COLOUR) == obs[O_END_COLOUR] else 0


# ---------------------------------------------------------------------------------------------------- shared policies
@kernel_njit()
def place_policy(obs):
    """D5: the own card with the fewest empty spaces (>= 1); ties: Ongoing effect, then higher vp, then lower id."""
    seat = obs[O_SEAT]
    base = seat * MAX_CITY
    best, be, bo, bv = -1, 0, 0, 0
    for i in range(obs[O_CITY_LEN + seat]):
        c = obs[O_CITY + base + i]
        e = card(obs, c, F_SPACES) - obs[O_GNOMES + base + i]
        if e <= 0:
            continue
        eff = card(obs, c, F_EFFECT)
        o = 0 if (eff == E_FOREMAN or eff == E_GUILD) else 1
        v = card(obs, c, F_VP)
        if best < 0 or e < be or (e == be and (o < bo or (o == bo and (v > bv or (v == bv and c < best))))):
            best, be, bo, bv = c, e, o, v
    return best


@kernel_njit()
def token_policy(obs):
    """D4: maximise vp + 2*min(gnomes, own empty spaces); ties: higher vp, then file order."""
    empty = obs[O_EMPTY + obs[O_SEAT]]
    ta = obs[O_TOKENS_AT]
    best, bs, bv = -1, 0, 0
    for k in range(obs[O_N_KINDS]):
        t = ta + k * TOKEN_W
        if obs[t + T_SUPPLY] <= 0:
            continue
        g = obs[t + T_GNOMES]
        v = obs[t + T_VP]
        s = v + 2 * (g if g < empty else empty)
        if best < 0 or s > bs or (s == bs and v > bv):
            best, bs, bv = k, s, v
    return best


@kernel_njit(inline="always")
def desirability(sid, obs, params, c):
    """K(c) of each named heuristic (rules §9), in the reference's operation order."""
    value = card(obs, c, F_VALUE)
    if sid == BUILDER:
        return 10 * card(obs, c, F_VP) / card(obs, c, F_SPACES) + 5 * gnome_yield(obs, c) + value / 10
    if sid == ENDER:
        return float(value + 30 * is_end_colour(obs, c))
    if sid == HIGH_ROLLER:
        return float(value + 10 * later_best(obs, c))
    return (params[W_BEST] * later_best(obs, c) + params[W_VALUE] * value / 20
            + params[W_SPACES] * card(obs, c, F_SPACES) + params[W_YIELD] * gnome_yield(obs, c)
            + params[W_HOLD] * is_end_colour(obs, c) + params[W_VP] * card(obs, c, F_VP) / 5)


@kernel_njit()
def keep_policy(sid, obs, params):
    """D1: keep the hand_keep highest-K dealt cards (ties: lower id). Returns the position bitmask."""
    n = obs[O_HAND_LEN]
    mask = 0
    for _ in range(obs[O_HAND_KEEP]):
        best, bk = -1, 0.0
        for i in range(n):  # positions ascend with the card index, so the first maximum has the lower id
            if (mask >> i) & 1 == 0:
                k = desirability(sid, obs, params, obs[O_HAND + i])
                if best < 0 or k > bk:
                    best, bk = i, k
        mask |= 1 << best
    return mask


@kernel_njit()
def pick_policy(sid, obs, params):
    """D6: the highest-K Market card; ties: lower id."""
    best, bk = -1, 0.0
    for i in range(obs[O_MARKET_LEN]):
        c = obs[O_MARKET + i]
        k = desirability(sid, obs, params, c)
        if best < 0 or k > bk or (k == bk and c < best):
            best, bk = c, k
    return best


@kernel_njit()
def barter_policy(sid, obs, params):
    """D3: swap the lowest-K hand card for the highest-K Market card if that K is strictly higher, else decline."""
    worst, wk = -1, 0.0
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        k = desirability(sid, obs, params, c)
        if worst < 0 or k < wk:  # ascending hand: the first minimum has the lower id
            worst, wk = c, k
    if worst < 0 or obs[O_MARKET_LEN] == 0:
        return 0
    top = pick_policy(sid, obs, params)
    if desirability(sid, obs, params, top) > wk:
        return barter_action(worst, top)
    return 0


# ---------------------------------------------------------------------------------------------------- D2 play rules
@kernel_njit()
def builder_play(obs, params):
    """t = reserve − empty spaces + 2; the card whose spaces − Y is closest to t; ties: higher vp, higher value."""
    seat = obs[O_SEAT]
    t = obs[O_RESERVE + seat] - obs[O_EMPTY + seat] + 2
    best, bd, bv, bval = -1, 0, 0, 0
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        d = abs(card(obs, c, F_SPACES) - gnome_yield(obs, c) - t)
        v = card(obs, c, F_VP)
        val = card(obs, c, F_VALUE)
        if best < 0 or d < bd or (d == bd and (v > bv or (v == bv and val > bval))):
            best, bd, bv, bval = c, d, v, val
    return best


@kernel_njit()
def ender_play(obs, params):
    """Never an End-colour card while holding another; the best-ranking non-End card if one reaches the best
    group, else the lowest-value one; with only End-colour cards, the lowest of them."""
    seat = obs[O_SEAT]
    low_any, low_any_v = -1, 0  # lowest of all (used when only End-colour cards are held)
    low, low_v = -1, 0  # lowest non-End
    top, top_rv = -1, 0  # best-ranking non-End in the best group
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        v = card(obs, c, F_VALUE)
        if low_any < 0 or v < low_any_v:
            low_any, low_any_v = c, v
        if is_end_colour(obs, c):
            continue
        if low < 0 or v < low_v:
            low, low_v = c, v
        if in_best_group(obs, c):
            rv = ranking_value(obs, seat, c)
            if top < 0 or rv > top_rv:
                top, top_rv = c, rv
    if low < 0:
        return low_any
    if top >= 0:
        return top
    return low


@kernel_njit()
def high_roller_play(obs, params):
    """The best ranking key if played now: best group (disguise counts), then ranking value (guild included)."""
    seat = obs[O_SEAT]
    best, bg, brv = -1, 0, 0
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        g = 0 if in_best_group(obs, c) else 1
        rv = ranking_value(obs, seat, c)
        if best < 0 or g < bg or (g == bg and rv > brv):
            best, bg, brv = c, g, rv
    return best


@kernel_njit()
def weighted_play(obs, params):
    """Maximise w_best*f_best + w_value*f_value + w_beats*f_beats + w_spaces*spaces + w_yield*Y − w_hold*f_end
    + w_vp*vp/5 + w_fill*f_fill (rules §9.5); ties: lower id. Same operation order as the reference."""
    seat = obs[O_SEAT]
    players = obs[O_PLAYERS]
    reserve = obs[O_RESERVE + seat]
    n_played = obs[O_PLAYED_LEN]
    best, bs = -1, 0.0
    for i in range(obs[O_HAND_LEN]):
        c = obs[O_HAND + i]
        g = 0 if in_best_group(obs, c) else 1
        rv = ranking_value(obs, seat, c)
        beats = 0
        for j in range(n_played):  # (g, −rv) strictly smaller; an equal key leaves the earlier player ahead
            s = obs[O_PLAYED_SEAT + j]
            if s != seat:
                p = obs[O_PLAYED_CARD + j]
                pg = 0 if in_best_group(obs, p) else 1
                if g < pg or (g == pg and rv > ranking_value(obs, s, p)):
                    beats += 1
        f_best = 1 if g == 0 else 0
        f_value = rv / 20
        f_beats = beats / (players - 1)
        spaces = card(obs, c, F_SPACES)
        f_fill = 1 if reserve >= spaces else 0
        sc = (params[W_BEST] * f_best + params[W_VALUE] * f_value + params[W_BEATS] * f_beats
              + params[W_SPACES] * spaces + params[W_YIELD] * gnome_yield(obs, c)
              - params[W_HOLD] * is_end_colour(obs, c) + params[W_VP] * card(obs, c, F_VP) / 5
              + params[W_FILL] * f_fill)
        if best < 0 or sc > bs:  # strict: ties keep the lower id (the hand ascends)
            best, bs = c, sc
    return best


# ---------------------------------------------------------------------------------------------------- dispatch
@kernel_njit()
def choose_builtin(sid, obs, params, rng):
    """Integer dispatch over the shipped heuristics (sid = StrategyInfo.sid; `random` is played by the kernel
    itself from the legal options, without an observation)."""
    kind = obs[O_KIND]
    if kind == PLAY:
        if sid == BUILDER:
            return builder_play(obs, params)
        if sid == ENDER:
            return ender_play(obs, params)
        if sid == HIGH_ROLLER:
            return high_roller_play(obs, params)
        return weighted_play(obs, params)
    if kind == PLACE:
        return place_policy(obs)
    if kind == TOKEN:
        return token_policy(obs)
    if kind == KEEP:
        return keep_policy(sid, obs, params)
    if kind == PICK:
        return pick_policy(sid, obs, params)
    return barter_policy(sid, obs, params)
