"""Crows (`kruki`): the readable pure-Python rules (docs/rules/kruki.md), for differential tests and explanations.

Layout
------
The board is a square array of side 2*H+1 (H = `rules.board_half`, the total tile count, KRUKI-9), flat index
`cell = (y + H) * side + (x + H)`, so sorting cells sorts them in raster order (y, then x). Per cell (Python
`array`s, copied with one memcpy): `kind` (tile kind, GAP = -1), `crows`, `shiny` (owner seat or -1), `stones`
(GRAVESTONES tokens lying there this round), `frozen` (NO_FLOCKING tokens there this round). `tiles` is the sorted
list of occupied cells. Tiles never come within 7 cells of the array's edge, so a ray walked in the flat index
always meets a gap first (N = -side, E = +1, S = +side, W = -1).

Decisions
---------
Every choice goes through `choose(state, seat, decision, options, context) -> index into options`, with the options
in the canonical order below. A decision with a single option is taken without asking (no random number drawn).
In `play_game` the chooser builds an `Observation` (public state + the seat's own token kinds, KRUKI-37) and hands
only it, the options, the game's random stream and the strategy parameters to the strategy.

| decision      | options, in canonical order                                                                      |
|---------------|--------------------------------------------------------------------------------------------------|
| D_SOURCE      | SRC_DRAW (base game, stack not empty) · SRC_JUNK (own Junk unused) · SRC_POOL+i for pool tile i  |
|               | (tile-draft, pool order = order the tiles entered the pool) · SRC_SKIP (the source is empty)     |
| D_JUNK_MODE   | JUNK_NORMAL · JUNK_REPLACE (if some tile has no crows and no shiny)                             |
| D_REPLACE     | cells of tiles without crows and without shiny, raster order                                      |
| D_CELL        | legal cells (KRUKI-13) for the tile in hand, raster order                                        |
| D_SHINY       | legal shiny tiles (KRUKI-19), raster order                                                       |
| D_TOKEN       | TOKEN_PASS (-1) · each distinct playable held kind, kind-id order                                |
| D_TARGET      | GRAVESTONES: every tile; NO_FLOCKING: every tile with >= 1 crow; raster order                    |
| D_PAIR        | TWO_CROWS source pairs (a, b), a <= b in raster order: for i over crow tiles, for j >= i (i = j  |
|               | needs >= 2 crows); only pairs that have a destination                                            |
| D_DEST        | tiles without a shiny that are not a source, raster order                                        |
| D_SPIRAL      | N, E, S, W (0..3)                                                                                |

Random-draw order (one `PyStream(seed, game_index)` per game)
---------------------------------------------------------------
1. Setup: the stack tiles in canonical order (`rules.stack_kinds`: kind id, then copy) are shuffled with one
   `shuffle`; the first `removed` entries go to the box, the next 9 fill the start cells in layout order, the rest
   is the stack with index 0 on top (KRUKI-6, 7).
2. The token stack in canonical order (`rules.token_kinds`) is shuffled with one `shuffle`; index 0 is on top.
3. Then the game, in play order, with one draw per strategy call that needs one:
   - `random`: `below(len(options))` at every decision with 2+ options (KRUKI-38).
   - heuristics: `below(len(tied))` only when 2+ options remain tied after the stated tie-breaks, the tied options
     taken in enumeration order (cell options: cell-major, then shiny; token options: kind, then target; TWO_CROWS:
     pair, then destination). No draw for the Junk-mode decision (always normal) or the spiral (ties go N, E, S, W).
   The order of decisions is: per turn source, [Junk mode, replaced tile], cell, shiny, token, [target | pair,
   destination]; per round after the turns, one spiral decision per murder in murder order (KRUKI-29).

Heuristics, exactly (KRUKI-39..41; `_Eval`, `_heuristic`, `_source_choice`)
---------------------------------------------------------------------------
Strategies are stateless: each decision is decided afresh from the observation. β is obs.board with the candidate
applied (tile at c with min(spawn, supply) crows, own shiny at s). V_p(β) = points of p's shiny = `shiny_points`:
crows arriving by `arrivals_at` (only crow tiles seeing s are resolved, with `group_flight`, the same function the
rules use), doubled on GRAVEYARD/GRAVESTONES unless NO_GRAVEYARDS, capped. B(β) = max over legal shiny tiles of the
points of a probe shiny there (0 if none). Opp = (sum over opponents q of W_q) / (P - 1) with W_q = V_q(β) if q has
a shiny, B(β) (computed once per β) if q has not moved this round, else 0.
- (cell, shiny) options: for c in the cells (raster), for s in the legal shiny tiles of β after c (raster), or the
  single option (c, none) if there is none. Shiny-only options (shiny decision, draw proxy): c = none.
- Stage 1 value v1: greedy/blocker float(V_me); weighted w1*f1 + w2*f2 + w3*f3 + w5*f5 (this order) with f1 =
  crows arriving at s, f2 = V_me - f1, f3 = 1 if s is EMPTY and the token stack is not empty, f5 = 1 for own Junk.
  Preference pref (greedy/blocker) = f3; weighted pref = 0.
- Stage 2 (blocker, weighted): keep options with v1 >= max(v1) - slack; J = v1 - lambda*Opp (blocker),
  v1 + w4*Opp (weighted). Greedy: J = v1 for all options.
- Pick: max (J, pref); ties -> below(len(tied)) in enumeration order. The value of an option set is max J.
- Source: J_junk = value of (legal cells x shinies) for a normal Junk (f5 = 1); J_0 = value of shiny-only options.
  Stack not empty: Junk iff J_junk >= J_0 + margin; source empty: Junk iff J_junk > J_0, else skip. Pool: each pool
  tile's value (its own cells x shinies, f5 = 0); Junk iff J_junk >= best + margin, else a tied-best pool tile by
  below(len). margin = junk_margin (greedy, blocker), 0 (weighted).
- Token: candidates in order NO_GRAVEYARDS (blocker/weighted), GRAVESTONES on own shiny, NO_FLOCKING on each crow
  tile (blocker/weighted), TWO_CROWS (pair in pair order, D raster over tiles edge-adjacent to own shiny with no
  shiny, D not a source). Value = J of β after the token (f3 = f5 = 0, no slack stage). Play the best (ties drawn)
  iff value - value(pass) > token_keep_points. Target / pair / destination decisions re-pick among the same
  candidates restricted to the chosen kind (and pair).
- Spiral (all heuristics): for N, E, S, W scatter a copy, remove every shiny and token, B0 = B; maximise B0 if the
  chooser is next round's first player, else minimise; first best in N, E, S, W order (no draw).
- Junk mode: always normal (index 0); replaced tile: never reached (index 0).
"""
from __future__ import annotations

