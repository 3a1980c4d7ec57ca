"""Parallel root queries for :func:`solvers.opt` (``jobs > 1``), through joblib.

The root query "Opt(C) >= d?" is an OR over the root's balanced splits; the splits are dealt
round-robin to ``jobs`` worker processes, each of which keeps one :class:`~solvers.opt.Solver` per
class (loky reuses its workers, so their memos survive from one query to the next). A query is true
as soon as one worker proves a split; it is false only when every worker has refuted all of its own.
"""

from __future__ import annotations

import time

from joblib import Parallel, delayed

_WORKER_SOLVERS: dict = {}


def _worker(C, key, d, moves, deadline_in, memo_bytes):
    from .opt import Solver, _Stop

    S = _WORKER_SOLVERS.get(key)
    if S is None:
        _WORKER_SOLVERS.clear()
        S = _WORKER_SOLVERS[key] = Solver(C, memo_bytes=memo_bytes)
    S.memo_bytes = memo_bytes
    S._deadline = None if deadline_in is None else time.monotonic() + deadline_in
    V = S.full
    cols = C.columns
    try:
        for j in moves:
            V1 = V & cols[j]
            V0 = V ^ V1
            small, large = (V1, V0) if V1.bit_count() <= V0.bit_count() else (V0, V1)
            if S.at_least(small, d - 1) and S.at_least(large, d - 1):
                return ("yes", j, S.nodes)
        return ("no", None, S.nodes)
    except _Stop:
        return ("stopped", None, S.nodes)
    finally:
        S._deadline = None


def solve_root_parallel(S, jobs: int, queries: list) -> tuple[int, int]:
    """The root loop of Solver._solve_root with each query's moves spread over ``jobs`` workers."""
    from .opt import _Stop

    C = S.C
    V = S.full
    n = V.bit_count()
    lo, hi = S.bounds(V)
    hi = min(hi, len(S.root_masks)) if n >= 2 else hi
    S._root_bounds = (lo, hi)
    key = C.fingerprint()
    share = max(1, S.memo_bytes // jobs)  # the memo limit is shared by the workers
    with Parallel(n_jobs=jobs, backend="loky") as pool:
        while lo < hi:
            d = hi
            t0 = time.monotonic()
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
            left = None if S._deadline is None else S._deadline - time.monotonic()
            if left is not None and left <= 0:
                raise _Stop()
            answers = pool(delayed(_worker)(C, key, d, ch, left, share) for ch in chunks) if chunks else []
            S.nodes += sum(a[2] for a in answers)
            yes = [a for a in answers if a[0] == "yes"]
            if yes:
                ok = True
                S.moves[V] = yes[0][1]
            elif any(a[0] == "stopped" for a in answers):
                raise _Stop()
            else:
                ok = False
            queries.append({"d": d, "answer": ok, "seconds": round(time.monotonic() - t0, 4)})
            if ok:
                lo = d
                # Record the proof in this process's memo so the certificate can be rebuilt here.
                S._store(V, d, hi)
            else:
                hi = d - 1
                S._store(V, lo, hi)
            S._root_bounds = (lo, hi)
            if S._progress is not None:
                S._progress(S._progress_info())
    return lo, hi
