"""Variable symmetry for the exact adversary: the same game, up to renaming the variables.

The points of many classes are 0/1 vectors ([Rivest94]'s {0,1}^n; [15-859B]'s monotone disjunctions), and
the classic learners treat the variables alike: Winnow's weights all start at 1, the Perceptron's at 0
(a learner says so with ``symmetric_variables``, see :mod:`solvers.learners.base`). If a renaming pi
of the variables maps the domain X onto itself and fixes the target c (c(pi x) = c(x)), then the
learner in state pi(s) errs on pi(x_1), pi(x_2), ... exactly where the learner in state s errs on
x_1, x_2, ...: the worst case from s and from pi(s) is the same. The exact search uses this three ways:

* **targets**: two concepts with c' = c o pi have the same worst case, so one per orbit is searched
  (:meth:`Domain.target_key`, when X is closed under every renaming);
* **states**: with the target fixed, variables i and j are *interchangeable* when the swap (i j) maps X
  onto X and fixes c; interchangeability is an equivalence (a product of valid swaps is valid), its
  classes are the *blocks*, and sorting the state's entries within each block gives the memo key
  (:func:`canonical`);
* **points**: in state s, two points with as many ones in every group of variables that share a block
  and a state entry are swapped by a renaming that fixes s and c, so only one of them is tried
  (:meth:`Domain.representatives`).

A renaming maps a best sequence found from s to one from pi(s) (:meth:`Domain.point_map`); nothing is
assumed that is not checked, and equal keys always mean renamed copies of one position, so every
value stays exact. Source: the game of [Rivest94]; the learners of
[15-859B] (Winnow) and [Mehta] (Perceptron).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
"""

from __future__ import annotations

import numpy as np

__all__ = ["Domain", "canonical"]

#: Signatures of points are packed into one int64 when they fit in this many bits, else compared
#: as rows (tests lower it to exercise both ways).
PACK_BITS = 62


class Domain:
    """The points of a finite class as a 0/1 matrix, with fast look-up of renamed points.

    Built by :meth:`of`, which returns None when the points are not 0/1 vectors of one length (then
    the search uses no symmetry).

    Examples
    --------
    >>> import itertools
    >>> D = Domain.of(list(itertools.product((0, 1), repeat=3)))
    >>> D.closed, D.blocks(np.array([int(x[0] or x[1]) for x in D.points]))
    (True, [[0, 1], [2]])
    """

    def __init__(self, P: np.ndarray):
        self.P = P
        self.m, self.n = P.shape
        self.points = [tuple(int(v) for v in row) for row in P]
        self._pow = np.left_shift(np.int64(1), np.arange(self.n, dtype=np.int64))
        codes = P.astype(np.int64) @ self._pow
        self._order = np.argsort(codes, kind="stable")
        self._sorted = codes[self._order]
        cycle = list(range(1, self.n)) + [0]
        #: X is closed under every renaming (a swap and an n-cycle generate them all)
        self.closed = self.n < 2 or (self.renamed([1, 0] + list(range(2, self.n))) is not None
                                     and self.renamed(cycle) is not None)

    @classmethod
    def of(cls, points) -> "Domain | None":
        try:
            P = np.asarray(points)
        except (ValueError, TypeError):
            return None
        if P.ndim != 2 or P.shape[1] == 0 or P.shape[1] > 62 or P.dtype.kind not in "iub":
            return None
        if P.size and not np.isin(P, (0, 1)).all():
            return None
        return cls(P.astype(np.int8))

    # ------------------------------------------------------------------ renamings
    def renamed(self, v) -> "np.ndarray | None":
        """Point indices after moving variable i to position ``v[i]`` (row j goes to the returned
        index j), or None if some renamed point is not in X."""
        Y = np.empty_like(self.P)
        Y[:, np.asarray(v)] = self.P
        codes = Y.astype(np.int64) @ self._pow
        pos = np.searchsorted(self._sorted, codes)
        pos[pos >= self.m] = 0
        if not (self._sorted[pos] == codes).all():
            return None
        return self._order[pos]

    def blocks(self, labels: np.ndarray) -> list[list[int]]:
        """The classes of interchangeable variables for the target with these labels (one per point)."""
        parent = list(range(self.n))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in range(self.n):
            for j in range(i + 1, self.n):
                if find(i) == find(j):
                    continue  # already joined through other valid swaps
                v = list(range(self.n))
                v[i], v[j] = j, i
                idx = self.renamed(v)
                if idx is not None and (labels[idx] == labels).all():
                    parent[find(j)] = find(i)
        out: dict = {}
        for i in range(self.n):
            out.setdefault(find(i), []).append(i)
        return sorted(out.values())

    def target_key(self, labels: np.ndarray) -> bytes:
        """A key equal for two targets only if one is the other renamed (needs ``closed``): the
        target with its variables sorted by (#positive points with x_i = 1, #negative ones)."""
        pos = self.P.T.astype(np.int64) @ labels.astype(np.int64)
        neg = self.P.T.astype(np.int64) @ (1 - labels.astype(np.int64))
        order = np.lexsort((np.arange(self.n), neg, pos))
        v = np.empty(self.n, dtype=np.int64)
        v[order] = np.arange(self.n)
        idx = self.renamed(v)
        f = np.empty_like(labels)
        f[idx] = labels  # the renamed target: f(pi x) = c(x)
        return f.tobytes()

    def point_map(self, blocks, src, dst) -> np.ndarray:
        """Point indices of the renaming that takes state key ``src`` to ``dst`` (equal under
        :func:`canonical`) within the blocks: a sequence found from ``src`` maps through it."""
        v = list(range(self.n))
        for B in blocks:
            a = sorted(B, key=lambda i: (src[i], i))
            b = sorted(B, key=lambda i: (dst[i], i))
            for i, j in zip(a, b):
                v[i] = j
        return self.renamed(v)

    def representatives(self, candidates: np.ndarray, blocks, key) -> np.ndarray:
        """One point of ``candidates`` per class of points a renaming fixing the state ``key`` (and
        the blocks) maps onto each other: those with as many ones in every group of variables that
        share a block and a state entry."""
        if len(candidates) <= 1:
            return candidates
        groups: dict = {}
        gid = np.empty(self.n, dtype=np.int64)
        for b, B in enumerate(blocks):
            for i in B:
                gid[i] = groups.setdefault((b, key[i]), len(groups))
        if len(groups) == self.n:
            return candidates  # every variable alone in its group: no two points are alike
        radix = np.int64(self.n + 1)
        if len(groups) * np.log2(self.n + 1) < PACK_BITS:
            sig = self.P[candidates].astype(np.int64) @ (radix ** gid)
            _, first = np.unique(sig, return_index=True)
        else:
            onehot = np.zeros((self.n, len(groups)), dtype=np.int64)
            onehot[np.arange(self.n), gid] = 1
            _, first = np.unique(self.P[candidates].astype(np.int64) @ onehot, axis=0, return_index=True)
        return candidates[np.sort(first)]


def canonical(key: tuple, blocks) -> tuple:
    """The memo key of a state: its entries sorted within each block of interchangeable variables.

    >>> canonical((3, 1, 2, 0), [[0, 1], [2, 3]])
    ((1, 3), (0, 2))
    """
    return tuple(tuple(sorted(key[i] for i in B)) for B in blocks)
