"""Bounds on Opt(C) for a class too large for the search's bitsets but over at most 64 points: halfspaces on
{0,1}^6, 15,028,134 concepts, each one 64-bit truth table (:class:`~solvers.classes.evaluated.EvaluatedClass`).

A version space is here a sorted array of truth tables, and splitting it at point j is one mask of the array.
The recurrence of [Rivest94] (docs/how-it-works/solver.md)::

    Opt(V) = max over x splitting V of 1 + min(Opt(V_x^0), Opt(V_x^1))

means a mistake tree of depth d for V is a point x and a tree of depth d - 1 for each child. :meth:`PackedSearch.tree`
looks for one by an AND-OR search: at each version space with more than ``leaf`` concepts it tries the ``width``
most balanced splits whose sides both hold at least 2^(d-1) concepts (the cardinality bound: a tree of depth d
needs 2^d concepts), the smaller child first; a version space of at most ``leaf`` concepts becomes a
:class:`~solvers.classes.finite.ConceptClass` over the points that split it, and the exact
:class:`~solvers.opt.search.Solver` decides Opt >= d there and writes its tree. With ``width`` at least the number
of points the search is complete (no tree means Opt(V) < d); with a small width it is a heuristic, and a tree it
finds is a proof all the same: :func:`~solvers.opt.packed_exact.solve` checks it with
:func:`solvers.certificates.verify_tree` against the class before it reports the bound.

:func:`solvers.opt.packed_exact.solve` is the ``packed`` engine of :func:`solvers.opt.opt`. It first finds the
deepest tree the most balanced split alone gives (one tree per depth, the depth raised while one is found:
:meth:`PackedSearch.deepen` with ``widen=False``); then the exact search of :mod:`solvers.opt.packed_exact` (every
split, one memo entry per orbit of the cube's symmetries) works from the top: it refutes Halving's bound,
floor(log2 |C|) ([Rivest94], [OnlineAlgs]), and lowers the upper bound one level at a time, each with a
certificate, until it finds a tree (of depth Opt(C)) or the time limit stops it.

The leaves' answers are kept (by a hash of their tables, with the tree at the best depth proven), and so are the
balance orders of the version spaces above them, so each deeper attempt repeats little.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("halfspaces", n=3)
>>> S = PackedSearch(pack(C.matrix), C.n_points, leaf=8)
>>> S.tree(6) is not None, S.tree(7)        # halfspaces on {0,1}^3: Opt = 6 (104 concepts)
(True, None)
"""

from __future__ import annotations

import hashlib
import time
from typing import Callable

import numpy as np

from .. import interrupts
from .memo import SearchStop, cancelled

__all__ = ["PackedSearch", "leaf_class", "pack", "handles", "sorted_tables"]

# The leaves' size and the splits tried above them are Tuning.packed_leaf and Tuning.packed_width
# (solvers.opt.control), where they were measured.
#: The exact search's memo per leaf, in bytes (a leaf's search is small; its memo is dropped after it)
LEAF_MEMO_BYTES = 256 * 2**20
_CHUNK = 1 << 20  # tables unpacked per numpy call when counting the ones of every point


def pack(matrix) -> np.ndarray:
    """The rows of a 0/1 matrix over at most 64 points as 64-bit truth tables (point j at bit j)."""
    M = np.asarray(matrix, dtype=bool)
    if M.ndim != 2 or M.shape[1] > 64:
        raise ValueError(f"a packed class has at most 64 points; this matrix has shape {M.shape}")
    bits = np.zeros((M.shape[0], 64), dtype=bool)
    bits[:, :M.shape[1]] = M
    return np.packbits(bits, axis=1, bitorder="little").view("<u8").ravel().astype(np.uint64)


def sorted_tables(tables, n_points: int) -> np.ndarray:
    """The truth tables of a packed class, sorted and contiguous, after checking them: 1..64 points, no bit past
    the last point, no two alike (ValueError, one line, otherwise)."""
    T = np.ascontiguousarray(tables, dtype=np.uint64)
    if not 1 <= n_points <= 64:
        raise ValueError(f"a packed class has 1..64 points, not {n_points}")
    if n_points < 64 and len(T) and int(np.bitwise_or.reduce(T)) >> n_points:
        raise ValueError(f"a truth table has a bit past point {n_points - 1}; give tables over {n_points} points")
    ordered = T if len(T) < 2 or np.all(T[1:] > T[:-1]) else np.sort(T)  # (sorted already: halfspaces)
    if len(ordered) > 1 and not np.all(ordered[1:] != ordered[:-1]):
        raise ValueError("the truth tables of a packed class must be distinct")
    return ordered


def handles(C) -> bool:
    """Whether ``C`` is a class this engine takes: an EvaluatedClass that holds truth tables (halfspaces)."""
    return getattr(C, "tables", None) is not None and getattr(C, "n_points", 65) <= 64


def _ones(V: np.ndarray, n_points: int) -> np.ndarray:
    """For every point, how many tables of V label it 1."""
    out = np.zeros(64, dtype=np.int64)
    for a in range(0, len(V), _CHUNK):
        out += np.unpackbits(V[a:a + _CHUNK].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little").sum(
            axis=0, dtype=np.int64)
    return out[:n_points]


