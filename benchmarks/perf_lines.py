"""Where a game's compiled functions spend their time, line by line: Linux `perf` samples mapped through numba's line
table (`make bench` does not run this; RESULTS.md quotes it).

`benchmarks.perf_map` names whole functions, and most kernel helpers are inlined into their callers, so a function's
share says little about which of its lines cost it. With `NUMBA_DEBUGINFO=1` numba writes a line table, but it files
every line under the compiled function's own source file, inlined helpers from other modules included. So this
profiles a copy of the packages in which the game's kernel and strategy modules (and the shared kernel helpers)
each start with a different multiple of STRIDE comment lines: a line number then names its module too. In the copy
it compiles the game afresh (with the line table), plays the games under `perf record`, writes the object file of
each named function's library (`perf_map --objects`), and maps each sample to its line with `addr2line`.

    python -m benchmarks.perf_lines kruki weighted 6000 --players 4 --functions _scan_c,placements [--top 40]

Compiling with the line table takes several minutes for Crows. "(no line)" counts instructions the table gives no
line (spills, block moves, the function's entry).
"""
from __future__ import annotations

import collections
import glob
import os
import shutil
import subprocess
import sys
import tempfile

from benchmarks.perf_map import games_parser

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRIDE = 2000  # the comment lines per module index; every tagged module is shorter
SHARED = ("sim/jit.py", "sim/rng.py", "sim/kernel_util.py", "sim/block_sums.py")


def _tagged_copy(dest, game):
    """Copy the packages into dest, module i of the game's kernel and strategies starting with i * STRIDE comment
    lines; returns {i: (path relative to the root, its lines)}."""
    for package in ("sim", "strategies", "benchmarks"):
        shutil.copytree(os.path.join(ROOT, package), os.path.join(dest, package),
                        ignore=shutil.ignore_patterns("__pycache__"))
    package = game.replace("-", "_")
    paths = sorted(glob.glob(f"sim/games/{package}/*.py", root_dir=ROOT) +
                   glob.glob(f"strategies/{package}*.py", root_dir=ROOT)) + list(SHARED)
    tags = {}
    for i, path in enumerate(paths, start=1):
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            text = f.read()
        if text.count("\n") >= STRIDE:
            raise SystemExit(f"{path} has {STRIDE} lines or more: raise STRIDE")
        with open(os.path.join(dest, path), "w", encoding="utf-8") as f:
            f.write("#\n" * (i * STRIDE) + text)
        tags[i] = path, text.splitlines()
    return tags


def _record(copy, args, objects, data):
    """perf record of benchmarks.perf_map in the copy, compiling afresh with the line table."""
    env = dict(os.environ, NUMBA_DEBUGINFO="1", SIM_CACHE_DIR=os.path.join(copy, "cache"), PYTHONPATH=copy,
               OPENBLAS_NUM_THREADS="1")
    env.setdefault("PYTHONWARNINGS", "ignore")
    command = ["perf", "record", "-F", "2999", "-o", data, sys.executable, "-m", "benchmarks.perf_map", args.game,
               args.strategy, str(args.n), "--objects", objects, "--functions", args.functions]
    if args.players:
        command += ["--players", str(args.players)]
    for variant in args.variant:
        command += ["--variant", variant]
    subprocess.run(command, cwd=copy, env=env, check=True, stdout=subprocess.DEVNULL)


def _loaded(objects, part):
    """(object file, load address, name) of the compiled function whose name contains `part`, or None."""
    for addr_file in glob.glob(os.path.join(objects, "lib*.addr")):
        with open(addr_file) as f:
            address, name = f.read().split()
        if part in name:
            return addr_file[:-len(".addr")] + ".o", int(address, 16), name
    return None


def _offset_in_object(obj, name):
    """The function's offset in its section of the object file, and the section's name."""
    out = subprocess.run(["nm", "--defined-only", obj], capture_output=True, text=True, check=True).stdout
    offset = next(int(row.split()[0], 16) for row in out.splitlines() if row.split()[-1] == name)
    sections = subprocess.run(["readelf", "-S", "-W", obj], capture_output=True, text=True, check=True).stdout
    return offset, ".ltext" if ".ltext" in sections else ".text"


def _line_counts(samples, obj, address, name):
    """{tagged line (0: none): samples} of the function loaded at `address`."""
    offset, section = _offset_in_object(obj, name)
    at = collections.Counter(ip - address + offset for ip, sym in samples if sym == name)
    if not at:
        return collections.Counter()
    offsets = sorted(at)
    out = subprocess.run(["addr2line", "-e", obj, "-j", section, "-a"], input="\n".join(map(hex, offsets)),
                         capture_output=True, text=True, check=True).stdout.splitlines()
    lines = collections.Counter()
    for i in range(0, len(out), 2):
        where = out[i + 1].rsplit(":", 1)[-1].split()[0]
        lines[int(where) if where.isdigit() else 0] += at[int(out[i], 16)]
    return lines


def _source_line(tags, tagged):
    """(module:line, its text) of a tagged line number."""
    if tagged // STRIDE not in tags:
        return f"(line {tagged})", ""
    path, text = tags[tagged // STRIDE]
    line = tagged % STRIDE
    return f"{path}:{line}", text[line - 1].strip() if 0 < line <= len(text) else ""


def main():
    parser = games_parser(__doc__.splitlines()[0])
    parser.add_argument("--functions", required=True, help="comma-separated parts of compiled function names")
    parser.add_argument("--top", type=int, default=30, help="lines shown per function")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="perf-lines-")
    try:
        copy, objects, data = os.path.join(work, "copy"), os.path.join(work, "objects"), os.path.join(work, "data")
        os.makedirs(objects)
        tags = _tagged_copy(copy, args.game)
        _record(copy, args, objects, data)
        script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym"], capture_output=True, text=True,
                                check=True).stdout
        samples = [(int(ip, 16), sym) for ip, sym in (row.split()[:2] for row in script.splitlines()
                                                        if len(row.split()) >= 2)]
        kernel_total = sum(1 for _, sym in samples if sym.startswith(("_ZN3sim", "_ZN10strategies")))
        for part in (p for p in args.functions.split(",") if p):
            found = _loaded(objects, part)
            if found is None:
                print(f"{part}: no compiled function of that name")
                continue
            lines = _line_counts(samples, *found)
            total = sum(lines.values())
            print(f"\n{part}: {total} samples, {total / max(kernel_total, 1):.1%} of the kernels' {kernel_total}")
            for tagged, count in lines.most_common(args.top):
                where, text = _source_line(tags, tagged) if tagged else ("(no line)", "")
                print(f"{count:7d} {count / total:6.1%}  {where:<40} {text[:70]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
