"""Skrzaty: the readable pure-Python reference rules (docs/rules/skrzaty.md), for differential tests against the
kernel and to explain a surprising result. Rule ids are cited as `# SKRZATY-n`.

Entry point
-----------
``play_game(params, players, seed, game_index, strategies, trace=None, data=None) -> GameRecord``

- `params`: resolved rule parameters (missing names take their defaults from `rules.PARAMS`);
- `strategies`: one ``(name, params dict)`` per seat (a bare name is accepted; missing strategy params take defaults);
- `trace`: a list to which one dict per event is appended;
- `data`: the tables (`rules.SkrzatyData`, or a dict of paths for `rules.load_data`); None = the shipped defaults.

State and step functions (tests inject states and script decisions with them)
------------------------------------------------------------------------------
``new_game(...) -> State`` builds an empty table (no draws); ``setup(st)`` does SKRZATY-22..28; each round is
``start_round(st, r)`` (order + Market), ``play_turn(st, seat)`` per seat in ``st.order`` (the D2 choice, then
``play_card(st, seat, card_id)``), ``rank_round(st) -> ranking``, ``award_round(st, ranking)``,
``market_pick(st, ranking)``; the end is ``final_ranking(st) -> order``, ``award_end_tile(st, order)``,
``record(st) -> GameRecord``. ``run_game(st)`` chains them. Every decision goes through ``decide``; a test may set
``st.chooser = f(st, seat, kind, options) -> index or None`` to script decisions (None = ask the seat's strategy).

Cards are named by their `id` everywhere (hands, Market, deck, cities). A hand is kept sorted by id. A city is a
list of ``[id, gnomes]`` pairs in play order. The deck is a list, top first.

Random-draw order (all draws from ``sim.rng.PyStream(seed, game_index)``)
-----------------------------------------------------------------------
1. SKRZATY-22: ``shuffle`` the Reward cards for P (ascending card number); R1..R(rounds+1) = the first rounds+1.
2. SKRZATY-25: ``shuffle`` the City card ids (ascending id); the top of the deck is element 0.
3. SKRZATY-26: D1 keep decisions, seat 0 first (all see only their own dealt cards; nothing changes until all chose).
4. SKRZATY-28: if `first_player` = -1, ``below(P)`` draws the first player.
5. Then the rounds and the final ranking; the only draws are `random` strategy decisions, in the order the game asks
   them. A decision with exactly one legal option is taken without asking anyone (no draw). `random` draws
   ``below(len(options))`` over the options enumerated in this canonical order:
   - D1 keep: all `hand_keep`-subsets of the dealt cards sorted by id, in ``itertools.combinations`` order;
   - D2 play: hand cards by ascending id;
   - D3 barter: ``None`` (decline) first, then ``(hand id, Market id)`` for hand cards by ascending id (outer) and
     Market cards by Market position (inner);
   - D4 token: token kinds with at least one face up, in file order (values are kind indices);
   - D5 placement: own city cards with an empty space, in city (play) order; one decision per gnome;
   - D6 pick: Market cards by Market position.

Heuristic arithmetic (for the kernel to reproduce bit for bit): floats are evaluated exactly as written below with
Python's precedence, left to right, e.g. ``w_vp * vp / 5`` is ``(w_vp * vp) / 5``.
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field
from itertools import combinations

from sim.rng import PyStream
from sim.spec import GameRecord, rank_and_win60
from sim.games.skrzaty import rules as R
from sim.games.skrzaty.rules import (
    E_BARTER, E_DELIVERY, E_DISGUISE, E_FINDER, E_FOREMAN, E_GUILD, E_QUARTER, E_CROSSROADS, E_FESTIVAL,
)

# Decision kinds (rules §5).
KEEP, PLAY, BARTER, TOKEN, PLACE, PICK = 1, 2, 3, 4, 5, 6
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
            i = choose(name, sp, kind, observe(st, seat, kind, dealt), options, st.rng)
        if not (isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(options)):
            raise IllegalAction(f"seat {seat} {DECISIONS[kind]}: {i!r} is not an index into {len(options)} options")
        choice = options[i]
    st.log("decide", seat, decision=DECISIONS[kind], options=len(options), choice=choice)
    return choice


# ==================================================================================================== setup
def setup(st):
    P, prm = st.P, st.params
    cards = R.reward_cards_for(st.data, P)
    st.rng.shuffle(cards)  # SKRZATY-22
    st.row = cards[: prm["rounds"] + 1]  # R1..R(rounds+1); the rest go back to the box
    st.log("reward_row", row=[(n, R.COLOURS[c], st.data.reward_spaces.types[t]) for n, c, t in st.row],
           end_colour=R.COLOURS[st.end_colour()])  # SKRZATY-23
    st.deck = R.initial_deck(st.data)
    st.rng.shuffle(st.deck)  # SKRZATY-25
    deal = prm["deal"]
    dealt = []
    for seat in range(P):  # SKRZATY-26: seat 0 first, `deal` cards at a time from the top
        dealt.append(sorted(st.deck[:deal]))
        del st.deck[:deal]
    kept = []
    for seat in range(P):  # D1, simultaneous: nobody's choice changes the state before all chose
        options = list(combinations(dealt[seat], prm["hand_keep"]))
        kept.append(list(decide(st, seat, KEEP, options, dealt=dealt[seat])))
    for seat in range(P):
        st.hands[seat] = kept[seat]
        st.returned[seat] = [cid for cid in dealt[seat] if cid not in kept[seat]]  # ascending id
        st.deck.extend(st.returned[seat])  # to the bottom, seat 0's first
        st.log("keep", seat, hand=list(kept[seat]), returned=list(st.returned[seat]))
    fp = prm["first_player"]
    st.first_player = st.rng.below(P) if fp < 0 else fp  # SKRZATY-28
    st.log("first_player", st.first_player)


# ==================================================================================================== a round
def start_round(st, r):
    """SKRZATY-29/30/31: set round r's turn order and build the Market."""
    P, prm = st.P, st.params
    st.round = r
    first = st.first_player if prm["fixed_first"] else (st.first_player + r - 1) % P  # SKRZATY-30
    st.order = [(first + i) % P for i in range(P)]
    for pos, seat in enumerate(st.order):
        st.turn_pos[seat] = pos
    st.played = []
    size = P + prm["market_extra"]
    need = size - len(st.market) if prm["market_keep"] else size  # SKRZATY-31 (market-keep: refill)
    if not prm["market_keep"]:
        assert not st.market
    assert len(st.deck) >= need, "deck ran short (SKRZATY-27 should prevent this)"
    st.market.extend(st.deck[:need])
    del st.deck[:need]
    st.log("round", st.order[0], order=list(st.order), best_colour=R.COLOURS[st.best_colour()],
           type=st.data.reward_spaces.types[st.row[r - 1][2]], market=list(st.market), deck=len(st.deck))


