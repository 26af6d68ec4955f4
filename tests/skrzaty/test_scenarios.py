"""Every worked scenario of docs/rules/skrzaty.md §10 against the reference (injected states, scripted actions)."""
import pytest

from sim.games.skrzaty import reference as ref
from sim.games.skrzaty import rules as R
from sim.spec import SpecError

A, B, C = 0, 1, 2  # default reward types
TREASURE, HELPERS, LANTERN = 0, 1, 2


class Script:
    """Scripted decisions: (seat, kind, option value) consumed in order; other decisions go to the strategy."""

    def __init__(self, *steps):
        self.steps = list(steps)
        self.asked = []  # (seat, kind, number of options) of every scripted decision

    def __call__(self, st, seat, kind, options):
        if self.steps and self.steps[0][:2] == (seat, kind):
            _, _, value = self.steps.pop(0)
            self.asked.append((seat, kind, len(options)))
            return options.index(value)
        return None


def table(players, params=None, trace=None):
    st = ref.new_game(params or {}, players, strategies=["random"] * players, trace=trace)
    st.row = [(i + 1, R.BLUE, A) for i in range(st.rounds + 1)]
    st.first_player = 0
    return st


def begin(st, r, colour, typ, order, market=()):
    """Inject round r's Reward card, turn order and Market (instead of start_round's draws)."""
    st.row[r - 1] = (r, colour, typ)
    st.round = r
    st.order = list(order)
    for pos, seat in enumerate(order):
        st.turn_pos[seat] = pos
    st.played = []
    st.market = list(market)


def gnomes_on(st, seat, cid):
    return next(g for x, g in st.city[seat] if x == cid)


# ---------------------------------------------------------------------------------------------------- SC-1
@pytest.mark.parametrize("ranked", [0, 1])
def test_sc1_seed_example_rewards_and_pick_order(ranked):
    trace = []
    st = table(4, {"market_ranked": ranked}, trace)
    rafal, szymon, julia, aurelia = 0, 1, 2, 3
    market = [20, 30, 40, 47, 60]
    begin(st, 1, R.BLUE, A, [rafal, szymon, julia, aurelia], market)
    st.hands = [[4, 5, 6, 7], [15, 16, 17, 18], [10, 11, 12, 13], [32, 33, 34, 35]]
    st.deck = [1, 2, 3]
    script = Script((rafal, ref.BARTER, None), (szymon, ref.TOKEN, TREASURE))
    st.chooser = script
    for seat, cid in [(rafal, 4), (szymon, 15), (julia, 10), (aurelia, 32)]:
        ref.play_card(st, seat, cid)
    assert script.steps == []
    assert script.asked[0] == (rafal, ref.BARTER, 1 + 3 * 5)
    ranking = ref.rank_round(st)
    assert ranking == [julia, rafal, aurelia, szymon]
    ref.award_round(st, ranking)
    assert st.markers[0] == [julia, rafal, aurelia, szymon]
    assert st.stats["gnomes_gained"] == [2, 1, 3, 1]
    assert gnomes_on(st, julia, 10) == 3 and st.is_filled(julia, 0)
    assert gnomes_on(st, rafal, 4) == 1 and st.reserve[rafal] == 1
    assert gnomes_on(st, aurelia, 32) == 1 and st.reserve[aurelia] == 0
    assert gnomes_on(st, szymon, 15) == 1
    assert st.pool == 68
    assert sum(st.supply) == 9 and st.held[szymon][TREASURE] == 1
    ref.market_pick(st, ranking)
    picks = [e["seat"] for e in trace if e["kind"] == "pick"]
    expected = [szymon, aurelia, rafal, julia]
    assert picks == (expected[::-1] if ranked else expected)
    last_picker = picks[-1]
    last_decision = [e for e in trace if e["kind"] == "decide" and e["decision"] == "pick"][-1]
    assert last_decision["seat"] == last_picker and last_decision["options"] == 2
    assert st.market == [] and len(st.deck) == 4
    leftover = st.deck[-1]
    assert leftover in market and st.recycled == [leftover]
    assert sorted(sum((h for h in st.hands), []) + [leftover]) == sorted(
        [5, 6, 7, 16, 17, 18, 11, 12, 13, 33, 34, 35] + market)
    assert all(len(h) == 4 for h in st.hands)


