"""The kruki njit kernel against the reference with random play (10,000 games), its trace, plug-ins and hidden
information. The heuristics' differential tests are test_reference_<heuristic>.py (tests/kruki/heuristic_games.py).
"""
import numpy as np
import pytest

from sim.engine import EngineError, run_chunk
from sim.games.kruki import kernel, kernel_state
from sim.games.kruki import obs as O
from sim.games.kruki.model import row_of
from sim.games.kruki.rules import GRAVESTONES, JUNK, NO_GRAVEYARDS, PARAMS, TILE_PARAMS, TWO_CROWS
from sim.registry import get_game
from sim.rng import below
from sim.seats import load_plugin
from sim.tracing import trace_game
from strategies.kruki import choose_builtin
from strategies.kruki_cells import (_apply_cell, _board_dropped, _cell_upper, _interacts, _kept_b_holds, _memo,
                                   _proxy_base, _proxy_bounds, _undo_cell, board_stamp, kept_shiny, placements,
                                   record_b_at)
from strategies.kruki_common import (DROP_PLANE, F_PROXY, KEPT_BOARD, KEPT_HEADER, KEPT_PAIRS, MEMO_PLANE,
                                     P_B_JUNK_MARGIN, P_SLACK, P_W_SLACK, TOKEN_TIES, _best_new_shiny,
                                     b_with_shiny, final_value, index_of, memo_record_max, stamp_turn, tiles_in_game,
                                     waiting_opponent, with_opp, work_at)
from strategies.kruki_bounds import junk_drop, junk_drop_sum, sort_touched
from strategies.kruki_tokens import (_greedy_token_kind, _listed_tie, _moves_base, _static_value, _token_pick,
                                     _token_scan, _token_value)
from tests.helpers import kernel_games, make_config, reference_mismatches
from tests.kruki.heuristic_games import COMBOS

SPEC = get_game("kruki")


# ---- kernel = reference, random play: 48 configurations x 100 games + 4 parameter sets x 100 = 5,200 games --------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_reference_all_variants(players):
    for i, combo in enumerate(COMBOS):
        config = make_config(SPEC, players, "random", variants=combo, seed=100 + players)
        assert reference_mismatches(config, 1000 * i, 100) == [], (players, combo)


ODD_PARAMS = [
    (2, ("score-cap",), {"start_layout": 1, "murder_threshold": 4, "score_cap": 5}),
    (3, ("tile-draft",), {"crows": 12, "tokens_two_crows": 10, "tokens_no_flocking": 8, "token_keep_points": 0}),
    (4, ("random-junk", "lots-of-crows"), {"tiles_junk": 9, "tiles_trinkets": 9, "murder_threshold": 3}),
    (2, (), {"removed_2p": 0, "tiles_graveyard": 12, "tokens_gravestones": 10, "three_points_value": 0}),
]


@pytest.mark.parametrize("players,variants,sets", ODD_PARAMS)
def test_random_matches_reference_odd_parameters(players, variants, sets):
    config = make_config(SPEC, players, "random", variants=variants, sets=sets, seed=5)
    assert reference_mismatches(config, 0, 100) == []


