"""The ``disjunctions`` engine: Opt(C) of ``monotone-disjunctions n k`` (listed or implicit) by the search over
(variables, positive examples) up to renaming the variables (:class:`~solvers.opt.disjunctions.DisjunctionSolver`)."""

from __future__ import annotations

from ..control import Control, Tuning
from ..result import OptResult
from ._common import game_of, run
from .states import states

NAME = "disjunctions"

__all__ = ["NAME", "takes", "solve"]


def takes(C, game=None) -> str | None:
    """None for the class of ``monotone-disjunctions n k`` made by its family and Opt(C)."""
    from .. import disjunctions

    if not game_of(game).standard:
        return "the disjunctions' search computes Opt(C) only"
    if not disjunctions.handles(C):
        return (f"the disjunctions' search takes the class of {disjunctions.FAMILY} n k made by its family "
                f"(n <= {disjunctions.MAX_N})")
    return None


def solve(C, game=None, control: Control = Control(), tuning: Tuning | None = None, *, solver=None) -> OptResult:
    """Opt(C) by the disjunctions' search (``solver``: a warm one for ``C``)."""
    why = takes(C, game)
    if why is not None:
        raise ValueError(f"engine 'disjunctions' does not take this: {why}")
    return run(control, lambda: states(C, control, solver=solver))
