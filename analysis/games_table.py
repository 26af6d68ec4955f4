"""Per-game rows (games.parquet, docs/results.md): loading them fast and analysing them like an aggregate.

`analyse_games` gives the same seat win shares and Wilson intervals, score means, quantiles and histograms and
game-length distribution as `analysis.summary` does from the exact aggregate (tests check they agree), plus what
only per-game rows can give: the within-game spread of the seats' scores.
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from analysis.balance import mean_interval
from analysis.intervals import mean_se, wilson
from analysis.summary import _hist_quantiles
from sim.aggregate import IntHistogram, winning_margin
from sim.spec import WIN_SCALE

GAMES_FILE = "games.parquet"
_LENGTH_GUESSES = ("length", "turns", "rounds", "rounds_played")


def _read_json(path, key=None):
    if not os.path.isfile(path):
        return None
    import json
    with open(path) as f:
        data = json.load(f)
    return data.get(key) if key is not None else data


def _games_path(run_dir):
    return run_dir if os.path.isfile(run_dir) else os.path.join(run_dir, GAMES_FILE)


def analysis_columns(names, players=None, extra=()):
    """The columns `analyse_games` reads (plus `extra`, e.g. the game's length column), among the file's names."""
    if players is None:
        players = sum(1 for c in names if c.endswith("_score") and c[0] == "s" and c[1:-6].isdigit())
    wanted = ["game", "players", "lead_changes", *_LENGTH_GUESSES, *extra]
    for s in range(1, players + 1):  # s1_ is the first seat's (docs/results.md)
        wanted += [f"s{s}_strategy", f"s{s}_score", f"s{s}_rank", f"s{s}_win"]
    return [c for c in names if c in wanted]


def load_games(run_dir, columns=None) -> pd.DataFrame:
    """games.parquet of a run directory (or the file itself) as a DataFrame, via pyarrow with threads.

    columns: None for every column, "analysis" for only those `analyse_games` needs (much faster on big files),
    or a list. Strategy columns come back categorical. When the run's manifest.json and summary.json are next to
    the file, df.attrs holds "manifest" and "length_column" (the game's length column, named in summary.json; read
    from there so that loading never imports the game registry and numba).
    """
    import pyarrow.parquet as pq
    path = _games_path(run_dir)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path} does not exist (run with --save-games to write per-game rows)")
    folder = os.path.dirname(os.path.abspath(path))
    manifest = _read_json(os.path.join(folder, "manifest.json"))
    length_column = (_read_json(os.path.join(folder, "summary.json"), "length") or {}).get("column")
    names = pq.ParquetFile(path).schema_arrow.names
    if isinstance(columns, str) and columns == "analysis":
        columns = analysis_columns(names, extra=[length_column] if length_column else ())
    wanted = names if columns is None else list(columns)
    dictionary = [c for c in wanted if c.endswith("_strategy")]
    table = pq.read_table(path, columns=wanted, read_dictionary=dictionary or None, use_threads=True)
    df = table.to_pandas()
    if manifest is not None:
        df.attrs["manifest"] = manifest
    if length_column:
        df.attrs["length_column"] = length_column
    return df


def _hist(values):
    hist = IntHistogram()
    hist.add(values)
    return hist


def _mean_block(values):
    v = np.asarray(values, float)
    n = v.size
    mean, se = mean_se(float(v.sum()), float((v * v).sum()), n)
    lo, hi = mean_interval(mean, se, n) if n > 1 else (float("nan"), float("nan"))
    return {"mean": mean, "se": se, "lo": lo, "hi": hi}


def analyse_games(df, players=None, length_column=None) -> dict:
    """Statistics of per-game rows. Returns

    {"games", "players", "seats": [per seat: seat, strategy, games, wins, win_share, win_lo, win_hi, score_mean,
      score_se, score_min, score_max, rank_mean, rank_counts, score_quantiles, score_hist {offset, counts}],
     "strategies": [per label: strategy, seats, seat_games, wins, win_share, win_lo, win_hi, score_mean, score_se],
     "length": {column, mean, se, q05..q95, min, max, hist} (None without a length column),
     "ties", "tie_rate" {value, lo, hi}, "margin" {mean, se, lo, hi},
     "score_spread_within" {mean, se, lo, hi}: mean over games of the standard deviation of the seats' scores,
     "lead_changes" {mean, se, lo, hi} when recorded}
    """
    if players is None:
        players = int(df["players"].iloc[0]) if "players" in df and len(df) else \
            len([c for c in df.columns if c.endswith("_score")])
    n = len(df)
    numbers = range(1, players + 1)  # the file's columns are named by seat number: s1_ is index 0's
    scores = np.column_stack([df[f"s{s}_score"].to_numpy(np.int64) for s in numbers])
    ranks = np.column_stack([df[f"s{s}_rank"].to_numpy(np.int64) for s in numbers])
    win = np.column_stack([df[f"s{s}_win"].to_numpy(float) for s in numbers])
    labels = []
    for s in numbers:
        col = f"s{s}_strategy"
        if col in df and n:
            c = df[col]
            labels.append(str(c.cat.categories[c.cat.codes.iloc[0]]) if hasattr(c, "cat") else str(c.iloc[0]))
        else:
            labels.append(f"seat {s}")
    seats = []
    win_totals = np.round(win.sum(axis=0) * WIN_SCALE) / WIN_SCALE  # shares are multiples of 1/60: exact
    for s in range(players):
        wins = float(win_totals[s])
        lo, hi = wilson(wins, n)
        x = scores[:, s]
        mean, se = mean_se(int(x.sum()), int((x * x).sum()), n)
        h = _hist(x)
        seats.append({"seat": s, "strategy": labels[s], "games": n, "wins": wins,
                      "win_share": wins / n if n else float("nan"), "win_lo": lo, "win_hi": hi,
                      "score_mean": mean, "score_se": se, "score_min": int(x.min()) if n else None,
                      "score_max": int(x.max()) if n else None,
                      "rank_mean": float(ranks[:, s].mean()) if n else float("nan"),
                      "rank_counts": np.bincount(ranks[:, s] - 1, minlength=players)[:players].tolist() if n
                      else [0] * players,
                      "score_quantiles": _hist_quantiles(h), "score_hist": h.to_dict()})
    groups = {}
    for s, label in enumerate(labels):
        groups.setdefault(label, []).append(s)
    strategies = []
    for label, members in groups.items():
        m = n * len(members)
        wins = float(sum(win_totals[s] for s in members))
        lo, hi = wilson(wins, m)
        x = scores[:, members]
        mean, se = mean_se(int(x.sum()), int((x * x).sum()), m)
        strategies.append({"strategy": label, "seats": members, "seat_games": m, "wins": wins,
                           "win_share": wins / m if m else float("nan"), "win_lo": lo, "win_hi": hi,
                           "score_mean": mean, "score_se": se})
    length_column = length_column or df.attrs.get("length_column") or next(
        (c for c in _LENGTH_GUESSES if c in df.columns), None)
    length = None
    if length_column is not None and length_column in df.columns:
        x = df[length_column].to_numpy(np.int64)
        h = _hist(x)
        mean, se = mean_se(int(x.sum()), int((x * x).sum()), n)
        length = {"column": length_column, "mean": mean, "se": se, **_hist_quantiles(h),
                  "min": int(x.min()) if n else None, "max": int(x.max()) if n else None, "hist": h.to_dict()}
    tie = (ranks == 1).sum(axis=1) > 1
    ties = int(tie.sum())
    lo, hi = wilson(ties, n)
    out = {"games": n, "players": players, "seats": seats, "strategies": strategies, "length": length,
           "ties": ties, "tie_rate": {"value": ties / n if n else float("nan"), "lo": lo, "hi": hi},
           "margin": _mean_block(winning_margin(scores, ranks, tie)),
           "score_spread_within": _mean_block(scores.std(axis=1))}
    if "lead_changes" in df.columns:
        out["lead_changes"] = _mean_block(df["lead_changes"].to_numpy(np.int64))
    return out


def analyse_run_games(run_dir, players=None) -> dict:
    """load_games(run_dir, columns="analysis") then analyse_games: the fast path for big saved runs."""
    df = load_games(run_dir, columns="analysis")
    return analyse_games(df, players)


__all__ = ["load_games", "analyse_games", "analyse_run_games", "analysis_columns"]
