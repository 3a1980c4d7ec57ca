"""Anytime bounds: when the exact search of :func:`solvers.opt.opt` stops at its time limit, the better lower
bounds that are cheap to find, each with its mistake tree and the reason it holds.

A set of d points that C shatters is the complete mistake tree of depth d that asks them in order, so
Opt(C) >= VC(C) ([Rivest94]); :func:`shattered_points` grows one greedily in seconds.

A mistake tree of a *restriction* of C is a mistake tree of C. Let X' be a subset of the points, and C|X' the
class of the concepts of C restricted to X' (duplicates merged). A path of a tree over X' is realised by a
concept of C|X', which is the restriction of a concept of C, and that concept realises the same path in C.
So Opt(C) >= Opt(C|X') ([Rivest94]: Opt(C) is the depth of the deepest mistake tree), and a class that the
search cannot finish often has a restriction it can. For the families whose points are the cube {0,1}^n in
lexicographic order, the first half of the points is the sub-cube x_1 = 0, on which the class is the same
family with n - 1 variables (decision lists, conjunctions, parities, halfspaces): Opt of decision-lists
n = 5 (12, half a second) bounds that of n = 6, which the search leaves at 7 after a minute.

A smaller instance of the same family embeds the same way (:data:`EMBEDS`): decision lists over n - 1
variables are those over n that ignore the last, on the points (x, 0); a rectangle of the N' x N' grid is
the restriction of one of the N x N grid. Its mistake tree, solved exactly, maps into the class.

:func:`improve` tries a shattered set, then smaller instances, then (over at most 64 points) the packed search of
:mod:`solvers.opt.packed` (its balanced splits over the truth tables reach 15 for decision lists n = 6 in
seconds), then restrictions to prefixes of the points, in the time it is given. Each tree it
keeps is checked by :func:`solvers.certificates.verify_tree` against C itself, so a restriction that were
wrong could not raise a bound.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import functools

import time

import numpy as np

from .. import interrupts
from ..certificates import MistakeTree, TreeError, verify_tree
from ..game_rules import Game
from .control import Tuning
from .memo import SearchStop
from .result import OptResult, Stats
from .search import Solver, default_memo_bytes

#: Where Halving's bound floor(log2 |C|) is proven (the text of :attr:`solvers.learners.Halving.bound_source`;
#: written here, as this package does not import the learners built on it)
HALVING_SOURCE = '"Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow), slide ' \
                 '"HAL - halving algorithm"'

#: Families whose instance with a smaller size parameter embeds in a larger one, and how its points map:
#: ``"cube"``: a point of {0,1}^n' is (x, 0, ..., 0) in {0,1}^n (a concept over the first n' variables is one
#: over n); ``"grid"``: a point keeps its coordinates (a threshold, interval, rectangle, function of the
#: smaller grid is the restriction of one of the larger). A tree lifted this way is checked against the
#: class all the same, so a wrong entry here could not raise a bound.
EMBEDS = {"decision-lists": ("n", "cube"), "monotone-disjunctions": ("n", "cube"), "disjunctions": ("n", "cube"),
          "conjunctions": ("n", "cube"), "monotone-conjunctions": ("n", "cube"), "parities": ("n", "cube"),
          "halfspaces": ("n", "cube"), "thresholds": ("N", "grid"), "intervals": ("N", "grid"),
          "rectangles": ("N", "grid"), "all-functions": ("n", "grid")}


def listed(C) -> bool:
    """Whether ``C`` has a matrix (the shattered set and the restrictions read it)."""
    return bool(getattr(C, "finite", False)) and getattr(C, "matrix", None) is not None


def _embeds(C) -> bool:
    """Whether ``C`` is an instance of a family of :data:`EMBEDS` (listed, implicit or evaluated)."""
    return getattr(C, "family", None) in EMBEDS and isinstance(getattr(C, "params", None), dict)


def applies(C, tuning=None) -> bool:
    """Whether :func:`improve` can do anything for ``C``: a listed class large enough to be worth it (at least
    ``tuning.anytime_min_concepts`` concepts, :class:`~solvers.opt.control.Tuning`), or a class of a family of
    :data:`EMBEDS` (listed, implicit or evaluated)."""
    least = (tuning or Tuning.default()).anytime_min_concepts
    return _embeds(C) or (listed(C) and C.n_concepts >= least and C.n_points >= 2)


def shattered_reason(d: int) -> str:
    """Why a shattered set of ``d`` points proves Opt(C) >= d (the reason printed beside the bound)."""
    return f"the class shatters {d} points (found greedily): the complete tree over them"


def checked(tree, value: int, C) -> bool:
    """Whether ``tree`` proves Opt(C) >= ``value`` by :func:`solvers.certificates.verify_tree`, the checker
    independent of the search (a tree that does not check proves nothing). Its points and paths are checked against
    ``C``; not its ``"made_for"`` record, which the trees here take from ``C`` itself (recording it and matching it
    again hashed the class twice, a third of the shattered set's cost on a class of 32 concepts)."""
    try:
        bare = MistakeTree(tree.depth, None if tree.levels is not None else tree.root, None, tree.game,
                           levels=tree.levels)
        return verify_tree(bare.to_json(), C) == value
    except (KeyError, TreeError, ValueError, TypeError):
        return False


def _instance(name: str, params: dict):
    """The class ``name`` with ``params`` as the commands load it: implicit (monotone disjunctions past a
    million points), evaluated (thresholds, intervals, rectangles past a matrix), else listed."""
    from ..classes.evaluated import EvaluatedClass, beyond_matrix
    from ..classes.families import make
    from ..classes.implicit import ImplicitFamily, prefers_implicit
    from . import disjunctions

    if name == disjunctions.FAMILY and prefers_implicit(name, params):
        C = ImplicitFamily(name, params)
        return C if disjunctions.handles(C) else None
    if beyond_matrix(name, params):
        return EvaluatedClass(name, params)
    return make(name, **params)


def _lift(node, small, C, kind: str, n_big: int, index: dict):
    """The tree ``node`` of the smaller class ``small`` with each point mapped into ``C`` (iteratively)."""
    box: list = [None]
    stack = [(node, box, 0)]
    while stack:
        nd, parent, slot = stack.pop()
        if nd is None:
            parent[slot] = None
            continue
        j = nd["point"]
        p = tuple(j) if isinstance(j, (list, tuple)) else tuple(small.points[j])
        q = p + (0,) * (n_big - len(p)) if kind == "cube" else p
        new = {"point": list(q) if not getattr(C, "finite", True) else index[q], "0": None, "1": None}
        parent[slot] = new
        stack.append((nd["1"], new, "1"))
        stack.append((nd["0"], new, "0"))
    return box[0]


def embedded(C, best: int, deadline: float, solve, out: list | None = None) -> list:
    """Lower bounds from the same family with a smaller size parameter (:data:`EMBEDS`), solved in the time
    left, smallest first, each tree lifted into ``C`` and checked against it: ``(value, tree, reason)``,
    appended to ``out`` (when given) as each is proven, and returned."""
    name = C.family
    size, kind = EMBEDS[name]
    params = dict(C.params)
    big = params.get(size)
    if not isinstance(big, int) or big < 2:
        return []
    index = {} if not getattr(C, "finite", True) else {tuple(p): j for j, p in enumerate(C.points)}
    n_big = len(next(iter(C.points))) if getattr(C, "finite", True) else params.get("n", big)
    found = [] if out is None else out
    for small_size in range(1, big):
        left = deadline - time.monotonic()
        if left <= 0.01 or interrupts.requested():
            break
        try:
            small = _instance(name, {**params, size: small_size})
        except (ValueError, TypeError):
            continue  # (a size the family does not take with these parameters, e.g. n < k)
        if small is None:
            continue
        res = solve(small, left / 2)
        if res.value is None:
            break  # larger ones will not be solved either
        if res.value <= best or res.tree is None:
            continue
        try:
            tree = MistakeTree(res.value, _lift(res.tree.root, small, C, kind, n_big, index), C)
        except KeyError:
            continue  # (a point the class does not have: not an embedding)
        if not checked(tree, res.value, C):
            continue
        best = res.value
        found.append((best, tree, f"Opt({name} {size}={small_size}) = {best}, a class that embeds in this one "
                                  "(its mistake tree, mapped into this class)"))
    return found


def shattered_points(C, deadline: float, *, all_or_nothing: bool = False) -> list:
    """A set of points ``C`` shatters, grown greedily (the most balanced points first; a point joins when
    the set stays shattered, checked by counting the distinct label patterns of the concepts on it) until
    ``deadline`` or floor(log2 |C|) points: a lower bound of the VC dimension in seconds, where the exact
    VC search (:func:`solvers.vc.vc_search`) may take hours. ``all_or_nothing``: stop once :data:`MISSES` points
    have not joined (what settles Opt(C) is a set of floor(log2 |C|) points, which this then rarely reaches
    greedily): a few passes over the matrix for a class that is not close to all functions."""
    m = C.n_concepts
    most = min(62, m.bit_length() - 1)
    if m <= _BITSET_MOST and C.n_points <= _BITSET_POINTS:
        return _shattered_by_cells(C.column_words, C.columns, m, most, deadline, all_or_nothing)
    return _shattered_by_codes(np.asarray(C.matrix, dtype=bool), most, deadline, all_or_nothing)


def _shattered_by_codes(M: np.ndarray, most: int, deadline: float, all_or_nothing: bool) -> list:
    """:func:`shattered_points` on the matrix ``M`` with numpy: each concept's code is its label pattern on the
    points chosen, and a point joins when the codes extended by its column take all 2^(k+1) values."""
    m = M.shape[0]
    ones = M.sum(axis=0)
    codes = np.zeros(m, dtype=np.int64)

    def joins(j: int, k: int) -> bool:
        nonlocal codes
        trial = codes * 2 + M[:, j]
        if np.count_nonzero(np.bincount(trial, minlength=1 << (k + 1))) == 1 << (k + 1):
            codes = trial
            return True
        return False

    return _grow(np.argsort(-np.minimum(ones, m - ones), kind="stable").tolist(), ones.tolist(), m, most, deadline,
                 all_or_nothing, joins)


#: Classes of at most this many concepts over at most _BITSET_POINTS points grow their shattered set on the columns'
#: bitsets (:func:`_shattered_by_cells`): a few microseconds where numpy's passes over the matrix cost some ten. (Over
#: more points the search reads its root's splits with numpy, and making the bitsets would cost milliseconds.)
_BITSET_MOST = 128
_BITSET_POINTS = 256


def _shattered_by_cells(words, columns, m: int, most: int, deadline: float, all_or_nothing: bool) -> list:
    """:func:`shattered_points` on the columns as bitsets of the ``m`` concepts (and as ``words``): the same points
    in the same order. The concepts are kept in cells, one per label pattern on the points chosen (2^k cells of k
    points shattered), and a point joins when it splits every cell (it has both labels in each: the 2^(k+1)
    patterns are all realised)."""
    ones = np.bitwise_count(words).sum(axis=1, dtype=np.int64)
    cells = [(1 << m) - 1]

    def joins(j: int, k: int) -> bool:
        nonlocal cells
        col = columns[j]
        split = []
        for cell in cells:
            a = cell & col
            if a == 0 or a == cell:
                return False
            split.append(a)
            split.append(cell ^ a)
        cells = split
        return True

    return _grow(np.argsort(-np.minimum(ones, m - ones), kind="stable").tolist(), ones.tolist(), m, most, deadline,
                 all_or_nothing, joins)


#: The points that may fail to join a shattered set grown to settle Opt(C) before the growth gives up
#: (:func:`shattered_points` with ``all_or_nothing``). A point of the parities of n variables joins unless it is a
#: sum of those chosen, so that with the columns shuffled the n first points often hold one that does not (one seed
#: in two of scripts/bench_raw.py's parities n=12: the growth stopped at it, and the search took 0.043 s instead of
#: 0.007 s); each miss costs one pass over the matrix.
MISSES = 4


def _grow(order: list, ones: list, m: int, most: int, deadline: float, all_or_nothing: bool, joins) -> list:
    """The greedy growth of :func:`shattered_points` over the points in ``order`` (the most balanced first; ``ones[j]``
    the concepts labelling point j with 1, of ``m``): ``joins(j, k)`` says whether point j keeps the k points chosen
    shattered (and takes it in)."""
    chosen: list = []
    misses = 0
    for j in order:
        if len(chosen) >= most or time.monotonic() > deadline or interrupts.requested():
            break
        if not 0 < ones[j] < m:
            break  # (sorted: the constant columns come last)
        if joins(j, len(chosen)):
            chosen.append(j)
        elif all_or_nothing:
            misses += 1
            if misses >= MISSES:
                break
    return chosen


def upper_reason(C, upper) -> str:
    """Why a stopped search's upper bound ``upper`` on Opt(C) holds: Halving's bound floor(log2 |C|) when it
    is that, else the search's refutation of Opt(C) >= upper + 1 (its certificate: ``--proof``)."""
    if upper is None:
        return ""
    if upper >= C.log2_size():
        return f"Halving's bound floor(log2 |C|) ({HALVING_SOURCE})"
    return f"the search refuted Opt(C) >= {upper + 1} (write its certificate with --proof)"


def improve(C, r, seconds: float, solve, *, packed_from: int | None = None, tuning=None) -> list:
    """Better lower bounds for the stopped result ``r`` on ``C``, found within ``seconds``: a list of
    ``(value, tree, reason)``, deepest last, each tree checked against ``C`` (empty when nothing beats
    ``r.lower``). ``solve(D, time_limit)`` solves a restriction ``D`` (the exact search, without this pass).

    First a shattered set (:func:`shattered_points`, in a quarter of the time at most). The restrictions
    tried next are prefixes of C's points: half of them first, then, while a restriction is
    solved within its time, halfway between it and the whole class (three quarters, seven eighths, ...);
    when half is not solved, a quarter, an eighth, ... A Ctrl-C stops the pass: :class:`Interrupted`
    (a KeyboardInterrupt) carries what it had found. A class over at most 64 points with more than ``packed_from``
    concepts gets the packed search's tree (default: the ``tuning``'s :attr:`Tuning.anytime_packed_from
    <solvers.opt.control.Tuning.anytime_packed_from>`), over leaves of :attr:`Tuning.packed_leaf
    <solvers.opt.control.Tuning.packed_leaf>` concepts."""
    tuning = Tuning.default() if tuning is None else tuning
    found: list = []
    try:
        _improve(C, r, seconds, solve, found, tuning.anytime_packed_from if packed_from is None else packed_from,
                 tuning.packed_leaf)
    except KeyboardInterrupt as e:
        raise Interrupted(found) from e
    return found


def _packed(C, best: int, deadline: float, found: list, leaf: int) -> int:
    """A deeper tree by the packed search (:mod:`solvers.opt.packed`: balanced splits over the concepts' truth
    tables, the small version spaces solved exactly) by ``deadline``; appended to ``found``. Returns the best depth."""
    from . import packed

    S = packed.PackedSearch(packed.pack(C.matrix), C.n_points, leaf=leaf)
    S.lower = best  # (deeper only: its tree, if any, is the search's)
    try:
        S.deepen(deadline=deadline)
    except SearchStop:
        pass
    if S.lower > best and S.best is not None:
        tree = MistakeTree(S.lower, S.best, C)
        if checked(tree, S.lower, C):
            found.append((S.lower, tree, "a mistake tree found by the packed search (the most balanced splits over "
                                         f"the truth tables, version spaces of at most {S.leaf} concepts solved "
                                         "exactly)"))
            return S.lower
    return best


class Interrupted(KeyboardInterrupt):
    """A Ctrl-C during :func:`improve`; ``found`` holds the bounds it had proven by then."""

    def __init__(self, found: list):
        super().__init__()
        self.found = found


def _improve(C, r, seconds: float, solve, found: list, packed_from: int, leaf: int) -> None:
    """:func:`improve`'s work, each bound appended to ``found`` as it is proven."""
    from ..classes.finite import ConceptClass

    deadline = time.monotonic() + seconds
    n = C.n_points
    best = r.lower
    # A shattered set: the complete tree over it (by levels), at once.
    points = shattered_points(C, time.monotonic() + seconds / 4) if listed(C) else []
    if len(points) > best:
        tree = MistakeTree.shattered(points, C)
        if checked(tree, len(points), C):
            best = len(points)
            found.append((best, tree, shattered_reason(best)))
    if _embeds(C):
        embedded(C, best, time.monotonic() + (deadline - time.monotonic()) / 2, solve, out=found)
        best = max([best] + [b[0] for b in found])
    if not listed(C):
        return  # (the rest reads the matrix)
    if C.n_points <= 64 and C.n_concepts > packed_from:
        best = _packed(C, best, time.monotonic() + (deadline - time.monotonic()) / 2, found, leaf)
    tried: set = set()
    lo, hi = 1, n  # prefixes of `lo` points are solved; of `hi` points, not (the whole class: the search stopped)
    k = n // 2
    while 2 <= k < n and k not in tried:
        left = deadline - time.monotonic()
        if left <= 0.01 or interrupts.requested():
            break
        tried.add(k)
        D = ConceptClass(C.matrix[:, :k], C.points[:k])
        res = solve(D, left / 2)  # (half: a restriction not solved leaves time for a smaller one)
        if res.value is None:
            hi = k
        else:
            lo = k
            if res.value > best and res.tree is not None:
                tree = MistakeTree(res.value, res.tree.root, C)
                if checked(tree, res.value, C):
                    best = res.value
                    found.append((best, tree, f"Opt of the class restricted to its first {k} of {n} points (a "
                                              "mistake tree of the restriction is one of the class)"))
        k = (lo + hi) // 2


def settle_by_shattering(C, deadline: float, memo_bytes, symmetry: bool, t0: float):
    """The plan's first settler: ``(result, None)`` with Opt(C) when a shattered set found greedily by ``deadline``
    (:func:`shattered_points`) reaches the Halving bound floor(log2 |C|): the complete tree over it proves the lower
    bound, and the upper-bound certificate has no entries (fewer than 2^(d+1) concepts). Else ``(None, (d, tree))``
    with the d points shattered, the tree over them not yet checked by :func:`checked` (``(None, None)`` when
    none)."""
    if not listed(C):
        return None, None
    points = shattered_points(C, deadline, all_or_nothing=True)
    d = len(points)
    if d == 0:
        return None, None
    tree = MistakeTree.shattered(points, C)
    if d != C.log2_size():
        return None, (d, tree)  # (not checked here: whoever uses it checks it)
    if not checked(tree, d, C):  # (the tree checked by the checker independent of this search)
        return None, None
    # The solver (for SOA, and the upper-bound certificate, which has no entries) made on first use: its class's
    # distinct splits cost more than the rest of this (parities n=12 as a raw matrix: 0.019 s of 0.029 s).
    recipe = functools.partial(Solver, C, memo_bytes=memo_bytes, symmetry=symmetry)
    stats = Stats({"engine": "shattered set", "nodes": 0, "memo": 0, "evictions": 0, "memo_bytes": int(default_memo_bytes() if memo_bytes is None else memo_bytes),
                   "memo_used_bytes": 0, "seconds": round(time.monotonic() - t0, 4), "queries": [],
                   "stopped": None, "anytime": [{"lower": d, "reason": shattered_reason(d)}],
                   "symmetry": {"order": None, "source": "skipped: settled without a search", "seconds": None}})
    return OptResult(d, d, d, tree, stats, None, Game.of("deterministic", 0, None), solver_recipe=recipe), None
