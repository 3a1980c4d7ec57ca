"""The symmetry group of any finite class, found by graph automorphism (bliss, through igraph).

A symmetry of a class C is a renaming pi of the points, possibly with every label complemented
(:mod:`solvers.classes.symmetry`), that maps the set of concepts onto itself; the game of
[Rivest94] on C is then the same game, so the search keeps one version space per orbit. Families may
declare their group; any other class (a matrix file, :meth:`ConceptClass.from_matrix
<solvers.classes.finite.ConceptClass.from_matrix>`, a family that declares none) gets it here.

The renamings (f = 0) are the automorphisms of a vertex-coloured bipartite graph, computed by bliss
(``igraph.Graph.automorphism_group``): a vertex per concept (one colour), a vertex per point (a colour
per size of its class of equal columns, see below), each concept joined to the points where it says 1.
An automorphism maps concepts to concepts and points to points, pi(x) the point x's vertex goes to,
and keeps the edges: it maps C onto itself, and every renaming that does so is one. A symmetry that
complements the labels is an isomorphism from that graph to the graph of the complemented class (each
concept joined to the points where it says 0), found by ``isomorphic_bliss`` when the row and column
sums allow one; with the renamings it generates the whole group. (A single graph with a literal
vertex per point and label, whose automorphisms may swap the labels, finds the same group, but bliss
took 450 s on it for a random 125,000 x 64 class closed under complement, where the bipartite graphs
take a second: every concept there has the same degree, so colour refinement splits nothing.) Every
generator is checked on the matrix (:meth:`Symmetry.check <solvers.classes.symmetry.Symmetry.check>`)
all the same.

Points whose columns are equal. k equal columns give k! renamings that fix every version space (both
points always lie on the same side of a closure), so they only inflate the group. The graph is built
on one point per class of equal columns, coloured by the class's size, and each renaming it finds is
lifted to the points (the t-th point of one class to the t-th of its image): the search gets every
orbit of version spaces that the whole group has, from a group smaller by the product of the k!
(:attr:`Detection.order` is that group's order; :attr:`Detection.full_order` the whole group's).

Cost. Building the graphs and running bliss cost up to about 1.5 microseconds per matrix entry on this
kind of machine (measured: random 9,272 x 16, 0.01 s; decision lists n=5, 15,036 x 32, 0.5 s;
halfspaces n=5, 94,572 x 32, 4.4-5.0 s, of which bliss 1.2 s for the renamings and 2.5 s for the
complement; random 125,000 x 64, 1.0 s, and closed under complement, 2.4 s and 0.6 GB). Detection is
skipped past :data:`MAX_ENTRIES` entries, and for classes over more than 64 points, which the
canonical keys of :mod:`solvers.opt.canonical` do not cover. The search asks for the group only after
its first 2,000 nodes, and once it has itself spent what detection is expected to cost
(:func:`estimated_seconds`): a search that ends sooner never pays for it, and one that needs it pays
at most what it had already spent. bliss holds the interpreter while it runs, so a detection expected to
take more than :data:`IN_CHILD_FROM` seconds runs it in a forked child process (:func:`_in_child`), which
a Ctrl-C kills at once (it used to land only when bliss returned: 2.5 s late on halfspaces n=5).

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
import os
import sys
import time
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .symmetry import Symmetry

__all__ = ["Detection", "detect", "detect_async", "Pending", "find_symmetry", "estimated_seconds", "group_limit", "load_igraph", "canonical_labels", "settled_by_invariants", "MAX_ENTRIES",
           "MAX_POINTS", "MAX_GROUP", "MAX_TABLE_WORDS"]

#: The largest matrix (concepts x points) whose group is computed (up to about 12 s and 1 GB here, see
#: the module docstring); past it the search goes without.
MAX_ENTRIES = 8_000_000
#: The largest number of points a canonical key of :mod:`solvers.opt.canonical` covers (one machine word
#: per mask). The limits of the keys live here, with the group they cut, so that the classes do not
#: import the solver (the search is the layer above: docs/how-it-works/architecture.md).
MAX_POINTS = 64
#: The largest group the canonical keys use: a key costs about ``order`` word operations, so past this it
#: costs more than the nodes it saves (halfspaces on {0,1}^5: 7680 elements).
MAX_GROUP = 10_000
#: The largest byte-image tables a :class:`~solvers.opt.canonical.Canonical` builds (in 64-bit words;
#: 32 Mi words = 256 MiB).
MAX_TABLE_WORDS = 32 * 2**20


#: Seconds per matrix entry that building the graph and running bliss take here (measured, see above),
#: and the fixed part (loading igraph's compiled core, 3 ms: :func:`load_igraph`; the checks).
SECONDS_PER_ENTRY = 1.5e-6
SECONDS_FIXED = 0.01


def estimated_seconds(C) -> float:
    """What :func:`detect` is expected to take on ``C`` (a rough model of this kind of machine): the
    search asks for the group only once it has itself spent that long, so detection never costs much
    more than the search it serves."""
    return SECONDS_FIXED + SECONDS_PER_ENTRY * C.n_concepts * C.n_points


def group_limit(n_points: int) -> int:
    """The most group elements the canonical keys of :mod:`solvers.opt.canonical` take over
    ``n_points`` points (the lesser of :data:`MAX_GROUP` and what :data:`MAX_TABLE_WORDS` of byte
    tables hold)."""
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
    early = _without_bliss(C, max_entries, max_points)
    if early is not None:
        return early
    t0, M, reps, classes = time.perf_counter(), *_distinct_columns(C)
    R = M[:, reps]
    sizes = [len(cl) for cl in classes]
    if estimated_seconds(C) > IN_CHILD_FROM and hasattr(os, "fork"):
        gens = _in_child(_automorphisms, R, sizes)  # (a Ctrl-C stops it at once)
    else:
        gens = _automorphisms(R, sizes)
    return _detection(gens, M, classes, limit, t0)


def _without_bliss(C, max_entries: int, max_points: int) -> Optional[Detection]:
    """The :class:`Detection` of ``C`` where bliss is not run (no points; past the limits; invariants that prove
    the group trivial), else None."""
    m, n = C.n_concepts, C.n_points
    if n == 0:
        return Detection(None, "none", full_order=1)
    if n > max_points:
        return Detection(None, f"skipped: {n} points, more than the {max_points} the canonical keys cover")
    if m * n > max_entries:
        return Detection(None, f"skipped: a {m} x {n} matrix, past the {max_entries:,} entries where "
                               "detection costs more than it saves")
    return settled_by_invariants(C)


def _distinct_columns(C) -> tuple:
    """(the matrix, the first point of each class of equal columns, the classes)."""
    M = np.asarray(C.matrix, dtype=bool)
    reps, classes = _equal_columns(M)
    return M, reps, classes


def _detection(gens, M: np.ndarray, classes: list, limit: int | None, t0: float) -> Detection:
    """The :class:`Detection` of the generators bliss found on the class's distinct columns: each lifted to the
    points (the t-th point of a class of equal columns to the t-th of its image), checked on the matrix, and
    cut to a subgroup of at most ``limit`` elements (default :func:`group_limit`)."""
    n = M.shape[1]
    lifted = []
    for perm, flip in gens:
        full = [0] * n
        for i, k in enumerate(perm):
            for a, b in zip(classes[i], classes[k]):
                full[a] = b
        lifted.append((tuple(full), flip))
    lifted = [g for g in lifted if _is_symmetry(g, M, n)]
    cap = group_limit(n) if limit is None else limit
    kept, order, cut = subgroup(lifted, n, cap)
    G = Symmetry(kept, n)
    seconds = time.perf_counter() - t0
    equal = math.prod(math.factorial(len(cl)) for cl in classes)
    full_order = None if cut else order * equal
    if G.trivial:
        return Detection(None, "none", seconds, None, full_order, cut)
    return Detection(G, "detected", seconds, order, full_order, cut)


class Pending:
    """A detection under way in a forked child process (:func:`detect_async`): :meth:`poll` gives its
    :class:`Detection` once the child has answered (None before), :meth:`cancel` kills the child."""

    def __init__(self, child):
        self._child = child

    def poll(self) -> Optional[Detection]:
        """The detection when the child has answered, else None at once."""
        if self._child is None:
            raise RuntimeError("the detection was cancelled")
        found = _collect(self._child, wait=False)
        if found is _NOT_YET:
            return None
        self._child = None
        return found

    def cancel(self) -> None:
        """Kill the child (when it is still running)."""
        child, self._child = self._child, None
        if child is not None:
            _reap(child)


def _detect_in_child(C, limit, t0) -> Detection:
    """What the child of :func:`detect_async` computes: the whole detection (bliss, and the generators lifted,
    checked and cut to a subgroup), so that only the generators come back."""
    M, reps, classes = _distinct_columns(C)
    return _detection(_automorphisms(M[:, reps], [len(cl) for cl in classes]), M, classes, limit, t0)


def detect_async(C, *, limit: int | None = None):
    """:func:`detect` in a forked child that the caller polls (:class:`Pending`), so that a search goes on
    meanwhile; the :class:`Detection` itself where no child is needed (skipped, settled by invariants) or
    possible (no ``os.fork``)."""
    if not hasattr(os, "fork"):
        return detect(C, limit=limit)
    early = _without_bliss(C, MAX_ENTRIES, MAX_POINTS)
    if early is not None:
        return early
    return Pending(_spawn(_detect_in_child, C, limit, time.perf_counter()))


def settled_by_invariants(C) -> Optional[Detection]:
    """The outcome of :func:`detect` when invariants of the columns already prove the group trivial, in
    a few milliseconds and without bliss; else None.

    A renaming pi that maps C onto itself maps each concept c to c o pi^-1, a bijection of C, so the number
    of concepts that say 1 at x and at pi(x) are equal, as are those saying 1 at both x and y and at both
    pi(x) and pi(y), and pi maps a class of equal columns onto one of the same size. So the signature of a
    point (its count, its class's size, and the sorted row of its counts with every other point) is kept
    by pi; when the distinct columns all have distinct signatures, pi maps each class of equal columns onto
    itself, which fixes every version space (the module docstring): the group the search could use is
    trivial. A symmetry that complements the labels maps x's count c to m - c: it needs the (count, size)
    pairs to be the (m - count, size) pairs. Random classes pass both tests at once."""
    m, n = C.n_concepts, C.n_points
    if n == 0 or n > MAX_POINTS or m * n > MAX_ENTRIES:
        return None
    t0 = time.perf_counter()
    M = np.asarray(C.matrix, dtype=bool)
    reps, classes = _equal_columns(M)
    A = M[:, reps].astype(np.int64)
    both = A.T @ A  # both[x, y]: the concepts that say 1 at x and at y
    counts = np.diag(both)
    sizes = [len(cl) for cl in classes]
    signatures = {(int(counts[j]), sizes[j], *sorted(both[j].tolist())) for j in range(len(reps))}
    if len(signatures) < len(reps):
        return None  # two points alike so far: bliss decides
    pairs = sorted(zip(counts.tolist(), sizes))
    if pairs == sorted(zip((m - counts).tolist(), sizes)):
        return None  # a symmetry complementing the labels is not ruled out
    equal = math.prod(math.factorial(k) for k in sizes)
    return Detection(None, "none", time.perf_counter() - t0, None, equal, False)


def subgroup(gens: list, n: int, cap: int) -> tuple[list, int, bool]:
    """(kept, order, cut): the generators added one by one while the group they make keeps at most
    ``cap`` elements, its order, and whether any was left out. A generator outside a group H of more than
    cap / 2 elements at least doubles it, so it is left out without listing the larger group."""
    elements = _elements([], n, cap)
    kept: list = []
    cut = False
    for g in gens:
        perm = np.asarray(g[0], dtype=np.int64)
        if (perm.tobytes(), g[1]) in elements:
            continue
        larger = None if 2 * len(elements) > cap else _elements(kept + [g], n, cap)
        if larger is None:
            cut = True
            continue
        kept.append(g)
        elements = larger
    return kept, len(elements), cut


def _elements(gens: list, n: int, cap: int) -> set | None:
    """The elements of the group made by ``gens`` as (permutation bytes, flip), or None past ``cap``."""
    perms = [np.asarray(p, dtype=np.int64) for p, _ in gens]
    flips = [bool(f) for _, f in gens]
    ident = np.arange(n, dtype=np.int64)
    seen = {(ident.tobytes(), False)}
    frontier_p, frontier_f = ident[None, :], np.zeros(1, dtype=bool)
    while len(frontier_f):
        new_p, new_f = [], []
        for q, h in zip(perms, flips):
            images = q[frontier_p]  # first the element, then the generator: x -> q[p[x]]
            fl = frontier_f ^ h
            for row, f in zip(images, fl):
                key = (row.tobytes(), bool(f))
                if key not in seen:
                    seen.add(key)
                    new_p.append(row)
                    new_f.append(f)
                    if len(seen) > cap:
                        return None
        if not new_f:
            break
        frontier_p, frontier_f = np.array(new_p), np.array(new_f, dtype=bool)
    return seen


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
    igraph = load_igraph()
    m, n = R.shape
    _, size_colour = np.unique(np.asarray(sizes), return_inverse=True)
    colour = np.concatenate([np.zeros(m, dtype=np.int64), np.asarray(size_colour).ravel() + 1]).tolist()

    def graph(A: np.ndarray):  # concept i joined to point x where A[i, x]; points are vertices m..m+n-1
        return igraph.Graph.Biadjacency(A.astype(np.int8))  # (5x faster than from an edge list)

    ones = int(R.sum())
    B = graph(R if 2 * ones <= m * n else ~R)  # the same automorphisms either way
    out = [(tuple(int(a[m + x]) - m for x in range(n)), False) for a in B.automorphism_group(color=colour)]
    # A symmetry that complements the labels maps the column sums s to m - s and the row sums r to n - r.
    col, row = R.sum(axis=0), R.sum(axis=1)
    if (np.array_equal(np.sort(col), np.sort(m - col)) and np.array_equal(np.sort(row), np.sort(n - row))):
        if _is_symmetry((tuple(range(n)), True), R, n):  # the complements of C are C (halfspaces, ...)
            out.append((tuple(range(n)), True))
        else:
            B1 = B if 2 * ones <= m * n else graph(R)
            same, mapping, _ = B1.isomorphic_bliss(graph(~R), return_mapping_12=True, color1=colour, color2=colour)
            if same:
                out.append((tuple(int(mapping[m + x]) - m for x in range(n)), True))
    return out


#: Detection expected to take longer than this (:func:`estimated_seconds`) runs bliss in a child process.
IN_CHILD_FROM = 0.2
_last_child: list = []  # the pid of the last child (for the tests)


def _in_child(fn, *args):
    """``fn(*args)`` in a forked child process, its result sent back pickled through a pipe. bliss holds the
    interpreter for seconds on a large class, so that a Ctrl-C would wait for it; here this process waits
    for the child, looking at :func:`solvers.interrupts.check` every 50 ms, and a Ctrl-C (or any error)
    kills the child. Costs a fork (a few ms: the child shares the matrix until it writes)."""
    return _collect(_spawn(fn, *args), wait=True)


_NOT_YET = object()  # what _collect gives while the child has not answered


def _spawn(fn, *args) -> list:
    """Fork a child that computes ``fn(*args)`` and writes the result, pickled, to a pipe: [pid, read end,
    chunks read so far]."""
    import pickle
    import signal

    from ..interrupts import die_with, worker_args

    parent = worker_args()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, leave without running the parent's exit handlers
        try:
            die_with(*parent)  # (a parent killed by SIGKILL takes it along)
            os.close(r)
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # a Ctrl-C at the terminal ends it too
            try:
                data = pickle.dumps(("ok", fn(*args)))
            except BaseException as e:  # noqa: BLE001 - sent to the parent, which raises it
                data = pickle.dumps(("error", f"{type(e).__name__}: {e}"))
            view = memoryview(data)
            while view:
                view = view[os.write(w, view):]
        finally:
            os._exit(0)
    _last_child[:] = [pid]
    os.close(w)
    return [pid, r, []]


def _collect(child: list, *, wait: bool):
    """The child's result, read from its pipe (``wait``: until it has answered, looking at
    :func:`solvers.interrupts.check` every 50 ms; else what is there now, :data:`_NOT_YET` when it has not
    finished). The child is killed and reaped once it has answered, and on any error or Ctrl-C."""
    import pickle
    import select

    from .. import interrupts

    pid, r, chunks = child
    done = False
    try:
        while True:
            ready, _, _ = select.select([r], [], [], 0.05 if wait else 0)
            if wait:
                interrupts.check()
            if not ready:
                if wait:
                    continue
                return _NOT_YET
            chunk = os.read(r, 1 << 20)
            if not chunk:
                done = True
                break
            chunks.append(chunk)
    finally:
        if done or wait or sys.exc_info()[0] is not None:
            _reap(child)
    if not chunks:
        raise RuntimeError("the symmetry detection's child process ended without an answer")
    status, value = pickle.loads(b"".join(chunks))
    if status != "ok":
        raise RuntimeError(f"the symmetry detection failed: {value}")
    return value


def _reap(child: list) -> None:
    """Close the child's pipe, kill it (when it is still running) and wait for it."""
    import signal

    pid, r, _ = child
    if r is None:
        return
    child[1] = None
    os.close(r)
    try:
        os.kill(pid, signal.SIGKILL)  # (gone already when it finished)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


