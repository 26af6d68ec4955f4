"""Skrzaty reference (reference.py): the shipped strategies over an `Observation` (docs/rules/skrzaty.md §9).

Every strategy sees only an Observation (plus the legal options; `random` also gets the game's stream) and returns
an index into `options`. Named heuristics are deterministic; remaining ties go to the lower card id (rules §9).
Floats are evaluated exactly as written, left to right, for the kernel's strategies to reproduce bit for bit.
"""
from __future__ import annotations

from sim.games.skrzaty import rules as R
from sim.games.skrzaty.obs import BARTER, KEEP, PICK, PLACE, PLAY, TOKEN
from sim.games.skrzaty.rules import E_DELIVERY, E_DISGUISE, E_FINDER, E_FOREMAN, E_GUILD


def choose(name, sparams, kind, obs, options, rng):
    if name == "random":
        return rng.below(len(options))  # rules §5: uniform over the canonical option list
    return HEURISTICS[name](kind, obs, options, sparams)


def gnome_yield(c):
    """Y(c): `amount` for delivery, 1 for finder, 2 for foreman, else 0."""
    if c.effect == E_DELIVERY:
        return c.amount
    if c.effect == E_FINDER:
        return 1
    if c.effect == E_FOREMAN:
        return 2
    return 0


def later_best(obs, c):
    """1 if c's colour is the best colour of a round after the current one (at setup: of any round)."""
    return 1 if c.colour in obs.row_colour[obs.round:obs.rounds] else 0


def own_empty_spaces(obs):
    return sum(obs.card[cid].spaces - g for cid, g in obs.cities[obs.seat])


def seen_guild_bonus(obs, seat, colour):
    """The guild bonus `seat` would get now for a card of this printed colour (its currently filled guilds)."""
    return sum(obs.card[cid].amount for cid, g in obs.cities[seat]
               if obs.card[cid].effect == E_GUILD and g == obs.card[cid].spaces and obs.card[cid].colour == colour)


def in_best_group(obs, c):
    return c.colour == obs.best_colour or c.effect == E_DISGUISE


def ranking_value(obs, seat, c):
    return c.value + seen_guild_bonus(obs, seat, c.colour)


def place_policy(obs, options):
    """Shared D5: fewest empty spaces (>= 1); ties: Ongoing effect first, then higher vp, then lower id."""
    def key(cid):
        c = obs.card[cid]
        g = next(g for x, g in obs.cities[obs.seat] if x == cid)
        return (c.spaces - g, 0 if R.is_ongoing(c.effect) else 1, -c.vp, cid)
    return options.index(min(options, key=key))


def token_policy(obs, options):
    """Shared D4: maximise vp + 2*min(gnomes, empty spaces in own city); ties: higher vp, then file order."""
    empty = own_empty_spaces(obs)
    t = obs.tokens
    return options.index(min(options, key=lambda k: (-(t.vp[k] + 2 * min(t.gnomes[k], empty)), -t.vp[k], k)))


def keep_pick_barter(kind, obs, options, K):
    """Shared D1/D3/D6 from a desirability K(card): keep the highest K, pick the highest K, barter the lowest-K
    hand card for the highest-K Market card if strictly better."""
    best_first = lambda cid: (-K(obs.card[cid]), cid)  # noqa: E731
    if kind == KEEP:
        kept = tuple(sorted(sorted(obs.hand, key=best_first)[: obs.params["hand_keep"]]))
        return options.index(kept)
    if kind == PICK:
        return options.index(min(options, key=best_first))
    if kind == BARTER:
        hand = [h for h in obs.hand]
        if not hand or not obs.market:
            return 0
        worst = min(hand, key=lambda cid: (K(obs.card[cid]), cid))
        top = min(obs.market, key=best_first)
        if K(obs.card[top]) > K(obs.card[worst]):
            return options.index((worst, top))
        return 0  # decline
    raise ValueError(kind)


