"""The margin of each concept of a finite class whose points are vectors, exactly: what the Perceptron's bound
R^2/gamma^2 needs on a class that is not declared to be margin halfspaces.

A concept c labels the points x_i with y_i = +1 or -1. With the bias term (the constant coordinate x_0 = 1 of
[OnlineAlgs], the non-homogeneous separators of [Mehta]) the points are z_i = y_i (1, x_i); without it,
z_i = y_i x_i. The best margin of a unit vector w through the origin,

    gamma_c = max over |w| = 1 of min_i <w, z_i>,

is the distance from the origin to the convex hull of the z_i (minimax duality), so gamma_c = |p| for the
point p of the hull nearest the origin, and gamma_c = 0 (no unit w separates c with a margin) when the hull
holds the origin. :func:`min_norm_point` finds p by Wolfe's algorithm in exact rational arithmetic; the
certificate is p itself: <p, z_i> >= |p|^2 for every i says that w = p / |p| has margin |p| on every point
(:func:`check_margin`), which anyone can check in integers.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model" (section 3: homogeneous linear separators, the bias term, the Perceptron's R^2/gamma^2).
.. [OnlineAlgs] "Online Algorithms" (lecture slides: Perceptron, "add coordinate x_0 such that x_0 = 1 always").
.. [Wolfe76] P. Wolfe, "Finding the nearest point in a polytope", Mathematical Programming 11 (1976) 128-149.

Examples
--------
OR of x1, x2 over {0,1}^2 with the bias: the margin is that of w = (-1, 2, 2) / 3 ...

>>> from fractions import Fraction as F
>>> g2, p = concept_margin([(0, 0), (0, 1), (1, 0), (1, 1)], [0, 1, 1, 1], bias=True)
>>> g2, p
(Fraction(1, 9), (Fraction(-1, 9), Fraction(2, 9), Fraction(2, 9)))
>>> check_margin([(0, 0), (0, 1), (1, 0), (1, 1)], [0, 1, 1, 1], p, bias=True)
True

... and without it the point 0, labelled 0, is at margin 0 from every w: no margin at all.

>>> concept_margin([(0, 0), (0, 1), (1, 0), (1, 1)], [0, 1, 1, 1], bias=False)[0]
Fraction(0, 1)
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Optional

import numpy as np

__all__ = ["min_norm_point", "concept_margin", "check_margin", "certified", "class_margins", "max_norm2",
           "MarginsTooLarge", "WORK_LIMIT"]

#: The most point-coordinates (concepts x points x dimension) whose margins are computed for a bound.
WORK_LIMIT = 4 * 10**6


class MarginsTooLarge(ValueError):
    """The class is too large for its margins to be computed here."""


def _solve(A: list, b: list) -> Optional[list]:
    """x with A x = b in exact Fractions (Gaussian elimination), or None when A is singular."""
    n = len(A)
    M = [list(map(Fraction, row)) + [Fraction(v)] for row, v in zip(A, b)]
    for col in range(n):
        piv = next((r for r in range(col, n) if M[r][col] != 0), None)
        if piv is None:
            return None
        M[col], M[piv] = M[piv], M[col]
        inv = 1 / M[col][col]
        M[col] = [v * inv for v in M[col]]
        for r in range(n):
            if r != col and M[r][col] != 0:
                f = M[r][col]
                M[r] = [a - f * c for a, c in zip(M[r], M[col])]
    return [M[r][n] for r in range(n)]


def _affine_min(Z: np.ndarray, S: list) -> Optional[list]:
    """The weights alpha (summing to 1) of the point of the affine hull of the rows S of Z nearest the origin."""
    k = len(S)
    G = [[sum(int(u) * int(v) for u, v in zip(Z[a], Z[b])) for b in S] for a in S]
    A = [G[i] + [1] for i in range(k)] + [[1] * k + [0]]
    sol = _solve(A, [0] * k + [1])
    return None if sol is None else sol[:k]


def min_norm_point(Z, *, deadline: Optional[float] = None) -> tuple:
    """The point of the convex hull of the rows of the integer matrix ``Z`` nearest the origin, as a tuple of
    Fractions (all 0 when the hull holds the origin): Wolfe's algorithm, exactly. ``deadline``: a
    ``time.monotonic()`` instant after which :class:`TimeoutError` is raised."""
    Z = _exact(Z)
    m, d = Z.shape
    norms = [sum(int(v) * int(v) for v in z) for z in Z]
    S = [int(np.argmin(np.array(norms, dtype=object)))]
    lam = [Fraction(1)]

    def point(S, lam):
        return [sum((l * int(Z[s, j]) for s, l in zip(S, lam)), Fraction(0)) for j in range(d)]

    x = point(S, lam)
    for _ in range(100 * (m + d) + 100):
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError
        if all(v == 0 for v in x):
            return tuple(x)
        den = math.lcm(*(v.denominator for v in x))
        q = [int(v * den) for v in x]  # x = q / den, in integers
        scores = _scores(Z, q)
        j = int(np.argmin(scores))
        # optimal iff <x, z_j> >= |x|^2, i.e. den * (q . z_j) >= q . q
        if den * int(scores[j]) >= sum(v * v for v in q):
            return tuple(x)
        if j in S:  # (cannot happen in exact arithmetic: x is optimal on its own corral)
            raise RuntimeError("Wolfe's algorithm met a point of its corral again; please report this")
        S.append(j)
        lam.append(Fraction(0))
        while True:  # the minor cycle
            alpha = _affine_min(Z, S)
            if alpha is None:  # (cannot happen: a corral stays affinely independent)
                raise RuntimeError("Wolfe's algorithm met an affinely dependent corral; please report this")
            if all(a > 0 for a in alpha):
                lam = alpha
                x = point(S, lam)
                break
            theta = min(l / (l - a) for l, a in zip(lam, alpha) if a <= 0)
            lam = [(1 - theta) * l + theta * a for l, a in zip(lam, alpha)]
            keep = [i for i, l in enumerate(lam) if l > 0]
            S = [S[i] for i in keep]
            lam = [lam[i] for i in keep]
            x = point(S, lam)
    raise RuntimeError("Wolfe's algorithm did not converge; please report this")


#: Past this absolute value a coordinate is multiplied in Python ints (int64 products and sums could wrap).
SMALL = 2**20


def _exact(Z) -> np.ndarray:
    """The integer matrix ``Z`` as int64 when its products cannot wrap, else as Python ints (dtype object)."""
    Z = np.asarray(Z)
    if Z.dtype == object or Z.size and int(np.max(np.abs(Z.astype(object)))) > SMALL:
        return Z.astype(object)
    return Z.astype(np.int64)


def _scores(Z: np.ndarray, q: list) -> np.ndarray:
    """<z_i, q> for every row of ``Z``, exactly (in Python ints when q or Z is large)."""
    if Z.dtype == object or max(abs(v) for v in q) > SMALL:
        return Z.astype(object) @ np.array(q, dtype=object)
    return Z @ np.array(q, dtype=np.int64)


def certified(Z, p) -> bool:
    """Whether ``p`` (Fractions, not 0) proves that the hull of the rows of the integer matrix ``Z`` is at
    distance at least |p| from the origin: <p, z_i> >= |p|^2 for every row, checked in integers."""
    if not any(p):
        return False
    den = math.lcm(*(Fraction(v).denominator for v in p))
    q = [int(Fraction(v) * den) for v in p]
    scores = _scores(_exact(Z), q)
    return bool(len(scores) == 0 or den * int(min(scores)) >= sum(v * v for v in q))


def _signed(points, labels, bias: bool) -> np.ndarray:
    X = np.array([[int(v) for v in p] for p in points], dtype=object).reshape(len(points), -1)
    if bias:
        X = np.hstack([np.ones((len(X), 1), dtype=object), X])
    y = np.where(np.asarray(labels, dtype=bool), 1, -1).astype(object)
    return _exact(X * y[:, None])


def concept_margin(points, labels, *, bias: bool, deadline: Optional[float] = None) -> tuple:
    """(gamma^2, p): the squared margin of the concept labelling ``points`` (integer vectors) with ``labels``
    (0/1), and the nearest point p of the hull that proves it (w = p / |p|); gamma^2 = |p|^2, exactly."""
    Z = _signed(points, labels, bias)
    p = min_norm_point(Z, deadline=deadline)
    g2 = sum((v * v for v in p), Fraction(0))
    if g2 and not certified(Z, p):  # (the search's answer is used only once its certificate holds)
        raise RuntimeError("a margin's certificate does not check; please report this")
    return g2, p


def check_margin(points, labels, p, *, bias: bool) -> bool:
    """Whether w = p / |p| separates the concept with margin |p|: <p, z_i> >= |p|^2 for every point (p != 0)."""
    return certified(_signed(points, labels, bias), [Fraction(v) for v in p])


def max_norm2(points, bias: bool) -> Optional[int]:
    """R^2 = max |x|^2 over ``points`` (integer vectors), plus 1 for the bias coordinate; None when a point is not
    an integer vector."""
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for p in points for v in p):
        return None
    return max((sum(int(v) * int(v) for v in p) for p in points), default=0) + int(bias)


def class_margins(C, *, bias: bool, deadline: Optional[float] = None) -> dict:
    """The margins of every concept of the finite class ``C`` (points: integer vectors), exactly:
    ``{"R2": max |x|^2 (with the bias coordinate), "gamma2": [gamma_c^2, ...], "witness": [p_c, ...]}``.

    Raises
    ------
    MarginsTooLarge
        Past :data:`WORK_LIMIT` point-coordinates, or points that are not integer vectors.
    TimeoutError
        ``deadline`` passed.
    """
    points = list(C.points)
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for p in points for v in p) \
            or len({len(p) for p in points}) > 1:
        raise MarginsTooLarge(f"the points of {C} are not integer vectors of one length")
    X = np.array([[int(v) for v in p] for p in points], dtype=object).reshape(len(points), -1)
    d = X.shape[1] + bias
    if C.n_concepts * len(points) * d > WORK_LIMIT:
        raise MarginsTooLarge(f"{C} has {C.n_concepts} concepts over {len(points)} points: computing their margins "
                              f"takes more than {WORK_LIMIT:,} point-coordinates")
    R2 = max_norm2(points, bias)
    gammas, witnesses = [], []
    M = np.asarray(C.matrix, dtype=bool)
    for c in range(C.n_concepts):
        g2, p = concept_margin(X, M[c], bias=bias, deadline=deadline)
        gammas.append(g2)
        witnesses.append(p)
    return {"R2": R2, "gamma2": gammas, "witness": witnesses}
