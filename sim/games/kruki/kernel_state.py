"""Crows (`kruki`) kernel state: the scratch arrays one block of games shares, the output columns, the board's
mutations (each mirrored into the observation) and the decision call (the reference's `ask`).

Board: a square array of side 2H+1 (H = rules.board_half), cell = (y + H) * side + (x + H), five int32 planes in
`board` (obs.PL_* order: kind | crows | shiny owner | GRAVESTONES | NO_FLOCKING; plane p of cell c at p * side^2 + c;
GAP = -1 / no shiny = -1). `tiles` holds the occupied cells in raster order, `front` the legal cells of KRUKI-13
(gaps with an edge neighbour, raster order), `nadj[c]` the number of edge neighbours of c that are tiles.
"""
from collections import namedtuple

import numpy as np
from numba import types

from sim.jit import kernel_njit
from sim.games.kruki.obs import (N_PLANES, O_AT_FRONTIER, O_AT_KIND, O_AT_OPT_A, O_AT_OPT_B, O_AT_TILES, O_CTX_CHOOSER,
                                 O_CTX_CROWS, O_CTX_MURDER, O_CTX_OWN, O_CTX_PAIR_A, O_CTX_PAIR_B, O_CTX_REPLACED,
                                 O_CTX_SPAWN, O_CTX_TILE, O_CTX_TOKEN, O_DECISION, O_FIRST_PLAYER, O_HALF,
                                 O_JUNK_UNUSED, O_MOVED, O_N_FRONTIER, O_N_OPTIONS, O_N_TILES, O_NO_GRAVEYARDS,
                                 O_OWN_TOKENS, O_PLAYERS, O_POOL, O_POOL_LEN, O_ROUND, O_RULES, O_SCORES, O_SEAT,
                                 O_SHINY_OF, O_SIDE, O_STACK_SIZE, O_SUPPLY, O_TOKEN_STACK, O_TOKENS_HELD, O_UNSEEN,
                                 PL_CROWS, PL_KIND, PL_SHINY, R_CROWS, R_TILES_EMPTY, RANDOM, obs_offsets, obs_size)
from sim.games.kruki.rules import GAME_COLUMNS, GAP, MAX_PLAYERS, N_KINDS, N_TOKEN_KINDS, SEAT_COLUMNS
from sim.kernel_util import NativeCall, record
from sim.rng import below
from sim.spec import GAME_BASE, SEAT_BASE
from strategies.kruki import choose_builtin, fwork_len, work_len

# ---- output columns ----------------------------------------------------------------------------------------------
_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE, S_RANK = _SEAT["score"], _SEAT["rank"]
S_GAINED = _SEAT["tokens_gained_no_graveyards"]  # 5 columns in token-kind order
S_PLAYED = _SEAT["tokens_played_no_graveyards"]  # 4 columns
(S_TOKEN_POINTS, S_JUNK_PLAYS, S_JUNK_REPLACE, S_TILE_SKIPS, S_GRAVE_POINTS, S_MAX_ROUND, S_CAP_HITS, S_ZERO,
 S_MURDERS_CHOSEN) = (_SEAT[k] for k in ("token_points", "junk_plays", "junk_replace", "tile_skips",
                                         "graveyard_points", "max_round_score", "cap_hits", "zero_rounds",
                                         "murders_chosen"))
G_ERROR, G_ROUNDS, G_MURDERS, G_REMOVED, G_SCATTERED, G_ON_BOARD, G_TIE = (
    _GAME[k] for k in ("error", "rounds", "murders", "crows_removed", "crows_scattered", "crows_on_board_end",
                       "tie_break"))
assert S_PLAYED == S_GAINED + 5 and S_TOKEN_POINTS == S_PLAYED + 4
ERROR_ILLEGAL = 1  # rules.ERROR_CODES: a strategy returned an illegal action

# The shipped strategies' dispatch (sid, obs, params, rng, work, fwork) -> option index, as a first-class function.
BUILTIN_SIGNATURE = types.int64(types.int64, types.int32[::1], types.float64[::1], types.uint64[::1],
                                types.int32[::1], types.float64[::1])
