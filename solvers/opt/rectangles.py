"""Opt(C) of axis-aligned rectangles on the N x N grid by a search over compact states.

Concepts [a1, b1] x [a2, b2] (1 <= a1 <= b1 <= N, 1 <= a2 <= b2 <= N) label the grid point (i, j) 1 iff
a1 <= i <= b1 and a2 <= j <= b2, and the empty rectangle labels every point 0. The recurrence of
[Rivest94] (see :mod:`solvers.opt.states`) is run over two kinds of states:

* **No positive example yet** (an *A-state*): the set Q of points labelled 0. The version space is the
  empty rectangle and the rectangles avoiding Q, held as a bool array ``A[a1, b1, a2, b2]`` (N^4 cells).
  Its memo key is Q up to the 8 symmetries of the square (reflections and the transposition carry
  rectangles onto rectangles and Q onto its image, so by renaming points -- Lemma 3 of
  :mod:`solvers.opt.intervals` -- the two version spaces have the same Opt).
* **A positive example seen** (a *B-state*): the positives span a box [l1, r1] x [l2, r2] and every
  consistent rectangle contains it. Write a rectangle as its *extension* e = (eL, eR, eD, eU) beyond the
  box (a1 = l1 - eL, b1 = r1 + eR, a2 = l2 - eD, b2 = r2 + eU). The consistent rectangles are a
  down-set of extensions (a smaller rectangle around the box avoids every negative the larger one
  avoids), held as a 4-d bool array ``B[eL, eR, eD, eU]`` cut to its non-empty extent. A point w outside
  the box is labelled 1 exactly by the extensions e >= v, where v is how far w lies beyond the box in
  each direction (at most one of eL, eR and one of eD, eU are non-zero): labelled 1 the state becomes
  ``B[v:]`` (the box grows to hold w), labelled 0 the cells e >= v are removed. So the splits of a
  B-state are exactly these vectors v (points inside the box split nothing), and Opt depends only on
  the array, not on where the box lies: the memo key is the array up to the 8 symmetries of the square
  (permutations of the axes L, R, D, U that keep the pairs {L, R} and {D, U}).

Bounds on a B-state: the cardinality bound floor(log2 |B|), and a lower bound: every cell e of B is the
corner of a full sub-box, whose rectangles the points beyond the box's *sides* split as a product of
four chains of e_k + 1 elements (Lemmas 1 and 2 of :mod:`solvers.opt.intervals`), so
Opt(B) >= max over e in B of sum_k floor(log2(e_k + 1)), with a mistake tree that bisects the four chains
one after the other. (The full box is not a product of chains: a point beyond a *corner* is labelled by
eL >= x and eD >= y together, and the full box of extents 2, 3, 2, 3 has Opt 5, not 4; so there is no
upper bound of that kind.)

:class:`RectangleSolver` decides "Opt >= d?" with the cardinality bound on both sides of every split
(computed for all points at once: a matrix product for an A-state, 4-d suffix sums for a B-state), the
most balanced splits first, and symmetric splits of a symmetric state tried once.

**Certificates.** The mistake tree names explicit grid points (column (i - 1) N + (j - 1)). The
upper-bound certificate is the path form of :func:`solvers.certificates.verify_upper` (each entry a
version space named by its labelled points), which the checker verifies against the family's own labels
(:class:`~solvers.classes.evaluated.EvaluatedClass`) without the matrix and without any lemma, while it needs at
most :data:`PATH_ENTRIES` entries (N = 13: 1,154; N = 32: a single entry, every point leaving fewer than 2^17
rectangles on its 1-side). Past that it names the A-states and B-states above, up to the square's symmetries
(:meth:`RectangleSolver.state_proof`), for :mod:`solvers.certificates.rectangles`, whose checker counts every state
from the definition of rectangles (N = 13: 141 entries).

**Why this engine is kept** (issue 19: an engine the generic search comes within 1.5x of is retired). It
does what no matrix can: from N = 32 the matrix ((N (N + 1) / 2)^2 + 1 rectangles x N^2 points, 285
million cells at N = 32) is past ``make``'s limit, and this search solves N = 32 in about 5 s (Opt = 17)
and N = 64 in under five minutes (Opt = 20; the 0-side of a point is asked first whether it fails at once, see
:meth:`RectangleSolver._a_quick`). On the grids that fit a matrix ``opt`` runs the generic search (engine
``auto``), which ``scripts/bench_engines.py`` measured, with its compiled kernel, at 0.35-2.75x this engine's
time (N = 8: 0.45x, 12: 0.35x, 16: 0.71x, 20: 1.49x, 24: 2.75x, listed; 0.37-2.95x as a raw matrix; idle 2-core
machine): faster up to N = 20, not within 1.5x at N = 24.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> from solvers.classes.evaluated import EvaluatedClass
>>> S = RectangleSolver(EvaluatedClass("rectangles", {"N": 4}), memo_bytes=2**20)
>>> S.value()
6
"""