from array import array
from bisect import insort

from sim.rng import PyStream
from sim.spec import GameRecord, rank_and_win60

from . import rules as R
from .rules import (EMPTY, GAP, GRAVESTONES, GRAVEYARD, JUNK, NO_FLOCKING, NO_GRAVEYARDS, THREE_POINTS,
                    TRINKETS, TWO_CROWS)

# ---- decision kinds and option codes -----------------------------------------------------------------------------
D_SOURCE, D_JUNK_MODE, D_REPLACE, D_CELL, D_SHINY, D_TOKEN, D_TARGET, D_PAIR, D_DEST, D_SPIRAL = range(10)
DECISION_NAMES = ("source", "junk_mode", "replace", "cell", "shiny", "token", "target", "pair", "dest", "spiral")
SRC_DRAW, SRC_JUNK, SRC_SKIP, SRC_POOL = 0, 1, 2, 3  # SRC_POOL + i = pool tile i
JUNK_NORMAL, JUNK_REPLACE = 0, 1
TOKEN_PASS = -1
PROBE = 99  # owner code of the hypothetical new shiny in B(β)


class IllegalAction(Exception):
    """A strategy returned something that is not an index into its options (error code 1)."""


# ======================================================================================================================
# Board
# ======================================================================================================================
class Board:
    """The public table: tiles, crows, shinies, tokens lying on tiles, and the round's NO_GRAVEYARDS flag."""

    def __init__(self, half, score_cap=0):
        self.half = half
        self.side = side = 2 * half + 1
        n = side * side
        self.kind = array("b", [GAP]) * n
        self.crows = array("h", [0]) * n
        self.shiny = array("b", [-1]) * n
        self.stones = array("b", [0]) * n
        self.frozen = array("b", [0]) * n
        self.tiles = []  # occupied cells, sorted (= raster order)
        self.no_graveyards = 0
        self.score_cap = score_cap
        self.delta = (-side, 1, side, -1)  # N, E, S, W in the flat index

    def cell(self, x, y):
        """Flat index of (x, y), or -1 outside the array (outside cells are gaps)."""
        h = self.half
        if -h <= x <= h and -h <= y <= h:
            return (y + h) * self.side + (x + h)
        return -1

    def xy(self, c):
        return (c % self.side - self.half, c // self.side - self.half)

    def copy(self):
        b = Board.__new__(Board)
        b.half, b.side, b.delta, b.score_cap, b.no_graveyards = (self.half, self.side, self.delta, self.score_cap,
                                                                 self.no_graveyards)
        b.kind, b.crows, b.shiny = self.kind[:], self.crows[:], self.shiny[:]
        b.stones, b.frozen, b.tiles = self.stones[:], self.frozen[:], list(self.tiles)
        return b

    def add_tile(self, c, kind):
        self.kind[c] = kind
        insort(self.tiles, c)

    def remove_tile(self, c):
        self.kind[c] = GAP
        self.tiles.remove(c)

    def crows_on_board(self):
        return sum(self.crows[c] for c in self.tiles)


# ---- legality (KRUKI-13, 15, 19, 24, 25) -------------------------------------------------------------------------
def legal_cells(board):
    """KRUKI-13: gaps sharing an edge with a tile, raster order."""
    kind, out = board.kind, set()
    for t in board.tiles:
        for d in board.delta:
            if kind[t + d] == GAP:
                out.add(t + d)
    return sorted(out)


def legal_shiny_tiles(board):
    """KRUKI-19: tiles that are not JUNK, hold no crows and no shiny, raster order."""
    kind, crows, shiny = board.kind, board.crows, board.shiny
    return [t for t in board.tiles if kind[t] != JUNK and crows[t] == 0 and shiny[t] < 0]


def replace_targets(board):
    """KRUKI-15(b): tiles without crows and without a shiny (any kind), raster order."""
    crows, shiny = board.crows, board.shiny
    return [t for t in board.tiles if crows[t] == 0 and shiny[t] < 0]


def crow_tiles(board):
    return [t for t in board.tiles if board.crows[t] > 0]


def two_crows_dests(board, pair):
    """KRUKI-25: tiles without a shiny that are not a source, raster order."""
    a, b = pair
    return [t for t in board.tiles if board.shiny[t] < 0 and t != a and t != b]


def two_crows_pairs(board):
    """KRUKI-25 source pairs, unordered, canonical order (see the module docstring); only pairs with a destination."""
    ct = crow_tiles(board)
    out = []
    for i, a in enumerate(ct):
        for b in ct[i:]:
            if a == b and board.crows[a] < 2:
                continue
            if two_crows_dests(board, (a, b)):
                out.append((a, b))
    return out


def playable_kinds(board, held):
    """KRUKI-21..25 + Precise readings: distinct held kinds that have a legal target, kind-id order."""
    out = []
    for kind in range(R.PLAYABLE_TOKEN_KINDS):
        if held[kind] <= 0:
            continue
        if kind == NO_FLOCKING and not crow_tiles(board):
            continue
        if kind == TWO_CROWS and not two_crows_pairs(board):
            continue
        if kind == GRAVESTONES and not board.tiles:
            continue
        out.append(kind)
    return out


# ---- flight and scoring (KRUKI-26..28) ---------------------------------------------------------------------------
def group_flight(board, t):
    """KRUKI-26 for the group of crows on tile t, on the board as it stands: a list of (destination, crows).

    This is the one function that resolves where crows go; `fly` applies it to every tile at once, and the
    strategies apply it only to the crow tiles that can see a candidate shiny (`arrivals_at`).
    """
    n = board.crows[t]
    if n <= 0 or board.frozen[t] or board.shiny[t] >= 0:  # KRUKI-24 frozen / shiny tile: distance 0, stays
        return []
    kind, shiny = board.kind, board.shiny
    nearest = None  # distance of the nearest shiny over the directions seen so far
    tied = []  # (shiny cell, distance, direction) at that distance
    for d in board.delta:  # N, E, S, W
        c, k = t + d, 1
        while kind[c] != GAP:  # a gap hides everything beyond it
            if shiny[c] >= 0:  # only the nearest shiny per direction
                if nearest is None or k < nearest:
                    nearest, tied = k, [(c, k, d)]
                elif k == nearest:
                    tied.append((c, k, d))
                break
            c, k = c + d, k + 1  # crows, junk, trinkets, graveyards do not block
    if not tied:
        return []
    if len(tied) > 1 and any(kind[e[0]] == TRINKETS for e in tied):
        tied = [e for e in tied if kind[e[0]] == TRINKETS]  # Trinkets break the tie [assumed: split among them]
    q = n // len(tied)  # the remainder stays on t
    if q == 0:
        return []
    moves = []
    for c, k, d in tied:
        dest, x = c, t + d
        for _ in range(1, k):  # strictly between t and c: stop on the first Junk
            if kind[x] == JUNK:
                dest = x
                break
            x += d
        moves.append((dest, q))
    return moves


def fly(board):
    """KRUKI-26/27: all crows fly at once from the snapshot; returns the moves [(from, to, crows)]."""
    moves = []
    for t in board.tiles:  # group_flight reads only the unchanged board, so the order is irrelevant
        for dest, q in group_flight(board, t):
            moves.append((t, dest, q))
    for t, dest, q in moves:
        board.crows[t] -= q
        board.crows[dest] += q
    return moves


def arrivals_at(board, s):
    """Crows on tile s after a flight on the board as it stands: only crow tiles that see s along a row or column
    (no gap between) can reach it, so only their groups are resolved. Equals `fly` followed by `crows[s]`."""
    kind, crows = board.kind, board.crows
    total = crows[s]
    for d in board.delta:
        c = s + d
        while kind[c] != GAP:
            if crows[c] > 0:
                for dest, q in group_flight(board, c):
                    if dest == s:
                        total += q
            c += d
    return total


def score_value(board, s, n):
    """KRUKI-28 for n crows on shiny tile s: (points, doubled, raw points when the cap lowered them else 0)."""
    doubled = (board.kind[s] == GRAVEYARD or board.stones[s] > 0) and not board.no_graveyards  # KRUKI-22, 23
    raw = n * (2 if doubled else 1)
    cap = board.score_cap
    if cap > 0 and raw > cap:
        return cap, doubled, raw
    return raw, doubled, 0


def shiny_points(board, s):
    """Points the shiny on s would score if phase B were resolved now: (points, crows arriving, doubled)."""
    n = arrivals_at(board, s)
    pts, doubled, _ = score_value(board, s, n)
    return pts, n, doubled


# ---- murders (KRUKI-29..32) --------------------------------------------------------------------------------------
_SPIRAL_N = []


def spiral_offsets(start, count):
    """KRUKI-31: the first `count` offsets (indices 1..count) of the clockwise square spiral starting N/E/S/W."""
    if len(_SPIRAL_N) < count:
        _SPIRAL_N.clear()
        x = y = d = 0
        run = 1
        while len(_SPIRAL_N) < count:
            for _ in range(2):  # runs 1, 1, 2, 2, 3, 3, ...
                for _ in range(run):
                    x, y = x + R.DIR_DX[d], y + R.DIR_DY[d]
                    _SPIRAL_N.append((x, y))
                d = (d + 1) % 4  # turn clockwise
            run += 1
    base = _SPIRAL_N[:count]
    if start == R.N_DIR:
        return base
    if start == R.E_DIR:
        return [(-y, x) for x, y in base]
    if start == R.S_DIR:
        return [(-x, -y) for x, y in base]
    return [(y, -x) for x, y in base]


def murder_list(board, threshold, first_player, players):
    """KRUKI-29: tiles with >= threshold crows; shiny tiles by owner's turn position, then the rest in raster order."""
    hit = [t for t in board.tiles if board.crows[t] >= threshold]
    owned = [t for t in hit if board.shiny[t] >= 0]
    owned.sort(key=lambda t: (board.shiny[t] - first_player) % players)
    return owned + [t for t in hit if board.shiny[t] < 0]


def scatter(board, m, start, removed_max):
    """KRUKI-30: resolve the murder on m with spiral start `start`; returns (crows removed, crows placed)."""
    crows = board.crows
    r = min(removed_max, crows[m] - 1)  # the pair leaves (to the supply; the caller adds it)
    crows[m] -= r
    mx, my = board.xy(m)
    rad = max(max(abs(x - mx), abs(y - my)) for x, y in map(board.xy, board.tiles))  # one lap = rings 1..rad
    offsets = spiral_offsets(start, (2 * rad + 1) ** 2 - 1)
    placed_total = 0
    while crows[m] > 1:
        placed = 0
        for dx, dy in offsets:
            c = board.cell(mx + dx, my + dy)
            if c >= 0 and board.kind[c] != GAP:  # gaps are skipped and cost nothing
                crows[c] += 1
                crows[m] -= 1
                placed += 1
                if crows[m] == 1:
                    break
        placed_total += placed
        if placed == 0:
            break
    return r, placed_total


# ======================================================================================================================
# Game state and setup
# ======================================================================================================================
class State:
    """The full game state (public and hidden parts). Hidden: stack order, removed tiles, token stack, hands."""

    def __init__(self, params, players, board):
        self.params, self.players, self.board = dict(params), players, board
        self.stack, self.stack_pos = [], 0  # stack[stack_pos] is the top tile
        self.removed = []  # tiles boxed unseen at setup (hidden)
        self.pool = []  # tile-draft face-up pool, in the order tiles entered it
        self.tokens, self.token_pos = [], 0  # token stack, tokens[token_pos] is the top
        self.hands = [[0] * R.N_TOKEN_KINDS for _ in range(players)]  # held tokens per kind (private)
        self.junk_unused = [0] * players  # 1 while the seat still holds its own Junk (KRUKI-17)
        self.box_junk = 0  # surplus Junk tiles (base game)
        self.supply = 0
        self.scores = [0] * players
        self.shiny_of = [-1] * players  # cell of each seat's shiny this round, -1 = none
        self.moved = [0] * players  # 1 once the seat's turn this round is over
        self.first_player = 0
        self.round = 0  # rounds completed
        self.token_cells = []  # cells where GRAVESTONES / NO_FLOCKING lie this round
        self.played_tokens = [0] * R.N_TOKEN_KINDS  # to the box (for conservation checks)
        self.over = False
        self.error = 0
        self.trace = None
        self.seat_stats = {name: [0] * players for name in R.SEAT_COLUMNS}
        self.game_stats = {name: 0 for name in R.GAME_COLUMNS}

    @property
    def stack_size(self):
        return len(self.stack) - self.stack_pos

    @property
    def token_stack_size(self):
        return len(self.tokens) - self.token_pos

    def draw_tile(self):
        kind = self.stack[self.stack_pos]
        self.stack_pos += 1
        return kind

    def event(self, kind, seat=None, **fields):
        if self.trace is not None:
            ev = {"kind": kind, "seat": seat, "round": self.round + 1}
            ev.update(fields)
            self.trace.append(ev)


def empty_state(params, players, half=None):
    """A state with an empty board and nothing dealt, for tests that inject a position."""
    board = Board(R.board_half(params) if half is None else half, int(params["score_cap"]))
    return State(params, players, board)


def setup(params, players, rng, trace=None):
    """KRUKI-5..8: shuffle, remove, lay out the start, deal own Junk, shuffle the tokens."""
    st = empty_state(params, players)
    st.trace = trace
    b = st.board
    st.supply = int(params["crows"])
    tiles = R.stack_kinds(params)
    rng.shuffle(tiles)  # draw order 1
    n_removed = R.removed_count(params, players)
    st.removed = tiles[:n_removed]  # KRUKI-6
    start = tiles[n_removed:n_removed + R.N_START]
    st.stack = tiles[n_removed + R.N_START:]
    if not params["random_junk"]:  # KRUKI-6: one own Junk each, surplus to the box
        st.junk_unused = [1] * players
        st.box_junk = int(params["tiles_junk"]) - players
    for (x, y), kind in zip(R.start_cells(params), start):  # KRUKI-7
        c = b.cell(x, y)
        b.add_tile(c, kind)
        n = min(R.spawn_of(kind), st.supply)  # KRUKI-2: a short supply places what it holds
        b.crows[c] += n
        st.supply -= n
    st.tokens = R.token_kinds(params)
    rng.shuffle(st.tokens)  # draw order 2, KRUKI-8
    st.event("setup", None, start=[(b.xy(c), R.KIND_NAMES[b.kind[c]], b.crows[c]) for c in b.tiles],
             stack=st.stack_size, removed=n_removed, tokens=st.token_stack_size)
    return st


# ======================================================================================================================
# Observation (KRUKI-37)
# ======================================================================================================================
class Observation:
    """What one seat may know: the public state plus its own token kinds, and the decision's context.

    board (a private copy the strategy may mutate), players, seat, round (0-based), first_player, moved[P],
    shiny_of[P], scores[P], tokens_held[P] (counts only), junk_unused[P], stack_size, token_stack_size, pool
    (kinds, face up), supply, unseen[kind] (stack + removed, derivable from public data), own_tokens[kind],
    params (the public rule parameters), context (the decision's details: tile in hand, token kind, pair, murder).
    """

    FIELDS = ("players", "seat", "round", "first_player", "moved", "shiny_of", "scores", "tokens_held",
              "junk_unused", "stack_size", "token_stack_size", "pool", "supply", "unseen", "own_tokens", "context")

    def as_dict(self):
        """Everything in the observation as plain values (for equality tests)."""
        b = self.board
        d = {f: getattr(self, f) for f in self.FIELDS}
        d["board"] = (b.half, bytes(b.kind), b.crows.tobytes(), bytes(b.shiny), bytes(b.stones), bytes(b.frozen),
                      tuple(b.tiles), b.no_graveyards, b.score_cap)
        d["params"] = tuple(sorted(self.params.items()))
        return d


def observe(st, seat, context=None):
    o = Observation()
    o.board = st.board.copy()
    o.players, o.seat, o.round, o.first_player = st.players, seat, st.round, st.first_player
    o.moved, o.shiny_of, o.scores = list(st.moved), list(st.shiny_of), list(st.scores)
    o.tokens_held = [sum(h) for h in st.hands]
    o.junk_unused, o.stack_size, o.token_stack_size = list(st.junk_unused), st.stack_size, st.token_stack_size
    o.pool, o.supply = list(st.pool), st.supply
    unseen = [0] * R.N_KINDS
    for kind in st.stack[st.stack_pos:] + st.removed:
        unseen[kind] += 1
    o.unseen = unseen
    o.own_tokens = list(st.hands[seat])
    o.params = st.params
    o.context = dict(context or {})
    return o


# ======================================================================================================================
# Step functions (each applies one rule action; tests call them directly on injected states)
# ======================================================================================================================
def ask(st, choose, seat, decision, options, context=None):
    """One decision: a single option is taken without asking; otherwise `choose` returns an index."""
    if len(options) == 1:
        return 0
    i = choose(st, seat, decision, options, context or {})
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(options):
        raise IllegalAction(f"seat {seat} answered {i!r} to {DECISION_NAMES[decision]} with {len(options)} options")
    return i


def place_tile(st, seat, c, kind, spawn):
    """KRUKI-13/14: put a tile of `kind` on gap c; it receives `spawn` crows from the supply (short: what it has)."""
    b = st.board
    assert b.kind[c] == GAP, "tiles are never stacked (KRUKI-13)"
    b.add_tile(c, kind)
    n = min(spawn, st.supply)
    b.crows[c] += n
    st.supply -= n
    st.event("place", seat, tile=R.KIND_NAMES[kind], at=b.xy(c), crows=n)


def move_tokens(b, src, dst):
    b.stones[dst] += b.stones[src]
    b.frozen[dst] += b.frozen[src]
    b.stones[src] = b.frozen[src] = 0


def source_options(st, seat):
    """KRUKI-12/18 and tile-draft: the tile-source options in canonical order."""
    opts = []
    if st.params["tile_draft"]:
        if st.junk_unused[seat]:
            opts.append(SRC_JUNK)
        opts.extend(SRC_POOL + i for i in range(len(st.pool)))
        if not st.pool:
            opts.append(SRC_SKIP)
    else:
        if st.stack_size > 0:
            opts.append(SRC_DRAW)
        if st.junk_unused[seat]:
            opts.append(SRC_JUNK)
        if st.stack_size == 0:
            opts.append(SRC_SKIP)
    return opts


def play_junk(st, choose, seat, own):
    """KRUKI-15/16: a Junk play (own or drawn), normal or by replacement; the whole tile step."""
    b = st.board
    st.seat_stats["junk_plays"][seat] += 1
    targets = replace_targets(b)
    modes = [JUNK_NORMAL] + ([JUNK_REPLACE] if targets else [])
    mode = modes[ask(st, choose, seat, D_JUNK_MODE, modes, {"own": own})]
    if mode == JUNK_NORMAL:  # KRUKI-15(a)
        cells = legal_cells(b)
        c = cells[ask(st, choose, seat, D_CELL, cells, {"tile": JUNK, "spawn": 0, "own": own})]
        place_tile(st, seat, c, JUNK, 0)
        return
    st.seat_stats["junk_replace"][seat] += 1  # KRUKI-15(b)
    r = targets[ask(st, choose, seat, D_REPLACE, targets, {"own": own})]
    lifted = b.kind[r]
    b.kind[r] = JUNK  # the Junk takes R's cell (the cell stays occupied)
    st.event("junk_replace", seat, at=b.xy(r), lifted=R.KIND_NAMES[lifted])
    cells = legal_cells(b)  # on the new board
    c = cells[ask(st, choose, seat, D_CELL, cells, {"tile": lifted, "spawn": 0, "own": own, "replaced": 1})]
    place_tile(st, seat, c, lifted, 0)  # R spawns no crows (KRUKI-14)
    if b.stones[r] or b.frozen[r]:  # tokens lying on R move with R [assumed]; they still lapse at KRUKI-33
        move_tokens(b, r, c)
        st.token_cells.append(c)


def tile_step(st, choose, seat):
    """KRUKI-12..18: step 1 of a turn."""
    opts = source_options(st, seat)
    src = opts[ask(st, choose, seat, D_SOURCE, opts)]
    if src == SRC_SKIP:  # KRUKI-18
        st.seat_stats["tile_skips"][seat] += 1
        st.event("skip", seat)
        return
    if src == SRC_JUNK:  # KRUKI-17
        st.junk_unused[seat] = 0
        st.event("own_junk", seat)
        play_junk(st, choose, seat, own=1)
        return
    if src == SRC_DRAW:
        kind = st.draw_tile()
        st.event("draw", seat, tile=R.KIND_NAMES[kind], stack=st.stack_size)
    else:
        kind = st.pool.pop(src - SRC_POOL)
        st.event("take_pool", seat, tile=R.KIND_NAMES[kind], pool=[R.KIND_NAMES[k] for k in st.pool])
    if kind == JUNK:  # random-junk: a drawn Junk, both modes; it never sets the own-Junk flag
        play_junk(st, choose, seat, own=0)
        return
    cells = legal_cells(st.board)
    c = cells[ask(st, choose, seat, D_CELL, cells, {"tile": kind, "spawn": R.spawn_of(kind), "own": 0})]
    place_tile(st, seat, c, kind, R.spawn_of(kind))  # KRUKI-14


def place_shiny(st, seat, s):
    """KRUKI-19/20: the shiny goes on s; an EMPTY tile earns the top token while the token stack lasts."""
    b = st.board
    b.shiny[s] = seat
    st.shiny_of[seat] = s
    gained = None
    if b.kind[s] == EMPTY and st.token_stack_size > 0:
        gained = st.tokens[st.token_pos]
        st.token_pos += 1
        st.hands[seat][gained] += 1
        st.seat_stats["tokens_gained_" + R.TOKEN_SLUGS[gained]][seat] += 1
    st.event("shiny", seat, at=b.xy(s), tile=R.KIND_NAMES[b.kind[s]], token_gained=gained is not None)
    return gained


def shiny_step(st, choose, seat):
    opts = legal_shiny_tiles(st.board)
    if not opts:  # KRUKI-19 [assumed]: no legal tile, no shiny, no score this round
        st.event("no_shiny", seat)
        return
    place_shiny(st, seat, opts[ask(st, choose, seat, D_SHINY, opts)])


def play_token(st, seat, kind, target=None):
    """KRUKI-21..25: apply a held token. target: a cell (GRAVESTONES, NO_FLOCKING) or (a, b, d) (TWO_CROWS)."""
    b = st.board
    st.hands[seat][kind] -= 1
    st.played_tokens[kind] += 1
    st.seat_stats["tokens_played_" + R.TOKEN_SLUGS[kind]][seat] += 1
    if kind == NO_GRAVEYARDS:  # KRUKI-22
        b.no_graveyards = 1
        st.event("token", seat, token=R.TOKEN_NAMES[kind])
    elif kind == GRAVESTONES:  # KRUKI-23
        b.stones[target] += 1
        st.token_cells.append(target)
        st.event("token", seat, token=R.TOKEN_NAMES[kind], at=b.xy(target))
    elif kind == NO_FLOCKING:  # KRUKI-24
        b.frozen[target] += 1
        st.token_cells.append(target)
        st.event("token", seat, token=R.TOKEN_NAMES[kind], at=b.xy(target))
    else:  # KRUKI-25
        a, a2, d = target
        b.crows[a] -= 1
        b.crows[a2] -= 1
        b.crows[d] += 2
        st.event("token", seat, token=R.TOKEN_NAMES[kind], sources=[b.xy(a), b.xy(a2)], to=b.xy(d))


def token_step(st, choose, seat):
    """KRUKI-21: optionally play one held token (after the shiny)."""
    b = st.board
    opts = [TOKEN_PASS] + playable_kinds(b, st.hands[seat])
    kind = opts[ask(st, choose, seat, D_TOKEN, opts)]
    if kind == TOKEN_PASS:
        return
    ctx = {"token": kind}
    if kind == NO_GRAVEYARDS:
        play_token(st, seat, kind)
    elif kind in (GRAVESTONES, NO_FLOCKING):
        targets = list(b.tiles) if kind == GRAVESTONES else crow_tiles(b)
        play_token(st, seat, kind, targets[ask(st, choose, seat, D_TARGET, targets, ctx)])
    else:
        pairs = two_crows_pairs(b)
        pair = pairs[ask(st, choose, seat, D_PAIR, pairs, ctx)]
        dests = two_crows_dests(b, pair)
        d = dests[ask(st, choose, seat, D_DEST, dests, {"token": kind, "pair": pair})]
        play_token(st, seat, kind, (pair[0], pair[1], d))


def take_turn(st, choose, seat):
    """KRUKI-11: tile, shiny, token."""
    st.event("turn", seat, stack=st.stack_size, pool=[R.KIND_NAMES[k] for k in st.pool])
    tile_step(st, choose, seat)
    shiny_step(st, choose, seat)
    token_step(st, choose, seat)
    st.moved[seat] = 1


def refill_pool(st):
    """tile-draft: before phase A, fill the face-up pool up to P tiles from the stack."""
    while len(st.pool) < st.players and st.stack_size > 0:
        st.pool.append(st.draw_tile())
    st.event("pool", None, pool=[R.KIND_NAMES[k] for k in st.pool], stack=st.stack_size)


def phase_b(st):
    """KRUKI-26..28: flight, then scoring (with the per-seat statistics)."""
    b = st.board
    moves = fly(b)
    st.event("flight", None, moves=[(b.xy(t), b.xy(d), q) for t, d, q in moves])
    ss = st.seat_stats
    for p in range(st.players):
        s = st.shiny_of[p]
        if s < 0:
            continue
        pts, doubled, raw = score_value(b, s, b.crows[s])
        st.scores[p] += pts
        if doubled:
            ss["graveyard_points"][p] += pts
        if raw:
            ss["cap_hits"][p] += 1
        if pts == 0:
            ss["zero_rounds"][p] += 1
        ss["max_round_score"][p] = max(ss["max_round_score"][p], pts)
        st.event("score", p, at=b.xy(s), crows=b.crows[s], doubled=doubled, capped_from=raw or None, points=pts,
                 total=st.scores[p])


def phase_c(st, choose):
    """KRUKI-29/30: murders, in the fixed order of the list taken at the start of the phase."""
    b, P = st.board, st.players
    for m in murder_list(b, st.params["murder_threshold"], st.first_player, P):
        chooser = b.shiny[m] if b.shiny[m] >= 0 else st.first_player  # [assumed] ownerless: first player
        ctx = {"murder": m, "crows": b.crows[m], "chooser": chooser}
        dirs = [R.N_DIR, R.E_DIR, R.S_DIR, R.W_DIR]
        start = dirs[ask(st, choose, chooser, D_SPIRAL, dirs, ctx)]
        n = b.crows[m]
        removed, placed = scatter(b, m, start, st.params["murder_removed"])
        st.supply += removed
        st.game_stats["murders"] += 1
        st.game_stats["crows_removed"] += removed
        st.game_stats["crows_scattered"] += placed
        st.seat_stats["murders_chosen"][chooser] += 1
        st.event("murder", chooser, at=b.xy(m), crows=n, start=R.DIR_NAMES[start], removed=removed, placed=placed)


def end_round(st):
    """KRUKI-33: shinies back, played tokens to the box, first player passes clockwise; end if the stack is empty."""
    b = st.board
    for p in range(st.players):
        if st.shiny_of[p] >= 0:
            b.shiny[st.shiny_of[p]] = -1
        st.shiny_of[p] = -1
        st.moved[p] = 0
    for c in st.token_cells:
        b.stones[c] = b.frozen[c] = 0
    st.token_cells = []
    b.no_graveyards = 0
    st.event("end_round", None, scores=list(st.scores), stack=st.stack_size, game_over=st.stack_size == 0)
    st.round += 1
    st.game_stats["rounds"] = st.round
    st.first_player = (st.first_player + 1) % st.players
    if st.stack_size == 0:  # KRUKI-34
        st.over = True


def play_round(st, choose):
    """KRUKI-10: phase A (turns from the first player, clockwise), B, C, end of round."""
    if st.params["tile_draft"]:
        refill_pool(st)
    for i in range(st.players):
        take_turn(st, choose, (st.first_player + i) % st.players)
    phase_b(st)
    phase_c(st, choose)
    end_round(st)


def finish(st):
    """KRUKI-35/36: token points, then the final statistics."""
    keep, tp = st.params["token_keep_points"], st.params["three_points_value"]
    for p in range(st.players):
        h = st.hands[p]
        pts = keep * sum(h[:R.PLAYABLE_TOKEN_KINDS]) + tp * h[THREE_POINTS]
        st.seat_stats["token_points"][p] = pts
        st.scores[p] += pts
    st.game_stats["crows_on_board_end"] = st.board.crows_on_board()
    st.event("end", None, scores=list(st.scores), token_points=list(st.seat_stats["token_points"]))


def ranking(scores, junk_unused):
    """KRUKI-36: by score, then unused own Junk above used; returns (ranks, win60, tie_break code)."""
    ranks, win60 = rank_and_win60([(s, j) for s, j in zip(scores, junk_unused)])
    top = max(scores)
    if scores.count(top) == 1:
        tie = 0
    else:
        tie = 1 if ranks.count(1) == 1 else 2
    return ranks, win60, tie


def record(st):
    ranks, win60, tie = ranking(st.scores, st.junk_unused)
    st.game_stats["tie_break"] = tie
    seat = {"score": list(st.scores), "rank": ranks, "win60": win60}
    seat.update({k: list(v) for k, v in st.seat_stats.items()})
    game = {"error": st.error}
    game.update(st.game_stats)
    return GameRecord(seat=seat, game=game)


def run(st, choose):
    """Play rounds until the game ends (or a strategy errs), then score the tokens."""
    try:
        while not st.over:
            play_round(st, choose)
    except IllegalAction as e:
        st.error = 1
        st.event("error", None, code=1, message=str(e))
        return
    finish(st)


def describe_option(st, decision, option):
    """An option in words, for the trace."""
    b = st.board
    if decision == D_SOURCE:
        if option >= SRC_POOL:
            return f"pool tile {option - SRC_POOL} ({R.KIND_NAMES[st.pool[option - SRC_POOL]]})"
        return ("draw", "own junk", "skip")[option]
    if decision == D_JUNK_MODE:
        return ("normal", "replace")[option]
    if decision == D_TOKEN:
        return "pass" if option == TOKEN_PASS else R.TOKEN_NAMES[option]
    if decision == D_PAIR:
        return [b.xy(option[0]), b.xy(option[1])]
    if decision == D_SPIRAL:
        return R.DIR_NAMES[option]
    return b.xy(option)


def make_chooser(strategies, rng):
    """The chooser used in play: build the seat's observation and ask its strategy (only the observation, the options,
    the game's random stream and the strategy's parameters are passed)."""
    fns = []
    for name, sp in strategies:
        fn = name if callable(name) else STRATEGY_FNS[name]
        fns.append((fn, dict(sp or {})))

    def choose(st, seat, decision, options, context):
        fn, sp = fns[seat]
        i = fn(observe(st, seat, context), decision, list(options), rng, sp)
        ok = isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(options)
        st.event("decide", seat, decision=DECISION_NAMES[decision], options=len(options), index=i,
                 choice=describe_option(st, decision, options[i]) if ok else None)
        return i
    return choose


def play_game(params, players, seed, game_index, strategies, trace=None):
    """One full game (docs/game-protocol.md): the same (seed, game_index) always gives the same game."""
    rng = PyStream(seed, game_index)
    st = setup(params, players, rng, trace)
    run(st, make_chooser(strategies, rng))
    return record(st)


def play_game_state(params, players, seed, game_index, strategies, trace=None):
    """As play_game, but also returns the final state (for property tests)."""
    rng = PyStream(seed, game_index)
    st = setup(params, players, rng, trace)
    run(st, make_chooser(strategies, rng))
    return record(st), st


# ======================================================================================================================
# Strategies (KRUKI-38..41): fn(obs, decision, options, rng, params) -> index into options
# ======================================================================================================================
def random_strategy(obs, decision, options, rng, sp):
    """KRUKI-38: uniform over the options."""
    return rng.below(len(options))


class _Eval:
    """Values of hypothetical positions β for one heuristic seat (rules §9 common definitions), on obs.board."""

    def __init__(self, obs, kind, sp):
        self.obs, self.b, self.me, self.kind, self.sp = obs, obs.board, obs.seat, kind, sp
        self.opps = [q for q in range(obs.players) if q != obs.seat]
        self.tokens_left = obs.token_stack_size > 0

    # -- common definitions --
    def best_new_shiny(self):
        """B(β): the best G(β, s) over the legal shiny tiles, 0 if none."""
        b, best = self.b, 0
        for s in legal_shiny_tiles(b):
            b.shiny[s] = PROBE
            best = max(best, shiny_points(b, s)[0])
            b.shiny[s] = -1
        return best

    def opp(self, my_cell):
        """Opp(β): mean of W_q over the opponents (β has my shiny on my_cell, or none if -1)."""
        obs, total, bval = self.obs, 0, None
        for q in self.opps:
            s = obs.shiny_of[q]
            if s >= 0:
                total += shiny_points(self.b, s)[0]
            elif not obs.moved[q]:
                if bval is None:
                    bval = self.best_new_shiny()
                total += bval
        return total / len(self.opps)

    def stage1(self, my_cell, own_junk, f3_allowed=True):
        """(stage-1 value, tie preference) of β: greedy/blocker V_me; weighted w1 f1 + w2 f2 + w3 f3 + w5 f5."""
        b, sp = self.b, self.sp
        if my_cell >= 0:
            pts, n, _ = shiny_points(b, my_cell)
        else:
            pts = n = 0
        empty_pref = 1 if (my_cell >= 0 and f3_allowed and b.kind[my_cell] == EMPTY and self.tokens_left) else 0
        if self.kind == "weighted":
            v = sp["w1"] * n + sp["w2"] * (pts - n) + sp["w3"] * empty_pref + sp["w5"] * own_junk
            return v, 0
        return float(pts), empty_pref

    def final(self, v1, my_cell):
        """The full objective: greedy J = V_me; blocker J = V_me - lambda*Opp; weighted v1 + w4*Opp."""
        if self.kind == "greedy":
            return v1
        if self.kind == "blocker":
            return v1 - self.sp["lambda"] * self.opp(my_cell)
        return v1 + self.sp["w4"] * self.opp(my_cell)

    @property
    def slack(self):
        return None if self.kind == "greedy" else self.sp["slack"]

    # -- (cell, shiny) options --
    def _apply(self, c, tile, spawn):
        b = self.b
        if c is None:
            return 0
        b.add_tile(c, tile)
        n = min(spawn, self.obs.supply)
        b.crows[c] += n
        return n

    def _undo(self, c, n):
        if c is not None:
            self.b.crows[c] -= n
            self.b.remove_tile(c)

    def placements(self, cells, tile=JUNK, spawn=0, own_junk=0, shinies=None):
        """Every (cell, shiny) option, scored. cells=None: shiny only, on the board as it stands.
        Returns [(cell, shiny, final, pref)] for the options that survive stage 1, in enumeration order."""
        b, me = self.b, self.me
        scored = []
        for c in (cells if cells is not None else [None]):
            n = self._apply(c, tile, spawn)
            opts = shinies if (shinies is not None and c is None) else legal_shiny_tiles(b)
            for s in opts or [-1]:
                if s >= 0:
                    b.shiny[s] = me
                v1, pref = self.stage1(s, own_junk)
                if s >= 0:
                    b.shiny[s] = -1
                scored.append((c, s, v1, pref))
            self._undo(c, n)
        if self.slack is None:
            return [(c, s, v1, pref) for c, s, v1, pref in scored]
        floor = max(e[2] for e in scored) - self.slack
        out = []
        for c, s, v1, pref in scored:
            if v1 < floor:
                continue
            n = self._apply(c, tile, spawn)
            if s >= 0:
                b.shiny[s] = me
            out.append((c, s, self.final(v1, s), pref))
            if s >= 0:
                b.shiny[s] = -1
            self._undo(c, n)
        return out

    @staticmethod
    def value(opts):
        return max(e[2] for e in opts)

    @staticmethod
    def pick(opts, rng):
        """The best option by (value, preference); ties uniform in enumeration order."""
        best = max((e[2], e[3]) for e in opts)
        tied = [e for e in opts if (e[2], e[3]) == best]
        return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]

    # -- token candidates --
    def token_candidates(self, kinds):
        """Greedy: GRAVESTONES on the own shiny; TWO_CROWS onto a tile next to it. Blocker/weighted add NO_GRAVEYARDS
        and NO_FLOCKING on every crow tile. Returns [(kind, target)] in kind, then target order."""
        b, my = self.b, self.obs.shiny_of[self.me]
        out = []
        if self.kind != "greedy" and NO_GRAVEYARDS in kinds:
            out.append((NO_GRAVEYARDS, None))
        if GRAVESTONES in kinds and my >= 0:
            out.append((GRAVESTONES, my))
        if self.kind != "greedy" and NO_FLOCKING in kinds:
            out.extend((NO_FLOCKING, t) for t in crow_tiles(b))
        if TWO_CROWS in kinds and my >= 0:
            adj = sorted(my + d for d in b.delta if b.kind[my + d] != GAP and b.shiny[my + d] < 0)
            for a, a2 in two_crows_pairs(b):
                for d in adj:
                    if d != a and d != a2:
                        out.append((TWO_CROWS, (a, a2, d)))
        return out

    def token_value(self, kind, target):
        """Objective of β = the board after the token (kind None: pass)."""
        b, my = self.b, self.obs.shiny_of[self.me]
        saved = b.no_graveyards
        if kind == NO_GRAVEYARDS:
            b.no_graveyards = 1
        elif kind == GRAVESTONES:
            b.stones[target] += 1
        elif kind == NO_FLOCKING:
            b.frozen[target] += 1
        elif kind == TWO_CROWS:
            a, a2, d = target
            b.crows[a] -= 1
            b.crows[a2] -= 1
            b.crows[d] += 2
        v1, _ = self.stage1(my, 0, f3_allowed=False)
        val = self.final(v1, my)
        b.no_graveyards = saved
        if kind == GRAVESTONES:
            b.stones[target] -= 1
        elif kind == NO_FLOCKING:
            b.frozen[target] -= 1
        elif kind == TWO_CROWS:
            b.crows[a] += 1
            b.crows[a2] += 1
            b.crows[d] -= 2
        return val

    def scored_tokens(self, kinds):
        return [(k, t, self.token_value(k, t), 0) for k, t in self.token_candidates(kinds)]


