"""Crows (`kruki`): the observation a strategy decides from, its decision codes and option codes.

The plug-in contract
--------------------
A strategy is called as `choose(obs, params, rng) -> action` (docs/plugins.md) only at a decision with two or more
options, where
- `obs` is the int32 observation below: the public state plus the deciding seat's own token kinds (KRUKI-37),
  nothing hidden. It is read-only: the kernel keeps its board planes up to date between calls;
- `params` is the seat's float64 parameter row; `rng` the game's stream (`sim.rng.below`), for strategies that
  randomise;
- the action is an index into the decision's option list `obs[obs[O_AT_OPT_A] + i]` (i < obs[O_N_OPTIONS]); for a
  TWO_CROWS source pair the second cell is `obs[obs[O_AT_OPT_B] + i]`. An index out of range stops the game with
  error code 1.

Cells are flat indices into the square board of side `obs[O_SIDE]` = 2*H+1 (H = `obs[O_HALF]`):
`cell = (y + H) * side + (x + H)`, so ascending cells are raster order (y, then x). The neighbours of a cell are
cell - side (N), + 1 (E), + side (S), - 1 (W); the board never comes near the array's edge, so a walk along a row or
a column always meets a gap first.

Observation layout, int32[obs_size(...)] (fixed header, then sections whose start is stored in the header):
  0 decision (D_*)   1 seat   2 players   3 round (0-based)   4 first_player   5 stack_size   6 token_stack_size
  7 supply   8 no_graveyards (NO_GRAVEYARDS played this round)   9 half   10 side   11 n_tiles   12 n_frontier
  13 n_options   14 pool_len
  context (-1 where it does not apply):
  15 ctx_tile (kind in hand, D_CELL)   16 ctx_spawn (crows its kind spawns, before the supply limit)   17 ctx_own
  (1 = own Junk)   18 ctx_replaced (1 = re-placing a lifted tile)   19 ctx_token (D_TARGET / D_PAIR / D_DEST)
  20 ctx_pair_a   21 ctx_pair_b (D_DEST)   22 ctx_murder (cell, D_SPIRAL)   23 ctx_crows   24 ctx_chooser
  section starts: 25 tiles (n_tiles cells, raster)   26 frontier (legal cells KRUKI-13, raster)   27 kind plane
  (GAP = -1, else rules kind id)   28 crows plane   29 shiny plane (owner seat, -1)   30 stones plane (GRAVESTONES
  on the tile this round)   31 frozen plane (NO_FLOCKING on the tile this round)   32 option list A
  33 option list B (second cell of a TWO_CROWS pair)
  per seat (4 slots each): 34 moved   38 shiny_of (cell, -1)   42 scores   46 tokens_held (count)   50 junk_unused
  54 pool (4, kinds, face up, in the order they entered)   58 unseen (7: stack + removed tiles per kind)
  65 own_tokens (5: held tokens of the deciding seat per kind)   70 rules (the int64 rule vector, rules.PARAMS order)
Each plane is side*side int32 long. Tile kinds and token kinds are the ids in `rules`.

Decisions and their options, in canonical order (the reference's table, sim/games/kruki/reference/__init__.py):
  D_SOURCE 0   SRC_DRAW 0 · SRC_JUNK 1 · SRC_POOL+i = 3+i (tile-draft) · SRC_SKIP 2 (the source is empty)
  D_JUNK_MODE 1  JUNK_NORMAL 0 · JUNK_REPLACE 1
  D_REPLACE 2  cells of tiles without crows and without a shiny
  D_CELL 3     legal cells (the frontier) for the tile in hand
  D_SHINY 4    legal shiny tiles (not JUNK, no crows, no shiny)
  D_TOKEN 5    TOKEN_PASS (-1) · each held playable kind with a legal target, kind-id order
  D_TARGET 6   GRAVESTONES: every tile; NO_FLOCKING: every tile with crows
  D_PAIR 7     TWO_CROWS source pairs (a, b), a <= b (a == b needs 2 crows), only pairs with a destination
  D_DEST 8     tiles without a shiny that are not a source
  D_SPIRAL 9   0..3 = N, E, S, W
Cell and tile lists are in raster order.
"""
from sim.jit import kernel_njit
from sim.games.kruki.rules import PARAMS, STRATEGIES

