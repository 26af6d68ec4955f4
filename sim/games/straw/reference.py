"""Straw in plain Python: the readable rules (docs/rules/straw.md), for differential tests and explanations.

Draw order from the game's stream (the kernel draws identically):
1. `below(N)` picks the first dealer (STRAW-2).
2. Each round the deck starts in canonical order (ascending code, `rules.build_deck`) and is shuffled lazily: every
   card taken from the pile — dealing included — is `pile[below(len(pile))]`, swapped with the top and taken (a
   forward Fisher–Yates shuffle done one step per draw, so undrawn cards cost nothing). Cards are dealt one at a time,
   starting left of the dealer and going clockwise (STRAW-4).
3. Each decision of a `random` seat: `below(number of distinct legal codes)` over the codes in ascending order, then,
   when the play resolves as a Lamp, `lamp_min + below(lamp_max − lamp_min + 1)`. Heuristic seats draw nothing.
"""
from dataclasses import dataclass, field

from sim.rng import PyStream
from sim.spec import GameRecord, rank_and_win60
from sim.games.straw.obs import K_ADD as ADD, K_LAMP as LAMP_EFFECT, K_NONE as NONE, K_REV as REV, K_SUB as SUB
from sim.games.straw.rules import (CARPET_MAX_CODE, COPY, ERROR_ILLEGAL, ITEM_MAX_CODE, LAMP, NORMAL_BREAK, ONGOING,
                                   REVERSE, STALL, STRAW, STRAW_BREAK, build_deck, hand_value)

# Resolved effects (STRAW-12) on the Camel's stack are the observation's K_* kinds, named here as the rules name them.


@dataclass
class Round:
    """One round in progress: everything on the table. Strategies never see this, only `observe(round, seat)`."""
    p: dict
    players: int
    dealer: int
    number: int  # 1-based
    hands: list  # per seat, list of codes
    pile: list  # top first
    totals: list  # cumulative totals before this round (public)
    T: int = 0
    direction: int = 1
    stack: list = field(default_factory=list)  # resolved effects in play order: (kind, value, code)
    seat: int = 0  # whose turn
    consecutive_passes: int = 0
    ended: int = ONGOING
    ender: int = -1  # breaker or Straw player
    stats: dict = field(default_factory=dict)
    rng: object = None  # with a stream the pile is shuffled lazily; without one (injected tests) it is in order

    def draw(self):
        """Take the top card of the pile (STRAW-6)."""
        if self.rng is not None:
            j = self.rng.below(len(self.pile))
            self.pile[0], self.pile[j] = self.pile[j], self.pile[0]
        return self.pile.pop(0)

    def top(self):
        return self.stack[-1][:2] if self.stack else (NONE, 0)


def new_stats():
    keys = ("turns", "passes", "exact_hits", "straw_chances", "straw_declined", "plays_reverse", "plays_copy",
            "plays_lamp", "plays_carpet", "lamp_choices", "lamp_value_sum", "clamp_loss", "forced_breaks",
            "break_total_sum", "overshoot_sum", "break_card_item", "break_card_lamp", "break_card_copy")
    return {k: 0 for k in keys}


def deal_round(p, players, dealer, number, totals, deck, rng=None):
    """STRAW-3/4/5: deal from `deck` (top first) one card at a time from the seat left of the dealer."""
    r = Round(p, players, dealer, number, [[] for _ in range(players)], list(deck), list(totals),
              seat=(dealer + 1) % players, stats=new_stats(), rng=rng)
    for _ in range(p["hand_size"]):
        for i in range(1, players + 1):
            r.hands[(dealer + i) % players].append(r.draw())
    return r


def is_legal_code(r, code):
    """STRAW-7: every card is legal except Copy on an empty Camel and the Straw unless T == break_at."""
    if code == COPY:
        return bool(r.stack)
    if code == STRAW:
        return r.T == r.p["break_at"]
    return True


def legal_codes(r, seat):
    return sorted({c for c in r.hands[seat] if is_legal_code(r, c)})


def resolves_as_lamp(r, code):
    return code == LAMP or (code == COPY and r.top()[0] == LAMP_EFFECT)


def effect_of(r, code, v):
    """The resolved effect (kind, value) of playing `code` with Lamp value `v` now (STRAW-8..13)."""
    if 1 <= code <= ITEM_MAX_CODE:
        return ADD, code
    if ITEM_MAX_CODE < code <= CARPET_MAX_CODE:
        return SUB, code - ITEM_MAX_CODE
    if code == REVERSE:
        return REV, 0
    if code == LAMP:
        return LAMP_EFFECT, v
    if code == COPY:  # STRAW-13: repeat the effect beneath; a Lamp is a new choice
        kind, value = r.top()
        return (LAMP_EFFECT, v) if kind == LAMP_EFFECT else (kind, value)
    raise ValueError("the Straw has no effect to resolve")


