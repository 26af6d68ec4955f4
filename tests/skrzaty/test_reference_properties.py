"""Property tests over random playouts of the Skrzaty reference: conservation, legality, score arithmetic,
ranks, determinism and that decisions depend only on the deciding seat's observation."""
import copy
import random
from collections import Counter

import pytest

from sim.games.skrzaty import reference as ref
from sim.games.skrzaty import reference_strategies as ref_strategies
from sim.games.skrzaty import rules as R
from sim.rng import PyStream
from sim.spec import SpecError

STRATS = list(R.STRATEGY_NAMES)
FLAGS = ("market_ranked", "market_keep", "final_highest", "fixed_first")
VARIANT_SETS = [(), ("market_ranked",), ("market_keep",), ("final_highest",), ("fixed_first",), FLAGS,
                ("market_ranked", "market_keep"), ("market_keep", "fixed_first", "final_highest")]
EXTRA_PARAMS = [{}, {}, {"gnome_pool": 25}, {"market_extra": 0}, {"rounds": 3, "hand_keep": 2, "deal": 3},
                {"hand_keep": 1, "deal": 2, "festival_min": 1}, {"first_player": 1, "market_extra": 3},
                {"gnome_pool": 999, "deal": 4}]


def configs(n, salt):
    """n deterministic pseudo-random configurations (players, params, strategies) that pass validation."""
    rnd = random.Random(salt)
    out = []
    while len(out) < n:
        players = rnd.randint(2, 5)
        params = {f: 1 for f in rnd.choice(VARIANT_SETS)}
        params.update(rnd.choice(EXTRA_PARAMS))
        strategies = [(s, {}) for s in (rnd.choice(STRATS) for _ in range(players))]
        if rnd.random() < 0.2:
            strategies[0] = ("weighted", {"w_best": rnd.uniform(-2, 2), "w_hold": rnd.uniform(-2, 2)})
        try:
            R.validate({**R.DEFAULT_PARAMS, **params}, players)
        except SpecError:
            continue
        out.append((players, params, strategies))
    return out


def legal_options(st, seat, kind):
    """The legal option set recomputed from the rules (rules §5), to compare with what the engine offers."""
    if kind == ref.PLAY:
        return sorted(st.hands[seat])
    if kind == ref.BARTER:
        return [None] + [(h, m) for h in sorted(st.hands[seat]) for m in st.market]
    if kind == ref.TOKEN:
        return [k for k, n in enumerate(st.supply) if n > 0]
    if kind == ref.PLACE:
        assert st.reserve[seat] > 0
        return [cid for cid, g in st.city[seat] if g < st.card[cid].spaces]
    if kind == ref.PICK:
        return list(st.market)
    return None  # KEEP: checked by size below


class Checker:
    """A chooser that checks every option list against the rules, then lets the strategy decide."""

    def __init__(self, invariance=False, rnd=None):
        self.invariance = invariance
        self.rnd = rnd
        self.count = Counter()

    def __call__(self, st, seat, kind, options):
        self.count[kind] += 1
        legal = legal_options(st, seat, kind)
        if legal is not None:
            assert options == legal, (kind, options, legal)
        else:
            assert len(set(options)) == len(options) and all(len(o) == st.params["hand_keep"] for o in options)
        if kind == ref.PLAY:
            assert len(st.hands[seat]) == st.params["hand_keep"] and seat not in [s for s, _ in st.played]
            assert seat == st.order[len(st.played)]  # turn order (SKRZATY-32)
        if self.invariance and kind != ref.KEEP:
            self.check_hidden_information(st, seat, kind, options)
        return None

    def check_hidden_information(self, st, seat, kind, options):
        """Shuffle what `seat` cannot see (other hands, the deck order): same observation, same decision."""
        obs = ref.observe(st, seat, kind)
        other = copy.copy(st)
        hidden = list(st.deck) + [c for s, h in enumerate(st.hands) if s != seat for c in h]
        self.rnd.shuffle(hidden)
        other.deck = hidden[: len(st.deck)]
        rest = hidden[len(st.deck):]
        other.hands = []
        for s, h in enumerate(st.hands):
            if s == seat:
                other.hands.append(list(h))
            else:
                other.hands.append(sorted(rest[: len(h)]))
                rest = rest[len(h):]
        obs2 = ref.observe(other, seat, kind)
        assert obs2 == obs
        name, sp = st.strategies[seat]
        r1, r2 = copy.deepcopy(st.rng), copy.deepcopy(st.rng)
        choose = ref_strategies.choose
        assert choose(name, sp, kind, obs, options, r1) == choose(name, sp, kind, obs2, options, r2)


