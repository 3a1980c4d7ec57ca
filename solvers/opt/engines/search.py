"""The ``search`` engine: Opt(C) by the decision search over version spaces (:class:`~solvers.opt.search.Solver`,
in Python or its compiled kernel), in this process or spread over worker processes or a Dask cluster
(:mod:`solvers.opt.distributed`; with ``Tuning(spread_local=False)`` the root's splits dealt to joblib's workers,
:mod:`solvers.opt.parallel`). With ``table=True`` (the plan's "search, then table") a search that has not settled a
class of at most 17 distinct points by its cap moves to the bottom-up table (:mod:`solvers.opt.subcube`) with the
same solver; :mod:`solvers.opt.engines.table` is the table alone. The deterministic game with a horizon T is
min(T, Opt(C)) (:func:`capped`).
"""

from __future__ import annotations

import time

from ...certificates import MistakeTree
from ...certificates.opt import cut_tree
from ...game_rules import Game
from .. import distributed
from ..control import Control, Tuning
from ..result import OptResult, Stats
from ..search import SearchStop, Solver
from ..subcube import MAX_TABLE_POINTS, TableStop
from ._common import game_of, listed, run

NAME = "search"

__all__ = ["NAME", "takes", "solve", "search", "capped"]


def takes(C, game=None) -> str | None:
    """None for a listed class and Opt(C) or its horizon game; else why not."""
    G = game_of(game)
    if not listed(C):
        return "the search reads the class's matrix; this class has none (engine 'states')"
    if G.randomized or G.errors:
        return "the randomized and k-error games are the games engine's"
    return None


def solve(C, game=None, control: Control = Control(), tuning: Tuning | None = None) -> OptResult:
    """Opt(C) (or min(T, Opt(C)) with a horizon T) by the decision search."""
    G = game_of(game)
    why = takes(C, G)
    if why is not None:
        raise ValueError(f"engine 'search' does not take this: {why}")
    r = run(control, lambda: search(C, control, tuning or Tuning.default()))
    return r if G.standard else capped(r, G)


