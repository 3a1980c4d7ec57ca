"""What the heuristic strategies (``beam``, ``mcts``, ``local``) share: the arena they search in.

The game is [Rivest94]'s, modelled once by :class:`~adversary.position.Position` (learner state and
version space V: ``moves``, ``play``, ``key``). The :class:`Arena` adds what only a search needs, on
a finite :class:`~solvers.classes.finite.ConceptClass` and on an
:class:`~solvers.classes.implicit.ImplicitFamily` (whose 2^n points are never listed):

* ``start(learner)`` -- the root position;
* ``candidates(V, rng)`` -- the points worth trying: every point of a small domain, otherwise the
  class's informative proposals (points that satisfy or falsify concepts of V over sparse and dense
  backgrounds) or a sample; ``target_candidates(c, rng)`` the same for a fixed target;
* ``moves(pos, points)`` / ``child(pos, ...)`` -- the position's realizable moves, less those that gain
  nothing and leave the learner unchanged: they only shrink V, and a smaller V never gives the
  adversary more (every sequence realizable in V' is realizable in V ⊇ V');
* ``sharpen(pos, x, y)`` -- for 0/1 vector points, variants of a mistake point that stay a
  mistake with the same realizable label: a *grown* one (bits added while the learner still errs) and
  a *shrunk* one (bits removed while it still errs). Against a linear threshold learner (Winnow, seed
  [15-859B]) they are the promotion that moves the most weight and the demotion that removes the least,
  which is what the seeds' potential arguments say an adversary should play; a learner that gives its
  ``threshold_form()`` (integers v, t: it predicts [sum of v_i over the on-bits >= t]) has the sum
  updated one bit at a time, exactly;
* ``label(c, x)``, ``random_member(V, rng)`` -- a target's labels and a random one;
* ``potential(pos)`` -- the tie-break between positions with as many mistakes: log2 |V| (the
  Halving potential, [OnlineAlgs]: more concepts left, more room to err). Measured against the exact
  worst case of Winnow2 on monotone-disjunctions n <= 6 (scripts/bench_heuristics.py), Winnow's total
  weight ([15-859B]'s potential) ranked positions *worse* than log2 |V| or even chance, so it is not used.

:func:`find_cycle` replays a sequence and reports a stretch that brings the position back to where it
was with a mistake on the way (no finite mistake bound); :func:`best_found` turns the result into a
:class:`~adversary.strategies.base.Found`.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

from solvers.classes.implicit import ImplicitFamily, has_implicit_form

from ..position import Position, advance, predictions
from .base import Found, Problem, Strategy, StrategyError, check_reads, only_exact

__all__ = ["Arena", "first_mistake", "find_cycle", "best_found", "check_problem", "ThrottledProgress",
           "replay_mistakes", "HeuristicStrategy"]

#: Domains up to this size are tried point by point at every position.
ENUMERATE_UP_TO = 512


def check_problem(name: str, problem: Problem):
    """The problem's fresh learner; StrategyError (one line) unless the class is finite or implicit
    and the learner can be built for it."""
    if problem.cls.n_concepts is None:  # no list of concepts: margin halfspaces
        raise StrategyError(f"{name} searches finite and {{0,1}}^n classes, not {problem.cls}; "
                            "use --strategy geometric on margin-halfspaces")
    only_exact(name, problem)
    from adversary.referee import WitnessError

    try:
        learner = problem.new_learner()
    except WitnessError as e:
        raise StrategyError(str(e)) from None
    check_reads(learner, problem.learner_name, problem.cls)
    return learner


class HeuristicStrategy(Strategy):
    """What ``beam``, ``mcts`` and ``local`` share: the check of a problem, and :meth:`run` around their own
    search, :meth:`_play`. Subclasses set ``candidates`` (points proposed per position on a domain too large
    to try in full)."""

    candidates: int

    def check(self, problem: Problem) -> None:
        check_problem(self.name, problem)

    def run(self, problem: Problem, *, deadline: Optional[float] = None,
            progress: Optional[Callable[[dict], None]] = None) -> Found:
        start = time.monotonic()
        learner = check_problem(self.name, problem)
        arena = Arena(problem.cls, candidates=self.candidates)
        sequence, target, stats = self._play(arena, learner, np.random.default_rng(problem.seed),
                                             ThrottledProgress(progress), deadline, start)
        stats["seconds"] = round(time.monotonic() - start, 3)
        return best_found(arena, learner, sequence, target, stats)

    def _play(self, arena: "Arena", learner, rng, report: "ThrottledProgress", deadline: Optional[float], start: float):
        """The search itself, from the problem's fresh ``learner`` on ``arena`` until ``deadline``, started at
        ``start`` (``time.monotonic()``): ``(sequence of (x, y), target or None, stats)``."""
        raise NotImplementedError


class Arena:
    """The game on a class, as the heuristic strategies see it (see the module docstring).

    Parameters
    ----------
    cls : ConceptClass or ImplicitFamily
    candidates : int
        How many points ``candidates`` proposes on a domain too large to try in full.
    """

    def __init__(self, cls, *, candidates: int = 48):
        self.cls = cls
        self.count = candidates
        self.implicit = None if cls.finite else cls  # its points come from cls.proposals
        self.all_points = None
        self._index = None
        self.n_bits = None  # n when every 0/1 vector of length n is a point (sharpen applies)
        if not cls.finite:
            self.n_bits = cls.facts["n"]
        else:
            self._index = {p: j for j, p in enumerate(cls.points)}
            lengths = {len(p) for p in cls.points}
            if len(lengths) == 1:
                (n,) = lengths
                if cls.n_points == 2**n and all(v in (0, 1) for p in cls.points for v in p):
                    self.n_bits = n
            if cls.n_points <= ENUMERATE_UP_TO:
                self.all_points = list(cls.points)
            elif has_implicit_form(cls.family) and self.n_bits is not None:
                try:  # the same concepts in the same order: its proposals are points of this domain
                    self.implicit = ImplicitFamily(cls.family, cls.params)
                except ValueError:
                    self.implicit = None
        self._units = None
        self._board = None
        self._conservative_checks = 0  # non-mistake moves tried, and whether one changed the learner
        self._changed = False

    # ------------------------------------------------------------------ positions
    def start(self, learner) -> Position:
        """The position before any example (every position of this arena shares the class's index)."""
        if self._board is None:
            self._board = Position.start(learner, self.cls)._board
        return Position(learner, self._board)

    @property
    def full(self) -> int:
        return self.cls.full

    def label(self, c: int, x) -> int:
        """The label concept c gives x (the class's ``label``, by column index on a finite class)."""
        if self._index is not None:
            return int(self.cls.matrix[c, self._index[x]])
        return self.cls.label(c, x)

    def random_member(self, V: int, rng: np.random.Generator) -> int:
        """A uniformly random concept of V."""
        size = V.bit_count()
        if size == 1:
            return (V & -V).bit_length() - 1
        if not self.cls.finite:
            ms = self.cls.members(V)
            return int(ms[rng.integers(len(ms))])
        ms = self.cls.concepts_of(V)
        return ms[int(rng.integers(len(ms)))]

    # ------------------------------------------------------------------ points
    def candidates(self, V: int, rng: np.random.Generator, count: Optional[int] = None) -> list:
        """Points to try in a position with version space V (every point of a small domain)."""
        if self.all_points is not None:
            return self.all_points
        count = self.count if count is None else count
        if self.implicit is not None:
            return self.implicit.proposals(rng, V, count)
        picks = rng.choice(self.cls.n_points, size=min(count, self.cls.n_points), replace=False)
        return [self.cls.points[j] for j in picks.tolist()]

    def target_candidates(self, c: int, rng: np.random.Generator, count: Optional[int] = None) -> list:
        """Points to try when the target is fixed to concept c (points it labels 1 and 0)."""
        if self.all_points is not None:
            return self.all_points
        count = self.count if count is None else count
        if self.implicit is not None:
            half = self.implicit.proposals(rng, None, count // 2)
            dens = (0.0, "one", 0.1, 0.25, 0.5, 0.75, 0.9, "all")
            own = [self.implicit.satisfying(c, rng, dens[i % len(dens)]) if i % 2 else
                   self.implicit.falsifying(c, rng, dens[i % len(dens)]) for i in range(count - len(half))]
            return list(dict.fromkeys(own + half))
        return self.candidates(self.full, rng, count)

    # ------------------------------------------------------------------ moves
    def moves(self, pos: Position, points, *, quiet: bool = True) -> list:
        """The realizable moves ``(x, y, mistake, V_x^y)`` from ``pos`` over ``points`` (its
        :meth:`~adversary.position.Position.moves`), less the no-gain moves that leave V as it was.

        Moves that gain nothing come after the mistakes (when ``quiet``), and only while the learner has
        been seen to change on such a move: once 64 of them have left it unchanged it is taken to be
        conservative ([OnlineAlgs]) and they are skipped. Either way :meth:`child` drops a no-gain move
        that leaves the learner's state unchanged.
        """
        want_quiet = quiet and (self._changed or self._conservative_checks < 64)
        V = pos.V
        return [m for m in pos.moves(points, quiet=want_quiet) if m[2] or m[3] != V]

    def child(self, pos: Position, x, y, mistake: bool, Vy) -> Optional[Position]:
        """The position after the move (x, y) (V_x^y = ``Vy``), or None for a no-gain move that leaves
        the learner's state unchanged.

        ``mistake`` must be exact (the learner's prediction differs from y). A learner that declares
        ``conservative`` is not asked: a correct prediction changes nothing ([OnlineAlgs])."""
        learner = pos.learner
        if not mistake and getattr(learner, "conservative", False):
            self._conservative_checks += 1
            return None
        new = advance(learner, x, y)
        if not mistake:
            self._conservative_checks += 1
            if new.state_key() == learner.state_key():
                return None
            self._changed = True
        return pos.child(x, y, Vy, new)

    def sharpen(self, pos: Position, x, y: int, rng: np.random.Generator, *, target: Optional[int] = None) -> list:
        """Variants of the mistake (x, y): bits added, and bits removed, while the learner still errs
        and y stays realizable (the label of ``target`` when given). [] when points are not 0/1 vectors.

        The first variant is the one that moves a monotone linear learner most for the least: grown
        for y = 1 (the largest promotion), shrunk for y = 0 (the smallest demotion)."""
        if self.n_bits is None:
            return []
        learner = pos.learner
        form = getattr(learner, "threshold_form", None)
        lin = form() if callable(form) else None

        def realizable(z: tuple) -> bool:
            if target is not None:
                return self.label(target, z) == y
            V0, V1 = pos.split(z)
            return bool(V1 if y else V0)

        out = []
        for grow in ((True, False) if y == 1 else (False, True)):
            z = list(x)
            if lin is not None:  # hot loop: the score is updated one weight at a time, in integers
                v, theta, strict = lin
                score = sum(v[i] for i in range(self.n_bits) if z[i])
            for i in rng.permutation(self.n_bits).tolist():
                if z[i] != (0 if grow else 1):
                    continue
                z[i] = 1 - z[i]
                if lin is not None:
                    s2 = score + v[i] if grow else score - v[i]
                    wrong = int(s2 > theta if strict else s2 >= theta) != y
                else:
                    wrong = learner.predict_one(tuple(z)) != y
                if wrong and realizable(tuple(z)):
                    if lin is not None:
                        score = s2
                else:
                    z[i] = 1 - z[i]
            z = tuple(z)
            if z != tuple(x) and z not in out and learner.predict_one(z) != y:
                out.append(z)
        return out

    def signature(self, pos: Position):
        """A summary of the position that is unchanged when the variables are renamed: for a learner
        whose state is one number per variable (Winnow's weights, the Perceptron's w) on a domain of
        0/1 vectors, the sorted pairs (state of x_i, |{c in V : c(e_i) = 1}|) and |V|; otherwise the
        exact key. Positions of a symmetric class (monotone disjunctions: any renaming of the
        variables) that differ only by a renaming share it, so the beam keeps one of them; it can
        also merge positions that are not renamings of each other, which only costs diversity."""
        key, V = pos.learner.state_key(), pos.V
        n = self.n_bits
        if n is None or not isinstance(key, tuple) or len(key) != n or not key:
            return (key, V)
        if not all(isinstance(v, (int, float, Fraction)) for v in key):
            return (key, V)
        unit = [tuple(int(j == i) for j in range(n)) for i in range(n)] if self._units is None else self._units
        self._units = unit
        counts = [(pos.split(e)[1]).bit_count() for e in unit]
        return (tuple(sorted(zip(key, counts))), V.bit_count())

    @staticmethod
    def potential(pos: Position) -> float:
        """Tie-break between positions with as many mistakes: log2 |V| (see the module docstring)."""
        V = pos.V
        return math.log2(V.bit_count()) if V else 0.0


def first_mistake(pos: Position, points, *, target: Optional[int] = None, arena: Optional[Arena] = None):
    """The first of ``points`` on which the learner of ``pos`` can be made to err: ``(x, y, V_x^y)`` with
    y the label it does not predict, realizable in V, or, with ``target`` (and the ``arena`` that labels
    it), the target's label (V_x^y is then None); None when there is no such point."""
    learner = pos.learner
    batch = predictions(learner, points, binary=True) if pos.binary and getattr(learner, "batch_predictions", False) else None
    for i, x in enumerate(points):
        p = batch[i] if batch is not None else int(learner.predict_one(x))
        if target is not None:
            y = arena.label(target, x)
            if y != p:
                return x, y, None
            continue
        V0, V1 = pos.split(x)
        Vm = V1 if p == 0 else V0
        if Vm:
            return x, 1 - p, Vm
    return None


# ---------------------------------------------------------------------------------------- results
def replay_mistakes(arena: Arena, learner, sequence) -> int:
    """The mistakes of ``learner`` on ``[(x, y), ...]``, played from its position (it is not changed)."""
    pos, m = arena.start(learner), 0
    for x, y in sequence:
        m += pos.mistake(x, y)
        pos = pos.play(x, y)
    return m


def find_cycle(arena: Arena, learner, sequence) -> Optional[tuple[int, int]]:
    """(start, length) of a stretch of ``sequence`` that brings the position (learner's state, V) back
    to where it was after ``start`` examples with a mistake on the way, or None (the first such stretch)."""
    pos = arena.start(learner)
    seen = {}
    made = 0
    for t in range(len(sequence) + 1):
        key = pos.key
        if key in seen and seen[key][1] < made:
            return seen[key][0], t - seen[key][0]
        seen.setdefault(key, (t, made))
        if t == len(sequence):
            break
        x, y = sequence[t]
        made += pos.mistake(x, y)
        pos = pos.play(x, y)
    return None


def best_found(arena: Arena, learner, sequence, target: Optional[int], stats: dict) -> Found:
    """A Found for ``sequence`` (mistakes recounted, target defaulting to the lowest consistent
    concept, a cycle reported and the sequence cut right after it)."""
    sequence = list(sequence)
    if target is None:
        target = arena.cls.consistent(sequence)
        target = (target & -target).bit_length() - 1
    cycle = find_cycle(arena, learner, sequence)
    if cycle is not None:
        sequence = sequence[:cycle[0] + cycle[1]]
    return Found(sequence=sequence, mistakes=replay_mistakes(arena, learner, sequence), target=int(target),
                 exact=False, cycle=cycle, stats=stats)


class ThrottledProgress:
    """Calls ``progress({"mistakes": best, ...})`` at most about once a second."""

    def __init__(self, callback: Optional[Callable[[dict], None]]):
        self.callback = callback
        self.last = time.monotonic()

    def __call__(self, best: int, **more) -> None:
        if self.callback is None:
            return
        now = time.monotonic()
        if now - self.last >= 1.0:
            self.last = now
            self.callback({"mistakes": best, **more})
