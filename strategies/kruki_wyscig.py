"""Kruki / Odin's Ravens heuristic players (docs/rules/kruki-wyscig.md §9), the observation they decide from, and
the njit track model (RACE-9..32) that the kernel and the strategies share.

Plug-in contract (docs/plugins.md, docs/games/kruki-wyscig.md "Plug-in strategies"): a strategy is called as
`choose(obs, params, rng) -> action` where
- `obs` is the int32 observation below: public state plus the deciding player's own hand and own pile contents
  (rules §5), never the other hand, a pile's order or the land stack's order;
- `params` is the seat's float64 parameter row (`StrategyInfo.params` order; plug-ins get their own `PARAMS`);
- `rng` is the game's stream (`sim.rng.below(rng, n)`), for strategies that randomise;
- `obs[O_DECISION]` says which decision is asked (DEC_*); the action encoding depends on it (below).

Observation layout, int32[OBS_SIZE] (offsets are the O_* constants; "(k)" = k entries):
  header: decision(1) seat(1) start_player(1) turn(1: turns played so far) final_turn(1: 1 in O's last turn)
    stack_size(1: land stack) detour_card(1: card drawn for DEC_PLACE, else -1) mix_k(1: cards to draw, DEC_MIX)
    n_cols(1: track_cards n) n_cards(1: land cards N) n_fields(1: records F) f_used(1: next free loop record)
    loop_cards(1) pos(2: raven field per seat) done(2) turn_flights(1) turn_jokers(1)
    rules(14: the rule vector in rules.PARAMS order, R_* below)
    hand(10: own flight cards per land (6), then own action cards per kind K1..K4 (4))
    hand_size(2) fpile_size(2) apile_size(2) disc(2x6: flight discards per seat per land, public)
    own_fpile(6: own flight pile contents per land) own_apile(4: own action pile contents per kind)
    actions_log(2x8: action options played so far per seat) turn_opts(8: options played this turn)
  track (RACE-11; records f < n_fields, columns j = 1..n at index j-1, cards c < n_cards):
    f_kind(MAX_F) f_card(MAX_F) f_land(MAX_F) f_gap(MAX_F) f_lane(MAX_F) f_col(MAX_F) f_next(MAX_F) f_prev(MAX_F)
    col_card(MAX_COLS) col_shift(MAX_COLS) card_land(2*MAX_CARDS: [2c + side]) card_rot(MAX_CARDS)
    card_loc(MAX_CARDS) card_fa(MAX_CARDS) card_fb(MAX_CARDS)
  work area (O_WORK onwards): scratch that strategies may overwrite freely; the kernel never reads it after the call
    (the shipped heuristics keep their α-order analysis and candidate lists there).
Ids: HEAD = 0, TAIL = 1, lane-A slot of column j = 2j, lane-B slot = 2j+1, loop records from 2+2n upward.

Action encoding (one int64), by decision kind:
  DEC_PLAY     STOP (0) ends the plays of the turn; play_flight(land); play_joker(land) (two cards of `land`);
               play_option(opt, a, b) for an action card option (OPT_*): rotate/remove a = card; swap a, b = the two
               cards (either order); slide a = card, b = lane (0 A, 1 B); forward1, back1, take2, detour no target
               (the detour's placement is asked next, as DEC_PLACE).
  DEC_PILE     PILE_FLIGHT (0) or PILE_ACTION (1): the pile for the next card (it must be available, RACE-17).
  DEC_MIX      m in 0..obs[O_MIX_K]: action cards among the next k draws (variant fixed-mix-draw).
  DEC_PLACE    placement(lane, anchor j, index i, orientation r) of obs[O_DETOUR_CARD] (RACE-32).
  DEC_DISCARD  discard_flight(land) or discard_action(kind): one card over the hand limit (RACE-18).
The kernel checks a plug-in's action and stops the game with error code 1 when it is illegal.
"""
from sim.jit import kernel_njit

# ---- sizes (parameter maxima of rules.PARAMS) -------------------------------------------------------------------
MAX_LANDS, N_KINDS, N_OPTIONS = 6, 4, 8
MAX_COLS = 24
MAX_CARDS = 120  # pair_copies 8 x C(6, 2)
MAX_F = 2 + 2 * MAX_COLS + 2 * MAX_CARDS
MAX_CAND = MAX_COLS * (MAX_COLS - 1) // 2 + MAX_CARDS * (MAX_CARDS - 1) // 2 + 2 * MAX_COLS + MAX_CARDS

# ---- track model constants (RACE-11) ------------------------------------------------------------------------------
HEAD, TAIL = 0, 1
SENTINEL, MAIN, LOOP, DEAD = 0, 1, 2, 3
LOC_STACK, LOC_MAIN, LOC_LOOP, LOC_BOX = 0, 1, 2, 3
HOME, SHIFT_A, SHIFT_B = 0, 1, 2
LANE_A, LANE_B = 0, 1
K1, K2, K3, K4 = 0, 1, 2, 3
OPT_FORWARD1, OPT_BACK1, OPT_ROTATE, OPT_REMOVE, OPT_SWAP, OPT_SLIDE, OPT_TAKE2, OPT_DETOUR = range(8)
PILE_FLIGHT, PILE_ACTION = 0, 1
DEC_PLAY, DEC_PILE, DEC_MIX, DEC_PLACE, DEC_DISCARD = 0, 1, 2, 3, 4

# Rule vector (rules.PARAMS order), at obs[O_RULES + R_*].
(R_LANDS, R_PAIR_COPIES, R_TRACK_CARDS, R_FLIGHT_PER_LAND, R_ACTION_COPIES, R_START_HAND, R_DRAW_PER_TURN,
 R_HAND_LIMIT, R_TAKE_CARDS, R_START_PLAYER, R_MAX_TURNS, R_OSPREY, R_FIXED_MIX, R_RERACE) = range(14)
N_RULES = 14