def search(C, control: Control, tuning: Tuning, *, table: bool = False, table_only: bool = False,
           cap: float | None = None, solver: Solver | None = None, parts: dict | None = None,
           t0: float | None = None) -> OptResult:
    """Opt(C) by the search (``table_only``: by the table alone; ``table``: the search until ``cap`` seconds from
    ``t0``, then the table), under ``control``; ``solver`` a warm one for ``C``, ``parts`` a spread search's
    (:func:`solvers.opt.opt`)."""
    t0 = time.monotonic() if t0 is None else t0
    deadline = control.deadline
    progress, jobs, cluster = control.progress, control.jobs, control.cluster
    S = solver if solver is not None else Solver(C, memo_bytes=control.memo_bytes, symmetry=tuning.symmetry,
                                                 isomorphism=tuning.isomorphism, tuning=tuning)
    N = len(S.root_masks)
    if table_only and N > MAX_TABLE_POINTS:
        raise ValueError(f"the table engine handles at most {MAX_TABLE_POINTS} distinct points and this class has "
                         f"{N}; use engine 'search' or 'auto'")
    queries: list = []
    spreads: list = []  # the driver of a search spread over workers, once it has started
    stopped = None
    nodes0 = S.nodes
    used = "table" if table_only else "search"
    lo, hi = S.reset_root_bounds()
    try:
        if not table_only:
            budget = deadline
            if table and N <= MAX_TABLE_POINTS and cap is not None:
                cut = t0 + cap
                budget = cut if deadline is None else min(deadline, cut)
            try:
                with S.limits(deadline=budget, progress=progress):
                    if cluster is not None or (jobs > 1 and tuning.spread_local):
                        try:
                            lo, hi = _search_root_spread(S, jobs, cluster, queries, t0, budget, progress, parts,
                                                         spreads, tuning, control.memo_bytes)
                        finally:
                            S.stop_detection()
                    elif jobs == 1:
                        # (the warm-up is for a run that may stop or shows its progress: the caller's deadline, not
                        # the table's cap, says so)
                        lo, hi = S.solve_root(queries, warmup_nodes=warmup_nodes(deadline, progress))
                    else:
                        try:
                            lo, hi = _search_root_with_workers(S, jobs, queries, t0, budget, progress)
                        finally:
                            S.stop_detection()  # (the workers' search never looks at a detection under way here)
            except SearchStop:
                lo, hi = S.root_bounds
                if budget == deadline or control.cancelled():
                    stopped = "time limit"
        if lo < hi and stopped is None and N <= MAX_TABLE_POINTS and (table or table_only):
            used = "table"
            T = S.subcube_table()
            up = hi
            report = None
            if progress is not None:
                def report(info):
                    progress({"lower": max(lo, info["lower"]), "upper": up, "nodes": S.nodes,
                              "memo": S.memo_entries, "sweeps": info["sweeps"]})
            T.fill(deadline, report)
            lo = hi = T.value()
    except (SearchStop, TableStop):
        stopped = "time limit"
        lo, hi = S.root_bounds
        if S.table is not None and S.table.value() > lo:
            lo = S.table.value()  # every value in a partly filled table is a proven lower bound
            used = "table"
    except KeyboardInterrupt:
        stopped = "interrupted"
        lo, hi = S.root_bounds
    except distributed.Lost as e:
        stopped = f"lost: {e}"
        lo, hi = S.root_bounds
    tree = None
    spread = spreads[0] if spreads else None
    proof = None
    if spread is not None and spread.upper is not None and spread.upper == hi:
        if spread.certified:
            def proof(limit, spread=spread, hi=hi):
                return spread.upper_proof(hi, limit=limit)
        else:
            if spread.resumed:  # a bound resting on stored parts that no certificate checked: not reported
                hi = max(lo, spread.hi0)
                stopped = stopped or spread.stopped or "time limit"

            def proof(limit):  # (not the driver's memo: it holds none of the workers' refutations)
                raise ValueError("the workers' upper-bound certificate was not written (the search was stopped)")
    if lo >= 0:
        try:
            if used == "table" and S.table is not None and S.table.value() >= lo:
                root = S.table.mistake_tree(d=lo)
            elif spread is not None and lo >= 1 and spread.lower >= lo:
                root = spread.tree(lo)  # from the parts' trees
            else:
                # The tree of depth `lo` is rebuilt from the memo's recorded moves (a memo hit per node).
                root = S.mistake_tree(S.full, lo)
            tree = MistakeTree(lo, root, C)
        except KeyboardInterrupt:
            # Ctrl-C while the tree is rebuilt, or a memo that dropped part of it after one (the search
            # it would need stops after the grace of solvers.interrupts): the bounds without their tree.
            stopped = "interrupted"
    stats = Stats({
        "engine": used,
        "nodes": S.nodes - nodes0,
        "memo": S.memo_entries,
        "evictions": S.evictions,
        "memo_bytes": S.memo_bytes,  # the budget
        "memo_used_bytes": S.memo_used_bytes,
        "seconds": round(time.monotonic() - t0, 4),
        "queries": queries,
        "stopped": stopped,
        "root_splits": N,
        "symmetry": S.symmetry_info,
        "isomorphism": S.isomorphism_info,
    })
    if S.table is not None:
        stats["table_sweeps"] = S.table.sweeps
    if spread is not None:
        stats["spread"] = {"workers": spread.pool.size, "parts": spread.parts, "resumed": spread.resumed,
                           "cancelled": spread.cancelled, "preempted": spread.preempted, "depth": spread.depth}
    return OptResult(lo if lo == hi else None, lo, hi, tree, stats, S, Game.of(), proof)


def _search_root_with_workers(S: Solver, jobs: int, queries: list, t0: float, budget: float | None,
                              progress) -> tuple[int, int]:
    """The search at the root with ``jobs > 1`` and ``Tuning(spread_local=False)``, under
    ``S.limits(deadline=budget)``: half a second in this process first (worker processes cost about a second to
    start), then joblib's workers (:mod:`solvers.opt.parallel`)."""
    from ..parallel import solve_root_parallel

    done = _trial(S, queries, t0, budget, progress, 0.5)
    return done if done is not None else solve_root_parallel(S, jobs, queries)


