"""Sen reference: the primitives, a turn, a round and its scoring, the record (SEN-2..21)."""
from __future__ import annotations

from sim.games.sen import rules as R
from sim.games.sen.obs import (D_CALL, D_DRAWN, D_FACEUP_SLOT, D_KEEP, D_PEEK, D_SOURCE, D_SWAP, OPT_DISCARD,
                               OPT_USE, SRC_DRAW, SRC_FACEUP)
from sim.games.sen.reference.state import ChainCap, ask, emit, is_special
from sim.games.sen.rules import PEEK, SWAP, TAKE2, UNKNOWN
from sim.spec import GameRecord, rank_and_win60


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
        options = list(range(ds)) + [OPT_DISCARD(ds)] + ([OPT_USE(ds)] if is_special(c) else [])
        ch = ask(st, ctx, p, D_DRAWN, options, held=(c,))
        if ch < ds:  # B1
            place_drawn(st, ctx, p, c, ch)
            return
        if ch == OPT_DISCARD(ds):  # B2
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
