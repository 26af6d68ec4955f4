"""Skrzaty: parameters, variants, strategies, output columns and the data tables (docs/rules/skrzaty.md).

Everything here is plain Python data that both the readable reference (`reference.py`) and the later numba kernel
read. The reconstructed tables (city cards, reward cards, reward spaces, the End tile, Bonus tokens) are CSV files in
`sim/data/skrzaty/` (SKRZATY-17); each has a loader `load_<table>(path)` that parses and validates one file and
raises `SpecError` with one line naming the file, the line and the problem. `load_data(paths)` loads all five and
cross-checks them; `validate(params, players, data)` checks a configuration against them.

Codes used everywhere (SKRZATY-17):
- colours 0..4: blue, red, green, yellow, purple (`COLOURS`);
- effects 0..9 as in rules §1.1 (`EFFECTS`): none, delivery, finder, barter, disguise, foreman, guild, quarter,
  crossroads, festival; kinds: Instant 1-4, Ongoing 5-6, End 7-9;
- reward types: an index into `RewardSpaces.types` (the type names in order of first appearance in the file).
"""
from __future__ import annotations

import csv
import os
from dataclasses import dataclass, field

from sim.spec import Param, Ratio, SpecError, StrategyInfo, Variant

TITLE = "Skrzaty"
VERSION = "1"
ALIASES = ()

ID = "skrzaty"
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 5, 4

# ---------------------------------------------------------------------------------------------------- codes
COLOURS = ("blue", "red", "green", "yellow", "purple")
BLUE, RED, GREEN, YELLOW, PURPLE = range(5)
N_COLOURS = 5

EFFECTS = ("none", "delivery", "finder", "barter", "disguise", "foreman", "guild", "quarter", "crossroads", "festival")
(E_NONE, E_DELIVERY, E_FINDER, E_BARTER, E_DISGUISE, E_FOREMAN, E_GUILD, E_QUARTER, E_CROSSROADS,
 E_FESTIVAL) = range(10)
INSTANT_EFFECTS = (E_DELIVERY, E_FINDER, E_BARTER, E_DISGUISE)  # SKRZATY-8..11
ONGOING_EFFECTS = (E_FOREMAN, E_GUILD)  # SKRZATY-12, 13
END_EFFECTS = (E_QUARTER, E_CROSSROADS, E_FESTIVAL)  # SKRZATY-14..16


def is_instant(effect):
    return E_DELIVERY <= effect <= E_DISGUISE


def is_ongoing(effect):
    return effect == E_FOREMAN or effect == E_GUILD


# ---------------------------------------------------------------------------------------------------- parameters
PARAMS = (
    Param("rounds", 8, 1, 30, "rounds played; the Reward row uses rounds+1 cards (at most the Reward cards for P - 1)"),
    Param("market_extra", 1, 0, 3, "the Market holds P + market_extra cards (subject to SKRZATY-27)"),
    Param("deal", 6, 1, 10, "City cards dealt to each player at setup (at least hand_keep)"),
    Param("hand_keep", 4, 1, 10, "cards kept at setup; also the hand size throughout (at most deal)"),
    Param("gnome_pool", 75, 1, 999, "gnomes in the pool (999 = effectively unlimited)"),
    Param("festival_min", 3, 1, 8, "filled cards of its colour a `festival` needs"),
    Param("first_player", -1, -1, MAX_PLAYERS - 1,
          "-1 = random; otherwise the seat index that starts round 1 (0 = seat 1)"),
    # Mode flags set by the variants (SKRZATY §6); ordinary 0/1 parameters.
    Param("market_ranked", 0, 0, 1, "1 = step-3 pick in ranking order instead of reverse (variant market-ranked)"),
    Param("market_keep", 0, 0, 1, "1 = Market leftovers stay and step 1 only refills (variant market-keep)"),
    Param("final_highest", 0, 0, 1, "1 = final ranking by highest End-colour card, not the sum (final-highest)"),
    Param("fixed_first", 0, 0, 1, "1 = the first player never passes (variant fixed-first)"),
)
DEFAULT_PARAMS = {p.name: p.default for p in PARAMS}

