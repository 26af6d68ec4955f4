"""The Skrzaty njit kernel against the reference (draw for draw, every column), its trace, plug-ins, custom data
files and the observation's information model."""
import inspect
import re
from pathlib import Path

import numpy as np
import pytest

from sim.engine import EngineError, run_chunk
from sim.kernel_util import TRACE_WIDTH
from sim.games.skrzaty import kernel, kernel_steps
from sim.games.skrzaty import obs as O
from sim.games.skrzaty.kernel import kernel_data
from sim.registry import get_game
from sim.games.skrzaty import reference as ref
from sim.games.skrzaty import rules as R
from sim.seats import load_plugin, parse_strategies
from sim.spec import SEAT_BASE, GAME_BASE
from sim.tracing import trace_game
from strategies import skrzaty as S
from tests.helpers import kernel_games, make_config, reference_mismatches

SPEC = get_game("skrzaty")
ROOT = Path(__file__).resolve().parents[2]
FLAGS4 = ("market-ranked", "market-keep", "final-highest", "fixed-first")
# Every variant alone and combined, and non-default parameters, at every player count: 36 cases x 280 = 10,080
# random-strategy games.
RANDOM_CASES = [
    ((), {}),
    (("market-ranked",), {}),
    (("market-keep",), {}),
    (("final-highest", "fixed-first"), {}),
    (FLAGS4, {}),
    ((), {"gnome_pool": 20, "festival_min": 1}),
    (("market-keep", "fixed-first"), {"rounds": 4, "hand_keep": 2, "deal": 3, "market_extra": 0}),
    (("market-ranked", "final-highest"), {"hand_keep": 1, "deal": 2, "first_player": 1, "gnome_pool": 999}),
    ((), {"deal": 10, "hand_keep": 3, "market_extra": 2, "rounds": 6}),
]
HEURISTICS = ["builder", "ender", "high-roller", "weighted"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("case", range(len(RANDOM_CASES)))
def test_kernel_equals_reference_random(players, case):
    variants, sets = RANDOM_CASES[case]
    config = make_config(SPEC, players, "random", variants, sets, seed=100 + 7 * case + players)
    assert reference_mismatches(config, 1000 * case, 280) == []


@pytest.mark.parametrize("strategy", HEURISTICS)
def test_kernel_equals_reference_heuristics(strategy):
    """510 games per heuristic, over player counts, variants and parameters."""
    for players, variants, sets in ((2, (), {}), (4, ("market-keep",), {}),
                                    (5, ("final-highest", "fixed-first", "market-ranked"), {"gnome_pool": 30})):
        config = make_config(SPEC, players, strategy, variants, sets, seed=5)
        assert reference_mismatches(config, 0, 170) == []


def test_kernel_equals_reference_mixed_seats_and_parameters():
    config = make_config(SPEC, 5, "random,builder,ender,high-roller,weighted:w_best=2:w_beats=-1", ("market-keep",),
                         {"gnome_pool": 40}, seed=3)
    assert reference_mismatches(config, 0, 250) == []
    config = make_config(SPEC, 3, "weighted:w_hold=-1:w_fill=2:w_yield=1.5,weighted,high-roller", (),
                         {"hand_keep": 3, "deal": 5, "festival_min": 2}, seed=4)
    assert reference_mismatches(config, 0, 250) == []
    config = make_config(SPEC, 4, "ender,random,builder,random", FLAGS4, {"rounds": 5}, seed=6)
    assert reference_mismatches(config, 0, 250) == []


def _run_with_data(data, players, strategies, params=None, seed=9, count=60):
    params = {**R.DEFAULT_PARAMS, **(params or {})}
    arrays = kernel_data(params, players, data)
    seats = parse_strategies(SPEC, strategies, players)
    from sim.seats import strategy_arrays
    sids, sparams, users = strategy_arrays(seats)
    seat_out = np.zeros((count, players, len(SPEC.all_seat_columns)), np.int32)
    game_out = np.zeros((count, len(SPEC.all_game_columns)), np.int32)
    kernel.play_games(*arrays, players, sids, sparams, users, seed, 0, count, seat_out, game_out,
                      np.zeros((0, TRACE_WIDTH), np.int32), np.zeros(1, np.int64))
    strat = [(s.name, dict(s.params)) for s in seats]
    for i in range(count):
        rec = ref.play_game(params, players, seed, i, strat, data=data)
        for j, c in enumerate(SPEC.all_seat_columns):
            assert seat_out[i, :, j].tolist() == rec.seat[c], (i, c)
        for j, c in enumerate(SPEC.all_game_columns):
            assert int(game_out[i, j]) == rec.game[c], (i, c)
    return seat_out, game_out


def test_kernel_data_takes_loaded_data_files(tmp_path):
    """kernel_data(params, players, data) with user tables (what rules.load_data returns) plays the same games as
    the reference given the same tables; data=None is the shipped defaults."""
    default = kernel_data(R.DEFAULT_PARAMS, 4)
    loaded = kernel_data(R.DEFAULT_PARAMS, 4, R.load_data())
    assert all((a == b).all() for a, b in zip(default[:-1], loaded[:-1])) and default[-1] is loaded[-1]
    (tmp_path / "tokens.csv").write_text("kind,count,gnomes,vp\ngold,1,0,5\nmice,2,3,0\n")
    cards = (ROOT / "sim/data/skrzaty/city_cards.csv").read_text().splitlines()
    cards = [cards[0]] + [ln.replace(",finder,1", ",finder,2").replace(",foreman,1", ",foreman,3") for ln in cards[1:]]
    cards.append("99,red,25,4,9,guild,5")
    (tmp_path / "cards.csv").write_text("\n".join(cards) + "\n")
    (tmp_path / "end.csv").write_text("players,rank,gnomes,vp,bonus\n" + "".join(
        f"{p},{k},{k % 2},{p - k},{1 if k == 1 else 0}\n" for p in range(2, 6) for k in range(1, p + 1)))
    data = R.load_data({"tokens": str(tmp_path / "tokens.csv"), "cards": str(tmp_path / "cards.csv"),
                        "end-tile": str(tmp_path / "end.csv")})
    seat_out, _ = _run_with_data(data, 4, "random")
    assert seat_out[:, :, SPEC.all_seat_columns.index("finder_fallbacks")].sum() > 0  # 3 tokens run out
    _run_with_data(data, 3, "weighted,builder,high-roller", {"gnome_pool": 50})
    _run_with_data(data, 5, "ender", {"market_extra": 1}, count=30)


def test_trace_reproduces_the_batch_game_and_every_event_decodes():
    config = make_config(SPEC, 4, "random,weighted,builder,ender", ("market-ranked",), seed=7)
    seat_out, game_out = kernel_games(config, 120, 6)
    kinds = set()
    for i in range(6):
        events, record = trace_game(config, 120 + i)
        for j, c in enumerate(SPEC.all_seat_columns):
            if c != "win60":
                assert record[c] == seat_out[i, :, j].tolist()
        assert list(record["game"].values()) == game_out[i, 1:].tolist()
        for ev in events:
            assert isinstance(ev, dict) and ev["kind"] != "unknown" and ev["text"].strip()
            kinds.add(ev["kind"])
        scores = [ev["score"] for ev in events if ev["kind"] == "score"]
        assert scores == record["score"]
    assert {"reward_row", "keep", "first_player", "round", "market", "play", "gain", "place", "ranking", "pick",
            "recycle", "final_ranking", "score"} <= kinds


def test_trace_matches_the_reference_event_by_event():
    """Plays, placements and picks in the kernel's log are the reference's, in the same order (the trace numbers
    seats from 1, the reference's log by index)."""
    config = make_config(SPEC, 3, "random,high-roller,weighted", (), seed=2)
    for g in range(5):
        events, _ = trace_game(config, g)
        log = []
        ref.play_game(config.params, 3, 2, g, [(s.name, dict(s.params)) for s in config.seats], trace=log)
        mine = [(e["kind"], e["seat"] - 1, e["card"]) for e in events if e["kind"] in ("play", "place", "pick")]
        theirs = [(e["kind"], e["seat"], e["card"]) for e in log if e["kind"] in ("play", "place", "pick")]
        assert mine == theirs


PLUGIN = '''
from numba import njit
from sim.games.skrzaty.obs import (BARTER, CARD_W, F_SPACES, KEEP, MAX_CITY, O_CARDS_AT, O_CITY, O_CITY_LEN, O_GNOMES,
                                O_HAND, O_HAND_KEEP, O_KIND, O_MARKET, O_N_KINDS, O_SEAT, O_TOKENS_AT, PLACE, PLAY,
                                T_SUPPLY, TOKEN, TOKEN_W)


@njit
def first_legal(obs, params, rng):
    kind = obs[O_KIND]
    if kind == KEEP:
        return (1 << obs[O_HAND_KEEP]) - 1
    if kind == PLAY:
        return obs[O_HAND]
    if kind == BARTER:
        return 0
    if kind == TOKEN:
        for k in range(obs[O_N_KINDS]):
            if obs[obs[O_TOKENS_AT] + k * TOKEN_W + T_SUPPLY] > 0:
                return k
    if kind == PLACE:
        seat = obs[O_SEAT]
        for i in range(obs[O_CITY_LEN + seat]):
            c = obs[O_CITY + seat * MAX_CITY + i]
            if obs[O_GNOMES + seat * MAX_CITY + i] < obs[obs[O_CARDS_AT] + c * CARD_W + F_SPACES]:
                return c
    return obs[O_MARKET]


@njit
def cheat(obs, params, rng):
    if obs[O_KIND] == PLAY:
        return 10_000
    return first_legal(obs, params, rng)


@njit
def scribbler(obs, params, rng):
    a = first_legal(obs, params, rng)
    obs[O_SEAT] = 3  # writes into its copy of the observation: harmless to the game
    obs[O_HAND] = -7
    obs[O_MARKET] = -1
    return a
'''


def test_plugin_strategies_run_and_illegal_actions_stop_the_game(tmp_path):
    path = tmp_path / "my_bots.py"
    path.write_text(PLUGIN)
    config = make_config(SPEC, 4, f"{path}:first_legal,random,weighted,{path}:scribbler", FLAGS4, seed=12)
    seat_out, game_out = run_chunk(config, 12, 0, 300)
    assert (game_out[:, 0] == 0).all() and seat_out[:, :, 0].sum() > 0
    fn, defaults = load_plugin(str(path), "first_legal")
    assert fn is not None and defaults == {}
    config = make_config(SPEC, 3, f"{path}:cheat,random,random", seed=1)
    with pytest.raises(EngineError, match="illegal action") as fault:
        run_chunk(config, 1, 0, 20)
    events, _ = trace_game(config, fault.value.game_index)  # the trace names the plug-in's answer before the fault
    assert events[-1]["kind"] == "fault" and events[-2]["kind"] == "choice" and events[-2]["seat"] == 1


def test_plugin_seeing_first_option_equals_reference_scripted_first_option(tmp_path):
    """A plug-in that always takes the first legal option (in the documented encoding) plays exactly the game the
    reference plays when every decision takes option 0 (decline for barter)."""
    path = tmp_path / "bots.py"
    path.write_text(PLUGIN)
    config = make_config(SPEC, 3, f"{path}:first_legal", ("market-keep",), seed=21)
    seat_out, game_out = run_chunk(config, 21, 0, 40)
    for g in range(40):
        st = ref.new_game(config.params, 3, 21, g, ["random"] * 3)
        st.chooser = lambda st, seat, kind, options: 0
        rec = ref.run_game(st)
        for j, c in enumerate(SPEC.all_seat_columns):
            assert seat_out[g, :, j].tolist() == rec.seat[c], (g, c)


def test_observation_holds_no_hidden_information():
    """Only `_load_private` writes hidden information into the observation, and it reads only the deciding seat's
    own hand and returned cards: the deck order is not among its arguments, and changing other seats' hands and
    returned cards changes nothing it writes (nor, hence, any shipped heuristic's decision). Every other part of
    the observation is written from public events (see play_game); the reference's observation has the same
    information model and is checked by shuffling hidden state in test_reference_properties."""
    params = inspect.signature(kernel_steps._load_private.py_func).parameters
    assert list(params) == ["obs", "hands", "hand_len", "returned", "ret_len", "seat"]
    arrays = kernel_data(R.DEFAULT_PARAMS, 4)
    rp, cards, rcards, spaces, end_tile, tokens, _ = arrays
    rng = np.random.default_rng(1)
    size = O.obs_size(cards.shape[0], tokens.shape[0], spaces.shape[0])
    for trial in range(40):
        obs_a = np.zeros(size, np.int32)
        kernel_steps.init_static_obs(obs_a, rp, cards, spaces, end_tile, tokens, 4)
        kernel_steps._reset_obs(obs_a, rp, tokens, 75)
        obs_a[O.O_ROUND] = 3
        obs_a[O.O_BEST_COLOUR] = trial % 5
        obs_a[O.O_PLAYED_LEN] = 1
        obs_a[O.O_PLAYED_SEAT] = 0
        obs_a[O.O_PLAYED_CARD] = 60
        obs_a[O.O_MARKET_LEN] = 5
        obs_a[O.O_MARKET:O.O_MARKET + 5] = [50, 51, 52, 53, 54]
        obs_b = obs_a.copy()
        hands = np.sort(rng.choice(61, size=60, replace=False).reshape(5, 12), axis=1).astype(np.int64)
        hand_len = np.full(5, 4, np.int64)
        returned = rng.integers(0, 61, size=(5, 10)).astype(np.int64)
        ret_len = np.full(5, 2, np.int64)
        seat = 2
        kernel_steps._load_private(obs_a, hands, hand_len, returned, ret_len, seat)
        other_h, other_r = hands.copy(), returned.copy()
        for s in (0, 1, 3, 4):
            other_h[s] = rng.permutation(other_h[s])
            other_r[s] = rng.integers(0, 61, size=10)
        other_len = hand_len.copy()
        other_len[[0, 1, 3]] = 3
        kernel_steps._load_private(obs_b, other_h, other_len, other_r, ret_len, seat)
        assert (obs_a == obs_b).all()
        assert obs_a[O.O_HAND:O.O_HAND + 4].tolist() == hands[seat, :4].tolist()
        for kind in (O.PLAY, O.PICK, O.BARTER, O.KEEP):
            obs_a[O.O_KIND] = obs_b[O.O_KIND] = kind
            obs_a[O.O_SEAT] = obs_b[O.O_SEAT] = seat
            for sid in (S.BUILDER, S.ENDER, S.HIGH_ROLLER, S.WEIGHTED):
                p = np.array(list(R.WEIGHTED_DEFAULTS.values()), np.float64)
                a = S.choose_builtin(sid, obs_a, p, np.zeros(1, np.uint64))
                b = S.choose_builtin(sid, obs_b, p, np.zeros(1, np.uint64))
                assert a == b


def test_observation_layout_is_consistent():
    names = [n for n in dir(O) if n.startswith("O_")]
    offsets = sorted(getattr(O, n) for n in names)
    assert len(set(offsets)) == len(offsets) and offsets[-1] < O.OBS_FIXED
    assert O.O_RETURNED + O.MAX_HAND == O.OBS_FIXED
    assert SPEC.all_seat_columns[:3] == SEAT_BASE and SPEC.all_game_columns[:1] == GAME_BASE


def test_docs_plugin_example_runs(tmp_path):
    """The worked plug-in example in docs/games/skrzaty.md compiles and plays legal games."""
    text = (ROOT / "docs/games/skrzaty.md").read_text()
    section = text[text.index("## Plug-in strategies"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    path = tmp_path / "my_bots.py"
    path.write_text(code)
    names = re.findall(r"^def (\w+)\(obs, params, rng\)", code, re.M)
    assert names
    for name in names:
        config = make_config(SPEC, 4, f"{path}:{name},weighted,random,builder", seed=3)
        seat_out, game_out = run_chunk(config, 3, 0, 200)
        assert (game_out[:, 0] == 0).all()
