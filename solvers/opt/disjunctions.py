"""Opt(C) of the monotone disjunctions of at most k of n variables, by a search that uses their symmetry.

The class is ``monotone-disjunctions n k``: c_S(x) = OR_{i in S} x_i for every S of at most k of the n
variables (the empty S is the constant 0), the class Winnow learns in [Rivest94], section 2.4. Its
version spaces ([Rivest94], section 2.3.1) have a short description. A negative example x removes
every S that meets x; a positive one keeps the S that meet it. So after any examples the version space is::

    V(k, R, H) = {S subset of R : |S| <= k, S meets every edge e of H}

where R is the set of variables in no negative example and H the positive examples cut down to R
(only the minimal ones matter). Three reductions keep the description small without changing Opt:

* R shrinks to the variables some concept of V uses (a variable in no concept of V is 0 in every label);
* a variable F in every concept of V (it is *forced*) is dropped and k lowered by one: S -> S - {F} is
  a bijection of V onto the smaller version space that keeps every label of every point without F, and
  a point with F is labelled 1 by all of V, so it splits nothing;
* renaming the variables (the group S_n acts on the class) maps V(k, R, H) to V(k, pi R, pi H) and
  keeps Opt: the memo keys a state by its canonical form under renaming (:func:`canonical_form`).

Variables of R that lie in the same edges (a *block*) are interchangeable: swapping two of them maps
the state onto itself. So a point is, up to symmetry, how many variables of each block it holds
(one representative per orbit, the lowest-numbered variables of each block), never one of 2^n points.

The search is that of :mod:`solvers.opt.search` on these states: decision queries "Opt(V) >= d?",
Opt(V) <= floor(log2 |V|) (Halving, [Rivest94] section 2.3.2), a split tried for "Opt >= d" only when
both sides hold >= 2^(d-1) concepts, the most balanced splits first, and a memo of proven bounds per
canonical state. The sizes of both sides are monotone in the point (a larger point leaves fewer concepts
labelling it 0), so the points worth trying are enumerated block by block and a partial point is
dropped as soon as every completion of it leaves one side too small.

The certificates do not rest on the canonical form: the mistake tree (:meth:`DisjunctionSolver.mistake_tree`)
holds explicit points, and the upper-bound certificate (:meth:`DisjunctionSolver.upper_proof`) names
every child state by its variables and edges and, for every child it relies on, the renaming that maps
it onto the entry claiming its bound; :mod:`solvers.certificates.disjunctions` re-checks both with its
own code.

**Why this engine is kept** (issue 19: an engine the generic search comes within 1.5x of is retired). It
does what no matrix can: past n = 12 the class is implicit (2^n points never listed) and n = 20, k = 5 is
solved in seconds; on the instances that fit a matrix ``scripts/bench_engines.py`` measured the generic
search, with its compiled kernel, at 1.2-1.3x its time on n = 8, k = 3 and n = 12, k = 3 (milliseconds),
5-6x on n = 12, k = 2 and 24-31x on n = 10, k = 3 (listed or as a raw matrix; idle 2-core machine).
:class:`DisjunctionSolver` is a :class:`~solvers.opt.states.StateSearch`: its root loop (up from the
lower bound for a moment, so that a time limit keeps a deep tree, then down), queries and progress are
the states'.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> S = DisjunctionSolver(12, 2)
>>> S.value()
6
>>> S.state_key(((0, 1), (2, 3))) == S.state_key(((4, 5), (6, 7)))   # two positive pairs, renamed
True
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from ..certificates import MistakeTree, ProofTooLarge
from ..classes.automorphisms import bliss
from ..numbers import bit_positions as _bits  # (the variables of a mask, increasing)
from .memo import MemoSearch, SearchStop
from .states import StateSearch

__all__ = ["DisjunctionSolver", "canonical_form", "canonical_form_refined", "by_column", "FAMILY", "handles", "MAX_N"]

#: The family this solver is for.
FAMILY = "monotone-disjunctions"
#: Concepts are bit masks in uint32 words.
MAX_N = 32
_FORMS_KEPT = 150_000  # canonical forms a solver keeps by the states' descriptions (emptied when full: ~0.25 GB)
_LEAF_BUDGET = 64  # leaves of the canonical-form search tried before ties are broken by input order


def handles(C) -> bool:
    """Whether ``C`` is the family's own class (built by ``make`` or implicit), which this solver solves."""
    if getattr(C, "family", None) != FAMILY:
        return False
    if getattr(C, "finite", False):
        if not getattr(C, "made", False):
            return False  # a matrix that only claims the family
    n = C.params.get("n")
    return isinstance(n, int) and 1 <= n <= MAX_N


