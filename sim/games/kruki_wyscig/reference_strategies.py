"""Odin's Ravens in plain Python, part 3: the strategies (docs/rules/kruki-wyscig.md §9) the reference's players
use; the game is reference.py, the track reference_track.py.

Signature: fn(kind, obs, options, rng, params) -> choice
  DEC_PLAY: options = [(head, targets or None)]; return None (stop) or (head index, target index or None)
  DEC_PILE / DEC_MIX / DEC_PLACE / DEC_DISCARD: return an index into options. Only `random` uses rng.
"""
from sim.games.kruki_wyscig.obs import DEC_MIX, DEC_PILE, DEC_PLACE, DEC_PLAY, PILE_ACTION, PILE_FLIGHT
from sim.games.kruki_wyscig.reference_track import (
    ACTION, FLIGHT, JOKER, ahead, check_finish, do_back, do_detour, do_flight, do_remove, do_rotate, do_slide,
    do_step, do_swap, free_placement_exists, fwd, runs)
from sim.games.kruki_wyscig.rules import (
    DROP_ORDER, K1, K4, OPT_BACK1, OPT_DETOUR, OPT_FORWARD1, OPT_REMOVE, OPT_ROTATE, OPT_SLIDE, OPT_SWAP, OPT_TAKE2,
    STOP_SCALE)

SABOTAGE = (OPT_BACK1, OPT_ROTATE, OPT_REMOVE, OPT_SWAP, OPT_SLIDE, OPT_DETOUR)


def strat_random(kind, obs, options, rng, sp):
    """§5 random play."""
    if kind == DEC_PLAY:
        if rng.below(STOP_SCALE) < int(sp.get("stop", 0.25) * STOP_SCALE + 0.5):
            return None
        hi = rng.below(len(options))
        targets = options[hi][1]
        return hi, (None if targets is None else rng.below(len(targets)))
    return rng.below(len(options))


def _find(options, head):
    for i, (h, _) in enumerate(options):
        if h == head:
            return i, None
    return None


def _pile_avail(obs):
    s = obs.seat
    return obs.fpile_size[s] > 0 or sum(obs.disc[s]) > 0 or obs.apile_size[s] > 0


def runner_step(t, s, hand_f, hand_a, osprey, pile_avail, r3=True):
    """§9 runner step on a track and hand: R1 flight, R2 forward-1, R3 take-2, R4 joker; a head or None."""
    g = fwd(t, s, t.pos[s])
    if t.done[s] or g == -1:
        return None
    m = t.f_land[g]
    if hand_f[m] > 0:
        return FLIGHT, m
    if hand_a[K1] > 0:
        return ACTION, OPT_FORWARD1
    if r3 and hand_a[K4] > 0 and pile_avail:
        return ACTION, OPT_TAKE2
    pairs = [x for x in range(len(hand_f)) if hand_f[x] >= 2]
    if not pairs:
        return None
    lands_ahead = [t.f_land[f] for f in ahead(t, s)]

    def first(x):
        return lands_ahead.index(x) if x in lands_ahead else len(lands_ahead)
    return JOKER, max(pairs, key=lambda x: (hand_f[x], first(x), -x))


def apply_head(t, s, hand_f, hand_a, head, osprey):
    """Simulate a flight, joker or forward-1 on a track copy and hand copy (for planning); returns fields moved."""
    typ, x = head
    if typ == FLIGHT:
        hand_f[x] -= 1
        moved = do_flight(t, s, x)
    elif typ == JOKER:
        hand_f[x] -= 2
        moved = do_flight(t, s, t.f_land[fwd(t, s, t.pos[s])]) if osprey else do_step(t, s)
    else:
        hand_a[K1] -= 1
        moved = do_step(t, s)
    check_finish(t)
    return moved


def runner_finishes(obs):
    """Hoarder (1): does repeating the runner step (R1, R2, R4) finish this turn?"""
    t, s = obs.track.copy(), obs.seat
    hf, ha = obs.hand_f[:], obs.hand_a[:]
    while not t.done[s]:
        head = runner_step(t, s, hf, ha, obs.rules["osprey_joker"], False, r3=False)
        if head is None:
            return False
        apply_head(t, s, hf, ha, head, obs.rules["osprey_joker"])
    return True


