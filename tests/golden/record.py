"""Play the golden configurations and write (or compare against) tests/golden/summaries.json."""
import json
import os
import sys

from tests.golden.configs import CONFIGS

PATH = os.path.join(os.path.dirname(__file__), "summaries.json")


def outcome(config_row):
    """The outcome numbers of one configuration: exact integer sums that any correct refactor must reproduce."""
    from sim.engine import configure, run_games
    from sim.registry import get_game
    _, game, players, variants, strategies, sets, strategy_sets, seed, n = config_row
    config = configure(get_game(game), players, strategies, variants, sets, seed, strategy_sets)
    agg = run_games(config, n, threads=1).aggregate
    d = agg.to_dict()
    keys = ("n", "seat_columns", "game_columns", "seat_sum", "seat_sumsq", "seat_min", "seat_max", "game_sum",
            "game_sumsq", "rank_counts", "pair_wins", "outright", "ties", "margin_sum", "score_hist", "length_hist")
    return {k: d[k] for k in keys}


def record(names=None):
    rows = [c for c in CONFIGS if names is None or c[0] in names]
    out = {}
    if os.path.exists(PATH):
        with open(PATH) as f:
            out = json.load(f)
    for row in rows:
        out[row[0]] = outcome(row)
        print(row[0], "done", flush=True)
    with open(PATH, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"), sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    record(sys.argv[1:] or None)
