"""Skrzaty's observation and action encoding: the contract between the kernel and every strategy (shipped or plug-in).

A strategy is called as `choose(obs, params, rng) -> action` where
- `obs` is the int32 observation laid out below: public state plus the deciding player's own hand and returned
  cards, nothing hidden (SKRZATY-47); treat it as read-only;
- `params` is the seat's float64 parameter row (`StrategyInfo.params` order; plug-ins get their own `PARAMS`);
- `rng` is the game's stream (`sim.rng.below(rng, n)`), for strategies that randomise;
- the returned int64 `action` answers the decision named by `obs[O_KIND]` (encoding below). The kernel checks a
  plug-in's action and stops the game with error code 1 when it is illegal. A decision with exactly one legal
  option is taken without asking anyone.

Cards are named by their **card index** c = 0 .. n_cards−1: the row of the City-card table, which is in ascending
`id` order (the printed id is `card(obs, c, F_ID)`). Colours and effects are the codes of `rules.COLOURS` and
`rules.EFFECTS` (rules §1.1). Seats are 0..P−1; "−1" pads unused slots.

Decision kinds (`obs[O_KIND]`) and actions:
  KEEP   1  D1, setup: keep `hand_keep` of the dealt cards (in O_HAND, ascending). Action: bitmask over positions of
            O_HAND (bit i = keep O_HAND[i]) with exactly `hand_keep` bits set.
  PLAY   2  D2: play a hand card. Action: its card index.
  BARTER 3  D3, after playing a `barter` card (it is already out of the hand): 0 = decline, or
            barter_action(h, m) = (h + 1) * SWAP_BASE + m to swap hand card h for Market card m.
  TOKEN  4  D4: take a Bonus token. Action: a token kind (0-based, file order) with supply > 0.
  PLACE  5  D5: place one reserve gnome. Action: the card index of an own city card with an empty space.
  PICK   6  D6, step 3: take a Market card. Action: its card index.

Observation layout, int32[OBS_FIXED + n_cards*CARD_W + n_kinds*TOKEN_W + n_types*MAX_P*SPACE_W]:
  header: kind seat players round(0 = setup, 1..rounds, rounds+1 = end) rounds best_colour(−1 outside rounds)
          end_colour round_type(−1 outside rounds) first_player(−1 at setup) turn_pos(own; −1 at setup) pool
          deck_size n_cards n_kinds n_types cards_at tokens_at types_at
  rules:  hand_keep deal market_extra festival_min gnome_pool market_ranked market_keep final_highest fixed_first
  row_colour(MAX_ROW) row_type(MAX_ROW)   the Reward row R1..R(rounds+1); the last card gives the End colour
  end_tile(MAX_P × SPACE_W)               gnomes, vp, bonus of End-tile ranks 1..P
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
  types (n_types × MAX_P × SPACE_W) at obs[O_TYPES_AT]: gnomes, vp, bonus of rank k of Reward type t for this P
"""
from sim.jit import kernel_njit
from sim.games.skrzaty.rules import MAX_PLAYERS, PARAMS

_HI = {p.name: p.hi for p in PARAMS}
MAX_P = MAX_PLAYERS
MAX_ROUNDS = _HI["rounds"]
MAX_HAND = _HI["deal"]  # a hand never holds more than the dealt cards (hand_keep <= deal)
MAX_MARKET = MAX_PLAYERS + _HI["market_extra"]
MAX_ROW = MAX_ROUNDS + 1  # R1..R(rounds+1)
MAX_CITY = MAX_ROUNDS  # one card played per round
assert (MAX_P, MAX_ROUNDS, MAX_HAND, MAX_MARKET) == (5, 30, 10, 8)  # the observation layout plug-ins were built on

