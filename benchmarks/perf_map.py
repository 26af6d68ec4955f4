"""Profile a game's compiled code with Linux `perf`: numba's machine code gets names in perf's reports.

numba's JIT code has no symbols, so `perf report` shows bare addresses. This plays a few games (compiling the
kernels in this process: give it an empty cache folder, since code loaded from the cache keeps no function table),
writes /tmp/perf-<pid>.map with the address and size of every compiled function, and then plays the games to
profile. perf reads that map by itself:

    SIM_CACHE_DIR=$(mktemp -d) perf record -F 999 -o perf.data python -m benchmarks.perf_map kruki weighted 300
    perf report -i perf.data --no-children --sort symbol | grep -E '_ZN3sim|_ZN10strategies'

Samples before the map is written belong to the compiler; the kernels' own rows are what the grep keeps.
`--objects DIR --functions a,b` also writes, for every compiled function whose name contains one of the given parts,
its library's object file and where it was loaded, for `benchmarks.perf_lines`.
"""
from __future__ import annotations

import argparse
import os
import sys


def _functions(library, seen, out):
    """{address: name} of every function defined in a numba code library and the libraries it links."""
    if id(library) in seen:
        return
    seen.add(id(library))
    module = getattr(library, "_final_module", None)
    if module is not None:
        for fn in module.functions:
            if not fn.is_declaration:
                address = library.get_pointer_to_function(fn.name)
                if address:
                    out[address] = fn.name
    for linked in getattr(library, "_linking_libraries", ()):
        _functions(linked, seen, out)


def _compiled():
    """Every overload of every compiled dispatcher loaded so far."""
    from numba.core.registry import CPUDispatcher
    for module in list(sys.modules.values()):
        for value in list(getattr(module, "__dict__", {}).values()):
            if isinstance(value, CPUDispatcher):
                yield from value.overloads.values()


def write_objects(folder, parts):
    """For each compiled function whose name contains one of `parts`: lib<i>.o, the object file of its own library
    (with the line table when NUMBA_DEBUGINFO=1), and lib<i>.addr, its address as loaded in this process and its
    name. Its own library, since a caller's library holds a copy of it that is not the code that runs. Returns how
    many it wrote."""
    written = 0
    for compiled in _compiled():
        name = compiled.fndesc.mangled_name
        address = compiled.library.get_pointer_to_function(name)
        if not address or not any(part in name for part in parts):
            continue
        written += 1
        stem = os.path.join(folder, f"lib{written}")
        with open(stem + ".o", "wb") as f:
            f.write(compiled.library._get_compiled_object())
        with open(stem + ".addr", "w") as f:
            f.write(f"{address:x} {name}\n")
    return written


def write_map(path):
    """The perf map of every compiled dispatcher loaded so far; returns how many functions it names."""
    names, seen = {}, set()
    for compiled in _compiled():
        _functions(compiled.library, seen, names)
    addresses = sorted(names)
    with open(path, "w") as f:
        for i, address in enumerate(addresses):
            gap = addresses[i + 1] - address if i + 1 < len(addresses) else 4096
            f.write(f"{address:x} {min(gap, 1 << 20):x} {names[address]}\n")
    return len(addresses)


def games_parser(description):
    """The command line of the games to profile (game, strategy, n, --players, --variant), shared with
    `benchmarks.perf_lines`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("game")
    parser.add_argument("strategy")
    parser.add_argument("n", type=int)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--variant", action="append", default=[], help="a rule variant (repeatable)")
    return parser


def main():
    parser = games_parser(__doc__.splitlines()[0])
    parser.add_argument("--objects", help="a folder for the object files of the functions named by --functions")
    parser.add_argument("--functions", default="", help="comma-separated parts of compiled function names")
    args = parser.parse_args()
    from sim import api
    run = dict(players=args.players, variants=args.variant, strategies=args.strategy, seed=1, threads=1)
    api.run(args.game, 20, **run)  # compile
    count = write_map(f"/tmp/perf-{os.getpid()}.map")
    print(f"perf map: {count} functions", file=sys.stderr)
    if args.objects:
        written = write_objects(args.objects, [p for p in args.functions.split(",") if p])
        print(f"objects: {written} libraries", file=sys.stderr)
    api.run(args.game, args.n, **run)


if __name__ == "__main__":
    main()
