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
* the memo is two open-addressing hash tables in numpy arrays sharing one byte budget (values lower, upper, the
  move, and an insertion number so that an eviction drops the older half, as the Python memo does): a version
  space of at most :attr:`Kernel.narrow_max` concepts is keyed in the narrow table by its concepts' indices in
  the class (16 bits each where the class has fewer than 65,535 concepts), any other in the wide table by its
  words over the class; both name the version space itself, as Python's int keys do (:meth:`Kernel.write_back`
  turns them into those ints);
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

The kernel needs numba (and llvmlite, which numba is built on); :func:`available` says whether they are
installed. numba compiles the entry points of :mod:`solvers.opt._kernel_jit` (C callbacks over raw pointers) once,
in 15-25 s, in a child process; :mod:`solvers.opt._kernel_cache` keeps their machine code and loads it in about
0.05 s without importing numba (numba itself takes 0.5-0.7 s to load them from its cache). The first search that
runs long enough to want the kernel starts that build (a note on stderr says so), goes on in Python, and hands over
once the machine code is there (see :attr:`~solvers.opt.control.Tuning.kernel_after_seconds`), as every later
process does. The build belongs to the process that started it: waited for at its exit (a note says how long),
stopped by a Ctrl-C of the command, never left running after it. ``littlestone kernel build`` builds it up
front, ``littlestone kernel status`` says where it is and whether it is current.
Where the machine code cannot be kept (no writable cache folder, or not Linux), numba loads the kernel in this
process, only for a search that has run :attr:`~solvers.opt.control.Tuning.kernel_compile_after_seconds`.
``LITTLESTONE_KERNEL`` chooses: ``auto`` (default), ``numba`` (the kernel for every search, built first if need
be; for tests) or ``python`` (never).

The whole memo is written back into the solver's (Python ints) when a root loop ends; with a small number of
words per version space that copy costs about as much as the compiled search itself (halfspaces n=4: 0.06 s
against 0.05 s).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994): Opt(C)
   and the recurrence the search decides (:mod:`solvers.opt.search`).
