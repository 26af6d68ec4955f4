"""Who plays each seat: parsing `--strategy` specs, strategy parameters, and user plug-in files.

Syntax (docs/architecture.md §4): one spec for all seats or a comma list, one per seat; a spec is `name` or
`name:param=value:param=value`; a plug-in is `FILE.py:FUNCTION` (optionally followed by `:param=value`).
`--set name.param=value` sets a parameter for every seat playing strategy `name`.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from dataclasses import dataclass, field

import numpy as np

from sim.kernel_util import USER_SIGNATURE, no_user_strategy
from sim.spec import MAX_SEATS, SpecError

PLUGIN_SID = -1


def seat_number(index):
    """The seat number a person reads for seat `index` of the kernel's arrays (0-based): seat 1 is the first in turn
    order (as the rules files count). None for the kernels' 'no seat' (−1)."""
    return index + 1 if index >= 0 else None


@dataclass(frozen=True)
class SeatStrategy:
    label: str  # how the seat is shown: the spec as typed, parameters included
    name: str  # shipped strategy name, or FILE.py:FUNCTION
    sid: int  # kernel dispatch id; PLUGIN_SID for a plug-in
    params: dict = field(default_factory=dict)  # name -> float, defaults filled in
    fn: object = None  # the compiled plug-in function
    path: str = ""  # plug-in file
    portable: str = ""  # the label with the plug-in file's absolute path: rebuilds the seat in another process

    @property
    def spec(self):
        return self.portable or self.label


def split_specs(text):
    """'a,b:x=1,c' -> ['a', 'b:x=1', 'c'] (commas separate seats)."""
    parts = [s.strip() for s in text.split(",")]
    if any(not s for s in parts):
        raise SpecError(f"malformed --strategy '{text}': empty seat in the comma list")
    return parts


def _parse_value(spec, item):
    name, sep, raw = item.partition("=")
    if not sep or not name:
        raise SpecError(f"malformed strategy parameter '{item}' in '{spec}'; expected name=value")
    try:
        return name, float(raw)
    except ValueError:
        raise SpecError(f"strategy parameter {name} in '{spec}' must be a number, not '{raw}'") from None


def _apply_params(spec, strategy_name, defaults, items, strategy_sets):
    params = dict(defaults)
    for key, value in strategy_sets.get(strategy_name, {}).items():
        if key not in params:
            raise SpecError(f"strategy {strategy_name} has no parameter '{key}'; accepted: "
                            f"{', '.join(params) or 'none'}")
        params[key] = value
    for item in items:
        key, value = _parse_value(spec, item)
        if key not in params:
            raise SpecError(f"strategy {strategy_name} has no parameter '{key}'; accepted: "
                            f"{', '.join(params) or 'none'}")
        params[key] = value
    return params


def load_plugin(path, func_name):
    """Import FUNCTION from a user's FILE.py and compile it with the plug-in signature (docs/plugins.md)."""
    if not os.path.isfile(path):
        raise SpecError(f"strategy file '{path}' does not exist")
    module_name = "sim_plugin_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    try:
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's file: any error is theirs to read, in one line
        raise SpecError(f"strategy file '{path}' failed to import: {type(exc).__name__}: {exc}") from None
    fn = getattr(module, func_name, None)
    if fn is None or not callable(fn):
        raise SpecError(f"strategy file '{path}' has no function '{func_name}'")
    py_func = getattr(fn, "py_func", fn)
    from numba import njit
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled = njit(USER_SIGNATURE, cache=False)(py_func)
    except Exception as exc:
        first = str(exc).strip().splitlines()
        reason = next((line for line in first if line.strip()), type(exc).__name__)
        raise SpecError(f"strategy {func_name} in '{path}' does not compile as "
                        f"choose(obs int32[::1], params float64[::1], rng uint64[::1]) -> int64: {reason}") from None
    defaults = _plugin_params(path, func_name, getattr(module, "PARAMS", {}))
    return compiled, defaults


