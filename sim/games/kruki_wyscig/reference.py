"""Kruki / Odin's Ravens in plain Python: the readable rules (docs/rules/kruki-wyscig.md, ids RACE-n), for
differential tests against the kernel and for explaining surprising results.

Data model (RACE-10..12). The track is one doubly linked list of field records in α order
HEAD → A1 … An → Bn … B1 → TAIL, stored as flat integer lists in `Track` (one list per RACE-11 array). α walks
`f_next` from HEAD, β walks `f_prev` from TAIL. Ravens stand on field ids, never list indices, so every action card is a
local edit of a few records and links. Columns are 1..n in prose and `col_card[j - 1]` in code; the lane-A slot of
column j is record 2j, the lane-B slot 2j + 1; loop records are allocated upward from 2 + 2n and never reused.

Piles are lists with the top card at index 0 (draw = `pop(0)`); the land stack's bottom is its end (RACE-3 puts a
conflicting card there). Hands are counts per land / per action kind (RACE-19). Flight discard piles are counts per
land (public, §5); when one is reshuffled it is first laid out in ascending land order.

Draw order from the game's stream `PyStream(seed, game_index)` (the kernel draws identically):
1. Setup (RACE-3): the land cards in canonical order (`rules.build_land_cards`, ids 0..N−1) are shuffled with
   `shuffle`. For each column 1..n: the top card is taken and `below(2)` gives its first orientation (`card_rot`:
   the side shown in lane A); a conflicting card is rotated; a card that still conflicts goes to the bottom and the
   next one is taken (with its own `below(2)`).
2. RACE-6: seat 0's flight pile, seat 0's action pile, seat 1's flight pile, seat 1's action pile are each built in
   canonical order (`rules.build_flight_deck` / `build_action_deck`) and shuffled, in this order.
3. RACE-7: the start player is `below(2)` when `start_player` = −1 (no draw otherwise).
4. RACE-8: start hands, start player first; each drawn card is one pile decision (see 6).
5. Turns. Only decisions of `random` seats draw (heuristics are deterministic); the engine itself draws only to
   reshuffle a flight discard pile (`shuffle`, at the moment a card is drawn from an empty flight pile).
6. A `random` seat's decisions, each a list of options in canonical order (§5):
   - next play or stop: when no play head is legal it stops without drawing; else `below(1_000_000) <
     int(stop · 1_000_000 + 0.5)` means stop; else `below(len(heads))` picks the head, then, for rotate, remove, swap
     and slide only, `below(len(targets))` picks the target. Heads in order: flight(L) (only the next field's
     land), joker(L) by L, action options 0..7 (one head per option held and legal).
   - pile for one card: `below(len(available piles))`, piles listed flight (0) before action (1), drawn even when
     only one pile is available; no decision when none is.
   - `fixed-mix-draw`: `below(k + 1)` action cards m (only when some pile is available); then m action draws and
     k − m flight draws, no further decisions.
   - detour placement, after the card is drawn: `below(len(placements))`, placements ordered by lane (A, B),
     anchor j = 1..n−1, index 0..k, orientation 0, 1.
   - discards to the hand limit, one card at a time: the hand listed as flight cards by land then action cards by
     kind (one entry per card), `below(len(list))` picks the card to discard.
7. `rerace-tie`: a replay repeats steps 1–4 on the same stream, continuing after the previous race's draws.

Public API for tests and explanations, in reference_track.py: `Track` (+ `empty_track`, `place_main`), the path
primitives `fwd`, `back`, `fin`, `ahead`, `rem`, `runs`, `track_len`, the edits `do_flight`, `do_step`, `do_back`,
`do_rotate`, `do_remove`, `do_swap`, `do_slide`, `do_detour` (no legality checks), the target lists `rotate_targets`,
`remove_targets`, `swap_targets`, `slide_targets`, `placements`; here: `State` (+ `new_state`, `setup_game`,
`deal_start_hands`), the step functions `play_heads` (legal plays), `execute_play` (one play, with statistics),
`draw_cards`, `hand_limit`, `play_turn`, `run_race`, `adjudicate`, `record`; `observe(state, seat) -> Obs`, the only
thing a strategy sees. The kernel (kernel.py) has the same phases under the same names.
Strategies are `fn(kind, obs, options, rng, params)` (reference_strategies.py).
"""
from dataclasses import dataclass, field

