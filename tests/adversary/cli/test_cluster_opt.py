"""``littlestone opt --backend dask``: one Opt search spread over the workers of a Dask cluster (a LocalCluster of 2
worker processes on loopback, started here; solvers/opt/distributed.py): the values of the sequential search with
both certificates checked; a worker killed mid-search; a driver killed by SIGKILL resumes from the parts in the
store; Ctrl-C on ``--jobs 2`` ends in one line with the bounds proven and leaves no worker behind."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time

import numpy as np
import pytest

from solvers.certificates import verify_upper
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt import opt

from .checks import posix, run, start, stop

NOW = {"LITTLESTONE_SPREAD_TRIAL": "0"}  # spread at once (a trial in the driver would settle small classes)


@pytest.fixture()
def client(cluster):
    import distributed

    with distributed.Client(cluster.scheduler_address, set_as_default=False) as c:
        yield c


CLASSES = [("intervals", {"N": 60}), ("halfspaces", {"n": 3}), ("decision-lists", {"n": 3}), ("rectangles", {"N": 6})]


@pytest.mark.parametrize("family, params", CLASSES)
def test_the_cluster_gives_the_sequential_value_and_certificates(client, family, params):
    from solvers.certificates.opt import verify_tree

    C = make(family, **params)
    r = opt(C, anytime=False, cluster=client, parts={"trial": 0})
    assert r.value == opt(C, anytime=False).value
    assert r.stats["spread"]["workers"] == 2
    assert verify_tree(r.tree.to_json(), C) == r.value
    assert verify_upper(r.upper_certificate(), C) == r.value


def test_random_classes_on_the_cluster(client):
    from ...oracles import opt_brute

    rng = np.random.default_rng(5)
    for _ in range(6):
        rows = rng.integers(0, 2, (int(rng.integers(5, 16)), int(rng.integers(3, 7)))).tolist()
        C = ConceptClass.from_matrix(rows)
        r = opt(C, anytime=False, cluster=client, parts={"trial": 0, "depth": 2})
        assert r.value == opt_brute(rows)
        assert verify_upper(r.upper_certificate(), C) == r.value


def test_the_command_on_the_cluster_writes_certificates_that_verify(cluster, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LITTLESTONE_SPREAD_TRIAL", "0")
    tree, proof = tmp_path / "t.json", tmp_path / "p.json"
    code, out, err = run(capsys, "opt", "intervals", "N=60", "--scheduler", cluster.scheduler_address, "--no-store",
                         "--tree", str(tree), "--proof", str(proof), "--quiet")
    assert code == 0, err
    assert "Opt(C):          10" in out
    for f in (tree, proof):
        code, out, err = run(capsys, "verify", str(f), "intervals", "N=60")
        assert code == 0 and out.startswith("OK"), (out, err)


def test_a_worker_killed_mid_search(tmp_path):
    """A worker process dies (SIGKILL, as for its memory) while parts run: its parts go to the other worker (the
    nanny starts a new one), and the search ends with the right value and certificates."""
    distributed = pytest.importorskip("distributed")
    c = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                 host="127.0.0.1")
    try:
        with distributed.Client(c.scheduler_address, set_as_default=False) as client:
            pids = client.run(os.getpid)
            victim = sorted(pids.values())[0]
            killed = []

            def on_part(path, d, result):
                if not killed:
                    os.kill(victim, signal.SIGKILL)
                    killed.append(path)

            C = make("intervals", N=90)
            r = opt(C, anytime=False, cluster=client, parts={"trial": 0, "on_part": on_part})
            assert killed
            assert r.value == 11
            assert verify_upper(r.upper_certificate(), C) == 11
    finally:
        c.close()


def _parts_in(db) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=1) as con:
            return con.execute("SELECT count(*) FROM results WHERE kind = 'opt-part'").fetchone()[0]
    except sqlite3.Error:
        return 0


def _wait_for_parts(db, n: int, p, limit: float = 120.0) -> None:
    t = time.monotonic()
    while time.monotonic() - t < limit:
        if _parts_in(db) >= n:
            return
        if p.poll() is not None:
            pytest.fail(f"the command ended before {n} parts were stored: {p.communicate()}")
        time.sleep(0.05)
    pytest.fail(f"{n} parts not stored in {limit} s")


SLOW = ["opt", "intervals", "N=150", "--quiet"]  # refuting 13 takes the workers seconds (Opt = 12)
#: A search still running when its first parts are stored, even with the compiled kernel already built (intervals
#: N=150 then ends in about a second, before a Ctrl-C sent at its third part lands): N=220 takes 2 workers 98 s.
HARD = ["opt", "intervals", "N=220", "--quiet"]


@posix
@pytest.mark.slow
def test_sigkill_of_the_driver_resumes_from_the_store(cluster, tmp_path):
    db = tmp_path / "s.db"
    env_before = dict(os.environ)
    os.environ.update(NOW)
    try:
        p = start(*SLOW, "--store", db, "--scheduler", cluster.scheduler_address)
        _wait_for_parts(db, 5, p)
        os.kill(p.pid, signal.SIGKILL)  # the driver only: the cluster lives on
        p.communicate()
        stored = _parts_in(db)
        assert stored >= 5
        proof, tree = tmp_path / "p.json", tmp_path / "t.json"
        q = start(*SLOW, "--store", db, "--scheduler", cluster.scheduler_address, "--proof", proof, "--tree", tree)
        out, err = q.communicate(timeout=600)
    finally:
        os.environ.clear()
        os.environ.update(env_before)
    assert q.returncode == 0, err
    assert "resuming from" in err and "parts of this search stored in" in err, err
    assert "Opt(C):          12" in out
    C = make("intervals", N=150)
    from solvers.certificates.opt import verify_tree

    assert verify_tree(json.loads(tree.read_text()), C) == 12
    assert verify_upper(json.loads(proof.read_text()), C) == 12
    assert _parts_in(db) == 0  # solved: the row serves it now, the parts are dropped


@posix
@pytest.mark.slow
def test_ctrl_c_on_jobs_two_prints_the_bounds_and_stops_the_workers(tmp_path):
    db = tmp_path / "s.db"
    env_before = dict(os.environ)
    os.environ.update(NOW)
    try:
        p = start(*HARD, "--store", db, "--jobs", "2")
    finally:
        os.environ.clear()
        os.environ.update(env_before)
    _wait_for_parts(db, 3, p)
    code, out, err, _ = stop(p, signal.SIGINT, to_group=True)
    assert code == 130, err
    assert "Traceback" not in err
    assert "interrupted" in out
    t = time.monotonic()
    while time.monotonic() - t < 60:  # the workers are gone with the driver (its process group is empty)
        try:
            os.killpg(p.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("worker processes outlived the command")
