"""The ``packed`` engine: Opt(C) of a class over at most 64 points by the search over the concepts' 64-bit truth
tables: the most balanced splits first (:mod:`solvers.opt.packed`), then the exact search with one memo entry per
orbit of the cube's symmetries (:func:`solvers.opt.packed_exact.solve`)."""

from __future__ import annotations

from ...game_rules import Game
from ..control import Control, Tuning
from ..result import OptResult, Stats
from ._common import game_of, listed, run

NAME = "packed"

__all__ = ["NAME", "takes", "solve"]


def takes(C, game=None) -> str | None:
    """None for a listed class over at most 64 points, or a class of truth tables (halfspaces on {0,1}^6), and
    Opt(C)."""
    if not game_of(game).standard:
        return "the packed engine computes Opt(C) only"
    if not 1 <= getattr(C, "n_points", 65) <= 64:
        return "the packed engine takes classes over 1 to 64 points"
    if not (listed(C) or getattr(C, "tables", None) is not None):
        return "the packed engine reads the class's matrix or truth tables; this class has neither"
    return None


def solve(C, game=None, control: Control = Control(), tuning: Tuning | None = None) -> OptResult:
    """Opt(C) by the packed search."""
    why = takes(C, game)
    if why is not None:
        raise ValueError(f"engine 'packed' does not take this: {why}")
    from .. import packed_exact

    def work():
        lo, hi, tree, stats, proof = packed_exact.solve(C, time_limit=control.time_limit(), progress=control.progress,
                                                        memo_bytes=control.memo_bytes, tuning=tuning)
        return OptResult(lo if lo == hi else None, lo, hi, tree, Stats(stats), None, Game(), proof=proof)

    return run(control, work)