def warmup_nodes(deadline: float | None, progress) -> int:
    """The root's warm-up (:meth:`Solver.solve_root <solvers.opt.search.Solver.solve_root>`): 2,048 nodes of queries
    going up for a run the caller may stop (a deadline) or watches (a progress hook), else one query."""
    return 2048 if deadline is not None or progress is not None else 0


def _trial(S: Solver, queries: list, t0: float, budget: float | None, progress, seconds: float):
    """The search in this process for ``seconds`` from ``t0`` before workers take over: its (lower, upper) if that
    settles it, else None; the caller's own ``budget`` ending first raises SearchStop."""
    if seconds <= 0:
        return None
    trial = t0 + seconds if budget is None else min(budget, t0 + seconds)
    try:
        with S.limits(deadline=trial, progress=progress):
            return S.solve_root(queries, warmup_nodes=warmup_nodes(budget, progress))
    except SearchStop:
        if trial == budget:
            raise
    return None


def _search_root_spread(S: Solver, jobs: int, cluster, queries: list, t0: float, budget: float | None, progress,
                        parts, spreads: list, tuning: Tuning, memo_bytes=None) -> tuple[int, int]:
    """The search at the root spread over workers (:mod:`solvers.opt.distributed`), under
    ``S.limits(deadline=budget)``: :attr:`Tuning.spread_trial <solvers.opt.control.Tuning.spread_trial>` seconds in
    this process first (what it settles needs no worker), then the root queries by
    :class:`~solvers.opt.distributed.Spread` over ``jobs`` local processes or the workers of the Dask client
    ``cluster``; the driver is appended to ``spreads`` (its parts make the certificates)."""
    parts = parts or {}
    done = _trial(S, queries, t0, budget, progress, parts.get("trial", tuning.spread_trial))
    if done is not None:
        return done
    # On a cluster each worker takes half of its own memory limit (solvers.opt.distributed), unless the memory was
    # given; here the machine's budget is shared by the processes.
    share = None if cluster is not None and memo_bytes is None else max(1, S.memo_bytes // max(1, jobs))
    opts = {"memo_bytes": share, "symmetry": S.symmetric_search,
            "isomorphism": S.isomorphism, "kernel": S.kernel_mode}
    pool = (distributed.DaskPool(cluster, S.C, opts) if cluster is not None
            else distributed.LocalPool(S.C, opts, jobs))
    try:
        spread = distributed.Spread(S, pool, on_part=parts.get("on_part"), known=parts.get("known", ()),
                                    progress=progress, depth=parts.get("depth"))
        spreads.append(spread)
        try:
            lo, hi = S.descend(queries, lambda d: spread.decide(d, budget))
        finally:
            spread.close()
        if spread.upper is not None and parts.get("proof", True):
            spread.certify(spread.upper, budget)  # while the workers' memos hold the refutations
        return lo, hi
    finally:
        pool.close()


def capped(r: OptResult, G: Game) -> OptResult:
    """Opt(C) with a horizon T: min(T, Opt(C)), the tree cut at depth min(T, lower) (a deterministic
    adversary that makes the learner err every round forces min(T, Opt) mistakes in T rounds)."""
    T = G.horizon
    lo, hi = min(T, r.lower), min(T, r.upper)
    tree = None
    if r.tree is not None and r.tree.levels is not None:  # a complete tree by levels: its first lo levels
        tree = MistakeTree(lo, None, r.tree.C, G, levels=r.tree.levels[:lo])
    elif r.tree is not None:
        tree = MistakeTree(lo, cut_tree(r.tree.root, lo), r.tree.C, G)
    stats = Stats({**r.stats, "game": G.to_json(), "symbol": G.symbol})
    return OptResult(lo if lo == hi else None, lo, hi, tree, stats, r.solver, G)
