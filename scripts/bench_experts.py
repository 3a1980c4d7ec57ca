"""The frontier of ``solvers.opt.experts.experts``: the largest n solved within a time limit, per game and k.

* Deterministic (D_k, the decision search): its work grows with the depth, not with n, so it runs at
  n = 10^3, 10^6, ..., up to the largest n the search accepts, and reports each time.
* Randomized (R_k, the table over every count state, about n^(2k+2) moves): n grows by half until a run
  does not finish within the limit, then bisection between the last n that finished and the first that
  did not (to within 2%). Each run is ``experts(n, k, randomized=True, time_limit=limit)``, so a run past
  the limit costs the limit and no more.

Timing: ``time.perf_counter`` around the whole call (table allocation included), one run each; the
figures move by 10-20% with the load of the machine.

Usage::

    python scripts/bench_experts.py [--limit S] [--k 1 2] [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solvers.opt.experts import MAX_DETERMINISTIC_N, experts  # noqa: E402


def timed(n: int, k: int, randomized: bool, limit: float):
    t = time.perf_counter()
    r = experts(n, k, randomized=randomized, time_limit=limit)
    return r, time.perf_counter() - t


def deterministic(k: int, limit: float, quick: bool) -> None:
    top = 9 if quick else len(str(MAX_DETERMINISTIC_N)) - 1
    for e in range(3, top + 1, 3):
        n = 10**e
        r, s = timed(n, k, False, limit)
        shown = r.value if r.value is not None else f"{r.lower}..{r.upper}"
        print(f"D_{k}(10^{e}) = {shown} (volume bound {r.volume}): {s:.3f} s, {r.stats['nodes']} nodes", flush=True)


def randomized(k: int, limit: float, start: int) -> None:
    good, bad = None, None  # (n, seconds, value) of the largest n that finished; the smallest that did not
    n = start
    while bad is None:
        r, s = timed(n, k, True, limit)
        if r.value is None:
            bad = (n, s)
        else:
            good = (n, s, r.value)
            print(f"  R_{k}({n}) = {r.value} = {float(r.value):.6f}: {s:.1f} s", flush=True)
            n = n * 3 // 2 + 1
    lo = good[0] if good else 0
    hi = bad[0]
    while hi - lo > max(1, lo // 50):
        mid = (lo + hi) // 2
        r, s = timed(mid, k, True, limit)
        if r.value is None:
            hi = mid
        else:
            lo, good = mid, (mid, s, r.value)
            print(f"  R_{k}({mid}) = {r.value} = {float(r.value):.6f}: {s:.1f} s", flush=True)
    if good is None:
        print(f"R_{k}: not even n = {start} within {limit:g} s", flush=True)
    else:
        print(f"R_{k}: largest n within {limit:g} s: {good[0]} ({good[1]:.1f} s); n = {hi} did not finish", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per run (default 60)")
    ap.add_argument("--k", type=int, nargs="+", default=[1, 2], help="the mistakes of the best expert (default 1 2)")
    ap.add_argument("--quick", action="store_true", help="a smoke run: a 0.2 s limit, small n")
    args = ap.parse_args(argv)
    limit = 0.2 if args.quick else args.limit
    for k in args.k:
        print(f"k = {k}, deterministic:", flush=True)
        deterministic(k, limit, args.quick)
        print(f"k = {k}, randomized:", flush=True)
        randomized(k, limit, start={1: 100, 2: 20}.get(k, 8) // (4 if args.quick else 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