# ---------------------------------------------------------------------------------------------------- SC-2
@pytest.mark.parametrize("guild_gnomes, expected", [(2, [1, 3, 4, 0, 2]), (1, [3, 1, 4, 0, 2])])
def test_sc2_ties_disguise_and_guild(guild_gnomes, expected):
    st = table(5)
    ala, bartek, cela, darek, ewa = range(5)
    begin(st, 1, R.YELLOW, A, [ala, bartek, cela, darek, ewa])
    st.city[bartek] = [[45, guild_gnomes]]
    plays = {ala: 21, bartek: 42, cela: 56, darek: 44, ewa: 16}
    st.hands = [[plays[s]] for s in range(5)]
    for seat in range(5):
        ref.play_card(st, seat, plays[seat])
    ranking = ref.rank_round(st)
    assert ranking == expected
    values = {s: st.rank_keys[s][1] for s in range(5)}
    assert values == {ala: 12, bartek: 11 if guild_gnomes == 2 else 8, cela: 12, darek: 11, ewa: 4}
    assert st.rank_keys[ewa][0] == R.YELLOW  # disguise ranks as the best colour
    assert st.stats["disguise_changed"][ewa] == 1
    assert st.stats["guild_applied"][bartek] == (1 if guild_gnomes == 2 else 0)
    ref.award_round(st, ranking)
    if guild_gnomes == 2:
        assert [st.stats["gnomes_gained"][s] for s in (bartek, darek, ewa, ala, cela)] == [3, 2, 2, 1, 1]


# ---------------------------------------------------------------------------------------------------- SC-3
def test_sc3_pool_runs_dry_and_foreman():
    st = table(3)
    x, y, z = 0, 1, 2
    begin(st, 5, R.BLUE, A, [x, y, z])
    st.pool = 3
    st.city[x] = [[6, 2], [12, 0]]
    ref.award_round(st, [x, y, z])
    assert st.stats["gnomes_gained"] == [3, 0, 0]
    assert gnomes_on(st, x, 12) == 3
    assert st.stats["gnomes_wasted_pool"] == [1, 1, 1]
    assert st.pool_exhausted_round == 5
    assert st.stats["foreman_gnomes"][x] == 0


# ---------------------------------------------------------------------------------------------------- SC-4
def test_sc4a_foreman_starts_when_filled():
    st = table(4)
    rafal = 0
    st.city[rafal] = [[4, 1]]
    st.reserve[rafal] = 1
    begin(st, 2, R.RED, A, [0, 1, 2, 3])
    st.hands[rafal] = [6, 24, 30]
    ref.play_card(st, rafal, 6)
    assert gnomes_on(st, rafal, 6) == 1 and st.reserve[rafal] == 0
    ref.award_round(st, [1, rafal, 2, 3])
    assert st.stats["gnomes_gained"][rafal] == 2 and st.stats["foreman_gnomes"][rafal] == 0
    assert gnomes_on(st, rafal, 6) == 2 and st.reserve[rafal] == 1
    assert st.stats["ongoing_filled_foreman"][rafal] == 1
    begin(st, 3, R.GREEN, C, [0, 1, 2, 3])
    ref.play_card(st, rafal, 24)
    assert gnomes_on(st, rafal, 24) == 1 and st.reserve[rafal] == 0
    ref.award_round(st, [1, 2, rafal, 3])
    assert st.stats["gnomes_gained"][rafal] == 2 + 2
    assert st.stats["foreman_gnomes"][rafal] == 1
    assert st.vp_rewards[rafal] == 1
    assert gnomes_on(st, rafal, 24) == 3 and st.reserve[rafal] == 0


@pytest.mark.parametrize("reserve, value", [(2, 16), (1, 13)])
def test_sc4b_guild_filled_by_its_own_placement(reserve, value):
    st = table(4)
    julia = 2
    begin(st, 1, R.GREEN, A, [0, 1, 2, 3])
    st.reserve[julia] = reserve
    st.hands[julia] = [33]
    ref.play_card(st, julia, 33)
    ref.rank_round(st)
    assert st.rank_keys[julia][1] == value


# ---------------------------------------------------------------------------------------------------- SC-5
SZYMON_CITY = [[4, 1], [5, 1], [6, 2], [10, 2], [15, 1], [32, 2], [34, 2], [57, 1]]


def end_state():
    st = table(4)
    szymon, julia = 1, 2
    st.city[szymon] = [list(x) for x in SZYMON_CITY]
    st.vp_rewards[szymon] = 3
    st.held[szymon][TREASURE] = 1
    st.held[szymon][LANTERN] = 1
    st.final_order = [0, szymon, julia, 3]
    st.vp_end_tile = [7, 4, 2, 0]
    return st


def test_sc5_end_scoring_only_filled_cards_score():
    st = end_state()
    sc = ref.score_seat(st, 1)
    assert sc["vp_cards"] == 18
    assert sc["end_vp"] == {R.E_QUARTER: 3, R.E_CROSSROADS: 3, R.E_FESTIVAL: 0}
    assert sc["vp_rewards"] == 3 and sc["vp_tokens"] == 4 and sc["vp_end_tile"] == 4
    assert sum(sc[k] for k in ("vp_cards", "vp_end_effects", "vp_rewards", "vp_end_tile", "vp_tokens")) == 35
    assert sc["filled"] == 6 and sc["gnomes_on_cards"] == 12
    rec = ref.record(st)
    assert rec.seat["score"][1] == 35 and rec.seat["filled_cards"][1] == 6 and rec.seat["unfilled_cards"][1] == 2
    assert rec.seat["gnomes_placed"][1] == 12 and rec.seat["end_effect_vp_quarter"][1] == 3


