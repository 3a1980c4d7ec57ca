"""The threshold dimension: the largest t with points x_1..x_t and concepts c_1..c_t of C such that
c_i(x_j) = 1 iff i <= j (a "half graph" in C's matrix). Threshold dimension t and Opt(C) bound each other
logarithmically (Shelah; Hodges): Opt(C) >= floor(log2 t) and t >= floor(log2 Opt(C)), the link between online
learnability and stability.

The search builds the pattern from its end: a new first pair (c, x) must have c(x) = 1, c = 1 on every point
already chosen, and every concept already chosen = 0 at x. It keeps the candidate concepts A (1 on all chosen
points) and candidate points B (0 under every chosen concept) as bitsets, and prunes with
depth + min(|A|, |B|).

Examples
--------
>>> from solvers.classes.families import make
>>> search(make("thresholds", N=5)).value
5
>>> search(make("singletons", N=5)).value
1
"""

from __future__ import annotations

import time
from typing import Optional

from .. import interrupts

__all__ = ["search"]


class _Stop(Exception):
    pass


def search(C, *, time_limit: Optional[float] = None):
    """The threshold dimension of ``C`` as a :class:`~solvers.params.ParamResult`, the witness ``{"points": [x_1..],
    "concepts": [c_1..]}`` (column and row indices, in order)."""
    from . import ParamResult, Stopped, column_bits, row_bits

    M = C.matrix
    m, n = M.shape
    deadline = None if time_limit is None else time.monotonic() + time_limit
    best = {"pairs": []}
    nodes = [0]

    def tick() -> None:  # at every node and every pair tried (a pair costs a few ANDs of m-bit sets)
        nodes[0] += 1
        if nodes[0] & 255 == 0:
            interrupts.check()
            if deadline is not None and time.monotonic() > deadline:
                raise _Stop

    def go(A: int, B: int, pairs: list) -> None:
        tick()
        if len(pairs) > len(best["pairs"]):
            best["pairs"] = list(pairs)
        if len(pairs) + min(A.bit_count(), B.bit_count()) <= len(best["pairs"]):
            return
        a = A
        while a:
            c = (a & -a).bit_length() - 1
            a &= a - 1
            b = B & rows[c]  # c(x) = 1 at the new point
            tick()
            while b:
                x = (b & -b).bit_length() - 1
                b &= b - 1
                tick()
                # new first pair (c, x): concepts still to come must be 1 at x too; points to come 0 under c
                pairs.append((c, x))
                go((A & cols[x]) & ~(1 << c), (B & ~rows[c]) & ~(1 << x), pairs)
                pairs.pop()

    stopped = False
    try:
        rows = row_bits(M, deadline)     # points where c is 1
        cols = column_bits(M, deadline)  # concepts that are 1 at j
        go((1 << m) - 1, (1 << n) - 1, [])
    except (_Stop, Stopped, KeyboardInterrupt):
        stopped = True
    pairs = best["pairs"][::-1]  # built from the end: reversed, c_1 first
    witness = {"points": [x for _, x in pairs], "concepts": [c for c, _ in pairs]}
    upper = len(pairs) if not stopped else min(m, n)
    return ParamResult("threshold", len(pairs), upper, witness)
