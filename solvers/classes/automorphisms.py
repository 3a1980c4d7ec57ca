"""The symmetry group of any finite class, found by graph automorphism (bliss, through igraph).

A symmetry of a class C is a renaming pi of the points, possibly with every label complemented
(:mod:`solvers.classes.symmetry`), that maps the set of concepts onto itself; the game of
[Rivest94] on C is then the same game, so the search keeps one version space per orbit. Families may
declare their group; any other class (a matrix file, :meth:`ConceptClass.from_matrix
<solvers.classes.finite.ConceptClass.from_matrix>`, a family that declares none) gets it here.

The group is the automorphism group of a vertex-coloured graph, computed by bliss
(``igraph.Graph.automorphism_group``): a vertex per concept (one colour), a vertex per point (a colour
per size of its class of equal columns, see below), and

* when no symmetry can complement the labels (the column sums m - s are not a rearrangement of the
  sums s): each concept joined to the points where it says 1 (or, when fewer, where it says 0);
* otherwise: two literal vertices per point, "x = 1" and "x = 0", both joined to the point's vertex;
  two vertices ONE and ZERO (a colour of their own) joined to every "x = 1" and every "x = 0" literal;
  each concept joined to the literal it satisfies at each point.

An automorphism a of the graph maps concept vertices to concept vertices and point vertices to point
vertices; pi(x) is the point a sends x's vertex to, and the labels are complemented exactly when a
swaps ONE and ZERO (the second graph) -- then concept c goes to the concept g(c) with g(c)(pi(x)) =
c(x) XOR f, so g maps C onto itself. Conversely every symmetry of C gives such an automorphism. Every
generator is checked on the matrix (:meth:`Symmetry.check <solvers.classes.symmetry.Symmetry.check>`)
all the same.

Points whose columns are equal. k equal columns give k! renamings that fix every version space (both
points always lie on the same side of a closure), so they only inflate the group. The graph is built
on one point per class of equal columns, coloured by the class's size, and each renaming it finds is
lifted to the points (the t-th point of one class to the t-th of its image): the search gets every
orbit of version spaces that the whole group has, from a group smaller by the product of the k!
(:attr:`Detection.order` is that group's order; :attr:`Detection.full_order` the whole group's).

Cost. Building the graph and running bliss cost about a microsecond per matrix entry on this kind of
machine (measured: 9,272 x 16 random, 0.05 s; decision lists n=5, 15,036 x 32, 0.5 s; halfspaces n=5,
94,572 x 32, 3-5 s; intervals N=200, 20,101 x 200, 3-5 s). Detection is skipped past
:data:`MAX_ENTRIES` entries, and for classes over more than 64 points, which the canonical keys of
:mod:`solvers.opt.canonical` do not cover. The search asks for it only once it has expanded a few
thousand nodes, so a small search never pays for it.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.finite import ConceptClass
>>> C = ConceptClass.from_matrix([[1, 0, 0], [0, 1, 0], [0, 0, 1]])   # the singletons over 3 points
>>> D = detect(C)
>>> D.source, D.order
('detected', 6)
>>> thresholds = ConceptClass.from_matrix([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]])
>>> detect(thresholds).order        # the mirror image, with the labels complemented
2
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .symmetry import Symmetry

__all__ = ["Detection", "detect", "find_symmetry", "estimated_seconds", "group_limit", "MAX_ENTRIES", "MAX_POINTS"]

#: The largest matrix (concepts x points) whose group is computed: past it detection costs more than
#: 10 s here, more than the memo saves on the searches that size allows (see the module docstring).
MAX_ENTRIES = 4_000_000
#: The largest number of points a canonical key covers (:data:`solvers.opt.canonical.MAX_POINTS`).
MAX_POINTS = 64


#: Seconds per matrix entry that building the graph and running bliss take here (measured, see above),
#: and the fixed part (importing igraph, the checks).
SECONDS_PER_ENTRY = 1.5e-6
SECONDS_FIXED = 0.05


def estimated_seconds(C) -> float:
    """What :func:`detect` is expected to take on ``C`` (a rough model of this kind of machine): the
    search asks for the group only once it has itself spent that long, so detection never costs much
    more than the search it serves."""
    return SECONDS_FIXED + SECONDS_PER_ENTRY * C.n_concepts * C.n_points


def group_limit(n_points: int) -> int:
    """The most group elements the canonical keys of :mod:`solvers.opt.canonical` take over
    ``n_points`` points (the lesser of its MAX_GROUP and what its byte tables hold)."""
    from ..opt.canonical import MAX_GROUP, MAX_TABLE_WORDS

    return min(MAX_GROUP, MAX_TABLE_WORDS // (max(1, (n_points + 7) // 8) * 256))


@dataclass(frozen=True)
class Detection:
    """The outcome of :func:`detect`.

    Attributes
    ----------
    group : Symmetry or None
        The group the search may use (checked on the matrix), None when only the identity was found
        or detection was skipped.
    source : str
        ``"detected"``, ``"none"`` (only the identity) or ``"skipped: <why>"``.
    seconds : float
        Time spent (0 when skipped).
    order : int or None
        The order of ``group``.
    full_order : int or None
        The order of the whole group found: ``order`` times the renamings of equal columns; None when
        ``group`` is a subgroup (``subgroup``) or detection was skipped.
    subgroup : bool
        True when the group found had more elements than the canonical keys take
        (:func:`group_limit`): ``group`` is then the subgroup of the generators added while it stayed
        within the limit.
    """

    group: Optional[Symmetry]
    source: str
    seconds: float = 0.0
    order: Optional[int] = None
    full_order: Optional[int] = None
    subgroup: bool = False


def find_symmetry(C) -> Optional[Symmetry]:
    """The symmetry group of ``C`` as :func:`detect` finds it (None when trivial or skipped)."""
    return detect(C).group


def detect(C, *, max_entries: int = MAX_ENTRIES, max_points: int = MAX_POINTS,
           limit: int | None = None) -> Detection:
    """The group of symmetries of the finite class ``C`` (renamings of the points, each with or without
    the labels complemented, that map the concepts onto themselves), by bliss on a coloured graph.

    Parameters
    ----------
    C : ConceptClass
    max_entries, max_points : int
        Skip classes whose matrix has more entries, or more points (the default: what the search can use).
    limit : int, optional
        The most elements the group kept may have (default :func:`group_limit`): past it a subgroup.

    Returns
    -------
    Detection
    """
    m, n = C.n_concepts, C.n_points
    if n == 0:
        return Detection(None, "none", full_order=1)
    if n > max_points:
        return Detection(None, f"skipped: {n} points, more than the {max_points} the canonical keys cover")
    if m * n > max_entries:
        return Detection(None, f"skipped: a {m} x {n} matrix, past the {max_entries:,} entries where "
                               "detection costs more than it saves")
    t0 = time.perf_counter()
    M = np.asarray(C.matrix, dtype=bool)
    reps, classes = _equal_columns(M)
    R = M[:, reps]
    gens = _automorphisms(R, [len(cl) for cl in classes])
    lifted = []
    for perm, flip in gens:
        full = [0] * n
        for i, k in enumerate(perm):
            for a, b in zip(classes[i], classes[k]):
                full[a] = b
        lifted.append((tuple(full), flip))
    lifted = [g for g in lifted if _is_symmetry(g, M, n)]
    cap = group_limit(n) if limit is None else limit
    G = Symmetry(lifted, n)
    subgroup = False
    try:
        order = len(G.elements(cap)[1])
    except ValueError:
        subgroup = True
        kept: list = []
        for g in lifted:  # greedily, the generators that keep the group within the limit
            H = Symmetry(kept + [g], n)
            try:
                H.elements(cap)
            except ValueError:
                continue
            kept.append(g)
        G = Symmetry(kept, n)
        order = len(G.elements(cap)[1])
    seconds = time.perf_counter() - t0
    equal = math.prod(math.factorial(len(cl)) for cl in classes)
    full_order = None if subgroup else order * equal
    if G.trivial:
        return Detection(None, "none", seconds, None, full_order, subgroup)
    return Detection(G, "detected", seconds, order, full_order, subgroup)


def _equal_columns(M: np.ndarray) -> tuple[list[int], list[list[int]]]:
    """One point per class of equal columns (its first), and each class's points in order."""
    packed = np.ascontiguousarray(np.packbits(M.T, axis=1))
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # classes in the order of their first point
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    classes: list[list[int]] = [[] for _ in order]
    for j, c in enumerate(np.asarray(inverse).ravel()):
        classes[rank[c]].append(j)
    return [cl[0] for cl in classes], classes


