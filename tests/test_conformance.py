"""The conformance test every registered game passes (docs/adding-a-game.md): a sixth game gets all of it by being
listed in sim/registry.py.

- its spec is consistent (players, parameters, variants, strategies, columns, docs that exist);
- random play is legal and keeps what every game conserves (one win shared out exactly, ranks that match it);
- the njit kernel plays the same games as the pure-Python reference, with random and with the default strategy;
- `sim trace` decodes every event of a game and ends on the outcome the batch kernel gave for it;
- 1 and 2 threads (and any chunking) give identical aggregates;
- a bad player count, variant or parameter is one line and exit status 2 on the command line.
"""
import os
import re

import numpy as np
import pytest
from click.testing import CliRunner

from sim.registry import PACKAGES, all_games, canonical_id, get_game
from sim.seats import parse_seat
from sim.spec import MAX_SEATS, WIN_SCALE, SpecError
from tests.helpers import kernel_games, make_config, reference_mismatches

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = [g.id for g in all_games()]
RANK, WIN = 1, 2  # SEAT_BASE columns: score, rank, win60


def test_registry_lists_every_package_once_and_resolves_aliases():
    assert len(GAMES) == len(PACKAGES) == len(set(GAMES))
    names = [n for g in all_games() for n in (g.id, *g.aliases)]
    assert len(names) == len(set(names)), "an alias repeats an id or another alias"
    for g in all_games():
        for name in (g.id, *g.aliases, g.id.upper()):
            assert canonical_id(name) == g.id
    with pytest.raises(SpecError, match="unknown game 'chess'; accepted: "):
        canonical_id("chess")


@pytest.mark.parametrize("gid", GAMES)
def test_spec_is_consistent(gid):
    g = get_game(gid)
    assert g.package.endswith(gid.replace("-", "_"))
    assert 2 <= g.min_players <= g.default_players <= g.max_players <= MAX_SEATS
    names = [p.name for p in g.params]
    assert len(names) == len(set(names)) and "players" not in names
    for p in g.params:
        assert p.lo <= p.default <= p.hi and p.help, p.name
    variants = [v.name for v in g.variants]
    assert len(variants) == len(set(variants)) and "base" not in variants
    for v in g.variants:
        assert v.help
        for name, value in v.sets.items():
            assert g.param(name).lo <= value <= g.param(name).hi, (v.name, name)
        assert all(x in variants for x in v.excludes), v.name
    sids = [s.sid for s in g.strategies]
    assert len(sids) == len(set(sids)) and len({s.name for s in g.strategies}) == len(sids)
    assert "random" in {s.name for s in g.strategies}
    default = parse_seat(g, g.default_strategy, {})  # a shipped name, or a tuned spec of one
    assert default.name != "random" and default.fn is None, "the default strategy must be a shipped heuristic"
    assert default.label == g.default_strategy, "the default spec must be canonical (its own seat label)"
    assert len(set(g.all_seat_columns)) == len(g.all_seat_columns)
    assert len(set(g.all_game_columns)) == len(g.all_game_columns)
    assert g.length_column in g.game_columns
    for r in g.ratios:  # a per-seat ratio may divide by a game column (the same for every seat)
        columns = g.all_seat_columns + g.all_game_columns if r.per_seat else g.all_game_columns
        assert r.numerator in columns and r.denominator in columns, r.name
    assert all(code != 0 and text for code, text in g.error_codes.items())
    for path in g.data_tables.values():
        assert os.path.isfile(path)


@pytest.mark.parametrize("gid", GAMES)
def test_docs_exist_and_rules_cite_their_ids(gid):
    g = get_game(gid)
    for doc in (g.docs, g.rules_doc):
        assert os.path.isfile(os.path.join(ROOT, doc)), doc
    with open(os.path.join(ROOT, g.rules_doc), encoding="utf-8") as f:
        ids = set(re.findall(r"\b([A-Z]+)-\d+\b", f.read()))
    kernel = os.path.join(ROOT, *g.package.split("."))
    cited = set()
    for name in os.listdir(kernel):
        if name.endswith(".py"):
            with open(os.path.join(kernel, name), encoding="utf-8") as f:
                cited |= set(re.findall(r"#.*?\b([A-Z]+)-\d+\b", f.read()))
    assert ids & cited, "the kernel cites no rule id of its rules file"


