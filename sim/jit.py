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
    """
    def decorate(fn):
        dispatcher = njit(cache=True, _nrt=nrt, **options)(fn)
        choose_version = dispatcher.get_call_template

        def get_call_template(args, kws):
            return choose_version(tuple(types.unliteral(a) for a in args),
                                  {k: types.unliteral(v) for k, v in kws.items()})

        dispatcher.get_call_template = get_call_template
        return dispatcher
    return decorate
