"""Offline mistake bounds: every point of the domain is shown once, in an order fixed in advance and known to
the learner, and the adversary labels them consistently with some concept of C ([BKM97]'s off-line model).

For an order sigma = (p_1, ..., p_n) the best learner's worst-case number of mistakes is V_sigma(C, 1), where
V_sigma(S, i) is 0 when no point from p_i on splits S, and otherwise, with p_k the first such point and
S^0, S^1 the two halves it leaves,

    V_sigma(S, i) = combine(V_sigma(S^0, k + 1), V_sigma(S^1, k + 1)),
    combine(a, b) = a + 1 if a == b else max(a, b).

(The learner predicts the label whose half has the larger value; with equal values the adversary makes it
err either way.) ``best_order`` is the least V_sigma(C, 1) over all orders, ``worst_order`` the largest; both
lie between 1 (two concepts or more) and Opt(C), since the online adversary may always play the points in
the worst order.

The search. V_sigma only depends on sigma through the partition of C by the labels of each prefix, so an order
is built from its end: with the suffix Q chosen, the vector F gives each cell of the partition of C by the
labels of the points not in Q its value V_sigma on the suffix. Putting a point x just before Q merges the cells
that differ only at x by ``combine``. ``combine`` is monotone, so at each Q a vector dominated by one already
explored (pointwise <= for ``worst_order``, >= for ``best_order``) is dropped, and two bounds prune: the final
value is at least max(F) and at most floor(log2(sum of 2^F over the cells)) (by induction on ``combine``).
Constant points, and points that split C as another point does (equal or complementary columns), never change a
value once their twin is placed, so the search runs on the distinct splits and puts the others after their twin.

For ``best_order`` the search also computes a lower bound first: the same recurrence with the order free to
depend on the labels seen (at each version space, the least over the points splitting it of ``combine`` of its
halves). Every fixed order is one such choice, so this adaptive value is at most ``best_order``; when an order
reaches it the search stops.

The witness is the order (all points) and the game tree it gives (each node a point that splits what is left,
with its value), which :func:`solvers.certificates.params.check` replays without the search.

References
----------
.. [BKM97] Ben-David, Kushilevitz and Mansour, "Online learning versus offline learning", Machine Learning 29
   (1997); EuroCOLT 1995.

Examples
--------
>>> from solvers.classes.families import make
>>> p = search(make("thresholds", N=7), "worst_order")
>>> p.value, search(make("thresholds", N=7), "best_order").value
(3, 1)
"""

from __future__ import annotations

import sys
import time
from typing import Optional

from .. import interrupts

__all__ = ["search", "order_value", "order_tree", "combine", "MAX_TREE_NODES"]

#: The largest game tree a witness lists (nodes); past it the order alone is the witness.
MAX_TREE_NODES = 2047
#: The largest class (concepts times distinct points) on which a search stopped before any order was complete plays
#: one order for its bound; past it the stopped search reports 1 <= value <= floor(log2 |C|) without a witness.
ORDER_VALUE_ENTRIES = 1_000_000
#: The most version spaces the adaptive lower bound of ``best_order`` visits before it gives up (bound 1).
ADAPTIVE_NODES = 200_000


def combine(a: int, b: int) -> int:
    """The value of a node whose two halves have values a and b."""
    return a + 1 if a == b else max(a, b)


class _Stop(Exception):
    pass


def _splits(M):
    """(kept, twins): the columns that split C in distinct ways (up to complement), and for each other column the
    kept column it copies (None for a constant column)."""
    import numpy as np

    m, n = M.shape
    seen: dict = {}
    kept, twins = [], {}
    for j in range(n):
        col = np.asarray(M[:, j], dtype=bool)  # (numpy: a class of millions of concepts takes milliseconds a point)
        if col.all() or not col.any():
            twins[j] = None
            continue
        key = np.packbits(col if not col[0] else ~col).tobytes()
        if key in seen:
            twins[j] = seen[key]
        else:
            seen[key] = j
            kept.append(j)
    return kept, twins


def _expand(order: list, twins: dict) -> list:
    """The order of the kept columns with every other column placed after its twin (constant ones last)."""
    out = []
    for j in order:
        out.append(j)
        out.extend(t for t, of in twins.items() if of == j)
    out.extend(t for t, of in twins.items() if of is None)
    return out


