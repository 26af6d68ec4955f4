"""Property tests over random playouts of the Sen reference: conservation, legality, scoring, ranks, statistics,
determinism and information isolation (strategies decide from their observation only)."""
import copy
from collections import Counter

import pytest

from sim.games.sen import reference as ref
from sim.games.sen import obs as O
from sim.games.sen import rules as R
from sim.rng import PyStream
from sim.spec import SpecError, WIN_SCALE

U = R.UNKNOWN
DEFAULTS = {p.name: p.default for p in R.PARAMS}
VARIANT = {v.name: v.sets for v in R.VARIANTS}
STRATS = ("random", "threshold", "memory")


def params_with(*variants, **sets):
    p = dict(DEFAULTS)
    for v in variants:
        p.update(VARIANT[v])
    p.update(sets)
    return p


# (label, params, players); every combination is also played under several strategy mixes
CONFIGS = [
    ("sen", params_with(), 2),
    ("sen", params_with(), 4),
    ("sen", params_with(), 6),
    ("ratcat", params_with("rat-a-tat-cat"), 3),
    ("ratcat", params_with("rat-a-tat-cat"), 5),
    ("deckout", params_with("deck-out-ends"), 2),
    ("deckout", params_with("deck-out-ends"), 4),
    ("both", params_with("rat-a-tat-cat", "deck-out-ends"), 3),
    ("both", params_with("rat-a-tat-cat", "deck-out-ends"), 6),
    ("small-deck", params_with(copies_0_8=1, copies_9=1, n_take2=4, n_peek=3, n_swap=3, dream_size=3), 4),
    ("small-deck-ratcat", params_with("rat-a-tat-cat", copies_0_8=1, copies_9=0, n_take2=5, n_peek=5, n_swap=5), 3),
    ("small-deck-out", params_with("deck-out-ends", copies_0_8=2, copies_9=2, dream_size=5), 3),
    ("ds6-final0", params_with(dream_size=6, final_turns=0, call_after=3), 4),
    ("ds3-rounds", params_with(dream_size=3, rounds=3, caller_penalty=25), 5),
    ("capped", params_with(max_turns=10, max_rounds=4, end_score=1000), 3),
    ("modes", params_with(take2_mode=1, peek_scope=1), 4),
    ("modes2", params_with(faceup_specials=0, replace_specials=1), 2),
    ("low-end", params_with(end_score=10, call_after=10), 6),
]

MIXES = [("random",), ("threshold",), ("memory",), ("memory", "threshold", "random")]
GAMES_PER = 12


def strategies_for(mix, n):
    return [(mix[i % len(mix)], {}) for i in range(n)]


class Checker:
    """Invariants checked after every turn and at every decision of a game in progress."""

    def __init__(self, params, n):
        self.params, self.n = params, n
        self.deck = Counter(R.build_deck(params))
        self.decisions = 0

    def on_turn_end(self, st, seat):
        assert Counter(st.cards_in_play()) == self.deck  # conservation
        for p in range(self.n):  # K_p holds only true cards (perfect recall, SEN-22/23)
            for q in range(self.n):
                for s in range(st.ds):
                    k = st.know[p][q][s]
                    assert k == U or k == st.dreams[q][s]
        if self.params["empty_pile"] and not st.round_over:
            assert st.facedown  # deck-out-ends: a turn never starts on an empty pile

    def on_decision(self, st, seat, kind, options, held, obs, choice):
        self.decisions += 1
        assert choice in options
        assert obs.seat == seat and obs.know == tuple(tuple(r) for r in st.know[seat])
        if kind == O.D_SOURCE:
            assert self.params["faceup_specials"] or st.faceup[-1] < R.TAKE2
        elif kind == O.D_CALL:
            assert st.caller == -1 and not st.in_final
            assert st.own_turns[seat] >= self.params["call_after"]
        elif kind == O.D_PEEK and self.params["peek_scope"]:
            assert all(q == seat for q, _ in options)
        elif kind == O.D_SWAP:
            assert all(q != seat for _, q, _ in options)
        elif kind == O.D_DRAWN:
            assert len(options) == st.ds + 1 + (held[0] >= R.TAKE2)


