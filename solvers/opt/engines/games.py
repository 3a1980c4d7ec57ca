"""The ``games`` engine: the games beyond Opt(C) on a listed class, by :class:`~solvers.opt.games.GameSolver`: the
randomized learner's optimum RL(C) (an exact Fraction), k label errors (D_k(C), R_k(C)), with or without a horizon.
The lower-bound tree is built within the deadline, or :attr:`Tuning.tree_grace
<solvers.opt.control.Tuning.tree_grace>` past it when the search used it all."""

from __future__ import annotations

import time

from ...certificates import MistakeTree, RandomizedTree
from ...game_rules import Game
from ..control import Control, Tuning
from ..result import OptResult, Stats
from ..search import SearchStop
from ._common import game_of, listed, run

NAME = "games"

__all__ = ["NAME", "takes", "solve", "game_value"]


def takes(C, game=None) -> str | None:
    """None for a listed class and the randomized game or k >= 1 label errors (horizon or not)."""
    G = game_of(game)
    if not listed(C):
        return "the games' search reads the class's matrix; this class has none (a smaller size)"
    if not (G.randomized or G.errors):
        return "Opt(C) and its horizon game are the search's (a deterministic game without label errors)"
    return None


def solve(C, game=None, control: Control = Control(), tuning: Tuning | None = None) -> OptResult:
    """The value of ``game`` on ``C``, with its lower-bound tree."""
    G = game_of(game)
    why = takes(C, G)
    if why is not None:
        raise ValueError(f"engine 'games' does not take this: {why}")
    return run(control, lambda: game_value(C, G, control, tuning or Tuning.default()))


def game_value(C, G: Game, control: Control, tuning: Tuning, *, solver=None, want_tree: bool = True) -> OptResult:
    """The value of the game ``G`` (not Opt(C)'s) by :class:`~solvers.opt.games.GameSolver` (``solver``: a warm one
    for this game); its lower-bound tree (``want_tree``) within the deadline, or ``tuning.tree_grace`` past it (left
    out, with ``stats["tree_note"]``, when it cannot be built in that time or is too large)."""
    from ..games import GameSolver, TreeTooLarge

    t0 = time.monotonic()
    deadline = control.deadline
    left = control.remaining()
    if solver is not None and not (isinstance(solver, GameSolver) and solver.game == G):
        raise ValueError(f"the solver given was built for another game; give a GameSolver for {G.describe()}")
    S = solver if solver is not None else GameSolver(
        C, G, memo_bytes=control.memo_bytes, opt_seconds=0.5 if left is None else min(0.5, left / 4),
        symmetry=tuning.symmetry, tuning=tuning)
    nodes0 = S.nodes
    queries: list = []
    done, stopped = S.run(lambda: S.solve_root(queries), deadline=deadline, progress=control.progress)
    lo, hi = done if done is not None else S.root_bounds
    tree = tree_note = None
    wanted = want_tree and (lo == hi and stopped is None if G.randomized else lo >= 0)
    until = None if deadline is None else max(deadline, time.monotonic() + tuning.tree_grace)
    try:
        if wanted:
            with S.limits(deadline=until):
                tree = (RandomizedTree(lo, S.lower_tree(), C, G) if G.randomized
                        else MistakeTree(lo, S.lower_tree(lo), C, G))
    except SearchStop:
        tree_note = f"the {'shattered' if G.randomized else 'mistake'} tree could not be built in the time given"
    except TreeTooLarge as e:
        tree_note = str(e)
    except KeyboardInterrupt:  # as in opt(): the bounds without their tree
        stopped = "interrupted"
    stats = Stats({
        "engine": "search", "game": G.to_json(), "symbol": G.symbol, "nodes": S.nodes - nodes0,
        "memo": len(S.memo), "evictions": S.evictions, "memo_bytes": S.memo_bytes, "memo_used_bytes": S.memo_used_bytes,
        "seconds": round(time.monotonic() - t0, 4), "queries": queries, "stopped": stopped,
        "root_splits": len(S.root_masks), "symmetry": S.symmetry_info,
    })
    if tree_note is not None:
        stats["tree_note"] = tree_note
    return OptResult(lo if lo == hi else None, lo, hi, tree, stats, S, G)