def order_value(M, order) -> int:
    """V_sigma(C, 1) for the order ``order`` of (some of) the columns of ``M``, by the recurrence."""
    return _value(M, list(range(M.shape[0])), list(order), 0)


def _value(M, S: list, order: list, i: int) -> int:
    while i < len(order):
        x = order[i]
        S0 = [c for c in S if not M[c, x]]
        if S0 and len(S0) < len(S):
            S1 = [c for c in S if M[c, x]]
            return combine(_value(M, S0, order, i + 1), _value(M, S1, order, i + 1))
        i += 1
    return 0


def order_tree(M, order, *, max_nodes: int = MAX_TREE_NODES):
    """The game tree of ``order``: ``{"point", "value", "0", "1"}`` at each point that splits what is left, a
    concept index at a leaf; None past ``max_nodes`` nodes."""
    count = [0]
    if 2 * M.shape[0] - 1 > max_nodes:  # its leaves are the concepts: too many to list
        return None

    def node(S: list, i: int):
        count[0] += 1
        if count[0] > max_nodes:
            raise _Stop
        while i < len(order):
            x = order[i]
            S0 = [c for c in S if not M[c, x]]
            if S0 and len(S0) < len(S):
                S1 = [c for c in S if M[c, x]]
                a, b = node(S0, i + 1), node(S1, i + 1)
                va = a["value"] if isinstance(a, dict) else 0
                vb = b["value"] if isinstance(b, dict) else 0
                return {"point": int(x), "value": combine(va, vb), "0": a, "1": b}
            i += 1
        return int(S[0])

    try:
        return node(list(range(M.shape[0])), 0)
    except _Stop:
        return None