BUILTIN_TYPE = types.FunctionType(BUILTIN_SIGNATURE)
BUILTIN = NativeCall(choose_builtin, BUILTIN_SIGNATURE)

# ---- scalar state ------------------------------------------------------------------------------------------------
# Game scalars g(GS_LEN): crow supply, stack position and end, tiles removed at setup, token stack position and end,
# first player, rounds completed, pool length, NO_GRAVEYARDS played this round, tile / frontier / token-cell counts,
# decisions asked, the decision to stop at (tests, -1 = none), board half and side, 1 once stopped.
(GS_SUPPLY, GS_POS, GS_END, GS_N_REMOVED, GS_TPOS, GS_TEND, GS_FIRST, GS_ROUND, GS_POOL_LEN, GS_NG, GS_N_TILES,
 GS_N_FRONT, GS_N_TCELLS, GS_DECISIONS, GS_STOP, GS_HALF, GS_SIDE, GS_STOPPED) = range(18)
GS_LEN = 18
# Seat state ss(SS_LEN, MAX_PLAYERS), one row each: score, shiny cell (-1), moved this round, own Junk unused, rank key.
SS_SCORE, SS_SHINY, SS_MOVED, SS_JUNK, SS_KEY = range(5)
SS_LEN = 5
N_TCELLS = 32  # cells holding GRAVESTONES / NO_FLOCKING in one round (at most one token per turn)

# Trace event kinds (docs/games/kruki.md): [kind, a, b, c, d, e, f, g].
(EV_START_TILE, EV_ROUND, EV_POOL, EV_TURN, EV_DECIDE, EV_SOURCE, EV_PLACE, EV_REPLACE, EV_SHINY, EV_NO_SHINY,
 EV_TOKEN, EV_TWO_CROWS, EV_FLIGHT, EV_SCORE, EV_MURDER, EV_END_ROUND, EV_END, EV_ILLEGAL) = range(1, 19)

# The working arrays of one block of games (N = tiles in the game, a = side^2), built once by make_scratch.
Scratch = namedtuple("Scratch", (
    "board",   # int32 (N_PLANES * a): the kernel's own board, plane p of cell c at p * a + c
    "nadj",    # int8 (a): edge neighbours of each cell that are tiles
    "tiles",   # int32 (N + 1): occupied cells, raster order, g[GS_N_TILES] of them
    "front",   # int32 (4N + 8): legal cells of KRUKI-13, raster order, g[GS_N_FRONT] of them
    "stack",   # int8 (stack tiles): this game's shuffled stack: removed | 9 start tiles | stack, top at g[GS_POS]
    "tokens",  # int8 (token stack): this game's shuffled token stack, top at g[GS_TPOS]
    "hands",   # int64 (MAX_PLAYERS, N_TOKEN_KINDS): tokens held per seat and kind
    "g",       # int64 (GS_LEN): game scalars GS_*
    "ss",      # int64 (SS_LEN, MAX_PLAYERS): seat state SS_* per seat
    "pool",    # int32 (MAX_PLAYERS): the tile-draft pool in the order the tiles entered it, g[GS_POOL_LEN] of them
    "unseen",  # int64 (N_KINDS): stack + removed tiles per kind
    "tcells",  # int32 (N_TCELLS): cells with a GRAVESTONES / NO_FLOCKING token this round, g[GS_N_TCELLS] of them
    "moves",   # int32 (3, 4N + 8): phase B flight moves: from cell | to cell | crows
    "mlist",   # int32 (N + 1): phase C murder tiles in murder order; in phase A, a TWO_CROWS token's crow tiles
    "slog",    # int32 (crows + 16): scatter log: count, then the cells that received a crow
    "optbuf",  # int32 (8): source / token options before they go to the observation
    "obs",     # int32 (obs_size): the observation (sim/games/kruki/obs.py)
    "work",    # int32 (work_len): the heuristics' scratch (strategies/kruki_common.py)
    "fwork",   # float64 (fwork_len): the heuristics' float scratch
    "rng",     # uint64 (1): the game's random stream
))

