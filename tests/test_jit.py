"""sim.jit: one compiled version per argument type, however many constants a helper is called with; numba's
inliner copying a helper's scope once per inline (the same IR, without the blocks × variables copies)."""
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


def test_one_scope_copy_gives_every_block_one_fresh_scope_with_the_same_statements():
    from numba.core.compiler import run_frontend

    from sim.jit import _OneMemoPerScope
    fn_ir = run_frontend(_branchy)
    shim = _OneMemoPerScope()
    copies = {label: shim.deepcopy(block) for label, block in fn_ir.blocks.items()}
    assert len(copies) > 3
    scopes = {id(block.scope) for block in copies.values()}
    (scope_id,) = scopes
    original_scope = next(iter(fn_ir.blocks.values())).scope
    assert scope_id != id(original_scope)
    for label, block in fn_ir.blocks.items():
        assert [str(s) for s in copies[label].body] == [str(s) for s in block.body]
    next(iter(copies.values())).scope.define("only_in_the_copy", original_scope.loc)
    assert "only_in_the_copy" not in original_scope.localvars._con


def test_inlined_helpers_compute_what_python_computes_at_every_call_site():
    from numba.core.inline_closurecall import InlineWorker
    assert InlineWorker.inline_ir.__name__ == "inline_ir_copying_scopes_once"
    for x in (0, 1, 7, 20):
        assert _calls_inlined_twice(x) == (_branchy(x) + 1) * 10 + _branchy(x + 1) + 1
