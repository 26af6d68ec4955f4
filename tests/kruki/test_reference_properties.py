"""Property tests over random playouts of the kruki reference: conservation, legality, scoring, ranking,
determinism, and that decisions depend only on the deciding seat's observation."""
import collections
import copy
import itertools
import math

import pytest

from sim.games.kruki import reference as ref
from sim.games.kruki import rules as R
from sim.games.kruki.rules import GAP, GRAVESTONES, JUNK, THREE_POINTS
from sim.rng import PyStream
from sim.spec import SpecError, WIN_SCALE

VARIANT_SETS = {"tile-draft": {"tile_draft": 1}, "random-junk": {"random_junk": 1},
                "lots-of-crows": {"murder_removed": 0}, "score-cap": {"score_cap": 12}}
COMBOS = [c for n in range(5) for c in itertools.combinations(VARIANT_SETS, n)]
SPARAMS = {s.name: dict(s.params) for s in R.STRATEGIES}


def params(variants=(), **kw):
    out = {p.name: p.default for p in R.PARAMS}
    for v in variants:
        out.update(VARIANT_SETS[v])
    out.update(kw)
    return out


def seats(names):
    return [(n, SPARAMS[n]) for n in names]


# ---- an independent legality check of every option set the reference offers -----------------------------------
def brute_cells(b):
    if not b.tiles:
        return []
    xs, ys = zip(*map(b.xy, b.tiles))
    out = []
    for y in range(min(ys) - 1, max(ys) + 2):
        for x in range(min(xs) - 1, max(xs) + 2):
            c = b.cell(x, y)
            if b.kind[c] == GAP and any(b.kind[b.cell(x + dx, y + dy)] != GAP
                                        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))):
                out.append(c)
    return sorted(out)


def eight_connected(b):
    todo, seen = [b.tiles[0]], {b.tiles[0]}
    while todo:
        x, y = b.xy(todo.pop())
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = b.cell(x + dx, y + dy)
                if c not in seen and b.kind[c] != GAP:
                    seen.add(c)
                    todo.append(c)
    return len(seen) == len(b.tiles)


def check_conservation(st, in_hand=0):
    """in_hand: 1 while a tile is between its source and the board (Junk mode, replaced tile, cell decisions)."""
    p, b = st.params, st.board
    assert b.crows_on_board() + st.supply == p["crows"]  # KRUKI-2: crows only move between board and supply
    assert all(b.crows[c] >= 0 for c in b.tiles)
    held = sum(st.junk_unused) + st.box_junk + in_hand
    assert len(b.tiles) + st.stack_size + len(st.removed) + len(st.pool) + held == R.total_tiles(p)
    assert st.token_stack_size + sum(map(sum, st.hands)) + sum(st.played_tokens) == sum(R.token_counts(p))
    assert all(v >= 0 for h in st.hands for v in h)


def check_options(st, seat, decision, options, ctx):
    b = st.board
    check_conservation(st, int(decision in (ref.D_JUNK_MODE, ref.D_REPLACE, ref.D_CELL)))
    assert eight_connected(b)  # KRUKI-9
    assert len(options) >= 2 and len(set(map(repr, options))) == len(options)
    if decision != ref.D_SPIRAL:  # phase A: no shiny tile holds crows (KRUKI-19, 25)
        assert all(b.crows[s] == 0 for s in st.shiny_of if s >= 0)
    if decision == ref.D_SOURCE:
        draft = st.params["tile_draft"]
        source_left = len(st.pool) if draft else st.stack_size
        want = ([] if draft or not source_left else [ref.SRC_DRAW]) + ([ref.SRC_JUNK] if st.junk_unused[seat] else [])
        want += [ref.SRC_POOL + i for i in range(len(st.pool))] if draft else []
        want += [] if source_left else [ref.SRC_SKIP]
        assert options == want
    elif decision == ref.D_CELL:
        assert options == brute_cells(b)
    elif decision == ref.D_SHINY:
        assert options == [t for t in b.tiles if b.kind[t] != JUNK and b.crows[t] == 0 and b.shiny[t] < 0]
    elif decision == ref.D_REPLACE:
        assert options == [t for t in b.tiles if b.crows[t] == 0 and b.shiny[t] < 0]
    elif decision == ref.D_JUNK_MODE:
        assert options == [ref.JUNK_NORMAL, ref.JUNK_REPLACE]
    elif decision == ref.D_TOKEN:
        assert options[0] == ref.TOKEN_PASS and options == sorted(options)
        assert all(st.hands[seat][k] > 0 and k != THREE_POINTS for k in options[1:])
    elif decision == ref.D_TARGET:
        want = list(b.tiles) if ctx["token"] == GRAVESTONES else [t for t in b.tiles if b.crows[t] > 0]
        assert options == want
    elif decision == ref.D_PAIR:
        for a, a2 in options:
            assert a <= a2 and b.crows[a] >= (2 if a == a2 else 1) and b.crows[a2] >= 1
    elif decision == ref.D_DEST:
        assert all(b.shiny[d] < 0 and d not in ctx["pair"] and b.kind[d] != GAP for d in options)
    elif decision == ref.D_SPIRAL:
        m = ctx["murder"]
        assert options == [0, 1, 2, 3] and b.crows[m] >= st.params["murder_threshold"]
        assert seat == (b.shiny[m] if b.shiny[m] >= 0 else st.first_player)


