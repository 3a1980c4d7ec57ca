"""The threshold dimension: the largest t with points x_1..x_t and concepts c_1..c_t of C such that
c_i(x_j) = 1 iff i <= j (a "half graph" in C's matrix). Threshold dimension t and Opt(C) bound each other
logarithmically (Shelah; Hodges; see Alon, Beimel, Moran and Stemmer, "Closure properties for private
classification and online prediction", 2020): Opt(C) >= floor(log2 t) and t >= floor(log2 Opt(C)), the link
between online learnability and stability. The first is elementary: c_1..c_t on x_1..x_t are the thresholds
[x >= x_i] on a line of t points, whose Opt is floor(log2 t) (binary search; the Halving bound is met), and Opt
of a subclass on fewer points is no larger. So t <= 2^(Opt(C) + 1) - 1.

Two routes (``method``): the search below, and CP-SAT with its refutation checked by a second solver
(:func:`solvers.params.sat.threshold`); ``"auto"`` chooses as :func:`search` says.

**The search** builds the pattern from its end: a new first pair (c, x) must have c(x) = 1, c = 1 on every point
already chosen, and every concept already chosen = 0 at x. It keeps the candidate concepts A (1 on all chosen
points) and candidate points B (0 under every chosen concept) as bitsets: what is left to find is a half graph
of M[A, B]. A half graph of size k there needs, for each j = 1..k, k - j + 1 concepts of A with at least j ones in
B (c_1..c_{k-j+1}) and k - j with at least j zeros in B (c_{j+1}..c_k), and the same of the points of B (x_j has
j ones and k - j zeros under c_1..c_k): a node where these counts cannot give the size still needed is pruned. The
last point x_t (the first chosen) is taken one per orbit of the class's declared symmetries that keep the labels
(:mod:`.orbits`).

Examples
--------
>>> from solvers.classes.families import make
>>> search(make("thresholds", N=5)).value
5
>>> search(make("singletons", N=5)).value
1
>>> search(make("intervals", N=4, empty=0), method="sat").value
4
"""

from __future__ import annotations

import time
from typing import Optional

from .. import interrupts

__all__ = ["search", "half_graph", "threshold_bound", "METHODS", "SEARCH_SHARE"]

#: The routes :func:`search` takes.
METHODS = ("auto", "search", "sat")
#: The share of the time limit ``method="auto"`` gives the search before CP-SAT takes over.
SEARCH_SHARE = 0.75


class _Stop(Exception):
    pass


def search(C, *, time_limit: Optional[float] = None, method: str = "auto"):
    """The threshold dimension of ``C`` as a :class:`~solvers.params.ParamResult`, the witness ``{"points": [x_1..],
    "concepts": [c_1..], "upper": {"by": ...}}`` (column and row indices, in order).

    ``method``: ``"search"`` (above), ``"sat"`` (:func:`solvers.params.sat.threshold`), or ``"auto"``: the search;
    under a time limit, when the CP-SAT model is small enough (:data:`solvers.params.sat.MODEL_MAX_TERMS`), the search
    gets :data:`SEARCH_SHARE` of it and, if it has not settled by then, CP-SAT goes on from the search's half graph
    for the time left. ``upper["by"]``: ``"search"``, ``"cp-sat"`` (with ``"checked_by"`` or ``"unchecked"``) or ``"bound"``."""
    from . import ParamResult, sat

    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from: {', '.join(METHODS)}")
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    m, n = C.n_concepts, C.n_points
    cap, why = threshold_bound(C)
    if method == "sat":
        pairs, upper, proof = _by_sat(C, deadline, [])
    else:
        fallback = method == "auto" and time_limit is not None and sat.threshold_size(m, n, 2) <= sat.MODEL_MAX_TERMS
        pairs, finished = _search(C, start + SEARCH_SHARE * time_limit if fallback else deadline, [])
        if finished:
            upper, proof = len(pairs), {"by": "search"} if len(pairs) < cap else {"by": "bound", "text": why}
        elif fallback and sat.threshold_size(m, n, len(pairs) + 1) <= sat.MODEL_MAX_TERMS:
            pairs, upper, proof = _by_sat(C, deadline, pairs)
        else:
            if fallback:  # the model of the size needed is too large after all: the search again, for the rest
                pairs, finished = _search(C, deadline, pairs)
            upper, proof = (len(pairs), {"by": "search"}) if finished else (cap, {"by": "bound", "text": why})
    witness = {"points": [int(x) for _, x in pairs], "concepts": [int(c) for c, _ in pairs], "upper": proof}
    return ParamResult("threshold", len(pairs), max(upper, len(pairs)), witness)


