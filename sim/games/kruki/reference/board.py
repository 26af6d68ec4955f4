"""Crows reference: the board, legality of every option (KRUKI-13, 15, 19, 24, 25), the flight (KRUKI-26, 27),
scoring (KRUKI-28) and the murder scatter (KRUKI-30, 31). Layout: the package docstring."""
from bisect import insort

from sim.games.kruki import rules as R
from sim.games.kruki.rules import GAP, GRAVESTONES, GRAVEYARD, JUNK, NO_FLOCKING, TRINKETS, TWO_CROWS


class Board:
    """The public table: tiles, crows, shinies, tokens lying on tiles, and the round's NO_GRAVEYARDS flag."""

    def __init__(self, half, score_cap=0):
        self.half = half
        self.side = side = 2 * half + 1
        n = side * side
        self.kind = [GAP] * n
        self.crows = [0] * n
        self.shiny = [-1] * n
        self.stones = [0] * n
        self.frozen = [0] * n
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


def _two_crows_dests(board, a, b):
    """KRUKI-25: tiles without a shiny that are not a source, raster order, one at a time."""
    return (t for t in board.tiles if board.shiny[t] < 0 and t != a and t != b)


def two_crows_dests(board, pair):
    return list(_two_crows_dests(board, *pair))


def two_crows_pairs(board):
    """KRUKI-25 source pairs, unordered, canonical order (see the module docstring); only pairs with a destination."""
    ct = crow_tiles(board)
    out = []
    for i, a in enumerate(ct):
        for b in ct[i:]:
            if a == b and board.crows[a] < 2:
                continue
            if next(_two_crows_dests(board, a, b), None) is not None:  # has a destination (stops at the first)
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

    `fly` applies it to every tile at once. The strategies ask only what one group sends to one shiny
    (`arrivals_at`, `_share_to`): the same rule read for one destination, which tests check against `fly`
    (test_reference_properties, test_scenarios).
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
    can reach it, so only their groups are resolved. Equals `fly` followed by `crows[s]`.

    A group sees s only up to the first gap, shiny or Junk from s outward: beyond a shiny its nearest shiny that way
    is that one, and beyond a Junk it would stop on the Junk (KRUKI-26)."""
    kind, crows, shiny = board.kind, board.crows, board.shiny
    total = crows[s]
    for d in board.delta:
        c, k = s + d, 1
        while kind[c] != GAP and shiny[c] < 0:
            if crows[c] > 0:
                total += _share_to(board, c, -d, k, s)
            if kind[c] == JUNK:
                break
            c, k = c + d, k + 1
    return total


def _share_to(board, t, e, k, s):
    """What `group_flight(board, t)` sends to s, the shiny the group on t sees at distance k in direction e with no
    Junk between: the other directions are walked only up to distance k, since a shiny farther away ties with
    nothing (KRUKI-26)."""
    if board.frozen[t]:
        return 0
    kind, shiny = board.kind, board.shiny
    ties, trinkets = 1, int(kind[s] == TRINKETS)
    for d in board.delta:
        if d == e:
            continue
        c, last = t + d, t + k * d  # the tile at distance k
        while kind[c] != GAP:
            if shiny[c] >= 0:
                if c != last:
                    return 0  # a nearer shiny takes the whole group
                ties += 1
                trinkets += kind[c] == TRINKETS
                break
            if c == last:
                break
            c += d
    if ties > 1 and trinkets:  # Trinkets break the tie [assumed: split among them]
        if kind[s] != TRINKETS:
            return 0
        ties = trinkets
    return board.crows[t] // ties


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
