"""Crows reference: the step functions (each applies one rule action; tests call them directly on injected
states), the phases of a round, the end of the game and `play_game`."""
from sim.rng import PyStream
from sim.spec import GameRecord, rank_and_win60

from sim.games.kruki.obs import (D_CELL, D_DEST, D_JUNK_MODE, D_PAIR, D_REPLACE, D_SHINY, D_SOURCE, D_SPIRAL, D_TARGET,
                                 D_TOKEN, DECISION_NAMES, JUNK_NORMAL, JUNK_REPLACE, SRC_DRAW, SRC_JUNK, SRC_POOL,
                                 SRC_SKIP, TOKEN_PASS)
from sim.games.kruki import rules as R
from sim.games.kruki.rules import EMPTY, GAP, GRAVESTONES, JUNK, NO_FLOCKING, NO_GRAVEYARDS, THREE_POINTS
from sim.games.kruki.reference.board import (crow_tiles, fly, legal_cells, legal_shiny_tiles, murder_list,
                                             playable_kinds, replace_targets, scatter, score_value, two_crows_dests,
                                             two_crows_pairs)
from sim.games.kruki.reference.heuristics import STRATEGY_FNS, random_strategy
from sim.games.kruki.reference.state import observe, setup


class IllegalAction(Exception):
    """A strategy returned something that is not an index into its options (error code 1)."""


def ask(st, choose, seat, decision, options, context=None):
    """One decision: a single option is taken without asking; otherwise `choose` returns an index."""
    if len(options) == 1:
        return 0
    i = choose(st, seat, decision, options, context or {})
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(options):
        raise IllegalAction(f"seat {seat + 1} answered {i!r} to {DECISION_NAMES[decision]} with {len(options)} options")
    return i


def place_tile(st, seat, c, kind, spawn):
    """KRUKI-13/14: put a tile of `kind` on gap c; it receives `spawn` crows from the supply (short: what it has)."""
    b = st.board
    assert b.kind[c] == GAP, "tiles are never stacked (KRUKI-13)"
    b.add_tile(c, kind)
    n = min(spawn, st.supply)
    b.crows[c] += n
    st.supply -= n
    st.event("place", seat, tile=R.KIND_NAMES[kind], at=b.xy(c), crows=n)


def move_tokens(b, src, dst):
    b.stones[dst] += b.stones[src]
    b.frozen[dst] += b.frozen[src]
    b.stones[src] = b.frozen[src] = 0


def source_options(st, seat):
    """KRUKI-12/18 and tile-draft: the tile-source options in canonical order."""
    opts = []
    if st.params["tile_draft"]:
        if st.junk_unused[seat]:
            opts.append(SRC_JUNK)
        opts.extend(SRC_POOL + i for i in range(len(st.pool)))
        if not st.pool:
            opts.append(SRC_SKIP)
    else:
        if st.stack_size > 0:
            opts.append(SRC_DRAW)
        if st.junk_unused[seat]:
            opts.append(SRC_JUNK)
        if st.stack_size == 0:
            opts.append(SRC_SKIP)
    return opts


def play_junk(st, choose, seat, own):
    """KRUKI-15/16: a Junk play (own or drawn), normal or by replacement; the whole tile step."""
    b = st.board
    st.seat_stats["junk_plays"][seat] += 1
    targets = replace_targets(b)
    modes = [JUNK_NORMAL] + ([JUNK_REPLACE] if targets else [])
    mode = modes[ask(st, choose, seat, D_JUNK_MODE, modes, {"own": own})]
    if mode == JUNK_NORMAL:  # KRUKI-15(a)
        cells = legal_cells(b)
        c = cells[ask(st, choose, seat, D_CELL, cells, {"tile": JUNK, "spawn": 0, "own": own})]
        place_tile(st, seat, c, JUNK, 0)
        return
    st.seat_stats["junk_replace"][seat] += 1  # KRUKI-15(b)
    r = targets[ask(st, choose, seat, D_REPLACE, targets, {"own": own})]
    lifted = b.kind[r]
    b.kind[r] = JUNK  # the Junk takes R's cell (the cell stays occupied)
    st.event("junk_replace", seat, at=b.xy(r), lifted=R.KIND_NAMES[lifted])
    cells = legal_cells(b)  # on the new board
    c = cells[ask(st, choose, seat, D_CELL, cells, {"tile": lifted, "spawn": 0, "own": own, "replaced": 1})]
    place_tile(st, seat, c, lifted, 0)  # R spawns no crows (KRUKI-14)
    if b.stones[r] or b.frozen[r]:  # tokens lying on R move with R [assumed]; they still lapse at KRUKI-33
        move_tokens(b, r, c)
        st.token_cells.append(c)


