"""Kruki / Odin's Ravens in plain Python: the readable rules (docs/rules/kruki-wyscig.md, ids RACE-n), for
differential tests against the kernel and for explaining surprising results.

Data model (RACE-10..12). The track is one doubly linked list of field records in α order
HEAD → A1 … An → Bn … B1 → TAIL, stored as flat integer lists in `Track` (one list per RACE-11 array). α walks
`f_next` from HEAD, β walks `f_prev` from TAIL. Ravens stand on field ids, never list indices, so every action card is a
local edit of a few records and links. Columns are 1..n in prose and `col_card[j - 1]` in code; the lane-A slot of
column j is record 2j, the lane-B slot 2j + 1; loop records are allocated upward from 2 + 2n and never reused.

Piles are lists with the top card at index 0 (draw = `pop(0)`); the land stack's bottom is its end (RACE-3 puts a
conflicting card there). Hands are counts per land / per action kind (RACE-19). Flight discard piles are counts per
land (public, §5); when one is reshuffled it is first laid out in ascending land order.

Draw order from the game's stream `PyStream(seed, game_index)` (the kernel draws identically):
1. Setup (RACE-3): the land cards in canonical order (`rules.build_land_cards`, ids 0..N−1) are shuffled with
   `shuffle`. For each column 1..n: the top card is taken and `below(2)` gives its first orientation (`card_rot`:
   the side shown in lane A); a conflicting card is rotated; a card that still conflicts goes to the bottom and the
   next one is taken (with its own `below(2)`).
2. RACE-6: seat 0's flight pile, seat 0's action pile, seat 1's flight pile, seat 1's action pile are each built in
   canonical order (`rules.build_flight_deck` / `build_action_deck`) and shuffled, in this order.
3. RACE-7: the start player is `below(2)` when `start_player` = −1 (no draw otherwise).
4. RACE-8: start hands, start player first; each drawn card is one pile decision (see 6).
5. Turns. Only decisions of `random` seats draw (heuristics are deterministic); the engine itself draws only to
   reshuffle a flight discard pile (`shuffle`, at the moment a card is drawn from an empty flight pile).
6. A `random` seat's decisions, each a list of options in canonical order (§5):
   - next play or stop: when no play head is legal it stops without drawing; else `below(1_000_000) <
     int(stop · 1_000_000 + 0.5)` means stop; else `below(len(heads))` picks the head, then, for rotate, remove, swap
     and slide only, `below(len(targets))` picks the target. Heads in order: flight(L) (only the next field's
     land), joker(L) by L, action options 0..7 (one head per option held and legal).
   - pile for one card: `below(len(available piles))`, piles listed flight (0) before action (1), drawn even when
     only one pile is available; no decision when none is.
   - `fixed-mix-draw`: `below(k + 1)` action cards m (only when some pile is available); then m action draws and
     k − m flight draws, no further decisions.
   - detour placement, after the card is drawn: `below(len(placements))`, placements ordered by lane (A, B),
     anchor j = 1..n−1, index 0..k, orientation 0, 1.
   - discards to the hand limit, one card at a time: the hand listed as flight cards by land then action cards by
     kind (one entry per card), `below(len(list))` picks the card to discard.
7. `rerace-tie`: a replay repeats steps 1–4 on the same stream, continuing after the previous race's draws.

Public API for tests and explanations: `Track` (+ `empty_track`, `place_main`), the path primitives `fwd`, `back`,
`fin`, `ahead`, `rem`, `runs`, `track_len`, the edits `do_flight`, `do_step`, `do_back`, `do_rotate`, `do_remove`,
`do_swap`, `do_slide`, `do_detour` (no legality checks), the target lists `rotate_targets`, `remove_targets`,
`swap_targets`, `slide_targets`, `placements`; `State` (+ `new_state`, `setup_game`, `deal_start_hands`), the step
functions `play_heads` (legal plays), `execute_play` (one play, with statistics), `draw_cards`, `hand_limit`,
`play_turn`, `run_race`, `adjudicate`, `record`; `observe(state, seat) -> Obs`, the only thing a strategy sees.
Strategies are `fn(kind, obs, options, rng, params)` (see the strategy section at the end).
"""
from dataclasses import dataclass, field

from sim.rng import PyStream
from sim.spec import GameRecord, rank_and_win60
from sim.games.kruki_wyscig.rules import (
    DROP_ORDER, ERROR_ILLEGAL, K1, K4, N_KINDS, N_OPTIONS, OPT_BACK1, OPT_DETOUR, OPT_FORWARD1, OPT_REMOVE,
    OPT_ROTATE, OPT_SLIDE, OPT_SWAP, OPT_TAKE2, OPTION_KIND, OPTION_NAMES, RERACE_LIMIT, START_RANDOM,
    build_action_deck, build_flight_deck, build_land_cards, GAME_COLUMNS, SEAT_COLUMNS)

ALPHA, BETA = 0, 1
HEAD, TAIL = 0, 1  # sentinel records (RACE-11)
START = (HEAD, TAIL)  # each raven's start sentinel (RACE-5)
FAR = (TAIL, HEAD)  # each raven's far end
LANE_A, LANE_B = 0, 1
# f_kind (RACE-11); unallocated loop records are also DEAD.
SENTINEL, MAIN, LOOP, DEAD = 0, 1, 2, 3
# card_loc (RACE-11)
LOC_STACK, LOC_MAIN, LOC_LOOP, LOC_BOX = 0, 1, 2, 3
# col_shift (RACE-11)
HOME, SHIFT_A, SHIFT_B = 0, 1, 2
# play heads (§5): (FLIGHT, land), (JOKER, land), (ACTION, option)
FLIGHT, JOKER, ACTION = 0, 1, 2
# piles (RACE-17)
PILE_FLIGHT, PILE_ACTION = 0, 1
# decision kinds passed to strategies
DEC_PLAY, DEC_PILE, DEC_MIX, DEC_PLACE, DEC_DISCARD = 0, 1, 2, 3, 4
STOP_SCALE = 1_000_000
SABOTAGE = (OPT_BACK1, OPT_ROTATE, OPT_REMOVE, OPT_SWAP, OPT_SLIDE, OPT_DETOUR)


class IllegalChoice(Exception):
    """A strategy returned an option that is not in its list (error code 1)."""


# ---------------------------------------------------------------------------------------------------------------
# Track: the public board (RACE-9..15)