def _minimal(edges) -> tuple[int, ...]:
    """The inclusion-minimal sets among ``edges`` (masks), sorted, duplicates merged."""
    out: list[int] = []
    for e in sorted(set(edges), key=int.bit_count):  # (a set's subsets come before it)
        for f in out:
            if f & e == f:
                break
        else:
            out.append(e)
    out.sort()
    return tuple(out)


# ---------------------------------------------------------------------------------------- canonical form
def canonical_form(k: int, R: int, edges) -> tuple[tuple, list[int]]:
    """The canonical form of the state (k, R, H) under renaming of the variables, and a labelling.

    Parameters
    ----------
    k : int
    R : int
        The variables (a bit mask).
    edges : sequence of int
        The edges, subsets of R, no one inside another.

    Returns
    -------
    form : tuple
        ``(k, m, ((pattern, size), ...))``: the blocks of R (variables in the same edges) as the set of
        edges holding them, edges numbered in a canonical order, with the block's size; sorted.
    order : list of int
        The variables of R in the form's order (block by block, each block increasing): renaming
        ``order[i]`` to ``i`` maps the state onto the one the form describes.

    Notes
    -----
    The edges are numbered by bliss's canonical labelling (igraph's ``canonical_permutation``) of the
    incidence graph of edges and blocks, each block coloured by its size: two states have one form exactly
    when a renaming maps one onto the other. :func:`canonical_form_refined` is its pure-Python twin (colour
    refinement, then a bounded search of the ties), about three times slower on the states of a search at
    n = 27, k = 5; the tests hold the two to the same partition of states.
    """
    m = len(edges)
    groups, pats, sizes, done = _start_form(k, R, edges)
    if done is not None:
        return done
    pat_bits = [_bits(p) for p in pats]
    graph = _graph_type()(n=m + len(pats), edges=[(j, m + b) for b, bits in enumerate(pat_bits) for j in bits])
    perm = bliss(graph.canonical_permutation, color=[0] * m + sizes)
    place = [0] * len(perm)  # each vertex's place in the canonical order (perm read as that order: with igraph 1.0
    # this way round the form is invariant under renaming, which the tests check on random renamings)
    for i, q in enumerate(perm):
        place[q] = i
    number = [0] * m
    for r, j in enumerate(sorted(range(m), key=place.__getitem__)):
        number[j] = r
    relabel = {p: sum([1 << number[j] for j in bits]) for p, bits in zip(pats, pat_bits)}
    blocks = tuple(sorted((relabel[p], s) for p, s in zip(pats, sizes)))
    order = [i for p in sorted(pats, key=lambda p: (relabel[p], len(groups[p]))) for i in groups[p]]
    return (k, m, blocks), order


_GRAPH: list = []


def _graph_type():
    """igraph's graph type with bliss, loaded on first use from igraph's compiled core alone
    (:func:`solvers.classes.automorphisms.load_igraph`: milliseconds, where importing igraph takes about half a
    second, which every command that loads this engine would pay)."""
    if not _GRAPH:
        from ..classes.automorphisms import load_igraph

        _GRAPH.append(load_igraph().Graph)
    return _GRAPH[0]


def _start_form(k: int, R: int, edges):
    """What both canonical forms start from: the blocks of R (:func:`_groups`), their patterns and sizes, and the
    form itself when at most one edge leaves nothing to order (else None)."""
    groups = _groups(R, edges)
    pats = list(groups)
    sizes = [len(groups[p]) for p in pats]
    if len(edges) > 1:
        return groups, pats, sizes, None
    blocks = sorted(zip(pats, sizes))
    return groups, pats, sizes, ((k, len(edges), tuple(blocks)), [i for p, _ in blocks for i in groups[p]])


