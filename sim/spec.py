"""The contract between the engine and a game: what a game declares so that `sim` can run it without knowing it.

A game package `sim/games/<id>/` is described by a `GameSpec` that `load_spec` builds from its modules' conventional
names (docs/adding-a-game.md). The engine, the CLI, the analysis and the reports only ever talk to a game through its
spec: the engine knows no game by name (docs/architecture.md).

Outputs of every kernel (and of every reference `play_game`) are integers only, so merging is exact:
- per seat, columns `SEAT_BASE` first — `score`, `rank` (1 = best, ties share the better rank), `win60` (win share
  × WIN_SCALE, so a k-way shared win is an exact integer) — then the game's own per-seat columns;
- per game, `GAME_BASE` first — `error` (0 = fine; otherwise a code the spec explains) — then the game's own
  per-game columns. Means the rules file asks for are stored as a numerator and a denominator column and declared
  as `Ratio`s, computed after merging.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

WIN_SCALE = 60  # lcm(1..6): a win shared by k <= 6 seats is WIN_SCALE // k, exactly
MAX_SEATS = 6
SEAT_BASE = ("score", "rank", "win60")
GAME_BASE = ("error",)


class SpecError(ValueError):
    """Bad user input against a game's spec: one line naming the problem and the accepted values."""


@dataclass(frozen=True)
class Param:
    name: str
    default: int
    lo: int
    hi: int
    help: str


@dataclass(frozen=True)
class Variant:
    name: str
    help: str
    sets: dict = field(default_factory=dict)  # parameter overrides, applied before --set
    excludes: tuple = ()  # variant names it cannot be combined with


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    sid: int  # integer id the kernel dispatches on
    help: str
    params: dict = field(default_factory=dict)  # name -> default (float); order = column order in the matrix


@dataclass(frozen=True)
class Ratio:
    """A mean derived after merging: sum(numerator column) / sum(denominator column)."""
    name: str
    numerator: str
    denominator: str
    per_seat: bool = False


@dataclass
class GameSpec:
    """What the engine knows of a game. Built by `load_spec` from the game package's conventionally named modules,
    never by hand: the rules module's constants (see `load_spec`) and, loaded on first use so that `sim list` and
    `sim --help` import no kernel, the kernel, event decoder and reference modules."""
    package: str  # e.g. "sim.games.straw"
    id: str
    title: str
    version: str  # rules version: bump when the kernel's outcomes change
    aliases: tuple
    min_players: int
    max_players: int
    default_players: int
    params: tuple  # of Param; `players` is not among them
    variants: tuple  # of Variant
    strategies: tuple  # of StrategyInfo
    default_strategy: str
    seat_columns: tuple  # game's own per-seat columns (after SEAT_BASE)
    game_columns: tuple  # game's own per-game columns (after GAME_BASE)
    length_column: str  # the game column that measures game length (shown as "length")
    ratios: tuple = ()
    error_codes: dict = field(default_factory=dict)  # error code -> meaning
    validate: Callable | None = None  # validate(params dict, players) -> raise SpecError on bad combinations
    # Editable data tables: table name (as in `--data NAME=FILE`) -> shipped default file.
    data_tables: dict = field(default_factory=dict)
    load_data: Callable | None = None  # load_data({table: path}) -> data for kernel_data; SpecError on a bad file

    def _module(self, name):
        return importlib.import_module(f"{self.package}.{name}")

    # The kernel side, called by the engine (one call per block of games, on its threads) and by `sim trace` as
    #   play_kernel(*kernel_data(params, players, data), players, sids, sparams, users, seed, start, count,
    #               seat_out, game_out, trace, trace_len)
    @property
    def kernel_data(self):  # (params, players, data) -> (rule vector, the game's arrays..., strategies' dispatch)
        return self._module("kernel").kernel_data

    @property
    def play_kernel(self):
        return self._module("kernel").play_games

    @property
    def describe_event(self):  # (event row, players) -> dict with "kind", fields and "text"
        return self._module("events").describe_event

    @property
    def reference(self):  # play_game(params, players, seed, game_index, strategies) -> GameRecord
        return self._module("reference").play_game

    @property
    def players_text(self):
        """'2-6 players', or 'exactly 2 players' for a fixed count."""
        if self.min_players == self.max_players:
            return f"exactly {self.min_players} players"
        return f"{self.min_players}-{self.max_players} players"

    @property
    def docs(self):
        """The game's designer notes, a path inside the repository."""
        return f"docs/games/{self.id}.md"

    @property
    def rules_doc(self):
        """The authoritative rules spec (rule ids cited in the kernels), a path inside the repository."""
        return f"docs/rules/{self.id}.md"

    @property
    def all_seat_columns(self):
        return SEAT_BASE + tuple(self.seat_columns)

    @property
    def all_game_columns(self):
        return GAME_BASE + tuple(self.game_columns)

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        raise SpecError(f"unknown parameter '{name}' for {self.id}; accepted: {', '.join(p.name for p in self.params)}")

    def variant(self, name):
        for v in self.variants:
            if v.name == name:
                return v
        names = ", ".join(v.name for v in self.variants) or "none"
        raise SpecError(f"unknown variant '{name}' for {self.id}; accepted: {names}")

    def strategy(self, name):
        for s in self.strategies:
            if s.name == name:
                return s
        names = ", ".join(s.name for s in self.strategies)
        raise SpecError(f"unknown strategy '{name}' for {self.id}; accepted: {names}, or FILE.py:FUNCTION")

    def resolve_params(self, players, variants=(), sets=None):
        """Rule parameters as a dict: defaults, then variants in order, then `sets` (which override variants)."""
        if not self.min_players <= players <= self.max_players:
            raise SpecError(f"{self.id} takes {self.players_text}, not {players}")
        values = {p.name: p.default for p in self.params}
        chosen = [self.variant(v) for v in variants]
        names = [v.name for v in chosen]
        for v in chosen:
            clash = [x for x in v.excludes if x in names]
            if clash:
                raise SpecError(f"variant '{v.name}' cannot be combined with '{clash[0]}' in {self.id}")
            values.update(v.sets)
        by_variant = {name: (v.name, value) for v in chosen for name, value in v.sets.items()}
        for name, value in (sets or {}).items():
            p = self.param(name)
            if name in by_variant and by_variant[name][1] != value and value == p.default:
                # setting it back to the base value undoes the variant (refining it, e.g. score_cap=5, is fine)
                variant, wanted = by_variant[name]
                raise SpecError(f"--set {name}={value} undoes variant {variant} (which sets {name}={wanted}); "
                                f"drop one of them")
            if not p.lo <= value <= p.hi:
                raise SpecError(f"{self.id} parameter {name}={value} is out of range; accepted: {p.lo}..{p.hi}")
            values[name] = value
        if self.validate is not None:
            self.validate(values, players)
        return values