class PackedSearch:
    """The AND-OR search for mistake trees over a class of truth tables (see the module's docstring).

    Parameters
    ----------
    tables : array of uint64
        The concepts, one truth table each (point j at bit j), distinct.
    n_points : int
        The number of points (at most 64).
    leaf, width : int, optional
        Version spaces of at most ``leaf`` concepts go to the exact search; ``width`` splits are tried per version
        space above them, the most balanced first (default: :attr:`~solvers.opt.control.Tuning.packed_leaf`,
        :attr:`~solvers.opt.control.Tuning.packed_width`).
    progress : callable, optional
        Called about once a second with ``{"lower", "upper", "nodes", "leaves"}``.
    """

    engine = "packed"

    def __init__(self, tables, n_points: int, *, leaf: int | None = None, width: int | None = None,
                 progress: Callable[[dict], None] | None = None):
        if leaf is None or width is None:
            from .control import Tuning

            leaf = Tuning.default().packed_leaf if leaf is None else leaf
            width = Tuning.default().packed_width if width is None else width
        T = np.ascontiguousarray(tables, dtype=np.uint64)  # (the counts view it as bytes)
        sorted_tables(T, n_points)  # (checked: the search keeps the order given)
        self.tables = T
        self.n_points = n_points
        self.leaf = max(2, int(leaf))
        self.width = max(1, int(width))
        self.progress = progress
        self.lower, self.upper = (-1, -1) if len(T) == 0 else (0, len(T).bit_length() - 1)
        self.best = None  # the tree of depth ``lower`` (None for depth 0)
        self.nodes = 0  # version spaces split above the leaves
        self.leaf_searches = 0  # leaves handed to the exact search
        self.leaf_nodes = 0  # nodes the exact searches expanded
        self._leaves: dict[bytes, list] = {}  # leaf digest -> [proven lower, proven upper, tree at lower]
        self._orders: dict[tuple, tuple] = {}  # a version space above the leaves (its examples) -> (ones, order)
        self._deadline = None
        self._next_report = 0.0

    # ------------------------------------------------------------------ the search
    def tree(self, d: int, *, deadline: float | None = None, width: int | None = None):
        """A mistake tree of depth ``d >= 1`` for the whole class (nested ``{"point", "0", "1"}`` dicts, a leaf
        None), or None when the search tried every split it may (``width`` per version space) and found none.
        Raises :class:`SearchStop` past ``deadline``."""
        old = self._deadline, self.width
        self._deadline = deadline
        if width is not None:
            self.width = max(1, int(width))
        try:
            ok, node = self._grow(self.tables, d, ())
        finally:
            self._deadline, self.width = old
        if ok and d > self.lower:
            self.lower, self.best = d, node
        return node if ok else None

    def deepen(self, *, deadline: float | None = None, width: int | None = None, attempts: list | None = None,
               widen: bool = True) -> int:
        """Raise :attr:`lower` (with its tree, :attr:`best`) as far as the search goes by ``deadline``: first the most
        balanced split alone (one tree tried per depth; from nothing, at d = 1, 2, 4, ... up to half the Halving
        bound), one level more at a time while a tree is found (a search that fails can take long: its leaves'
        refutations are exact); then one level more at a time with ``width`` splits per version space, twice as
        many each time the search ends without a tree, up to every point (where it is complete above the leaves); with
        ``widen`` False, the first phase only. Each attempt is appended to ``attempts`` (depth, width, found,
        seconds). Returns :attr:`lower` when no deeper tree is found with every split; raises :class:`SearchStop` at
        the deadline (:attr:`lower` and :attr:`best` hold what was found)."""
        attempts = [] if attempts is None else attempts

        def attempt(d: int, w: int) -> bool:
            t = time.monotonic()
            found = self.tree(d, deadline=deadline, width=w) is not None
            attempts.append({"depth": d, "width": w, "found": found, "seconds": round(time.monotonic() - t, 3)})
            return found

        if self.upper < 1:
            return self.lower
        if self.lower == 0:  # nothing known: d = 1, 2, 4, ... up to half the Halving bound (2^d version spaces at most)
            d = 1
            while d <= self.upper // 2 and attempt(d, 1):
                d *= 2
        while self.lower < self.upper and attempt(self.lower + 1, 1):
            pass
        if not widen:
            return self.lower
        w = self.width if width is None else max(1, int(width))
        while self.lower < self.upper:
            if not attempt(self.lower + 1, w):
                if w >= self.n_points:
                    break
                w = min(2 * w, self.n_points)
        return self.lower

    def _tick(self) -> None:
        interrupts.check()  # a Ctrl-C that a library swallowed stops the search here (solvers.interrupts)
        now = time.monotonic()
        if self._deadline is not None and now > self._deadline or cancelled():
            raise SearchStop
        if self.progress is not None and now >= self._next_report:
            self._next_report = now + 1.0
            self.progress(self.info())

    def info(self) -> dict:
        return {"lower": self.lower, "upper": self.upper, "nodes": self.nodes + self.leaf_nodes,
                "leaves": self.leaf_searches}

    def _grow(self, V: np.ndarray, need: int, path: tuple) -> tuple:
        """(True, a tree of depth ``need`` for V) or (False, None). ``path`` is the labelled examples that lead
        to V (its key among the version spaces above the leaves)."""
        n = len(V)
        if need <= 0:
            return n > 0, None
        if n < (1 << need):  # the cardinality bound
            return False, None
        if n <= self.leaf:
            return self._leaf(V, need)
        self._tick()
        self.nodes += 1
        ones, order = self._order(V, path)
        least = 1 << (need - 1)
        tried = 0
        for j in order:
            k1 = int(ones[j])
            if min(k1, n - k1) < least or tried == self.width:
                break  # (the order is by balance: no later split passes the cardinality bound)
            tried += 1
            one = ((V >> np.uint64(j)) & np.uint64(1)).astype(bool)
            small = 1 if k1 <= n - k1 else 0
            sides = {1: V[one], 0: V[~one]}
            steps = {b: path + ((j, b),) for b in (0, 1)}
            self._count_children(ones, sides, steps, small)
            ok, t_small = self._grow(sides[small], need - 1, steps[small])
            if not ok:
                continue
            ok, t_large = self._grow(sides[1 - small], need - 1, steps[1 - small])
            if ok:
                return True, {"point": j, str(small): t_small, str(1 - small): t_large}
        return False, None

    def _order(self, V: np.ndarray, path: tuple) -> tuple:
        """(the ones of every point over V, the points by balance, the most balanced first), kept per version
        space above the leaves (named by its examples, in any order)."""
        key = tuple(sorted(path))
        got = self._orders.get(key)
        if got is None or len(got) == 1:
            ones = _ones(V, self.n_points) if got is None else got[0]
            side = np.minimum(ones, len(V) - ones)
            got = self._orders[key] = (ones, tuple(int(j) for j in np.argsort(-side, kind="stable")))
        return got

    def _count_children(self, ones: np.ndarray, sides: dict, steps: dict, small: int) -> None:
        """Keep the ones of both children above the leaves: counted over the smaller, the larger's by subtraction."""
        keys = {b: tuple(sorted(steps[b])) for b in (0, 1)}
        if len(sides[1 - small]) <= self.leaf or keys[1 - small] in self._orders:
            return
        got = self._orders.get(keys[small])
        counted = got[0] if got is not None else _ones(sides[small], self.n_points)
        if got is None and len(sides[small]) > self.leaf:
            self._orders[keys[small]] = (counted,)
        self._orders[keys[1 - small]] = (ones - counted,)

    def _leaf(self, V: np.ndarray, need: int) -> tuple:
        """Decide Opt(V) >= need with the exact search over the points that split V."""
        from ..certificates.opt import cut_tree
        from .search import Solver

        digest = hashlib.blake2b(V.tobytes(), digest_size=16).digest()
        e = self._leaves.get(digest)
        if e is not None:
            if need <= e[0]:
                return True, cut_tree(e[2], need)
            if need > e[1]:
                return False, None
        self._tick()
        D, cols = leaf_class(V, self.n_points)
        if e is None:
            e = self._leaves[digest] = [0, len(V).bit_length() - 1, None]
        if len(cols) == 0:  # a single concept (the tables are distinct)
            e[1] = 0
            return need <= 0, None
        S = Solver(D, memo_bytes=LEAF_MEMO_BYTES)
        self.leaf_searches += 1
        try:
            with S.limits(deadline=self._deadline):
                ok = S.decide(S.full, need)
                t = S.mistake_tree(S.full, need) if ok else None
        finally:
            self.leaf_nodes += S.nodes
        if not ok:
            e[1] = min(e[1], need - 1)
            return False, None
        t = _renamed(t, cols)
        if need > e[0]:
            e[0], e[2] = need, t
        return True, t


def leaf_class(V: np.ndarray, n_points: int) -> tuple:
    """``(D, cols)``: the version space V as a ConceptClass ``D`` over the points ``cols`` that split it (column i
    of ``D`` is point ``cols[i]``)."""
    from ..classes.finite import ConceptClass

    bits = np.unpackbits(V.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, :n_points]
    ones = bits.sum(axis=0)
    cols = np.flatnonzero((ones > 0) & (ones < len(V)))
    return ConceptClass(bits[:, cols].astype(bool)), cols


def _renamed(root, cols: np.ndarray):
    """The tree with the points of a leaf's class renamed to the whole class's (iteratively)."""
    if root is None:
        return None
    out = {"point": int(cols[root["point"]]), "0": root["0"], "1": root["1"]}
    stack = [out]
    while stack:
        node = stack.pop()
        for b in ("0", "1"):
            child = node[b]
            if child is not None:
                node[b] = {"point": int(cols[child["point"]]), "0": child["0"], "1": child["1"]}
                stack.append(node[b])
    return out
