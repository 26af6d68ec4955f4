"""Toy aggregates with known seat win probabilities, built through the real Aggregate.from_chunk."""
from types import SimpleNamespace

import numpy as np

from sim.aggregate import Aggregate

TOY_GAME = SimpleNamespace(all_seat_columns=("score", "rank", "win60"),
                           all_game_columns=("error", "turns", "lead_changes"), length_column="turns")
TOY_GAME_NO_LEADS = SimpleNamespace(all_seat_columns=("score", "rank", "win60"), all_game_columns=("error", "turns"),
                                    length_column="turns")


def toy_rows(probs, n, seed=0, tie_rate=0.0):
    """(seat_out, game_out) of n games: the winner is drawn with `probs`; with prob. tie_rate two random seats share
    the win. Scores: winners 40..49 (equal when tied), the rest 0..39, so ranks follow scores."""
    rng = np.random.default_rng(seed)
    probs = np.asarray(probs, float)
    P = probs.size
    scores = rng.integers(0, 40, size=(n, P))
    winner = rng.choice(P, size=n, p=probs / probs.sum())
    top = rng.integers(40, 50, size=n)
    scores[np.arange(n), winner] = top
    tie = rng.random(n) < tie_rate
    other = (winner + rng.integers(1, P, size=n)) % P
    scores[np.flatnonzero(tie), other[tie]] = top[tie]
    game_out = np.stack([np.zeros(n, int), rng.integers(20, 60, size=n), rng.poisson(2.0, size=n)],
                        axis=1).astype(np.int32)
    return seat_outputs(scores), game_out


def seat_outputs(scores):
    """(games, seats, [score, rank, win60]) from final scores: rank 1 = highest, a shared win split in 60ths."""
    ranks = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    k = (ranks == 1).sum(axis=1)
    win60 = np.where(ranks == 1, 60 // k[:, None], 0)
    return np.stack([scores, ranks, win60], axis=2).astype(np.int32)


def toy_aggregate(probs, n, seed=0, tie_rate=0.0, lead_changes=True):
    seat_out, game_out = toy_rows(probs, n, seed, tie_rate)
    game = TOY_GAME if lead_changes else TOY_GAME_NO_LEADS
    if not lead_changes:
        game_out = game_out[:, :2]
    return Aggregate.from_chunk(game, len(probs), seat_out, game_out), seat_out, game_out
