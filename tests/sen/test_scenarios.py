"""Every worked scenario of §10 of docs/rules/sen.md (SEN-S1..S7), as injected states with scripted actions."""
from collections import Counter

import pytest

from sim.games.sen import reference as ref
from sim.games.sen import obs as O
from sim.games.sen import rules as R
from sim.games.sen.obs import D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, SRC_DRAW, SRC_FACEUP
from sim.games.sen.rules import PEEK, SWAP, TAKE2
from sim.rng import PyStream
from sim.spec import GameRecord

U = R.UNKNOWN
A, B, C = 0, 1, 2
DS = 4
B2, B3 = O.OPT_DISCARD(DS), O.OPT_USE(DS)
SEN = {p.name: p.default for p in R.PARAMS}
RATC = {**SEN, **R.VARIANTS[0].sets}
assert R.VARIANTS[0].name == "rat-a-tat-cat"


class Script:
    """Scripted agents: each decision must match the next (seat, kind) and gets the scripted choice."""

    def __init__(self, steps):
        self.steps = list(steps)
        self.asked = []

    def agents(self, n):
        return [self._agent(seat) for seat in range(n)]

    def _agent(self, seat):
        def agent(kind, obs, options, rng):
            assert obs.seat == seat
            assert self.steps, f"unscripted decision {O.DECISION_NAMES[kind]} for seat {seat}"
            s, k, choice = self.steps.pop(0)
            assert (s, k) == (seat, kind), f"expected seat {s} {O.DECISION_NAMES[k]}, got seat {seat} " \
                                           f"{O.DECISION_NAMES[kind]}"
            self.asked.append((seat, kind, options))
            return choice
        return agent

    def done(self):
        assert not self.steps, f"decisions not asked: {self.steps}"


def ctx_for(script, n):
    return ref.Ctx(script.agents(n), PyStream(0, 0), trace=[])


def facedown_top_first(st):
    return list(reversed(st.facedown))


# ---------------------------------------------------------------- SEN-S1

def s1_state(params, facedown):
    return ref.make_state(params, 3, dreams=[[1, 2, 0, 3], [0, 0, 4, 5], [9, 9, 8, 7]],
                          facedown_top_first=facedown, faceup=[8], first=A, to_move=A,
                          totals=[90, 97, 75], round_turn=6, own_turns=[2, 2, 2])


def s1_script():
    return Script([
        (A, D_SOURCE, SRC_DRAW), (A, D_DRAWN, B2), (A, D_CALL, 1),  # 1. A draws 4, B2, calls
        (B, D_SOURCE, SRC_DRAW), (B, D_DRAWN, 3),  # 2. B's final turn: B1 into slot 3
        (C, D_SOURCE, SRC_DRAW), (C, D_DRAWN, 0),  # 3. C's final turn: B1 into slot 0
    ])


def play_s1(params, facedown):
    st = s1_state(params, facedown)
    before = Counter(st.cards_in_play())
    sc = s1_script()
    ctx = ctx_for(sc, 3)
    ref.play_round(st, ctx)
    sc.done()
    assert Counter(st.cards_in_play()) == before
    ref.score_round(st, ctx)
    return st, ref.game_finished(st), ref.record(st)


def test_s1_call_final_turns_no_penalty_game_end():
    st, over, rec = play_s1(SEN, [4, 2, 6])
    assert st.caller == A and st.call_turn == 7 and st.end_reason == "final"
    assert st.dreams[B] == [0, 0, 4, 2] and st.dreams[C] == [6, 9, 8, 7]
    assert st.faceup == [8, 4, 5, 9]
    assert st.round_scores == [6, 6, 30]
    assert st.stats["penalties"] == 0 and st.stats["caller_lowest"] == 1
    assert st.totals == [96, 103, 105]
    assert over and st.capped == 0
    assert rec.seat["win60"] == [60, 0, 0] and rec.seat["rank"] == [1, 2, 3]
    assert st.round_turn == 9  # A's 3rd turn was turn 7; two final turns; A takes no further turn
    assert st.own_turns == [3, 3, 3]


