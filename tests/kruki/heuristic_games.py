"""The heuristic games the kruki kernel is checked on against the reference (KRUKI-39..41), ≥ 500 per heuristic.

The reference values every candidate by the rules' definitions (§9) and plays about one greedy and half a blocker
or weighted game per second on the standard 53 tiles. So most games use smaller tile sets — rule parameters like
any other, and the kernel's code paths do not depend on the tile count — where a reference game takes 20–200 ms;
a share is played on the standard tiles. Each heuristic plays, in every run: 2, 3 and 4 players × all 16 variant
combinations, alone in every seat or mixed with random and the other heuristics, with default and with tuned
strategy parameters. `SIM_FULL_DIFF=1` adds 100 standard-tile games per standard configuration.
"""
import itertools
import os

from sim.registry import get_game
from tests.helpers import make_config, reference_mismatches

SPEC = get_game("kruki")

FULL = os.environ.get("SIM_FULL_DIFF") == "1"
VARIANTS = ("tile-draft", "random-junk", "lots-of-crows", "score-cap")
COMBOS = [c for n in range(len(VARIANTS) + 1) for c in itertools.combinations(VARIANTS, n)]  # 16

# Smaller tile sets (the standard one has 53 tiles and 38 crows), each with a twist of its own.
SMALL_SETS = (
    {"tiles_empty": 7, "tiles_tree1": 7, "tiles_tree2": 5, "tiles_tree3": 1, "tiles_trinkets": 3,  # 30 tiles
     "tiles_graveyard": 3, "crows": 20, "removed_2p": 4, "removed_3p": 2, "rj_removed_2p": 5, "rj_removed_3p": 3},
    {"tiles_empty": 5, "tiles_tree1": 6, "tiles_tree2": 4, "tiles_tree3": 2, "tiles_trinkets": 2,  # 26: murders
     "tiles_graveyard": 3, "crows": 16, "murder_threshold": 4, "removed_2p": 2, "removed_3p": 1,
     "rj_removed_2p": 3, "rj_removed_3p": 2, "tokens_two_crows": 8, "tokens_gravestones": 6},
    {"tiles_empty": 8, "tiles_tree1": 8, "tiles_tree2": 6, "tiles_tree3": 2, "tiles_trinkets": 4,  # 36: plus layout
     "tiles_graveyard": 4, "crows": 24, "start_layout": 1, "removed_2p": 6, "removed_3p": 3, "rj_removed_2p": 7,
     "rj_removed_3p": 4, "tokens_no_flocking": 6, "tokens_no_graveyards": 6, "token_keep_points": 1},
)
TUNED = {"greedy": "greedy:junk_margin=0", "blocker": "blocker:lambda=2:slack=1:junk_margin=1",
         "weighted": "weighted:w3=0.5:w4=-1.5:w5=-0.5:slack=3"}
OTHERS = {"greedy": ("blocker", "weighted"), "blocker": ("weighted", "greedy"), "weighted": ("greedy", "blocker")}
GAMES_PER_SMALL = 10
STANDARD_GAMES = 5


def _seats(name, players, i):
    """Seat strategies of configuration i: the heuristic everywhere, tuned, or mixed with the others and random."""
    one, two = OTHERS[name]
    own = TUNED[name] if i % 4 == 1 else name
    if i % 2 == 0:
        return ",".join([own] * players)
    return {2: f"{own},{one}", 3: f"random,{own},{two}", 4: f"{own},random,{one},{own}"}[players]


def small_configs(name, players):
    """16 configurations (one per variant combination) of `players` players on the smaller tile sets."""
    out = []
    for i, combo in enumerate(COMBOS):
        sets = SMALL_SETS[(i + players) % len(SMALL_SETS)]
        out.append(make_config(SPEC, players, _seats(name, players, i), variants=combo, sets=sets,
                               seed=1000 * players + i))
    return out


def standard_configs(name):
    """Configurations on the standard tiles: all seats, mixed seats, and two variant mixes."""
    one, two = OTHERS[name]
    return [make_config(SPEC, 4, name, seed=40),
            make_config(SPEC, 3, f"{name},random,{two}", variants=("tile-draft", "random-junk"), seed=41),
            make_config(SPEC, 2, TUNED[name], variants=("lots-of-crows", "score-cap"), seed=42),
            make_config(SPEC, 4, f"{name},{one},{name},{two}", variants=("random-junk",), seed=43)]


def _check(name, config, games):
    assert any(seat.name == name for seat in config.seats)
    assert reference_mismatches(config, 0, games) == [], (config.describe(), config.params)


def check_small(name, players):
    """Kernel = reference on 16 × GAMES_PER_SMALL games of `players` players (3 × 160 per heuristic)."""
    for config in small_configs(name, players):
        _check(name, config, GAMES_PER_SMALL)


def check_standard(name):
    """Kernel = reference on 4 × STANDARD_GAMES standard-tile games (the 20 that make 500)."""
    for config in standard_configs(name):
        _check(name, config, 100 if FULL else STANDARD_GAMES)
