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


def tournament_lineups(strategies, players):
    """Seat line-ups so that seat effects cancel: with one strategy per seat, every cyclic rotation; with more
    strategies than seats, every combination of `players` of them, each in every rotation."""
    if len(strategies) < players:
        raise SpecError(f"a {players}-player tournament needs at least {players} strategies, got {len(strategies)}")
    if len(set(strategies)) != len(strategies):
        raise SpecError("tournament strategies must be distinct")
    lineups = []
    for group in itertools.combinations(strategies, players):
        for r in range(players):
            lineups.append(list(group[r:] + group[:r]))
    return lineups