# What one game plays with: the rule vector, the seats and their strategies, the output rows and the event log.
Table = namedtuple("Table", (
    "rp",         # int64 (len(rules.PARAMS)): the rule vector, obs.R_* indices
    "players",    # int: seats in the game
    "sids",       # int64 (sim.spec.MAX_SEATS): strategy id per seat (StrategyInfo.sid, < 0 = plug-in)
    "sparams",    # float64 (sim.spec.MAX_SEATS, k): strategy parameters per seat
    "users",      # sim.spec.MAX_SEATS plug-in functions (USER_FNS_TYPE)
    "builtin",    # the shipped strategies' dispatch, BUILTIN_TYPE (called through its address, see NativeCall)
    "seat_row",   # int32 (players, seat columns): this game's per-seat outputs
    "game_row",   # int32 (game columns): this game's outputs
    "trace",      # int32 (cap, TRACE_WIDTH): the event log, 0 rows unless a trace is wanted
    "trace_len",  # int64 (1): events recorded
))


@kernel_njit(nrt=True)
def make_scratch(rp, n_stack, n_tokens, players):
    """A block's Scratch, sized from the rule vector, with an empty board and the observation's fixed header."""
    n = 0
    for k in range(N_KINDS):
        n += rp[R_TILES_EMPTY + k]
    half = max(n, 12)  # rules.board_half
    side = 2 * half + 1
    a = side * side
    board = np.zeros(N_PLANES * a, np.int32)
    board[PL_KIND * a:(PL_KIND + 1) * a] = GAP
    board[PL_SHINY * a:(PL_SHINY + 1) * a] = -1
    obs = np.zeros(obs_size(n, side), np.int32)
    at_tiles, at_front, at_kind, at_opt_a, at_opt_b = obs_offsets(n, side)
    obs[at_kind:at_kind + N_PLANES * a] = board
    obs[O_AT_TILES] = at_tiles
    obs[O_AT_FRONTIER] = at_front
    for p in range(N_PLANES):  # O_AT_KIND .. O_AT_FROZEN
        obs[O_AT_KIND + p] = at_kind + p * a
    obs[O_AT_OPT_A] = at_opt_a
    obs[O_AT_OPT_B] = at_opt_b
    obs[O_PLAYERS] = players
    obs[O_HALF] = half
    obs[O_SIDE] = side
    for i in range(rp.shape[0]):
        obs[O_RULES + i] = rp[i]
    g = np.zeros(GS_LEN, np.int64)
    g[GS_HALF] = half
    g[GS_SIDE] = side
    g[GS_STOP] = -1
    return Scratch(board, np.zeros(a, np.int8), np.zeros(n + 1, np.int32), np.zeros(4 * n + 8, np.int32),
                   np.zeros(max(n_stack, 1), np.int8), np.zeros(max(n_tokens, 1), np.int8),
                   np.zeros((MAX_PLAYERS, N_TOKEN_KINDS), np.int64), g, np.zeros((SS_LEN, MAX_PLAYERS), np.int64),
                   np.zeros(MAX_PLAYERS, np.int32), np.zeros(N_KINDS, np.int64), np.zeros(N_TCELLS, np.int32),
                   np.zeros((3, 4 * n + 8), np.int32), np.zeros(n + 1, np.int32),
                   np.zeros(rp[R_CROWS] + 16, np.int32), np.zeros(8, np.int32), obs,
                   np.zeros(work_len(n, side, rp[R_CROWS]), np.int32),
                   np.zeros(fwork_len(n, side, rp[R_CROWS]), np.float64), np.zeros(1, np.uint64))


# ---- the board, mirrored into the observation ----------------------------------------------------------------------
@kernel_njit(inline="always")
def put(s, ob, i, v):
    """Set board entry i (plane * side^2 + cell) in the kernel's board and in the observation's mirror at ob."""
    s.board[i] = v
    s.obs[ob + i] = v


