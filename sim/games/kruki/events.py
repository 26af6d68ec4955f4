"""`sim trace` for Crows: a kernel event row in words and fields (docs/trace.md)."""
from sim.games.kruki import kernel_state, rules
from sim.seats import seat_number


_DECISIONS = ("source", "junk mode", "replaced tile", "cell", "shiny", "token", "token target", "source pair",
              "destination", "spiral start")


_SOURCES = {0: "draws", 1: "plays own Junk", 2: "skips the tile step"}


def kind_name(k):
    return rules.KIND_NAMES[k] if 0 <= k < rules.N_KINDS else "-"


def token_name(k):
    return rules.TOKEN_NAMES[k] if 0 <= k < rules.N_TOKEN_KINDS else "-"


def describe_event(ev, players):
    kind, a, b, c, d, e, f, g = (int(x) for x in ev)
    k = kernel_state
    seat = seat_number(a)  # the seat of every event that has one (all but start_tile, round, pool, flight, end_round)
    if kind == k.EV_START_TILE:
        return {"kind": "start_tile", "x": a, "y": b, "tile": kind_name(c), "crows": d,
                "text": f"Start tile {kind_name(c)} at ({a},{b}) with {d} crows"}
    if kind == k.EV_ROUND:
        return {"kind": "round", "round": a, "first_player": seat_number(b), "stack": c, "pool": d,
                "text": f"Round {a}: seat {seat_number(b)} plays first; {c} tiles in the stack"}
    if kind == k.EV_POOL:
        pool = [kind_name(x) for x in (a, b, c, d) if x >= 0]
        return {"kind": "pool", "pool": pool, "stack": e, "text": f"  pool: {', '.join(pool) or 'empty'}; stack {e}"}
    if kind == k.EV_TURN:
        return {"kind": "turn", "seat": seat, "stack": b, "text": f"  seat {seat}'s turn"}
    if kind == k.EV_DECIDE:
        name = _DECISIONS[b] if 0 <= b < len(_DECISIONS) else str(b)
        return {"kind": "decide", "seat": seat, "decision": name, "options": c, "index": d,
                "text": f"    seat {seat} decides {name}: option {d} of {c}"}
    if kind == k.EV_ILLEGAL:
        name = _DECISIONS[b] if 0 <= b < len(_DECISIONS) else str(b)
        return {"kind": "illegal", "seat": seat, "decision": name, "options": c, "index": d,
                "text": f"    seat {seat} chose an illegal option {d} of {c} at {name}: the game stops"}
    if kind == k.EV_SOURCE:
        what = _SOURCES.get(b) if b < 3 else f"takes pool tile {b - 3}"
        tile = f" ({kind_name(c)})" if c >= 0 and b != 1 else ""
        return {"kind": "source", "seat": seat, "source": b, "tile": kind_name(c),
                "text": f"    seat {seat} {what}{tile}"}
    if kind == k.EV_PLACE:
        return {"kind": "place", "seat": seat, "x": b, "y": c, "tile": kind_name(d), "crows": e,
                "text": f"    seat {seat} places {kind_name(d)} at ({b},{c})" + (f", {e} crows" if e else "")}
    if kind == k.EV_REPLACE:
        return {"kind": "junk_replace", "seat": seat, "x": b, "y": c, "lifted": kind_name(d),
                "text": f"    seat {seat}'s Junk replaces {kind_name(d)} at ({b},{c})"}
    if kind == k.EV_SHINY:
        tok = f", gains a token ({token_name(e)})" if e >= 0 else ""
        return {"kind": "shiny", "seat": seat, "x": b, "y": c, "tile": kind_name(d), "token_gained": token_name(e),
                "text": f"    seat {seat} puts its shiny on {kind_name(d)} at ({b},{c}){tok}"}
    if kind == k.EV_NO_SHINY:
        return {"kind": "no_shiny", "seat": seat, "text": f"    seat {seat} has no legal shiny tile"}
    if kind == k.EV_TOKEN:
        at = f" on ({d},{e})" if c else ""
        return {"kind": "token", "seat": seat, "token": token_name(b), "x": d if c else None, "y": e if c else None,
                "text": f"    seat {seat} plays {token_name(b)}{at}"}
    if kind == k.EV_TWO_CROWS:
        return {"kind": "token", "seat": seat, "token": "TWO_CROWS", "from": [[b, c], [d, e]], "to": [f, g],
                "text": f"    seat {seat} plays TWO_CROWS: ({b},{c}) + ({d},{e}) -> ({f},{g})"}
    if kind == k.EV_FLIGHT:
        return {"kind": "flight", "from": [a, b], "to": [c, d], "crows": e,
                "text": f"  {e} crow{'s' if e != 1 else ''} fly ({a},{b}) -> ({c},{d})"}
    if kind == k.EV_SCORE:
        dbl = " doubled" if e else ""
        return {"kind": "score", "seat": seat, "x": b, "y": c, "crows": d, "doubled": bool(e), "points": f,
                "total": g, "text": f"  seat {seat}: {d} crows at ({b},{c}){dbl} -> {f} points, total {g}"}
    if kind == k.EV_MURDER:
        return {"kind": "murder", "chooser": seat, "x": b, "y": c, "crows": d, "start": rules.DIR_NAMES[e],
                "removed": f, "placed": g,
                "text": f"  murder of {d} at ({b},{c}): seat {seat} starts {rules.DIR_NAMES[e]}; {f} removed, "
                        f"{g} scattered"}
    if kind == k.EV_END_ROUND:
        return {"kind": "end_round", "round": a, "stack": b, "game_over": bool(c),
                "text": f"  end of round {a}" + ("; the stack is empty, game over" if c else f"; {b} tiles left")}
    if kind == k.EV_END:
        return {"kind": "end", "seat": seat, "token_points": b, "score": c,
                "text": f"Seat {seat}: {b} token points, final score {c}"}
    return {"kind": "unknown", "text": f"  event {kind}"}
