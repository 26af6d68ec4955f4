"""Counter-based random streams: one independent stream per (run seed, game index).

Every game draws only from its own stream, so a game's outcome depends on nothing but the run seed, its index and
the rules/strategies — never on threads, chunking or workers (docs/architecture.md §3).

The generator is SplitMix64 (Steele, Lea & Flood 2014): the state is a 64-bit counter advanced by the golden gamma,
each output is the counter passed through a bijective mixer. The stream start is the mixer applied to the seed and
the game index, so neighbouring games start far apart. The state lives in a 1-element uint64 array (`state(1)`), which
njit code mutates in place.

Two implementations of the same functions are kept here: njit ones for kernels and plain-Python ones (`PyStream`) for
the readable reference rules. Tests check that they produce identical numbers.
"""
import numpy as np

from sim.jit import kernel_njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_MASK = (1 << 64) - 1


@kernel_njit(inline="always")
def _mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@kernel_njit(inline="always")
def stream_into(state, seed, game_index):
    """Set `state(1)` to the start of game `game_index`'s stream in a run with `seed` (ints in [0, 2**63))."""
    state[0] = _mix64(np.uint64(seed) ^ _mix64(np.uint64(game_index) + GOLDEN))


@kernel_njit(nrt=True)
def stream_start(seed, game_index):
    """A new `state(1)` at the start of game `game_index`'s stream."""
    state = np.empty(1, np.uint64)
    stream_into(state, seed, game_index)
    return state


@kernel_njit(inline="always")
def next_u64(state):
    """Next 64-bit output of the stream; advances `state(1)` in place."""
    state[0] += GOLDEN
    return _mix64(state[0])


@kernel_njit(inline="always")
def below(state, n):
    """Uniform integer in [0, n) for 1 <= n < 2**32 (multiply-high of the top 32 bits; bias < n / 2**32)."""
    return np.int64(((next_u64(state) >> _S32) * np.uint64(n)) >> _S32)


@kernel_njit(inline="always")
def shuffle(state, arr, n):
    """Fisher–Yates shuffle of arr[:n] in place, drawing j = below(i + 1) for i = n-1 .. 1."""
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


def _py_mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class PyStream:
    """Plain-Python twin of the njit stream, for reference implementations and tests."""

    def __init__(self, seed, game_index):
        self.state = _py_mix64((seed & _MASK) ^ _py_mix64((game_index + 0x9E3779B97F4A7C15) & _MASK))

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        return _py_mix64(self.state)

    def below(self, n):
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, items):
        """Fisher–Yates shuffle of the list in place (same draws as the njit `shuffle`)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