@kernel_njit(inline="always")
def add_tile(s, ob, c, kind):
    """A tile of `kind` on gap c: the tile list, the frontier (KRUKI-13) and the neighbour counts follow."""
    g, tiles, front, nadj, B = s.g, s.tiles, s.front, s.nadj, s.board
    side = g[GS_SIDE]
    a = side * side
    put(s, ob, PL_KIND * a + c, kind)
    n = g[GS_N_TILES]
    i = n
    while i > 0 and tiles[i - 1] > c:
        tiles[i] = tiles[i - 1]
        i -= 1
    tiles[i] = c
    g[GS_N_TILES] = n + 1
    nf = g[GS_N_FRONT]
    if nadj[c] > 0:  # c was a legal cell: it leaves the frontier
        j = 0
        while front[j] != c:
            j += 1
        for k in range(j, nf - 1):
            front[k] = front[k + 1]
        nf -= 1
    for e in range(4):
        nb = c - side if e == 0 else (c + 1 if e == 1 else (c + side if e == 2 else c - 1))
        nadj[nb] += 1
        if nadj[nb] == 1 and B[PL_KIND * a + nb] == GAP:
            i = nf
            while i > 0 and front[i - 1] > nb:
                front[i] = front[i - 1]
                i -= 1
            front[i] = nb
            nf += 1
    g[GS_N_FRONT] = nf


@kernel_njit(inline="always")
def place(s, ob, c, kind, spawn):
    """KRUKI-13/14: the tile goes on c and receives min(spawn, supply) crows (KRUKI-2). Returns the crows."""
    add_tile(s, ob, c, kind)
    g = s.g
    n = min(spawn, g[GS_SUPPLY])
    if n > 0:
        a = g[GS_SIDE] * g[GS_SIDE]
        put(s, ob, PL_CROWS * a + c, s.board[PL_CROWS * a + c] + n)
        g[GS_SUPPLY] -= n
    return n


