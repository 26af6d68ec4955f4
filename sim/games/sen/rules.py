"""Sen rules data: parameters, variants, strategies, output columns and the deck (docs/rules/sen.md §1, §6–§9).

Card codes (SEN-1): 0–9 number cards of that many ravens, then the three specials TAKE2, PEEK, SWAP. UNKNOWN (−1)
marks a slot a player does not know in a knowledge table (SEN-22).
"""
from sim.spec import Param, Ratio, SpecError, StrategyInfo, Variant

ID = "sen"
TITLE = "Sen"
ALIASES = ("rat-a-tat-cat",)
LENGTH_COLUMN = "turns"

VERSION = "1"

# Card codes (SEN-1).
TAKE2, PEEK, SWAP = 10, 11, 12
N_NUMBERS = TAKE2  # number cards are codes 0..N_NUMBERS-1
N_CODES = 13  # codes 0..12
UNKNOWN = -1  # knowledge-table entry for a card the player does not know (SEN-22)
SPECIAL_NAMES = {TAKE2: "take2", PEEK: "peek", SWAP: "swap"}
CARD_NAMES = {**{c: str(c) for c in range(N_NUMBERS)}, TAKE2: "Take2", PEEK: "Peek", SWAP: "Swap"}
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 6, 4
MAX_DREAM = 6

# The `random` strategy calls with probability p_call as below(P_CALL_SCALE) < p_call × P_CALL_SCALE (§5 table).
P_CALL_SCALE = 1_000_000
# Decisions, their options and the observation: sim/games/sen/obs.py.


PARAMS = (
    Param("dream_size", 4, 3, MAX_DREAM, "slots per dream (SEN-3)"),
    Param("copies_0_8", 4, 0, 12, "copies of each number card 0..8 (SEN-1)"),
    Param("copies_9", 9, 0, 12, "copies of the number card 9 (SEN-1)"),
    Param("n_take2", 3, 0, 9, "Take 2 cards (SEN-1, SEN-9)"),
    Param("n_peek", 3, 0, 9, "Peek 1 cards (SEN-1, SEN-10)"),
    Param("n_swap", 3, 0, 9, "Swap 2 cards (SEN-1, SEN-11)"),
    Param("v_take2", 5, 0, 20, "ravens printed on Take 2 (SEN-1)"),
    Param("v_peek", 6, 0, 20, "ravens printed on Peek 1 (SEN-1)"),
    Param("v_swap", 9, 0, 20, "ravens printed on Swap 2 (SEN-1)"),
    Param("replace_specials", 0, 0, 1, "1: specials in dreams are replaced from the pile at scoring (SEN-18)"),
    Param("faceup_specials", 1, 0, 1, "1: action A may take a special from the face-up pile (SEN-6)"),
    Param("take2_mode", 0, 0, 1, "0: see two, keep one; 1: sequential, second card only after a B2 (SEN-9)"),
    Param("peek_scope", 0, 0, 1, "0: Peek any player's slot; 1: own slots only (SEN-10)"),
    Param("caller_penalty", 10, 0, 50, "ravens added to a caller someone beat strictly (SEN-19)"),
    Param("final_turns", 1, 0, 1, "1: every other player takes one more turn after a call; 0: round ends (SEN-15)"),
    Param("call_after", 1, 1, 10, "own turns this round (this one included) before a call is allowed (SEN-14)"),
    Param("end_score", 100, 10, 1000, "the game ends after a round in which a total reaches this (SEN-20)"),
    Param("rounds", 0, 0, 100, "0: play to end_score; >0: exactly this many rounds (SEN-20)"),
    Param("empty_pile", 0, 0, 1, "0: reshuffle the face-up pile; 1: the round ends when the pile empties (SEN-13)"),
    Param("max_turns", 300, 10, 10000, "per-round turn cap; the round ends without a caller (SEN-16)"),
    Param("max_rounds", 200, 1, 10000, "per-game round cap; the game is flagged capped (SEN-20)"),
)

VARIANTS = (
    Variant("rat-a-tat-cat", "Gamewright rules: specials score 0 and are replaced at scoring, no face-up specials, "
            "sequential Take 2, Peek own cards only, no caller penalty",
            {"replace_specials": 1, "faceup_specials": 0, "take2_mode": 1, "peek_scope": 1, "caller_penalty": 0,
             "v_take2": 0, "v_peek": 0, "v_swap": 0}),
    Variant("deck-out-ends", "the round ends at the end of the turn that empties the face-down pile (SEN-13)",
            {"empty_pile": 1}),
)