def _plugin_params(path, func_name, declared):
    """A plug-in module's PARAMS ({function name: {parameter: number}}) for one function, checked."""
    if not isinstance(declared, dict):
        raise SpecError(f"PARAMS in '{path}' must be a dict {{function name: {{parameter: number}}}}, "
                        f"not a {type(declared).__name__}")
    for name, entry in declared.items():
        if not isinstance(entry, dict):
            raise SpecError(f"PARAMS[{name!r}] in '{path}' must be a dict {{parameter: number}} "
                            f"(PARAMS maps function names to their parameters), not {entry!r}")
    mine = declared.get(func_name, {})
    out = {}
    for key, value in mine.items():
        if not isinstance(key, str) or isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SpecError(f"PARAMS['{func_name}'] in '{path}': {key!r} must map a name to a number, "
                            f"not {value!r}")
        out[key] = float(value)
    return out


def _label(base, params, defaults):
    """The canonical spec of a seat: its name plus every parameter that differs from the default, so the label
    alone reproduces the seat (`--strategy LABEL`)."""
    return base + "".join(f":{k}={v:g}" for k, v in params.items() if v != defaults.get(k))


def parse_seat(game, spec, strategy_sets):
    """One seat's spec -> SeatStrategy."""
    if ".py:" in spec:
        path, _, rest = spec.partition(".py:")
        path += ".py"
        func_name, *items = rest.split(":")
        fn, defaults = load_plugin(path, func_name)
        name = f"{os.path.basename(path)}:{func_name}"
        params = _apply_params(spec, name, defaults, items, strategy_sets)
        return SeatStrategy(_label(f"{path}:{func_name}", params, defaults), name, PLUGIN_SID, params, fn,
                            os.path.abspath(path), _label(f"{os.path.abspath(path)}:{func_name}", params, defaults))
    name, *items = spec.split(":")
    info = game.strategy(name)
    params = _apply_params(spec, name, info.params, items, strategy_sets)
    return SeatStrategy(_label(name, params, info.params), name, info.sid, params)


def parse_strategies(game, specs, players, strategy_sets=None):
    """`specs`: None (the game's default for all seats), one spec for all seats, or one per seat."""
    # a plug-in's parameters are keyed FILE.py:FUNCTION by the file's name, however its path was typed
    strategy_sets = {(os.path.basename(k.partition(".py:")[0]) + ".py:" + k.partition(".py:")[2]) if ".py:" in k
                     else k: v for k, v in (strategy_sets or {}).items()}
    for name in strategy_sets:
        if ".py:" not in name:
            game.strategy(name)
    if specs is None:
        specs = [game.default_strategy]
    elif isinstance(specs, str):
        specs = split_specs(specs)
    if len(specs) == 1:
        specs = list(specs) * players
    if len(specs) != players:
        raise SpecError(f"--strategy lists {len(specs)} seats but the game has {players} players; give one spec "
                        f"for all seats or one per seat")
    cache = {}
    seats = []
    for spec in specs:
        if spec not in cache:
            cache[spec] = parse_seat(game, spec, strategy_sets)
        seats.append(cache[spec])
    played = {s.name for s in seats}
    for name, values in strategy_sets.items():
        if name not in played:
            raise SpecError(f"--set {name}.{next(iter(values))} reaches no seat: no seat plays {name} "
                            f"(seats: {', '.join(dict.fromkeys(s.label for s in seats))})")
    return seats


def strategy_arrays(seats):
    """Kernel inputs: sids(P), sparams(P, K) and the plug-in tuple (MAX_SEATS functions)."""
    width = max([len(s.params) for s in seats] + [1])
    sids = np.array([s.sid for s in seats], np.int64)
    sparams = np.zeros((len(seats), width), np.float64)
    for i, s in enumerate(seats):
        sparams[i, :len(s.params)] = list(s.params.values())
    users = [s.fn if s.fn is not None else no_user_strategy for s in seats]
    users += [no_user_strategy] * (MAX_SEATS - len(users))
    return sids, sparams, tuple(users)
