"""Kruki (Odin's Ravens, 2nd edition) — a two-player race along a track of land cards (`sim` id `kruki-wyscig`,
alias `odins-ravens`).

Rules: docs/rules/kruki-wyscig.md (rule ids RACE-n). Designer notes: docs/games/kruki-wyscig.md. The room:
- `rules.py`: parameters, variants, strategies, output columns and the plain rule constants (lands, action kinds and
  options, the track's record codes);
- `obs.py`: the observation a strategy decides from, the decision kinds and the action encoding;
- `model.py`: the njit track model (path queries, legal targets) that the kernel and the strategies share;
- `kernel.py` (the game phase by phase), `seats.py` (decisions, draws), `track.py` (track edits), `scratch.py`
  (scratch arrays, output columns, trace event kinds): the numba kernel;
- `events.py`: `sim trace` in words;
- `reference.py` (+ `reference_track.py`, `reference_strategies.py`): the readable pure-Python rules that the kernel
  is tested against.
This file imports nothing, so importing `obs` or `model` never pulls in the kernel.
"""
