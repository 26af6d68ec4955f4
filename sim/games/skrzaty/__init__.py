"""Skrzaty ("gnomes"): a reconstructed city-building card game with gnome pawns, 2-5 players (sim game id `skrzaty`).

Rules: docs/rules/skrzaty.md. `rules.py` holds the parameters, variants, strategies, output columns, effect and
colour codes and the loaders of the editable data tables in `sim/data/skrzaty/`; `obs.py` the observation layout
and the action encoding (the plug-in contract); `reference.py` (with `reference_state.py` and
`reference_strategies.py`) the readable pure-Python game; `kernel.py` the njit entry points over `kernel_phases.py`
(setup, the final ranking, one game), `kernel_round.py` (a round's phases), `kernel_steps.py` and `kernel_layout.py`;
`events.py` the trace decoder. The heuristics are in
`strategies/skrzaty.py`. Designer notes: docs/games/skrzaty.md.
"""