@dataclass
class GameRecord:
    """One game's outcome from a reference implementation, in the same columns the kernel writes."""
    seat: dict  # column -> list of per-seat ints, for every column of GameSpec.all_seat_columns
    game: dict  # column -> int, for every column of GameSpec.all_game_columns


def rank_and_win60(keys):
    """Ranks and win shares from per-seat sort keys where a larger key is better (tuples allowed for tie-breaks).

    rank = 1 + number of seats with a strictly better key; the seats with rank 1 share WIN_SCALE equally.
    """
    ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    winners = ranks.count(1)
    return ranks, [WIN_SCALE // winners if r == 1 else 0 for r in ranks]


def load_spec(package):
    """The GameSpec of game package `package` (e.g. "sim.games.straw"), from its modules' conventional names.

    `<package>.rules` defines ID, TITLE, VERSION, ALIASES, MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS, PARAMS,
    VARIANTS, STRATEGIES, DEFAULT_STRATEGY, SEAT_COLUMNS, GAME_COLUMNS, LENGTH_COLUMN and optionally RATIOS,
    ERROR_CODES, validate, DATA_TABLES and load_data. `<package>.kernel` defines kernel_data and
    play_games; `<package>.events` describe_event; `<package>.reference` play_game (docs/adding-a-game.md).
    """
    r = importlib.import_module(f"{package}.rules")
    return GameSpec(
        package=package, id=r.ID, title=r.TITLE, version=r.VERSION, aliases=tuple(r.ALIASES),
        min_players=r.MIN_PLAYERS, max_players=r.MAX_PLAYERS, default_players=r.DEFAULT_PLAYERS,
        params=tuple(r.PARAMS), variants=tuple(r.VARIANTS), strategies=tuple(r.STRATEGIES),
        default_strategy=r.DEFAULT_STRATEGY, seat_columns=tuple(r.SEAT_COLUMNS), game_columns=tuple(r.GAME_COLUMNS),
        length_column=r.LENGTH_COLUMN, ratios=tuple(getattr(r, "RATIOS", ())),
        error_codes=dict(getattr(r, "ERROR_CODES", {})), validate=getattr(r, "validate", None),
        data_tables=dict(getattr(r, "DATA_TABLES", {})), load_data=getattr(r, "load_data", None))
