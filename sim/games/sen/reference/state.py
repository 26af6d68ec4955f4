"""Sen reference: the game state, what a seat observes, and the decision call (SEN-22..25)."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from sim.games.sen import rules as R
from sim.games.sen.obs import DECISION_NAMES
from sim.games.sen.rules import TAKE2, UNKNOWN


class IllegalAction(Exception):
    """A strategy returned an option that was not offered (error code 1)."""


class ChainCap(Exception):
    """A turn drew more than rules.MAX_TURN_DRAWS cards (error code 2)."""


def is_special(c):
    return c >= TAKE2


class State:
    """The whole game state, hidden parts included. Strategies never see it: they get an `Observation`."""

    def __init__(self, params, players):
        self.params = dict(params)
        self.n = players
        self.ds = params["dream_size"]
        self.ravens = R.ravens_table(params)
        self.deck = R.build_deck(params)
        self.deck_counts = tuple(R.card_counts(params))
        self.dreams = [[UNKNOWN] * self.ds for _ in range(players)]
        self.know = [[[UNKNOWN] * self.ds for _ in range(players)] for _ in range(players)]
        self.facedown = []  # top = last
        self.faceup = []  # bottom -> top
        self.totals = [0] * players
        self.rounds_played = 0
        self.first = 0
        self.to_move = 0
        self.caller = -1
        self.call_turn = 0
        self.round_turn = 0
        self.own_turns = [0] * players
        self.in_final = False
        self.final_left = 0
        self.round_over = False
        self.end_reason = ""
        self.turn_draws = 0
        self.round_scores = [0] * players
        self.round_log = []  # per round: first, caller, call_turn, end_reason, scores
        self.capped = 0
        self.error = 0
        self.stats = {c: 0 for c in R.GAME_COLUMNS}
        self.seat_stats = {c: [0] * players for c in R.SEAT_COLUMNS}

    def cards_in_play(self):
        """Every card in dreams and piles (for conservation checks)."""
        return [c for d in self.dreams for c in d] + list(self.facedown) + list(self.faceup)


def make_state(params, players, dreams, facedown_top_first=(), faceup=(), know=None, first=0, to_move=None,
               totals=None, round_turn=0, own_turns=None):
    """An injected state (§10 scenarios): dreams slot 0→3, the face-down pile listed TOP FIRST (as the rules file
    lists it), the face-up pile bottom→top. `know` maps (p, q) -> list of codes/UNKNOWN for K_p[q]."""
    st = State(params, players)
    st.dreams = [list(d) for d in dreams]
    st.facedown = list(reversed(facedown_top_first))
    st.faceup = list(faceup)
    for (p, q), row in (know or {}).items():
        st.know[p][q] = list(row)
    st.first = first
    st.to_move = first if to_move is None else to_move
    st.totals = list(totals) if totals is not None else [0] * players
    st.round_turn = round_turn
    st.own_turns = list(own_turns) if own_turns is not None else [0] * players
    return st


# ---------------------------------------------------------------- observation (SEN-24, SEN-25)

@dataclass(frozen=True)
class Observation:
    """What seat `seat` may know at a decision: nothing here depends on hidden cards or the pile order."""
    seat: int
    players: int
    dream_size: int
    params: MappingProxyType  # rule parameters (public, read-only)
    deck_counts: tuple  # copies of each code 0..12 (public deck composition)
    ravens: tuple  # printed ravens of each code
    know: tuple  # K_p as know[q][s] (SEN-22/23)
    faceup: tuple  # the face-up pile since the last reshuffle, bottom -> top (public)
    facedown_count: int
    held: tuple  # the card(s) the player holds in this decision (own private)
    caller: int  # -1 = nobody has called this round
    in_final: bool
    first: int  # this round's first player
    round_no: int  # 1-based
    round_turn: int  # turns completed this round (at D7 the current turn already counts)
    own_turns: tuple  # turns completed this round per seat (at D7 the current turn already counts)
    totals: tuple


def observe(st, seat, held=()):
    return Observation(
        seat=seat, players=st.n, dream_size=st.ds, params=MappingProxyType(st.params), deck_counts=st.deck_counts,
        ravens=tuple(st.ravens), know=tuple(tuple(row) for row in st.know[seat]), faceup=tuple(st.faceup),
        facedown_count=len(st.facedown), held=tuple(held), caller=st.caller, in_final=st.in_final,
        first=st.first, round_no=st.rounds_played + 1, round_turn=st.round_turn, own_turns=tuple(st.own_turns),
        totals=tuple(st.totals))


class Ctx:
    """What drives a game: one agent per seat, the game's random stream, the optional trace and test hooks."""

    def __init__(self, agents, rng, trace=None, on_decision=None, on_turn_end=None):
        self.agents = agents
        self.rng = rng
        self.trace = trace
        self.on_decision = on_decision  # (state, seat, kind, options, held, obs, choice) -> None
        self.on_turn_end = on_turn_end  # (state, seat) -> None


def emit(ctx, kind, seat=-1, **kw):
    if ctx.trace is not None:
        ctx.trace.append({"kind": kind, "seat": seat, **kw})


def ask(st, ctx, seat, kind, options, held=()):
    """One decision: observation → agent → checked choice."""
    obs = observe(st, seat, held)
    choice = ctx.agents[seat](kind, obs, options, ctx.rng)
    if ctx.on_decision is not None:
        ctx.on_decision(st, seat, kind, options, held, obs, choice)
    if choice not in options:
        emit(ctx, "illegal", seat, decision=DECISION_NAMES[kind], choice=choice)
        raise IllegalAction(f"seat {seat + 1} chose {choice!r} at {DECISION_NAMES[kind]}; legal: {options}")
    emit(ctx, "decide", seat, decision=DECISION_NAMES[kind], choice=choice, n_options=len(options))
    return choice
