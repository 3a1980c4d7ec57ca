"""The teaching dimension and the recursive teaching dimension.

A teaching set of a concept c in a class D is a set of points on whose labels c is the only concept of D
consistent: every other concept of D differs from c at one of them (a set cover of D - {c} by the points,
point x covering the concepts that differ from c at x). TD_D(c) is the size of the smallest; the teaching
dimension TD(C) is the largest TD_C(c) (Goldman and Kearns). The recursive teaching dimension (Zilles, Lange,
Holte and Zinkevich) peels the class: take the concepts of the smallest TD in what is left, remove them, repeat;
RTD(C) is the largest of those smallest values.

The smallest cover is found exactly, by trying every set of each size in turn (after dropping points that cover
nothing), so this is for small classes; a time limit gives the greedy cover's size as the upper bound.

Examples
--------
>>> from solvers.classes.families import make
>>> search(make("singletons", N=4), "td").value    # the empty concept needs every point
4
>>> search(make("singletons", N=4), "rtd").value   # each singleton first (1 point), then the empty concept (0)
1
"""

from __future__ import annotations

import itertools
import time
from typing import Optional

from .. import interrupts

__all__ = ["search", "teaching_set", "is_teaching_set"]


class _Stop(Exception):
    pass


def is_teaching_set(M, alive, c: int, points) -> bool:
    """Whether concept ``c`` is the only one of the rows ``alive`` of the 0/1 matrix ``M`` that agrees with it on
    ``points``."""
    return all(any(M[h, x] != M[c, x] for x in points) for h in alive if h != c)


def teaching_set(M, alive, c: int, deadline=None) -> list:
    """A smallest teaching set of ``c`` among the rows ``alive`` (column indices)."""
    import numpy as np

    others = [h for h in alive if h != c]
    if not others:
        return []
    n = M.shape[1]
    rows = np.asarray(others)
    cover = {}
    for x in range(n):  # numpy over the concepts, a look at the clock per point (millions of concepts: seconds)
        if deadline is not None and time.monotonic() > deadline:
            raise _Stop
        interrupts.check()
        cover[x] = frozenset(rows[M[rows, x] != M[c, x]].tolist())
    useful = [x for x in range(n) if cover[x]]
    # distinct covers only, largest first
    seen, cand = set(), []
    for x in sorted(useful, key=lambda x: -len(cover[x])):
        if cover[x] not in seen:
            seen.add(cover[x])
            cand.append(x)
    need = frozenset(others)
    for k in range(1, len(cand) + 1):
        for S in itertools.combinations(cand, k):
            if deadline is not None and time.monotonic() > deadline:
                raise _Stop
            if frozenset().union(*(cover[x] for x in S)) == need:
                return list(S)
    raise ValueError("two concepts of the class are equal; a class is a set (merge duplicate rows)")


def search(C, key: str = "td", *, time_limit: Optional[float] = None):
    """TD(C) (``key="td"``) or RTD(C) (``"rtd"``) as a :class:`~solvers.params.ParamResult`. Witness: for TD the hardest
    concept and its smallest teaching set, with every concept's teaching set (the upper bound); for RTD the
    peeling, each step's concepts with their teaching sets."""
    from . import ParamResult

    M = C.matrix
    m = C.n_concepts
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        if key == "td":
            sets = {c: teaching_set(M, range(m), c, deadline) for c in range(m)}
            hardest = max(range(m), key=lambda c: len(sets[c]))
            interrupts.check()
            return ParamResult("td", len(sets[hardest]), len(sets[hardest]),
                         {"concept": hardest, "teaching_set": sets[hardest],
                          "sets": {str(c): s for c, s in sets.items()}})
        alive, steps, value = list(range(m)), [], 0
        while alive:
            sets = {c: teaching_set(M, alive, c, deadline) for c in alive}
            low = min(len(s) for s in sets.values())
            peel = [c for c in alive if len(sets[c]) == low]
            steps.append({"size": low, "concepts": peel, "sets": [sets[c] for c in peel]})
            value = max(value, low)
            alive = [c for c in alive if c not in peel]
            interrupts.check()
        return ParamResult("rtd", value, value, {"steps": steps})
    except _Stop:
        return ParamResult(key, 0, C.n_points, {})