from sim.rng import PyStream
from sim.spec import GameRecord, rank_and_win60
from sim.games.kruki_wyscig.obs import DEC_DISCARD, DEC_MIX, DEC_PILE, DEC_PLACE, DEC_PLAY, PILE_ACTION, PILE_FLIGHT
from sim.games.kruki_wyscig.reference_strategies import STRATEGY_FUNCS, strat_random
from sim.games.kruki_wyscig.reference_track import (
    ACTION, FLIGHT, JOKER, START, Track, check_finish, do_back, do_detour, do_flight, do_remove, do_rotate, do_slide,
    do_step, do_swap, empty_track, fwd, place_main, placements, rem, remove_targets, rotate_targets, runs,
    slide_targets, swap_targets, track_len, track_text)
from sim.games.kruki_wyscig.rules import (
    ERROR_ILLEGAL, GAME_COLUMNS, LOC_LOOP, N_KINDS, N_OPTIONS, OPTION_KIND, OPTION_NAMES, OPT_BACK1, OPT_DETOUR,
    OPT_FORWARD1, OPT_REMOVE, OPT_ROTATE, OPT_SLIDE, OPT_SWAP, OPT_TAKE2, RERACE_LIMIT, SEAT_COLUMNS, START_RANDOM,
    build_action_deck, build_flight_deck, build_land_cards)


class IllegalChoice(Exception):
    """A strategy returned an option that is not in its list (error code 1)."""


# ---------------------------------------------------------------------------------------------------------------
# Game state, setup and observation

def new_seat_stats():
    return {k: [0, 0] for k in SEAT_COLUMNS}


@dataclass
class State:
    """Everything on the table. Strategies never see this, only `observe(state, seat)`."""
    p: dict  # rule parameters
    track: Track
    stack: list  # land stack, top first (RACE-4); hidden order
    fpile: list  # per seat: flight pile, top first (hidden order)
    apile: list  # per seat: action pile, top first (hidden order)
    disc: list  # per seat: flight discard pile as counts per land (public)
    hand_f: list  # per seat: flight cards per land (RACE-19)
    hand_a: list  # per seat: action cards per kind
    start: int  # S (RACE-7)
    current: int  # seat whose turn it is
    rng: object = None
    strategies: list = None  # per seat (name or callable, params)
    trace: list = None
    turns: int = 0
    turn_opts: list = field(default_factory=lambda: [0] * N_OPTIONS)  # current turn: options played
    turn_flights: int = 0
    turn_jokers: int = 0
    actions_log: list = field(default_factory=lambda: [[0] * N_OPTIONS, [0] * N_OPTIONS])  # public
    seat: dict = field(default_factory=new_seat_stats)
    game: dict = field(default_factory=lambda: {"detours": 0, "cards_removed": 0, "first_finisher": -1,
                                                "truncated": 0, "track_len_start": 0})
    error: int = 0

    def hand_size(self, s):
        return sum(self.hand_f[s]) + sum(self.hand_a[s])


def new_state(p, track, stack=(), start=0, rng=None, strategies=None, trace=None):
    """A state on a given track with empty hands and piles (tests fill in what they need)."""
    lands = p["lands"]
    st = State(p, track, list(stack), [[], []], [[], []], [[0] * lands, [0] * lands], [[0] * lands, [0] * lands],
               [[0] * N_KINDS, [0] * N_KINDS], start, start, rng, strategies, trace)
    st.game["track_len_start"] = track_len(track)
    return st


def lay_track(p, rng):
    """RACE-3/4: shuffle the land cards and lay n columns; returns (track, land stack)."""
    card_land = build_land_cards(p)
    t = empty_track(p["track_cards"], card_land)
    stack = list(range(len(card_land)))
    rng.shuffle(stack)
    prev_a = prev_b = -1
    for j in range(1, t.n + 1):
        tries = 0
        while True:
            c = stack.pop(0)
            r = rng.below(2)  # [assumed] uniformly random first orientation
            if card_land[c][r] == prev_a or card_land[c][1 - r] == prev_b:
                r ^= 1  # rotate 180°
            if card_land[c][r] == prev_a or card_land[c][1 - r] == prev_b:
                stack.append(c)  # still conflicting (only with edited card data): bottom of the stack
                tries += 1
                if tries > len(stack):
                    raise ValueError("no land card fits column %d" % j)
                continue
            break
        place_main(t, j, c, r)
        prev_a, prev_b = card_land[c][r], card_land[c][1 - r]
    return t, stack


