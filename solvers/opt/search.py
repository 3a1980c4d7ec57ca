"""The search for Opt(C): decision queries "Opt(V) >= d?" over version spaces, with a memo.

[Rivest94] defines Opt(C) as the best worst-case number of mistakes of any learner; its value
satisfies the recurrence (docs/how-it-works/solver.md)::

    Opt(V) = -1                                              if V is empty
    Opt(V) = 0                                               if no point splits V
    Opt(V) = max over x splitting V of 1 + min(Opt(V_x^0), Opt(V_x^1))   otherwise

and the bounds Opt(V) <= floor(log2 |V|) (Halving, [Rivest94] and [OnlineAlgs]) and Opt(V) <= |V| - 1 (CON).

:class:`Solver` answers "Opt(V) >= d?" (an AND-OR search: some point x, both children >= d - 1) with

* a memo of proven bounds [lower, upper] per version space (a bitset over concept indices);
* the cardinality bound: "Opt(V) >= d" needs |V| >= 2^d, and a split is only worth trying when both
  sides hold >= 2^(d-1) concepts;
* candidate splits inherited from the parent: a point constant on V is constant on every subset of V,
  and points inducing the same or the complementary split of V are merged, so a child scans only the
  parent's distinct splits;
* Opt(V) <= the number of distinct splits of V (each round uses one up);
* the most balanced splits first, and the smaller child checked first;
* version spaces merged under the class's symmetry group (:mod:`solvers.opt.canonical`: one key per
  orbit) and, where the forms pay, up to isomorphism (:mod:`solvers.opt.isomorphism`: one key per
  reduced matrix up to permuting concepts and points and complementing points, for any number of
  points and any group; :meth:`Solver._iso_pays` decides, per size class, from what forms cost and
  what their merges saved).

At the root, :meth:`Solver.descend` asks d = the upper bound first and goes down; how one root query is
decided is a parameter (this process's search, or the worker processes of :mod:`solvers.opt.parallel`).
A deadline stops the search with :class:`SearchStop`; the bounds proven so far stay in
:attr:`Solver.root_bounds`. The memo is bounded in bytes: when it is full the older half is dropped, so
a large instance slows down instead of running out of memory. The certificates: a mistake tree of depth
Opt (:meth:`Solver.mistake_tree`) and the refutation behind an upper bound (:meth:`Solver.upper_proof`).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> from solvers.classes.families import make
>>> S = Solver(make("thresholds", N=7))
>>> S.value(), S.value(0b111)    # Opt(C), and Opt of the version space {the first three thresholds}
(3, 1)
"""

from __future__ import annotations

import functools
import math
import os
import sys
import time
import weakref
from typing import Callable

import numpy as np

from ..certificates import ProofTooLarge
from ..classes.automorphisms import estimated_seconds
from ..classes.finite import ConceptClass, splits_of
from . import _kernel_cache
from . import kernel as _kernel
from .canonical import MAX_POINTS as MAX_KEY_POINTS, Canonical
from .control import Tuning
from .memo import MemoSearch, SearchStop
from .subcube import SubcubeTable

__all__ = ["Solver", "SearchStop", "default_memo_bytes", "physical_memory"]

_FALLBACK_MEMO_BYTES = 4 * 2**30  # the memo's limit when the machine's memory cannot be read
_ROOT_NUMPY = 256  # the root's splits of a class over more points are found with numpy (Solver._root_splits)
# The thresholds of the search and of its hand-over to the compiled kernel (the sizes keyed up to isomorphism, what
# a form may cost, when the kernel takes over, when the group is found alongside) are the fields of
# solvers.opt.control.Tuning the Solver is given: Tuning.kernel_*, iso_*, detect_alongside, wide_from.


@functools.cache
def physical_memory() -> int | None:
    """The machine's physical memory in bytes, or None where ``os.sysconf`` cannot tell (read once a process)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return total if total > 0 else None


def default_memo_bytes() -> int:
    """The memo's default memory limit: half of the machine's physical memory (4 GiB where it cannot
    be read), so that a long search slows down (the memo drops its older half) instead of running the
    machine out of memory."""
    total = physical_memory()
    return total // 2 if total is not None else _FALLBACK_MEMO_BYTES


@functools.cache
def _row_dtype(nbytes: int) -> np.dtype:
    """A void dtype of ``nbytes`` bytes: a split's words as one item, for ``np.unique`` (made once per size)."""
    return np.dtype((np.void, nbytes))


class _WideList(list):
    """A long list of candidate splits that also carries them as a (splits x words) uint64 matrix,
    so that children can filter it with numpy instead of a Python loop."""

    __slots__ = ("words",)


class _HandOver(Exception):
    """Raised inside the Python search when the compiled kernel takes the query over (see :meth:`Solver._query`)."""


