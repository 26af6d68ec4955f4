"""sim — Monte Carlo simulation and balance analysis for tabletop games.

    import sim
    r = sim.run("kruki", n=20_000, players=4, strategies="greedy", seed=1)
    r.seats

The API (sim/api.py, docs/python.md) is loaded on first use, so `import sim` stays light.
"""
import hashlib
import os
import sys

__version__ = "0.1.0"

API = ("SimError", "configure", "run", "compare", "sweep", "tournament", "skill", "trace", "RunReport", "Comparison",
       "Sweep", "Tournament", "Skill", "Trace")
SEARCH_API = ("tune", "tune_strategy", "TuneResult")  # sim/api_search.py
# SIM_CHECK_INDEXES=1: the kernels are compiled with every array index checked (sim.jit), into a cache folder of
# their own; read once, here, so the compiled code and its cache folder always agree.
CHECK_INDEXES = os.environ.get("SIM_CHECK_INDEXES") == "1"


def _numba_cache_dir():
    """Point numba's on-disk cache at a folder keyed by a hash of the package's sources.

    numba checks only the timestamp of the file that holds a cached function, not of the modules it calls, so an
    edited strategy module would otherwise run stale compiled code. Keying the folder by the sources that compiled
    code depends on (the RNG, kernel helpers, every game's kernel and rules, the strategies) makes such an edit
    start a fresh cache. An explicit NUMBA_CACHE_DIR wins; SIM_CACHE_DIR sets the base folder (the Makefile
    uses build/numba-cache), else ~/.cache/sim-numba. numba reads NUMBA_CACHE_DIR when it is first imported, so
    when something imported numba before sim, its config is set too.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = os.path.dirname(os.path.abspath(__file__))
    sources = [os.path.join(here, name)
               for name in ("rng.py", "jit.py", "compile_speed.py", "kernel_util.py", "spec.py")]
    games = os.path.join(here, "games")
    for game in sorted(os.listdir(games)):
        folder = os.path.join(games, game)
        if os.path.isdir(folder):
            sources += [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".py")
                        and not name.startswith(("reference", "events"))]
    strategies = os.path.join(os.path.dirname(here), "strategies")
    sources += [os.path.join(strategies, name) for name in sorted(os.listdir(strategies)) if name.endswith(".py")]
    digest = hashlib.sha1()
    for path in sources:  # what compiled code depends on; editing anything else keeps the cache
        if os.path.isfile(path):
            with open(path, "rb") as f:
                digest.update(os.path.relpath(path, os.path.dirname(here)).encode() + f.read())
    if CHECK_INDEXES:
        digest.update(b"check-indexes")
    base = os.environ.get("SIM_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "sim-numba")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(base, digest.hexdigest()[:16])
    if "numba" in sys.modules:
        _point_imported_numba(os.environ["NUMBA_CACHE_DIR"])


def _point_imported_numba(folder):
    """numba was imported first and read its config already: set the cache folder in its config as well."""
    import numba.core.config as config
    config.CACHE_DIR = folder


def __getattr__(name):
    if name in API:
        from sim import api
        return getattr(api, name)
    if name in SEARCH_API:
        from sim import api_search
        return getattr(api_search, name)
    raise AttributeError(f"module 'sim' has no attribute '{name}'")


def __dir__():
    return sorted(list(globals()) + list(API) + list(SEARCH_API))


_numba_cache_dir()
