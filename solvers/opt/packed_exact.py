"""Opt(C) decided exactly over packed truth tables, one memo entry per orbit of the cube's symmetries, with the
certificate of the upper bound.

:class:`~solvers.opt.packed.PackedSearch` finds mistake trees by trying a few balanced splits; a failed attempt proves
nothing. :class:`ExactSearch` answers "Opt(V) >= d?" for every version space it meets, by the recurrence of
[Rivest94] (docs/how-it-works/solver.md)::

    Opt(V) = max over x splitting V of 1 + min(Opt(V_x^0), Opt(V_x^1))

so "no" is a proof: for every split x with both sides of at least 2^(d-1) concepts (the others fail by the
cardinality bound) one child was shown to have Opt < d - 1. It keeps, per version space, the bounds it proved:
``lo`` with a tree and ``hi`` with the children that refuted each split (or, for a version space of at most ``leaf``
concepts, the exact :class:`~solvers.opt.search.Solver`'s own certificate over the points that split it).

**Symmetry.** When the class is closed under the signed permutations of the cube {0,1}^n (its 2^n points numbered
by their coordinates' bits; x -> sigma(x) XOR f, order 2^n n!), and possibly under complementing every label
(both are checked on the tables, nothing is assumed), a version space is keyed by the least image of its closure
(the points all its concepts label alike: ``ones`` and ``zeros``) over the group, as in :mod:`solvers.opt.canonical`.
Two version spaces with one key have the same Opt (the game with the points renamed and the labels perhaps
flipped), so each orbit is searched once. The images are computed for all 2^n n! elements at once: the n!
renamings of the coordinates by byte tables, then the 2^n flips by doubling (a flip of coordinate i swaps the bit
blocks at distance 2^i).

**The certificate** (:func:`solvers.certificates.packed.verify_packed_upper`) lists, for each version space whose
bound the cardinality bound does not give, its path from the class, its bound h, and for every split x with both
sides of at least 2^h concepts the child b and an entry r that it maps onto by a group element (sigma, f,
complement): the checker recomputes both closures and compares them. A leaf's entry carries the exact search's
certificate of its class instead.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.families import make
>>> from solvers.opt.packed import pack
>>> C = make("halfspaces", n=3)
>>> S = ExactSearch(pack(C.matrix), C.n_points, leaf=8)
>>> S.group.order, S.decide(6)[0], S.decide(7)[0]     # B_3 with the complement; Opt = 6
(96, True, False)
"""

from __future__ import annotations

import itertools
import time
from typing import Callable

import numpy as np

from .. import interrupts
from ..interrupts import resident_bytes  # the memory this process holds, for the memo's budget
from .canonical import byte_tables, images
from .memo import SearchStop, cancelled
from .control import Tuning
from .packed import LEAF_MEMO_BYTES, PackedSearch, _ones, _renamed, leaf_class, pack, sorted_tables

__all__ = ["CubeGroup", "Trivial", "ExactSearch", "cube_group_of", "solve"]

# The leaves' size of the exact search and the widths of its narrow searches are Tuning.packed_exact_leaf and
# Tuning.packed_exact_widths (solvers.opt.control).
#: The most entries a leaf's certificate may have
LEAF_PROOF_LIMIT = 1_000_000
_U64 = np.uint64


def _full(m: int) -> int:
    return (1 << m) - 1


class Trivial:
    """The group of the identity alone: a version space's key is its closure."""

    order = 1

    def __init__(self, m: int):
        self.ident = np.arange(m)

    def key(self, ones: int, zeros: int) -> tuple:
        return (ones, zeros), 0, False

    def point_map(self, e: int) -> np.ndarray:
        return self.ident

    def to_json(self):
        return None


