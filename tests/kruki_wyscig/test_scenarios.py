"""§10 worked scenarios of docs/rules/kruki-wyscig.md and every action on small tracks, against the reference.

The helpers at the top (small tracks, injected states, scripted strategies) are also used by the property tests.
"""
import pytest

from sim.games.kruki_wyscig import reference as R
from sim.games.kruki_wyscig import reference_track as RT
from sim.rng import PyStream
from sim.games.kruki_wyscig import rules

G, P, Y, RED, U = 0, 1, 2, 3, 4  # lands (RED: R is the reference module)
DEFAULTS = {x.name: x.default for x in rules.PARAMS}
STRAT_DEFAULTS = {s.name: dict(s.params) for s in rules.STRATEGIES}


def A(j):
    """Lane-A slot of column j."""
    return 2 * j


def B(j):
    """Lane-B slot of column j."""
    return 2 * j + 1


def params(**kw):
    p = dict(DEFAULTS)
    p.update(kw)
    return p


def make_track(cols, stack=(), rots=None, shifts=None):
    """Columns 1..n hold cards 0..n−1 = `cols` (side 0, side 1); stack cards get ids n, n+1, ..."""
    t = R.empty_track(len(cols), list(cols) + list(stack))
    for j in range(1, len(cols) + 1):
        R.place_main(t, j, j - 1, (rots or {}).get(j, 0), (shifts or {}).get(j, 0))
    return t


def make_state(cols, stack=(), rots=None, shifts=None, pos=None, start=0, p=None, hands=None, strategies=None):
    t = make_track(cols, stack, rots, shifts)
    if pos is not None:
        t.pos = list(pos)
    st = R.new_state(p or params(), t, range(len(cols), len(cols) + len(stack)), start,
                     strategies=strategies or [(Script([]), {}), (Script([]), {})], trace=[])
    for s, (flights, actions) in (hands or {}).items():
        for x in flights:
            st.hand_f[s][x] += 1
        for k in actions:
            st.hand_a[s][k] += 1
    return st


def lands(t, fields):
    return [t.f_land[f] for f in fields]


T1 = [(G, P), (RED, G), (RED, Y), (Y, P)]
T2 = [(G, P), (P, Y), (G, RED), (RED, Y)]
T4 = [(G, P), (P, Y), (Y, RED), (RED, G)]


class Script:
    """A strategy that plays a fixed list of plays (head, target) then stops; piles: flight first unless told;
    placements from a list; discards the first card."""

    def __init__(self, plays, place=(), piles=()):
        self.plays, self.place, self.piles = list(plays), list(place), list(piles)

    def __call__(self, kind, obs, options, rng, sp):
        if kind == R.DEC_PLAY:
            if not self.plays:
                return None
            head, target = self.plays.pop(0)
            for i, (h, targets) in enumerate(options):
                if h == head:
                    return i, (None if targets is None else targets.index(target))
            raise AssertionError("scripted play %r is not legal; options %r" % (head, options))
        if kind == R.DEC_PLACE:
            return options.index(self.place.pop(0))
        if kind == R.DEC_PILE and self.piles:
            return options.index(self.piles.pop(0)) if self.piles[0] in options else 0
        return 0


def flight(land):
    return (R.FLIGHT, land), None


def joker(land):
    return (R.JOKER, land), None


def action(opt, target=None):
    return (R.ACTION, opt), target


def play(st, s, head, target=None):
    """Execute one play after checking it is among the legal heads/targets."""
    heads = dict(R.play_heads(st, s))
    assert head in heads, "play %r is not legal; heads %r" % (head, list(heads))
    if heads[head] is not None:
        assert target in heads[head], "target %r is not legal; targets %r" % (target, heads[head])
    R.execute_play(st, s, head, target)


def alpha_order(t, start, end):
    """Records strictly between two records in α order."""
    out, f = [], t.f_next[start]
    while f != end:
        out.append(f)
        f = t.f_next[f]
    return out


