"""One search spread over workers (solvers/opt/distributed.py): on worker processes of this machine (``jobs=2``),
the values of the brute force and certificates that check, at both depths of unfolding and with the driver's
symmetry; valid bounds when stopped; a cancelled part stops and a killed worker is replaced. (The same on a Dask
LocalCluster: tests/adversary/cli/test_cluster_opt.py.)"""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import verify_upper
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt import distributed, opt
from solvers.opt.search import Solver

from ...oracles import opt_brute
from .checks import check_result

NOW = {"trial": 0}  # spread at once (a trial in this process would settle these small classes first)


def spread(C, depth=None, **kw):
    return opt(C, engine="search", jobs=2, anytime=False, parts={**NOW, "depth": depth}, **kw)


def check_spread(r, C, true: int) -> None:
    check_result(r, C, true)
    assert r.value == true
    assert r.stats["spread"]["workers"] == 2
    cert = r.upper_certificate()
    assert verify_upper(cert, C) == true


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(4, 14), st.integers(3, 6), st.sampled_from([1, 2]))
def test_spread_gives_the_brute_force_value_and_certificates(seed, m, n, depth):
    rows = np.random.default_rng(seed).integers(0, 2, (m, n)).tolist()
    C = ConceptClass.from_matrix(rows)
    check_spread(spread(C, depth), C, opt_brute(rows))


@pytest.mark.parametrize("family, params, depth", [
    ("intervals", {"N": 40}, 1),
    ("intervals", {"N": 40}, 2),
    ("thresholds", {"N": 100}, 2),
    ("decision-lists", {"n": 3}, 2),
    ("rectangles", {"N": 6}, 2),
])
def test_spread_equals_the_sequential_search(family, params, depth):
    C = make(family, **params)
    check_spread(spread(C, depth), C, opt(C, anytime=False).value)


def test_the_driver_s_symmetry_keeps_one_root_split_per_orbit():
    """With the class's group known to the driver, the root's splits are one per orbit of points, and the upper
    certificate carries the group (the checker covers the other points by it)."""
    C = make("halfspaces", n=3)
    S = Solver(C, symmetry_after=0)
    assert S.canonical is not None
    r = opt(C, engine="search", jobs=2, anytime=False, parts=NOW, solver=S)
    true = opt(C, anytime=False).value
    check_result(r, C, true)
    assert r.value == true
    cert = r.upper_certificate()
    assert "symmetry" in cert and verify_upper(cert, C) == true


def test_stopped_by_the_time_limit_gives_proven_bounds():
    C = make("intervals", N=150)
    r = opt(C, engine="search", jobs=2, anytime=False, parts=NOW, time_limit=0.3)
    check_result(r, C, 12)


def _hard_part():
    """A class and a part of it that takes its worker seconds (the root query of intervals N=150 at 13: refuted)."""
    C = make("intervals", N=150)
    return C, C.full, 13


def _pool(C):
    S = Solver(C)
    return distributed.LocalPool(C, {"memo_bytes": 2**28, "symmetry": True, "isomorphism": True,
                                     "kernel": S.kernel_mode}, 1)


def test_a_cancelled_part_stops():
    C, W, d = _hard_part()
    pool = _pool(C)
    try:
        f = pool.submit(0, 7, W, d, None)
        t = time.monotonic()
        while not f.running() and time.monotonic() - t < 60:  # handed to its process (then only the flag stops it)
            time.sleep(0.01)
        pool.cancel(0, 7, f)
        if not f.cancelled():
            r = f.result(timeout=60)  # a part that ran on would take far longer than the poll
            assert r["answer"] is None
    finally:
        pool.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_worker_process_is_started_again():
    C = make("intervals", N=40)
    pool = _pool(C)
    try:
        assert pool.submit(0, 1, C.full, 1, None).result()["answer"] is True  # the process is up
        pid = next(iter(pool.executors[0]._processes))
        os.kill(pid, signal.SIGKILL)
        f = pool.submit(0, 2, C.full, 2, None)
        r = pool.result(0, f)
        if r is None:  # the death was seen: the part is sent again, to a new process
            r = pool.result(0, pool.submit(0, 3, C.full, 2, None))
        assert r["answer"] is True
    finally:
        pool.close()


