"""Crows (`kruki`): the readable pure-Python rules (docs/rules/kruki.md), for differential tests and explanations.

Layout
------
The board is a square array of side 2*H+1 (H = `rules.board_half`, the total tile count, KRUKI-9), flat index
`cell = (y + H) * side + (x + H)`, so sorting cells sorts them in raster order (y, then x). Per cell, in Python
lists (CPython reads a list item faster than an `array` item, and reading cells is most of the reference's time):
`kind` (tile kind, GAP = -1), `crows`, `shiny` (owner seat or -1), `stones` (GRAVESTONES tokens lying there this
round), `frozen` (NO_FLOCKING tokens there this round). `tiles` is the sorted list of occupied cells. Tiles never
come within 7 cells of the array's edge, so a ray walked in the flat index always meets a gap first (N = -side,
E = +1, S = +side, W = -1).

Decisions
---------
Every choice goes through `choose(state, seat, decision, options, context) -> index into options`, with the options
in the canonical order below. A decision with a single option is taken without asking (no random number drawn).
In `play_game` the chooser builds an `Observation` (public state + the seat's own token kinds, KRUKI-37) and hands
only it, the options, the game's random stream and the strategy parameters to the strategy.

| decision      | options, in canonical order                                                                      |
|---------------|--------------------------------------------------------------------------------------------------|
| D_SOURCE      | SRC_DRAW (base game, stack not empty) · SRC_JUNK (own Junk unused) · SRC_POOL+i for pool tile i  |
|               | (tile-draft, pool order = order the tiles entered the pool) · SRC_SKIP (the source is empty)     |
| D_JUNK_MODE   | JUNK_NORMAL · JUNK_REPLACE (if some tile has no crows and no shiny)                             |
| D_REPLACE     | cells of tiles without crows and without shiny, raster order                                      |
| D_CELL        | legal cells (KRUKI-13) for the tile in hand, raster order                                        |
| D_SHINY       | legal shiny tiles (KRUKI-19), raster order                                                       |
| D_TOKEN       | TOKEN_PASS (-1) · each distinct playable held kind, kind-id order                                |
| D_TARGET      | GRAVESTONES: every tile; NO_FLOCKING: every tile with >= 1 crow; raster order                    |
| D_PAIR        | TWO_CROWS source pairs (a, b), a <= b in raster order: for i over crow tiles, for j >= i (i = j  |
|               | needs >= 2 crows); only pairs that have a destination                                            |
| D_DEST        | tiles without a shiny that are not a source, raster order                                        |
| D_SPIRAL      | N, E, S, W (0..3)                                                                                |

Random-draw order (one `PyStream(seed, game_index)` per game)
---------------------------------------------------------------
1. Setup: the stack tiles in canonical order (`rules.stack_kinds`: kind id, then copy) are shuffled with one
   `shuffle`; the first `removed` entries go to the box, the next 9 fill the start cells in layout order, the rest
   is the stack with index 0 on top (KRUKI-6, 7).
2. The token stack in canonical order (`rules.token_kinds`) is shuffled with one `shuffle`; index 0 is on top.
3. Then the game, in play order, with one draw per strategy call that needs one:
   - `random`: `below(len(options))` at every decision with 2+ options (KRUKI-38).
   - heuristics: `below(len(tied))` only when 2+ options remain tied after the stated tie-breaks, the tied options
     taken in enumeration order (cell options: cell-major, then shiny; token options: kind, then target; TWO_CROWS:
     pair, then destination). No draw for the Junk-mode decision (always normal) or the spiral (ties go N, E, S, W).
   The order of decisions is: per turn source, [Junk mode, replaced tile], cell, shiny, token, [target | pair,
   destination]; per round after the turns, one spiral decision per murder in murder order (KRUKI-29).

Heuristics, exactly (KRUKI-39..41; `_Eval`, `_heuristic`, `_source_choice`)
---------------------------------------------------------------------------
Strategies are stateless: each decision is decided afresh from the observation. β is obs.board with the candidate
applied (tile at c with min(spawn, supply) crows, own shiny at s). V_p(β) = points of p's shiny = `shiny_points`:
crows arriving by `arrivals_at` (only the crow tiles seeing s are resolved, each by what its group sends to s under
KRUKI-26; checked against the full flight `fly`), doubled on GRAVEYARD/GRAVESTONES unless NO_GRAVEYARDS, capped.
B(β) = max over legal shiny tiles of the points of a probe shiny there (0 if none). Opp = (sum over opponents q
of W_q) / (P - 1) with W_q = V_q(β) if q has a shiny, B(β) (computed once per β) if q has not moved this round,
else 0.
- (cell, shiny) options: for c in the cells (raster), for s in the legal shiny tiles of β after c (raster), or the
  single option (c, none) if there is none. Shiny-only options (shiny decision, draw proxy): c = none.
- Stage 1 value v1: greedy/blocker float(V_me); weighted w1*f1 + w2*f2 + w3*f3 + w5*f5 (this order) with f1 =
  crows arriving at s, f2 = V_me - f1, f3 = 1 if s is EMPTY and the token stack is not empty, f5 = 1 for own Junk.
  Preference pref (greedy/blocker) = f3; weighted pref = 0.
- Stage 2 (blocker, weighted): keep options with v1 >= max(v1) - slack; J = v1 - lambda*Opp (blocker),
  v1 + w4*Opp (weighted). Greedy: J = v1 for all options.
- Pick: max (J, pref); ties -> below(len(tied)) in enumeration order. The value of an option set is max J.
- Source: J_junk = value of (legal cells x shinies) for a normal Junk (f5 = 1); J_0 = value of shiny-only options.
  Stack not empty: Junk iff J_junk >= J_0 + margin; source empty: Junk iff J_junk > J_0, else skip. Pool: each pool
  tile's value (its own cells x shinies, f5 = 0); Junk iff J_junk >= best + margin, else a tied-best pool tile by
  below(len). margin = junk_margin (greedy, blocker), 0 (weighted).
- Token: candidates in order NO_GRAVEYARDS (blocker/weighted), GRAVESTONES on own shiny, NO_FLOCKING on each crow
  tile (blocker/weighted), TWO_CROWS (pair in pair order, D raster over tiles edge-adjacent to own shiny with no
  shiny, D not a source). Value = J of β after the token (f3 = f5 = 0, no slack stage). Play the best (ties drawn)
  iff value - value(pass) > token_keep_points. Target / pair / destination decisions re-pick among the same
  candidates restricted to the chosen kind (and pair).
- Spiral (all heuristics): for N, E, S, W scatter a copy, remove every shiny and token, B0 = B; maximise B0 if the
  chooser is next round's first player, else minimise; first best in N, E, S, W order (no draw).
- Junk mode: always normal (index 0); replaced tile: never reached (index 0).
"""
# The reference in four modules: board (rules on the table), state (setup, observation), play (steps, phases,
# play_game), heuristics (the strategies). Everything tests and tools use is importable from here.
from sim.games.kruki.obs import (D_CELL, D_DEST, D_JUNK_MODE, D_PAIR, D_REPLACE, D_SHINY, D_SOURCE,  # noqa: F401
                                 D_SPIRAL, D_TARGET, D_TOKEN, DECISION_NAMES, JUNK_NORMAL, JUNK_REPLACE, SRC_DRAW,
                                 SRC_JUNK, SRC_POOL, SRC_SKIP, TOKEN_PASS)
from sim.games.kruki.reference.board import (Board, arrivals_at, crow_tiles, fly, group_flight,  # noqa: F401
                                             legal_cells, legal_shiny_tiles, murder_list, playable_kinds,
                                             replace_targets, scatter, score_value, shiny_points, spiral_offsets,
                                             two_crows_dests, two_crows_pairs)
from sim.games.kruki.reference.heuristics import STRATEGY_FNS, random_strategy  # noqa: F401
from sim.games.kruki.reference.play import (IllegalAction, ask, end_round, finish, make_chooser,  # noqa: F401
                                            phase_b, phase_c, place_tile, play_game, play_junk, play_round,
                                            play_token, ranking, record, run, take_turn)
from sim.games.kruki.reference.state import Observation, State, empty_state, observe, setup  # noqa: F401