def test_s1b_penalty_when_someone_is_strictly_lower():
    st, over, rec = play_s1(SEN, [4, 1, 6])
    assert st.dreams[B] == [0, 0, 4, 1]
    assert st.round_scores == [16, 5, 30]
    assert st.stats["penalties"] == 1 and st.seat_stats["penalties"] == [1, 0, 0]
    assert st.stats["caller_lowest"] == 0
    assert st.totals == [106, 102, 105]
    assert over
    assert rec.seat["win60"] == [0, 60, 0] and rec.seat["rank"] == [3, 1, 2]


def test_s1c_no_penalty_amount():
    st, over, rec = play_s1({**SEN, "caller_penalty": 0}, [4, 1, 6])
    assert st.round_scores == [6, 5, 30]
    assert st.stats["penalties"] == 0
    assert st.totals == [96, 102, 105]
    assert rec.seat["win60"] == [60, 0, 0] and rec.seat["rank"] == [1, 2, 3]


# ---------------------------------------------------------------- SEN-S2

def s2_state(params):
    return ref.make_state(params, 2, dreams=[[7, 5, 3, 2], [2, 6, 4, 9]],
                          facedown_top_first=[TAKE2, PEEK, 1, 8], faceup=[6],
                          know={(A, A): [7, U, U, 2]}, first=A)


def test_s2a_take2_keep_one_place_it():
    st = s2_state(SEN)
    sc = Script([(A, D_SOURCE, SRC_DRAW), (A, D_DRAWN, B3),  # draws Take2 and uses it
                 (A, D_KEEP, 1),  # sees Peek and 1, keeps 1 (drawn second)
                 (A, D_DRAWN, 0),  # B1 into slot 0
                 (A, D_CALL, 0)])
    ref.play_turn(st, ctx_for(sc, 2))
    sc.done()
    assert sc.asked[2][2] == [0, 1]
    assert st.dreams[A] == [1, 5, 3, 2]
    assert st.know[A][A] == [1, U, U, 2]
    assert st.know[B][A][0] == U
    assert st.faceup == [6, TAKE2, PEEK, 7]
    assert facedown_top_first(st) == [8]
    assert st.stats["specials_used_take2"] == 1 and st.stats["specials_used_peek"] == 0
    assert st.stats["specials_drawn_take2"] == 1 and st.stats["specials_drawn_peek"] == 1
    assert st.stats["cards_drawn"] == 3 and st.stats["draws"] == 1


def test_s2b_take2_keep_peek_and_use_it_on_opponent():
    st = s2_state(SEN)
    sc = Script([(A, D_SOURCE, SRC_DRAW), (A, D_DRAWN, B3), (A, D_KEEP, 0),  # keeps Peek, rejects 1
                 (A, D_DRAWN, B3), (A, D_PEEK, (B, 2)), (A, D_CALL, 0)])
    ref.play_turn(st, ctx_for(sc, 2))
    sc.done()
    assert st.dreams == [[7, 5, 3, 2], [2, 6, 4, 9]]
    assert st.know[A][B][2] == 4
    assert st.know[B][B] == [U] * 4  # B learns only that A peeked
    assert st.faceup == [6, TAKE2, 1, PEEK]
    assert facedown_top_first(st) == [8]
    assert st.stats["specials_used_peek"] == 1


def test_s2b_opponent_peek_is_illegal_with_peek_scope_1():
    st = s2_state({**SEN, "peek_scope": 1})
    sc = Script([(A, D_SOURCE, SRC_DRAW), (A, D_DRAWN, B3), (A, D_KEEP, 0), (A, D_DRAWN, B3),
                 (A, D_PEEK, (B, 2))])
    with pytest.raises(ref.IllegalAction):
        ref.play_turn(st, ctx_for(sc, 2))
    assert sc.asked[-1][2] == [(A, s) for s in range(4)]


# ---------------------------------------------------------------- SEN-S3

