"""Crows (`kruki`, alias `crows`; Tyler Sigman, Valley Games 2010): tiles, shinies and flocking crows.

Rules: docs/rules/kruki.md (rule ids KRUKI-<n>). The room:
- `rules.py`: parameters, variants, strategies, output columns, default data, tile and token kinds (plain data);
- `obs.py`: the observation a strategy sees, the decision and option codes (the plug-in contract);
- `model.py`: njit rule code the kernel and the strategies share (flight, scoring, scatter, arrival maps);
- `kernel.py` (phases), `kernel_turn.py` (a seat's turn), `kernel_state.py` (scratch, board, decisions): the njit
  rules; `events.py`: the trace decoder;
- `reference/`: the readable pure-Python rule set used for differential tests and to explain surprising results.
The heuristics are in strategies/kruki*.py. Designer notes: docs/games/kruki.md.
"""