# ---- observation layout ---------------------------------------------------------------------------------------------
O_DECISION, O_SEAT, O_START_PLAYER, O_TURN, O_FINAL_TURN, O_STACK_SIZE, O_DETOUR_CARD, O_MIX_K = range(8)
O_N_COLS, O_N_CARDS, O_N_FIELDS, O_F_USED, O_LOOP_CARDS = 8, 9, 10, 11, 12
O_POS, O_DONE, O_TURN_FLIGHTS, O_TURN_JOKERS = 13, 15, 17, 18
O_RULES = 19
O_HAND = O_RULES + N_RULES  # own flight cards per land (6), then own action cards per kind (4)
O_HAND_F, O_HAND_A = O_HAND, O_HAND + MAX_LANDS
O_HAND_SIZE = O_HAND + 10
O_FPILE_SIZE = O_HAND_SIZE + 2
O_APILE_SIZE = O_FPILE_SIZE + 2
O_DISC = O_APILE_SIZE + 2  # [seat * 6 + land]
O_OWN_FPILE = O_DISC + 2 * MAX_LANDS
O_OWN_APILE = O_OWN_FPILE + MAX_LANDS
O_ACTIONS_LOG = O_OWN_APILE + N_KINDS  # [seat * 8 + option]
O_TURN_OPTS = O_ACTIONS_LOG + 2 * N_OPTIONS
O_TRACK = O_TURN_OPTS + N_OPTIONS
O_F_KIND = O_TRACK
O_F_CARD = O_F_KIND + MAX_F
O_F_LAND = O_F_CARD + MAX_F
O_F_GAP = O_F_LAND + MAX_F
O_F_LANE = O_F_GAP + MAX_F
O_F_COL = O_F_LANE + MAX_F
O_F_NEXT = O_F_COL + MAX_F
O_F_PREV = O_F_NEXT + MAX_F
O_COL_CARD = O_F_PREV + MAX_F
O_COL_SHIFT = O_COL_CARD + MAX_COLS
O_CARD_LAND = O_COL_SHIFT + MAX_COLS  # [2c + side]
O_CARD_ROT = O_CARD_LAND + 2 * MAX_CARDS
O_CARD_LOC = O_CARD_ROT + MAX_CARDS
O_CARD_FA = O_CARD_LOC + MAX_CARDS
O_CARD_FB = O_CARD_FA + MAX_CARDS
O_WORK = O_CARD_FB + MAX_CARDS
# Work area used by the shipped heuristics (and the kernel's own target lists).
W_RIDX = O_WORK  # (MAX_F) real fields at or before each linked record, α order
W_LAND = W_RIDX + MAX_F  # (MAX_F) lands of the real fields in α order (the "sequence")
W_BND = W_LAND + MAX_F  # (MAX_F) boundaries (neighbours of different land) up to each sequence position
W_HAND = W_BND + MAX_F  # (10) a hand copy for planning
W_MPOS = W_HAND + 10  # (4) sequence positions an edit changes, ascending
W_MLAND = W_MPOS + 4  # (4) their new lands (-1: deleted)
W_L, W_PA, W_PB = W_MLAND + 4, W_MLAND + 5, W_MLAND + 6  # sequence length, α's and β's sequence index
W_TORD = W_MLAND + 8  # (MAX_CARDS) cards in track order
W_CAND = W_TORD + MAX_CARDS  # (MAX_CAND) candidate actions
OBS_SIZE = W_CAND + MAX_CAND

# ---- action encoding ------------------------------------------------------------------------------------------------
STOP = 0
H_FLIGHT, H_JOKER, H_OPTION = 1, 2, 3  # play head codes; an action option o has head H_OPTION + o
NO_TARGET = -1
BIG = 1_000_000

RANDOM, HOARDER, RUNNER, SABOTEUR, WEIGHTED = 0, 1, 2, 3, 4
# Parameter columns (StrategyInfo.params order in sim/games/kruki_wyscig/rules.py).
P_STOP = 0
P_SPRINT, P_THRESHOLD, P_H_MIN = 0, 1, 2
P_R_MIN = 0
P_MAX_ACTIONS, P_S_THRESHOLD, P_S_MIN = 0, 1, 2
P_W_STOP, P_W_ADV, P_W_OWN, P_W_OPP, P_W_CARD, P_W_ACT, P_W_GAIN, P_W_MIN = range(8)


@kernel_njit()
def play_flight(land):
    return (H_FLIGHT << 16) | land


@kernel_njit()
def play_joker(land):
    return (H_JOKER << 16) | land


@kernel_njit(inline="always")
def play_option(opt, a=0, b=0):
    return ((H_OPTION + opt) << 16) | (b << 8) | a


@kernel_njit(inline="always")
def placement(lane, j, i, r):
    return (lane << 14) | (j << 9) | (i << 1) | r


@kernel_njit()
def discard_flight(land):
    return land


@kernel_njit(inline="always")
def discard_action(kind):
    return 8 + kind


@kernel_njit(inline="always")
def option_kind(opt):
    """RACE-1: the card kind carrying option opt (K1: 0, 1; K2: 2, 3; K3: 4, 5; K4: 6, 7)."""
    return opt >> 1


# ---- track queries (RACE-9..15) --------------------------------------------------------------------------------------

@kernel_njit()
def is_real(obs, f):
    """RACE-11: a field that shows a land."""
    k = obs[O_F_KIND + f]
    return (k == MAIN or k == LOOP) and obs[O_F_GAP + f] == 0


@kernel_njit()
def fwd(obs, p, f):
    """RACE-13: first real field after f in raven p's direction (α: f_next, β: f_prev), -1 at the far end."""
    nxt = O_F_NEXT if p == 0 else O_F_PREV
    far = TAIL if p == 0 else HEAD
    g = obs[nxt + f]
    while g != far:
        if is_real(obs, g):
            return g
        g = obs[nxt + g]
    return -1


@kernel_njit()
def back(obs, p, f):
    """RACE-13: nearest real field behind f on p's path, or p's start sentinel."""
    prv = O_F_PREV if p == 0 else O_F_NEXT
    start = HEAD if p == 0 else TAIL
    g = obs[prv + f]
    while g != start:
        if is_real(obs, g):
            return g
        g = obs[prv + g]
    return start


@kernel_njit()
def fin(obs, p):
    """RACE-13: last real field of p's path, -1 if it has none."""
    start = HEAD if p == 0 else TAIL
    f = back(obs, p, TAIL if p == 0 else HEAD)
    return -1 if f == start else f


@kernel_njit()
def rem(obs, p):
    """RACE-13: real fields after p's raven up to fin(p); 0 once finished."""
    if obs[O_DONE + p]:
        return 0
    n = 0
    g = fwd(obs, p, obs[O_POS + p])
    while g != -1:
        n += 1
        g = fwd(obs, p, g)
    return n


@kernel_njit()
def runs(obs, p):
    """RACE-13: maximal runs of equal land ahead of p (single flights that would finish it); 0 once finished."""
    if obs[O_DONE + p]:
        return 0
    n = 0
    last = -1
    g = fwd(obs, p, obs[O_POS + p])
    while g != -1:
        land = obs[O_F_LAND + g]
        if land != last:
            n += 1
            last = land
        g = fwd(obs, p, g)
    return n


@kernel_njit()
def track_len(obs):
    """Real fields on the track (= the length of both paths)."""
    n = 0
    f = obs[O_F_NEXT + HEAD]
    while f != TAIL:
        if is_real(obs, f):
            n += 1
        f = obs[O_F_NEXT + f]
    return n


