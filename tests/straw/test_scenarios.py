"""Every worked scenario of docs/rules/straw.md §10 (STRAW-S1..S7), on the reference and on the kernel."""
import pytest

from sim.games.straw import reference as ref
from sim.games.straw.rules import COPY, LAMP, PARAMS, REVERSE, STRAW
from sim.spec import rank_and_win60

DEFAULTS = {p.name: p.default for p in PARAMS}
A, B, C = 0, 1, 2


def F(k):
    """Flying Carpet −k."""
    return 10 + k


def make_round(hands, pile, T=0, top=None, seat=A, direction=1, players=3, dealer=C, **overrides):
    p = dict(DEFAULTS, **overrides)
    r = ref.Round(p, players, dealer, 1, [list(h) for h in hands], list(pile), [0] * players, T=T,
                  direction=direction, seat=seat, stats=ref.new_stats())
    if top is not None:
        r.stack.append(top + (0,))
    return r


def test_s1_straw_break_only_the_straw_player_scores():
    r = make_round([[6, STRAW, 9, F(3)], [REVERSE, 10, 8, 2], [5, 5, LAMP, COPY]], [7, 3, 5], T=44,
                   top=(ref.ADD, 4))
    assert ref.legal_codes(r, A) == [6, 9, F(3)]
    ref.play(r, 6)
    assert r.T == 50 and sorted(r.hands[A]) == sorted([STRAW, 9, F(3), 7]) and r.seat == B
    ref.play(r, REVERSE)
    assert r.T == 50 and r.direction == -1 and sorted(r.hands[B]) == [2, 3, 8, 10] and r.seat == A
    ref.play(r, STRAW)
    assert r.ended == ref.STRAW_BREAK
    assert ref.round_scores(r) == [13, 0, 0]
    assert r.pile == [5]
    assert r.stats["straw_chances"] == 1 and r.stats["straw_declined"] == 0


def test_s1_contrast_normal_break_instead():
    r = make_round([[STRAW, 9, F(3), 7], [10, 8, 2, 3], [5, 5, LAMP, COPY]], [5], T=50, top=(ref.REV, 0),
                   direction=-1)
    ref.play(r, 9)
    assert r.ended == ref.NORMAL_BREAK and r.T == 59
    assert ref.round_scores(r) == [0, 23, 10]
    assert r.stats["straw_declined"] == 1


def test_s1b_straw_break_can_score_negative():
    r = make_round([[STRAW, F(9), REVERSE, 2], [10, 8, 2, 3], [5, 5, LAMP, COPY]], [5], T=50, top=(ref.REV, 0))
    ref.play(r, STRAW)
    assert ref.round_scores(r) == [-7, 0, 0]


def test_s2_copy_on_empty_camel_copy_of_lamp_copy_of_copy():
    r = make_round([[COPY, LAMP, 8, 8], [COPY, 9, 9, 9], [COPY, 1, 1, 1]], [1, 2, 3, 4])
    assert ref.legal_codes(r, A) == [8, LAMP]
    ref.play(r, LAMP, 7)
    assert r.T == 7
    ref.play(r, COPY, 10)
    assert r.T == 17
    ref.play(r, COPY, 3)
    assert r.T == 20
    ref.play(r, COPY, 10)
    assert r.T == 30
    assert sorted(r.hands[A]) == [1, 4, 8, 8] and sorted(r.hands[B]) == [2, 9, 9, 9]
    assert sorted(r.hands[C]) == [1, 1, 1, 3]
    assert [(k, v) for k, v, _ in r.stack] == [(ref.LAMP_EFFECT, 7), (ref.LAMP_EFFECT, 10), (ref.LAMP_EFFECT, 3),
                                                (ref.LAMP_EFFECT, 10)]
    assert r.pile == []


def test_s3a_reverse_with_three_players():
    r = make_round([[REVERSE, 2, 2, 2], [REVERSE, 3, 3, 3], [COPY, 4, 4, 4]], [1, 1, 1, 1, 1], T=10,
                   top=(ref.ADD, 10))
    order = []
    for code in (REVERSE, COPY, 2, REVERSE):
        order.append(r.seat)
        ref.play(r, code)
    assert order == [A, C, A, B]
    assert r.seat == A and r.T == 12 and r.direction == -1


def test_s3b_reverse_with_two_players_alternates():
    r = make_round([[REVERSE, 5, 5, 5], [REVERSE, 6, 6, 6]], [1] * 10, players=2, dealer=B)
    order = []
    for code in (REVERSE, REVERSE, 5):
        order.append(r.seat)
        ref.play(r, code)
    assert order == [A, B, A] and r.seat == B and r.direction == 1


