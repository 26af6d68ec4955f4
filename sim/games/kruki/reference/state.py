"""Crows reference: the full game state, setup (KRUKI-5..8) and the observation a seat sees (KRUKI-37)."""
from sim.games.kruki import rules as R
from sim.games.kruki.reference.board import Board


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
        d["board"] = (b.half, tuple(b.kind), tuple(b.crows), tuple(b.shiny), tuple(b.stones), tuple(b.frozen),
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