@dataclass
class Track:
    n: int  # columns laid at setup
    card_land: list  # N pairs (side 0 land, side 1 land), fixed
    f_kind: list
    f_card: list
    f_land: list
    f_gap: list
    f_lane: list
    f_col: list
    f_next: list
    f_prev: list
    col_card: list  # n
    col_shift: list  # n
    card_rot: list  # N
    card_loc: list  # N
    card_fa: list  # N
    card_fb: list  # N
    pos: list = field(default_factory=lambda: [HEAD, TAIL])  # RACE-5
    done: list = field(default_factory=lambda: [0, 0])
    f_used: int = 0  # next free loop record

    def copy(self):
        return Track(self.n, self.card_land, self.f_kind[:], self.f_card[:], self.f_land[:], self.f_gap[:],
                     self.f_lane[:], self.f_col[:], self.f_next[:], self.f_prev[:], self.col_card[:],
                     self.col_shift[:], self.card_rot[:], self.card_loc[:], self.card_fa[:], self.card_fb[:],
                     self.pos[:], self.done[:], self.f_used)


def empty_track(n, card_land):
    """A track of n empty columns (every slot a gap) linked as RACE-11 says; all cards on the land stack."""
    n_cards = len(card_land)
    size = 2 + 2 * n + 2 * n_cards
    t = Track(n, [tuple(c) for c in card_land], [DEAD] * size, [-1] * size, [-1] * size, [0] * size, [-1] * size,
              [0] * size, [-1] * size, [-1] * size, [-1] * n, [HOME] * n, [0] * n_cards, [LOC_STACK] * n_cards,
              [-1] * n_cards, [-1] * n_cards, [HEAD, TAIL], [0, 0], 2 + 2 * n)
    t.f_kind[HEAD] = t.f_kind[TAIL] = SENTINEL
    for j in range(1, n + 1):
        for lane in (LANE_A, LANE_B):
            f = 2 * j + lane
            t.f_kind[f], t.f_lane[f], t.f_col[f], t.f_gap[f] = MAIN, lane, j, 1
    order = [HEAD] + [2 * j for j in range(1, n + 1)] + [2 * j + 1 for j in range(n, 0, -1)] + [TAIL]
    for a, b in zip(order, order[1:]):
        t.f_next[a], t.f_prev[b] = b, a
    return t


def place_main(t, j, c, rot, shift=HOME):
    """Lay card c in column j with orientation rot (side shown in lane A) and the given shift."""
    t.col_card[j - 1], t.col_shift[j - 1] = c, shift
    t.card_rot[c], t.card_loc[c], t.card_fa[c], t.card_fb[c] = rot, LOC_MAIN, 2 * j, 2 * j + 1
    refresh(t, c)


def _show(t, f, c, land):
    t.f_card[f], t.f_land[f], t.f_gap[f] = c, land, 0


def _gap(t, f):
    t.f_card[f], t.f_land[f], t.f_gap[f] = -1, -1, 1


def refresh(t, c):
    """RACE-12: write the fields of card c from its orientation, shift and place."""
    r = t.card_rot[c]
    side = t.card_land[c]
    fa, fb = t.card_fa[c], t.card_fb[c]
    if t.card_loc[c] == LOC_MAIN:
        s = t.col_shift[t.f_col[fa] - 1]
        if s == HOME:
            _show(t, fa, c, side[r])
            _show(t, fb, c, side[1 - r])
        elif s == SHIFT_A:  # side 1−r now lies in lane A; side r protrudes
            _show(t, fa, c, side[1 - r])
            _gap(t, fb)
        else:  # SHIFT_B: side r lies in lane B; side 1−r protrudes
            _gap(t, fa)
            _show(t, fb, c, side[r])
    elif t.card_loc[c] == LOC_LOOP:
        _show(t, fa, c, side[r])
        _show(t, fb, c, side[1 - r])


def is_real(t, f):
    """RACE-11: a field that shows a land."""
    return t.f_kind[f] in (MAIN, LOOP) and t.f_gap[f] == 0


def _succ(t, p):
    return t.f_next if p == ALPHA else t.f_prev


def _pred(t, p):
    return t.f_prev if p == ALPHA else t.f_next


def fwd(t, p, f):
    """RACE-13: first real field after f in p's direction, −1 at the far end."""
    nxt = _succ(t, p)
    g = nxt[f]
    while g != FAR[p]:
        if is_real(t, g):
            return g
        g = nxt[g]
    return -1


def back(t, p, f):
    """RACE-13: nearest real field behind f on p's path, or p's start sentinel."""
    prv = _pred(t, p)
    g = prv[f]
    while g != START[p]:
        if is_real(t, g):
            return g
        g = prv[g]
    return START[p]


def fin(t, p):
    """RACE-13: last real field of p's path (−1 if the path has none)."""
    f = back(t, p, FAR[p])
    return -1 if f == START[p] else f


def ahead(t, p, f=None):
    """The real fields after f (default: p's raven) up to fin(p), in p's order."""
    nxt, kind, gap, far = _succ(t, p), t.f_kind, t.f_gap, FAR[p]
    out, g = [], nxt[t.pos[p] if f is None else f]
    while g != far:
        if (kind[g] == MAIN or kind[g] == LOOP) and not gap[g]:  # is_real, inlined
            out.append(g)
        g = nxt[g]
    return out


def count_runs(lands):
    return sum(1 for i, x in enumerate(lands) if i == 0 or x != lands[i - 1])


def rem(t, p):
    """RACE-13: real fields still to fly (0 once finished)."""
    return 0 if t.done[p] else len(ahead(t, p))


def runs(t, p):
    """RACE-13: maximal runs of equal land ahead = single flights that would finish p (0 once finished)."""
    return 0 if t.done[p] else count_runs([t.f_land[g] for g in ahead(t, p)])


def path_lands(t, p):
    """All real lands of p's path from its start (for display and tests)."""
    return [t.f_land[g] for g in ahead(t, p, START[p])]


def track_len(t):
    """Real fields on the track (= length of both paths)."""
    return len(ahead(t, ALPHA, HEAD))


def check_finish(t):
    """RACE-22: a raven standing on its last real field is finished, for good."""
    for p in (ALPHA, BETA):
        if not t.done[p] and t.pos[p] == fin(t, p):
            t.done[p] = 1


def segment(lane, j):
    """RACE-14: the (start, end) slots of the loop anchor (lane, j) in α order."""
    return (2 * j, 2 * j + 2) if lane == LANE_A else (2 * j + 3, 2 * j + 1)


def loop_cards(t, lane, j):
    """Cards of the loop at (lane, j) in α order (empty list: no loop)."""
    start, end = segment(lane, j)
    out, f = [], t.f_next[start]
    while f != end:
        out.append(t.f_card[f])
        f = t.f_next[t.f_next[f]]
    return out


def loop_exists(t, lane, j):
    """RACE-14 (anchors outside 1..n−1 never hold a loop)."""
    if not 1 <= j < t.n:
        return False
    start, end = segment(lane, j)
    return t.f_next[start] != end