def total_after(r, code, v):
    """T'(a): the total after resolving the action (STRAW-10 clamp included)."""
    if code == STRAW:
        return r.T
    kind, value = effect_of(r, code, v)
    if kind in (ADD, LAMP_EFFECT):
        return r.T + value
    if kind == SUB:
        return max(0, r.T - value) if r.p["carpet_clamp"] else r.T - value
    return r.T


def actions(r, seat):
    """Every legal action (code, v) of the seat, codes ascending, v ascending (v = 0 when no Lamp is involved)."""
    out = []
    for code in legal_codes(r, seat):
        if resolves_as_lamp(r, code):
            out += [(code, v) for v in range(r.p["lamp_min"], r.p["lamp_max"] + 1)]
        else:
            out.append((code, 0))
    return out


def breaks(r, code, v):
    return code != STRAW and total_after(r, code, v) > r.p["break_at"]


def play(r, code, v=0):
    """The active seat plays `code` (Lamp value `v`), resolves it, draws, and the turn passes (STRAW-6..16)."""
    s, st, p = r.seat, r.stats, r.p
    if code not in r.hands[s] or not is_legal_code(r, code):
        raise ValueError(f"illegal card {code} for seat {s + 1}")
    if resolves_as_lamp(r, code) and not p["lamp_min"] <= v <= p["lamp_max"]:
        raise ValueError(f"Lamp value {v} out of range")
    holds_straw_chance = r.T == p["break_at"] and STRAW in r.hands[s]
    if holds_straw_chance:
        st["straw_chances"] += 1
        if code != STRAW:
            st["straw_declined"] += 1
    forced = all(breaks(r, c, w) for c, w in actions(r, s))
    r.hands[s].remove(code)
    r.consecutive_passes = 0
    st["turns"] += 1
    if code == STRAW:  # STRAW-14: straw break, no draw
        r.stack.append((NONE, 0, code))
        r.ended, r.ender = STRAW_BREAK, s
        return
    kind, value = effect_of(r, code, v)
    st["plays_reverse"] += code == REVERSE
    st["plays_copy"] += code == COPY
    st["plays_lamp"] += code == LAMP
    st["plays_carpet"] += ITEM_MAX_CODE < code <= CARPET_MAX_CODE
    if kind == LAMP_EFFECT:
        st["lamp_choices"] += 1
        st["lamp_value_sum"] += value
    if kind in (ADD, LAMP_EFFECT):  # STRAW-8, STRAW-9
        r.T += value
    elif kind == SUB:  # STRAW-10
        if p["carpet_clamp"] and r.T - value < 0:
            st["clamp_loss"] += value - r.T
            r.T = 0
        else:
            r.T -= value
    elif kind == REV:  # STRAW-11
        r.direction = -r.direction
    r.stack.append((kind, value, code))
    if r.T > p["break_at"]:  # STRAW-15: normal break, no draw
        r.ended, r.ender = NORMAL_BREAK, s
        st["forced_breaks"] += forced
        st["break_total_sum"] += r.T
        st["overshoot_sum"] += r.T - p["break_at"]
        st["break_card_item"] += 1 <= code <= ITEM_MAX_CODE
        st["break_card_lamp"] += code == LAMP
        st["break_card_copy"] += code == COPY
        return
    st["exact_hits"] += r.T == p["break_at"]
    if r.pile:  # STRAW-6: draw if the pile holds a card
        r.hands[s].append(r.draw())
    r.seat = (s + r.direction) % r.players  # STRAW-16


def pass_turn(r):
    """STRAW-17: no legal card — play nothing, draw nothing; N consecutive passes stall the round."""
    r.stats["passes"] += 1
    r.consecutive_passes += 1
    if r.consecutive_passes == r.players:
        r.ended = STALL
        return
    r.seat = (r.seat + r.direction) % r.players


def round_scores(r):
    """STRAW-18."""
    H = [sum(hand_value(c) for c in hand) for hand in r.hands]
    if r.ended == NORMAL_BREAK:
        return [0 if s == r.ender else H[s] for s in range(r.players)]
    if r.ended == STRAW_BREAK:
        return [H[s] if s == r.ender else 0 for s in range(r.players)]
    return H


# ---------------------------------------------------------------------------------------------------------------
# Strategies (§9). Each sees only `Observation`: public state plus its own hand.

