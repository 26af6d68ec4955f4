"""The Dask backend on 127.0.0.1 only: same numbers as in-process, survives a killed worker, clear errors, Ctrl-C.
Every test starts and stops its own cluster."""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from sim.engine import run_games
from sim.registry import get_game
from tests.helpers import make_config, printed, running, wait_until

pytestmark = pytest.mark.filterwarnings("ignore")


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import Client, LocalCluster
    import logging
    cl = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      host="127.0.0.1", silence_logs=logging.CRITICAL)
    client = Client(cl, set_as_default=False)
    yield client
    client.close()
    cl.close()


def _local(config, n):
    return run_games(config, n, chunk_size=2500).aggregate.to_dict()


def test_cluster_numbers_equal_in_process(cluster):
    from sim.distributed import run_on_cluster
    config = make_config(get_game("straw"), 4, "random,safe,weighted,straw-hunter", seed=77)
    (result,), _, _ = run_on_cluster(cluster, [config], 12000, chunk_size=1000)
    assert result.complete and result.aggregate.n == 12000
    assert result.aggregate.to_dict() == _local(config, 12000)


def test_paired_runs_on_cluster_equal_in_process(cluster):
    from sim.distributed import run_on_cluster
    from sim.multirun import run_together
    spec = get_game("straw")
    configs = [make_config(spec, 3, "random", v, seed=5) for v in ((), ("deck-b",), ("evertide",))]
    results, paired, _ = run_on_cluster(cluster, configs, 6000, chunk_size=700)
    local = run_together(configs, 6000, chunk_size=1500)
    for a, b in zip(results, local.results):
        assert a.aggregate.to_dict() == b.aggregate.to_dict()
    for a, b in zip(paired[1:], local.paired[1:]):
        assert a.sums == b.sums and a.n == b.n


def test_both_backends_answer_one_interface(cluster):
    from sim.backends import LocalBackend
    from sim.distributed import DaskBackend
    spec = get_game("straw")
    configs = [make_config(spec, 3, "random", v, seed=8) for v in ((), ("deck-b",))]
    with LocalBackend(threads=1) as local, DaskBackend(cluster.scheduler.address) as dask:
        a = local.run(configs, 3000, chunk_size=700)
        b = dask.run(configs, 3000, chunk_size=1100)
        assert dask.describe()["backend"] == "dask" and local.describe() == {}
    assert [r.aggregate.to_dict() for r in a.results] == [r.aggregate.to_dict() for r in b.results]
    assert a.paired[1].sums == b.paired[1].sums and all(r.complete for r in a.results + b.results)


def test_the_manifest_names_the_cluster_the_run_started_on(monkeypatch):
    """A Ctrl-C can stop the local workers before the manifest is written: the backend describes the cluster as the
    run found it when it started, not as it is afterwards."""
    from sim import distributed

    class Client:  # a scheduler with two workers, both gone once the run is over
        workers = {"tcp://127.0.0.1:1": {"nthreads": 1}, "tcp://127.0.0.1:2": {"nthreads": 1}}

        def scheduler_info(self):
            return {"address": "tcp://127.0.0.1:9", "workers": dict(self.workers)}

    def run_on_cluster(client, configs, n, **options):
        client.workers.clear()
        return [], [], []

    monkeypatch.setattr(distributed, "run_on_cluster", run_on_cluster)
    backend = distributed.DaskBackend("tcp://127.0.0.1:9")
    backend.client = Client()
    assert backend.describe()["workers"] == 2  # before any run: as it is now
    backend.run([], 10)
    assert distributed.describe_backend(backend.client, None)["workers"] == 0
    assert backend.describe() == {"backend": "dask", "scheduler": "tcp://127.0.0.1:9", "workers": 2,
                                  "worker_threads": 2}


def test_a_killed_worker_changes_nothing(cluster):
    from sim.distributed import run_on_cluster
    config = make_config(get_game("straw"), 3, "weighted", seed=31)
    pids = cluster.run(os.getpid)
    killed = []

    def kill_one(count):
        if not killed:
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    (result,), _, _ = run_on_cluster(cluster, [config], 30000, chunk_size=500, on_chunk=kill_one)
    assert killed and result.complete and result.aggregate.n == 30000
    assert result.aggregate.to_dict() == _local(config, 30000)
    cluster.wait_for_workers(2, timeout=60)


def test_unreachable_scheduler_is_one_line_and_bounded():
    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t = time.time()
    proc = subprocess.run([sys.executable, "-m", "sim", "run", "straw", "--n", "100", "--scheduler",
                           f"tcp://127.0.0.1:{port}", "--connect-timeout", "2"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot reach the Dask scheduler" in lines[0], proc.stderr
    assert time.time() - t < 30


def test_both_scheduler_and_workers_is_refused():
    proc = subprocess.run([sys.executable, "-m", "sim", "run", "straw", "--n", "100", "--scheduler",
                           "tcp://127.0.0.1:1", "--workers", "2"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "not both" in proc.stderr


def test_ctrl_c_on_a_cluster_run_leaves_a_valid_partial_run(tmp_path):
    out = tmp_path / "run"
    with running([sys.executable, "-m", "sim", "run", "straw", "--n", "50000000", "--workers", "2", "--chunk-size",
                  "20000", "--strategy", "weighted", "--out", str(out), "--save-games", "-q"],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        # a part file appears in games/ once its chunk is merged: the cluster is up and the run under way
        wait_until(proc, lambda: any(f.endswith(".parquet") for f in _ls(out / "games")), "a merged chunk")
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, printed(stdout, stderr)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "partial" and manifest["backend"] == "dask" and manifest["workers"] == 2
    assert 0 < manifest["n_games"] < 50000000
    import pandas as pd
    parts = [f for f in manifest["files"] if f.startswith("games/")]
    rows = pd.concat([pd.read_parquet(out / f) for f in parts])
    assert len(rows) == manifest["n_games"] and rows["game"].tolist() == list(range(manifest["n_games"]))
    assert sorted(os.listdir(out / "games")) == sorted(f[6:] for f in parts)


def _ls(path):
    return [f for f in os.listdir(path) if not f.startswith(".")] if os.path.isdir(path) else []


def test_a_study_on_the_cluster_gives_the_numbers_of_one_in_process(cluster):
    """sim tune's trials play game ranges (blocks) on the Dask backend exactly as on local threads."""
    from sim.distributed import DaskBackend
    from sim.search import Search, backend_player, run_study
    from sim.search_space import parse_param, parse_target
    from sim.backends import LocalBackend
    spec = get_game("straw")

    def study(backend):
        search = Search(spec, 3, [parse_param(spec, "break_at=40:60")], [parse_target("length=70", 3)], n=800,
                        seed=8)
        return run_study(search, 4, validate=800, play=backend_player(backend))
    backend = DaskBackend()
    backend.client = cluster  # the module's running cluster
    on_cluster = study(backend)
    in_process = study(LocalBackend(1))
    assert on_cluster["trials"] == in_process["trials"] and on_cluster["best"] == in_process["best"]
