"""The tree adversary: play the mistake tree of ``solvers.opt`` and force Opt(C) mistakes on any learner.

A mistake tree of depth d for C ([Rivest94]) is a complete binary tree whose
internal nodes are points and whose every root-to-leaf path is realised by a concept of C. Played as
an adversary it beats every learner d times: at a node with point x the learner predicts p, the
adversary answers 1 - p and moves to that child, which exists and is realisable by construction. So
the learner errs at every level, and the concept realising the leaf's path is a target consistent
with the whole sequence. With the tree of depth Opt(C) this is the lower half of Opt(C) = the value
of the game; ``solvers.opt`` builds it (DESIGN.md, "Certificates").

After the leaf the adversary keeps going greedily while it can: it shows the first point whose
contrary label is still realizable (a sure mistake) for at most |X| more rounds, so a learner that
is worse than optimal may lose a few more.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("thresholds", N=7)
>>> found = STRATEGY.run(Problem("con", {}, C, {"family": "thresholds", "params": {"N": 7}}))
>>> found.mistakes >= 3, found.stats["tree_depth"]
(True, 3)
"""

from __future__ import annotations

import time
from typing import Callable, Optional

from ..position import Position
from ..referee import WitnessError
from ._common import first_mistake
from .base import Found, Problem, Strategy, StrategyError, only_exact, time_left

__all__ = ["TreeStrategy", "STRATEGY"]


def _root_and_depth(tree) -> tuple:
    """(root node, depth) of a MistakeTree or of its JSON form."""
    if isinstance(tree, dict):
        return tree.get("root"), int(tree.get("depth", 0))
    return tree.root, int(tree.depth)


class TreeStrategy(Strategy):
    """Play the mistake tree of Opt(C) (``Problem.opt_tree``, computed when absent), then greedily.

    Parameters
    ----------
    extend : bool, default True
        After the tree, keep forcing sure mistakes for at most |X| more rounds.
    """

    name = "tree"
    summary = "plays the mistake tree of Opt(C): at least Opt(C) mistakes on any learner"

    def __init__(self, *, extend: bool = True):
        self.extend = extend

    def check(self, problem: Problem) -> None:
        if not problem.finite:
            from .exact import _not_enumerated

            raise StrategyError(_not_enumerated("tree", problem.cls))
        only_exact("tree", problem)

    def run(self, problem: Problem, *, deadline: Optional[float] = None,
            progress: Optional[Callable[[dict], None]] = None) -> Found:
        self.check(problem)
        t0 = time.monotonic()
        C = problem.cls
        tree = problem.opt_tree
        if tree is None:
            from solvers.opt import opt

            left = time_left(deadline)
            result = opt(C, time_limit=None if left == float("inf") else max(left, 0.01))
            tree = result.tree
            if tree is None:  # an empty class: nothing to play
                return Found([], 0, None, stats={"tree_depth": -1, "seconds": time.monotonic() - t0})
        node, depth = _root_and_depth(tree)
        pos = Position.start(problem.new_learner(), C)
        seq, mistakes = [], 0
        try:
            while node is not None:
                x = C.points[node["point"]]
                y = 1 - pos.prediction(x)
                mistakes += 1
                seq.append((x, y))
                try:
                    pos = pos.play(x, y)
                except WitnessError:
                    raise StrategyError("strategy tree: the mistake tree has a path no concept realises "
                                        "(a bad certificate); re-run opt to rebuild it") from None
                node = node[str(y)]
            extra = 0
            while self.extend and extra < C.n_points and time_left(deadline) > 0:
                move = first_mistake(pos, C.points)  # the contrary label of a point is realizable: a sure mistake
                if move is None:
                    break
                x, y, Vy = move
                pos = pos.child(x, y, Vy)
                seq.append((x, y))
                mistakes += 1
                extra += 1
        except (ValueError, TypeError, ArithmeticError) as e:
            if isinstance(e, StrategyError):
                raise
            raise StrategyError(f"learner {problem.learner_name} failed while the tree was played: {e}") from None
        target = pos.lowest()
        if progress is not None:
            progress({"mistakes": mistakes, "done": True})
        return Found(seq, mistakes, target, exact=False,
                     stats={"tree_depth": depth, "greedy_rounds": len(seq) - depth,
                            "seconds": round(time.monotonic() - t0, 4)})


#: The instance :func:`adversary.strategies.get_strategy` returns.
STRATEGY = TreeStrategy()
