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

Step functions (tests inject a `State` and drive these with scripted agents): `start_round`, `play_turn`
(one whole turn including its call decision and what follows it), `play_round` (turns until the round ends),
`score_round`, `game_finished`, `record`; and the primitives `draw`, `reshuffle`, `take_faceup`, `place_drawn`,
`resolve_drawn` (D3 and any Take 2 chain after it, as a loop), `use_take2`, `use_peek`, `use_swap`.
`make_state` builds an injected state (the face-down pile given top first, as §10 lists it).

Decisions. Every decision goes through `ask`, which builds an `Observation` for the deciding seat — K_p, the public
record (face-up pile since the last reshuffle, pile size, caller, turn counters, totals, rule parameters, deck
composition) and the card(s) p holds now (SEN-24, SEN-25) — and passes ONLY it, the canonical list of legal options
and the game's random stream to the agent: `agent(kind, obs, options, rng) -> option`. A returned value not in
`options` ends the game with error 1. Decision kinds and option encodings are in rules.py (D_SOURCE … D_CALL).

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

from dataclasses import dataclass
from types import MappingProxyType

from sim.rng import PyStream
from sim.spec import GameRecord, rank_and_win60

from . import rules as R
from .rules import (D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, DECISION_NAMES, PEEK,
                    SRC_DRAW, SRC_FACEUP, SWAP, TAKE2, UNKNOWN)

P_CALL_SCALE = 1_000_000


class IllegalAction(Exception):
    """A strategy returned an option that was not offered (error code 1)."""


class ChainCap(Exception):
    """A turn drew more than rules.MAX_TURN_DRAWS cards (error code 2)."""


def is_special(c):
    return c >= TAKE2


class State:
    """The whole game state, hidden parts included. Strategies never see it: they get an `Observation`."""

    def __init__(self, params, players):
        self.params = dict(params)
        self.n = players
        self.ds = params["dream_size"]
        self.ravens = R.ravens_table(params)
        self.deck = R.build_deck(params)
        self.deck_counts = tuple(R.card_counts(params))
        self.dreams = [[UNKNOWN] * self.ds for _ in range(players)]
        self.know = [[[UNKNOWN] * self.ds for _ in range(players)] for _ in range(players)]
        self.facedown = []  # top = last
        self.faceup = []  # bottom -> top
        self.totals = [0] * players
        self.rounds_played = 0
        self.first = 0
        self.to_move = 0
        self.caller = -1
        self.call_turn = 0
        self.round_turn = 0
        self.own_turns = [0] * players
        self.in_final = False
        self.final_left = 0
        self.round_over = False
        self.end_reason = ""
        self.turn_draws = 0
        self.round_scores = [0] * players
        self.round_log = []  # per round: first, caller, call_turn, end_reason, scores
        self.capped = 0
        self.error = 0
        self.stats = {c: 0 for c in R.GAME_COLUMNS}
        self.seat_stats = {c: [0] * players for c in R.SEAT_COLUMNS}

    def cards_in_play(self):
        """Every card in dreams and piles (for conservation checks)."""
        return [c for d in self.dreams for c in d] + list(self.facedown) + list(self.faceup)


def make_state(params, players, dreams, facedown_top_first=(), faceup=(), know=None, first=0, to_move=None,
               totals=None, round_turn=0, own_turns=None):
    """An injected state (§10 scenarios): dreams slot 0→3, the face-down pile listed TOP FIRST (as the rules file
    lists it), the face-up pile bottom→top. `know` maps (p, q) -> list of codes/UNKNOWN for K_p[q]."""
    st = State(params, players)
    st.dreams = [list(d) for d in dreams]
    st.facedown = list(reversed(facedown_top_first))
    st.faceup = list(faceup)
    for (p, q), row in (know or {}).items():
        st.know[p][q] = list(row)
    st.first = first
    st.to_move = first if to_move is None else to_move
    st.totals = list(totals) if totals is not None else [0] * players
    st.round_turn = round_turn
    st.own_turns = list(own_turns) if own_turns is not None else [0] * players
    return st


# ---------------------------------------------------------------- observation (SEN-24, SEN-25)