def test_sc5_winner_tie_breaks():
    st = end_state()
    julia = 2
    # Julia: 5 filled 5-VP cards (25) + 8 reward VP + End tile 2 = 35 with 5 filled cards.
    st.city[julia] = [[10, 3], [11, 3], [12, 3], [13, 3], [23, 3]]
    st.vp_rewards[julia] = 8
    st.vp_end_tile[0] = 0
    rec = ref.record(st)
    assert rec.seat["score"][1] == rec.seat["score"][julia] == 35
    assert rec.seat["rank"][1] == 1 and rec.seat["rank"][julia] == 2 and rec.seat["win60"][1] == 60
    # Equal filled cards and gnomes too: a shared win.
    st.city[julia] = [list(x) for x in SZYMON_CITY]
    st.vp_rewards[julia], st.held[julia] = 3, list(st.held[1])
    st.vp_end_tile[julia] = 4
    rec = ref.record(st)
    assert rec.seat["rank"][1] == rec.seat["rank"][julia] == 1
    assert rec.seat["win60"][1] == rec.seat["win60"][julia] == 30


# ---------------------------------------------------------------------------------------------------- SC-6
@pytest.mark.parametrize("highest, expected", [(0, [1, 0, 3, 2]), (1, [0, 1, 3, 2])])
def test_sc6_final_ranking(highest, expected):
    st = table(4, {"final_highest": highest})
    st.row[st.rounds] = (9, R.PURPLE, A)
    begin(st, 8, R.BLUE, A, [0, 1, 2, 3])
    st.hands = [[14, 48, 51, 61], [37, 50, 55, 59], [13, 25, 36, 47], [1, 27, 54, 58]]
    order = ref.final_ranking(st)
    assert order == expected
    assert st.stats["end_colour_sum"] == [23, 29, 0, 23]
    assert st.stats["end_colour_cards"] == [2, 3, 0, 2]
    ref.award_end_tile(st, order)
    vp = {seat: st.vp_end_tile[seat] for seat in range(4)}
    assert [vp[s] for s in order] == [7, 4, 2, 0]
    assert st.stats["final_rank"] == [expected.index(s) + 1 for s in range(4)]


# ---------------------------------------------------------------------------------------------------- SC-7
@pytest.mark.parametrize("keep", [0, 1])
def test_sc7_deck_arithmetic(keep):
    st = ref.new_game({"market_keep": keep}, 5, seed=3, game_index=1, strategies=["random"] * 5)
    ref.setup(st)
    assert len(st.deck) == 41
    for r in range(1, 9):
        before = 41 - 5 * (r - 1) if not keep else (41 if r == 1 else 35 - 5 * (r - 2))
        assert len(st.deck) == before
        ref.play_round(st, r)
    if keep:
        assert len(st.deck) == 0 and len(st.market) == 1
    else:
        assert len(st.deck) == 1 and st.market == []
    assert all(len(h) == 4 for h in st.hands)


def test_sc7_validation():
    with pytest.raises(SpecError, match="62 > 61"):
        R.validate({**R.DEFAULT_PARAMS, "market_extra": 2}, 5)
    R.validate({**R.DEFAULT_PARAMS, "market_extra": 2}, 4)


# ---------------------------------------------------------------------------------------------------- SC-8
def test_sc8_barter_token_fallback_reserve_overflow():
    trace = []
    st = table(2, trace=trace)
    ola, piotr = 0, 1
    begin(st, 1, R.BLUE, A, [ola, piotr], [25, 26, 49])
    st.supply = [0, 0, 0]
    st.hands = [[1, 17, 35, 53], [2, 3, 51, 60]]
    st.deck = [40, 41]
    script = Script((ola, ref.BARTER, (1, 49)))
    st.chooser = script
    ref.play_card(st, ola, 53)
    assert script.asked == [(ola, ref.BARTER, 10)]
    assert st.hands[ola] == [17, 35, 49] and st.market == [25, 26, 1]
    assert st.stats["barter_swaps"][ola] == 1
    ref.play_card(st, piotr, 51)
    assert st.stats["finder_fallbacks"][piotr] == 1 and st.stats["tokens_taken"][piotr] == 0
    assert gnomes_on(st, piotr, 51) == 1
    ranking = ref.rank_round(st)
    assert ranking == [ola, piotr]
    assert st.rank_keys[ola][1] == 7 and st.rank_keys[piotr][1] == 3
    ref.award_round(st, ranking)
    assert gnomes_on(st, ola, 53) == 1 and st.reserve[ola] == 1
    assert st.reserve[piotr] == 1
    assert st.stats["gnomes_gained"] == [2, 2]
    ref.market_pick(st, ranking)
    picks = [(e["seat"], e["card"]) for e in trace if e["kind"] == "pick"]
    assert [s for s, _ in picks] == [piotr, ola]
    pick_options = [e["options"] for e in trace if e["kind"] == "decide" and e["decision"] == "pick"]
    assert pick_options == [3, 2]
    leftover = ({25, 26, 1} - {c for _, c in picks}).pop()
    assert st.deck == [40, 41, leftover]