def tile_step(st, choose, seat):
    """KRUKI-12..18: step 1 of a turn."""
    opts = source_options(st, seat)
    src = opts[ask(st, choose, seat, D_SOURCE, opts)]
    if src == SRC_SKIP:  # KRUKI-18
        st.seat_stats["tile_skips"][seat] += 1
        st.event("skip", seat)
        return
    if src == SRC_JUNK:  # KRUKI-17
        st.junk_unused[seat] = 0
        st.event("own_junk", seat)
        play_junk(st, choose, seat, own=1)
        return
    if src == SRC_DRAW:
        kind = st.draw_tile()
        st.event("draw", seat, tile=R.KIND_NAMES[kind], stack=st.stack_size)
    else:
        kind = st.pool.pop(src - SRC_POOL)
        st.event("take_pool", seat, tile=R.KIND_NAMES[kind], pool=[R.KIND_NAMES[k] for k in st.pool])
    if kind == JUNK:  # random-junk: a drawn Junk, both modes; it never sets the own-Junk flag
        play_junk(st, choose, seat, own=0)
        return
    cells = legal_cells(st.board)
    c = cells[ask(st, choose, seat, D_CELL, cells, {"tile": kind, "spawn": R.spawn_of(kind), "own": 0})]
    place_tile(st, seat, c, kind, R.spawn_of(kind))  # KRUKI-14


def place_shiny(st, seat, s):
    """KRUKI-19/20: the shiny goes on s; an EMPTY tile earns the top token while the token stack lasts."""
    b = st.board
    b.shiny[s] = seat
    st.shiny_of[seat] = s
    gained = None
    if b.kind[s] == EMPTY and st.token_stack_size > 0:
        gained = st.tokens[st.token_pos]
        st.token_pos += 1
        st.hands[seat][gained] += 1
        st.seat_stats["tokens_gained_" + R.TOKEN_SLUGS[gained]][seat] += 1
    st.event("shiny", seat, at=b.xy(s), tile=R.KIND_NAMES[b.kind[s]], token_gained=gained is not None)
    return gained


def shiny_step(st, choose, seat):
    opts = legal_shiny_tiles(st.board)
    if not opts:  # KRUKI-19 [assumed]: no legal tile, no shiny, no score this round
        st.event("no_shiny", seat)
        return
    place_shiny(st, seat, opts[ask(st, choose, seat, D_SHINY, opts)])


def play_token(st, seat, kind, target=None):
    """KRUKI-21..25: apply a held token. target: a cell (GRAVESTONES, NO_FLOCKING) or (a, b, d) (TWO_CROWS)."""
    b = st.board
    st.hands[seat][kind] -= 1
    st.played_tokens[kind] += 1
    st.seat_stats["tokens_played_" + R.TOKEN_SLUGS[kind]][seat] += 1
    if kind == NO_GRAVEYARDS:  # KRUKI-22
        b.no_graveyards = 1
        st.event("token", seat, token=R.TOKEN_NAMES[kind])
    elif kind == GRAVESTONES:  # KRUKI-23
        b.stones[target] += 1
        st.token_cells.append(target)
        st.event("token", seat, token=R.TOKEN_NAMES[kind], at=b.xy(target))
    elif kind == NO_FLOCKING:  # KRUKI-24
        b.frozen[target] += 1
        st.token_cells.append(target)
        st.event("token", seat, token=R.TOKEN_NAMES[kind], at=b.xy(target))
    else:  # KRUKI-25
        a, a2, d = target
        b.crows[a] -= 1
        b.crows[a2] -= 1
        b.crows[d] += 2
        st.event("token", seat, token=R.TOKEN_NAMES[kind], sources=[b.xy(a), b.xy(a2)], to=b.xy(d))