def test_two_parts_cancelled_on_one_worker_both_stop():
    """Two parts in a worker's queue, both cancelled: the running one sees its id among the worker's cancelled
    slots (one flag per worker let the first run to its end)."""
    C, W, d = _hard_part()
    pool = _pool(C)
    try:
        a = pool.submit(0, 1, W, d, None)
        b = pool.submit(0, 2, W, d, None)
        pool.cancel(0, 1, a)
        pool.cancel(0, 2, b)
        for f in (a, b):
            if not f.cancelled():
                assert f.result(timeout=60)["answer"] is None
    finally:
        pool.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_one_death_restarts_the_worker_once():
    """Both parts queued on a process that dies report it; the worker is started again once, and the part sent to
    the new process is not lost to a second restart."""
    C, W, d = _hard_part()
    pool = _pool(C)
    try:
        a = pool.submit(0, 1, W, d, None)
        b = pool.submit(0, 2, W, d, None)
        while not pool.executors[0]._processes:
            time.sleep(0.01)
        os.kill(next(iter(pool.executors[0]._processes)), signal.SIGKILL)
        assert pool.result(0, a) is None
        c = pool.submit(0, 3, make("intervals", N=150).full, 2, None)  # on the new process
        assert pool.result(0, b) is None
        assert pool.restarts == 1
        assert pool.result(0, c)["answer"] is True
    finally:
        pool.close()


class _Part:
    def __init__(self, W, d):
        self.W, self.d, self.answer, self._cancelled = W, d, None, False

    def cancelled(self):
        return self._cancelled

    def done(self):
        return self._cancelled or self.answer is not None


class _OneFastWorker:
    """A pool whose workers run their parts in the order sent, where worker 0 finishes its part at each look and
    worker 1 is still busy with its first (a long part): the answers come from a solver in this process."""

    def __init__(self, C):
        self.size, self.S = 2, Solver(C)
        self.queues = [[], []]
        self.answered = []  # (W, d, answer) in the order the parts finished

    def submit(self, w, task, W, d, seconds, proof=False):
        f = _Part(W, d)
        self.queues[w].append(f)
        return f

    def cancel(self, w, task, f):
        f._cancelled = True
        self.queues[w].remove(f)

    def wait(self, futures, timeout):
        q = self.queues[0] or self.queues[1]
        f = q.pop(0)
        ok = self.S.decide(f.W, f.d)
        f.answer = {"answer": True, "tree": self.S.mistake_tree(f.W, f.d)} if ok else {"answer": False}
        self.answered.append((f.W, f.d, ok))
        return {f}

    def result(self, w, f):
        return f.answer

    def close(self):
        pass


def test_the_larger_child_of_a_proven_smaller_child_goes_next():
    """When the smaller child of the root's first split is proven, its sibling is needed at once (the sequential
    search asks it next): it runs on the worker that is free, before the less urgent part queued there (which is
    cancelled and sent again later), not after it, as the driver used to."""
    C = make("rectangles", N=8)
    S = Solver(C)
    pool = _OneFastWorker(C)
    sp = distributed.Spread(S, pool, depth=1)
    lo, hi = S.descend([], lambda d: sp.decide(d, None))
    assert lo == hi == Solver(C).value()
    (W1, d1, ok1), (W2, d2, _) = pool.answered[:2]
    assert ok1 and d1 == d2 == lo - 1
    assert W1 | W2 == S.full and not W1 & W2  # the two children of one split
    assert sp.preempted >= 1


def test_closing_a_pool_keeps_the_executors_race_quiet(monkeypatch):
    """LocalPool.close's hook: the InvalidStateError Python 3.11's executor thread raises on a cancelled future as
    its processes are ended is not reported; every other thread's exception is, as before."""
    import threading
    from concurrent.futures import Future

    from solvers.opt.distributed import _quiet_broken_pools

    reported = []
    monkeypatch.setattr(threading, "excepthook", lambda args: reported.append(args.exc_type.__name__))
    _quiet_broken_pools()
    _quiet_broken_pools()  # (once)

    def race():
        f = Future()
        f.cancel()
        f.set_exception(RuntimeError("the executor's broken-pool exception"))

    def other():
        raise ValueError("shown as before")

    for fn in (race, other):
        t = threading.Thread(target=fn)
        t.start()
        t.join()
    assert reported == ["ValueError"]
