"""Version spaces up to isomorphism: a canonical form of a version space's reduced matrix.

The exact search's memo (:mod:`solvers.opt.search`) may key a version space V by the canonical form
of its matrix, so that two version spaces equal up to isomorphism share one entry even where no
symmetry of the whole class relates them.

The reduced matrix of V. Take the rows of C's matrix that are V's concepts; drop the columns constant
on V; orient every column so that V's first concept says 0 on it (a column and its complement are one
split of V); keep one column of each set of equal oriented columns. The result U (``|V|`` rows, one
column per distinct split of V) is what the search itself scans (:meth:`Solver._distinct_splits
<solvers.opt.search.Solver._distinct_splits>`).

Why Opt(V) depends only on U up to permuting rows, permuting columns and complementing columns.
Write Opt(M) for the value of the game of [Rivest94] on the rows of a 0/1 matrix M (the recurrence of
[Rivest94]: -1 with no rows, 0 when no column splits the rows, else the max over the splitting columns x
of 1 + min(Opt(M_x^0), Opt(M_x^1)), M_x^b the rows labelling x with b). By induction on the number of
rows, Opt(M) does not change when one

* permutes the rows (the recurrence never looks at their order) or the columns (a max over all columns);
* complements a column x (it swaps M_x^0 and M_x^1, and min is symmetric; each child's matrix is the
  child of the other's with x complemented, constant on it, so the induction applies);
* deletes a column constant on the rows (it splits nothing, and stays constant on every subset of rows);
* deletes a column equal to another column y, or to y's complement (x and y give the same pair of
  children, and stay equal or complementary on every subset of rows).

Opt(V) is Opt of V's rows of C's matrix, and U is reached from those rows by the last three steps, so
Opt(V) = Opt(U); and version spaces V, W whose reduced matrices are equal up to permuting rows, permuting
columns and complementing columns have Opt(V) = Opt(W).

The canonical form. U is drawn as a vertex-coloured graph: a vertex per row (colour 0); a column whose
two sides have different sizes is one vertex (colour 1) joined to the rows of its smaller side (which
side is smaller does not change when the column is complemented); a column splitting the rows in halves
is two vertices (colour 2), one per side, joined to each other and each to the rows of its side. A
colour-keeping isomorphism of two such graphs maps rows to rows, unbalanced columns to unbalanced columns
(smaller side onto smaller side) and, since the only edges between colour-2 vertices are the pairs,
pairs to pairs, possibly swapping a pair's vertices: it is exactly a row permutation, a column
permutation and a set of complemented columns that map one reduced matrix onto the other, and every
such map is one. bliss (``igraph``'s ``canonical_permutation``) relabels the graph canonically:
isomorphic graphs get the same relabelled graph. From the relabelled graph we read the matrix R: rows
in the order of their new labels, columns in the order of the new label of their vertex (the smaller of
a pair's), each unbalanced column oriented with 1 on its smaller side and each balanced one with 1 on the
side whose vertex has the smaller new label. The key is ``(|V|, columns, R)`` as bytes.

**Equal keys imply equal Opt**, whatever the labelling: R is U with its rows permuted, its columns permuted
and some columns complemented, so two version spaces with the same R both have Opt = Opt(R) (above). This
direction, the one the memo's correctness needs, does not rest on bliss being right: only the other
direction does (isomorphic version spaces get equal keys), which decides how much the memo saves.

Cost. One form builds a graph of at most ``|V| + 2 k`` vertices (k distinct splits) and at most
``|V| k / 2 + k`` edges and runs bliss on it: about 0.1 ms for a few dozen concepts over 16 points, 1-10 ms
for hundreds to thousands of concepts, 5-30 ms for 100-200 concepts with hundreds of distinct splits
(monotone disjunctions n=10 k=3), up to 0.4 s for 4,096 x 4,096 (measured here). :class:`Solver
<solvers.opt.search.Solver>` makes a form only where that pays (its ``_iso_pays``).

The certificate of an entry used up to isomorphism (:meth:`IsoForms.isomorphism`): a map of V's
concepts onto W's and, for every point x splitting V, a point x' and a flag f with
``c(x) XOR f = sigma(c)(x')`` for every concept c of V; the checker
(:func:`solvers.certificates.verify_upper`) tests these equalities on the matrix.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.finite import ConceptClass
>>> C = ConceptClass.from_matrix([[0, 0, 0, 1], [1, 0, 0, 1], [1, 1, 0, 0], [0, 0, 1, 0], [0, 1, 1, 0]])
>>> F = IsoForms(C)
>>> V, W = 0b00111, 0b11100      # concepts {0, 1, 2} and {2, 3, 4}: isomorphic reduced matrices
>>> F.key(V) == F.key(W), F.key(V) == F.key(0b01111)
(True, False)
>>> F.isomorphism(V, W)          # doctest: +NORMALIZE_WHITESPACE
{'concepts': [[0, 2], [1, 4], [2, 3]], 'points': [[0, 0, True], [1, 1, True], [3, 1, False]]}
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..classes.automorphisms import canonical_labels, load_igraph

__all__ = ["IsoForms", "Form"]


@dataclass(frozen=True)
class Form:
    """The canonical form of one version space (see the module docstring).

    Attributes
    ----------
    key : bytes
        ``|V|``, the number of distinct splits k, and the canonical matrix R, as bytes.
    concepts : numpy.ndarray
        V's concept indices, in increasing order.
    row_rank : numpy.ndarray
        ``row_rank[i]``: the row of R that ``concepts[i]`` became.
    points : numpy.ndarray
        The points splitting V.
    column : numpy.ndarray
        For each of ``points``, the column of R its split became.
    flip : numpy.ndarray
        For each of ``points`` (bool): R's column is the point's labels complemented.
    rep : numpy.ndarray
        For each column of R, the position in ``points`` of one point whose split it is.
    """

    key: bytes
    concepts: np.ndarray
    row_rank: np.ndarray
    points: np.ndarray
    column: np.ndarray
    flip: np.ndarray
    rep: np.ndarray


class IsoForms:
    """Canonical forms of the version spaces of one class ``C`` (a listed class: it has a ``matrix``)."""

    def __init__(self, C):
        self._Graph = load_igraph().Graph  # a core dependency
        self.M = np.ascontiguousarray(np.asarray(C.matrix, dtype=bool))
        self.n_concepts = self.M.shape[0]
        self._nbytes = (self.n_concepts + 7) // 8

    def concepts_of(self, V: int) -> np.ndarray:
        """The concept indices of the bitset V, in increasing order."""
        raw = np.frombuffer(V.to_bytes(self._nbytes, "little"), dtype=np.uint8)
        return np.flatnonzero(np.unpackbits(raw, bitorder="little"))

    def key(self, V: int) -> bytes:
        """The canonical key of V (a bitset of >= 2 concepts): equal keys imply equal Opt."""
        return self.form(V).key

    def form(self, V: int) -> Form:
        """The canonical :class:`Form` of V (a bitset of >= 2 concepts)."""
        rows = self.concepts_of(V)
        sub = self.M[rows]
        n = len(rows)
        ones = sub.sum(axis=0)
        points = np.flatnonzero((ones > 0) & (ones < n))
        S = sub[:, points]
        oriented = S ^ S[0]  # first concept says 0 on every column: a split and its complement coincide
        flip0 = S[0].copy()
        packed = np.packbits(oriented.T, axis=1)
        _, first, inverse = np.unique(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(),
                                      return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        U = oriented[:, first]  # n x k, the reduced matrix
        k = U.shape[1]
        # The graph: rows 0..n-1 (colour 0); a column whose two sides differ in size is one vertex (colour 1)
        # joined to its smaller side; a column splitting V in halves is two vertices (colour 2), one per
        # side, joined to each other and each to its side's rows.
        w = U.sum(axis=0)
        half = 2 * w == n
        minority = np.where(half, False, 2 * w > n)  # complement the unbalanced columns whose 1s are more
        hv = np.flatnonzero(half)
        uv = np.flatnonzero(~half)
        vertex = np.empty(k, dtype=np.int64)  # the column's vertex (a balanced column's side 1)
        vertex[uv] = n + np.arange(len(uv))
        base = n + len(uv)
        vertex[hv] = base + 2 * np.arange(len(hv))
        side = U ^ minority[None, :]
        r, c = np.nonzero(side)
        parts = [np.stack([r, vertex[c]], axis=1)]
        if len(hv):
            hU = U[:, hv]
            r0, c0 = np.nonzero(~hU)
            parts.append(np.stack([r0, base + 2 * c0 + 1], axis=1))
            parts.append(np.stack([base + 2 * np.arange(len(hv)), base + 2 * np.arange(len(hv)) + 1], axis=1))
        nv = base + 2 * len(hv)
        colors = [0] * n + [1] * len(uv) + [2] * (2 * len(hv))
        g = self._Graph(n=nv)
        g.add_edges(np.concatenate(parts))
        lab = canonical_labels(g, colors)  # lab[v]: vertex v's canonical label
        row_rank = np.argsort(np.argsort(lab[:n], kind="stable"), kind="stable")
        first_lab = lab[vertex]  # the label of the column's (first) vertex
        orient = minority.copy()
        if len(hv):
            other = lab[base + 2 * np.arange(len(hv)) + 1]
            orient[hv] = first_lab[hv] > other  # 1 = the side whose vertex has the smaller label
            first_lab[hv] = np.minimum(first_lab[hv], other)
        col_order = np.argsort(first_lab, kind="stable")
        col_rank = np.empty(k, dtype=np.int64)
        col_rank[col_order] = np.arange(k)
        R = np.empty((n, k), dtype=bool)
        R[row_rank[:, None], col_rank[None, :]] = U ^ orient[None, :]
        key = n.to_bytes(4, "little") + k.to_bytes(4, "little") + np.packbits(R).tobytes()
        return Form(key, rows, row_rank, points, col_rank[inverse], flip0 ^ orient[inverse], first[col_order])

    def isomorphism(self, V: int, W: int, fV: Form | None = None, fW: Form | None = None) -> dict:
        """The isomorphism from V to W (equal keys), as the upper-bound certificate records it:
        ``{"concepts": [[c, sigma(c)], ...], "points": [[x, x', f], ...]}`` over V's concepts and every
        point x splitting V, with ``c(x) XOR f = sigma(c)(x')`` (checked here; ValueError if not)."""
        fV = fV if fV is not None else self.form(V)
        fW = fW if fW is not None else self.form(W)
        if fV.key != fW.key:
            raise ValueError("the version spaces are not isomorphic (their canonical keys differ)")
        by_rank = np.empty(len(fW.concepts), dtype=np.int64)
        by_rank[fW.row_rank] = fW.concepts
        sigma = by_rank[fV.row_rank]
        # W's point for each column of R, and whether R's column is its labels complemented
        targets = fW.points[fW.rep][fV.column]
        flags = fV.flip ^ fW.flip[fW.rep][fV.column]
        if not np.array_equal(self.M[fV.concepts][:, fV.points] ^ flags, self.M[sigma][:, targets]):
            raise ValueError("internal error: the canonical labelling gave no isomorphism")
        return {"concepts": [[int(a), int(b)] for a, b in zip(fV.concepts, sigma)],
                "points": [[int(x), int(y), bool(f)] for x, y, f in zip(fV.points, targets, flags)]}
