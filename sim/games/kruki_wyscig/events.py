"""`sim trace` for Kruki (Odin's Ravens): a kernel event row in words and fields (docs/trace.md)."""
from sim.games.kruki_wyscig import rules, scratch
from sim.games.kruki_wyscig.track import HEAD_LABEL, LANE_LABEL, LOOP_LABEL, TAIL_LABEL
from sim.seats import seat_number


_OPTION = rules.OPTION_NAMES


_KIND = rules.KIND_NAMES


_WHY = ("start hand", "end of turn", "take-2")


_DECISIONS = ("play", "pile", "mix", "place", "discard")  # obs.DEC_PLAY .. DEC_DISCARD


def _land(x):
    return rules.LAND_LETTERS[x] if 0 <= x < len(rules.LAND_LETTERS) else "?"


def _field(code):
    """A field label from the kernel (track.field_label): start sentinels, main slots A3/B3, loop fields."""
    if code == HEAD_LABEL:
        return "start(α)"
    if code == TAIL_LABEL:
        return "start(β)"
    if code >= LOOP_LABEL:
        return f"loop {'AB'[(code - LOOP_LABEL) // LANE_LABEL]}{(code - LOOP_LABEL) % LANE_LABEL}"
    return f"{'AB'[code & 1]}{code >> 1}"


def describe_event(ev, players):
    kind, a, b, c, d, e, f, g = (int(x) for x in ev)
    k = scratch
    seat = seat_number(a)  # the seat of every event but column, state, rerace and end
    if kind == k.EV_SETUP:
        return {"kind": "setup", "start_player": seat, "columns": b, "stack_size": c, "track_len": d,
                "text": f"Race: seat {seat} starts; {b} columns laid ({d} fields), {c} cards on the land stack"}
    if kind == k.EV_COLUMN:
        return {"kind": "column", "column": a, "card": b, "lane_a": _land(c), "lane_b": _land(d),
                "text": f"  column {a}: card {b} shows A = {_land(c)}, B = {_land(d)}"}
    if kind == k.EV_DRAW:
        pile = "flight" if b == 0 else "action"
        card = _land(c) if b == 0 else _KIND[c]
        return {"kind": "draw", "seat": seat, "pile": pile, "card": card, "reason": _WHY[d],
                "text": f"    seat {seat} draws {card} from the {pile} pile ({_WHY[d]})"}
    if kind == k.EV_RESHUFFLE:
        return {"kind": "reshuffle", "seat": seat, "cards": b,
                "text": f"    seat {seat} shuffles {b} discarded flight cards into a new flight pile"}
    if kind == k.EV_TURN:
        final = " (final turn)" if d and a != -1 else ""
        return {"kind": "turn", "seat": seat, "turn": b, "hand": c, "final": d,
                "text": f"Turn {b}: seat {seat} with {c} cards{final}"}
    if kind in (k.EV_FLIGHT, k.EV_JOKER):
        name = "flight" if kind == k.EV_FLIGHT else "joker"
        what = f"flies {_land(b)}" if kind == k.EV_FLIGHT else f"plays a joker ({_land(b)}, {_land(b)})"
        return {"kind": name, "seat": seat, "land": _land(b), "from": _field(c), "to": _field(d), "fields": e,
                "text": f"  seat {seat} {what}: {_field(c)} -> {_field(d)} ({e} fields)"}
    if kind == k.EV_ACTION:
        opt = _OPTION[b]
        out = {"kind": "action", "seat": seat, "option": opt}
        if b in (rules.OPT_FORWARD1, rules.OPT_BACK1):
            who = "own raven" if b == rules.OPT_FORWARD1 else "the opponent's raven"
            out.update({"from": _field(c), "to": _field(d)})
            detail = f"{who} {_field(c)} -> {_field(d)}"
        elif b in (rules.OPT_ROTATE, rules.OPT_REMOVE):
            out["card"] = c
            detail = f"card {c}"
        elif b == rules.OPT_SWAP:
            out["cards"] = [c, d]
            detail = f"cards {c} and {d}"
        elif b == rules.OPT_SLIDE:
            out.update({"card": c, "lane": "AB"[d]})
            detail = f"card {c} into lane {'AB'[d]}"
        elif b == rules.OPT_DETOUR:
            out.update({"card": c, "lane": "AB"[d], "anchor": e, "index": f, "rot": g})
            detail = f"card {c} in lane {'AB'[d]} between columns {e} and {e + 1}, index {f}, orientation {g}"
        else:
            detail = "draws cards"
        out["text"] = f"  seat {seat} plays {opt}: {detail}"
        return out
    if kind == k.EV_STATE:
        return {"kind": "state", "pos": [_field(a), _field(b)], "rem": [c, d], "runs": [e, f], "track_len": g,
                "text": f"    ravens on {_field(a)} / {_field(b)}; fields left {c} / {d}, runs {e} / {f}; "
                        f"track {g} fields"}
    if kind == k.EV_DISCARD:
        card = _land(c) if b == 0 else _KIND[c]
        return {"kind": "discard", "seat": seat, "card": card,
                "text": f"    seat {seat} discards {card} (hand limit)"}
    if kind == k.EV_STOP:
        return {"kind": "stop", "seat": seat, "text": f"  seat {seat} stops"}
    if kind == k.EV_FINISH:
        return {"kind": "finish", "seat": seat, "hand": b,
                "text": f"  seat {seat}'s raven is home with {b} cards in hand"}
    if kind == k.EV_RERACE:
        return {"kind": "rerace", "number": a, "hands": [b, c],
                "text": f"Equal hands ({b} = {c}): rerace {a}"}
    if kind == k.EV_END:
        return {"kind": "end", "win60": [a, b], "turns": c, "truncated": d, "tiebreak": e, "hands": [f, g],
                "text": f"End after {c} turns: win shares {a / 60:g} / {b / 60:g}"
                        f"{' (truncated)' if d else ''}{' (hand sizes ' + str(f) + ' / ' + str(g) + ')' if e else ''}"}
    if kind == k.EV_ERROR:
        decision = _DECISIONS[b] if 0 <= b < len(_DECISIONS) else str(b)
        return {"kind": "error", "seat": seat, "decision": decision, "action": c,
                "text": f"  seat {seat} chose an illegal option {c} at the {decision} decision"}
    if kind == k.EV_DETOUR_CARD:
        return {"kind": "detour_card", "seat": seat, "card": b, "lands": [_land(c), _land(d)],
                "text": f"  seat {seat} takes card {b} ({_land(c)}, {_land(d)}) from the land stack for a detour"}
    if kind == k.EV_MIX:
        return {"kind": "mix", "seat": seat, "actions": b, "cards": c,
                "text": f"    seat {seat} fixes the mix: {b} of {c} cards from the action pile"}
    return {"kind": "unknown", "text": f"  event {kind}"}
