"""Every worked scenario of docs/rules/kruki.md §10 (KRUKI-S1..S8), against the reference, on injected boards."""
import pytest

from sim.games.kruki import reference as ref
from sim.games.kruki import rules as R
from sim.games.kruki.rules import (EMPTY, GRAVESTONES, GRAVEYARD, JUNK, NO_FLOCKING, NO_GRAVEYARDS, TREE1, TRINKETS,
                                   TWO_CROWS)

A, B, C, D = 0, 1, 2, 3
T = TREE1  # a tree tile; its printed crows no longer matter once placed (KRUKI-1)


def params(**kw):
    out = {p.name: p.default for p in R.PARAMS}
    out.update(kw)
    return out


def make_state(tiles, players=4, **kw):
    """tiles: [(x, y, kind, crows, shiny owner or None, 'tokens' string with '+' / '#')]; a 10-cell half board."""
    st = ref.empty_state(params(**kw), players, half=10)
    b = st.board
    for x, y, kind, crows, owner, *tok in tiles:
        c = b.cell(x, y)
        b.add_tile(c, kind)
        b.crows[c] = crows
        if owner is not None:
            b.shiny[c] = owner
            st.shiny_of[owner] = c
        for mark in (tok[0] if tok else ""):
            if mark == "+":
                b.stones[c] += 1
            if mark == "#":
                b.frozen[c] += 1
            st.token_cells.append(c)
    return st


def crows_at(st, x, y):
    return st.board.crows[st.board.cell(x, y)]


def check_incremental(st):
    """The strategies' incremental evaluation (arrivals_at) equals the full flight for every shiny."""
    b = st.board
    expected = {s: ref.arrivals_at(b, s) for s in st.shiny_of if s >= 0}
    copy = b.copy()
    ref.fly(copy)
    assert expected == {s: copy.crows[s] for s in expected}


# ---- KRUKI-S1 ----------------------------------------------------------------------------------------------------
S1 = [(1, -2, EMPTY, 0, B), (1, -1, EMPTY, 0, None), (0, 0, EMPTY, 0, A), (1, 0, T, 3, None), (2, 0, EMPTY, 0, None),
      (3, 0, T, 1, None), (4, 0, EMPTY, 0, D)]


def test_s1_nearest_wins_crow_tiles_do_not_block():
    st = make_state(S1)
    check_incremental(st)
    ref.phase_b(st)
    assert st.scores == [3, 0, 0, 1]
    assert crows_at(st, 0, 0) == 3 and crows_at(st, 4, 0) == 1 and crows_at(st, 1, 0) == 0


def test_s1b_no_flocking_freezes_the_tile():
    st = make_state(S1)
    st.hands[C][NO_FLOCKING] = 1
    ref.play_token(st, C, NO_FLOCKING, st.board.cell(1, 0))
    check_incremental(st)
    ref.phase_b(st)
    assert st.scores == [0, 0, 0, 1]
    assert crows_at(st, 1, 0) == 3


# ---- KRUKI-S2 ----------------------------------------------------------------------------------------------------
S2 = [(-3, 0, T, 1, None), (-2, 0, EMPTY, 0, A), (0, 0, T, 2, None), (1, 0, EMPTY, 0, None), (2, 0, EMPTY, 0, None),
      (3, 0, EMPTY, 0, B), (0, 1, T, 0, None), (0, 3, EMPTY, 0, D)]


def test_s2_a_gap_blocks():
    st = make_state(S2)
    check_incremental(st)
    ref.phase_b(st)
    assert (st.scores[B], st.scores[A], st.scores[D]) == (2, 1, 0)


def test_s2_without_the_gap_b_and_d_tie():
    st = make_state(S2 + [(0, 2, EMPTY, 0, None)])
    check_incremental(st)
    ref.phase_b(st)
    assert (st.scores[B], st.scores[A], st.scores[D]) == (1, 1, 1)


# ---- KRUKI-S3 ----------------------------------------------------------------------------------------------------
def test_s3_junk_stops_crows_starting_on_junk_fly():
    st = make_state([(0, 0, T, 3, None), (1, 0, EMPTY, 0, None), (2, 0, JUNK, 2, None), (3, 0, EMPTY, 0, A),
                     (4, 0, JUNK, 0, None), (5, 0, JUNK, 0, None), (6, 0, T, 1, None)])
    check_incremental(st)
    ref.phase_b(st)
    assert [crows_at(st, x, 0) for x in range(7)] == [0, 0, 3, 2, 0, 1, 0]
    assert st.scores[A] == 2


