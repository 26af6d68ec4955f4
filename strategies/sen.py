"""Sen heuristic players (docs/rules/sen.md §9) and the observation they decide from — the plug-in contract.

A strategy is called as `choose(obs, params, rng) -> action` at every decision of §5 (SEN-22..25), where
- `obs` is the int32 observation below: the public record plus the player's own private information (its knowledge
  table K_p and the card(s) it holds in this decision), nothing hidden — never the true dreams or the pile order;
- `params` is the seat's float64 parameter row (`StrategyInfo.params` order; plug-ins get their own `PARAMS`);
- `rng` is the game's stream (`sim.rng`), for strategies that randomise;
- `obs` is read-only: the kernel keeps it up to date between calls instead of rebuilding it.

Observation layout, int32[OBS_SIZE] (index constants `O_*`):
  kind(1)        decision being asked, D_SOURCE .. D_CALL below
  seat(1) players(1) dream_size(1)
  held_n(1) held(2)   cards the player holds in this decision, in draw order (-1 padded): 1 at D_DRAWN, 2 at
                      D_KEEP, 0 otherwise
  top(1)         top card of the face-up pile (-1 if empty)
  faceup_n(1) facedown_n(1)   pile sizes
  caller(1)      seat that called this round, -1 = none
  in_final(1)    1 during the final turns after a call (SEN-15)
  first(1)       this round's first player
  round(1)       round number, 1-based
  round_turn(1)  turns completed this round by all seats (at D_CALL the current turn already counts)
  rules(21)      the rule vector, `rules.PARAMS` order: obs[O_RULES + R_DREAM_SIZE] ... obs[O_RULES + R_MAX_ROUNDS]
  deck(13)       copies of each card code in the deck (public composition)
  ravens(13)     printed ravens of each card code (SEN-1, SEN-17)
  faceup(13)     how many cards of each code lie in the face-up pile (public since the last reshuffle, SEN-24)
  own_turns(6)   turns completed this round per seat (at D_CALL the current turn already counts)
  totals(6)      total ravens per seat before this round (SEN-20)
  know(36)       the player's knowledge table K_p (SEN-22/23): obs[O_KNOW + q * MAX_DREAM + s] is the card code
                 this player knows in seat q's slot s, or UNKNOWN (-1)
Card codes: 0..9 number cards (that many ravens), TAKE2 = 10, PEEK = 11, SWAP = 12.

Decisions (obs[O_KIND]) and the action (one int64) each expects; anything else is illegal (error 1):
  D_SOURCE (1)       0 = take the top face-up card (A, SEN-6), 1 = draw (B, SEN-7). Asked only when A is legal.
  D_FACEUP_SLOT (2)  slot 0..ds-1 that receives the face-up card.
  D_DRAWN (3)        holding held[0]: slot 0..ds-1 = B1 into that slot, ds = B2 (discard face up),
                     ds + 1 = B3 (discard and use the power; legal only when held[0] is a special).
  D_KEEP (4)         Take 2 (take2_mode 0) found two cards held[0], held[1]: 0 or 1 = the index of the kept card.
  D_PEEK (5)         peek_action(q, s) = q * SLOT_BASE + s; own seat only when rules peek_scope = 1 (SEN-10).
  D_SWAP (6)         swap_action(i, q, j) = i * SLOT_BASE**2 + q * SLOT_BASE + j: own slot i with seat q's slot j,
                     q != seat (SEN-11).
  D_CALL (7)         1 = call "Pobudka!", 0 = don't (SEN-14). Asked only when a call is allowed.
"""
from sim.jit import kernel_njit
from sim.games.sen.rules import (D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, MAX_DREAM,
                                 N_CODES, PARAMS, PEEK, SWAP, TAKE2, UNKNOWN)
from sim.rng import below

MAX_SEATS = 6
SLOT_BASE = 8  # peek action q * 8 + s; swap action i * 64 + q * 8 + j
SRC_FACEUP, SRC_DRAW = 0, 1

# Rule-vector layout: the order of rules.PARAMS (the kernel's `rp` and obs[O_RULES:]).
(R_DREAM_SIZE, R_COPIES_0_8, R_COPIES_9, R_N_TAKE2, R_N_PEEK, R_N_SWAP, R_V_TAKE2, R_V_PEEK, R_V_SWAP,
 R_REPLACE_SPECIALS, R_FACEUP_SPECIALS, R_TAKE2_MODE, R_PEEK_SCOPE, R_CALLER_PENALTY, R_FINAL_TURNS, R_CALL_AFTER,
 R_END_SCORE, R_ROUNDS, R_EMPTY_PILE, R_MAX_TURNS, R_MAX_ROUNDS) = range(len(PARAMS))