@kernel_njit(inline="always")
def seg_start(lane, j):
    """RACE-14: first slot of the loop segment (lane, j) in α order (A_j, or B_{j+1})."""
    return 2 * j if lane == LANE_A else 2 * j + 3


@kernel_njit(inline="always")
def seg_end(lane, j):
    return 2 * j + 2 if lane == LANE_A else 2 * j + 1


@kernel_njit()
def loop_exists(obs, lane, j):
    """RACE-14 (anchors outside 1..n-1 never hold a loop)."""
    if j < 1 or j >= obs[O_N_COLS]:
        return False
    return obs[O_F_NEXT + seg_start(lane, j)] != seg_end(lane, j)


@kernel_njit()
def loop_len(obs, lane, j):
    """Cards in the loop at (lane, j)."""
    end = seg_end(lane, j)
    f = obs[O_F_NEXT + seg_start(lane, j)]
    k = 0
    while f != end:
        k += 1
        f = obs[O_F_NEXT + obs[O_F_NEXT + f]]
    return k


@kernel_njit()
def occupied(obs, c):
    """RACE-15: a raven stands on one of c's fields (a finished raven keeps its card occupied)."""
    p0 = obs[O_POS]
    p1 = obs[O_POS + 1]
    return (p0 > TAIL and obs[O_F_CARD + p0] == c) or (p1 > TAIL and obs[O_F_CARD + p1] == c)


@kernel_njit()
def covered(obs, c):
    """RACE-15: a slid main card whose protruding field lies under a loop in its lane."""
    if obs[O_CARD_LOC + c] != LOC_MAIN:
        return False
    j = obs[O_F_COL + obs[O_CARD_FA + c]]
    s = obs[O_COL_SHIFT + j - 1]
    if s == HOME:
        return False
    lane = LANE_A if s == SHIFT_A else LANE_B
    return loop_exists(obs, lane, j - 1) or loop_exists(obs, lane, j)


@kernel_njit()
def track_order(obs, out, off):
    """§5 canonical card order into out[off:]: main cards by column, then loop cards by lane (A, B), anchor and α
    order. Returns the number of cards."""
    n = obs[O_N_COLS]
    m = 0
    for j in range(n):
        c = obs[O_COL_CARD + j]
        if c != -1:
            out[off + m] = c
            m += 1
    if obs[O_LOOP_CARDS] > 0:
        for lane in range(2):
            for j in range(1, n):
                end = seg_end(lane, j)
                f = obs[O_F_NEXT + seg_start(lane, j)]
                while f != end:
                    out[off + m] = obs[O_F_CARD + f]
                    m += 1
                    f = obs[O_F_NEXT + obs[O_F_NEXT + f]]
    return m


@kernel_njit()
def piles_available(obs, s):
    """RACE-17: (flight pile available, action pile available) for seat s."""
    fl = obs[O_FPILE_SIZE + s] > 0
    if not fl:
        for x in range(obs[O_RULES + R_LANDS]):
            if obs[O_DISC + s * MAX_LANDS + x] > 0:
                fl = True
                break
    return fl, obs[O_APILE_SIZE + s] > 0


@kernel_njit()
def ahead3(obs, p):
    """The first three real fields ahead of raven p (-1 where none); enough to decide RACE-24 for any one card."""
    g1 = fwd(obs, p, obs[O_POS + p])
    g2 = -1 if g1 == -1 else fwd(obs, p, g1)
    g3 = -1 if g2 == -1 else fwd(obs, p, g2)
    return g1, g2, g3


@kernel_njit()
def _strands_remove(obs, c, done, g1, g2, g3):
    """RACE-24 for removing card c: an unfinished raven whose fields ahead all lie on c."""
    if done:
        return False
    if g1 == -1:
        return True
    if obs[O_F_CARD + g1] != c:
        return False
    return g2 == -1 or (obs[O_F_CARD + g2] == c and g3 == -1)


@kernel_njit(inline="always")
def _strands_gap(done, g1, g2, gap):
    """RACE-24 for a slide that turns slot `gap` into a gap."""
    if done:
        return False
    return g1 == -1 or (g1 == gap and g2 == -1)


@kernel_njit(inline="always")
def _slide_allowed(obs, j, lane, d0, a1, a2, d1, b1, b2):
    """RACE-30: may column j's card slide in `lane` — no loop beside it, and no runner stranded by the gap?"""
    if loop_exists(obs, lane, j - 1) or loop_exists(obs, lane, j):
        return False
    gap = 2 * j + 1 if lane == LANE_A else 2 * j
    return not (_strands_gap(d0, a1, a2, gap) or _strands_gap(d1, b1, b2, gap))


# ---- legal targets (RACE-23..32), each in §5 canonical order --------------------------------------------------------

@kernel_njit()
def list_targets(obs, opt, out, off, tord):
    """Legal targets of rotate, remove, swap or slide as encoded plays into out[off:]; returns their number.
    `tord` is an offset in `out` with room for MAX_CARDS (the track order is written there first)."""
    m = track_order(obs, out, tord)
    k = 0
    if opt == OPT_ROTATE or opt == OPT_REMOVE:  # RACE-27, RACE-28
        a1, a2, a3 = ahead3(obs, 0)
        b1, b2, b3 = ahead3(obs, 1)
        d0 = obs[O_DONE] != 0
        d1 = obs[O_DONE + 1] != 0
        for i in range(m):
            c = out[tord + i]
            if occupied(obs, c) or covered(obs, c):
                continue
            if opt == OPT_REMOVE and (_strands_remove(obs, c, d0, a1, a2, a3)
                                      or _strands_remove(obs, c, d1, b1, b2, b3)):
                continue
            out[off + k] = play_option(opt, c, 0)
            k += 1
    elif opt == OPT_SWAP:  # RACE-29: unordered pairs in track order, both home main or both loop
        e = 0  # eligible cards, compacted in place (track order kept); loop cards are marked by +1024
        for i in range(m):
            a = out[tord + i]
            if occupied(obs, a):
                continue
            if obs[O_CARD_LOC + a] == LOC_MAIN:
                if obs[O_COL_SHIFT + obs[O_F_COL + obs[O_CARD_FA + a]] - 1] != HOME:
                    continue
                out[tord + e] = a
            else:
                out[tord + e] = a + 1024
            e += 1
        for i in range(e):
            a = out[tord + i]
            for i2 in range(i + 1, e):
                b = out[tord + i2]
                if (a >= 1024) == (b >= 1024):
                    out[off + k] = play_option(OPT_SWAP, a & 1023, b & 1023)
                    k += 1
    elif opt == OPT_SLIDE:  # RACE-30: by column, lane A before B
        a1, a2, a3 = ahead3(obs, 0)
        b1, b2, b3 = ahead3(obs, 1)
        d0 = obs[O_DONE] != 0
        d1 = obs[O_DONE + 1] != 0
        for j in range(1, obs[O_N_COLS] + 1):
            c = obs[O_COL_CARD + j - 1]
            if c == -1 or obs[O_COL_SHIFT + j - 1] != HOME or occupied(obs, c):
                continue
            for lane in range(2):
                if _slide_allowed(obs, j, lane, d0, a1, a2, d1, b1, b2):
                    out[off + k] = play_option(OPT_SLIDE, c, lane)
                    k += 1
    return k


