"""Three parameters made of sequences of concepts along sequences of points:

* ``threshold_chain``: the threshold dimension as the catalogue of combinatorial parameters counts it, the largest
  d with points x_1..x_d and concepts c_0..c_d with c_k(x_j) = 1 iff j <= k: d + 1 nested traces on d points, the
  empty one included. littlestone's ``threshold`` (:mod:`.threshold`) counts t concepts whose traces are the t
  nonempty suffixes on t points. The two differ by at most one: threshold - 1 <= threshold_chain <= threshold (drop
  the point every trace holds; or drop c_0).
* ``path``: the path dimension, the largest d with points x_1..x_d and concepts h_0..h_d where h_k differs from
  h_0 on those points exactly at x_1..x_k: a path through the cube of the traces that flips each point once. It is
  threshold_chain of the class relabelled so that h_0 is all zeros (each point's labels complemented where h_0 is 1),
  maximised over h_0; so threshold_chain <= path.
* ``eluder``: the combinatorial eluder dimension (the binary case of Russo and Van Roy's), the largest m with a
  base concept h*, points x_1..x_m and concepts h_1..h_m where h_i differs from h* at x_i and agrees with it at
  x_1..x_{i-1}. A star is one (its neighbours agree with the centre at every other point), so star <= eluder.

All three are at most |C| - 1 (distinct concepts along the sequence) and at most the number of points where two
concepts differ; a stopped search reports the smaller as its upper bound.

**The searches.** threshold_chain takes each distinct set Z of points where some concept c_0 is 0 and looks for a
half graph in C restricted to Z (:func:`.threshold.half_graph`, only one larger than the best so far); path does the
same on C relabelled by each concept h_0 in turn (one per orbit of the class's declared symmetries: a symmetry maps
paths to paths). The eluder search, for each base h* (one per orbit likewise), walks version spaces: V holds the
concepts agreeing with h* at the points chosen; the next point is one where some concept of V differs from h*, and
E(V) = max over such x of 1 + E(V minus the concepts that differ at x), memoised by V and pruned by |V| - 1.

References
----------
The catalogue obousquet/Combinatorial-Parameters, entries "Threshold Dimension", "Path Dimension" and
"Combinatorial Eluder Dimension". D. Russo and B. Van Roy, "Eluder dimension and the sample complexity of
optimistic exploration", 2013. G. Li, P. Kamath, D. J. Foster and N. Srebro, "Understanding the eluder dimension",
2022.

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("thresholds", N=5)
>>> threshold_chain(C).value, path_dimension(C).value, eluder(C).value
(5, 5, 5)
>>> C = make("singletons", N=5)
>>> threshold_chain(C).value, path_dimension(C).value, eluder(C).value
(1, 2, 5)
"""

from __future__ import annotations

import time
from typing import Optional

import numpy as np

from .. import interrupts
from .star import star_bound  # (the same bound: distinct concepts along the sequence, points where they differ)

__all__ = ["threshold_chain", "path_dimension", "eluder"]


class _Stop(Exception):
    pass


def _result(key: str, C, found: Optional[dict], finished: bool, best: int):
    from . import ParamResult

    cap, why = star_bound(C)
    if finished:
        proof = {"by": "bound", "text": why} if best == cap else {"by": "search"}
        upper = best
    else:
        proof, upper = {"by": "bound", "text": why}, cap
    return ParamResult(key, best, max(upper, best), {**(found or {}), "upper": proof})


def _chains(C, key: str, time_limit: Optional[float]):
    """threshold_chain (relabel False) or path (True)."""
    from . import Stopped
    from .orbits import concept_representatives
    from .threshold import half_graph

    deadline = None if time_limit is None else time.monotonic() + time_limit
    M = np.asarray(C.matrix, dtype=np.uint8)
    m, n = M.shape
    cap, _ = star_bound(C)
    best, found, finished = 0, None, True
    empties = concept_representatives(C) if key == "path" else range(m)
    seen = set()
    try:
        for c0 in empties:
            if best >= cap:
                break
            interrupts.check()
            if key == "path":
                cols = np.arange(n)
                D = M ^ M[c0]
            else:
                cols = np.flatnonzero(M[c0] == 0)
                if len(cols) <= best or cols.tobytes() in seen:
                    continue
                seen.add(cols.tobytes())
                D = M[:, cols]
            pairs, done = half_graph(D, deadline, at_least=best)
            if len(pairs) > best:
                # ours: c_i(x_j) = 1 iff i <= j; the chain: points reversed, c_k(x_j) = 1 iff j <= k
                best = len(pairs)
                found = {"points": [int(cols[x]) for _, x in pairs[::-1]],
                         "concepts": [int(c0)] + [int(c) for c, _ in pairs[::-1]]}
            if not done:
                raise _Stop
    except (_Stop, Stopped):
        finished = best >= cap
    return _result(key, C, found, finished, best)


def threshold_chain(C, *, time_limit: Optional[float] = None):
    """The catalogue's threshold dimension (see the module) as a :class:`~solvers.params.ParamResult`: witness
    ``{"points": [x_1..x_d], "concepts": [c_0..c_d]}`` with c_k(x_j) = 1 iff j <= k, and ``"upper"``."""
    return _chains(C, "threshold_chain", time_limit)


def path_dimension(C, *, time_limit: Optional[float] = None):
    """The path dimension as a :class:`~solvers.params.ParamResult`: witness ``{"points": [x_1..x_d], "concepts":
    [h_0..h_d]}`` where h_k differs from h_0 on the points exactly at x_1..x_k, and ``"upper"``."""
    return _chains(C, "path", time_limit)


def eluder(C, *, time_limit: Optional[float] = None):
    """The combinatorial eluder dimension as a :class:`~solvers.params.ParamResult`: witness ``{"base": h*,
    "points": [x_1..x_m], "concepts": [h_1..h_m]}`` with h_i(x_i) != h*(x_i) and h_i(x_j) = h*(x_j) for j < i,
    and ``"upper"``."""
    from . import Stopped, _look, column_bits
    from .orbits import concept_representatives

    deadline = None if time_limit is None else time.monotonic() + time_limit
    M = np.asarray(C.matrix, dtype=np.uint8)
    m, n = M.shape
    cap, _ = star_bound(C)
    best, found, finished = 0, None, True
    ticks = [0]
    try:
        for base in concept_representatives(C):
            if best >= cap:
                break
            _look(deadline)
            D = [d for d in dict.fromkeys(column_bits(M ^ M[base])) if d]  # the concepts differing at each point
            memo: dict = {}

            def longest(V: int) -> int:
                got = memo.get(V)
                if got is not None:
                    return got[0]
                ticks[0] += 1
                if ticks[0] >= 1024:
                    ticks[0] = 0
                    _look(deadline)
                top, move, bound = 0, None, V.bit_count() - 1
                for d in D:
                    if top >= bound:
                        break
                    if V & d:
                        v = 1 + longest(V & ~d)
                        if v > top:
                            top, move = v, d
                memo[V] = (top, move)
                return top

            full = (1 << m) - 1
            if longest(full) > best:
                best, V, xs, hs = memo[full][0], full, [], []
                cols = column_bits(M ^ M[base])
                while memo[V][1] is not None:
                    d = memo[V][1]
                    xs.append(cols.index(d))
                    hs.append((V & d).bit_length() - 1)  # a concept of V that differs there
                    V &= ~d
                found = {"base": int(base), "points": xs, "concepts": hs}
    except (_Stop, Stopped, RecursionError):
        finished = best >= cap
    return _result("eluder", C, found, finished, best)
