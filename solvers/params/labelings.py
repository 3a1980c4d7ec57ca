"""Passes over every labelling f of a class's points, for the parameters defined by a maximum or minimum over
labellings that need not be concepts (the extended teaching dimension, the minimum star number).

:func:`sweep` computes, for every f in {0,1}^n at once (numpy over the 2^n labellings, one array per depth), the
OR (or AND) over the sets S of k points of ``flags(S)[f restricted to S]``, where ``flags`` marks patterns on S
from the class's own patterns there. The sets are walked depth first, so a prefix's patterns are made once.

Its cost is about C(n, k) passes over 2^n labellings: :data:`MAX_POINTS` bounds n.
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

__all__ = ["sweep", "MAX_POINTS", "labels_of", "TooManyPoints"]

#: The most points a sweep takes (2^22 labellings, 16 MB an array).
MAX_POINTS = 22


class TooManyPoints(ValueError):
    """The class has more points than :data:`MAX_POINTS`."""


def labels_of(f: int, n: int) -> list:
    """The labelling ``f`` (bit x: the label of point x) as a list of n 0/1 labels."""
    return [(f >> x) & 1 for x in range(n)]


def sweep(M, k: int, flags: Callable[[np.ndarray, int], np.ndarray], *, every: bool = False,
          look: Optional[Callable[[], None]] = None) -> np.ndarray:
    """For each labelling f of the n points of the 0/1 matrix ``M`` (index f, bit x the label of point x): the OR
    over the sets S of k points (the AND with ``every``) of ``flags(patterns, k)[f on S]``, where ``patterns`` are
    the concepts' patterns on S (bit j: the label at the j-th point of S) and ``flags`` returns a bool array over
    the 2^k patterns. ``look()`` is called once per set (it may raise to stop). Stops early once every labelling
    is True (OR) or none is (AND)."""
    M = np.asarray(M, dtype=np.int64)
    m, n = M.shape
    if n > MAX_POINTS:
        raise TooManyPoints(f"{n} points: at most {MAX_POINTS} for a pass over every labelling")
    F = np.arange(1 << n, dtype=np.int64)
    out = np.full(1 << n, every, dtype=bool)
    if k > n:
        return out  # no set of k points: the empty OR (False) or AND (True)

    def go(start: int, depth: int, fpat: np.ndarray, cpat: np.ndarray) -> bool:
        if depth == k:
            if look is not None:
                look()
            got = np.asarray(flags(cpat, k), dtype=bool)[fpat]
            if every:
                out[...] &= got
                return not out.any()
            out[...] |= got
            return bool(out.all())
        for x in range(start, n - (k - depth) + 1):
            if go(x + 1, depth + 1, fpat | (((F >> x) & 1) << depth), cpat | (M[:, x] << depth)):
                return True
        return False

    go(0, 0, np.zeros(1 << n, dtype=np.int64), np.zeros(m, dtype=np.int64))
    return out
