"""What a Sen strategy sees and answers (docs/rules/sen.md §5, SEN-22..25): decisions, their option codes and the
observation layout — the plug-in contract. Plain constants, no numba; card codes live in `rules` (SEN-1).

A strategy is called as `choose(obs, params, rng) -> action` at every decision of §5, where
- `obs` is the int32 observation below: the public record plus the player's own private information (its knowledge
  table K_p and the card(s) it holds in this decision), nothing hidden — never the true dreams or the pile order;
- `params` is the seat's float64 parameter row (`StrategyInfo.params` order; plug-ins get their own `PARAMS`);
- `rng` is the game's stream (`sim.rng`), for strategies that randomise;
- `obs` is read-only: the kernel keeps it up to date between calls instead of rebuilding it.

Observation layout, int32[OBS_SIZE] (index constants `O_*`):
  kind(1)        decision being asked, D_SOURCE .. D_CALL below
  seat(1) players(1) dream_size(1)
  held_n(1) held(2)   cards the player holds in this decision, in draw order (-1 padded): 1 at D_DRAWN, 2 at
                      D_KEEP, 0 otherwise
  top(1)         top card of the face-up pile (-1 if empty)
  faceup_n(1) facedown_n(1)   pile sizes
  caller(1)      seat that called this round, -1 = none
  in_final(1)    1 during the final turns after a call (SEN-15)
  first(1)       this round's first player
  round(1)       round number, 1-based
  round_turn(1)  turns completed this round by all seats (at D_CALL the current turn already counts)
  rules(21)      the rule vector, `rules.PARAMS` order: obs[O_RULES + R_DREAM_SIZE] ... obs[O_RULES + R_MAX_ROUNDS]
  deck(13)       copies of each card code in the deck (public composition)
  ravens(13)     printed ravens of each card code (SEN-1, SEN-17)
  faceup(13)     how many cards of each code lie in the face-up pile (public since the last reshuffle, SEN-24)
  own_turns(6)   turns completed this round per seat (at D_CALL the current turn already counts)
  totals(6)      total ravens per seat before this round (SEN-20)
  know(36)       the player's knowledge table K_p (SEN-22/23): obs[O_KNOW + q * MAX_DREAM + s] is the card code
                 this player knows in seat q's slot s, or UNKNOWN (-1)

Decisions (obs[O_KIND]) and the action (one int64) each expects; anything else is illegal (error 1):
  D_SOURCE (1)       SRC_FACEUP = take the top face-up card (A, SEN-6), SRC_DRAW = draw (B, SEN-7). Asked only
                     when A is legal.
  D_FACEUP_SLOT (2)  slot 0..ds-1 that receives the face-up card.
  D_DRAWN (3)        holding held[0]: slot 0..ds-1 = B1 into that slot, OPT_DISCARD(ds) = ds = B2 (discard face up),
                     OPT_USE(ds) = ds + 1 = B3 (discard and use the power; legal only when held[0] is a special).
  D_KEEP (4)         Take 2 (take2_mode 0) found two cards held[0], held[1]: 0 or 1 = the index of the kept card.
  D_PEEK (5)         peek_action(q, s) = q * SLOT_BASE + s; own seat only when rules peek_scope = 1 (SEN-10).
  D_SWAP (6)         swap_action(i, q, j) = i * SLOT_BASE**2 + q * SLOT_BASE + j: own slot i with seat q's slot j,
                     q != seat (SEN-11).
  D_CALL (7)         1 = call "Pobudka!", 0 = don't (SEN-14). Asked only when a call is allowed.
(`peek_action`, `swap_action` and their decoders are njit code in `sim.games.sen.model`.)
"""
from sim.games.sen.rules import MAX_DREAM, N_CODES, PARAMS
from sim.spec import MAX_SEATS

# Decision kinds (§5 table); the reference asks the same kinds with the same option encodings.
D_SOURCE = 1  # D1: options [SRC_FACEUP, SRC_DRAW], asked only when A is legal (SEN-6)
D_FACEUP_SLOT = 2  # D2: options [0 .. dream_size-1]
D_DRAWN = 3  # D3: options [0 .. dream_size-1] (B1 into that slot), OPT_DISCARD(ds) (B2), OPT_USE(ds) (B3, specials)
D_KEEP = 4  # D4 (take2_mode 0, two cards found): options [0, 1] = index of the kept card in draw order
D_PEEK = 5  # D5: options (q, s) for q ascending then s ascending; own seat only with peek_scope = 1
D_SWAP = 6  # D6: options (i, q, j): own slot i outer, other seat q ascending, its slot j inner
D_CALL = 7  # D7: options [0, 1] (1 = call), asked only when SEN-14 allows a call
DECISION_NAMES = {D_SOURCE: "source", D_FACEUP_SLOT: "faceup_slot", D_DRAWN: "drawn", D_KEEP: "keep",
                  D_PEEK: "peek", D_SWAP: "swap", D_CALL: "call"}
SRC_FACEUP, SRC_DRAW = 0, 1  # D_SOURCE options
SLOT_BASE = 8  # peek action q * 8 + s; swap action i * 64 + q * 8 + j (> MAX_DREAM and MAX_SEATS)
assert SLOT_BASE >= max(MAX_DREAM, MAX_SEATS)


def OPT_DISCARD(ds):
    """D3 option B2 (put the drawn card face up): encoded as dream_size."""
    return ds


def OPT_USE(ds):
    """D3 option B3 (put the special face up and use its power): encoded as dream_size + 1."""
    return ds + 1


# Rule-vector layout: the order of rules.PARAMS (the kernel's `rp` and obs[O_RULES:]).
(R_DREAM_SIZE, R_COPIES_0_8, R_COPIES_9, R_N_TAKE2, R_N_PEEK, R_N_SWAP, R_V_TAKE2, R_V_PEEK, R_V_SWAP,
 R_REPLACE_SPECIALS, R_FACEUP_SPECIALS, R_TAKE2_MODE, R_PEEK_SCOPE, R_CALLER_PENALTY, R_FINAL_TURNS, R_CALL_AFTER,
 R_END_SCORE, R_ROUNDS, R_EMPTY_PILE, R_MAX_TURNS, R_MAX_ROUNDS) = range(len(PARAMS))
N_RULES = len(PARAMS)
assert [p.name for p in PARAMS][R_MAX_ROUNDS] == "max_rounds"
assert [p.name for p in PARAMS][R_EMPTY_PILE] == "empty_pile"

O_KIND, O_SEAT, O_PLAYERS, O_DREAM_SIZE, O_HELD_N, O_HELD = 0, 1, 2, 3, 4, 5
O_TOP, O_FACEUP_N, O_FACEDOWN_N, O_CALLER, O_IN_FINAL, O_FIRST, O_ROUND, O_ROUND_TURN = 7, 8, 9, 10, 11, 12, 13, 14
O_RULES = 15
O_DECK = O_RULES + N_RULES  # 36
O_RAVENS = O_DECK + N_CODES  # 49
O_FACEUP = O_RAVENS + N_CODES  # 62
O_OWN_TURNS = O_FACEUP + N_CODES  # 75
O_TOTALS = O_OWN_TURNS + MAX_SEATS  # 81
O_KNOW = O_TOTALS + MAX_SEATS  # 87
OBS_SIZE = O_KNOW + MAX_SEATS * MAX_DREAM  # 123
