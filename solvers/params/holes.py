"""Two parameters of stars whose centre need not be a concept's trace:

* ``covc``: the co-VC dimension (hollow star number): the largest d with d points S and a labelling T of S that no
  concept gives on S while every labelling one flip from T is some concept's on S. It is not hereditary (the full
  cube has 0, its singletons n), so every set of points is a candidate.
* ``min_star``: Hanneke's minimum star number: for a labelling g of all the points (a concept's or not), S_g is the
  largest d with points x_1..x_d, a concept h_0 that agrees with g on them and for each i a concept h_i that
  differs from g on them exactly at x_i; min_star = the least S_g over all 2^n labellings g. A shattered set is a
  star around every g, so VC <= min_star <= star.

**The searches.** covc tries the sets of d points for d from min(|C|, n) down (a hollow d-star has d distinct
neighbours) and stops at the first with a hollow star: on each, the concepts' patterns P, the candidates one flip
from a pattern and outside P, and a candidate whose every flip is in P. min_star starts at k = VC: with
:func:`.labelings.sweep` it marks every labelling g that has a star of k + 1 points around it (a star's subsets are
stars, so one of exactly k + 1 points), and the first k that leaves a labelling unmarked is the value.

References
----------
The catalogue obousquet/Combinatorial-Parameters, entries "co-VC dimension" and "Minimum Star Number".
D. Kane, R. Livni, S. Moran and A. Yehudayoff, "On communication complexity of classification problems", 2019.
S. Hanneke, "The star number and eluder dimension: elementary observations about the dimensions of disagreement",
2024.

Examples
--------
>>> from solvers.classes.families import make
>>> covc(make("singletons", N=4, empty=0)).value   # 0000 is missing, its four flips are the concepts
4
>>> min_star(make("thresholds", N=5)).value
1
"""

from __future__ import annotations

import itertools
import time
from typing import Optional

import numpy as np

__all__ = ["covc", "min_star", "hollow_star"]


def hollow_star(M, S) -> Optional[tuple]:
    """(T, neighbours) when the points ``S`` of the 0/1 matrix ``M`` carry a hollow star: the labelling T of S
    (bit j: the label at S[j]) that no row gives there and, for each j, a row that gives T with bit j flipped; else
    None."""
    d = len(S)
    if d > 62:  # past int64: the patterns as Python ints
        return _hollow_star_wide(M, S)
    pat = np.asarray(M, dtype=np.int64)[:, list(S)] @ (np.int64(1) << np.arange(d, dtype=np.int64))
    P = np.unique(pat)
    if len(P) < d:
        return None
    flips = np.int64(1) << np.arange(d, dtype=np.int64)
    cand = np.unique((P[:, None] ^ flips).ravel())
    cand = cand[~np.isin(cand, P)]
    if not len(cand):
        return None
    ok = np.isin(cand[:, None] ^ flips, P).all(axis=1)
    if not ok.any():
        return None
    T = int(cand[np.argmax(ok)])
    return T, [int(np.flatnonzero(pat == (T ^ (1 << j)))[0]) for j in range(d)]


def _hollow_star_wide(M, S) -> Optional[tuple]:
    """:func:`hollow_star` with each pattern a Python int (for more than 62 points)."""
    from . import bits_of

    d = len(S)
    pats = [bits_of(row) for row in np.asarray(M)[:, list(S)]]
    P = set(pats)
    if len(P) < d:
        return None
    for T in {p ^ (1 << j) for p in P for j in range(d)} - P:
        if all(T ^ (1 << j) in P for j in range(d)):
            return T, [pats.index(T ^ (1 << j)) for j in range(d)]
    return None