def play_checked(prm, players, seed, index, names):
    rng = PyStream(seed, index)
    trace = []
    st = ref.setup(prm, players, rng, trace)
    check_conservation(st)
    inner = ref.make_chooser(seats(names), rng)

    def choose(st, seat, decision, options, ctx):
        check_options(st, seat, decision, options, ctx)
        return inner(st, seat, decision, options, ctx)
    ref.run(st, choose)
    return ref.record(st), st, trace


def check_game(rec, st, trace):
    prm, P = st.params, st.players
    assert rec.game["error"] == 0
    check_conservation(st)
    ss, gs = rec.seat, rec.game
    ev = lambda kind: [e for e in trace if e["kind"] == kind]  # noqa: E731
    # scores add up: phase-B points + token points (KRUKI-28, 35)
    for p in range(P):
        pts = [e["points"] for e in ev("score") if e["seat"] == p]
        h = st.hands[p]
        assert ss["token_points"][p] == prm["token_keep_points"] * sum(h[:4]) + prm["three_points_value"] * h[4]
        assert ss["score"][p] == sum(pts) + ss["token_points"][p]
        assert ss["max_round_score"][p] == max(pts, default=0)
        assert ss["zero_rounds"][p] == pts.count(0)
        assert ss["graveyard_points"][p] == sum(e["points"] for e in ev("score") if e["seat"] == p and e["doubled"])
        assert ss["cap_hits"][p] == sum(1 for e in ev("score") if e["seat"] == p and e["capped_from"])
        if prm["score_cap"]:
            assert all(x <= prm["score_cap"] for x in pts)
        assert ss["junk_plays"][p] == sum(1 for e in trace if e["seat"] == p and (
            e["kind"] == "own_junk" or (e["kind"] in ("draw", "take_pool") and e["tile"] == "JUNK")))
        assert ss["junk_replace"][p] == sum(1 for e in ev("junk_replace") if e["seat"] == p)
        assert ss["tile_skips"][p] == sum(1 for e in ev("skip") if e["seat"] == p)
        assert ss["murders_chosen"][p] == sum(1 for e in ev("murder") if e["seat"] == p)
        n_turns = sum(1 for e in ev("turn") if e["seat"] == p)
        assert n_turns == gs["rounds"]
        assert n_turns == sum(1 for e in trace if e["seat"] == p and e["kind"] in ("shiny", "no_shiny"))
    gained = sum(ss["tokens_gained_" + s][p] for s in R.TOKEN_SLUGS for p in range(P))
    assert gained == st.token_pos
    assert [sum(ss["tokens_played_" + R.TOKEN_SLUGS[k]]) for k in range(4)] == st.played_tokens[:4]
    assert st.played_tokens[THREE_POINTS] == 0
    if prm["random_junk"]:
        assert not any(e["kind"] == "own_junk" for e in trace)
    # game statistics
    murders = ev("murder")
    assert gs["murders"] == len(murders) and gs["crows_removed"] == sum(e["removed"] for e in murders)
    assert gs["crows_scattered"] == sum(e["placed"] for e in murders)
    assert all(e["removed"] <= prm["murder_removed"] for e in murders)
    assert gs["crows_on_board_end"] == st.board.crows_on_board()
    ends = ev("end_round")
    assert gs["rounds"] == len(ends) and ends[-1]["stack"] == 0 and all(e["stack"] > 0 for e in ends[:-1])
    if not prm["tile_draft"]:  # game length: ceil((S + j) / P), j = own Junk plays while the stack was not empty
        j, stack = 0, None
        for e in trace:
            if e["kind"] == "turn":
                stack = e["stack"]
            if e["kind"] == "own_junk" and stack > 0:
                j += 1
        assert gs["rounds"] == math.ceil((R.stack_size_after_setup(prm, P) + j) / P)
    else:  # the last round is the one whose refill emptied the stack (KRUKI-34)
        pools = ev("pool")
        assert pools[-1]["stack"] == 0 and all(e["stack"] > 0 for e in pools[:-1])
    # ranks and win shares (KRUKI-36)
    key = [(ss["score"][p], st.junk_unused[p]) for p in range(P)]
    for p in range(P):
        assert ss["rank"][p] == 1 + sum(k > key[p] for k in key)
    winners = [p for p in range(P) if ss["rank"][p] == 1]
    assert ss["win60"] == [WIN_SCALE // len(winners) if p in winners else 0 for p in range(P)]
    top = max(ss["score"])
    want_tie = 0 if ss["score"].count(top) == 1 else (1 if len(winners) == 1 else 2)
    assert gs["tie_break"] == want_tie


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: "+".join(c) or "base")
def test_random_playouts_all_variant_combinations(combo):
    prm = params(combo)
    for i in range(30):
        players = 2 + i % 3
        rec, st, trace = play_checked(prm, players, 2024, i, ["random"] * players)
        check_game(rec, st, trace)


