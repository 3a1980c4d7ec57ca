"""Littlestone dimensions of constrained mistake trees, from the catalogue obousquet/Combinatorial-Parameters:

* ``prefix_2``, ``prefix_3``: the prefix-k Littlestone dimension PL_k. A complete binary tree shattered by C (every
  root-to-leaf path of labels realised by a concept) whose first min(k, d) levels each ask one point on every
  node: k points fixed in advance, then an ordinary mistake tree below each of their 2^k labellings. So PL_k is
  min(VC, k) when no k points are shattered, else the largest over shattered sets S of k points of
  k + the least Opt of C restricted to a labelling of S. Opt >= PL_k >= min(VC, k); PL_1 would be Opt.
* ``block_2``: the 2-block Littlestone dimension B_2. A shattered complete binary tree where, in each block of two
  levels, the block's root asks any point and its two children ask one common point; a last block may be one
  level. B_2(V) = max(1 when a point splits V, max over points x, y with all four labellings of (x, y) in V of
  2 + the least B_2 of the four), and 0 on one concept.

Both come with their tree, ``{"point": x, "0": ..., "1": ...}`` down to depth d (a leaf: a concept realising the
path), which the checker walks: every path realised, the prefix or the blocks as the definition says.

The searches are a memo over version spaces (bitsets of concepts), as :mod:`.queries`, with the plain Littlestone
recursion L(V) = max over splitting x of 1 + min(L(V_0), L(V_1)) for the subtrees of prefix_k.

References
----------
The catalogue obousquet/Combinatorial-Parameters, entries "Prefix-k Littlestone Dimension (k>1)" and "2-Block
Littlestone Dimension". N. Littlestone, "Learning quickly when irrelevant attributes abound", 1988.

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("thresholds", N=7)                       # Opt 3, VC 1
>>> prefix(C, 2).value, block_2(C).value
(1, 1)
>>> C = make("all-functions", n=4)
>>> prefix(C, 3).value, block_2(C).value
(4, 4)
"""

from __future__ import annotations

import itertools
import sys
import time
from typing import Optional

from .spaces import Stop, VersionSpaces

__all__ = ["prefix", "block_2", "MAX_TREE_DEPTH"]

#: The deepest tree a witness lists (2^d leaves; past it the lower side is the search's, not replayed).
MAX_TREE_DEPTH = 14


class _Trees(VersionSpaces):
    def __init__(self, C, deadline):
        super().__init__(C, deadline)
        self.L: dict = {}
        self.B: dict = {}

    def opt(self, V: int) -> int:
        got = self.L.get(V)
        if got is not None:
            return got[0]
        self.look()
        best, move, cap = 0, None, V.bit_count().bit_length() - 1
        for c, V0, V1 in self.halves(V):
            if best >= cap:
                break
            v = 1 + min(self.opt(V0), self.opt(V1))
            if v > best:
                best, move = v, c
        self.L[V] = (best, move)
        return best

    def block(self, V: int) -> int:
        got = self.B.get(V)
        if got is not None:
            return got[0]
        self.look()
        hs = self.halves(V)
        best, move = (1, (hs[0][0],)) if hs else (0, None)
        cap = V.bit_count().bit_length() - 1
        for (cx, X0, X1), cy in itertools.product(hs, self.splits):
            if best >= cap:
                break
            four = (X0 & ~cy, X0 & cy, X1 & ~cy, X1 & cy)
            if all(four):
                v = 2 + min(self.block(W) for W in four)
                if v > best:
                    best, move = v, (cx, cy)
        self.B[V] = (best, move)
        return best

    def opt_tree(self, V: int, d: int):
        if d == 0:
            return self.leaf(V)
        c = self.L[V][1]
        return {"point": self.point[c], "0": self.opt_tree(V & ~c, d - 1), "1": self.opt_tree(V & c, d - 1)}

    def block_tree(self, V: int, d: int):
        if d == 0:
            return self.leaf(V)
        move = self.B[V][1]
        cx = move[0]
        if d == 1 or len(move) == 1:
            return {"point": self.point[cx], "0": self.leaf(V & ~cx), "1": self.leaf(V & cx)}
        cy = move[1]
        return {"point": self.point[cx],
                **{str(a): {"point": self.point[cy],
                            **{str(b): self.block_tree(V & (cx if a else ~cx) & (cy if b else ~cy), d - 2)
                               for b in (0, 1)}} for a in (0, 1)}}


