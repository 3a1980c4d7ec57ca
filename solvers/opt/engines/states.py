"""The ``states`` engine: Opt(C) of thresholds, intervals and rectangles by the search over compact states
(:mod:`solvers.opt.intervals`, :mod:`solvers.opt.rectangles`, run by :func:`solvers.opt.compact.solve_states`), the
only engine for an :class:`~solvers.classes.evaluated.EvaluatedClass` of those families."""

from __future__ import annotations

from ..control import Control, Tuning
from ..result import OptResult
from ._common import evaluated, game_of, run

NAME = "states"

__all__ = ["NAME", "takes", "solve"]


def takes(C, game=None) -> str | None:
    """None for a class of thresholds, intervals or rectangles (evaluated, or made by its family) and Opt(C)."""
    from ..plan import STATES_FAMILIES

    if not game_of(game).standard:
        return "the states engine computes Opt(C) only; the other games need the class's matrix"
    if getattr(C, "tables", None) is not None:
        return "a class of truth tables is the packed engine's"
    if getattr(C, "family", None) not in STATES_FAMILIES or not (evaluated(C) or getattr(C, "made", False)):
        return f"the states engine takes the classes of {', '.join(STATES_FAMILIES)} made by their family"
    return None


def solve(C, game=None, control: Control = Control(), tuning: Tuning | None = None, *, solver=None) -> OptResult:
    """Opt(C) by the search over compact states (``solver``: a warm one for ``C``)."""
    why = takes(C, game)
    if why is not None:
        raise ValueError(f"engine 'states' does not take this: {why}")
    return run(control, lambda: states(C, control, solver=solver))


def states(C, control: Control, *, solver=None) -> OptResult:
    """:func:`solvers.opt.compact.solve_states` under ``control`` as an OptResult (also the disjunctions'
    engine: the states search of a disjunctions class is :class:`~solvers.opt.disjunctions.DisjunctionSolver`)."""
    from ..compact import solve_states

    return solve_states(C, time_limit=control.time_limit(), memo_bytes=control.memo_bytes,
                        progress=control.progress, solver=solver)
