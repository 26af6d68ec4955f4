"""Replaying one game with its event log: the kernel records events, the game's spec turns them into text/JSON."""
from __future__ import annotations

import numpy as np

from sim.kernel_util import TRACE_WIDTH
from sim.spec import WIN_SCALE

INITIAL_CAPACITY = 4096


def trace_game(config, game_index):
    """Game `game_index` of a run with `config`: (list of event dicts, result dict). Same stream as in the run."""
    game = config.game
    data, (sids, sparams, users) = config.kernel_inputs()
    capacity = INITIAL_CAPACITY
    while True:
        trace = np.zeros((capacity, TRACE_WIDTH), np.int32)
        trace_len = np.zeros(1, np.int64)
        seat_out = np.zeros((1, config.players, len(game.all_seat_columns)), np.int32)
        game_out = np.zeros((1, len(game.all_game_columns)), np.int32)
        game.play_kernel(*data, config.players, sids, sparams, users, config.seed, game_index, 1, seat_out,
                         game_out, trace, trace_len)
        seat_row, game_row = seat_out[0], game_out[0]
        if trace_len[0] <= capacity:
            break
        capacity = int(trace_len[0])  # the log overflowed: replay with room for all of it
    events = [game.describe_event(trace[i], config.players) for i in range(int(trace_len[0]))]
    if game_row[0]:  # a strategy broke the rules: the moves up to it, then the fault
        meaning = game.error_codes.get(int(game_row[0]), f"error code {int(game_row[0])}")
        events.append({"kind": "fault", "code": int(game_row[0]),
                       "text": f"game {game_index} (seed {config.seed}) stopped: {meaning}"})
    seat_cols = list(game.all_seat_columns)
    record = {c: seat_row[:, j].tolist() for j, c in enumerate(seat_cols) if c != "win60"}
    record["win"] = (seat_row[:, seat_cols.index("win60")] / WIN_SCALE).tolist()
    record["game"] = {c: int(game_row[j]) for j, c in enumerate(game.all_game_columns) if c != "error"}
    return events, record