def setup_game(p, rng, strategies, trace=None):
    """RACE-3..7 (start hands are drawn by `deal_start_hands`)."""
    t, stack = lay_track(p, rng)
    st = new_state(p, t, stack, 0, rng, strategies, trace)
    for s in (0, 1):  # RACE-6
        st.fpile[s] = build_flight_deck(p)
        rng.shuffle(st.fpile[s])
        st.apile[s] = build_action_deck(p)
        rng.shuffle(st.apile[s])
    st.start = st.current = rng.below(2) if p["start_player"] == START_RANDOM else p["start_player"]  # RACE-7
    if trace is not None:
        trace.append({"kind": "setup", "seat": st.start, "start_player": st.start, "track": track_text(t),
                      "stack_size": len(stack)})
    return st


def deal_start_hands(st):
    """RACE-8: start player first, each draws the start hand with the draw procedure."""
    for s in (st.start, 1 - st.start):
        draw_cards(st, s, st.p["start_hand"], "start")


@dataclass
class Obs:
    """What seat `seat` may know (§5): the public state plus its own hand; never hidden orders or the other hand."""
    seat: int
    rules: dict
    start_player: int
    turn: int  # turns played so far
    final_turn: bool  # this is O's final turn (S has finished)
    track: Track  # a copy: strategies may edit it freely
    stack_size: int
    detour_card: int  # the card just drawn for a detour (DEC_PLACE), else −1
    hand_f: list  # own hand
    hand_a: list
    hand_size: list  # both seats
    fpile_size: list
    apile_size: list
    disc: list  # both flight discard piles (counts per land)
    own_fpile: list  # contents (counts per land) of the own flight pile, not its order
    own_apile: list  # contents (counts per kind) of the own action pile
    actions_log: list  # per seat, action options played so far (public)
    turn_opts: list  # options played by the seat to move in this turn
    turn_flights: int
    turn_jokers: int


def observe(st, seat, detour_card=-1):
    lands = st.p["lands"]
    return Obs(seat, dict(st.p), st.start, st.turns, bool(st.track.done[st.start]) and st.current != st.start,
               st.track.copy(), len(st.stack), detour_card, st.hand_f[seat][:], st.hand_a[seat][:],
               [st.hand_size(0), st.hand_size(1)], [len(x) for x in st.fpile], [len(x) for x in st.apile],
               [d[:] for d in st.disc], [st.fpile[seat].count(x) for x in range(lands)],
               [st.apile[seat].count(k) for k in range(N_KINDS)], [a[:] for a in st.actions_log],
               st.turn_opts[:], st.turn_flights, st.turn_jokers)


# ---------------------------------------------------------------------------------------------------------------
# Decisions

def ask(st, seat, kind, options, detour_card=-1):
    """Pass the seat's observation and the legal options to its strategy; return its (validated) choice."""
    who, sparams = st.strategies[seat]
    fn = who if callable(who) else STRATEGY_FUNCS[who]
    # §5 random play reads only the options and the stream, so no observation is built for it (a copy of the track
    # and of every public pile at each decision: a fifth of a random reference game)
    obs = None if fn is strat_random else observe(st, seat, detour_card)
    choice = fn(kind, obs, options, st.rng, sparams)
    if kind == DEC_PLAY:
        if choice is None:
            return None
        hi, ti = choice
        if not 0 <= hi < len(options):
            raise IllegalChoice(choice)
        targets = options[hi][1]
        if (targets is None) != (ti is None) or (targets is not None and not 0 <= ti < len(targets)):
            raise IllegalChoice(choice)
        return choice
    if not isinstance(choice, int) or not 0 <= choice < len(options):
        raise IllegalChoice(choice)
    return choice