def check_links(t):
    """The list is consistent: next/prev inverse, from HEAD to TAIL, every main slot linked once."""
    seen, f = [], RT.HEAD
    while f != RT.TAIL:
        g = t.f_next[f]
        assert t.f_prev[g] == f
        seen.append(f)
        f = g
    assert len(seen) == len(set(seen))
    mains = [x for x in seen if t.f_kind[x] == RT.MAIN]
    assert sorted(mains) == list(range(2, 2 + 2 * t.n))
    for x in seen:
        assert t.f_kind[x] in (RT.SENTINEL, RT.MAIN, RT.LOOP)
        if t.f_kind[x] == RT.MAIN:
            assert (t.f_gap[x] == 1) == (t.f_card[x] == -1 and t.f_land[x] == -1)  # RACE-11 invariant
    return seen


# ---------------------------------------------------------------------------------------------------------------
# §10 worked scenarios

def test_s1_runs_through_equal_lands():
    st = make_state(T1, hands={0: ([G, RED, Y, P], [])})
    t = st.track
    assert RT.path_lands(t, 0) == [G, RED, RED, Y, P, Y, G, P]
    heads = [h for h, _ in R.play_heads(st, 0)]
    assert (R.FLIGHT, RED) not in heads  # next field A1 is G
    assert heads == [(R.FLIGHT, G)]
    play(st, 0, (R.FLIGHT, G))
    assert t.pos[0] == A(1)
    play(st, 0, (R.FLIGHT, RED))
    assert t.pos[0] == A(3)
    play(st, 0, (R.FLIGHT, Y))
    assert t.pos[0] == A(4)
    play(st, 0, (R.FLIGHT, P))
    assert t.pos[0] == B(4)
    assert st.seat["flights_played"][0] == 4
    assert st.seat["fields_forward"][0] == 5
    assert R.rem(t, 0) == 3 and R.runs(t, 0) == 3
    assert st.hand_size(0) == 0


def test_s2_slide_creates_a_gap_and_runs_cross_it():
    st = make_state(T2, hands={0: ([G], [rules.K3]), 1: ([P], [])})
    t = st.track
    play(st, 0, (R.ACTION, rules.OPT_SLIDE), (1, RT.LANE_B))
    assert t.f_land[B(2)] == P and t.f_gap[A(2)] == 1 and t.col_shift[1] == RT.SHIFT_B
    assert R.track_len(t) == 7
    assert RT.path_lands(t, 0) == [G, G, RED, Y, RED, P, P]
    assert RT.path_lands(t, 1) == [P, P, RED, Y, RED, G, G]
    u = t.copy()
    assert R.do_flight(u, 0, G) == 2 and u.pos[0] == A(3)  # the gap costs nothing
    v = t.copy()
    assert R.do_flight(v, 1, P) == 2 and v.pos[1] == B(2)
    assert all(c != 1 for c, _ in R.slide_targets(t))  # sliding c2 again is illegal


def test_s3_u_turn_run():
    cols = [(G, P), (P, RED), (Y, G), (Y, P)]
    st = make_state(cols, shifts={4: RT.SHIFT_B}, pos=(A(2), B(3)))
    t = st.track
    assert [t.f_land[A(j)] for j in (1, 2, 3)] == [G, P, Y] and t.f_gap[A(4)] == 1
    assert [t.f_land[B(j)] for j in (1, 2, 3, 4)] == [P, RED, G, Y]
    u = t.copy()
    assert R.do_flight(u, 0, Y) == 2 and u.pos[0] == B(4)
    assert R.rem(u, 0) == 3 and lands(u, RT.ahead(u, 0)) == [G, RED, P]
    v = t.copy()
    assert R.do_flight(v, 1, Y) == 2 and v.pos[1] == A(3)
    assert R.rem(v, 1) == 2


