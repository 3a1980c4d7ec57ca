"""The subcube table: Opt of every version space of a class with few distinct points, bottom-up.

The ``table`` engine of :func:`solvers.opt.opt` (not the ``littlestone table`` command, which tabulates
Opt over a grid of classes). Source of the recurrence: [Rivest94] (Opt(C) and the version spaces
xi_b(V, x)); see also :mod:`solvers.opt.search`.

When the points of a class fall into N classes of equal-or-complementary columns (N small), every
version space reachable by examples is the class cut down to a *subcube*: a partial assignment of
labels to the N points. Writing a partial assignment as a ternary number (digit j = 0 or 1 when point
j is labelled, 2 when it is free), the recurrence of [Rivest94] becomes a dynamic programme over all 3^N
subcubes::

    T(p) = -1                                       if no concept lies in subcube p
    T(p) = max(0, max over free j of 1 + min(T(p with j=0), T(p with j=1)))   otherwise

(a free point on which one side is empty contributes 1 + (-1) = 0, i.e. nothing). The table is filled
by sweeping the coordinates with numpy until nothing changes; every value written is a proven lower
bound at all times, so a stopped run still returns a valid lower bound, and at the fixed point every
value is exact. Cost: about N * 3^(N-1) byte operations per sweep; memory 2 * 3^N bytes.

**Why this engine is kept** (issue 19: an engine the generic search comes within 1.5x of is retired).
``scripts/bench_engines.py`` measured the generic search, with its compiled kernel, at 1.8-3.5x the table's
time on all-functions n = 12, 15 (listed or as a raw matrix; idle 2-core machine); where the table is the
slower one (conjunctions n = 3, halfspaces n = 4: 0.35-0.44x, 0.01-0.04x forced), engine ``auto`` never reaches
it, as it runs the search first and moves to the table only after a quarter of the table's estimated cost.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import time

import numpy as np

from .. import interrupts
from .memo import cancelled

__all__ = ["SubcubeTable", "TableStop", "MAX_TABLE_POINTS"]

MAX_TABLE_POINTS = 17


class TableStop(Exception):
    """The time limit ran out while the table was being filled (the table holds valid lower bounds)."""


class SubcubeTable:
    """Opt of every subcube of a class over ``len(points)`` effective points.

    Parameters
    ----------
    C : ConceptClass
    points : sequence of int
        Column indices of ``C``, one per class of equal-or-complementary columns that split ``C``
        (a constant column never splits a version space; an equal or complementary one splits it the
        same way).

    Call :meth:`fill` to compute the values; a stopped fill leaves valid lower bounds.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> T = SubcubeTable(make("thresholds", N=7), range(7)).fill()
    >>> T.value(), T.value(T.child(T.root, 3, 0))    # Opt(C), and Opt once point 3 is labelled 0
    (3, 2)
    """

    def __init__(self, C, points):
        self.C = C
        self.points = list(points)
        N = len(self.points)
        if N > MAX_TABLE_POINTS:
            raise ValueError(f"the table engine handles at most {MAX_TABLE_POINTS} distinct points, not {N}")
        self.N = N
        self.pow3 = [3**j for j in range(N + 1)]
        sub = np.asarray(C.matrix[:, self.points], dtype=np.int64)  # concepts x N
        self.patterns = sub @ np.asarray(self.pow3[:N], dtype=np.int64)  # ternary index of each concept
        self.sweeps = 0
        self.complete = False
        # U[p] = Opt(p) + 1: 0 for an empty subcube, >= 1 otherwise (int8: Opt <= N <= 17).
        U = np.zeros(3**N, dtype=np.int8)
        U[self.patterns] = 1
        for j in range(N):  # nonempty(p with j free) = nonempty(j=0) or nonempty(j=1)
            v = U.reshape(3 ** (N - 1 - j), 3, 3**j)
            np.maximum(v[:, 0, :], v[:, 1, :], out=v[:, 2, :])
        self.U = U

    def fill(self, deadline: float | None = None, progress=None) -> "SubcubeTable":
        """Sweep until the fixed point (raises :class:`TableStop` past ``deadline``, a
        ``time.monotonic()`` instant; the values written so far stay valid lower bounds)."""
        if self.complete:
            return self
        # Hot loop: numpy sweeps over the coordinates until a fixed point.
        N, U = self.N, self.U
        m = np.empty(3 ** (N - 1) if N else 1, dtype=np.int8)
        changed = N > 0
        while changed:
            changed = False
            for j in range(N):
                v = U.reshape(3 ** (N - 1 - j), 3, 3**j)
                mv = m.reshape(3 ** (N - 1 - j), 3**j)
                np.minimum(v[:, 0, :], v[:, 1, :], out=mv)
                np.add(mv, 1, out=mv, where=mv > 0)  # both sides non-empty: a real split
                if not changed and (mv > v[:, 2, :]).any():
                    changed = True
                np.maximum(v[:, 2, :], mv, out=v[:, 2, :])
                interrupts.check()  # a Ctrl-C that numpy swallowed stops the sweeps here
                if deadline is not None and time.monotonic() >= deadline or cancelled():
                    raise TableStop()
            self.sweeps += 1
            if progress is not None:
                progress({"lower": self.value(), "sweeps": self.sweeps})
        self.complete = True
        return self

    # ------------------------------------------------------------------ queries
    @property
    def root(self) -> int:
        return 3**self.N - 1  # every digit 2: nothing labelled yet

    def value(self, p: int | None = None) -> int:
        """Opt of subcube ``p`` (a proven lower bound if the table is not complete)."""
        return int(self.U[self.root if p is None else p]) - 1

    def child(self, p: int, j: int, b: int) -> int:
        """Subcube ``p`` with effective point ``j`` labelled ``b`` (j must be free in p)."""
        return p - (2 - b) * self.pow3[j]

    def is_free(self, p: int, j: int) -> bool:
        return (p // self.pow3[j]) % 3 == 2

    def mistake_tree(self, p: int | None = None, d: int | None = None):
        """A mistake tree of depth ``d`` (default: the value) below subcube ``p``, as nested dicts
        whose ``point`` entries are column indices of the class."""
        p = self.root if p is None else p
        d = self.value(p) if d is None else d
        if d <= 0:
            return None
        for j in range(self.N):
            if not self.is_free(p, j):
                continue
            p0, p1 = self.child(p, j, 0), self.child(p, j, 1)
            if self.U[p0] >= d and self.U[p1] >= d:  # both children have Opt >= d - 1
                return {"point": self.points[j], "0": self.mistake_tree(p0, d - 1), "1": self.mistake_tree(p1, d - 1)}
        raise RuntimeError("internal error: the table does not support the claimed depth")
