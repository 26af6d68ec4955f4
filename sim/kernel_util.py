"""njit helpers every game kernel shares: plug-in strategy types, ranking, trace recording, the chunk loop shape,
sets of small codes as bits.

Plug-in strategies (docs/plugins.md) have one signature for every game:
    choose(obs: int32[::1], params: float64[::1], rng: uint64[::1]) -> int64 action
Kernels take a tuple of MAX_SEATS such functions (one slot per seat) typed as first-class functions, so one cached
kernel calls any user function of that signature without recompiling; seats playing a shipped strategy get
`no_user_strategy` in their slot and never call it.
"""
import warnings

from numba import njit, types

from sim.jit import kernel_njit
from sim.spec import MAX_SEATS, WIN_SCALE

# Plug-ins go through numba's first-class function types, which it labels experimental; the warning is noise here.
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

USER_SIGNATURE = types.int64(types.int32[::1], types.float64[::1], types.uint64[::1])
USER_FN_TYPE = types.FunctionType(USER_SIGNATURE)
USER_FNS_TYPE = types.UniTuple(USER_FN_TYPE, MAX_SEATS)

# A game's shipped strategies as one dispatch (sid, obs, params, rng) -> action, handed to its kernel as a NativeCall
# (Crows' heuristics also take scratch arrays and declare their own).
BUILTIN_SIGNATURE = types.int64(types.int64, types.int32[::1], types.float64[::1], types.uint64[::1])
BUILTIN_TYPE = types.FunctionType(BUILTIN_SIGNATURE)
PLAY_TAIL = (types.int64, types.int64, types.int64, types.int32[:, :, ::1], types.int32[:, ::1], types.int32[:, ::1],
             types.int64[::1])  # play_games' seed, start, count, seat_out, game_out, trace, trace_len

TRACE_WIDTH = 8  # an event is [kind, a, b, c, d, e, f, g]; each game's kernel documents its kinds
RANK_COL, WIN_COL = 1, 2  # positions of `rank` and `win60` in every seat row (sim.spec.SEAT_BASE)


class NativeCall(types.WrapperAddressProtocol):
    """An njit function handed to a kernel as a first-class function value, called through its address.

    Why: numba links the machine code of every callee into each caller's module and optimises and emits the whole
    again, so a kernel whose decision call sits six functions deep compiled its game's strategies six more times
    (Crows: 5 minutes). Passed this way, the strategies are compiled once, on their own, and the kernel holds only a
    pointer; the indirect call costs nothing next to a heuristic's work. Numba types the object as
    FunctionType(signature) both in explicit kernel signatures and in lazily typed kernels (trace, tests).
    """

    def __init__(self, dispatcher, signature):
        self.dispatcher = dispatcher
        self._signature = signature

    def signature(self):
        return self._signature

    def __wrapper_address__(self):
        result = self.dispatcher.get_compile_result(self._signature)  # compiles, or loads numba's cache, once
        return result.library.get_pointer_to_function(result.fndesc.llvm_cfunc_wrapper_name)

    def __reduce__(self):  # Dask ships kernel inputs: rebuild from the dispatcher on the other side
        return NativeCall, (self.dispatcher, self._signature)


@njit(USER_SIGNATURE, cache=True)
def no_user_strategy(obs, params, rng):
    return -1


@kernel_njit()
def set_ranks(seat_row, players, keys):
    """rank = 1 + seats with a strictly larger key; rank-1 seats share WIN_SCALE (STRAW-21 and its kin)."""
    winners = 0
    for s in range(players):
        better = 0
        for o in range(players):
            if keys[o] > keys[s]:
                better += 1
        seat_row[s, RANK_COL] = 1 + better
        if better == 0:
            winners += 1
    for s in range(players):
        seat_row[s, WIN_COL] = WIN_SCALE // winners if seat_row[s, RANK_COL] == 1 else 0


@kernel_njit()
def record(trace, trace_len, kind, a, b, c, d, e, f, g):
    """Append one event to `trace(cap, TRACE_WIDTH)`; `trace_len(1)` keeps counting past the cap (truncation)."""
    i = trace_len[0]
    if i < trace.shape[0]:
        trace[i, 0] = kind
        trace[i, 1] = a
        trace[i, 2] = b
        trace[i, 3] = c
        trace[i, 4] = d
        trace[i, 5] = e
        trace[i, 6] = f
        trace[i, 7] = g
    trace_len[0] = i + 1


def default_users():
    return (no_user_strategy,) * MAX_SEATS


# ---- sets of codes < 32 as the bits of an int64 ------------------------------------------------------------------
@kernel_njit(inline="always")
def bit_count(m):
    """Set bits of 0 <= m < 2**32 (SWAR: no loop, no branch)."""
    m = m - ((m >> 1) & 0x55555555)
    m = (m & 0x33333333) + ((m >> 2) & 0x33333333)
    return (((m + (m >> 4)) & 0x0F0F0F0F) * 0x01010101 & 0xFFFFFFFF) >> 24


@kernel_njit(inline="always")
def nth_set_bit(m, k):
    """The position of the k-th set bit of m (k = 0: the lowest)."""
    for _ in range(k):
        m &= m - 1
    return bit_count((m & -m) - 1)


@kernel_njit(inline="always")
def set_bits_into(m, out):
    """The positions of the set bits of m into out[:n], ascending; returns n."""
    n = 0
    while m != 0:
        low = m & -m
        out[n] = bit_count(low - 1)
        n += 1
        m ^= low
    return n