@pytest.mark.parametrize("osprey", [0, 1])
def test_s4_joker(osprey):
    st = make_state(T1, pos=(A(1), RT.TAIL), p=params(osprey_joker=osprey), hands={0: ([Y, Y, P], [])})
    play(st, 0, (R.JOKER, Y))
    assert st.track.pos[0] == (A(3) if osprey else A(2))  # osprey: the pair flies as R
    assert st.hand_f[0][P] == 1 and st.hand_size(0) == 1
    if not osprey:
        assert R.play_heads(st, 0) == []  # next A3 is R, one P only
    st = make_state(T1, pos=(A(1), RT.TAIL), p=params(osprey_joker=osprey), hands={0: ([RED, Y, Y], [])})
    heads = [h for h, _ in R.play_heads(st, 0)]
    if osprey:
        assert (R.JOKER, Y) not in heads  # R is held: the pair is illegal
    else:
        assert (R.JOKER, Y) in heads
        u = R.Track.copy(st.track)
        R.do_step(u, 0)
        assert u.pos[0] == A(2)
    play(st, 0, (R.FLIGHT, RED))
    assert st.track.pos[0] == A(3)


def test_s5_rotate_affects_both_ravens():
    st = make_state(T4, pos=(A(2), B(2)), hands={0: ([RED], [rules.K2])})
    t = st.track
    assert R.runs(t, 0) == 6 and R.runs(t, 1) == 6
    targets = R.rotate_targets(t)
    assert 1 not in targets  # c2 is occupied
    play(st, 0, (R.ACTION, rules.OPT_ROTATE), 2)
    assert t.f_land[A(3)] == RED and t.f_land[B(3)] == Y
    assert lands(t, RT.ahead(t, 0)) == [RED, RED, G, Y, Y, P] and R.runs(t, 0) == 4
    assert lands(t, RT.ahead(t, 1)) == [Y, G, RED, RED, P, G] and R.runs(t, 1) == 5
    u = t.copy()
    assert R.do_flight(u, 0, RED) == 2 and u.pos[0] == A(4)
    v = t.copy()
    assert R.do_flight(v, 1, Y) == 1 and v.pos[1] == B(3)


def test_s6_remove_and_swap():
    st = make_state(T4, pos=(A(1), A(3)), hands={0: ([], [rules.K2, rules.K3])})
    t = st.track
    assert R.rotate_targets(t) == [1, 3] and R.remove_targets(t) == [1, 3]
    u = t.copy()
    R.do_remove(u, 1)
    assert u.f_gap[A(2)] == 1 and u.f_gap[B(2)] == 1 and R.track_len(u) == 6
    assert lands(u, RT.ahead(u, 0)) == [Y, RED, G, RED, P] and R.rem(u, 0) == 5
    assert RT.ahead(u, 1) == [A(1)] and R.rem(u, 1) == 1 and RT.fin(u, 1) == A(1)
    # second state: α on B2, β on A3, no raven on c1
    t2 = make_track(T4)
    t2.pos = [B(2), A(3)]
    assert 0 not in R.remove_targets(t2)
    w = t2.copy()
    R.do_remove(w, 0)
    assert RT.fin(w, 0) == B(2) and not RT.edit_ok(w)  # α would stand on its new last field
    # third state: swap c2 and c4
    pairs = R.swap_targets(t)
    assert pairs == [(1, 3)]  # c1, c3 occupied
    play(st, 0, (R.ACTION, rules.OPT_SWAP), (1, 3))
    assert [t.f_land[A(j)] for j in range(1, 5)] == [G, RED, Y, P]
    assert [t.f_land[B(j)] for j in range(1, 5)] == [P, G, RED, Y]
    assert t.card_rot[1] == 0 and t.card_rot[3] == 0
    assert lands(t, RT.ahead(t, 0)) == [RED, Y, P, Y, RED, G, P]
    check_links(t)


