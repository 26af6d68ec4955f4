"""Odin's Ravens kernel's scratch arrays, their layout, the output columns and the trace event kinds.

Each thread plays its games in one `Scratch` (numba passes a namedtuple of arrays as its members):
  obs  int32[OBS_SIZE]  the public state and the deciding seat's private part (layout: obs.py)
  ws   int32[WS_SIZE]   hidden state, statistics and the kernel's own lists (sections WS_* below)
  rng  uint64[1]        the game's random stream (sim.rng)
One int32 array for all hidden state instead of many keeps calls cheap: numba counts references to every array
argument of a call, and the hottest calls (a decision, a draw) take obs and ws only.
"""
from collections import namedtuple

import numpy as np

from sim.jit import kernel_njit
from sim.spec import GAME_BASE, SEAT_BASE
from sim.games.kruki_wyscig.obs import HAND_SIZE, MAX_CAND, MAX_CARDS, MAX_LANDS, OBS_SIZE
from sim.games.kruki_wyscig.rules import GAME_COLUMNS, SEAT_COLUMNS

Scratch = namedtuple("Scratch", ("obs", "ws", "rng"))

# Output columns: a seat's at [WS_SEAT + STATS_ROW·s + S_*], the game's at [WS_GAME + G_*].
_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE, S_RANK, S_WIN60, S_FINAL_HAND, S_FLIGHTS, S_JOKERS, S_ACTIONS = (
    _SEAT[k] for k in ("score", "rank", "win60", "final_hand", "flights_played", "jokers", "actions_used_forward1"))
S_DRAWN, S_DISCARDED, S_RESHUFFLES, S_FORWARD, S_PUSHED = (
    _SEAT[k] for k in ("cards_drawn", "cards_discarded", "reshuffles", "fields_forward", "fields_pushed_back"))
(G_ERROR, G_START, G_TURNS, G_FIRST, G_FINAL_FINISH, G_TIEBREAK, G_SHARED, G_TRUNCATED, G_LEAD, G_LEAD_RUNS,
 G_DETOURS, G_REMOVED, G_LEN_START, G_LEN_END, G_GAPS, G_LOOPS, G_RERACES) = (
    _GAME[k] for k in GAME_BASE + GAME_COLUMNS)
STATS_ROW = 32  # room per seat (and for the game) in ws
assert S_ACTIONS + 7 == _SEAT["actions_used_detour"] and len(_SEAT) <= STATS_ROW and len(_GAME) <= STATS_ROW

# ws sections. A seat's private part (WS_PRIV + PRIV_SIZE·s) holds its hand and its own piles' contents, exactly as
# the observation's hand and own_fpile/own_apile (fill_private copies it).
PRIV_HAND = 0  # (HAND_SIZE) flight cards per land, then action cards per kind
PRIV_FPILE = HAND_SIZE  # (MAX_LANDS) own flight pile contents per land
PRIV_APILE = PRIV_FPILE + MAX_LANDS  # (N_KINDS) own action pile contents per kind
PRIV_SIZE = 2 * HAND_SIZE
PILE_ROW = 64  # room for one pile (flight_per_land 10 x 6 lands)
FLIGHT_ROW, ACTION_ROW = 0, 2  # pile rows: seat s's flight pile is row s, its action pile row 2 + s
WS_PRIV = 0  # (2 x PRIV_SIZE) per seat: hand and own pile contents
WS_PILES = WS_PRIV + 2 * PRIV_SIZE  # (4 x PILE_ROW) the piles' cards, top at WS_TOP + row, end at WS_END + row
WS_TOP = WS_PILES + 4 * PILE_ROW  # (4) per pile row: index of the top card
WS_END = WS_TOP + 4  # (4) per pile row: index after the bottom card
WS_STACK_TOP, WS_STACK_N = WS_END + 4, WS_END + 5  # the land stack ring: its top, its cards (RACE-4)
WS_START = WS_END + 6  # start player S (RACE-7)
WS_SIDS = WS_END + 7  # (2) strategy id per seat (StrategyInfo.sid; < 0 a plug-in)
WS_SEAT = WS_END + 10  # (2 x STATS_ROW) per-seat output columns
WS_GAME = WS_SEAT + 2 * STATS_ROW  # (STATS_ROW) per-game output columns
WS_STACK = WS_GAME + STATS_ROW  # (MAX_CARDS) the land stack, a ring of N cards
WS_HEADS = WS_STACK + MAX_CARDS  # (32) legal play heads of the seat to play (random and plug-in checks)
WS_TORD = WS_HEADS + 32  # (MAX_CARDS) track order, for target lists
WS_LIST = WS_TORD + MAX_CARDS  # (MAX_CAND) legal targets of one option
WS_UOBS = WS_LIST + MAX_CAND  # (OBS_SIZE) a plug-in's copy of the observation
WS_SIZE = WS_UOBS + OBS_SIZE

# Draw reasons (trace).
WHY_START, WHY_END, WHY_TAKE2 = 0, 1, 2
# Trace event kinds (decoded by events.describe_event): each event is TRACE_WIDTH int32s, [kind, a, ..., g].
(EV_SETUP, EV_COLUMN, EV_DRAW, EV_RESHUFFLE, EV_TURN, EV_FLIGHT, EV_JOKER, EV_ACTION, EV_STATE, EV_DISCARD,
 EV_STOP, EV_FINISH, EV_RERACE, EV_END, EV_ERROR, EV_DETOUR_CARD, EV_MIX) = range(1, 18)


@kernel_njit(nrt=True)
def new_scratch():
    """One thread's scratch arrays for play_game."""
    return Scratch(np.zeros(OBS_SIZE, np.int32), np.zeros(WS_SIZE, np.int32), np.zeros(1, np.uint64))
