"""The njit decorator of every kernel helper (game kernels, strategies, the shared random stream)."""
from numba import njit, types


def kernel_njit(**options):
    """`numba.njit(cache=True, **options)`, compiled once per argument *type* rather than once per constant value.

    numba types a constant argument (an event kind, a decision code, a literal 0 or -1) as a literal and compiles a
    separate copy of the callee for every distinct constant it is called with; the kernels call their helpers with
    hundreds of such constants (the trace recorder alone had 138 copies in one game), which multiplied compile time.
    Here a call's literal argument types are widened to their plain types before numba picks or compiles a version.
    """
    def decorate(fn):
        dispatcher = njit(cache=True, **options)(fn)
        choose_version = dispatcher.get_call_template

        def get_call_template(args, kws):
            return choose_version(tuple(types.unliteral(a) for a in args),
                                  {k: types.unliteral(v) for k, v in kws.items()})

        dispatcher.get_call_template = get_call_template
        return dispatcher
    return decorate