def card_column(t, c):
    return t.f_col[t.card_fa[c]]


def occupied(t, c):
    """RACE-15: a raven stands on one of c's fields (a finished raven keeps its card occupied)."""
    return any(t.pos[p] not in (HEAD, TAIL) and t.f_card[t.pos[p]] == c for p in (ALPHA, BETA))


def covered(t, c):
    """RACE-15: a slid main card whose protruding field lies under a loop in its lane."""
    if t.card_loc[c] != LOC_MAIN:
        return False
    j, s = card_column(t, c), t.col_shift[card_column(t, c) - 1]
    if s == HOME:
        return False
    lane = LANE_A if s == SHIFT_A else LANE_B
    return loop_exists(t, lane, j - 1) or loop_exists(t, lane, j)


def track_order(t):
    """§5 canonical card order: main cards by column, then loop cards by lane (A, B), anchor, α order."""
    cards = [c for c in t.col_card if c != -1]
    for lane in (LANE_A, LANE_B):
        for j in range(1, t.n):
            cards += loop_cards(t, lane, j)
    return cards


def edit_ok(t):
    """RACE-24: after an edit no unfinished raven may have rem = 0."""
    return all(t.done[p] or fwd(t, p, t.pos[p]) != -1 for p in (ALPHA, BETA))  # rem > 0


def alpha_index(t):
    """Position of every linked record in α order (HEAD = 0)."""
    idx, f, i = {}, HEAD, 0
    while f != -1:
        idx[f] = i
        f, i = t.f_next[f], i + 1
    return idx


def insertion_point(t, lane, j, i):
    """RACE-32: the record after which a detour at (lane, j, index i) is linked."""
    f = segment(lane, j)[0]
    for _ in range(i):
        f = t.f_next[t.f_next[f]]
    return f


# ---------------------------------------------------------------------------------------------------------------
# Moves and edits: each a local change of records and links (RACE-20..32). They do not check legality.

def do_flight(t, p, land):
    """RACE-20: fly the maximal run of `land` starting at the next real field. Returns the fields moved."""
    moved, g = 0, fwd(t, p, t.pos[p])
    while g != -1 and t.f_land[g] == land:
        t.pos[p], moved = g, moved + 1
        g = fwd(t, p, g)
    return moved


def do_step(t, p):
    """RACE-21 (joker) / RACE-25 (forward-1): exactly one real field forward."""
    t.pos[p] = fwd(t, p, t.pos[p])
    return 1


def do_back(t, q):
    """RACE-26: the raven of q one real field back (from its first real field to its start)."""
    t.pos[q] = back(t, q, t.pos[q])


def do_rotate(t, c):
    """RACE-27."""
    t.card_rot[c] ^= 1
    refresh(t, c)


def do_remove(t, c):
    """RACE-28: a main card leaves two gaps (slots stay linked); a loop card's two records are unlinked."""
    if t.card_loc[c] == LOC_MAIN:
        j = card_column(t, c)
        t.col_card[j - 1], t.col_shift[j - 1] = -1, HOME
        _gap(t, t.card_fa[c])
        _gap(t, t.card_fb[c])
    else:
        fa, fb = t.card_fa[c], t.card_fb[c]
        t.f_next[t.f_prev[fa]] = t.f_next[fb]
        t.f_prev[t.f_next[fb]] = t.f_prev[fa]
        t.f_kind[fa] = t.f_kind[fb] = DEAD
    t.card_loc[c] = LOC_BOX


def do_swap(t, c1, c2):
    """RACE-29: two main cards at home or two loop cards exchange places, each keeping its orientation."""
    if t.card_loc[c1] == LOC_MAIN:
        j1, j2 = card_column(t, c1), card_column(t, c2)
        t.col_card[j1 - 1], t.col_card[j2 - 1] = c2, c1
    elif t.f_lane[t.card_fa[c1]] != t.f_lane[t.card_fa[c2]]:  # lanes are walked in opposite directions
        t.card_rot[c1] ^= 1
        t.card_rot[c2] ^= 1
    t.card_fa[c1], t.card_fa[c2] = t.card_fa[c2], t.card_fa[c1]
    t.card_fb[c1], t.card_fb[c2] = t.card_fb[c2], t.card_fb[c1]
    refresh(t, c1)
    refresh(t, c2)


def do_slide(t, c, lane):
    """RACE-30: the main card c (at home) slides into `lane`; the other lane's slot becomes a gap."""
    t.col_shift[card_column(t, c) - 1] = SHIFT_A if lane == LANE_A else SHIFT_B
    refresh(t, c)


def do_detour(t, c, lane, j, i, r):
    """RACE-32: link card c as two loop records after insertion index i of the loop anchor (lane, j)."""
    f = insertion_point(t, lane, j, i)
    u, v = t.f_used, t.f_used + 1
    t.f_used += 2
    old = t.f_next[f]
    for g in (u, v):
        t.f_kind[g], t.f_lane[g], t.f_col[g], t.f_card[g] = LOOP, lane, j, c
    t.f_next[f], t.f_prev[u], t.f_next[u], t.f_prev[v], t.f_next[v], t.f_prev[old] = u, f, v, u, old, v
    t.card_rot[c], t.card_loc[c], t.card_fa[c], t.card_fb[c] = r, LOC_LOOP, u, v
    refresh(t, c)


# ---------------------------------------------------------------------------------------------------------------
# Legal targets (RACE-15, RACE-23..32), each list in §5 canonical order

def rotate_targets(t):
    return [c for c in track_order(t) if not occupied(t, c) and not covered(t, c)]  # RACE-27


def remove_targets(t):
    out = []
    for c in rotate_targets(t):  # RACE-28: same cards, subject to RACE-24
        u = t.copy()
        do_remove(u, c)
        if edit_ok(u):
            out.append(c)
    return out


def swap_targets(t):
    """RACE-29: unordered pairs (a, b), a before b in track order, both main at home or both loop, unoccupied."""
    ok = [c for c in track_order(t) if not occupied(t, c)
          and (t.card_loc[c] == LOC_LOOP or t.col_shift[card_column(t, c) - 1] == HOME)]
    return [(a, b) for i, a in enumerate(ok) for b in ok[i + 1:] if t.card_loc[a] == t.card_loc[b]]


def slide_targets(t):
    """RACE-30: (card, lane) by column, lane A before B."""
    out = []
    for j in range(1, t.n + 1):
        c = t.col_card[j - 1]
        if c == -1 or t.col_shift[j - 1] != HOME or occupied(t, c):
            continue
        for lane in (LANE_A, LANE_B):
            if loop_exists(t, lane, j - 1) or loop_exists(t, lane, j):
                continue
            u = t.copy()
            do_slide(u, c, lane)
            if edit_ok(u):
                out.append((c, lane))
    return out


