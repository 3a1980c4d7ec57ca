"""The optimal learner SOA (the "optimal algorithm" of [Rivest94]), also for k label errors.

Source: [Rivest94], section 2.3.3: on input x, predict 1 iff
Opt(xi_1(V, x)) >= Opt(xi_0(V, x)), 0 otherwise (ties go to 1), where V is the current version space.
Its worst-case number of mistakes on C is exactly Opt(C): after a mistake on x the version space becomes
the side whose Opt is the smaller, and min(Opt(V_x^0), Opt(V_x^1)) <= Opt(V) - 1 whenever x splits V.
The version space is kept as Halving's and CON's (:class:`~solvers.learners.base.VersionSpaceLearner`);
the Opt values come from a version-space oracle (:class:`solvers.opt.VersionSpaceOracle`: the exact solver's,
or any object with its few methods).

With ``errors=k`` the labels may disagree k times with the best concept ([FHMM23]'s k-realizable
sequences, :mod:`solvers.game_rules`): the learner keeps every concept's remaining budget (the state
``levels``) and predicts 1 iff D_k(s_x^1) >= D_k(s_x^0). By the game's recurrence (a split's children
have D_k >= d - 1 on both sides only if D_k(s) >= d; a label every living concept agrees with changes
nothing) each mistake lowers D_k of the state by at least one, so it makes at most D_k(C) mistakes.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING, Hashable

from ..classes.finite import ConceptClass
from ..game_rules import MAX_ERRORS, Game
from ..opt.oracle import VersionSpaceOracle, oracle_for
from .base import Bound, Point, VersionSpace, VersionSpaceLearner, as_int, check_label, cite

if TYPE_CHECKING:
    from ..classes.protocol import ConceptClassProtocol


_UNLIMITED = nullcontext()
_STANDARD = Game()  # (made once: a Game checks its fields)


def limited(learner):
    """``with limited(learner):`` runs the learner's oracle under its :attr:`deadline
    <solvers.learners.base.OnlineLearner.deadline>` (an earlier deadline already set on the oracle is kept);
    past it the oracle raises :class:`solvers.opt.SearchStop`."""
    O, d = learner.oracle, learner.deadline
    if d is None:
        return _UNLIMITED
    if O.deadline is not None:
        d = min(d, O.deadline)
    return O.limits(deadline=d)


__all__ = ["SOA"]


class SOA(VersionSpaceLearner):
    """The Standard Optimal Algorithm for a finite class.

    Rule: predict 1 iff Opt(V_x^1) >= Opt(V_x^0); keep the consistent concepts. Bound: Opt(C).

    Source: [Rivest94] (the optimal algorithm, section 2.3.3).

    Parameters
    ----------
    C : ConceptClass
    solver : VersionSpaceOracle, Solver or GameSolver, optional
        Where the values of version spaces come from (:class:`solvers.opt.VersionSpaceOracle`): any oracle
        of ``C`` and the game, or a solver for ``C`` whose memo (or table) to reuse, for instance
        ``opt(C, solver=S)``'s. Without one, :func:`solvers.opt.oracle.oracle_for` makes one (classes over
        at most 12 distinct points get the subcube table at once, which makes every prediction a look-up).
        Kept as :attr:`oracle`.
    errors : int, default 0
        k: the labels may disagree with the best concept k times; the learner is then optimal for
        D_k(C) (its oracle's game is ``Game(errors=k)``).

    A :meth:`set_deadline` stops its oracle (the bound, a prediction) with :class:`solvers.opt.SearchStop`.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> learner = SOA(make("thresholds", N=7))
    >>> learner.predict_one((4,))
    1
    >>> learner.learn_one((4,), 0)      # so the threshold t is in {5, 6, 7, 8}
    >>> learner.predict_one((5,))       # Opt({5}) = 0 < Opt({6, 7, 8}) = 1
    0
    >>> learner.mistake_bound().value
    3
    >>> SOA(make("thresholds", N=7), errors=1).mistake_bound().value    # D_1 of 8 thresholds
    5
    """

    name = "soa"
    bound_formula = "Opt(C) (D_k(C) with errors=k)"
    bound_source = cite("Rivest94", "section 2.3.3 Optimal algorithm")
    summary = "the optimal algorithm: predict 1 iff Opt(V_x^1) >= Opt(V_x^0) (D_k with errors=k)"

    #: Label errors accepted: the ``errors`` it was built with (more would leave no concept in its state).
    max_errors = property(lambda self: self.errors)

    def __init__(self, C: ConceptClass, *, solver: VersionSpaceOracle | None = None, errors=0):
        if not isinstance(C, ConceptClass):
            raise TypeError("SOA needs a ConceptClass")
        super().__init__(C)
        self.errors = as_int(errors, "errors", self.name, low=0, high=MAX_ERRORS)
        #: The values of version spaces (:class:`solvers.opt.VersionSpaceOracle`); copies share it.
        self.oracle = oracle_for(C, Game(errors=self.errors) if self.errors else _STANDARD, solver=solver, who="SOA")
        #: The oracle's state: V (a bitset of concepts), or with errors the tuple of levels (V is levels[0]).
        self.state = self.oracle.root()

    @property
    def solver(self) -> VersionSpaceOracle:
        """The oracle (:attr:`oracle`), by the name of the constructor's argument."""
        return self.oracle

    def predict_one(self, x: Point) -> int:
        """1 iff Opt(V_x^1) >= Opt(V_x^0) (Opt of the empty set is -1); with errors, D_k of the states."""
        O, j = self.oracle, self._column(x)
        s0, s1 = O.child(self.state, j, 0), O.child(self.state, j, 1)
        if s1 is None:
            return 0
        if s0 is None:
            return 1
        with limited(self):
            return int(O.value(s1) >= O.value(s0))

    def learn_one(self, x: Point, y: int) -> None:
        """Keep the concepts that agree with label ``y`` on ``x`` (with errors: that are within their budget).

        Raises
        ------
        ValueError
            If ``y`` is not 0 or 1, or no concept of the class is consistent with the examples so far
            and this one (within ``errors`` label errors).
        """
        y = check_label(y)
        nxt = self.oracle.child(self.state, self._column(x), y)
        if nxt is None:
            if self.errors:
                raise ValueError(f"no concept of the class is within {self.errors} errors of the examples so far "
                                 f"and ({x}, {y}); the sequence is not realizable with {self.errors} errors")
            raise ValueError(f"no concept of the class labels the examples so far and ({x}, {y}); the sequence is "
                             "not realizable")
        self.state = nxt
        self.V = nxt[0] if self.errors else nxt

    def mistake_bound(self) -> Bound:
        """Opt(C): SOA makes at most Opt(C) mistakes on any realizable sequence ([Rivest94]).

        Returns
        -------
        Bound
            ``Bound(Opt(C), "Opt(C)", cite("Rivest94", "section 2.3.3 Optimal algorithm"))``; with
            ``errors=k``, D_k(C).
        """
        with limited(self):
            value = self.oracle.value()
        if self.errors:
            return Bound(int(value), f"D_{self.errors}(C), the optimum with {self.errors} label "
                         f"error{'s' if self.errors != 1 else ''} (Filmus, Hanneke, Mehalel and Moran, COLT 2023)",
                         self.bound_source)
        return Bound(int(value), "Opt(C)", self.bound_source)

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """The bound on its own class: Opt(C), or D_e(C) when built with ``errors=e``. With k <= e label
        errors D_e(C) still bounds it (a sequence within k errors of a concept is within e); with k > e
        there is none (it refuses a label that no concept matches within e errors)."""
        if errors > self.errors:
            return self.no_bound(cls, f"it is built for {self.errors} label error{'s' if self.errors != 1 else ''} "
                                      f"and refuses more; build it with errors={errors}", errors)
        b = self.mistake_bound()
        if errors < self.errors:
            b = Bound(b.value, f"{b.formula}; the labels, within {errors} error{'s' if errors != 1 else ''} of a "
                               f"concept, are within {self.errors} too", b.source)
        return b

    def state_key(self) -> Hashable:
        return self.state

    def get_params(self) -> dict:
        return {"errors": self.errors} if self.errors else {}

    def remaining_bound(self, V: VersionSpace) -> int:
        """Opt(V): SOA makes at most Opt(V) more mistakes from version space V ([Rivest94]); with errors,
        D_k of its state (the tuple of levels V when the game's errors are its own, :mod:`solvers.game_rules`;
        in a game with fewer errors, its own levels)."""
        with limited(self):
            if self.errors:
                levels = tuple(V) if isinstance(V, tuple) and len(V) == self.errors + 1 else self.state
                return self.oracle.value(levels)
            return self.oracle.value(V if isinstance(V, int) else V[0])
