"""Shared test helpers: running a game's kernel directly, comparing it with the game's reference, subprocesses."""
import os
import signal
import subprocess
import time
from contextlib import contextmanager

from sim.engine import configure as make_config, run_chunk  # noqa: F401  (make_config is used by the tests)


def kernel_games(config, start, count):
    """(seat_out, game_out) of games start .. start+count-1 from the njit kernel."""
    return run_chunk(config, config.seed, start, count)


def reference_mismatches(config, start, count, limit=5):
    """Games where the kernel and the reference disagree on any column: list of (game, column, kernel, reference)."""
    game = config.game
    seat_out, game_out = kernel_games(config, start, count)
    strategies = [(s.name, dict(s.params)) for s in config.seats]
    bad = []
    for i in range(count):
        rec = game.reference(config.params, config.players, config.seed, start + i, strategies)
        for j, c in enumerate(game.all_seat_columns):
            if seat_out[i, :, j].tolist() != list(rec.seat[c]):
                bad.append((start + i, c, seat_out[i, :, j].tolist(), list(rec.seat[c])))
        for j, c in enumerate(game.all_game_columns):
            if int(game_out[i, j]) != int(rec.game[c]):
                bad.append((start + i, c, int(game_out[i, j]), int(rec.game[c])))
        if len(bad) >= limit:
            break
    return bad


@contextmanager
def running(args, **options):
    """A subprocess (in its own process group) that is killed with all its children when the block ends, so a test
    that fails while it runs leaves nothing behind."""
    proc = subprocess.Popen(args, start_new_session=True, **options)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def wait_until(proc, under_way, what, timeout=600):
    """Wait for a positive sign that the subprocess's run is under way (`under_way()` true); fail with what the
    subprocess printed when it ends first or the sign does not come within `timeout` seconds."""
    deadline = time.time() + timeout
    while not under_way():
        if proc.poll() is not None or time.time() > deadline:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            raise AssertionError(f"never saw {what} (exit {proc.returncode}); the run printed:\n{printed(out, err)}")
        time.sleep(0.05)


def printed(out, err):
    """A subprocess's stdout and stderr for an assertion message."""
    def text(b):
        return (b.decode(errors="replace") if isinstance(b, bytes) else b or "").strip() or "(nothing)"
    return f"--- stdout:\n{text(out)}\n--- stderr:\n{text(err)}"
