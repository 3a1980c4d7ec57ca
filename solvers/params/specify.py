"""Three teaching parameters beside TD and RTD (:mod:`.teaching`):

* ``min_td``: the minimum teaching set size, the least over the concepts c of the smallest set of points on which
  c alone (of C) agrees with c.
* ``xtd``: the extended teaching dimension (Hegedus), the largest over every labelling f of the points (a
  concept's or not) of the smallest set S on which at most one concept agrees with f. On concepts it is their
  teaching set, so TD <= xtd <= the number of points.
* ``rtd_p``: the projected recursive teaching dimension, the largest RTD of C restricted to a set of points (its
  traces there, merged). RTD is not monotone under projection (the four concepts 001, 010, 011, 100 have RTD 1 and
  a projection of RTD 2), so rtd_p >= RTD. The search tries every set of points, largest first, the distinct
  projections once each.
* ``nctd``: the no-clash teaching dimension (Kirkpatrick, Simon and Zilles): the least k such that each concept c
  can be given a set A_c of at most k points (labelled by c) with no clash: no two concepts c != c' both agree
  with A_c labelled by c and A_c' labelled by c'; that is, c and c' differ somewhere in A_c | A_c'. A teaching
  set assignment is one, so nctd <= TD; and each concept's labelled sample is distinct, so |C| <= the number of
  labelled samples of at most k points, sum_i C(n, i) 2^i.

**The searches.** min_td tries k = 0, 1, ... until some set of k points teaches some concept
(:func:`.teaching.none_teach`). xtd marks, for k = 0, 1, ..., the labellings no set of k points specifies
(:func:`.labelings.sweep`, the AND over the sets of "two or more concepts agree with f there"); the first k that
leaves none is the value, and a labelling left at k - 1 its witness. nctd is a constraint problem: CP-SAT (one
worker, seed 0) with a 0/1 variable per concept and point, a clause per pair of concepts (one of their variables
at a point where they differ), and the largest set minimised.

References
----------
The catalogue obousquet/Combinatorial-Parameters, entries "Minimum Teaching Set Size", "Extended Teaching
Dimension" and "No-Clashing Teaching Dimension". T. Hegedus, "Generalized teaching dimensions and the query
complexity of learning", 1995. D. Kirkpatrick, H. U. Simon and S. Zilles, "Optimal collusion-free teaching", 2019.

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("thresholds", N=5)
>>> min_td(C).value, xtd(C).value, nctd(C).value
(1, 2, 1)
"""

from __future__ import annotations

import itertools
import time
from math import comb
from typing import Optional

import numpy as np

__all__ = ["min_td", "xtd", "nctd", "rtd_p", "PROJECTED_POINTS", "labelled_samples_bound", "NCTD_MAX_TERMS"]

#: The most points whose every subset rtd_p projects the class on (2^n projections).
PROJECTED_POINTS = 16
#: The largest CP-SAT model of nctd (pairs of concepts times points): past it the bounds of every class.
NCTD_MAX_TERMS = 4_000_000


def min_td(C, *, time_limit: Optional[float] = None):
    """The minimum teaching set size as a :class:`~solvers.params.ParamResult`: witness ``{"concept": c,
    "teaching_set": [...]}``; the lower side is that no set of one point fewer teaches any concept."""
    from . import ParamResult, Stopped, _look
    from .teaching import _Stop, none_teach, teaching_set

    deadline = None if time_limit is None else time.monotonic() + time_limit
    M = np.asarray(C.matrix)
    m, n = M.shape
    everyone = list(range(m))
    k = 0
    try:
        while k <= n and none_teach(M, everyone, everyone, k, look=lambda: _look(deadline)):
            k += 1
        for c in everyone:
            S = teaching_set(M, everyone, c, deadline)
            if len(S) == k:
                return ParamResult("min_td", k, k, {"concept": c, "teaching_set": [int(x) for x in S]})
        raise AssertionError("min_td: no concept has a teaching set of the size found")  # pragma: no cover
    except (Stopped, _Stop):
        return ParamResult("min_td", k, max(k, n), {})


def _two_agree(cpat: np.ndarray, k: int) -> np.ndarray:
    """The patterns on k points that two or more concepts give (those a set does not specify)."""
    return np.bincount(cpat, minlength=1 << k) >= 2


def xtd(C, *, time_limit: Optional[float] = None):
    """The extended teaching dimension as a :class:`~solvers.params.ParamResult`: witness ``{"labelling": f's
    labels}``, a labelling no set of value - 1 points specifies (the lower side), and ``"upper"``."""
    from . import ParamResult, Stopped, _look
    from .labelings import MAX_POINTS, labels_of, sweep

    deadline = None if time_limit is None else time.monotonic() + time_limit
    M = np.asarray(C.matrix, dtype=np.uint8)
    m, n = M.shape
    if m <= 1:
        return ParamResult("xtd", 0, 0, {"labelling": None, "upper": {"by": "search"}})
    if n > MAX_POINTS:
        return ParamResult("xtd", 1, n, {"labelling": None, "upper": {"by": "bound", "text": "the points"}})
    k, hard = 0, None
    try:
        while True:
            left = sweep(M, k, _two_agree, every=True, look=lambda: _look(deadline))
            if not left.any():
                return ParamResult("xtd", k, k, {"labelling": labels_of(hard, n), "upper": {"by": "search"}})
            hard = int(np.flatnonzero(left)[0])
            k += 1
    except Stopped:
        return ParamResult("xtd", k, n, {"labelling": None if hard is None else labels_of(hard, n),
                                         "upper": {"by": "bound", "text": "the points"}})


