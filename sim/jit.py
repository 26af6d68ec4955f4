"""The njit decorator of every kernel helper (game kernels, strategies, the shared random stream), and how numba
compiles this package's kernels: array indices taken as they are, without Python's negative wraparound
(`_index_as_given`), and a faster front end that compiles the same code (sim/compile_speed.py)."""
import os

from numba import njit, types

from sim import CHECK_INDEXES  # every index checked: a mode for tests and debugging
from sim import compile_speed


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

    Kernels index arrays with values from 0 up: a negative index computed at run time does not count from the end
    here (`_index_as_given`); a literal one (`a[-1]`) still does. `SIM_CHECK_INDEXES=1` checks every index.
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


compile_speed.install()


# Functions of these packages are compiled with `_index_as_given`: numba names a compiled function by its module
# and qualified name (`_ZN3sim5games...`, `_ZN10strategies...`), so user plug-ins and tests keep numba's indexing.
_OWN_PACKAGES = ("sim", "strategies")
_OWN_PREFIXES = tuple(f"_ZN{len(p)}{p}" for p in _OWN_PACKAGES)


def _index_as_given():
    """Compile this package's array indexing without the wraparound of negative indices.

    numba indexes an array as Python does: for every signed index computed at run time it emits `i < 0 ? i + n : i`,
    which keeps the length n of every indexed dimension live and stops LLVM from folding the index into the address.
    The kernels index only with values from 0 up (positions, offsets into their scratch arrays), so this code never
    selects the wrapped value; without it Crows' players run 31-35% fewer instructions per game and every game's
    players run faster (9-31% more games per second), with the same games (docs/decisions.md, "Array indices as
    given"). Literal indices (`a[-1]`) keep their meaning, and functions of other modules (user plug-ins, tests)
    keep numba's indexing.

    With CHECK_INDEXES every such index is checked instead: outside 0 .. n-1 the process writes the index, the
    source line and the function to the standard error and aborts, which is how the suite shows that no kernel
    relies on the wraparound."""
    from llvmlite import ir
    from numba.np import arrayobj
    numba_fix = arrayobj.fix_integer_index

    def fix_integer_index(context, builder, idxty, idx, size):
        if not (idxty.signed and not isinstance(idx, ir.Constant)
                and builder.function.name.startswith(_OWN_PREFIXES)):
            return numba_fix(context, builder, idxty, idx, size)
        index = context.cast(builder, idx, idxty, types.intp)
        if CHECK_INDEXES:
            with builder.if_then(builder.icmp_unsigned(">=", index, size), likely=False):  # negative: huge unsigned
                _print_and_abort(builder, f"sim: index %lld outside 0..%lld-1 at {_lowering_at()} in "
                                          f"{builder.function.name[:120]}\n", index, size)
        return index

    arrayobj.fix_integer_index = fix_integer_index


def _print_and_abort(builder, message, *values):
    """Emit: write `message` (printf format) with `values` to the standard error (dprintf to fd 2, unbuffered), and
    abort the process."""
    from llvmlite import ir
    from numba.core import cgutils
    module = builder.module
    text = cgutils.global_constant(module, "sim_index_message", cgutils.make_bytearray((message + "\0").encode()))
    dprintf = cgutils.get_or_insert_function(
        module, ir.FunctionType(ir.IntType(32), [ir.IntType(32), cgutils.voidptr_t], var_arg=True), "dprintf")
    builder.call(dprintf, [ir.Constant(ir.IntType(32), 2), builder.bitcast(text, cgutils.voidptr_t), *values])
    builder.call(cgutils.get_or_insert_function(module, ir.FunctionType(ir.VoidType(), []), "abort"), [])


def _lowering_at():
    """file:line of the statement numba is lowering (the caller's frames hold its `Lower`), for CHECK_INDEXES."""
    import sys
    from numba.core.lowering import Lower
    frame = sys._getframe(1)
    while frame is not None:
        lower = frame.f_locals.get("self")
        if isinstance(lower, Lower) and getattr(lower, "loc", None) is not None:
            return f"{os.path.relpath(lower.loc.filename)}:{lower.loc.line}".replace("%", "%%")
        frame = frame.f_back
    return "?"


_index_as_given()
