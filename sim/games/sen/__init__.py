"""Sen (Nasza Księgarnia, c. 2017), alias `rat-a-tat-cat` (Gamewright, 1995): a memory card game of four face-down
cards per player, where the fewest ravens win.

Rules: docs/rules/sen.md (rule ids `SEN-<n>`). Parameters, variants, strategies, columns and default data
are in `rules.py`; the readable pure-Python rules are in `reference.py`; the njit rules in `kernel.py`; the shipped
strategies and the observation layout in `strategies/sen.py`; the designer notes are docs/games/sen.md.
"""