@dataclass(frozen=True)
class Observation:
    """What seat `seat` may know at a decision: nothing here depends on hidden cards or the pile order."""
    seat: int
    players: int
    dream_size: int
    params: MappingProxyType  # rule parameters (public, read-only)
    deck_counts: tuple  # copies of each code 0..12 (public deck composition)
    ravens: tuple  # printed ravens of each code
    know: tuple  # K_p as know[q][s] (SEN-22/23)
    faceup: tuple  # the face-up pile since the last reshuffle, bottom -> top (public)
    facedown_count: int
    held: tuple  # the card(s) the player holds in this decision (own private)
    caller: int  # -1 = nobody has called this round
    in_final: bool
    first: int  # this round's first player
    round_no: int  # 1-based
    round_turn: int  # turns completed this round (at D7 the current turn already counts)
    own_turns: tuple  # turns completed this round per seat (at D7 the current turn already counts)
    totals: tuple


def observe(st, seat, held=()):
    return Observation(
        seat=seat, players=st.n, dream_size=st.ds, params=MappingProxyType(st.params), deck_counts=st.deck_counts,
        ravens=tuple(st.ravens), know=tuple(tuple(row) for row in st.know[seat]), faceup=tuple(st.faceup),
        facedown_count=len(st.facedown), held=tuple(held), caller=st.caller, in_final=st.in_final,
        first=st.first, round_no=st.rounds_played + 1, round_turn=st.round_turn, own_turns=tuple(st.own_turns),
        totals=tuple(st.totals))


class Ctx:
    """What drives a game: one agent per seat, the game's random stream, the optional trace and test hooks."""

    def __init__(self, agents, rng, trace=None, on_decision=None, on_turn_end=None):
        self.agents = agents
        self.rng = rng
        self.trace = trace
        self.on_decision = on_decision  # (state, seat, kind, options, held, obs, choice) -> None
        self.on_turn_end = on_turn_end  # (state, seat) -> None


def emit(ctx, kind, seat=-1, **kw):
    if ctx.trace is not None:
        ctx.trace.append({"kind": kind, "seat": seat, **kw})


def ask(st, ctx, seat, kind, options, held=()):
    """One decision: observation → agent → checked choice."""
    obs = observe(st, seat, held)
    choice = ctx.agents[seat](kind, obs, options, ctx.rng)
    if ctx.on_decision is not None:
        ctx.on_decision(st, seat, kind, options, held, obs, choice)
    if choice not in options:
        emit(ctx, "illegal", seat, decision=DECISION_NAMES[kind], choice=choice)
        raise IllegalAction(f"seat {seat} chose {choice!r} at {DECISION_NAMES[kind]}; legal: {options}")
    emit(ctx, "decide", seat, decision=DECISION_NAMES[kind], choice=choice, n_options=len(options))
    return choice


# ---------------------------------------------------------------- primitives

def reshuffle(st, ctx):
    """SEN-13: every face-up card except the top is shuffled into a new face-down pile (top = last)."""
    rest = st.faceup[:-1]
    st.faceup = st.faceup[-1:]
    ctx.rng.shuffle(rest)
    st.facedown = rest
    st.stats["reshuffles"] += 1
    emit(ctx, "reshuffle", cards=len(rest))


def draw(st, ctx, scoring=False):
    """The top face-down card, or None when there is none (SEN-13). Counts turn draws unless `scoring`."""
    if not st.facedown:
        if st.params["empty_pile"] and not scoring:  # SEN-13 deck-out-ends: no reshuffle during play
            return None
        if len(st.faceup) <= 1:  # "Precise readings": nothing to reshuffle, the draw finds nothing
            return None
        reshuffle(st, ctx)
    c = st.facedown.pop()
    if not scoring:
        st.turn_draws += 1
        if st.turn_draws > R.MAX_TURN_DRAWS:
            raise ChainCap(f"more than {R.MAX_TURN_DRAWS} cards drawn in one turn")
        st.stats["cards_drawn"] += 1
        if is_special(c):  # specials_drawn_* counts every special coming off the pile in a turn (§5)
            st.stats["specials_drawn_" + R.SPECIAL_NAMES[c]] += 1
    return c


def take_faceup(st, ctx, p, s):
    """SEN-6 action A: the top face-up card goes into slot s; the displaced card goes face up."""
    c = st.faceup.pop()
    old = st.dreams[p][s]
    st.dreams[p][s] = c
    st.faceup.append(old)
    for r in range(st.n):  # SEN-23.3: the card was public
        st.know[r][p][s] = c
    emit(ctx, "take_faceup", p, card=c, slot=s, displaced=old)


