"""The Sen kernel's state layout and its pile primitives (docs/rules/sen.md SEN-12, SEN-13), njit.

The state of a game in progress is a `Scratch` of arrays. Every seat's observation row (`sim.games.sen.obs`) is
part of it: its knowledge-table section IS the kernel's knowledge table K_p (SEN-22), and the public counters in it
(face-up counts, own turns, totals) are updated in every row as they change.
"""
from collections import namedtuple

import numpy as np

from sim.jit import kernel_njit
from sim.kernel_util import record
from sim.rng import shuffle
from sim.games.sen.obs import O_FACEUP, R_EMPTY_PILE
from sim.games.sen.rules import (ERROR_CHAIN, GAME_COLUMNS, MAX_TURN_DRAWS, N_CODES, SEAT_COLUMNS,
                                 TAKE2)
from sim.spec import GAME_BASE, SEAT_BASE

_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE = _SEAT["score"]
S_CALLS, S_PENALTIES, S_ROUND_LOWS, S_UNKNOWN_AT_CALL, S_SWAPPED = (_SEAT[k] for k in SEAT_COLUMNS)
(G_ERROR, G_ROUNDS, G_CAPPED_ROUNDS, G_CAPPED, G_TURNS, G_RESHUFFLES, G_CALLS, G_CALL_TURN_SUM, G_CALLER_LOWEST,
 G_PENALTIES, G_FACEUP_TAKES, G_DRAWS, G_CARDS_DRAWN, G_DRAWN_TAKE2, G_DRAWN_PEEK, G_DRAWN_SWAP, G_USED_TAKE2,
 G_USED_PEEK, G_USED_SWAP, G_SPECIALS_IN_DREAMS, G_REPLACEMENTS, G_ROUND_SCORE_SUM, G_SEAT_ROUNDS, G_MIN_ROUND,
 G_MAX_ROUND, G_WINNER_MARGIN) = (_GAME[k] for k in GAME_BASE + GAME_COLUMNS)
assert GAME_COLUMNS[-1] == "winner_margin" and SEAT_COLUMNS[-1] == "swapped_against"

# Per-thread working arrays of play_game, one set per block of games.
Scratch = namedtuple("Scratch", (
    "obs2d",  # int32(MAX_SEATS, OBS_SIZE): every seat's observation row, kept current (K_p lives in it)
    "dreams",  # int8(MAX_SEATS, MAX_DREAM): the true card in each seat's slots
    "piles",  # int8(2, deck size): row FACEDOWN (top = last of x[X_FD_N]), row FACEUP (bottom -> top, x[X_FU_N])
    "x",  # int64(X_SIZE): the scalar game state, X_* below
    "totals",  # int64(MAX_SEATS): total ravens per seat (SEN-20)
    "raw",  # int64(MAX_SEATS): a round's ravens before the caller penalty; at the end the ranking keys
    "scores",  # int64(MAX_SEATS): a round's scores (SEN-19)
    "rng",  # uint64(1): the game's random stream
    "builtin",  # the shipped strategies' dispatch (sim.kernel_util.BUILTIN_TYPE)
    "trace",  # int32(cap, TRACE_WIDTH): the event log; 0 rows unless a trace is wanted
    "trace_len",  # int64(1): events recorded (counts past the cap)
))
FACEDOWN, FACEUP = 0, 1  # the rows of `piles`

# Scalar game state, int64 x(X_SIZE).
(X_FD_N, X_FU_N, X_CALLER, X_ROUND_TURN, X_IN_FINAL, X_FINAL_LEFT, X_END, X_TURN_DRAWS, X_FIRST, X_ROUNDS_PLAYED,
 X_ERROR, X_CAPPED, X_TRACING) = range(13)
X_SIZE = X_TRACING + 1
# How a round ended (X_END; 0 = still going).
END_FINAL, END_CALL, END_DECK_OUT, END_CAP = 1, 2, 3, 4
NONE = -1  # "no card" (a draw that found nothing), "no seat", "no held card"