def _groups(R: int, edges) -> dict[int, list[int]]:
    """The blocks of R: pattern (the set of edges holding a variable, as a mask over the edges' indices) -> its
    variables, increasing; the blocks in the order of their least variable."""
    parts = {0: R} if R else {}
    for j, e in enumerate(edges):
        bit, split = 1 << j, {}
        for p, mask in parts.items():
            if mask & e:
                split[p | bit] = mask & e
            if mask & ~e:
                split[p] = mask & ~e
        parts = split
    return {p: _bits(mask) for p, mask in sorted(parts.items(), key=lambda t: t[1] & -t[1])}


def canonical_form_refined(k: int, R: int, edges) -> tuple[tuple, list[int]]:
    """A form of the state (k, R, H) under renaming of the variables, and a labelling, in pure Python: the
    twin of :func:`canonical_form` that the tests hold it against (the two name the same states alike). Its
    parameters and returns are :func:`canonical_form`'s.

    Notes
    -----
    The edges are ordered by colour refinement on the incidence of edges and blocks, then by trying
    each edge of the first tied cell (edges whose swap is an automorphism are tried once), keeping the
    least form. Past ``_LEAF_BUDGET`` leaves the remaining ties are broken by input order: the form is
    then still the state renamed (two states with one form are isomorphic), just not always the least.
    """
    m = len(edges)
    groups, pats, sizes, done = _start_form(k, R, edges)
    if done is not None:
        return done
    in_edge = [[b for b, p in enumerate(pats) if p >> j & 1] for j in range(m)]
    weight = dict(zip(pats, sizes))
    # Edges j, j' whose swap maps every block to a block of the same size are twins: one is tried.
    twin = list(range(m))
    for j in range(m):
        if twin[j] != j:
            continue
        for j2 in range(j + 1, m):
            if twin[j2] == j2 and _swap_is_automorphism(weight, j, j2):
                twin[j2] = j

    pat_bits = [_bits(p) for p in pats]

    def refine(col: list[int]) -> list[int]:
        ncol = len(set(col))
        while True:
            bsig = [(sizes[b], tuple(sorted([col[j] for j in pat_bits[b]]))) for b in range(len(pats))]
            brank = _ranks(bsig)
            esig = [(col[j], tuple(sorted(brank[b] for b in in_edge[j]))) for j in range(m)]
            new = _ranks(esig)
            count = len(set(new))
            if count == ncol:
                return new
            col, ncol = new, count

    best: list = [None, None]
    leaves = [0]

    def search(col: list[int]) -> None:
        col = refine(col)
        counts: dict[int, int] = {}
        for c in col:
            counts[c] = counts.get(c, 0) + 1
        tied = [c for c, t in counts.items() if t > 1]
        if not tied:
            leaves[0] += 1
            blocks = tuple(sorted((sum([1 << col[j] for j in bits]), s) for bits, s in zip(pat_bits, sizes)))
            if best[0] is None or blocks < best[0]:
                best[0], best[1] = blocks, col
            return
        c = min(tied)
        tried = set()
        for j in range(m):
            if col[j] != c or twin[j] in tried:
                continue
            tried.add(twin[j])
            search([2 * x + (x > c or (x == c and i != j)) for i, x in enumerate(col)])
            if leaves[0] >= _LEAF_BUDGET:
                return

    search([0] * m)
    blocks, col = best
    relabel = {p: sum([1 << col[j] for j in bits]) for p, bits in zip(pats, pat_bits)}
    order = [i for p in sorted(pats, key=lambda p: (relabel[p], weight[p])) for i in groups[p]]
    return (k, m, blocks), order


def _swap_is_automorphism(weight: dict, j: int, j2: int) -> bool:
    for p, s in weight.items():
        a, b = p >> j & 1, p >> j2 & 1
        q = p if a == b else p ^ ((1 << j) | (1 << j2))
        if weight.get(q) != s:
            return False
    return True


