"""Each special engine of ``solvers.opt`` against the generic search on its family's instances that fit a
matrix (issue 19, section 4: an engine the generic search comes within 1.5x of is to be retired).

For each instance: the special engine as ``opt`` runs it (``engine="states"`` for thresholds, intervals and
rectangles; the disjunctions search, which ``engine="auto"`` takes for ``monotone-disjunctions`` over 256
points or more; the subcube table, ``engine="table"``), the generic search on the same listed class
(``engine="search"``, the family's declared group), and the generic search on the class as a raw matrix
(no family, no declared group: the group found by graph automorphism). Each time is the median of three
runs on freshly made classes (the build not timed), with a time limit; the table gives the generic search's
time over the engine's (under 1.5: the generic search is within 1.5x).

The experts searches (:func:`solvers.opt.experts.experts`, D_k(n) and R_k(n) of n experts) are set against
the generic game search (:class:`~solvers.opt.games.GameSolver`, ``opt(C, errors=k)``) on the universal class
of n dictators given as a matrix (n concepts over {0,1}^n; no family makes it, so the two generic columns
are one).

Usage::

    python scripts/bench_engines.py [--time-limit S] [--only NAME]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solvers.classes import ConceptClass  # noqa: E402
from solvers.classes.families import make  # noqa: E402
from solvers.opt import opt  # noqa: E402

#: (engine, family, params) for each special engine, sizes the generic search finishes in seconds or not.
CASES = [
    ("states", "thresholds", {"N": 1000}),
    ("states", "thresholds", {"N": 4000}),
    ("states", "intervals", {"N": 60}),
    ("states", "intervals", {"N": 100}),
    ("states", "rectangles", {"N": 8}),
    ("states", "rectangles", {"N": 12}),
    ("states", "rectangles", {"N": 16}),
    ("states", "rectangles", {"N": 20}),
    ("states", "rectangles", {"N": 24}),
    ("disjunctions", "monotone-disjunctions", {"n": 8, "k": 3}),
    ("disjunctions", "monotone-disjunctions", {"n": 10, "k": 3}),
    ("disjunctions", "monotone-disjunctions", {"n": 12, "k": 2}),
    ("disjunctions", "monotone-disjunctions", {"n": 12, "k": 3}),
    ("table", "all-functions", {"n": 12}),
    ("table", "conjunctions", {"n": 3}),
    ("table", "halfspaces", {"n": 4}),
    ("table", "all-functions", {"n": 15}),
]


#: (n, k, randomized) of the experts game, small enough for the dictators' matrix.
EXPERTS = [(8, 1, False), (10, 1, False), (8, 2, False), (8, 1, True), (6, 2, True)]


def _dictators(n: int) -> ConceptClass:
    """The universal class of n experts: concept i labels the point (a_1, ..., a_n) by a_i."""
    return ConceptClass.from_matrix([[(v >> i) & 1 for v in range(1 << n)] for i in range(n)])


def _experts_row(n: int, k: int, randomized: bool, time_limit: float) -> str:
    from solvers.opt.experts import experts

    times, e = [], None
    for _ in range(3):
        t = time.perf_counter()
        e = experts(n, k, randomized=randomized)
        times.append(time.perf_counter() - t)
    te = statistics.median(times)
    game = "randomized" if randomized else "deterministic"
    tg, rg = _timed(lambda: _dictators(n), time_limit, game=game, errors=k)
    if rg.value is not None and rg.value != e.value:
        raise SystemExit(f"MISMATCH experts n={n} k={k} {game}: {e.value} against {rg.value}")
    label = f"{'R' if randomized else 'D'}_{k}(n) n={n}"
    return (f"| experts ({game}) | {label} | {e.value} | {te:.3g} | {_cell(tg, rg)} | {tg / te:.2f} | (same) | "
            f"{tg / te:.2f} |")


def _timed(make_class, time_limit: float, **kw):
    """(median seconds of three runs, the last result) of ``opt(make_class(), time_limit=..., **kw)``."""
    times, r = [], None
    for _ in range(3):
        C = make_class()
        t = time.perf_counter()
        r = opt(C, time_limit=time_limit, anytime=False, **kw)
        times.append(time.perf_counter() - t)
        if r.value is None:
            break  # (not solved in the limit: once is enough)
    return statistics.median(times), r


def _cell(seconds: float, r) -> str:
    return f"{seconds:.3g}" if r.value is not None else f">{seconds:.3g} ({r.lower}..{r.upper})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time-limit", type=float, default=30.0, metavar="S", help="per run (default 30)")
    ap.add_argument("--only", metavar="NAME", help="only the cases whose engine or family contains NAME")
    args = ap.parse_args(argv)
    print("| engine | instance | Opt | engine s | generic s | generic / engine | raw matrix s | raw / engine |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for engine, family, params in CASES:
        if args.only and args.only not in engine and args.only not in family:
            continue
        label = f"{family} " + " ".join(f"{k}={v}" for k, v in params.items())
        M = make(family, **params).matrix
        special = {"engine": "auto"} if engine == "disjunctions" else {"engine": engine}
        te, re = _timed(lambda: make(family, **params), args.time_limit, **special)
        tg, rg = _timed(lambda: make(family, **params), args.time_limit, engine="search")
        tr, rr = _timed(lambda: ConceptClass.from_matrix(M), args.time_limit, engine="search")
        values = {r.value for r in (re, rg, rr) if r.value is not None}
        if len(values) > 1:
            print(f"MISMATCH {label}: {sorted(values)}", flush=True)
            return 1
        used = re.stats.get("engine")
        print(f"| {engine} ({used}) | {label} | {values.pop() if values else '?'} | {_cell(te, re)} | "
              f"{_cell(tg, rg)} | {tg / te:.2f} | {_cell(tr, rr)} | {tr / te:.2f} |", flush=True)
    if not args.only or args.only in "experts":
        for n, k, randomized in EXPERTS:
            print(_experts_row(n, k, randomized, args.time_limit), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
