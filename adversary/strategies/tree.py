"""The tree adversary: play the mistake tree of ``solvers.opt`` and force Opt(C) mistakes on any learner.

A mistake tree of depth d for C ([Rivest94]) is a complete binary tree whose
internal nodes are points and whose every root-to-leaf path is realised by a concept of C. Played as
an adversary it beats every learner d times: at a node with point x the learner predicts p, the
adversary answers 1 - p and moves to that child, which exists and is realisable by construction. So
the learner errs at every level, and the concept realising the leaf's path is a target consistent
with the whole sequence. With the tree of depth Opt(C) this is the lower half of Opt(C) = the value
of the game; ``solvers.opt`` builds it (docs/formats.md, "Tree files").

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
from fractions import Fraction
from typing import Callable, Optional

from ..position import Position
from ..referee import WitnessError
from ._common import first_mistake
from .base import Found, Problem, Strategy, StrategyError, only_exact, time_left

__all__ = ["TreeStrategy", "STRATEGY", "play"]


def _root_and_depth(tree) -> tuple:
    """(root node, depth) of a MistakeTree or of its JSON form."""
    if isinstance(tree, dict):
        if tree.get("root") is None and tree.get("levels") is not None:  # a complete tree by its levels
            from solvers.certificates import MistakeTree

            tree = MistakeTree.from_json(tree)
        else:
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
        if not problem.finite and (problem.cls.n_concepts is None or problem.opt_tree is None):
            from .exact import _not_enumerated

            raise StrategyError(_not_enumerated("tree", problem.cls))
        only_exact("tree", problem)

    def run(self, problem: Problem, *, deadline: Optional[float] = None,
            progress: Optional[Callable[[dict], None]] = None) -> Found:
        self.check(problem)
        t0 = time.monotonic()
        tree = problem.opt_tree
        if tree is None:
            from solvers.opt import opt

            left = time_left(deadline)
            result = opt(problem.cls, time_limit=None if left == float("inf") else max(left, 0.01))
            tree = result.tree
            if tree is None:  # an empty class: nothing to play
                return Found([], 0, None, stats={"tree_depth": -1, "seconds": time.monotonic() - t0})
        found = play(problem, tree, deadline=deadline, extend=self.extend)
        if progress is not None:
            progress({"mistakes": found.mistakes, "done": True})
        found.stats["seconds"] = round(time.monotonic() - t0, 4)
        return found


def _points(C) -> list:
    """The points the greedy part tries: a listed class's points; on {0,1}^n too large to list, the unit
    vectors, then 0 and 1 (every monotone disjunction of at least one variable is split by some unit vector)."""
    if C.finite:
        return C.points
    n = C.facts["n"]
    units = [tuple(int(i == j) for j in range(n)) for i in range(n)]
    return units + [(0,) * n, (1,) * n]


def play(problem: Problem, tree=None, *, deadline: Optional[float] = None, extend: bool = True,
         extend_deadline: Optional[float] = None) -> Found:
    """The sure mistakes: play ``tree`` (a mistake tree of the class, or None) against the learner, answering
    every prediction with the other label, then (``extend``) show the first point whose contrary label is still
    realizable while there is one. Every example played is a mistake, so the result is at least the tree's
    depth and, with ``extend``, at least 1 on any class of two or more concepts, against any deterministic
    learner. A randomized learner is given, on each point, the label it is likelier to miss (``probability``):
    at least 1/2 expected mistakes per example, their exact sum the result's ``mistakes`` (a Fraction).

    It stops at ``deadline`` (the greedy extension at ``extend_deadline`` when given, if sooner; its own check,
    and the learner's: a learner that runs a search of its own is given the deadline and raises
    :class:`solvers.opt.SearchStop`) with the mistakes played so far (``stats["stopped"] = "time limit"``), or at a
    Ctrl-C (``"interrupted"``; :func:`time_left` raises one that a library swallowed); the sequence is then still a
    verified lower bound. The first move is always tried: only the learner's own search (SOA's first prediction
    is one) can stop it, at ``deadline``.
    """
    from solvers.opt import SearchStop

    C = problem.cls
    learner = problem.new_learner()
    pos = Position.start(learner, C)
    node, depth = (None, 0) if tree is None else _root_and_depth(tree)
    seq, stopped, gained = [], None, []
    randomized = bool(getattr(learner, "randomized", False))

    def limit(until) -> None:  # the learner's own search stops at ``until`` too
        if until is not None:
            own = pos.learner.deadline
            pos.learner.set_deadline(until if own is None else min(until, own))

    def label(x) -> int:  # the label the learner is likelier to miss (a deterministic one: the one it does not predict)
        if not randomized:
            gained.append(1)
            return 1 - pos.prediction(x)
        p = Fraction(pos.learner.probability(x))  # P(predict 1): label 0 costs it p, label 1 costs 1 - p
        y = 0 if p >= 1 - p else 1
        gained.append(p if y == 0 else 1 - p)
        return y

    limit(deadline)
    try:
        while node is not None:
            if seq and time_left(deadline) <= 0:  # (the first sure mistake is always tried)
                raise SearchStop()
            x = node["point"]
            x = C.points[x] if isinstance(x, int) else tuple(x)
            y = label(x)
            try:
                pos = pos.play(x, y)
            except WitnessError:
                raise StrategyError("strategy tree: the mistake tree has a path no concept realises "
                                    "(a bad certificate); re-run opt to rebuild it") from None
            seq.append((x, y))
            node = node[str(y)]
        if extend_deadline is not None:
            deadline = extend_deadline if deadline is None else min(deadline, extend_deadline)
        limit(deadline)
        points = _points(C) if extend else []
        for _ in range(len(points) if C.finite else C.n_concepts):
            if seq and time_left(deadline) <= 0:
                raise SearchStop()
            if randomized:
                x = next((x for x in points if all(pos.split(x))), None)  # a point both labels keep realizable
                if x is None:
                    break
                y = label(x)
                pos = pos.play(x, y)
                seq.append((x, y))
                continue
            move = first_mistake(pos, points)  # the contrary label of a point is realizable: a sure mistake
            if move is None:
                break
            x, y, Vy = move
            gained.append(1)
            pos = pos.child(x, y, Vy)
            seq.append((x, y))
    except SearchStop:
        stopped = "time limit"
    except KeyboardInterrupt:  # (a Ctrl-C: the mistakes played so far are what the attack starts from)
        stopped = "interrupted"
    except (ValueError, TypeError, ArithmeticError) as e:
        if isinstance(e, StrategyError):
            raise
        raise StrategyError(f"learner {problem.learner_name} failed while the tree was played: {e}") from None
    del gained[len(seq):]  # (a label chosen for a move the deadline then stopped)
    return Found(seq, sum(gained, Fraction(0)) if randomized else len(seq), pos.lowest(), exact=False,
                 stats={"tree_depth": depth, "greedy_rounds": max(len(seq) - depth, 0), "stopped": stopped})


#: The instance :func:`adversary.strategies.get_strategy` returns.
STRATEGY = TreeStrategy()
