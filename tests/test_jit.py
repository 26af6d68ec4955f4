"""sim.jit.kernel_njit: one compiled version per argument type, however many constants a helper is called with."""
import numpy as np
from numba import njit

from sim.jit import kernel_njit

CONSTANT = 7


@kernel_njit()
def _scaled(x, k):
    return x[0] * k


@njit
def _caller(x):
    return _scaled(x, 1) + _scaled(x, 2) + _scaled(x, CONSTANT) + _scaled(x, x[1]) + _scaled(x, k=-1)


def test_constant_arguments_share_one_compiled_version():
    x = np.array([3, 5], np.int64)
    assert _caller(x) == 3 * (1 + 2 + 7 + 5 - 1)
    assert len(_scaled.overloads) == 1
    (signature,) = _scaled.overloads
    assert "Literal" not in str(signature)
