"""The Sen njit kernel against the reference (differential tests), its trace, plug-ins and the observation.

Every game here is played by both implementations from the same (seed, game index) and must give identical seat
and game columns. The observation test drives plug-in seats whose choices hash the whole observation, against
reference agents that hash the reference's Observation encoded in the kernel's layout: one differing field at any
decision changes a choice and the game.
"""
import numpy as np
import pytest

from sim.engine import EngineError, run_chunk, set_threads
from sim.games.sen.events import describe_event
from sim.games.sen.kernel import kernel_data
from sim.registry import get_game

from sim.games.sen import reference as ref
from sim.games.sen import rules as R
from sim.kernel_util import TRACE_WIDTH, default_users
from sim.games.sen import obs as O
from sim.spec import MAX_SEATS
from strategies import sen as S
from tests.helpers import make_config, reference_mismatches

SPEC = get_game("sen")

RATCAT, DECKOUT = "rat-a-tat-cat", "deck-out-ends"
SMALL = {"copies_0_8": 1, "copies_9": 1, "n_take2": 4, "n_peek": 3, "n_swap": 3, "dream_size": 3}

# (players, variants, sets, strategy spec, games): 10,400 games of `random` seats over every player count, each
# variant alone and combined, and non-default parameters (small decks force reshuffles and Take 2 chains).
RANDOM_CONFIGS = [
    (2, (), {}, "random", 700),
    (3, (), {}, "random", 600),
    (4, (), {}, "random", 700),
    (5, (), {}, "random", 500),
    (6, (), {}, "random", 500),
    (4, (), {}, "random:p_call=0.01", 300),
    (2, (RATCAT,), {}, "random", 600),
    (4, (RATCAT,), {}, "random", 600),
    (6, (RATCAT,), {}, "random", 400),
    (3, (DECKOUT,), {}, "random", 600),
    (5, (DECKOUT,), {}, "random:p_call=0.02", 400),
    (2, (RATCAT, DECKOUT), {}, "random", 500),
    (4, (RATCAT, DECKOUT), {}, "random:p_call=0.02", 400),
    (4, (), SMALL, "random:p_call=0.03", 400),
    (3, (RATCAT,), {"copies_0_8": 1, "copies_9": 0, "n_take2": 5, "n_peek": 5, "n_swap": 5}, "random", 400),
    (3, (DECKOUT,), {"copies_0_8": 2, "copies_9": 2, "dream_size": 5}, "random", 400),
    (4, (), {"dream_size": 6, "final_turns": 0, "call_after": 3}, "random", 400),
    (5, (), {"dream_size": 3, "rounds": 3, "caller_penalty": 25}, "random", 400),
    (3, (), {"max_turns": 10, "max_rounds": 4, "end_score": 1000}, "random:p_call=0.01", 400),
    (4, (), {"take2_mode": 1, "peek_scope": 1}, "random", 400),
    (2, (), {"faceup_specials": 0, "replace_specials": 1, "v_swap": 20}, "random", 400),
    (6, (), {"end_score": 10, "call_after": 10}, "random", 300),
]

# Heuristics: 600+ games each for threshold and memory (with default and changed parameters), plus mixed seats.
HEURISTIC_CONFIGS = [
    (4, (), {}, "threshold", 200),
    (2, (RATCAT,), {}, "threshold", 150),
    (5, (DECKOUT,), {}, "threshold:keep_max=5:swap_at=5:call_at=14", 100),
    (3, (), SMALL, "threshold", 100),
    (6, (RATCAT, DECKOUT), {}, "threshold", 60),
    (4, (), {}, "memory", 200),
    (3, (RATCAT,), {}, "memory", 150),
    (2, (DECKOUT,), {}, "memory:take_gain=2:swap_gain=1:call_at=6:opp_unknown=4.5", 100),
    (4, (), {"take2_mode": 1, "peek_scope": 1, "dream_size": 5}, "memory", 100),
    (6, (RATCAT, DECKOUT), {}, "memory", 60),
    (4, (), {}, "memory,threshold,random,memory", 150),
    (3, (RATCAT,), {}, "random,memory,threshold", 150),
    (5, (DECKOUT,), SMALL, "threshold,memory:call_at=14,random:p_call=0.05,memory,threshold", 100),
    (2, (), {"caller_penalty": 0, "final_turns": 0}, "memory,threshold", 150),
]


