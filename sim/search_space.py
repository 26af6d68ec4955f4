"""What `sim tune` searches and what it aims at: parameter ranges (`--param`) and balance targets (`--target`).

Every parse here checks its input against the game before a game is played; a bad one is one SpecError line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sim.spec import SpecError


@dataclass(frozen=True)
class ParamRange:
    """One searched parameter: a rule parameter (integers) or STRATEGY.PARAM (numbers; a grid when step is given)."""
    name: str  # as typed: "break_at" or "weighted.w1"
    lo: float
    hi: float
    step: float | None
    strategy: str = ""  # the strategy name for a strategy parameter, "" for a rule parameter

    @property
    def is_rule(self):
        return not self.strategy

    @property
    def param(self):
        return self.name.rpartition(".")[2]

    def suggest(self, trial):
        if self.is_rule:
            return trial.suggest_int(self.name, int(self.lo), int(self.hi), step=int(self.step or 1))
        return trial.suggest_float(self.name, self.lo, self.hi, step=self.step)

    def describe(self):
        return {"name": self.name, "lo": self.lo, "hi": self.hi, "step": self.step,
                "kind": "rule" if self.is_rule else "strategy"}


def _number(text, what):
    try:
        value = float(text)
    except ValueError:
        raise SpecError(f"{what} needs a number, not '{text}'") from None
    if not math.isfinite(value):
        raise SpecError(f"{what} needs a finite number, not '{text}'")
    return value


def _parse_range(name, raw, text):
    """'LO:HI[:STEP]' -> (lo, hi, step or None)."""
    parts = raw.split(":")
    if len(parts) not in (2, 3) or not all(p.strip() for p in parts):
        raise SpecError(f"malformed --param '{text}'; expected NAME=LO:HI or NAME=LO:HI:STEP")
    lo, hi = (_number(p.strip(), f"--param {name}") for p in parts[:2])
    step = _number(parts[2].strip(), f"--param {name} step") if len(parts) == 3 else None
    if lo > hi:
        raise SpecError(f"--param {name}: LO {lo:g} is above HI {hi:g}")
    if step is not None and step <= 0:
        raise SpecError(f"--param {name}: the step must be above 0, not {step:g}")
    return lo, hi, step


def parse_param(game, text, seat_strategies=()):
    """'NAME=LO:HI[:STEP]' -> ParamRange, checked against the game's parameter (or the seats' strategy)."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise SpecError(f"malformed --param '{text}'; expected NAME=LO:HI or NAME=LO:HI:STEP")
    lo, hi, step = _parse_range(name, raw, text)
    if "." in name:
        strategy, _, param = name.rpartition(".")
        known = {s.name: s for s in game.strategies}
        if strategy not in known:
            raise SpecError(f"--param {name}: {game.id} has no strategy '{strategy}'; accepted: {', '.join(known)}")
        if param not in known[strategy].params:
            accepted = ", ".join(known[strategy].params) or "none"
            raise SpecError(f"--param {name}: strategy {strategy} has no parameter '{param}'; accepted: {accepted}")
        if seat_strategies and strategy not in seat_strategies:
            raise SpecError(f"--param {name}: no seat plays {strategy} (seats: {', '.join(seat_strategies)})")
        return ParamRange(name, lo, hi, step, strategy)
    p = game.param(name)
    if lo != int(lo) or hi != int(hi) or (step is not None and step != int(step)):
        raise SpecError(f"--param {name} is a rule parameter: LO, HI and STEP must be integers")
    if lo < p.lo or hi > p.hi:
        raise SpecError(f"--param {name}={int(lo)}:{int(hi)} is outside the parameter's range {p.lo}..{p.hi}")
    return ParamRange(name, int(lo), int(hi), int(step) if step is not None else None)


