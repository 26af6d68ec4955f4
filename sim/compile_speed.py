"""Faster compiling, the same compiled code: five changes to numba's front end, installed when sim.jit is imported.

numba's front end (everything before LLVM) was 55-60% of a game's cold compile. Most kernel helpers are
`inline="always"` (the speed targets need numba's IR inlining), so the functions numba analyses hold thousands of
blocks and variables, and four of its routines grow with blocks × variables, while a fifth repeats itself:
- `InlineWorker.inline_ir` copied a helper's whole scope once per block (`_copy_each_scope_once`);
- inlining ran the untyped pipeline on a helper at every call site (`_untyped_ir_once_per_helper`);
- SSA reconstruction rewrote every block once per variable assigned more than once (`_ssa_visits_naming_blocks`);
- the liveness fix point united Python sets of variable names along every edge (`_live_map_in_bitsets`);
- typing keyed a cache by the compiler flags, and hashing or comparing a flag set read every option through a
  property (`_flags_compared_directly`).
Each is replaced by code that computes the same result by a cheaper route, so the compiled code is the same
(docs/decisions.md, "numba's front end, made linear where it was quadratic"). Where a numba version no longer has
the code a change wraps, that change is not installed: compiling is then slower, never different.
"""
import copy
import sys

NUMBA_OWN = {}  # the numba functions replaced here, by name (tests compare them with their replacements)


# ---- inlining: a scope copied once --------------------------------------------------------------------------------
class _OneMemoPerScope:
    """Stands in for the `copy` module inside numba's inliner for one `inline_ir` call: `deepcopy` of a block
    shares one memo with every other block of the same scope, so the scope and its variables are copied once.

    numba's `InlineWorker.inline_ir` copies the callee's IR block by block, each with a fresh memo; every block
    refers to the function's scope, which holds every variable of the function, so each block copied the whole
    scope again: blocks × variables. Inlining Sen's `play_turn` (380 blocks, 5,994 variables) took 17 s, and copying
    was 37 of Sen's 80 s of compile. With one memo the copy is what numba's own bytecode front end produces: blocks
    whose variables are the one scope's variable objects.
    """

    def __init__(self):
        self._memos = {}

    def deepcopy(self, block, memo=None):
        if memo is None:
            memo = self._memos.setdefault(id(block.scope), {})
        return copy.deepcopy(block, memo)

    def __getattr__(self, name):
        return getattr(copy, name)


def _copy_each_scope_once():
    """Wrap `InlineWorker.inline_ir` so that its block copies share a memo per scope (`_OneMemoPerScope`)."""
    from numba.core import inline_closurecall
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if getattr(inline_closurecall, "copy", None) is not copy or not hasattr(worker, "inline_ir"):
        return
    inline_ir = NUMBA_OWN["InlineWorker.inline_ir"] = worker.inline_ir

    def inline_ir_copying_scopes_once(self, *args, **kwargs):
        outer = inline_closurecall.copy
        inline_closurecall.copy = _OneMemoPerScope()
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            inline_closurecall.copy = outer

    worker.inline_ir = inline_ir_copying_scopes_once


# ---- inlining: a helper's untyped IR built once -------------------------------------------------------------------
def _untyped_ir_once_per_helper():
    """Make `InlineWorker.inline_function` run the untyped pipeline once per helper, not once per call site.

    To inline a helper numba runs the whole untyped pipeline on it (bytecode to IR, its own inlining, rewrites) at
    every call site, and then `inline_ir` works on a copy of that IR (it copies before anything else, and the copy's
    scope is its own). So the IR of the first run serves every later site: it is kept per helper and per set of
    compiler flags, and numba's side effect on the caller's flags (`enable_ssa` turned off) is repeated. Installed
    only where numba's `inline_ir` is seen to copy its callee's IR first."""
    import inspect

    from numba.core import inline_closurecall
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if not all(hasattr(worker, name) for name in ("inline_function", "run_untyped_passes", "inline_ir")):
        return
    try:
        copies_first = "callee_ir = copy_ir(callee_ir)" in inspect.getsource(
            NUMBA_OWN.get("InlineWorker.inline_ir", worker.inline_ir))
    except (OSError, TypeError):
        copies_first = False
    if not copies_first:
        return
    NUMBA_OWN["InlineWorker.inline_function"] = worker.inline_function
    built = {}

    def inline_function_with_ir_built_once(self, caller_ir, block, i, function, arg_typs=None):
        key = (function, tuple(sorted((name, repr(value)) for name, value in self.flags._values.items()
                                      if name != "enable_ssa")))  # set to False by the first run itself
        callee_ir = built.get(key)
        if callee_ir is None:
            callee_ir = built[key] = self.run_untyped_passes(function)
        else:
            self.flags.enable_ssa = False
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)

    worker.inline_function = inline_function_with_ir_built_once


