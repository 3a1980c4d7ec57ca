"""The compiled kernel of the generic search: "Opt(V) >= d?" on fixed-width word arrays, with numba.

:meth:`Solver._at_least <solvers.opt.search.Solver._at_least>` is the hot loop of the search for Opt(C)
on any class. This module runs the same search compiled (``numba.njit``), with the same rules in the same
order, so that it proves the same bounds with the same moves (and so the same mistake trees and
upper-bound certificates, built afterwards from the memo):

* a version space is a row of ``nwords`` uint64 words (bit c of word c // 64 = concept c);
* a node's candidate splits are indices into the root's distinct splits (the split of V at a root split
  r is ``roots[r] & V``), inherited from the parent, deduplicated up to complement in the parent's order;
* the cardinality bound, Opt(V) <= the number of distinct splits, the d == 2 shortcut, the balanced
  splits first (a stable sort, as Python's), the smaller child first, the children's memo entries looked
  at before either is searched;
* the memo is an open-addressing hash table in numpy arrays (keys = word rows; values lower, upper, the
  move, and an insertion number so that an eviction drops the older half, as the Python memo does);
* with a symmetry group in use (``Solver.canonical``), a version space of ``Solver._canon_min`` concepts or
  more is keyed by its orbit, as in Python: the compiled search computes the same least image as
  :meth:`Canonical.key <solvers.opt.canonical.Canonical.key>` (the closure from the class's columns as word
  rows, the group's byte tables) into a key row tagged as an orbit's; a move under an orbit key is recorded
  with Python's ``hash`` of the version space (the int modulo 2**61 - 1), so that the entries written back
  are those the Python search would have made, and ``Solver._move`` accepts their moves. A group found while
  the kernel runs is adopted at its next pause (keys up to isomorphism are not computed here: the kernel
  hands the query back, :class:`Abandon`).

Compiled code never sees signals, so the search is iterative, with an explicit stack in arrays, and each
call returns after a budget of nodes ("paused"); the Python side (:class:`Kernel`) then runs the search's
``_tick`` (deadline, Ctrl-C, progress) and resumes. The budget adapts so that one call takes about 10 ms.

The kernel needs numba; :func:`available` says whether it can be imported. Measured on the 2-CPU machine:
importing numba takes about 0.15 s and loading the compiled code from numba's cache 0.3 s (the first
compilation after an install, 9-12 s, is cached in ``__pycache__`` or numba's cache folder), so the solver
hands a search to the kernel only once it is big enough (see :data:`solvers.opt.search.KERNEL_AFTER_SECONDS`
and :func:`compiled`). ``LITTLESTONE_KERNEL`` chooses: ``auto`` (default), ``numba`` (the kernel for every
search, for tests) or ``python`` (never).

The whole memo is written back into the solver's (Python ints) when a root loop ends; with a small number of
words per version space that copy costs about as much as the compiled search itself (halfspaces n=4: 0.06 s
against 0.05 s).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994): Opt(C)
   and the recurrence the search decides (:mod:`solvers.opt.search`).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

__all__ = ["Kernel", "Abandon", "available", "compiled", "loaded", "mode", "MODES"]

MODES = ("auto", "numba", "python")

_PAUSED, _DONE, _FULL = 0, 1, 2  # what one call of the compiled search returns
_EMPTY = -1  # seq of an empty memo slot
_WORD = (1 << 64) - 1
# The compiled search computes Python's hash of an int as the int modulo 2**61 - 1 (64-bit CPython); elsewhere
# the moves under orbit keys are not written back (the tree builder then finds a proving split itself).
_HASH_OK = sys.hash_info.modulus == (1 << 61) - 1


class Abandon(Exception):
    """Raised by :meth:`Kernel.at_least` when the solver's keys became ones the kernel does not compute (up to
    isomorphism; or orbits in a table made without room for them): the solver takes the query back."""


def mode(value: str | None = None) -> str:
    """The kernel mode: ``value``, else ``$LITTLESTONE_KERNEL``, else "auto". Raises ValueError (one line)
    for an unknown value."""
    if value is None:
        value = os.environ.get("LITTLESTONE_KERNEL", "").strip() or "auto"
    if value not in MODES:
        raise ValueError(f"LITTLESTONE_KERNEL={value!r}: give one of auto, numba, python")
    return value


_compiled = None
_module_error: str | None = None
_import_error: str | None = None


def loaded() -> bool:
    """Whether this process has loaded the compiled functions already (a search then pays nothing more)."""
    return _compiled is not None


def available() -> bool:
    """Whether numba can be imported (the import itself happens on the first call)."""
    return _module() is not None


def _module():
    """The module of the compiled functions (importing it imports numba), or None without numba."""
    global _module_error
    if _module_error is not None:
        return None
    try:
        from . import _kernel_jit
    except ImportError as e:  # numba missing (or broken): the Python search serves
        _module_error = str(e)
        return None
    return _kernel_jit


def compiled() -> bool:
    """Whether numba's cache holds the compiled kernel: loading it then takes about 0.3 s, where the first
    compilation after an install takes 9-12 s."""
    jit = _module()
    if jit is None:
        return False
    try:
        return os.path.exists(jit.search._cache._cache_file._index_path)
    except AttributeError:  # another numba's cache layout: say no (the caller waits longer before compiling)
        return False


def _load():
    """The compiled functions (compiling, or loading them from numba's cache, on the first call); None
    without numba."""
    global _compiled, _import_error
    if _compiled is not None or _import_error is not None:
        return _compiled
    jit = _module()
    if jit is None:
        _import_error = _module_error
        return None
    # numba's first compilation (or load from its cache) imports scipy.linalg, when scipy is installed, to
    # offer BLAS (0.4 s); the kernel uses none, so that import is skipped while numba loads.
    blocked = "scipy.linalg.cython_blas" not in sys.modules
    if blocked:
        sys.modules["scipy.linalg.cython_blas"] = None
    try:
        jit.warm_up()
    finally:
        if blocked and sys.modules.get("scipy.linalg.cython_blas", 0) is None:
            del sys.modules["scipy.linalg.cython_blas"]
    _compiled = jit
    return _compiled


def _plain_move(m) -> int:
    """The point of a recorded move (under an orbit key: ``(hash, point)``), or -1 for none."""
    if isinstance(m, int):
        return m
    return m[1] if type(m) is tuple else -1


def _words(V: int, nwords: int) -> np.ndarray:
    return np.frombuffer(V.to_bytes(nwords * 8, "little"), dtype="<u8").copy()


class Kernel:
    """The compiled search's state for one :class:`~solvers.opt.search.Solver`: the root's splits as
    words, the memo table, the stack of the query under way.

    Parameters
    ----------
    solver : Solver
        Its class, root splits, memo (loaded into the table) and ``_tick`` are used.
    table_bytes : int
        The most memory the memo table may take; past it the table drops its older half.
    """

    ENTRY_OVERHEAD = 24  # lo, hi (int16), move (int32), the move's hash (int64), insertion number (int64)

    def __init__(self, solver, table_bytes: int):
        jit = _load()
        if jit is None:
            raise RuntimeError(f"the compiled kernel needs numba: {_import_error}")
        self.jit = jit
        self.S = solver
        C = solver.C
        self.nwords = W = (C.n_concepts + 63) // 64
        # With a symmetry group in use or to come, a key row has room for an orbit's key (two words) and a
        # last word telling orbit keys (1) from version spaces keyed by themselves (0).
        self.tagged = bool(solver._symmetric)
        self.kwords = max(W, 2) + 1 if self.tagged else W
        # the root's distinct splits as a (splits x words) matrix, from their bitsets
        words = getattr(solver.root_masks, "words", None)
        if words is None:
            raw = b"".join(m.to_bytes(W * 8, "little") for m in solver.root_masks)
            words = np.frombuffer(raw, dtype="<u8").reshape(len(solver.root_masks), W)
        self.roots = np.ascontiguousarray(words, dtype=np.uint64)
        self.points = np.asarray(solver.root_points, dtype=np.int32)
        self.canonical = None  # the Canonical whose keys the table holds (adopted by _adopt)
        self._orbit_args = (0, 0, np.zeros((1, W), dtype=np.uint64), np.zeros((1, 256, 1), dtype=np.uint64),
                            np.zeros(1, dtype=np.uint8), 0, np.zeros(1, dtype=np.int32))
        slot = self.kwords * 8 + self.ENTRY_OVERHEAD
        self.max_cap = 16
        while self.max_cap * 2 * slot <= table_bytes:
            self.max_cap *= 2
        self._alloc(min(1 << 12, self.max_cap))
        self.seq = 0
        self.evictions = 0
        self.budget = 64  # nodes per call, adapted to take about 10 ms
        self._adopt()
        self._load_memo()

    def _adopt(self) -> bool:
        """Follow the solver's keys: orbit keys once its canonical keys are in use (True), else plain keys;
        False when its keys are some the kernel cannot compute (up to isomorphism), or orbits in an
        untagged table."""
        S = self.S
        K = S.canonical
        if S._canon is None:
            return True
        if not self.tagged or K is None or S._canon != K.key:
            return False
        if self.canonical is not K:
            args = getattr(K, "_kernel_args", None)  # made once per Canonical (the tables are not copied)
            if args is None:
                W = self.nwords
                raw = b"".join(c.to_bytes(W * 8, "little") for c in S.C.columns)
                cols = np.frombuffer(raw, dtype="<u8").reshape(len(S.C.columns), W).copy()
                args = K._kernel_args = (cols, np.ascontiguousarray(K.tables, dtype=np.uint64),
                                         np.ascontiguousarray(K.flips, dtype=np.uint8), int(K.wide))
            self._orbit_args = (1, int(S._canon_min), *args, np.zeros(K.order, dtype=np.int32))
            self.canonical = K
        return True

    # ------------------------------------------------------------------ the memo table
    def _alloc(self, cap: int) -> None:
        self.keys = np.zeros((cap, self.kwords), dtype=np.uint64)
        self.lo = np.zeros(cap, dtype=np.int16)
        self.hi = np.zeros(cap, dtype=np.int16)
        self.move = np.full(cap, -1, dtype=np.int32)
        self.mhash = np.zeros(cap, dtype=np.int64)
        self.seqs = np.full(cap, _EMPTY, dtype=np.int64)
        self.count = 0

    @property
    def table_bytes(self) -> int:
        """The bytes the memo table's arrays take."""
        return (self.keys.nbytes + self.lo.nbytes + self.hi.nbytes + self.move.nbytes + self.mhash.nbytes
                + self.seqs.nbytes)

    def _limit(self) -> int:
        return len(self.seqs) // 2  # at most half full

    def _make_room(self) -> None:
        """Double the table, or at its largest drop the older half of its entries."""
        cap = len(self.seqs)
        used = self.seqs[self.seqs != _EMPTY]
        if cap < self.max_cap:
            cut = -1
            cap *= 2
        else:
            drop = len(used) // 2 + 1  # as MemoSearch._evict
            cut = int(np.partition(used, drop - 1)[drop - 1])
            self.evictions += 1
        old = self.keys, self.lo, self.hi, self.move, self.mhash, self.seqs
        self._alloc(cap)
        self.count = int(self.jit.rehash(*old, cut, self.keys, self.lo, self.hi, self.move, self.mhash, self.seqs))

    def _row(self, key: int) -> bytes:
        """The key row (bytes) of a memo key: a version space, or an orbit's key (negative)."""
        W8 = self.kwords * 8
        if key > 0:
            return key.to_bytes(W8, "little")
        k = ~key
        if self.canonical.wide:
            k = (k >> 64) | ((k & _WORD) << 64)  # word 0: the images of the ones, word 1: of the zeros
        return (k | (1 << (W8 * 8 - 64))).to_bytes(W8, "little")

    def _key(self, row: bytes):
        """The memo key of a key row (bytes): the inverse of :meth:`_row`."""
        k = int.from_bytes(row, "little")
        if not self.tagged or not row[-8]:
            return k
        k &= (1 << 128) - 1
        if self.canonical.wide:
            k = (k >> 64) | ((k & _WORD) << 64)
        return ~k

    def _load_memo(self) -> None:
        """The solver's memo (plain keys, and orbit keys once adopted; not keys up to isomorphism) and moves,
        in insertion order."""
        S = self.S
        orbits = self.canonical is not None
        items = [(V, e) for V, e in S.memo.items() if type(V) is int and (V > 0 or orbits)]
        if not items:
            return
        W = self.kwords
        rows = np.frombuffer(b"".join(self._row(V) for V, _ in items), dtype="<u8").reshape(-1, W)
        lo = np.array([e[0] for _, e in items], dtype=np.int16)
        hi = np.array([e[1] for _, e in items], dtype=np.int16)
        moves = [S.moves.get(V) for V, _ in items]
        mv = np.array([_plain_move(m) for m in moves], dtype=np.int32)
        mh = np.array([m[0] if type(m) is tuple else 0 for m in moves], dtype=np.int64)
        start = 0
        while start < len(items):
            while self.count >= self._limit():
                self._make_room()
            take = min(len(items) - start, self._limit() - self.count)
            part = slice(start, start + take)
            self.count, self.seq = self.jit.insert_many(
                rows[part], lo[part], hi[part], mv[part], mh[part],
                self.keys, self.lo, self.hi, self.move, self.mhash, self.seqs, self.count, self.seq)
            start += take

    def write_back(self) -> None:
        """Store every entry of the table in the solver's memo (ints, insertion order), with its move (under an
        orbit key: ``(hash of the version space, point)``, as ``Solver._at_least`` records it); the memo's byte
        count grows as by ``Solver._store``, and an eviction follows when it passes the budget."""
        S = self.S
        used = np.flatnonzero(self.seqs != _EMPTY)
        used = used[np.argsort(self.seqs[used], kind="stable")]
        W8 = self.kwords * 8
        raw = self.keys[used].tobytes()
        if self.tagged:
            key = self._key
            keys = [key(raw[i:i + W8]) for i in range(0, len(raw), W8)]
        else:
            frm = int.from_bytes
            keys = [frm(raw[i:i + W8], "little") for i in range(0, len(raw), W8)]
        memo = S.memo
        S._memo_used += sum([(V.bit_length() >> 3) + 120 for V in keys if V not in memo])
        memo.update(zip(keys, zip(self.lo[used].tolist(), self.hi[used].tolist())))
        mv = self.move[used]
        has = np.flatnonzero(mv >= 0).tolist()
        mh = self.mhash[used].tolist()
        mv = mv.tolist()
        S.moves.update([(keys[i], mv[i] if keys[i] > 0 else (mh[i], mv[i])) for i in has if _HASH_OK or keys[i] > 0])
        while S._memo_used > S.memo_bytes and memo:
            S._evict()

    # ------------------------------------------------------------------ a query
    def at_least(self, V: int, d: int) -> bool:
        """Decide Opt(V) >= d for a version space V (as ``Solver._at_least`` from the root's splits),
        running the solver's ``_tick`` between calls (it may raise SearchStop or KeyboardInterrupt)."""
        S = self.S
        if not self._adopt():
            raise Abandon()
        W = self.nwords
        R = len(self.points)
        D = max(d, 1) + 2
        Vs = np.zeros((D, W), dtype=np.uint64)
        Vs[0] = _words(V, W)
        Ks = np.zeros((D, self.kwords), dtype=np.uint64)
        pool = np.zeros((D + 1, R), dtype=np.int32)
        pool[0] = np.arange(R, dtype=np.int32)
        goods = np.zeros((D, R), dtype=np.int32)
        frame = np.zeros((D, 10), dtype=np.int64)  # see solvers.opt._kernel_jit
        frame[0, 0] = d
        frame[0, 1] = V.bit_count()
        frame[0, 8] = R
        ntab = 1
        while ntab < 2 * R + 2:
            ntab *= 2
        stab = np.zeros(ntab, dtype=np.int32)
        sgen = np.zeros(ntab, dtype=np.int64)
        gm = np.zeros(max(R, 1), dtype=np.int64)
        state = np.array([0, -1, S.nodes, self.seq], dtype=np.int64)  # sp, result, nodes, seq
        while True:
            state[2] = S.nodes
            stop_at = S.nodes + self.budget
            t0 = time.perf_counter()
            status, count = self.jit.search(self.roots, self.points, Vs, Ks, pool, goods, frame, stab, sgen, gm,
                                            state, self.keys, self.lo, self.hi, self.move, self.mhash, self.seqs,
                                            self.count, self._limit(), stop_at, *self._orbit_args)
            spent = time.perf_counter() - t0
            self.count = int(count)
            S.kernel_nodes += int(state[2]) - S.nodes
            S.nodes = int(state[2])
            self.seq = int(state[3])
            if status == _DONE:
                return bool(state[1])
            if status == _FULL:
                self._make_room()
                continue
            if spent < 0.005 and self.budget < 1 << 22:
                self.budget *= 2
            elif spent > 0.02 and self.budget > 1:
                self.budget //= 2
            S._tick()
            if not self._adopt():
                raise Abandon()