def labelled_samples_bound(m: int, n: int) -> int:
    """The least k with m <= sum_{i <= k} C(n, i) 2^i: nctd's lower bound for every class of m concepts on n points
    (non-clashing samples are distinct labelled samples)."""
    k, total = 0, 1
    while total < m and k < n:
        k += 1
        total += comb(n, k) << k
    return k


def nctd(C, *, time_limit: Optional[float] = None):
    """The no-clash teaching dimension as a :class:`~solvers.params.ParamResult`, by CP-SAT: witness ``{"sets":
    {concept: [points]}}`` (a non-clashing assignment, the upper side) and ``"lower"``: ``{"by": "bound"}`` (the
    count of labelled samples) or ``{"by": "cp-sat"}`` (its proof of optimality, not replayed)."""
    from ortools.sat.python import cp_model

    from . import ParamResult, Stopped, _look
    from .sat import _Clock, _wait, cpsat_parameters

    M = np.asarray(C.matrix, dtype=bool)
    m, n = M.shape
    low = labelled_samples_bound(m, n)
    if m <= 1:
        return ParamResult("nctd", 0, 0, {"sets": {str(c): [] for c in range(m)}, "lower": {"by": "bound"}})
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    if m * (m - 1) * n > NCTD_MAX_TERMS:  # (every concept given every point is non-clashing: at most n)
        return ParamResult("nctd", low, n, {"lower": {"by": "bound"}})
    model = cp_model.CpModel()
    a = [[model.NewBoolVar(f"a{c}_{x}") for x in range(n)] for c in range(m)]
    k = model.NewIntVar(low, n, "k")
    try:
        for c in range(m):
            _look(deadline)
            model.Add(sum(a[c]) <= k)
            for h in range(c + 1, m):
                diff = np.flatnonzero(M[c] != M[h]).tolist()
                model.AddBoolOr([a[c][x] for x in diff] + [a[h][x] for x in diff])
    except Stopped:
        return ParamResult("nctd", low, n, {"lower": {"by": "bound"}})
    model.Minimize(k)
    solver = cp_model.CpSolver()
    cpsat_parameters(solver, None if deadline is None else deadline - time.monotonic())
    status = _wait(lambda: solver.solve(model), solver.stop_search, _Clock(deadline))  # (Ctrl-C stops it)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ParamResult("nctd", low, n, {"lower": {"by": "bound"}})
    sets = {str(c): [x for x in range(n) if solver.Value(a[c][x])] for c in range(m)}
    top = max(len(s) for s in sets.values())
    if status == cp_model.OPTIMAL or top == low:
        lower = {"by": "bound"} if top == low else {"by": "cp-sat"}
        return ParamResult("nctd", top, top, {"sets": sets, "lower": lower})
    bound = max(low, int(solver.BestObjectiveBound()))
    return ParamResult("nctd", bound, max(top, bound), {"sets": sets, "lower": {"by": "cp-sat" if bound > low else
                                                                                 "bound"}})


def rtd_p(C, *, time_limit: Optional[float] = None):
    """The projected RTD as a :class:`~solvers.params.ParamResult`: witness ``{"points": S, "steps": the peeling of
    C restricted to S}`` (concepts named by the index of the first concept of C with that trace), and ``"upper"``.
    Every set of points is tried (distinct projections once), largest first, each RTD by
    :func:`solvers.params.teaching.search`; a stopped search gives the best found and the points."""
    from ..classes.finite import ConceptClass
    from . import ParamResult, Stopped, _look
    from .teaching import search as teaching_search

    deadline = None if time_limit is None else time.monotonic() + time_limit
    M = np.asarray(C.matrix, dtype=np.uint8)
    m, n = M.shape
    if n > PROJECTED_POINTS:
        return ParamResult("rtd_p", 0, n, {"upper": {"by": "bound", "text": "the points"}})
    best, found, seen = 0, None, set()
    try:
        for d in range(n, 0, -1):
            if d <= best:
                break
            for S in itertools.combinations(range(n), d):
                _look(deadline)
                sub = M[:, list(S)]
                rows, first = np.unique(sub, axis=0, return_index=True)
                key = (rows.tobytes(), rows.shape)
                if key in seen:
                    continue
                seen.add(key)
                if len(rows) <= 1:
                    continue
                left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
                D = ConceptClass.from_matrix(rows)
                r = teaching_search(D, "rtd", time_limit=left, method="search")
                if r.value is None:
                    raise Stopped
                if r.value > best:
                    order = [int(first[int(np.flatnonzero((rows == D.matrix[i]).all(axis=1))[0])])
                             for i in range(D.n_concepts)]
                    steps = [{**st, "concepts": [order[c] for c in st["concepts"]]} for st in r.witness["steps"]]
                    best, found = r.value, {"points": list(S), "steps": steps}
        return ParamResult("rtd_p", best, best, {**(found or {"points": [], "steps": []}), "upper": {"by": "search"}})
    except Stopped:
        return ParamResult("rtd_p", best, n, {**(found or {}), "upper": {"by": "bound", "text": "the points"}})