class CubeGroup:
    """The signed permutations of {0,1}^n acting on the point indices 0..2^n - 1 (x -> sigma(x) XOR f, sigma a
    renaming of the index bits), times the complement of the labels when ``complement``.

    Element ``e`` (0 <= e < 2^n n!) is ``(s, f) = (e % n!, e // n!)``: the renaming ``self.sigmas[s]`` (bit i to
    bit sigma[i]), then XOR with f."""

    def __init__(self, n: int, complement: bool):
        if not 1 <= n <= 6:
            raise ValueError(f"the cube group acts on {{0,1}}^n for n = 1..6, not n = {n}")
        self.n, self.m, self.complement = n, 1 << n, bool(complement)
        self.sigmas = np.array(list(itertools.permutations(range(n))), dtype=np.int64)
        S = len(self.sigmas)
        self.S = S
        p = np.arange(self.m)
        bits = (p[None, :] >> np.arange(n)[:, None]) & 1  # (n, m)
        self.pmap = np.zeros((S, self.m), dtype=np.int64)  # pmap[s, x] = sigma_s(x)
        for i in range(n):
            self.pmap |= bits[i][None, :] << self.sigmas[:, i][:, None]
        self.bytes = byte_tables(self.pmap)  # the n! renamings (solvers.opt.canonical)
        self.swaps = []
        for i in range(n):
            keep = 0
            for x in range(self.m):
                if not (x >> i) & 1:
                    keep |= 1 << x
            self.swaps.append((_U64(1 << i), _U64(keep)))
        self.order = S * self.m * (2 if complement else 1)

    def images(self, mask: int) -> np.ndarray:
        """The image of a set of points (a bit mask) under every element, indexed by element."""
        a = images(self.bytes, mask)
        for sh, keep in self.swaps:
            a = np.concatenate([a, ((a & keep) << sh) | ((a >> sh) & keep)])
        return a

    def key(self, ones: int, zeros: int) -> tuple:
        """``(key, e, c)``: the least image (ones', zeros') of the closure over the group, and an element e (with the
        complement c) that maps the closure to it."""
        A, B = self.images(ones), self.images(zeros)
        best = None
        for first, second, c in ((A, B, False), (B, A, True)) if self.complement else ((A, B, False),):
            low = first.min()
            sel = np.flatnonzero(first == low)
            i = int(sel[np.argmin(second[sel])])
            cand = ((int(low), int(second[i])), i, c)
            if best is None or cand[0] < best[0]:
                best = cand
        return best

    def point_map(self, e: int) -> np.ndarray:
        """Element e as a map of the point indices."""
        return self.pmap[e % self.S] ^ (e // self.S)

    def as_sigma(self, h: np.ndarray) -> tuple:
        """A map of the point indices that is a signed permutation, as ``(sigma, f)``: x -> sigma(x) XOR f."""
        f = int(h[0])
        sigma = [int(h[1 << i] ^ f).bit_length() - 1 for i in range(self.n)]
        return sigma, f

    def to_json(self) -> dict:
        return {"n": self.n, "complement": self.complement}


def _bit_image(tables: np.ndarray, perm, m: int) -> np.ndarray:
    """Every table with its point x moved to perm[x]."""
    out = np.zeros_like(tables)
    nbytes = (m + 7) // 8
    for b in range(nbytes):
        lut = np.zeros(256, dtype=np.uint64)
        for t in range(8):
            x = 8 * b + t
            if x < m:
                lut[((np.arange(256) >> t) & 1).astype(bool)] |= _U64(1 << int(perm[x]))
        out |= lut[((tables >> _U64(8 * b)) & _U64(255)).astype(np.intp)]
    return out


def cube_group_of(tables: np.ndarray, n_points: int):
    """The largest of B_n x {1, complement}, B_n and the identity under which the class of ``tables`` (sorted) is
    closed, checked on the tables."""
    n = n_points.bit_length() - 1
    if n_points < 2 or n_points != 1 << n or n > 6:
        return Trivial(n_points)
    m = n_points
    x = np.arange(m)
    gens = [x ^ 1]  # negate coordinate 0
    if n >= 2:
        swap = (x & ~3) | ((x & 1) << 1) | ((x >> 1) & 1)  # swap coordinates 0 and 1
        cycle = ((x << 1) & (m - 1)) | (x >> (n - 1))
        gens += [swap, cycle]
    for perm in gens:
        if not np.array_equal(np.sort(_bit_image(tables, perm, m)), tables):
            return Trivial(m)
    comp = np.array_equal(np.sort(tables ^ _U64(_full(m))), tables)
    return CubeGroup(n, comp)


class _Entry:
    __slots__ = ("lo", "hi", "tree", "tree_e", "path", "e", "covers", "proof", "failed")

    def __init__(self, size: int):
        self.lo, self.hi = 0, size.bit_length() - 1
        self.tree = self.tree_e = self.path = self.e = self.covers = self.proof = self.failed = None


class ExactSearch:
    """Decide Opt(C) >= d exactly over a class of truth tables (see the module's docstring).

    Parameters
    ----------
    tables, n_points
        The class, as for :class:`~solvers.opt.packed.PackedSearch` (its order does not matter: it is sorted).
    leaf : int
        Version spaces of at most this many concepts are decided by :class:`~solvers.opt.search.Solver`.
    symmetry : bool
        Key version spaces by their orbits under the cube's group when the class is closed under it.
    progress : callable, optional
        Called about once a second with ``{"nodes", "entries", "leaves"}``.
    max_bytes : int, optional
        The most memory the process may hold (its resident size, looked at once a second): past it the search
        stops (:class:`SearchStop`, with :attr:`stop_reason` saying so). Default: half the machine's memory.
    """

    def __init__(self, tables, n_points: int, *, leaf: int | None = None, symmetry: bool = True,
                 progress: Callable[[dict], None] | None = None, max_bytes: int | None = None):
        T = sorted_tables(tables, n_points)
        self.tables, self.n_points = T, n_points
        self.leaf = max(2, int(Tuning.default().packed_exact_leaf if leaf is None else leaf))
        self.group = cube_group_of(T, n_points) if symmetry else Trivial(n_points)
        self.progress = progress
        self._memo: dict = {}
        self._entries: list[_Entry] = []
        self.nodes = 0
        self.leaf_searches = 0
        self.leaf_nodes = 0
        self._deadline = None
        self._width = None
        self._next_report = 0.0
        if max_bytes is None:
            from .search import default_memo_bytes

            max_bytes = default_memo_bytes()
        self.max_bytes = int(max_bytes)
        #: why the search stopped: "time limit" or "memory limit: ..." (None while it runs)
        self.stop_reason = None

    # ------------------------------------------------------------------ the search
    def decide(self, d: int, *, deadline: float | None = None, widths=None) -> tuple:
        """``(True, tree)`` when Opt(C) >= d (a mistake tree of depth d as nested dicts, None for d = 0), else
        ``(False, None)``: then :meth:`certificate` proves Opt(C) <= d - 1. Raises :class:`SearchStop` past
        ``deadline``; what was proven stays in the memo.

        The search first tries only the ``w`` most balanced splits of each version space, for each ``w`` of
        ``widths`` in turn (a tree, when there is one, is often found among them, and faster), then every split:
        a narrow search that finds no tree proves nothing, and only the complete one refutes (default:
        :attr:`~solvers.opt.control.Tuning.packed_exact_widths`)."""
        self._deadline = deadline
        widths = Tuning.default().packed_exact_widths if widths is None else widths
        try:
            for w in tuple(widths) + (None,):
                self._width = w
                ok, tree, _, complete = self._decide(self.tables, (), d)
                if ok or complete:
                    return ok, tree
        finally:
            self._deadline = None
            self._width = None
        raise RuntimeError("internal error: the complete search did not end complete")

    def _tick(self) -> None:
        interrupts.check()
        now = time.monotonic()
        if self._deadline is not None and now > self._deadline or cancelled():
            self.stop_reason = "cancelled" if cancelled() else "time limit"
            raise SearchStop
        if now >= self._next_report:
            self._next_report = now + 1.0
            used = resident_bytes()
            if used is not None and used > self.max_bytes:
                self.stop_reason = (f"memory limit: the process holds {used / 2**30:.3g} GB, past the "
                                    f"{self.max_bytes / 2**30:.3g} GB it may use (give more with --memory GB)")
                raise SearchStop
            if self.progress is not None:
                self.progress(self.info())

    def info(self) -> dict:
        return {"nodes": self.nodes + self.leaf_nodes, "entries": len(self._entries), "leaves": self.leaf_searches}

    def _decide(self, V: np.ndarray, path: tuple, need: int, ones: np.ndarray | None = None) -> tuple:
        """(ok, tree, ref, complete): whether a tree of depth ``need`` for V was found, the tree, ``(entry id, e, c)``
        naming V's entry and the element that maps V to its key (None when the cardinality bound decided), and
        whether a "no" is a proof (False when the width left splits untried, here or below). ``ones``: V's ones per
        point, when the caller has them."""
        n = len(V)
        if need <= 0:
            return n > 0, None, None, True
        if n < (1 << need):
            return False, None, None, True
        self._tick()
        if ones is None:
            ones = _ones(V, self.n_points)
        on = _mask(ones == n)
        off = _mask(ones == 0)
        key, e, c = self.group.key(on, off)
        eid = self._memo.get(key)
        if eid is None:
            eid = self._memo[key] = len(self._entries)
            self._entries.append(_Entry(n))
        ent = self._entries[eid]
        ref = (eid, e, c)
        if need <= ent.lo:
            return True, self._tree_for(ent, need, e, c), ref, True
        if need > ent.hi:
            return False, None, ref, True
        if n <= self.leaf:
            ok, tree = self._leaf(V, path, need, ent, e, c)
            return ok, tree, ref, True
        width = self._width
        if width is not None and ent.failed == (need, width):
            return False, None, ref, False  # (this narrow search found no tree here before)
        self.nodes += 1
        side = np.minimum(ones, n - ones)
        least = 1 << (need - 1)
        covers = []
        complete = True
        for rank, j in enumerate(np.argsort(-side, kind="stable")):
            j = int(j)
            k1 = int(ones[j])
            if side[j] < least:
                break
            if width is not None and rank >= width:
                complete = False
                break
            one = ((V >> _U64(j)) & _U64(1)).astype(bool)
            small = 1 if k1 <= n - k1 else 0
            children = {1: V[one], 0: V[~one]}
            counts = {small: _ones(children[small], self.n_points)} if need > 1 else {}
            if counts:  # the larger side's by subtraction
                counts[1 - small] = ones - counts[small]
            trees = {}
            for b in (small, 1 - small):
                ok, t, r, done = self._decide(children[b], path + ((j, b),), need - 1, counts.get(b))
                if not ok:
                    if done:
                        covers.append((j, b, r[0], r[1], int(r[2])))
                    else:
                        complete = False
                    break
                trees[b] = t
            else:
                tree = {"point": j, "0": trees[0], "1": trees[1]}
                if need > ent.lo:
                    ent.lo, ent.tree, ent.tree_e = need, tree, (e, c)
                return True, tree, ref, True
        if not complete:
            ent.failed = (need, width)
            return False, None, ref, False
        if need - 1 < ent.hi:
            ent.hi, ent.path, ent.e = need - 1, path, (e, c)
            ent.covers, ent.proof = np.array(covers, dtype=np.int64).reshape(-1, 5), None
        return False, None, ref, True

    def _tree_for(self, ent: _Entry, need: int, e: int, c: bool):
        """The entry's tree cut to depth ``need``, moved from the version space it was found for to this one."""
        from ..certificates.opt import cut_tree

        if need <= 0 or ent.tree is None:
            return None
        t = cut_tree(ent.tree, need)
        er, cr = ent.tree_e
        if er == e and cr == c:
            return t
        h = np.argsort(self.group.point_map(e))[self.group.point_map(er)]  # rep -> this one
        flip = int(cr != c)
        return _moved(t, h, flip)

    def _leaf(self, V, path, need, ent, e, c) -> tuple:
        from .search import Solver

        D, cols = leaf_class(V, self.n_points)
        if len(cols) == 0:
            ent.hi = 0
            return need <= 0, None
        S = Solver(D, memo_bytes=LEAF_MEMO_BYTES)
        self.leaf_searches += 1
        try:
            with S.limits(deadline=self._deadline):
                ok = S.decide(S.full, need)
                if ok:
                    t = _renamed(S.mistake_tree(S.full, need), cols)
                    if need > ent.lo:
                        ent.lo, ent.tree, ent.tree_e = need, t, (e, c)
                    return True, t
                proof = S.upper_proof(need - 1, limit=LEAF_PROOF_LIMIT)
        finally:
            self.leaf_nodes += S.nodes
        proof.pop("made_for", None)
        if need - 1 < ent.hi:
            ent.hi, ent.path, ent.e, ent.covers, ent.proof = need - 1, path, (e, c), None, proof
        return False, None

    # ------------------------------------------------------------------ the certificate
    def certificate(self, u: int) -> dict:
        """The certificate of Opt(C) <= u, after :meth:`decide` (u + 1) returned False (or u >= the Halving bound):
        ``{"kind": "upper-bound", "format": ..., "rule": "packed", "bound": u, "group": ..., "entries": [...]}`` for
        :func:`solvers.certificates.packed.verify_packed_upper` (:mod:`solvers.certificates.rules`)."""
        from ..certificates.rules import stamp

        out = stamp({"kind": "upper-bound", "bound": u, "group": self.group.to_json(), "concepts": len(self.tables),
                     "entries": []}, "packed")
        if len(self.tables).bit_length() <= u + 1:
            return out
        ones = _ones(self.tables, self.n_points)
        n = len(self.tables)
        root = self._memo.get(self.group.key(_mask(ones == n), _mask(ones == 0))[0])
        if root is None or self._entries[root].hi > u:
            raise ValueError(f"Opt(C) <= {u} was not proven by this search")
        index: dict[int, int] = {}
        entries = out["entries"]
        stack = [root]
        while stack:  # every entry the root's refutation rests on, each once
            eid = stack.pop()
            if eid in index:
                continue
            index[eid] = len(entries)
            ent = self._entries[eid]
            entries.append(eid)
            if ent.covers is not None:
                stack.extend(int(r) for r in ent.covers[:, 2] if int(r) not in index)
        for i, eid in enumerate(entries):
            ent = self._entries[eid]
            item = {"path": [[int(j), int(b)] for j, b in ent.path], "bound": int(ent.hi)}
            if ent.proof is not None:
                item["proof"] = ent.proof
            elif ent.covers is not None:
                er, cr = ent.e
                covers = []
                for j, b, r, ec, cc in ent.covers.tolist():
                    target = self._entries[r]
                    et, ct = target.e
                    h = np.argsort(self.group.point_map(et))[self.group.point_map(ec)]  # child -> target's version space
                    cover = [j, b, index[r]]
                    if self.group.order > 1:
                        sigma, f = self.group.as_sigma(h)
                        cover += [sigma, f, bool(cc) != bool(ct)]
                    covers.append(cover)
                item["covers"] = covers
            entries[i] = item
        return out


def _mask(flags: np.ndarray) -> int:
    """The bit mask of the True positions."""
    out = 0
    for j in np.flatnonzero(flags).tolist():
        out |= 1 << j
    return out


def _moved(root, h: np.ndarray, flip: int):
    """The tree with point x renamed h[x] and each edge label XOR ``flip`` (iteratively)."""
    if root is None:
        return None

    def node(t):
        return {"point": int(h[t["point"]]), "0": None, "1": None}, t

    out, src = node(root)
    stack = [(out, src)]
    while stack:
        new, old = stack.pop()
        for b in (0, 1):
            child = old[str(b)]
            if child is not None:
                nc, oc = node(child)
                new[str(b ^ flip)] = nc
                stack.append((nc, oc))
    return out


def solve(C, *, time_limit: float | None = None, progress: Callable[[dict], None] | None = None,
          leaf: int | None = None, width: int | None = None, exact_leaf: int | None = None,
          memo_bytes: int | None = None, tuning: Tuning | None = None):
    """The ``packed`` engine of :func:`solvers.opt.opt` for a class over at most 64 points (one that
    :func:`~solvers.opt.packed.handles` accepts, or a listed class): ``(lower, upper, tree, stats, proof)``.

    First the most balanced split alone (:meth:`PackedSearch.deepen`'s first phase: a deep tree comes fast), then the
    exact search of :mod:`solvers.opt.packed_exact` (every split, one memo entry per orbit of the cube's
    symmetries) from the top: it refutes depth ``upper`` (Halving's bound first) and lowers the upper bound, one level
    at a time, until it finds a tree, of depth Opt(C). The narrow searches of :meth:`ExactSearch.decide` run only one
    level above the best tree found (higher up the answer is likely a refutation, which only the complete search
    gives). ``proof(limit)`` writes the certificate of the last
    refutation (Halving's, without entries, when there was none); the memo carries over from one level to the
    next. The tree is checked against ``C`` by :func:`~solvers.certificates.verify_tree`. A time limit
    or Ctrl-C returns what was found so far (``stats["stopped"]``), and so does the process past ``memo_bytes`` of
    memory (default: half the machine's). ``leaf``, ``width``, ``exact_leaf`` default to the ``tuning``'s
    :attr:`~solvers.opt.control.Tuning.packed_leaf`, :attr:`~solvers.opt.control.Tuning.packed_width`,
    :attr:`~solvers.opt.control.Tuning.packed_exact_leaf`; its :attr:`~solvers.opt.control.Tuning.packed_exact_widths`
    are the narrow searches' widths."""
    from ..certificates import MistakeTree, ProofTooLarge, verify_tree

    tuning = Tuning.default() if tuning is None else tuning
    leaf = tuning.packed_leaf if leaf is None else leaf
    width = tuning.packed_width if width is None else width

    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    T = C.tables if getattr(C, "tables", None) is not None else pack(C.matrix)
    S = PackedSearch(T, C.n_points, leaf=leaf, width=width, progress=progress)
    stopped, attempts, X = None, [], None
    lower, upper, best_tree, refuted = S.lower, S.upper, None, False
    try:
        S.deepen(deadline=deadline, attempts=attempts, widen=False)
        lower, best_tree = S.lower, S.best
        nodes0, leaves0 = S.nodes + S.leaf_nodes, S.leaf_searches
        del S._leaves, S._orders  # (the exact search keeps its own)

        def exact_progress(info):
            if progress is not None:
                progress({"lower": lower, "upper": upper, "nodes": nodes0 + info["nodes"],
                          "leaves": leaves0 + info["leaves"]})

        X = ExactSearch(T, C.n_points, leaf=tuning.packed_exact_leaf if exact_leaf is None else exact_leaf,
                        progress=exact_progress, max_bytes=memo_bytes)
        while lower < upper:  # from the top: each refutation lowers the upper bound, the first tree ends it
            t = time.monotonic()
            # The narrow searches look for a tree: one level above the best tree found, where one is likely; higher
            # up a refutation is, and they would only delay it (decision lists n=6: 138 s with them at 17 too).
            ok, tree = X.decide(upper, deadline=deadline,
                                widths=tuning.packed_exact_widths if upper == lower + 1 else ())
            attempts.append({"depth": upper, "exact": True, "found": ok, "seconds": round(time.monotonic() - t, 3)})
            if ok:
                lower, best_tree = upper, tree
            else:
                upper, refuted = upper - 1, True
    except SearchStop:
        stopped = (X.stop_reason if X is not None else None) or "time limit"
    except KeyboardInterrupt:
        stopped = "interrupted"
    if S.lower > lower:  # (a tree the first phase found before it was stopped)
        lower, best_tree = S.lower, S.best
    tree = None
    check_seconds = None
    if lower >= 0:
        tree = MistakeTree(lower, best_tree, C)
        t = time.monotonic()
        checked = verify_tree(tree.to_json(), C)
        if checked != lower:  # (cannot happen: verify_tree raises on a bad tree)
            raise RuntimeError(f"internal error: the packed search's tree of depth {lower} checks at {checked}")
        check_seconds = round(time.monotonic() - t, 3)
    info = X.info() if X is not None else {"nodes": 0, "entries": 0, "leaves": 0}
    group = X.group.order if X is not None else None
    stats = {"engine": "packed", "nodes": S.nodes + S.leaf_nodes + info["nodes"], "memo": info["entries"],
             "seconds": round(time.monotonic() - t0, 4), "stopped": stopped,
             "leaves": S.leaf_searches + info["leaves"], "attempts": attempts, "tree_check_seconds": check_seconds,
             "symmetry": ({"order": group, "source": "the cube's signed permutations" + (
                 " and the complement" if getattr(X.group, "complement", False) else "") + ", checked on the truth "
                 "tables", "seconds": None} if group and group > 1 else None),
             "upper_reason": (f"the exact search refuted depth {upper + 1} ({info['entries']:,} version spaces, one per "
                              f"orbit of a group of order {group:,})" if refuted else
                              f"Halving: floor(log2 {len(T)}) = {upper}")}

    def proof(limit: int) -> dict:
        if not refuted:
            from ..certificates.rules import stamp

            return stamp({"kind": "upper-bound", "bound": upper, "entries": []}, "paths")
        cert = X.certificate(upper)
        if len(cert["entries"]) > limit:
            raise ProofTooLarge(f"the upper-bound certificate needs {len(cert['entries'])} entries, more than {limit}; "
                                "raise the limit")
        return cert

    return lower, upper, tree, stats, proof