VARIANTS = (
    Variant("market-ranked", "SKRZATY-36: step-3 Market pick in ranking order, first place first",
            {"market_ranked": 1}),
    Variant("market-keep", "SKRZATY-31/35: Market leftovers stay in the Market; step 1 only refills it",
            {"market_keep": 1}),
    Variant("final-highest", "SKRZATY-43: the final ranking's first group is ranked by the highest End-colour card",
            {"final_highest": 1}),
    Variant("fixed-first", "SKRZATY-30: the first player never passes", {"fixed_first": 1}),
)

WEIGHTED_DEFAULTS = {"w_best": 1.0, "w_value": 1.0, "w_beats": 1.0, "w_spaces": -0.4, "w_yield": 0.3,
                     "w_hold": 0.5, "w_vp": 0.3, "w_fill": 0.5}
STRATEGIES = (
    StrategyInfo("random", 0, "uniform over the legal options at every decision (rules §5)"),
    StrategyInfo("builder", 1, "fills cards: few-space, gnome-yielding cards while spaces are open, bigger ones later"),
    StrategyInfo("ender", 2, "wins the final ranking: hoards End-colour cards, plays the rest"),
    StrategyInfo("high-roller", 3, "takes the round's top reward: plays its best-ranking card"),
    StrategyInfo("weighted", 4, "parametric linear scorer over ranking, spaces, yield, End colour, VP, fill",
                 dict(WEIGHTED_DEFAULTS)),
)
STRATEGY_NAMES = tuple(s.name for s in STRATEGIES)
# `weighted` with tuned weights, which beat the shipped weights 29.8% to 16.1% one against three at 4 players
# (docs/games/skrzaty.md, "Default strategy").
DEFAULT_STRATEGY = ("weighted:w_best=0.68:w_value=0.67:w_beats=1.03:w_spaces=-0.18:w_yield=0.32:w_hold=0.79:"
                    "w_vp=0.24:w_fill=0.51")

# ---------------------------------------------------------------------------------------------------- outputs
CARD_COLOUR_COLUMNS = tuple(f"cards_{c}" for c in COLOURS)  # cards_by_colour[5]: cards played
RANK_COUNT_COLUMNS = tuple(f"rank_count_{k}" for k in range(1, MAX_PLAYERS + 1))  # rank_count[k], 0 for k > P
INSTANT_COLUMNS = tuple(f"instant_{EFFECTS[e]}" for e in INSTANT_EFFECTS)  # instant_played[code]
ONGOING_COLUMNS = tuple(f"ongoing_filled_{EFFECTS[e]}" for e in ONGOING_EFFECTS)  # ongoing_filled[code]
END_EFFECT_COLUMNS = tuple(f"end_effect_vp_{EFFECTS[e]}" for e in END_EFFECTS)  # end_effect_vp[code]

SEAT_COLUMNS = (
    ("vp_cards", "vp_end_effects", "vp_rewards", "vp_end_tile", "vp_tokens",
     "filled_cards", "unfilled_cards", "cards_played", "city_spaces")
    + CARD_COLOUR_COLUMNS
    + ("gnomes_gained", "gnomes_placed", "gnomes_wasted_pool", "gnomes_wasted_reserve")
    + RANK_COUNT_COLUMNS
    + ("tokens_taken", "final_rank", "end_colour_sum", "end_colour_cards")
    + INSTANT_COLUMNS
    + ("barter_swaps", "finder_fallbacks", "disguise_changed")
    + ONGOING_COLUMNS
    + ("foreman_gnomes", "guild_applied")
    + END_EFFECT_COLUMNS
)
GAME_COLUMNS = ("final_winner_seat", "first_player", "end_colour", "pool_left", "tokens_left",
                "pool_exhausted_round", "rounds_played")