def _label(c):
    return f"{c[0]}p-{'+'.join(c[1]) or 'sen'}-{'set' if c[2] else 'dflt'}-{c[3].split(':')[0]}"


@pytest.mark.parametrize("players,variants,sets,strategy,games", RANDOM_CONFIGS,
                         ids=[_label(c) for c in RANDOM_CONFIGS])
def test_random_games_equal_reference(players, variants, sets, strategy, games):
    cfg = make_config(SPEC, players, strategy, variants, sets, seed=players * 1000 + len(variants))
    assert reference_mismatches(cfg, 17, games) == []


def test_random_config_total():
    assert sum(c[4] for c in RANDOM_CONFIGS) >= 10_000
    assert sum(c[4] for c in HEURISTIC_CONFIGS if "threshold" in c[3]) >= 500
    assert sum(c[4] for c in HEURISTIC_CONFIGS if "memory" in c[3]) >= 500


@pytest.mark.parametrize("players,variants,sets,strategy,games", HEURISTIC_CONFIGS,
                         ids=[_label(c) for c in HEURISTIC_CONFIGS])
def test_heuristic_games_equal_reference(players, variants, sets, strategy, games):
    cfg = make_config(SPEC, players, strategy, variants, sets, seed=99 + players)
    assert reference_mismatches(cfg, 1000, games) == []


def _direct(cfg, start, count, users=None):
    """The kernel called directly (the engine would raise on an error code)."""
    data, (sids, sparams, u) = cfg.kernel_inputs()
    seat_out = np.zeros((count, cfg.players, len(SPEC.all_seat_columns)), np.int32)
    game_out = np.zeros((count, len(SPEC.all_game_columns)), np.int32)
    SPEC.play_kernel(*data, cfg.players, sids, sparams, users or u, cfg.seed, start, count, seat_out, game_out,
                     np.zeros((0, TRACE_WIDTH), np.int32), np.zeros(1, np.int64))
    return seat_out, game_out


def _assert_same(seat_row, game_row, rec):
    for j, c in enumerate(SPEC.all_seat_columns):
        assert seat_row[:, j].tolist() == rec.seat[c], c
    for j, c in enumerate(SPEC.all_game_columns):
        assert int(game_row[j]) == rec.game[c], c


def test_endless_take2_chain_is_error_2_like_the_reference():
    sets = {"dream_size": 3, "copies_0_8": 0, "copies_9": 0, "n_take2": 9, "n_peek": 0, "n_swap": 0}
    cfg = make_config(SPEC, 2, "threshold", (), sets, seed=1)
    seat_out, game_out = _direct(cfg, 0, 3)
    for i in range(3):
        rec = ref.play_game(cfg.params, 2, 1, i, [("threshold", {})] * 2)
        assert rec.game["error"] == R.ERROR_CHAIN
        _assert_same(seat_out[i], game_out[i], rec)
    with pytest.raises(EngineError, match="1000 cards"):
        run_chunk(cfg, 1, 0, 1)


def test_results_do_not_depend_on_chunking_or_threads():
    cfg = make_config(SPEC, 4, "memory,random,threshold,memory", (RATCAT,), seed=5)
    whole = run_chunk(cfg, 5, 0, 600)
    parts = [run_chunk(cfg, 5, s, 200) for s in (0, 200, 400)]
    assert np.array_equal(whole[0], np.concatenate([p[0] for p in parts]))
    assert np.array_equal(whole[1], np.concatenate([p[1] for p in parts]))
    old = set_threads(None)
    try:
        set_threads(1)
        single = run_chunk(cfg, 5, 0, 600)
    finally:
        set_threads(old)
    assert np.array_equal(whole[0], single[0]) and np.array_equal(whole[1], single[1])


# ---------------------------------------------------------------- trace

