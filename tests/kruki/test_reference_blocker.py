"""Kernel = reference for `blocker` on ≥ 500 seeded games (the configurations: tests/kruki/heuristic_games.py)."""
import pytest

from tests.kruki.heuristic_games import check_small, check_standard


@pytest.mark.parametrize("players", [2, 3, 4])
def test_blocker_matches_reference_on_small_tile_sets(players):
    check_small("blocker", players)


def test_blocker_matches_reference_on_the_standard_tiles():
    check_standard("blocker")