def play_turn(st, seat):
    """D2 then the play (SKRZATY-32)."""
    card = decide(st, seat, PLAY, list(st.hands[seat]))
    play_card(st, seat, card)


def play_card(st, seat, cid):
    """SKRZATY-32: the card goes face up into the city; an Instant effect resolves; then one placement."""
    if cid not in st.hands[seat]:
        raise IllegalAction(f"seat {seat} cannot play {cid}: not in hand {st.hands[seat]}")
    c = st.card[cid]
    st.hands[seat].remove(cid)
    st.city[seat].append([cid, 0])
    st.played.append((seat, cid))
    st.bump(R.CARD_COLOUR_COLUMNS[c.colour], seat)
    st.bump("cards_played", seat)
    st.bump("city_spaces", seat, c.spaces)
    st.log("play", seat, card=cid, colour=R.COLOURS[c.colour], value=c.value, effect=R.EFFECTS[c.effect])
    if R.is_instant(c.effect):  # SKRZATY-42: Instant effects resolve whatever the card's gnomes
        st.bump(f"instant_{R.EFFECTS[c.effect]}", seat)
    if c.effect == E_DELIVERY:  # SKRZATY-8
        gain_event(st, seat, gnomes=c.amount, source="delivery", place=False)
    elif c.effect == E_FINDER:  # SKRZATY-9: one gain event, `amount` tokens one at a time
        gain_event(st, seat, bonus=c.amount, source="finder", place=False)
    elif c.effect == E_BARTER:  # SKRZATY-10
        barter(st, seat)
    elif c.effect == E_DISGUISE:  # SKRZATY-11: applied in rank_round
        if st.best_colour() != c.colour:
            st.bump("disguise_changed", seat)
    placement(st, seat)  # SKRZATY-39 + "Precise readings": a placement window after every play