def placements(t):
    """RACE-32: every (lane, anchor, index, orientation) in canonical order."""
    return [(lane, j, i, r) for lane in (LANE_A, LANE_B) for j in range(1, t.n)
            for i in range(len(loop_cards(t, lane, j)) + 1) for r in (0, 1)]


def placement_ahead(t, lane, j, i, idx=None):
    """For each raven: whether a detour at (lane, j, i) would lie ahead of it (add 2 to its rem)."""
    idx = alpha_index(t) if idx is None else idx
    f = insertion_point(t, lane, j, i)
    return (not t.done[ALPHA] and idx[f] >= idx[t.pos[ALPHA]],
            not t.done[BETA] and idx[t.f_next[f]] <= idx[t.pos[BETA]])


def free_placement_exists(t, p):
    """§9 free placement: behind p's raven and ahead of the opponent's (adds 2 to the opponent's rem only)."""
    idx = alpha_index(t)
    for lane, j, i, r in placements(t):
        if r == 0:
            a = placement_ahead(t, lane, j, i, idx)
            if a[1 - p] and not a[p]:
                return True
    return False


# ---------------------------------------------------------------------------------------------------------------
# Game state, setup and observation

def new_seat_stats():
    return {k: [0, 0] for k in SEAT_COLUMNS}


@dataclass
class State:
    """Everything on the table. Strategies never see this, only `observe(state, seat)`."""
    p: dict  # rule parameters
    track: Track
    stack: list  # land stack, top first (RACE-4); hidden order
    fpile: list  # per seat: flight pile, top first (hidden order)
    apile: list  # per seat: action pile, top first (hidden order)
    disc: list  # per seat: flight discard pile as counts per land (public)
    hand_f: list  # per seat: flight cards per land (RACE-19)
    hand_a: list  # per seat: action cards per kind
    start: int  # S (RACE-7)
    current: int  # seat whose turn it is
    rng: object = None
    strategies: list = None  # per seat (name or callable, params)
    trace: list = None
    turns: int = 0
    turn_opts: list = field(default_factory=lambda: [0] * N_OPTIONS)  # current turn: options played
    turn_flights: int = 0
    turn_jokers: int = 0
    actions_log: list = field(default_factory=lambda: [[0] * N_OPTIONS, [0] * N_OPTIONS])  # public
    seat: dict = field(default_factory=new_seat_stats)
    game: dict = field(default_factory=lambda: {"detours": 0, "cards_removed": 0, "first_finisher": -1,
                                                "truncated": 0, "track_len_start": 0})
    error: int = 0

    def hand_size(self, s):
        return sum(self.hand_f[s]) + sum(self.hand_a[s])


def new_state(p, track, stack=(), start=0, rng=None, strategies=None, trace=None):
    """A state on a given track with empty hands and piles (tests fill in what they need)."""
    lands = p["lands"]
    st = State(p, track, list(stack), [[], []], [[], []], [[0] * lands, [0] * lands], [[0] * lands, [0] * lands],
               [[0] * N_KINDS, [0] * N_KINDS], start, start, rng, strategies, trace)
    st.game["track_len_start"] = track_len(track)
    return st


def lay_track(p, rng):
    """RACE-3/4: shuffle the land cards and lay n columns; returns (track, land stack)."""
    card_land = build_land_cards(p)
    t = empty_track(p["track_cards"], card_land)
    stack = list(range(len(card_land)))
    rng.shuffle(stack)
    prev_a = prev_b = -1
    for j in range(1, t.n + 1):
        tries = 0
        while True:
            c = stack.pop(0)
            r = rng.below(2)  # [assumed] uniformly random first orientation
            if card_land[c][r] == prev_a or card_land[c][1 - r] == prev_b:
                r ^= 1  # rotate 180°
            if card_land[c][r] == prev_a or card_land[c][1 - r] == prev_b:
                stack.append(c)  # still conflicting (only with edited card data): bottom of the stack
                tries += 1
                if tries > len(stack):
                    raise ValueError("no land card fits column %d" % j)
                continue
            break
        place_main(t, j, c, r)
        prev_a, prev_b = card_land[c][r], card_land[c][1 - r]
    return t, stack


def setup_game(p, rng, strategies, trace=None):
    """RACE-3..7 (start hands are drawn by `deal_start_hands`)."""
    t, stack = lay_track(p, rng)
    st = new_state(p, t, stack, 0, rng, strategies, trace)
    for s in (0, 1):  # RACE-6
        st.fpile[s] = build_flight_deck(p)
        rng.shuffle(st.fpile[s])
        st.apile[s] = build_action_deck(p)
        rng.shuffle(st.apile[s])
    st.start = st.current = rng.below(2) if p["start_player"] == START_RANDOM else p["start_player"]  # RACE-7
    if trace is not None:
        trace.append({"kind": "setup", "seat": st.start, "start_player": st.start, "track": track_text(t),
                      "stack_size": len(stack)})
    return st


def deal_start_hands(st):
    """RACE-8: start player first, each draws the start hand with the draw procedure."""
    for s in (st.start, 1 - st.start):
        draw_cards(st, s, st.p["start_hand"], "start")


@dataclass
class Obs:
    """What seat `seat` may know (§5): the public state plus its own hand; never hidden orders or the other hand."""
    seat: int
    rules: dict
    start_player: int
    turn: int  # turns played so far
    final_turn: bool  # this is O's final turn (S has finished)
    track: Track  # a copy: strategies may edit it freely
    stack_size: int
    detour_card: int  # the card just drawn for a detour (DEC_PLACE), else −1
    hand_f: list  # own hand
    hand_a: list
    hand_size: list  # both seats
    fpile_size: list
    apile_size: list
    disc: list  # both flight discard piles (counts per land)
    own_fpile: list  # contents (counts per land) of the own flight pile, not its order
    own_apile: list  # contents (counts per kind) of the own action pile
    actions_log: list  # per seat, action options played so far (public)
    turn_opts: list  # options played by the seat to move in this turn
    turn_flights: int
    turn_jokers: int


def observe(st, seat, detour_card=-1):
    lands = st.p["lands"]
    return Obs(seat, dict(st.p), st.start, st.turns, bool(st.track.done[st.start]) and st.current != st.start,
               st.track.copy(), len(st.stack), detour_card, st.hand_f[seat][:], st.hand_a[seat][:],
               [st.hand_size(0), st.hand_size(1)], [len(x) for x in st.fpile], [len(x) for x in st.apile],
               [d[:] for d in st.disc], [st.fpile[seat].count(x) for x in range(lands)],
               [st.apile[seat].count(k) for k in range(N_KINDS)], [a[:] for a in st.actions_log],
               st.turn_opts[:], st.turn_flights, st.turn_jokers)


