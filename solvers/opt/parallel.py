"""The root queries of :func:`solvers.opt.opt` spread over worker processes (``jobs > 1`` with
``Tuning(spread_local=False)``; the default spreads them by :mod:`solvers.opt.distributed`), through joblib.

The root query "Opt(C) >= d?" of [Rivest94]'s recurrence is an OR over the root's balanced splits: the
splits are dealt round-robin to ``jobs`` worker processes, each of which keeps one
:class:`~solvers.opt.search.Solver` per class (loky reuses its workers, so their memos survive from one
query to the next). A query is true as soon as one worker proves a split; it is false only when every
worker has refuted all of its own. The loop over the queries is the solver's own
(:meth:`Solver.descend <solvers.opt.search.Solver.descend>`); this module only decides each query, and
records its answer in the solver through its public methods.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import time

from joblib import Parallel, delayed
from joblib._parallel_backends import LokyBackend

from ..interrupts import spawning, worker_args, worker_init
from .search import SearchStop, Solver

__all__ = ["solve_root_parallel"]

_WORKER_SOLVERS: dict = {}  # in a worker process: the class's listing key (rows in order) -> its Solver


def _ready() -> None:
    """A task that does nothing: it starts the workers."""


def _worker(C, key, d, moves, deadline_in, memo_bytes, symmetry=True, isomorphism=True, kernel=None):
    """In a worker: try the root splits ``moves`` for "Opt(C) >= d?"; ("yes", j, nodes, kernel nodes) as soon
    as the split at point j proves it, ("no", None, ...) when none does, ("stopped", None, ...) past the deadline
    (``deadline_in`` seconds from now); the nodes this call expanded, and how many of them in the compiled
    kernel (each question through :meth:`Solver.decide <solvers.opt.search.Solver.decide>`). ``symmetry`` as the parent solver's: the class
    arrives pickled with the group the parent found (when it has found it; else the worker finds the
    same group itself, bliss being deterministic); ``isomorphism`` and ``kernel`` as the parent solver's; only the
    parent's memo makes certificates."""
    S = _WORKER_SOLVERS.get(key)
    if S is None:
        _WORKER_SOLVERS.clear()
        S = _WORKER_SOLVERS[key] = Solver(C, memo_bytes=memo_bytes, symmetry=symmetry, isomorphism=isomorphism,
                                          kernel=kernel)
    S.memo_bytes = memo_bytes
    deadline = None if deadline_in is None else time.monotonic() + deadline_in
    V = S.full
    cols = C.columns
    nodes, kernel = S.nodes, S.kernel_nodes
    try:
        with S.limits(deadline=deadline):
            for j in moves:
                V1 = V & cols[j]
                V0 = V ^ V1
                small, large = (V1, V0) if V1.bit_count() <= V0.bit_count() else (V0, V1)
                if S.decide(small, d - 1) and S.decide(large, d - 1):
                    return ("yes", j, S.nodes - nodes, S.kernel_nodes - kernel)
        return ("no", None, S.nodes - nodes, S.kernel_nodes - kernel)
    except SearchStop:
        return ("stopped", None, S.nodes - nodes, S.kernel_nodes - kernel)


def solve_root_parallel(S: Solver, jobs: int, queries: list) -> tuple[int, int]:
    """Opt(C) by :meth:`Solver.descend <solvers.opt.search.Solver.descend>` with each root query's
    splits spread over ``jobs`` workers; the deadline is the one of ``S.limits(...)``.

    Returns (lower, upper), equal; past the deadline raises :class:`SearchStop` (``S.root_bounds``
    holds the bounds proven so far).
    """
    C = S.C
    V = S.full
    n = V.bit_count()
    key = (C.listing_key(), S.symmetric_search, S.isomorphism, S.kernel_mode)  # (the bitsets follow the rows' order)
    share = max(1, S.memo_bytes // jobs)  # the memo limit is shared by the workers

    # (the workers end with this process, SIGKILL included)
    with Parallel(n_jobs=jobs, backend=LokyBackend(initializer=worker_init, initargs=worker_args())) as pool:
        with spawning():  # the workers start here, holding Ctrl-C until they ignore it (this process stops them)
            pool(delayed(_ready)() for _ in range(jobs))

        def decide(d: int) -> bool:
            need = 1 << (d - 1)
            sized = []
            for s, j in zip(S.root_masks, S.root_points):
                k1 = s.bit_count()
                m = min(k1, n - k1)
                if m >= need:
                    sized.append((m, j))
            sized.sort(reverse=True)
            moves = [j for _, j in sized]
            chunks = [moves[i::jobs] for i in range(jobs) if moves[i::jobs]]
            left = None if S.deadline is None else S.deadline - time.monotonic()
            if left is not None and left <= 0:
                raise SearchStop()
            answers = pool(delayed(_worker)(C, key, d, ch, left, share, S.symmetric_search, S.isomorphism,
                                            S.kernel_mode) for ch in chunks) if chunks else []
            S.add_nodes(sum(a[2] for a in answers), kernel=sum(a[3] for a in answers))
            lo, hi = S.root_bounds  # hi == d: the loop asks the upper bound
            yes = [a for a in answers if a[0] == "yes"]
            if yes:
                # Record the proof in this process's memo so the certificate can be rebuilt here.
                S.record(V, d, hi, move=yes[0][1])
                return True
            if any(a[0] == "stopped" for a in answers):
                raise SearchStop()
            S.record(V, lo, d - 1)
            return False

        return S.descend(queries, decide)
