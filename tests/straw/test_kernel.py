"""The Straw njit kernel against the reference, and rule properties checked on the kernel's own event log."""
import numpy as np
import pytest

from sim.games.straw import kernel
from sim.registry import get_game

from sim.games.straw import obs as O
from sim.games.straw.obs import OBS_SIZE
from sim.games.straw.rules import COPY, STRAW, build_deck, hand_value
from sim.tracing import trace_game
from tests.helpers import make_config, reference_mismatches

SPEC = get_game("straw")

# 10,400 random-strategy games over every player count and variant combination, plus non-default parameters.
RANDOM_CASES = [
    (players, variants, sets)
    for players in (2, 3, 4, 5, 6)
    for variants, sets in [((), {}), (("evertide",), {}), (("deck-b",), {}), (("evertide", "deck-b"), {}),
                           ((), {"carpet_clamp": 0, "lamp_min": 0, "lamp_max": 20}),
                           ((), {"hand_size": 7, "straw": 3, "break_at": 30, "rounds": 2}),
                           (("evertide",), {"target": 40, "item_copies": 2, "copy": 10, "reverse": 0}),
                           ((), {"item_min": 3, "item_max": 6, "carpet_copies": 3, "lamp": 0, "copy": 8})]
]
HEURISTICS = ["dump-heaviest", "safe", "straw-hunter", "weighted"]


@pytest.mark.parametrize("players,variants,sets", RANDOM_CASES)
def test_kernel_equals_reference_random(players, variants, sets):
    config = make_config(SPEC, players, "random", variants, sets, seed=11 + players)
    assert reference_mismatches(config, 1000, 260) == []


@pytest.mark.parametrize("strategy", HEURISTICS)
def test_kernel_equals_reference_heuristics(strategy):
    for players, variants in ((2, ()), (4, ("deck-b",)), (6, ("evertide",))):
        config = make_config(SPEC, players, strategy, variants, seed=5)
        assert reference_mismatches(config, 0, 170) == []


def test_kernel_equals_reference_mixed_seats_and_parameters():
    config = make_config(SPEC, 5, "random,safe:escape_at=30,straw-hunter,weighted:w_press=2:w_esc=1,dump-heaviest",
                         ("evertide",), {"carpet_clamp": 0}, seed=3)
    assert reference_mismatches(config, 0, 300) == []
    config = make_config(SPEC, 3, "weighted,weighted:w_exact=20,safe", (), {"lamp_min": 0, "hand_size": 6}, seed=4)
    assert reference_mismatches(config, 0, 300) == []


def replay_and_check(config, game_index):
    """Replay the kernel's event log with independent bookkeeping: every play legal, 64 (deck size) cards conserved
    at every step, T as the rules say, and the round scores equal the hand sums STRAW-18 gives."""
    p = config.params
    deck_size = len(build_deck(p))
    events, record = trace_game(config, game_index)
    totals = [0] * config.players
    hands = pile = None
    for ev in events:
        kind = ev["kind"]
        if kind == "round":
            hands = [[] for _ in range(config.players)]
            T, stack, pile = 0, 0, ev["pile"]
            dealt = 0
        elif kind == "deal":  # events number seats from 1 (docs/trace.md); the lists here are 0-based
            hands[ev["seat"] - 1].append(ev["card"])
            dealt += 1
        elif kind == "draw":
            hands[ev["seat"] - 1].append(ev["card"])
            pile -= 1
            assert pile == ev["pile"]
        elif kind == "play":
            seat, card = ev["seat"] - 1, ev["card"]
            assert card in hands[seat], "played a card not in hand"
            assert not (card == "Copy" and stack == 0), "Copy on an empty Camel"
            assert not (card == "Straw" and T != p["break_at"]), "Straw below the threshold"
            hands[seat].remove(card)
            stack += 1
            if ev["effect"] in ("ADD", "LAMP"):
                T += ev["value"]
            elif ev["effect"] == "SUB":
                T = max(0, T - ev["value"]) if p["carpet_clamp"] else T - ev["value"]
            assert T == ev["T"]
            assert sum(len(h) for h in hands) + pile + stack == deck_size  # conservation
        elif kind == "round_end":
            seat = ev["seat"] - 1
            h = sum(hand_value(_code(c)) for c in hands[seat])
            ending = ev["ending"]
            ended_it = ev["seat"] == ev["ender"]
            expected = {"normal break": 0 if ended_it else h, "straw break": h if ended_it else 0, "stall": h}[ending]
            assert ev["score"] == expected
            totals[seat] += expected
            assert ev["total"] == totals[seat]
    assert record["score"] == totals
    return record


def _code(name):
    names = {"Reverse": 20, "Copy": COPY, "Lamp": 22, "Straw": STRAW}
    if name in names:
        return names[name]
    if name.startswith("Carpet-"):
        return 10 + int(name[7:])
    return int(name)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_properties_on_kernel_playouts(players):
    for strategy, variants, sets in (("random", (), {}), ("random", ("deck-b",), {"carpet_clamp": 0}),
                                     ("weighted", ("evertide",), {}), ("safe", (), {"hand_size": 8})):
        config = make_config(SPEC, players, strategy, variants, sets, seed=99)
        for g in range(40):
            replay_and_check(config, g)


def test_trace_reproduces_the_batch_game():
    config = make_config(SPEC, 3, "random,weighted,straw-hunter", ("evertide",), seed=7)
    from tests.helpers import kernel_games
    seat_out, game_out = kernel_games(config, 120, 10)
    for i in range(10):
        _, record = trace_game(config, 120 + i)
        assert record["score"] == seat_out[i, :, 0].tolist()
        assert record["rank"] == seat_out[i, :, 1].tolist()
        assert list(record["game"].values()) == game_out[i, 1:].tolist()


def test_observation_holds_no_hidden_information():
    """The kernel builds a strategy's observation only from public state and the player's own hand: other hands and
    the pile are not arguments of `_fill_turn_obs`, and the own hand comes out ascending from its counts per code."""
    import inspect
    params = inspect.signature(kernel._fill_turn_obs.py_func).parameters
    assert list(params) == ["obs", "counts", "mask", "n_hand", "legal", "n_legal", "seat", "T", "direction", "pile",
                            "stack_len", "top_kind", "top_value"]
    rng = np.random.default_rng(1)
    for _ in range(50):
        hand = np.sort(rng.integers(1, 24, size=rng.integers(0, 11)))
        counts = np.bincount(hand, minlength=24).astype(np.int8)
        mask = int(sum(1 << int(c) for c in set(hand.tolist())))
        legal = np.array(sorted(set(hand.tolist())) + [0] * (24 - len(set(hand.tolist()))), np.int64)
        obs = np.full(OBS_SIZE, -7, np.int32)
        kernel._fill_turn_obs(obs, counts, mask, len(hand), legal, len(set(hand.tolist())), 2, 30, 1, 10, 3, 1, 5)
        assert obs[O.O_HAND:O.O_HAND + len(hand)].tolist() == hand.tolist()
        assert (obs[O.O_HAND + len(hand):O.O_HAND + 10] == 0).all() and obs[O.O_HAND_LEN] == len(hand)
        assert obs[O.O_LEGAL:O.O_LEGAL + 24].nonzero()[0].tolist() == sorted(set(hand.tolist()))
