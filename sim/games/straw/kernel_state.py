"""The Straw kernel's state layout (rule vector, output columns, trace events, the Scratch arrays) and its pile and
hand primitives (docs/rules/straw.md STRAW-3..7, STRAW-16), njit.

A hand is kept as counts per code and a bit set of the codes it holds: the distinct legal codes of STRAW-7, in
ascending order as §5 numbers them, are then the set bits of one mask, with no loop over the cards and no branch a
random hand mispredicts (docs/decisions.md).
"""
from collections import namedtuple

from sim.jit import kernel_njit
from sim.rng import below
from sim.games.straw.model import hand_value
from sim.games.straw.rules import COPY, GAME_COLUMNS, PARAMS, SEAT_COLUMNS, STRAW
from sim.spec import GAME_BASE, SEAT_BASE

# Rule-parameter vector layout: the order of rules.PARAMS.
(R_BREAK_AT, R_HAND_SIZE, R_ITEM_MIN, R_ITEM_MAX, R_ITEM_COPIES, R_CARPET_MIN, R_CARPET_MAX, R_CARPET_COPIES,
 R_REVERSE, R_COPY, R_LAMP, R_STRAW, R_LAMP_MIN, R_LAMP_MAX, R_CLAMP, R_ROUNDS, R_EVERTIDE, R_TARGET,
 R_MAX_ROUNDS) = range(len(PARAMS))
assert [p.name for p in PARAMS][R_MAX_ROUNDS] == "max_rounds"

_SEAT = {name: i for i, name in enumerate(SEAT_BASE + SEAT_COLUMNS)}
_GAME = {name: i for i, name in enumerate(GAME_BASE + GAME_COLUMNS)}
S_SCORE, S_BREAKS, S_STRAW_BREAKS, S_ZERO, S_NEG, S_BEST = (
    _SEAT[k] for k in ("score", "breaks", "straw_breaks", "zero_rounds", "negative_rounds", "best_round"))
(G_ERROR, G_FIRST_DEALER, G_ROUNDS, G_CAPPED, G_NORMAL, G_STRAW, G_STALLS, G_FORCED, G_BREAK_SUM, G_OVER_SUM,
 G_BC_ITEM, G_BC_LAMP, G_BC_COPY, G_TURNS, G_PASSES, G_EXACT, G_STRAW_CHANCES, G_STRAW_DECLINED, G_P_REV, G_P_COPY,
 G_P_LAMP, G_P_CARPET, G_LAMP_CHOICES, G_LAMP_SUM, G_CLAMP_LOSS, G_DECK_OUT, G_LEAD_CHANGES) = (
    _GAME[k] for k in GAME_BASE + GAME_COLUMNS)

# Trace event kinds (docs/trace.md): each event is TRACE_WIDTH int32s, [kind, a, b, c, d, e, f, g].
EV_ROUND = 1  # round, dealer, cards left in the pile
EV_DEAL = 2  # seat, card
EV_PLAY = 3  # seat, code, Lamp value, effect kind (K_*), effect value, T after, direction after
EV_PASS = 4  # seat, T
EV_ROUND_END = 5  # round, ending (rules.ONGOING ..), ender, T, seat, round score, total
EV_DRAW = 6  # seat, card, cards left in the pile
EV_CHOICE = 7  # seat, action: a plug-in's answer (it is checked next; an illegal one stops the game)
ILLEGAL = -1  # a round "ending" of _play_round: a plug-in chose an illegal action, the game stops

# Per-thread working arrays of play_game, one set per block of games.
Scratch = namedtuple("Scratch", (
    "deck",  # int8(deck size): this round's pile; deck[pos:] is undrawn, shuffled lazily (STRAW-3)
    "counts",  # int8(MAX_SEATS, N_CODES): copies of each code in each seat's hand
    "masks",  # int64(MAX_SEATS): bit c set when the seat holds code c
    "hand_len",  # int64(MAX_SEATS): cards in hand
    "hand_sum",  # int64(MAX_SEATS): the hand's STRAW-18 value
    "totals",  # int64(MAX_SEATS): cumulative scores (STRAW-19)
    "legal",  # int64(N_CODES): legal[:n_legal] = the distinct legal codes of the seat to move, ascending (written
    # only where a strategy or a statistic reads them, `sim.kernel_util.set_bits_into`)
    "obs",  # int32(OBS_SIZE): the observation (sim.games.straw.obs); public parts kept current
    "rng",  # uint64(1): the game's random stream
    "trace",  # int32(cap, TRACE_WIDTH): the event log; 0 rows unless a trace is wanted
    "trace_len",  # int64(1): events recorded (counts past the cap)
))


@kernel_njit(inline="always")
def draw(rng, deck, pos, n_deck):
    """The top card of the pile deck[pos:n_deck], shuffled lazily: a uniform card of the rest is swapped to pos."""
    j = pos + below(rng, n_deck - pos)
    card = deck[j]
    deck[j] = deck[pos]
    deck[pos] = card
    return card


@kernel_njit(inline="always")
def next_seat(seat, direction, players):
    """STRAW-16 without an integer division (a division per turn is a measurable share of a game)."""
    seat += direction
    if seat >= players:
        return seat - players
    if seat < 0:
        return seat + players
    return seat


@kernel_njit(inline="always")
def add_card(w, seat, code):
    w.counts[seat, code] += 1
    w.masks[seat] |= 1 << code
    w.hand_len[seat] += 1
    w.hand_sum[seat] += hand_value(code)


@kernel_njit(inline="always")
def remove_card(w, seat, code):
    w.counts[seat, code] -= 1
    if w.counts[seat, code] == 0:
        w.masks[seat] &= ~(1 << code)
    w.hand_len[seat] -= 1
    w.hand_sum[seat] -= hand_value(code)


@kernel_njit(inline="always")
def legal_bits(mask, T, break_at, stack_len):
    """STRAW-7 on a hand's code set: a Copy needs a card on the stack, the Straw needs T = break_at."""
    if stack_len == 0:
        mask &= ~(1 << COPY)
    if T != break_at:
        mask &= ~(1 << STRAW)
    return mask


@kernel_njit()
def unique_leader(totals, players):
    """The seat with the strictly highest total, or -1 on a tie."""
    best, who = totals[0], 0
    for s in range(1, players):
        if totals[s] > best:
            best, who = totals[s], s
        elif totals[s] == best:
            who = -1
    return who