def _ranks(sigs: list) -> list[int]:
    order = {s: r for r, s in enumerate(sorted(set(sigs)))}
    return [order[s] for s in sigs]


# ---------------------------------------------------------------------------------------- states
class _State:
    """A version space: its concepts (``V``, uint32 masks), and its reduced description (k, R, edges)
    with the blocks of R and the canonical form (see the module docstring)."""

    __slots__ = ("V", "k0", "k", "R", "F", "edges", "blocks", "key", "size")

    def __init__(self, V: np.ndarray, k0: int, edges, forms: dict | None = None):
        self.V = V
        self.k0 = k0  # the class's k: the concepts in V still hold the forced variables
        self.size = int(V.size)
        U = int(np.bitwise_or.reduce(V)) if V.size else 0
        F = int(np.bitwise_and.reduce(V)) if V.size else 0
        self.R = R = U & ~F
        self.F = F
        self.k = k = k0 - F.bit_count()
        self.edges = _minimal(e & R for e in edges if not e & F)
        if forms is None:
            form, order = canonical_form(k, R, self.edges)
        else:  # the forms of the states met lately, as they are named (a third or more recur in a search)
            raw = (k, R, self.edges)
            hit = forms.get(raw)
            if hit is None:
                if len(forms) >= _FORMS_KEPT:
                    forms.clear()
                hit = forms[raw] = canonical_form(k, R, self.edges)
            form, order = hit
        self.key = form
        blocks: list[list[int]] = []
        at = 0
        for _, size in form[2]:
            blocks.append(order[at:at + size])
            at += size
        self.blocks = blocks