from __future__ import annotations

import itertools

import numpy as np

from ..certificates import ProofTooLarge
from .states import StateSearch

__all__ = ["RectangleSolver"]

#: The permutations of the axes (L, R, D, U) of a B-state that keep the pairs {L, R} and {D, U}.
_AXES = ((0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2), (1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 0, 1), (2, 3, 1, 0), (3, 2, 1, 0))
_FLOOR_LOG2 = np.array([0] + [k.bit_length() - 1 for k in range(1, 4096)], dtype=np.int64)  # index m: floor(log2 m)


def _fl(m: int) -> int:
    return int(m).bit_length() - 1


#: The most entries :meth:`RectangleSolver.upper_proof` writes in the path form, checked without any lemma; past
#: them it writes the state form.
PATH_ENTRIES = 10_000


def _maximal(B: np.ndarray) -> list[list[int]]:
    """The maximal cells of the down-set B (none of the four cells one step up along an axis is in B)."""
    top = B.copy()
    for axis in range(4):
        above = np.zeros_like(B)
        cut = [slice(None)] * 4
        cut[axis] = slice(0, B.shape[axis] - 1)
        up = [slice(None)] * 4
        up[axis] = slice(1, None)
        above[tuple(cut)] = B[tuple(up)]
        top &= ~above
    return [[int(c) for c in e] for e in np.argwhere(top)]


def _trim(B: np.ndarray) -> np.ndarray:
    """A down-set cut to its extent (no all-False slices at the high end of any axis): along each axis the
    extent is the number of cells of the axis through the origin that B holds."""
    if B.size == 0 or not B[0, 0, 0, 0]:
        return B[:0, :0, :0, :0]
    return B[: np.count_nonzero(B[:, 0, 0, 0]), : np.count_nonzero(B[0, :, 0, 0]),
             : np.count_nonzero(B[0, 0, :, 0]), : np.count_nonzero(B[0, 0, 0, :])]