def random_params(rng):
    """Non-default rule parameters that pass validation (small boards, odd mixes, short supplies)."""
    while True:
        prm = params()
        for name in R.TILE_PARAMS:
            prm[name] = rng.below(12)
        prm["tiles_junk"] = rng.below(6)
        for name in R.TOKEN_PARAMS:
            prm[name] = rng.below(4)
        prm.update(start_layout=rng.below(2), tile_draft=rng.below(2), random_junk=rng.below(2),
                   murder_threshold=3 + rng.below(6), murder_removed=rng.below(3), score_cap=rng.below(3) * 5,
                   crows=rng.below(40), token_keep_points=rng.below(4), three_points_value=rng.below(5))
        for k in ("removed_", "rj_removed_"):
            for p in (2, 3, 4):
                prm[f"{k}{p}p"] = rng.below(8)
        players = 2 + rng.below(3)
        try:
            R.validate(prm, players)
        except SpecError:
            continue
        return prm, players


def test_random_playouts_random_parameters():
    rng = PyStream(77, 0)
    for i in range(150):
        prm, players = random_params(rng)
        rec, st, trace = play_checked(prm, players, 5, i, ["random"] * players)
        check_game(rec, st, trace)


@pytest.mark.parametrize("names,combo", [
    (["greedy", "blocker", "weighted", "random"], ()),
    (["weighted", "greedy", "random"], ("tile-draft", "random-junk", "lots-of-crows", "score-cap")),
    (["blocker", "random"], ("tile-draft",)),
    (["random", "greedy"], ("random-junk", "score-cap")),
])
def test_heuristic_playouts(names, combo):
    rec, st, trace = play_checked(params(combo), len(names), 31, 0, names)
    check_game(rec, st, trace)


def test_heuristics_beat_random_on_average():
    prm = params(tiles_empty=8, tiles_tree1=8, tiles_tree2=5, tiles_tree3=1, tiles_trinkets=3, tiles_graveyard=3)
    wins = 0
    for i in range(6):
        names = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        rec = ref.play_game(prm, 2, 8, i, seats(names))
        wins += rec.seat["win60"][names.index("greedy")]
    assert wins >= 4 * WIN_SCALE


def test_same_seed_same_game():
    for combo in (("tile-draft", "random-junk"), ("lots-of-crows", "score-cap")):
        prm = params(combo)
        for i in range(3):
            names = ["random", "greedy", "random"]
            t1, t2 = [], []
            r1 = ref.play_game(prm, 3, 99, i, seats(names), trace=t1)
            r2 = ref.play_game(prm, 3, 99, i, seats(names), trace=t2)
            assert r1 == r2 and t1 == t2
            assert ref.play_game(prm, 3, 99, i, seats(names)) == r1  # tracing changes nothing
    a = [ref.play_game(params(), 4, 1, i, seats(["random"] * 4)).seat["score"] for i in range(6)]
    assert len({tuple(s) for s in a}) > 1  # different games differ


# ---- hidden information --------------------------------------------------------------------------------------------
def perturb(st, seat, rng):
    """Same public state and same own tokens; different stack order / removed tiles / other hands / token stack."""
    tw = copy.deepcopy(st)
    unseen = tw.stack[tw.stack_pos:] + tw.removed
    rng.shuffle(unseen)
    n = tw.stack_size
    tw.stack = tw.stack[:tw.stack_pos] + unseen[:n]
    tw.removed = unseen[n:]
    others = [q for q in range(tw.players) if q != seat]
    hidden = tw.tokens[tw.token_pos:] + [k for q in others for k in range(5) for _ in range(tw.hands[q][k])]
    rng.shuffle(hidden)
    counts = {q: sum(tw.hands[q]) for q in others}
    for q in others:
        tw.hands[q] = [0] * 5
        for _ in range(counts[q]):
            tw.hands[q][hidden.pop()] += 1
    tw.tokens = tw.tokens[:tw.token_pos] + hidden
    return tw


