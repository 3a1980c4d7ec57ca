"""The naive baseline for the games beyond Opt: a memoised recursion straight from the recurrences.

    RL(V) = 0 if no point splits V, else max over x splitting V of f(RL(V_x^0), RL(V_x^1)),
    f(a, b) = max(a, b, (1 + a + b)/2);

with k label errors the state is every concept's budget (a tuple; -1 for a dead concept), a point whose
labels both leave some concept alive is a move, and a move one of whose labels leaves the state as it is
(a loop) is worth 1 + the other child's value; the deterministic value uses g(a, b) = max(a, b, 1 +
min(a, b)) in place of f; with a horizon T the state also holds the rounds left (and a loop is an
ordinary move). See solvers/game_rules.py for the rules.

Every point is tried at every state, both children are always evaluated, values are Fractions, the memo
is a dict keyed by the state: no bounds, no pruning, no merging of equivalent points. This is the program
a researcher writes first, and the reference ``scripts/bench_variants.py`` measures
``solvers.opt.opt(C, game=..., errors=..., horizon=...)`` against.

Usage::

    python scripts/baseline_variants.py FAMILY k=v ... [--randomized] [--errors K] [--horizon T]
                                        [--time-limit S] [--json]

e.g. ``python scripts/baseline_variants.py thresholds N=7 --randomized`` prints 3/2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

__all__ = ["baseline_value"]


def baseline_value(matrix, *, randomized: bool = False, errors: int = 0, horizon: int | None = None,
                   time_limit: float | None = None):
    """The game's value on the class whose concepts are the rows of ``matrix`` (0/1 array-like or a
    ConceptClass). Raises TimeoutError past ``time_limit`` seconds."""
    if hasattr(matrix, "matrix") and not isinstance(matrix, (list, tuple)):
        matrix = matrix.matrix
    if hasattr(matrix, "tolist"):
        matrix = matrix.tolist()
    rows = [tuple(bool(v) for v in r) for r in matrix]
    n_points = len(rows[0])
    cols = [tuple(r[x] for r in rows) for x in range(n_points)]
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    memo: dict = {}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(rows) * (errors + 1) + 10_000))
    half = Fraction(1, 2)

    def child(b, col, y):
        out = tuple((bi if col[i] == y else bi - 1) if bi >= 0 else -1 for i, bi in enumerate(b))
        out = tuple(v if v >= 0 else -1 for v in out)
        return out if any(v >= 0 for v in out) else None

    def rec(b, t):
        key = (b, t)
        got = memo.get(key)
        if got is not None:
            return got
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeoutError("baseline: time limit reached")
        best = Fraction(0)
        if t != 0:
            t1 = None if t is None else t - 1
            for col in cols:
                b0, b1 = child(b, col, False), child(b, col, True)
                if b0 is None or b1 is None:
                    continue
                if t is None and (b0 == b or b1 == b):  # a loop: 1 + the other child
                    val = 1 + rec(b1 if b0 == b else b0, None)
                else:
                    a, c = rec(b0, t1), rec(b1, t1)
                    val = max(a, c, (1 + a + c) * half) if randomized else max(a, c, 1 + min(a, c))
                if val > best:
                    best = val
        memo[key] = best
        return best

    return rec(tuple([errors] * len(rows)), horizon)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Naive memoised value of a game beyond Opt (the benchmark baseline).")
    ap.add_argument("family", help="family name for solvers.classes.families.make")
    ap.add_argument("params", nargs="*", help="family parameters as k=v")
    ap.add_argument("--randomized", action="store_true")
    ap.add_argument("--errors", type=int, default=0)
    ap.add_argument("--horizon", type=int, default=None)
    ap.add_argument("--time-limit", type=float, default=None, help="seconds before giving up")
    ap.add_argument("--json", action="store_true", help="print a JSON line (value, seconds, sizes)")
    args = ap.parse_args(argv)

    root = Path(__file__).resolve().parent.parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from baseline_opt import parse_params  # noqa: E402 - the script's sibling
    from solvers.classes.families import make

    C = make(args.family, **parse_params(args.params))
    t0 = time.perf_counter()
    try:
        value = baseline_value(C.matrix, randomized=args.randomized, errors=args.errors, horizon=args.horizon,
                               time_limit=args.time_limit)
        status = "ok"
    except TimeoutError:
        value, status = None, "timeout"
    except (MemoryError, RecursionError):
        value, status = None, "memory"
    seconds = time.perf_counter() - t0
    text = None if value is None else (str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}")
    if args.json:
        print(json.dumps({"value": text, "status": status, "seconds": seconds,
                          "concepts": C.n_concepts, "points": C.n_points}))
    elif status == "ok":
        print(text)
    else:
        print(f"{status} after {seconds:.1f} s", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