def play_heads(st, s):
    """§5 play heads with their target lists (None: no target decision), in canonical order."""
    t, hf, ha = st.track, st.hand_f[s], st.hand_a[s]
    g = fwd(t, s, t.pos[s])
    if t.done[s] or g == -1:
        return []
    nxt_land = t.f_land[g]
    heads = []
    if hf[nxt_land] > 0:  # RACE-20
        heads.append(((FLIGHT, nxt_land), None))
    if not st.p["osprey_joker"] or hf[nxt_land] == 0:  # RACE-21 / osprey-joker
        heads += [((JOKER, land), None) for land in range(len(hf)) if hf[land] >= 2]
    for opt in range(N_OPTIONS):
        if ha[OPTION_KIND[opt]] == 0:
            continue
        if opt == OPT_FORWARD1:  # RACE-25 (the next field exists)
            heads.append(((ACTION, opt), None))
        elif opt == OPT_BACK1:  # RACE-26
            q = 1 - s
            if not t.done[q] and t.pos[q] != START[q]:
                heads.append(((ACTION, opt), None))
        elif opt == OPT_TAKE2:  # RACE-31
            if piles_available(st, s):
                heads.append(((ACTION, opt), None))
        elif opt == OPT_DETOUR:  # RACE-32
            if st.stack:
                heads.append(((ACTION, opt), None))
        else:
            targets = {OPT_ROTATE: rotate_targets, OPT_REMOVE: remove_targets, OPT_SWAP: swap_targets,
                       OPT_SLIDE: slide_targets}[opt](t)
            if targets:
                heads.append(((ACTION, opt), targets))
    return heads


def hand_list(st, s):
    """The hand as one entry per card: flight cards (0, land) by land, then action cards (1, kind) by kind."""
    return ([(0, x) for x in range(len(st.hand_f[s])) for _ in range(st.hand_f[s][x])]
            + [(1, k) for k in range(N_KINDS) for _ in range(st.hand_a[s][k])])


def _event(st, kind, seat, **kw):
    if st.trace is not None:
        st.trace.append({"kind": kind, "seat": seat, **kw})


# ---------------------------------------------------------------------------------------------------------------
# Drawing (RACE-17, RACE-18)

def piles_available(st, s):
    """RACE-17: available piles, flight (0) before action (1)."""
    out = []
    if st.fpile[s] or sum(st.disc[s]):
        out.append(PILE_FLIGHT)
    if st.apile[s]:
        out.append(PILE_ACTION)
    return out


def draw_one(st, s, pile, reason):
    if pile == PILE_FLIGHT:
        if not st.fpile[s]:  # RACE-17: the discards become the new flight pile
            st.fpile[s] = [x for x in range(len(st.disc[s])) for _ in range(st.disc[s][x])]
            st.disc[s] = [0] * len(st.disc[s])
            st.rng.shuffle(st.fpile[s])
            st.seat["reshuffles"][s] += 1
            _event(st, "reshuffle", s, cards=len(st.fpile[s]))
        card = st.fpile[s].pop(0)
        st.hand_f[s][card] += 1
    else:
        card = st.apile[s].pop(0)
        st.hand_a[s][card] += 1
    st.seat["cards_drawn"][s] += 1
    _event(st, "draw", s, pile=("flight", "action")[pile], card=card, reason=reason)


def draw_cards(st, s, k, reason):
    """RACE-17 D(k) (and its fixed-mix-draw variant)."""
    if st.p["fixed_mix_draw"]:
        if not piles_available(st, s):
            return
        m = ask(st, s, DEC_MIX, list(range(k + 1)))
        for i in range(k):
            avail = piles_available(st, s)
            if not avail:
                return
            want = PILE_ACTION if i < m else PILE_FLIGHT
            draw_one(st, s, want if want in avail else avail[0], reason)
        return
    for _ in range(k):
        avail = piles_available(st, s)
        if not avail:  # [assumed] remaining draws are skipped
            return
        draw_one(st, s, avail[ask(st, s, DEC_PILE, avail)], reason)


def hand_limit(st, s):
    """RACE-18: discard down to the hand limit, one card at a time."""
    while st.hand_size(s) > st.p["hand_limit"]:
        cards = hand_list(st, s)
        typ, x = cards[ask(st, s, DEC_DISCARD, cards)]
        if typ == 0:
            st.hand_f[s][x] -= 1
            st.disc[s][x] += 1
        else:
            st.hand_a[s][x] -= 1  # action cards leave the game
        st.seat["cards_discarded"][s] += 1
        _event(st, "discard", s, card=("flight", "action")[typ], value=x)


