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

The state, the observation and `decide` are in `reference_state.py` (cards named by their `id` everywhere); the
shipped strategies over an observation in `reference_strategies.py`.

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

from itertools import combinations

from sim.spec import GameRecord, rank_and_win60
from sim.games.skrzaty import rules as R
from sim.games.skrzaty.obs import BARTER, KEEP, PICK, PLACE, PLAY, TOKEN
from sim.games.skrzaty.reference_state import DECISIONS, IllegalAction, State, decide, new_game, observe
from sim.games.skrzaty.rules import (
    E_BARTER, E_CROSSROADS, E_DELIVERY, E_DISGUISE, E_FESTIVAL, E_FINDER, E_FOREMAN, E_GUILD, E_QUARTER,
)

__all__ = ["BARTER", "DECISIONS", "IllegalAction", "KEEP", "PICK", "PLACE", "PLAY", "State", "TOKEN", "new_game",
           "observe", "play_game"]


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
        raise IllegalAction(f"seat {seat + 1} cannot play {cid}: not in hand {st.hands[seat]}")
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
