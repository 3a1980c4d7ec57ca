"""Benchmark the results store (:mod:`adversary.store`): what storing costs, and how fast a stored result
is served.

Part 1 (overhead): for each instance of ``scripts/bench_opt.py``'s suite, the time of ``opt(C)`` alone
against ``opt(C)`` followed by what ``littlestone opt`` does to store it: the upper-bound certificate,
the row (tree and certificate as compressed JSON) and its write (an SQLite transaction in WAL mode).
Each is the median of repeated runs on fresh copies of the class; the overhead is the ratio of the
suite's total times, minus 1 (the target: under 5 %).

Then the same for the command as a user runs it: ``littlestone opt`` on each instance, without a
store and with one (the process's whole wall time).

Part 2 (serving): classes of up to 10^4 concepts, solved and stored once; then the time to serve the
result as ``littlestone opt`` does: look the row up, decompress it, re-check its tree and its
upper-bound certificate against the class (the target: under 50 ms). The class's construction is
reported apart (any command builds the class; ``opt`` without a store does too).

Usage::

    python scripts/bench_store.py [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adversary.store import Store, opt_task, record_of_opt, verified_bounds  # noqa: E402
from solvers.classes.families import make  # noqa: E402
from solvers.opt import opt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_opt import SUITE  # noqa: E402

SERVE = [("thresholds", {"N": 9999}), ("intervals", {"N": 100}), ("all-functions", {"n": 13}),
         ("random", {"m": 10000, "N": 16, "seed": 0}), ("rectangles", {"N": 10}), ("monotone-disjunctions", {"n": 10, "k": 3})]


def _median(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def overhead(repeat: int, folder: Path) -> None:
    print("| instance | opt (ms) | opt + store (ms) | overhead |")
    print("|---|---:|---:|---:|")
    total_plain = total_stored = 0.0
    with Store(folder / "overhead.db") as S:
        for name, params in SUITE:
            def plain():
                opt(make(name, **params))

            def stored():  # a result is written once (then served): each run writes a new row
                t = time.perf_counter()
                C = make(name, **params)
                r = opt(C)
                rec = S.put(record_of_opt(C, r, family=name, params=params))
                seconds = time.perf_counter() - t
                S.delete([rec.key])  # not timed
                return seconds

            make(name, **params)  # warm the family's code
            a = _median(plain, repeat)
            b = statistics.median(stored() for _ in range(repeat))
            total_plain += a
            total_stored += b
            label = f"{name} " + " ".join(f"{k}={v}" for k, v in params.items())
            print(f"| {label} | {1000 * a:.2f} | {1000 * b:.2f} | {100 * (b / a - 1):+.1f} % |", flush=True)
    print(f"\nsuite total: opt {1000 * total_plain:.1f} ms, opt + store {1000 * total_stored:.1f} ms: overhead "
          f"{100 * (total_stored / total_plain - 1):+.1f} % (target: under 5 %)\n")


def command_overhead(repeat: int, folder: Path) -> None:
    """``littlestone opt`` as a user runs it, without a store and with one (a store file that exists, the
    result not in it yet): the command's whole wall time, process start included."""
    import subprocess

    def once(name, params, store) -> float:
        argv = [sys.executable, "-m", "adversary", "opt", name, *(f"{k}={v}" for k, v in params.items()), "--quiet"]
        if store is None:
            argv.append("--no-store")
        else:
            Store(store).close()  # the store exists; the row does not
            argv += ["--store", str(store)]
        t = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)
        seconds = time.perf_counter() - t
        if store is not None:
            store.unlink()
            for extra in ("-wal", "-shm"):
                Path(str(store) + extra).unlink(missing_ok=True)
        return seconds

    plain = stored = 0.0
    for name, params in SUITE:
        plain += statistics.median(once(name, params, None) for _ in range(repeat))
        stored += statistics.median(once(name, params, folder / "cmd.db") for _ in range(repeat))
    print(f"littlestone opt over the suite (process start included): without a store {plain:.2f} s, with one "
          f"{stored:.2f} s: overhead {100 * (stored / plain - 1):+.1f} %\n", flush=True)


def serving(repeat: int, folder: Path, quick: bool) -> None:
    print("| class | |C| | build (ms) | served: look up + re-check (ms) | computed (ms) |")
    print("|---|---:|---:|---:|---:|")
    with Store(folder / "serve.db") as S:
        for name, params in SERVE[:3] if quick else SERVE:
            t = time.perf_counter()
            C = make(name, **params)
            build = time.perf_counter() - t
            t = time.perf_counter()
            r = opt(C)
            solve = time.perf_counter() - t
            S.put(record_of_opt(C, r, family=name, params=params))
            fp = C.fingerprint()

            def serve():
                rec = S.get("opt", fp, opt_task())
                lo, hi = verified_bounds(rec, C)
                assert lo == hi == r.value

            ms = 1000 * _median(serve, repeat)
            label = f"{name} " + " ".join(f"{k}={v}" for k, v in params.items())
            print(f"| {label} | {C.n_concepts} | {1000 * build:.1f} | {ms:.1f} {'ok' if ms < 50 else 'OVER 50'} | "
                  f"{1000 * solve:.1f} |", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a few instances, 3 repeats")
    ap.add_argument("--repeat", type=int, default=15, help="runs per measurement (the median is reported)")
    args = ap.parse_args(argv)
    repeat = 3 if args.quick else args.repeat
    with tempfile.TemporaryDirectory() as d:
        if not args.quick:
            overhead(repeat, Path(d))
            command_overhead(max(3, repeat // 5), Path(d))
        serving(repeat, Path(d), args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
