"""The star number: the largest s with a concept c of C and points x_1..x_s such that for each i some concept of
C agrees with c on every x_j (j != i) and differs at x_i: c is the centre of a star of s neighbours on those
points (Hanneke and Yang's star number, which governs active learning).

For a fixed centre c, let diff(h) be the points where h differs from c. A set S is a star iff every x in S has
some h with diff(h) & S == {x}. The property is hereditary (a star's subsets are stars), so a depth-first search
adds points in increasing order, each keeping the set a star, and prunes with the points left.

Examples
--------
>>> from solvers.classes.families import make
>>> search(make("singletons", N=5)).value   # the empty concept (the class has it) and its 5 neighbours
5
>>> search(make("thresholds", N=5)).value
2
"""

from __future__ import annotations

import time
from typing import Optional

from .. import interrupts

__all__ = ["search", "is_star"]


class _Stop(Exception):
    pass


def is_star(C, centre: int, points) -> list:
    """For each point of ``points``, a concept of C that agrees with ``centre`` on the others and differs there
    (a list of concept indices), or [] when ``points`` is not a star around ``centre``."""
    import numpy as np

    M = C.matrix
    points = [int(x) for x in points]
    out = []
    for x in points:  # (numpy over the concepts: a class of millions of them takes a fraction of a second)
        others = [y for y in points if y != x]
        ok = M[:, x] != M[centre, x]
        if others:
            ok &= (M[:, others] == M[centre, others]).all(axis=1)
        if not ok.any():
            return []
        out.append(int(np.argmax(ok)))
    return out


def search(C, *, time_limit: Optional[float] = None):
    """The star number of ``C`` as a :class:`~solvers.params.ParamResult`; witness ``{"centre": c, "points": [...],
    "neighbours": [h_1, ...]}``."""
    from . import ParamResult, Stopped, row_bits

    M = C.matrix
    m, n = M.shape
    deadline = None if time_limit is None else time.monotonic() + time_limit
    best = {"size": 0, "centre": 0, "points": []}
    nodes = [0]

    def look() -> None:
        interrupts.check()
        if deadline is not None and time.monotonic() > deadline:
            raise _Stop

    def neighbour(diffs: list, T: int, y: int) -> bool:
        """Whether some concept differs from the centre on T at y alone (a look at the clock every 4096)."""
        bit = 1 << y
        for i in range(0, len(diffs), 4096):
            look()
            if any(d & T == bit for d in diffs[i:i + 4096]):
                return True
        return False

    def go(diffs: list, S: int, size: int, start: int, points: list, centre: int) -> None:
        nodes[0] += 1
        if nodes[0] & 255 == 0:
            look()
        if size > best["size"]:
            best.update(size=size, centre=centre, points=list(points))
        if size + (n - start) <= best["size"]:
            return
        for x in range(start, n):
            bit = 1 << x
            T = S | bit
            # every point of T needs a neighbour that differs from the centre on T at that point alone
            if all(neighbour(diffs, T, y) for y in points + [x]):
                points.append(x)
                go(diffs, T, size + 1, x + 1, points, centre)
                points.pop()
                if size + (n - x - 1) <= best["size"]:
                    return

    stopped = False
    try:
        rows = row_bits(M, deadline)
        for c in range(m):
            diffs = []
            for i in range(0, m, 1 << 16):  # (a class of millions of concepts: a look at the clock per block)
                look()
                diffs.extend(rows[h] ^ rows[c] for h in range(i, min(m, i + (1 << 16))) if h != c)
            # a point at which no concept differs from c is never in a star around c
            if best["size"] >= n:
                break
            go(diffs, 0, 0, 0, [], c)
    except (_Stop, Stopped, KeyboardInterrupt):
        stopped = True
    neighbours = is_star(C, best["centre"], best["points"]) if best["points"] else []
    witness = {"centre": int(best["centre"]), "points": [int(x) for x in best["points"]], "neighbours": neighbours}
    return ParamResult("star", best["size"], best["size"] if not stopped else n, witness)
