"""Straw rules data: parameters, variants, strategies, output columns and the deck (docs/rules/straw.md §1, §6–§9)."""
from sim.spec import Param, Ratio, SpecError, StrategyInfo, Variant

ID = "straw"
TITLE = "Straw"
ALIASES = ()
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 6, 4
# `safe` with a tuned escape_at: its own best reply at 4 players, where the rules file's 40 loses to it 6.2% to
# 28.1% (docs/games/straw.md, "Default strategy").
DEFAULT_STRATEGY = "safe:escape_at=8"
LENGTH_COLUMN = "turns"

VERSION = "1"

# Card codes (STRAW-1): 1–10 items of that weight, 11–19 Carpets −(code−10), then the specials.
ITEM_MAX_CODE = 10  # items are codes 1..10; a Carpet's magnitude is its code − ITEM_MAX_CODE
CARPET_MAX_CODE = 19  # Carpets are codes 11..19
REVERSE, COPY, LAMP, STRAW = 20, 21, 22, 23
N_CODES = 24  # codes 0..23; 0 is unused
MAX_HAND = 10
# How a round ended (STRAW-14, STRAW-15, STRAW-17).
ONGOING, NORMAL_BREAK, STRAW_BREAK, STALL = 0, 1, 2, 3

PARAMS = (
    Param("break_at", 50, 10, 200, "the back breaks when T > break_at; the Straw is legal at T == break_at"),
    Param("hand_size", 4, 1, MAX_HAND, "cards dealt; the hand is refilled to this by drawing"),
    Param("item_min", 1, 1, 10, "lightest item weight in the deck"),
    Param("item_max", 10, 1, 10, "heaviest item weight in the deck"),
    Param("item_copies", 4, 0, 8, "copies of each item weight"),
    Param("carpet_min", 2, 1, 9, "smallest Flying Carpet magnitude"),
    Param("carpet_max", 9, 1, 9, "largest Flying Carpet magnitude"),
    Param("carpet_copies", 1, 0, 4, "copies of each Carpet"),
    Param("reverse", 5, 0, 10, "Reverse cards"),
    Param("copy", 5, 0, 10, "Copy cards"),
    Param("lamp", 5, 0, 10, "Aladdin's Lamp cards"),
    Param("straw", 1, 0, 4, "Straw cards"),
    Param("lamp_min", 1, 0, 20, "smallest Lamp value"),
    Param("lamp_max", 10, 0, 20, "largest Lamp value"),
    Param("carpet_clamp", 1, 0, 1, "1: the total never goes below 0 (STRAW-10)"),
    Param("rounds", 0, 0, 50, "rounds per game; 0 = one per player (STRAW-20)"),
    Param("evertide", 0, 0, 1, "1: play until a total reaches `target` (variant evertide)"),
    Param("target", 100, 1, 1000, "end total for evertide"),
    Param("max_rounds", 200, 1, 10000, "safety cap on rounds for evertide"),
)

VARIANTS = (
    Variant("evertide", "first edition: rounds go on until a total reaches `target` (default 100)", {"evertide": 1}),
    Variant("deck-b", "Carpets −1..−9, Reverse 4 (the other reading of the deck)", {"carpet_min": 1, "reverse": 4}),
)

STRATEGIES = (
    StrategyInfo("random", 0, "uniform over the distinct legal cards, then a uniform Lamp value"),
    StrategyInfo("dump-heaviest", 1, "push the total as high as is safe; ignores its own hand value"),
    StrategyInfo("safe", 2, "hoard heavy cards, keep escapes for a nearly full Camel", {"escape_at": 40.0}),
    StrategyInfo("straw-hunter", 3, "make the total exactly break_at when it can, else play as safe",
                 {"escape_at": 40.0}),
    StrategyInfo("weighted", 4, "scores every action with tunable weights (§9.5)",
                 {"w_break": -50.0, "w_straw": 3.0, "w_straw0": 20.0, "w_loss": 1.0, "w_press": 6.0,
                  "w_exact": 6.0, "w_esc": 8.0}),
)

SEAT_COLUMNS = ("breaks", "straw_breaks", "zero_rounds", "negative_rounds", "best_round")
GAME_COLUMNS = (
    "first_dealer", "rounds_played", "capped", "normal_breaks", "straw_breaks", "stalls", "forced_breaks",
    "break_total_sum", "overshoot_sum", "break_card_item", "break_card_lamp", "break_card_copy", "turns", "passes",
    "exact_hits", "straw_chances", "straw_declined", "plays_reverse", "plays_copy", "plays_lamp", "plays_carpet",
    "lamp_choices", "lamp_value_sum", "clamp_loss", "deck_out_rounds", "lead_changes",
)
RATIOS = (
    Ratio("mean_break_total", "break_total_sum", "normal_breaks"),
    Ratio("mean_overshoot", "overshoot_sum", "normal_breaks"),
    Ratio("mean_turns_per_round", "turns", "rounds_played"),
    Ratio("mean_lamp_value", "lamp_value_sum", "lamp_choices"),
    Ratio("mean_round_score", "score", "rounds_played", per_seat=True),
)
ERROR_ILLEGAL = 1
ERROR_CODES = {ERROR_ILLEGAL: "a strategy chose an illegal action (a card it may not play, or a Lamp value out of "
                              "range)"}


def hand_value(code):
    """STRAW-18 hand value: items +w, Carpets −k, Reverse/Copy/Lamp/Straw 0."""
    if 1 <= code <= ITEM_MAX_CODE:
        return code
    if ITEM_MAX_CODE < code <= CARPET_MAX_CODE:
        return -(code - ITEM_MAX_CODE)
    return 0


def build_deck(p):
    """The deck in canonical order (ascending code), STRAW-1 with the parameters' counts."""
    deck = []
    for w in range(p["item_min"], p["item_max"] + 1):
        deck += [w] * p["item_copies"]
    for k in range(p["carpet_min"], p["carpet_max"] + 1):
        deck += [ITEM_MAX_CODE + k] * p["carpet_copies"]
    deck += [REVERSE] * p["reverse"] + [COPY] * p["copy"] + [LAMP] * p["lamp"] + [STRAW] * p["straw"]
    return deck


def validate(p, players):
    for lo, hi in (("item_min", "item_max"), ("carpet_min", "carpet_max"), ("lamp_min", "lamp_max")):
        if p[lo] > p[hi]:
            raise SpecError(f"straw needs {lo} <= {hi}, got {lo}={p[lo]} and {hi}={p[hi]}")
    size = len(build_deck(p))
    if size < players * p["hand_size"]:  # STRAW-4
        raise SpecError(f"straw deck has {size} cards, fewer than players x hand_size = {players * p['hand_size']}")
