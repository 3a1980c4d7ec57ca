"""A process that used worker processes of this machine (solvers/opt/distributed.py, LocalPool) ends when it is done,
even where :meth:`LocalPool.close` ended a worker in the middle of writing a result (CI hung so, after the
search's tests had passed: the executor's thread waited for the rest of the message, and Python waits for that
thread at exit)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

HALF_SENT = textwrap.dedent("""
    import multiprocessing as mp
    import os
    import struct
    import threading
    import time

    from solvers.classes.families import make
    from solvers.opt import distributed

    SHARED = {}

    def half_sent(task, W, d, seconds, proof):
        # what close() leaves when it ends a worker between a message's length and its body
        os.write(SHARED["fd"], struct.pack("!i", 53408))
        SHARED["written"].value = 1
        time.sleep(600)

    if __name__ == "__main__":
        distributed._local_part = half_sent  # (the worker is forked: it runs this)
        C = make("intervals", N=10)
        pool = distributed.LocalPool(C, {"kernel": "python"}, 1)
        SHARED["fd"] = pool.executors[0]._result_queue._writer.fileno()
        SHARED["written"] = mp.get_context("fork").Value("i", 0, lock=False)
        pool.submit(0, 1, C.full, 1, None)
        t = time.monotonic()
        while not SHARED["written"].value and time.monotonic() - t < 120:
            time.sleep(0.01)
        assert SHARED["written"].value
        pool.close()
        print("closed", flush=True)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the local pool forks its workers on Linux")
def test_a_worker_ended_while_it_wrote_a_result_does_not_hold_the_process_at_exit(tmp_path):
    script = tmp_path / "half_sent.py"
    script.write_text(HALF_SENT)
    p = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        pytest.fail(f"the process did not end after close() (it printed {out!r}); {err[-2000:]}")
    assert p.returncode == 0 and out.split() == ["closed"], err[-2000:]
