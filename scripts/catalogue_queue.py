"""The catalogue's open witness queue, for the pairs littlestone computes: for each relation P1 >= f(P2) without a
witness class (a class where P1 is much larger than f(P2)), the largest gap over every class on a few points
(``separate``, exhaustive up to isomorphism) and the values on a family that settles it, each computed exactly
with its witness checked. Prints the markdown tables of docs/catalogue.md.

    python scripts/catalogue_queue.py [--points 4] [--max-n 6]
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.certificates.params import check  # noqa: E402
from solvers.classes import ConceptClass  # noqa: E402
from solvers.classes.families import make  # noqa: E402
from solvers.opt import opt  # noqa: E402
from solvers.params import compute  # noqa: E402
from solvers.params.separate import separate  # noqa: E402

#: (row, the catalogue's statement, the separate call (A, B, scale): A - scale * B large is the witness sought)
ROWS = [
    (38, "M_sd >= L / log2 |H|", None),
    (53, "M_worst >= VC", ("worst_order", "vc", 1)),
    (87, "L >= Q_meq", ("opt", "meq", 1)),
    (96, "T >= P / 2", ("threshold_chain", "path", Fraction(1, 2))),
    (298, "M_sd >= TS_min", ("self_directed", "min_td", 1)),
]


def value(C, key: str) -> int:
    if key == "opt":
        return opt(C).value
    p = compute(C, [key])[key]
    ok, why = check(C, key, p.to_json())
    assert ok and p.value is not None, (key, why)
    return p.value


def cube_with_apex(n: int) -> ConceptClass:
    """The 2^n functions on n points, 0 at an apex point, and the concept 1 at the apex alone: the apex teaches that
    concept (TS_min = 1), and a self-directed learner still errs n times on the cube."""
    cube = np.array([[(i >> j) & 1 for j in range(n)] + [0] for i in range(1 << n)], dtype=np.uint8)
    return ConceptClass.from_matrix(np.vstack([cube, [[0] * n + [1]]]))


#: The 8-concept class on 4 points where Opt - meq is largest (3 - 2) over every class on 4 points.
W = np.array([[0, 0, 0, 1], [0, 0, 1, 0], [0, 0, 1, 1], [0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 1], [1, 0, 1, 0],
              [1, 1, 0, 0]], dtype=np.uint8)


def power(n: int) -> ConceptClass:
    """W^n on n disjoint copies of its 4 points: Opt adds over the copies (3n), and a learner of the copies side by
    side asks at most the sum of their meq (2n)."""
    rows = W
    for _ in range(n - 1):
        rows = np.array([np.concatenate([a, b]) for a in rows for b in W], dtype=np.uint8)
    return ConceptClass.from_matrix(rows)


FAMILIES = {
    87: ("W^n (W: the 4-point class of the gap)", power, ("opt", "meq")),
    38: ("the full cube 2^[n]", lambda n: make("all-functions", n=n), ("self_directed", "opt")),
    53: ("half-intervals I_n", lambda n: make("halfintervals", n=2 ** n), ("worst_order", "vc")),
    96: ("half-intervals I_n", lambda n: make("halfintervals", n=n + 1), ("threshold_chain", "path")),
    298: ("the cube with an apex", cube_with_apex, ("self_directed", "min_td")),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=4, help="separate on every class of up to this many points")
    ap.add_argument("--max-n", type=int, default=6, help="the largest n of each family")
    args = ap.parse_args()
    print("| row | relation | largest gap over every class on m points | family | values at n = 1, 2, ... |")
    print("|---:|---|---|---|---|")
    for row, text, pair in ROWS:
        gaps = []
        if pair is not None:
            a, b, k = pair
            for m in range(2, args.points + 1):
                t0 = time.monotonic()
                s = separate(a, b, m, scale=k)
                assert s.exhaustive
                gaps.append(f"m={m}: {s.gap} ({a} {s.value_a}, {b} {s.value_b}; {s.classes} classes, "
                            f"{time.monotonic() - t0:.1f} s)")
        fam = FAMILIES.get(row)
        if fam is None:
            print(f"| {row} | {text} | {'; '.join(gaps)} | | |")
            continue
        name, build, (a, b) = fam
        vals = []
        for n in range(1, min(args.max_n, 3 if row == 87 else args.max_n) + 1):  # (W^4: 4,096 concepts)
            C = build(n)
            extra = f", log2 |C| = {C.n_concepts.bit_length() - 1}" if row == 38 else ""
            vals.append(f"{value(C, a)}/{value(C, b)}{extra}")
        print(f"| {row} | {text} | {'; '.join(gaps)} | {name}: {a}/{b} | {'; '.join(vals)} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