def token_step(st, choose, seat):
    """KRUKI-21: optionally play one held token (after the shiny)."""
    b = st.board
    opts = [TOKEN_PASS] + playable_kinds(b, st.hands[seat])
    kind = opts[ask(st, choose, seat, D_TOKEN, opts)]
    if kind == TOKEN_PASS:
        return
    ctx = {"token": kind}
    if kind == NO_GRAVEYARDS:
        play_token(st, seat, kind)
    elif kind in (GRAVESTONES, NO_FLOCKING):
        targets = list(b.tiles) if kind == GRAVESTONES else crow_tiles(b)
        play_token(st, seat, kind, targets[ask(st, choose, seat, D_TARGET, targets, ctx)])
    else:
        pairs = two_crows_pairs(b)
        pair = pairs[ask(st, choose, seat, D_PAIR, pairs, ctx)]
        dests = two_crows_dests(b, pair)
        d = dests[ask(st, choose, seat, D_DEST, dests, {"token": kind, "pair": pair})]
        play_token(st, seat, kind, (pair[0], pair[1], d))


def take_turn(st, choose, seat):
    """KRUKI-11: tile, shiny, token."""
    st.event("turn", seat, stack=st.stack_size, pool=[R.KIND_NAMES[k] for k in st.pool])
    tile_step(st, choose, seat)
    shiny_step(st, choose, seat)
    token_step(st, choose, seat)
    st.moved[seat] = 1


def refill_pool(st):
    """tile-draft: before phase A, fill the face-up pool up to P tiles from the stack."""
    while len(st.pool) < st.players and st.stack_size > 0:
        st.pool.append(st.draw_tile())
    st.event("pool", None, pool=[R.KIND_NAMES[k] for k in st.pool], stack=st.stack_size)


def phase_b(st):
    """KRUKI-26..28: flight, then scoring (with the per-seat statistics)."""
    b = st.board
    moves = fly(b)
    st.event("flight", None, moves=[(b.xy(t), b.xy(d), q) for t, d, q in moves])
    ss = st.seat_stats
    for p in range(st.players):
        s = st.shiny_of[p]
        if s < 0:
            continue
        pts, doubled, raw = score_value(b, s, b.crows[s])
        st.scores[p] += pts
        if doubled:
            ss["graveyard_points"][p] += pts
        if raw:
            ss["cap_hits"][p] += 1
        if pts == 0:
            ss["zero_rounds"][p] += 1
        ss["max_round_score"][p] = max(ss["max_round_score"][p], pts)
        st.event("score", p, at=b.xy(s), crows=b.crows[s], doubled=doubled, capped_from=raw or None, points=pts,
                 total=st.scores[p])


def phase_c(st, choose):
    """KRUKI-29/30: murders, in the fixed order of the list taken at the start of the phase."""
    b, P = st.board, st.players
    for m in murder_list(b, st.params["murder_threshold"], st.first_player, P):
        chooser = b.shiny[m] if b.shiny[m] >= 0 else st.first_player  # [assumed] ownerless: first player
        ctx = {"murder": m, "crows": b.crows[m], "chooser": chooser}
        dirs = [R.N_DIR, R.E_DIR, R.S_DIR, R.W_DIR]
        start = dirs[ask(st, choose, chooser, D_SPIRAL, dirs, ctx)]
        n = b.crows[m]
        removed, placed = scatter(b, m, start, st.params["murder_removed"])
        st.supply += removed
        st.game_stats["murders"] += 1
        st.game_stats["crows_removed"] += removed
        st.game_stats["crows_scattered"] += placed
        st.seat_stats["murders_chosen"][chooser] += 1
        st.event("murder", chooser, at=b.xy(m), crows=n, start=R.DIR_NAMES[start], removed=removed, placed=placed)


def end_round(st):
    """KRUKI-33: shinies back, played tokens to the box, first player passes clockwise; end if the stack is empty."""
    b = st.board
    for p in range(st.players):
        if st.shiny_of[p] >= 0:
            b.shiny[st.shiny_of[p]] = -1
        st.shiny_of[p] = -1
        st.moved[p] = 0
    for c in st.token_cells:
        b.stones[c] = b.frozen[c] = 0
    st.token_cells = []
    b.no_graveyards = 0
    st.event("end_round", None, scores=list(st.scores), stack=st.stack_size, game_over=st.stack_size == 0)
    st.round += 1
    st.game_stats["rounds"] = st.round
    st.first_player = (st.first_player + 1) % st.players
    if st.stack_size == 0:  # KRUKI-34
        st.over = True