@kernel_njit()
def any_target(obs, opt):
    """Does rotate, remove, swap or slide have at least one legal target (RACE-27..30)? Early exit, any order."""
    n_cards = obs[O_N_CARDS]
    if opt == OPT_SLIDE:
        a1, a2, a3 = ahead3(obs, 0)
        b1, b2, b3 = ahead3(obs, 1)
        d0 = obs[O_DONE] != 0
        d1 = obs[O_DONE + 1] != 0
        for j in range(1, obs[O_N_COLS] + 1):
            c = obs[O_COL_CARD + j - 1]
            if c == -1 or obs[O_COL_SHIFT + j - 1] != HOME or occupied(obs, c):
                continue
            for lane in range(2):
                if _slide_allowed(obs, j, lane, d0, a1, a2, d1, b1, b2):
                    return True
        return False
    if opt == OPT_SWAP:
        mains = 0
        loops = 0
        for c in range(n_cards):
            loc = obs[O_CARD_LOC + c]
            if loc == LOC_MAIN:
                if obs[O_COL_SHIFT + obs[O_F_COL + obs[O_CARD_FA + c]] - 1] == HOME and not occupied(obs, c):
                    mains += 1
                    if mains == 2:
                        return True
            elif loc == LOC_LOOP and not occupied(obs, c):
                loops += 1
                if loops == 2:
                    return True
        return False
    check = opt == OPT_REMOVE
    if check:
        a1, a2, a3 = ahead3(obs, 0)
        b1, b2, b3 = ahead3(obs, 1)
    else:
        a1 = a2 = a3 = b1 = b2 = b3 = -1
    d0 = obs[O_DONE] != 0
    d1 = obs[O_DONE + 1] != 0
    for c in range(n_cards):
        loc = obs[O_CARD_LOC + c]
        if (loc != LOC_MAIN and loc != LOC_LOOP) or occupied(obs, c) or covered(obs, c):
            continue
        if check and (_strands_remove(obs, c, d0, a1, a2, a3) or _strands_remove(obs, c, d1, b1, b2, b3)):
            continue
        return True
    return False


@kernel_njit()
def insertion_point(obs, lane, j, i):
    """RACE-32: the record after which a detour at (lane, j, index i) is linked."""
    f = seg_start(lane, j)
    for _ in range(i):
        f = obs[O_F_NEXT + obs[O_F_NEXT + f]]
    return f


@kernel_njit()
def count_placements(obs):
    """RACE-32: (lane, anchor, index, orientation) tuples."""
    k = 0
    for lane in range(2):
        for j in range(1, obs[O_N_COLS]):
            k += 2 * (loop_len(obs, lane, j) + 1)
    return k


@kernel_njit()
def nth_placement(obs, t):
    """The t-th placement in canonical order (lane, anchor, index, orientation 0 before 1)."""
    for lane in range(2):
        for j in range(1, obs[O_N_COLS]):
            n = 2 * (loop_len(obs, lane, j) + 1)
            if t < n:
                return placement(lane, j, t >> 1, t & 1)
            t -= n
    return -1


# ---- α-order analysis: runs of any edit in O(1) -------------------------------------------------------------------
# The real fields in α order form the *sequence* (positions 0..L-1). α at sequence index pa sees the window
# [pa+1, L-1]; β at index pb sees [0, pb-1] (HEAD is -1, TAIL is L). runs(window) = 1 + boundaries inside it, and an
# edit changes only a few positions, so the heuristics evaluate every target without touching the track.

@kernel_njit()
def analyze(obs):
    """Fill W_RIDX, W_LAND, W_BND, W_L, W_PA, W_PB from the current track."""
    cnt = 0
    b = 0
    last = -1
    obs[W_RIDX + HEAD] = 0
    f = obs[O_F_NEXT + HEAD]
    while f != -1:
        if is_real(obs, f):
            land = obs[O_F_LAND + f]
            if cnt > 0 and land != last:
                b += 1
            obs[W_LAND + cnt] = land
            obs[W_BND + cnt] = b
            last = land
            cnt += 1
        obs[W_RIDX + f] = cnt
        f = obs[O_F_NEXT + f]
    obs[W_L] = cnt
    obs[W_PA] = obs[W_RIDX + obs[O_POS]] - 1
    pb = obs[O_POS + 1]
    obs[W_PB] = cnt if pb == TAIL else obs[W_RIDX + pb] - 1


@kernel_njit()
def seq_index(obs, f):
    """Sequence position of real field f (after analyze)."""
    return obs[W_RIDX + f] - 1


@kernel_njit()
def window(obs, p, idx):
    """(lo, hi) of the fields ahead of raven p standing at sequence index idx."""
    if p == 0:
        return idx + 1, obs[W_L] - 1
    return 0, idx - 1


@kernel_njit()
def runs_window(obs, lo, hi):
    if lo > hi:
        return 0
    return 1 + obs[W_BND + hi] - obs[W_BND + lo]


@kernel_njit()
def runs_now(obs, p):
    """runs(p) from the analysis (0 once finished)."""
    if obs[O_DONE + p]:
        return 0
    lo, hi = window(obs, p, obs[W_PA] if p == 0 else obs[W_PB])
    return runs_window(obs, lo, hi)


@kernel_njit()
def _new_land(obs, m, x):
    for i in range(m):
        if obs[W_MPOS + i] == x:
            return obs[W_MLAND + i]
    return obs[W_LAND + x]


@kernel_njit()
def runs_modified(obs, lo, hi, m):
    """runs of window [lo, hi] after the m sequence positions W_MPOS (ascending) get lands W_MLAND (-1: deleted)."""
    if lo > hi:
        return 0
    cnt = hi - lo + 1
    d = 0
    i = 0
    while i < m:
        a = obs[W_MPOS + i]
        b = a
        i += 1
        while i < m and obs[W_MPOS + i] == b + 1:
            b += 1
            i += 1
        x0 = max(a - 1, lo)
        x1 = min(b + 1, hi)
        last = -1
        for x in range(x0, x1 + 1):
            land = obs[W_LAND + x]
            if last != -1 and land != last:
                d -= 1
            last = land
        last = -1
        for x in range(x0, x1 + 1):
            land = _new_land(obs, m, x)
            if land == -1:
                cnt -= 1
                continue
            if last != -1 and land != last:
                d += 1
            last = land
    if cnt <= 0:
        return 0
    return 1 + obs[W_BND + hi] - obs[W_BND + lo] + d