# ---------------------------------------------------------------------------------------------------------------
# Decisions

def ask(st, seat, kind, options, detour_card=-1):
    """Pass the seat's observation and the legal options to its strategy; return its (validated) choice."""
    who, sparams = st.strategies[seat]
    fn = who if callable(who) else STRATEGY_FUNCS[who]
    choice = fn(kind, observe(st, seat, detour_card), options, st.rng, sparams)
    if kind == DEC_PLAY:
        if choice is None:
            return None
        hi, ti = choice
        if not 0 <= hi < len(options):
            raise IllegalChoice(choice)
        targets = options[hi][1]
        if (targets is None) != (ti is None) or (targets is not None and not 0 <= ti < len(targets)):
            raise IllegalChoice(choice)
        return choice
    if not isinstance(choice, int) or not 0 <= choice < len(options):
        raise IllegalChoice(choice)
    return choice


def play_heads(st, s):
    """§5 play heads with their target lists (None: no target decision), in canonical order."""
    t, hf, ha = st.track, st.hand_f[s], st.hand_a[s]
    g = fwd(t, s, t.pos[s])
    if t.done[s] or g == -1:
        return []
    nxt_land = t.f_land[g]
    heads = []
    if hf[nxt_land] > 0:  # RACE-20
        heads.append(((FLIGHT, nxt_land), None))
    if not st.p["osprey_joker"] or hf[nxt_land] == 0:  # RACE-21 / osprey-joker
        heads += [((JOKER, land), None) for land in range(len(hf)) if hf[land] >= 2]
    for opt in range(N_OPTIONS):
        if ha[OPTION_KIND[opt]] == 0:
            continue
        if opt == OPT_FORWARD1:  # RACE-25 (the next field exists)
            heads.append(((ACTION, opt), None))
        elif opt == OPT_BACK1:  # RACE-26
            q = 1 - s
            if not t.done[q] and t.pos[q] != START[q]:
                heads.append(((ACTION, opt), None))
        elif opt == OPT_TAKE2:  # RACE-31
            if piles_available(st, s):
                heads.append(((ACTION, opt), None))
        elif opt == OPT_DETOUR:  # RACE-32
            if st.stack:
                heads.append(((ACTION, opt), None))
        else:
            targets = {OPT_ROTATE: rotate_targets, OPT_REMOVE: remove_targets, OPT_SWAP: swap_targets,
                       OPT_SLIDE: slide_targets}[opt](t)
            if targets:
                heads.append(((ACTION, opt), targets))
    return heads


def hand_list(st, s):
    """The hand as one entry per card: flight cards (0, land) by land, then action cards (1, kind) by kind."""
    return ([(0, x) for x in range(len(st.hand_f[s])) for _ in range(st.hand_f[s][x])]
            + [(1, k) for k in range(N_KINDS) for _ in range(st.hand_a[s][k])])


def _event(st, kind, seat, **kw):
    if st.trace is not None:
        st.trace.append({"kind": kind, "seat": seat, **kw})


# ---------------------------------------------------------------------------------------------------------------
# Drawing (RACE-17, RACE-18)

def piles_available(st, s):
    """RACE-17: available piles, flight (0) before action (1)."""
    out = []
    if st.fpile[s] or sum(st.disc[s]):
        out.append(PILE_FLIGHT)
    if st.apile[s]:
        out.append(PILE_ACTION)
    return out


def draw_one(st, s, pile, reason):
    if pile == PILE_FLIGHT:
        if not st.fpile[s]:  # RACE-17: the discards become the new flight pile
            st.fpile[s] = [x for x in range(len(st.disc[s])) for _ in range(st.disc[s][x])]
            st.disc[s] = [0] * len(st.disc[s])
            st.rng.shuffle(st.fpile[s])
            st.seat["reshuffles"][s] += 1
            _event(st, "reshuffle", s, cards=len(st.fpile[s]))
        card = st.fpile[s].pop(0)
        st.hand_f[s][card] += 1
    else:
        card = st.apile[s].pop(0)
        st.hand_a[s][card] += 1
    st.seat["cards_drawn"][s] += 1
    _event(st, "draw", s, pile=("flight", "action")[pile], card=card, reason=reason)


def draw_cards(st, s, k, reason):
    """RACE-17 D(k) (and its fixed-mix-draw variant)."""
    if st.p["fixed_mix_draw"]:
        if not piles_available(st, s):
            return
        m = ask(st, s, DEC_MIX, list(range(k + 1)))
        for i in range(k):
            avail = piles_available(st, s)
            if not avail:
                return
            want = PILE_ACTION if i < m else PILE_FLIGHT
            draw_one(st, s, want if want in avail else avail[0], reason)
        return
    for _ in range(k):
        avail = piles_available(st, s)
        if not avail:  # [assumed] remaining draws are skipped
            return
        draw_one(st, s, avail[ask(st, s, DEC_PILE, avail)], reason)


def hand_limit(st, s):
    """RACE-18: discard down to the hand limit, one card at a time."""
    while st.hand_size(s) > st.p["hand_limit"]:
        cards = hand_list(st, s)
        typ, x = cards[ask(st, s, DEC_DISCARD, cards)]
        if typ == 0:
            st.hand_f[s][x] -= 1
            st.disc[s][x] += 1
        else:
            st.hand_a[s][x] -= 1  # action cards leave the game
        st.seat["cards_discarded"][s] += 1
        _event(st, "discard", s, card=("flight", "action")[typ], value=x)


# ---------------------------------------------------------------------------------------------------------------
# Plays and turns