def play_round(st, choose):
    """KRUKI-10: phase A (turns from the first player, clockwise), B, C, end of round."""
    if st.params["tile_draft"]:
        refill_pool(st)
    for i in range(st.players):
        take_turn(st, choose, (st.first_player + i) % st.players)
    phase_b(st)
    phase_c(st, choose)
    end_round(st)


def finish(st):
    """KRUKI-35/36: token points, then the final statistics."""
    keep, tp = st.params["token_keep_points"], st.params["three_points_value"]
    for p in range(st.players):
        h = st.hands[p]
        pts = keep * sum(h[:R.PLAYABLE_TOKEN_KINDS]) + tp * h[THREE_POINTS]
        st.seat_stats["token_points"][p] = pts
        st.scores[p] += pts
    st.game_stats["crows_on_board_end"] = st.board.crows_on_board()
    st.event("end", None, scores=list(st.scores), token_points=list(st.seat_stats["token_points"]))


def ranking(scores, junk_unused):
    """KRUKI-36: by score, then unused own Junk above used; returns (ranks, win60, tie_break code)."""
    ranks, win60 = rank_and_win60([(s, j) for s, j in zip(scores, junk_unused)])
    top = max(scores)
    if scores.count(top) == 1:
        tie = 0
    else:
        tie = 1 if ranks.count(1) == 1 else 2
    return ranks, win60, tie


def record(st):
    ranks, win60, tie = ranking(st.scores, st.junk_unused)
    st.game_stats["tie_break"] = tie
    seat = {"score": list(st.scores), "rank": ranks, "win60": win60}
    seat.update({k: list(v) for k, v in st.seat_stats.items()})
    game = {"error": st.error}
    game.update(st.game_stats)
    return GameRecord(seat=seat, game=game)


def run(st, choose):
    """Play rounds until the game ends (or a strategy errs), then score the tokens."""
    try:
        while not st.over:
            play_round(st, choose)
    except IllegalAction as e:
        st.error = 1
        st.event("error", None, code=1, message=str(e))
        return
    finish(st)


def describe_option(st, decision, option):
    """An option in words, for the trace."""
    b = st.board
    if decision == D_SOURCE:
        if option >= SRC_POOL:
            return f"pool tile {option - SRC_POOL} ({R.KIND_NAMES[st.pool[option - SRC_POOL]]})"
        return ("draw", "own junk", "skip")[option]
    if decision == D_JUNK_MODE:
        return ("normal", "replace")[option]
    if decision == D_TOKEN:
        return "pass" if option == TOKEN_PASS else R.TOKEN_NAMES[option]
    if decision == D_PAIR:
        return [b.xy(option[0]), b.xy(option[1])]
    if decision == D_SPIRAL:
        return R.DIR_NAMES[option]
    return b.xy(option)


def make_chooser(strategies, rng):
    """The chooser used in play: build the seat's observation and ask its strategy (only the observation, the options,
    the game's random stream and the strategy's parameters are passed)."""
    fns = []
    for name, sp in strategies:
        fn = name if callable(name) else STRATEGY_FNS[name]
        fns.append((fn, dict(sp or {})))

    def choose(st, seat, decision, options, context):
        fn, sp = fns[seat]
        # KRUKI-38 reads only the options and the stream, so no observation (a copy of the board) is built for it
        obs = None if fn is random_strategy else observe(st, seat, context)
        i = fn(obs, decision, list(options), rng, sp)
        ok = isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(options)
        st.event("decide", seat, decision=DECISION_NAMES[decision], options=len(options), index=i,
                 choice=describe_option(st, decision, options[i]) if ok else None)
        return i
    return choose


def play_game(params, players, seed, game_index, strategies, trace=None):
    """One full game (docs/game-protocol.md): the same (seed, game_index) always gives the same game."""
    rng = PyStream(seed, game_index)
    st = setup(params, players, rng, trace)
    run(st, make_chooser(strategies, rng))
    return record(st)