def barter(st, seat):
    """SKRZATY-10 / D3: decline, or swap a hand card with a Market card (the hand card takes its position)."""
    options = [None] + [(h, m) for h in sorted(st.hands[seat]) for m in st.market]
    choice = decide(st, seat, BARTER, options)
    if choice is None:
        st.log("barter", seat, swap=None)
        return
    h, m = choice
    st.hands[seat].remove(h)
    st.hands[seat].append(m)
    st.hands[seat].sort()
    st.market[st.market.index(m)] = h
    st.taken.append((st.round, seat, m, "barter"))
    st.bump("barter_swaps", seat)
    st.log("barter", seat, swap=(h, m), market=list(st.market))


def rank_round(st):
    """SKRZATY-33: sort by (0 if ranking colour is best else 1, -ranking value, turn position)."""
    best = st.best_colour()
    keys = {}
    for seat, cid in st.played:
        c = st.card[cid]
        colour = best if c.effect == E_DISGUISE else c.colour  # SKRZATY-11
        bonus = guild_bonus(st, seat, c.colour)  # SKRZATY-13: by the printed colour
        if bonus > 0:
            st.bump("guild_applied", seat)
        st.rank_keys[seat] = (colour, c.value + bonus, bonus)
        keys[seat] = (0 if colour == best else 1, -(c.value + bonus), st.turn_pos[seat])
    ranking = sorted(keys, key=lambda s: keys[s])
    st.log("ranking", ranking[0], ranking=ranking,
           keys={s: {"colour": R.COLOURS[st.rank_keys[s][0]], "value": st.rank_keys[s][1],
                     "guild": st.rank_keys[s][2]} for s in ranking})
    return ranking


def guild_bonus(st, seat, colour):
    """SKRZATY-13: sum of `amount` over the seat's filled guild cards of this printed colour."""
    return sum(st.card[cid].amount for cid, g in st.city[seat]
               if st.card[cid].effect == E_GUILD and g == st.card[cid].spaces and st.card[cid].colour == colour)


def award_round(st, ranking):
    """SKRZATY-34: in ranking order, a marker on the highest free space of Rr and its reward (SKRZATY-40)."""
    spaces = R.reward_spaces_for(st.data, st.P)[st.row[st.round - 1][2]]
    for k, seat in enumerate(ranking):
        st.markers[st.round - 1][k] = seat
        st.bump(R.RANK_COUNT_COLUMNS[k], seat)
        gnomes, vp, bonus = spaces[k]
        st.log("marker", seat, rank=k + 1, gnomes=gnomes, vp=vp, bonus=bonus)
        # SKRZATY-12 / Precise readings: foremen counted when the marker is placed, before the space's gnomes
        foreman = sum(st.card[cid].amount for cid in st.filled_cards(seat) if st.card[cid].effect == E_FOREMAN)
        gain_event(st, seat, gnomes=gnomes, foreman=foreman, vp=vp, bonus=bonus, source=f"rank {k + 1}")


def market_pick(st, ranking):
    """SKRZATY-35/36 (D6): each player takes one Market card; leftovers go to the deck bottom (or stay)."""
    pickers = list(ranking) if st.params["market_ranked"] else list(reversed(ranking))
    for seat in pickers:
        cid = decide(st, seat, PICK, list(st.market))
        st.market.remove(cid)
        st.hands[seat].append(cid)
        st.hands[seat].sort()
        st.taken.append((st.round, seat, cid, "pick"))
        st.log("pick", seat, card=cid)
    if not st.params["market_keep"]:  # SKRZATY-35: to the bottom in Market-position order
        st.deck.extend(st.market)
        st.recycled.extend(st.market)
        st.log("recycle", cards=list(st.market), deck=len(st.deck))
        st.market = []