def place_drawn(st, ctx, p, c, s):
    """SEN-7 B1: a drawn card goes into slot s; the displaced card goes face up (SEN-12)."""
    old = st.dreams[p][s]
    st.dreams[p][s] = c
    st.faceup.append(old)
    for r in range(st.n):  # SEN-23.4: only p knows the new card
        st.know[r][p][s] = c if r == p else UNKNOWN
    emit(ctx, "place", p, card=c, slot=s, displaced=old)


def resolve_drawn(st, ctx, p, c):
    """D3 for a card p holds after drawing it (SEN-7 B1/B2/B3), and every card a Take 2 chain brings after it.

    Written as a loop, not recursion: a used Take 2 hands over its kept card (take2_mode 0) or its first card
    (take2_mode 1, with a second card pending if that one goes B2); nothing remains to do after the handed-over
    card is resolved, so powers chain without nesting (SEN-8, SEN-9).
    """
    ds = st.ds
    second_pending = False  # take2_mode 1: this card is a Take 2's first card; a B2 brings a second (SEN-9)
    while True:
        options = list(range(ds)) + [R.OPT_DISCARD(ds)] + ([R.OPT_USE(ds)] if is_special(c) else [])
        ch = ask(st, ctx, p, D_DRAWN, options, held=(c,))
        if ch < ds:  # B1
            place_drawn(st, ctx, p, c, ch)
            return
        if ch == R.OPT_DISCARD(ds):  # B2
            st.faceup.append(c)
            emit(ctx, "discard", p, card=c)
            if not second_pending:
                return
            c = draw(st, ctx)
            emit(ctx, "take2_draw", p, cards=[] if c is None else [c])
            if c is None:
                return
            second_pending = False
            continue
        # B3: face up first, then the power (SEN-7, SEN-12)
        st.faceup.append(c)
        name = R.SPECIAL_NAMES[c]
        st.stats["specials_used_" + name] += 1
        emit(ctx, "use", p, card=c, power=name)
        if c == PEEK:
            use_peek(st, ctx, p)
            return
        if c == SWAP:
            use_swap(st, ctx, p)
            return
        c, second_pending = use_take2(st, ctx, p)
        if c is None:
            return


def use_take2(st, ctx, p):
    """SEN-9 Take 2 (after the Take 2 card went face up): returns (the card to resolve next or None,
    whether a B2 of that card brings a second card)."""
    if st.params["take2_mode"] == 0:
        # Sen: draw two, look at both, reject one face up, resolve the other by B1/B2/B3 (powers chain, SEN-8).
        cards = []
        for _ in range(2):
            x = draw(st, ctx)
            if x is None:
                break
            cards.append(x)
        emit(ctx, "take2_draw", p, cards=list(cards))
        if not cards:  # "Precise readings": a Take 2 that finds no card does nothing
            return None, False
        if len(cards) == 1:  # ... one that finds one card keeps it
            return cards[0], False
        k = ask(st, ctx, p, D_KEEP, [0, 1], held=tuple(cards))
        st.faceup.append(cards[1 - k])  # the rejected card goes face up before the kept one resolves (SEN-12)
        emit(ctx, "reject", p, card=cards[1 - k], kept=cards[k])
        return cards[k], False
    # rat-a-tat-cat: one card; only after a B2 a second card (SEN-9; B3 inside allowed [assumed]).
    x = draw(st, ctx)
    emit(ctx, "take2_draw", p, cards=[] if x is None else [x])
    return x, x is not None


def use_peek(st, ctx, p):
    """SEN-10 Peek 1: p learns one slot of any dream (own slots only with peek_scope = 1)."""
    if st.params["peek_scope"] == 0:
        options = [(q, s) for q in range(st.n) for s in range(st.ds)]
    else:
        options = [(p, s) for s in range(st.ds)]
    q, s = ask(st, ctx, p, D_PEEK, options)
    st.know[p][q][s] = st.dreams[q][s]  # SEN-23.6
    emit(ctx, "peek", p, target=q, slot=s, card=st.dreams[q][s])


