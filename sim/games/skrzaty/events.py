"""`sim trace` for Skrzaty: a kernel event row in words and fields (docs/trace.md)."""
from sim.games.skrzaty import kernel_layout as kernel, obs, rules
from sim.seats import seat_number

_KIND_NAMES = {obs.KEEP: "keep", obs.PLAY: "play", obs.BARTER: "barter", obs.TOKEN: "token", obs.PLACE: "place",
               obs.PICK: "pick"}  # decision kinds (obs.O_KIND)


def _colour(code):
    return rules.COLOURS[code] if 0 <= code < len(rules.COLOURS) else "none"


def _type(code):
    types = rules.default_data().reward_spaces.types
    return types[code] if 0 <= code < len(types) else str(code)


def _token(code):
    kinds = rules.default_data().tokens.kinds
    return kinds[code] if 0 <= code < len(kinds) else f"kind {code}"


def _source(code):
    if code == kernel.SRC_DELIVERY:
        return "delivery"
    if code == kernel.SRC_FINDER:
        return "finder"
    if code > kernel.SRC_END:
        return f"End tile rank {code - kernel.SRC_END}"
    return f"round rank {code}"


def describe_event(ev, players):
    """One kernel trace row -> {"kind": ..., fields..., "text": one readable line}. Cards are shown by id; reward
    types and token kinds by their names in the shipped data (with user data files, by position in those files)."""
    kind, a, b, c, d, e, f, g = (int(x) for x in ev)
    k = kernel
    seat = seat_number(a)  # the seat of keep, first_player, play, barter, gain, token, place, pick and score
    if kind == k.EV_ROW:
        return {"kind": "reward_row", "position": a, "card": b, "colour": _colour(c), "type": _type(d),
                "text": f"Reward row R{a}: card {b}, {_colour(c)}, type {_type(d)}"}
    if kind == k.EV_KEEP:
        what = "keeps" if c else "returns"
        return {"kind": "keep", "seat": seat, "card": b, "kept": bool(c), "text": f"  seat {seat} {what} card {b}"}
    if kind == k.EV_FIRST:
        return {"kind": "first_player", "seat": seat, "text": f"Seat {seat} is the first player"}
    if kind == k.EV_ROUND:
        return {"kind": "round", "round": a, "first": seat_number(b), "best_colour": _colour(c), "type": _type(d),
                "deck": e,
                "text": f"Round {a}: seat {seat_number(b)} first; best colour {_colour(c)}, type {_type(d)}; deck {e}"}
    if kind == k.EV_MARKET:
        return {"kind": "market", "round": a, "position": b, "card": c,
                "text": f"  Market position {b}: card {c}"}
    if kind == k.EV_PLAY:
        eff = rules.EFFECTS[e] if 0 <= e < len(rules.EFFECTS) else str(e)
        return {"kind": "play", "seat": seat, "card": b, "colour": _colour(c), "value": d, "effect": eff,
                "text": f"  seat {seat} plays card {b} ({_colour(c)} {d}, {eff})"}
    if kind == k.EV_BARTER:
        if b == 0:
            return {"kind": "barter", "seat": seat, "give": None, "take": None,
                    "text": f"  seat {seat} declines to barter"}
        return {"kind": "barter", "seat": seat, "give": b, "take": c,
                "text": f"  seat {seat} barters card {b} for Market card {c}"}
    if kind == k.EV_GAIN:
        src = _source(b)
        extra = f" + {e} foreman" if e else ""
        short = f" ({d - c} lost to an empty pool)" if d > c else ""
        return {"kind": "gain", "seat": seat, "source": src, "gnomes": c, "asked": d, "foreman": e, "vp": f, "pool": g,
                "text": f"  seat {seat} gains {c} gnomes{extra}{short} and {f} VP from {src}; pool {g}"}
    if kind == k.EV_TOKEN:
        if b < 0:
            return {"kind": "token", "seat": seat, "token": None, "gnomes": c,
                    "text": f"  seat {seat} finds no Bonus token: {c} gnome instead"}
        return {"kind": "token", "seat": seat, "token": _token(b), "gnomes": c,
                "text": f"  seat {seat} takes a {_token(b)} token (+{c} gnomes)"}
    if kind == k.EV_PLACE:
        full = " (filled)" if c == d else ""
        return {"kind": "place", "seat": seat, "card": b, "gnomes": c, "spaces": d,
                "text": f"  seat {seat} places a gnome on card {b}: {c}/{d}{full}"}
    if kind == k.EV_RANK:
        guild = f" incl. guild +{f}" if f else ""
        return {"kind": "ranking", "round": a, "rank": b, "seat": seat_number(c), "colour": _colour(d), "value": e,
                "guild": f,
                "text": f"  rank {b}: seat {seat_number(c)} ({_colour(d)} {e}{guild})"}
    if kind == k.EV_PICK:
        return {"kind": "pick", "seat": seat, "card": b, "text": f"  seat {seat} picks Market card {b}"}
    if kind == k.EV_RECYCLE:
        return {"kind": "recycle", "card": a, "deck": b, "text": f"  card {a} goes to the deck bottom (deck {b})"}
    if kind == k.EV_FINAL:
        if d:
            text = f"Final rank {a}: seat {seat_number(b)}, End colour sum {c} ({d} cards)"
        else:
            text = f"Final rank {a}: seat {seat_number(b)}, no End-colour card, highest card {e}"
        return {"kind": "final_ranking", "rank": a, "seat": seat_number(b), "end_sum": c, "end_cards": d, "highest": e,
                "text": text}
    if kind == k.EV_SCORE:
        return {"kind": "score", "seat": seat, "score": b, "rank": c, "win60": d, "filled": e, "gnomes_on_cards": f,
                "text": f"Seat {seat}: {b} VP, rank {c} ({e} filled cards, {f} gnomes on cards)"}
    if kind == k.EV_CHOICE:
        return {"kind": "choice", "seat": seat, "decision": _KIND_NAMES.get(b, str(b)), "action": c,
                "text": f"  seat {seat}'s plug-in answers {c} at {_KIND_NAMES.get(b, str(b))}"}
    return {"kind": "unknown", "text": f"  event {kind}"}