# ---------------------------------------------------------------------------------------------------------------
# Plays and turns

def execute_play(st, s, head, target):
    """Carry out one legal play of seat s (RACE-20..32) and check finishes (RACE-22)."""
    t, q = st.track, 1 - s
    typ, x = head
    before = t.pos[s]
    if typ == FLIGHT:  # RACE-20
        st.hand_f[s][x] -= 1
        st.disc[s][x] += 1
        moved = do_flight(t, s, x)
        st.seat["flights_played"][s] += 1
        st.turn_flights += 1
        st.seat["fields_forward"][s] += moved
        _event(st, "flight", s, land=x, frm=before, to=t.pos[s], fields=moved)
    elif typ == JOKER:  # RACE-21
        st.hand_f[s][x] -= 2
        st.disc[s][x] += 2
        if st.p["osprey_joker"]:  # osprey-joker: a flight of the next field's land
            moved = do_flight(t, s, t.f_land[fwd(t, s, t.pos[s])])
        else:
            moved = do_step(t, s)
        st.seat["jokers"][s] += 1
        st.turn_jokers += 1
        st.seat["fields_forward"][s] += moved
        _event(st, "joker", s, land=x, frm=before, to=t.pos[s], fields=moved)
    else:  # RACE-23: the card leaves the hand before its effect
        st.hand_a[s][OPTION_KIND[x]] -= 1
        st.seat["actions_used_" + OPTION_NAMES[x]][s] += 1
        st.turn_opts[x] += 1
        st.actions_log[s][x] += 1
        info = {}
        if x == OPT_FORWARD1:  # RACE-25
            do_step(t, s)
            st.seat["fields_forward"][s] += 1
            info = {"frm": before, "to": t.pos[s]}
        elif x == OPT_BACK1:  # RACE-26
            was = t.pos[q]
            do_back(t, q)
            st.seat["fields_pushed_back"][q] += 1
            info = {"frm": was, "to": t.pos[q]}
        elif x == OPT_ROTATE:  # RACE-27
            do_rotate(t, target)
            info = {"card": target}
        elif x == OPT_REMOVE:  # RACE-28
            do_remove(t, target)
            st.game["cards_removed"] += 1
            info = {"card": target}
        elif x == OPT_SWAP:  # RACE-29
            do_swap(t, *target)
            info = {"cards": list(target)}
        elif x == OPT_SLIDE:  # RACE-30
            do_slide(t, *target)
            info = {"card": target[0], "lane": "AB"[target[1]]}
        elif x == OPT_TAKE2:  # RACE-31
            _event(st, "action", s, option=OPTION_NAMES[x])
            draw_cards(st, s, st.p["take_cards"], "take2")
            info = None
        else:  # RACE-32
            c = st.stack.pop(0)
            _event(st, "detour_card", s, card=c, lands=list(t.card_land[c]))
            opts = placements(t)
            lane, j, i, r = opts[ask(st, s, DEC_PLACE, opts, c)]
            do_detour(t, c, lane, j, i, r)
            st.game["detours"] += 1
            info = {"card": c, "lane": "AB"[lane], "anchor": j, "index": i, "rot": r}
        if info is not None:
            _event(st, "action", s, option=OPTION_NAMES[x], **info)
    check_finish(t)  # RACE-22
    if st.trace is not None:
        _event(st, "track", s, track=track_text(t), pos=list(t.pos), rem=[rem(t, 0), rem(t, 1)],
               runs=[runs(t, 0), runs(t, 1)])


def play_turn(st):
    """RACE-16: plays until the player stops or finishes; then (unless finished) draw and hand limit."""
    s = st.current
    st.turn_opts, st.turn_flights, st.turn_jokers = [0] * N_OPTIONS, 0, 0
    _event(st, "turn", s, turn=st.turns + 1, hand=hand_list(st, s))
    while True:
        heads = play_heads(st, s)
        choice = ask(st, s, DEC_PLAY, heads) if heads else None  # nothing legal: stop, no decision
        if choice is None:
            break
        hi, ti = choice
        head, targets = heads[hi]
        execute_play(st, s, head, None if targets is None else targets[ti])
        if st.track.done[s]:  # the turn ends at once, no draw
            _event(st, "finish", s, hand=st.hand_size(s))
            return
    _event(st, "stop", s)
    draw_cards(st, s, st.p["draw_per_turn"], "end")
    hand_limit(st, s)


