"""Kruki / Odin's Ravens: the observation a strategy decides from, the decision kinds and the action encoding
(docs/rules/kruki-wyscig.md §5, docs/games/kruki-wyscig.md "Plug-in strategies"). The track model that reads the
observation is `model.py`; plain rule constants (lands, action kinds, options, track record codes) are in `rules.py`.

Plug-in contract (docs/plugins.md): a strategy is called as `choose(obs, params, rng) -> action` where
- `obs` is the int32 observation below: public state plus the deciding player's own hand and own pile contents
  (rules §5), never the other hand, a pile's order or the land stack's order;
- `params` is the seat's float64 parameter row (`StrategyInfo.params` order; plug-ins get their own `PARAMS`);
- `rng` is the game's stream (`sim.rng.below(rng, n)`), for strategies that randomise;
- `obs[O_DECISION]` says which decision is asked (DEC_*); the action encoding depends on it (below).

Observation layout, int32[OBS_SIZE] (offsets are the O_* constants; "(k)" = k entries):
  header: decision(1) seat(1) start_player(1) turn(1: turns played so far) final_turn(1: 1 in O's last turn)
    stack_size(1: land stack) detour_card(1: card drawn for DEC_PLACE, else -1) mix_k(1: cards to draw, DEC_MIX)
    n_cols(1: track_cards n) n_cards(1: land cards N) n_fields(1: records F) f_used(1: next free loop record)
    loop_cards(1) pos(2: raven field per seat) done(2) turn_flights(1) turn_jokers(1)
    rules(14: the rule vector in rules.PARAMS order, R_* below)
    hand(10: own flight cards per land (6), then own action cards per kind K1..K4 (4))
    hand_size(2) fpile_size(2) apile_size(2) disc(2x6: flight discards per seat per land, public)
    own_fpile(6: own flight pile contents per land) own_apile(4: own action pile contents per kind)
    actions_log(2x8: action options played so far per seat) turn_opts(8: options played this turn)
  track (RACE-11; records f < n_fields, columns j = 1..n at index j-1, cards c < n_cards):
    f_kind(MAX_F) f_card(MAX_F) f_land(MAX_F) f_gap(MAX_F) f_lane(MAX_F) f_col(MAX_F) f_next(MAX_F) f_prev(MAX_F)
    col_card(MAX_COLS) col_shift(MAX_COLS) card_land(2*MAX_CARDS: [2c + side]) card_rot(MAX_CARDS)
    card_loc(MAX_CARDS) card_fa(MAX_CARDS) card_fb(MAX_CARDS)
  work area (O_WORK onwards): scratch that strategies may overwrite freely; the kernel never reads it after the call
    (the shipped heuristics keep their α-order analysis and candidate lists there, W_* below).
Ids: HEAD = 0, TAIL = 1, lane-A slot of column j = 2j, lane-B slot = 2j+1, loop records from 2+2n upward.

Action encoding (one int64), by decision kind:
  DEC_PLAY     STOP (0) ends the plays of the turn; play_flight(land); play_joker(land) (two cards of `land`);
               play_option(opt, a, b) for an action card option (OPT_*): rotate/remove a = card; swap a, b = the two
               cards (either order); slide a = card, b = lane (0 A, 1 B); forward1, back1, take2, detour no target
               (the detour's placement is asked next, as DEC_PLACE).
  DEC_PILE     PILE_FLIGHT (0) or PILE_ACTION (1): the pile for the next card (it must be available, RACE-17).
  DEC_MIX      m in 0..obs[O_MIX_K]: action cards among the next k draws (variant fixed-mix-draw).
  DEC_PLACE    placement(lane, anchor j, index i, orientation r) of obs[O_DETOUR_CARD] (RACE-32).
  DEC_DISCARD  discard_flight(land) or discard_action(kind): one card over the hand limit (RACE-18).
The kernel checks a plug-in's action and stops the game with error code 1 when it is illegal.
"""
from math import comb

from sim.jit import kernel_njit
from sim.games.kruki_wyscig.rules import MAX_LANDS, N_KINDS, N_OPTIONS, OPTION_KIND, PARAMS