def use_swap(st, ctx, p):
    """SEN-11 Swap 2: blind exchange of own slot i with slot j of another seat q; knowledge travels with cards."""
    options = [(i, q, j) for i in range(st.ds) for q in range(st.n) if q != p for j in range(st.ds)]
    i, q, j = ask(st, ctx, p, D_SWAP, options)
    d = st.dreams
    d[p][i], d[q][j] = d[q][j], d[p][i]
    for r in range(st.n):  # SEN-23.7
        k = st.know[r]
        k[p][i], k[q][j] = k[q][j], k[p][i]
    st.seat_stats["swapped_against"][q] += 1
    emit(ctx, "swap", p, slot=i, target=q, target_slot=j)


# ---------------------------------------------------------------- turns and rounds

def start_round(st, ctx, first):
    """SEN-2..4: shuffle, deal round-robin from the first player, flip one card, initial peek."""
    n, ds = st.n, st.ds
    st.first = st.to_move = first
    st.caller, st.call_turn, st.round_turn = -1, 0, 0
    st.own_turns = [0] * n
    st.in_final, st.final_left, st.round_over, st.end_reason = False, 0, False, ""
    pile = list(st.deck)
    ctx.rng.shuffle(pile)  # SEN-3
    st.facedown = pile  # top = last
    st.dreams = [[UNKNOWN] * ds for _ in range(n)]
    for s in range(ds):
        for k in range(n):
            st.dreams[(first + k) % n][s] = st.facedown.pop()
    st.faceup = [st.facedown.pop()]
    st.know = [[[UNKNOWN] * ds for _ in range(n)] for _ in range(n)]  # SEN-23.1
    for p in range(n):  # SEN-4 / SEN-23.2: slots 0 and ds-1, no decision
        st.know[p][p][0] = st.dreams[p][0]
        st.know[p][p][ds - 1] = st.dreams[p][ds - 1]
    emit(ctx, "round_start", first, round=st.rounds_played + 1, dreams=[list(d) for d in st.dreams],
         faceup=list(st.faceup), facedown=len(st.facedown))


def play_turn(st, ctx):
    """One turn of `st.to_move` (SEN-5..13), then its call decision and what follows (SEN-14..16)."""
    p = st.to_move
    st.turn_draws = 0
    emit(ctx, "turn", p, round_turn=st.round_turn + 1, final=st.in_final)
    top = st.faceup[-1] if st.faceup else None
    a_legal = top is not None and (st.params["faceup_specials"] == 1 or not is_special(top))  # SEN-6
    src = ask(st, ctx, p, D_SOURCE, [SRC_FACEUP, SRC_DRAW]) if a_legal else SRC_DRAW
    if src == SRC_FACEUP:  # SEN-6: a special taken this way has no power
        s = ask(st, ctx, p, D_FACEUP_SLOT, list(range(st.ds)))
        take_faceup(st, ctx, p, s)
        st.stats["faceup_takes"] += 1
    else:  # SEN-7
        st.stats["draws"] += 1
        c = draw(st, ctx)
        emit(ctx, "draw", p, card=c)
        if c is not None:
            resolve_drawn(st, ctx, p, c)
    st.round_turn += 1
    st.own_turns[p] += 1
    st.stats["turns"] += 1
    end_of_turn(st, ctx, p)
    if ctx.on_turn_end is not None:
        ctx.on_turn_end(st, p)


def _end_round(st, ctx, reason):
    st.round_over = True
    st.end_reason = reason
    emit(ctx, "round_end", -1, reason=reason, caller=st.caller, turns=st.round_turn)


