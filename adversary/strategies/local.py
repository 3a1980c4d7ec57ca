"""Local (evolutionary) search over a target concept and a sequence of points.

[Rivest94] writes the adversary's value as a maximum over targets c and
example sequences; this strategy searches that space directly. A candidate is a pair (c, x_1 .. x_T):
the labels are c(x_t), so every candidate is realizable by construction (its target is c), and its
fitness is the learner's number of mistakes when the sequence is replayed from a fresh learner.

Moves (a position i is drawn at random; the learner state before each example is kept, so only the
part after i is replayed):

* **regrow**: cut the sequence at i and extend it greedily: show a random point on which the learner
  errs (it predicts the opposite of c(x)), sharpened on 0/1 vector domains (see :mod:`._common`),
  until no candidate point makes it err;
* **replace** x_i by such a point, **insert** one before x_i, **delete** x_i, **swap** x_i and
  x_{i+1}; then extend greedily at the end;
* **retarget**: move to another target c' that agrees with c on x_1 .. x_i (a random member of the
  version space of that prefix), relabel the rest, extend.

Examples that neither err nor change the learner's state are dropped on the way (they have no
effect on anything that follows). A move is accepted when it loses no mistakes, or with probability
exp(-loss / T) (simulated annealing, T falling from 1 to 0.05); after ``patience`` moves without a
new best the search restarts, alternately from the best candidate and from a fresh greedy one. It is
anytime (until the deadline, or ``evaluations`` moves without one) and deterministic for a seed and
a move count.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from adversary.strategies.base import Problem
>>> from solvers.classes.families import make
>>> found = LocalStrategy(evaluations=300).run(Problem("winnow1", {}, make("monotone-disjunctions", n=4, k=2), {}))
>>> found.mistakes, found.target is not None
(5, True)
"""

from __future__ import annotations

import math
import time

from ..position import advance
from ._common import Arena, HeuristicStrategy, find_cycle, first_mistake
from .base import time_left

__all__ = ["LocalStrategy", "STRATEGY"]

_MOVES = ("regrow", "regrow", "replace", "insert", "delete", "swap", "retarget")


class _Candidate:
    """A target, its sequence of points, and the position before each example (``states[t]``: the
    learner and the version space of the first t examples, labelled by the target)."""

    __slots__ = ("target", "points", "states", "hits")

    def __init__(self, target: int, points: list, states: list, hits: list):
        self.target, self.points, self.states, self.hits = target, points, states, hits

    @property
    def mistakes(self) -> int:
        return sum(self.hits)