# ---- KRUKI-S4 ----------------------------------------------------------------------------------------------------
def test_s4a_trinkets_win_the_tie_only_among_the_nearest():
    st = make_state([(0, -2, EMPTY, 0, A), (0, -1, EMPTY, 0, None), (0, 0, T, 4, None), (1, 0, EMPTY, 0, None),
                     (2, 0, TRINKETS, 0, B), (0, 1, EMPTY, 0, None), (0, 2, EMPTY, 0, None),
                     (0, 3, TRINKETS, 0, C)])
    check_incremental(st)
    ref.phase_b(st)
    assert (st.scores[B], st.scores[A], st.scores[C]) == (4, 0, 0)


def test_s4b_two_trinkets_split_and_the_remainder_stays():
    st = make_state([(-1, 0, TRINKETS, 0, A), (0, 0, T, 5, None), (1, 0, TRINKETS, 0, B), (0, -1, EMPTY, 0, C)])
    check_incremental(st)
    ref.phase_b(st)
    assert (st.scores[A], st.scores[B], st.scores[C]) == (2, 2, 0)
    assert crows_at(st, 0, 0) == 1


# ---- KRUKI-S5 ----------------------------------------------------------------------------------------------------
def test_s5_even_split_remainder_stays():
    st = make_state([(0, -1, EMPTY, 0, A), (-1, 0, EMPTY, 0, C), (0, 0, T, 5, None), (1, 0, GRAVEYARD, 0, B),
                     (2, 0, T, 1, None), (3, 0, EMPTY, 0, D)])
    check_incremental(st)
    ref.phase_b(st)
    assert crows_at(st, 0, 0) == 2 and crows_at(st, 2, 0) == 1
    assert st.scores == [1, 2, 1, 0]
    assert st.seat_stats["graveyard_points"][B] == 2
    assert st.seat_stats["zero_rounds"][D] == 1


# ---- KRUKI-S6 ----------------------------------------------------------------------------------------------------
S6 = [(0, 0, GRAVEYARD, 0, A), (2, 0, EMPTY, 0, B, "+"), (4, 0, GRAVEYARD, 0, C), (0, 1, T, 3, None),
      (2, 1, T, 2, None), (4, 1, T, 7, None)]


@pytest.mark.parametrize("case,cap,expected", [("a", 0, [6, 4, 14]), ("b", 0, [3, 2, 7]), ("c", 12, [6, 4, 12])])
def test_s6_doubling_gravestones_no_graveyards_cap(case, cap, expected):
    st = make_state(S6, players=3, score_cap=cap)
    if case == "b":
        st.hands[A][NO_GRAVEYARDS] = 1
        ref.play_token(st, A, NO_GRAVEYARDS)
    check_incremental(st)
    ref.phase_b(st)
    assert st.scores == expected
    assert st.seat_stats["cap_hits"] == ([0, 0, 1] if case == "c" else [0, 0, 0])
    assert st.seat_stats["graveyard_points"] == (expected if case != "b" else [0, 0, 0])
    assert crows_at(st, 4, 0) == 7
    assert ref.murder_list(st.board, 6, st.first_player, 3) == [st.board.cell(4, 0)]


def test_s6_gravestones_played_as_a_token():
    st = make_state([t[:5] for t in S6], players=3)
    st.hands[B][GRAVESTONES] = 1
    ref.play_token(st, B, GRAVESTONES, st.board.cell(2, 0))
    ref.phase_b(st)
    assert st.scores == [6, 4, 14]
    ref.end_round(st)  # KRUKI-33: played tokens are lifted
    assert st.board.stones[st.board.cell(2, 0)] == 0


# ---- KRUKI-S7 ----------------------------------------------------------------------------------------------------
S7 = [(0, -2, T, 1, None), (-1, -1, EMPTY, 0, None), (1, -1, EMPTY, 0, None), (-2, 0, EMPTY, 0, None),
      (-1, 0, JUNK, 0, None), (0, 0, EMPTY, 9, A), (1, 0, T, 0, None), (2, 0, EMPTY, 0, None), (0, 1, T, 5, None),
      (0, 2, EMPTY, 0, None)]