def threshold_bound(C) -> tuple:
    """(bound, why): min(|C|, the distinct points some concept labels 1), the threshold dimension's bound for every
    class: a half graph's t concepts are distinct, and so are its t points' columns (c_{j+1} is 0 at x_j and 1 at
    x_{j+1}), each labelled 1 by some concept (c_j(x_j) = 1)."""
    from . import distinct_columns

    return min(C.n_concepts, len(distinct_columns(C.matrix, nonzero=True))), \
        "|C| and the distinct points some concept labels 1"


def _by_sat(C, deadline, pairs) -> tuple:
    from . import sat
    from .orbits import point_representatives

    reps = point_representatives(C)
    r = sat.threshold(C.matrix, witness=([x for _, x in pairs], [c for c, _ in pairs]), deadline=deadline,
                      lasts=reps if len(reps) < C.n_points else None)
    return list(zip(r.witness["concepts"], r.witness["points"])), r.upper, r.witness["upper"]


def _fits(counts: list, size: int, k: int) -> bool:
    """Whether rows (or columns) with ``counts`` ones among ``size`` can hold a half graph of size k: for each j,
    k - j + 1 of them with >= j ones and k - j with >= j zeros."""
    if k <= 0:
        return True
    if len(counts) < k:
        return False
    ones = sorted(counts, reverse=True)
    zeros = sorted((size - v for v in counts), reverse=True)
    for j in range(1, k + 1):
        if ones[k - j] < j or (j < k and zeros[k - j - 1] < j):
            return False
    return True


def _search(C, deadline: Optional[float], best_pairs: list) -> tuple:
    """(pairs, finished): the largest half graph found as (c_i, x_i) pairs, c_1 first (at least ``best_pairs``), and
    whether the search went through (so nothing larger exists)."""
    from .orbits import point_representatives

    return half_graph(C.matrix, deadline, best_pairs, lasts=point_representatives(C))


def half_graph(M, deadline: Optional[float] = None, best_pairs: list = (), *, at_least: int = 0,
               lasts: Optional[list] = None) -> tuple:
    """(pairs, finished): the largest half graph of the 0/1 matrix ``M`` (its rows need not be distinct) as
    (c_i, x_i) pairs, c_1 first: at least ``best_pairs``; only one larger than ``at_least`` pairs is looked for (none
    found: ``best_pairs`` back). ``lasts``: the points x_t may be (default all). ``finished``: the search went
    through (so nothing larger exists), or stopped at ``deadline``."""
    import numpy as np

    from . import Stopped, bits_of, column_bits, members, row_bits

    m, n = M.shape
    best = {"pairs": list(best_pairs[::-1]), "floor": max(at_least - len(best_pairs), 0)}  # kept from the end, as built
    nodes = [0]

    def tick(work: int = 1) -> None:  # at every node and every pair tried, ``work`` the concepts and points counted
        nodes[0] += work
        if nodes[0] >= 4096:
            nodes[0] = 0
            interrupts.check()
            if deadline is not None and time.monotonic() > deadline:
                raise _Stop

    def go(A: int, B: int, pairs: list, lasts: int) -> None:
        # Hot loop: written for speed.
        tick()
        if len(pairs) > len(best["pairs"]) + best["floor"]:
            best["pairs"], best["floor"] = list(pairs), 0
        na, nb = A.bit_count(), B.bit_count()
        need = len(best["pairs"]) + best["floor"] + 1 - len(pairs)
        if min(na, nb) < need:
            return
        tick(na + nb)  # (counting the ones below goes through every concept and point left)
        if need >= 2 and not (_fits([(rows[c] & B).bit_count() for c in members(A)], nb, need)
                              and _fits([(cols[x] & A).bit_count() for x in members(B)], na, need)):
            return
        for c in members(A):
            tick()
            for x in members(B & rows[c] & lasts):  # c(x) = 1 at the new point
                tick()
                # new first pair (c, x): concepts still to come must be 1 at x too; points to come 0 under c
                pairs.append((c, x))
                go((A & cols[x]) & ~(1 << c), (B & ~rows[c]) & ~(1 << x), pairs, -1)
                pairs.pop()

    try:
        rows = row_bits(M, deadline)     # points where c is 1
        cols = column_bits(M, deadline)  # concepts that are 1 at j
        go((1 << m) - 1, (1 << n) - 1, [], -1 if lasts is None or len(lasts) == n else
           bits_of(np.isin(np.arange(n), lasts)))
        finished = True
    except (_Stop, Stopped, KeyboardInterrupt):
        finished = len(best["pairs"]) >= min(m, n)
    return best["pairs"][::-1], finished  # built from the end: reversed, c_1 first
