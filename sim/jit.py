"""The njit decorator of every kernel helper (game kernels, strategies, the shared random stream)."""
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