def check_final_state(st, rec):
    P, prm, data = st.P, st.params, st.data
    seat, game = rec.seat, rec.game
    rounds, hk, extra = prm["rounds"], prm["hand_keep"], prm["market_extra"]
    n_cards = len(data.cards.ids)
    assert game["error"] == 0
    # Cards are conserved: each card exactly once in deck, Market, hands or cities.
    everywhere = st.deck + st.market + [c for h in st.hands for c in h] + [c for city in st.city for c, _ in city]
    assert sorted(everywhere) == sorted(data.cards.ids)
    assert all(len(h) == hk for h in st.hands)  # SKRZATY-37
    assert all(len(city) == rounds for city in st.city)
    assert len(st.market) == (extra if prm["market_keep"] else 0)
    assert len(st.deck) == n_cards - P * (hk + rounds) - len(st.market)
    # Gnomes are conserved; placement is mandatory; nobody overfills a card.
    assert sum(seat["gnomes_gained"]) + game["pool_left"] == prm["gnome_pool"] == st.pool + sum(seat["gnomes_gained"])
    for s in range(P):
        assert seat["gnomes_gained"][s] == seat["gnomes_placed"][s] + seat["gnomes_wasted_reserve"][s]
        assert all(0 <= g <= st.card[c].spaces for c, g in st.city[s])
        if st.reserve[s] > 0:
            assert st.empty_spaces(s) == 0
        assert seat["filled_cards"][s] + seat["unfilled_cards"][s] == rounds == seat["cards_played"][s]
        assert sum(seat[c][s] for c in R.CARD_COLOUR_COLUMNS) == rounds
        assert seat["city_spaces"][s] == sum(st.card[c].spaces for c, _ in st.city[s])
        assert seat["foreman_gnomes"][s] <= seat["gnomes_gained"][s]
    if game["pool_left"] == 0:
        assert 1 <= game["pool_exhausted_round"] <= rounds + 1
    else:
        assert game["pool_exhausted_round"] == 0 and sum(seat["gnomes_wasted_pool"]) == 0
    # Tokens are conserved.
    assert game["tokens_left"] + sum(seat["tokens_taken"]) == sum(data.tokens.count)
    assert [sum(h) for h in st.held] == seat["tokens_taken"]
    # Scores add up (SKRZATY-45).
    tile = R.end_tile_for(data, P)
    for s in range(P):
        parts = [seat[c][s] for c in ("vp_cards", "vp_end_effects", "vp_rewards", "vp_end_tile", "vp_tokens")]
        assert sum(parts) == seat["score"][s]
        assert sum(seat[c][s] for c in R.END_EFFECT_COLUMNS) == seat["vp_end_effects"][s]
        assert seat["vp_end_tile"][s] == tile[seat["final_rank"][s] - 1][1]
        assert seat["vp_cards"][s] == sum(st.card[c].vp for c, g in st.city[s] if g == st.card[c].spaces)
        assert seat["vp_tokens"][s] == sum(n * data.tokens.vp[k] for k, n in enumerate(st.held[s]))
        assert sum(seat[c][s] for c in R.RANK_COUNT_COLUMNS) == rounds
    spaces = R.reward_spaces_for(data, P)
    for s in range(P):
        won = sum(spaces[st.row[r][2]][k][1] for r in range(rounds) for k in range(P) if st.markers[r][k] == s)
        assert won == seat["vp_rewards"][s]
    for k, col in enumerate(R.RANK_COUNT_COLUMNS):
        assert sum(seat[col]) == (rounds if k < P else 0)
    assert all(sorted(m) == list(range(P)) for m in st.markers) and sorted(st.end_markers) == list(range(P))
    # Ranks and win shares (SKRZATY-46); final ranking a permutation.
    keys = [(seat["score"][s], seat["filled_cards"][s], seat["gnomes_placed"][s]) for s in range(P)]
    for s in range(P):
        assert seat["rank"][s] == 1 + sum(1 for k in keys if k > keys[s])
    winners = [s for s in range(P) if seat["rank"][s] == 1]
    assert winners and all(seat["win60"][s] == 60 // len(winners) for s in winners)
    assert sum(seat["win60"]) == 60 and all(seat["win60"][s] == 0 for s in range(P) if s not in winners)
    assert sorted(seat["final_rank"]) == list(range(1, P + 1))
    assert seat["final_rank"][game["final_winner_seat"]] == 1
    assert game["end_colour"] == st.row[rounds][1] and game["rounds_played"] == rounds
    # Columns are complete and integer.
    assert set(seat) == set(R.all_seat_columns()) and set(game) == set(R.all_game_columns())
    assert all(isinstance(v, int) for col in seat.values() for v in col) and all(
        isinstance(v, int) for v in game.values())


def test_random_playouts_properties():
    rnd = random.Random(5)
    kinds = Counter()
    for i, (players, params, strategies) in enumerate(configs(1000, salt=11)):
        checker = Checker(invariance=(i % 8 == 0), rnd=rnd)
        st = ref.new_game(params, players, seed=17, game_index=i, strategies=strategies)
        st.chooser = checker
        rec = ref.run_game(st)
        check_final_state(st, rec)
        kinds.update(checker.count)
    assert all(kinds[k] > 0 for k in ref.DECISIONS)  # every decision kind was exercised


def test_determinism_and_trace():
    for i, (players, params, strategies) in enumerate(configs(40, salt=23)):
        t1, t2 = [], []
        a = ref.play_game(params, players, 99, i, strategies, trace=t1)
        b = ref.play_game(params, players, 99, i, strategies, trace=t2)
        assert a == b and t1 == t2 and t1
        assert all("kind" in e and "seat" in e for e in t1)
    c = ref.play_game({}, 4, 99, 0, ["random"] * 4)
    d = ref.play_game({}, 4, 99, 1, ["random"] * 4)
    assert c != d


def test_pool_exhaustion_happens_and_is_recorded():
    seen = 0
    for i in range(60):
        st = ref.new_game({"gnome_pool": 20}, 5, seed=1, game_index=i, strategies=["builder"] * 5)
        rec = ref.run_game(st)
        check_final_state(st, rec)
        assert rec.game["pool_left"] == 0 and rec.game["pool_exhausted_round"] >= 1
        seen += sum(rec.seat["gnomes_wasted_pool"]) > 0
    assert seen > 0


def test_first_player_rotation_and_fixed_first():
    for fixed in (0, 1):
        trace = []
        rec = ref.play_game({"fixed_first": fixed}, 3, 4, 2, ["high-roller"] * 3, trace=trace)
        firsts = [e["order"][0] for e in trace if e["kind"] == "round"]
        f = rec.game["first_player"]
        assert firsts == [f if fixed else (f + r) % 3 for r in range(8)]
    rec = ref.play_game({"first_player": 2}, 3, 4, 2, ["ender"] * 3)
    assert rec.game["first_player"] == 2


def test_setup_draw_order_is_as_documented():
    """The documented draws: reward shuffle, deck shuffle, keeps (random), first player."""
    st = ref.new_game({}, 3, seed=8, game_index=4, strategies=["random"] * 3)
    ref.setup(st)
    rng = PyStream(8, 4)
    row = R.reward_cards_for(st.data, 3)
    rng.shuffle(row)
    deck = list(st.data.cards.ids)
    rng.shuffle(deck)
    from itertools import combinations
    kept = []
    for seat in range(3):
        dealt = sorted(deck[6 * seat: 6 * seat + 6])
        options = list(combinations(dealt, 4))
        kept.append(list(options[rng.below(len(options))]))
    assert st.row == row[:9] and st.hands == kept
    assert st.first_player == rng.below(3)


def test_illegal_action_is_error_1():
    st = ref.new_game({}, 2, seed=1, game_index=1, strategies=["random"] * 2)
    st.chooser = lambda st, seat, kind, options: len(options)
    rec = ref.run_game(st)
    assert rec.game["error"] == R.ERR_ILLEGAL


def test_custom_data_argument():
    data = R.load_data()
    a = ref.play_game({}, 4, 3, 3, ["weighted"] * 4, data=data)
    b = ref.play_game({}, 4, 3, 3, ["weighted"] * 4, data=dict(R.DATA_TABLES))
    c = ref.play_game({}, 4, 3, 3, ["weighted"] * 4)
    assert a == b == c


@pytest.mark.parametrize("bad", [{"hand_keep": 5, "deal": 4}, {"first_player": 3}, {"rounds": 9}])
def test_validate_rejects(bad):
    with pytest.raises(SpecError) as e:
        R.validate({**R.DEFAULT_PARAMS, **bad}, 3)
    assert "\n" not in str(e.value) and "accepted" in str(e.value)
