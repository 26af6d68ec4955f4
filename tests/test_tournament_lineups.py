"""Tournaments of any line-up: distinct, one-vs-rest and all line-ups (sim.multirun.tournament_lineups), every seat
rotation, pairwise tables without self-comparisons, ratings whose intervals count a game once, the CLI's --lineups
and the manifest command that plays the same games again."""
from __future__ import annotations

import json
import shlex
from collections import Counter
from math import comb

import numpy as np
import pytest

import sim
from sim.multirun import lineup_mode, tournament_lineups
from tests.test_cli import run_cli

NAMES = ["a", "b", "c", "d"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lineup_counts(players):
    k = len(NAMES)
    assert len(tournament_lineups(NAMES, players, "distinct")) == comb(k, players) * players
    pairs = k * (k - 1) if players > 2 else k * (k - 1) // 2  # 2 players: a alone vs b is b alone vs a
    assert len(tournament_lineups(NAMES, players, "one-vs-rest")) == pairs * players
    assert len(tournament_lineups(NAMES, players, "all")) == (comb(k + players - 1, players) - k) * players


@pytest.mark.parametrize("mode", ["distinct", "one-vs-rest", "all"])
def test_every_rotation_is_present_once_and_every_strategy_visits_every_seat_equally(mode):
    lineups = tournament_lineups(NAMES, 3, mode)
    seen = {tuple(x) for x in lineups}
    assert len(seen) == len(lineups)
    for x in lineups:
        assert all(tuple(x[r:] + x[:r]) in seen for r in range(3))
        assert len(set(x)) >= 2
    for name in NAMES:
        per_seat = Counter(seat for x in lineups for seat, s in enumerate(x) if s == name)
        assert len(set(per_seat[s] for s in range(3))) == 1 and per_seat[0] > 0
    assert tournament_lineups(NAMES, 3, mode) == lineups  # a fixed order: reproducible


def test_one_vs_rest_seats_one_strategy_against_copies_of_another():
    lineups = tournament_lineups(["greedy", "weighted"], 4)
    assert len(lineups) == 8 and lineup_mode(2, 4) == "one-vs-rest"
    assert sorted(Counter(x).most_common(1)[0][1] for x in lineups) == [3] * 8
    assert ["greedy", "weighted", "weighted", "weighted"] in lineups
    assert ["weighted", "weighted", "greedy", "weighted"] in lineups


def test_default_mode_and_the_refusals_that_remain():
    assert lineup_mode(4, 4) == "distinct" and lineup_mode(3, 4) == "one-vs-rest"
    with pytest.raises(sim.SimError, match="--lineups distinct at 4 players needs at least 4"):
        tournament_lineups(["a", "b", "c"], 4, "distinct")
    with pytest.raises(sim.SimError, match="unknown --lineups 'pairs'"):
        tournament_lineups(NAMES, 2, "pairs")
    with pytest.raises(sim.SimError, match="at least two different strategies"):
        tournament_lineups(["a"], 2, "all")
    with pytest.raises(sim.SimError, match="lists strategy 'a' twice"):
        tournament_lineups(["a", "a", "b"], 2)
    with pytest.raises(sim.SimError, match="unknown strategy 'genius'"):
        sim.tournament("straw", "safe,genius", 100, players=3)


def test_matrix_counts_comparisons_between_different_strategies_only():
    t = sim.tournament("straw", "safe,random", 600, players=3, seed=2)
    assert t.mode == "one-vs-rest" and len(t.lineups) == 6 and t.per_lineup == 100
    assert np.all(np.diag(t.wins_matrix) == 0) and np.all(np.diag(t.games_matrix) == 0)
    # a line-up seating safe once and random twice holds two safe-random comparisons per game
    assert t.games_matrix[0, 1] == 6 * 100 * 2 and t.met.iloc[0, 1] == 6 * 100
    wins = 0
    for labels, agg in t.lineup_aggregates:
        wins += sum(int(agg.pair_wins[a, b]) for a in range(3) for b in range(3)
                    if labels[a] == "safe" and labels[b] == "random")
    assert t.wins_matrix[0, 1] == wins
    totals = t.strategies.set_index("strategy")
    assert totals.loc["safe", "seat_games"] == 3 * 100 + 3 * 100 * 2  # alone in 3 line-ups, twice in 3
    assert totals.loc["safe", "win_lo"] < totals.loc["safe", "win_share"] < totals.loc["safe", "win_hi"]
    ratings = t.ratings.set_index("strategy")
    assert ratings.loc["safe", "elo"] > 0 > ratings.loc["random", "elo"]


def test_ratings_count_a_game_once_when_a_lineup_seats_copies():
    from analysis.ratings import bradley_terry
    wins, games = np.array([[0, 700], [300, 0]]), np.array([[0, 1000], [1000, 0]])
    plain = bradley_terry(wins, ["x", "y"], games=games)
    per_game = bradley_terry(wins, ["x", "y"], games=games, per_game=games // 2)
    assert np.allclose(plain["rating"], per_game["rating"])
    assert np.allclose(per_game["se"], plain["se"] * np.sqrt(2))


def test_cli_lineups_and_the_manifest_command_plays_the_same_games(tmp_path):
    code, out, err = run_cli(["tournament", "straw", "--players", "3", "--strategies", "safe,random,weighted",
                              "--lineups", "all", "--n", "1200", "--seed", "3", "--out", str(tmp_path / "t")])
    assert code == 0, err
    assert "21 line-ups (all: every mix of at least two strategies) × 57 games per line-up" in out
    assert "a copy against a copy of itself is not counted" in out
    manifest = json.loads((tmp_path / "t" / "manifest.json").read_text())
    assert "--lineups all" in manifest["command"] and len(manifest["runs"]) == 21
    report = (tmp_path / "t" / "report.html").read_text()
    assert "21 line-ups (all:" in report and "a copy against a copy of itself is not counted" in report
    args = shlex.split(manifest["command"])[1:] + ["--out", str(tmp_path / "again"), "-q"]
    code, _, err = run_cli(args)
    assert code == 0, err
    for run in manifest["runs"]:
        first = json.loads((tmp_path / "t" / run["dir"] / "summary.json").read_text())
        again = json.loads((tmp_path / "again" / run["dir"] / "summary.json").read_text())
        assert first["aggregate"] == again["aggregate"]


def test_saved_tournament_with_copies_reports_its_mode(tmp_path):
    from sim.reporting import context_from_run_dirs, expand_run_dirs
    sim.tournament("straw", ["safe", "random"], 400, players=3, seed=1, out=tmp_path / "t", report=False)
    context = context_from_run_dirs(expand_run_dirs([str(tmp_path / "t")]))
    t = context["analysis"]["tournament"]
    assert t["mode"] == "one-vs-rest" and t["copies"] and t["strategies"] == ["safe", "random"]


def test_crows_four_players_two_strategies():
    """The issue's example at a small n: greedy against weighted at 4 players, each alone against three copies."""
    t = sim.tournament("kruki", "greedy,weighted", 40, players=4, seed=1)
    assert len(t.lineups) == 8 and t.per_lineup == 5 and t.names == ["greedy", "weighted"]
    assert t.met.iloc[0, 1] == 40 and t.games_matrix[0, 1] == 8 * 5 * 3