# ---- decisions and option codes ----------------------------------------------------------------------------------
D_SOURCE, D_JUNK_MODE, D_REPLACE, D_CELL, D_SHINY, D_TOKEN, D_TARGET, D_PAIR, D_DEST, D_SPIRAL = range(10)
DECISION_NAMES = ("source", "junk_mode", "replace", "cell", "shiny", "token", "target", "pair", "dest", "spiral")
SRC_DRAW, SRC_JUNK, SRC_SKIP, SRC_POOL = 0, 1, 2, 3  # SRC_POOL + i = pool tile i
JUNK_NORMAL, JUNK_REPLACE = 0, 1
TOKEN_PASS = -1

# Shipped strategy ids (StrategyInfo.sid in rules.STRATEGIES), as the kernel dispatches on them.
_SID = {s.name: s.sid for s in STRATEGIES}
RANDOM, GREEDY, BLOCKER, WEIGHTED = _SID["random"], _SID["greedy"], _SID["blocker"], _SID["weighted"]

# ---- observation layout ------------------------------------------------------------------------------------------
(O_DECISION, O_SEAT, O_PLAYERS, O_ROUND, O_FIRST_PLAYER, O_STACK_SIZE, O_TOKEN_STACK, O_SUPPLY, O_NO_GRAVEYARDS,
 O_HALF, O_SIDE, O_N_TILES, O_N_FRONTIER, O_N_OPTIONS, O_POOL_LEN) = range(15)
(O_CTX_TILE, O_CTX_SPAWN, O_CTX_OWN, O_CTX_REPLACED, O_CTX_TOKEN, O_CTX_PAIR_A, O_CTX_PAIR_B, O_CTX_MURDER,
 O_CTX_CROWS, O_CTX_CHOOSER) = range(15, 25)
(O_AT_TILES, O_AT_FRONTIER, O_AT_KIND, O_AT_CROWS, O_AT_SHINY, O_AT_STONES, O_AT_FROZEN, O_AT_OPT_A,
 O_AT_OPT_B) = range(25, 34)
O_MOVED, O_SHINY_OF, O_SCORES, O_TOKENS_HELD, O_JUNK_UNUSED = 34, 38, 42, 46, 50
O_POOL, O_UNSEEN, O_OWN_TOKENS, O_RULES = 54, 58, 65, 70
OBS_HEADER = O_RULES + len(PARAMS)
# Board planes, in this order from obs[O_AT_KIND], each side*side long (the kernel's board uses the same order):
# plane p of cell c is at p * side^2 + c.
PL_KIND, PL_CROWS, PL_SHINY, PL_STONES, PL_FROZEN = range(5)
N_PLANES = 5

# ---- the rule vector obs[O_RULES + R_*] (rules.PARAMS order; the kernel's `rp`) ------------------------------------
_RI = {p.name: i for i, p in enumerate(PARAMS)}
R_START_LAYOUT, R_TILE_DRAFT, R_RANDOM_JUNK = _RI["start_layout"], _RI["tile_draft"], _RI["random_junk"]
R_MURDER_THRESHOLD, R_MURDER_REMOVED, R_SCORE_CAP = _RI["murder_threshold"], _RI["murder_removed"], _RI["score_cap"]
R_TOKEN_KEEP, R_THREE_POINTS = _RI["token_keep_points"], _RI["three_points_value"]
R_TILES_EMPTY, R_CROWS = _RI["tiles_empty"], _RI["crows"]  # the 7 tile counts follow R_TILES_EMPTY in kind order
R_REMOVED_2P, R_RJ_REMOVED_2P = _RI["removed_2p"], _RI["rj_removed_2p"]  # then 3p, 4p


@kernel_njit()
def max_options(n_total):
    """The longest option list of any decision with n_total tiles in the game (TWO_CROWS pairs dominate)."""
    return max(4 * n_total + 8, n_total * (n_total + 1) // 2 + 1, 8)


@kernel_njit()
def obs_size(n_total, side):
    return OBS_HEADER + (n_total + 1) + (4 * n_total + 8) + N_PLANES * side * side + 2 * max_options(n_total)


@kernel_njit()
def obs_offsets(n_total, side):
    """Section starts: tiles, frontier, planes (kind first), option list A, option list B."""
    at_tiles = OBS_HEADER
    at_front = at_tiles + n_total + 1
    at_kind = at_front + 4 * n_total + 8
    at_opt_a = at_kind + N_PLANES * side * side
    return at_tiles, at_front, at_kind, at_opt_a, at_opt_a + max_options(n_total)