@kernel_njit()
def runs_inserted(obs, lo, hi, k, x, y):
    """runs of window [lo, hi] after lands x, y are inserted between sequence positions k and k+1."""
    if k < lo - 1 or k > hi:
        return runs_window(obs, lo, hi)
    if lo > hi:
        return 1 if x == y else 2
    b = obs[W_BND + hi] - obs[W_BND + lo]
    left = obs[W_LAND + k] if k >= lo else -1
    right = obs[W_LAND + k + 1] if k + 1 <= hi else -1
    if left != -1 and right != -1 and left != right:
        b -= 1
    if left != -1 and left != x:
        b += 1
    if x != y:
        b += 1
    if right != -1 and y != right:
        b += 1
    return 1 + b


@kernel_njit()
def _side(obs, c, side):
    return obs[O_CARD_LAND + 2 * c + side]


@kernel_njit()
def _put(obs, m, f, land):
    """Record that real field f gets `land` (-1: deleted), keeping W_MPOS ascending."""
    x = obs[W_RIDX + f] - 1
    i = m
    while i > 0 and obs[W_MPOS + i - 1] > x:
        obs[W_MPOS + i] = obs[W_MPOS + i - 1]
        obs[W_MLAND + i] = obs[W_MLAND + i - 1]
        i -= 1
    obs[W_MPOS + i] = x
    obs[W_MLAND + i] = land
    return m + 1


@kernel_njit()
def edit_mods(obs, action):
    """The sequence changes of a rotate, remove, swap or slide play (RACE-27..30) into W_MPOS/W_MLAND; returns
    their number. Needs analyze(obs)."""
    opt = (action >> 16) - H_OPTION
    a = action & 255
    b = (action >> 8) & 255
    fa = obs[O_CARD_FA + a]
    fb = obs[O_CARD_FB + a]
    r = obs[O_CARD_ROT + a]
    m = 0
    main = obs[O_CARD_LOC + a] == LOC_MAIN
    s = obs[O_COL_SHIFT + obs[O_F_COL + fa] - 1] if main else HOME
    if opt == OPT_ROTATE:
        if s == HOME:
            m = _put(obs, m, fa, _side(obs, a, 1 - r))
            m = _put(obs, m, fb, _side(obs, a, r))
        elif s == SHIFT_A:
            m = _put(obs, m, fa, _side(obs, a, r))
        else:
            m = _put(obs, m, fb, _side(obs, a, 1 - r))
    elif opt == OPT_REMOVE:
        if s != SHIFT_B:
            m = _put(obs, m, fa, -1)
        if s != SHIFT_A:
            m = _put(obs, m, fb, -1)
    elif opt == OPT_SWAP:
        ga = obs[O_CARD_FA + b]
        gb = obs[O_CARD_FB + b]
        r2 = obs[O_CARD_ROT + b]
        if not main and obs[O_F_LANE + fa] != obs[O_F_LANE + ga]:
            r ^= 1
            r2 ^= 1
        m = _put(obs, m, fa, _side(obs, b, r2))
        m = _put(obs, m, fb, _side(obs, b, 1 - r2))
        m = _put(obs, m, ga, _side(obs, a, r))
        m = _put(obs, m, gb, _side(obs, a, 1 - r))
    elif opt == OPT_SLIDE:
        if b == LANE_A:
            m = _put(obs, m, fa, _side(obs, a, 1 - r))
            m = _put(obs, m, fb, -1)
        else:
            m = _put(obs, m, fa, -1)
            m = _put(obs, m, fb, _side(obs, a, r))
    return m


@kernel_njit()
def _bd(obs, lo, hi, x, nl, xp, npl, xn):
    """Boundary change at position x (new land nl) in window [lo, hi]: its left boundary (with the previous changed
    position xp/npl when adjacent) and its right one unless the next changed position xn is adjacent."""
    d = 0
    old = obs[W_LAND + x]
    if x - 1 >= lo and x <= hi:
        left = obs[W_LAND + x - 1]
        newleft = npl if xp == x - 1 else left
        d += int(nl != newleft) - int(old != left)
    if x >= lo and x + 1 <= hi and xn != x + 1:
        right = obs[W_LAND + x + 1]
        d += int(nl != right) - int(old != right)
    return d


@kernel_njit()
def _relabel_runs(obs, lo, hi, x0, n0, x1, n1, x2, n2, x3, n3):
    """runs of window [lo, hi] after up to four distinct positions x0 < x1 < x2 < x3 (-1: unused, at the end) get
    new lands; no field is deleted (rotate, swap)."""
    if lo > hi:
        return 0
    d = _bd(obs, lo, hi, x0, n0, -9, -1, x1)
    if x1 >= 0:
        d += _bd(obs, lo, hi, x1, n1, x0, n0, x2)
    if x2 >= 0:
        d += _bd(obs, lo, hi, x2, n2, x1, n1, x3)
    if x3 >= 0:
        d += _bd(obs, lo, hi, x3, n3, x2, n2, -9)
    return 1 + obs[W_BND + hi] - obs[W_BND + lo] + d


@kernel_njit()
def _relabel(obs, m):
    """(runs(α), runs(β)) after the land changes in W_MPOS/W_MLAND (m <= 4, no deletions)."""
    x0 = obs[W_MPOS]
    n0 = obs[W_MLAND]
    x1 = obs[W_MPOS + 1] if m > 1 else -1
    n1 = obs[W_MLAND + 1]
    x2 = obs[W_MPOS + 2] if m > 2 else -1
    n2 = obs[W_MLAND + 2]
    x3 = obs[W_MPOS + 3] if m > 3 else -1
    n3 = obs[W_MLAND + 3]
    ra = 0 if obs[O_DONE] else _relabel_runs(obs, obs[W_PA] + 1, obs[W_L] - 1, x0, n0, x1, n1, x2, n2, x3, n3)
    rb = 0 if obs[O_DONE + 1] else _relabel_runs(obs, 0, obs[W_PB] - 1, x0, n0, x1, n1, x2, n2, x3, n3)
    return ra, rb


@kernel_njit()
def runs_after_edit(obs, action):
    """(runs(α), runs(β)) after a back-1, rotate, remove, swap or slide play by seat obs[O_SEAT] (needs analyze)."""
    pa = obs[W_PA]
    pb = obs[W_PB]
    L = obs[W_L]
    if (action >> 16) - H_OPTION == OPT_BACK1:  # RACE-26: the opponent's window grows by one field
        if obs[O_SEAT] == 0:
            return runs_now(obs, 0), (0 if obs[O_DONE + 1] else runs_window(obs, 0, pb))
        return (0 if obs[O_DONE] else runs_window(obs, pa, L - 1)), runs_now(obs, 1)
    m = edit_mods(obs, action)
    opt = (action >> 16) - H_OPTION
    if opt == OPT_ROTATE or opt == OPT_SWAP:
        return _relabel(obs, m)
    ra = 0 if obs[O_DONE] else runs_modified(obs, pa + 1, L - 1, m)
    rb = 0 if obs[O_DONE + 1] else runs_modified(obs, 0, pb - 1, m)
    return ra, rb