def hidden_of(st, seat):
    return (st.stack[st.stack_pos:], st.removed, st.tokens[st.token_pos:],
            [h for q, h in enumerate(st.hands) if q != seat])


def test_decisions_depend_only_on_the_observation():
    changed = tested = 0
    for g in range(12):
        players = 2 + g % 3
        prm = params(("tile-draft",) if g % 4 == 1 else ())
        prm["tokens_three_points"] = 1
        rng = PyStream(404, g)
        st = ref.setup(prm, players, rng)
        inner = ref.make_chooser(seats(["random"] * players), rng)
        snaps = []

        def choose(st, seat, decision, options, ctx, snaps=snaps):
            if st.round >= 2 + len(snaps) * 3 and len(snaps) < 3 and decision != ref.D_JUNK_MODE:
                snaps.append((copy.deepcopy(st), seat, decision, list(options), dict(ctx)))
            return inner(st, seat, decision, options, ctx)
        ref.run(st, choose)
        for k, (s1, seat, decision, options, ctx) in enumerate(snaps):
            s2 = perturb(s1, seat, PyStream(g, k))
            changed += hidden_of(s1, seat) != hidden_of(s2, seat)
            o1, o2 = ref.observe(s1, seat, ctx), ref.observe(s2, seat, ctx)
            assert o1.as_dict() == o2.as_dict()
            for name in ("random", "greedy", "blocker", "weighted"):
                before = o1.as_dict()
                fn = ref.STRATEGY_FNS[name]
                a = fn(o1, decision, options, PyStream(1, k), SPARAMS[name])
                b = fn(o2, decision, options, PyStream(1, k), SPARAMS[name])
                assert a == b and 0 <= a < len(options)
                assert o1.as_dict() == before  # strategies leave their observation as they found it
                tested += 1
    assert tested >= 60 and changed >= 15


# ---- errors, validation, ranking -----------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [lambda o, d, opts, rng, sp: len(opts), lambda o, d, opts, rng, sp: "x"])
def test_illegal_action_is_error_1(bad):
    trace = []
    rec = ref.play_game(params(), 2, 1, 0, [(bad, {}), ("random", {})], trace=trace)
    assert rec.game["error"] == 1 and trace[-1]["kind"] == "error"
    assert set(rec.seat) == {"score", "rank", "win60", *R.SEAT_COLUMNS}
    assert set(rec.game) == {"error", *R.GAME_COLUMNS}


def test_validate():
    R.validate(params(), 4)
    with pytest.raises(SpecError, match="tiles_junk"):
        R.validate(params(tiles_junk=2), 3)
    R.validate(params(("random-junk",), tiles_junk=0), 3)
    with pytest.raises(SpecError, match="removed_2p"):
        R.validate(params(removed_2p=39), 2)
    R.validate(params(removed_2p=38), 2)
    for p in R.PARAMS:
        assert p.lo <= p.default <= p.hi


def test_spec_tables_are_consistent():
    assert [s.sid for s in R.STRATEGIES] == list(range(len(R.STRATEGIES))) and R.STRATEGIES[0].name == "random"
    assert set(ref.STRATEGY_FNS) == {s.name for s in R.STRATEGIES}
    names = {p.name for p in R.PARAMS}
    assert all(set(v.sets) <= names for v in R.VARIANTS)
    assert len(set(R.SEAT_COLUMNS)) == len(R.SEAT_COLUMNS) and R.LENGTH_COLUMN in R.GAME_COLUMNS
    assert R.stack_size_after_setup(params(), 4) == 40 and R.stack_size_after_setup(params(("random-junk",)), 2) == 34


def test_ranking_junk_tie_break():
    assert ref.ranking([10, 10, 5], [1, 0, 1]) == ([1, 2, 3], [60, 0, 0], 1)
    assert ref.ranking([10, 10, 5], [0, 0, 1]) == ([1, 1, 3], [30, 30, 0], 2)
    assert ref.ranking([3, 10, 5, 10], [1, 1, 1, 1]) == ([4, 1, 3, 1], [0, 30, 0, 30], 2)
    assert ref.ranking([12, 10], [0, 1]) == ([1, 2], [60, 0], 0)


