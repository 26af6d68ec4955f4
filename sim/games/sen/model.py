"""Sen njit code shared by the kernel and the strategies: the action encodings of Peek and Swap (SEN-10, SEN-11),
the knowledge-table lookup and the clockwise seat order (SEN-5)."""
from sim.jit import kernel_njit
from sim.games.sen.obs import O_KNOW, OPT_DISCARD, OPT_USE, SLOT_BASE
from sim.games.sen.rules import MAX_DREAM


@kernel_njit(inline="always")
def peek_action(q, s):
    """D_PEEK option: look at seat q's slot s."""
    return q * SLOT_BASE + s


@kernel_njit(inline="always")
def peek_target(a):
    """(q, s) of a peek action."""
    return a // SLOT_BASE, a % SLOT_BASE


@kernel_njit(inline="always")
def swap_action(i, q, j):
    """D_SWAP option: own slot i with seat q's slot j."""
    return (i * SLOT_BASE + q) * SLOT_BASE + j


@kernel_njit(inline="always")
def swap_target(a):
    """(i, q, j) of a swap action."""
    return a // (SLOT_BASE * SLOT_BASE), (a // SLOT_BASE) % SLOT_BASE, a % SLOT_BASE


@kernel_njit(inline="always")
def know_index(q, s):
    """Offset of K_p[q][s] in an observation row."""
    return O_KNOW + q * MAX_DREAM + s


@kernel_njit(inline="always")
def know(obs, q, s):
    """K_p[q][s]: the card this player knows in seat q's slot s, or UNKNOWN."""
    return obs[know_index(q, s)]


@kernel_njit(inline="always")
def next_seat(p, players):
    """The seat clockwise of p (SEN-5)."""
    p += 1
    return 0 if p == players else p


# D3's B2 and B3 options, njit: the encodings are obs.OPT_DISCARD and obs.OPT_USE.
opt_discard = kernel_njit(inline="always")(OPT_DISCARD)
opt_use = kernel_njit(inline="always")(OPT_USE)