def scripted_spiral(direction, log):
    def choose(st, seat, decision, options, context):
        assert decision == ref.D_SPIRAL
        log.append(seat)
        return options.index(direction)
    return choose


def run_s7(direction, **kw):
    st = make_state(S7, **kw)
    st.supply = 10
    log = []
    ref.phase_c(st, scripted_spiral(direction, log))
    return st, log


def test_s7_murder_scatter_start_e():
    st, log = run_s7(R.E_DIR)
    assert log == [A]  # the shiny's owner chooses
    got = {xy: crows_at(st, *xy) for xy in [(0, 0), (1, 0), (-1, 0), (-1, -1), (1, -1), (2, 0), (0, -2), (0, 1),
                                            (0, 2), (-2, 0)]}
    assert got == {(0, 0): 1, (1, 0): 1, (-1, 0): 1, (-1, -1): 1, (1, -1): 1, (2, 0): 1, (0, -2): 1, (0, 1): 6,
                   (0, 2): 0, (-2, 0): 0}
    assert st.supply == 12
    assert st.game_stats["murders"] == 1  # (0,1) reached 6 only through the scatter: not scattered this round
    assert st.game_stats["crows_removed"] == 2 and st.game_stats["crows_scattered"] == 6
    assert st.seat_stats["murders_chosen"][A] == 1


def test_s7_murder_scatter_start_n():
    st, _ = run_s7(R.N_DIR)
    for xy in [(1, -1), (1, 0), (-1, 0), (-1, -1)]:
        assert crows_at(st, *xy) == 1
    assert crows_at(st, 0, 1) == 6 and crows_at(st, 0, -2) == 2 and crows_at(st, 2, 0) == 0
    assert crows_at(st, 0, 0) == 1


def test_s7_lots_of_crows():
    st, _ = run_s7(R.E_DIR, murder_removed=0)
    assert st.game_stats["crows_scattered"] == 8 and st.game_stats["crows_removed"] == 0
    assert crows_at(st, 0, 2) == 1 and crows_at(st, -2, 0) == 1 and crows_at(st, 0, 0) == 1
    for xy in [(1, 0), (-1, 0), (-1, -1), (1, -1), (2, 0)]:
        assert crows_at(st, *xy) == 1
    assert crows_at(st, 0, 1) == 6


def test_s7_next_phase_c_scatters_the_leftover_murder():
    st, _ = run_s7(R.E_DIR)
    ref.end_round(st)  # shinies go back; (0,1) still holds 6
    assert ref.murder_list(st.board, 6, st.first_player, 4) == [st.board.cell(0, 1)]
    log = []
    ref.phase_c(st, scripted_spiral(R.N_DIR, log))
    assert log == [st.first_player]  # ownerless: this round's first player chooses [assumed]


def test_spiral_offsets_match_the_table():
    table = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (-1, -2), (0, -2), (1, -2),
             (2, -2), (2, -1), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (-1, 2), (-2, 2), (-2, 1), (-2, 0), (-2, -1),
             (-2, -2), (-2, -3), (-1, -3)]
    assert ref.spiral_offsets(R.N_DIR, 26) == table
    assert ref.spiral_offsets(R.E_DIR, 10) == [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1),
                                               (2, -1), (2, 0)]
    for r in (1, 2, 3, 4):  # ring r is exactly indices (2r-1)^2 .. (2r+1)^2 - 1 (KRUKI-31)
        offs = ref.spiral_offsets(R.W_DIR, (2 * r + 1) ** 2 - 1)[(2 * r - 1) ** 2 - 1:]
        assert {max(abs(x), abs(y)) for x, y in offs} == {r} and len(set(offs)) == 8 * r


# ---- KRUKI-S8 ----------------------------------------------------------------------------------------------------
S8 = [(0, 0, EMPTY, 0, None), (1, 0, T, 0, None), (2, 0, T, 2, None), (0, 1, JUNK, 0, None),
      (1, 1, TRINKETS, 0, B), (2, 1, GRAVEYARD, 0, None)]