class LocalStrategy(HeuristicStrategy):
    """Simulated annealing over (target, sequence) (see the module docstring).

    Parameters
    ----------
    evaluations : int
        Moves when no deadline is given.
    max_length : int
        The longest sequence.
    candidates : int
        Points proposed per greedy step on a domain too large to try in full.
    patience : int
        Moves without a new best before a restart.
    """

    name = "local"
    summary = "local search (simulated annealing) over target and sequence; labels come from the target"

    def __init__(self, *, evaluations: int = 2000, max_length: int = 256, candidates: int = 24, patience: int = 300):
        self.evaluations = evaluations
        self.max_length = max_length
        self.candidates = candidates
        self.patience = patience

    def _play(self, arena: Arena, root, rng, report, deadline, start):
        stats = {"moves": 0, "accepted": 0, "restarts": 0}
        current = self._fresh(arena, root, rng, deadline)
        best = current
        since_best = 0
        budget = None if deadline is not None else self.evaluations
        total = (deadline - start) if deadline is not None else float(self.evaluations)
        while time_left(deadline) > 0 and (budget is None or stats["moves"] < budget):
            stats["moves"] += 1
            done = (time.monotonic() - start) if deadline is not None else stats["moves"]
            T = max(0.05, 1.0 - done / max(total, 1e-9))
            cand = self._mutate(arena, root, current, rng, deadline)
            loss = current.mistakes - cand.mistakes
            if loss <= 0 or rng.random() < math.exp(-loss / T):
                current = cand
                stats["accepted"] += 1
            if cand.mistakes > best.mistakes:
                best, since_best = cand, 0
                report(best.mistakes, moves=stats["moves"])
                if find_cycle(arena, root, [(x, arena.label(c.target, x)) for c in (best,) for x in c.points]):
                    break  # no finite mistake bound: nothing more to find
            else:
                since_best += 1
            if since_best >= self.patience:
                stats["restarts"] += 1
                since_best = 0
                current = best if stats["restarts"] % 2 else self._fresh(arena, root, rng, deadline)
        return [(x, arena.label(best.target, x)) for x in best.points], best.target, stats

    # ------------------------------------------------------------------ candidates
    def _fresh(self, arena: Arena, root, rng, deadline) -> _Candidate:
        """A random target and a greedy sequence for it."""
        c = arena.random_member(arena.full, rng)
        return self._extend(arena, _Candidate(c, [], [arena.start(root)], []), rng, deadline)

    def _replay(self, arena: Arena, base: _Candidate, target: int, points: list, keep: int) -> _Candidate:
        """The candidate (target, points), reusing base's states for the first ``keep`` examples."""
        states = base.states[:keep + 1]
        hits = base.hits[:keep]
        kept = list(points[:keep])
        pos = states[-1]
        for x in points[keep:]:
            y = arena.label(target, x)
            hit = pos.learner.predict_one(x) != y
            new = advance(pos.learner, x, y)
            if not hit and new.state_key() == pos.learner.state_key():
                continue  # no mistake, no change: the example does nothing
            kept.append(x)
            hits.append(hit)
            pos = pos.child(x, y, None, new)  # (the target's label: realizable; V computed if read)
            states.append(pos)
        return _Candidate(target, kept, states, hits)

    def _extend(self, arena: Arena, cand: _Candidate, rng, deadline) -> _Candidate:
        """Append mistake points greedily (in place) until none is found."""
        c = cand.target
        pos = cand.states[-1]
        while len(cand.points) < self.max_length and time_left(deadline) > 0:
            x = self._mistake_point(arena, pos, c, rng)
            if x is None:
                break
            pos = pos.child(x, arena.label(c, x))
            cand.points.append(x)
            cand.hits.append(True)
            cand.states.append(pos)
        return cand

    def _mistake_point(self, arena: Arena, pos, c: int, rng):
        """A random point on which the learner of ``pos`` errs against target c (sharpened half of the
        time), or None."""
        points = arena.target_candidates(c, rng)
        found = first_mistake(pos, [points[i] for i in rng.permutation(len(points)).tolist()], target=c, arena=arena)
        if found is None:
            return None
        x, y, _ = found
        if arena.n_bits is not None and rng.random() < 0.5:
            variants = arena.sharpen(pos, x, y, rng, target=c)
            if variants:
                return variants[0 if rng.random() < 0.75 else int(rng.integers(len(variants)))]
        return x

    def _mutate(self, arena: Arena, root, cur: _Candidate, rng, deadline) -> _Candidate:
        T = len(cur.points)
        move = _MOVES[int(rng.integers(len(_MOVES)))]
        i = int(rng.integers(T + 1))
        pts, c = list(cur.points), cur.target
        if move == "regrow" or T == 0:
            new = self._replay(arena, cur, c, pts[:i], i)
        elif move in ("replace", "insert"):
            i = min(i, T - 1) if move == "replace" else i
            x = self._mistake_point(arena, cur.states[i], c, rng)
            if x is None:
                return cur
            pts[i:i + (move == "replace")] = [x]
            new = self._replay(arena, cur, c, pts, i)
        elif move == "delete":
            i = min(i, T - 1)
            del pts[i]
            new = self._replay(arena, cur, c, pts, i)
        elif move == "swap":
            i = min(i, T - 2)
            if i < 0:
                return cur
            pts[i], pts[i + 1] = pts[i + 1], pts[i]
            new = self._replay(arena, cur, c, pts, i)
        else:  # retarget: a concept that agrees with c on the first i examples
            c2 = arena.random_member(cur.states[i].V, rng)
            new = self._replay(arena, cur, c2, pts, i)
        return self._extend(arena, new, rng, deadline)


#: The module's strategy, as ``adversary.strategies.get_strategy("local")`` returns it.
STRATEGY = LocalStrategy()