def _trace(cfg, game_index):
    data, (sids, sparams, users) = cfg.kernel_inputs()
    seat_out = np.zeros((1, cfg.players, len(SPEC.all_seat_columns)), np.int32)
    game_out = np.zeros((1, len(SPEC.all_game_columns)), np.int32)
    trace = np.zeros((20000, TRACE_WIDTH), np.int32)
    trace_len = np.zeros(1, np.int64)
    SPEC.play_kernel(*data, cfg.players, sids, sparams, users, cfg.seed, game_index, 1, seat_out, game_out, trace,
                     trace_len)
    assert trace_len[0] <= trace.shape[0]
    return seat_out[0], game_out[0], [describe_event(trace[i], cfg.players) for i in range(trace_len[0])]


@pytest.mark.parametrize("players,strategy,variants", [(4, "memory", ()), (3, "random,threshold,memory", (RATCAT,)),
                                                       (2, "random", (DECKOUT,))])
def test_trace_reproduces_the_batch_game_and_decodes(players, strategy, variants):
    cfg = make_config(SPEC, players, strategy, variants, seed=7)
    seat_out, game_out = run_chunk(cfg, 7, 40, 5)
    for i in range(5):
        seat_row, game_row, events = _trace(cfg, 40 + i)
        assert np.array_equal(seat_row, seat_out[i]) and np.array_equal(game_row, game_out[i])
        assert events and all(isinstance(e, dict) and e.get("text") for e in events)
        kinds = [e["kind"] for e in events]
        assert "unknown" not in kinds
        assert kinds.count("turn") == game_row[SPEC.all_game_columns.index("turns")]
        assert kinds.count("round_start") == game_row[SPEC.all_game_columns.index("rounds_played")]
        assert kinds.count("reshuffle") == game_row[SPEC.all_game_columns.index("reshuffles")]
        scores = [e for e in events if e["kind"] == "score"]
        assert [e["total"] for e in scores[-players:]] == seat_row[:, 0].tolist()
        # the decisions are the reference's, in order (the trace numbers seats from 1, the reference by index)
        rtrace = []
        ref.play_game(cfg.params, players, 7, 40 + i, [(s.name, s.params) for s in cfg.seats], trace=rtrace)
        assert [(e["seat"] - 1, e["decision"]) for e in events if e["kind"] == "decide"] == \
               [(e["seat"], e["decision"]) for e in rtrace if e["kind"] == "decide"]


# ---------------------------------------------------------------- plug-ins and the observation

PLUGIN_SOURCE = '''
from numba import njit
from sim.games.sen.model import peek_action, swap_action
from sim.games.sen.obs import (D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, O_DREAM_SIZE, O_HELD,
                               O_KIND, O_PLAYERS, O_ROUND_TURN, O_SEAT, OBS_SIZE, O_RULES, R_PEEK_SCOPE)

PARAMS = {"hash_bot": {"call_every": 7.0}}


@njit
def simple(obs, params, rng):
    """Always draws; uses every special on itself or the next seat; calls after 8 turns of the round."""
    kind, ds, seat = obs[O_KIND], obs[O_DREAM_SIZE], obs[O_SEAT]
    if kind == D_SOURCE:
        return 1
    if kind == D_DRAWN:
        return ds + 1 if obs[O_HELD] >= 10 else (0 if obs[O_HELD] < 4 else ds)
    if kind == D_PEEK:
        return peek_action(seat, 1)
    if kind == D_SWAP:
        return swap_action(0, (seat + 1) % obs[O_PLAYERS], ds - 1)
    if kind == D_CALL:
        return 1 if obs[O_ROUND_TURN] >= 8 else 0
    return 0


@njit
def illegal(obs, params, rng):
    return 99


@njit
def hash_bot(obs, params, rng):
    """Chooses an option from a hash of the whole observation."""
    h = 0
    for i in range(OBS_SIZE):
        h = (h * 31 + obs[i]) & 0xFFFFFFF
    kind, ds, seat, n = obs[O_KIND], obs[O_DREAM_SIZE], obs[O_SEAT], obs[O_PLAYERS]
    if kind == D_SOURCE or kind == D_KEEP:
        return h % 2
    if kind == D_FACEUP_SLOT:
        return h % ds
    if kind == D_DRAWN:
        return h % (ds + 2 if obs[O_HELD] >= 10 else ds + 1)
    if kind == D_PEEK:
        if obs[O_RULES + R_PEEK_SCOPE] == 1:
            return peek_action(seat, h % ds)
        k = h % (n * ds)
        return peek_action(k // ds, k % ds)
    if kind == D_SWAP:
        k = h % (ds * (n - 1) * ds)
        i, rest = k // ((n - 1) * ds), k % ((n - 1) * ds)
        q, j = rest // ds, rest % ds
        return swap_action(i, q + 1 if q >= seat else q, j)
    return 1 if h % int(params[0]) == 0 else 0
'''