def _random_config(g, players, seed=5):
    return make_config(g, players, "random", (), {}, seed)


@pytest.mark.parametrize("gid", GAMES)
def test_random_play_is_legal_and_shares_one_win(gid):
    g = get_game(gid)
    for players in range(g.min_players, g.max_players + 1):
        seat_out, game_out = kernel_games(_random_config(g, players), 0, 300)  # raises if a game errs
        assert (game_out[:, 0] == 0).all()
        ranks, win = seat_out[:, :, RANK], seat_out[:, :, WIN]
        assert (win.sum(axis=1) == WIN_SCALE).all(), "every game shares out exactly one win"
        assert ((ranks >= 1) & (ranks <= players)).all()
        assert ((ranks == 1) == (win > 0)).all(), "the winners are the seats ranked first"
        winners = (ranks == 1).sum(axis=1)
        assert (win[ranks == 1] == np.repeat(WIN_SCALE // winners, winners)).all()
        for s in range(players):  # rank = 1 + number of seats ranked strictly better
            better = (ranks < ranks[:, s:s + 1]).sum(axis=1)
            assert (ranks[:, s] == 1 + better).all()
        length = game_out[:, g.all_game_columns.index(g.length_column)]
        assert (length > 0).all()


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("who", ["random", "default"])
def test_kernel_plays_the_reference_games(gid, who):
    g = get_game(gid)
    strategy = "random" if who == "random" else None
    for players in sorted({g.min_players, g.max_players}):
        config = make_config(g, players, strategy, (), {}, 17)
        count = 40 if who == "random" else 12
        assert reference_mismatches(config, 1000, count) == []


@pytest.mark.parametrize("gid", GAMES)
def test_trace_decodes_and_ends_on_the_batch_outcome(gid):
    from sim.tracing import trace_game
    g = get_game(gid)
    config = make_config(g, g.default_players, None, (), {}, 3)
    seat_out, game_out = kernel_games(config, 7, 1)
    events, record = trace_game(config, 7)
    assert events and all(e["kind"] != "unknown" and isinstance(e["text"], str) for e in events)
    assert record["score"] == seat_out[0, :, 0].tolist() and record["rank"] == seat_out[0, :, RANK].tolist()
    assert record["game"][g.length_column] == int(game_out[0, g.all_game_columns.index(g.length_column)])


@pytest.mark.parametrize("gid", GAMES)
def test_threads_and_chunks_do_not_change_numbers(gid):
    from sim.engine import run_games
    g = get_game(gid)
    config = make_config(g, g.default_players, "random", (), {}, 9)
    one = run_games(config, 1500, threads=1, chunk_size=1500).aggregate.to_dict()
    two = run_games(config, 1500, threads=2, chunk_size=256).aggregate.to_dict()
    assert one == two


@pytest.mark.parametrize("gid", GAMES)
def test_bad_player_count_variant_and_parameter_exit_2(gid):
    from sim.cli import main
    g = get_game(gid)
    p = g.params[0]
    cases = [
        (["--players", str(g.max_players + 1)], f"{g.id} takes"),
        (["--players", str(g.min_players - 1)], f"{g.id} takes"),
        (["--variant", "no-such-variant"], "unknown variant 'no-such-variant'"),
        (["--set", "no_such_param=1"], "unknown parameter 'no_such_param'"),
        (["--set", f"{p.name}={p.hi + 1}"], "out of range"),
        (["--strategy", "no-such-strategy"], "unknown strategy 'no-such-strategy'"),
    ]
    runner = CliRunner()
    for extra, message in cases:
        result = runner.invoke(main, ["run", g.id, "--n", "10", *extra], catch_exceptions=False)
        assert result.exit_code == 2, (extra, result.output)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and message in lines[0], (extra, result.output)
