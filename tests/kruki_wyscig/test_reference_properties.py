"""Property tests over random playouts of the kruki-wyscig reference: across variants (alone and combined), parameter
sets and strategy pairings. Every decision point checks the full state (component conservation, RACE-11 invariants,
RACE-24), the legality of the chosen play, and that the decision does not change when hidden information (the other
hand, pile and land-stack order) changes while the observation stays the same."""
import copy
import random

import pytest

from sim.games.kruki_wyscig import reference as R
from sim.games.kruki_wyscig import reference_track as RT
from sim.games.kruki_wyscig import rules
from sim.spec import WIN_SCALE
from tests.kruki_wyscig.test_scenarios import STRAT_DEFAULTS, check_links, params

VARIANT_SETS = [(), ("osprey-joker",), ("fixed-mix-draw",), ("rerace-tie",), ("osprey-joker", "fixed-mix-draw"),
                ("osprey-joker", "rerace-tie"), ("fixed-mix-draw", "rerace-tie"),
                ("osprey-joker", "fixed-mix-draw", "rerace-tie")]
PARAM_SETS = [
    {},
    {"lands": 3, "pair_copies": 2, "track_cards": 5},
    {"lands": 6, "pair_copies": 1, "track_cards": 12, "action_copies": 4},
    {"action_copies": 0, "start_player": 1},
    {"flight_per_land": 1, "start_hand": 10, "hand_limit": 3, "draw_per_turn": 5, "take_cards": 4, "max_turns": 50},
    {"track_cards": 24, "pair_copies": 3, "start_player": 0, "hand_limit": 15},
]
NAMES = [s.name for s in rules.STRATEGIES]
SLOW = ("saboteur", "weighted", "hoarder")


def resolve(variants, overrides):
    p = params()
    for v in rules.VARIANTS:
        if v.name in variants:
            p.update(v.sets)
    p.update(overrides)
    rules.validate(p, 2)
    return p


def perturb_hidden(st, seat, rnd):
    """A copy of the state with the same observation for `seat` but other hidden information."""
    u = copy.copy(st)
    u.track, u.stack, u.trace, u.rng = st.track.copy(), st.stack[:], None, copy.copy(st.rng)
    u.fpile, u.apile = [x[:] for x in st.fpile], [x[:] for x in st.apile]
    u.hand_f, u.hand_a, u.disc = [x[:] for x in st.hand_f], [x[:] for x in st.hand_a], [x[:] for x in st.disc]
    q = 1 - seat
    flights = [x for x in range(len(u.hand_f[q])) for _ in range(u.hand_f[q][x])] + u.fpile[q]
    rnd.shuffle(flights)
    h = sum(u.hand_f[q])
    u.hand_f[q] = [flights[:h].count(x) for x in range(len(u.hand_f[q]))]
    u.fpile[q] = flights[h:]
    acts = [k for k in range(rules.N_KINDS) for _ in range(u.hand_a[q][k])] + u.apile[q]
    rnd.shuffle(acts)
    h = sum(u.hand_a[q])
    u.hand_a[q] = [acts[:h].count(k) for k in range(rules.N_KINDS)]
    u.apile[q] = acts[h:]
    for pile in (u.fpile[seat], u.apile[seat], u.stack):
        rnd.shuffle(pile)
    return u