def _draw_choice(kind, obs, options, k):
    """§9 draw policy k (DEC_PILE, DEC_MIX)."""
    acts = sum(obs.hand_a)
    if kind == DEC_MIX:
        return max(0, min(len(options) - 1, int(k) - acts))
    want = PILE_ACTION if acts < k else PILE_FLIGHT
    return options.index(want) if want in options else 0


def _discard_choice(obs, options, k, drop):
    """§9 discard policy: actions beyond k (drop order), then flights by surplus, then actions (drop order)."""
    def action_index():
        for kind in drop:
            if obs.hand_a[kind] > 0:
                return options.index((1, kind))
        return None
    if sum(obs.hand_a) > k:
        return action_index()
    if sum(obs.hand_f) > 0:
        nxt = [obs.track.f_land[f] for f in ahead(obs.track, obs.seat)[:6]]
        land = max((x for x in range(len(obs.hand_f)) if obs.hand_f[x] > 0),
                   key=lambda x: (obs.hand_f[x] - nxt.count(x), obs.hand_f[x], x))
        return options.index((0, land))
    return action_index()


def _common(kind, obs, options, sp, name):
    """Decisions every heuristic takes the same way: piles, mix, discards."""
    k = sp["min_actions"]
    if kind in (DEC_PILE, DEC_MIX):
        return _draw_choice(kind, obs, options, k)
    return _discard_choice(obs, options, k, DROP_ORDER[name])


def strat_runner(kind, obs, options, rng, sp):
    if kind == DEC_PLAY:
        t, s = obs.track, obs.seat
        head = runner_step(t, s, obs.hand_f, obs.hand_a, obs.rules["osprey_joker"], _pile_avail(obs))
        return None if head is None else _find(options, head)
    if kind == DEC_PLACE:
        return 0  # never plays a detour
    return _common(kind, obs, options, sp, "runner")


def strat_hoarder(kind, obs, options, rng, sp):
    if kind == DEC_PLAY:
        t, s, osprey = obs.track, obs.seat, obs.rules["osprey_joker"]
        take2 = _find(options, (ACTION, OPT_TAKE2))
        if runner_finishes(obs):  # (1)
            if take2 is not None:
                return take2
            return _find(options, runner_step(t, s, obs.hand_f, obs.hand_a, osprey, False, r3=False))
        if obs.final_turn:  # (2)
            if take2 is not None:
                return take2
            head = runner_step(t, s, obs.hand_f, obs.hand_a, osprey, _pile_avail(obs))
            return None if head is None else _find(options, head)
        if runs(t, s) <= sp["sprint"]:  # (3)
            return None
        head = runner_step(t, s, obs.hand_f, obs.hand_a, osprey, False, r3=False)  # (4)
        if head is None or head[0] == JOKER:
            return None
        gain = do_flight(t.copy(), s, head[1]) if head[0] == FLIGHT else 1
        return _find(options, head) if gain >= sp["threshold"] else None
    if kind == DEC_PLACE:
        return 0
    return _common(kind, obs, options, sp, "hoarder")


def _apply_edit(t, s, opt, target):
    """Apply an edit option on a track copy (for Δ evaluation)."""
    if opt == OPT_BACK1:
        do_back(t, 1 - s)
    elif opt == OPT_ROTATE:
        do_rotate(t, target)
    elif opt == OPT_REMOVE:
        do_remove(t, target)
    elif opt == OPT_SWAP:
        do_swap(t, *target)
    elif opt == OPT_SLIDE:
        do_slide(t, *target)


def runs_now(t, s):
    """(runs(own), runs(opp)) on the track as it stands: the base every candidate of a decision is compared with."""
    return runs(t, s), runs(t, 1 - s)


def net_gain(t, s, opt, target, now):
    """§9 Δ = (runs(opp)′ − runs(opp)) − (runs(own)′ − runs(own)) of an edit, on a copy (now = `runs_now(t, s)`)."""
    u = t.copy()
    _apply_edit(u, s, opt, target)
    return (runs(u, 1 - s) - now[1]) - (runs(u, s) - now[0])


def _placement_gain(t, s, c, pl, now):
    u = t.copy()
    do_detour(u, c, *pl)
    return u, (runs(u, 1 - s) - now[1]), (runs(u, s) - now[0])