N_RULES = len(PARAMS)
assert [p.name for p in PARAMS][R_MAX_ROUNDS] == "max_rounds"
assert [p.name for p in PARAMS][R_EMPTY_PILE] == "empty_pile"

O_KIND, O_SEAT, O_PLAYERS, O_DREAM_SIZE, O_HELD_N, O_HELD = 0, 1, 2, 3, 4, 5
O_TOP, O_FACEUP_N, O_FACEDOWN_N, O_CALLER, O_IN_FINAL, O_FIRST, O_ROUND, O_ROUND_TURN = 7, 8, 9, 10, 11, 12, 13, 14
O_RULES = 15
O_DECK = O_RULES + N_RULES  # 36
O_RAVENS = O_DECK + N_CODES  # 49
O_FACEUP = O_RAVENS + N_CODES  # 62
O_OWN_TURNS = O_FACEUP + N_CODES  # 75
O_TOTALS = O_OWN_TURNS + MAX_SEATS  # 81
O_KNOW = O_TOTALS + MAX_SEATS  # 87
OBS_SIZE = O_KNOW + MAX_SEATS * MAX_DREAM  # 123

RANDOM, THRESHOLD, MEMORY = 0, 1, 2
# Parameter columns (StrategyInfo.params order in sim/games/sen/rules.py).
P_P_CALL = 0
P_KEEP_MAX, P_SWAP_AT, P_T_CALL_AT = 0, 1, 2
P_TAKE_GAIN, P_SWAP_GAIN, P_M_CALL_AT, P_OPP_UNKNOWN = 0, 1, 2, 3
P_CALL_SCALE = 1_000_000


@kernel_njit(inline="always")
def peek_action(q, s):
    return q * SLOT_BASE + s


@kernel_njit(inline="always")
def swap_action(i, q, j):
    return (i * SLOT_BASE + q) * SLOT_BASE + j


@kernel_njit(inline="always")
def know(obs, q, s):
    """K_p[q][s]: the card this player knows in seat q's slot s, or UNKNOWN."""
    return obs[O_KNOW + q * MAX_DREAM + s]


@kernel_njit(inline="always")
def next_seat(p, players):
    p += 1
    return 0 if p == players else p


@kernel_njit(inline="always")
def mu0(obs):
    """μ0 (§9): whole-deck mean ravens under the active scoring, one division of integer sums (= rules.mu0)."""
    n_codes = 10 if obs[O_RULES + R_REPLACE_SPECIALS] == 1 else N_CODES
    for _ in range(2):
        n = 0
        tot = 0
        for c in range(n_codes):
            n += obs[O_DECK + c]
            tot += obs[O_DECK + c] * obs[O_RAVENS + c]
        if n > 0:
            return tot / n
        n_codes = N_CODES  # no number card: fall back to the whole deck
    return 0.0


@kernel_njit(inline="always")
def mu_p(obs):
    """μ_p (§9): mean ravens of the unseen multiset (SEN-24: deck − face-up pile − cards known in K_p − held);
    number cards only with replace_specials = 1; μ0 when it is empty."""
    players, ds = obs[O_PLAYERS], obs[O_DREAM_SIZE]
    n_codes = 10 if obs[O_RULES + R_REPLACE_SPECIALS] == 1 else N_CODES
    n = 0
    tot = 0
    for c in range(n_codes):
        k = obs[O_DECK + c] - obs[O_FACEUP + c]
        n += k
        tot += k * obs[O_RAVENS + c]
    for q in range(players):
        base = O_KNOW + q * MAX_DREAM
        for s in range(ds):
            c = obs[base + s]
            if 0 <= c < n_codes:
                n -= 1
                tot -= obs[O_RAVENS + c]
    for h in range(obs[O_HELD_N]):
        c = obs[O_HELD + h]
        if c < n_codes:
            n -= 1
            tot -= obs[O_RAVENS + c]
    if n > 0:
        return tot / n
    return mu0(obs)


@kernel_njit(inline="always")
def believed(obs, c, mu):
    """b(c): ravens of a known card; μ for UNKNOWN, and for a special when replace_specials = 1 (§9)."""
    if c == UNKNOWN or (c >= TAKE2 and obs[O_RULES + R_REPLACE_SPECIALS] == 1):
        return mu
    return float(obs[O_RAVENS + c])