def execute_play(st, s, head, target):
    """Carry out one legal play of seat s (RACE-20..32) and check finishes (RACE-22)."""
    t, q = st.track, 1 - s
    typ, x = head
    before = t.pos[s]
    if typ == FLIGHT:  # RACE-20
        st.hand_f[s][x] -= 1
        st.disc[s][x] += 1
        moved = do_flight(t, s, x)
        st.seat["flights_played"][s] += 1
        st.turn_flights += 1
        st.seat["fields_forward"][s] += moved
        _event(st, "flight", s, land=x, frm=before, to=t.pos[s], fields=moved)
    elif typ == JOKER:  # RACE-21
        st.hand_f[s][x] -= 2
        st.disc[s][x] += 2
        if st.p["osprey_joker"]:  # osprey-joker: a flight of the next field's land
            moved = do_flight(t, s, t.f_land[fwd(t, s, t.pos[s])])
        else:
            moved = do_step(t, s)
        st.seat["jokers"][s] += 1
        st.turn_jokers += 1
        st.seat["fields_forward"][s] += moved
        _event(st, "joker", s, land=x, frm=before, to=t.pos[s], fields=moved)
    else:  # RACE-23: the card leaves the hand before its effect
        st.hand_a[s][OPTION_KIND[x]] -= 1
        st.seat["actions_used_" + OPTION_NAMES[x]][s] += 1
        st.turn_opts[x] += 1
        st.actions_log[s][x] += 1
        info = {}
        if x == OPT_FORWARD1:  # RACE-25
            do_step(t, s)
            st.seat["fields_forward"][s] += 1
            info = {"frm": before, "to": t.pos[s]}
        elif x == OPT_BACK1:  # RACE-26
            was = t.pos[q]
            do_back(t, q)
            st.seat["fields_pushed_back"][q] += 1
            info = {"frm": was, "to": t.pos[q]}
        elif x == OPT_ROTATE:  # RACE-27
            do_rotate(t, target)
            info = {"card": target}
        elif x == OPT_REMOVE:  # RACE-28
            do_remove(t, target)
            st.game["cards_removed"] += 1
            info = {"card": target}
        elif x == OPT_SWAP:  # RACE-29
            do_swap(t, *target)
            info = {"cards": list(target)}
        elif x == OPT_SLIDE:  # RACE-30
            do_slide(t, *target)
            info = {"card": target[0], "lane": "AB"[target[1]]}
        elif x == OPT_TAKE2:  # RACE-31
            _event(st, "action", s, option=OPTION_NAMES[x])
            draw_cards(st, s, st.p["take_cards"], "take2")
            info = None
        else:  # RACE-32
            c = st.stack.pop(0)
            _event(st, "detour_card", s, card=c, lands=list(t.card_land[c]))
            opts = placements(t)
            lane, j, i, r = opts[ask(st, s, DEC_PLACE, opts, c)]
            do_detour(t, c, lane, j, i, r)
            st.game["detours"] += 1
            info = {"card": c, "lane": "AB"[lane], "anchor": j, "index": i, "rot": r}
        if info is not None:
            _event(st, "action", s, option=OPTION_NAMES[x], **info)
    check_finish(t)  # RACE-22
    if st.trace is not None:
        _event(st, "track", s, track=track_text(t), pos=list(t.pos), rem=[rem(t, 0), rem(t, 1)],
               runs=[runs(t, 0), runs(t, 1)])


def play_turn(st):
    """RACE-16: plays until the player stops or finishes; then (unless finished) draw and hand limit."""
    s = st.current
    st.turn_opts, st.turn_flights, st.turn_jokers = [0] * N_OPTIONS, 0, 0
    _event(st, "turn", s, turn=st.turns + 1, hand=hand_list(st, s))
    while True:
        heads = play_heads(st, s)
        choice = ask(st, s, DEC_PLAY, heads) if heads else None  # nothing legal: stop, no decision
        if choice is None:
            break
        hi, ti = choice
        head, targets = heads[hi]
        execute_play(st, s, head, None if targets is None else targets[ti])
        if st.track.done[s]:  # the turn ends at once, no draw
            _event(st, "finish", s, hand=st.hand_size(s))
            return
    _event(st, "stop", s)
    draw_cards(st, s, st.p["draw_per_turn"], "end")
    hand_limit(st, s)


def run_race(st):
    """RACE-16, RACE-33, RACE-35: turns alternate until the end condition (or the cap)."""
    S, O = st.start, 1 - st.start  # noqa: E741  (S starts, O is the other seat, as in the rules text)
    while True:
        final = bool(st.track.done[S])  # this turn is O's final turn
        if not final and st.turns >= st.p["max_turns"]:  # RACE-35
            st.game["truncated"] = 1
            return
        s = st.current
        play_turn(st)
        st.turns += 1
        if st.track.done[s] and st.game["first_finisher"] == -1:
            st.game["first_finisher"] = s
        if (s == O and st.track.done[O]) or final:  # RACE-33
            return
        st.current = 1 - s


def adjudicate(st):
    """RACE-33..36: (shares in sixtieths via rank_and_win60 keys, winner or −1, tie-break info)."""
    t, S, O = st.track, st.start, 1 - st.start  # noqa: E741
    info = {"tiebreak_decided": 0, "final_turn_finish": 0, "equal_hands": False}
    if st.game["truncated"]:  # RACE-35: smaller rem wins
        keys = [-rem(t, 0), -rem(t, 1)]
    elif t.done[S] and t.done[O]:  # RACE-34: hand sizes
        info["tiebreak_decided"], info["final_turn_finish"] = 1, 1
        keys = [st.hand_size(0), st.hand_size(1)]
        info["equal_hands"] = keys[0] == keys[1]
    else:
        keys = [t.done[0], t.done[1]]
    return keys, info