# ---- SSA: only the blocks that name the variable ------------------------------------------------------------------
_NAMING_BLOCKS = []  # per `_run_ssa` under way: {variable name: labels of the blocks whose statements name it}


def _ssa_visits_naming_blocks():
    """Make numba's SSA reconstruction rewrite, for each variable it fixes, only the blocks that name the variable.

    `ssa._run_ssa` fixes the variables assigned more than once one at a time, and for each it runs two rewrites
    (`_fresh_vars`, `_fix_ssa_vars`) over every statement of every block: variables × statements. Both handlers
    return a statement that does not name the variable unchanged and record nothing for it (`_FreshVarHandler`
    renames only assignments to it; `_FixSSAVars` looks for a reaching definition only where a statement uses it,
    and the phi nodes that search adds are recorded by label and placed after the rewrite). So a block none of whose
    statements names the variable comes out as a new block with the same statements, which is what is built here
    without visiting them. Which blocks name a variable is read once per function, before the first rewrite: fixing
    one variable renames only that variable's definitions and uses, so the index stays exact for the rest.
    In Crows' compile this pass took 5.0 s, and 1.8 s with the index."""
    from numba.core import ir, ssa
    if not all(hasattr(ssa, name) for name in ("_run_ssa", "_run_block_rewrite", "_FreshVarHandler", "_FixSSAVars")):
        return
    run_ssa, rewrite_all = ssa._run_ssa, ssa._run_block_rewrite
    NUMBA_OWN["_run_ssa"] = run_ssa
    handlers = (ssa._FreshVarHandler, ssa._FixSSAVars)

    def run_ssa_indexed(blocks):
        naming = {}
        for label, block in blocks.items():
            for stmt in block.body:
                for var in stmt.list_vars():
                    naming.setdefault(var.name, set()).add(label)
        _NAMING_BLOCKS.append(naming)
        try:
            return run_ssa(blocks)
        finally:
            _NAMING_BLOCKS.pop()

    def rewrite_naming_blocks(blocks, states, handler):
        if not _NAMING_BLOCKS or not isinstance(handler, handlers):
            return rewrite_all(blocks, states, handler)
        naming = _NAMING_BLOCKS[-1].get(states["varname"], ())
        out = {}
        for label, block in blocks.items():  # in numba's order: the phi nodes it adds depend on it
            if label in naming:
                out.update(rewrite_all({label: block}, states, handler))
            else:
                same = ir.Block(scope=block.scope, loc=block.loc)
                same.body = list(block.body)
                out[label] = same
        return out

    ssa._run_ssa = run_ssa_indexed
    ssa._run_block_rewrite = rewrite_naming_blocks


