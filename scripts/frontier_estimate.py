"""How large is the refutation that would settle halfspaces on {0,1}^6 at Opt = 22? Knuth's estimator, measured.

``littlestone opt halfspaces n=6`` proves 22 <= Opt <= 23 (a mistake tree of depth 22; Halving's bound). Opt = 23
would need a tree of depth 23; Opt <= 22 needs a refutation of "Opt(C) >= 23": by the recurrence of [Rivest94],
for every point x one child V_x^b with Opt(V_x^b) <= 21, and so on down, every split that the cardinality bound
(a tree of depth d needs 2^d concepts) does not rule out needing a refuted child. At the root every point is in
one orbit of the cube's group, and complementing the labels swaps the two children, so the refutation starts at
V = {f : f(0) = 0} (7,514,067 concepts), which must have Opt(V) <= 21.

This script estimates that refutation's size the way Knuth estimates a backtrack tree (Knuth, "Estimating the
efficiency of backtrack programs", Math. Comp. 29, 1975): a probe walks down from V, at each version space counting
the splits b that pass the cardinality bound, takes one at random and goes to its smaller child (the one a
refutation tries first); the product of the b's along the walk, times what the exact search takes to refute the
version space where the walk ends (at most ``--leaf`` concepts, :class:`solvers.opt.search.Solver`), is an
unbiased estimate of the whole refutation's leaf time; the same products times each node's own time (counting its
splits), summed along the walk, estimate the time of the whole refutation, and the products summed its number of
version spaces. A walk also ends where no split passes the cardinality bound: refuted by it alone. It ignores version spaces reached by two paths (the memo
would merge them) and the symmetry below the root, so it overestimates; it assumes each smaller child is refuted
(a probe that ends on one that is not says so). The mean of such estimates converges slowly: the median and the
largest are printed too. A certificate of the refutation would have one entry per version space.

    python scripts/frontier_estimate.py --probes 60 --leaf 20000 --seed 0

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers.classes.families.boolean import halfspace_tables  # noqa: E402
from solvers.opt.memo import SearchStop  # noqa: E402
from solvers.opt.packed import LEAF_MEMO_BYTES, _ones, leaf_class  # noqa: E402


def probe(V: np.ndarray, need: int, leaf: int, cap: float, rng) -> dict:
    """One random walk from V (refuting Opt(V) >= need); see the module's docstring."""
    from solvers.opt.search import Solver

    weight, nodes, depth, work = 1.0, 1.0, 0, 0.0
    while len(V) > leaf:
        n = len(V)
        t = time.monotonic()
        ones = _ones(V, 64)
        least = 1 << (need - 1)
        ok = np.flatnonzero(np.minimum(ones, n - ones) >= least)
        if len(ok) == 0:  # refuted by the cardinality bound alone
            work += weight * (time.monotonic() - t)
            return {"weight": weight, "nodes": nodes, "depth": depth, "leaf_s": 0.0, "refuted": True, "leaf": n,
                    "work": work}
        j = int(rng.choice(ok))
        one = ((V >> np.uint64(j)) & np.uint64(1)).astype(bool)
        V = V[one] if ones[j] <= n - ones[j] else V[~one]
        work += weight * (time.monotonic() - t)  # this node's count and one split, times the nodes it stands for
        weight *= len(ok)
        nodes += weight
        need -= 1
        depth += 1
    if len(V) < (1 << need):
        return {"weight": weight, "nodes": nodes, "depth": depth, "leaf_s": 0.0, "refuted": True, "leaf": len(V),
                "work": work}
    S = Solver(leaf_class(V, 64)[0], memo_bytes=LEAF_MEMO_BYTES)
    t = time.monotonic()
    try:
        with S.limits(deadline=t + cap):
            refuted = not S.decide(S.full, need)
        capped = False
    except SearchStop:
        refuted, capped = None, True
    leaf_s = time.monotonic() - t
    return {"weight": weight, "nodes": nodes, "depth": depth, "leaf_s": leaf_s, "capped": capped,
            "refuted": refuted, "leaf": len(V), "need": need, "work": work + weight * leaf_s}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--probes", type=int, default=60, help="random walks (default 60)")
    ap.add_argument("--leaf", type=int, default=20_000, help="version spaces this small go to the exact search")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds a walk's exact search may take (then counted "
                                                             "as that many: the estimate is then a lower one)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.probes < 1 or args.leaf < 2 or args.cap <= 0:
        ap.error("give --probes >= 1, --leaf >= 2 and --cap > 0")
    T = halfspace_tables(6)
    V = T[(T & np.uint64(1)) == 0]  # f(0) = 0: the refutation's one root child, up to the cube's group
    rng = np.random.default_rng(args.seed)
    rows = []
    t0 = time.monotonic()
    for i in range(args.probes):
        r = probe(V, 22, args.leaf, args.cap, rng)
        rows.append(r)
        print(f"probe {i + 1}: depth {r['depth']}, branching product {r['weight']:.3g}, leaf of {r['leaf']} concepts "
              f"(needs {r.get('need', '-')}) {'refuted' if r['refuted'] else 'NOT refuted' if r['refuted'] is False else 'capped'}"
              f" in {r['leaf_s']:.2f} s", flush=True)
    est = [r["work"] for r in rows]
    nodes = [r["nodes"] for r in rows]
    print(f"\n{args.probes} probes in {time.monotonic() - t0:.0f} s (--leaf {args.leaf}, --cap {args.cap:g} s, "
          f"--seed {args.seed})")
    print(f"version spaces above the leaves: mean {statistics.fmean(nodes):.3g}, median {statistics.median(nodes):.3g}")
    print(f"seconds of work over the whole refutation (each node's count of its splits, and the exact search at the "
          f"leaves): mean {statistics.fmean(est):.3g}, median {statistics.median(est):.3g}, max {max(est):.3g}")
    years = statistics.fmean(est) / (365.25 * 86400)
    print(f"  = {years:.3g} core-years at the mean ({years * 365.25 * 24 / 1000:.3g} hours on 1,000 workers, "
          "if they shared nothing and lost nothing)")
    print(f"walks that ended on a leaf not refuted: {sum(r['refuted'] is False for r in rows)}; capped: "
          f"{sum(bool(r.get('capped')) for r in rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