def play_round(st, r):
    start_round(st, r)
    for seat in list(st.order):  # SKRZATY-32
        play_turn(st, seat)
    ranking = rank_round(st)
    award_round(st, ranking)
    market_pick(st, ranking)
    return ranking


# ==================================================================================================== gnomes
def gain_gnomes(st, seat, n):
    """SKRZATY-38: min(n, pool) move to the reserve; the shortfall is lost. Returns the number received."""
    got = min(n, st.pool)
    st.pool -= got
    st.reserve[seat] += got
    st.bump("gnomes_gained", seat, got)
    st.bump("gnomes_wasted_pool", seat, n - got)
    if got > 0 and st.pool == 0 and st.pool_exhausted_round == 0:
        st.pool_exhausted_round = st.round  # rounds+1 during the final ranking
    return got


def gain_event(st, seat, gnomes=0, foreman=0, vp=0, bonus=0, source="", end_tile=False, place=True):
    """SKRZATY-40: (1) gnomes, (2) foreman extras, (3) VP, (4) Bonus tokens one at a time, (5) one placement."""
    got = gain_gnomes(st, seat, gnomes)
    fgot = gain_gnomes(st, seat, foreman) if foreman else 0
    st.bump("foreman_gnomes", seat, fgot)
    if end_tile:
        st.vp_end_tile[seat] += vp
    else:
        st.vp_rewards[seat] += vp
    st.log("gain", seat, source=source, gnomes=got, asked=gnomes, foreman=fgot, vp=vp, pool=st.pool)
    for _ in range(bonus):
        take_token(st, seat)
    if place:
        placement(st, seat)


def take_token(st, seat):
    """SKRZATY-41 (D4): a face-up token kind (its gnomes now, its VP at the end), or 1 gnome if none."""
    kinds = [k for k, n in enumerate(st.supply) if n > 0]
    if not kinds:
        st.bump("finder_fallbacks", seat)
        got = gain_gnomes(st, seat, 1)
        st.log("token", seat, token=None, gnomes=got)
        return
    k = decide(st, seat, TOKEN, kinds)
    st.supply[k] -= 1
    st.held[seat][k] += 1
    st.bump("tokens_taken", seat)
    got = gain_gnomes(st, seat, st.data.tokens.gnomes[k])
    st.log("token", seat, token=st.data.tokens.kinds[k], gnomes=got)


def placement(st, seat):
    """SKRZATY-39 (D5): reserve gnomes go one at a time onto empty spaces of own cards, until none is left."""
    while st.reserve[seat] > 0:
        options = [cid for cid, g in st.city[seat] if g < st.card[cid].spaces]
        if not options:
            return  # the rest wait in the reserve
        cid = decide(st, seat, PLACE, options)
        slot = next(x for x in st.city[seat] if x[0] == cid)
        slot[1] += 1
        st.reserve[seat] -= 1
        c = st.card[cid]
        filled = slot[1] == c.spaces
        st.log("place", seat, card=cid, gnomes=slot[1], spaces=c.spaces, filled=filled)
        if filled and R.is_ongoing(c.effect):  # SKRZATY-42: it works from now on
            st.bump(f"ongoing_filled_{R.EFFECTS[c.effect]}", seat)


# ==================================================================================================== the end
def final_ranking(st):
    """SKRZATY-43: End-colour holders first (sum, then highest card; or highest only under final-highest), then the
    others by highest hand card; remaining ties by turn position in the last round."""
    st.round = st.rounds + 1
    end = st.end_colour()
    keys = {}
    for seat in range(st.P):
        ends = [st.card[c].value for c in st.hands[seat] if st.card[c].colour == end]
        st.stats["end_colour_sum"][seat] = sum(ends)
        st.stats["end_colour_cards"][seat] = len(ends)
        if ends:
            primary = max(ends) if st.params["final_highest"] else sum(ends)
            keys[seat] = (0, -primary, -max(ends), st.turn_pos[seat])
        else:
            top = max((st.card[c].value for c in st.hands[seat]), default=0)
            keys[seat] = (1, -top, 0, st.turn_pos[seat])
    order = sorted(keys, key=lambda s: keys[s])
    for k, seat in enumerate(order):
        st.stats["final_rank"][seat] = k + 1
    st.final_order = order
    st.log("final_ranking", order[0], order=order, hands={s: list(st.hands[s]) for s in range(st.P)})
    return order


