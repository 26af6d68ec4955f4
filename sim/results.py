"""Run directories: manifest.json, summary.json and games.parquet, each written atomically (docs/results.md).

A run directory is created empty before the first game and never reused: an existing non-empty `--out` is refused, so
nothing written earlier is touched. Files appear only complete (written to a temporary name, then renamed).
"""
from __future__ import annotations

import json
import os
import platform
from datetime import datetime, timezone

import numba
import numpy as np

from sim.spec import SpecError, WIN_SCALE

PACKAGE_VERSION = "0.1.0"
MANIFEST, SUMMARY, GAMES = "manifest.json", "summary.json", "games.parquet"


def default_run_dir(game_id, root="runs"):
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = os.path.join(root, f"{stamp}-{game_id}")
    k = 2
    while os.path.exists(path):
        path = os.path.join(root, f"{stamp}-{game_id}-{k}")
        k += 1
    return path


def prepare_run_dir(path):
    """Create an empty run directory or refuse with one line; never touches existing files."""
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise SpecError(f"--out {path} exists and is not a directory")
        if os.listdir(path):
            raise SpecError(f"--out {path} already holds files; choose a new directory (nothing was changed)")
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".write-test")
        with open(probe, "w"):
            pass
        os.remove(probe)
    except OSError as exc:
        raise SpecError(f"cannot write to --out {path}: {exc.strerror or exc}") from None
    return path


def remove_if_empty(path):
    """Undo prepare_run_dir when a run failed before writing anything."""
    try:
        os.rmdir(path)
    except OSError:
        pass


def write_json_atomic(path, data):
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=2, default=json_default)
        f.write("\n")
    os.replace(tmp, path)


def json_default(obj):
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def read_json(path):
    with open(path) as f:
        return json.load(f)


def seat_descriptions(seats):
    return [{"label": s.label, "name": s.name, "params": s.params, **({"file": s.path} if s.path else {})}
            for s in seats]


def manifest(result, command, run_dir, files, backend="local", extra=None):
    cfg = result.config
    game = cfg.game
    return {
        "game": game.id, "title": game.title, "rules_version": game.version, "package_version": PACKAGE_VERSION,
        "players": cfg.players, "variants": list(cfg.variants), "sets": cfg.sets, "params": cfg.params,
        "strategies": seat_descriptions(cfg.seats), "seed": cfg.seed,
        **({"data_files": cfg.data_files()} if cfg.data_files() else {}),
        "n_requested": result.games_requested, "n_games": result.aggregate.n,
        "status": "complete" if result.complete else "partial",
        "seconds": round(result.seconds, 3), "games_per_second": round(result.games_per_second, 1),
        "threads": result.threads, "chunks": result.chunks, "backend": backend,
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": command, "run_dir": os.path.abspath(run_dir), "files": files,
        "versions": {"python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__},
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        **(extra or {}),
    }


class GameRowWriter:
    """Streams per-game rows to games.parquet, one row group per chunk; the file is renamed into place on close,
    so a reader never sees a half-written file (a partial run's file holds the chunks that finished)."""

    def __init__(self, path, config):
        import pyarrow as pa
        import pyarrow.parquet as pq
        self._pa, self._pq = pa, pq
        self.path, self.tmp = path, f"{path}.tmp-{os.getpid()}"
        self.config = config
        game = config.game
        self.seat_cols = [c for c in game.all_seat_columns if c != "win60"]
        self.game_cols = [c for c in game.all_game_columns if c != "error"]
        self.labels = [s.label for s in config.seats]
        self.writer = None
        self.rows = 0

    def write(self, first_game, seat_out, game_out):
        pa = self._pa
        game = self.config.game
        n = game_out.shape[0]
        cols = {"game": pa.array(np.arange(first_game, first_game + n, dtype=np.int64)),
                "seed": pa.array(np.full(n, self.config.seed, np.int64)),
                "players": pa.array(np.full(n, self.config.players, np.int8))}
        for s in range(self.config.players):
            seat = f"s{s + 1}"  # columns by the seat number a person reads: s1_ is the first seat's
            cols[f"{seat}_strategy"] = pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int32)),
                                                                      pa.array([self.labels[s]]))
            for c in self.seat_cols:
                cols[f"{seat}_{c}"] = pa.array(seat_out[:, s, game.all_seat_columns.index(c)])
            cols[f"{seat}_win"] = pa.array(seat_out[:, s, 2] / WIN_SCALE)
        for c in self.game_cols:
            cols[c] = pa.array(game_out[:, game.all_game_columns.index(c)])
        table = pa.table(cols)
        if self.writer is None:
            self.writer = self._pq.ParquetWriter(self.tmp, table.schema, compression="zstd")
        self.writer.write_table(table)
        self.rows += n

    def close(self):
        if self.writer is not None:
            self.writer.close()
            os.replace(self.tmp, self.path)
            self.writer = None

    def abandon(self):
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if os.path.exists(self.tmp):
            os.remove(self.tmp)


def reproduce_command(config, n, command="run", extra=()):
    """The `sim` command that plays exactly these games again (same seed, rules, seats and n)."""
    parts = ["sim", command, config.game.id, "--players", str(config.players), "--seed", str(config.seed)]
    for v in config.variants:
        parts += ["--variant", v]
    for name, value in config.sets.items():
        parts += ["--set", f"{name}={value}"]
    for table, path in config.data_paths.items():
        parts += ["--data", f"{table}={path}"]
    labels = [s.label for s in config.seats]
    parts += ["--strategy", labels[0] if len(set(labels)) == 1 else ",".join(labels)]
    if n is not None:
        parts += ["--n", str(n)]
    parts += list(extra)
    return " ".join(quote_arg(p) for p in parts)


def quote_arg(arg):
    return arg if arg and all(ch.isalnum() or ch in "-_./:=,+" for ch in arg) else repr(arg)
