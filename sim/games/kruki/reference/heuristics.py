"""Crows reference strategies (KRUKI-38..41): fn(obs, decision, options, rng, params) -> index into options.
The heuristics exactly: the package docstring."""
from sim.games.kruki.obs import (D_CELL, D_DEST, D_JUNK_MODE, D_PAIR, D_REPLACE, D_SHINY, D_SOURCE, D_SPIRAL, D_TARGET,
                                 D_TOKEN, SRC_DRAW, SRC_JUNK, SRC_POOL, SRC_SKIP, TOKEN_PASS)
from sim.games.kruki import rules as R
from sim.games.kruki.rules import EMPTY, GAP, GRAVESTONES, JUNK, NO_FLOCKING, NO_GRAVEYARDS, TWO_CROWS
from sim.games.kruki.reference.board import (crow_tiles, legal_cells, legal_shiny_tiles, scatter, shiny_points,
                                             two_crows_pairs)

PROBE = 99  # owner code of the hypothetical new shiny in B(β)


def random_strategy(obs, decision, options, rng, sp):
    """KRUKI-38: uniform over the options."""
    return rng.below(len(options))


class _Eval:
    """Values of hypothetical positions β for one heuristic seat (rules §9 common definitions), on obs.board."""

    def __init__(self, obs, kind, sp):
        self.obs, self.b, self.me, self.kind, self.sp = obs, obs.board, obs.seat, kind, sp
        self.opps = [q for q in range(obs.players) if q != obs.seat]
        self.tokens_left = obs.token_stack_size > 0

    # -- common definitions --
    def best_new_shiny(self):
        """B(β): the best G(β, s) over the legal shiny tiles, 0 if none."""
        b, best = self.b, 0
        for s in legal_shiny_tiles(b):
            b.shiny[s] = PROBE
            best = max(best, shiny_points(b, s)[0])
            b.shiny[s] = -1
        return best

    def opp(self, my_cell):
        """Opp(β): mean of W_q over the opponents (β has my shiny on my_cell, or none if -1)."""
        obs, total, bval = self.obs, 0, None
        for q in self.opps:
            s = obs.shiny_of[q]
            if s >= 0:
                total += shiny_points(self.b, s)[0]
            elif not obs.moved[q]:
                if bval is None:
                    bval = self.best_new_shiny()
                total += bval
        return total / len(self.opps)

    def stage1(self, my_cell, own_junk, f3_allowed=True):
        """(stage-1 value, tie preference) of β: greedy/blocker V_me; weighted w1 f1 + w2 f2 + w3 f3 + w5 f5."""
        b, sp = self.b, self.sp
        if my_cell >= 0:
            pts, n, _ = shiny_points(b, my_cell)
        else:
            pts = n = 0
        empty_pref = 1 if (my_cell >= 0 and f3_allowed and b.kind[my_cell] == EMPTY and self.tokens_left) else 0
        if self.kind == "weighted":
            v = sp["w1"] * n + sp["w2"] * (pts - n) + sp["w3"] * empty_pref + sp["w5"] * own_junk
            return v, 0
        return float(pts), empty_pref

    def final(self, v1, my_cell):
        """The full objective: greedy J = V_me; blocker J = V_me - lambda*Opp; weighted v1 + w4*Opp."""
        if self.kind == "greedy":
            return v1
        if self.kind == "blocker":
            return v1 - self.sp["lambda"] * self.opp(my_cell)
        return v1 + self.sp["w4"] * self.opp(my_cell)

    @property
    def slack(self):
        return None if self.kind == "greedy" else self.sp["slack"]

    # -- (cell, shiny) options --
    def _apply(self, c, tile, spawn):
        b = self.b
        if c is None:
            return 0
        b.add_tile(c, tile)
        n = min(spawn, self.obs.supply)
        b.crows[c] += n
        return n

    def _undo(self, c, n):
        if c is not None:
            self.b.crows[c] -= n
            self.b.remove_tile(c)

    def placements(self, cells, tile=JUNK, spawn=0, own_junk=0, shinies=None):
        """Every (cell, shiny) option, scored. cells=None: shiny only, on the board as it stands.
        Returns [(cell, shiny, final, pref)] for the options that survive stage 1, in enumeration order."""
        b, me = self.b, self.me
        scored = []
        for c in (cells if cells is not None else [None]):
            n = self._apply(c, tile, spawn)
            opts = shinies if (shinies is not None and c is None) else legal_shiny_tiles(b)
            for s in opts or [-1]:
                if s >= 0:
                    b.shiny[s] = me
                v1, pref = self.stage1(s, own_junk)
                if s >= 0:
                    b.shiny[s] = -1
                scored.append((c, s, v1, pref))
            self._undo(c, n)
        if self.slack is None:
            return [(c, s, v1, pref) for c, s, v1, pref in scored]
        floor = max(e[2] for e in scored) - self.slack
        out = []
        for c, s, v1, pref in scored:
            if v1 < floor:
                continue
            n = self._apply(c, tile, spawn)
            if s >= 0:
                b.shiny[s] = me
            out.append((c, s, self.final(v1, s), pref))
            if s >= 0:
                b.shiny[s] = -1
            self._undo(c, n)
        return out

    @staticmethod
    def value(opts):
        return max(e[2] for e in opts)

    @staticmethod
    def pick(opts, rng):
        """The best option by (value, preference); ties uniform in enumeration order."""
        best = max((e[2], e[3]) for e in opts)
        tied = [e for e in opts if (e[2], e[3]) == best]
        return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]

    # -- token candidates --
    def token_candidates(self, kinds):
        """Greedy: GRAVESTONES on the own shiny; TWO_CROWS onto a tile next to it. Blocker/weighted add NO_GRAVEYARDS
        and NO_FLOCKING on every crow tile. Returns [(kind, target)] in kind, then target order."""
        b, my = self.b, self.obs.shiny_of[self.me]
        out = []
        if self.kind != "greedy" and NO_GRAVEYARDS in kinds:
            out.append((NO_GRAVEYARDS, None))
        if GRAVESTONES in kinds and my >= 0:
            out.append((GRAVESTONES, my))
        if self.kind != "greedy" and NO_FLOCKING in kinds:
            out.extend((NO_FLOCKING, t) for t in crow_tiles(b))
        if TWO_CROWS in kinds and my >= 0:
            adj = sorted(my + d for d in b.delta if b.kind[my + d] != GAP and b.shiny[my + d] < 0)
            for a, a2 in two_crows_pairs(b):
                for d in adj:
                    if d != a and d != a2:
                        out.append((TWO_CROWS, (a, a2, d)))
        return out

    def token_value(self, kind, target):
        """Objective of β = the board after the token (kind None: pass)."""
        b, my = self.b, self.obs.shiny_of[self.me]
        saved = b.no_graveyards
        if kind == NO_GRAVEYARDS:
            b.no_graveyards = 1
        elif kind == GRAVESTONES:
            b.stones[target] += 1
        elif kind == NO_FLOCKING:
            b.frozen[target] += 1
        elif kind == TWO_CROWS:
            a, a2, d = target
            b.crows[a] -= 1
            b.crows[a2] -= 1
            b.crows[d] += 2
        v1, _ = self.stage1(my, 0, f3_allowed=False)
        val = self.final(v1, my)
        b.no_graveyards = saved
        if kind == GRAVESTONES:
            b.stones[target] -= 1
        elif kind == NO_FLOCKING:
            b.frozen[target] -= 1
        elif kind == TWO_CROWS:
            b.crows[a] += 1
            b.crows[a2] += 1
            b.crows[d] -= 2
        return val

    def scored_tokens(self, kinds):
        return [(k, t, self.token_value(k, t), 0) for k, t in self.token_candidates(kinds)]


