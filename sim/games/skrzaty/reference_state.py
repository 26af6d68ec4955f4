"""Skrzaty reference (reference.py): the table's state, what a seat observes, and how a decision is asked.

``new_game(...) -> State`` builds an empty table (no draws). Cards are named by their `id` everywhere (hands, Market,
deck, cities). A hand is kept sorted by id. A city is a list of ``[id, gnomes]`` pairs in play order. The deck is a
list, top first. Every decision goes through ``decide``; a test may set
``st.chooser = f(st, seat, kind, options) -> index or None`` to script decisions (None = ask the seat's strategy).
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field

from sim.rng import PyStream
from sim.games.skrzaty import rules as R
from sim.games.skrzaty.obs import BARTER, KEEP, PICK, PLACE, PLAY, TOKEN
from sim.games.skrzaty.reference_strategies import choose

DECISIONS = {KEEP: "keep", PLAY: "play", BARTER: "barter", TOKEN: "token", PLACE: "place", PICK: "pick"}

Card = namedtuple("Card", "id colour value spaces vp effect amount")


class IllegalAction(Exception):
    """A strategy (or a script) returned something that is not one of the legal options."""


# ==================================================================================================== state
@dataclass
class State:
    params: dict
    players: int
    data: R.SkrzatyData
    rng: PyStream
    strategies: list
    trace: list | None = None
    chooser: object = None  # tests: f(st, seat, kind, options) -> index or None
    card: dict = field(default_factory=dict)  # id -> Card
    round: int = 0  # 0 = setup, 1..rounds, rounds+1 = final ranking
    row: list = field(default_factory=list)  # Reward row R1..R(rounds+1): (card number, colour, type code)
    markers: list = field(default_factory=list)  # markers[r-1][k-1] = seat on rank k of Rr, -1 free
    end_markers: list = field(default_factory=list)  # seat on End-tile rank k, -1 free
    deck: list = field(default_factory=list)  # ids, top first
    market: list = field(default_factory=list)  # ids by Market position
    hands: list = field(default_factory=list)  # per seat, ids ascending
    returned: list = field(default_factory=list)  # per seat, ids returned at setup (private)
    city: list = field(default_factory=list)  # per seat, [id, gnomes] in play order
    reserve: list = field(default_factory=list)
    pool: int = 0
    supply: list = field(default_factory=list)  # face-up tokens per kind
    held: list = field(default_factory=list)  # held[seat][kind]
    vp_rewards: list = field(default_factory=list)
    vp_end_tile: list = field(default_factory=list)
    first_player: int = 0
    order: list = field(default_factory=list)  # this round's turn order
    turn_pos: list = field(default_factory=list)  # turn_pos[seat] this round
    played: list = field(default_factory=list)  # (seat, id) this round, in play order
    taken: list = field(default_factory=list)  # (round, seat, id, "pick"|"barter"): public Market takes
    recycled: list = field(default_factory=list)  # ids that went from the Market to the deck bottom
    rank_keys: dict = field(default_factory=dict)  # last round ranking: seat -> (colour, value, guild bonus)
    stats: dict = field(default_factory=dict)  # seat column -> per-seat list
    pool_exhausted_round: int = 0
    final_order: list = field(default_factory=list)

    # --- small readable helpers
    @property
    def P(self):
        return self.players

    @property
    def rounds(self):
        return self.params["rounds"]

    def best_colour(self):
        return self.row[self.round - 1][1] if 1 <= self.round <= self.rounds else -1

    def end_colour(self):
        return self.row[self.rounds][1]  # SKRZATY-23: the card under the End tile

    def empty_spaces(self, seat):
        return sum(self.card[cid].spaces - g for cid, g in self.city[seat])

    def is_filled(self, seat, i):
        cid, g = self.city[seat][i]
        return g == self.card[cid].spaces

    def filled_cards(self, seat):
        return [cid for cid, g in self.city[seat] if g == self.card[cid].spaces]

    def log(self, kind, seat=-1, **info):
        if self.trace is not None:
            self.trace.append({"kind": kind, "seat": seat, "round": self.round, **info})

    def bump(self, column, seat, n=1):
        self.stats[column][seat] += n


def new_game(params, players, seed=0, game_index=0, strategies=None, data=None, trace=None):
    """An empty table for P players: parameters, data, stream, pool and token supply set; nothing dealt."""
    prm = dict(R.DEFAULT_PARAMS)
    prm.update(params or {})
    if data is None:
        data = R.default_data()
    elif isinstance(data, dict):
        data = R.load_data(data)
    R.validate(prm, players, data)
    strategies = normalise_strategies(strategies or [("random", {})] * players, players)
    st = State(prm, players, data, PyStream(seed, game_index), strategies, trace)
    c = data.cards
    st.card = {cid: Card(cid, c.colour[i], c.value[i], c.spaces[i], c.vp[i], c.effect[i], c.amount[i])
               for i, cid in enumerate(c.ids)}
    st.pool = prm["gnome_pool"]  # SKRZATY-7/24
    st.supply = R.token_supply(data)  # SKRZATY-24
    st.hands = [[] for _ in range(players)]
    st.returned = [[] for _ in range(players)]
    st.city = [[] for _ in range(players)]
    st.reserve = [0] * players
    st.held = [[0] * len(st.supply) for _ in range(players)]
    st.vp_rewards = [0] * players
    st.vp_end_tile = [0] * players
    st.turn_pos = list(range(players))
    st.order = list(range(players))
    st.stats = {col: [0] * players for col in R.SEAT_COLUMNS}
    st.markers = [[-1] * players for _ in range(prm["rounds"])]
    st.end_markers = [-1] * players
    return st


def normalise_strategies(strategies, players):
    if len(strategies) != players:
        raise R.SpecError(f"skrzaty needs one strategy per seat: {players}, got {len(strategies)}")
    out = []
    for s in strategies:
        name, sp = (s, {}) if isinstance(s, str) else s
        info = next((x for x in R.STRATEGIES if x.name == name), None)
        if info is None:
            raise R.SpecError(f"unknown strategy '{name}' for skrzaty; accepted: {', '.join(R.STRATEGY_NAMES)}")
        full = dict(info.params)
        full.update(sp or {})
        out.append((name, full))
    return out


# ==================================================================================================== observation
@dataclass(frozen=True)
class Observation:
    """What one seat may know at a decision (SKRZATY-47): public state plus its own hand and returned cards."""
    seat: int
    players: int
    kind: int  # decision kind
    round: int  # 0 at setup
    rounds: int
    params: dict  # the rule parameters (public)
    best_colour: int  # -1 at setup
    end_colour: int
    row_colour: tuple  # R1..R(rounds+1)
    row_type: tuple
    markers: tuple  # per round, seat per rank (-1 free)
    first_player: int
    order: tuple
    turn_pos: int  # own
    market: tuple
    cities: tuple  # per seat, ((id, gnomes), ...)
    reserves: tuple
    vp_rewards: tuple
    held: tuple  # per seat, tokens per kind
    supply: tuple
    pool: int
    deck_size: int
    hand_sizes: tuple
    played: tuple  # ((seat, id), ...) this round
    taken: tuple  # ((round, seat, id, how), ...)
    recycled: tuple
    hand: tuple  # own hand (D1: own dealt cards)
    returned: tuple  # own returned cards
    card: dict = field(compare=False, repr=False)  # the card table (public rules data)
    tokens: R.BonusTokens = field(compare=False, repr=False)


def observe(st, seat, kind, dealt=None):
    """Build `seat`'s observation. At setup (D1) only the own dealt cards, the Reward row, the End colour, the
    token supply, P and the seat are meaningful; nothing else has happened yet (rules §5, D1)."""
    return Observation(
        seat=seat, players=st.P, kind=kind, round=st.round, rounds=st.rounds, params=dict(st.params),
        best_colour=st.best_colour(), end_colour=st.end_colour(),
        row_colour=tuple(c for _, c, _ in st.row), row_type=tuple(t for _, _, t in st.row),
        markers=tuple(tuple(m) for m in st.markers), first_player=st.first_player if st.round else -1,
        order=tuple(st.order) if st.round else (), turn_pos=st.turn_pos[seat] if st.round else -1,
        market=tuple(st.market), cities=tuple(tuple((cid, g) for cid, g in c) for c in st.city),
        reserves=tuple(st.reserve), vp_rewards=tuple(st.vp_rewards), held=tuple(tuple(h) for h in st.held),
        supply=tuple(st.supply), pool=st.pool, deck_size=len(st.deck),
        hand_sizes=tuple(len(h) for h in st.hands), played=tuple(st.played), taken=tuple(st.taken),
        recycled=tuple(st.recycled), hand=tuple(dealt if dealt is not None else st.hands[seat]),
        returned=tuple(st.returned[seat]), card=st.card, tokens=st.data.tokens)


def decide(st, seat, kind, options, dealt=None):
    """Ask `seat` to choose among `options` (a list in the canonical order); returns the chosen option."""
    if len(options) == 1:
        choice = options[0]  # no choice, no draw
    else:
        i = st.chooser(st, seat, kind, options) if st.chooser is not None else None
        if i is None:
            name, sp = st.strategies[seat]
            obs = None if name == "random" else observe(st, seat, kind, dealt)  # §5 random reads only the options
            i = choose(name, sp, kind, obs, options, st.rng)
        if not (isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(options)):
            raise IllegalAction(f"seat {seat + 1} {DECISIONS[kind]}: {i!r} is not an index into {len(options)} options")
        choice = options[i]
    st.log("decide", seat, decision=DECISIONS[kind], options=len(options), choice=choice)
    return choice