def run_race(st):
    """RACE-16, RACE-33, RACE-35: turns alternate until the end condition (or the cap)."""
    S, O = st.start, 1 - st.start  # noqa: E741  (S starts, O is the other seat, as in the rules text)
    while True:
        final = bool(st.track.done[S])  # this turn is O's final turn
        if not final and st.turns >= st.p["max_turns"]:  # RACE-35
            st.game["truncated"] = 1
            return
        s = st.current
        play_turn(st)
        st.turns += 1
        if st.track.done[s] and st.game["first_finisher"] == -1:
            st.game["first_finisher"] = s
        if (s == O and st.track.done[O]) or final:  # RACE-33
            return
        st.current = 1 - s


def adjudicate(st):
    """RACE-33..36: (shares in sixtieths via rank_and_win60 keys, winner or −1, tie-break info)."""
    t, S, O = st.track, st.start, 1 - st.start  # noqa: E741
    info = {"tiebreak_decided": 0, "final_turn_finish": 0, "equal_hands": False}
    if st.game["truncated"]:  # RACE-35: smaller rem wins
        keys = [-rem(t, 0), -rem(t, 1)]
    elif t.done[S] and t.done[O]:  # RACE-34: hand sizes
        info["tiebreak_decided"], info["final_turn_finish"] = 1, 1
        keys = [st.hand_size(0), st.hand_size(1)]
        info["equal_hands"] = keys[0] == keys[1]
    else:
        keys = [t.done[0], t.done[1]]
    return keys, info


def record(st, keys, info, reraces):
    t = st.track
    seat = {k: list(v) for k, v in st.seat.items()}
    seat["final_hand"] = [st.hand_size(0), st.hand_size(1)]
    game = dict(st.game)
    game.update(start_player=st.start, turns=st.turns, reraces=reraces, track_len_end=track_len(t),
                gaps_end=sum(t.f_gap), loop_cards_end=t.card_loc.count(LOC_LOOP), shared_win=0, winner_lead=0,
                winner_lead_runs=0, tiebreak_decided=info["tiebreak_decided"],
                final_turn_finish=info["final_turn_finish"])
    if st.error:
        score, rank, win60 = [0, 0], [0, 0], [0, 0]
    else:
        rank, win60 = rank_and_win60(keys)
        score = [w // 30 for w in win60]  # RACE-36: win share in halves (2 win, 1 shared, 0 loss)
        if rank == [1, 1]:
            game["shared_win"] = 1
        elif not (t.done[0] and t.done[1]):
            w = rank.index(1)
            game["winner_lead"] = rem(t, 1 - w) - rem(t, w)
            game["winner_lead_runs"] = runs(t, 1 - w) - runs(t, w)
    seat.update(score=score, rank=rank, win60=win60)
    game["error"] = st.error
    return GameRecord(seat={k: seat[k] for k in ("score", "rank", "win60") + SEAT_COLUMNS},
                      game={k: game[k] for k in ("error",) + GAME_COLUMNS})


def play_game(params, players, seed, game_index, strategies, trace=None):
    """One whole game (RACE-3..36, rerace-tie included); the same integer columns as the kernel."""
    assert players == 2
    rng = PyStream(seed, game_index)
    reraces = 0
    while True:
        st = setup_game(params, rng, strategies, trace)
        try:
            deal_start_hands(st)
            run_race(st)
        except IllegalChoice as exc:
            st.error = ERROR_ILLEGAL
            _event(st, "error", st.current, choice=repr(exc))
            return record(st, [0, 0], {"tiebreak_decided": 0, "final_turn_finish": 0}, reraces)
        keys, info = adjudicate(st)
        if info["equal_hands"] and params["rerace_tie"] and reraces < RERACE_LIMIT:  # variant rerace-tie
            reraces += 1
            _event(st, "rerace", -1, number=reraces, hands=keys)
            continue
        rec = record(st, keys, info, reraces)
        _event(st, "end", -1, win60=rec.seat["win60"], turns=st.turns, truncated=st.game["truncated"],
               tiebreak=info["tiebreak_decided"], hands=[st.hand_size(0), st.hand_size(1)])
        return rec