def bliss(call, **kw):
    """``call(**kw)``, a method of igraph that runs bliss, with an interrupt kept as it is: a SIGTERM or Ctrl-C
    whose handler raises while bliss runs (igraph looks at the signals) comes back as a SystemError whose
    cause is the interrupt, which is raised instead (a ``kill`` of ``scripts/disjunctions_table.py`` then ended
    with exit 1 and a traceback, not 143 and its table)."""
    try:
        return call(**kw)
    except SystemError as e:
        if isinstance(e.__cause__, KeyboardInterrupt):
            raise e.__cause__ from None
        raise


def canonical_labels(graph, colours) -> np.ndarray:
    """The canonical label of each vertex of the igraph ``graph`` coloured by ``colours``, by bliss
    (``canonical_permutation``): ``labels[v]``, so that two coloured graphs are isomorphic exactly when
    relabelling each by its labels gives the same graph. igraph has given the permutation both ways round
    (each vertex's label, or at each label the vertex that gets it): which one is found once, on a graph
    whose two colourings a symmetry relates (they must get one form)."""
    labels = np.asarray(bliss(graph.canonical_permutation, color=colours), dtype=np.int64)
    return np.argsort(labels) if _labels_inverted(type(graph)) else labels


_INVERTED: list = []  # once found: whether canonical_permutation gives, at each label, the vertex getting it


