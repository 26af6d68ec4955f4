"""The sums of one block of games (what sim.aggregate.Aggregate keeps), in one compiled pass over the kernel's
outputs. The engine runs it on its own threads right after the block's games (sim.engine.run_chunk), without the
GIL, so summing scales with the threads as the games do instead of following them in serial numpy.

block_sums(seat_out(n, P, S), game_out(n, G), start, length column, batches) returns, all int64:
    seat_sum, seat_sumsq, seat_min, seat_max (P, S) | game_sum, game_sumsq, game_min, game_max (G) |
    rank_counts (P, P: seat, rank - 1) | pair_wins (P, P) | outright (P) | ties, margin_sum, margin_sumsq (1) |
    batch_n, batch_length, batch_ties, batch_margin (B) | batch_win, batch_score (B, P) |
    score_lo (P), score_counts (P, W: games with score score_lo[s] + i) | length_lo (1), length_counts (L)
Seat columns 0, 1, 2 are score, rank (1 = best) and win share (sim.spec.SEAT_BASE).
"""
import numpy as np

from sim.jit import kernel_njit

_INT64_MAX = np.iinfo(np.int64).max
_INT64_MIN = np.iinfo(np.int64).min


@kernel_njit(nrt=True, nogil=True)
def block_sums(seat_out, game_out, start, length_col, batches):
    n, P, S = seat_out.shape
    G = game_out.shape[1]
    seat_sum = np.zeros((P, S), np.int64)
    seat_sumsq = np.zeros((P, S), np.int64)
    seat_min = np.full((P, S), _INT64_MAX, np.int64)
    seat_max = np.full((P, S), _INT64_MIN, np.int64)
    game_sum = np.zeros(G, np.int64)
    game_sumsq = np.zeros(G, np.int64)
    game_min = np.full(G, _INT64_MAX, np.int64)
    game_max = np.full(G, _INT64_MIN, np.int64)
    rank_counts = np.zeros((P, P), np.int64)
    pair_wins = np.zeros((P, P), np.int64)
    outright = np.zeros(P, np.int64)
    totals = np.zeros(3, np.int64)  # ties, margin_sum, margin_sumsq
    batch_n = np.zeros(batches, np.int64)
    batch_length = np.zeros(batches, np.int64)
    batch_ties = np.zeros(batches, np.int64)
    batch_margin = np.zeros(batches, np.int64)
    batch_win = np.zeros((batches, P), np.int64)
    batch_score = np.zeros((batches, P), np.int64)
    for i in range(n):
        b = (start + i) % batches
        batch_n[b] += 1
        for s in range(P):
            for k in range(S):
                v = np.int64(seat_out[i, s, k])
                seat_sum[s, k] += v
                seat_sumsq[s, k] += v * v
                seat_min[s, k] = min(seat_min[s, k], v)
                seat_max[s, k] = max(seat_max[s, k], v)
        for k in range(G):
            v = np.int64(game_out[i, k])
            game_sum[k] += v
            game_sumsq[k] += v * v
            game_min[k] = min(game_min[k], v)
            game_max[k] = max(game_max[k], v)
        winners = 0
        first = 0  # the seats in (rank, seat) order: the first two decide the winning margin
        for s in range(P):
            r = seat_out[i, s, 1]
            if 1 <= r <= P:
                rank_counts[s, r - 1] += 1
            if r == 1:
                winners += 1
            if r < seat_out[i, first, 1]:
                first = s
            for o in range(P):
                if o != s and r < seat_out[i, o, 1]:
                    pair_wins[s, o] += 1
        second = 1 if first == 0 else 0
        for s in range(P):
            if s != first and seat_out[i, s, 1] < seat_out[i, second, 1]:
                second = s
        tie = winners > 1
        margin = 0 if tie else abs(np.int64(seat_out[i, first, 0]) - np.int64(seat_out[i, second, 0]))
        if tie:
            totals[0] += 1
        totals[1] += margin
        totals[2] += margin * margin
        batch_length[b] += game_out[i, length_col]
        batch_ties[b] += 1 if tie else 0
        batch_margin[b] += margin
        for s in range(P):
            if seat_out[i, s, 1] == 1 and not tie:
                outright[s] += 1
            batch_win[b, s] += seat_out[i, s, 2]
            batch_score[b, s] += seat_out[i, s, 0]
    score_lo = seat_min[:, 0].copy()
    width = 1
    for s in range(P):
        width = max(width, seat_max[s, 0] - score_lo[s] + 1)
    score_counts = np.zeros((P, width if n > 0 else 0), np.int64)
    length_lo = np.full(1, game_min[length_col] if n > 0 else 0, np.int64)
    length_counts = np.zeros(game_max[length_col] - length_lo[0] + 1 if n > 0 else 0, np.int64)
    for i in range(n):
        for s in range(P):
            score_counts[s, seat_out[i, s, 0] - score_lo[s]] += 1
        length_counts[game_out[i, length_col] - length_lo[0]] += 1
    return (seat_sum, seat_sumsq, seat_min, seat_max, game_sum, game_sumsq, game_min, game_max, rank_counts,
            pair_wins, outright, totals, batch_n, batch_length, batch_ties, batch_margin, batch_win, batch_score,
            score_lo, score_counts, length_lo, length_counts)