# ---- sizes (parameter maxima of rules.PARAMS) -------------------------------------------------------------------
_HI = {p.name: p.hi for p in PARAMS}
MAX_COLS = _HI["track_cards"]  # 24
MAX_CARDS = _HI["pair_copies"] * comb(MAX_LANDS, 2)  # 120 = 8 x C(6, 2)
MAX_F = 2 + 2 * MAX_COLS + 2 * MAX_CARDS  # field records (RACE-11)
MAX_CAND = MAX_COLS * (MAX_COLS - 1) // 2 + MAX_CARDS * (MAX_CARDS - 1) // 2 + 2 * MAX_COLS + MAX_CARDS  # targets
HAND_SIZE = MAX_LANDS + N_KINDS  # a hand: flight cards per land, then action cards per kind

# Rule vector (rules.PARAMS order), at obs[O_RULES + R_*] and the kernel's `rp`.
(R_LANDS, R_PAIR_COPIES, R_TRACK_CARDS, R_FLIGHT_PER_LAND, R_ACTION_COPIES, R_START_HAND, R_DRAW_PER_TURN,
 R_HAND_LIMIT, R_TAKE_CARDS, R_START_PLAYER, R_MAX_TURNS, R_OSPREY, R_FIXED_MIX, R_RERACE) = range(len(PARAMS))
N_RULES = len(PARAMS)
assert [p.name for p in PARAMS][R_RERACE] == "rerace_tie" and [p.name for p in PARAMS][R_OSPREY] == "osprey_joker"

# ---- decisions -------------------------------------------------------------------------------------------------------
DEC_PLAY, DEC_PILE, DEC_MIX, DEC_PLACE, DEC_DISCARD = 0, 1, 2, 3, 4
PILE_FLIGHT, PILE_ACTION = 0, 1  # DEC_PILE answers (RACE-17)

# ---- observation layout ---------------------------------------------------------------------------------------------
O_DECISION, O_SEAT, O_START_PLAYER, O_TURN, O_FINAL_TURN, O_STACK_SIZE, O_DETOUR_CARD, O_MIX_K = range(8)
O_N_COLS, O_N_CARDS, O_N_FIELDS, O_F_USED, O_LOOP_CARDS = 8, 9, 10, 11, 12
O_POS, O_DONE, O_TURN_FLIGHTS, O_TURN_JOKERS = 13, 15, 17, 18  # pos (2) and done (2) per seat
O_RULES = 19  # (N_RULES)
O_HAND = O_RULES + N_RULES  # (HAND_SIZE) own flight cards per land (6), then own action cards per kind (4)
O_HAND_F, O_HAND_A = O_HAND, O_HAND + MAX_LANDS
O_HAND_SIZE = O_HAND + HAND_SIZE  # (2)
O_FPILE_SIZE = O_HAND_SIZE + 2  # (2)
O_APILE_SIZE = O_FPILE_SIZE + 2  # (2)
O_DISC = O_APILE_SIZE + 2  # (2 x MAX_LANDS) [seat * 6 + land]
O_OWN_FPILE = O_DISC + 2 * MAX_LANDS  # (MAX_LANDS)
O_OWN_APILE = O_OWN_FPILE + MAX_LANDS  # (N_KINDS)
O_ACTIONS_LOG = O_OWN_APILE + N_KINDS  # (2 x N_OPTIONS) [seat * 8 + option]
O_TURN_OPTS = O_ACTIONS_LOG + 2 * N_OPTIONS  # (N_OPTIONS)
O_F_KIND = O_TURN_OPTS + N_OPTIONS  # the track: (MAX_F) per field record ...
O_F_CARD = O_F_KIND + MAX_F
O_F_LAND = O_F_CARD + MAX_F
O_F_GAP = O_F_LAND + MAX_F
O_F_LANE = O_F_GAP + MAX_F
O_F_COL = O_F_LANE + MAX_F
O_F_NEXT = O_F_COL + MAX_F
O_F_PREV = O_F_NEXT + MAX_F
O_COL_CARD = O_F_PREV + MAX_F  # (MAX_COLS) per column ...
O_COL_SHIFT = O_COL_CARD + MAX_COLS
O_CARD_LAND = O_COL_SHIFT + MAX_COLS  # (2 x MAX_CARDS) [2c + side], then (MAX_CARDS) per card ...
O_CARD_ROT = O_CARD_LAND + 2 * MAX_CARDS
O_CARD_LOC = O_CARD_ROT + MAX_CARDS
O_CARD_FA = O_CARD_LOC + MAX_CARDS
O_CARD_FB = O_CARD_FA + MAX_CARDS
O_WORK = O_CARD_FB + MAX_CARDS
# Work area used by the shipped heuristics (and the kernel's own target lists).
W_RIDX = O_WORK  # (MAX_F) real fields at or before each linked record, α order
W_LAND = W_RIDX + MAX_F  # (MAX_F) lands of the real fields in α order (the "sequence")
W_BND = W_LAND + MAX_F  # (MAX_F) boundaries (neighbours of different land) up to each sequence position
W_HAND = W_BND + MAX_F  # (HAND_SIZE) a hand copy for planning
W_MPOS = W_HAND + HAND_SIZE  # (4) sequence positions an edit changes, ascending
W_MLAND = W_MPOS + 4  # (4) their new lands (-1: deleted)
W_L, W_PA, W_PB = W_MLAND + 4, W_MLAND + 5, W_MLAND + 6  # sequence length, α's and β's sequence index
W_TORD = W_MLAND + 8  # (MAX_CARDS) cards in track order
W_CAND = W_TORD + MAX_CARDS  # (MAX_CAND) candidate actions
OBS_SIZE = W_CAND + MAX_CAND