@pytest.fixture(scope="module")
def plugin_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("plugins") / "sen_bots.py"
    path.write_text(PLUGIN_SOURCE)
    return str(path)


def _plugin_config(players, specs, variants=(), sets=None, seed=3):
    return make_config(SPEC, players, specs, variants, sets, seed=seed)


def test_plugin_legal_play_finishes(plugin_file):
    cfg = _plugin_config(3, f"{plugin_file}:simple,memory,random")
    seat_out, game_out = run_chunk(cfg, 3, 0, 300)
    assert (game_out[:, 0] == 0).all()
    cols = SPEC.all_game_columns
    assert game_out[:, cols.index("specials_used_swap")].sum() > 0
    assert game_out[:, cols.index("specials_used_peek")].sum() > 0
    assert seat_out[:, 0, SPEC.all_seat_columns.index("calls")].sum() > 0


def test_plugin_illegal_action_stops_the_game(plugin_file):
    cfg = _plugin_config(2, f"memory,{plugin_file}:illegal")
    with pytest.raises(EngineError, match="illegal action"):
        run_chunk(cfg, 3, 0, 10)
    seat_out, game_out = _direct(cfg, 0, 10)
    assert (game_out[:, 0] == R.ERROR_ILLEGAL).all()
    for i in range(10):  # the record up to the error is the reference's too
        rec = ref.play_game(cfg.params, 2, 3, i, [("memory", {}), (lambda *a: 99, {})])
        _assert_same(seat_out[i], game_out[i], rec)


def encode(obs, kind):
    """The reference's Observation in the kernel's int32 layout (sim/games/sen/obs.py)."""
    v = [0] * O.OBS_SIZE
    held = list(obs.held) + [-1] * (2 - len(obs.held))
    v[O.O_KIND], v[O.O_SEAT], v[O.O_PLAYERS], v[O.O_DREAM_SIZE] = kind, obs.seat, obs.players, obs.dream_size
    v[O.O_HELD_N], v[O.O_HELD], v[O.O_HELD + 1] = len(obs.held), held[0], held[1]
    v[O.O_TOP] = obs.faceup[-1] if obs.faceup else -1
    v[O.O_FACEUP_N], v[O.O_FACEDOWN_N], v[O.O_CALLER] = len(obs.faceup), obs.facedown_count, obs.caller
    v[O.O_IN_FINAL], v[O.O_FIRST], v[O.O_ROUND], v[O.O_ROUND_TURN] = int(obs.in_final), obs.first, obs.round_no, \
        obs.round_turn
    for k, p in enumerate(R.PARAMS):
        v[O.O_RULES + k] = obs.params[p.name]
    for c in range(R.N_CODES):
        v[O.O_DECK + c] = obs.deck_counts[c]
        v[O.O_RAVENS + c] = obs.ravens[c]
    for c in obs.faceup:
        v[O.O_FACEUP + c] += 1
    for q in range(obs.players):
        v[O.O_OWN_TURNS + q] = obs.own_turns[q]
        v[O.O_TOTALS + q] = obs.totals[q]
    for k in range(MAX_SEATS * R.MAX_DREAM):
        v[O.O_KNOW + k] = R.UNKNOWN
    for q in range(obs.players):
        for s in range(obs.dream_size):
            v[O.O_KNOW + q * R.MAX_DREAM + s] = obs.know[q][s]
    return v