def _spiral_choice(obs):
    """KRUKI-39 step 4: B0 after each start with every shiny and token removed; max if the chooser is next round's
    first player, else min; ties N, E, S, W."""
    m = obs.context["murder"]
    maximise = obs.context["chooser"] == (obs.first_player + 1) % obs.players
    best_i, best = 0, None
    for i in range(4):
        b = obs.board.copy()
        scatter(b, m, i, obs.params["murder_removed"])
        for c in b.tiles:
            b.shiny[c] = -1
            b.stones[c] = 0
            b.frozen[c] = 0
        b.no_graveyards = 0
        ev = _Eval(obs, "greedy", {})
        ev.b = b
        v = ev.best_new_shiny()
        if best is None or (v > best if maximise else v < best):
            best_i, best = i, v
    return best_i


def _heuristic(kind):
    def strategy(obs, decision, options, rng, sp):
        ev = _Eval(obs, kind, sp)
        ctx = obs.context
        if decision == D_SPIRAL:
            return _spiral_choice(obs)
        if decision in (D_JUNK_MODE, D_REPLACE):  # heuristics use Junk only in normal mode
            return 0
        if decision == D_CELL:
            opts = ev.placements(options, ctx["tile"], ctx["spawn"], ctx.get("own", 0))
            return options.index(ev.pick(opts, rng)[0])
        if decision == D_SHINY:
            opts = ev.placements(None, shinies=options)
            return options.index(ev.pick(opts, rng)[1])
        if decision == D_SOURCE:
            return options.index(_source_choice(ev, obs, options, rng, kind, sp))
        if decision == D_TOKEN:
            cands = ev.scored_tokens([k for k in options if k != TOKEN_PASS])
            if not cands:
                return 0
            best = ev.pick(cands, rng)
            gain = best[2] - ev.token_value(None, None)
            return options.index(best[0]) if gain > obs.params["token_keep_points"] else 0
        cands = [e for e in ev.scored_tokens([ctx["token"]])]
        if decision == D_TARGET:
            cands = [e for e in cands if e[1] in options]
            return options.index(ev.pick(cands, rng)[1]) if cands else 0
        if decision == D_PAIR:
            cands = [e for e in cands if (e[1][0], e[1][1]) in options]
            if not cands:
                return 0
            t = ev.pick(cands, rng)[1]
            return options.index((t[0], t[1]))
        if decision == D_DEST:
            pair = tuple(ctx["pair"])
            cands = [e for e in cands if (e[1][0], e[1][1]) == pair and e[1][2] in options]
            return options.index(ev.pick(cands, rng)[1][2]) if cands else 0
        return 0
    strategy.__name__ = kind
    return strategy