def end_of_turn(st, ctx, p):
    """SEN-13 (deck-out-ends), SEN-14 call, SEN-15 final turns, SEN-16 cap, in that order."""
    deck_out = st.params["empty_pile"] == 1 and not st.facedown  # the pile emptied during this turn
    if st.in_final:  # SEN-15: no calls in final turns
        st.final_left -= 1
        if st.final_left == 0:
            _end_round(st, ctx, "final")
        elif deck_out:  # "a final turn that empties the pile ends the round"
            _end_round(st, ctx, "deck_out")
        else:
            st.to_move = (p + 1) % st.n
        return
    if st.caller < 0 and st.own_turns[p] >= st.params["call_after"]:  # SEN-14
        if ask(st, ctx, p, D_CALL, [0, 1]) == 1:
            st.caller = p
            st.call_turn = st.round_turn  # 1-based index of this turn in the round
            unknown = sum(1 for c in st.know[p][p] if c == UNKNOWN)
            st.stats["calls"] += 1
            st.stats["call_turn_sum"] += st.round_turn
            st.seat_stats["calls"][p] += 1
            st.seat_stats["unknown_at_call"][p] += unknown
            emit(ctx, "call", p, round_turn=st.round_turn, unknown_own=unknown)
    if st.caller >= 0:
        if deck_out:  # the call counts for SEN-19, but no final turns follow
            _end_round(st, ctx, "deck_out")
        elif st.params["final_turns"] == 1:  # SEN-15
            st.in_final = True
            st.final_left = st.n - 1
            st.to_move = (p + 1) % st.n
        else:
            _end_round(st, ctx, "call")
        return
    if deck_out:  # SEN-13 deck-out-ends
        _end_round(st, ctx, "deck_out")
    elif st.round_turn >= st.params["max_turns"]:  # SEN-16, checked after the call decision
        st.stats["capped_rounds"] += 1
        _end_round(st, ctx, "cap")
    else:
        st.to_move = (p + 1) % st.n


def play_round(st, ctx):
    while not st.round_over:
        play_turn(st, ctx)


def _number_card_in_piles(st):
    return any(c < TAKE2 for c in st.facedown) or any(c < TAKE2 for c in st.faceup)


def score_round(st, ctx):
    """SEN-17..19: reveal, replace specials (replace_specials = 1), sum ravens, caller penalty, totals."""
    n, ds = st.n, st.ds
    specials = sum(1 for d in st.dreams for c in d if is_special(c))
    st.stats["specials_in_dreams"] += specials
    emit(ctx, "reveal", -1, dreams=[list(d) for d in st.dreams])
    if st.params["replace_specials"]:  # SEN-18: caller (or first player) first, clockwise, slots left to right
        start = st.caller if st.caller >= 0 else st.first
        for k in range(n):
            q = (start + k) % n
            for s in range(ds):
                while is_special(st.dreams[q][s]):
                    if not _number_card_in_piles(st):  # "Precise readings": SEN-18 guard
                        break
                    removed = st.dreams[q][s]
                    st.faceup.append(removed)
                    x = draw(st, ctx, scoring=True)  # SEN-13 reshuffle always applies here
                    st.stats["replacements"] += 1
                    emit(ctx, "replace", q, slot=s, removed=removed, drawn=x)
                    st.dreams[q][s] = x
    raw = [sum(st.ravens[c] for c in d) for d in st.dreams]  # SEN-17 (specials left: printed ravens)
    scores = list(raw)
    penalty = 0
    if st.caller >= 0:
        c = st.caller
        others = [raw[q] for q in range(n) if q != c]
        if raw[c] <= min(others):
            st.stats["caller_lowest"] += 1
        if min(others) < raw[c] and st.params["caller_penalty"] > 0:  # SEN-19, compared before the penalty
            penalty = st.params["caller_penalty"]
            scores[c] += penalty
            st.stats["penalties"] += 1
            st.seat_stats["penalties"][c] += 1
    low = min(scores)
    for q in range(n):
        st.totals[q] += scores[q]  # SEN-20
        if scores[q] == low:
            st.seat_stats["round_lows"][q] += 1
    st.round_scores = scores
    rs = st.stats
    if st.rounds_played == 0:
        rs["min_round_score"], rs["max_round_score"] = min(scores), max(scores)
    else:
        rs["min_round_score"] = min(rs["min_round_score"], min(scores))
        rs["max_round_score"] = max(rs["max_round_score"], max(scores))
    rs["round_score_sum"] += sum(scores)
    rs["seat_rounds"] += n
    st.rounds_played += 1
    rs["rounds_played"] = st.rounds_played
    st.round_log.append({"first": st.first, "caller": st.caller, "call_turn": st.call_turn,
                         "end": st.end_reason, "scores": list(scores)})
    emit(ctx, "score", st.caller, dreams=[list(d) for d in st.dreams], raw=raw, penalty=penalty, scores=scores,
         totals=list(st.totals))