# ---- liveness: sets of variables as bits of an integer ------------------------------------------------------------
def compute_live_map(cfg, blocks, var_use_map, var_def_map):
    """numba's `analysis.compute_live_map`, the same two fix points over the same equations, with each set of
    variable names held as the bits of one Python integer. The variables defined or used on some path to a block
    (`def_reach`), then the variables live at each block's entry: both are the least solutions of their equations,
    which any order of iteration reaches, so the result is numba's."""
    bit = {}
    names = []

    def bits(vars_):
        out = 0
        for name in vars_:
            i = bit.get(name)
            if i is None:
                i = bit[name] = len(names)
                names.append(name)
            out |= 1 << i
        return out

    topo = cfg.topo_order()
    defs = {label: bits(defined) for label, defined in var_def_map.items()}
    uses = {label: bits(used) for label, used in var_use_map.items()}
    seen = {label: defs[label] | uses[label] for label in topo}
    succ = {label: [out for out, _ in cfg.successors(label)] for label in topo}
    reach = {}
    changed = True
    while changed:  # def_reach: what a block defines or uses reaches every block after it
        changed = False
        for label in topo:
            here = reach.get(label, 0) | seen[label]
            reach[label] = here
            for out in succ[label]:
                before = reach.get(out, 0)
                if before | here != before:
                    reach[out] = before | here
                    changed = True
    live = {label: uses[label] for label in blocks}
    preds = {label: [inc for inc, _ in cfg.predecessors(label)] for label in topo}
    changed = True
    while changed:  # liveness: a variable live at a block's entry is live at its predecessors' unless they define it
        changed = False
        for label in reversed(topo):
            here = live[label]
            for inc in preds[label]:
                before = live[inc]
                after = before | (here & reach.get(inc, 0) & ~defs[inc])
                if after != before:
                    live[inc] = after
                    changed = True
    return {label: _names(mask, names) for label, mask in live.items()}


def _names(mask, names):
    """The set of variable names whose bits are set in mask."""
    out = set()
    i = 0
    while mask:
        low = mask & 0xFFFFFFFFFFFFFFFF
        while low:
            j = (low & -low).bit_length() - 1
            out.add(names[i + j])
            low &= low - 1
        mask >>= 64
        i += 64
    return out


def _live_map_in_bitsets():
    """Install `compute_live_map` wherever numba's is bound: in `analysis` and in every loaded numba module that
    imported it by name (ir_utils, parfors); a module loaded later imports the new one from `analysis`."""
    from numba.core import analysis
    original = getattr(analysis, "compute_live_map", None)
    if original is None:
        return
    NUMBA_OWN["compute_live_map"] = original
    for name, module in list(sys.modules.items()):
        if name.startswith("numba") and getattr(module, "compute_live_map", None) is original:
            module.compute_live_map = compute_live_map


# ---- flags: compared without reading every option ----------------------------------------------------------------
def _flags_compared_directly():
    """`TargetConfig` hashing and equality, the same answers without reading every option through its property.

    numba's typing caches each resolved call under a key that holds the compiler flags, so every lookup hashes a
    flag set and compares it with the one stored, and both built dicts of about 40 options by property access (2-3%
    of a cold compile). Every option's property returns `self._values.get(name, option.default)`
    (`_MetaTargetConfig`); so `values()` reads that directly, the hash (numba's: of the sorted option *names*, as
    `sorted` of a dict gives its keys) depends on the class alone, and two flag sets of one class with the same
    options set to the same values are equal without comparing the defaults."""
    from numba.core.targetconfig import TargetConfig
    if not all(hasattr(TargetConfig, name) for name in ("options", "values", "__eq__", "__hash__")):
        return
    NUMBA_OWN["TargetConfig.values"] = TargetConfig.values
    NUMBA_OWN["TargetConfig.__eq__"] = TargetConfig.__eq__
    NUMBA_OWN["TargetConfig.__hash__"] = TargetConfig.__hash__
    numba_eq = TargetConfig.__eq__
    hashes = {}

    def values(self):
        given = self._values
        return {name: given.get(name, option.default) for name, option in self.options.items()}

    def __eq__(self, other):
        if type(other) is type(self) and other._values == self._values:
            return True
        return numba_eq(self, other)

    def __hash__(self):
        cls = type(self)
        if cls not in hashes:
            hashes[cls] = hash(tuple(sorted(self.options)))
        return hashes[cls]

    TargetConfig.values = values
    TargetConfig.__eq__ = __eq__
    TargetConfig.__hash__ = __hash__


def install():
    """Install the five changes, once per process (`NUMBA_OWN` fills as they are installed)."""
    if NUMBA_OWN:
        return
    _copy_each_scope_once()
    _untyped_ir_once_per_helper()
    _ssa_visits_naming_blocks()
    _live_map_in_bitsets()
    _flags_compared_directly()
