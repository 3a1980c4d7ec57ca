"""The optimal learner SOA (the "optimal algorithm" of [Rivest94]), also for k label errors.

Source: [Rivest94], section 2.3.3: on input x, predict 1 iff
Opt(xi_1(V, x)) >= Opt(xi_0(V, x)), 0 otherwise (ties go to 1), where V is the current version space.
Its worst-case number of mistakes on C is exactly Opt(C): after a mistake on x the version space becomes
the side whose Opt is the smaller, and min(Opt(V_x^0), Opt(V_x^1)) <= Opt(V) - 1 whenever x splits V.
The version space is kept as Halving's and CON's (:class:`~solvers.learners.base.VersionSpaceLearner`);
the Opt values come from the exact solver (:mod:`solvers.opt`).

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

import time
from contextlib import nullcontext

from ..classes.finite import ConceptClass
from ..game_rules import MAX_ERRORS, Game, start
from ..opt.games import GameSolver
from ..opt.search import Solver
from .base import Bound, VersionSpaceLearner, as_int, check_label, cite


def limited(learner):
    """``with limited(learner):`` runs the learner's own solver under its :attr:`deadline
    <solvers.learners.base.OnlineLearner.deadline>` (an earlier deadline already set on the solver is kept);
    past it the solver raises :class:`solvers.opt.SearchStop`."""
    S, d = learner.solver, learner.deadline
    if d is None:
        return nullcontext()
    if S.deadline is not None:
        d = min(d, S.deadline)
    return S.limits(deadline=d)

__all__ = ["SOA"]


class SOA(VersionSpaceLearner):
    """The Standard Optimal Algorithm for a finite class.

    Rule: predict 1 iff Opt(V_x^1) >= Opt(V_x^0); keep the consistent concepts. Bound: Opt(C).

    Source: [Rivest94] (the optimal algorithm, section 2.3.3).

    Parameters
    ----------
    C : ConceptClass
    solver : Solver or GameSolver, optional
        A solver for ``C`` whose memo (or table) to reuse, for instance ``opt(C, solver=S)``'s.
        Without one, a new solver is made; classes over at most 12 distinct points get the subcube
        table (:mod:`solvers.opt.subcube`) at once, which makes every prediction a table look-up.
    errors : int, default 0
        k: the labels may disagree with the best concept k times; the learner is then optimal for
        D_k(C) (its solver is a :class:`~solvers.opt.games.GameSolver`).

    A :meth:`set_deadline` stops its solver (the bound, a prediction) with :class:`solvers.opt.SearchStop`.

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

    def __init__(self, C: ConceptClass, *, solver: Solver | None = None, errors=0):
        if not isinstance(C, ConceptClass):
            raise TypeError("SOA needs a ConceptClass")
        super().__init__(C)
        self.errors = as_int(errors, "errors", self.name, low=0, high=MAX_ERRORS)
        self.levels = start(C.full, self.errors)
        if self.errors:
            G = Game(errors=self.errors)
            if solver is not None and not (isinstance(solver, GameSolver) and solver.game == G):
                raise ValueError(f"the solver given to SOA is not a GameSolver for {G.describe()}")
            self.solver = solver if solver is not None else GameSolver(C, G)
            if self.solver.C is not C and self.solver.C != C:
                raise ValueError("the solver given to SOA was built for another class")
            self._table = None
            return
        if solver is not None and not isinstance(solver, Solver):
            raise ValueError(f"SOA needs the generic search's Solver, not a {type(solver).__name__} (opt of "
                             "monotone-disjunctions runs its own search: take opt(C, engine='search').solver)")
        self.solver = solver if solver is not None else Solver(C)
        S = self.solver
        if S.C is not C and S.C != C:
            raise ValueError("the solver given to SOA was built for another class")
        if S.table is None and solver is None and len(S.root_points) <= 12:
            S.subcube_table()
        # The subcube table (when the solver has one) answers every prediction by a look-up; p is
        # the subcube of the current version space.
        self._table = S.table
        if self._table is not None:
            self._table.fill()
            # Each column is constant on C, or equal / complementary to one of the table's points.
            where = {m: j for j, m in enumerate(S.root_masks)}
            full = C.full
            self._eff = []
            for col in C.columns:
                if col == 0 or col == full:
                    self._eff.append(None)
                elif col in where:
                    self._eff.append((where[col], 0))
                else:
                    self._eff.append((where[full ^ col], 1))
            self.p = self._table.root

    def predict_one(self, x) -> int:
        """1 iff Opt(V_x^1) >= Opt(V_x^0) (Opt of the empty set is -1); with errors, D_k of the states."""
        j = self._column(x)
        if self.errors:
            S = self.solver
            s0, s1 = S.child(self.levels, j, 0), S.child(self.levels, j, 1)
            if s1 is None:
                return 0
            if s0 is None:
                return 1
            with limited(self):
                return int(S.value(s1, None) >= S.value(s0, None))
        V0, V1 = self.C.split_index(self.V, j)
        if not V1:
            return 0
        if not V0:
            return 1
        T = self._table
        if T is not None:
            e, flip = self._eff[j]
            return int(T.U[T.child(self.p, e, 1 ^ flip)] >= T.U[T.child(self.p, e, flip)])
        with limited(self):
            return int(self.solver.value(V1) >= self.solver.value(V0))

    def learn_one(self, x, y) -> None:
        """Keep the concepts that agree with label ``y`` on ``x`` (and follow them in the table).

        Raises
        ------
        ValueError
            If ``y`` is not 0 or 1, or no concept of the class is consistent with the examples so far
            and this one.
        """
        if self.errors:
            y = check_label(y)
            nxt = self.solver.child(self.levels, self._column(x), y)
            if nxt is None:
                raise ValueError(f"no concept of the class is within {self.errors} errors of the examples so far "
                                 f"and ({x}, {y}); the sequence is not realizable with {self.errors} errors")
            self.levels = nxt
            self.V = nxt[0]
            return
        before = self.V
        super().learn_one(x, y)
        if self._table is not None and self.V != before:
            e, flip = self._eff[self._column(x)]
            self.p = self._table.child(self.p, e, check_label(y) ^ flip)

    def mistake_bound(self) -> Bound:
        """Opt(C): SOA makes at most Opt(C) mistakes on any realizable sequence ([Rivest94]).

        Returns
        -------
        Bound
            ``Bound(Opt(C), "Opt(C)", cite("Rivest94", "section 2.3.3 Optimal algorithm"))``.
        """
        if self.errors:
            with limited(self):
                value = self.solver.value()
            return Bound(int(value), f"D_{self.errors}(C), the optimum with {self.errors} label "
                         f"error{'s' if self.errors != 1 else ''} (Filmus, Hanneke, Mehalel and Moran, COLT 2023)",
                         self.bound_source)
        T = self._table
        value = T.value() if T is not None else self._opt_of_class()
        return Bound(int(value), "Opt(C)", self.bound_source)

    def _opt_of_class(self) -> int:
        """Opt(C) under the deadline: by the family's own search where :func:`solvers.opt.opt` has one (monotone
        disjunctions, by their symmetry: milliseconds where the generic search takes seconds), recorded in the
        solver's memo; else by the solver."""
        from ..opt import SearchStop, disjunctions, opt

        S = self.solver
        lo, hi = S.bounds(self.C.full)
        if lo < hi and disjunctions.handles(self.C):
            left = None if self.deadline is None else self.deadline - time.monotonic()
            if left is not None and left <= 0:
                raise SearchStop()
            r = opt(self.C, time_limit=left)
            if r.value is None:
                raise SearchStop()
            S.record(self.C.full, r.value, r.value)
            return r.value
        with limited(self):
            return S.value(self.C.full)

    def bound_on(self, cls, errors: int = 0) -> Bound:
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

    def state_key(self):
        return self.levels if self.errors else self.V

    def get_params(self) -> dict:
        return {"errors": self.errors} if self.errors else {}

    def remaining_bound(self, V) -> int:
        """Opt(V): SOA makes at most Opt(V) more mistakes from version space V ([Rivest94]); with errors,
        D_k of its state (the tuple of levels V when the game's errors are its own, :mod:`solvers.game_rules`;
        in a game with fewer errors, its own levels)."""
        with limited(self):
            if self.errors:
                levels = tuple(V) if isinstance(V, tuple) and len(V) == self.errors + 1 else self.levels
                return self.solver.value(levels, None)
            return self.solver.value(V if isinstance(V, int) else V[0])
