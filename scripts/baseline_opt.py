"""The naive baseline for Opt(C): a memoised recursion straight from the recurrence.

    Opt(V) = -1                                                  if V is empty
    Opt(V) = 0                                                   if no point splits V
    Opt(V) = max over x splitting V of 1 + min(Opt(V_x^0), Opt(V_x^1))   otherwise

A version space V is a sorted tuple of row indices; the memo is a dict keyed by that tuple. Every
point is tried at every node, and both children are always evaluated: no cardinality bounds, no
pruning, no merging of equivalent points. This is the program a researcher writes first, and the
reference that ``scripts/bench_opt.py`` measures the real solver (``solvers.opt.opt``) against.

Usage::

    python scripts/baseline_opt.py FAMILY k=v ... [--time-limit S] [--json]

e.g. ``python scripts/baseline_opt.py thresholds N=7`` prints 3.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

__all__ = ["baseline_opt", "parse_params"]


def baseline_opt(matrix, time_limit: float | None = None) -> int:
    """Opt of the class whose concepts are the rows of ``matrix`` (a 0/1 array-like or a ConceptClass).

    Raises
    ------
    TimeoutError
        If ``time_limit`` seconds pass before the recursion finishes.
    """
    if hasattr(matrix, "matrix") and not isinstance(matrix, (list, tuple)):
        matrix = matrix.matrix  # a ConceptClass
    if hasattr(matrix, "tolist"):
        matrix = matrix.tolist()
    rows = [tuple(bool(v) for v in r) for r in matrix]
    n = len(rows)
    if n == 0:
        return -1
    n_points = len(rows[0])
    # cols[x][c]: the label concept c gives point x.
    cols = [tuple(r[x] for r in rows) for x in range(n_points)]
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    memo: dict[tuple[int, ...], int] = {}
    # The recursion is at most |C| deep (each level removes a concept); plain Python-to-Python calls.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * n + 1000))

    def rec(V: tuple[int, ...]) -> int:
        if not V:
            return -1
        got = memo.get(V)
        if got is not None:
            return got
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeoutError(f"baseline_opt: time limit of {time_limit} s reached")
        size = len(V)
        best = 0  # no point splits V -> 0
        for col in cols:
            V1 = tuple([c for c in V if col[c]])
            if not V1 or len(V1) == size:
                continue  # x does not split V
            V0 = tuple([c for c in V if not col[c]])
            val = 1 + min(rec(V0), rec(V1))
            if val > best:
                best = val
        memo[V] = best
        return best

    return rec(tuple(range(n)))


def parse_params(items) -> dict:
    """``["N=7", "p=0.5"]`` -> ``{"N": 7, "p": 0.5}`` (ints, then floats, else strings)."""
    params = {}
    for it in items:
        if "=" not in it:
            raise SystemExit(f"parameter {it!r} is not of the form k=v")
        k, v = it.split("=", 1)
        for conv in (int, float):
            try:
                v = conv(v)
                break
            except ValueError:
                pass
        params[k] = v
    return params


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Naive memoised Opt(C) (the benchmark baseline).")
    ap.add_argument("family", help="family name for solvers.classes.families.make")
    ap.add_argument("params", nargs="*", help="family parameters as k=v")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds before giving up")
    ap.add_argument("--json", action="store_true", help="print a JSON line (value, seconds, sizes)")
    args = ap.parse_args(argv)

    root = Path(__file__).resolve().parent.parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from solvers.classes.families import make

    C = make(args.family, **parse_params(args.params))
    t0 = time.perf_counter()
    try:
        value = baseline_opt(C.matrix, time_limit=args.time_limit)
        status = "ok"
    except TimeoutError:
        value, status = None, "timeout"
    except MemoryError:
        value, status = None, "memory"
    seconds = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"value": value, "status": status, "seconds": seconds,
                          "concepts": C.n_concepts, "points": C.n_points}))
    elif status == "ok":
        print(value)
    else:
        print(f"{status} after {seconds:.1f} s", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