def _is_symmetry(g, M: np.ndarray, n: int) -> bool:
    try:
        Symmetry([g], n).check(M)
    except ValueError:
        return False
    return True


def _automorphisms(R: np.ndarray, sizes: list[int]) -> list[tuple[tuple[int, ...], bool]]:
    """Generators (pi, f) of the group of the class with matrix ``R`` (distinct columns; column j stands
    for ``sizes[j]`` equal points, which only a point of the same size may replace)."""
    igraph = _igraph()
    m, n = R.shape
    sums = R.sum(axis=0)
    can_flip = np.array_equal(np.sort(sums), np.sort(m - sums))
    _, size_colour = np.unique(np.asarray(sizes), return_inverse=True)
    size_colour = np.asarray(size_colour).ravel() + 1  # point colours 1.., concepts 0
    P = m  # point vertices P .. P + n - 1
    j = np.arange(n)
    if not can_flip:
        ones = int(sums.sum())
        rows, cols = np.nonzero(R if 2 * ones <= m * n else ~R)
        edges = np.stack([rows, P + cols], axis=1)
        colour = np.concatenate([np.zeros(m, dtype=np.int64), size_colour])
    else:
        top = int(size_colour.max()) + 1
        L1, L0 = P + n, P + 2 * n  # literal vertices "x = 1" and "x = 0"
        ONE, ZERO = P + 3 * n, P + 3 * n + 1
        r1, c1 = np.nonzero(R)
        r0, c0 = np.nonzero(~R)
        edges = np.concatenate([
            np.stack([r1, L1 + c1], axis=1), np.stack([r0, L0 + c0], axis=1),
            np.stack([P + j, L1 + j], axis=1), np.stack([P + j, L0 + j], axis=1),
            np.stack([np.full(n, ONE), L1 + j], axis=1), np.stack([np.full(n, ZERO), L0 + j], axis=1)])
        colour = np.concatenate([np.zeros(m, dtype=np.int64), size_colour,
                                 np.full(2 * n, top), np.full(2, top + 1)])
    g = igraph.Graph(n=len(colour), edges=np.ascontiguousarray(edges, dtype=np.int64))
    out = []
    for a in g.automorphism_group(color=colour.tolist()):
        perm = tuple(int(a[P + x]) - P for x in range(n))
        flip = can_flip and a[P + 3 * n] == P + 3 * n + 1
        out.append((perm, bool(flip)))
    return out


def _igraph():
    """The igraph module, imported without its drawing support pulling in matplotlib when that is not
    loaded yet (0.35 s of the 0.38 s the import takes here; bliss needs none of it)."""
    import sys

    if "igraph" in sys.modules or "matplotlib" in sys.modules:
        import igraph

        return igraph
    sys.modules["matplotlib"] = None  # an import of it fails: igraph then draws nothing
    try:
        import igraph
    finally:
        if sys.modules.get("matplotlib", 0) is None:
            del sys.modules["matplotlib"]
    return igraph
