"""Classes listed by their concepts and points whose labels are computed, never stored: thresholds,
intervals and rectangles at sizes where the |C| x |X| matrix is too large to build, and halfspaces on
{0,1}^6 (15,028,134 concepts), held as one 64-bit truth table per concept.

A :class:`~solvers.classes.finite.ConceptClass` stores the truth table of every concept; thresholds on
{1..100000} would need 10^10 cells. An :class:`EvaluatedClass` keeps each concept's parameters instead
(a threshold t; an interval's ends a, b; a rectangle's four ends; a threshold function's truth table over
the 2^n <= 64 points, from :func:`~solvers.classes.families.boolean.halfspace_tables`) and computes a label
from it when asked, for many (concept, point) pairs at once with numpy. Its concepts and
points are those of :func:`solvers.classes.families.make` in the same order, so a certificate written for
one (a mistake tree naming points by column index, an upper-bound certificate naming version spaces by
labelled paths) is read the same way by the other.

It is what the certificate checkers of :mod:`solvers.certificates` read when there is no matrix: they need
only ``n_concepts``, ``n_points`` and :meth:`EvaluatedClass.labels`. It does not implement the whole
class protocol of :mod:`solvers.classes.protocol` (no bitset version spaces over 10^5 concepts): the
solvers of :mod:`solvers.opt.intervals` and :mod:`solvers.opt.rectangles` work on states, not on sets of
concepts.

The labels follow the families' docstrings ([Rivest94], section 2.3.2 for thresholds):

* thresholds N: concept t = 1..N+1 labels x 1 iff x >= t (t = N+1: the empty concept);
* intervals N [empty]: [a, b] labels x 1 iff a <= x <= b, lexicographic in (a, b), then the empty concept;
* rectangles N: [a1, b1] x [a2, b2] labels (i, j) 1 iff a1 <= i <= b1 and a2 <= j <= b2, lexicographic in
  ((a1, b1), (a2, b2)), then the empty rectangle. Point (i, j) is column (i - 1) N + (j - 1);
* halfspaces n: concept c labels point j (of {0,1}^n in ``itertools.product`` order) by bit j of its truth
  table, the concepts sorted by their tables read as integers (as ``make`` sorts them).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> C = EvaluatedClass("intervals", {"N": 4})
>>> C.n_concepts, C.n_points, C.points[:2]
(11, 4, ((1,), (2,)))
>>> C.labels([1, 1, 10], [0, 2, 0]).astype(int).tolist()   # [1, 2] on x = 1 and x = 3; the empty concept
[1, 0, 0]
>>> import numpy as np
>>> from solvers.classes.families import make
>>> np.array_equal(C.block(np.arange(C.n_concepts)), make("intervals", N=4).matrix)
True
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from . import families
from .families import check_limits

__all__ = ["EvaluatedClass", "EVALUATED_FAMILIES", "beyond_matrix"]

#: The families an :class:`EvaluatedClass` can hold.
EVALUATED_FAMILIES = ("thresholds", "intervals", "rectangles", "halfspaces")

_BLOCK_CELLS = 1 << 24  # labels computed per numpy call in EvaluatedClass.ones

#: The most concepts an :class:`EvaluatedClass` holds (2^25: halfspaces on {0,1}^6 has 15,028,134; thresholds
#: N = 10^7 takes about 2 GB and half a minute to solve).
MAX_CONCEPTS = 2**25


def _count(family: str, params: dict, N: int) -> int:
    """The concepts of ``family`` on {1..N} (its N x N grid for rectangles)."""
    if family == "thresholds":
        return N + 1
    m = N * (N + 1) // 2
    return m + bool(params.get("empty")) if family == "intervals" else m * m + 1


def _check_size(family: str, params: dict) -> None:
    """A one-line ValueError naming the largest N when the class would hold more than :data:`MAX_CONCEPTS`
    concepts (before anything is allocated: N = 10^20 said "Maximum allowed size exceeded")."""
    N = params["N"]
    if _count(family, params, N) <= MAX_CONCEPTS:
        return
    lo, hi = 0, N  # the largest N within the limit, by bisection
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if _count(family, params, mid) <= MAX_CONCEPTS else (lo, mid - 1)
    raise ValueError(f"{family} N={N} is too large: it has more than 2^25 = {MAX_CONCEPTS:,} concepts, more than "
                     f"littlestone lists; give N at most {lo}")


def beyond_matrix(family: str, params: dict) -> bool:
    """True when ``family`` has an evaluated form and ``make`` would refuse ``params`` only for the size of
    the matrix (``MAX_CELLS`` cells or ``MAX_POINTS`` points). Bad parameters raise ``make``'s ValueError.

    Examples
    --------
    >>> beyond_matrix("thresholds", {"N": 100}), beyond_matrix("thresholds", {"N": 10**5})
    (False, True)
    """
    if family not in EVALUATED_FAMILIES:
        return False
    full = families.resolve_params(family, dict(params), limits=False)
    try:
        check_limits(families.FAMILIES[family], full)
    except ValueError:
        return True
    return False


def _interval_ends(N: int) -> tuple[np.ndarray, np.ndarray]:
    """The ends (a, b), 1 <= a <= b <= N, of the intervals on {1..N} in lexicographic order."""
    a, b = np.triu_indices(N)
    return (a + 1).astype(np.int64), (b + 1).astype(np.int64)


class EvaluatedClass:
    """A class of :data:`EVALUATED_FAMILIES` with its labels computed from each concept's parameters.

    Parameters
    ----------
    family : str
        ``"thresholds"``, ``"intervals"``, ``"rectangles"`` or ``"halfspaces"`` (n <= 6).
    params : dict
        Its parameters, checked as ``make`` checks them but without ``make``'s size limits.

    Raises
    ------
    ValueError
        One line: another family, or parameters ``make`` would refuse for what they are (not for size).
    """

    def __init__(self, family: str, params: dict):
        if family not in EVALUATED_FAMILIES:
            raise ValueError(f"{family!r} has no evaluated form; the families with one are {', '.join(EVALUATED_FAMILIES)}")
        self.family = family
        self.params = dict(families.resolve_params(family, dict(params), limits=False))
        self._points = None
        self.tables = None
        if family == "halfspaces":
            from .families.boolean import halfspace_tables

            self.N = 1 << self.params["n"]
            self.tables = halfspace_tables(self.params["n"])  # (sorted: make's row order)
            self._ends = (self.tables,)
            return
        N = self.params["N"]
        _check_size(family, self.params)
        self.N = N
        if family == "thresholds":
            self._ends = (np.arange(1, N + 2, dtype=np.int64),)
        elif family == "intervals":
            a, b = _interval_ends(N)
            if self.params["empty"]:
                a, b = np.append(a, 1), np.append(b, 0)  # [1, 0] holds no point: the empty concept
            self._ends = (a, b)
        else:
            a, b = _interval_ends(N)
            M = len(a)
            rows, cols = np.divmod(np.arange(M * M, dtype=np.int64), M)
            self._ends = tuple(np.append(v, e) for v, e in ((a[rows], 1), (b[rows], 0), (a[cols], 1), (b[cols], 0)))

    # ------------------------------------------------------------------ the class
    @property
    def n_concepts(self) -> int:
        return len(self._ends[0])

    def __len__(self) -> int:
        return self.n_concepts

    @property
    def n_points(self) -> int:
        return self.N * self.N if self.family == "rectangles" else self.N

    @property
    def points(self) -> tuple[tuple[int, ...], ...]:
        """The points in ``make``'s order: (x,) on {1..N}, (i, j) row-major on the grid."""
        if self._points is None:
            N = self.N
            if self.family == "halfspaces":
                import itertools

                self._points = tuple(itertools.product((0, 1), repeat=self.params["n"]))
            elif self.family == "rectangles":
                self._points = tuple((i, j) for i in range(1, N + 1) for j in range(1, N + 1))
            else:
                self._points = tuple((x,) for x in range(1, N + 1))
        return self._points

    @property
    def facts(self):
        return MappingProxyType({})

    def log2_size(self) -> int:
        """floor(log2 |C|): the Halving bound."""
        return self.n_concepts.bit_length() - 1

    def concept_text(self, c: int):
        return families.concept_text(self.family, self.params, int(c))

    def to_spec(self) -> dict:
        return {"family": self.family, "params": dict(self.params)}

    def fingerprint(self) -> str:
        """The class's fingerprint: of its family and parameters (:func:`~solvers.classes.protocol.spec_fingerprint`)."""
        from .protocol import spec_fingerprint

        return spec_fingerprint(self.to_spec())

    def __repr__(self) -> str:
        return f"<EvaluatedClass {self.family} {self.params}: {self.n_concepts} concepts x {self.n_points} points>"

    def __str__(self) -> str:
        return f"{self.family} {' '.join(f'{k}={v}' for k, v in self.params.items())}"

    # ------------------------------------------------------------------ labels
    def labels(self, concepts, columns) -> np.ndarray:
        """The labels concept ``concepts[k]`` gives the point of column ``columns[k]``, as a bool array
        (the two arrays broadcast against each other)."""
        c = np.asarray(concepts, dtype=np.int64)
        j = np.asarray(columns, dtype=np.int64)
        if self.family == "halfspaces":
            return ((self.tables[c] >> j.astype(np.uint64)) & np.uint64(1)).astype(bool)
        if self.family == "rectangles":
            i, jj = np.divmod(j, self.N)
            i, jj = i + 1, jj + 1
            a1, b1, a2, b2 = (e[c] for e in self._ends)
            return (a1 <= i) & (i <= b1) & (a2 <= jj) & (jj <= b2)
        x = j + 1
        if self.family == "thresholds":
            return x >= self._ends[0][c]
        a, b = self._ends
        return (a[c] <= x) & (x <= b[c])

    def block(self, concepts) -> np.ndarray:
        """The rows of ``concepts`` over every point: a bool array (len(concepts), n_points)."""
        c = np.asarray(concepts, dtype=np.int64)
        return self.labels(c[:, None], np.arange(self.n_points)[None, :])

    def ones(self, concepts) -> np.ndarray:
        """For every point, how many of ``concepts`` label it 1 (a block of rows at a time)."""
        c = np.asarray(concepts, dtype=np.int64)
        out = np.zeros(self.n_points, dtype=np.int64)
        step = max(1, _BLOCK_CELLS // max(1, self.n_points))
        for start in range(0, len(c), step):
            out += self.block(c[start:start + step]).sum(axis=0)
        return out