def test_s7_detour_and_path_length():
    d, e = (RED, G), (Y, U)
    st = make_state(T4, stack=[d, e], pos=(A(2), B(1)), hands={0: ([], [rules.K4, rules.K4, rules.K2, rules.K3])})
    t = st.track
    assert R.track_len(t) == 8 and R.rem(t, 0) == 6 and R.rem(t, 1) == 7
    st.strategies[0] = (Script([], place=[(RT.LANE_A, 2, 0, 0), (RT.LANE_A, 2, 1, 1)]), {})
    play(st, 0, (R.ACTION, rules.OPT_DETOUR))
    assert lands(t, alpha_order(t, A(2), A(3))) == [RED, G]
    assert R.track_len(t) == 10
    assert RT.path_lands(t, 0) == [G, P, RED, G, Y, RED, G, RED, Y, P]
    assert R.rem(t, 0) == 8 and t.f_land[R.fwd(t, 0, t.pos[0])] == RED
    assert lands(t, RT.ahead(t, 1)) == [Y, RED, G, RED, Y, G, RED, P, G] and R.rem(t, 1) == 9  # β: A3, G, R
    assert all(j in (1, 2, 3) for _, j, _, _ in R.placements(t))  # anchor 4 does not exist (n = 4)
    assert (RT.LANE_A, 2, 1, 0) in R.placements(t) and (RT.LANE_A, 2, 2, 0) not in R.placements(t)
    play(st, 0, (R.ACTION, rules.OPT_DETOUR))
    assert lands(t, alpha_order(t, A(2), A(3))) == [RED, G, U, Y]
    assert R.track_len(t) == 12
    assert lands(t, RT.ahead(t, 0)) == [RED, G, U, Y, Y, RED, G, RED, Y, P]
    assert R.rem(t, 0) == 10 and R.runs(t, 0) == 9
    assert RT.loop_cards(t, RT.LANE_A, 2) == [4, 5]
    slides = R.slide_targets(t)
    assert (2, RT.LANE_A) not in slides and (2, RT.LANE_B) in slides  # loop at (A, 2)
    play(st, 0, (R.ACTION, rules.OPT_ROTATE), 4)
    assert lands(t, alpha_order(t, A(2), A(3))) == [G, RED, U, Y]
    assert st.game["detours"] == 2
    check_links(t)


def s8_state(o_flights, o_actions):
    st = make_state(T4, pos=(B(2), A(2)), start=0, hands={0: ([P, G, G], []), 1: (o_flights, o_actions)})
    for s in (0, 1):
        st.fpile[s] = [Y, U, RED, P]
        st.apile[s] = [rules.K1, rules.K2]
    return st


def s8_run(st, o_plays):
    st.strategies = [(Script([flight(P)]), {}), (Script(o_plays), {})]
    R.run_race(st)
    keys, info = R.adjudicate(st)
    return R.record(st, keys, info, 0)


def test_s8a_o_finishes_with_fewer_cards():
    st = s8_state([G, Y], [])
    rec = s8_run(st, [flight(G)])
    assert st.track.done == [1, 1] and st.turns == 2
    assert rec.seat["final_hand"] == [2, 1]  # S drew nothing on its finishing turn
    assert rec.seat["win60"] == [60, 0] and rec.seat["rank"] == [1, 2]
    assert rec.game["tiebreak_decided"] == 1 and rec.game["final_turn_finish"] == 1
    assert rec.game["first_finisher"] == 0 and rec.game["shared_win"] == 0 and rec.game["winner_lead"] == 0


