"""Crows (`kruki`): rule parameters, variants, strategies, output columns and default data.

Everything here is plain data built from the rule parameters (docs/rules/kruki.md §7); the rules themselves live
in `reference/` (pure Python) and `kernel.py` with `model.py` (njit). The tile and token kinds below are the one home
of those codes; the observation layout and the decision codes are in `obs.py`.
"""
from __future__ import annotations

from sim.spec import Param, Ratio, SpecError, StrategyInfo, Variant

ID = "kruki"
TITLE = "Crows"
VERSION = "1"
ALIASES = ("crows",)
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 4, 4

# ---- tile kinds (KRUKI-1); GAP marks a cell without a tile -------------------------------------------------------
GAP = -1
EMPTY, TREE1, TREE2, TREE3, JUNK, TRINKETS, GRAVEYARD = range(7)
N_KINDS = 7
KIND_NAMES = ("EMPTY", "TREE1", "TREE2", "TREE3", "JUNK", "TRINKETS", "GRAVEYARD")
TILE_PARAMS = ("tiles_empty", "tiles_tree1", "tiles_tree2", "tiles_tree3", "tiles_junk", "tiles_trinkets",
               "tiles_graveyard")


def spawn_of(kind):
    """Crows a tile spawns when placed from the stack or the pool (KRUKI-14): k for TREEk, else 0."""
    return kind if TREE1 <= kind <= TREE3 else 0


# ---- special tokens (KRUKI-4) ------------------------------------------------------------------------------------
NO_GRAVEYARDS, GRAVESTONES, NO_FLOCKING, TWO_CROWS, THREE_POINTS = range(5)
N_TOKEN_KINDS = 5
PLAYABLE_TOKEN_KINDS = 4  # kinds 0..3; THREE_POINTS can never be played (KRUKI-4)
TOKEN_NAMES = ("NO_GRAVEYARDS", "GRAVESTONES", "NO_FLOCKING", "TWO_CROWS", "THREE_POINTS")
TOKEN_SLUGS = ("no_graveyards", "gravestones", "no_flocking", "two_crows", "three_points")
TOKEN_PARAMS = tuple("tokens_" + s for s in TOKEN_SLUGS)

# ---- directions: N, E, S, W (y grows downward) -------------------------------------------------------------------
N_DIR, E_DIR, S_DIR, W_DIR = range(4)
DIR_NAMES = "NESW"
DIR_DX = (0, 1, 0, -1)
DIR_DY = (-1, 0, 1, 0)

# ---- start layouts (KRUKI-7): cells in the order the 9 start tiles are placed ------------------------------------
LAYOUT_DIAMOND, LAYOUT_PLUS = 0, 1
START_CELLS = {
    LAYOUT_DIAMOND: ((0, -2), (-1, -1), (1, -1), (-2, 0), (0, 0), (2, 0), (-1, 1), (1, 1), (0, 2)),
    LAYOUT_PLUS: ((0, -2), (0, -1), (-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0), (0, 1), (0, 2)),
}
N_START = 9

PARAMS = (
    Param("start_layout", LAYOUT_DIAMOND, 0, 1, "start cells (KRUKI-7): 0 = diamond (checkerboard), 1 = plus"),
    Param("tile_draft", 0, 0, 1, "1 = variant tile-draft: take tiles from a face-up pool of P (KRUKI-12)"),
    Param("random_junk", 0, 0, 1, "1 = variant random-junk: Junk shuffled into the stack, no own Junk (KRUKI-6)"),
    Param("murder_threshold", 6, 3, 38, "crows on one tile that make a murder (KRUKI-29)"),
    Param("murder_removed", 2, 0, 2, "crows returned to the supply per murder (KRUKI-30; 0 with lots-of-crows)"),
    Param("score_cap", 0, 0, 200, "per-round cap on a player's phase-B points, 0 = no cap (KRUKI-28)"),
    Param("tokens_no_graveyards", 4, 0, 20, "NO_GRAVEYARDS tokens (KRUKI-4)"),
    Param("tokens_gravestones", 4, 0, 20, "GRAVESTONES tokens (KRUKI-4)"),
    Param("tokens_no_flocking", 4, 0, 20, "NO_FLOCKING tokens (KRUKI-4)"),
    Param("tokens_two_crows", 4, 0, 20, "TWO_CROWS tokens (KRUKI-4)"),
    Param("tokens_three_points", 4, 0, 20, "THREE_POINTS tokens (KRUKI-4)"),
    Param("token_keep_points", 2, 0, 10, "end-game points per unused playable token (KRUKI-35)"),
    Param("three_points_value", 3, 0, 10, "end-game points per unused THREE_POINTS token (KRUKI-35)"),
    Param("removed_2p", 8, 0, 100, "tiles removed unseen at setup, 2 players (KRUKI-6)"),
    Param("removed_3p", 4, 0, 100, "tiles removed unseen at setup, 3 players (KRUKI-6)"),
    Param("removed_4p", 0, 0, 100, "tiles removed unseen at setup, 4 players (KRUKI-6)"),
    Param("rj_removed_2p", 10, 0, 100, "tiles removed at setup under random-junk, 2 players"),
    Param("rj_removed_3p", 5, 0, 100, "tiles removed at setup under random-junk, 3 players"),
    Param("rj_removed_4p", 0, 0, 100, "tiles removed at setup under random-junk, 4 players"),
    Param("tiles_empty", 14, 0, 60, "EMPTY tree tiles (KRUKI-1)"),
    Param("tiles_tree1", 14, 0, 60, "trees with 1 crow"),
    Param("tiles_tree2", 9, 0, 60, "trees with 2 crows"),
    Param("tiles_tree3", 2, 0, 60, "trees with 3 crows"),
    Param("tiles_junk", 4, 0, 60, "JUNK tiles (base game: one own Junk per player, surplus to the box)"),
    Param("tiles_trinkets", 5, 0, 60, "TRINKETS tiles"),
    Param("tiles_graveyard", 5, 0, 60, "GRAVEYARD tiles"),
    Param("crows", 38, 0, 500, "crows in the supply at the start (KRUKI-2)"),
)