LENGTH_COLUMN = "rounds_played"
RATIOS = (
    Ratio("fill_rate", "filled_cards", "cards_played", per_seat=True),
    Ratio("gnome_use", "gnomes_placed", "gnomes_gained", per_seat=True),
)
ERROR_CODES = {1: "a strategy returned an illegal action"}
ERR_ILLEGAL = 1

# ---------------------------------------------------------------------------------------------------- data files
DATA_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "data", "skrzaty"))
# The editable tables, by the name a user gives them (`--data reward-cards=FILE`), with their shipped files.
DATA_TABLES = {
    "cards": os.path.join(DATA_DIR, "city_cards.csv"),
    "reward-cards": os.path.join(DATA_DIR, "reward_cards.csv"),
    "reward-spaces": os.path.join(DATA_DIR, "reward_spaces.csv"),
    "end-tile": os.path.join(DATA_DIR, "end_tile.csv"),
    "tokens": os.path.join(DATA_DIR, "bonus_tokens.csv"),
}


@dataclass(frozen=True)
class CityCards:
    """SKRZATY-2/17/18. Parallel lists, one entry per card, in ascending `id` order."""
    path: str
    ids: tuple
    colour: tuple
    value: tuple
    spaces: tuple
    vp: tuple
    effect: tuple
    amount: tuple

    @property
    def by_id(self):
        """id -> row index (ascending id order, so a lower index is a lower id)."""
        return {cid: i for i, cid in enumerate(self.ids)}


@dataclass(frozen=True)
class RewardCards:
    """SKRZATY-4/19. For each player count p present: `by_players[p]` = tuple of (card, colour, type code) in
    ascending `card` order; `lines[p]` the file line of each."""
    path: str
    by_players: dict
    lines: dict


@dataclass(frozen=True)
class RewardSpaces:
    """SKRZATY-4/19. `types` = type names (code = index); `table[(type code, p)]` = tuple of (gnomes, vp, bonus)
    for ranks 1..p."""
    path: str
    types: tuple
    table: dict


@dataclass(frozen=True)
class EndTile:
    """SKRZATY-5/20. `by_players[p]` = tuple of (gnomes, vp, bonus) for ranks 1..p."""
    path: str
    by_players: dict


@dataclass(frozen=True)
class BonusTokens:
    """SKRZATY-6/21. Parallel lists in file order (the strategies' tie-break order)."""
    path: str
    kinds: tuple
    count: tuple
    gnomes: tuple
    vp: tuple


@dataclass(frozen=True)
class SkrzatyData:
    cards: CityCards
    reward_cards: RewardCards
    reward_spaces: RewardSpaces
    end_tile: EndTile
    tokens: BonusTokens
    paths: dict = field(default_factory=dict)


