"""Kruki / Odin's Ravens track edits in njit code (docs/rules/kruki-wyscig.md RACE-11, RACE-12, RACE-20..32): local
changes of the field records and links inside the observation array, without legality checks (the kernel checks
first, with model.py). Only the kernel edits the track; strategies read it.
"""
import numpy as np

from sim.jit import kernel_njit
from sim.games.kruki_wyscig.model import fin, fwd, insertion_point
from sim.games.kruki_wyscig.obs import (
    O_CARD_FA, O_CARD_FB, O_CARD_LAND, O_CARD_LOC, O_CARD_ROT, O_COL_CARD, O_COL_SHIFT, O_DONE, O_F_CARD, O_F_COL,
    O_F_GAP, O_F_KIND, O_F_LAND, O_F_LANE, O_F_NEXT, O_F_PREV, O_F_USED, O_LOOP_CARDS, O_N_CARDS, O_N_COLS,
    O_N_FIELDS, O_POS, R_TRACK_CARDS)
from sim.games.kruki_wyscig.rules import (
    DEAD, HEAD, HOME, LANE_A, LOC_BOX, LOC_LOOP, LOC_MAIN, LOC_STACK, LOOP, MAIN, SENTINEL, SHIFT_A, SHIFT_B, TAIL)

# Field labels of the trace (field_label): a loop field is LOOP_LABEL + LANE_LABEL·lane + anchor.
LOOP_LABEL, LANE_LABEL = 10000, 100
HEAD_LABEL, TAIL_LABEL = -1, -2


@kernel_njit()
def _show(obs, f, c, land):
    obs[O_F_CARD + f] = c
    obs[O_F_LAND + f] = land
    obs[O_F_GAP + f] = 0


@kernel_njit()
def _gap(obs, f):
    obs[O_F_CARD + f] = -1
    obs[O_F_LAND + f] = -1
    obs[O_F_GAP + f] = 1


@kernel_njit()
def refresh(obs, c):
    """RACE-12: write the fields of card c from its orientation, shift and place."""
    r = obs[O_CARD_ROT + c]
    s0 = obs[O_CARD_LAND + 2 * c + r]
    s1 = obs[O_CARD_LAND + 2 * c + 1 - r]
    fa = obs[O_CARD_FA + c]
    fb = obs[O_CARD_FB + c]
    loc = obs[O_CARD_LOC + c]
    if loc == LOC_MAIN:
        s = obs[O_COL_SHIFT + obs[O_F_COL + fa] - 1]
        if s == HOME:
            _show(obs, fa, c, s0)
            _show(obs, fb, c, s1)
        elif s == SHIFT_A:  # side 1-r now lies in lane A; side r protrudes
            _show(obs, fa, c, s1)
            _gap(obs, fb)
        else:  # SHIFT_B: side r lies in lane B; side 1-r protrudes
            _gap(obs, fa)
            _show(obs, fb, c, s0)
    elif loc == LOC_LOOP:
        _show(obs, fa, c, s0)
        _show(obs, fb, c, s1)


@kernel_njit()
def reset_track(obs, rp, card_land):
    """RACE-11: n empty columns (every slot a gap) linked HEAD, A1..An, Bn..B1, TAIL; all cards on the land stack."""
    n = rp[R_TRACK_CARDS]
    n_cards = card_land.shape[0] >> 1
    size = 2 + 2 * n + 2 * n_cards
    obs[O_N_COLS] = n
    obs[O_N_CARDS] = n_cards
    obs[O_N_FIELDS] = size
    obs[O_F_USED] = 2 + 2 * n
    obs[O_LOOP_CARDS] = 0
    for f in range(size):
        obs[O_F_KIND + f] = DEAD
        obs[O_F_CARD + f] = -1
        obs[O_F_LAND + f] = -1
        obs[O_F_GAP + f] = 0
        obs[O_F_LANE + f] = -1
        obs[O_F_COL + f] = 0
        obs[O_F_NEXT + f] = -1
        obs[O_F_PREV + f] = -1
    obs[O_F_KIND + HEAD] = SENTINEL
    obs[O_F_KIND + TAIL] = SENTINEL
    for j in range(1, n + 1):
        for lane in range(2):
            f = 2 * j + lane
            obs[O_F_KIND + f] = MAIN
            obs[O_F_LANE + f] = lane
            obs[O_F_COL + f] = j
            obs[O_F_GAP + f] = 1
        obs[O_COL_CARD + j - 1] = -1
        obs[O_COL_SHIFT + j - 1] = HOME
    prev = HEAD
    for j in range(1, n + 1):
        obs[O_F_NEXT + prev] = 2 * j
        obs[O_F_PREV + 2 * j] = prev
        prev = 2 * j
    for j in range(n, 0, -1):
        obs[O_F_NEXT + prev] = 2 * j + 1
        obs[O_F_PREV + 2 * j + 1] = prev
        prev = 2 * j + 1
    obs[O_F_NEXT + prev] = TAIL
    obs[O_F_PREV + TAIL] = prev
    for c in range(n_cards):
        obs[O_CARD_LAND + 2 * c] = card_land[2 * c]
        obs[O_CARD_LAND + 2 * c + 1] = card_land[2 * c + 1]
        obs[O_CARD_ROT + c] = 0
        obs[O_CARD_LOC + c] = LOC_STACK
        obs[O_CARD_FA + c] = -1
        obs[O_CARD_FB + c] = -1
    obs[O_POS] = HEAD  # RACE-5
    obs[O_POS + 1] = TAIL
    obs[O_DONE] = 0
    obs[O_DONE + 1] = 0


