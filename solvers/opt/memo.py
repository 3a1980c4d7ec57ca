"""What the exact searches share: a memo of proven bounds, bounded in bytes, a deadline and progress.

:class:`~solvers.opt.search.Solver` (Opt), :class:`~solvers.opt.games.GameSolver` (the games beyond Opt)
and :class:`~solvers.opt.experts.DeterministicExperts` (the experts game) each keep ``memo`` (a state's
proven ``(lower, upper)``) and ``moves`` (the move that proved a lower bound). When the memo's estimated
size passes ``memo_bytes`` the older half is dropped (dicts keep insertion order), so a long search slows
down instead of running the machine out of memory. ``limits(deadline=..., progress=...)`` sets, for a
``with`` block, the ``time.monotonic()`` instant past which the search raises :class:`SearchStop`, and a
callback that receives ``_progress_info()`` about once a second. The same look at the clock raises
KeyboardInterrupt half a second after the command line recorded a Ctrl-C, even one that a library
swallowed (:func:`solvers.interrupts.check`).
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from .. import interrupts

__all__ = ["MemoSearch", "SearchStop", "Limits", "cancelling", "cancelled", "cancelled_event"]


class SearchStop(Exception):
    """The deadline passed during a search, or its run was cancelled (the bounds proven so far stay valid)."""


class _Cancel(threading.local):
    event = None  # the cancel signal (a threading.Event) of the run under way in this thread, if any


_CANCEL = _Cancel()


def cancelled() -> bool:
    """Whether the run under way in this thread was cancelled (:class:`~solvers.opt.control.Control`'s ``cancel``):
    every search's clock check then stops it as at its deadline."""
    e = _CANCEL.event
    return e is not None and e.is_set()


def cancelled_event():
    """The cancel signal of the run under way in this thread (None: none)."""
    return _CANCEL.event


class cancelling:
    """``with cancelling(event):`` the searches run in this thread inside the block stop once ``event`` is set
    (None: no cancel signal); the previous signal comes back on exit."""

    __slots__ = ("event", "old")

    def __init__(self, event):
        self.event = event

    def __enter__(self):
        self.old, _CANCEL.event = _CANCEL.event, self.event
        return self

    def __exit__(self, *exc) -> None:
        _CANCEL.event = self.old


class MemoSearch:
    """The memo, the deadline and the progress reports of a search (see the module docstring).

    Subclasses call :meth:`_init_memo` in their constructor, give :meth:`_progress_info`, and store
    through :meth:`_store` (each entry counted as ``entry_bytes``) or their own hot-path version of it.
    """

    def _init_memo(self, memo_bytes: int, entry_bytes: int) -> None:
        if isinstance(memo_bytes, bool) or not isinstance(memo_bytes, (int, float)) or not memo_bytes >= 1:
            raise ValueError(f"memo_bytes={memo_bytes!r}: give the memory the memo may use, a number of bytes >= 1")
        self.memo_bytes = int(memo_bytes)
        self.memo: dict = {}
        self.moves: dict = {}
        self.evictions = 0
        self._entry_bytes = entry_bytes
        self._memo_used = 0
        self._reserved = 0  # bytes of the budget set aside for a cache beside the memo (games' canonical keys)
        self._deadline: float | None = None
        self._progress: Callable | None = None
        self._next_report = 0.0

    @property
    def memo_used_bytes(self) -> int:
        """The bytes the memo's entries are counted as now: the estimate held to the budget ``memo_bytes``
        (entries dropped by an eviction no longer count)."""
        return self._memo_used

    def _entry_size(self, key) -> int:
        """The bytes a memo entry is counted as (a constant unless a subclass says otherwise)."""
        return self._entry_bytes

    def _store(self, key, lo, hi) -> None:
        if key not in self.memo:
            self._memo_used += self._entry_size(key)
            if self._memo_used + self._reserved > self.memo_bytes:
                self._evict()
        self.memo[key] = (lo, hi)

    def _evict(self) -> None:
        """Drop the older half of the memo (and the moves recorded for it)."""
        self.evictions += 1
        drop = len(self.memo) // 2 + 1
        keys = []
        for i, key in enumerate(self.memo):
            if i >= drop:
                break
            keys.append(key)
        for key in keys:
            del self.memo[key]
            self.moves.pop(key, None)
            self._memo_used -= self._entry_size(key)

    def limits(self, *, deadline: float | None = None, progress: Callable[[dict], None] | None = None) -> "Limits":
        """``with solver.limits(...):`` searches inside the block under these limits; the previous ones
        come back on exit.

        Parameters
        ----------
        deadline : float, optional
            A ``time.monotonic()`` instant; past it the search raises :class:`SearchStop`.
        progress : callable, optional
            Called about once a second with the search's ``_progress_info()`` (``lower``, ``upper`` of
            the root so far, ``nodes``, ``memo``).
        """
        return Limits(self, deadline, progress)

    def run(self, work: Callable[[], object], *, deadline: float | None = None,
            progress: Callable[[dict], None] | None = None) -> tuple:
        """``work()`` under these :meth:`limits`: ``(its result, None)``, or ``(None, why)`` when the deadline
        (``"time limit"``) or Ctrl-C (``"interrupted"``) stopped it (the bounds proven so far stay with the
        search, e.g. its ``root_bounds``)."""
        try:
            with self.limits(deadline=deadline, progress=progress):
                return work(), None
        except SearchStop:
            return None, "time limit"
        except KeyboardInterrupt:
            return None, "interrupted"

    @property
    def deadline(self) -> float | None:
        """The deadline of the current :meth:`limits` (None: no time limit)."""
        return self._deadline

    def _tick(self) -> None:
        interrupts.check()  # a Ctrl-C that a library swallowed stops the search here (solvers.interrupts)
        now = time.monotonic()
        if self._deadline is not None and now >= self._deadline or cancelled():
            raise SearchStop()
        if self._progress is not None and now >= self._next_report:
            self._next_report = now + 1.0
            self._progress(self._progress_info())

    def _clock(self) -> None:
        """The deadline and a recorded Ctrl-C only, without progress reports: for the walks that write a
        certificate from the memo (each step is cheap, but there may be many)."""
        interrupts.check()
        if self._deadline is not None and time.monotonic() >= self._deadline or cancelled():
            raise SearchStop()

    def _progress_info(self) -> dict:
        lo, hi = self.root_bounds
        return {"lower": lo, "upper": hi, "nodes": self.nodes, "memo": len(self.memo)}


def search_root(S: "MemoSearch", engine: str, *, time_limit: float | None = None,
                progress: Callable[[dict], None] | None = None, tree: Callable[[int], object]) -> tuple:
    """Run the root loop of the search ``S`` (``S.solve_root``) under ``time_limit``: ``(lower, upper, the
    tree, stats)``. The tree is ``tree(lower)`` (None for an empty class, or when a Ctrl-C comes while it is
    rebuilt: the bounds without it); ``stats`` is what :func:`solvers.opt.opt` reports (``engine``,
    ``nodes``, ``memo``, ``evictions``, ``memo_bytes``, ``memo_used_bytes``, ``seconds``, ``queries``,
    ``stopped``). A time limit or Ctrl-C returns the bounds proven so far."""
    t0 = time.monotonic()
    deadline = t0 + time_limit if time_limit is not None else None
    queries: list = []
    nodes0 = S.nodes
    done, stopped = S.run(lambda: S.solve_root(queries), deadline=deadline, progress=progress)
    lo, hi = done if done is not None else S.root_bounds
    built = None
    try:
        if lo >= 0:
            built = tree(lo)  # rebuilt from the memo's answers
    except KeyboardInterrupt:
        stopped = "interrupted"
    stats = {"engine": engine, "nodes": S.nodes - nodes0, "memo": len(S.memo), "evictions": S.evictions,
             "memo_bytes": S.memo_bytes, "memo_used_bytes": S.memo_used_bytes,
             "seconds": round(time.monotonic() - t0, 4), "queries": queries, "stopped": stopped}
    return lo, hi, built, stats


class Limits:
    """The context manager of :meth:`MemoSearch.limits` (a class rather than a generator: opt() on a tiny
    class takes microseconds)."""

    __slots__ = ("solver", "deadline", "progress", "old")

    def __init__(self, solver, deadline, progress):
        self.solver, self.deadline, self.progress = solver, deadline, progress

    def __enter__(self):
        S = self.solver
        self.old = S._deadline, S._progress
        if self.progress is not None and self.progress is not S._progress:
            S._next_report = time.monotonic() + 1.0
        S._deadline, S._progress = self.deadline, self.progress
        return S

    def __exit__(self, *exc) -> None:
        self.solver._deadline, self.solver._progress = self.old