def check_state(st, discarded_actions, pending=-1):
    t, p = st.track, st.p
    linked = check_links(t)
    # every land card in exactly one place (RACE-1, RACE-4, RACE-11)
    mains = [c for c in t.col_card if c != -1]
    loops = [c for lane in (RT.LANE_A, RT.LANE_B) for j in range(1, t.n) for c in RT.loop_cards(t, lane, j)]
    boxed = [c for c in range(len(t.card_land)) if t.card_loc[c] == RT.LOC_BOX]
    held = [pending] if pending != -1 else []  # a detour card drawn, not yet placed
    assert sorted(mains + loops + boxed + st.stack + held) == list(range(len(t.card_land)))
    assert all(t.card_loc[c] == RT.LOC_MAIN for c in mains) and all(t.card_loc[c] == R.LOC_LOOP for c in loops)
    assert all(t.card_loc[c] == RT.LOC_STACK for c in st.stack + held)
    # real fields: 2 per home main card, 1 per slid one, 2 per loop card
    home = sum(1 for j in range(t.n) if t.col_card[j] != -1 and t.col_shift[j] == RT.HOME)
    assert R.track_len(t) == 2 * home + (len(mains) - home) + 2 * len(loops)
    assert sum(t.f_gap) == 2 * (t.n - len(mains)) + (len(mains) - home)
    for j in range(t.n):
        if t.col_card[j] == -1:
            assert t.col_shift[j] == RT.HOME
    for s in (0, 1):
        f = t.pos[s]
        assert f == R.START[s] or (f in linked and RT.is_real(t, f))
        if not t.done[s]:
            assert R.rem(t, s) > 0  # RACE-24
        # flight cards: hand + pile + discards = flight_per_land per land
        for x in range(p["lands"]):
            assert st.hand_f[s][x] + st.fpile[s].count(x) + st.disc[s][x] == p["flight_per_land"]
        # action cards: hand + pile + played + discarded = 4 kinds x copies
        used = sum(st.actions_log[s])
        assert sum(st.hand_a[s]) + len(st.apile[s]) + used + discarded_actions[s] == 4 * p["action_copies"]
        assert min(st.hand_f[s]) >= 0 and min(st.hand_a[s]) >= 0


def check_play(st, s, head, target):
    """Independent checks of the rules a play must satisfy."""
    t, (typ, x) = st.track, head
    nxt = R.fwd(t, s, t.pos[s])
    assert not t.done[s] and nxt != -1
    if typ == R.FLIGHT:
        assert st.hand_f[s][x] >= 1 and t.f_land[nxt] == x  # RACE-20
    elif typ == R.JOKER:
        assert st.hand_f[s][x] >= 2  # RACE-21
        if st.p["osprey_joker"]:
            assert st.hand_f[s][t.f_land[nxt]] == 0
    else:
        assert st.hand_a[s][rules.OPTION_KIND[x]] >= 1
        cards = target if x == rules.OPT_SWAP else (target,) if x in (rules.OPT_ROTATE, rules.OPT_REMOVE) else \
            (target[0],) if x == rules.OPT_SLIDE else ()
        for c in cards:
            on = {t.card_fa[c], t.card_fb[c]}
            assert t.pos[0] not in on and t.pos[1] not in on  # RACE-15 occupied
            assert t.card_loc[c] in (RT.LOC_MAIN, R.LOC_LOOP)
            assert not RT.covered(t, c)
        if x in (rules.OPT_SWAP, rules.OPT_SLIDE):
            for c in cards:
                if t.card_loc[c] == RT.LOC_MAIN:
                    assert t.col_shift[RT.card_column(t, c) - 1] == RT.HOME
        if x == rules.OPT_SWAP:
            assert t.card_loc[cards[0]] == t.card_loc[cards[1]]
        if x == rules.OPT_BACK1:
            assert not t.done[1 - s] and t.pos[1 - s] != R.START[1 - s]
        if x == rules.OPT_DETOUR:
            assert st.stack


class Harness:
    """Wraps each seat's strategy: checks the state at every decision and the hidden-information property."""

    def __init__(self, names, sparams, every=5):
        self.st, self.n, self.every, self.rnd = None, 0, every, random.Random(5)
        self.discarded = [0, 0]
        self.hidden_checks = 0
        self.strategies = [(self.wrap(name), sp) for name, sp in zip(names, sparams)]

    def wrap(self, name):
        fn = R.STRATEGY_FUNCS[name]

        def decide(kind, obs, options, rng, sp):
            st = self.st
            seat = obs.seat
            check_state(st, self.discarded, obs.detour_card)
            self.n += 1
            if self.n % self.every == 0:
                u = perturb_hidden(st, seat, self.rnd)
                obs2 = R.observe(u, seat, obs.detour_card)
                assert obs2 == obs
                if kind == R.DEC_PLAY:
                    assert R.play_heads(u, seat) == options
                a = fn(kind, obs, options, copy.copy(rng), sp)
                b = fn(kind, obs2, options, copy.copy(u.rng), sp)
                assert a == b
                self.hidden_checks += 1
            choice = fn(kind, obs, options, rng, sp)
            if kind == R.DEC_PLAY and choice is not None:
                head, targets = options[choice[0]]
                check_play(st, seat, head, None if targets is None else targets[choice[1]])
            if kind == R.DEC_DISCARD and options[choice][0] == 1:
                self.discarded[seat] += 1
            return choice
        return decide