def _source_choice(ev, obs, options, rng, kind, sp):
    """KRUKI-39..41 step 1 (the drawn tile is not seen)."""
    margin = 0.0 if kind == "weighted" else sp["junk_margin"]
    has_junk = SRC_JUNK in options
    j_junk = None
    if has_junk:
        cells = legal_cells(ev.b)
        j_junk = ev.value(ev.placements(cells, JUNK, 0, own_junk=1))
    pool = [o for o in options if o >= SRC_POOL]
    if pool:  # tile-draft: the best pool tile by its step-2 value
        cells = legal_cells(ev.b)
        by_kind = {}
        for o in pool:
            t = obs.pool[o - SRC_POOL]
            if t not in by_kind:
                by_kind[t] = ev.value(ev.placements(cells, t, R.spawn_of(t), 0))
        best = max(by_kind[obs.pool[o - SRC_POOL]] for o in pool)
        if has_junk and j_junk >= best + margin:
            return SRC_JUNK
        tied = [o for o in pool if by_kind[obs.pool[o - SRC_POOL]] == best]
        return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]
    if not has_junk:
        return options[0]
    j0 = ev.value(ev.placements(None))  # the draw proxy
    if SRC_DRAW in options:
        return SRC_JUNK if j_junk >= j0 + margin else SRC_DRAW
    return SRC_JUNK if j_junk > j0 else SRC_SKIP  # the source is empty: own Junk or skip


STRATEGY_FNS = {
    "random": random_strategy,
    "greedy": _heuristic("greedy"),
    "blocker": _heuristic("blocker"),
    "weighted": _heuristic("weighted"),
}
