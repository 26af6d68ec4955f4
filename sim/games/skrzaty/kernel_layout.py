"""The Skrzaty kernel's names: its input tables' columns, its output columns, its trace events and its scratch.

Plain data (numpy and the observation's constants only), shared by the kernel modules and `events.py`.

Input tables (built by `kernel.kernel_data`):
  rp(len(PARAMS))    the rule parameters in the order of `rules.PARAMS` (`R_*`)
  cards(N, C_WIDTH)  `C_*`: one row per City card in ascending id order; a card is named by its row ("card index")
                     everywhere in the kernel and the observation
  rcards(nR, RC_WIDTH)  `RC_*`: the Reward cards for P players in ascending card number
  spaces(T, MAX_P, SPACE_W)  `SP_*`: gnomes vp bonus of rank k of Reward type t for P players
  end_tile(MAX_P, SPACE_W)  `SP_*`: gnomes vp bonus of End-tile rank k for P players
  tokens(K, TK_WIDTH)  `TK_*`: each Bonus-token kind, file order
"""
from collections import namedtuple

from sim.games.skrzaty.obs import MAX_HAND, MAX_MARKET, MAX_P, MAX_ROUNDS
from sim.games.skrzaty.rules import E_DELIVERY, E_DISGUISE, GAME_COLUMNS, PARAMS, SEAT_COLUMNS
from sim.spec import GAME_BASE, SEAT_BASE

# Rule-parameter vector: the order of rules.PARAMS.
(R_ROUNDS, R_MARKET_EXTRA, R_DEAL, R_HAND_KEEP, R_GNOME_POOL, R_FESTIVAL_MIN, R_FIRST_PLAYER, R_MARKET_RANKED,
 R_MARKET_KEEP, R_FINAL_HIGHEST, R_FIXED_FIRST) = range(len(PARAMS))
assert [p.name for p in PARAMS][R_FIXED_FIRST] == "fixed_first"
C_ID, C_COLOUR, C_VALUE, C_SPACES, C_VP, C_EFFECT, C_AMOUNT = range(7)  # City-card table
C_WIDTH = 7
RC_NUMBER, RC_COLOUR, RC_TYPE = range(3)  # Reward-card table
RC_WIDTH = 3
TK_COUNT, TK_GNOMES, TK_VP = range(3)  # Bonus-token table
TK_WIDTH = 3

# Output columns: seat_row(players, S_*), game_row(G_*).
_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE, S_RANK, S_WIN60 = (_SEAT[k] for k in SEAT_BASE)
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
EV_CHOICE = 16  # a=seat, b=decision kind, c=action: a plug-in's answer (checked next; an illegal one stops the game)
# Gain sources: rank k of a round = k; End-tile rank k = SRC_END + k.
SRC_DELIVERY, SRC_FINDER, SRC_END = 20, 21, 10

DECK_EXTRA = MAX_P * MAX_HAND + MAX_ROUNDS * MAX_MARKET  # appended to the deck bottom during a game, at most

# Per-block working arrays of play_game (built by kernel._scratch; every game resets what it uses).
Scratch = namedtuple("Scratch", (
    "obs",          # int32(obs size): the observation = the public state; its static part set by init_static_obs
    "uobs",         # int32(obs size): the copy a plug-in gets
    "deck",         # int64(N + DECK_EXTRA): card indices, a queue from `head` (top) to `tail` (bottom)
    "hands",        # int64(MAX_P, MAX_HAND): each seat's hand, ascending card index [private]
    "hand_len",     # int64(MAX_P): cards in each hand
    "returned",     # int64(MAX_P, MAX_HAND): cards each seat returned at setup, ascending [private]
    "ret_len",      # int64(MAX_P): returned cards per seat
    "slot",         # int64(N): a played card's position in its owner's city
    "fore",         # int64(MAX_P): sum of `amount` over each seat's filled foreman cards (SKRZATY-12)
    "guild",        # int64(MAX_P, N_COLOURS): filled guild amounts per seat by printed colour (SKRZATY-13)
    "row",          # int64(max(nR, 1)): the shuffled Reward-card order; row[i] = Reward card of R(i+1)
    "turn_pos",     # int64(MAX_P): each seat's position in this round's turn order
    "ranking",      # int64(MAX_P): seats by rank, this round's (or the final) ranking
    "rank_group",   # int64(MAX_P): ranking key 1 per seat, 0 = best group (round: best colour; final: End colour)
    "rank_value",   # int64(MAX_P): ranking key 2 per seat (round: ranking value; final: End sum or highest)
    "rank_tie",     # int64(MAX_P): final ranking key 3 per seat, the highest End-colour card
    "hand_top",     # int64(MAX_P): the highest hand card's value per seat at the final ranking (for the trace)
    "filled_by_colour",  # int64(MAX_P, N_COLOURS): filled cards per seat by colour, at scoring
    "score_key",    # int64(MAX_P): SKRZATY-46 ranking key per seat: score, filled cards, gnomes on cards
    "rng",          # uint64(1): the game's random stream
    "cards",        # the block's own copies of cards, sids and sparams: the hot loops touch their reference
    "sids",         # counts, and a count shared by two threads is a contended cache line
    "sparams",
))