def test_s3_swap_moves_knowledge_with_the_cards():
    st = ref.make_state(SEN, 3, dreams=[[8, 4, 6, 1], [0, 3, 9, 2], [5, 5, 5, 5]],
                        facedown_top_first=[SWAP, 7], faceup=[3],
                        know={(A, A): [8, U, U, 1], (A, B): [U, U, U, 2], (B, B): [0, U, U, 2]}, first=A)
    sc = Script([(A, D_SOURCE, SRC_DRAW), (A, D_DRAWN, B3), (A, D_SWAP, (0, B, 3)), (A, D_CALL, 0)])
    ref.play_turn(st, ctx_for(sc, 3))
    sc.done()
    assert len(sc.asked[2][2]) == 4 * 2 * 4
    assert st.dreams[A] == [2, 4, 6, 1] and sum(st.dreams[A]) == 13
    assert st.dreams[B] == [0, 3, 9, 8] and sum(st.dreams[B]) == 20
    assert st.know[A][A][0] == 2 and st.know[A][B][3] == 8
    assert st.know[B][B] == [0, U, U, U] and st.know[B][A][0] == 2
    assert st.know[C][A] == [U] * 4 and st.know[C][B] == [U] * 4
    assert st.faceup[-1] == SWAP
    assert st.seat_stats["swapped_against"] == [0, 1, 0]


# ---------------------------------------------------------------- SEN-S4

def s4_state():
    return ref.make_state(SEN, 2, dreams=[[3, 3, 3, 3], [0, 7, 3, 2]], facedown_top_first=[], faceup=[9, 5],
                          first=A)


def test_s4_reshuffle_only_when_a_draw_is_needed():
    st = s4_state()
    sc = Script([(A, D_SOURCE, SRC_DRAW), (A, D_DRAWN, B2), (A, D_CALL, 0),
                 (B, D_SOURCE, SRC_DRAW), (B, D_DRAWN, 1), (B, D_CALL, 0)])
    ctx = ctx_for(sc, 2)
    ref.play_turn(st, ctx)
    assert st.faceup == [5, 9] and st.facedown == []
    ref.play_turn(st, ctx)
    sc.done()
    assert st.dreams[B] == [0, 5, 3, 2]
    assert st.faceup == [9, 7] and st.facedown == []
    assert st.stats["reshuffles"] == 2
    kinds = [e["kind"] for e in ctx.trace]
    assert kinds.count("reshuffle") == 2


def test_s4_taking_face_up_does_not_reshuffle():
    st = s4_state()
    sc = Script([(A, D_SOURCE, SRC_FACEUP), (A, D_FACEUP_SLOT, 0), (A, D_CALL, 0)])
    ref.play_turn(st, ctx_for(sc, 2))
    sc.done()
    assert st.facedown == [] and st.stats["reshuffles"] == 0
    assert st.dreams[A] == [5, 3, 3, 3] and st.faceup == [9, 3]


# ---------------------------------------------------------------- SEN-S5

def s5_state():
    return ref.make_state(RATC, 2, dreams=[[7, 5, 3, 2], [2, 6, 4, 9]],
                          facedown_top_first=[TAKE2, PEEK, 1, 8], faceup=[PEEK],
                          know={(A, A): [7, U, U, 2]}, first=A)


def test_s5a_ratcat_sequential_take2_second_card_after_b2():
    st = s5_state()
    # no D_SOURCE: action A is illegal with a special on top (faceup_specials = 0)
    sc = Script([(A, D_DRAWN, B3), (A, D_DRAWN, B2), (A, D_DRAWN, 0), (A, D_CALL, 0)])
    ref.play_turn(st, ctx_for(sc, 2))
    sc.done()
    assert st.dreams[A] == [1, 5, 3, 2]
    assert st.faceup == [PEEK, TAKE2, PEEK, 7]
    assert facedown_top_first(st) == [8]


def test_s5b_ratcat_first_card_used_no_second_card():
    st = s5_state()
    sc = Script([(A, D_DRAWN, B3), (A, D_DRAWN, B3), (A, D_PEEK, (A, 1)), (A, D_CALL, 0)])
    ref.play_turn(st, ctx_for(sc, 2))
    sc.done()
    assert sc.asked[2][2] == [(A, s) for s in range(4)]  # peek_scope = 1
    assert st.know[A][A] == [7, 5, U, 2]
    assert st.faceup == [PEEK, TAKE2, PEEK]
    assert facedown_top_first(st) == [1, 8]


# ---------------------------------------------------------------- SEN-S6

