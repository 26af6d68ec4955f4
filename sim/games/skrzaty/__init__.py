"""Skrzaty ("gnomes"): a reconstructed city-building card game with gnome pawns, 2-5 players (sim game id `skrzaty`).

Rules: shared/rules/skrzaty.md. `rules.py` holds the parameters, variants, strategies, output columns and the
loaders of the editable data tables in `sim/data/skrzaty/`; `reference.py` is the readable pure-Python game.
Designer notes: docs/games/skrzaty.md.
"""
