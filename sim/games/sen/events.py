"""`sim trace` for Sen: a kernel event row in words and fields (docs/trace.md)."""
from sim.games.sen import kernel_state as k, obs, rules
from sim.seats import seat_number


_REASONS = {k.END_FINAL: "final turns done", k.END_CALL: "call (no final turns)",
            k.END_DECK_OUT: "face-down pile empty", k.END_CAP: "turn cap, no caller"}


_REASON_KEYS = {k.END_FINAL: "final", k.END_CALL: "call", k.END_DECK_OUT: "deck_out", k.END_CAP: "cap"}


def card_name(code):
    return "none" if code < 0 else rules.CARD_NAMES.get(int(code), "?")


def action_text(kind, action, players, ds):
    """A decision's action in words (encoding: sim/games/sen/obs.py)."""
    a = int(action)
    base = obs.SLOT_BASE
    if kind == obs.D_SOURCE:
        return "take the face-up card" if a == obs.SRC_FACEUP else "draw"
    if kind == obs.D_FACEUP_SLOT:
        return f"slot {a}"
    if kind == obs.D_DRAWN:
        return f"B1 into slot {a}" if a < ds else ("B2 discard" if a == obs.OPT_DISCARD(ds) else "B3 use the power")
    if kind == obs.D_KEEP:
        return "keep the first card" if a == 0 else "keep the second card"
    if kind == obs.D_PEEK:
        return f"seat {seat_number(a // base)} slot {a % base}"
    if kind == obs.D_SWAP:
        return f"own slot {a // base ** 2} with seat {seat_number((a // base) % base)} slot {a % base}"
    if kind == obs.D_CALL:
        return "call" if a == 1 else "no call"
    return str(a)


def _dream(values):
    return [card_name(c) for c in values if c >= 0]


def describe_event(ev, players):
    kind, a, b, c, d, e, f, g = (int(v) for v in ev)
    if kind == k.EV_ROUND_START:
        return {"kind": "round_start", "round": a, "first": seat_number(b), "facedown": c, "faceup": card_name(d),
                "text": f"Round {a}: seat {seat_number(b)} starts; face-up {card_name(d)}, {c} cards face down"}
    seat = seat_number(a)  # the seat of every event but round_start, reshuffle and round_end
    if kind in (k.EV_DEAL, k.EV_REVEAL):
        name = "deal" if kind == k.EV_DEAL else "reveal"
        cards = _dream([b, c, d, e, f, g])
        verb = "is dealt" if kind == k.EV_DEAL else "reveals"
        return {"kind": name, "seat": seat, "dream": cards, "text": f"  seat {seat} {verb} [{', '.join(cards)}]"}
    if kind == k.EV_TURN:
        final = " (final turn)" if c else ""
        return {"kind": "turn", "seat": seat, "round_turn": b, "final": bool(c),
                "text": f"  turn {b}: seat {seat}{final}"}
    if kind in (k.EV_DECIDE, k.EV_ILLEGAL):
        dname = obs.DECISION_NAMES.get(b, "?")
        what = action_text(b, c, players, d)
        if kind == k.EV_ILLEGAL:
            return {"kind": "illegal", "seat": seat, "decision": dname, "action": c,
                    "text": f"    seat {seat} chose an illegal action {c} at {dname}: the game stops"}
        return {"kind": "decide", "seat": seat, "decision": dname, "action": c,
                "text": f"    seat {seat} decides {dname}: {what} ({c})"}
    if kind == k.EV_TAKE_FACEUP:
        return {"kind": "take_faceup", "seat": seat, "card": card_name(b), "slot": c, "displaced": card_name(d),
                "text": f"    seat {seat} takes face-up {card_name(b)} into slot {c}; {card_name(d)} goes face up"}
    if kind == k.EV_DRAW:
        return {"kind": "draw", "seat": seat, "card": card_name(b),
                "text": f"    seat {seat} draws {card_name(b)}" if b >= 0 else f"    seat {seat} finds no card to draw"}
    if kind == k.EV_PLACE:
        return {"kind": "place", "seat": seat, "card": card_name(b), "slot": c, "displaced": card_name(d),
                "text": f"    seat {seat} puts {card_name(b)} into slot {c}; {card_name(d)} goes face up"}
    if kind == k.EV_DISCARD:
        return {"kind": "discard", "seat": seat, "card": card_name(b),
                "text": f"    seat {seat} discards {card_name(b)}"}
    if kind == k.EV_USE:
        return {"kind": "use", "seat": seat, "card": card_name(b),
                "text": f"    seat {seat} discards {card_name(b)} and uses its power"}
    if kind == k.EV_TAKE2_DRAW:
        cards = [card_name(x) for x in (c, d)[:b]]
        return {"kind": "take2_draw", "seat": seat, "cards": cards,
                "text": f"    Take 2: seat {seat} draws [{', '.join(cards)}]"}
    if kind == k.EV_REJECT:
        return {"kind": "reject", "seat": seat, "card": card_name(b), "kept": card_name(c),
                "text": f"    seat {seat} keeps {card_name(c)}, rejects {card_name(b)} face up"}
    if kind == k.EV_PEEK:
        return {"kind": "peek", "seat": seat, "target": seat_number(b), "slot": c, "card": card_name(d),
                "text": f"    seat {seat} peeks at seat {seat_number(b)} slot {c}: {card_name(d)}"}
    if kind == k.EV_SWAP:
        return {"kind": "swap", "seat": seat, "slot": b, "target": seat_number(c), "target_slot": d,
                "text": f"    seat {seat} swaps its slot {b} with seat {seat_number(c)} slot {d}"}
    if kind == k.EV_CALL:
        return {"kind": "call", "seat": seat, "round_turn": b, "unknown_own": c,
                "text": f"    seat {seat} calls \"Pobudka!\" at turn {b} ({c} own cards unknown)"}
    if kind == k.EV_RESHUFFLE:
        return {"kind": "reshuffle", "cards": a, "text": f"    the face-up pile ({a} cards) is reshuffled"}
    if kind == k.EV_ROUND_END:
        reason = _REASON_KEYS.get(a, "?")
        who = f", caller seat {seat_number(b)}" if b >= 0 else ", no caller"
        return {"kind": "round_end", "reason": reason, "caller": seat_number(b), "turns": c,
                "text": f"  round ends after {c} turns ({_REASONS.get(a, '?')}{who})"}
    if kind == k.EV_REPLACE:
        return {"kind": "replace", "seat": seat, "slot": b, "removed": card_name(c), "drawn": card_name(d),
                "text": f"  seat {seat} slot {b}: {card_name(c)} goes face up, {card_name(d)} drawn in"}
    if kind == k.EV_SCORE:
        pen = f" + {c} penalty" if c else ""
        return {"kind": "score", "seat": seat, "raw": b, "penalty": c, "score": d, "total": e, "caller": seat_number(f),
                "text": f"  seat {seat} scores {b}{pen} = {d} ravens; total {e}"}
    return {"kind": "unknown", "text": f"  event {kind}"}