@kernel_njit(inline="always")
def own_star(obs, mu):
    """s* = own slot with the highest b (lowest index on ties) and its b."""
    p, ds = obs[O_SEAT], obs[O_DREAM_SIZE]
    star, bstar = 0, believed(obs, know(obs, p, 0), mu)
    for s in range(1, ds):
        v = believed(obs, know(obs, p, s), mu)
        if v > bstar:
            star, bstar = s, v
    return star, bstar


@kernel_njit(inline="always")
def own_total(obs, mu):
    """Ê: sum of b over own slots, in slot order."""
    p, ds = obs[O_SEAT], obs[O_DREAM_SIZE]
    e = 0.0
    for s in range(ds):
        e += believed(obs, know(obs, p, s), mu)
    return e


@kernel_njit(inline="always")
def first_unknown(obs, q):
    """The lowest slot of seat q this player does not know, or -1."""
    for s in range(obs[O_DREAM_SIZE]):
        if know(obs, q, s) == UNKNOWN:
            return s
    return -1


@kernel_njit(inline="always")
def land(obs, c, mu):
    """Land handling (§9): B1 into s* if b(s*) > b(c), else B2."""
    star, bstar = own_star(obs, mu)
    if bstar > believed(obs, c, mu):
        return star
    return obs[O_DREAM_SIZE]


@kernel_njit(inline="always")
def keep_lower(obs, mu):
    """D4: keep the card with the lower b (tie → the first drawn)."""
    return 0 if believed(obs, obs[O_HELD], mu) <= believed(obs, obs[O_HELD + 1], mu) else 1


# ---------------------------------------------------------------- random (§5 table)

@kernel_njit(inline="always")
def random_action(kind, seat, players, ds, held, peek_scope, p_call, rng):
    """`random`: uniform over the options of the decision, in the reference's option order (its module docstring),
    so the same draws give the same choices. Needs no observation; the kernel calls it directly."""
    if kind == D_CALL:
        return 1 if below(rng, P_CALL_SCALE) < p_call * P_CALL_SCALE else 0
    if kind == D_SOURCE or kind == D_KEEP:
        return below(rng, 2)
    if kind == D_FACEUP_SLOT:
        return below(rng, ds)
    if kind == D_DRAWN:
        return below(rng, ds + 2 if held >= TAKE2 else ds + 1)
    if kind == D_PEEK:
        if peek_scope == 1:
            return peek_action(seat, below(rng, ds))
        k = below(rng, players * ds)
        q = 0
        while k >= ds:
            k -= ds
            q += 1
        return peek_action(q, k)
    # D_SWAP: (own slot i, other seat q ascending, slot j), i outermost
    k = below(rng, ds * (players - 1) * ds)
    per_i = (players - 1) * ds
    i = 0
    while k >= per_i:
        k -= per_i
        i += 1
    q = 0
    while k >= ds:
        k -= ds
        q += 1
    if q >= seat:
        q += 1
    return swap_action(i, q, k)


# ---------------------------------------------------------------- threshold (§9.2)

@kernel_njit(inline="always")
def _threshold_swap_slot(obs, mu, swap_at):
    """Own slot of the highest KNOWN card if its b >= swap_at (tie → lowest index), else -1."""
    p, ds = obs[O_SEAT], obs[O_DREAM_SIZE]
    best, bbest = -1, 0.0
    for s in range(ds):
        c = know(obs, p, s)
        if c != UNKNOWN:
            v = believed(obs, c, mu)
            if best < 0 or v > bbest:
                best, bbest = s, v
    return best if best >= 0 and bbest >= swap_at else -1


@kernel_njit(inline="always")
def choose_threshold(obs, params, rng):
    """§9.2: own slots and μ0 only."""
    mu = mu0(obs)
    kind = obs[O_KIND]
    p, ds = obs[O_SEAT], obs[O_DREAM_SIZE]
    if kind == D_SOURCE:
        top = believed(obs, obs[O_TOP], mu)
        star, bstar = own_star(obs, mu)
        return SRC_FACEUP if top <= params[P_KEEP_MAX] and bstar > top else SRC_DRAW
    if kind == D_FACEUP_SLOT:
        return own_star(obs, mu)[0]
    if kind == D_DRAWN:
        c = obs[O_HELD]
        if c == TAKE2:
            return ds + 1
        if c == PEEK and first_unknown(obs, p) >= 0:
            return ds + 1
        if c == SWAP and _threshold_swap_slot(obs, mu, params[P_SWAP_AT]) >= 0:
            return ds + 1
        return land(obs, c, mu)
    if kind == D_KEEP:
        return keep_lower(obs, mu)
    if kind == D_PEEK:
        return peek_action(p, first_unknown(obs, p))
    if kind == D_SWAP:
        return swap_action(_threshold_swap_slot(obs, mu, params[P_SWAP_AT]), next_seat(p, obs[O_PLAYERS]), 0)
    # D_CALL
    return 1 if own_total(obs, mu) <= params[P_T_CALL_AT] else 0