def heuristic(play, K):
    """A named heuristic from its D2 rule `play(obs, options, sp) -> card id` and its K(obs, sp, card)."""
    def decide_(kind, obs, options, sp):
        if kind == PLAY:
            return options.index(play(obs, options, sp))
        if kind == PLACE:
            return place_policy(obs, options)
        if kind == TOKEN:
            return token_policy(obs, options)
        return keep_pick_barter(kind, obs, options, lambda c: K(obs, sp, c))
    return decide_


def builder_play(obs, hand, sp):
    """t = reserve - empty spaces + 2; the card whose spaces - Y is closest to t; ties: higher vp, higher value."""
    t = obs.reserves[obs.seat] - own_empty_spaces(obs) + 2
    return min(hand, key=lambda cid: (abs(obs.card[cid].spaces - gnome_yield(obs.card[cid]) - t),
                                      -obs.card[cid].vp, -obs.card[cid].value, cid))


def builder_k(obs, sp, c):
    return 10 * c.vp / c.spaces + 5 * gnome_yield(c) + c.value / 10


def ender_play(obs, hand, sp):
    """Never an End-colour card while holding another; the highest-ranking non-End card if one would rank in the
    best group, else the lowest-value one; with only End-colour cards, the lowest."""
    cards = [obs.card[cid] for cid in hand]
    others = [c for c in cards if c.colour != obs.end_colour]
    if not others:
        return min(cards, key=lambda c: (c.value, c.id)).id
    best = [c for c in others if in_best_group(obs, c)]
    if best:
        return min(best, key=lambda c: (-ranking_value(obs, obs.seat, c), c.id)).id
    return min(others, key=lambda c: (c.value, c.id)).id


def ender_k(obs, sp, c):
    return c.value + 30 * (1 if c.colour == obs.end_colour else 0)


def high_roller_play(obs, hand, sp):
    """The best ranking key if played now (disguise = best colour; active guild bonus included)."""
    return min(hand, key=lambda cid: (0 if in_best_group(obs, obs.card[cid]) else 1,
                                      -ranking_value(obs, obs.seat, obs.card[cid]), cid))


def high_roller_k(obs, sp, c):
    return c.value + 10 * later_best(obs, c)


def weighted_play(obs, hand, sp):
    """Maximise w_best*f_best + w_value*f_value + w_beats*f_beats + w_spaces*spaces + w_yield*Y - w_hold*f_end
    + w_vp*vp/5 + w_fill*f_fill; ties: lower id."""
    reserve = obs.reserves[obs.seat]
    theirs = [(0 if in_best_group(obs, obs.card[pid]) else 1, -ranking_value(obs, s, obs.card[pid]))
              for s, pid in obs.played if s != obs.seat]

    def score(cid):
        c = obs.card[cid]
        mine = (0 if in_best_group(obs, c) else 1, -ranking_value(obs, obs.seat, c))
        f_best = 1 if mine[0] == 0 else 0
        f_value = ranking_value(obs, obs.seat, c) / 20
        f_beats = sum(1 for k in theirs if mine < k) / (obs.players - 1)  # equal: the earlier player stays ahead
        f_end = 1 if c.colour == obs.end_colour else 0
        f_fill = 1 if reserve >= c.spaces else 0
        return (sp["w_best"] * f_best + sp["w_value"] * f_value + sp["w_beats"] * f_beats
                + sp["w_spaces"] * c.spaces + sp["w_yield"] * gnome_yield(c) - sp["w_hold"] * f_end
                + sp["w_vp"] * c.vp / 5 + sp["w_fill"] * f_fill)
    return min(hand, key=lambda cid: (-score(cid), cid))


def weighted_k(obs, sp, c):
    return (sp["w_best"] * later_best(obs, c) + sp["w_value"] * c.value / 20 + sp["w_spaces"] * c.spaces
            + sp["w_yield"] * gnome_yield(c) + sp["w_hold"] * (1 if c.colour == obs.end_colour else 0)
            + sp["w_vp"] * c.vp / 5)


HEURISTICS = {
    "builder": heuristic(builder_play, builder_k),
    "ender": heuristic(ender_play, ender_k),
    "high-roller": heuristic(high_roller_play, high_roller_k),
    "weighted": heuristic(weighted_play, weighted_k),
}