def covc(C, *, time_limit: Optional[float] = None):
    """The co-VC dimension as a :class:`~solvers.params.ParamResult`: witness ``{"points": S, "labels": T's labels on
    S, "neighbours": [h_j]}`` (h_j gives T flipped at S[j]), and ``"upper"``. Stopped, it reports 0 and the size it
    was trying."""
    from . import ParamResult, Stopped, _look

    deadline = None if time_limit is None else time.monotonic() + time_limit
    M = np.asarray(C.matrix, dtype=np.uint8)
    m, n = M.shape
    top = min(m, n)
    d = top
    try:
        for d in range(top, 0, -1):
            for S in itertools.combinations(range(n), d):
                _look(deadline)
                got = hollow_star(M, S)
                if got is not None:
                    T, hs = got
                    proof = {"by": "bound", "text": "|C| and the points"} if d == top else {"by": "search"}
                    return ParamResult("covc", d, d, {"points": list(S), "labels": [(T >> j) & 1 for j in range(d)],
                                                      "neighbours": hs, "upper": proof})
        return ParamResult("covc", 0, 0, {"points": [], "labels": [], "neighbours": [], "upper": {"by": "search"}})
    except Stopped:
        return ParamResult("covc", 0, d, {"upper": {"by": "search", "text": f"no hollow star of more than {d} "
                                                                            "points (the sizes tried)"}})


def _centres(cpat: np.ndarray, k: int) -> np.ndarray:
    """The patterns on k points that are centres of a star there: given, and each of their k flips given too."""
    P = np.zeros(1 << k, dtype=bool)
    P[cpat] = True
    idx = np.arange(1 << k)
    ok = P.copy()
    for j in range(k):
        ok &= P[idx ^ (1 << j)]
    return ok


def star_around(M, g: int, k: int) -> Optional[dict]:
    """A star of ``k`` points around the labelling ``g`` (bit x: point x's label) in the 0/1 matrix ``M``:
    ``{"points", "centre", "neighbours"}``, or None."""
    M = np.asarray(M, dtype=np.uint8)
    G = np.array([(g >> x) & 1 for x in range(M.shape[1])], dtype=np.uint8)
    for S in itertools.combinations(range(M.shape[1]), k):
        S = list(S)
        agree = (M[:, S] == G[S])
        h0 = np.flatnonzero(agree.all(axis=1))
        if not len(h0):
            continue
        hs = []
        for j in range(k):
            want = agree.copy()
            want[:, j] = ~want[:, j]
            got = np.flatnonzero(want.all(axis=1))
            if not len(got):
                break
            hs.append(int(got[0]))
        else:
            return {"points": S, "centre": int(h0[0]), "neighbours": hs}
    return None


def min_star(C, *, time_limit: Optional[float] = None):
    """The minimum star number as a :class:`~solvers.params.ParamResult`: witness ``{"labelling": g's labels,
    "points", "centre", "neighbours"}`` (a largest star around g), ``"lower"`` (``{"by": "vc", "points": a
    shattered set}`` when the value is VC, else ``{"by": "search"}``) and ``"upper"``."""
    from ..vc import vc_search
    from . import ParamResult, Stopped, _look
    from .labelings import MAX_POINTS, labels_of, sweep

    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    M = np.asarray(C.matrix, dtype=np.uint8)
    m, n = M.shape
    v = vc_search(C, time_limit=time_limit)
    low, shattered = v.lower, [int(x) for x in v.witness]
    from .star import star_bound

    cap, why = star_bound(C)
    if n > MAX_POINTS or v.value is None:
        return ParamResult("min_star", low, max(cap, low), {"lower": {"by": "vc", "points": shattered},
                                                            "upper": {"by": "bound", "text": why}})
    k = low
    try:
        while True:
            covered = sweep(M, k + 1, _centres, look=lambda: _look(deadline))
            if not covered.all():
                g = int(np.flatnonzero(~covered)[0])
                star = star_around(M, g, k) if k else {"points": [], "centre": 0, "neighbours": []}
                lower = {"by": "vc", "points": shattered} if k == low else {"by": "search"}
                return ParamResult("min_star", k, k, {"labelling": labels_of(g, n), **star, "lower": lower,
                                                      "upper": {"by": "labelling"}})
            k += 1
    except Stopped:
        return ParamResult("min_star", k, max(cap, k), {"lower": {"by": "search" if k > low else "vc",
                                                                  "points": shattered},
                                                        "upper": {"by": "bound", "text": why}})
