"""`sim trace` for Straw: a kernel event row in words and fields (docs/trace.md)."""
from sim.games.straw import kernel_state as kernel, rules
from sim.games.straw.obs import K_ADD, K_LAMP, K_NONE, K_REV, K_SUB
from sim.seats import seat_number


_EFFECTS = {K_NONE: "", K_ADD: "ADD", K_SUB: "SUB", K_LAMP: "LAMP", K_REV: "REV"}


_ENDINGS = {rules.NORMAL_BREAK: "normal break", rules.STRAW_BREAK: "straw break", rules.STALL: "stall"}


def card_name(code):
    if 1 <= code <= rules.ITEM_MAX_CODE:
        return str(code)
    if rules.ITEM_MAX_CODE < code <= rules.CARPET_MAX_CODE:
        return f"Carpet-{code - rules.ITEM_MAX_CODE}"
    return {rules.REVERSE: "Reverse", rules.COPY: "Copy", rules.LAMP: "Lamp", rules.STRAW: "Straw"}.get(code, "?")


def describe_event(ev, players):
    kind, a, b, c, d, e, f, g = (int(x) for x in ev)
    if kind == kernel.EV_ROUND:
        return {"kind": "round", "round": a, "dealer": seat_number(b), "pile": c,
                "text": f"Round {a}: seat {seat_number(b)} deals; {c} cards left in the pile"}
    seat = seat_number(a)  # every other event but round_end is a seat's
    if kind == kernel.EV_DEAL:
        return {"kind": "deal", "seat": seat, "card": card_name(b), "text": f"  seat {seat} is dealt {card_name(b)}"}
    if kind == kernel.EV_PLAY:  # seat, code, v, effect kind, effect value, T, direction
        card = card_name(b) + (f" (value {c})" if d == K_LAMP else "")
        if d in (K_ADD, K_SUB, K_LAMP):
            effect = f"{_EFFECTS[d]} {e}"
        else:
            effect = "REV" if d == K_REV else "the Straw breaks the back"
        arrow = "clockwise" if g == 1 else "counter-clockwise"
        return {"kind": "play", "seat": seat, "card": card_name(b), "lamp_value": c, "effect": _EFFECTS[d] or "STRAW",
                "value": e, "T": f, "direction": g, "text": f"  seat {seat} plays {card} -> {effect}; T = {f}, {arrow}"}
    if kind == kernel.EV_CHOICE:
        return {"kind": "choice", "seat": seat, "action": b,
                "text": f"    seat {seat}'s plug-in answers action {b}"}
    if kind == kernel.EV_DRAW:
        return {"kind": "draw", "seat": seat, "card": card_name(b), "pile": c,
                "text": f"    seat {seat} draws {card_name(b)} ({c} left in the pile)"}
    if kind == kernel.EV_PASS:
        return {"kind": "pass", "seat": seat, "T": b, "text": f"  seat {seat} has no legal card and passes (T = {b})"}
    if kind == kernel.EV_ROUND_END:
        ending = _ENDINGS.get(b, "?")
        who = f" by seat {seat_number(c)}" if c >= 0 else ""
        return {"kind": "round_end", "round": a, "ending": ending, "ender": seat_number(c), "T": d,
                "seat": seat_number(e), "score": f, "total": g,
                "text": f"  round {a} ended ({ending}{who}, T = {d}): seat {seat_number(e)} scores {f}, total {g}"}
    return {"kind": "unknown", "text": f"  event {kind}"}