def _spiral_choice(obs):
    """KRUKI-39 step 4: B0 after each start with every shiny and token removed; max if the chooser is next round's
    first player, else min; ties N, E, S, W."""
    m = obs.context["murder"]
    maximise = obs.context["chooser"] == (obs.first_player + 1) % obs.players
    best_i, best = 0, None
    for i in range(4):
        b = obs.board.copy()
        scatter(b, m, i, obs.params["murder_removed"])
        for c in b.tiles:
            b.shiny[c] = -1
            b.stones[c] = 0
            b.frozen[c] = 0
        b.no_graveyards = 0
        ev = _Eval(obs, "greedy", {})
        ev.b = b
        v = ev.best_new_shiny()
        if best is None or (v > best if maximise else v < best):
            best_i, best = i, v
    return best_i


def _heuristic(kind):
    def strategy(obs, decision, options, rng, sp):
        ev = _Eval(obs, kind, sp)
        ctx = obs.context
        if decision == D_SPIRAL:
            return _spiral_choice(obs)
        if decision in (D_JUNK_MODE, D_REPLACE):  # heuristics use Junk only in normal mode
            return 0
        if decision == D_CELL:
            opts = ev.placements(options, ctx["tile"], ctx["spawn"], ctx.get("own", 0))
            return options.index(ev.pick(opts, rng)[0])
        if decision == D_SHINY:
            opts = ev.placements(None, shinies=options)
            return options.index(ev.pick(opts, rng)[1])
        if decision == D_SOURCE:
            return options.index(_source_choice(ev, obs, options, rng, kind, sp))
        if decision == D_TOKEN:
            cands = ev.scored_tokens([k for k in options if k != TOKEN_PASS])
            if not cands:
                return 0
            best = ev.pick(cands, rng)
            gain = best[2] - ev.token_value(None, None)
            return options.index(best[0]) if gain > obs.params["token_keep_points"] else 0
        cands = [e for e in ev.scored_tokens([ctx["token"]])]
        if decision == D_TARGET:
            cands = [e for e in cands if e[1] in options]
            return options.index(ev.pick(cands, rng)[1]) if cands else 0
        if decision == D_PAIR:
            cands = [e for e in cands if (e[1][0], e[1][1]) in options]
            if not cands:
                return 0
            t = ev.pick(cands, rng)[1]
            return options.index((t[0], t[1]))
        if decision == D_DEST:
            pair = tuple(ctx["pair"])
            cands = [e for e in cands if (e[1][0], e[1][1]) == pair and e[1][2] in options]
            return options.index(ev.pick(cands, rng)[1][2]) if cands else 0
        return 0
    strategy.__name__ = kind
    return strategy


