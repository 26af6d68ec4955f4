"""Sen — readable pure-Python reference rules (docs/rules/sen.md; rule ids `SEN-<n>` in comments).

This is the file to read when a Sen result surprises you. It is independent of the numba kernel, which must
reproduce it exactly: the same `(seed, game_index)` gives the same game in both.

State (class `State`): plain integer lists.
- `dreams[q][s]`: card code in seat q's slot s (codes in `rules`: 0–9 numbers, TAKE2 10, PEEK 11, SWAP 12).
- `know[p][q][s]`: player p's knowledge table K_p (SEN-22), the card code or UNKNOWN (−1).
- `facedown`: the face-down pile, TOP = LAST element (`pop()` draws). `faceup`: the face-up pile, bottom → top.
- round bookkeeping: `first`, `to_move`, `caller` (−1 = none), `round_turn` (turns done this round),
  `own_turns[q]`, `in_final`/`final_left` (SEN-15), `round_over`/`end_reason`; game: `totals`, `rounds_played`.
- statistics: `stats[column]` (game columns) and `seat_stats[column][q]` (seat columns), see rules.py.

Modules: `state` (State, Observation, the decision call `ask`), `play` (the step functions and primitives below),
`strategies` (the shipped heuristics as agents); this package exports them all and `play_game`.

Step functions (tests inject a `State` and drive these with scripted agents): `start_round`, `play_turn`
(one whole turn including its call decision and what follows it), `play_round` (turns until the round ends),
`score_round`, `game_finished`, `record`; and the primitives `draw`, `reshuffle`, `take_faceup`, `place_drawn`,
`resolve_drawn` (D3 and any Take 2 chain after it, as a loop), `use_take2`, `use_peek`, `use_swap`.
`make_state` builds an injected state (the face-down pile given top first, as §10 lists it).

Decisions. Every decision goes through `ask`, which builds an `Observation` for the deciding seat — K_p, the public
record (face-up pile since the last reshuffle, pile size, caller, turn counters, totals, rule parameters, deck
composition) and the card(s) p holds now (SEN-24, SEN-25) — and passes ONLY it, the canonical list of legal options
and the game's random stream to the agent: `agent(kind, obs, options, rng) -> option`. A returned value not in
`options` ends the game with error 1. Decision kinds and option encodings are in obs.py (D_SOURCE … D_CALL).

Random draws, in game order (the only source is `sim.rng.PyStream(seed, game_index)`):
1. Game start: `below(N)` picks round 1's first player (SEN-2); later rounds rotate clockwise, no draw.
2. Round start (SEN-3): the deck in canonical order (`rules.build_deck`: ascending code) is `shuffle`d; that list is
   the face-down pile (top = last element). Deal by popping the top: for slot s = 0..ds−1, for k = 0..N−1, seat
   (first + k) mod N gets slot s. Then pop one more card as the face-up pile. No draw for the initial peek (SEN-4).
3. During play, in the order decisions arise, the `random` strategy draws (nothing else does):
   D1 `below(2)` over [FACEUP, DRAW] (0 = take face-up), only when A is legal;
   D2 `below(ds)` over slots; D3 `below(ds + 1)` over [slot 0..ds−1, B2], `below(ds + 2)` adding B3 for a special;
   D4 `below(2)` over the two cards in draw order; D5 `below(N·ds)` over (q ascending, s ascending), `below(ds)`
   with peek_scope = 1; D6 `below(ds·(N−1)·ds)` over (own slot i, other seat q ascending, slot j), i outermost,
   j innermost;
   D7 `below(1_000_000) < p_call × 1_000_000` (call), asked only when SEN-14 allows a call.
4. Reshuffle (SEN-13), at the moment a draw finds the face-down pile empty (play or scoring): the face-up pile minus
   its top, bottom → top, is `shuffle`d and becomes the face-down pile (top = last element).
Scoring (SEN-18) draws cards but no random numbers except through reshuffles.

Float arithmetic of the heuristics (for an exact kernel twin): μ0 and μ_p are one division of integer sums;
Ê sums b over own slots in slot order 0..ds−1; Ê_q sums known b in slot order, then adds opp_unknown × unknowns.
"""
from __future__ import annotations

from sim.games.sen import rules as R
from sim.games.sen.reference.play import (draw, end_of_turn, game_finished, place_drawn, play_round, play_turn,
                                          record, reshuffle, resolve_drawn, score_round, start_round, take_faceup,
                                          use_peek, use_swap, use_take2)
from sim.games.sen.reference.state import (ChainCap, Ctx, IllegalAction, Observation, State, ask, emit, is_special,
                                           make_state, observe)
from sim.games.sen.reference.strategies import (STRATEGY_FUNCS, make_agent, memory_strategy, mu_p, random_strategy,
                                                threshold_strategy, unseen_counts)
from sim.rng import PyStream

__all__ = ["ChainCap", "Ctx", "IllegalAction", "Observation", "STRATEGY_FUNCS", "State", "ask", "draw", "emit",
           "end_of_turn", "game_finished", "is_special", "make_agent", "make_state", "memory_strategy", "mu_p",
           "observe", "place_drawn", "play_game", "play_round", "play_turn", "random_strategy", "record",
           "reshuffle", "resolve_drawn", "score_round", "start_round", "take_faceup", "threshold_strategy",
           "unseen_counts", "use_peek", "use_swap", "use_take2"]


def play_game(params, players, seed, game_index, strategies, trace=None, on_decision=None, on_turn_end=None):
    """Play one game (docs/game-protocol.md): `strategies` is one (name, params) per seat."""
    rng = PyStream(seed, game_index)
    st = State(params, players)
    ctx = Ctx([make_agent(name, sp) for name, sp in strategies], rng, trace, on_decision, on_turn_end)
    first = rng.below(players)  # SEN-2
    emit(ctx, "game_start", first, players=players, seed=seed, game_index=game_index)
    try:
        while True:
            start_round(st, ctx, first)
            play_round(st, ctx)
            score_round(st, ctx)
            if game_finished(st):
                break
            first = (first + 1) % players  # SEN-2
    except IllegalAction:
        st.error = R.ERROR_ILLEGAL
    except ChainCap:
        st.error = R.ERROR_CHAIN
    rec = record(st)
    emit(ctx, "game_end", -1, totals=list(st.totals), ranks=rec.seat["rank"], win60=rec.seat["win60"],
         capped=st.capped, error=st.error)
    return rec