def run_checked(monkeypatch, p, names, sparams, seed, index, every=5):
    h = Harness(names, sparams, every)
    orig = R.setup_game

    def setup(*a, **kw):
        h.st = orig(*a, **kw)
        h.discarded = [0, 0]
        return h.st
    monkeypatch.setattr(R, "setup_game", setup)
    trace = []
    rec = R.play_game(p, 2, seed, index, h.strategies, trace)
    monkeypatch.setattr(R, "setup_game", orig)
    return rec, h, trace


def check_record(rec, st, p, trace):
    s, g = rec.seat, rec.game
    t = st.track
    assert g["error"] == 0
    assert set(s) == set(("score", "rank", "win60") + rules.SEAT_COLUMNS)
    assert set(g) == set(("error",) + rules.GAME_COLUMNS)
    assert all(isinstance(v, int) for col in s.values() for v in col) and all(isinstance(v, int) for v in g.values())
    assert sum(s["win60"]) == WIN_SCALE and sum(s["score"]) == 2  # RACE-36
    assert (g["shared_win"] == 1) == (s["win60"] == [30, 30]) == (s["rank"] == [1, 1])
    for x in (0, 1):
        assert s["rank"][x] == (1 if s["win60"][x] else 2) and s["score"][x] == s["win60"][x] // 30
        assert s["final_hand"][x] == st.hand_size(x)
        assert s["final_hand"][x] == (s["cards_drawn"][x] - s["flights_played"][x] - 2 * s["jokers"][x]
                                      - sum(s["actions_used_" + o][x] for o in rules.OPTION_NAMES)
                                      - s["cards_discarded"][x])
        assert s["fields_pushed_back"][x] == s["actions_used_back1"][1 - x]
        assert s["fields_forward"][x] >= s["flights_played"][x] + s["jokers"][x] + s["actions_used_forward1"][x]
    S = g["start_player"]
    assert g["turns"] == st.turns >= 1
    assert g["track_len_start"] == 2 * p["track_cards"] and g["track_len_end"] == R.track_len(t)
    assert g["detours"] == s["actions_used_detour"][0] + s["actions_used_detour"][1]
    assert g["cards_removed"] == s["actions_used_remove"][0] + s["actions_used_remove"][1]
    assert g["loop_cards_end"] == t.card_loc.count(R.LOC_LOOP) and g["gaps_end"] == sum(t.f_gap)
    assert g["reraces"] <= rules.RERACE_LIMIT and (p["rerace_tie"] or g["reraces"] == 0)
    if g["truncated"]:
        assert g["turns"] == p["max_turns"] and g["first_finisher"] == -1 and t.done == [0, 0]
        assert s["win60"][0] >= s["win60"][1] if R.rem(t, 0) <= R.rem(t, 1) else s["win60"][1] > s["win60"][0]
    else:
        assert g["first_finisher"] in (0, 1) and t.done[g["first_finisher"]] == 1
        assert g["turns"] <= p["max_turns"] + 1
    if g["tiebreak_decided"]:  # RACE-34: both finished, hands compared
        assert t.done == [1, 1] and g["first_finisher"] == S and g["final_turn_finish"] == 1
        hs = s["final_hand"]
        assert (hs[0] == hs[1]) == (g["shared_win"] == 1)
        if hs[0] != hs[1]:
            assert s["win60"][hs.index(max(hs))] == WIN_SCALE
        if g["shared_win"] and p["rerace_tie"]:
            assert g["reraces"] == rules.RERACE_LIMIT
    elif not g["truncated"]:
        winner = t.done.index(1)  # RACE-34: exactly one raven finished
        assert t.done[1 - winner] == 0 and s["win60"][winner] == WIN_SCALE
        assert g["winner_lead"] == R.rem(t, 1 - winner) >= 1
        assert g["winner_lead_runs"] == R.runs(t, 1 - winner) >= 1
    if g["shared_win"] or t.done == [1, 1]:
        assert g["winner_lead"] == 0 and g["winner_lead_runs"] == 0
    for e in trace:  # RACE-20/21 via the event log
        if e["kind"] == "flight":
            assert e["fields"] >= 1
        if e["kind"] == "joker" and not p["osprey_joker"]:
            assert e["fields"] == 1


