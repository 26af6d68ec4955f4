"""The njit decorator of every kernel helper (game kernels, strategies, the shared random stream)."""
import copy

from numba import njit, types


def kernel_njit(nrt=False, **options):
    """`numba.njit(cache=True, **options)`, compiled once per argument *type* rather than once per constant value,
    and without numba's reference-counting runtime unless `nrt=True`.

    Without the runtime, passing an array to a helper or taking a view of it counts no references: in Skrzaty those
    atomic counts were four fifths of a game's time (random play: 39,000 -> 150,000 games/s on one thread). The
    kernels allocate only when a block starts (its scratch, in functions marked nrt=True); code that allocates
    without the mark does not compile ("NRT required but not enabled"), so the rule checks itself.

    numba types a constant argument (an event kind, a decision code, a literal 0 or -1) as a literal and compiles a
    separate copy of the callee for every distinct constant it is called with; the kernels call their helpers with
    hundreds of such constants (the trace recorder alone had 138 copies in one game), which multiplied compile time.
    Here a call's literal argument types are widened to their plain types before numba picks or compiles a version.

    For the same reason a signed integer scalar is widened to int64: a helper called once with a value read from an
    int32 array and once with a loop index (int64) was compiled twice, and in Crows the cell valuation's helpers had
    two to six copies each (`_apply_cell` six, `placements` four), a third of the game's compile time. numba's
    arithmetic on int32 already yields int64, so the widening changes no result.
    """
    def decorate(fn):
        dispatcher = njit(cache=True, _nrt=nrt, **options)(fn)
        choose_version = dispatcher.get_call_template

        def get_call_template(args, kws):
            return choose_version(tuple(_widened(a) for a in args), {k: _widened(v) for k, v in kws.items()})

        dispatcher.get_call_template = get_call_template
        return dispatcher
    return decorate


def _widened(ty):
    """The argument type a helper is compiled for: literals as their plain type, signed integers as int64."""
    ty = types.unliteral(ty)
    if isinstance(ty, types.Integer) and ty.signed:
        return types.int64
    return ty


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
    """Wrap `InlineWorker.inline_ir` so that its block copies share a memo per scope (`_OneMemoPerScope`); a numba
    without that code path is left as it is."""
    from numba.core import inline_closurecall
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if getattr(inline_closurecall, "copy", None) is not copy or not hasattr(worker, "inline_ir"):
        return
    inline_ir = worker.inline_ir

    def inline_ir_copying_scopes_once(self, *args, **kwargs):
        outer = inline_closurecall.copy
        inline_closurecall.copy = _OneMemoPerScope()
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            inline_closurecall.copy = outer

    worker.inline_ir = inline_ir_copying_scopes_once


_copy_each_scope_once()