def s6_state(params):
    st = ref.make_state(params, 2, dreams=[[SWAP, 3, PEEK, 1], [2, TAKE2, 4, 0]],
                        facedown_top_first=[TAKE2, 6, 2, 9, 7], faceup=[5], first=B)
    st.caller = A
    return st


def test_s6_ratcat_replacement_scoring():
    st = s6_state(RATC)
    before = Counter(st.cards_in_play())
    ctx = ref.Ctx([None, None], PyStream(0, 0), trace=[])
    ref.score_round(st, ctx)
    assert st.dreams == [[6, 3, 2, 1], [2, 9, 4, 0]]
    assert st.round_scores == [12, 15]
    assert st.stats["penalties"] == 0
    assert facedown_top_first(st) == [7]
    assert st.stats["replacements"] == 4
    assert st.stats["specials_in_dreams"] == 3
    assert st.faceup == [5, SWAP, TAKE2, PEEK, TAKE2]
    assert Counter(st.cards_in_play()) == before


def test_s6_sen_printed_ravens_and_penalty():
    st = s6_state(SEN)
    ref.score_round(st, ref.Ctx([None, None], PyStream(0, 0)))
    assert st.round_scores == [29, 11]
    assert st.stats["penalties"] == 1 and st.stats["replacements"] == 0


# ---------------------------------------------------------------- SEN-S7

def s7_state(params):
    return ref.make_state(params, 2, dreams=[[7, 5, 3, 2], [6, 6, 8, 1]], facedown_top_first=[0, 4], faceup=[3],
                          first=A)


def test_s7_public_vs_private_placement_and_first_turn_call():
    st = s7_state(SEN)
    sc = Script([(A, D_SOURCE, SRC_FACEUP), (A, D_FACEUP_SLOT, 1), (A, D_CALL, 0)])
    ctx = ctx_for(sc, 2)
    ref.play_turn(st, ctx)
    assert st.know[A][A][1] == 3 and st.know[B][A][1] == 3
    assert st.faceup == [5]
    sc.steps += [(B, D_SOURCE, SRC_DRAW), (B, D_DRAWN, 2), (B, D_CALL, 1)]
    ref.play_turn(st, ctx)
    assert st.know[B][B][2] == 0 and st.know[A][B][2] == U
    assert st.faceup == [5, 8] and st.caller == B and st.call_turn == 2
    assert st.seat_stats["unknown_at_call"] == [0, 3]  # injected K: B knows only its slot 2
    sc.steps += [(A, D_SOURCE, SRC_DRAW), (A, D_DRAWN, B2)]  # A's final turn; no call decision
    ref.play_round(st, ctx)
    sc.done()
    assert st.round_over and st.end_reason == "final"
    assert st.faceup == [5, 8, 4]
    ref.score_round(st, ctx)
    assert st.dreams == [[7, 3, 3, 2], [6, 6, 0, 1]]
    assert st.round_scores == [15, 13]
    assert st.stats["penalties"] == 0 and st.stats["caller_lowest"] == 1


def test_s7_call_after_2_forbids_first_turn_call():
    st = s7_state({**SEN, "call_after": 2})
    sc = Script([(A, D_SOURCE, SRC_FACEUP), (A, D_FACEUP_SLOT, 1),
                 (B, D_SOURCE, SRC_DRAW), (B, D_DRAWN, 2)])  # no D_CALL asked on either first turn
    ctx = ctx_for(sc, 2)
    ref.play_turn(st, ctx)
    ref.play_turn(st, ctx)
    sc.done()
    assert st.caller == -1 and not st.round_over
    sc.steps += [(A, D_SOURCE, SRC_DRAW), (A, D_DRAWN, B2), (A, D_CALL, 1)]  # A's 2nd turn: now it may call
    ref.play_turn(st, ctx)
    sc.done()
    assert st.caller == A


def test_scenario_record_shape():
    st, _, rec = play_s1(SEN, [4, 2, 6])
    assert isinstance(rec, GameRecord)
    assert set(rec.seat) == set(("score", "rank", "win60") + R.SEAT_COLUMNS)
    assert set(rec.game) == set(("error",) + R.GAME_COLUMNS)