def cells(st, *xys):
    return [st.board.cell(x, y) for x, y in xys]


def test_s8_turn_legality():
    st = make_state(S8, players=2)
    b = st.board
    assert ref.legal_shiny_tiles(b) == cells(st, (0, 0), (1, 0), (2, 1))
    assert ref.replace_targets(b) == cells(st, (0, 0), (1, 0), (0, 1), (2, 1))
    pair = (b.cell(2, 0), b.cell(2, 0))
    assert pair in ref.two_crows_pairs(b)
    assert b.cell(0, 0) in ref.two_crows_dests(b, pair)
    assert b.cell(1, 1) not in ref.two_crows_dests(b, pair)


def scripted(steps):
    """A chooser that plays [(decision, option value)] in order and checks the decisions come in that order."""
    todo = list(steps)

    def choose(st, seat, decision, options, context):
        want_decision, value = todo.pop(0)
        assert decision == want_decision, (ref.DECISION_NAMES[decision], ref.DECISION_NAMES[want_decision])
        return options.index(value)
    choose.todo = todo
    return choose


def s8_state():
    st = make_state(S8, players=2)
    st.junk_unused = [1, 1]
    st.stack, st.stack_pos = [EMPTY, TREE1], 0
    st.tokens, st.token_pos = [TWO_CROWS, GRAVESTONES], 0
    st.first_player = A
    st.supply = 20
    return st


def test_s8_junk_replacement_turn():
    st = s8_state()
    b = st.board
    choose = scripted([(ref.D_SOURCE, ref.SRC_JUNK), (ref.D_JUNK_MODE, ref.JUNK_REPLACE),
                       (ref.D_REPLACE, b.cell(1, 0)), (ref.D_CELL, b.cell(3, 0)), (ref.D_SHINY, b.cell(0, 0)),
                       (ref.D_TOKEN, ref.TOKEN_PASS)])
    ref.take_turn(st, choose, A)
    assert not choose.todo
    assert b.kind[b.cell(1, 0)] == JUNK and b.kind[b.cell(3, 0)] == T
    assert b.crows[b.cell(3, 0)] == 0 and st.supply == 20  # the re-placed tree spawns nothing
    assert st.junk_unused == [0, 1] and st.stack_size == 2  # no tile drawn (KRUKI-16)
    assert st.seat_stats["junk_plays"][A] == 1 and st.seat_stats["junk_replace"][A] == 1
    assert st.hands[A][TWO_CROWS] == 1 and st.token_stack_size == 1  # shiny on EMPTY gains the top token
    assert st.seat_stats["tokens_gained_two_crows"][A] == 1


def test_s8_shiny_on_a_bare_tree_gains_no_token_and_two_crows_moves():
    st = s8_state()
    b = st.board
    st.hands[A][TWO_CROWS] = 1
    src = b.cell(2, 0)
    choose = scripted([(ref.D_SOURCE, ref.SRC_DRAW), (ref.D_CELL, b.cell(-1, 0)), (ref.D_SHINY, b.cell(1, 0)),
                       (ref.D_TOKEN, TWO_CROWS), (ref.D_DEST, b.cell(0, 0))])  # the only pair: no question
    ref.take_turn(st, choose, A)
    assert not choose.todo
    assert st.token_stack_size == 2 and st.hands[A][TWO_CROWS] == 0
    assert b.crows[src] == 0 and b.crows[b.cell(0, 0)] == 2
    assert b.cell(0, 0) not in ref.legal_shiny_tiles(b)  # it now holds crows (KRUKI-25)
    assert st.seat_stats["tokens_played_two_crows"][A] == 1


def test_s8_new_tree_is_not_a_legal_shiny_tile_but_new_empty_is():
    st = s8_state()
    b = st.board
    st.stack = [TREE1 + 1]
    ref.place_tile(st, A, b.cell(3, 0), TREE1 + 1, R.spawn_of(TREE1 + 1))
    assert b.crows[b.cell(3, 0)] == 2 and b.cell(3, 0) not in ref.legal_shiny_tiles(b)
    ref.place_tile(st, A, b.cell(3, 1), EMPTY, 0)
    assert b.cell(3, 1) in ref.legal_shiny_tiles(b)