def test_incremental_evaluation_equals_full_flight():
    """arrivals_at (what strategies use) equals a full flight, on boards from random play with random shinies."""
    rng = PyStream(12, 0)
    for g in range(20):
        prm = params()
        st = ref.setup(prm, 3, PyStream(12, g))
        ref.run(st, ref.make_chooser(seats(["random"] * 3), PyStream(13, g)))
        b = st.board
        for _ in range(5):
            for c in b.tiles:
                b.shiny[c] = -1
                b.frozen[c] = 0
            legal = [t for t in b.tiles if b.crows[t] == 0 and b.kind[t] != JUNK]
            rng.shuffle(legal)
            shinies = legal[:1 + rng.below(4)]
            for i, s in enumerate(shinies):
                b.shiny[s] = i
            crowed = [t for t in b.tiles if b.crows[t] > 0]
            if crowed:
                b.frozen[crowed[rng.below(len(crowed))]] = 1
            expected = {s: ref.arrivals_at(b, s) for s in shinies}
            full = b.copy()
            ref.fly(full)
            assert expected == {s: full.crows[s] for s in shinies}
            assert full.crows_on_board() == b.crows_on_board()


def _crowded_board(seed, g, most):
    """The board after a random 4-player game with many Trinkets (streams seed, seed + 1, seed + 2 and game g), its
    shinies lifted and up to `most` others put on free tiles at random, so that nearest shinies often tie."""
    st = ref.setup(params(tiles_trinkets=9), 4, PyStream(seed, g))
    ref.run(st, ref.make_chooser(seats(["random"] * 4), PyStream(seed + 1, g)))
    b, rng = st.board, PyStream(seed + 2, g)
    for c in b.tiles:
        b.shiny[c] = -1
    free = [t for t in b.tiles if b.crows[t] == 0]
    rng.shuffle(free)
    for i, s in enumerate(free[:1 + rng.below(most)]):
        b.shiny[s] = i
    return b


def test_arrivals_at_a_probe_equal_a_full_flight_on_crowded_boards():
    """As the strategies ask it: one more shiny (a probe) on every free tile in turn, among up to 8 others, on boards
    with many Trinkets, so that nearest shinies often tie (and Trinkets break the tie) — each time arrivals_at(probe)
    equals the crows a full flight brings there."""
    tied = 0
    for g in range(12):
        b = _crowded_board(14, g, 8)
        for probe in [t for t in b.tiles if b.crows[t] == 0 and b.shiny[t] < 0]:
            b.shiny[probe] = 99
            full = b.copy()
            moves = ref.fly(full)
            tied += sum(1 for n in collections.Counter(m[0] for m in moves).values() if n > 1)  # groups split
            assert ref.arrivals_at(b, probe) == full.crows[probe]
            b.shiny[probe] = -1
    assert tied > 50  # the ties (and Trinket ties) were met, not only single nearest shinies


def test_a_probes_loss_to_the_own_shiny_equals_its_share_without_and_with_it():
    """`probe_share_lost` (what B(β) takes off a probe for the own shiny) equals `probe_share` with the own shiny lifted
    less `probe_share` with it, on crowded boards with many Trinkets, for every crow group, probe on its row or column
    and own shiny: past the probe, between, on another ray of the group, and off its lines."""
    import numpy as np
    from sim.games.kruki.model import probe_share, probe_share_lost
    cases = collections.Counter()
    for g in range(6):
        b = _crowded_board(17, g, 5)
        K, Sh = np.array(b.kind, np.int32), np.array(b.shiny, np.int32)
        side = b.side
        groups = [t for t in b.tiles if b.crows[t] > 0 and b.shiny[t] < 0]
        probes = [t for t in b.tiles if b.crows[t] == 0 and b.shiny[t] < 0 and b.kind[t] != JUNK]
        for s in probes[:12]:
            Sh[s] = 3
            for t in groups:
                for p in probes:
                    if p == s or not (p // side == t // side or p % side == t % side):
                        continue
                    lost = probe_share_lost(K, Sh, side, t, b.crows[t], p, s)
                    assert Sh[s] == 3
                    Sh[s] = -1
                    without = probe_share(K, Sh, side, t, b.crows[t], p)
                    Sh[s] = 3
                    assert lost == without - probe_share(K, Sh, side, t, b.crows[t], p), (g, s, t, p)
                    in_line = s // side == t // side or s % side == t % side
                    cases["lost" if lost else ("in line" if in_line else "off its lines")] += 1
            Sh[s] = -1
    assert min(cases.values()) > 20, cases
