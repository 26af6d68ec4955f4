"""Kruki / Odin's Ravens rules data: parameters, variants, strategies, output columns and the default components
(docs/rules/kruki-wyscig.md §1, §6–§9). Rule ids RACE-n refer to that file.
"""
from math import comb

from sim.spec import Param, SpecError, StrategyInfo, Variant

ID = "kruki-wyscig"
TITLE = "Kruki (Odin's Ravens)"
ALIASES = ("odins-ravens",)

VERSION = "1"
PLAYERS = 2  # RACE: the game is for exactly two players
MIN_PLAYERS = MAX_PLAYERS = DEFAULT_PLAYERS = PLAYERS

# Lands (RACE-1): 0 G green, 1 P purple, 2 Y yellow, 3 R red, 4 U blue, 5 (sixth land, no letter).
LAND_LETTERS = "GPYRU6"
MAX_LANDS = 6

# Action kinds (RACE-1, RACE-2): K1..K4 are kinds 0..3; each card carries two options.
K1, K2, K3, K4 = 0, 1, 2, 3
N_KINDS = 4
KIND_NAMES = ("K1", "K2", "K3", "K4")
# Option ids (RACE-1).
OPT_FORWARD1, OPT_BACK1, OPT_ROTATE, OPT_REMOVE, OPT_SWAP, OPT_SLIDE, OPT_TAKE2, OPT_DETOUR = range(8)
N_OPTIONS = 8
OPTION_NAMES = ("forward1", "back1", "rotate", "remove", "swap", "slide", "take2", "detour")
OPTION_KIND = (K1, K1, K2, K2, K3, K3, K4, K4)  # the card kind that carries each option
JOKER_CARDS = 2  # a joker is a pair of equal flight cards (RACE-21)

# The track's field records (RACE-10, RACE-11): sentinel ids, lanes and the codes of f_kind, card_loc, col_shift.
HEAD, TAIL = 0, 1  # sentinel records: α starts on HEAD, β on TAIL (RACE-5)
LANE_A, LANE_B = 0, 1
SENTINEL, MAIN, LOOP, DEAD = 0, 1, 2, 3  # f_kind; unallocated or unlinked loop records are DEAD
LOC_STACK, LOC_MAIN, LOC_LOOP, LOC_BOX = 0, 1, 2, 3  # card_loc: land stack, a column, a loop, out of the game
HOME, SHIFT_A, SHIFT_B = 0, 1, 2  # col_shift: home, slid into lane A, slid into lane B

START_RANDOM = -1  # value of `start_player` meaning "drawn at random" (RACE-7)
STOP_SCALE = 1_000_000  # random's stop draw: below(STOP_SCALE) < int(stop x STOP_SCALE + 0.5) (§5)
RERACE_LIMIT = 10  # rerace-tie: after this many equal replays the win is shared (§6)

PARAMS = (
    Param("lands", 5, 3, MAX_LANDS, "number of land types (RACE-1)"),
    Param("pair_copies", 4, 1, 8, "land cards per unordered pair of different lands (RACE-1)"),
    Param("track_cards", 16, 3, 24, "columns of land cards laid at setup (RACE-3)"),
    Param("flight_per_land", 5, 1, 10, "flight cards per land per player (RACE-1)"),
    Param("action_copies", 2, 0, 4, "copies of each of the 4 action kinds per player (RACE-1)"),
    Param("start_hand", 5, 1, 10, "cards in the start hand (RACE-8)"),
    Param("draw_per_turn", 3, 1, 5, "cards drawn at the end of a turn (RACE-16)"),
    Param("hand_limit", 7, 3, 15, "hand limit after the end-of-turn draw (RACE-18)"),
    Param("take_cards", 2, 1, 4, "cards drawn by the take-2 action (RACE-31)"),
    Param("start_player", START_RANDOM, -1, 1, "seat index of the start player (0 = seat 1, 1 = seat 2); -1 = drawn at "
          "random (RACE-7)"),
    Param("max_turns", 400, 50, 5000, "safety cap on turns; the game is then adjudicated (RACE-35)"),
    Param("osprey_joker", 0, 0, 1, "1: English-edition joker (variant osprey-joker, RACE-21)"),
    Param("fixed_mix_draw", 0, 0, 1, "1: fix the pile mix before drawing (variant fixed-mix-draw, RACE-17)"),
    Param("rerace_tie", 0, 0, 1, "1: equal hands replay the race (variant rerace-tie, RACE-34)"),
)

VARIANTS = (
    Variant("osprey-joker", "English edition: a pair of equal flight cards is legal only without a card of the next "
            "field's land and then flies like that land (full run)", {"osprey_joker": 1}),
    Variant("fixed-mix-draw", "the seed's literal draw: fix how many cards come from each pile before drawing",
            {"fixed_mix_draw": 1}),
    Variant("rerace-tie", "English edition: equal hands in the tie-break replay the race (up to 10 times)",
            {"rerace_tie": 1}),
)