# ---------------------------------------------------------------------------------------- the solver
class DisjunctionSolver(StateSearch):
    """The search for Opt of ``monotone-disjunctions n k`` and its sub-version-spaces (module docstring).

    Parameters
    ----------
    n, k : int
        The family's parameters (k > n is read as k = n, as the family does).
    memo_bytes : int, optional
        Memory the memo may use (default: a quarter of the machine's memory).
    """

    #: The root alternates between up and down (:meth:`StateSearch._solve_root_alternating`): down is the
    #: faster on most instances (n = 20 k = 3: 0.07 s against 0.56 s up; n = 24 k = 4: 5 s against 22 s), but
    #: n = 26 k = 5 did not refute 16 from the top in 600 s, where up settles 14 in about a minute.
    alternate_root = True

    def __init__(self, n: int, k: int, *, memo_bytes: int | None = None):
        if not 1 <= n <= MAX_N:
            raise ValueError(f"{FAMILY}: n={n} is outside 1..{MAX_N} for the symmetric solver")
        k = min(k, n)
        if k < 0:
            raise ValueError(f"{FAMILY}: k={k} is negative; give k >= 0")
        self.n, self.k = n, k
        if memo_bytes is None:
            from .search import default_memo_bytes

            memo_bytes = default_memo_bytes() // 2
        masks = [sum(1 << i for i in S) for j in range(k + 1) for S in itertools.combinations(range(n), j)]
        self.root = _State(np.array(sorted(masks), dtype=np.uint32), k, ())
        self._init_search(memo_bytes, 400)
        self.sub_classes: list[dict] = []  # the root's sub-classes solved first (:meth:`solve_root`)
        self._sub_tree: tuple | None = None  # (Opt, state) of the deepest of them: its tree is one of the root's
        self._forms: dict = {}  # (k, R, edges) -> canonical_form(k, R, edges), for the states met lately
        self._fast = None  # the compiled enumeration of the points, once chosen (:meth:`_points`)
        self._points_since = None

    # ------------------------------------------------------------------ states by examples
    def solve_root(self, queries: list, *, warmup_seconds: float = 0.25) -> tuple[int, int]:
        """The root loop of :class:`~solvers.opt.states.StateSearch`, after the values of the root's *sub-classes*:
        a negative example on n - r variables leaves ``monotone-disjunctions r k`` itself, and for each r < n
        whose split of the root has two sides of >= 2^(h-1) concepts (h the Halving bound, the root's hardest
        query), Opt of that class is found first, r increasing, each going up from 0 (:meth:`value`). Each is a
        lower bound on the root's Opt (its tree is a tree of the root), and the memo then knows those sides, which
        the root's refutation mostly rests on: n = 31, k = 5 refutes 17 in milliseconds once the sub-classes are
        solved (46 s in all, with its tree), where from the top it had not in an hour. Under a time limit the
        sub-classes get half of it."""
        N = self.root.size
        need = 1 << max(N.bit_length() - 2, 0)
        deadline = self._deadline
        if deadline is not None:  # (under a time limit the sub-classes get half of it, the root loop the rest)
            self._deadline = time.monotonic() + (deadline - time.monotonic()) / 2
        try:
            for r in range(self.k + 1, self.n):
                s = self.state([((1 << (self.n - r)) - 1, 0)])
                if s.size < need or N - s.size < need:
                    continue
                t0 = time.monotonic()
                v = self.value(s)
                self.sub_classes.append({"n": r, "opt": v, "seconds": round(time.monotonic() - t0, 4)})
                if v > self._root_bounds[0]:
                    self._root_bounds = (v, self._root_bounds[1])
                    self._sub_tree = (v, s)
        except SearchStop:
            if self._deadline == deadline:
                raise
        finally:
            self._deadline = deadline
        return super().solve_root(queries, warmup_seconds=warmup_seconds)

    def state(self, examples=()) -> _State:
        """The state after the labelled examples ``[(point mask or 0/1 tuple, label), ...]``."""
        s = self.root
        for x, y in examples:
            s = self._child(s, _mask(x), y)
        return s

    def state_key(self, positives=(), negatives=()) -> tuple:
        """The canonical key of the state after positive examples ``positives`` and negative ones
        ``negatives`` (each a tuple of variables)."""
        ex = [(sum(1 << i for i in x), 1) for x in positives] + [(sum(1 << i for i in x), 0) for x in negatives]
        return self.state(ex).key

    def _child(self, s: _State, A: int, label: int, hit: np.ndarray | None = None) -> _State:
        """The state after point A (a mask) labelled ``label`` (``hit``: which concepts of V meet A, if known)."""
        V = s.V
        if hit is None:
            hit = (V & np.uint32(A)) != 0
        if label:  # a point holding a forced variable is labelled 1 by all of V: no new edge
            return _State(V[hit], s.k0, s.edges if A & s.F else (*s.edges, A & s.R), self._forms)
        return _State(V[~hit], s.k0, tuple(e & ~A for e in s.edges), self._forms)

    engine = "disjunctions"

    def size(self, s: _State) -> int:
        """|V| of state ``s``."""
        return s.size

    # ------------------------------------------------------------------ bounds
    def bounds(self, s: _State) -> tuple[int, int]:
        """Proven (lower, upper) on Opt of state ``s`` from the memo and the Halving bound, without search."""
        n = s.size
        if n == 0:
            return -1, -1
        if n == 1:
            return 0, 0
        lo, hi = 1, n.bit_length() - 1
        e = self.memo.get(s.key)
        if e is not None:
            lo, hi = max(lo, e[0]), min(hi, e[1])
        return lo, hi

    # ------------------------------------------------------------------ moves
    def splits(self, s: _State, need: int) -> list[tuple[int, int]]:
        """The points worth trying for "Opt(V) >= d" with ``need`` = 2^(d-1): one per orbit of the swaps
        within the blocks of ``s``, both sides >= ``need``; as (smaller side, point mask), most balanced
        first."""
        return self._points(s.blocks, s.V, s.size, need)

    #: In "auto" kernel mode, the seconds of search after which the points are enumerated by the compiled twin
    #: of :func:`_balanced_points` (loading numba costs about half a second, compiling it the first time, before
    #: numba's cache holds it, about four).
    compile_after_seconds = 3.0

    def _points(self, blocks, V: np.ndarray, N: int, need: int) -> list[tuple[int, int]]:
        """:func:`_balanced_points`, by its compiled twin (:mod:`solvers.opt._disjunctions_jit`) where the kernel
        mode allows it: always under ``LITTLESTONE_KERNEL=numba``, never under ``python``, and in ``auto`` once
        the search has run :attr:`compile_after_seconds`. Both give the same list (tested), so the search, its
        tree and its certificate do not depend on which ran."""
        fast = self._fast
        if fast is None:  # (not chosen yet: "auto" before its seconds of search)
            fast = self._fast = self._compiled_points()
        if not fast:
            return _balanced_points(blocks, V, N, need)
        if blocks:
            variables = np.fromiter((i for blk in blocks for i in blk), np.int64)
        else:
            variables = np.zeros(0, np.int64)
        starts = np.zeros(len(blocks) + 1, np.int64)
        np.cumsum([len(blk) for blk in blocks], out=starts[1:])
        sides, masks = fast(variables, starts, V, N, need)
        return list(zip(sides.tolist(), masks.tolist()))

    def _compiled_points(self):
        """The compiled enumeration, False (Python's from now on), or None (Python's for now: "auto" before
        :attr:`compile_after_seconds` of search)."""
        if self._points_since is None:  # (the mode is read once: then only the clock, while "auto" waits)
            from . import kernel

            try:
                how = kernel.mode()
            except ValueError:
                how = "auto"
            if how == "python" or not kernel.available():
                return False
            self._points_since = time.monotonic() - (self.compile_after_seconds if how == "numba" else 0.0)
        if time.monotonic() - self._points_since < self.compile_after_seconds:
            return None
        try:
            from ._disjunctions_jit import balanced_points
        except Exception:  # numba broken or its cache unusable here: the Python enumeration, as ever
            return False
        return balanced_points

    # ------------------------------------------------------------------ the search
    def at_least(self, s: _State, d: int) -> bool:
        """Decide Opt(V) >= d for state ``s``."""
        lo, hi = self.bounds(s)  # the memo's, within Opt(V) <= floor(log2 |V|)
        if lo >= d or hi < d:
            return lo >= d
        self.nodes += 1
        self._tick()  # every node: a node costs numpy passes over V (milliseconds at n = 32), a clock read nothing
        need = 1 << (d - 1)
        seen = set()
        found = None
        for bal, A in self.splits(s, need):
            if d == 2:
                found = A
                break
            # The smaller side first (the side labelled 0 on a tie), and the other only when the memo does not
            # already bound the first below d - 1 (as a refutation mostly finds): half the states built.
            hit = (s.V & np.uint32(A)) != 0
            ones = int(np.count_nonzero(hit))
            label = 0 if s.size - ones <= ones else 1
            first = self._child(s, A, label, hit)
            if self._known_below(first, d - 1):
                continue
            second = self._child(s, A, 1 - label, hit)
            pair = (first.key, second.key) if first.key <= second.key else (second.key, first.key)
            if pair in seen:
                continue
            seen.add(pair)
            if self._known_below(second, d - 1):
                continue
            if self.at_least(first, d - 1) and self.at_least(second, d - 1):
                found = A
                break
        if found is not None:
            self._store(s.key, max(lo, d), hi)
            # the move as counts per block, in the form's block order: it means the same point (up to
            # the swaps within blocks) in every state of this form
            self.moves[s.key] = tuple(sum(found >> i & 1 for i in b) for b in s.blocks)
            return True
        self._store(s.key, lo, min(hi, d - 1))
        return False

    def _known_below(self, s: _State, d: int) -> bool:
        if s.size < (1 << d):
            return True
        e = self.memo.get(s.key)
        return e is not None and e[1] < d

    def _store(self, key, lo, hi) -> None:
        old = self.memo.get(key)
        if old is not None:
            lo, hi = max(lo, old[0]), min(hi, old[1])
        MemoSearch._store(self, key, lo, hi)

    # ------------------------------------------------------------------ certificates
    def certificate_tree(self, d: int, C):
        """The mistake tree of depth ``d`` for ``C``: points by column index for the listed class, as 0/1
        tuples for the implicit one."""
        root = self.mistake_tree(d)
        return MistakeTree(d, by_column(root) if C.finite else root, C)

    def mistake_tree(self, d: int, s: _State | None = None):
        """A mistake tree of depth ``d`` (requires Opt >= d) as nested dicts whose ``"point"`` is the
        point itself, a tuple of n 0/1 values."""
        if s is None:
            s = self.root
            if self._sub_tree is not None and self._sub_tree[0] >= d:
                s = self._sub_tree[1]  # (a sub-class's concepts are the root's: its tree is one of the root)
        if d <= 0:
            return None
        if d == 1:  # any variable of R splits V (some concept holds it, not all): both sides are leaves
            A = s.R & -s.R
            return {"point": tuple((A >> i) & 1 for i in range(self.n)), "0": None, "1": None}
        for A in self._tree_moves(s, d):
            c0, c1 = self._child(s, A, 0), self._child(s, A, 1)
            if self.at_least(c0, d - 1) and self.at_least(c1, d - 1):
                point = tuple((A >> i) & 1 for i in range(self.n))
                return {"point": point, "0": self.mistake_tree(d - 1, c0), "1": self.mistake_tree(d - 1, c1)}
        raise RuntimeError(f"internal error: no split proves Opt >= {d}")

    def _tree_moves(self, s: _State, d: int):
        """The move the search proved "Opt >= d" with for this form first, then every balanced split."""
        counts = self.moves.get(s.key)
        if counts is not None:
            yield sum(1 << i for b, c in zip(s.blocks, counts) for i in b[:c])
        for _, A in self.splits(s, 1 << (d - 1)):
            yield A

    def upper_proof(self, h: int, *, limit: int = 100_000) -> dict:
        """The certificate of Opt(C) <= h, checked by :func:`solvers.certificates.disjunctions.verify_upper`.

        Its entries are states ``{"R": variables, "edges": [[variables], ...], "bound": b}`` (the version
        space {S subset of R : |S| <= k, S meets every edge}, claimed to have Opt <= b); the first is the
        whole class. For every point that splits an entry's version space into two sides of >= 2^b
        concepts each (one point per orbit of the swaps within the blocks of the entry's own edges),
        ``"children"`` names one side (``"label"``), an entry claiming <= b - 1 for it, and the renaming
        of the variables (``"renaming"``, variable i to renaming[i]) that maps the side onto that entry.

        Raises
        ------
        ProofTooLarge
            Past ``limit`` entries.
        """
        n, k = self.n, self.k
        entries: list[dict] = []
        states: list[_State] = []
        orders: list[list[int]] = []
        index: dict[tuple, dict[int, int]] = {}  # form of the state as the certificate names it -> {bound: entry}

        def entry_of(s: _State, b: int) -> tuple[int, list[int]]:
            R, edges = _certificate_state(s)
            form, order = canonical_form(k, R, edges)
            claims = index.setdefault(form, {})
            j = min((j for c, j in claims.items() if c <= b), default=None)  # (an entry claiming less serves too)
            if j is None:
                j = claims[b] = len(entries)
                if j >= limit:
                    raise ProofTooLarge(f"the upper-bound certificate needs more than {limit} entries; "
                                        "raise the limit or use a smaller class")
                entries.append({"R": _bits(R), "edges": [_bits(e) for e in edges], "bound": b, "children": []})
                states.append(s)
                orders.append(order)
            return j, order

        entry_of(self.root, h)
        i = 0
        while i < len(entries):
            e, s = entries[i], states[i]
            b = e["bound"]
            i += 1
            if s.size < (1 << (b + 1)):
                continue  # Opt <= floor(log2 |V|) <= b
            if b == 0:
                raise RuntimeError("internal error: a version space of >= 2 concepts claimed Opt <= 0")
            R, edges = _certificate_state(s)
            for _, A in self._points(_blocks(R, edges), s.V, s.size, 1 << b):
                self._clock()  # (each point costs two canonical forms: at n = 26 the walk outlasts the search)
                sides = sorted(((self._child(s, A, lab), lab) for lab in (0, 1)), key=lambda t: t[0].size)
                # A side the memo already bounds first, as the search took it: asking the other side first
                # would search (and then certify) version spaces the search never needed (n = 25, k = 5:
                # 10,985 entries and 341 s, against the search's 4,027 states).
                known = [t for t in sides if self._known_below(t[0], b)]
                for c, lab in known or sides:
                    if known or not self.at_least(c, b):
                        j, order = entry_of(c, b - 1)
                        e["children"].append({"point": _bits(A), "label": lab, "entry": j,
                                              "renaming": _renaming(n, order, orders[j])})
                        break
                else:
                    raise RuntimeError(f"internal error: Opt <= {b} does not hold for a version space")
        from ..certificates.rules import stamp

        return stamp({"kind": "upper-bound", "family": FAMILY, "params": {"n": n, "k": k}, "bound": h,
                      "entries": entries}, "renaming")