@kernel_njit()
def placement_k(obs, f):
    """Sequence position after which a detour linked after record f lies."""
    return obs[W_RIDX + f] - 1


@kernel_njit()
def free_placement_exists(obs, s):
    """§9: a placement behind seat s's raven and ahead of the opponent's (needs analyze)."""
    pa = obs[W_PA]
    pb = obs[W_PB]
    for lane in range(2):
        for j in range(1, obs[O_N_COLS]):
            end = seg_end(lane, j)
            f = seg_start(lane, j)
            while True:
                k = placement_k(obs, f)
                a0 = obs[O_DONE] == 0 and k >= pa
                a1 = obs[O_DONE + 1] == 0 and k < pb
                if (a1 and not a0) if s == 0 else (a0 and not a1):
                    return True
                g = obs[O_F_NEXT + f]
                if g == end:
                    break
                f = obs[O_F_NEXT + g]
    return False


# ---- shared heuristic pieces (§9) ------------------------------------------------------------------------------------

@kernel_njit()
def _at_fin(obs, p, idx):
    return idx == obs[W_L] - 1 if p == 0 else idx == 0


@kernel_njit()
def _flight_end(obs, p, idx, land):
    """Sequence index after a flight of `land` (RACE-20) from idx (the run may be empty)."""
    if p == 0:
        L = obs[W_L]
        k = idx + 1
        while k < L and obs[W_LAND + k] == land:
            k += 1
        return k - 1
    k = idx - 1
    while k >= 0 and obs[W_LAND + k] == land:
        k -= 1
    return k + 1


@kernel_njit()
def runner_step(obs, s, idx, hand, pile_avail, r3):
    """§9 runner step for seat s at sequence index idx with the hand at obs[hand:hand+10]: R1 flight, R2 forward-1,
    R3 take-2 (if r3 and a pile is available), R4 joker. Returns the encoded play or STOP (needs analyze)."""
    L = obs[W_L]
    nk = idx + 1 if s == 0 else idx - 1
    if nk < 0 or nk >= L:
        return STOP
    m = obs[W_LAND + nk]
    if obs[hand + m] > 0:
        return play_flight(m)
    if obs[hand + MAX_LANDS + K1] > 0:
        return play_option(OPT_FORWARD1)
    if r3 and obs[hand + MAX_LANDS + K4] > 0 and pile_avail:
        return play_option(OPT_TAKE2)
    best = -1
    best_c = 0
    best_first = 0
    n_ahead = L - 1 - idx if s == 0 else idx
    for x in range(obs[O_RULES + R_LANDS]):
        c = obs[hand + x]
        if c < 2:
            continue
        first = n_ahead
        for t in range(n_ahead):
            if obs[W_LAND + (idx + 1 + t if s == 0 else idx - 1 - t)] == x:
                first = t
                break
        if best < 0 or c > best_c or (c == best_c and first > best_first):
            best, best_c, best_first = x, c, first
    return STOP if best < 0 else play_joker(best)


@kernel_njit()
def _apply_move(obs, s, idx, hand, action):
    """Plan a flight, joker or forward-1 on the sequence and the hand copy at `hand`; returns (new index, moved)."""
    head = action >> 16
    x = action & 255
    nk = idx + 1 if s == 0 else idx - 1
    if head == H_FLIGHT:
        obs[hand + x] -= 1
        new = _flight_end(obs, s, idx, x)
    elif head == H_JOKER:
        obs[hand + x] -= 2
        if obs[O_RULES + R_OSPREY]:
            new = _flight_end(obs, s, idx, obs[W_LAND + nk])
        else:
            new = nk
    else:
        obs[hand + MAX_LANDS + K1] -= 1
        new = nk
    return new, (new - idx if s == 0 else idx - new)


@kernel_njit()
def _copy_hand(obs):
    for i in range(10):
        obs[W_HAND + i] = obs[O_HAND + i]


@kernel_njit()
def _own_index(obs, s):
    return obs[W_PA] if s == 0 else obs[W_PB]


@kernel_njit()
def _any_pile(obs, s):
    fl, ac = piles_available(obs, s)
    return fl or ac


@kernel_njit()
def draw_choice(obs, k):
    """§9 draw policy k: action cards while the hand holds fewer than k, else flights; the other pile if needed."""
    s = obs[O_SEAT]
    acts = 0
    for i in range(N_KINDS):
        acts += obs[O_HAND_A + i]
    if obs[O_DECISION] == DEC_MIX:
        return max(0, min(obs[O_MIX_K], int(k) - acts))
    fl, ac = piles_available(obs, s)
    want = PILE_ACTION if acts < k else PILE_FLIGHT
    if want == PILE_ACTION:
        return PILE_ACTION if ac else PILE_FLIGHT
    return PILE_FLIGHT if fl else PILE_ACTION


@kernel_njit()
def discard_choice(obs, k, d0, d1, d2, d3):
    """§9 discard policy: action cards beyond k in drop order d0..d3, then flights by surplus over the next 6
    fields (ties: more copies, then higher land), then the remaining action cards."""
    acts = 0
    flights = 0
    for i in range(N_KINDS):
        acts += obs[O_HAND_A + i]
    lands = obs[O_RULES + R_LANDS]
    for x in range(lands):
        flights += obs[O_HAND_F + x]
    if acts <= k and flights > 0:
        s = obs[O_SEAT]
        nxt0 = nxt1 = nxt2 = nxt3 = nxt4 = nxt5 = -1  # lands of the next 6 real fields
        g = obs[O_POS + s]
        for t in range(6):
            g = fwd(obs, s, g)
            if g == -1:
                break
            land = obs[O_F_LAND + g]
            if t == 0:
                nxt0 = land
            elif t == 1:
                nxt1 = land
            elif t == 2:
                nxt2 = land
            elif t == 3:
                nxt3 = land
            elif t == 4:
                nxt4 = land
            else:
                nxt5 = land
        best = -1
        best_sur = 0
        best_c = 0
        for x in range(lands):
            c = obs[O_HAND_F + x]
            if c == 0:
                continue
            occ = ((nxt0 == x) + (nxt1 == x) + (nxt2 == x) + (nxt3 == x) + (nxt4 == x) + (nxt5 == x))
            sur = c - occ
            if best < 0 or sur > best_sur or (sur == best_sur and c >= best_c):
                best, best_sur, best_c = x, sur, c
        return discard_flight(best)
    for kind in (d0, d1, d2, d3):
        if obs[O_HAND_A + kind] > 0:
            return discard_action(kind)
    return -1