class RectangleSolver(StateSearch):
    """Rectangles on the N x N grid: decision queries over A-states and B-states (module docstring).

    Parameters
    ----------
    C : EvaluatedClass
        ``rectangles`` with its ``N``.
    memo_bytes : int
        Memory the memo may use (its older half is dropped past it).
    """

    def __init__(self, C, *, memo_bytes: int):
        self.C = C
        N = self.N = C.N
        a, b = np.triu_indices(N)
        A = np.zeros((N, N, N, N), dtype=bool)
        A[a[:, None], b[:, None], a[None, :], b[None, :]] = True
        self._full = A
        self.root = frozenset()
        x = np.arange(N)
        # contains[(a, b), x] = a <= x <= b, for the counts of all points at once (0-based ends)
        self._contains = ((x[:, None, None] <= x[None, None, :]) & (x[None, None, :] <= x[None, :, None])).reshape(
            N * N, N).astype(np.float32)
        self._init_search(memo_bytes, 400)

    # ------------------------------------------------------------------ sizes and keys
    def _entry_size(self, key) -> int:
        """The bytes a memo entry is counted as: ("a", points) or ("b", shape, bits)."""
        return 200 + (60 * len(key[1]) if key[0] == "a" else len(key[2]))

    def size(self, Q) -> int:
        """|V| of the A-state with negatives Q (the empty rectangle included)."""
        return 1 + int(self._array(Q).sum())

    def _array(self, Q) -> np.ndarray:
        A = self._full.copy()
        for i, j in Q:
            A[:i, i - 1:, :j, j - 1:] = False
        return A

    def _images(self, p):
        """The 8 images of the point p = (i, j) under the symmetries of the square, in a fixed order."""
        i, j = p
        M = self.N + 1
        return ((i, j), (i, M - j), (M - i, j), (M - i, M - j), (j, i), (j, M - i), (M - j, i), (M - j, M - i))

    def _a_key(self, Q) -> tuple:
        """(("a", key), g): the least image of Q under the symmetries, and the index g of a symmetry giving it."""
        images = [self._images(p) for p in Q]
        key, g = min((tuple(sorted(im[g] for im in images)), g) for g in range(8))
        return ("a", key), g

    def _a_moves_back(self, g: int, p):
        """The point whose image under symmetry g is p."""
        inverse = (0, 1, 2, 3, 4, 6, 5, 7)[g]
        return self._images(p)[inverse]

    @staticmethod
    def _b_key(B: np.ndarray) -> tuple:
        """(("b", shape, bits), k): the least of the 8 symmetric images of B, and the index of its axes."""
        best = None
        for k, p in enumerate(_AXES):
            T = np.transpose(B, p)
            key = ("b", T.shape, np.packbits(T, axis=None).tobytes())
            if best is None or key < best[0]:
                best = (key, k)
        return best

    @staticmethod
    def _b_bounds(B: np.ndarray, n: int) -> tuple[int, int]:
        """(lower, upper) on Opt of a non-empty B-state of n cells (module docstring)."""
        f = _FLOOR_LOG2
        s = B.shape
        hi = _fl(n)
        W = (f[1:s[0] + 1][:, None, None, None] + f[1:s[1] + 1][None, :, None, None]
             + f[1:s[2] + 1][None, None, :, None] + f[1:s[3] + 1][None, None, None, :])
        lo = int(W[B].max())
        return lo, hi

    # ------------------------------------------------------------------ the A-states
    def at_least(self, Q, d: int) -> bool:
        """Decide "Opt >= d" for the A-state with negatives Q (a frozenset of grid points)."""
        A = self._array(Q)
        return self._at_least_a(Q, A, 1 + int(A.sum()), d)

    def value_after(self, examples) -> int:
        """Opt of the version space left by ``examples``, pairs ((i, j), label), from the state they lead
        to (-1 when no rectangle is consistent with them)."""
        negatives = frozenset(tuple(p) for p, y in examples if not y)
        positives = [tuple(p) for p, y in examples if y]
        if not positives:
            return self.value(negatives)
        rows, cols = [i for i, _ in positives], [j for _, j in positives]
        l1, r1, l2, r2 = min(rows) - 1, max(rows) - 1, min(cols) - 1, max(cols) - 1
        B = _trim(self._array(negatives)[l1::-1, r1:, l2::-1, r2:])
        n = int(B.sum())
        v = 0 if n >= 1 else -1
        while n >= 1 and self._at_least_b(B, n, v + 1):
            v += 1
        return v

    def _counts(self, A: np.ndarray) -> np.ndarray:
        """For every point (i, j) (0-based [i, j]), the rectangles of A that hold it."""
        N = self.N
        M = A.reshape(N * N, N * N).astype(np.float32)
        K = self._contains
        return np.rint(K.T @ (M @ K)).astype(np.int64)  # exact: the counts are < 2^24

    def _a_candidates(self, Q, A: np.ndarray, n: int, need: int):
        """The points splitting the A-state with both sides >= 2^need concepts, the most balanced first,
        one per orbit of the symmetries that fix Q: a list of (1-side count, (i, j))."""
        small = 1 << need
        cnt = self._counts(A)
        ok = (cnt >= small) & (n - cnt >= small)
        idx = np.argwhere(ok)
        if idx.size == 0:
            return []
        stab = [g for g in range(1, 8) if {self._images(p)[g] for p in Q} == Q]
        bal = np.minimum(cnt, n - cnt)[ok]
        out = []
        for k in np.argsort(-bal, kind="stable"):
            p = (int(idx[k][0]) + 1, int(idx[k][1]) + 1)
            if stab and any(self._images(p)[g] < p for g in stab):
                continue
            out.append((int(cnt[idx[k][0], idx[k][1]]), p))
        return out

    def _b_child(self, A: np.ndarray, p) -> np.ndarray:
        """The B-state of the A-state A after point p = (i, j) labelled 1: extensions around the box {p}."""
        i, j = p[0] - 1, p[1] - 1
        return _trim(A[i::-1, i:, j::-1, j:])

    def _a_child(self, A: np.ndarray, p) -> np.ndarray:
        A0 = A.copy()
        A0[:p[0], p[0] - 1:, :p[1], p[1] - 1:] = False
        return A0

    def _a_recall(self, Q, n: int, d: int) -> tuple:
        """(answer, key, g, lo, hi) for "Opt >= d" of the A-state with negatives Q and n rectangles: the answer when
        the count or the memo settles it (else None), the state's key and symmetry (:meth:`_a_key`), and its bounds
        (key, g, lo and hi are None when the count settles it)."""
        settled = self._count_settles(n, d)
        if settled is not None:
            return settled, None, None, None, None
        key, g = self._a_key(Q)
        known, lo, hi = self._recall(key, n, d)
        return known, key, g, lo, hi

    def _at_least_a(self, Q, A: np.ndarray, n: int, d: int, cands=None) -> bool:
        known, key, g, lo, hi = self._a_recall(Q, n, d)
        if known is not None:
            return known
        self.nodes += 1
        self._tick()
        need = d - 1
        for c1, p in self._a_candidates(Q, A, n, need) if cands is None else cands:
            B = self._b_child(A, p)
            blo, bhi = self._b_bounds(B, c1)
            if bhi < need:
                continue
            Q0, A0 = Q | {p}, self._a_child(A, p)
            if blo >= need:
                ok = self._at_least_a(Q0, A0, n - c1, need)
            else:  # the box is a search: first whether the 0-side fails at once (rectangles N = 64: most do)
                quick = self._a_quick(Q0, A0, n - c1, need)
                ok = quick is not False and self._at_least_b(B, c1, need) and (
                    quick is True or self._at_least_a(Q0, A0, n - c1, need, cands=quick))
            if ok:
                self._store(key, d, hi)
                self.moves[key] = ("a", self._images(p)[g])
                return True
        self._store(key, lo, d - 1)
        return False

    def _a_quick(self, Q, A: np.ndarray, n: int, d: int):
        """"Opt >= d" for the A-state without a search: True or False when its count or its memo entry settles it,
        False too when no point splits it into two sides of >= 2^(d-1) rectangles each (kept in the memo); else
        the points its search would try (:meth:`_a_candidates`, handed to :meth:`_at_least_a` so that they are
        counted once)."""
        known, key, _, lo, _ = self._a_recall(Q, n, d)
        if known is not None:
            return known
        cands = self._a_candidates(Q, A, n, d - 1)
        if not cands:
            self._store(key, lo, d - 1)
            return False
        return cands

    # ------------------------------------------------------------------ the B-states
    @staticmethod
    def _b_splits(B: np.ndarray):
        """Every vector v beyond the box (one direction, or one horizontal and one vertical) with the
        number of cells e >= v of B (its 1-side), from the 4-d suffix sums of B: a list of (v, count)."""
        s = B.shape
        S = B[::-1, ::-1, ::-1, ::-1].cumsum(0).cumsum(1).cumsum(2).cumsum(3)[::-1, ::-1, ::-1, ::-1]
        vectors = [tuple(t if k == a else 0 for k in range(4)) for a in range(4) for t in range(1, s[a])]
        vectors += [(x if h == 0 else 0, x if h == 1 else 0, y if v == 2 else 0, y if v == 3 else 0)
                    for h in (0, 1) for v in (2, 3) for x in range(1, s[h]) for y in range(1, s[v])]
        return [(v, int(S[v])) for v in vectors]

    def _b_candidates(self, B: np.ndarray, n: int, need: int):
        """The vectors v splitting B with both sides >= 2^need cells, the most balanced first, one per
        orbit of the axis symmetries fixing B: a list of (1-side count, v)."""
        small = 1 << need
        stab = [p for p in _AXES[1:] if np.transpose(B, p).shape == B.shape and np.array_equal(np.transpose(B, p), B)]
        out = []
        for v, c1 in self._b_splits(B):
            if c1 < small or n - c1 < small:
                continue
            if stab and any(tuple(v[p[k]] for k in range(4)) < v for p in stab):
                continue
            out.append((min(c1, n - c1), c1, v))
        out.sort(key=lambda t: -t[0])
        return [(c1, v) for _, c1, v in out]

    @staticmethod
    def _b_children(B: np.ndarray, v) -> tuple[np.ndarray, np.ndarray]:
        """(0-side, 1-side) of the B-state B split by the vector v."""
        B1 = _trim(B[v[0]:, v[1]:, v[2]:, v[3]:])
        B0 = B.copy()
        B0[v[0]:, v[1]:, v[2]:, v[3]:] = False
        return _trim(B0), B1

    def _at_least_b(self, B: np.ndarray, n: int, d: int) -> bool:
        settled = self._count_settles(n, d)
        if settled is not None:
            return settled
        lo, _ = self._b_bounds(B, n)
        if lo >= d:
            return True
        key, k = self._b_key(B)
        known, lo, hi = self._recall(key, n, d, lo)
        if known is not None:
            return known
        self.nodes += 1
        self._tick()
        need = d - 1
        for c1, v in self._b_candidates(B, n, need):
            B0, B1 = self._b_children(B, v)
            if c1 <= n - c1:
                ok = self._at_least_b(B1, c1, need) and self._at_least_b(B0, n - c1, need)
            else:
                ok = self._at_least_b(B0, n - c1, need) and self._at_least_b(B1, c1, need)
            if ok:
                self._store(key, d, hi)
                p = _AXES[k]
                self.moves[key] = ("b", tuple(v[p[j]] for j in range(4)))
                return True
        self._store(key, lo, d - 1)
        return False

    # ------------------------------------------------------------------ the mistake tree
    def mistake_tree(self, d: int):
        """A mistake tree of depth d (<= Opt(C)) over explicit grid points."""
        return self._tree_a(frozenset(), self._full, 1 + int(self._full.sum()), d)

    def _column(self, i: int, j: int) -> int:
        return (i - 1) * self.N + (j - 1)

    def _tree_a(self, Q, A: np.ndarray, n: int, d: int):
        if d <= 0:
            return None
        key, g = self._a_key(Q)
        hint = self.moves.get(key)
        cands = []
        if hint is not None and hint[0] == "a":  # the move the search recorded, first (no counting needed)
            p = self._a_moves_back(g, hint[1])
            cands.append((int(self._b_child(A, p).sum()), p))
        for c1, p in itertools.chain(cands, self._a_candidates(Q, A, n, d - 1) if d >= 2 else self._a_any(A, n)):
            B = self._b_child(A, p)
            A0 = self._a_child(A, p)
            if self._at_least_b(B, c1, d - 1) and self._at_least_a(Q | {p}, A0, n - c1, d - 1):
                box = (p[0], p[0], p[1], p[1])
                return {"point": self._column(*p), "0": self._tree_a(Q | {p}, A0, n - c1, d - 1),
                        "1": self._tree_b(B, c1, box, d - 1)}
        raise RuntimeError(f"internal error: no point proves depth {d} for the negatives {sorted(Q)}")

    def _a_any(self, A: np.ndarray, n: int):
        """Every splitting point of an A-state (for the last level of a tree)."""
        cnt = self._counts(A)
        return [(int(cnt[i, j]), (int(i) + 1, int(j) + 1)) for i, j in np.argwhere((cnt >= 1) & (n - cnt >= 1))]

    def _point_of(self, box, v) -> tuple[int, int]:
        """The grid point lying v beyond the box (l1, r1, l2, r2) in the directions L, R, D, U."""
        l1, r1, l2, r2 = box
        i = l1 - v[0] if v[0] else (r1 + v[1] if v[1] else l1)
        j = l2 - v[2] if v[2] else (r2 + v[3] if v[3] else l2)
        return i, j

    def _tree_b(self, B: np.ndarray, n: int, box, d: int):
        if d <= 0:
            return None
        lo, hi = self._b_bounds(B, n)
        if lo >= d:  # a full sub-box of four chains: bisect them one after the other
            f = _FLOOR_LOG2
            s = B.shape
            W = (f[1:s[0] + 1][:, None, None, None] + f[1:s[1] + 1][None, :, None, None]
                 + f[1:s[2] + 1][None, None, :, None] + f[1:s[3] + 1][None, None, None, :])
            corner = np.unravel_index(int(np.argmax(np.where(B, W, -1))), s)
            return self._chains_tree(box, [int(c) + 1 for c in corner], d)
        key, k = self._b_key(B)
        hint = self.moves.get(key)
        cands = []
        if hint is not None and hint[0] == "b":  # the move the search recorded, first
            p = _AXES[k]
            v = [0] * 4
            for j in range(4):
                v[p[j]] = hint[1][j]
            cands.append((None, tuple(v)))
        for _, v in itertools.chain(cands, self._b_candidates(B, n, d - 1) if d >= 2 else
                                    ((None, v) for v in self._b_any(B, n))):
            B0, B1 = self._b_children(B, v)
            n1, n0 = int(B1.sum()), int(B0.sum())
            if self._at_least_b(B1, n1, d - 1) and self._at_least_b(B0, n0, d - 1):
                l1, r1, l2, r2 = box
                grown = (l1 - v[0], r1 + v[1], l2 - v[2], r2 + v[3])
                return {"point": self._column(*self._point_of(box, v)), "0": self._tree_b(B0, n0, box, d - 1),
                        "1": self._tree_b(B1, n1, grown, d - 1)}
        raise RuntimeError(f"internal error: no point proves depth {d} for a B-state of shape {B.shape}")

    @staticmethod
    def _b_any(B: np.ndarray, n: int):
        """Every splitting vector of a B-state (for the last level of a tree): the 1D ones suffice when
        the extent is > 1 along some axis; otherwise B is a single cell and nothing splits it."""
        return [tuple(t if k == a else 0 for k in range(4)) for a in range(4) for t in range(1, B.shape[a])]

    def _chains_tree(self, box, lengths, d: int):
        """A tree of depth d over the full sub-box of extensions [0, lengths[k]) around ``box``: axis L's
        chain bisected first (point t beyond the box is labelled 1 iff e_L >= t), then R, D, U."""
        depths, left = [], d
        for m in lengths:
            depths.append(min(_fl(m), left))
            left -= depths[-1]
        return self._chain(box, lengths, depths, 0, 0, lengths[0] - 1)

    def _chain(self, box, lengths, depths, axis: int, lo: int, hi: int):
        """Bisect the extensions [lo, hi] of ``axis`` for depths[axis] levels, then the next axes."""
        if axis == 4:
            return None
        if depths[axis] == 0:
            nxt = axis + 1
            return self._chain(box, lengths, depths, nxt, 0, lengths[nxt] - 1) if nxt < 4 else None
        k = depths[axis]
        t = hi - (1 << (k - 1)) + 1  # e >= t on the 1-side: 2^(k-1) values; e < t: >= 2^(k-1) values
        v = tuple(t if a == axis else 0 for a in range(4))
        rest = list(depths)
        rest[axis] = k - 1
        return {"point": self._column(*self._point_of(box, v)),
                "0": self._chain(box, lengths, rest, axis, lo, t - 1),
                "1": self._chain(box, lengths, rest, axis, t, hi)}

    # ------------------------------------------------------------------ the upper bound
    def _a_refuted_side(self, Q, X: np.ndarray, n: int, c1: int, p, b: int) -> tuple:
        """(label, state) of a side of point p of the A-state (negatives Q, array X, n concepts) worth at most
        b - 1, asked as the search asked: the 0-side first when it fails at once, then the B-state of the 1-side,
        then the 0-side (label 0: the A-state's array; label 1: the B-state's)."""
        Q0, A0 = Q | {p}, self._a_child(X, p)
        if self._a_quick(Q0, A0, n - c1, b) is False:
            return 0, A0
        B = self._b_child(X, p)
        if not self._at_least_b(B, c1, b):
            return 1, B
        if not self._at_least_a(Q0, A0, n - c1, b):
            return 0, A0
        raise RuntimeError(f"internal error: Opt <= {b} does not hold for the negatives {sorted(Q)}")

    def _b_refuted_side(self, X: np.ndarray, n: int, c1: int, v, b: int) -> tuple:
        """(label, B-state) of a side of the vector v of the B-state X worth at most b - 1, the smaller side asked
        first, as the search asked (its memo has that answer)."""
        B0, B1 = self._b_children(X, v)
        sides = [(1, B1, c1), (0, B0, n - c1)]
        if c1 > n - c1:
            sides.reverse()
        for y, side, size in sides:
            if not self._at_least_b(side, size, b):
                return y, side
        raise RuntimeError(f"internal error: Opt <= {b} does not hold for a B-state of shape {X.shape}")

    def upper_proof(self, h: int, *, limit: int = 100_000) -> dict:
        """The certificate of Opt(C) <= h: in the path form (:meth:`path_proof`) when it needs at most
        :data:`PATH_ENTRIES` entries, else over the search's states (:meth:`state_proof`).

        Raises
        ------
        ProofTooLarge
            Past ``limit`` entries in the form written.
        RuntimeError
            If the claim is false (h below Opt(C)).
        """
        try:
            return self.path_proof(h, limit=min(limit, PATH_ENTRIES))
        except ProofTooLarge:
            if limit <= PATH_ENTRIES:
                raise
        return self.state_proof(h, limit=limit)

    def state_proof(self, h: int, *, limit: int = 100_000) -> dict:
        """The certificate of Opt(C) <= h over A-states and B-states, each up to the square's symmetries, for
        :mod:`solvers.certificates.rectangles`: ``{"negatives": [[i, j], ...], "bound": b}`` and
        ``{"extensions": [maximal [eL, eR, eD, eU], ...], "bound": b}``.

        Raises
        ------
        ProofTooLarge
            Past ``limit`` entries.
        RuntimeError
            If the claim is false (h below Opt(C)).
        """
        entries: list[dict] = []
        seen: dict[tuple, int] = {}
        stack = [("a", frozenset(), self._full, h)]
        while stack:
            kind, Q, X, b = stack.pop()
            n = 1 + int(X.sum()) if kind == "a" else int(X.sum())
            if n.bit_length() <= b + 1:
                continue
            key = self._a_key(Q)[0] if kind == "a" else self._b_key(X)[0]
            if seen.get(key, b + 1) <= b:
                continue
            seen[key] = b
            if kind == "a":
                entries.append({"negatives": [list(p) for p in sorted(Q)], "bound": b})
            else:
                entries.append({"extensions": _maximal(X), "bound": b})
            if len(entries) > limit:
                raise ProofTooLarge(f"the upper-bound certificate needs more than {limit} entries; raise the limit")
            if b == 0:
                raise RuntimeError("internal error: a version space of >= 2 concepts claimed Opt <= 0")
            if kind == "a":
                for c1, p in self._a_candidates(Q, X, n, b):  # (one point per orbit: the checker matches images)
                    y, side = self._a_refuted_side(Q, X, n, c1, p, b)
                    stack.append(("a", Q | {p}, side, b - 1) if y == 0 else ("b", None, side, b - 1))
                continue
            for c1, v in self._b_candidates(X, n, b):
                stack.append(("b", None, self._b_refuted_side(X, n, c1, v, b)[1], b - 1))
        from ..certificates.rules import stamp

        return stamp({"kind": "upper-bound-states", "family": "rectangles", "params": dict(self.C.params), "bound": h,
                      "entries": entries}, "states")

    def path_proof(self, h: int, *, limit: int = 100_000) -> dict:
        """The certificate of Opt(C) <= h in the path form of :func:`solvers.certificates.verify_upper`:
        every version space whose splits need it, named by its labelled points.

        Raises
        ------
        ProofTooLarge
            Past ``limit`` entries.
        RuntimeError
            If the claim is false (h below Opt(C)).
        """
        entries: list[dict] = []
        seen: dict[tuple, int] = {}
        stack = [("a", frozenset(), self._full, None, (), h)]
        while stack:
            kind, Q, X, box, path, b = stack.pop()
            n = 1 + int(X.sum()) if kind == "a" else int(X.sum())
            if n.bit_length() <= b + 1:
                continue
            # Explicit keys: the checker names version spaces by their concepts, not up to symmetry.
            key = ("a", Q) if kind == "a" else ("b", box, X.shape, np.packbits(X).tobytes())
            if seen.get(key, b + 1) <= b:
                continue
            seen[key] = b
            entries.append({"path": [list(step) for step in path], "bound": b})
            if len(entries) > limit:
                raise ProofTooLarge(f"the upper-bound certificate needs more than {limit} entries; raise the limit")
            if b == 0:
                raise RuntimeError("internal error: a version space of >= 2 concepts claimed Opt <= 0")
            if kind == "a":
                cnt = self._counts(X)
                for i, j in np.argwhere((cnt >= 1 << b) & (n - cnt >= 1 << b)):
                    p = (int(i) + 1, int(j) + 1)
                    y, side = self._a_refuted_side(Q, X, n, int(cnt[i, j]), p, b)
                    step = path + ((self._column(*p), y),)
                    stack.append(("a", Q | {p}, side, None, step, b - 1) if y == 0 else
                                 ("b", Q, side, (p[0], p[0], p[1], p[1]), step, b - 1))
                continue
            for v, c1 in self._b_splits(X):
                if c1 < 1 << b or n - c1 < 1 << b:
                    continue
                y, side = self._b_refuted_side(X, n, c1, v, b)
                l1, r1, l2, r2 = box
                where = (l1 - v[0], r1 + v[1], l2 - v[2], r2 + v[3]) if y else box
                stack.append(("b", Q, side, where, path + ((self._column(*self._point_of(box, v)), y),), b - 1))
        from ..certificates.rules import stamp

        return stamp({"kind": "upper-bound", "bound": h, "concepts": self.C.n_concepts, "entries": entries}, "paths")
