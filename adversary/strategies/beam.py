"""Beam search over example sequences: keep the W positions with the most mistakes, level by level.

A position is (learner state, version space V, mistakes so far), the state of [Rivest94]'s game
([Rivest94]) after a sequence of realizable examples. Level t holds positions reached by
t examples. Each is expanded by every candidate point x (every point of a small domain; otherwise the
class's informative proposals and, for 0/1 vectors, their sharpened variants, see
:meth:`~adversary.strategies._common.Arena.sharpen`) and every realizable label y (V_x^y non-empty);
the W children with the highest score

    score = mistakes + 0.01 * potential(learner, V)

go on to level t + 1 (the potential only breaks ties: log2 |V|; a little seeded noise breaks the
rest; for a conservative learner every position of a level has as many mistakes, so these decide). Two children with the same
``(learner.state_key(), V)`` are one position: the one with more mistakes is kept, and a position
already seen with at least as many mistakes is not expanded again.

The search is *anytime*: it runs with W = 1, 4, 16, 64, ... and keeps the best sequence of all runs,
until the deadline (without one: up to ``max_width``), or until a beam never had to drop a position
(it then saw every position the candidates reach, and a wider one would find nothing more). A position that repeats on its own path with
more mistakes is a cycle: the learner has no finite mistake bound, and the search stops there with
``Found.cycle``.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from adversary.strategies.base import Problem
>>> from solvers.classes.families import make
>>> C = make("monotone-disjunctions", n=3, k=1)
>>> found = BeamStrategy(max_width=16).run(Problem("halving", {}, C, {}, seed=0))
>>> found.mistakes              # floor(log2 4): Halving's worst case on 4 concepts
2
"""

from __future__ import annotations

import numpy as np

from ._common import Arena, HeuristicStrategy
from .base import time_left

__all__ = ["BeamStrategy", "STRATEGY"]


class _Node:
    """A position of the game (:class:`~adversary.position.Position`) in the beam: with its mistakes
    and the move from its parent (``pos`` is dropped once the node is expanded)."""

    __slots__ = ("pos", "mistakes", "parent", "move", "key", "depth")

    def __init__(self, pos, mistakes, parent, move, depth):
        self.pos, self.mistakes, self.parent, self.move, self.depth = pos, mistakes, parent, move, depth
        self.key = pos.key

    def sequence(self) -> list:
        out, node = [], self
        while node.parent is not None:
            out.append(node.move)
            node = node.parent
        return out[::-1]

    def ancestor_with(self, key):
        node = self.parent
        while node is not None:
            if node.key == key:
                return node
            node = node.parent
        return None


class _Deadline(Exception):
    pass


class BeamStrategy(HeuristicStrategy):
    """Beam search over sequences (see the module docstring).

    Parameters
    ----------
    max_width : int
        The widest beam tried when no deadline is given (widths 1, 4, 16, ... up to it). With a
        deadline the widths keep growing until it passes.
    max_depth : int
        The longest sequence considered.
    candidates : int
        Points proposed per position on a domain too large to try in full.
    sharpen : int
        How many mistake points per position get sharpened variants (0/1 vector domains only).
    """

    name = "beam"
    summary = "beam search over sequences: keep the W positions with most mistakes, widening W until the deadline"

    def __init__(self, *, max_width: int = 64, max_depth: int = 256, candidates: int = 48, sharpen: int = 6,
                 weight: float = 0.01, symmetry: bool = True):
        self.weight = weight
        self.symmetry = symmetry
        self.max_width = max_width
        self.max_depth = max_depth
        self.candidates = candidates
        self.sharpen = sharpen

    def _play(self, arena: Arena, learner, rng, report, deadline, start):
        best = _Node(arena.start(learner), 0, None, None, 0)
        stats = {"nodes": 0, "widths": []}
        width = 1
        while True:
            complete = False
            try:
                node, cycle, complete = self._search(arena, learner, width, rng, deadline, stats, best, report)
            except _Deadline as stop:
                node, cycle = stop.args[0], None
            if node.mistakes > best.mistakes or cycle:
                best = node
            stats["widths"].append(width)
            if cycle or complete or time_left(deadline) <= 0 or (deadline is None and width >= self.max_width):
                break
            width *= 4
        return best.sequence(), None, stats

    def _search(self, arena: Arena, learner, width: int, rng, deadline, stats, best, report):
        """One beam of the given width: (best node, whether it closes a cycle, whether no position was
        dropped)."""
        root = _Node(arena.start(learner), 0, None, None, 0)
        beam = [root]
        seen = {root.key: 0}
        top = root if root.mistakes >= best.mistakes else best
        complete = True
        for _ in range(self.max_depth):
            children: dict = {}
            for node in beam:
                for x, y, mistake, Vy in self._moves(arena, node, rng):
                    if time_left(deadline) <= 0:
                        raise _Deadline(top)
                    new = arena.child(node.pos, x, y, mistake, Vy)
                    if new is None:
                        continue
                    child = _Node(new, node.mistakes + mistake, node, (x, y), node.depth + 1)
                    stats["nodes"] += 1
                    before = seen.get(child.key)
                    if before is not None and before >= child.mistakes:
                        continue
                    if before is not None and child.ancestor_with(child.key) is not None:
                        return child, True, False  # back to a position of its own path, with more mistakes
                    seen[child.key] = child.mistakes
                    other = children.get(child.key)
                    if other is None or other.mistakes < child.mistakes:
                        children[child.key] = child
                    if child.mistakes > top.mistakes:
                        top = child
                        report(top.mistakes, width=width)
            for node in beam:
                node.pos = None  # expanded: only its move and parent are needed now (frees its learner)
            if not children:
                break
            pool = list(children.values())
            complete = complete and len(pool) <= width
            noise = rng.random(len(pool)) * 1e-3
            scores = [c.mistakes + self.weight * arena.potential(c.pos) + e for c, e in zip(pool, noise)]
            order = np.argsort(scores, kind="stable")[::-1].tolist()
            if len(pool) > width and self.symmetry:  # one position per signature (renamings of each other)
                kept, signatures = [], set()
                for i in order:
                    sig = arena.signature(pool[i].pos)
                    if sig not in signatures:
                        signatures.add(sig)
                        kept.append(i)
                        if len(kept) == width:
                            break
                order = kept
            beam = [pool[i] for i in order[:width]]
        else:
            complete = False  # stopped by max_depth
        return top, False, complete

    def _moves(self, arena: Arena, node: _Node, rng) -> list:
        pos = node.pos
        points = arena.candidates(pos.V, rng)
        moves = arena.moves(pos, points)
        if arena.all_points is None and self.sharpen:
            extra = []
            hits = [m for m in moves if m[2]]
            for i in rng.permutation(len(hits))[:self.sharpen].tolist():
                x, y, _, _ = hits[i]
                extra.extend(arena.sharpen(pos, x, y, rng))
            if extra:
                known = {m[0] for m in moves}
                moves = arena.moves(pos, [z for z in dict.fromkeys(extra) if z not in known]) + moves
        return moves


#: The module's strategy, as ``adversary.strategies.get_strategy("beam")`` returns it.
STRATEGY = BeamStrategy()
