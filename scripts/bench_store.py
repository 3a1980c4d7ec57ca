"""Benchmark the results store (:mod:`adversary.store`): what storing costs, and how fast a stored result
is served.

Part 1 (overhead): for each instance of ``scripts/bench_opt.py``'s suite, the time of ``opt(C)`` alone
against ``opt(C)`` followed by what ``littlestone opt`` does to store it: the upper-bound certificate,
the row (tree and certificate as compressed JSON) and its write (SQLite in WAL mode), the write once
committed at once and once batched (as the commands write: a commit at most every half second). Each is
the median of repeated runs on fresh copies of the class; the overhead is the ratio of the suite's total
times (the target: under 5 %).

Then the same for the command as a user runs it: ``littlestone opt`` on each instance, without a
store and with one (the process's whole wall time).

Part 2 (serving): classes of up to 10^4 concepts, solved and stored once; then the time to serve the
result as ``littlestone opt`` does: look the row up, decompress it, re-check its tree and its
upper-bound certificate against the class (the target: under 50 ms). The class's construction is
reported apart (any command builds the class; ``opt`` without a store does too).

Usage::

    python scripts/bench_store.py [--quick] [--repeat N] [--only overhead|command|serving]
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

from adversary.store import FLUSH_SECONDS, Store, opt_task, record_of_opt, verified_bounds  # noqa: E402
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
    """The suite's instances (milliseconds each with today's solver): the library's time (make the class,
    solve it) against the same followed by what ``littlestone opt`` does to store the result: the row
    (``record_of_opt``: the upper-bound certificate) and its write, once with a store that commits every
    write (as the store did before its writes were batched) and once batched as the commands open it
    (``flush_seconds=FLUSH_SECONDS``: a commit at most every half second, by a background thread when no
    write comes). Same run, same instances, interleaved; medians of ``repeat`` runs."""
    print("| instance | library (ms) | + row (ms) | + write, commit each (ms) | + write, batched (ms) |")
    print("|---|---:|---:|---:|---:|")
    totals = {"library": 0.0, "row": 0.0, "each": 0.0, "batched": 0.0}
    stores = {"each": Store(folder / "each.db"), "batched": Store(folder / "batched.db", flush_seconds=FLUSH_SECONDS)}
    run = iter(range(10 ** 9))
    try:
        for name, params in SUITE:
            make(name, **params)  # warm the family's code
            times = {k: [] for k in totals}
            for _ in range(repeat):
                for how in ("each", "batched"):
                    t = time.perf_counter()
                    C = make(name, **params)
                    r = opt(C)
                    t1 = time.perf_counter()
                    rec = record_of_opt(C, r, family=name, params=params)
                    t2 = time.perf_counter()
                    rec.task = {"run": next(run)}  # a new row each time (a result is written once, then served)
                    stores[how].put(rec)
                    t3 = time.perf_counter()
                    times["library"].append(t1 - t)
                    times["row"].append(t2 - t1)
                    times[how].append(t3 - t2)
            med = {k: statistics.median(v) for k, v in times.items()}
            for k in totals:
                totals[k] += med[k]
            label = f"{name} " + " ".join(f"{k}={v}" for k, v in params.items())
            print(f"| {label} | {1000 * med['library']:.2f} | {1000 * med['row']:.2f} | {1000 * med['each']:.3f} | "
                  f"{1000 * med['batched']:.3f} |", flush=True)
    finally:
        for S in stores.values():
            S.close()
    lib = totals["library"]
    print(f"\nsuite total: library {1000 * lib:.1f} ms; the row (upper-bound certificate) {1000 * totals['row']:.1f} ms "
          f"({100 * totals['row'] / lib:+.1f} %); its write: committed each time {1000 * totals['each']:.1f} ms "
          f"({100 * totals['each'] / lib:+.1f} %), batched {1000 * totals['batched']:.1f} ms "
          f"({100 * totals['batched'] / lib:+.1f} %); store in all: {100 * (totals['row'] + totals['each']) / lib:+.1f} % "
          f"committing each row, {100 * (totals['row'] + totals['batched']) / lib:+.1f} % batched (target: under 5 %)\n")


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
    ap.add_argument("--only", choices=("overhead", "command", "serving"), help="run one part only")
    args = ap.parse_args(argv)
    repeat = 3 if args.quick else args.repeat
    with tempfile.TemporaryDirectory() as d:
        if not args.quick and args.only in (None, "overhead"):
            overhead(repeat, Path(d))
        if not args.quick and args.only in (None, "command"):
            command_overhead(max(3, repeat // 5), Path(d))
        if args.only in (None, "serving"):
            serving(repeat, Path(d), args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