# ---------------------------------------------------------------- memory (§9.3)

@kernel_njit(inline="always")
def _memory_peek_target(obs):
    """The lowest UNKNOWN own slot; else (peek_scope 0) the lowest UNKNOWN slot of the first opponent clockwise
    that has one; else -1."""
    p, players = obs[O_SEAT], obs[O_PLAYERS]
    s = first_unknown(obs, p)
    if s >= 0:
        return peek_action(p, s)
    if obs[O_RULES + R_PEEK_SCOPE] == 0:
        q = p
        for _ in range(1, players):
            q = next_seat(q, players)
            s = first_unknown(obs, q)
            if s >= 0:
                return peek_action(q, s)
    return -1


@kernel_njit(inline="always")
def _memory_best_swap(obs, mu):
    """(best gain, its swap action); ties → known target, nearest opponent clockwise, lower j, lower i."""
    p, players, ds = obs[O_SEAT], obs[O_PLAYERS], obs[O_DREAM_SIZE]
    best, best_gain, best_known = -1, 0.0, False
    q = p
    for _ in range(1, players):
        q = next_seat(q, players)
        for j in range(ds):
            c = know(obs, q, j)
            known = c != UNKNOWN
            bt = believed(obs, c, mu)
            for i in range(ds):
                gain = believed(obs, know(obs, p, i), mu) - bt
                if best < 0 or gain > best_gain or (gain == best_gain and known and not best_known):
                    best, best_gain, best_known = swap_action(i, q, j), gain, known
    return best_gain, best


@kernel_njit(inline="always")
def _memory_call(obs, params, mu):
    """D7: call iff Ê <= call_at and, with a caller penalty, Ê <= Ê_q for every opponent q."""
    e = own_total(obs, mu)
    if e > params[P_M_CALL_AT]:
        return 0
    if obs[O_RULES + R_CALLER_PENALTY] > 0:
        p, players, ds = obs[O_SEAT], obs[O_PLAYERS], obs[O_DREAM_SIZE]
        q = p
        for _ in range(1, players):
            q = next_seat(q, players)
            eq = 0.0
            unknown = 0
            for s in range(ds):
                c = know(obs, q, s)
                if c == UNKNOWN:
                    unknown += 1
                else:
                    eq += believed(obs, c, mu)
            eq += params[P_OPP_UNKNOWN] * unknown
            if e > eq:
                return 0
    return 1


@kernel_njit(inline="always")
def choose_memory(obs, params, rng):
    """§9.3: the whole of K_p, the public record and μ_p."""
    mu = mu_p(obs)
    kind = obs[O_KIND]
    ds = obs[O_DREAM_SIZE]
    if kind == D_SOURCE:
        star, bstar = own_star(obs, mu)
        return SRC_FACEUP if bstar - believed(obs, obs[O_TOP], mu) >= params[P_TAKE_GAIN] else SRC_DRAW
    if kind == D_FACEUP_SLOT:
        return own_star(obs, mu)[0]
    if kind == D_DRAWN:
        c = obs[O_HELD]
        if c == TAKE2:
            return ds + 1
        if c == PEEK and _memory_peek_target(obs) >= 0:
            return ds + 1
        if c == SWAP and _memory_best_swap(obs, mu)[0] >= params[P_SWAP_GAIN]:
            return ds + 1
        return land(obs, c, mu)
    if kind == D_KEEP:
        return keep_lower(obs, mu)
    if kind == D_PEEK:
        return _memory_peek_target(obs)
    if kind == D_SWAP:
        return _memory_best_swap(obs, mu)[1]
    return _memory_call(obs, params, mu)


@kernel_njit()
def choose_builtin(sid, obs, params, rng):
    """Integer dispatch over the shipped observation-based strategies (sid = StrategyInfo.sid; `random` is
    dispatched by the kernel itself, see `random_action`)."""
    if sid == THRESHOLD:
        return choose_threshold(obs, params, rng)
    return choose_memory(obs, params, rng)