def _read_csv(path, columns):
    """Rows of a CSV file as (line number, list of stripped fields), after checking the header."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path}: cannot read the file ({exc.__class__.__name__}); expected a CSV with columns "
                        f"{','.join(columns)}") from None
    if not rows or not any(x.strip() for x in rows[0]):
        raise SpecError(f"{path}, line 1: empty file; expected the header {','.join(columns)}")
    header = [x.strip().lstrip("\ufeff") for x in rows[0]]
    if header != list(columns):
        raise SpecError(f"{path}, line 1: columns are {','.join(header)}; expected {','.join(columns)}")
    out = []
    for i, row in enumerate(rows[1:], start=2):
        if not any(x.strip() for x in row):
            continue  # blank line
        if len(row) != len(columns):
            raise SpecError(f"{path}, line {i}: {len(row)} fields; expected {len(columns)} ({','.join(columns)})")
        out.append((i, [x.strip() for x in row]))
    return out


def _int(path, line, column, text, lo=0, hi=None):
    if not text.isdigit():
        raise SpecError(f"{path}, line {line}: {column} '{text}' is not a non-negative integer")
    v = int(text)
    if v < lo or (hi is not None and v > hi):
        accepted = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise SpecError(f"{path}, line {line}: {column} {v} is out of range; accepted: {accepted}")
    return v


def _colour(path, line, text):
    if text not in COLOURS:
        raise SpecError(f"{path}, line {line}: colour '{text}' is unknown; accepted: {', '.join(COLOURS)}")
    return COLOURS.index(text)


def _players(path, line, text):
    return _int(path, line, "players", text, MIN_PLAYERS, MAX_PLAYERS)


def load_city_cards(path=None):
    """`city_cards.csv` (`--data cards=FILE`): id,colour,value,spaces,vp,effect,amount (SKRZATY-17)."""
    path = path or DATA_TABLES["cards"]
    rows = _read_csv(path, ("id", "colour", "value", "spaces", "vp", "effect", "amount"))
    if not rows:
        raise SpecError(f"{path}: no City cards")
    seen_ids, seen_values, cards = {}, {}, []
    for line, (cid, col, val, spaces, vp, eff, amount) in rows:
        cid = _int(path, line, "id", cid, 1)
        if cid in seen_ids:
            raise SpecError(f"{path}, line {line}: id {cid} repeats line {seen_ids[cid]}; ids must be unique")
        seen_ids[cid] = line
        col = _colour(path, line, col)
        val = _int(path, line, "value", val, 1)
        if (col, val) in seen_values:  # SKRZATY-3
            raise SpecError(f"{path}, line {line}: {COLOURS[col]} value {val} repeats line {seen_values[col, val]}; "
                            f"values must be unique within a colour (SKRZATY-3)")
        seen_values[col, val] = line
        spaces = _int(path, line, "spaces", spaces, 1, 4)
        vp = _int(path, line, "vp", vp)
        if eff not in EFFECTS:
            raise SpecError(f"{path}, line {line}: effect '{eff}' is unknown; accepted: {', '.join(EFFECTS)}")
        cards.append((cid, col, val, spaces, vp, EFFECTS.index(eff), _int(path, line, "amount", amount)))
    cards.sort()
    return CityCards(path, *(tuple(c[k] for c in cards) for k in range(7)))


def load_reward_cards(path=None):
    """`reward_cards.csv` (`--data reward-cards=FILE`): players,card,colour,type; one row per card per player count."""
    path = path or DATA_TABLES["reward-cards"]
    rows = _read_csv(path, ("players", "card", "colour", "type"))
    seen, raw = {}, {}
    for line, (players, card, col, typ) in rows:
        p = _players(path, line, players)
        card = _int(path, line, "card", card, 1)
        if (p, card) in seen:
            raise SpecError(f"{path}, line {line}: card {card} for {p} players repeats line {seen[p, card]}")
        seen[p, card] = line
        col = _colour(path, line, col)
        if not typ:
            raise SpecError(f"{path}, line {line}: empty type; expected a type name from the reward-spaces file")
        raw.setdefault(p, []).append((card, col, typ, line))
    by_players, lines = {}, {}
    for p, cards in raw.items():
        cards.sort()
        by_players[p] = tuple((c, col, typ) for c, col, typ, _ in cards)  # type still a name; see load_data
        lines[p] = tuple(ln for *_, ln in cards)
    return RewardCards(path, by_players, lines)


def _ranked_table(path, rows, key_of, what):
    """Shared check of 'ranks 1..players exactly once per group' for reward spaces and the End tile."""
    table, first_line = {}, {}
    for line, key, p, rank, values in rows:
        if rank > p:
            raise SpecError(f"{path}, line {line}: rank {rank} for {p} players; accepted: 1..{p}")
        group = table.setdefault(key, {})
        first_line.setdefault(key, line)
        if rank in group:
            raise SpecError(f"{path}, line {line}: rank {rank} repeats for {what(key)}")
        group[rank] = values
    out = {}
    for key, group in table.items():
        p = key_of(key)
        missing = [k for k in range(1, p + 1) if k not in group]
        if missing:
            raise SpecError(f"{path}, line {first_line[key]}: {what(key)} lacks rank(s) "
                            f"{','.join(map(str, missing))}; every rank 1..{p} needs one row")
        out[key] = tuple(group[k] for k in range(1, p + 1))
    return out


def load_reward_spaces(path=None):
    """`reward_spaces.csv` (`--data reward-spaces=FILE`): type,players,rank,gnomes,vp,bonus; one row per space."""
    path = path or DATA_TABLES["reward-spaces"]
    rows = _read_csv(path, ("type", "players", "rank", "gnomes", "vp", "bonus"))
    types, parsed = [], []
    for line, (typ, players, rank, gnomes, vp, bonus) in rows:
        if not typ:
            raise SpecError(f"{path}, line {line}: empty type")
        if typ not in types:
            types.append(typ)
        p = _players(path, line, players)
        rank = _int(path, line, "rank", rank, 1)
        values = (_int(path, line, "gnomes", gnomes), _int(path, line, "vp", vp), _int(path, line, "bonus", bonus))
        parsed.append((line, (types.index(typ), p), p, rank, values))
    table = _ranked_table(path, parsed, lambda k: k[1], lambda k: f"type {types[k[0]]} at {k[1]} players")
    return RewardSpaces(path, tuple(types), table)


def load_end_tile(path=None):
    """`end_tile.csv` (`--data end-tile=FILE`): players,rank,gnomes,vp,bonus; ranks 1..players for each player count."""
    path = path or DATA_TABLES["end-tile"]
    rows = _read_csv(path, ("players", "rank", "gnomes", "vp", "bonus"))
    parsed = []
    for line, (players, rank, gnomes, vp, bonus) in rows:
        p = _players(path, line, players)
        rank = _int(path, line, "rank", rank, 1)
        values = (_int(path, line, "gnomes", gnomes), _int(path, line, "vp", vp), _int(path, line, "bonus", bonus))
        parsed.append((line, p, p, rank, values))
    return EndTile(path, _ranked_table(path, parsed, lambda k: k, lambda k: f"the End tile for {k} players"))


def load_bonus_tokens(path=None):
    """`bonus_tokens.csv` (`--data tokens=FILE`): kind,count,gnomes,vp; `kind` unique; row order = tie-break order."""
    path = path or DATA_TABLES["tokens"]
    rows = _read_csv(path, ("kind", "count", "gnomes", "vp"))
    seen, out = {}, []
    for line, (kind, count, gnomes, vp) in rows:
        if not kind:
            raise SpecError(f"{path}, line {line}: empty kind")
        if kind in seen:
            raise SpecError(f"{path}, line {line}: kind '{kind}' repeats line {seen[kind]}; kinds must be unique")
        seen[kind] = line
        out.append((kind, _int(path, line, "count", count), _int(path, line, "gnomes", gnomes),
                    _int(path, line, "vp", vp)))
    return BonusTokens(path, *(tuple(t[k] for t in out) for k in range(4)))


def load_data(paths=None):
    """All five tables; `paths` maps table names of DATA_TABLES to files, missing tables use the shipped defaults.
    Cross-checks that every Reward card's type has spaces for its player count."""
    chosen = dict(DATA_TABLES)
    for key, value in (paths or {}).items():
        if key not in DATA_TABLES:
            raise SpecError(f"skrzaty has no data table '{key}'; its tables: {', '.join(DATA_TABLES)}")
        if value is not None:
            chosen[key] = value
    spaces = load_reward_spaces(chosen["reward-spaces"])
    rc = load_reward_cards(chosen["reward-cards"])
    coded = {}
    for p, cards in rc.by_players.items():
        row = []
        for (card, col, typ), line in zip(cards, rc.lines[p]):
            if typ not in spaces.types or (spaces.types.index(typ), p) not in spaces.table:
                raise SpecError(f"{rc.path}, line {line}: type {typ} has no spaces for {p} players in "
                                f"{spaces.path}; accepted types: "
                                f"{', '.join(t for i, t in enumerate(spaces.types) if (i, p) in spaces.table)}")
            row.append((card, col, spaces.types.index(typ)))
        coded[p] = tuple(row)
    rc = RewardCards(rc.path, coded, rc.lines)
    return SkrzatyData(load_city_cards(chosen["cards"]), rc, spaces, load_end_tile(chosen["end-tile"]),
                       load_bonus_tokens(chosen["tokens"]), chosen)


