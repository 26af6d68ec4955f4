"""sim/compile_speed.py: each faster route through numba's front end gives what numba's own code gives, on the IR of
the package's largest kernel functions (the untyped IR numba's bytecode front end builds for them)."""
import pytest
from numba.core import ir, ssa
from numba.core.analysis import compute_cfg_from_blocks, compute_use_defs
from numba.core.compiler import Flags, run_frontend

import sim.jit  # noqa: F401  (installs the changes)
from sim.compile_speed import NUMBA_OWN, _OneMemoPerScope, _names, compute_live_map
from sim.games.kruki import kernel as kruki_kernel
from sim.games.sen import kernel as sen_kernel
from strategies import kruki_cells, kruki_tokens
from tests.test_jit import _branchy  # a small function with a loop and a branch


# functions with hundreds of blocks, loops, and variables assigned in many places
FUNCTIONS = [_branchy, kruki_cells._scan_c.py_func, kruki_cells.placements.py_func,
             kruki_tokens._token_scan.py_func, kruki_kernel.play_round.py_func, sen_kernel.play_game.py_func]
IDS = [f.__name__ for f in FUNCTIONS]


def _statements(blocks):
    return {label: [str(stmt) for stmt in block.body] for label, block in blocks.items()}


@pytest.mark.parametrize("fn", FUNCTIONS, ids=IDS)
def test_live_map_in_bitsets_is_numbas(fn):
    blocks = run_frontend(fn).blocks
    cfg = compute_cfg_from_blocks(blocks)
    uses = compute_use_defs(blocks)
    ours = compute_live_map(cfg, blocks, uses.usemap, uses.defmap)
    theirs = NUMBA_OWN["compute_live_map"](cfg, blocks, uses.usemap, uses.defmap)
    assert ours == theirs
    assert sum(len(v) for v in theirs.values()) > 0


def test_live_map_is_installed_where_numba_calls_it():
    from numba.core import analysis, ir_utils
    assert analysis.compute_live_map is compute_live_map and ir_utils.compute_live_map is compute_live_map


def test_bits_read_back_as_names_across_words():
    names = [f"v{i}" for i in range(200)]
    picked = {0, 1, 63, 64, 65, 127, 128, 199}
    assert _names(sum(1 << i for i in picked), names) == {names[i] for i in picked}
    assert _names(0, names) == set()


@pytest.mark.parametrize("fn", FUNCTIONS, ids=IDS)
def test_ssa_rewriting_only_naming_blocks_is_numbas(fn):
    theirs = NUMBA_OWN["_run_ssa"](run_frontend(fn).blocks)  # numba's loop over every block
    ours = ssa._run_ssa(run_frontend(fn).blocks)
    assert _statements(ours) == _statements(theirs)
    phis = sum(isinstance(s, ir.Assign) and isinstance(s.value, ir.Expr) and s.value.op == "phi"
               for block in theirs.values() for s in block.body)
    assert phis > 0  # there were variables to fix


def test_flags_hash_and_compare_as_numba_does():
    flags = Flags()
    flags.nrt = True
    flags.boundscheck = False
    flags.inline = "always"
    assert flags.values() == {name: getattr(flags, name) for name in flags.options}
    assert flags.values() == NUMBA_OWN["TargetConfig.values"](flags)
    same_by_default = flags.copy()
    same_by_default.no_cpython_wrapper = Flags().no_cpython_wrapper  # set to its default: equal all the same
    other = flags.copy()
    other.nrt = False
    numba_eq = NUMBA_OWN["TargetConfig.__eq__"]
    for a, b in [(flags, flags.copy()), (flags, same_by_default), (flags, other), (Flags(), Flags())]:
        assert (a == b) == numba_eq(a, b)
    assert flags == same_by_default and flags != other and flags != "not flags"
    assert hash(flags) == NUMBA_OWN["TargetConfig.__hash__"](flags) == hash(other)


def test_one_scope_copy_gives_every_block_one_fresh_scope_with_the_same_statements():
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