def search(C, key: str, *, time_limit: Optional[float] = None, upper: Optional[int] = None):
    """``best_order`` or ``worst_order`` of ``C``: :func:`_search` with the recursion as deep as the class needs (one
    level per point of an order, per split of a game)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * (C.n_concepts + C.n_points) + 1000))
    try:
        return _search(C, key, time_limit=time_limit, upper=upper)
    finally:
        sys.setrecursionlimit(limit)


def _search(C, key: str, *, time_limit: Optional[float] = None, upper: Optional[int] = None):
    """``best_order`` or ``worst_order`` of ``C`` as a :class:`~solvers.params.ParamResult`, the witness ``{"order":
    [all points], "tree": game tree or None}``. ``upper`` is a known upper bound on the worst order (Opt(C)): the
    search stops as soon as an order reaches it. Stopped by ``time_limit`` or Ctrl-C, the proven bounds."""
    from . import ParamResult, Stopped, row_bits

    if key not in ("best_order", "worst_order"):
        raise ValueError(f"unknown order parameter {key!r}; choose best_order or worst_order")
    worst = key == "worst_order"
    M = C.matrix
    m = M.shape[0]
    kept, twins = _splits(M)
    n = len(kept)
    if m < 2 or n == 0:
        order = _expand(kept, twins)
        return ParamResult(key, 0, 0, {"order": order, "tree": order_tree(M, order)})
    full = (1 << n) - 1
    deadline = None if time_limit is None else time.monotonic() + time_limit
    # the bounds every order obeys: 1 <= V <= Opt(C) <= floor(log2 m)
    lo_all, hi_all = 1, min(m.bit_length() - 1, upper if upper is not None else m)

    cells_of: dict = {}  # P (mask of the points not yet in the suffix) -> its cells' patterns, sorted

    def cells(P: int) -> list:
        got = cells_of.get(P)
        if got is None:
            found: set = set()
            for i in range(0, m, 1 << 16):  # (a look at the clock per block of concepts)
                tick()
                found.update(r & P for r in rows[i:i + (1 << 16)])
            got = cells_of[P] = sorted(found)
        return got

    def merged(P: int, x: int) -> list:
        """For the partition by P minus x: each new cell's indices in P's list of cells (one or two)."""
        Pn = P & ~(1 << x)
        index = {}
        for i, pat in enumerate(cells(P)):
            index.setdefault(pat & Pn, []).append(i)
        return [index[pat] for pat in cells(Pn)]

    def bound(F) -> int:  # the best the order can still reach from F: max(F) for best, log2-sum for worst
        return (sum(1 << v for v in F).bit_length() - 1) if worst else max(F)

    best = {"value": None, "order": None}
    explored: dict = {}  # P -> vectors explored there
    nodes = [0]

    def dominated(P: int, F: tuple) -> bool:
        seen = explored.setdefault(P, [])
        for G in seen:
            if all((g >= f) if worst else (g <= f) for g, f in zip(G, F)):
                return True
        seen[:] = [G for G in seen if not all((f >= g) if worst else (f <= g) for g, f in zip(G, F))]
        seen.append(F)
        return False

    def better(v: int) -> bool:
        return best["value"] is None or (v > best["value"] if worst else v < best["value"])

    def tick() -> None:  # at every node and move: one move costs |P| * |cells|, thousands of operations
        interrupts.check()
        if deadline is not None and time.monotonic() > deadline:
            raise _Stop

    def go(P: int, F: tuple, suffix: list) -> None:
        nodes[0] += 1
        tick()
        if P == 0:
            if better(F[0]):
                best["value"], best["order"] = F[0], suffix[::-1]
                if best["value"] == (hi_all if worst else lo_all):
                    raise _Done
            return
        if best["value"] is not None and (bound(F) <= best["value"] if worst else bound(F) >= best["value"]):
            return
        if dominated(P, F):
            return
        moves = []
        p = P
        while p:
            x = (p & -p).bit_length() - 1
            p &= p - 1
            tick()
            G = tuple(F[g[0]] if len(g) == 1 else combine(F[g[0]], F[g[1]]) for g in merged(P, x))
            moves.append((bound(G), x, G))
        moves.sort(key=lambda t: -t[0] if worst else t[0])  # hot loop: the most promising point first
        for _, x, G in moves:
            suffix.append(x)
            go(P & ~(1 << x), G, suffix)
            suffix.pop()

    stopped = False
    try:
        rows = row_bits(M[:, kept], deadline)
        if not worst:  # the adaptive lower bound gets at most half the time
            lo_all = _adaptive(M, kept, None if time_limit is None else time.monotonic() + time_limit / 2)
        go(full, tuple(0 for _ in cells(full)), [])
    except _Done:
        pass
    except (_Stop, Stopped, KeyboardInterrupt):
        stopped = True
    if best["order"] is None and m * n > ORDER_VALUE_ENTRIES:  # too large to play an order now: the bounds alone
        return ParamResult(key, lo_all, hi_all, {})
    if best["order"] is None:  # stopped before any order was complete: any order gives a bound
        best["order"] = list(range(n))
        best["value"] = order_value(M, [kept[k] for k in best["order"]])
    order = _expand([kept[k] for k in best["order"]], twins)
    v = best["value"]
    witness = {"order": order, "tree": order_tree(M, order)}
    if not stopped:
        return ParamResult(key, v, v, witness)
    return ParamResult(key, v, hi_all, witness) if worst else ParamResult(key, lo_all, v, witness)


class _Done(Exception):
    pass


def _adaptive(M, kept: list, deadline) -> int:
    """The least over adaptive orders (the next point chosen after the labels seen) of the offline value: a lower
    bound on ``best_order``; 1 when it does not settle within :data:`ADAPTIVE_NODES` version spaces or the time."""
    from . import Stopped, column_bits

    m = M.shape[0]
    memo: dict = {}

    def w(S: int) -> int:
        got = memo.get(S)
        if got is not None:
            return got
        if len(memo) >= ADAPTIVE_NODES:
            raise _Stop
        if len(memo) & 255 == 0:
            interrupts.check()
            if deadline is not None and time.monotonic() > deadline:
                raise _Stop
        best = None
        for o in ones:  # hot loop: the point whose halves combine least
            s1 = S & o
            if s1 and s1 != S:
                v = combine(w(S & ~o), w(s1))
                if best is None or v < best:
                    best = v
                    if v == 1:
                        break
        memo[S] = best = best or 0
        return best

    try:
        ones = column_bits(M[:, kept], deadline)
        return max(1, w((1 << m) - 1))
    except (_Stop, Stopped):  # a Ctrl-C goes on to the order search, which stops with its bounds
        return 1