def _certificate_state(s: _State) -> tuple[int, tuple[int, ...]]:
    """The state ``s`` without its reductions: R = every variable its concepts use, and the forced
    variables as one-variable edges, so that {S subset of R : |S| <= k, S meets every edge} is exactly
    the concepts of ``s`` for the class's k."""
    F = s.F
    return s.R | F, tuple(sorted((*s.edges, *(1 << f for f in _bits(F)))))


def _blocks(R: int, edges) -> list[list[int]]:
    """The variables of R grouped by the edges that hold them, each group increasing."""
    groups: dict[int, list[int]] = {}
    for i in _bits(R):
        groups.setdefault(sum(1 << j for j, e in enumerate(edges) if e >> i & 1), []).append(i)
    return [groups[p] for p in sorted(groups)]


def _balanced_points(blocks: list[list[int]], V: np.ndarray, N: int, need: int) -> list[tuple[int, int]]:
    """The points worth trying for "Opt(V) >= d" with ``need`` = 2^(d-1): one per orbit of the swaps
    within ``blocks`` (the lowest-numbered variables of each block), both sides of the split >= ``need``;
    as (smaller side, point mask), most balanced first."""
    # Hot loop: block by block, the concepts that avoid the partial point A (later blocks 0) and those
    # that meet A completed by every later block; a partial point is dropped as soon as either side of
    # every completion is too small (both sides are monotone in the point).
    B = len(blocks)
    rest = [0] * (B + 1)
    for b in range(B - 1, -1, -1):
        rest[b] = rest[b + 1] | sum(1 << i for i in blocks[b])
    prefix = [[sum(1 << i for i in blk[:c]) for c in range(len(blk) + 1)] for blk in blocks]
    out: list[tuple[int, int]] = []
    stack = [(0, 0, V, V)]
    while stack:
        b, A, V0, V1 = stack.pop()
        if b == B:
            n0 = int(V0.size)
            out.append((min(n0, N - n0), A))
            continue
        for c, P in enumerate(prefix[b]):
            W0 = V0[(V0 & np.uint32(P)) == 0] if c else V0
            if W0.size < need:
                break  # a larger c leaves fewer
            W1 = V1[(V1 & np.uint32(A | P | rest[b + 1])) != 0]
            if W1.size >= need:
                stack.append((b + 1, A | P, W0, W1))
    out.sort(reverse=True)
    return out


def _renaming(n: int, source: list[int], target: list[int]) -> list[int]:
    """The permutation of range(n) mapping source[i] to target[i], and the other variables in order."""
    pi = [-1] * n
    for a, b in zip(source, target):
        pi[a] = b
    free = iter(sorted(set(range(n)) - set(target)))
    for a in range(n):
        if pi[a] < 0:
            pi[a] = next(free)
    return pi


def _mask(x) -> int:
    if isinstance(x, (int, np.integer)):
        return int(x)
    return sum(1 << i for i, v in enumerate(x) if v)


def by_column(root):
    """A tree of :meth:`DisjunctionSolver.mistake_tree` with each point as its column index in ``make``'s
    point order (x_0 the leading bit), for the listed class."""
    if root is None:
        return None
    j = int("".join(map(str, root["point"])), 2)
    return {"point": j, "0": by_column(root["0"]), "1": by_column(root["1"])}