def record(st, keys, info, reraces):
    t = st.track
    seat = {k: list(v) for k, v in st.seat.items()}
    seat["final_hand"] = [st.hand_size(0), st.hand_size(1)]
    game = dict(st.game)
    game.update(start_player=st.start, turns=st.turns, reraces=reraces, track_len_end=track_len(t),
                gaps_end=sum(t.f_gap), loop_cards_end=t.card_loc.count(LOC_LOOP), shared_win=0, winner_lead=0,
                winner_lead_runs=0, tiebreak_decided=info["tiebreak_decided"],
                final_turn_finish=info["final_turn_finish"])
    if st.error:
        score, rank, win60 = [0, 0], [0, 0], [0, 0]
    else:
        rank, win60 = rank_and_win60(keys)
        score = [w // 30 for w in win60]  # RACE-36: win share in halves (2 win, 1 shared, 0 loss)
        if rank == [1, 1]:
            game["shared_win"] = 1
        elif not (t.done[0] and t.done[1]):
            w = rank.index(1)
            game["winner_lead"] = rem(t, 1 - w) - rem(t, w)
            game["winner_lead_runs"] = runs(t, 1 - w) - runs(t, w)
    seat.update(score=score, rank=rank, win60=win60)
    game["error"] = st.error
    return GameRecord(seat={k: seat[k] for k in ("score", "rank", "win60") + SEAT_COLUMNS},
                      game={k: game[k] for k in ("error",) + GAME_COLUMNS})


def play_game(params, players, seed, game_index, strategies, trace=None):
    """One whole game (RACE-3..36, rerace-tie included); the same integer columns as the kernel."""
    assert players == 2
    rng = PyStream(seed, game_index)
    reraces = 0
    while True:
        st = setup_game(params, rng, strategies, trace)
        try:
            deal_start_hands(st)
            run_race(st)
        except IllegalChoice as exc:
            st.error = ERROR_ILLEGAL
            _event(st, "error", st.current, choice=repr(exc))
            return record(st, [0, 0], {"tiebreak_decided": 0, "final_turn_finish": 0}, reraces)
        keys, info = adjudicate(st)
        if info["equal_hands"] and params["rerace_tie"] and reraces < RERACE_LIMIT:  # variant rerace-tie
            reraces += 1
            _event(st, "rerace", -1, number=reraces, hands=keys)
            continue
        rec = record(st, keys, info, reraces)
        _event(st, "end", -1, win60=rec.seat["win60"], turns=st.turns, truncated=st.game["truncated"],
               tiebreak=info["tiebreak_decided"], hands=[st.hand_size(0), st.hand_size(1)])
        return rec


def track_text(t):
    """Lanes as letters, e.g. 'A: G P _ R | B: P Y R G | loops: A2[R G]'; '_' is a gap, '.' an empty column."""
    from sim.games.kruki_wyscig.rules import LAND_LETTERS

    def show(f):
        if t.col_card[t.f_col[f] - 1] == -1:
            return "."
        return "_" if t.f_gap[f] else LAND_LETTERS[t.f_land[f]]
    a = " ".join(show(2 * j) for j in range(1, t.n + 1))
    b = " ".join(show(2 * j + 1) for j in range(1, t.n + 1))
    loops = []
    for lane in (LANE_A, LANE_B):
        for j in range(1, t.n):
            start, end = segment(lane, j)
            f, lands = t.f_next[start], []
            while f != end:
                lands.append(LAND_LETTERS[t.f_land[f]])
                f = t.f_next[f]
            if lands:
                loops.append("%s%d[%s]" % ("AB"[lane], j, " ".join(lands)))
    return "A: %s | B: %s | loops: %s" % (a, b, ", ".join(loops) or "-")


# ---------------------------------------------------------------------------------------------------------------
# Strategies (§9). Signature: fn(kind, obs, options, rng, params) -> choice
#   DEC_PLAY: options = [(head, targets or None)]; return None (stop) or (head index, target index or None)
#   DEC_PILE / DEC_MIX / DEC_PLACE / DEC_DISCARD: return an index into options. Only `random` uses rng.

def strat_random(kind, obs, options, rng, sp):
    """§5 random play."""
    if kind == DEC_PLAY:
        if rng.below(STOP_SCALE) < int(sp.get("stop", 0.25) * STOP_SCALE + 0.5):
            return None
        hi = rng.below(len(options))
        targets = options[hi][1]
        return hi, (None if targets is None else rng.below(len(targets)))
    return rng.below(len(options))


def _find(options, head):
    for i, (h, _) in enumerate(options):
        if h == head:
            return i, None
    return None


def _pile_avail(obs):
    s = obs.seat
    return obs.fpile_size[s] > 0 or sum(obs.disc[s]) > 0 or obs.apile_size[s] > 0


def runner_step(t, s, hand_f, hand_a, osprey, pile_avail, r3=True):
    """§9 runner step on a track and hand: R1 flight, R2 forward-1, R3 take-2, R4 joker; a head or None."""
    g = fwd(t, s, t.pos[s])
    if t.done[s] or g == -1:
        return None
    m = t.f_land[g]
    if hand_f[m] > 0:
        return FLIGHT, m
    if hand_a[K1] > 0:
        return ACTION, OPT_FORWARD1
    if r3 and hand_a[K4] > 0 and pile_avail:
        return ACTION, OPT_TAKE2
    pairs = [x for x in range(len(hand_f)) if hand_f[x] >= 2]
    if not pairs:
        return None
    lands_ahead = [t.f_land[f] for f in ahead(t, s)]

    def first(x):
        return lands_ahead.index(x) if x in lands_ahead else len(lands_ahead)
    return JOKER, max(pairs, key=lambda x: (hand_f[x], first(x), -x))


def apply_head(t, s, hand_f, hand_a, head, osprey):
    """Simulate a flight, joker or forward-1 on a track copy and hand copy (for planning); returns fields moved."""
    typ, x = head
    if typ == FLIGHT:
        hand_f[x] -= 1
        moved = do_flight(t, s, x)
    elif typ == JOKER:
        hand_f[x] -= 2
        moved = do_flight(t, s, t.f_land[fwd(t, s, t.pos[s])]) if osprey else do_step(t, s)
    else:
        hand_a[K1] -= 1
        moved = do_step(t, s)
    check_finish(t)
    return moved


def runner_finishes(obs):
    """Hoarder (1): does repeating the runner step (R1, R2, R4) finish this turn?"""
    t, s = obs.track.copy(), obs.seat
    hf, ha = obs.hand_f[:], obs.hand_a[:]
    while not t.done[s]:
        head = runner_step(t, s, hf, ha, obs.rules["osprey_joker"], False, r3=False)
        if head is None:
            return False
        apply_head(t, s, hf, ha, head, obs.rules["osprey_joker"])
    return True


def _draw_choice(kind, obs, options, k):
    """§9 draw policy k (DEC_PILE, DEC_MIX)."""
    acts = sum(obs.hand_a)
    if kind == DEC_MIX:
        return max(0, min(len(options) - 1, int(k) - acts))
    want = PILE_ACTION if acts < k else PILE_FLIGHT
    return options.index(want) if want in options else 0


def _discard_choice(obs, options, k, drop):
    """§9 discard policy: actions beyond k (drop order), then flights by surplus, then actions (drop order)."""
    def action_index():
        for kind in drop:
            if obs.hand_a[kind] > 0:
                return options.index((1, kind))
        return None
    if sum(obs.hand_a) > k:
        return action_index()
    if sum(obs.hand_f) > 0:
        nxt = [obs.track.f_land[f] for f in ahead(obs.track, obs.seat)[:6]]
        land = max((x for x in range(len(obs.hand_f)) if obs.hand_f[x] > 0),
                   key=lambda x: (obs.hand_f[x] - nxt.count(x), obs.hand_f[x], x))
        return options.index((0, land))
    return action_index()


def _common(kind, obs, options, sp, name):
    """Decisions every heuristic takes the same way: piles, mix, discards."""
    k = sp["min_actions"]
    if kind in (DEC_PILE, DEC_MIX):
        return _draw_choice(kind, obs, options, k)
    return _discard_choice(obs, options, k, DROP_ORDER[name])


def strat_runner(kind, obs, options, rng, sp):
    if kind == DEC_PLAY:
        t, s = obs.track, obs.seat
        head = runner_step(t, s, obs.hand_f, obs.hand_a, obs.rules["osprey_joker"], _pile_avail(obs))
        return None if head is None else _find(options, head)
    if kind == DEC_PLACE:
        return 0  # never plays a detour
    return _common(kind, obs, options, sp, "runner")


def strat_hoarder(kind, obs, options, rng, sp):
    if kind == DEC_PLAY:
        t, s, osprey = obs.track, obs.seat, obs.rules["osprey_joker"]
        take2 = _find(options, (ACTION, OPT_TAKE2))
        if runner_finishes(obs):  # (1)
            if take2 is not None:
                return take2
            return _find(options, runner_step(t, s, obs.hand_f, obs.hand_a, osprey, False, r3=False))
        if obs.final_turn:  # (2)
            if take2 is not None:
                return take2
            head = runner_step(t, s, obs.hand_f, obs.hand_a, osprey, _pile_avail(obs))
            return None if head is None else _find(options, head)
        if runs(t, s) <= sp["sprint"]:  # (3)
            return None
        head = runner_step(t, s, obs.hand_f, obs.hand_a, osprey, False, r3=False)  # (4)
        if head is None or head[0] == JOKER:
            return None
        gain = do_flight(t.copy(), s, head[1]) if head[0] == FLIGHT else 1
        return _find(options, head) if gain >= sp["threshold"] else None
    if kind == DEC_PLACE:
        return 0
    return _common(kind, obs, options, sp, "hoarder")


def _apply_edit(t, s, opt, target):
    """Apply an edit option on a track copy (for Δ evaluation)."""
    if opt == OPT_BACK1:
        do_back(t, 1 - s)
    elif opt == OPT_ROTATE:
        do_rotate(t, target)
    elif opt == OPT_REMOVE:
        do_remove(t, target)
    elif opt == OPT_SWAP:
        do_swap(t, *target)
    elif opt == OPT_SLIDE:
        do_slide(t, *target)


def net_gain(t, s, opt, target):
    """§9 Δ = (runs(opp)′ − runs(opp)) − (runs(own)′ − runs(own)) of an edit, on a copy."""
    u = t.copy()
    _apply_edit(u, s, opt, target)
    return (runs(u, 1 - s) - runs(t, 1 - s)) - (runs(u, s) - runs(t, s))


def _placement_gain(t, s, c, pl):
    u = t.copy()
    do_detour(u, c, *pl)
    return u, (runs(u, 1 - s) - runs(t, 1 - s)), (runs(u, s) - runs(t, s))


def _fields_before_detour(t, s, u):
    """Real fields of the opponent's path between its raven and the first new loop field (inf if not ahead)."""
    q, n = 1 - s, 0
    for f in ahead(u, q):
        if f >= u.f_used - 2:
            return n
        n += 1
    return 10 ** 6


def strat_saboteur(kind, obs, options, rng, sp):
    t, s = obs.track, obs.seat
    if kind == DEC_PLAY:
        if sum(obs.turn_opts[o] for o in SABOTAGE) < sp["max_actions"]:
            best, best_d = None, None
            for hi, ((typ, opt), targets) in enumerate(options):
                if typ != ACTION or opt not in SABOTAGE:
                    continue
                if opt == OPT_DETOUR:
                    cands = [(None, 2)] if free_placement_exists(t, s) else []
                elif targets is None:
                    cands = [(None, net_gain(t, s, opt, None))]
                else:
                    cands = [(ti, net_gain(t, s, opt, tg)) for ti, tg in enumerate(targets)]
                for ti, d in cands:
                    if best_d is None or d > best_d:
                        best, best_d = (hi, ti), d
            if best is not None and best_d >= sp["threshold"]:
                return best
        head = runner_step(t, s, obs.hand_f, obs.hand_a, obs.rules["osprey_joker"], False, r3=False)
        return None if head is None else _find(options, head)
    if kind == DEC_PLACE:
        best, key = 0, None
        for i, pl in enumerate(options):
            u, d_opp, d_own = _placement_gain(t, s, obs.detour_card, pl)
            k = (d_opp - d_own, -_fields_before_detour(t, s, u))
            if key is None or k > key:
                best, key = i, k
        return best
    return _common(kind, obs, options, sp, "saboteur")


def strat_weighted(kind, obs, options, rng, sp):
    t, s = obs.track, obs.seat
    own0, opp0 = runs(t, s), runs(t, 1 - s)

    def score(u, moved, cards, action, drawn):
        return (sp["w_adv"] * moved + sp["w_own"] * (own0 - runs(u, s)) + sp["w_opp"] * (runs(u, 1 - s) - opp0)
                - sp["w_card"] * cards - sp["w_act"] * action + sp["w_gain"] * drawn + 1000 * u.done[s])
    if kind == DEC_PLAY:
        best, best_v = None, None
        for hi, ((typ, x), targets) in enumerate(options):
            cands = []
            if typ in (FLIGHT, JOKER) or (typ == ACTION and x == OPT_FORWARD1):
                u = t.copy()
                hf, ha = obs.hand_f[:], obs.hand_a[:]
                moved = apply_head(u, s, hf, ha, (typ, x), obs.rules["osprey_joker"])
                cands = [(None, score(u, moved, 2 if typ == JOKER else 1, typ == ACTION, 0))]
            elif x == OPT_TAKE2:
                drawable = obs.fpile_size[s] + sum(obs.disc[s]) + obs.apile_size[s]
                cands = [(None, score(t, 0, 1, 1, min(obs.rules["take_cards"], drawable)))]
            elif x == OPT_DETOUR:
                if free_placement_exists(t, s):
                    cands = [(None, sp["w_opp"] * 2 - sp["w_card"] - sp["w_act"])]
            elif targets is None:
                u = t.copy()
                _apply_edit(u, s, x, None)
                cands = [(None, score(u, 0, 1, 1, 0))]
            else:
                for ti, tg in enumerate(targets):
                    u = t.copy()
                    _apply_edit(u, s, x, tg)
                    cands.append((ti, score(u, 0, 1, 1, 0)))
            for ti, v in cands:
                if best_v is None or v > best_v:
                    best, best_v = (hi, ti), v
        return best if best is not None and best_v > sp["stop"] else None
    if kind == DEC_PLACE:
        best, best_v = 0, None
        for i, pl in enumerate(options):
            u, d_opp, d_own = _placement_gain(t, s, obs.detour_card, pl)
            v = sp["w_opp"] * d_opp - sp["w_own"] * d_own
            if best_v is None or v > best_v:
                best, best_v = i, v
        return best
    return _common(kind, obs, options, sp, "weighted")


STRATEGY_FUNCS = {"random": strat_random, "hoarder": strat_hoarder, "runner": strat_runner,
                  "saboteur": strat_saboteur, "weighted": strat_weighted}
