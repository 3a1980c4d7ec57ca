"""The ``states`` engine of :func:`solvers.opt.opt`: the search over compact states (:mod:`solvers.opt.states`)
for a class of thresholds, intervals or rectangles, run under the limits, with its mistake tree.

Imports go one way: ``driver`` uses this module, which uses ``intervals`` and ``rectangles``, which build on
``states``.
"""

from __future__ import annotations

from typing import Callable

from ..certificate import MistakeTree
from .states import STATE_FAMILIES, StateSearch

__all__ = ["state_solver", "solve_states"]


def state_solver(C, *, memo_bytes: int | None = None) -> StateSearch:
    """The state search for class ``C`` (an EvaluatedClass, or a ConceptClass ``make`` built for one of
    :data:`STATE_FAMILIES`: its family and parameters name the same class)."""
    from ..classes.evaluated import EvaluatedClass
    from .search import default_memo_bytes

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
    """Opt(C) by the state search: ``(lower, upper, tree, stats, solver)`` with ``stats["engine"]`` "states",
    a mistake tree of depth ``lower`` over ``C``'s columns, and the solver (whose ``upper_proof`` writes the
    upper-bound certificate). A time limit or Ctrl-C returns the bounds proven so far."""
    from .memo import search_root

    S = solver if solver is not None else state_solver(C, memo_bytes=memo_bytes)
    lo, hi, tree, stats = search_root(S, "states", time_limit=time_limit, progress=progress,
                                      tree=lambda lo: MistakeTree(lo, S.mistake_tree(lo), S.C))
    stats["root_splits"] = S.C.n_points
    return lo, hi, tree, stats, S