def test_s8b_take2_then_finish_wins_and_finish_first_shares():
    st = s8_state([G, Y], [rules.K4])
    rec = s8_run(st, [action(rules.OPT_TAKE2), flight(G)])
    assert rec.seat["final_hand"] == [2, 3] and rec.seat["win60"] == [0, 60]
    assert rec.game["tiebreak_decided"] == 1 and rec.game["shared_win"] == 0
    st = s8_state([G, Y], [rules.K4])
    rec = s8_run(st, [flight(G)])  # G first: the turn ends at once with {Y, K4}
    assert rec.seat["final_hand"] == [2, 2] and rec.seat["win60"] == [30, 30] and rec.seat["score"] == [1, 1]
    assert rec.game["shared_win"] == 1 and rec.game["tiebreak_decided"] == 1


def test_s8b_rerace_variant_replays_equal_hands():
    p = params(rerace_tie=1)
    strategies = [("runner", STRAT_DEFAULTS["runner"])] * 2
    # find a game whose first race ends in equal hands, then check the replay is recorded
    for g in range(400):
        trace = []
        rec = R.play_game(p, 2, 7, g, strategies, trace)
        if rec.game["reraces"]:
            assert any(e["kind"] == "rerace" for e in trace)
            assert sum(1 for e in trace if e["kind"] == "setup") == rec.game["reraces"] + 1
            return
    pytest.skip("no equal-hands race in the sample")


def test_s8c_no_legal_move_s_wins():
    st = s8_state([Y, U], [])
    assert R.play_heads(st, 1) == []
    rec = s8_run(st, [])
    assert rec.seat["win60"] == [60, 0] and rec.game["tiebreak_decided"] == 0
    assert rec.game["winner_lead"] == 1 and rec.game["final_turn_finish"] == 0
    assert rec.seat["cards_drawn"][1] == 3  # O's non-finishing final turn ends with the normal draw


def test_s8d_o_finishing_first_wins_at_once():
    st = make_state(T4, pos=(A(1), A(2)), start=0, hands={0: ([], []), 1: ([G], [])})
    for s in (0, 1):
        st.fpile[s] = [Y, U, RED]
    st.current = 1  # O's normal turn
    st.strategies = [(Script([]), {}), (Script([flight(G)]), {})]
    R.run_race(st)
    keys, info = R.adjudicate(st)
    rec = R.record(st, keys, info, 0)
    assert st.turns == 1 and rec.seat["win60"] == [0, 60] and rec.game["tiebreak_decided"] == 0
    assert rec.game["first_finisher"] == 1 and rec.game["winner_lead"] == 7


# ---------------------------------------------------------------------------------------------------------------
# Every action and move on small tracks (RACE-12..32)

SMALL = [(G, P), (Y, RED), (P, U)]  # A = G Y P, B = P R U; α path G Y P U R P


def test_initial_links_and_paths():
    t = make_track(SMALL)
    assert check_links(t) == [RT.HEAD, A(1), A(2), A(3), B(3), B(2), B(1)]
    assert RT.path_lands(t, 0) == [G, Y, P, U, RED, P]
    assert RT.path_lands(t, 1) == [P, RED, U, P, Y, G]
    assert RT.fin(t, 0) == B(1) and RT.fin(t, 1) == A(1)
    assert R.rem(t, 0) == 6 and R.runs(t, 0) == 6
    assert len(t.f_kind) == 2 + 2 * 3 + 2 * 3


def test_flight_stops_at_the_finish_and_crosses_the_u_turn():
    t = make_track([(G, P), (P, G)])  # A = G P, B = P G; α path G P G P
    t.pos = [A(1), RT.TAIL]
    assert R.do_flight(t, 0, P) == 1 and t.pos[0] == A(2)  # next B2 is G
    t = make_track([(G, Y), (RED, RED)])  # A = G R, B = Y R (a card with equal sides, for the test only)
    t.pos = [A(1), RT.TAIL]
    assert R.do_flight(t, 0, RED) == 2 and t.pos[0] == B(2)  # A2 and B2 across the U-turn
    t = make_track([(G, P), (Y, P)])  # α path G Y P P
    t.pos = [A(2), RT.TAIL]
    assert R.do_flight(t, 0, P) == 2 and t.pos[0] == B(1) == RT.fin(t, 0)  # never beyond the finish
    R.check_finish(t)
    assert t.done[0] == 1 and R.rem(t, 0) == 0 and R.runs(t, 0) == 0


