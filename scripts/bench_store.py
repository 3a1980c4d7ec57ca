"""Benchmark the results store (:mod:`adversary.store`): what storing costs, and how fast a stored result
is served.

Part 1 (overhead): passes over the instances of ``scripts/bench_opt.py``'s suite, the library alone (make
the class, ``opt(C)``) against the same with what ``littlestone opt`` does with a store: the look-up of the
class's row (its fingerprint, a SELECT), then the row (a result solved in under ``certify_seconds()``, 0.05 s
by default, keeps its numbers only; a slower one its tree and upper-bound certificate as compressed JSON) and
its write (SQLite in WAL mode), with the store batched as the commands open it, committing each row, and
batched with every row's certificates (as every row was stored before). The write cost and the read cost
are the passes' median times over the library's (the target: a write cost under 5 %); a table says where
the time goes per instance.

Then the same for the command as a user runs it: ``littlestone opt`` on each instance, without a
store and with one (the process's whole wall time).

Part 2 (serving): classes of up to 10^4 concepts, solved and stored once, sealed as the commands write them
(their certificates checked once: ``seal``, timed); then the time to serve the result as ``littlestone opt``
and ``table`` do (:func:`adversary.workspace.storage.lookup`): the row looked up and read, its digest compared, its
seal's bounds served (the target: under 50 ms), after the class's fingerprint (reported apart: taken once per class
in a process, on a class made again here); and, apart, the full check ``littlestone store verify`` runs on the row (its tree and its
upper-bound certificate checked against the class from scratch, with no time limit), which serving ran before
the seals. The class's construction is reported apart (any command builds the class; ``opt`` without a store
does too).

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

from adversary.store import (FLUSH_SECONDS, Store, certify_seconds, class_key, opt_task,  # noqa: E402
                             record_of_opt, seal, verified_bounds)
from adversary.workspace.storage import SEALED, lookup  # noqa: E402
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
    """The store's cost on the suite's instances (milliseconds each with today's solver), measured as what it
    adds to whole passes over the suite. Passes (alternating; medians of ``repeat`` of each):

    - ``library``: make the class, solve it;
    - ``+ look-up``: the same with the look-up ``littlestone opt`` does first (the class's fingerprint and a
      SELECT of its row, not there);
    - ``+ look-up + write``: then the row (``record_of_opt``) and its write, the pass ending with a commit, in
      a store ``batched`` as the commands open it (``flush_seconds=FLUSH_SECONDS``; rows as the commands make
      them: a result solved in under ``certify_seconds()`` keeps its numbers only), in one that commits each
      row (``commit each``: the store before its writes were batched), and batched with every row's
      certificates (``certified``: ``certify=True``, as every row was stored before).

    The write cost is the difference of the last two kinds of passes over the library's pass (the issue's
    target: under 5 %); the read cost, the look-up's. Then, per instance, where a batched pass's time goes."""
    print(f"certify_seconds() = {certify_seconds():g} s\n")
    stores = {"batched": Store(folder / "batched.db", flush_seconds=FLUSH_SECONDS),
              "commit each": Store(folder / "each.db"),
              "certified": Store(folder / "certified.db", flush_seconds=FLUSH_SECONDS)}
    run = iter(range(10 ** 9))
    parts = [{k: [] for k in ("library", "look-up", "row", "write")} for _ in SUITE]

    def library_pass():
        for name, params in SUITE:
            opt(make(name, **params))

    def lookup_pass():
        S = stores["batched"]
        for name, params in SUITE:
            C = make(name, **params)
            S.get("opt", class_key(C), ("lookup", next(run)))  # (a new class each pass: its fingerprint is taken here)
            opt(C)

    def stored_pass(how):
        S = stores[how]
        certify = True if how == "certified" else None
        for name, params in SUITE:
            C = make(name, **params)
            task = {"run": next(run)}  # a new row each time (a result is written once, then served)
            S.get("opt", class_key(C), task)
            r = opt(C)
            rec = record_of_opt(C, r, family=name, params=params, certify=certify)
            rec.task = task
            S.put(rec)
        S.flush()

    def parted_pass():  # a batched pass, timed by parts
        S = stores["batched"]
        for (name, params), p in zip(SUITE, parts):
            t0 = time.perf_counter()
            C = make(name, **params)
            r = opt(C)
            t1 = time.perf_counter()
            task = {"run": next(run)}
            S.get("opt", class_key(C), task)
            t2 = time.perf_counter()
            rec = record_of_opt(C, r, family=name, params=params)
            rec.task = task
            t3 = time.perf_counter()
            S.put(rec)
            t4 = time.perf_counter()
            for k, v in (("library", t1 - t0), ("look-up", t2 - t1), ("row", t3 - t2), ("write", t4 - t3)):
                p[k].append(v)
        S.flush()

    passes = {k: [] for k in ("library", "look-up", *stores)}
    try:
        for name, params in SUITE:
            make(name, **params)  # warm the families' code
        for _ in range(repeat):
            for how in passes:
                t = time.perf_counter()
                library_pass() if how == "library" else lookup_pass() if how == "look-up" else stored_pass(how)
                passes[how].append(time.perf_counter() - t)
            parted_pass()
    finally:
        for S in stores.values():
            S.close()
    print("| instance | library (ms) | + fingerprint, look-up (ms) | + row (ms) | + put, queued (ms) |")
    print("|---|---:|---:|---:|---:|")
    for (name, params), p in zip(SUITE, parts):
        med = {k: 1000 * statistics.median(v) for k, v in p.items()}
        label = f"{name} " + " ".join(f"{k}={v}" for k, v in params.items())
        print(f"| {label} | {med['library']:.2f} | {med['look-up']:.3f} | {med['row']:.3f} | {med['write']:.3f} |")
    med = {k: statistics.median(v) for k, v in passes.items()}
    lib, look = med["library"], med["look-up"]
    print(f"\na pass over the suite ({len(SUITE)} instances), medians of {repeat}: library {1000 * lib:.2f} ms; "
          f"+ look-up {1000 * look:.2f} ms (read cost {100 * (look / lib - 1):+.1f} %); + look-up + write: "
          + "; ".join(f"{how} {1000 * med[how]:.2f} ms (write cost {100 * (med[how] - look) / lib:+.1f} %, "
                      f"in all {100 * (med[how] / lib - 1):+.1f} %)" for how in stores)
          + " (target: a write cost under 5 %, batched)\n", flush=True)


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
    """Per class: the row's write with its seal (its certificates checked once, as a command writes it), then the
    medians of ``repeat`` serves (what a command does: fingerprint, look-up, digest) and of ``repeat`` full checks
    (what ``store verify`` does to the row; what serving did before the seals)."""
    print("| class | |C| | build (ms) | computed (ms) | sealed at write (ms) | fingerprint (ms) | served: look-up + "
          "digest (ms) | full check, store verify (ms) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with Store(folder / "serve.db") as S:
        for name, params in SERVE[:3] if quick else SERVE:
            t = time.perf_counter()
            C = make(name, **params)
            build = time.perf_counter() - t
            t = time.perf_counter()
            r = opt(C)
            solve = time.perf_counter() - t
            rec = record_of_opt(C, r, family=name, params=params, certify=True)  # with its certificates
            t = time.perf_counter()
            seal(rec, C)
            sealing = time.perf_counter() - t
            assert rec.proven is not None and rec.proven["lower"] == rec.proven["upper"] == str(r.value), rec.proven
            S.put(rec)

            def serve():  # on the class made again (untimed), as in a new process: (fingerprint, serve) seconds
                D = make(name, **params)
                t0 = time.perf_counter()
                D.fingerprint()
                t1 = time.perf_counter()
                found = lookup(S, "opt", D, opt_task())
                t2 = time.perf_counter()
                assert found.how == SEALED and found.value == r.value, (found.how, found.value)
                return t1 - t0, t2 - t1

            def check():
                row = S.get("opt", class_key(C), opt_task())
                assert verified_bounds(row, C, recompute=True) == (r.value, r.value)

            times = [serve() for _ in range(repeat)]
            fingerprint, ms = (1000 * statistics.median(t[i] for t in times) for i in (0, 1))
            full = 1000 * _median(check, repeat)
            label = f"{name} " + " ".join(f"{k}={v}" for k, v in params.items())
            print(f"| {label} | {C.n_concepts} | {1000 * build:.1f} | {1000 * solve:.1f} | {1000 * sealing:.1f} | "
                  f"{fingerprint:.1f} | {ms:.2f} {'ok' if ms < 50 else 'OVER 50'} | {full:.1f} |", flush=True)


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