@pytest.mark.parametrize("clamp,expected,loss", [(1, [0, 0, 9], 11), (0, [-3, -11, -2], 0)])
def test_s4_carpet_clamp(clamp, expected, loss):
    r = make_round([[F(8), 6, 6, 6], [COPY, 7, 7, 7], [9, 1, 1, 1]], [2, 2, 2], T=5, top=(ref.ADD, 5),
                   carpet_clamp=clamp)
    seen = []
    for code in (F(8), COPY, 9):
        ref.play(r, code)
        seen.append(r.T)
    assert seen == expected
    assert r.stats["clamp_loss"] == loss


def test_s5_pile_runs_out_exact_is_safe_forced_break():
    r = make_round([[9, 10, 10, LAMP], [3, 4, F(5), REVERSE], [10, 10, COPY, 2]], [F(2)], T=41, top=(ref.ADD, 1))
    ref.play(r, 9)
    assert r.T == 50 and not r.ended and sorted(r.hands[A]) == sorted([10, 10, LAMP, F(2)]) and r.pile == []
    ref.play(r, REVERSE)
    assert r.seat == A and sorted(r.hands[B]) == [3, 4, F(5)]
    assert [a for a in ref.actions(r, A) if not ref.breaks(r, *a)] == [(F(2), 0)]
    ref.play(r, F(2))
    assert r.T == 48 and r.seat == C
    ref.play(r, 2)
    assert r.T == 50 and r.seat == B
    ref.play(r, F(5))
    assert r.T == 45 and r.seat == A
    ref.play(r, LAMP, 5)
    assert r.T == 50 and r.seat == C
    assert all(ref.breaks(r, *a) for a in ref.actions(r, C))
    ref.play(r, COPY, 1)
    assert r.ended == ref.NORMAL_BREAK and r.ender == C and r.T == 51
    assert ref.round_scores(r) == [20, 7, 0]
    assert r.stats["forced_breaks"] == 1 and r.stats["break_total_sum"] == 51 and r.stats["overshoot_sum"] == 1
    assert r.stats["exact_hits"] == 4
    assert not r.pile  # the round counts toward deck_out_rounds


def test_s6_pass_with_no_legal_card():
    r = make_round([[COPY, COPY, COPY, STRAW], [5, 6, 7, 8], [2, 9, 9, 9]], [1, 1, 1])
    assert ref.legal_codes(r, A) == []
    ref.pass_turn(r)
    assert len(r.hands[A]) == 4 and r.seat == B
    ref.play(r, 5)
    ref.play(r, 2)
    ref.play(r, COPY)
    assert r.T == 9 and r.stack[-1][:2] == (ref.ADD, 2)
    assert sorted(r.hands[A]) == sorted([COPY, COPY, STRAW, 1]) and sorted(r.hands[B]) == [1, 6, 7, 8]
    assert sorted(r.hands[C]) == [1, 9, 9, 9]
    assert r.stats["passes"] == 1


def test_s7_dealer_rotation_and_ties():
    dealers = [(1 + n - 1) % 3 for n in (1, 2, 3)]
    assert dealers == [B, C, A]
    assert [(d + 1) % 3 for d in dealers] == [C, A, B]
    ranks, win60 = rank_and_win60([30, 30, 25])
    assert ranks == [1, 1, 3] and win60 == [30, 30, 0]
    assert rank_and_win60([96, 104, 101]) == ([3, 1, 2], [0, 60, 0])


def test_s7_game_flow_through_play_game():
    """A full game: 3 rounds for 3 players with dealers rotating from the drawn first dealer; evertide goes on
    until a total reaches the target."""
    p = dict(DEFAULTS)
    trace = []
    rec = ref.play_game(p, 3, 7, 5, [("random", {})] * 3, trace)
    rounds = [e for e in trace if e["kind"] == "round"]
    first = rec.game["first_dealer"]
    assert [e["dealer"] for e in rounds] == [first, (first + 1) % 3, (first + 2) % 3]
    ev = dict(p, evertide=1, target=60)
    trace = []
    rec = ref.play_game(ev, 3, 7, 5, [("random", {})] * 3, trace)
    ends = [e["totals"] for e in trace if e["kind"] == "round_end"]
    assert all(max(t) < 60 for t in ends[:-1]) and max(ends[-1]) >= 60
    assert rec.game["rounds_played"] == len(ends) and rec.game["capped"] == 0