def check_trace(trace, params, n, rec):
    """Replays the public story of the trace and checks it against the rules and the record."""
    ravens = R.ravens_table(params)
    totals = [0] * n
    rounds = reshuffles = 0
    for e in trace:
        k = e["kind"]
        if k == "round_start":
            caller, turns, finals = -1, 0, 0
        elif k == "turn":
            turns += 1
            if e["final"]:
                finals += 1
                assert caller >= 0 and e["seat"] != caller
        elif k == "call":
            assert caller == -1 and finals == 0
            caller = e["seat"]
        elif k == "take_faceup" and not params["faceup_specials"]:
            assert e["card"] < R.TAKE2
        elif k == "peek" and params["peek_scope"]:
            assert e["target"] == e["seat"]
        elif k == "swap":
            assert e["target"] != e["seat"]
        elif k == "reshuffle":
            reshuffles += 1
        elif k == "round_end":
            if e["reason"] == "final":
                assert caller >= 0 and finals == n - 1 and params["final_turns"] == 1
            elif e["reason"] == "call":
                assert caller >= 0 and params["final_turns"] == 0
            elif e["reason"] == "cap":
                assert caller == -1 and turns == params["max_turns"]
            else:
                assert e["reason"] == "deck_out" and params["empty_pile"] == 1
            assert finals <= n - 1
        elif k == "score":
            rounds += 1
            dreams = e["dreams"]
            if params["replace_specials"] and any(c >= R.TAKE2 for d in dreams for c in d):
                # SEN-18 guard: a special stays only when neither pile holds a number card
                numbers = 9 * params["copies_0_8"] + params["copies_9"]
                assert sum(1 for d in dreams for c in d if c < R.TAKE2) == numbers
            raw = [sum(ravens[c] for c in d) for d in dreams]
            assert e["raw"] == raw  # SEN-17
            scores = list(raw)
            c = e["seat"]
            assert c == caller
            if c >= 0 and min(raw[q] for q in range(n) if q != c) < raw[c]:
                scores[c] += params["caller_penalty"]  # SEN-19
            assert e["scores"] == scores
            totals = [t + s for t, s in zip(totals, scores)]
            assert e["totals"] == totals  # SEN-20
    assert rec.seat["score"] == totals
    assert rec.game["rounds_played"] == rounds
    assert rec.game["reshuffles"] == reshuffles
    return totals


