"""Odin's Ravens in plain Python, part 1: the track (docs/rules/kruki-wyscig.md RACE-9..15, RACE-20..32) — the
`Track` record lists, path primitives, edits (no legality checks) and legal target lists. The game is reference.py.
"""
from dataclasses import dataclass, field

from sim.games.kruki_wyscig.rules import (
    DEAD, HEAD, HOME, LAND_LETTERS, LANE_A, LANE_B, LOC_BOX, LOC_LOOP, LOC_MAIN, LOC_STACK, LOOP, MAIN, SENTINEL,
    SHIFT_A, SHIFT_B, TAIL)

ALPHA, BETA = 0, 1
START = (HEAD, TAIL)  # each raven's start sentinel (RACE-5)
FAR = (TAIL, HEAD)  # each raven's far end
# play heads (§5) as the reference's strategies see them: (FLIGHT, land), (JOKER, land), (ACTION, option)
FLIGHT, JOKER, ACTION = 0, 1, 2


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


def rem(t, p):
    """RACE-13: real fields still to fly (0 once finished)."""
    return 0 if t.done[p] else len(ahead(t, p))


def runs(t, p):
    """RACE-13: maximal runs of equal land ahead = single flights that would finish p (0 once finished).
    The walk of `ahead`, written out to count where the land changes as it goes: this is the strategies' hottest
    call (every candidate), and iterating `ahead`'s list or a generator of it made the weighted games 15-25% slower.
    Every field the walk links to is a slot or a loop record (a removed loop card's records are unlinked, RACE-28),
    so a field without a gap is real (RACE-11) and the walk tests only the gap."""
    if t.done[p]:
        return 0
    nxt, gap, land, far = _succ(t, p), t.f_gap, t.f_land, FAR[p]
    n, last, g = 0, -1, nxt[t.pos[p]]
    while g != far:
        if not gap[g] and land[g] != last:  # a real field, a new run
            n, last = n + 1, land[g]
        g = nxt[g]
    return n


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



def track_text(t):
    """Lanes as letters, e.g. 'A: G P _ R | B: P Y R G | loops: A2[R G]'; '_' is a gap, '.' an empty column."""
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
