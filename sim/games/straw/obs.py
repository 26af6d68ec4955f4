"""What a Straw strategy sees and answers (docs/rules/straw.md §5, §9): the observation layout and the action code.

Plain constants, no numba: a plug-in, the kernel, the shipped strategies and the reference all take these names
from here. Card codes live in `rules` (STRAW-1).

A strategy is called as `choose(obs, params, rng) -> action` where
- `obs` is the int32 observation below: public state plus the player's own hand, nothing hidden (§5);
- `params` is the seat's float64 parameter row (`StrategyInfo.params` order; plug-ins get their own);
- `rng` is the game's stream (`sim.rng`), for strategies that randomise;
- `obs` is read-only: the kernel keeps its public parts up to date between calls instead of rebuilding them;
- the action is `code * ACTION_BASE + v`: the card code (1–23) and the Lamp value `v` (0 when no Lamp is involved).

Observation layout, int32[OBS_SIZE]:
  T(1) break_at(1) direction(1) seat(1) players(1) pile(1) round(1) dealer(1) stack_len(1) top_kind(1) top_value(1)
  lamp_min(1) lamp_max(1) carpet_clamp(1) hand_len(1) hand(10, ascending, 0-padded) hand_sizes(6) totals(6)
  played(24: cards of each code on the Camel this round) legal(24: 1 if the code is in hand and may be played now)
  n_legal(1) legal_codes(10: the distinct legal codes, ascending)
`top_kind` is the resolved effect of the last card on the Camel (STRAW-12), one of the `K_*` below.
"""
from sim.games.straw.rules import MAX_HAND, N_CODES
from sim.spec import MAX_SEATS

ACTION_BASE = 64  # action = code * ACTION_BASE + Lamp value

# Resolved effects on the Camel's stack (STRAW-12): the observation's top_kind.
K_NONE, K_ADD, K_SUB, K_LAMP, K_REV = 0, 1, 2, 3, 4

O_T, O_BREAK_AT, O_DIRECTION, O_SEAT, O_PLAYERS, O_PILE, O_ROUND, O_DEALER = 0, 1, 2, 3, 4, 5, 6, 7
O_STACK_LEN, O_TOP_KIND, O_TOP_VALUE, O_LAMP_MIN, O_LAMP_MAX, O_CLAMP, O_HAND_LEN = 8, 9, 10, 11, 12, 13, 14
O_HAND = 15
O_HAND_SIZES = O_HAND + MAX_HAND  # 25
O_TOTALS = O_HAND_SIZES + MAX_SEATS  # 31
O_PLAYED = O_TOTALS + MAX_SEATS  # 37
O_LEGAL = O_PLAYED + N_CODES  # 61
O_N_LEGAL = O_LEGAL + N_CODES  # 85
O_LEGAL_CODES = O_N_LEGAL + 1  # 86
OBS_SIZE = O_LEGAL_CODES + MAX_HAND  # 96