# ---- reproducibility and blocking --------------------------------------------------------------------------------
def test_chunking_does_not_change_results():
    config = make_config(SPEC, 3, "random,greedy,random", variants=("tile-draft",), seed=3)
    seat_a, game_a = kernel_games(config, 0, 40)
    parts = [kernel_games(config, s, 10) for s in range(0, 40, 10)]
    assert np.array_equal(seat_a, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(game_a, np.concatenate([p[1] for p in parts]))


# ---- trace -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("strategies,variants", [("random", ("tile-draft", "random-junk")), ("greedy", ())])
def test_trace_reproduces_the_batch_game(strategies, variants):
    config = make_config(SPEC, 4, strategies, variants=variants, seed=21)
    seat_out, game_out = kernel_games(config, 0, 8)
    events, rec = trace_game(config, 5)
    cols = SPEC.all_seat_columns
    for j, c in enumerate(cols):
        if c != "win60":
            assert rec[c] == seat_out[5, :, j].tolist(), c
    for j, c in enumerate(SPEC.all_game_columns[1:], start=1):
        assert rec["game"][c] == int(game_out[5, j]), c
    kinds = {e["kind"] for e in events}
    assert {"start_tile", "round", "turn", "place", "shiny", "score", "end_round", "end"} <= kinds
    assert all(isinstance(e, dict) and e["text"] for e in events)
    assert sum(e["kind"] == "end_round" for e in events) == rec["game"]["rounds"]


def test_every_event_kind_decodes():
    for kind in range(0, 20):
        row = np.array([kind, 1, 0, 1, 2, 1, 3, 1], np.int32)
        d = SPEC.describe_event(row, 4)
        assert d["text"] and "kind" in d


# ---- plug-ins ----------------------------------------------------------------------------------------------------
PLUGIN = '''
from numba import njit

O_N_OPTIONS = 13

@njit
def last_option(obs, params, rng):
    return obs[O_N_OPTIONS] - 1

@njit
def out_of_range(obs, params, rng):
    return obs[O_N_OPTIONS]
'''


def test_plugin_plays_and_illegal_action_stops_the_game(tmp_path):
    path = tmp_path / "kruki_bots.py"
    path.write_text(PLUGIN)
    config = make_config(SPEC, 4, f"{path}:last_option,greedy,random,{path}:last_option", seed=2)
    seat_out, game_out = run_chunk(config, 2, 0, 20)
    assert (game_out[:, 0] == 0).all() and (game_out[:, 1] >= 10).all()
    bad = make_config(SPEC, 3, f"random,{path}:out_of_range,random", seed=2)
    with pytest.raises(EngineError, match="illegal") as fault:
        run_chunk(bad, 2, 0, 5)
    events, _ = trace_game(bad, fault.value.game_index)  # the trace ends with the illegal choice, then the fault
    assert events[-1]["kind"] == "fault" and events[-2]["kind"] == "illegal" and events[-2]["seat"] == 2
    fn, _ = load_plugin(str(path), "last_option")
    assert fn is not None


# ---- hidden information at kernel level (KRUKI-37) ---------------------------------------------------------------
def _state_at(config, game_index, stop_at):
    rp, stack0, tokens0, builtin = SPEC.kernel_data(config.params, config.players)
    sids, sparams, users = config.kernel_inputs()[1]
    scratch = kernel_state.make_scratch(rp, stack0.shape[0], tokens0.shape[0], config.players)
    stopped = kernel.play_until(rp, stack0, tokens0, builtin, config.players, sids, sparams, users, config.seed,
                                game_index, stop_at, scratch)
    return stopped, scratch, sparams


def _decisions(config, game_index, decision):
    """(stop index, scratch, seat's strategy parameters) at every `decision` of a game, each from a replay to it."""
    for stop_at in range(1000):
        stopped, s, sparams = _state_at(config, game_index, stop_at)
        if not stopped:
            return
        if s.obs[O.O_DECISION] == decision:
            yield stop_at, s, sparams[int(s.obs[O.O_SEAT])]


def _offered_kinds(obs):
    """The token kinds a token step offers (its options but the pass), as a bit mask."""
    allow = 0
    for i in range(int(obs[O.O_N_OPTIONS])):
        if obs[obs[O.O_AT_OPT_A] + i] >= 0:
            allow |= 1 << int(obs[obs[O.O_AT_OPT_A] + i])
    return allow


def _refill(s, players):
    o = s.obs
    kernel_state.fill_obs(s, players, int(o[O.O_SEAT]), int(o[O.O_DECISION]), int(o[O.O_N_OPTIONS]),
                          *(int(o[i]) for i in range(O.O_CTX_TILE, O.O_CTX_CHOOSER + 1)))


@pytest.mark.parametrize("strategy", ["blocker", "weighted"])
def test_a_board_kept_from_the_tile_source_decides_as_one_set_up_again(strategy):
    """Blocker's and weighted's tile-source decision sets up the board as it stands (arrivals, ray cache, probes,
    shares, shiny records) and keeps it for the cell decision of the same turn (`_board_setup`): at every source, cell
    and shiny decision of a game the answer and the random stream equal those after the kept board is dropped, and
    most cell decisions find their board kept."""
    config = make_config(SPEC, 4, strategy, seed=8)
    kept = cells = 0
    for stop_at in range(1000):
        stopped, s, sparams = _state_at(config, 2, stop_at)
        if not stopped:
            break
        if s.obs[O.O_DECISION] not in (O.D_SOURCE, O.D_CELL, O.D_SHINY):
            continue
        w_board = work_at(s.obs)[26]
        if s.obs[O.O_DECISION] == O.D_CELL:
            cells += 1
            kept += stamp_turn(s.obs, s.rng.copy(), s.work.copy(), w_board, board_stamp(s.obs), KEPT_BOARD)
        dropped = s.work.copy()
        _board_dropped(dropped, int(s.obs[O.O_SIDE]) ** 2, w_board)
        assert dropped[w_board] == 0
        answers = []
        for work in (s.work.copy(), dropped):
            rng = s.rng.copy()
            answers.append((choose_builtin(config.seats[0].sid, s.obs, sparams[int(s.obs[O.O_SEAT])], rng, work,
                                           s.fwork.copy()),
                            tuple(rng)))
        assert answers[0] == answers[1], stop_at
    assert kept >= cells // 2 > 5, (kept, cells)


@pytest.mark.parametrize("strategy", ["greedy", "blocker", "weighted"])
def test_hidden_information_does_not_reach_the_observation(strategy):
    """Shuffling the stack, the removed tiles, the token stack and the other seats' token kinds (same counts) leaves
    the observation and the heuristic's decision unchanged."""
    config = make_config(SPEC, 4, strategy, seed=8)
    rng = np.random.default_rng(0)
    checked = 0
    for stop_at in (3, 17, 40, 61, 90):
        stopped, s, sparams = _state_at(config, 1, stop_at)
        if not stopped:
            continue
        obs, g = s.obs, s.g
        seat = int(obs[O.O_SEAT])
        before = obs.copy()
        state = s.rng.copy()
        choice = choose_builtin(config.seats[seat].sid, obs, sparams[seat], state, s.work, s.fwork)
        assert np.array_equal(obs, before)  # a shipped strategy leaves the observation as it found it
        KS = kernel_state
        pos, end, n_removed = int(g[KS.GS_POS]), int(g[KS.GS_END]), int(g[KS.GS_N_REMOVED])
        rng.shuffle(s.stack[pos:end])
        rng.shuffle(s.stack[:n_removed])
        rng.shuffle(s.tokens[int(g[KS.GS_TPOS]):int(g[KS.GS_TEND])])
        for p in range(config.players):
            if p != seat:
                total = int(s.hands[p].sum())
                s.hands[p] = np.bincount(rng.integers(0, 5, total), minlength=5)
        _refill(s, config.players)
        assert np.array_equal(obs, before)
        state = s.rng.copy()
        assert choose_builtin(config.seats[seat].sid, obs, sparams[seat], state, s.work, s.fwork) == choice
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("strategy, variants, game", [("greedy", (), 2), ("greedy", ("random-junk",), 2),
                                                      ("weighted", (), 0), ("blocker", ("random-junk",), 2)])
def test_shiny_decision_from_the_kept_ties_is_the_full_valuation(strategy, variants, game):
    """The cell decision keeps the tied best shinies of the cell it chose, and the shiny decision of the same turn
    draws among them (`kept_shiny`) instead of valuing every shiny again: at every shiny decision of a game the kept
    answer equals the one valued in full, and a list kept in another turn is never taken. Blocker and weighted keep
    it also when the chosen cell's best stage-1 value is below the cell decision's (the shiny decision's floor is
    then lower than the cell decision's: `_keep_tied_valued` scans the cell again), and the game checked has such
    turns."""
    config = make_config(SPEC, 4, strategy, variants=variants, seed=8)
    kept, earlier, below_best, cell_v1 = 0, None, 0, None
    for stop_at in range(1000):
        stopped, s, sparams = _state_at(config, game, stop_at)
        if not stopped:
            break
        obs, seat = s.obs, int(s.obs[O.O_SEAT])
        sid = config.seats[seat].sid
        if obs[O.O_DECISION] == O.D_CELL and strategy != "greedy":  # its best stage-1 value, over every cell
            cell_v1 = placements(obs, sparams[seat], sid, s.rng.copy(), s.work.copy(), s.fwork.copy(),
                                 int(obs[O.O_AT_OPT_A]), int(obs[O.O_N_OPTIONS]), int(obs[O.O_CTX_TILE]),
                                 int(obs[O.O_CTX_SPAWN]), max(int(obs[O.O_CTX_OWN]), 0), False, -1e300, -1e300,
                                 0.0)[3]
        if obs[O.O_DECISION] != O.D_SHINY:
            continue
        w_kept = work_at(obs)[22]
        if earlier is not None:  # the previous shiny decision's kept list does not fit this turn
            assert kept_shiny(obs, s.rng.copy(), earlier) == -1
        earlier = s.work.copy()
        kept += int(s.work[w_kept] == 1)
        if s.work[w_kept] == 1 and strategy != "greedy":
            shiny_v1 = placements(obs, sparams[seat], sid, s.rng.copy(), s.work.copy(), s.fwork.copy(), 0, -1, 0, 0,
                                  0, False, -1e300, -1e300, 0.0)[3]
            below_best += int(shiny_v1 < cell_v1)
        fast = choose_builtin(sid, obs, sparams[seat], s.rng.copy(), s.work.copy(), s.fwork)
        full = s.work.copy()
        full[w_kept] = 0
        assert choose_builtin(sid, obs, sparams[seat], s.rng.copy(), full, s.fwork) == fast
    assert kept >= 20
    assert strategy == "greedy" or below_best >= 1


def _junk_placements(s, params, mode, bar, proxy_j, proxy_v1):
    """`placements` of the own Junk at the state s, as `strategies.kruki._junk_value` calls it (the wrapper is inlined
    into its callers): (J_junk or a value below the bar, cell, shiny, best stage-1 value or -1e300)."""
    obs = s.obs
    return placements(obs, params, mode, s.rng.copy(), s.work, s.fwork, int(obs[O.O_AT_FRONTIER]),
                      int(obs[O.O_N_FRONTIER]), JUNK, 0, 1, False, bar, proxy_j, proxy_v1)


def _listed_pick(obs, params, rng, work, allow, pair_a=-1, pair_b=-1):
    """Greedy's pick over its token candidates listed one by one (`_token_scan`): (value, kind, a, b, d)."""
    best, ties, k, ta, tb, td = _token_scan(obs, params, O.GREEDY, work, allow, pair_a, pair_b, 0.0, -1)[:6]
    if ties == 0:
        return 0.0, -1, -1, -1, -1
    i = below(rng, ties) if ties > 1 else 0
    if i > 0:
        k, ta, tb, td = _token_scan(obs, params, O.GREEDY, work, allow, pair_a, pair_b, best, i)[2:6]
    return best, k, ta, tb, td


@pytest.mark.parametrize("variants", [(), ("random-junk", "score-cap")])
def test_greedy_token_steps_counted_are_the_listed_ones(variants):
    """Greedy's token step and TWO_CROWS pair step count the TWO_CROWS candidates by class instead of listing them
    (`_greedy_token_kind`, `_token_pick`): at every such step of two games the answer, and the random stream after
    it, equal those of the candidates listed one by one."""
    config = make_config(SPEC, 4, "greedy", variants=variants, sets={"tokens_two_crows": 10, "tokens_gravestones": 8},
                         seed=8)
    steps, drawn, played, pairs = 0, 0, 0, 0
    for game in (2, 3):
        for stop_at in range(1000):
            stopped, s, sparams = _state_at(config, game, stop_at)
            if not stopped:
                break
            decision = s.obs[O.O_DECISION]
            if decision not in (O.D_TOKEN, O.D_PAIR):
                continue
            params = sparams[int(s.obs[O.O_SEAT])]
            counted_rng, listed_rng = s.rng.copy(), s.rng.copy()
            if decision == O.D_PAIR:  # counted, and from the token step's kept ties (`_kept_pairs`)
                allow = 1 << TWO_CROWS
                listed = _listed_pick(s.obs, params, listed_rng, s.work, allow)
                unkept = s.work.copy()
                unkept[work_at(s.obs)[22]] = 0
                for work in (unkept, s.work.copy()):
                    counted_rng = s.rng.copy()
                    counted = _token_pick(s.obs, params, O.GREEDY, counted_rng, work, s.fwork.copy(), allow, -1, -1)
                    assert counted[:5] == listed and (counted_rng == listed_rng).all(), (game, stop_at)
                pairs += 1
                continue
            allow = _offered_kinds(s.obs)
            best, kind = _listed_pick(s.obs, params, listed_rng, s.work, allow)[:2]
            counted_pick = _greedy_token_kind(s.obs, params, counted_rng, s.work, allow)[:2]
            assert counted_pick == (best, kind) and (counted_rng == listed_rng).all(), (game, stop_at)
            keep = s.obs[O.O_RULES + O.R_TOKEN_KEEP]
            listed = 0 if kind < 0 or best - _token_value(s.obs, params, O.GREEDY, s.work, -1, -1, -1, -1) <= keep \
                else index_of(s.obs, kind)
            counted_rng = s.rng.copy()
            counted = choose_builtin(O.GREEDY, s.obs, params, counted_rng, s.work, s.fwork)
            assert counted == listed and (counted_rng == listed_rng).all(), (game, stop_at)
            steps += 1
            drawn += int((listed_rng != s.rng).any())
            played += int(listed != 0)
    assert steps >= 40 and drawn >= 20 and played >= 2 and pairs >= 2, (steps, drawn, played, pairs)


@pytest.mark.parametrize("strategy", ["weighted", "blocker"])
def test_pair_decision_from_the_kept_ties_is_the_full_valuation(strategy):
    """The token step that chooses TWO_CROWS keeps its best value, how many TWO_CROWS candidates reach it and their
    list, and the pair decision of the same turn draws among them without valuing every candidate again: at every
    pair decision of two games the answer and the random stream after it equal those of the full valuation."""
    config = make_config(SPEC, 4, strategy, sets={"tokens_two_crows": 12}, seed=8)
    kept = 0
    for game in (2, 3):
        for stop_at, s, params in _decisions(config, game, O.D_PAIR):
            w_kept = work_at(s.obs)[22]
            kept += int(s.work[w_kept] == KEPT_PAIRS)
            full = s.work.copy()
            full[w_kept] = 0
            answers = []
            for work in (s.work.copy(), full):
                rng = s.rng.copy()
                answers.append((choose_builtin(config.seats[0].sid, s.obs, params, rng, work, s.fwork.copy()),
                                tuple(rng)))
            assert answers[0] == answers[1], (game, stop_at)
    assert kept >= 5, kept


@pytest.mark.parametrize("strategy, variants", [("weighted", ()), ("blocker", ("score-cap",))])
def test_tokens_that_move_no_crow_valued_from_the_base_as_in_full(strategy, variants):
    """Blocker's and weighted's pass, GRAVESTONES and NO_GRAVEYARDS values come from the token step's base (the
    board's arrivals, `_static_value`) instead of a full valuation each: at every token step of a game they equal
    the full valuation (`_token_value`) to the last bit."""
    config = make_config(SPEC, 4, strategy, variants=variants,
                         sets={"tokens_gravestones": 10, "tokens_no_graveyards": 10}, seed=8)
    checked = 0
    mode = config.seats[0].sid
    for stop_at, s, params in _decisions(config, 2, O.D_TOKEN):
        _moves_base(s.obs, s.work)
        kinds = [-1, NO_GRAVEYARDS] + ([GRAVESTONES] if s.obs[O.O_SHINY_OF + s.obs[O.O_SEAT]] >= 0 else [])
        static = [_static_value(s.obs, params, mode, s.work, k) for k in kinds]
        assert static == [_token_value(s.obs, params, mode, s.work, k, s.obs[O.O_SHINY_OF + s.obs[O.O_SEAT]], -1, -1)
                          for k in kinds], stop_at
        checked += len(kinds)
    assert checked >= 60, checked


@pytest.mark.parametrize("strategy", ["weighted", "blocker"])
def test_token_ties_listed_by_the_scan_are_the_listed_again(strategy):
    """A token scan lists its candidates tied at the best (`_listed_tie`), and the drawn one is read there instead of
    listing the candidates again up to it: at every token step of a game, each listed tie equals the one the scan
    again finds at that index, for every kind and for TWO_CROWS alone."""
    config = make_config(SPEC, 4, strategy, sets={"tokens_two_crows": 10, "tokens_no_flocking": 10}, seed=8)
    checked = 0
    mode = config.seats[0].sid
    for stop_at, s, params in _decisions(config, 3, O.D_TOKEN):
        allow = _offered_kinds(s.obs)
        w_tties = work_at(s.obs)[25]
        for mask, two_only in ((allow, False), (allow & (1 << TWO_CROWS), True)):
            best, ties = _token_scan(s.obs, params, mode, s.work, mask, -1, -1, 0.0, -1)[:2]
            n_listed = min(ties, TOKEN_TIES)
            listed = [_listed_tie(s.work, w_tties, n_listed, i, two_only) for i in range(n_listed)]
            again = [_token_scan(s.obs, params, mode, s.work, mask, -1, -1, best, i)[2:6] for i in range(len(listed))]
            assert listed == again, stop_at
            checked += len(listed)
    assert checked >= 30, checked


def test_junk_cells_bounded_by_the_draw_proxy_change_no_source_decision():
    """The tile-source step rules out every Junk option at once from the draw proxy when it can
    (`kruki_cells._junk_below_bar`: no Junk cell is valued, and the best stage-1 value comes back as -1e300), and
    else skips the Junk cells whose bound from the draw proxy is below the bar (`kruki_cells._cell_upper`): at
    every source decision with the own Junk of games of players that value the Junk highly (so that it reaches the
    bar: by a tie where the Junk costs nothing, by a cut elsewhere) and of the default blocker and weighted, J_junk
    with those bounds reaches the bar exactly when J_junk valued over every cell does, and then equals it; and when
    it was ruled out at once, every Junk option's J is below the bar, also those beyond the slack (the proof bounds
    them all: the draw proxy's shinies below its floor are what can break it)."""
    decisions, reached, beaten, skipped, at_once = 0, 0, 0, 0, 0
    for strategy, games in (("weighted:w4=-2:w5=0", (0, 1)), ("weighted:w4=-2:w5=-0.1:slack=0.5", (0, 1)),
                            ("blocker:lambda=2:junk_margin=0.1:slack=0.5", (0, 1)),
                            ("weighted", (0,)), ("blocker", (0,))):
        config = make_config(SPEC, 4, strategy, sets={"tiles_junk": 8}, seed=5)
        for game in games:
            for stop_at in range(1000):
                stopped, s, sparams = _state_at(config, game, stop_at)
                if not stopped:
                    break
                options = s.obs[s.obs[O.O_AT_OPT_A]:s.obs[O.O_AT_OPT_A] + s.obs[O.O_N_OPTIONS]]
                if s.obs[O.O_DECISION] != O.D_SOURCE or O.SRC_JUNK not in options:
                    continue
                seat = int(s.obs[O.O_SEAT])
                mode, params = config.seats[seat].sid, sparams[seat]
                j0, _, _, v0 = placements(s.obs, params, mode, s.rng.copy(), s.work, s.fwork, 0, -1, 0, 0, 0, False,
                                          -1e300, -1e300, 0.0)
                bar = j0 + (params[P_B_JUNK_MARGIN] if mode == O.BLOCKER else 0.0)
                bounded, _, _, bounded_v1 = _junk_placements(s, params, mode, bar, j0, v0)
                exact = _junk_placements(s, params, mode, -1e300, -1e300, 0.0)[0]
                assert (bounded >= bar) == (exact >= bar), (strategy, game, stop_at)
                if exact >= bar:
                    assert bounded == exact, (strategy, game, stop_at)
                    reached += 1
                    beaten += int(exact > bar)
                decisions += 1
                skipped += int(bounded < exact)
                if bounded_v1 == -1e300:  # ruled out at once: so is every Junk option, within the slack or not
                    wide = params.copy()
                    wide[P_SLACK if mode == O.BLOCKER else P_W_SLACK] = 1e9
                    assert _junk_placements(s, wide, mode, -1e300, -1e300, 0.0)[0] < bar, (strategy, game, stop_at)
                    at_once += 1
    assert decisions >= 200 and reached >= 8 and beaten >= 2 and skipped >= 50 and at_once >= 100, \
        (decisions, reached, beaten, skipped, at_once)


def _board_planes(obs):
    """(side, K, Cr, Sh, St, Fr): the board planes of the observation, as views (`kruki_common.planes` called from
    Python returns arrays that do not own their memory: the kernels run without numba's reference counts)."""
    side = int(obs[O.O_SIDE])
    a = side * side
    k0 = int(obs[O.O_AT_KIND])
    return (side,) + tuple(obs[k0 + p * a:k0 + (p + 1) * a]
                           for p in (O.PL_KIND, O.PL_CROWS, O.PL_SHINY, O.PL_STONES, O.PL_FROZEN))


def _cell_answer(sid, obs, params, rng, work, fwork):
    """A decision's answer on these copies of the scratch: (choice, the random stream after it, the tied shinies kept
    for the shiny decision)."""
    w_kept = work_at(obs)[22]
    choice = choose_builtin(sid, obs, params, rng, work, fwork)
    return choice, tuple(rng), tuple(work[w_kept:w_kept + KEPT_HEADER + int(work[w_kept + 8])])


@pytest.mark.parametrize("strategy", ["weighted", "blocker", "weighted:w4=-2", "blocker:lambda=2:slack=0.5"])
def test_cell_decision_bounded_by_the_kept_draw_proxy_is_the_full_valuation(strategy):
    """The tile-source step keeps the draw proxy's best J and stage-1 value for its board (`keep_proxy`), and the cell
    decision that follows on that board bounds the options whose shiny its tile leaves untouched from them
    (`kruki_cells._cell_upper`; a Junk's every option): at every cell decision of a game the answer, the random
    stream after it and the tied shinies it keeps for the shiny decision equal those of the decision valued without
    the proxy, and in many of them some cell's bound is below the best J, so the bound decides there."""
    config = make_config(SPEC, 4, strategy, seed=8)
    used, below = 0, 0
    for stop_at, s, params in _decisions(config, 1, O.D_CELL):
        obs = s.obs
        sid = config.seats[int(obs[O.O_SEAT])].sid
        layout = work_at(obs)
        fl = layout[-1]
        answers = []
        for proxy in (True, False):
            work, fwork = s.work.copy(), s.fwork.copy()
            if not proxy:
                fwork[fl - F_PROXY] = -1e300
            answers.append(_cell_answer(sid, obs, params, s.rng.copy(), work, fwork))
            if proxy and fwork[fl - F_PROXY] > -1e300:  # the board's setup was kept: so was the proxy
                proxy_j, proxy_v1 = fwork[fl - F_PROXY], fwork[fl - F_PROXY + 1]
                own = max(int(obs[O.O_CTX_OWN]), 0)
                best_j, _, _, max_v1 = placements(obs, params, sid, s.rng.copy(), work, fwork, int(obs[O.O_AT_OPT_A]),
                                                  int(obs[O.O_N_OPTIONS]), int(obs[O.O_CTX_TILE]),
                                                  int(obs[O.O_CTX_SPAWN]), own, False, -1e300, -1e300, 0.0)
                if _proxy_bounds(sid, params, own, max_v1, proxy_v1):
                    used += 1
                    side, K, Cr, Sh, St, Fr = _board_planes(obs)
                    base = _proxy_base(sid, params, own, proxy_j)
                    below += sum(_cell_upper(obs, params, sid, work, K, Cr, Sh, St, Fr, side, layout[0], int(c),
                                             layout[21], layout[12], int(obs[O.O_NO_GRAVEYARDS]), base) < best_j
                                 for c in obs[obs[O.O_AT_OPT_A]:obs[O.O_AT_OPT_A] + obs[O.O_N_OPTIONS]])
        assert answers[0] == answers[1], (strategy, stop_at)
    assert used >= 30 and below >= 300, (used, below)


@pytest.mark.parametrize("strategy", ["weighted", "blocker:lambda=2"])
def test_cell_decision_with_the_kept_drops_is_the_one_with_fresh_drops(strategy):
    """The drop plane keeps each gap's `junk_drop` sum under the board setup's mark (`kruki_bounds.junk_drop`), and the
    cell decision reads the sums the tile-source step of its turn kept: at every cell decision of a game whose setup
    is the turn's, the answer, the random stream after it and the kept tied shinies equal those of the decision with
    every sum taken afresh (the plane cleared under the same mark), and many sums were kept for it."""
    config = make_config(SPEC, 4, strategy, seed=8)
    decisions, kept = 0, 0
    for stop_at, s, params in _decisions(config, 0, O.D_CELL):
        obs = s.obs
        sid = config.seats[int(obs[O.O_SEAT])].sid
        a = work_at(obs)[0]
        at = DROP_PLANE * a
        cells = [int(c) for c in obs[obs[O.O_AT_OPT_A]:obs[O.O_AT_OPT_A] + obs[O.O_N_OPTIONS]]]
        answers = []
        for fresh in (False, True):
            work = s.work.copy()
            if fresh:
                work[at + 1:at + a] = 0  # no sum kept under any mark
            answers.append(_cell_answer(sid, obs, params, s.rng.copy(), work, s.fwork.copy()))
        if work[at] != s.work[at]:  # a new setup: nothing was kept for this board
            continue
        assert answers[0] == answers[1], (strategy, stop_at)
        decisions += 1
        kept += sum(int(s.work[at + c] >> 16 == s.work[at]) for c in cells)
    assert decisions >= 20 and kept >= 300, (decisions, kept)


@pytest.mark.parametrize("strategy", ["weighted:w4=-2", "blocker:lambda=2"])
def test_a_tile_lowers_the_opponents_value_by_at_most_its_drop(strategy):
    """The bound behind `kruki_cells._cell_upper` for every tile, not only a Junk: a tile on the gap c lowers Opp by at
    most `kruki_bounds.junk_drop` of c, with the own shiny on any legal tile or none, and the drop kept for the board
    is the one taken afresh. At the cell decisions of a game, for every cell and shiny, Opp is valued in full
    (`final_value`) with and without the tile; the tile does lower it at some (without the drop the bound would not
    hold there)."""
    config = make_config(SPEC, 4, strategy, seed=8)
    checked, lowered, kept = 0, 0, 0
    for stop_at, s, params in _decisions(config, 2, O.D_CELL):
        obs = s.obs
        sid = config.seats[int(obs[O.O_SEAT])].sid
        me = int(obs[O.O_SEAT])
        layout = work_at(obs)
        a, w_sent, w_rays = layout[0], layout[21], layout[12]
        work = s.work.copy()
        choose_builtin(sid, obs, params, s.rng.copy(), work, s.fwork.copy())  # the board's setup, in work
        ng, cap = int(obs[O.O_NO_GRAVEYARDS]), int(obs[O.O_RULES + O.R_SCORE_CAP])
        tile, spawn = int(obs[O.O_CTX_TILE]), min(int(obs[O.O_CTX_SPAWN]), int(obs[O.O_SUPPLY]))
        side, K, Cr, Sh, St, Fr = _board_planes(obs)
        t0, n_tiles = int(obs[O.O_AT_TILES]), int(obs[O.O_N_TILES])
        shinies = [-1] + [int(t) for t in obs[t0:t0 + n_tiles] if K[t] != JUNK and Cr[t] == 0 and Sh[t] < 0]
        for c in obs[obs[O.O_AT_OPT_A]:obs[O.O_AT_OPT_A] + obs[O.O_N_OPTIONS]]:
            c = int(c)
            total = junk_drop_sum(obs, work, K, Cr, Sh, St, Fr, side, a, c, w_sent, w_rays, ng)
            drop = junk_drop(obs, work, K, Cr, Sh, St, Fr, side, a, c, w_sent, w_rays, ng)
            assert drop == total / (int(obs[O.O_PLAYERS]) - 1), (strategy, stop_at, c)
            kept += int(work[DROP_PLANE * a + c] >> 16 == work[DROP_PLANE * a])
            for t in shinies:
                beta = obs.copy()
                side, K2, Cr2, Sh2, St2, Fr2 = _board_planes(beta)
                if t >= 0:
                    Sh2[t] = me
                tiles2 = beta[t0:t0 + n_tiles]
                opp0 = final_value(sid, params, 0.0, beta, work.copy(), K2, Cr2, Sh2, St2, Fr2, side, tiles2, n_tiles,
                                   -1, ng, cap)
                K2[c], Cr2[c] = tile, spawn
                oppc = final_value(sid, params, 0.0, beta, work.copy(), K2, Cr2, Sh2, St2, Fr2, side, tiles2, n_tiles,
                                   c, ng, cap)
                assert oppc <= opp0 + with_opp(sid, params, 0.0, -drop) + 1e-9, (strategy, stop_at, c, t)
                checked += 1
                lowered += int(oppc > opp0 + 1e-9)
    assert checked >= 10000 and lowered >= 10 and kept >= 500, (checked, lowered, kept)


def test_row_of_is_the_floor_division_on_every_board_side():
    """`model.row_of` (a multiplication by a rounded-up reciprocal) equals x // side at both ends of every row, where a
    rounding error would show first, on every board side the parameters allow: 2 * half + 1 for half from 12
    (rules.board_half) to every tile kind at its maximum."""
    most = sum(p.hi for p in PARAMS if p.name in TILE_PARAMS)
    for half in range(12, most + 1):
        side = 2 * half + 1
        for x in [side * side] + [k * side + end for k in range(side) for end in (0, side - 1)]:
            assert row_of.py_func(side, x) == x // side, (side, x)


@pytest.mark.parametrize("strategy", ["weighted", "blocker:lambda=2"])
def test_b_kept_in_the_shiny_record_is_b_valued_in_full(strategy):
    """A shiny record keeps B with its shiny s on the board as it stands and the probe that has it, and stage 2 takes
    that B for an option (c, s) whose record holds for the tile on c where `_kept_b_holds` says so. At the cell
    decisions of a game, for every cell and every legal shiny with a record that holds, B is valued in full on the
    board with the tile and s (`_best_new_shiny`, all flights afresh) wherever the kept one is taken, and the kept B
    is itself the full B with s and no tile. The tile's touched probes decide at many of these positions (the test
    fails without them). The test on the probe that had the kept B decides at few (8 positions in 40 weighted games,
    with the same B there), so no natural position here needs it; the proof does."""
    config = make_config(SPEC, 4, strategy, seed=8)
    taken, refused = 0, 0
    for stop_at, s, params in _decisions(config, 3, O.D_CELL):
        obs = s.obs.copy()
        if not waiting_opponent(obs):
            continue
        sid = config.seats[int(obs[O.O_SEAT])].sid
        me, players = int(obs[O.O_SEAT]), int(obs[O.O_PLAYERS])
        layout = work_at(obs)
        a, w_aff, w_save, w_ext, w_tl, w_rays = (layout[i] for i in (0, 4, 8, 9, 10, 12))
        w_bord, w_bval, w_memo, w_tv, w_sent = (layout[i] for i in (15, 16, 19, 20, 21))
        work = s.work.copy()
        choose_builtin(sid, obs, params, s.rng.copy(), work, s.fwork.copy())  # the board's setup and records
        ng, cap = int(obs[O.O_NO_GRAVEYARDS]), int(obs[O.O_RULES + O.R_SCORE_CAP])
        tile, spawn = int(obs[O.O_CTX_TILE]), min(int(obs[O.O_CTX_SPAWN]), int(obs[O.O_SUPPLY]))
        side, K, Cr, Sh, St, Fr = _board_planes(obs)
        t0, n_tiles = int(obs[O.O_AT_TILES]), int(obs[O.O_N_TILES])
        tiles = obs[t0:t0 + n_tiles]
        gain = np.zeros(a, dtype=np.int32)
        rmax = memo_record_max(tiles_in_game(obs))
        records = {}
        for t in (int(t) for t in tiles if K[t] != JUNK and Cr[t] == 0 and Sh[t] < 0):
            if work[MEMO_PLANE * a + t] == 0:
                _memo(obs, work, K, Cr, Sh, Fr, side, t, -1, tile, spawn, w_memo, w_sent, w_rays, rmax)
            if work[MEMO_PLANE * a + t] <= 0:
                continue
            r = w_memo + int(work[MEMO_PLANE * a + t]) - 1
            kept_b = record_b_at(work, r, players)
            Sh[t] = me
            full = _best_new_shiny(K, Cr, Sh, St, Fr, side, tiles, n_tiles, -1, gain, ng, cap)
            work[w_tv] = 0  # no tile: no touched probe
            b0, probe = b_with_shiny(work, K, Cr, Sh, St, side, a, -1, t, ng, cap, r + 1, work[r], w_tv, w_bord,
                                     w_bval)
            Sh[t] = -1
            assert b0 == full and (work[kept_b] < 0 or work[kept_b] == full), (strategy, stop_at, t)
            work[kept_b], work[kept_b + 1] = b0, probe  # as a valuation without a tile keeps it
            records[t] = r
        for c in (int(c) for c in obs[obs[O.O_AT_OPT_A]:obs[O.O_AT_OPT_A] + obs[O.O_N_OPTIONS]]):
            n_replanned, seen_arms = _apply_cell(work, K, Cr, Sh, Fr, side, w_aff, w_ext, w_tl, w_rays, c, tile, spawn)
            work[w_save:w_save + n_replanned] = work[w_aff:w_aff + 3 * n_replanned:3]
            sort_touched(work, K, Cr, Sh, St, a, c, ng, cap, w_tl, w_tv)
            touched_b = int(work[w_tv + 2]) if work[w_tv] > 0 else -1
            for t, r in records.items():
                if _interacts(work, K, side, r, t, c, spawn, seen_arms, w_save, n_replanned):
                    continue
                kept_b = record_b_at(work, r, players)
                if not _kept_b_holds(work, a, kept_b, touched_b):
                    refused += int(touched_b > work[kept_b])
                    continue
                Sh[t] = me
                full = _best_new_shiny(K, Cr, Sh, St, Fr, side, tiles, n_tiles, c, gain, ng, cap)
                Sh[t] = -1
                assert full == work[kept_b], (strategy, stop_at, c, t)
                taken += 1
            _undo_cell(work, K, Cr, side, w_tl, c)
    assert taken >= 1000 and refused >= 20, (taken, refused)