@kernel_njit()
def place_main(obs, j, c, r):
    obs[O_COL_CARD + j - 1] = c
    obs[O_COL_SHIFT + j - 1] = HOME
    obs[O_CARD_ROT + c] = r
    obs[O_CARD_LOC + c] = LOC_MAIN
    obs[O_CARD_FA + c] = 2 * j
    obs[O_CARD_FB + c] = 2 * j + 1
    refresh(obs, c)


@kernel_njit()
def do_flight(obs, p, land):
    """RACE-20: fly the maximal run of `land` from the next real field; returns the fields moved."""
    moved = 0
    g = fwd(obs, p, obs[O_POS + p])
    while g != -1 and obs[O_F_LAND + g] == land:
        obs[O_POS + p] = g
        moved += 1
        g = fwd(obs, p, g)
    return moved


@kernel_njit()
def do_step(obs, p):
    """RACE-21 / RACE-25: exactly one real field forward."""
    obs[O_POS + p] = fwd(obs, p, obs[O_POS + p])


@kernel_njit()
def do_rotate(obs, c):
    """RACE-27."""
    obs[O_CARD_ROT + c] ^= 1
    refresh(obs, c)


@kernel_njit()
def do_remove(obs, c):
    """RACE-28: a main card leaves gaps (its slots stay linked); a loop card's two records are unlinked."""
    fa = obs[O_CARD_FA + c]
    fb = obs[O_CARD_FB + c]
    if obs[O_CARD_LOC + c] == LOC_MAIN:
        j = obs[O_F_COL + fa]
        obs[O_COL_CARD + j - 1] = -1
        obs[O_COL_SHIFT + j - 1] = HOME
        _gap(obs, fa)
        _gap(obs, fb)
    else:
        a = obs[O_F_PREV + fa]
        b = obs[O_F_NEXT + fb]
        obs[O_F_NEXT + a] = b
        obs[O_F_PREV + b] = a
        obs[O_F_KIND + fa] = DEAD
        obs[O_F_KIND + fb] = DEAD
        obs[O_LOOP_CARDS] -= 1
    obs[O_CARD_LOC + c] = LOC_BOX


@kernel_njit()
def do_swap(obs, c1, c2):
    """RACE-29: two home main cards or two loop cards exchange places, each keeping its orientation."""
    fa1 = obs[O_CARD_FA + c1]
    fa2 = obs[O_CARD_FA + c2]
    if obs[O_CARD_LOC + c1] == LOC_MAIN:
        obs[O_COL_CARD + obs[O_F_COL + fa1] - 1] = c2
        obs[O_COL_CARD + obs[O_F_COL + fa2] - 1] = c1
    elif obs[O_F_LANE + fa1] != obs[O_F_LANE + fa2]:  # the lanes are walked in opposite directions
        obs[O_CARD_ROT + c1] ^= 1
        obs[O_CARD_ROT + c2] ^= 1
    fb1 = obs[O_CARD_FB + c1]
    obs[O_CARD_FA + c1] = fa2
    obs[O_CARD_FB + c1] = obs[O_CARD_FB + c2]
    obs[O_CARD_FA + c2] = fa1
    obs[O_CARD_FB + c2] = fb1
    refresh(obs, c1)
    refresh(obs, c2)


@kernel_njit()
def do_slide(obs, c, lane):
    """RACE-30: the home main card c slides into `lane`; the other lane's slot becomes a gap."""
    obs[O_COL_SHIFT + obs[O_F_COL + obs[O_CARD_FA + c]] - 1] = SHIFT_A if lane == LANE_A else SHIFT_B
    refresh(obs, c)


@kernel_njit()
def do_detour(obs, c, lane, j, i, r):
    """RACE-32: link card c as two loop records after insertion index i of the loop anchor (lane, j)."""
    f = insertion_point(obs, lane, j, i)
    u = np.int64(obs[O_F_USED])
    v = u + 1
    obs[O_F_USED] = u + 2
    old = obs[O_F_NEXT + f]
    for g in range(u, u + 2):
        obs[O_F_KIND + g] = LOOP
        obs[O_F_LANE + g] = lane
        obs[O_F_COL + g] = j
        obs[O_F_CARD + g] = c
    obs[O_F_NEXT + f] = u
    obs[O_F_PREV + u] = f
    obs[O_F_NEXT + u] = v
    obs[O_F_PREV + v] = u
    obs[O_F_NEXT + v] = old
    obs[O_F_PREV + old] = v
    obs[O_CARD_ROT + c] = r
    obs[O_CARD_LOC + c] = LOC_LOOP
    obs[O_CARD_FA + c] = u
    obs[O_CARD_FB + c] = v
    obs[O_LOOP_CARDS] += 1
    refresh(obs, c)


@kernel_njit()
def check_finish(obs):
    """RACE-22: a raven standing on its last real field is finished, for good."""
    for p in range(2):
        if obs[O_DONE + p] == 0 and obs[O_POS + p] == fin(obs, p):
            obs[O_DONE + p] = 1


@kernel_njit()
def field_label(obs, f):
    """A field for the trace: HEAD_LABEL, TAIL_LABEL, a main slot's id (2j + lane), or a loop field's label."""
    if f == HEAD:
        return HEAD_LABEL
    if f == TAIL:
        return TAIL_LABEL
    if obs[O_F_KIND + f] == MAIN:
        return f
    return LOOP_LABEL + LANE_LABEL * obs[O_F_LANE + f] + obs[O_F_COL + f]