@dataclass(frozen=True)
class Observation:
    T: int
    direction: int
    seat: int
    top: tuple  # (kind, value) of the last resolved effect, (NONE, 0) on an empty Camel
    stack_len: int
    hand: tuple  # own hand, sorted
    hand_sizes: tuple
    pile_size: int
    totals: tuple
    dealer: int
    round: int
    played: tuple  # codes on the Camel this round, sorted (card counting)
    p: tuple  # the rule parameters as sorted (name, value) pairs


def observe(r, seat):
    return Observation(r.T, r.direction, seat, r.top(), len(r.stack), tuple(sorted(r.hands[seat])),
                       tuple(len(h) for h in r.hands), len(r.pile), tuple(r.totals), r.dealer, r.number,
                       tuple(sorted(c for _, _, c in r.stack)), tuple(sorted(r.p.items())))


class _View:
    """What a strategy computes with: the observation, re-expressed through the rule helpers above."""

    def __init__(self, obs):
        self.obs, self.p = obs, dict(obs.p)
        self.T, self.stack = obs.T, [obs.top + (0,)] if obs.stack_len else []
        self.hands = {obs.seat: list(obs.hand)}

    def top(self):
        return self.stack[-1][:2] if self.stack else (NONE, 0)


def _candidates(obs):
    """(code, v, T', breaks, hv) for every legal action, in ascending (code, v)."""
    view = _View(obs)
    out = []
    for code, v in actions(view, obs.seat):
        out.append((code, v, total_after(view, code, v), breaks(view, code, v), hand_value(code), view))
    return out


def _is_escape(view, code, v):
    if code == REVERSE or ITEM_MAX_CODE < code <= CARPET_MAX_CODE:
        return True
    return code == COPY and view.top()[0] in (REV, SUB)


def _straw_rule(obs, cands):
    """SR: play a legal Straw when H(hand) > 0 or every other legal action breaks."""
    if not any(c[0] == STRAW for c in cands):
        return None
    others = [c for c in cands if c[0] != STRAW]
    if sum(hand_value(c) for c in obs.hand) > 0 or all(c[3] for c in others):
        return (STRAW, 0)
    return None


def _forced_break(cands):
    best = min(cands, key=lambda c: (c[2], c[0], c[1]))
    return best[0], best[1]


def choose_dump_heaviest(obs, params, rng):
    cands = _candidates(obs)
    sr = _straw_rule(obs, cands)
    if sr:
        return sr
    safe = [c for c in cands if not c[3] and c[0] != STRAW]
    if not safe:
        return _forced_break(cands)
    best = min(safe, key=lambda c: (-c[2], c[4], c[0], c[1]))
    return best[0], best[1]


def _choose_safe(obs, params, cands):
    safe = [c for c in cands if not c[3] and c[0] != STRAW]
    if not safe:
        return _forced_break(cands)
    if obs.T < params["escape_at"]:
        pool = [c for c in safe if not _is_escape(c[5], c[0], c[1])] or safe
        best = min(pool, key=lambda c: (c[4], c[2], c[0], c[1]))
    else:
        best = min(safe, key=lambda c: (c[2], c[4], c[0], c[1]))
    return best[0], best[1]


def choose_safe(obs, params, rng):
    cands = _candidates(obs)
    return _straw_rule(obs, cands) or _choose_safe(obs, params, cands)


def choose_straw_hunter(obs, params, rng):
    cands = _candidates(obs)
    sr = _straw_rule(obs, cands)
    if sr:
        return sr
    break_at = dict(obs.p)["break_at"]
    exact = [c for c in cands if not c[3] and c[0] != STRAW and c[2] == break_at]
    if exact:
        best = min(exact, key=lambda c: (c[4], c[0], c[1]))
        return best[0], best[1]
    return _choose_safe(obs, params, cands)


def weighted_score(obs, params, code, t_after, brk, hv, escape):
    """§9.5, in the same operation order as the kernel so the floats agree exactly."""
    break_at = dict(obs.p)["break_at"]
    rest = sum(hand_value(c) for c in obs.hand) - hv
    score = params["w_break"] * (1.0 if brk else 0.0)
    if code == STRAW:
        score += params["w_straw"] * rest + params["w_straw0"]
    score -= params["w_loss"] * hv
    if not brk and code != STRAW:
        score += params["w_press"] * (t_after / break_at)
        if t_after == break_at:
            score += params["w_exact"]
        if escape:
            score -= params["w_esc"] * (1.0 - obs.T / break_at)
    return score


