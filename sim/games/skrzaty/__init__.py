"""Skrzaty ("gnomes"): a reconstructed city-building card game with gnome pawns, 2-5 players (sim game id `skrzaty`).

Rules: docs/rules/skrzaty.md. `rules.py` holds the parameters, variants, strategies, output columns and the
loaders of the editable data tables in `sim/data/skrzaty/`; `reference.py` is the readable pure-Python game;
`kernel.py` the njit rules; `strategies/skrzaty.py` the observation, the action encoding and the heuristics.
Designer notes: docs/games/skrzaty.md.
"""
import numpy as np

from sim.spec import GameSpec, SpecError
from sim.games.skrzaty import kernel, reference, rules
from strategies.skrzaty import MAX_P, SWAP_BASE


def kernel_data(params, players, data=None):
    """The kernel's typed arrays: (rp, cards, rcards, spaces, end_tile, tokens), see kernel.py's docstring.

    `data` is what `rules.load_data(paths)` returns (a `rules.SkrzatyData`), a dict of data-file paths for it, or
    None for the shipped default tables. The configuration is validated against the tables (SKRZATY-27 etc.)."""
    if data is None:
        data = rules.default_data()
    elif isinstance(data, dict):
        data = rules.load_data(data)
    full = dict(rules.DEFAULT_PARAMS)
    full.update(params)
    rules.validate(full, players, data)
    c = data.cards
    if len(c.ids) >= SWAP_BASE:
        raise SpecError(f"{c.path}: {len(c.ids)} City cards; the kernel accepts at most {SWAP_BASE - 1}")
    rp = np.array([full[p.name] for p in rules.PARAMS], np.int64)
    cards = np.array(list(zip(c.ids, c.colour, c.value, c.spaces, c.vp, c.effect, c.amount)),
                     np.int64).reshape(-1, 7)
    rcards = np.array(rules.reward_cards_for(data, players), np.int64).reshape(-1, 3)
    spaces = np.zeros((max(len(data.reward_spaces.types), 1), MAX_P, 3), np.int64)
    for t, rows in rules.reward_spaces_for(data, players).items():
        spaces[t, :players] = rows
    end_tile = np.zeros((MAX_P, 3), np.int64)
    end_tile[:players] = rules.end_tile_for(data, players)
    tk = data.tokens
    tokens = np.array(list(zip(tk.count, tk.gnomes, tk.vp)), np.int64).reshape(-1, 3)
    return rp, cards, rcards, spaces, end_tile, tokens


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
    if kind == k.EV_ROW:
        return {"kind": "reward_row", "position": a, "card": b, "colour": _colour(c), "type": _type(d),
                "text": f"Reward row R{a}: card {b}, {_colour(c)}, type {_type(d)}"}
    if kind == k.EV_KEEP:
        what = "keeps" if c else "returns"
        return {"kind": "keep", "seat": a, "card": b, "kept": bool(c), "text": f"  seat {a} {what} card {b}"}
    if kind == k.EV_FIRST:
        return {"kind": "first_player", "seat": a, "text": f"Seat {a} is the first player"}
    if kind == k.EV_ROUND:
        return {"kind": "round", "round": a, "first": b, "best_colour": _colour(c), "type": _type(d), "deck": e,
                "text": f"Round {a}: seat {b} first; best colour {_colour(c)}, type {_type(d)}; deck {e}"}
    if kind == k.EV_MARKET:
        return {"kind": "market", "round": a, "position": b, "card": c,
                "text": f"  Market position {b}: card {c}"}
    if kind == k.EV_PLAY:
        eff = rules.EFFECTS[e] if 0 <= e < len(rules.EFFECTS) else str(e)
        return {"kind": "play", "seat": a, "card": b, "colour": _colour(c), "value": d, "effect": eff,
                "text": f"  seat {a} plays card {b} ({_colour(c)} {d}, {eff})"}
    if kind == k.EV_BARTER:
        if b == 0:
            return {"kind": "barter", "seat": a, "give": None, "take": None, "text": f"  seat {a} declines to barter"}
        return {"kind": "barter", "seat": a, "give": b, "take": c,
                "text": f"  seat {a} barters card {b} for Market card {c}"}
    if kind == k.EV_GAIN:
        src = _source(b)
        extra = f" + {e} foreman" if e else ""
        short = f" ({d - c} lost to an empty pool)" if d > c else ""
        return {"kind": "gain", "seat": a, "source": src, "gnomes": c, "asked": d, "foreman": e, "vp": f, "pool": g,
                "text": f"  seat {a} gains {c} gnomes{extra}{short} and {f} VP from {src}; pool {g}"}
    if kind == k.EV_TOKEN:
        if b < 0:
            return {"kind": "token", "seat": a, "token": None, "gnomes": c,
                    "text": f"  seat {a} finds no Bonus token: {c} gnome instead"}
        return {"kind": "token", "seat": a, "token": _token(b), "gnomes": c,
                "text": f"  seat {a} takes a {_token(b)} token (+{c} gnomes)"}
    if kind == k.EV_PLACE:
        full = " (filled)" if c == d else ""
        return {"kind": "place", "seat": a, "card": b, "gnomes": c, "spaces": d,
                "text": f"  seat {a} places a gnome on card {b}: {c}/{d}{full}"}
    if kind == k.EV_RANK:
        guild = f" incl. guild +{f}" if f else ""
        return {"kind": "ranking", "round": a, "rank": b, "seat": c, "colour": _colour(d), "value": e, "guild": f,
                "text": f"  rank {b}: seat {c} ({_colour(d)} {e}{guild})"}
    if kind == k.EV_PICK:
        return {"kind": "pick", "seat": a, "card": b, "text": f"  seat {a} picks Market card {b}"}
    if kind == k.EV_RECYCLE:
        return {"kind": "recycle", "card": a, "deck": b, "text": f"  card {a} goes to the deck bottom (deck {b})"}
    if kind == k.EV_FINAL:
        if d:
            text = f"Final rank {a}: seat {b}, End colour sum {c} ({d} cards)"
        else:
            text = f"Final rank {a}: seat {b}, no End-colour card, highest card {e}"
        return {"kind": "final_ranking", "rank": a, "seat": b, "end_sum": c, "end_cards": d, "highest": e,
                "text": text}
    if kind == k.EV_SCORE:
        return {"kind": "score", "seat": a, "score": b, "rank": c, "win60": d, "filled": e, "gnomes_on_cards": f,
                "text": f"Seat {a}: {b} VP, rank {c} ({e} filled cards, {f} gnomes on cards)"}
    return {"kind": "unknown", "text": f"  event {kind}"}


SPEC = GameSpec(
    id=rules.GAME_ID,
    title="Skrzaty",
    version="1",
    aliases=(),
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    default_players=rules.DEFAULT_PLAYERS,
    params=rules.PARAMS,
    variants=rules.VARIANTS,
    strategies=rules.STRATEGIES,
    default_strategy="weighted",
    seat_columns=rules.SEAT_COLUMNS,
    game_columns=rules.GAME_COLUMNS,
    length_column=rules.LENGTH_COLUMN,
    ratios=rules.RATIOS,
    error_codes=rules.ERROR_CODES,
    validate=rules.validate,
    kernel_data=kernel_data,
    chunk_kernel=kernel.run_chunk,
    trace_kernel=kernel.trace_one,
    describe_event=describe_event,
    reference=reference.play_game,
    docs="docs/games/skrzaty.md",
    data_options={option[2:]: key for option, key in rules.DATA_OPTIONS.items()},
    default_paths=dict(rules.DEFAULT_PATHS),
    load_data=rules.load_data,
)