_DEFAULT_DATA = None


def default_data():
    """The shipped tables, loaded once."""
    global _DEFAULT_DATA
    if _DEFAULT_DATA is None:
        _DEFAULT_DATA = load_data()
    return _DEFAULT_DATA


# ---------------------------------------------------------------------------------------------------- validation
def validate(params, players, data=None):
    """Cross-parameter and parameter-vs-data checks; one-line SpecError naming the problem and accepted values."""
    data = data or default_data()
    p = params
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SpecError(f"skrzaty takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    if not p["hand_keep"] <= p["deal"]:
        raise SpecError(f"skrzaty hand_keep={p['hand_keep']} exceeds deal={p['deal']}; accepted: "
                        f"hand_keep 1..{p['deal']}")
    if not -1 <= p["first_player"] < players:
        raise SpecError(f"skrzaty first_player={p['first_player']} with {players} players; accepted: -1 (random) "
                        f"or a seat index 0..{players - 1} (0 = seat 1)")
    cards = data.reward_cards.by_players.get(players)
    if not cards:
        raise SpecError(f"{data.reward_cards.path}: no Reward cards for {players} players; every played count needs "
                        f"rows")
    if p["rounds"] + 1 > len(cards):  # SKRZATY-22
        raise SpecError(f"skrzaty rounds={p['rounds']} needs {p['rounds'] + 1} Reward cards for {players} players "
                        f"but {data.reward_cards.path} has {len(cards)}; accepted: rounds 1..{len(cards) - 1}")
    if players not in data.end_tile.by_players:
        raise SpecError(f"{data.end_tile.path}: no End tile rows for {players} players; ranks 1..{players} needed")
    n = len(data.cards.ids)  # SKRZATY-27
    need_deal = players * p["deal"]
    need_play = players * (p["hand_keep"] + p["rounds"]) + p["market_extra"]
    if n < need_deal:
        raise SpecError(f"skrzaty: {n} City cards cannot deal {p['deal']} to {players} players ({need_deal} > {n}); "
                        f"accepted: deal <= {n // players}")
    if n < need_play:
        raise SpecError(f"skrzaty: {n} City cards are too few for {players} players with hand_keep={p['hand_keep']}, "
                        f"rounds={p['rounds']}, market_extra={p['market_extra']} ({need_play} > {n}, SKRZATY-27); "
                        f"accepted: P*(hand_keep+rounds)+market_extra <= {n}")


# ---------------------------------------------------------------------------------------------------- builders
def reward_cards_for(data, players):
    """The Reward cards for P players as (card number, colour, type code), ascending card number: the list
    SKRZATY-22 shuffles."""
    return list(data.reward_cards.by_players[players])


def reward_spaces_for(data, players):
    """type code -> list of (gnomes, vp, bonus) for ranks 1..P (only types with rows for P)."""
    return {t: list(data.reward_spaces.table[t, players])
            for t in range(len(data.reward_spaces.types)) if (t, players) in data.reward_spaces.table}


def end_tile_for(data, players):
    """list of (gnomes, vp, bonus) for End-tile ranks 1..P (SKRZATY-5/20)."""
    return list(data.end_tile.by_players[players])


def initial_deck(data):
    """City card ids in ascending order: the deck before the SKRZATY-25 shuffle."""
    return list(data.cards.ids)


def token_supply(data):
    """Face-up Bonus tokens per kind, in file order (SKRZATY-24)."""
    return list(data.tokens.count)


def all_seat_columns():
    from sim.spec import SEAT_BASE
    return SEAT_BASE + SEAT_COLUMNS


def all_game_columns():
    from sim.spec import GAME_BASE
    return GAME_BASE + GAME_COLUMNS
