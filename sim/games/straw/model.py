"""Straw rule code over the observation, njit (docs/rules/straw.md STRAW-8..13, STRAW-18), for strategies.

The kernel resolves plays on its own state; strategies ask these what a play would do.
"""
from sim.jit import kernel_njit
from sim.games.straw.obs import K_ADD, K_LAMP, K_NONE, K_REV, K_SUB, O_CLAMP, O_HAND, O_HAND_LEN, O_T, \
    O_TOP_KIND, O_TOP_VALUE
from sim.games.straw.rules import CARPET_MAX_CODE, COPY, ITEM_MAX_CODE, LAMP, REVERSE


@kernel_njit(inline="always")
def hand_value(code):
    """STRAW-18: items +w, Carpets −k, the specials 0 (the njit twin of rules.hand_value)."""
    if code <= ITEM_MAX_CODE:
        return code
    if code <= CARPET_MAX_CODE:
        return ITEM_MAX_CODE - code
    return 0


@kernel_njit(inline="always")
def is_carpet(code):
    return ITEM_MAX_CODE < code <= CARPET_MAX_CODE


@kernel_njit(inline="always")
def resolves_as_lamp(obs, code):
    return code == LAMP or (code == COPY and obs[O_TOP_KIND] == K_LAMP)


@kernel_njit(inline="always")
def total_after(obs, code, v):
    """T'(a) for action (code, v), STRAW-8..13 with the clamp of STRAW-10."""
    t = obs[O_T]
    kind, value = K_NONE, 0
    if code <= ITEM_MAX_CODE:
        kind, value = K_ADD, code
    elif code <= CARPET_MAX_CODE:
        kind, value = K_SUB, code - ITEM_MAX_CODE
    elif code == LAMP:
        kind, value = K_LAMP, v
    elif code == COPY:
        kind, value = obs[O_TOP_KIND], obs[O_TOP_VALUE]
        if kind == K_LAMP:
            value = v
    if kind == K_ADD or kind == K_LAMP:
        return t + value
    if kind == K_SUB:
        t -= value
        if obs[O_CLAMP] == 1 and t < 0:
            return 0
    return t


@kernel_njit(inline="always")
def is_escape(obs, code):
    """A play that never raises T: a Reverse, a Carpet, or a Copy of either."""
    if code == REVERSE or is_carpet(code):
        return True
    return code == COPY and (obs[O_TOP_KIND] == K_REV or obs[O_TOP_KIND] == K_SUB)


@kernel_njit(inline="always")
def hand_total(obs):
    """H(own hand), STRAW-18."""
    h = 0
    for i in range(obs[O_HAND_LEN]):
        h += hand_value(obs[O_HAND + i])
    return h