def _labels_inverted(Graph) -> bool:
    if not _INVERTED:
        g = Graph(5, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 4)])  # a square with a tail: 1 and 3 are alike
        E = np.array(g.get_edgelist())
        forms = []
        for c in ([0, 1, 0, 0, 2], [0, 0, 0, 1, 2]):
            p = np.array(g.canonical_permutation(color=c))
            forms.append(sorted(map(tuple, np.sort(p[E], axis=1).tolist())))
        _INVERTED.append(forms[0] != forms[1])
    return _INVERTED[0]


def load_igraph():
    """igraph for bliss: the igraph module when something has imported it already, else a namespace whose
    ``Graph`` is igraph's compiled graph type (``GraphBase``, which holds bliss: ``automorphism_group``,
    ``canonical_permutation``, ``isomorphic_bliss``, ``count_automorphisms``) with a ``Biadjacency`` constructor,
    from igraph's extension module loaded alone (:func:`_igraph_core`): about 3 ms, where importing the igraph
    package takes 0.15-0.45 s here (its drawing and graph-analysis layers; matplotlib where installed)."""
    import sys

    if "igraph" not in sys.modules and "matplotlib" not in sys.modules:
        core = _igraph_core()
        if core is not None:
            return core
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


_CORE: list = []  # the namespace of _igraph_core, once made (or None where it cannot be)


