"""Monte Carlo tree search (UCT) over the adversary's choices, with random playouts.

The adversary's side of [Rivest94]'s game ([Rivest94]) against a fixed learner is a
one-player game: a position is (learner state, version space V), a move is a point and a realizable
label (x, y), and the score is the number of mistakes. UCT (Kocsis and Szepesvari, "Bandit based
Monte-Carlo planning", ECML 2006) grows a search tree from the empty sequence; each iteration

1. *selects* a path from the root, at each position the move maximising
   Q(x, y) + c sqrt(ln N / N(x, y)), where N counts the visits and Q, in [0, 1], mixes the mean and
   the best number of mistakes seen after the move (divided by the best total so far: for a
   one-player game the best outcome matters as much as the average);
2. *expands* the first untried move it meets (mistake moves are tried first, in a seeded order);
3. *plays out* at random: a random point on which the learner can be made to err is shown with the
   label it did not predict (on 0/1 vector domains usually sharpened first, see
   :meth:`~adversary.strategies._common.Arena.sharpen`), again and again, until no candidate point
   allows a mistake or the depth cap is reached;
4. *backs up* the mistakes made after each move of the path.

Positions are shared between paths through their key ``(learner.state_key(), V)`` (a transposition
table). The candidate moves of a position are every point of a small domain, or the class's
informative proposals and their sharpened variants (see :mod:`._common`). A path that returns to a
position of its own with more mistakes is a cycle (no finite mistake bound) and ends the search with
``Found.cycle``.

Every ``commit_every`` iterations the search commits to the root's most promising move (the one
with the most mistakes seen after it) and goes on from there, as a player would; when the committed
sequence can go no further it starts again from the empty sequence, keeping its statistics, with
twice as many iterations per move. The best sequence seen in any playout is returned; the search is
anytime (it runs until the deadline, or ``iterations`` iterations without one) and deterministic for
a seed and an iteration count.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from adversary.strategies.base import Problem
>>> from solvers.classes.families import make
>>> found = MctsStrategy(iterations=200).run(Problem("winnow2", {}, make("monotone-disjunctions", n=3, k=1), {}))
>>> found.mistakes, found.exact
(3, False)
"""

from __future__ import annotations

import math
from typing import Optional

from ._common import Arena, HeuristicStrategy, find_cycle, first_mistake
from .base import time_left

__all__ = ["MctsStrategy", "STRATEGY"]


class _Node:
    """A node of the search tree: its moves and, per move, visits, total and best mistakes after it."""

    __slots__ = ("moves", "visits", "total", "best", "tried", "N")

    def __init__(self, moves: list):
        self.moves = moves
        k = len(moves)
        self.visits = [0] * k
        self.total = [0.0] * k
        self.best = [0] * k
        self.tried = 0  # moves[:tried] have been expanded
        self.N = 0


class _Prefix:
    """The moves committed to so far: the position they reach, and the positions on the way."""

    def __init__(self, pos):
        self.pos = pos
        self.seq: list = []
        self.made = 0
        self.on_path = {pos.key: 0}