VARIANTS = (
    Variant("tile-draft", "each round a face-up pool of P tiles; a turn takes any pool tile (or own Junk)",
            {"tile_draft": 1}),
    Variant("random-junk", "Junk is shuffled into the stack; nobody owns a Junk; removals 10/5/0",
            {"random_junk": 1}),
    Variant("lots-of-crows", "murders return no crows to the supply (murder_removed = 0)", {"murder_removed": 0}),
    Variant("score-cap", "at most 12 phase-B points per player per round (score_cap = 12)", {"score_cap": 12}),
)

STRATEGIES = (
    StrategyInfo("random", 0, "uniform over the legal options at every decision (KRUKI-38)"),
    StrategyInfo("greedy", 1, "one ply, own points: best (cell, shiny); Junk when it gains junk_margin (KRUKI-39)",
                 {"junk_margin": 3.0}),
    StrategyInfo("blocker", 2, "greedy within `slack` of its best, then minus lambda x opponents' points (KRUKI-40)",
                 {"lambda": 1.0, "slack": 2.0, "junk_margin": 3.0}),
    StrategyInfo("weighted", 3, "linear features w1..w5 (crows, graveyard bonus, token, opponents, own Junk) "
                                "(KRUKI-41)",
                 {"w1": 1.0, "w2": 1.0, "w3": 1.5, "w4": -0.5, "w5": -2.0, "slack": 2.0}),
)
DEFAULT_STRATEGY = "greedy"  # the fastest heuristic; the choice and its tournament: docs/games/kruki.md

SEAT_COLUMNS = (
    tuple("tokens_gained_" + s for s in TOKEN_SLUGS)
    + tuple("tokens_played_" + s for s in TOKEN_SLUGS[:PLAYABLE_TOKEN_KINDS])
    + ("token_points", "junk_plays", "junk_replace", "tile_skips", "graveyard_points", "max_round_score",
       "cap_hits", "zero_rounds", "murders_chosen")
)
GAME_COLUMNS = ("rounds", "murders", "crows_removed", "crows_scattered", "crows_on_board_end", "tie_break")
LENGTH_COLUMN = "rounds"
RATIOS = (Ratio("crows_per_murder", "crows_scattered", "murders"),)
ERROR_CODES = {1: "a strategy returned an illegal action"}


# ---- default data built from the parameters ----------------------------------------------------------------------
def tile_counts(params):
    """Tiles per kind, in kind-id order (KRUKI-1)."""
    return [int(params[name]) for name in TILE_PARAMS]


def total_tiles(params):
    return sum(tile_counts(params))


def stack_kinds(params):
    """The tiles shuffled into the stack at setup, in canonical order (kind id, then copy), before the shuffle.

    Base game: every tile but JUNK (the Junk tiles are dealt as own Junk / boxed, KRUKI-6). random-junk: all tiles.
    """
    counts = tile_counts(params)
    out = []
    for kind in range(N_KINDS):
        if kind == JUNK and not params["random_junk"]:
            continue
        out.extend([kind] * counts[kind])
    return out


def removed_count(params, players):
    """Tiles removed unseen from the top of the shuffled stack (KRUKI-6, random-junk)."""
    prefix = "rj_removed_" if params["random_junk"] else "removed_"
    return int(params[f"{prefix}{players}p"])


def stack_size_after_setup(params, players):
    return len(stack_kinds(params)) - removed_count(params, players) - N_START


def token_counts(params):
    return [int(params[name]) for name in TOKEN_PARAMS]


def token_kinds(params):
    """The token stack in canonical order (kind id, then copy), before the shuffle (KRUKI-8)."""
    out = []
    for kind, n in enumerate(token_counts(params)):
        out.extend([kind] * n)
    return out


def start_cells(params):
    return START_CELLS[int(params["start_layout"])]


def board_half(params):
    """Half-width of the square board array: the total tile count (KRUKI-9 bound 2 + (N - 9), plus a gap margin)."""
    return max(total_tiles(params), 12)


def validate(params, players):
    """Cross-parameter checks (rules §7): raise SpecError with one line naming the problem and the accepted values."""
    if not 2 <= players <= 4:
        raise SpecError(f"kruki takes 2-4 players, not {players}")
    if not params["random_junk"] and params["tiles_junk"] < players:
        raise SpecError(f"kruki base game deals one own Junk per player: tiles_junk={params['tiles_junk']} is too "
                        f"few for {players} players; accepted: tiles_junk >= {players}, or variant random-junk")
    stack = stack_size_after_setup(params, players)
    if stack < players:
        prefix = "rj_removed_" if params["random_junk"] else "removed_"
        raise SpecError(f"kruki stack after setup would hold {stack} tiles; accepted: at least {players} (players) "
                        f"after {N_START} start tiles and {prefix}{players}p={removed_count(params, players)} "
                        f"removals: lower the removals or raise the tile counts")