def test_forward1_and_back1():
    st = make_state(SMALL, shifts={2: RT.SHIFT_B}, pos=(A(1), B(1)),
                    hands={0: ([], [rules.K1, rules.K1]), 1: ([], [])})
    t = st.track  # A2 is a gap
    play(st, 0, (R.ACTION, rules.OPT_FORWARD1))
    assert t.pos[0] == A(3) and st.seat["fields_forward"][0] == 1  # the gap is skipped
    play(st, 0, (R.ACTION, rules.OPT_BACK1))
    assert t.pos[1] == RT.TAIL and st.seat["fields_pushed_back"][1] == 1  # from its first field to its start
    assert (R.ACTION, rules.OPT_BACK1) not in [h for h, _ in R.play_heads(make_state(SMALL, hands={0: ([], [0])}), 0)]
    u = make_track(SMALL)
    u.pos = [A(3), B(3)]
    R.do_back(u, 0)
    assert u.pos[0] == A(2)
    R.do_back(u, 1)
    assert u.pos[1] == B(2)
    st = make_state(SMALL, pos=(A(1), A(1)), hands={0: ([], [rules.K1])})
    st.track.done[1] = 1
    assert (R.ACTION, rules.OPT_BACK1) not in [h for h, _ in R.play_heads(st, 0)]  # finished raven


def test_rotate_home_slid_and_loop_cards():
    t = make_track(SMALL, stack=[(RED, U)])
    R.do_rotate(t, 0)
    assert (t.f_land[A(1)], t.f_land[B(1)]) == (P, G)
    t = make_track(SMALL, shifts={2: RT.SHIFT_A})  # c2 (Y, R) slid into lane A shows its lane-B side R
    assert t.f_land[A(2)] == RED and t.f_gap[B(2)] == 1
    R.do_rotate(t, 1)
    assert t.f_land[A(2)] == Y and t.f_gap[B(2)] == 1  # the protruding side comes in
    t = make_track(SMALL, stack=[(RED, U)])
    R.do_detour(t, 3, RT.LANE_B, 1, 0, 0)
    assert lands(t, alpha_order(t, B(2), B(1))) == [RED, U]
    R.do_rotate(t, 3)
    assert lands(t, alpha_order(t, B(2), B(1))) == [U, RED]
    check_links(t)


def test_covered_cards_take_no_action():
    t = make_track(SMALL, stack=[(RED, U)], shifts={2: RT.SHIFT_A})
    assert 1 in R.rotate_targets(t)
    R.do_detour(t, 3, RT.LANE_A, 1, 0, 0)  # over c2's protruding field
    assert RT.covered(t, 1)
    assert 1 not in R.rotate_targets(t) and 1 not in R.remove_targets(t)
    assert all(1 not in pair for pair in R.swap_targets(t))
    assert not RT.covered(t, 3) and 3 in R.rotate_targets(t)  # loop cards are never covered


def test_remove_main_slid_and_loop_cards():
    t = make_track(SMALL)
    t.pos = [A(1), RT.TAIL]
    R.do_remove(t, 1)
    assert R.track_len(t) == 4 and t.col_card[1] == -1 and t.f_gap[A(2)] == t.f_gap[B(2)] == 1
    assert RT.path_lands(t, 0) == [G, P, U, P]
    check_links(t)
    t = make_track(SMALL, shifts={2: RT.SHIFT_B})
    R.do_remove(t, 1)
    assert R.track_len(t) == 4 and t.col_shift[1] == RT.HOME  # a slid card took one field with it
    t = make_track(SMALL, stack=[(RED, U), (Y, G)])
    R.do_detour(t, 3, RT.LANE_A, 2, 0, 0)
    R.do_detour(t, 4, RT.LANE_A, 2, 1, 0)
    assert RT.loop_cards(t, RT.LANE_A, 2) == [3, 4]
    R.do_remove(t, 3)
    assert RT.loop_cards(t, RT.LANE_A, 2) == [4] and R.track_len(t) == 8
    R.do_remove(t, 4)
    assert not RT.loop_exists(t, RT.LANE_A, 2) and R.track_len(t) == 6
    assert t.card_loc[3] == t.card_loc[4] == RT.LOC_BOX
    check_links(t)