@kernel_njit(inline="always")
def cell_x(g, c):
    side = g[GS_SIDE]
    return c - (c // side) * side - g[GS_HALF]


@kernel_njit(inline="always")
def cell_y(g, c):
    return c // g[GS_SIDE] - g[GS_HALF]


# ---- decisions ---------------------------------------------------------------------------------------------------
@kernel_njit(inline="always")
def fill_obs(s, players, seat, decision, n_opt, c_tile, c_spawn, c_own, c_replaced, c_token, c_pa, c_pb, c_murder,
             c_crows, c_chooser):
    """The per-decision part of the observation (KRUKI-37): public state, the seat's own token kinds and the
    decision's context. The board planes are mirrored as they change; the option list is written by the caller."""
    obs, g, ss, hands = s.obs, s.g, s.ss, s.hands
    obs[O_DECISION] = decision
    obs[O_SEAT] = seat
    obs[O_PLAYERS] = players
    obs[O_ROUND] = g[GS_ROUND]
    obs[O_FIRST_PLAYER] = g[GS_FIRST]
    obs[O_STACK_SIZE] = g[GS_END] - g[GS_POS]
    obs[O_TOKEN_STACK] = g[GS_TEND] - g[GS_TPOS]
    obs[O_SUPPLY] = g[GS_SUPPLY]
    obs[O_NO_GRAVEYARDS] = g[GS_NG]
    obs[O_N_OPTIONS] = n_opt
    nt = g[GS_N_TILES]
    obs[O_N_TILES] = nt
    at = obs[O_AT_TILES]
    for i in range(nt):
        obs[at + i] = s.tiles[i]
    nf = g[GS_N_FRONT]
    obs[O_N_FRONTIER] = nf
    at = obs[O_AT_FRONTIER]
    for i in range(nf):
        obs[at + i] = s.front[i]
    obs[O_POOL_LEN] = g[GS_POOL_LEN]
    for i in range(MAX_PLAYERS):
        obs[O_POOL + i] = s.pool[i] if i < g[GS_POOL_LEN] else -1
    for p in range(MAX_PLAYERS):
        if p < players:
            obs[O_MOVED + p] = ss[SS_MOVED, p]
            obs[O_SHINY_OF + p] = ss[SS_SHINY, p]
            obs[O_SCORES + p] = ss[SS_SCORE, p]
            obs[O_TOKENS_HELD + p] = hands[p, 0] + hands[p, 1] + hands[p, 2] + hands[p, 3] + hands[p, 4]
            obs[O_JUNK_UNUSED + p] = ss[SS_JUNK, p]
        else:
            obs[O_MOVED + p] = obs[O_SHINY_OF + p] = obs[O_SCORES + p] = -1
            obs[O_TOKENS_HELD + p] = obs[O_JUNK_UNUSED + p] = -1
    for k in range(N_KINDS):
        obs[O_UNSEEN + k] = s.unseen[k]
    for k in range(N_TOKEN_KINDS):
        obs[O_OWN_TOKENS + k] = hands[seat, k]
    obs[O_CTX_TILE] = c_tile
    obs[O_CTX_SPAWN] = c_spawn
    obs[O_CTX_OWN] = c_own
    obs[O_CTX_REPLACED] = c_replaced
    obs[O_CTX_TOKEN] = c_token
    obs[O_CTX_PAIR_A] = c_pa
    obs[O_CTX_PAIR_B] = c_pb
    obs[O_CTX_MURDER] = c_murder
    obs[O_CTX_CROWS] = c_crows
    obs[O_CTX_CHOOSER] = c_chooser


@kernel_njit(inline="always")
def wants_obs(t, s, seat, n):
    """The option list and observation are built only for a seat that reads them (not `random`)."""
    return n >= 2 and (t.sids[seat] != RANDOM or s.g[GS_DECISIONS] == s.g[GS_STOP])


@kernel_njit(inline="always")
def offer(t, s, seat, options, n):
    """options[:n] into the observation's option list, for a seat that reads it (`wants_obs`)."""
    if wants_obs(t, s, seat, n):
        at_a = s.obs[O_AT_OPT_A]
        for k in range(n):
            s.obs[at_a + k] = options[k]


@kernel_njit()
def _ask(t, s, seat, decision, n, c_tile, c_spawn, c_own, c_replaced, c_token, c_pa, c_pb, c_murder, c_crows,
         c_chooser):
    """One decision (the reference's `ask`) for a seat that is not a `random` one without a trace: the observation
    is filled in (the caller wrote the option list) and the strategy asked. Returns the index, -1 when a plug-in
    broke the rules (error code 1), -2 when a test asked to stop here."""
    g = s.g
    sid = t.sids[seat]
    if sid != RANDOM or g[GS_DECISIONS] == g[GS_STOP]:
        fill_obs(s, t.players, seat, decision, n, c_tile, c_spawn, c_own, c_replaced, c_token, c_pa, c_pb, c_murder,
                 c_crows, c_chooser)
        if g[GS_DECISIONS] == g[GS_STOP]:
            g[GS_STOPPED] = 1
            return -2
    g[GS_DECISIONS] += 1
    if sid == RANDOM:
        i = below(s.rng, n)  # KRUKI-38
    elif sid > 0:
        i = t.builtin(sid, s.obs, t.sparams[seat], s.rng, s.work, s.fwork)
    else:
        i = t.users[seat](s.obs, t.sparams[seat], s.rng)
        if i < 0 or i >= n:
            t.game_row[G_ERROR] = ERROR_ILLEGAL  # a plug-in broke the rules; shipped strategies are tested
            if t.trace.shape[0] > 0:
                record(t.trace, t.trace_len, EV_ILLEGAL, seat, decision, n, i, 0, 0, 0)
            return -1
    if t.trace.shape[0] > 0:
        record(t.trace, t.trace_len, EV_DECIDE, seat, decision, n, i, 0, 0, 0)
    return i


@kernel_njit(inline="always")
def decide(t, s, seat, decision, n, c_tile, c_spawn, c_own, c_replaced, c_token, c_pa, c_pb, c_murder, c_crows,
           c_chooser):
    """One decision among n options: a single option is taken without asking and draws nothing; a `random` seat
    draws below(n) without a call (KRUKI-38); otherwise `_ask`. Returns the index, or < 0 to stop the game."""
    if n < 2:
        return 0
    g = s.g
    if t.sids[seat] == RANDOM and t.trace.shape[0] == 0 and g[GS_DECISIONS] != g[GS_STOP]:
        g[GS_DECISIONS] += 1
        return below(s.rng, n)
    return _ask(t, s, seat, decision, n, c_tile, c_spawn, c_own, c_replaced, c_token, c_pa, c_pb, c_murder, c_crows,
                c_chooser)