STRATEGIES = (
    StrategyInfo("random", 0, "uniform over the legal options (§5 table); calls with probability p_call",
                 {"p_call": 0.1}),
    StrategyInfo("threshold", 1, "own slots and the deck mean only: keeps low cards, swaps away high ones (§9.2)",
                 {"keep_max": 3.0, "swap_at": 7.0, "call_at": 10.0}),
    StrategyInfo("memory", 2, "whole knowledge table and card counting: gains, targeted peeks and swaps (§9.3)",
                 {"take_gain": 1.0, "swap_gain": 2.0, "call_at": 10.0, "opp_unknown": 3.0}),
)
# The default player: memory with tuned parameters (docs/games/sen.md, "Default strategy"). With the rules file's
# parameters (§9) both heuristics call far too early; `sim tune-strategy` against copies of memory:call_at=4 found
# these values, and against a field of them neither a tuned memory (24.6% [23.8, 25.3]) nor a tuned threshold
# (24.1% [23.3, 24.9]) beats the fair 25%: each seat's best reply is (within noise) itself. It beats threshold at
# 2, 3, 4 and 6 players under both rule families, alone against it and as the field.
DEFAULT_STRATEGY = "memory:take_gain=1.5:swap_gain=0:call_at=4.25:opp_unknown=4.3"

SEAT_COLUMNS = ("calls", "penalties", "round_lows", "unknown_at_call", "swapped_against")
GAME_COLUMNS = (
    "rounds_played", "capped_rounds", "capped", "turns", "reshuffles",
    "calls", "call_turn_sum", "caller_lowest", "penalties",
    "faceup_takes", "draws", "cards_drawn",
    "specials_drawn_take2", "specials_drawn_peek", "specials_drawn_swap",
    "specials_used_take2", "specials_used_peek", "specials_used_swap",
    "specials_in_dreams", "replacements",
    "round_score_sum", "seat_rounds", "min_round_score", "max_round_score", "winner_margin",
)
RATIOS = (
    Ratio("mean_turns_per_round", "turns", "rounds_played"),
    Ratio("mean_call_turn", "call_turn_sum", "calls"),
    Ratio("mean_round_score", "round_score_sum", "seat_rounds"),
    Ratio("mean_round_score", "score", "rounds_played", per_seat=True),
)
ERROR_ILLEGAL = 1
ERROR_CHAIN = 2
MAX_TURN_DRAWS = 1000  # safety cap on cards drawn in one turn (an endless Take 2 chain needs a degenerate deck)
ERROR_CODES = {
    ERROR_ILLEGAL: "a strategy chose an illegal action (an option not offered at that decision)",
    ERROR_CHAIN: f"a turn drew more than {MAX_TURN_DRAWS} cards (an endless Take 2 chain; degenerate decks only)",
}


def card_counts(p):
    """Copies of each card code 0..12 in the deck (SEN-1 with the parameters' counts)."""
    return [p["copies_0_8"]] * 9 + [p["copies_9"], p["n_take2"], p["n_peek"], p["n_swap"]]


def build_deck(p):
    """The deck in canonical order (ascending code); every round shuffles a fresh copy of this list (SEN-3)."""
    deck = []
    for code, count in enumerate(card_counts(p)):
        deck += [code] * count
    return deck


def ravens_table(p):
    """Printed ravens of each code 0..12 (SEN-1, SEN-17): face value, specials v_take2 / v_peek / v_swap."""
    return list(range(N_NUMBERS)) + [p["v_take2"], p["v_peek"], p["v_swap"]]


def mu0(p):
    """μ0 (§9): the whole-deck mean ravens under the active scoring; number cards only with replace_specials = 1.

    Computed as one division of integer sums, so the kernel gets the same float. Falls back to the whole deck when
    the deck has no number card, and to 0.0 for an empty deck.
    """
    counts, ravens = card_counts(p), ravens_table(p)
    if p["replace_specials"]:
        n = sum(counts[:N_NUMBERS])
        if n > 0:
            return sum(counts[c] * ravens[c] for c in range(N_NUMBERS)) / n
    n = sum(counts)
    return sum(counts[c] * ravens[c] for c in range(N_CODES)) / n if n else 0.0


def validate(p, players):
    """Cross-parameter checks (SEN-3): raise SpecError with one line naming the problem and the accepted values."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SpecError(f"sen takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    total = sum(card_counts(p))
    need = players * p["dream_size"] + 2
    if total < need:
        raise SpecError(
            f"sen deck has {total} cards (9×copies_0_8 + copies_9 + n_take2 + n_peek + n_swap) but {players} players "
            f"with dream_size={p['dream_size']} need at least {need} (players × dream_size + 2)")