def test_remove_and_slide_may_not_strand_a_raven():
    t = make_track(SMALL)
    t.pos = [B(2), RT.TAIL]  # α faces only B1 (card c1)
    assert 0 not in R.remove_targets(t)
    assert (0, RT.LANE_A) not in R.slide_targets(t) and (0, RT.LANE_B) in R.slide_targets(t)
    u = t.copy()
    R.do_slide(u, 0, RT.LANE_B)  # B1 shows side 0 = G: α still has a field ahead
    assert RT.ahead(u, 0) == [B(1)] and u.f_land[B(1)] == G


def test_swap_main_and_loop_cards():
    t = make_track(SMALL, stack=[(RED, U), (Y, G)])
    R.do_swap(t, 0, 2)
    assert t.col_card == [2, 1, 0] and [t.f_land[A(j)] for j in (1, 2, 3)] == [P, Y, G]
    assert [t.f_land[B(j)] for j in (1, 2, 3)] == [U, RED, P] and t.card_rot[0] == 0 and t.card_rot[2] == 0
    R.do_detour(t, 3, RT.LANE_A, 1, 0, 0)  # A-loop: R U
    R.do_detour(t, 4, RT.LANE_A, 2, 0, 1)  # A-loop: G Y
    R.do_swap(t, 3, 4)  # same lane: orientation kept
    assert lands(t, alpha_order(t, A(1), A(2))) == [G, Y] and lands(t, alpha_order(t, A(2), A(3))) == [RED, U]
    check_links(t)
    t = make_track(SMALL, stack=[(RED, U), (Y, G)])
    R.do_detour(t, 3, RT.LANE_A, 1, 0, 0)  # α meets R, U
    R.do_detour(t, 4, RT.LANE_B, 1, 0, 0)  # α meets Y, G
    R.do_swap(t, 3, 4)  # different lanes: the physical orientation is kept, so α meets them reversed
    assert lands(t, alpha_order(t, A(1), A(2))) == [G, Y]
    assert lands(t, alpha_order(t, B(2), B(1))) == [U, RED]
    assert t.card_rot[3] == 1 and t.card_rot[4] == 1
    pairs = R.swap_targets(t)
    assert (4, 3) in pairs and all(t.card_loc[a] == t.card_loc[b] for a, b in pairs)  # track order; no main↔loop
    check_links(t)


def test_swap_excludes_slid_cards():
    t = make_track(SMALL, shifts={2: RT.SHIFT_A})
    assert R.swap_targets(t) == [(0, 2)]


def test_slide_both_lanes_and_no_second_slide():
    t = make_track(SMALL)
    assert R.slide_targets(t) == [(c, lane) for c in (0, 1, 2) for lane in (RT.LANE_A, RT.LANE_B)]
    R.do_slide(t, 1, RT.LANE_A)  # c2 (Y, R): lane A now shows R, B2 is a gap
    assert t.f_land[A(2)] == RED and t.f_gap[B(2)] == 1 and R.track_len(t) == 5
    assert RT.path_lands(t, 0) == [G, RED, P, U, P]
    assert all(c != 1 for c, _ in R.slide_targets(t))
    t = make_track(SMALL, stack=[(RED, U)])
    R.do_detour(t, 3, RT.LANE_B, 2, 0, 0)  # loop at (B, 2): no slide of c2 or c3 into lane B
    s = R.slide_targets(t)
    assert (1, RT.LANE_B) not in s and (2, RT.LANE_B) not in s and (0, RT.LANE_B) in s and (1, RT.LANE_A) in s