# §9, in the file's order after `random` (sid 0). Action drop orders (discard policy) are fixed per strategy.
STRATEGIES = (
    StrategyInfo("random", 0, "uniform over the legal play heads, then their targets; stops with probability `stop`",
                 {"stop": 0.25}),
    StrategyInfo("hoarder", 1, "waits for a one-turn finish, then races with as many cards kept as possible",
                 {"sprint": 3.0, "threshold": 1.0, "min_actions": 1.0}),
    StrategyInfo("runner", 2, "flies as far as it can each turn; never edits the track", {"min_actions": 0.0}),
    StrategyInfo("saboteur", 3, "one track edit per turn when it costs the opponent runs, else runs",
                 {"max_actions": 1.0, "threshold": 1.0, "min_actions": 2.0}),
    StrategyInfo("weighted", 4, "scores every legal play with tunable weights (§9)",
                 {"stop": 0.0, "w_adv": 0.25, "w_own": 1.0, "w_opp": 0.8, "w_card": 0.4, "w_act": 0.2,
                  "w_gain": 0.35, "min_actions": 2.0}),
)
# `saboteur` with tuned parameters: up to two sabotage plays a turn, each of net gain at least 2, and draw k = 1
# (§9). Its own best reply as far as tuning finds; it wins 68.3% against the rules file's saboteur, which wins
# 32.2% against it (docs/games/kruki-wyscig.md, "Default strategy").
DEFAULT_STRATEGY = "saboteur:max_actions=2:threshold=2:min_actions=1"

# Discard policy (§9): action kinds dropped first to last.
DROP_ORDER = {
    "hoarder": (K2, K3, K1, K4),
    "runner": (K2, K3, K4, K1),
    "saboteur": (K3, K2, K1, K4),
    "weighted": (K3, K2, K1, K4),
}

SEAT_COLUMNS = (
    "final_hand", "flights_played", "jokers",
    "actions_used_forward1", "actions_used_back1", "actions_used_rotate", "actions_used_remove",
    "actions_used_swap", "actions_used_slide", "actions_used_take2", "actions_used_detour",
    "cards_drawn", "cards_discarded", "reshuffles", "fields_forward", "fields_pushed_back",
)
GAME_COLUMNS = (
    "start_player", "turns", "first_finisher", "final_turn_finish", "tiebreak_decided", "shared_win", "truncated",
    "winner_lead", "winner_lead_runs", "detours", "cards_removed", "track_len_start", "track_len_end", "gaps_end",
    "loop_cards_end", "reraces",
)
LENGTH_COLUMN = "turns"
RATIOS = ()  # §8 lists no means; every statistic is a plain integer column

ERROR_ILLEGAL = 1
ERROR_CODES = {ERROR_ILLEGAL: "a strategy chose an option that is not legal (play, target, pile, placement or discard)"}


def n_land_cards(p):
    """N = pair_copies x C(lands, 2) (RACE-1)."""
    return p["pair_copies"] * comb(p["lands"], 2)


def n_field_records(p):
    """F = 2 + 2n + 2N field records (RACE-11): sentinels, main slots, loop fields (never reused)."""
    return 2 + 2 * p["track_cards"] + 2 * n_land_cards(p)


def build_land_cards(p):
    """Printed lands of every land card, canonical order (RACE-1): card id c = pair_index * pair_copies + copy,
    pairs (a, b) with a < b in lexicographic order; side 0 shows a, side 1 shows b."""
    cards = []
    for a in range(p["lands"]):
        for b in range(a + 1, p["lands"]):
            cards += [(a, b)] * p["pair_copies"]
    return cards


def build_flight_deck(p):
    """One player's flight cards in canonical order (ascending land), before shuffling (RACE-1, RACE-6)."""
    return [land for land in range(p["lands"]) for _ in range(p["flight_per_land"])]


def build_action_deck(p):
    """One player's action cards in canonical order (ascending kind), before shuffling (RACE-1, RACE-6)."""
    return [kind for kind in range(N_KINDS) for _ in range(p["action_copies"])]


def validate(p, players):
    """Cross-parameter checks (one-line SpecError)."""
    if players != PLAYERS:
        raise SpecError(f"kruki-wyscig takes exactly 2 players, not {players}")
    n_cards = n_land_cards(p)
    if n_cards < p["track_cards"]:  # §7 pair_copies
        raise SpecError(f"kruki-wyscig needs pair_copies x C(lands,2) = {n_cards} land cards >= track_cards = "
                        f"{p['track_cards']}; raise pair_copies or lands, or lower track_cards")