# ---- action encoding ------------------------------------------------------------------------------------------------
STOP = 0
H_FLIGHT, H_JOKER, H_OPTION = 1, 2, 3  # play head codes; an action option o has head H_OPTION + o
HEAD_SHIFT, ARG_BITS, ARG_MASK = 16, 8, 255  # a play: head << 16 | b << 8 | a
PLAY_END = (H_OPTION + N_OPTIONS) << HEAD_SHIFT  # every play (and STOP) is below this
DISCARD_ACTION = 8  # discard answers: land (< 8) or 8 + action kind
PL_LANE_SHIFT, PL_COL_SHIFT, PL_COL_MASK, PL_INDEX_MASK = 14, 9, 31, 255  # lane << 14 | j << 9 | i << 1 | r
PLACEMENT_END = 1 << (PL_LANE_SHIFT + 1)  # every placement is below this


@kernel_njit()
def play_flight(land):
    return (H_FLIGHT << HEAD_SHIFT) | land


@kernel_njit()
def play_joker(land):
    return (H_JOKER << HEAD_SHIFT) | land


@kernel_njit(inline="always")
def play_option(opt, a=0, b=0):
    return ((H_OPTION + opt) << HEAD_SHIFT) | (b << ARG_BITS) | a


@kernel_njit()
def play_head(action):
    """H_FLIGHT, H_JOKER or H_OPTION + option of a play."""
    return action >> HEAD_SHIFT


@kernel_njit()
def play_a(action):
    """A play's first argument: the land of a flight or joker, the card of an option."""
    return action & ARG_MASK


@kernel_njit()
def play_b(action):
    """A play's second argument: the other card of a swap, the lane of a slide."""
    return (action >> ARG_BITS) & ARG_MASK


@kernel_njit(inline="always")
def placement(lane, j, i, r):
    return (lane << PL_LANE_SHIFT) | (j << PL_COL_SHIFT) | (i << 1) | r


@kernel_njit()
def placement_parts(pl):
    """(lane, anchor j, index i, orientation r) of a placement."""
    return pl >> PL_LANE_SHIFT, (pl >> PL_COL_SHIFT) & PL_COL_MASK, (pl >> 1) & PL_INDEX_MASK, pl & 1


@kernel_njit()
def discard_flight(land):
    return land


@kernel_njit(inline="always")
def discard_action(kind):
    return DISCARD_ACTION + kind


@kernel_njit(inline="always")
def option_kind(opt):
    """RACE-1: the card kind carrying option opt (K1: 0, 1; K2: 2, 3; K3: 4, 5; K4: 6, 7), as rules.OPTION_KIND."""
    return opt >> 1


assert all(OPTION_KIND[o] == o >> 1 for o in range(N_OPTIONS))
