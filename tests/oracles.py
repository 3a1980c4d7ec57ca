"""The brute-force oracles the tests share, written from the definitions and independent of ``solvers``.

Everything here works on plain Python data: a class is a tuple of concept rows, each row a tuple of
0/1 labels (one per point), and a version space is a frozenset of such rows. Nothing here imports the
solver's bitsets, memo, splits or bounds; the only thing imported from the package under test is
nothing at all (learners under test are passed in by the caller).

* :func:`opt_brute` -- the recurrence of [Rivest94] / DESIGN.md:
  Opt(V) = -1 if V is empty; 0 if no point splits V; else max over splitting x of
  1 + min(Opt(V_x^0), Opt(V_x^1)).
* :func:`vc_brute` -- the largest set of points shattered by the class.
* :func:`adversary_brute` -- the most mistakes any realisable sequence can force on a learner
  (predict_one / learn_one / state_key, deep-copied at every branch).
* :class:`HalvingBrute`, :class:`FirstConsistentBrute` -- tiny reference learners for checking the
  adversary itself.
* ``Ref*`` (:class:`RefWinnow`, :class:`RefPerceptron`, ...) -- each learner of the seeds written again
  from the seeds' pseudo-code, with the streams (:func:`binary_stream`, :func:`realizable`) and the
  round-by-round comparison (:func:`compare`) that tests/solvers/learners/test_<module>.py use.

Test modules import them from here (``from tests.oracles import opt_brute``); ``tests/solvers/brute.py``
re-exports them under their old import path.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import copy
import itertools
import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
from hypothesis import strategies as st

__all__ = [
    "rows_of",
    "split_rows",
    "opt_brute",
    "opt_of",
    "vc_brute",
    "adversary_brute",
    "HalvingBrute",
    "FirstConsistentBrute",
    "binary_stream",
    "compare",
    "realizable",
    "RefWinnow",
    "RefBalanced",
    "RefPerceptron",
    "RefConjunction",
    "RefElim",
    "RefVersionSpace",
    "RefWeightedMajority",
    "Unbounded",
    "tree_ok_brute",
    "sparse_rows",
    "matrices",
]


def rows_of(matrix) -> frozenset:
    """The class as a frozenset of distinct rows (tuples of 0/1 ints)."""
    return frozenset(tuple(int(bool(v)) for v in row) for row in matrix)


def split_rows(V: frozenset, j: int) -> tuple[frozenset, frozenset]:
    """(V_x^0, V_x^1) for point (column) j."""
    V0 = frozenset(r for r in V if r[j] == 0)
    V1 = frozenset(r for r in V if r[j] == 1)
    return V0, V1


@lru_cache(maxsize=None)
def _opt(V: frozenset, n_points: int) -> int:
    if not V:
        return -1
    best = 0
    for j in range(n_points):
        V0, V1 = split_rows(V, j)
        if V0 and V1:
            best = max(best, 1 + min(_opt(V0, n_points), _opt(V1, n_points)))
    return best


def opt_of(V: frozenset, n_points: int) -> int:
    """Opt of a version space given as a frozenset of rows."""
    return _opt(frozenset(V), n_points)


def opt_brute(matrix) -> int:
    """Opt(C) for a 0/1 matrix (list of rows), straight from the recurrence."""
    rows = rows_of(matrix)
    if not rows:
        return -1
    n = len(next(iter(rows)))
    return _opt(rows, n)


def vc_brute(matrix) -> int:
    """The VC dimension: the size of the largest shattered set of points (0 if none is shattered)."""
    rows = rows_of(matrix)
    n = len(next(iter(rows)))
    best = 0
    for k in range(1, n + 1):
        if (1 << k) > len(rows):
            break
        found = False
        for S in itertools.combinations(range(n), k):
            patterns = {tuple(r[j] for j in S) for r in rows}
            if len(patterns) == (1 << k):
                found = True
                break
        if not found:
            break  # a shattered set of size k+1 would contain one of size k
        best = k
    return best


class Unbounded(Exception):
    """The adversary found a cycle of learner states with a mistake on it (no finite bound)."""


def adversary_brute(learner, matrix, points) -> int:
    """The maximum number of mistakes a realisable adversary can force on ``learner``.

    The adversary picks any point (from ``points``, the domain in column order) and any label that
    leaves at least one concept of the class consistent. The learner is deep-copied before every
    branch. States are identified by (learner.state_key(), version space). A state revisited on the
    current path with a mistake in between raises :class:`Unbounded`; one revisited with no mistake in
    between adds nothing (the ancestor already maximises over every alternative).
    """
    rows = rows_of(matrix)
    n = len(points)
    memo: dict = {}
    on_path: dict = {}

    def rec(L, V: frozenset, made: int) -> int:
        key = (L.state_key(), V)
        if key in memo:
            return memo[key]
        if key in on_path:
            if made > on_path[key]:
                raise Unbounded(f"cycle with mistakes at state {key!r}")
            return 0
        on_path[key] = made
        best = 0
        for j in range(n):
            x = points[j]
            V0, V1 = split_rows(V, j)
            for y, Vy in ((0, V0), (1, V1)):
                if not Vy:
                    continue
                L2 = copy.deepcopy(L)
                p = L2.predict_one(x)
                assert p in (0, 1), f"learner predicted {p!r}"
                m = int(p != y)
                L2.learn_one(x, y)
                best = max(best, m + rec(L2, Vy, made + m))
        del on_path[key]
        memo[key] = best
        return best

    return rec(copy.deepcopy(learner), rows, 0)


class _RowLearner:
    """Base for reference learners over a matrix (rows) and its points."""

    def __init__(self, matrix, points):
        self.points = [tuple(p) for p in points]
        self.V = rows_of(matrix)

    def _j(self, x) -> int:
        x = tuple(x) if not isinstance(x, int) else (x,)
        return self.points.index(x)

    def learn_one(self, x, y) -> None:
        j = self._j(x)
        V = frozenset(r for r in self.V if r[j] == y)
        if not V:
            raise ValueError("unrealisable")
        self.V = V

    def state_key(self):
        return self.V


class HalvingBrute(_RowLearner):
    """Predict the majority label of the version space (ties -> 1)."""

    def predict_one(self, x) -> int:
        j = self._j(x)
        ones = sum(r[j] for r in self.V)
        return int(2 * ones >= len(self.V))


class FirstConsistentBrute(_RowLearner):
    """Predict with the lexicographically smallest consistent concept (CON)."""

    def predict_one(self, x) -> int:
        return min(self.V)[self._j(x)]


def log2_floor(n: int) -> int:
    return int(math.floor(math.log2(n)))


def tree_ok_brute(root, depth: int, matrix) -> bool:
    """True iff ``root`` (nested ``{"point": j, "0": .., "1": ..}`` / None) is a complete binary tree of
    exactly ``depth`` levels whose every root-to-leaf path is realised by some row of ``matrix``.

    Walks the tree carrying the list of row indices consistent with the path (plain Python lists over
    the matrix's columns; no bitsets)."""
    rows = [list(r) for r in matrix]
    n_rows = len(rows)
    n = len(rows[0]) if rows else 0
    cache: dict = {}

    def column(j):
        if j not in cache:
            cache[j] = [int(bool(r[j])) for r in rows]
        return cache[j]

    def walk(node, alive, level) -> bool:
        if not alive:
            return False
        if node is None:
            return level == depth
        if not isinstance(node, dict) or set(node) != {"point", "0", "1"}:
            return False
        j = node["point"]
        if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < n:
            return False
        col = column(j)
        a0 = [c for c in alive if col[c] == 0]
        a1 = [c for c in alive if col[c] == 1]
        return walk(node["0"], a0, level + 1) and walk(node["1"], a1, level + 1)

    return walk(root, list(range(n_rows)), 0)


def sparse_rows(n: int, k: int) -> list:
    """All subsets of {0..n-1} of size <= k, as indicator rows. Its Opt is min(k, n): predicting 0
    errs only on positives (at most k of them), and any k points carry every labelling."""
    rows = []
    for i in range(k + 1):
        for S in itertools.combinations(range(n), i):
            rows.append([int(j in S) for j in range(n)])
    return rows


def matrices(max_rows: int = 10, max_cols: int = 8, min_rows: int = 1):
    """A hypothesis strategy for small 0/1 matrices (lists of rows), sizes drawn uniformly, with
    duplicate rows allowed half of the time (the class merges them) and distinct rows otherwise."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw):
        c = draw(st.sampled_from(range(1, max_cols + 1)))
        r = draw(st.sampled_from(range(min_rows, min(max_rows, 1 << c) + 1)))
        unique = draw(st.booleans())
        ints = draw(st.lists(st.integers(0, (1 << c) - 1), min_size=r, max_size=r, unique=unique))
        return [[(v >> j) & 1 for j in range(c)] for v in ints]

    return build()


# ---------------------------------------------------------------------------------------- reference learners
# Each learner of the seeds written again from the seeds' pseudo-code, with plain lists and floats (or
# Fractions where floats would round: factors such as 3/2), sharing no code with ``solvers.learners``;
# tests/solvers/learners/test_<module>.py compare them with the package's learners round by round on
# random streams (arbitrary labels for the vector learners, realizable ones for the class-based learners).
class RefWinnow:
    """Winnow from [15-859B]/[OnlineAlgs]/[Rivest94] with list weights: threshold, factor, strict or not, halve or zero,
    and an optional floor ([Roth]'s Winnow-R)."""

    def __init__(self, n, alpha, theta, strict, zero, floor=None):
        self.w = [1.0 if isinstance(alpha, float) else Fraction(1)] * n
        self.alpha, self.theta, self.strict, self.zero, self.floor = alpha, theta, strict, zero, floor

    def predict(self, x):
        s = sum(wi for wi, xi in zip(self.w, x) if xi == 1)
        return 1 if (s > self.theta if self.strict else s >= self.theta) else 0

    def learn(self, x, y):
        p = self.predict(x)
        for i in range(len(x)):
            if x[i] == 1:
                if y == 1 and p == 0:
                    self.w[i] = self.w[i] * self.alpha
                elif y == 0 and p == 1:
                    if self.zero:
                        self.w[i] = 0
                    else:
                        self.w[i] = self.w[i] / self.alpha
                        if self.floor is not None and self.w[i] < self.floor:
                            self.w[i] = self.floor


class RefBalanced:
    def __init__(self, n, theta):
        self.p = [1.0] * n
        self.m = [1.0] * n
        self.theta = theta

    def s(self, x):
        return sum(self.p[i] - self.m[i] for i in range(len(x)) if x[i] == 1)

    def predict(self, x):
        return 1 if self.s(x) > self.theta else 0

    def learn(self, x, y):
        s = self.s(x)
        if y == 1 and s <= self.theta:
            for i in range(len(x)):
                if x[i] == 1:
                    self.p[i] *= 2
                    self.m[i] /= 2
        if y == 0 and s >= self.theta:
            for i in range(len(x)):
                if x[i] == 1:
                    self.p[i] /= 2
                    self.m[i] *= 2


class RefPerceptron:
    def __init__(self, d, margin=0):
        self.w = [0] * d
        self.margin = margin

    def predict(self, x):
        return 1 if sum(a * b for a, b in zip(self.w, x)) >= 0 else 0

    def learn(self, x, y):
        yy = 1 if y == 1 else -1
        s = sum(a * b for a, b in zip(self.w, x))
        if (self.margin == 0 and self.predict(x) != y) or (self.margin > 0 and yy * s <= self.margin):
            self.w = [a + yy * b for a, b in zip(self.w, x)]


class RefConjunction:
    def __init__(self, n):
        self.S = set(range(n))

    def predict(self, x):
        return 1 if all(x[i] == 1 for i in self.S) else 0

    def learn(self, x, y):
        if y == 1 and self.predict(x) == 0:
            self.S = {i for i in self.S if x[i] == 1}


class RefElim:
    def __init__(self, n):
        self.L = {(i, s) for i in range(n) for s in (True, False)}   # (i, True) is z_i, (i, False) not z_i

    def predict(self, x):
        return 1 if any((x[i] == 1) == s for i, s in self.L) else 0

    def learn(self, x, y):
        if y == 0:
            self.L = {(i, s) for i, s in self.L if (x[i] == 1) != s}


class RefVersionSpace:
    """Halving (majority, ties to 1) or CON (first consistent row) over a list of rows."""

    def __init__(self, rows, rule):
        self.V = list(rows)
        self.rule = rule

    def predict(self, j):
        if self.rule == "halving":
            ones = sum(r[j] for r in self.V)
            return 1 if 2 * ones >= len(self.V) else 0
        return self.V[0][j]

    def learn(self, j, y):
        self.V = [r for r in self.V if r[j] == y]


class RefWeightedMajority:
    def __init__(self, rows, beta):
        self.rows = rows
        self.w = [1.0] * len(rows)
        self.beta = beta

    def predict(self, j):
        one = sum(w for w, r in zip(self.w, self.rows) if r[j] == 1)
        zero = sum(w for w, r in zip(self.w, self.rows) if r[j] == 0)
        return 1 if one >= zero else 0

    def learn(self, j, y):
        self.w = [w * self.beta if r[j] != y else w for w, r in zip(self.w, self.rows)]


@st.composite
def binary_stream(draw, max_n=6, max_len=40):
    n = draw(st.integers(1, max_n))
    xs = draw(st.lists(st.tuples(*[st.integers(0, 1)] * n), max_size=max_len))
    ys = draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    return n, list(zip(xs, ys))


def compare(L, R, stream):
    for t, (x, y) in enumerate(stream):
        assert L.predict_one(x) == R.predict(x), f"round {t}"
        L.learn_one(x, y)
        R.learn(x, y)


def realizable(rows, data, max_len=15):
    target = data.draw(st.sampled_from(rows), label="target")
    js = data.draw(st.lists(st.integers(0, len(rows[0]) - 1), max_size=max_len), label="points")
    return [(j, target[j]) for j in js]