# Decision kinds (rules §5).
KEEP, PLAY, BARTER, TOKEN, PLACE, PICK = 1, 2, 3, 4, 5, 6
# D3 action: (hand card + 1) << SWAP_SHIFT | Market card; 0 = decline.
SWAP_SHIFT = 16
SWAP_BASE = 1 << SWAP_SHIFT
LOC_UNSEEN, LOC_MARKET, LOC_CITY, LOC_HAND, LOC_DECK = 0, 1, 2, 3, 4
# Card-table fields; token-table fields; a reward space's (or End-tile rank's) fields.
F_ID, F_COLOUR, F_VALUE, F_SPACES, F_VP, F_EFFECT, F_AMOUNT, F_LOC, F_OWNER = range(9)
CARD_W = 9
T_SUPPLY, T_GNOMES, T_VP, T_HELD = 0, 1, 2, 3
TOKEN_W = T_HELD + MAX_P
SP_GNOMES, SP_VP, SP_BONUS = 0, 1, 2
SPACE_W = 3


def _layout():
    fields = [("KIND", 1), ("SEAT", 1), ("PLAYERS", 1), ("ROUND", 1), ("ROUNDS", 1), ("BEST_COLOUR", 1),
              ("END_COLOUR", 1), ("ROUND_TYPE", 1), ("FIRST_PLAYER", 1), ("TURN_POS", 1), ("POOL", 1),
              ("DECK_SIZE", 1), ("N_CARDS", 1), ("N_KINDS", 1), ("N_TYPES", 1), ("CARDS_AT", 1), ("TOKENS_AT", 1),
              ("TYPES_AT", 1), ("HAND_KEEP", 1), ("DEAL", 1), ("MARKET_EXTRA", 1), ("FESTIVAL_MIN", 1),
              ("GNOME_POOL", 1), ("MARKET_RANKED", 1), ("MARKET_KEEP", 1), ("FINAL_HIGHEST", 1), ("FIXED_FIRST", 1),
              ("ROW_COLOUR", MAX_ROW), ("ROW_TYPE", MAX_ROW), ("END_TILE", MAX_P * SPACE_W), ("ORDER", MAX_P),
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


(O_KIND, O_SEAT, O_PLAYERS, O_ROUND, O_ROUNDS, O_BEST_COLOUR, O_END_COLOUR, O_ROUND_TYPE, O_FIRST_PLAYER, O_TURN_POS,
 O_POOL, O_DECK_SIZE, O_N_CARDS, O_N_KINDS, O_N_TYPES, O_CARDS_AT, O_TOKENS_AT, O_TYPES_AT, O_HAND_KEEP, O_DEAL,
 O_MARKET_EXTRA, O_FESTIVAL_MIN, O_GNOME_POOL, O_MARKET_RANKED, O_MARKET_KEEP, O_FINAL_HIGHEST, O_FIXED_FIRST,
 O_ROW_COLOUR, O_ROW_TYPE, O_END_TILE, O_ORDER, O_MARKERS, O_END_MARKERS, O_MARKET_LEN, O_MARKET, O_PLAYED_LEN,
 O_PLAYED_SEAT, O_PLAYED_CARD, O_HAND_SIZES, O_RESERVE, O_VP_REWARDS, O_VP_END_TILE, O_EMPTY, O_CITY_LEN, O_CITY,
 O_GNOMES, O_HAND_LEN, O_HAND, O_RETURNED_LEN, O_RETURNED, OBS_FIXED) = _layout().values()


@kernel_njit()
def obs_size(n_cards, n_kinds, n_types):
    """The observation's length for these table sizes."""
    return OBS_FIXED + n_cards * CARD_W + n_kinds * TOKEN_W + n_types * MAX_P * SPACE_W


@kernel_njit(inline="always")
def card(obs, c, f):
    """Field f (F_*) of card index c."""
    return obs[obs[O_CARDS_AT] + c * CARD_W + f]


@kernel_njit(inline="always")
def barter_action(h, m):
    """D3 action: swap own hand card h for Market card m."""
    return (h + 1) * SWAP_BASE + m
