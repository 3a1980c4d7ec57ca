"""The ``table`` engine: Opt(C) of a class whose points fall into at most 17 classes of equal-or-complementary
columns, bottom-up over all 3^N subcubes (:class:`~solvers.opt.subcube.SubcubeTable`, built by the search's solver,
whose memo and certificates it shares)."""

from __future__ import annotations

from ..control import Control, Tuning
from ..plan import MAX_TABLE_POINTS, distinct_points
from ..result import OptResult
from ._common import game_of, listed, run
from .search import capped, search

NAME = "table"

__all__ = ["NAME", "takes", "solve"]


def takes(C, game=None) -> str | None:
    """None for a listed class of at most 17 distinct points and Opt(C) or its horizon game; else why not."""
    G = game_of(game)
    if not listed(C):
        return "the table reads the class's matrix; this class has none (engine 'states')"
    if G.randomized or G.errors:
        return "the table computes Opt(C) only; the randomized and k-error games are the games engine's"
    if distinct_points(C) > MAX_TABLE_POINTS:
        return f"the table handles at most {MAX_TABLE_POINTS} distinct points; this class has more"
    return None


def solve(C, game=None, control: Control = Control(), tuning: Tuning | None = None) -> OptResult:
    """Opt(C) (or min(T, Opt(C))) by the table."""
    G = game_of(game)
    why = takes(C, G)
    if why is not None:
        raise ValueError(f"engine 'table' does not take this: {why}")
    r = run(control, lambda: search(C, control, tuning or Tuning.default(), table_only=True))
    return r if G.standard else capped(r, G)
