"""Sen (Nasza Księgarnia, c. 2017), alias `rat-a-tat-cat` (Gamewright, 1995): a memory card game of four face-down
cards per player, where the fewest ravens win.

Rules: docs/rules/sen.md (rule ids `SEN-<n>`). Parameters, variants, strategies, columns and default data
are in `rules.py`; the decisions, option codes and observation layout in `obs.py`, the njit helpers strategies share
in `model.py`; the readable pure-Python rules in `reference/`; the njit rules in `kernel.py` (game and rounds),
`kernel_turn.py` (a turn) and `kernel_state.py` (state layout, piles); the shipped strategies in `strategies/sen.py`;
the designer notes are docs/games/sen.md.
"""