def award_end_tile(st, order):
    """SKRZATY-44: last markers on the End tile, top to bottom; gains without foreman (SKRZATY-12)."""
    tile = R.end_tile_for(st.data, st.P)
    for k, seat in enumerate(order):
        st.end_markers[k] = seat
        gnomes, vp, bonus = tile[k]
        gain_event(st, seat, gnomes=gnomes, vp=vp, bonus=bonus, source=f"end tile {k + 1}", end_tile=True)


def score_seat(st, seat):
    """SKRZATY-45: VP breakdown of one seat: cards, end effects, rewards, End tile, tokens (only filled cards)."""
    filled = [st.card[cid] for cid in st.filled_cards(seat)]
    by_colour = [0] * R.N_COLOURS
    for c in filled:
        by_colour[c.colour] += 1
    distinct = sum(1 for n in by_colour if n > 0)
    end_vp = {E_QUARTER: 0, E_CROSSROADS: 0, E_FESTIVAL: 0}
    for c in filled:
        if c.effect == E_QUARTER:  # SKRZATY-14
            end_vp[E_QUARTER] += c.amount * by_colour[c.colour]
        elif c.effect == E_CROSSROADS:  # SKRZATY-15
            end_vp[E_CROSSROADS] += c.amount * distinct
        elif c.effect == E_FESTIVAL and by_colour[c.colour] >= st.params["festival_min"]:  # SKRZATY-16
            end_vp[E_FESTIVAL] += c.amount
    vp_tokens = sum(n * st.data.tokens.vp[k] for k, n in enumerate(st.held[seat]))
    return {"vp_cards": sum(c.vp for c in filled), "vp_end_effects": sum(end_vp.values()),
            "vp_rewards": st.vp_rewards[seat], "vp_end_tile": st.vp_end_tile[seat], "vp_tokens": vp_tokens,
            "end_vp": end_vp, "filled": len(filled),
            "gnomes_on_cards": sum(g for _, g in st.city[seat])}


def record(st, error=0):
    """The GameRecord of a finished game (SKRZATY-45/46 and rules §8)."""
    P = st.P
    seat = {col: [0] * P for col in R.all_seat_columns()}
    game = {col: 0 for col in R.all_game_columns()}
    game["error"] = error
    if error:
        return GameRecord(seat, game)
    keys = []
    for s in range(P):
        sc = score_seat(st, s)
        for col in R.SEAT_COLUMNS:
            seat[col][s] = st.stats[col][s]
        for col in ("vp_cards", "vp_end_effects", "vp_rewards", "vp_end_tile", "vp_tokens"):
            seat[col][s] = sc[col]
        for e, col in zip(R.END_EFFECTS, R.END_EFFECT_COLUMNS):
            seat[col][s] = sc["end_vp"][e]
        seat["filled_cards"][s] = sc["filled"]
        seat["unfilled_cards"][s] = len(st.city[s]) - sc["filled"]
        seat["gnomes_placed"][s] = sc["gnomes_on_cards"]
        seat["gnomes_wasted_reserve"][s] = st.reserve[s]
        seat["score"][s] = sum(sc[c] for c in ("vp_cards", "vp_end_effects", "vp_rewards", "vp_end_tile",
                                                 "vp_tokens"))
        keys.append((seat["score"][s], sc["filled"], sc["gnomes_on_cards"]))  # SKRZATY-46
    seat["rank"], seat["win60"] = rank_and_win60(keys)
    game.update(final_winner_seat=st.final_order[0], first_player=st.first_player, end_colour=st.end_colour(),
                pool_left=st.pool, tokens_left=sum(st.supply), pool_exhausted_round=st.pool_exhausted_round,
                rounds_played=st.rounds)
    st.log("score", -1, scores=list(seat["score"]), ranks=list(seat["rank"]), win60=list(seat["win60"]))
    return GameRecord(seat, game)