def _igraph_core():
    """A namespace with ``Graph``: igraph's compiled ``GraphBase`` with the ``Biadjacency`` constructor its Python
    layer adds (a concept vertex per row, a point vertex per column; the graph only, without the "type"
    attribute), from the extension module ``igraph._igraph`` loaded by itself and registered under its name (an
    import of the igraph package later finds it there). None where igraph's files are laid out otherwise."""
    if _CORE:
        return _CORE[0]
    import importlib.machinery
    import importlib.util
    import sys
    import types

    ns = None
    try:
        core = sys.modules.get("igraph._igraph")
        if core is None:
            spec = importlib.util.find_spec("igraph")
            folder = os.path.dirname(spec.origin) if spec is not None and spec.origin else None
            found = [f for f in os.listdir(folder) if f.startswith("_igraph.") and f.endswith((".so", ".pyd"))] if folder else []
            if found:
                path = os.path.join(folder, found[0])
                loader = importlib.machinery.ExtensionFileLoader("igraph._igraph", path)
                core = importlib.util.module_from_spec(importlib.util.spec_from_file_location("igraph._igraph", path,
                                                                                             loader=loader))
                loader.exec_module(core)
                sys.modules["igraph._igraph"] = core
        if core is not None and hasattr(core.GraphBase, "_Biadjacency"):
            class Graph(core.GraphBase):
                @classmethod
                def Biadjacency(cls, matrix):
                    return cls._Biadjacency(matrix, False, "out", False)[0]

            ns = types.SimpleNamespace(Graph=Graph)
    except (ImportError, OSError, AttributeError, TypeError):
        ns = None
    _CORE.append(ns)
    return ns