def hash_agent(call_every):
    def agent(kind, obs, options, rng):
        h = 0
        for x in encode(obs, kind):
            h = (h * 31 + x) & 0xFFFFFFF
        n, ds, seat = obs.players, obs.dream_size, obs.seat
        if kind == O.D_PEEK:
            if obs.params["peek_scope"] == 1:
                return (seat, h % ds)
            k = h % (n * ds)
            return (k // ds, k % ds)
        if kind == O.D_SWAP:
            k = h % (ds * (n - 1) * ds)
            i, rest = k // ((n - 1) * ds), k % ((n - 1) * ds)
            q, j = rest // ds, rest % ds
            return (i, q + 1 if q >= seat else q, j)
        if kind == O.D_CALL:
            return 1 if h % call_every == 0 else 0
        return options[h % len(options)]
    return agent


@pytest.mark.parametrize("players,variants,sets", [(3, (), {}), (4, (RATCAT,), {}), (2, (DECKOUT,), SMALL),
                                                   (5, (), {"take2_mode": 1, "dream_size": 6})])
def test_kernel_observation_equals_the_reference_observation(plugin_file, players, variants, sets):
    """Plug-in seats choose from a hash of every observation field; the reference agents hash the reference's
    Observation in the same layout. The reference observation is shown free of hidden information by
    tests/sen/test_reference_properties.py; equal games here show the kernel's is the same, field for field."""
    specs = ",".join(f"{plugin_file}:hash_bot" if q % 2 == 0 else ("memory" if q % 4 == 1 else "random")
                     for q in range(players))
    cfg = _plugin_config(players, specs, variants, sets, seed=11)
    count = 60
    seat_out, game_out = run_chunk(cfg, 11, 0, count)
    strategies = [(hash_agent(7), {}) if q % 2 == 0 else (s.name, s.params) for q, s in enumerate(cfg.seats)]
    for i in range(count):
        _assert_same(seat_out[i], game_out[i], ref.play_game(cfg.params, players, 11, i, strategies))


def test_shipped_strategies_decide_from_the_observation_only():
    """The njit strategies called on the encoded reference observation choose what the reference strategies do,
    on hidden-state perturbations too (the reference test's perturbation leaves the observation unchanged)."""
    import copy
    from sim.rng import PyStream
    params = SPEC.resolve_params(4, (), {})
    checked = 0
    for name, sid in (("threshold", S.THRESHOLD), ("memory", S.MEMORY)):
        info = SPEC.strategy(name)
        prow = np.array(list(info.params.values()), np.float64)
        agents = [ref.make_agent(name) for _ in range(4)]

        def on_decision(st, seat, kind, options, held, obs, choice):
            nonlocal checked
            st2 = copy.deepcopy(st)  # shuffle every card hidden from `seat`
            places = [(q, s) for q in range(st2.n) for s in range(st2.ds) if st2.know[seat][q][s] == R.UNKNOWN]
            cards = [st2.dreams[q][s] for q, s in places] + list(st2.facedown)
            PyStream(checked, 1).shuffle(cards)
            for (q, s), c in zip(places, cards):
                st2.dreams[q][s] = c
            st2.facedown = cards[len(places):]
            obs2 = ref.observe(st2, seat, held)
            arr = np.array(encode(obs2, kind), np.int32)
            a = int(S.choose_builtin(sid, arr, prow, np.zeros(1, np.uint64)))
            if kind == O.D_PEEK:
                a = (a // O.SLOT_BASE, a % O.SLOT_BASE)
            elif kind == O.D_SWAP:
                a = (a // O.SLOT_BASE ** 2, (a // O.SLOT_BASE) % O.SLOT_BASE, a % O.SLOT_BASE)
            assert a == choice
            checked += 1

        for g in range(4):
            ref.play_game(params, 4, 8, g, [(agents[q], {}) for q in range(4)], on_decision=on_decision)
    assert checked > 500


def test_kernel_data_and_spec():
    params = SPEC.resolve_params(4, (RATCAT,), {})
    rp, deck, ravens, counts, _ = kernel_data(params, 4)
    assert rp.dtype == np.int64 and rp.tolist() == [params[p.name] for p in R.PARAMS]
    assert deck.tolist() == R.build_deck(params) and ravens.tolist() == R.ravens_table(params)
    assert counts.tolist() == R.card_counts(params)
    assert SPEC.default_strategy.startswith("memory:") and SPEC.strategy("memory").params["call_at"] == 10.0
    assert len(default_users()) == 6
