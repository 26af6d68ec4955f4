"""Where Crows' heuristics spend their time: microseconds per decision, by decision kind (`make bench` does not run
this; it is the profile behind the Crows rows of RESULTS.md).

Plays games of the given strategy to every decision (the kernel's stop-at-decision hook, as the hidden-information
test does) and times the shipped strategy's answer there, called from Python on the kernel's own observation and
scratch. The Python call adds about a microsecond per decision to every row.

    python -m benchmarks.kruki_decisions weighted greedy --games 3 --players 4 [--variant random-junk]
"""
from __future__ import annotations

import argparse
import collections
import time

from sim.engine import configure
from sim.games.kruki import kernel, kernel_state
from sim.games.kruki import obs as O
from sim.registry import get_game
from strategies.kruki import choose_builtin

DECISION_NAMES = {v: k[2:].lower() for k, v in vars(O).items() if k.startswith("D_") and isinstance(v, int)}


def _stopped_at(spec, config, game_index, stop_at):
    """The scratch of game `game_index` stopped at its decision `stop_at` (None after the game's last decision)."""
    rp, stack0, tokens0, builtin = spec.kernel_data(config.params, config.players)
    sids, sparams, users = config.kernel_inputs()[1]
    scratch = kernel_state.make_scratch(rp, stack0.shape[0], tokens0.shape[0], config.players)
    if not kernel.play_until(rp, stack0, tokens0, builtin, config.players, sids, sparams, users, config.seed,
                             game_index, stop_at, scratch):
        return None, None
    return scratch, sparams


def decision_profile(strategy, players=4, games=3, repeats=5, seed=8, variants=()):
    """{decision kind: (decisions, total seconds per game)} for `strategy` in every seat."""
    spec = get_game("kruki")
    config = configure(spec, players, strategy, variants=variants, seed=seed)
    total, count = collections.defaultdict(float), collections.Counter()
    for game in range(games):
        for stop_at in range(10_000):
            # What one decision keeps for the next of its turn (tied shinies, the board's setup) is in the scratch,
            # so each repeat plays the game to the decision again: it finds the scratch, and the caches, as the game
            # left them.
            seconds = 0.0
            for _ in range(repeats):
                s, sparams = _stopped_at(spec, config, game, stop_at)
                if s is None:
                    break
                seat, decision = int(s.obs[O.O_SEAT]), int(s.obs[O.O_DECISION])
                started = time.perf_counter()
                choose_builtin(config.seats[seat].sid, s.obs, sparams[seat], s.rng, s.work, s.fwork)
                seconds += time.perf_counter() - started
            if s is None:
                break
            total[decision] += seconds / repeats
            count[decision] += 1
    return {DECISION_NAMES.get(d, str(d)): (count[d] / games, total[d] / games) for d in count}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("strategies", nargs="+")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--variant", action="append", default=[], help="a rule variant (repeatable)")
    args = parser.parse_args()
    for strategy in args.strategies:
        profile = decision_profile(strategy, args.players, args.games, variants=args.variant)
        per_game = sum(seconds for _, seconds in profile.values())
        print(f"{strategy}, {args.players} players{''.join(' + ' + v for v in args.variant)}: "
              f"{per_game * 1e3:.2f} ms of decisions per game (mean of {args.games})")
        for name, (n, seconds) in sorted(profile.items(), key=lambda kv: -kv[1][1]):
            print(f"  {name:<12} {n:6.1f} per game  {seconds / n * 1e6:8.1f} µs each  "
                  f"{seconds / per_game:6.1%} of the time")


if __name__ == "__main__":
    main()