@kernel_njit()
def _common(obs, k, d0, d1, d2, d3):
    """Decisions every heuristic takes the same way: piles, mix, discards."""
    dec = obs[O_DECISION]
    if dec == DEC_PILE or dec == DEC_MIX:
        return draw_choice(obs, k)
    return discard_choice(obs, k, d0, d1, d2, d3)


# ---- the shipped heuristics ------------------------------------------------------------------------------------------

@kernel_njit()
def choose_runner(obs, params, rng):
    """§9 runner: the runner step until none; never edits the track."""
    dec = obs[O_DECISION]
    if dec == DEC_PLAY:
        s = obs[O_SEAT]
        if obs[O_DONE + s]:
            return STOP
        g = fwd(obs, s, obs[O_POS + s])  # R1-R3 need only the next field; R4 the analysis
        if g == -1:
            return STOP
        m = obs[O_F_LAND + g]
        pile = _any_pile(obs, s)
        if obs[O_HAND_F + m] > 0 or obs[O_HAND_A + K1] > 0 or (obs[O_HAND_A + K4] > 0 and pile):
            return play_flight(m) if obs[O_HAND_F + m] > 0 else (
                play_option(OPT_FORWARD1) if obs[O_HAND_A + K1] > 0 else play_option(OPT_TAKE2))
        analyze(obs)
        return runner_step(obs, s, _own_index(obs, s), O_HAND, pile, True)
    if dec == DEC_PLACE:
        return nth_placement(obs, 0)
    return _common(obs, params[P_R_MIN], K2, K3, K4, K1)


@kernel_njit()
def _runner_finishes(obs, s):
    """Hoarder (1): does repeating the runner step (R1, R2, R4) on a copy finish this turn?"""
    _copy_hand(obs)
    idx = _own_index(obs, s)
    while not _at_fin(obs, s, idx):
        a = runner_step(obs, s, idx, W_HAND, False, False)
        if a == STOP:
            return False
        idx, moved = _apply_move(obs, s, idx, W_HAND, a)
    return True


@kernel_njit()
def choose_hoarder(obs, params, rng):
    dec = obs[O_DECISION]
    if dec == DEC_PLAY:
        s = obs[O_SEAT]
        if obs[O_DONE + s]:
            return STOP
        analyze(obs)
        idx = _own_index(obs, s)
        take2 = obs[O_HAND_A + K4] > 0 and _any_pile(obs, s)
        if _runner_finishes(obs, s):  # (1)
            if take2:
                return play_option(OPT_TAKE2)
            return runner_step(obs, s, idx, O_HAND, False, False)
        if obs[O_FINAL_TURN]:  # (2)
            if take2:
                return play_option(OPT_TAKE2)
            return runner_step(obs, s, idx, O_HAND, _any_pile(obs, s), True)
        if runs_now(obs, s) <= params[P_SPRINT]:  # (3)
            return STOP
        a = runner_step(obs, s, idx, O_HAND, False, False)  # (4)
        if a == STOP or (a >> 16) == H_JOKER:
            return STOP
        gain = 1
        if (a >> 16) == H_FLIGHT:
            end = _flight_end(obs, s, idx, a & 255)
            gain = end - idx if s == 0 else idx - end
        return a if gain >= params[P_THRESHOLD] else STOP
    if dec == DEC_PLACE:
        return nth_placement(obs, 0)
    return _common(obs, params[P_H_MIN], K2, K3, K1, K4)


@kernel_njit()
def _placement_eval(obs, s, lane, j, f, r):
    """(Δ runs(opp), Δ runs(own), fields the opponent meets before the detour) for card obs[O_DETOUR_CARD] linked
    after record f with orientation r (needs analyze)."""
    c = obs[O_DETOUR_CARD]
    x = _side(obs, c, r)
    y = _side(obs, c, 1 - r)
    k = placement_k(obs, f)
    pa = obs[W_PA]
    pb = obs[W_PB]
    L = obs[W_L]
    ra = 0 if obs[O_DONE] else runs_inserted(obs, pa + 1, L - 1, k, x, y)
    rb = 0 if obs[O_DONE + 1] else runs_inserted(obs, 0, pb - 1, k, x, y)
    da = ra - runs_now(obs, 0)
    db = rb - runs_now(obs, 1)
    if s == 0:
        before = pb - 1 - k if k < pb else BIG
        return db, da, before
    before = k - pa if k >= pa else BIG
    return da, db, before


@kernel_njit()
def _best_placement(obs, params, s, weighted):
    """Saboteur: the highest actual Δ, ties: fewest fields ahead of the opponent; weighted: w_opp·Δopp − w_own·Δown.
    Both keep the first best in canonical order."""
    best = -1
    bk1 = 0
    bk2 = 0
    bv = 0.0
    for lane in range(2):
        for j in range(1, obs[O_N_COLS]):
            end = seg_end(lane, j)
            f = seg_start(lane, j)
            i = 0
            while True:
                for r in range(2):
                    d_opp, d_own, before = _placement_eval(obs, s, lane, j, f, r)
                    a = placement(lane, j, i, r)
                    if weighted:
                        v = params[P_W_OPP] * d_opp - params[P_W_OWN] * d_own
                        if best < 0 or v > bv:
                            best, bv = a, v
                    else:
                        k1 = d_opp - d_own
                        k2 = -before
                        if best < 0 or k1 > bk1 or (k1 == bk1 and k2 > bk2):
                            best, bk1, bk2 = a, k1, k2
                g = obs[O_F_NEXT + f]
                if g == end:
                    break
                f = obs[O_F_NEXT + g]
                i += 1
    return best


@kernel_njit()
def _delta(obs, s, action, own0, opp0):
    """§9 net gain Δ = (runs(opp)' − runs(opp)) − (runs(own)' − runs(own)) of an edit."""
    ra, rb = runs_after_edit(obs, action)
    if s == 0:
        return (rb - opp0) - (ra - own0)
    return (ra - opp0) - (rb - own0)