def strategy_space(game, spec, given=()):
    """The searched parameters of a strategy: the ranges given (`--param NAME.P=LO:HI[:STEP]` or `P=LO:HI`), and
    for every other parameter with default d the range d ± max(1, |d|)."""
    from sim.seats import parse_seat
    seat = parse_seat(game, spec, {})
    name = spec.split(":")[0] if ".py:" not in spec else spec
    out = {}
    for text in given:
        key = text.partition("=")[0].strip()
        qualified = text if key.startswith(name + ".") else f"{name}.{text.strip()}"
        param = qualified.partition("=")[0][len(name) + 1:]
        if param not in seat.params:
            accepted = ", ".join(seat.params) or "none"
            raise SpecError(f"--param {key}: strategy {name} has no parameter '{param}'; accepted: {accepted}")
        lo_hi = qualified.partition("=")[2]
        r = _parse_range(qualified.partition("=")[0], lo_hi, qualified)
        out[param] = ParamRange(f"{name}.{param}", r[0], r[1], r[2], name)
    for param, d in seat.params.items():
        if param not in out:
            half = max(1.0, abs(d))
            out[param] = ParamRange(f"{name}.{param}", d - half, d + half, None, name)
    if not out:
        raise SpecError(f"strategy {name} has no parameters to tune")
    return [out[p] for p in seat.params]


# name -> (one-line definition for --help and docs/tune.md, takes a value, value required)
TARGET_HELP = {
    "seat-gap": ("largest minus smallest seat win share (0 is fair); minimised", False, False),
    "first-player": ("seat 1's win share toward VALUE (default 1/P, the fair share)", True, False),
    "length": ("mean game length, in the game's length unit, toward VALUE", True, True),
    "decisiveness": ("mean winning margin (winner's score minus the runner-up's); maximised", False, False),
    "ties": ("share of games with a shared win toward VALUE (default 0)", True, False),
    "margin": ("mean winning margin toward VALUE (default 0: the closest games)", True, False),
}


@dataclass(frozen=True)
class Target:
    """A balance target: `measure` gives the metric of an aggregate with its 95% interval, `loss` what is minimised."""
    name: str
    goal: float | None  # the value aimed at, for targets that take one

    @property
    def label(self):
        return self.name if self.goal is None else f"{self.name}={self.goal:g}"

    def measure(self, measured):
        """(value, lo, hi) of the metric over `measured`, a list of (aggregate, focus seat): one aggregate with
        focus None for a rule search; one per seat rotation, focused on the tuned seat, for a strategy search."""
        from analysis.balance import balance_interval, balance_metrics
        from analysis.intervals import wilson
        from sim.spec import WIN_SCALE
        if self.name == "win-share":
            wins = sum(a.seat_sum[f, list(a.seat_columns).index("win60")] for a, f in measured) / WIN_SCALE
            games = sum(a.n for a, _ in measured)
            lo, hi = wilson(wins, games)
            return wins / games, lo, hi
        (agg, _), = measured
        if self.name == "seat-gap":
            balance, lo, hi = balance_interval(agg)
            return 1 - balance, 1 - hi, 1 - lo
        if self.name == "first-player":
            wins = agg.seat_sum[0, list(agg.seat_columns).index("win60")] / WIN_SCALE
            lo, hi = wilson(wins, agg.n)
            return wins / agg.n, lo, hi
        key = {"length": "duration", "decisiveness": "decisiveness", "margin": "decisiveness",
               "ties": "tie_rate"}[self.name]
        m = balance_metrics(agg)[key]
        return m["value"], m["lo"], m["hi"]

    def loss(self, value):
        if self.name == "seat-gap":
            return value
        if self.name in ("decisiveness", "win-share"):
            return -value
        return abs(value - self.goal)


WIN_SHARE = Target("win-share", None)  # a tuned strategy's win share over every seat rotation; maximised
WIN_SHARE_HELP = "the tuned strategy's win share against the field, over every seat rotation; maximised"


def parse_target(text, players):
    """'seat-gap', 'first-player[=VALUE]', 'length=VALUE', 'decisiveness', 'ties[=VALUE]', 'margin[=VALUE]'."""
    name, sep, raw = text.strip().partition("=")
    name = name.strip()
    if name not in TARGET_HELP:
        raise SpecError(f"unknown --target '{text}'; accepted: {', '.join(TARGET_HELP)}")
    _, takes_value, required = TARGET_HELP[name]
    if sep and not takes_value:
        raise SpecError(f"--target {name} takes no value (got '{text}')")
    if required and not (sep and raw.strip()):
        raise SpecError(f"--target {name} needs a value: {name}=VALUE")
    if sep:
        goal = _number(raw.strip(), f"--target {name}")
    else:
        goal = {"first-player": 1 / players, "ties": 0.0, "margin": 0.0}.get(name)
    if name in ("first-player", "ties") and not 0 <= goal <= 1:
        raise SpecError(f"--target {name}={goal:g}: a share must lie in 0..1")
    return Target(name, goal)