def test_detour_lane_b_order_and_extension():
    t = make_track(SMALL, stack=[(RED, U), (Y, G)])
    t.pos = [A(1), B(1)]
    R.do_detour(t, 3, RT.LANE_B, 2, 0, 0)  # α order B3, R, U, B2
    assert lands(t, alpha_order(t, B(3), B(2))) == [RED, U]
    assert RT.path_lands(t, 1) == [P, RED, U, RED, U, P, Y, G]  # β meets side 1−r first
    assert R.placements(t).count((RT.LANE_B, 2, 1, 0)) == 1 and (RT.LANE_B, 2, 2, 0) not in R.placements(t)
    R.do_detour(t, 4, RT.LANE_B, 2, 0, 0)  # index 0: before the first loop card in α order
    assert lands(t, alpha_order(t, B(3), B(2))) == [Y, G, RED, U]
    assert R.track_len(t) == 10
    check_links(t)


def test_free_placements_add_two_to_the_opponent_only():
    t = make_track(T4, stack=[(RED, G)])
    t.pos = [A(3), B(3)]
    idx = RT.alpha_index(t)
    found = 0
    for lane, j, i, r in R.placements(t):
        a_ahead, b_ahead = RT.placement_ahead(t, lane, j, i, idx)
        u = t.copy()
        R.do_detour(u, 4, lane, j, i, r)
        assert R.rem(u, 0) - R.rem(t, 0) == 2 * a_ahead
        assert R.rem(u, 1) - R.rem(t, 1) == 2 * b_ahead
        found += b_ahead and not a_ahead
    assert found > 0 and RT.free_placement_exists(t, 0) and RT.free_placement_exists(t, 1)


def test_lay_track_has_no_equal_neighbours_and_uses_every_card():
    for lands_, copies, n in ((5, 4, 16), (3, 8, 24), (6, 1, 15)):
        p = params(lands=lands_, pair_copies=copies, track_cards=n)
        for g in range(20):
            t, stack = R.lay_track(p, PyStream(3, g))
            for j in range(1, n):
                assert t.f_land[A(j)] != t.f_land[A(j + 1)] and t.f_land[B(j)] != t.f_land[B(j + 1)]
            assert sorted(stack + t.col_card) == list(range(rules.n_land_cards(p)))
            assert R.track_len(t) == 2 * n and t.pos == [RT.HEAD, RT.TAIL]


def test_take2_reshuffle_and_hand_limit():
    st = make_state(SMALL, hands={0: ([G, G, Y, Y, P, P, RED], [rules.K4])})
    st.rng = PyStream(1, 1)
    st.disc[0] = [0, 0, 0, 2, 1]  # flight pile empty: a draw reshuffles the discards
    st.apile[0] = [rules.K1]
    st.strategies[0] = (Script([action(rules.OPT_TAKE2)]), {})
    play(st, 0, (R.ACTION, rules.OPT_TAKE2))
    assert st.seat["reshuffles"][0] == 1 and st.seat["cards_drawn"][0] == 2 and st.hand_size(0) == 9
    assert st.seat["actions_used_take2"][0] == 1
    R.hand_limit(st, 0)  # Script discards the first listed card each time: flight cards, lowest land first
    assert st.hand_size(0) == 7 and st.seat["cards_discarded"][0] == 2 and st.disc[0][G] == 2


def test_illegal_choice_is_error_1():
    def bad(kind, obs, options, rng, sp):
        return (len(options), None) if kind == R.DEC_PLAY else len(options)
    rec = R.play_game(params(), 2, 1, 0, [(bad, {}), (bad, {})])
    assert rec.game["error"] == rules.ERROR_ILLEGAL and rec.seat["win60"] == [0, 0]
