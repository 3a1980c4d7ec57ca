"""The facts a learner's bound needs, for a class that arrives as a matrix: derived from its points when they
can be, or declared by the user and checked where they can be.

A family's ``make`` states its facts (:func:`solvers.learners.base.class_facts`: ``monotone_or`` r, ``monotone_and``
k, ``margin``, ...). A class read from a file states none, so no bound applied to it. Here:

* :func:`derived_facts`: when the points are 0/1 vectors of one length n, ``n``, and ``monotone_or`` r when every
  concept is an OR of at most r coordinates ([15-859B]'s Winnow bound, [Rivest94]'s Winnow1), ``monotone_and`` k
  when every concept is an AND of at most k ([Mehta]'s elimination); each found from the matrix alone.
* :func:`declare`: ``r=3`` (every concept an OR of at most 3 coordinates; checked, exactly) and ``margin=G``
  (every concept separated with margin at least G by a unit w, as the Perceptron reads the points; checked
  exactly when the class is small enough for :mod:`solvers.classes.separation`, else taken as declared).

A concept c is an OR of the coordinates S exactly when every point with a coordinate of S on is labelled 1 and
every point labelled 1 has one on: so S lies within A_c = {i : every point with x_i = 1 is labelled 1}, and c is
an OR of some coordinates iff A_c covers its positive points; the fewest that do is a set cover, found exactly
for small A_c (:data:`EXACT_COVER`), greedily (a valid r, maybe not the least) otherwise. ANDs alike, with 0s.

References
----------
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd" (Winnow, for an OR of r variables)
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model" (learning monotone conjunctions)

Examples
--------
>>> from solvers.classes import ConceptClass
>>> pts = [(0, 0), (0, 1), (1, 0), (1, 1)]
>>> C = ConceptClass.from_matrix([[0, 0, 0, 0], [0, 1, 0, 1], [0, 1, 1, 1]], pts)   # false, x2, x1 v x2
>>> derived_facts(C)
{'n': 2, 'monotone_or': 2}
>>> dict(declare(C, {"r": "2"}).facts)["monotone_or"]
2
>>> declare(C, {"r": "1"})
Traceback (most recent call last):
...
ValueError: --fact r=1 does not hold: concept 2 is an OR of no fewer than 2 coordinates; give r=2
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Optional

import numpy as np

__all__ = ["derived_facts", "declare", "or_size", "FACT_NAMES", "WORK_LIMIT", "EXACT_COVER"]

#: The facts a user may declare (``--fact NAME=VALUE``).
FACT_NAMES = ("r", "margin")
#: The most matrix entries (concepts x points x coordinates) looked at to derive the facts of a class.
WORK_LIMIT = 4 * 10**6
#: Candidate coordinates up to which the fewest covering an OR's positive points are found exactly.
EXACT_COVER = 16
#: Past EXACT_COVER candidates, the most sets tried to decide a declared r.
EXACT_SETS = 10**6


def _boolean_points(C) -> Optional[np.ndarray]:
    """The points of ``C`` as a 0/1 matrix (points x n), or None when they are not 0/1 vectors of one length."""
    pts = C.points
    if not pts or len({len(p) for p in pts}) != 1:
        return None
    try:
        X = np.asarray(pts, dtype=np.int64)
    except (ValueError, TypeError):
        return None
    if X.ndim != 2 or not np.isin(X, (0, 1)).all():
        return None
    return X.astype(bool)


def or_size(labels: np.ndarray, X: np.ndarray, *, at_most: Optional[int] = None) -> Optional[int]:
    """How few coordinates have the concept labelling the rows of ``X`` with ``labels`` as their OR (0 for the
    constant 0), or None when it is no OR of coordinates.

    A greedy cover first; then, below its size, the fewest by trying every smaller set, when there are at most
    :data:`EXACT_COVER` candidates or (``at_most``: is it an OR of at most that many?) the sets of at most
    ``at_most`` of them number at most :data:`EXACT_SETS`. So: the fewest when the candidates are few; with
    ``at_most``, a size <= ``at_most`` when there is one, else a size > ``at_most``; otherwise the greedy size,
    a valid r that may not be the least. :class:`CoverTooLarge` when ``at_most`` cannot be decided."""
    labels = np.asarray(labels, dtype=bool)
    # A: the coordinates on only at positive points
    A = [i for i in range(X.shape[1]) if not (X[:, i] & ~labels).any()]
    pos = np.flatnonzero(labels)
    if not len(pos):
        return 0
    cover = X[np.ix_(pos, A)] if A else np.zeros((len(pos), 0), dtype=bool)
    if not cover.any(axis=1).all():
        return None
    left, greedy = np.ones(len(pos), dtype=bool), 0
    while left.any():
        j = int(np.argmax(cover[left].sum(axis=0)))
        left &= ~cover[:, j]
        greedy += 1
    if at_most is not None and greedy <= at_most:
        return greedy
    top = greedy - 1 if at_most is None else min(greedy - 1, at_most)
    sets = sum(math.comb(len(A), k) for k in range(1, top + 1))
    if len(A) > EXACT_COVER and sets > EXACT_SETS:
        if at_most is not None:
            raise CoverTooLarge(f"deciding whether a concept is an OR of at most {at_most} of its {len(A)} candidate "
                                f"coordinates takes {sets:,} sets")
        return greedy
    for k in range(1, top + 1):
        for S in itertools.combinations(range(len(A)), k):
            if cover[:, S].any(axis=1).all():
                return k
    return greedy


class CoverTooLarge(ValueError):
    """Whether a concept is an OR of at most r coordinates is too costly to decide here."""


def derived_facts(C) -> dict:
    """The facts of the finite class ``C`` that its matrix and points show (see the module docstring); empty
    when its points are not 0/1 vectors or it is larger than :data:`WORK_LIMIT`."""
    X = _boolean_points(C)
    if X is None or C.n_concepts * X.size > WORK_LIMIT:
        return {}
    out: dict = {"n": X.shape[1]}
    M = np.asarray(C.matrix, dtype=bool)
    # c = AND of S iff not c = OR of the negated S; the first concept that is not one settles it (no fact)
    for key, labels, points in (("monotone_or", M, X), ("monotone_and", ~M, ~X)):
        sizes = []
        for c in range(C.n_concepts):
            s = or_size(labels[c], points)
            if s is None:
                break
            sizes.append(s)
        else:
            out[key] = max(sizes, default=0)
    return out


def _number(text: str, what: str):
    try:
        q = Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"--fact {what}={text}: give a number, e.g. {what}=2") from None
    return q


def declare(C, items: dict):
    """``C`` with the facts ``items`` (``{"r": "3", "margin": "1/10"}``) declared: a new class whose ``facts``
    hold them, each checked where it can be (see the module docstring); ValueError (one line, what to change)
    when one does not hold or cannot apply."""
    unknown = sorted(set(items) - set(FACT_NAMES))
    if unknown:
        raise ValueError(f"unknown fact {unknown[0]!r}; declare one of: r=R (every concept an OR of at most R of the "
                         "points' coordinates), margin=G (every concept separated with margin at least G)")
    if not callable(getattr(C, "derived_facts", None)) or getattr(C, "made", True):
        raise ValueError(f"--fact applies to a class read from a matrix file, not {C}")
    facts = dict(C.facts)
    declared: dict = {}
    if "r" in items:
        r = _number(items["r"], "r")
        if r.denominator != 1 or r < 0:
            raise ValueError(f"--fact r={items['r']}: give a whole number >= 0 of variables, e.g. r=2")
        r = int(r)
        X = _boolean_points(C)
        if X is None:
            raise ValueError(f"--fact r={r} says each concept is an OR of coordinates, and the points of {C} are not "
                             "0/1 vectors of one length; drop it")
        M = np.asarray(C.matrix, dtype=bool)
        for c in range(C.n_concepts):
            try:
                s = or_size(M[c], X, at_most=r)
            except CoverTooLarge as e:
                raise ValueError(f"--fact r={r} cannot be checked: {e}; drop it") from None
            if s is None:
                raise ValueError(f"--fact r={r} does not hold: concept {c} is not an OR of coordinates; drop it")
            if s > r:
                k = or_size(M[c], X)  # (an OR of k coordinates: a valid r, the least when the candidates are few)
                raise ValueError(f"--fact r={r} does not hold: concept {c} is an OR of no fewer than {r + 1} "
                                 f"coordinates; give r={k}")
        facts.update(n=X.shape[1], monotone_or=r)
        declared["r"] = r
    if "margin" in items:
        g = _number(items["margin"], "margin")
        if g <= 0:
            raise ValueError(f"--fact margin={items['margin']}: give a margin > 0, e.g. margin=1/10")
        facts["declared_margin"] = g
        declared["margin"] = f"{g.numerator}/{g.denominator}" if g.denominator != 1 else str(g.numerator)
    out = type(C)(C.matrix, C.points, names=C.names, facts=facts)  # (a ConceptClass: finite.py imports this module)
    out._declared = declared
    return out