def games():
    """(index, variants, overrides, strategy names): cheap strategies often, the slow planners less."""
    out = []
    pairs = [(a, b) for a in NAMES for b in NAMES]
    for i in range(600):
        a, b = pairs[i % len(pairs)]
        if (a in SLOW or b in SLOW) and i % 2:
            a, b = ("random", "runner") if i % 2 else ("runner", "random")
        out.append((i, VARIANT_SETS[i % len(VARIANT_SETS)], PARAM_SETS[(i // 8) % len(PARAM_SETS)], (a, b)))
    return out


@pytest.mark.parametrize("chunk", range(6))
def test_random_playouts_keep_every_invariant(monkeypatch, chunk):
    hidden = 0
    for i, variants, overrides, names in games()[chunk::6]:
        p = resolve(variants, overrides)
        sparams = [dict(STRAT_DEFAULTS[n]) for n in names]
        if i % 5 == 0:
            for sp, n in zip(sparams, names):  # strategy parameters other than the defaults
                sp.update({"random": {"stop": 0.05}, "saboteur": {"threshold": 0.0, "max_actions": 3.0},
                           "hoarder": {"sprint": 1.0, "threshold": 2.0}, "weighted": {"w_opp": 2.0},
                           "runner": {"min_actions": 2.0}}[n])
        rec, h, trace = run_checked(monkeypatch, p, names, sparams, 11, i)
        check_state(h.st, h.discarded)
        check_record(rec, h.st, p, trace)
        hidden += h.hidden_checks
    assert hidden > 100


def test_many_fast_random_games_cover_every_action():
    """1,000 random-vs-random games (no per-decision checks): outcome columns stay consistent and every option,
    variant and ending occurs."""
    seen_opts, endings = set(), set()
    for i in range(1000):
        p = resolve(VARIANT_SETS[i % 8], PARAM_SETS[(i // 8) % len(PARAM_SETS)] if i % 2 else {})
        rec = R.play_game(p, 2, 3, i, [("random", STRAT_DEFAULTS["random"])] * 2)
        s, g = rec.seat, rec.game
        assert g["error"] == 0 and sum(s["win60"]) == WIN_SCALE
        seen_opts |= {o for o in rules.OPTION_NAMES if s["actions_used_" + o][0] + s["actions_used_" + o][1]}
        endings.add(("tiebreak" if g["tiebreak_decided"] else "truncated" if g["truncated"] else "race",
                     g["shared_win"]))
        if g["reraces"]:
            endings.add("rerace")
    assert seen_opts == set(rules.OPTION_NAMES)
    assert {("tiebreak", 0), ("tiebreak", 1), ("race", 0), "rerace"} <= endings


@pytest.mark.parametrize("names", [("random", "random"), ("saboteur", "weighted"), ("hoarder", "runner")])
def test_determinism(names):
    p = resolve(("osprey-joker", "rerace-tie"), {})
    sp = [STRAT_DEFAULTS[n] for n in names]
    for i in range(3):
        t1, t2 = [], []
        a = R.play_game(p, 2, 99, i, list(zip(names, sp)), t1)
        b = R.play_game(p, 2, 99, i, list(zip(names, sp)), t2)
        assert a == b and t1 == t2
    recs = [R.play_game(p, 2, 99, i, list(zip(names, sp))) for i in range(6)]
    assert len({repr(r) for r in recs}) > 1  # different game indices give different games


def test_win_rates_are_not_degenerate():
    """Sanity: runner beats random clearly; the first seat does not always win."""
    p = params()
    wins = [0, 0]
    for i in range(60):
        rec = R.play_game(p, 2, 5, i, [("runner", STRAT_DEFAULTS["runner"]), ("random", STRAT_DEFAULTS["random"])])
        wins[0] += rec.seat["win60"][0]
        wins[1] += rec.seat["win60"][1]
    assert wins[0] > 2 * wins[1]


def test_validate_rejects_bad_sets():
    from sim.spec import SpecError
    with pytest.raises(SpecError, match="pair_copies"):
        rules.validate(params(lands=3, pair_copies=1, track_cards=16), 2)
    with pytest.raises(SpecError, match="exactly 2"):
        rules.validate(params(), 3)
    assert len(rules.build_land_cards(params())) == 40 and len(rules.build_flight_deck(params())) == 25
    assert rules.build_action_deck(params()) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert rules.n_field_records(params()) == 114
