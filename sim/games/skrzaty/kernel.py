"""Skrzaty's njit kernel entry points (docs/rules/skrzaty.md): `play_games` and `kernel_data`.

One compiled kernel serves every variant and every data file: the rules arrive as the int64 parameter vector `rp`
and the data tables built by `kernel_data` (their layouts in `kernel_layout`). A game is `kernel_phases.play_game`,
the reference's phases (a round's in `kernel_round`) over the block's `Scratch`, with the small steps of
`kernel_steps`.
"""
import numpy as np
from numba import njit, types

from sim.jit import kernel_njit
from sim.kernel_util import BUILTIN_SIGNATURE, BUILTIN_TYPE, PLAY_TAIL, USER_FNS_TYPE, NativeCall
from sim.games.skrzaty import rules
from sim.games.skrzaty.kernel_layout import C_WIDTH, DECK_EXTRA, RC_WIDTH, TK_WIDTH, Scratch
from sim.games.skrzaty.kernel_phases import play_game
from sim.games.skrzaty.kernel_steps import init_static_obs
from sim.games.skrzaty.obs import MAX_HAND, MAX_P, SPACE_W, SWAP_BASE, obs_size
from sim.spec import SpecError
from strategies.skrzaty import choose_builtin


@kernel_njit(nrt=True)
def _scratch(rp, cards, rcards, spaces, end_tile, tokens, players, sids, sparams):
    """A block's working arrays for play_game, laid out as `kernel_layout.Scratch` says."""
    n_cards = cards.shape[0]
    size = obs_size(n_cards, tokens.shape[0], spaces.shape[0])
    obs = np.zeros(size, np.int32)
    init_static_obs(obs, rp, cards, spaces, end_tile, tokens, players)
    return Scratch(obs, np.zeros(size, np.int32), np.zeros(n_cards + DECK_EXTRA, np.int64),
                   np.zeros((MAX_P, MAX_HAND), np.int64), np.zeros(MAX_P, np.int64),
                   np.zeros((MAX_P, MAX_HAND), np.int64), np.zeros(MAX_P, np.int64), np.zeros(n_cards, np.int64),
                   np.zeros(MAX_P, np.int64), np.zeros((MAX_P, rules.N_COLOURS), np.int64),
                   np.zeros(max(rcards.shape[0], 1), np.int64), np.zeros(MAX_P, np.int64),
                   np.zeros(MAX_P, np.int64), np.zeros(MAX_P, np.int64), np.zeros(MAX_P, np.int64),
                   np.zeros(MAX_P, np.int64), np.zeros(MAX_P, np.int64),
                   np.zeros((MAX_P, rules.N_COLOURS), np.int64), np.zeros(MAX_P, np.int64),
                   np.zeros(1, np.uint64), cards.copy(), sids.copy(), sparams.copy())


BUILTIN = NativeCall(choose_builtin, BUILTIN_SIGNATURE)
_PLAY_SIGNATURE = types.void(
    types.int64[::1], types.int64[:, ::1], types.int64[:, ::1], types.int64[:, :, ::1], types.int64[:, ::1],
    types.int64[:, ::1], BUILTIN_TYPE, types.int64, types.int64[::1], types.float64[:, ::1], USER_FNS_TYPE,
    *PLAY_TAIL)


@njit(_PLAY_SIGNATURE, cache=True, nogil=True)
def play_games(rp, cards, rcards, spaces, end_tile, tokens, builtin, players, sids, sparams, users, seed, start,
               count, seat_out, game_out, trace, trace_len):
    """Games start .. start+count−1 into seat_out(count, players, seat columns) and game_out(count, game columns),
    one block on one scratch (every game draws from its own stream, so blocks never change results); `trace`
    (0 rows unless wanted) logs events. The engine runs blocks on its threads (sim.engine.run_chunk)."""
    (obs, uobs, deck, hands, hand_len, returned, ret_len, slot, fore, guild, row, turn_pos, ranking, rank_group,
     rank_value, rank_tie, hand_top, filled_by_colour, score_key, rng, cd, sd,
     sp) = _scratch(rp, cards, rcards, spaces, end_tile, tokens, players, sids, sparams)
    fns = (builtin, users, trace, trace_len)  # what a decision needs (kernel_steps.ask)
    for i in range(count):
        play_game(rp, rcards, spaces, end_tile, tokens, players, fns, seed, start + i, seat_out[i], game_out[i], obs,
                  uobs, deck, hands, hand_len, returned, ret_len, slot, fore, guild, row, turn_pos, ranking,
                  rank_group, rank_value, rank_tie, hand_top, filled_by_colour, score_key, rng, cd, sd, sp, trace,
                  trace_len)


def kernel_data(params, players, data=None):
    """The kernel's inputs: (rp, cards, rcards, spaces, end_tile, tokens) as kernel_layout's docstring says, and the
    strategies' dispatch.

    `data` is what `rules.load_data(paths)` returns (a `rules.SkrzatyData`), a dict of data-file paths for it, or
    None for the shipped default tables. The configuration is validated against the tables (SKRZATY-27 etc.)."""
    if data is None:
        data = rules.default_data()
    elif isinstance(data, dict):
        data = rules.load_data(data)
    full = dict(rules.DEFAULT_PARAMS)
    full.update(params)
    rules.validate(full, players, data)
    c = data.cards
    if len(c.ids) >= SWAP_BASE:
        raise SpecError(f"{c.path}: {len(c.ids)} City cards; the kernel accepts at most {SWAP_BASE - 1}")
    rp = np.array([full[p.name] for p in rules.PARAMS], np.int64)
    cards = np.array(list(zip(c.ids, c.colour, c.value, c.spaces, c.vp, c.effect, c.amount)),
                     np.int64).reshape(-1, C_WIDTH)
    rcards = np.array(rules.reward_cards_for(data, players), np.int64).reshape(-1, RC_WIDTH)
    spaces = np.zeros((max(len(data.reward_spaces.types), 1), MAX_P, SPACE_W), np.int64)
    for t, rows in rules.reward_spaces_for(data, players).items():
        spaces[t, :players] = rows
    end_tile = np.zeros((MAX_P, SPACE_W), np.int64)
    end_tile[:players] = rules.end_tile_for(data, players)
    tk = data.tokens
    tokens = np.array(list(zip(tk.count, tk.gnomes, tk.vp)), np.int64).reshape(-1, TK_WIDTH)
    return rp, cards, rcards, spaces, end_tile, tokens, BUILTIN