def choose_weighted(obs, params, rng):
    best, best_score = None, None
    for code, v, t_after, brk, hv, view in _candidates(obs):
        s = weighted_score(obs, params, code, t_after, brk, hv, _is_escape(view, code, v))
        if best_score is None or s > best_score:  # strict: ties keep the lower (code, v)
            best, best_score = (code, v), s
    return best


def choose_random(obs, params, rng):
    view = _View(obs)
    codes = legal_codes(view, obs.seat)
    code = codes[rng.below(len(codes))]
    v = 0
    if resolves_as_lamp(view, code):
        lo, hi = view.p["lamp_min"], view.p["lamp_max"]
        v = lo + rng.below(hi - lo + 1)
    return code, v


CHOOSERS = {"random": choose_random, "dump-heaviest": choose_dump_heaviest, "safe": choose_safe,
            "straw-hunter": choose_straw_hunter, "weighted": choose_weighted}


# ---------------------------------------------------------------------------------------------------------------

def play_round(r, strategies, rng, trace=None):
    """Play the round to its end with the seats' strategies; returns the round scores."""
    while not r.ended:
        s = r.seat
        if not legal_codes(r, s):
            if trace is not None:
                trace.append({"kind": "pass", "seat": s, "T": r.T})
            pass_turn(r)
            continue
        name, params = strategies[s]
        code, v = CHOOSERS[name](observe(r, s), params, rng)
        play(r, code, v)
        if trace is not None:
            trace.append({"kind": "play", "seat": s, "code": code, "v": v, "T": r.T, "direction": r.direction,
                          "pile": len(r.pile)})
    return round_scores(r)


def play_game(params, players, seed, game_index, strategies, trace=None):
    """One whole game (STRAW-2..21); returns the same integer columns as the kernel."""
    p = params
    rng = PyStream(seed, game_index)
    first_dealer = rng.below(players)  # STRAW-2
    totals = [0] * players
    seat = {k: [0] * players for k in ("breaks", "straw_breaks", "zero_rounds", "negative_rounds")}
    seat["best_round"] = [None] * players
    game = {k: 0 for k in ("normal_breaks", "straw_breaks", "stalls", "deck_out_rounds", "lead_changes")}
    leader = None  # last round-end seat with a unique highest total
    stats = new_stats()
    rounds = p["rounds"] or players  # STRAW-20
    number, capped, error = 0, 0, 0
    while True:
        number += 1
        dealer = (first_dealer + number - 1) % players
        r = deal_round(p, players, dealer, number, totals, build_deck(p), rng)  # STRAW-3: shuffled lazily
        if trace is not None:
            trace.append({"kind": "round", "round": number, "dealer": dealer, "hands": [sorted(h) for h in r.hands]})
        try:
            scores = play_round(r, strategies, rng, trace)
        except ValueError:
            error = ERROR_ILLEGAL
            break
        for k in stats:
            stats[k] += r.stats[k]
        game["normal_breaks"] += r.ended == NORMAL_BREAK
        game["straw_breaks"] += r.ended == STRAW_BREAK
        game["stalls"] += r.ended == STALL
        game["deck_out_rounds"] += not r.pile
        if r.ended == NORMAL_BREAK:
            seat["breaks"][r.ender] += 1
        if r.ended == STRAW_BREAK:
            seat["straw_breaks"][r.ender] += 1
        for s in range(players):  # STRAW-19
            totals[s] += scores[s]
            seat["zero_rounds"][s] += scores[s] == 0
            seat["negative_rounds"][s] += scores[s] < 0
            if seat["best_round"][s] is None or scores[s] > seat["best_round"][s]:
                seat["best_round"][s] = scores[s]
        top = max(totals)
        if totals.count(top) == 1:  # lead changes: a new unique leader at a round's end
            if leader is not None and totals.index(top) != leader:
                game["lead_changes"] += 1
            leader = totals.index(top)
        if trace is not None:
            trace.append({"kind": "round_end", "round": number, "ending": r.ended, "ender": r.ender, "T": r.T,
                          "scores": scores, "totals": list(totals)})
        if p["evertide"]:  # variant evertide replaces STRAW-20
            if max(totals) >= p["target"]:
                break
            if number >= p["max_rounds"]:
                capped = 1
                break
        elif number >= rounds:
            break
    ranks, win60 = rank_and_win60(totals)  # STRAW-21
    seat_cols = {"score": totals, "rank": ranks, "win60": win60, **seat}
    seat_cols["best_round"] = [b if b is not None else 0 for b in seat["best_round"]]
    game_cols = {"error": error, "first_dealer": first_dealer, "rounds_played": number, "capped": capped, **game,
                 **stats}
    return GameRecord(seat=seat_cols, game=game_cols)