def run_game(st):
    """Setup, `rounds` rounds, the final ranking and the End tile; returns the GameRecord."""
    try:
        setup(st)
        for r in range(1, st.rounds + 1):
            play_round(st, r)
        award_end_tile(st, final_ranking(st))
    except IllegalAction as exc:
        st.log("error", -1, code=R.ERR_ILLEGAL, message=str(exc))
        return record(st, error=R.ERR_ILLEGAL)
    return record(st)


def play_game(params, players, seed, game_index, strategies, trace=None, data=None):
    """One seeded game (docs/game-protocol.md). `data`: a `rules.SkrzatyData`, a dict of data-file paths keyed
    by table name like `rules.DATA_TABLES`, or None for the shipped defaults."""
    return run_game(new_game(params, players, seed, game_index, strategies, data, trace))


# ==================================================================================================== strategies
# Every strategy sees only an Observation (plus the legal options; `random` also gets the game's stream) and returns
# an index into `options`. Named heuristics are deterministic; remaining ties go to the lower card id (rules §9).

def choose(name, sparams, kind, obs, options, rng):
    if name == "random":
        return rng.below(len(options))  # rules §5: uniform over the canonical option list
    return HEURISTICS[name](kind, obs, options, sparams)


def gnome_yield(c):
    """Y(c): `amount` for delivery, 1 for finder, 2 for foreman, else 0."""
    if c.effect == E_DELIVERY:
        return c.amount
    if c.effect == E_FINDER:
        return 1
    if c.effect == E_FOREMAN:
        return 2
    return 0


def later_best(obs, c):
    """1 if c's colour is the best colour of a round after the current one (at setup: of any round)."""
    return 1 if c.colour in obs.row_colour[obs.round:obs.rounds] else 0


def own_empty_spaces(obs):
    return sum(obs.card[cid].spaces - g for cid, g in obs.cities[obs.seat])


def seen_guild_bonus(obs, seat, colour):
    """The guild bonus `seat` would get now for a card of this printed colour (its currently filled guilds)."""
    return sum(obs.card[cid].amount for cid, g in obs.cities[seat]
               if obs.card[cid].effect == E_GUILD and g == obs.card[cid].spaces and obs.card[cid].colour == colour)


def in_best_group(obs, c):
    return c.colour == obs.best_colour or c.effect == E_DISGUISE


def ranking_value(obs, seat, c):
    return c.value + seen_guild_bonus(obs, seat, c.colour)


def place_policy(obs, options):
    """Shared D5: fewest empty spaces (>= 1); ties: Ongoing effect first, then higher vp, then lower id."""
    def key(cid):
        c = obs.card[cid]
        g = next(g for x, g in obs.cities[obs.seat] if x == cid)
        return (c.spaces - g, 0 if R.is_ongoing(c.effect) else 1, -c.vp, cid)
    return options.index(min(options, key=key))


def token_policy(obs, options):
    """Shared D4: maximise vp + 2*min(gnomes, empty spaces in own city); ties: higher vp, then file order."""
    empty = own_empty_spaces(obs)
    t = obs.tokens
    return options.index(min(options, key=lambda k: (-(t.vp[k] + 2 * min(t.gnomes[k], empty)), -t.vp[k], k)))


def keep_pick_barter(kind, obs, options, K):
    """Shared D1/D3/D6 from a desirability K(card): keep the highest K, pick the highest K, barter the lowest-K
    hand card for the highest-K Market card if strictly better."""
    best_first = lambda cid: (-K(obs.card[cid]), cid)  # noqa: E731
    if kind == KEEP:
        kept = tuple(sorted(sorted(obs.hand, key=best_first)[: obs.params["hand_keep"]]))
        return options.index(kept)
    if kind == PICK:
        return options.index(min(options, key=best_first))
    if kind == BARTER:
        hand = [h for h in obs.hand]
        if not hand or not obs.market:
            return 0
        worst = min(hand, key=lambda cid: (K(obs.card[cid]), cid))
        top = min(obs.market, key=best_first)
        if K(obs.card[top]) > K(obs.card[worst]):
            return options.index((worst, top))
        return 0  # decline
    raise ValueError(kind)


