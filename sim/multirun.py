"""Several configurations played on the same games: compare (paired differences), sweep and tournament.

Every configuration plays games 0..n-1 of the same seed, chunk by chunk in lock-step, so game i of every
configuration starts from the same random stream (common random numbers, docs/architecture.md §3) and differences
per game are paired. Paired sums are integers (win shares × 60), so they merge exactly like every aggregate.
"""
from __future__ import annotations

import itertools

from sim.backends import LocalBackend
from sim.spec import SpecError


def run_together(configs, n, *, threads=None, chunk_size=None, on_chunk=None):
    """Play games 0..n-1 of every configuration in lock-step chunks on local threads (LocalBackend); pairs
    each configuration with the first one of its player count (backends.pairing). Ctrl-C ends after the chunk in
    flight, keeping what finished. Returns a MultiResult."""
    return LocalBackend(threads).run(configs, n, chunk_size=chunk_size, on_chunk=on_chunk)


def parse_range(text):
    """'40:60:2' -> [40, 42, ..., 60] (inclusive); '1,3,7' -> [1, 3, 7]; numbers may be floats."""
    def number(raw):
        try:
            value = float(raw)
        except ValueError:
            raise SpecError(f"sweep value '{raw}' is not a number") from None
        return int(value) if value.is_integer() else value

    if ":" in text:
        parts = text.split(":")
        if len(parts) not in (2, 3):
            raise SpecError(f"malformed sweep range '{text}'; expected START:STOP:STEP")
        start, stop = number(parts[0]), number(parts[1])
        step = number(parts[2]) if len(parts) == 3 else 1
        if step <= 0:
            raise SpecError(f"sweep range '{text}' needs a positive step")
        if stop < start:
            raise SpecError(f"sweep range '{text}' runs backwards: {start} > {stop}")
        values, k = [], 0
        while start + k * step <= stop + 1e-9:
            v = start + k * step
            values.append(int(round(v)) if float(v).is_integer() else round(v, 10))
            k += 1
        return values
    values = [number(v) for v in text.split(",") if v.strip()]
    if not values:
        raise SpecError(f"malformed sweep values '{text}'")
    return values


LINEUP_MODES = {"distinct": "combinations of different strategies",  # mode -> how a report says it
                "one-vs-rest": "each strategy alone against copies of each other one",
                "all": "every mix of at least two strategies"}


def lineup_mode(count, players, mode=None):
    """The line-up mode for `count` strategies at `players` seats, checked: None means distinct when there are
    enough strategies for a table of different ones, else one-vs-rest."""
    if mode is None:
        return "distinct" if count >= players else "one-vs-rest"
    if mode not in LINEUP_MODES:
        raise SpecError(f"unknown --lineups '{mode}'; accepted: {', '.join(LINEUP_MODES)}")
    if mode == "distinct" and count < players:
        raise SpecError(f"--lineups distinct at {players} players needs at least {players} strategies, got "
                        f"{count}; use --lineups one-vs-rest or all to seat copies")
    return mode


def _rotations(group):
    """Every distinct cyclic rotation of one seating (each strategy visits each seat equally often)."""
    group = tuple(group)
    return list(dict.fromkeys(group[r:] + group[:r] for r in range(len(group))))


def _groups(strategies, players, mode):
    k = len(strategies)
    if mode == "distinct":
        return itertools.combinations(strategies, players)
    if mode == "one-vs-rest":
        return ((strategies[i],) + (strategies[j],) * (players - 1) for i in range(k) for j in range(k) if i != j)
    # all: every multiset of `players` strategies except those of one strategy only (it would meet only itself)
    return (g for g in itertools.combinations_with_replacement(strategies, players) if len(set(g)) > 1)


def tournament_lineups(strategies, players, mode=None):
    """Seatings whose every distinct cyclic rotation is played, so seat effects cancel (each strategy visits each
    seat equally often), in a fixed order (the strategies'), each once.

    distinct: every combination of `players` different strategies (needs at least `players` of them);
    one-vs-rest: each strategy alone against players − 1 copies of each other strategy;
    all: every multiset of `players` strategies with at least two different ones.
    mode None: lineup_mode's default."""
    strategies = list(strategies)
    seen = set()
    for s in strategies:
        if s in seen:
            raise SpecError(f"tournament lists strategy '{s}' twice; list each once (--lineups one-vs-rest or all "
                            "seat several copies of a strategy)")
        seen.add(s)
    if len(strategies) < 2:
        raise SpecError(f"a tournament needs at least two different strategies, got {len(strategies)}")
    mode = lineup_mode(len(strategies), players, mode)
    seatings = (r for group in _groups(strategies, players, mode) for r in _rotations(group))
    return [list(x) for x in dict.fromkeys(seatings)]  # 2 players: a-vs-b and b-vs-a are the same seatings
