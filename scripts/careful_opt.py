"""The careful pure-Python baseline for Opt(C): the search a researcher writes with care, in plain Python.

    Opt(V) = -1 if V is empty, 0 if no point splits V, else max over x splitting V of 1 + min(Opt(V_x^0), Opt(V_x^1))

(the recurrence of Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds", section
2.3.3), decided rather than evaluated, with the rules that make a memoised search fast and nothing that needs a
compiler or knowledge of the class:

- a version space V is a Python int, a bitset over the (distinct) concepts; a point x is the bitset of the
  concepts that label it 1, and V_x^1 = V & x, V_x^0 = V ^ V_x^1;
- Opt(C) by iterative deepening: "Opt(V) >= d?" for d = 2, 3, ... at the root (d = 1 holds when any point
  splits C), until the answer is no;
- cardinality pruning: Opt(V) >= d needs |V| >= 2^d (Halving's bound, ibid. 2.3.2), and a split point x can
  witness it only if both sides have at least 2^(d-1) concepts;
- the splits deduplicated per version space: points whose restrictions to V are equal or complementary are one
  split, points constant on V are dropped; a child's candidate splits are its parent's deduplicated ones,
  filtered again (a point equivalent to another, or constant, on V stays so on every subset of V);
- the most balanced split first (the larger smaller side), and of its two sides the smaller asked first
  (the likelier to answer no);
- a memo of the proven bounds [lo, hi] on Opt(V) per version space, a dict keyed by the int.

No symmetry, no isomorphism of version spaces, no compiled code. ``solvers.opt.opt`` is measured against it
by ``scripts/bench_raw.py`` (issue 37, "Past the compiled limit": the ratio is taken in one run against this
search, not against an earlier revision of the project); ``scripts/baseline_opt.py`` is the naive recursion
that the tests hold both to.

Usage::

    python scripts/careful_opt.py FAMILY k=v ... [--time-limit S] [--json]
    python scripts/careful_opt.py --matrix FILE.npy [--time-limit S] [--json]

e.g. ``python scripts/careful_opt.py thresholds N=7`` prints 3. With ``--json`` one line
``{"value", "status", "seconds", "concepts", "points", "nodes"}``: ``seconds`` is the time of
``careful_opt(matrix)`` alone (the class's build or the file's read excluded).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

__all__ = ["careful_opt", "careful_search"]

_CHECK_EVERY = 1024  # nodes between two looks at the clock


def _columns(matrix) -> tuple[int, int, list[int]]:
    """(number of distinct concepts, number of points, the points as bitsets over the distinct concepts)."""
    import numpy as np

    if hasattr(matrix, "matrix") and not isinstance(matrix, (list, tuple)):
        matrix = matrix.matrix  # a ConceptClass
    a = np.asarray(matrix)
    if a.size == 0:
        return (0 if a.ndim < 2 or a.shape[0] == 0 else 1), (a.shape[1] if a.ndim == 2 else 0), []
    if a.ndim != 2:
        raise ValueError(f"expected a 2-d 0/1 matrix (concepts x points), got shape {a.shape}")
    a = np.unique(a.astype(bool), axis=0)  # duplicate concepts: one concept (|V| must count distinct ones)
    n, m = a.shape
    packed = np.packbits(a.T, axis=1, bitorder="little")  # row x: the concepts labelling point x with 1
    return n, m, [int.from_bytes(packed[x].tobytes(), "little") for x in range(m)]


def careful_search(matrix, time_limit: float | None = None) -> tuple[int, dict]:
    """(Opt(C), statistics) of the class whose concepts are the rows of ``matrix``; see :func:`careful_opt`.

    The statistics: ``nodes`` (version spaces expanded), ``memo`` (version spaces with a bound in the memo),
    ``concepts`` (distinct) and ``points``.
    """
    n, m, cols = _columns(matrix)
    stats = {"nodes": 0, "memo": 0, "concepts": n, "points": m}
    if n <= 1:
        return n - 1, stats
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    memo: dict[int, tuple[int, int]] = {}
    nodes = 0

    def splits(V: int, size: int, cands: list[int]) -> list[tuple[int, int, int, int, int]]:
        """The splits of V, one per class of equal-or-complementary restrictions to V, the most balanced first,
        each as (the smaller side's size, the point, the smaller side, the larger side)."""
        seen = set()
        out = []
        for c in cands:
            a = V & c
            if a == 0 or a == V:
                continue  # constant on V
            b = V ^ a
            key = a if a < b else b
            if key in seen:
                continue  # equal or complementary to a split already kept
            seen.add(key)
            na = a.bit_count()
            if na + na <= size:
                out.append((na, c, a, b))
            else:
                out.append((size - na, c, b, a))
        out.sort(key=lambda s: s[0], reverse=True)
        return out

    def at_least(V: int, size: int, d: int, cands: list[int]) -> bool:
        """Opt(V) >= d?  (V non-empty with ``size`` concepts; ``cands`` includes a representative of every
        split of V.)"""
        nonlocal nodes
        if d <= 0:
            return True
        if size < (1 << d):
            return False
        got = memo.get(V)
        if got is not None:
            if got[0] >= d:
                return True
            if got[1] < d:
                return False
            lo, hi = got
        else:
            lo, hi = 0, size.bit_length() - 1
        nodes += 1
        if deadline is not None and nodes % _CHECK_EVERY == 0 and time.perf_counter() > deadline:
            raise TimeoutError(f"careful_opt: time limit of {time_limit} s reached")
        ss = splits(V, size, cands)
        if not ss:
            memo[V] = (0, 0)
            return False
        lo = max(lo, 1)
        found = d == 1
        if not found:
            half = 1 << (d - 1)
            down = [s[1] for s in ss]
            for small_size, _, small, large in ss:
                if small_size < half:
                    break  # sorted: no later split is balanced enough either
                if at_least(small, small_size, d - 1, down) and at_least(large, size - small_size, d - 1, down):
                    found = True
                    break
        if found:
            lo = max(lo, d)
        else:
            hi = min(hi, d - 1)
        memo[V] = (lo, hi)
        return found

    root = (1 << n) - 1
    top = n.bit_length() - 1  # floor(log2 n): Halving's bound
    d = 1  # two distinct concepts differ on some point: Opt(C) >= 1
    while d < top and at_least(root, n, d + 1, cols):
        d += 1
    stats["nodes"], stats["memo"] = nodes, len(memo)
    return d, stats


def careful_opt(matrix, time_limit: float | None = None) -> int:
    """Opt of the class whose concepts are the rows of ``matrix`` (a 0/1 array-like, concepts x points, or a
    ConceptClass): -1 for no concepts, 0 for one.

    Raises
    ------
    TimeoutError
        If ``time_limit`` seconds pass before the search finishes.
    """
    return careful_search(matrix, time_limit)[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Careful pure-Python memoised Opt(C) (the raw-class benchmark's baseline).")
    ap.add_argument("family", nargs="?", help="family name for solvers.classes.families.make")
    ap.add_argument("params", nargs="*", help="family parameters as k=v")
    ap.add_argument("--matrix", metavar="FILE", help="a 0/1 matrix saved by numpy.save (instead of a family)")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds before giving up")
    ap.add_argument("--json", action="store_true", help="print a JSON line (value, seconds, sizes, nodes)")
    args = ap.parse_args(argv)
    if (args.matrix is None) == (args.family is None):
        ap.error("give a family (and its k=v parameters) or --matrix FILE, not both")

    root = Path(__file__).resolve().parent.parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    if args.matrix is not None:
        import numpy as np

        matrix = np.load(args.matrix, allow_pickle=False)
    else:
        from baseline_opt import parse_params

        from solvers.classes.families import make

        matrix = make(args.family, **parse_params(args.params)).matrix
    rows, points = (matrix.shape if getattr(matrix, "ndim", 0) == 2 else (len(matrix), 0))
    t0 = time.perf_counter()
    nodes = None
    try:
        value, stats = careful_search(matrix, time_limit=args.time_limit)
        nodes, status = stats["nodes"], "ok"
    except TimeoutError:
        value, status = None, "timeout"
    except MemoryError:
        value, status = None, "memory"
    seconds = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"value": value, "status": status, "seconds": seconds,
                          "concepts": int(rows), "points": int(points), "nodes": nodes}))
    elif status == "ok":
        print(value)
    else:
        print(f"{status} after {seconds:.1f} s", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