def game_finished(st):
    """SEN-20: end_score (rounds = 0) or a fixed number of rounds; max_rounds caps (flag `capped`)."""
    if st.params["rounds"] > 0:
        if st.rounds_played >= st.params["rounds"]:
            return True
    elif max(st.totals) >= st.params["end_score"]:
        return True
    if st.rounds_played >= st.params["max_rounds"]:
        st.capped = 1
        return True
    return False


def record(st):
    """The GameRecord: score = total ravens, rank/win60 by fewest ravens (SEN-21), the §8 statistics."""
    ranks, win60 = rank_and_win60([-t for t in st.totals])
    seat = {"score": list(st.totals), "rank": ranks, "win60": win60}
    for c in R.SEAT_COLUMNS:
        seat[c] = list(st.seat_stats[c])
    game = {"error": st.error}
    for c in R.GAME_COLUMNS:
        game[c] = st.stats[c]
    game["rounds_played"] = st.rounds_played
    game["capped"] = st.capped
    s = sorted(st.totals)
    game["winner_margin"] = s[1] - s[0]
    return GameRecord(seat=seat, game=game)


# ---------------------------------------------------------------- strategies (§9)

def _b(obs, c, mu):
    """b(c): ravens of a known card; μ for UNKNOWN, and for a special when replace_specials = 1 (§9)."""
    if c == UNKNOWN or (is_special(c) and obs.params["replace_specials"]):
        return mu
    return float(obs.ravens[c])


def unseen_counts(obs):
    """p's unseen multiset (SEN-24): deck − face-up pile − cards known in slots (K_p) − cards held."""
    counts = list(obs.deck_counts)
    for c in obs.faceup:
        counts[c] -= 1
    for row in obs.know:
        for c in row:
            if c != UNKNOWN:
                counts[c] -= 1
    for c in obs.held:
        counts[c] -= 1
    return counts


def mu_p(obs):
    """μ_p (§9): mean ravens of the unseen multiset (number cards only with replace_specials = 1); μ0 if empty."""
    counts = unseen_counts(obs)
    codes = range(10) if obs.params["replace_specials"] else range(R.N_CODES)
    n = sum(counts[c] for c in codes)
    if n > 0:
        return sum(counts[c] * obs.ravens[c] for c in codes) / n
    return R.mu0(obs.params)


def _own(obs, mu):
    """(b per own slot, s* = highest b with the lowest index, Ê)."""
    bs = [_b(obs, c, mu) for c in obs.know[obs.seat]]
    star = 0
    for s in range(1, len(bs)):
        if bs[s] > bs[star]:
            star = s
    e = 0.0
    for v in bs:
        e += v
    return bs, star, e


def _land(obs, c, mu, bs, star):
    """Land handling: B1 into s* if b(s*) > b(c), else B2."""
    return star if bs[star] > _b(obs, c, mu) else R.OPT_DISCARD(obs.dream_size)


def _threshold_swap_slot(obs, bs, swap_at):
    """Own slot of the highest KNOWN card if its b ≥ swap_at (tie → lowest index), else -1."""
    best = -1
    for s, c in enumerate(obs.know[obs.seat]):
        if c != UNKNOWN and (best < 0 or bs[s] > bs[best]):
            best = s
    return best if best >= 0 and bs[best] >= swap_at else -1


def threshold_strategy(kind, obs, options, rng, prm):
    """§9.2 `threshold`: own slots and μ0 only."""
    mu = R.mu0(obs.params)
    p, ds = obs.seat, obs.dream_size
    bs, star, e = _own(obs, mu)
    if kind == D_SOURCE:
        top = _b(obs, obs.faceup[-1], mu)
        return SRC_FACEUP if top <= prm["keep_max"] and bs[star] > top else SRC_DRAW
    if kind == D_FACEUP_SLOT:
        return star
    if kind == D_DRAWN:
        c = obs.held[0]
        if c == TAKE2:
            return R.OPT_USE(ds)
        if c == PEEK and UNKNOWN in obs.know[p]:
            return R.OPT_USE(ds)
        if c == SWAP and _threshold_swap_slot(obs, bs, prm["swap_at"]) >= 0:
            return R.OPT_USE(ds)
        return _land(obs, c, mu, bs, star)
    if kind == D_KEEP:
        return 0 if _b(obs, obs.held[0], mu) <= _b(obs, obs.held[1], mu) else 1
    if kind == D_PEEK:
        return (p, obs.know[p].index(UNKNOWN))
    if kind == D_SWAP:
        return (_threshold_swap_slot(obs, bs, prm["swap_at"]), (p + 1) % obs.players, 0)
    if kind == D_CALL:
        return 1 if e <= prm["call_at"] else 0
    raise ValueError(kind)


