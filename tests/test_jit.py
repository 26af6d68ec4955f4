"""sim.jit: one compiled version per argument type, however many constants a helper is called with; inlined helpers
computing what Python computes (the faster front end of sim/compile_speed.py: tests/test_compile_speed.py); the
package's array indices taken as given, and checked under SIM_CHECK_INDEXES."""
import os
import re
import subprocess
import sys

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


def _branchy(x):
    total = 0
    for i in range(x):
        if i % 3 == 0:
            total += i
        else:
            total -= 1
    return total


_branchy_jit = kernel_njit(inline="always")(_branchy)


@kernel_njit(inline="always")
def _inlined(x):
    return _branchy_jit(x) + 1


@njit
def _calls_inlined_twice(x):
    return _inlined(x) * 10 + _inlined(x + 1)


def test_inlined_helpers_compute_what_python_computes_at_every_call_site():
    from numba.core.inline_closurecall import InlineWorker
    assert InlineWorker.inline_ir.__name__ == "inline_ir_copying_scopes_once"
    assert InlineWorker.inline_function.__name__ == "inline_function_with_ir_built_once"  # one IR, two sites
    for x in (0, 1, 7, 20):
        assert _calls_inlined_twice(x) == (_branchy(x) + 1) * 10 + _branchy(x + 1) + 1


def _index_probe(a, i):
    return a[i]


def _compiled_as_if_in(module):
    """`_index_probe`'s body compiled as a function of `module` (numba names compiled code by its module)."""
    def probe(a, i):
        return a[i]
    probe.__module__ = module
    return njit(probe)


def _entry_ir(dispatcher):
    """The LLVM IR of the compiled function itself (not its Python or C wrappers)."""
    (ir,) = dispatcher.inspect_llvm().values()
    bodies = [part.split("\n}\n")[0] for part in ir.split("\ndefine ")[1:]]
    (body,) = [b for b in bodies if "@_ZN" in b.split("(")[0] and "@_ZN7cpython" not in b.split("(")[0]]
    return body


def test_the_packages_kernels_index_as_given_and_other_code_wraps_negative_indices():
    a = np.arange(5, dtype=np.int64)
    own, other = _compiled_as_if_in("sim._index_probe"), _compiled_as_if_in("tests._index_probe")
    assert own(a, 3) == other(a, 3) == 3
    assert other(a, -1) == 4 and njit(_index_probe)(a, -2) == 3  # numba's Python indexing outside the package
    assert "icmp slt" in _entry_ir(other)  # the wraparound: i < 0 ? i + n : i
    assert "icmp slt" not in _entry_ir(own) and "select" not in _entry_ir(own)


def test_checked_indices_stop_the_process_at_the_first_one_outside_its_array(tmp_path):
    code = ("import numpy as np\n"
            "from strategies.kruki_cells import _listed\n"
            "w = np.arange(10, dtype=np.int32)\n"
            "assert _listed(w, 2, 3, 4) and not _listed(w, 0, 10, 11)\n"
            "print('inside', flush=True)\n"
            "_listed(w, -3, 1, 7)\n"
            "print('not reached', flush=True)\n")
    env = dict(os.environ, SIM_CHECK_INDEXES="1", SIM_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "inside" in done.stdout and "not reached" not in done.stdout
    assert re.search(r"sim: index -3 outside 0\.\.10-1 at \S*kruki_cells\.py:\d+ in "
                     r"_ZN10strategies11kruki_cells7_listed", done.stderr), done.stderr