def _run(C, key: str, k: int, time_limit: Optional[float]):
    from . import ParamResult

    deadline = None if time_limit is None else time.monotonic() + time_limit
    T = _Trees(C, deadline)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * T.m + 1000))
    cap = max(T.m.bit_length() - 1, 0)
    try:
        if key == "block_2":
            v = T.block(T.full)
            tree = T.block_tree(T.full, v) if v <= MAX_TREE_DEPTH else None
            return ParamResult(key, v, v, {"tree": tree})
        best, found = 0, None
        for S in itertools.combinations(T.splits, k):
            T.look()
            parts = [T.full]
            for c in S:
                parts = [W & ~c for W in parts] + [W & c for W in parts]  # (bit i of the index: the i-th point)
            if not all(parts):
                continue
            v = k + min(T.opt(W) for W in parts)
            if v > best:
                best, found = v, (S, parts)
            if best >= cap:
                break
        if found is None:  # no k points shattered: a shattered set is a prefix tree of its size
            from ..vc import vc_search

            r = vc_search(C, time_limit=None if deadline is None else max(deadline - time.monotonic(), 1e-3))
            if r.value is None:
                raise Stop
            pts = [int(x) for x in r.witness]
            tree = _prefix_tree(T, [T.cols[x] for x in pts], T.full, None, 0)
            return ParamResult(key, r.value, r.value, {"tree": tree})
        S, parts = found
        tree = _prefix_tree(T, list(S), T.full, best - k, 0) if best <= MAX_TREE_DEPTH else None
        return ParamResult(key, best, best, {"tree": tree})
    except (Stop, RecursionError):
        return ParamResult(key, 0, cap, {"tree": None})
    finally:
        sys.setrecursionlimit(limit)


def _prefix_tree(T: _Trees, S: list, V: int, below: Optional[int], i: int):
    """The tree asking the columns S in order on every node, then (``below`` not None) an optimal mistake tree of
    depth ``below`` under each labelling."""
    if i == len(S):
        return T.leaf(V) if not below else T.opt_tree(V, below)
    c = S[i]
    return {"point": T.point[c], "0": _prefix_tree(T, S, V & ~c, below, i + 1),
            "1": _prefix_tree(T, S, V & c, below, i + 1)}


def prefix(C, k: int, *, time_limit: Optional[float] = None):
    """PL_k(C) (k >= 2) as a :class:`~solvers.params.ParamResult`: witness ``{"tree": the prefix tree}`` (None past
    :data:`MAX_TREE_DEPTH`)."""
    if k < 2:
        raise ValueError(f"prefix-k needs k >= 2 (PL_1 is Opt), not {k}")
    return _run(C, f"prefix_{k}", k, time_limit)


def prefix_2(C, *, time_limit: Optional[float] = None):
    """PL_2(C): :func:`prefix` with k = 2."""
    return prefix(C, 2, time_limit=time_limit)


def prefix_3(C, *, time_limit: Optional[float] = None):
    """PL_3(C): :func:`prefix` with k = 3."""
    return prefix(C, 3, time_limit=time_limit)


def block_2(C, *, time_limit: Optional[float] = None):
    """B_2(C) as a :class:`~solvers.params.ParamResult`: witness ``{"tree": the block tree}`` (None past
    :data:`MAX_TREE_DEPTH`)."""
    return _run(C, "block_2", 2, time_limit)