def _fields_before_detour(t, s, u):
    """Real fields of the opponent's path between its raven and the first new loop field (inf if not ahead)."""
    q, n = 1 - s, 0
    for f in ahead(u, q):
        if f >= u.f_used - 2:
            return n
        n += 1
    return 10 ** 6


def strat_saboteur(kind, obs, options, rng, sp):
    t, s = obs.track, obs.seat
    if kind == DEC_PLAY:
        if sum(obs.turn_opts[o] for o in SABOTAGE) < sp["max_actions"]:
            best, best_d, now = None, None, runs_now(t, s)
            for hi, ((typ, opt), targets) in enumerate(options):
                if typ != ACTION or opt not in SABOTAGE:
                    continue
                if opt == OPT_DETOUR:
                    cands = [(None, 2)] if free_placement_exists(t, s) else []
                elif targets is None:
                    cands = [(None, net_gain(t, s, opt, None, now))]
                else:
                    cands = [(ti, net_gain(t, s, opt, tg, now)) for ti, tg in enumerate(targets)]
                for ti, d in cands:
                    if best_d is None or d > best_d:
                        best, best_d = (hi, ti), d
            if best is not None and best_d >= sp["threshold"]:
                return best
        head = runner_step(t, s, obs.hand_f, obs.hand_a, obs.rules["osprey_joker"], False, r3=False)
        return None if head is None else _find(options, head)
    if kind == DEC_PLACE:
        best, key, now = 0, None, runs_now(t, s)
        for i, pl in enumerate(options):
            u, d_opp, d_own = _placement_gain(t, s, obs.detour_card, pl, now)
            k = (d_opp - d_own, -_fields_before_detour(t, s, u))
            if key is None or k > key:
                best, key = i, k
        return best
    return _common(kind, obs, options, sp, "saboteur")


def strat_weighted(kind, obs, options, rng, sp):
    t, s = obs.track, obs.seat
    own0, opp0 = runs_now(t, s)

    def score(u, moved, cards, action, drawn):
        return (sp["w_adv"] * moved + sp["w_own"] * (own0 - runs(u, s)) + sp["w_opp"] * (runs(u, 1 - s) - opp0)
                - sp["w_card"] * cards - sp["w_act"] * action + sp["w_gain"] * drawn + 1000 * u.done[s])
    if kind == DEC_PLAY:
        best, best_v = None, None
        for hi, ((typ, x), targets) in enumerate(options):
            cands = []
            if typ in (FLIGHT, JOKER) or (typ == ACTION and x == OPT_FORWARD1):
                u = t.copy()
                hf, ha = obs.hand_f[:], obs.hand_a[:]
                moved = apply_head(u, s, hf, ha, (typ, x), obs.rules["osprey_joker"])
                cands = [(None, score(u, moved, 2 if typ == JOKER else 1, typ == ACTION, 0))]
            elif x == OPT_TAKE2:
                drawable = obs.fpile_size[s] + sum(obs.disc[s]) + obs.apile_size[s]
                cands = [(None, score(t, 0, 1, 1, min(obs.rules["take_cards"], drawable)))]
            elif x == OPT_DETOUR:
                if free_placement_exists(t, s):
                    cands = [(None, sp["w_opp"] * 2 - sp["w_card"] - sp["w_act"])]
            elif targets is None:
                u = t.copy()
                _apply_edit(u, s, x, None)
                cands = [(None, score(u, 0, 1, 1, 0))]
            else:
                for ti, tg in enumerate(targets):
                    u = t.copy()
                    _apply_edit(u, s, x, tg)
                    cands.append((ti, score(u, 0, 1, 1, 0)))
            for ti, v in cands:
                if best_v is None or v > best_v:
                    best, best_v = (hi, ti), v
        return best if best is not None and best_v > sp["stop"] else None
    if kind == DEC_PLACE:
        best, best_v = 0, None
        for i, pl in enumerate(options):
            u, d_opp, d_own = _placement_gain(t, s, obs.detour_card, pl, (own0, opp0))
            v = sp["w_opp"] * d_opp - sp["w_own"] * d_own
            if best_v is None or v > best_v:
                best, best_v = i, v
        return best
    return _common(kind, obs, options, sp, "weighted")


STRATEGY_FUNCS = {"random": strat_random, "hoarder": strat_hoarder, "runner": strat_runner,
                  "saboteur": strat_saboteur, "weighted": strat_weighted}
