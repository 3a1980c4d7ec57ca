"""Benchmark one Opt(C) search spread over workers (issue 23) against the sequential search.

For each instance, each way of running it is timed in a process of its own (``scripts/bench_spread.py --one``):

* ``sequential``: ``opt(C)`` in one process (the baseline);
* ``joblib``: ``opt(C, jobs=W)`` with the root's splits dealt to joblib's workers (:mod:`solvers.opt.parallel`,
  what ``--jobs`` did before);
* ``spread``: ``opt(C, jobs=W)`` spread by :mod:`solvers.opt.distributed` over W local processes;
* ``dask``: the same spread over a ``distributed.LocalCluster`` of W single-threaded worker processes (started
  before the clock, as a cluster runs before a search is sent to it).

Each row gives the search's time (``opt``: the value and the mistake tree), the upper-bound certificate's
(``upper_certificate()``), their sum, and the speed-up of the sum against the sequential run. Both certificates
are checked (``verify_tree``, ``verify_upper``) outside the clock, and every run must find the same Opt.

``--overlap`` measures what a table of proven bounds shared by the workers could save at most: after the spread
(``--jobs W``, local processes), the entries the workers' memos hold, and the copies past the first of those two or
more of them hold (version spaces searched again by another worker); with the sequential search's nodes and memo
beside them. ``--latency`` times one
look-up in the two shared tables the issue names: a Dask actor called from another worker of a LocalCluster, and
an SQLite table (WAL) on a local path, with keys the size of rectangles N=28's version spaces.

Usage::

    python scripts/bench_spread.py [--workers W] [--only NAME] [--modes sequential,spread,...] [--quick]
    python scripts/bench_spread.py --overlap [--only NAME]
    python scripts/bench_spread.py --latency
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: The instances on which the sequential search takes 5 s or more on a 2-core machine (``--quick``: one small).
INSTANCES = [
    ("intervals", {"N": 200}),
    ("rectangles", {"N": 28}),
    ("halfspaces", {"n": 5}),
    ("monotone-disjunctions", {"n": 16, "k": 2}),
]
QUICK = [("intervals", {"N": 90})]
MODES = ("sequential", "joblib", "spread", "dask")


def label(family, params) -> str:
    return " ".join([family] + [f"{k}={v}" for k, v in params.items()])


def one(family: str, params: dict, mode: str, workers: int) -> dict:
    """Run one instance one way, in this process; the times and the checks."""
    from solvers.certificates import verify_upper
    from solvers.certificates.opt import verify_tree
    from solvers.classes.families import make
    from solvers.opt import Tuning, opt

    C = make(family, **params)
    cluster = client = None
    jobs = 1 if mode == "sequential" else workers
    tuning = Tuning(spread_local=mode != "joblib")  # joblib: the root's splits dealt to joblib's workers
    if mode == "dask":
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        t0 = time.perf_counter()
        r = opt(C, jobs=jobs, anytime=False, cluster=client, tuning=tuning)
        t1 = time.perf_counter()
        cert = r.upper_certificate(limit=10**7)
        t2 = time.perf_counter()
    finally:
        if client is not None:
            client.close()
            cluster.close()
    tree_ok = verify_tree(r.tree.to_json(), C) == r.lower
    upper_ok = verify_upper(cert, C) == r.upper
    return {"opt": r.value, "search": t1 - t0, "certificate": t2 - t1, "checked": tree_ok and upper_ok,
            "spread": r.stats.get("spread")}


def _memo_keys() -> dict:
    """In a spread's worker: its memo's keys (hashed) and its nodes."""
    from solvers.opt import distributed

    for S in distributed._SOLVERS.values():
        return {"keys": [hash(k) for k in S.memo], "nodes": S.nodes}
    return {"keys": [], "nodes": 0}


def overlap(family: str, params: dict, workers: int) -> dict:
    """The sequential search's nodes and memo, then the spread's, with the memo entries its workers share."""
    from solvers.classes.families import make
    from solvers.opt import distributed, opt

    C = make(family, **params)
    seq = opt(C, anytime=False)
    got: list = []
    close = distributed.LocalPool.close

    def close_after_asking(pool):
        if not got:
            got.extend(ex.submit(_memo_keys).result() for ex in pool.executors)
        close(pool)

    distributed.LocalPool.close = close_after_asking
    r = opt(C, jobs=workers, anytime=False)
    seen: dict = {}
    for g in got:
        for k in set(g["keys"]):
            seen[k] = seen.get(k, 0) + 1
    entries = sum(seen.values())
    again = sum(c - 1 for c in seen.values())  # the copies past the first: what a shared table could have saved
    return {"opt": r.value, "sequential nodes": seq.stats["nodes"], "sequential memo": seq.stats["memo"],
            "workers' nodes": sum(g["nodes"] for g in got), "workers' entries": entries,
            "entries another worker also holds": again, "share": f"{again / max(1, entries):.0%}"}


class _Table:
    """A Dask actor: a table of proven bounds."""

    def __init__(self):
        self.d: dict = {}

    def get(self, k):
        return self.d.get(k)

    def put(self, k, v):
        self.d[k] = v


def _actor_calls(actor, key: bytes, n: int) -> float:
    t = time.perf_counter()
    for i in range(n):
        actor.put(i.to_bytes(8, "little") + key, (1, 2)).result()
        actor.get(i.to_bytes(8, "little") + key).result()
    return (time.perf_counter() - t) / (2 * n)


def latency(n: int = 500) -> None:
    import sqlite3
    import tempfile

    from distributed import Client, LocalCluster

    key = os.urandom(2576 * 8 - 8)  # a version space of rectangles N=28: 164,837 concepts, 2,576 words
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        a, b = sorted(client.scheduler_info()["workers"])
        actor = client.submit(_Table, actor=True, workers=[a]).result()
        per = client.submit(_actor_calls, actor, key, n, workers=[b]).result()
    print(f"a Dask actor called from another worker: {per * 1e6:.0f} us a call")
    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite3.connect(os.path.join(tmp, "table.db"))
        db.execute("pragma journal_mode=wal")
        db.execute("create table t (k blob primary key, lo int, hi int)")
        t = time.perf_counter()
        for i in range(n):
            db.execute("insert or replace into t values (?, ?, ?)", (i.to_bytes(8, "little") + key, 1, 2))
            db.commit()
        write = (time.perf_counter() - t) / n
        t = time.perf_counter()
        for i in range(n):
            db.execute("select lo, hi from t where k = ?", (i.to_bytes(8, "little") + key,)).fetchone()
        read = (time.perf_counter() - t) / n
        db.close()
    print(f"an SQLite table (WAL) on a local path: {read * 1e6:.0f} us a read, {write * 1e6:.0f} us a write "
          "(and commit)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default=None)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--overlap", action="store_true", help="the memo entries the spread's workers share")
    ap.add_argument("--latency", action="store_true", help="one look-up in a Dask actor and in SQLite")
    ap.add_argument("--one", nargs=3, metavar=("FAMILY", "PARAMS", "MODE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        family, params, mode = args.one
        print(json.dumps(one(family, json.loads(params), mode, args.workers)))
        return 0
    if args.latency:
        latency()
        return 0
    modes = [m for m in args.modes.split(",") if m]
    chosen = [(f, p) for f, p in (QUICK if args.quick else INSTANCES) if args.only is None or args.only in label(f, p)]
    print(f"{os.cpu_count()} CPUs, {args.workers} workers; started {time.strftime('%Y-%m-%d %H:%M:%S')}")
    if args.overlap:
        for family, params in chosen:
            row = overlap(family, params, args.workers)
            print(f"{label(family, params)}: " + ", ".join(f"{k} {v}" for k, v in row.items()), flush=True)
        return 0
    print("| instance | mode | Opt | search s | certificate s | total s | speed-up | checked | parts |")
    print("|---|---|---|---|---|---|---|---|---|")
    ok = True
    for family, params in chosen:
        base = None
        value = None
        for mode in modes:
            done = subprocess.run([sys.executable, __file__, "--workers", str(args.workers), "--one", family,
                                   json.dumps(params), mode], capture_output=True, text=True, cwd=ROOT)
            if done.returncode != 0:
                print(f"| {label(family, params)} | {mode} | failed: {done.stderr.strip().splitlines()[-1:]} |")
                ok = False
                continue
            row = json.loads(done.stdout.strip().splitlines()[-1])
            total = row["search"] + row["certificate"]
            if mode == "sequential":
                base = total
            if value is None:
                value = row["opt"]
            elif row["opt"] != value:
                print(f"MISMATCH: {label(family, params)} {mode} says Opt = {row['opt']}, not {value}")
                ok = False
            ok = ok and row["checked"]
            ratio = f"{base / total:.2f}x" if base else ""
            parts = (row["spread"] or {}).get("parts", "")
            print(f"| {label(family, params)} | {mode} | {row['opt']} | {row['search']:.2f} | {row['certificate']:.2f} "
                  f"| {total:.2f} | {ratio} | {'OK' if row['checked'] else 'FAILED'} | {parts} |", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
