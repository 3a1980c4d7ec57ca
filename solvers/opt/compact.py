"""The searches over compact states as engines of :func:`solvers.opt.opt`: the ``states`` engine (thresholds,
intervals, rectangles) and the monotone disjunctions' search, picked for a class and run at the root under
the limits, with their mistake tree.

Imports go one way: the engines ``states`` and ``disjunctions`` use this module, which uses ``intervals``, ``rectangles`` and
``disjunctions``, which build on ``states``.
"""

from __future__ import annotations

from typing import Callable

from . import disjunctions
from .states import STATE_FAMILIES, StateSearch

__all__ = ["state_solver", "solve_states"]


def state_solver(C, *, memo_bytes: int | None = None) -> StateSearch:
    """The search over compact states for class ``C``: an EvaluatedClass, a ConceptClass ``make`` built for
    one of :data:`STATE_FAMILIES` (its family and parameters name the same class), or the class of
    ``monotone-disjunctions n k`` (listed or implicit, :func:`solvers.opt.disjunctions.handles`)."""
    from ..classes.evaluated import EvaluatedClass
    from .search import default_memo_bytes

    if disjunctions.handles(C):
        return disjunctions.DisjunctionSolver(C.params["n"], C.params["k"], memo_bytes=memo_bytes)
    if not isinstance(C, EvaluatedClass):
        if getattr(C, "family", None) not in STATE_FAMILIES or not getattr(C, "made", False):
            raise ValueError(f"the state engine needs a class of {', '.join(STATE_FAMILIES)} made by its family; "
                             "use engine 'auto' or 'search' for other classes")
        C = EvaluatedClass(C.family, C.params)
    memo = default_memo_bytes() if memo_bytes is None else memo_bytes
    if C.family == "rectangles":
        from .rectangles import RectangleSolver

        return RectangleSolver(C, memo_bytes=memo)
    from .intervals import IntervalSolver, ThresholdSolver

    return (ThresholdSolver if C.family == "thresholds" else IntervalSolver)(C, memo_bytes=memo)


def solve_states(C, *, time_limit: float | None = None, memo_bytes: int | None = None,
                 progress: Callable[[dict], None] | None = None, solver: StateSearch | None = None):
    """Opt(C) by the search over compact states (:func:`state_solver`, or ``solver``): an
    :class:`~solvers.opt.result.OptResult` with ``stats["engine"]`` the search's (``"states"``, ``"disjunctions"``),
    a mistake tree of depth ``lower`` (:meth:`StateSearch.certificate_tree
    <solvers.opt.states.StateSearch.certificate_tree>`), and the solver (whose ``upper_proof`` writes the
    upper-bound certificate). A time limit or Ctrl-C returns the bounds proven so far."""
    from .memo import search_root
    from .result import OptResult, Stats

    S = solver if solver is not None else state_solver(C, memo_bytes=memo_bytes)
    lo, hi, tree, stats = search_root(S, S.engine, time_limit=time_limit, progress=progress,
                                      tree=lambda lo: S.certificate_tree(lo, C))
    if S.engine == "states":
        stats["root_splits"] = S.C.n_points
    return OptResult(lo if lo == hi else None, lo, hi, tree, Stats(stats), S)