def heuristic(play, K):
    """A named heuristic from its D2 rule `play(obs, options, sp) -> card id` and its K(obs, sp, card)."""
    def decide_(kind, obs, options, sp):
        if kind == PLAY:
            return options.index(play(obs, options, sp))
        if kind == PLACE:
            return place_policy(obs, options)
        if kind == TOKEN:
            return token_policy(obs, options)
        return keep_pick_barter(kind, obs, options, lambda c: K(obs, sp, c))
    return decide_


def builder_play(obs, hand, sp):
    """t = reserve - empty spaces + 2; the card whose spaces - Y is closest to t; ties: higher vp, higher value."""
    t = obs.reserves[obs.seat] - own_empty_spaces(obs) + 2
    return min(hand, key=lambda cid: (abs(obs.card[cid].spaces - gnome_yield(obs.card[cid]) - t),
                                      -obs.card[cid].vp, -obs.card[cid].value, cid))


def builder_k(obs, sp, c):
    return 10 * c.vp / c.spaces + 5 * gnome_yield(c) + c.value / 10


def ender_play(obs, hand, sp):
    """Never an End-colour card while holding another; the highest-ranking non-End card if one would rank in the
    best group, else the lowest-value one; with only End-colour cards, the lowest."""
    cards = [obs.card[cid] for cid in hand]
    others = [c for c in cards if c.colour != obs.end_colour]
    if not others:
        return min(cards, key=lambda c: (c.value, c.id)).id
    best = [c for c in others if in_best_group(obs, c)]
    if best:
        return min(best, key=lambda c: (-ranking_value(obs, obs.seat, c), c.id)).id
    return min(others, key=lambda c: (c.value, c.id)).id


def ender_k(obs, sp, c):
    return c.value + 30 * (1 if c.colour == obs.end_colour else 0)


def high_roller_play(obs, hand, sp):
    """The best ranking key if played now (disguise = best colour; active guild bonus included)."""
    return min(hand, key=lambda cid: (0 if in_best_group(obs, obs.card[cid]) else 1,
                                      -ranking_value(obs, obs.seat, obs.card[cid]), cid))


def high_roller_k(obs, sp, c):
    return c.value + 10 * later_best(obs, c)


def weighted_play(obs, hand, sp):
    """Maximise w_best*f_best + w_value*f_value + w_beats*f_beats + w_spaces*spaces + w_yield*Y - w_hold*f_end
    + w_vp*vp/5 + w_fill*f_fill; ties: lower id."""
    reserve = obs.reserves[obs.seat]
    theirs = [(0 if in_best_group(obs, obs.card[pid]) else 1, -ranking_value(obs, s, obs.card[pid]))
              for s, pid in obs.played if s != obs.seat]

    def score(cid):
        c = obs.card[cid]
        mine = (0 if in_best_group(obs, c) else 1, -ranking_value(obs, obs.seat, c))
        f_best = 1 if mine[0] == 0 else 0
        f_value = ranking_value(obs, obs.seat, c) / 20
        f_beats = sum(1 for k in theirs if mine < k) / (obs.players - 1)  # equal: the earlier player stays ahead
        f_end = 1 if c.colour == obs.end_colour else 0
        f_fill = 1 if reserve >= c.spaces else 0
        return (sp["w_best"] * f_best + sp["w_value"] * f_value + sp["w_beats"] * f_beats
                + sp["w_spaces"] * c.spaces + sp["w_yield"] * gnome_yield(c) - sp["w_hold"] * f_end
                + sp["w_vp"] * c.vp / 5 + sp["w_fill"] * f_fill)
    return min(hand, key=lambda cid: (-score(cid), cid))


def weighted_k(obs, sp, c):
    return (sp["w_best"] * later_best(obs, c) + sp["w_value"] * c.value / 20 + sp["w_spaces"] * c.spaces
            + sp["w_yield"] * gnome_yield(c) + sp["w_hold"] * (1 if c.colour == obs.end_colour else 0)
            + sp["w_vp"] * c.vp / 5)


HEURISTICS = {
    "builder": heuristic(builder_play, builder_k),
    "ender": heuristic(ender_play, ender_k),
    "high-roller": heuristic(high_roller_play, high_roller_k),
    "weighted": heuristic(weighted_play, weighted_k),
}