class Solver(MemoSearch):
    """The search state for one concept class: the memo of proven bounds and the root's splits.

    A Solver is what :func:`solvers.opt.opt` runs and what :class:`solvers.learners.SOA` keeps: every
    version space it has settled stays in the memo (up to ``memo_bytes``), so later questions about
    subsets are fast. Its state is changed only through its methods: :meth:`limits` (deadline and
    progress), :meth:`descend` (the root), :meth:`record` (bounds proven elsewhere),
    :meth:`subcube_table`.

    Parameters
    ----------
    C : ConceptClass
    memo_bytes : int, optional
        Approximate memory the memo may use, in bytes (default :func:`default_memo_bytes`: half of the
        machine's memory).
    symmetry : bool
        Key version spaces by their orbits under the class's symmetry group (default True): the group
        its family declares, or else the one graph automorphism finds
        (:meth:`ConceptClass.automorphisms <solvers.classes.finite.ConceptClass.automorphisms>`);
        :attr:`symmetry_info` says which was used.
    symmetry_min : int
        Version spaces of fewer concepts are keyed by themselves.
    symmetry_after : int
        Nodes expanded before the keys become canonical (0: from the start, finding the group at once);
        a group still to be found waits, past them, until the search has spent what finding it is
        expected to cost.
    isomorphism : bool or "always"
        Key version spaces of ``iso_min`` to ``iso_max`` concepts by the canonical form of their reduced
        matrix (:mod:`solvers.opt.isomorphism`; default True): isomorphic version spaces share one memo
        entry, with any number of points and whatever the class's group. Forms are made only while they
        pay (:meth:`_iso_pays`); ``"always"`` makes every one (for tests and measurements).
        :attr:`isomorphism_info` says how often it merged.
    iso_min, iso_max : int, optional
        The sizes of version spaces keyed up to isomorphism (default: the ``tuning``'s
        :attr:`~solvers.opt.control.Tuning.iso_min`, :attr:`~solvers.opt.control.Tuning.iso_max`; ``iso_max`` 0: no
        upper limit).
    iso_after : int, optional
        Nodes expanded before keys up to isomorphism come into use (default: the ``tuning``'s
        :attr:`~solvers.opt.control.Tuning.iso_after`): a small search never pays for them.
    kernel : str, optional
        Who runs the root queries (and :meth:`value`) while the keys are plain (no symmetry in use): "auto"
        (the compiled kernel of :mod:`solvers.opt.kernel` once the Python search has run
        :attr:`~solvers.opt.control.Tuning.kernel_after_seconds`, when numba can be imported), "numba" (the kernel
        from the first query) or "python" (never). Default: ``$LITTLESTONE_KERNEL``, else "auto". Both give the
        same values, memo, trees and certificates.
    tuning : Tuning, optional
        The thresholds of the search and of its hand-over to the kernel (:class:`~solvers.opt.control.Tuning`;
        default ``Tuning()``).
    """

    # The attributes that start at a constant (None, 0, False), as class-level defaults: an instance sets them
    # when they change (a Solver on a small class is made in microseconds, and each store cost a share of it).
    _kernel = None  # the compiled search's state while a query or root loop runs in it
    _kept = None  # ... kept after its queries, its memo not yet written back (see _kernel_done)
    #: canonical keys under the class's symmetry group (None: every version space is its own key);
    #: built once the search has expanded ``symmetry_after`` nodes (small searches never pay for it)
    canonical = None
    #: the group the keys use (the declared one, or the one found by graph automorphism), and how it
    #: was found (see :attr:`symmetry_info`)
    group = None
    _symmetry_seconds = None
    _detect_at = None  # when the search may find the class's group (see _use_symmetry)
    _detection = None  # ... or the detection under way in a child process (detect_alongside)
    _detection_started = False
    _suspended = 0  # > 0 while searching below a set that no examples lead to
    _canon = None  # the key function while keys are canonical (orbits, isomorphism: _set_keys)
    _iso = None
    _iso_cache_bytes = 0
    _iso_forms = 0  # canonical forms computed
    _iso_merged = 0  # ... whose key already had a memo entry (made for an isomorphic version space)
    _iso_declined = 0  # forms not made because they would not pay
    _iso_fixed = 0.0  # seconds the first form spent importing igraph
    _iso_seconds = 0.0
    _iso_key_fn = None  # V -> key: up to isomorphism in the size band, else V (valid for any set)
    _iso_clock = None  # (seconds, nodes, form seconds) at the search's first tick
    nodes = 0
    kernel_nodes = 0  # of which expanded by the compiled kernel
    _compile_checked = False  # whether the kernel's cost to load was looked at (kernel_compile_after_seconds)
    _loaded_at = 0.0  # the instant the loaded kernel may take over the search before kernel_after nodes
    _root_bounds = None

    def __init__(self, C: ConceptClass, *, memo_bytes: int | None = None, symmetry: bool = True,
                 symmetry_min: int = 16, symmetry_after: int = 2_000, isomorphism: bool | str = True,
                 iso_min: int | None = None, iso_max: int | None = None, iso_after: int | None = None,
                 kernel: str | None = None, tuning: Tuning | None = None):
        if not isinstance(C, ConceptClass):
            raise TypeError("Solver needs a ConceptClass")
        #: the thresholds of the search and its hand-over to the kernel (solvers.opt.control.Tuning)
        self.tuning = Tuning.default() if tuning is None else tuning
        self.kernel_mode = _kernel.mode(kernel)
        self.C = C
        self.full = C.full
        declared = C.symmetry is not None and not C.symmetry.trivial
        if not symmetry:
            self._symmetry_source = "skipped: switched off"
        elif C.n_points > MAX_KEY_POINTS:
            self._symmetry_source = f"skipped: {C.n_points} points, more than the {MAX_KEY_POINTS} the canonical keys cover"
        else:
            self._symmetry_source = None  # decided by _use_symmetry
        usable = self._symmetry_source is None and (declared or C.symmetry is None)
        if self._symmetry_source is None and not usable:
            self._symmetry_source = "none"  # a declared group with only the identity
        self._symmetry_at = symmetry_after if usable else None
        self._symmetry_after = symmetry_after
        #: whether the search was asked to use symmetry (workers of solvers.opt.parallel are made alike)
        self.symmetric_search = bool(symmetry)
        self._orbit_min = max(2, symmetry_min)  # version spaces this small are not keyed by their orbit
        self._canon_min = self._orbit_min  # version spaces this small are keyed by themselves
        #: canonical forms up to isomorphism (solvers.opt.isomorphism), made on first use; None when off
        self.isomorphism = bool(isomorphism)
        self._iso_always = isomorphism == "always"
        # nodes before the keys come into use
        self._iso_at = max(0, int(self.tuning.iso_after if iso_after is None else iso_after)) if isomorphism else None
        self._iso_active = False
        self._iso_min = max(3, int(self.tuning.iso_min if iso_min is None else iso_min))
        iso_max = self.tuning.iso_max if iso_max is None else iso_max
        self._iso_max = int(iso_max) if iso_max else None
        self._iso_cache: dict = {}  # V -> its key up to isomorphism (counted in the memo's budget)
        # Whether a form pays, per size class (|V|.bit_length()): [forms, their seconds, nodes saved, forms
        # declined, nodes until asked again]; a key's subtree (nodes) is measured from its form to its first
        # entry.
        self._iso_buckets: dict = {}
        self._iso_open: dict = {}  # key -> nodes when its first search began
        self._iso_cost: dict = {}  # key -> nodes its first search took
        # memo: V -> proven (lower, upper) of Opt(V); moves: V -> a point index proving memo[V][0]
        self._init_memo(default_memo_bytes() if memo_bytes is None else memo_bytes, 120)
        self._python_left = self.tuning.kernel_after_seconds  # root-query time left before the kernel takes over
        self._build_poll: float | None = None  # while the kernel is built elsewhere: when to look for it next
        self._kernel_at: float | None = None  # the instant the running Python query gives way to the kernel
        self.table: SubcubeTable | None = None  # built by subcube_table()
        self._nwords = (C.n_concepts + 63) // 64
        # The search looks at the clock every 64 nodes, or every 8 where a node scans thousands of words and the
        # kernel may take it over (the hand-over then comes within a few milliseconds).
        self._tick_mask = 7 if self._nwords * C.n_points >= 4096 and self.kernel_mode != "python" else 63
        # A split's words as one opaque item (np.unique finds equal rows). Made once a size, per process: making a
        # void dtype calls numpy's Python npy_ctypes_check from C, which drops any exception, so a Ctrl-C landing
        # there was lost (solvers.interrupts) -- and once per node it was a twentieth of the Ctrl-Cs.
        self._row_dtype = _row_dtype(self._nwords * 8)
        # The root's distinct splits: one point per class of same-or-complementary columns.
        if C.n_points > _ROOT_NUMPY:
            self.root_masks, self.root_points = self._root_splits()
        else:
            masks, points = C.distinct_splits()  # (cached by the class: the plan counted them)
            self.root_masks, self.root_points = list(masks), list(points)
        # A class whose root splits times words per version space pass kernel_wide: a node costs some 0.1-5 ms in
        # Python (measured: rectangles N=14 as a matrix, 196 splits x 173 words, 0.2 ms), so the kernel takes
        # the search from its first query once it is loaded or its machine code saved (0.04 s to load).
        self._wide = self._nwords * len(self.root_masks) >= self.tuning.kernel_wide
        if len(self.root_masks) > self.tuning.wide_from and type(self.root_masks) is not _WideList:
            # The root's splits as a (splits x words) uint64 matrix, bit c of the row = concept c.
            self.root_masks = _WideList(self.root_masks)
            self.root_masks.words = np.ascontiguousarray(C.column_words[self.root_points])

        if self._symmetry_at is not None and self._symmetry_at <= 0:
            self._use_symmetry()
        if self._iso_at == 0:
            self._iso_at, self._iso_active = None, True
        self._set_keys()

    # ------------------------------------------------------------------ helpers
    def _root_splits(self) -> tuple[list[int], list[int]]:
        """:meth:`_distinct_splits` of the whole class with numpy, from the class's column words (the same
        splits, in the same order: each class's first point)."""
        words = self.C.column_words
        full = np.frombuffer(self.full.to_bytes(self._nwords * 8, "little"), dtype="<u8")
        counts = np.bitwise_count(words).sum(axis=1, dtype=np.int64)
        live = np.flatnonzero((counts > 0) & (counts < self.C.n_concepts))
        rows = words[live]
        canon = rows.copy()
        canon[(rows[:, 0] & np.uint64(1)) == 0] ^= full  # the side holding concept 0
        _, first = np.unique(np.ascontiguousarray(canon).view(self._row_dtype).ravel(), return_index=True)
        keep = live[np.sort(first)]
        sub = np.ascontiguousarray(words[keep])
        raw = sub.tobytes()
        w = self._nwords * 8
        frm = int.from_bytes
        masks = [frm(raw[i:i + w], "little") for i in range(0, len(raw), w)]
        if len(masks) > self.tuning.wide_from:
            masks = _WideList(masks)
            masks.words = sub
        return masks, keep.tolist()

    _distinct_splits = staticmethod(splits_of)  # (the class's own loop, for any version space)

    def _store(self, V: int, lo: int, hi: int) -> None:
        # Hot path: MemoSearch._store with the entry's size computed here (a key up to isomorphism is bytes).
        if self._kept is not None:
            self._flush()
        memo = self._memo
        old = memo.get(V)
        if old is None:
            if type(V) is int:
                self._memo_used += (V.bit_length() >> 3) + 120
            else:  # a key up to isomorphism: its first search ends here
                self._memo_used += len(V) + 153
                start = self._iso_open.pop(V, None)
                if start is not None:
                    self._iso_cost[V] = self.nodes - start
            if self._memo_used > self.memo_bytes:
                self._evict()
        memo[V] = (lo, hi)

    def _entry_size(self, V) -> int:
        return (V.bit_length() >> 3) + 120 if type(V) is int else len(V) + 153

    def _evict(self) -> None:
        """Drop the older half of the memo, and the cache of keys up to isomorphism."""
        MemoSearch._evict(self)
        self._memo_used -= self._iso_cache_bytes
        self._iso_cache.clear()
        self._iso_open.clear()
        self._iso_cost.clear()
        self._iso_cache_bytes = 0

    # ------------------------------------------------------------------ keys up to isomorphism
    def _iso_key(self, V: int) -> bytes | None:
        """V's key up to isomorphism (:mod:`solvers.opt.isomorphism`), cached; None where a form would not
        pay (see :meth:`_iso_pays`)."""
        k = self._iso_cache.get(V)
        if k is not None:
            return k
        n = V.bit_count()
        entries = n * len(self.root_masks)
        if entries > self.tuning.iso_max_entries and not self._iso_always:
            return None  # a form this large costs more than the searches it could save (measured)
        b = n.bit_length()
        st = self._iso_buckets.get(b)
        if st is None:
            st = self._iso_buckets[b] = [0, 0.0, 0, 0, 0]
        elif st[4] > self.nodes:  # declined a moment ago: not asked again for 16 nodes
            self._iso_declined += 1
            return None
        if self._iso_clock is None:
            self._iso_clock = (time.perf_counter(), self.nodes, self._iso_seconds)
        guess = self.tuning.iso_form_seconds + entries * self.tuning.iso_entry_seconds
        if self._iso is None and "igraph" not in sys.modules:
            guess += self.tuning.iso_import_seconds
        if not self._iso_always and not self._iso_pays(st, guess):
            st[3] += 1
            st[4] = self.nodes + 16
            self._iso_declined += 1
            return None
        if self._iso is None:
            from .isomorphism import IsoForms

            t0 = time.perf_counter()
            self._iso = IsoForms(self.C)  # imports igraph (and with it matplotlib, when installed)
            self._iso_fixed = time.perf_counter() - t0
            self._iso_seconds += self._iso_fixed
        t0 = time.perf_counter()
        k = self._iso.key(V)
        dt = time.perf_counter() - t0
        self._iso_seconds += dt
        self._iso_forms += 1
        st[0] += 1
        st[1] += dt
        if k in self.memo:
            self._iso_merged += 1
            st[2] += self._iso_cost.get(k, 0)
        elif k not in self._iso_open:
            self._iso_open[k] = self.nodes
        self._iso_cache[V] = k
        size = (V.bit_length() >> 3) + len(k) + 200
        self._iso_cache_bytes += size
        self._memo_used += size
        if self._memo_used > self.memo_bytes:
            self._evict()
        return k

    def _iso_pays(self, st: list, guess: float) -> bool:
        """Whether to make one more form of a size class (``st``: its forms, their seconds, the nodes they
        saved, the forms declined; ``guess``: a form's cost before one is measured). Yes while the class has
        saved more than it cost by one more form (at its mean cost), or while the forms' net cost over all
        classes, with one more, stays within :attr:`~solvers.opt.control.Tuning.iso_share` of the search's own
        time (importing igraph counts as a cost of the first form). A class's net cost is its forms' seconds less
        what they saved: a merged key is credited :attr:`~solvers.opt.control.Tuning.iso_credit` of the nodes its
        first search took, at the search's seconds per node (measured without the forms)."""
        t0, n0, f0 = self._iso_clock
        nodes = self.nodes - n0
        search = time.perf_counter() - t0 - (self._iso_seconds - f0)
        per_node = self.tuning.iso_credit * search / nodes if nodes > 0 and search > 0 else 0.0
        mean = st[1] / st[0] if st[0] else guess
        if st[2] * per_node - st[1] >= mean:
            return True
        net = self._iso_fixed + sum(max(0.0, x[1] - x[2] * per_node) for x in self._iso_buckets.values())
        return net + mean <= self.tuning.iso_share * search

    def _set_keys(self) -> None:
        """Make the memo's key function (``_canon``, used for version spaces of ``_canon_min`` concepts or
        more): up to isomorphism in the size band ``iso_min..iso_max``, else the orbit's key under the
        class's group while that is in use (and the search is not below a set no examples lead to)."""
        orbit = self.canonical.key if self.canonical is not None and not self._suspended else None
        if not self._iso_active:
            self._canon, self._canon_min = orbit, self._orbit_min
            return
        lo, hi, iso = self._iso_min, self._iso_max, self._iso_key
        if hi is None:
            def plain(V):
                return (iso(V) or V) if V.bit_count() >= lo else V
        else:
            def plain(V):
                return (iso(V) or V) if lo <= V.bit_count() <= hi else V
        self._iso_key_fn = plain
        if orbit is None:
            self._canon, self._canon_min = plain, lo
            return
        omin = self._orbit_min

        def both(V):
            n = V.bit_count()
            if n >= lo and (hi is None or n <= hi):
                k = iso(V)
                if k is not None:
                    return k
            return orbit(V) if n >= omin else V

        self._canon, self._canon_min = both, min(lo, omin)

    @property
    def isomorphism_info(self) -> dict:
        """The keys up to isomorphism: ``{"on", "min", "max", "forms", "merged", "seconds", "declined"}``:
        whether they were asked for, the size band, the canonical forms computed, how many of them found a
        memo entry already there (made for another, isomorphic, version space), the seconds the forms took,
        and the forms not made because they would not have paid (:meth:`_iso_pays`)."""
        return {"on": self.isomorphism, "min": self._iso_min, "max": self._iso_max, "forms": self._iso_forms,
                "merged": self._iso_merged, "seconds": round(self._iso_seconds, 4),
                "declined": self._iso_declined}

    def _tick(self) -> None:
        if self._symmetry_at is not None and self.nodes >= self._symmetry_at:
            self._use_symmetry()
        if self._iso_clock is None:
            self._iso_clock = (time.perf_counter(), self.nodes, self._iso_seconds)
        if self._iso_at is not None and self.nodes >= self._iso_at:
            self._iso_at, self._iso_active = None, True
            self._set_keys()
        if self._build_poll is not None and time.monotonic() >= self._build_poll:
            self._built_yet()
        if self._kernel_at is not None and self._keys_for_kernel():
            now = time.monotonic()
            if now >= self._kernel_at and (self.nodes >= self.tuning.kernel_after
                                           or (now >= self._loaded_at and _kernel.loaded())):
                raise _HandOver()
        MemoSearch._tick(self)

    def stop_detection(self) -> None:
        """Stop a detection of the class's group still under way in a child process (the search is over)."""
        pending, self._detection = self._detection, None
        if pending is not None and hasattr(pending, "cancel"):
            pending.cancel()

    def _keys_for_kernel(self) -> bool:
        """Whether the search's keys let the kernel take it over: plain keys, or orbit keys where the kernel may
        compute them (:meth:`_kernel_over_symmetry`; a group still to be found: the kernel adopts its orbit keys
        at the pause where it comes)."""
        return not self._iso_always and (
            (self._symmetry_at is None and self.canonical is None)
            or (self._kernel_over_symmetry() and (self._symmetry_at is None or self.tuning.kernel_before_group)))

    def _use_symmetry(self) -> None:
        """Key version spaces by their orbits from now on (entries under plain keys stay valid): under the
        class's declared group, or else the group graph automorphism finds
        (:meth:`ConceptClass.automorphisms <solvers.classes.finite.ConceptClass.automorphisms>`)."""
        C = self.C
        if C.symmetry is not None:
            group, source = C.checked_symmetry(), "declared"
        else:
            found = C.automorphisms(compute=False, cheap=True)  # (cheap: invariants that prove it trivial)
            if found is None and self.nodes > 0:
                # Found once the search has itself spent what detection is expected to cost; where processes
                # fork, by a child process started detect_alongside seconds after the search's symmetry_after-th
                # node, while the search goes on (taken at the first look after it answers).
                now = time.monotonic()
                if self._detect_at is None:
                    self._detect_at = now + estimated_seconds(C)
                alongside = self.tuning.detect_alongside is not None and hasattr(os, "fork")
                delay = self.tuning.detect_alongside
                if alongside and self._detection is None and now >= self._detect_at - estimated_seconds(C) + delay:
                    from ..classes.automorphisms import detect_async, load_igraph

                    load_igraph()  # (here, once, rather than in every child)
                    self._detection = detect_async(C)
                    self._detection_started = True
                    if hasattr(self._detection, "cancel"):  # (a solver dropped mid-detection kills the child too)
                        weakref.finalize(self, self._detection.cancel)
                if self._detection is not None:
                    found = self._detection.poll() if hasattr(self._detection, "poll") else self._detection
                    if found is None:
                        return
                    self._detection = None
                    C.adopt_automorphisms(found)
                elif alongside or now < self._detect_at:
                    return
            found = C.automorphisms()
            group, source = found.group, found.source
            self._symmetry_seconds = found.seconds
        self._symmetry_at = None
        self.canonical = Canonical.of(C, group) if group is not None else None
        if group is not None and self.canonical is None and source == "declared" and C.n_points <= 64:
            # Too many elements to list: a subgroup (generators added while it stays small enough), as for
            # a group found (solvers.classes.automorphisms).
            from ..classes.automorphisms import group_limit, subgroup
            from ..classes.symmetry import Symmetry

            kept, order, _ = subgroup(list(group.generators), C.n_points, group_limit(C.n_points))
            if kept:
                group = Symmetry(kept, C.n_points)
                self.canonical = Canonical.of(C, group)
                source = f"declared (a subgroup of order {order:,}: the whole group has too many elements to list)"
        if group is not None and self.canonical is None:
            source = f"skipped: the {source} group has too many elements for the canonical keys"
        self._symmetry_source = source
        if self.canonical is not None:
            self.group = group
        self._set_keys()

    def awaiting_group(self) -> bool:
        """Whether the class's group is being found alongside the search, or is about to be (the search has reached
        ``symmetry_after`` nodes and the detection waits out its delay): the kernel then returns to Python more
        often, so that the group is adopted soon after it comes (:func:`solvers.opt.kernel.next_budget`)."""
        return self._detection is not None or (self._symmetry_at is not None and self._detect_at is not None)

    @property
    def symmetry_info(self) -> dict:
        """The symmetry the search used: ``{"order", "source", "seconds"}``. ``order`` is the order of
        the group keying the memo (None when none); ``source`` is "declared", "detected" (found by graph
        automorphism), "none" (only the identity) or "skipped: <why>"; ``seconds`` the time detection took
        (None when it did not run)."""
        source = self._symmetry_source
        if source is None:
            if self._detection_started:
                source = "skipped: the search ended before the detection (in a child process) answered"
            elif self._detect_at is None:
                source = f"skipped: the search ended within {self._symmetry_after:,} nodes"
            else:
                source = "skipped: the search ended before it had spent what detection would cost"
        seconds = None if self._symmetry_seconds is None else round(self._symmetry_seconds, 4)
        return {"order": self.canonical.order if self.canonical is not None else None, "source": source,
                "seconds": seconds}

    def _without_symmetry(self, work):
        """``work()`` with plain keys: for a set no examples lead to, whose subsets no closure names."""
        self._suspended += 1
        self._set_keys()
        try:
            return work()
        finally:
            self._suspended -= 1
            self._set_keys()

    @property
    def _symmetric(self) -> bool:
        """Canonical keys are in use or may come into use (so sets given from outside are checked)."""
        return self.canonical is not None or self._symmetry_at is not None

    def _key_of(self, V: int):
        """The memo's key of any set: :meth:`memo_key` for a version space reached by examples, else V (or
        its key up to isomorphism, which holds for any set)."""
        if self.canonical is not None and self.reached(V):
            return self.memo_key(V)
        return self._iso_key_fn(V) if self._iso_key_fn is not None and V.bit_count() >= 2 else V

    def _progress_info(self) -> dict:
        lo, hi = self._root_bounds if self._root_bounds else (None, None)
        out = {"lower": lo, "upper": hi, "nodes": self.nodes, "memo": self.memo_entries}
        if self._iso_forms:
            out["iso_merged"] = self._iso_merged
        return out

    def bounds(self, V: int) -> tuple[int, int]:
        """Proven bounds (lower, upper) on Opt(V) from the memo and the cheap rules, without search."""
        n = V.bit_count()
        if n == 0:
            return -1, -1
        if n == 1:
            return 0, 0
        lo, hi = 1, n.bit_length() - 1
        e = self.memo.get(self._key_of(V))
        if e is not None:
            lo, hi = max(lo, e[0]), min(hi, e[1])
        return lo, hi

    # ------------------------------------------------------------------ the search
    def at_least(self, V: int, d: int) -> bool:
        """Decide Opt(V) >= d (may raise the internal stop signal under a deadline)."""
        if not self._symmetric or self.reached(V):
            return self._at_least(V, V.bit_count(), d, self.root_masks, self.root_points)
        return self._without_symmetry(lambda: self._at_least(V, V.bit_count(), d, self.root_masks, self.root_points))

    def reached(self, V: int) -> bool:
        """Whether some labelled examples lead to V: V is the set of concepts agreeing with V's closure
        (the labels all of V agrees on). Canonical keys name only such version spaces."""
        if V == 0:
            return False
        W = self.full
        if V == W:
            return True  # (the class itself: no example yet)
        for col in self.C.columns:
            s = col & V
            if s == V:
                W &= col
            elif not s:
                W &= ~col
        return W == V

    def memo_key(self, V: int) -> int | bytes:
        """The memo's key of a version space reached by examples: itself, its canonical key under the
        class's symmetry group (negative, so that it never equals a bitset), or its key up to isomorphism
        (bytes)."""
        if self._canon is None or V.bit_count() < self._canon_min:
            return V
        return self._canon(V)

    def _at_least(self, V: int, n: int, d: int, cmasks: list[int], cidx: list[int]) -> bool:
        # Hot loop: written for speed. n == |V|; cmasks/cidx are the parent's distinct splits.
        # (The split filter below is _distinct_splits inlined, with the sizes computed in the same pass.)
        if d <= 1:
            return n >= 1 if d <= 0 else n >= 2
        if n < (1 << d):
            return False
        if self._kept is not None:
            self._flush()
        memo = self._memo
        vk = V if self._canon is None or n < self._canon_min else self._canon(V)
        e = memo.get(vk)
        if e is not None:
            if e[0] >= d:
                return True
            if e[1] < d:
                return False
            lo, hi = e
        else:
            lo, hi = 1, n.bit_length() - 1
        self.nodes += 1
        if not self.nodes & self._tick_mask:
            self._tick()
        need = 1 << (d - 1)
        if type(cmasks) is _WideList:
            masks, idxs, good = self._filter_wide(V, n, need, cmasks, cidx)
            if masks is None:  # no split is balanced enough: fail without building the list
                self._store(vk, lo, min(hi, d - 1))
                return False
            cmasks = ()
        else:
            masks = []
            idxs = []
            good = []
        low = V & -V
        seen = set()
        for s, j in zip(cmasks, cidx):
            s &= V
            if s == 0 or s == V:
                continue
            key = s if s & low else V ^ s
            if key in seen:
                continue
            seen.add(key)
            masks.append(s)
            idxs.append(j)
            k1 = s.bit_count()
            k0 = n - k1
            m = k0 if k0 < k1 else k1
            if m >= need:
                good.append((m, k1, s, j))
        if len(masks) < hi:
            hi = len(masks)  # Opt(V) <= number of distinct splits of V
        if hi < d or not good:
            self._store(vk, lo, min(hi, d - 1))
            return False
        if d == 2:  # both sides hold >= 2 concepts, so each has Opt >= 1
            self._store(vk, 2, hi)
            self._moves[vk] = good[0][3] if vk is V else (hash(V), good[0][3])
            return True
        good.sort(key=_first, reverse=True)
        d1 = d - 1
        for m, k1, s, j in good:
            s0 = V ^ s
            e0 = memo.get(s0)
            if e0 is not None and e0[1] < d1:
                continue
            e1 = memo.get(s)
            if e1 is not None and e1[1] < d1:
                continue
            if k1 <= n - k1:
                ok = self._at_least(s, k1, d - 1, masks, idxs) and self._at_least(s0, n - k1, d - 1, masks, idxs)
            else:
                ok = self._at_least(s0, n - k1, d - 1, masks, idxs) and self._at_least(s, k1, d - 1, masks, idxs)
            if ok:
                self._store(vk, d, hi)
                self._moves[vk] = j if vk is V else (hash(V), j)
                return True
        self._store(vk, lo, d - 1)
        return False

    def _filter_wide(self, V: int, n: int, need: int, cmasks: _WideList, cidx: list[int]):
        """A wide candidate list restricted to V, with numpy: (masks, idxs, good) as in _at_least,
        or (None, None, None) when no split leaves both sides >= need concepts."""
        A = cmasks.words
        Vw = np.frombuffer(V.to_bytes(self._nwords * 8, "little"), dtype="<u8")
        S = A & Vw
        c1 = np.bitwise_count(S).sum(axis=1, dtype=np.int64)
        m = np.minimum(c1, n - c1)
        if not (m >= need).any():
            return None, None, None
        idx = np.flatnonzero(m > 0)
        rows = S[idx]
        low = (V & -V).bit_length() - 1
        flip = ((rows[:, low >> 6] >> np.uint64(low & 63)) & np.uint64(1)) == 0
        canon = rows.copy()
        canon[flip] ^= Vw  # the side holding V's lowest concept: same or complementary splits coincide
        _, first = np.unique(canon.view(self._row_dtype).ravel(), return_index=True)
        keep = idx[np.sort(first)]
        sub = S[keep]
        masks = [int.from_bytes(row.tobytes(), "little") for row in sub]
        if len(masks) > self.tuning.wide_from:
            masks = _WideList(masks)
            masks.words = sub
        idxs = [cidx[i] for i in keep]
        good = [(int(m[i]), int(c1[i]), mk, j) for i, mk, j in zip(keep, masks, idxs) if m[i] >= need]
        return masks, idxs, good

    def value(self, V: int | None = None) -> int:
        """Opt(V) exactly (V defaults to the whole class). Uses and fills the memo."""
        V = self.full if V is None else V
        lo, hi = self.bounds(V)
        try:
            while lo < hi:
                if self._query(V, hi) if self._kernel_allowed() else self.at_least(V, hi):
                    lo = hi
                else:
                    hi -= 1
        finally:
            self._kernel_done()
            self.stop_detection()
        return lo

    # ------------------------------------------------------------------ the compiled kernel
    def _kernel_allowed(self) -> bool:
        """The kernel may run this search: not switched off, plain keys, and numba importable (imported only
        once the search is big enough)."""
        if self.kernel_mode == "python" or self._suspended:
            return False
        if (self.canonical is not None and not self._kernel_over_symmetry()) or self._iso_always:
            return False  # (keys up to isomorphism alone give way to the kernel: see _in_kernel)
        if self.kernel_mode == "auto" and self._kernel is None and (
                self._python_left > 0 or not self._compile_checked or self._symmetry_at is not None):
            return True  # decided in _query once the Python search has run long enough
        return _kernel.available()

    def _kernel_over_symmetry(self) -> bool:
        """Whether a search with a symmetry group may run in the kernel
        (:attr:`~solvers.opt.control.Tuning.kernel_over_symmetry`: in "auto" mode once this process has loaded it)."""
        return self.tuning.kernel_over_symmetry and (self.kernel_mode == "numba" or _kernel_cheap())

    def _query(self, V: int, d: int) -> bool:
        """Decide Opt(V) >= d: in the kernel when it is allowed (in "auto" mode only once the Python search
        has spent :attr:`~solvers.opt.control.Tuning.kernel_after_seconds` in these queries and expanded
        :attr:`~solvers.opt.control.Tuning.kernel_after` nodes: a query that gets there is asked again in the kernel,
        which starts from the memo the Python search filled), else by :meth:`_at_least`."""
        n = V.bit_count()
        if self._symmetric and not self.reached(V):
            return self.at_least(V, d)  # (orbit keys name only version spaces reached by examples)
        if self._kernel is None and self.kernel_mode == "auto":
            if (((_kernel.loaded() and self.nodes >= self.tuning.kernel_after) or (self._wide and _kernel_cheap()))
                    and self._keys_for_kernel()):
                # Loaded, and the search past its first nodes; or a class whose nodes cost a millisecond in
                # Python, and the kernel cheap to load: the kernel from here.
                self._python_left = 0.0
            if self._python_left > 0 or self._symmetry_at is not None:
                t0 = time.monotonic()
                # Once this process has loaded the kernel (an earlier search), kernel_after nodes or
                # kernel_loaded_after_seconds wait (see _tick).
                self._kernel_at = t0 + (0.0 if _kernel.loaded() else max(0.0, self._python_left))
                self._loaded_at = t0 + self.tuning.kernel_loaded_after_seconds
                try:
                    return self._at_least(V, n, d, self.root_masks, self.root_points)
                except _HandOver:
                    self._python_left = 0.0
                finally:
                    self._kernel_at = None
                    if self._python_left > 0:
                        self._python_left -= time.monotonic() - t0
            if not self._compile_checked:
                self._compile_checked = True
                if not _kernel.loaded() and _kernel.available():
                    cost = _kernel.load_seconds()
                    if cost is None and _kernel.start_build():
                        # Built in a process of its own: on in Python until it lands (_built_yet).
                        self._python_left = math.inf
                        self._build_poll = time.monotonic() + self.tuning.kernel_build_poll
                        return self._query(V, d)
                    T = self.tuning
                    left = python_seconds(cost, T) - T.kernel_after_seconds
                    if left > 0:
                        # As long again in Python as loading the kernel takes: its machine code through llvmlite,
                        # or numba in this process (compiling it the first time, or loading from its cache).
                        self._python_left = left
                        return self._query(V, d)  # on in Python, from the memo it filled
            if not self._kernel_allowed():
                return self._at_least(V, n, d, self.root_masks, self.root_points)
        return self._in_kernel(V, d)

    def _built_yet(self) -> None:
        """While the kernel's machine code is built in another process: once it is there, the running query hands
        over at the next look at the clock (where the build and this search share one CPU, the search waits for
        it: :func:`~solvers.opt._kernel_cache.await_build`); if the build failed, numba compiles it in this process
        after :attr:`~solvers.opt.control.Tuning.kernel_compile_after_seconds`."""
        now = time.monotonic()
        if _kernel.load_seconds() is not None or _kernel_cache.await_build(
                None if self._deadline is None else self._deadline - now, lambda: MemoSearch._tick(self)):
            self._build_poll = None
            self._python_left = 0.0
            if self._kernel_at is not None:
                self._kernel_at = now
        elif not _kernel.start_build():  # the build failed
            self._build_poll = None
            self._python_left = self.tuning.kernel_compile_after_seconds
            if self._kernel_at is not None:
                self._kernel_at = now + self._python_left
        else:
            self._build_poll = now + self.tuning.kernel_build_poll

    def _in_kernel(self, V: int, d: int) -> bool:
        """Decide Opt(V) >= d in the kernel (made on the first call, from the memo), or in Python when the
        keys become canonical meanwhile."""
        n = V.bit_count()
        if self._symmetric and not self.reached(V):
            return self.at_least(V, d)  # (orbit keys name only version spaces reached by examples)
        if self._kernel is None and self._kept is not None:
            self._kernel, self._kept = self._kept, None  # on from its table (the memo has not been read since)
        if self._kernel is None:
            if n < 2:  # nothing to search (and nothing to compile)
                return self._at_least(V, n, d, self.root_masks, self.root_points)
            if self._iso_active or self._iso_at is not None:
                # Keys up to isomorphism give way: the kernel keys version spaces by themselves, and where
                # both were measured it was the faster by far (monotone disjunctions n=10 k=3 as a matrix of
                # 1,024 points: 0.2 s in the kernel, 2.7 s with the forms). Their entries stay valid.
                self._iso_at, self._iso_active = None, False
                self._set_keys()
            budget = max(1, (self.memo_bytes - self._memo_used) // self.tuning.kernel_share)
            try:
                self._kernel = _kernel.Kernel(self, budget)
            except _kernel.Unloadable:  # (numba would not load here): the rest in Python
                self.kernel_mode = "python"
                return self._at_least(V, n, d, self.root_masks, self.root_points)
        try:
            return self._kernel.at_least(V, d)
        except _kernel.Abandon:
            # Keys the kernel does not compute came into use: the rest in Python, from the memo the kernel
            # filled.
            self._kernel_done(keep=False)
            return self._at_least(V, n, d, self.root_masks, self.root_points)

    def _kernel_done(self, keep: bool = True) -> None:
        """The kernel's queries are over: keep its state (``keep``: a later query and a mistake tree go on from its
        table; its memo is copied into this one only when the Python side reads the memo, :meth:`_flush`), or copy
        its memo now and drop it."""
        K, self._kernel = self._kernel, None
        if K is not None:
            self.evictions += K.evictions - K.evictions_counted
            K.evictions_counted = K.evictions
            if keep:
                self._kept = K
            else:
                K.write_back()

    def _flush(self) -> None:
        """Copy the kept kernel's memo into this memo (so that the certificates and later questions find it) and
        drop the kernel's state."""
        K, self._kept = self._kept, None
        if K is not None:
            K.write_back()

    @property
    def memo(self) -> dict:
        """Proven (lower, upper) bounds of Opt per key (a version space, an orbit's key, a key up to isomorphism);
        reading it first copies in what a kept kernel proved (:meth:`_flush`)."""
        if self._kept is not None:
            self._flush()
        return self._memo

    @memo.setter
    def memo(self, value: dict) -> None:
        self._memo = value

    @property
    def moves(self) -> dict:
        """Per memo key, the point whose split proved its lower bound (see :attr:`memo`)."""
        if self._kept is not None:
            self._flush()
        return self._moves

    @moves.setter
    def moves(self, value: dict) -> None:
        self._moves = value

    @property
    def memo_entries(self) -> int:
        """The memo's entries, counting those a kernel holds and has not written back yet (without copying them)."""
        K = self._kernel if self._kernel is not None else self._kept
        return len(self._memo) + (max(0, K.count - K.loaded) if K is not None else 0)

    @property
    def memo_used_bytes(self) -> int:
        """The bytes the memo's entries are counted as now (those a kernel holds too, see :attr:`memo_entries`)."""
        K = self._kernel if self._kernel is not None else self._kept
        extra = max(0, K.count - K.loaded) * K.entry_bytes() if K is not None else 0
        return self._memo_used + extra

    # ------------------------------------------------------------------ bounds from elsewhere
    @property
    def root_bounds(self) -> tuple[int, int]:
        """(lower, upper) on Opt(C) as proven at the root so far (kept when a search stops)."""
        return self._root_bounds if self._root_bounds is not None else self.bounds(self.full)

    def reset_root_bounds(self) -> tuple[int, int]:
        """Start the root's bounds afresh from :meth:`bounds` of the whole class, and return them."""
        self._root_bounds = self.bounds(self.full)
        return self._root_bounds

    def record(self, V: int, lo: int, hi: int, move: int | None = None) -> None:
        """Store bounds lo <= Opt(V) <= hi proven elsewhere (a worker process), and optionally a point
        index ``move`` whose split proves Opt(V) >= lo (the mistake tree starts from it)."""
        key = self._key_of(V)
        self._store(key, lo, hi)
        if move is not None:
            self.moves[key] = move if key == V else (hash(V), move)

    def add_nodes(self, count: int, kernel: int = 0) -> None:
        """Count ``count`` search nodes expanded on this solver's behalf elsewhere (worker processes), ``kernel`` of
        them by the compiled kernel."""
        self.nodes += count
        self.kernel_nodes += kernel

    def decide(self, V: int, d: int) -> bool:
        """Decide Opt(V) >= d with this process's search: in the compiled kernel where it is allowed (handed over as
        in :meth:`value`; its state kept for the next question), else in Python. For a caller that asks many
        questions and reads nothing else of the memo between them (the workers of :mod:`solvers.opt.parallel`)."""
        try:
            return self._query(V, d) if self._kernel_allowed() else self.at_least(V, d)
        finally:
            self._kernel_done()

    def subcube_table(self) -> SubcubeTable:
        """The table of Opt over every subcube of the class (:mod:`solvers.opt.subcube`), built on the
        first call (unfilled: call its ``fill``); :meth:`upper_proof` uses it once it is complete.
        Raises ``ValueError`` past :data:`~solvers.opt.subcube.MAX_TABLE_POINTS` distinct points."""
        if self.table is None:
            self.table = SubcubeTable(self.C, self.root_points)
        return self.table

    # ------------------------------------------------------------------ the root
    def solve_root(self, queries: list, *, warmup_nodes: int | None = None,
                   warmup_seconds: float = 0.25) -> tuple[int, int]:
        """Opt(C) by this process's search: a short warm-up going up, then :meth:`descend`.

        The warm-up asks "Opt(C) >= lo + 1?" going up until its queries have expanded ``warmup_nodes`` nodes
        (looked at between queries, so that the Python search and the kernel ask the same ones) or
        ``warmup_seconds`` have passed. It is for a search that may be stopped, or whose progress is shown: its
        lower bound rises while the query at the top runs. So by default it takes 2,048 nodes where the search has a
        deadline or a progress hook, else one query: the queries going up are rarely of use to the query at the
        top, measured on the raw classes of ``scripts/bench_raw.py`` (whole calls in fresh processes, 2,048 nodes
        against one query): rectangles N=16 0.105 -> 0.061 s, thresholds N=4000 0.072 -> 0.046 s, conjunctions
        n=9 0.048 -> 0.025 s, none slower.

        Returns (lower, upper), equal unless a deadline stopped it (then :class:`SearchStop` is raised
        and :attr:`root_bounds` holds the bounds proven so far). Every root query is appended to
        ``queries`` as ``{"d", "answer", "seconds"}``.
        """
        if warmup_nodes is None:
            watched = self._deadline is not None or self._progress is not None
            warmup_nodes = 2048 if watched else 0
        try:
            self._warm_up(queries, warmup_nodes, warmup_seconds)
            return self.descend(queries)
        finally:
            self._kernel_done()
            self.stop_detection()

    def descend(self, queries: list, decide: Callable[[int], bool] | None = None) -> tuple[int, int]:
        """The root loop: ask "Opt(C) >= d?" for d = the upper bound, going down until the bounds meet.

        Parameters
        ----------
        queries : list
            Each query is appended as ``{"d", "answer", "seconds"}``.
        decide : callable, optional
            ``decide(d) -> bool`` answers one query (it may raise :class:`SearchStop`, and may
            :meth:`record` what it proved); default: this process's search.

        Returns
        -------
        (lower, upper)
            Equal; a deadline raises :class:`SearchStop` instead, with :attr:`root_bounds` proven so far.
        """
        if decide is None:
            decide = self._decide_root
        lo, hi = self._start_root()
        try:
            while lo < hi:
                d = hi
                t0 = time.monotonic()
                try:
                    ok = decide(d)
                finally:
                    self._root_bounds = (lo, hi)
                queries.append({"d": d, "answer": ok, "seconds": round(time.monotonic() - t0, 4)})
                if ok:
                    lo = d
                else:
                    hi = d - 1
                self._root_bounds = (lo, hi)
                if self._progress is not None:
                    self._progress(self._progress_info())
        finally:
            self._kernel_done()
        return lo, hi

    def _decide_root(self, d: int) -> bool:
        V = self.full
        if self._kernel_allowed():
            return self._query(V, d)
        return self._at_least(V, V.bit_count(), d, self.root_masks, self.root_points)

    def _start_root(self) -> tuple[int, int]:
        """The root's bounds so far (from :meth:`bounds` when there are none yet), capped by the number
        of distinct splits."""
        lo, hi = self._root_bounds if self._root_bounds is not None else self.bounds(self.full)
        if hi > len(self.root_masks):
            hi = len(self.root_masks)  # Opt(C) <= the distinct splits of C (a no-op when |C| < 2)
        self._root_bounds = (lo, hi)
        return lo, hi

    def _warm_up(self, queries: list, warmup_nodes: int, warmup_seconds: float) -> None:
        """Cheap upward queries lo+1, lo+2, ... under a small node budget, so that a real lower bound
        (and its tree) exists early even when refuting the top takes long."""
        V = self.full
        n = V.bit_count()
        lo, hi = self._start_root()
        deadline = self._deadline
        until = self.nodes + warmup_nodes  # (looked at between queries: the same queries in Python and the kernel)
        warm_end = time.monotonic() + warmup_seconds
        if deadline is None or warm_end < deadline:
            self._deadline = warm_end
        # The warm-up hands over to the kernel as the root loop does (_query).
        try:
            while lo + 1 < hi:
                t0 = time.monotonic()
                if self._kernel_allowed():
                    ok = self._query(V, lo + 1)
                else:
                    ok = self._at_least(V, n, lo + 1, self.root_masks, self.root_points)
                queries.append({"d": lo + 1, "answer": ok, "seconds": round(time.monotonic() - t0, 4)})
                if not ok:
                    hi = lo
                else:
                    lo += 1
                self._root_bounds = (lo, hi)
                if self._progress is not None:
                    self._progress(self._progress_info())
                if self.nodes >= until:
                    break
        except SearchStop:
            if self._deadline == deadline:
                raise  # the caller's own time limit
        finally:
            self._deadline = deadline
        self._root_bounds = (lo, hi)

    # ------------------------------------------------------------------ certificates
    def upper_proof(self, h: int, V: int | None = None, *, limit: int = 100_000, roots: list | None = None) -> dict:
        """An upper-bound certificate "Opt(V) <= h" (see :func:`solvers.certificates.verify_upper`).

        Walks the refutation the search proved: for every distinct split of a version space that
        the Halving bound does not settle, one side with Opt <= h - 1 (from the memo, or asked
        again if the memo dropped it). Raises :class:`ProofTooLarge` past ``limit`` entries.

        With keys up to isomorphism, a version space isomorphic to one already refuted (with a bound no
        larger) gets an entry that names that one's entry and records the isomorphism
        (``"isomorphic": {"entry": i, "concepts": [[c, c'], ...], "points": [[x, x', f], ...]}``,
        :meth:`IsoForms.isomorphism <solvers.opt.isomorphism.IsoForms.isomorphism>`) instead of a
        refutation of its own.

        ``roots``, a list of ``(W, b, path)``, writes one certificate of "Opt(W) <= b" for each at once, every entry's
        path starting with the ``path`` (from the class) of its root: version spaces the roots share get one entry
        (the parts a worker of :mod:`solvers.opt.distributed` refuted). Then ``h`` and ``V`` are not used.
        """
        T = self.table if self.table is not None and self.table.complete and V is None and roots is None else None
        V = self.full if V is None else V
        if roots:  # several refuted version spaces at once, each (W, b, its path from the class)
            V = roots[0][0]
        # With a symmetry group, one entry per orbit: the checker matches the others up to symmetry.
        symmetric = T is None and self.canonical is not None and self.reached(V)
        if symmetric:
            key = self.memo_key
        elif T is None and self._iso_key_fn is not None:
            key = self._iso_key_fn
        else:
            key = _same
        entries: list[dict] = []
        best: dict = {}
        refuted: dict[bytes, tuple] = {}  # key up to isomorphism -> (entry, version space, bound) refuted
        stack = [(V, h, (), T.root if T is not None else None)] if roots is None else [
            (W, b, tuple(tuple(x) for x in path), None) for W, b, path in reversed(roots)]
        while stack:
            self._clock()  # under record_of_opt's deadline; and a Ctrl-C ends the walk
            W, b, path, p = stack.pop()
            if W.bit_count() < (1 << (b + 1)):
                continue
            k = key(W)
            if type(k) is bytes:
                done = refuted.get(k)
                if done is not None and done[2] <= b:
                    if done[1] != W:
                        entries.append({"path": [list(step) for step in path], "bound": b,
                                        "isomorphic": {"entry": done[0], **self._iso.isomorphism(W, done[1])}})
                        self._check_size(entries, limit)
                    continue
                refuted[k] = (len(entries), W, b)
            elif best.get(k, b + 1) <= b:
                continue
            best[k] = b
            entries.append({"path": [list(step) for step in path], "bound": b})
            self._check_size(entries, limit)
            if b == 0:
                raise RuntimeError("internal error: a version space of >= 2 concepts claimed Opt <= 0")
            masks, idxs = self._distinct_splits(W, self.root_masks)
            for s1, i in zip(masks, idxs):
                j = self.root_points[i]
                side = None
                for lab, child in ((1, s1), (0, W ^ s1)):
                    if child.bit_count() < (1 << b):
                        side = ()
                        break
                for lab, child in ((1, s1), (0, W ^ s1)):
                    if side is not None:
                        break
                    if T is not None:  # the table knows Opt of every subcube exactly
                        if T.value(T.child(p, i, lab)) <= b - 1:
                            side = (child, lab)
                        continue
                    e = self.memo.get(key(child))
                    if symmetric and (e is None or e[1] > b - 1):
                        e = self.memo.get(child, e)  # proven under its own key (the kernel's, before the group)
                    if e is not None and e[1] <= b - 1:
                        side = (child, lab)
                if side is None and T is None:
                    for lab, child in sorted(((1, s1), (0, W ^ s1)), key=lambda t: t[1].bit_count()):
                        if not self.at_least(child, b):
                            side = (child, lab)
                            break
                if side is None:
                    raise RuntimeError(f"internal error: Opt <= {b} does not hold for a version space")
                if side:
                    child, lab = side
                    # The checker looks children up by the set they hold, so the label of the
                    # representative point j names the same set as any equivalent point's.
                    stack.append((child, b - 1, path + ((j, lab),), T.child(p, i, lab) if T is not None else None))
        from ..certificates.rules import stamp

        out = {"kind": "upper-bound", "bound": h, "concepts": self.C.n_concepts, "entries": entries}
        if symmetric:
            out["symmetry"] = self.group.to_json()  # the group the memo's keys used
        return stamp(out, "orbit" if symmetric else "paths")

    @staticmethod
    def _check_size(entries: list, limit: int) -> None:
        if len(entries) > limit:
            raise ProofTooLarge(
                f"the upper-bound certificate needs more than {limit} entries; "
                "raise the limit or use a smaller class"
            )

    def mistake_tree(self, V: int, d: int) -> dict | None:
        """A mistake tree of depth ``d`` for V as nested dicts (requires Opt(V) >= d). Where the compiled kernel ran
        the search and its table is kept, it walks the tree itself (:meth:`Kernel.tree
        <solvers.opt.kernel.Kernel.tree>`: the same tree as :meth:`_tree`, up to depth
        :attr:`~solvers.opt.control.Tuning.kernel_tree_depth`)."""
        K = self._kept
        if (K is not None and 1 <= d <= self.tuning.kernel_tree_depth and not self._suspended
                and (not self._symmetric or self.reached(V))):
            self._kernel, self._kept = K, None
            try:
                return K.tree(V, d)
            except _kernel.Abandon:
                pass
            finally:
                self._kernel_done()
        if not self._symmetric or self.reached(V):
            return self._tree(V, d, self.root_masks, self.root_points)
        return self._without_symmetry(lambda: self._tree(V, d, self.root_masks, self.root_points))

    def _move(self, V: int):
        """The point whose split proved the memo's lower bound for V, if recorded for V itself."""
        vk = self.memo_key(V)
        if vk is V:
            return self.moves.get(V)
        # Under a canonical key: (the hash of the version space searched, its move); a hash collision
        # only offers a move that _tree then checks. Else a move recorded under V itself (by the kernel,
        # before the keys became canonical).
        e = self.moves.get(vk)
        if e is not None and e[0] == hash(V):
            return e[1]
        e = self.moves.get(V)
        return e if isinstance(e, int) else None

    def _tree(self, V: int, d: int, cmasks, cidx):
        if d <= 0:
            return None
        n = V.bit_count()
        if d <= 2:  # any split with both sides non-empty (d = 1), or holding >= 2 concepts (d = 2)
            least = 1 if d == 1 else 2
            for s, j in zip(cmasks, cidx):
                V1 = s & V  # the split of V at point j (cmasks holds its parent's)
                k1 = V1.bit_count()
                if least <= k1 <= n - least:
                    return {"point": j, "0": self._tree(V ^ V1, d - 1, cmasks, cidx),
                            "1": self._tree(V1, d - 1, cmasks, cidx)}
            raise RuntimeError("internal error: no split proves the claimed depth")
        masks, idxs = self._distinct_splits(V, cmasks)
        idxs = [cidx[i] for i in idxs]
        j = self._move(V)
        cols = self.C.columns

        def proves(V0, V1):
            return (self._at_least(V0, V0.bit_count(), d - 1, masks, idxs)
                    and self._at_least(V1, V1.bit_count(), d - 1, masks, idxs))

        if j is not None:
            V1 = V & cols[j]
            if not proves(V ^ V1, V1):
                j = None
        if j is None:
            order = sorted(range(len(masks)), key=lambda i: -min(masks[i].bit_count(), n - masks[i].bit_count()))
            for i in order:
                if proves(V ^ masks[i], masks[i]):
                    j = idxs[i]
                    break
            else:
                raise RuntimeError("internal error: no split proves the claimed depth")
        V1 = V & cols[j]
        V0 = V ^ V1
        return {"point": j, "0": self._tree(V0, d - 1, masks, idxs), "1": self._tree(V1, d - 1, masks, idxs)}


def python_seconds(cost: float | None, tuning: Tuning) -> float:
    """How long a search in "auto" mode runs in Python before the compiled kernel takes it over, given what loading
    the kernel costs now (``cost``: :func:`solvers.opt.kernel.load_seconds`, None when it is not built): as long
    as loading it takes (a search that ends sooner never loads it, and one that runs on pays at most about twice
    the better of the two), at least :attr:`~solvers.opt.control.Tuning.kernel_after_seconds`; where numba itself
    would load it, :attr:`~solvers.opt.control.Tuning.kernel_numba_after_seconds`, and where it is not built yet
    and cannot be built in the background, :attr:`~solvers.opt.control.Tuning.kernel_compile_after_seconds`."""
    if cost is None:
        return tuning.kernel_compile_after_seconds
    if cost > _kernel.LOAD_SECONDS:
        return tuning.kernel_numba_after_seconds
    return max(cost, tuning.kernel_after_seconds)


def _kernel_cheap() -> bool:
    """Whether the compiled kernel is loaded, or its saved machine code cheap to load (:data:`kernel.LOAD_SECONDS
    <solvers.opt.kernel.LOAD_SECONDS>`)."""
    cost = _kernel.load_seconds()
    return cost is not None and cost <= _kernel.LOAD_SECONDS


def _first(t):
    return t[0]


def _same(V):
    return V