def check_record(rec, params, n):
    g, s = rec.game, rec.seat
    assert g["error"] == 0
    totals = s["score"]
    # SEN-21: rank = 1 + seats strictly lower; the lowest totals share the win
    low = min(totals)
    assert s["rank"] == [1 + sum(1 for o in totals if o < t) for t in totals]
    winners = [q for q in range(n) if totals[q] == low]
    assert s["win60"] == [WIN_SCALE // len(winners) if q in winners else 0 for q in range(n)]
    assert sum(s["win60"]) == WIN_SCALE
    srt = sorted(totals)
    assert g["winner_margin"] == srt[1] - srt[0]
    # SEN-20 game end
    if g["capped"]:
        assert g["rounds_played"] == params["max_rounds"]
    elif params["rounds"]:
        assert g["rounds_played"] == params["rounds"]
    else:
        assert max(totals) >= params["end_score"]
    assert g["rounds_played"] <= params["max_rounds"]
    # statistics add up
    assert g["faceup_takes"] + g["draws"] == g["turns"]
    assert g["cards_drawn"] >= g["draws"]
    assert g["calls"] == sum(s["calls"]) <= g["rounds_played"]
    assert g["penalties"] == sum(s["penalties"]) <= g["calls"]
    assert g["caller_lowest"] + g["penalties"] <= g["calls"]
    assert g["capped_rounds"] <= g["rounds_played"]
    assert g["seat_rounds"] == n * g["rounds_played"]
    assert g["round_score_sum"] == sum(totals)
    assert g["min_round_score"] <= g["max_round_score"]
    assert g["min_round_score"] * g["seat_rounds"] <= g["round_score_sum"] <= g["max_round_score"] * g["seat_rounds"]
    assert sum(s["round_lows"]) >= g["rounds_played"]
    assert sum(s["unknown_at_call"]) <= params["dream_size"] * g["calls"]
    assert sum(s["swapped_against"]) == g["specials_used_swap"]
    for name in ("take2", "peek", "swap"):
        assert g["specials_used_" + name] <= g["specials_drawn_" + name]
    if not params["replace_specials"]:
        assert g["replacements"] == 0
    if params["caller_penalty"] == 0:
        assert g["penalties"] == 0
    assert g["call_turn_sum"] >= g["calls"]


@pytest.mark.parametrize("label,params,n", CONFIGS, ids=[f"{c[0]}-{c[2]}p" for c in CONFIGS])
def test_random_playouts(label, params, n):
    R.validate(params, n)
    for mi, mix in enumerate(MIXES):
        for g in range(GAMES_PER):
            chk = Checker(params, n)
            trace = []
            rec = ref.play_game(params, n, 1000 + mi, g, strategies_for(mix, n), trace=trace,
                                on_decision=chk.on_decision, on_turn_end=chk.on_turn_end)
            check_record(rec, params, n)
            check_trace(trace, params, n, rec)


def test_determinism_same_seed_same_game():
    for n, params in ((3, params_with()), (4, params_with("rat-a-tat-cat", "deck-out-ends"))):
        for g in range(10):
            strats = strategies_for(("random", "memory", "threshold"), n)
            t1, t2 = [], []
            r1 = ref.play_game(params, n, 77, g, strats, trace=t1)
            r2 = ref.play_game(params, n, 77, g, strats, trace=t2)
            assert r1 == r2 and t1 == t2
            r3 = ref.play_game(params, n, 78, g, strats)
            assert r3 is not None
    # different games of one run differ (almost surely)
    recs = [ref.play_game(params_with(), 4, 5, g, strategies_for(("random",), 4)).seat["score"] for g in range(5)]
    assert len({tuple(r) for r in recs}) > 1


def _perturb_hidden(st, seat, rng):
    """Shuffle every card hidden from `seat` (face-down pile + dream slots it does not know) among those places."""
    st2 = copy.deepcopy(st)
    places = [(q, s) for q in range(st2.n) for s in range(st2.ds) if st2.know[seat][q][s] == U]
    cards = [st2.dreams[q][s] for q, s in places] + list(st2.facedown)
    rng.shuffle(cards)
    for (q, s), c in zip(places, cards):
        st2.dreams[q][s] = c
    st2.facedown = cards[len(places):]
    return st2


@pytest.mark.parametrize("params,n", [(params_with(), 3), (params_with("rat-a-tat-cat"), 4),
                                      (params_with("deck-out-ends", dream_size=5), 2)])
def test_decisions_ignore_hidden_information(params, n):
    """A decision depends only on the observation: hiding other cards differently changes neither it nor the choice."""
    prng = PyStream(99, n)
    checked = 0
    for mix in MIXES:
        for g in range(6):
            agents = [ref.make_agent(name, sp) for name, sp in strategies_for(mix, n)]
            pending = {}

            def wrap(seat):
                def agent(kind, obs, options, rng):
                    pending["rng"] = rng.state
                    return agents[seat](kind, obs, options, rng)
                return agent

            def on_decision(st, seat, kind, options, held, obs, choice):
                nonlocal checked
                if prng.below(4):
                    return
                st2 = _perturb_hidden(st, seat, prng)
                assert Counter(st2.cards_in_play()) == Counter(st.cards_in_play())
                obs2 = ref.observe(st2, seat, held)
                assert obs2 == obs
                rng2 = PyStream(0, 0)
                rng2.state = pending["rng"]
                assert agents[seat](kind, obs2, list(options), rng2) == choice
                checked += 1

            rec = ref.play_game(params, n, 4242, g, [(wrap(s), {}) for s in range(n)], on_decision=on_decision)
            assert rec.game["error"] == 0
    assert checked > 100


def test_observation_holds_no_hidden_state():
    st = ref.State(DEFAULTS, 3)
    ctx = ref.Ctx([None] * 3, PyStream(1, 1))
    ref.start_round(st, ctx, 0)
    obs = ref.observe(st, 1)
    # only K_1: own slots 0 and 3 after the initial peek (SEN-4), nothing about the others
    assert obs.know[1][0] == st.dreams[1][0] and obs.know[1][3] == st.dreams[1][3]
    assert obs.know[1][1] == U and obs.know[0] == (U,) * 4 and obs.know[2] == (U,) * 4
    assert obs.facedown_count == len(st.facedown) and obs.faceup == tuple(st.faceup)
    assert not hasattr(obs, "dreams") and not hasattr(obs, "facedown")


def test_unseen_multiset_and_mu():
    assert R.mu0(DEFAULTS) == 285 / 54
    assert R.mu0(params_with("rat-a-tat-cat")) == 5.0
    st = ref.State(DEFAULTS, 2)
    ref.start_round(st, ref.Ctx([None] * 2, PyStream(3, 3)), 0)
    obs = ref.observe(st, 0, held=(R.TAKE2,))
    counts = ref.unseen_counts(obs)
    assert sum(counts) == 54 - 1 - 2 - 1  # face-up top, two peeked own cards, the held card
    assert ref.mu_p(obs) == sum(c * r for c, r in zip(counts, R.ravens_table(DEFAULTS))) / sum(counts)


def test_illegal_choice_is_error_1():
    def bad(kind, obs, options, rng):
        return -5
    rec = ref.play_game(DEFAULTS, 2, 1, 0, [(bad, {}), ("random", {})])
    assert rec.game["error"] == R.ERROR_ILLEGAL


def test_endless_take2_chain_is_error_2():
    p = params_with(dream_size=3, copies_0_8=0, copies_9=0, n_take2=9, n_peek=0, n_swap=0)
    R.validate(p, 2)
    rec = ref.play_game(p, 2, 1, 0, strategies_for(("threshold",), 2))
    assert rec.game["error"] == R.ERROR_CHAIN


def test_validate_and_variants():
    R.validate(DEFAULTS, 6)
    with pytest.raises(SpecError, match="at least 26"):
        R.validate(params_with(copies_0_8=1, copies_9=0, n_take2=0, n_peek=0, n_swap=0), 6)
    with pytest.raises(SpecError):
        R.validate(DEFAULTS, 7)
    assert sum(R.card_counts(DEFAULTS)) == 54
    assert sum(c * r for c, r in zip(R.card_counts(DEFAULTS), R.ravens_table(DEFAULTS))) == 285
    rat = VARIANT["rat-a-tat-cat"]
    assert rat == {"replace_specials": 1, "faceup_specials": 0, "take2_mode": 1, "peek_scope": 1,
                   "caller_penalty": 0, "v_take2": 0, "v_peek": 0, "v_swap": 0}
    assert VARIANT["deck-out-ends"] == {"empty_pile": 1}
    names = {p.name for p in R.PARAMS}
    assert all(k in names for v in R.VARIANTS for k in v.sets)
    for p in R.PARAMS:
        assert p.lo <= p.default <= p.hi
    assert [s.name for s in R.STRATEGIES] == ["random", "threshold", "memory"]
    assert [s.sid for s in R.STRATEGIES] == [0, 1, 2]
    cols = set(R.GAME_COLUMNS) | {"error", "score"} | set(R.SEAT_COLUMNS)
    for r in R.RATIOS:
        assert r.numerator in cols and r.denominator in cols


def test_first_player_rotates_and_deal_is_round_robin():
    trace = []
    ref.play_game(params_with(rounds=4), 3, 11, 2, strategies_for(("memory",), 3), trace=trace)
    firsts = [e["seat"] for e in trace if e["kind"] == "round_start"]
    assert len(firsts) == 4 and all(firsts[i + 1] == (firsts[i] + 1) % 3 for i in range(3))
    # the deal reproduces from the stream: below(N), then shuffle of the canonical deck
    rng = PyStream(11, 2)
    first = rng.below(3)
    deck = R.build_deck(DEFAULTS)
    rng.shuffle(deck)
    dreams = [[None] * 4 for _ in range(3)]
    for s in range(4):
        for k in range(3):
            dreams[(first + k) % 3][s] = deck.pop()
    start = next(e for e in trace if e["kind"] == "round_start")
    assert start["seat"] == first and start["dreams"] == dreams and start["faceup"] == [deck.pop()]