def _source_choice(ev, obs, options, rng, kind, sp):
    """KRUKI-39..41 step 1 (the drawn tile is not seen)."""
    margin = 0.0 if kind == "weighted" else sp["junk_margin"]
    has_junk = SRC_JUNK in options
    j_junk = None
    if has_junk:
        cells = legal_cells(ev.b)
        j_junk = ev.value(ev.placements(cells, JUNK, 0, own_junk=1))
    pool = [o for o in options if o >= SRC_POOL]
    if pool:  # tile-draft: the best pool tile by its step-2 value
        cells = legal_cells(ev.b)
        by_kind = {}
        for o in pool:
            t = obs.pool[o - SRC_POOL]
            if t not in by_kind:
                by_kind[t] = ev.value(ev.placements(cells, t, R.spawn_of(t), 0))
        best = max(by_kind[obs.pool[o - SRC_POOL]] for o in pool)
        if has_junk and j_junk >= best + margin:
            return SRC_JUNK
        tied = [o for o in pool if by_kind[obs.pool[o - SRC_POOL]] == best]
        return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]
    if not has_junk:
        return options[0]
    j0 = ev.value(ev.placements(None))  # the draw proxy
    if SRC_DRAW in options:
        return SRC_JUNK if j_junk >= j0 + margin else SRC_DRAW
    return SRC_JUNK if j_junk > j0 else SRC_SKIP  # the source is empty: own Junk or skip


STRATEGY_FNS = {
    "random": random_strategy,
    "greedy": _heuristic("greedy"),
    "blocker": _heuristic("blocker"),
    "weighted": _heuristic("weighted"),
}