def _memory_peek_target(obs):
    p, n = obs.seat, obs.players
    if UNKNOWN in obs.know[p]:
        return (p, obs.know[p].index(UNKNOWN))
    if obs.params["peek_scope"] == 0:
        for d in range(1, n):
            q = (p + d) % n
            if UNKNOWN in obs.know[q]:
                return (q, obs.know[q].index(UNKNOWN))
    return None


def _memory_best_swap(obs, mu, bs):
    """Best (gain, (i, q, j)); ties → known target, nearest opponent clockwise, lower j, lower i."""
    p, n, ds = obs.seat, obs.players, obs.dream_size
    best, best_gain, best_known = None, 0.0, False
    for d in range(1, n):
        q = (p + d) % n
        for j in range(ds):
            c = obs.know[q][j]
            known = c != UNKNOWN
            bt = _b(obs, c, mu)
            for i in range(ds):
                gain = bs[i] - bt
                if best is None or gain > best_gain or (gain == best_gain and known and not best_known):
                    best, best_gain, best_known = (i, q, j), gain, known
    return best_gain, best


def memory_strategy(kind, obs, options, rng, prm):
    """§9.3 `memory`: the whole of K_p, the public record and μ_p."""
    mu = mu_p(obs)
    p, n, ds = obs.seat, obs.players, obs.dream_size
    bs, star, e = _own(obs, mu)
    if kind == D_SOURCE:
        return SRC_FACEUP if bs[star] - _b(obs, obs.faceup[-1], mu) >= prm["take_gain"] else SRC_DRAW
    if kind == D_FACEUP_SLOT:
        return star
    if kind == D_DRAWN:
        c = obs.held[0]
        if c == TAKE2:
            return R.OPT_USE(ds)
        if c == PEEK and _memory_peek_target(obs) is not None:
            return R.OPT_USE(ds)
        if c == SWAP and _memory_best_swap(obs, mu, bs)[0] >= prm["swap_gain"]:
            return R.OPT_USE(ds)
        return _land(obs, c, mu, bs, star)
    if kind == D_KEEP:
        return 0 if _b(obs, obs.held[0], mu) <= _b(obs, obs.held[1], mu) else 1
    if kind == D_PEEK:
        return _memory_peek_target(obs)
    if kind == D_SWAP:
        return _memory_best_swap(obs, mu, bs)[1]
    if kind == D_CALL:
        if e > prm["call_at"]:
            return 0
        if obs.params["caller_penalty"] > 0:
            for d in range(1, n):
                q = (p + d) % n
                eq = 0.0
                unknown = 0
                for c in obs.know[q]:
                    if c == UNKNOWN:
                        unknown += 1
                    else:
                        eq += _b(obs, c, mu)
                eq += prm["opp_unknown"] * unknown
                if e > eq:
                    return 0
        return 1
    raise ValueError(kind)


def random_strategy(kind, obs, options, rng, prm):
    """§5 table: uniform over the offered options; D7 calls with probability p_call."""
    if kind == D_CALL:
        return 1 if rng.below(P_CALL_SCALE) < prm["p_call"] * P_CALL_SCALE else 0
    return options[rng.below(len(options))]


STRATEGY_FUNCS = {"random": random_strategy, "threshold": threshold_strategy, "memory": memory_strategy}


def make_agent(name, sparams=None):
    """An agent from a strategy name and its parameters (defaults filled in); a callable is used as is."""
    if callable(name):
        return name
    info = next((s for s in R.STRATEGIES if s.name == name), None)
    if info is None:
        raise ValueError(f"unknown sen strategy '{name}'; accepted: {', '.join(STRATEGY_FUNCS)}")
    prm = {**info.params, **(sparams or {})}
    fn = STRATEGY_FUNCS[name]
    return lambda kind, obs, options, rng: fn(kind, obs, options, rng, prm)


# ---------------------------------------------------------------- a whole game

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