class MctsStrategy(HeuristicStrategy):
    """UCT with random playouts (see the module docstring).

    Parameters
    ----------
    iterations : int
        Iterations when no deadline is given.
    c : float
        The exploration constant of UCT.
    max_depth : int
        The longest sequence (tree path plus playout).
    candidates : int
        Points proposed per position on a domain too large to try in full.
    playout_points : int
        Points a playout step tries (at most) before it gives up on a domain too large to try in full.
    sharpen : int
        Mistake points per position that get sharpened variants (0/1 vector domains).
    commit_every : int
        Iterations between two commitments to the root's best move (doubled at every restart).
    """

    name = "mcts"
    summary = "Monte Carlo tree search (UCT) over points and labels with random mistake playouts"

    def __init__(self, *, iterations: int = 3000, c: float = 0.7, max_depth: int = 256, candidates: int = 32,
                 playout_points: int = 24, sharpen: int = 4, commit_every: int = 500,
                 sharpen_playouts: float = 0.9):
        self.sharpen_playouts = sharpen_playouts
        self.iterations = iterations
        self.commit_every = commit_every
        self.c = c
        self.max_depth = max_depth
        self.candidates = candidates
        self.playout_points = playout_points
        self.sharpen = sharpen

    def _play(self, arena: Arena, root, rng, report, deadline, start):
        tree: dict = {}
        best_seq: list = []
        best_m = 0
        stats = {"iterations": 0, "positions": 0, "restarts": 0}
        limit = math.inf if deadline is not None else self.iterations
        base = _Prefix(arena.start(root))
        per_move, since_commit = self.commit_every, 0
        while stats["iterations"] < limit and time_left(deadline) > 0:
            stats["iterations"] += 1
            tail, path, cycle = self._iterate(arena, base, tree, rng, max(best_m, 1), deadline)
            seq = base.seq + tail
            m = sum(int(hit) for _, _, hit in seq)
            if cycle:
                best_seq = [(x, y) for x, y, _ in seq]
                break
            if m > best_m:
                best_m, best_seq = m, [(x, y) for x, y, _ in seq]
                report(best_m, iterations=stats["iterations"])
                if find_cycle(arena, root, best_seq):
                    break  # no finite mistake bound: nothing more to find
            # back up: the mistakes made from each move of the path on
            before = base.made
            for depth, (pos, a) in enumerate(path):
                after = m - before
                pos.N += 1
                pos.visits[a] += 1
                pos.total[a] += after
                if after > pos.best[a]:
                    pos.best[a] = after
                before += int(tail[depth][2])
            since_commit += 1
            if since_commit >= per_move:  # commit to the root's best move, or start over
                since_commit = 0
                moved = self._commit(arena, base, tree)
                if moved == "cycle":
                    best_seq = [(x, y) for x, y, _ in base.seq]
                    break
                if not moved:
                    base = _Prefix(arena.start(root))
                    per_move *= 2
                    stats["restarts"] += 1
        stats["positions"] = len(tree)
        return best_seq, None, stats

    def _commit(self, arena: Arena, base: "_Prefix", tree: dict):
        """Play the root's most promising move for good: True, False (nothing to play) or "cycle"."""
        pos = tree.get(base.pos.key)
        if pos is None or len(base.seq) >= self.max_depth:
            return False
        live = [a for a, move in enumerate(pos.moves) if move is not None and pos.visits[a]]
        if not live:
            return False
        a = max(live, key=lambda i: (pos.best[i], pos.visits[i]))
        x, y, hit, Vy = pos.moves[a]
        child = arena.child(base.pos, x, y, hit, Vy)
        if child is None:
            return False
        base.pos = child
        base.seq.append((x, y, hit))
        base.made += hit
        key = child.key
        if key in base.on_path and base.on_path[key] < base.made:
            return "cycle"
        base.on_path.setdefault(key, base.made)
        return True

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, arena: Arena, base: "_Prefix", tree: dict, rng, scale: int, deadline):
        """Select, expand, play out from the committed prefix: returns (the examples after it
        [(x, y, mistake)], the path [(position, move)], whether the path closed a cycle)."""
        here = base.pos
        seq: list = []
        path: list = []
        made = base.made
        on_path = dict(base.on_path)
        expanded = False
        while len(base.seq) + len(seq) < self.max_depth and not expanded:
            key = here.key
            pos = tree.get(key)
            if pos is None:
                pos = tree[key] = _Node(self._moves(arena, here, rng))
            a = self._choose(pos, scale)
            while a is not None:
                x, y, hit, Vy = pos.moves[a]
                child = arena.child(here, x, y, hit, Vy)
                if child is not None:
                    break
                pos.moves[a] = None  # a move that changes nothing: never again
                a = self._choose(pos, scale)
            if a is None:
                return seq, path, False  # no move left: the sequence ends here
            expanded = a == pos.tried - 1 and pos.visits[a] == 0
            path.append((pos, a))
            seq.append((x, y, hit))
            made += hit
            here = child
            key = here.key
            if key in on_path and on_path[key] < made:
                return seq, path, True
            on_path.setdefault(key, made)
        if time_left(deadline) > 0:
            seq.extend(self._playout(arena, here, rng, self.max_depth - len(base.seq) - len(seq)))
        return seq, path, False

    def _choose(self, pos: _Node, scale: int) -> Optional[int]:
        """The next untried move, else the live move with the best UCT value, else None."""
        while pos.tried < len(pos.moves):
            pos.tried += 1
            if pos.moves[pos.tried - 1] is not None:
                return pos.tried - 1
        best, arg = -math.inf, None
        log_n = math.log(max(pos.N, 1))
        for a, move in enumerate(pos.moves):
            if move is None or pos.visits[a] == 0:
                continue
            n = pos.visits[a]
            q = 0.5 * (pos.total[a] / n + pos.best[a]) / scale
            value = q + self.c * math.sqrt(log_n / n)
            if value > best:
                best, arg = value, a
        return arg

    def _moves(self, arena: Arena, here, rng) -> list:
        points = arena.candidates(here.V, rng)
        moves = arena.moves(here, points)
        if arena.all_points is None and self.sharpen:
            hits = [m for m in moves if m[2]]
            extra = []
            for i in rng.permutation(len(hits))[:self.sharpen].tolist():
                extra.extend(arena.sharpen(here, hits[i][0], hits[i][1], rng))
            known = {m[0] for m in moves}
            moves = arena.moves(here, [z for z in dict.fromkeys(extra) if z not in known]) + moves
        hits = [m for m in moves if m[2]]
        quiet = [m for m in moves if not m[2]]
        return [hits[i] for i in rng.permutation(len(hits)).tolist()] + [quiet[i] for i in rng.permutation(len(quiet)).tolist()]

    def _playout(self, arena: Arena, here, rng, depth: int) -> list:
        """Random mistakes until no candidate point allows one (or ``depth`` examples)."""
        out = []
        for _ in range(depth):
            if arena.all_points is not None:
                order = rng.permutation(len(arena.all_points)).tolist()
                points = [arena.all_points[i] for i in order]
            else:
                points = arena.candidates(here.V, rng, self.playout_points)
            move = first_mistake(here, points)
            if move is None:
                break
            x, y, Vy = move
            if arena.n_bits is not None and rng.random() < self.sharpen_playouts:
                variants = arena.sharpen(here, x, y, rng)
                if variants:
                    x = variants[0 if rng.random() < 0.75 else int(rng.integers(len(variants)))]
                    Vy = here.split(x)[y]
            here = here.child(x, y, Vy)
            out.append((x, y, True))
        return out


#: The module's strategy, as ``adversary.strategies.get_strategy("mcts")`` returns it.
STRATEGY = MctsStrategy()
