"""What the searches over compact states share: the root loop, the count and memo checks, the limits.

The generic solver (:mod:`solvers.opt.search`) keeps a version space as a bitset over the concepts. For
thresholds, intervals and rectangles a version space is determined by a small *state* (a range of
thresholds; the free segments between negative examples; a box and the negatives around it), and
[Rivest94]'s recurrence (docs/how-it-works/solver.md)::

    Opt(V) = -1 if V is empty; 0 if no point splits V;
    otherwise max over x splitting V of 1 + min(Opt(V_x^0), Opt(V_x^1))

can be run over states instead: :mod:`solvers.opt.intervals` (thresholds and intervals),
:mod:`solvers.opt.rectangles` and :mod:`solvers.opt.disjunctions` (monotone disjunctions, states up to
renaming the variables) do so, with the same decision queries "Opt(V) >= d?", a memo on canonical
states and the cardinality bound Opt(V) <= floor(log2 |V|) (Halving, [OnlineAlgs]). Their mistake trees
name explicit points, so that :mod:`solvers.certificates` checks them against the family's own labels
(:class:`~solvers.classes.evaluated.EvaluatedClass`, or the implicit class), never against the state search.

:class:`StateSearch` is their common base: the root loop goes *up* from the lower bound for a moment
(each "yes" is a mistake tree, so a time limit keeps a deep one), then *down* from the cardinality bound.
:mod:`solvers.opt.compact` picks the search for a class and runs it for :func:`solvers.opt.opt`.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import time

from ..certificates import MistakeTree
from ..classes.evaluated import EVALUATED_FAMILIES
from .memo import MemoSearch, SearchStop

__all__ = ["StateSearch", "STATE_FAMILIES"]

#: The families whose version spaces the state searches handle (those with a class form beyond the matrix).
STATE_FAMILIES = EVALUATED_FAMILIES


class StateSearch(MemoSearch):
    """The root loop of a search over states (see the module docstring).

    Subclasses set ``C`` (an :class:`~solvers.classes.evaluated.EvaluatedClass`), ``root`` (the state
    of the whole class) before :meth:`_init_search`, and define ``size(state)`` (|V|),
    ``at_least(state, d)``, ``mistake_tree(d)`` (the tree of depth d as nested dicts over column indices)
    and ``upper_proof(h, limit=...)``; ``engine`` is the name :func:`solvers.opt.opt` reports.
    """

    engine = "states"

    def _init_search(self, memo_bytes: int, entry_bytes: int) -> None:
        self._init_memo(memo_bytes, entry_bytes)
        self.nodes = 0
        n = self.size(self.root)
        self._root_bounds = (0 if n >= 1 else -1, n.bit_length() - 1)

    @staticmethod
    def _count_settles(n: int, d: int):
        """The answer to "Opt(V) >= d?" when |V| = n alone settles it (d <= 1, or n < 2^d: Halving), else None."""
        if d <= 1:
            return n >= 1 if d <= 0 else n >= 2
        return False if n < 1 << d else None

    def _recall(self, key, n: int, d: int, lo: int = 1):
        """What is known of "Opt(V) >= d?" before searching the state ``key`` (|V| = n, Opt(V) >= lo):
        ``(answer, lo, hi)``, the answer True or False when the count or the memo settles it, else None
        with the proven bounds to search between."""
        known = self._count_settles(n, d)
        if known is not None:
            return known, lo, lo
        hi = n.bit_length() - 1
        e = self.memo.get(key)
        if e is not None:
            lo, hi = max(lo, e[0]), min(hi, e[1])
        return (True if lo >= d else False if hi < d else None), lo, hi

    @property
    def root_bounds(self) -> tuple[int, int]:
        """(lower, upper) on Opt(C) proven so far."""
        return self._root_bounds

    def value(self, state=None) -> int:
        """Opt of the version space of ``state`` (the whole class by default) exactly: the largest d with
        ``at_least(state, d)``, from 0 (-1 for an empty one) up to floor(log2 |V|) (uses and fills the memo)."""
        state = self.root if state is None else state
        n = self.size(state)
        lo, hi = (0 if n >= 1 else -1), n.bit_length() - 1
        while lo < hi and self.at_least(state, lo + 1):
            lo += 1
        return lo

    def solve_root(self, queries: list, *, warmup_seconds: float = 0.25) -> tuple[int, int]:
        """Opt(C) by queries "Opt(C) >= d?": for ``warmup_seconds`` (or a tenth of the time left under a
        deadline, if more), d = lower + 1, lower + 2, ... (cheap answers "yes", so that a time limit still
        leaves a deep tree); then d = upper, upper - 1, ... until one holds (usually the first or the
        second: the cardinality bound is nearly tight on these families). Where :attr:`alternate_root` is
        set, :meth:`_solve_root_alternating` runs instead. Each query is appended to
        ``queries`` as ``{"d", "answer", "seconds"}``. A deadline raises :class:`SearchStop` with
        :attr:`root_bounds` proven so far."""
        if self.alternate_root:
            return self._solve_root_alternating(queries, warmup_seconds)
        deadline = self._deadline
        now = time.monotonic()
        if deadline is not None:
            warmup_seconds = max(warmup_seconds, (deadline - now) / 10)
        warm_end = now + warmup_seconds
        self._deadline = warm_end if deadline is None else min(deadline, warm_end)
        try:
            while self._root_bounds[0] < self._root_bounds[1]:
                self._ask(queries, self._root_bounds[0] + 1)
        except SearchStop:
            if self._deadline == deadline:
                raise  # the caller's own time limit
        finally:
            self._deadline = deadline
        while self._root_bounds[0] < self._root_bounds[1]:
            self._ask(queries, self._root_bounds[1])
        return self._root_bounds

    #: Whether :meth:`solve_root` alternates between the two directions, each phase twice as long as the one
    #: before (:meth:`_solve_root_alternating`), instead of warming up once and then going down.
    alternate_root = False

    def _solve_root_alternating(self, queries: list, first: float) -> tuple[int, int]:
        """The root loop where neither direction is the cheaper one on every instance: queries downwards
        (d = upper, ...) for ``first`` seconds, then upwards (d = lower + 1, ...) for twice that, then
        downwards for twice that again, and so on, until the bounds meet. Under a deadline the first phase
        goes up (a run stopped early keeps a deep tree) and lasts a tenth of the time left, if more. A
        stopped query is not lost: the memo keeps what its search proved, and the next phase in that
        direction asks it again from there. So the run takes a small multiple of the better direction's
        time (measured: up to about 2.3x), against many times with the worse one: monotone disjunctions n = 26, k = 5 did
        not refute 16 from the top in 600 s, and settles Opt = 14 upwards in about a minute; n = 24, k = 4
        takes 22 s upwards and 5 s downwards. A deadline of the caller's raises :class:`SearchStop` with
        :attr:`root_bounds` proven so far."""
        deadline = self._deadline
        phase = max(first, 0.01)  # (doubling from 0 would stay 0)
        if deadline is not None:
            phase = max(phase, (deadline - time.monotonic()) / 10)
        up = deadline is not None  # (under a time limit up first: a run stopped early keeps a deep tree)
        try:
            while self._root_bounds[0] < self._root_bounds[1]:
                end = time.monotonic() + phase
                self._deadline = end if deadline is None else min(deadline, end)
                try:
                    while self._root_bounds[0] < self._root_bounds[1]:
                        lo, hi = self._root_bounds
                        self._ask(queries, lo + 1 if up else hi)
                except SearchStop:
                    if self._deadline == deadline:
                        raise  # the caller's own time limit
                up = not up
                phase *= 2
        finally:
            self._deadline = deadline
        return self._root_bounds

    def certificate_tree(self, d: int, C) -> MistakeTree:
        """The mistake tree of depth ``d`` (<= Opt) as the certificate for the class ``C`` that was solved
        (by default over the search's own class, whose columns are those of ``make``'s)."""
        return MistakeTree(d, self.mistake_tree(d), self.C)

    def _ask(self, queries: list, d: int) -> None:
        """One root query "Opt(C) >= d?", recorded and applied to the root's bounds."""
        t0 = time.monotonic()
        ok = self.at_least(self.root, d)
        queries.append({"d": d, "answer": ok, "seconds": round(time.monotonic() - t0, 4)})
        lo, hi = self._root_bounds
        self._root_bounds = (max(lo, d), hi) if ok else (lo, min(hi, d - 1))
        if self._progress is not None:
            self._progress(self._progress_info())
