"""Canonical keys of version spaces under a class's symmetry group, for the memo of the exact search.

A symmetry g = (pi, f) of C (:mod:`solvers.classes.symmetry`) maps every version space V to one with
the same Opt ([Rivest94]: the game on g(V) is the game on V with the points renamed and, if f = 1,
the labels flipped). A version space reached by examples is named one to one by its *closure*: the
points on which all of V says 1 (``ones``) and those on which all of V says 0 (``zeros``); g maps the
closure (ones, zeros) to (pi(ones), pi(zeros)), swapped when f = 1. The canonical key of V is the least
image over the whole group, so two version spaces share a key exactly when some symmetry maps one onto
the other, and the memo keeps one entry per orbit.

The images are computed for all group elements at once: each mask is cut into bytes, and a table per
byte position gives that byte's image under every element (``tables[b][byte]``: an array over the
group); OR-ing a mask's byte images gives its image under every element. Cost per key: about
``2 * ceil(m / 8)`` gathers of ``order`` machine words; tables of ``ceil(m / 8) * 256 * order`` words.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("thresholds", N=6)
>>> K = Canonical.of(C)
>>> first3, last3 = 0b111, 0b1110000     # thresholds t=1..3 and t=5..7: mirror images
>>> K.key(first3) == K.key(last3), K.key(first3) == K.key(0b11)
(True, False)
"""

from __future__ import annotations

import numpy as np

# The limits of the keys (points, group order, table words) are set beside the group they cut, in the
# classes' layer below this one.
from ..classes.automorphisms import MAX_POINTS, MAX_TABLE_WORDS, group_limit

__all__ = ["Canonical", "MAX_TABLE_WORDS", "byte_tables", "images"]


def byte_tables(perms: np.ndarray) -> np.ndarray:
    """The byte-image tables of a list of point permutations (``perms``: one row per element, ``perms[g, x]`` the
    image of point x): ``tables[b, v]`` is the image, under every element, of the mask whose byte b is v (the other
    bytes 0), one machine word per element."""
    m = perms.shape[1]
    tables = np.zeros(((m + 7) // 8, 256, len(perms)), dtype=np.uint64)
    one = np.uint64(1)
    for x in range(m):
        b, bit = divmod(x, 8)
        image = np.left_shift(one, perms[:, x].astype(np.uint64))  # bit pi(x), per element
        has = ((np.arange(256) >> bit) & 1).astype(bool)
        tables[b, has] |= image
    return tables


def images(tables: np.ndarray, mask: int) -> np.ndarray:
    """The image of a set of points (a bit mask) under every element of :func:`byte_tables`' ``tables``."""
    out = tables[0, mask & 255].copy()
    b = 1
    mask >>= 8
    while mask:
        v = mask & 255
        if v:
            out |= tables[b, v]
        mask >>= 8
        b += 1
    return out


class Canonical:
    """Canonical keys of version spaces of ``C`` under its symmetry group (build with :meth:`of`).

    Attributes
    ----------
    order : int
        The number of group elements.
    """

    def __init__(self, C, symmetry):
        perms, flips = symmetry.elements()
        m = C.n_points
        self.order = len(flips)
        self.m = m
        self.columns = C.columns
        self.tables = byte_tables(perms)
        self.flips = flips
        self.any_flip = bool(flips.any())
        self.wide = m > 32

    @classmethod
    def of(cls, C, group=None) -> "Canonical | None":
        """The canonical keys of ``C`` under ``group`` (a :class:`~solvers.classes.symmetry.Symmetry` of C
        checked on its matrix; default: C's declared group, checked here), or None when there is none,
        C has more than :data:`MAX_POINTS` points, or the group more than :data:`MAX_GROUP` elements or
        tables past :data:`MAX_TABLE_WORDS`."""
        if group is None:
            if C.symmetry is None:
                return None
            group = C.checked_symmetry()
        if group.trivial or C.n_points > MAX_POINTS:
            return None
        G = group
        try:
            G.elements(limit=group_limit(C.n_points))
        except ValueError:  # too many elements for the tables
            return None
        return cls(C, G)

    def closure(self, V: int) -> tuple[int, int]:
        """(ones, zeros): the points where every concept of V says 1, and where every one says 0."""
        ones = zeros = 0
        bit = 1
        for col in self.columns:
            s = col & V
            if s == V:
                ones |= bit
            elif not s:
                zeros |= bit
            bit <<= 1
        return ones, zeros

    def key(self, V: int) -> int:
        """The canonical key of version space V (a non-empty bitset over the concepts, reached by
        examples): equal keys exactly when a symmetry maps one version space onto the other. Keys are
        negative, so that a memo may hold them beside bitsets."""
        ones, zeros = self.closure(V)
        A = images(self.tables, ones)
        B = images(self.tables, zeros)
        if self.any_flip:
            A, B = np.where(self.flips, B, A), np.where(self.flips, A, B)
        if not self.wide:
            return ~int(((A << np.uint64(32)) | B).min())
        first = A.min()
        return ~((int(first) << 64) | int(B[A == first].min()))