# Trace event kinds (decoded by events.describe_event): each event is TRACE_WIDTH int32s, [kind, a, b, c, d, e, f, g].
EV_ROUND_START = 1  # round, first player, face-down count, face-up top
EV_DEAL = 2  # seat, slot cards 0..5 (-1 padded)
EV_TURN = 3  # seat, turn number in the round (1-based), final turn flag
EV_DECIDE = 4  # seat, decision kind, action, dream size (to decode the action)
EV_ILLEGAL = 5  # seat, decision kind, action, dream size (a plug-in's illegal action; the game stops with error 1)
EV_TAKE_FACEUP = 6  # seat, card, slot, displaced card
EV_DRAW = 7  # seat, card (-1: nothing to draw)
EV_PLACE = 8  # seat, card, slot, displaced card
EV_DISCARD = 9  # seat, card
EV_USE = 10  # seat, card
EV_TAKE2_DRAW = 11  # seat, cards found, first card, second card
EV_REJECT = 12  # seat, rejected card, kept card
EV_PEEK = 13  # seat, target seat, slot, card seen
EV_SWAP = 14  # seat, own slot, target seat, target slot
EV_CALL = 15  # seat, turn number in the round, own unknown slots
EV_RESHUFFLE = 16  # cards reshuffled
EV_ROUND_END = 17  # reason (END_*), caller, turns in the round
EV_REVEAL = 18  # seat, slot cards 0..5 (-1 padded), before replacement
EV_REPLACE = 19  # seat, slot, removed special, drawn card
EV_SCORE = 20  # seat, raw score, penalty, round score, total, caller


@kernel_njit(inline="always")
def all_rows_add(obs2d, players, col, delta):
    """A public counter changed: update it in every seat's observation row."""
    for r in range(players):
        obs2d[r, col] += delta


@kernel_njit(inline="always")
def push_faceup(w, players, c):
    """A card goes face up (SEN-12); everyone sees it (SEN-23.5, SEN-24)."""
    n = w.x[X_FU_N]
    w.piles[FACEUP, n] = c
    w.x[X_FU_N] = n + 1
    all_rows_add(w.obs2d, players, O_FACEUP + c, 1)


@kernel_njit()
def reshuffle(w, players, game_row):
    """SEN-13: every face-up card except the top is shuffled into a new face-down pile (top = last)."""
    piles, x, obs2d = w.piles, w.x, w.obs2d
    n = x[X_FU_N] - 1
    top = piles[FACEUP, n]
    for k in range(n):
        piles[FACEDOWN, k] = piles[FACEUP, k]
    shuffle(w.rng, piles[FACEDOWN], n)
    piles[FACEUP, 0] = top
    x[X_FU_N] = 1
    x[X_FD_N] = n
    for r in range(players):
        for c in range(N_CODES):
            obs2d[r, O_FACEUP + c] = 0
        obs2d[r, O_FACEUP + top] = 1
    game_row[G_RESHUFFLES] += 1
    if x[X_TRACING]:
        record(w.trace, w.trace_len, EV_RESHUFFLE, n, 0, 0, 0, 0, 0, 0)


@kernel_njit(inline="always")
def draw(rp, w, players, game_row, scoring):
    """The top face-down card, or NONE (SEN-13); counts turn draws unless `scoring`. Sets error 2 past the cap."""
    x = w.x
    if x[X_FD_N] == 0:
        if rp[R_EMPTY_PILE] == 1 and not scoring:  # SEN-13 deck-out-ends: no reshuffle during play
            return NONE
        if x[X_FU_N] <= 1:  # "Precise readings": nothing to reshuffle, the draw finds nothing
            return NONE
        reshuffle(w, players, game_row)
    n = x[X_FD_N] - 1
    c = np.int64(w.piles[FACEDOWN, n])
    x[X_FD_N] = n
    if not scoring:
        x[X_TURN_DRAWS] += 1
        if x[X_TURN_DRAWS] > MAX_TURN_DRAWS:
            x[X_ERROR] = ERROR_CHAIN
            return NONE
        game_row[G_CARDS_DRAWN] += 1
        if c >= TAKE2:  # specials_drawn_* counts every special drawn in a turn (§5)
            game_row[G_DRAWN_TAKE2 + c - TAKE2] += 1
    return c


@kernel_njit(inline="always")
def _slot_or_none(dreams, q, s, ds):
    """Slot s of seat q's dream, or NONE past the dream size (trace padding)."""
    return np.int64(dreams[q, s]) if s < ds else NONE


@kernel_njit()
def record_dream(w, kind, q, ds):
    """A dream as one trace event: seat q, its slot cards, -1 padded to MAX_DREAM."""
    d = w.dreams
    record(w.trace, w.trace_len, kind, q, _slot_or_none(d, q, 0, ds), _slot_or_none(d, q, 1, ds),
           _slot_or_none(d, q, 2, ds), _slot_or_none(d, q, 3, ds), _slot_or_none(d, q, 4, ds),
           _slot_or_none(d, q, 5, ds))
