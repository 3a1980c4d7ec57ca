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

Usage::

    python scripts/bench_spread.py [--workers W] [--only NAME] [--modes sequential,spread,...] [--quick]
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
    from solvers.opt import driver, opt

    C = make(family, **params)
    cluster = client = None
    jobs = 1 if mode == "sequential" else workers
    if mode == "joblib":
        driver.SPREAD_LOCAL = False
    if mode == "dask":
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        t0 = time.perf_counter()
        r = opt(C, jobs=jobs, anytime=False, cluster=client)
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default=None)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--one", nargs=3, metavar=("FAMILY", "PARAMS", "MODE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        family, params, mode = args.one
        print(json.dumps(one(family, json.loads(params), mode, args.workers)))
        return 0
    modes = [m for m in args.modes.split(",") if m]
    chosen = [(f, p) for f, p in (QUICK if args.quick else INSTANCES) if args.only is None or args.only in label(f, p)]
    print(f"{os.cpu_count()} CPUs, {args.workers} workers; started {time.strftime('%Y-%m-%d %H:%M:%S')}")
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
