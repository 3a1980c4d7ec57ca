"""RandSOA: the optimal randomized learner, whose expected mistakes never exceed RL(C) (R_k(C) with errors).

The randomized game ([Rivest94], section 2.3.4, where randomized halving plays it; :mod:`solvers.game_rules`):
the learner predicts 1 with a probability p of its choosing, the adversary knows p but not the coin, and
the learner pays the expected number of mistakes. Filmus, Hanneke, Mehalel and Moran ([FHMM23]) show the
optimum is RL(C) and reach it by predicting 1 with probability

    p = clip((1 + RL(V_x^1) - RL(V_x^0)) / 2, 0, 1).

Why it is optimal: with a = RL(V_x^0), b = RL(V_x^1), the expected cost from now on is p + a when the
label is 0 and 1 - p + b when it is 1; this p makes the larger of the two f(a, b) <= RL(V) (the
recurrence of :mod:`solvers.game_rules`), so by induction the expected mistakes from V are at most RL(V).
With ``errors=k`` the state is every concept's remaining budget and the values are R_k's; a point on
which every living concept agrees is predicted as they say, with probability 1 (the formula gives that).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Hashable

import numpy as np

from ..game_rules import MAX_ERRORS, Game
from ..opt.oracle import VersionSpaceOracle, oracle_for
from .base import Bound, OnlineLearner, Point, VersionSpace, as_int, check_label, cite, rng_key
from .soa import limited

if TYPE_CHECKING:
    from ..classes.protocol import ConceptClassProtocol

__all__ = ["RandSOA"]


class RandSOA(OnlineLearner):
    """The optimal randomized learner for a finite class ([FHMM23]'s RandSOA).

    Rule: predict 1 with probability clip((1 + R(s_x^1) - R(s_x^0))/2, 0, 1), R the randomized value
    (RL, or R_k with ``errors=k``) of the state after each label; keep the state. The draw: one uniform
    number u per round (after each label, from the learner's own generator); predict 1 iff u < p.
    Bound: E[mistakes] <= RL(C) (R_k(C)) on every sequence, against an adversary that knows p.

    Source: [FHMM23] (RandSOA and RL); the randomized learner's model is [Rivest94]'s (section 2.3.4).

    Parameters
    ----------
    C : ConceptClass
    errors : int, default 0
        k: the labels may disagree k times with the best concept.
    seed : int, default 0
        Seed of the generator; the state key includes the generator's state.
    solver : VersionSpaceOracle or GameSolver, optional
        Where the values come from (:class:`solvers.opt.VersionSpaceOracle`): an oracle of ``C`` for the
        randomized game with these errors, or a solver of that game whose memo to reuse. Kept as
        :attr:`oracle`.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> L = RandSOA(make("thresholds", N=3))          # four thresholds, RL = 1
    >>> L.probability((2,)), L.probability((1,))       # the middle point: an even split; the end: 3/4 vs 0
    (Fraction(1, 2), Fraction(1, 8))
    >>> L.learn_one((2,), 1)
    >>> L.probability((1,))                            # two thresholds left on each side of point 1
    Fraction(1, 2)
    >>> L.mistake_bound().value
    Fraction(1, 1)
    """

    name = "rand-soa"
    randomized = True
    needs_class = True
    bound_formula = "E[mistakes] <= RL(C) (R_k(C) with errors=k), the randomized optimum (Filmus et al. 2023)"
    bound_source = cite("Rivest94", "section 2.3.4 Randomized halving algorithm")
    summary = "the optimal randomized learner: P(1) = clip((1 + RL(V_x^1) - RL(V_x^0))/2, 0, 1)"
    _deep_copied = ("rng",)

    def __init__(self, C, errors=0, seed=0, *, solver: VersionSpaceOracle | None = None):
        from ..classes.finite import ConceptClass

        if not isinstance(C, ConceptClass):
            raise ValueError(f"{self.name} is built from a ConceptClass, not {type(C).__name__}; pass a class")
        self.C = C
        self.errors = as_int(errors, "errors", self.name, low=0, high=MAX_ERRORS)
        self.seed = as_int(seed, "seed", self.name, low=0)
        #: The randomized values of states (:class:`solvers.opt.VersionSpaceOracle`); copies share it.
        self.oracle = oracle_for(C, Game(randomized=True, errors=self.errors), solver=solver, who=self.name)
        self.levels = self.oracle.root()
        self.rng = np.random.default_rng(self.seed)
        self._draw()

    @property
    def solver(self) -> VersionSpaceOracle:
        """The oracle (:attr:`oracle`), by the name of the constructor's argument."""
        return self.oracle

    def _draw(self) -> None:
        self.u = Fraction(float(self.rng.random()))

    def probability(self, x: Point) -> Fraction:
        """P(predict 1) on x in this state: clip((1 + R(s_x^1) - R(s_x^0))/2, 0, 1), exactly."""
        O = self.oracle
        j = self.C.index_of(x)
        s0, s1 = O.child(self.levels, j, 0), O.child(self.levels, j, 1)
        if s1 is None:
            return Fraction(0)
        if s0 is None:
            return Fraction(1)
        if s1 == self.levels:  # every living concept says 1: anything but p = 1 could be repeated for ever
            return Fraction(1)
        if s0 == self.levels:
            return Fraction(0)
        with limited(self):
            p = (1 + O.value(s1) - O.value(s0)) / 2
        return min(Fraction(1), max(Fraction(0), p))

    def predict_one(self, x: Point) -> int:
        return int(self.u < self.probability(x))

    def learn_one(self, x: Point, y: int) -> None:
        y = check_label(y)
        nxt = self.oracle.child(self.levels, self.C.index_of(x), y)
        if nxt is None:
            within = f" within {self.errors} errors" if self.errors else ""
            raise ValueError(f"no concept of the class labels the examples so far and ({x}, {y}){within}; "
                             "the sequence is not realizable")
        self.levels = nxt
        self._draw()

    def state_key(self) -> Hashable:
        """(the state, this round's draw, the generator's state)."""
        return (self.levels, self.u, rng_key(self.rng))

    def distribution_key(self) -> Hashable:
        """The state the probabilities depend on: every concept's budget (the version space for k = 0)."""
        return self.levels

    #: Label errors accepted: the ``errors`` it was built with.
    max_errors = property(lambda self: self.errors)

    def remaining_bound(self, V: VersionSpace) -> Fraction:
        """R(s) of its state s: the expected mistakes from s on are at most R(s) against any adversary (the
        induction of the module docstring, from s on). ``V`` is the game's state (the version space, or the
        levels with label errors); the learner's own levels are s (they are V when the game's errors are
        the learner's)."""
        with limited(self):
            return self.oracle.value(self.levels)

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """E[mistakes] <= RL(C) on its own class, R_e(C) when built with ``errors=e``; with k <= e label
        errors R_e(C) still bounds it; with k > e there is none (it refuses such labels)."""
        if errors > self.errors:
            return self.no_bound(cls, f"it is built for {self.errors} label error{'s' if self.errors != 1 else ''} "
                                      f"and refuses more; build it with errors={errors}", errors)
        b = self.mistake_bound()
        if errors < self.errors:
            b = Bound(b.value, f"{b.formula}; the labels, within {errors} error{'s' if errors != 1 else ''} of a "
                               f"concept, are within {self.errors} too", b.source)
        return b

    def get_params(self) -> dict:
        return {"errors": self.errors, "seed": self.seed}

    def mistake_bound(self) -> Bound:
        """E[mistakes] <= RL(C) (R_k(C)) against any adversary ([FHMM23])."""
        with limited(self):
            v = self.oracle.value()
        what = "RL(C)" if not self.errors else f"R_{self.errors}(C)"
        return Bound(v, f"E[mistakes] <= {what}, the randomized optimum (Filmus, Hanneke, Mehalel and Moran, "
                        "COLT 2023)", self.bound_source)

    def __repr__(self) -> str:
        return f"RandSOA(<{len(self.C)} concepts x {self.C.n_points} points>, errors={self.errors}, seed={self.seed})"