@kernel_njit()
def choose_saboteur(obs, params, rng):
    dec = obs[O_DECISION]
    s = obs[O_SEAT]
    if dec == DEC_PLAY:
        if obs[O_DONE + s]:
            return STOP
        analyze(obs)
        sab = (obs[O_TURN_OPTS + OPT_BACK1] + obs[O_TURN_OPTS + OPT_ROTATE] + obs[O_TURN_OPTS + OPT_REMOVE]
               + obs[O_TURN_OPTS + OPT_SWAP] + obs[O_TURN_OPTS + OPT_SLIDE] + obs[O_TURN_OPTS + OPT_DETOUR])
        if sab < params[P_MAX_ACTIONS]:
            q = 1 - s
            own0 = runs_now(obs, s)
            opp0 = runs_now(obs, q)
            best = -1
            best_d = 0
            if obs[O_HAND_A + K1] > 0 and not obs[O_DONE + q] and obs[O_POS + q] != (HEAD if q == 0 else TAIL):
                best = play_option(OPT_BACK1)
                best_d = _delta(obs, s, best, own0, opp0)
            for opt in (OPT_ROTATE, OPT_REMOVE, OPT_SWAP, OPT_SLIDE):
                if obs[O_HAND_A + option_kind(opt)] == 0:
                    continue
                n = list_targets(obs, opt, obs, W_CAND, W_TORD)
                for t in range(n):
                    a = obs[W_CAND + t]
                    d = _delta(obs, s, a, own0, opp0)
                    if best < 0 or d > best_d:
                        best, best_d = a, d
            if obs[O_HAND_A + K4] > 0 and obs[O_STACK_SIZE] > 0 and free_placement_exists(obs, s):
                if best < 0 or 2 > best_d:
                    best, best_d = play_option(OPT_DETOUR), 2
            if best >= 0 and best_d >= params[P_S_THRESHOLD]:
                return best
        return runner_step(obs, s, _own_index(obs, s), O_HAND, False, False)
    if dec == DEC_PLACE:
        analyze(obs)
        return _best_placement(obs, params, s, False)
    return _common(obs, params[P_S_MIN], K3, K2, K1, K4)


@kernel_njit()
def _wscore(params, moved, d_own, d_opp, cards, action, drawn, done):
    """§9 weighted score, in the reference's operation order (so the floats agree exactly)."""
    return (params[P_W_ADV] * moved + params[P_W_OWN] * d_own + params[P_W_OPP] * d_opp
            - params[P_W_CARD] * cards - params[P_W_ACT] * action + params[P_W_GAIN] * drawn + 1000.0 * done)


@kernel_njit()
def _wmove(obs, params, s, idx, action, cards, is_action, own0):
    _copy_hand(obs)
    new, moved = _apply_move(obs, s, idx, W_HAND, action)
    done = _at_fin(obs, s, new)
    own1 = 0
    if not done:
        lo, hi = window(obs, s, new)
        own1 = runs_window(obs, lo, hi)
    return _wscore(params, float(moved), float(own0 - own1), 0.0, float(cards), is_action, 0.0, 1.0 if done else 0.0)


@kernel_njit()
def choose_weighted(obs, params, rng):
    dec = obs[O_DECISION]
    s = obs[O_SEAT]
    if dec == DEC_PLAY:
        if obs[O_DONE + s]:
            return STOP
        analyze(obs)
        q = 1 - s
        own0 = runs_now(obs, s)
        opp0 = runs_now(obs, q)
        idx = _own_index(obs, s)
        L = obs[W_L]
        nk = idx + 1 if s == 0 else idx - 1
        if nk < 0 or nk >= L:
            return STOP
        m = obs[W_LAND + nk]
        best = -1
        bv = 0.0
        if obs[O_HAND_F + m] > 0:  # flight
            a = play_flight(m)
            v = _wmove(obs, params, s, idx, a, 1, 0.0, own0)
            if best < 0 or v > bv:
                best, bv = a, v
        if not obs[O_RULES + R_OSPREY] or obs[O_HAND_F + m] == 0:  # jokers
            for x in range(obs[O_RULES + R_LANDS]):
                if obs[O_HAND_F + x] >= 2:
                    a = play_joker(x)
                    v = _wmove(obs, params, s, idx, a, 2, 0.0, own0)
                    if best < 0 or v > bv:
                        best, bv = a, v
        if obs[O_HAND_A + K1] > 0:
            a = play_option(OPT_FORWARD1)
            v = _wmove(obs, params, s, idx, a, 1, 1.0, own0)
            if best < 0 or v > bv:
                best, bv = a, v
            if not obs[O_DONE + q] and obs[O_POS + q] != (HEAD if q == 0 else TAIL):
                a = play_option(OPT_BACK1)
                ra, rb = runs_after_edit(obs, a)
                own1, opp1 = (ra, rb) if s == 0 else (rb, ra)
                v = _wscore(params, 0.0, float(own0 - own1), float(opp1 - opp0), 1.0, 1.0, 0.0, 0.0)
                if best < 0 or v > bv:
                    best, bv = a, v
        for opt in (OPT_ROTATE, OPT_REMOVE, OPT_SWAP, OPT_SLIDE):
            if obs[O_HAND_A + option_kind(opt)] == 0:
                continue
            n = list_targets(obs, opt, obs, W_CAND, W_TORD)
            for t in range(n):
                a = obs[W_CAND + t]
                ra, rb = runs_after_edit(obs, a)
                own1, opp1 = (ra, rb) if s == 0 else (rb, ra)
                v = _wscore(params, 0.0, float(own0 - own1), float(opp1 - opp0), 1.0, 1.0, 0.0, 0.0)
                if best < 0 or v > bv:
                    best, bv = a, v
        if obs[O_HAND_A + K4] > 0:
            if _any_pile(obs, s):  # take-2
                drawable = obs[O_FPILE_SIZE + s] + obs[O_APILE_SIZE + s]
                for x in range(obs[O_RULES + R_LANDS]):
                    drawable += obs[O_DISC + s * MAX_LANDS + x]
                drawn = min(obs[O_RULES + R_TAKE_CARDS], drawable)
                v = _wscore(params, 0.0, 0.0, 0.0, 1.0, 1.0, float(drawn), 0.0)
                if best < 0 or v > bv:
                    best, bv = play_option(OPT_TAKE2), v
            if obs[O_STACK_SIZE] > 0 and free_placement_exists(obs, s):  # detour
                v = params[P_W_OPP] * 2 - params[P_W_CARD] - params[P_W_ACT]
                if best < 0 or v > bv:
                    best, bv = play_option(OPT_DETOUR), v
        if best >= 0 and bv > params[P_W_STOP]:
            return best
        return STOP
    if dec == DEC_PLACE:
        analyze(obs)
        return _best_placement(obs, params, s, True)
    return _common(obs, params[P_W_MIN], K3, K2, K1, K4)


@kernel_njit()
def choose_builtin(sid, obs, params, rng):
    """Integer dispatch over the shipped observation-based strategies (sid = StrategyInfo.sid; `random` is played
    by the kernel itself from its legal option lists, without an observation)."""
    if sid == HOARDER:
        return choose_hoarder(obs, params, rng)
    if sid == RUNNER:
        return choose_runner(obs, params, rng)
    if sid == SABOTEUR:
        return choose_saboteur(obs, params, rng)
    return choose_weighted(obs, params, rng)
