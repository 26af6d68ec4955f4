"""Skrzaty ("gnomes"): a reconstructed city-building card game with gnome pawns, 2-5 players (sim game id `skrzaty`).

Rules: docs/rules/skrzaty.md. `rules.py` holds the parameters, variants, strategies, output columns and the
loaders of the editable data tables in `sim/data/skrzaty/`; `reference.py` is the readable pure-Python game;
`kernel.py` the njit rules; `strategies/skrzaty.py` the observation, the action encoding and the heuristics.
Designer notes: docs/games/skrzaty.md.
"""
