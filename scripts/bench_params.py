"""Time the parameters beside Opt (:mod:`solvers.params`) on a fixed set of classes, and the two searches of issue 22
part 1 against their naive baselines in the same run:

* ``proper``: the one-pass recurrence of :mod:`solvers.params.proper` against the same memoised recurrence taking,
  for every hypothesis h, the max over the replies that catch it (what it replaced);
* ``best_order`` / ``worst_order``: the search over orders of :mod:`solvers.params.orders` against playing every
  order of the distinct splits (only where there are at most 8 of them).

Usage::

    python scripts/bench_params.py                # the default classes, a Markdown table
    python scripts/bench_params.py --quick        # the small ones only (a smoke run)

Each row: the class, |C|, |X|, then per key the value and seconds; the last columns are the baselines' seconds and
the ratios baseline / search (both measured here, one after the other, on an otherwise idle machine).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from solvers.classes import ConceptClass  # noqa: E402
from solvers.classes.families import make  # noqa: E402
from solvers.params import compute  # noqa: E402
from solvers.params.orders import _splits, order_value  # noqa: E402

KEYS = ("threshold", "star", "td", "rtd", "best_order", "worst_order", "proper")


def classes(quick: bool) -> list:
    rng = np.random.default_rng(22)
    if quick:  # 7 points: the naive baseline plays 5,040 orders, not 40,320
        return [("thresholds N=15", make("thresholds", N=15)), ("intervals N=7", make("intervals", N=7)),
                ("random 30x7", ConceptClass.from_matrix(rng.integers(0, 2, (30, 7)).astype(bool)))]
    out = [("thresholds N=15", make("thresholds", N=15)), ("intervals N=8", make("intervals", N=8)),
           ("random 30x8", ConceptClass.from_matrix(rng.integers(0, 2, (30, 8)).astype(bool)))]
    if not quick:
        out += [("intervals N=14", make("intervals", N=14)),
                ("random 60x12", ConceptClass.from_matrix(rng.integers(0, 2, (60, 12)).astype(bool))),
                ("random 100x16", ConceptClass.from_matrix(rng.integers(0, 2, (100, 16)).astype(bool)))]
    return out


def naive_proper(C) -> int:
    """Proper(C) by the recurrence as written: min over h in S of the max over the replies catching h."""
    M = C.matrix
    m, n = M.shape
    ones = [sum(1 << c for c in range(m) if M[c, j]) for j in range(n)]
    memo: dict = {}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * m + 1000))

    def value(S: int) -> int:
        if S & (S - 1) == 0:
            return 0
        if S not in memo:
            replies = [(S & ones[j], S & ~ones[j]) for j in range(n) if S & ones[j] and S & ~ones[j]]
            best = None
            for h in (c for c in range(m) if S >> c & 1):
                worst = max(1 + value(T) for pair in replies for T in pair if not T >> h & 1)
                best = worst if best is None else min(best, worst)
            memo[S] = best
        return memo[S]

    return value((1 << m) - 1)


def naive_orders(C):
    """(best, worst) over every order of the distinct splits, or None past 8 of them."""
    kept, _ = _splits(C.matrix)
    if len(kept) > 8:
        return None
    values = [order_value(C.matrix, perm) for perm in itertools.permutations(kept)]
    return min(values), max(values)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="the small classes only")
    args = p.parse_args(argv)
    head = ["class", "|C|", "|X|", *KEYS, "proper naive s", "x", "orders naive s", "x"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for name, C in classes(args.quick):
        r = compute(C, KEYS)
        cells = [f"{r[k].value} ({r[k].seconds:.2f} s)" for k in KEYS]
        t = time.monotonic()
        assert naive_proper(C) == r["proper"].value
        proper_s = time.monotonic() - t
        t = time.monotonic()
        got = naive_orders(C)
        orders_s = time.monotonic() - t
        if got is not None:
            assert got == (r["best_order"].value, r["worst_order"].value)
        search_s = r["best_order"].seconds + r["worst_order"].seconds
        print(f"| {name} | {C.n_concepts} | {C.n_points} | " + " | ".join(cells) +
              f" | {proper_s:.2f} | {proper_s / max(r['proper'].seconds, 1e-6):.1f} | "
              + (f"{orders_s:.2f} | {orders_s / max(search_s, 1e-6):.1f} |" if got is not None else "- | - |"),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