"""

from __future__ import annotations

import ctypes
import functools
import gc
import importlib.util
import mmap
import os
import sys
import time
import weakref
from pathlib import Path

import numpy as np

from ..numbers import bit_positions
from . import _kernel_cache, _kernel_so
from ._kernel_abi import SIGNATURES
from ._kernel_cache import BuildError, end_build  # noqa: F401 (end_build: the builds this process started)

__all__ = ["Kernel", "Abandon", "Unloadable", "available", "compiled", "load_seconds", "loaded", "mode", "start_build",
           "how", "status", "build", "end_build", "BuildError", "BUILD_SECONDS", "MODES", "SIGNATURES"]

#: About how long building the kernel's machine code takes (once per install).
BUILD_SECONDS = _kernel_cache.BUILD_SECONDS


MODES = ("auto", "numba", "python")

_PAUSED, _DONE, _FULL, _ERROR = 0, 1, 2, 3  # what one call of the compiled search (or tree walk) returns
_EMPTY = -1  # seq of an empty memo slot
_WORD = (1 << 64) - 1
# The compiled search computes Python's hash of an int as the int modulo 2**61 - 1 (64-bit CPython); elsewhere
# the moves under orbit keys are not written back (the tree builder then finds a proving split itself).
_HASH_OK = sys.hash_info.modulus == (1 << 61) - 1


class Unloadable(RuntimeError):
    """Raised by :class:`Kernel` when the compiled functions cannot be loaded in this process (numba missing or
    broken, or numba's cache without a folder: ``cannot cache function ...: no locator available``); the search
    goes on in Python."""


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


_fns: dict | None = None  # name -> the entry point as a ctypes function, once loaded
_saved = None  # the machine-code file, once seen
_so_saved = None  # the machine-code file whose shared object for this CPU was seen
_how: str | None = None  # how it was loaded: "shared object" (ctypes), "machine code" (llvmlite) or "numba"
_module_error: str | None = None
_import_error: str | None = None


def loaded() -> bool:
    """Whether this process has loaded the compiled functions already (a search then pays nothing more)."""
    return _fns is not None


def how() -> str | None:
    """How this process loaded the kernel: "shared object" (the saved machine code linked for this CPU, through
    ctypes: :mod:`solvers.opt._kernel_so`), "machine code" (the saved machine code, through llvmlite), "numba"
    (numba in this process), or None (not loaded)."""
    return _how


def available() -> bool:
    """Whether numba and llvmlite are installed (nothing is imported) and the kernel has not failed to load."""
    return _import_error is None and _installed()


@functools.lru_cache(maxsize=None)
def _installed() -> bool:
    return importlib.util.find_spec("numba") is not None and importlib.util.find_spec("llvmlite") is not None


def _module():
    """The module of the compiled functions (importing it imports numba and compiles them, or loads them from
    numba's cache), or None without numba."""
    global _module_error
    if _module_error is not None:
        return None
    try:
        from . import _kernel_jit
    except Exception as e:  # noqa: BLE001 - numba missing, broken, or without a folder for its cache: Python serves
        _module_error = str(e)
        return None
    return _kernel_jit


#: What loading the kernel takes, measured here: from its shared object (ctypes, :mod:`solvers.opt._kernel_so`), from
#: its saved machine code (llvmlite), and through numba from numba's own cache (where no machine code is kept).
SO_LOAD_SECONDS = 0.0005
LOAD_SECONDS = 0.04
NUMBA_LOAD_SECONDS = 0.6


def load_seconds() -> float | None:
    """What loading the kernel costs now: 0 when this process has it, :data:`SO_LOAD_SECONDS` from its shared
    object for this CPU, :data:`LOAD_SECONDS` from its saved machine code (:mod:`solvers.opt._kernel_cache`),
    :data:`NUMBA_LOAD_SECONDS` where numba loads it from its own
    cache (no machine code kept here, or its build failed), None when it is not built yet (the first build takes
    15-25 s)."""
    global _saved, _so_saved
    if _fns is not None:
        return 0.0
    p = _kernel_cache.path()
    if p is not None:
        if _saved is p or p.exists():
            _saved = p  # (looked at once: a search asks at every query)
            if _so_saved is not p:
                target = _kernel_so.so_path(p)
                if target is None or not target.exists():
                    return LOAD_SECONDS
                _so_saved = p
            return SO_LOAD_SECONDS
        if _kernel_cache.failed(p) is None:
            return None
    here = Path(__file__).resolve().parent / "__pycache__"
    return NUMBA_LOAD_SECONDS if any(here.glob("_kernel_jit.search_c-*.nbi")) else None


def compiled() -> bool:
    """Whether the kernel is built (loading it takes :func:`load_seconds`), or loaded already."""
    return load_seconds() is not None


def start_build() -> bool:
    """Start building the kernel's machine code in a child process (ended with this one: see
    :func:`solvers.opt._kernel_cache.start_build`) unless it is built or being built: True when it is there or on
    its way, False where machine code is not kept (or its build failed)."""
    if not available():
        return False
    return _kernel_cache.start_build()


def status() -> dict:
    """The kernel's state, without loading or building it: ``mode`` (:func:`mode`), ``numba`` (:func:`available`),
    and where its machine code is kept (``path``: None where none is kept, ``why`` then says why), whether it
    ``exists``, is ``current`` (made from this source, by these versions of numba and llvmlite, for this CPU), is
    ``building`` (by some process), or ``failed`` (why its last build failed), and ``why`` in words when not current."""
    return {"mode": mode(), "numba": available(), **_kernel_cache.cache_status()}


def build(tick=None) -> dict:
    """Build the kernel's machine code now (about :data:`BUILD_SECONDS`, once per install) unless it is current,
    in a child process that a Ctrl-C stops and that never outlives this call; ``tick()`` is called every 0.1 s
    while it runs. Returns :func:`status` with ``seconds`` (spent here) and ``built`` (whether this call built it).

    A file made for another source, versions or CPU is made afresh, and a build that failed before is tried again.
    Raises ValueError (one line) where there is nothing to build (numba not installed, or no machine code kept
    here), and :class:`BuildError` when the build fails (the message says why)."""
    if not available():
        raise ValueError("numba (with llvmlite) is not installed, so there is no kernel to build: pip install numba")
    target = _kernel_cache.path()
    if target is None:
        raise ValueError(_kernel_cache.cache_status()["why"])
    t0 = time.monotonic()
    before = _kernel_cache.cache_status(target)
    if before["current"]:
        return {**status(), "seconds": 0.0, "built": False}
    if before["exists"]:
        target.unlink(missing_ok=True)
    target.with_name(target.name + ".failed").unlink(missing_ok=True)  # (asked for: tried again)
    try:
        _kernel_cache.start_build(target, say=False)  # (the caller shows its progress)
        while _kernel_cache.building(target) and not target.exists():
            if tick is not None:
                tick()
            time.sleep(0.1)
    finally:
        _kernel_cache.end_build(wait=False)  # (done, or stopped by a Ctrl-C: nothing runs on)
    if not target.exists():
        why = _kernel_cache.failed(target) or "its build ended without its file"
        raise BuildError(f"the kernel was not built: {why}")
    return {**status(), "seconds": time.monotonic() - t0, "built": True}


def _ctypes_fn(name: str, address: int):
    argtypes = [ctypes.c_void_p if t.endswith("*") else ctypes.c_int64 for t in SIGNATURES[name].split()]
    return ctypes.CFUNCTYPE(ctypes.c_int64, *argtypes)(address)


def _load():
    """The compiled functions (name -> ctypes function): from the saved machine code (built first, waiting for
    it, when missing), else compiled or loaded by numba in this process; None without numba."""
    global _fns, _how, _import_error
    if _fns is not None or _import_error is not None:
        return _fns
    if not available():
        _import_error = "numba (with llvmlite) is not installed"
        return None
    if _kernel_cache.usable():
        target = _kernel_cache.path()
        got = _kernel_cache.read(target) if target is not None else None
        addresses = _kernel_so.open_shared(target, got)  # (linked for this CPU: no llvmlite)
        how = "shared object"
        if addresses is None or set(addresses) != set(SIGNATURES):
            how = "machine code"
            addresses = _kernel_cache.load()
            if addresses is None and _kernel_cache.start_build(wait=True):
                addresses = _kernel_cache.load()
            if addresses is not None and set(addresses) == set(SIGNATURES) and target is not None:
                _kernel_so.start_link(target, got or _kernel_cache.read(target))  # (checked for this CPU just
                # now: later processes load it with ctypes)
        if addresses is not None and set(addresses) == set(SIGNATURES):
            _fns = {name: _ctypes_fn(name, a) for name, a in addresses.items()}
            _how = how
            return _fns
    jit = _module()
    if jit is None:
        _import_error = _module_error
        return None
    _fns = {name: _ctypes_fn(name, cf.address) for name, cf in jit.ENTRIES.items()}
    _how = "numba"
    return _fns


def _plain_move(m) -> int:
    """The point of a recorded move (under an orbit key: ``(hash, point)``), or -1 for none."""
    if isinstance(m, int):
        return m
    return m[1] if type(m) is tuple else -1


def _words(V: int, nwords: int) -> np.ndarray:
    return np.frombuffer(V.to_bytes(nwords * 8, "little"), dtype="<u8").copy()


def _p(a: np.ndarray) -> int:
    """The address of an array's data (C-contiguous)."""
    return a.ctypes.data


def _pages(shape, dtype, fill: int = 0, populate: bool = False) -> np.ndarray:
    """An array of ``fill`` for a memo table: past 2 MB, in pages of its own that the system is asked not to make
    huge (numpy asks for huge pages, and where memory is fragmented a fault on one then waits for the system to
    compact memory: up to 0.3 s in a 0.2 s search, measured on intervals N=160); probes land anywhere in a table, so
    huge pages buy little there."""
    dtype = np.dtype(dtype)
    size = int(np.prod(shape)) * dtype.itemsize
    if size < 1 << 21:
        return np.full(shape, fill, dtype=dtype)
    # anonymous zero pages; with ``populate`` (a table grown into, whose probes will touch all its pages soon) mapped
    # at once, which one call does faster than as many faults
    # (up to 64 MB: a larger one, mapped at once, would hold the search past a deadline for as long as that takes)
    populate = populate and size <= 1 << 26
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | (getattr(mmap, "MAP_POPULATE", 0) if populate else 0)
    m = mmap.mmap(-1, size, flags=flags)
    advise = getattr(m, "madvise", None)
    if advise is not None and hasattr(mmap, "MADV_NOHUGEPAGE"):
        try:
            advise(mmap.MADV_NOHUGEPAGE)
        except OSError:
            pass
    a = np.frombuffer(m, dtype=dtype).reshape(shape)
    if fill:
        a.fill(fill)
    return a


class _Table:
    """One of a :class:`Kernel`'s memo tables: an open-addressing hash table in numpy arrays (a slot: the key's
    hash, then its ``kwords`` words; lower, upper, the move, the move's hash, the insertion number), its count in
    ``tstate[slot]``, at most three quarters full; when full it doubles, or drops its older half where the
    kernel's tables may not grow (:meth:`Kernel._make_room`: they share the kernel's bytes)."""

    def __init__(self, fns: dict, kwords: int, budget: int, tstate: np.ndarray, slot: int):
        self.fns = fns
        self.kwords = kwords
        self.tstate = tstate
        self.slot = slot
        size = (kwords + 1) * 8 + Kernel.ENTRY_OVERHEAD
        cap = 16
        while cap < 1 << 12 and cap * 2 * size <= budget:
            cap *= 2
        self.alloc(cap)

    def alloc(self, cap: int, populate: bool = False) -> None:
        # a slot: the key's hash, then the key (read only where ``seqs`` says the slot is used)
        self.keys = _pages((cap, self.kwords + 1), np.uint64, populate=populate)
        self.lo = _pages(cap, np.int16)
        self.hi = _pages(cap, np.int16)
        self.move = _pages(cap, np.int32, -1)
        self.mhash = _pages(cap, np.int64)
        self.seqs = _pages(cap, np.int64, _EMPTY)
        self.tstate[self.slot] = 0
        #: the table's arguments of the compiled functions, up to its capacity
        self.args = (_p(self.keys), _p(self.lo), _p(self.hi), _p(self.move), _p(self.mhash), _p(self.seqs), cap)

    @property
    def count(self) -> int:
        return int(self.tstate[self.slot])

    @property
    def nbytes(self) -> int:
        return (self.keys.nbytes + self.lo.nbytes + self.hi.nbytes + self.move.nbytes + self.mhash.nbytes
                + self.seqs.nbytes)

    def limit(self) -> int:
        return len(self.seqs) * 3 // 4  # at most three quarters full

    def _count_p(self) -> int:
        return _p(self.tstate) + 8 * self.slot

    def make_room(self, grow: bool) -> int:
        """Double the table (``grow``), or drop the older half of its entries (then 1: an eviction)."""
        cap = len(self.seqs)
        evicted = 0
        if grow:
            cut = -1
            cap *= 2
        else:
            used = self.seqs[self.seqs != _EMPTY]
            drop = len(used) // 2 + 1  # as MemoSearch._evict
            cut = int(np.partition(used, drop - 1)[drop - 1])
            evicted = 1
        old = self.args
        keep = self.keys, self.lo, self.hi, self.move, self.mhash, self.seqs  # (alive while rehashed)
        self.alloc(cap, populate=True)
        self.fns["rehash"](*old, self.kwords, cut, *self.args, self._count_p())  # (sets the count)
        del keep
        return evicted

    def insert(self, rows: np.ndarray, items: list, moves: dict, may_grow) -> int:
        """Store the entries ``items`` ((key, (lower, upper)) pairs, their moves in ``moves``) under the key rows
        ``rows``, in order (``may_grow(table)``: whether it may double when full); the evictions this took."""
        lo = np.array([e[0] for _, e in items], dtype=np.int16)
        hi = np.array([e[1] for _, e in items], dtype=np.int16)
        mvs = [moves.get(V) for V, _ in items]
        mv = np.array([_plain_move(m) for m in mvs], dtype=np.int32)
        mh = np.array([m[0] if type(m) is tuple else 0 for m in mvs], dtype=np.int64)
        evicted = 0
        start = 0
        while start < len(items):
            while self.count >= self.limit():
                evicted += self.make_room(may_grow(self))
            take = min(len(items) - start, self.limit() - self.count)
            part = [np.ascontiguousarray(a[start:start + take]) for a in (rows, lo, hi, mv, mh)]
            self.fns["insert_many"](_p(part[0]), take, self.kwords, _p(part[1]), _p(part[2]), _p(part[3]),
                                    _p(part[4]), *self.args, self._count_p(), _p(self.tstate) + 8)
            start += take
        return evicted


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
    #: The words of a narrow key (a version space of at most 4 words' worth of 16-bit concept indices, or 2
    #: words' worth of 32-bit ones: 32 or 16 concepts at 8 words), used where the class has at least
    #: NARROW_FROM times the words of a narrow key (see solvers.opt._kernel_jit.search); 0: every key wide
    NARROW_WORDS = 8
    NARROW_FROM = 2
    #: 32-bit concept indices in narrow keys even where 16 bits would do (for the tests)
    WIDE_INDICES = False
    #: Whether deep version spaces are searched over their own concepts (levels: see solvers.opt._kernel_jit.search)
    LEVELS = True
    LEVEL_DEPTH = 3  # the least depth of a query whose version space gets a level of its own
    LEVEL_RATIO = 16  # ... when it holds this share of its level's words or fewer (measured: 4, 8, 16, 32)

    def __init__(self, solver, table_bytes: int):
        fns = _load()
        if fns is None:
            raise Unloadable(f"the compiled kernel needs numba: {_import_error}")
        self.fns = fns
        # (weakly: the solver keeps its kernel after a search, and a cycle would hold the table until the collector
        # runs)
        self.S = weakref.proxy(solver)
        C = solver.C
        self.nwords = W = (C.n_concepts + 63) // 64
        # With a symmetry group in use or to come, a key row has room for an orbit's key (two words) and a
        # last word telling orbit keys (1) from version spaces keyed by themselves (0).
        self.tagged = bool(solver._symmetric)
        self.kwords = max(W, 2) + 1 if self.tagged else W
        # the root's distinct splits as a (splits x words) matrix
        words = getattr(solver.root_masks, "words", None)
        if words is None:
            words = C.column_words[solver.root_points]
        self.roots = np.ascontiguousarray(words, dtype=np.uint64)
        if self.roots.shape[0] == 0:
            self.roots = np.zeros((1, W), dtype=np.uint64)  # (a pointer to something; no split is read)
        self.R = len(solver.root_masks)
        self.points = np.zeros(max(1, self.R), dtype=np.int32)
        self.points[:self.R] = solver.root_points
        # Levels (see solvers.opt._kernel_jit.search): a version space holding a quarter of its level's words or
        # fewer is searched over its own concepts; each level has at most a quarter of the words of the one above.
        R1 = max(1, self.R)
        LM = 0
        w = W
        while w >= 4 and self.LEVELS:
            w //= 4
            LM += 1
        self.levels = np.zeros((LM + 1, 6), dtype=np.int64)
        self.levels[0] = (W, 0, self.R, self.LEVEL_DEPTH, self.LEVEL_RATIO, 0)
        # every level's splits in one buffer: the root's first (R rows of W words), the deeper levels after them
        self.lroots = np.zeros(R1 * W + (R1 * (W // 3 + 2 * LM) if LM else 0), dtype=np.uint64)
        self.lroots[:self.roots.size] = self.roots.ravel()
        self.lsplit = np.zeros((LM + 1, R1), dtype=np.int32)
        # the deeper levels' concepts (their indices in the class), level after level: each has at most 64 per
        # word of the level above, which holds at most a quarter of the words of the one above it
        self.lconc = np.zeros(max(1, 64 * (W // 2 + 2 * LM)), dtype=np.int32)
        self._level_args = (_p(self.lroots), len(self.lroots), W, _p(self.levels), LM,
                            _p(self.lsplit), R1, _p(self.lconc), len(self.lconc))
        # narrow keys (a version space's concept indices) for version spaces of at most narrow_max concepts
        self.b16 = C.n_concepts < 0xFFFF and not self.WIDE_INDICES
        self.nkwords = max(1, self.NARROW_WORDS)
        # (a key row holds a narrow row in its first words: it must be as wide)
        on = 0 < self.NARROW_WORDS <= self.kwords and self.NARROW_FROM * self.NARROW_WORDS <= W
        self.narrow_max = (4 if self.b16 else 2) * self.nkwords if on else 0
        # the least version space keyed by its orbit once a group is adopted (now or later): it and larger ones
        # keep their words over the class, which orbit keys are made from
        self.gmin = int(solver._orbit_min) if self.tagged else 1 << 62
        self.canonical = None  # the Canonical whose keys the table holds (adopted by _adopt)
        self._orbit_arrays = (np.zeros((1, W), dtype=np.uint64), np.zeros((1, 256, 1), dtype=np.uint64),
                              np.zeros(1, dtype=np.uint8), np.zeros(1, dtype=np.int32))
        self._scratch = np.zeros(32, dtype=np.int64)
        self._orbit_args = self._orbit_call(0, 0, 0, *self._orbit_arrays)
        # The tables' counts of entries and the next insertion number: written by the compiled code itself, so that
        # a Ctrl-C landing as a call returns cannot leave a stale copy (a table believed emptier than it is would
        # fill up, and a probe of a full table never ends).
        self.tstate = np.zeros(3, dtype=np.int64)  # the wide table's count, the next insertion number, the narrow's
        self.budget_bytes = table_bytes
        first = table_bytes // 2 if self.narrow_max else table_bytes  # (each table starts within half; they grow
        self.wide = _Table(fns, self.kwords, first, self.tstate, 0)  # into the rest as they fill: _may_grow)
        self.narrow = _Table(fns, self.nkwords, first if self.narrow_max else 0, self.tstate, 2)
        self.evictions = 0
        self.evictions_counted = 0  # (counted in the solver's evictions already)
        self.budget = 64  # nodes per call, adapted to take about 10 ms
        self._adopt()
        self._load_memo()
        self.loaded = self.count  # the entries that came from the solver's memo

    def _orbit_call(self, canon: int, cmin: int, wide: int, cols, tables, flips, ties) -> tuple:
        """The orbit keys' arguments of the compiled search (the arrays kept alive in ``_orbit_arrays``)."""
        return (canon, cmin, _p(cols), cols.shape[0], _p(tables), tables.shape[0], tables.shape[2], _p(flips), wide,
                _p(ties), _p(self._scratch))

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
            cols, tables, flips, wide = args
            ties = np.zeros(K.order, dtype=np.int32)
            self._orbit_arrays = (cols, tables, flips, ties)
            self._orbit_args = self._orbit_call(1, int(S._canon_min), wide, cols, tables, flips, ties)
            self.canonical = K
        return True

    def orbit_row(self, V: int) -> bytes:
        """The key row of V's orbit under the adopted group, as the compiled search computes it (for tests)."""
        row = np.zeros(self.kwords, dtype=np.uint64)
        Vw = _words(V, self.nwords)
        cols, tables, flips, ties = self._orbit_arrays
        self.fns["orbit_row"](_p(Vw), self.nwords, _p(cols), cols.shape[0], _p(tables), tables.shape[0],
                              tables.shape[2], _p(flips), self._orbit_args[8], _p(ties), _p(self._scratch), _p(row),
                              self.kwords)
        return row.tobytes()

    # ------------------------------------------------------------------ the memo tables
    @property
    def count(self) -> int:
        """The entries in the tables."""
        return int(self.tstate[0] + self.tstate[2])

    @property
    def seq(self) -> int:
        """The next insertion number."""
        return int(self.tstate[1])

    @property
    def table_bytes(self) -> int:
        """The bytes the memo tables' arrays take."""
        return self.wide.nbytes + self.narrow.nbytes

    def entry_bytes(self) -> float:
        """The bytes an entry of the tables takes on average: a slot (its key's hash and words, its bounds, move and
        insertion number) and its share of the slots a table keeps empty (a quarter or more)."""
        n = self.count
        if not n:
            return (self.kwords + 1) * 8 + self.ENTRY_OVERHEAD
        return self.table_bytes / n

    def _table_args(self) -> tuple:
        """The tables' arguments of the compiled search (from the wide table's keys to the counts)."""
        return (*self.wide.args, self.wide.limit(), *self.narrow.args, self.nkwords, self.narrow.limit(),
                self.narrow_max, int(self.b16), self.gmin, _p(self.tstate))

    def _may_grow(self, T: _Table) -> bool:
        """Whether the table T may double: the two tables share the kernel's bytes (``table_bytes`` of the
        constructor), so that the one that holds the search's entries takes them (intervals N=150, a worker's 2^28
        bytes split in halves: the wide table dropped its older half 8 times in a 0.7 s part)."""
        return self.table_bytes + T.nbytes <= self.budget_bytes

    def _make_room(self) -> None:
        """Make room in the table that is full: double it where the tables' bytes allow, else drop its older half."""
        for T in (self.wide, self.narrow):
            if T.count >= T.limit():
                self.evictions += T.make_room(self._may_grow(T))

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

    def _narrow_key(self, V: int) -> bool:
        """Whether the version space V, keyed by itself, is keyed in the narrow table (as
        :func:`solvers.opt._kernel_jit._is_narrow`)."""
        return V.bit_count() <= self.narrow_max

    def _narrow_rows(self, Vs: list) -> np.ndarray:
        """The narrow key rows of version spaces (ints): their concepts' indices, ascending, padded with ones."""
        per = 4 if self.b16 else 2
        dt = np.uint16 if self.b16 else np.uint32
        rows = np.full((len(Vs), self.nkwords * per), np.iinfo(dt).max, dtype=dt)
        for k, V in enumerate(Vs):
            idx = bit_positions(V)
            rows[k, :len(idx)] = idx
        return rows.view(np.uint64).reshape(len(Vs), self.nkwords)

    @property
    def orbits_narrow(self) -> bool:
        """Whether orbit keys are kept in the narrow table (where there is one, of 3 words or more)."""
        return bool(self.narrow_max) and self.nkwords >= 3

    def _narrow_orbit_rows(self, keys: list) -> np.ndarray:
        """The narrow table's rows of orbit keys (negative ints): all ones, then the key's words (as
        :func:`solvers.opt._kernel_jit._orbit_narrow` writes them)."""
        wide = np.frombuffer(b"".join(self._row(k) for k in keys), dtype="<u8").reshape(len(keys), self.kwords)
        rows = np.full((len(keys), self.nkwords), np.uint64(_WORD), dtype=np.uint64)
        rows[:, 1] = wide[:, 0]
        if self.canonical.wide:
            rows[:, 2] = wide[:, 1]
        return rows

    def _narrow_keys(self, rows: np.ndarray) -> list:
        """The memo keys of the narrow table's rows: version spaces (ints), or orbit keys (negative ints) where a row
        starts with a word of all ones."""
        orbit = rows[:, 0] == np.uint64(_WORD)
        out = [None] * len(rows)
        plain = np.flatnonzero(~orbit)
        for i, V in zip(plain.tolist(), self._narrow_versions(rows[plain])):
            out[i] = V
        idx = np.flatnonzero(orbit)
        if len(idx):
            wide = np.zeros((len(idx), self.kwords), dtype=np.uint64)
            wide[:, 0] = rows[idx, 1]
            if self.canonical.wide:
                wide[:, 1] = rows[idx, 2]
            wide[:, -1] = 1
            raw = wide.tobytes()
            W8 = self.kwords * 8
            for k, i in enumerate(idx.tolist()):
                out[i] = self._key(raw[k * W8:(k + 1) * W8])
        return out

    def _narrow_versions(self, rows: np.ndarray) -> list:
        """The version spaces (ints) of narrow key rows (the inverse of :meth:`_narrow_rows`)."""
        if not len(rows):
            return []
        dt = np.uint16 if self.b16 else np.uint32
        idx = np.ascontiguousarray(rows).view(dt).reshape(len(rows), -1).astype(np.int64)
        pad = np.iinfo(dt).max
        words = np.zeros((len(rows), self.nwords), dtype=np.uint64)
        r, c = np.nonzero(idx != pad)
        i = idx[r, c]
        np.bitwise_or.at(words, (r, i >> 6), np.left_shift(np.uint64(1), (i & 63).astype(np.uint64)))
        W8 = self.nwords * 8
        raw = words.tobytes()
        frm = int.from_bytes
        return [frm(raw[k:k + W8], "little") for k in range(0, len(raw), W8)]

    def _load_memo(self) -> None:
        """The solver's memo (plain keys, and orbit keys once adopted; not keys up to isomorphism) and moves,
        in insertion order, each entry into its table."""
        S = self.S
        orbits = self.canonical is not None
        items = [(V, e) for V, e in S.memo.items() if type(V) is int and (V > 0 or orbits)]
        if not items:
            return
        on = self.orbits_narrow
        where = [(1 if self._narrow_key(V) else 0) if V > 0 else (2 if on else 0) for V, _ in items]
        for T, mine in ((self.wide, 0), (self.narrow, 1), (self.narrow, 2)):
            part = [it for it, w in zip(items, where) if w == mine]
            if not part:
                continue
            if mine == 1:
                rows = self._narrow_rows([V for V, _ in part])
            elif mine == 2:
                rows = self._narrow_orbit_rows([V for V, _ in part])
            else:
                rows = np.frombuffer(b"".join(self._row(V) for V, _ in part), dtype="<u8").reshape(-1, self.kwords)
            self.evictions += T.insert(rows, part, S.moves, self._may_grow)

    def write_back(self) -> None:
        """Store every entry of the tables in the solver's memo (ints, insertion order), with its move (under an
        orbit key: ``(hash of the version space, point)``, as ``Solver._at_least`` records it); the memo's byte
        count grows as by ``Solver._store``, and an eviction follows when it passes the budget."""
        S = self.S
        parts = []
        for T in (self.wide, self.narrow):
            used = np.flatnonzero(T.seqs != _EMPTY)
            if not len(used):
                continue
            rows = T.keys[used, 1:]
            if T is self.narrow:
                keys = self._narrow_keys(rows)
            else:
                W8 = self.kwords * 8
                raw = rows.tobytes()
                if self.tagged:
                    key = self._key
                    keys = [key(raw[i:i + W8]) for i in range(0, len(raw), W8)]
                else:
                    frm = int.from_bytes
                    keys = [frm(raw[i:i + W8], "little") for i in range(0, len(raw), W8)]
            parts.append((T.seqs[used], keys, T.lo[used], T.hi[used], T.move[used], T.mhash[used]))
        if not parts:
            return
        seqs = np.concatenate([q[0] for q in parts])
        order = np.argsort(seqs, kind="stable")
        keys = [k for q in parts for k in q[1]]
        keys = [keys[i] for i in order.tolist()]
        lo, hi, mv, mh = (np.concatenate([q[j] for q in parts])[order] for j in (2, 3, 4, 5))
        memo = S.memo
        S._memo_used += sum([(V.bit_length() >> 3) + 120 for V in keys if V not in memo])
        paused = gc.isenabled()
        gc.disable()  # (a tuple per entry: the collections they would set off cost as much as the copy)
        try:
            memo.update(zip(keys, zip(lo.tolist(), hi.tolist())))
            has = np.flatnonzero(mv >= 0).tolist()
            mh = mh.tolist()
            mv = mv.tolist()
            S.moves.update([(keys[i], mv[i] if keys[i] > 0 else (mh[i], mv[i])) for i in has
                            if _HASH_OK or keys[i] > 0])
        finally:
            if paused:
                gc.enable()
        while S._memo_used > S.memo_bytes and memo:
            S._evict()

    # ------------------------------------------------------------------ a query
    def _query_arrays(self, V: int, d: int, rows: int) -> tuple:
        """The compiled search's stack for a query of depth ``d`` on V (``rows`` frames), and its arguments."""
        S = self.S
        W = self.nwords
        R = max(1, self.R)
        D = rows
        Vs = np.zeros((D, W), dtype=np.uint64)
        Vs[0] = _words(V, W)
        Gs = np.zeros((D, W), dtype=np.uint64)
        Gs[0] = Vs[0]
        Ks = np.zeros((D, self.kwords), dtype=np.uint64)
        pool = np.zeros((D + 1, R), dtype=np.int32)
        pool[0, :self.R] = np.arange(self.R, dtype=np.int32)
        goods = np.zeros((D, R), dtype=np.int32)
        frame = np.zeros((D, 12), dtype=np.int64)  # see solvers.opt._kernel_jit
        frame[0, 0] = d
        frame[0, 1] = V.bit_count()
        frame[0, 8] = self.R
        ntab = _table_size(R)
        stab = np.zeros(ntab, dtype=np.int32)
        sgen = np.zeros(ntab, dtype=np.int64)
        gm = np.zeros(R, dtype=np.int64)
        sortg = np.zeros(R, dtype=np.int32)
        sortm = np.zeros(R, dtype=np.int64)
        state = np.array([0, -1, S.nodes, 0, 0], dtype=np.int64)  # sp, result, nodes (seq and count: self.tstate)
        arrays = (Vs, Gs, Ks, pool, goods, frame, stab, sgen, gm, sortg, sortm, state)
        args = (*self._level_args, _p(self.points), _p(Vs), _p(Gs), _p(Ks), D, self.kwords,
                _p(pool), _p(goods), _p(frame), _p(stab), _p(sgen), ntab, _p(gm), _p(sortg), _p(sortm), _p(state))
        return arrays, args, state

    def _run(self, fn, args: tuple, state: np.ndarray, more: tuple = ()) -> int:
        """Call the compiled ``fn`` until it is done (DONE or ERROR), making room in the table when it is full
        and running the solver's ``_tick`` at each pause (it may raise SearchStop or KeyboardInterrupt)."""
        S = self.S
        stop_at = None
        while True:
            state[2] = S.nodes
            if stop_at is None:  # (a new stretch between pauses; a table made room for goes on with the same)
                stop_at = S.nodes + self.budget
                t0 = time.perf_counter()
            status = fn(*args, *self._table_args(), stop_at, *self._orbit_args, *more)
            S.kernel_nodes += int(state[2]) - S.nodes
            S.nodes = int(state[2])
            if status == _DONE or status == _ERROR:
                return status
            if status == _FULL:
                # Room made, the stretch goes on to its node budget: a table that keeps dropping its older half
                # must not keep the search from its pauses (its deadline, a cancel, Ctrl-C); while the class's group
                # is awaited, a pause now (it may have come meanwhile)
                self._make_room()
                if not S.awaiting_group():
                    continue
            else:
                self.budget = next_budget(self.budget, time.perf_counter() - t0, S.awaiting_group())
            stop_at = None
            S._tick()
            if not self._adopt():
                raise Abandon()

    def at_least(self, V: int, d: int) -> bool:
        """Decide Opt(V) >= d for a version space V (as ``Solver._at_least`` from the root's splits),
        running the solver's ``_tick`` between calls (it may raise SearchStop or KeyboardInterrupt)."""
        if not self._adopt():
            raise Abandon()
        arrays, args, state = self._query_arrays(V, d, max(d, 1) + 2)
        self._run(self.fns["search"], args, state)
        return bool(state[1])

    def tree(self, V: int, d: int):
        """A mistake tree of depth ``d`` >= 1 for the version space V as nested dicts, as ``Solver._tree`` makes it
        (the same splits: the memo's moves where they prove the depth, else the most balanced split that does,
        each proof a query of the compiled search), walked in the kernel. Requires Opt(V) >= d."""
        if not self._adopt():
            raise Abandon()
        W = self.nwords
        R = max(1, self.R)
        arrays, args, state = self._query_arrays(V, d, d + 3)
        TV = np.zeros((d + 1, W), dtype=np.uint64)
        TV[0] = _words(V, W)
        Tf = np.zeros((d + 1, 10), dtype=np.int64)
        Tf[0, 0] = d
        Tf[0, 4] = self.R
        Tpool = np.zeros((d + 2, R), dtype=np.int32)
        Tpool[0, :self.R] = np.arange(self.R, dtype=np.int32)
        Tord = np.zeros((d + 1, R), dtype=np.int32)
        Tgm = np.zeros(max(R, W), dtype=np.int64)  # (also V's non-zero words)
        ntab = _table_size(R)
        Tstab = np.zeros(ntab, dtype=np.int32)
        Tsgen = np.zeros(ntab, dtype=np.int64)
        p2r = self._point_roots()
        X = np.zeros(W, dtype=np.uint64)
        out = np.zeros((1 << d) - 1, dtype=np.int32)
        wstate = np.zeros(5, dtype=np.int64)
        more = (_p(TV), _p(Tf), d + 1, _p(Tpool), _p(Tord), _p(Tgm), _p(Tstab), _p(Tsgen), _p(p2r), len(p2r), _p(X),
                _p(out), len(out), _p(wstate))
        if self._run(self.fns["tree"], args, state, more) == _ERROR:
            raise RuntimeError("internal error: no split proves the claimed depth")
        return _nested(out.tolist(), d)

    def _point_roots(self) -> np.ndarray:
        """Each point's root split (its index among the root's distinct splits), -1 for the points merged into
        another's."""
        p2r = getattr(self, "_p2r", None)
        if p2r is None:
            p2r = self._p2r = np.full(max(1, self.S.C.n_points), -1, dtype=np.int32)
            p2r[np.asarray(self.S.root_points, dtype=np.int64)] = np.arange(self.R, dtype=np.int32)
        return p2r


def next_budget(budget: int, spent: float, waiting: bool) -> int:
    """The nodes of the compiled search's next call, after a call of ``budget`` nodes took ``spent`` seconds: calls
    of about 10 ms, or of about 2 ms while the class's group is ``waiting`` to be found in a child process, so that
    it is adopted soon after it comes (halfspaces n=4 as a raw matrix: found 13 ms into the search, adopted 14 ms
    later with calls of 10 ms). The budget follows the time a node took, at most doubling or shrinking eightfold
    a call, from 1 to 2^22 nodes."""
    target = 0.002 if waiting else 0.01
    scale = min(2.0, max(0.125, target / spent)) if spent > 0 else 2.0
    if 0.5 <= scale <= 1.5 and not waiting and 0.005 <= spent <= 0.02:
        return budget  # (within the band: left alone)
    return int(min(1 << 22, max(1, budget * scale)))


def _table_size(R: int) -> int:
    """The size of a scan's hash table over R splits: a power of two over 2R + 2."""
    ntab = 1
    while ntab < 2 * R + 2:
        ntab *= 2
    return ntab


def _nested(points: list, d: int):
    """The mistake tree of depth ``d`` whose nodes' points are ``points`` in preorder, as nested dicts (built with
    the collector paused: a tree of 8,191 nodes is that many new dicts, and the collections they set off cost as
    much again)."""
    if d <= 0:
        return None
    nxt = iter(points).__next__

    def build(k):
        p = nxt()
        if k == 1:
            return {"point": p, "0": None, "1": None}
        return {"point": p, "0": build(k - 1), "1": build(k - 1)}

    paused = gc.isenabled()
    gc.disable()
    try:
        return build(d)
    finally:
        if paused:
            gc.enable()
